//! The board: cells (`a1`..`f6`), a phase's draw of six cells, the lines and who holds
//! each cell.

use super::*;

/// A cell of the board, written column letter then row number: `a1` (top left) .. `f6`; a
/// one-byte index into the bitboards, the shared [`crate::grid::BoardCell`].
pub type Cell = crate::grid::BoardCell<SIDE, SIDE>;

impl Cell {
    /// The cell's value within its row line: its column's value, 1 (`a`) to 6 (`f`).
    #[must_use]
    pub fn value_in_row(self) -> u8 {
        self.column() as u8 + 1
    }

    /// The cell's value within its column line: its row's value, 1 (top) to 6 (bottom).
    #[must_use]
    pub fn value_in_column(self) -> u8 {
        self.row() as u8 + 1
    }
}

/// The outcome of a phase's chance step: the cells to auction, in order A..F.
///
/// Any number of cells up to 36 can be written down, so that [`Game::check_chance`] can say
/// "a phase draws exactly six cells" instead of a parse error; only six distinct cells not yet
/// auctioned are legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseDraw {
    pub(super) cells: [Cell; CELLS],
    pub(super) len: u8,
}

impl PhaseDraw {
    /// The draw of `cells` in auction order; `None` if there are more than 36.
    #[must_use]
    pub fn new(cells: &[Cell]) -> Option<PhaseDraw> {
        if cells.len() > CELLS {
            return None;
        }
        let mut draw = PhaseDraw {
            cells: [Cell::default(); CELLS],
            len: cells.len() as u8,
        };
        draw.cells[..cells.len()].copy_from_slice(cells);
        Some(draw)
    }

    /// The cells in auction order.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells[..usize::from(self.len)]
    }
}

/// One of the 12 lines of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// A horizontal line, 0 = row 1 (the top).
    Row(u8),
    /// A vertical line, 0 = column `a`.
    Column(u8),
}

impl Line {
    /// Every line: rows 1..6, then columns a..f.
    pub const ALL: [Line; 2 * SIDE] = [
        Line::Row(0),
        Line::Row(1),
        Line::Row(2),
        Line::Row(3),
        Line::Row(4),
        Line::Row(5),
        Line::Column(0),
        Line::Column(1),
        Line::Column(2),
        Line::Column(3),
        Line::Column(4),
        Line::Column(5),
    ];

    /// The points for winning the line: 6 for row 1 and column `a`, down to 1 for row 6 and
    /// column `f`.
    #[must_use]
    pub fn worth(self) -> u8 {
        match self {
            Line::Row(i) | Line::Column(i) => SIDE as u8 - i,
        }
    }

    /// The line's cells with their values within the line.
    pub(super) fn cells(self) -> impl Iterator<Item = (Cell, u8)> {
        (0..SIDE).map(move |k| {
            let cell = match self {
                Line::Row(r) => Cell::new(k, usize::from(r)),
                Line::Column(c) => Cell::new(usize::from(c), k),
            }
            .expect("lines lie on the board");
            (cell, k as u8 + 1)
        })
    }
}

impl fmt::Display for Line {
    /// `row 1` .. `row 6`, `column a` .. `column f`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Row(r) => write!(f, "row {}", r + 1),
            Line::Column(c) => write!(f, "column {}", char::from(b'a' + c)),
        }
    }
}

impl Serialize for Line {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Who holds one line now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineResult {
    /// The line.
    pub line: Line,
    /// Its worth in points.
    pub worth: u8,
    /// Each seat's total value of cells on the line.
    pub totals: [u8; 2],
    /// Each seat's number of cells on the line.
    pub cells: [u8; 2],
    /// The seat with the higher total, `None` if tied (including an empty line).
    pub winner: Option<Seat>,
}

/// The board: who claimed which cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board([Option<Seat>; CELLS]);

impl Default for Board {
    fn default() -> Self {
        Board([None; CELLS])
    }
}

impl Board {
    /// The seat that claimed `cell`, if any.
    #[must_use]
    pub fn owner(&self, cell: Cell) -> Option<Seat> {
        self.0[cell.index()]
    }

    /// Gives `cell` to `owner` (or to nobody). For building positions; a game only claims cells
    /// through auctions.
    pub fn set(&mut self, cell: Cell, owner: Option<Seat>) {
        self.0[cell.index()] = owner;
    }

    /// The result of one line: the higher total value of own cells wins; equal totals (an empty
    /// line too) win nothing. The number of cells does not matter, only their values.
    #[must_use]
    pub fn line_result(&self, line: Line) -> LineResult {
        let mut totals = [0u8; 2];
        let mut cells = [0u8; 2];
        for (cell, value) in line.cells() {
            if let Some(seat) = self.owner(cell) {
                totals[seat.index()] += value;
                cells[seat.index()] += 1;
            }
        }
        LineResult {
            line,
            worth: line.worth(),
            totals,
            cells,
            winner: leader(totals[0], totals[1]),
        }
    }

    /// All 12 lines' results: rows 1..6, then columns a..f.
    #[must_use]
    pub fn line_results(&self) -> [LineResult; 2 * SIDE] {
        Line::ALL.map(|line| self.line_result(line))
    }

    /// Each seat's total worth of lines won.
    #[must_use]
    pub fn line_points(&self) -> [u32; 2] {
        let mut points = [0u32; 2];
        for result in self.line_results() {
            if let Some(w) = result.winner {
                points[w.index()] += u32::from(result.worth);
            }
        }
        points
    }
}

//! The 7×6 grid: cells and directions, the bitboards (one 42-bit set per kind of stone) and
//! the shifts and patterns the victory conditions are built from, and a seat's [`Sight`] of it.

use super::*;

/// A cell of the grid, written column letter then row number: `a1` (top left) .. `g6`; a
/// one-byte index into the bitboards, the shared [`crate::grid::BoardCell`].
pub type Cell = crate::grid::BoardCell<COLUMNS, ROWS>;

impl Cell {
    pub(super) fn from_bit_index(i: u32) -> Cell {
        crate::grid::BoardCell(i as u8)
    }

    /// The neighbour one step in `direction`, if on the grid.
    #[must_use]
    pub fn step(self, direction: Direction) -> Option<Cell> {
        let (c, r) = (self.column() as i32, self.row() as i32);
        let (c, r) = match direction {
            Direction::Up => (c, r - 1),
            Direction::Down => (c, r + 1),
            Direction::Left => (c - 1, r),
            Direction::Right => (c + 1, r),
        };
        (c >= 0 && r >= 0)
            .then(|| Cell::new(c as usize, r as usize))
            .flatten()
    }
}

/// A direction on the grid (row 1 is at the top, so `up` goes towards row 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards row 1.
    Up,
    /// Towards row 6.
    Down,
    /// Towards column `a`.
    Left,
    /// Towards column `g`.
    Right,
}

impl Direction {
    /// All four, in notation order.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    pub(super) fn parse(text: &str) -> Option<Direction> {
        match text.to_ascii_lowercase().as_str() {
            "up" | "u" => Some(Direction::Up),
            "down" | "d" => Some(Direction::Down),
            "left" | "l" => Some(Direction::Left),
            "right" | "r" => Some(Direction::Right),
            _ => None,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        })
    }
}

pub(super) const FULL: u64 = (1u64 << CELLS) - 1;
pub(super) const COLUMN_A: u64 = column_mask(0);
pub(super) const COLUMN_G: u64 = column_mask(COLUMNS - 1);
pub(super) const ROW_1: u64 = row_mask(0);
pub(super) const ROW_6: u64 = row_mask(ROWS - 1);
pub(super) const EDGE: u64 = COLUMN_A | COLUMN_G | ROW_1 | ROW_6;
/// Cells not bordering an edge of the grid: columns b..f, rows 2..5.
pub(super) const INTERIOR: u64 = FULL & !EDGE;
pub(super) const CORNERS: u64 = (COLUMN_A | COLUMN_G) & (ROW_1 | ROW_6);

/// The bits of column `c` (0 = `a`).
#[must_use]
pub const fn column_mask(c: usize) -> u64 {
    let mut m = 0;
    let mut r = 0;
    while r < ROWS {
        m |= 1 << (r * COLUMNS + c);
        r += 1;
    }
    m
}

/// The bits of row `r` (0 = row 1, the top).
#[must_use]
pub const fn row_mask(r: usize) -> u64 {
    ((1u64 << COLUMNS) - 1) << (r * COLUMNS)
}

/// Each bit moved one column right (towards `g`); bits leaving the grid vanish.
pub(super) fn east(x: u64) -> u64 {
    (x << 1) & !COLUMN_A & FULL
}
/// Each bit moved one column left.
pub(super) fn west(x: u64) -> u64 {
    (x >> 1) & !COLUMN_G
}
/// Each bit moved one row down (towards row 6).
pub(super) fn south(x: u64) -> u64 {
    (x << COLUMNS) & FULL
}
/// Each bit moved one row up.
pub(super) fn north(x: u64) -> u64 {
    x >> COLUMNS
}

/// Whether `m` holds `k` cells in a row horizontally, vertically or diagonally.
pub(super) fn has_line(m: u64, k: u32) -> bool {
    let steps: [fn(u64) -> u64; 4] = [east, south, |x| south(east(x)), |x| south(west(x))];
    steps.iter().any(|step| {
        let mut run = m;
        for _ in 1..k {
            run = m & step(run);
        }
        run != 0
    })
}

/// Cells whose 2×2 square (with the cells left, above and above-left) lies in `m`.
pub(super) fn has_square(m: u64) -> bool {
    m & east(m) & south(m) & south(east(m)) != 0
}

/// Cells all four of whose diagonal neighbours are in `m` (only interior cells have four).
pub(super) fn diagonals_in(m: u64) -> u64 {
    south(east(m)) & south(west(m)) & north(east(m)) & north(west(m))
}

/// Cells all four of whose orthogonal neighbours are in `m` (only interior cells have four).
pub(super) fn orthogonals_in(m: u64) -> u64 {
    east(m) & west(m) & south(m) & north(m)
}

/// The 3×3 squares of the grid, as masks.
pub(super) const SQUARES_3X3: [u64; 20] = {
    let mut out = [0u64; 20];
    let mut i = 0;
    let mut top = 0;
    while top + 3 <= ROWS {
        let mut left = 0;
        while left + 3 <= COLUMNS {
            let mut m = 0u64;
            let mut dr = 0;
            while dr < 3 {
                let mut dc = 0;
                while dc < 3 {
                    m |= 1 << ((top + dr) * COLUMNS + left + dc);
                    dc += 1;
                }
                dr += 1;
            }
            out[i] = m;
            i += 1;
            left += 1;
        }
        top += 1;
    }
    out
};

/// The kind of stone on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stone {
    /// `p1`'s colour.
    P1,
    /// `p2`'s colour.
    P2,
    /// A neutral stone.
    Gray,
}

/// The 7×6 grid: one bitboard per colour, and the frozen stones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    pub(super) colour: [u64; 2],
    pub(super) gray: u64,
    pub(super) frozen: u64,
}

impl Grid {
    /// Builds a grid from a picture: one line per row (row 1 first), one character per column:
    /// `X` `p1`, `O` `p2`, `+` gray, `.` empty; lower case `x`, `o` and `*` are the same stones
    /// frozen. Spaces are ignored. For tests and analysis.
    pub fn from_picture(rows: &[&str]) -> Result<Grid, String> {
        if rows.len() != ROWS {
            return Err(format!("{} rows, the grid has 6", rows.len()));
        }
        let mut grid = Grid::default();
        for (r, line) in rows.iter().enumerate() {
            let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            if chars.len() != COLUMNS {
                return Err(format!("row {} has {} cells, not 7", r + 1, chars.len()));
            }
            for (c, ch) in chars.into_iter().enumerate() {
                let bit = Cell::new(c, r).expect("on the grid").bit();
                match ch {
                    'X' | 'x' => grid.colour[0] |= bit,
                    'O' | 'o' => grid.colour[1] |= bit,
                    '+' | '*' => grid.gray |= bit,
                    '.' => {}
                    _ => return Err(format!("`{ch}` is not a cell")),
                }
                if matches!(ch, 'x' | 'o' | '*') {
                    grid.frozen |= bit;
                }
            }
        }
        Ok(grid)
    }

    /// The stone on `cell`, if any.
    #[must_use]
    pub fn stone(&self, cell: Cell) -> Option<Stone> {
        let b = cell.bit();
        if self.colour[0] & b != 0 {
            Some(Stone::P1)
        } else if self.colour[1] & b != 0 {
            Some(Stone::P2)
        } else if self.gray & b != 0 {
            Some(Stone::Gray)
        } else {
            None
        }
    }

    /// Whether the stone on `cell` is frozen.
    #[must_use]
    pub fn is_frozen(&self, cell: Cell) -> bool {
        self.frozen & cell.bit() != 0
    }

    /// The occupied cells.
    #[must_use]
    pub fn occupied(&self) -> u64 {
        self.colour[0] | self.colour[1] | self.gray
    }

    /// The stones of `seat`'s colour.
    #[must_use]
    pub fn stones(&self, seat: Seat) -> u64 {
        self.colour[seat.index()]
    }

    /// The gray stones.
    #[must_use]
    pub fn gray(&self) -> u64 {
        self.gray
    }

    /// The frozen stones.
    #[must_use]
    pub fn frozen(&self) -> u64 {
        self.frozen
    }

    pub(super) fn place(&mut self, cell: Cell, stone: Stone) {
        match stone {
            Stone::P1 => self.colour[0] |= cell.bit(),
            Stone::P2 => self.colour[1] |= cell.bit(),
            Stone::Gray => self.gray |= cell.bit(),
        }
    }

    /// Moves the (unfrozen) stone on `from` to the empty `to`.
    pub(super) fn relocate(&mut self, from: Cell, to: Cell) {
        let (f, t) = (from.bit(), to.bit());
        let [p1, p2] = &mut self.colour;
        for m in [p1, p2, &mut self.gray] {
            if *m & f != 0 {
                *m = (*m & !f) | t;
            }
        }
    }

    /// Where a Leap of the stone on `from` in `direction` lands: the nearest empty cell on that
    /// line, passing over stones; `None` if there is none.
    #[must_use]
    pub fn leap_target(&self, from: Cell, direction: Direction) -> Option<Cell> {
        let occupied = self.occupied();
        let mut cell = from.step(direction)?;
        loop {
            if occupied & cell.bit() == 0 {
                return Some(cell);
            }
            cell = cell.step(direction)?;
        }
    }

    /// Whether `condition` holds for `seat` on this grid.
    #[must_use]
    pub fn meets(&self, seat: Seat, condition: Condition) -> bool {
        let s = Sight {
            own: self.colour[seat.index()],
            opponent: self.colour[seat.other().index()],
            gray: self.gray,
            frozen: self.frozen,
        };
        condition.holds(&s)
    }

    /// The conditions of `set` that hold for `seat`.
    #[must_use]
    pub fn met(&self, seat: Seat, set: ConditionSet) -> ConditionSet {
        ConditionSet(
            set.iter()
                .filter(|&c| self.meets(seat, c))
                .fold(0, |m, c| m | c.bit()),
        )
    }
}

/// The grid as one seat sees it for its conditions: its own stones, the opponent's, gray, frozen.
#[derive(Clone, Copy, Debug)]
pub struct Sight {
    /// Stones of the seat's colour.
    pub own: u64,
    /// Stones of the opponent's colour.
    pub opponent: u64,
    /// Neutral stones.
    pub gray: u64,
    /// Frozen stones of any colour.
    pub frozen: u64,
}

/// The index of the `n`th set bit of `m` (0-based).
pub(super) fn nth_bit(mut m: u64, n: u32) -> u32 {
    for _ in 0..n {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// The cells of a bitboard, in grid order.
pub(super) fn bits(mut m: u64) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros();
            m &= m - 1;
            Cell::from_bit_index(i)
        })
    })
}

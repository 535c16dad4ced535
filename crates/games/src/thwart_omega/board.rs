//! The board: colours, cells and placements, what a cell holds, and the board's shape as
//! 128-bit masks ([`Geometry`]).

use super::*;

/// A stone colour. Black scores for `p1`, White for `p2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Black, `p1`'s colour.
    Black,
    /// White, `p2`'s colour.
    White,
}

impl Colour {
    /// Both colours, Black first.
    pub const BOTH: [Colour; 2] = [Colour::Black, Colour::White];

    /// The seat that scores this colour.
    #[must_use]
    pub fn seat(self) -> Seat {
        match self {
            Colour::Black => Seat::P1,
            Colour::White => Seat::P2,
        }
    }

    /// The colour that `seat` scores.
    #[must_use]
    pub fn of(seat: Seat) -> Colour {
        match seat {
            Seat::P1 => Colour::Black,
            Seat::P2 => Colour::White,
        }
    }

    /// The colour's name, capitalised.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "Black",
            Colour::White => "White",
        }
    }
}

/// A cell of the board: column `a`.. from the left, row `1`.. from the top. The grid games'
/// shared cell, with its notation.
pub use crate::grid::Cell;

/// Where a cell is in the board's bit sets.
impl Cell {
    pub(super) fn index(self, size: u8) -> u32 {
        u32::from(self.row) * u32::from(size) + u32::from(self.column)
    }

    pub(super) fn from_index(index: u32, size: u8) -> Self {
        // A table instead of a division: random playouts turn indices into cells all the time.
        CELLS[usize::from(size)][index as usize]
    }

    pub(super) fn on_board(self, size: u8) -> bool {
        self.is_on(size, size)
    }
}

/// `CELLS[size][index]`: the cell at a bit index on a board of side `size`.
pub(super) static CELLS: [[Cell; MAX_CELLS]; MAX_SIZE as usize + 1] = cell_table();

pub(super) const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

pub(super) const fn cell_table() -> [[Cell; MAX_CELLS]; MAX_SIZE as usize + 1] {
    let mut table = [[Cell { column: 0, row: 0 }; MAX_CELLS]; MAX_SIZE as usize + 1];
    let mut size = 1;
    while size <= MAX_SIZE as usize {
        let mut index = 0;
        while index < size * size {
            table[size][index] = Cell {
                column: (index % size) as u8,
                row: (index / size) as u8,
            };
            index += 1;
        }
        size += 1;
    }
    table
}

/// One seat's move: where its black stone and its white stone go. Written `B d4 W e5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The black stone's cell.
    pub black: Cell,
    /// The white stone's cell.
    pub white: Cell,
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "B {} W {}", self.black, self.white)
    }
}

/// Thwart Omega has no chance events; this type has no values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoChance {}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellContent {
    /// Nothing yet.
    Empty,
    /// One black stone (weight 1).
    Black,
    /// Two black stones, placed in the same round by both seats (weight 2).
    DoubleBlack,
    /// One white stone.
    White,
    /// Two white stones.
    DoubleWhite,
    /// Burned: both colours met here, or it was left empty at the end. Nobody's.
    Burned,
}

impl CellContent {
    /// The character of the board picture: `.` empty, `b`/`w` a single stone, `B`/`W` a double,
    /// `#` burned.
    #[must_use]
    pub fn symbol(self) -> char {
        match self {
            CellContent::Empty => '.',
            CellContent::Black => 'b',
            CellContent::DoubleBlack => 'B',
            CellContent::White => 'w',
            CellContent::DoubleWhite => 'W',
            CellContent::Burned => '#',
        }
    }

    pub(super) fn describe(self) -> &'static str {
        match self {
            CellContent::Empty => "nothing",
            CellContent::Black => "a black stone",
            CellContent::DoubleBlack => "a double black stone",
            CellContent::White => "a white stone",
            CellContent::DoubleWhite => "a double white stone",
            CellContent::Burned => "a burned cell",
        }
    }
}

/// The board's shape as bit masks, fixed for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Geometry {
    pub(super) size: u8,
    /// Every cell of the board.
    pub(super) full: u128,
    /// Every cell but those of column `a`: where a step east may land.
    pub(super) not_first_column: u128,
    /// Every cell but those of the last column: where a step west may land.
    pub(super) not_last_column: u128,
}

impl Geometry {
    pub(super) fn new(size: u8) -> Self {
        let cells = u32::from(size) * u32::from(size);
        let full = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let mut first_column = 0u128;
        for row in 0..u32::from(size) {
            first_column |= 1u128 << (row * u32::from(size));
        }
        let last_column = first_column << (size - 1);
        Geometry {
            size,
            full,
            not_first_column: full & !first_column,
            not_last_column: full & !last_column,
        }
    }

    /// The cells of `set` and their four neighbours.
    pub(super) fn grow(&self, set: u128) -> u128 {
        let n = u32::from(self.size);
        set | ((set << 1) & self.not_first_column)
            | ((set >> 1) & self.not_last_column)
            | ((set << n) & self.full)
            | (set >> n)
    }

    pub(super) fn bit(&self, cell: Cell) -> u128 {
        1u128 << cell.index(self.size)
    }
}

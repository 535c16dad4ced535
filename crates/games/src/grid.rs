//! The cell of the grid games (Square Goofspiel, Thwart Omega, The Witch's Brew) and its
//! notation: a column letter from `a` and a row number from `1`, row 1 on top, as RULINGS.md
//! fixes for every game. Output is lower case; input is case-insensitive.
//!
//! Reading a cell on a board tells two mistakes apart ([`CellError`]): text that is not a cell
//! name at all (`44`, `d`) and a cell name beyond the board (`h1` on a 7×7 board). Thwart Omega
//! says which; the games whose boards have fewer than ten rows also take only the two-character
//! form ([`Cell::parse_short`]).

use std::fmt;

use serde::Serialize;

/// A cell by its coordinates: column 0 is `a` (the leftmost), row 0 is row `1` (the top).
/// Thwart Omega's cells are these; Square Goofspiel and The Witch's Brew keep a one-byte index
/// into their bitboards ([`BoardCell`]) that converts to it and is read and written through it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// 0 for column `a`.
    pub column: u8,
    /// 0 for row `1` (the top row).
    pub row: u8,
}

/// Why a text is not a cell of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellError {
    /// Not a cell name: a letter `a`-`z` (either case) and then a row number.
    NotACell,
    /// A cell name, but not on the board.
    OffBoard,
}

impl Cell {
    /// The cell at `column` (0 = `a`) and `row` (0 = row `1`, the top).
    #[must_use]
    pub const fn new(column: u8, row: u8) -> Self {
        Cell { column, row }
    }

    /// Whether the cell lies on a board of `columns` × `rows`.
    #[must_use]
    pub fn is_on(self, columns: u8, rows: u8) -> bool {
        self.column < columns && self.row < rows
    }

    /// Reads a cell name (`d4`, `K11`) on a board of `columns` × `rows`: a letter, either case,
    /// then the row's number in digits. Not of that shape: [`CellError::NotACell`]; a column or
    /// row beyond the board (or row `0`): [`CellError::OffBoard`].
    pub fn parse_on(text: &str, columns: u8, rows: u8) -> Result<Cell, CellError> {
        let text = text.trim();
        let mut chars = text.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or(CellError::NotACell)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CellError::NotACell);
        }
        let row = digits.parse::<u32>().map_err(|_| CellError::NotACell)?;
        let column = u32::from(letter.to_ascii_lowercase() as u8 - b'a');
        if column >= u32::from(columns) || row == 0 || row > u32::from(rows) {
            return Err(CellError::OffBoard);
        }
        Ok(Cell::new(column as u8, (row - 1) as u8))
    }

    /// [`Cell::parse_on`] for a board of at most nine rows, where a cell name is exactly two
    /// characters (`d4`, never `d04`); `None` for anything that is not a cell of the board.
    #[must_use]
    pub fn parse_short(text: &str, columns: u8, rows: u8) -> Option<Cell> {
        (text.trim().len() == 2)
            .then(|| Cell::parse_on(text, columns, rows).ok())
            .flatten()
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.column),
            u32::from(self.row) + 1
        )
    }
}

impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A cell of a board of `COLUMNS` × `ROWS` (at most 64 cells, at most nine rows) as a one-byte
/// index into its bitboards, `row * COLUMNS + column`: Square Goofspiel's cell is
/// `BoardCell<6, 6>`, The Witch's Brew's `BoardCell<7, 6>`. It is read and written as the
/// [`Cell`] it stands for (a two-character name on these boards).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardCell<const COLUMNS: usize, const ROWS: usize>(pub(crate) u8);

impl<const COLUMNS: usize, const ROWS: usize> BoardCell<COLUMNS, ROWS> {
    /// How many cells the board has.
    pub const COUNT: usize = COLUMNS * ROWS;

    /// The cell in `column` (0 = `a`) and `row` (0 = row 1, the top), if on the board.
    #[must_use]
    pub fn new(column: usize, row: usize) -> Option<Self> {
        (column < COLUMNS && row < ROWS).then(|| BoardCell((row * COLUMNS + column) as u8))
    }

    /// The cell with index `i` (`row * COLUMNS + column`), if on the board.
    #[must_use]
    pub fn from_index(i: usize) -> Option<Self> {
        (i < Self::COUNT).then_some(BoardCell(i as u8))
    }

    /// `row * COLUMNS + column`.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The column, 0 (`a`) to `COLUMNS - 1`.
    #[must_use]
    pub fn column(self) -> usize {
        self.index() % COLUMNS
    }

    /// The row, 0 (row 1, the top) to `ROWS - 1`.
    #[must_use]
    pub fn row(self) -> usize {
        self.index() / COLUMNS
    }

    /// The cell's bit in a bitboard of the board.
    #[must_use]
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Every cell, `a1`, `b1`, .. row by row.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..Self::COUNT as u8).map(BoardCell)
    }

    /// Reads a cell name (`d4`, either case) of this board; `None` if the text is not one.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        let cell = Cell::parse_short(text, COLUMNS as u8, ROWS as u8)?;
        Self::new(usize::from(cell.column), usize::from(cell.row))
    }
}

/// The shared grid cell this board index stands for.
impl<const COLUMNS: usize, const ROWS: usize> From<BoardCell<COLUMNS, ROWS>> for Cell {
    fn from(cell: BoardCell<COLUMNS, ROWS>) -> Self {
        Cell::new(cell.column() as u8, cell.row() as u8)
    }
}

impl<const COLUMNS: usize, const ROWS: usize> fmt::Display for BoardCell<COLUMNS, ROWS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Cell::from(*self).fmt(f)
    }
}

impl<const COLUMNS: usize, const ROWS: usize> Serialize for BoardCell<COLUMNS, ROWS> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_case_insensitively_and_tell_not_a_cell_from_off_the_board() {
        assert_eq!(Cell::parse_on(" D4 ", 7, 7), Ok(Cell::new(3, 3)));
        assert_eq!(Cell::parse_on("k11", 11, 11), Ok(Cell::new(10, 10)));
        assert_eq!(Cell::parse_on("a1", 1, 1), Ok(Cell::new(0, 0)));
        for bad in [
            "",
            "a",
            "4d",
            "44",
            "#1",
            "é1",
            "d-4",
            "d4x",
            "a99999999999",
        ] {
            assert_eq!(Cell::parse_on(bad, 7, 7), Err(CellError::NotACell), "{bad}");
        }
        for off in ["h1", "a8", "a0", "z9", "a12"] {
            assert_eq!(Cell::parse_on(off, 7, 7), Err(CellError::OffBoard), "{off}");
        }
    }

    #[test]
    fn short_cells_are_two_characters_on_the_board() {
        assert_eq!(Cell::parse_short(" D4 ", 7, 6), Some(Cell::new(3, 3)));
        assert_eq!(Cell::parse_short("g6", 7, 6), Some(Cell::new(6, 5)));
        for bad in ["", "a", "a10", "d04", "4d", "a0", "#1", "é1", "h1", "a7"] {
            assert_eq!(Cell::parse_short(bad, 7, 6), None, "{bad}");
        }
    }

    #[test]
    fn cells_are_written_in_lower_case_and_read_back() {
        for (column, row) in [(0, 0), (3, 3), (10, 10), (25, 8)] {
            let cell = Cell::new(column, row);
            let text = cell.to_string();
            assert_eq!(text, text.to_ascii_lowercase());
            assert_eq!(Cell::parse_on(&text, 26, 11), Ok(cell));
        }
        assert_eq!(Cell::new(10, 10).to_string(), "k11");
    }
}

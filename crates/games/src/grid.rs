//! Cell names shared by the grid games: a column letter from `a` and a row number from `1`, row 1
//! on top, as RULINGS.md fixes for every game. Output is lower case; input is case-insensitive.

use std::fmt;

/// Reads a cell of one letter and one digit (`d4`), 0-based as (column, row). The caller checks
/// its grid's bounds; this only refuses text that is not of that shape.
pub(crate) fn parse_short_cell(text: &str) -> Option<(usize, usize)> {
    let b = text.trim().as_bytes();
    if b.len() != 2 {
        return None;
    }
    let column = b[0].to_ascii_lowercase().checked_sub(b'a')?;
    let row = b[1].checked_sub(b'1')?;
    (column < 26 && row < 9).then_some((usize::from(column), usize::from(row)))
}

/// Writes the 0-based cell (column, row) as `d4`.
pub(crate) fn write_cell(f: &mut fmt::Formatter<'_>, column: usize, row: usize) -> fmt::Result {
    write!(f, "{}{}", char::from(b'a' + column as u8), row + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_cells_read_case_insensitively_and_refuse_other_shapes() {
        assert_eq!(parse_short_cell(" D4 "), Some((3, 3)));
        assert_eq!(parse_short_cell("a1"), Some((0, 0)));
        for bad in ["", "a", "a10", "4d", "a0", "#1", "é1"] {
            assert_eq!(parse_short_cell(bad), None, "{bad}");
        }
    }
}

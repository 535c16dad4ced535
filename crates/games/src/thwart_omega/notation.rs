//! Reading a placement (`B d4 W e5`) and a cell: what players type and records hold.

use super::*;
use crate::grid::CellError;

/// What a move looks like, for error messages.
pub(super) const MOVE_SHAPE: &str = "a move is one black and one white stone, like `B d4 W e5`";

/// Parses `B d4 W e5`: colours `B`/`black` and `W`/`white` in any order and case, each followed
/// by its cell (also glued, `Bd4`); `:`, `,`, `=` and spaces separate.
pub(super) fn parse_placement(text: &str, size: u8) -> Result<Placement, NotationError> {
    let lower = text.to_ascii_lowercase();
    let tokens = lower
        .split(|c: char| c.is_whitespace() || matches!(c, ':' | ',' | '='))
        .filter(|t| !t.is_empty());
    let mut stones: [Option<Cell>; 2] = [None, None];
    let mut colour_waiting: Option<(Colour, &str)> = None;
    let colour_word = |t: &str| match t {
        "b" | "black" => Some(Colour::Black),
        "w" | "white" => Some(Colour::White),
        _ => None,
    };
    for token in tokens {
        if let Some(colour) = colour_word(token) {
            if let Some((_, word)) = colour_waiting {
                return Err(NotationError::mv(
                    text,
                    format!("`{word}` has no cell after it; {MOVE_SHAPE}"),
                ));
            }
            colour_waiting = Some((colour, token));
            continue;
        }
        let (colour, cell_text) = match colour_waiting.take() {
            Some((colour, _)) => (colour, token),
            None => {
                // A colour glued to its cell: `bd4`, `wa1`. A bare cell such as `b4` has a digit
                // second and is not read this way.
                let mut chars = token.chars();
                match (
                    chars.next().and_then(|c| colour_word(&c.to_string())),
                    chars.next(),
                ) {
                    (Some(colour), Some(c)) if c.is_ascii_alphabetic() => (colour, &token[1..]),
                    _ => {
                        return Err(NotationError::mv(
                            text,
                            format!("`{token}` has no colour before it; {MOVE_SHAPE}"),
                        ))
                    }
                }
            }
        };
        let cell = parse_cell(text, cell_text, size)?;
        let slot = &mut stones[usize::from(colour == Colour::White)];
        if slot.is_some() {
            return Err(NotationError::mv(
                text,
                format!("it names two {} stones; {MOVE_SHAPE}", colour_lower(colour)),
            ));
        }
        *slot = Some(cell);
    }
    if let Some((_, word)) = colour_waiting {
        return Err(NotationError::mv(
            text,
            format!("`{word}` has no cell after it; {MOVE_SHAPE}"),
        ));
    }
    match stones {
        [Some(black), Some(white)] => Ok(Placement { black, white }),
        [None, None] => Err(NotationError::mv(text, MOVE_SHAPE)),
        [None, Some(_)] => Err(NotationError::mv(
            text,
            format!("the black stone is missing; {MOVE_SHAPE}"),
        )),
        [Some(_), None] => Err(NotationError::mv(
            text,
            format!("the white stone is missing; {MOVE_SHAPE}"),
        )),
    }
}

pub(super) fn colour_lower(colour: Colour) -> &'static str {
    match colour {
        Colour::Black => "black",
        Colour::White => "white",
    }
}

/// Parses a cell name such as `d4` on a board of side `size`, saying whether it is no cell name
/// at all or a cell off the board.
pub(super) fn parse_cell(text: &str, cell: &str, size: u8) -> Result<Cell, NotationError> {
    let last_column = char::from(b'a' + size - 1);
    Cell::parse_on(cell, size, size).map_err(|e| {
        NotationError::mv(
            text,
            match e {
                CellError::NotACell => format!(
                    "`{cell}` is not a cell: write a column letter a to {last_column} and a row \
                     number 1 to {size}, like d4"
                ),
                CellError::OffBoard => format!(
                    "`{cell}` is off the board: columns run a to {last_column}, rows 1 to {size}"
                ),
            },
        )
    })
}

//! A small variant of Square Goofspiel, for research (tabular algorithms such as OpenSpiel's
//! CFR), not in the seed: option `size` = n plays on the top-left n×n cells of the board (columns
//! `a`.. and rows `1`.. up to n) and scales every rule that counts six by n: a cell is worth its
//! column's value 1..n on its row and its row's number 1..n on its column; row `r` and the column
//! of value `c` are worth `n + 1 - r` and `n + 1 - c`; each hand starts with n 1s, n - 1 2s, ..
//! one n; the game has n phases of n auctions (labels `A`..), and a phase's card is still the
//! number of cells claimed in it (1..n). Option `draw` = `fixed` removes chance: the cells are
//! auctioned in reading order (`a1`, `b1`, .. row by row), n to a phase. With `size` 6 and `draw`
//! `random` (the defaults) this is the seed game.

use super::*;

/// Option `size` of the variant.
pub(super) const SIZE: OptionDoc = OptionDoc {
    name: "size",
    default: "6",
    allowed: "an integer from 2 to 6",
    help: "a variant for research, not in the seed: the board's side n (the top-left n x n \
           cells); values, worths, the starting hand (n 1s .. one n) and the phases (n of n \
           auctions) scale with it",
};

/// Option `draw` of the variant.
pub(super) const DRAW: OptionDoc = OptionDoc {
    name: "draw",
    default: "random",
    allowed: "random or fixed",
    help: "a variant for research, not in the seed: fixed auctions the cells in reading order \
           (a1, b1, .. row by row), n to a phase, with no chance; random is the seed's draw",
};

/// Reads options `size` and `draw` (6 and random, the seed's, when absent): the size and
/// whether the draw is fixed.
pub(super) fn read(r: &OptionReader<'_>) -> Result<(u8, bool), OptionsError> {
    // The range keeps the value in a u8.
    let size = r.int("size", SIDE as i64, 2, SIDE as i64)? as u8;
    let fixed = r.choice("draw", 0, &["random", "fixed"])? == 1;
    Ok((size, fixed))
}

/// Serde's `skip_serializing_if` for `fixed_draw`: the seed's random draw is left out.
pub(super) fn is_random_draw(fixed: &bool) -> bool {
    !*fixed
}

/// Serde's `skip_serializing_if`: the seed's size is left out, so that the seed game's views and
/// records read as before.
pub(super) fn is_seed_size(size: &u8) -> bool {
    usize::from(*size) == SIDE
}

impl Hand {
    /// The starting hand on a board of side `size`: `size` 1s, `size - 1` 2s, .. one `size`
    /// ([`Hand::START`] for 6).
    #[must_use]
    pub fn start(size: u8) -> Hand {
        Hand::from_counts(std::array::from_fn(|i| size.saturating_sub(i as u8)))
    }
}

impl Line {
    /// The line's worth on a board of side `size`: `size` for row 1 and column `a`, down to 1
    /// ([`Line::worth`] for 6).
    #[must_use]
    pub fn worth_on(self, size: u8) -> u8 {
        match self {
            Line::Row(i) | Line::Column(i) => size.saturating_sub(i),
        }
    }

    /// Whether the line lies on a board of side `size`.
    #[must_use]
    pub fn is_on(self, size: u8) -> bool {
        match self {
            Line::Row(i) | Line::Column(i) => i < size,
        }
    }
}

impl Board {
    /// The results of the `2 * size` lines of a board of side `size` (rows first, then columns),
    /// each with its worth on that board ([`Board::line_results`] for 6).
    #[must_use]
    pub fn line_results_on(&self, size: u8) -> Vec<LineResult> {
        Line::ALL
            .iter()
            .filter(|l| l.is_on(size))
            .map(|&l| LineResult {
                worth: l.worth_on(size),
                ..self.line_result(l)
            })
            .collect()
    }

    /// Each seat's total worth of lines won on a board of side `size`.
    #[must_use]
    pub fn line_points_on(&self, size: u8) -> [u32; 2] {
        let mut points = [0u32; 2];
        for result in self.line_results_on(size) {
            if let Some(w) = result.winner {
                points[w.index()] += u32::from(result.worth);
            }
        }
        points
    }
}

/// Whether `cell` lies on a board of side `size`.
pub(super) fn on_board(cell: Cell, size: u8) -> bool {
    cell.row() < usize::from(size) && cell.column() < usize::from(size)
}

/// Option `draw` as written: `fixed` (only serialized when fixed).
pub(super) fn draw_name<S: serde::Serializer>(fixed: &bool, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(if *fixed { "fixed" } else { "random" })
}

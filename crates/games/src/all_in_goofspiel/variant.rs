//! A small variant of All-In Goofspiel, for research (tabular algorithms such as OpenSpiel's
//! CFR), not in the seed: options `lowest` and `highest` shrink both hands to the cards
//! `lowest..=highest` (the seed's hand is -3..12), and `target` lowers the points that end the
//! game (the seed's 28-point rule becomes a `target`-point rule). Everything else is the seed's
//! rules: round k is worth k, the starter alternates, the number rule, ties split, and the end
//! rule with `target` for 28. With the defaults the game is the seed's.

use super::*;

/// Option `lowest` of the variant.
pub(super) const LOWEST: OptionDoc = OptionDoc {
    name: "lowest",
    default: "-3",
    allowed: "an integer from -3 to 0",
    help: "a variant for research, not in the seed: the lowest card of both hands (the \
               seed's hands are -3..12)",
};

/// Option `highest` of the variant.
pub(super) const HIGHEST: OptionDoc = OptionDoc {
    name: "highest",
    default: "12",
    allowed: "an integer from 0 to 12",
    help: "a variant for research, not in the seed: the highest card of both hands (the \
               seed's hands are -3..12)",
};

/// Option `target` of the variant.
pub(super) const TARGET: OptionDoc = OptionDoc {
    name: "target",
    default: "28",
    allowed: "an integer from 1 to 28",
    help: "a variant for research, not in the seed: the points that end the game, in place \
               of the 28-point rule's 28",
};

/// Reads the variant's options (the seed's values when absent).
pub(super) fn read(r: &OptionReader<'_>) -> Result<(i8, i8, u16), OptionsError> {
    let lowest = r.int("lowest", LOWEST_CARD.into(), LOWEST_CARD.into(), 0)?;
    let highest = r.int("highest", HIGHEST_CARD.into(), 0, HIGHEST_CARD.into())?;
    let target = r.int("target", WINNING_POINTS.into(), 1, WINNING_POINTS.into())?;
    // The ranges above keep every value in its type.
    Ok((lowest as i8, highest as i8, target as u16))
}

impl Hand {
    /// The cards `lowest..=highest` (both within -3..12).
    #[must_use]
    pub fn range(lowest: i8, highest: i8) -> Hand {
        Hand(
            (lowest..=highest)
                .filter(|c| (LOWEST_CARD..=HIGHEST_CARD).contains(c))
                .fold(0, |bits, c| bits | Hand::bit(c)),
        )
    }
}

/// Serde's `skip_serializing_if` for the variant's options: the seed's values are left out, so
/// that the seed game's views and records read as before.
pub(super) fn is_lowest(c: &i8) -> bool {
    *c == LOWEST_CARD
}

pub(super) fn is_highest(c: &i8) -> bool {
    *c == HIGHEST_CARD
}

pub(super) fn is_target(t: &u16) -> bool {
    *t == WINNING_POINTS
}

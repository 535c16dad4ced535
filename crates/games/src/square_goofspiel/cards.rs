//! Bids and hands: a card of strength 1 to 6 or a pass, the counts held, and the legal bids
//! of every hand as a table.

use super::*;

/// A bid for one cell: a card of strength 1..6, or a pass (which counts as 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bid(pub(super) u8);

impl Bid {
    /// Playing no card; it counts as 0.
    pub const PASS: Bid = Bid(0);

    /// Playing a card of `strength` (1..6); `None` for any other strength.
    #[must_use]
    pub fn card(strength: u8) -> Option<Bid> {
        (1..=MAX_STRENGTH)
            .contains(&strength)
            .then_some(Bid(strength))
    }

    /// What the bid counts as: the card's strength, 0 for a pass.
    #[must_use]
    pub fn value(self) -> u8 {
        self.0
    }

    /// Whether no card is played.
    #[must_use]
    pub fn is_pass(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl Serialize for Bid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A hand of cards, as the number of cards of each strength 1..6.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand([u8; MAX_STRENGTH as usize]);

impl Hand {
    /// The starting hand: six 1s, five 2s, four 3s, three 4s, two 5s and one 6 (21 cards,
    /// strength 56).
    pub const START: Hand = Hand([6, 5, 4, 3, 2, 1]);

    /// A hand holding `counts[s - 1]` cards of strength `s`.
    #[must_use]
    pub fn from_counts(counts: [u8; MAX_STRENGTH as usize]) -> Hand {
        Hand(counts)
    }

    /// How many cards of `strength` the hand holds (0 for strengths outside 1..6).
    #[must_use]
    pub fn count(self, strength: u8) -> u8 {
        match strength {
            1..=MAX_STRENGTH => self.0[usize::from(strength - 1)],
            _ => 0,
        }
    }

    /// The number of cards of each strength, 1 first.
    #[must_use]
    pub fn counts(self) -> [u8; MAX_STRENGTH as usize] {
        self.0
    }

    /// The number of cards.
    #[must_use]
    pub fn len(self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether the hand holds no card.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == [0; MAX_STRENGTH as usize]
    }

    /// The sum of the strengths of the cards: the final tie-break.
    #[must_use]
    pub fn strength(self) -> u32 {
        (1..=MAX_STRENGTH)
            .map(|s| u32::from(s) * u32::from(self.count(s)))
            .sum()
    }

    /// The cards, weakest first.
    pub fn cards(self) -> impl Iterator<Item = u8> {
        (1..=MAX_STRENGTH).flat_map(move |s| std::iter::repeat_n(s, usize::from(self.count(s))))
    }

    /// The distinct strengths held, as bits (bit `s - 1` for strength `s`).
    pub(super) fn held(self) -> u8 {
        let mut bits = 0u8;
        for (i, &n) in self.0.iter().enumerate() {
            if n > 0 {
                bits |= 1 << i;
            }
        }
        bits
    }

    pub(super) fn remove(&mut self, strength: u8) {
        self.0[usize::from(strength - 1)] -= 1;
    }

    pub(super) fn add(&mut self, strength: u8) {
        let n = &mut self.0[usize::from(strength - 1)];
        *n = n.saturating_add(1);
    }
}

impl fmt::Display for Hand {
    /// The cards weakest first, `1 1 2 5`, or `empty`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::write_spaced(f, self.cards(), "empty")
    }
}

/// The legal bids of a hand, for each set of strengths held (bit `s - 1` for strength `s`).
pub(super) struct LegalBids {
    /// Pass, then the strengths held, weakest first.
    pub(super) bids: [Bid; MAX_STRENGTH as usize + 1],
    /// How many strengths are held (the bids after the pass).
    pub(super) len: u8,
}

/// [`LegalBids`] for all 64 sets of strengths, so that a random move is one table look-up and one
/// random number.
pub(super) static MOVES_BY_HELD: [LegalBids; 1 << MAX_STRENGTH] = {
    let mut table = [const {
        LegalBids {
            bids: [Bid::PASS; MAX_STRENGTH as usize + 1],
            len: 0,
        }
    }; 1 << MAX_STRENGTH];
    let mut held = 0;
    while held < table.len() {
        let mut strength = 1;
        while strength <= MAX_STRENGTH {
            if held & (1 << (strength - 1)) != 0 {
                let entry = &mut table[held];
                entry.len += 1;
                entry.bids[entry.len as usize] = Bid(strength);
            }
            strength += 1;
        }
        held += 1;
    }
    table
};

/// Why `bid` cannot be played from `hand`. Out of line, so that the check of a legal bid (bots
/// make millions) stays small.
#[cold]
pub(super) fn not_in_hand(hand: Hand, bid: Bid) -> IllegalMove {
    IllegalMove::new(if hand.is_empty() {
        format!(
            "you have no {} left; your hand is empty, so you can only pass",
            bid.value()
        )
    } else {
        format!("you have no {} left; your hand is {hand}", bid.value())
    })
}

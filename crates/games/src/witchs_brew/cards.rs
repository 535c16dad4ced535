//! Cards and moves: the card effects, hands, a card play with its secondary choice, the Cauldron's
//! prizes, assignments, and the [`Move`] and [`Chance`] types with their canonical text.

use super::*;

/// The effect of a card, by its number.
#[must_use]
pub fn card_name(card: u8) -> &'static str {
    match card {
        1 => "Snipe",
        2 => "Lock",
        3 => "Guess",
        4 => "Copy",
        5 => "Leap",
        6 => "Freeze",
        7 => "Shift",
        8 => "Diminish",
        _ => "?",
    }
}

pub(super) const SNIPE: u8 = 1;
pub(super) const LOCK: u8 = 2;
pub(super) const GUESS: u8 = 3;
pub(super) const COPY: u8 = 4;
pub(super) const LEAP: u8 = 5;
pub(super) const FREEZE: u8 = 6;
pub(super) const SHIFT: u8 = 7;
pub(super) const DIMINISH: u8 = 8;

/// A hand of cards, as counts per card 1..8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand(pub(super) [u8; 8]);

impl Hand {
    /// How many of `card` the hand holds.
    #[must_use]
    pub fn count(self, card: u8) -> u8 {
        match card {
            1..=8 => self.0[usize::from(card - 1)],
            _ => 0,
        }
    }

    /// The number of cards.
    #[must_use]
    pub fn len(self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether the hand is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == [0; 8]
    }

    /// The cards, lowest first.
    pub fn cards(self) -> impl Iterator<Item = u8> {
        (1..=8u8).flat_map(move |c| std::iter::repeat_n(c, usize::from(self.count(c))))
    }

    /// The distinct cards held, lowest first.
    pub fn distinct(self) -> impl Iterator<Item = u8> {
        (1..=8u8).filter(move |&c| self.count(c) > 0)
    }

    /// A hand of the given cards.
    #[must_use]
    pub fn of(cards: &[u8]) -> Hand {
        let mut h = Hand::default();
        for &c in cards {
            h.add(c);
        }
        h
    }

    pub(super) fn add(&mut self, card: u8) {
        self.0[usize::from(card - 1)] += 1;
    }

    pub(super) fn remove(&mut self, card: u8) {
        self.0[usize::from(card - 1)] -= 1;
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::write_spaced(f, self.cards(), "empty")
    }
}

/// A card's secondary choice, named with the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Secondary {
    /// The card has none.
    None,
    /// Lock: the column (0 = `a`) the opponent's stone must go in.
    Column(u8),
    /// Guess: the card guessed.
    Guess(u8),
    /// Freeze: up to three stones, as cells (the first `len`).
    Freeze {
        /// The cells, in grid order.
        cells: [Cell; 3],
        /// How many.
        len: u8,
    },
}

/// A card played in a Placement round: the card (or a Duplicard acting as it) and its secondary
/// choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    /// The card's identity, 1..8 (for a Duplicard: the card it acts as).
    pub card: u8,
    /// Whether the Duplicard is played as `card`.
    pub duplicard: bool,
    /// The secondary choice.
    pub secondary: Secondary,
}

impl Play {
    /// A plain card without a secondary choice (Snipe, Copy, Leap, Shift, Diminish, or a Freeze of
    /// nothing).
    #[must_use]
    pub fn card(card: u8) -> Play {
        Play {
            card,
            duplicard: false,
            secondary: if card == FREEZE {
                Secondary::Freeze {
                    cells: [Cell::default(); 3],
                    len: 0,
                }
            } else {
                Secondary::None
            },
        }
    }

    /// Lock naming `column` (0 = `a`).
    #[must_use]
    pub fn lock(column: u8) -> Play {
        Play {
            card: LOCK,
            duplicard: false,
            secondary: Secondary::Column(column),
        }
    }

    /// Guess naming `card`.
    #[must_use]
    pub fn guess(card: u8) -> Play {
        Play {
            card: GUESS,
            duplicard: false,
            secondary: Secondary::Guess(card),
        }
    }

    /// Freeze of `cells` (at most three; they are kept in grid order).
    #[must_use]
    pub fn freeze(cells: &[Cell]) -> Play {
        let mut c = [Cell::default(); 3];
        let len = cells.len().min(3);
        c[..len].copy_from_slice(&cells[..len]);
        c[..len].sort_unstable();
        Play {
            card: FREEZE,
            duplicard: false,
            secondary: Secondary::Freeze {
                cells: c,
                len: len as u8,
            },
        }
    }

    /// The same play made with the Duplicard.
    #[must_use]
    pub fn with_duplicard(self) -> Play {
        Play {
            duplicard: true,
            ..self
        }
    }

    pub(super) fn frozen_cells(&self) -> &[Cell] {
        match &self.secondary {
            Secondary::Freeze { cells, len } => &cells[..usize::from(*len)],
            _ => &[],
        }
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.duplicard {
            f.write_str("dup ")?;
        }
        write!(f, "{}", self.card)?;
        match self.secondary {
            Secondary::None => {}
            Secondary::Column(c) => write!(f, " {}", char::from(b'a' + c))?,
            Secondary::Guess(g) => write!(f, " {g}")?,
            Secondary::Freeze { cells, len } => {
                for c in &cells[..usize::from(len)] {
                    write!(f, " {c}")?;
                }
            }
        }
        Ok(())
    }
}

impl Serialize for Play {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A prize of the Cauldron: a card or a victory condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Prize {
    /// A card 1..8.
    Card(u8),
    /// A victory condition.
    Condition(Condition),
}

impl fmt::Display for Prize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Prize::Card(c) => write!(f, "{c}"),
            Prize::Condition(c) => write!(f, "{c}"),
        }
    }
}

impl Serialize for Prize {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A conditions-to-rounds assignment: the sets for rounds 6, 9 and 12.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Assignment(pub [ConditionSet; 3]);

impl fmt::Display for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / {} / {}", self.0[0], self.0[1], self.0[2])
    }
}

impl Serialize for Assignment {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = serde_json::Map::new();
        for (i, set) in self.0.iter().enumerate() {
            m.insert(
                SCORING_ROUNDS[i].to_string(),
                serde_json::to_value(set).map_err(serde::ser::Error::custom)?,
            );
        }
        m.serialize(s)
    }
}

/// Any decision of a seat; which kinds are legal depends on the pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The race winner's pick from the prize pair.
    Pick(Prize),
    /// The Discard holder's answer after a DM pair is handed out: `true` discards it.
    Discard(bool),
    /// The Intermission assignment.
    Assign(Assignment),
    /// A card played in a Placement round.
    Play(Play),
    /// A stone placed (the player's colour, or gray for the round winner's last decision).
    Stone(Cell),
    /// After Leap: a stone of yours and a direction, or `None` to pass.
    Leap(Option<(Cell, Direction)>),
    /// After Shift: a stone of yours or a neutral stone and the empty neighbour it moves to, or
    /// `None` to pass.
    Shift(Option<(Cell, Cell)>),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pick(p) => write!(f, "{p}"),
            Move::Discard(true) => f.write_str("discard"),
            Move::Discard(false) => f.write_str("keep"),
            Move::Assign(a) => write!(f, "{a}"),
            Move::Play(p) => write!(f, "{p}"),
            Move::Stone(c) => write!(f, "{c}"),
            Move::Leap(None) | Move::Shift(None) => f.write_str("pass"),
            Move::Leap(Some((c, d))) => write!(f, "{c} {d}"),
            Move::Shift(Some((a, b))) => write!(f, "{a} {b}"),
        }
    }
}

/// A chance outcome: a prize pair drawn, or a race's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chance {
    /// Two cards drawn for an MM/FM round (lower first).
    Cards(u8, u8),
    /// Two victory conditions drawn for a DM round (lower first).
    Conditions(Condition, Condition),
    /// The race's winner, `None` if nobody answered in time.
    Race(Option<Seat>),
}

impl fmt::Display for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Chance::Cards(a, b) => write!(f, "{a} {b}"),
            Chance::Conditions(a, b) => write!(f, "{a} {b}"),
            Chance::Race(Some(s)) => write!(f, "{s}"),
            Chance::Race(None) => f.write_str("none"),
        }
    }
}

//! Seats, viewers and the pending decision.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the two seats at the table. `P1` holds the "DM advantage" unless a game option moves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Seat {
    /// The first seat, written `p1`.
    #[serde(rename = "p1")]
    P1,
    /// The second seat, written `p2`.
    #[serde(rename = "p2")]
    P2,
}

impl Seat {
    /// Both seats, `p1` first.
    pub const BOTH: [Seat; 2] = [Seat::P1, Seat::P2];

    /// The other seat.
    #[must_use]
    pub fn other(self) -> Seat {
        match self {
            Seat::P1 => Seat::P2,
            Seat::P2 => Seat::P1,
        }
    }

    /// 0 for `p1`, 1 for `p2`: for indexing per-seat arrays.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Seat::P1 => 0,
            Seat::P2 => 1,
        }
    }

    /// The seat's name in notation and JSON.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Seat::P1 => "p1",
            Seat::P2 => "p2",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A value for each seat, serialized as `{"p1": .., "p2": ..}`: the shape of every per-seat
/// field in views and scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatPair<T> {
    /// `p1`'s value.
    pub p1: T,
    /// `p2`'s value.
    pub p2: T,
}

impl<T> SeatPair<T> {
    /// From an array indexed by [`Seat::index`].
    pub fn from_array([p1, p2]: [T; 2]) -> Self {
        SeatPair { p1, p2 }
    }

    /// `seat`'s value.
    pub fn get(&self, seat: Seat) -> &T {
        match seat {
            Seat::P1 => &self.p1,
            Seat::P2 => &self.p2,
        }
    }
}

/// The text was not `p1` or `p2`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a seat: write p1 or p2")]
pub struct ParseSeatError(pub String);

impl FromStr for Seat {
    type Err = ParseSeatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "p1" => Ok(Seat::P1),
            "p2" => Ok(Seat::P2),
            _ => Err(ParseSeatError(s.to_string())),
        }
    }
}

/// Who looks at the game: a seat (sees its own secrets) or a spectator (sees only public facts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    /// A player, who may see what that seat knows.
    Seat(Seat),
    /// Anyone else: public information only.
    Spectator,
}

impl fmt::Display for Viewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Viewer::Seat(s) => s.fmt(f),
            Viewer::Spectator => f.write_str("spectator"),
        }
    }
}

/// What the game waits for now. Multi-step turns (bid, then build) are successive decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pending {
    /// Both seats submit at once; neither sees the other's move before both are revealed.
    Both,
    /// Exactly this seat acts.
    One(Seat),
    /// A random event (a card drawn, cells chosen); a record may pin its outcome.
    Chance,
    /// The game has ended; see the outcome.
    Over,
}

impl Pending {
    /// Whether `seat` must submit a move in this decision.
    #[must_use]
    pub fn includes(self, seat: Seat) -> bool {
        match self {
            Pending::Both => true,
            Pending::One(s) => s == seat,
            Pending::Chance | Pending::Over => false,
        }
    }

    /// The seats that must submit now (empty for chance or the end).
    #[must_use]
    pub fn seats(self) -> &'static [Seat] {
        match self {
            Pending::Both => &Seat::BOTH,
            Pending::One(Seat::P1) => &[Seat::P1],
            Pending::One(Seat::P2) => &[Seat::P2],
            Pending::Chance | Pending::Over => &[],
        }
    }
}

impl fmt::Display for Pending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pending::Both => f.write_str("both seats (p1 and p2 at once)"),
            Pending::One(s) => write!(f, "{s} alone"),
            Pending::Chance => f.write_str("chance"),
            Pending::Over => f.write_str("nothing (the game is over)"),
        }
    }
}

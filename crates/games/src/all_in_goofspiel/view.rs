//! What a viewer sees of an All-In Goofspiel game ([`AllInGoofspielView`]).

use super::*;

/// What a viewer sees of an All-In Goofspiel game.
///
/// Every revealed play is public, so both hands are known to everyone. The one secret is the
/// starter's face-down cards between its decision and the responder's: only the starter's own
/// view lists them (`current.face_down_cards`); everyone sees how many there are.
#[derive(Clone, Debug, Serialize)]
pub struct AllInGoofspielView {
    /// Who looks.
    pub viewer: Viewer,
    /// The options in force.
    pub options: AllInGoofspielOptions,
    /// Who must act now.
    pub pending: Pending,
    /// The round in progress (`None` once the game is over).
    pub current: Option<CurrentRound>,
    /// Each seat's cards not yet revealed (the starter's face-down cards are still among them).
    pub hands: SeatPair<Vec<i8>>,
    /// Each seat's points: a JSON number, with `.5` after a split odd round.
    pub points: SeatPair<Points>,
    /// The finished rounds, oldest first.
    pub rounds: Vec<RoundView>,
}

/// The round in progress, as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CurrentRound {
    /// The round's number k.
    pub round: u8,
    /// What it is worth (k points).
    pub worth: u8,
    /// Who puts down cards first.
    pub starter: Seat,
    /// Who answers.
    pub responder: Seat,
    /// How many cards the starter put down face down (`None`: the starter has not acted yet).
    pub face_down_count: Option<u8>,
    /// The starter's face-down cards in order: only in the starter's own view.
    pub face_down_cards: Option<Vec<i8>>,
}

/// A finished round, as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundView {
    /// The round's number k.
    pub round: u8,
    /// What it was worth (k points).
    pub worth: u8,
    /// Who put down cards first.
    pub starter: Seat,
    /// The cards each seat put down, in order.
    pub cards: SeatPair<Vec<i8>>,
    /// The number each seat made. Exact JSON integers; they can exceed 2^53, so JavaScript
    /// clients should read them as big integers.
    pub numbers: SeatPair<i128>,
    /// Who took the points (`null`: a tie, split).
    pub winner: Option<Seat>,
}

//! What a viewer sees of a Thwart Omega game ([`ThwartOmegaView`]).

use super::*;

/// One colour in a view: who scores it, its groups and product.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ColourScore {
    /// The seat that scores this colour.
    pub seat: Seat,
    /// The group weights, largest first.
    pub groups: Vec<u8>,
    /// The product of the weights (0 without stones).
    pub product: u64,
}

/// Both placements of the last round, in notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundPlayed {
    /// `p1`'s placement.
    pub p1: String,
    /// `p2`'s placement.
    pub p2: String,
}

/// What a viewer sees of a Thwart Omega game: everything, since the board and the scores are
/// public. A placement is not part of the game until both are revealed together, so no view can
/// hold the other seat's pending move.
#[derive(Clone, Debug, Serialize)]
pub struct ThwartOmegaView {
    /// Who looks.
    pub viewer: Viewer,
    /// The options in force.
    pub options: ThwartOmegaOptions,
    /// The board, row `1` (the top) first: `.` empty, `b`/`w` a single stone, `B`/`W` a double
    /// stone, `#` burned.
    pub rows: Vec<String>,
    /// Empty cells left.
    pub empty: u32,
    /// Rounds played.
    pub rounds: u32,
    /// Black's groups and product (`p1`'s score).
    pub black: ColourScore,
    /// White's groups and product (`p2`'s score).
    pub white: ColourScore,
    /// The last round's placements, once revealed.
    pub last_round: Option<RoundPlayed>,
    /// Who must act now.
    pub pending: Pending,
}

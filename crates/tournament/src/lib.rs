//! Tournaments as pure code: who plays whom, in which seat, and who stands where.
//!
//! Nothing here knows a game, a clock or a socket. A tournament's players are numbered
//! `0..n` in seed order (0 is the first seed); its past is a list of [`PlayedRound`]s (each
//! game's two players, their seats and its [`Outcome`], and the byes). From that past,
//! [`Format::next_round`] gives the next round's pairings (or `None` when the tournament is
//! over) and [`standings()`] ranks the players with the format's tie-breaks. The server stores the
//! past and asks again after every result, so a restart rebuilds everything from the record.
//!
//! * [`round_robin`]: Berger tables, single or double (the second cycle with seats swapped).
//! * [`swiss`]: the FIDE (Dutch) System, its rules as implemented stated in [`swiss`]'s own
//!   documentation.
//! * [`elimination`]: single and double elimination brackets with byes for any count.
//! * [`rating`]: Glicko-2 ratings (one rated game is one rating period for each player).
//! * [`tournament`] and [`season`]: a tournament and a season as a configuration and a log of
//!   events, and the state they fold to; [`fold`]: how a stored configuration and log become
//!   that state (one helper for both).

#![warn(missing_docs)]

pub mod elimination;
pub mod fold;
pub mod rating;
pub mod round_robin;
pub mod season;
pub mod standings;
pub mod swiss;
pub mod tournament;

use serde::{Deserialize, Serialize};

pub use standings::{standings, Standing};

/// Whether two secrets are equal, in time that depends only on their length (a token
/// compared against a guess): a player's or host's token ([`tournament::Tournament::player_of`],
/// [`season::Season::is_admin`]).
#[must_use]
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// A player, by seed order: 0 is the first seed.
pub type PlayerId = usize;

/// Which part of an elimination bracket a game belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bracket {
    /// A round robin or Swiss game, or single elimination.
    Main,
    /// Double elimination: the winners' bracket (nobody in it has lost).
    Winners,
    /// Double elimination: the losers' bracket (everyone in it has lost once).
    Losers,
    /// Double elimination: the final between the winners' and the losers' bracket's last
    /// players (played again if the losers' bracket's player wins it: both have lost once).
    Final,
}

/// One game of a round: the player in seat `p1`, the player in seat `p2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The player in seat `p1`.
    pub p1: PlayerId,
    /// The player in seat `p2`.
    pub p2: PlayerId,
    /// The bracket it belongs to.
    pub bracket: Bracket,
}

/// A round to play: its games and the players who sit out with a point (byes) or wait.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The games.
    pub games: Vec<Pairing>,
    /// Players without a game this round who score a bye (round robin with an odd count, Swiss,
    /// a bracket's first round).
    pub byes: Vec<PlayerId>,
    /// Players without a game this round who score nothing: in double elimination, the
    /// winners' bracket's last player waiting for the losers' bracket.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<PlayerId>,
}

/// How a game ended, for the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Seat `p1` won.
    P1,
    /// Seat `p2` won.
    P2,
    /// A draw (in an elimination bracket the server turns a draw into a win for the player
    /// holding the advantage before it is recorded).
    Draw,
}

/// A game that was played, with its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The pairing.
    pub pairing: Pairing,
    /// Its outcome.
    pub outcome: Outcome,
}

impl Played {
    /// Whether `player` is in this game.
    #[must_use]
    pub fn has(&self, player: PlayerId) -> bool {
        self.pairing.p1 == player || self.pairing.p2 == player
    }

    /// The other player of the game, if `player` is in it.
    #[must_use]
    pub fn opponent(&self, player: PlayerId) -> Option<PlayerId> {
        if self.pairing.p1 == player {
            Some(self.pairing.p2)
        } else if self.pairing.p2 == player {
            Some(self.pairing.p1)
        } else {
            None
        }
    }

    /// What `player` scored: 1 for a win, ½ for a draw, 0 for a loss (`None` if not in it).
    #[must_use]
    pub fn points(&self, player: PlayerId) -> Option<f64> {
        let seat_p1 = if self.pairing.p1 == player {
            true
        } else if self.pairing.p2 == player {
            false
        } else {
            return None;
        };
        Some(match (self.outcome, seat_p1) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::P1, true) | (Outcome::P2, false) => 1.0,
            _ => 0.0,
        })
    }

    /// The winner, if any.
    #[must_use]
    pub fn winner(&self) -> Option<PlayerId> {
        match self.outcome {
            Outcome::P1 => Some(self.pairing.p1),
            Outcome::P2 => Some(self.pairing.p2),
            Outcome::Draw => None,
        }
    }

    /// The loser, if any.
    #[must_use]
    pub fn loser(&self) -> Option<PlayerId> {
        match self.outcome {
            Outcome::P1 => Some(self.pairing.p2),
            Outcome::P2 => Some(self.pairing.p1),
            Outcome::Draw => None,
        }
    }
}

/// A round that was played to the end.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedRound {
    /// Its games with their outcomes.
    pub games: Vec<Played>,
    /// Its byes.
    pub byes: Vec<PlayerId>,
    /// Those who waited (double elimination).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<PlayerId>,
}

impl PlayedRound {
    /// The round `round` with every game's outcome from `outcomes`, in the same order.
    #[must_use]
    pub fn from_round(round: &Round, outcomes: &[Outcome]) -> PlayedRound {
        PlayedRound {
            games: round
                .games
                .iter()
                .zip(outcomes)
                .map(|(p, o)| Played {
                    pairing: *p,
                    outcome: *o,
                })
                .collect(),
            byes: round.byes.clone(),
            waiting: round.waiting.clone(),
        }
    }
}

/// A tournament's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Format {
    /// Everyone plays everyone once (`double`: twice, seats swapped in the second cycle).
    RoundRobin {
        /// Two cycles.
        #[serde(default)]
        double: bool,
    },
    /// `rounds` Swiss rounds.
    Swiss {
        /// How many rounds.
        rounds: usize,
    },
    /// A single elimination bracket.
    SingleElimination,
    /// A double elimination bracket.
    DoubleElimination,
}

/// The fewest and most players a tournament takes.
pub const MIN_PLAYERS: usize = 2;
/// The most players a tournament takes.
pub const MAX_PLAYERS: usize = 64;

/// Why a format cannot be played with a number of players.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// Too few or too many players.
    #[error("a tournament has {MIN_PLAYERS} to {MAX_PLAYERS} players; {0} were given")]
    Players(usize),
    /// A Swiss of no rounds, or of more rounds than opponents.
    #[error(
        "a Swiss of {players} players has 1 to {most} rounds (one less than the players, so \
         nobody must meet anyone twice); {rounds} were asked for"
    )]
    SwissRounds {
        /// Players.
        players: usize,
        /// Rounds asked for.
        rounds: usize,
        /// The most allowed.
        most: usize,
    },
}

impl Format {
    /// Checks that the format can be played by `players` players.
    pub fn check(&self, players: usize) -> Result<(), FormatError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(FormatError::Players(players));
        }
        if let Format::Swiss { rounds } = *self {
            let most = (players - 1).max(1);
            if rounds == 0 || rounds > most {
                return Err(FormatError::SwissRounds {
                    players,
                    rounds,
                    most,
                });
            }
        }
        Ok(())
    }

    /// The next round for `players` players after `past`, or `None` when the tournament is
    /// over. `past` must be this function's own rounds with their outcomes.
    #[must_use]
    pub fn next_round(&self, players: usize, past: &[PlayedRound]) -> Option<Round> {
        match *self {
            Format::RoundRobin { double } => {
                let table = round_robin::schedule(players, double);
                table.get(past.len()).cloned()
            }
            Format::Swiss { rounds } => (past.len() < rounds).then(|| swiss::pair(players, past)),
            Format::SingleElimination => elimination::single_next(players, past),
            Format::DoubleElimination => elimination::double_next(players, past),
        }
    }

    /// The number of rounds when it is known in advance (round robin, Swiss, single
    /// elimination); `None` for double elimination (a final may be played again).
    #[must_use]
    pub fn rounds(&self, players: usize) -> Option<usize> {
        match *self {
            Format::RoundRobin { double } => {
                let per = if players.is_multiple_of(2) {
                    players - 1
                } else {
                    players
                };
                Some(if double { 2 * per } else { per })
            }
            Format::Swiss { rounds } => Some(rounds),
            Format::SingleElimination => Some(elimination::bracket_rounds(players)),
            Format::DoubleElimination => None,
        }
    }

    /// Whether the format is an elimination bracket.
    #[must_use]
    pub fn is_elimination(&self) -> bool {
        matches!(self, Format::SingleElimination | Format::DoubleElimination)
    }
}

/// Each player's seat balance after `past`: games in `p1` minus games in `p2`.
#[must_use]
pub fn seat_balance(players: usize, past: &[PlayedRound]) -> Vec<i32> {
    let mut balance = vec![0; players];
    for game in past.iter().flat_map(|r| &r.games) {
        balance[game.pairing.p1] += 1;
        balance[game.pairing.p2] -= 1;
    }
    balance
}

/// Each player's last seat (`Some(true)` for `p1`), if they have played.
#[must_use]
pub fn last_seat(players: usize, past: &[PlayedRound]) -> Vec<Option<bool>> {
    let mut last = vec![None; players];
    for game in past.iter().flat_map(|r| &r.games) {
        last[game.pairing.p1] = Some(true);
        last[game.pairing.p2] = Some(false);
    }
    last
}

/// Seats two players: the one who has sat in `p1` less often takes it; then the one who sat in
/// `p2` last; then the better seed (`a` before `b` when `a` ranks first).
#[must_use]
pub fn seat(
    a: PlayerId,
    b: PlayerId,
    balance: &[i32],
    last: &[Option<bool>],
) -> (PlayerId, PlayerId) {
    use std::cmp::Ordering;
    match balance[a].cmp(&balance[b]) {
        Ordering::Less => (a, b),
        Ordering::Greater => (b, a),
        Ordering::Equal => match (last[a], last[b]) {
            (Some(false), Some(true)) => (a, b),
            (Some(true), Some(false)) => (b, a),
            _ => (a, b),
        },
    }
}

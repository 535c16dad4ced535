//! The rules-engine API of Colosseum.
//!
//! Every game is a pure, deterministic state machine implementing [`Game`]: it names the pending
//! decision (both seats at once, one seat, or chance), checks and applies steps, gives each viewer
//! exactly what that viewer may know, and speaks a text notation. [`Erased`] wraps a typed game
//! behind the dynamic [`AnyGame`] interface used by the command line, the server and the bot
//! protocol. [`Record`] and [`replay`] are the match record of docs/record-format.md.
//!
//! This crate knows nothing about clocks, sockets, files or async; randomness is always passed in.

#![warn(missing_docs)]

mod erased;
mod error;
pub mod fair;
mod game;
mod options;
mod record;
mod seat;

pub use erased::{AnyGame, Erased, TextStep};
pub use error::{IllegalMove, NotationError, OptionsError, StepError};
pub use fair::Fairness;
pub use game::{random_playout, random_step, Game, Outcome, Score, Step};
pub use options::{parse_pairs, OptionDoc, OptionReader, RawOptions};
pub use record::{
    replay, ChatChannel, ChatLine, Record, RecordError, Replay, ReplayError, ReplayErrorKind,
    ReplayFailure,
};
pub use seat::{ParseSeatError, Pending, Seat, SeatPair, Viewer};

/// The random generator used wherever Colosseum draws from a seed: ChaCha8, the same on every
/// platform and version, so that a seed always gives the same game.
pub type SeededRng = rand_chacha::ChaCha8Rng;

/// A [`SeededRng`] from a seed.
#[must_use]
pub fn seeded_rng(seed: u64) -> SeededRng {
    rand::SeedableRng::seed_from_u64(seed)
}

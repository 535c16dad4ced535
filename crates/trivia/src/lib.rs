//! Trivia for The Witch's Brew's live Cauldron (issue 11), independent of any transport.
//!
//! * [`bank`]: the TOML question bank format, its validating loader ([`Bank::from_toml`]) and the
//!   shipped sample bank about the rules of Colosseum's six games ([`Bank::sample`]).
//! * [`matching`]: forgiving answer matching (case, spacing, punctuation, accents, numbers as
//!   digits or words, leading articles).
//! * [`race`]: the answer race, a pure state machine with an injected clock: 30-second lockouts
//!   after a wrong answer, a 3-minute timeout, first correct answer received wins.
//! * [`season`]: questions generated from a season of finished matches, answers computed by
//!   replaying the records.
//! * [`bot`]: race bots with a configurable accuracy and answer time.
//!
//! Nothing here reads a clock or does I/O; randomness is always an argument. The host
//! (`colosseum-host`) runs races inside a match; see `docs/trivia.md`.

#![warn(missing_docs)]

pub mod bank;
pub mod bot;
pub mod matching;
pub mod race;
pub mod season;

pub use bank::{Bank, BankError, Category, Question};
pub use bot::{BotAnswer, BotAnswerer, BotError};
pub use matching::{matches, normalize};
pub use race::{AnswerOutcome, Race, RaceError, RaceEvent, RaceResult, LOCKOUT_MS, RACE_MS};
pub use season::{match_questions, season_questions, MatchEnd, Season, SeasonError, SeasonMatch};

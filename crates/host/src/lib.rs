//! One Colosseum match, independent of any transport.
//!
//! A [`Match`] holds the game (behind [`colosseum_engine::AnyGame`]), each seat's pending
//! submission, the clocks and banks, the host's random generator (seeded from the match seed; it
//! draws chance outcomes and random defaults) and an append-only [`LogEntry`] log. It has no
//! clock, no I/O and no async: a transport (the server, the command line, a test) drives it with
//! explicit events, each carrying `now`, the time in milliseconds since the match started.
//!
//! # Events
//!
//! * [`Match::submit`]`(seat, text, now)`: the game checks the move at once
//!   ([`colosseum_engine::AnyGame::check_move`]). A refused move is logged with the game's reason
//!   and returned as [`MatchError::Refused`]; the seat may submit again. An accepted move
//!   replaces the seat's earlier submission unless it was locked. When every seat the pending
//!   decision names has submitted, the decision is revealed: the step is applied to the game and
//!   appended to the record, chance that follows is drawn from the host's generator and logged,
//!   and the next decision's clocks start at `now`.
//! * [`Match::lock`]`(seat, now)`: the seat's submission can no longer change.
//! * [`Match::resign`]`(seat, now)`: the other seat wins.
//! * [`Match::tick`]`(now)`: fires every deadline up to `now`. The transport calls it at
//!   [`Match::next_deadline`]. Every event first fires the deadlines before it, each at its own
//!   time, so the match depends only on the events and their times, never on when ticks came.
//!
//! # Time
//!
//! [`TimeControl`] is [`TimeControl::Untimed`] (no deadlines) or clocks ([`Clocks`]): each
//! decision gives each acting seat a time by decision kind
//! ([`colosseum_engine::Game::decision_kind`]); past it the seat spends its bank, in steps or
//! continuously; with the bank empty, [`EmptyBank`] decides between the game's default move
//! (made for the seat and locked) and a loss on time. A seat's clock stops when it submits.
//! [`TimeControl::for_game`] gives each game's default from the seeds.
//!
//! # Log, rebuild, record
//!
//! The log holds every submission, change, refusal, lock, resignation, reveal, chance draw,
//! default, bank use, timeout, replayed game and the end, each with `at`. It is private (it holds
//! pending moves). [`Match::rebuild`] applies the log's inputs again at their times and checks
//! that the rest comes out the same: the match, its clocks and its generator are rebuilt exactly,
//! so a server can store only the configuration and the log. [`Match::record`] is the match
//! record (docs/record-format.md) of the game so far, chance included, for `colosseum replay`.
//!
//! # Views
//!
//! [`Match::view`] is the only thing meant to leave the process: it is built from the game's view
//! for the viewer, and shows another seat's pending submission only as `"submitted": true`.
//!
//! # The live Cauldron (trivia races)
//!
//! Where the game's registry entry says these options run live races
//! ([`colosseum_games::GameEntry::races`]: The Witch's Brew with `cauldron = live`), the host
//! does not draw the race's chance step: it opens a race ([`colosseum_trivia::Race`]) with a question from the match's
//! bank ([`MatchConfig::trivia`]; the sample bank by default), drawn by the host's generator.
//! [`Match::answer`]`(seat, text, now)` answers it; a wrong answer locks the seat out for 30 s,
//! the first correct answer received wins, and 3 minutes without one end it with no winner
//! (the race's deadline is in [`Match::next_deadline`] and fires in [`Match::tick`]). The result
//! (`p1`, `p2` or `none`) is then applied as the race's chance step, logged as
//! [`LogEntry::ChanceDrawn`] at the race's end. Every answer, refusal, win and timeout is in the
//! log ([`LogEntry::RaceOpened`], [`LogEntry::Answered`], [`LogEntry::AnswerRefused`],
//! [`LogEntry::RaceWon`], [`LogEntry::RaceTimedOut`]); answers are inputs, so
//! [`Match::rebuild`] replays them. The game's own clocks do not run during a race: the pending
//! decision is chance, which no seat's clock is charged for; the race has only its own
//! 3-minute limit. [`Match::view`] shows the race (question, category, times, lockouts, winner)
//! and its accepted answers only once it is over.
//!
//! # Sealed submissions
//!
//! With [`MatchConfig::sealed`], a simultaneous decision (both seats pending) is played in two
//! rounds, for players who do not trust the host's operator. First each seat commits
//! ([`Match::commit`]) to the lowercase hex SHA-256 of the UTF-8 text
//! `colosseum-seal-v1\nMATCH_ID\nDECISION\nSEAT\nMOVE\nNONCE` ([`commitment`]: the match's
//! [`MatchConfig::match_id`], the pending [`Match::decision`] in decimal, `p1` or `p2`, the move,
//! and NONCE, 32 to 128 lowercase hex characters the client chose at random, at least 128 bits;
//! one with fewer than 4 different digits, such as all zeros, is refused). Bound so, a
//! commitment opens only in the match, decision and seat it was made for; a commitment already
//! made in the match (the other seat's, or an earlier one) is refused at once
//! ([`MatchError::CommitmentReused`]). Once every seat is in (committed, or moved for by the
//! host at its deadline), each committed
//! seat opens ([`Match::open`]) with the move and the nonce: the host checks the hash (a
//! mismatch is refused and may be retried), then the game checks the move. An opening before
//! every seat has committed is refused and forgotten, so the host holds no move until both are
//! bound. A plain [`Match::submit`] is refused ([`MatchError::Sealed`]); sequential decisions
//! are ordinary submissions.
//!
//! Timing: the decision's ordinary deadline (and bank) applies to the commitment. The openings
//! begin when the last seat is in and each committed seat then has the decision's own time
//! again ([`Clocks::decision_ms`], no bank; untimed: no deadline). A committed seat that does
//! not open in time, or whose opening the game refuses (a commitment is binding), gets the
//! timeout treatment: the game's default move, or the loss where [`EmptyBank`] makes this
//! decision's timeout lose. Commitments and openings are logged inputs
//! ([`LogEntry::Committed`], [`LogEntry::Opened`], [`LogEntry::OpeningRefused`]), so
//! [`Match::rebuild`] reproduces the match. Views show each seat's commitment to everyone (the
//! hash tells nothing without the nonce) and, after the reveal, each seat's move and nonce so
//! anyone can check them.
//!
//! # Match-level rules
//!
//! `replay_on_draw` (default on for All-In Goofspiel): a drawn game is replayed once with the
//! options its entry's `replay` gives (All-In Goofspiel flips `first`); a second draw goes to [`MatchConfig::advantage`]. Resignation ends the match.
//! [`MatchConfig::rematch`] gives the next match with the seats swapped.

#![warn(missing_docs)]

mod config;
mod log;
mod matches;
mod view;

pub use colosseum_trivia::{AnswerOutcome, Race, RaceError, RaceResult};
pub use config::{
    BankSource, Clocks, EmptyBank, MatchConfig, Player, TimeControl, TriviaSettings,
    DEFAULT_CHANGES, DEFAULT_LOGGED_REFUSALS,
};
pub use log::{EndKind, LogEntry, MatchResult};
pub use matches::{
    commitment, default_move, races_decide, unbound_commitment, ConfigError, EarlierGame, Match,
    MatchError, RebuildError, SealedPhase, SeatClock, Submission, MAX_CHAT_CHARS, RACE_PAUSE_MS,
    SEAL_SCHEME,
};
pub use view::{
    reads, EarlierGameView, FinishedRace, MatchView, MoveLine, MoveLogText, RaceSeatView, RaceView,
    SealedOpening, SealedView, SeatView,
};

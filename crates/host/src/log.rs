//! The append-only match log.
//!
//! Every entry carries `at`, milliseconds since the match started. Entries are in time order.
//! Some entries are *inputs* (what a seat did: [`LogEntry::Submitted`], [`LogEntry::Changed`],
//! [`LogEntry::Refused`], [`LogEntry::Locked`], [`LogEntry::Resigned`], and in a live Cauldron's
//! races [`LogEntry::Answered`] and [`LogEntry::AnswerRefused`], and in a sealed match
//! [`LogEntry::Committed`], [`LogEntry::Opened`] and [`LogEntry::OpeningRefused`], and chat,
//! [`LogEntry::Chat`]); the others are what the
//! host did in answer or at a deadline. [`crate::Match::rebuild`] replays the inputs at their
//! times and checks that the host's entries come out the same.
//!
//! The log holds pending submissions before they are revealed: it is private to the host and
//! its store, never sent to a seat or a spectator while the match runs (everything sent out is
//! built by [`crate::Match::view`]).

use colosseum_engine::{ChatLine, RawOptions, Seat, TextStep};
use serde::{Deserialize, Serialize};

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// The game's own outcome.
    Game,
    /// A seat resigned.
    Resignation,
    /// A seat's deadline passed with its bank empty where that loses (or both seats' did).
    Time,
    /// The replayed game was drawn too: the advantage holder wins (or the match is a draw).
    SecondDraw,
    /// The host (a tournament's) decided the result ([`crate::Match::adjudicate`]).
    Adjudicated,
}

/// The result of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The winner, `None` for a draw.
    pub winner: Option<Seat>,
    /// How it ended.
    pub by: EndKind,
    /// Why, in a sentence.
    pub reason: String,
}

/// One entry of the match log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LogEntry {
    /// A seat's first accepted submission in this decision (canonical text).
    Submitted {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The move, canonical.
        text: String,
    },
    /// A seat replaced its unlocked submission.
    Changed {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The new move, canonical.
        text: String,
    },
    /// A submission the game refused; the seat's earlier submission, if any, stands.
    Refused {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The text as given.
        text: String,
        /// The game's reason.
        reason: String,
    },
    /// A seat locked its submission: it can no longer change it.
    Locked {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
    },
    /// A seat resigned.
    Resigned {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
    },
    /// The pending decision was revealed and applied to the game.
    Revealed {
        /// When.
        at: u64,
        /// The step, as in the record.
        step: TextStep,
    },
    /// The host drew a chance outcome and applied it.
    ChanceDrawn {
        /// When.
        at: u64,
        /// The step, as in the record.
        step: TextStep,
    },
    /// A seat's time ran out with its bank empty; the game's default move was made for it (and
    /// locked).
    DefaultApplied {
        /// When (the deadline).
        at: u64,
        /// For whom.
        seat: Seat,
        /// The move, canonical.
        text: String,
    },
    /// The pending decision's own time ran out for a seat that has not decided and has a bank:
    /// its bank starts running now (the seeds' host announces it: "the 60 seconds are up").
    /// A notice only: it changes nothing in the match, and a log written before it existed
    /// rebuilds without it ([`crate::Match::rebuild`]).
    TurnUp {
        /// When (the seat's turn deadline).
        at: u64,
        /// Whose turn time ran out.
        seat: Seat,
        /// The decision's own time, that ran out.
        turn_ms: u64,
        /// What is in the seat's bank now, running.
        bank_ms: u64,
    },
    /// A seat's time ran out and it spent bank time.
    BankSpent {
        /// When.
        at: u64,
        /// Whose bank.
        seat: Seat,
        /// How much was taken.
        ms: u64,
        /// What is left.
        left_ms: u64,
    },
    /// A seat's time ran out with its bank empty in a decision where that loses.
    TimedOut {
        /// When (the deadline).
        at: u64,
        /// Who.
        seat: Seat,
    },
    /// The game was drawn and is played again (match option `replay_on_draw`).
    GameReplayed {
        /// When.
        at: u64,
        /// The new game's options.
        options: RawOptions,
    },
    /// A trivia race opened (live Cauldron): the question was shown to both seats.
    RaceOpened {
        /// When.
        at: u64,
        /// The Cauldron round (`DM3`).
        round: String,
        /// The question's id in the match's bank.
        question_id: String,
        /// When the race times out with no winner.
        deadline: u64,
    },
    /// A seat's answer in a race was judged.
    Answered {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The text as given.
        text: String,
        /// Whether it was correct (the seat won the race).
        correct: bool,
        /// For a wrong answer, when the seat's 30-second lockout ends.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        locked_until: Option<u64>,
    },
    /// A seat's answer in a race was not judged: it was locked out, or the race was over (for
    /// an answer at the very instant of the winning one, the reason says the winner's answer was
    /// received first).
    AnswerRefused {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The text as given.
        text: String,
        /// Why.
        reason: String,
    },
    /// A seat won the race (its result is then fed to the game as a `ChanceDrawn` step).
    RaceWon {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
    },
    /// Three minutes passed with no correct answer: nobody won the race.
    RaceTimedOut {
        /// When (the race's deadline).
        at: u64,
    },
    /// A seat's commitment in a sealed simultaneous decision: the lowercase hex SHA-256 of
    /// `MOVE + "\n" + NONCE`. Binding: the seat cannot commit again in this decision.
    Committed {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The commitment (64 lowercase hex characters).
        hash: String,
    },
    /// A seat opened its commitment (the hash matched) and the game accepted the move; it is
    /// held like a locked submission until every seat is in.
    Opened {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The move as given (hashed as given; the reveal shows it canonical).
        text: String,
        /// The nonce.
        nonce: String,
    },
    /// A seat's opening matched its commitment but the game refused the move. A commitment is
    /// binding, so the seat gets the timeout treatment at once (a [`LogEntry::DefaultApplied`]
    /// or [`LogEntry::TimedOut`] follows).
    OpeningRefused {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The move as given.
        text: String,
        /// The nonce.
        nonce: String,
        /// The game's reason.
        reason: String,
    },
    /// A chat message, from a seat (the players' chat) or a spectator (the spectators' chat).
    Chat {
        /// The line, with its time (`line.at`).
        line: ChatLine,
    },
    /// The match is over.
    MatchEnded {
        /// When.
        at: u64,
        /// The result.
        result: MatchResult,
    },
    /// The host paused the match: no deadline runs and no move is taken until it resumes.
    Paused {
        /// When.
        at: u64,
    },
    /// The host resumed the match: every running deadline moved on by the pause's length.
    Resumed {
        /// When.
        at: u64,
    },
    /// The host gave a seat more time: its running deadline moved on (or its bank grew).
    TimeGiven {
        /// When.
        at: u64,
        /// To whom.
        seat: Seat,
        /// How much, in ms.
        ms: u64,
    },
    /// A seat's clock was held: a server's bot waiting for a slot to search in
    /// ([`crate::Match::hold_clock`]). Its deadlines stop until [`LogEntry::ClockFreed`].
    ClockHeld {
        /// When.
        at: u64,
        /// Whose.
        seat: Seat,
    },
    /// A held clock runs again, with what was left when it was held.
    ClockFreed {
        /// When.
        at: u64,
        /// Whose.
        seat: Seat,
        /// How long it was held, in ms.
        held_ms: u64,
    },
    /// The host decided the match's result (followed by [`LogEntry::MatchEnded`]).
    Adjudicated {
        /// When.
        at: u64,
        /// The winner; `None` for a draw.
        winner: Option<Seat>,
        /// Why.
        reason: String,
    },
}

impl LogEntry {
    /// When the entry happened, in milliseconds since the match started.
    #[must_use]
    pub fn at(&self) -> u64 {
        match self {
            LogEntry::Submitted { at, .. }
            | LogEntry::Changed { at, .. }
            | LogEntry::Refused { at, .. }
            | LogEntry::Locked { at, .. }
            | LogEntry::Resigned { at, .. }
            | LogEntry::Revealed { at, .. }
            | LogEntry::ChanceDrawn { at, .. }
            | LogEntry::DefaultApplied { at, .. }
            | LogEntry::BankSpent { at, .. }
            | LogEntry::TurnUp { at, .. }
            | LogEntry::TimedOut { at, .. }
            | LogEntry::GameReplayed { at, .. }
            | LogEntry::RaceOpened { at, .. }
            | LogEntry::Answered { at, .. }
            | LogEntry::AnswerRefused { at, .. }
            | LogEntry::RaceWon { at, .. }
            | LogEntry::RaceTimedOut { at }
            | LogEntry::Committed { at, .. }
            | LogEntry::Opened { at, .. }
            | LogEntry::OpeningRefused { at, .. }
            | LogEntry::MatchEnded { at, .. }
            | LogEntry::Paused { at }
            | LogEntry::Resumed { at }
            | LogEntry::TimeGiven { at, .. }
            | LogEntry::ClockHeld { at, .. }
            | LogEntry::ClockFreed { at, .. }
            | LogEntry::Adjudicated { at, .. } => *at,
            LogEntry::Chat { line } => line.at,
        }
    }

    /// Whether this entry is something the host's operator did (a tournament's host: pause,
    /// resume, time given, a result decided): an input like a seat's, replayed by
    /// [`crate::Match::rebuild`].
    #[must_use]
    pub fn is_host_power(&self) -> bool {
        matches!(
            self,
            LogEntry::Paused { .. }
                | LogEntry::Resumed { .. }
                | LogEntry::TimeGiven { .. }
                | LogEntry::Adjudicated { .. }
        )
    }

    /// Whether this entry is something a seat did (as opposed to what the host did).
    #[must_use]
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            LogEntry::Submitted { .. }
                | LogEntry::Changed { .. }
                | LogEntry::Refused { .. }
                | LogEntry::Locked { .. }
                | LogEntry::Resigned { .. }
                | LogEntry::Answered { .. }
                | LogEntry::AnswerRefused { .. }
                | LogEntry::Committed { .. }
                | LogEntry::Opened { .. }
                | LogEntry::OpeningRefused { .. }
                | LogEntry::Chat { .. }
        )
    }
}

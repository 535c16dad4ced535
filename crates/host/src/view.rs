//! [`MatchView`]: a match as one viewer may see it. Everything a transport sends out about a
//! running match is built from it ([`crate::Match::view`]).

use colosseum_engine::{ChatLine, Outcome, Pending, RawOptions, Seat, SeatPair};
use colosseum_games::RaceStake;
use colosseum_trivia::Category;
use serde::Serialize;
use serde_json::Value;

use crate::config::{Player, TimeControl};
use crate::log::MatchResult;
use crate::matches::{SealedPhase, SeatClock};

/// The match as one viewer (a seat or a spectator) may see it. Serialized, this is the `match`
/// of the server's state (`docs/server-api.md`, "The state"); `tests/host.rs` pins its JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchView {
    /// The game's id.
    pub game: &'static str,
    /// Which game of the match: 1, or 2 after a drawn game was replayed.
    pub game_number: usize,
    /// The game's options (raw, as in the record).
    pub options: RawOptions,
    /// The game's own view for this viewer.
    pub view: Value,
    /// Who acts now.
    pub pending: Pending,
    /// The pending decision's kind (`bid`, `build`, `race`, `move`...).
    pub decision: &'static str,
    /// Each seat: who plays it, whether it acts, has submitted or locked, its clock.
    pub seats: SeatPair<SeatView>,
    /// The latest time the match has been told (ms since the start).
    pub now: u64,
    /// The time control in force.
    pub time_control: TimeControl,
    /// Earlier games of the match (a drawn game that was replayed).
    pub earlier_games: Vec<EarlierGameView>,
    /// The seats whose move in the last decided step the host made at a timeout.
    pub timed_out: Vec<Seat>,
    /// The open trivia race, or the last one once it is over (live races only).
    pub race: Option<RaceView>,
    /// Every finished race of the match, oldest first, with its winner (or nobody) and its
    /// accepted answers: a race that timed out, also while the server was down, is here even
    /// when the next race opened at the same instant.
    pub races: Vec<FinishedRace>,
    /// The move log of the match: every step as this viewer may know it.
    pub moves: Vec<MoveLine>,
    /// The chat this viewer may read: a seat, the players' chat; a spectator, the spectators'.
    pub chat: Vec<ChatLine>,
    /// The result once the match is over.
    pub result: Option<MatchResult>,
    /// A sealed match's state; `None` in an ordinary match.
    pub sealed: Option<SealedView>,
}

/// One seat in a [`MatchView`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatView {
    /// Who plays it.
    pub player: Player,
    /// Whether it must act now.
    pub to_act: bool,
    /// Whether its move for the pending decision is in (never the move itself to others).
    pub submitted: bool,
    /// Whether that move is locked.
    pub locked: bool,
    /// Its clock.
    pub clock: SeatClock,
    /// Sealed matches: whether it has committed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub committed: Option<bool>,
    /// Sealed matches: its commitment (shown to everyone), `null` before it commits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commitment: Option<Option<String>>,
    /// Sealed matches: whether it has opened its commitment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opened: Option<bool>,
    /// Its pending move: only in the seat's own view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub submission: Option<String>,
    /// Whether the host made that move at a timeout: only in the seat's own view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_default: Option<bool>,
}

/// An earlier game of the match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EarlierGameView {
    /// How it ended.
    pub outcome: Option<Outcome>,
}

/// A sealed match's state in a [`MatchView`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SealedView {
    /// Where the pending decision stands (`None`: a sequential decision).
    pub phase: Option<SealedPhase>,
    /// When the openings began.
    pub opening_from: Option<u64>,
    /// The last sealed decision revealed: per seat its commitment, move and nonce (`None` for a
    /// seat the host moved for).
    pub last: Option<SeatPair<Option<SealedOpening>>>,
}

/// One seat's opened commitment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SealedOpening {
    /// The commitment.
    pub commitment: String,
    /// The move as opened.
    #[serde(rename = "move")]
    pub text: Option<String>,
    /// The nonce.
    pub nonce: Option<String>,
}

/// The open (or last) race as anyone may see it: never its accepted answers, nor its question's
/// id, while it runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RaceView {
    /// The round (`MM1`).
    pub round: String,
    /// What the race is for: the prizes on offer (the winner picks one).
    pub prizes: Vec<String>,
    /// The question.
    pub question: String,
    /// Its category.
    pub category: Category,
    /// When it opened.
    pub opened_at: u64,
    /// When it times out with no winner.
    pub deadline: u64,
    /// How long a race lasts with no correct answer, in ms ([`colosseum_trivia::RACE_MS`]):
    /// the pages word "nobody answered in time" from it, not from a number of their own.
    pub lasts_ms: u64,
    /// How long a wrong answer locks a seat out, in ms ([`colosseum_trivia::LOCKOUT_MS`]).
    pub lockout_ms: u64,
    /// Each seat's lockout.
    pub seats: SeatPair<RaceSeatView>,
    /// Whether it is over.
    pub over: bool,
    /// Its winner once over (`None`: nobody).
    pub winner: Option<Seat>,
    /// When it ended.
    pub ended_at: Option<u64>,
    /// The question's id: only once the race is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question_id: Option<String>,
    /// The accepted answers: only once the race is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<String>>,
    /// When the next race opens, while the host pauses after this race (won by nobody).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_opens_at: Option<u64>,
}

/// A seat in a [`RaceView`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RaceSeatView {
    /// When its last lockout ends.
    pub lockout_until: Option<u64>,
    /// Whether it is locked out now.
    pub locked_out: bool,
}

/// A race that is over: what it was for, who won it (or nobody) and the answers it accepted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FinishedRace {
    /// The round and the prizes on offer.
    #[serde(flatten)]
    pub stake: RaceStake,
    /// The question.
    pub question: String,
    /// Its category.
    pub category: Category,
    /// The question's id.
    pub question_id: String,
    /// The accepted answers.
    pub answers: Vec<String>,
    /// When it opened.
    pub opened_at: u64,
    /// When it ended.
    pub ended_at: u64,
    /// The winner, or `None`: nobody answered correctly in time.
    pub winner: Option<Seat>,
}

/// One step of the match in a viewer's move log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveLine {
    /// Which game of the match (1, or 2 after a replayed draw).
    pub game: usize,
    /// The step's index in that game's record, from 0.
    pub step: usize,
    /// When it was revealed or drawn (ms since the start).
    pub at: u64,
    /// The decision's kind ([`colosseum_engine::Game::decision_kind`]).
    pub kind: &'static str,
    /// `p1`'s move, if it moved and this viewer may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p1: Option<String>,
    /// `p2`'s move, likewise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p2: Option<String>,
    /// The chance outcome, if this viewer may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<String>,
    /// Whether part of the step is hidden from this viewer (a face-down move, a secret chance
    /// outcome).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// The seats whose move is face down to this viewer (made, not shown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub face_down: Vec<Seat>,
    /// The seats whose move the host made because their time ran out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_default: Vec<Seat>,
}

impl MoveLine {
    /// `seat`'s move in this step as shown (`None`: it did not move, or it is hidden).
    #[must_use]
    pub fn slot(&self, seat: Seat) -> Option<&str> {
        match seat {
            Seat::P1 => self.p1.as_deref(),
            Seat::P2 => self.p2.as_deref(),
        }
    }
}

/// A viewer's move log as JSON text, line by line, kept between calls of
/// [`crate::Match::view_text`] so that a state does not serialize the whole log again: only the
/// last line (which may change: a face-down move shown once answered) and new lines are
/// rendered. Keep one per viewer of one match.
#[derive(Clone, Debug, Default)]
pub struct MoveLogText {
    /// Whether the match was over when the lines were rendered (its end shows every step).
    pub(crate) over: bool,
    /// The match the lines are of: its seed and game.
    pub(crate) key: Option<(u64, &'static str)>,
    /// Each step note's line as JSON text (`None`: its step is not in the records).
    pub(crate) lines: Vec<Option<Box<str>>>,
}

/// What a move log line depends on beyond its step (the same for every line of one log).
pub(crate) struct LogContext {
    /// The game being played, from 0.
    pub current: usize,
    /// Who acts now.
    pub pending: colosseum_engine::Pending,
    /// Secret chance outcomes are hidden (the game has them and the match runs).
    pub secret_chance: bool,
    /// A lone face-down move is hidden from the others (likewise).
    pub face_down: bool,
}

/// Where a step of the match was made: kept by the match for its move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StepNote {
    /// Game index from 0.
    pub game: usize,
    /// Step index in that game's record.
    pub step: usize,
    /// When.
    pub at: u64,
    /// The decision kind.
    pub kind: &'static str,
}

/// Whether `viewer` reads `channel`.
#[must_use]
pub fn reads(viewer: colosseum_engine::Viewer, channel: colosseum_engine::ChatChannel) -> bool {
    use colosseum_engine::{ChatChannel, Viewer};
    matches!(
        (viewer, channel),
        (Viewer::Seat(_), ChatChannel::Players) | (Viewer::Spectator, ChatChannel::Spectators)
    )
}

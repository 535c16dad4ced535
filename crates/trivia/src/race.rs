//! The answer race: a pure state machine driven by an injected clock.
//!
//! A [`Race`] opens at `opened_at` with one [`Question`] shown to both seats. Seats
//! [`Race::answer`] free text at `now` (milliseconds, the caller's clock):
//!
//! * a correct answer wins the race at once;
//! * an empty answer (nothing left once case, spacing and punctuation are ignored) is refused
//!   and costs nothing;
//! * a wrong answer locks that seat out for [`LOCKOUT_MS`] (30 s): answers before
//!   `lockout_until` are refused with the time left; an answer exactly at `lockout_until` counts;
//! * [`RACE_MS`] (3 minutes) after `opened_at` with no correct answer, the race ends with no
//!   winner. The timeout fires at its own time: an answer at or after the deadline is refused.
//!
//! Answers are taken in the order they are received. When two arrive with the same `now`, the
//! first received is judged first; if it wins, the second is refused and the log says that both
//! came at the same instant and which was received first.
//!
//! Times never go back: an event earlier than the latest one is taken at the latest time. Every
//! event and its time is in [`Race::log`].

use colosseum_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::bank::Question;

/// How long a wrong answer locks a seat out, in milliseconds.
pub const LOCKOUT_MS: u64 = 30_000;
/// How long a race lasts without a correct answer, in milliseconds.
pub const RACE_MS: u64 = 180_000;

/// What an accepted answer did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnswerOutcome {
    /// Correct: the seat won the race.
    Correct,
    /// Wrong: the seat may not answer again before `locked_until`.
    Wrong {
        /// The end of the lockout (ms).
        locked_until: u64,
    },
}

/// Why an answer was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RaceError {
    /// The seat is locked out after a wrong answer.
    #[error("{seat} is locked out after a wrong answer for {left_ms} ms more (until {until} ms)")]
    LockedOut {
        /// Who.
        seat: Seat,
        /// The end of the lockout.
        until: u64,
        /// Time left.
        left_ms: u64,
    },
    /// The race was won by the other seat's answer received first at the same instant.
    #[error("{winner} answered correctly at the same instant ({at} ms) and was received first; the race is over")]
    SameInstant {
        /// The winner.
        winner: Seat,
        /// The instant.
        at: u64,
    },
    /// The answer is empty once case, spacing and punctuation are ignored: not judged, so it
    /// costs no lockout.
    #[error("the answer is empty: type an answer")]
    Empty,
    /// The race is over (won or timed out).
    #[error("the race is over: {0}")]
    Over(String),
}

/// How a race ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RaceResult {
    /// A seat answered correctly first.
    Won {
        /// Who.
        seat: Seat,
        /// When.
        at: u64,
    },
    /// Three minutes passed with no correct answer.
    TimedOut {
        /// When (the deadline).
        at: u64,
    },
}

impl RaceResult {
    /// The winner, if any.
    #[must_use]
    pub fn winner(self) -> Option<Seat> {
        match self {
            RaceResult::Won { seat, .. } => Some(seat),
            RaceResult::TimedOut { .. } => None,
        }
    }

    /// When the race ended.
    #[must_use]
    pub fn at(self) -> u64 {
        match self {
            RaceResult::Won { at, .. } | RaceResult::TimedOut { at } => at,
        }
    }

    /// The result as the Witch's Brew's race chance step: `p1`, `p2` or `none`.
    #[must_use]
    pub fn as_chance(self) -> &'static str {
        match self.winner() {
            Some(s) => s.as_str(),
            None => "none",
        }
    }
}

/// One entry of a race's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RaceEvent {
    /// The question was shown to both seats.
    Opened {
        /// When.
        at: u64,
        /// The question's id.
        question_id: String,
        /// When the race times out.
        deadline: u64,
    },
    /// A seat's answer was judged.
    Answered {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The text as given.
        text: String,
        /// Whether it was accepted as correct.
        correct: bool,
        /// For a wrong answer, the end of the lockout.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        locked_until: Option<u64>,
    },
    /// An answer was not judged (lockout, or the race already over).
    Refused {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
        /// The text as given.
        text: String,
        /// Why.
        reason: RaceError,
    },
    /// The race was won.
    Won {
        /// When.
        at: u64,
        /// Who.
        seat: Seat,
    },
    /// The race ended with no winner.
    TimedOut {
        /// When (the deadline).
        at: u64,
    },
}

impl RaceEvent {
    /// When it happened.
    #[must_use]
    pub fn at(&self) -> u64 {
        match self {
            RaceEvent::Opened { at, .. }
            | RaceEvent::Answered { at, .. }
            | RaceEvent::Refused { at, .. }
            | RaceEvent::Won { at, .. }
            | RaceEvent::TimedOut { at } => *at,
        }
    }
}

/// One race for one question. See the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Race {
    question: Question,
    opened_at: u64,
    lockout_until: [Option<u64>; 2],
    result: Option<RaceResult>,
    now: u64,
    log: Vec<RaceEvent>,
}

impl Race {
    /// Opens a race for `question` at `opened_at`.
    #[must_use]
    pub fn open(question: Question, opened_at: u64) -> Race {
        let log = vec![RaceEvent::Opened {
            at: opened_at,
            question_id: question.id.clone(),
            deadline: opened_at.saturating_add(RACE_MS),
        }];
        Race {
            question,
            opened_at,
            lockout_until: [None, None],
            result: None,
            now: opened_at,
            log,
        }
    }

    /// The question (with its answers: not for sending out while the race runs).
    #[must_use]
    pub fn question(&self) -> &Question {
        &self.question
    }

    /// When the question was shown.
    #[must_use]
    pub fn opened_at(&self) -> u64 {
        self.opened_at
    }

    /// When the race times out with no winner.
    #[must_use]
    pub fn deadline(&self) -> u64 {
        self.opened_at.saturating_add(RACE_MS)
    }

    /// The end of `seat`'s current or last lockout, if it had one.
    #[must_use]
    pub fn lockout_until(&self, seat: Seat) -> Option<u64> {
        self.lockout_until[seat.index()]
    }

    /// Whether `seat` is locked out at `now`.
    #[must_use]
    pub fn is_locked_out(&self, seat: Seat, now: u64) -> bool {
        self.lockout_until[seat.index()].is_some_and(|u| now < u)
    }

    /// How the race ended, once it has.
    #[must_use]
    pub fn result(&self) -> Option<RaceResult> {
        self.result
    }

    /// Whether the race is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The log so far.
    #[must_use]
    pub fn log(&self) -> &[RaceEvent] {
        &self.log
    }

    /// The next moment [`Race::tick`] would change something (the timeout), while running.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        self.result.is_none().then(|| self.deadline())
    }

    /// Tells the race the time is `now`: the timeout fires (at its own time) if `now` reached
    /// it. Returns the result if the race is over.
    pub fn tick(&mut self, now: u64) -> Option<RaceResult> {
        self.now = self.now.max(now);
        if self.result.is_none() && self.now >= self.deadline() {
            let at = self.deadline();
            self.result = Some(RaceResult::TimedOut { at });
            self.log.push(RaceEvent::TimedOut { at });
        }
        self.result
    }

    /// Why [`Race::answer`] would refuse `seat`'s answer `text` at `now` (the race over, the seat
    /// locked out, an empty answer), or `None` when it would judge it. Changes nothing: a host
    /// can leave an answer it will refuse anyway unlogged.
    #[must_use]
    pub fn refusal(&self, seat: Seat, text: &str, now: u64) -> Option<RaceError> {
        let now = self.now.max(now);
        let timed_out = (now >= self.deadline()).then(|| RaceResult::TimedOut {
            at: self.deadline(),
        });
        match self.result.or(timed_out) {
            Some(RaceResult::Won { seat: winner, at }) if at == now && winner != seat => {
                return Some(RaceError::SameInstant { winner, at });
            }
            Some(RaceResult::Won { seat: winner, at }) => {
                return Some(RaceError::Over(format!("{winner} won it at {at} ms")));
            }
            Some(RaceResult::TimedOut { at }) => {
                return Some(RaceError::Over(format!(
                    "three minutes passed without a correct answer at {at} ms"
                )));
            }
            None => {}
        }
        if let Some(until) = self.lockout_until[seat.index()].filter(|&u| now < u) {
            return Some(RaceError::LockedOut {
                seat,
                until,
                left_ms: until - now,
            });
        }
        if crate::matching::normalize(text).is_empty() {
            return Some(RaceError::Empty);
        }
        None
    }

    /// `seat` answers `text` at `now`. The timeout is fired first if `now` reached it.
    ///
    /// `Ok` when the answer was judged (correct: the race is won; wrong: the seat is locked out);
    /// `Err` when it was refused ([`Race::refusal`]: locked out, or the race is over). Both are
    /// logged.
    pub fn answer(&mut self, seat: Seat, text: &str, now: u64) -> Result<AnswerOutcome, RaceError> {
        self.tick(now);
        let now = self.now;
        if let Some(reason) = self.refusal(seat, text, now) {
            self.log.push(RaceEvent::Refused {
                at: now,
                seat,
                text: text.to_string(),
                reason: reason.clone(),
            });
            return Err(reason);
        }
        if self.question.accepts(text) {
            self.log.push(RaceEvent::Answered {
                at: now,
                seat,
                text: text.to_string(),
                correct: true,
                locked_until: None,
            });
            self.result = Some(RaceResult::Won { seat, at: now });
            self.log.push(RaceEvent::Won { at: now, seat });
            Ok(AnswerOutcome::Correct)
        } else {
            let locked_until = now.saturating_add(LOCKOUT_MS);
            self.lockout_until[seat.index()] = Some(locked_until);
            self.log.push(RaceEvent::Answered {
                at: now,
                seat,
                text: text.to_string(),
                correct: false,
                locked_until: Some(locked_until),
            });
            Ok(AnswerOutcome::Wrong { locked_until })
        }
    }
}

//! The errors of the rules layer. Each says what was wrong and, where it helps, what is allowed.
//!
//! Two kinds are kept apart on purpose: [`NotationError`] ("this text is not a move at all") and
//! [`IllegalMove`] ("this is a move, but not one you may make now").

use crate::seat::{Pending, Seat};

/// The text is not a move (or chance outcome) in the game's notation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a {kind}: {reason}")]
pub struct NotationError {
    /// The text as given.
    pub text: String,
    /// "move" or "chance outcome".
    pub kind: &'static str,
    /// Why, and what the notation looks like.
    pub reason: String,
}

impl NotationError {
    /// The text is not a move; `reason` says why and what a move looks like.
    pub fn mv(text: &str, reason: impl Into<String>) -> Self {
        NotationError {
            text: text.to_string(),
            kind: "move",
            reason: reason.into(),
        }
    }

    /// The text is not a chance outcome; `reason` says why and what one looks like.
    pub fn chance(text: &str, reason: impl Into<String>) -> Self {
        NotationError {
            text: text.to_string(),
            kind: "chance outcome",
            reason: reason.into(),
        }
    }
}

/// A well-formed move (or chance outcome) that the rules do not allow here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not legal here: {reason}")]
pub struct IllegalMove {
    /// Why, in the game's terms ("you have no 7 left; your hand is 1 2 5").
    pub reason: String,
}

impl IllegalMove {
    /// An illegal move with its reason.
    pub fn new(reason: impl Into<String>) -> Self {
        IllegalMove {
            reason: reason.into(),
        }
    }
}

/// Why a step could not be applied. The state is unchanged after any of these.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The step supplies other actors than the pending decision asks for.
    #[error("this step gives {given}, but the game waits for {expected}")]
    WrongActors {
        /// What the game waits for.
        expected: Pending,
        /// What the step supplied, in words ("p1 and p2", "chance").
        given: String,
    },
    /// A seat's text is not a move.
    #[error("{seat}: {error}")]
    NotAMove {
        /// Whose move.
        seat: Seat,
        /// The notation error.
        error: NotationError,
    },
    /// A seat's move is not legal now.
    #[error("{seat}: {error}")]
    Illegal {
        /// Whose move.
        seat: Seat,
        /// Why not.
        error: IllegalMove,
    },
    /// The chance text is not a chance outcome.
    #[error("chance: {0}")]
    NotAChance(NotationError),
    /// The chance outcome is not possible now.
    #[error("chance: {0}")]
    IllegalChance(IllegalMove),
}

/// The options given to a game are wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// An option the game does not have.
    #[error("unknown option `{name}`; this game's options are: {allowed}")]
    Unknown {
        /// The name given.
        name: String,
        /// The game's option names.
        allowed: String,
    },
    /// A known option with a value outside what is allowed.
    #[error("option `{name}` = {value} is not allowed: {allowed}")]
    BadValue {
        /// The option.
        name: String,
        /// The value given, as JSON.
        value: String,
        /// What is allowed.
        allowed: String,
    },
    /// The options are not a JSON object.
    #[error("options must be a JSON object of name: value pairs, not {0}")]
    NotAnObject(String),
}

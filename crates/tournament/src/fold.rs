//! "Load the configuration, then fold the events": how a stored tournament or season becomes
//! its state.
//!
//! A tournament and a season are each stored as a configuration (one JSON text) and an
//! append-only log of events (one JSON text each). Their state is the events applied in order
//! to the state the configuration starts; [`Fold`] says how, once, for both. An event that does
//! not read or does not fit is an error naming its index in the log ([`FoldError`]), so a
//! damaged log is noticed and found.

use serde::de::DeserializeOwned;

/// A state built by applying a log of events to a configuration.
pub trait Fold: Sized {
    /// The fixed settings (the stored configuration).
    type Config: DeserializeOwned;
    /// One thing that happened (one stored event).
    type Event: DeserializeOwned;

    /// The state with no events.
    fn start(config: Self::Config) -> Self;

    /// Applies one event; an event that does not fit the state is an error saying why.
    ///
    /// # Errors
    /// The event does not fit (e.g. it names a board or player that does not exist).
    fn apply_event(&mut self, event: &Self::Event) -> Result<(), String>;

    /// The state of a stored configuration and log.
    ///
    /// # Errors
    /// The configuration does not read, or an event does not read or does not fit: the error
    /// names the event's index.
    fn fold<T: AsRef<str>>(config: &str, events: &[T]) -> Result<Self, FoldError> {
        let config: Self::Config = serde_json::from_str(config).map_err(|e| FoldError::Config {
            error: e.to_string(),
        })?;
        let mut state = Self::start(config);
        state.fold_from(events, 0)?;
        Ok(state)
    }

    /// Applies the events of a stored log from index `from` on (the ones before it are
    /// applied already: a log other processes have added to).
    ///
    /// # Errors
    /// An event does not read or does not fit: the error names its index in `events`.
    fn fold_from<T: AsRef<str>>(&mut self, events: &[T], from: usize) -> Result<(), FoldError> {
        for (index, text) in events.iter().enumerate().skip(from) {
            let event: Self::Event =
                serde_json::from_str(text.as_ref()).map_err(|e| FoldError::Unreadable {
                    index,
                    error: e.to_string(),
                })?;
            self.apply_event(&event)
                .map_err(|error| FoldError::Unfit { index, error })?;
        }
        Ok(())
    }
}

/// Why a stored configuration and log did not fold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FoldError {
    /// The configuration is not valid JSON of its type.
    #[error("the configuration does not read: {error}")]
    Config {
        /// The JSON error.
        error: String,
    },
    /// An event is not valid JSON of its type.
    #[error("event {index} does not read: {error}")]
    Unreadable {
        /// Its index in the log (0-based).
        index: usize,
        /// The JSON error.
        error: String,
    },
    /// An event does not fit the state before it.
    #[error("event {index} does not fit: {error}")]
    Unfit {
        /// Its index in the log (0-based).
        index: usize,
        /// Why.
        error: String,
    },
}

impl FoldError {
    /// The index of the event at fault (`None`: the configuration).
    #[must_use]
    pub fn index(&self) -> Option<usize> {
        match self {
            FoldError::Config { .. } => None,
            FoldError::Unreadable { index, .. } | FoldError::Unfit { index, .. } => Some(*index),
        }
    }
}

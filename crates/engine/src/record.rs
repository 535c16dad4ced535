//! The match record: the one format for logs, replays, tests and bug reports (docs/record-format.md).
//!
//! ```json
//! {"game": "goofspiel", "options": {"cards": 4}, "seed": 7,
//!  "steps": [{"chance": "3"}, {"p1": "4", "p2": "1"}]}
//! ```
//!
//! Each step supplies exactly the seats the pending decision asks for, or `chance`. Where the
//! pending decision is chance and the next step is not a chance step (or the steps have run out),
//! the outcome is drawn from a ChaCha8 generator seeded with `seed`, in order; explicit chance
//! steps do not consume the generator.

use std::fmt;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::erased::{AnyGame, TextStep};
use crate::error::StepError;
use crate::options::RawOptions;
use crate::seat::Pending;

/// A match record as written to and read from JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The game's registry id.
    pub game: String,
    /// The game's options; absent means the defaults.
    #[serde(default)]
    pub options: RawOptions,
    /// The seed for chance outcomes the steps leave out; absent means 0.
    #[serde(default)]
    pub seed: u64,
    /// The decisions, in order. A step that cannot be read is refused with its index.
    #[serde(default, deserialize_with = "steps_with_index")]
    pub steps: Vec<TextStep>,
    /// A hosted match whose seed its creator chose: chance was not provably fair.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// A hosted match's server seed, its commitment and the seats' client seeds, which make
    /// `seed` checkable ([`crate::fair`]); `colosseum verify` checks them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness: Option<crate::fair::Fairness>,
    /// A hosted match's chat during this game, both channels (players' and spectators'), in
    /// order; published with the record when the match is over. Optional: absent when nobody
    /// wrote. Replay ignores it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chat: Vec<ChatLine>,
}

/// Reads the steps one by one, so that a step that is not one (an unknown key, a number for a
/// move) is refused naming its index: `steps[3]: unknown key ...`.
fn steps_with_index<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<TextStep>, D::Error> {
    use serde::de::Error as _;
    let values = Vec::<serde_json::Value>::deserialize(deserializer)?;
    values
        .into_iter()
        .enumerate()
        .map(|(index, value)| {
            TextStep::deserialize(value)
                .map_err(|e| D::Error::custom(format_args!("steps[{index}]: {e}")))
        })
        .collect()
}

/// Who a chat line was written to: the two seats, or the spectators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// The players' chat: seen by the two seats only while the match runs.
    Players,
    /// The spectators' chat: seen by spectators only while the match runs.
    Spectators,
}

/// One chat message of a hosted match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatLine {
    /// When, in ms since the match started.
    pub at: u64,
    /// The channel.
    pub channel: ChatChannel,
    /// The seat that wrote it (`null` for a spectator).
    pub seat: Option<crate::seat::Seat>,
    /// The writer's name as shown.
    pub name: String,
    /// The message.
    pub text: String,
}

/// The record's text is not a record.
#[derive(Debug, thiserror::Error)]
#[error("not a match record: {0} (a record is {{\"game\": ID, \"options\": {{...}}, \"seed\": N, \"steps\": [{{\"p1\": MOVE, \"p2\": MOVE}} or {{\"chance\": OUTCOME}}, ...]}})")]
pub struct RecordError(serde_json::Error);

impl From<serde_json::Error> for RecordError {
    fn from(e: serde_json::Error) -> Self {
        RecordError(e)
    }
}

impl Record {
    /// A record of `game` with its options and seed, and no steps yet.
    #[must_use]
    pub fn new(game: &str, options: RawOptions, seed: u64) -> Self {
        Record {
            game: game.to_string(),
            options,
            seed,
            steps: Vec::new(),
            practice: false,
            fairness: None,
            chat: Vec::new(),
        }
    }

    /// Reads a record from JSON text.
    pub fn from_json(text: &str) -> Result<Self, RecordError> {
        Ok(serde_json::from_str(text)?)
    }

    /// The record as pretty JSON, one step per line.
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\n");
        out.push_str(&format!(
            "  \"game\": {},\n  \"options\": {},\n  \"seed\": {},\n  \"steps\": [",
            serde_json::Value::from(self.game.clone()),
            serde_json::Value::Object(self.options.clone()),
            self.seed
        ));
        for (i, step) in self.steps.iter().enumerate() {
            let sep = if i == 0 { "\n    " } else { ",\n    " };
            out.push_str(sep);
            out.push_str(&serde_json::to_string(step).unwrap_or_default());
        }
        if !self.steps.is_empty() {
            out.push_str("\n  ");
        }
        out.push(']');
        if self.practice {
            out.push_str(",\n  \"practice\": true");
        }
        if let Some(f) = &self.fairness {
            out.push_str(",\n  \"fairness\": ");
            out.push_str(&serde_json::to_string(f).unwrap_or_default());
        }
        out.push_str("\n}\n");
        out
    }
}

/// A record applied to a game: the state reached and every step applied, drawn chance included.
pub struct Replay {
    /// The game in the state reached.
    pub game: Box<dyn AnyGame>,
    /// Every step applied, with the chance outcomes drawn from the seed filled in.
    pub applied: Vec<TextStep>,
}

impl fmt::Debug for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Replay")
            .field("game", &self.game.id())
            .field("applied", &self.applied)
            .finish()
    }
}

/// A step of the record that does not fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("steps[{index}] ({step}): {error}")]
pub struct ReplayError {
    /// The step's index in the record's `steps` (0-based).
    pub index: usize,
    /// The step as written.
    pub step: TextStep,
    /// Why it does not fit.
    pub error: ReplayErrorKind,
}

/// Why a step does not fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayErrorKind {
    /// The game is over and more steps follow.
    #[error("the game is already over; this step and any after it cannot be applied")]
    AfterEnd,
    /// The step is wrong for the state.
    #[error(transparent)]
    Step(#[from] StepError),
}

/// A record that stopped at a step that does not fit: the state reached before it, and why.
#[derive(Debug)]
pub struct ReplayFailure {
    /// The state reached before the step that does not fit.
    pub reached: Replay,
    /// The step and the reason.
    pub error: ReplayError,
}

impl fmt::Display for ReplayFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for ReplayFailure {}

/// Applies `record`'s steps to `game` (freshly created from the record's game and options).
///
/// On a step that does not fit, returns the state reached before it together with the error.
pub fn replay(mut game: Box<dyn AnyGame>, record: &Record) -> Result<Replay, Box<ReplayFailure>> {
    let mut rng = ChaCha8Rng::seed_from_u64(record.seed);
    let mut applied = Vec::with_capacity(record.steps.len());
    for (index, step) in record.steps.iter().enumerate() {
        if !step.is_chance() {
            draw_chance(game.as_mut(), &mut rng, &mut applied);
        }
        let result = if game.pending() == Pending::Over {
            Err(ReplayErrorKind::AfterEnd)
        } else {
            game.apply(step).map_err(ReplayErrorKind::from)
        };
        if let Err(error) = result {
            let error = ReplayError {
                index,
                step: step.clone(),
                error,
            };
            let reached = Replay { game, applied };
            return Err(Box::new(ReplayFailure { reached, error }));
        }
        applied.push(step.clone());
    }
    draw_chance(game.as_mut(), &mut rng, &mut applied);
    Ok(Replay { game, applied })
}

/// Resolves pending chance events from `rng` until a seat must act or the game is over.
fn draw_chance(game: &mut dyn AnyGame, rng: &mut ChaCha8Rng, applied: &mut Vec<TextStep>) {
    while game.pending() == Pending::Chance {
        match game.apply_random_chance(rng) {
            Some(step) => applied.push(step),
            None => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_keys_are_read_in_any_case() {
        let record = Record::from_json(
            r#"{"game": "goofspiel", "steps": [{"P1": "3", "p2": "1"}, {"CHANCE": "2"}, {"p1": "2", "P2": null}]}"#,
        )
        .unwrap();
        assert_eq!(record.steps[0], TextStep::both("3", "1"));
        assert_eq!(record.steps[1], TextStep::chance("2"));
        assert_eq!(record.steps[2], TextStep::one(crate::Seat::P1, "2"));
        // Written back in the canonical lower case.
        assert!(record.to_json().contains(r#"{"p1":"3","p2":"1"}"#));
    }

    #[test]
    fn a_step_that_cannot_be_read_is_refused_with_its_index_and_what_is_allowed() {
        for (text, wanted) in [
            (
                r#"{"game": "goofspiel", "steps": [{"p1": "3", "p2": "1"}, {"p3": "2"}]}"#,
                "steps[1]: unknown key `p3` in a step; a step's keys are `p1` and `p2`",
            ),
            (
                r#"{"game": "goofspiel", "steps": [{"p1": "3", "P1": "1"}]}"#,
                // Either spelling is the second one read; both name the step.
                "` is given twice in a step (keys are read in any case)",
            ),
            (
                r#"{"game": "goofspiel", "steps": [{"chance": "1"}, {"chance": "2"}, {"p1": 3, "p2": "1"}]}"#,
                "steps[2]: `p1`: invalid type: integer `3`, expected a string",
            ),
            (
                r#"{"game": "goofspiel", "steps": [{"chance": "1"}, "p1"]}"#,
                "steps[1]: invalid type: string \"p1\", expected a step",
            ),
        ] {
            let e = Record::from_json(text).unwrap_err().to_string();
            assert!(e.contains(wanted), "{text}: {e}");
            assert!(e.contains("not a match record: steps["), "{text}: {e}");
        }
    }
}

//! The dynamic face of a game: notation and JSON in, notation and JSON out.
//!
//! The command line, the server and the bot protocol handle games they do not know at compile time
//! through [`AnyGame`]; bots keep the typed [`Game`] path for speed. [`Erased`] turns any typed
//! game into an `AnyGame`.

use std::fmt;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::StepError;
use crate::game::{Game, Outcome, Score, Step};
use crate::seat::{Pending, Seat, Viewer};

/// One decision in text form: exactly the seats the pending decision asks for, or `chance`.
/// This is also a step of the match record. Read from JSON, its keys are read in any case
/// (`"P1"` is `p1`); any other key, or one given twice, is refused with what is allowed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TextStep {
    /// `p1`'s move, in the game's notation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p1: Option<String>,
    /// `p2`'s move, in the game's notation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p2: Option<String>,
    /// A chance outcome, in the game's chance notation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<String>,
}

impl TextStep {
    /// A chance step.
    #[must_use]
    pub fn chance(text: impl Into<String>) -> Self {
        TextStep {
            chance: Some(text.into()),
            ..TextStep::default()
        }
    }

    /// A step of one seat.
    #[must_use]
    pub fn one(seat: Seat, text: impl Into<String>) -> Self {
        let mut step = TextStep::default();
        *step.slot_mut(seat) = Some(text.into());
        step
    }

    /// A step of both seats.
    #[must_use]
    pub fn both(p1: impl Into<String>, p2: impl Into<String>) -> Self {
        TextStep {
            p1: Some(p1.into()),
            p2: Some(p2.into()),
            chance: None,
        }
    }

    /// The move text of `seat`, if given.
    #[must_use]
    pub fn slot(&self, seat: Seat) -> Option<&str> {
        match seat {
            Seat::P1 => self.p1.as_deref(),
            Seat::P2 => self.p2.as_deref(),
        }
    }

    fn slot_mut(&mut self, seat: Seat) -> &mut Option<String> {
        match seat {
            Seat::P1 => &mut self.p1,
            Seat::P2 => &mut self.p2,
        }
    }

    /// Whether this is a chance step.
    #[must_use]
    pub fn is_chance(&self) -> bool {
        self.chance.is_some()
    }
}

/// The keys of a step, as written: `p1`, `p2` and `chance`, read in any case.
impl<'de> Deserialize<'de> for TextStep {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StepVisitor;
        impl<'de> serde::de::Visitor<'de> for StepVisitor {
            type Value = TextStep;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a step: an object with `p1` and `p2` (the seats' moves) or `chance` \
                     (a chance outcome), each a string",
                )
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<TextStep, A::Error> {
                use serde::de::Error as _;
                let mut step = TextStep::default();
                let mut seen = [false; 3];
                while let Some(key) = map.next_key::<String>()? {
                    let k = ["p1", "p2", "chance"]
                        .iter()
                        .position(|name| key.eq_ignore_ascii_case(name))
                        .ok_or_else(|| {
                            A::Error::custom(format_args!(
                                "unknown key `{key}` in a step; a step's keys are `p1` and `p2` \
                                 (the seats' moves, in the game's notation) and `chance` (a \
                                 chance outcome), in any case"
                            ))
                        })?;
                    if std::mem::replace(&mut seen[k], true) {
                        return Err(A::Error::custom(format_args!(
                            "`{key}` is given twice in a step (keys are read in any case)"
                        )));
                    }
                    let value = map
                        .next_value::<Option<String>>()
                        .map_err(|e| A::Error::custom(format_args!("`{key}`: {e}")))?;
                    match k {
                        0 => step.p1 = value,
                        1 => step.p2 = value,
                        _ => step.chance = value,
                    }
                }
                Ok(step)
            }
        }
        deserializer.deserialize_map(StepVisitor)
    }
}

impl fmt::Display for TextStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(m) = &self.p1 {
            parts.push(format!("p1: {m}"));
        }
        if let Some(m) = &self.p2 {
            parts.push(format!("p2: {m}"));
        }
        if let Some(c) = &self.chance {
            parts.push(format!("chance: {c}"));
        }
        if parts.is_empty() {
            f.write_str("(empty step)")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// A game behind a dynamic interface that speaks notation and JSON.
///
/// Every method keeps the [`Game`] contract: views contain only what the viewer may know, and
/// a failed `apply` leaves the state unchanged.
pub trait AnyGame: Send + Sync {
    /// The game's registry id.
    fn id(&self) -> &'static str;
    /// Who must act now.
    fn pending(&self) -> Pending;
    /// What kind of decision is pending (see [`Game::decision_kind`]).
    fn decision_kind(&self) -> &'static str;
    /// The canonical notation of every legal move of `seat` (empty if it does not act now).
    fn legal_moves(&self, seat: Seat) -> Vec<String>;
    /// The canonical notation of every possible outcome of the pending chance event.
    fn chance_outcomes(&self) -> Vec<String>;
    /// Parses and checks a submission of `seat` without applying it; returns its canonical text.
    /// This is what a host calls when a player submits, long before the reveal.
    fn check_move(&self, seat: Seat, text: &str) -> Result<String, StepError>;
    /// Applies one step in text form. On error the state is unchanged.
    fn apply(&mut self, step: &TextStep) -> Result<(), StepError>;
    /// Draws the pending chance event from `rng` and applies it; returns the step applied, or
    /// `None` if chance does not act now.
    fn apply_random_chance(&mut self, rng: &mut dyn RngCore) -> Option<TextStep>;
    /// A uniformly random legal move of `seat`, in notation.
    fn random_move(&self, seat: Seat, rng: &mut dyn RngCore) -> Option<String>;
    /// The seed's default move for `seat` at a deadline, in notation.
    fn default_move(&self, seat: Seat, rng: &mut dyn RngCore) -> Option<String>;
    /// The outcome once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The headline numbers and per-game details.
    fn score(&self) -> Score;
    /// What `viewer` may see, as JSON.
    fn view_json(&self, viewer: Viewer) -> Value;
    /// [`AnyGame::view_json`] as JSON text, serialized from the game's typed view without a
    /// `Value` tree in between (what a server sends on every change).
    fn view_text(&self, viewer: Viewer) -> String;
    /// What `viewer` may see, rendered for a terminal.
    fn render(&self, viewer: Viewer) -> String;
    /// A copy of this game in its current state.
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// [`Game::FACE_DOWN_LONE_MOVES`].
    fn face_down_lone_moves(&self) -> bool;
    /// [`Game::SECRET_CHANCE`].
    fn secret_chance(&self) -> bool;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Wraps a typed [`Game`] as an [`AnyGame`].
#[derive(Clone, Debug)]
pub struct Erased<G: Game>(pub G);

impl<G: Game> Erased<G> {
    /// Boxes `game` behind the dynamic interface.
    #[must_use]
    pub fn boxed(game: G) -> Box<dyn AnyGame> {
        Box::new(Erased(game))
    }

    fn parse_checked(&self, seat: Seat, text: &str) -> Result<G::Move, StepError> {
        let mv = self
            .0
            .parse_move(seat, text)
            .map_err(|error| StepError::NotAMove { seat, error })?;
        self.0
            .check_move(seat, &mv)
            .map_err(|error| StepError::Illegal { seat, error })?;
        Ok(mv)
    }

    fn typed_step(&self, step: &TextStep) -> Result<Step<G::Move, G::Chance>, StepError> {
        let pending = self.0.pending();
        let given = match (&step.p1, &step.p2, &step.chance) {
            (Some(_), Some(_), None) => "moves for p1 and p2".to_string(),
            (Some(_), None, None) => "a move for p1 alone".to_string(),
            (None, Some(_), None) => "a move for p2 alone".to_string(),
            (None, None, Some(_)) => "a chance outcome".to_string(),
            (None, None, None) => "nothing".to_string(),
            _ => "a chance outcome mixed with moves".to_string(),
        };
        let wrong = || StepError::WrongActors {
            expected: pending,
            given: given.clone(),
        };
        match (pending, &step.p1, &step.p2, &step.chance) {
            (Pending::Both, Some(a), Some(b), None) => Ok(Step::Both {
                p1: self.parse_checked(Seat::P1, a)?,
                p2: self.parse_checked(Seat::P2, b)?,
            }),
            (Pending::One(Seat::P1), Some(a), None, None) => Ok(Step::One {
                seat: Seat::P1,
                mv: self.parse_checked(Seat::P1, a)?,
            }),
            (Pending::One(Seat::P2), None, Some(b), None) => Ok(Step::One {
                seat: Seat::P2,
                mv: self.parse_checked(Seat::P2, b)?,
            }),
            (Pending::Chance, None, None, Some(c)) => {
                let outcome = self.0.parse_chance(c).map_err(StepError::NotAChance)?;
                self.0
                    .check_chance(&outcome)
                    .map_err(StepError::IllegalChance)?;
                Ok(Step::Chance(outcome))
            }
            _ => Err(wrong()),
        }
    }
}

impl<G: Game> AnyGame for Erased<G> {
    fn id(&self) -> &'static str {
        self.0.id()
    }

    fn pending(&self) -> Pending {
        self.0.pending()
    }

    fn decision_kind(&self) -> &'static str {
        self.0.decision_kind()
    }

    fn legal_moves(&self, seat: Seat) -> Vec<String> {
        let mut moves = Vec::new();
        self.0.legal_moves(seat, &mut moves);
        moves.iter().map(|m| self.0.format_move(m)).collect()
    }

    fn chance_outcomes(&self) -> Vec<String> {
        let mut outcomes = Vec::new();
        self.0.chance_outcomes(&mut outcomes);
        outcomes
            .iter()
            .map(|(c, _)| self.0.format_chance(c))
            .collect()
    }

    fn check_move(&self, seat: Seat, text: &str) -> Result<String, StepError> {
        let pending = self.0.pending();
        if !pending.includes(seat) {
            return Err(StepError::WrongActors {
                expected: pending,
                given: format!("a move for {seat}"),
            });
        }
        let mv = self.parse_checked(seat, text)?;
        Ok(self.0.format_move(&mv))
    }

    fn apply(&mut self, step: &TextStep) -> Result<(), StepError> {
        let typed = self.typed_step(step)?;
        self.0.apply(typed)
    }

    fn apply_random_chance(&mut self, mut rng: &mut dyn RngCore) -> Option<TextStep> {
        if self.0.pending() != Pending::Chance {
            return None;
        }
        let outcome = self.0.sample_chance(&mut rng)?;
        let text = self.0.format_chance(&outcome);
        self.0.apply(Step::Chance(outcome)).ok()?;
        Some(TextStep::chance(text))
    }

    fn random_move(&self, seat: Seat, mut rng: &mut dyn RngCore) -> Option<String> {
        self.0
            .random_move(seat, &mut rng)
            .map(|m| self.0.format_move(&m))
    }

    fn default_move(&self, seat: Seat, mut rng: &mut dyn RngCore) -> Option<String> {
        self.0
            .default_move(seat, &mut rng)
            .map(|m| self.0.format_move(&m))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn score(&self) -> Score {
        self.0.score()
    }

    fn view_json(&self, viewer: Viewer) -> Value {
        serde_json::to_value(self.0.view(viewer)).unwrap_or_else(|e| {
            // A view is plain data; failing to serialize it is a bug in the game, reported
            // rather than hidden.
            serde_json::json!({"error": format!("view could not be serialized: {e}")})
        })
    }

    fn view_text(&self, viewer: Viewer) -> String {
        serde_json::to_string(&self.0.view(viewer)).unwrap_or_else(|e| {
            serde_json::json!({"error": format!("view could not be serialized: {e}")}).to_string()
        })
    }

    fn render(&self, viewer: Viewer) -> String {
        self.0.render(viewer)
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn face_down_lone_moves(&self) -> bool {
        G::FACE_DOWN_LONE_MOVES
    }

    fn secret_chance(&self) -> bool {
        G::SECRET_CHANCE
    }
}

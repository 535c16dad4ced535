//! Bots in the race: an answerer with a configurable accuracy and answer time.
//!
//! [`BotAnswerer::answer`] draws, from the generator it is given, how long the bot takes and
//! whether it knows the answer: with probability `accuracy` it gives the question's first
//! accepted answer, otherwise a plausible wrong one (a nearby number for a numeric answer, else
//! an answer of another question, else a near miss of the right one), always one the question
//! refuses. The same generator state gives the same answer, so a transport that seeds the
//! generator (for example with [`BotAnswerer::rng`]) gets reproducible bots.
//!
//! The delay is `min_ms` plus an exponential wait with mean `mean_ms - min_ms`, cut at `max_ms`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::bank::Question;
use crate::matching::normalize;

/// Settings of a race bot.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotAnswerer {
    /// The chance of answering correctly, 0 to 1.
    pub accuracy: f64,
    /// The mean answer time in ms.
    pub mean_ms: u64,
    /// The shortest answer time in ms.
    pub min_ms: u64,
    /// The longest answer time in ms.
    pub max_ms: u64,
}

/// Settings a bot cannot have.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BotError {
    /// Accuracy outside 0..=1 (or not a number).
    #[error("accuracy must be a number from 0 to 1, not {0}")]
    Accuracy(f64),
    /// The times are not ordered min ≤ mean ≤ max.
    #[error("answer times must satisfy min_ms <= mean_ms <= max_ms (got min {min}, mean {mean}, max {max})")]
    Times {
        /// min_ms.
        min: u64,
        /// mean_ms.
        mean: u64,
        /// max_ms.
        max: u64,
    },
}

/// What the bot does: wait `delay_ms` after the question opens (or after its lockout ends),
/// then answer `text`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotAnswer {
    /// How long the bot takes, in ms.
    pub delay_ms: u64,
    /// What it answers.
    pub text: String,
    /// Whether the text is an accepted answer.
    pub correct: bool,
}

impl Default for BotAnswerer {
    /// 70% accuracy, 20 s on average, between 5 s and 60 s.
    fn default() -> Self {
        BotAnswerer {
            accuracy: 0.7,
            mean_ms: 20_000,
            min_ms: 5_000,
            max_ms: 60_000,
        }
    }
}

impl BotAnswerer {
    /// Checked settings.
    pub fn new(accuracy: f64, mean_ms: u64, min_ms: u64, max_ms: u64) -> Result<Self, BotError> {
        let b = BotAnswerer {
            accuracy,
            mean_ms,
            min_ms,
            max_ms,
        };
        b.check()?;
        Ok(b)
    }

    /// Checks settings that came from elsewhere (for example deserialized).
    pub fn check(&self) -> Result<(), BotError> {
        if !(0.0..=1.0).contains(&self.accuracy) {
            return Err(BotError::Accuracy(self.accuracy));
        }
        if !(self.min_ms <= self.mean_ms && self.mean_ms <= self.max_ms) {
            return Err(BotError::Times {
                min: self.min_ms,
                mean: self.mean_ms,
                max: self.max_ms,
            });
        }
        Ok(())
    }

    /// A generator for a bot, from a seed.
    #[must_use]
    pub fn rng(seed: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(seed)
    }

    /// The bot's answer to `question`. `decoys` are other questions whose answers may serve as
    /// wrong answers (for example the rest of the bank; may be empty). Bad settings are clamped
    /// rather than refused (use [`BotAnswerer::check`] to refuse them).
    pub fn answer<R: Rng + ?Sized>(
        &self,
        question: &Question,
        decoys: &[Question],
        rng: &mut R,
    ) -> BotAnswer {
        let accuracy = if self.accuracy.is_nan() {
            0.0
        } else {
            self.accuracy.clamp(0.0, 1.0)
        };
        let max = self.max_ms.max(self.min_ms);
        let mean = self.mean_ms.clamp(self.min_ms, max);
        let spread = (mean - self.min_ms) as f64;
        let u: f64 = rng.random::<f64>();
        let wait = -spread * (1.0 - u).ln();
        let delay_ms = (self.min_ms as f64 + wait).min(max as f64).round() as u64;
        let knows = rng.random::<f64>() < accuracy;
        let right = question.answers.first().cloned().unwrap_or_default();
        if knows && question.accepts(&right) {
            return BotAnswer {
                delay_ms,
                text: right,
                correct: true,
            };
        }
        let text = wrong_answer(question, decoys, rng);
        let correct = question.accepts(&text);
        BotAnswer {
            delay_ms,
            text,
            correct,
        }
    }
}

/// A plausible answer `question` refuses.
fn wrong_answer<R: Rng + ?Sized>(question: &Question, decoys: &[Question], rng: &mut R) -> String {
    let right = question.answers.first().map_or("", String::as_str);
    let norm = normalize(right);
    if let Ok(n) = norm.parse::<u64>() {
        for _ in 0..16 {
            let off: u64 = rng.random_range(1..=3);
            let guess = match n.checked_add(off) {
                Some(up) if n < off || rng.random::<bool>() => up,
                _ => n - off,
            };
            let text = guess.to_string();
            if !question.accepts(&text) {
                return text;
            }
        }
    }
    let candidates: Vec<&str> = decoys
        .iter()
        .filter(|d| d.id != question.id)
        .filter_map(|d| d.answers.first().map(String::as_str))
        .filter(|a| !question.accepts(a))
        .collect();
    if !candidates.is_empty() {
        return candidates[rng.random_range(0..candidates.len())].to_string();
    }
    for fallback in [
        format!("not {right}"),
        "I don't know".to_string(),
        "pass".to_string(),
    ] {
        if !question.accepts(&fallback) {
            return fallback;
        }
    }
    "?".to_string()
}

//! Question banks: the TOML format, its loader and the shipped sample bank.
//!
//! ```toml
//! [[question]]
//! id = "thwart-burn"
//! question = "In Thwart Omega, what happens to a cell where a black and a white stone land together?"
//! answers = ["it burns", "burns", "burned", "it is burned"]
//! category = "free"
//! note = "Both colours in one round burn the cell for good."
//! ```
//!
//! Every question needs `id` (unique in the bank), `question`, `answers` (a non-empty list of
//! accepted spellings; matching is forgiving, see [`crate::matching`]) and `category` (`MM`, `DM`,
//! `FM` or `free`); `note` (for the host, never shown to players) is optional. Nothing else is
//! allowed, at the top level or in a question.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::matching;

/// Which Cauldron rounds a question suits: a Main Match, Death Match or Final Match question, or
/// any round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Category {
    /// A Main Match question (an MM round: a pair of cards).
    #[serde(rename = "MM")]
    MainMatch,
    /// A Death Match question (a DM round: a pair of victory conditions).
    #[serde(rename = "DM")]
    DeathMatch,
    /// A Final Match question (an FM round: a pair of cards).
    #[serde(rename = "FM")]
    FinalMatch,
    /// Suits any round.
    #[serde(rename = "free")]
    Free,
}

impl Category {
    /// The names allowed in a bank, as written there.
    pub const NAMES: [&'static str; 4] = ["MM", "DM", "FM", "free"];

    /// The name as written in a bank.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Category::MainMatch => "MM",
            Category::DeathMatch => "DM",
            Category::FinalMatch => "FM",
            Category::Free => "free",
        }
    }

    /// Reads a name as written in a bank (exactly `MM`, `DM`, `FM` or `free`).
    #[must_use]
    pub fn parse(text: &str) -> Option<Category> {
        match text {
            "MM" => Some(Category::MainMatch),
            "DM" => Some(Category::DeathMatch),
            "FM" => Some(Category::FinalMatch),
            "free" => Some(Category::Free),
            _ => None,
        }
    }

    /// The category of a Cauldron round or match label that starts with `MM`, `DM` or `FM`
    /// (`DM3`, `MM 12`), else [`Category::Free`].
    #[must_use]
    pub fn of_label(label: &str) -> Category {
        let upper = label.trim().to_ascii_uppercase();
        match upper.get(..2) {
            Some("MM") => Category::MainMatch,
            Some("DM") => Category::DeathMatch,
            Some("FM") => Category::FinalMatch,
            _ => Category::Free,
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One question with its accepted answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// Unique in its bank.
    pub id: String,
    /// The text shown to the players.
    pub question: String,
    /// Accepted answers (several spellings); the first is the one to show once the race is over.
    pub answers: Vec<String>,
    /// The rounds it suits.
    pub category: Category,
    /// A note for the host, never shown to players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Question {
    /// Whether `text` matches one of the accepted answers (see [`crate::matching`]).
    #[must_use]
    pub fn accepts(&self, text: &str) -> bool {
        self.answers.iter().any(|a| matching::matches(text, a))
    }
}

/// Why a bank does not load. Every message names the question (its index, counting from 1, and
/// its id when it has one), the field and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BankError {
    /// The text is not TOML.
    #[error("the bank is not valid TOML: {0}")]
    Syntax(String),
    /// A top-level key other than `question`.
    #[error("unknown top-level key `{0}`: a bank holds only `[[question]]` tables")]
    UnknownTopLevel(String),
    /// `question` is missing, or not an array of tables, or empty.
    #[error("a bank needs at least one `[[question]]` table")]
    NoQuestions,
    /// A question is wrong.
    #[error("question {index}{}: {problem}", id.as_ref().map(|i| format!(" (id `{i}`)")).unwrap_or_default())]
    Question {
        /// Its position, counting from 1.
        index: usize,
        /// Its id, if it has a readable one.
        id: Option<String>,
        /// What is wrong, naming the field and what is allowed.
        problem: String,
    },
    /// Two questions share an id.
    #[error("question {index}: id `{id}` is already used by question {first}; ids must be unique")]
    DuplicateId {
        /// The later question's position, counting from 1.
        index: usize,
        /// The id.
        id: String,
        /// The earlier question's position, counting from 1.
        first: usize,
    },
}

/// A validated list of questions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bank {
    questions: Vec<Question>,
}

const SAMPLE: &str = include_str!("../data/rules.toml");

const FIELDS: &str = "id, question, answers, category, note";

impl Bank {
    /// Writes `questions` as a bank in the TOML format that [`Bank::from_toml`] reads (for
    /// example season questions, to save or to paste into a match's custom bank).
    #[must_use]
    pub fn to_toml(questions: &[Question]) -> String {
        #[derive(Serialize)]
        struct File<'a> {
            question: &'a [Question],
        }
        toml::to_string(&File {
            question: questions,
        })
        .expect("questions serialize as TOML")
    }

    /// Loads and validates a bank written in TOML (see the module docs for the format).
    pub fn from_toml(text: &str) -> Result<Bank, BankError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| BankError::Syntax(e.to_string().trim().to_string()))?;
        if let Some(key) = table.keys().find(|k| *k != "question") {
            return Err(BankError::UnknownTopLevel(key.clone()));
        }
        let Some(toml::Value::Array(items)) = table.get("question") else {
            return Err(BankError::NoQuestions);
        };
        if items.is_empty() {
            return Err(BankError::NoQuestions);
        }
        let mut questions = Vec::with_capacity(items.len());
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            let index = i + 1;
            let q = question_from(index, item)?;
            if let Some(&first) = seen.get(&q.id) {
                return Err(BankError::DuplicateId {
                    index,
                    id: q.id,
                    first,
                });
            }
            seen.insert(q.id.clone(), index);
            questions.push(q);
        }
        Ok(Bank { questions })
    }

    /// A bank from questions already built (for example by [`crate::season_questions`]),
    /// checked like a loaded one: at least one question, unique non-empty ids, non-empty text and
    /// answers.
    pub fn from_questions(questions: Vec<Question>) -> Result<Bank, BankError> {
        if questions.is_empty() {
            return Err(BankError::NoQuestions);
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, q) in questions.iter().enumerate() {
            let index = i + 1;
            let bad = |problem: String| BankError::Question {
                index,
                id: Some(q.id.clone()),
                problem,
            };
            if q.id.trim().is_empty() {
                return Err(bad("field `id` must be a non-empty string".into()));
            }
            if q.question.trim().is_empty() {
                return Err(bad("field `question` must be a non-empty string".into()));
            }
            check_answers(&q.answers).map_err(bad)?;
            if let Some(&first) = seen.get(&q.id) {
                return Err(BankError::DuplicateId {
                    index,
                    id: q.id.clone(),
                    first,
                });
            }
            seen.insert(q.id.clone(), index);
        }
        Ok(Bank { questions })
    }

    /// The sample bank shipped with Colosseum: questions about the rules of its six games
    /// (`crates/trivia/data/rules.toml`).
    #[must_use]
    pub fn sample() -> Bank {
        Bank::from_toml(SAMPLE).expect("the shipped sample bank is valid (checked by a test)")
    }

    /// The sample bank's TOML text.
    #[must_use]
    pub fn sample_text() -> &'static str {
        SAMPLE
    }

    /// The questions, in bank order.
    #[must_use]
    pub fn questions(&self) -> &[Question] {
        &self.questions
    }

    /// The number of questions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.questions.len()
    }

    /// Whether the bank has no questions (never true for a loaded bank).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.questions.is_empty()
    }

    /// The question with this id.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.id == id)
    }
}

fn check_answers(answers: &[String]) -> Result<(), String> {
    if answers.is_empty() {
        return Err("field `answers` must list at least one accepted answer".into());
    }
    if let Some(k) = answers
        .iter()
        .position(|a| matching::normalize(a).is_empty())
    {
        return Err(format!(
            "field `answers`: answer {} ({:?}) is empty once case, spacing, punctuation and articles are ignored",
            k + 1,
            answers[k]
        ));
    }
    Ok(())
}

fn question_from(index: usize, item: &toml::Value) -> Result<Question, BankError> {
    let toml::Value::Table(t) = item else {
        return Err(BankError::Question {
            index,
            id: None,
            problem: "must be a table (`[[question]]` with fields id, question, answers, category)"
                .into(),
        });
    };
    let id = match t.get("id") {
        Some(toml::Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        _ => None,
    };
    let bad = |problem: String| BankError::Question {
        index,
        id: id.clone(),
        problem,
    };
    if let Some(key) = t
        .keys()
        .find(|k| !FIELDS.split(", ").any(|f| f == k.as_str()))
    {
        return Err(bad(format!("unknown field `{key}` (allowed: {FIELDS})")));
    }
    let Some(id_text) = id.clone() else {
        return Err(bad(match t.get("id") {
            None => "field `id` is missing: give each question a unique non-empty string id".into(),
            Some(v) => format!("field `id` must be a non-empty string, not {v}"),
        }));
    };
    let string = |name: &str| -> Result<String, BankError> {
        match t.get(name) {
            None => Err(bad(format!(
                "field `{name}` is missing (a non-empty string)"
            ))),
            Some(toml::Value::String(s)) if !s.trim().is_empty() => Ok(s.trim().to_string()),
            Some(v) => Err(bad(format!(
                "field `{name}` must be a non-empty string, not {v}"
            ))),
        }
    };
    let question = string("question")?;
    let answers = match t.get("answers") {
        None => {
            return Err(bad(
                "field `answers` is missing (a list of accepted answers)".into(),
            ))
        }
        Some(toml::Value::Array(list)) => {
            let mut out = Vec::with_capacity(list.len());
            for (k, a) in list.iter().enumerate() {
                match a {
                    toml::Value::String(s) => out.push(s.trim().to_string()),
                    other => {
                        return Err(bad(format!(
                            "field `answers`: answer {} must be a string, not {other}",
                            k + 1
                        )))
                    }
                }
            }
            out
        }
        Some(v) => {
            return Err(bad(format!(
                "field `answers` must be a list of strings, not {v}"
            )))
        }
    };
    check_answers(&answers).map_err(bad)?;
    let category = match t.get("category") {
        None => {
            return Err(bad(format!(
                "field `category` is missing (one of {})",
                Category::NAMES.join(", ")
            )))
        }
        Some(toml::Value::String(s)) => Category::parse(s).ok_or_else(|| {
            bad(format!(
                "field `category`: unknown category {s:?} (allowed: {})",
                Category::NAMES.join(", ")
            ))
        })?,
        Some(v) => {
            return Err(bad(format!(
                "field `category` must be one of {}, not {v}",
                Category::NAMES.join(", ")
            )))
        }
    };
    let note = match t.get("note") {
        None => None,
        Some(toml::Value::String(s)) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Some(v) => return Err(bad(format!("field `note` must be a string, not {v}"))),
    };
    Ok(Question {
        id: id_text,
        question,
        answers,
        category,
        note,
    })
}

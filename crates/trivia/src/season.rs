//! Questions from match history, in the spirit of the original ("In MM1, which player scored
//! the most apples?").
//!
//! A [`Season`] is a named, ordered list of finished matches, each a match [`Record`]
//! (docs/record-format.md) with a label (`day 3`, `match 12`, `DM2`) and the players' names.
//! Each record is replayed through `colosseum_games`, and the final state gives the questions,
//! with answers computed from it (never written by hand):
//!
//! * **winner**: "Who won match 12 (Square Goofspiel)?": the winner's name, or `p1`/`p2`
//!   (also `player 1`/`player 2`) when unnamed; for a draw, `nobody` (`no one`, `draw`, `tie`).
//! * **winner's score**: "How many points did the winner of match 12 (Goofspiel) score?": the
//!   winner's headline score (points, halves written `28.5`; victory points in The Witch's Brew;
//!   for Thwart Omega "What was the product of the winner's group sizes ...?"). Not for
//!   Galespiel, whose headline is what a player still needs to connect.
//! * **winner's bridges** (Galespiel): "How many bridges did the winner of match 12 build?".
//! * **winner's cells**: "How many cells did the winner of day 3 (Square Goofspiel) claim?", for
//!   games whose score reports each seat's `cells`.
//! * **rounds**: "How many rounds did match 12 (Thwart Omega) last?", for games whose score
//!   reports the rounds played (`rounds`, `rounds_played` or `turns_played`).
//! * **burned cells** (Thwart Omega): "How many cells were burned in match 12?": the `#` cells of
//!   the final board. A burned cell is made by both players' stones together, so "cells the
//!   winner burned" has no answer; the question asks for the board's total.
//!
//! A label that starts with `MM`, `DM` or `FM` gives its questions that category; any other
//! label gives `free`. Ids are `season:<label>:<kind>`, with the label lower-cased and spaces as
//! `-`.

use colosseum_engine::{Pending, Record, Seat, Viewer};
use colosseum_games::{find, replay_record};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bank::{Category, Question};

/// One finished match of a season.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeasonMatch {
    /// How questions name it: `day 3`, `match 12`, `DM2`.
    pub label: String,
    /// Its record.
    pub record: Record,
    /// The players' names (`p1`, `p2`); unnamed seats are called `p1`/`p2`.
    #[serde(default)]
    pub players: [Option<String>; 2],
    /// How the match ended when that was not the game's own end (a resignation, a seat out
    /// of time): its record stops before the game is over, and only "who won" is asked.
    /// `None` for a match the game itself ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<MatchEnd>,
}

/// How a match ended off the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchEnd {
    /// The winner (`None`: a draw).
    pub winner: Option<Seat>,
    /// Why, in a sentence ("p2 resigned").
    pub reason: String,
}

/// A named, ordered list of finished matches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Season {
    /// The season's name.
    pub name: String,
    /// The matches, in order.
    pub matches: Vec<SeasonMatch>,
}

/// A match of the season cannot give questions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeasonError {
    /// The record's game or options are wrong.
    #[error("{label}: the record does not load: {why}")]
    Load {
        /// The match's label.
        label: String,
        /// Why.
        why: String,
    },
    /// A step of the record does not fit.
    #[error("{label}: the record does not replay: {why}")]
    Replay {
        /// The match's label.
        label: String,
        /// Why.
        why: String,
    },
    /// The record stops before the game is over.
    #[error("{label}: the match is not finished (its record stops before the end)")]
    NotFinished {
        /// The match's label.
        label: String,
    },
    /// Two matches share a label.
    #[error("two matches are labelled `{0}`; labels must be unique in a season")]
    DuplicateLabel(String),
}

impl SeasonMatch {
    /// The name of the player in `seat`: its name, or `p1`/`p2`.
    #[must_use]
    pub fn player_name(&self, seat: Seat) -> String {
        self.players[seat.index()]
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map_or_else(|| seat.as_str().to_string(), str::to_string)
    }
}

/// Every question the season's matches give, in match order.
pub fn season_questions(season: &Season) -> Result<Vec<Question>, SeasonError> {
    let mut out = Vec::new();
    let mut labels = std::collections::HashSet::new();
    for m in &season.matches {
        if !labels.insert(slug(&m.label)) {
            return Err(SeasonError::DuplicateLabel(m.label.clone()));
        }
        out.extend(match_questions(m)?);
    }
    Ok(out)
}

/// The questions one finished match gives.
pub fn match_questions(m: &SeasonMatch) -> Result<Vec<Question>, SeasonError> {
    let label = m.label.trim().to_string();
    let replay = replay_record(&m.record)
        .map_err(|e| SeasonError::Load {
            label: label.clone(),
            why: e.to_string(),
        })?
        .map_err(|f| SeasonError::Replay {
            label: label.clone(),
            why: f.error.to_string(),
        })?;
    let game = replay.game;
    let name = find(&m.record.game).map_or(m.record.game.as_str(), |e| e.name);
    let category = Category::of_label(&label);
    if game.pending() != Pending::Over {
        // A match that ended off the board (resigned, out of time) is finished too: only its
        // winner is asked about (the score stopped mid-game).
        let Some(end) = &m.ended else {
            return Err(SeasonError::NotFinished { label });
        };
        return Ok(vec![Question {
            id: format!("season:{}:winner", slug(&label)),
            question: format!("Who won {label} ({name})?"),
            answers: winner_answers(m, end.winner),
            category,
            note: Some(end.reason.clone()),
        }]);
    }
    let id = |kind: &str| format!("season:{}:{kind}", slug(&label));
    let question = |kind: &str, text: String, answers: Vec<String>, note: String| Question {
        id: id(kind),
        question: text,
        answers,
        category,
        note: Some(note),
    };
    let outcome = game.outcome();
    let score = game.score();
    let winner = outcome.as_ref().and_then(|o| o.winner);
    let mut qs = Vec::new();

    let answers = winner_answers(m, winner);
    qs.push(question(
        "winner",
        format!("Who won {label} ({name})?"),
        answers,
        outcome.map_or_else(|| "no outcome".into(), |o| o.reason),
    ));

    if let Some(seat) = winner {
        let headline = match seat {
            Seat::P1 => &score.p1,
            Seat::P2 => &score.p2,
        };
        let text = match m.record.game.as_str() {
            // Galespiel's headline is what a player still needs to connect: lower is better.
            "galespiel" => None,
            "thwart-omega" => Some(format!(
                "What was the product of the winner's group sizes in {label} ({name})?"
            )),
            "witchs-brew" => Some(format!(
                "How many victory points did the winner of {label} ({name}) score?"
            )),
            _ => Some(format!(
                "How many points did the winner of {label} ({name}) score?"
            )),
        };
        if let (Some(text), Some(n)) = (text, number(headline)) {
            qs.push(question(
                "winner-score",
                text,
                vec![n],
                format!(
                    "{} scored {headline}; the loser {}",
                    m.player_name(seat),
                    match seat {
                        Seat::P1 => &score.p2,
                        Seat::P2 => &score.p1,
                    }
                ),
            ));
        }
        if let Some(bridges) = score
            .details
            .get("bridges")
            .and_then(|b| b.get(seat.as_str()))
            .and_then(Value::as_array)
        {
            qs.push(question(
                "winner-bridges",
                format!("How many bridges did the winner of {label} ({name}) build?"),
                vec![bridges.len().to_string()],
                "the bridges the game's score lists for the winner".into(),
            ));
        }
    }

    if let Some(seat) = winner {
        if let Some(cells) = score
            .details
            .get("cells")
            .and_then(|c| c.get(seat.as_str()))
            .and_then(whole)
        {
            qs.push(question(
                "winner-cells",
                format!("How many cells did the winner of {label} ({name}) claim?"),
                vec![cells.to_string()],
                "the cells the game's score reports for the winner".into(),
            ));
        }
    }

    if let Some(rounds) = ["rounds", "rounds_played", "turns_played"]
        .iter()
        .find_map(|k| score.details.get(*k).and_then(whole))
    {
        qs.push(question(
            "rounds",
            format!("How many rounds did {label} ({name}) last?"),
            vec![rounds.to_string()],
            "the rounds the game's score reports".into(),
        ));
    }

    if m.record.game == "thwart-omega" {
        if let Some(burned) = burned_cells(&game.view_json(Viewer::Spectator)) {
            qs.push(question(
                "burned",
                format!("How many cells were burned in {label} ({name})?"),
                vec![burned.to_string()],
                "cells of both colours at once, and the last three or fewer empty cells".into(),
            ));
        }
    }
    Ok(qs)
}

/// The accepted answers to "who won": the winner's name (or `player N` when unnamed), or the
/// words for a draw.
fn winner_answers(m: &SeasonMatch, winner: Option<Seat>) -> Vec<String> {
    match winner {
        Some(seat) => {
            let mut a = vec![m.player_name(seat)];
            if m.players[seat.index()].is_none() {
                a.push(format!("player {}", seat.index() + 1));
            }
            a
        }
        None => ["nobody", "no one", "draw", "tie", "a draw", "neither"]
            .map(String::from)
            .to_vec(),
    }
}

/// The `#` cells of a Thwart Omega view's `rows`.
#[must_use]
pub fn burned_cells(view: &Value) -> Option<u64> {
    let rows = view.get("rows")?.as_array()?;
    let mut n = 0;
    for r in rows {
        n += r.as_str()?.chars().filter(|&c| c == '#').count() as u64;
    }
    Some(n)
}

/// A JSON number as answer text: whole numbers as digits, others (halves) as decimals.
fn number(v: &Value) -> Option<String> {
    if let Some(n) = whole(v) {
        return Some(n.to_string());
    }
    v.as_f64().filter(|f| f.is_finite()).map(|f| f.to_string())
}

fn whole(v: &Value) -> Option<i128> {
    if let Some(n) = v.as_i64() {
        return Some(i128::from(n));
    }
    if let Some(n) = v.as_u64() {
        return Some(i128::from(n));
    }
    v.as_f64()
        .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
        .map(|f| f as i128)
}

fn slug(label: &str) -> String {
    label
        .trim()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
}

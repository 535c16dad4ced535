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
//! * what else the final state answers, asked by the game itself: its entry's
//!   `GameEntry::season` hook in `colosseum_games` (each game's folder, `season.rs`) words the
//!   questions from its own score keys and view (the winner's score, the rounds played, the
//!   winner's cells or bridges, the cells burned), and this module gives each its id and
//!   category. This crate names no game.
//!
//! A label that starts with `MM`, `DM` or `FM` gives its questions that category; any other
//! label gives `free`. Ids are `season:<label>:<kind>`, with the label lower-cased and spaces as
//! `-`.

use colosseum_engine::{Pending, Record, Seat};
use colosseum_games::season::Finished;
use colosseum_games::{find, replay_record};
use serde::{Deserialize, Serialize};

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
    let entry = find(&m.record.game).map_err(|e| SeasonError::Load {
        label: label.clone(),
        why: e.to_string(),
    })?;
    let name = entry.name;
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
    let winner = outcome.as_ref().and_then(|o| o.winner);
    let mut qs = Vec::new();

    let answers = winner_answers(m, winner);
    qs.push(question(
        "winner",
        format!("Who won {label} ({name})?"),
        answers,
        outcome.map_or_else(|| "no outcome".into(), |o| o.reason),
    ));

    // What else the final state answers, in the game's own words (`GameEntry::season`).
    let title = format!("{label} ({name})");
    let players = [m.player_name(Seat::P1), m.player_name(Seat::P2)];
    let finished = Finished {
        title: &title,
        players: [&players[0], &players[1]],
        winner,
    };
    for q in (entry.season)(game.as_ref(), &finished) {
        qs.push(question(q.kind, q.question, vec![q.answer], q.note));
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

fn slug(label: &str) -> String {
    label
        .trim()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
}

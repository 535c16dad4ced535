//! What a finished game tells a trivia season ([`crate::GameEntry::season`]): the questions its
//! final state answers beyond "who won", each game wording its own in its folder (`season.rs`),
//! from its own score keys and view. The trivia crate (`colosseum_trivia::season`) asks "who won"
//! itself, gives each question its id (`season:<label>:<kind>`) and category, and names no game.

use colosseum_engine::{AnyGame, Score, Seat};
use serde_json::Value;

/// A finished match as its season's questions name it.
#[derive(Clone, Copy, Debug)]
pub struct Finished<'a> {
    /// How a question names the match: its label and the game's name, `match 12 (Goofspiel)`.
    pub title: &'a str,
    /// The players' names, `p1`'s first.
    pub players: [&'a str; 2],
    /// The winner (`None`: a draw).
    pub winner: Option<Seat>,
}

/// One question a finished game answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeasonQuestion {
    /// The last part of the question's id (`winner-score`, `rounds`).
    pub kind: &'static str,
    /// The question, naming the match by [`Finished::title`].
    pub question: String,
    /// The answer, computed from the final state (digits for a number).
    pub answer: String,
    /// Where the answer comes from, in a sentence.
    pub note: String,
}

/// A game's [`crate::GameEntry::season`]: the questions the final state of a finished game
/// answers, beyond "who won".
pub type SeasonQuestions = fn(&dyn AnyGame, &Finished<'_>) -> Vec<SeasonQuestion>;

/// The default [`crate::GameEntry::season`]: no question beyond "who won".
#[must_use]
pub fn none(_: &dyn AnyGame, _: &Finished<'_>) -> Vec<SeasonQuestion> {
    Vec::new()
}

/// `seat`'s headline score.
fn headline(score: &Score, seat: Seat) -> &Value {
    match seat {
        Seat::P1 => &score.p1,
        Seat::P2 => &score.p2,
    }
}

/// The winner's headline score as the answer to `question` (`winner-score`); `None` without a
/// winner or when the headline is not a number.
#[must_use]
pub fn winner_score(
    game: &dyn AnyGame,
    m: &Finished<'_>,
    question: String,
) -> Option<SeasonQuestion> {
    let seat = m.winner?;
    let score = game.score();
    let mine = headline(&score, seat);
    let answer = number(mine)?;
    Some(SeasonQuestion {
        kind: "winner-score",
        question,
        answer,
        note: format!(
            "{} scored {mine}; the loser {}",
            m.players[seat.index()],
            headline(&score, seat.other())
        ),
    })
}

/// The winner's entry under the score's `key` (per seat: a whole number, or a list whose length
/// counts), as the answer to `question`; `None` without a winner or that entry.
#[must_use]
pub fn winner_count(
    game: &dyn AnyGame,
    m: &Finished<'_>,
    key: &str,
    kind: &'static str,
    question: String,
    note: &str,
) -> Option<SeasonQuestion> {
    let seat = m.winner?;
    let score = game.score();
    let entry = score.details.get(key)?.get(seat.as_str())?;
    let n = match entry.as_array() {
        Some(list) => list.len() as i128,
        None => whole(entry)?,
    };
    Some(SeasonQuestion {
        kind,
        question,
        answer: n.to_string(),
        note: note.to_string(),
    })
}

/// "How many rounds did ... last?" (`rounds`), from the score's `key`; `None` without it.
#[must_use]
pub fn rounds(game: &dyn AnyGame, m: &Finished<'_>, key: &str) -> Option<SeasonQuestion> {
    let n = whole(game.score().details.get(key)?)?;
    Some(SeasonQuestion {
        kind: "rounds",
        question: format!("How many rounds did {} last?", m.title),
        answer: n.to_string(),
        note: "the rounds the game's score reports".into(),
    })
}

/// A JSON number as answer text: whole numbers as digits, others (halves) as decimals.
#[must_use]
pub fn number(v: &Value) -> Option<String> {
    if let Some(n) = whole(v) {
        return Some(n.to_string());
    }
    v.as_f64().filter(|f| f.is_finite()).map(|f| f.to_string())
}

/// A JSON number that is whole.
#[must_use]
pub fn whole(v: &Value) -> Option<i128> {
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

//! All-In Goofspiel's season questions ([`crate::GameEntry::season`]): the winner's points
//! (halves written `28.5`) and the rounds played.

use colosseum_engine::AnyGame;

use crate::season::{rounds, winner_score, Finished, SeasonQuestion};

/// The questions a finished game answers beyond "who won".
#[must_use]
pub fn questions(game: &dyn AnyGame, m: &Finished<'_>) -> Vec<SeasonQuestion> {
    [
        winner_score(
            game,
            m,
            format!("How many points did the winner of {} score?", m.title),
        ),
        rounds(game, m, "rounds_played"),
    ]
    .into_iter()
    .flatten()
    .collect()
}

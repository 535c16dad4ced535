//! The Witch's Brew's season questions ([`crate::GameEntry::season`]): the winner's victory
//! points.

use colosseum_engine::AnyGame;

use crate::season::{winner_score, Finished, SeasonQuestion};

/// The questions a finished game answers beyond "who won".
#[must_use]
pub fn questions(game: &dyn AnyGame, m: &Finished<'_>) -> Vec<SeasonQuestion> {
    winner_score(
        game,
        m,
        format!(
            "How many victory points did the winner of {} score?",
            m.title
        ),
    )
    .into_iter()
    .collect()
}

//! Square Goofspiel's season questions ([`crate::GameEntry::season`]): the winner's points and
//! the cells the winner claimed.

use colosseum_engine::AnyGame;

use crate::season::{winner_count, winner_score, Finished, SeasonQuestion};

/// The questions a finished game answers beyond "who won".
#[must_use]
pub fn questions(game: &dyn AnyGame, m: &Finished<'_>) -> Vec<SeasonQuestion> {
    [
        winner_score(
            game,
            m,
            format!("How many points did the winner of {} score?", m.title),
        ),
        winner_count(
            game,
            m,
            "cells",
            "winner-cells",
            format!("How many cells did the winner of {} claim?", m.title),
            "the cells the game's score reports for the winner",
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

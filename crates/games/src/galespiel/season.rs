//! Galespiel's season questions ([`crate::GameEntry::season`]): the bridges the winner built and
//! the rounds played. Its headline score is what a player still needs to connect (lower is
//! better), so no question asks for the winner's score.

use colosseum_engine::AnyGame;

use crate::season::{rounds, winner_count, Finished, SeasonQuestion};

/// The questions a finished game answers beyond "who won".
#[must_use]
pub fn questions(game: &dyn AnyGame, m: &Finished<'_>) -> Vec<SeasonQuestion> {
    [
        winner_count(
            game,
            m,
            "bridges",
            "winner-bridges",
            format!("How many bridges did the winner of {} build?", m.title),
            "the bridges the game's score lists for the winner",
        ),
        rounds(game, m, "rounds"),
    ]
    .into_iter()
    .flatten()
    .collect()
}

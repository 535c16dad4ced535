//! Thwart Omega's season questions ([`crate::GameEntry::season`]): the product of the winner's
//! group sizes, the rounds played and the cells burned. A burned cell is made by both players'
//! stones together, so "cells the winner burned" has no answer; the question asks for the
//! board's total.

use colosseum_engine::{AnyGame, Viewer};
use serde_json::Value;

use crate::season::{rounds, winner_score, Finished, SeasonQuestion};

/// The questions a finished game answers beyond "who won".
#[must_use]
pub fn questions(game: &dyn AnyGame, m: &Finished<'_>) -> Vec<SeasonQuestion> {
    let burned = burned_cells(&game.view_json(Viewer::Spectator)).map(|n| SeasonQuestion {
        kind: "burned",
        question: format!("How many cells were burned in {}?", m.title),
        answer: n.to_string(),
        note: "cells of both colours at once, and the last three or fewer empty cells".into(),
    });
    [
        winner_score(
            game,
            m,
            format!(
                "What was the product of the winner's group sizes in {}?",
                m.title
            ),
        ),
        rounds(game, m, "rounds"),
        burned,
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The `#` cells of a view's `rows`.
#[must_use]
pub fn burned_cells(view: &Value) -> Option<u64> {
    let rows = view.get("rows")?.as_array()?;
    let mut n = 0;
    for r in rows {
        n += r.as_str()?.chars().filter(|&c| c == '#').count() as u64;
    }
    Some(n)
}

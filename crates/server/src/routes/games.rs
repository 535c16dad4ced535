//! The games: the list, and one game's page (rules, options, time control, bots).

use axum::extract::Path;
use axum::Json;
use serde_json::{json, Value};

use crate::error::ApiError;

pub(super) async fn games() -> Json<Value> {
    let list: Vec<Value> = colosseum_games::registry()
        .iter()
        .map(|g| {
            json!({
                "id": g.id,
                "name": g.name,
                "summary": g.summary,
                "options": g.options,
                "time_control": colosseum_host::TimeControl::for_entry(g),
                "bots": bot_names(g.id),
            })
        })
        .collect();
    Json(json!({ "games": list }))
}

fn bot_names(game: &str) -> Vec<&'static str> {
    if colosseum_ai::registry::find(game).is_ok() {
        vec![
            "random",
            "heuristic",
            "mcts:easy",
            "mcts:medium",
            "mcts:hard",
        ]
    } else {
        Vec::new()
    }
}

pub(super) async fn game_page(Path(game): Path<String>) -> Result<Json<Value>, ApiError> {
    let g = colosseum_games::find(&game).map_err(|e| ApiError::not_found(e.to_string()))?;
    Ok(Json(json!({
        "id": g.id,
        "name": g.name,
        "summary": g.summary,
        "rules": g.rules_page(),
        "options": g.options,
        "time_control": colosseum_host::TimeControl::for_entry(g),
        "bots": bot_names(g.id),
    })))
}

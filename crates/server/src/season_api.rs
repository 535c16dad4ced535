//! The seasons' HTTP endpoints (`docs/server-api.md`, "Seasons and ratings"): create, list,
//! view (roster, ratings per game, tournaments, rated matches), add players, and rated casual
//! matches. Tokens come in the `Authorization: Bearer` header, as for matches.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;

use crate::error::ApiError;
use crate::routes::extract::{bearer, Body};
use crate::seasons::{CreateSeason, RatedMatchRequest};
use crate::state::AppState;
use crate::store::Store;

/// How many seasons the list shows.
const LISTED: usize = 50;

/// The routes, merged into [`crate::app`] inside its rate limit.
pub fn routes<S: Store>() -> Router<Arc<AppState<S>>> {
    Router::new()
        .route("/api/seasons", get(list::<S>).post(create::<S>))
        .route("/api/seasons/{id}", get(view::<S>))
        .route("/api/seasons/{id}/players", post(add_players::<S>))
        .route("/api/seasons/{id}/matches", post(rated_match::<S>))
}

async fn list<S: Store>(State(state): State<Arc<AppState<S>>>) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.seasons.recent(LISTED).await?))
}

async fn create<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Body(req): Body<CreateSeason>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    Ok((StatusCode::CREATED, Json(state.seasons.create(req).await?)))
}

async fn view<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let mut view = state.seasons.view(&id, bearer(&headers)).await?;
    // Each tournament's status, asked outside the season's lock (a tournament's lock comes
    // first).
    if let Some(list) = view["tournaments"].as_array_mut() {
        for t in list {
            let tid = t["id"].as_str().unwrap_or_default().to_string();
            // Run by another node: as the store has it, so every node shows the same.
            if let Ok(v) = state.tournaments.outline(&tid).await {
                t["status"] = v["status"].clone();
                t["format"] = v["format"].clone();
                t["games"] = v["games"].clone();
            }
        }
    }
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddPlayers {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    names: Vec<String>,
}

async fn add_players<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<AddPlayers>,
) -> Result<Json<Value>, ApiError> {
    let mut names = req.names;
    names.extend(req.name);
    Ok(Json(
        state
            .seasons
            .add_players(&id, bearer(&headers), &names)
            .await?,
    ))
}

async fn rated_match<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<RatedMatchRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    Ok((
        StatusCode::CREATED,
        Json(
            state
                .seasons
                .create_match(&id, bearer(&headers), req)
                .await?,
        ),
    ))
}

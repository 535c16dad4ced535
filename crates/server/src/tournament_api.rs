//! The tournaments' HTTP endpoints (`docs/server-api.md`, "Tournaments"): create, list, view,
//! register, the host's actions, and the standings as CSV and JSON. Tokens come in the
//! `Authorization: Bearer` header, as for matches.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::routes::extract::{bearer, Body};
use crate::state::AppState;
use crate::store::Store;
use crate::tournaments::CreateTournament;

/// How many tournaments the list shows.
const LISTED: usize = 50;

/// The routes, merged into [`crate::app`] inside its rate limit.
pub fn routes<S: Store>() -> Router<Arc<AppState<S>>> {
    Router::new()
        .route("/api/tournaments", get(list::<S>).post(create::<S>))
        .route("/api/tournaments/{id}", get(view::<S>))
        .route("/api/tournaments/{id}/register", post(register::<S>))
        .route("/api/tournaments/{id}/standings.csv", get(csv::<S>))
        .route(
            "/api/tournaments/{id}/standings.json",
            get(standings_json::<S>),
        )
        .route("/api/tournaments/{id}/{action}", post(host::<S>))
}

async fn list<S: Store>(State(state): State<Arc<AppState<S>>>) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.tournaments.recent(LISTED).await?))
}

async fn create<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    headers: HeaderMap,
    Body(req): Body<CreateTournament>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    Ok((
        StatusCode::CREATED,
        Json(state.tournaments.create(req, bearer(&headers)).await?),
    ))
}

async fn view<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.tournaments.view(&id, bearer(&headers)).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Register {
    /// The player's name (a newcomer).
    #[serde(default)]
    name: Option<String>,
    /// In a season's tournament, a roster player's season link token.
    #[serde(default)]
    season_token: Option<String>,
}

async fn register<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<Register>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(
        state
            .tournaments
            .register(
                &id,
                bearer(&headers),
                req.name.as_deref(),
                req.season_token.as_deref(),
            )
            .await?,
    ))
}

async fn csv<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let text = state.tournaments.csv(&id).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"standings-{id}.csv\""),
            ),
        ],
        text,
    )
        .into_response())
}

async fn standings_json<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let view = state.tournaments.view(&id, None).await?;
    Ok(Json(json!({
        "id": view["id"],
        "name": view["name"],
        "format": view["format"],
        "status": view["status"],
        "tie_breaks": view["tie_breaks"],
        "standings": view["standings"],
        "rounds": view["rounds"],
    })))
}

async fn host<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
    body: Option<Json<Value>>,
) -> Result<Json<Value>, ApiError> {
    let body = body.map_or(Value::Null, |Json(v)| v);
    Ok(Json(
        state
            .tournaments
            .host(&id, bearer(&headers), &action, body)
            .await?,
    ))
}

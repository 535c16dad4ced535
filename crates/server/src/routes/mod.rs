//! The HTTP and WebSocket face of the hub, laid out as axum's examples are: [`app`] assembles
//! the router and its middleware (forwarding to the node that serves a match, the per-address
//! rate limits, the body limit), and each submodule holds one family of handlers. See
//! `docs/server-api.md` for the protocol.
//!
//! [`app`] builds the router from an [`AppState`], so tests call it without a network. Every
//! response is built by the hub from the caller's role: a seat's token gives that seat's view,
//! no token the spectator's; a token that is not a seat of the match is refused.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;
use crate::store::Store;

mod admin;
mod analysis;
pub(crate) mod extract;
mod games;
mod health;
mod matches;
pub(crate) mod ws;

use extract::client_key;
pub use ws::{serve_socket, serve_socket_with, WS_PROTOCOL, WS_TOKEN_PROTOCOL};
use {admin::*, games::*, health::*, matches::*, ws::ws};

/// The router: the JSON API under `/api`, and whatever `pages` adds (the browser table).
pub fn app<S: Store>(state: Arc<AppState<S>>) -> Router {
    let body = state.limits.body_bytes;
    Router::new()
        .route("/api/health", get(health::<S>))
        .route("/metrics", get(metrics::<S>))
        .route("/livez", get(livez))
        .route("/readyz", get(readyz::<S>))
        .route("/api/games", get(games))
        .route("/api/games/{game}", get(game_page))
        .route("/api/games/{game}/balance", get(crate::balance::report))
        .route(
            "/api/games/{game}/balance/{plot}",
            get(crate::balance::plot),
        )
        .route("/api/matches", get(lobby::<S>).post(create::<S>))
        .route("/api/matches/{id}", get(match_state::<S>))
        .route("/api/matches/{id}/join", post(join::<S>))
        .route("/api/matches/{id}/reveal", post(reveal::<S>))
        .route("/api/matches/{id}/submit", post(submit::<S>))
        .route("/api/matches/{id}/lock", post(lock::<S>))
        .route("/api/matches/{id}/commit", post(commit::<S>))
        .route("/api/matches/{id}/open", post(open::<S>))
        .route("/api/matches/{id}/resign", post(resign::<S>))
        .route("/api/matches/{id}/answer", post(answer::<S>))
        .route("/api/matches/{id}/chat", post(chat::<S>))
        .route("/api/matches/{id}/rematch", post(rematch::<S>))
        .route("/api/matches/{id}/record", get(record::<S>))
        .route("/api/matches/{id}/replay", get(replay::<S>))
        .route("/api/matches/{id}/verify", get(verify::<S>))
        .route(
            "/api/matches/{id}/analysis",
            get(analysis::get::<S>).post(analysis::start::<S>),
        )
        .route("/api/matches/{id}/ws", get(ws::<S>))
        .route("/api/seasons/questions", post(season_questions::<S>))
        .route("/api/qr", post(crate::qr::post))
        .route("/api/admin/quarantine", get(admin_quarantine::<S>))
        .route(
            crate::discord::ENDPOINT,
            post(crate::discord::interactions::<S>),
        )
        .merge(crate::tournament_api::routes::<S>())
        .merge(crate::season_api::routes::<S>())
        .fallback(crate::pages::fallback)
        .layer(middleware::from_fn_with_state(state.clone(), to_owner::<S>))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            rate_limit::<S>,
        ))
        .layer(DefaultBodyLimit::max(body))
        // The pages and their static assets, outside the API's rate limit.
        .merge(crate::pages::router())
        .with_state(state)
}

/// Sends a request for a match another node serves to that node (`crate::forward`), unless it
/// was forwarded already. WebSockets are forwarded by `ws`.
async fn to_owner<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    req: Request,
    next: Next,
) -> Response {
    let id = req
        .uri()
        .path()
        .strip_prefix("/api/matches/")
        .map(|rest| rest.split('/').collect::<Vec<_>>());
    let forwardable = match id.as_deref() {
        Some([id]) | Some([id, _]) if !id.is_empty() => {
            !req.uri().path().ends_with("/ws")
                && !req.headers().contains_key(crate::forward::FORWARDED_FOR)
        }
        _ => false,
    };
    if forwardable {
        let id = id.as_deref().unwrap_or_default()[0].to_string();
        if let Some(owner) = state.hub.owner_elsewhere(&id).await {
            let client = client_key(&state, &req);
            return crate::forward::http(&owner, &client, req).await;
        }
    }
    // A tournament's requests go to the process that runs it.
    let tournament = req
        .uri()
        .path()
        .strip_prefix("/api/tournaments/")
        .and_then(|rest| rest.split('/').next())
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric()))
        .map(str::to_string);
    if let Some(id) = tournament {
        if state.hub.shared() && !req.headers().contains_key(crate::forward::FORWARDED_FOR) {
            if let Some(owner) = state.hub.tournament_elsewhere(&id).await {
                let client = client_key(&state, &req);
                return crate::forward::http(&owner, &client, req).await;
            }
        }
    }
    next.run(req).await
}

/// Who sent a request, for a handler that limits it itself (the Discord interactions endpoint).
#[derive(Clone, Debug)]
pub struct ClientKey(pub String);

async fn rate_limit<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    mut req: Request,
    next: Next,
) -> Response {
    let key = client_key(&state, &req);
    // Every interaction comes from Discord's few addresses: the endpoint limits a verified one
    // per member and a refused one per address (`crate::discord::interactions`).
    let limited_inside =
        state.limits.discord.is_some() && req.uri().path() == crate::discord::ENDPOINT;
    if limited_inside {
        req.extensions_mut().insert(ClientKey(key.clone()));
    }
    if req.method() == axum::http::Method::POST
        && (req.uri().path() == "/api/matches"
            || req.uri().path() == "/api/tournaments"
            || req.uri().path() == "/api/seasons"
            || (req.uri().path().starts_with("/api/seasons/")
                && req.uri().path().ends_with("/matches")))
        && !state.allow_create(&key)
    {
        return ApiError::new(
            ErrorCode::RateLimited,
            format!(
                "too many new matches: at most {} a minute from one address (burst {}); \
                 wait and retry",
                state.limits.creates_per_minute, state.limits.creates_burst
            ),
        )
        .into_response();
    }
    if !limited_inside && !state.allow(&key) {
        return ApiError::new(
            ErrorCode::RateLimited,
            format!(
                "too many requests: at most {} a second from one address; wait and retry",
                state.limits.http_per_second
            ),
        )
        .into_response();
    }
    let limit = state.limits.request_timeout;
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            ErrorCode::Timeout,
            format!(
                "the request took longer than {} s (a body sent too slowly?)",
                limit.as_secs_f64()
            ),
        )
        .into_response(),
    }
}

//! The match handlers: the lobby, creation, a match's state, every seat's action, chat,
//! rematch, records, replay and verify.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use colosseum_engine::{Seat, Viewer};
use serde::Deserialize;
use serde_json::{json, Value};

use super::extract::{bearer, client_of, Body};
use crate::error::{ApiError, ErrorCode};
use crate::hub::{Action, CreateMatch, Table};
use crate::limits::LOBBY_PAGE;
use crate::state::AppState;
use crate::store::Store;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LobbyQuery {
    #[serde(default)]
    offset: Option<usize>,
    #[serde(default)]
    limit: Option<usize>,
}

pub(super) async fn lobby<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    query: Result<Query<LobbyQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query.map_err(|e| {
        ApiError::bad_request(format!(
            "{}; the lobby takes ?offset=N&limit=N (limit 1 to {})",
            e.body_text(),
            state.hub.limits().lobby_page_max
        ))
    })?;
    let limit = q.limit.unwrap_or(LOBBY_PAGE);
    Ok(Json(state.hub.lobby(q.offset.unwrap_or(0), limit).await?))
}

pub(super) async fn create<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    headers: HeaderMap,
    extensions: axum::http::Extensions,
    Body(mut req): Body<CreateMatch>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    if let Some(hook) = req.webhook.take() {
        // A webhook makes the server send requests where its setter says: never for an
        // anonymous creator (`crate::webhooks::guard`).
        let admin = state
            .admin_token
            .as_deref()
            .zip(bearer(&headers))
            .is_some_and(|(admin, t)| crate::hub::same_secret(t, admin));
        if !admin {
            return Err(ApiError::forbidden(
                "only the server's admin may give a match a `webhook` (send the admin token as \
                 `Authorization: Bearer TOKEN`); a tournament's host sets its matches' webhook \
                 with the tournament (`POST /api/tournaments/{id}/webhook`)",
            ));
        }
        req.webhook = Some(state.hub.webhooks().check(hook).await?);
    }
    // The match's bot searches run in its creator's share of the bot pool (`crate::pool`).
    let share = crate::pool::share_of(&client_of(&state, &headers, &extensions));
    let created = state.hub.create_for(req, Some(share)).await?;
    Ok((StatusCode::CREATED, Json(json!(created))))
}

/// A state answered over HTTP: the rendered text as it is (`Hub::state_text`), not parsed
/// into a `Value` and written again.
pub(super) struct StateJson(String);

impl IntoResponse for StateJson {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

pub(super) async fn match_state<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StateJson, ApiError> {
    let table = state.hub.table(&id).await?;
    let role = state.hub.role(&table, bearer(&headers)).await?;
    Ok(StateJson(state.hub.state_text(&table, role).await))
}

/// The seat of the caller's token, or a refusal for spectators.
async fn seat_of<S: Store>(
    state: &AppState<S>,
    id: &str,
    headers: &HeaderMap,
) -> Result<(Arc<Table>, Seat), ApiError> {
    let table = state.hub.table(id).await?;
    match state.hub.role(&table, bearer(headers)).await? {
        Viewer::Seat(seat) => Ok((table, seat)),
        Viewer::Spectator => Err(ApiError::new(
            ErrorCode::Unauthorized,
            "only a seat can act: send its token as `Authorization: Bearer TOKEN`",
        )),
    }
}

async fn act_and_answer<S: Store>(
    state: &AppState<S>,
    id: &str,
    headers: &HeaderMap,
    action: Action,
    decision: Option<u64>,
) -> Result<StateJson, ApiError> {
    let (table, seat) = seat_of(state, id, headers).await?;
    state.hub.act_on(&table, seat, action, decision).await?;
    Ok(StateJson(
        state.hub.state_text(&table, Viewer::Seat(seat)).await,
    ))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    client_seed: Option<String>,
    #[serde(default)]
    client_seed_hash: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RevealBody {
    client_seed: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveBody {
    #[serde(rename = "move")]
    text: String,
    #[serde(default)]
    decision: Option<u64>,
}

/// A body that only names the decision (lock): read as empty when there is none, which the
/// hub then refuses with `decision_required`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DecisionBody {
    #[serde(default)]
    decision: Option<u64>,
}

fn optional_body<T: serde::de::DeserializeOwned + Default>(
    body: &[u8],
    shape: &str,
) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        Ok(T::default())
    } else {
        serde_json::from_slice::<T>(body)
            .map_err(|e| ApiError::bad_request(format!("the body is {shape}: {e}")))
    }
}

pub(super) async fn join<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<StateJson, ApiError> {
    // The body is optional: empty, or {"name": ..., "client_seed_hash": ...}.
    let body: JoinBody = optional_body(
        &body,
        "empty or {\"name\": TEXT, \"client_seed_hash\": the SHA-256 of your client seed, 64 lowercase hex}",
    )?;
    let action = Action::JoinSeeded {
        name: body.name,
        client_seed: body.client_seed,
        client_seed_hash: body.client_seed_hash,
    };
    act_and_answer(&state, &id, &headers, action, None).await
}

pub(super) async fn reveal<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<RevealBody>,
) -> Result<StateJson, ApiError> {
    act_and_answer(
        &state,
        &id,
        &headers,
        Action::Reveal(body.client_seed),
        None,
    )
    .await
}

pub(super) async fn submit<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<MoveBody>,
) -> Result<StateJson, ApiError> {
    act_and_answer(
        &state,
        &id,
        &headers,
        Action::Submit(body.text),
        body.decision,
    )
    .await
}

pub(super) async fn lock<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<StateJson, ApiError> {
    let body: DecisionBody = optional_body(&body, "{\"decision\": N}")?;
    act_and_answer(&state, &id, &headers, Action::Lock, body.decision).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CommitBody {
    hash: String,
    #[serde(default)]
    decision: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OpenBody {
    #[serde(rename = "move")]
    text: String,
    nonce: String,
    #[serde(default)]
    decision: Option<u64>,
}

pub(super) async fn commit<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<CommitBody>,
) -> Result<StateJson, ApiError> {
    act_and_answer(
        &state,
        &id,
        &headers,
        Action::Commit(body.hash),
        body.decision,
    )
    .await
}

pub(super) async fn open<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<OpenBody>,
) -> Result<StateJson, ApiError> {
    let action = Action::Open {
        text: body.text,
        nonce: body.nonce,
    };
    act_and_answer(&state, &id, &headers, action, body.decision).await
}

pub(super) async fn resign<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StateJson, ApiError> {
    act_and_answer(&state, &id, &headers, Action::Resign, None).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnswerBody {
    text: String,
    #[serde(default)]
    race: Option<u64>,
}

pub(super) async fn answer<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<AnswerBody>,
) -> Result<StateJson, ApiError> {
    let action = Action::Answer {
        text: body.text,
        race: body.race,
    };
    act_and_answer(&state, &id, &headers, action, None).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ChatBody {
    text: String,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/matches/{id}/chat`: a seat (its token) writes in the players' chat, anyone
/// without a token in the spectators' chat (with a `name`). Answers the writer's state.
pub(super) async fn chat<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    extensions: axum::http::Extensions,
    Body(body): Body<ChatBody>,
) -> Result<StateJson, ApiError> {
    let table = state.hub.table(&id).await?;
    let role = state.hub.role(&table, bearer(&headers)).await?;
    let address = client_of(&state, &headers, &extensions);
    state
        .chat(&table, role, &address, body.name, body.text)
        .await?;
    Ok(StateJson(state.hub.state_text(&table, role).await))
}

/// A seat of a finished match offers a rematch (seats swapped); a second call, by either seat,
/// gets the same new match. 201 with the new match's id and links.
pub(super) async fn rematch<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let (table, seat) = seat_of(&state, &id, &headers).await?;
    let created = state.hub.rematch(&table, seat).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": created.id,
            "seat": seat.other(),
            "link": created.links[seat.other().to_string()],
            "links": created.links,
        })),
    ))
}

pub(super) async fn season_questions<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Body(body): Body<crate::hub::SeasonRequest>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.hub.season_questions(body).await?))
}

pub(super) async fn record<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let table = state.hub.table(&id).await?;
    let records = state.hub.records(&table).await?;
    Ok(Json(json!({ "records": records })))
}

pub(super) async fn replay<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let table = state.hub.table(&id).await?;
    Ok(Json(state.hub.replay(&table).await?))
}

/// A finished match's verify report: computed once in the bot pool, in the asking address's
/// share, and kept (`crate::verifying`); 202 with `Retry-After` while it is computed longer
/// than `verifying::WAIT`, 503 `busy` with `Retry-After` when the queue is full.
pub(super) async fn verify<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    extensions: axum::http::Extensions,
) -> Result<Response, ApiError> {
    let share = crate::pool::share_of(&client_of(&state, &headers, &extensions));
    match state
        .hub
        .verify_report(&id, &share, crate::verifying::WAIT)
        .await?
    {
        crate::verifying::Answer::Report(v) => Ok(Json(v.as_ref()).into_response()),
        crate::verifying::Answer::Computing(secs) => Ok((
            StatusCode::ACCEPTED,
            [(header::RETRY_AFTER, secs.to_string())],
            Json(json!({
                "status": "computing",
                "message": format!(
                    "the report is being computed (its bot moves are searched again); ask \
                     again in {secs} s"
                ),
            })),
        )
            .into_response()),
    }
}

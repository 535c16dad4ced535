//! The HTTP and WebSocket face of the hub. See `docs/server-api.md` for the protocol.
//!
//! [`app`] builds the router from an [`AppState`], so tests call it without a network. Every
//! response is built by the hub from the caller's role: a seat's token gives that seat's view,
//! no token the spectator's; a token that is not a seat of the match is refused.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use colosseum_engine::{Seat, Viewer};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::hub::{Action, CreateMatch, Hub, Table};
use crate::store::Store;

/// Size and rate limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The largest request body, in bytes.
    pub body_bytes: usize,
    /// The largest WebSocket message, in bytes.
    pub ws_message_bytes: usize,
    /// Requests a second per client address (HTTP), sustained.
    pub http_per_second: f64,
    /// Requests a client address may burst above the sustained rate.
    pub http_burst: f64,
    /// Messages a second per WebSocket connection, sustained.
    pub ws_per_second: f64,
    /// Messages a WebSocket connection may burst.
    pub ws_burst: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 64 * 1024,
            ws_message_bytes: 16 * 1024,
            http_per_second: 20.0,
            http_burst: 60.0,
            ws_per_second: 10.0,
            ws_burst: 30.0,
        }
    }
}

/// A token bucket.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    fn new(burst: f64) -> Self {
        Bucket {
            tokens: burst,
            last: Instant::now(),
        }
    }

    /// Takes one token if there is one.
    fn take(&mut self, per_second: f64, burst: f64) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * per_second;
        self.tokens = (self.tokens + refill).min(burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// What the router shares.
pub struct AppState<S: Store> {
    /// The matches.
    pub hub: Arc<Hub<S>>,
    /// The limits.
    pub limits: Limits,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl<S: Store> AppState<S> {
    /// State over `hub` with `limits`.
    pub fn new(hub: Arc<Hub<S>>, limits: Limits) -> Arc<Self> {
        Arc::new(AppState {
            hub,
            limits,
            buckets: Mutex::new(HashMap::new()),
        })
    }

    fn allow(&self, key: &str) -> bool {
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() > 100_000 {
            // Forget clients that have been quiet long enough to be full again.
            let full = self.limits.http_burst;
            let rate = self.limits.http_per_second;
            buckets.retain(|_, b| b.tokens + b.last.elapsed().as_secs_f64() * rate < full);
        }
        buckets
            .entry(key.to_string())
            .or_insert_with(|| Bucket::new(self.limits.http_burst))
            .take(self.limits.http_per_second, self.limits.http_burst)
    }
}

/// The router: the JSON API under `/api`, and whatever `pages` adds (the browser table).
pub fn app<S: Store>(state: Arc<AppState<S>>) -> Router {
    let body = state.limits.body_bytes;
    Router::new()
        .route("/api/health", get(|| async { Json(json!({"ok": true})) }))
        .route("/api/games", get(games))
        .route("/api/games/{game}", get(game_page))
        .route("/api/matches", get(lobby::<S>).post(create::<S>))
        .route("/api/matches/{id}", get(match_state::<S>))
        .route("/api/matches/{id}/join", post(join::<S>))
        .route("/api/matches/{id}/submit", post(submit::<S>))
        .route("/api/matches/{id}/lock", post(lock::<S>))
        .route("/api/matches/{id}/commit", post(commit::<S>))
        .route("/api/matches/{id}/open", post(open::<S>))
        .route("/api/matches/{id}/resign", post(resign::<S>))
        .route("/api/matches/{id}/answer", post(answer::<S>))
        .route("/api/matches/{id}/record", get(record::<S>))
        .route("/api/matches/{id}/replay", get(replay::<S>))
        .route("/api/matches/{id}/ws", get(ws::<S>))
        .route("/api/seasons/questions", post(season_questions::<S>))
        .fallback(crate::pages::fallback)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            rate_limit::<S>,
        ))
        .layer(DefaultBodyLimit::max(body))
        // The pages and their static assets, outside the API's rate limit.
        .merge(crate::pages::router())
        .with_state(state)
}

async fn rate_limit<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    req: Request,
    next: Next,
) -> Response {
    let key = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or_else(|| "local".to_string(), |c| c.0.ip().to_string());
    if !state.allow(&key) {
        return ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!(
                "too many requests: at most {} a second from one address; wait and retry",
                state.limits.http_per_second
            ),
        )
        .into_response();
    }
    next.run(req).await
}

/// A JSON body whose rejections are JSON errors too.
struct Body<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(rejection) => Err(rejection_error(&rejection)),
        }
    }
}

fn rejection_error(rejection: &JsonRejection) -> ApiError {
    let status = rejection.status();
    let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
        "too_large"
    } else {
        "bad_request"
    };
    ApiError::new(status, code, rejection.body_text())
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

async fn games() -> Json<Value> {
    let list: Vec<Value> = colosseum_games::registry()
        .iter()
        .map(|g| {
            json!({
                "id": g.id,
                "name": g.name,
                "summary": g.summary,
                "options": g.options,
                "time_control": colosseum_host::TimeControl::for_game(g.id),
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

async fn game_page(Path(game): Path<String>) -> Result<Json<Value>, ApiError> {
    let g = colosseum_games::find(&game).map_err(|e| ApiError::not_found(e.to_string()))?;
    Ok(Json(json!({
        "id": g.id,
        "name": g.name,
        "summary": g.summary,
        "rules": g.rules,
        "options": g.options,
        "time_control": colosseum_host::TimeControl::for_game(g.id),
        "bots": bot_names(g.id),
    })))
}

async fn lobby<S: Store>(State(state): State<Arc<AppState<S>>>) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.hub.lobby().await?))
}

async fn create<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Body(req): Body<CreateMatch>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let created = state.hub.create(req).await?;
    Ok((StatusCode::CREATED, Json(json!(created))))
}

async fn match_state<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let table = state.hub.table(&id).await?;
    let role = state.hub.role(&table, bearer(&headers)).await?;
    Ok(Json(state.hub.state(&table, role).await))
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
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "only a seat can act: send its token as `Authorization: Bearer TOKEN`",
        )),
    }
}

async fn act_and_answer<S: Store>(
    state: &AppState<S>,
    id: &str,
    headers: &HeaderMap,
    action: Action,
) -> Result<Json<Value>, ApiError> {
    let (table, seat) = seat_of(state, id, headers).await?;
    state.hub.act(&table, seat, action).await?;
    Ok(Json(state.hub.state(&table, Viewer::Seat(seat)).await))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(rename = "move")]
    text: String,
}

async fn join<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    // The body is optional: empty, or {"name": ...}.
    let name = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        serde_json::from_slice::<JoinBody>(&body)
            .map_err(|e| ApiError::bad_request(format!("a join body is {{\"name\": TEXT}}: {e}")))?
            .name
    };
    act_and_answer(&state, &id, &headers, Action::Join(name)).await
}

async fn submit<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<MoveBody>,
) -> Result<Json<Value>, ApiError> {
    act_and_answer(&state, &id, &headers, Action::Submit(body.text)).await
}

async fn lock<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    act_and_answer(&state, &id, &headers, Action::Lock).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommitBody {
    hash: String,
    // decision: checked by act
    #[serde(default)]
    #[allow(dead_code)]
    decision: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenBody {
    #[serde(rename = "move")]
    text: String,
    nonce: String,
    // decision: checked by act
    #[serde(default)]
    #[allow(dead_code)]
    decision: Option<u64>,
}

async fn commit<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<CommitBody>,
) -> Result<Json<Value>, ApiError> {
    act_and_answer(&state, &id, &headers, Action::Commit(body.hash)).await
}

async fn open<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<OpenBody>,
) -> Result<Json<Value>, ApiError> {
    let action = Action::Open {
        text: body.text,
        nonce: body.nonce,
    };
    act_and_answer(&state, &id, &headers, action).await
}

async fn resign<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    act_and_answer(&state, &id, &headers, Action::Resign).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerBody {
    text: String,
    #[serde(default)]
    race: Option<u64>,
}

async fn answer<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<AnswerBody>,
) -> Result<Json<Value>, ApiError> {
    let action = Action::Answer {
        text: body.text,
        race: body.race,
    };
    act_and_answer(&state, &id, &headers, action).await
}

async fn season_questions<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Body(body): Body<crate::hub::SeasonRequest>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.hub.season_questions(body).await?))
}

async fn record<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let table = state.hub.table(&id).await?;
    let records = state.hub.records(&table).await?;
    Ok(Json(json!({ "records": records })))
}

async fn replay<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let table = state.hub.table(&id).await?;
    Ok(Json(state.hub.replay(&table).await?))
}

#[derive(Deserialize)]
struct TokenQuery {
    #[serde(default)]
    token: Option<String>,
}

async fn ws<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let table = state.hub.table(&id).await?;
    let token = query.token.as_deref().or_else(|| bearer(&headers));
    let role = state.hub.role(&table, token).await?;
    let max = state.limits.ws_message_bytes;
    // Small buffers: messages are a few KiB, and tungstenite zeroes its whole read buffer.
    Ok(upgrade
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket: WebSocket| async move {
            let (sink, stream) = socket.split();
            serve_socket(state, table, role, sink, stream).await;
        }))
}

/// A message from a WebSocket client.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Join {
        #[serde(default)]
        name: Option<String>,
    },
    Submit {
        #[serde(rename = "move")]
        text: String,
    },
    Lock,
    Commit {
        hash: String,
        // decision: checked by act
        #[serde(default)]
        #[allow(dead_code)]
        decision: Option<u64>,
    },
    Open {
        #[serde(rename = "move")]
        text: String,
        nonce: String,
        // decision: checked by act
        #[serde(default)]
        #[allow(dead_code)]
        decision: Option<u64>,
    },
    Resign,
    Answer {
        text: String,
        #[serde(default)]
        race: Option<u64>,
    },
    Ping,
}

/// Serves one WebSocket connection: the role's state now and after every change, and the
/// seat's actions. Generic over the socket halves so tests can drive it with channels.
pub async fn serve_socket<S, W, R, E>(
    state: Arc<AppState<S>>,
    table: Arc<Table>,
    role: Viewer,
    mut sink: W,
    mut stream: R,
) where
    S: Store,
    W: Sink<Message> + Unpin,
    R: Stream<Item = Result<Message, E>> + Unpin,
{
    let mut updates = Hub::<S>::subscribe(&table);
    updates.mark_changed();
    let mut bucket = Bucket::new(state.limits.ws_burst);
    loop {
        tokio::select! {
            changed = updates.changed() => {
                if changed.is_err() {
                    break;
                }
                let message = state.hub.state(&table, role).await;
                if sink.send(Message::Text(message.to_string().into())).await.is_err() {
                    break;
                }
            }
            incoming = stream.next() => {
                let reply = match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => {
                        if bucket.take(state.limits.ws_per_second, state.limits.ws_burst) {
                            handle_message(&state, &table, role, text.as_str()).await
                        } else {
                            Some(error_message(&ApiError::new(
                                StatusCode::TOO_MANY_REQUESTS,
                                "rate_limited",
                                format!(
                                    "too many messages: at most {} a second on one connection",
                                    state.limits.ws_per_second
                                ),
                            ), None))
                        }
                    }
                    Some(Ok(Message::Binary(_))) => Some(error_message(
                        &ApiError::bad_request("messages are JSON text, not binary"),
                        None,
                    )),
                    Some(Ok(_)) => None,
                };
                if let Some(reply) = reply {
                    if sink.send(Message::Text(reply.to_string().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
    }
}

fn error_message(e: &ApiError, to: Option<&str>) -> Value {
    let mut v = e.body();
    v["type"] = json!("error");
    if let Some(to) = to {
        v["to"] = json!(to);
    }
    v
}

async fn handle_message<S: Store>(
    state: &AppState<S>,
    table: &Arc<Table>,
    role: Viewer,
    text: &str,
) -> Option<Value> {
    let message: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return Some(error_message(
                &ApiError::bad_request(format!(
                    "not a message ({e}); send {{\"type\": \"submit\", \"move\": TEXT}}, \
                     {{\"type\": \"lock\"}}, {{\"type\": \"commit\", \"hash\": HEX}}, {{\"type\": \"open\", \"move\": TEXT, \"nonce\": HEX}}, {{\"type\": \"resign\"}}, {{\"type\": \"answer\", \"text\": TEXT, \"race\": OPENED_AT}}, {{\"type\": \"join\"}} or {{\"type\": \"ping\"}}"
                )),
                None,
            ))
        }
    };
    let (action, name) = match message {
        ClientMessage::Ping => return Some(json!({"type": "pong"})),
        ClientMessage::Join { name } => (Action::Join(name), "join"),
        ClientMessage::Submit { text } => (Action::Submit(text), "submit"),
        ClientMessage::Lock => (Action::Lock, "lock"),
        ClientMessage::Commit { hash, .. } => (Action::Commit(hash), "commit"),
        ClientMessage::Open { text, nonce, .. } => (Action::Open { text, nonce }, "open"),
        ClientMessage::Resign => (Action::Resign, "resign"),
        ClientMessage::Answer { text, race } => (Action::Answer { text, race }, "answer"),
    };
    let Viewer::Seat(seat) = role else {
        return Some(error_message(
            &ApiError::forbidden("spectators watch; only a seat can act"),
            Some(name),
        ));
    };
    Some(match state.hub.act(table, seat, action).await {
        Ok(()) => json!({"type": "ok", "to": name}),
        Err(e) => error_message(&e, Some(name)),
    })
}

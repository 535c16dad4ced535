//! The HTTP and WebSocket face of the hub. See `docs/server-api.md` for the protocol.
//!
//! [`app`] builds the router from an [`AppState`], so tests call it without a network. Every
//! response is built by the hub from the caller's role: a seat's token gives that seat's view,
//! no token the spectator's; a token that is not a seat of the match is refused.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

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

use crate::error::{ApiError, ErrorCode};
use crate::hub::{Action, CreateMatch, Hub, Table};
use crate::store::Store;

/// Size, rate, time and resource limits: everything a hostile client could otherwise exhaust.
/// Each has a `colosseum serve` flag; `docs/server-api.md` ("Limits") lists them.
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
    /// The shortest time a timed control may give a decision (`per_decision_ms`, each
    /// `per_kind_ms`), in ms.
    pub min_decision_ms: u64,
    /// The longest time a timed control may give a decision, in ms.
    pub max_decision_ms: u64,
    /// The largest bank a timed control may give, in ms.
    pub max_bank_ms: u64,
    /// The longest a server bot may think about one decision (`mcts:ms=N`), in ms.
    pub bot_max_ms: u64,
    /// The most iterations a server bot may use for one decision (`mcts:iters=N`).
    pub bot_max_iters: u64,
    /// Bot searches that may run at once in the whole server; the others wait their turn.
    pub bot_searches: usize,
    /// How long a match stays open while not both seats have joined (status `waiting`), in ms.
    pub waiting_expiry_ms: u64,
    /// How long a waiting match stays in the lobby's public list, in ms (it stays joinable by
    /// its links until `waiting_expiry_ms`).
    pub lobby_waiting_ms: u64,
    /// Chat messages one author (a seat, or a spectator's address) may send a minute in one
    /// match, sustained.
    pub chat_per_minute: f64,
    /// Chat messages one author may send in a burst.
    pub chat_burst: f64,
    /// The most chat messages one match keeps (both channels together).
    pub chat_max_lines: usize,
    /// The most lobby entries one `GET /api/matches` answers (`?limit=`).
    pub lobby_page_max: usize,
    /// Open TCP connections (WebSockets included) per client address. Generous (256): a
    /// browser opens six connections to load a page, and many people may share one address (a
    /// LAN event, a school, a carrier's NAT).
    pub connections_per_ip: usize,
    /// Matches one client address may create a minute, sustained.
    pub creates_per_minute: f64,
    /// Matches one client address may create in a burst.
    pub creates_burst: f64,
    /// How long a connection may take to send a request's headers, and how long an idle
    /// keep-alive connection stays open.
    pub header_timeout: Duration,
    /// How long one HTTP request (body included) may take before it is answered 408.
    pub request_timeout: Duration,
    /// How long a WebSocket may be silent before the server pings it (and how often it pings
    /// while it stays silent).
    pub ws_ping_interval: Duration,
    /// A WebSocket silent (no message, no pong) this long is closed.
    pub ws_idle_timeout: Duration,
    /// Refused submissions logged per seat and decision in a new match; later ones are only
    /// counted (see `colosseum_host::MatchConfig::logged_refusals`).
    pub logged_refusals: u32,
    /// Changes of mind taken per seat and decision in a new match; later ones are refused with
    /// 409 `too_many_changes` (see `colosseum_host::MatchConfig::changes`).
    pub changes: u32,
    /// Webhook posts waiting per webhook URL; a post beyond it is dropped (counted, logged).
    pub webhook_queue: usize,
    /// Attempts per webhook post before it is dropped (counted, logged).
    pub webhook_attempts: u32,
    /// The first retry's wait in ms; each later one doubles it (a 429's `retry_after` wins).
    pub webhook_backoff_ms: u64,
    /// How long one webhook request may take before it counts as failed.
    pub webhook_timeout_ms: u64,
    /// The least time in ms between two posts to one Slack webhook (Slack allows about one a
    /// second); Discord webhooks are paced by their answers' rate-limit headers.
    pub webhook_slack_pace_ms: u64,
    /// The iteration budget of the search in the analysis after the game
    /// (`POST /api/matches/{id}/analysis`), capped by `bot_max_iters`.
    pub analysis_iters: u64,
    /// Reverse proxies trusted to name their client in `X-Forwarded-For` (`--trusted-proxy`):
    /// a request from one of them counts, for the per-address limits, as from the client it
    /// names; their connections are not capped per address (the proxy should cap them).
    pub trusted_proxies: &'static [crate::forward::Cidr],
    /// How often a node on PostgreSQL looks for matches and tournaments nobody serves (their
    /// node died) and takes them over (`--takeover-secs`); a node that leaves on a signal says
    /// so, and the others look at once.
    pub takeover_every: Duration,
    /// How long an append to the match log that would commit alone waits for others to share
    /// its transaction (`--commit-window-us`; zero commits at once). Never acknowledged before
    /// its commit.
    pub commit_window: Duration,
    /// Webhook hosts allowed beside Discord's and Slack's (`--webhook-hosts`; `HOST` any port,
    /// `HOST:PORT` that port); `crate::webhooks::guard`.
    pub webhook_hosts: &'static [String],
    /// Webhooks may reach private, loopback and other non-public addresses, and use `http`
    /// (`--webhook-allow-private`). Off by default; dangerous on a public server: whoever may
    /// set a webhook can then reach the server's own network.
    pub webhook_allow_private: bool,
    /// The Discord application (`--discord-app-id` ...; `crate::discord`); `None` turns
    /// `POST /api/discord/interactions` off (404).
    pub discord: Option<&'static crate::discord::Config>,
    /// Where the webhooks' queued posts are kept across a restart
    /// (`crate::webhooks::Webhooks::keep_outbox`; `serve --webhook-outbox`); `None`: beside a
    /// SQLite database (`DB.outbox`), and nowhere with PostgreSQL or a database in memory.
    pub webhook_outbox: Option<&'static std::path::Path>,
}

/// One day in ms: the longest decision time and bank a time control may ask for by default.
pub const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// The lobby's page size when `?limit=` is not given.
pub const LOBBY_PAGE: usize = 50;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 64 * 1024,
            ws_message_bytes: 16 * 1024,
            http_per_second: 20.0,
            http_burst: 60.0,
            ws_per_second: 10.0,
            ws_burst: 30.0,
            min_decision_ms: 1_000,
            max_decision_ms: DAY_MS,
            max_bank_ms: DAY_MS,
            bot_max_ms: 5_000,
            bot_max_iters: 50_000,
            bot_searches: std::thread::available_parallelism().map_or(1, |n| n.get()),
            waiting_expiry_ms: DAY_MS,
            lobby_waiting_ms: 10 * 60 * 1000,
            chat_per_minute: 20.0,
            chat_burst: 5.0,
            chat_max_lines: 1000,
            lobby_page_max: 200,
            connections_per_ip: 256,
            creates_per_minute: 10.0,
            creates_burst: 20.0,
            header_timeout: Duration::from_secs(15),
            request_timeout: Duration::from_secs(30),
            ws_ping_interval: Duration::from_secs(20),
            ws_idle_timeout: Duration::from_secs(60),
            logged_refusals: colosseum_host::DEFAULT_LOGGED_REFUSALS,
            changes: colosseum_host::DEFAULT_CHANGES,
            webhook_queue: 64,
            webhook_attempts: 5,
            webhook_backoff_ms: 1_000,
            webhook_timeout_ms: 10_000,
            analysis_iters: crate::analysis::ANALYSIS_ITERS,
            trusted_proxies: &[],
            takeover_every: crate::TAKEOVER_EVERY,
            webhook_slack_pace_ms: 1_000,
            commit_window: crate::COMMIT_WINDOW,
            webhook_hosts: &[],
            webhook_allow_private: false,
            discord: None,
            webhook_outbox: None,
        }
    }
}

/// A token bucket. It reads the time it is given, the hub's injected clock
/// ([`Hub::now`], `crate::clock`), so a test refills it by moving a `ManualClock`.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    /// When it was last filled, wall ms.
    last_ms: u64,
}

impl Bucket {
    fn new(burst: f64, now_ms: u64) -> Self {
        Bucket {
            tokens: burst,
            last_ms: now_ms,
        }
    }

    /// What it holds at `now_ms`, at `per_second`, at most `burst` (a clock set back refills
    /// nothing).
    fn level(&self, now_ms: u64, per_second: f64, burst: f64) -> f64 {
        let elapsed = now_ms.saturating_sub(self.last_ms) as f64 / 1000.0;
        (self.tokens + elapsed * per_second).min(burst)
    }

    /// Takes one token at `now_ms` if there is one.
    fn take(&mut self, now_ms: u64, per_second: f64, burst: f64) -> bool {
        self.tokens = self.level(now_ms, per_second, burst);
        self.last_ms = self.last_ms.max(now_ms);
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
    /// The tournaments (`crate::tournaments`).
    pub tournaments: Arc<crate::tournaments::Tournaments<S>>,
    /// The limits.
    pub limits: Limits,
    buckets: Mutex<HashMap<String, Bucket>>,
    /// The token of the admin endpoints (`/api/admin/...`); `None` turns them off.
    admin_token: Option<String>,
    /// Match creations per client address.
    creates: Mutex<HashMap<String, Bucket>>,
    /// Chat messages per match and author (a seat, or a spectator's address).
    chats: Mutex<HashMap<String, Bucket>>,
    /// The analyses after the game, run and cached (`crate::analysis`).
    pub analyses: Arc<crate::analysis::Analyses>,
    /// The seasons (`crate::seasons`): rosters and ratings.
    pub seasons: Arc<crate::seasons::Seasons<S>>,
}

impl<S: Store> AppState<S> {
    /// State over `hub` with `limits`.
    pub fn new(hub: Arc<Hub<S>>, limits: Limits) -> Arc<Self> {
        Self::with_admin(hub, limits, None)
    }

    /// State over `hub` with `limits`, and the admin endpoints open to `admin_token` (off when
    /// `None`).
    pub fn with_admin(hub: Arc<Hub<S>>, limits: Limits, admin_token: Option<String>) -> Arc<Self> {
        let tournaments = crate::tournaments::Tournaments::new(hub.clone());
        Arc::new(AppState {
            seasons: tournaments.seasons.clone(),
            tournaments,
            hub,
            limits,
            buckets: Mutex::new(HashMap::new()),
            admin_token: admin_token.filter(|t| !t.is_empty()),
            creates: Mutex::new(HashMap::new()),
            chats: Mutex::new(HashMap::new()),
            analyses: Arc::new(crate::analysis::Analyses::default()),
        })
    }

    /// Takes a chat token for `author` (`MATCH:p1`, `MATCH:spectator:ADDRESS`), or says why not.
    fn allow_chat(&self, author: &str) -> Result<(), ApiError> {
        if take_from(
            &self.chats,
            author,
            self.hub.now(),
            self.limits.chat_per_minute / 60.0,
            self.limits.chat_burst,
        ) {
            Ok(())
        } else {
            Err(ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "too many chat messages: at most {} a minute (burst {}) from one writer in a match",
                    self.limits.chat_per_minute, self.limits.chat_burst
                ),
            ))
        }
    }

    /// `role` writes `text` in the chat of `table`: rate-limited per writer, then
    /// [`Hub::chat`]. `address` tells spectators apart.
    async fn chat(
        &self,
        table: &Arc<Table>,
        role: Viewer,
        address: &str,
        name: Option<String>,
        text: String,
    ) -> Result<(), ApiError> {
        let author = match role {
            Viewer::Seat(seat) => format!("{}:{seat}", table.id),
            Viewer::Spectator => format!("{}:spectator:{address}", table.id),
        };
        self.allow_chat(&author)?;
        self.hub
            .chat(table, role, name, text, self.limits.chat_max_lines)
            .await
    }

    /// Takes a request from `key`'s bucket (`Limits::http_per_second`); `false`: over the rate.
    pub(crate) fn allow(&self, key: &str) -> bool {
        take_from(
            &self.buckets,
            key,
            self.hub.now(),
            self.limits.http_per_second,
            self.limits.http_burst,
        )
    }

    fn allow_create(&self, key: &str) -> bool {
        take_from(
            &self.creates,
            key,
            self.hub.now(),
            self.limits.creates_per_minute / 60.0,
            self.limits.creates_burst,
        )
    }
}

/// Takes a token at `now_ms` (the hub's clock) from `key`'s bucket in `buckets`.
fn take_from(
    buckets: &Mutex<HashMap<String, Bucket>>,
    key: &str,
    now_ms: u64,
    rate: f64,
    full: f64,
) -> bool {
    let mut buckets = buckets
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if buckets.len() > 100_000 {
        // Forget clients that have been quiet long enough to be full again.
        buckets.retain(|_, b| b.level(now_ms, rate, full) < full);
    }
    buckets
        .entry(key.to_string())
        .or_insert_with(|| Bucket::new(full, now_ms))
        .take(now_ms, rate, full)
}

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
            get(crate::analysis::get::<S>).post(crate::analysis::start::<S>),
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

/// Who a request is from, for the per-address limits: the TCP peer's address; for a request
/// another node forwarded (`crate::forward`), the client's address it names; for one from a
/// trusted reverse proxy (`Limits::trusted_proxies`), the client `X-Forwarded-For` names.
/// `local` when the router is called without a peer (tests).
fn client_of<S: Store>(
    state: &AppState<S>,
    headers: &HeaderMap,
    extensions: &axum::http::Extensions,
) -> String {
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let Some(ip) = peer else {
        return "local".to_string();
    };
    if state.hub.is_peer(ip) {
        if let Some(client) = headers
            .get(crate::forward::FORWARDED_FOR)
            .and_then(|v| v.to_str().ok())
        {
            return client.to_string();
        }
    }
    let trusted = state.limits.trusted_proxies;
    if trusted.iter().any(|c| c.contains(ip)) {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok());
        if let Some(client) = crate::forward::client_behind_proxies(forwarded, trusted) {
            return client.to_string();
        }
    }
    ip.to_string()
}

fn client_key<S: Store>(state: &AppState<S>, req: &Request) -> String {
    client_of(state, req.headers(), req.extensions())
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

async fn health<S: Store>(State(state): State<Arc<AppState<S>>>) -> Json<Value> {
    let pool = state.hub.pool().load();
    let m = state.hub.metrics();
    Json(json!({
        "ok": true,
        "bots": state.hub.bot_load(),
        "verify": {
            "queued": pool.verify.0,
            "running": pool.verify.1,
            "done": m.verify_done.get(),
            "cache_hits": m.verify_cache_hits.get(),
            "refused": m.verify_refused.get(),
            "kept": state.hub.verifier().kept_count(),
        },
    }))
}

/// Prometheus metrics in the text exposition format (docs/operations.md lists them).
async fn metrics<S: Store>(State(state): State<Arc<AppState<S>>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.hub.render_metrics(),
    )
        .into_response()
}

/// Liveness: the process answers requests.
async fn livez() -> &'static str {
    "ok\n"
}

/// Readiness: the store answers within 2 s (matches are resumed before the server listens).
async fn readyz<S: Store>(State(state): State<Arc<AppState<S>>>) -> Response {
    match tokio::time::timeout(Duration::from_secs(2), state.hub.store().quarantined()).await {
        Ok(Ok(_)) => "ready\n".into_response(),
        Ok(Err(e)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: the store fails: {e}\n"),
        )
            .into_response(),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "not ready: the store did not answer within 2 s\n",
        )
            .into_response(),
    }
}

/// A JSON body whose rejections are JSON errors too.
pub(crate) struct Body<T>(pub(crate) T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(rejection) => Err(rejection_error(&rejection)),
        }
    }
}

/// Every rejection of a JSON body is 400 `bad_request` with serde's sentence (axum answers 422
/// for a body of the wrong types, 415 without `content-type: application/json`), except a body
/// over the limit: 413 `too_large`.
fn rejection_error(rejection: &JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::new(ErrorCode::TooLarge, rejection.body_text());
    }
    ApiError::bad_request(rejection.body_text())
}

/// The token of `Authorization: Bearer TOKEN` (the scheme in any case, as RFC 9110 says).
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(char::is_whitespace)?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The WebSocket subprotocol that carries nothing but tells the server which protocol a client
/// speaks; a browser that offers `colosseum.token.TOKEN` offers it too, and it is the one
/// echoed back.
pub const WS_PROTOCOL: &str = "colosseum";
/// The prefix of the WebSocket subprotocol that carries a seat's token:
/// `Sec-WebSocket-Protocol: colosseum, colosseum.token.TOKEN`.
pub const WS_TOKEN_PROTOCOL: &str = "colosseum.token.";

/// The token offered as a `colosseum.token.TOKEN` subprotocol, if any.
fn protocol_token(upgrade: &WebSocketUpgrade) -> Option<String> {
    upgrade.requested_protocols().find_map(|p| {
        p.to_str()
            .ok()?
            .trim()
            .strip_prefix(WS_TOKEN_PROTOCOL)
            .map(str::to_string)
    })
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

async fn game_page(Path(game): Path<String>) -> Result<Json<Value>, ApiError> {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LobbyQuery {
    #[serde(default)]
    offset: Option<usize>,
    #[serde(default)]
    limit: Option<usize>,
}

async fn lobby<S: Store>(
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

async fn create<S: Store>(
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
struct StateJson(String);

impl IntoResponse for StateJson {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

async fn match_state<S: Store>(
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
struct RevealBody {
    client_seed: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
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

async fn join<S: Store>(
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

async fn reveal<S: Store>(
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

async fn submit<S: Store>(
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

async fn lock<S: Store>(
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
struct CommitBody {
    hash: String,
    #[serde(default)]
    decision: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenBody {
    #[serde(rename = "move")]
    text: String,
    nonce: String,
    #[serde(default)]
    decision: Option<u64>,
}

async fn commit<S: Store>(
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

async fn open<S: Store>(
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

async fn resign<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StateJson, ApiError> {
    act_and_answer(&state, &id, &headers, Action::Resign, None).await
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
) -> Result<StateJson, ApiError> {
    let action = Action::Answer {
        text: body.text,
        race: body.race,
    };
    act_and_answer(&state, &id, &headers, action, None).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatBody {
    text: String,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/matches/{id}/chat`: a seat (its token) writes in the players' chat, anyone
/// without a token in the spectators' chat (with a `name`). Answers the writer's state.
async fn chat<S: Store>(
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
async fn rematch<S: Store>(
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

async fn season_questions<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Body(body): Body<crate::hub::SeasonRequest>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(state.hub.season_questions(body).await?))
}

/// `GET /api/admin/quarantine`: the matches set aside at start because they could not be
/// rebuilt, for the bearer of the admin token.
async fn admin_quarantine<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let Some(admin) = &state.admin_token else {
        return Err(ApiError::not_found(
            "the admin endpoints are off: start the server with --admin-token TOKEN (or \
             COLOSSEUM_ADMIN_TOKEN=TOKEN) and send `Authorization: Bearer TOKEN`",
        ));
    };
    match bearer(&headers) {
        None => {
            return Err(ApiError::new(
                ErrorCode::Unauthorized,
                "send the admin token as `Authorization: Bearer TOKEN`",
            ))
        }
        Some(t) if !crate::hub::same_secret(t, admin) => {
            return Err(ApiError::forbidden("this is not the admin token"))
        }
        Some(_) => {}
    }
    let list = state.hub.quarantined().await?;
    Ok(Json(json!({ "quarantined": list })))
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

/// A finished match's verify report: computed once in the bot pool, in the asking address's
/// share, and kept (`crate::verifying`); 202 with `Retry-After` while it is computed longer
/// than `verifying::WAIT`, 503 `busy` with `Retry-After` when the queue is full.
async fn verify<S: Store>(
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

#[derive(Deserialize)]
struct TokenQuery {
    #[serde(default)]
    token: Option<String>,
    /// `?delta=1`: the connection is sent `delta` messages after its first full state
    /// (`docs/server-api.md`, "Delta states").
    #[serde(default)]
    delta: Option<String>,
}

async fn ws<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
    extensions: axum::http::Extensions,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let forwarded = headers.contains_key(crate::forward::FORWARDED_FOR);
    let forward = |owner: &str, upgrade| {
        Ok(forward_socket(
            &state,
            &id,
            &query,
            &headers,
            &extensions,
            upgrade,
            owner,
        ))
    };
    if !forwarded {
        if let Some(owner) = state.hub.owner_elsewhere(&id).await {
            return forward(&owner, upgrade);
        }
    }
    let table = match state.hub.table(&id).await {
        Ok(table) => table,
        // Another node claimed it between the question and the adoption (its node died and
        // both took it over at once): forwarded there now rather than refused, so the client
        // does not go round the nodes again.
        Err(e) if e.code == ErrorCode::Elsewhere && !forwarded => {
            match state.hub.owner_elsewhere(&id).await {
                Some(owner) => return forward(&owner, upgrade),
                None => return Err(e),
            }
        }
        Err(e) => return Err(e),
    };
    let address = client_of(&state, &headers, &extensions);
    // The token, from where it is safest: a subprotocol (never in a URL), the Authorization
    // header (clients that can set headers), or `?token=` (deprecated: proxies log URLs).
    let offered = protocol_token(&upgrade);
    let token = offered
        .as_deref()
        .or_else(|| bearer(&headers))
        .or(query.token.as_deref());
    let role = state.hub.role(&table, token).await?;
    let deltas = match query.delta.as_deref() {
        None | Some("0" | "false") => false,
        Some("1" | "true") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "`delta={other}`: say `delta=1` for delta states, or leave it out"
            )))
        }
    };
    let max = state.limits.ws_message_bytes;
    // A browser fails the connection unless one of the subprotocols it offered is echoed back:
    // `colosseum` when offered (so the token is not sent back), else the token's own.
    let upgrade = match &offered {
        Some(t) => upgrade.protocols([
            std::borrow::Cow::Borrowed(WS_PROTOCOL),
            std::borrow::Cow::Owned(format!("{WS_TOKEN_PROTOCOL}{t}")),
        ]),
        None => upgrade.protocols([WS_PROTOCOL]),
    };
    // Small buffers: tungstenite zeroes up to its read buffer's size before every read (twice
    // a message: the read and the one that finds nothing more), and a client's messages are a
    // few hundred bytes (a longer one is read in several pieces). Its writes are not zeroed.
    Ok(upgrade
        .read_buffer_size(1024)
        .write_buffer_size(8 * 1024)
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket: WebSocket| async move {
            let (sink, stream) = socket.split();
            let hub = state.hub.clone();
            let _open = crate::metrics::Open::on(&hub.metrics().sockets);
            serve_socket_with(state, table, role, address, deltas, sink, stream).await;
        }))
}

/// Forwards WebSocket upgrade `upgrade` for match `id` to the node at `owner`, which serves it.
fn forward_socket<S: Store>(
    state: &Arc<AppState<S>>,
    id: &str,
    query: &TokenQuery,
    headers: &HeaderMap,
    extensions: &axum::http::Extensions,
    upgrade: WebSocketUpgrade,
    owner: &str,
) -> Response {
    // The client's subprotocols go to the owner as offered; the one echoed here is
    // `colosseum` when offered, as the owner would choose.
    let offered: Vec<String> = headers
        .get(header::SEC_WEBSOCKET_PROTOCOL)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let mut echo: Vec<String> = offered
        .iter()
        .filter(|p| *p == WS_PROTOCOL)
        .cloned()
        .collect();
    echo.extend(offered.iter().filter(|p| *p != WS_PROTOCOL).cloned());
    let client = client_of(state, headers, extensions);
    let mut params: Vec<String> = Vec::new();
    if let Some(t) = query.token.as_deref() {
        params.push(format!("token={t}"));
    }
    if let Some(d) = query.delta.as_deref() {
        params.push(format!("delta={d}"));
    }
    let path = format!(
        "/api/matches/{id}/ws{}{}",
        if params.is_empty() { "" } else { "?" },
        params.join("&")
    );
    crate::forward::websocket(
        owner,
        &client,
        &path,
        upgrade,
        echo,
        offered,
        headers.get(header::AUTHORIZATION).cloned(),
        crate::forward::SocketLimits {
            message_bytes: state.limits.ws_message_bytes,
            idle: state.limits.ws_idle_timeout,
        },
    )
}

/// A message from a WebSocket client.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Join {
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        client_seed: Option<String>,
        #[serde(default)]
        client_seed_hash: Option<String>,
    },
    Reveal {
        client_seed: String,
    },
    Submit {
        #[serde(rename = "move")]
        text: String,
        #[serde(default)]
        decision: Option<u64>,
    },
    Lock {
        #[serde(default)]
        decision: Option<u64>,
    },
    Commit {
        hash: String,
        #[serde(default)]
        decision: Option<u64>,
    },
    Open {
        #[serde(rename = "move")]
        text: String,
        nonce: String,
        #[serde(default)]
        decision: Option<u64>,
    },
    Resign,
    Answer {
        text: String,
        #[serde(default)]
        race: Option<u64>,
    },
    Chat {
        text: String,
        #[serde(default)]
        name: Option<String>,
    },
    Ping,
    Auth {
        token: String,
    },
    Snapshot,
}

/// Serves one WebSocket connection: the role's state now and after every change the role can
/// see (a change that leaves its state as it was, `server_now` and `match.now` aside, sends
/// nothing), and the
/// seat's actions. Pings a connection it has heard nothing from for `Limits::ws_ping_interval`
/// (again every interval while it stays silent); closes one silent for
/// `Limits::ws_idle_timeout`. Generic over the socket halves so tests can drive it with
/// channels. `address` is the client's (a spectator's chat is rate-limited by it).
pub async fn serve_socket<S, W, R, E>(
    state: Arc<AppState<S>>,
    table: Arc<Table>,
    role: Viewer,
    address: String,
    sink: W,
    stream: R,
) where
    S: Store,
    W: Sink<Message> + Unpin,
    R: Stream<Item = Result<Message, E>> + Unpin,
{
    serve_socket_with(state, table, role, address, false, sink, stream).await;
}

/// [`serve_socket`], with `deltas`: after the first full state (and after every `snapshot`
/// the client asks for, or an `auth` that changes its role) each change is sent as a `delta`
/// message from the state last sent on this connection (`docs/server-api.md`, "Delta states").
pub async fn serve_socket_with<S, W, R, E>(
    state: Arc<AppState<S>>,
    table: Arc<Table>,
    mut role: Viewer,
    address: String,
    deltas: bool,
    mut sink: W,
    mut stream: R,
) where
    S: Store,
    W: Sink<Message> + Unpin,
    R: Stream<Item = Result<Message, E>> + Unpin,
{
    let mut updates = Hub::<S>::subscribe(&table);
    updates.mark_changed();
    let mut bucket = Bucket::new(state.limits.ws_burst, state.hub.now());
    // What was last sent (`crate::render`: the same content number, the same message but for
    // `server_now` and `match.now`): a change this role cannot see sends nothing.
    let mut last_sent = Sent {
        deltas,
        content: None,
        text: None,
    };
    // One keep-alive timer, armed lazily: a message heard only moves `heard` (no timer work
    // per message); when the timer fires it pings a connection silent for a ping interval,
    // closes one silent for the idle timeout, and otherwise waits again from `heard`. A
    // player who moves more often than the interval is never pinged. It is a timer, so it runs
    // on tokio's time (`tokio::time::Instant`, monotonic, not wall time): tests pause it and
    // move it (`tokio::time::advance`) instead of sleeping.
    let mut heard = tokio::time::Instant::now();
    let first_look = state
        .limits
        .ws_ping_interval
        .min(state.limits.ws_idle_timeout);
    let keep_alive = tokio::time::sleep_until(heard + first_look);
    tokio::pin!(keep_alive);
    loop {
        tokio::select! {
            changed = updates.changed() => {
                if changed.is_err() {
                    break;
                }
                if let Some(text) = state_to_send(&state, &table, role, &mut last_sent).await {
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
            }
            () = &mut keep_alive => {
                let now = tokio::time::Instant::now();
                let silent_until = heard + state.limits.ws_idle_timeout;
                if now >= silent_until {
                    let _ = sink.send(Message::Close(None)).await;
                    break;
                }
                let ping_at = heard + state.limits.ws_ping_interval;
                let next = if now >= ping_at {
                    if sink.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                    now + state.limits.ws_ping_interval
                } else {
                    ping_at
                };
                keep_alive.as_mut().reset(next.min(silent_until));
            }
            incoming = stream.next() => {
                heard = tokio::time::Instant::now();
                let reply = match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => {
                        if bucket.take(
                            state.hub.now(),
                            state.limits.ws_per_second,
                            state.limits.ws_burst,
                        ) {
                            let before = role;
                            let mut reply = handle_message(
                                &state,
                                &table,
                                &mut role,
                                &address,
                                text.as_str(),
                            )
                            .await;
                            if role != before {
                                // Authenticated: the seat's own view follows the `ok`, in full.
                                last_sent.forget();
                                updates.mark_changed();
                            }
                            if matches!(reply, Some(Reply::Snapshot)) {
                                // The full state, now, whatever was sent before.
                                last_sent.forget();
                                reply = state_to_send(&state, &table, role, &mut last_sent)
                                    .await
                                    .map(Reply::Text);
                            }
                            reply
                        } else {
                            Some(Reply::Json(error_message(&ApiError::new(ErrorCode::RateLimited,
                                format!(
                                    "too many messages: at most {} a second on one connection",
                                    state.limits.ws_per_second
                                ),
                            ), None)))
                        }
                    }
                    Some(Ok(Message::Binary(_))) => Some(Reply::Json(error_message(
                        &ApiError::bad_request("messages are JSON text, not binary"),
                        None,
                    ))),
                    Some(Ok(_)) => None,
                };
                if let Some(reply) = reply {
                    if sink.feed(Message::Text(reply.into_text())).await.is_err() {
                        break;
                    }
                    // The change the message made (if any) goes out in the same write as the
                    // reply, after it: one system call instead of two.
                    if updates.has_changed().unwrap_or(false) {
                        updates.borrow_and_update();
                        if let Some(text) =
                            state_to_send(&state, &table, role, &mut last_sent).await
                        {
                            if sink.feed(Message::Text(text.into())).await.is_err() {
                                break;
                            }
                        }
                    }
                    if sink.flush().await.is_err() {
                        break;
                    }
                }
            }
        }
    }
}

/// What a connection last sent: the content number, and on a delta connection the text its
/// next delta starts from.
struct Sent {
    deltas: bool,
    content: Option<u64>,
    text: Option<Arc<str>>,
}

impl Sent {
    /// The next state goes out in full.
    fn forget(&mut self) {
        self.content = None;
        self.text = None;
    }
}

/// The message `role` is to be sent now (the state, or on a delta connection that has sent
/// one, the delta from it), or `None` if its content is the one last sent (`last_sent`,
/// updated).
async fn state_to_send<S: Store>(
    state: &AppState<S>,
    table: &Table,
    role: Viewer,
    last_sent: &mut Sent,
) -> Option<String> {
    let rendered = state.hub.state_rendered(table, role).await;
    if last_sent.content == Some(rendered.content) {
        return None;
    }
    last_sent.content = Some(rendered.content);
    let now = state.hub.server_now();
    if !last_sent.deltas {
        return Some(crate::render::with_server_now(&rendered.text, now));
    }
    let delta = last_sent
        .text
        .as_deref()
        .and_then(|old| crate::render::delta(old, &rendered.text, now));
    let text = delta.unwrap_or_else(|| crate::render::with_server_now(&rendered.text, now));
    last_sent.text = Some(rendered.text);
    Some(text)
}

/// An answer to a client's message: an `ok` is a fixed text (no JSON tree built and written
/// for each move), anything else a JSON value.
enum Reply {
    Fixed(&'static str),
    Json(Value),
    /// A message's text as it is (the full state a `snapshot` asked for).
    Text(String),
    /// `{"type": "snapshot"}`: the connection answers with the full state.
    Snapshot,
}

impl Reply {
    fn into_text(self) -> axum::extract::ws::Utf8Bytes {
        match self {
            Reply::Fixed(text) => axum::extract::ws::Utf8Bytes::from_static(text),
            Reply::Json(v) => v.to_string().into(),
            Reply::Text(t) => t.into(),
            Reply::Snapshot => axum::extract::ws::Utf8Bytes::from_static("{}"),
        }
    }
}

impl From<Value> for Reply {
    fn from(v: Value) -> Self {
        Reply::Json(v)
    }
}

/// `{"type": "ok", "to": NAME}` for an action's name.
fn ok_reply(name: &'static str) -> Reply {
    Reply::Fixed(match name {
        "join" => r#"{"type":"ok","to":"join"}"#,
        "submit" => r#"{"type":"ok","to":"submit"}"#,
        "lock" => r#"{"type":"ok","to":"lock"}"#,
        "commit" => r#"{"type":"ok","to":"commit"}"#,
        "open" => r#"{"type":"ok","to":"open"}"#,
        "resign" => r#"{"type":"ok","to":"resign"}"#,
        "answer" => r#"{"type":"ok","to":"answer"}"#,
        "chat" => r#"{"type":"ok","to":"chat"}"#,
        other => return Reply::Json(json!({"type": "ok", "to": other})),
    })
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
    role: &mut Viewer,
    address: &str,
    text: &str,
) -> Option<Reply> {
    let message: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return Some(Reply::Json(error_message(
                &ApiError::bad_request(format!(
                    "not a message ({e}); send {{\"type\": \"submit\", \"move\": TEXT, \"decision\": N}}, \
                     {{\"type\": \"lock\", \"decision\": N}}, {{\"type\": \"commit\", \"hash\": HEX, \"decision\": N}}, {{\"type\": \"open\", \"move\": TEXT, \"nonce\": HEX, \"decision\": N}}, {{\"type\": \"resign\"}}, {{\"type\": \"answer\", \"text\": TEXT, \"race\": OPENED_AT}}, {{\"type\": \"chat\", \"text\": TEXT}}, {{\"type\": \"join\", \"client_seed_hash\": HEX}}, {{\"type\": \"reveal\", \"client_seed\": SEED}}, {{\"type\": \"auth\", \"token\": TOKEN}}, {{\"type\": \"snapshot\"}} or {{\"type\": \"ping\"}}"
                )),
                None,
            )))
        }
    };
    let (action, name, decision) = match message {
        ClientMessage::Ping => return Some(Reply::Fixed(r#"{"type":"pong"}"#)),
        ClientMessage::Snapshot => return Some(Reply::Snapshot),
        ClientMessage::Auth { token } => {
            return Some(authenticate(state, table, role, &token).await.into())
        }
        ClientMessage::Chat { text, name } => {
            return Some(match state.chat(table, *role, address, name, text).await {
                Ok(()) => ok_reply("chat"),
                Err(e) => error_message(&e, Some("chat")).into(),
            })
        }
        ClientMessage::Join {
            name,
            client_seed,
            client_seed_hash,
        } => (
            Action::JoinSeeded {
                name,
                client_seed,
                client_seed_hash,
            },
            "join",
            None,
        ),
        ClientMessage::Reveal { client_seed } => (Action::Reveal(client_seed), "reveal", None),
        ClientMessage::Submit { text, decision } => (Action::Submit(text), "submit", decision),
        ClientMessage::Lock { decision } => (Action::Lock, "lock", decision),
        ClientMessage::Commit { hash, decision } => (Action::Commit(hash), "commit", decision),
        ClientMessage::Open {
            text,
            nonce,
            decision,
        } => (Action::Open { text, nonce }, "open", decision),
        ClientMessage::Resign => (Action::Resign, "resign", None),
        ClientMessage::Answer { text, race } => (Action::Answer { text, race }, "answer", None),
    };
    let Viewer::Seat(seat) = *role else {
        return Some(
            error_message(
                &ApiError::forbidden("spectators watch; only a seat can act"),
                Some(name),
            )
            .into(),
        );
    };
    Some(
        match state.hub.act_on(table, seat, action, decision).await {
            Ok(()) => ok_reply(name),
            Err(e) => error_message(&e, Some(name)).into(),
        },
    )
}

/// `{"type": "auth", "token": T}`: a spectator's connection becomes the seat of `T`. A wrong
/// token is refused and the connection stays a spectator; a seat cannot become another.
async fn authenticate<S: Store>(
    state: &AppState<S>,
    table: &Arc<Table>,
    role: &mut Viewer,
    token: &str,
) -> Value {
    match state.hub.role(table, Some(token)).await {
        Ok(Viewer::Seat(seat)) if *role == Viewer::Spectator || *role == Viewer::Seat(seat) => {
            *role = Viewer::Seat(seat);
            json!({"type": "ok", "to": "auth", "you": seat})
        }
        Ok(Viewer::Spectator) => {
            error_message(&ApiError::bad_request("the token is empty"), Some("auth"))
        }
        Ok(Viewer::Seat(_)) => error_message(
            &ApiError::forbidden(
                "this connection is already another seat's; open a new one for this token",
            ),
            Some("auth"),
        ),
        Err(e) => error_message(&e, Some("auth")),
    }
}

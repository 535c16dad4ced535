//! The harness the server's test files share: the router without a network (requests go
//! straight into `app(state)` and the clock is moved by hand), a hub's matches started without
//! HTTP, and (in [`ws`]) WebSocket clients over loopback or over channels.

#![allow(dead_code)]

pub mod discord;
pub mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use colosseum_engine::Seat;
use colosseum_server::hub::{Action, CreateMatch, Table};
use colosseum_server::{app, AppState, Hub, Limits, ManualClock, SqliteStore, Store};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// Where the manual clock starts (ms since the Unix epoch).
pub const T0: u64 = 1_700_000_000_000;

/// The default limits without the per-address rates (requests and match creation).
pub fn open_limits() -> Limits {
    Limits {
        http_per_second: 1e9,
        http_burst: 1e9,
        creates_per_minute: 1e9,
        creates_burst: 1e9,
        ..Limits::default()
    }
}

/// A server over an in-memory store with a manual clock.
pub struct Server {
    pub router: Router,
    pub state: Arc<AppState<SqliteStore>>,
    pub hub: Arc<Hub<SqliteStore>>,
    pub clock: Arc<ManualClock>,
}

/// A server without rate limits and without timer tasks.
pub fn server() -> Server {
    server_with(open_limits())
}

/// A server with `limits` (the hub's and the router's) and without timer tasks.
pub fn server_with(limits: Limits) -> Server {
    server_with_timers(limits, false)
}

/// A server with `limits`, with timer tasks (deadlines fire on their own) if `timers`.
pub fn server_with_timers(limits: Limits, timers: bool) -> Server {
    server_on_store(SqliteStore::in_memory().unwrap(), limits, timers)
}

/// A server over `store` (a file, to restart on it), with `limits`, with timer tasks if `timers`.
pub fn server_on_store(store: SqliteStore, limits: Limits, timers: bool) -> Server {
    let clock = Arc::new(ManualClock::at(T0));
    let hub = Hub::with_limits(store, clock.clone(), timers, limits);
    let state = AppState::new(hub.clone(), limits);
    Server {
        router: app(state.clone()),
        state,
        hub,
        clock,
    }
}

/// A request with an optional `Authorization` header and body; the answer's status and JSON
/// body.
pub async fn request(
    router: &Router,
    method: &str,
    uri: &str,
    authorization: Option<&str>,
    body: Option<String>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(a) = authorization {
        req = req.header("authorization", a);
    }
    let req = match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(Body::from(b))
            .unwrap(),
        None => req.body(Body::empty()).unwrap(),
    };
    let res = router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("{uri}: not JSON: {}", String::from_utf8_lossy(&bytes)));
    (status, value)
}

/// A request with an optional bearer token and JSON body.
pub async fn call(
    router: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let authorization = token.map(|t| format!("Bearer {t}"));
    request(
        router,
        method,
        uri,
        authorization.as_deref(),
        body.map(|b| b.to_string()),
    )
    .await
}

impl Server {
    /// A request; the answer's status and JSON body.
    pub async fn call(
        &self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        call(&self.router, method, uri, token, body).await
    }

    /// A request whose body is sent as it is (it need not be JSON).
    pub async fn call_raw(
        &self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<String>,
    ) -> (StatusCode, Value) {
        let authorization = token.map(|t| format!("Bearer {t}"));
        request(&self.router, method, uri, authorization.as_deref(), body).await
    }

    /// Creates a match; the id and the human seats' tokens.
    pub async fn create(&self, body: Value) -> (String, [Option<String>; 2]) {
        let (status, created) = self.call("POST", "/api/matches", None, Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        (
            id,
            [0, 1].map(|i| created["tokens"][i].as_str().map(str::to_string)),
        )
    }

    /// Creates a match and joins both human seats as a client does: each with the hash of its
    /// client seed ([`client_seed`]), then, once both have committed, each reveals its seed
    /// (the match starts); returns the id and the tokens.
    pub async fn start(&self, body: Value) -> (String, [Option<String>; 2]) {
        let (id, tokens) = self.create(body).await;
        self.join_all(&id, &tokens).await;
        (id, tokens)
    }

    /// Joins the human seats of match `id` with their client seeds' hashes and reveals the
    /// seeds once both are in (in a practice match, which takes no seeds, only joins).
    pub async fn join_all(&self, id: &str, tokens: &[Option<String>; 2]) {
        for (i, t) in tokens.iter().enumerate() {
            let Some(t) = t else { continue };
            let body = serde_json::json!({"client_seed_hash": seed_hash(&client_seed(i))});
            let (status, v) = self
                .call(
                    "POST",
                    &format!("/api/matches/{id}/join"),
                    Some(t),
                    Some(body),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        self.reveal_all(id, tokens).await;
    }

    /// Joins match `id` as the seat of `token` with the hash of its client seed
    /// ([`token_seed`]) and, in `body`, anything else a join carries (a name); the answer.
    pub async fn join_token(&self, id: &str, token: &str, body: Value) -> (StatusCode, Value) {
        let mut body = if body.is_object() {
            body
        } else {
            serde_json::json!({})
        };
        body["client_seed_hash"] = Value::String(seed_hash(&token_seed(token)));
        self.post(id, "join", token, body).await
    }

    /// Reveals the client seed ([`token_seed`]) of the seat of `token` if the state of match
    /// `id` says the reveals are due.
    pub async fn reveal_token(&self, id: &str, token: &str) {
        if self.state(id, None).await["fairness"]["reveal_due"] == true {
            let body = serde_json::json!({"client_seed": token_seed(token)});
            let (status, v) = self.post(id, "reveal", token, body).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
    }

    /// Reveals the client seeds ([`client_seed`]) of the human seats of match `id` if its
    /// state says a reveal is due.
    pub async fn reveal_all(&self, id: &str, tokens: &[Option<String>; 2]) {
        for (i, t) in tokens.iter().enumerate() {
            let Some(t) = t else { continue };
            if self.state(id, None).await["fairness"]["reveal_due"] != true {
                return;
            }
            let body = serde_json::json!({"client_seed": client_seed(i)});
            let (status, v) = self.post(id, "reveal", t, body).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
    }

    /// `POST /api/matches/{id}/{what}` as the token's seat.
    pub async fn post(
        &self,
        id: &str,
        what: &str,
        token: &str,
        body: Value,
    ) -> (StatusCode, Value) {
        self.call(
            "POST",
            &format!("/api/matches/{id}/{what}"),
            Some(token),
            Some(body),
        )
        .await
    }

    /// `POST /api/matches/{id}/{what}` (`submit`, `lock`, `commit`, `open`) as a client does:
    /// `body` with the pending decision (the state's `decision`, read first) unless it names one.
    pub async fn act(
        &self,
        id: &str,
        what: &str,
        token: &str,
        mut body: Value,
    ) -> (StatusCode, Value) {
        if body.get("decision").is_none() {
            // Read as the token (a wrong one is the test's: the action then says why).
            let path = format!("/api/matches/{id}");
            let (_, v) = self.call("GET", &path, Some(token), None).await;
            if let Some(decision) = v.get("decision").filter(|d| d.is_u64()) {
                body["decision"] = decision.clone();
            }
        }
        self.post(id, what, token, body).await
    }

    /// The state as the token's seat (or a spectator) sees it.
    pub async fn state(&self, id: &str, token: Option<&str>) -> Value {
        let (status, v) = self
            .call("GET", &format!("/api/matches/{id}"), token, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    }

    /// Serves the router on a loopback port (for WebSockets); its address.
    pub async fn listen(&self) -> SocketAddr {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let router = self.router.clone();
        tokio::spawn(async move {
            axum::serve(
                listener,
                router.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .await
            .unwrap();
        });
        addr
    }

    /// Plays uniformly random legal moves for the human seats, each sent with the decision it
    /// is for, until the match is over (bots, if any, are waited for). Returns the final state.
    pub async fn play_out(&self, id: &str, tokens: &[Option<String>; 2], seed: u64) -> Value {
        let table = self.hub.table(id).await.unwrap();
        for turn in 0..5_000u64 {
            let v = self.state(id, None).await;
            if v["status"] == "finished" {
                return v;
            }
            let mut moved = false;
            for seat in Seat::BOTH {
                let Some(token) = &tokens[seat.index()] else {
                    continue;
                };
                let mine = &v["match"]["seats"][seat.as_str()];
                if mine["to_act"] != true || mine["submitted"] == true {
                    continue;
                }
                let Some(mv) = self
                    .hub
                    .random_move_for_tests(
                        &table,
                        seat,
                        seed ^ turn ^ ((seat.index() as u64) << 32),
                    )
                    .await
                else {
                    continue;
                };
                let body = serde_json::json!({"move": mv, "decision": v["decision"]});
                let (status, answer) = self.post(id, "submit", token, body).await;
                assert_eq!(status, StatusCode::OK, "{mv}: {answer}");
                moved = true;
                break;
            }
            if !moved {
                // A bot is thinking on the blocking pool.
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
        panic!("match {id} did not end");
    }
}

/// The client seed the test helpers give seat `i` (0 for p1): at least 16 characters.
pub fn client_seed(i: usize) -> String {
    format!("test-client-seed-{i}-7f3a9c01")
}

/// The client seed the test helpers give the seat of `token`.
pub fn token_seed(token: &str) -> String {
    format!("seed-of-{token}")
}

/// The commitment to a client seed a seat joins with: its SHA-256 in lowercase hex.
pub fn seed_hash(seed: &str) -> String {
    colosseum_engine::fair::client_seed_hash(seed)
}

/// Creates a match in `hub` (no HTTP) and joins its human seats (each committing to its client
/// seed, then revealing it unless the match is a practice match); the id and the table.
pub async fn begin<S: Store>(hub: &Arc<Hub<S>>, body: Value) -> (String, Arc<Table>) {
    let practice = body.get("seed").is_some_and(|s| !s.is_null());
    let created = hub
        .create(serde_json::from_value::<CreateMatch>(body).unwrap())
        .await
        .unwrap();
    let table = hub.table(&created.id).await.unwrap();
    join_seats(
        hub,
        &table,
        created.tokens.each_ref().map(Option::is_some),
        practice,
    )
    .await;
    (created.id, table)
}

/// Joins the human seats (`humans`) of `table` in `hub` (no HTTP) as a client does: each with
/// its client seed's hash, then each reveals its seed (not in a practice match).
pub async fn join_seats<S: Store>(
    hub: &Arc<Hub<S>>,
    table: &Arc<Table>,
    humans: [bool; 2],
    practice: bool,
) {
    for seat in Seat::BOTH {
        if humans[seat.index()] {
            let action = Action::JoinSeeded {
                name: None,
                client_seed: None,
                client_seed_hash: Some(seed_hash(&client_seed(seat.index()))),
            };
            hub.act(table, seat, action).await.unwrap();
        }
    }
    if practice {
        return;
    }
    for seat in Seat::BOTH {
        if humans[seat.index()] {
            hub.act(table, seat, Action::Reveal(client_seed(seat.index())))
                .await
                .unwrap();
        }
    }
}

/// `seat` submits `mv` in `hub` (no HTTP), which must accept it.
pub async fn submit<S: Store>(hub: &Arc<Hub<S>>, table: &Arc<Table>, seat: Seat, mv: &str) {
    hub.act(table, seat, Action::Submit(mv.into()))
        .await
        .unwrap();
}

/// A fresh directory `colosseum-{name}-{pid}` in the system's temporary directory, and the
/// path of the database file `file` in it (not created).
pub fn temp_db(name: &str, file: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("colosseum-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join(file);
    (dir, db)
}

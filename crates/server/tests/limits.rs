//! The limits a hostile client cannot exhaust (docs/server-api.md, "Limits"), each hit through
//! the real router, the real accept loop (`serve_on`) or `serve_socket`.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ws::Message;
use axum::http::{Request, StatusCode};
use colosseum_engine::{Seat, Viewer};
use colosseum_server::hub::{Action, CreateMatch};
use colosseum_server::{serve_on, AppState, Hub, Limits, ManualClock, SqliteStore};
use common::ws::{drain, socket};
use common::{begin, open_limits, server_with, server_with_timers, submit, temp_db, T0};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tower::ServiceExt;

fn error_code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or_default()
}

fn error_message(v: &Value) -> &str {
    v["error"]["message"].as_str().unwrap_or_default()
}

// ----- 1. time controls -----

#[tokio::test]
async fn time_controls_outside_the_bounds_are_refused_with_what_is_allowed() {
    let s = server_with(open_limits());
    let timed = |clocks: Value| {
        let mut t = json!({"kind": "timed"});
        t.as_object_mut()
            .unwrap()
            .extend(clocks.as_object().unwrap().clone());
        json!({"game": "goofspiel", "time": t})
    };
    for (clocks, says) in [
        (
            json!({"per_decision_ms": u64::MAX}),
            "per_decision_ms is 18446744073709551615; it must be 1000 to 86400000 ms (1 s to 24 h)",
        ),
        (json!({"per_decision_ms": 999}), "1000 to 86400000 ms"),
        (
            json!({"per_decision_ms": 1000, "per_kind_ms": {"bid": 86_400_001u64}}),
            "per_kind_ms.bid",
        ),
        (
            json!({"per_decision_ms": 1000, "bank_ms": 86_400_001u64}),
            "bank_ms is 86400001; it must be 0 to 86400000 ms (24 h)",
        ),
        (
            json!({"per_decision_ms": 1000, "bank_ms": 5000, "bank_step_ms": 6000}),
            "bank_step_ms is 6000; it must be 0 (a continuous bank) to bank_ms (5000)",
        ),
    ] {
        let (status, body) = s
            .call("POST", "/api/matches", None, Some(timed(clocks.clone())))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{clocks}: {body}");
        assert_eq!(error_code(&body), "bad_request");
        assert!(error_message(&body).contains(says), "{clocks}: {body}");
    }
    // The bounds themselves are allowed.
    s.create(timed(json!({"per_decision_ms": 1000, "bank_ms": 0})))
        .await;
    s.create(timed(
        json!({"per_decision_ms": 86_400_000u64, "bank_ms": 86_400_000u64, "bank_step_ms": 86_400_000u64}),
    ))
    .await;
    s.create(json!({"game": "goofspiel", "time": {"kind": "untimed"}}))
        .await;
}

/// A deadline near `u64::MAX` (possible only when a server allows it) means "never": the timer
/// used to add it to the start time with wrapping and tick in a loop. Tokio's time is paused: a
/// sleep here lets every task run until all wait, then moves the time on.
#[tokio::test(start_paused = true)]
async fn a_huge_deadline_never_makes_the_timer_spin() {
    let s = server_with_timers(
        Limits {
            max_decision_ms: u64::MAX,
            ..open_limits()
        },
        true,
    );
    let (id, _) = s
        .create(json!({
            "game": "goofspiel",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "time": {"kind": "timed", "per_decision_ms": u64::MAX},
        }))
        .await;
    let table = s.hub.table(&id).await.unwrap();
    common::join_seats(&s.hub, &table, [true, true], false).await;
    let (_, state) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    assert_eq!(state["status"], "live");
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut rx = Hub::<SqliteStore>::subscribe(&table);
    rx.borrow_and_update();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !rx.has_changed().unwrap(),
        "the table changed on its own: the timer ticks"
    );
}

// ----- 2. bots -----

#[tokio::test]
async fn bot_budgets_are_capped_and_searches_queue_behind_the_server_wide_cap() {
    let s = server_with(Limits {
        bot_searches: 1,
        ..open_limits()
    });
    for level in ["mcts:iters=50001", "mcts:ms=5001"] {
        let (status, body) = s
            .call("POST", "/api/matches", None, Some(json!({"game": "goofspiel", "seats": [{"kind": "bot", "level": level}, {"kind": "human"}]})))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{level}: {body}");
        assert!(
            error_message(&body).contains("at most 50000 iterations")
                || error_message(&body).contains("at most 5000 ms"),
            "{body}"
        );
    }
    // Two bot-against-bot matches: four searches want to run at every decision.
    let bots = json!([{"kind": "bot", "level": "mcts:iters=200"}, {"kind": "bot", "level": "mcts:iters=200"}]);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (id, _) = s
            .create(json!({
                "game": "goofspiel",
                "options": {"cards": "5"},
                "seats": bots,
                "time": {"kind": "untimed"},
            }))
            .await;
        ids.push(id);
    }
    let mut queued_seen = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let (_, health) = s.call("GET", "/api/health", None, None).await;
        assert_eq!(health["ok"], true);
        assert!(health["bots"]["running"].as_u64().unwrap() <= 1, "{health}");
        assert_eq!(health["bots"]["max"], 1);
        queued_seen = queued_seen.max(health["bots"]["queued"].as_u64().unwrap());
        let mut done = 0;
        for id in &ids {
            let (_, state) = s
                .call("GET", &format!("/api/matches/{id}"), None, None)
                .await;
            if state["status"] == "finished" {
                done += 1;
            }
        }
        if done == ids.len() {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the bot matches did not finish"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let load = s.hub.bot_load();
    assert_eq!(load.peak, 1, "{load:?}");
    assert_eq!(load.running, 0);
    assert!(queued_seen >= 1, "searches queued behind the cap");
}

// ----- 3. waiting matches and the lobby -----

#[tokio::test]
async fn waiting_matches_expire_and_the_lobby_pages() {
    let s = server_with(Limits {
        lobby_page_max: 3,
        ..open_limits()
    });
    let mut waiting = Vec::new();
    for _ in 0..4 {
        let (id, _) = s.create(json!({"game": "goofspiel"})).await;
        waiting.push(id);
        s.clock.advance(1_000);
    }
    // One match is live: both seats joined.
    let (live_id, _) = s
        .create(json!({"game": "goofspiel", "time": {"kind": "untimed"}}))
        .await;
    let table = s.hub.table(&live_id).await.unwrap();
    common::join_seats(&s.hub, &table, [true, true], false).await;

    // Pages of two, newest first; `next` says where the next page is.
    let (status, page) = s.call("GET", "/api/matches?limit=2", None, None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["matches"].as_array().unwrap().len(), 2);
    assert_eq!(page["total"], 5);
    assert_eq!(page["matches"][0]["id"], live_id.as_str());
    assert_eq!(page["next"], "/api/matches?offset=2&limit=2");
    let mut seen: Vec<String> = Vec::new();
    let mut next = Some("/api/matches?limit=2".to_string());
    while let Some(uri) = next {
        let (_, page) = s.call("GET", &uri, None, None).await;
        for m in page["matches"].as_array().unwrap() {
            seen.push(m["id"].as_str().unwrap().to_string());
        }
        next = page["next"].as_str().map(str::to_string);
    }
    assert_eq!(seen.len(), 5);
    // A limit over the server's maximum is capped; a bad one is refused.
    let (_, page) = s.call("GET", "/api/matches?limit=1000", None, None).await;
    assert_eq!(page["limit"], 3);
    assert_eq!(page["matches"].as_array().unwrap().len(), 3);
    let (status, body) = s.call("GET", "/api/matches?limit=lots", None, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    // A day later nobody has joined the waiting ones: they are gone.
    s.clock.advance(24 * 3600 * 1000);
    let (_, page) = s.call("GET", "/api/matches", None, None).await;
    let ids: Vec<&str> = page["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![live_id.as_str()], "{page}");
    assert_eq!(page["next"], Value::Null);
    for id in &waiting {
        let (status, body) = s
            .call("GET", &format!("/api/matches/{id}"), None, None)
            .await;
        assert_eq!(status, StatusCode::GONE, "{body}");
        assert_eq!(error_code(&body), "expired");
        assert!(error_message(&body).contains("24 h"), "{body}");
        let (status, body) = s
            .call("POST", &format!("/api/matches/{id}/join"), None, None)
            .await;
        assert_eq!(status, StatusCode::GONE, "{body}");
    }
    let (status, _) = s
        .call("GET", &format!("/api/matches/{live_id}"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_waiting_match_expires_for_a_restarted_server_too() {
    let (dir, db) = temp_db("limits", "expiry.db");
    let clock = Arc::new(ManualClock::at(T0));
    let hub = Hub::new(SqliteStore::open(&db).unwrap(), clock.clone(), false);
    let created = hub
        .create(serde_json::from_value::<CreateMatch>(json!({"game": "goofspiel"})).unwrap())
        .await
        .unwrap();
    drop(hub);
    clock.advance(24 * 3600 * 1000);
    let hub = Hub::new(SqliteStore::open(&db).unwrap(), clock.clone(), false);
    assert_eq!(hub.resume().await.unwrap(), 0);
    let err = hub.table(&created.id).await.err().unwrap();
    assert_eq!(err.code, "expired");
    let _ = std::fs::remove_dir_all(&dir);
}

// ----- 4. per address -----

#[tokio::test]
async fn match_creation_is_limited_per_address() {
    let s = server_with(Limits {
        creates_per_minute: 10.0,
        creates_burst: 3.0,
        http_per_second: 1e9,
        http_burst: 1e9,
        ..Limits::default()
    });
    for _ in 0..3 {
        s.create(json!({"game": "goofspiel"})).await;
    }
    let (status, body) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(json!({"game": "goofspiel"})),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(error_code(&body), "rate_limited");
    assert!(
        error_message(&body).contains("at most 10 a minute"),
        "{body}"
    );
    // Other requests are not affected.
    let (status, _) = s.call("GET", "/api/matches", None, None).await;
    assert_eq!(status, StatusCode::OK);
    // The bucket refills on the server's clock: 10 a minute is one every 6 s.
    s.clock.advance(5_900);
    let (status, _) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(json!({"game": "goofspiel"})),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "not yet 6 s");
    s.clock.advance(200);
    s.create(json!({"game": "goofspiel"})).await;
    let (status, _) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(json!({"game": "goofspiel"})),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "one token, taken");
    // A minute fills it again, up to the burst (3), no more.
    s.clock.advance(60_000);
    for _ in 0..3 {
        s.create(json!({"game": "goofspiel"})).await;
    }
    let (status, _) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(json!({"game": "goofspiel"})),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::TOO_MANY_REQUESTS,
        "the burst caps the refill"
    );
}

#[tokio::test]
async fn requests_are_limited_per_address_and_the_bucket_refills_on_the_servers_clock() {
    let s = server_with(Limits {
        http_per_second: 2.0,
        http_burst: 4.0,
        ..open_limits()
    });
    for _ in 0..4 {
        let (status, body) = s.call("GET", "/api/games", None, None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, body) = s.call("GET", "/api/games", None, None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(error_code(&body), "rate_limited");
    // Two a second: one every 500 ms of the server's clock, however long the test takes.
    s.clock.advance(450);
    let (status, _) = s.call("GET", "/api/games", None, None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    s.clock.advance(100);
    let (status, _) = s.call("GET", "/api/games", None, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = s.call("GET", "/api/games", None, None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

/// Tokio's time is paused: the request timeout fires when every task waits, at 200 ms of
/// tokio's time, whatever the machine's load.
#[tokio::test(start_paused = true)]
async fn a_request_whose_body_never_ends_is_answered_408() {
    let s = server_with(Limits {
        request_timeout: Duration::from_millis(200),
        ..open_limits()
    });
    let never = futures_util::stream::pending::<Result<Vec<u8>, std::io::Error>>();
    let req = Request::builder()
        .method("POST")
        .uri("/api/matches")
        .header("content-type", "application/json")
        .body(Body::from_stream(never))
        .unwrap();
    let started = tokio::time::Instant::now();
    let res = tokio::time::timeout(Duration::from_secs(5), s.router.clone().oneshot(req))
        .await
        .expect("answered")
        .unwrap();
    assert_eq!(res.status(), StatusCode::REQUEST_TIMEOUT);
    assert_eq!(started.elapsed(), Duration::from_millis(200));
}

/// A real server on loopback with `limits`.
async fn real_server(limits: Limits) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_on(
        listener,
        server_with(limits).state,
        std::future::pending(),
    ));
    addr
}

/// A connection to `addr` from the loopback address `from` (127.0.0.1, 127.0.0.2, ...).
async fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("loopback addresses other than 127.0.0.1 can be bound (Linux)");
    socket.connect(addr).await.unwrap()
}

/// Sends `GET /api/health` and reads the answer to the end (`Connection: close`); the empty
/// string if the server closed or reset the connection first.
async fn health(conn: &mut TcpStream) -> String {
    let _ = conn
        .write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        .await;
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), conn.read_to_end(&mut buf))
        .await
        .expect("the server answers or closes");
    String::from_utf8_lossy(&buf).into_owned()
}

/// Over real loopback sockets, on tokio's paused time: the header timeout is measured in
/// tokio's time, exactly, whatever the machine's load.
#[tokio::test(start_paused = true)]
async fn a_connection_that_never_sends_headers_is_closed_after_the_header_timeout() {
    let addr = real_server(Limits {
        header_timeout: Duration::from_millis(300),
        ..open_limits()
    })
    .await;
    for partial in [&b""[..], b"GET /api/health HTTP/1.1\r\nhost: x\r\n"] {
        let mut conn = TcpStream::connect(addr).await.unwrap();
        conn.write_all(partial).await.unwrap();
        let started = tokio::time::Instant::now();
        let mut buf = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), conn.read_to_end(&mut buf))
            .await
            .expect("the server closes a silent connection");
        let waited = started.elapsed();
        assert!(
            waited >= Duration::from_millis(300) && waited < Duration::from_millis(310),
            "closed after {waited:?} of tokio's time"
        );
        assert!(
            !String::from_utf8_lossy(&buf).contains("200 OK"),
            "no request was answered"
        );
    }
    // A prompt request is answered as usual; the connection, kept alive, is closed once it has
    // idled for the header timeout.
    let mut conn = TcpStream::connect(addr).await.unwrap();
    conn.write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let started = tokio::time::Instant::now();
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), conn.read_to_end(&mut buf))
        .await
        .expect("an idle keep-alive connection is closed")
        .unwrap();
    assert!(String::from_utf8_lossy(&buf).starts_with("HTTP/1.1 200"));
    assert!(started.elapsed() >= Duration::from_millis(300));
}

#[tokio::test(start_paused = true)]
async fn connections_beyond_the_per_address_cap_are_refused_while_others_are_served() {
    let addr = real_server(Limits {
        connections_per_ip: 3,
        ..open_limits()
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect_from([127, 0, 0, 1], addr).await);
    }
    // Let the server accept them all (tokio's time is paused: the sleep returns once every
    // task waits).
    tokio::time::sleep(Duration::from_millis(100)).await;
    for _ in 0..5 {
        let mut over = connect_from([127, 0, 0, 1], addr).await;
        let answer = health(&mut over).await;
        assert!(
            answer.is_empty() || answer.starts_with("HTTP/1.1 429"),
            "{answer}"
        );
        if !answer.is_empty() {
            assert!(answer.contains("at most 3 from one address"), "{answer}");
        }
    }
    // Another address is served.
    let mut other = connect_from([127, 0, 0, 2], addr).await;
    let answer = health(&mut other).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"ok\":true"), "{answer}");
    // Closing one frees a slot.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect_from([127, 0, 0, 1], addr).await;
    assert!(health(&mut again).await.starts_with("HTTP/1.1 200"));
}

#[tokio::test(start_paused = true)]
async fn websockets_count_against_the_per_address_cap() {
    let limits = Limits {
        connections_per_ip: 2,
        ..open_limits()
    };
    let s = server_with(limits);
    let created = s
        .hub
        .create(serde_json::from_value::<CreateMatch>(json!({"game": "goofspiel"})).unwrap())
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_on(listener, s.state, std::future::pending()));
    let url = format!("ws://{addr}/api/matches/{}/ws", created.id);
    let mut sockets = Vec::new();
    for _ in 0..2 {
        sockets.push(tokio_tungstenite::connect_async(&url).await.unwrap().0);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut over = connect_from([127, 0, 0, 1], addr).await;
    let answer = health(&mut over).await;
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 429"),
        "{answer}"
    );
    assert!(tokio_tungstenite::connect_async(&url).await.is_err());
    drop(sockets.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect_from([127, 0, 0, 1], addr).await;
    assert!(health(&mut again).await.starts_with("HTTP/1.1 200"));
}

// ----- 4. WebSocket pings, 6. pushes -----

async fn match_with_both_joined(
    limits: Limits,
) -> (
    Arc<ManualClock>,
    Arc<Hub<SqliteStore>>,
    Arc<AppState<SqliteStore>>,
    Arc<colosseum_server::hub::Table>,
) {
    let s = server_with(limits);
    let (_, table) = begin(
        &s.hub,
        json!({"game": "goofspiel", "options": {"cards": "5"}}),
    )
    .await;
    (s.clock, s.hub, s.state, table)
}

/// What `from_server` has received so far: (pings, closed, text messages).
fn received(
    from_server: &mut tokio::sync::mpsc::UnboundedReceiver<Message>,
) -> (usize, bool, Vec<Value>) {
    let (mut pings, mut closed, mut texts) = (0, false, Vec::new());
    while let Ok(m) = from_server.try_recv() {
        match m {
            Message::Ping(_) => pings += 1,
            Message::Close(_) => closed = true,
            Message::Text(t) => texts.push(serde_json::from_str(&t).unwrap()),
            _ => {}
        }
    }
    (pings, closed, texts)
}

/// Moves tokio's (paused) time on by `ms`, letting every task run at each step: timers due on
/// the way fire in order.
async fn pass(ms: u64) {
    tokio::time::sleep(Duration::from_millis(ms)).await;
}

// The keep-alive is a timer on tokio's time, which these tests pause (`start_paused`): each
// moment below is exact, whatever the machine's load.

#[tokio::test(start_paused = true)]
async fn the_server_pings_and_closes_a_silent_websocket() {
    let limits = Limits {
        ws_ping_interval: Duration::from_millis(50),
        ws_idle_timeout: Duration::from_millis(400),
        ..open_limits()
    };
    let (_clock, _hub, state, table) = match_with_both_joined(limits).await;
    let (to_server, mut from_server, task) = socket(&state, &table, Viewer::Spectator);
    // A client that answers pings stays connected: 600 ms, longer than the idle timeout.
    for _ in 0..12 {
        pass(50).await;
        while let Ok(m) = from_server.try_recv() {
            if let Message::Ping(p) = m {
                to_server.send(Message::Pong(p)).unwrap();
            }
        }
    }
    assert!(!task.is_finished(), "a client answering pings is kept");
    // Its last word now; then silent, it is pinged every 50 ms and closed 400 ms after it was
    // last heard from.
    to_server
        .send(Message::Text(r#"{"type": "ping"}"#.into()))
        .unwrap();
    pass(1).await;
    received(&mut from_server);
    pass(398).await;
    assert!(!task.is_finished(), "closed before its idle timeout");
    let (pings, closed, _) = received(&mut from_server);
    assert!(!closed);
    assert_eq!(pings, 7, "a ping every 50 ms of silence, at 50 to 350 ms");
    tokio::time::timeout(Duration::from_millis(2), task)
        .await
        .expect("closed at its idle timeout")
        .unwrap();
    let (pings, closed, _) = received(&mut from_server);
    assert_eq!(pings, 0, "no ping at the moment it closes");
    assert!(closed, "the server says goodbye");
}

#[tokio::test(start_paused = true)]
async fn a_client_that_talks_is_not_pinged_and_one_that_falls_silent_is() {
    let limits = Limits {
        ws_ping_interval: Duration::from_millis(300),
        ws_idle_timeout: Duration::from_millis(3_000),
        ..open_limits()
    };
    let (_clock, _hub, state, table) = match_with_both_joined(limits).await;
    let (to_server, mut from_server, task) = socket(&state, &table, Viewer::Spectator);
    // A message every 50 ms for 900 ms (three ping intervals): never silent for an interval.
    for _ in 0..18 {
        to_server
            .send(Message::Text(r#"{"type": "ping"}"#.into()))
            .unwrap();
        pass(50).await;
    }
    let (pings, _, texts) = received(&mut from_server);
    assert_eq!(pings, 0, "a client heard from is not pinged");
    assert_eq!(
        texts.iter().filter(|v| v["type"] == "pong").count(),
        18,
        "each ping answered"
    );
    // Silent since its last message (50 ms ago): pinged after 300 ms of silence, then every
    // 300 ms: at 300, 600, 900 ms, and the fourth at 1.2 s.
    pass(1_149).await;
    let (pings, closed, _) = received(&mut from_server);
    assert_eq!(pings, 3, "pings in 1.2 s of silence");
    assert!(!closed);
    pass(2).await;
    assert_eq!(received(&mut from_server).0, 1, "the fourth, at 1.2 s");
    assert!(
        !task.is_finished(),
        "silent for less than the idle timeout: kept"
    );
}

#[tokio::test(start_paused = true)]
async fn an_idle_timeout_shorter_than_the_ping_interval_still_closes_on_time() {
    let limits = Limits {
        ws_ping_interval: Duration::from_secs(30),
        ws_idle_timeout: Duration::from_millis(200),
        ..open_limits()
    };
    let (_clock, _hub, state, table) = match_with_both_joined(limits).await;
    let (_to_server, mut from_server, task) = socket(&state, &table, Viewer::Spectator);
    pass(199).await;
    assert!(!task.is_finished());
    tokio::time::timeout(Duration::from_millis(2), task)
        .await
        .expect("closed after its idle timeout, not at the first ping")
        .unwrap();
    let (pings, closed, _) = received(&mut from_server);
    assert_eq!(pings, 0);
    assert!(closed);
}

/// The per-connection message bucket reads the server's clock (the `ManualClock`), not the
/// machine's: messages beyond the burst are refused until the clock moves.
#[tokio::test]
async fn a_websocket_beyond_its_message_rate_is_refused_until_the_servers_clock_moves() {
    let limits = Limits {
        ws_per_second: 2.0,
        ws_burst: 3.0,
        ..open_limits()
    };
    let (clock, _hub, state, table) = match_with_both_joined(limits).await;
    let (to_server, mut from_server, _task) = socket(&state, &table, Viewer::Spectator);
    let ping = || Message::Text(r#"{"type": "ping"}"#.into());
    // The replies to the next `n` messages sent, in order, by type (the first state, pushed at
    // once, is skipped).
    async fn replies(
        to_server: &tokio::sync::mpsc::UnboundedSender<Message>,
        from_server: &mut tokio::sync::mpsc::UnboundedReceiver<Message>,
        msgs: Vec<Message>,
    ) -> Vec<String> {
        let n = msgs.len();
        for m in msgs {
            to_server.send(m).unwrap();
        }
        let mut out = Vec::new();
        while out.len() < n {
            let m = tokio::time::timeout(Duration::from_secs(60), from_server.recv())
                .await
                .expect("a reply")
                .expect("open");
            if let Message::Text(t) = m {
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["type"] != "state" {
                    let code = v["error"]["code"].as_str().unwrap_or_default();
                    out.push(format!("{}{code}", v["type"].as_str().unwrap()));
                }
            }
        }
        out
    }
    let got = replies(
        &to_server,
        &mut from_server,
        (0..4).map(|_| ping()).collect(),
    )
    .await;
    assert_eq!(got, ["pong", "pong", "pong", "errorrate_limited"]);
    // However long that took in real time, the server's clock has not moved: still empty.
    let got = replies(&to_server, &mut from_server, vec![ping()]).await;
    assert_eq!(got, ["errorrate_limited"]);
    // Two a second: 500 ms of the server's clock is one more message.
    clock.advance(550);
    let got = replies(&to_server, &mut from_server, vec![ping(), ping()]).await;
    assert_eq!(got, ["pong", "errorrate_limited"]);
}

#[tokio::test(start_paused = true)]
async fn a_change_another_role_cannot_see_pushes_nothing_to_it() {
    let (clock, hub, state, table) = match_with_both_joined(open_limits()).await;
    let (_p1_tx, mut p1_rx, _p1) = socket(&state, &table, Viewer::Seat(Seat::P1));
    let (_p2_tx, mut p2_rx, _p2) = socket(&state, &table, Viewer::Seat(Seat::P2));
    let (_s_tx, mut spec_rx, _s) = socket(&state, &table, Viewer::Spectator);
    let settle = || tokio::time::sleep(Duration::from_millis(50));
    settle().await;
    assert_eq!(drain(&mut p2_rx).len(), 1, "the state at once");
    assert_eq!(drain(&mut spec_rx).len(), 1);
    drain(&mut p1_rx);

    clock.advance(1_000);
    submit(&hub, &table, Seat::P1, "1").await;
    settle().await;
    let seen = drain(&mut p2_rx);
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["match"]["seats"]["p1"]["submitted"], true);
    assert_eq!(drain(&mut spec_rx).len(), 1);
    assert_eq!(drain(&mut p1_rx).len(), 1);

    // p1 changes its move, later: p1 sees it, p2 and the spectator get nothing.
    for (i, mv) in ["2", "3", "2"].iter().enumerate() {
        clock.advance(1_000);
        submit(&hub, &table, Seat::P1, mv).await;
        settle().await;
        let mine = drain(&mut p1_rx);
        assert_eq!(mine.len(), 1, "{i}: {mine:?}");
        assert_eq!(mine[0]["match"]["seats"]["p1"]["submission"], *mv);
        assert_eq!(drain(&mut p2_rx), Vec::<Value>::new(), "{i}");
        assert_eq!(drain(&mut spec_rx), Vec::<Value>::new(), "{i}");
    }
    // A refused move changes nothing anybody sees.
    assert!(hub
        .act(&table, Seat::P1, Action::Submit("99".into()))
        .await
        .is_err());
    settle().await;
    assert!(drain(&mut p1_rx).is_empty());
    assert!(drain(&mut p2_rx).is_empty());
    // The reveal is seen by all.
    submit(&hub, &table, Seat::P2, "1").await;
    settle().await;
    assert_eq!(drain(&mut p2_rx).len(), 1);
    assert_eq!(drain(&mut spec_rx).len(), 1);
    assert_eq!(drain(&mut p1_rx).len(), 1);
}

#[tokio::test(start_paused = true)]
async fn shutdown_stops_accepting_and_closes_idle_connections() {
    let state = server_with(open_limits()).state;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve_on(listener, state, async {
        let _ = stopped.await;
    }));
    // A keep-alive connection that has had its answer and now idles.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 512];
    let n = idle.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(3), server)
        .await
        .expect("the server stops at once with only idle connections")
        .unwrap()
        .unwrap();
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "no longer listening"
    );
}

/// Sends `GET /api/games` from the loopback address `from` with `x-forwarded-for` (if any) and
/// returns the answer's status line (empty if the connection was closed unanswered).
async fn games_from(from: [u8; 4], addr: SocketAddr, forwarded: Option<&str>) -> String {
    let mut conn = connect_from(from, addr).await;
    let header = forwarded.map_or(String::new(), |f| format!("x-forwarded-for: {f}\r\n"));
    let _ = conn
        .write_all(
            format!("GET /api/games HTTP/1.1\r\nhost: x\r\n{header}connection: close\r\n\r\n")
                .as_bytes(),
        )
        .await;
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), conn.read_to_end(&mut buf))
        .await
        .expect("the server answers");
    String::from_utf8_lossy(&buf)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(start_paused = true)]
async fn behind_a_trusted_proxy_the_limits_count_the_client_it_names_and_nobody_else_is_believed() {
    let trusted: &'static [colosseum_server::forward::Cidr] =
        Box::leak(Box::new(["127.0.0.2".parse().unwrap()]));
    let addr = real_server(Limits {
        http_per_second: 0.001,
        http_burst: 2.0,
        connections_per_ip: 1,
        trusted_proxies: trusted,
        ..open_limits()
    })
    .await;
    // Through the proxy (127.0.0.2): each client its own bucket of 2.
    for _ in 0..2 {
        assert_eq!(
            games_from([127, 0, 0, 2], addr, Some("203.0.113.1")).await,
            "HTTP/1.1 200 OK"
        );
    }
    let third = games_from([127, 0, 0, 2], addr, Some("203.0.113.1")).await;
    assert!(third.starts_with("HTTP/1.1 429"), "{third}");
    // A client writing its own header first is still counted by the address the proxy added.
    let spoofed = games_from([127, 0, 0, 2], addr, Some("198.51.100.5, 203.0.113.1")).await;
    assert!(spoofed.starts_with("HTTP/1.1 429"), "{spoofed}");
    assert_eq!(
        games_from([127, 0, 0, 2], addr, Some("203.0.113.2")).await,
        "HTTP/1.1 200 OK"
    );
    // From an address not trusted (127.0.0.3) the header is ignored: one bucket, whatever it
    // claims.
    for n in 0..2 {
        assert_eq!(
            games_from([127, 0, 0, 3], addr, Some(&format!("192.0.2.{n}"))).await,
            "HTTP/1.1 200 OK"
        );
    }
    let ignored = games_from([127, 0, 0, 3], addr, Some("192.0.2.77")).await;
    assert!(ignored.starts_with("HTTP/1.1 429"), "{ignored}");
    // The proxy's connections are its clients': not capped at 1 per address, unlike others'.
    let _held = [
        connect_from([127, 0, 0, 2], addr).await,
        connect_from([127, 0, 0, 2], addr).await,
    ];
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        games_from([127, 0, 0, 2], addr, Some("203.0.113.3")).await,
        "HTTP/1.1 200 OK"
    );
    let _one = connect_from([127, 0, 0, 4], addr).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let over = games_from([127, 0, 0, 4], addr, None).await;
    assert!(
        over.is_empty() || over.starts_with("HTTP/1.1 429"),
        "{over}"
    );
}

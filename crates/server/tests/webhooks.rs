//! Webhook announcements received by a local HTTP receiver: a match's and a tournament's posts
//! in order, with boards that decode as PNG, no hidden move before its reveal (checked against
//! the match record), 429's `retry_after` honoured, and play unaffected when the receiver is
//! down or slow. Also: bad webhook URLs are refused, and the URL is shown to nobody but the
//! tournament's host.
//!
//! And webhooks cannot be aimed inward (server-side request forgery): only the admin sets a
//! match's webhook; only `https` to Discord's and Slack's hosts (or the operator's
//! `webhook_hosts`); whatever the name, an address that is not public is refused, at creation
//! and again at the connection (names resolved by a resolver the test points; nothing but
//! loopback is ever contacted). The receivers on loopback are reached only because these
//! servers set `webhook_allow_private` explicitly.

mod common;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::post;
use axum::Router;
use colosseum_server::webhooks::guard::Resolve;
use colosseum_server::{app, AppState, Hub, Limits, ManualClock, SqliteStore};
use common::{open_limits, Server};
use serde_json::{json, Value};

/// The admin token of these servers: the one that may give a match a webhook.
const ADMIN: &str = "webhook-tests-admin-token";

/// A server with `limits` and the admin token [`ADMIN`], without timer tasks.
fn server_with(limits: Limits) -> Server {
    let clock = Arc::new(ManualClock::at(common::T0));
    let hub = Hub::with_limits(
        SqliteStore::in_memory().unwrap(),
        clock.clone(),
        false,
        limits,
    );
    let state = AppState::with_admin(hub.clone(), limits, Some(ADMIN.to_string()));
    Server {
        router: app(state.clone()),
        state,
        hub,
        clock,
    }
}

/// Creates a match with a webhook, as the admin; its id.
async fn create_hooked(s: &Server, body: Value) -> String {
    let (status, created) = s
        .call("POST", "/api/matches", Some(ADMIN), Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    created["id"].as_str().unwrap().to_string()
}

/// A resolver the test points: each name's answers in turn (the last one repeated), and how
/// many times it was asked.
#[derive(Default)]
struct Pointed {
    answers: Mutex<HashMap<String, Vec<Vec<IpAddr>>>>,
    asked: AtomicUsize,
}

impl Pointed {
    fn new(names: &[(&str, &[&str])]) -> Arc<Self> {
        let p = Pointed::default();
        for (name, ips) in names {
            p.answer(name, ips);
        }
        Arc::new(p)
    }

    /// Adds `ips` as `name`'s next answer.
    fn answer(&self, name: &str, ips: &[&str]) {
        self.answers
            .lock()
            .unwrap()
            .entry(name.to_string())
            .or_default()
            .push(ips.iter().map(|ip| ip.parse().unwrap()).collect());
    }
}

impl Resolve for Pointed {
    fn resolve<'a>(
        &'a self,
        host: &'a str,
        _port: u16,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = std::io::Result<Vec<IpAddr>>> + Send + 'a>,
    > {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let mut answers = self.answers.lock().unwrap();
        let answer = match answers.get_mut(host) {
            Some(list) if list.len() > 1 => Ok(list.remove(0)),
            Some(list) => Ok(list[0].clone()),
            None => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("{host}: not pointed"),
            )),
        };
        Box::pin(async move { answer })
    }
}

/// A loopback listener that counts the connections it is offered (and answers none).
async fn watcher() -> (u16, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    tokio::spawn(async move {
        while let Ok((_tcp, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
        }
    });
    (port, seen)
}

/// A `&'static` list of hosts for `Limits::webhook_hosts`.
fn hosts(list: &[&str]) -> &'static [String] {
    Box::leak(
        list.iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    )
}

/// One request the receiver got.
#[derive(Clone, Debug)]
struct Received {
    at: Instant,
    content_type: String,
    body: Bytes,
}

impl Received {
    /// The post's JSON (`payload_json` of a multipart post) and its PNG, if any.
    fn parts(&self) -> (Value, Option<Vec<u8>>) {
        if self.content_type.starts_with("application/json") {
            return (serde_json::from_slice(&self.body).unwrap(), None);
        }
        let boundary = self
            .content_type
            .split("boundary=")
            .nth(1)
            .expect("a multipart boundary");
        let delimiter = format!("--{boundary}");
        let body = &self.body[..];
        let mut json = Value::Null;
        let mut png = None;
        for part in split(body, delimiter.as_bytes()) {
            let Some(head_end) = find(part, b"\r\n\r\n") else {
                continue;
            };
            let head = String::from_utf8_lossy(&part[..head_end]);
            let mut content = &part[head_end + 4..];
            if content.ends_with(b"\r\n") {
                content = &content[..content.len() - 2];
            }
            if head.contains("name=\"payload_json\"") {
                json = serde_json::from_slice(content).unwrap();
            } else if head.contains("name=\"files[0]\"") {
                assert!(head.contains("Content-Type: image/png"), "{head}");
                png = Some(content.to_vec());
            }
        }
        (json, png)
    }

    fn text(&self) -> String {
        let (v, _) = self.parts();
        v["content"]
            .as_str()
            .or(v["text"].as_str())
            .unwrap_or_default()
            .to_string()
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn split<'a>(mut hay: &'a [u8], delimiter: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    while let Some(i) = find(hay, delimiter) {
        out.push(&hay[..i]);
        hay = &hay[i + delimiter.len()..];
    }
    out.push(hay);
    out
}

/// How the receiver answers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Ok,
    /// Sleeps this long before answering.
    Slow(Duration),
    /// Answers the first request 429 with `retry_after` (seconds), then 204.
    LimitedOnce(f64),
    /// Takes this long over each post, one at a time, and answers every `n`th request 429 with
    /// `retry_after` (seconds).
    Paced(Duration, usize, f64),
    /// Answers 204 saying the rate-limit bucket is empty (`X-RateLimit-Remaining: 0`) until
    /// `X-RateLimit-Reset-After` (seconds).
    Bucket(f64),
}

#[derive(Clone)]
struct Receiver {
    got: Arc<Mutex<Vec<Received>>>,
    mode: Mode,
    limited: Arc<Mutex<bool>>,
    /// For [`Mode::Paced`]: one post at a time, the requests counted, when each 429 was answered.
    pace: Arc<tokio::sync::Mutex<usize>>,
    limited_at: Arc<Mutex<Vec<Instant>>>,
}

async fn hook(State(r): State<Receiver>, headers: HeaderMap, body: Bytes) -> impl IntoResponse {
    let received = Received {
        at: Instant::now(),
        content_type: headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string(),
        body,
    };
    if let Mode::Slow(d) = r.mode {
        tokio::time::sleep(d).await;
    }
    if let Mode::Bucket(secs) = r.mode {
        r.got.lock().unwrap().push(received);
        return (
            StatusCode::NO_CONTENT,
            [
                ("x-ratelimit-limit", "5".to_string()),
                ("x-ratelimit-remaining", "0".to_string()),
                ("x-ratelimit-reset-after", format!("{secs}")),
            ],
        )
            .into_response();
    }
    if let Mode::Paced(d, every, secs) = r.mode {
        let mut n = r.pace.lock().await;
        *n += 1;
        if (*n).is_multiple_of(every) {
            r.limited_at.lock().unwrap().push(Instant::now());
            return (
                StatusCode::TOO_MANY_REQUESTS,
                [("retry-after", format!("{}", secs.ceil()))],
                axum::Json(json!({"message": "You are being rate limited.", "retry_after": secs, "global": false})),
            )
                .into_response();
        }
        tokio::time::sleep(d).await;
        r.got.lock().unwrap().push(received);
        return StatusCode::NO_CONTENT.into_response();
    }
    if let Mode::LimitedOnce(secs) = r.mode {
        let mut limited = r.limited.lock().unwrap();
        if !*limited {
            *limited = true;
            r.got.lock().unwrap().push(received);
            return (
                StatusCode::TOO_MANY_REQUESTS,
                axum::Json(json!({"message": "You are being rate limited.", "retry_after": secs, "global": false})),
            )
                .into_response();
        }
    }
    r.got.lock().unwrap().push(received);
    StatusCode::NO_CONTENT.into_response()
}

/// A receiver on a loopback port; its URL and what it got.
async fn receiver(mode: Mode) -> (String, Arc<Mutex<Vec<Received>>>) {
    let (url, got, _) = receiver_with_limits(mode).await;
    (url, got)
}

/// A receiver on a loopback port; its URL, what it got, and when it answered 429.
async fn receiver_with_limits(
    mode: Mode,
) -> (String, Arc<Mutex<Vec<Received>>>, Arc<Mutex<Vec<Instant>>>) {
    let got = Arc::new(Mutex::new(Vec::new()));
    let limited_at = Arc::new(Mutex::new(Vec::new()));
    let state = Receiver {
        got: got.clone(),
        mode,
        limited: Arc::new(Mutex::new(false)),
        pace: Arc::new(tokio::sync::Mutex::new(0)),
        limited_at: limited_at.clone(),
    };
    let app = Router::new().route("/hook", post(hook)).with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/hook"), got, limited_at)
}

/// Fast retries for tests, and the loopback receiver allowed: explicitly, as an operator on a
/// LAN would (`--webhook-hosts 127.0.0.1 --webhook-allow-private`).
fn limits() -> Limits {
    Limits {
        webhook_backoff_ms: 20,
        webhook_attempts: 3,
        webhook_timeout_ms: 2_000,
        webhook_slack_pace_ms: 50,
        webhook_hosts: hosts(&["127.0.0.1"]),
        webhook_allow_private: true,
        ..open_limits()
    }
}

/// The limits of a public server (no private addresses, no `http`), fast retries.
fn public_limits(extra_hosts: &[&str]) -> Limits {
    Limits {
        webhook_hosts: hosts(extra_hosts),
        webhook_allow_private: false,
        ..limits()
    }
}

/// Waits (real time) until `done` holds for what the receiver got.
async fn wait_posts(
    got: &Arc<Mutex<Vec<Received>>>,
    done: impl Fn(&[Received]) -> bool,
) -> Vec<Received> {
    for _ in 0..600 {
        let posts = got.lock().unwrap().clone();
        if done(&posts) {
            return posts;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let texts: Vec<String> = got.lock().unwrap().iter().map(Received::text).collect();
    panic!("the posts did not arrive: {texts:#?}");
}

/// Waits until the match is over; how long it took.
async fn finish(s: &Server, id: &str, within: Duration) -> Duration {
    let start = Instant::now();
    while start.elapsed() < within {
        if s.state(id, None).await["status"] == "finished" {
            return start.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("match {id} did not finish within {within:?}");
}

/// A PNG: the signature, an IHDR of a sane size, and it decodes.
fn check_png(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "the PNG signature");
    assert_eq!(&png[12..16], b"IHDR");
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert!(
        (200..=2000).contains(&w) && (200..=2000).contains(&h),
        "{w}x{h}"
    );
    let decoded = resvg::tiny_skia::Pixmap::decode_png(png).expect("decodes");
    assert_eq!((decoded.width(), decoded.height()), (w, h));
    (w, h)
}

fn is_result(text: &str) -> bool {
    text.lines()
        .nth(1)
        .is_some_and(|l| l.contains(" wins: ") || l.starts_with("A draw"))
}

/// The step numbers a post's lines announce (`step 3: ...`).
fn steps(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("step ")?;
            let (n, words) = rest.split_once(": ")?;
            Some((n.parse().ok()?, words.to_string()))
        })
        .collect()
}

/// Checks a single game's posts against its record: the start first, the result last, every
/// step once and in order, each seat's move as the record has it, face-down moves never shown.
fn check_match_posts(posts: &[Received], record: &Value, names: [&str; 2]) {
    let texts: Vec<String> = posts.iter().map(Received::text).collect();
    assert!(texts[0].contains("The match begins."), "{texts:#?}");
    assert!(is_result(texts.last().unwrap()), "{texts:#?}");
    assert_eq!(texts.iter().filter(|t| is_result(t)).count(), 1);
    let record_steps = record["steps"].as_array().unwrap();
    let mut last = 0;
    for (i, p) in posts.iter().enumerate() {
        let (_, png) = p.parts();
        check_png(png.as_deref().expect("every match post has its board"));
        for (n, words) in steps(&texts[i]) {
            assert!(n > last, "steps in order: {texts:#?}");
            last = n;
            let step = &record_steps[n - 1];
            for (k, seat) in ["p1", "p2"].iter().enumerate() {
                let name = names[k];
                match step[seat].as_str() {
                    Some(mv) => {
                        let shown = words.contains(&format!("{name} played {mv}"));
                        let down = words.contains(&format!("{name} moved face down"));
                        assert!(shown || down, "step {n}: {words} v {step}");
                    }
                    None => assert!(!words.contains(&format!("{name} ")), "{words} v {step}"),
                }
            }
            if let Some(c) = step["chance"].as_str() {
                assert!(words.contains(&format!("drawn: {c}")) || words.contains("a secret draw"));
            }
        }
    }
    // Every seat step of the record was announced (chance ones may be secret).
    let seat_steps = record_steps
        .iter()
        .filter(|s| s.get("chance").is_none())
        .count();
    let announced = texts
        .iter()
        .flat_map(|t| steps(t))
        .filter(|(_, w)| w.contains(" played ") || w.contains(" moved face down"))
        .count();
    assert_eq!(announced, seat_steps, "{texts:#?}");
}

/// The words of `text` that are a seat id (`p1`, `p2`) or a game's id, where people read.
fn internal_words(text: &str) -> Vec<String> {
    let ids: Vec<&str> = colosseum_games::registry().iter().map(|e| e.id).collect();
    text.split(|c: char| c.is_whitespace() || ",;:()*".contains(c))
        .filter(|w| *w == "p1" || *w == "p2" || ids.contains(w))
        .map(str::to_string)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posts_name_the_players_and_the_game_never_seats_or_ids() {
    let s = server_with(limits());
    let (url, got) = receiver(Mode::Ok).await;
    let (status, created) = s
        .call(
            "POST",
            "/api/matches",
            Some(ADMIN),
            Some(json!({
                "game": "goofspiel",
                "options": {"cards": "5"},
                "seats": [{"kind": "bot", "level": "heuristic"}, {"kind": "human"}],
                "webhook": {"url": url, "format": "discord"},
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"][1].as_str().unwrap().to_string();
    let (status, v) = s.join_token(&id, &token, json!({"name": "Bea"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    s.reveal_token(&id, &token).await;
    let end = s.play_out(&id, &[None, Some(token)], 11).await;
    let posts = wait_posts(&got, |p| p.iter().any(|r| is_result(&r.text()))).await;
    let texts: Vec<String> = posts.iter().map(Received::text).collect();
    // The players by their names (the bot by its level in words), the game by its name.
    for t in &texts {
        assert!(
            t.starts_with("**Goofspiel: Computer: rule of thumb v Bea**\n"),
            "{t}"
        );
        assert!(
            internal_words(t).is_empty(),
            "{:?} in {t}",
            internal_words(t)
        );
        assert!(!t.contains("1 points"), "{t}");
    }
    assert!(
        texts.iter().any(|t| t.contains("Bea played "))
            && texts
                .iter()
                .any(|t| t.contains("Computer: rule of thumb played ")),
        "{texts:#?}"
    );
    // The result: the winner by name, the engine's reason with the names for its seat ids.
    let result = &end["match"]["result"];
    let reason = result["reason"].as_str().unwrap();
    assert!(
        reason.contains("p1") || reason.contains("p2") || result["winner"].is_null(),
        "the engine's reason names seats: {reason}"
    );
    let named = colosseum_games::text::with_names(reason, ["Computer: rule of thumb", "Bea"]);
    let line = texts.last().unwrap().lines().nth(1).unwrap().to_string();
    let expected = match result["winner"].as_str() {
        Some("p1") => format!("Computer: rule of thumb wins: {named}"),
        Some("p2") => format!("Bea wins: {named}"),
        _ => format!("A draw: {named}"),
    };
    assert_eq!(line, expected);
    // Every post has its board.
    for p in &posts {
        assert!(p.parts().1.is_some());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matchs_start_reveals_and_result_arrive_in_order_with_png_boards() {
    let s = server_with(limits());
    let (url, got) = receiver(Mode::Ok).await;
    for (game, options) in [
        ("goofspiel", json!({"cards": "6"})),
        ("all-in-goofspiel", json!({})),
        ("thwart-omega", json!({"size": "5"})),
    ] {
        got.lock().unwrap().clear();
        let id = create_hooked(
            &s,
            json!({
                "game": game,
                "options": options,
                "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
                "webhook": {"url": url, "format": "discord"},
            }),
        )
        .await;
        finish(&s, &id, Duration::from_secs(20)).await;
        let posts = wait_posts(&got, |p| p.iter().any(|r| is_result(&r.text()))).await;
        let (status, records) = s
            .call("GET", &format!("/api/matches/{id}/record"), None, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{records}");
        let records = records["records"].as_array().unwrap();
        // A replayed draw (All-In Goofspiel) posts both games: check the single-game case.
        if records.len() == 1 {
            check_match_posts(
                &posts,
                &records[0],
                [
                    "Computer: random moves (first)",
                    "Computer: random moves (second)",
                ],
            );
        }
        // All-In Goofspiel's starter puts cards down face down: announced without the cards.
        if game == "all-in-goofspiel" {
            assert!(
                posts.iter().any(|p| p.text().contains("moved face down")),
                "no face-down step announced"
            );
        }
        // Nobody is shown the URL.
        let state = s.state(&id, None).await;
        assert!(!state.to_string().contains(&url), "{state}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slack_posts_are_json_text_without_a_board() {
    let s = server_with(limits());
    let (url, got) = receiver(Mode::Ok).await;
    let id = create_hooked(
        &s,
        json!({
            "game": "goofspiel",
            "options": {"cards": "4"},
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
            "webhook": {"url": url, "format": "slack"},
        }),
    )
    .await;
    finish(&s, &id, Duration::from_secs(20)).await;
    let posts = wait_posts(&got, |p| p.iter().any(|r| is_result(&r.text()))).await;
    for p in &posts {
        assert_eq!(p.content_type, "application/json");
        let (v, png) = p.parts();
        assert!(png.is_none());
        assert!(
            v["text"].as_str().unwrap().starts_with("*Goofspiel: "),
            "{v}"
        );
    } // Paced to Slack's limit (one post a second, 50 ms in these tests).
    assert!(posts.len() >= 3);
    for w in posts.windows(2) {
        assert!(
            w[1].at - w[0].at >= Duration::from_millis(45),
            "{:?}",
            w[1].at - w[0].at
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429s_retry_after_is_honoured_and_order_kept() {
    let s = server_with(limits());
    let (url, got) = receiver(Mode::LimitedOnce(0.4)).await;
    let id = create_hooked(
        &s,
        json!({
            "game": "goofspiel",
            "options": {"cards": "3"},
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
            "webhook": {"url": url},
        }),
    )
    .await;
    finish(&s, &id, Duration::from_secs(20)).await;
    let posts = wait_posts(&got, |p| p.iter().any(|r| is_result(&r.text()))).await;
    // The first post came twice: refused with 429, then again after `retry_after`.
    assert_eq!(posts[0].body, posts[1].body);
    let waited = posts[1].at - posts[0].at;
    assert!(waited >= Duration::from_millis(380), "{waited:?}");
    assert!(posts[0].text().contains("The match begins."));
    let mut last = 0;
    for p in &posts[1..] {
        for (n, _) in steps(&p.text()) {
            assert!(n > last);
            last = n;
        }
    }
    let table = s.hub.table(&id).await.unwrap();
    drop(table);
    let stats = s
        .hub
        .webhooks()
        .stats(&colosseum_server::webhooks::WebhookConfig {
            url: url.clone(),
            format: Default::default(),
            verbosity: Default::default(),
            label: None,
            issued: Default::default(),
        });
    assert_eq!(stats["retried"], 1, "{stats}");
    assert_eq!(stats["dropped_after_retries"], 0, "{stats}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_is_unaffected_when_the_receiver_is_down_or_slow() {
    // Down: a port with nobody listening (connection refused).
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let down = format!("http://{}/hook", closed.local_addr().unwrap());
    drop(closed);
    // Slow: answers each post after 10 s.
    let (slow, _got) = receiver(Mode::Slow(Duration::from_secs(10))).await;
    let limits = Limits {
        webhook_queue: 4,
        ..limits()
    };
    for url in [&down, &slow] {
        let s = server_with(limits);
        let plain = s
            .create(json!({"game": "goofspiel", "options": {"cards": "13"}, "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]}))
            .await
            .0;
        let without = finish(&s, &plain, Duration::from_secs(20)).await;
        let id = create_hooked(
            &s,
            json!({
                "game": "goofspiel",
                "options": {"cards": "13"},
                "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
                "webhook": {"url": url},
            }),
        )
        .await;
        let with = finish(&s, &id, Duration::from_secs(20)).await;
        assert!(
            with < without + Duration::from_secs(3),
            "{url}: {with:?} with the webhook, {without:?} without"
        );
        let hook = colosseum_server::webhooks::WebhookConfig {
            url: url.clone(),
            format: Default::default(),
            verbosity: Default::default(),
            label: None,
            issued: Default::default(),
        };
        // The posts are dropped: after 3 attempts (down) or because the queue is full (slow).
        let mut stats = Value::Null;
        for _ in 0..200 {
            stats = s.hub.webhooks().stats(&hook);
            let key = if url == &down {
                "dropped_after_retries"
            } else {
                "shed"
            };
            if stats[key].as_u64().unwrap() > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        if url == &down {
            assert!(
                stats["dropped_after_retries"].as_u64().unwrap() > 0,
                "{stats}"
            );
            assert!(stats["retried"].as_u64().unwrap() >= 2, "{stats}");
        } else {
            assert!(stats["shed"].as_u64().unwrap() > 0, "{stats}");
        }
        assert_eq!(stats["sent"], 0, "{stats}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_webhook_urls_are_refused_with_what_is_allowed() {
    let s = server_with(public_limits(&[]));
    for (hook, says) in [
        (
            json!({"url": "ftp://example.org/hook"}),
            "scheme other than https",
        ),
        (json!({"url": "example.org/hook"}), "URL"),
        (json!({"url": ""}), "is empty"),
        (json!({"url": "https://x/ y"}), "spaces"),
        (
            json!({"url": "http://discord.com/api/webhooks/1/a"}),
            "over https:// only",
        ),
        (
            json!({"url": "https://evil.example.org/hook"}),
            "host `evil.example.org`",
        ),
        (
            json!({"url": "https://discord.com:8443/api/webhooks/1/a"}),
            "(port 8443), which is not allowed",
        ),
        (
            json!({"url": "https://discord.com@127.0.0.1/api/webhooks/1/a"}),
            "user name or password",
        ),
    ] {
        let body = json!({"game": "goofspiel", "webhook": hook});
        let (status, v) = s
            .call("POST", "/api/matches", Some(ADMIN), Some(body))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        let m = v["error"]["message"].as_str().unwrap();
        assert!(m.contains(says), "{says}: {m}");
        for allowed in [
            "https://",
            "discord.com",
            "discordapp.com",
            "ptb.discord.com",
            "canary.discord.com",
            "hooks.slack.com",
            "--webhook-hosts",
        ] {
            assert!(m.contains(allowed), "{allowed}: {m}");
        }
        let body = json!({"name": "T", "game": "goofspiel", "format": {"kind": "round_robin"}, "players": [{"name": "a"}, {"name": "b"}], "webhook": hook});
        let (status, v) = s.call("POST", "/api/tournaments", None, Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    }
    let body = json!({"game": "goofspiel", "webhook": {"url": "https://x/y", "format": "teams"}});
    let (status, v) = s
        .call("POST", "/api/matches", Some(ADMIN), Some(body))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v.to_string().contains("discord") && v.to_string().contains("slack"),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_admin_gives_a_match_a_webhook() {
    let s = server_with(public_limits(&[]));
    // Public when the admin's webhook is checked; loopback after, so that nothing but loopback
    // could ever be contacted (and nothing is: no seat joins, nothing is posted).
    let resolver = Pointed::new(&[("discord.com", &["162.159.135.232"])]);
    resolver.answer("discord.com", &["127.0.0.1"]);
    s.hub.webhooks().set_resolver(resolver);
    let body = json!({
        "game": "goofspiel",
        "webhook": {"url": "https://discord.com/api/webhooks/1/abc"},
    });
    for token in [None, Some("not-the-admin-token-at-all")] {
        let (status, v) = s
            .call("POST", "/api/matches", token, Some(body.clone()))
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
        assert_eq!(v["error"]["code"], "forbidden");
        let m = v["error"]["message"].as_str().unwrap();
        assert!(
            m.contains("admin") && m.contains("/api/tournaments/{id}/webhook"),
            "{m}"
        );
    }
    // A server without an admin token gives no match a webhook.
    let no_admin = common::server_with(public_limits(&[]));
    let (status, v) = no_admin
        .call("POST", "/api/matches", Some(ADMIN), Some(body.clone()))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    // The admin may (two humans: nothing starts, nothing is posted).
    let id = create_hooked(&s, body).await;
    // Nobody else's answer carries the webhook or its delivery counts.
    let (_, v) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    let text = v.to_string();
    assert!(
        !text.contains("discord.com/api")
            && !text.contains("delivery")
            && !text.contains("dropped_"),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inward_webhooks_are_refused_and_nothing_is_sent() {
    // The only thing that could be contacted: a loopback listener this test owns.
    let (port, seen) = watcher().await;
    let inward = |scheme: &str| {
        [
            format!("{scheme}://127.0.0.1:{port}/hook"),
            format!("{scheme}://localhost:{port}/hook"),
            format!("{scheme}://[::1]:{port}/hook"),
            format!("{scheme}://[::ffff:127.0.0.1]:{port}/hook"),
            format!("{scheme}://0.0.0.0:{port}/hook"),
            format!("{scheme}://2130706433:{port}/hook"),
            format!("{scheme}://0177.0.0.1:{port}/hook"),
            format!("{scheme}://0x7f.1:{port}/hook"),
        ]
    };
    let pointed = || {
        Pointed::new(&[
            ("localhost", &["127.0.0.1"]),
            ("discord.com", &["127.0.0.1"]),
            ("hooks.slack.com", &["10.0.0.1"]),
            ("canary.discord.com", &["169.254.169.254"]),
            ("discordapp.com", &["::ffff:192.168.1.1"]),
            ("ptb.discord.com", &["162.159.135.232", "127.0.0.1"]),
            ("hooks.example.test", &["127.0.0.1"]),
        ])
    };
    // 1. A public server as it starts: none of these is an https URL on an allowed host.
    let s = server_with(public_limits(&[]));
    s.hub.webhooks().set_resolver(pointed());
    let mut urls: Vec<String> = inward("http").into();
    urls.extend(inward("https"));
    for url in &urls {
        let body = json!({"game": "goofspiel", "webhook": {"url": url}});
        let (status, v) = s
            .call("POST", "/api/matches", Some(ADMIN), Some(body))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}: {v}");
    }
    // 2. The operator allowed those hosts on that port, but not private addresses: every one
    // is refused for the address it is or resolves to, and so are the chat platforms' names
    // the resolver points inward (one inward answer among public ones is enough).
    let s = server_with(public_limits(&[
        "127.0.0.1",
        "localhost",
        "[::1]",
        "::ffff:127.0.0.1",
        "0.0.0.0",
        "2130706433",
        "0177.0.0.1",
        "0x7f.1",
        "hooks.example.test",
    ]));
    s.hub.webhooks().set_resolver(pointed());
    let mut urls: Vec<String> = inward("https").into();
    urls.extend([
        format!("https://hooks.example.test:{port}/hook"),
        "https://discord.com/api/webhooks/1/a".to_string(),
        "https://hooks.slack.com/services/T/B/x".to_string(),
        "https://canary.discord.com/api/webhooks/1/a".to_string(),
        "https://discordapp.com/api/webhooks/1/a".to_string(),
        "https://ptb.discord.com/api/webhooks/1/a".to_string(),
    ]);
    let (status, created) = s
        .call(
            "POST",
            "/api/tournaments",
            None,
            Some(
                json!({"name": "T", "game": "goofspiel", "format": {"kind": "round_robin"},
                        "players": [{"name": "a"}, {"name": "b"}], "start": false}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let tid = created["id"].as_str().unwrap();
    let host = created["links"]["admin"]
        .as_str()
        .unwrap()
        .split("admin=")
        .nth(1)
        .unwrap()
        .to_string();
    for url in &urls {
        let body = json!({"game": "goofspiel", "webhook": {"url": url}});
        let (status, v) = s
            .call("POST", "/api/matches", Some(ADMIN), Some(body))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}: {v}");
        let m = v["error"]["message"].as_str().unwrap();
        assert!(
            ["loopback", "private", "link-local", "unspecified"]
                .iter()
                .any(|w| m.contains(w)),
            "{url}: {m}"
        );
        let body = json!({"name": "T", "game": "goofspiel", "format": {"kind": "round_robin"},
                          "players": [{"name": "a"}, {"name": "b"}], "webhook": {"url": url}});
        let (status, v) = s.call("POST", "/api/tournaments", None, Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}: {v}");
        let (status, v) = s
            .call(
                "POST",
                &format!("/api/tournaments/{tid}/webhook"),
                Some(&host),
                Some(json!({"webhook": {"url": url}})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}: {v}");
    }
    // 3. DNS rebinding: a name public when the webhook is set (only resolved, never
    // contacted), loopback when a post is sent: the connection is refused, the post dropped.
    let s = server_with(public_limits(&["rebind.example.test"]));
    let resolver = Pointed::new(&[("rebind.example.test", &["162.159.135.232"])]);
    resolver.answer("rebind.example.test", &["127.0.0.1"]);
    s.hub.webhooks().set_resolver(resolver.clone());
    let url = format!("https://rebind.example.test:{port}/hook");
    let id = create_hooked(
        &s,
        json!({
            "game": "goofspiel",
            "options": {"cards": "3"},
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
            "webhook": {"url": url},
        }),
    )
    .await;
    finish(&s, &id, Duration::from_secs(20)).await;
    let hook = colosseum_server::webhooks::WebhookConfig {
        url: url.clone(),
        format: Default::default(),
        verbosity: Default::default(),
        label: None,
        issued: Default::default(),
    };
    let mut stats = Value::Null;
    for _ in 0..400 {
        stats = s.hub.webhooks().stats(&hook);
        if stats["dropped_refused_address"].as_u64().unwrap() >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(
        stats["dropped_refused_address"].as_u64().unwrap() >= 3,
        "{stats}"
    );
    assert_eq!(stats["sent"], 0, "{stats}");
    assert_eq!(
        stats["retried"], 0,
        "a refused address is not retried: {stats}"
    );
    assert!(resolver.asked.load(Ordering::SeqCst) >= 2);
    // Nothing ever reached the loopback listener.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        seen.load(Ordering::SeqCst),
        0,
        "a connection reached loopback"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournaments_pairings_reveals_results_and_standings_arrive_in_order() {
    let s = server_with(limits());
    let (url, got) = receiver(Mode::Ok).await;
    let players: Vec<Value> = ["Ann", "Bob", "Cat", "Dan"]
        .iter()
        .map(|n| json!({"name": n, "bot": "random"}))
        .collect();
    let (status, created) = s
        .call(
            "POST",
            "/api/tournaments",
            None,
            Some(json!({
                "name": "Cup",
                "game": "goofspiel",
                "options": {"cards": "4"},
                "format": {"kind": "round_robin"},
                "players": players,
                "start": false,
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["links"]["admin"]
        .as_str()
        .unwrap()
        .split("admin=")
        .nth(1)
        .unwrap()
        .to_string();
    // Set later, with the admin token only.
    let path = format!("/api/tournaments/{id}/webhook");
    let body = json!({"webhook": {"url": url, "format": "discord"}});
    let (status, v) = s.call("POST", &path, None, Some(body.clone())).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    let (status, v) = s.call("POST", &path, Some(&admin), Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // The rest of the tournament plays itself.
    let (status, v) = s
        .call(
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&admin),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let posts = wait_posts(&got, |p| {
        p.iter().any(|r| r.text().contains("final standings"))
    })
    .await;
    let texts: Vec<String> = posts.iter().map(Received::text).collect();
    assert!(texts[0].contains("announcements start here"), "{texts:#?}");
    // Round r's pairings come after round r-1's standings, and before round r's standings.
    let at = |needle: &str| texts.iter().position(|t| t.contains(needle));
    for r in 1..=3 {
        let paired =
            at(&format!("Cup: round {r} (Goofspiel)")).unwrap_or_else(|| panic!("{texts:#?}"));
        let standings = at(&format!("Cup: standings after round {r}")).unwrap();
        assert!(paired < standings, "{texts:#?}");
        if r > 1 {
            assert!(at(&format!("Cup: standings after round {}", r - 1)).unwrap() < paired);
        }
        assert!(texts[paired].contains("Board 1: ") && texts[paired].contains("Board 2: "));
    }
    assert!(
        at("final standings").unwrap() == texts.len() - 1,
        "{texts:#?}"
    );
    // Six games, each with its start, reveals and result, boards attached.
    assert_eq!(
        texts
            .iter()
            .filter(|t| t.contains("The match begins."))
            .count(),
        6
    );
    assert_eq!(
        texts.iter().filter(|t| is_result(t)).count(),
        6,
        "{texts:#?}"
    );
    let mut boards = 0;
    for p in &posts {
        if let (_, Some(png)) = p.parts() {
            check_png(&png);
            boards += 1;
        }
    }
    assert!(boards >= 6 * 4, "{boards}");
    // The final standings lead with the winner (or those sharing first place) and list every
    // player.
    let last = texts.last().unwrap();
    let lead = last.lines().nth(1).unwrap();
    assert!(
        lead.ends_with(" wins the tournament.") || lead.ends_with(" share first place."),
        "{last}"
    );
    // The first line of the table is rank 1, or "=1" when only the seed would break a tie.
    let first = last.lines().nth(2).unwrap();
    assert!(
        first.starts_with("1. ") || first.starts_with("=1. "),
        "{last}"
    );
    for n in ["Ann", "Bob", "Cat", "Dan"] {
        assert!(last.contains(n));
    }
    // People's names everywhere, the bots' too (their names in the tournament): no seat ids,
    // no game ids, no `bot random`, counts in the singular where they are one.
    for t in &texts {
        assert!(
            internal_words(t).is_empty(),
            "{:?} in {t}",
            internal_words(t)
        );
        assert!(!t.contains("bot random") && !t.contains("1 points"), "{t}");
    }
    assert!(
        texts
            .iter()
            .filter(|t| t.contains("The match begins."))
            .all(|t| ["Ann", "Bob", "Cat", "Dan"]
                .iter()
                .filter(|n| t.lines().next().unwrap().contains(*n))
                .count()
                == 2),
        "{texts:#?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("Ann played ")),
        "{texts:#?}"
    );
    // Each board's posts name the tournament, the round and the board.
    for t in texts
        .iter()
        .filter(|t| t.contains("The match begins.") || is_result(t))
    {
        let title = t.lines().next().unwrap();
        assert!(
            title.contains("Cup, round ")
                && title.contains(", board ")
                && title.contains(" — Goofspiel: "),
            "{t}"
        );
    }
    // Only the host sees the URL.
    let (_, public) = s
        .call("GET", &format!("/api/tournaments/{id}"), None, None)
        .await;
    assert!(!public.to_string().contains(&url), "{public}");
    // Nor the delivery counts (whether the receiver answers): they are the host's.
    assert!(
        !public.to_string().contains("delivery") && !public.to_string().contains("dropped_"),
        "{public}"
    );
    let (_, host) = s
        .call("GET", &format!("/api/tournaments/{id}"), Some(&admin), None)
        .await;
    assert_eq!(host["webhook"]["url"], url.as_str());
    assert!(host["webhook"]["delivery"]["sent"].as_u64().unwrap() >= texts.len() as u64 - 1);
    assert!(!host["log"].to_string().contains(&url), "{}", host["log"]);
}

/// The overflow of one Swiss round of four bot games: 155 posts queued in 0.5 s to a receiver
/// that takes its time over each post (Discord's pace, about 0.5 s a post, scaled down to
/// 20 ms; the queue scaled down with it to 16) and answers every 10th request 429 with
/// `retry_after`. Every result, standings and host-action post arrives, once, in order; reveals
/// are shed first, the posts kept arrive in the order they were queued, and the shed posts are
/// counted in the webhook's counts and in `GET /metrics`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_overflowing_round_sheds_reveals_and_delivers_every_result_in_order() {
    use colosseum_server::webhooks::{Post, WebhookConfig};
    let s = server_with(Limits {
        webhook_queue: 16,
        ..limits()
    });
    let (url, got, limited_at) =
        receiver_with_limits(Mode::Paced(Duration::from_millis(20), 10, 0.05)).await;
    let hook = WebhookConfig {
        url: url.clone(),
        format: Default::default(),
        verbosity: Default::default(),
        label: None,
        issued: Default::default(),
    };
    // The round as the tournament and its four matches queue it: the pairings, four starts,
    // 36 reveals per board interleaved (a host's pause among them), four results, standings.
    let mut kinds: Vec<&'static str> = vec!["pairings"];
    kinds.extend(["start"; 4]);
    for i in 0..144 {
        kinds.push("reveal");
        if i == 70 {
            kinds.push("host");
        }
    }
    kinds.extend(["result"; 4]);
    kinds.push("standings");
    assert_eq!(kinds.len(), 155);
    let began = Instant::now();
    for (i, kind) in kinds.iter().enumerate() {
        s.hub.webhooks().post(
            &hook,
            Post {
                kind,
                title: format!("post {i} ({kind})"),
                lines: vec![format!("Cup: round 1, board {}", i % 4 + 1)],
                board: None,
            },
        );
        if i % 31 == 30 {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    assert!(began.elapsed() < Duration::from_millis(700));
    let kept = |kind: &str| ["host", "result", "standings"].contains(&kind);
    let wanted = kinds.iter().filter(|k| kept(k)).count();
    assert_eq!(wanted, 6);
    let posts = wait_posts(&got, |p| {
        p.iter()
            .filter(|r| r.text().contains("(standings)"))
            .count()
            == 1
    })
    .await;
    let numbers: Vec<(usize, String)> = posts
        .iter()
        .map(|r| {
            let t = r.text();
            let title = t.lines().next().unwrap().trim_matches('*').to_string();
            let n: usize = title
                .strip_prefix("post ")
                .and_then(|x| x.split(' ').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or_else(|| panic!("{t}"));
            (n, kinds[n].to_string())
        })
        .collect();
    // In order, each once.
    assert!(numbers.windows(2).all(|w| w[0].0 < w[1].0), "{numbers:?}");
    // Every result, standings and host-action post delivered.
    for (n, kind) in kinds.iter().enumerate() {
        if kept(kind) {
            assert!(
                numbers.iter().any(|(m, _)| *m == n),
                "post {n} ({kind}) missing: {numbers:?}"
            );
        }
    }
    // Moves were shed first: fewer reveals arrived than were queued.
    let reveals = numbers.iter().filter(|(_, k)| k == "reveal").count();
    assert!(reveals < 144, "{numbers:?}");
    // Each 429 was waited out: the next request came at least `retry_after` later.
    let limited = limited_at.lock().unwrap().clone();
    assert!(!limited.is_empty());
    for at in &limited {
        if let Some(next) = posts.iter().find(|p| p.at > *at) {
            assert!(
                next.at - *at >= Duration::from_millis(45),
                "{:?}",
                next.at - *at
            );
        }
    }
    let stats = s.hub.webhooks().stats(&hook);
    let shed = stats["shed"].as_u64().unwrap();
    assert_eq!(
        stats["sent"].as_u64().unwrap(),
        posts.len() as u64,
        "{stats}"
    );
    assert_eq!(shed + posts.len() as u64, 155, "{stats}");
    assert_eq!(stats["dropped_queue_full"], 0, "{stats}");
    assert_eq!(stats["dropped_after_retries"], 0, "{stats}");
    assert_eq!(
        stats["rate_limited"].as_u64().unwrap(),
        limited.len() as u64,
        "{stats}"
    );
    let metrics = s.hub.render_metrics();
    assert!(
        metrics.contains(&format!(
            "colosseum_webhook_posts_total{{outcome=\"shed\"}} {shed}"
        )),
        "{metrics}"
    );
    assert!(
        metrics.contains(&format!(
            "colosseum_webhook_posts_total{{outcome=\"sent\"}} {}",
            posts.len()
        )),
        "{metrics}"
    );
}

/// A webhook with the verbosity `results` is sent the result, not the start or the reveals.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_results_only_webhook_gets_the_result_and_no_reveals() {
    let s = server_with(limits());
    let (url, got) = receiver(Mode::Ok).await;
    let id = create_hooked(
        &s,
        json!({
            "game": "goofspiel",
            "options": {"cards": "4"},
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
            "webhook": {"url": url, "verbosity": "results"},
        }),
    )
    .await;
    finish(&s, &id, Duration::from_secs(20)).await;
    wait_posts(&got, |p| p.iter().any(|r| is_result(&r.text()))).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let texts: Vec<String> = got.lock().unwrap().iter().map(Received::text).collect();
    assert_eq!(texts.len(), 1, "{texts:#?}");
    assert!(is_result(&texts[0]), "{texts:#?}");
}

/// A tournament's board posts name the tournament, the round and the board, and the host's
/// actions are posted: a pause, more time, a resume (on the board's match), garnets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn board_posts_name_the_tournament_round_and_board_and_host_actions_are_posted() {
    let s = server_with(limits());
    let (url, got) = receiver(Mode::Ok).await;
    let (status, created) = s
        .call(
            "POST",
            "/api/tournaments",
            None,
            Some(json!({
                "name": "Powers",
                "game": "goofspiel",
                "format": {"kind": "swiss", "rounds": 1},
                "players": [{"name": "Ann"}, {"name": "Bo"}],
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let action = |name: &str| format!("/api/tournaments/{id}/{name}");
    for _ in 0..200 {
        let (_, v) = s
            .call("GET", &format!("/api/tournaments/{id}"), None, None)
            .await;
        if v["rounds"][0]["boards"][0]["match"].is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Set while the board's match waits: the match is announced there, labelled.
    let (status, v) = s
        .call(
            "POST",
            &action("webhook"),
            Some(&admin),
            Some(json!({"webhook": {"url": url}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let mut seats = Vec::new();
    for p in created["links"]["players"].as_array().unwrap() {
        let token = p["link"]
            .as_str()
            .unwrap()
            .split("#player=")
            .nth(1)
            .unwrap()
            .to_string();
        let (_, mine) = s
            .call("GET", &format!("/api/tournaments/{id}"), Some(&token), None)
            .await;
        let link = mine["you"]["current"]["link"].as_str().unwrap().to_string();
        let (m, seat_token) = link.trim_start_matches("/m/").split_once("#seat=").unwrap();
        let (status, answer) = s.join_token(m, seat_token, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        seats.push((m.to_string(), seat_token.to_string()));
    }
    for (m, seat_token) in &seats {
        s.reveal_token(m, seat_token).await;
    }
    let at = json!({"round": 0, "board": 0});
    let give = json!({"round": 0, "board": 0, "seat": "p2", "seconds": 90});
    for (name, body) in [
        ("pause", at.clone()),
        ("give_time", give),
        ("resume", at.clone()),
        ("garnets", json!({"player": 0, "garnets": 2})),
    ] {
        let (status, answer) = s
            .call("POST", &action(name), Some(&admin), Some(body))
            .await;
        assert_eq!(status, StatusCode::OK, "{name}: {answer}");
    }
    let posts = wait_posts(&got, |p| {
        p.iter().any(|r| r.text().contains("garnets to 2"))
            && p.iter().any(|r| r.text().contains("resumed"))
            && p.iter().any(|r| r.text().contains("The match begins."))
    })
    .await;
    let texts: Vec<String> = posts.iter().map(Received::text).collect();
    let label = "Powers, round 1, board 1 — Goofspiel: Ann v Bo";
    let start = texts
        .iter()
        .find(|t| t.contains("The match begins."))
        .unwrap();
    assert!(start.lines().next().unwrap().contains(label), "{texts:#?}");
    let at = |needle: &str| {
        texts
            .iter()
            .position(|t| t.contains(needle))
            .unwrap_or_else(|| panic!("{needle}: {texts:#?}"))
    };
    let paused = at("The host paused the match");
    let gave = at("The host gave Bo 90 seconds more.");
    let resumed = at("The host resumed the match.");
    assert!(paused < gave && gave < resumed, "{texts:#?}");
    for i in [paused, gave, resumed] {
        assert!(
            texts[i].lines().next().unwrap().contains(label),
            "{texts:#?}"
        );
    }
    assert!(
        texts[at("garnets to 2")].contains("The host set Ann's garnets to 2."),
        "{texts:#?}"
    );
}

/// Discord's rate-limit headers are honoured: after an answer saying the bucket is empty, the
/// next post waits until the bucket resets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discords_rate_limit_headers_pace_the_posts() {
    use colosseum_server::webhooks::{Post, WebhookConfig};
    let s = server_with(limits());
    let (url, got) = receiver(Mode::Bucket(0.15)).await;
    let hook = WebhookConfig {
        url,
        format: Default::default(),
        verbosity: Default::default(),
        label: None,
        issued: Default::default(),
    };
    for i in 0..4 {
        s.hub.webhooks().post(
            &hook,
            Post {
                kind: "result",
                title: format!("post {i}"),
                lines: Vec::new(),
                board: None,
            },
        );
    }
    let posts = wait_posts(&got, |p| p.len() == 4).await;
    for w in posts.windows(2) {
        assert!(
            w[1].at - w[0].at >= Duration::from_millis(140),
            "{:?}",
            w[1].at - w[0].at
        );
    }
    let texts: Vec<String> = posts.iter().map(Received::text).collect();
    assert_eq!(
        texts,
        ["**post 0**", "**post 1**", "**post 2**", "**post 3**"]
    );
}

/// A whole tournament of bots announced to a receiver at Discord's pace (scaled down) that
/// answers every 7th request 429, with a small queue: reveals are shed, and every match's
/// result, every standings post and the final standings arrive, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_at_discords_pace_delivers_every_result_and_standing() {
    let s = server_with(Limits {
        webhook_queue: 6,
        ..limits()
    });
    let (url, got, limited_at) =
        receiver_with_limits(Mode::Paced(Duration::from_millis(25), 7, 0.03)).await;
    let players: Vec<Value> = ["Ann", "Bob", "Cat", "Dan"]
        .iter()
        .map(|n| json!({"name": n, "bot": "random"}))
        .collect();
    let (status, created) = s
        .call(
            "POST",
            "/api/tournaments",
            None,
            Some(json!({
                "name": "Cup",
                "game": "goofspiel",
                "options": {"cards": "13"},
                "format": {"kind": "round_robin"},
                "players": players,
                "start": false,
                "webhook": {"url": url},
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let (status, v) = s
        .call(
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&admin),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let posts = wait_posts(&got, |p| {
        p.iter().any(|r| r.text().contains("final standings"))
    })
    .await;
    let texts: Vec<String> = posts.iter().map(Received::text).collect();
    // Six games' results, three rounds' standings, the final standings, in order.
    assert_eq!(
        texts.iter().filter(|t| is_result(t)).count(),
        6,
        "{texts:#?}"
    );
    for r in 1..=3 {
        let standings = texts
            .iter()
            .position(|t| t.contains(&format!("Cup: standings after round {r}")))
            .unwrap_or_else(|| panic!("round {r}: {texts:#?}"));
        let results_before = texts[..standings].iter().filter(|t| is_result(t)).count();
        assert!(results_before >= 2 * r, "{texts:#?}");
    }
    assert!(texts.last().unwrap().contains("final standings"));
    let stats = s
        .hub
        .webhooks()
        .stats(&serde_json::from_value(json!({"url": url})).unwrap());
    assert!(stats["shed"].as_u64().unwrap() > 0, "{stats}");
    assert!(!limited_at.lock().unwrap().is_empty());
    assert_eq!(stats["dropped_after_retries"], 0, "{stats}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turns_time_running_out_is_announced_with_who_has_not_decided() {
    // Galespiel: 60 s to bid, then a 5-minute bank in 5-second steps (the seed's "it will be
    // announced when the 60 seconds have expired ... and their time bank will start counting
    // down").
    let s = server_with(limits());
    let (url, got) = receiver(Mode::Ok).await;
    let (status, created) = s
        .call(
            "POST",
            "/api/matches",
            Some(ADMIN),
            Some(json!({"game": "galespiel", "webhook": {"url": url}})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = (0..2)
        .map(|i| created["tokens"][i].as_str().unwrap().to_string())
        .collect();
    for (token, name) in tokens.iter().zip(["Ann", "Bo"]) {
        let (status, v) = s.join_token(&id, token, json!({"name": name})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    for token in &tokens {
        s.reveal_token(&id, token).await;
    }
    assert_eq!(s.state(&id, None).await["status"], "live");
    // Bo bids in time; Ann does not.
    let legal = s.state(&id, Some(&tokens[1])).await["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_string();
    let (status, v) = s
        .act(&id, "submit", &tokens[1], json!({"move": legal}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    s.clock.advance(59_000);
    s.hub.tick_all().await.unwrap();
    // Nothing yet at 59 s; the posts so far (the start) arrive first.
    let before = wait_posts(&got, |p| !p.is_empty()).await.len();
    s.clock.advance(1_000);
    s.hub.tick_all().await.unwrap();
    let posts = wait_posts(&got, |p| p.iter().any(|r| r.text().contains("are up"))).await;
    let notices: Vec<String> = posts
        .iter()
        .map(Received::text)
        .filter(|t| t.contains("are up"))
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].contains(
            "60 seconds are up: Ann has not decided, and Ann's time bank is running \
             (5 minutes left)."
        ),
        "{}",
        notices[0]
    );
    assert!(notices[0].contains("Galespiel: Ann v Bo"), "{}", notices[0]);
    assert!(!notices[0].contains("Bo has not"), "{}", notices[0]);
    assert!(posts.len() > before);
    // The bank's steps that follow are not announced again, one each.
    s.clock.advance(20_000);
    s.hub.tick_all().await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let again = got
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r.text().contains("are up"))
        .count();
    assert_eq!(again, 1);
}

//! The Discord application (`colosseum_server::discord`, docs/discord.md) against a local
//! stand-in for Discord: the test makes the application's Ed25519 key pair and signs each
//! interaction as Discord does (`X-Signature-Ed25519` over `X-Signature-Timestamp` + body); a
//! tiny HTTP server records the application's calls to Discord's API (path, Authorization,
//! JSON body).

mod common;

use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, Request, StatusCode, Uri};
use axum::Router;
use colosseum_server::discord::{self, Config};
use colosseum_server::Limits;
use common::{open_limits, server_with, Server, T0};
use http_body_util::BodyExt;
use ring::signature::{Ed25519KeyPair, KeyPair};
use serde_json::{json, Value};
use tower::ServiceExt;

/// The application's key pair, made by the test as the Developer Portal makes Discord's.
struct App {
    keys: Ed25519KeyPair,
}

impl App {
    fn new() -> App {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng).unwrap();
        App {
            keys: Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap(),
        }
    }

    fn public_hex(&self) -> String {
        hex(self.keys.public_key().as_ref())
    }

    /// The settings `serve --discord-*` would make, pointed at `api_base`.
    fn config(&self, api_base: &str) -> &'static Config {
        Config::new(
            "1234567890",
            &self.public_hex(),
            "bot-token-xyz",
            Some(api_base),
        )
        .unwrap()
        .leak()
    }

    /// The signature Discord sends for `body` at `timestamp`.
    fn sign(&self, timestamp: &str, body: &str) -> String {
        let mut signed = timestamp.as_bytes().to_vec();
        signed.extend_from_slice(body.as_bytes());
        hex(self.keys.sign(&signed).as_ref())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The manual clock's now in Unix seconds (the server checks timestamps against its clock).
const NOW: u64 = T0 / 1000;

/// A server with the Discord application `app`, its API at `api_base`.
fn server(app: &App, api_base: &str) -> Server {
    server_with(Limits {
        discord: Some(app.config(api_base)),
        ..open_limits()
    })
}

/// Posts `body` to the interactions endpoint with the given signature headers; the answer.
async fn post(
    s: &Server,
    signature: Option<&str>,
    timestamp: Option<&str>,
    body: &str,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method("POST")
        .uri("/api/discord/interactions")
        .header("content-type", "application/json");
    if let Some(sig) = signature {
        req = req.header("X-Signature-Ed25519", sig);
    }
    if let Some(ts) = timestamp {
        req = req.header("X-Signature-Timestamp", ts);
    }
    let res = s
        .router
        .clone()
        .oneshot(req.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, value)
}

/// Posts `interaction` signed by `app` now.
async fn interact(s: &Server, app: &App, interaction: &Value) -> (StatusCode, Value) {
    let body = interaction.to_string();
    let ts = NOW.to_string();
    post(s, Some(&app.sign(&ts, &body)), Some(&ts), &body).await
}

const PING: &str = r#"{"id":"1","application_id":"1234567890","type":1,"token":"t","version":1}"#;

#[tokio::test]
async fn a_signed_ping_is_answered_pong() {
    let app = App::new();
    let s = server(&app, "http://127.0.0.1:9");
    let ts = NOW.to_string();
    let (status, body) = post(&s, Some(&app.sign(&ts, PING)), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({"type": 1}));
}

#[tokio::test]
async fn a_bad_signature_is_refused_401() {
    let app = App::new();
    let s = server(&app, "http://127.0.0.1:9");
    let ts = NOW.to_string();
    // Signed by another key (anyone's, not the application's).
    let other = App::new();
    let (status, _) = post(&s, Some(&other.sign(&ts, PING)), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The right key, but the body changed after signing.
    let sig = app.sign(&ts, PING);
    let tampered = PING.replace("\"type\":1", "\"type\":2");
    let (status, _) = post(&s, Some(&sig), Some(&ts), &tampered).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The right signature sent with another timestamp than the one signed.
    let (status, _) = post(&s, Some(&sig), Some(&(NOW + 1).to_string()), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Not hex, and missing headers.
    let (status, _) = post(&s, Some("zz"), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post(&s, None, Some(&ts), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = post(&s, Some(&sig), None, PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    // And the same request properly signed passes.
    let (status, _) = post(&s, Some(&sig), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_stale_or_future_timestamp_is_refused_401() {
    let app = App::new();
    let s = server(&app, "http://127.0.0.1:9");
    for ts in [NOW - 301, NOW - 3600, NOW + 301] {
        let ts = ts.to_string();
        let (status, body) = post(&s, Some(&app.sign(&ts, PING)), Some(&ts), PING).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{ts}: {body}");
    }
    // Within five minutes either way: accepted.
    for ts in [NOW - 299, NOW + 299] {
        let ts = ts.to_string();
        let (status, _) = post(&s, Some(&app.sign(&ts, PING)), Some(&ts), PING).await;
        assert_eq!(status, StatusCode::OK, "{ts}");
    }
    // A signed timestamp that is not a number.
    let ts = "yesterday";
    let (status, _) = post(&s, Some(&app.sign(ts, PING)), Some(ts), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn without_an_application_the_endpoint_is_404() {
    let app = App::new();
    let s = server_with(open_limits());
    let ts = NOW.to_string();
    let (status, _) = post(&s, Some(&app.sign(&ts, PING)), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn rules_answers_privately_with_the_games_name() {
    let app = App::new();
    let s = server(&app, "http://127.0.0.1:9");
    let game = &colosseum_games::registry()[0];
    let (status, body) = interact(
        &s,
        &app,
        &json!({"id": "2", "type": 2, "token": "t", "guild_id": "42", "channel_id": "7",
                "member": {"user": {"id": "100", "username": "ann"}},
                "data": {"name": "colosseum", "type": 1,
                         "options": [{"name": "rules", "type": 1,
                                      "options": [{"name": "game", "type": 3, "value": game.id}]}]}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["type"], 4);
    assert_eq!(body["data"]["flags"], 64, "only the member sees it: {body}");
    let text = body["data"]["content"].as_str().unwrap();
    assert!(text.contains(game.name), "{text}");
}

/// One call the application made to the stand-in.
#[derive(Clone, Debug)]
struct Call {
    method: Method,
    path: String,
    authorization: Option<String>,
    body: Value,
}

/// The stand-in for Discord's API: records every call and answers 200 with the body it got.
async fn stand_in() -> (String, Arc<Mutex<Vec<Call>>>) {
    async fn any(
        State(calls): State<Arc<Mutex<Vec<Call>>>>,
        method: Method,
        uri: Uri,
        headers: HeaderMap,
        body: Bytes,
    ) -> (StatusCode, String) {
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        calls.lock().unwrap().push(Call {
            method,
            path: uri.path().to_string(),
            authorization: headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string),
            body: body.clone(),
        });
        (StatusCode::OK, body.to_string())
    }
    let calls = Arc::new(Mutex::new(Vec::new()));
    let router = Router::new().fallback(any).with_state(calls.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("http://{addr}/api/v10"), calls)
}

#[tokio::test]
async fn register_overwrites_the_guilds_commands_with_the_bot_token() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let config = app.config(&base);
    discord::register(config, "4242").await.unwrap();
    let calls = calls.lock().unwrap().clone();
    assert_eq!(calls.len(), 1, "{calls:?}");
    let call = &calls[0];
    assert_eq!(call.method, Method::PUT);
    assert_eq!(
        call.path,
        "/api/v10/applications/1234567890/guilds/4242/commands"
    );
    assert_eq!(call.authorization.as_deref(), Some("Bot bot-token-xyz"));
    // Discord's documented shape: an array of application commands; one CHAT_INPUT
    // `colosseum` with SUB_COMMAND options.
    let commands = call.body.as_array().expect("an array of commands");
    assert_eq!(commands.len(), 1);
    let colosseum = &commands[0];
    assert_eq!(colosseum["name"], "colosseum");
    assert_eq!(colosseum["type"], 1);
    let subs: Vec<&str> = colosseum["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            assert_eq!(o["type"], 1, "a SUB_COMMAND: {o}");
            o["name"].as_str().unwrap()
        })
        .collect();
    assert_eq!(subs, ["new", "move", "hand", "resign", "rules"]);
    let new = &colosseum["options"][0]["options"];
    assert_eq!(new[0]["name"], "game");
    assert_eq!(new[0]["type"], 3, "STRING");
    assert_eq!(new[1]["name"], "opponent");
    assert_eq!(new[1]["type"], 6, "USER");
    let choices = new[0]["choices"].as_array().unwrap();
    assert!(choices.len() <= 25);
    for g in colosseum_games::registry().iter().take(25) {
        assert!(
            choices
                .iter()
                .any(|c| c["value"] == g.id && c["name"] == g.name),
            "{} missing from {choices:?}",
            g.id
        );
    }
    // Discord's limits on names and descriptions.
    fn check(v: &Value) {
        if let Some(name) = v.get("name").and_then(Value::as_str) {
            assert!((1..=32).contains(&name.len()), "{name}");
        }
        if let Some(d) = v.get("description").and_then(Value::as_str) {
            assert!((1..=100).contains(&d.len()), "{d}");
        }
        for o in v["options"].as_array().into_iter().flatten() {
            check(o);
        }
    }
    check(colosseum);
}

#[tokio::test]
async fn register_reports_discords_refusal() {
    let app = App::new();
    async fn refuse() -> (StatusCode, &'static str) {
        (
            StatusCode::UNAUTHORIZED,
            r#"{"message": "401: Unauthorized", "code": 0}"#,
        )
    }
    let router = Router::new().fallback(refuse);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let err = discord::register(app.config(&format!("http://{addr}")), "4242")
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("401"), "{err}");
    let err = discord::register(app.config(&format!("http://{addr}")), "not-a-guild")
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("guild"), "{err}");
}

#[test]
fn the_settings_are_checked() {
    let key = "ab".repeat(32);
    assert!(Config::new("123", &key, "tok", None).is_ok());
    assert_eq!(
        Config::new("123", &key, "tok", None).unwrap().api_base,
        discord::DEFAULT_API_BASE
    );
    assert!(Config::new("abc", &key, "tok", None).is_err());
    assert!(Config::new("123", "abcd", "tok", None).is_err());
    assert!(Config::new("123", &key, " ", None).is_err());
    assert!(Config::new("123", &key, "tok", Some("ftp://x")).is_err());
    // The token never reaches a log through Debug.
    let shown = format!(
        "{:?}",
        Config::new("123", &key, "secret-tok", None).unwrap()
    );
    assert!(!shown.contains("secret-tok"), "{shown}");
}

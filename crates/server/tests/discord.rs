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
        .with_public_url("https://colosseum.example/")
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
    let ts = (s.hub.now() / 1000).to_string();
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
    let (base, calls, _) = stand_in_limited(0).await;
    (base, calls)
}

/// The stand-in, answering the first `limited` channel posts 429 with Discord's rate-limit body
/// (`retry_after` 0.05 s); the third value counts the 429s given.
async fn stand_in_limited(
    limited: usize,
) -> (
    String,
    Arc<Mutex<Vec<Call>>>,
    Arc<std::sync::atomic::AtomicUsize>,
) {
    let given = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = given.clone();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let recorded = calls.clone();
    let router = Router::new().fallback(
        move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
            let calls = recorded.clone();
            let count = count.clone();
            async move {
                use std::sync::atomic::Ordering;
                if uri.path().contains("/channels/")
                    && count.fetch_add(1, Ordering::SeqCst) < limited
                {
                    return (
                        StatusCode::TOO_MANY_REQUESTS,
                        json!({"message": "You are being rate limited.", "retry_after": 0.05,
                               "global": false})
                        .to_string(),
                    );
                }
                any(State(calls), method, uri, headers, body).await
            }
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("http://{addr}/api/v10"), calls, given)
}

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
    assert_eq!(subs, ["new", "join", "move", "hand", "resign", "rules"]);
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

/// A slash command `/colosseum SUB` by `member` in channel 7 of guild 42.
fn slash(member: (&str, &str), sub: &str, options: Value, resolved: Value) -> Value {
    json!({"id": "9", "type": 2, "token": "t", "guild_id": "42", "channel_id": "7",
           "member": {"user": {"id": member.0, "username": member.1.to_lowercase(),
                               "global_name": member.1}},
           "data": {"name": "colosseum", "type": 1, "resolved": resolved,
                    "options": [{"name": sub, "type": 1, "options": options}]}})
}

/// A component interaction (button or select) by `member` on a message in channel 7.
fn press(member: (&str, &str), custom_id: &str, values: Option<&str>) -> Value {
    let mut data = json!({"custom_id": custom_id, "component_type": 2});
    if let Some(v) = values {
        data = json!({"custom_id": custom_id, "component_type": 3, "values": [v]});
    }
    json!({"id": "10", "type": 3, "token": "t", "guild_id": "42", "channel_id": "7",
           "member": {"user": {"id": member.0, "username": member.1.to_lowercase(),
                               "global_name": member.1}},
           "message": {"id": "55", "flags": 64}, "data": data})
}

const ANN: (&str, &str) = ("100", "Ann");
const BOB: (&str, &str) = ("200", "Bob");
const CY: (&str, &str) = ("300", "Cy");

/// The select menu's custom id and options of an ephemeral prompt.
fn select(prompt: &Value) -> (String, Vec<String>) {
    let menu = &prompt["data"]["components"][0]["components"][0];
    assert_eq!(menu["type"], 3, "a select menu: {prompt}");
    let options = menu["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect();
    (menu["custom_id"].as_str().unwrap().to_string(), options)
}

/// `who` opens the prompt, picks `first`, then (if given) changes to `then`, and confirms.
async fn play(s: &Server, app: &App, who: (&str, &str), first: usize, then: Option<usize>) {
    let (status, prompt) = interact(s, app, &press(who, "move", None)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(prompt["type"], 4, "{prompt}");
    assert_eq!(prompt["data"]["flags"], 64, "ephemeral: {prompt}");
    let (id, options) = select(&prompt);
    let (_, preview) = interact(s, app, &press(who, &id, Some(&options[first]))).await;
    assert_eq!(preview["type"], 7, "the prompt is updated: {preview}");
    let text = preview["data"]["content"].as_str().unwrap();
    assert!(
        text.contains(&format!("You chose {}", options[first])),
        "{text}"
    );
    let mut chosen = options[first].clone();
    if let Some(other) = then {
        let (id, _) = select(&preview);
        let (_, changed) = interact(s, app, &press(who, &id, Some(&options[other]))).await;
        let text = changed["data"]["content"].as_str().unwrap();
        assert!(
            text.contains(&format!("You chose {}", options[other])),
            "{text}"
        );
        chosen = options[other].clone();
        let confirm = confirm_id(&changed);
        assert!(confirm.ends_with(&format!(":{chosen}")), "{confirm}");
        let (_, done) = interact(s, app, &press(who, &confirm, None)).await;
        assert_eq!(done["type"], 7, "{done}");
        return;
    }
    let confirm = confirm_id(&preview);
    let (_, done) = interact(s, app, &press(who, &confirm, None)).await;
    assert_eq!(done["type"], 7, "{done}");
    let text = done["data"]["content"].as_str().unwrap();
    assert!(
        text.contains(&format!("Your move {chosen} is in")),
        "{text}"
    );
}

fn confirm_id(prompt: &Value) -> String {
    prompt["data"]["components"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row["components"].as_array().unwrap().iter())
        .find(|c| c["type"] == 2 && c["label"] == "Confirm")
        .unwrap_or_else(|| panic!("no Confirm button: {prompt}"))["custom_id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Waits (real time) until the stand-in got a post matching `done`.
async fn wait_for(calls: &Arc<Mutex<Vec<Call>>>, done: impl Fn(&[Call]) -> bool) -> Vec<Call> {
    for _ in 0..400 {
        let got = calls.lock().unwrap().clone();
        if done(&got) {
            return got;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("not posted: {:#?}", calls.lock().unwrap());
}

fn content(c: &Call) -> &str {
    c.body["content"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn a_whole_goofspiel_match_played_by_two_members_through_interactions() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    let resolved =
        json!({"users": {"200": {"id": "200", "username": "bob", "global_name": "Bob"}}});
    let (status, created) = interact(
        &s,
        &app,
        &slash(
            ANN,
            "new",
            json!([{"name": "game", "type": 3, "value": "goofspiel"},
                   {"name": "opponent", "type": 6, "value": "200"},
                   {"name": "seed", "type": 3, "value": "ann-own-words-1234"},
                   {"name": "options", "type": 3, "value": "cards=3"}]),
            resolved,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert_eq!(created["type"], 4);
    assert!(created["data"]["flags"].is_null(), "public: {created}");
    let text = created["data"]["content"].as_str().unwrap();
    assert!(text.contains("Ann challenges Bob"), "{text}");
    // Cy is not a player: refused privately, before and after the start.
    let (_, refused) = interact(
        &s,
        &app,
        &slash(
            CY,
            "join",
            json!([{"name": "seed", "type": 3, "value": "x"}]),
            json!({}),
        ),
    )
    .await;
    assert_eq!(refused["data"]["flags"], 64);
    assert!(refused["data"]["content"]
        .as_str()
        .unwrap()
        .contains("not a player"));
    let (_, started) = interact(
        &s,
        &app,
        &slash(
            BOB,
            "join",
            json!([{"name": "seed", "type": 3, "value": "bob.words.5678.xyz"}]),
            json!({}),
        ),
    )
    .await;
    assert_eq!(started["type"], 4, "{started}");
    assert!(started["data"]["flags"].is_null(), "public: {started}");
    assert_eq!(
        started["data"]["components"][0]["components"][0]["label"],
        "Make your move"
    );
    // The seats' client seeds are the members' own (the server made none).
    let id = text.split('`').nth(1).unwrap();
    let (_, st) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    assert_eq!(st["status"], "live", "{st}");
    assert_eq!(
        st["fairness"]["client_seeds"],
        json!({"p1": "ann-own-words-1234", "p2": "bob.words.5678.xyz"})
    );
    assert_eq!(st["names"], json!({"p1": "Ann", "p2": "Bob"}));
    let (_, refused) = interact(&s, &app, &press(CY, "move", None)).await;
    assert_eq!(refused["data"]["flags"], 64);
    assert!(refused["data"]["content"]
        .as_str()
        .unwrap()
        .contains("not a player"));

    // Round 1 from Discord: Ann changes her mind before confirming.
    play(&s, &app, ANN, 0, Some(2)).await;
    play(&s, &app, BOB, 1, None).await;
    // The reveal is posted in the channel with names, with the bot token.
    let posts = wait_for(&calls, |c| {
        c.iter().any(|c| content(c).contains("Ann played"))
    })
    .await;
    let reveal = posts
        .iter()
        .find(|c| content(c).contains("Ann played"))
        .unwrap();
    assert_eq!(reveal.method, Method::POST);
    assert_eq!(reveal.path, "/api/v10/channels/7/messages");
    assert_eq!(reveal.authorization.as_deref(), Some("Bot bot-token-xyz"));
    let text = content(reveal);
    assert!(
        text.contains("Bob played") && !text.contains("p1"),
        "{text}"
    );
    // The match goes on: the reveal carries the button to the next private prompt.
    assert_eq!(
        reveal.body["components"][0]["components"][0]["custom_id"], "move",
        "{:?}",
        reveal.body
    );

    // Round 2: Bob switches to the web table, with the link `/colosseum hand` gave him only.
    let (_, hand) = interact(&s, &app, &slash(BOB, "hand", json!([]), json!({}))).await;
    assert_eq!(hand["data"]["flags"], 64);
    let text = hand["data"]["content"].as_str().unwrap();
    assert!(text.contains("https://colosseum.example/m/"), "{text}");
    let token = text
        .split("#seat=")
        .nth(1)
        .expect("a seat link")
        .trim()
        .to_string();
    let id = text
        .split("/m/")
        .nth(1)
        .unwrap()
        .split('#')
        .next()
        .unwrap()
        .to_string();
    play(&s, &app, ANN, 0, None).await;
    let (status, st) = s
        .call("GET", &format!("/api/matches/{id}"), Some(&token), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    let decision = st["decision"].as_u64().unwrap();
    let mv = st["legal_moves"][0].as_str().unwrap().to_string();
    let (status, body) = s
        .call(
            "POST",
            &format!("/api/matches/{id}/submit"),
            Some(&token),
            Some(json!({"move": mv, "decision": decision})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Ann's move was locked from Discord: Bob's submission over HTTP reveals the round.
    assert_eq!(body["decision"].as_u64().unwrap(), decision + 2, "{body}");
    // Round 3 (the last card each): back on Discord, the prompt continues.
    play(&s, &app, ANN, 0, None).await;
    let (_, bob) = interact(&s, &app, &press(BOB, "move", None)).await;
    if bob["data"]["components"]
        .as_array()
        .is_some_and(|c| !c.is_empty())
    {
        play(&s, &app, BOB, 0, None).await;
    }
    let posts = wait_for(&calls, |c| {
        c.iter()
            .any(|c| content(c).contains("wins") || content(c).contains("draw"))
    })
    .await;
    let reveals = posts
        .iter()
        .filter(|c| content(c).contains("Ann played"))
        .count();
    assert_eq!(reveals, 3, "every reveal posted: {posts:#?}");
    // The result carries no button.
    assert_eq!(posts.last().unwrap().body["components"], json!([]));
    let last = content(posts.last().unwrap());
    assert!(
        last.contains("wins") || last.contains("draw"),
        "the result is last: {last}"
    );
    // Over: nothing left to decide.
    let (_, over) = interact(&s, &app, &press(ANN, "move", None)).await;
    assert_eq!(over["data"]["flags"], 64);
}

/// Ann challenges Bob to Goofspiel (cards=3) in channel 7 and Bob accepts.
async fn started(s: &Server, app: &App) {
    let resolved =
        json!({"users": {"200": {"id": "200", "username": "bob", "global_name": "Bob"}}});
    let (_, created) = interact(
        s,
        app,
        &slash(
            ANN,
            "new",
            json!([{"name": "game", "type": 3, "value": "goofspiel"},
                   {"name": "opponent", "type": 6, "value": "200"},
                   {"name": "seed", "type": 3, "value": "ann-own-words-1234"},
                   {"name": "options", "type": 3, "value": "cards=3"}]),
            resolved,
        ),
    )
    .await;
    assert_eq!(created["type"], 4, "{created}");
    let (_, joined) = interact(
        s,
        app,
        &slash(
            BOB,
            "join",
            json!([{"name": "seed", "type": 3, "value": "bob.words.5678.xyz"}]),
            json!({}),
        ),
    )
    .await;
    assert!(
        joined["data"]["content"]
            .as_str()
            .unwrap()
            .contains("begins"),
        "{joined}"
    );
}

#[tokio::test]
async fn a_non_player_is_refused_everything_and_a_resignation_is_posted() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    started(&s, &app).await;
    // Cy tries every player's action, a forged Confirm included: refused privately, nothing
    // changes.
    for interaction in [
        slash(CY, "move", json!([]), json!({})),
        slash(CY, "hand", json!([]), json!({})),
        slash(CY, "resign", json!([]), json!({})),
        press(CY, "move", None),
        press(CY, "pick:1:0", Some("1")),
        press(CY, "confirm:1:1", None),
    ] {
        let (status, answer) = interact(&s, &app, &interaction).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(answer["data"]["flags"], 64, "{answer}");
        let text = answer["data"]["content"].as_str().unwrap();
        assert!(text.contains("not a player"), "{text}");
        assert!(!text.contains("#seat="), "no link to a non-player: {text}");
    }
    // Bob's prompt shows all three cards: Cy's forged Confirm took none.
    let (_, prompt) = interact(&s, &app, &press(BOB, "move", None)).await;
    assert_eq!(select(&prompt).1, ["1", "2", "3"]);
    // A refusal in a channel without a match.
    let mut elsewhere = press(ANN, "move", None);
    elsewhere["channel_id"] = json!("8");
    let (_, none) = interact(&s, &app, &elsewhere).await;
    assert!(
        none["data"]["content"]
            .as_str()
            .unwrap()
            .contains("no Colosseum match"),
        "{none}"
    );
    // Bob resigns: said in the channel, and the result posted with names.
    let (_, resigned) = interact(&s, &app, &slash(BOB, "resign", json!([]), json!({}))).await;
    assert!(resigned["data"]["flags"].is_null(), "public: {resigned}");
    assert_eq!(resigned["data"]["content"], "Bob resigns.");
    let posts = wait_for(&calls, |c| {
        c.iter().any(|c| content(c).contains("Ann wins"))
    })
    .await;
    assert!(
        posts.iter().all(|c| !content(c).contains("p2")),
        "{posts:#?}"
    );
}

#[tokio::test]
async fn a_timeout_is_announced_with_the_name_of_who_ran_out() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    started(&s, &app).await;
    play(&s, &app, ANN, 0, None).await;
    // Bob lets his time run out (the game's default clock): the host plays for him.
    s.clock.advance(25 * 60 * 60 * 1000);
    s.hub.tick_all().await.unwrap();
    let posts = wait_for(&calls, |c| c.iter().any(|c| content(c).contains("ran out"))).await;
    let text = content(
        posts
            .iter()
            .find(|c| content(c).contains("ran out"))
            .unwrap(),
    );
    assert!(text.contains("Ann played 1"), "{text}");
    assert!(
        text.contains("Bob ran out of time, and the host played"),
        "{text}"
    );
}

#[tokio::test]
async fn a_restart_keeps_the_channels_match_and_its_posts() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let (dir, db) = common::temp_db("discord-restart", "m.db");
    let state = dir.join("discord.json");
    let config = |app: &App| {
        Config::new(
            "1234567890",
            &app.public_hex(),
            "bot-token-xyz",
            Some(&base),
        )
        .unwrap()
        .with_state_file(state.clone())
        .unwrap()
        .leak()
    };
    let limits = Limits {
        discord: Some(config(&app)),
        ..open_limits()
    };
    let s = common::server_on_store(
        colosseum_server::SqliteStore::open(&db).unwrap(),
        limits,
        false,
    );
    started(&s, &app).await;
    play(&s, &app, ANN, 0, None).await;
    play(&s, &app, BOB, 0, None).await;
    wait_for(&calls, |c| {
        c.iter().any(|c| content(c).contains("Ann played"))
    })
    .await;
    drop(s);

    // A new process: the bindings come back from the state file, the match from the store.
    let limits = Limits {
        discord: Some(config(&app)),
        ..open_limits()
    };
    let s = common::server_on_store(
        colosseum_server::SqliteStore::open(&db).unwrap(),
        limits,
        false,
    );
    assert_eq!(s.hub.resume().await.unwrap(), 1);
    // Cy is still not a player; Ann and Bob still are.
    let (_, refused) = interact(&s, &app, &press(CY, "move", None)).await;
    assert!(refused["data"]["content"]
        .as_str()
        .unwrap()
        .contains("not a player"));
    play(&s, &app, ANN, 0, None).await;
    play(&s, &app, BOB, 0, None).await;
    wait_for(&calls, |c| {
        c.iter()
            .filter(|c| content(c).contains("Ann played"))
            .count()
            >= 2
    })
    .await;
    // Round 1's post is not posted again; round 2's is.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let posts = calls.lock().unwrap().clone();
    let reveals: Vec<&str> = posts
        .iter()
        .map(content)
        .filter(|c| c.contains("Ann played"))
        .collect();
    assert_eq!(reveals.len(), 2, "{reveals:#?}");
    assert_ne!(reveals[0], reveals[1]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn channel_posts_wait_out_discords_429_and_arrive_in_order() {
    let app = App::new();
    let (base, calls, given) = stand_in_limited(3).await;
    let s = server(&app, &base);
    started(&s, &app).await;
    for _ in 0..2 {
        play(&s, &app, ANN, 0, None).await;
        play(&s, &app, BOB, 0, None).await;
    }
    let (_, bob) = interact(&s, &app, &press(BOB, "move", None)).await;
    if bob["data"]["components"]
        .as_array()
        .is_some_and(|c| !c.is_empty())
    {
        play(&s, &app, ANN, 0, None).await;
        play(&s, &app, BOB, 0, None).await;
    }
    let posts = wait_for(&calls, |c| {
        c.iter()
            .any(|c| content(c).contains("A draw") || content(c).contains("wins"))
    })
    .await;
    assert!(
        given.load(std::sync::atomic::Ordering::SeqCst) >= 3,
        "the 429s were given"
    );
    let texts: Vec<&str> = posts.iter().map(content).collect();
    assert_eq!(
        texts.len(),
        4,
        "three reveals and the result, none lost: {texts:#?}"
    );
    for (i, card) in ["1", "2", "3"].into_iter().enumerate() {
        assert!(
            texts[i].contains(&format!("Ann played {card}")),
            "in order: {texts:#?}"
        );
    }
}

#[tokio::test]
async fn every_games_first_prompt_offers_exactly_the_seats_legal_moves_or_sends_to_the_web_table() {
    let app = App::new();
    let (base, _calls) = stand_in().await;
    let s = server(&app, &base);
    let resolved =
        json!({"users": {"200": {"id": "200", "username": "bob", "global_name": "Bob"}}});
    // Every game at its defaults, and Thwart Omega on a 4x4 board: 240 moves, listed in the
    // state (at most 400) but too many for four menus of 25.
    let cases = colosseum_games::registry()
        .iter()
        .map(|g| (g, ""))
        .chain([(colosseum_games::find("thwart-omega").unwrap(), "size=4")]);
    for (n, (game, options)) in cases.enumerate() {
        let channel = format!("{}", 1000 + n);
        let at = |mut v: Value| {
            v["channel_id"] = json!(channel);
            v
        };
        let (_, created) = interact(
            &s,
            &app,
            &at(slash(
                ANN,
                "new",
                json!([{"name": "game", "type": 3, "value": game.id},
                       {"name": "opponent", "type": 6, "value": "200"},
                       {"name": "seed", "type": 3, "value": "ann-own-words-1234"},
                       {"name": "options", "type": 3, "value": options}]),
                resolved.clone(),
            )),
        )
        .await;
        assert_eq!(created["type"], 4, "{}: {created}", game.id);
        interact(
            &s,
            &app,
            &at(slash(
                BOB,
                "join",
                json!([{"name": "seed", "type": 3, "value": "bob.words.5678.xyz"}]),
                json!({}),
            )),
        )
        .await;
        for who in [ANN, BOB] {
            let (_, hand) = interact(&s, &app, &at(slash(who, "hand", json!([]), json!({})))).await;
            let text = hand["data"]["content"].as_str().unwrap();
            let token = text.split("#seat=").nth(1).unwrap().trim().to_string();
            let id = text.split("/m/").nth(1).unwrap().split('#').next().unwrap();
            let (_, st) = s
                .call("GET", &format!("/api/matches/{id}"), Some(&token), None)
                .await;
            let seat = st["you"].as_str().unwrap();
            if st["match"]["seats"][seat]["to_act"] != true {
                continue;
            }
            let (_, prompt) = interact(&s, &app, &at(press(who, "move", None))).await;
            let offered: Vec<String> = prompt["data"]["components"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|row| row["components"].as_array().unwrap().iter())
                .filter(|c| c["type"] == 3)
                .flat_map(|menu| menu["options"].as_array().unwrap().iter())
                .map(|o| o["value"].as_str().unwrap().to_string())
                .collect();
            let legal: Vec<String> = st["legal_moves"]
                .as_array()
                .map(|m| m.iter().map(|v| v.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            if !options.is_empty() {
                assert!(legal.len() > 100 && legal.len() <= 400, "{}", legal.len());
            }
            assert!(
                prompt["data"]["components"].as_array().unwrap().len() <= 5,
                "{}: at most 5 rows",
                game.id
            );
            if !legal.is_empty() && legal.len() <= 100 && legal.iter().all(|m| m.len() <= 80) {
                assert_eq!(offered, legal, "{}: the seat's legal moves", game.id);
            } else {
                assert!(
                    offered.is_empty(),
                    "{}: {} moves offered",
                    game.id,
                    offered.len()
                );
                let text = prompt["data"]["content"].as_str().unwrap();
                assert!(text.contains("web table"), "{}: {text}", game.id);
            }
        }
    }
}

/// A form (modal) submitted by `member` in channel `channel`.
fn form(member: (&str, &str), channel: &str, custom_id: &str, value: &str) -> Value {
    json!({"id": "11", "type": 5, "token": "t", "guild_id": "42", "channel_id": channel,
           "member": {"user": {"id": member.0, "username": member.1.to_lowercase(),
                               "global_name": member.1}},
           "message": {"id": "56", "flags": 64},
           "data": {"custom_id": custom_id,
                    "components": [{"type": 1, "components": [
                        {"type": 4, "custom_id": "move", "value": value}]}]}})
}

#[tokio::test]
async fn too_many_moves_for_menus_are_typed_in_a_form_and_confirmed() {
    let app = App::new();
    let (base, _calls) = stand_in().await;
    let s = server(&app, &base);
    let resolved =
        json!({"users": {"200": {"id": "200", "username": "bob", "global_name": "Bob"}}});
    let (_, created) = interact(
        &s,
        &app,
        &slash(
            ANN,
            "new",
            json!([{"name": "game", "type": 3, "value": "thwart-omega"},
                   {"name": "opponent", "type": 6, "value": "200"},
                   {"name": "seed", "type": 3, "value": "ann-own-words-1234"},
                   {"name": "options", "type": 3, "value": "size=4"}]),
            resolved,
        ),
    )
    .await;
    assert_eq!(created["type"], 4, "{created}");
    interact(
        &s,
        &app,
        &slash(
            BOB,
            "join",
            json!([{"name": "seed", "type": 3, "value": "bob.words.5678.xyz"}]),
            json!({}),
        ),
    )
    .await;
    let (_, prompt) = interact(&s, &app, &press(ANN, "move", None)).await;
    let button = &prompt["data"]["components"][0]["components"][0];
    assert_eq!(button["label"], "Type your move", "{prompt}");
    let type_id = button["custom_id"].as_str().unwrap().to_string();
    let decision: u64 = type_id.strip_prefix("type:").unwrap().parse().unwrap();
    let (_, modal) = interact(&s, &app, &press(ANN, &type_id, None)).await;
    assert_eq!(modal["type"], 9, "a form: {modal}");
    let typed_id = modal["data"]["custom_id"].as_str().unwrap().to_string();
    assert_eq!(modal["data"]["components"][0]["components"][0]["type"], 4);
    // A move that is not legal: previewed, then refused at Confirm; nothing is submitted.
    let (_, preview) = interact(&s, &app, &form(ANN, "7", &typed_id, "B z9 W y8")).await;
    let (_, refused) = interact(&s, &app, &press(ANN, &confirm_id(&preview), None)).await;
    assert_eq!(refused["data"]["flags"], 64, "{refused}");
    assert!(
        !refused["data"]["content"]
            .as_str()
            .unwrap()
            .contains("is in"),
        "{refused}"
    );
    // A legal move (the seat's own legal list over HTTP): previewed, confirmed, submitted.
    let (_, hand) = interact(&s, &app, &slash(ANN, "hand", json!([]), json!({}))).await;
    let text = hand["data"]["content"].as_str().unwrap();
    let token = text.split("#seat=").nth(1).unwrap().trim().to_string();
    let id = text
        .split("/m/")
        .nth(1)
        .unwrap()
        .split('#')
        .next()
        .unwrap()
        .to_string();
    let (_, st) = s
        .call("GET", &format!("/api/matches/{id}"), Some(&token), None)
        .await;
    let mv = st["legal_moves"][5].as_str().unwrap().to_string();
    let (_, preview) = interact(&s, &app, &form(ANN, "7", &typed_id, &mv)).await;
    assert_eq!(preview["type"], 7, "{preview}");
    assert!(preview["data"]["content"]
        .as_str()
        .unwrap()
        .contains(&format!("You chose {mv}")));
    let (_, done) = interact(&s, &app, &press(ANN, &confirm_id(&preview), None)).await;
    assert!(
        done["data"]["content"]
            .as_str()
            .unwrap()
            .contains(&format!("Your move {mv} is in")),
        "{done}"
    );
    let (_, st) = s
        .call("GET", &format!("/api/matches/{id}"), Some(&token), None)
        .await;
    assert_eq!(
        st["match"]["seats"]["p1"]["submission"],
        mv.as_str(),
        "{st}"
    );
    assert_eq!(st["decision"], decision);
}

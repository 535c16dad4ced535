//! The Discord harness the server's Discord tests share: the application's key pair (made by
//! the test, as the Developer Portal makes Discord's) signing each interaction as Discord does
//! (`X-Signature-Ed25519` over `X-Signature-Timestamp` + body), a local stand-in for Discord's
//! API recording every call the application makes, and the members' interactions.

use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, Request, StatusCode, Uri};
use axum::Router;
use colosseum_server::discord::Config;
use colosseum_server::Limits;
use http_body_util::BodyExt;
use ring::signature::{Ed25519KeyPair, KeyPair};
use serde_json::{json, Value};
use tower::ServiceExt;

use super::{open_limits, server_with, Server, T0};

/// The application's key pair, made by the test as the Developer Portal makes Discord's.
pub struct App {
    pub keys: Ed25519KeyPair,
}

impl App {
    pub fn new() -> App {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng).unwrap();
        App {
            keys: Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap(),
        }
    }

    pub fn public_hex(&self) -> String {
        hex(self.keys.public_key().as_ref())
    }

    /// The settings `serve --discord-*` would make, pointed at `api_base`.
    pub fn config(&self, api_base: &str) -> &'static Config {
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
    pub fn sign(&self, timestamp: &str, body: &str) -> String {
        let mut signed = timestamp.as_bytes().to_vec();
        signed.extend_from_slice(body.as_bytes());
        hex(self.keys.sign(&signed).as_ref())
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The manual clock's now in Unix seconds (the server checks timestamps against its clock).
pub const NOW: u64 = T0 / 1000;

/// A server with the Discord application `app`, its API at `api_base`.
pub fn server(app: &App, api_base: &str) -> Server {
    server_with(Limits {
        discord: Some(app.config(api_base)),
        ..open_limits()
    })
}

/// Posts `body` to the interactions endpoint with the given signature headers; the answer.
pub async fn post(
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
pub async fn interact(s: &Server, app: &App, interaction: &Value) -> (StatusCode, Value) {
    let body = interaction.to_string();
    let ts = (s.hub.now() / 1000).to_string();
    post(s, Some(&app.sign(&ts, &body)), Some(&ts), &body).await
}
/// One call the application made to the stand-in.
#[derive(Clone)]
pub struct Call {
    pub method: Method,
    pub path: String,
    pub authorization: Option<String>,
    /// The JSON body, or a multipart body's `payload_json` part.
    pub body: Value,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The body as it came.
    pub raw: Bytes,
    /// A multipart body's parts: (name, filename, content type, bytes).
    pub parts: Vec<Part>,
}

impl std::fmt::Debug for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The body's bytes (a PNG) by their length only.
        f.debug_struct("Call")
            .field("method", &self.method)
            .field("path", &self.path)
            .field("authorization", &self.authorization)
            .field("body", &self.body)
            .field("content_type", &self.content_type)
            .field("raw", &format_args!("{} bytes", self.raw.len()))
            .field("parts", &self.parts)
            .finish()
    }
}

/// One part of a `multipart/form-data` body.
#[derive(Clone)]
pub struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Part")
            .field("name", &self.name)
            .field("filename", &self.filename)
            .field("content_type", &self.content_type)
            .field("bytes", &format_args!("{} bytes", self.bytes.len()))
            .finish()
    }
}

/// The parts of a `multipart/form-data` body with `boundary` (RFC 7578), as Discord reads
/// them; panics on a body that is not well formed.
pub fn multipart(body: &[u8], boundary: &str) -> Vec<Part> {
    let delimiter = format!("--{boundary}");
    let find = |hay: &[u8], needle: &[u8], from: usize| {
        hay[from..]
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|i| i + from)
    };
    let mut parts = Vec::new();
    let mut at = find(body, delimiter.as_bytes(), 0).expect("a first boundary");
    loop {
        at += delimiter.len();
        if body[at..].starts_with(b"--") {
            return parts;
        }
        assert!(body[at..].starts_with(b"\r\n"), "CRLF after the boundary");
        at += 2;
        let head_end = find(body, b"\r\n\r\n", at).expect("a part's headers end");
        let head = String::from_utf8(body[at..head_end].to_vec()).expect("text headers");
        let next = find(body, format!("\r\n{delimiter}").as_bytes(), head_end + 4)
            .expect("a boundary after the part");
        let mut part = Part {
            name: String::new(),
            filename: None,
            content_type: None,
            bytes: body[head_end + 4..next].to_vec(),
        };
        for line in head.split("\r\n") {
            let (key, value) = line.split_once(':').expect("a header");
            match key.trim().to_ascii_lowercase().as_str() {
                "content-disposition" => {
                    for field in value.split(';').map(str::trim) {
                        if let Some(v) = field.strip_prefix("name=") {
                            part.name = v.trim_matches('"').to_string();
                        } else if let Some(v) = field.strip_prefix("filename=") {
                            part.filename = Some(v.trim_matches('"').to_string());
                        }
                    }
                }
                "content-type" => part.content_type = Some(value.trim().to_string()),
                _ => {}
            }
        }
        parts.push(part);
        at = next + 2;
    }
}

/// The stand-in for Discord's API: records every call and answers 200 with the body it got.
pub async fn stand_in() -> (String, Arc<Mutex<Vec<Call>>>) {
    let (base, calls, _) = stand_in_limited(0).await;
    (base, calls)
}

/// The stand-in, answering the first `limited` channel posts 429 with Discord's rate-limit body
/// (`retry_after` 0.05 s); the third value counts the 429s given.
pub async fn stand_in_limited(
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

/// How [`stand_in_paced`] answers the channel posts.
#[derive(Default)]
pub struct Pace {
    /// While set, every channel post is answered 503 (and not recorded).
    pub refuse: std::sync::atomic::AtomicBool,
    /// Every `limit_every`-th channel post is answered 429 with `retry_after` (0: none).
    pub limit_every: usize,
    /// The 429s' `retry_after`, seconds.
    pub retry_after: f64,
    /// Each post taken is answered `X-RateLimit-Remaining: 0` with this
    /// `X-RateLimit-Reset-After` (seconds), as Discord's bucket does when it is empty.
    pub reset_after: Option<f64>,
    /// Channel posts that came (answered or not).
    pub seen: std::sync::atomic::AtomicUsize,
    /// 429s given.
    pub limited: std::sync::atomic::AtomicUsize,
    /// 503s given.
    pub refused: std::sync::atomic::AtomicUsize,
}

/// The stand-in answering channel posts at Discord's pace as `pace` says; it records the posts
/// it takes (not those it refuses or rate-limits).
pub async fn stand_in_paced(pace: Arc<Pace>) -> (String, Arc<Mutex<Vec<Call>>>) {
    use axum::response::IntoResponse;
    let calls = Arc::new(Mutex::new(Vec::new()));
    let recorded = calls.clone();
    let router = Router::new().fallback(
        move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
            let calls = recorded.clone();
            let pace = pace.clone();
            async move {
                use std::sync::atomic::Ordering;
                if !uri.path().contains("/channels/") {
                    return any(State(calls), method, uri, headers, body)
                        .await
                        .into_response();
                }
                let n = pace.seen.fetch_add(1, Ordering::SeqCst) + 1;
                if pace.refuse.load(Ordering::SeqCst) {
                    pace.refused.fetch_add(1, Ordering::SeqCst);
                    return (StatusCode::SERVICE_UNAVAILABLE, "down").into_response();
                }
                if pace.limit_every > 0 && n.is_multiple_of(pace.limit_every) {
                    pace.limited.fetch_add(1, Ordering::SeqCst);
                    return (
                        StatusCode::TOO_MANY_REQUESTS,
                        [("content-type", "application/json")],
                        json!({"message": "You are being rate limited.",
                               "retry_after": pace.retry_after, "global": false})
                        .to_string(),
                    )
                        .into_response();
                }
                let mut answer = any(State(calls), method, uri, headers, body)
                    .await
                    .into_response();
                if let Some(reset) = pace.reset_after {
                    let h = answer.headers_mut();
                    h.insert("x-ratelimit-limit", "5".parse().unwrap());
                    h.insert("x-ratelimit-remaining", "0".parse().unwrap());
                    h.insert(
                        "x-ratelimit-reset-after",
                        format!("{reset}").parse().unwrap(),
                    );
                    h.insert("x-ratelimit-bucket", "channel-bucket".parse().unwrap());
                }
                answer
            }
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("http://{addr}/api/v10"), calls)
}

pub async fn any(
    State(calls): State<Arc<Mutex<Vec<Call>>>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> (StatusCode, String) {
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let boundary = content_type
        .as_deref()
        .filter(|t| t.starts_with("multipart/form-data"))
        .and_then(|t| t.split("boundary=").nth(1))
        .map(|b| b.trim_matches('"').to_string());
    let parts = boundary.map(|b| multipart(&body, &b)).unwrap_or_default();
    let json: Value = match parts.iter().find(|p| p.name == "payload_json") {
        Some(p) => serde_json::from_slice(&p.bytes).unwrap_or(Value::Null),
        None => serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    calls.lock().unwrap().push(Call {
        method,
        path: uri.path().to_string(),
        authorization: headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
        body: json.clone(),
        content_type,
        raw: body,
        parts,
    });
    (StatusCode::OK, json.to_string())
}
/// A slash command `/colosseum SUB` by `member` in channel 7 of guild 42.
pub fn slash(member: (&str, &str), sub: &str, options: Value, resolved: Value) -> Value {
    json!({"id": "9", "type": 2, "token": "t", "guild_id": "42", "channel_id": "7",
           "member": {"user": {"id": member.0, "username": member.1.to_lowercase(),
                               "global_name": member.1}},
           "data": {"name": "colosseum", "type": 1, "resolved": resolved,
                    "options": [{"name": sub, "type": 1, "options": options}]}})
}

/// A component interaction (button or select) by `member` on a message in channel 7.
pub fn press(member: (&str, &str), custom_id: &str, values: Option<&str>) -> Value {
    let mut data = json!({"custom_id": custom_id, "component_type": 2});
    if let Some(v) = values {
        data = json!({"custom_id": custom_id, "component_type": 3, "values": [v]});
    }
    json!({"id": "10", "type": 3, "token": "t", "guild_id": "42", "channel_id": "7",
           "member": {"user": {"id": member.0, "username": member.1.to_lowercase(),
                               "global_name": member.1}},
           "message": {"id": "55", "flags": 64}, "data": data})
}

pub const ANN: (&str, &str) = ("100", "Ann");
pub const BOB: (&str, &str) = ("200", "Bob");
pub const CY: (&str, &str) = ("300", "Cy");

/// The select menu's custom id and options of an ephemeral prompt.
pub fn select(prompt: &Value) -> (String, Vec<String>) {
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
pub async fn play(s: &Server, app: &App, who: (&str, &str), first: usize, then: Option<usize>) {
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

pub fn confirm_id(prompt: &Value) -> String {
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

/// Waits (real time, up to two minutes: a loaded machine is slow, and a post that matches ends
/// the wait at once) until the stand-in got a post matching `done`.
pub async fn wait_for(calls: &Arc<Mutex<Vec<Call>>>, done: impl Fn(&[Call]) -> bool) -> Vec<Call> {
    for _ in 0..4_800 {
        let got = calls.lock().unwrap().clone();
        if done(&got) {
            return got;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("not posted: {:#?}", calls.lock().unwrap());
}

pub fn content(c: &Call) -> &str {
    c.body["content"].as_str().unwrap_or_default()
}
/// Ann challenges Bob to Goofspiel (cards=3) in channel 7 and Bob accepts.
pub async fn started(s: &Server, app: &App) {
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
/// A form (modal) submitted by `member` in channel `channel`.
pub fn form(member: (&str, &str), channel: &str, custom_id: &str, value: &str) -> Value {
    json!({"id": "11", "type": 5, "token": "t", "guild_id": "42", "channel_id": channel,
           "member": {"user": {"id": member.0, "username": member.1.to_lowercase(),
                               "global_name": member.1}},
           "message": {"id": "56", "flags": 64},
           "data": {"custom_id": custom_id,
                    "components": [{"type": 1, "components": [
                        {"type": 4, "custom_id": "move", "value": value}]}]}})
}

//! The WebSocket of a match: a live view for a seat or a spectator, and the same actions as
//! the HTTP commands (`docs/server-api.md`, "WebSocket").

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use colosseum_engine::Viewer;
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};

use super::extract::{bearer, client_of};
use crate::error::{ApiError, ErrorCode};
use crate::hub::{Action, Hub, Table};
use crate::rate::Bucket;
use crate::state::AppState;
use crate::store::Store;

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

#[derive(Deserialize)]
pub(super) struct TokenQuery {
    #[serde(default)]
    token: Option<String>,
    /// `?delta=1`: the connection is sent `delta` messages after its first full state
    /// (`docs/server-api.md`, "Delta states").
    #[serde(default)]
    delta: Option<String>,
}

pub(super) async fn ws<S: Store>(
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

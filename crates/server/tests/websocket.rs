//! The WebSocket over loopback: two seats and a spectator on one match.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use colosseum_server::hub::CreateMatch;
use colosseum_server::{Hub, Limits, SqliteStore};
use common::server_with;
use common::ws::{connect, join_both, next, reply, send, socket, until};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// A server with the default limits on loopback.
async fn start() -> (SocketAddr, Arc<Hub<SqliteStore>>) {
    let s = server_with(Limits::default());
    (s.listen().await, s.hub)
}

#[tokio::test]
async fn seats_and_a_spectator_play_and_watch_over_websocket() {
    let (addr, hub) = start().await;
    let created = hub
        .create(
            serde_json::from_value::<CreateMatch>(
                json!({"game": "goofspiel", "options": {"cards": "3", "order": "ascending"}}),
            )
            .unwrap(),
        )
        .await
        .unwrap();
    let id = created.id.clone();
    let [t1, t2] = created.tokens.clone().map(Option::unwrap);
    let mut p1 = connect(addr, &id, Some(&t1)).await;
    let mut p2 = connect(addr, &id, Some(&t2)).await;
    let mut watcher = connect(addr, &id, None).await;
    for ws in [&mut p1, &mut p2, &mut watcher] {
        let first = next(ws).await;
        assert_eq!(first["status"], "waiting");
    }
    join_both([&mut p1, &mut p2], ["Ann", "Bo"]).await;
    let live = until(&mut watcher, |v| v["status"] == "live").await;
    assert_eq!(live["names"]["p1"], "Ann");
    assert_eq!(live["you"], Value::Null);

    let d = live["decision"].clone();
    assert!(d.is_u64(), "{live}");
    send(
        &mut p1,
        json!({"type": "submit", "move": "2", "decision": d}),
    )
    .await;
    let ok = until(&mut p1, |v| v["type"] == "ok" && v["to"] == "submit").await;
    assert_eq!(ok["to"], "submit");
    // p2 and the spectator learn that p1 submitted, not what.
    for ws in [&mut p2, &mut watcher] {
        let v = until(ws, |v| v["match"]["seats"]["p1"]["submitted"] == true).await;
        assert!(v["match"]["seats"]["p1"].get("submission").is_none(), "{v}");
        assert!(!v.to_string().contains("\"submission\""), "{v}");
    }
    // p2 submits: everyone sees the reveal.
    send(
        &mut p2,
        json!({"type": "submit", "move": "1", "decision": d}),
    )
    .await;
    let mut d = Value::Null;
    for ws in [&mut p1, &mut p2, &mut watcher] {
        let v = until(ws, |v| {
            v["match"]["view"]["turns"]
                .as_array()
                .is_some_and(|t| t.len() == 1)
        })
        .await;
        d = v["decision"].clone();
        assert_eq!(v["match"]["view"]["turns"][0]["p1"], 2);
        assert_eq!(v["match"]["view"]["turns"][0]["p2"], 1);
    }
    // A spectator cannot act; a malformed message gets an explanation; ping gets pong.
    send(
        &mut watcher,
        json!({"type": "submit", "move": "1", "decision": d}),
    )
    .await;
    let e = until(&mut watcher, |v| v["type"] == "error").await;
    assert_eq!(e["error"]["code"], "forbidden");
    watcher
        .send(Message::Text("{not json".into()))
        .await
        .unwrap();
    let e = until(&mut watcher, |v| v["type"] == "error").await;
    assert_eq!(e["error"]["code"], "bad_request");
    assert!(e["error"]["message"].as_str().unwrap().contains("submit"));
    send(&mut watcher, json!({"type": "ping"})).await;
    until(&mut watcher, |v| v["type"] == "pong").await;
    // An illegal move: refused with the game's reason, to that seat.
    send(
        &mut p1,
        json!({"type": "submit", "move": "2", "decision": d}),
    )
    .await;
    let e = until(&mut p1, |v| v["type"] == "error").await;
    assert_eq!(e["error"]["code"], "illegal_move", "{e}");
    // An oversized message closes the connection; the match is untouched.
    let huge = json!({"type": "submit", "move": "1".repeat(100_000)});
    let _ = p2.send(Message::Text(huge.to_string().into())).await;
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match p2.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .unwrap();
    assert!(closed);
    let v = hub
        .state(
            &hub.table(&id).await.unwrap(),
            colosseum_engine::Viewer::Spectator,
        )
        .await;
    assert_eq!(v["status"], "live");
}

#[tokio::test]
async fn a_wrong_token_cannot_open_a_socket() {
    let (addr, hub) = start().await;
    let created = hub
        .create(serde_json::from_value::<CreateMatch>(json!({"game": "goofspiel"})).unwrap())
        .await
        .unwrap();
    let url = format!(
        "ws://{addr}/api/matches/{}/ws?token=0123456789abcdef0123456789abcdef",
        created.id
    );
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => assert_eq!(res.status(), 403),
        other => panic!("expected 403, got {other:?}"),
    }
}

#[tokio::test]
async fn a_connection_that_floods_is_rate_limited() {
    let (addr, hub) = start().await;
    let created = hub
        .create(serde_json::from_value::<CreateMatch>(json!({"game": "goofspiel"})).unwrap())
        .await
        .unwrap();
    let mut ws = connect(addr, &created.id, None).await;
    next(&mut ws).await;
    for _ in 0..100 {
        send(&mut ws, json!({"type": "ping"})).await;
    }
    let mut pongs = 0;
    let mut limited = 0;
    for _ in 0..100 {
        let v = next(&mut ws).await;
        match v["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") if v["error"]["code"] == "rate_limited" => limited += 1,
            _ => {}
        }
    }
    assert!(
        limited > 0 && pongs >= 30,
        "{pongs} pongs, {limited} refused"
    );
}

/// `serve_socket` without a network: the socket's halves are channels.
#[tokio::test]
async fn the_socket_logic_runs_over_channels() {
    use axum::extract::ws::Message as AxumMessage;
    use colosseum_engine::{Seat, Viewer};

    let s = server_with(Limits::default());
    let created = s
        .hub
        .create(
            serde_json::from_value::<CreateMatch>(
                json!({"game": "goofspiel", "options": {"cards": "3"}}),
            )
            .unwrap(),
        )
        .await
        .unwrap();
    let table = s.hub.table(&created.id).await.unwrap();
    let (to_server, mut from_server, task) = socket(&s.state, &table, Viewer::Seat(Seat::P1));

    let recv = |rx: &mut tokio::sync::mpsc::UnboundedReceiver<AxumMessage>| {
        let msg = rx.try_recv();
        msg.ok().map(|m| match m {
            AxumMessage::Text(t) => serde_json::from_str::<Value>(&t).unwrap(),
            other => panic!("{other:?}"),
        })
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    let first = recv(&mut from_server).expect("the state at once");
    assert_eq!(first["you"], "p1");
    to_server
        .send(AxumMessage::Text(
            json!({"type": "join", "client_seed_hash": common::seed_hash("seed-from-a-channel")})
                .to_string()
                .into(),
        ))
        .unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut seen = Vec::new();
    while let Some(v) = recv(&mut from_server) {
        seen.push(v);
    }
    assert!(
        seen.iter().any(|v| v["type"] == "ok" && v["to"] == "join"),
        "{seen:?}"
    );
    assert!(seen.iter().any(|v| v["joined"]["p1"] == true), "{seen:?}");
    // Closing the client's side ends the connection.
    drop(to_server);
    tokio::time::timeout(Duration::from_secs(5), task)
        .await
        .unwrap()
        .unwrap();
}

/// A state is rendered once per viewer kind and change (`colosseum_server::render`): every
/// connection of a kind shares the text; a change a kind cannot see keeps its content number
/// (its connections send nothing); the text is the HTTP state but for `server_now`.
#[tokio::test]
async fn a_state_is_rendered_once_per_viewer_kind_and_change() {
    use colosseum_engine::{Seat, Viewer};

    let s = server_with(Limits::default());
    let (_, table) = common::begin(
        &s.hub,
        json!({"game": "goofspiel", "options": {"cards": "3"}, "seed": 7}),
    )
    .await;
    let p1 = s.hub.state_rendered(&table, Viewer::Seat(Seat::P1)).await;
    let again = s.hub.state_rendered(&table, Viewer::Seat(Seat::P1)).await;
    assert!(Arc::ptr_eq(&p1.text, &again.text), "rendered twice");
    assert_eq!(p1.content, again.content);
    let p2 = s.hub.state_rendered(&table, Viewer::Seat(Seat::P2)).await;
    let watcher = s.hub.state_rendered(&table, Viewer::Spectator).await;
    assert_ne!(p1.content, p2.content);
    assert_ne!(p1.content, watcher.content);
    for (rendered, role) in [
        (&p1, Viewer::Seat(Seat::P1)),
        (&p2, Viewer::Seat(Seat::P2)),
        (&watcher, Viewer::Spectator),
    ] {
        let mut http = s.hub.state(&table, role).await;
        assert!(http["server_now"].is_u64());
        http.as_object_mut().unwrap().remove("server_now");
        let text: Value = serde_json::from_str(&rendered.text).unwrap();
        assert_eq!(text, http, "{role:?}");
        let sent: Value = serde_json::from_str(&colosseum_server::render::with_server_now(
            &rendered.text,
            5,
        ))
        .unwrap();
        assert_eq!(sent["server_now"], 5);
    }
    // The players' chat: the seats' states change, the spectators' does not.
    s.hub
        .chat(&table, Viewer::Seat(Seat::P1), None, "hello".into(), 100)
        .await
        .unwrap();
    let p1_after = s.hub.state_rendered(&table, Viewer::Seat(Seat::P1)).await;
    let watcher_after = s.hub.state_rendered(&table, Viewer::Spectator).await;
    assert_ne!(p1_after.content, p1.content);
    assert!(p1_after.text.contains("hello"));
    assert_eq!(watcher_after.content, watcher.content);
    assert!(!watcher_after.text.contains("hello"));
    // A move: every kind sees that p1 submitted.
    common::submit(&s.hub, &table, Seat::P1, "1").await;
    let watcher_moved = s.hub.state_rendered(&table, Viewer::Spectator).await;
    assert_ne!(watcher_moved.content, watcher.content);
    let v: Value = serde_json::from_str(&watcher_moved.text).unwrap();
    assert_eq!(v["match"]["seats"]["p1"]["submitted"], true);
}

/// The server reads a client's messages in pieces of 1 KiB (`read_buffer_size`): a message
/// several pieces long, sent as one frame, arrives whole and is answered, and the next one on
/// the same connection too.
#[tokio::test]
async fn a_message_longer_than_the_read_buffer_arrives_whole() {
    let (addr, hub) = start().await;
    let created = hub
        .create(serde_json::from_value::<CreateMatch>(json!({"game": "goofspiel"})).unwrap())
        .await
        .unwrap();
    let [t1, t2] = created.tokens.map(Option::unwrap);
    let mut p1 = connect(addr, &created.id, Some(&t1)).await;
    let mut p2 = connect(addr, &created.id, Some(&t2)).await;
    join_both([&mut p1, &mut p2], ["Ann", "Bo"]).await;
    let live = until(&mut p1, |v| v["status"] == "live").await;
    // 500 characters of three bytes each: 1,500 bytes of text in one frame.
    let long: String = "€".repeat(colosseum_host::MAX_CHAT_CHARS);
    let message = json!({"type": "chat", "text": long});
    assert!(message.to_string().len() > 1_400, "{message}");
    let ok = reply(&mut p1, message).await;
    assert_eq!(ok, json!({"type": "ok", "to": "chat"}));
    let seen = until(&mut p2, |v| {
        v["match"]["chat"].as_array().is_some_and(|c| !c.is_empty())
    })
    .await;
    assert_eq!(seen["match"]["chat"][0]["text"], long.as_str());
    let submit = json!({"type": "submit", "move": "13", "decision": live["decision"]});
    let ok = reply(&mut p1, submit).await;
    assert_eq!(ok, json!({"type": "ok", "to": "submit"}));
}

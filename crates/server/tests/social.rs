//! The table as people follow it, through the real router and WebSocket: the players' and the
//! spectators' chats kept apart (HTTP and WebSocket, limits, restart, record), the move log
//! with every step after a reload, the live Cauldron's finished races (a timeout, and one that
//! expired while the server was down), season questions about a resigned match, and waiting
//! matches leaving the lobby's list.

mod common;

use std::sync::Arc;

use axum::http::StatusCode;
use colosseum_engine::{Seat, Viewer};
use colosseum_server::hub::Action;
use colosseum_server::{Hub, Limits, ManualClock, SqliteStore};
use common::ws::{drain, socket};
use common::{begin, open_limits, server, server_with, temp_db, T0};
use serde_json::{json, Value};

fn chat_texts(state: &Value) -> Vec<String> {
    state["match"]["chat"]
        .as_array()
        .unwrap_or_else(|| panic!("no chat: {state}"))
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn seats_and_spectators_chat_apart_over_http() {
    let s = server();
    let (id, created) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(json!({"game": "thwart-omega", "time": {"kind": "untimed"}})),
        )
        .await;
    assert_eq!(id, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap().to_string();
    let t = [0, 1].map(|i| created["tokens"][i].as_str().unwrap().to_string());
    let chat = format!("/api/matches/{id}/chat");

    // Before both have joined, the chat is closed.
    let (st, body) = s
        .call("POST", &chat, Some(&t[0]), Some(json!({"text": "hi"})))
        .await;
    assert_eq!((st, code(&body)), (StatusCode::CONFLICT, "not_started"));
    for (token, name) in t.iter().zip(["Ann", "Bo"]) {
        s.join_token(&id, token, json!({"name": name})).await;
    }
    for token in &t {
        s.reveal_token(&id, token).await;
    }

    let (st, body) = s
        .call(
            "POST",
            &chat,
            Some(&t[0]),
            Some(json!({"text": "good luck"})),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(chat_texts(&body), ["good luck"]);
    assert_eq!(body["match"]["chat"][0]["name"], "Ann");
    assert_eq!(body["match"]["chat"][0]["seat"], "p1");
    assert_eq!(body["match"]["chat"][0]["channel"], "players");
    // A spectator (no token) writes under a name of its own.
    let (st, body) = s
        .call(
            "POST",
            &chat,
            None,
            Some(json!({"text": "<b>Ann</b>, play d4", "name": "Zed"})),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(chat_texts(&body), ["<b>Ann</b>, play d4"]);
    assert_eq!(body["match"]["chat"][0]["seat"], Value::Null);

    // Each side reads its own channel only.
    for token in &t {
        let v = s.state(&id, Some(token)).await;
        assert_eq!(chat_texts(&v), ["good luck"]);
        assert!(!v.to_string().contains("play d4"), "{v}");
    }
    let v = s.state(&id, None).await;
    assert_eq!(chat_texts(&v), ["<b>Ann</b>, play d4"]);
    assert!(!v.to_string().contains("good luck"), "{v}");

    // Bad messages are refused with what is allowed.
    for (token, body, want) in [
        (None, json!({"text": "hello"}), "name"),
        (
            None,
            json!({"text": "hello", "name": "ann"}),
            "player's name",
        ),
        (None, json!({"text": "hello", "name": "bot 1"}), "bot"),
        (Some(&t[1]), json!({"text": ""}), "1 to 500"),
        (Some(&t[1]), json!({"text": "x".repeat(501)}), "1 to 500"),
    ] {
        let (st, answer) = s
            .call("POST", &chat, token.map(String::as_str), Some(body))
            .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{answer}");
        assert!(
            answer["error"]["message"].as_str().unwrap().contains(want),
            "{answer}"
        );
    }
    let (st, answer) = s
        .call(
            "POST",
            &chat,
            Some("not-a-token"),
            Some(json!({"text": "x"})),
        )
        .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{answer}");

    // The match ends: the chat stays open for both (a "gg", a spectator's word), each channel
    // still read by its own side only, and the record carries both channels.
    s.post(&id, "resign", &t[1], json!({})).await;
    let (st, body) = s
        .call("POST", &chat, Some(&t[0]), Some(json!({"text": "gg"})))
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "finished", "{body}");
    assert_eq!(chat_texts(&body), ["good luck", "gg"]);
    let (st, body) = s
        .call(
            "POST",
            &chat,
            None,
            Some(json!({"text": "well played", "name": "Zed"})),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    assert_eq!(chat_texts(&body), ["<b>Ann</b>, play d4", "well played"]);
    let (_, seat_view) = s
        .call("GET", &format!("/api/matches/{id}"), Some(&t[1]), None)
        .await;
    assert_eq!(chat_texts(&seat_view), ["good luck", "gg"]);
    let (_, records) = s
        .call("GET", &format!("/api/matches/{id}/record"), None, None)
        .await;
    let lines = records["records"][0]["chat"].as_array().unwrap();
    let texts: Vec<&str> = lines.iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        ["good luck", "<b>Ann</b>, play d4", "gg", "well played"]
    );
    assert_eq!(lines[1]["channel"], "spectators");
    // The record with its chat is still a record `colosseum replay` reads.
    let record: colosseum_engine::Record =
        serde_json::from_value(records["records"][0].clone()).unwrap();
    assert!(colosseum_games::replay_record(&record).unwrap().is_ok());
}

#[tokio::test]
async fn chat_is_rate_limited_per_writer_and_capped_per_match() {
    let s = server_with(Limits {
        chat_per_minute: 6.0,
        chat_burst: 2.0,
        chat_max_lines: 5,
        ..open_limits()
    });
    let (id, t) = s
        .start(json!({"game": "goofspiel", "time": {"kind": "untimed"}}))
        .await;
    let t = t.map(Option::unwrap);
    let chat = format!("/api/matches/{id}/chat");
    for _ in 0..2 {
        let (st, body) = s
            .call("POST", &chat, Some(&t[0]), Some(json!({"text": "hi"})))
            .await;
        assert_eq!(st, StatusCode::OK, "{body}");
    }
    let (st, body) = s
        .call("POST", &chat, Some(&t[0]), Some(json!({"text": "hi"})))
        .await;
    assert_eq!(
        (st, code(&body)),
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
    );
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("a minute"));
    // Another writer has its own allowance.
    for _ in 0..2 {
        let (st, body) = s
            .call("POST", &chat, Some(&t[1]), Some(json!({"text": "yo"})))
            .await;
        assert_eq!(st, StatusCode::OK, "{body}");
    }
    let (st, _) = s
        .call(
            "POST",
            &chat,
            None,
            Some(json!({"text": "a", "name": "Zed"})),
        )
        .await;
    assert_eq!(st, StatusCode::OK);
    // Five messages in all: the match's chat is full.
    let (st, body) = s
        .call(
            "POST",
            &chat,
            None,
            Some(json!({"text": "b", "name": "Zed"})),
        )
        .await;
    assert_eq!(
        (st, code(&body)),
        (StatusCode::CONFLICT, "chat_full"),
        "{body}"
    );
}

/// Over the WebSocket: a spectator's message is pushed to spectators and never to the seats,
/// and the reverse; a spectator's connection may chat but not act.
#[tokio::test]
async fn websocket_chat_reaches_only_its_own_channel() {
    let s = server();
    let (_, table) = begin(
        &s.hub,
        json!({"game": "goofspiel", "time": {"kind": "untimed"}}),
    )
    .await;
    let mut p1 = socket(&s.state, &table, Viewer::Seat(Seat::P1));
    let mut p2 = socket(&s.state, &table, Viewer::Seat(Seat::P2));
    let mut watcher = socket(&s.state, &table, Viewer::Spectator);
    let settle = || tokio::time::sleep(std::time::Duration::from_millis(100));
    settle().await;
    for c in [&mut p1, &mut p2, &mut watcher] {
        drain(&mut c.1);
    }
    let send = |c: &common::ws::Client, v: Value| {
        c.0.send(axum::extract::ws::Message::Text(v.to_string().into()))
            .unwrap();
    };
    send(
        &watcher,
        json!({"type": "chat", "text": "the spectators' secret", "name": "Zed"}),
    );
    settle().await;
    let got = drain(&mut watcher.1);
    assert!(
        got.iter().any(|m| m["type"] == "ok" && m["to"] == "chat"),
        "{got:?}"
    );
    assert!(got
        .iter()
        .any(|m| m["type"] == "state" && chat_texts(m) == ["the spectators' secret"]));
    for seat in [&mut p1, &mut p2] {
        let got = drain(&mut seat.1);
        assert!(
            got.iter()
                .all(|m| !m.to_string().contains("spectators' secret")),
            "{got:?}"
        );
    }
    send(&p2, json!({"type": "chat", "text": "the players' secret"}));
    settle().await;
    let got = drain(&mut p1.1);
    assert!(got
        .iter()
        .any(|m| m["type"] == "state" && chat_texts(m) == ["the players' secret"]));
    let got = drain(&mut watcher.1);
    assert!(
        got.iter()
            .all(|m| !m.to_string().contains("players' secret")),
        "{got:?}"
    );
    // A spectator still cannot move.
    send(&watcher, json!({"type": "submit", "move": "1"}));
    settle().await;
    let got = drain(&mut watcher.1);
    assert!(
        got.iter().any(|m| m["error"]["code"] == "forbidden"),
        "{got:?}"
    );
}

/// The chat, the move log and a live Cauldron's finished races survive a restart: a race that
/// timed out while the server was down shows its finished state (nobody, the accepted
/// answers) in every role's state, beside the next race with its prize pair.
#[tokio::test]
async fn chat_moves_and_expired_races_survive_a_restart() {
    let (dir, path) = temp_db("social", "s.db");
    let clock = Arc::new(ManualClock::at(T0));
    let hub = Hub::new(SqliteStore::open(&path).unwrap(), clock.clone(), false);
    let (id, table) = begin(
        &hub,
        json!({"game": "witchs-brew", "options": {"cauldron": "live"}, "seed": 3,
               "time": {"kind": "untimed"}, "trivia": {"bank": "sample"}}),
    )
    .await;
    hub.chat(&table, Viewer::Seat(Seat::P1), None, "hello".into(), 100)
        .await
        .unwrap();
    hub.chat(
        &table,
        Viewer::Spectator,
        Some("Zed".into()),
        "go p2".into(),
        100,
    )
    .await
    .unwrap();
    let before = hub.state(&table, Viewer::Spectator).await;
    let race = before["match"]["race"].clone();
    assert_eq!(race["over"], false, "{before}");
    assert_eq!(race["prizes"].as_array().unwrap().len(), 2, "{race}");
    let opened = race["opened_at"].as_u64().unwrap();
    drop(table);
    drop(hub);

    // Down for 4 minutes: the race's 3 minutes ran out meanwhile.
    clock.advance(240_000);
    let hub = Hub::new(SqliteStore::open(&path).unwrap(), clock.clone(), false);
    assert_eq!(hub.resume().await.unwrap(), 1);
    let table = hub.table(&id).await.unwrap();
    for role in [
        Viewer::Seat(Seat::P1),
        Viewer::Seat(Seat::P2),
        Viewer::Spectator,
    ] {
        let v = hub.state(&table, role).await;
        let done = &v["match"]["races"][0];
        assert_eq!(done["opened_at"], opened, "{v}");
        assert_eq!(done["winner"], Value::Null);
        assert_eq!(done["ended_at"], opened + 180_000);
        assert_eq!(done["question"], race["question"]);
        assert!(done["answers"].as_array().is_some_and(|a| !a.is_empty()));
        assert_eq!(done["prizes"], race["prizes"]);
        // The next race opened the pause after that one ended, with its own prize pair.
        let next = &v["match"]["race"];
        assert_eq!(
            next["opened_at"],
            opened + 180_000 + colosseum_host::RACE_PAUSE_MS,
            "{v}"
        );
        assert_eq!(next["over"], false);
        assert_eq!(next["prizes"].as_array().unwrap().len(), 2);
        // The move log has the race's result (nobody) as a step.
        let moves = v["match"]["moves"].as_array().unwrap();
        assert!(
            moves
                .iter()
                .any(|m| m["kind"] == "race" && m["chance"] == "none"),
            "{moves:?}"
        );
        let chat = chat_texts(&v);
        assert_eq!(
            chat,
            match role {
                Viewer::Spectator => vec!["go p2".to_string()],
                Viewer::Seat(_) => vec!["hello".to_string()],
            }
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// After a reload (a new request for the state) the move log holds every round played, for
/// every role, not only the last one the game's view keeps (Thwart Omega's `last_round`).
#[tokio::test]
async fn the_move_log_survives_a_reload_with_every_round() {
    let s = server();
    let (id, t) = s
        .start(json!({"game": "thwart-omega", "seed": 4, "time": {"kind": "untimed"}}))
        .await;
    let t = t.map(Option::unwrap);
    let mut played = Vec::new();
    for n in 0..5 {
        let mut step = Vec::new();
        for (i, seat) in Seat::BOTH.iter().enumerate() {
            let table = s.hub.table(&id).await.unwrap();
            let mv = s.hub.random_move_for_tests(&table, *seat, n).await.unwrap();
            let (st, body) = s.act(&id, "submit", &t[i], json!({"move": mv})).await;
            assert_eq!(st, StatusCode::OK, "{body}");
            step.push(mv);
        }
        played.push(step);
    }
    for token in [Some(t[0].as_str()), Some(t[1].as_str()), None] {
        let v = s.state(&id, token).await;
        let moves = v["match"]["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 5, "{v}");
        for (line, step) in moves.iter().zip(&played) {
            assert_eq!(line["p1"], step[0].as_str());
            assert_eq!(line["p2"], step[1].as_str());
            assert!(line["at"].is_u64());
        }
    }
    // The replay lists the moves too.
    let table = s.hub.table(&id).await.unwrap();
    s.hub.act(&table, Seat::P1, Action::Resign).await.unwrap();
    let (_, replay) = s
        .call("GET", &format!("/api/matches/{id}/replay"), None, None)
        .await;
    assert_eq!(replay["games"][0]["moves"].as_array().unwrap().len(), 5);
}

/// `POST /api/seasons/questions` asks about a match that ended by resignation: it is finished.
#[tokio::test]
async fn season_questions_accept_a_resigned_match() {
    let s = server();
    let (id, t) = s
        .create(json!({"game": "goofspiel", "options": {"cards": "5"}, "seed": 1}))
        .await;
    let t = t.map(Option::unwrap);
    for (token, name) in t.iter().zip(["Ann", "Bo"]) {
        s.post(&id, "join", token, json!({"name": name})).await;
    }
    s.act(&id, "submit", &t[0], json!({"move": "3"})).await;
    s.post(&id, "resign", &t[0], json!({})).await;
    let (st, v) = s
        .call(
            "POST",
            "/api/seasons/questions",
            None,
            Some(json!({"name": "S", "matches": [{"id": id, "label": "day 1"}]})),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let questions = v["questions"].as_array().unwrap();
    assert_eq!(questions.len(), 1, "{v}");
    assert_eq!(questions[0]["answers"], json!(["Bo"]));
    assert!(v["toml"].as_str().unwrap().contains("Who won day 1"));
}

/// A waiting match leaves the lobby's public list after ten minutes; its links still work
/// until it expires (24 h).
#[tokio::test]
async fn waiting_matches_leave_the_public_list_while_fresh_ones_stay() {
    let s = server();
    let (old, tokens) = s.create(json!({"game": "goofspiel"})).await;
    s.clock.advance(9 * 60 * 1000);
    let (fresh, _) = s.create(json!({"game": "goofspiel"})).await;
    let listed = |page: &Value| -> Vec<String> {
        page["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, page) = s.call("GET", "/api/matches", None, None).await;
    assert_eq!(listed(&page), [fresh.clone(), old.clone()]);
    s.clock.advance(60 * 1000);
    let (_, page) = s.call("GET", "/api/matches", None, None).await;
    assert_eq!(listed(&page), vec![fresh.clone()], "{page}");
    assert_eq!(page["total"], 1);
    // Not listed, but joinable by its link.
    let (st, body) = s
        .join_token(&old, tokens[0].as_deref().unwrap(), json!({}))
        .await;
    assert_eq!(st, StatusCode::OK, "{body}");
    let (st, _) = s
        .join_token(&old, tokens[1].as_deref().unwrap(), json!({}))
        .await;
    assert_eq!(st, StatusCode::OK);
    for t in tokens.iter().flatten() {
        s.reveal_token(&old, t).await;
    }
    // Live now: listed again.
    let (_, page) = s.call("GET", "/api/matches", None, None).await;
    assert_eq!(listed(&page), [fresh, old]);
}

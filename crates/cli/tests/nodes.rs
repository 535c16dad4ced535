//! Two `colosseum serve` processes on one PostgreSQL (docs/operations.md): a match is served by
//! the process that holds its claim, and the other forwards its requests and WebSockets there,
//! so a client can use either; when the holder is killed with SIGKILL, the other takes the
//! match over within 10 s without anyone asking for it (its metrics show it live), fires the
//! deadlines that passed, and plays it to the end.
//!
//! Runs when `COLOSSEUM_TEST_POSTGRES` holds a connection string (`.ci/run` sets it); the test
//! makes a database of its own next to that one (`psql` must be on the PATH).

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{get, post, start, Server};
use serde_json::json;

/// A fresh database beside the one `COLOSSEUM_TEST_POSTGRES` names, and its connection string.
fn fresh_database(tag: &str) -> Option<String> {
    let Ok(base) = std::env::var("COLOSSEUM_TEST_POSTGRES") else {
        assert!(
            std::env::var("COLOSSEUM_REQUIRE_POSTGRES").is_err(),
            "COLOSSEUM_REQUIRE_POSTGRES is set but COLOSSEUM_TEST_POSTGRES is not"
        );
        eprintln!("skipped: set COLOSSEUM_TEST_POSTGRES to test several nodes");
        return None;
    };
    let name = format!("colosseum_nodes_{tag}_{}", std::process::id());
    let psql = |sql: &str| {
        let out = Command::new("psql")
            .arg(&base)
            .args(["-qtAc", sql])
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    psql(&format!("DROP DATABASE IF EXISTS {name}"));
    psql(&format!("CREATE DATABASE {name}"));
    let kept: Vec<&str> = base
        .split_whitespace()
        .filter(|kv| !kv.starts_with("dbname="))
        .collect();
    Some(format!("{} dbname={name}", kept.join(" ")))
}

fn node(conn: &str) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_colosseum"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--postgres", conn])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    start(command)
}

/// The value of the metric `name` (no labels) on the node at `base`.
fn metrics(base: &str) -> impl Fn(&str) -> f64 {
    let text = common::agent()
        .get(format!("{base}/metrics"))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    move |name| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no {name} in {text}"))
            .trim()
            .parse()
            .unwrap()
    }
}

#[test]
fn a_killed_node_s_match_is_taken_over_and_finished_by_another() {
    let Some(conn) = fresh_database("takeover") else {
        return;
    };
    let mut a = node(&conn);
    let b = node(&conn);

    // On A: Ann against a random bot, 1 s a decision, 4 prizes. Ann joins and never moves: the
    // clock plays for her.
    let (status, created) = post(
        &a.base,
        "/api/matches",
        None,
        &json!({
            "game": "goofspiel",
            "options": {"cards": "4"},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
            "time": {"kind": "timed", "per_decision_ms": 1000},
        }),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"][0].as_str().unwrap().to_string();
    let (status, joined) = post(
        &a.base,
        &format!("/api/matches/{id}/join"),
        Some(&token),
        &json!({}),
    );
    assert_eq!(status, 200, "{joined}");

    // B forwards to A: the match is A's.
    let through_b = get(&b.base, &format!("/api/matches/{id}"), None);
    assert_eq!(through_b["id"], id.as_str(), "{through_b}");
    assert_eq!(metrics(&b.base)("colosseum_matches_live"), 0.0);

    // A dies mid-match.
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed = Instant::now();

    // B serves it within 10 s, nobody having asked B for it.
    loop {
        let now = metrics(&b.base);
        if now("colosseum_matches_live") + now("colosseum_matches_finished_total") >= 1.0 {
            break;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "no takeover within 10 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let took = killed.elapsed();
    eprintln!("taken over {} ms after the kill", took.as_millis());

    // B plays it to the end: every decision of Ann's timed out, the bot moved.
    let end = loop {
        let state = get(&b.base, &format!("/api/matches/{id}"), Some(&token));
        assert!(state["error"].is_null(), "{state}");
        if state["status"] == "finished" {
            break state;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(30),
            "not finished 30 s after the kill: {state}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(!end["match"]["result"].is_null(), "{end}");
    let record = get(&b.base, &format!("/api/matches/{id}/record"), None);
    let game = &record["records"][0];
    // Goofspiel with 4 prizes: 4 prize draws and 4 bids.
    assert_eq!(game["steps"].as_array().map(Vec::len), Some(8), "{record}");
    // Ann never moved: the clock played each of her four bids (steps 1, 3, 5, 7), also the ones
    // whose deadline passed while no process served the match.
    let defaults: Vec<u64> = game["fairness"]["defaults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["seat"] == "p1")
        .map(|d| d["step"].as_u64().unwrap())
        .collect();
    assert_eq!(defaults, [1, 3, 5, 7], "{record}");
}

#[test]
fn either_node_answers_for_any_match_over_http_and_websocket() {
    let Some(conn) = fresh_database("forward") else {
        return;
    };
    let a = node(&conn);
    let b = node(&conn);
    // Created on A, two people, 2 prizes in ascending order, untimed.
    let (status, created) = post(
        &a.base,
        "/api/matches",
        None,
        &json!({"game": "goofspiel", "options": {"cards": "2", "order": "ascending"}, "time": {"kind": "untimed"}}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let t: Vec<String> = (0..2)
        .map(|i| created["tokens"][i].as_str().unwrap().to_string())
        .collect();
    // Both join through B (forwarded POSTs with their bodies and tokens).
    for (i, name) in ["Ann", "Bo"].iter().enumerate() {
        let (status, v) = post(
            &b.base,
            &format!("/api/matches/{id}/join"),
            Some(&t[i]),
            &json!({"name": name}),
        );
        assert_eq!(status, 200, "{v}");
    }
    let seen = get(&b.base, &format!("/api/matches/{id}"), Some(&t[0]));
    assert_eq!(seen["status"], "live", "{seen}");
    assert_eq!(seen["names"]["p2"], "Bo", "{seen}");
    // Ann plays over a WebSocket opened on B (forwarded to A), the token in a subprotocol.
    let url = format!(
        "{}/api/matches/{id}/ws?token={}",
        b.base.replace("http", "ws"),
        t[0]
    );
    let (mut ws, _) = tungstenite::connect(url).unwrap();
    ws.send(tungstenite::Message::Text(
        json!({"type": "submit", "move": "1"}).to_string().into(),
    ))
    .unwrap();
    loop {
        let msg: serde_json::Value = match ws.read().unwrap() {
            tungstenite::Message::Text(text) => serde_json::from_str(&text).unwrap(),
            _ => continue,
        };
        assert_ne!(msg["type"], "error", "{msg}");
        if msg["type"] == "ok" {
            break;
        }
    }
    // Bo answers on A directly; the reveal reaches Ann's forwarded socket.
    let (status, v) = post(
        &a.base,
        &format!("/api/matches/{id}/submit"),
        Some(&t[1]),
        &json!({"move": "2"}),
    );
    assert_eq!(status, 200, "{v}");
    loop {
        let msg: serde_json::Value = match ws.read().unwrap() {
            tungstenite::Message::Text(text) => serde_json::from_str(&text).unwrap(),
            _ => continue,
        };
        // The first prize's draw and the bid: two steps.
        if msg["steps"].as_u64().is_some_and(|n| n >= 2) {
            break;
        }
    }
    drop(ws);
    let replay = get(&b.base, &format!("/api/matches/{id}/replay"), Some(&t[0]));
    assert!(replay["error"].is_null(), "{replay}");
}

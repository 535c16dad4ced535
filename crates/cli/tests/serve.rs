//! `colosseum serve` as a real process: a match half played over HTTP and WebSocket, the server
//! killed with SIGKILL, started again on the same database, the match finished; nothing lost.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{agent, get, post, serve, serve_command, serve_with, start, temp_db, Server};
use serde_json::{json, Value};

/// Submits `mv` as the token's seat for the pending decision, read from the state first, as a
/// client does.
fn submit(base: &str, id: &str, token: &str, mv: &str) -> (u16, Value) {
    let decision = get(base, &format!("/api/matches/{id}"), Some(token))["decision"].clone();
    let body = json!({"move": mv, "decision": decision});
    post(
        base,
        &format!("/api/matches/{id}/submit"),
        Some(token),
        &body,
    )
}

#[test]
fn a_match_survives_sigkill_and_finishes_with_a_complete_record() {
    let (dir, db) = temp_db("serve", "matches.db");

    let server = serve(&db);
    let (status, created) = post(
        &server.base,
        "/api/matches",
        None,
        &json!({"game": "goofspiel", "options": {"cards": "6", "order": "descending"}, "seed": 4}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let t = [0, 1].map(|i| created["tokens"][i].as_str().unwrap().to_string());
    for token in &t {
        assert_eq!(
            post(
                &server.base,
                &format!("/api/matches/{id}/join"),
                Some(token),
                &json!({})
            )
            .0,
            200
        );
    }
    // Two rounds over HTTP: p1 bids the prize (6, 5), p2 bids one less... p2 holds 1..6 too.
    for (b1, b2) in [("6", "1"), ("5", "2")] {
        assert_eq!(submit(&server.base, &id, &t[0], b1).0, 200);
        assert_eq!(submit(&server.base, &id, &t[1], b2).0, 200);
    }
    // The third round over WebSocket; then p1 submits round four and the server dies before p2
    // answers.
    let ws_url = format!(
        "{}/api/matches/{id}/ws?token={}",
        server.base.replace("http", "ws"),
        t[0]
    );
    let (mut ws, _) = tungstenite::connect(ws_url).unwrap();
    let decision =
        get(&server.base, &format!("/api/matches/{id}"), Some(&t[0]))["decision"].clone();
    ws.send(tungstenite::Message::Text(
        json!({"type": "submit", "move": "4", "decision": decision})
            .to_string()
            .into(),
    ))
    .unwrap();
    loop {
        let msg: Value = match ws.read().unwrap() {
            tungstenite::Message::Text(text) => serde_json::from_str(&text).unwrap(),
            _ => continue,
        };
        if msg["type"] == "ok" {
            break;
        }
        assert_ne!(msg["type"], "error", "{msg}");
    }
    drop(ws);
    assert_eq!(submit(&server.base, &id, &t[1], "3").0, 200);
    assert_eq!(submit(&server.base, &id, &t[0], "3").0, 200);
    let before = get(&server.base, &format!("/api/matches/{id}"), Some(&t[0]));
    assert_eq!(
        before["match"]["view"]["turns"].as_array().unwrap().len(),
        3
    );

    // SIGKILL: no chance to flush or say goodbye.
    let mut server = server;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    drop(server);

    let server = serve(&db);
    let after = get(&server.base, &format!("/api/matches/{id}"), Some(&t[0]));
    assert_eq!(after["status"], "live");
    assert_eq!(
        after["match"]["view"]["turns"],
        before["match"]["view"]["turns"]
    );
    // p1's pending submission of round four survived, still hidden from p2.
    assert_eq!(after["match"]["seats"]["p1"]["submission"], "3");
    let theirs = get(&server.base, &format!("/api/matches/{id}"), Some(&t[1]));
    assert!(theirs["match"]["seats"]["p1"].get("submission").is_none());
    assert_eq!(theirs["match"]["seats"]["p1"]["submitted"], true);
    // The deadline is where it was (the restart did not reset the clock).
    assert_eq!(
        after["match"]["seats"]["p2"]["clock"]["deadline"],
        before["match"]["seats"]["p2"]["clock"]["deadline"]
    );

    // Finish: rounds four to six.
    for (b1, b2) in [(None, "4"), (Some("2"), "5"), (Some("1"), "6")] {
        if let Some(b1) = b1 {
            assert_eq!(submit(&server.base, &id, &t[0], b1).0, 200);
        }
        let (s, v) = submit(&server.base, &id, &t[1], b2);
        assert_eq!(s, 200, "{v}");
    }
    let done = get(&server.base, &format!("/api/matches/{id}"), None);
    assert_eq!(done["status"], "finished", "{done}");
    let record =
        get(&server.base, &format!("/api/matches/{id}/record"), None)["records"][0].clone();
    // Every bid is in the record, in order (descending prizes: no chance steps).
    let steps = record["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 6, "{record}");
    let bids: Vec<(String, String)> = steps
        .iter()
        .filter(|s| s.get("p1").is_some())
        .map(|s| {
            (
                s["p1"].as_str().unwrap().into(),
                s["p2"].as_str().unwrap().into(),
            )
        })
        .collect();
    let expect: Vec<(String, String)> = [
        ("6", "1"),
        ("5", "2"),
        ("4", "3"),
        ("3", "4"),
        ("2", "5"),
        ("1", "6"),
    ]
    .iter()
    .map(|(a, b)| ((*a).into(), (*b).into()))
    .collect();
    assert_eq!(bids, expect);
    // The record replays through `colosseum replay` to the result the server announced: p1
    // won prizes 6, 5, 4 (15 points) against 3, 2, 1 (6 points).
    let file = dir.join("record.json");
    std::fs::write(&file, record.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(["replay", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    let replay: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(replay["outcome"]["winner"], "p1");
    assert_eq!(replay["score"]["p1"], 15);
    assert_eq!(done["match"]["result"]["winner"], "p1");
    drop(server);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `colosseum serve` with `args` after the database, its stderr read line by line on a thread.
fn serve_logged(db: &Path, args: &[&str]) -> (Server, std::sync::mpsc::Receiver<String>) {
    let mut command = serve_command(db, args);
    command
        .env("RUST_LOG", "info")
        .env_remove("COLOSSEUM_ADMIN_TOKEN")
        .stderr(Stdio::piped());
    let mut server = start(command);
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = server.child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (server, rx)
}

/// Stderr lines as JSON objects until one satisfies `pred` (every line must be JSON).
fn json_log_until(rx: &std::sync::mpsc::Receiver<String>, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("a log line within 20 s");
        let v: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(v["level"].is_string() && v["timestamp"].is_string(), "{v}");
        if pred(&v) {
            return v;
        }
    }
}

#[test]
fn serve_logs_json_lines_and_sets_a_broken_match_aside_without_exiting() {
    let (dir, db) = temp_db("quarantine", "matches.db");

    // Two matches, each with a bid submitted; the server stops.
    let (server, rx) = serve_logged(&db, &["--log-format", "json"]);
    let started = json_log_until(&rx, |v| v["fields"]["message"] == "listening");
    assert_eq!(started["level"], "INFO");
    assert_eq!(
        started["fields"]["address"],
        server.base.strip_prefix("http://").unwrap()
    );
    assert_eq!(started["fields"]["resumed"], 0);
    assert_eq!(started["fields"]["quarantined"], 0);
    let mut ids = Vec::new();
    let mut tokens = Vec::new();
    for _ in 0..2 {
        let (status, created) = post(
            &server.base,
            "/api/matches",
            None,
            &json!({"game": "goofspiel", "options": {"cards": "4", "order": "descending"}}),
        );
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        let t = [0, 1].map(|i| created["tokens"][i].as_str().unwrap().to_string());
        common::join_fair(&server.base, &id, &[(&t[0], None), (&t[1], None)]);
        let (s, v) = submit(&server.base, &id, &t[0], "4");
        assert_eq!(s, 200, "{v}");
        ids.push(id);
        tokens.push(t);
    }
    // Match events are logged with the id and the game, never a token.
    let created = json_log_until(&rx, |v| v["fields"]["message"] == "match started");
    assert_eq!(created["fields"]["game"], "goofspiel");
    drop(server);

    // The first match's log is damaged behind the server's back.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "UPDATE log SET entry = 'garbage' WHERE match_id = ?1",
        [&ids[0]],
    )
    .unwrap();
    drop(conn);

    let token = "an-admin-token-of-some-length";
    let (server, rx) = serve_logged(&db, &["--log-format", "json", "--admin-token", token]);
    let error = json_log_until(&rx, |v| v["level"] == "ERROR");
    assert_eq!(error["fields"]["match_id"], ids[0].as_str(), "{error}");
    let started = json_log_until(&rx, |v| v["fields"]["message"] == "listening");
    assert_eq!(started["fields"]["resumed"], 1, "{started}");
    assert_eq!(started["fields"]["quarantined"], 1, "{started}");

    // Still running: the quarantine is listed, the broken match answered 503, the other plays.
    let listed = get(&server.base, "/api/admin/quarantine", Some(token));
    assert_eq!(listed["quarantined"][0]["id"], ids[0].as_str(), "{listed}");
    assert!(listed["quarantined"][0]["reason"]
        .as_str()
        .unwrap()
        .contains("does not read"));
    let mut res = agent()
        .get(format!("{}/api/matches/{}", server.base, ids[0]))
        .call()
        .unwrap();
    assert_eq!(res.status().as_u16(), 503);
    let v: Value = res.body_mut().read_json().unwrap();
    assert_eq!(v["error"]["code"], "quarantined");
    let (s, v) = submit(&server.base, &ids[1], &tokens[1][1], "1");
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["match"]["view"]["turns"].as_array().unwrap().len(),
        1,
        "{v}"
    );
    let mut server = server;
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server exited"
    );
    drop(server);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The limit flags reach the server: a silent connection is closed after `--header-timeout-secs`,
/// connections over `--max-connections-per-ip` are refused, a time control over
/// `--max-decision-secs` is refused.
#[test]
fn the_limit_flags_take_effect() {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    let (dir, db) = temp_db("serve-limits", "limits.db");
    let server = serve_with(
        &db,
        &[
            "--header-timeout-secs",
            "1",
            "--max-connections-per-ip",
            "2",
            "--max-decision-secs",
            "60",
        ],
    );
    let addr = server.base.strip_prefix("http://").unwrap().to_string();
    // Two silent connections are held; a third is refused.
    let started = std::time::Instant::now();
    let mut silent: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(&addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut third = TcpStream::connect(&addr).unwrap();
    third
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ = third.write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    let mut answer = String::new();
    let _ = third.read_to_string(&mut answer);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 429"),
        "{answer}"
    );
    // The silent ones are closed after about a second.
    for conn in &mut silent {
        conn.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = Vec::new();
        let _ = conn.read_to_end(&mut buf);
        assert!(buf.is_empty(), "{}", String::from_utf8_lossy(&buf));
    }
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(800) && waited < Duration::from_secs(4),
        "closed after {waited:?}"
    );
    // Then the address is served again.
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(get(&server.base, "/api/health", None)["ok"], true);
    let (status, body) = post(
        &server.base,
        "/api/matches",
        None,
        &json!({"game": "goofspiel", "time": {"kind": "timed", "per_decision_ms": 61_000}}),
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("1000 to 60000 ms (1 s to 60 s)"),
        "{body}"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

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
    common::join_fair(&a.base, &id, &[(&token, None)]);

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

type Ws = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

/// A seat's WebSocket to the node at `base` for match `id`, the token offered as a subprotocol
/// as the browser table does; a read waits at most 15 s.
fn socket(base: &str, id: &str, token: &str) -> Result<Ws, tungstenite::Error> {
    use tungstenite::client::IntoClientRequest;
    let mut request = format!("{}/api/matches/{id}/ws", base.replacen("http", "ws", 1))
        .into_client_request()
        .unwrap();
    request.headers_mut().insert(
        "sec-websocket-protocol",
        format!("colosseum, colosseum.token.{token}")
            .parse()
            .unwrap(),
    );
    let (ws, response) = tungstenite::connect(request)?;
    assert_eq!(
        response.headers()["sec-websocket-protocol"],
        "colosseum",
        "the subprotocol echoed"
    );
    if let tungstenite::stream::MaybeTlsStream::Plain(tcp) = ws.get_ref() {
        tcp.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    }
    Ok(ws)
}

/// The next JSON message on `ws` (its pings skipped); an error if it closed or said nothing
/// for 15 s.
fn next(ws: &mut Ws) -> Result<serde_json::Value, String> {
    loop {
        match ws.read() {
            Ok(tungstenite::Message::Text(text)) => return Ok(serde_json::from_str(&text).unwrap()),
            Ok(tungstenite::Message::Close(frame)) => return Err(format!("closed: {frame:?}")),
            Ok(_) => continue,
            Err(e) => return Err(format!("socket: {e}")),
        }
    }
}

/// Sends `message` on `ws` and reads up to its answer, which must be `ok`.
fn act(ws: &mut Ws, message: serde_json::Value) {
    ws.send(tungstenite::Message::Text(message.to_string().into()))
        .unwrap();
    loop {
        let m = next(ws).unwrap();
        assert_ne!(m["type"], "error", "{message} -> {m}");
        if m["type"] == "ok" {
            return;
        }
    }
}

/// Joins over `ws` as `name`, committing to the client seed of `token` ([`common::token_seed`]).
fn join_over(ws: &mut Ws, name: &str, token: &str) {
    let hash = colosseum_engine::fair::client_seed_hash(&common::token_seed(token));
    act(
        ws,
        json!({"type": "join", "name": name, "client_seed_hash": hash}),
    );
}

/// Reads states on `ws` until one has `steps` steps; returns it.
fn state_at(ws: &mut Ws, steps: u64) -> serde_json::Value {
    loop {
        let m = next(ws).unwrap();
        if m["type"] == "state" && m["steps"].as_u64() >= Some(steps) {
            return m;
        }
    }
}

/// Ann and Bo take the match's two seats over HTTP on `base`.
fn join_both(base: &str, id: &str, tokens: &[String; 2]) {
    common::join_fair(
        base,
        id,
        &[(&tokens[0], Some("Ann")), (&tokens[1], Some("Bo"))],
    );
}

/// A Goofspiel with 3 prizes in ascending order (no chance steps: step k is bid k), two
/// people, untimed, created on the node at `base`: its id and the two tokens.
fn three_prizes(base: &str) -> (String, [String; 2]) {
    let (status, created) = post(
        base,
        "/api/matches",
        None,
        &json!({"game": "goofspiel", "options": {"cards": "3", "order": "ascending"}, "time": {"kind": "untimed"}}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let t = [0, 1].map(|i| created["tokens"][i].as_str().unwrap().to_string());
    (id, t)
}

/// Both seats bid `bids` in round `round` (0-based) over their sockets and see its reveal.
fn play_round(ws: &mut [Ws; 2], round: u64, bids: [u32; 2]) -> serde_json::Value {
    for (i, bid) in bids.iter().enumerate() {
        act(
            &mut ws[i],
            json!({"type": "submit", "move": bid.to_string(), "decision": round}),
        );
    }
    let seen = [0, 1].map(|i| state_at(&mut ws[i], round + 1));
    assert_eq!(seen[0]["match"]["moves"], seen[1]["match"]["moves"]);
    seen[0].clone()
}

#[test]
fn a_whole_match_is_played_over_websockets_through_the_node_that_does_not_own_it() {
    let Some(conn) = fresh_database("forward") else {
        return;
    };
    let a = node(&conn);
    let b = node(&conn);
    let (id, t) = three_prizes(&a.base);
    // Forwarded HTTP: B answers for A's match.
    let through_b = get(&b.base, &format!("/api/matches/{id}"), None);
    assert_eq!(through_b["id"], id.as_str(), "{through_b}");
    assert_eq!(through_b["status"], "waiting", "{through_b}");

    // Both seats open their sockets on B, join and play all three prizes there.
    let mut ws = [0, 1].map(|i| socket(&b.base, &id, &t[i]).unwrap());
    for (i, name) in ["Ann", "Bo"].iter().enumerate() {
        let first = next(&mut ws[i]).unwrap();
        assert_eq!(first["type"], "state", "{first}");
        assert_eq!(first["you"], ["p1", "p2"][i], "{first}");
        join_over(&mut ws[i], name, &t[i]);
    }
    // Both committed: each reveals its client seed.
    for i in 0..2 {
        let seed = common::token_seed(&t[i]);
        act(&mut ws[i], json!({"type": "reveal", "client_seed": seed}));
    }
    // The sockets are A's: B only pipes them.
    assert_eq!(metrics(&a.base)("colosseum_websockets"), 2.0);
    assert_eq!(metrics(&b.base)("colosseum_websockets"), 0.0);
    assert_eq!(metrics(&b.base)("colosseum_matches_owned"), 0.0);
    play_round(&mut ws, 0, [1, 2]);
    play_round(&mut ws, 1, [3, 1]);
    let end = play_round(&mut ws, 2, [2, 3]);
    // Prizes 1, 2, 3: Bo wins 1 (2 > 1), Ann 2 (3 > 1), Bo 3 (3 > 2): 4 to 2.
    assert_eq!(end["status"], "finished", "{end}");
    assert_eq!(end["match"]["result"]["winner"], "p2", "{end}");
    assert_eq!(metrics(&b.base)("colosseum_matches_owned"), 0.0);
    assert_eq!(metrics(&a.base)("colosseum_matches_finished_total"), 1.0);
    // The owner's PostgreSQL group commits wrote the match's appends (six moves in three
    // rounds: at least three appends); B, which only piped, wrote none.
    let a_appends = metrics(&a.base)("colosseum_store_commit_appends_total");
    assert!(a_appends >= 3.0, "{a_appends}");
    assert!(metrics(&a.base)("colosseum_store_commits_total") >= 1.0);
    assert_eq!(
        metrics(&b.base)("colosseum_store_commit_appends_total"),
        0.0
    );

    // The record and the replay through B.
    let record = get(&b.base, &format!("/api/matches/{id}/record"), None);
    assert_eq!(
        record["records"][0]["steps"].as_array().map(Vec::len),
        Some(3),
        "{record}"
    );
    let replay = get(&b.base, &format!("/api/matches/{id}/replay"), Some(&t[0]));
    assert!(replay["error"].is_null(), "{replay}");
    assert_eq!(
        replay["games"][0]["frames"].as_array().map(Vec::len),
        Some(4)
    );
}

/// The lobby's ids in `key` (`matches` or `finished`) with their statuses, on the node at `base`.
fn lobby(base: &str, key: &str) -> Vec<(String, String)> {
    let lobby = get(base, "/api/matches", None);
    lobby[key]
        .as_array()
        .unwrap_or_else(|| panic!("{lobby}"))
        .iter()
        .map(|m| {
            (
                m["id"].as_str().unwrap().to_string(),
                m["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn every_node_s_lobby_lists_the_matches_of_all_nodes_and_hears_their_changes_at_once() {
    let Some(conn) = fresh_database("lobby") else {
        return;
    };
    let a = node(&conn);
    let b = node(&conn);
    // B's lobby is read (and kept) before anything happens.
    assert!(lobby(&b.base, "matches").is_empty());
    let heard = metrics(&b.base)("colosseum_notices_total");

    // Two matches on A: one waiting, one that both seats join.
    let (waiting, _) = three_prizes(&a.base);
    let (live, t) = three_prizes(&a.base);
    join_both(&a.base, &live, &t);
    // B lists both as A does, within a moment (the notice's way through PostgreSQL), newest
    // first, without anyone asking B for them.
    let expected = vec![
        (live.clone(), "live".to_string()),
        (waiting.clone(), "waiting".to_string()),
    ];
    let waited = Instant::now();
    while lobby(&b.base, "matches") != expected {
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "B lists {:?}, A {:?}",
            lobby(&b.base, "matches"),
            lobby(&a.base, "matches")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(lobby(&a.base, "matches"), expected);
    // Created, two joins: B heard the three notices (it polls nothing).
    assert!(metrics(&b.base)("colosseum_notices_total") >= heard + 3.0);
    assert_eq!(metrics(&b.base)("colosseum_matches_owned"), 0.0);
    let names = get(&b.base, "/api/matches", None)["matches"][0]["seats"]["p2"]["name"].clone();
    assert_eq!(names, "Bo");

    // Ann resigns on A: B's lobby moves the match to the finished list.
    let (status, v) = post(
        &a.base,
        &format!("/api/matches/{live}/resign"),
        Some(&t[0]),
        &json!({}),
    );
    assert_eq!(status, 200, "{v}");
    let waited = Instant::now();
    while lobby(&b.base, "matches") != [(waiting.clone(), "waiting".to_string())] {
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "still listed live on B"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        lobby(&b.base, "finished"),
        [(live.clone(), "finished".to_string())]
    );
}

#[test]
fn a_killed_node_s_websocket_players_reconnect_to_another_node_and_finish() {
    let Some(conn) = fresh_database("reconnect") else {
        return;
    };
    let mut a = node(&conn);
    let b = node(&conn);
    let (id, t) = three_prizes(&a.base);
    // Both play the first prize over sockets opened on B (forwarded to A).
    let mut ws = [0, 1].map(|i| socket(&b.base, &id, &t[i]).unwrap());
    for (i, name) in ["Ann", "Bo"].iter().enumerate() {
        join_over(&mut ws[i], name, &t[i]);
    }
    // Both committed: each reveals its client seed.
    for i in 0..2 {
        let seed = common::token_seed(&t[i]);
        act(&mut ws[i], json!({"type": "reveal", "client_seed": seed}));
    }
    play_round(&mut ws, 0, [1, 2]);
    // Ann has her second bid in when A dies.
    act(
        &mut ws[0],
        json!({"type": "submit", "move": "3", "decision": 1}),
    );
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed = Instant::now();
    // The sockets B piped are closed (1012: reconnect).
    for w in &mut ws {
        let closed = loop {
            match next(w) {
                Ok(_) => continue,
                Err(e) => break e,
            }
        };
        assert!(
            closed.contains("Restart") || closed.contains("socket"),
            "{closed}"
        );
    }
    // B takes the match over by itself within 10 s.
    while metrics(&b.base)("colosseum_matches_live") < 1.0 {
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "no takeover within 10 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    eprintln!(
        "taken over {} ms after the kill",
        killed.elapsed().as_millis()
    );
    // Both reconnect to B and go on: Ann's stored submission stands, Bo bids, then the last.
    let mut ws = [0, 1].map(|i| socket(&b.base, &id, &t[i]).unwrap());
    let first = next(&mut ws[0]).unwrap();
    assert_eq!(first["steps"], 1, "{first}");
    assert_eq!(first["match"]["seats"]["p1"]["submission"], "3", "{first}");
    act(
        &mut ws[1],
        json!({"type": "submit", "move": "1", "decision": 1}),
    );
    for w in &mut ws {
        state_at(w, 2);
    }
    let end = play_round(&mut ws, 2, [2, 3]);
    assert_eq!(end["status"], "finished", "{end}");
    // Prizes 1, 2, 3: Bo 1, Ann 2, Bo 3.
    assert_eq!(end["match"]["result"]["winner"], "p2", "{end}");
    let record = get(&b.base, &format!("/api/matches/{id}/record"), None);
    let bids: Vec<&serde_json::Value> = record["records"][0]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(bids.len(), 3, "{record}");
}

/// The node (its announced address) holding the claim `key` in the database `conn`, if any.
fn claim_holder(conn: &str, key: &str) -> Option<String> {
    let out = Command::new("psql")
        .arg(conn)
        .args([
            "-qtAc",
            &format!(
                "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                 WHERE l.locktype = 'advisory' AND l.granted
                   AND l.objid::bigint = (hashtext('{key}')::bigint & 4294967295)"
            ),
        ])
        .output()
        .expect("psql runs");
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    text.strip_prefix("colosseum node ").map(str::to_string)
}

#[test]
fn a_tournament_is_listed_and_answered_by_every_node_and_taken_over_when_its_node_dies() {
    let Some(conn) = fresh_database("tournament") else {
        return;
    };
    let mut a = node(&conn);
    let b = node(&conn);
    let (status, created) = post(
        &a.base,
        "/api/tournaments",
        None,
        &json!({
            "name": "Cup", "game": "goofspiel", "options": {"cards": "3"},
            "format": {"kind": "round_robin"}, "time": {"kind": "untimed"},
            "players": [{"name": "Ann"}, {"name": "Bo"}],
        }),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(
        claim_holder(&conn, &format!("tournament {id}")),
        Some(a.base.clone())
    );
    // B lists it and answers for it as A does (forwarded): one source, the store and A.
    let listed = get(&b.base, "/api/tournaments", None);
    assert_eq!(listed["tournaments"][0]["id"], id.as_str(), "{listed}");
    assert_eq!(listed["tournaments"][0]["status"], "playing", "{listed}");
    assert_eq!(listed, get(&a.base, "/api/tournaments", None));
    let path = format!("/api/tournaments/{id}");
    let through_b = get(&b.base, &path, None);
    assert!(through_b["error"].is_null(), "{through_b}");
    assert_eq!(through_b, get(&a.base, &path, None));
    // Only A runs it.
    assert_eq!(
        claim_holder(&conn, &format!("tournament {id}")),
        Some(a.base.clone())
    );

    // A dies: B runs the tournament within 10 s, nobody having asked B for it.
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed = Instant::now();
    while claim_holder(&conn, &format!("tournament {id}")) != Some(b.base.clone()) {
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "the tournament is not taken over within 10 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let view = get(&b.base, &path, None);
    assert!(view["error"].is_null(), "{view}");
    assert_eq!(view["status"], through_b["status"], "{view}");
}

/// nginx running docs/deploy/nginx.conf in front of `nodes`, on a free loopback port; stopped
/// when dropped.
struct Proxy {
    child: std::process::Child,
    base: String,
    _dir: std::path::PathBuf,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        // TERM, not KILL: the master stops its workers (killed, it would leave them running).
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// Whether nginx can be run (`COLOSSEUM_REQUIRE_NGINX` makes its absence a failure).
fn nginx_here() -> bool {
    let here = Command::new("nginx")
        .arg("-v")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        here || std::env::var("COLOSSEUM_REQUIRE_NGINX").is_err(),
        "COLOSSEUM_REQUIRE_NGINX is set but nginx does not run"
    );
    if !here {
        eprintln!("skipped: nginx is not installed");
    }
    here
}

fn proxy(nodes: &[&Server]) -> Proxy {
    let conf = include_str!("../../../docs/deploy/nginx.conf");
    let dir = std::env::temp_dir().join(format!("colosseum-nginx-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let d = dir.display().to_string();
    // Only where it listens, its nodes and its files change; the rest is the documented file.
    let mut conf = conf
        .replace("user www-data;", "")
        .replace("listen 8080;", &format!("listen 127.0.0.1:{port};"))
        .replace("/run/colosseum-nginx.pid", &format!("{d}/nginx.pid"))
        .replace("/var/log/nginx/", &format!("{d}/"))
        .replace("/var/lib/nginx/", &format!("{d}/"));
    for (i, n) in nodes.iter().enumerate() {
        let from = format!("127.0.0.1:{}", 8081 + i);
        assert!(conf.contains(&from), "the documented file names {from}");
        conf = conf.replace(&from, n.base.strip_prefix("http://").unwrap());
    }
    let file = dir.join("nginx.conf");
    std::fs::write(&file, conf).unwrap();
    let child = Command::new("nginx")
        .arg("-p")
        .arg(&dir)
        .arg("-c")
        .arg(&file)
        .args(["-g", "daemon off;"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx starts");
    let base = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    while common::agent()
        .get(format!("{base}/livez"))
        .call()
        .map_or(true, |r| r.status() != 200)
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "nginx does not answer"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Proxy {
        child,
        base,
        _dir: dir,
    }
}

#[test]
fn three_nodes_behind_nginx_play_a_match_through_one_address_and_lose_its_node() {
    if !nginx_here() {
        return;
    }
    let Some(conn) = fresh_database("nginx") else {
        return;
    };
    let mut nodes = [node(&conn), node(&conn), node(&conn)];
    let front = proxy(&nodes.iter().collect::<Vec<_>>());
    let (id, t) = three_prizes(&front.base);
    // Both seats connect through the proxy (to whichever node) and play the first prize.
    let mut ws = [0, 1].map(|i| socket(&front.base, &id, &t[i]).unwrap());
    for (i, name) in ["Ann", "Bo"].iter().enumerate() {
        join_over(&mut ws[i], name, &t[i]);
    }
    // Both committed: each reveals its client seed.
    for i in 0..2 {
        let seed = common::token_seed(&t[i]);
        act(&mut ws[i], json!({"type": "reveal", "client_seed": seed}));
    }
    play_round(&mut ws, 0, [1, 2]);
    // Every request through the one address sees the same match, whichever node answers.
    for _ in 0..6 {
        let state = get(&front.base, &format!("/api/matches/{id}"), None);
        assert_eq!(state["steps"], 1, "{state}");
        assert_eq!(
            lobby(&front.base, "matches"),
            [(id.clone(), "live".to_string())]
        );
    }

    // The node serving it is killed.
    let owner = claim_holder(&conn, &id).expect("a node serves the match");
    let dead = nodes.iter().position(|n| n.base == owner).unwrap();
    nodes[dead].child.kill().unwrap();
    nodes[dead].child.wait().unwrap();
    let killed = Instant::now();
    for w in &mut ws {
        while next(w).is_ok() {}
    }
    // Another takes it over within 10 s, by itself.
    let heir = loop {
        if let Some(h) = claim_holder(&conn, &id) {
            break h;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "no takeover within 10 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_ne!(heir, owner);
    eprintln!(
        "taken over {} ms after the kill",
        killed.elapsed().as_millis()
    );
    // The players reconnect to the same address and finish.
    let mut ws = [0, 1].map(|i| socket(&front.base, &id, &t[i]).unwrap());
    play_round(&mut ws, 1, [3, 1]);
    let end = play_round(&mut ws, 2, [2, 3]);
    assert_eq!(end["status"], "finished", "{end}");
    assert_eq!(end["match"]["result"]["winner"], "p2", "{end}");
    assert_eq!(
        lobby(&front.base, "finished"),
        [(id.clone(), "finished".to_string())]
    );
}

/// A node on `conn` that looks for unserved matches only every `takeover_secs` seconds.
fn slow_node(conn: &str, takeover_secs: u64) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_colosseum"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--postgres", conn])
        .args(["--takeover-secs", &takeover_secs.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    start(command)
}

#[test]
fn a_node_stopped_with_sigterm_hands_its_matches_over_at_once() {
    let Some(conn) = fresh_database("leaving") else {
        return;
    };
    let mut a = node(&conn);
    // B would look for unserved matches only once a minute: only A's leaving notice can make it
    // take the match over within seconds.
    let b = slow_node(&conn, 60);
    let (id, t) = three_prizes(&a.base);
    join_both(&a.base, &id, &t);
    let submit = |base: &str, seat: usize, bid: u32, decision: u64| {
        let (status, v) = post(
            base,
            &format!("/api/matches/{id}/submit"),
            Some(&t[seat]),
            &json!({"move": bid.to_string(), "decision": decision}),
        );
        assert_eq!(status, 200, "{v}");
    };
    submit(&a.base, 0, 1, 0);
    submit(&a.base, 1, 2, 0);
    // Ann's second bid is in (acknowledged) when A is told to stop.
    submit(&a.base, 0, 3, 1);
    assert_eq!(claim_holder(&conn, &id), Some(a.base.clone()));
    let heard = metrics(&b.base)("colosseum_notices_total");
    let status = Command::new("kill")
        .args(["-TERM", &a.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let stopped = Instant::now();
    // A stops by itself, cleanly.
    let exit = loop {
        if let Some(exit) = a.child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            stopped.elapsed() < Duration::from_secs(15),
            "A still runs 15 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "A ended with {exit}");
    // B holds the match within 15 s of the signal (3 s on a quiet machine), nobody having asked B for it.
    while claim_holder(&conn, &id) != Some(b.base.clone()) {
        assert!(
            stopped.elapsed() < Duration::from_secs(15),
            "B does not hold the match 15 s after A's SIGTERM (its own look is a minute away)"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!(
        "taken over {} ms after SIGTERM",
        stopped.elapsed().as_millis()
    );
    assert!(metrics(&b.base)("colosseum_notices_total") > heard);
    assert_eq!(metrics(&b.base)("colosseum_matches_live"), 1.0);
    // The acknowledged bid stands; the match finishes on B.
    let state = get(&b.base, &format!("/api/matches/{id}"), Some(&t[0]));
    assert_eq!(state["steps"], 1, "{state}");
    assert_eq!(state["match"]["seats"]["p1"]["submission"], "3", "{state}");
    submit(&b.base, 1, 1, 1);
    submit(&b.base, 0, 2, 2);
    submit(&b.base, 1, 3, 2);
    let end = get(&b.base, &format!("/api/matches/{id}"), None);
    assert_eq!(end["status"], "finished", "{end}");
    // Prizes 1, 2, 3: Bo 1, Ann 2, Bo 3.
    assert_eq!(end["match"]["result"]["winner"], "p2", "{end}");
}

/// The season link token in `link` (`/s/ID#player=TOKEN`) or a tournament's registration token
/// (`...#register=TOKEN`).
fn fragment(link: &serde_json::Value, key: &str) -> String {
    link.as_str()
        .unwrap()
        .split(&format!("#{key}="))
        .nth(1)
        .unwrap()
        .to_string()
}

#[test]
fn a_season_reads_the_same_from_every_node_and_its_tournament_goes_on_when_its_node_dies() {
    let Some(conn) = fresh_database("season") else {
        return;
    };
    let mut a = node(&conn);
    let b = node(&conn);
    let (status, created) = post(
        &a.base,
        "/api/seasons",
        None,
        &json!({"name": "Open season", "players": ["Ann", "Bo"]}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let bo = fragment(&created["links"]["players"][1]["link"], "player");
    let page = format!("/api/seasons/{id}");
    // B answers the season's page as A does, and lists it.
    let on_b = get(&b.base, &page, None);
    assert!(on_b["error"].is_null(), "{on_b}");
    assert_eq!(on_b, get(&a.base, &page, None));
    assert_eq!(
        get(&b.base, "/api/seasons", None),
        get(&a.base, "/api/seasons", None)
    );
    // A tournament of the season, registration by link, created on A.
    let (status, t) = post(
        &a.base,
        "/api/tournaments",
        Some(&admin),
        &json!({"name": "Open", "game": "goofspiel", "options": {"cards": "3"}, "season": id,
            "format": {"kind": "swiss", "rounds": 1}, "registration": true, "cap": 4,
            "time": {"kind": "untimed"}, "players": [{"season_player": 0}]}),
    );
    assert_eq!(status, 201, "{t}");
    let tid = t["id"].as_str().unwrap().to_string();
    let t_admin = t["admin_token"].as_str().unwrap().to_string();
    let reg = fragment(&t["links"]["register"], "register");
    // Registrations through B: a newcomer (who joins the roster) and a roster player.
    let register = format!("/api/tournaments/{tid}/register");
    let (status, cy) = post(&b.base, &register, Some(&reg), &json!({"name": "Cy"}));
    assert_eq!(status, 200, "{cy}");
    assert_eq!(cy["season"]["season_player"], 2, "{cy}");
    let (status, v) = post(&b.base, &register, Some(&reg), &json!({"season_token": bo}));
    assert_eq!(status, 200, "{v}");
    // Both nodes read the same season (Cy on its roster) and the same tournament.
    let roster = |base: &str| -> Vec<String> {
        get(base, &page, None)["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(roster(&a.base), ["Ann", "Bo", "Cy"]);
    assert_eq!(roster(&b.base), ["Ann", "Bo", "Cy"]);
    assert_eq!(get(&b.base, &page, None), get(&a.base, &page, None));
    let tpath = format!("/api/tournaments/{tid}");
    let before = get(&b.base, &tpath, None);
    assert_eq!(before, get(&a.base, &tpath, None));
    assert_eq!(
        before["players"].as_array().map(Vec::len),
        Some(3),
        "{before}"
    );

    // A dies; B runs the season's tournament, which the host starts through B.
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed = Instant::now();
    while claim_holder(&conn, &format!("tournament {tid}")) != Some(b.base.clone()) {
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "the season's tournament is not taken over within 10 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (status, v) = post(
        &b.base,
        &format!("/api/tournaments/{tid}/start"),
        Some(&t_admin),
        &json!({}),
    );
    assert_eq!(status, 200, "{v}");
    let after = get(&b.base, &tpath, None);
    assert_eq!(after["players"], before["players"], "{after}");
    assert_eq!(after["status"], "playing", "{after}");
    assert_eq!(roster(&b.base), ["Ann", "Bo", "Cy"]);
}

/// A node on `conn` without the per-address request limits (one test client makes hundreds of
/// requests a second).
fn unlimited_node(conn: &str) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_colosseum"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--postgres", conn])
        .args(["--http-rate", "1000000", "--create-rate", "1000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    start(command)
}

/// Unfinished matches in the database `conn` that no node holds.
fn unserved(conn: &str) -> usize {
    let out = Command::new("psql")
        .arg(conn)
        .args([
            "-qtAc",
            "SELECT COUNT(*) FROM matches m WHERE m.finished = FALSE AND NOT EXISTS (
               SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
                 AND l.objid::bigint = (hashtext(m.id)::bigint & 4294967295))",
        ])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

#[test]
fn a_killed_node_s_many_matches_are_all_served_again_by_the_others() {
    let Some(conn) = fresh_database("many") else {
        return;
    };
    let mut a = unlimited_node(&conn);
    let b = unlimited_node(&conn);
    let c = unlimited_node(&conn);
    // 80 matches on A, each in its second round with Ann's second bid acknowledged.
    const N: usize = 80;
    let matches: Vec<(String, [String; 2])> = (0..N)
        .map(|_| {
            let (id, t) = three_prizes(&a.base);
            join_both(&a.base, &id, &t);
            for (seat, bid, decision) in [(0, 1, 0), (1, 2, 0), (0, 3, 1)] {
                let (status, v) = post(
                    &a.base,
                    &format!("/api/matches/{id}/submit"),
                    Some(&t[seat]),
                    &json!({"move": bid.to_string(), "decision": decision}),
                );
                assert_eq!(status, 200, "{v}");
            }
            (id, t)
        })
        .collect();
    assert_eq!(claim_holder(&conn, &matches[0].0), Some(a.base.clone()));
    assert_eq!(unserved(&conn), 0);

    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed = Instant::now();
    // Clients ask B and C for a third of the matches at once, racing their takeovers.
    let asked: Vec<_> = matches
        .iter()
        .step_by(3)
        .enumerate()
        .map(|(i, (id, t))| {
            let base = [&b.base, &c.base][i % 2].clone();
            let (id, token) = (id.clone(), t[0].clone());
            std::thread::spawn(move || {
                let deadline = Instant::now() + Duration::from_secs(10);
                loop {
                    let state = get(&base, &format!("/api/matches/{id}"), Some(&token));
                    if state["steps"] == 1 || Instant::now() > deadline {
                        return state;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            })
        })
        .collect();
    // Every one of A's matches is held by B or C within 10 s.
    while unserved(&conn) > 0 {
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "{} of {N} matches unserved 10 s after the kill",
            unserved(&conn)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!(
        "{N} matches served again {} ms after the kill",
        killed.elapsed().as_millis()
    );
    for state in asked {
        let state = state.join().unwrap();
        assert_eq!(state["steps"], 1, "{state}");
    }
    let live = |base: &str| metrics(base)("colosseum_matches_live");
    assert_eq!(live(&b.base) + live(&c.base), N as f64);
    // Each is served by one node and goes on through either: the acknowledged bid stands, and
    // the match finishes with the result its moves give.
    for (k, (id, t)) in matches.iter().enumerate() {
        let holder = claim_holder(&conn, id);
        assert!(
            holder == Some(b.base.clone()) || holder == Some(c.base.clone()),
            "match {id} is held by {holder:?}"
        );
        let through = [&b.base, &c.base][k % 2];
        let state = get(through, &format!("/api/matches/{id}"), Some(&t[0]));
        assert_eq!(state["steps"], 1, "{state}");
        assert_eq!(state["match"]["seats"]["p1"]["submission"], "3", "{state}");
        for (seat, bid, decision) in [(1, 1, 1), (0, 2, 2), (1, 3, 2)] {
            let (status, v) = post(
                through,
                &format!("/api/matches/{id}/submit"),
                Some(&t[seat]),
                &json!({"move": bid.to_string(), "decision": decision}),
            );
            assert_eq!(status, 200, "{v}");
        }
        let end = get(through, &format!("/api/matches/{id}"), None);
        assert_eq!(end["status"], "finished", "{end}");
        // Prizes 1, 2, 3: Bo 1, Ann 2, Bo 3.
        assert_eq!(end["match"]["result"]["winner"], "p2", "{end}");
    }
    let finished = |base: &str| metrics(base)("colosseum_matches_finished_total");
    assert_eq!(finished(&b.base) + finished(&c.base), N as f64);
    assert_eq!(live(&b.base) + live(&c.base), 0.0);
}

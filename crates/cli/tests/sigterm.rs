//! `colosseum serve` stops on SIGTERM whatever is in flight (issue 36, hole 8): long bot
//! searches running and queued, and a verify of a bot match asked six times at once. Before,
//! the process waited for every verify and search on the blocking pool (27.9 s with 4 verifies
//! in flight, over 94 s with about 20); now waiting requests are answered at once and the jobs
//! are not waited for. Started again on the same database, the matches go on where they were:
//! nothing acknowledged is lost, and the bot moves not made are made now.
//!
//! The bound here (20 s) is only a guard against a hang: the time it takes is measured in
//! docs/benchmarks.md ("SIGTERM under a verify flood").

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{agent, get, serve_with, temp_db};
use serde_json::{json, Value};

/// Creates a match as if from `client` (the server trusts 127.0.0.1 as a proxy); its id.
fn create_from(base: &str, client: &str, body: &Value) -> String {
    let mut res = agent()
        .post(format!("{base}/api/matches"))
        .header("x-forwarded-for", client)
        .send_json(body)
        .unwrap();
    assert_eq!(res.status().as_u16(), 201);
    let v: Value = res.body_mut().read_json().unwrap();
    v["id"].as_str().unwrap().to_string()
}

fn steps(base: &str, id: &str) -> u64 {
    get(base, &format!("/api/matches/{id}"), None)["steps"]
        .as_u64()
        .unwrap()
}

fn wait_for(what: &str, secs: u64, mut ok: impl FnMut() -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        if ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{what}: not within {secs} s");
}

#[test]
fn sigterm_stops_the_server_at_once_with_searches_and_verifies_in_flight() {
    let (dir, db) = temp_db("sigterm", "matches.db");
    let flags = ["--bot-searches", "1", "--trusted-proxy", "127.0.0.1"];
    let mut server = serve_with(&db, &flags);
    let base = server.base.clone();
    let heavy = json!({"kind": "bot", "level": "mcts:iters=50000"});

    // A finished bot match to verify: each verify searches its twelve bot moves again.
    let finished = create_from(
        &base,
        "192.0.2.1",
        &json!({"game": "goofspiel", "options": {"cards": "6"}, "seats": [heavy, heavy],
                "time": {"kind": "untimed"}}),
    );
    wait_for("the bot match to verify finishes", 300, || {
        get(&base, &format!("/api/matches/{finished}"), None)["status"] == "finished"
    });

    // Long searches: two bot matches from another address.
    let mut running = Vec::new();
    for _ in 0..2 {
        running.push(create_from(
            &base,
            "192.0.2.2",
            &json!({"game": "goofspiel", "seats": [heavy, heavy], "time": {"kind": "untimed"}}),
        ));
    }
    wait_for("the bot matches start moving", 120, || {
        running.iter().any(|id| steps(&base, id) > 1)
    });

    // Six verifies of the match at once (they share one computation, in the bot pool).
    let verifies: Vec<_> = (0..6)
        .map(|_| {
            let url = format!("{base}/api/matches/{finished}/verify");
            std::thread::spawn(move || agent().get(url).call().map(|r| r.status().as_u16()))
        })
        .collect();
    wait_for("the verify is in the bot pool", 30, || {
        let health = get(&base, "/api/health", None);
        health["verify"]["queued"].as_u64().unwrap_or(0)
            + health["verify"]["running"].as_u64().unwrap_or(0)
            > 0
    });
    let before: Vec<u64> = running.iter().map(|id| steps(&base, id)).collect();

    let sent = Instant::now();
    let pid = server.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(20),
            "colosseum serve did not stop within 20 s of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = sent.elapsed();
    assert!(status.success(), "{status}");
    eprintln!("stopped {took:?} after SIGTERM");
    for v in verifies {
        // Answered 503 (`busy`, the server stops) or cut off: never a report it did not have.
        if let Ok(code) = v.join().unwrap() {
            assert!(code == 503 || code == 200, "{code}");
        }
    }
    drop(server);

    // Started again: every acknowledged move is there and the bots go on.
    let server = serve_with(&db, &flags);
    let base = server.base.clone();
    for (id, before) in running.iter().zip(&before) {
        assert!(steps(&base, id) >= *before, "match {id} lost moves");
    }
    wait_for("the bot matches go on after the restart", 120, || {
        running
            .iter()
            .zip(&before)
            .any(|(id, before)| steps(&base, id) > *before)
    });
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

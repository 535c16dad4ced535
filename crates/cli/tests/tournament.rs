//! Tournaments end to end through `colosseum serve` as a real process: a 16-player Swiss of 5
//! rounds and a 13-player double elimination, every seat a random bot playing short games,
//! the server killed with SIGKILL in the middle and started again on the same database, both
//! played to their final standings. The standings are checked against a computation of their
//! own from the matches' results (each match's state, asked of the server match by match).

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::{get, post, serve_with, temp_db};
use serde_json::{json, Value};

fn create(base: &str, body: Value) -> (String, String) {
    let (status, created) = post(base, "/api/tournaments", None, &body);
    assert_eq!(status, 201, "{created}");
    (
        created["id"].as_str().unwrap().to_string(),
        created["admin_token"].as_str().unwrap().to_string(),
    )
}

fn bots(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"name": format!("Player {:02}", i + 1), "bot": "random", "garnets": (i % 4) as i64}))
        .collect()
}

/// Waits until `done` holds for the tournament's view (at most a minute).
fn wait_for(base: &str, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let view = get(base, &format!("/api/tournaments/{id}"), None);
        if done(&view) {
            return view;
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "{what}: not reached in 90 s; {}",
            view["status"]
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn complete_rounds(view: &Value) -> usize {
    view["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["complete"] == true)
        .count()
}

/// Each finished board's players, the winner's player id (or `None` for a draw) and the player
/// holding the advantage, from the matches themselves: the match's own result and seats, not
/// the tournament's record of them.
fn games_from_matches(base: &str, view: &Value) -> Vec<(usize, usize, Option<usize>, usize)> {
    let mut out = Vec::new();
    for round in view["rounds"].as_array().unwrap() {
        for board in round["boards"].as_array().unwrap() {
            let id = board["match"].as_str().expect("every board has its match");
            let m = get(base, &format!("/api/matches/{id}"), None);
            assert_eq!(m["status"], "finished", "{m}");
            assert_eq!(
                m["tournament"], view["id"],
                "the match records its tournament"
            );
            let (p1, p2) = (
                board["p1"]["player"].as_u64().unwrap() as usize,
                board["p2"]["player"].as_u64().unwrap() as usize,
            );
            // The seats' names in the match are the tournament's players' (bots included).
            let names = &m["names"];
            assert_eq!(names["p1"], board["p1"]["name"], "{names}");
            assert_eq!(names["p2"], board["p2"]["name"], "{names}");
            let winner = match m["match"]["result"]["winner"].as_str() {
                Some("p1") => Some(p1),
                Some("p2") => Some(p2),
                _ => None,
            };
            // The advantage: the player with more garnets (equal: p1), as the match's options
            // and its own advantage say.
            let garnets = |p: usize| view["players"][p]["garnets"].as_i64().unwrap();
            let holder = if garnets(p2) > garnets(p1) { p2 } else { p1 };
            assert_eq!(
                board["advantage"].as_str(),
                (garnets(p1) != garnets(p2)).then_some(if holder == p1 { "p1" } else { "p2" })
            );
            out.push((p1, p2, winner, holder));
        }
    }
    out
}

#[test]
fn a_swiss_and_a_double_elimination_survive_sigkill_and_finish() {
    let (_dir, db) = temp_db("tournament", "t.db");
    let server = serve_with(&db, &["--http-rate", "10000"]);
    let base = server.base.clone();
    let game = json!({"game": "goofspiel", "options": {"cards": "4"}, "time": {"kind": "untimed"}});
    let mut swiss = game.clone();
    swiss["name"] = json!("Swiss sixteen");
    swiss["format"] = json!({"kind": "swiss", "rounds": 5});
    swiss["players"] = json!(bots(16));
    let mut double = game.clone();
    double["name"] = json!("Double thirteen");
    double["format"] = json!({"kind": "double_elimination"});
    double["players"] = json!(bots(13));
    let (swiss_id, _) = create(&base, swiss);
    let (double_id, _) = create(&base, double);

    // Kill the server once the Swiss has two rounds complete.
    let before = wait_for(&base, &swiss_id, "two Swiss rounds", |v| {
        complete_rounds(v) >= 2
    });
    let before_double = get(&base, &format!("/api/tournaments/{double_id}"), None);
    assert_ne!(before["status"], "finished", "the kill comes in the middle");
    let mut server = server;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    drop(server);

    let server = serve_with(&db, &["--http-rate", "10000"]);
    let base = server.base.clone();
    // Nothing lost: every board seen before the kill is there, with its match and result.
    let after = get(&base, &format!("/api/tournaments/{swiss_id}"), None);
    for (tournament_before, id) in [(&before, &swiss_id), (&before_double, &double_id)] {
        let now = get(&base, &format!("/api/tournaments/{id}"), None);
        for (r, round) in tournament_before["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            for (b, board) in round["boards"].as_array().unwrap().iter().enumerate() {
                let again = &now["rounds"][r]["boards"][b];
                assert_eq!(again["p1"], board["p1"]);
                assert_eq!(again["p2"], board["p2"]);
                if !board["match"].is_null() {
                    assert_eq!(again["match"], board["match"]);
                }
                if !board["result"].is_null() {
                    assert_eq!(again["result"], board["result"]);
                }
            }
        }
    }
    assert!(complete_rounds(&after) >= 2);

    let swiss = wait_for(&base, &swiss_id, "the Swiss's end", |v| {
        v["status"] == "finished"
    });
    let double = wait_for(&base, &double_id, "the double elimination's end", |v| {
        v["status"] == "finished"
    });

    // The Swiss: five rounds, everyone in every round, no pair twice.
    let rounds = swiss["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 5);
    let games = games_from_matches(&base, &swiss);
    assert_eq!(games.len(), 5 * 8);
    let mut pairs = std::collections::HashSet::new();
    for &(a, b, _, _) in &games {
        assert!(pairs.insert((a.min(b), a.max(b))), "{a} and {b} met twice");
    }
    // Points, Buchholz and Sonneborn-Berger computed here from the matches' results.
    let mut points = [0.0f64; 16];
    for &(a, b, w, _) in &games {
        match w {
            Some(w) => points[w] += 1.0,
            None => {
                points[a] += 0.5;
                points[b] += 0.5;
            }
        }
    }
    let mut buchholz = [0.0f64; 16];
    let mut sb = [0.0f64; 16];
    for &(a, b, w, _) in &games {
        buchholz[a] += points[b];
        buchholz[b] += points[a];
        let (sa, sb_) = match w {
            Some(w) if w == a => (1.0, 0.0),
            Some(_) => (0.0, 1.0),
            None => (0.5, 0.5),
        };
        sb[a] += sa * points[b];
        sb[b] += sb_ * points[a];
    }
    let table = swiss["standings"].as_array().unwrap();
    assert_eq!(table.len(), 16);
    let mut last: Option<(f64, f64, f64)> = None;
    for line in table {
        let p = line["player"].as_u64().unwrap() as usize;
        let got = (
            line["points"].as_f64().unwrap(),
            line["buchholz"].as_f64().unwrap(),
            line["sonneborn_berger"].as_f64().unwrap(),
        );
        assert_eq!(got, (points[p], buchholz[p], sb[p]), "player {p}");
        if let Some(prev) = last {
            assert!(
                prev >= got,
                "standings out of order: {prev:?} before {got:?}"
            );
        }
        last = Some(got);
    }

    // The double elimination: everyone but the champion lost twice; the champion at most once.
    let games = games_from_matches(&base, &double);
    let mut losses: HashMap<usize, u32> = HashMap::new();
    for &(a, b, w, holder) in &games {
        // A drawn bracket game goes to the advantage holder.
        let w = w.unwrap_or(holder);
        let loser = if w == a { b } else { a };
        *losses.entry(loser).or_default() += 1;
    }
    let champion = double["standings"][0]["player"].as_u64().unwrap() as usize;
    assert!(losses.get(&champion).copied().unwrap_or(0) <= 1);
    for p in (0..13).filter(|&p| p != champion) {
        assert_eq!(losses.get(&p).copied(), Some(2), "player {p}");
    }
    assert!(
        games.len() == 24 || games.len() == 25,
        "{} games",
        games.len()
    );
    assert!(double["bracket"].as_array().unwrap().len() >= 2);

    // The exports agree with the view.
    let csv = common::agent()
        .get(format!("{base}/api/tournaments/{swiss_id}/standings.csv"))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 17);
    assert!(lines[0].starts_with("rank,name,points,buchholz,sonneborn_berger"));
    let first = table[0]["name"].as_str().unwrap();
    assert!(lines[1].starts_with(&format!("1,{first},")), "{}", lines[1]);
    let exported = get(
        &base,
        &format!("/api/tournaments/{swiss_id}/standings.json"),
        None,
    );
    assert_eq!(exported["standings"], swiss["standings"]);
}

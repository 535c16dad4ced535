//! Provably fair chance and numbered decisions, through the router: the creator cannot choose
//! chance in a normal match, the commitment is public from the start and the server seed from
//! the end, `verify` accepts every game's finished match and names an altered step, and a move
//! sent for a decision that is over is refused, never applied to the next.

mod common;

use axum::http::StatusCode;
use colosseum_engine::fair::sha256_hex;
use colosseum_engine::Record;
use colosseum_server::verify::verify;
use common::{server, Server};
use serde_json::{json, Value};

async fn records(s: &Server, id: &str) -> Vec<Record> {
    let (status, v) = s
        .call("GET", &format!("/api/matches/{id}/record"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    serde_json::from_value(v["records"].clone()).unwrap()
}

fn chance_steps(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .flat_map(|r| r.steps.iter().filter_map(|s| s.chance.clone()))
        .collect()
}

/// A finished two-human match of `game` with the given client seeds.
async fn finished(s: &Server, body: Value, seeds: [&str; 2], play_seed: u64) -> (String, Value) {
    let (id, tokens) = s.create(body).await;
    for (i, t) in tokens.iter().enumerate() {
        let (status, v) = s
            .post(
                &id,
                "join",
                t.as_deref().unwrap(),
                json!({"client_seed": seeds[i]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let end = s.play_out(&id, &tokens, play_seed).await;
    (id, end)
}

#[tokio::test]
async fn the_same_request_twice_deals_different_chance_and_verifies() {
    let s = server();
    let body = json!({"game": "goofspiel", "options": {"cards": "13"}});
    let (a, _) = finished(&s, body.clone(), ["same", "same"], 1).await;
    let (b, _) = finished(&s, body, ["same", "same"], 1).await;
    let (ra, rb) = (records(&s, &a).await, records(&s, &b).await);
    assert_eq!(chance_steps(&ra).len(), 13);
    assert_ne!(
        chance_steps(&ra),
        chance_steps(&rb),
        "the server seed differs, so the prize order does"
    );
    for r in [&ra, &rb] {
        assert!(!r[0].practice);
        let report = verify(r);
        assert!(report.ok, "{}", report.text());
        assert_eq!(report.games[0].chance_checked, 13);
    }
}

#[tokio::test]
async fn a_creator_seed_makes_a_practice_match_marked_everywhere() {
    let s = server();
    let body = json!({"game": "goofspiel", "options": {"cards": "6"}, "seed": 4242});
    let (a, _) = finished(&s, body.clone(), ["x", "y"], 2).await;
    let (b, tokens) = s.create(body).await;
    // Marked to both seats and spectators while it waits.
    for token in [tokens[0].as_deref(), tokens[1].as_deref(), None] {
        let v = s.state(&b, token).await;
        assert_eq!(v["practice"], true, "{v}");
        assert!(v["fairness"].is_null());
    }
    // A client seed (the browser always sends one) changes nothing in a practice match.
    let (status, v) = s
        .post(
            &b,
            "join",
            tokens[0].as_deref().unwrap(),
            json!({"client_seed": "abc"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["fairness"].is_null());
    let (_, lobby) = s.call("GET", "/api/matches", None, None).await;
    let listed = lobby["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == b.as_str())
        .unwrap();
    assert_eq!(listed["practice"], true);
    let finished = lobby["finished"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == a.as_str())
        .unwrap();
    assert_eq!(finished["practice"], true);
    let r = records(&s, &a).await;
    assert!(r[0].practice && r[0].fairness.is_none());
    assert_eq!(r[0].seed, 4242);
    let report = verify(&r);
    assert!(report.ok && report.practice, "{}", report.text());
    assert!(report.text().contains("NOT provably fair"));
}

#[tokio::test]
async fn the_commitment_is_public_at_once_and_the_server_seed_at_the_end() {
    let s = server();
    let (id, tokens) = s
        .create(json!({"game": "goofspiel", "options": {"cards": "4"}}))
        .await;
    let spectator = s.state(&id, None).await;
    let commitment = spectator["fairness"]["commitment"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(commitment.len(), 64);
    assert!(spectator["fairness"]["server_seed"].is_null());
    assert_eq!(spectator["practice"], false);
    let (status, v) = s
        .post(
            &id,
            "join",
            tokens[0].as_deref().unwrap(),
            json!({"client_seed": "bad seed!"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("client seed"),
        "{v}"
    );
    s.post(
        &id,
        "join",
        tokens[0].as_deref().unwrap(),
        json!({"client_seed": "alice-1"}),
    )
    .await;
    // A seat that gives no client seed gets one from the server.
    s.post(&id, "join", tokens[1].as_deref().unwrap(), json!({}))
        .await;
    let live = s.state(&id, tokens[1].as_deref()).await;
    assert_eq!(live["fairness"]["client_seeds"]["p1"], "alice-1");
    assert!(live["fairness"]["client_seeds"]["p2"].is_string());
    assert!(live["fairness"]["server_seed"].is_null());
    assert_eq!(live["fairness"]["commitment"], commitment.as_str());
    // Once started, a client seed is fixed.
    let (status, v) = s
        .post(
            &id,
            "join",
            tokens[0].as_deref().unwrap(),
            json!({"client_seed": "other"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "seed_fixed");
    let end = s.play_out(&id, &tokens, 3).await;
    let server_seed = end["fairness"]["server_seed"].as_str().unwrap();
    let bytes: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&server_seed[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    assert_eq!(sha256_hex(&bytes), commitment);
    let (status, report) = s
        .call("GET", &format!("/api/matches/{id}/verify"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(report["ok"], true, "{report}");
}

#[tokio::test]
async fn verify_accepts_a_finished_match_of_every_game() {
    let s = server();
    for (i, entry) in colosseum_games::registry().iter().enumerate() {
        let (id, _) = finished(
            &s,
            json!({"game": entry.id, "time": {"kind": "untimed"}}),
            ["p1-seed", "p2-seed"],
            i as u64,
        )
        .await;
        let r = records(&s, &id).await;
        let report = verify(&r);
        assert!(report.ok, "{}: {}", entry.id, report.text());
        assert!(r[0].fairness.as_ref().unwrap().server_seed.is_some());
    }
}

#[tokio::test]
async fn verify_names_an_altered_chance_step_seed_or_commitment() {
    let s = server();
    let (id, _) = finished(
        &s,
        json!({"game": "goofspiel", "options": {"cards": "6"}}),
        ["a", "b"],
        4,
    )
    .await;
    let good = records(&s, &id).await;
    assert!(verify(&good).ok);

    // A chance step swapped with a later one.
    let mut r = good.clone();
    let chance: Vec<usize> = (0..r[0].steps.len())
        .filter(|&i| r[0].steps[i].is_chance())
        .collect();
    let (x, y) = (chance[1], chance[2]);
    let (cx, cy) = (r[0].steps[x].chance.clone(), r[0].steps[y].chance.clone());
    r[0].steps[x].chance = cy;
    r[0].steps[y].chance = cx;
    let report = verify(&r);
    assert!(!report.ok);
    let failure = report.games[0].failure.clone().unwrap();
    assert!(
        failure.starts_with(&format!("steps[{x}] is the chance step")),
        "{failure}"
    );

    // Another seed.
    let mut r = good.clone();
    r[0].seed ^= 1;
    assert!(verify(&r).games[0]
        .failure
        .clone()
        .unwrap()
        .contains("seeds make"));

    // A client seed changed afterwards.
    let mut r = good.clone();
    r[0].fairness.as_mut().unwrap().client_seeds.p2 = Some("c".into());
    assert!(!verify(&r).ok);

    // Another server seed: no longer the committed one.
    let mut r = good.clone();
    r[0].fairness.as_mut().unwrap().server_seed = Some("00".repeat(32));
    let report = verify(&r);
    assert!(report
        .failure
        .unwrap()
        .contains("does not match the commitment"));

    // No fairness data at all.
    let mut r = good;
    r[0].fairness = None;
    assert!(verify(&r).failure.unwrap().contains("no fairness data"));
}

/// The records of a 5-card Goofspiel match played out by a human seat (client seed `me`)
/// against a bot seat of `level`.
async fn played_against_a_bot(level: &str) -> Vec<Record> {
    let s = server();
    let (id, tokens) = s
        .create(json!({
            "game": "goofspiel",
            "options": {"cards": "5"},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": level}],
        }))
        .await;
    s.post(
        &id,
        "join",
        tokens[0].as_deref().unwrap(),
        json!({"client_seed": "me"}),
    )
    .await;
    s.play_out(&id, &tokens, 5).await;
    records(&s, &id).await
}

#[tokio::test]
async fn a_bot_seats_moves_are_rederived_from_the_seeds() {
    let good = played_against_a_bot("mcts:iters=200").await;
    assert_eq!(
        good[0].fairness.as_ref().unwrap().bots.p2.as_deref(),
        Some("mcts:iters=200")
    );
    let report = verify(&good);
    assert!(report.ok, "{}", report.text());
    assert_eq!(report.games[0].bot_moves_checked, 5);
    // What the level meant is recorded, spelled out; a build whose level means something else
    // re-runs the recorded settings (here the level's name is changed to one that means other
    // settings in this build: the moves are still re-derived from what was recorded).
    let fair = good[0].fairness.as_ref().unwrap();
    assert_eq!(
        fair.bot_settings.p2.as_deref(),
        Some("mcts:iters=200,algo=rm,gamma=0.1,model=0,exact=false,solve=false")
    );
    let mut renamed = good.clone();
    renamed[0].fairness.as_mut().unwrap().bots.p2 = Some("mcts:easy".into());
    let report = verify(&renamed);
    assert!(report.ok, "{}", report.text());
    assert_eq!(report.games[0].bot_moves_checked, 5);
    assert!(
        report
            .text()
            .contains("re-derived with the recorded settings"),
        "{}",
        report.text()
    );
    // An older record names the settings in words only: not re-derived, and said so.
    let mut other = good.clone();
    other[0].fairness.as_mut().unwrap().bot_settings.p2 = Some("mcts(uct, 5000 iterations)".into());
    let report = verify(&other);
    assert!(report.ok, "{}", report.text());
    assert_eq!(report.games[0].bot_moves_checked, 0);
    assert!(
        report.text().contains("not re-derived"),
        "{}",
        report.text()
    );
    // The bot's last move replaced by another card: named.
    let mut r = good;
    let last = r[0].steps.len() - 1;
    let mine = r[0].steps[last].p1.clone().unwrap();
    let theirs = r[0].steps[last].p2.clone().unwrap();
    if mine != theirs {
        r[0].steps[last].p2 = Some(mine);
        let report = verify(&r);
        let failure = report.games[0].failure.clone().unwrap();
        assert!(failure.contains("p2 is a bot"), "{failure}");
    }
}

#[tokio::test]
async fn a_move_for_a_decision_that_is_over_is_refused_in_either_order() {
    let s = server();
    let (id, tokens) = s
        .create(json!({"game": "goofspiel", "options": {"cards": "5", "order": "descending"}}))
        .await;
    let [t1, t2] = tokens.clone().map(Option::unwrap);
    for t in [&t1, &t2] {
        s.post(&id, "join", t, json!({})).await;
    }
    let submit = |token: String, mv: &'static str, decision: Value| {
        let s = &s;
        let id = id.clone();
        async move {
            s.act(
                &id,
                "submit",
                &token,
                json!({"move": mv, "decision": decision}),
            )
            .await
        }
    };
    let d0 = s.state(&id, None).await["decision"].clone();
    // p1 bids 5, then changes to 4 before p2 bids: the change counts for this prize.
    assert_eq!(submit(t1.clone(), "5", d0.clone()).await.0, StatusCode::OK);
    assert_eq!(submit(t1.clone(), "4", d0.clone()).await.0, StatusCode::OK);
    assert_eq!(submit(t2.clone(), "1", d0.clone()).await.0, StatusCode::OK);
    let after = s.state(&id, Some(&t1)).await;
    let d1 = after["decision"].clone();
    assert_ne!(d0, d1);
    assert_eq!(after["match"]["seats"]["p1"]["submitted"], false);
    // The other order: p2 bids first, and p1's change arrives after the reveal.
    assert_eq!(submit(t1.clone(), "5", d1.clone()).await.0, StatusCode::OK);
    assert_eq!(submit(t2.clone(), "2", d1.clone()).await.0, StatusCode::OK);
    let (status, v) = submit(t1.clone(), "3", d1.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "stale_decision");
    let now = s.state(&id, Some(&t1)).await;
    assert_eq!(
        now["match"]["seats"]["p1"]["submitted"], false,
        "the late change was not taken as a bid for the next prize"
    );
    // Locks are numbered too; a decision not reached yet is refused the same way.
    let d2 = now["decision"].as_u64().unwrap();
    let (status, v) = s.act(&id, "lock", &t1, json!({"decision": d2 + 7})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(v["error"]["code"], "stale_decision");
}

#[tokio::test]
async fn a_bot_against_a_bot_is_fair_from_creation_and_verifies() {
    let s = server();
    let (id, tokens) = s
        .create(json!({
            "game": "goofspiel",
            "options": {"cards": "4"},
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "mcts:iters=50"}],
            "time": {"kind": "untimed"},
        }))
        .await;
    assert_eq!(tokens, [None, None]);
    let start = s.state(&id, None).await;
    assert_eq!(start["status"], "live");
    assert!(start["fairness"]["client_seeds"]["p1"].is_string());
    s.play_out(&id, &tokens, 0).await;
    let r = records(&s, &id).await;
    let report = verify(&r);
    assert!(report.ok, "{}", report.text());
    assert_eq!(report.games[0].bot_moves_checked, 8);
}

/// A server over the SQLite file `db`, as after a restart.
fn server_on(db: &std::path::Path) -> Server {
    common::server_on_store(
        colosseum_server::SqliteStore::open(db).unwrap(),
        common::open_limits(),
        false,
    )
}

#[tokio::test]
async fn a_restart_before_the_second_join_keeps_the_commitment_and_the_first_seed() {
    let dir = std::env::temp_dir().join(format!("colosseum-fair-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("m.db");
    let _ = std::fs::remove_file(&db);
    let (id, tokens, commitment) = {
        let s = server_on(&db);
        let (id, tokens) = s
            .create(json!({"game": "goofspiel", "options": {"cards": "5"}}))
            .await;
        s.post(
            &id,
            "join",
            tokens[0].as_deref().unwrap(),
            json!({"client_seed": "early"}),
        )
        .await;
        let c = s.state(&id, None).await["fairness"]["commitment"].clone();
        (id, tokens, c)
    };
    let s = server_on(&db);
    s.hub.resume().await.unwrap();
    let v = s.state(&id, None).await;
    assert_eq!(v["fairness"]["commitment"], commitment);
    assert_eq!(v["fairness"]["client_seeds"]["p1"], "early");
    let (status, v) = s
        .post(
            &id,
            "join",
            tokens[1].as_deref().unwrap(),
            json!({"client_seed": "late"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    s.play_out(&id, &tokens, 9).await;
    let r = records(&s, &id).await;
    assert_eq!(
        r[0].fairness.as_ref().unwrap().commitment,
        commitment.as_str().unwrap()
    );
    let report = verify(&r);
    assert!(report.ok, "{}", report.text());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A level's exploration is the game's (classic Goofspiel: 0.3 × cards / 13): the record spells
/// it out as the number the bot searched with, the bot's moves are re-derived from it, and a
/// record of the old meaning (0.3 at any size) is re-run with its own number and said so.
#[tokio::test]
async fn a_levels_exploration_is_recorded_as_the_games_number() {
    let good = played_against_a_bot("mcts:easy").await;
    assert_eq!(
        good[0].fairness.as_ref().unwrap().bot_settings.p2.as_deref(),
        Some("mcts:iters=1000,algo=rm,gamma=0.11538461538461539,model=0,exact=false,solve=false,withheld=search")
    );
    let report = verify(&good);
    assert!(report.ok, "{}", report.text());
    assert_eq!(report.games[0].bot_moves_checked, 5);
    assert!(
        !report.text().contains("re-derived with"),
        "{}",
        report.text()
    );
    let mut old = good;
    old[0].fairness.as_mut().unwrap().bot_settings.p2 = Some(
        "mcts:iters=1000,algo=rm,gamma=0.3,model=0,exact=false,solve=false,withheld=search".into(),
    );
    let report = verify(&old);
    assert!(
        report
            .text()
            .contains("re-derived with the recorded settings"),
        "{}",
        report.text()
    );
}

//! Provably fair chance and numbered decisions, through the router: the creator cannot choose
//! chance in a normal match, the commitment (to the public setup and the server seed) is public
//! from the start and the server seed from the end, client seeds are committed at the join and
//! revealed once both are in (the server makes none), `verify` accepts every game's finished
//! match and names an altered step, a default move or a seat that does not fit the setup, and
//! a move sent for a decision that is over is refused, never applied to the next.

mod common;

use axum::http::StatusCode;
use colosseum_engine::fair::sha256_hex;
use colosseum_engine::Record;
use colosseum_server::verify::verify;
use common::{seed_hash, server, Server};
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

/// Joins the human seats of `id` with the hashes of `seeds`, then reveals them if the state
/// says a reveal is due (not in a practice match).
async fn join_with(s: &Server, id: &str, tokens: &[Option<String>; 2], seeds: [&str; 2]) {
    for (i, t) in tokens.iter().enumerate() {
        let Some(t) = t else { continue };
        let (status, v) = s
            .post(
                id,
                "join",
                t,
                json!({"client_seed_hash": seed_hash(seeds[i])}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    for (i, t) in tokens.iter().enumerate() {
        let Some(t) = t else { continue };
        if s.state(id, None).await["fairness"]["reveal_due"] == true {
            let (status, v) = s
                .post(id, "reveal", t, json!({"client_seed": seeds[i]}))
                .await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
    }
}

/// A finished two-human match of `game` with the given client seeds.
async fn finished(s: &Server, body: Value, seeds: [&str; 2], play_seed: u64) -> (String, Value) {
    let (id, tokens) = s.create(body).await;
    join_with(s, &id, &tokens, seeds).await;
    let end = s.play_out(&id, &tokens, play_seed).await;
    (id, end)
}

#[tokio::test]
async fn the_same_request_twice_deals_different_chance_and_verifies() {
    let s = server();
    let body = json!({"game": "goofspiel", "options": {"cards": "13"}});
    let same = "same-client-seed-0123";
    let (a, _) = finished(&s, body.clone(), [same, same], 1).await;
    let (b, _) = finished(&s, body, [same, same], 1).await;
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
async fn the_commitment_binds_the_setup_and_is_public_at_once_and_the_server_seed_at_the_end() {
    let s = server();
    let (id, tokens) = s
        .create(json!({
            "game": "goofspiel",
            "options": {"cards": "4"},
            "time": {"kind": "timed", "per_decision_ms": 30000},
        }))
        .await;
    let [t1, t2] = tokens.clone().map(Option::unwrap);
    // Both seats and spectators see the setup and the commitment before anyone joins.
    let spectator = s.state(&id, None).await;
    let fair = spectator["fairness"].clone();
    assert_eq!(fair["version"], 2, "{fair}");
    let commitment = fair["commitment"].as_str().unwrap().to_string();
    let text = fair["setup_text"].as_str().unwrap().to_string();
    assert_eq!(sha256_hex(text.as_bytes()), commitment);
    let server_seed_hash = fair["server_seed_hash"].as_str().unwrap().to_string();
    assert_eq!(
        text,
        format!(
            "colosseum-setup=2\ngame=goofspiel\noptions={{\"cards\":\"4\"}}\np1=human\np2=human\n\
             time={{\"bank_ms\":0,\"bank_step_ms\":0,\"empty_bank\":\"default\",\"kind\":\"timed\",\"per_decision_ms\":30000}}\n\
             sealed=no\npractice=no\nreplay_on_draw=no\nadvantage=p1\ntrivia=none\n\
             server_seed_sha256={server_seed_hash}\n"
        )
    );
    assert_eq!(fair["setup"]["p1"]["kind"], "human");
    assert_eq!(s.state(&id, Some(&t2)).await["fairness"], fair);
    assert!(fair["server_seed"].is_null());
    assert_eq!(fair["reveal_due"], false);
    assert_eq!(spectator["practice"], false);

    // A client seed in clear at the join is refused (the second joiner could aim chance with
    // it), and so is a join with no commitment: the server never makes a seat's seed.
    for body in [json!({"client_seed": "alice-client-seed-1"}), json!({})] {
        let (status, v) = s.post(&id, "join", &t1, body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(v["error"]["code"], "seed_hash_required");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("client_seed_hash"),
            "{v}"
        );
    }
    let (status, v) = s
        .post(&id, "join", &t1, json!({"client_seed_hash": "abc"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (a, b) = ("alice-client-seed-1", "bob-client-seed-22");
    let (status, v) = s
        .post(&id, "join", &t1, json!({"client_seed_hash": seed_hash(a)}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["fairness"]["client_seed_hashes"]["p1"], seed_hash(a));
    // Before the other seat has committed, a reveal is not due.
    let (status, v) = s.post(&id, "reveal", &t1, json!({"client_seed": a})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "reveal_not_due");
    let (status, v) = s
        .post(&id, "join", &t2, json!({"client_seed_hash": seed_hash(b)}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Both committed: the state says the reveals are due; the match has not started.
    assert_eq!(v["fairness"]["reveal_due"], true, "{v}");
    assert_eq!(v["status"], "waiting");
    // A commitment is binding once both are in.
    let (status, v) = s
        .post(
            &id,
            "join",
            &t1,
            json!({"client_seed_hash": seed_hash("another-seed-000001")}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "seed_fixed");
    // A reveal must hash to the commitment, and be long enough.
    let (status, v) = s
        .post(
            &id,
            "reveal",
            &t1,
            json!({"client_seed": "bob-client-seed-22"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["error"]["code"], "seed_mismatch");
    let (status, v) = s
        .post(&id, "reveal", &t1, json!({"client_seed": "short"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = s.post(&id, "reveal", &t1, json!({"client_seed": a})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "waiting", "p2 has not revealed yet");
    assert_eq!(v["fairness"]["client_seeds"]["p1"], a);
    let (status, v) = s.post(&id, "reveal", &t2, json!({"client_seed": b})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "live");
    assert_eq!(v["fairness"]["reveal_due"], false);
    assert_eq!(v["fairness"]["client_seeds"]["p2"], b);
    assert!(v["fairness"]["server_seed"].is_null());
    assert_eq!(v["fairness"]["commitment"], commitment.as_str());
    let end = s.play_out(&id, &tokens, 3).await;
    let server_seed = end["fairness"]["server_seed"].as_str().unwrap();
    let bytes: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&server_seed[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    assert_eq!(sha256_hex(&bytes), server_seed_hash);
    let r = records(&s, &id).await;
    let derived = colosseum_engine::fair::derive_seed(server_seed, a, b);
    assert_eq!(r[0].seed, derived);
    let (status, report) = s
        .call("GET", &format!("/api/matches/{id}/verify"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(report["ok"], true, "{report}");
}

#[tokio::test]
async fn a_seat_that_never_reveals_keeps_the_match_waiting_until_it_expires() {
    let s = server();
    let (id, tokens) = s
        .create(json!({"game": "goofspiel", "options": {"cards": "4"}}))
        .await;
    let [t1, t2] = tokens.clone().map(Option::unwrap);
    let (a, b) = ("alice-client-seed-1", "bob-client-seed-22");
    s.post(&id, "join", &t1, json!({"client_seed_hash": seed_hash(a)}))
        .await;
    s.post(&id, "join", &t2, json!({"client_seed_hash": seed_hash(b)}))
        .await;
    s.post(&id, "reveal", &t1, json!({"client_seed": a})).await;
    // p1 is told the match waits for p2's reveal.
    let v = s.state(&id, Some(&t1)).await;
    assert_eq!(v["status"], "waiting");
    assert_eq!(v["fairness"]["reveal_due"], true);
    assert!(v["fairness"]["client_seeds"]["p2"].is_null());
    let (status, v) = s
        .act(&id, "submit", &t1, json!({"move": "1", "decision": 0}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "not_started");
    // It expires as a match nobody joined does.
    s.clock.advance(s.state.limits.waiting_expiry_ms);
    let (status, v) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    assert_eq!(status, StatusCode::GONE, "{v}");
    assert_eq!(v["error"]["code"], "expired");
}

#[tokio::test]
async fn verify_accepts_a_finished_match_of_every_game() {
    let s = server();
    for (i, entry) in colosseum_games::registry().iter().enumerate() {
        let (id, _) = finished(
            &s,
            json!({"game": entry.id, "time": {"kind": "untimed"}}),
            ["p1-client-seed-0001", "p2-client-seed-0002"],
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
        ["seed-a-0123456789", "seed-b-0123456789"],
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

    // A client seed changed afterwards: it no longer hashes to what p2 committed to.
    let mut r = good.clone();
    r[0].fairness.as_mut().unwrap().client_seeds.p2 = Some("seed-c-0123456789".into());
    let report = verify(&r);
    assert!(
        report
            .failure
            .clone()
            .unwrap()
            .contains("p2's client seed hashes to"),
        "{}",
        report.text()
    );

    // The setup changed afterwards (say, to sealed): no longer the committed one.
    let mut r = good.clone();
    r[0].fairness
        .as_mut()
        .unwrap()
        .setup
        .as_mut()
        .unwrap()
        .sealed = true;
    let report = verify(&r);
    assert!(
        report
            .failure
            .clone()
            .unwrap()
            .contains("the setup does not match the commitment"),
        "{}",
        report.text()
    );

    // Another server seed: no longer the committed one.
    let mut r = good.clone();
    r[0].fairness.as_mut().unwrap().server_seed = Some("00".repeat(32));
    let report = verify(&r);
    assert!(report
        .failure
        .unwrap()
        .contains("does not match the commitment"));

    // Checked against the commitment a player saw: the record's own, or not.
    let seen = good[0].fairness.as_ref().unwrap().commitment.clone();
    assert!(colosseum_server::verify::verify_against(&good, Some(&seen)).ok);
    let report = colosseum_server::verify::verify_against(&good, Some(&"ab".repeat(32)));
    assert!(!report.ok);
    assert!(
        report
            .failure
            .clone()
            .unwrap()
            .contains("not the commitment"),
        "{}",
        report.text()
    );

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
    join_with(&s, &id, &tokens, ["my-client-seed-0001", ""]).await;
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
    // What the level meant is committed in the setup, spelled out (a build whose level means
    // something else re-runs these settings), and recorded the same way; the bot seat has no
    // client seed.
    let fair = good[0].fairness.as_ref().unwrap();
    let settings = "mcts:iters=200,algo=rm,gamma=0.1,model=0,exact=false,solve=false";
    assert_eq!(fair.bot_settings.p2.as_deref(), Some(settings));
    let setup = fair.setup.as_ref().unwrap();
    assert_eq!(setup.p2.settings.as_deref(), Some(settings));
    assert!(!setup.p2.time_budget);
    assert!(fair.client_seeds.p2.is_none());
    // The record's label or settings changed afterwards: they no longer fit the setup.
    let mut renamed = good.clone();
    renamed[0].fairness.as_mut().unwrap().bots.p2 = Some("mcts:easy".into());
    let report = verify(&renamed);
    assert!(!report.ok);
    assert!(
        report
            .text()
            .contains("the committed setup has the bot `mcts:iters=200`"),
        "{}",
        report.text()
    );
    let mut other = good.clone();
    other[0].fairness.as_mut().unwrap().bot_settings.p2 = Some("mcts(uct, 5000 iterations)".into());
    let report = verify(&other);
    assert!(!report.ok);
    assert!(
        report.text().contains("fairness.bot_settings gives p2"),
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
    s.join_all(&id, &tokens).await;
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
    // Bots have no client seed: the server makes none for anyone.
    assert!(start["fairness"]["client_seeds"]["p1"].is_null());
    assert_eq!(start["fairness"]["setup"]["p1"]["kind"], "bot");
    assert_eq!(start["fairness"]["setup"]["p2"]["bot"], "mcts:iters=50");
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
            json!({"client_seed_hash": seed_hash("early-client-seed-1")}),
        )
        .await;
        let c = s.state(&id, None).await["fairness"]["commitment"].clone();
        (id, tokens, c)
    };
    let s = server_on(&db);
    s.hub.resume().await.unwrap();
    let v = s.state(&id, None).await;
    assert_eq!(v["fairness"]["commitment"], commitment);
    assert_eq!(
        v["fairness"]["client_seed_hashes"]["p1"],
        seed_hash("early-client-seed-1")
    );
    join_with(
        &s,
        &id,
        &[None, tokens[1].clone()],
        ["", "late-client-seed-22"],
    )
    .await;
    // After a restart between the reveals too.
    drop(s);
    let s = server_on(&db);
    s.hub.resume().await.unwrap();
    assert_eq!(s.state(&id, None).await["fairness"]["reveal_due"], true);
    let (status, v) = s
        .post(
            &id,
            "reveal",
            tokens[0].as_deref().unwrap(),
            json!({"client_seed": "early-client-seed-1"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "live");
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
/// it out as the number the bot searched with, and the bot's moves are re-derived from it.
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
}

#[tokio::test]
async fn a_move_made_at_a_timeout_is_rederived_and_a_claimed_one_that_is_not_fails() {
    let s = server();
    let (id, tokens) = s
        .start(json!({
            "game": "goofspiel",
            "options": {"cards": "4"},
            "time": {"kind": "timed", "per_decision_ms": 30000},
        }))
        .await;
    let t1 = tokens[0].clone().unwrap();
    let v = s.state(&id, None).await;
    let (status, answer) = s
        .act(
            &id,
            "submit",
            &t1,
            json!({"move": "4", "decision": v["decision"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // p2 lets its time run out: the host moves for it.
    s.clock.advance(31_000);
    s.hub.tick_all().await.unwrap();
    s.play_out(&id, &tokens, 7).await;
    let good = records(&s, &id).await;
    let defaults = good[0].fairness.as_ref().unwrap().defaults.clone();
    assert_eq!(defaults.len(), 1, "{defaults:?}");
    let d = defaults[0].clone();
    assert_eq!(d.seat, colosseum_engine::Seat::P2);
    let report = verify(&good);
    assert!(report.ok, "{}", report.text());
    assert_eq!(report.games[0].defaults_checked, 1);

    // The move at that step is not the one the seeds give.
    let mut r = good.clone();
    let made = r[0].steps[d.step].p2.clone().unwrap();
    r[0].steps[d.step].p2 = Some(if made == "2" { "3" } else { "2" }.into());
    let report = verify(&r);
    let failure = report.games[0].failure.clone().unwrap();
    assert!(
        failure.contains(&format!(
            "steps[{}]: fairness.defaults says the host moved for p2 when its time ran out, but the default move the seeds give there is `{made}`",
            d.step
        )),
        "{failure}"
    );
    // p1's own bid claimed as a move made at a timeout: re-derived, it is not.
    let mut r = good.clone();
    r[0].fairness
        .as_mut()
        .unwrap()
        .defaults
        .push(colosseum_engine::fair::DefaultMove {
            step: d.step,
            seat: colosseum_engine::Seat::P1,
        });
    let report = verify(&r);
    let failure = report.games[0].failure.clone().unwrap();
    assert!(
        failure.contains("fairness.defaults says the host moved for p1"),
        "{failure}"
    );
}

#[tokio::test]
async fn a_move_claimed_at_a_timeout_in_an_untimed_match_fails() {
    let s = server();
    let (id, _) = finished(
        &s,
        json!({"game": "goofspiel", "options": {"cards": "4"}, "time": {"kind": "untimed"}}),
        ["seed-a-0123456789", "seed-b-0123456789"],
        2,
    )
    .await;
    let mut r = records(&s, &id).await;
    assert!(verify(&r).ok);
    r[0].fairness
        .as_mut()
        .unwrap()
        .defaults
        .push(colosseum_engine::fair::DefaultMove {
            step: 1,
            seat: colosseum_engine::Seat::P2,
        });
    let report = verify(&r);
    let failure = report.games[0].failure.clone().unwrap();
    assert!(
        failure.contains("the committed setup is untimed"),
        "{failure}"
    );
}

/// A record made before setups and client seeds were committed (fairness version 1) still
/// verifies, and the report says what it cannot bind.
#[tokio::test]
async fn a_version_one_record_still_verifies_and_says_what_is_not_bound() {
    let s = server();
    let (id, _) = finished(
        &s,
        json!({"game": "goofspiel", "options": {"cards": "5"}}),
        ["seed-a-0123456789", "seed-b-0123456789"],
        3,
    )
    .await;
    let mut r = records(&s, &id).await;
    let fair = r[0].fairness.as_mut().unwrap();
    fair.version = 1;
    fair.commitment = fair.server_seed_hash.take().unwrap();
    fair.setup = None;
    fair.client_seed_hashes = Default::default();
    let report = verify(&r);
    assert!(report.ok, "{}", report.text());
    assert!(
        report.text().contains("fairness version 1"),
        "{}",
        report.text()
    );
    // Its JSON has no `version` (as old records had none) and reads back as version 1.
    let text = serde_json::to_string(&r[0]).unwrap();
    assert!(!text.contains("\"version\""), "{text}");
    let back: Record = serde_json::from_str(&text).unwrap();
    assert_eq!(back.fairness.unwrap().version, 1);
}

//! Sealed submissions over HTTP (and one WebSocket): commit, then open.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use colosseum_engine::Seat;
use colosseum_host::commitment;
use colosseum_server::{Hub, Limits, ManualClock, SqliteStore, Store};
use common::ws::reply;
use common::{begin, server, server_with, temp_db};
use serde_json::{json, Value};

const N1: &str = "9f2c4e7a1b3d5f60718293a4b5c6d7e8";
const N2: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// `seat`'s commitment to `mv` with `nonce` in the pending decision, made as a client makes it
/// from a state of the match (its `id` and `decision`).
fn seal(state: &Value, seat: Seat, mv: &str, nonce: &str) -> String {
    let id = state["id"].as_str().expect("the state's id");
    let decision = state["decision"].as_u64().expect("the state's decision");
    commitment(id, decision, seat, mv, nonce)
}

/// A nonce of 128 bits for the `n`th commitment of a test (random-looking: a nonce with fewer
/// than 4 different hex digits is refused).
fn nonce(n: u64) -> String {
    format!(
        "{:032x}",
        u128::from(n + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)
    )
}

#[tokio::test]
async fn two_humans_play_a_sealed_goofspiel_over_http() {
    let s = server();
    let (id, tokens) = s
        .start(json!({"game": "goofspiel", "options": {"cards": "3", "order": "descending"}, "seed": 5, "sealed": true}))
        .await;
    let [t1, t2] = tokens.map(Option::unwrap);
    // Both seats and the lobby know the match is sealed.
    let v = s.state(&id, Some(&t2)).await;
    assert_eq!(v["match"]["sealed"]["phase"], "commit", "{v}");
    let (_, lobby) = s.call("GET", "/api/matches", None, None).await;
    assert_eq!(lobby["matches"][0]["sealed"], true, "{lobby}");
    // A plain submission is refused with a reason that says what to do.
    let (st, v) = s.act(&id, "submit", &t1, json!({"move": "3"})).await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "sealed");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("commit"),
        "{v}"
    );
    for round in 0..3 {
        // Descending prizes 3, 2, 1; p1 bids the prize, p2 bids 4 - prize.
        let prize = 3 - round;
        let (m1, m2) = (prize.to_string(), (4 - prize).to_string());
        // A fresh nonce each time, as a client draws it.
        let (n1, n2) = (format!("{N1}{round}0"), format!("{N2}{round}0"));
        let v = s.state(&id, None).await;
        let (h1, h2) = (seal(&v, Seat::P1, &m1, &n1), seal(&v, Seat::P2, &m2, &n2));
        let (st, v) = s
            .act(
                &id,
                "commit",
                &t1,
                json!({"hash": h1, "decision": round + 1}),
            )
            .await;
        assert_eq!(st, StatusCode::CONFLICT, "a decision not reached yet: {v}");
        assert_eq!(v["error"]["code"], "stale_decision");
        let (st, v) = s
            .act(&id, "commit", &t1, json!({"hash": h1, "decision": round}))
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(v["match"]["seats"]["p1"]["commitment"], h1.as_str());
        // Opening before both have committed is refused, and nothing is kept.
        let (st, v) = s
            .act(&id, "open", &t1, json!({"move": m1, "nonce": n1}))
            .await;
        assert_eq!(
            (st, v["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("not_all_committed")),
            "{v}"
        );
        // The other seat sees the commitment, never a move.
        let other = s.state(&id, Some(&t2)).await;
        assert_eq!(other["match"]["seats"]["p1"]["committed"], true);
        assert!(other["match"]["seats"]["p1"].get("submission").is_none());
        // It sees the hash too, but a copy of it is refused.
        let shown = &other["match"]["seats"]["p1"]["commitment"];
        let (st, v) = s.act(&id, "commit", &t2, json!({"hash": shown})).await;
        assert_eq!(
            (st, v["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("commitment_reused")),
            "{v}"
        );
        let (st, v) = s.act(&id, "commit", &t2, json!({"hash": h2})).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(v["match"]["sealed"]["phase"], "open", "{v}");
        // A commitment is binding.
        let (st, v) = s.act(&id, "commit", &t2, json!({"hash": h1})).await;
        assert_eq!(
            (st, v["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("already_committed")),
            "{v}"
        );
        // A mismatch is refused with its own code.
        let (st, v) = s
            .act(&id, "open", &t1, json!({"move": "x", "nonce": n1}))
            .await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(v["error"]["code"], "commitment_mismatch");
        let (st, v) = s
            .act(
                &id,
                "open",
                &t1,
                json!({"move": m1, "nonce": n1, "decision": round}),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let spectator = s.state(&id, None).await;
        assert_eq!(spectator["match"]["seats"]["p1"]["opened"], true);
        assert!(
            !spectator.to_string().contains(&n1),
            "no nonce before the reveal"
        );
        let (st, v) = s
            .act(&id, "open", &t2, json!({"move": m2, "nonce": n2}))
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(
            v["match"]["sealed"]["last"]["p2"]["nonce"],
            n2.as_str(),
            "{v}"
        );
    }
    let v = s.state(&id, None).await;
    assert_eq!(v["status"], "finished", "{v}");
    assert!(v["match"]["result"].is_object(), "{v}");
    let (st, rec) = s
        .call("GET", &format!("/api/matches/{id}/record"), None, None)
        .await;
    assert_eq!(st, StatusCode::OK);
    let steps = rec["records"][0]["steps"].as_array().unwrap();
    for step in [
        json!({"p1": "3", "p2": "1"}),
        json!({"p1": "2", "p2": "2"}),
        json!({"p1": "1", "p2": "3"}),
    ] {
        assert!(steps.contains(&step), "{rec}");
    }
    let (st2, _) = s.act(&id, "commit", &t1, json!({"hash": "zz"})).await;
    assert_eq!(st2, StatusCode::CONFLICT, "the match is over");
}

#[tokio::test]
async fn sealed_errors_have_their_codes() {
    let s = server();
    let (id, tokens) = s
        .start(json!({"game": "goofspiel", "options": {"cards": "3"}, "sealed": true}))
        .await;
    let [t1, t2] = tokens.map(Option::unwrap);
    let (st, v) = s.act(&id, "commit", &t1, json!({"hash": "ABC"})).await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_request")),
        "{v}"
    );
    let (st, v) = s
        .act(&id, "commit", &t1, json!({"hash": "a", "extra": 1}))
        .await;
    assert!(st.is_client_error(), "{v}");
    let (st, v) = s
        .act(&id, "open", &t1, json!({"move": "1", "nonce": N1}))
        .await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_committed")),
        "{v}"
    );
    // Committed but never opened: the default at the opening deadline (30 s after both are in).
    let v = s.state(&id, None).await;
    s.act(
        &id,
        "commit",
        &t1,
        json!({"hash": seal(&v, Seat::P1, "3", N1)}),
    )
    .await;
    s.act(
        &id,
        "commit",
        &t2,
        json!({"hash": seal(&v, Seat::P2, "2", N1)}),
    )
    .await;
    s.act(&id, "open", &t2, json!({"move": "2", "nonce": N1}))
        .await;
    s.clock.advance(30_001);
    s.hub.tick_all().await.unwrap();
    let v = s.state(&id, None).await;
    let turns = &v["match"]["view"]["turns"];
    assert_eq!(turns[0]["p1"], 1, "the lowest card: {v}");
    assert_eq!(turns[0]["p2"], 2, "{v}");
    // In an ordinary match there is nothing to commit.
    let (plain, tokens) = s.start(json!({"game": "goofspiel"})).await;
    let t = tokens[0].clone().unwrap();
    let v = s.state(&plain, None).await;
    let (st, v) = s
        .act(
            &plain,
            "commit",
            &t,
            json!({"hash": seal(&v, Seat::P1, "3", N1)}),
        )
        .await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_sealed")),
        "{v}"
    );
}

/// Every game, sealed, between two humans making random legal moves until the end.
#[tokio::test]
async fn every_game_is_hosted_sealed_to_the_end() {
    for entry in colosseum_games::registry() {
        let s = server();
        let (id, tokens) = s
            .start(
                json!({"game": entry.id, "seed": 11, "time": {"kind": "untimed"}, "sealed": true}),
            )
            .await;
        let tokens = tokens.map(Option::unwrap);
        let table = s.hub.table(&id).await.unwrap();
        let mut kept: [Option<(String, String)>; 2] = [None, None];
        let mut n = 0u64;
        let mut sealed_steps = 0;
        loop {
            let spectator = s.state(&id, None).await;
            if spectator["status"] == "finished" {
                break;
            }
            n += 1;
            assert!(n < 5_000, "{}: no end", entry.id);
            let phase = spectator["match"]["sealed"]["phase"].clone();
            for seat in Seat::BOTH {
                let token = &tokens[seat.index()];
                let me = s.state(&id, Some(token)).await;
                let mine = &me["match"]["seats"][seat.to_string()];
                if mine["to_act"] != true || mine["submitted"] == true {
                    continue;
                }
                let (what, body) = if phase == "commit" && mine["committed"] == false {
                    let mv = s.hub.random_move_for_tests(&table, seat, n).await.unwrap();
                    let nonce = nonce(n);
                    let hash = seal(&me, seat, &mv, &nonce);
                    kept[seat.index()] = Some((mv, nonce));
                    ("commit", json!({"hash": hash}))
                } else if phase == "open" && mine["committed"] == true {
                    let (mv, nonce) = kept[seat.index()].take().unwrap();
                    sealed_steps += 1;
                    ("open", json!({"move": mv, "nonce": nonce}))
                } else if phase.is_null() {
                    let mv = s.hub.random_move_for_tests(&table, seat, n).await.unwrap();
                    ("submit", json!({"move": mv}))
                } else {
                    continue;
                };
                let (st, v) = s.act(&id, what, token, body).await;
                assert_eq!(st, StatusCode::OK, "{}: {what}: {v}", entry.id);
                break;
            }
        }
        if entry.id != "all-in-goofspiel" {
            assert!(sealed_steps > 0, "{}", entry.id);
        }
        let v = s.state(&id, None).await;
        assert!(v["match"]["result"].is_object(), "{}: {v}", entry.id);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_commits_and_opens_in_a_sealed_match() {
    let s = server();
    let (id, tokens) = s
        .start(json!({
            "game": "goofspiel",
            "options": {"cards": "4"},
            "sealed": true,
            "time": {"kind": "untimed"},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        }))
        .await;
    let t1 = tokens[0].clone().unwrap();
    let table = s.hub.table(&id).await.unwrap();
    let mut updates = Hub::<SqliteStore>::subscribe(&table);
    let mut kept = None;
    for n in 0..200 {
        let v = s.state(&id, Some(&t1)).await;
        if v["status"] == "finished" {
            assert!(v["match"]["result"].is_object());
            assert!(
                v["match"]["sealed"]["last"]["p2"]["nonce"].is_string(),
                "{v}"
            );
            return;
        }
        let me = &v["match"]["seats"]["p1"];
        let phase = &v["match"]["sealed"]["phase"];
        if phase == "commit" && me["committed"] == false {
            let mv = s
                .hub
                .random_move_for_tests(&table, Seat::P1, n)
                .await
                .unwrap();
            let nonce = nonce(n);
            let hash = seal(&v, Seat::P1, &mv, &nonce);
            let (st, v) = s.act(&id, "commit", &t1, json!({"hash": hash})).await;
            assert_eq!(st, StatusCode::OK, "{v}");
            kept = Some((mv, nonce));
        } else if phase == "open" && me["submitted"] == false {
            let (mv, nonce) = kept.take().unwrap();
            let (st, v) = s
                .act(&id, "open", &t1, json!({"move": mv, "nonce": nonce}))
                .await;
            assert_eq!(st, StatusCode::OK, "{v}");
        } else {
            tokio::time::timeout(Duration::from_secs(30), updates.changed())
                .await
                .expect("the bot commits and opens")
                .unwrap();
        }
    }
    panic!("no end");
}

#[tokio::test]
async fn commit_and_open_over_websocket() {
    let s = server_with(Limits::default());
    let addr = s.listen().await;
    let hub = s.hub.clone();
    let created = hub
        .create(
            serde_json::from_value(
                json!({"game": "goofspiel", "options": {"cards": "2"}, "sealed": true, "seed": 7}),
            )
            .unwrap(),
        )
        .await
        .unwrap();
    let id = created.id;
    let mut sockets = Vec::new();
    for t in created.tokens.iter().flatten() {
        let url = format!("ws://{addr}/api/matches/{id}/ws?token={t}");
        let mut ws = tokio_tungstenite::connect_async(url).await.unwrap().0;
        let v = reply(&mut ws, json!({"type": "join"})).await;
        assert_eq!(v["type"], "ok", "{v}");
        sockets.push(ws);
    }
    let table = hub.table(&id).await.unwrap();
    for round in 0..2 {
        let moves = ["1", "2"];
        let state = hub.state(&table, colosseum_engine::Viewer::Spectator).await;
        let d = &state["decision"];
        for (i, ws) in sockets.iter_mut().enumerate() {
            let mv = moves[(i + round) % 2];
            let hash = seal(&state, Seat::BOTH[i], mv, N1);
            // Without the decision it is for, refused, and nothing changes.
            let v = reply(ws, json!({"type": "commit", "hash": hash})).await;
            assert_eq!(v["error"]["code"], "decision_required", "{v}");
            let v = reply(ws, json!({"type": "commit", "hash": hash, "decision": d})).await;
            assert_eq!(v, json!({"type": "ok", "to": "commit"}));
        }
        for (i, ws) in sockets.iter_mut().enumerate() {
            let mv = moves[(i + round) % 2];
            if i == 0 {
                let open = json!({"type": "open", "move": mv, "nonce": N2, "decision": d});
                let v = reply(ws, open).await;
                assert_eq!(v["error"]["code"], "commitment_mismatch", "{v}");
            }
            let open = json!({"type": "open", "move": mv, "nonce": N1, "decision": d});
            let v = reply(ws, open).await;
            assert_eq!(v, json!({"type": "ok", "to": "open"}));
        }
    }
    let v = hub.state(&table, colosseum_engine::Viewer::Spectator).await;
    assert_eq!(v["status"], "finished", "{v}");
}

/// A sealed match survives a restart between the commitments and the openings: the stored log
/// holds the commitments (no move), the new hub rebuilds the match and its opening deadline, and
/// the seats open as if nothing happened; a seat that does not open gets the default at the
/// opening deadline, counted from the last commitment, not from the restart.
#[tokio::test]
async fn a_sealed_match_survives_a_restart_between_commitments_and_openings() {
    use colosseum_server::hub::Action;
    let (dir, path) = temp_db("sealed", "s.db");
    let clock = Arc::new(ManualClock::at(1_000_000));
    let hub = Hub::new(SqliteStore::open(&path).unwrap(), clock.clone(), false);
    let (id, table) = begin(
        &hub,
        json!({"game": "goofspiel", "seed": 9, "options": {"cards": "3"}, "sealed": true}),
    )
    .await;
    clock.advance(1_000);
    let v = hub.state(&table, colosseum_engine::Viewer::Spectator).await;
    hub.act(
        &table,
        Seat::P1,
        Action::Commit(seal(&v, Seat::P1, "3", N1)),
    )
    .await
    .unwrap();
    hub.act(
        &table,
        Seat::P2,
        Action::Commit(seal(&v, Seat::P2, "2", N2)),
    )
    .await
    .unwrap();
    drop(table);
    drop(hub);
    // The stored log holds commitments only.
    let (_, log) = SqliteStore::open(&path)
        .unwrap()
        .load(&id)
        .await
        .unwrap()
        .unwrap();
    let stored = serde_json::to_string(&log).unwrap();
    assert!(
        stored.contains("committed") && !stored.contains(N1),
        "{stored}"
    );

    clock.advance(5_000);
    let hub = Hub::new(SqliteStore::open(&path).unwrap(), clock.clone(), false);
    assert_eq!(hub.resume().await.unwrap(), 1);
    let table = hub.table(&id).await.unwrap();
    let v = hub.state(&table, colosseum_engine::Viewer::Spectator).await;
    assert_eq!(v["match"]["sealed"]["phase"], "open", "{v}");
    // Goofspiel: 30 s to open, from the last commitment at 1 s.
    assert_eq!(
        v["match"]["seats"]["p2"]["clock"]["deadline"], 31_000,
        "{v}"
    );
    hub.act(
        &table,
        Seat::P1,
        Action::Open {
            text: "3".into(),
            nonce: N1.into(),
        },
    )
    .await
    .unwrap();
    clock.advance(30_000);
    hub.tick_all().await.unwrap();
    let v = hub.state(&table, colosseum_engine::Viewer::Spectator).await;
    let turns = &v["match"]["view"]["turns"];
    assert_eq!(turns[0]["p1"], 3, "{v}");
    assert_eq!(turns[0]["p2"], 1, "p2 did not open: the lowest card: {v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// When a server bot commits: in a timed match as soon as it has chosen (its deadline runs); in
/// an untimed one only once the other seat is in, and it then opens at once, so a restart can
/// hardly fall between its commitment and its opening.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_commits_at_once_when_timed_and_after_the_other_seat_when_untimed() {
    for timed in [true, false] {
        let s = server();
        let time = if timed {
            json!({"kind": "timed", "per_decision_ms": 60000})
        } else {
            json!({"kind": "untimed"})
        };
        let (id, tokens) = s
            .start(json!({
                "game": "goofspiel",
                "options": {"cards": "3"},
                "sealed": true,
                "time": time,
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
            }))
            .await;
        let t1 = tokens[0].clone().unwrap();
        let wait_for = |pred: fn(&Value) -> bool| {
            let s = &s;
            let id = id.clone();
            async move {
                for _ in 0..200 {
                    let v = s.state(&id, None).await;
                    if pred(&v) {
                        return v;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                panic!("timed out");
            }
        };
        if timed {
            wait_for(|v| v["match"]["seats"]["p2"]["committed"] == true).await;
        } else {
            // The bot has long chosen, but holds its commitment.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let v = s.state(&id, None).await;
            assert_eq!(v["match"]["seats"]["p2"]["committed"], false, "{v}");
        }
        let v = s.state(&id, None).await;
        let (st, v) = s
            .act(
                &id,
                "commit",
                &t1,
                json!({"hash": seal(&v, Seat::P1, "2", N1)}),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let v = wait_for(|v| v["match"]["seats"]["p2"]["opened"] == true).await;
        assert_eq!(v["match"]["sealed"]["phase"], "open", "{v}");
        let (st, v) = s
            .act(&id, "open", &t1, json!({"move": "2", "nonce": N1}))
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert!(v["steps"].as_u64().unwrap() >= 2, "revealed: {v}");
        assert_eq!(v["match"]["sealed"]["last"]["p1"]["move"], "2", "{v}");
    }
}

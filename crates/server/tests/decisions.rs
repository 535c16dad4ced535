//! Every seat action names its decision (issue 36, hole 4), and changes of mind are bounded
//! (hole 6): over HTTP, over a WebSocket, and through the store and a restart.

mod common;

use axum::http::StatusCode;
use colosseum_host::{LogEntry, DEFAULT_CHANGES};
use colosseum_server::{SqliteStore, Store};
use common::ws::{connect, reply, until};
use common::{open_limits, server, server_on_store, temp_db};
use serde_json::{json, Value};

const ACTIONS: [&str; 4] = ["submit", "lock", "commit", "open"];

/// The match's log as stored.
async fn stored_log(path: &std::path::Path, id: &str) -> Vec<LogEntry> {
    SqliteStore::open(path)
        .unwrap()
        .load(id)
        .await
        .unwrap()
        .unwrap()
        .1
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

#[tokio::test]
async fn a_late_change_without_its_decision_is_refused_not_taken_for_the_next_over_http() {
    let s = server();
    let (id, tokens) = s
        .start(json!({"game": "goofspiel", "options": {"cards": "5"}, "seed": 3}))
        .await;
    let [t1, t2] = tokens.map(Option::unwrap);
    let d = s.state(&id, Some(&t1)).await["decision"].as_u64().unwrap();
    // Without `decision`: 409 decision_required, naming the pending decision; nothing changes.
    let (st, v) = s.post(&id, "submit", &t1, json!({"move": "3"})).await;
    assert_eq!(
        (st, code(&v)),
        (StatusCode::CONFLICT, "decision_required"),
        "{v}"
    );
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains(&format!("\"decision\": {d}")), "{message}");
    let mine = s.state(&id, Some(&t1)).await;
    assert_eq!(mine["match"]["seats"]["p1"]["submitted"], false, "{mine}");
    // Both bid in decision d: it is revealed.
    for (t, mv) in [(&t1, "3"), (&t2, "1")] {
        let (st, v) = s
            .post(&id, "submit", t, json!({"move": mv, "decision": d}))
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
    }
    let after = s.state(&id, Some(&t1)).await;
    let next = after["decision"].as_u64().unwrap();
    assert!(next > d, "{after}");
    // p1's change of mind for decision d arrives late. Without `decision` it used to be taken
    // as p1's bid for the next prize; now it is refused, and p1 has not bid.
    let (st, v) = s.post(&id, "submit", &t1, json!({"move": "5"})).await;
    assert_eq!(
        (st, code(&v)),
        (StatusCode::CONFLICT, "decision_required"),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&format!("\"decision\": {next}")),
        "{v}"
    );
    // With its decision it is stale, as before.
    let (st, v) = s
        .post(&id, "submit", &t1, json!({"move": "5", "decision": d}))
        .await;
    assert_eq!(
        (st, code(&v)),
        (StatusCode::CONFLICT, "stale_decision"),
        "{v}"
    );
    let mine = s.state(&id, Some(&t1)).await;
    assert_eq!(mine["match"]["seats"]["p1"]["submitted"], false, "{mine}");
    assert_eq!(mine["decision"], next);
    // A lock without a body, or with one that names no decision, is refused the same way.
    let (st, v) = s
        .call("POST", &format!("/api/matches/{id}/lock"), Some(&t1), None)
        .await;
    assert_eq!(
        (st, code(&v)),
        (StatusCode::CONFLICT, "decision_required"),
        "{v}"
    );
    let (st, v) = s.post(&id, "lock", &t1, json!({})).await;
    assert_eq!(
        (st, code(&v)),
        (StatusCode::CONFLICT, "decision_required"),
        "{v}"
    );
    // A resignation needs no decision.
    let (st, v) = s.post(&id, "resign", &t2, json!({})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn commitments_and_openings_without_their_decision_are_refused_over_http() {
    let s = server();
    let (id, tokens) = s
        .start(json!({"game": "goofspiel", "options": {"cards": "3"}, "sealed": true}))
        .await;
    let [t1, t2] = tokens.map(Option::unwrap);
    let v = s.state(&id, None).await;
    let d = v["decision"].as_u64().unwrap();
    let nonce = "9f2c4e7a1b3d5f60718293a4b5c6d7e8";
    let hash = |seat, mv| colosseum_host::commitment(&id, d, seat, mv, nonce);
    let (h1, h2) = (
        hash(colosseum_engine::Seat::P1, "2"),
        hash(colosseum_engine::Seat::P2, "3"),
    );
    let (st, v) = s.post(&id, "commit", &t1, json!({"hash": h1})).await;
    assert_eq!(
        (st, code(&v)),
        (StatusCode::CONFLICT, "decision_required"),
        "{v}"
    );
    assert_eq!(
        s.state(&id, None).await["match"]["seats"]["p1"]["committed"],
        false
    );
    for (t, h) in [(&t1, &h1), (&t2, &h2)] {
        let (st, v) = s
            .post(&id, "commit", t, json!({"hash": h, "decision": d}))
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
    }
    let (st, v) = s
        .post(&id, "open", &t1, json!({"move": "2", "nonce": nonce}))
        .await;
    assert_eq!(
        (st, code(&v)),
        (StatusCode::CONFLICT, "decision_required"),
        "{v}"
    );
    assert_eq!(
        s.state(&id, None).await["match"]["seats"]["p1"]["opened"],
        false
    );
    let (st, v) = s
        .post(
            &id,
            "open",
            &t1,
            json!({"move": "2", "nonce": nonce, "decision": d}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn every_seat_action_without_its_decision_is_refused_over_websocket() {
    let s = server();
    let addr = s.listen().await;
    let (id, tokens) = s
        .start(json!({"game": "goofspiel", "options": {"cards": "5"}, "seed": 3}))
        .await;
    let [t1, t2] = tokens.map(Option::unwrap);
    let mut p1 = connect(addr, &id, Some(&t1)).await;
    let first = until(&mut p1, |v| v["type"] == "state").await;
    let d = first["decision"].as_u64().unwrap();
    for what in ACTIONS {
        let msg = match what {
            "submit" => json!({"type": "submit", "move": "3"}),
            "lock" => json!({"type": "lock"}),
            "commit" => json!({"type": "commit", "hash": "ab".repeat(32)}),
            _ => json!({"type": "open", "move": "3", "nonce": "ab".repeat(16)}),
        };
        let v = reply(&mut p1, msg).await;
        assert_eq!(v["error"]["code"], "decision_required", "{what}: {v}");
        assert_eq!(v["to"], what, "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(&format!("\"decision\": {d}")), "{message}");
    }
    let v = reply(
        &mut p1,
        json!({"type": "submit", "move": "3", "decision": d}),
    )
    .await;
    assert_eq!(v, json!({"type": "ok", "to": "submit"}));
    let (st, v) = s
        .post(&id, "submit", &t2, json!({"move": "1", "decision": d}))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    // The late change of mind, without its decision: refused, not p1's next bid.
    let v = reply(&mut p1, json!({"type": "submit", "move": "5"})).await;
    assert_eq!(v["error"]["code"], "decision_required", "{v}");
    let mine = s.state(&id, Some(&t1)).await;
    assert!(mine["decision"].as_u64().unwrap() > d, "{mine}");
    assert_eq!(mine["match"]["seats"]["p1"]["submitted"], false, "{mine}");
}

/// One seat changing its mind without end: at most the cap of changes are taken and stored in
/// one decision (later ones are refused and not stored), and the match rebuilt from the store
/// after a restart stands on the last change acknowledged.
#[tokio::test]
async fn changes_of_mind_are_capped_in_the_store_and_a_restart_keeps_the_last_acknowledged() {
    let (dir, path) = temp_db("changes", "c.db");
    let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
    let (id, tokens) = s
        .start(json!({"game": "goofspiel", "seed": 3, "time": {"kind": "untimed"}}))
        .await;
    let [t1, t2] = tokens.map(Option::unwrap);
    let d = s.state(&id, Some(&t1)).await["decision"].clone();
    let before = stored_log(&path, &id).await.len();
    let mut acknowledged = None;
    let (mut taken, mut refused) = (0, 0);
    for i in 0..300u32 {
        let mv = (i % 13 + 1).to_string();
        let (st, v) = s
            .post(&id, "submit", &t1, json!({"move": mv, "decision": d}))
            .await;
        match st {
            StatusCode::OK => {
                taken += 1;
                acknowledged = Some(mv);
            }
            StatusCode::CONFLICT => {
                assert_eq!(code(&v), "too_many_changes", "{v}");
                let standing = acknowledged.as_deref().unwrap();
                assert!(
                    v["error"]["message"]
                        .as_str()
                        .unwrap()
                        .contains(&format!("`{standing}` stands")),
                    "{v}"
                );
                refused += 1;
            }
            _ => panic!("{st}: {v}"),
        }
    }
    let cap = DEFAULT_CHANGES as usize;
    assert_eq!((taken, refused), (cap + 1, 300 - cap - 1));
    let log = stored_log(&path, &id).await;
    let rows = log.len() - before;
    assert!(rows <= cap + 1, "{rows} rows stored for 300 submissions");
    let acknowledged = acknowledged.unwrap();
    // The opponent's view is unchanged by the refusals; p1 may still lock what stands.
    let (st, v) = s.post(&id, "lock", &t1, json!({"decision": d})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    drop(s);

    // A restart (as after a kill: the store is all there is).
    let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
    assert_eq!(s.hub.resume().await.unwrap(), 1);
    let mine = s.state(&id, Some(&t1)).await;
    let p1 = &mine["match"]["seats"]["p1"];
    assert_eq!(p1["submission"], acknowledged.as_str(), "{mine}");
    assert_eq!(p1["locked"], true, "{mine}");
    // The decision goes on with the standing bid.
    let (st, v) = s
        .post(&id, "submit", &t2, json!({"move": "7", "decision": d}))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let moves = &v["match"]["moves"];
    let last = moves
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["p1"].is_string());
    assert_eq!(last.unwrap()["p1"], acknowledged.as_str(), "{v}");
    drop(s);
    std::fs::remove_dir_all(&dir).unwrap();
}

//! Taking over many matches at once on PostgreSQL (`Hub::take_over`, `Hub::resume`): a batch
//! of matches is claimed by one statement and loaded by one more, so the statements grow with
//! the batches, not the matches; a match another live process holds is never adopted; a match
//! whose rows do not read is set aside without stopping its batch.
//!
//! Runs when `COLOSSEUM_TEST_POSTGRES` holds a connection string (as `tests/store.rs`); the
//! test makes a database of its own next to that one and drops it at the end.

mod common;

use std::sync::Arc;

use colosseum_engine::{Seat, Viewer};
use colosseum_server::hub::{Action, ADOPTING_BATCH, BATCHES_AT_ONCE};
use colosseum_server::{Hub, ManualClock, PostgresStore, Store};
use common::{begin, submit};
use serde_json::json;

/// A fresh database beside the one `COLOSSEUM_TEST_POSTGRES` names (a `key=value` string):
/// the base connection string and the new one.
async fn fresh_database(tag: &str) -> Option<(String, String)> {
    let Ok(base) = std::env::var("COLOSSEUM_TEST_POSTGRES") else {
        assert!(
            std::env::var("COLOSSEUM_REQUIRE_POSTGRES").is_err(),
            "COLOSSEUM_REQUIRE_POSTGRES is set but COLOSSEUM_TEST_POSTGRES is not"
        );
        eprintln!("skipped: set COLOSSEUM_TEST_POSTGRES to test the takeover on PostgreSQL");
        return None;
    };
    let name = format!("colosseum_takeover_{tag}_{}", std::process::id());
    let (client, connection) = tokio_postgres::connect(&base, tokio_postgres::NoTls)
        .await
        .expect("connect to COLOSSEUM_TEST_POSTGRES");
    tokio::spawn(connection);
    for sql in [
        format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        format!("CREATE DATABASE {name}"),
    ] {
        client.batch_execute(&sql).await.unwrap();
    }
    let kept: Vec<&str> = base
        .split_whitespace()
        .filter(|kv| !kv.starts_with("dbname="))
        .collect();
    let conn = format!("{} dbname={name}", kept.join(" "));
    Some((base, conn))
}

async fn node(conn: &str, clock: &Arc<ManualClock>, address: &str) -> Arc<Hub<PostgresStore>> {
    let hub = Hub::new(
        PostgresStore::connect(conn).await.unwrap(),
        clock.clone(),
        false,
    );
    hub.announce_node(address).await.unwrap();
    hub
}

/// 150 matches, each with p1's first bid stored, are left by their node (one of them with its
/// log damaged behind its back); another node takes them all over with at most one claim and
/// one load statement per batch (one a match would be 150 each), sets the damaged one aside,
/// and plays on in the others with p1's bid kept. A third node then resumes at start beside the
/// second: of the matches it finds unfinished it adopts exactly the 10 nobody holds, never one
/// of the second node's, again one claim and one load statement per batch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_matches_is_taken_over_with_one_claim_and_one_load_statement() {
    let Some((base, conn)) = fresh_database("batch").await else {
        return;
    };
    let clock = Arc::new(ManualClock::at(1_000_000));
    const N: usize = 150;
    let a = node(&conn, &clock, "http://127.0.0.1:1").await;
    let mut ids = Vec::new();
    for _ in 0..N {
        let (id, table) = begin(&a, json!({"game": "goofspiel"})).await;
        submit(&a, &table, Seat::P1, "1").await;
        ids.push(id);
    }
    let damaged = ids[N / 2].clone();
    let (raw, connection) = tokio_postgres::connect(&conn, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    raw.execute(
        "UPDATE log SET entry = 'garbage' WHERE match_id = $1",
        &[&damaged],
    )
    .await
    .unwrap();
    assert_eq!(a.leave().await, N);

    let b = node(&conn, &clock, "http://127.0.0.2:2").await;
    let (claims, loads) = b.store().adoption_statements();
    assert_eq!(b.take_over().await.unwrap(), N - 1);
    let (claims, loads) = {
        let (c, l) = b.store().adoption_statements();
        (c - claims, l - loads)
    };
    // 150 matches in batches of 64: 3 of each (one claim a match would be 150).
    let batches = N.div_ceil(64) as u64;
    assert!(
        claims <= batches && loads <= batches,
        "{N} matches took {claims} claim and {loads} load statements ({batches} batches of {ADOPTING_BATCH}, {BATCHES_AT_ONCE} at once)"
    );
    let aside = b.quarantined().await.unwrap();
    assert_eq!(
        aside.iter().map(|q| q.id.as_str()).collect::<Vec<_>>(),
        [damaged.as_str()]
    );
    assert_eq!(
        b.table(&damaged).await.err().unwrap().code.as_str(),
        "quarantined"
    );
    for id in ids.iter().filter(|id| **id != damaged) {
        assert_eq!(
            b.store().owner(id).await.unwrap().as_deref(),
            Some("http://127.0.0.2:2")
        );
        let table = b.table(id).await.unwrap();
        submit(&b, &table, Seat::P2, "2").await;
        // p1's bid was kept: p2's reveals the first prize.
        let state = b.state(&table, Viewer::Spectator).await;
        let turns = &state["match"]["view"]["turns"];
        assert_eq!(
            (turns[0]["p1"].as_u64(), turns[0]["p2"].as_u64()),
            (Some(1), Some(2)),
            "{state}"
        );
    }

    // Ten more matches nobody holds, beside B's 150.
    let d = node(&conn, &clock, "http://127.0.0.1:4").await;
    let mut free = Vec::new();
    for _ in 0..10 {
        let (id, table) = begin(&d, json!({"game": "goofspiel"})).await;
        submit(&d, &table, Seat::P2, "3").await;
        free.push(id);
    }
    d.leave().await;
    let c = node(&conn, &clock, "http://127.0.0.3:3").await;
    let (claims, loads) = c.store().adoption_statements();
    assert_eq!(c.resume().await.unwrap(), 10);
    let (claims, loads) = {
        let (cl, l) = c.store().adoption_statements();
        (cl - claims, l - loads)
    };
    let batches = (N + 10).div_ceil(64) as u64;
    assert!(
        claims <= batches && loads <= batches,
        "{} matches took {claims} claim and {loads} load statements",
        N + 10
    );
    for id in &free {
        assert_eq!(
            c.store().owner(id).await.unwrap().as_deref(),
            Some("http://127.0.0.3:3")
        );
        let table = c.table(id).await.unwrap();
        submit(&c, &table, Seat::P1, "4").await;
        // p2's bid was kept: p1's reveals the first prize.
        let state = c.state(&table, Viewer::Spectator).await;
        let turns = &state["match"]["view"]["turns"];
        assert_eq!(
            (turns[0]["p1"].as_u64(), turns[0]["p2"].as_u64()),
            (Some(4), Some(3)),
            "{state}"
        );
    }
    for id in ids.iter().filter(|id| **id != damaged) {
        assert_eq!(
            c.table(id).await.err().unwrap().code.as_str(),
            "elsewhere",
            "match {id} is B's"
        );
    }

    drop((a, b, c, d, raw));
    let (admin, connection) = tokio_postgres::connect(&base, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let name = conn.rsplit("dbname=").next().unwrap();
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .await
        .unwrap();
}

/// Drops database `conn` names (made by `fresh_database`).
async fn drop_database(base: &str, conn: &str) {
    let (admin, connection) = tokio_postgres::connect(base, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let name = conn.rsplit("dbname=").next().unwrap();
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .await
        .unwrap();
}

/// Ends the session of the node announced at `address` as its process's death would (the
/// process itself goes on, but nothing it holds is its own any more): PostgreSQL releases its
/// claims and forgets it. Returns once it is gone from `pg_stat_activity`.
async fn kill_session(raw: &tokio_postgres::Client, address: &str) {
    let name = format!("colosseum node {address}");
    let killed = raw
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE application_name = $1 AND datname = current_database()",
            &[&name],
        )
        .await
        .unwrap();
    assert_eq!(killed.len(), 1, "one session named {name}");
    for _ in 0..500 {
        let left = raw
            .query(
                "SELECT 1 FROM pg_stat_activity
                 WHERE application_name = $1 AND datname = current_database()",
                &[&name],
            )
            .await
            .unwrap();
        if left.is_empty() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the session of {address} did not end");
}

/// A dead node's clients coming back to another node all at once (each asks who serves its
/// match, hears that nobody does, and asks for the match) get their matches adopted together:
/// a few claim and load statements in all (at most `BATCHES_AT_ONCE` batches of stragglers
/// plus one a full batch), not a claim and two loads a match (150 and 300 for 150 matches
/// adopted one by one). Every client then plays on in its match, with the bid stored before
/// the death kept, and a second node's client for the same match is told it is elsewhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn returning_clients_adopt_a_dead_nodes_matches_together() {
    let Some((base, conn)) = fresh_database("together").await else {
        return;
    };
    let clock = Arc::new(ManualClock::at(1_000_000));
    const N: usize = 150;
    let a_at = "http://127.0.0.1:1";
    let a = node(&conn, &clock, a_at).await;
    let mut ids = Vec::new();
    for _ in 0..N {
        let (id, table) = begin(&a, json!({"game": "goofspiel"})).await;
        submit(&a, &table, Seat::P1, "1").await;
        ids.push(id);
    }
    let b_at = "http://127.0.0.2:2";
    let b = node(&conn, &clock, b_at).await;
    let c = node(&conn, &clock, "http://127.0.0.3:3").await;
    let (raw, connection) = tokio_postgres::connect(&conn, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    kill_session(&raw, a_at).await;

    for id in &ids {
        assert_eq!(b.owner_elsewhere(id).await, None, "{id}'s node is dead");
    }
    let (claims, loads) = b.store().adoption_statements();
    let tables = futures_util::future::join_all(ids.iter().map(|id| b.table(id))).await;
    let (claims, loads) = {
        let (cl, l) = b.store().adoption_statements();
        (cl - claims, l - loads)
    };
    let most = (2 * BATCHES_AT_ONCE + N.div_ceil(ADOPTING_BATCH)) as u64;
    assert!(
        claims <= most && loads <= most,
        "{N} returning clients took {claims} claim and {loads} load statements (at most {most})"
    );
    for (id, table) in ids.iter().zip(tables) {
        let table = table.unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(b.store().owner(id).await.unwrap().as_deref(), Some(b_at));
        assert_eq!(c.owner_elsewhere(id).await.as_deref(), Some(b_at));
        submit(&b, &table, Seat::P2, "2").await;
        let state = b.state(&table, Viewer::Spectator).await;
        let turns = &state["match"]["view"]["turns"];
        assert_eq!(
            (turns[0]["p1"].as_u64(), turns[0]["p2"].as_u64()),
            (Some(1), Some(2)),
            "{state}"
        );
    }
    assert_eq!(
        c.table(&ids[0]).await.err().unwrap().code.as_str(),
        "elsewhere"
    );

    drop((a, b, c, raw));
    drop_database(&base, &conn).await;
}

/// Who serves a match is answered without reading the lock table (`Hub::owner_elsewhere`
/// asks `Store::serving`; `PostgresStore::lock_scans` counts the reads of `pg_locks`), and the
/// answer follows the matches: their creator while it lives, nobody once its session is gone
/// (never the dead node), the node that took them over after, nobody once that one left. The
/// lock table (`Store::owner`, the authority) agrees each time a node holds them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_serves_a_match_is_known_without_reading_the_lock_table() {
    let Some((base, conn)) = fresh_database("owner").await else {
        return;
    };
    let clock = Arc::new(ManualClock::at(1_000_000));
    let (a_at, b_at) = ("http://127.0.0.1:1", "http://127.0.0.2:2");
    let a = node(&conn, &clock, a_at).await;
    let b = node(&conn, &clock, b_at).await;
    let c = node(&conn, &clock, "http://127.0.0.3:3").await;
    let mut ids = Vec::new();
    for _ in 0..20 {
        let (id, table) = begin(&a, json!({"game": "goofspiel"})).await;
        submit(&a, &table, Seat::P1, "1").await;
        ids.push(id);
    }
    let scans = c.store().lock_scans();
    for id in &ids {
        assert_eq!(c.owner_elsewhere(id).await.as_deref(), Some(a_at));
        assert_eq!(a.owner_elsewhere(id).await, None, "A serves {id} itself");
    }
    assert_eq!(c.store().lock_scans(), scans, "asked without pg_locks");
    assert_eq!(
        c.store().owner(&ids[0]).await.unwrap().as_deref(),
        Some(a_at)
    );
    let soon = std::time::Duration::from_millis(100);
    assert!(
        tokio::time::timeout(soon, c.takeover_wanted())
            .await
            .is_err(),
        "no takeover wanted while A lives"
    );

    let (raw, connection) = tokio_postgres::connect(&conn, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    kill_session(&raw, a_at).await;
    let scans = c.store().lock_scans();
    for id in &ids {
        assert_eq!(c.owner_elsewhere(id).await, None, "{id}'s node is dead");
    }
    assert_eq!(c.store().lock_scans(), scans, "asked without pg_locks");
    // A client back for a dead node's match asks for the takeover of all its matches at once.
    assert!(
        tokio::time::timeout(soon, c.takeover_wanted())
            .await
            .is_ok(),
        "a takeover wanted once A is gone"
    );

    assert_eq!(b.take_over().await.unwrap(), ids.len());
    let scans = c.store().lock_scans();
    for id in &ids {
        assert_eq!(c.owner_elsewhere(id).await.as_deref(), Some(b_at), "{id}");
        assert_eq!(b.owner_elsewhere(id).await, None, "B serves {id} itself");
    }
    assert_eq!(c.store().lock_scans(), scans, "asked without pg_locks");
    for id in &ids {
        assert_eq!(c.store().owner(id).await.unwrap().as_deref(), Some(b_at));
    }
    // C asked for one while nobody served it would have claimed it itself: it cannot now.
    assert_eq!(
        c.table(&ids[0]).await.err().unwrap().code.as_str(),
        "elsewhere"
    );

    b.leave().await;
    let scans = c.store().lock_scans();
    for id in &ids {
        assert_eq!(c.owner_elsewhere(id).await, None, "{id}'s node left");
    }
    assert_eq!(c.store().lock_scans(), scans, "asked without pg_locks");
    // And C serves them now, P1's bid kept.
    let table = c.table(&ids[0]).await.unwrap();
    submit(&c, &table, Seat::P2, "2").await;
    let state = c.state(&table, Viewer::Spectator).await;
    assert_eq!(
        state["match"]["view"]["turns"][0]["p1"].as_u64(),
        Some(1),
        "{state}"
    );
    assert_eq!(c.owner_elsewhere(&ids[0]).await, None, "C serves it itself");
    assert_eq!(
        b.store().owner(&ids[0]).await.unwrap().as_deref(),
        Some("http://127.0.0.3:3")
    );

    drop((a, b, c, raw));
    drop_database(&base, &conn).await;
}

/// The advisory locks (session-level) that the node at `address` holds on matches.
async fn locks_of(raw: &tokio_postgres::Client, address: &str) -> i64 {
    raw.query_one(
        "SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = $1
           AND a.datname = current_database()",
        &[&format!("colosseum node {address}")],
    )
    .await
    .unwrap()
    .get(0)
}

/// A match gives up its claim once its result is stored (the lock table holds the live
/// matches only), and stays routed to the node that finished it; nothing can be written to
/// it any more but a rematch offer, and two nodes serving the finished match from the store
/// (as after its node's death) offering a rematch at once end up with one rematch, the one
/// stored first: both seats are shown the same new match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_gives_up_its_claim_and_gets_one_rematch_across_nodes() {
    let Some((base, conn)) = fresh_database("finished").await else {
        return;
    };
    let clock = Arc::new(ManualClock::at(1_000_000));
    let (a_at, b_at) = ("http://127.0.0.1:1", "http://127.0.0.2:2");
    let a = node(&conn, &clock, a_at).await;
    let b = node(&conn, &clock, b_at).await;
    let (raw, connection) = tokio_postgres::connect(&conn, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut finished = Vec::new();
    for round in 0..6 {
        let (live, _) = begin(&a, json!({"game": "goofspiel"})).await;
        let (id, table) = begin(&a, json!({"game": "goofspiel"})).await;
        assert_eq!(
            locks_of(&raw, a_at).await,
            2 + round,
            "the live matches' locks"
        );
        a.act(&table, Seat::P2, Action::Resign).await.unwrap();
        // The finished one's lock is given up, the live one's kept.
        assert_eq!(locks_of(&raw, a_at).await, 1 + round);
        assert_eq!(a.store().owner(&id).await.unwrap(), None);
        assert_eq!(a.store().owner(&live).await.unwrap().as_deref(), Some(a_at));
        // Still routed to A, which has it in memory; no move is taken any more, but the chat
        // stays open after the end ("gg").
        assert_eq!(b.owner_elsewhere(&id).await.as_deref(), Some(a_at));
        let over = a.act(&table, Seat::P1, Action::Submit("1".into())).await;
        assert_eq!(over.err().unwrap().code.as_str(), "over");
        a.chat(&table, Viewer::Seat(Seat::P1), None, "gg".into(), 100)
            .await
            .expect("the chat stays open after the end");
        finished.push((id, table));
    }
    // Nobody takes a finished match over, though nobody holds it.
    assert_eq!(b.take_over().await.unwrap(), 0);

    // B serves the finished matches from the store beside A (as any node does once A is
    // gone), and both seats ask for a rematch at once, one on each node.
    for (id, table_a) in &finished {
        let table_b = b.table(id).await.unwrap();
        let (on_a, on_b) =
            tokio::join!(a.rematch(table_a, Seat::P1), b.rematch(&table_b, Seat::P2));
        let (on_a, on_b) = (on_a.unwrap(), on_b.unwrap());
        assert_eq!(on_a.id, on_b.id, "one rematch of {id}");
        let (stored, _) = a.store().load(id).await.unwrap().unwrap();
        assert_eq!(stored.rematch.as_ref().unwrap().id, on_a.id);
        // Each node's table shows it, to each seat.
        for (hub, table) in [(&a, table_a), (&b, &table_b)] {
            for seat in Seat::BOTH {
                let state = hub.state(table, Viewer::Seat(seat)).await;
                assert_eq!(state["rematch"]["id"], on_a.id.as_str(), "{state}");
            }
        }
        // A later offer stored over it is refused, and the first stays.
        let mut other = stored.clone();
        other.rematch.as_mut().unwrap().id = "0123456789abcdef".into();
        assert!(!b.store().offer_rematch(&other).await.unwrap());
        let (kept, _) = b.store().load(id).await.unwrap().unwrap();
        assert_eq!(kept.rematch.unwrap().id, on_a.id);
    }

    drop((a, b, raw));
    drop_database(&base, &conn).await;
}

/// Nodes started together on a fresh database all connect: each brings the schema up to date,
/// and the first `CREATE TABLE IF NOT EXISTS` is not safe against a concurrent one in
/// PostgreSQL (one of them fails on pg_type's unique index), so `PostgresStore::connect` takes
/// its turn under a lock. Without that lock this test failed in some runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn nodes_starting_together_on_a_fresh_database_all_connect() {
    for round in 0..4 {
        let Some((base, conn)) = fresh_database(&format!("start{round}")).await else {
            return;
        };
        let connecting: Vec<_> = (0..8)
            .map(|_| {
                let conn = conn.clone();
                tokio::spawn(async move { PostgresStore::connect(&conn).await.map(|_| ()) })
            })
            .collect();
        for (i, task) in connecting.into_iter().enumerate() {
            if let Err(e) = task.await.unwrap() {
                panic!("round {round}: store {i} of 8 failed to connect: {e}");
            }
        }
        let (admin, connection) = tokio_postgres::connect(&base, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        let name = conn.rsplit("dbname=").next().unwrap();
        admin
            .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
            .await
            .unwrap();
    }
}

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
use colosseum_server::hub::{ADOPTING_BATCH, BATCHES_AT_ONCE};
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

//! A store where some unfinished matches cannot be rebuilt (a log row of garbage, a log entry
//! that diverges, metadata that does not read): the server sets those aside (quarantined: kept
//! in the store with the reason, listed at the admin endpoint, answered with 503 `quarantined`)
//! and resumes every other match, which plays on.

mod common;

use std::path::Path;
use std::sync::Arc;

use axum::http::StatusCode;
use colosseum_engine::Seat;
use colosseum_server::hub::Action;
use colosseum_server::{app, AppState, Hub, ManualClock, SqliteStore, Store};
use common::{begin, call, open_limits, server, submit, temp_db};
use serde_json::{json, Value};

const ADMIN: &str = "admin-token-0123456789";

fn sql(db: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(db).unwrap()
}

/// Five Goofspiel matches, each joined with a round played and p1's next bid pending.
async fn five_matches(hub: &Arc<Hub<SqliteStore>>, clock: &ManualClock) -> Vec<String> {
    let mut ids = Vec::new();
    for seed in 0..5 {
        let (id, table) = begin(
            hub,
            json!({
                "game": "goofspiel", "seed": seed,
                "options": {"cards": "4", "order": "descending"}
            }),
        )
        .await;
        clock.advance(100);
        submit(hub, &table, Seat::P1, "4").await;
        submit(hub, &table, Seat::P2, "1").await;
        submit(hub, &table, Seat::P1, "3").await;
        ids.push(id);
    }
    ids
}

#[tokio::test]
async fn broken_matches_are_set_aside_and_the_others_resume() {
    let (dir, db) = temp_db("quarantine", "q.db");
    let clock = Arc::new(ManualClock::at(1_000_000));
    let ids = {
        let hub = Hub::new(SqliteStore::open(&db).unwrap(), clock.clone(), false);
        five_matches(&hub, &clock).await
    };
    let [good1, garbage, diverged, bad_meta, good2] = <[String; 5]>::try_from(ids).unwrap();

    // Damage three of them behind the server's back.
    let conn = sql(&db);
    let original: String = conn
        .query_row(
            "SELECT entry FROM log WHERE match_id = ?1 AND seq = 0",
            [&garbage],
            |r| r.get(0),
        )
        .unwrap();
    conn.execute(
        "UPDATE log SET entry = '{not json' WHERE match_id = ?1 AND seq = 0",
        [&garbage],
    )
    .unwrap();
    // p1's first bid becomes text that is no card: replayed, it is refused, not submitted.
    let (seq, entry): (i64, String) = conn
        .query_row(
            "SELECT seq, entry FROM log WHERE match_id = ?1 AND entry LIKE '%\"submitted\"%' \
             ORDER BY seq LIMIT 1",
            [&diverged],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let mut entry: Value = serde_json::from_str(&entry).unwrap();
    assert_eq!(entry["text"], "4", "{entry}");
    entry["text"] = json!("xyzzy");
    conn.execute(
        "UPDATE log SET entry = ?1 WHERE match_id = ?2 AND seq = ?3",
        rusqlite::params![entry.to_string(), &diverged, seq],
    )
    .unwrap();
    conn.execute(
        "UPDATE matches SET meta = '{\"id\": 7}' WHERE id = ?1",
        [&bad_meta],
    )
    .unwrap();
    drop(conn);

    // The server starts: two matches resume, three are set aside.
    clock.advance(1_000);
    let hub = Hub::new(SqliteStore::open(&db).unwrap(), clock.clone(), false);
    assert_eq!(hub.resume().await.unwrap(), 2);
    let router = app(AppState::with_admin(
        hub.clone(),
        open_limits(),
        Some(ADMIN.into()),
    ));

    // The admin endpoint lists them with the reasons, only for the admin token.
    let (st, v) = call(&router, "GET", "/api/admin/quarantine", None, None).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED, "{v}");
    let (st, v) = call(
        &router,
        "GET",
        "/api/admin/quarantine",
        Some("not-the-token"),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    let (st, v) = call(&router, "GET", "/api/admin/quarantine", Some(ADMIN), None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let list = v["quarantined"].as_array().unwrap();
    let reason = |id: &str| {
        list.iter()
            .find(|q| q["id"] == id)
            .unwrap_or_else(|| panic!("{id} is not listed: {v}"))["reason"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(list.len(), 3, "{v}");
    assert!(reason(&garbage).contains("does not read"), "{v}");
    assert!(reason(&diverged).contains("differs"), "{v}");
    assert!(reason(&bad_meta).contains("does not read"), "{v}");
    let now = colosseum_server::Clock::now_ms(&*clock);
    assert!(list.iter().all(|q| q["at"] == now), "{v}");

    // Asking for a quarantined match answers 503 `quarantined`, without quoting stored moves.
    for id in [&garbage, &diverged, &bad_meta] {
        for path in ["", "/record", "/replay"] {
            let (st, v) = call(
                &router,
                "GET",
                &format!("/api/matches/{id}{path}"),
                None,
                None,
            )
            .await;
            assert_eq!(st, StatusCode::SERVICE_UNAVAILABLE, "{path}: {v}");
            assert_eq!(v["error"]["code"], "quarantined", "{v}");
            let message = v["error"]["message"].as_str().unwrap();
            assert!(message.contains(id.as_str()), "{message}");
            assert!(!message.contains("xyzzy"), "{message}");
        }
    }
    let (_, v) = call(
        &router,
        "GET",
        &format!("/api/matches/{diverged}"),
        None,
        None,
    )
    .await;
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("does not rebuild"),
        "{v}"
    );

    // The healthy matches play on to the end.
    for id in [&good1, &good2] {
        let table = hub.table(id).await.unwrap();
        for (b1, b2) in [(None, "2"), (Some("2"), "3"), (Some("1"), "4")] {
            if let Some(b1) = b1 {
                submit(&hub, &table, Seat::P1, b1).await;
            }
            submit(&hub, &table, Seat::P2, b2).await;
        }
        let (st, v) = call(&router, "GET", &format!("/api/matches/{id}"), None, None).await;
        assert_eq!(st, StatusCode::OK);
        assert_eq!(v["status"], "finished", "{v}");
    }
    drop(router);
    drop(hub);

    // The quarantine is kept in the store across restarts; a repaired match rebuilds and leaves
    // it.
    sql(&db)
        .execute(
            "UPDATE log SET entry = ?1 WHERE match_id = ?2 AND seq = 0",
            rusqlite::params![original, &garbage],
        )
        .unwrap();
    clock.advance(1_000);
    let hub = Hub::new(SqliteStore::open(&db).unwrap(), clock.clone(), false);
    assert_eq!(hub.resume().await.unwrap(), 1);
    let left: Vec<String> = hub
        .quarantined()
        .await
        .unwrap()
        .into_iter()
        .map(|q| q.id)
        .collect();
    assert_eq!(left.len(), 2);
    assert!(left.contains(&diverged) && left.contains(&bad_meta));
    let table = hub.table(&garbage).await.unwrap();
    submit(&hub, &table, Seat::P2, "2").await;
    drop(table);
    drop(hub);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn the_admin_endpoint_is_off_without_a_token() {
    let s = server();
    let (st, v) = call(&s.router, "GET", "/api/admin/quarantine", Some(ADMIN), None).await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--admin-token"),
        "{v}"
    );
}

/// A database made before quarantine existed (schema version 1 only) is migrated at open, its
/// matches kept.
#[tokio::test]
async fn an_old_database_file_gains_the_quarantine_table() {
    let (dir, db) = temp_db("migrate", "q.db");
    let conn = sql(&db);
    conn.execute_batch(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY);
         INSERT INTO schema_migrations (version) VALUES (1);
         CREATE TABLE matches (
             id TEXT PRIMARY KEY,
             created_at BIGINT NOT NULL,
             finished BOOLEAN NOT NULL,
             meta TEXT NOT NULL
         );
         CREATE INDEX matches_finished ON matches (finished, created_at);
         CREATE TABLE log (
             match_id TEXT NOT NULL REFERENCES matches (id),
             seq BIGINT NOT NULL,
             entry TEXT NOT NULL,
             PRIMARY KEY (match_id, seq)
         );
         INSERT INTO matches VALUES ('abcd', 5, FALSE, 'garbage');",
    )
    .unwrap();
    drop(conn);
    let store = SqliteStore::open(&db).unwrap();
    assert!(store.quarantined().await.unwrap().is_empty());
    let hub = Hub::new(store, Arc::new(ManualClock::at(77)), false);
    assert_eq!(hub.resume().await.unwrap(), 0);
    let q = hub.quarantined().await.unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!((q[0].id.as_str(), q[0].at), ("abcd", 77));
    drop(hub);
    // Opened again: migrated once, the quarantine kept.
    let store = SqliteStore::open(&db).unwrap();
    assert_eq!(store.quarantined().await.unwrap().len(), 1);
    let versions: i64 = sql(&db)
        .query_row(
            "SELECT COUNT(*) FROM schema_migrations WHERE version < 1100",
            [],
            |r| r.get(0),
        )
        .unwrap();
    // The matches' two migrations and the tournaments' one (store/tournaments.rs); the
    // seasons' (from 1101) and any later list are counted by store.rs.
    assert_eq!(versions, 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A finished match whose metadata is damaged: the lobby leaves it out instead of failing, and
/// asking for it sets it aside.
#[tokio::test]
async fn a_damaged_finished_match_neither_breaks_the_lobby_nor_is_served() {
    let (dir, db) = temp_db("finished", "q.db");
    let clock = Arc::new(ManualClock::at(1_000_000));
    let mut ids = Vec::new();
    {
        let hub = Hub::new(SqliteStore::open(&db).unwrap(), clock.clone(), false);
        for _ in 0..2 {
            let (id, table) = begin(&hub, json!({"game": "goofspiel"})).await;
            hub.act(&table, Seat::P1, Action::Resign).await.unwrap();
            ids.push(id);
        }
    }
    sql(&db)
        .execute(
            "UPDATE matches SET meta = 'garbage' WHERE id = ?1",
            [&ids[0]],
        )
        .unwrap();
    let hub = Hub::new(SqliteStore::open(&db).unwrap(), clock, false);
    assert_eq!(hub.resume().await.unwrap(), 0);
    let router = app(AppState::with_admin(hub, open_limits(), Some(ADMIN.into())));
    let (st, v) = call(&router, "GET", "/api/matches", None, None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let finished: Vec<&str> = v["finished"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(finished, [ids[1].as_str()]);
    let (st, v) = call(
        &router,
        "GET",
        &format!("/api/matches/{}/record", ids[0]),
        None,
        None,
    )
    .await;
    assert_eq!(st, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["error"]["code"], "quarantined");
    let (_, v) = call(&router, "GET", "/api/admin/quarantine", Some(ADMIN), None).await;
    assert_eq!(v["quarantined"][0]["id"], ids[0].as_str(), "{v}");
    let (st, _) = call(
        &router,
        "GET",
        &format!("/api/matches/{}/record", ids[1]),
        None,
        None,
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    std::fs::remove_dir_all(&dir).unwrap();
}

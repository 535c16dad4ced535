//! The stores, SQLite and PostgreSQL, through the same checks; and a restart in process: a hub
//! dropped mid-match and a new one over the same store resumes with clocks as they would have
//! been.
//!
//! PostgreSQL runs when `COLOSSEUM_TEST_POSTGRES` holds a connection string (`.ci/run` installs
//! and starts a server and sets it, with `COLOSSEUM_REQUIRE_POSTGRES=1` so that a missing
//! database fails instead of skipping).

mod common;

use std::sync::Arc;

use colosseum_engine::Seat;
use colosseum_host::{EndKind, LogEntry, MatchConfig, MatchResult};
use colosseum_server::hub::Action;
use colosseum_server::store::{StoreError, StoredMatch};
#[cfg(feature = "postgres")]
use colosseum_server::PostgresStore;
use colosseum_server::{Hub, ManualClock, SqliteStore, Store};
use common::{begin, submit, temp_db};
use serde_json::json;

fn stored(id: &str, created_at: u64) -> StoredMatch {
    StoredMatch {
        id: id.to_string(),
        config: MatchConfig::new("goofspiel"),
        tokens: [Some("a".repeat(32)), None],
        joined: [false, true],
        names: [None, Some("bot random".into())],
        created_at,
        started_at: None,
        result: None,
        race_bot: None,
        practice: false,
        fairness: None,
        tournament: None,
        webhook: None,
        rematch: None,
        share: None,
    }
}

fn entries(n: u64) -> Vec<LogEntry> {
    (0..n)
        .map(|i| LogEntry::Locked {
            at: i,
            seat: Seat::P1,
        })
        .collect()
}

async fn exercise(store: &impl Store) {
    let a = stored("aaaa", 10);
    store.create(&a).await.unwrap();
    assert!(matches!(store.create(&a).await, Err(StoreError::Exists(_))));
    store.create(&stored("bbbb", 20)).await.unwrap();

    store.append("aaaa", 0, &entries(3)).await.unwrap();
    // A second writer that thinks the log is shorter, or longer, is refused; nothing changes.
    assert!(matches!(
        store.append("aaaa", 2, &entries(1)).await,
        Err(StoreError::Conflict {
            stored: 3,
            first: 2,
            ..
        })
    ));
    assert!(store.append("aaaa", 5, &entries(1)).await.is_err());
    store.append("aaaa", 3, &entries(2)[1..]).await.unwrap();
    let (meta, log) = store.load("aaaa").await.unwrap().unwrap();
    assert_eq!(meta, a);
    assert_eq!(log.len(), 4);
    assert_eq!(log[3], entries(2)[1]);
    assert!(store.load("zzzz").await.unwrap().is_none());

    let ids =
        |v: Vec<(StoredMatch, Vec<LogEntry>)>| v.into_iter().map(|(m, _)| m.id).collect::<Vec<_>>();
    assert_eq!(ids(store.unfinished().await.unwrap()), ["aaaa", "bbbb"]);
    let mut done = a.clone();
    done.result = Some(MatchResult {
        winner: Some(Seat::P2),
        by: EndKind::Resignation,
        reason: "p1 resigned".into(),
    });
    store.update(&done).await.unwrap();
    assert_eq!(ids(store.unfinished().await.unwrap()), ["bbbb"]);
    let recent = store.recent_finished(10).await.unwrap();
    assert_eq!(recent, vec![done.clone()]);
    assert_eq!(store.unfinished_ids().await.unwrap(), ["bbbb"]);

    // Quarantine: set aside twice keeps the first time and the last reason; release removes.
    assert!(store.quarantined().await.unwrap().is_empty());
    store.quarantine("bbbb", "first", 5).await.unwrap();
    store.quarantine("zzzz", "no row", 7).await.unwrap();
    store.quarantine("bbbb", "second", 9).await.unwrap();
    let q = store.quarantined().await.unwrap();
    assert_eq!(
        q.iter()
            .map(|q| (q.id.as_str(), q.reason.as_str(), q.at))
            .collect::<Vec<_>>(),
        [("bbbb", "second", 5), ("zzzz", "no row", 7)]
    );
    store.release("bbbb").await.unwrap();
    store.release("zzzz").await.unwrap();
    assert!(store.quarantined().await.unwrap().is_empty());

    // The lobby's open list: waiting matches created before the cutoff are left out by the
    // query; a started one stays however old it is; a finished one never shows.
    store.create(&stored("cccc", 30)).await.unwrap();
    let mut started = stored("dddd", 1);
    started.started_at = Some(2);
    store.create(&started).await.unwrap();
    let open = |v: Vec<StoredMatch>| v.into_iter().map(|m| m.id).collect::<Vec<_>>();
    assert_eq!(
        open(store.open_matches(0).await.unwrap()),
        ["cccc", "bbbb", "dddd"]
    );
    assert_eq!(
        open(store.open_matches(25).await.unwrap()),
        ["cccc", "dddd"]
    );
    assert_eq!(open(store.open_matches(31).await.unwrap()), ["dddd"]);
    for id in ["cccc", "dddd"] {
        let mut m = store.load(id).await.unwrap().unwrap().0;
        m.result = done.result.clone();
        store.update(&m).await.unwrap();
    }
    assert_eq!(open(store.open_matches(0).await.unwrap()), ["bbbb"]);
    exercise_analyses(store).await;
}

#[tokio::test]
async fn sqlite_store() {
    exercise(&SqliteStore::in_memory().unwrap()).await;
    exercise_seasons(&SqliteStore::in_memory().unwrap()).await;
}

/// The seasons' rows (store/seasons.rs): a configuration and an append-only event log that a
/// second writer cannot interleave with.
async fn exercise_seasons(store: &impl Store) {
    store.create_season("s1", 10, "{\"a\":1}").await.unwrap();
    assert!(matches!(
        store.create_season("s1", 11, "{}").await,
        Err(StoreError::Exists(_))
    ));
    store.create_season("s2", 20, "{}").await.unwrap();
    store
        .append_season("s1", 0, &["e0".into(), "e1".into()])
        .await
        .unwrap();
    assert!(matches!(
        store.append_season("s1", 1, &["late".into()]).await,
        Err(StoreError::Conflict { .. })
    ));
    store.append_season("s1", 2, &["e2".into()]).await.unwrap();
    let s1 = store.load_season("s1").await.unwrap().unwrap();
    assert_eq!(s1.config, "{\"a\":1}");
    assert_eq!(s1.events, ["e0", "e1", "e2"]);
    assert!(store.load_season("nope").await.unwrap().is_none());
    assert_eq!(store.recent_seasons(10).await.unwrap(), ["s2", "s1"]);
    assert_eq!(store.unfinished_seasons().await.unwrap(), ["s1", "s2"]);
}

#[tokio::test]
async fn sqlite_file_keeps_matches_across_opens_and_migrates_once() {
    let (dir, path) = temp_db("store", "a.db");
    {
        let s = SqliteStore::open(&path).unwrap();
        s.create(&stored("cccc", 1)).await.unwrap();
        s.append("cccc", 0, &entries(2)).await.unwrap();
    }
    let s = SqliteStore::open(&path).unwrap();
    assert_eq!(s.load("cccc").await.unwrap().unwrap().1.len(), 2);
    drop(s);
    // Each migration ran once, whatever the number of opens: one row a version, in order.
    drop(SqliteStore::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    let versions: Vec<i64> = conn
        .prepare("SELECT version FROM schema_migrations ORDER BY version")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    // The matches' migrations count from 1, the tournaments' from 1001 (store/tournaments.rs),
    // the seasons' from 1101 (store/seasons.rs), each list without a gap, each applied once.
    let (matches, tournaments): (Vec<i64>, Vec<i64>) = versions.iter().partition(|&&v| v < 1000);
    let expected: Vec<i64> = (1..=matches.len() as i64).collect();
    assert!(matches.len() >= 2, "{versions:?}");
    assert_eq!(matches, expected);
    let seasons: Vec<i64> = versions
        .iter()
        .copied()
        .filter(|v| (1101..1200).contains(v))
        .collect();
    let tournaments: Vec<i64> = tournaments.into_iter().filter(|v| *v < 1100).collect();
    let expected: Vec<i64> = (1001..1001 + tournaments.len() as i64).collect();
    assert!(!tournaments.is_empty(), "{versions:?}");
    assert_eq!(tournaments, expected);
    let expected: Vec<i64> = (1101..1101 + seasons.len() as i64).collect();
    assert!(!seasons.is_empty(), "{versions:?}");
    assert_eq!(seasons, expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without the `postgres` feature this test build has no PostgreSQL store: a run that requires
/// the PostgreSQL tests fails instead of passing without them.
#[cfg(not(feature = "postgres"))]
#[test]
fn postgres_tests_need_the_postgres_feature() {
    assert!(
        std::env::var("COLOSSEUM_REQUIRE_POSTGRES").is_err(),
        "COLOSSEUM_REQUIRE_POSTGRES is set but this test build has no PostgreSQL store: run \
         it with --features postgres (or --all-features)"
    );
}

#[cfg(feature = "postgres")]
async fn postgres() -> Option<PostgresStore> {
    match std::env::var("COLOSSEUM_TEST_POSTGRES") {
        Ok(config) => {
            let store = PostgresStore::connect(&config)
                .await
                .expect("connect to COLOSSEUM_TEST_POSTGRES");
            store.clear().await.unwrap();
            Some(store)
        }
        Err(_) => {
            assert!(
                std::env::var("COLOSSEUM_REQUIRE_POSTGRES").is_err(),
                "COLOSSEUM_REQUIRE_POSTGRES is set but COLOSSEUM_TEST_POSTGRES is not"
            );
            eprintln!("skipped: set COLOSSEUM_TEST_POSTGRES to test the PostgreSQL store");
            None
        }
    }
}

#[cfg(feature = "postgres")]
/// One test for everything PostgreSQL, so tests sharing the database never run at once.
#[tokio::test]
async fn postgres_store_and_restart() {
    let Some(store) = postgres().await else {
        return;
    };
    exercise(&store).await;
    store.clear().await.unwrap();
    exercise_seasons(&store).await;
    store.clear().await.unwrap();
    restart_resumes_with_clocks(
        store,
        |config| {
            let config = config.to_string();
            async move { PostgresStore::connect(&config).await.unwrap() }
        },
        std::env::var("COLOSSEUM_TEST_POSTGRES").unwrap(),
    )
    .await;
    let config = std::env::var("COLOSSEUM_TEST_POSTGRES").unwrap();
    let store = PostgresStore::connect(&config).await.unwrap();
    store.clear().await.unwrap();
    let reopen = || async { PostgresStore::connect(&config).await.unwrap() };
    let damage = |id: String| async move {
        let config = std::env::var("COLOSSEUM_TEST_POSTGRES").unwrap();
        let (client, connection) = tokio_postgres::connect(&config, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        client
            .execute(
                "UPDATE log SET entry = 'garbage' WHERE match_id = $1",
                &[&id],
            )
            .await
            .unwrap();
    };
    a_damaged_match_is_set_aside_on_restart(store, reopen, damage).await;
    let store = PostgresStore::connect(&config).await.unwrap();
    store.clear().await.unwrap();
    two_processes_share_one_database(store, &config).await;
}

#[cfg(feature = "postgres")]
/// Two server processes on one database, through their routers (docs/server-api.md, *Several
/// server processes*): the one that did not create an unfinished match answers 409 `elsewhere`
/// to reads and moves; when the holder is gone, it claims the match and serves it.
async fn two_processes_share_one_database(first: PostgresStore, config: &str) {
    use axum::http::StatusCode;
    use colosseum_server::{app, AppState};
    let serve = |store: PostgresStore| {
        let clock = Arc::new(ManualClock::at(common::T0));
        let limits = common::open_limits();
        let hub = Hub::with_limits(store, clock, false, limits);
        app(AppState::new(hub, limits))
    };
    let a = serve(first);
    let b = serve(PostgresStore::connect(config).await.unwrap());
    let (status, created) = common::call(
        &a,
        "POST",
        "/api/matches",
        None,
        Some(json!({"game": "goofspiel"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = (0..2)
        .map(|i| created["tokens"][i].as_str().unwrap().to_string())
        .collect();
    // Each seat commits to its client seed, then both reveal (the match starts then).
    for what in ["join", "reveal"] {
        for (i, t) in tokens.iter().enumerate() {
            let seed = common::client_seed(i);
            let body = if what == "join" {
                json!({"client_seed_hash": common::seed_hash(&seed)})
            } else {
                json!({"client_seed": seed})
            };
            let (status, v) = common::call(
                &a,
                "POST",
                &format!("/api/matches/{id}/{what}"),
                Some(t),
                Some(body),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{what}: {v}");
        }
    }
    let uri = format!("/api/matches/{id}");
    let (status, v) = common::call(&a, "GET", &uri, None, None).await;
    assert_eq!(status, StatusCode::OK, "the creator serves it: {v}");
    // The other process: 409 `elsewhere` for a spectator, for a seat, for a move.
    for token in [None, Some(tokens[0].as_str())] {
        let (status, v) = common::call(&b, "GET", &uri, token, None).await;
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
        assert_eq!(v["error"]["code"], "elsewhere", "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("another server process"),
            "{v}"
        );
    }
    let move_uri = format!("/api/matches/{id}/submit");
    let (status, v) = common::call(
        &b,
        "POST",
        &move_uri,
        Some(&tokens[0]),
        Some(json!({"move": "1", "decision": 1})),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("elsewhere")),
        "{v}"
    );
    // The creator still serves it, the refused move not made.
    let (status, v) = common::call(
        &a,
        "POST",
        &move_uri,
        Some(&tokens[0]),
        Some(json!({"move": "1", "decision": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // The holder goes away (its connection closes, PostgreSQL releases the lock): the other
    // process claims the match, rebuilt from the log with the move made.
    drop(a);
    let mut answer = None;
    for _ in 0..100 {
        let (status, v) = common::call(&b, "GET", &uri, Some(&tokens[0]), None).await;
        if status == StatusCode::OK {
            answer = Some(v);
            break;
        }
        assert_eq!(v["error"]["code"], "elsewhere", "{v}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let v = answer.expect("the match is claimed within 5 s of its holder going away");
    assert_eq!(v["match"]["seats"]["p1"]["submitted"], true, "{v}");
    let (status, v) = common::call(
        &b,
        "POST",
        &move_uri,
        Some(&tokens[1]),
        Some(json!({"move": "1", "decision": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn sqlite_restart_resumes_with_clocks() {
    let (dir, path) = temp_db("restart", "r.db");
    let first = SqliteStore::open(&path).unwrap();
    restart_resumes_with_clocks(
        first,
        |p| {
            let p = std::path::PathBuf::from(p);
            async move { SqliteStore::open(&p).unwrap() }
        },
        path.to_string_lossy().into_owned(),
    )
    .await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn sqlite_sets_a_damaged_match_aside_on_restart() {
    let (dir, path) = temp_db("aside", "q.db");
    let reopen = || async { SqliteStore::open(&path).unwrap() };
    let damaged = path.clone();
    let damage = |id: String| async move {
        rusqlite::Connection::open(&damaged)
            .unwrap()
            .execute("UPDATE log SET entry = 'garbage' WHERE match_id = ?1", [id])
            .unwrap();
    };
    a_damaged_match_is_set_aside_on_restart(SqliteStore::open(&path).unwrap(), reopen, damage)
        .await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two matches are started; one's log is damaged behind the server's back; a new hub over the
/// same store resumes the other, sets the damaged one aside in the store, and refuses it.
async fn a_damaged_match_is_set_aside_on_restart<S, R, RF, D, DF>(first: S, reopen: R, damage: D)
where
    S: Store,
    R: Fn() -> RF,
    RF: std::future::Future<Output = S>,
    D: FnOnce(String) -> DF,
    DF: std::future::Future<Output = ()>,
{
    let clock = Arc::new(ManualClock::at(1_000_000));
    let hub = Hub::new(first, clock.clone(), false);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (id, table) = begin(&hub, json!({"game": "goofspiel"})).await;
        submit(&hub, &table, Seat::P1, "1").await;
        ids.push(id);
    }
    drop(hub);
    damage(ids[0].clone()).await;
    let hub = Hub::new(reopen().await, clock.clone(), false);
    assert_eq!(hub.resume().await.unwrap(), 1);
    let q = hub.quarantined().await.unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].id, ids[0]);
    assert!(q[0].reason.contains("does not read"), "{}", q[0].reason);
    let refused = hub.table(&ids[0]).await.err().unwrap();
    assert_eq!(
        (refused.status().as_u16(), refused.code.as_str()),
        (503, "quarantined")
    );
    let table = hub.table(&ids[1]).await.unwrap();
    submit(&hub, &table, Seat::P2, "2").await;
    drop(table);
    drop(hub);
    // Still set aside at the next start, the other match still served.
    let hub = Hub::new(reopen().await, clock, false);
    assert_eq!(hub.resume().await.unwrap(), 1);
    assert_eq!(hub.quarantined().await.unwrap().len(), 1);
    assert!(hub.table(&ids[0]).await.is_err());
}

/// A Goofspiel match (30 s a move) is half played; the hub goes away; 40 s later a new hub over
/// the same store resumes it: p2's deadline passed while it was down, so its default was made
/// at the deadline's own time, and the match plays on to the end.
async fn restart_resumes_with_clocks<S, F, Fut>(first: S, reopen: F, arg: String)
where
    S: Store,
    F: Fn(&str) -> Fut,
    Fut: std::future::Future<Output = S>,
{
    let clock = Arc::new(ManualClock::at(1_000_000));
    let hub = Hub::new(first, clock.clone(), false);
    let (id, table) = begin(
        &hub,
        json!({"game": "goofspiel", "seed": 9, "options": {"cards": "5"}}),
    )
    .await;
    clock.advance(1_000);
    submit(&hub, &table, Seat::P1, "5").await;
    submit(&hub, &table, Seat::P2, "4").await;
    clock.advance(2_000);
    submit(&hub, &table, Seat::P1, "4").await;
    let before = hub.state(&table, colosseum_engine::Viewer::Spectator).await;
    drop(table);
    drop(hub);

    // Down for 40 s (until 43 s into the match): p2's turn began at 1 s, its deadline at 31 s
    // passes; the next decision's, at 61 s, does not.
    clock.advance(40_000);
    let hub = Hub::new(reopen(&arg).await, clock.clone(), false);
    assert_eq!(hub.resume().await.unwrap(), 1);
    let table = hub.table(&id).await.unwrap();
    let after = hub.state(&table, colosseum_engine::Viewer::Spectator).await;
    let turns = after["match"]["view"]["turns"].as_array().unwrap().clone();
    assert_eq!(
        before["match"]["view"]["turns"].as_array().unwrap().len(),
        1
    );
    assert_eq!(turns.len(), 2, "{after}");
    assert_eq!(turns[1]["p1"], 4);
    // The default (lowest card left) was made for p2 at its deadline, 30 s after its turn began.
    assert_eq!(turns[1]["p2"], 1, "{after}");
    // The next decision's clocks started at that deadline, not at the restart.
    assert_eq!(after["match"]["now"], 43_000, "{after}");
    assert_eq!(
        after["match"]["seats"]["p1"]["clock"]["deadline"], 61_000,
        "{after}"
    );
    // The match plays on to the end.
    let mut n = 0;
    while after_status(&hub, &table).await != "finished" {
        n += 1;
        assert!(n < 100);
        for seat in Seat::BOTH {
            if let Some(mv) = hub.random_move_for_tests(&table, seat, n).await {
                let _ = hub.act(&table, seat, Action::Submit(mv)).await;
            }
        }
    }
    let records = hub.records(&table).await.unwrap();
    let replayed = colosseum_games::replay_record(&records[0])
        .unwrap()
        .unwrap();
    assert!(replayed.game.outcome().is_some());
}

async fn after_status<S: Store>(hub: &Arc<Hub<S>>, table: &colosseum_server::hub::Table) -> String {
    hub.state(table, colosseum_engine::Viewer::Spectator).await["status"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The analyses' rows (store/analyses.rs, migration 1401): one a match, stored and read back, a
/// second analysis replacing the first; a match that does not exist has none (and cannot get one:
/// the row refers to the match).
async fn exercise_analyses(store: &impl Store) {
    assert_eq!(store.load_analysis("aaaa").await.unwrap(), None);
    store
        .save_analysis("aaaa", 11, r#"{"status":"done","games":[]}"#)
        .await
        .unwrap();
    assert_eq!(
        store.load_analysis("aaaa").await.unwrap().as_deref(),
        Some(r#"{"status":"done","games":[]}"#)
    );
    store
        .save_analysis("aaaa", 12, r#"{"status":"done","games":[1]}"#)
        .await
        .unwrap();
    assert_eq!(
        store.load_analysis("aaaa").await.unwrap().as_deref(),
        Some(r#"{"status":"done","games":[1]}"#)
    );
    assert_eq!(store.load_analysis("bbbb").await.unwrap(), None);
    assert!(store.save_analysis("zzzz", 13, "{}").await.is_err());
    assert_eq!(store.load_analysis("zzzz").await.unwrap(), None);
}

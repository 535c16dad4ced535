//! PostgreSQL's group commit of log appends (`PostgresStore`): appends arriving together are
//! stored by one statement, each checked on its own, and each caller is answered only after the
//! commit that holds its entries.
//!
//! Runs when `COLOSSEUM_TEST_POSTGRES` holds a connection string (as `tests/store.rs`). The
//! test's matches have ids of their own and it removes only them, so it does not disturb
//! another test using the same database.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use colosseum_engine::Seat;
use colosseum_host::{LogEntry, MatchConfig};
use colosseum_server::store::{StoreError, StoredMatch};
use colosseum_server::{PostgresStore, Store};
use futures_util::future::join_all;

fn stored(id: &str) -> StoredMatch {
    StoredMatch {
        id: id.to_string(),
        config: MatchConfig::new("goofspiel"),
        tokens: [Some("a".repeat(32)), None],
        joined: [false, true],
        names: [None, None],
        created_at: 1,
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

/// `n` entries numbered from `from` (their `at`), so a lost or reordered one shows.
fn entries(from: usize, n: usize) -> Vec<LogEntry> {
    (from..from + n)
        .map(|i| LogEntry::Locked {
            at: i as u64,
            seat: Seat::P1,
        })
        .collect()
}

fn config() -> Option<String> {
    match std::env::var("COLOSSEUM_TEST_POSTGRES") {
        Ok(c) => Some(c),
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

/// 40 matches, each appended to 12 times (1 to 3 entries) by its own task, all at once. After
/// every acknowledged append another session must already see its entries (an append answered
/// before its commit fails here), and at the end every match holds exactly its entries in order
/// (a lost append fails). Appends arriving together went in together: fewer statements than
/// appends. A group of appends sent at once, some of them conflicts and two of them one match's
/// consecutive appends: each gets its own answer, a conflict stores nothing, the others are
/// stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_group_commit_answers_after_the_commit_and_loses_nothing() {
    let Some(config) = config() else {
        return;
    };
    let store = std::sync::Arc::new(PostgresStore::connect(&config).await.unwrap());
    let (observer, connection) = tokio_postgres::connect(&config, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let observer = std::sync::Arc::new(observer);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let prefix = format!("gc{nanos:x}-");
    let ids: Vec<String> = (0..40).map(|i| format!("{prefix}{i:02}")).collect();
    for id in &ids {
        store.create(&stored(id)).await.unwrap();
    }
    let (groups_before, appends_before) = store.group_commits();

    let mut tasks = Vec::new();
    for (m, id) in ids.iter().enumerate() {
        let (store, observer, id) = (store.clone(), observer.clone(), id.clone());
        tasks.push(tokio::spawn(async move {
            let mut n = 0;
            for a in 0..12 {
                let len = 1 + (m + a) % 3;
                store.append(&id, n, &entries(n, len)).await.unwrap();
                n += len;
                // Acknowledged: committed, so another session sees it now.
                let seen: i64 = observer
                    .query_one("SELECT COUNT(*) FROM log WHERE match_id = $1", &[&id])
                    .await
                    .unwrap()
                    .get(0);
                assert_eq!(
                    seen, n as i64,
                    "{id}: append {a} was answered before its entries were committed"
                );
            }
            n
        }));
    }
    let mut expected = Vec::new();
    for t in tasks {
        expected.push(t.await.unwrap());
    }
    for (id, n) in ids.iter().zip(&expected) {
        let (_, log) = store.load(id).await.unwrap().unwrap();
        assert_eq!(log, entries(0, *n), "{id}: an entry was lost or reordered");
    }
    let (groups, appends) = store.group_commits();
    let (groups, appends) = (groups - groups_before, appends - appends_before);
    assert_eq!(appends, 40 * 12);
    assert!(
        groups < appends,
        "480 appends from 40 tasks at once were never committed together ({groups} statements)"
    );

    // One batch sent at once: matches 0-9 continue (0 and 1 twice: two consecutive appends),
    // 10-19 start at a wrong sequence number.
    let mut batch = Vec::new();
    for (i, id) in ids.iter().enumerate().take(20) {
        let n = expected[i];
        let first = if i < 10 { n } else { n + 1 - 2 * (i % 2) };
        batch.push((id.clone(), first, entries(first, 2)));
        if i < 2 {
            batch.push((id.clone(), n + 2, entries(n + 2, 1)));
        }
    }
    let (groups_before, _) = store.group_commits();
    let results = join_all(
        batch
            .iter()
            .map(|(id, first, e)| store.append(id, *first, e)),
    )
    .await;
    let (groups_after, _) = store.group_commits();
    assert!(
        groups_after - groups_before < batch.len() as u64,
        "22 appends sent at once went in one by one"
    );
    for ((id, first, _), result) in batch.iter().zip(&results) {
        let i: usize = id[prefix.len()..].parse().unwrap();
        if i < 10 {
            assert!(result.is_ok(), "{id} at {first}: {result:?}");
        } else {
            match result {
                Err(StoreError::Conflict {
                    stored, first: f, ..
                }) => {
                    assert_eq!((*stored, *f), (expected[i] as u64, *first as u64), "{id}");
                }
                other => panic!("{id} at {first} is not a conflict: {other:?}"),
            }
        }
    }
    for (i, id) in ids.iter().enumerate().take(20) {
        let n = expected[i]
            + if i < 2 {
                3
            } else if i < 10 {
                2
            } else {
                0
            };
        let (_, log) = store.load(id).await.unwrap().unwrap();
        assert_eq!(log, entries(0, n), "{id}");
    }

    // A failing statement fails nothing else: another session holds an uncommitted row at the
    // sequence number one append of a group writes, so the group's check passes, its insert
    // waits for that session and then finds the row taken; each append of the group is then
    // written again on its own: that one is a conflict, the other is stored.
    let sneaky = ids[20].clone();
    let n = expected[20];
    let other = ids[21].clone();
    let m = expected[21];
    let (intruder, connection) = tokio_postgres::connect(&config, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    intruder.batch_execute("BEGIN").await.unwrap();
    intruder
        .execute(
            "INSERT INTO log (match_id, seq, entry) VALUES ($1, $2, $3)",
            &[&sneaky, &(n as i64), &"{}"],
        )
        .await
        .unwrap();
    let appends = {
        let (store, sneaky, other) = (store.clone(), sneaky.clone(), other.clone());
        tokio::spawn(async move {
            join_all([
                store.append(&sneaky, n, &entries(n, 1)),
                store.append(&other, m, &entries(m, 1)),
            ])
            .await
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !appends.is_finished(),
        "the insert did not wait for the other session"
    );
    intruder.batch_execute("COMMIT").await.unwrap();
    let results = appends.await.unwrap();
    assert!(
        matches!(results[0], Err(StoreError::Conflict { stored, .. }) if stored == n as u64 + 1),
        "{:?}",
        results[0]
    );
    assert!(results[1].is_ok(), "{:?}", results[1]);
    let (_, log) = store.load(&other).await.unwrap().unwrap();
    assert_eq!(log, entries(0, m + 1));

    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        observer
            .execute(
                "DELETE FROM log WHERE starts_with(match_id, $1)",
                &[&prefix],
            )
            .await
            .unwrap();
        observer
            .execute("DELETE FROM matches WHERE starts_with(id, $1)", &[&prefix])
            .await
            .unwrap();
    })
    .await;
}

/// A fresh SQLite file for one test (removed first if a run before left it).
/// The answers and the stored state after a group of 4 updates (the odd matches: both seats
/// joined, `N{i}` the first name) and 4 appends of two entries from 0 (the even matches; the
/// first already held one entry, so its append is refused with nothing of it stored).
async fn updates_and_appends_stored(
    store: &impl Store,
    ids: &[String],
    results: Vec<(usize, Result<(), StoreError>)>,
) {
    for (i, r) in results {
        if i == 0 {
            assert!(
                matches!(
                    r,
                    Err(StoreError::Conflict {
                        stored: 1,
                        first: 0,
                        ..
                    })
                ),
                "{r:?}"
            );
        } else {
            r.unwrap();
        }
    }
    for (i, id) in ids.iter().enumerate() {
        let (meta, log) = store.load(id).await.unwrap().unwrap();
        if i == 0 {
            assert_eq!(log, entries(0, 1), "the refused append stored nothing");
        } else if i % 2 == 0 {
            assert_eq!(log, entries(0, 2), "{id}");
            assert_eq!(meta.names[0], None);
        } else {
            assert_eq!(log, Vec::new(), "{id}");
            assert_eq!(meta.joined, [true, true], "{id}");
            assert_eq!(meta.names[0].as_deref(), Some(format!("N{i}").as_str()));
        }
    }
}

fn sqlite_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "colosseum-group-commit-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("colosseum.db")
}

/// The SQLite store with a commit window (`--commit-window-us`): 40 matches appended to 12
/// times each by their own tasks at once. After every acknowledged append another connection
/// to the file must already see its entries (an append answered before its commit fails here),
/// at the end every match holds exactly its entries in order (a lost or reordered one fails),
/// and the appends shared transactions: at least four a transaction on average.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_commit_window_answers_after_the_commit_and_loses_nothing() {
    use colosseum_server::SqliteStore;
    let path = sqlite_file("window");
    let store = std::sync::Arc::new(
        SqliteStore::open(&path)
            .unwrap()
            .with_commit_window(Duration::from_millis(20)),
    );
    let ids: Vec<String> = (0..40).map(|i| format!("w{i:02}")).collect();
    for id in &ids {
        store.create(&stored(id)).await.unwrap();
    }
    let (groups_before, appends_before) = store.group_commits();
    let mut tasks = Vec::new();
    for (m, id) in ids.iter().enumerate() {
        let (store, path, id) = (store.clone(), path.clone(), id.clone());
        tasks.push(tokio::spawn(async move {
            let observer = rusqlite::Connection::open(&path).unwrap();
            let mut n = 0;
            for a in 0..12 {
                let len = 1 + (m + a) % 3;
                store.append(&id, n, &entries(n, len)).await.unwrap();
                n += len;
                // Acknowledged: committed, so another connection sees it now.
                let seen: i64 = observer
                    .query_row("SELECT COUNT(*) FROM log WHERE match_id = ?1", [&id], |r| {
                        r.get(0)
                    })
                    .unwrap();
                assert_eq!(
                    seen, n as i64,
                    "{id}: append {a} was answered before its entries were committed"
                );
            }
            n
        }));
    }
    let mut expected = Vec::new();
    for t in tasks {
        expected.push(t.await.unwrap());
    }
    for (id, n) in ids.iter().zip(&expected) {
        let (_, log) = store.load(id).await.unwrap().unwrap();
        assert_eq!(log, entries(0, *n), "{id}: an entry was lost or reordered");
    }
    let (groups, appends) = store.group_commits();
    let (groups, appends) = (groups - groups_before, appends - appends_before);
    assert_eq!(appends, 40 * 12);
    assert!(
        groups * 4 <= appends,
        "480 appends from 40 tasks at once took {groups} transactions (fewer than 4 a transaction)"
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// Appends arriving within the window share one transaction; without a window the same
/// appends, one after the other, take one each; and a lone append waits the window (not much
/// longer) before its answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_appends_arriving_within_the_window_share_a_transaction() {
    use colosseum_server::SqliteStore;
    let path = sqlite_file("share");
    let window = Duration::from_millis(300);
    let store = std::sync::Arc::new(SqliteStore::open(&path).unwrap().with_commit_window(window));
    let ids: Vec<String> = (0..8).map(|i| format!("s{i}")).collect();
    for id in &ids {
        store.create(&stored(id)).await.unwrap();
    }
    let before = store.group_commits();
    let started = std::time::Instant::now();
    let results = join_all(ids.iter().map(|id| {
        let (store, id) = (store.clone(), id.clone());
        tokio::spawn(async move { store.append(&id, 0, &entries(0, 2)).await })
    }))
    .await;
    let took = started.elapsed();
    for r in results {
        r.unwrap().unwrap();
    }
    let after = store.group_commits();
    assert_eq!(
        (after.0 - before.0, after.1 - before.1),
        (1, 8),
        "8 appends within the window: one transaction"
    );
    assert!(
        took >= window,
        "answered after {took:?}, before the window ended"
    );
    for id in &ids {
        let (_, log) = store.load(id).await.unwrap().unwrap();
        assert_eq!(log, entries(0, 2), "{id}");
    }

    // No window: each append alone is its own transaction, answered at once.
    let path0 = sqlite_file("share0");
    let store0 = SqliteStore::open(&path0).unwrap();
    store0.create(&stored("s")).await.unwrap();
    let before = store0.group_commits();
    let started = std::time::Instant::now();
    for i in 0..4 {
        store0.append("s", i, &entries(i, 1)).await.unwrap();
    }
    // With the window each of these lone appends would wait it out (4 x 300 ms); without it
    // none waits (a bound far from both, so a slow machine does not decide it).
    assert!(
        started.elapsed() < window * 4,
        "no window, yet it waited: {:?}",
        started.elapsed()
    );
    let after = store0.group_commits();
    assert_eq!((after.0 - before.0, after.1 - before.1), (4, 4));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
    let _ = std::fs::remove_dir_all(path0.parent().unwrap());
}

/// A match's metadata (a join, a result) goes through the group commit too: 4 updates and 4
/// appends arriving within the window share one transaction, each update answered with that
/// commit (not before the window ends) and only when another connection sees it, and an append that does not continue its log is still refused (with
/// the entries stored) while the others of its group go in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_updates_share_the_appends_transaction() {
    use colosseum_server::SqliteStore;
    let path = sqlite_file("updates");
    let window = Duration::from_millis(200);
    let store = std::sync::Arc::new(SqliteStore::open(&path).unwrap().with_commit_window(window));
    let ids: Vec<String> = (0..8).map(|i| format!("u{i}")).collect();
    for id in &ids {
        store.create(&stored(id)).await.unwrap();
    }
    store.append("u0", 0, &entries(0, 1)).await.unwrap();
    let before = store.group_commits();
    // The first of the eight to arrive finds the queue empty and waits the window from then:
    // the group's commit, and so every answer, comes at least a window after `started`.
    let started = std::time::Instant::now();
    let results = join_all(ids.iter().enumerate().map(|(i, id)| {
        let (store, path, id) = (store.clone(), path.clone(), id.clone());
        tokio::spawn(async move {
            let observer = rusqlite::Connection::open(&path).unwrap();
            if i % 2 == 0 {
                // u0 already holds one entry: an append from 0 is refused.
                store.append(&id, 0, &entries(0, 2)).await
            } else {
                let mut m = stored(&id);
                m.joined = [true, true];
                m.names[0] = Some(format!("N{i}"));
                let r = store.update(&m).await;
                // In the group: answered with its commit, after the window (an update
                // committed alone is answered at once).
                assert!(
                    started.elapsed() >= window,
                    "{id}: the update was answered after {:?}, before the window ended",
                    started.elapsed()
                );
                let meta: String = observer
                    .query_row("SELECT meta FROM matches WHERE id = ?1", [&id], |r| {
                        r.get(0)
                    })
                    .unwrap();
                assert!(
                    meta.contains(&format!("\"N{i}\"")),
                    "{id}: the update was answered before it was committed: {meta}"
                );
                r
            }
        })
    }))
    .await;
    let after = store.group_commits();
    assert_eq!(
        (after.0 - before.0, after.1 - before.1),
        (1, 4),
        "4 appends and 4 updates within the window: one transaction (appends counted alone)"
    );
    let results = results
        .into_iter()
        .map(|r| r.unwrap())
        .enumerate()
        .collect();
    updates_and_appends_stored(&*store, &ids, results).await;
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// The append waiting out the window is the writer of everything queued behind it: if its task
/// is dropped meanwhile (an HTTP client gone), the queue is written at once, so an append
/// queued behind it is answered (and stored) anyway, and so is the dropped one's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_writer_dropped_in_its_window_leaves_nothing_stranded() {
    use colosseum_server::SqliteStore;
    let path = sqlite_file("dropped");
    let store = std::sync::Arc::new(
        SqliteStore::open(&path)
            .unwrap()
            .with_commit_window(Duration::from_secs(5)),
    );
    store.create(&stored("a")).await.unwrap();
    store.create(&stored("b")).await.unwrap();
    let writer = {
        let store = store.clone();
        tokio::spawn(async move { store.append("a", 0, &entries(0, 1)).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let queued = {
        let store = store.clone();
        tokio::spawn(async move { store.append("b", 0, &entries(0, 2)).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!queued.is_finished(), "answered inside the window");
    writer.abort();
    let answer = tokio::time::timeout(Duration::from_secs(2), queued)
        .await
        .expect("the append queued behind a dropped writer was stranded");
    answer.unwrap().unwrap();
    let (_, a) = store.load("a").await.unwrap().unwrap();
    let (_, b) = store.load("b").await.unwrap().unwrap();
    assert_eq!((a, b), (entries(0, 1), entries(0, 2)));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// PostgreSQL with a commit window: appends arriving within it go in one statement, each
/// answered after the commit (another session sees it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_appends_arriving_within_the_window_share_a_statement() {
    let Some(config) = config() else {
        return;
    };
    let window = Duration::from_secs(1);
    let store = std::sync::Arc::new(
        PostgresStore::connect(&config)
            .await
            .unwrap()
            .with_commit_window(window),
    );
    let (observer, connection) = tokio_postgres::connect(&config, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let prefix = format!("gw{nanos:x}-");
    let ids: Vec<String> = (0..8).map(|i| format!("{prefix}{i}")).collect();
    for id in &ids {
        store.create(&stored(id)).await.unwrap();
    }
    let before = store.group_commits();
    // The first append arrives alone, so the writer waits the window for company; the other
    // seven arrive 50 ms later, inside it. Without the window the first would be written alone
    // (two statements). Whether the writer woke before the seven arrived or not, it is one
    // statement; so no clock is asserted, only the grouping and that each answer comes after
    // the commit (another session sees the rows).
    let first = {
        let (store, id) = (store.clone(), ids[0].clone());
        tokio::spawn(async move { store.append(&id, 0, &entries(0, 2)).await })
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut results = join_all(ids[1..].iter().map(|id| {
        let (store, id) = (store.clone(), id.clone());
        tokio::spawn(async move { store.append(&id, 0, &entries(0, 2)).await })
    }))
    .await;
    results.push(first.await);
    for r in results {
        r.unwrap().unwrap();
    }
    let after = store.group_commits();
    assert_eq!((after.0 - before.0, after.1 - before.1), (1, 8));
    for id in &ids {
        let seen: i64 = observer
            .query_one("SELECT COUNT(*) FROM log WHERE match_id = $1", &[id])
            .await
            .unwrap()
            .get(0);
        assert_eq!(seen, 2, "{id}");
    }
    let _ = observer
        .execute(
            "DELETE FROM log WHERE starts_with(match_id, $1)",
            &[&prefix],
        )
        .await;
    let _ = observer
        .execute("DELETE FROM matches WHERE starts_with(id, $1)", &[&prefix])
        .await;
}

/// PostgreSQL: a match's metadata (a join, a result) goes in the appends' statement too: 4
/// updates and 4 appends arriving within the window are one statement (one commit), each
/// update seen by another session when it is answered, and an append that does not continue
/// its log is refused (nothing of it stored) while the rest of its group goes in. Before, each
/// update was a transaction of its own (a commit and its WAL flush each).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_updates_share_the_appends_statement() {
    let Some(config) = config() else {
        return;
    };
    let store = std::sync::Arc::new(
        PostgresStore::connect(&config)
            .await
            .unwrap()
            .with_commit_window(Duration::from_secs(1)),
    );
    let (observer, connection) = tokio_postgres::connect(&config, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let observer = std::sync::Arc::new(observer);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let prefix = format!("gu{nanos:x}-");
    let ids: Vec<String> = (0..8).map(|i| format!("{prefix}{i}")).collect();
    for id in &ids {
        store.create(&stored(id)).await.unwrap();
    }
    store.append(&ids[0], 0, &entries(0, 1)).await.unwrap();
    let before = store.group_commits();
    let one = |i: usize| {
        let (store, observer, id) = (store.clone(), observer.clone(), ids[i].clone());
        tokio::spawn(async move {
            if i.is_multiple_of(2) {
                // The first match already holds one entry: an append from 0 is refused.
                store.append(&id, 0, &entries(0, 2)).await
            } else {
                let mut m = stored(&id);
                m.joined = [true, true];
                m.names[0] = Some(format!("N{i}"));
                let r = store.update(&m).await;
                let meta: String = observer
                    .query_one("SELECT meta FROM matches WHERE id = $1", &[&id])
                    .await
                    .unwrap()
                    .get(0);
                assert!(
                    meta.contains(&format!("\"N{i}\"")),
                    "{id}: the update was answered before it was committed: {meta}"
                );
                r
            }
        })
    };
    // The first alone (the writer waits the window for company), the rest inside the window.
    let first = one(1);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let rest = join_all((0..8).filter(|&i| i != 1).map(one)).await;
    let mut results: Vec<_> = (0..8).filter(|&i| i != 1).zip(rest).collect();
    results.push((1, first.await));
    let after = store.group_commits();
    assert_eq!(
        (after.0 - before.0, after.1 - before.1),
        (1, 4),
        "4 appends and 4 updates within the window: one statement (appends counted alone)"
    );
    let results = results.into_iter().map(|(i, r)| (i, r.unwrap())).collect();
    updates_and_appends_stored(&*store, &ids, results).await;
    // Updates alone go through the writer too (a group of their own, no append counted).
    let before = store.group_commits();
    join_all(ids[1..4].iter().map(|id| {
        let (store, id) = (store.clone(), id.clone());
        tokio::spawn(async move {
            let mut m = stored(&id);
            m.result = None;
            m.names[1] = Some("again".into());
            store.update(&m).await
        })
    }))
    .await
    .into_iter()
    .for_each(|r| r.unwrap().unwrap());
    let after = store.group_commits();
    assert!(
        after.0 > before.0 && after.1 == before.1,
        "three updates: {before:?} -> {after:?} (groups, appends)"
    );
    let _ = observer
        .execute(
            "DELETE FROM log WHERE starts_with(match_id, $1)",
            &[&prefix],
        )
        .await;
    let _ = observer
        .execute("DELETE FROM matches WHERE starts_with(id, $1)", &[&prefix])
        .await;
}

/// PostgreSQL: notices go out in batches (one `pg_notify` statement for every notice queued
/// meanwhile), in order, each one heard. Before, each notice was a statement and a transaction
/// of its own (40,000 in a 10,000-match run), each waking every listening session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_notices_go_out_in_batches_and_in_order() {
    let Some(config) = config() else {
        return;
    };
    let store = PostgresStore::connect(&config).await.unwrap();
    let (heard_tx, mut heard) = tokio::sync::mpsc::unbounded_channel();
    let (ready_tx, ready) = tokio::sync::oneshot::channel();
    let listen_config = config.clone();
    tokio::spawn(async move {
        let _ = PostgresStore::listen(&listen_config, heard_tx, move || {
            let _ = ready_tx.send(());
        })
        .await;
    });
    ready.await.unwrap();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let sent: Vec<String> = (0..200).map(|i| format!("test {nanos:x} {i}")).collect();
    let before = store.notice_statements();
    for p in &sent {
        store.notify(p).await.unwrap();
    }
    let mut got = Vec::new();
    while got.len() < sent.len() {
        let p = tokio::time::timeout(Duration::from_secs(20), heard.recv())
            .await
            .expect("a notice was not heard within 20 s")
            .unwrap();
        // Other tests on the same database notify too: keep this test's own.
        if p.starts_with(&format!("test {nanos:x} ")) {
            got.push(p);
        }
    }
    assert_eq!(got, sent, "every notice heard, in the order sent");
    let statements = store.notice_statements() - before;
    assert!(
        (1..=100).contains(&statements),
        "200 notices took {statements} statements (one a notice before)"
    );
}

/// The group statement is prepared once and kept: 40 appends written one after another (40
/// statements) prepare it once. Where `pg_stat_statements` is loaded, it is also planned once
/// (the writer's session uses the generic plan) instead of at every group.
#[tokio::test]
async fn postgres_the_group_statement_is_prepared_and_planned_once() {
    let Some(config) = config() else {
        return;
    };
    let store = PostgresStore::connect(&config).await.unwrap();
    let (observer, connection) = tokio_postgres::connect(&config, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    // (calls, plans) of the group statement in this database, where pg_stat_statements counts
    // plans (every session's statement of this text: other tests' too).
    let counted = || async {
        let tracked = observer
            .query_one("SHOW pg_stat_statements.track_planning", &[])
            .await
            .ok()?;
        if tracked.get::<_, String>(0) != "on" {
            return None;
        }
        let row = observer
            .query_one(
                "SELECT COALESCE(SUM(calls), 0)::BIGINT, COALESCE(SUM(plans), 0)::BIGINT
                 FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
                 WHERE d.datname = current_database() AND s.query LIKE 'WITH batch AS%'",
                &[],
            )
            .await
            .ok()?;
        Some((row.get::<_, i64>(0), row.get::<_, i64>(1)))
    };
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let ids: Vec<String> = (0..40).map(|i| format!("gp{nanos:x}-{i}")).collect();
    for id in &ids {
        store.create(&stored(id)).await.unwrap();
    }
    let (groups, _) = store.group_commits();
    let before = counted().await;
    for id in &ids {
        store.append(id, 0, &entries(0, 2)).await.unwrap();
    }
    // A conflict is an answer, not a failed statement: still the same statement.
    assert!(store.append(&ids[0], 0, &entries(0, 1)).await.is_err());
    assert!(store.group_commits().0 - groups >= 41);
    assert_eq!(store.group_statements_prepared(), 1);
    for id in &ids {
        assert_eq!(store.load(id).await.unwrap().unwrap().1.len(), 2, "{id}");
    }
    match (before, counted().await) {
        (Some((c0, p0)), Some((c1, p1))) => {
            let (calls, plans) = (c1 - c0, p1 - p0);
            assert!(calls >= 41, "{calls} calls");
            // Other tests running meanwhile may add a few plans of their own.
            assert!(
                plans * 4 < calls,
                "the group statement was planned {plans} times in {calls} calls"
            );
        }
        _ => eprintln!("pg_stat_statements does not count plans here: plans not checked"),
    }
}

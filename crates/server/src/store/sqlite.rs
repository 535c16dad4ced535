//! The embedded store: one SQLite file in WAL mode.

use std::path::Path;
use std::sync::Mutex;

use colosseum_host::LogEntry;
use rusqlite::{params, Connection, OptionalExtension};

use super::{
    as_i64, from_json, ms_i64, ms_u64, readable, to_json, Loaded, Quarantined, Store, StoreError,
    StoredMatch, MIGRATIONS,
};

/// Matches in an SQLite file (or in memory, for tests).
///
/// Calls run on the caller's thread under a mutex: SQLite in WAL mode with `synchronous=NORMAL`
/// commits an append in tens of microseconds, less than handing it to another thread costs.
///
/// Appends are committed in groups: an append that arrives while another caller is writing
/// waits in a queue (its worker thread free for other tasks), and the writer commits everything
/// queued in one transaction, each append still checked on its own (a conflict refuses that
/// append only). Each caller returns only after the transaction holding its entries has
/// committed, so nothing is acknowledged before it is stored.
///
/// With a commit window ([`SqliteStore::with_commit_window`], `colosseum serve
/// --commit-window-us`), an append that finds no writer and nothing else queued waits up to the
/// window for company before it commits (its task asleep, its worker free), so appends that
/// arrive within the window share one transaction. The window is a Tokio timer: it ends at the
/// timer's next millisecond tick at the latest, never earlier than asked.
pub struct SqliteStore {
    conn: Mutex<Connection>,
    appends: Mutex<Appends>,
    window: std::time::Duration,
}

/// The appends waiting for the next group commit.
#[derive(Default)]
struct Appends {
    queue: Vec<QueuedAppend>,
    /// Whether a caller is writing the queue (it writes until the queue is empty).
    writing: bool,
    /// Transactions and appends committed so far (the appends over the transactions is the
    /// mean group size).
    groups: u64,
    appended: u64,
}

/// An append waiting for the group commit, or a match's metadata to replace (`meta`: its
/// `finished` and JSON text; then `texts` is empty): the joins and the result share the
/// appends' transactions instead of committing alone.
struct QueuedAppend {
    id: String,
    first: usize,
    texts: Vec<String>,
    meta: Option<(bool, String)>,
    done: tokio::sync::oneshot::Sender<Result<(), StoreError>>,
}

/// Gives up the writer's role if the writer panics, so later appends do not wait forever.
struct Writing<'a>(&'a Mutex<Appends>);

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            lock(self.0).writing = false;
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A writer waiting out the commit window: if its task is dropped meanwhile (an HTTP client
/// gone), the queue is written at once, so the appends waiting with it are not stranded.
struct Waiting<'a> {
    store: &'a SqliteStore,
    armed: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.store.write_queue();
        }
    }
}

/// The answer of a write whose group commit never answered (its writer panicked).
fn abandoned(id: &str) -> StoreError {
    copy_error(&StoreError::Corrupt {
        id: id.to_string(),
        error: "the append's group commit was abandoned (its writer panicked)".into(),
    })
}

/// The same failure for every append of a group whose transaction failed.
fn copy_error(e: &StoreError) -> StoreError {
    match e {
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(code, message)) => {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(*code, message.clone()))
        }
        other => StoreError::Sqlite(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
            Some(format!("the group commit failed: {other}")),
        )),
    }
}

/// The statement that inserts `n` rows of one match's log: `?1` the match, then each row's
/// seq and entry. One statement, so all or none without a savepoint.
fn insert_sql(n: usize) -> String {
    let mut sql = String::from("INSERT INTO log (match_id, seq, entry) VALUES ");
    for i in 0..n {
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!("(?1, ?{}, ?{})", 2 * i + 2, 2 * i + 3));
    }
    sql
}

/// Inserts one append's entries (in the open transaction `c`, which holds the write lock):
/// only if they continue the stored log (the first seq one past the last stored), so a second
/// writer or a gap inserts nothing and is reported as a conflict. The check is a read of the
/// log's primary-key index; the rows go in with one `INSERT ... VALUES` (no `INSERT ...
/// SELECT`, which made SQLite copy the row through a temporary table to read the table it
/// writes). Both statements are prepared once and kept.
fn insert_append(c: &mut Connection, q: &QueuedAppend) -> Result<(), StoreError> {
    let next: i64 = c
        .prepare_cached("SELECT COALESCE(MAX(seq) + 1, 0) FROM log WHERE match_id = ?1")?
        .query_row([&q.id], |r| r.get(0))?;
    if next != as_i64(q.first) {
        let stored: i64 = c
            .prepare_cached("SELECT COUNT(*) FROM log WHERE match_id = ?1")?
            .query_row([&q.id], |r| r.get(0))?;
        return Err(StoreError::Conflict {
            id: q.id.clone(),
            stored: stored.unsigned_abs(),
            first: q.first as u64,
        });
    }
    let seqs: Vec<i64> = (0..q.texts.len()).map(|i| as_i64(q.first + i)).collect();
    let mut values: Vec<&dyn rusqlite::ToSql> = Vec::with_capacity(1 + 2 * q.texts.len());
    values.push(&q.id);
    for (seq, text) in seqs.iter().zip(&q.texts) {
        values.push(seq);
        values.push(text);
    }
    c.prepare_cached(&insert_sql(q.texts.len()))?
        .execute(values.as_slice())?;
    Ok(())
}

/// Replaces match `id`'s metadata (in the open transaction `c`).
fn update_meta(c: &Connection, id: &str, finished: bool, meta: &str) -> Result<(), StoreError> {
    c.prepare_cached("UPDATE matches SET finished = ?2, meta = ?3 WHERE id = ?1")?
        .execute(params![id, finished, meta])?;
    Ok(())
}

/// Runs one of the group commit's fixed statements (`BEGIN IMMEDIATE`, `COMMIT`, `ROLLBACK`),
/// prepared once and kept.
fn run(c: &Connection, sql: &str) -> Result<(), StoreError> {
    c.prepare_cached(sql)?.execute([])?;
    Ok(())
}

/// Writes a group of appends in one transaction: each append's own result, or the
/// transaction's failure for all. The transaction takes the write lock at once (`IMMEDIATE`),
/// so each append's check and insert see no other writer in between.
fn write_group(c: &mut Connection, group: &[QueuedAppend]) -> Vec<Result<(), StoreError>> {
    let all = |e: StoreError| group.iter().map(|_| Err(copy_error(&e))).collect();
    if let Err(e) = run(c, "BEGIN IMMEDIATE") {
        return all(e);
    }
    let results: Vec<Result<(), StoreError>> = group
        .iter()
        .map(|q| match &q.meta {
            Some((finished, meta)) => update_meta(c, &q.id, *finished, meta),
            None => insert_append(c, q),
        })
        .collect();
    if let Err(e) = run(c, "COMMIT") {
        let _ = run(c, "ROLLBACK");
        return all(e);
    }
    results
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Self::init(Connection::open(path)?)
    }

    /// A private in-memory database.
    pub fn in_memory() -> Result<Self, StoreError> {
        Self::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Self, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
        )?;
        let mut conn = conn;
        for (version, sql) in MIGRATIONS
            .iter()
            .chain(super::tournaments::MIGRATIONS)
            .chain(super::seasons::MIGRATIONS)
            .chain(super::analyses::MIGRATIONS)
        {
            let tx = conn.transaction()?;
            let done: Option<i64> = tx
                .query_row(
                    "SELECT version FROM schema_migrations WHERE version = ?1",
                    [version],
                    |r| r.get(0),
                )
                .optional()?;
            if done.is_none() {
                tx.execute_batch(sql)?;
                tx.execute(
                    "INSERT INTO schema_migrations (version) VALUES (?1)",
                    [version],
                )?;
            }
            tx.commit()?;
        }
        Ok(SqliteStore {
            conn: Mutex::new(conn),
            appends: Mutex::new(Appends::default()),
            window: std::time::Duration::ZERO,
        })
    }

    /// The commit window: how long an append that would commit alone waits for others to share
    /// its transaction (zero, the default of a store opened here: commit at once). It is
    /// acknowledged only after that commit either way.
    #[must_use]
    pub fn with_commit_window(mut self, window: std::time::Duration) -> Self {
        self.window = window;
        self
    }

    pub(super) fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self
            .conn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut conn)
    }

    /// Group commits so far: (transactions, appends). Appends over transactions is the mean
    /// number of appends committed together.
    pub fn group_commits(&self) -> (u64, u64) {
        let a = lock(&self.appends);
        (a.groups, a.appended)
    }

    /// Writes the queued appends, group after group, until the queue is empty; then gives up
    /// the writer's role. Called by the append that found no writer.
    fn write_queue(&self) {
        let guard = Writing(&self.appends);
        loop {
            let group = {
                let mut a = lock(&self.appends);
                if a.queue.is_empty() {
                    a.writing = false;
                    break;
                }
                std::mem::take(&mut a.queue)
            };
            let results = self
                .with(|c| Ok(write_group(c, &group)))
                .unwrap_or_else(|e| group.iter().map(|_| Err(copy_error(&e))).collect());
            {
                let mut a = lock(&self.appends);
                a.groups += 1;
                a.appended += group.iter().filter(|q| q.meta.is_none()).count() as u64;
            }
            for (q, r) in group.into_iter().zip(results) {
                let _ = q.done.send(r);
            }
        }
        drop(guard);
    }

    /// Queues `queued` for the next group commit and, if no caller is writing, writes the queue
    /// (after the commit window when it is alone). Its answer comes on its `done` channel.
    async fn enqueue(&self, queued: QueuedAppend) {
        let (write, alone) = {
            let mut a = lock(&self.appends);
            a.queue.push(queued);
            (!std::mem::replace(&mut a.writing, true), a.queue.len() == 1)
        };
        if write {
            if alone && !self.window.is_zero() {
                // Alone: wait for company. Appends arriving meanwhile queue (the writer's role
                // is taken) and go in the same transaction.
                let mut waiting = Waiting {
                    store: self,
                    armed: true,
                };
                tokio::time::sleep(self.window).await;
                waiting.armed = false;
            }
            self.write_queue();
        }
    }

    fn read_log(conn: &Connection, id: &str) -> Result<Vec<LogEntry>, StoreError> {
        let mut stmt =
            conn.prepare_cached("SELECT entry FROM log WHERE match_id = ?1 ORDER BY seq")?;
        let rows = stmt.query_map([id], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for row in rows {
            out.push(from_json(id, &row?)?);
        }
        Ok(out)
    }
}

impl Store for SqliteStore {
    fn group_commits(&self) -> (u64, u64) {
        SqliteStore::group_commits(self)
    }

    async fn create(&self, m: &StoredMatch) -> Result<(), StoreError> {
        self.with(|c| {
            let n = c.execute(
                "INSERT INTO matches (id, created_at, finished, meta) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (id) DO NOTHING",
                params![m.id, ms_i64(m.created_at), m.finished(), to_json(m)],
            )?;
            if n == 0 {
                return Err(StoreError::Exists(m.id.clone()));
            }
            Ok(())
        })
    }

    async fn update(&self, m: &StoredMatch) -> Result<(), StoreError> {
        let (done, stored) = tokio::sync::oneshot::channel();
        self.enqueue(QueuedAppend {
            id: m.id.clone(),
            first: 0,
            texts: Vec::new(),
            meta: Some((m.finished(), to_json(m))),
            done,
        })
        .await;
        stored.await.unwrap_or_else(|_| Err(abandoned(&m.id)))
    }

    async fn append(&self, id: &str, first: usize, entries: &[LogEntry]) -> Result<(), StoreError> {
        if entries.is_empty() {
            return Ok(());
        }
        let (done, stored) = tokio::sync::oneshot::channel();
        self.enqueue(QueuedAppend {
            id: id.to_string(),
            first,
            texts: entries.iter().map(to_json).collect(),
            meta: None,
            done,
        })
        .await;
        stored.await.unwrap_or_else(|_| Err(abandoned(id)))
    }

    async fn load(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        self.with(|c| {
            let meta: Option<String> = c
                .query_row("SELECT meta FROM matches WHERE id = ?1", [id], |r| r.get(0))
                .optional()?;
            let Some(meta) = meta else { return Ok(None) };
            Ok(Some((from_json(id, &meta)?, Self::read_log(c, id)?)))
        })
    }

    async fn unfinished(&self) -> Result<Vec<Loaded>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id, meta FROM matches WHERE finished = FALSE ORDER BY created_at, id",
            )?;
            let rows: Vec<(String, String)> = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            let mut out = Vec::new();
            for (id, meta) in rows {
                out.push((from_json(&id, &meta)?, Self::read_log(c, &id)?));
            }
            Ok(out)
        })
    }

    async fn claim(&self, _id: &str) -> Result<bool, StoreError> {
        // One process per file: SQLite's own locking keeps a second server from writing at the
        // same moment, and a server is the only writer of its file.
        Ok(true)
    }

    async fn recent_finished(&self, limit: usize) -> Result<Vec<StoredMatch>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id, meta FROM matches WHERE finished = TRUE
                 ORDER BY created_at DESC, id LIMIT ?1",
            )?;
            let rows: Vec<(String, String)> = stmt
                .query_map([as_i64(limit)], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            Ok(rows
                .iter()
                .filter_map(|(id, meta)| readable(from_json(id, meta)))
                .collect())
        })
    }

    async fn open_matches(&self, waiting_since: u64) -> Result<Vec<StoredMatch>, StoreError> {
        self.with(move |c| {
            let mut stmt = c.prepare(
                "SELECT id, meta FROM matches WHERE finished = FALSE
                   AND (created_at >= ?1 OR json_extract(meta, '$.started_at') IS NOT NULL)
                 ORDER BY created_at DESC, id",
            )?;
            let rows: Vec<(String, String)> = stmt
                .query_map([ms_i64(waiting_since)], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            Ok(rows
                .iter()
                .filter_map(|(id, meta)| readable(from_json(id, meta)))
                .collect())
        })
    }

    async fn notify(&self, _payload: &str) -> Result<(), StoreError> {
        Ok(())
    }

    async fn announce(&self, _address: &str) -> Result<(), StoreError> {
        Ok(())
    }

    async fn owner(&self, _id: &str) -> Result<Option<String>, StoreError> {
        Ok(None)
    }

    async fn nodes(&self) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }

    async fn orphans(&self) -> Result<Vec<String>, StoreError> {
        // One process per file: every claim is this process's own.
        self.unfinished_ids().await
    }

    async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let mut stmt =
                c.prepare("SELECT id FROM matches WHERE finished = FALSE ORDER BY created_at, id")?;
            let ids = stmt
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok(ids)
        })
    }

    async fn quarantine(&self, id: &str, reason: &str, at: u64) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO quarantined (match_id, reason, quarantined_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (match_id) DO UPDATE SET reason = excluded.reason",
                params![id, reason, ms_i64(at)],
            )?;
            Ok(())
        })
    }

    async fn release(&self, id: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute("DELETE FROM quarantined WHERE match_id = ?1", [id])?;
            Ok(())
        })
    }

    async fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT match_id, reason, quarantined_at FROM quarantined
                 ORDER BY quarantined_at, match_id",
            )?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(Quarantined {
                        id: r.get(0)?,
                        reason: r.get(1)?,
                        at: ms_u64(r.get(2)?),
                    })
                })?
                .collect::<Result<_, _>>()?;
            Ok(rows)
        })
    }

    async fn leave(&self, _payload: &str) -> Result<(), StoreError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use colosseum_engine::Seat;
    use colosseum_host::{LogEntry, MatchConfig};

    use super::*;

    fn stored(id: &str) -> StoredMatch {
        StoredMatch {
            id: id.to_string(),
            config: MatchConfig::new("goofspiel"),
            tokens: [None, None],
            joined: [true, true],
            names: [None, None],
            created_at: 1,
            started_at: Some(1),
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

    fn locked(at: u64) -> LogEntry {
        LogEntry::Locked { at, seat: Seat::P1 }
    }

    /// Appends that arrive while the connection is busy wait and are committed together, each
    /// checked on its own: a conflicting one is refused alone, a two-entry one goes in whole,
    /// and every caller hears only after its entries are stored.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn appends_that_arrive_together_are_committed_together_each_checked() {
        let store = Arc::new(SqliteStore::in_memory().unwrap());
        for i in 0..8 {
            store.create(&stored(&format!("m{i}"))).await.unwrap();
            store
                .append(&format!("m{i}"), 0, &[locked(0)])
                .await
                .unwrap();
        }
        let before = store.group_commits();
        assert_eq!(before, (8, 8), "one at a time, one group each");
        // Another user of the connection holds it while the appends arrive.
        let (held, holding) = std::sync::mpsc::channel();
        let holder = {
            let store = store.clone();
            std::thread::spawn(move || {
                store.with(|_| {
                    held.send(()).unwrap();
                    std::thread::sleep(std::time::Duration::from_millis(300));
                    Ok(())
                })
            })
        };
        holding.recv().unwrap();
        let mut tasks = Vec::new();
        for i in 0..8 {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let id = format!("m{i}");
                match i {
                    // A second writer's append: the log holds 1 entry, not 5.
                    0 => store.append(&id, 5, &[locked(5)]).await,
                    1 => store.append(&id, 1, &[locked(1), locked(2)]).await,
                    _ => store.append(&id, 1, &[locked(1)]).await,
                }
            }));
        }
        let mut results = Vec::new();
        for t in tasks {
            results.push(t.await.unwrap());
        }
        holder.join().unwrap().unwrap();
        assert!(
            matches!(
                results[0],
                Err(StoreError::Conflict {
                    stored: 1,
                    first: 5,
                    ..
                })
            ),
            "{:?}",
            results[0]
        );
        for r in &results[1..] {
            assert!(r.is_ok(), "{r:?}");
        }
        let (groups, appended) = store.group_commits();
        assert_eq!(appended - before.1, 8);
        assert!(
            groups - before.0 < 8,
            "8 appends waiting together took {} transactions",
            groups - before.0
        );
        for i in 0..8 {
            let (_, log) = store.load(&format!("m{i}")).await.unwrap().unwrap();
            let want = match i {
                0 => 1,
                1 => 3,
                _ => 2,
            };
            assert_eq!(log.len(), want, "match m{i}");
        }
    }
}

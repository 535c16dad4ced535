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
pub struct SqliteStore {
    conn: Mutex<Connection>,
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
        })
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
        self.with(|c| {
            c.execute(
                "UPDATE matches SET finished = ?2, meta = ?3 WHERE id = ?1",
                params![m.id, m.finished(), to_json(m)],
            )?;
            Ok(())
        })
    }

    async fn append(&self, id: &str, first: usize, entries: &[LogEntry]) -> Result<(), StoreError> {
        if entries.is_empty() {
            return Ok(());
        }
        self.with(|c| {
            // Each row goes in only if it continues the stored log (its seq is one past the
            // last): a second writer or a gap inserts nothing and is reported as a conflict.
            // A single entry (the common case: one submission) needs no explicit transaction.
            const INSERT: &str = "INSERT INTO log (match_id, seq, entry)
                 SELECT ?1, ?2, ?3
                 WHERE (SELECT COALESCE(MAX(seq) + 1, 0) FROM log WHERE match_id = ?1) = ?2";
            let conflict = |c: &Connection| -> Result<StoreError, StoreError> {
                let stored: i64 = c
                    .prepare_cached("SELECT COUNT(*) FROM log WHERE match_id = ?1")?
                    .query_row([id], |r| r.get(0))?;
                Ok(StoreError::Conflict {
                    id: id.to_string(),
                    stored: stored.unsigned_abs(),
                    first: first as u64,
                })
            };
            if let [entry] = entries {
                let n = c.prepare_cached(INSERT)?.execute(params![
                    id,
                    as_i64(first),
                    to_json(entry)
                ])?;
                return if n == 1 { Ok(()) } else { Err(conflict(c)?) };
            }
            let tx = c.transaction()?;
            for (i, e) in entries.iter().enumerate() {
                let n = tx.prepare_cached(INSERT)?.execute(params![
                    id,
                    as_i64(first + i),
                    to_json(e)
                ])?;
                if n != 1 {
                    let err = conflict(&tx)?;
                    tx.rollback()?;
                    return Err(err);
                }
            }
            tx.commit()?;
            Ok(())
        })
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

    async fn open_matches(&self) -> Result<Vec<StoredMatch>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id, meta FROM matches WHERE finished = FALSE
                 ORDER BY created_at DESC, id",
            )?;
            let rows: Vec<(String, String)> = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
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
}

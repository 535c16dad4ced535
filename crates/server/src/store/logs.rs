//! What tournaments and seasons share in the store: a thing that is its configuration (one row
//! of JSON text) and an append-only log of events (one row an event, keyed by `(id, seq)`), from
//! which the server rebuilds its state by applying the events again. [`LogKind`] names the two
//! tables; [`LogStore`] is the SQL, written once for SQLite and once for PostgreSQL. The
//! kinds' own traits (`TournamentStore`, `SeasonStore`) are this with the kind filled in.

use std::future::Future;

use rusqlite::{params, OptionalExtension};

#[cfg(feature = "postgres")]
use super::PostgresStore;
use super::{as_i64, ms_i64, AnyStore, SqliteStore, StoreError};

/// A kind of logged thing: `noun` (`tournament`) names its log table `NOUN_log` with the key
/// column `NOUN_id`; `table` (`tournaments`) is its configuration table.
#[derive(Clone, Copy, Debug)]
pub struct LogKind {
    /// The singular, for the log table, its key and messages.
    pub noun: &'static str,
    /// The configuration table.
    pub table: &'static str,
}

/// A stored tournament or season: its configuration and its events, as JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredLog {
    /// The id.
    pub id: String,
    /// The configuration (JSON).
    pub config: String,
    /// The events, in order (JSON each).
    pub events: Vec<String>,
    /// Whether it is over.
    pub finished: bool,
}

/// Logged things in a store. As with matches, every method is atomic and an append names the
/// sequence number of its first event, so a second writer fails instead of interleaving.
pub trait LogStore: Send + Sync + 'static {
    /// Adds one with no events.
    fn create_log(
        &self,
        kind: LogKind,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Appends `events` to `id`'s log, the first at sequence number `first`.
    fn append_log(
        &self,
        kind: LogKind,
        id: &str,
        first: usize,
        events: &[String],
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Marks `id` over.
    fn finish_log(
        &self,
        kind: LogKind,
        id: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// One and its events.
    fn load_log(
        &self,
        kind: LogKind,
        id: &str,
    ) -> impl Future<Output = Result<Option<StoredLog>, StoreError>> + Send;
    /// The ids of those not over, oldest first.
    fn unfinished_logs(
        &self,
        kind: LogKind,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
    /// The ids of the newest `limit`, newest first.
    fn recent_logs(
        &self,
        kind: LogKind,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
}

fn conflict(kind: LogKind, id: &str, stored: i64, first: usize) -> StoreError {
    StoreError::Conflict {
        id: format!("{} {id}", kind.noun),
        stored: stored.unsigned_abs(),
        first: first as u64,
    }
}

impl LogStore for SqliteStore {
    async fn create_log(
        &self,
        kind: LogKind,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let n = c.execute(
                &format!(
                    "INSERT INTO {} (id, created_at, finished, config) VALUES (?1, ?2, FALSE, ?3)
                     ON CONFLICT (id) DO NOTHING",
                    kind.table
                ),
                params![id, ms_i64(created_at), config],
            )?;
            if n == 0 {
                return Err(StoreError::Exists(format!("{} {id}", kind.noun)));
            }
            Ok(())
        })
    }

    async fn append_log(
        &self,
        kind: LogKind,
        id: &str,
        first: usize,
        events: &[String],
    ) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        let noun = kind.noun;
        self.with(|c| {
            let tx = c.transaction()?;
            let stored: i64 = tx.query_row(
                &format!("SELECT COUNT(*) FROM {noun}_log WHERE {noun}_id = ?1"),
                [id],
                |r| r.get(0),
            )?;
            if stored != as_i64(first) {
                return Err(conflict(kind, id, stored, first));
            }
            for (i, e) in events.iter().enumerate() {
                tx.execute(
                    &format!("INSERT INTO {noun}_log ({noun}_id, seq, entry) VALUES (?1, ?2, ?3)"),
                    params![id, as_i64(first + i), e],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    async fn finish_log(&self, kind: LogKind, id: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                &format!("UPDATE {} SET finished = TRUE WHERE id = ?1", kind.table),
                [id],
            )?;
            Ok(())
        })
    }

    async fn load_log(&self, kind: LogKind, id: &str) -> Result<Option<StoredLog>, StoreError> {
        let noun = kind.noun;
        self.with(|c| {
            let row: Option<(String, bool)> = c
                .query_row(
                    &format!("SELECT config, finished FROM {} WHERE id = ?1", kind.table),
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let Some((config, finished)) = row else {
                return Ok(None);
            };
            let mut stmt = c.prepare_cached(&format!(
                "SELECT entry FROM {noun}_log WHERE {noun}_id = ?1 ORDER BY seq"
            ))?;
            let events = stmt
                .query_map([id], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Some(StoredLog {
                id: id.to_string(),
                config,
                events,
                finished,
            }))
        })
    }

    async fn unfinished_logs(&self, kind: LogKind) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT id FROM {} WHERE NOT finished ORDER BY created_at, id",
                kind.table
            ))?;
            let ids = stmt
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
    }

    async fn recent_logs(&self, kind: LogKind, limit: usize) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT id FROM {} ORDER BY created_at DESC, id LIMIT ?1",
                kind.table
            ))?;
            let ids = stmt
                .query_map([as_i64(limit)], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
    }
}

#[cfg(feature = "postgres")]
impl LogStore for PostgresStore {
    async fn create_log(
        &self,
        kind: LogKind,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> Result<(), StoreError> {
        let n = self
            .client
            .execute(
                &format!(
                    "INSERT INTO {} (id, created_at, finished, config) VALUES ($1, $2, FALSE, $3)
                     ON CONFLICT (id) DO NOTHING",
                    kind.table
                ),
                &[&id, &ms_i64(created_at), &config],
            )
            .await?;
        if n == 0 {
            return Err(StoreError::Exists(format!("{} {id}", kind.noun)));
        }
        Ok(())
    }

    async fn append_log(
        &self,
        kind: LogKind,
        id: &str,
        first: usize,
        events: &[String],
    ) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        let noun = kind.noun;
        // One statement, so that it is atomic without a transaction on the shared client: each
        // row's seq is checked by the primary key, and the count check makes a gap fail.
        let seqs: Vec<i64> = (0..events.len()).map(|i| as_i64(first + i)).collect();
        let n = self
            .client
            .execute(
                &format!(
                    "INSERT INTO {noun}_log ({noun}_id, seq, entry)
                     SELECT $1, s, e FROM UNNEST($2::BIGINT[], $3::TEXT[]) AS t (s, e)
                     WHERE (SELECT COUNT(*) FROM {noun}_log WHERE {noun}_id = $1) = $4"
                ),
                &[&id, &seqs, &events, &as_i64(first)],
            )
            .await;
        match n {
            Ok(n) if n as usize == events.len() => Ok(()),
            _ => {
                let stored: i64 = self
                    .client
                    .query_one(
                        &format!("SELECT COUNT(*) FROM {noun}_log WHERE {noun}_id = $1"),
                        &[&id],
                    )
                    .await?
                    .get(0);
                Err(conflict(kind, id, stored, first))
            }
        }
    }

    async fn finish_log(&self, kind: LogKind, id: &str) -> Result<(), StoreError> {
        self.client
            .execute(
                &format!("UPDATE {} SET finished = TRUE WHERE id = $1", kind.table),
                &[&id],
            )
            .await?;
        Ok(())
    }

    async fn load_log(&self, kind: LogKind, id: &str) -> Result<Option<StoredLog>, StoreError> {
        let noun = kind.noun;
        let Some(row) = self
            .client
            .query_opt(
                &format!("SELECT config, finished FROM {} WHERE id = $1", kind.table),
                &[&id],
            )
            .await?
        else {
            return Ok(None);
        };
        let events = self
            .client
            .query(
                &format!("SELECT entry FROM {noun}_log WHERE {noun}_id = $1 ORDER BY seq"),
                &[&id],
            )
            .await?
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect();
        Ok(Some(StoredLog {
            id: id.to_string(),
            config: row.get(0),
            events,
            finished: row.get(1),
        }))
    }

    async fn unfinished_logs(&self, kind: LogKind) -> Result<Vec<String>, StoreError> {
        Ok(self
            .client
            .query(
                &format!(
                    "SELECT id FROM {} WHERE NOT finished ORDER BY created_at, id",
                    kind.table
                ),
                &[],
            )
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    async fn recent_logs(&self, kind: LogKind, limit: usize) -> Result<Vec<String>, StoreError> {
        Ok(self
            .client
            .query(
                &format!(
                    "SELECT id FROM {} ORDER BY created_at DESC, id LIMIT $1",
                    kind.table
                ),
                &[&as_i64(limit)],
            )
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }
}

impl LogStore for AnyStore {
    async fn create_log(
        &self,
        kind: LogKind,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> Result<(), StoreError> {
        each_store!(self, s => s.create_log(kind, id, created_at, config).await)
    }
    async fn append_log(
        &self,
        kind: LogKind,
        id: &str,
        first: usize,
        events: &[String],
    ) -> Result<(), StoreError> {
        each_store!(self, s => s.append_log(kind, id, first, events).await)
    }
    async fn finish_log(&self, kind: LogKind, id: &str) -> Result<(), StoreError> {
        each_store!(self, s => s.finish_log(kind, id).await)
    }
    async fn load_log(&self, kind: LogKind, id: &str) -> Result<Option<StoredLog>, StoreError> {
        each_store!(self, s => s.load_log(kind, id).await)
    }
    async fn unfinished_logs(&self, kind: LogKind) -> Result<Vec<String>, StoreError> {
        each_store!(self, s => s.unfinished_logs(kind).await)
    }
    async fn recent_logs(&self, kind: LogKind, limit: usize) -> Result<Vec<String>, StoreError> {
        each_store!(self, s => s.recent_logs(kind, limit).await)
    }
}

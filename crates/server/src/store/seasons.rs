//! Where seasons live: like a tournament, a season is its configuration (one row) and an
//! append-only log of events (players added, tournaments, rated matches, each rating change; one
//! row an event, keyed by `(season, seq)`); the server rebuilds its roster and ratings by
//! applying the events again (`crate::seasons`). The rows hold JSON text; the types are the
//! seasons module's.

use std::future::Future;

use rusqlite::{params, OptionalExtension};

use super::{as_i64, ms_i64, AnyStore, PostgresStore, SqliteStore, StoreError};

/// The seasons' tables, numbered from 1101 (apart from the matches' and the tournaments'
/// migrations); both stores run them after those.
pub(crate) const MIGRATIONS: &[(i64, &str)] = &[(
    1101,
    "CREATE TABLE seasons (
        id TEXT PRIMARY KEY,
        created_at BIGINT NOT NULL,
        finished BOOLEAN NOT NULL,
        config TEXT NOT NULL
    );
    CREATE INDEX seasons_finished ON seasons (finished, created_at);
    CREATE TABLE season_log (
        season_id TEXT NOT NULL REFERENCES seasons (id),
        seq BIGINT NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (season_id, seq)
    );",
)];

/// A stored season: its configuration and its events, as JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeason {
    /// The id.
    pub id: String,
    /// The configuration (JSON).
    pub config: String,
    /// The events, in order (JSON each).
    pub events: Vec<String>,
    /// Whether it is over (closed by its host: no more rated games).
    pub finished: bool,
}

/// A store of seasons. As with tournaments, every method is atomic and an append names the
/// sequence number of its first event, so a second writer fails instead of interleaving.
pub trait SeasonStore: Send + Sync + 'static {
    /// Adds a season with no events.
    fn create_season(
        &self,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Appends `events` to season `id`'s log, the first at sequence number `first`.
    fn append_season(
        &self,
        id: &str,
        first: usize,
        events: &[String],
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Marks season `id` over.
    fn finish_season(&self, id: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// A season and its events.
    fn load_season(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<StoredSeason>, StoreError>> + Send;
    /// The ids of the seasons not over, oldest first.
    fn unfinished_seasons(&self) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
    /// The ids of the newest `limit` seasons, newest first.
    fn recent_seasons(
        &self,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
}

fn conflict(id: &str, stored: i64, first: usize) -> StoreError {
    StoreError::Conflict {
        id: format!("season {id}"),
        stored: stored.unsigned_abs(),
        first: first as u64,
    }
}

impl SeasonStore for SqliteStore {
    async fn create_season(
        &self,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let n = c.execute(
                "INSERT INTO seasons (id, created_at, finished, config) VALUES (?1, ?2, FALSE, ?3)
                 ON CONFLICT (id) DO NOTHING",
                params![id, ms_i64(created_at), config],
            )?;
            if n == 0 {
                return Err(StoreError::Exists(format!("season {id}")));
            }
            Ok(())
        })
    }

    async fn append_season(
        &self,
        id: &str,
        first: usize,
        events: &[String],
    ) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        self.with(|c| {
            let tx = c.transaction()?;
            let stored: i64 = tx.query_row(
                "SELECT COUNT(*) FROM season_log WHERE season_id = ?1",
                [id],
                |r| r.get(0),
            )?;
            if stored != as_i64(first) {
                return Err(conflict(id, stored, first));
            }
            for (i, e) in events.iter().enumerate() {
                tx.execute(
                    "INSERT INTO season_log (season_id, seq, entry) VALUES (?1, ?2, ?3)",
                    params![id, as_i64(first + i), e],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    async fn finish_season(&self, id: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute("UPDATE seasons SET finished = TRUE WHERE id = ?1", [id])?;
            Ok(())
        })
    }

    async fn load_season(&self, id: &str) -> Result<Option<StoredSeason>, StoreError> {
        self.with(|c| {
            let row: Option<(String, bool)> = c
                .query_row(
                    "SELECT config, finished FROM seasons WHERE id = ?1",
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let Some((config, finished)) = row else {
                return Ok(None);
            };
            let mut stmt =
                c.prepare_cached("SELECT entry FROM season_log WHERE season_id = ?1 ORDER BY seq")?;
            let events = stmt
                .query_map([id], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Some(StoredSeason {
                id: id.to_string(),
                config,
                events,
                finished,
            }))
        })
    }

    async fn unfinished_seasons(&self) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id FROM seasons WHERE NOT finished ORDER BY created_at, id",
            )?;
            let ids = stmt
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
    }

    async fn recent_seasons(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let mut stmt =
                c.prepare_cached("SELECT id FROM seasons ORDER BY created_at DESC, id LIMIT ?1")?;
            let ids = stmt
                .query_map([as_i64(limit)], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
    }
}

impl SeasonStore for PostgresStore {
    async fn create_season(
        &self,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> Result<(), StoreError> {
        let n = self
            .client
            .execute(
                "INSERT INTO seasons (id, created_at, finished, config) VALUES ($1, $2, FALSE, $3)
                 ON CONFLICT (id) DO NOTHING",
                &[&id, &ms_i64(created_at), &config],
            )
            .await?;
        if n == 0 {
            return Err(StoreError::Exists(format!("season {id}")));
        }
        Ok(())
    }

    async fn append_season(
        &self,
        id: &str,
        first: usize,
        events: &[String],
    ) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        // One statement, so that it is atomic without a transaction on the shared client: each
        // row's seq is checked by the primary key, and the count check makes a gap fail.
        let seqs: Vec<i64> = (0..events.len()).map(|i| as_i64(first + i)).collect();
        let n = self
            .client
            .execute(
                "INSERT INTO season_log (season_id, seq, entry)
                 SELECT $1, s, e FROM UNNEST($2::BIGINT[], $3::TEXT[]) AS t (s, e)
                 WHERE (SELECT COUNT(*) FROM season_log WHERE season_id = $1) = $4",
                &[&id, &seqs, &events, &as_i64(first)],
            )
            .await;
        match n {
            Ok(n) if n as usize == events.len() => Ok(()),
            _ => {
                let stored: i64 = self
                    .client
                    .query_one(
                        "SELECT COUNT(*) FROM season_log WHERE season_id = $1",
                        &[&id],
                    )
                    .await?
                    .get(0);
                Err(conflict(id, stored, first))
            }
        }
    }

    async fn finish_season(&self, id: &str) -> Result<(), StoreError> {
        self.client
            .execute("UPDATE seasons SET finished = TRUE WHERE id = $1", &[&id])
            .await?;
        Ok(())
    }

    async fn load_season(&self, id: &str) -> Result<Option<StoredSeason>, StoreError> {
        let Some(row) = self
            .client
            .query_opt("SELECT config, finished FROM seasons WHERE id = $1", &[&id])
            .await?
        else {
            return Ok(None);
        };
        let events = self
            .client
            .query(
                "SELECT entry FROM season_log WHERE season_id = $1 ORDER BY seq",
                &[&id],
            )
            .await?
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect();
        Ok(Some(StoredSeason {
            id: id.to_string(),
            config: row.get(0),
            events,
            finished: row.get(1),
        }))
    }

    async fn unfinished_seasons(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .client
            .query(
                "SELECT id FROM seasons WHERE NOT finished ORDER BY created_at, id",
                &[],
            )
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    async fn recent_seasons(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        Ok(self
            .client
            .query(
                "SELECT id FROM seasons ORDER BY created_at DESC, id LIMIT $1",
                &[&as_i64(limit)],
            )
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }
}

impl SeasonStore for AnyStore {
    async fn create_season(
        &self,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> Result<(), StoreError> {
        match self {
            AnyStore::Sqlite(s) => s.create_season(id, created_at, config).await,
            AnyStore::Postgres(s) => s.create_season(id, created_at, config).await,
        }
    }
    async fn append_season(
        &self,
        id: &str,
        first: usize,
        events: &[String],
    ) -> Result<(), StoreError> {
        match self {
            AnyStore::Sqlite(s) => s.append_season(id, first, events).await,
            AnyStore::Postgres(s) => s.append_season(id, first, events).await,
        }
    }
    async fn finish_season(&self, id: &str) -> Result<(), StoreError> {
        match self {
            AnyStore::Sqlite(s) => s.finish_season(id).await,
            AnyStore::Postgres(s) => s.finish_season(id).await,
        }
    }
    async fn load_season(&self, id: &str) -> Result<Option<StoredSeason>, StoreError> {
        match self {
            AnyStore::Sqlite(s) => s.load_season(id).await,
            AnyStore::Postgres(s) => s.load_season(id).await,
        }
    }
    async fn unfinished_seasons(&self) -> Result<Vec<String>, StoreError> {
        match self {
            AnyStore::Sqlite(s) => s.unfinished_seasons().await,
            AnyStore::Postgres(s) => s.unfinished_seasons().await,
        }
    }
    async fn recent_seasons(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        match self {
            AnyStore::Sqlite(s) => s.recent_seasons(limit).await,
            AnyStore::Postgres(s) => s.recent_seasons(limit).await,
        }
    }
}

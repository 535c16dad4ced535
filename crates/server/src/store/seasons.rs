//! Where seasons live: like a tournament, a season is its configuration (one row) and an
//! append-only log of events (players added, tournaments, rated matches, each rating change; one
//! row an event, keyed by `(season, seq)`); the server rebuilds its roster and ratings by
//! applying the events again (`crate::seasons`). The rows hold JSON text; the types are the
//! seasons module's.

use std::future::Future;

use super::logs::{LogKind, LogStore, StoredLog};
use super::StoreError;

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
pub type StoredSeason = StoredLog;

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

/// The seasons' two tables.
pub(crate) const SEASONS: LogKind = LogKind {
    noun: "season",
    table: "seasons",
};

impl<T: LogStore> SeasonStore for T {
    async fn create_season(
        &self,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> Result<(), StoreError> {
        self.create_log(SEASONS, id, created_at, config).await
    }
    async fn append_season(
        &self,
        id: &str,
        first: usize,
        events: &[String],
    ) -> Result<(), StoreError> {
        self.append_log(SEASONS, id, first, events).await
    }
    async fn finish_season(&self, id: &str) -> Result<(), StoreError> {
        self.finish_log(SEASONS, id).await
    }
    async fn load_season(&self, id: &str) -> Result<Option<StoredSeason>, StoreError> {
        self.load_log(SEASONS, id).await
    }
    async fn unfinished_seasons(&self) -> Result<Vec<String>, StoreError> {
        self.unfinished_logs(SEASONS).await
    }
    async fn recent_seasons(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        self.recent_logs(SEASONS, limit).await
    }
}

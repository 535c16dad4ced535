//! Where tournaments live: like a match, a tournament is its configuration (one row) and an
//! append-only log of events (one row an event, keyed by `(tournament, seq)`); the server
//! rebuilds its state by applying the events again (`crate::tournaments`). The rows hold JSON
//! text; the types are the tournaments module's.

use std::future::Future;

use super::logs::{LogKind, LogStore, StoredLog};
use super::StoreError;

/// The tournaments' tables, numbered apart from the matches' migrations (`super::MIGRATIONS`)
/// so that both lists can grow on their own; both stores run them after those.
pub(crate) const MIGRATIONS: &[(i64, &str)] = &[(
    1001,
    "CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        created_at BIGINT NOT NULL,
        finished BOOLEAN NOT NULL,
        config TEXT NOT NULL
    );
    CREATE INDEX tournaments_finished ON tournaments (finished, created_at);
    CREATE TABLE tournament_log (
        tournament_id TEXT NOT NULL REFERENCES tournaments (id),
        seq BIGINT NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (tournament_id, seq)
    );",
)];

/// A stored tournament: its configuration and its events, as JSON text.
pub type StoredTournament = StoredLog;

/// A store of tournaments. As with matches, every method is atomic and an append names the
/// sequence number of its first event, so a second writer fails instead of interleaving.
pub trait TournamentStore: Send + Sync + 'static {
    /// Adds a tournament with no events.
    fn create_tournament(
        &self,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Appends `events` to tournament `id`'s log, the first at sequence number `first`.
    fn append_tournament(
        &self,
        id: &str,
        first: usize,
        events: &[String],
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Marks tournament `id` over.
    fn finish_tournament(&self, id: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// A tournament and its events.
    fn load_tournament(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<StoredTournament>, StoreError>> + Send;
    /// The ids of the tournaments not over, oldest first.
    fn unfinished_tournaments(
        &self,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
    /// The ids of the newest `limit` tournaments, newest first.
    fn recent_tournaments(
        &self,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
}

/// The tournaments' two tables.
pub(crate) const TOURNAMENTS: LogKind = LogKind {
    noun: "tournament",
    table: "tournaments",
};

impl<T: LogStore> TournamentStore for T {
    async fn create_tournament(
        &self,
        id: &str,
        created_at: u64,
        config: &str,
    ) -> Result<(), StoreError> {
        self.create_log(TOURNAMENTS, id, created_at, config).await
    }
    async fn append_tournament(
        &self,
        id: &str,
        first: usize,
        events: &[String],
    ) -> Result<(), StoreError> {
        self.append_log(TOURNAMENTS, id, first, events).await
    }
    async fn finish_tournament(&self, id: &str) -> Result<(), StoreError> {
        self.finish_log(TOURNAMENTS, id).await
    }
    async fn load_tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        self.load_log(TOURNAMENTS, id).await
    }
    async fn unfinished_tournaments(&self) -> Result<Vec<String>, StoreError> {
        self.unfinished_logs(TOURNAMENTS).await
    }
    async fn recent_tournaments(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        self.recent_logs(TOURNAMENTS, limit).await
    }
}

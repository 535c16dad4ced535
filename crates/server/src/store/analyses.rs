//! Where the analyses after the game live (`crate::analysis`): one row a match, the finished
//! analysis as the JSON `GET /api/matches/{id}/analysis` answers, so that it survives a restart
//! and its shared link keeps working without analysing the match again.

use std::future::Future;

use rusqlite::{params, OptionalExtension};

#[cfg(feature = "postgres")]
use super::PostgresStore;
use super::{ms_i64, AnyStore, SqliteStore, StoreError};

/// The analyses' table, numbered from 1401 (apart from the other migrations); both stores run
/// it after them.
pub(crate) const MIGRATIONS: &[(i64, &str)] = &[(
    1401,
    "CREATE TABLE analyses (
        match_id TEXT PRIMARY KEY REFERENCES matches (id),
        analysed_at BIGINT NOT NULL,
        analysis TEXT NOT NULL
    );",
)];

/// A store of finished analyses, by match. Both methods are atomic.
pub trait AnalysisStore: Send + Sync + 'static {
    /// Stores match `id`'s analysis (JSON text) done at `at` (ms since the Unix epoch),
    /// replacing any before.
    fn save_analysis(
        &self,
        id: &str,
        at: u64,
        analysis: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Match `id`'s stored analysis, if any.
    fn load_analysis(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;
}

const SAVE_SQLITE: &str = "INSERT INTO analyses (match_id, analysed_at, analysis) VALUES (?1, ?2, ?3)
     ON CONFLICT (match_id) DO UPDATE SET analysed_at = excluded.analysed_at, analysis = excluded.analysis";
#[cfg(feature = "postgres")]
const SAVE_POSTGRES: &str = "INSERT INTO analyses (match_id, analysed_at, analysis) VALUES ($1, $2, $3)
     ON CONFLICT (match_id) DO UPDATE SET analysed_at = excluded.analysed_at, analysis = excluded.analysis";

impl AnalysisStore for SqliteStore {
    async fn save_analysis(&self, id: &str, at: u64, analysis: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(SAVE_SQLITE, params![id, ms_i64(at), analysis])?;
            Ok(())
        })
    }
    async fn load_analysis(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            Ok(c.query_row(
                "SELECT analysis FROM analyses WHERE match_id = ?1",
                [id],
                |r| r.get(0),
            )
            .optional()?)
        })
    }
}

#[cfg(feature = "postgres")]
impl AnalysisStore for PostgresStore {
    async fn save_analysis(&self, id: &str, at: u64, analysis: &str) -> Result<(), StoreError> {
        self.client
            .execute(SAVE_POSTGRES, &[&id, &ms_i64(at), &analysis])
            .await?;
        Ok(())
    }
    async fn load_analysis(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .client
            .query_opt("SELECT analysis FROM analyses WHERE match_id = $1", &[&id])
            .await?;
        Ok(row.map(|r| r.get(0)))
    }
}

impl AnalysisStore for AnyStore {
    async fn save_analysis(&self, id: &str, at: u64, analysis: &str) -> Result<(), StoreError> {
        each_store!(self, s => s.save_analysis(id, at, analysis).await)
    }
    async fn load_analysis(&self, id: &str) -> Result<Option<String>, StoreError> {
        each_store!(self, s => s.load_analysis(id).await)
    }
}

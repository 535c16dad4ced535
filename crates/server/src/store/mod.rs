//! Where matches live between requests and across restarts.
//!
//! A match is stored as its [`StoredMatch`] (configuration, seat tokens, who joined, when it
//! started, its result) and its append-only host log ([`colosseum_host::LogEntry`]), one row an
//! entry keyed by `(match, seq)`. [`colosseum_host::Match::rebuild`] turns the two back into the
//! match, clocks included, so nothing else is stored. Appends name the sequence number of their
//! first entry: a second writer (another server process that loaded the same match) collides on
//! the key and fails instead of interleaving.
//!
//! Two stores share the [`Store`] trait: [`SqliteStore`] (one file, WAL, the default: nothing
//! to install) and `PostgresStore` (for several server processes; built with the `postgres`
//! feature). Both run the same numbered migrations at open.

/// `match` over the [`AnyStore`] variants this build has (PostgreSQL only with the `postgres`
/// feature), each bound to `$s`: `each_store!(self, s => s.load(id).await)`.
macro_rules! each_store {
    ($store:expr, $s:ident => $body:expr) => {
        match $store {
            AnyStore::Sqlite($s) => $body,
            #[cfg(feature = "postgres")]
            AnyStore::Postgres($s) => $body,
        }
    };
}

mod analyses;
mod logs;
#[cfg(feature = "postgres")]
mod postgres;
mod seasons;
mod sqlite;
mod tournaments;

use std::future::Future;

use colosseum_host::{LogEntry, MatchConfig, MatchResult};
use serde::{Deserialize, Serialize};

pub use analyses::AnalysisStore;
pub use logs::{LogKind, LogStore, StoredLog};
#[cfg(feature = "postgres")]
pub use postgres::{PostgresStore, READERS};
pub use seasons::{SeasonStore, StoredSeason};
pub use sqlite::SqliteStore;
pub use tournaments::{StoredTournament, TournamentStore};

/// The PostgreSQL channel of the processes' notices to each other (`Store::notify`,
/// `PostgresStore::listen`): `KIND MATCH_ID NODE`, KIND one of `created`, `joined`,
/// `adopted`, `finished`.
pub const NOTICES: &str = "colosseum";

/// Who serves a match, as [`Store::serving`] knows without reading the lock table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holder {
    /// The live node at this address (as it announced itself) claimed the match last.
    Node(String),
    /// The node that claimed it last is gone: nobody serves it (its process died or left).
    Gone,
    /// No such match: nobody serves it.
    Nobody,
    /// No claim recorded (a match stored before the record was kept): ask [`Store::owner`].
    Unknown,
}

/// Everything about a match except its log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredMatch {
    /// The match id (public: it is in the spectator link).
    pub id: String,
    /// How the match was set up.
    pub config: MatchConfig,
    /// Each human seat's secret token; `None` for a bot seat.
    pub tokens: [Option<String>; 2],
    /// Whether each seat has joined (bots join at creation).
    pub joined: [bool; 2],
    /// Display names given at join.
    pub names: [Option<String>; 2],
    /// When the match was created (ms since the Unix epoch).
    pub created_at: u64,
    /// When both seats had joined and the match's time 0 began (ms since the Unix epoch).
    pub started_at: Option<u64>,
    /// The result, once the match is over.
    pub result: Option<MatchResult>,
    /// How bot seats answer a live Cauldron's trivia (The Witch's Brew with `cauldron=live`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race_bot: Option<colosseum_trivia::BotAnswerer>,
    /// Whether the creator chose the seed (a practice match: chance not provably fair).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// The server seed, its commitment and the client seeds (absent in a practice match, and
    /// in matches stored before provably fair chance). The server seed is secret until the
    /// match is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness: Option<colosseum_engine::Fairness>,
    /// The tournament the match was created for (`crate::tournaments`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// Where the match is announced (`crate::webhooks`): a secret, never shown to anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<crate::webhooks::WebhookConfig>,
    /// The rematch a seat offered once the match was over (`Hub::rematch`): the new match,
    /// who offered it and the new match's seat tokens (each shown only to its own player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<RematchOffer>,
    /// Whose share of the bot pool the match's bot searches run in (`crate::pool`): the
    /// creating address, hashed (`pool::share_of`; never the address itself). `None` for a
    /// match a tournament or season created, or stored before shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<String>,
}

/// A rematch offered at the end of a match: a new match with the same game, options and time
/// control, the seats swapped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RematchOffer {
    /// The new match's id.
    pub id: String,
    /// The seat (of the finished match) that offered it.
    pub by: colosseum_engine::Seat,
    /// The new match's seat tokens (`None` for a bot seat). A player of the finished match in
    /// seat S plays the other seat in the new one.
    pub tokens: [Option<String>; 2],
}

impl StoredMatch {
    /// Whether the match is over.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.result.is_some()
    }

    /// Whether every human seat has revealed its client seed (fairness version 2; always true
    /// in a practice match and in matches created before).
    #[must_use]
    pub fn seeds_revealed(&self) -> bool {
        self.fairness.as_ref().is_none_or(|f| {
            f.version < 2
                || colosseum_engine::Seat::BOTH
                    .iter()
                    .all(|&s| f.is_bot(s) || f.client_seeds.get(s).is_some())
        })
    }

    /// Whether the seats have joined and committed to their client seeds but not all have
    /// revealed them yet: the state's `fairness.reveal_due`.
    #[must_use]
    pub fn reveal_due(&self) -> bool {
        self.started_at.is_none() && self.joined == [true, true] && !self.seeds_revealed()
    }

    /// Whether `seat` is in: it joined and, in a version 2 match where the reveals are due, it
    /// revealed its client seed (a tournament counts a seat that never revealed as absent).
    #[must_use]
    pub fn seated(&self, seat: colosseum_engine::Seat) -> bool {
        self.joined[seat.index()]
            && (!self.reveal_due()
                || self.fairness.as_ref().is_none_or(|f| {
                    f.version < 2 || f.is_bot(seat) || f.client_seeds.get(seat).is_some()
                }))
    }
}

/// A stored match with its log.
pub type Loaded = (StoredMatch, Vec<LogEntry>);

/// A match set aside because its stored rows could not be read or its log could not be rebuilt:
/// it is not served (asking for it answers `quarantined`) until an operator repairs it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quarantined {
    /// The match id.
    pub id: String,
    /// Why, in full (for the operator: it may quote stored moves).
    pub reason: String,
    /// When it was first set aside (ms since the Unix epoch).
    pub at: u64,
}

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL failed.
    #[cfg(feature = "postgres")]
    #[error("postgres: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// A stored row does not read back.
    #[error("stored data of match {id} does not read: {error}")]
    Corrupt {
        /// The match.
        id: String,
        /// Why.
        error: String,
    },
    /// An append did not continue the stored log (another writer got there first).
    #[error("match {id}: the log holds {stored} entries, an append started at {first}")]
    Conflict {
        /// The match.
        id: String,
        /// Entries stored.
        stored: u64,
        /// Where the append started.
        first: u64,
    },
    /// A match id that is already taken.
    #[error("match {0} exists already")]
    Exists(String),
    /// The store could not take the request; nothing was stored.
    #[error("the store is unavailable, nothing was stored: {0}")]
    Unavailable(String),
}

/// A store of matches. Implementations must make every method atomic: a failed call changes
/// nothing.
pub trait Store:
    LogStore + TournamentStore + SeasonStore + AnalysisStore + Send + Sync + 'static
{
    /// Group commits so far: (transactions or statements, log appends they took). Shown at
    /// `/metrics`.
    fn group_commits(&self) -> (u64, u64);
    /// Adds a new match with an empty log.
    fn create(&self, m: &StoredMatch) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Replaces a match's metadata (joins, names, start, result).
    fn update(&self, m: &StoredMatch) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Appends `entries` to the log of match `id`; the first has sequence number `first`, which
    /// must equal the number of entries stored.
    fn append(
        &self,
        id: &str,
        first: usize,
        entries: &[LogEntry],
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// A match and its log.
    fn load(&self, id: &str) -> impl Future<Output = Result<Option<Loaded>, StoreError>> + Send;
    /// Every unfinished match with its log, oldest first.
    fn unfinished(&self) -> impl Future<Output = Result<Vec<Loaded>, StoreError>> + Send;
    /// Claims match `id` for this process, for as long as the store is open: `false` if another
    /// process holds it. A process serves (ticks, appends to) only the unfinished matches it
    /// has claimed; with one process per store (SQLite) every claim succeeds.
    fn claim(&self, id: &str) -> impl Future<Output = Result<bool, StoreError>> + Send;
    /// Claims each of `ids` as [`Store::claim`] does, in one round trip where the store can
    /// (taking over many matches at once, [`crate::Hub::take_over`]): returns the ids claimed,
    /// in the order given; an id given twice is claimed once.
    fn claim_many(
        &self,
        ids: &[String],
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send {
        async move {
            let mut claimed: Vec<String> = Vec::new();
            for id in ids {
                if !claimed.contains(id) && self.claim(id).await? {
                    claimed.push(id.clone());
                }
            }
            Ok(claimed)
        }
    }
    /// Each of `ids` with its log, as [`Store::load`] gives it (`None`: no such match), in the
    /// order given, in one round trip where the store can. A match whose rows do not read is
    /// its own `Err` ([`StoreError::Corrupt`]), not the others'; the outer `Err` is the store
    /// failing.
    fn load_many(
        &self,
        ids: &[String],
    ) -> impl Future<Output = Result<Vec<Result<Option<Loaded>, StoreError>>, StoreError>> + Send
    {
        async move {
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                match self.load(id).await {
                    Err(e @ StoreError::Corrupt { .. }) => out.push(Err(e)),
                    Err(e) => return Err(e),
                    Ok(loaded) => out.push(Ok(loaded)),
                }
            }
            Ok(out)
        }
    }
    /// The most recently created finished matches, newest first; a row that does not read is
    /// left out (and logged), not an error.
    fn recent_finished(
        &self,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<StoredMatch>, StoreError>> + Send;
    /// The ids of every unfinished match, oldest first, without reading their rows (so one
    /// unreadable match cannot hide the others).
    fn unfinished_ids(&self) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
    /// The ids of the unfinished matches that no process holds a claim on (their process died),
    /// oldest first. With one process per store (SQLite) every unfinished match is one; the hub
    /// leaves out those it serves itself.
    fn orphans(&self) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
    /// Tells the other processes on this store where this one answers (`http://host:port`),
    /// so that they can forward a match's requests to it. Nothing to do with one process.
    fn announce(&self, address: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// The address (as announced) of the process that holds a claim on match `id`, if any.
    /// On PostgreSQL this reads the lock table (`pg_locks`), which PostgreSQL builds whole for
    /// each call: the authority, but its cost grows with the locks held; [`Store::serving`]
    /// answers the common cases without it.
    fn owner(&self, id: &str) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;
    /// Who serves match `id`, from the node recorded with its last claim (and whether that
    /// node's session is still open), without reading the lock table: [`Holder::Unknown`] when
    /// the store has no record (ask [`Store::owner`]). One process per store: always
    /// [`Holder::Nobody`].
    fn serving(&self, _id: &str) -> impl Future<Output = Result<Holder, StoreError>> + Send {
        async { Ok(Holder::Nobody) }
    }
    /// Gives up this process's claim on match `id` ([`Store::claim`]), once its result is
    /// stored: the lock table then holds the live matches only. Nothing to do with one process.
    fn unclaim(&self, _id: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        async { Ok(()) }
    }
    /// Stores `m` (a finished match with its rematch offer) only if the stored match has no
    /// rematch offer yet: `false` when one was stored first (by another process serving the
    /// finished match: it holds no claim any more). One process per store: [`Store::update`].
    fn offer_rematch(
        &self,
        m: &StoredMatch,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        async move { self.update(m).await.map(|()| true) }
    }
    /// The addresses every process on the store announced (this one's included).
    fn nodes(&self) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
    /// Every unfinished match that has started or was created at or after `waiting_since` (ms
    /// since the Unix epoch), newest first, without its log (the lobby's open and live list on a
    /// store several processes share): the waiting matches older than that (expired, or gone
    /// from the lobby, but kept as rows) are left out by the query, not read. A row that does
    /// not read is left out (and logged).
    fn open_matches(
        &self,
        waiting_since: u64,
    ) -> impl Future<Output = Result<Vec<StoredMatch>, StoreError>> + Send;
    /// A page of [`Store::open_matches`]: up to `limit` of them from `offset` on, in the same
    /// order, and how many there are in all (the lobby's list on a store several processes
    /// share). PostgreSQL reads the page's rows only, through indexes (a page costs about
    /// `offset + limit` index entries and `limit` rows); by default the whole list is read.
    fn open_page(
        &self,
        waiting_since: u64,
        offset: usize,
        limit: usize,
    ) -> impl Future<Output = Result<(Vec<StoredMatch>, usize), StoreError>> + Send {
        async move {
            let all = self.open_matches(waiting_since).await?;
            let total = all.len();
            Ok((all.into_iter().skip(offset).take(limit).collect(), total))
        }
    }
    /// Tells every process on the store (this one's listener included) that something
    /// happened: `payload` on the channel [`NOTICES`] (PostgreSQL's NOTIFY, called after the
    /// change is committed; the store sends the notices queued within a few milliseconds in one
    /// statement, and the caller does not wait for it). Nothing to do with one process.
    fn notify(&self, payload: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Sets match `id` aside with `reason` at `at` (ms since the Unix epoch). Setting aside a
    /// match that is already keeps its first time and takes the new reason.
    fn quarantine(
        &self,
        id: &str,
        reason: &str,
        at: u64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Takes match `id` out of quarantine (it was repaired and rebuilt).
    fn release(&self, id: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Every quarantined match, oldest first.
    fn quarantined(&self) -> impl Future<Output = Result<Vec<Quarantined>, StoreError>> + Send;
    /// Gives up every claim this process holds, then tells the others `payload` (as
    /// [`Store::notify`]), in that order: a process leaving for good. Nothing to do with one
    /// process.
    fn leave(&self, payload: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// The store chosen at start: SQLite or PostgreSQL.
pub enum AnyStore {
    /// An SQLite file.
    Sqlite(SqliteStore),
    /// A PostgreSQL database.
    #[cfg(feature = "postgres")]
    Postgres(PostgresStore),
}

impl Store for AnyStore {
    fn group_commits(&self) -> (u64, u64) {
        each_store!(self, s => s.group_commits())
    }
    async fn create(&self, m: &StoredMatch) -> Result<(), StoreError> {
        each_store!(self, s => s.create(m).await)
    }
    async fn update(&self, m: &StoredMatch) -> Result<(), StoreError> {
        each_store!(self, s => s.update(m).await)
    }
    async fn append(&self, id: &str, first: usize, entries: &[LogEntry]) -> Result<(), StoreError> {
        each_store!(self, s => s.append(id, first, entries).await)
    }
    async fn load(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        each_store!(self, s => s.load(id).await)
    }
    async fn unfinished(&self) -> Result<Vec<Loaded>, StoreError> {
        each_store!(self, s => s.unfinished().await)
    }
    async fn claim(&self, id: &str) -> Result<bool, StoreError> {
        each_store!(self, s => s.claim(id).await)
    }
    async fn claim_many(&self, ids: &[String]) -> Result<Vec<String>, StoreError> {
        each_store!(self, s => s.claim_many(ids).await)
    }
    async fn load_many(
        &self,
        ids: &[String],
    ) -> Result<Vec<Result<Option<Loaded>, StoreError>>, StoreError> {
        each_store!(self, s => s.load_many(ids).await)
    }
    async fn recent_finished(&self, limit: usize) -> Result<Vec<StoredMatch>, StoreError> {
        each_store!(self, s => s.recent_finished(limit).await)
    }
    async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        each_store!(self, s => s.unfinished_ids().await)
    }
    async fn orphans(&self) -> Result<Vec<String>, StoreError> {
        each_store!(self, s => s.orphans().await)
    }
    async fn announce(&self, address: &str) -> Result<(), StoreError> {
        each_store!(self, s => s.announce(address).await)
    }
    async fn nodes(&self) -> Result<Vec<String>, StoreError> {
        each_store!(self, s => s.nodes().await)
    }
    async fn owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        each_store!(self, s => s.owner(id).await)
    }
    async fn serving(&self, id: &str) -> Result<Holder, StoreError> {
        each_store!(self, s => s.serving(id).await)
    }
    async fn unclaim(&self, id: &str) -> Result<(), StoreError> {
        each_store!(self, s => s.unclaim(id).await)
    }
    async fn offer_rematch(&self, m: &StoredMatch) -> Result<bool, StoreError> {
        each_store!(self, s => s.offer_rematch(m).await)
    }
    async fn open_matches(&self, waiting_since: u64) -> Result<Vec<StoredMatch>, StoreError> {
        each_store!(self, s => s.open_matches(waiting_since).await)
    }
    async fn open_page(
        &self,
        waiting_since: u64,
        offset: usize,
        limit: usize,
    ) -> Result<(Vec<StoredMatch>, usize), StoreError> {
        each_store!(self, s => s.open_page(waiting_since, offset, limit).await)
    }
    async fn notify(&self, payload: &str) -> Result<(), StoreError> {
        each_store!(self, s => s.notify(payload).await)
    }
    async fn quarantine(&self, id: &str, reason: &str, at: u64) -> Result<(), StoreError> {
        each_store!(self, s => s.quarantine(id, reason, at).await)
    }
    async fn release(&self, id: &str) -> Result<(), StoreError> {
        each_store!(self, s => s.release(id).await)
    }
    async fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        each_store!(self, s => s.quarantined().await)
    }
    async fn leave(&self, payload: &str) -> Result<(), StoreError> {
        each_store!(self, s => s.leave(payload).await)
    }
}

/// The schema, as numbered migrations applied in order (the same SQL for both stores).
pub(crate) const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        "CREATE TABLE matches (
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
    );",
    ),
    // Matches set aside at start (or when first asked for) because their rows do not read or
    // their log does not rebuild. No foreign key: the match's own row may be what is broken.
    (
        2,
        "CREATE TABLE quarantined (
        match_id TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        quarantined_at BIGINT NOT NULL
    );",
    ),
];

pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("stored types serialize")
}

pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    id: &str,
    text: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt {
        id: id.to_string(),
        error: e.to_string(),
    })
}

/// A listed row that reads, or `None` (logged) for one that does not: one damaged match must
/// not hide the others from a listing. Asking for it by id sets it aside (quarantine).
pub(crate) fn readable(row: Result<StoredMatch, StoreError>) -> Option<StoredMatch> {
    row.map_err(|e| tracing::warn!("left out of a listing: {e}"))
        .ok()
}

pub(crate) fn ms_u64(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

pub(crate) fn as_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(crate) fn ms_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

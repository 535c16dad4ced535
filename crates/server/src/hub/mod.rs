//! The hub: every match the server hosts, each a [`Table`] around a [`colosseum_host::Match`].
//!
//! Every change to a match goes through [`Hub::act`] (or a deadline, or a bot's move): under the
//! table's lock the event is given to the match with the time since the match started, the new
//! log entries are appended to the store, and only then is the table's version bumped so that
//! every connection re-renders *its own* view. Nothing is acknowledged before it is stored, so a
//! crash loses at most an event nobody was told about.
//!
//! Each live table has a timer task that sleeps until the match's next deadline and ticks it;
//! bots think on Tokio's blocking pool, never on the async workers.
//!
//! This module holds the [`Hub`] and [`Table`] types and the core every concern uses: the
//! commit path (`Hub::commit`'s store append and version bump), ticks and timers, installing
//! a stored match as a table, the lobby cache's updates, the notices to other nodes, the bot
//! pool's slots. Each concern is one `impl Hub` block in a submodule that depends on this one
//! and not in a circle on another: `create` (creation, finding a table), `act` (actions, seeds),
//! `bots`, `cluster` (resume, adoption, takeover, owners), `records`, `lobby`, `chat` (with
//! rematch), `news` (spectator news, webhooks), `view` (state messages), `verify` (verify
//! reports); `checks` holds the free checks (names, bot levels, time controls), depending on
//! nothing here. The one loop left is the design's: a commit starts the bots
//! (`bots::start_bots`) and a bot's move is an action (`Hub::act_on`) that commits.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use colosseum_ai::registry::{self, BotSpec};
use colosseum_engine::{RawOptions, Seat, Viewer};
use colosseum_host::{LogEntry, Match, MatchConfig, Player, SealedPhase, TimeControl};
use colosseum_trivia::BotAnswerer;
use rand::TryRngCore;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{watch, Notify};

use crate::clock::Clock;
use crate::error::{ApiError, ErrorCode};
use crate::limits::Limits;
use crate::store::{Holder, Quarantined, Store, StoreError, StoredMatch};

mod act;
mod bots;
mod chat;
pub(crate) mod checks;
mod cluster;
mod create;
mod lobby;
mod news;
mod records;
mod verify;
mod view;

pub use crate::pool::SHARES_SHOWN;
pub use checks::{
    check_bot_level, check_bot_level_within, check_name, check_time_control, public_setup,
    same_name, thinks_by_time, MAX_BOT_ITERS, MAX_BOT_MS, MAX_NAME,
};
pub(crate) use checks::{check_bot_ready, human_ms, random_hex, same_secret, truncate};

/// The longest move or answer text accepted.
pub const MAX_TEXT: usize = 2_000;
/// The most legal moves sent with a state; beyond it a client types notation.
pub const MAX_LEGAL_SENT: usize = 400;
/// The most matches one batch of [`Hub::take_over`] or [`Hub::resume`] adopts: the batch's
/// matches are claimed by one statement and loaded, logs and all, by one more, their first
/// commits share the group writer's statements and their notices go in one statement (issue
/// 22: about five round trips a match, one match after another, made a third of 10,000
/// matches take 52 s to take over).
pub const ADOPTING_BATCH: usize = 64;

/// The most batches [`Hub::take_over`] adopts at once: one batch's claims and notices (on the
/// store's session) overlap the next one's load (on a read connection) and rebuilding.
pub const BATCHES_AT_ONCE: usize = 2;

/// The most matches remembered as found with their node gone ([`Hub::owner_elsewhere`]) and
/// not asked for since; the memory is cleared past it (a hint only: a match left out is loaded
/// before its adoption, as any match).
const GONE_SEEN_MOST: usize = 100_000;

/// Who is asking: a seat (with its token) or a spectator.
pub type Role = Viewer;

/// What a request waiting in [`Wanted`] is told of its match: its outcome in the batch, or
/// `None` when the batch left it out (another adoption was deciding it, or this process
/// already served it): the request then waits for that adoption alone.
type WantedOutcome = Option<Result<bool, ApiError>>;

/// The matches that requests want adopted ([`Hub::adopt`]), waiting for the next batch, and how
/// many batches run now (at most [`BATCHES_AT_ONCE`]).
#[derive(Default)]
struct Wanted {
    queue: Vec<(String, tokio::sync::oneshot::Sender<WantedOutcome>)>,
    running: usize,
}

/// The locks of the matches being adopted, by id ([`Hub::adopt`]).
type AdoptingIds = Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>;

/// One match's adoption lock, held: another adoption of the same match waits for it, others do
/// not. Its entry leaves the map when nobody else holds or waits for it.
struct AdoptingOne<'a> {
    ids: &'a AdoptingIds,
    id: &'a str,
    lock: Arc<tokio::sync::Mutex<()>>,
    held: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl<'a> AdoptingOne<'a> {
    /// Match `id`'s entry in the map, not held yet. Built before any wait, so that a wait
    /// given up (a request dropped) cleans up too.
    fn unheld(ids: &'a AdoptingIds, id: &'a str) -> AdoptingOne<'a> {
        let lock = ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(id.to_string())
            .or_default()
            .clone();
        AdoptingOne {
            ids,
            id,
            lock,
            held: None,
        }
    }

    /// The lock of match `id` if nobody holds it now: a takeover leaves a match another
    /// adoption is deciding to that one (it is listed again at the next look if that fails).
    fn try_lock(ids: &'a AdoptingIds, id: &'a str) -> Option<AdoptingOne<'a>> {
        let mut one = Self::unheld(ids, id);
        one.held = Some(one.lock.clone().try_lock_owned().ok()?);
        Some(one)
    }

    async fn lock(ids: &'a AdoptingIds, id: &'a str) -> AdoptingOne<'a> {
        let mut one = Self::unheld(ids, id);
        one.held = Some(one.lock.clone().lock_owned().await);
        one
    }
}

impl Drop for AdoptingOne<'_> {
    fn drop(&mut self) {
        self.held = None;
        let mut ids = self
            .ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // The map's and this one's only (clones are made under the map's lock): nobody waits.
        if Arc::strong_count(&self.lock) == 2 {
            ids.remove(self.id);
        }
    }
}

/// One hosted match.
pub struct Table {
    /// The match id.
    pub id: String,
    state: tokio::sync::Mutex<TableState>,
    version: watch::Sender<u64>,
    wake: Notify,
}

struct TableState {
    meta: StoredMatch,
    game: Match,
    /// How many log entries are in the store.
    persisted: usize,
    /// The decision a bot is thinking about, per seat.
    bot_busy: [Option<(usize, usize)>; 2],
    /// The race (its `opened_at`, the seat's lockout end) a bot is answering, per seat.
    race_busy: [Option<(u64, u64)>; 2],
    /// Sealed matches: a bot seat's chosen move and nonce, kept from its choice until it opens.
    /// Memory only: a restart before the bot commits makes it choose again; after it committed,
    /// it cannot open and gets the timeout treatment at its opening deadline (which is why an
    /// untimed bot commits only once the other seat is in, and then opens at once).
    bot_sealed: [Option<BotOpening>; 2],
    /// The state last rendered for each viewer kind, with the table version it shows.
    rendered: crate::render::RenderCache,
}

/// A bot seat's sealed move in a sealed decision.
struct BotOpening {
    /// The decision (game number, steps).
    key: (usize, usize),
    /// The move.
    text: String,
    /// The nonce.
    nonce: String,
    /// Whether its commitment has been sent.
    committing: bool,
}

/// A request to create a match.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateMatch {
    /// The game's id.
    pub game: String,
    /// The game's options.
    #[serde(default)]
    pub options: RawOptions,
    /// A seed chosen by the creator: the match becomes a *practice* match (marked so to both
    /// seats, spectators, the lobby and the record). Absent (the normal case), chance comes
    /// from a server seed committed to at creation and the seats' client seeds.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Who plays `p1` and `p2`; absent means two humans.
    #[serde(default)]
    pub seats: Option<[Player; 2]>,
    /// The time control; absent means the game's default.
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// Replay a drawn game (All-In Goofspiel's default).
    #[serde(default)]
    pub replay_on_draw: Option<bool>,
    /// The question bank of a live Cauldron (The Witch's Brew with `cauldron=live`).
    #[serde(default)]
    pub trivia: Option<colosseum_host::TriviaSettings>,
    /// How a bot seat answers trivia races: accuracy and answer times (default
    /// [`DEFAULT_RACE_BOT`]).
    #[serde(default)]
    pub race_bot: Option<BotAnswerer>,
    /// Sealed submissions: simultaneous decisions are played by commitment, then opening
    /// (`docs/server-api.md`, "Sealed submissions").
    #[serde(default)]
    pub sealed: bool,
    /// Who wins when a replayed drawn game is drawn again (All-In Goofspiel's second draw):
    /// absent, `p1` (the match default). A tournament gives it to the garnet leader.
    #[serde(default)]
    pub advantage: Option<Seat>,
    /// The tournament the match belongs to: set by the server's tournaments only, never read
    /// from a request.
    #[serde(skip)]
    pub tournament: Option<String>,
    /// The names bot seats play under (a tournament's players' names: "Ann", not `bot
    /// random`); `None` for a seat is `bot LEVEL`. Set by the server's tournaments only, never
    /// read from a request.
    #[serde(skip)]
    pub bot_names: [Option<String>; 2],
    /// A chat webhook that announces the match (start, each reveal, result, with the board):
    /// `{"url": "https://...", "format": "discord"}` (`crate::webhooks`). A secret.
    #[serde(default)]
    pub webhook: Option<crate::webhooks::WebhookConfig>,
}

/// How a bot answers trivia unless told otherwise: right 60% of the time, in 8 to 60 s
/// (25 s on average).
pub const DEFAULT_RACE_BOT: BotAnswerer = BotAnswerer {
    accuracy: 0.6,
    mean_ms: 25_000,
    min_ms: 8_000,
    max_ms: 60_000,
};

/// What creating a match gives the host: the id, each human seat's secret token and the links.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Created {
    /// The match id.
    pub id: String,
    /// Each human seat's token (`null` for a bot seat).
    pub tokens: [Option<String>; 2],
    /// The invite links (`null` for a bot seat) and the spectator link, relative to the server.
    pub links: Value,
}

/// Something a seat does.
#[derive(Clone, Debug)]
pub enum Action {
    /// Takes the seat, with a display name and no commitment to a client seed: refused in a
    /// provably fair match (`seed_hash_required`), where a human seat commits to one; fine in
    /// a practice match.
    Join(Option<String>),
    /// Takes the seat, with a display name and the commitment to its client seed (the SHA-256,
    /// lowercase hex, of the seed's text), which it reveals once both seats have committed
    /// ([`Action::Reveal`]). A client seed sent in clear at a join is refused: the second to
    /// join could aim chance with it.
    JoinSeeded {
        /// The display name.
        name: Option<String>,
        /// A client seed in clear: refused in a provably fair match.
        client_seed: Option<String>,
        /// The commitment to the seat's client seed.
        client_seed_hash: Option<String>,
    },
    /// Reveals the seat's client seed once both seats have committed to theirs: it must hash
    /// to the seat's commitment. The match starts when every human seat has revealed.
    Reveal(String),
    /// Submits (or changes) a move in notation.
    Submit(String),
    /// Locks the submission.
    Lock,
    /// Resigns the match.
    Resign,
    /// Commits to a move in a sealed match's simultaneous decision: the lowercase hex SHA-256
    /// of `MOVE + "\n" + NONCE`.
    Commit(String),
    /// Opens the seat's commitment once both seats have committed.
    Open {
        /// The move, as hashed.
        text: String,
        /// The nonce, as hashed.
        nonce: String,
    },
    /// Answers the open trivia race; `race` is the race's `opened_at` as the seat saw it, so an
    /// answer meant for an earlier question is not judged against a new one.
    Answer {
        /// The answer as typed.
        text: String,
        /// The race it answers (`opened_at`), if known.
        race: Option<u64>,
    },
}

/// Which decision an action is for ([`Hub::act_on`]).
#[derive(Clone, Copy, Debug)]
enum ForDecision {
    /// Whatever decision is pending ([`Hub::act`]: callers in this process).
    Pending,
    /// This one: refused as stale if another is pending.
    Is(u64),
    /// Not said by the client: refused for moves, locks, commitments and openings.
    Missing,
}

/// What a host (a tournament's) does to a match: each is logged in the match's log.
#[derive(Clone, Debug)]
pub enum HostPower {
    /// Pauses the match (no deadline runs, no move is taken).
    Pause,
    /// Resumes it (running deadlines move on by the pause's length).
    Resume,
    /// Gives a seat more time.
    GiveTime {
        /// To whom.
        seat: Seat,
        /// How much, in ms.
        ms: u64,
    },
    /// Ends the match with a result and a reason.
    Adjudicate {
        /// The winner; `None` for a draw.
        winner: Option<Seat>,
        /// Why.
        reason: String,
    },
}

/// The server's matches.
pub struct Hub<S: Store> {
    store: S,
    clock: Arc<dyn Clock>,
    tables: Mutex<HashMap<String, Arc<Table>>>,
    /// Whether tables run timer tasks (off in tests that move a manual clock and tick by hand).
    timers: bool,
    /// Matches set aside because they could not be rebuilt, with what a client is told.
    quarantine: Mutex<HashMap<String, (Quarantined, String)>>,
    /// The limits the hub enforces: time controls, bots, waiting matches.
    limits: Limits,
    /// The bot pool: bot searches, analyses and verifies, `Limits::bot_searches` at once,
    /// shared fairly between the addresses they are for (`crate::pool`).
    pool: Arc<crate::pool::Pool>,
    /// Verify reports kept and computing (`crate::verifying`).
    verifier: crate::verifying::Verifier,
    /// Held (shared) by every adoption while it claims and rebuilds a match; taken for good by
    /// [`Hub::leave`], so that no match is adopted after.
    adopting: tokio::sync::RwLock<()>,
    /// The matches being claimed and rebuilt from the store, each under a lock of its own, so
    /// that two loads of the same match (a request and a takeover) cannot both install it while
    /// other matches are adopted at the same time ([`AdoptingOne`]).
    adopting_ids: AdoptingIds,
    /// Told when a request finds a match whose node is gone ([`Hub::owner_elsewhere`]): `serve`
    /// runs [`Hub::take_over`] at once instead of at its next look ([`Hub::takeover_wanted`]).
    takeover_wanted: Notify,
    /// The matches requests want adopted, adopted together in batches ([`Hub::adopt`]).
    wanted: Mutex<Wanted>,
    /// Matches that a request found unserved because their node is gone
    /// ([`Hub::owner_elsewhere`]): their next [`Hub::table`] goes straight to the adoption,
    /// without loading the match first to see that it is unfinished.
    gone_seen: Mutex<std::collections::HashSet<String>>,
    /// Where this process answers, as announced to the others on the store (`Hub::announce_node`).
    address: std::sync::OnceLock<String>,
    /// The addresses of the other processes on the store (refreshed by `Hub::take_over`):
    /// their forwarded connections are not limited per address (`crate::forward`).
    peers: std::sync::RwLock<std::collections::HashSet<std::net::IpAddr>>,
    /// What an operator watches (`GET /metrics`).
    metrics: crate::metrics::Metrics,
    /// The chat webhooks' queues and delivery tasks.
    webhooks: crate::webhooks::Webhooks,
    /// The matches whose announcer task runs.
    announcing: Mutex<std::collections::HashSet<String>>,
    /// Changes to the shared store's matches heard of (`Hub::hear`, `Hub::tell`): the lobby's
    /// list read from the store is read again when this moved.
    changes: std::sync::atomic::AtomicU64,
    /// Whether this node hears the others' notices now (`Hub::listening`): only then may the
    /// lobby keep its list between changes.
    hearing: std::sync::atomic::AtomicBool,
    /// The last lobby page read from the shared store: `changes` before the read, the
    /// waiting matches' cutoff, the offset and limit, and the page with the number listed.
    open_cache: tokio::sync::Mutex<Option<(OpenKey, OpenPage)>>,
    /// This node's open matches in the lobby's order, kept as they change (`crate::lobby`),
    /// the light waiting matches (no `Table` until asked for) among them.
    lobby: crate::lobby::Lobby,
}

/// A lobby page read from a shared store: the open matches and how many there are in all.
type OpenPage = Arc<(Vec<StoredMatch>, usize)>;

/// What a kept [`OpenPage`] was read for: the changes heard of, the second of the waiting
/// matches' cutoff, the offset and the limit.
type OpenKey = (u64, u64, usize, usize);

/// What a match's announcer may post since its last look: all of it from the spectator's
/// side ([`Hub::spectator_news`]).
#[derive(Clone, Debug)]
pub struct SpectatorNews {
    /// The webhook now (`None`: stop announcing).
    pub webhook: Option<crate::webhooks::WebhookConfig>,
    /// The seats' names.
    pub names: [Option<String>; 2],
    /// The level of each seat a bot plays (`None`: a person).
    pub bots: [Option<String>; 2],
    /// Whether both seats have joined.
    pub started: bool,
    /// The tournament the match belongs to, if any.
    pub tournament: Option<String>,
    /// The spectator's move lines after the key asked for, each with the game's id and the
    /// spectator's view of that game just after the step.
    pub lines: Vec<(colosseum_host::MoveLine, String, Value)>,
    /// The current game's id and the spectator's view of it now.
    pub now: (String, Value),
    /// The result, once the match is over.
    pub result: Option<colosseum_host::MatchResult>,
    /// Each seat whose turn's own time ran out undecided, its bank running
    /// ([`colosseum_host::LogEntry::TurnUp`]), in the log's order: its log index, the seat,
    /// the turn's time and the bank left (ms). Nothing a spectator may not know: who has not
    /// decided and the clocks are on every spectator's table.
    pub turn_ups: Vec<(usize, Seat, u64, u64)>,
}

/// Why a match cannot be rebuilt: the full reason (for the operator: the admin endpoint and the
/// store) and a summary that quotes no stored data (for the log and for clients).
struct Broken {
    reason: String,
    summary: String,
}

/// Rebuilds a match from its log, turning a panic in a game into an error like any other.
fn rebuild_guarded(config: MatchConfig, log: &[colosseum_host::LogEntry]) -> Result<Match, Broken> {
    let rebuilt =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Match::rebuild(config, log)));
    match rebuilt {
        Ok(Ok(game)) => Ok(game),
        Ok(Err(e)) => Err(Broken {
            summary: match &e {
                colosseum_host::RebuildError::Diverged { index, .. } => {
                    format!("its log does not rebuild: entry {index} differs when replayed")
                }
                colosseum_host::RebuildError::Config(c) => {
                    format!("its configuration is refused: {c}")
                }
            },
            reason: e.to_string(),
        }),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Broken {
                summary: "rebuilding its log panicked".into(),
                reason: format!("rebuilding the log panicked: {what}"),
            })
        }
    }
}

/// The claim (`Store::claim`) that says which process runs tournament `id`: not a match id
/// (those are hex digits only).
fn tournament_key(id: &str) -> String {
    format!("tournament {id}")
}

/// The answer for a quarantined match.
fn quarantined_error(id: &str, summary: &str) -> ApiError {
    ApiError::new(
        ErrorCode::Quarantined,
        format!(
            "match {id} is set aside and not served: {summary}; the server's operator sees it \
             at GET /api/admin/quarantine and can repair it"
        ),
    )
}

/// How busy the server's bot pool is (`GET /api/health` shows it): bot searches, analyses
/// and verifies.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BotLoad {
    /// Jobs running now.
    pub running: usize,
    /// Jobs waiting for a free slot.
    pub queued: usize,
    /// The most that ever ran at once since the server started.
    pub peak: usize,
    /// The most that may run at once (`Limits::bot_searches`).
    pub max: usize,
    /// How many shares (creating addresses, tournaments, verifying addresses) have a job
    /// queued or running.
    pub shares: usize,
    /// Each of those shares' jobs, under a label salted per process (never the address), most
    /// queued first; at most [`SHARES_SHOWN`].
    pub queues: Vec<crate::pool::ShareLoad>,
}

/// The share of the bot pool a match's bot searches run in: its creator's (stored with it), its
/// tournament's, or its own.
fn match_share(meta: &StoredMatch) -> String {
    match (&meta.share, &meta.tournament) {
        (Some(share), _) => share.clone(),
        (None, Some(t)) => format!("t:{t}"),
        (None, None) => format!("m:{}", meta.id),
    }
}

/// Whether match `meta` may wait without a `Table` in memory (`crate::lobby`): nobody started
/// it, and nothing runs for it until somebody asks for it (no webhook to announce it, no
/// tournament following it).
fn light(meta: &StoredMatch) -> bool {
    meta.started_at.is_none()
        && !meta.finished()
        && meta.webhook.is_none()
        && meta.tournament.is_none()
}

impl<S: Store> Hub<S> {
    /// A hub over `store`, reading time from `clock`, with the default [`Limits`]. Call
    /// [`Hub::resume`] next to bring back unfinished matches.
    pub fn new(store: S, clock: Arc<dyn Clock>, timers: bool) -> Arc<Self> {
        Self::with_limits(store, clock, timers, Limits::default())
    }

    /// A hub with `limits` (time controls, bot budgets and concurrency, waiting matches'
    /// expiry, logged refusals).
    pub fn with_limits(store: S, clock: Arc<dyn Clock>, timers: bool, limits: Limits) -> Arc<Self> {
        Arc::new(Hub {
            store,
            clock,
            tables: Mutex::new(HashMap::new()),
            timers,
            quarantine: Mutex::new(HashMap::new()),
            limits,
            pool: crate::pool::Pool::new(limits.bot_searches),
            verifier: crate::verifying::Verifier::default(),
            metrics: crate::metrics::Metrics::default(),
            adopting: tokio::sync::RwLock::new(()),
            adopting_ids: AdoptingIds::default(),
            takeover_wanted: Notify::new(),
            wanted: Mutex::new(Wanted::default()),
            gone_seen: Mutex::new(std::collections::HashSet::new()),
            webhooks: crate::webhooks::Webhooks::new(&limits),
            announcing: Mutex::new(std::collections::HashSet::new()),
            address: std::sync::OnceLock::new(),
            peers: std::sync::RwLock::default(),
            changes: std::sync::atomic::AtomicU64::new(0),
            hearing: std::sync::atomic::AtomicBool::new(false),
            open_cache: tokio::sync::Mutex::new(None),
            lobby: crate::lobby::Lobby::default(),
        })
    }

    /// The limits the hub enforces.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The node's metrics (counters are updated as things happen).
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }

    /// The Prometheus text of the node's metrics, with the present's gauges read now.
    pub fn render_metrics(&self) -> String {
        let tables = self.tables_now();
        // A table busy at this instant is counted as live: it is working on a move.
        let live = tables
            .iter()
            .filter(|t| {
                t.state.try_lock().map_or(true, |st| {
                    st.meta.started_at.is_some() && !st.meta.finished()
                })
            })
            .count();
        let bots = self.bot_load();
        let pool = self.pool.load();
        self.metrics.render(&crate::metrics::Snapshot {
            live,
            loaded: tables.len() + self.lobby.light(),
            bots: (bots.running, bots.queued, bots.max),
            shares: pool
                .shares
                .iter()
                .map(|s| (s.share.clone(), s.queued, s.running))
                .collect(),
            verify: pool.verify,
            commits: self.store.group_commits(),
            webhooks: self.webhooks.totals(),
        })
    }

    /// The server stops (SIGTERM): no bot search, analysis or verify starts any more, the ones
    /// waiting give up and waiting verify requests are answered 503 at once; the ones running
    /// are not waited for (`colosseum serve` exits without them). Nothing acknowledged is lost:
    /// a bot's move not made yet is chosen again when its match is resumed.
    pub fn stop_work(&self) {
        self.verifier.stop();
        self.pool.close();
    }

    /// Whether `meta` is a match nobody joined within `Limits::waiting_expiry_ms`.
    fn expired(&self, meta: &StoredMatch) -> bool {
        meta.started_at.is_none()
            && !meta.finished()
            && self.clock.now_ms().saturating_sub(meta.created_at) >= self.limits.waiting_expiry_ms
    }

    fn expired_error(&self) -> ApiError {
        ApiError::new(
            ErrorCode::Expired,
            format!(
                "nobody joined this match within {}; it has expired: create a new one",
                human_ms(self.limits.waiting_expiry_ms)
            ),
        )
    }

    /// Drops every waiting match that has expired from memory (its timer task ends); returns
    /// how many. The lobby does it, and a running server every minute. Their rows stay in the
    /// store, where they are recognized as expired (by `created_at`) when asked for.
    pub async fn sweep_expired(&self) -> usize {
        // The lobby's index holds every waiting match, oldest first: only the expired are
        // looked at (`Hub::expired`: at least `waiting_expiry_ms` old).
        let cutoff = (self.clock.now_ms() + 1).saturating_sub(self.limits.waiting_expiry_ms);
        let gone = self.lobby.expire_before(cutoff);
        let mut tables = self
            .tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for id in &gone {
            if let Some(t) = tables.remove(&**id) {
                t.wake.notify_one();
            }
        }
        gone.len()
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Now, wall time in ms.
    pub fn now(&self) -> u64 {
        self.clock.now_ms()
    }

    /// The tables this process serves now (a snapshot: the map's lock is not held after).
    /// The match `id` if this process serves it (in memory).
    fn served(&self, id: &str) -> Option<Arc<Table>> {
        self.tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .cloned()
    }

    fn tables_now(&self) -> Vec<Arc<Table>> {
        self.tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .cloned()
            .collect()
    }

    /// Stores what changed, tells the connections, wakes the timer and starts bots.
    async fn commit(
        self: &Arc<Self>,
        table: &Arc<Table>,
        st: &mut TableState,
    ) -> Result<(), ApiError> {
        let new = &st.game.log()[st.persisted..];
        // Before the start the match runs on a throwaway seed: nothing of it is stored.
        if !new.is_empty() && st.meta.started_at.is_some() {
            for e in new {
                match e {
                    LogEntry::Submitted { .. } => self.metrics.submissions.inc(),
                    LogEntry::Revealed { .. } => self.metrics.reveals.inc(),
                    LogEntry::Refused { .. } => self.metrics.refusals.inc(),
                    _ => 0,
                };
            }
            // A measurement for /metrics only (the store write's duration).
            let writing = std::time::Instant::now();
            self.store
                .append(&table.id, st.persisted, new)
                .await
                .map_err(|e| ApiError::internal("storing the match log", e))?;
            crate::metrics::Metrics::observe(&self.metrics.store_write, writing.elapsed());
            st.persisted = st.game.log().len();
        }
        if st.meta.result.is_none() {
            if let Some(result) = st.game.result() {
                st.meta.result = Some(result.clone());
                self.store
                    .update(&st.meta)
                    .await
                    .map_err(|e| ApiError::internal("storing the result", e))?;
                self.metrics.finished.inc();
                tracing::info!(match_id = %table.id, game = %st.meta.config.game, "match finished");
                // Its result stored, the match takes no more moves: its claim is given up, so
                // the lock table holds the live matches only. It stays served here (and the
                // others still route to this process, `Store::serving`); the one write left, a
                // rematch offer, is conditional (`Store::offer_rematch`).
                if let Err(e) = self.store.unclaim(&table.id).await {
                    tracing::warn!(match_id = %table.id, error = %e, "could not give up a finished match's claim");
                }
                self.tell("finished", &table.id).await;
            }
        }
        table.version.send_modify(|v| *v += 1);
        table.wake.notify_one();
        self.list(&st.meta, false);
        self.start_bots(table, st);
        Ok(())
    }

    /// The server's clock (ms since the Unix epoch), the `server_now` of a state.
    pub fn server_now(&self) -> u64 {
        self.clock.now_ms()
    }

    /// A receiver that changes whenever the table does.
    pub fn subscribe(table: &Table) -> watch::Receiver<u64> {
        table.version.subscribe()
    }

    /// Tells the processes on a shared store (this one's listener included) that match `id`
    /// changed: `kind` is `created`, `joined`, `adopted` or `finished` (`store::NOTICES`). The
    /// lobby of every node reads its list again; a failure is logged, not returned (the move
    /// it follows is stored already).
    async fn tell(&self, kind: &str, id: &str) {
        let Some(address) = self.address.get() else {
            return;
        };
        self.changes.fetch_add(1, Ordering::SeqCst);
        if let Err(e) = self.store.notify(&format!("{kind} {id} {address}")).await {
            tracing::warn!(match_id = %id, kind, error = %e, "could not notify the other processes");
        }
    }

    /// [`Hub::tell`] for each of `ids` (the store sends notices queued together in one
    /// statement).
    async fn tell_all(&self, kind: &str, ids: &[String]) {
        for id in ids {
            self.tell(kind, id).await;
        }
    }

    /// Whether this process shares its store with others (it announced itself on PostgreSQL).
    pub fn shared(&self) -> bool {
        self.address.get().is_some()
    }

    /// Where the lobby's list of waiting matches starts now: a waiting match created before
    /// it is at least `Limits::lobby_waiting_ms` old and leaves the lobby's public list (its
    /// links still work until it expires).
    fn list_cutoff(&self) -> u64 {
        (self.clock.now_ms() + 1).saturating_sub(self.limits.lobby_waiting_ms)
    }

    /// Brings match `meta`'s entry in the lobby's index up to date (`crate::lobby`): an open
    /// match's summary is rendered again only when who joined or the start changed; a finished
    /// one leaves. `light`: the match has no `Table` in memory.
    fn list(&self, meta: &StoredMatch, light: bool) {
        if meta.finished() {
            self.lobby.remove(&meta.id);
            return;
        }
        let shape = crate::lobby::Shape {
            joined: meta.joined,
            started: meta.started_at.is_some(),
        };
        if self.lobby.stale(&meta.id, shape, light) {
            self.lobby.set(
                &meta.id,
                meta.created_at,
                shape,
                light,
                summary(meta).to_string(),
                self.list_cutoff(),
            );
        }
    }

    /// Sets match `id` aside: logged, stored, remembered; returns what a client is answered.
    async fn set_aside(&self, id: &str, broken: Broken) -> ApiError {
        let at = self.clock.now_ms();
        self.lobby.remove(id);
        tracing::error!(
            match_id = %id,
            reason = %broken.summary,
            "match quarantined: it is not served until repaired (GET /api/admin/quarantine has the full reason)"
        );
        if let Err(e) = self.store.quarantine(id, &broken.reason, at).await {
            tracing::error!(match_id = %id, "storing the quarantine: {e}");
        }
        let error = quarantined_error(id, &broken.summary);
        let q = Quarantined {
            id: id.to_string(),
            reason: broken.reason,
            at,
        };
        self.quarantine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(id.to_string())
            .or_insert((q, broken.summary));
        error
    }

    /// The bot pool (`crate::pool`).
    pub fn pool(&self) -> &Arc<crate::pool::Pool> {
        &self.pool
    }

    /// The verify jobs (`crate::verifying`).
    pub fn verifier(&self) -> &crate::verifying::Verifier {
        &self.verifier
    }

    /// Runs `work` on Tokio's blocking pool in one of the bot pool's slots
    /// (`Limits::bot_searches`), in the share `analysis` (the analysis after the game,
    /// `crate::analysis`); `None` if the server stops first or `work` panicked.
    pub async fn in_bot_slot<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        self.in_slot("analysis", crate::pool::Kind::Search, work)
            .await
    }

    /// Runs `work` on Tokio's blocking pool in one of the bot pool's slots, in `share`'s turn;
    /// `None` if the server stops first or `work` panicked. The slot is held until `work`
    /// returns.
    pub async fn in_slot<T: Send + 'static>(
        self: &Arc<Self>,
        share: &str,
        kind: crate::pool::Kind,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let permit = self.pool.acquire(share, kind).await?;
        let job = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        });
        // The server stops: the job is not waited for (its result is dropped).
        tokio::select! {
            done = job => done.ok(),
            () = self.pool.closed() => None,
        }
    }

    /// Checks a bot name against this server's caps (`Limits::bot_max_ms`, `bot_max_iters`).
    pub fn check_bot(&self, game: &str, level: &str) -> Result<BotSpec, ApiError> {
        check_bot_level_within(
            game,
            level,
            self.limits.bot_max_ms,
            self.limits.bot_max_iters,
        )
    }

    fn start_timer(self: &Arc<Self>, table: &Arc<Table>) {
        if !self.timers {
            return;
        }
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move {
            loop {
                let wait = {
                    let st = table.state.lock().await;
                    if st.meta.finished() || hub.expired(&st.meta) {
                        return;
                    }
                    match (st.meta.started_at, st.game.next_deadline()) {
                        // Saturating: a deadline near u64::MAX must mean "never", not wrap
                        // around to "now" and tick in a loop.
                        (Some(start), Some(d)) => {
                            Some(start.saturating_add(d).saturating_sub(hub.clock.now_ms()))
                        }
                        _ => None,
                    }
                };
                match wait {
                    Some(ms) => {
                        tokio::select! {
                            () = tokio::time::sleep(Duration::from_millis(ms)) => {
                                if let Err(e) = hub.tick(&table).await {
                                    tracing::error!("deadline in match {}: {e}", table.id);
                                    tokio::time::sleep(Duration::from_secs(1)).await;
                                }
                            }
                            () = table.wake.notified() => {}
                        }
                    }
                    None => table.wake.notified().await,
                }
            }
        });
    }

    /// Starts the announcer of the match at `table` unless it runs: it posts what a spectator
    /// sees after move-log key `seen` (game, step) to the match's webhook.
    async fn announce(self: &Arc<Self>, table: &Arc<Table>, seen: Option<(usize, usize)>) {
        if table.state.lock().await.meta.webhook.is_none() {
            return;
        }
        self.start_announcer(table, seen);
    }

    /// Starts the announcer of the match at `table` (which has a webhook) unless it runs.
    fn start_announcer(self: &Arc<Self>, table: &Arc<Table>, seen: Option<(usize, usize)>) {
        let fresh = self
            .announcing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(table.id.clone());
        if fresh {
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                crate::webhooks::announce::match_announcer(hub.clone(), table.clone(), seen).await;
                hub.announcing
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .remove(&table.id);
            });
        }
    }

    async fn install(
        self: &Arc<Self>,
        meta: StoredMatch,
        log: &[colosseum_host::LogEntry],
    ) -> Result<Arc<Table>, ApiError> {
        // Nothing is stored before a match starts (it runs on a throwaway seed until then), and
        // a crash can fall between storing the start and its first log entries: an empty log
        // is the match as `Match::new` makes it, and its first entries are stored at the next
        // commit.
        let rebuilt = if log.is_empty() {
            Match::new(meta.config.clone()).map_err(|e| Broken {
                summary: format!("its configuration is refused: {e}"),
                reason: e.to_string(),
            })
        } else {
            rebuild_guarded(meta.config.clone(), log)
        };
        match rebuilt {
            Ok(game) => Ok(self.install_match(meta, game, log.len())),
            Err(broken) => Err(self.set_aside(&meta.id, broken).await),
        }
    }

    fn install_match(
        self: &Arc<Self>,
        meta: StoredMatch,
        game: Match,
        persisted: usize,
    ) -> Arc<Table> {
        let id = meta.id.clone();
        let table = Arc::new(Table {
            id: id.clone(),
            state: tokio::sync::Mutex::new(TableState {
                meta,
                game,
                persisted,
                bot_busy: [None, None],
                race_busy: [None, None],
                bot_sealed: [None, None],
                rendered: crate::render::RenderCache::default(),
            }),
            version: watch::Sender::new(0),
            wake: Notify::new(),
        });
        let mut tables = self
            .tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        tables.entry(id).or_insert(table).clone()
    }

    /// Fires every deadline up to now at every table (for tests with a manual clock; the timer
    /// tasks do this in a running server).
    pub async fn tick_all(self: &Arc<Self>) -> Result<(), ApiError> {
        let tables = self.tables_now();
        for table in tables {
            self.tick(&table).await?;
        }
        Ok(())
    }

    async fn tick(self: &Arc<Self>, table: &Arc<Table>) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if st.meta.finished() {
            return Ok(());
        }
        if let Some(start) = st.meta.started_at {
            let now = self.clock.now_ms().saturating_sub(start);
            st.game.tick(now);
            self.commit(table, &mut st).await?;
        }
        Ok(())
    }

    /// How busy the bot pool is: jobs running and queued, the peak, the cap, the shares.
    pub fn bot_load(&self) -> BotLoad {
        let load = self.pool.load();
        BotLoad {
            running: load.running,
            queued: load.queued,
            peak: self.pool.peak(),
            max: self.pool.slots(),
            shares: load.shares.len(),
            queues: load.shares.into_iter().take(SHARES_SHOWN).collect(),
        }
    }
}

/// One finished match of a season, as a host names it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonEntry {
    /// The match id.
    pub id: String,
    /// How questions call it: `day 3`, `match 12`.
    pub label: String,
}

/// A season: a name and its finished matches in order.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonRequest {
    /// The season's name.
    pub name: String,
    /// The matches.
    pub matches: Vec<SeasonEntry>,
}

fn summary(meta: &StoredMatch) -> Value {
    let seat = |i: usize| {
        json!({
            "player": meta.config.seats[i],
            "name": meta.names[i],
            "joined": meta.joined[i],
        })
    };
    json!({
        "id": meta.id,
        "game": meta.config.game,
        "status": if meta.finished() { "finished" } else if meta.started_at.is_some() { "live" } else { "waiting" },
        "seats": {"p1": seat(0), "p2": seat(1)},
        "created_at": meta.created_at,
        "sealed": meta.config.sealed,
        "result": meta.result,
        "practice": meta.practice,
        "spectate": format!("/m/{}", meta.id),
    })
}

/// The fairness data anyone may see: the commitment and the client seeds at once, the server
/// seed only once the match is over.
fn fairness_view(meta: &StoredMatch) -> Option<crate::render::FairnessView> {
    let fair = meta.fairness.as_ref()?;
    Some(crate::render::FairnessView {
        version: fair.version,
        commitment: fair.commitment.clone(),
        setup: fair.setup.clone(),
        setup_text: fair.committed_text(),
        server_seed_hash: fair.server_seed_hash.clone(),
        client_seed_hashes: fair.client_seed_hashes.clone(),
        reveal_due: meta.reveal_due(),
        client_seeds: fair.client_seeds.clone(),
        server_seed: if meta.finished() {
            fair.server_seed.clone()
        } else {
            None
        },
        verify: format!("/api/matches/{}/verify", meta.id),
    })
}

/// The `rematch` of a state message: the new match and who offered it, with the viewer's own
/// seat link in it (a player of the finished match in seat S plays the other seat there);
/// spectators get the spectator link. `null` until a seat offers one.
fn rematch_view(offer: Option<&crate::store::RematchOffer>, role: Role) -> Value {
    let Some(offer) = offer else {
        return Value::Null;
    };
    let id = &offer.id;
    let (seat, link) = match role {
        Viewer::Seat(s) => {
            let new_seat = s.other();
            let link = offer.tokens[new_seat.index()]
                .as_ref()
                .map_or_else(|| format!("/m/{id}"), |t| format!("/m/{id}#seat={t}"));
            (json!(new_seat), link)
        }
        Viewer::Spectator => (Value::Null, format!("/m/{id}")),
    };
    json!({"id": id, "by": offer.by, "seat": seat, "link": link})
}

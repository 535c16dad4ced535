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

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use colosseum_ai::registry::{self as bots, BotSpec};
use colosseum_engine::{RawOptions, Seat, Viewer};
use colosseum_host::{LogEntry, Match, MatchConfig, Player, SealedPhase, TimeControl};
use colosseum_trivia::BotAnswerer;
use rand::TryRngCore;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{watch, Notify};

use crate::api::Limits;
use crate::clock::Clock;
use crate::error::{ApiError, ErrorCode};
use crate::store::{Holder, Quarantined, Store, StoreError, StoredMatch};

/// The largest budget a server bot may be given by default (a bot name is chosen by whoever
/// creates the match, so it must not be able to hold a core for minutes); `Limits::bot_max_ms`.
pub const MAX_BOT_MS: u64 = 5_000;
/// The largest iteration budget a server bot may be given by default; `Limits::bot_max_iters`.
pub const MAX_BOT_ITERS: u64 = 50_000;
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

/// The most shares `GET /api/health` lists one by one (all are counted).
pub const SHARES_SHOWN: usize = 20;

/// The share of the bot pool a match's bot searches run in: its creator's (stored with it), its
/// tournament's, or its own.
fn match_share(meta: &StoredMatch) -> String {
    match (&meta.share, &meta.tournament) {
        (Some(share), _) => share.clone(),
        (None, Some(t)) => format!("t:{t}"),
        (None, None) => format!("m:{}", meta.id),
    }
}

/// `bytes` bytes from the OS's random source, in hex: tokens, seeds and ids.
/// Whether the bot `spec` thinks for a time (its moves cannot be repeated from the seeds).
#[must_use]
pub fn thinks_by_time(spec: &BotSpec) -> bool {
    match spec {
        BotSpec::Mcts(c) => matches!(c.budget, colosseum_ai::Budget::Time(_)),
        BotSpec::Exploiter { search, target, .. } => {
            matches!(search.budget, colosseum_ai::Budget::Time(_)) || thinks_by_time(target)
        }
        _ => false,
    }
}

/// The public setup a match's commitment binds (fairness version 2): from its configuration,
/// every default resolved (the time control in force, whether a draw is replayed), each bot with
/// its full settings and whether it thinks for a time.
#[must_use]
pub fn public_setup(config: &MatchConfig) -> colosseum_engine::fair::Setup {
    use colosseum_engine::fair::{SeatKind, SeatSetup, Setup};
    let entry = colosseum_games::find(&config.game).ok();
    let seat = |p: &Player| match p {
        Player::Human { .. } => SeatSetup::human(),
        Player::Bot { level } => {
            let spec = level.parse::<BotSpec>().ok();
            SeatSetup {
                kind: SeatKind::Bot,
                bot: Some(level.clone()),
                settings: spec
                    .as_ref()
                    .map(|b| bots::canonical(&config.game, &config.options, b)),
                time_budget: spec.as_ref().is_some_and(thinks_by_time),
            }
        }
    };
    let time = match entry {
        Some(e) => config.time_control_of(e),
        None => config.time_control(),
    };
    let trivia =
        colosseum_host::races_decide(&config.game, &config.options).then(|| {
            match config.trivia.as_ref().map(|t| &t.bank) {
                Some(colosseum_host::BankSource::Toml(text)) => {
                    format!(
                        "sha256:{}",
                        colosseum_engine::fair::sha256_hex(text.as_bytes())
                    )
                }
                _ => "sample".to_string(),
            }
        });
    Setup {
        game: entry.map_or_else(|| config.game.clone(), |e| e.id.to_string()),
        options: config.options.clone(),
        p1: seat(&config.seats[0]),
        p2: seat(&config.seats[1]),
        time: serde_json::to_value(&time).unwrap_or(Value::Null),
        sealed: config.sealed,
        practice: false,
        replay_on_draw: entry.is_some_and(|e| config.replays_on_draw_of(e)),
        advantage: config.advantage,
        trivia,
    }
}

pub(crate) fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng
        .try_fill_bytes(&mut buf)
        .expect("the OS random source works");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares secrets in time independent of where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The longest display name, in characters.
pub const MAX_NAME: usize = 40;

/// Whether match `meta` may wait without a `Table` in memory (`crate::lobby`): nobody started
/// it, and nothing runs for it until somebody asks for it (no webhook to announce it, no
/// tournament following it).
fn light(meta: &StoredMatch) -> bool {
    meta.started_at.is_none()
        && !meta.finished()
        && meta.webhook.is_none()
        && meta.tournament.is_none()
}

/// Checks a player's display name, the same at creation (`seats[i].name`) and at join, and
/// returns it trimmed: not empty, at most [`MAX_NAME`] characters, no control, invisible or
/// format characters and not starting with a combining mark (`crate::names::refused`), and not
/// a bot's name nor one that reads like it (`bot ...`, `random`, `heuristic`, `mcts:...`,
/// `cmd:...`, in any case or with look-alike characters: `crate::names::looks_like_bot`), so a
/// human can never pass for a bot. Uniqueness within a match is checked by the caller
/// ([`same_name`]).
pub fn check_name(name: &str) -> Result<String, ApiError> {
    use crate::names::ALLOWED;
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::bad_request(format!(
            "the name is empty: {ALLOWED}"
        )));
    }
    if name.chars().count() > MAX_NAME {
        return Err(ApiError::bad_request(format!(
            "the name is too long: {ALLOWED}"
        )));
    }
    if let Some(why) = crate::names::refused(name) {
        return Err(ApiError::bad_request(format!("{why}: {ALLOWED}")));
    }
    if crate::names::looks_like_bot(name) {
        return Err(ApiError::bad_request(format!(
            "`{name}` is or reads like a bot's name, reserved for bots: {ALLOWED}"
        )));
    }
    Ok(name.to_string())
}

/// Whether two display names are the same to a reader: case, look-alike characters of other
/// scripts and compatibility forms aside (their UTS #39 confusable skeletons,
/// `crate::names::same_name`).
pub fn same_name(a: &str, b: &str) -> bool {
    crate::names::same_name(a, b)
}

/// Checks a bot name for the server with the default caps ([`MAX_BOT_MS`], [`MAX_BOT_ITERS`]):
/// the levels, bounded budgets, never a program.
pub fn check_bot_level(game: &str, level: &str) -> Result<BotSpec, ApiError> {
    check_bot_level_within(game, level, MAX_BOT_MS, MAX_BOT_ITERS)
}

/// Checks a bot name for the server: the levels, budgets up to `max_ms` or `max_iters` a
/// decision, never a program.
pub fn check_bot_level_within(
    game: &str,
    level: &str,
    max_ms: u64,
    max_iters: u64,
) -> Result<BotSpec, ApiError> {
    let spec: BotSpec = level
        .parse()
        .map_err(|e: bots::BotSpecError| ApiError::bad_request(e.to_string()))?;
    match &spec {
        BotSpec::Command(_) => return Err(ApiError::bad_request(
            "cmd: bots cannot run on the server; use random, heuristic or mcts:easy|medium|hard",
        )),
        BotSpec::Exploiter { .. } => return Err(ApiError::bad_request(
            "an exploiter bot is a measuring tool (colosseum exploit, colosseum arena); use random, heuristic or mcts:easy|medium|hard",
        )),
        BotSpec::Mcts(config) => match config.budget {
            colosseum_ai::Budget::Time(d) if d.as_millis() > u128::from(max_ms) => {
                return Err(ApiError::bad_request(format!(
                    "a server bot may think at most {max_ms} ms a decision"
                )))
            }
            colosseum_ai::Budget::Iterations(n) if u64::from(n) > max_iters => {
                return Err(ApiError::bad_request(format!(
                    "a server bot may use at most {max_iters} iterations a decision"
                )))
            }
            _ => {}
        },
        _ => {}
    }
    bots::find(game).map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(spec)
}

/// Checks that a bot can play with these options as its level says, making ready what it needs
/// (a solved table `hard` plays from: read or solved off the async threads, once per process);
/// a 400 says what is missing (`colosseum_ai::registry::GameBots::check`).
pub(crate) async fn check_bot_ready(
    game: &str,
    options: &RawOptions,
    spec: BotSpec,
) -> Result<(), ApiError> {
    if !bots::wants_exact(&spec) {
        return Ok(());
    }
    let (game, options) = (game.to_string(), options.clone());
    tokio::task::spawn_blocking(move || {
        bots::find(&game)
            .and_then(|b| b.check(&options, &spec))
            .map_err(|e| ApiError::bad_request(e.to_string()))
    })
    .await
    .map_err(|e| ApiError::internal("checking the bot", e))?
}

/// Checks a time control against the limits: every decision's time within
/// `min_decision_ms..=max_decision_ms`, the bank within `0..=max_bank_ms`, the bank step at most
/// the bank.
pub fn check_time_control(time: &TimeControl, limits: &Limits) -> Result<(), ApiError> {
    let Some(c) = time.clocks() else {
        return Ok(());
    };
    let (lo, hi) = (limits.min_decision_ms, limits.max_decision_ms);
    let allowed = format!("{lo} to {hi} ms ({} to {})", human_ms(lo), human_ms(hi));
    if !(lo..=hi).contains(&c.per_decision_ms) {
        return Err(ApiError::bad_request(format!(
            "time.per_decision_ms is {}; it must be {allowed}",
            c.per_decision_ms
        )));
    }
    for (kind, &ms) in &c.per_kind_ms {
        if !(lo..=hi).contains(&ms) {
            return Err(ApiError::bad_request(format!(
                "time.per_kind_ms.{} is {ms}; it must be {allowed}",
                truncate(kind, 40)
            )));
        }
    }
    if c.bank_ms > limits.max_bank_ms {
        return Err(ApiError::bad_request(format!(
            "time.bank_ms is {}; it must be 0 to {} ms ({})",
            c.bank_ms,
            limits.max_bank_ms,
            human_ms(limits.max_bank_ms)
        )));
    }
    if c.bank_step_ms > c.bank_ms {
        return Err(ApiError::bad_request(format!(
            "time.bank_step_ms is {}; it must be 0 (a continuous bank) to bank_ms ({})",
            c.bank_step_ms, c.bank_ms
        )));
    }
    Ok(())
}

/// `ms` for people: `24 h`, `90 s`, `250 ms`.
fn human_ms(ms: u64) -> String {
    if ms >= 3_600_000 && ms.is_multiple_of(3_600_000) {
        format!("{} h", ms / 3_600_000)
    } else if ms >= 1_000 && ms.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format!("{ms} ms")
    }
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

    /// The bot pool (`crate::pool`).
    pub fn pool(&self) -> &Arc<crate::pool::Pool> {
        &self.pool
    }

    /// The verify jobs (`crate::verifying`).
    pub fn verifier(&self) -> &crate::verifying::Verifier {
        &self.verifier
    }

    /// The server stops (SIGTERM): no bot search, analysis or verify starts any more, the ones
    /// waiting give up and waiting verify requests are answered 503 at once; the ones running
    /// are not waited for (`colosseum serve` exits without them). Nothing acknowledged is lost:
    /// a bot's move not made yet is chosen again when its match is resumed.
    pub fn stop_work(&self) {
        self.verifier.stop();
        self.pool.close();
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

    /// Holds (`hold`) or frees a bot seat's clock for decision `key` while its search waits for
    /// a slot (`Match::hold_clock`), storing what that logs.
    async fn bot_clock(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        key: (usize, usize),
        hold: bool,
    ) {
        let mut st = table.state.lock().await;
        let Some(start) = st.meta.started_at else {
            return;
        };
        if st.meta.finished() || (st.game.game_number(), st.game.record().steps.len()) != key {
            return;
        }
        let now = self.clock.now_ms().saturating_sub(start);
        let before = st.game.log().len();
        let done = if hold {
            st.game.hold_clock(seat, now)
        } else {
            st.game.free_clock(seat, now)
        };
        if done.is_ok() && st.game.log().len() > before {
            if let Err(e) = self.commit(table, &mut st).await {
                tracing::warn!("holding a bot's clock in match {}: {e}", table.id);
            }
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

    /// The table of light waiting match `id` (`crate::lobby`: listed, its rows in the store,
    /// no `Table` yet), made from the store now and served from here on; `None` if `id` is
    /// not a light match. An expired one is answered `expired`.
    async fn unfold(self: &Arc<Self>, id: &str) -> Result<Option<Arc<Table>>, ApiError> {
        if !self.lobby.is_light(id) {
            return Ok(None);
        }
        // A leaving node (`Hub::leave`) loads nothing more: asked again, another node (or this
        // one restarted) serves it.
        let Ok(_not_leaving) = self.adopting.try_read() else {
            return Err(ApiError::new(
                ErrorCode::Busy,
                "this server is stopping: ask again in a moment",
            ));
        };
        let _one = AdoptingOne::lock(&self.adopting_ids, id).await;
        if let Some(table) = self.served(id) {
            return Ok(Some(table));
        }
        if !self.lobby.is_light(id) {
            return Ok(None);
        }
        let (meta, log) = match self.store.load(id).await {
            Ok(Some(loaded)) => loaded,
            Ok(None) => {
                self.lobby.remove(id);
                return Ok(None);
            }
            Err(e @ StoreError::Corrupt { .. }) => {
                let broken = Broken {
                    summary: "its stored rows do not read".into(),
                    reason: e.to_string(),
                };
                return Err(self.set_aside(id, broken).await);
            }
            Err(e) => return Err(ApiError::internal("loading a match", e)),
        };
        if self.expired(&meta) {
            self.lobby.remove(id);
            return Err(self.expired_error());
        }
        // Served from its own log (its joins and start are in `meta`): `commit` lists it as
        // a table.
        let table = self.install(meta, &log).await?;
        self.start_adopted(id, &table, &[]).await?;
        Ok(Some(table))
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Now, wall time in ms.
    pub fn now(&self) -> u64 {
        self.clock.now_ms()
    }

    /// Loads every unfinished match from the store and resumes it: its log is replayed, the
    /// deadlines that passed while the server was down fire at their own times, and timers and
    /// bots start again. Returns how many matches resumed.
    ///
    /// A match whose rows do not read or whose log does not rebuild is set aside (quarantined:
    /// logged, kept in the store with the reason, listed by [`Hub::quarantined`], answered with
    /// 503 `quarantined`) and every other match resumes. A quarantined match that rebuilds again
    /// (it was repaired) leaves quarantine. Only a failing store stops the resume.
    pub async fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self
            .store
            .unfinished_ids()
            .await
            .map_err(|e| ApiError::internal("loading unfinished matches", e))?;
        let earlier = self
            .store
            .quarantined()
            .await
            .map_err(|e| ApiError::internal("loading quarantined matches", e))?;
        // A batch at a time (one claim and one load statement each); a failing store stops
        // the resume once the batch's other matches are served.
        let mut n = 0;
        for batch in ids.chunks(ADOPTING_BATCH) {
            let mut failed = None;
            for (id, adopted) in self.adopt_batch(batch, &earlier, true, true).await? {
                match adopted {
                    Ok(true) => {
                        n += 1;
                        tracing::debug!(match_id = %id, "resumed match");
                    }
                    Ok(false) => {}
                    Err(e) => {
                        failed.get_or_insert(e);
                    }
                }
            }
            if let Some(e) = failed {
                return Err(e);
            }
        }
        // Finished matches set aside earlier stay aside (they are not retried at start).
        let mut quarantine = self
            .quarantine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for q in earlier {
            if !ids.contains(&q.id) {
                let summary = "its stored data could not be rebuilt".to_string();
                quarantine.entry(q.id.clone()).or_insert((q, summary));
            }
        }
        Ok(n)
    }

    /// Claims unfinished match `id` for this process and serves it from its log, for a request
    /// that asked for it: deadlines that passed while nobody served it fire at their own times,
    /// timers and bots start again. `false` when another process holds it, or it is gone,
    /// expired or set aside.
    ///
    /// The requests that want matches adopted at the same moment (a dead node's clients coming
    /// back together) share batches ([`Hub::adopt_wanted`]: one claim and one load statement for
    /// up to [`ADOPTING_BATCH`] matches, [`BATCHES_AT_ONCE`] at once) instead of a claim and a
    /// load each on the node's one session. A match another adoption is deciding is waited for.
    async fn adopt(self: &Arc<Self>, id: &str) -> Result<bool, ApiError> {
        let (told, outcome) = tokio::sync::oneshot::channel();
        let lead = {
            let mut wanted = self
                .wanted
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            wanted.queue.push((id.to_string(), told));
            let lead = wanted.running < BATCHES_AT_ONCE;
            if lead {
                wanted.running += 1;
            }
            lead
        };
        if lead {
            // A task of its own: the batch goes on for the others if this request is dropped.
            let hub = self.clone();
            tokio::spawn(async move { hub.adopt_wanted().await });
        }
        if let Ok(Some(adopted)) = outcome.await {
            return adopted;
        }
        // Left out of the batch: another adoption decides it (or did); wait for that one.
        let one = [id.to_string()];
        match self.adopt_batch(&one, &[], true, false).await?.pop() {
            Some((_, adopted)) => adopted,
            None => Ok(false),
        }
    }

    /// Adopts the matches requests want ([`Hub::adopt`]) in batches until none is waiting,
    /// then ends (one of at most [`BATCHES_AT_ONCE`] such tasks).
    async fn adopt_wanted(self: Arc<Self>) {
        /// Counts the task out if it ends by a panic (its waiting requests then adopt alone).
        struct Running<'a>(&'a Mutex<Wanted>, bool);
        impl Drop for Running<'_> {
            fn drop(&mut self) {
                if self.1 {
                    self.0
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .running -= 1;
                }
            }
        }
        let mut running = Running(&self.wanted, true);
        loop {
            let batch: Vec<_> = {
                let mut wanted = self
                    .wanted
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if wanted.queue.is_empty() {
                    // Counted out under the lock that a new request checks: it starts a task
                    // of its own if this one is past its last look.
                    wanted.running -= 1;
                    running.1 = false;
                    return;
                }
                let n = wanted.queue.len().min(ADOPTING_BATCH);
                wanted.queue.drain(..n).collect()
            };
            let mut ids: Vec<String> = batch.iter().map(|(id, _)| id.clone()).collect();
            ids.sort_unstable();
            ids.dedup();
            match self.adopt_batch(&ids, &[], false, false).await {
                Ok(outcomes) => {
                    let outcomes: HashMap<String, Result<bool, ApiError>> =
                        outcomes.into_iter().collect();
                    for (id, told) in batch {
                        let _ = told.send(outcomes.get(&id).cloned());
                    }
                }
                Err(e) => {
                    for (_, told) in batch {
                        let _ = told.send(Some(Err(e.clone())));
                    }
                }
            }
        }
    }

    /// Adopts the unfinished matches `ids` as [`Hub::adopt`] does each, with one claim
    /// statement (on the store's session, which holds the claims) and one load statement (on a
    /// read connection) for the batch: a match is loaded only once this process holds its
    /// claim, so another live process's match is never loaded nor served here. Returns what
    /// became of each match tried (those another adoption is deciding are left out when `wait`
    /// is false, else waited for); the outer `Err` is the store failing for the whole batch.
    /// With `lighten` (the resume at start), a waiting match that may be light ([`light`]) is
    /// claimed and listed, not loaded into memory (`crate::lobby`).
    async fn adopt_batch(
        self: &Arc<Self>,
        ids: &[String],
        earlier: &[Quarantined],
        wait: bool,
        lighten: bool,
    ) -> Result<Vec<(String, Result<bool, ApiError>)>, ApiError> {
        let _not_leaving = self.adopting.read().await;
        // Each match's own lock, held until it is served (or not): a client's request for one
        // of them waits for this batch, then finds it served.
        let mut locks = Vec::with_capacity(ids.len());
        for id in ids {
            if wait {
                locks.push(AdoptingOne::lock(&self.adopting_ids, id).await);
            } else if let Some(one) = AdoptingOne::try_lock(&self.adopting_ids, id) {
                locks.push(one);
            }
        }
        let wanted: Vec<String> = locks
            .iter()
            .filter(|one| !self.holds(one.id))
            .map(|one| one.id.to_string())
            .collect();
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        let claimed = self
            .store
            .claim_many(&wanted)
            .await
            .map_err(|e| ApiError::internal("claiming a match", e))?;
        let mut out = Vec::with_capacity(wanted.len());
        for id in &wanted {
            if !claimed.contains(id) {
                tracing::info!(match_id = %id, "match is served by another process");
                out.push((id.clone(), Ok(false)));
            }
        }
        let loaded = self
            .store
            .load_many(&claimed)
            .await
            .map_err(|e| ApiError::internal("loading a match", e))?;
        let mut installed = Vec::with_capacity(claimed.len());
        for (id, loaded) in claimed.into_iter().zip(loaded) {
            let (meta, log) = match loaded {
                Ok(Some(loaded)) => loaded,
                Ok(None) => {
                    out.push((id, Ok(false)));
                    continue;
                }
                Err(e @ StoreError::Corrupt { .. }) => {
                    let broken = Broken {
                        summary: "its stored rows do not read".into(),
                        reason: e.to_string(),
                    };
                    self.set_aside(&id, broken).await;
                    out.push((id, Ok(false)));
                    continue;
                }
                Err(e) => {
                    out.push((id, Err(ApiError::internal("loading a match", e))));
                    continue;
                }
            };
            if self.expired(&meta) {
                out.push((id, Ok(false)));
                continue;
            }
            if meta.finished() {
                // It finished (and its node gave up its claim) between the look that found it
                // unfinished and this claim: served from the store as any finished match, and
                // not kept claimed.
                if let Err(e) = self.store.unclaim(&id).await {
                    tracing::warn!(match_id = %id, error = %e, "could not give up a finished match's claim");
                }
            }
            if lighten && log.is_empty() && light(&meta) && !earlier.iter().any(|q| q.id == id) {
                self.list(&meta, true);
                out.push((id, Ok(true)));
                continue;
            }
            match self.install(meta, &log).await {
                Ok(table) => installed.push((id, table)),
                Err(e) if e.code == "quarantined" => out.push((id, Ok(false))),
                Err(e) => out.push((id, Err(e))),
            }
        }
        // Their first commits at once: the appends of the deadlines that passed share the
        // group writer's statements.
        let started = futures_util::future::join_all(
            installed
                .iter()
                .map(|(id, table)| self.start_adopted(id, table, earlier)),
        )
        .await;
        let mut adopted = Vec::with_capacity(installed.len());
        for ((id, _), started) in installed.into_iter().zip(started) {
            if started.is_ok() {
                adopted.push(id.clone());
            }
            out.push((id, started.map(|()| true)));
        }
        self.tell_all("adopted", &adopted).await;
        drop(locks);
        Ok(out)
    }

    /// Starts match `id`, just installed from its log: out of quarantine if it was in
    /// (`earlier`), ticked to now, its new entries stored, its timer and announcer started.
    async fn start_adopted(
        self: &Arc<Self>,
        id: &str,
        table: &Arc<Table>,
        earlier: &[Quarantined],
    ) -> Result<(), ApiError> {
        if earlier.iter().any(|q| q.id == id) {
            tracing::warn!(match_id = %id, "match rebuilds again: out of quarantine");
            self.store
                .release(id)
                .await
                .map_err(|e| ApiError::internal("releasing a match", e))?;
        }
        let mut st = table.state.lock().await;
        if let Some(start) = st.meta.started_at {
            let now = self.clock.now_ms().saturating_sub(start);
            st.game.tick(now);
        }
        self.commit(table, &mut st).await?;
        // Announcements go on from here: what happened before the restart (or the takeover) is
        // not posted again (posts still queued then are lost).
        let seen = st
            .game
            .move_log(Viewer::Spectator)
            .last()
            .map(|l| (l.game, l.step));
        let announced = st.meta.webhook.is_some();
        drop(st);
        self.start_timer(table);
        if announced {
            self.start_announcer(table, seen);
        }
        Ok(())
    }

    /// Whether this process serves match `id` (in memory, or light: `crate::lobby`) or has
    /// set it aside.
    fn holds(&self, id: &str) -> bool {
        self.tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains_key(id)
            || self.lobby.is_light(id)
            || self
                .quarantine
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .contains_key(id)
    }

    /// Tells the other processes on the store that this one answers at `address`
    /// (`http://host:port`), for the requests they forward to it.
    pub async fn announce_node(&self, address: &str) -> Result<(), ApiError> {
        let _ = self.address.set(address.to_string());
        self.store
            .announce(address)
            .await
            .map_err(|e| ApiError::internal("announcing this process", e))
    }

    /// Whether `ip` is another process on the store (its forwarded requests name their client).
    pub fn is_peer(&self, ip: std::net::IpAddr) -> bool {
        self.peers
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(&ip)
    }

    /// Whether this process shares its store with others (it announced itself on PostgreSQL).
    pub fn shared(&self) -> bool {
        self.address.get().is_some()
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

    /// A notice from a process on the shared store (`store::NOTICES`, heard by `serve`'s
    /// listener): the lobby reads its list again at its next request.
    pub fn hear(&self, notice: &str) {
        self.metrics.notices.inc();
        self.changes.fetch_add(1, Ordering::SeqCst);
        tracing::debug!(notice, "notice");
    }

    /// Whether this process hears the others' notices (`serve`'s listener sets it while its
    /// LISTEN holds): while it does not, the lobby reads the store at every request.
    pub fn listening(&self, on: bool) {
        self.changes.fetch_add(1, Ordering::SeqCst);
        self.hearing.store(on, Ordering::SeqCst);
    }

    /// A page of the open matches of a shared store (live, and waiting ones younger than the
    /// lobby lists), newest first, and how many there are: the last page read again while no
    /// change was heard of since (within the same second), else read from the store's indexes
    /// (`Store::open_page`: the page's rows only).
    async fn open_page(&self, offset: usize, limit: usize) -> Result<OpenPage, ApiError> {
        let mut cache = self.open_cache.lock().await;
        let changes = self.changes.load(Ordering::SeqCst);
        let window = self
            .limits
            .lobby_waiting_ms
            .min(self.limits.waiting_expiry_ms);
        // Listed while younger than the window (`Hub::list_cutoff`, `Hub::expired`), to
        // the second when a page is kept.
        let since = (self.clock.now_ms() + 1).saturating_sub(window);
        let key = (changes, since / 1_000, offset, limit);
        if self.hearing.load(Ordering::SeqCst) {
            if let Some((at, page)) = cache.as_ref() {
                if *at == key {
                    return Ok(page.clone());
                }
            }
        }
        let page = Arc::new(
            self.store
                .open_page(since, offset, limit)
                .await
                .map_err(|e| ApiError::internal("listing matches", e))?,
        );
        *cache = Some((key, page.clone()));
        Ok(page)
    }

    /// Claims tournament `id` for this process (`crate::tournaments`: the process holding it
    /// runs it): `false` if another process holds it. Always `true` on a store of its own.
    pub async fn claim_tournament(&self, id: &str) -> Result<bool, ApiError> {
        self.store
            .claim(&tournament_key(id))
            .await
            .map_err(|e| ApiError::internal("claiming a tournament", e))
    }

    /// The address of the other process that runs tournament `id`, when one does: its requests
    /// are forwarded there (`crate::forward`).
    pub async fn tournament_elsewhere(&self, id: &str) -> Option<String> {
        self.owner_of(&tournament_key(id)).await
    }

    /// The address of the other process that holds the claim `key`, if one does.
    async fn owner_of(&self, key: &str) -> Option<String> {
        match self.store.owner(key).await {
            Ok(Some(owner)) if self.address.get() != Some(&owner) => Some(owner),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!(key, error = %e, "could not ask the store who holds a claim");
                None
            }
        }
    }

    /// The address of the other process that serves match `id`, when one does: requests for it
    /// are forwarded there (`crate::forward`). `None` when this process serves it, holds it,
    /// or nobody does (this process then loads, claims or refuses it as usual).
    ///
    /// Asked at every request and every (re)connection, so it does not read the lock table in
    /// the common cases: the store records which node claimed each match last
    /// ([`Store::serving`]), trusted only while that node's session is open; a dead node's
    /// match is nobody's (the asking process then claims it, the lock deciding between two that
    /// try at once). Only a match with no record (or this process's own record, not served
    /// here) is looked up in the lock table ([`Store::owner`]). A wrong answer could only
    /// misroute a request (the process it reaches serves a match only under its claim), never
    /// let two processes serve one match.
    pub async fn owner_elsewhere(&self, id: &str) -> Option<String> {
        if self.holds(id) {
            return None;
        }
        match self.store.serving(id).await {
            Ok(Holder::Node(node)) if self.address.get() != Some(&node) => Some(node),
            Ok(Holder::Nobody) => None,
            Ok(Holder::Gone) => {
                // Its node died (or left): the first of its clients to come back starts the
                // takeover of all its matches, in batches, rather than each client adopting its
                // own match alone (this request then waits for its match's batch, or adopts it
                // in a batch with the other requests', without loading it first).
                self.takeover_wanted.notify_one();
                let mut gone = self
                    .gone_seen
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if gone.len() >= GONE_SEEN_MOST {
                    gone.clear();
                }
                gone.insert(id.to_string());
                None
            }
            Ok(_) => self.owner_of(id).await,
            Err(e) => {
                tracing::warn!(match_id = %id, error = %e, "could not ask the store who serves a match");
                self.owner_of(id).await
            }
        }
    }

    /// Resolves when a request found a match whose node is gone (at once if one did since the
    /// last call): `serve` then runs [`Hub::take_over`] without waiting for its next look.
    pub async fn takeover_wanted(&self) {
        self.takeover_wanted.notified().await;
    }

    /// Serves every unfinished match that no process serves any more (its process died, so
    /// PostgreSQL released its claim), without waiting for someone to ask for it: each is
    /// claimed and rebuilt as at [`Hub::resume`]. `serve` calls this every few seconds on
    /// PostgreSQL (every [`crate::TAKEOVER_EVERY`]). Returns how many matches it took over.
    pub async fn take_over(self: &Arc<Self>) -> Result<usize, ApiError> {
        let nodes = self
            .store
            .nodes()
            .await
            .map_err(|e| ApiError::internal("listing the other processes", e))?;
        let peers = nodes
            .iter()
            .filter(|n| self.address.get() != Some(*n))
            .filter_map(|n| crate::forward::peer_ip(n))
            .collect();
        *self
            .peers
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = peers;
        let ids = self
            .store
            .orphans()
            .await
            .map_err(|e| ApiError::internal("finding matches nobody serves", e))?;
        // In batches of ADOPTING_BATCH, oldest first, BATCHES_AT_ONCE at once; one failing
        // does not stop the others (the first failure is returned once all have been tried).
        let ids: Vec<String> = ids.into_iter().filter(|id| !self.holds(id)).collect();
        let mut batches = ids.chunks(ADOPTING_BATCH).map(<[String]>::to_vec);
        let mut n = 0;
        let mut failed = None;
        let mut running = tokio::task::JoinSet::new();
        loop {
            while running.len() < BATCHES_AT_ONCE {
                let Some(batch) = batches.next() else { break };
                let hub = self.clone();
                running.spawn(async move { hub.adopt_batch(&batch, &[], false, false).await });
            }
            let Some(done) = running.join_next().await else {
                break;
            };
            let outcomes = match done {
                Ok(Ok(outcomes)) => outcomes,
                Ok(Err(e)) => {
                    tracing::warn!(error = %e.message, "could not take over a batch of matches");
                    failed.get_or_insert(e);
                    continue;
                }
                Err(e) => {
                    failed.get_or_insert(ApiError::internal("taking over matches", e));
                    continue;
                }
            };
            for (id, adopted) in outcomes {
                match adopted {
                    Ok(true) => {
                        n += 1;
                        tracing::warn!(match_id = %id, "took over a match whose server process stopped");
                    }
                    Ok(false) => {}
                    Err(e) => {
                        tracing::warn!(match_id = %id, error = %e.message, "could not take over a match");
                        failed.get_or_insert(e);
                    }
                }
            }
        }
        match failed {
            Some(e) => Err(e),
            None => Ok(n),
        }
    }

    /// Leaves the shared store for good (`serve` on SIGTERM or Ctrl-C, once it stopped taking
    /// requests): every match's lock is taken and kept (no move, timeout or bot move is stored
    /// here after this), no match is claimed again, every claim is given up and the others are
    /// told (`leaving - ADDRESS`), so they take the matches over at once instead of at their
    /// next look. Returns how many matches this process served.
    pub async fn leave(&self) -> usize {
        // Kept to the end of the process: no adoption after this (the ones under way finish
        // first).
        std::mem::forget(self.adopting.write().await);
        let tables = self.tables_now();
        for t in &tables {
            std::mem::forget(t.state.lock().await);
        }
        if let Some(address) = self.address.get() {
            if let Err(e) = self.store.leave(&format!("leaving - {address}")).await {
                tracing::warn!(error = %e, "could not give up this process's claims; the others take its matches over when its connection ends");
            }
        }
        tables.len()
    }

    /// The matches set aside because they could not be rebuilt, oldest first (from the store,
    /// so with several processes every process lists them all).
    pub async fn quarantined(&self) -> Result<Vec<Quarantined>, ApiError> {
        self.store
            .quarantined()
            .await
            .map_err(|e| ApiError::internal("listing quarantined matches", e))
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

    /// Creates a match (for no share of the bot pool: its own, or its tournament's).
    pub async fn create(self: &Arc<Self>, req: CreateMatch) -> Result<Created, ApiError> {
        self.create_for(req, None).await
    }

    /// Creates a match whose bot searches run in `share` of the bot pool (`crate::pool`: the
    /// creating address, hashed).
    pub async fn create_for(
        self: &Arc<Self>,
        req: CreateMatch,
        share: Option<String>,
    ) -> Result<Created, ApiError> {
        let mut seats = req.seats.unwrap_or_default();
        for player in &mut seats {
            match player {
                Player::Bot { level } => {
                    let spec = self.check_bot(&req.game, level)?;
                    check_bot_ready(&req.game, &req.options, spec).await?;
                }
                Player::Human { name: Some(n) } => *n = check_name(n)?,
                Player::Human { name: None } => {}
            }
        }
        if let [Player::Human { name: Some(a) }, Player::Human { name: Some(b) }] = &seats {
            if same_name(a, b) {
                return Err(ApiError::bad_request(format!(
                    "`{a}` and `{b}` read as the same name: names differ within a match as \
                     people read them (case and look-alike letters aside)"
                )));
            }
        }
        if let Some(time) = &req.time {
            check_time_control(time, &self.limits)?;
        }
        if let Some(bot) = &req.race_bot {
            bot.check()
                .map_err(|e| ApiError::bad_request(format!("race_bot: {e}")))?;
        }
        // Who may set a webhook is the router's business (`api::create`: the admin token) or
        // the tournament's (its host); here it is checked against the policy. A tournament's
        // webhook the policy refuses now (the operator narrowed it) is dropped, not its match.
        let webhook = match req.webhook.map(|h| h.checked(&self.limits)) {
            Some(Err(e)) if req.tournament.is_some() => {
                tracing::warn!("a tournament's webhook is not allowed now: {}", e.message);
                None
            }
            other => other.transpose()?,
        };
        let is_bot = |i: usize| matches!(seats[i], Player::Bot { .. });
        let practice = req.seed.is_some();
        // The id comes first: sealed commitments are bound to it.
        let id = random_hex(8);
        let mut config = MatchConfig {
            trivia: req.trivia,
            game: req.game.trim().to_string(),
            options: req.options,
            seed: req.seed.unwrap_or(0),
            seats: seats.clone(),
            time: req.time,
            replay_on_draw: req.replay_on_draw,
            logged_refusals: Some(self.limits.logged_refusals),
            changes: Some(self.limits.changes),
            logged_answer_refusals: Some(self.limits.logged_refusals),
            sealed: req.sealed,
            match_id: Some(id.clone()),
            ..MatchConfig::new(&req.game)
        };
        if let Some(seat) = req.advantage {
            config.advantage = Some(seat);
        }
        // Refuse bad games, options and time controls before anything is stored.
        let mut game =
            Match::new(config.clone()).map_err(|e| ApiError::bad_request(e.to_string()))?;
        // Chance: a practice seed from the creator, or a server seed committed to now, with the
        // public setup (fairness version 2), and mixed with the human seats' client seeds once
        // both have committed to theirs and revealed them. Until then the match runs on a
        // throwaway seed (nothing is played or stored before the start). Bot seats have no
        // client seed: the server makes none for anyone.
        let fairness = (!practice).then(|| {
            let server_seed = random_hex(32);
            colosseum_engine::Fairness::committed(public_setup(&config), &server_seed)
        });
        let seed = match (&req.seed, &fairness) {
            (Some(seed), _) => *seed,
            (None, Some(fair)) if is_bot(0) && is_bot(1) => fair.match_seed().unwrap_or(0),
            _ => rand::rngs::OsRng.try_next_u64().unwrap_or(0),
        };
        if seed != config.seed {
            config.seed = seed;
            game = Match::new(config.clone()).map_err(|e| ApiError::bad_request(e.to_string()))?;
        }
        let tokens = [0, 1].map(|i| (!is_bot(i)).then(|| random_hex(16)));
        let now = self.clock.now_ms();
        let joined = [is_bot(0), is_bot(1)];
        let meta = StoredMatch {
            id,
            config,
            tokens: tokens.clone(),
            joined,
            names: [0, 1].map(|i| match &seats[i] {
                Player::Human { name } => name.clone(),
                Player::Bot { level } => Some(
                    req.bot_names[i]
                        .clone()
                        .unwrap_or_else(|| format!("bot {level}")),
                ),
            }),
            created_at: now,
            started_at: (joined == [true, true]).then_some(now),
            result: None,
            race_bot: req.race_bot,
            practice,
            fairness,
            tournament: req.tournament,
            webhook,
            rematch: None,
            share,
        };
        // Claimed before it is stored: another process looking for matches nobody serves
        // must not find this one.
        self.store
            .claim(&meta.id)
            .await
            .map_err(|e| ApiError::internal("claiming a match", e))?;
        self.store
            .create(&meta)
            .await
            .map_err(|e| ApiError::internal("creating a match", e))?;
        let id = meta.id.clone();
        tracing::info!(match_id = %id, game = %meta.config.game, "match created");
        if meta.started_at.is_some() {
            tracing::info!(match_id = %id, game = %meta.config.game, "match started");
        }
        if light(&meta) {
            // Listed only: its table is made from the store at the first request for it.
            drop(game);
            self.list(&meta, true);
        } else {
            let table = self.install_match(meta, game, 0);
            {
                let mut st = table.state.lock().await;
                self.commit(&table, &mut st).await?;
            }
            self.start_timer(&table);
            self.announce(&table, None).await;
        }
        self.tell("created", &id).await;
        let links = json!({
            "p1": tokens[0].as_ref().map(|t| format!("/m/{id}#seat={t}")),
            "p2": tokens[1].as_ref().map(|t| format!("/m/{id}#seat={t}")),
            "spectator": format!("/m/{id}"),
        });
        Ok(Created { id, tokens, links })
    }

    /// The table `id`, from memory or the store.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found(format!(
                "no match `{}`",
                truncate(id, 64)
            )));
        }
        let known = match self.served(id) {
            Some(t) => Some(t),
            None => self.unfold(id).await?,
        };
        if let Some(t) = known {
            if self.expired(&t.state.lock().await.meta) {
                self.sweep_expired().await;
                return Err(self.expired_error());
            }
            return Ok(t);
        }
        if let Some((_, summary)) = self
            .quarantine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
        {
            return Err(quarantined_error(id, summary));
        }
        let gone = self
            .gone_seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
        if gone {
            // Its node is gone (just asked): most likely unfinished, so adopted at once. Any
            // other outcome (finished, expired, no such match, held elsewhere) is found out
            // below as for any match.
            self.adopt(id).await?;
            if let Some(table) = self.served(id) {
                return Ok(table);
            }
        }
        let (meta, log) = match self.store.load(id).await {
            Ok(Some(loaded)) => loaded,
            Ok(None) => return Err(ApiError::not_found(format!("no match `{id}`"))),
            Err(e @ StoreError::Corrupt { .. }) => {
                let broken = Broken {
                    summary: "its stored rows do not read".into(),
                    reason: e.to_string(),
                };
                return Err(self.set_aside(id, broken).await);
            }
            Err(e) => return Err(ApiError::internal("loading a match", e)),
        };
        if meta.finished() {
            return self.install(meta, &log).await;
        }
        if self.expired(&meta) {
            return Err(self.expired_error());
        }
        // An unfinished match this process does not serve yet (another process created it, or
        // served it and died): claim it, or say where it is.
        self.adopt(id).await?;
        if let Some(table) = self.served(id) {
            return Ok(table);
        }
        if let Some((_, summary)) = self
            .quarantine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
        {
            return Err(quarantined_error(id, summary));
        }
        Err(ApiError::conflict(
            ErrorCode::Elsewhere,
            "this match is served by another server process; connect to that one",
        ))
    }

    /// What the store holds about the match at `table` (configuration, seats, start, result):
    /// a copy, for the tournaments that follow their matches.
    pub async fn stored(&self, table: &Table) -> StoredMatch {
        table.state.lock().await.meta.clone()
    }

    /// A host's power over the match at `table` (`crate::tournaments` checks who may): logged
    /// in the match's log and stored before anyone is told, like a seat's action.
    pub async fn host_power(
        self: &Arc<Self>,
        table: &Arc<Table>,
        power: HostPower,
    ) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if st.meta.finished() {
            return Err(ApiError::conflict(ErrorCode::Over, "the match is over"));
        }
        let Some(start) = st.meta.started_at else {
            return Err(ApiError::conflict(
                ErrorCode::NotStarted,
                "the match has not started: both players must join first",
            ));
        };
        let now = self.clock.now_ms().saturating_sub(start);
        let result = match power.clone() {
            HostPower::Pause => st.game.pause(now),
            HostPower::Resume => {
                // A bot that was thinking when the match paused had its move refused: think
                // again for the pending decision.
                st.bot_busy = [None, None];
                st.game.resume(now)
            }
            HostPower::GiveTime { seat, ms } => st.game.give_time(seat, ms, now),
            HostPower::Adjudicate { winner, reason } => st.game.adjudicate(winner, &reason, now),
        };
        self.commit(table, &mut st).await?;
        // Announced on the match's webhook (`crate::webhooks::announce::host_action`).
        if let (Ok(_), Some((hook, post))) = (
            &result,
            crate::webhooks::announce::host_action(&st.meta, &power),
        ) {
            self.webhooks.post(&hook, post);
        }
        result.map_err(ApiError::from)
    }

    /// The chat webhooks' queues (`crate::webhooks`).
    pub fn webhooks(&self) -> &crate::webhooks::Webhooks {
        &self.webhooks
    }

    /// Sets (or with `None` removes) the webhook that announces the match at `table`, from its
    /// next event on; stored with the match.
    pub async fn set_webhook(
        self: &Arc<Self>,
        table: &Arc<Table>,
        webhook: Option<crate::webhooks::WebhookConfig>,
    ) -> Result<(), ApiError> {
        self.set_webhook_since(table, webhook, false).await
    }

    /// As [`Hub::set_webhook`], but announcing every step from the match's first, its result
    /// too if it is over: a Discord match's channel (`crate::discord::post::watch`), set as the
    /// match starts, by a task that may run after its first moves. Nothing if the match has
    /// this webhook already (after a restart its announcer goes on where it was).
    pub async fn set_webhook_from_start(
        self: &Arc<Self>,
        table: &Arc<Table>,
        webhook: crate::webhooks::WebhookConfig,
    ) -> Result<(), ApiError> {
        self.set_webhook_since(table, Some(webhook), true).await
    }

    async fn set_webhook_since(
        self: &Arc<Self>,
        table: &Arc<Table>,
        webhook: Option<crate::webhooks::WebhookConfig>,
        from_start: bool,
    ) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if st.meta.webhook == webhook || (st.meta.finished() && !from_start) {
            return Ok(());
        }
        st.meta.webhook = webhook;
        self.store
            .update(&st.meta)
            .await
            .map_err(|e| ApiError::internal("storing a match's webhook", e))?;
        // A match not started yet is announced from its start (with the start post).
        let seen = st.meta.started_at.filter(|_| !from_start).and_then(|_| {
            st.game
                .move_log(Viewer::Spectator)
                .last()
                .map(|l| (l.game, l.step))
        });
        let on = st.meta.webhook.is_some();
        drop(st);
        table.version.send_modify(|v| *v += 1);
        if on {
            self.announce(table, seen).await;
        }
        Ok(())
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

    /// What a spectator has seen of the match at `table` since move-log key `seen`
    /// ((game, step); `None`: from the start): the new move lines, each with the spectator's
    /// view of its game just after that step (replayed from the records, which hold only
    /// revealed steps), the view now and the result. Nothing here is more than a spectator's
    /// state shows.
    pub async fn spectator_news(
        &self,
        table: &Table,
        seen: Option<(usize, usize)>,
    ) -> SpectatorNews {
        let st = table.state.lock().await;
        let lines: Vec<colosseum_host::MoveLine> = st
            .game
            .move_log(Viewer::Spectator)
            .into_iter()
            .filter(|l| seen.is_none_or(|k| (l.game, l.step) > k))
            .collect();
        let records = if lines.is_empty() {
            Vec::new()
        } else {
            st.game.records()
        };
        let now = (
            st.game.game().id().to_string(),
            st.game.game().view_json(Viewer::Spectator),
        );
        let news = SpectatorNews {
            webhook: st.meta.webhook.clone(),
            names: st.meta.names.clone(),
            bots: Seat::BOTH.map(|seat| match st.meta.config.player(seat) {
                Player::Bot { level } => Some(level.clone()),
                Player::Human { .. } => None,
            }),
            started: st.meta.started_at.is_some(),
            tournament: st.meta.tournament.clone(),
            lines: Vec::new(),
            now,
            result: st.meta.result.clone(),
            turn_ups: st
                .game
                .log()
                .iter()
                .enumerate()
                .filter_map(|(i, e)| match e {
                    colosseum_host::LogEntry::TurnUp {
                        seat,
                        turn_ms,
                        bank_ms,
                        ..
                    } => Some((i, *seat, *turn_ms, *bank_ms)),
                    _ => None,
                })
                .collect(),
        };
        drop(st);
        let mut out = Vec::with_capacity(lines.len());
        // One replay per game, taking the view after each step announced.
        let mut replaying: Option<(usize, Box<dyn colosseum_engine::AnyGame>, usize)> = None;
        for line in lines {
            let Some(record) = records.get(line.game.wrapping_sub(1)) else {
                continue;
            };
            if replaying
                .as_ref()
                .is_none_or(|(g, _, done)| *g != line.game || *done > line.step)
            {
                let Ok(entry) = colosseum_games::find(&record.game) else {
                    continue;
                };
                let Ok(game) = (entry.create)(&record.options) else {
                    continue;
                };
                replaying = Some((line.game, game, 0));
            }
            let (_, game, done) = replaying.as_mut().expect("set above");
            while *done <= line.step && *done < record.steps.len() {
                if game.apply(&record.steps[*done]).is_err() {
                    break;
                }
                *done += 1;
            }
            let view = game.view_json(Viewer::Spectator);
            out.push((line, game.id().to_string(), view));
        }
        SpectatorNews { lines: out, ..news }
    }

    /// Who `token` is at `table`: no token is a spectator; a seat's token is that seat; any other
    /// token is refused (it never silently becomes a spectator).
    pub async fn role(&self, table: &Table, token: Option<&str>) -> Result<Role, ApiError> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return Ok(Viewer::Spectator);
        };
        let st = table.state.lock().await;
        for seat in Seat::BOTH {
            if st.meta.tokens[seat.index()]
                .as_deref()
                .is_some_and(|t| same_secret(t, token))
            {
                return Ok(Viewer::Seat(seat));
            }
        }
        Err(ApiError::forbidden(
            "this token is not a seat of this match (an expired or mistyped link?)",
        ))
    }

    /// `seat` does `action` at `table`, for whatever decision is pending when it is taken: for
    /// callers in this process that act on the state they hold (tests, benchmarks), never for
    /// a transport, whose clients must name the decision ([`Hub::act_on`]).
    pub async fn act(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        action: Action,
    ) -> Result<(), ApiError> {
        self.act_for(table, seat, action, ForDecision::Pending)
            .await
    }

    /// `seat` does `action` at `table`. `decision` is the pending decision the seat saw (the
    /// state's `decision`): if another is pending now, nothing happens and the answer is 409
    /// `stale_decision`, so a move is never applied to a decision it was not meant for. A move,
    /// lock, commitment or opening without it is refused with 409 `decision_required` (naming
    /// the pending decision), an answer without its `race` with 409 `race_required`; a join or
    /// resignation needs neither.
    pub async fn act_on(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        action: Action,
        decision: Option<u64>,
    ) -> Result<(), ApiError> {
        let decision = decision.map_or(ForDecision::Missing, ForDecision::Is);
        self.act_for(table, seat, action, decision).await
    }

    /// After a join or a reveal: starts the match if every seat is in (and every human seat has
    /// revealed its client seed), stores the match's row and tells the other nodes. `what`
    /// names the write in an error.
    async fn start_if_ready(
        &self,
        table: &Table,
        st: &mut TableState,
        what: &'static str,
    ) -> Result<(), ApiError> {
        if st.meta.started_at.is_none() && self.ready_to_start(&st.meta) {
            st.meta.started_at = Some(self.clock.now_ms());
            self.start_with_fair_seed(st)?;
            tracing::info!(match_id = %table.id, game = %st.meta.config.game, "match started");
        }
        self.store
            .update(&st.meta)
            .await
            .map_err(|e| ApiError::internal(what, e))?;
        self.tell("joined", &table.id).await;
        Ok(())
    }

    async fn act_for(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        action: Action,
        decision: ForDecision,
    ) -> Result<(), ApiError> {
        // A measurement for /metrics only (the reveal latency), never a match's time: that is
        // the injected clock's (`crate::clock`).
        let arrived = std::time::Instant::now();
        let mut st = table.state.lock().await;
        if st.meta.finished() {
            return Err(ApiError::conflict(ErrorCode::Over, "the match is over"));
        }
        if self.expired(&st.meta) {
            return Err(self.expired_error());
        }
        let action = match action {
            Action::Join(name) => Action::JoinSeeded {
                name,
                client_seed: None,
                client_seed_hash: None,
            },
            other => other,
        };
        let result = match action {
            Action::Join(_) => unreachable!("made a JoinSeeded above"),
            Action::Reveal(seed) => {
                self.reveal_client_seed(&mut st, seat, seed)?;
                self.start_if_ready(table, &mut st, "storing a reveal")
                    .await?;
                Ok(())
            }
            Action::JoinSeeded {
                name,
                client_seed,
                client_seed_hash,
            } => {
                let name = name.as_deref().map(check_name).transpose()?;
                if let (Some(n), Some(theirs)) = (&name, &st.meta.names[seat.other().index()]) {
                    if same_name(n, theirs) {
                        return Err(ApiError::bad_request(format!(
                            "`{n}` reads as `{theirs}`, the other seat's name: names differ \
                             within a match as people read them (case and look-alike letters \
                             aside)"
                        )));
                    }
                }
                self.take_client_seed(&mut st, seat, client_seed, client_seed_hash)?;
                st.meta.joined[seat.index()] = true;
                if name.is_some() {
                    st.meta.names[seat.index()] = name;
                }
                self.start_if_ready(table, &mut st, "storing a join")
                    .await?;
                Ok(())
            }
            other => {
                let Some(start) = st.meta.started_at else {
                    return Err(ApiError::conflict(
                        ErrorCode::NotStarted,
                        "the match starts when both players have joined",
                    ));
                };
                let now = self.clock.now_ms().saturating_sub(start);
                let pending = st.game.decision();
                let asked = match decision {
                    ForDecision::Pending => None,
                    ForDecision::Is(d) => Some(d),
                    ForDecision::Missing => match other {
                        Action::Submit(_)
                        | Action::Lock
                        | Action::Commit(_)
                        | Action::Open { .. } => {
                            return Err(ApiError::conflict(
                                ErrorCode::DecisionRequired,
                                format!(
                                    "a move, lock, commitment or opening names the decision it is for: send \
                                     `\"decision\": {pending}` (the state's `decision`) with it, so that one \
                                     arriving after that decision is settled is refused instead of being taken \
                                     for the next; nothing was changed"
                                ),
                            ));
                        }
                        Action::Answer { race: None, .. } if st.game.race().is_some() => {
                            return Err(ApiError::conflict(
                                ErrorCode::RaceRequired,
                                "an answer names the race it is for: send `\"race\"` (the state's \
                                 `race.opened_at`) with it, so that one arriving after that race is \
                                 over is refused instead of being judged against the next question; \
                                 nothing was changed",
                            ));
                        }
                        _ => None,
                    },
                };
                if let Some(asked) = asked {
                    if asked != pending {
                        return Err(ApiError::conflict(ErrorCode::StaleDecision,
                            format!(
                                "this was sent for decision {asked}, but the pending decision is {pending}: \
                                 decision {asked} is {}; nothing was changed, look at the new state and move again",
                                if asked < pending { "over" } else { "not reached yet" }
                            ),
                        ));
                    }
                }
                match other {
                    Action::Submit(text) => {
                        if text.len() > MAX_TEXT {
                            return Err(ApiError::bad_request(format!(
                                "a move has at most {MAX_TEXT} bytes"
                            )));
                        }
                        st.game.submit(seat, &text, now)
                    }
                    Action::Lock => st.game.lock(seat, now),
                    Action::Commit(hash) => {
                        if hash.len() > MAX_TEXT {
                            return Err(ApiError::bad_request(
                                "a commitment is 64 lowercase hex characters",
                            ));
                        }
                        st.game.commit(seat, &hash, now)
                    }
                    Action::Open { text, nonce } => {
                        if text.len() > MAX_TEXT || nonce.len() > MAX_TEXT {
                            return Err(ApiError::bad_request(format!(
                                "a move has at most {MAX_TEXT} bytes, a nonce 128 hex characters"
                            )));
                        }
                        st.game.open(seat, &text, &nonce, now)
                    }
                    Action::Answer { text, race } => {
                        if text.len() > MAX_TEXT {
                            return Err(ApiError::bad_request(format!(
                                "an answer has at most {MAX_TEXT} bytes"
                            )));
                        }
                        match race {
                            Some(r) => st.game.answer_to(seat, r, &text, now),
                            None => st.game.answer(seat, &text, now),
                        }
                        .map(|_| ())
                    }
                    Action::Resign => st.game.resign(seat, now),
                    Action::Join(_) | Action::JoinSeeded { .. } | Action::Reveal(_) => {
                        unreachable!("handled above")
                    }
                }
            }
        };
        // A refused move is logged too: store it before answering.
        let before = st.persisted;
        self.commit(table, &mut st).await?;
        if st.game.log()[before.min(st.game.log().len())..]
            .iter()
            .any(|e| matches!(e, LogEntry::Revealed { .. }))
        {
            crate::metrics::Metrics::observe(&self.metrics.reveal_latency, arrived.elapsed());
        }
        result.map_err(ApiError::from)
    }

    /// Takes `seat`'s commitment to its client seed at its join (fairness version 2), or, in a
    /// match stored before (version 1), its client seed as then: checked, fixed once the match
    /// has started. The server never makes a seat's client seed.
    fn take_client_seed(
        &self,
        st: &mut TableState,
        seat: Seat,
        client_seed: Option<String>,
        client_seed_hash: Option<String>,
    ) -> Result<(), ApiError> {
        let started = st.meta.started_at.is_some();
        // A practice match (the creator chose the seed) takes no client seeds: one sent
        // changes nothing, and the state says `practice`.
        let Some(fair) = st.meta.fairness.as_mut() else {
            return Ok(());
        };
        if fair.version < 2 {
            // A match created before client seeds were committed: as it was then.
            if let Some(given) = &client_seed {
                colosseum_engine::fair::check_client_seed(given)
                    .map_err(|e| ApiError::bad_request(e.to_string()))?;
            }
            return match (fair.client_seeds.get(seat), client_seed) {
                (Some(had), Some(given)) if started && had != given => Err(ApiError::conflict(
                    ErrorCode::SeedFixed,
                    "the match has started: your client seed is fixed (it is in the state's `fairness`)",
                )),
                (_, Some(given)) if !started => {
                    fair.client_seeds.set(seat, Some(given));
                    Ok(())
                }
                (None, _) => {
                    fair.client_seeds.set(seat, Some(random_hex(16)));
                    Ok(())
                }
                _ => Ok(()),
            };
        }
        if fair.is_bot(seat) {
            return Ok(());
        }
        if client_seed.is_some() {
            return Err(ApiError::new(
                ErrorCode::SeedHashRequired,
                "a client seed is not sent at the join, where the other seat (or the server) could \
                 choose theirs knowing it: send `client_seed_hash`, the SHA-256 (64 lowercase hex \
                 characters) of a random client seed of 16 to 64 characters of A-Z a-z 0-9 _ . -, \
                 and reveal the seed (`reveal`) once both seats have committed",
            ));
        }
        let had = fair.client_seed_hashes.get(seat).map(str::to_string);
        match (had, client_seed_hash) {
            (None, None) => Err(ApiError::new(
                ErrorCode::SeedHashRequired,
                "this match's chance is provably fair: join with `client_seed_hash`, the SHA-256 \
                 (64 lowercase hex characters) of a random client seed of 16 to 64 characters of \
                 A-Z a-z 0-9 _ . -, and reveal the seed (`reveal`) once both seats have committed",
            )),
            // Joining again (a reload) keeps the commitment.
            (Some(_), None) => Ok(()),
            (had, Some(hash)) => {
                if !colosseum_engine::fair::is_sha256_hex(&hash) {
                    return Err(ApiError::bad_request(format!(
                        "`client_seed_hash` is the SHA-256 of your client seed in 64 lowercase hex \
                         characters; got `{}`",
                        truncate(&hash, 80)
                    )));
                }
                let other = seat.other();
                let other_in = fair.is_bot(other) || fair.client_seed_hashes.get(other).is_some();
                match had {
                    Some(h) if h == hash => Ok(()),
                    // Once both are in, reveals may have begun: a commitment is binding.
                    Some(_) if other_in || started => Err(ApiError::conflict(
                        ErrorCode::SeedFixed,
                        "both seats have committed to their client seeds: yours is fixed (its hash \
                         is in the state's `fairness.client_seed_hashes`); reveal the seed it \
                         commits to",
                    )),
                    _ => {
                        fair.client_seed_hashes.set(seat, Some(hash));
                        Ok(())
                    }
                }
            }
        }
    }

    /// Takes `seat`'s revealed client seed (fairness version 2): only once both seats have
    /// joined and committed, and only the seed that hashes to its commitment.
    fn reveal_client_seed(
        &self,
        st: &mut TableState,
        seat: Seat,
        seed: String,
    ) -> Result<(), ApiError> {
        let joined = st.meta.joined;
        let Some(fair) = st.meta.fairness.as_mut().filter(|f| f.version >= 2) else {
            return Err(ApiError::conflict(
                ErrorCode::RevealNotDue,
                "this match takes no client seed reveals (a practice match, or one created \
                 before client seeds were committed)",
            ));
        };
        if fair.is_bot(seat) {
            return Err(ApiError::bad_request("a bot seat has no client seed"));
        }
        let Some(committed) = fair.client_seed_hashes.get(seat).map(str::to_string) else {
            return Err(ApiError::conflict(
                ErrorCode::RevealNotDue,
                "join with `client_seed_hash` first: a reveal opens that commitment",
            ));
        };
        if let Some(had) = fair.client_seeds.get(seat) {
            return if had == seed {
                Ok(())
            } else {
                Err(ApiError::conflict(
                    ErrorCode::SeedFixed,
                    "your client seed is revealed already and fixed",
                ))
            };
        }
        let other = seat.other();
        let other_in = fair.is_bot(other)
            || (joined[other.index()] && fair.client_seed_hashes.get(other).is_some());
        if !other_in {
            return Err(ApiError::conflict(
                ErrorCode::RevealNotDue,
                "the other seat has not committed to its client seed yet: reveal yours once the \
                 state's `fairness.reveal_due` is true, so that nobody chooses a seed knowing it",
            ));
        }
        colosseum_engine::fair::check_revealed_seed(&seed).map_err(|_| {
            ApiError::bad_request(format!(
                "a client seed is {} to {} characters of A-Z, a-z, 0-9, `_`, `.` and `-`; got `{}`",
                colosseum_engine::fair::MIN_CLIENT_SEED,
                colosseum_engine::fair::MAX_CLIENT_SEED,
                truncate(&seed, 80)
            ))
        })?;
        let hash = colosseum_engine::fair::client_seed_hash(&seed);
        if hash != committed {
            return Err(ApiError::new(
                ErrorCode::SeedMismatch,
                format!(
                    "the SHA-256 of this client seed is {hash}, not your commitment {committed}: \
                     reveal the seed you committed to"
                ),
            ));
        }
        fair.client_seeds.set(seat, Some(seed));
        Ok(())
    }

    /// Whether a waiting match can start: both seats have joined and, in a version 2 match,
    /// every human seat has revealed its client seed.
    fn ready_to_start(&self, meta: &StoredMatch) -> bool {
        meta.joined == [true, true] && meta.seeds_revealed()
    }

    /// At the start: the match seed from the committed server seed and both client seeds, and
    /// the match made again from it (nothing of the throwaway one was stored or shown).
    /// A practice match (and one stored before provably fair chance) keeps the match it was
    /// created with: its seed was known from the start.
    fn start_with_fair_seed(&self, st: &mut TableState) -> Result<(), ApiError> {
        let Some(fair) = &st.meta.fairness else {
            return Ok(());
        };
        st.meta.config.seed = fair
            .match_seed()
            .map_err(|e| ApiError::internal("deriving the match seed", e))?;
        st.game = Match::new(st.meta.config.clone())
            .map_err(|e| ApiError::internal("starting the match", e))?;
        st.persisted = 0;
        // Another match: nothing rendered from the throwaway one is kept.
        st.rendered.clear();
        Ok(())
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

    fn start_bots(self: &Arc<Self>, table: &Arc<Table>, st: &mut TableState) {
        // A paused match takes no move: its bots start again when it resumes.
        if st.meta.finished() || st.meta.started_at.is_none() || st.game.paused() {
            return;
        }
        self.start_race_bots(table, st);
        let pending = st.game.game().pending();
        let key = (st.game.game_number(), st.game.record().steps.len());
        self.commit_bot_moves(table, st, key);
        self.open_bot_commitments(table, st, key);
        for seat in Seat::BOTH {
            let Player::Bot { level } = st.meta.config.player(seat) else {
                continue;
            };
            if !pending.includes(seat)
                || st.game.submission(seat).is_some()
                || st.game.commitment(seat).is_some()
                || st.bot_busy[seat.index()] == Some(key)
            {
                continue;
            }
            st.bot_busy[seat.index()] = Some(key);
            let level = level.clone();
            let record = st.game.record().clone();
            let seed = crate::verify::bot_seed(st.meta.config.seed, key.0, key.1, seat);
            let decision = st.game.decision();
            let share = match_share(&st.meta);
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                // At most `Limits::bot_searches` searches run at once; the others queue here,
                // each in its share's turn (`crate::pool`), the bot's clock held meanwhile: it
                // is charged only the time it thinks.
                let permit = match hub.pool.try_acquire(&share, crate::pool::Kind::Search) {
                    Some(p) => p,
                    None => {
                        hub.bot_clock(&table, seat, key, true).await;
                        // A measurement for /metrics only (the wait for a search slot).
                        let waiting = std::time::Instant::now();
                        let Some(p) = hub.pool.acquire(&share, crate::pool::Kind::Search).await
                        else {
                            return;
                        };
                        crate::metrics::Metrics::observe(&hub.metrics.bot_wait, waiting.elapsed());
                        p
                    }
                };
                // Held now or before a restart: it runs again from here.
                hub.bot_clock(&table, seat, key, false).await;
                let still = {
                    let st = table.state.lock().await;
                    (st.game.game_number(), st.game.record().steps.len()) == key
                        && !st.meta.finished()
                };
                if !still {
                    return;
                }
                let game = record.game.clone();
                let (max_ms, max_iters) = (hub.limits.bot_max_ms, hub.limits.bot_max_iters);
                let search = tokio::task::spawn_blocking(move || {
                    // The slot is free once the search is done.
                    let _permit = permit;
                    let spec = check_bot_level_within(&game, &level, max_ms, max_iters)
                        .map_err(|e| e.message)?;
                    let bots = bots::find(&game).map_err(|e| e.to_string())?;
                    let mut player = bots
                        .seat_player(&record.options, &spec, seed)
                        .map_err(|e| e.to_string())?;
                    for step in &record.steps {
                        player.observe(step).map_err(|e| e.to_string())?;
                    }
                    Ok::<String, String>(player.choose(seat))
                });
                // The server stops: the move is not made (it is chosen again when the match is
                // resumed).
                let chosen = tokio::select! {
                    chosen = search => chosen,
                    () = hub.pool.closed() => return,
                };
                let mv = match chosen {
                    Ok(Ok(mv)) => mv,
                    Ok(Err(e)) => {
                        tracing::error!("bot in match {}: {e}", table.id);
                        return;
                    }
                    Err(e) => {
                        tracing::error!("bot in match {} panicked: {e}", table.id);
                        return;
                    }
                };
                let (still, sealed) = {
                    let mut st = table.state.lock().await;
                    let still = (st.game.game_number(), st.game.record().steps.len()) == key
                        && !st.meta.finished();
                    let sealed = still && st.game.sealed_phase() == Some(SealedPhase::Commit);
                    if sealed {
                        st.bot_sealed[seat.index()] = Some(BotOpening {
                            key,
                            text: mv.clone(),
                            nonce: random_hex(16),
                            committing: false,
                        });
                        hub.commit_bot_moves(&table, &mut st, key);
                    }
                    (still, sealed)
                };
                // A sealed move is committed by `commit_bot_moves`, now or once the other seat
                // is in.
                if still && !sealed {
                    if let Err(e) = hub
                        .act_on(&table, seat, Action::Submit(mv.clone()), Some(decision))
                        .await
                    {
                        tracing::warn!("bot move `{mv}` in match {}: {e}", table.id);
                    }
                }
            });
        }
    }

    /// Sealed matches: a bot seat that has chosen commits. In a timed match at once (its
    /// deadline runs); in an untimed one only once the other seat is in, so that its opening
    /// follows at once and a restart can hardly fall between the two (a bot's opening lives in
    /// memory only, and an untimed decision has no deadline to end it).
    fn commit_bot_moves(
        self: &Arc<Self>,
        table: &Arc<Table>,
        st: &mut TableState,
        key: (usize, usize),
    ) {
        if st.game.sealed_phase() != Some(SealedPhase::Commit) {
            return;
        }
        let timed = st.game.time_control().clocks().is_some();
        for seat in Seat::BOTH {
            let other_in = st.game.commitment(seat.other()).is_some()
                || st.game.submission(seat.other()).is_some();
            if st.game.commitment(seat).is_some()
                || st.game.submission(seat).is_some()
                || !(timed || other_in)
            {
                continue;
            }
            let Some(kept) = st.bot_sealed[seat.index()]
                .as_mut()
                .filter(|k| k.key == key && !k.committing)
            else {
                continue;
            };
            kept.committing = true;
            let hash = st.game.seal(seat, &kept.text, &kept.nonce);
            let decision = st.game.decision();
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                let commit = Action::Commit(hash);
                if let Err(e) = hub.act_on(&table, seat, commit, Some(decision)).await {
                    tracing::warn!("bot commitment in match {}: {e}", table.id);
                }
            });
        }
    }

    /// Sealed matches: once the openings begin, each bot seat that committed opens with the
    /// move and nonce it kept.
    fn open_bot_commitments(
        self: &Arc<Self>,
        table: &Arc<Table>,
        st: &mut TableState,
        key: (usize, usize),
    ) {
        if st.game.sealed_phase() != Some(SealedPhase::Open) {
            return;
        }
        for seat in Seat::BOTH {
            let i = seat.index();
            if st.game.commitment(seat).is_none() || st.game.submission(seat).is_some() {
                continue;
            }
            let Some(BotOpening {
                key: k,
                text,
                nonce,
                ..
            }) = st.bot_sealed[i].take()
            else {
                continue;
            };
            if k != key {
                continue;
            }
            let decision = st.game.decision();
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                let open = Action::Open { text, nonce };
                if let Err(e) = hub.act_on(&table, seat, open, Some(decision)).await {
                    tracing::warn!("bot opening in match {}: {e}", table.id);
                }
            });
        }
    }

    /// Bot seats answer an open trivia race: after their answer time (counted from the question,
    /// or from the end of their lockout) they answer, right with the configured accuracy.
    fn start_race_bots(self: &Arc<Self>, table: &Arc<Table>, st: &mut TableState) {
        let Some(race) = st.game.race().filter(|r| !r.is_over()) else {
            return;
        };
        let Some(start) = st.meta.started_at else {
            return;
        };
        let question = race.question().clone();
        let opened = race.opened_at();
        let decoys: Vec<colosseum_trivia::Question> = st
            .game
            .bank()
            .map(|b| b.questions().to_vec())
            .unwrap_or_default();
        let settings = st.meta.race_bot.unwrap_or(DEFAULT_RACE_BOT);
        for seat in Seat::BOTH {
            if !matches!(st.meta.config.player(seat), Player::Bot { .. }) {
                continue;
            }
            let from = race.lockout_until(seat).unwrap_or(opened).max(opened);
            let key = (opened, from);
            if st.race_busy[seat.index()] == Some(key) {
                continue;
            }
            st.race_busy[seat.index()] = Some(key);
            let seed = st.meta.config.seed ^ from.rotate_left(17) ^ (seat.index() as u64);
            let mut rng = BotAnswerer::rng(seed);
            let answer = settings.answer(&question, &decoys, &mut rng);
            let at_wall = start + from + answer.delay_ms;
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                let wait = at_wall.saturating_sub(hub.clock.now_ms());
                tokio::time::sleep(Duration::from_millis(wait)).await;
                let action = Action::Answer {
                    text: answer.text,
                    race: Some(opened),
                };
                // Refusals (the race is over, the bot was too late) are expected and harmless.
                if let Err(e) = hub.act(&table, seat, action).await {
                    tracing::debug!("race bot in match {}: {e}", table.id);
                }
            });
        }
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

    /// The message a connection of `role` is sent: everything built from the match's view for
    /// that role.
    pub async fn state(&self, table: &Table, role: Role) -> Value {
        serde_json::from_str(&self.state_text(table, role).await).expect("a rendered state is JSON")
    }

    /// The message a connection of `role` is sent, as JSON text (what [`Hub::state`] parses).
    pub async fn state_text(&self, table: &Table, role: Role) -> String {
        let rendered = self.state_rendered(table, role).await;
        crate::render::with_server_now(&rendered.text, self.clock.now_ms())
    }

    /// The state message of `role` as text without `server_now` (`crate::render`): rendered
    /// once per viewer kind and table version, shared by every connection of the kind. Equal
    /// `content` numbers mean equal messages (the times aside).
    pub async fn state_rendered(&self, table: &Table, role: Role) -> crate::render::Rendered {
        let mut st = table.state.lock().await;
        // Read under the table's lock: a change bumps the version before it unlocks.
        let version = *table.version.borrow();
        let mut cache = std::mem::take(&mut st.rendered);
        let rendered = cache.get(role, version, |log| {
            (
                self.state_message(&st, &table.id, role),
                st.game.view_text(role, log),
            )
        });
        st.rendered = cache;
        rendered
    }

    /// The server's clock (ms since the Unix epoch), the `server_now` of a state.
    pub fn server_now(&self) -> u64 {
        self.clock.now_ms()
    }

    fn state_message(&self, st: &TableState, id: &str, role: Role) -> crate::render::StateMessage {
        let status = if st.meta.finished() {
            "finished"
        } else if st.meta.started_at.is_some() {
            "live"
        } else {
            "waiting"
        };
        let legal = match role {
            Viewer::Seat(seat)
                if st.meta.started_at.is_some()
                    && !st.meta.finished()
                    && st.game.game().pending().includes(seat) =>
            {
                let moves = st.game.game().legal_moves(seat);
                (moves.len() <= MAX_LEGAL_SENT).then_some(moves)
            }
            _ => None,
        };
        crate::render::StateMessage {
            kind: "state",
            id: id.to_string(),
            status,
            you: match role {
                Viewer::Seat(s) => Some(s),
                Viewer::Spectator => None,
            },
            joined: colosseum_engine::SeatPair {
                p1: st.meta.joined[0],
                p2: st.meta.joined[1],
            },
            names: colosseum_engine::SeatPair {
                p1: st.meta.names[0].clone(),
                p2: st.meta.names[1].clone(),
            },
            created_at: st.meta.created_at,
            started_at: st.meta.started_at,
            legal_moves: legal,
            steps: st.game.record().steps.len(),
            decision: st.game.decision(),
            practice: st.meta.practice,
            fairness: fairness_view(&st.meta),
            tournament: st.meta.tournament.clone(),
            paused: st.game.paused(),
            rematch: rematch_view(st.meta.rematch.as_ref(), role),
        }
    }

    /// A rematch of the finished match at `table`, offered by `seat`: a new match with the
    /// same game, options, time control, question bank and players' kinds (a bot keeps its
    /// level), the seats swapped, chance fresh. The first offer is kept in the finished match
    /// (stored with it) and every later call, by either seat, gets the same new match: both
    /// players' tables show it (`rematch` in their states, each with its own seat link).
    /// Returns the new match's id and links (both seats', as creating a match does).
    pub async fn rematch(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
    ) -> Result<Created, ApiError> {
        let mut st = table.state.lock().await;
        if !st.meta.finished() {
            return Err(ApiError::conflict(
                ErrorCode::NotFinished,
                "a rematch is offered once the match is over",
            ));
        }
        if st.meta.rematch.is_none() && self.shared() {
            // A finished match is claimed by nobody: another process may have stored an offer
            // since this one read the match.
            if let Ok(Some((stored, _))) = self.store.load(&table.id).await {
                if stored.rematch.is_some() {
                    st.meta.rematch = stored.rematch;
                    table.version.send_modify(|v| *v += 1);
                }
            }
        }
        if st.meta.rematch.is_none() {
            let config = &st.meta.config;
            // A person keeps the name they played under; a bot its level.
            let fresh = |seat: Seat| match config.player(seat) {
                Player::Bot { level } => Player::Bot {
                    level: level.clone(),
                },
                Player::Human { .. } => Player::Human {
                    name: st.meta.names[seat.index()].clone(),
                },
            };
            let req = CreateMatch {
                game: config.game.clone(),
                options: config.options.clone(),
                seed: None,
                seats: Some([fresh(Seat::P2), fresh(Seat::P1)]),
                time: config.time.clone(),
                replay_on_draw: config.replay_on_draw,
                trivia: config.trivia.clone(),
                race_bot: st.meta.race_bot,
                sealed: config.sealed,
                advantage: None,
                tournament: None,
                bot_names: [None, None],
                webhook: None,
            };
            let created = self.create_for(req, st.meta.share.clone()).await?;
            let mut offered = st.meta.clone();
            offered.rematch = Some(crate::store::RematchOffer {
                id: created.id,
                by: seat,
                tokens: created.tokens,
            });
            let first = self
                .store
                .offer_rematch(&offered)
                .await
                .map_err(|e| ApiError::internal("storing the rematch", e))?;
            if first {
                st.meta = offered;
                tracing::info!(match_id = %table.id, by = %seat, "rematch offered");
            } else {
                // Another process stored its offer in between: that one stands (the match
                // created here is left waiting, and expires unjoined).
                let stored = self
                    .store
                    .load(&table.id)
                    .await
                    .map_err(|e| ApiError::internal("reading the rematch", e))?
                    .and_then(|(stored, _)| stored.rematch)
                    .ok_or_else(|| {
                        ApiError::internal("reading the rematch", "the stored offer is gone")
                    })?;
                tracing::warn!(match_id = %table.id, spare = %offered.rematch.as_ref().map_or("", |r| r.id.as_str()), "rematch offered by another process at the same moment: theirs stands");
                st.meta.rematch = Some(stored);
            }
            table.version.send_modify(|v| *v += 1);
        }
        let offer = st.meta.rematch.as_ref().expect("set above");
        let id = offer.id.clone();
        let link = |t: &Option<String>| t.as_ref().map(|t| format!("/m/{id}#seat={t}"));
        Ok(Created {
            links: json!({
                "p1": link(&offer.tokens[0]),
                "p2": link(&offer.tokens[1]),
                "spectator": format!("/m/{id}"),
            }),
            tokens: offer.tokens.clone(),
            id: id.clone(),
        })
    }

    /// `role` writes `text` in the match's chat: a seat in the players' chat (its name is the
    /// seat's, `name` is ignored), a spectator in the spectators' chat under `name` (checked as
    /// seats' names are, and not a seat's name). From the start on, and after the end too (a
    /// "gg"; 409 `not_started` before both have joined); at most `max_lines` messages a match
    /// (then 409 `chat_full`). Stored like every event before anyone is told; the record
    /// published at the end carries the lines written after it as well.
    pub async fn chat(
        self: &Arc<Self>,
        table: &Arc<Table>,
        role: Role,
        name: Option<String>,
        text: String,
        max_lines: usize,
    ) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if self.expired(&st.meta) {
            return Err(self.expired_error());
        }
        let Some(start) = st.meta.started_at else {
            return Err(ApiError::conflict(
                ErrorCode::NotStarted,
                "the chat opens when both players have joined",
            ));
        };
        if text.len() > MAX_TEXT {
            return Err(ApiError::bad_request(format!(
                "a chat message has at most {} characters",
                colosseum_host::MAX_CHAT_CHARS
            )));
        }
        if st.game.chat_lines().len() >= max_lines {
            return Err(ApiError::conflict(
                ErrorCode::ChatFull,
                format!("this match's chat is full ({max_lines} messages)"),
            ));
        }
        let name = match role {
            Viewer::Seat(seat) => st.meta.names[seat.index()]
                .clone()
                .unwrap_or_else(|| seat.to_string()),
            Viewer::Spectator => {
                let Some(name) = name else {
                    return Err(ApiError::bad_request(
                        "a spectator's chat message needs a `name` (1 to 40 characters)",
                    ));
                };
                let name = check_name(&name)?;
                if st.meta.names.iter().flatten().any(|n| same_name(n, &name)) {
                    return Err(ApiError::bad_request(format!(
                        "`{name}` is a player's name in this match: spectators chat under their own"
                    )));
                }
                name
            }
        };
        let now = self.clock.now_ms().saturating_sub(start);
        let result = st.game.chat(role, &name, &text, now);
        self.commit(table, &mut st).await?;
        result.map_err(ApiError::from)
    }

    /// A uniformly random legal move for `seat` now, or `None` if it has none. For tests only:
    /// it reads the full state, so it must never be sent to a client. Only with the `test-util`
    /// feature, which the crate's tests turn on.
    #[cfg(feature = "test-util")]
    pub async fn random_move_for_tests(
        &self,
        table: &Table,
        seat: Seat,
        seed: u64,
    ) -> Option<String> {
        let st = table.state.lock().await;
        let mut rng = colosseum_engine::seeded_rng(seed);
        st.game.game().random_move(seat, &mut rng)
    }

    /// A receiver that changes whenever the table does.
    pub fn subscribe(table: &Table) -> watch::Receiver<u64> {
        table.version.subscribe()
    }

    /// The lobby: open and live matches (newest first), `limit` of them from `offset` on (the
    /// limit is capped at `Limits::lobby_page_max`), then recent finished ones. `next` is the
    /// path of the next page, or `null` on the last. A waiting match is listed only while it is
    /// fresh (`Limits::lobby_waiting_ms`, 10 minutes by default); expired ones leave memory too.
    pub async fn lobby(self: &Arc<Self>, offset: usize, limit: usize) -> Result<Value, ApiError> {
        self.sweep_expired().await;
        let limit = limit.clamp(1, self.limits.lobby_page_max.max(1));
        let (open, total) = if self.shared() {
            // Every node's matches, as the shared store has them: the page only.
            let page = self.open_page(offset, limit).await?;
            (page.0.iter().map(summary).collect::<Vec<_>>(), page.1)
        } else {
            // This node's, from the index kept as they change: the page only is read.
            let page = self.lobby.page(self.list_cutoff(), offset, limit);
            let open = page
                .summaries
                .iter()
                .map(|s| serde_json::from_str::<Value>(s))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| ApiError::internal("listing matches", e))?;
            (open, page.total)
        };
        let finished = self
            .store
            .recent_finished(50)
            .await
            .map_err(|e| ApiError::internal("listing matches", e))?;
        let end = offset.saturating_add(limit).min(total);
        let next = (end < total).then(|| format!("/api/matches?offset={end}&limit={limit}"));
        Ok(json!({
            "matches": open,
            "total": total,
            "offset": offset,
            "limit": limit,
            "next": next,
            "finished": finished.iter().map(summary).collect::<Vec<_>>(),
        }))
    }

    /// The records of a finished match (every game, a replayed draw first), or a conflict while
    /// it runs: a record holds chance a seat may not see yet.
    pub async fn records(&self, table: &Table) -> Result<Vec<colosseum_engine::Record>, ApiError> {
        let st = table.state.lock().await;
        if !st.meta.finished() {
            return Err(ApiError::conflict(
                ErrorCode::NotFinished,
                "the record is published when the match is over",
            ));
        }
        let mut records = st.game.records();
        for (i, record) in records.iter_mut().enumerate() {
            record.practice = st.meta.practice;
            record.chat = st
                .game
                .chat_lines()
                .iter()
                .filter(|(game, _)| *game == i)
                .map(|(_, line)| line.clone())
                .collect();
            if let Some(fair) = &st.meta.fairness {
                let mut fair = fair.clone();
                fair.defaults = st
                    .game
                    .defaults()
                    .iter()
                    .filter(|d| d.0 == i)
                    .map(|&(_, step, seat)| colosseum_engine::fair::DefaultMove { step, seat })
                    .collect();
                record.fairness = Some(fair);
            }
        }
        Ok(records)
    }

    /// A finished match as replay frames: for each game, the spectator's view before the first
    /// step and after each step, with the step.
    pub async fn replay(&self, table: &Table) -> Result<Value, ApiError> {
        let records = self.records(table).await?;
        let st = table.state.lock().await;
        let result = st.meta.result.clone();
        let names = st.meta.names.clone();
        let moves = st.game.move_log(Viewer::Spectator);
        drop(st);
        let mut games = Vec::new();
        for (i, record) in records.iter().enumerate() {
            let entry =
                colosseum_games::find(&record.game).map_err(|e| ApiError::internal("replay", e))?;
            let mut game =
                (entry.create)(&record.options).map_err(|e| ApiError::internal("replay", e))?;
            let mut frames = vec![
                json!({"step": Value::Null, "view": game.view_json(Viewer::Spectator), "text": game.render(Viewer::Spectator)}),
            ];
            for step in &record.steps {
                game.apply(step)
                    .map_err(|e| ApiError::internal("replay", e))?;
                frames.push(json!({
                    "step": step,
                    "view": game.view_json(Viewer::Spectator),
                    "text": game.render(Viewer::Spectator),
                }));
            }
            games.push(json!({
                "record": record,
                "moves": moves.iter().filter(|m| m.game == i + 1).collect::<Vec<_>>(),
                "frames": frames,
                "outcome": game.outcome(),
                "score": game.score(),
            }));
        }
        Ok(
            json!({"id": table.id, "names": {"p1": names[0], "p2": names[1]}, "result": result, "games": games}),
        )
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

impl<S: Store> Hub<S> {
    /// Trivia questions about a season of this server's finished matches ("Who won the Square
    /// Goofspiel match on day 3?"), with their answers and as a TOML bank for a live Cauldron.
    /// Each match's decisive game (the last, after a replayed draw) is asked about; players are
    /// named as they joined.
    pub async fn season_questions(self: &Arc<Self>, req: SeasonRequest) -> Result<Value, ApiError> {
        if req.matches.is_empty() || req.matches.len() > 200 {
            return Err(ApiError::bad_request("a season has 1 to 200 matches"));
        }
        let mut matches = Vec::new();
        for entry in &req.matches {
            let table = self.table(&entry.id).await?;
            let records = self.records(&table).await.map_err(|_| {
                ApiError::conflict(
                    ErrorCode::NotFinished,
                    format!("match {} ({}) is not over yet", entry.id, entry.label),
                )
            })?;
            let (names, result) = {
                let st = table.state.lock().await;
                (st.meta.names.clone(), st.meta.result.clone())
            };
            let record = records
                .last()
                .cloned()
                .ok_or_else(|| ApiError::internal("season", "a match without a record"))?;
            matches.push(colosseum_trivia::SeasonMatch {
                label: entry.label.clone(),
                record,
                players: names,
                // A resigned (or timed-out) match is finished though its record stops early.
                ended: result
                    .filter(|r| r.by != colosseum_host::EndKind::Game)
                    .map(|r| colosseum_trivia::MatchEnd {
                        winner: r.winner,
                        reason: r.reason,
                    }),
            });
        }
        let season = colosseum_trivia::Season {
            name: req.name,
            matches,
        };
        let questions = colosseum_trivia::season_questions(&season)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(json!({
            "season": season.name,
            "toml": colosseum_trivia::Bank::to_toml(&questions),
            "questions": questions,
        }))
    }
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

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
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

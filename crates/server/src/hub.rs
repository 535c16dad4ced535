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
use std::sync::{Arc, Mutex};
use std::time::Duration;

use colosseum_ai::registry::{self as bots, BotSpec};
use colosseum_engine::{RawOptions, Seat, Viewer};
use colosseum_host::{Match, MatchConfig, MatchError, Player, SealedPhase, TimeControl};
use colosseum_trivia::BotAnswerer;
use rand::TryRngCore;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{watch, Notify};

use crate::clock::Clock;
use crate::error::ApiError;
use crate::store::{Store, StoredMatch};

/// The largest budget a server bot may be given (a bot name is chosen by whoever creates the
/// match, so it must not be able to hold a core for minutes).
pub const MAX_BOT_MS: u64 = 10_000;
/// The largest iteration budget a server bot may be given.
pub const MAX_BOT_ITERS: u64 = 200_000;
/// The longest move or answer text accepted.
pub const MAX_TEXT: usize = 2_000;
/// The most legal moves sent with a state; beyond it a client types notation.
pub const MAX_LEGAL_SENT: usize = 400;

/// Who is asking: a seat (with its token) or a spectator.
pub type Role = Viewer;

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
    /// The seed; absent means a random one.
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
    /// Takes the seat, with a display name.
    Join(Option<String>),
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

/// The server's matches.
pub struct Hub<S: Store> {
    store: S,
    clock: Arc<dyn Clock>,
    tables: Mutex<HashMap<String, Arc<Table>>>,
    /// Whether tables run timer tasks (off in tests that move a manual clock and tick by hand).
    timers: bool,
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng
        .try_fill_bytes(&mut buf)
        .expect("the OS random source works");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares secrets in time independent of where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Checks a bot name for the server: the levels, bounded budgets, never a program.
pub fn check_bot_level(game: &str, level: &str) -> Result<BotSpec, ApiError> {
    let spec: BotSpec = level
        .parse()
        .map_err(|e: bots::BotSpecError| ApiError::bad_request(e.to_string()))?;
    match &spec {
        BotSpec::Command(_) => return Err(ApiError::bad_request(
            "cmd: bots cannot run on the server; use random, heuristic or mcts:easy|medium|hard",
        )),
        BotSpec::Mcts(config) => match config.budget {
            colosseum_ai::Budget::Time(d) if d.as_millis() > u128::from(MAX_BOT_MS) => {
                return Err(ApiError::bad_request(format!(
                    "a server bot may think at most {MAX_BOT_MS} ms a decision"
                )))
            }
            colosseum_ai::Budget::Iterations(n) if u64::from(n) > MAX_BOT_ITERS => {
                return Err(ApiError::bad_request(format!(
                    "a server bot may use at most {MAX_BOT_ITERS} iterations a decision"
                )))
            }
            _ => {}
        },
        _ => {}
    }
    bots::find(game).map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(spec)
}

impl<S: Store> Hub<S> {
    /// A hub over `store`, reading time from `clock`. Call [`Hub::resume`] next to bring back
    /// unfinished matches.
    pub fn new(store: S, clock: Arc<dyn Clock>, timers: bool) -> Arc<Self> {
        Arc::new(Hub {
            store,
            clock,
            tables: Mutex::new(HashMap::new()),
            timers,
        })
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
    pub async fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        let loaded = self
            .store
            .unfinished()
            .await
            .map_err(|e| ApiError::internal("loading unfinished matches", e))?;
        let mut n = 0;
        for (meta, log) in loaded {
            let id = meta.id.clone();
            if !self
                .store
                .claim(&id)
                .await
                .map_err(|e| ApiError::internal("claiming a match", e))?
            {
                tracing::info!("match {id} is served by another process");
                continue;
            }
            n += 1;
            let table = self.install(meta, &log)?;
            let mut st = table.state.lock().await;
            if let Some(start) = st.meta.started_at {
                let now = self.clock.now_ms().saturating_sub(start);
                st.game.tick(now);
            }
            self.commit(&table, &mut st).await?;
            drop(st);
            self.start_timer(&table);
            tracing::info!("resumed match {id}");
        }
        Ok(n)
    }

    fn install(
        self: &Arc<Self>,
        meta: StoredMatch,
        log: &[colosseum_host::LogEntry],
    ) -> Result<Arc<Table>, ApiError> {
        let game = Match::rebuild(meta.config.clone(), log)
            .map_err(|e| ApiError::internal(&format!("rebuilding match {}", meta.id), e))?;
        Ok(self.install_match(meta, game, log.len()))
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

    /// Creates a match.
    pub async fn create(self: &Arc<Self>, req: CreateMatch) -> Result<Created, ApiError> {
        let seats = req.seats.unwrap_or_default();
        for player in &seats {
            match player {
                Player::Bot { level } => {
                    check_bot_level(&req.game, level)?;
                }
                Player::Human { name: Some(n) } if n.chars().count() > 40 => {
                    return Err(ApiError::bad_request("a name has at most 40 characters"));
                }
                Player::Human { .. } => {}
            }
        }
        if let Some(bot) = &req.race_bot {
            bot.check()
                .map_err(|e| ApiError::bad_request(format!("race_bot: {e}")))?;
        }
        let config = MatchConfig {
            trivia: req.trivia,
            game: req.game.trim().to_string(),
            options: req.options,
            seed: req
                .seed
                .unwrap_or_else(|| rand::rngs::OsRng.try_next_u64().unwrap_or(0)),
            seats: seats.clone(),
            time: req.time,
            replay_on_draw: req.replay_on_draw,
            sealed: req.sealed,
            ..MatchConfig::new(&req.game)
        };
        // Refuse bad games, options and time controls before anything is stored.
        let game = Match::new(config.clone()).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let is_bot = |i: usize| matches!(seats[i], Player::Bot { .. });
        let tokens = [0, 1].map(|i| (!is_bot(i)).then(|| random_hex(16)));
        let now = self.clock.now_ms();
        let joined = [is_bot(0), is_bot(1)];
        let meta = StoredMatch {
            id: random_hex(8),
            config,
            tokens: tokens.clone(),
            joined,
            names: [0, 1].map(|i| match &seats[i] {
                Player::Human { name } => name.clone(),
                Player::Bot { level } => Some(format!("bot {level}")),
            }),
            created_at: now,
            started_at: (joined == [true, true]).then_some(now),
            result: None,
            race_bot: req.race_bot,
        };
        self.store
            .create(&meta)
            .await
            .map_err(|e| ApiError::internal("creating a match", e))?;
        self.store
            .claim(&meta.id)
            .await
            .map_err(|e| ApiError::internal("claiming a match", e))?;
        let id = meta.id.clone();
        let table = self.install_match(meta, game, 0);
        {
            let mut st = table.state.lock().await;
            self.commit(&table, &mut st).await?;
        }
        self.start_timer(&table);
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
        if let Some(t) = self
            .tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
        {
            return Ok(t.clone());
        }
        let (meta, log) = match self.store.load(id).await {
            Ok(Some(loaded)) => loaded,
            Ok(None) => return Err(ApiError::not_found(format!("no match `{id}`"))),
            Err(e) => return Err(ApiError::internal("loading a match", e)),
        };
        if meta.finished() {
            return self.install(meta, &log);
        }
        // An unfinished match this process does not serve yet (another process created it, or
        // served it and died): claim it, or say where it is.
        if !self
            .store
            .claim(id)
            .await
            .map_err(|e| ApiError::internal("claiming a match", e))?
        {
            return Err(ApiError::conflict(
                "elsewhere",
                "this match is served by another server process; connect to that one",
            ));
        }
        let table = self.install(meta, &log)?;
        self.tick(&table).await?;
        self.start_timer(&table);
        Ok(table)
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

    /// `seat` does `action` at `table`.
    pub async fn act(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        action: Action,
    ) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if st.meta.finished() {
            return Err(ApiError::conflict("over", "the match is over"));
        }
        let result = match action {
            Action::Join(name) => {
                if let Some(n) = &name {
                    if n.chars().count() > 40 || n.chars().any(char::is_control) {
                        return Err(ApiError::bad_request(
                            "a name has at most 40 characters and no control characters",
                        ));
                    }
                }
                st.meta.joined[seat.index()] = true;
                if name.is_some() {
                    st.meta.names[seat.index()] = name;
                }
                if st.meta.started_at.is_none() && st.meta.joined == [true, true] {
                    st.meta.started_at = Some(self.clock.now_ms());
                }
                self.store
                    .update(&st.meta)
                    .await
                    .map_err(|e| ApiError::internal("storing a join", e))?;
                Ok(())
            }
            other => {
                let Some(start) = st.meta.started_at else {
                    return Err(ApiError::conflict(
                        "not_started",
                        "the match starts when both players have joined",
                    ));
                };
                let now = self.clock.now_ms().saturating_sub(start);
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
                    Action::Join(_) => unreachable!("handled above"),
                }
            }
        };
        // A refused move is logged too: store it before answering.
        self.commit(table, &mut st).await?;
        result.map_err(|e| match e {
            MatchError::Over => ApiError::conflict("over", "the match is over"),
            MatchError::Refused { reason } => ApiError::new(
                axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                "illegal_move",
                reason,
            ),
            MatchError::Locked(_) => ApiError::conflict("locked", e.to_string()),
            MatchError::NothingToLock(_) => ApiError::conflict("nothing_to_lock", e.to_string()),
            MatchError::NoRace => ApiError::conflict("no_race", e.to_string()),
            MatchError::Answer(_) => ApiError::conflict("answer_refused", e.to_string()),
            MatchError::StaleRace { .. } => ApiError::conflict("stale_race", e.to_string()),
            MatchError::Sealed => ApiError::conflict("sealed", e.to_string()),
            MatchError::NotSealed(_) => ApiError::conflict("not_sealed", e.to_string()),
            MatchError::BadCommitment(_) => ApiError::bad_request(e.to_string()),
            MatchError::AlreadyCommitted(_) => {
                ApiError::conflict("already_committed", e.to_string())
            }
            MatchError::NotCommitted(_) => ApiError::conflict("not_committed", e.to_string()),
            MatchError::NotAllCommitted => ApiError::conflict("not_all_committed", e.to_string()),
            MatchError::AlreadyOpened(_) => ApiError::conflict("already_opened", e.to_string()),
            MatchError::CommitmentMismatch { .. } => ApiError::new(
                axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                "commitment_mismatch",
                e.to_string(),
            ),
        })
    }

    /// The tables this process serves now (a snapshot: the map's lock is not held after).
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
        if !new.is_empty() {
            self.store
                .append(&table.id, st.persisted, new)
                .await
                .map_err(|e| ApiError::internal("storing the match log", e))?;
            st.persisted = st.game.log().len();
        }
        if st.meta.result.is_none() {
            if let Some(result) = st.game.result() {
                st.meta.result = Some(result.clone());
                self.store
                    .update(&st.meta)
                    .await
                    .map_err(|e| ApiError::internal("storing the result", e))?;
            }
        }
        table.version.send_modify(|v| *v += 1);
        table.wake.notify_one();
        self.start_bots(table, st);
        Ok(())
    }

    fn start_bots(self: &Arc<Self>, table: &Arc<Table>, st: &mut TableState) {
        if st.meta.finished() || st.meta.started_at.is_none() {
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
            let seed = st.meta.config.seed
                ^ ((key.0 as u64) << 48)
                ^ (key.1 as u64)
                ^ ((seat.index() as u64) << 40);
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                let game = record.game.clone();
                let chosen = tokio::task::spawn_blocking(move || {
                    let spec = check_bot_level(&game, &level).map_err(|e| e.message)?;
                    let bots = bots::find(&game).map_err(|e| e.to_string())?;
                    let mut player = bots
                        .seat_player(&record.options, &spec, seed)
                        .map_err(|e| e.to_string())?;
                    for step in &record.steps {
                        player.observe(step).map_err(|e| e.to_string())?;
                    }
                    Ok::<String, String>(player.choose(seat))
                })
                .await;
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
                    if let Err(e) = hub.act(&table, seat, Action::Submit(mv.clone())).await {
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
            let hash = colosseum_host::commitment(&kept.text, &kept.nonce);
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                if let Err(e) = hub.act(&table, seat, Action::Commit(hash)).await {
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
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                if let Err(e) = hub.act(&table, seat, Action::Open { text, nonce }).await {
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
                    if st.meta.finished() {
                        return;
                    }
                    match (st.meta.started_at, st.game.next_deadline()) {
                        (Some(start), Some(d)) => {
                            Some((start + d).saturating_sub(hub.clock.now_ms()))
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
        let st = table.state.lock().await;
        self.state_of(&st, &table.id, role)
    }

    fn state_of(&self, st: &TableState, id: &str, role: Role) -> Value {
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
                if moves.len() <= MAX_LEGAL_SENT {
                    json!(moves)
                } else {
                    Value::Null
                }
            }
            _ => Value::Null,
        };
        json!({
            "type": "state",
            "id": id,
            "status": status,
            "you": match role { Viewer::Seat(s) => json!(s), Viewer::Spectator => Value::Null },
            "joined": {"p1": st.meta.joined[0], "p2": st.meta.joined[1]},
            "names": {"p1": st.meta.names[0], "p2": st.meta.names[1]},
            "created_at": st.meta.created_at,
            "started_at": st.meta.started_at,
            "server_now": self.clock.now_ms(),
            "legal_moves": legal,
            "steps": st.game.record().steps.len(),
            "match": st.game.view(role),
        })
    }

    /// A uniformly random legal move for `seat` now, or `None` if it has none. For tests only:
    /// it reads the full state, so it must never be sent to a client.
    #[doc(hidden)]
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

    /// The lobby: open and live matches (newest first), then recent finished ones.
    pub async fn lobby(self: &Arc<Self>) -> Result<Value, ApiError> {
        let tables = self.tables_now();
        let mut open = Vec::new();
        for t in tables {
            let st = t.state.lock().await;
            if !st.meta.finished() {
                open.push((st.meta.created_at, summary(&st.meta)));
            }
        }
        open.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| a.1["id"].as_str().cmp(&b.1["id"].as_str()))
        });
        let finished = self
            .store
            .recent_finished(50)
            .await
            .map_err(|e| ApiError::internal("listing matches", e))?;
        Ok(json!({
            "matches": open.into_iter().map(|(_, s)| s).collect::<Vec<_>>(),
            "finished": finished.iter().map(summary).collect::<Vec<_>>(),
        }))
    }

    /// The records of a finished match (every game, a replayed draw first), or a conflict while
    /// it runs: a record holds chance a seat may not see yet.
    pub async fn records(&self, table: &Table) -> Result<Vec<colosseum_engine::Record>, ApiError> {
        let st = table.state.lock().await;
        if !st.meta.finished() {
            return Err(ApiError::conflict(
                "not_finished",
                "the record is published when the match is over",
            ));
        }
        Ok(st.game.records())
    }

    /// A finished match as replay frames: for each game, the spectator's view before the first
    /// step and after each step, with the step.
    pub async fn replay(&self, table: &Table) -> Result<Value, ApiError> {
        let records = self.records(table).await?;
        let st = table.state.lock().await;
        let result = st.meta.result.clone();
        let names = st.meta.names.clone();
        drop(st);
        let mut games = Vec::new();
        for record in &records {
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
                    "not_finished",
                    format!("match {} ({}) is not over yet", entry.id, entry.label),
                )
            })?;
            let names = table.state.lock().await.meta.names.clone();
            let record = records
                .last()
                .cloned()
                .ok_or_else(|| ApiError::internal("season", "a match without a record"))?;
            matches.push(colosseum_trivia::SeasonMatch {
                label: entry.label.clone(),
                record,
                players: names,
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
        "spectate": format!("/m/{}", meta.id),
    })
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

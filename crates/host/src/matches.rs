//! [`Match`]: one match driven by explicit, timestamped events.

use std::fmt;
use std::sync::Arc;

use colosseum_engine::fair::default_move_seed;
use colosseum_engine::{
    seeded_rng, AnyGame, ChatChannel, ChatLine, OptionsError, Pending, RawOptions, Record, Seat,
    SeatPair, SeededRng, StepError, TextStep, Viewer,
};
use colosseum_games::{find, registry, GameEntry, RaceStake, UnknownGame};
use colosseum_trivia::{AnswerOutcome, Bank, BankError, Category, Race, RaceError, RaceEvent};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::config::{Clocks, MatchConfig, TimeControl};
use crate::log::{EndKind, LogEntry, MatchResult};
use crate::view::{
    reads, EarlierGameView, FinishedRace, LogContext, MatchView, MoveLine, MoveLogText,
    RaceSeatView, RaceView, SealedOpening, SealedView, SeatView, StepNote,
};

/// A seat's submission for the pending decision, before the reveal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    /// The move, canonical.
    pub text: String,
    /// Whether it can no longer be changed.
    pub locked: bool,
    /// Whether the host made it (the game's default at a deadline).
    pub by_default: bool,
}

/// One seat's clock. Times are milliseconds since the match started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatClock {
    /// When the pending decision's own time runs out for this seat (its bank starts then);
    /// `None` when the seat does not act, has submitted, or the match is untimed.
    pub turn_deadline: Option<u64>,
    /// The next moment the host acts for this seat if it has not submitted: the end of its turn
    /// time, of a bank step, or of its bank. `None` as for `turn_deadline`.
    pub deadline: Option<u64>,
    /// What is left in the seat's bank.
    pub bank_ms: u64,
}

/// An event the match could not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The match is over.
    #[error("the match is over")]
    Over,
    /// The game refused the submission (logged as [`LogEntry::Refused`]); the seat can submit
    /// again until its deadline. `error` is the game's own, so a transport tells text that is
    /// not a move at all ([`MatchError::is_not_a_move`]) from a move not legal now.
    #[error("{reason}")]
    Refused {
        /// What the seat is told: the game's reason and what is allowed (the notation's form,
        /// or the legal moves when there are few).
        reason: String,
        /// The game's error, as it refused.
        error: StepError,
    },
    /// The seat locked its submission.
    #[error("{0} has locked its submission; it can no longer be changed")]
    Locked(Seat),
    /// There is no submission to lock.
    #[error("{0} has nothing to lock: submit a move first")]
    NothingToLock(Seat),
    /// An answer when no trivia race has been opened in this match (no live Cauldron, or none
    /// yet).
    #[error("there is no trivia race to answer in this match")]
    NoRace,
    /// The race did not take the answer (logged as [`LogEntry::AnswerRefused`]): the seat is
    /// locked out, or the race is over.
    #[error(transparent)]
    Answer(#[from] RaceError),
    /// A chat message that is empty, too long, or has control characters, or a name that is
    /// not allowed. Not logged.
    #[error("{0}")]
    BadChat(String),
    /// [`Match::answer_to`] named a race that is not the one open now (the answer was meant
    /// for an earlier question). Not logged: nothing changed.
    #[error("the answer was for the race opened at {asked} ms, but the race open now was opened at {open} ms")]
    StaleRace {
        /// The race the answer was for (its `opened_at`).
        asked: u64,
        /// The race open now (its `opened_at`).
        open: u64,
    },
    /// A plain submission in a sealed match's simultaneous decision: the seat must commit, then
    /// open. Not logged: nothing changed.
    #[error("this match is sealed: in a simultaneous decision, commit first (the SHA-256 of `colosseum-seal-v1`, the match id, the decision, the seat, MOVE and NONCE, one a line) and open (send the move and nonce) once both seats have committed")]
    Sealed,
    /// A change of mind beyond [`MatchConfig::changes`] in this decision: refused, not logged;
    /// the seat's last submission stands (it may still lock it).
    #[error("{seat} has changed its move {cap} times in this decision, the most a seat may: its submission `{standing}` stands (it can still be locked)")]
    TooManyChanges {
        /// Who.
        seat: Seat,
        /// The cap.
        cap: u32,
        /// The submission that stands.
        standing: String,
    },
    /// A commitment already seen in this match (the other seat's in this decision, or any
    /// earlier one): a seat must make its own. Not logged.
    #[error("this commitment was already made in this match (by {by} in decision {decision}); commit to your own move with a fresh random nonce")]
    CommitmentReused {
        /// The seat that made it first.
        by: Seat,
        /// The decision it was made in.
        decision: u64,
    },
    /// A commitment or opening where there is none to make: the match is not sealed, the
    /// decision is not simultaneous (sequential decisions are ordinary submissions), or the seat
    /// does not act. Not logged.
    #[error("{0}")]
    NotSealed(String),
    /// A commitment or nonce that is not in the required form. Not logged.
    #[error("{0}")]
    BadCommitment(String),
    /// The seat has already committed (or the host already moved for it) in this decision: a
    /// commitment is binding. Not logged.
    #[error("{0} is already bound in this decision (committed, or moved for by the host at its deadline); a commitment is binding")]
    AlreadyCommitted(Seat),
    /// An opening without a commitment. Not logged.
    #[error("{0} has no commitment to open in this decision: commit first")]
    NotCommitted(Seat),
    /// An opening before every seat has committed: refused and forgotten, so the host holds no
    /// move before the openings. Not logged.
    #[error("not every seat has committed yet: open only once both have committed (the state shows `sealed.phase` = `open`)")]
    NotAllCommitted,
    /// A second opening. Not logged.
    #[error("{0} has already opened its commitment in this decision")]
    AlreadyOpened(Seat),
    /// A move, lock, commitment, opening or answer while the host has paused the match. Not
    /// logged: nothing changed.
    #[error("the match is paused by the host: moves wait until it resumes")]
    Paused,
    /// A pause or resume that does not fit: the match is paused already, is not paused, or a
    /// trivia race is running. Not logged.
    #[error("{0}")]
    PauseRefused(String),
    /// The move and nonce do not hash to the seat's commitment (made for another move, nonce,
    /// match, decision or seat). Not logged; the seat may open again until its opening deadline.
    #[error("{preimage} hashes to {got}, not to {seat}'s commitment {committed}")]
    CommitmentMismatch {
        /// What was hashed, in words (which match, decision and seat).
        preimage: String,
        /// Who.
        seat: Seat,
        /// The commitment.
        committed: String,
        /// The hash of what was sent.
        got: String,
    },
}

/// The match cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// No such game.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// The game's options are wrong.
    #[error("the game's options: {0}")]
    Options(OptionsError),
    /// `replay_on_draw` for a game that is not replayed ([`colosseum_games::GameEntry::replay`]).
    #[error(
        "replay_on_draw needs a game that is replayed with the other seat first after a draw; {0} is not"
    )]
    CannotReplay(String),
    /// The configuration names another game than the entry given ([`Match::with_entry`]).
    #[error("the configuration is for game `{config}`, the entry given is `{entry}`")]
    OtherGame {
        /// The configuration's game.
        config: String,
        /// The entry's id.
        entry: String,
    },
    /// A timed control with a zero time for a decision.
    #[error("a timed control needs more than 0 ms for every decision")]
    ZeroTime,
    /// `trivia` settings for a match without live races.
    #[error("trivia settings need a game and options with live races ({1}); this match is {0}")]
    TriviaNotLive(String, String),
    /// The trivia bank does not load.
    #[error("the trivia bank: {0}")]
    Bank(BankError),
}

/// The log does not rebuild the match it claims to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RebuildError {
    /// The configuration is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Replaying the log's inputs gave a different entry at this index.
    #[error("log entry {index} differs when the match is rebuilt: expected {expected}, got {got}")]
    Diverged {
        /// The index of the first differing entry.
        index: usize,
        /// The entry in the log (JSON), or `nothing`.
        expected: String,
        /// The entry rebuilt (JSON), or `nothing`.
        got: String,
    },
}

/// An earlier game of the match (a drawn game that was replayed).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EarlierGame {
    /// Its record.
    pub record: Record,
    /// Its outcome.
    pub outcome: Option<colosseum_engine::Outcome>,
}

/// The live Cauldron's trivia: the bank, which questions were asked, and the current (or last)
/// race.
#[derive(Clone, Debug, PartialEq)]
struct Trivia {
    bank: Arc<Bank>,
    asked: Vec<bool>,
    race: Option<Race>,
    /// What the race is for: the round (`DM3`) and the prizes on offer.
    stake: RaceStake,
    /// The races that are over, oldest first.
    finished: Vec<FinishedRace>,
    /// When the next race opens, while the host waits after a race nobody won
    /// ([`RACE_PAUSE_MS`]).
    opens_at: Option<u64>,
    /// How many of the race's log entries are in the match log.
    mirrored: usize,
    /// Whether the race's result has been given to the game.
    fed: bool,
}

/// The move a host makes for `seat` at a timeout in `game`: the game's default move drawn from
/// `rng`, or its random legal move where the game has no default.
///
/// # Panics
/// If `seat` has no move to make in `game` (the host calls it only for a seat that must act).
#[must_use]
pub fn default_move(game: &dyn AnyGame, seat: Seat, rng: &mut dyn rand::RngCore) -> String {
    game.default_move(seat, rng)
        .or_else(|| game.random_move(seat, rng))
        .expect("a seat that must act has a default move")
}

/// Where a sealed simultaneous decision stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SealedPhase {
    /// Seats send their commitments ([`Match::commit`]).
    Commit,
    /// Every seat is in (committed, or moved for by the host at its deadline): committed seats
    /// open ([`Match::open`]).
    Open,
}

/// The first line of a sealed commitment's preimage ([`commitment`]): the scheme and its version.
pub const SEAL_SCHEME: &str = "colosseum-seal-v1";

/// A sealed commitment: the lowercase hex SHA-256 of the UTF-8 text
///
/// ```text
/// colosseum-seal-v1\nMATCH_ID\nDECISION\nSEAT\nMOVE\nNONCE
/// ```
///
/// (six lines joined by one newline each, byte 0x0a, nothing after NONCE): MATCH_ID is the
/// match's id ([`MatchConfig::match_id`]), DECISION the pending decision's number in decimal
/// ([`Match::decision`]), SEAT `p1` or `p2`, MOVE the move exactly as it will be opened, NONCE
/// the nonce (32 to 128 lowercase hex characters, at least 128 random bits). As
/// `printf 'colosseum-seal-v1\n%s\n%s\n%s\n%s\n%s' ID DECISION SEAT MOVE NONCE | sha256sum`
/// prints it. Binding the match, decision and seat means a commitment opens only where it was
/// made: a copy of the other seat's, or one replayed from an earlier decision or match, does not.
#[must_use]
pub fn commitment(match_id: &str, decision: u64, seat: Seat, text: &str, nonce: &str) -> String {
    sha256_hex(&format!(
        "{SEAL_SCHEME}\n{match_id}\n{decision}\n{seat}\n{text}\n{nonce}"
    ))
}

/// The unbound commitment of matches stored before [`commitment`] bound match, decision and
/// seat (their configuration has no [`MatchConfig::match_id`]): the lowercase hex SHA-256 of
/// `MOVE + "\n" + NONCE`. Kept only so that such a match rebuilds as it was played.
#[must_use]
pub fn unbound_commitment(text: &str, nonce: &str) -> String {
    sha256_hex(&format!("{text}\n{nonce}"))
}

fn sha256_hex(text: &str) -> String {
    colosseum_engine::fair::sha256_hex(text.as_bytes())
}

/// The fewest different hex digits a bound nonce may have: a random nonce of 32 hex digits has
/// fewer than 4 with a chance of about 3 in 10^21, so this refuses only made-up nonces (all
/// zeros, `abab...`), never a random one.
const NONCE_MIN_DIGITS: usize = 4;

/// Checks a nonce of a bound commitment: 32 to 128 lowercase hex characters (at least 128 bits)
/// with at least [`NONCE_MIN_DIGITS`] different digits.
/// The most legal moves a refusal lists; with more, it gives only the game's reason (which says
/// the notation's form or the rule broken).
const LISTED_LEGAL_MOVES: usize = 12;

/// What `seat` is told when `game` refuses its text with `error`: the game's reason without the
/// seat's name (the seat knows who it is) and, when the seat has at most
/// [`LISTED_LEGAL_MOVES`] legal moves now, those moves. The log keeps the game's own words.
fn refusal(game: &dyn AnyGame, seat: Seat, error: StepError) -> MatchError {
    let said = match &error {
        StepError::NotAMove { error, .. } => error.to_string(),
        StepError::Illegal { error, .. } => error.to_string(),
        StepError::WrongActors { expected, .. } => match expected {
            Pending::Over => "the game is over: it takes no more moves".to_string(),
            Pending::Chance => "no seat moves now: the game waits for chance".to_string(),
            _ => "it is not your turn: the game waits for your opponent's move".to_string(),
        },
        other => other.to_string(),
    };
    let legal = game.legal_moves(seat);
    let reason = if legal.is_empty() || legal.len() > LISTED_LEGAL_MOVES {
        said
    } else {
        let one = if legal.len() == 1 { "move" } else { "moves" };
        format!("{said}; the legal {one} now: {}", legal.join(", "))
    };
    MatchError::Refused { reason, error }
}

impl MatchError {
    /// Whether this is a refusal of text that is not a move (or chance outcome) in the game's
    /// notation at all, rather than a move that is not legal now.
    #[must_use]
    pub fn is_not_a_move(&self) -> bool {
        matches!(
            self,
            MatchError::Refused {
                error: StepError::NotAMove { .. } | StepError::NotAChance(_),
                ..
            }
        )
    }
}

fn check_nonce(nonce: &str) -> Result<(), MatchError> {
    let form =
        "a nonce is 32 to 128 lowercase hex characters (0-9 a-f), at least 128 random bits: \
                make it with a cryptographic random generator";
    if !(32..=128).contains(&nonce.len()) || !is_lower_hex(nonce) {
        return Err(MatchError::BadCommitment(format!(
            "{form}; this one has {} characters{}",
            nonce.chars().count(),
            if is_lower_hex(nonce) {
                ""
            } else {
                ", not all of them 0-9 a-f"
            }
        )));
    }
    let mut digits = [false; 16];
    for b in nonce.bytes() {
        let d = if b.is_ascii_digit() {
            b - b'0'
        } else {
            b - b'a' + 10
        };
        digits[usize::from(d)] = true;
    }
    let different = digits.iter().filter(|&&d| d).count();
    if different < NONCE_MIN_DIGITS {
        return Err(MatchError::BadCommitment(format!(
            "{form}; this one uses only {different} different digit{} (a random one uses at least {NONCE_MIN_DIGITS}), so it could be guessed",
            if different == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

fn is_lower_hex(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// One match: the game, the seats' pending submissions, the clocks, the host's generator and the
/// append-only log. See the crate docs for the event model.
#[derive(Clone)]
pub struct Match {
    config: MatchConfig,
    time: TimeControl,
    entry: &'static GameEntry,
    game: Box<dyn AnyGame>,
    record: Record,
    earlier: Vec<EarlierGame>,
    pending: [Option<Submission>; 2],
    clocks: [SeatClock; 2],
    /// Draws the game's chance steps, and nothing else: seeded with the record's seed, so that
    /// [`colosseum_engine::replay`] of the record without its chance steps draws the same ones
    /// (what `colosseum verify` checks).
    chance_rng: SeededRng,
    /// The host's own choices: default moves at timeouts and trivia questions.
    rng: SeededRng,
    /// Where the host made a seat's move at a timeout: (game index from 0, step index, seat).
    defaults: Vec<(usize, usize, Seat)>,
    log: Vec<LogEntry>,
    result: Option<MatchResult>,
    now: u64,
    trivia: Option<Trivia>,
    /// Refused submissions per seat in the pending decision (only the first
    /// `config.logged_refusals` are logged).
    refused: [u32; 2],
    /// Changes of mind per seat in the pending decision (at most `config.changes` are taken).
    changed: [u32; 2],
    /// Refused answers per seat in the current trivia race (only the first
    /// `config.logged_answer_refusals` are logged); not compared: a rebuilt match counts only
    /// the logged ones.
    answer_refused: [u32; 2],
    /// Sealed matches with bound commitments: every commitment made in this match, with its
    /// seat and decision, so that none is taken twice.
    seen: std::collections::HashMap<String, (Seat, u64)>,
    /// Sealed matches: each seat's commitment in the pending simultaneous decision.
    seals: [Option<String>; 2],
    /// Sealed matches: when every seat was in (the openings began), in the pending decision.
    opening_from: Option<u64>,
    /// Sealed matches: the last sealed decision revealed, as shown in views (commitments, moves
    /// as opened and nonces, so anyone can check them).
    last_sealed: Option<SeatPair<Option<SealedOpening>>>,
    /// Where and when each step of the match was made, for the move log.
    notes: Vec<StepNote>,
    /// The chat, both channels, in order, with the game (index from 0) it was written in.
    chat: Vec<(usize, ChatLine)>,
    /// When the host paused the match, while it is paused.
    paused_at: Option<u64>,
    /// Each seat's clock while it is held ([`Match::hold_clock`]: a server's bot waiting for a
    /// search slot): what was left to its turn's end and to its deadline. Its running
    /// deadlines are `None` meanwhile.
    held: [Option<HeldClock>; 2],
    /// Whether each seat's [`LogEntry::TurnUp`] for the pending decision has been logged.
    turn_up: [bool; 2],
}

/// A held seat's clock: what was left when it was held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HeldClock {
    turn_left: Option<u64>,
    left: u64,
}

impl fmt::Debug for Match {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Match")
            .field("game", &self.entry.id)
            .field("pending", &self.pending)
            .field("clocks", &self.clocks)
            .field("result", &self.result)
            .field("log", &self.log.len())
            .finish()
    }
}

/// Whether the host runs trivia races whose results are the game's race chance steps (the
/// game's registry entry says so: [`GameEntry::races`]): such a step is decided by the race,
/// not drawn.
#[must_use]
pub fn races_decide(game: &str, options: &RawOptions) -> bool {
    find(game).is_ok_and(|e| e.runs_races(options))
}

/// How long the host waits after a race nobody won before it opens the next one, in ms: the
/// finished race (nobody, its accepted answers) is the race everyone's view shows meanwhile.
/// After a won race the winner's pick comes first anyway.
pub const RACE_PAUSE_MS: u64 = 5_000;

/// The longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 500;

/// Mixed into the match seed for the host's own generator (defaults, trivia questions), so that
/// its draws never shift the chance steps' generator.
const HOST_STREAM: u64 = 0x686f_7374_5f72_6e67; // "host_rng"

impl Match {
    /// Starts a match at time 0: creates the game, draws any chance that comes first and starts
    /// the first decision's clocks.
    pub fn new(config: MatchConfig) -> Result<Match, ConfigError> {
        Match::with_entry(find(&config.game)?, config)
    }

    /// [`Match::new`] for the game `entry` describes, which need not be in the registry (a test's
    /// own game): its clocks, timeout moves and replay of draws come from the entry.
    /// `config.game` must be the entry's id.
    pub fn with_entry(
        entry: &'static GameEntry,
        config: MatchConfig,
    ) -> Result<Match, ConfigError> {
        if !config.game.trim().eq_ignore_ascii_case(entry.id) {
            return Err(ConfigError::OtherGame {
                config: config.game.clone(),
                entry: entry.id.to_string(),
            });
        }
        let game = (entry.create)(&config.options).map_err(ConfigError::Options)?;
        if config.replays_on_draw_of(entry) && entry.replay.is_none() {
            return Err(ConfigError::CannotReplay(entry.id.to_string()));
        }
        let time = config.time_control_of(entry);
        if let Some(c) = time.clocks() {
            if c.per_decision_ms == 0 || c.per_kind_ms.values().any(|&v| v == 0) {
                return Err(ConfigError::ZeroTime);
            }
        }
        let live = races_decide(entry.id, &config.options);
        let trivia = match (&config.trivia, live) {
            (Some(_), false) => {
                let with_races: Vec<&str> = registry()
                    .iter()
                    .filter(|e| e.races.is_some())
                    .map(|e| e.name)
                    .collect();
                return Err(ConfigError::TriviaNotLive(
                    format!(
                        "{} with options {}",
                        entry.id,
                        serde_json::to_string(&config.options).unwrap_or_default()
                    ),
                    format!("{}; see its rules page", with_races.join(", ")),
                ));
            }
            (None, false) => None,
            (settings, true) => {
                let bank = settings
                    .clone()
                    .unwrap_or_default()
                    .bank
                    .load()
                    .map_err(ConfigError::Bank)?;
                Some(Trivia {
                    asked: vec![false; bank.len()],
                    bank: Arc::new(bank),
                    race: None,
                    stake: RaceStake::default(),
                    finished: Vec::new(),
                    opens_at: None,
                    mirrored: 0,
                    fed: true,
                })
            }
        };
        let bank = time.clocks().map_or(0, |c| c.bank_ms);
        let record = Record::new(entry.id, config.options.clone(), config.seed);
        let mut m = Match {
            chance_rng: seeded_rng(config.seed),
            rng: seeded_rng(config.seed ^ HOST_STREAM),
            defaults: Vec::new(),
            time,
            entry,
            game,
            record,
            earlier: Vec::new(),
            pending: [None, None],
            clocks: [SeatClock {
                bank_ms: bank,
                ..SeatClock::default()
            }; 2],
            log: Vec::new(),
            result: None,
            now: 0,
            trivia,
            refused: [0, 0],
            changed: [0, 0],
            answer_refused: [0, 0],
            seen: std::collections::HashMap::new(),
            seals: [None, None],
            opening_from: None,
            last_sealed: None,
            notes: Vec::new(),
            chat: Vec::new(),
            paused_at: None,
            held: [None, None],
            turn_up: [false, false],
            config,
        };
        m.after_step(0);
        Ok(m)
    }

    /// Rebuilds a match from its configuration and log: the inputs are applied again at their
    /// times, and the host's own entries must come out the same (else [`RebuildError::Diverged`]).
    /// The result has the same game, submissions, clocks, generator and log as the original.
    pub fn rebuild(config: MatchConfig, log: &[LogEntry]) -> Result<Match, RebuildError> {
        let entry = find(&config.game).map_err(ConfigError::from)?;
        Match::rebuild_with_entry(entry, config, log)
    }

    /// [`Match::rebuild`] for the game `entry` describes (see [`Match::with_entry`]).
    pub fn rebuild_with_entry(
        entry: &'static GameEntry,
        config: MatchConfig,
        log: &[LogEntry],
    ) -> Result<Match, RebuildError> {
        let mut m = Match::with_entry(entry, config)?;
        for e in log {
            // Refusals and errors are part of what is being replayed; the results are checked
            // through the log below.
            let _ = match e {
                LogEntry::Submitted { at, seat, text }
                | LogEntry::Changed { at, seat, text }
                | LogEntry::Refused { at, seat, text, .. } => m.submit(*seat, text, *at),
                LogEntry::Locked { at, seat } => m.lock(*seat, *at),
                LogEntry::Resigned { at, seat } => m.resign(*seat, *at),
                LogEntry::Answered { at, seat, text, .. }
                | LogEntry::AnswerRefused { at, seat, text, .. } => {
                    m.answer(*seat, text, *at).map(|_| ())
                }
                LogEntry::Committed { at, seat, hash } => m.commit(*seat, hash, *at),
                LogEntry::Opened {
                    at,
                    seat,
                    text,
                    nonce,
                }
                | LogEntry::OpeningRefused {
                    at,
                    seat,
                    text,
                    nonce,
                    ..
                } => m.open(*seat, text, nonce, *at),
                LogEntry::Chat { line } => m.chat(
                    match line.seat {
                        Some(s) => Viewer::Seat(s),
                        None => Viewer::Spectator,
                    },
                    &line.name,
                    &line.text,
                    line.at,
                ),
                LogEntry::Paused { at } => m.pause(*at),
                LogEntry::Resumed { at } => m.resume(*at),
                LogEntry::TimeGiven { at, seat, ms } => m.give_time(*seat, *ms, *at),
                LogEntry::ClockHeld { at, seat } => m.hold_clock(*seat, *at),
                LogEntry::ClockFreed { at, seat, .. } => m.free_clock(*seat, *at),
                LogEntry::Adjudicated {
                    at, winner, reason, ..
                } => m.adjudicate(*winner, reason, *at),
                _ => Ok(()),
            };
        }
        if let Some(last) = log.last() {
            m.tick(last.at());
        }
        // A turn's notice changes nothing: a log stored before notices were written (or one
        // that stops just before a notice) rebuilds without them, and keeps its own entries.
        let notice = |e: &&LogEntry| !matches!(e, LogEntry::TurnUp { .. });
        if m.log.iter().filter(notice).eq(log.iter().filter(notice)) {
            m.log = log.to_vec();
        }
        if m.log != log {
            let index = m
                .log
                .iter()
                .zip(log)
                .position(|(a, b)| a != b)
                .unwrap_or(m.log.len().min(log.len()));
            let show = |e: Option<&LogEntry>| {
                e.map_or("nothing".to_string(), |e| {
                    serde_json::to_string(e).unwrap_or_default()
                })
            };
            return Err(RebuildError::Diverged {
                index,
                expected: show(log.get(index)),
                got: show(m.log.get(index)),
            });
        }
        Ok(m)
    }

    // ----- events -----

    /// `seat` submits `text` at `now`. The game checks it at once: refused, it is logged with the
    /// reason (only the first [`MatchConfig::logged_refusals`] of a seat in one decision; later
    /// ones are counted, see [`Match::refusals`]) and the seat's earlier submission stands; accepted, it replaces an unlocked earlier
    /// one (a change of mind: at most [`MatchConfig::changes`] a decision, later ones are
    /// refused with [`MatchError::TooManyChanges`] and not logged, so every change taken is in
    /// the log). When every seat that must act has submitted, the decision is revealed.
    pub fn submit(&mut self, seat: Seat, text: &str, now: u64) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        self.check_not_paused()?;
        if self.sealed_phase().is_some() {
            return Err(MatchError::Sealed);
        }
        if self.pending[seat.index()]
            .as_ref()
            .is_some_and(|s| s.locked)
        {
            return Err(MatchError::Locked(seat));
        }
        let canonical = match self.game.check_move(seat, text) {
            Ok(c) => c,
            Err(e) => {
                let reason = e.to_string();
                let refused = refusal(self.game.as_ref(), seat, e);
                let count = &mut self.refused[seat.index()];
                *count = count.saturating_add(1);
                if self.config.logged_refusals.is_none_or(|cap| *count <= cap) {
                    self.log.push(LogEntry::Refused {
                        at: now,
                        seat,
                        text: text.to_string(),
                        reason,
                    });
                }
                return Err(refused);
            }
        };
        let first = self.pending[seat.index()].is_none();
        if let (Some(cap), Some(standing)) = (self.config.changes, &self.pending[seat.index()]) {
            if self.changed[seat.index()] >= cap {
                return Err(MatchError::TooManyChanges {
                    seat,
                    cap,
                    standing: standing.text.clone(),
                });
            }
        }
        if first {
            self.stop_clock(seat, now);
            self.log.push(LogEntry::Submitted {
                at: now,
                seat,
                text: canonical.clone(),
            });
        } else {
            self.changed[seat.index()] = self.changed[seat.index()].saturating_add(1);
            self.log.push(LogEntry::Changed {
                at: now,
                seat,
                text: canonical.clone(),
            });
        }
        self.pending[seat.index()] = Some(Submission {
            text: canonical,
            locked: false,
            by_default: false,
        });
        self.reveal_if_complete(now);
        Ok(())
    }

    /// `seat` locks its submission at `now`: it can no longer change it. Locking a locked
    /// submission does nothing.
    pub fn lock(&mut self, seat: Seat, now: u64) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        self.check_not_paused()?;
        match &mut self.pending[seat.index()] {
            None => Err(MatchError::NothingToLock(seat)),
            Some(s) if s.locked => Ok(()),
            Some(s) => {
                s.locked = true;
                self.log.push(LogEntry::Locked { at: now, seat });
                Ok(())
            }
        }
    }

    /// `seat` resigns at `now`: the other seat wins the match.
    pub fn resign(&mut self, seat: Seat, now: u64) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        self.log.push(LogEntry::Resigned { at: now, seat });
        self.finish(
            now,
            MatchResult {
                winner: Some(seat.other()),
                by: EndKind::Resignation,
                reason: format!("{seat} resigned"),
            },
        );
        Ok(())
    }

    /// `seat` commits at `now` to a move in a sealed match's simultaneous decision: `hash` is the
    /// lowercase hex SHA-256 of the match id, the decision, the seat, the move and the nonce
    /// ([`commitment`]). The seat's clock stops as for a submission. The commitment is binding:
    /// a second one is refused; so is one already made in this match (a copy of the other
    /// seat's, or an earlier one: [`MatchError::CommitmentReused`]). When every seat
    /// is in (committed, or moved for by the host at its deadline), the openings begin: each
    /// committed seat has the decision's own time again (no bank; untimed: no deadline) to
    /// [`Match::open`].
    pub fn commit(&mut self, seat: Seat, hash: &str, now: u64) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        self.check_not_paused()?;
        self.check_sealed()?;
        if hash.len() != 64 || !is_lower_hex(hash) {
            return Err(MatchError::BadCommitment(format!(
                "a commitment is 64 lowercase hex characters: the SHA-256 of {}",
                self.preimage_words(seat, "MOVE", "NONCE")
            )));
        }
        let i = seat.index();
        if self.seals[i].is_some() || self.pending[i].is_some() || self.opening_from.is_some() {
            return Err(MatchError::AlreadyCommitted(seat));
        }
        if self.config.match_id.is_some() {
            if let Some(&(by, decision)) = self.seen.get(hash) {
                return Err(MatchError::CommitmentReused { by, decision });
            }
            self.seen.insert(hash.to_string(), (seat, self.decision()));
        }
        self.stop_clock(seat, now);
        self.seals[i] = Some(hash.to_string());
        self.log.push(LogEntry::Committed {
            at: now,
            seat,
            hash: hash.to_string(),
        });
        self.begin_openings(now);
        Ok(())
    }

    /// `seat` opens its commitment at `now` with the move `text` and the `nonce` (32 to 128
    /// lowercase hex characters with at least 4 different digits) it hashed. Refused without a
    /// trace when the nonce is not in that form ([`MatchError::BadCommitment`]), before every
    /// seat is in
    /// ([`MatchError::NotAllCommitted`]) or when the hash differs
    /// ([`MatchError::CommitmentMismatch`]; the seat may open again). When the hash matches, the
    /// game checks the move: accepted, it is held (locked) until every seat is in and then
    /// revealed as usual; refused ([`MatchError::Refused`]), the seat gets the timeout treatment
    /// at once (the game's default move, or the loss where the empty-bank rule says so), since
    /// it cannot commit again.
    pub fn open(
        &mut self,
        seat: Seat,
        text: &str,
        nonce: &str,
        now: u64,
    ) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        self.check_not_paused()?;
        self.check_sealed()?;
        let i = seat.index();
        let Some(committed) = self.seals[i].clone() else {
            return Err(MatchError::NotCommitted(seat));
        };
        if self.pending[i].is_some() {
            return Err(MatchError::AlreadyOpened(seat));
        }
        if self.opening_from.is_none() {
            return Err(MatchError::NotAllCommitted);
        }
        let got = match &self.config.match_id {
            Some(id) => {
                check_nonce(nonce)?;
                commitment(id, self.decision(), seat, text, nonce)
            }
            None => {
                if !(32..=128).contains(&nonce.len()) || !is_lower_hex(nonce) {
                    return Err(MatchError::BadCommitment(
                        "a nonce is 32 to 128 lowercase hex characters".into(),
                    ));
                }
                unbound_commitment(text, nonce)
            }
        };
        if got != committed {
            return Err(MatchError::CommitmentMismatch {
                preimage: format!(
                    "the SHA-256 of {}",
                    self.preimage_words(seat, &format!("`{text}`"), "the nonce")
                ),
                seat,
                committed,
                got,
            });
        }
        self.clocks[i].turn_deadline = None;
        self.clocks[i].deadline = None;
        match self.game.check_move(seat, text) {
            Ok(canonical) => {
                self.log.push(LogEntry::Opened {
                    at: now,
                    seat,
                    text: text.to_string(),
                    nonce: nonce.to_string(),
                });
                self.pending[i] = Some(Submission {
                    text: canonical,
                    locked: true,
                    by_default: false,
                });
                self.reveal_if_complete(now);
                Ok(())
            }
            Err(e) => {
                let reason = e.to_string();
                self.log.push(LogEntry::OpeningRefused {
                    at: now,
                    seat,
                    text: text.to_string(),
                    nonce: nonce.to_string(),
                    reason: reason.clone(),
                });
                let lost = self.time_out(seat, now);
                let then = if lost {
                    "so it loses on time"
                } else {
                    "so the game's default move is made for it"
                };
                if lost {
                    let kind = self.game.decision_kind();
                    self.finish(
                        now,
                        MatchResult {
                            winner: Some(seat.other()),
                            by: EndKind::Time,
                            reason: format!(
                                "{seat} opened a commitment to an illegal move ({kind})"
                            ),
                        },
                    );
                } else {
                    self.reveal_if_complete(now);
                }
                Err(MatchError::Refused {
                    reason: format!(
                        "{reason}; the commitment is binding, {seat} gets the timeout treatment, {then}"
                    ),
                    error: e,
                })
            }
        }
    }

    /// `author` writes `text` in the chat at `now`, under `name`: a seat in the players' chat
    /// (read by the two seats only), a spectator in the spectators' chat (read by spectators
    /// only). Both channels are published with the record once the match is over. The text is
    /// trimmed; it must be 1 to [`MAX_CHAT_CHARS`] characters without control characters other
    /// than newlines. Logged as an input ([`LogEntry::Chat`]); deadlines up to `now` fire first,
    /// as for every event. The chat stays open once the match is over (the players' "gg"): a
    /// line then changes nothing else. The transport checks names and rates.
    pub fn chat(
        &mut self,
        author: Viewer,
        name: &str,
        text: &str,
        now: u64,
    ) -> Result<(), MatchError> {
        let now = if self.result.is_some() {
            now.max(self.now)
        } else {
            self.advance(now)?
        };
        let text = text.trim();
        let chars = text.chars().count();
        if chars == 0 || chars > MAX_CHAT_CHARS {
            return Err(MatchError::BadChat(format!(
                "a chat message has 1 to {MAX_CHAT_CHARS} characters; this one has {chars}"
            )));
        }
        if text.chars().any(|c| c.is_control() && c != '\n') {
            return Err(MatchError::BadChat(
                "a chat message cannot contain control characters (newlines are fine)".into(),
            ));
        }
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
            return Err(MatchError::BadChat(
                "a chat name has 1 to 40 characters without control characters".into(),
            ));
        }
        let (channel, seat) = match author {
            Viewer::Seat(s) => (ChatChannel::Players, Some(s)),
            Viewer::Spectator => (ChatChannel::Spectators, None),
        };
        let line = ChatLine {
            at: now,
            channel,
            seat,
            name: name.to_string(),
            text: text.to_string(),
        };
        self.chat.push((self.earlier.len(), line.clone()));
        self.log.push(LogEntry::Chat { line });
        Ok(())
    }

    /// The chat of every game of the match, both channels (private while the match runs: use
    /// [`Match::view`]); the game index from 0 with each line.
    #[must_use]
    pub fn chat_lines(&self) -> &[(usize, ChatLine)] {
        &self.chat
    }

    /// `seat` answers the open trivia race (live Cauldron) with `text` at `now`.
    ///
    /// A correct answer wins the race: its result (`p1`/`p2`) is given to the game as the race's
    /// chance step at `now`, and the game goes on (the winner picks). A wrong answer locks the
    /// seat out for 30 s ([`AnswerOutcome::Wrong`] says until when). An answer while locked out,
    /// or after the race is over (including one at the same instant as the winning answer but
    /// received after it), is refused with [`MatchError::Answer`]; it is logged as
    /// [`LogEntry::AnswerRefused`] with the reason (only the first
    /// [`MatchConfig::logged_answer_refusals`] of a seat in one race; later ones are refused the
    /// same way but not logged, so a seat cannot grow the log without bound), except for an
    /// answer to a race that ended before `now`, which changes nothing and is not logged.
    /// [`MatchError::NoRace`] when no race has been opened in this match (not logged).
    pub fn answer(
        &mut self,
        seat: Seat,
        text: &str,
        now: u64,
    ) -> Result<AnswerOutcome, MatchError> {
        let now = self.advance(now)?;
        self.check_not_paused()?;
        let Some(race) = self.trivia.as_mut().and_then(|t| t.race.as_mut()) else {
            return Err(MatchError::NoRace);
        };
        // An answer to a race that ended before this instant changes nothing and is not logged;
        // one at the very instant it was won is judged (and logged) by the race.
        if let Some(r) = race.result().filter(|r| r.at() < now) {
            return Err(MatchError::Answer(RaceError::Over(format!(
                "it ended at {} ms ({})",
                r.at(),
                match r.winner() {
                    Some(s) => format!("won by {s}"),
                    None => "nobody answered correctly in time".to_string(),
                }
            ))));
        }
        // A refusal is logged only up to the cap per seat and race; later ones are answered the
        // same way but leave the race (and the log) as they were.
        if let Some(reason) = race.refusal(seat, text, now) {
            let count = &mut self.answer_refused[seat.index()];
            *count = count.saturating_add(1);
            if self
                .config
                .logged_answer_refusals
                .is_some_and(|cap| *count > cap)
            {
                return Err(MatchError::Answer(reason));
            }
        }
        let result = race.answer(seat, text, now);
        self.race_progress();
        Ok(result?)
    }

    /// Like [`Match::answer`], for the race opened at `race_opened_at` (as the view showed it):
    /// if another race is open by `now` (the one answered timed out and the next opened), the
    /// answer is refused with [`MatchError::StaleRace`] instead of being judged against a
    /// question the player has not seen. Transports should prefer it to [`Match::answer`].
    pub fn answer_to(
        &mut self,
        seat: Seat,
        race_opened_at: u64,
        text: &str,
        now: u64,
    ) -> Result<AnswerOutcome, MatchError> {
        self.advance(now)?;
        self.check_not_paused()?;
        let open = self.race().ok_or(MatchError::NoRace)?.opened_at();
        if open != race_opened_at {
            return Err(MatchError::StaleRace {
                asked: race_opened_at,
                open,
            });
        }
        self.answer(seat, text, now)
    }

    /// Tells the match the time is `now`: every deadline up to `now` fires, in order, at its own
    /// time. Returns the entries this added to the log. Calling it often or rarely gives the
    /// same match: every other event does the same first.
    pub fn tick(&mut self, now: u64) -> &[LogEntry] {
        let before = self.log.len();
        let _ = self.advance(now);
        &self.log[before..]
    }

    // ----- reading -----

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &MatchConfig {
        &self.config
    }

    /// The time control in force.
    #[must_use]
    pub fn time_control(&self) -> &TimeControl {
        &self.time
    }

    /// The game as it stands (the full state: not for sending out; use [`Match::view`]).
    #[must_use]
    pub fn game(&self) -> &dyn AnyGame {
        self.game.as_ref()
    }

    /// The log so far.
    #[must_use]
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The result, once the match is over.
    #[must_use]
    pub fn result(&self) -> Option<&MatchResult> {
        self.result.as_ref()
    }

    /// Whether the match is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// `seat`'s clock.
    #[must_use]
    pub fn clock(&self, seat: Seat) -> SeatClock {
        self.clocks[seat.index()]
    }

    /// `seat`'s pending submission (private to `seat`).
    #[must_use]
    pub fn submission(&self, seat: Seat) -> Option<&Submission> {
        self.pending[seat.index()].as_ref()
    }

    /// `seat`'s commitment in the pending sealed decision, if it has committed.
    #[must_use]
    pub fn commitment(&self, seat: Seat) -> Option<&str> {
        self.seals[seat.index()].as_deref()
    }

    /// The commitment `seat` makes to `text` with `nonce` in the pending decision of this match:
    /// [`commitment`] with the match's id, the pending decision and the seat
    /// ([`unbound_commitment`] in a match stored before commitments were bound).
    #[must_use]
    pub fn seal(&self, seat: Seat, text: &str, nonce: &str) -> String {
        match &self.config.match_id {
            Some(id) => commitment(id, self.decision(), seat, text, nonce),
            None => unbound_commitment(text, nonce),
        }
    }

    /// Where the pending decision stands if it is sealed (a sealed match, both seats acting),
    /// else `None`.
    #[must_use]
    pub fn sealed_phase(&self) -> Option<SealedPhase> {
        if !self.config.sealed || self.result.is_some() || self.game.pending() != Pending::Both {
            return None;
        }
        Some(if self.opening_from.is_some() {
            SealedPhase::Open
        } else {
            SealedPhase::Commit
        })
    }

    /// The latest time the match has been told.
    #[must_use]
    pub fn now(&self) -> u64 {
        self.now
    }

    /// How many submissions of `seat` were refused in the pending decision, logged or not. A
    /// rebuilt match counts only the logged ones.
    #[must_use]
    pub fn refusals(&self, seat: Seat) -> u32 {
        self.refused[seat.index()]
    }

    /// When the next deadline fires, if any: the transport calls [`Match::tick`] then.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        if self.result.is_some() || self.paused_at.is_some() {
            return None;
        }
        let pending = self.game.pending();
        let race = self
            .trivia
            .as_ref()
            .and_then(|t| t.race.as_ref())
            .and_then(Race::next_deadline);
        let opens = self.trivia.as_ref().and_then(|t| t.opens_at);
        Seat::BOTH
            .iter()
            .filter(|s| pending.includes(**s) && self.pending[s.index()].is_none())
            .filter_map(|s| self.clocks[s.index()].deadline)
            .chain(
                Seat::BOTH
                    .iter()
                    .filter(|s| self.turn_up_due(**s))
                    .filter_map(|s| self.clocks[s.index()].turn_deadline),
            )
            .chain(race)
            .chain(opens)
            .min()
    }

    /// The current trivia race (live Cauldron), or the last one once it is over; `None` before
    /// the first. It holds the accepted answers: not for sending out (use [`Match::view`]).
    #[must_use]
    pub fn race(&self) -> Option<&Race> {
        self.trivia.as_ref().and_then(|t| t.race.as_ref())
    }

    /// The trivia bank of a live Cauldron.
    #[must_use]
    pub fn bank(&self) -> Option<&Bank> {
        self.trivia.as_ref().map(|t| t.bank.as_ref())
    }

    /// The record of the game being played (docs/record-format.md; `colosseum replay` applies it).
    /// Every chance outcome the host drew is in it.
    #[must_use]
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Which game of the match is being played: 1, or 2 after a drawn game was replayed.
    #[must_use]
    pub fn game_number(&self) -> usize {
        self.earlier.len() + 1
    }

    /// The pending decision's number: how many steps (chance included) the match's games have
    /// had so far. It changes whenever a decision is made, so a move meant for an earlier
    /// decision can be told from one for the pending decision.
    #[must_use]
    pub fn decision(&self) -> u64 {
        let steps: usize = self
            .earlier
            .iter()
            .map(|g| g.record.steps.len())
            .sum::<usize>()
            + self.record.steps.len();
        steps as u64
    }

    /// The seats whose move in the last decided step (of the game being played) the host made
    /// because their time ran out: public, so a page can say "your time ran out".
    #[must_use]
    pub fn last_timed_out(&self) -> Vec<Seat> {
        let Some(last) = self.record.steps.iter().rposition(|s| !s.is_chance()) else {
            return Vec::new();
        };
        let game = self.earlier.len();
        self.defaults
            .iter()
            .filter(|d| d.0 == game && d.1 == last)
            .map(|d| d.2)
            .collect()
    }

    /// Where the host made a seat's move because its time ran out: (game index from 0, step
    /// index in that game's record, seat).
    #[must_use]
    pub fn defaults(&self) -> &[(usize, usize, Seat)] {
        &self.defaults
    }

    /// The records of every game of the match, earlier (drawn, replayed) games first.
    #[must_use]
    pub fn records(&self) -> Vec<Record> {
        self.earlier
            .iter()
            .map(|g| g.record.clone())
            .chain(std::iter::once(self.record.clone()))
            .collect()
    }

    /// The match as `viewer` may see it: the game's view for `viewer`, the pending decision,
    /// for each seat whether its submission is in (never its text, except to the seat itself)
    /// and its clock, earlier games, the races, the move log and chat this viewer may read, and
    /// the result. Everything a server sends is built from this; its JSON is documented in
    /// `docs/server-api.md` ("The state", `match`).
    ///
    /// In a sealed match each seat also has `committed`, `commitment` (the hash, shown to
    /// everyone: it reveals nothing without the nonce) and `opened`; `sealed.last` is the last
    /// sealed decision revealed, with each committed seat's move as opened and nonce, so anyone
    /// can check the openings against the commitments.
    #[must_use]
    pub fn view(&self, viewer: Viewer) -> MatchView {
        MatchView {
            game: self.entry.id,
            game_number: self.earlier.len() + 1,
            options: self.record.options.clone(),
            view: self.game.view_json(viewer),
            pending: self.game.pending(),
            decision: self.game.decision_kind(),
            seats: self.seat_views(viewer),
            now: self.now,
            time_control: self.time.clone(),
            earlier_games: self.earlier_games(),
            timed_out: self.last_timed_out(),
            race: self.race_view(),
            races: self
                .trivia
                .as_ref()
                .map(|t| t.finished.clone())
                .unwrap_or_default(),
            moves: self.move_log(viewer),
            chat: self.chat_of(viewer).cloned().collect(),
            result: self.result.clone(),
            sealed: self.sealed_view(),
        }
    }

    /// [`Match::view`] as JSON text, equal as JSON to `serde_json::to_value(self.view(viewer))`,
    /// written without building the view (what a server sends on every change): the game's view
    /// straight from its typed view, and the move log from `log`, which keeps the lines rendered
    /// for this viewer by earlier calls. A line other than the last changes only when the match
    /// ends (its records are published), so only the last line and new ones are rendered again.
    /// `log` belongs to one viewer of this match: it starts over by itself when the match ends
    /// or is another match (another seed), or when the log is shorter than it holds.
    ///
    /// `now` is the last member, so the text ends with `"now":N}`: a caller can tell two texts
    /// apart with the times aside by what comes before the last `"now":`.
    #[must_use]
    pub fn view_text(&self, viewer: Viewer, log: &mut MoveLogText) -> String {
        fn member<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, name: &str, value: &T) {
            name_of(out, name);
            serde_json::to_writer(&mut *out, value).expect("a view member serializes");
        }
        fn name_of(out: &mut Vec<u8>, name: &str) {
            if out.len() > 1 {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b"\":");
        }
        let mut out = Vec::with_capacity(2048);
        out.push(b'{');
        member(&mut out, "game", self.entry.id);
        member(&mut out, "game_number", &(self.earlier.len() + 1));
        member(&mut out, "options", &self.record.options);
        name_of(&mut out, "view");
        out.extend_from_slice(self.game.view_text(viewer).as_bytes());
        member(&mut out, "pending", &self.game.pending());
        member(&mut out, "decision", self.game.decision_kind());
        member(&mut out, "seats", &self.seat_views(viewer));
        member(&mut out, "time_control", &self.time);
        member(&mut out, "earlier_games", &self.earlier_games());
        member(&mut out, "timed_out", &self.last_timed_out());
        member(&mut out, "race", &self.race_view());
        let races: &[FinishedRace] = self.trivia.as_ref().map_or(&[], |t| &t.finished[..]);
        member(&mut out, "races", races);
        name_of(&mut out, "moves");
        self.move_log_text(viewer, log, &mut out);
        let chat: Vec<&ChatLine> = self.chat_of(viewer).collect();
        member(&mut out, "chat", &chat);
        member(&mut out, "result", &self.result);
        member(&mut out, "sealed", &self.sealed_view());
        member(&mut out, "now", &self.now);
        out.push(b'}');
        String::from_utf8(out).expect("JSON text is UTF-8")
    }

    /// The move log's JSON array for `viewer`, its lines kept in `log` (see [`Match::view_text`]).
    fn move_log_text(&self, viewer: Viewer, log: &mut MoveLogText, out: &mut Vec<u8>) {
        let over = self.result.is_some();
        let key = (self.config.seed, self.entry.id);
        if log.over != over || log.key != Some(key) || log.lines.len() > self.notes.len() {
            log.lines.clear();
            log.over = over;
            log.key = Some(key);
        }
        // The last line kept may have changed (a face-down move shown once answered).
        let from = log.lines.len().saturating_sub(1);
        log.lines.truncate(from);
        let context = self.log_context();
        for note in &self.notes[from..] {
            let line = self.move_line(viewer, note, &context);
            log.lines.push(line.map(|l| {
                serde_json::to_string(&l)
                    .expect("a move line serializes")
                    .into_boxed_str()
            }));
        }
        out.push(b'[');
        let mut first = true;
        for line in log.lines.iter().flatten() {
            if !first {
                out.push(b',');
            }
            first = false;
            out.extend_from_slice(line.as_bytes());
        }
        out.push(b']');
    }

    /// Each seat as `viewer` sees it: who plays it, whether it acts, has submitted or locked,
    /// its clock (and its own pending move, to the seat itself only).
    fn seat_views(&self, viewer: Viewer) -> SeatPair<SeatView> {
        let pending = self.game.pending();
        let seat_view = |seat: Seat| {
            let i = seat.index();
            let sub = self.pending[i].as_ref();
            let own = (viewer == Viewer::Seat(seat)).then_some(sub).flatten();
            let sealed = self.config.sealed;
            SeatView {
                player: self.config.player(seat).clone(),
                to_act: self.result.is_none() && pending.includes(seat),
                submitted: sub.is_some(),
                locked: sub.is_some_and(|s| s.locked),
                clock: self.clocks[i],
                // The hash is shown to everyone: with a nonce of 128 bits or more it tells
                // nothing, and it lets the other seat check the opening after the reveal.
                committed: sealed.then_some(self.seals[i].is_some()),
                commitment: sealed.then(|| self.seals[i].clone()),
                opened: sealed
                    .then_some(self.seals[i].is_some() && sub.is_some_and(|s| !s.by_default)),
                submission: own.map(|s| s.text.clone()),
                by_default: own.map(|s| s.by_default),
            }
        };
        SeatPair {
            p1: seat_view(Seat::P1),
            p2: seat_view(Seat::P2),
        }
    }

    fn earlier_games(&self) -> Vec<EarlierGameView> {
        self.earlier
            .iter()
            .map(|g| EarlierGameView {
                outcome: g.outcome.clone(),
            })
            .collect()
    }

    /// The chat lines `viewer` may read.
    fn chat_of(&self, viewer: Viewer) -> impl Iterator<Item = &ChatLine> {
        self.chat
            .iter()
            .filter(move |(_, l)| reads(viewer, l.channel))
            .map(|(_, l)| l)
    }

    fn sealed_view(&self) -> Option<SealedView> {
        self.config.sealed.then(|| SealedView {
            phase: self.sealed_phase(),
            opening_from: self.opening_from,
            last: self.last_sealed.clone(),
        })
    }

    /// Every step of the match as `viewer` may know it. While the match runs, a game's secret
    /// chance outcomes ([`colosseum_engine::Game::SECRET_CHANCE`]) are left out, and so is a
    /// face-down move ([`colosseum_engine::Game::FACE_DOWN_LONE_MOVES`]) from everyone but its
    /// seat while the other seat is still to answer it. Once the match is over (its records are
    /// published), every step is shown.
    #[must_use]
    pub fn move_log(&self, viewer: Viewer) -> Vec<MoveLine> {
        let context = self.log_context();
        self.notes
            .iter()
            .filter_map(|n| self.move_line(viewer, n, &context))
            .collect()
    }

    fn log_context(&self) -> LogContext {
        let over = self.result.is_some();
        LogContext {
            current: self.earlier.len(),
            pending: self.game.pending(),
            secret_chance: !over && self.game.secret_chance(),
            face_down: !over && self.game.face_down_lone_moves(),
        }
    }

    /// One step of the move log as `viewer` may know it (`None`: its step is not in the
    /// records).
    fn move_line(&self, viewer: Viewer, n: &StepNote, cx: &LogContext) -> Option<MoveLine> {
        let record = if n.game == cx.current {
            &self.record
        } else {
            &self.earlier.get(n.game)?.record
        };
        let step = record.steps.get(n.step)?;
        let mut line = MoveLine {
            game: n.game + 1,
            step: n.step,
            at: n.at,
            kind: n.kind,
            p1: step.p1.clone(),
            p2: step.p2.clone(),
            chance: step.chance.clone(),
            hidden: false,
            face_down: Vec::new(),
            by_default: self
                .defaults
                .iter()
                .filter(|d| d.0 == n.game && d.1 == n.step)
                .map(|d| d.2)
                .collect(),
        };
        if cx.secret_chance && line.chance.is_some() {
            line.chance = None;
            line.hidden = true;
        }
        let last = n.game == cx.current && n.step + 1 == record.steps.len();
        if cx.face_down && last {
            for seat in Seat::BOTH {
                let alone = step.slot(seat).is_some() && step.slot(seat.other()).is_none();
                if alone && cx.pending == Pending::One(seat.other()) && viewer != Viewer::Seat(seat)
                {
                    match seat {
                        Seat::P1 => line.p1 = None,
                        Seat::P2 => line.p2 = None,
                    }
                    line.hidden = true;
                    line.face_down.push(seat);
                }
            }
        }
        Some(line)
    }

    /// The race as anyone may see it: never the accepted answers (nor the question's id) while
    /// it runs.
    fn race_view(&self) -> Option<RaceView> {
        let t = self.trivia.as_ref()?;
        let race = t.race.as_ref()?;
        let q = race.question();
        let result = race.result();
        let seat = |s: Seat| RaceSeatView {
            lockout_until: race.lockout_until(s),
            locked_out: result.is_none() && race.is_locked_out(s, self.now),
        };
        Some(RaceView {
            round: t.stake.round.clone(),
            prizes: t.stake.prizes.clone(),
            question: q.question.clone(),
            category: q.category,
            opened_at: race.opened_at(),
            deadline: race.deadline(),
            lasts_ms: colosseum_trivia::RACE_MS,
            lockout_ms: colosseum_trivia::LOCKOUT_MS,
            seats: SeatPair {
                p1: seat(Seat::P1),
                p2: seat(Seat::P2),
            },
            over: result.is_some(),
            winner: result.and_then(|r| r.winner()),
            ended_at: result.map(|r| r.at()),
            // The id may be telling (a bank's author picks it): shown with the answers only.
            question_id: result.map(|_| q.id.clone()),
            answers: result.map(|_| q.answers.clone()),
            next_opens_at: t.opens_at,
        })
    }

    // ----- the host's powers (a tournament's host; each logged as an input) -----

    /// Whether the host has paused the match.
    #[must_use]
    pub fn paused(&self) -> bool {
        self.paused_at.is_some()
    }

    /// The host pauses the match at `now`: no deadline runs and no seat's move, lock,
    /// commitment, opening or answer is taken ([`MatchError::Paused`]) until [`Match::resume`].
    /// Refused while a trivia race runs (its own clock cannot stop): pause between races.
    pub fn pause(&mut self, now: u64) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        if self.paused_at.is_some() {
            return Err(MatchError::PauseRefused(
                "the match is paused already".into(),
            ));
        }
        if self.race().and_then(Race::next_deadline).is_some() {
            return Err(MatchError::PauseRefused(
                "a trivia race is running: pause once it is decided".into(),
            ));
        }
        self.paused_at = Some(now);
        self.log.push(LogEntry::Paused { at: now });
        Ok(())
    }

    /// The host resumes a paused match at `now`: every running deadline moves on by the
    /// pause's length, so nobody loses time to it.
    pub fn resume(&mut self, now: u64) -> Result<(), MatchError> {
        let Some(since) = self.paused_at else {
            self.advance(now)?;
            return Err(MatchError::PauseRefused("the match is not paused".into()));
        };
        let now = self.advance(now)?;
        let shift = now - since;
        for c in &mut self.clocks {
            c.turn_deadline = c.turn_deadline.map(|t| t.saturating_add(shift));
            c.deadline = c.deadline.map(|t| t.saturating_add(shift));
        }
        self.paused_at = None;
        self.log.push(LogEntry::Resumed { at: now });
        Ok(())
    }

    /// The host gives `seat` `ms` more at `now`: the seat's running deadline (and the end of
    /// its decision's own time) moves on by `ms`; with no deadline running, its bank grows.
    pub fn give_time(&mut self, seat: Seat, ms: u64, now: u64) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        let c = &mut self.clocks[seat.index()];
        match c.deadline {
            Some(d) => {
                c.deadline = Some(d.saturating_add(ms));
                c.turn_deadline = c.turn_deadline.map(|t| t.saturating_add(ms));
            }
            None => c.bank_ms = c.bank_ms.saturating_add(ms),
        }
        self.log.push(LogEntry::TimeGiven { at: now, seat, ms });
        Ok(())
    }

    /// Holds `seat`'s clock at `now` (a server's bot whose search waits for a free slot: its
    /// time must not run while it cannot think): its running deadlines stop, what is left of
    /// them is kept, and [`Match::free_clock`] starts them again with that much left. Logged
    /// ([`LogEntry::ClockHeld`]) only if it holds something: the seat acts in the pending
    /// decision, has not submitted, its clock runs, it is not held already and the match is
    /// not paused (a pause stops every clock anyway). A new decision, a submission or a
    /// timeout ends the hold.
    pub fn hold_clock(&mut self, seat: Seat, now: u64) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        let i = seat.index();
        if self.paused_at.is_some()
            || self.held[i].is_some()
            || !self.game.pending().includes(seat)
            || self.pending[i].is_some()
        {
            return Ok(());
        }
        let c = &mut self.clocks[i];
        let Some(deadline) = c.deadline else {
            return Ok(());
        };
        self.held[i] = Some(HeldClock {
            turn_left: c.turn_deadline.map(|t| t.saturating_sub(now)),
            left: deadline.saturating_sub(now),
        });
        c.deadline = None;
        c.turn_deadline = None;
        self.log.push(LogEntry::ClockHeld { at: now, seat });
        Ok(())
    }

    /// Frees `seat`'s clock held by [`Match::hold_clock`] at `now`: its deadlines run again
    /// with what was left when it was held (from the pause's start if the match is paused
    /// now: the resume moves them on). Logged ([`LogEntry::ClockFreed`], with how long it was
    /// held) only if it was held.
    pub fn free_clock(&mut self, seat: Seat, now: u64) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        let i = seat.index();
        let Some(h) = self.held[i].take() else {
            return Ok(());
        };
        let from = self.paused_at.unwrap_or(now);
        let c = &mut self.clocks[i];
        c.turn_deadline = h.turn_left.map(|t| from.saturating_add(t));
        c.deadline = Some(from.saturating_add(h.left));
        let last_held = self
            .log
            .iter()
            .rev()
            .find_map(|e| match e {
                LogEntry::ClockHeld { at, seat: s } if *s == seat => Some(*at),
                _ => None,
            })
            .unwrap_or(now);
        self.log.push(LogEntry::ClockFreed {
            at: now,
            seat,
            held_ms: now.saturating_sub(last_held),
        });
        Ok(())
    }

    /// Whether `seat`'s clock is held ([`Match::hold_clock`]).
    #[must_use]
    pub fn clock_held(&self, seat: Seat) -> bool {
        self.held[seat.index()].is_some()
    }

    /// The host decides the match at `now`: `winner` (`None`, a draw) for `reason`. The match
    /// ends ([`EndKind::Adjudicated`]); the reason is in the log and the result.
    pub fn adjudicate(
        &mut self,
        winner: Option<Seat>,
        reason: &str,
        now: u64,
    ) -> Result<(), MatchError> {
        let now = self.advance(now)?;
        self.log.push(LogEntry::Adjudicated {
            at: now,
            winner,
            reason: reason.to_string(),
        });
        self.finish(
            now,
            MatchResult {
                winner,
                by: EndKind::Adjudicated,
                reason: format!("adjudicated by the host: {reason}"),
            },
        );
        Ok(())
    }

    fn check_not_paused(&self) -> Result<(), MatchError> {
        if self.paused_at.is_some() {
            Err(MatchError::Paused)
        } else {
            Ok(())
        }
    }

    // ----- the machinery -----

    /// Moves time on to `now` (never back), firing deadlines; `Err(Over)` if the match is over.
    fn advance(&mut self, now: u64) -> Result<u64, MatchError> {
        if self.result.is_some() {
            return Err(MatchError::Over);
        }
        let now = now.max(self.now);
        while let Some(t) = self.next_deadline().filter(|&t| t <= now) {
            self.expire(t);
        }
        self.now = now;
        if self.result.is_some() {
            Err(MatchError::Over)
        } else {
            Ok(now)
        }
    }

    fn clocks_cfg(&self) -> Option<&Clocks> {
        self.time.clocks()
    }

    /// Whether `seat`'s turn time running out is still to be noted ([`LogEntry::TurnUp`]): it
    /// acts, has not submitted or committed, and has a bank to start.
    fn turn_up_due(&self, seat: Seat) -> bool {
        let i = seat.index();
        !self.turn_up[i]
            && self.pending[i].is_none()
            && self.seals[i].is_none()
            && self.clocks[i].bank_ms > 0
            && self.clocks[i].turn_deadline.is_some()
            && self.game.pending().includes(seat)
    }

    /// Every seat whose deadline is `t` and has not submitted: spend a bank step, or apply the
    /// empty-bank rule.
    fn expire(&mut self, t: u64) {
        if let Some(tr) = self.trivia.as_mut().filter(|tr| tr.opens_at == Some(t)) {
            tr.opens_at = None;
            self.open_race(t);
            return;
        }
        if let Some(race) = self.trivia.as_mut().and_then(|tr| tr.race.as_mut()) {
            if race.next_deadline() == Some(t) {
                race.tick(t);
                self.race_progress();
                return;
            }
        }
        let Some(cfg) = self.clocks_cfg().cloned() else {
            return;
        };
        let kind = self.game.decision_kind();
        for seat in Seat::BOTH {
            let i = seat.index();
            if self.turn_up_due(seat) && self.clocks[i].turn_deadline == Some(t) {
                self.turn_up[i] = true;
                self.log.push(LogEntry::TurnUp {
                    at: t,
                    seat,
                    turn_ms: cfg.decision_ms(kind),
                    bank_ms: self.clocks[i].bank_ms,
                });
            }
        }
        let pending = self.game.pending();
        let due = |s: &Seat| {
            pending.includes(*s)
                && self.pending[s.index()].is_none()
                && self.clocks[s.index()].deadline == Some(t)
        };
        if !Seat::BOTH.iter().any(due) {
            // Only a turn's time ran out (a continuous bank runs on): nothing else to do.
            return;
        }
        let mut losers = Vec::new();
        for seat in Seat::BOTH {
            let i = seat.index();
            if !pending.includes(seat)
                || self.pending[i].is_some()
                || self.clocks[i].deadline != Some(t)
            {
                continue;
            }
            if self.seals[i].is_some() {
                // Committed but not opened in time (sealed match): no bank, the timeout
                // treatment.
                if self.time_out(seat, t) {
                    losers.push(seat);
                }
                continue;
            }
            let bank = self.clocks[i].bank_ms;
            if cfg.bank_step_ms > 0 && bank > 0 {
                let spend = cfg.bank_step_ms.min(bank);
                self.clocks[i].bank_ms -= spend;
                self.clocks[i].deadline = Some(t.saturating_add(spend));
                self.log.push(LogEntry::BankSpent {
                    at: t,
                    seat,
                    ms: spend,
                    left_ms: bank - spend,
                });
                continue;
            }
            if bank > 0 {
                // A continuous bank runs out exactly at the deadline.
                self.clocks[i].bank_ms = 0;
                self.log.push(LogEntry::BankSpent {
                    at: t,
                    seat,
                    ms: bank,
                    left_ms: 0,
                });
            }
            if self.time_out(seat, t) {
                losers.push(seat);
            }
        }
        match losers[..] {
            [] => {
                self.begin_openings(t);
                self.reveal_if_complete(t);
            }
            [seat] => self.finish(
                t,
                MatchResult {
                    winner: Some(seat.other()),
                    by: EndKind::Time,
                    reason: format!("{seat} ran out of time ({kind})"),
                },
            ),
            _ => self.finish(
                t,
                MatchResult {
                    winner: None,
                    by: EndKind::Time,
                    reason: format!("both seats ran out of time ({kind})"),
                },
            ),
        }
    }

    /// What a commitment of `seat` in the pending decision hashes, in words, with `text` and
    /// `nonce` as given.
    fn preimage_words(&self, seat: Seat, text: &str, nonce: &str) -> String {
        match &self.config.match_id {
            Some(id) => format!(
                "`{SEAL_SCHEME}`, the match id `{id}`, the decision {}, the seat `{seat}`, {text} and {nonce}, one a line",
                self.decision()
            ),
            None => format!("{text}, a newline and {nonce}"),
        }
    }

    /// Refuses a commitment or opening outside a sealed simultaneous decision of `seat`.
    fn check_sealed(&self) -> Result<(), MatchError> {
        if !self.config.sealed {
            return Err(MatchError::NotSealed(
                "this match is not sealed: submit moves with ordinary submissions".into(),
            ));
        }
        if self.game.pending() != Pending::Both {
            return Err(MatchError::NotSealed(format!(
                "only simultaneous decisions are sealed; this one ({}) is played with an ordinary submission",
                self.game.decision_kind()
            )));
        }
        Ok(())
    }

    /// In a sealed decision, once every seat is in (committed, or moved for by the host), the
    /// openings begin at `now`: each committed seat has the decision's own time again to open.
    fn begin_openings(&mut self, now: u64) {
        if self.opening_from.is_some()
            || self.sealed_phase().is_none()
            || Seat::BOTH
                .iter()
                .any(|s| self.seals[s.index()].is_none() && self.pending[s.index()].is_none())
        {
            return;
        }
        self.opening_from = Some(now);
        let window = self
            .clocks_cfg()
            .map(|c| now.saturating_add(c.decision_ms(self.game.decision_kind())));
        for seat in Seat::BOTH {
            let i = seat.index();
            if self.seals[i].is_some() && self.pending[i].is_none() {
                self.held[i] = None;
                self.clocks[i].turn_deadline = window;
                self.clocks[i].deadline = window;
            }
        }
    }

    /// A seat whose time (and bank) ran out, or a committed seat that did not open in time or
    /// whose opening the game refused: its clock stops, and the game's default move is made
    /// for it (locked), or, where the time control's empty-bank rule makes this decision's
    /// timeout lose, a [`LogEntry::TimedOut`] is logged. Returns whether the seat lost; the
    /// caller ends the match then (the other seat may be losing at the same instant).
    fn time_out(&mut self, seat: Seat, t: u64) -> bool {
        let i = seat.index();
        self.held[i] = None;
        self.clocks[i].deadline = None;
        self.clocks[i].turn_deadline = None;
        let kind = self.game.decision_kind();
        if self.clocks_cfg().is_some_and(|c| c.empty_bank.loses(kind)) {
            self.log.push(LogEntry::TimedOut { at: t, seat });
            return true;
        }
        let text = if self.config.step_defaults {
            let mut rng = seeded_rng(default_move_seed(
                self.config.seed,
                self.earlier.len() + 1,
                self.record.steps.len(),
                seat,
            ));
            default_move(self.game.as_ref(), seat, &mut rng)
        } else {
            default_move(self.game.as_ref(), seat, &mut self.rng)
        };
        self.log.push(LogEntry::DefaultApplied {
            at: t,
            seat,
            text: text.clone(),
        });
        self.defaults
            .push((self.earlier.len(), self.record.steps.len(), seat));
        self.pending[i] = Some(Submission {
            text,
            locked: true,
            by_default: true,
        });
        false
    }

    /// The seat submitted at `now`: its clock stops; time beyond its turn comes out of a
    /// continuous bank.
    fn stop_clock(&mut self, seat: Seat, now: u64) {
        let i = seat.index();
        self.held[i] = None;
        let continuous = self.clocks_cfg().is_some_and(|c| c.bank_step_ms == 0);
        if let Some(turn) = self.clocks[i].turn_deadline {
            if continuous && now > turn {
                let spend = (now - turn).min(self.clocks[i].bank_ms);
                self.clocks[i].bank_ms -= spend;
                self.log.push(LogEntry::BankSpent {
                    at: now,
                    seat,
                    ms: spend,
                    left_ms: self.clocks[i].bank_ms,
                });
            }
        }
        self.clocks[i].turn_deadline = None;
        self.clocks[i].deadline = None;
    }

    fn reveal_if_complete(&mut self, now: u64) {
        if self.result.is_some() {
            return;
        }
        let pending = self.game.pending();
        let seats = pending.seats();
        if seats.is_empty() || seats.iter().any(|s| self.pending[s.index()].is_none()) {
            return;
        }
        let mut step = TextStep::default();
        for &seat in seats {
            let text = self.pending[seat.index()].take().map(|s| s.text);
            match seat {
                Seat::P1 => step.p1 = text,
                Seat::P2 => step.p2 = text,
            }
        }
        if self.sealed_phase().is_some() {
            self.last_sealed = Some(self.sealed_openings());
        }
        self.note_step(now);
        self.game
            .apply(&step)
            .expect("submissions checked against this state are accepted together");
        self.record.steps.push(step.clone());
        self.log.push(LogEntry::Revealed { at: now, step });
        self.after_step(now);
    }

    /// The sealed decision being revealed as views show it: per seat its commitment and the
    /// move and nonce it opened with (from the log), `None` for a seat that did not commit.
    fn sealed_openings(&self) -> SeatPair<Option<SealedOpening>> {
        let opened = |seat: Seat| {
            // The seat's entries back to its commitment in this decision.
            for e in self.log.iter().rev() {
                match e {
                    LogEntry::Opened {
                        seat: s,
                        text,
                        nonce,
                        ..
                    }
                    | LogEntry::OpeningRefused {
                        seat: s,
                        text,
                        nonce,
                        ..
                    } if *s == seat => return Some((text.clone(), nonce.clone())),
                    LogEntry::Committed { seat: s, .. } if *s == seat => return None,
                    _ => {}
                }
            }
            None
        };
        let one = |seat: Seat| {
            self.seals[seat.index()].as_ref().map(|hash| {
                let (text, nonce) = opened(seat).map_or((None, None), |(t, n)| (Some(t), Some(n)));
                SealedOpening {
                    commitment: hash.clone(),
                    text,
                    nonce,
                }
            })
        };
        SeatPair {
            p1: one(Seat::P1),
            p2: one(Seat::P2),
        }
    }

    /// Notes where and when the step about to be applied is made (for the move log).
    fn note_step(&mut self, at: u64) {
        self.notes.push(StepNote {
            game: self.earlier.len(),
            step: self.record.steps.len(),
            at,
            kind: self.game.decision_kind(),
        });
    }

    /// After a step: draw chance, then start the next decision or end the game.
    fn after_step(&mut self, now: u64) {
        self.pending = [None, None];
        self.refused = [0, 0];
        self.changed = [0, 0];
        self.seals = [None, None];
        self.opening_from = None;
        self.clocks
            .iter_mut()
            .for_each(|c| (c.turn_deadline, c.deadline) = (None, None));
        loop {
            match self.game.pending() {
                Pending::Chance if self.race_due() => return self.next_race(now),
                Pending::Chance => {
                    self.note_step(now);
                    let step = self
                        .game
                        .apply_random_chance(&mut self.chance_rng)
                        .expect("a pending chance event can be drawn");
                    self.record.steps.push(step.clone());
                    self.log.push(LogEntry::ChanceDrawn { at: now, step });
                }
                Pending::Over => return self.game_over(now),
                pending => return self.start_decision(pending, now),
            }
        }
    }

    /// Whether the pending chance step is a race the host must run (a live Cauldron).
    fn race_due(&self) -> bool {
        self.trivia.as_ref().is_some_and(|t| t.fed)
            && self
                .entry
                .races
                .is_some_and(|r| self.game.decision_kind() == r.kind)
    }

    /// Opens the next race at `now`, or, if the last race was won by nobody less than
    /// [`RACE_PAUSE_MS`] ago, at the end of that pause (a deadline).
    fn next_race(&mut self, now: u64) {
        let Some(t) = self.trivia.as_mut() else {
            return;
        };
        let after = t
            .finished
            .last()
            .filter(|f| f.winner.is_none())
            .map(|f| f.ended_at.saturating_add(RACE_PAUSE_MS));
        match after {
            Some(at) if at > now => t.opens_at = Some(at),
            _ => self.open_race(now),
        }
    }

    /// Opens a race at `now` with the next question: drawn by the host's generator among the
    /// questions not yet asked, preferring the round's category or `free`; when every question
    /// has been asked, they all become available again.
    fn open_race(&mut self, now: u64) {
        let Some(races) = self.entry.races else {
            return;
        };
        let stake = (races.stake)(self.game.as_ref());
        let category = Category::of_label(&stake.round);
        self.answer_refused = [0, 0];
        let Some(t) = self.trivia.as_mut() else {
            return;
        };
        if t.asked.iter().all(|&a| a) {
            t.asked.fill(false);
        }
        let questions = t.bank.questions();
        let unasked: Vec<usize> = (0..questions.len()).filter(|&i| !t.asked[i]).collect();
        let fitting: Vec<usize> = unasked
            .iter()
            .copied()
            .filter(|&i| matches!(questions[i].category, c if c == category || c == Category::Free))
            .collect();
        let pool = if fitting.is_empty() { unasked } else { fitting };
        let pick = pool[self.rng.random_range(0..pool.len())];
        t.asked[pick] = true;
        t.race = Some(Race::open(questions[pick].clone(), now));
        t.stake = stake;
        t.mirrored = 0;
        t.fed = false;
        self.race_progress();
    }

    /// Copies the race's new events into the log; once it is over, gives its result to the game
    /// as the race's chance step and goes on.
    fn race_progress(&mut self) {
        let Some(t) = self.trivia.as_mut() else {
            return;
        };
        let Some(race) = &t.race else {
            return;
        };
        for e in &race.log()[t.mirrored..] {
            self.log.push(match e.clone() {
                RaceEvent::Opened {
                    at,
                    question_id,
                    deadline,
                } => LogEntry::RaceOpened {
                    at,
                    round: t.stake.round.clone(),
                    question_id,
                    deadline,
                },
                RaceEvent::Answered {
                    at,
                    seat,
                    text,
                    correct,
                    locked_until,
                } => LogEntry::Answered {
                    at,
                    seat,
                    text,
                    correct,
                    locked_until,
                },
                RaceEvent::Refused {
                    at,
                    seat,
                    text,
                    reason,
                } => LogEntry::AnswerRefused {
                    at,
                    seat,
                    text,
                    reason: reason.to_string(),
                },
                RaceEvent::Won { at, seat } => LogEntry::RaceWon { at, seat },
                RaceEvent::TimedOut { at } => LogEntry::RaceTimedOut { at },
            });
        }
        t.mirrored = race.log().len();
        let Some(result) = race.result().filter(|_| !t.fed) else {
            return;
        };
        t.fed = true;
        let at = result.at();
        let step = TextStep::chance(result.as_chance());
        t.finished.push(FinishedRace {
            stake: t.stake.clone(),
            question: race.question().question.clone(),
            category: race.question().category,
            question_id: race.question().id.clone(),
            answers: race.question().answers.clone(),
            opened_at: race.opened_at(),
            ended_at: at,
            winner: result.winner(),
        });
        self.note_step(at);
        self.game
            .apply(&step)
            .expect("the race's chance step accepts p1, p2 and none");
        self.record.steps.push(step.clone());
        self.log.push(LogEntry::ChanceDrawn { at, step });
        self.after_step(at);
    }

    fn start_decision(&mut self, pending: Pending, now: u64) {
        self.held = [None, None];
        self.turn_up = [false, false];
        let Some(cfg) = self.clocks_cfg() else {
            return;
        };
        let turn = now.saturating_add(cfg.decision_ms(self.game.decision_kind()));
        let continuous = cfg.bank_step_ms == 0;
        for &seat in pending.seats() {
            let c = &mut self.clocks[seat.index()];
            c.turn_deadline = Some(turn);
            c.deadline = Some(if continuous {
                turn.saturating_add(c.bank_ms)
            } else {
                turn
            });
        }
    }

    fn game_over(&mut self, now: u64) {
        let outcome = self.game.outcome();
        let drawn = outcome.as_ref().is_some_and(|o| o.winner.is_none());
        if drawn && self.config.replays_on_draw_of(self.entry) {
            if self.earlier.is_empty() {
                let replay = self
                    .entry
                    .replay
                    .expect("a match that replays draws is of a game that can (Match::new)");
                let options = replay(&self.record.options);
                let game = (self.entry.create)(&options)
                    .expect("a game's replay options are valid options");
                let record = Record::new(self.entry.id, options.clone(), self.config.seed);
                let old = std::mem::replace(&mut self.record, record);
                self.earlier.push(EarlierGame {
                    record: old,
                    outcome,
                });
                self.game = game;
                self.chance_rng = seeded_rng(self.config.seed);
                self.log.push(LogEntry::GameReplayed { at: now, options });
                return self.after_step(now);
            }
            let result = match self.config.advantage {
                Some(seat) => MatchResult {
                    winner: Some(seat),
                    by: EndKind::SecondDraw,
                    reason: format!(
                        "the replayed game was drawn too; {seat} holds the advantage and wins"
                    ),
                },
                None => MatchResult {
                    winner: None,
                    by: EndKind::SecondDraw,
                    reason: "the replayed game was drawn too; nobody holds the advantage".into(),
                },
            };
            return self.finish(now, result);
        }
        let result = match outcome {
            Some(o) => MatchResult {
                winner: o.winner,
                by: EndKind::Game,
                reason: o.reason,
            },
            None => MatchResult {
                winner: None,
                by: EndKind::Game,
                reason: "the game ended without an outcome".into(),
            },
        };
        self.finish(now, result);
    }

    fn finish(&mut self, now: u64, result: MatchResult) {
        self.clocks
            .iter_mut()
            .for_each(|c| (c.turn_deadline, c.deadline) = (None, None));
        self.log.push(LogEntry::MatchEnded {
            at: now,
            result: result.clone(),
        });
        self.result = Some(result);
    }
}

/// Compares everything that makes up a match: configuration, game (through every viewer's view,
/// the pending decision, score and outcome), record, submissions, clocks, generator, log and
/// result. `now` (the latest time told) is left out: a tick that fired nothing leaves no trace.
impl PartialEq for Match {
    fn eq(&self, other: &Match) -> bool {
        let game_eq = |a: &dyn AnyGame, b: &dyn AnyGame| {
            a.pending() == b.pending()
                && a.score() == b.score()
                && a.outcome() == b.outcome()
                && [
                    Viewer::Spectator,
                    Viewer::Seat(Seat::P1),
                    Viewer::Seat(Seat::P2),
                ]
                .iter()
                .all(|v| a.view_json(*v) == b.view_json(*v))
        };
        self.config == other.config
            && self.time == other.time
            && game_eq(self.game.as_ref(), other.game.as_ref())
            && self.record == other.record
            && self.earlier == other.earlier
            && self.pending == other.pending
            && self.clocks == other.clocks
            && self.paused_at == other.paused_at
            && self.held == other.held
            && self.rng == other.rng
            && self.chance_rng == other.chance_rng
            && self.defaults == other.defaults
            && self.log == other.log
            && self.result == other.result
            && self.trivia == other.trivia
            && self.seals == other.seals
            && self.changed == other.changed
            && self.seen == other.seen
            && self.opening_from == other.opening_from
            && self.last_sealed == other.last_sealed
            && self.notes == other.notes
            && self.chat == other.chat
    }
}

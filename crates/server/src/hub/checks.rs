//! The checks of what a match is created with, free of any hub: display names, bot levels, time
//! controls, the public setup a commitment binds, and the secrets' helpers. Re-exported from
//! [`crate::hub`].

use colosseum_ai::registry::{self as bots, BotSpec};
use colosseum_engine::RawOptions;
use colosseum_host::{MatchConfig, Player, TimeControl};
use rand::TryRngCore;
use serde_json::Value;

use crate::error::ApiError;
use crate::limits::Limits;

/// The largest budget a server bot may be given by default (a bot name is chosen by whoever
/// creates the match, so it must not be able to hold a core for minutes); `Limits::bot_max_ms`.
pub const MAX_BOT_MS: u64 = 5_000;
/// The largest iteration budget a server bot may be given by default; `Limits::bot_max_iters`.
pub const MAX_BOT_ITERS: u64 = 50_000;

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

/// `bytes` bytes from the OS's random source, in hex: tokens, seeds and ids.
pub(crate) fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng
        .try_fill_bytes(&mut buf)
        .expect("the OS random source works");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares secrets in time independent of where they differ (the one comparison, the
/// tournament crate's, for match, admin and tournament tokens alike).
pub(crate) use colosseum_tournament::same_secret;

/// The longest display name, in characters.
pub const MAX_NAME: usize = 40;

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
pub(crate) fn human_ms(ms: u64) -> String {
    if ms >= 3_600_000 && ms.is_multiple_of(3_600_000) {
        format!("{} h", ms / 3_600_000)
    } else if ms >= 1_000 && ms.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format!("{ms} ms")
    }
}

/// The first `n` characters of `s`.
pub(crate) fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

//! Checks a hosted match's records against their seeds: `colosseum verify FILE [--commitment
//! HEX]` and `GET /api/matches/{id}/verify`.
//!
//! For every record (a match that replayed a draw has two): the server seed must hash to what
//! was committed at creation; in a version 2 record ([`colosseum_engine::fair`]) the commitment
//! must be the SHA-256 of the public setup and the server seed's hash, the record must agree
//! with that setup (game, options, each seat human or the very bot it names, with its
//! settings), and each human seat's client seed must hash to the commitment it joined with;
//! the seed must be the one the server seed and the client seeds make; every chance step must
//! be the next draw of `ChaCha8(seed)` (a live Cauldron's race results are decided by the race
//! and are only applied); every move the host made at a timeout must be the default move the
//! seeds give there (version 2), and in an untimed setup there is none; every move a bot seat
//! made must be what that bot, seeded as the server seeds it, chooses from the record so far
//! (unless the host made it at a timeout, or the setup says the bot thinks by time, which
//! cannot be repeated); and every step must apply. The first step that does not fit is named.
//! Given the commitment a player saw (`--commitment`), the record's must be that one.

use colosseum_ai::registry::{self as bots, BotSpec};
use colosseum_engine::{seeded_rng, AnyGame, Record, Seat};
use serde::Serialize;

/// The seed a server bot seat thinks with at a decision: the match seed mixed with the game's
/// number (1, or 2 after a replayed draw), the step index and the seat.
#[must_use]
pub fn bot_seed(match_seed: u64, game_number: usize, step: usize, seat: Seat) -> u64 {
    match_seed ^ ((game_number as u64) << 48) ^ (step as u64) ^ ((seat.index() as u64) << 40)
}

/// What checking one record found.
#[derive(Clone, Debug, Serialize)]
pub struct GameCheck {
    /// The game's index in the match (0 first).
    pub game: usize,
    /// Chance steps drawn from the seed and found equal.
    pub chance_checked: usize,
    /// Chance steps decided by a live race (applied, not drawn).
    pub races: usize,
    /// Bot moves re-derived and found equal.
    pub bot_moves_checked: usize,
    /// Moves the host made at a timeout, re-derived and found equal.
    pub defaults_checked: usize,
    /// Steps applied.
    pub steps: usize,
    /// What could not be checked, and why.
    pub notes: Vec<String>,
    /// The first thing that does not fit, if any.
    pub failure: Option<String>,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Whether everything checked fits.
    pub ok: bool,
    /// Whether the match is a practice match (its creator chose the seed).
    pub practice: bool,
    /// The commitment published at creation, if any.
    pub commitment: Option<String>,
    /// The match seed the seeds make (or the practice seed).
    pub seed: Option<u64>,
    /// One check per record.
    pub games: Vec<GameCheck>,
    /// A failure of the match as a whole (no fairness data, a commitment mismatch).
    pub failure: Option<String>,
    /// What the check of the match as a whole could not cover, and why.
    pub notes: Vec<String>,
}

impl Report {
    /// The report in words, one line a finding.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        if self.practice {
            out.push_str("practice match: its creator chose the seed, so chance was NOT provably fair (chance is still checked against that seed)\n");
        } else if let Some(c) = &self.commitment {
            out.push_str(&format!("commitment {c}: the server seed matches it\n"));
        }
        for n in &self.notes {
            out.push_str(&format!("note: {n}\n"));
        }
        if let Some(f) = &self.failure {
            out.push_str(&format!("FAILED: {f}\n"));
        }
        for g in &self.games {
            out.push_str(&format!(
                "game {}: {} steps, {} chance steps drawn from the seed, {} race results, {} bot moves re-derived, {} moves made at timeouts re-derived\n",
                g.game + 1,
                g.steps,
                g.chance_checked,
                g.races,
                g.bot_moves_checked,
                g.defaults_checked
            ));
            for n in &g.notes {
                out.push_str(&format!("  note: {n}\n"));
            }
            if let Some(f) = &g.failure {
                out.push_str(&format!("  FAILED: {f}\n"));
            }
        }
        out.push_str(if self.ok {
            "verified: every checked step is what the seeds give\n"
        } else {
            "NOT verified\n"
        });
        out
    }
}

/// Checks `records` (every game of one match, in order).
#[must_use]
pub fn verify(records: &[Record]) -> Report {
    verify_against(records, None)
}

/// Checks `records` (every game of one match, in order) and, when given, that their commitment
/// is `commitment`, the one a player saw before the match started.
#[must_use]
pub fn verify_against(records: &[Record], commitment: Option<&str>) -> Report {
    let mut report = Report {
        ok: false,
        practice: records.iter().any(|r| r.practice),
        commitment: None,
        seed: None,
        games: Vec::new(),
        failure: None,
        notes: Vec::new(),
    };
    let Some(first) = records.first() else {
        report.failure = Some("no record to check".into());
        return report;
    };
    let seed = if report.practice {
        first.seed
    } else {
        let Some(fair) = &first.fairness else {
            report.failure = Some(
                "the record carries no fairness data (no commitment, server seed or client seeds): \
                 only matches hosted by `colosseum serve` can be verified"
                    .into(),
            );
            return report;
        };
        report.commitment = Some(fair.commitment.clone());
        if let Some(seen) = commitment {
            if !seen.trim().eq_ignore_ascii_case(&fair.commitment) {
                report.failure = Some(format!(
                    "the record's commitment is {}, not the commitment {} you were shown: this \
                     is not the match that was committed to",
                    fair.commitment,
                    seen.trim()
                ));
                return report;
            }
        }
        if fair.version < 2 {
            report.notes.push(
                "fairness version 1 (a match created before its setup and client seeds were \
                 committed): the seats' kinds, the bots and the moves made at timeouts are the \
                 record's own word; they are not bound by the commitment"
                    .into(),
            );
        }
        match fair.match_seed() {
            Ok(s) => s,
            Err(e) => {
                report.failure = Some(e.to_string());
                return report;
            }
        }
    };
    report.seed = Some(seed);
    if report.practice && commitment.is_some() {
        report.failure = Some(
            "a practice match (its creator chose the seed) has no commitment to check against"
                .into(),
        );
        return report;
    }
    let same = |f: &colosseum_engine::Fairness| {
        (
            f.version,
            f.commitment.clone(),
            f.server_seed.clone(),
            f.client_seeds.clone(),
            f.setup.clone(),
            f.server_seed_hash.clone(),
            f.client_seed_hashes.clone(),
        )
    };
    for (i, record) in records.iter().enumerate() {
        if !report.practice
            && record.fairness.as_ref().map(same) != first.fairness.as_ref().map(same)
        {
            report.failure = Some(format!(
                "game {} carries other seeds than game 1 of the same match",
                i + 1
            ));
            return report;
        }
        report.games.push(check_game(i, record, seed));
    }
    report.ok = report.failure.is_none() && report.games.iter().all(|g| g.failure.is_none());
    report
}

fn check_game(index: usize, record: &Record, seed: u64) -> GameCheck {
    let mut check = GameCheck {
        game: index,
        chance_checked: 0,
        races: 0,
        bot_moves_checked: 0,
        defaults_checked: 0,
        steps: 0,
        notes: Vec::new(),
        failure: None,
    };
    if record.seed != seed {
        check.failure = Some(format!(
            "the record's seed is {}, but the seeds make {seed}",
            record.seed
        ));
        return check;
    }
    let entry = match colosseum_games::find(&record.game) {
        Ok(e) => e,
        Err(e) => {
            check.failure = Some(e.to_string());
            return check;
        }
    };
    let mut game = match (entry.create)(&record.options) {
        Ok(g) => g,
        Err(e) => {
            check.failure = Some(format!("the options: {e}"));
            return check;
        }
    };
    let races = colosseum_host::races_decide(entry.id, &record.options);
    let setup = record
        .fairness
        .as_ref()
        .filter(|f| f.version >= 2)
        .and_then(|f| f.setup.as_ref().map(|s| (f, s)));
    let bot_seats = match setup {
        Some((fair, setup)) => {
            if let Err(f) = check_setup(index, record, entry, fair, setup) {
                check.failure = Some(f);
                return check;
            }
            match setup_bots(setup, &mut check) {
                Ok(b) => b,
                Err(f) => {
                    check.failure = Some(f);
                    return check;
                }
            }
        }
        None => bot_seats(record, &mut check),
    };
    let defaults = record
        .fairness
        .as_ref()
        .map(|f| f.defaults.clone())
        .unwrap_or_default();
    if let Some((_, setup)) = setup {
        let untimed = setup.time.get("kind").and_then(|k| k.as_str()) == Some("untimed");
        for (n, d) in defaults.iter().enumerate() {
            let why = if untimed {
                Some("the committed setup is untimed, so nobody's time runs out and the host makes no move".to_string())
            } else if d.step >= record.steps.len() {
                Some(format!(
                    "the record has {}",
                    colosseum_games::text::plural(record.steps.len(), "step")
                ))
            } else if record.steps[d.step].slot(d.seat).is_none() {
                Some(format!("{} has no move at that step", d.seat))
            } else if defaults[..n].contains(d) {
                Some("it is listed twice".to_string())
            } else {
                None
            };
            if let Some(why) = why {
                check.failure = Some(format!(
                    "fairness.defaults claims the host moved for {} at steps[{}] when its time ran out, but {why}",
                    d.seat, d.step
                ));
                return check;
            }
        }
    }
    let mut rng = seeded_rng(record.seed);
    for (i, step) in record.steps.iter().enumerate() {
        if step.is_chance() {
            if races && game.decision_kind() == "race" {
                check.races += 1;
            } else {
                let mut drawn = game.clone_box();
                match drawn.apply_random_chance(&mut rng) {
                    Some(d) if d == *step => check.chance_checked += 1,
                    Some(d) => {
                        check.failure = Some(format!(
                            "steps[{i}] is the chance step `{}`, but the seeds give `{}`",
                            step.chance.as_deref().unwrap_or_default(),
                            d.chance.as_deref().unwrap_or_default()
                        ));
                        return check;
                    }
                    None => {
                        check.failure = Some(format!(
                            "steps[{i}] is a chance step where the game does not wait for chance"
                        ));
                        return check;
                    }
                }
            }
        } else {
            let mut by_default = [false; 2];
            for seat in Seat::BOTH {
                if !defaults.iter().any(|d| d.step == i && d.seat == seat) {
                    continue;
                }
                by_default[seat.index()] = true;
                if setup.is_none() {
                    continue;
                }
                let Some(played) = step.slot(seat) else {
                    continue;
                };
                let mut drng = seeded_rng(colosseum_engine::fair::default_move_seed(
                    seed,
                    index + 1,
                    i,
                    seat,
                ));
                let made = game
                    .default_move(seat, &mut drng)
                    .or_else(|| game.random_move(seat, &mut drng));
                match made {
                    Some(m) if m == played => check.defaults_checked += 1,
                    Some(m) => {
                        check.failure = Some(format!(
                            "steps[{i}]: fairness.defaults says the host moved for {seat} when its time ran out, but the default move the seeds give there is `{m}`, and the record has `{played}`"
                        ));
                        return check;
                    }
                    None => {
                        check.failure = Some(format!(
                            "steps[{i}]: fairness.defaults says the host moved for {seat}, but {seat} has no move to make there"
                        ));
                        return check;
                    }
                }
            }
            for (seat, spec) in &bot_seats {
                let Some(played) = step.slot(*seat) else {
                    continue;
                };
                if by_default[seat.index()] {
                    continue;
                }
                let s = bot_seed(seed, index + 1, i, *seat);
                match bot_choice(record, i, *seat, spec, s, game.as_ref()) {
                    Ok(chosen) if chosen == played => check.bot_moves_checked += 1,
                    Ok(chosen) => {
                        check.failure = Some(format!(
                            "steps[{i}]: {seat} is a bot ({spec}) that chooses `{chosen}` from these seeds, but the record has `{played}`"
                        ));
                        return check;
                    }
                    Err(e) => {
                        check.failure = Some(format!("steps[{i}]: re-running {seat}'s bot: {e}"));
                        return check;
                    }
                }
            }
        }
        if let Err(e) = game.apply(step) {
            check.failure = Some(format!("steps[{i}] ({step}) does not apply: {e}"));
            return check;
        }
        check.steps += 1;
    }
    check
}

/// A version 2 record against its committed setup: the game and options, and each seat human
/// or the very bot the setup names, with its settings.
fn check_setup(
    index: usize,
    record: &Record,
    entry: &colosseum_games::GameEntry,
    fair: &colosseum_engine::Fairness,
    setup: &colosseum_engine::fair::Setup,
) -> Result<(), String> {
    if !record.game.trim().eq_ignore_ascii_case(&setup.game) {
        return Err(format!(
            "the record is of `{}`, but the committed setup is a match of `{}`",
            record.game, setup.game
        ));
    }
    if setup.practice || record.practice {
        return Err("a committed setup is never a practice match".into());
    }
    let options = if index == 0 {
        Some(setup.options.clone())
    } else if setup.replay_on_draw {
        entry.replay.map(|replay| replay(&setup.options))
    } else {
        None
    };
    match options {
        Some(o) if o == record.options => {}
        Some(o) => {
            return Err(format!(
                "the record's options are {}, but the committed setup gives {}",
                colosseum_engine::fair::canonical_json(&serde_json::Value::Object(
                    record.options.clone()
                )),
                colosseum_engine::fair::canonical_json(&serde_json::Value::Object(o))
            ))
        }
        None => {
            return Err(format!(
                "game {} of the match: the committed setup replays no drawn game",
                index + 1
            ))
        }
    }
    for seat in Seat::BOTH {
        let committed = setup.seat(seat);
        let recorded = fair.bots.get(seat);
        match (committed.is_bot(), recorded) {
            (false, None) => {}
            (false, Some(b)) => {
                return Err(format!(
                    "{seat} is human in the committed setup, but the record's fairness.bots names it the bot `{b}`"
                ))
            }
            (true, None) => {
                return Err(format!(
                    "{seat} is the bot `{}` in the committed setup, but the record's fairness.bots names no bot there (it would pass for a human)",
                    committed.bot.as_deref().unwrap_or_default()
                ))
            }
            (true, Some(b)) if Some(b) != committed.bot.as_deref() => {
                return Err(format!(
                    "the record's fairness.bots names {seat} `{b}`, but the committed setup has the bot `{}` there",
                    committed.bot.as_deref().unwrap_or_default()
                ))
            }
            (true, Some(_)) => {
                if fair.bot_settings.get(seat) != committed.settings.as_deref() {
                    return Err(format!(
                        "the record's fairness.bot_settings gives {seat} `{}`, but the committed setup has `{}`",
                        fair.bot_settings.get(seat).unwrap_or("nothing"),
                        committed.settings.as_deref().unwrap_or("nothing")
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The bot seats of a committed setup whose moves are re-derived (with the settings the setup
/// spells out); notes the others (a time budget). A setup whose time budget flag disagrees
/// with its settings does not fit.
fn setup_bots(
    setup: &colosseum_engine::fair::Setup,
    check: &mut GameCheck,
) -> Result<Vec<(Seat, String)>, String> {
    let mut out = Vec::new();
    for seat in Seat::BOTH {
        let s = setup.seat(seat);
        if !s.is_bot() {
            continue;
        }
        let settings = s.settings.as_deref().unwrap_or_default();
        let level = s.bot.as_deref().unwrap_or_default();
        match settings.parse::<BotSpec>() {
            Ok(spec) => {
                let by_time = crate::hub::thinks_by_time(&spec);
                if by_time != s.time_budget {
                    return Err(format!(
                        "the committed setup's {seat} bot `{settings}` {} for a time, but its time_budget says {}",
                        if by_time { "thinks" } else { "does not think" },
                        if s.time_budget { "yes" } else { "no" }
                    ));
                }
                if by_time {
                    check.notes.push(format!(
                        "{seat} is a bot ({level}) that the committed setup says thinks for a time, not a number of iterations: its moves cannot be repeated and are not checked"
                    ));
                } else {
                    out.push((seat, settings.to_string()));
                }
            }
            Err(e) => check.notes.push(format!(
                "{seat}'s bot `{level}` = `{settings}` does not run in this build ({e}): its moves are not re-derived"
            )),
        }
    }
    Ok(out)
}

/// The bot seats whose moves can be re-derived; notes the others (version 1 records: from the
/// record's own `bots`).
fn bot_seats(record: &Record, check: &mut GameCheck) -> Vec<(Seat, String)> {
    let Some(fair) = &record.fairness else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for seat in Seat::BOTH {
        let Some(level) = fair.bots.get(seat) else {
            continue;
        };
        let now = level
            .parse::<BotSpec>()
            .map(|b| bots::canonical(&record.game, &record.options, &b));
        let mut level = level.to_string();
        if let (Some(then), Ok(now)) = (fair.bot_settings.get(seat), &now) {
            if then != now {
                if then.parse::<BotSpec>().is_ok() {
                    // The settings the level had are spelled out: re-run those.
                    check.notes.push(format!(
                        "{seat} played as `{level}` = `{then}`; in this build `{level}` is `{now}`, so its moves are re-derived with the recorded settings"
                    ));
                    level = then.to_string();
                } else {
                    // An older record names the settings in words only.
                    check.notes.push(format!(
                        "{seat} played as `{level}` = {then}; in this build `{level}` is `{now}`, so its moves are not re-derived"
                    ));
                    continue;
                }
            }
        }
        let level = level.as_str();
        match level.parse::<BotSpec>() {
            Ok(BotSpec::Mcts(c)) if matches!(c.budget, colosseum_ai::Budget::Time(_)) => {
                check.notes.push(format!(
                    "{seat} is a bot ({level}) that thinks for a time, not a number of iterations: its moves cannot be repeated and are not checked"
                ));
            }
            Ok(_) => out.push((seat, level.to_string())),
            Err(e) => check.notes.push(format!("{seat}'s bot `{level}`: {e}")),
        }
    }
    out
}

fn bot_choice(
    record: &Record,
    step: usize,
    seat: Seat,
    level: &str,
    seed: u64,
    game: &dyn AnyGame,
) -> Result<String, String> {
    let spec: BotSpec = level
        .parse()
        .map_err(|e: bots::BotSpecError| e.to_string())?;
    let found = bots::find(&record.game).map_err(|e| e.to_string())?;
    let mut player = found
        .seat_player(&record.options, &spec, seed)
        .map_err(|e| e.to_string())?;
    for s in &record.steps[..step] {
        player.observe(s).map_err(|e| e.to_string())?;
    }
    let chosen = player.choose(seat);
    game.check_move(seat, &chosen)
        .map_err(|e| format!("the bot's move `{chosen}` is refused: {e}"))
}

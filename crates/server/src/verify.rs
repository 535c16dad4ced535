//! Checks a hosted match's records against their seeds: `colosseum verify FILE` and
//! `GET /api/matches/{id}/verify`.
//!
//! For every record (a match that replayed a draw has two): the server seed must hash to the
//! commitment published at creation; the seed must be the one the server seed and the client
//! seeds make ([`colosseum_engine::fair`]); every chance step must be the next draw of
//! `ChaCha8(seed)` (a live Cauldron's race results are decided by the race and are only
//! applied); every move a bot seat made must be what that bot, seeded as the server seeds it,
//! chooses from the record so far (unless the host made it at a timeout, or the bot thinks by
//! time, which cannot be repeated); and every step must apply. The first step that does not fit
//! is named.

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
        if let Some(f) = &self.failure {
            out.push_str(&format!("FAILED: {f}\n"));
        }
        for g in &self.games {
            out.push_str(&format!(
                "game {}: {} steps, {} chance steps drawn from the seed, {} race results, {} bot moves re-derived\n",
                g.game + 1,
                g.steps,
                g.chance_checked,
                g.races,
                g.bot_moves_checked
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
    let mut report = Report {
        ok: false,
        practice: records.iter().any(|r| r.practice),
        commitment: None,
        seed: None,
        games: Vec::new(),
        failure: None,
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
        match fair.match_seed() {
            Ok(s) => s,
            Err(e) => {
                report.failure = Some(e.to_string());
                return report;
            }
        }
    };
    report.seed = Some(seed);
    for (i, record) in records.iter().enumerate() {
        if !report.practice
            && record
                .fairness
                .as_ref()
                .map(|f| (&f.commitment, &f.server_seed, &f.client_seeds))
                != first
                    .fairness
                    .as_ref()
                    .map(|f| (&f.commitment, &f.server_seed, &f.client_seeds))
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
    let bot_seats = bot_seats(record, &mut check);
    let defaults = record
        .fairness
        .as_ref()
        .map(|f| f.defaults.clone())
        .unwrap_or_default();
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
            for (seat, spec) in &bot_seats {
                let Some(played) = step.slot(*seat) else {
                    continue;
                };
                if defaults.iter().any(|d| d.step == i && d.seat == *seat) {
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

/// The bot seats whose moves can be re-derived; notes the others.
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

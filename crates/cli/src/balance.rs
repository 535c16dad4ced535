//! `colosseum balance`: the strongest equilibrium-seeking level against itself, seats swapped
//! (the arena's games), reported for designers with 95% intervals: the first seat's share of
//! wins, the advantage holder's, draws, game length, how often each ending happens and the
//! distribution of score margins, over one option's values if asked, with a verdict in words
//! for each value and the fairest value named.
//!
//! A designer can wait for it: `--budget 60s` sizes the default engine's search from a few
//! short measured games so that the whole sweep fits ([`size_iterations`]) and stops starting
//! games when the budget is spent ([`start_chunk`]); progress shows as a bar on a terminal and
//! as lines on stderr otherwise; the values are played in turns, a few games each, and the
//! files of `--out` are rewritten (atomically) after every turn, so an interrupted run keeps
//! what it has played.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use colosseum_ai::arena::{game_seed, wilson, ArenaConfig, GameResult, Interval};
use colosseum_ai::registry::{self, BotSpec, GameBots};
use colosseum_ai::Budget;
use colosseum_engine::{parse_pairs, replay, Pending, RawOptions, Seat, Viewer};
use colosseum_games::GameEntry;
use serde::Serialize;

/// The engine when none is given: the hard level.
pub const DEFAULT_ENGINE: &str = "mcts:hard";
/// The hard level's iterations a decision (before the game's own scaling): the most a budget
/// sizes the default engine to.
pub const HARD_ITERATIONS: u32 = 30_000;
/// The fewest iterations a decision a budget sizes the default engine to.
pub const MIN_ITERATIONS: u32 = 50;
/// The iterations of the short games measured before a budgeted run.
pub const PILOT_ITERATIONS: [u32; 2] = [100, 300];
/// The share of the budget left after the measuring that the sized run aims at (the rest
/// absorbs the machine's noise).
pub const AIM: f64 = 0.9;

/// Everything `balance` needs.
#[derive(Debug)]
pub struct Setup {
    /// The game's id.
    pub game: String,
    /// `-o NAME=VALUE`, as given.
    pub options: Vec<String>,
    /// Games per option value.
    pub games: u32,
    /// The engine given with `--engine`; `None`: [`DEFAULT_ENGINE`], sized to the budget if
    /// there is one.
    pub engine: Option<String>,
    /// `--sweep OPTION=v1,v2,...`.
    pub sweep: Option<String>,
    /// `--out DIR`.
    pub out: Option<PathBuf>,
    /// The match seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Print the JSON instead of the table.
    pub json: bool,
    /// `--budget`: the whole run's wall time.
    pub budget: Option<Duration>,
}

/// Parses a time budget: a whole number with its unit (`s`, `m`, `h`), or several (`1m30s`).
///
/// # Errors
/// Anything else, with the forms allowed.
pub fn parse_budget(text: &str) -> std::result::Result<Duration, String> {
    let forms = "write a whole number with its unit: 60s, 90s, 5m, 1h or 1m30s";
    let t = text.trim();
    let bad = || format!("`{text}` is not a time budget: {forms}");
    if t.is_empty() {
        return Err(bad());
    }
    let (mut total, mut number) = (0u64, String::new());
    for c in t.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            _ => return Err(bad()),
        };
        let n: u64 = number.parse().map_err(|_| bad())?;
        total = n
            .checked_mul(unit)
            .and_then(|s| total.checked_add(s))
            .ok_or_else(bad)?;
        number.clear();
    }
    if !number.is_empty() {
        return Err(format!(
            "`{text}` is not a time budget: `{number}` has no unit; {forms}"
        ));
    }
    if total == 0 {
        return Err(format!(
            "`{text}`: a budget must be at least one second; {forms}"
        ));
    }
    Ok(Duration::from_secs(total))
}

/// Short games measured before a budgeted run: wall seconds per game (at the run's threads) at
/// `iterations` a decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PilotTiming {
    /// Iterations a decision.
    pub iterations: u32,
    /// Wall time of the measured games divided by their number.
    pub seconds_per_game: f64,
}

/// What a budget sizes the default engine to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sizing {
    /// Iterations a decision.
    pub iterations: u32,
    /// The predicted wall time of all the games at that setting.
    pub seconds: f64,
    /// Whether they fit in the time given (false: even [`MIN_ITERATIONS`] is too many, and the
    /// run will stop at the budget with fewer games).
    pub fits: bool,
}

/// A value's wall time a game as `a + b × iterations`, through two timings (the last two), or
/// through the origin with one.
fn fit(timings: &[PilotTiming]) -> (f64, f64) {
    match timings {
        [] => (0.0, 0.0),
        [t] => (0.0, t.seconds_per_game / f64::from(t.iterations.max(1))),
        [.., t0, t1] => {
            let slope = (t1.seconds_per_game - t0.seconds_per_game)
                / (f64::from(t1.iterations) - f64::from(t0.iterations));
            // Noise can make the slope flat or negative: then most of the time is the game's
            // own, and a tenth of the proportional rate stands for the search.
            let floor = 0.1 * t1.seconds_per_game / f64::from(t1.iterations.max(1));
            let b = if slope.is_finite() && slope > floor {
                slope
            } else {
                floor
            };
            (
                (t1.seconds_per_game - b * f64::from(t1.iterations)).max(0.0),
                b,
            )
        }
    }
}

/// The iterations a decision that let `games` games of each value fit in `seconds` of wall
/// time, from each value's measured short games (one timing or two): each value's time a game
/// is taken as `a + b × iterations` (through two timings; through the origin with one), and
/// the setting is the largest that fills [`AIM`] of the time, from [`MIN_ITERATIONS`] to
/// [`HARD_ITERATIONS`].
#[must_use]
pub fn size_iterations(seconds: f64, values: &[(u32, Vec<PilotTiming>)]) -> Sizing {
    let (mut fixed, mut per_iteration) = (0.0, 0.0);
    for (games, timings) in values {
        let games = f64::from(*games);
        let (a, b) = fit(timings);
        fixed += games * a;
        per_iteration += games * b;
    }
    let predict = |n: u32| fixed + per_iteration * f64::from(n);
    if per_iteration <= 0.0 {
        return Sizing {
            iterations: HARD_ITERATIONS,
            seconds: predict(HARD_ITERATIONS),
            fits: predict(HARD_ITERATIONS) <= seconds,
        };
    }
    let n = ((AIM * seconds - fixed) / per_iteration).floor();
    let iterations = if n >= f64::from(HARD_ITERATIONS) {
        HARD_ITERATIONS
    } else if n >= f64::from(MIN_ITERATIONS) {
        n as u32
    } else {
        MIN_ITERATIONS
    };
    Sizing {
        iterations,
        seconds: predict(iterations),
        fits: predict(iterations) <= seconds,
    }
}

/// Whether a budgeted run starts its next few games: only if, `elapsed` into a `budget`, half
/// of their `expected` time still fits (so that the run ends near the budget, over or under it
/// by half a turn at most).
#[must_use]
pub fn start_chunk(elapsed: Duration, budget: Duration, expected: Duration) -> bool {
    elapsed + expected / 2 <= budget
}

/// The seed of an arena whose game `i` is game `offset + i` of an arena seeded with `seed`
/// (`colosseum arena`'s seeds, [`game_seed`], are affine in the seed and the index, and the
/// seed's factor is odd, so invertible modulo 2^64): a run in turns plays exactly the games of
/// one arena.
#[must_use]
pub fn shifted_seed(seed: u64, offset: u32) -> u64 {
    let base = game_seed(0, 0);
    let per_seed = game_seed(1, 0).wrapping_sub(base);
    let per_index = game_seed(0, 1).wrapping_sub(base);
    // Newton's iteration for the inverse of an odd number modulo 2^64.
    let mut inverse = per_seed;
    for _ in 0..6 {
        inverse = inverse.wrapping_mul(2u64.wrapping_sub(per_seed.wrapping_mul(inverse)));
    }
    seed.wrapping_add(
        u64::from(offset)
            .wrapping_mul(per_index)
            .wrapping_mul(inverse),
    )
}

/// One bar of the score-margin histogram: games whose margin (the first seat's score minus the
/// second's) is from `low` to `high`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MarginBin {
    /// The smallest margin counted.
    pub low: f64,
    /// The largest margin counted (equal to `low` for a bar of one value).
    pub high: f64,
    /// Games.
    pub games: u32,
}

/// One option setting's numbers.
#[derive(Debug, Serialize)]
pub struct Point {
    /// The options played.
    pub options: RawOptions,
    /// The swept option's value (`None` without a sweep).
    pub value: Option<String>,
    /// Games played.
    pub games: u32,
    /// Games asked for (`--games`); more than `games` in a run stopped early.
    pub planned: u32,
    /// Wins of `p1`, of `p2`, draws.
    pub p1_wins: u32,
    /// See `p1_wins`.
    pub p2_wins: u32,
    /// See `p1_wins`.
    pub draws: u32,
    /// The first seat's (`p1`'s) share of all games won, 95% Wilson interval.
    pub first_seat_wins: Interval,
    /// The first seat's share of the decided games.
    pub first_seat_decided: Interval,
    /// The exact two-sided binomial test of `first_seat_decided` against 1/2 (`None`: no
    /// decided game).
    pub first_seat_p: Option<f64>,
    /// The first seat's score per game (a win 1, a draw 1/2), 95% interval (normal
    /// approximation); 1/2 in a fair game.
    pub first_seat_score: Interval,
    /// The seat holding the game's advantage under these options, if the game has one and it
    /// can be told.
    pub advantage_holder: Option<Seat>,
    /// Its share of all games won.
    pub advantage_wins: Option<Interval>,
    /// Its share of the decided games.
    pub advantage_decided: Option<Interval>,
    /// The exact two-sided binomial test of `advantage_decided` against 1/2.
    pub advantage_p: Option<f64>,
    /// The share of draws.
    pub draw_rate: Interval,
    /// Decisions per game: mean with its 95% interval (normal), and the extremes.
    pub length: Interval,
    /// The shortest game.
    pub length_min: u32,
    /// The longest game.
    pub length_max: u32,
    /// Each kind of ending ([`GameEntry::ending`]) and its share with its 95% interval.
    pub endings: BTreeMap<String, (u32, Interval)>,
    /// The finished games' score margins (the first seat's score minus the second's), as a
    /// histogram.
    pub margins: Vec<MarginBin>,
    /// Their mean (`None` without a finished game with numeric scores).
    pub margin_mean: Option<f64>,
    /// The verdict in words.
    pub verdict: String,
}

/// The report.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The game's id.
    pub game: String,
    /// The engine (both seats), canonical name.
    pub engine: String,
    /// How the engine was chosen, in words (sized to the budget, given, or the default).
    pub engine_setting: String,
    /// `--budget` in seconds.
    pub budget_seconds: Option<f64>,
    /// The match seed (game `i`'s seed derives from it, as in `colosseum arena`).
    pub seed: u64,
    /// The swept option, if any.
    pub sweep: Option<String>,
    /// Whether every value has played all its games (false while the run goes on, and in a run
    /// the budget stopped).
    pub complete: bool,
    /// Why the run stopped before all its games, if it did.
    pub stopped: Option<String>,
    /// Wall time so far, seconds.
    pub seconds: f64,
    /// One point per option value (one without a sweep).
    pub points: Vec<Point>,
    /// Which value is fairest, in words (with a sweep).
    pub fairest: Option<String>,
}

/// One finished game, as the report counts it.
#[derive(Clone, Debug)]
struct Played {
    decisions: u32,
    /// `None`: unfinished; `Some(None)`: a draw.
    winner: Option<Option<Seat>>,
    ending: String,
    margin: Option<f64>,
}

fn number(v: &serde_json::Value) -> Option<f64> {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

fn summarise(entry: &GameEntry, r: &GameResult) -> Result<Played> {
    let game = (entry.create)(&r.record.options)?;
    let replayed = replay(game, &r.record).map_err(|f| anyhow::anyhow!("{}", f.error))?;
    let decisions = replayed.applied.iter().filter(|s| !s.is_chance()).count() as u32;
    if replayed.game.pending() != Pending::Over {
        return Ok(Played {
            decisions,
            winner: None,
            ending: "unfinished".into(),
            margin: None,
        });
    }
    let outcome = replayed
        .game
        .outcome()
        .context("a finished game has an outcome")?;
    let score = replayed.game.score();
    Ok(Played {
        decisions,
        winner: Some(outcome.winner),
        ending: (entry.ending)(&outcome),
        margin: number(&score.p1).zip(number(&score.p2)).map(|(a, b)| a - b),
    })
}

/// The seat holding the advantage under `raw`: the one whose advantage options describe the
/// same starting position as `raw` (compared by the spectator's view).
fn advantage_holder(entry: &GameEntry, raw: &RawOptions) -> Option<Seat> {
    let advantage = entry.advantage?;
    let view = |o: &RawOptions| {
        (entry.create)(o)
            .ok()
            .map(|g| g.view_json(Viewer::Spectator))
    };
    let here = view(raw)?;
    let holders: Vec<Seat> = Seat::BOTH
        .into_iter()
        .filter(|&s| view(&advantage(raw, s)).as_ref() == Some(&here))
        .collect();
    (holders.len() == 1).then(|| holders[0])
}

/// The two-sided p-value of `k` successes in `n` fair coin tosses (the exact binomial test
/// against 1/2): the chance of a count at least as far from `n/2`.
#[must_use]
pub fn binomial_p(k: u32, n: u32) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let tail = k.min(n - k);
    // ln C(n, i) - n ln 2, summed for i = 0..=tail.
    let mut ln_c = 0.0f64;
    let ln2n = f64::from(n) * std::f64::consts::LN_2;
    let mut sum = 0.0;
    for i in 0..=tail {
        if i > 0 {
            ln_c += f64::from(n - i + 1).ln() - f64::from(i).ln();
        }
        sum += (ln_c - ln2n).exp();
    }
    (2.0 * sum).min(1.0)
}

/// The complementary error function (Numerical Recipes' `erfcc`, relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The two-sided p-value of the two-proportion z-test (pooled) that `k1` of `n1` and `k2` of
/// `n2` come from one share.
#[must_use]
pub fn two_proportion_p(k1: u32, n1: u32, k2: u32, n2: u32) -> f64 {
    if n1 == 0 || n2 == 0 {
        return 1.0;
    }
    let (a, b) = (f64::from(n1), f64::from(n2));
    let pooled = f64::from(k1 + k2) / (a + b);
    let se = (pooled * (1.0 - pooled) * (1.0 / a + 1.0 / b)).sqrt();
    if se == 0.0 {
        return 1.0;
    }
    let z = (f64::from(k1) / a - f64::from(k2) / b) / se;
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// A p-value as the verdicts write it.
#[must_use]
pub fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".into()
    } else if p < 0.1 {
        // Two significant digits: 0.012, 0.01, 0.049.
        let t = format!("{p:.3}");
        format!("p = {}", t.trim_end_matches('0'))
    } else if p >= 0.995 {
        "p = 1".into()
    } else {
        format!("p = {p:.2}")
    }
}

/// A share with its interval in whole percent: `29% [15, 49]`.
fn short(i: Interval) -> String {
    format!(
        "{:.0}% [{:.0}, {:.0}]",
        100.0 * i.estimate,
        100.0 * i.low,
        100.0 * i.high
    )
}

fn seat_words(seat: Seat) -> &'static str {
    if seat == Seat::P1 {
        "the first seat"
    } else {
        "the second seat"
    }
}

/// The smallest of 1, 2, 5 times a power of ten that is at least `raw`.
#[must_use]
pub fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// The histogram of margins: one bar per value when there are at most 9, else about 8 bars of
/// a nice width.
fn histogram(margins: &[f64]) -> Vec<MarginBin> {
    let mut counts: BTreeMap<i128, u32> = BTreeMap::new();
    let integral = margins.iter().all(|m| m.fract() == 0.0 && m.abs() < 1e30);
    if integral {
        for &m in margins {
            *counts.entry(m as i128).or_default() += 1;
        }
        if counts.len() <= 9 {
            return counts
                .into_iter()
                .map(|(m, games)| MarginBin {
                    low: m as f64,
                    high: m as f64,
                    games,
                })
                .collect();
        }
    }
    let (lo, hi) = margins
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &m| {
            (a.min(m), b.max(m))
        });
    if !lo.is_finite() {
        return Vec::new();
    }
    let mut width = nice_step((hi - lo) / 8.0);
    if integral {
        width = width.max(1.0);
    }
    let start = (lo / width).floor() * width;
    let bins = (((hi - start) / width).floor() as usize + 1).max(1);
    let mut out: Vec<MarginBin> = (0..bins)
        .map(|i| {
            let low = start + width * i as f64;
            MarginBin {
                low,
                high: if integral {
                    low + width - 1.0
                } else {
                    low + width
                },
                games: 0,
            }
        })
        .collect();
    for &m in margins {
        let i = (((m - start) / width).floor() as usize).min(bins - 1);
        out[i].games += 1;
    }
    out
}

/// A number as the reports write it: whole numbers without decimals.
fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn signed(v: f64) -> String {
    if v > 0.0 {
        format!("+{}", num(v))
    } else {
        num(v)
    }
}

/// The numbers of one option setting from its games so far.
fn point(
    entry: &GameEntry,
    raw: &RawOptions,
    value: Option<String>,
    label: &str,
    planned: u32,
    played: &[Played],
) -> Point {
    let (mut wins, mut draws) = ([0u32; 2], 0u32);
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    let mut margins = Vec::new();
    for p in played {
        match p.winner {
            Some(Some(seat)) => wins[seat.index()] += 1,
            Some(None) => draws += 1,
            None => {}
        }
        *endings.entry(p.ending.clone()).or_default() += 1;
        margins.extend(p.margin);
    }
    let games = played.len() as u32;
    let decided = wins[0] + wins[1];
    let holder = advantage_holder(entry, raw);
    let n = f64::from(games.max(1));
    let lengths: Vec<u32> = played.iter().map(|p| p.decisions).collect();
    let mean = lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / n;
    let var = lengths
        .iter()
        .map(|&l| (f64::from(l) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    let first_seat_decided = wilson(wins[0], decided);
    let first_seat_p = (decided > 0).then(|| binomial_p(wins[0], decided));
    let advantage_decided = holder.map(|s| wilson(wins[s.index()], decided));
    let advantage_p = holder
        .filter(|_| decided > 0)
        .map(|s| binomial_p(wins[s.index()], decided));
    let mut verdict = match first_seat_p {
        None => format!("{label}: no decided game ({draws} draws): nothing tells the seats apart"),
        Some(p) if p < 0.05 => format!(
            "{label} favours {}: {} of the decided games to the first seat, {}",
            seat_words(if wins[0] > wins[1] { Seat::P1 } else { Seat::P2 }),
            short(first_seat_decided),
            p_text(p)
        ),
        Some(p) => format!(
            "{label}: no seat favoured at this sample size: {} of the decided games to the first seat, {}",
            short(first_seat_decided),
            p_text(p)
        ),
    };
    if let (Some(h), Some(i), Some(p)) = (holder, advantage_decided, advantage_p) {
        verdict.push_str(&format!(
            "; the advantage holder ({}) won {}, {}",
            seat_words(h),
            short(i),
            p_text(p)
        ));
    }
    Point {
        options: raw.clone(),
        value,
        games,
        planned,
        p1_wins: wins[0],
        p2_wins: wins[1],
        draws,
        first_seat_wins: wilson(wins[0], games),
        first_seat_decided,
        first_seat_p,
        first_seat_score: score_interval(wins[0], draws, wins[1]),
        advantage_holder: holder,
        advantage_wins: holder.map(|s| wilson(wins[s.index()], games)),
        advantage_decided,
        advantage_p,
        draw_rate: wilson(draws, games),
        length: Interval {
            estimate: mean,
            low: mean - half,
            high: mean + half,
        },
        length_min: lengths.iter().copied().min().unwrap_or(0),
        length_max: lengths.iter().copied().max().unwrap_or(0),
        endings: endings
            .into_iter()
            .map(|(k, c)| (k, (c, wilson(c, games))))
            .collect(),
        margin_mean: (!margins.is_empty())
            .then(|| margins.iter().sum::<f64>() / margins.len() as f64),
        margins: histogram(&margins),
        verdict,
    }
}

/// Which value is fairest: the one whose first seat's share of the decided games is closest to
/// 1/2, and whether each other value can be told from it (the two-proportion z-test on that
/// share).
fn fairest(labels: &[String], points: &[Point]) -> Option<String> {
    let decided = |p: &Point| p.p1_wins + p.p2_wins;
    let candidates: Vec<usize> = (0..points.len()).filter(|&i| points[i].games > 0).collect();
    if points.len() < 2 || candidates.is_empty() {
        return None;
    }
    // Closest to an even score (a draw counting ½ to each), then the most games.
    let best = *candidates.iter().min_by(|&&a, &&b| {
        let d = |i: usize| (points[i].first_seat_score.estimate - 0.5).abs();
        d(a).total_cmp(&d(b))
            .then(points[b].games.cmp(&points[a].games))
    })?;
    let b = &points[best];
    let mut s = format!(
        "fairest: {} (the first seat's score {}, a draw counting half, and {} of the decided games)",
        labels[best],
        short(b.first_seat_score),
        if decided(b) == 0 { "none".to_string() } else { short(b.first_seat_decided) }
    );
    let mut alike = 0;
    for (i, p) in points.iter().enumerate() {
        if i == best {
            continue;
        }
        if decided(p) == 0 {
            s.push_str(&format!("; {} has no decided game", labels[i]));
            continue;
        }
        let pv = two_proportion_p(p.p1_wins, decided(p), b.p1_wins, decided(b));
        if pv >= 0.05 {
            alike += 1;
            s.push_str(&format!(
                "; no difference between {} and {} at this sample size ({})",
                labels[i],
                labels[best],
                p_text(pv)
            ));
        } else {
            s.push_str(&format!(
                "; {} differs from it ({}, {})",
                labels[i],
                short(p.first_seat_decided),
                p_text(pv)
            ));
        }
    }
    if alike > 0 {
        s.push_str(&format!(
            " (two-proportion z-test on the first seat's share of the decided games); {} {} cannot be told apart from the fairest: more games (--games) would separate them",
            alike,
            if alike == 1 { "value" } else { "values" }
        ));
    } else {
        s.push_str(" (two-proportion z-test on the first seat's share of the decided games)");
    }
    Some(s)
}

/// The score per game (a win 1, a draw 1/2) with its 95% interval (normal approximation).
fn score_interval(wins: u32, draws: u32, losses: u32) -> Interval {
    let n = f64::from(wins + draws + losses).max(1.0);
    let s = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    let var = (f64::from(wins) * (1.0 - s).powi(2)
        + f64::from(draws) * (0.5 - s).powi(2)
        + f64::from(losses) * s.powi(2))
        / n;
    let half = 1.96 * (var / n).sqrt();
    Interval {
        estimate: s,
        low: (s - half).max(0.0),
        high: (s + half).min(1.0),
    }
}

/// Progress: a bar on a terminal, else a line on stderr at every tenth of the games or every
/// 10 s.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: u64,
    done: AtomicU64,
    start: Instant,
    /// The last tenth printed and when.
    last: Mutex<(u64, Instant)>,
}

impl Progress {
    fn new(total: u64, terminal: bool) -> Self {
        let bar = terminal.then(|| {
            let bar = indicatif::ProgressBar::new(total);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left  {msg}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        });
        Progress {
            bar,
            total,
            done: AtomicU64::new(0),
            start: Instant::now(),
            last: Mutex::new((0, Instant::now())),
        }
    }

    fn note(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("balance: {text}"),
        }
    }

    fn game(&self, label: &str, value_done: u32, value_games: u32) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(bar) = &self.bar {
            bar.set_message(label.to_string());
            bar.inc(1);
            return;
        }
        let tenth = done * 10 / self.total.max(1);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if tenth > last.0 || last.1.elapsed() >= Duration::from_secs(10) {
            *last = (tenth, Instant::now());
            eprintln!(
                "balance: {done}/{} games ({}%), {:.0} s elapsed; {label}: {value_done}/{value_games}",
                self.total,
                done * 100 / self.total.max(1),
                self.start.elapsed().as_secs_f64()
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The default engine at `iterations` a decision.
fn hard_at(iterations: u32) -> Result<BotSpec> {
    match DEFAULT_ENGINE.parse::<BotSpec>()? {
        BotSpec::Mcts(mut config) => {
            config.budget = Budget::Iterations(iterations);
            Ok(BotSpec::Mcts(config))
        }
        other => Ok(other),
    }
}

/// Measures short games of the default engine and sizes it to what is left of `budget`; the
/// engine and the words saying what was chosen.
fn sized_engine(
    bots: &dyn GameBots,
    settings: &[(RawOptions, Option<String>)],
    setup: &Setup,
    budget: Duration,
    start: Instant,
    progress: &Progress,
) -> Result<(BotSpec, String, Vec<f64>)> {
    let pilot_games = {
        let n = setup.threads.clamp(2, 64) as u32;
        n + n % 2
    };
    progress.note(&format!(
        "measuring the engine: {pilot_games} short games per value at {} and {} iterations a decision, then nearer the setting",
        PILOT_ITERATIONS[0], PILOT_ITERATIONS[1]
    ));
    let mut timings: Vec<Vec<PilotTiming>> = vec![Vec::new(); settings.len()];
    let measure = |iterations: u32, timings: &mut Vec<Vec<PilotTiming>>| -> Result<()> {
        let spec = hard_at(iterations)?;
        for (v, (raw, _)) in settings.iter().enumerate() {
            let config = ArenaConfig {
                games: pilot_games,
                threads: setup.threads,
                seed: setup.seed ^ 0x005e_ed0f_b41a_11ce,
            };
            let t = Instant::now();
            bots.arena(raw, &spec, &spec, config, &|_| {})?;
            timings[v].push(PilotTiming {
                iterations,
                seconds_per_game: t.elapsed().as_secs_f64() / f64::from(pilot_games),
            });
        }
        Ok(())
    };
    let size = |timings: &[Vec<PilotTiming>]| {
        let left = budget.saturating_sub(start.elapsed()).as_secs_f64();
        let values: Vec<(u32, Vec<PilotTiming>)> =
            timings.iter().map(|t| (setup.games, t.clone())).collect();
        size_iterations(left, &values)
    };
    // The measuring stays under a tenth of the budget.
    let measuring = budget / 10;
    measure(PILOT_ITERATIONS[0], &mut timings)?;
    let mut top = PILOT_ITERATIONS[0];
    if start.elapsed() < measuring {
        measure(PILOT_ITERATIONS[1], &mut timings)?;
        top = PILOT_ITERATIONS[1];
    }
    // A search's cost grows faster than its iterations (a deeper tree, more memory): while the
    // setting is far above the largest measured, measure again at a third of it, so that the
    // last fit extrapolates at most threefold.
    let mut sizing = size(&timings);
    while sizing.iterations > 3 * top && start.elapsed() < measuring {
        let next = (sizing.iterations / 3).max(2 * top);
        let cost: f64 = timings
            .iter()
            .map(|t| {
                let (a, b) = fit(t);
                f64::from(pilot_games) * (a + b * f64::from(next))
            })
            .sum();
        if start.elapsed() + Duration::from_secs_f64(cost) > measuring {
            break;
        }
        measure(next, &mut timings)?;
        top = next;
        sizing = size(&timings);
    }
    // Each value's predicted time a game at the chosen setting, for the deadline.
    let per_game: Vec<f64> = timings
        .iter()
        .map(|t| {
            let (a, b) = fit(t);
            a + b * f64::from(sizing.iterations)
        })
        .collect();
    let spec = if sizing.iterations >= HARD_ITERATIONS {
        DEFAULT_ENGINE.parse::<BotSpec>()?
    } else {
        hard_at(sizing.iterations)?
    };
    let total = settings.len() as u64 * u64::from(setup.games);
    let words = if sizing.iterations >= HARD_ITERATIONS {
        format!(
            "the hard level ({DEFAULT_ENGINE}) in full: the {} budget holds its {total} games (about {:.0} s predicted)",
            budget_text(budget),
            sizing.seconds
        )
    } else if sizing.fits {
        format!(
            "the hard level's search at {} iterations a decision instead of {HARD_ITERATIONS}, sized to the {} budget: {total} games in about {:.0} s (measured on {} short games at {} iterations)",
            sizing.iterations,
            budget_text(budget),
            sizing.seconds,
            timings.iter().map(Vec::len).sum::<usize>() as u32 * pilot_games,
            timings
                .first()
                .map(|t| t.iter().map(|p| p.iterations.to_string()).collect::<Vec<_>>().join(", "))
                .unwrap_or_default()
        )
    } else {
        format!(
            "the hard level's search at {MIN_ITERATIONS} iterations a decision, the fewest: the {} budget is too short for {total} games (about {:.0} s predicted), so the run stops at the budget with the games it has",
            budget_text(budget),
            sizing.seconds
        )
    };
    Ok((spec, words, per_game))
}

/// A budget as the user writes it.
fn budget_text(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 60, s % 60) {
        (0, s) => format!("{s}s"),
        (m, 0) => format!("{m}m"),
        (m, s) => format!("{m}m{s}s"),
    }
}

/// Writes `text` to `path` through a temporary file in the same directory and a rename, so that
/// a reader (or an interrupted run) sees the old file or the new one, never part of one.
fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&temp, text).with_context(|| format!("writing {}", temp.display()))?;
    std::fs::rename(&temp, path).with_context(|| format!("writing {}", path.display()))
}

/// Writes the report's files into `dir`: the plots, the text and last the JSON.
fn write_files(dir: &Path, report: &Report) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("creating the output directory {}", dir.display()))?;
    write_atomic(&dir.join("shares.svg"), &shares_svg(report))?;
    write_atomic(&dir.join("endings.svg"), &endings_svg(report))?;
    write_atomic(&dir.join("length.svg"), &length_svg(report))?;
    write_atomic(&dir.join("balance.txt"), &table(report))?;
    write_atomic(
        &dir.join("balance.json"),
        &serde_json::to_string_pretty(report)?,
    )
}

/// Runs the report and prints it.
pub fn run(setup: &Setup, out: &mut impl Write) -> Result<ExitCode> {
    let start = Instant::now();
    let entry = colosseum_games::find(&setup.game)?;
    let base = parse_pairs(setup.options.iter().map(String::as_str))?;
    let bots = registry::find(entry.id)?;
    let sweep_name = setup
        .sweep
        .as_deref()
        .and_then(|s| s.split_once('='))
        .map(|s| s.0.trim().to_string());
    let settings: Vec<(RawOptions, Option<String>)> = match &setup.sweep {
        None => vec![(base.clone(), None)],
        Some(sweep) => {
            let Some((name, values)) = sweep.split_once('=') else {
                bail!("--sweep is OPTION=v1,v2,... (e.g. --sweep size=5,7,9), not `{sweep}`");
            };
            let values: Vec<&str> = values.split(',').map(str::trim).collect();
            if values.iter().any(|v| v.is_empty()) {
                bail!("--sweep {sweep}: a value is empty; write OPTION=v1,v2,...");
            }
            let mut settings = Vec::new();
            for v in values {
                let pair = format!("{}={v}", name.trim());
                let mut raw = base.clone();
                raw.extend(parse_pairs([pair.as_str()])?);
                (entry.create)(&raw).with_context(|| format!("--sweep {pair}"))?;
                settings.push((raw, Some(v.to_string())));
            }
            settings
        }
    };
    if setup.games == 0 {
        bail!("--games must be at least 1");
    }
    let labels: Vec<String> = settings
        .iter()
        .map(|(_, v)| match (v, &sweep_name) {
            (Some(v), Some(name)) => format!("{name} = {v}"),
            _ => "the game".to_string(),
        })
        .collect();
    let total = u64::from(setup.games) * settings.len() as u64;
    let progress = Progress::new(total, std::io::stderr().is_terminal());
    let (spec, engine_setting, mut per_game) = match (&setup.engine, setup.budget) {
        (Some(engine), _) => (
            engine.parse::<BotSpec>()?,
            format!("{engine}, as given with --engine"),
            vec![0.0; settings.len()],
        ),
        (None, None) => (
            DEFAULT_ENGINE.parse::<BotSpec>()?,
            format!("the hard level ({DEFAULT_ENGINE}), the default; --budget sizes it to a time"),
            vec![0.0; settings.len()],
        ),
        (None, Some(budget)) => sized_engine(bots, &settings, setup, budget, start, &progress)?,
    };
    progress.note(&format!("engine: {engine_setting}"));
    let engine = match &setup.sweep {
        // Spelled out for the game (the levels' exploration as its number); a sweep may change
        // that number from point to point, so there it stays the game's (`gamma=level`).
        None => bots.canonical(&base, &spec),
        Some(_) => spec.canonical(),
    };
    // The values in turns, a few games each: an interrupted or budgeted run has about as many
    // games of every value, and the files are rewritten after every turn.
    let chunk = {
        let c = (setup.threads as u32 * 2)
            .max(setup.games.div_ceil(10))
            .max(2);
        c + c % 2
    };
    let mut played: Vec<Vec<Played>> = vec![Vec::new(); settings.len()];
    let mut spent = vec![0.0f64; settings.len()];
    let mut stopped = None;
    let report = |played: &[Vec<Played>], complete: bool, stopped: &Option<String>| {
        let points: Vec<Point> = settings
            .iter()
            .enumerate()
            .map(|(v, (raw, value))| {
                point(
                    entry,
                    raw,
                    value.clone(),
                    &labels[v],
                    setup.games,
                    &played[v],
                )
            })
            .collect();
        Report {
            game: entry.id.to_string(),
            engine: engine.clone(),
            engine_setting: engine_setting.clone(),
            budget_seconds: setup.budget.map(|b| b.as_secs_f64()),
            seed: setup.seed,
            sweep: setup.sweep.clone(),
            complete,
            stopped: stopped.clone(),
            seconds: start.elapsed().as_secs_f64(),
            fairest: fairest(&labels, &points),
            points,
        }
    };
    loop {
        let mut any = false;
        for (v, (raw, _)) in settings.iter().enumerate() {
            let done = played[v].len() as u32;
            if done >= setup.games {
                continue;
            }
            let n = chunk.min(setup.games - done);
            if let Some(budget) = setup.budget {
                let rate = if done > 0 {
                    spent[v] / f64::from(done)
                } else {
                    per_game[v]
                };
                let expected = Duration::from_secs_f64((rate * f64::from(n)).max(0.0));
                // Every value gets its first games (one with each seat first) whatever the
                // budget; past those, only what fits.
                if done >= 2 && !start_chunk(start.elapsed(), budget, expected) {
                    stopped = Some(format!(
                        "the {} budget ran out: {} of {} games played",
                        budget_text(budget),
                        played.iter().map(Vec::len).sum::<usize>(),
                        total
                    ));
                    continue;
                }
            }
            any = true;
            let config = ArenaConfig {
                games: n,
                threads: setup.threads,
                seed: shifted_seed(setup.seed, done),
            };
            let counter = AtomicU64::new(u64::from(done));
            let t = Instant::now();
            let (_, results) = bots.arena(raw, &spec, &spec, config, &|_| {
                let d = counter.fetch_add(1, Ordering::Relaxed) + 1;
                progress.game(&labels[v], d as u32, setup.games);
            })?;
            spent[v] += t.elapsed().as_secs_f64();
            per_game[v] = spent[v] / f64::from(done + n);
            for r in &results {
                played[v].push(summarise(entry, r)?);
            }
        }
        if !any {
            break;
        }
        let complete = played.iter().all(|p| p.len() as u32 >= setup.games);
        if complete {
            break;
        }
        if let Some(dir) = &setup.out {
            write_files(dir, &report(&played, false, &None))?;
        }
    }
    progress.finish();
    let complete = played.iter().all(|p| p.len() as u32 >= setup.games);
    if complete {
        stopped = None;
    }
    let report = report(&played, complete, &stopped);
    if let Some(dir) = &setup.out {
        write_files(dir, &report)?;
    }
    if setup.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        write!(out, "{}", table(&report))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn pct(i: Interval) -> String {
    format!(
        "{:5.1}% [{:.1}, {:.1}]",
        100.0 * i.estimate,
        100.0 * i.low,
        100.0 * i.high
    )
}

/// The report as text.
#[must_use]
pub fn table(r: &Report) -> String {
    let mut s = format!(
        "{}: {} against itself, seats swapped every other game (95% intervals)\n",
        r.game, r.engine
    );
    s.push_str(&format!("engine: {}\n", r.engine_setting));
    if let Some(why) = &r.stopped {
        s.push_str(&format!("stopped early: {why}\n"));
    } else if !r.complete {
        s.push_str("partial: the run is still going or was interrupted\n");
    }
    s.push_str(&format!("{:.0} s in all\n", r.seconds));
    for p in &r.points {
        if let Some(v) = &p.value {
            let name = r
                .sweep
                .as_deref()
                .and_then(|s| s.split_once('='))
                .map_or("", |s| s.0);
            s.push_str(&format!("{name} = {v}\n"));
        }
        s.push_str(&format!(
            "  {} games{}: p1 wins {}, p2 wins {}, draws {}\n",
            p.games,
            if p.games < p.planned {
                format!(" of {}", p.planned)
            } else {
                String::new()
            },
            p.p1_wins,
            p.p2_wins,
            p.draws
        ));
        s.push_str(&format!("  verdict: {}\n", p.verdict));
        s.push_str(&format!(
            "  first seat's wins      {}\n",
            pct(p.first_seat_wins)
        ));
        s.push_str(&format!(
            "  of decided games       {}\n",
            pct(p.first_seat_decided)
        ));
        s.push_str(&format!(
            "  first seat's score     {}\n",
            pct(p.first_seat_score)
        ));
        if let (Some(h), Some(i)) = (p.advantage_holder, p.advantage_wins) {
            s.push_str(&format!("  advantage holder ({h}) {}\n", pct(i)));
        }
        s.push_str(&format!("  draws                  {}\n", pct(p.draw_rate)));
        s.push_str(&format!(
            "  length {:.1} decisions [{:.1}, {:.1}], from {} to {}\n",
            p.length.estimate, p.length.low, p.length.high, p.length_min, p.length_max
        ));
        for (kind, (count, i)) in &p.endings {
            s.push_str(&format!("  ending: {kind:<40} {count:5}  {}\n", pct(*i)));
        }
        if let Some(mean) = p.margin_mean {
            let finished: u32 = p.margins.iter().map(|b| b.games).sum();
            s.push_str(&format!(
                "  score margin (the first seat's score minus the second's), {finished} finished {}, mean {}:\n",
                if finished == 1 { "game" } else { "games" },
                signed(mean)
            ));
            let most = p.margins.iter().map(|b| b.games).max().unwrap_or(1).max(1);
            for b in &p.margins {
                let range = if b.low == b.high {
                    signed(b.low)
                } else {
                    format!("{} to {}", signed(b.low), signed(b.high))
                };
                let bar = "#".repeat(((b.games * 30).div_ceil(most)) as usize);
                s.push_str(&format!("    {range:>20} {:5}  {bar}\n", b.games));
            }
        }
    }
    if let Some(f) = &r.fairest {
        s.push_str(&format!("{}\n", f.replace("; ", ";\n  ")));
    }
    s.push_str("(verdicts: the first seat's share of the decided games with its 95% Wilson interval, against 50% by the exact two-sided binomial test; a difference when p < 0.05)\n");
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A conservative width of `text` in a sans-serif font of `size` pixels: wider than Arial,
/// Helvetica or DejaVu Sans draw it (their widest letters `m`, `w`, `M`, `W` at about 0.95 of
/// the size, capitals and digits at most 0.78, other letters at most 0.62).
#[must_use]
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars()
        .map(|c| match c {
            'm' | 'w' | 'M' | 'W' | '@' | '%' => 1.0,
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => 0.8,
            c if c.is_ascii() => 0.65,
            _ => 1.0,
        })
        .sum::<f64>()
        * size
}

/// The y axis: shares (0 to 100%) or a count from 0 with nice ticks.
enum Axis {
    Share,
    Count(f64),
}

/// The ticks of an axis and its top: 0, 25, 50, 75, 100% for shares; for counts the multiples
/// of a nice step (1, 2, 5 times a power of ten, at least 1) up to the first at or above the
/// data, at most about 6 of them, so that every label is the exact value of its line.
fn ticks(axis: &Axis) -> (Vec<f64>, f64) {
    match axis {
        Axis::Share => ((0..=4).map(|k| f64::from(k) * 0.25).collect(), 1.0),
        Axis::Count(max) => {
            let max = max.max(1.0);
            let step = nice_step(max / 5.0).max(1.0);
            let top = (max / step - 1e-9).ceil() * step;
            let n = (top / step).round() as u32;
            ((0..=n).map(|k| f64::from(k) * step).collect(), top)
        }
    }
}

/// A chart of labelled shares with their intervals, one group per point; the legend under the
/// plot, in rows that never leave the canvas (which widens for a label longer than it).
fn interval_chart(title: &str, groups: &[(String, Vec<(String, Interval)>)], axis: Axis) -> String {
    let (left, bottom_labels, top) = (60.0, 30.0, 40.0);
    let colours = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f",
        "#bcbd22", "#17becf",
    ];
    let (legend_font, swatch, gap) = (11.0, 10.0, 18.0);
    // The legend: every bar's name once, in order of first appearance; a colour per name.
    let mut names: Vec<&str> = Vec::new();
    for (_, bars) in groups {
        for (name, _) in bars {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    let item_w = |name: &str| swatch + 4.0 + text_width(name, legend_font);
    let widest = names.iter().map(|n| item_w(n)).fold(0.0, f64::max);
    let w = [
        640.0,
        left + widest + 10.0,
        left + text_width(title, 15.0) + 10.0,
    ]
    .into_iter()
    .fold(0.0, f64::max)
    .ceil();
    let plot_h = 260.0;
    let plot_bottom = top + plot_h;
    // Legend rows from under the group labels.
    let row_h = 16.0;
    let mut placed = Vec::new();
    let (mut x, mut row) = (left, 0u32);
    for name in &names {
        let iw = item_w(name);
        if x > left && x + iw > w - 10.0 {
            row += 1;
            x = left;
        }
        placed.push((
            *name,
            x,
            plot_bottom + bottom_labels + 8.0 + row_h * f64::from(row),
        ));
        x += iw + gap;
    }
    let h = (plot_bottom
        + bottom_labels
        + 8.0
        + row_h * f64::from(if names.is_empty() { 0 } else { row + 1 })
        + 8.0)
        .ceil();
    let (tick_values, max) = ticks(&axis);
    let share = matches!(axis, Axis::Share);
    let y = |v: f64| top + plot_h * (1.0 - (v / max).clamp(0.0, 1.0));
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{t}"><title>{t}</title><rect width="100%" height="100%" fill="#fff"/><text x="{left}" y="24" font-family="sans-serif" font-size="15">{t}</text>"##,
        t = escape(title)
    );
    for v in tick_values {
        s.push_str(&format!(
            r##"<line class="grid" x1="{left}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text class="tick" x="{}" y="{:.1}" font-family="sans-serif" font-size="11" text-anchor="end">{}</text>"##,
            w - 10.0,
            left - 6.0,
            y(v) + 4.0,
            if share { format!("{:.0}%", 100.0 * v) } else { num(v) },
            y = y(v)
        ));
    }
    let group_w = (w - left - 10.0) / groups.len().max(1) as f64;
    for (g, (label, bars)) in groups.iter().enumerate() {
        let x0 = left + group_w * g as f64;
        let bar_w = group_w * 0.8 / bars.len().max(1) as f64;
        for (b, (name, i)) in bars.iter().enumerate() {
            let x = x0 + group_w * 0.1 + bar_w * b as f64;
            let c = colours[names.iter().position(|n| n == name).unwrap_or(0) % colours.len()];
            s.push_str(&format!(
                r##"<rect class="bar" x="{x:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{c}"><title>{}: {}</title></rect><line x1="{cx:.1}" x2="{cx:.1}" y1="{:.1}" y2="{:.1}" stroke="#000"/>"##,
                y(i.estimate),
                bar_w * 0.9,
                (plot_bottom - y(i.estimate)).max(0.0),
                escape(name),
                if share {
                    pct(*i)
                } else {
                    format!("{:.1} [{:.1}, {:.1}]", i.estimate, i.low, i.high)
                },
                y(i.low),
                y(i.high),
                cx = x + bar_w * 0.45
            ));
        }
        s.push_str(&format!(
            r##"<text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="12" text-anchor="middle">{}</text>"##,
            x0 + group_w / 2.0,
            plot_bottom + 18.0,
            escape(label)
        ));
    }
    for (name, x, y0) in placed {
        let c = colours[names.iter().position(|n| *n == name).unwrap_or(0) % colours.len()];
        s.push_str(&format!(
            r##"<g class="legend"><rect x="{x:.1}" y="{y0:.1}" width="{swatch}" height="{swatch}" fill="{c}"/><text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="{legend_font}">{}</text></g>"##,
            x + swatch + 4.0,
            y0 + 9.0,
            escape(name)
        ));
    }
    s.push_str("</svg>\n");
    s
}

fn group_label(r: &Report, p: &Point) -> String {
    match (&p.value, r.sweep.as_deref().and_then(|s| s.split_once('='))) {
        (Some(v), Some((name, _))) => format!("{name} = {v}"),
        _ => format!("{} games", p.games),
    }
}

/// The first seat's, the advantage holder's and the draws' shares.
fn shares_svg(r: &Report) -> String {
    let groups: Vec<_> = r
        .points
        .iter()
        .map(|p| {
            let mut bars = vec![
                ("first seat wins".to_string(), p.first_seat_wins),
                ("first seat's score".to_string(), p.first_seat_score),
            ];
            if let (Some(h), Some(i)) = (p.advantage_holder, p.advantage_wins) {
                bars.push((format!("advantage holder ({h}) wins"), i));
            }
            bars.push(("draws".to_string(), p.draw_rate));
            (group_label(r, p), bars)
        })
        .collect();
    interval_chart(
        &format!("{}: shares of games (95% intervals)", r.game),
        &groups,
        Axis::Share,
    )
}

/// How often each ending happens.
fn endings_svg(r: &Report) -> String {
    let groups: Vec<_> = r
        .points
        .iter()
        .map(|p| {
            let bars = p
                .endings
                .iter()
                .map(|(k, (_, i))| (k.clone(), *i))
                .collect();
            (group_label(r, p), bars)
        })
        .collect();
    interval_chart(
        &format!("{}: endings (95% intervals)", r.game),
        &groups,
        Axis::Share,
    )
}

/// Mean game length in decisions.
fn length_svg(r: &Report) -> String {
    let max = r.points.iter().map(|p| p.length.high).fold(1.0, f64::max);
    let groups: Vec<_> = r
        .points
        .iter()
        .map(|p| {
            (
                group_label(r, p),
                vec![("mean decisions per game".to_string(), p.length)],
            )
        })
        .collect();
    interval_chart(
        &format!("{}: game length (95% intervals)", r.game),
        &groups,
        Axis::Count(max),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shifted_seed_plays_the_later_games_of_the_arena() {
        for seed in [0u64, 5, u64::MAX, 0x1234_5678_9abc_def0] {
            for offset in [0u32, 2, 10, 1000] {
                for i in [0u32, 1, 7] {
                    assert_eq!(
                        game_seed(shifted_seed(seed, offset), i),
                        game_seed(seed, offset + i)
                    );
                }
            }
        }
    }

    #[test]
    fn nice_ticks_are_their_labels() {
        assert_eq!(
            ticks(&Axis::Count(13.0)),
            (vec![0.0, 5.0, 10.0, 15.0], 15.0)
        );
        assert_eq!(ticks(&Axis::Count(3.0)), (vec![0.0, 1.0, 2.0, 3.0], 3.0));
        assert_eq!(
            ticks(&Axis::Count(9.2)),
            (vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0], 10.0)
        );
    }

    #[test]
    fn margins_are_binned_when_many() {
        let few = histogram(&[1.0, -1.0, 1.0, 0.0]);
        assert_eq!(few.len(), 3);
        assert_eq!(
            few[2],
            MarginBin {
                low: 1.0,
                high: 1.0,
                games: 2
            }
        );
        let many: Vec<f64> = (-20..=20).map(f64::from).collect();
        let bins = histogram(&many);
        assert!(bins.len() <= 10, "{bins:?}");
        assert_eq!(bins.iter().map(|b| b.games).sum::<u32>(), 41);
    }
}

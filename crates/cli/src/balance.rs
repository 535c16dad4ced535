//! `colosseum balance`: the strongest equilibrium-seeking level against itself, seats swapped
//! (the arena's games), reported for designers with 95% intervals: the first seat's share of
//! wins, the advantage holder's, draws, game length and how often each ending happens, over one
//! option's values if asked.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use colosseum_ai::arena::{wilson, ArenaConfig, GameResult, Interval};
use colosseum_ai::registry::{self, BotSpec};
use colosseum_engine::{parse_pairs, replay, Pending, RawOptions, Seat, Viewer};
use colosseum_games::GameEntry;
use serde::Serialize;

/// Everything `balance` needs.
#[derive(Debug)]
pub struct Setup {
    pub game: String,
    pub options: Vec<String>,
    pub games: u32,
    pub engine: String,
    pub sweep: Option<String>,
    pub out: Option<PathBuf>,
    pub seed: u64,
    pub threads: usize,
    pub json: bool,
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
    /// The first seat's score per game (a win 1, a draw 1/2), 95% interval (normal
    /// approximation); 1/2 in a fair game.
    pub first_seat_score: Interval,
    /// The seat holding the game's advantage under these options, if the game has one and it
    /// can be told.
    pub advantage_holder: Option<Seat>,
    /// Its share of all games won.
    pub advantage_wins: Option<Interval>,
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
}

/// The report.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The game's id.
    pub game: String,
    /// The engine (both seats), canonical name.
    pub engine: String,
    /// The match seed (game `i`'s seed derives from it, as in `colosseum arena`).
    pub seed: u64,
    /// The swept option, if any.
    pub sweep: Option<String>,
    /// One point per option value (one without a sweep).
    pub points: Vec<Point>,
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

/// The numbers of one option setting from the arena's games.
pub fn point(
    entry: &GameEntry,
    raw: &RawOptions,
    value: Option<String>,
    results: &[GameResult],
) -> Result<Point> {
    let (mut wins, mut draws) = ([0u32; 2], 0u32);
    let mut lengths = Vec::new();
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    for r in results {
        let game = (entry.create)(&r.record.options)?;
        let replayed = replay(game, &r.record).map_err(|f| anyhow::anyhow!("{}", f.error))?;
        let decisions = replayed.applied.iter().filter(|s| !s.is_chance()).count() as u32;
        lengths.push(decisions);
        if replayed.game.pending() != Pending::Over {
            *endings.entry("unfinished".into()).or_default() += 1;
            continue;
        }
        let outcome = replayed
            .game
            .outcome()
            .context("a finished game has an outcome")?;
        match outcome.winner {
            Some(seat) => wins[seat.index()] += 1,
            None => draws += 1,
        }
        *endings.entry((entry.ending)(&outcome)).or_default() += 1;
    }
    let games = results.len() as u32;
    let holder = advantage_holder(entry, raw);
    let n = f64::from(games.max(1));
    let mean = lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / n;
    let var = lengths
        .iter()
        .map(|&l| (f64::from(l) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    Ok(Point {
        options: raw.clone(),
        value,
        games,
        p1_wins: wins[0],
        p2_wins: wins[1],
        draws,
        first_seat_wins: wilson(wins[0], games),
        first_seat_decided: wilson(wins[0], wins[0] + wins[1]),
        first_seat_score: score_interval(wins[0], draws, wins[1]),
        advantage_holder: holder,
        advantage_wins: holder.map(|s| wilson(wins[s.index()], games)),
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
    })
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

/// Runs the report and prints it.
pub fn run(setup: &Setup, out: &mut impl Write) -> Result<ExitCode> {
    let entry = colosseum_games::find(&setup.game)?;
    let base = parse_pairs(setup.options.iter().map(String::as_str))?;
    let spec: BotSpec = setup.engine.parse()?;
    let bots = registry::find(entry.id)?;
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
    let bar = indicatif::ProgressBar::new(u64::from(setup.games) * settings.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut points = Vec::new();
    for (raw, value) in settings {
        let config = ArenaConfig {
            games: setup.games,
            threads: setup.threads,
            seed: setup.seed,
        };
        let (_, results) = bots.arena(&raw, &spec, &spec, config, &|_| bar.inc(1))?;
        points.push(point(entry, &raw, value, &results)?);
    }
    bar.finish_and_clear();
    let report = Report {
        game: entry.id.to_string(),
        // Spelled out for the game (the levels' exploration as its number); a sweep may change
        // that number from point to point, so there it stays the game's (`gamma=level`).
        engine: match &setup.sweep {
            None => bots.canonical(&base, &spec),
            Some(_) => spec.canonical(),
        },
        seed: setup.seed,
        sweep: setup.sweep.clone(),
        points,
    };
    if let Some(dir) = &setup.out {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the output directory {}", dir.display()))?;
        let write = |name: &str, text: String| -> Result<()> {
            let path = dir.join(name);
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
        };
        write("balance.json", serde_json::to_string_pretty(&report)?)?;
        write("shares.svg", shares_svg(&report))?;
        write("endings.svg", endings_svg(&report))?;
        write("length.svg", length_svg(&report))?;
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
            "  {} games: p1 wins {}, p2 wins {}, draws {}\n",
            p.games, p.p1_wins, p.p2_wins, p.draws
        ));
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
    }
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A chart of labelled shares with their intervals, one group per point.
fn interval_chart(title: &str, groups: &[(String, Vec<(String, Interval)>)], max: f64) -> String {
    let (w, h, left, bottom, top) = (640.0, 360.0, 60.0, 60.0, 40.0);
    let colours = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
    ];
    let plot_h = h - bottom - top;
    let y = |v: f64| top + plot_h * (1.0 - (v / max).clamp(0.0, 1.0));
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{t}"><title>{t}</title><rect width="100%" height="100%" fill="#fff"/><text x="{left}" y="24" font-family="sans-serif" font-size="15">{t}</text>"##,
        t = escape(title)
    );
    for k in 0..=4 {
        let v = max * f64::from(k) / 4.0;
        s.push_str(&format!(
            r##"<line x1="{left}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" font-family="sans-serif" font-size="11" text-anchor="end">{}</text>"##,
            w - 10.0,
            left - 6.0,
            y(v) + 4.0,
            if max <= 1.0 { format!("{:.0}%", 100.0 * v) } else { format!("{v:.0}") },
            y = y(v)
        ));
    }
    let group_w = (w - left - 10.0) / groups.len().max(1) as f64;
    for (g, (label, bars)) in groups.iter().enumerate() {
        let x0 = left + group_w * g as f64;
        let bar_w = group_w * 0.8 / bars.len().max(1) as f64;
        for (b, (name, i)) in bars.iter().enumerate() {
            let x = x0 + group_w * 0.1 + bar_w * b as f64;
            let c = colours[b % colours.len()];
            s.push_str(&format!(
                r##"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{c}"><title>{}: {}</title></rect><line x1="{cx:.1}" x2="{cx:.1}" y1="{:.1}" y2="{:.1}" stroke="#000"/>"##,
                y(i.estimate),
                bar_w * 0.9,
                (top + plot_h - y(i.estimate)).max(0.0),
                escape(name),
                if max <= 1.0 {
                    pct(*i)
                } else {
                    format!("{:.1} [{:.1}, {:.1}]", i.estimate, i.low, i.high)
                },
                y(i.low),
                y(i.high),
                cx = x + bar_w * 0.45
            ));
            if g == 0 {
                s.push_str(&format!(
                    r##"<rect x="{:.1}" y="{:.1}" width="10" height="10" fill="{c}"/><text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="11">{}</text>"##,
                    w - 200.0,
                    top + 14.0 * b as f64,
                    w - 186.0,
                    top + 9.0 + 14.0 * b as f64,
                    escape(name)
                ));
            }
        }
        s.push_str(&format!(
            r##"<text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="12" text-anchor="middle">{}</text>"##,
            x0 + group_w / 2.0,
            h - bottom + 18.0,
            escape(label)
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
        1.0,
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
        1.0,
    )
}

/// Mean game length in decisions.
fn length_svg(r: &Report) -> String {
    let max = r
        .points
        .iter()
        .map(|p| p.length.high)
        .fold(1.0, f64::max)
        .ceil();
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
        max,
    )
}

//! `colosseum arena`: many games between two bots, with a progress bar and a report.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use colosseum_ai::arena::{ArenaConfig, ArenaReport, Interval};
use colosseum_ai::registry::{self, BotSpec};
use colosseum_engine::parse_pairs;

/// Everything `arena` needs.
#[derive(Debug)]
pub struct Setup {
    pub game: String,
    pub bot_a: String,
    pub bot_b: String,
    pub games: u32,
    pub threads: usize,
    pub seed: u64,
    pub options: Vec<String>,
    pub json: bool,
    pub records: Option<PathBuf>,
}

/// Runs the match and prints the report.
pub fn run(setup: &Setup, out: &mut impl Write) -> Result<ExitCode> {
    let entry = colosseum_games::find(&setup.game)?;
    let raw = parse_pairs(setup.options.iter().map(String::as_str))?;
    let a: BotSpec = setup.bot_a.parse()?;
    let b: BotSpec = setup.bot_b.parse()?;
    let bots = registry::find(entry.id)?;
    if let Some(dir) = &setup.records {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the records directory {}", dir.display()))?;
    }
    let bar = indicatif::ProgressBar::new(u64::from(setup.games));
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let config = ArenaConfig {
        games: setup.games,
        threads: setup.threads,
        seed: setup.seed,
    };
    let (report, results) = bots.arena(&raw, &a, &b, config, &|_| bar.inc(1))?;
    bar.finish_and_clear();
    if let Some(dir) = &setup.records {
        for r in &results {
            let path = dir.join(format!("{}-{:05}.json", entry.id, r.index));
            std::fs::write(&path, r.record.to_json())
                .with_context(|| format!("writing {}", path.display()))?;
        }
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

/// The report as a small table.
pub fn table(r: &ArenaReport) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "{}: A = {} vs B = {}, {} games (seats swapped every other game)\n",
        r.game, r.bot_a, r.bot_b, r.games
    ));
    s.push_str(&format!(
        "  A wins   {:5}  {}\n",
        r.wins,
        pct(r.win_interval)
    ));
    s.push_str(&format!(
        "  draws    {:5}  {}\n",
        r.draws,
        pct(r.draw_interval)
    ));
    s.push_str(&format!(
        "  A losses {:5}  {}\n",
        r.losses,
        pct(r.loss_interval)
    ));
    s.push_str(&format!(
        "  A's share of decided games {} (95% interval)\n",
        pct(r.decided_win_share)
    ));
    s.push_str(&format!(
        "  A's wins as p1 {}, as p2 {}\n",
        r.wins_by_seat[0], r.wins_by_seat[1]
    ));
    s.push_str(&format!(
        "  Elo A - B: {:+.0} [{:+.0}, {:+.0}]\n",
        r.elo.estimate, r.elo.low, r.elo.high
    ));
    s.push_str(&format!(
        "  {:.2} games/s over {:.1} s; mean think time per decision: A {:.2} ms, B {:.2} ms\n",
        r.games_per_second, r.seconds, r.mean_think_ms[0], r.mean_think_ms[1]
    ));
    s.push_str(&format!(
        "  illegal moves replaced: A {}, B {}\n",
        r.substituted[0], r.substituted[1]
    ));
    s
}

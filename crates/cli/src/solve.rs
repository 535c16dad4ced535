//! `colosseum solve`: a game solved exactly into a table file, and the independent check of a
//! table file. The game and its options are checked by `colosseum_ai::table::setting`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{anyhow, Context, Result};
use colosseum_ai::table::{self, Check, Precision, Table};
use colosseum_engine::parse_pairs;
use serde_json::json;

/// The command line of `colosseum solve`.
#[derive(Debug, clap::Args)]
pub struct Setup {
    /// The game's id (the table solver supports one: see `colosseum solve --help`).
    #[arg(required_unless_present = "check")]
    pub game: Option<String>,
    /// A game option as name=value (repeatable), e.g. -o cards=13.
    #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Write the table here (with --check, the table read is written again, e.g. in another
    /// precision).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The strategies' precision in the file: f32 (half the size) or f64 (as solved).
    #[arg(long, default_value = "f32", value_parser = parse_precision)]
    pub precision: Precision,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Read a table file and check it independently (best replies against its strategies at
    /// every position) instead of solving.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "options", "no_check"])]
    pub check: Option<PathBuf>,
    /// Skip the independent check after a solve.
    #[arg(long)]
    pub no_check: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

fn parse_precision(s: &str) -> Result<Precision, String> {
    s.parse()
}

/// The largest exploitability a check passes: 1e-9 for strategies held as f64, 1e-4 for f32
/// (a probability rounded to f32 is off by up to 6e-8 of itself, and the points at stake are up
/// to 91 a game).
fn tolerance(precision: Precision) -> f64 {
    match precision {
        Precision::F64 => 1e-9,
        Precision::F32 => 1e-4,
    }
}

fn bar(total: u64, what: &str, quiet: bool) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let progress = indicatif::ProgressBar::new(total);
    progress.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{what} {{bar:40}} {{percent}}%, {{elapsed}} elapsed, about {{eta}} left"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    progress
}

fn check_table(t: &Table, threads: usize, quiet: bool) -> (Check, f64) {
    let start = Instant::now();
    let progress = bar(table::positions(t.cards()), "checking", quiet);
    let check = table::check(t, threads, &|done| progress.inc(done));
    progress.finish_and_clear();
    (check, start.elapsed().as_secs_f64())
}

fn check_json(c: &Check, seconds: f64, precision: Precision) -> serde_json::Value {
    json!({
        "exploitability": c.exploitability(),
        "nash_conv": c.nash_conv(),
        "against_p1": c.against_p1,
        "against_p2": c.against_p2,
        "worst_position": c.worst_position,
        "antisymmetry": c.antisymmetry,
        "sum_error": c.sum_error,
        "negative": c.negative,
        "positions": c.positions,
        "tolerance": tolerance(precision),
        "passed": passed(c, precision),
        "seconds": seconds,
    })
}

fn passed(c: &Check, precision: Precision) -> bool {
    let tol = tolerance(precision);
    c.against_p1.abs() <= tol
        && c.against_p2.abs() <= tol
        && c.worst_position <= tol
        && c.antisymmetry == 0.0
        && !c.negative
        && c.sum_error < 1e-5
}

fn write_check(out: &mut impl Write, c: &Check, seconds: f64, precision: Precision) -> Result<()> {
    writeln!(
        out,
        "check (best replies against the stored strategies at all {} positions, {seconds:.1} s):",
        c.positions
    )?;
    writeln!(
        out,
        "  exploitability at the root {:.3e} (the mean of what p2's best reply gains against p1's \
         strategy, {:.3e}, and p1's against p2's, {:.3e})",
        c.exploitability(),
        c.against_p1,
        c.against_p2
    )?;
    writeln!(
        out,
        "  largest gain of a best reply at any position {:.3e}; antisymmetry error {:e}; \
         largest |1 - sum of a strategy| {:.1e}; negative probabilities: {}",
        c.worst_position,
        c.antisymmetry,
        c.sum_error,
        if c.negative { "yes" } else { "none" }
    )?;
    writeln!(
        out,
        "  {} (tolerance {:e} for {} strategies)",
        if passed(c, precision) {
            "passed"
        } else {
            "FAILED"
        },
        tolerance(precision),
        match precision {
            Precision::F32 => "f32",
            Precision::F64 => "f64",
        }
    )?;
    Ok(())
}

fn strategy_text(strategy: &[(u32, f64)]) -> String {
    strategy
        .iter()
        .filter(|&&(_, p)| p > 0.0)
        .map(|&(c, p)| format!("{c}: {p:.6}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn save(t: &Table, path: &Path, precision: Precision) -> Result<(u64, String, f64)> {
    let start = Instant::now();
    let saved = t.save(path, precision)?;
    Ok((
        saved.bytes,
        format!("{:016x}", saved.checksum),
        start.elapsed().as_secs_f64(),
    ))
}

/// Runs `colosseum solve`.
pub fn run(setup: &Setup, out: &mut impl Write) -> Result<ExitCode> {
    let threads = setup.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if threads == 0 {
        return Err(anyhow!("--threads must be at least 1"));
    }
    if let Some(path) = &setup.check {
        let start = Instant::now();
        let t = Table::open(path)?;
        let read_secs = start.elapsed().as_secs_f64();
        let (c, secs) = check_table(&t, threads, setup.json);
        let ok = passed(&c, t.precision());
        let saved = match &setup.out {
            Some(to) => Some(save(&t, to, setup.precision)?),
            None => None,
        };
        if setup.json {
            let json = json!({
                "file": path.display().to_string(),
                "cards": t.cards(),
                "read_seconds": read_secs,
                "root_value": t.root_value(),
                "root_strategy": t.root_strategy(),
                "check": check_json(&c, secs, t.precision()),
                "out": saved.as_ref().map(|(bytes, sum, s)| json!({"bytes": bytes, "fnv1a": sum, "seconds": s})),
            });
            writeln!(out, "{json}")?;
        } else {
            writeln!(
                out,
                "{}: {} cards, read in {read_secs:.1} s; root value {:.12}",
                path.display(),
                t.cards(),
                t.root_value()
            )?;
            writeln!(out, "root strategy: {}", strategy_text(&t.root_strategy()))?;
            write_check(out, &c, secs, t.precision())?;
            if let (Some((bytes, sum, s)), Some(to)) = (&saved, &setup.out) {
                writeln!(
                    out,
                    "wrote {}: {bytes} bytes, FNV-1a {sum}, {s:.1} s",
                    to.display()
                )?;
            }
        }
        return Ok(if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let game = setup.game.as_deref().unwrap_or_default();
    let raw = parse_pairs(setup.options.iter().map(String::as_str))?;
    let n = table::setting(game, &raw).map_err(|e| anyhow!(e))?;
    let start = Instant::now();
    let progress = bar(table::games(n), "solving", setup.json);
    let t = Table::solve(n, threads, &|done| progress.inc(done))?;
    progress.finish_and_clear();
    let solve_secs = start.elapsed().as_secs_f64();
    let checked = if setup.no_check {
        None
    } else {
        Some(check_table(&t, threads, setup.json))
    };
    let saved = match &setup.out {
        Some(path) => Some(save(&t, path, setup.precision).with_context(|| "writing the table")?),
        None => None,
    };
    let ok = checked
        .as_ref()
        .is_none_or(|(c, _)| passed(c, t.precision()));
    if setup.json {
        let levels: Vec<_> = t
            .stats
            .iter()
            .map(|s| {
                json!({"k": s.k, "games": s.games, "saddles": s.saddles, "pivots": s.pivots,
                       "lp_fallbacks": s.lp_fallbacks, "max_gap": s.max_gap, "seconds": s.seconds})
            })
            .collect();
        let json = json!({
            "game": game,
            "options": raw,
            "cards": n,
            "positions": table::positions(n),
            "games": table::games(n),
            "threads": threads,
            "solve_seconds": solve_secs,
            "levels": levels,
            "root_value": t.root_value(),
            "root_strategy": t.root_strategy(),
            "check": checked.as_ref().map(|(c, s)| check_json(c, *s, t.precision())),
            "out": saved.as_ref().map(|(bytes, sum, s)| json!({"bytes": bytes, "fnv1a": sum, "seconds": s})),
        });
        writeln!(out, "{json}")?;
    } else {
        writeln!(
            out,
            "{n} cards, prizes {n} down to 1, point difference: {} positions, {} matrix games \
             (pairs with rank(h1) <= rank(h2)) on {threads} threads, solved in {solve_secs:.2} s",
            table::positions(n),
            table::games(n)
        )?;
        writeln!(
            out,
            "{:>5} {:>10} {:>10} {:>12} {:>4} {:>10} {:>8}",
            "cards", "games", "saddles", "pivots", "LP", "max gap", "seconds"
        )?;
        for s in &t.stats {
            writeln!(
                out,
                "{:>5} {:>10} {:>10} {:>12} {:>4} {:>10.1e} {:>8.2}",
                s.k, s.games, s.saddles, s.pivots, s.lp_fallbacks, s.max_gap, s.seconds
            )?;
        }
        writeln!(out, "root value {:.12}", t.root_value())?;
        writeln!(out, "root strategy: {}", strategy_text(&t.root_strategy()))?;
        if let Some((c, s)) = &checked {
            write_check(out, c, *s, t.precision())?;
        }
        if let (Some((bytes, sum, s)), Some(path)) = (&saved, &setup.out) {
            writeln!(
                out,
                "wrote {}: {bytes} bytes ({} strategies), FNV-1a {sum}, {s:.1} s",
                path.display(),
                match setup.precision {
                    Precision::F32 => "f32",
                    Precision::F64 => "f64",
                }
            )?;
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

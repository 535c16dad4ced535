//! `colosseum analyse`: every decision of a finished match valued by an engine.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use colosseum_ai::analysis::{Analysis, AnalysisConfig, Method};
use colosseum_ai::registry::{self, BotSpec};
use colosseum_engine::Record;

/// Reads a record from `text`: one record, or a hosted match's `{"records": [...]}` (its last
/// game).
pub fn read_record(text: &str) -> Result<Record> {
    let value: serde_json::Value =
        serde_json::from_str(text).context("the file is not JSON: expected a match record")?;
    let value = match value.get("records") {
        Some(serde_json::Value::Array(list)) => list
            .last()
            .cloned()
            .context("`records` is empty: there is no game to analyse")?,
        _ => value,
    };
    serde_json::from_value(value).context("not a match record (game, options, seed, steps)")
}

/// The engine of an analysis: an `mcts:` search.
pub fn engine(spec: &str) -> Result<colosseum_ai::MctsConfig> {
    match spec.parse::<BotSpec>()? {
        BotSpec::Mcts(config) => Ok(config),
        other => bail!(
            "the analysis needs a search engine that values moves, not `{other}`: use mcts:easy|medium|hard or mcts:iters=N"
        ),
    }
}

/// Runs the analysis of `file` and prints it.
pub fn run(
    file: &Path,
    text: &str,
    spec: &str,
    runs: u32,
    seed: u64,
    json: bool,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let record = read_record(text).with_context(|| format!("reading {}", file.display()))?;
    let entry = colosseum_games::find(&record.game)?;
    let config = AnalysisConfig {
        engine: engine(spec)?,
        runs: runs.max(1),
        seed,
    };
    let bots = registry::find(entry.id)?;
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} decisions, {elapsed} elapsed, {eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let analysis = bots.analyse(&record, &config, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    if json {
        writeln!(out, "{}", serde_json::to_string(&analysis)?)?;
    } else {
        write!(out, "{}", table(&analysis))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The analysis as text.
#[must_use]
pub fn table(a: &Analysis) -> String {
    let mut s = format!(
        "{}: {} decisions; exact where solved, else {} ({} runs each, ± one standard deviation)\n{}\nvalues: {}\n",
        a.game,
        a.decisions.len(),
        a.engine,
        a.runs,
        a.information,
        a.unit
    );
    s.push_str(&format!(
        "marks: inaccuracy >= {}, mistake >= {}, blunder >= {} of the result range\n",
        a.thresholds.inaccuracy, a.thresholds.mistake, a.thresholds.blunder
    ));
    for d in &a.decisions {
        for seat in &d.seats {
            let band = |e: Option<f64>| e.map(|e| format!(" ±{e:.3}")).unwrap_or_default();
            let method = match seat.method {
                Method::Exact => "exact",
                Method::Search => "search",
            };
            let mark = seat
                .mark
                .map(|m| format!("  {m:?}").to_lowercase())
                .unwrap_or_default();
            let points = match (seat.expected_points, seat.cost_points) {
                (Some(e), Some(c)) => format!(" [{e:+.3} points, cost {c:.3} points]"),
                _ => String::new(),
            };
            let engine: Vec<String> = seat
                .recommended
                .iter()
                .take(3)
                .map(|c| format!("{} {:.0}%", c.mv, 100.0 * c.probability))
                .collect();
            s.push_str(&format!(
                "#{:<3} {}  expects {:.3}{}  played {}  engine {}  cost {:.3}{}{points} ({method}){mark}\n",
                d.index + 1,
                seat.seat,
                seat.expected,
                band(seat.expected_error),
                seat.played,
                engine.join(", "),
                seat.cost,
                band(seat.cost_error),
            ));
        }
    }
    if !a.turning_points.is_empty() {
        s.push_str("turning points (p1's expected result):\n");
        for t in &a.turning_points {
            s.push_str(&format!(
                "  after decision {}: {:.3} -> {:.3} ({:+.3})\n",
                t.decision + 1,
                t.before,
                t.after,
                t.swing
            ));
        }
    }
    s
}

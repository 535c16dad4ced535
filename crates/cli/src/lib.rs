//! The `colosseum` command line: list games, show rules pages, replay records, play in the
//! terminal and benchmark random playouts.

#![warn(missing_docs)]

mod play;

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use colosseum_engine::{
    parse_pairs, AnyGame, Pending, Record, Replay, ReplayFailure, Seat, Viewer,
};
use serde_json::{json, Value};

/// Hosts, plays and analyses two-player Death Match games.
#[derive(Debug, Parser)]
#[command(name = "colosseum", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the games.
    Games,
    /// Show a game's rules page: rules, rulings, notation, options, examples.
    Rules {
        /// The game's id (see `colosseum games`).
        game: String,
    },
    /// Apply a match record and print the state reached.
    Replay {
        /// The record (JSON); `-` reads standard input.
        file: PathBuf,
        /// Print one JSON object: game, finished, outcome, score, steps.
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal: against a bot with --vs, or hot-seat without.
    Play {
        /// The game's id.
        game: String,
        /// The opponent: `random`. Leave out for two people at one keyboard.
        #[arg(long)]
        vs: Option<String>,
        /// Your seat when playing a bot.
        #[arg(long, default_value = "p1")]
        seat: Seat,
        /// Seed for chance and the bot (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// A game option as name=value (repeatable), e.g. --option cards=8.
        #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Write the match record here when the game ends or you quit.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// Run uniformly random playouts and print games per second.
    Bench {
        /// The game's id.
        game: String,
        /// How many games.
        #[arg(long, default_value_t = 100_000)]
        games: u64,
        /// Seed for the playouts.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// A game option as name=value (repeatable).
        #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
}

/// Runs the command line `args` (the program name first), writing to `out`, and returns the exit
/// code.
///
/// Exit codes: 0 success; 1 a record that does not replay, or a game abandoned; 2 bad usage or
/// input that cannot be read.
pub fn run(args: impl IntoIterator<Item = OsString>, out: &mut impl Write) -> Result<ExitCode> {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return Ok(ExitCode::from(code));
        }
    };
    match cli.command {
        Command::Games => {
            for g in colosseum_games::registry() {
                writeln!(out, "{:<18} {} - {}", g.id, g.name, g.summary)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Rules { game } => {
            let entry = colosseum_games::find(&game)?;
            write!(out, "{}", entry.rules)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay { file, json } => replay_command(&file, json, out),
        Command::Play {
            game,
            vs,
            seat,
            seed,
            options,
            record,
        } => {
            let entry = colosseum_games::find(&game)?;
            let raw = parse_pairs(options.iter().map(String::as_str))?;
            let seed = seed.unwrap_or_else(clock_seed);
            let opponent = match vs.as_deref() {
                None => play::Opponent::HotSeat,
                Some("random") => play::Opponent::Random,
                Some(other) => anyhow::bail!("unknown bot `{other}`; the bots are: random"),
            };
            let setup = play::Setup {
                entry,
                options: raw,
                seed,
                opponent,
                human: seat,
                record_path: record,
            };
            let stdin = std::io::stdin();
            play::play(&setup, &mut stdin.lock(), out)
        }
        Command::Bench {
            game,
            games,
            seed,
            options,
        } => {
            let entry = colosseum_games::find(&game)?;
            let raw = parse_pairs(options.iter().map(String::as_str))?;
            let start = Instant::now();
            let decisions = (entry.random_playouts)(&raw, games, seed)?;
            let secs = start.elapsed().as_secs_f64();
            writeln!(
                out,
                "{}: {games} random games, {decisions} decisions in {secs:.3} s: {:.0} games/s, {:.0} decisions/s",
                entry.id,
                games as f64 / secs,
                decisions as f64 / secs
            )?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn replay_command(file: &std::path::Path, as_json: bool, out: &mut impl Write) -> Result<ExitCode> {
    let text = if file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading the record from standard input")?;
        s
    } else {
        std::fs::read_to_string(file)
            .with_context(|| format!("reading the record {}", file.display()))?
    };
    let record = Record::from_json(&text).with_context(|| format!("{}", file.display()))?;
    let result =
        colosseum_games::replay_record(&record).with_context(|| format!("{}", file.display()))?;
    let (replayed, error) = match result {
        Ok(r) => (r, None),
        Err(failure) => {
            let ReplayFailure { reached, error } = *failure;
            (reached, Some(error))
        }
    };
    if as_json {
        let mut summary = summary_json(&replayed);
        if let Some(e) = &error {
            summary["error"] = json!({"index": e.index, "message": e.to_string()});
        }
        writeln!(out, "{summary}")?;
    } else {
        write!(out, "{}", replayed.game.render(Viewer::Spectator))?;
        writeln!(out, "Steps applied: {}", replayed.applied.len())?;
    }
    match error {
        None => Ok(ExitCode::SUCCESS),
        Some(e) => {
            eprintln!("colosseum: {}: {e}", file.display());
            Ok(ExitCode::from(1))
        }
    }
}

/// The JSON summary of a replay, as DESIGN.md specifies.
fn summary_json(replayed: &Replay) -> Value {
    let game: &dyn AnyGame = replayed.game.as_ref();
    let pending = game.pending();
    let outcome = match game.outcome() {
        Some(o) => json!({"winner": o.winner, "reason": o.reason}),
        None => {
            json!({"winner": null, "reason": format!("the game is not over: it waits for {pending}")})
        }
    };
    json!({
        "game": game.id(),
        "finished": pending == Pending::Over,
        "outcome": outcome,
        "score": game.score(),
        "steps": replayed.applied.len(),
        "pending": pending,
    })
}

//! `colosseum-load`: runs N concurrent matches of bot clients against `colosseum serve` over
//! WebSocket on loopback and reports the time from a decision's last submission to its reveal
//! reaching both seats (p50, p90, p99, max), errors, and the server's CPU time (in all and per
//! decision) and peak memory.
//!
//! By default it starts the server itself (the `colosseum` binary next to this one, on a
//! temporary SQLite file) so that it can read the server's CPU and memory from `/proc`; with
//! `--url` it loads a server that is already running.
//!
//! Every client is a "human" seat over the WebSocket: it joins, and whenever its seat must act it
//! waits a think time (uniform in 0..2×`--think-ms`), then submits a uniformly random move from
//! the state's `legal_moves`. The clock of a decision's latency starts when the later of the two
//! submissions is sent and stops when the later of the two seats receives a state whose step
//! count has moved past that decision.
//!
//! Several nodes (docs/benchmarks.md, "Three nodes, one killed"): `--nodes N --postgres CONN`
//! starts N `colosseum serve` processes on one PostgreSQL (or `--url` given several times loads
//! running ones); the matches are created round robin over them and each seat's WebSocket opens
//! on a node of its own turn, which forwards it to the match's owner. `--kill-node-after SECS`
//! kills the last node with SIGKILL that long after play began. A client whose connection
//! closes or drops before its match is over connects again to the next node with its seat
//! token and submits again only what the server has not acknowledged (its state says whether
//! the seat's move is in). Every acknowledged submission is recorded; at the end every match is
//! read back through the API ([`nodes::check`]): it must be finished, its record must hold every
//! acknowledged submission, and its result must be the one its moves give. Latencies are
//! reported apart for decisions that overlap the takeover window (the kill until the last
//! dropped client was served again) and for all the others.
//!
//! Past one process: `--start-over SECS` spreads the matches' starts evenly over a window (match
//! i's clients connect i/matches of the way in), so that their rounds are not in lockstep, and
//! reports the most matches live at once; `--processes K` runs the clients in K copies of this
//! program (each with every K-th match, under its own open-file limit, all starting at one
//! moment agreed in Unix time) and merges what they measured ([`report::Raw`]) before working
//! out the figures; the servers, the kill and the read-back check stay in this process.
//! `--seat-sockets creator` opens both seats' sockets on the node that created the match.
//!
//! With `--sealed` the matches are sealed (`docs/server-api.md`, "Sealed submissions"): in a
//! simultaneous decision a client commits to the SHA-256 of the match id, the decision, its seat,
//! its move and a random 128-bit nonce, and opens when both have committed; the latency then runs
//! from the later opening to the reveal. Every move, commitment and opening names its decision.

mod nodes;
mod report;

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

// The clients parse a JSON state per message, as the server builds one: the same allocator
// keeps the load generator from taking more of the machine than it must.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "colosseum-load",
    about = "Load colosseum serve with concurrent bot matches over WebSocket"
)]
struct Args {
    /// Concurrent matches (each two WebSocket clients).
    #[arg(long, default_value_t = 100)]
    matches: usize,
    /// The game (default: the first of the registry, `colosseum games`).
    #[arg(long, default_value_t = first_game())]
    game: String,
    /// Game options as a JSON object.
    #[arg(long, default_value = r#"{"cards": "13"}"#)]
    options: String,
    /// Mean think time of a client before it submits, in ms (uniform in 0..2x).
    #[arg(long, default_value_t = 500)]
    think_ms: u64,
    /// A running server to load (e.g. http://127.0.0.1:8080) instead of starting one; given
    /// several times, the nodes of one PostgreSQL (or one proxy in front of them).
    #[arg(long)]
    url: Vec<String>,
    /// The `colosseum` binary to start (default: next to this program).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Connections opened at once while ramping up.
    #[arg(long, default_value_t = 64)]
    ramp: usize,
    /// Seed of the clients' choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Sealed matches: commit, then open, in simultaneous decisions.
    #[arg(long)]
    sealed: bool,
    /// Ask for delta states (`?delta=1`, `docs/server-api.md`): after the first full state,
    /// each change as what changed. Off by default, so that the figures compare with earlier
    /// runs (and cost the server less: docs/benchmarks.md, "Delta states").
    #[arg(long)]
    deltas: bool,
    /// Nodes to start, each a `colosseum serve --postgres` (more than 1 needs --postgres).
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// The PostgreSQL the nodes started share (a libpq connection string; a database of its
    /// own: unfinished matches found there are taken over by the nodes).
    #[arg(long)]
    postgres: Option<String>,
    /// Kill the last node started with SIGKILL this many seconds after play began.
    #[arg(long)]
    kill_node_after: Option<f64>,
    /// Spread the matches' starts evenly over this many seconds: match i's clients connect
    /// i/matches of the way into the window. Shorter than a match, every match is still live at
    /// once, but their rounds are not in lockstep (0: all start in one ramp).
    #[arg(long, default_value_t = 0.0)]
    start_over: f64,
    /// Run the clients in this many processes: this program runs itself again for each, with
    /// every K-th match (each process under its own open-file limit), and merges their reports;
    /// the servers, the kill and the read-back check stay here.
    #[arg(long, default_value_t = 1)]
    processes: usize,
    /// Where a seat's WebSocket opens: `turn` (a node of the seat's own turn, so two sockets in
    /// three are forwarded to the match's owner) or `creator` (the node the match was created
    /// on, so none is until a node dies). After a drop a client tries the next node (with
    /// `creator` and three nodes or more, the second seat the one after it at its first drop:
    /// a dead node's clients spread over two nodes).
    #[arg(long, value_enum, default_value_t = SeatSockets::Turn)]
    seat_sockets: SeatSockets,
    /// Internal (`--processes`): play the matches listed in this file and print what was
    /// measured as JSON.
    #[arg(long, hide = true)]
    worker: Option<PathBuf>,
    /// Internal (`--processes`): when play begins, in ms since the Unix epoch.
    #[arg(long, hide = true)]
    play_at_unix_ms: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SeatSockets {
    Turn,
    Creator,
}

impl SeatSockets {
    /// The first node (an index, taken modulo the nodes) of seat `seat` of match `i`.
    fn first(self, i: usize, seat: usize) -> usize {
        match self {
            SeatSockets::Turn => 2 * i + seat,
            // Match i was created on node i (round robin).
            SeatSockets::Creator => i,
        }
    }

    /// How many nodes on a seat's client moves after its `tries`-th drop (1 the first), of
    /// `nodes`: the next one, except that with `creator` the second seat skips one at its first
    /// drop (with three nodes or more), so that a dead node's clients reconnect to two nodes,
    /// not all to one.
    fn after_drop(self, seat: usize, tries: u32, nodes: usize) -> usize {
        match self {
            SeatSockets::Creator if tries == 1 && nodes > 2 => 1 + seat,
            _ => 1,
        }
    }
}

/// A match created for the run: its index, id and the seats' tokens.
type Created = (usize, String, [String; 2]);

/// The timings of one decision of one match, keyed by its number in the match (the steps of all
/// its games before it).
#[derive(Default, Clone, Copy)]
struct Decision {
    sent: [Option<Instant>; 2],
    received: [Option<Instant>; 2],
}

#[derive(Default)]
struct Shared {
    decisions: HashMap<u64, Decision>,
}

impl Shared {
    /// A seat's move for `decision` was sent. The first sending's time stays: a move sent again
    /// (after a reconnection) keeps its decision's latency.
    fn mark_sent(&mut self, decision: u64, seat: usize) {
        self.decisions.entry(decision).or_default().sent[seat].get_or_insert(Instant::now());
    }
}

/// What the clients of this process measure (then [`report::Raw`]).
struct Totals {
    /// Every decision's last submission and reveal.
    spans: Mutex<Vec<(Instant, Instant)>>,
    /// When each dropped client was served again.
    served_again: Mutex<Vec<Instant>>,
    /// Every match's time live: its later seat's first state to its later seat's last.
    live: Mutex<Vec<(Instant, Instant)>>,
    reconnects: std::sync::atomic::AtomicUsize,
    resubmitted: std::sync::atomic::AtomicUsize,
    /// Per match: its id and each seat's acknowledged submissions (decision, move).
    acknowledged: Mutex<Vec<nodes::Acknowledged>>,
    errors: Mutex<report::Raw>,
    finished: std::sync::atomic::AtomicUsize,
}

impl Totals {
    fn new() -> Totals {
        Totals {
            spans: Mutex::new(Vec::new()),
            served_again: Mutex::new(Vec::new()),
            live: Mutex::new(Vec::new()),
            reconnects: 0.into(),
            resubmitted: 0.into(),
            acknowledged: Mutex::new(Vec::new()),
            errors: Mutex::new(report::Raw::default()),
            finished: 0.into(),
        }
    }

    /// What was measured, its times in µs since the Unix epoch.
    fn into_raw(self) -> report::Raw {
        let us = |(a, b): (Instant, Instant)| (report::unix_us(a), report::unix_us(b));
        let errors = self.errors.into_inner().unwrap();
        report::Raw {
            spans: self
                .spans
                .into_inner()
                .unwrap()
                .into_iter()
                .map(us)
                .collect(),
            served_again: self
                .served_again
                .into_inner()
                .unwrap()
                .into_iter()
                .map(report::unix_us)
                .collect(),
            live: self
                .live
                .into_inner()
                .unwrap()
                .into_iter()
                .map(us)
                .collect(),
            errors: errors.errors,
            error_count: errors.error_count,
            finished: self.finished.into_inner(),
            reconnects: self.reconnects.into_inner(),
            resubmitted: self.resubmitted.into_inner(),
            acknowledged: self.acknowledged.into_inner().unwrap(),
            client_cpu_seconds: cpu_seconds(std::process::id()).unwrap_or(0.0),
        }
    }
}

/// What the run gives back to `main`: the clients' parts merged, and what happened here.
struct Outcome {
    raw: report::Raw,
    /// When the node was killed (µs since the Unix epoch) and its CPU seconds just before.
    killed_at: Option<u64>,
    killed_cpu: f64,
    /// The servers' CPU seconds when every match had been created.
    cpu_at_created: Option<f64>,
    /// The servers' CPU seconds when the last match had finished, before the read-back (`None`
    /// with a node killed).
    cpu_at_played: Option<f64>,
    check: nodes::Check,
}

/// Where one seat's client plays: its match, its token, the nodes it may use, and the first one
/// it tries (the next one after each drop).
struct Seat {
    id: String,
    token: String,
    seat: usize,
    bases: Arc<Vec<String>>,
    first: usize,
    sockets: SeatSockets,
    /// Open the WebSocket with `?delta=1`.
    deltas: bool,
}

/// The first game of the registry: the default `--game`.
fn first_game() -> String {
    colosseum_games::registry()[0].id.to_string()
}

fn main() -> Result<()> {
    let args = Args::parse();
    let options: Value =
        serde_json::from_str(&args.options).context("--options is a JSON object")?;
    if let Some(file) = &args.worker {
        return worker(&args, file);
    }
    if args.nodes == 0 {
        bail!("--nodes is at least 1");
    }
    if args.nodes > 1 && args.postgres.is_none() {
        bail!(
            "--nodes {} needs --postgres CONN: several nodes share one PostgreSQL",
            args.nodes
        );
    }
    if args.kill_node_after.is_some() && (args.nodes < 2 || !args.url.is_empty()) {
        bail!("--kill-node-after kills one of the nodes this program starts: give --nodes 2 or more (and no --url)");
    }
    if args.processes == 0 || args.processes > args.matches.max(1) {
        bail!(
            "--processes {} is not allowed: from 1 to --matches ({})",
            args.processes,
            args.matches
        );
    }
    if !(args.start_over.is_finite() && args.start_over >= 0.0) {
        bail!(
            "--start-over {} is not allowed: seconds, 0 or more",
            args.start_over
        );
    }
    let mut children = Vec::new();
    let mut db = None;
    let bases: Vec<String> = if args.url.is_empty() {
        let mut bases = Vec::new();
        for _ in 0..args.nodes {
            let store = match &args.postgres {
                Some(conn) => Store::Postgres(conn.clone()),
                None => {
                    let path = std::env::temp_dir()
                        .join(format!("colosseum-load-{}.db", std::process::id()));
                    db = Some(path.clone());
                    Store::Sqlite(path)
                }
            };
            let (c, base) = start_server(args.server_bin.clone(), &store, args.nodes > 1)?;
            children.push(c);
            bases.push(base);
        }
        bases
    } else {
        args.url
            .iter()
            .map(|u| u.trim_end_matches('/').to_string())
            .collect()
    };
    let runtime = tokio::runtime::Runtime::new()?;
    let pids: Vec<u32> = children.iter().map(Child::id).collect();
    // The server's figures: its CPU and memory (every node's, the killed one's up to its kill).
    let cpu_before = all_cpu_seconds(&pids);
    let started = Instant::now();
    let victim = args
        .kill_node_after
        .map(|secs| (pids[pids.len() - 1], Duration::from_secs_f64(secs.max(0.0))));
    let outcome = runtime.block_on(run(&args, &bases, &options, &pids, victim));
    let elapsed = started.elapsed();
    let killed_cpu = outcome.as_ref().ok().map_or(0.0, |o| o.killed_cpu);
    // The killed node counts with its CPU just before the kill.
    let survivors: Vec<u32> = pids
        .iter()
        .copied()
        .filter(|&p| victim.is_none_or(|v| v.0 != p))
        .collect();
    let server = (!pids.is_empty()).then(|| {
        (
            all_cpu_seconds(&survivors)
                .zip(cpu_before)
                .map(|(a, b)| a + killed_cpu - b),
            pids.iter().filter_map(|&p| peak_rss_kib(p)).max(),
        )
    });
    // The server's CPU from the moment every match was created: the WebSockets' handshakes,
    // the joins and the play, without the HTTP requests that created the matches.
    let play_cpu = |from: Option<f64>| {
        server
            .and_then(|s| s.0)
            .zip(cpu_before)
            .zip(from)
            .map(|((total, before), at)| total + before - at)
    };
    for c in &mut children {
        let _ = c.kill();
        let _ = c.wait();
    }
    // The temporary database and its WAL files (a few MiB a run) go with the server.
    if let Some(db) = db {
        for suffix in ["", "-wal", "-shm"] {
            let mut path = db.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(path);
        }
    }
    let outcome = outcome?;
    let connected_cpu = play_cpu(outcome.cpu_at_created);
    // From every match created to the last one finished: the play alone, without the creations
    // and without reading every match back afterwards.
    let played_cpu = outcome
        .cpu_at_played
        .zip(outcome.cpu_at_created)
        .map(|(played, created)| played - created);
    let summary = report::summarize(&outcome.raw, outcome.killed_at);
    let (lat, window) = (&summary.outside, &summary.inside);
    let pct = |lat: &[u64], p: f64| -> f64 {
        if lat.is_empty() {
            return f64::NAN;
        }
        let i = ((p / 100.0) * (lat.len() - 1) as f64).round() as usize;
        lat[i] as f64 / 1000.0
    };
    let raw = &outcome.raw;
    let errors = &raw.errors;
    let finished = raw.finished;
    // This process's CPU and the workers' (in `raw` when they ran, else this one's).
    let own_cpu = if args.processes > 1 {
        raw.client_cpu_seconds + cpu_seconds(std::process::id()).unwrap_or(0.0)
    } else {
        raw.client_cpu_seconds
    };
    let decisions = lat.len() + window.len();
    let check = &outcome.check;
    let killed = outcome.killed_at.is_some();
    let report = json!({
        "matches": args.matches,
        "finished": finished,
        "game": args.game,
        "think_ms": args.think_ms,
        "nodes": bases.len(),
        "processes": args.processes,
        "start_over_s": args.start_over,
        "peak_live_matches": summary.peak_live,
        "decisions": decisions,
        "latency_ms": {"p50": pct(lat, 50.0), "p90": pct(lat, 90.0), "p99": pct(lat, 99.0), "max": pct(lat, 100.0)},
        "errors": raw.error_count,
        "first_errors": errors.iter().take(5).collect::<Vec<_>>(),
        "seconds": elapsed.as_secs_f64(),
        "server_cpu_seconds": server.and_then(|s| s.0),
        "server_cpu_ms_per_decision": server.and_then(|s| s.0).map(|c| per_decision(c, decisions)),
        "server_cpu_after_create_ms_per_decision": connected_cpu.map(|c| per_decision(c, decisions)),
        "server_cpu_play_ms_per_decision": played_cpu.map(|c| per_decision(c, decisions)),
        "server_peak_rss_mib": server.and_then(|s| s.1).map(|k| k as f64 / 1024.0),
        "client_cpu_seconds": own_cpu,
        "kill": killed.then(|| json!({
            "after_s": args.kill_node_after,
            "takeover_ms": summary.takeover_ms,
            "window_decisions": window.len(),
            "window_latency_ms": {"p50": pct(window, 50.0), "p99": pct(window, 99.0), "max": pct(window, 100.0)},
            // Second by second around the kill: where the slow decisions and the late
            // clients fall.
            "timeline": outcome.killed_at.map(|at| report::timeline(&outcome.raw, at, 5, 10)),
            "served_again_ms": {
                "clients": summary.served_again.len(),
                "p50": pct(&summary.served_again, 50.0),
                "p90": pct(&summary.served_again, 90.0),
                "p99": pct(&summary.served_again, 99.0),
                "max": pct(&summary.served_again, 100.0),
            },
        })),
        "reconnects": raw.reconnects,
        "resubmitted": raw.resubmitted,
        // The whole run second by second from the first decision (`from_kill_s` counts from
        // there): decisions revealed, their p50/p99/max.
        "timeline": report::run_timeline(&outcome.raw),
        "check": check,
    });
    if args.json {
        println!("{report}");
    } else {
        println!(
            "{} matches of {} on {} node(s) ({} finished), {} decisions in {:.1} s\n\
             clients in {} process(es), starts spread over {} s: {} matches live at once at the peak\n\
             reveal latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms\n\
             errors: {}\nserver: {} CPU s, peak RSS {} MiB; clients: {} CPU s\n\
             server CPU per decision: {} ms in all, {} ms after the matches were created, {} ms \
             in play (created to finished, before the read-back)",
            args.matches,
            args.game,
            bases.len(),
            finished,
            decisions,
            elapsed.as_secs_f64(),
            args.processes,
            args.start_over,
            summary.peak_live,
            pct(lat, 50.0),
            pct(lat, 90.0),
            pct(lat, 99.0),
            pct(lat, 100.0),
            raw.error_count,
            report["server_cpu_seconds"],
            report["server_peak_rss_mib"],
            report["client_cpu_seconds"],
            report["server_cpu_ms_per_decision"],
            report["server_cpu_after_create_ms_per_decision"],
            report["server_cpu_play_ms_per_decision"],
        );
        if killed {
            println!(
                "a node killed after {} s: served again within {} ms; {} decisions overlapping \
                 that window: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (the latencies above are \
                 the others')",
                report["kill"]["after_s"],
                report["kill"]["takeover_ms"],
                window.len(),
                pct(window, 50.0),
                pct(window, 99.0),
                pct(window, 100.0),
            );
            let again = &summary.served_again;
            println!(
                "{} dropped clients served again after the kill: p50 {:.0} ms, p90 {:.0} ms, \
                 max {:.0} ms",
                again.len(),
                pct(again, 50.0),
                pct(again, 90.0),
                pct(again, 100.0),
            );
        }
        println!(
            "reconnections: {}, submissions sent again: {}\nread back: {} matches finished of {}, \
             {} acknowledged submissions, {} missing from the records, {} results not the ones \
             the moves give",
            report["reconnects"],
            report["resubmitted"],
            check.finished,
            check.matches,
            check.acknowledged,
            check.lost,
            check.wrong_results,
        );
        for e in errors.iter().take(5) {
            println!("  {e}");
        }
        for p in check.problems.iter().take(5) {
            println!("  {p}");
        }
    }
    if raw.error_count != 0
        || finished != args.matches
        || check.lost != 0
        || check.wrong_results != 0
        || check.finished != args.matches
    {
        std::process::exit(1);
    }
    Ok(())
}

/// One of `--processes`' workers: plays the matches listed in `file` against `--url`, from the
/// moment `--play-at-unix-ms`, and prints what it measured ([`report::Raw`]) as one JSON line.
fn worker(args: &Args, file: &std::path::Path) -> Result<()> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("reading the worker's matches from {}", file.display()))?;
    let created: Vec<Created> = serde_json::from_str(&text).context("the worker's matches")?;
    let play_at = args
        .play_at_unix_ms
        .context("a worker needs --play-at-unix-ms")?;
    if args.url.is_empty() {
        bail!("a worker needs the nodes' --url");
    }
    let bases: Vec<String> = args
        .url
        .iter()
        .map(|u| u.trim_end_matches('/').to_string())
        .collect();
    let runtime = tokio::runtime::Runtime::new()?;
    let raw = runtime.block_on(play(args, &bases, created, play_at * 1000))?;
    println!("{}", serde_json::to_string(&raw)?);
    Ok(())
}

/// Where a started server keeps its matches.
enum Store {
    Sqlite(PathBuf),
    Postgres(String),
}

/// Starts `colosseum serve` on a free loopback port: its process and base URL. `quiet`: errors
/// only in its log (with several nodes every takeover is a warning).
fn start_server(bin: Option<PathBuf>, store: &Store, quiet: bool) -> Result<(Child, String)> {
    let bin = match bin {
        Some(b) => b,
        None => std::env::current_exe()?.with_file_name("colosseum"),
    };
    let mut command = Command::new(&bin);
    command.args([
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--http-rate",
        "1000000",
        // Every client comes from this one address.
        "--max-connections-per-ip",
        "1000000",
        "--create-rate",
        "1000000",
    ]);
    match store {
        Store::Sqlite(db) => command.arg("--db").arg(db),
        Store::Postgres(conn) => command.arg("--postgres").arg(conn),
    };
    let mut child = command
        // A line per match created, started and finished would be load of its own.
        .env(
            "RUST_LOG",
            std::env::var("RUST_LOG")
                .unwrap_or_else(|_| if quiet { "error" } else { "warn" }.into()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting {}", bin.display()))?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().context("server stdout")?).read_line(&mut line)?;
    let Some(addr) = line
        .strip_prefix("listening on http://")
        .and_then(|r| r.split_whitespace().next())
    else {
        // Its stdout ended (it exited: its own error is above, stderr is inherited) or it
        // said something else first (stopped here).
        let status = if line.is_empty() {
            format!("{}; its error is above", child.wait()?)
        } else {
            let _ = child.kill();
            let _ = child.wait();
            format!("stopped: it said `{}`", line.trim_end())
        };
        let hint = match store {
            Store::Postgres(_) => {
                ": --postgres needs a `colosseum` built with the `postgres` feature (`cargo build \
                 --release -p colosseum-cli --features postgres`, or --server-bin PATH)"
            }
            Store::Sqlite(_) => "",
        };
        bail!("{} serve did not serve ({status}){hint}", bin.display());
    };
    Ok((child, format!("http://{addr}")))
}

/// The CPU seconds of every process of `pids` that still runs, summed.
fn all_cpu_seconds(pids: &[u32]) -> Option<f64> {
    if pids.is_empty() {
        return None;
    }
    Some(pids.iter().filter_map(|&p| cpu_seconds(p)).sum())
}

/// CPU seconds over decisions, in ms a decision (`NaN` with no decisions).
fn per_decision(cpu_seconds: f64, decisions: usize) -> f64 {
    if decisions == 0 {
        return f64::NAN;
    }
    cpu_seconds * 1000.0 / decisions as f64
}

/// User plus system CPU seconds of a process, from `/proc/PID/stat`.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields after the command: state is index 0; utime and stime are 11 and 12.
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Peak resident memory of a process in KiB (`VmHWM`).
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// Creates the matches, plays them (here, or in `--processes` workers), kills the node when
/// asked, and reads every match back.
async fn run(
    args: &Args,
    bases: &[String],
    options: &Value,
    server_pids: &[u32],
    victim: Option<(u32, Duration)>,
) -> Result<Outcome> {
    // Create the matches first (HTTP, blocking client on the blocking pool), round robin over
    // the nodes. One agent keeps its connections: a connection per creation would leave one
    // socket in TIME_WAIT per match, which with 10,000 matches and their 20,000 WebSockets runs
    // out of loopback ports.
    let agent = ureq::Agent::new_with_defaults();
    let mut created: Vec<Created> = Vec::new();
    for i in 0..args.matches {
        // A normal (provably fair) match: the server commits to its seed, the clients add theirs.
        let body = json!({"game": args.game, "options": options, "time": {"kind": "untimed"}, "sealed": args.sealed});
        let url = format!("{}/api/matches", bases[i % bases.len()]);
        let agent = agent.clone();
        let v: Value = tokio::task::spawn_blocking(move || -> Result<Value> {
            let mut res = agent.post(&url).send_json(&body)?;
            Ok(res.body_mut().read_json()?)
        })
        .await??;
        let id = v["id"].as_str().context("created match id")?.to_string();
        let tokens = [0, 1].map(|s| v["tokens"][s].as_str().unwrap_or_default().to_string());
        created.push((i, id, tokens));
    }
    let cpu_at_created = all_cpu_seconds(server_pids);
    // Workers need a moment to start and read their matches: play begins for all at once.
    let play_at = if args.processes > 1 {
        report::unix_now_us() + 1_000_000 + 100_000 * args.processes as u64
    } else {
        report::unix_now_us()
    };
    // The kill, that long after play began.
    let kill = Arc::new(Mutex::new((None, 0.0)));
    let killer = victim.map(|(pid, after)| {
        let kill = kill.clone();
        tokio::spawn(async move {
            tokio::time::sleep_until((report::instant_at(play_at) + after).into()).await;
            let cpu = cpu_seconds(pid).unwrap_or(0.0);
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            *kill.lock().unwrap() = (Some(report::unix_now_us()), cpu);
        })
    });
    let raw = if args.processes > 1 {
        workers(args, bases, created, play_at).await?
    } else {
        play(args, bases, created, play_at).await?
    };
    if let Some(k) = killer {
        k.abort();
    }
    let (killed_at, killed_cpu) = *kill.lock().unwrap();
    let cpu_at_played = if victim.is_none() {
        all_cpu_seconds(server_pids)
    } else {
        None
    };
    // Every match read back through the API: finished, every acknowledged submission in its
    // record, the result its moves give.
    let live: Vec<String> = bases
        .iter()
        .filter(|b| victim.is_none() || **b != bases[bases.len() - 1])
        .cloned()
        .collect();
    let acknowledged = raw.acknowledged.clone();
    let check = tokio::task::spawn_blocking(move || nodes::check(&live, &acknowledged)).await?;
    Ok(Outcome {
        raw,
        killed_at,
        killed_cpu,
        cpu_at_created,
        cpu_at_played,
        check,
    })
}

/// Runs `--processes` workers, each this program again with every K-th match of `created`
/// (written to a file of its own) and the same settings, and merges what they measured.
async fn workers(
    args: &Args,
    bases: &[String],
    created: Vec<Created>,
    play_at_us: u64,
) -> Result<report::Raw> {
    let exe = std::env::current_exe()?;
    let mut started = Vec::new();
    for k in 0..args.processes {
        let mine: Vec<&Created> = report::share(k, args.processes, created.len())
            .into_iter()
            .map(|i| &created[i])
            .collect();
        let file = std::env::temp_dir().join(format!(
            "colosseum-load-{}-worker-{k}.json",
            std::process::id()
        ));
        std::fs::write(&file, serde_json::to_string(&mine)?)?;
        let mut command = Command::new(&exe);
        command
            .arg("--worker")
            .arg(&file)
            .args(["--play-at-unix-ms", &(play_at_us / 1000).to_string()])
            .args(["--matches", &args.matches.to_string()])
            .args(["--game", &args.game, "--options", &args.options])
            .args(["--think-ms", &args.think_ms.to_string()])
            // The handshakes at once, over all the processes.
            .args(["--ramp", &args.ramp.div_ceil(args.processes).to_string()])
            .args(["--seed", &args.seed.to_string()])
            .args(["--start-over", &args.start_over.to_string()])
            .args([
                "--seat-sockets",
                match args.seat_sockets {
                    SeatSockets::Turn => "turn",
                    SeatSockets::Creator => "creator",
                },
            ]);
        if args.sealed {
            command.arg("--sealed");
        }
        if args.deltas {
            command.arg("--deltas");
        }
        for b in bases {
            command.args(["--url", b]);
        }
        let child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("starting worker {k} ({})", exe.display()))?;
        started.push((k, file, child));
    }
    let mut parts = Vec::new();
    for (k, file, child) in started {
        let out = tokio::task::spawn_blocking(move || child.wait_with_output()).await??;
        let _ = std::fs::remove_file(&file);
        if !out.status.success() {
            bail!("worker {k} ended with {}", out.status);
        }
        let part: report::Raw =
            serde_json::from_slice(&out.stdout).with_context(|| format!("worker {k}'s report"))?;
        parts.push(part);
    }
    Ok(report::Raw::merge(parts))
}

/// Plays `created` in this process: each match's two clients start at its place in the start
/// window after `play_at_us` (µs since the Unix epoch).
async fn play(
    args: &Args,
    bases: &[String],
    created: Vec<Created>,
    play_at_us: u64,
) -> Result<report::Raw> {
    let totals = Arc::new(Totals::new());
    let bases = Arc::new(bases.to_vec());
    let play_at = report::instant_at(play_at_us);
    let window = Duration::from_secs_f64(args.start_over);
    let ramp = Arc::new(Semaphore::new(args.ramp.max(1)));
    let mut tasks = Vec::new();
    for (i, id, tokens) in created {
        let starts = play_at + report::start_offset(i, args.matches, window);
        let shared = Arc::new(Mutex::new(Shared::default()));
        let mut seats = Vec::new();
        for (seat, token) in tokens.iter().enumerate() {
            let seat_client = Seat {
                id: id.clone(),
                token: token.clone(),
                seat,
                bases: bases.clone(),
                first: args.seat_sockets.first(i, seat),
                sockets: args.seat_sockets,
                deltas: args.deltas,
            };
            let shared = shared.clone();
            let totals = totals.clone();
            let ramp = ramp.clone();
            let think = args.think_ms;
            let seed = args.seed ^ ((i as u64) << 1) ^ seat as u64;
            seats.push(tokio::spawn(async move {
                tokio::time::sleep_until(starts.into()).await;
                let mut acks = Vec::new();
                let mut span = (None, None);
                let played = client(
                    &seat_client,
                    think,
                    seed,
                    &shared,
                    &ramp,
                    &totals,
                    &mut acks,
                    &mut span,
                )
                .await;
                if let Err(e) = played {
                    totals
                        .errors
                        .lock()
                        .unwrap()
                        .error(format!("match {i} seat {}: {e:#}", seat + 1));
                    return (false, acks, span);
                }
                (true, acks, span)
            }));
        }
        let totals = totals.clone();
        tasks.push(tokio::spawn(async move {
            let mut ok = true;
            let mut acks: [Vec<(u64, String)>; 2] = Default::default();
            let mut began = Vec::new();
            let mut ended = Vec::new();
            for (s, task) in seats.into_iter().enumerate() {
                let (fine, a, (b, e)) = task.await.unwrap_or((false, Vec::new(), (None, None)));
                ok &= fine;
                acks[s] = a;
                began.push(b);
                ended.push(e);
            }
            if ok {
                totals
                    .finished
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            // Live from the later seat's first state to the later seat's end.
            if let (Some(Some(b)), Some(Some(e))) = (began.iter().max(), ended.iter().max()) {
                if began.iter().all(Option::is_some) && ended.iter().all(Option::is_some) {
                    totals.live.lock().unwrap().push((*b, *e));
                }
            }
            totals.acknowledged.lock().unwrap().push((id, acks));
            let shared = shared.lock().unwrap();
            let mut spans = totals.spans.lock().unwrap();
            for d in shared.decisions.values() {
                if let ([Some(a), Some(b)], [Some(x), Some(y)]) = (d.sent, d.received) {
                    spans.push((a.max(b), x.max(y)));
                }
            }
        }));
    }
    for t in tasks {
        t.await?;
    }
    let totals = Arc::into_inner(totals).context("a client still runs")?;
    Ok(totals.into_raw())
}

/// Small buffers, as the server uses: tungstenite zeroes its whole read buffer.
fn ws_config() -> tokio_tungstenite::tungstenite::protocol::WebSocketConfig {
    tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
}

/// A request sent and not yet answered, in the order sent (the server answers each in turn).
enum Asked {
    Join,
    /// The seat's client seed, revealed once both seats committed to theirs.
    Reveal,
    /// A move for the decision at this step count.
    Submit(u64, Value),
    /// A sealed commitment or opening (its move counts once opened).
    Commit,
    Open(u64, Value),
}

/// How a connection of a seat's client ended.
enum Ended {
    /// The match is over.
    Finished,
    /// Closed or dropped before the end: connect again (to the next node).
    Dropped(String),
}

/// One seat: joins and plays random legal moves until the match is over, connecting again
/// (to the next node, with its seat token) whenever its connection closes or drops before the
/// end. `acks` receives every submission the server acknowledged, as (decision, move).
#[allow(clippy::too_many_arguments)] // one seat's parts
async fn client(
    seat: &Seat,
    think_ms: u64,
    seed: u64,
    shared: &Mutex<Shared>,
    ramp: &Semaphore,
    totals: &Totals,
    acks: &mut Vec<(u64, String)>,
    span: &mut (Option<Instant>, Option<Instant>),
) -> Result<()> {
    let mut play = Play {
        began: None,
        rng: ChaCha8Rng::seed_from_u64(seed),
        joined: false,
        // 128 random bits from the operating system: the seat commits to their hash at the
        // join and reveals them once both seats are in (provably fair chance).
        client_seed: format!("{:032x}", rand::random::<u128>()),
        submitted_at: None,
        sealed: None,
        unanswered: None,
    };
    let mut node = seat.first;
    let mut dropped: Option<Instant> = None;
    let mut tries = 0u32;
    loop {
        let base = &seat.bases[node % seat.bases.len()];
        let url = format!(
            "{}/api/matches/{}/ws{}",
            base.replacen("http", "ws", 1),
            seat.id,
            if seat.deltas { "?delta=1" } else { "" }
        );
        let ended = match connect(&url, &seat.token, ramp).await {
            Ok(ws) => {
                let served = dropped.is_some().then_some(totals);
                play_on(
                    ws, seat.seat, think_ms, shared, &mut play, acks, served, totals,
                )
                .await?
            }
            Err(e) => Ended::Dropped(format!("{e:#}")),
        };
        match ended {
            Ended::Finished => {
                *span = (play.began, Some(Instant::now()));
                return Ok(());
            }
            Ended::Dropped(why) => {
                let since = *dropped.get_or_insert_with(Instant::now);
                if since.elapsed() > Duration::from_secs(60) {
                    bail!("no node has served the match for 60 s: {why}");
                }
                tries += 1;
                totals
                    .reconnects
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                node += seat.sockets.after_drop(seat.seat, tries, seat.bases.len());
                // Every node tried once: wait a little before the next round.
                if tries.is_multiple_of(seat.bases.len() as u32) {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }
}

/// What a seat's client keeps across its connections.
struct Play {
    rng: ChaCha8Rng,
    /// When the first state arrived.
    began: Option<Instant>,
    /// Whether the server acknowledged the join.
    joined: bool,
    /// The seat's client seed: its SHA-256 is sent at the join, the seed when the state says
    /// the reveals are due.
    client_seed: String,
    /// The step count of the decision submitted for and not yet revealed.
    submitted_at: Option<u64>,
    /// Sealed matches: the step count of the decision committed to, the move and the nonce.
    sealed: Option<(u64, Value, String)>,
    /// A move sent whose answer did not come (the connection dropped): sent again, the same,
    /// if the server's state says it does not hold it.
    unanswered: Option<(u64, Value)>,
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A seat's WebSocket: the token in a subprotocol, never in the URL (which proxies log).
async fn connect(url: &str, token: &str, ramp: &Semaphore) -> Result<Ws> {
    let _permit = ramp.acquire().await?;
    let mut request = url.into_client_request()?;
    request.headers_mut().insert(
        "sec-websocket-protocol",
        format!("colosseum, colosseum.token.{token}").parse()?,
    );
    let (ws, _) = tokio::time::timeout(
        Duration::from_secs(30),
        tokio_tungstenite::connect_async_with_config(request, Some(ws_config()), true),
    )
    .await
    .context("connect timed out")??;
    Ok(ws)
}

/// What a message from the server is, to a client.
enum Kind {
    State,
    Delta,
    Ok,
}

/// Applies a `delta` message to the state it follows (`docs/server-api.md`, "Delta states"):
/// `server_now`, the top-level members in `state`, the match's in `match`, and the move log
/// cut to `moves.from` lines and `moves.lines` appended.
fn apply_delta(state: &mut Value, delta: &Value) -> Result<()> {
    let Some(top) = state.as_object_mut() else {
        bail!("a delta applies to a state object");
    };
    top.insert("server_now".into(), delta["server_now"].clone());
    if let Some(members) = delta["state"].as_object() {
        for (k, v) in members {
            top.insert(k.clone(), v.clone());
        }
    }
    let Some(m) = top.get_mut("match").and_then(Value::as_object_mut) else {
        bail!("a state without `match`");
    };
    if let Some(members) = delta["match"].as_object() {
        for (k, v) in members {
            m.insert(k.clone(), v.clone());
        }
    }
    if let Some(moves) = delta.get("moves") {
        let from = moves["from"]
            .as_u64()
            .context("a delta's `moves.from` is a number")?;
        let lines = moves["lines"]
            .as_array()
            .context("a delta's `moves.lines` is an array")?;
        let Some(log) = m.get_mut("moves").and_then(Value::as_array_mut) else {
            bail!("a state without `match.moves`");
        };
        if from as usize > log.len() {
            bail!("a delta's moves start at line {from} of {}", log.len());
        }
        log.truncate(from as usize);
        log.extend(lines.iter().cloned());
    }
    Ok(())
}

/// Plays on one connection until the match is over or the connection ends. `served`: this is
/// a connection again after a drop; the moment its first state arrives is recorded there.
#[allow(clippy::too_many_arguments)] // one seat's parts
async fn play_on(
    ws: Ws,
    seat: usize,
    think_ms: u64,
    shared: &Mutex<Shared>,
    play: &mut Play,
    acks: &mut Vec<(u64, String)>,
    mut served: Option<&Totals>,
    totals: &Totals,
) -> Result<Ended> {
    let (mut tx, mut rx) = ws.split();
    let mut asked: VecDeque<Asked> = VecDeque::new();
    // Whether this connection sent the seat's reveal.
    let mut revealed = false;
    // A fresh connection: what the last one left unanswered is read from the state.
    play.submitted_at = None;
    let me = if seat == 0 { "p1" } else { "p2" };
    // Messages that arrived while the client thought, read in order after.
    let mut held: VecDeque<Message> = VecDeque::new();
    // The state as last sent in full or patched by a delta.
    let mut current = Value::Null;
    loop {
        let next = match held.pop_front() {
            Some(m) => Ok(Some(Ok(m))),
            None => tokio::time::timeout(Duration::from_secs(120), rx.next()).await,
        };
        let msg = match next {
            Err(_) => bail!("no message for 120 s"),
            Ok(None) => return Ok(Ended::Dropped("the connection ended".into())),
            Ok(Some(Err(e))) => return Ok(Ended::Dropped(e.to_string())),
            Ok(Some(Ok(Message::Close(frame)))) => {
                return Ok(Ended::Dropped(format!("closed: {frame:?}")))
            }
            Ok(Some(Ok(m))) => m,
        };
        let Message::Text(text) = msg else { continue };
        let message: Value = serde_json::from_str(&text)?;
        let kind = match message["type"].as_str() {
            Some("state") => Kind::State,
            Some("delta") => Kind::Delta,
            Some("error") => bail!("server error: {}", message["error"]),
            Some("ok") => Kind::Ok,
            _ => continue,
        };
        match kind {
            Kind::Ok => {
                match asked.pop_front() {
                    Some(Asked::Join) => play.joined = true,
                    Some(Asked::Submit(at, mv) | Asked::Open(at, mv)) => {
                        play.unanswered = None;
                        acks.push((at, mv.as_str().unwrap_or_default().to_string()));
                    }
                    Some(Asked::Commit | Asked::Reveal) | None => {}
                }
                continue;
            }
            Kind::State => current = message,
            Kind::Delta => {
                if current.is_null() {
                    bail!("a delta before any state: {text}");
                }
                apply_delta(&mut current, &message)?;
            }
        }
        let v = &current;
        if let Some(t) = served.take() {
            t.served_again.lock().unwrap().push(Instant::now());
        }
        play.began.get_or_insert_with(Instant::now);
        let steps = v["steps"].as_u64().unwrap_or(0);
        let decision = v["decision"].as_u64().unwrap_or(steps);
        if let Some(at) = play.submitted_at {
            if decision > at {
                let now = Instant::now();
                let mut sh = shared.lock().unwrap();
                let d = sh.decisions.entry(at).or_default();
                d.received[seat].get_or_insert(now);
                play.submitted_at = None;
            }
        }
        if v["status"] == "finished" {
            return Ok(Ended::Finished);
        }
        let mine = &v["match"]["seats"][me];
        // Joined on an earlier connection whose answer was lost: the state says so. Otherwise
        // join, once per connection (the server sends a state first).
        if v["joined"][me] == true {
            play.joined = true;
        }
        if !play.joined && !asked.iter().any(|a| matches!(a, Asked::Join)) {
            asked.push_back(Asked::Join);
            let hash = colosseum_engine::fair::client_seed_hash(&play.client_seed);
            let join = json!({"type": "join", "client_seed_hash": hash});
            if let Err(e) = tx.send(Message::Text(join.to_string().into())).await {
                return Ok(Ended::Dropped(e.to_string()));
            }
        }
        // Both seats committed: reveal the seed, once per connection (again after a drop: a
        // second reveal of the same seed is answered ok).
        if v["fairness"]["reveal_due"] == true
            && v["fairness"]["client_seeds"][me].is_null()
            && !asked.iter().any(|a| matches!(a, Asked::Reveal))
            && !revealed
        {
            revealed = true;
            asked.push_back(Asked::Reveal);
            let reveal = json!({"type": "reveal", "client_seed": play.client_seed});
            if let Err(e) = tx.send(Message::Text(reveal.to_string().into())).await {
                return Ok(Ended::Dropped(e.to_string()));
            }
        }
        let phase = v["match"]["sealed"]["phase"].as_str();
        if v["status"] == "live" && phase == Some("open") && play.submitted_at.is_none() {
            // Both are in: open (the latency runs from here, as from a submission).
            if let Some((_, mv, nonce)) = play.sealed.take().filter(|s| s.0 == steps) {
                if mine["committed"] == true && mine["submitted"] != true {
                    shared.lock().unwrap().mark_sent(decision, seat);
                    play.submitted_at = Some(decision);
                    asked.push_back(Asked::Open(decision, mv.clone()));
                    let open =
                        json!({"type": "open", "move": mv, "nonce": nonce, "decision": decision});
                    if let Err(e) = tx.send(Message::Text(open.to_string().into())).await {
                        return Ok(Ended::Dropped(e.to_string()));
                    }
                }
            }
            continue;
        }
        if v["status"] != "live"
            || mine["committed"] == true
            || play.sealed.as_ref().is_some_and(|s| s.0 == steps)
            || mine["to_act"] != true
            || mine["submitted"] == true
            || play.submitted_at.is_some()
        {
            continue;
        }
        let Some(legal) = v["legal_moves"].as_array().filter(|l| !l.is_empty()) else {
            bail!(
                "no legal moves sent for a seat to act: {}",
                v["match"]["decision"]
            );
        };
        // The move sent before the drop, if the server does not hold it: the same again.
        let again = play
            .unanswered
            .take()
            .filter(|(at, _)| *at == decision)
            .map(|(_, mv)| mv);
        let mv = match &again {
            Some(mv) => {
                totals
                    .resubmitted
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                mv.clone()
            }
            None => {
                let mv = legal[play.rng.random_range(0..legal.len())].clone();
                if think_ms > 0 {
                    let think = play.rng.random_range(0..=2 * think_ms);
                    // The socket is read while thinking, as a browser does: a connection that
                    // ends is noticed at once (a client that only notices at its next send
                    // would make the takeover window at least a think long), not after.
                    let until = tokio::time::Instant::now() + Duration::from_millis(think);
                    loop {
                        tokio::select! {
                            () = tokio::time::sleep_until(until) => break,
                            m = rx.next() => match m {
                                None => {
                                    return Ok(Ended::Dropped("the connection ended".into()))
                                }
                                Some(Err(e)) => return Ok(Ended::Dropped(e.to_string())),
                                Some(Ok(Message::Close(frame))) => {
                                    return Ok(Ended::Dropped(format!("closed: {frame:?}")))
                                }
                                Some(Ok(m)) => held.push_back(m),
                            },
                        }
                    }
                }
                mv
            }
        };
        if phase == Some("commit") {
            let nonce: String = (0..16)
                .map(|_| format!("{:02x}", play.rng.random::<u8>()))
                .collect();
            let text = mv.as_str().unwrap_or_default();
            // Bound to the match, the decision and the seat (docs/server-api.md, "Sealed
            // submissions").
            let id = v["id"].as_str().unwrap_or_default();
            let hash: String = {
                use sha2::{Digest, Sha256};
                let preimage =
                    format!("colosseum-seal-v1\n{id}\n{decision}\n{me}\n{text}\n{nonce}");
                Sha256::digest(preimage.as_bytes())
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect()
            };
            play.sealed = Some((steps, mv, nonce));
            asked.push_back(Asked::Commit);
            let commit = json!({"type": "commit", "hash": hash, "decision": decision});
            if let Err(e) = tx.send(Message::Text(commit.to_string().into())).await {
                return Ok(Ended::Dropped(e.to_string()));
            }
            continue;
        }
        // The first sending's time stays: a move sent again keeps its decision's latency.
        shared.lock().unwrap().mark_sent(decision, seat);
        play.submitted_at = Some(decision);
        play.unanswered = Some((decision, mv.clone()));
        asked.push_back(Asked::Submit(decision, mv.clone()));
        let submit = json!({"type": "submit", "move": mv, "decision": decision});
        if let Err(e) = tx.send(Message::Text(submit.to_string().into())).await {
            return Ok(Ended::Dropped(e.to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SeatSockets;

    /// The nodes (of `nodes`) seat `seat` of match `i` tries: its first, then after each drop.
    fn tried(sockets: SeatSockets, i: usize, seat: usize, nodes: usize) -> Vec<usize> {
        let mut node = sockets.first(i, seat);
        let mut out = vec![node % nodes];
        for tries in 1..=4 {
            node += sockets.after_drop(seat, tries, nodes);
            out.push(node % nodes);
        }
        out
    }

    #[test]
    fn seats_open_on_their_turn_s_node_or_the_creator_s_and_spread_after_a_drop() {
        // Turn: seat by seat round the nodes, then the next after each drop.
        assert_eq!(tried(SeatSockets::Turn, 1, 0, 3), [2, 0, 1, 2, 0]);
        assert_eq!(tried(SeatSockets::Turn, 1, 1, 3), [0, 1, 2, 0, 1]);
        // Creator: match 2 was created on node 2; when node 2 dies its seats go to node 0 and
        // node 1, then on round every node.
        assert_eq!(tried(SeatSockets::Creator, 2, 0, 3), [2, 0, 1, 2, 0]);
        assert_eq!(tried(SeatSockets::Creator, 2, 1, 3), [2, 1, 2, 0, 1]);
        // Two nodes: the other one, for both seats.
        assert_eq!(tried(SeatSockets::Creator, 1, 1, 2), [1, 0, 1, 0, 1]);
        assert_eq!(tried(SeatSockets::Creator, 1, 0, 2), [1, 0, 1, 0, 1]);
    }
}

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
//! With `--sealed` the matches are sealed (`docs/server-api.md`, "Sealed submissions"): in a
//! simultaneous decision a client commits to the SHA-256 of its move and a nonce, and opens when
//! both have committed; the latency then runs from the later opening to the reveal.

mod nodes;

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
    /// The game.
    #[arg(long, default_value = "goofspiel")]
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
}

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

struct Totals {
    latencies_us: Mutex<Vec<u64>>,
    /// The decisions' latencies that overlap the takeover window, in µs (after the run).
    window_latencies_us: Mutex<Vec<u64>>,
    /// Every decision's last submission and reveal, for the takeover window's split.
    spans: Mutex<Vec<(Instant, Instant)>>,
    /// When the node was killed, and when each dropped client was served again.
    killed_at: Mutex<Option<Instant>>,
    served_again: Mutex<Vec<Instant>>,
    reconnects: std::sync::atomic::AtomicUsize,
    resubmitted: std::sync::atomic::AtomicUsize,
    /// Per match: its id and each seat's acknowledged submissions (decision, move).
    acknowledged: Mutex<Vec<nodes::Acknowledged>>,
    errors: Mutex<Vec<String>>,
    finished: std::sync::atomic::AtomicUsize,
    /// The server's CPU seconds when every match had been created (`None` without a server of
    /// our own).
    cpu_at_created: Mutex<Option<f64>>,
    /// The server's CPU seconds when the last match had finished, before the read-back (`None`
    /// without a server of our own, or with a node killed).
    cpu_at_played: Mutex<Option<f64>>,
    /// The killed node's CPU seconds just before its kill.
    killed_cpu: Mutex<f64>,
    /// What reading every match back found.
    check: Mutex<Option<nodes::Check>>,
}

impl Totals {
    /// From the kill until the last client whose connection dropped was served again, in ms.
    fn takeover_ms(&self) -> Option<f64> {
        let at = (*self.killed_at.lock().unwrap())?;
        let end = self
            .served_again
            .lock()
            .unwrap()
            .iter()
            .copied()
            .filter(|&t| t >= at)
            .max()
            .unwrap_or(at);
        Some(end.duration_since(at).as_secs_f64() * 1000.0)
    }
}

/// Where one seat's client plays: its match, its token, the nodes it may use, and the first one
/// it tries (the next one after each drop).
struct Seat {
    id: String,
    token: String,
    seat: usize,
    bases: Arc<Vec<String>>,
    first: usize,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let options: Value =
        serde_json::from_str(&args.options).context("--options is a JSON object")?;
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
    let killed_cpu = outcome
        .as_ref()
        .ok()
        .map_or(0.0, |t| *t.killed_cpu.lock().unwrap());
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
    let totals = outcome?;
    let connected_cpu = play_cpu(*totals.cpu_at_created.lock().unwrap());
    // From every match created to the last one finished: the play alone, without the creations
    // and without reading every match back afterwards.
    let played_cpu = totals
        .cpu_at_played
        .lock()
        .unwrap()
        .zip(*totals.cpu_at_created.lock().unwrap())
        .map(|(played, created)| played - created);
    let sorted = |v: &Mutex<Vec<u64>>| {
        let mut v = v.lock().unwrap().clone();
        v.sort_unstable();
        v
    };
    let lat = sorted(&totals.latencies_us);
    let window = sorted(&totals.window_latencies_us);
    let pct = |lat: &[u64], p: f64| -> f64 {
        if lat.is_empty() {
            return f64::NAN;
        }
        let i = ((p / 100.0) * (lat.len() - 1) as f64).round() as usize;
        lat[i] as f64 / 1000.0
    };
    let errors = totals.errors.lock().unwrap().clone();
    let finished = totals.finished.load(std::sync::atomic::Ordering::SeqCst);
    let own_cpu = cpu_seconds(std::process::id());
    let decisions = lat.len() + window.len();
    let check = totals.check.lock().unwrap().clone().unwrap_or_default();
    let killed = totals.killed_at.lock().unwrap().is_some();
    let report = json!({
        "matches": args.matches,
        "finished": finished,
        "game": args.game,
        "think_ms": args.think_ms,
        "nodes": bases.len(),
        "decisions": decisions,
        "latency_ms": {"p50": pct(&lat, 50.0), "p90": pct(&lat, 90.0), "p99": pct(&lat, 99.0), "max": pct(&lat, 100.0)},
        "errors": errors.len(),
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
            "takeover_ms": totals.takeover_ms(),
            "window_decisions": window.len(),
            "window_latency_ms": {"p50": pct(&window, 50.0), "p99": pct(&window, 99.0), "max": pct(&window, 100.0)},
        })),
        "reconnects": totals.reconnects.load(std::sync::atomic::Ordering::SeqCst),
        "resubmitted": totals.resubmitted.load(std::sync::atomic::Ordering::SeqCst),
        "check": check,
    });
    if args.json {
        println!("{report}");
    } else {
        println!(
            "{} matches of {} on {} node(s) ({} finished), {} decisions in {:.1} s\n\
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
            pct(&lat, 50.0),
            pct(&lat, 90.0),
            pct(&lat, 99.0),
            pct(&lat, 100.0),
            errors.len(),
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
                pct(&window, 50.0),
                pct(&window, 99.0),
                pct(&window, 100.0),
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
    if !errors.is_empty()
        || finished != args.matches
        || check.lost != 0
        || check.wrong_results != 0
        || check.finished != args.matches
    {
        std::process::exit(1);
    }
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
        bail!("the server said `{line}`");
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

async fn run(
    args: &Args,
    bases: &[String],
    options: &Value,
    server_pids: &[u32],
    victim: Option<(u32, Duration)>,
) -> Result<Arc<Totals>> {
    let totals = Arc::new(Totals {
        latencies_us: Mutex::new(Vec::new()),
        window_latencies_us: Mutex::new(Vec::new()),
        spans: Mutex::new(Vec::new()),
        killed_at: Mutex::new(None),
        killed_cpu: Mutex::new(0.0),
        served_again: Mutex::new(Vec::new()),
        reconnects: 0.into(),
        resubmitted: 0.into(),
        acknowledged: Mutex::new(Vec::new()),
        check: Mutex::new(None),
        errors: Mutex::new(Vec::new()),
        finished: 0.into(),
        cpu_at_created: Mutex::new(None),
        cpu_at_played: Mutex::new(None),
    });
    let bases = Arc::new(bases.to_vec());
    // Create the matches first (HTTP, blocking client on the blocking pool), round robin over
    // the nodes. One agent keeps its connections: a connection per creation would leave one
    // socket in TIME_WAIT per match, which with 10,000 matches and their 20,000 WebSockets runs
    // out of loopback ports.
    let agent = ureq::Agent::new_with_defaults();
    let mut created = Vec::new();
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
        created.push((id, tokens));
    }
    *totals.cpu_at_created.lock().unwrap() = all_cpu_seconds(server_pids);
    // The kill, that long after play began.
    let killer = victim.map(|(pid, after)| {
        let totals = totals.clone();
        tokio::spawn(async move {
            tokio::time::sleep(after).await;
            *totals.killed_cpu.lock().unwrap() = cpu_seconds(pid).unwrap_or(0.0);
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            *totals.killed_at.lock().unwrap() = Some(Instant::now());
        })
    });
    let ramp = Arc::new(Semaphore::new(args.ramp.max(1)));
    let mut tasks = Vec::new();
    for (i, (id, tokens)) in created.into_iter().enumerate() {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let mut seats = Vec::new();
        for (seat, token) in tokens.iter().enumerate() {
            let seat_client = Seat {
                id: id.clone(),
                token: token.clone(),
                seat,
                bases: bases.clone(),
                // Each seat's socket on a node of its own turn (forwarded to the owner).
                first: 2 * i + seat,
            };
            let shared = shared.clone();
            let totals = totals.clone();
            let ramp = ramp.clone();
            let think = args.think_ms;
            let seed = args.seed ^ ((i as u64) << 1) ^ seat as u64;
            seats.push(tokio::spawn(async move {
                let mut acks = Vec::new();
                let played = client(
                    &seat_client,
                    think,
                    seed,
                    &shared,
                    &ramp,
                    &totals,
                    &mut acks,
                )
                .await;
                if let Err(e) = played {
                    totals
                        .errors
                        .lock()
                        .unwrap()
                        .push(format!("match {i} seat {}: {e:#}", seat + 1));
                    return (false, acks);
                }
                (true, acks)
            }));
        }
        let totals = totals.clone();
        tasks.push(tokio::spawn(async move {
            let mut ok = true;
            let mut acks: [Vec<(u64, String)>; 2] = Default::default();
            for (s, task) in seats.into_iter().enumerate() {
                let (fine, a) = task.await.unwrap_or((false, Vec::new()));
                ok &= fine;
                acks[s] = a;
            }
            if ok {
                totals
                    .finished
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
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
    if let Some(k) = killer {
        k.abort();
    }
    // The takeover window: from the kill until the last dropped client was served again.
    let window = totals.killed_at.lock().unwrap().map(|at| {
        let end = totals
            .served_again
            .lock()
            .unwrap()
            .iter()
            .copied()
            .filter(|&t| t >= at)
            .max()
            .unwrap_or(at);
        (at, end)
    });
    {
        let spans = totals.spans.lock().unwrap();
        let mut outside = totals.latencies_us.lock().unwrap();
        let mut inside = totals.window_latencies_us.lock().unwrap();
        for &(last, reached) in spans.iter() {
            let us = reached.saturating_duration_since(last).as_micros() as u64;
            match window {
                Some((from, to)) if last <= to && reached >= from => inside.push(us),
                _ => outside.push(us),
            }
        }
    }
    // Every match read back through the API: finished, every acknowledged submission in its
    // record, the result its moves give.
    if victim.is_none() {
        *totals.cpu_at_played.lock().unwrap() = all_cpu_seconds(server_pids);
    }
    let acknowledged = std::mem::take(&mut *totals.acknowledged.lock().unwrap());
    let live: Vec<String> = bases
        .iter()
        .filter(|b| victim.is_none() || **b != bases[bases.len() - 1])
        .cloned()
        .collect();
    let check = tokio::task::spawn_blocking(move || nodes::check(&live, &acknowledged)).await?;
    *totals.check.lock().unwrap() = Some(check);
    Ok(totals)
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
async fn client(
    seat: &Seat,
    think_ms: u64,
    seed: u64,
    shared: &Mutex<Shared>,
    ramp: &Semaphore,
    totals: &Totals,
    acks: &mut Vec<(u64, String)>,
) -> Result<()> {
    let mut play = Play {
        rng: ChaCha8Rng::seed_from_u64(seed),
        joined: false,
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
            "{}/api/matches/{}/ws",
            base.replacen("http", "ws", 1),
            seat.id
        );
        let ended = match connect(&url, &seat.token, ramp).await {
            Ok(ws) => {
                let served = dropped.is_some().then_some(totals);
                play_on(
                    ws, seat.seat, think_ms, seed, shared, &mut play, acks, served, totals,
                )
                .await?
            }
            Err(e) => Ended::Dropped(format!("{e:#}")),
        };
        match ended {
            Ended::Finished => return Ok(()),
            Ended::Dropped(why) => {
                let since = *dropped.get_or_insert_with(Instant::now);
                if since.elapsed() > Duration::from_secs(60) {
                    bail!("no node has served the match for 60 s: {why}");
                }
                tries += 1;
                totals
                    .reconnects
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                node += 1;
                // Every node tried once: wait a little before the next round.
                if tries % seat.bases.len() as u32 == 0 {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }
}

/// What a seat's client keeps across its connections.
struct Play {
    rng: ChaCha8Rng,
    /// Whether the server acknowledged the join.
    joined: bool,
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

/// Plays on one connection until the match is over or the connection ends. `served`: this is
/// a connection again after a drop; the moment its first state arrives is recorded there.
#[allow(clippy::too_many_arguments)] // one seat's parts
async fn play_on(
    ws: Ws,
    seat: usize,
    think_ms: u64,
    seed: u64,
    shared: &Mutex<Shared>,
    play: &mut Play,
    acks: &mut Vec<(u64, String)>,
    mut served: Option<&Totals>,
    totals: &Totals,
) -> Result<Ended> {
    let (mut tx, mut rx) = ws.split();
    let mut asked: VecDeque<Asked> = VecDeque::new();
    // A fresh connection: what the last one left unanswered is read from the state.
    play.submitted_at = None;
    let me = if seat == 0 { "p1" } else { "p2" };
    loop {
        let msg = match tokio::time::timeout(Duration::from_secs(120), rx.next()).await {
            Err(_) => bail!("no message for 120 s"),
            Ok(None) => return Ok(Ended::Dropped("the connection ended".into())),
            Ok(Some(Err(e))) => return Ok(Ended::Dropped(e.to_string())),
            Ok(Some(Ok(Message::Close(frame)))) => {
                return Ok(Ended::Dropped(format!("closed: {frame:?}")))
            }
            Ok(Some(Ok(m))) => m,
        };
        let Message::Text(text) = msg else { continue };
        let v: Value = serde_json::from_str(&text)?;
        match v["type"].as_str() {
            Some("error") => bail!("server error: {}", v["error"]),
            Some("ok") => {
                match asked.pop_front() {
                    Some(Asked::Join) => play.joined = true,
                    Some(Asked::Submit(at, mv) | Asked::Open(at, mv)) => {
                        play.unanswered = None;
                        acks.push((at, mv.as_str().unwrap_or_default().to_string()));
                    }
                    Some(Asked::Commit) | None => {}
                }
                continue;
            }
            Some("state") => {}
            _ => continue,
        }
        if let Some(t) = served.take() {
            t.served_again.lock().unwrap().push(Instant::now());
        }
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
            let join = json!({"type": "join", "client_seed": format!("load-{seed:x}")});
            if let Err(e) = tx.send(Message::Text(join.to_string().into())).await {
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
                    let open = json!({"type": "open", "move": mv, "nonce": nonce});
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
                    tokio::time::sleep(Duration::from_millis(think)).await;
                }
                mv
            }
        };
        if phase == Some("commit") {
            let nonce: String = (0..16)
                .map(|_| format!("{:02x}", play.rng.random::<u8>()))
                .collect();
            let text = mv.as_str().unwrap_or_default();
            let hash: String = {
                use sha2::{Digest, Sha256};
                Sha256::digest(format!("{text}\n{nonce}").as_bytes())
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect()
            };
            play.sealed = Some((steps, mv, nonce));
            asked.push_back(Asked::Commit);
            let commit = json!({"type": "commit", "hash": hash});
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
        let submit = json!({"type": "submit", "move": mv, "decision": v["decision"]});
        if let Err(e) = tx.send(Message::Text(submit.to_string().into())).await {
            return Ok(Ended::Dropped(e.to_string()));
        }
    }
}

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
//! With `--sealed` the matches are sealed (`docs/server-api.md`, "Sealed submissions"): in a
//! simultaneous decision a client commits to the SHA-256 of its move and a nonce, and opens when
//! both have committed; the latency then runs from the later opening to the reveal.

use std::collections::HashMap;
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
    /// A running server to load (e.g. http://127.0.0.1:8080) instead of starting one.
    #[arg(long)]
    url: Option<String>,
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
}

/// The timings of one decision of one match, keyed by the step count it was made at.
#[derive(Default, Clone, Copy)]
struct Decision {
    sent: [Option<Instant>; 2],
    received: [Option<Instant>; 2],
}

#[derive(Default)]
struct Shared {
    decisions: HashMap<u64, Decision>,
}

struct Totals {
    latencies_us: Mutex<Vec<u64>>,
    errors: Mutex<Vec<String>>,
    finished: std::sync::atomic::AtomicUsize,
    /// The server's CPU seconds when every match had been created (`None` without a server of
    /// our own).
    cpu_at_created: Mutex<Option<f64>>,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let options: Value =
        serde_json::from_str(&args.options).context("--options is a JSON object")?;
    let mut child = None;
    let mut db = None;
    let base = match &args.url {
        Some(u) => u.trim_end_matches('/').to_string(),
        None => {
            let (c, base, path) = start_server(args.server_bin.clone())?;
            child = Some(c);
            db = Some(path);
            base
        }
    };
    let runtime = tokio::runtime::Runtime::new()?;
    let server_pid = child.as_ref().map(Child::id);
    let cpu_before = server_pid.and_then(cpu_seconds);
    let started = Instant::now();
    let outcome = runtime.block_on(run(&args, &base, &options, server_pid));
    let elapsed = started.elapsed();
    let server = child.as_ref().map(|c| {
        (
            cpu_seconds(c.id()).zip(cpu_before).map(|(a, b)| a - b),
            peak_rss_kib(c.id()),
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
    if let Some(mut c) = child {
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
    let mut lat = totals.latencies_us.lock().unwrap().clone();
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return f64::NAN;
        }
        let i = ((p / 100.0) * (lat.len() - 1) as f64).round() as usize;
        lat[i] as f64 / 1000.0
    };
    let errors = totals.errors.lock().unwrap().clone();
    let finished = totals.finished.load(std::sync::atomic::Ordering::SeqCst);
    let own_cpu = cpu_seconds(std::process::id());
    let report = json!({
        "matches": args.matches,
        "finished": finished,
        "game": args.game,
        "think_ms": args.think_ms,
        "decisions": lat.len(),
        "latency_ms": {"p50": pct(50.0), "p90": pct(90.0), "p99": pct(99.0), "max": pct(100.0)},
        "errors": errors.len(),
        "first_errors": errors.iter().take(5).collect::<Vec<_>>(),
        "seconds": elapsed.as_secs_f64(),
        "server_cpu_seconds": server.and_then(|s| s.0),
        "server_cpu_ms_per_decision": server.and_then(|s| s.0).map(|c| per_decision(c, lat.len())),
        "server_cpu_after_create_ms_per_decision": connected_cpu.map(|c| per_decision(c, lat.len())),
        "server_peak_rss_mib": server.and_then(|s| s.1).map(|k| k as f64 / 1024.0),
        "client_cpu_seconds": own_cpu,
    });
    if args.json {
        println!("{report}");
    } else {
        println!(
            "{} matches of {} ({} finished), {} decisions in {:.1} s\n\
             reveal latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms\n\
             errors: {}\nserver: {} CPU s, peak RSS {} MiB; clients: {} CPU s\n\
             server CPU per decision: {} ms in all, {} ms after the matches were created",
            args.matches,
            args.game,
            finished,
            lat.len(),
            elapsed.as_secs_f64(),
            pct(50.0),
            pct(90.0),
            pct(99.0),
            pct(100.0),
            errors.len(),
            report["server_cpu_seconds"],
            report["server_peak_rss_mib"],
            report["client_cpu_seconds"],
            report["server_cpu_ms_per_decision"],
            report["server_cpu_after_create_ms_per_decision"],
        );
        for e in errors.iter().take(5) {
            println!("  {e}");
        }
    }
    if !errors.is_empty() || finished != args.matches {
        std::process::exit(1);
    }
    Ok(())
}

fn start_server(bin: Option<PathBuf>) -> Result<(Child, String, PathBuf)> {
    let bin = match bin {
        Some(b) => b,
        None => std::env::current_exe()?.with_file_name("colosseum"),
    };
    let db = std::env::temp_dir().join(format!("colosseum-load-{}.db", std::process::id()));
    let mut child = Command::new(&bin)
        .args([
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
            "--db",
        ])
        .arg(&db)
        // A line per match created, started and finished would be load of its own.
        .env(
            "RUST_LOG",
            std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
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
    Ok((child, format!("http://{addr}"), db))
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
    base: &str,
    options: &Value,
    server_pid: Option<u32>,
) -> Result<Arc<Totals>> {
    let totals = Arc::new(Totals {
        latencies_us: Mutex::new(Vec::new()),
        errors: Mutex::new(Vec::new()),
        finished: 0.into(),
        cpu_at_created: Mutex::new(None),
    });
    // Create the matches first (HTTP, blocking client on the blocking pool). One agent keeps
    // its connection: a connection per creation would leave one socket in TIME_WAIT per match,
    // which with 10,000 matches and their 20,000 WebSockets runs out of loopback ports.
    let agent = ureq::Agent::new_with_defaults();
    let mut created = Vec::new();
    for _ in 0..args.matches {
        // A normal (provably fair) match: the server commits to its seed, the clients add theirs.
        let body = json!({"game": args.game, "options": options, "time": {"kind": "untimed"}, "sealed": args.sealed});
        let url = format!("{base}/api/matches");
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
    *totals.cpu_at_created.lock().unwrap() = server_pid.and_then(cpu_seconds);
    let ramp = Arc::new(Semaphore::new(args.ramp.max(1)));
    let mut tasks = Vec::new();
    for (i, (id, tokens)) in created.into_iter().enumerate() {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let mut seats = Vec::new();
        for (seat, token) in tokens.iter().enumerate() {
            // The token goes in a subprotocol, never in the URL (which proxies log).
            let url = format!("{}/api/matches/{id}/ws", base.replacen("http", "ws", 1));
            let token = token.clone();
            let shared = shared.clone();
            let totals = totals.clone();
            let ramp = ramp.clone();
            let think = args.think_ms;
            let seed = args.seed ^ ((i as u64) << 1) ^ seat as u64;
            seats.push(tokio::spawn(async move {
                if let Err(e) = client(&url, &token, seat, think, seed, &shared, &ramp).await {
                    totals
                        .errors
                        .lock()
                        .unwrap()
                        .push(format!("match {i} seat {}: {e:#}", seat + 1));
                    return false;
                }
                true
            }));
        }
        let totals = totals.clone();
        tasks.push(tokio::spawn(async move {
            let mut ok = true;
            for s in seats {
                ok &= s.await.unwrap_or(false);
            }
            if ok {
                totals
                    .finished
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            let shared = shared.lock().unwrap();
            let mut lat = totals.latencies_us.lock().unwrap();
            for d in shared.decisions.values() {
                if let ([Some(a), Some(b)], [Some(x), Some(y)]) = (d.sent, d.received) {
                    let last = a.max(b);
                    let reached = x.max(y);
                    lat.push(reached.saturating_duration_since(last).as_micros() as u64);
                }
            }
        }));
    }
    for t in tasks {
        t.await?;
    }
    Ok(totals)
}

/// Small buffers, as the server uses: tungstenite zeroes its whole read buffer.
fn ws_config() -> tokio_tungstenite::tungstenite::protocol::WebSocketConfig {
    tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
}

/// One seat: joins and plays random legal moves until the match is over.
async fn client(
    url: &str,
    token: &str,
    seat: usize,
    think_ms: u64,
    seed: u64,
    shared: &Mutex<Shared>,
    ramp: &Semaphore,
) -> Result<()> {
    let permit = ramp.acquire().await?;
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
    drop(permit);
    let (mut tx, mut rx) = ws.split();
    tx.send(Message::Text(
        json!({"type": "join", "client_seed": format!("load-{seed:x}")})
            .to_string()
            .into(),
    ))
    .await?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let me = if seat == 0 { "p1" } else { "p2" };
    let mut submitted_at: Option<u64> = None;
    // Sealed matches: the step count of the decision committed to, the move and the nonce.
    let mut sealed: Option<(u64, Value, String)> = None;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(120), rx.next())
            .await
            .context("no message for 120 s")?
            .context("the server closed the connection")??;
        let Message::Text(text) = msg else { continue };
        let v: Value = serde_json::from_str(&text)?;
        match v["type"].as_str() {
            Some("error") => bail!("server error: {}", v["error"]),
            Some("state") => {}
            _ => continue,
        }
        let steps = v["steps"].as_u64().unwrap_or(0);
        if let Some(at) = submitted_at {
            if steps > at {
                let now = Instant::now();
                let mut sh = shared.lock().unwrap();
                let d = sh.decisions.entry(at).or_default();
                d.received[seat].get_or_insert(now);
                submitted_at = None;
            }
        }
        if v["status"] == "finished" {
            return Ok(());
        }
        let mine = &v["match"]["seats"][me];
        let phase = v["match"]["sealed"]["phase"].as_str();
        if v["status"] == "live" && phase == Some("open") && submitted_at.is_none() {
            // Both are in: open (the latency runs from here, as from a submission).
            if let Some((at, mv, nonce)) = sealed.take().filter(|s| s.0 == steps) {
                if mine["committed"] == true && mine["submitted"] != true {
                    shared.lock().unwrap().decisions.entry(at).or_default().sent[seat] =
                        Some(Instant::now());
                    submitted_at = Some(at);
                    tx.send(Message::Text(
                        json!({"type": "open", "move": mv, "nonce": nonce})
                            .to_string()
                            .into(),
                    ))
                    .await?;
                }
            }
            continue;
        }
        if v["status"] != "live"
            || mine["committed"] == true
            || sealed.as_ref().is_some_and(|s| s.0 == steps)
            || mine["to_act"] != true
            || mine["submitted"] == true
            || submitted_at.is_some()
        {
            continue;
        }
        let Some(legal) = v["legal_moves"].as_array().filter(|l| !l.is_empty()) else {
            bail!(
                "no legal moves sent for a seat to act: {}",
                v["match"]["decision"]
            );
        };
        let mv = legal[rng.random_range(0..legal.len())].clone();
        if think_ms > 0 {
            tokio::time::sleep(Duration::from_millis(rng.random_range(0..=2 * think_ms))).await;
        }
        if phase == Some("commit") {
            let nonce: String = (0..16)
                .map(|_| format!("{:02x}", rng.random::<u8>()))
                .collect();
            let text = mv.as_str().unwrap_or_default();
            let hash: String = {
                use sha2::{Digest, Sha256};
                Sha256::digest(format!("{text}\n{nonce}").as_bytes())
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect()
            };
            sealed = Some((steps, mv, nonce));
            tx.send(Message::Text(
                json!({"type": "commit", "hash": hash}).to_string().into(),
            ))
            .await?;
            continue;
        }
        let now = Instant::now();
        shared
            .lock()
            .unwrap()
            .decisions
            .entry(steps)
            .or_default()
            .sent[seat] = Some(now);
        submitted_at = Some(steps);
        tx.send(Message::Text(
            json!({"type": "submit", "move": mv, "decision": v["decision"]})
                .to_string()
                .into(),
        ))
        .await?;
    }
}

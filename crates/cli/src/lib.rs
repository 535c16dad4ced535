//! The `colosseum` command line: list games, show rules pages, replay records, play in the
//! terminal against bots, run arenas between bots, serve the bot protocol and benchmark random
//! playouts.

#![warn(missing_docs)]

mod analyse;
mod arena;
pub mod balance;
mod discord;
mod exploit;
mod play;
mod solve;

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
    /// The solved table of classic Goofspiel (descending prizes, point-difference returns) that
    /// `hard` plays and the analysis values moves from, as `colosseum solve` writes it (default:
    /// the file named by COLOSSEUM_GOOFSPIEL_TABLE; up to 10 cards it is solved in the process
    /// when no file holds it; docs/goofspiel-solution.md).
    #[arg(long = colosseum_ai::shared_table::FLAG, global = true, value_name = "FILE")]
    solved_table: Option<PathBuf>,
}

/// How `colosseum serve` writes its logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One line a event, for people.
    Text,
    /// One JSON object a line, for log collectors.
    Json,
}

/// Sends `tracing` events to stderr in `format`, at the levels of `RUST_LOG` (default `info`).
/// Does nothing if a subscriber is installed already.
fn init_logging(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

// `Serve` carries every server flag; the command is parsed once per process, so its size is
// of no consequence.
#[allow(clippy::large_enum_variant)]
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
    /// Check a hosted match's record: the commitment against the setup and the server seed, the
    /// seats and bots against the committed setup, every chance step, every move made at a
    /// timeout and every bot move against the seeds. Exits 1 naming what does not fit.
    Verify {
        /// The record (JSON) as `GET /api/matches/ID/record` gives it (`{"records": [...]}`),
        /// one record, or a list of records; `-` reads standard input.
        file: PathBuf,
        /// The commitment you were shown before the match started (the state's
        /// `fairness.commitment`, 64 hex digits): the record must carry this one.
        #[arg(long, value_name = "HEX")]
        commitment: Option<String>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal: against a bot with --vs, or hot-seat without.
    Play {
        /// The game's id.
        game: String,
        /// The opponent: `random`, `heuristic`, `mcts:easy|medium|hard`, `mcts:iters=N`,
        /// `cmd:PROGRAM ARGS` (see `colosseum bots`). Leave out for two people at one keyboard.
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
    /// List the bots of every game and what the levels mean.
    Bots,
    /// Play many games between two bots, seats swapped every other game, and report wins,
    /// draws and losses with 95% intervals and the Elo difference.
    Arena {
        /// The game's id.
        game: String,
        /// Bot A: `random`, `heuristic`, `mcts:LEVEL`,
        /// `mcts:iters=N|ms=N[,algo=uct|rm|rm+][,gamma=P|level][,model=P][,purify=P][,exact=B][,solve=B][,withheld=search|uniform]`,
        /// `exploiter:[iters=N,][depth=D,]target=BOT`, `cmd:PROGRAM ARGS`.
        bot_a: String,
        /// Bot B.
        bot_b: String,
        /// How many games.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Worker threads (default: the machine's cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Seed of the match (each game's seed derives from it).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// A game option as name=value (repeatable).
        #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Print one JSON object instead of the table.
        #[arg(long)]
        json: bool,
        /// Write each game's match record into this directory.
        #[arg(long, value_name = "DIR")]
        records: Option<PathBuf>,
    },
    /// Analyse a finished match: for every decision, each acting seat's expected result before
    /// it (a win 1, a draw 1/2, a loss 0), the engine's recommended strategy, the move played,
    /// its cost and a mark (inaccuracy, mistake, blunder: docs/analysis.md), and the turning
    /// points. Exact where the game is solved (classic Goofspiel with fixed prizes and at most 6
    /// cards, Square Goofspiel's last phase), else the search ENGINE, RUNS times per decision
    /// with the spread shown. Each seat is analysed from its own view only.
    Analyse {
        /// The record (JSON): one record, or `{"records": [...]}` as a hosted match gives it
        /// (its last game); `-` reads standard input.
        file: PathBuf,
        /// The search where nothing is solved: `mcts:LEVEL` or `mcts:iters=N|ms=N,...`.
        #[arg(long, default_value = "mcts:hard")]
        engine: String,
        /// Searches per searched decision (the error band).
        #[arg(long, default_value_t = colosseum_ai::analysis::DEFAULT_RUNS)]
        runs: u32,
        /// Seed of the searches.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print one JSON object (its `decisions`: one object per decision).
        #[arg(long)]
        json: bool,
    },
    /// A balance report for designers: the engine (the strongest equilibrium-seeking level by
    /// default) plays itself, seats swapped every other game (`colosseum arena`'s games and
    /// seeds), and the report gives with 95% intervals the first seat's share of wins, the
    /// advantage holder's, the draw rate, game length and how often each ending happens, for
    /// each value of one option with --sweep. SVG plots and the JSON with --out.
    Balance {
        /// The game's id.
        game: String,
        /// A game option as name=value (repeatable).
        #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Games per option value.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// The engine playing both seats (default: mcts:hard, sized to --budget if given; a
        /// cheaper one: mcts:medium, mcts:iters=N).
        #[arg(long)]
        engine: Option<String>,
        /// The whole run's wall time, e.g. 60s, 90s, 5m or 1m30s: without --engine the hard
        /// level's search is sized from a few measured games so that every game fits; the run
        /// stops starting games when it is spent and reports the games it has.
        #[arg(long, value_name = "TIME", value_parser = balance::parse_budget)]
        budget: Option<std::time::Duration>,
        /// One option's values, e.g. `size=5,7,9`.
        #[arg(long, value_name = "OPTION=V1,V2,...")]
        sweep: Option<String>,
        /// Write balance.json, balance.txt, shares.svg, endings.svg and length.svg here,
        /// rewritten as the games come (an interrupted run keeps what it has).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Seed of the match (game i's seed derives from it, as in `colosseum arena`).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: the machine's cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Print one JSON object instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Serve the stdio bot protocol: read one JSON request per line, answer with the move of the
    /// bot SPEC (see docs/bot-protocol.md).
    Bot {
        /// The game's id.
        game: String,
        /// The bot that answers: `random`, `heuristic`, `mcts:LEVEL`, ...
        #[arg(long, default_value = "mcts:medium")]
        engine: String,
        /// Seed of the bot's random choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Host matches over HTTP and WebSocket (see docs/server-api.md); matches are kept in an
    /// SQLite file by default, or in PostgreSQL with --postgres. Stops on Ctrl-C; unfinished
    /// matches resume at the next start.
    Serve {
        /// The address to listen on (port 0 picks a free port, printed at start).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// The SQLite database file (created if missing).
        #[arg(long, default_value = "colosseum.db", conflicts_with = "postgres")]
        db: PathBuf,
        /// A PostgreSQL connection string instead of SQLite, e.g.
        /// `host=/var/run/postgresql dbname=colosseum` (a build with the `postgres` feature:
        /// `cargo build --release -p colosseum-cli --features postgres`).
        #[arg(long, value_name = "CONFIG")]
        postgres: Option<String>,
        /// With --postgres: the address the other processes reach this one at, for the
        /// requests they forward to it (`http://IP:PORT`; default: the address it listens on,
        /// which must then not be 0.0.0.0). See docs/operations.md.
        #[arg(long, value_name = "URL", requires = "postgres")]
        advertise: Option<String>,
        /// Requests a second allowed from one address (HTTP).
        #[arg(long, default_value_t = 20.0)]
        http_rate: f64,
        /// Opens GET /api/admin/quarantine to `Authorization: Bearer TOKEN` (at least 16
        /// characters; or set COLOSSEUM_ADMIN_TOKEN, which keeps it out of `ps`); without it
        /// the admin endpoints are off.
        #[arg(long, value_name = "TOKEN")]
        admin_token: Option<String>,
        /// Show each game's latest balance report on its rules page: the directory under
        /// which `colosseum balance GAME --out DIR/NAME` writes them (or set
        /// COLOSSEUM_BALANCE_DIR); see docs/analysis.md.
        #[arg(long, value_name = "DIR")]
        balance_dir: Option<PathBuf>,
        /// How logs are written to stderr: `text` (for people) or `json` (one object a line).
        /// Levels come from RUST_LOG (default `info`).
        #[arg(long, value_enum, default_value_t = LogFormat::Text)]
        log_format: LogFormat,
        /// A file keeping the chat webhooks' (and the Discord channels') queued posts across a
        /// restart; default: beside the SQLite database (`DB.outbox`); with --postgres, give
        /// one to keep them (each process its own file).
        #[arg(long, value_name = "PATH")]
        webhook_outbox: Option<PathBuf>,
        /// The server's limits (docs/server-api.md, "Limits").
        #[command(flatten)]
        limits: ServeLimits,
        /// The Discord application (docs/discord.md).
        #[command(flatten)]
        discord: discord::DiscordArgs,
    },
    /// The Discord application (docs/discord.md): `colosseum discord register --guild ID`.
    Discord {
        #[command(subcommand)]
        command: discord::DiscordCommand,
    },
    /// Judge a bot's exploitability: read its policy through the bot protocol at every
    /// information state it can reach (SAMPLES requests each) and compute exactly what a best
    /// response earns against it, as OpenSpiel defines exploitability (the mean over the bot's two
    /// seats; 0 is perfect, 1 with win_loss returns means it can always be beaten). Supported:
    /// goofspiel, -o order=descending (the default here), -o cards=N with N from 1 to 6, -o
    /// returns=win_loss or point_difference. Sampling adds noise: the report gives the noise floor
    /// (an exact equilibrium sampled the same way); a bot may report its mixed strategy instead
    /// (docs/bot-protocol.md). With --approximate, any game is judged approximately: an
    /// exploiter, a search that asks the bot for its strategy, plays --games games against it,
    /// seats swapped, and what it wins (a win +1, a loss -1) is a lower bound on the
    /// exploitability, given with its 95% interval; --records DIR keeps each game's record,
    /// named by the exploiter's seat. Times in docs/strength.md.
    Exploit(exploit::Setup),
    /// Solve a game exactly into a table file, or check a table file. Supported: goofspiel with
    /// -o cards=N (1 to 14), prizes in descending order and point-difference returns (the
    /// defaults here): the value and both seats' equilibrium strategies at every pair of hands
    /// (C(2N, N) positions; 13 cards: about 6 s of CPU and 620 MiB). After a solve, and with
    /// --check FILE, every position is checked independently by best replies against the stored
    /// strategies. The file format and the published solution: docs/goofspiel-solution.md.
    Solve(solve::Setup),
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

/// The limits of `colosseum serve` a hostile client could otherwise exhaust; see
/// `colosseum_server::Limits` and docs/server-api.md ("Limits").
#[derive(clap::Args, Debug, Clone)]
struct ServeLimits {
    /// The largest request body, in bytes.
    #[arg(long, default_value_t = 64 * 1024)]
    body_bytes: usize,
    /// The largest WebSocket message, in bytes (a larger one closes the connection).
    #[arg(long, default_value_t = 16 * 1024)]
    ws_message_bytes: usize,
    /// Messages a second allowed on one WebSocket (burst: three times as many).
    #[arg(long, default_value_t = 10.0)]
    ws_rate: f64,
    /// The shortest time a timed control may give a decision, in ms.
    #[arg(long, default_value_t = 1_000)]
    min_decision_ms: u64,
    /// The longest time a timed control may give a decision, in seconds.
    #[arg(long, default_value_t = 86_400)]
    max_decision_secs: u64,
    /// The largest bank a timed control may give, in seconds.
    #[arg(long, default_value_t = 86_400)]
    max_bank_secs: u64,
    /// The longest a server bot may think about one decision, in ms.
    #[arg(long, default_value_t = colosseum_server::hub::MAX_BOT_MS)]
    bot_max_ms: u64,
    /// The most MCTS iterations a server bot may use for one decision.
    #[arg(long, default_value_t = colosseum_server::hub::MAX_BOT_ITERS)]
    bot_max_iters: u64,
    /// Bot searches running at once in the whole server (the others queue); default: the
    /// number of CPUs.
    #[arg(long)]
    bot_searches: Option<usize>,
    /// How long a match stays open while not both seats have joined (status `waiting`), in
    /// seconds.
    #[arg(long, default_value_t = 86_400)]
    waiting_expiry_secs: u64,
    /// How long a waiting match (not both seats joined) stays in the lobby's public list, in
    /// seconds; its links work until --waiting-expiry-secs.
    #[arg(long, default_value_t = 600)]
    lobby_waiting_secs: u64,
    /// The most lobby entries one page may hold (`?limit=`).
    #[arg(long, default_value_t = 200)]
    lobby_page_max: usize,
    /// Chat messages one writer (a seat, or a spectator's address) may send a minute in one
    /// match (burst: a quarter as many, at least 1).
    #[arg(long, default_value_t = 20.0)]
    chat_rate: f64,
    /// The most chat messages one match keeps (both channels).
    #[arg(long, default_value_t = 1000)]
    chat_max_lines: usize,
    /// Open connections (WebSockets included) allowed per client address (a browser opens six
    /// to load a page; many people may share an address).
    #[arg(long, default_value_t = 256)]
    max_connections_per_ip: usize,
    /// Matches one address may create a minute (burst: twice as many).
    #[arg(long, default_value_t = 10.0)]
    create_rate: f64,
    /// Seconds a connection has to send a request's headers (and an idle keep-alive
    /// connection stays open).
    #[arg(long, default_value_t = 15)]
    header_timeout_secs: u64,
    /// Seconds one HTTP request may take, body included.
    #[arg(long, default_value_t = 30)]
    request_timeout_secs: u64,
    /// Seconds of silence from a WebSocket's client before the server pings it (and between
    /// pings while it stays silent).
    #[arg(long, default_value_t = 20)]
    ws_ping_secs: u64,
    /// Seconds of silence after which a WebSocket is closed.
    #[arg(long, default_value_t = 60)]
    ws_idle_secs: u64,
    /// Refused submissions logged per seat and decision (later ones are only counted).
    #[arg(long, default_value_t = colosseum_server::DEFAULT_LOGGED_REFUSALS)]
    logged_refusals: u32,
    /// Changes of mind taken per seat and decision (a seat's new submission replacing its own
    /// unlocked one); later ones are refused (409 too_many_changes) and not stored.
    #[arg(long, default_value_t = colosseum_server::DEFAULT_CHANGES, value_parser = clap::value_parser!(u32).range(1..))]
    changes: u32,
    /// The search's iterations per decision in the analysis after the game (the browser's
    /// Analyse; at most --bot-max-iters), each decision searched 3 times.
    #[arg(long, default_value_t = colosseum_server::analysis::ANALYSIS_ITERS)]
    analysis_iters: u64,
    /// Chat webhook posts waiting per webhook URL; a post beyond it is dropped (counted,
    /// logged).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    webhook_queue: u64,
    /// Attempts per webhook post (the first and its retries) before it is dropped.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    webhook_attempts: u32,
    /// The wait before a webhook post's first retry, in ms; each later retry waits twice as
    /// long (a 429's retry_after wins).
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    webhook_backoff_ms: u64,
    /// How long one webhook request may take before it counts as failed, in ms.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    webhook_timeout_ms: u64,
    /// Webhook hosts allowed beside Discord's and Slack's (discord.com, discordapp.com,
    /// ptb.discord.com, canary.discord.com, hooks.slack.com): HOST (any port) or HOST:PORT,
    /// comma-separated or repeated. Their addresses must still be public.
    #[arg(long, value_name = "HOST[,HOST...]", value_delimiter = ',', value_parser = webhook_host)]
    webhook_hosts: Vec<String>,
    /// DANGEROUS: let webhooks reach private, loopback, link-local and other non-public
    /// addresses, and use http://. Whoever may set a webhook (the admin, tournament hosts) can
    /// then make this server send requests into its own network. For tests and a trusted LAN.
    #[arg(long)]
    webhook_allow_private: bool,
    /// A reverse proxy's address or range (IP or IP/BITS; repeat for several) trusted to name
    /// its client in X-Forwarded-For: the per-address limits then count that client, and the
    /// proxy's own connections are not capped per address.
    #[arg(long, value_name = "CIDR")]
    trusted_proxy: Vec<colosseum_server::forward::Cidr>,
    /// With --postgres: how often, in seconds, this node looks for matches and tournaments no
    /// node serves (their node died) and takes them over.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=3600))]
    takeover_secs: u64,
    /// How long, in microseconds, an append to a match's log that would commit alone waits
    /// for others to share its transaction (fewer commits, at the price of that wait on a
    /// move's answer; 0 commits at once). A move is acknowledged only after its commit.
    #[arg(long, default_value_t = colosseum_server::COMMIT_WINDOW.as_micros() as u64,
          value_parser = clap::value_parser!(u64).range(0..=100_000))]
    commit_window_us: u64,
}

impl ServeLimits {
    fn apply(&self, limits: colosseum_server::Limits) -> colosseum_server::Limits {
        use std::time::Duration;
        colosseum_server::Limits {
            body_bytes: self.body_bytes,
            ws_message_bytes: self.ws_message_bytes,
            ws_per_second: self.ws_rate,
            ws_burst: (self.ws_rate * 3.0).max(1.0),
            min_decision_ms: self.min_decision_ms,
            max_decision_ms: self.max_decision_secs.saturating_mul(1000),
            max_bank_ms: self.max_bank_secs.saturating_mul(1000),
            bot_max_ms: self.bot_max_ms,
            bot_max_iters: self.bot_max_iters,
            bot_searches: self.bot_searches.unwrap_or(limits.bot_searches).max(1),
            waiting_expiry_ms: self.waiting_expiry_secs.saturating_mul(1000),
            lobby_page_max: self.lobby_page_max.max(1),
            lobby_waiting_ms: self.lobby_waiting_secs.saturating_mul(1000),
            chat_per_minute: self.chat_rate,
            chat_burst: (self.chat_rate / 4.0).max(1.0),
            chat_max_lines: self.chat_max_lines,
            connections_per_ip: self.max_connections_per_ip.max(1),
            creates_per_minute: self.create_rate,
            creates_burst: (self.create_rate * 2.0).max(1.0),
            header_timeout: Duration::from_secs(self.header_timeout_secs.max(1)),
            request_timeout: Duration::from_secs(self.request_timeout_secs.max(1)),
            ws_ping_interval: Duration::from_secs(self.ws_ping_secs.max(1)),
            ws_idle_timeout: Duration::from_secs(self.ws_idle_secs.max(1)),
            logged_refusals: self.logged_refusals,
            changes: self.changes,
            analysis_iters: self.analysis_iters,
            webhook_queue: usize::try_from(self.webhook_queue).unwrap_or(usize::MAX),
            webhook_attempts: self.webhook_attempts,
            webhook_backoff_ms: self.webhook_backoff_ms,
            webhook_timeout_ms: self.webhook_timeout_ms,
            // Read once per process, as the proxies below.
            webhook_hosts: Box::leak(self.webhook_hosts.clone().into_boxed_slice()),
            webhook_allow_private: self.webhook_allow_private,
            // Read once per process; the limits are copied into every task.
            trusted_proxies: Box::leak(self.trusted_proxy.clone().into_boxed_slice()),
            takeover_every: Duration::from_secs(self.takeover_secs),
            commit_window: Duration::from_micros(self.commit_window_us),
            ..limits
        }
    }
}

/// A `--webhook-hosts` entry: a host name or address, with an optional `:PORT`.
fn webhook_host(s: &str) -> Result<String, String> {
    let s = s.trim().to_ascii_lowercase();
    let (host, port) = if let Some(rest) = s.strip_prefix('[') {
        match rest.split_once(']') {
            Some((v6, tail)) if v6.parse::<std::net::Ipv6Addr>().is_ok() => {
                ("v6".to_string(), tail.strip_prefix(':').map(str::to_string))
            }
            _ => (String::new(), None),
        }
    } else if s.parse::<std::net::Ipv6Addr>().is_ok() {
        ("v6".to_string(), None)
    } else {
        match s.split_once(':') {
            Some((h, p)) => (h.to_string(), Some(p.to_string())),
            None => (s.clone(), None),
        }
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    let port_ok = port.is_none_or(|p| p.parse::<u16>().is_ok_and(|p| p > 0));
    if host_ok && port_ok {
        Ok(s)
    } else {
        Err(format!(
            "`{s}` is not a host: give a name or address, with :PORT if only that port \
             (e.g. hooks.example.org or hooks.example.org:8443)"
        ))
    }
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
    colosseum_ai::shared_table::use_file(cli.solved_table);
    match cli.command {
        Command::Games => {
            for g in colosseum_games::registry() {
                writeln!(out, "{:<18} {} - {}", g.id, g.name, g.summary)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Rules { game } => {
            let entry = colosseum_games::find(&game)?;
            write!(out, "{}", entry.rules_page())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay { file, json } => replay_command(&file, json, out),
        Command::Verify {
            file,
            commitment,
            json,
        } => verify_command(&file, commitment.as_deref(), json, out),
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
                Some(spec) => play::Opponent::Bot(spec.parse()?),
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
        Command::Bots => {
            for g in colosseum_ai::registry::bots() {
                let heuristic = g.heuristic().map_or_else(
                    || "no heuristic of its own (falls back to a short lookahead)".to_string(),
                    str::to_string,
                );
                writeln!(out, "{:<18} random, heuristic: {heuristic}; mcts", g.id())?;
            }
            writeln!(out, "levels:")?;
            for (level, meaning) in colosseum_ai::registry::LEVELS {
                writeln!(out, "  mcts:{level:<7} {meaning}")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Arena {
            game,
            bot_a,
            bot_b,
            games,
            threads,
            seed,
            options,
            json,
            records,
        } => {
            let setup = arena::Setup {
                game,
                bot_a,
                bot_b,
                games,
                threads: threads.unwrap_or_else(|| {
                    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
                }),
                seed,
                options,
                json,
                records,
            };
            arena::run(&setup, out)
        }
        Command::Analyse {
            file,
            engine,
            runs,
            seed,
            json,
        } => {
            let text = read_input(&file)?;
            analyse::run(&file, &text, &engine, runs, seed, json, out)
        }
        Command::Balance {
            game,
            options,
            games,
            engine,
            sweep,
            out: dir,
            seed,
            threads,
            json,
            budget,
        } => {
            let setup = balance::Setup {
                budget,
                game,
                options,
                games,
                engine,
                sweep,
                out: dir,
                seed,
                threads: threads.unwrap_or_else(|| {
                    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
                }),
                json,
            };
            balance::run(&setup, out)
        }
        Command::Bot { game, engine, seed } => {
            let entry = colosseum_games::find(&game)?;
            let spec: colosseum_ai::registry::BotSpec = engine.parse()?;
            let bots = colosseum_ai::registry::find(entry.id)?;
            let stdin = std::io::stdin();
            bots.serve(&spec, seed, &mut stdin.lock(), out)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve {
            addr,
            db,
            postgres,
            advertise,
            http_rate,
            admin_token,
            balance_dir,
            log_format,
            webhook_outbox,
            limits: serve_limits,
            discord: discord_args,
        } => {
            init_logging(log_format);
            colosseum_server::balance::use_dir(balance_dir);
            let admin_token = admin_token.or_else(|| {
                std::env::var("COLOSSEUM_ADMIN_TOKEN")
                    .ok()
                    .filter(|t| !t.is_empty())
            });
            // Beside a SQLite database by default: the Discord bindings (`DB.discord`).
            let beside_db = |suffix: &str| {
                (postgres.is_none() && db.as_os_str() != ":memory:").then(|| {
                    let mut file = db.clone().into_os_string();
                    file.push(suffix);
                    PathBuf::from(file)
                })
            };
            let discord_state = beside_db(".discord");
            let store = match postgres {
                Some(config) => colosseum_server::StoreChoice::Postgres(config),
                None => colosseum_server::StoreChoice::Sqlite(db),
            };
            let limits = serve_limits.apply(colosseum_server::Limits {
                http_per_second: http_rate,
                http_burst: (http_rate * 3.0).max(1.0),
                discord: discord_args.config(discord_state)?,
                webhook_outbox: webhook_outbox.map(|p| &*Box::leak(p.into_boxed_path())),
                ..colosseum_server::Limits::default()
            });
            // A table file named is read now: a bad one stops the server before it listens,
            // and the first game does not wait for it.
            match colosseum_ai::shared_table::load_file().map_err(anyhow::Error::msg)? {
                Some(cards) => tracing::info!(
                    cards,
                    file = %colosseum_ai::shared_table::file()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default(),
                    "solved table read"
                ),
                // Information, not a warning, and not before the address to open: at debug.
                None => tracing::debug!(
                    solved_up_to = colosseum_ai::shared_table::SOLVE_MAX,
                    "no solved table named (--{} or {}): tables up to {} cards are solved when first needed",
                    colosseum_ai::shared_table::FLAG,
                    colosseum_ai::shared_table::ENV,
                    colosseum_ai::shared_table::SOLVE_MAX
                ),
            }
            let runtime = tokio::runtime::Runtime::new()?;
            if let Some(config) = limits.discord {
                let guilds = discord_args.discord_guild.clone();
                runtime.spawn(async move { discord::register_at_start(config, &guilds).await });
            }
            let served = runtime.block_on(colosseum_server::serve(
                addr,
                store,
                limits,
                admin_token,
                advertise,
            ));
            // Stopped (SIGTERM, Ctrl-C): everything acknowledged is stored. A bot search or a
            // verify still running on the blocking pool is not waited for (dropping the
            // runtime would wait for it: 27.9 s with 4 verifies in flight, issue 36); exiting
            // ends it, and a bot's move not made yet is chosen again at the next start.
            runtime.shutdown_timeout(std::time::Duration::from_millis(500));
            served?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Discord { command } => {
            discord::run(&command, out)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Exploit(setup) => exploit::run(&setup, out),
        Command::Solve(setup) => solve::run(&setup, out),
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

fn verify_command(
    file: &std::path::Path,
    commitment: Option<&str>,
    as_json: bool,
    out: &mut impl Write,
) -> Result<ExitCode> {
    if let Some(c) = commitment {
        if !colosseum_engine::fair::is_sha256_hex(&c.trim().to_ascii_lowercase()) {
            anyhow::bail!(
                "--commitment is the commitment you were shown (the state's fairness.commitment): 64 hex digits; got `{c}`"
            );
        }
    }
    let text = read_input(file)?;
    let value: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", file.display()))?;
    let list = match value.get("records") {
        Some(records) => records.clone(),
        None if value.is_array() => value,
        None => json!([value]),
    };
    let records: Vec<Record> = serde_json::from_value(list).with_context(|| {
        format!(
            "{}: not match records (give what GET /api/matches/ID/record answers, one record, or a list)",
            file.display()
        )
    })?;
    let report = colosseum_server::verify::verify_against(&records, commitment);
    if as_json {
        writeln!(out, "{}", json!(report))?;
    } else {
        write!(out, "{}", report.text())?;
    }
    Ok(if report.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn read_input(file: &std::path::Path) -> Result<String> {
    Ok(if file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading the record from standard input")?;
        s
    } else {
        std::fs::read_to_string(file)
            .with_context(|| format!("reading the record {}", file.display()))?
    })
}

fn replay_command(file: &std::path::Path, as_json: bool, out: &mut impl Write) -> Result<ExitCode> {
    let text = read_input(file)?;
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

/// The JSON summary of a replay, as docs/record-format.md specifies.
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

#[cfg(test)]
mod serve_flags {
    use super::*;

    fn limits(args: &[&str]) -> Result<colosseum_server::Limits, String> {
        let cli = Cli::try_parse_from(["colosseum", "serve"].iter().chain(args))
            .map_err(|e| e.to_string())?;
        match cli.command {
            Command::Serve { limits, .. } => Ok(limits.apply(colosseum_server::Limits::default())),
            _ => unreachable!("serve parses as serve"),
        }
    }

    #[test]
    fn webhook_limits_are_flags_with_the_documented_defaults() {
        let d = limits(&[]).unwrap();
        let server = colosseum_server::Limits::default();
        assert_eq!(
            (
                d.webhook_queue,
                d.webhook_attempts,
                d.webhook_backoff_ms,
                d.webhook_timeout_ms
            ),
            (64, 5, 1_000, 10_000)
        );
        assert_eq!(
            (
                d.webhook_queue,
                d.webhook_attempts,
                d.webhook_backoff_ms,
                d.webhook_timeout_ms
            ),
            (
                server.webhook_queue,
                server.webhook_attempts,
                server.webhook_backoff_ms,
                server.webhook_timeout_ms
            )
        );
        let l = limits(&[
            "--webhook-queue",
            "8",
            "--webhook-attempts",
            "2",
            "--webhook-backoff-ms",
            "50",
            "--webhook-timeout-ms",
            "300",
        ])
        .unwrap();
        assert_eq!(
            (
                l.webhook_queue,
                l.webhook_attempts,
                l.webhook_backoff_ms,
                l.webhook_timeout_ms
            ),
            (8, 2, 50, 300)
        );
    }

    #[test]
    fn webhook_limits_out_of_range_are_refused_saying_what_is_allowed() {
        for (flag, value, allowed) in [
            ("--webhook-queue", "0", "1..=100000"),
            ("--webhook-attempts", "0", "1..=100"),
            ("--webhook-backoff-ms", "0", "1..=3600000"),
            ("--webhook-timeout-ms", "0", "1..=600000"),
            ("--webhook-timeout-ms", "soon", "invalid digit"),
        ] {
            let e = limits(&[flag, value]).unwrap_err();
            assert!(
                e.contains(flag) && e.contains(allowed),
                "{flag} {value}: {e}"
            );
        }
    }

    #[test]
    fn webhook_hosts_and_private_addresses_are_the_operators_choice_off_by_default() {
        let d = limits(&[]).unwrap();
        assert!(d.webhook_hosts.is_empty());
        assert!(!d.webhook_allow_private);
        let l = limits(&[
            "--webhook-hosts",
            "Hooks.Example.org,chat.example.net:8443",
            "--webhook-hosts",
            "[2001:db8::1]:9000",
            "--webhook-allow-private",
        ])
        .unwrap();
        assert_eq!(
            l.webhook_hosts,
            [
                "hooks.example.org",
                "chat.example.net:8443",
                "[2001:db8::1]:9000"
            ]
        );
        assert!(l.webhook_allow_private);
        for bad in ["https://x.org/", "a b", "x.org:http", "user@x.org", ""] {
            let e = limits(&["--webhook-hosts", bad]).unwrap_err();
            assert!(e.contains("is not a host"), "{bad}: {e}");
        }
    }
}

//! Colosseum's table on the network: `colosseum serve`.
//!
//! * [`hub`]: every hosted match, each a [`colosseum_host::Match`] behind a lock, with its
//!   timer task, its bots (thinking on the blocking pool) and its store writes. Nothing is
//!   acknowledged before it is stored.
//! * [`store`]: SQLite (default, one file, WAL) or PostgreSQL behind one [`store::Store`] trait:
//!   match metadata plus the host's append-only log, from which a match is rebuilt exactly.
//! * [`routes`]: the axum router (HTTP commands, a WebSocket of live views), one module per
//!   family of handlers; [`limits`] and [`state`]: the size and rate limits and the state the
//!   router shares; [`api`] re-exports them where they always were. Every response is built from
//!   the caller's view. [`serve_on`] adds the connection limits (per address, header timeout).
//! * [`clock`]: wall time, injected.
//! * [`pages`]: the browser table (lobby, table, replay, rules), assets embedded.
//! * [`seasons`]: rosters kept across tournaments and rated casual matches, and each player's
//!   Glicko-2 rating per game ([`season_api`]: their endpoints).
//! * [`verify`]: checks a finished match's chance and bot moves against its seeds.
//!
//! The protocol is documented in `docs/server-api.md`.

#![warn(missing_docs)]

pub mod analysis;
pub mod api;
pub mod balance;
pub mod clock;
pub mod discord;
pub mod error;
pub mod forward;
pub mod hub;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod names;
pub mod pages;
pub mod pool;
pub mod qr;
mod rate;
pub mod render;
pub mod routes;
pub mod season_api;
pub mod seasons;
pub mod state;
pub mod store;
pub mod tournament_api;
pub mod tournaments;
pub mod verify;
pub mod verifying;
pub mod webhooks;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context as TaskContext, Poll};

use anyhow::Context;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tower::Service;

pub use api::{app, AppState, Limits};
pub use clock::{Clock, ManualClock, SystemClock};
pub use colosseum_host::{DEFAULT_CHANGES, DEFAULT_LOGGED_REFUSALS};
pub use error::{ApiError, ErrorCode};
pub use hub::Hub;
#[cfg(feature = "postgres")]
pub use store::PostgresStore;
pub use store::{AnyStore, SqliteStore, Store};

/// Where `colosseum serve` keeps its matches.
#[derive(Clone, Debug)]
pub enum StoreChoice {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection string (served only by a build with the `postgres` feature;
    /// without it [`serve`] refuses it with [`NO_POSTGRES`]).
    Postgres(String),
}

/// What [`serve`] says, and exits with, when asked for PostgreSQL in a build without the
/// `postgres` feature.
pub const NO_POSTGRES: &str = "this colosseum was built without PostgreSQL (--postgres): build \
     it with `cargo build --release -p colosseum-cli --features postgres` (or install it with \
     `cargo install --path crates/cli --locked --features postgres`), or leave out --postgres to \
     keep the matches in an SQLite file";

/// How often, by default, a process on PostgreSQL looks for unfinished matches nobody serves
/// (their process died) and takes them over ([`Hub::take_over`]; `Limits::takeover_every`).
pub const TAKEOVER_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// How long, by default, an append that would commit alone waits for company
/// (`Limits::commit_window`, `colosseum serve --commit-window-us`; docs/benchmarks.md,
/// "Settings measured").
pub const COMMIT_WINDOW: std::time::Duration = std::time::Duration::from_micros(500);

/// The shortest admin token `serve` accepts.
pub const MIN_ADMIN_TOKEN: usize = 16;

/// How many connections the kernel keeps waiting for `accept` ([`listen`]; the kernel caps it
/// at `net.core.somaxconn`, 4096 by default). Tokio's `TcpListener::bind` asks for 1024, and a
/// dead node's clients coming back at once (thousands of WebSockets) overflowed it: each
/// connection dropped from a full queue waits for the kernel's 1 s retransmission (issue 22).
pub const LISTEN_BACKLOG: u32 = 4096;

/// A socket bound to `addr` (with `SO_REUSEADDR`, as `TcpListener::bind`), not listening yet:
/// `serve` takes its address before it opens the store, so a port in use stops it before it
/// touches any match, and listens (with [`LISTEN_BACKLOG`]) once the matches are resumed.
fn bind(addr: SocketAddr) -> anyhow::Result<tokio::net::TcpSocket> {
    let bound = (|| {
        let socket = if addr.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        socket.bind(addr)?;
        Ok(socket)
    })();
    bound.map_err(|e| address_error(addr, e))
}

/// What a failure to take `addr` means for the person who ran `serve`, and which flag to use.
fn address_error(addr: SocketAddr, e: std::io::Error) -> anyhow::Error {
    let another = SocketAddr::new(
        addr.ip(),
        match addr.port() {
            0 | u16::MAX => 8081,
            p => p + 1,
        },
    );
    let what = match e.kind() {
        std::io::ErrorKind::AddrInUse => format!(
            "{addr} is already in use (another `colosseum serve`, or another program): stop it, \
             or serve on another port with --addr {another}"
        ),
        std::io::ErrorKind::PermissionDenied => format!(
            "{addr} may not be used by this user (ports below 1024 need privileges): serve on \
             another port with --addr {}",
            SocketAddr::new(addr.ip(), 8080)
        ),
        std::io::ErrorKind::AddrNotAvailable => format!(
            "{} is not an address of this machine: --addr 127.0.0.1:{port} serves this machine \
             only, --addr 0.0.0.0:{port} every network it is on",
            addr.ip(),
            port = addr.port()
        ),
        _ => format!("cannot serve on {addr}: choose another address with --addr {another}"),
    };
    anyhow::Error::new(e).context(what)
}

/// Runs the server on `addr` until Ctrl-C: opens the store, resumes unfinished matches (setting
/// aside any that cannot be rebuilt) and serves. Takes `addr` first: one in use (or not this
/// machine's) stops it before the store is opened, with an error naming `--addr`. Prints
/// `listening on http://ADDR (...): open it in a browser (Ctrl-C stops)` (with the real port
/// when `addr` asks for port 0) once it accepts connections, before any log line at `info`. `admin_token` opens
/// `GET /api/admin/quarantine` to its bearer. Logs go through `tracing` (the caller installs a
/// subscriber).
pub async fn serve(
    addr: SocketAddr,
    store: StoreChoice,
    limits: Limits,
    admin_token: Option<String>,
    advertise: Option<String>,
) -> anyhow::Result<()> {
    if let Some(t) = &admin_token {
        anyhow::ensure!(
            t.chars().count() >= MIN_ADMIN_TOKEN && !t.chars().any(char::is_whitespace),
            "an admin token has at least {MIN_ADMIN_TOKEN} characters and no spaces"
        );
    }
    #[cfg(not(feature = "postgres"))]
    anyhow::ensure!(!matches!(store, StoreChoice::Postgres(_)), NO_POSTGRES);
    // The address first: a port in use stops the server before it opens the store.
    let socket = bind(addr)?;
    let store_name = match &store {
        StoreChoice::Sqlite(path) => format!("sqlite:{}", path.display()),
        StoreChoice::Postgres(_) => "postgres".to_string(),
    };
    #[cfg(feature = "postgres")]
    let postgres = match &store {
        StoreChoice::Postgres(url) => Some(url.clone()),
        StoreChoice::Sqlite(_) => None,
    };
    // The webhooks' outbox where the operator says, else beside the database
    // (`crate::webhooks::Webhooks::keep_outbox`).
    let outbox = match &store {
        _ if limits.webhook_outbox.is_some() => {
            limits.webhook_outbox.map(std::path::Path::to_path_buf)
        }
        StoreChoice::Sqlite(path) if path.as_os_str() != ":memory:" => {
            let mut file = path.clone().into_os_string();
            file.push(".outbox");
            Some(std::path::PathBuf::from(file))
        }
        _ => None,
    };
    let store = match store {
        StoreChoice::Sqlite(path) => AnyStore::Sqlite(
            SqliteStore::open(&path)
                .with_context(|| format!("opening the database {}", path.display()))?
                .with_commit_window(limits.commit_window),
        ),
        #[cfg(not(feature = "postgres"))]
        StoreChoice::Postgres(_) => anyhow::bail!(NO_POSTGRES),
        #[cfg(feature = "postgres")]
        StoreChoice::Postgres(url) => AnyStore::Postgres(
            PostgresStore::connect(&url)
                .await
                .context("connecting to PostgreSQL (--postgres)")?
                .with_commit_window(limits.commit_window),
        ),
    };
    let hub = Hub::with_limits(store, Arc::new(SystemClock), true, limits);
    if let Some(file) = &outbox {
        hub.webhooks()
            .keep_outbox(file)
            .with_context(|| format!("the webhook outbox {}", file.display()))?;
    }
    let resumed = hub
        .resume()
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    let quarantined = hub
        .quarantined()
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    let listener = socket
        .listen(LISTEN_BACKLOG)
        .map_err(|e| address_error(addr, e))?;
    let local = listener.local_addr()?;
    if store_name == "postgres" {
        let address = match advertise {
            Some(a) => a,
            None if local.ip().is_unspecified() => anyhow::bail!(
                "listening on {local} with --postgres: give --advertise http://IP:{} (the \
                 address the other processes reach this one at)",
                local.port()
            ),
            None => format!("http://{local}"),
        };
        anyhow::ensure!(
            forward::peer_ip(&address).is_some(),
            "--advertise {address}: give http://IP:PORT (an IP address, not a name)"
        );
        hub.announce_node(&address)
            .await
            .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    }
    // The first line printed (scripts read its address): where to open the lobby.
    let open = if local.ip().is_unspecified() {
        format!(
            "open http://127.0.0.1:{} in a browser on this machine, or this machine's address \
             from another",
            local.port()
        )
    } else {
        "open it in a browser".to_string()
    };
    let matches = if resumed == 1 { "match" } else { "matches" };
    println!(
        "listening on http://{local} ({resumed} unfinished {matches} resumed): {open} (Ctrl-C stops)"
    );
    tracing::info!(
        address = %local,
        store = %store_name,
        resumed,
        quarantined = quarantined.len(),
        admin = admin_token.is_some(),
        "listening"
    );
    if !quarantined.is_empty() {
        let ids: Vec<&str> = quarantined.iter().map(|q| q.id.as_str()).collect();
        tracing::error!(
            matches = %ids.join(","),
            "{} quarantined (not served); GET /api/admin/quarantine lists them",
            if ids.len() == 1 {
                "1 match is".to_string()
            } else {
                format!("{} matches are", ids.len())
            }
        );
    }
    // Several processes on one PostgreSQL: a match whose process died is taken over by the
    // others within a few seconds, without waiting for someone to ask for it; at once when its
    // process says it leaves (`wake`).
    // (`wake` is sent by the notices' listener, on PostgreSQL only.)
    #[cfg_attr(not(feature = "postgres"), allow(unused_variables))]
    let (wake, woken) = tokio::sync::watch::channel(0u64);
    let mut loops = Vec::new();
    if store_name == "postgres" {
        let taker = hub.clone();
        let mut woken = woken.clone();
        loops.push(tokio::spawn(async move {
            let mut every = tokio::time::interval(limits.takeover_every);
            loop {
                tokio::select! {
                    _ = every.tick() => {}
                    _ = woken.changed() => {}
                    // A client came back for a dead node's match: take all its matches over now.
                    () = taker.takeover_wanted() => {}
                }
                if let Err(e) = taker.take_over().await {
                    tracing::error!(error = %e.message, "taking over unserved matches failed");
                }
            }
        }));
    }
    // The nodes' notices to each other (a match created, joined, adopted, finished), on a
    // connection of its own, connected again a second after it drops.
    #[cfg(feature = "postgres")]
    if let (Some(url), true) = (postgres, hub.shared()) {
        let (to, mut heard) = tokio::sync::mpsc::unbounded_channel();
        let listener_hub = hub.clone();
        tokio::spawn(async move {
            loop {
                let on = listener_hub.clone();
                let ended =
                    PostgresStore::listen(&url, to.clone(), move || on.listening(true)).await;
                listener_hub.listening(false);
                if let Err(e) = ended {
                    tracing::warn!(error = %e, "listening for the other nodes' notices failed; again in 1 s");
                }
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
        });
        let hearer = hub.clone();
        tokio::spawn(async move {
            while let Some(notice) = heard.recv().await {
                hearer.hear(&notice);
                if notice.starts_with("leaving ") {
                    wake.send_modify(|n| *n += 1);
                }
            }
        });
    }
    // Waiting matches nobody joined leave memory once they expire.
    let sweeper = hub.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            every.tick().await;
            sweeper.sweep_expired().await;
        }
    });
    let state = AppState::with_admin(hub, limits, admin_token);
    let seasons = state
        .seasons
        .resume()
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    tracing::info!(seasons, "seasons resumed");
    let tournaments = state
        .tournaments
        .resume()
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    tracing::info!(tournaments, "tournaments resumed");
    // A tournament whose process died is run by another, as its matches are.
    if state.hub.shared() {
        let taker = state.tournaments.clone();
        let mut woken = woken.clone();
        loops.push(tokio::spawn(async move {
            let mut every = tokio::time::interval(limits.takeover_every);
            loop {
                tokio::select! {
                    _ = every.tick() => {}
                    _ = woken.changed() => {}
                }
                if let Err(e) = taker.take_over().await {
                    tracing::error!(error = %e.message, "taking over unrun tournaments failed");
                }
            }
        }));
    }
    drop(woken);
    let hub = state.hub.clone();
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("listening for SIGTERM")?;
    let stopper = hub.clone();
    serve_on(listener, state, async move {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
        // Bot searches, analyses and verifies are not waited for: waiting requests are
        // answered at once and the process exits without the jobs (`Hub::stop_work`).
        stopper.stop_work();
    })
    .await?;
    // Stopped on a signal: with other nodes, hand them this one's matches at once.
    for l in loops {
        l.abort();
    }
    if hub.shared() {
        let matches = hub.leave().await;
        tracing::info!(
            matches,
            "left: the other nodes take this one's matches over"
        );
    }
    Ok(())
}

/// Serves the router of `state` on `listener` until `shutdown` resolves, with the connection
/// limits of `state.limits`: at most `connections_per_ip` open connections (WebSockets
/// included) per client address (a connection over it is answered 429 and closed), request
/// headers within `header_timeout` (which also closes idle keep-alive connections), and
/// `TCP_NODELAY` on every connection. At `shutdown` it stops accepting, lets the requests in
/// flight finish (10 s at most) and returns.
pub async fn serve_on<S: Store>(
    listener: tokio::net::TcpListener,
    state: Arc<AppState<S>>,
    shutdown: impl std::future::Future<Output = ()>,
) -> anyhow::Result<()> {
    let limits = state.limits;
    let router = app(state.clone());
    let open = Arc::new(Mutex::new(HashMap::<IpAddr, usize>::new()));
    // Tells the connections to finish; each holds a receiver, so `closed()` says they are done.
    let (stop, stopping) = tokio::sync::watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (tcp, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, say: wait rather than spin.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Another node's forwarded connections are its clients', limited there; a trusted
        // proxy's are its clients' (the proxy caps them).
        let cap = if state.hub.is_peer(remote.ip())
            || limits
                .trusted_proxies
                .iter()
                .any(|c| c.contains(remote.ip()))
        {
            usize::MAX
        } else {
            limits.connections_per_ip
        };
        let Some(slot) = Slot::take(&open, remote.ip(), cap) else {
            refuse(&tcp, limits.connections_per_ip);
            continue;
        };
        // Small messages must go out at once: without TCP_NODELAY a reveal can wait 40 ms for a
        // delayed ACK (Nagle's algorithm).
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!("TCP_NODELAY: {e}");
        }
        let io = TokioIo::new(Counted {
            io: tcp,
            _slot: slot,
        });
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(remote));
            let mut router = router.clone();
            async move { router.call(req).await }
        });
        let header_timeout = limits.header_timeout;
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder.serve_connection(io, service).with_upgrades();
            tokio::pin!(conn);
            let done = tokio::select! {
                done = conn.as_mut() => done,
                () = async { drop(stopping.wait_for(|&stop| stop).await) } => {
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
            };
            if let Err(e) = done {
                tracing::debug!("connection from {remote}: {e}");
            }
        });
    }
    drop(listener);
    let _ = stop.send(true);
    drop(stopping);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(10), stop.closed()).await;
    Ok(())
}

/// Answers a connection over the per-address cap with 429 (if the socket takes it at once) and
/// closes it.
fn refuse(tcp: &tokio::net::TcpStream, cap: usize) {
    let body = ApiError::new(
        ErrorCode::RateLimited,
        format!("too many open connections: at most {cap} from one address; close some"),
    )
    .body()
    .to_string();
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tcp.try_write(answer.as_bytes());
}

/// One open connection of a client address, counted until dropped.
struct Slot {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    ip: IpAddr,
}

impl Slot {
    fn take(open: &Arc<Mutex<HashMap<IpAddr, usize>>>, ip: IpAddr, cap: usize) -> Option<Slot> {
        let mut map = open.lock().unwrap_or_else(PoisonError::into_inner);
        let n = map.entry(ip).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(Slot {
            open: open.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut map = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

/// A connection that holds its [`Slot`] for as long as it lives, through an upgrade to a
/// WebSocket too.
struct Counted {
    io: tokio::net::TcpStream,
    _slot: Slot,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

//! Colosseum's table on the network: `colosseum serve`.
//!
//! * [`hub`]: every hosted match, each a [`colosseum_host::Match`] behind a lock, with its
//!   timer task, its bots (thinking on the blocking pool) and its store writes. Nothing is
//!   acknowledged before it is stored.
//! * [`store`]: SQLite (default, one file, WAL) or PostgreSQL behind one [`store::Store`] trait:
//!   match metadata plus the host's append-only log, from which a match is rebuilt exactly.
//! * [`api`]: the axum router (HTTP commands, a WebSocket of live views), size and rate limits,
//!   JSON errors. Every response is built from the caller's view.
//! * [`clock`]: wall time, injected.
//! * [`pages`]: the browser table (lobby, table, replay, rules), assets embedded.
//! * [`verify`]: checks a finished match's chance and bot moves against its seeds.
//!
//! The protocol is documented in `docs/server-api.md`.

#![warn(missing_docs)]

pub mod api;
pub mod clock;
pub mod error;
pub mod hub;
pub mod pages;
pub mod store;
pub mod verify;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use axum::serve::ListenerExt;

pub use api::{app, AppState, Limits};
pub use clock::{Clock, ManualClock, SystemClock};
pub use error::ApiError;
pub use hub::Hub;
pub use store::{AnyStore, PostgresStore, SqliteStore, Store};

/// Where `colosseum serve` keeps its matches.
#[derive(Clone, Debug)]
pub enum StoreChoice {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection string.
    Postgres(String),
}

/// The shortest admin token `serve` accepts.
pub const MIN_ADMIN_TOKEN: usize = 16;

/// Runs the server on `addr` until Ctrl-C: opens the store, resumes unfinished matches (setting
/// aside any that cannot be rebuilt) and serves. Prints `listening on http://ADDR` (with the
/// real port when `addr` asks for port 0) once it accepts connections. `admin_token` opens
/// `GET /api/admin/quarantine` to its bearer. Logs go through `tracing` (the caller installs a
/// subscriber).
pub async fn serve(
    addr: SocketAddr,
    store: StoreChoice,
    limits: Limits,
    admin_token: Option<String>,
) -> anyhow::Result<()> {
    if let Some(t) = &admin_token {
        anyhow::ensure!(
            t.chars().count() >= MIN_ADMIN_TOKEN && !t.chars().any(char::is_whitespace),
            "an admin token has at least {MIN_ADMIN_TOKEN} characters and no spaces"
        );
    }
    let store_name = match &store {
        StoreChoice::Sqlite(path) => format!("sqlite:{}", path.display()),
        StoreChoice::Postgres(_) => "postgres".to_string(),
    };
    let store = match store {
        StoreChoice::Sqlite(path) => AnyStore::Sqlite(
            SqliteStore::open(&path)
                .with_context(|| format!("opening the database {}", path.display()))?,
        ),
        StoreChoice::Postgres(url) => AnyStore::Postgres(
            PostgresStore::connect(&url)
                .await
                .context("connecting to PostgreSQL (--postgres)")?,
        ),
    };
    let hub = Hub::new(store, Arc::new(SystemClock), true);
    let resumed = hub
        .resume()
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    let quarantined = hub
        .quarantined()
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| {
        format!("listening on {addr} (is another server using it? --addr chooses another)")
    })?;
    let local = listener.local_addr()?;
    println!("listening on http://{local} ({resumed} unfinished matches resumed)");
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
            "{} matches are quarantined (not served); GET /api/admin/quarantine lists them",
            ids.len()
        );
    }
    let router = app(AppState::with_admin(hub, limits, admin_token));
    // Small messages must go out at once: without TCP_NODELAY a reveal can wait 40 ms for a
    // delayed ACK (Nagle's algorithm).
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!("TCP_NODELAY: {e}");
        }
    });
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await?;
    Ok(())
}

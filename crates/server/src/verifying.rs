//! `GET /api/matches/{id}/verify` as a bounded job (issue 36, hole 8).
//!
//! Verifying a match re-runs every bot search it had ([`crate::verify::verify`]): seconds of
//! CPU for a long bot match. So a finished match's report is computed once and kept (in
//! memory, the last [`KEPT`] reports); the computation runs in the bot pool
//! ([`crate::pool`], `Limits::bot_searches` at once) in the share of the address that asked,
//! so it queues fairly beside the bots' searches and is shown in `GET /api/health` and
//! `/metrics`; concurrent requests for the same match share one computation.
//!
//! A request waits for the report at most [`WAIT`]: past that it is answered `202 Accepted`
//! with `Retry-After` (the computation goes on, and a later request gets the report). A
//! request that would queue a new computation behind [`PER_SHARE`] of its own address's, or
//! behind [`QUEUED`] in all, is answered `503 busy` with `Retry-After`, and nothing is queued.
//! When the server stops, waiting requests are answered `503 busy` at once and the
//! computations are abandoned (`Verifier::stop`): nothing of them is stored.
//!
//! This module keeps the reports and bounds the queue; `Hub::verify_report` (`crate::hub`'s
//! `verify` module) runs a request through them.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::watch;

use crate::error::{ApiError, ErrorCode};

/// The most verify reports kept in memory (the oldest goes first).
pub const KEPT: usize = 1_024;
/// The longest a request waits for its report before it is answered 202.
pub const WAIT: Duration = Duration::from_secs(15);
/// The most new verify computations one address may have waiting for a slot.
pub const PER_SHARE: usize = 2;
/// The most verify computations waiting for a slot in all.
pub const QUEUED: usize = 32;
/// What `Retry-After` says to a 202 (the report is being computed).
pub const RETRY_COMPUTING_SECS: u64 = 5;
/// What `Retry-After` says to a 503 (the queue is full, or the server stops).
pub use crate::error::RETRY_BUSY_SECS;

/// A report: the JSON answered (with its `text`).
pub type ReportJson = Arc<Value>;

/// What a verify request is answered.
#[derive(Debug)]
pub enum Answer {
    /// The report (200).
    Report(ReportJson),
    /// Being computed: ask again after this many seconds (202).
    Computing(u64),
}

#[derive(Default)]
struct Kept {
    reports: HashMap<String, ReportJson>,
    order: VecDeque<String>,
}

/// The verify jobs: the reports kept and the computations running.
#[derive(Default)]
pub struct Verifier {
    kept: Mutex<Kept>,
    pub(crate) running: Mutex<HashMap<String, watch::Receiver<Option<ReportJson>>>>,
    stopping: Mutex<Option<watch::Sender<bool>>>,
    stopped: std::sync::atomic::AtomicBool,
}

impl Verifier {
    /// A report kept for match `id`.
    #[must_use]
    pub fn kept(&self, id: &str) -> Option<ReportJson> {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .reports
            .get(id)
            .cloned()
    }

    /// How many reports are kept.
    #[must_use]
    pub fn kept_count(&self) -> usize {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .reports
            .len()
    }

    pub(crate) fn keep(&self, id: &str, report: ReportJson) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.reports.insert(id.to_string(), report).is_none() {
            kept.order.push_back(id.to_string());
        }
        while kept.order.len() > KEPT {
            if let Some(old) = kept.order.pop_front() {
                kept.reports.remove(&old);
            }
        }
    }

    /// A receiver told when the server stops.
    pub(crate) fn stop_signal(&self) -> watch::Receiver<bool> {
        let mut s = self.stopping.lock().unwrap_or_else(PoisonError::into_inner);
        s.get_or_insert_with(|| watch::channel(false).0).subscribe()
    }

    /// The server stops: waiting requests are answered 503 at once; no computation starts.
    pub fn stop(&self) {
        self.stopped
            .store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(s) = self
            .stopping
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
        {
            let _ = s.send(true);
        }
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stopped.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The 503 of a full queue or a stopping server, with `Retry-After`.
#[must_use]
pub fn busy(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::Busy, message)
}

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

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::{json, Value};
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
pub const RETRY_BUSY_SECS: u64 = 30;

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
    running: Mutex<HashMap<String, watch::Receiver<Option<ReportJson>>>>,
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

    fn keep(&self, id: &str, report: ReportJson) {
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
    fn stop_signal(&self) -> watch::Receiver<bool> {
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

    fn stopped(&self) -> bool {
        self.stopped.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The 503 of a full queue or a stopping server, with `Retry-After`.
#[must_use]
pub fn busy(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::Busy, message)
}

impl<S: crate::store::Store> crate::hub::Hub<S> {
    /// Match `id`'s verify report for a request from `share` (`crate::pool::share_of`): kept,
    /// shared with a computation running, or computed now in the bot pool; waits at most
    /// `wait` (then [`Answer::Computing`]). Refuses (503 `busy`) a new computation over
    /// [`PER_SHARE`] or [`QUEUED`], and every request once the server stops. The match must be
    /// finished (409 `not_finished`).
    pub async fn verify_report(
        self: &Arc<Self>,
        id: &str,
        share: &str,
        wait: Duration,
    ) -> Result<Answer, ApiError> {
        let v = self.verifier();
        if let Some(report) = v.kept(id) {
            self.metrics().verify_cache_hits.inc();
            return Ok(Answer::Report(report));
        }
        let stopping = || {
            busy("the server is stopping: ask again once it is back (the report is not lost: it is computed again)")
        };
        if v.stopped() {
            self.metrics().verify_refused.inc();
            return Err(stopping());
        }
        let table = self.table(id).await?;
        let running = v
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned();
        let mut rx = match running {
            Some(rx) => rx,
            None => {
                let records = self.records(&table).await?;
                let queue = self.pool().verify_queue(share);
                if queue.share_queued >= PER_SHARE || queue.queued >= QUEUED {
                    self.metrics().verify_refused.inc();
                    return Err(busy(format!(
                        "too many verifies waiting ({} from your address, {} in all; at most \
                         {PER_SHARE} and {QUEUED}): ask again in {RETRY_BUSY_SECS} s; a report \
                         once computed is kept and answered at once",
                        queue.share_queued, queue.queued
                    )));
                }
                let mut map = v.running.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(rx) = map.get(id) {
                    rx.clone()
                } else {
                    let (tx, rx) = watch::channel(None);
                    map.insert(id.to_string(), rx.clone());
                    drop(map);
                    let hub = self.clone();
                    let (id, share) = (id.to_string(), share.to_string());
                    tokio::spawn(async move {
                        let done = hub
                            .in_slot(&share, crate::pool::Kind::Verify, move || {
                                let report = crate::verify::verify(&records);
                                let text = report.text();
                                let mut v = json!(report);
                                v["text"] = json!(text);
                                v
                            })
                            .await;
                        let v = hub.verifier();
                        if let Some(report) = done {
                            let report = Arc::new(report);
                            hub.metrics().verify_done.inc();
                            v.keep(&id, report.clone());
                            let _ = tx.send(Some(report));
                        }
                        v.running
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .remove(&id);
                    });
                    rx
                }
            }
        };
        let mut stop = v.stop_signal();
        if v.stopped() {
            self.metrics().verify_refused.inc();
            return Err(stopping());
        }
        let got = tokio::select! {
            r = tokio::time::timeout(wait, rx.wait_for(Option::is_some)) => r,
            _ = stop.wait_for(|s| *s) => {
                self.metrics().verify_refused.inc();
                return Err(stopping());
            }
        };
        match got {
            Ok(Ok(report)) => Ok(Answer::Report(report.clone().expect("waited for a report"))),
            // The computation ended without a report: the server stops, or it panicked.
            Ok(Err(_)) if v.stopped() => Err(stopping()),
            Ok(Err(_)) => Err(ApiError::internal("verifying", "the verify job failed")),
            Err(_) => Ok(Answer::Computing(RETRY_COMPUTING_SECS)),
        }
    }
}

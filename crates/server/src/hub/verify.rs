//! A finished match's verify report, computed once in the bot pool and kept
//! (`crate::verifying` keeps the reports and bounds the queue).

use std::sync::PoisonError;

use super::*;
use crate::verifying::{busy, Answer, PER_SHARE, QUEUED, RETRY_BUSY_SECS, RETRY_COMPUTING_SECS};

impl<S: Store> Hub<S> {
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

//! The token buckets of the rate limits (requests, creations and chat messages per client),
//! read at the hub's injected clock (`crate::clock`).

use std::collections::HashMap;
use std::sync::Mutex;

/// A token bucket. It reads the time it is given, the hub's injected clock
/// ([`Hub::now`], `crate::clock`), so a test refills it by moving a `ManualClock`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bucket {
    tokens: f64,
    /// When it was last filled, wall ms.
    last_ms: u64,
}

impl Bucket {
    pub(crate) fn new(burst: f64, now_ms: u64) -> Self {
        Bucket {
            tokens: burst,
            last_ms: now_ms,
        }
    }

    /// What it holds at `now_ms`, at `per_second`, at most `burst` (a clock set back refills
    /// nothing).
    pub(crate) fn level(&self, now_ms: u64, per_second: f64, burst: f64) -> f64 {
        let elapsed = now_ms.saturating_sub(self.last_ms) as f64 / 1000.0;
        (self.tokens + elapsed * per_second).min(burst)
    }

    /// Takes one token at `now_ms` if there is one.
    pub(crate) fn take(&mut self, now_ms: u64, per_second: f64, burst: f64) -> bool {
        self.tokens = self.level(now_ms, per_second, burst);
        self.last_ms = self.last_ms.max(now_ms);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Takes a token at `now_ms` (the hub's clock) from `key`'s bucket in `buckets`.
pub(crate) fn take_from(
    buckets: &Mutex<HashMap<String, Bucket>>,
    key: &str,
    now_ms: u64,
    rate: f64,
    full: f64,
) -> bool {
    let mut buckets = buckets
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if buckets.len() > 100_000 {
        // Forget clients that have been quiet long enough to be full again.
        buckets.retain(|_, b| b.level(now_ms, rate, full) < full);
    }
    buckets
        .entry(key.to_string())
        .or_insert_with(|| Bucket::new(full, now_ms))
        .take(now_ms, rate, full)
}

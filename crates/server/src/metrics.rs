//! What an operator watches: Prometheus metrics at `GET /metrics`, and the probes `GET /livez`
//! and `GET /readyz` (docs/operations.md).
//!
//! Counters and histograms are updated where things happen (the hub's commit, the WebSocket
//! handler); gauges that describe the present (live matches, bot searches) are read when scraped.

use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

/// The server's metrics, one set per process (a node).
pub struct Metrics {
    registry: Registry,
    /// Accepted submissions (a seat's move taken, by a player, a bot or the clock's default).
    pub submissions: Counter,
    /// Reveals: decisions resolved (both seats' moves shown, or a lone seat's).
    pub reveals: Counter,
    /// Moves the game refused.
    pub refusals: Counter,
    /// Matches that finished in this process.
    pub finished: Counter,
    /// From a request that completes a decision reaching the hub to every connection being told,
    /// the store's durable write included.
    pub reveal_latency: Histogram,
    /// One durable write of a match's new log entries.
    pub store_write: Histogram,
    /// Open WebSockets.
    pub sockets: Gauge,
    live: Gauge,
    loaded: Gauge,
    bots_running: Gauge,
    bots_queued: Gauge,
    bots_max: Gauge,
    /// Notices from the other nodes (and this one) heard on PostgreSQL (LISTEN/NOTIFY).
    pub notices: Counter,
    store_commits: Counter,
    store_appends: Counter,
    bot_shares: Gauge,
    share_queued: Family<ShareLabel, Gauge>,
    share_running: Family<ShareLabel, Gauge>,
    verify_queued: Gauge,
    verify_running: Gauge,
    /// Verify reports computed (`GET /api/matches/{id}/verify`).
    pub verify_done: Counter,
    /// Verify requests answered from the cache.
    pub verify_cache_hits: Counter,
    /// Verify requests refused because the queue was full (503).
    pub verify_refused: Counter,
    /// How long bot searches waited for a slot (their clocks held meanwhile).
    pub bot_wait: Histogram,
    webhook_posts: Family<OutcomeLabel, Counter>,
}

/// A gauge of open things that goes down again when dropped.
pub struct Open<'a>(&'a Gauge);

impl<'a> Open<'a> {
    /// Counts one more on `gauge` until dropped.
    pub fn on(gauge: &'a Gauge) -> Self {
        gauge.inc();
        Open(gauge)
    }
}

impl Drop for Open<'_> {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// What the hub knows at a scrape.
pub struct Snapshot {
    /// Started, unfinished matches held in memory.
    pub live: usize,
    /// Matches held in memory (this node's), waiting ones included.
    pub loaded: usize,
    /// Bot searches running, queued, and the cap.
    pub bots: (usize, usize, usize),
    /// The store's group commits so far: (transactions, log appends in them).
    pub commits: (u64, u64),
    /// The bot pool's busy shares: (label, queued, running).
    pub shares: Vec<(String, usize, usize)>,
    /// Verifies in the bot pool: (queued, running).
    pub verify: (usize, usize),
    /// Webhook posts by outcome, over every webhook (`crate::webhooks::Stats::outcomes`).
    pub webhooks: Vec<(&'static str, u64)>,
}

/// An outcome's label on `webhook_posts`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, prometheus_client::encoding::EncodeLabelSet)]
struct OutcomeLabel {
    outcome: String,
}

/// A share's label on the per-share gauges.
#[derive(Clone, Debug, Hash, PartialEq, Eq, prometheus_client::encoding::EncodeLabelSet)]
struct ShareLabel {
    share: String,
}

fn seconds() -> impl Iterator<Item = f64> {
    // 0.1 ms to about 3.3 s.
    exponential_buckets(0.0001, 2.0, 16)
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("colosseum");
        let m = Metrics {
            submissions: Counter::default(),
            reveals: Counter::default(),
            refusals: Counter::default(),
            finished: Counter::default(),
            reveal_latency: Histogram::new(seconds()),
            store_write: Histogram::new(seconds()),
            sockets: Gauge::default(),
            live: Gauge::default(),
            loaded: Gauge::default(),
            bots_running: Gauge::default(),
            bots_queued: Gauge::default(),
            bots_max: Gauge::default(),
            registry: Registry::default(),
            notices: Counter::default(),
            store_commits: Counter::default(),
            store_appends: Counter::default(),
            bot_shares: Gauge::default(),
            share_queued: Family::default(),
            share_running: Family::default(),
            verify_queued: Gauge::default(),
            verify_running: Gauge::default(),
            verify_done: Counter::default(),
            verify_cache_hits: Counter::default(),
            verify_refused: Counter::default(),
            bot_wait: Histogram::new(exponential_buckets(0.001, 2.0, 18)),
            webhook_posts: Family::default(),
        };
        registry.register(
            "webhook_posts",
            "Webhook posts by outcome: sent, retried, rate_limited (429s waited out), shed (reveals first, when a queue is full), dropped_*",
            m.webhook_posts.clone(),
        );
        registry.register(
            "bot_shares",
            "Shares of the bot pool (creating addresses, tournaments, verifying addresses) with a job queued or running",
            m.bot_shares.clone(),
        );
        registry.register(
            "bot_share_queued",
            "A busy share's jobs waiting for a slot (label: salted per process, never the address)",
            m.share_queued.clone(),
        );
        registry.register(
            "bot_share_running",
            "A busy share's jobs running (label: salted per process, never the address)",
            m.share_running.clone(),
        );
        registry.register(
            "bot_wait_seconds",
            "How long a bot search waited for a slot (its clock held meanwhile)",
            m.bot_wait.clone(),
        );
        registry.register(
            "verify_jobs_queued",
            "Verifies waiting for a slot in the bot pool",
            m.verify_queued.clone(),
        );
        registry.register(
            "verify_jobs_running",
            "Verifies running in the bot pool",
            m.verify_running.clone(),
        );
        registry.register(
            "verify_jobs_done",
            "Verify reports computed (each finished match's once)",
            m.verify_done.clone(),
        );
        registry.register(
            "verify_cache_hits",
            "Verify requests answered from the kept report",
            m.verify_cache_hits.clone(),
        );
        registry.register(
            "verify_refused",
            "Verify requests refused with 503 because the queue was full or the server stopping",
            m.verify_refused.clone(),
        );
        registry.register(
            "notices",
            "Notices heard from the nodes on PostgreSQL (LISTEN/NOTIFY)",
            m.notices.clone(),
        );
        registry.register("submissions", "Submissions accepted", m.submissions.clone());
        registry.register(
            "reveals",
            "Decisions resolved (moves revealed)",
            m.reveals.clone(),
        );
        registry.register("refusals", "Moves refused by the game", m.refusals.clone());
        registry.register(
            "matches_finished",
            "Matches finished on this node",
            m.finished.clone(),
        );
        registry.register(
            "reveal_latency_seconds",
            "From the request that completes a decision to every connection told (store write included)",
            m.reveal_latency.clone(),
        );
        registry.register(
            "store_write_seconds",
            "One durable write of a match's new log entries",
            m.store_write.clone(),
        );
        registry.register(
            "store_commits",
            "Group commits of the store (SQLite transactions, PostgreSQL statements)",
            m.store_commits.clone(),
        );
        registry.register(
            "store_commit_appends",
            "Log appends taken by the group commits (over store_commits: the mean group)",
            m.store_appends.clone(),
        );
        registry.register("websockets", "Open WebSockets", m.sockets.clone());
        registry.register(
            "matches_live",
            "Started, unfinished matches served by this node",
            m.live.clone(),
        );
        registry.register(
            "matches_owned",
            "Matches held by this node (waiting ones included)",
            m.loaded.clone(),
        );
        registry.register(
            "bot_searches_running",
            "Bot searches running",
            m.bots_running.clone(),
        );
        registry.register(
            "bot_searches_queued",
            "Bot searches waiting for a free slot",
            m.bots_queued.clone(),
        );
        registry.register(
            "bot_searches_max",
            "The most bot searches run at once",
            m.bots_max.clone(),
        );
        Metrics { registry, ..m }
    }
}

fn set(g: &Gauge, n: usize) {
    g.set(i64::try_from(n).unwrap_or(i64::MAX));
}

impl Metrics {
    /// The text exposition of every metric, with the present's gauges from `now`.
    pub fn render(&self, now: &Snapshot) -> String {
        set(&self.live, now.live);
        set(&self.loaded, now.loaded);
        set(&self.bots_running, now.bots.0);
        set(&self.bots_queued, now.bots.1);
        set(&self.bots_max, now.bots.2);
        set(&self.bot_shares, now.shares.len());
        set(&self.verify_queued, now.verify.0);
        set(&self.verify_running, now.verify.1);
        // Only the shares busy now: the families start empty at every scrape.
        self.share_queued.clear();
        self.share_running.clear();
        for (share, queued, running) in now.shares.iter().take(crate::pool::SHARES_SHOWN * 5) {
            let label = ShareLabel {
                share: share.clone(),
            };
            set(&self.share_queued.get_or_create(&label), *queued);
            set(&self.share_running.get_or_create(&label), *running);
        }
        // The store counts its own commits; a counter here shows its total.
        let (commits, appends) = now.commits;
        self.store_commits
            .inner()
            .store(commits, std::sync::atomic::Ordering::Relaxed);
        self.store_appends
            .inner()
            .store(appends, std::sync::atomic::Ordering::Relaxed);
        for (outcome, n) in &now.webhooks {
            self.webhook_posts
                .get_or_create(&OutcomeLabel {
                    outcome: (*outcome).to_string(),
                })
                .inner()
                .store(*n, std::sync::atomic::Ordering::Relaxed);
        }
        let mut out = String::new();
        encode(&mut out, &self.registry).expect("writing to a String does not fail");
        out
    }

    /// Records a duration in `histogram`, in seconds.
    pub fn observe(histogram: &Histogram, took: Duration) {
        histogram.observe(took.as_secs_f64());
    }
}

//! [`Limits`]: the size, rate, time and resource limits of a server, each a `colosseum serve`
//! flag (re-exported as `crate::api::Limits` and `colosseum_server::Limits`).

use std::time::Duration;
/// Size, rate, time and resource limits: everything a hostile client could otherwise exhaust.
/// Each has a `colosseum serve` flag; `docs/server-api.md` ("Limits") lists them.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The largest request body, in bytes.
    pub body_bytes: usize,
    /// The largest WebSocket message, in bytes.
    pub ws_message_bytes: usize,
    /// Requests a second per client address (HTTP), sustained.
    pub http_per_second: f64,
    /// Requests a client address may burst above the sustained rate.
    pub http_burst: f64,
    /// Messages a second per WebSocket connection, sustained.
    pub ws_per_second: f64,
    /// Messages a WebSocket connection may burst.
    pub ws_burst: f64,
    /// The shortest time a timed control may give a decision (`per_decision_ms`, each
    /// `per_kind_ms`), in ms.
    pub min_decision_ms: u64,
    /// The longest time a timed control may give a decision, in ms.
    pub max_decision_ms: u64,
    /// The largest bank a timed control may give, in ms.
    pub max_bank_ms: u64,
    /// The longest a server bot may think about one decision (`mcts:ms=N`), in ms.
    pub bot_max_ms: u64,
    /// The most iterations a server bot may use for one decision (`mcts:iters=N`).
    pub bot_max_iters: u64,
    /// Bot searches that may run at once in the whole server; the others wait their turn.
    pub bot_searches: usize,
    /// How long a match stays open while not both seats have joined (status `waiting`), in ms.
    pub waiting_expiry_ms: u64,
    /// How long a waiting match stays in the lobby's public list, in ms (it stays joinable by
    /// its links until `waiting_expiry_ms`).
    pub lobby_waiting_ms: u64,
    /// Chat messages one author (a seat, or a spectator's address) may send a minute in one
    /// match, sustained.
    pub chat_per_minute: f64,
    /// Chat messages one author may send in a burst.
    pub chat_burst: f64,
    /// The most chat messages one match keeps (both channels together).
    pub chat_max_lines: usize,
    /// The most lobby entries one `GET /api/matches` answers (`?limit=`).
    pub lobby_page_max: usize,
    /// Open TCP connections (WebSockets included) per client address. Generous (256): a
    /// browser opens six connections to load a page, and many people may share one address (a
    /// LAN event, a school, a carrier's NAT).
    pub connections_per_ip: usize,
    /// Matches one client address may create a minute, sustained.
    pub creates_per_minute: f64,
    /// Matches one client address may create in a burst.
    pub creates_burst: f64,
    /// How long a connection may take to send a request's headers, and how long an idle
    /// keep-alive connection stays open.
    pub header_timeout: Duration,
    /// How long one HTTP request (body included) may take before it is answered 408.
    pub request_timeout: Duration,
    /// How long a WebSocket may be silent before the server pings it (and how often it pings
    /// while it stays silent).
    pub ws_ping_interval: Duration,
    /// A WebSocket silent (no message, no pong) this long is closed.
    pub ws_idle_timeout: Duration,
    /// Refused submissions logged per seat and decision in a new match; later ones are only
    /// counted (see `colosseum_host::MatchConfig::logged_refusals`).
    pub logged_refusals: u32,
    /// Changes of mind taken per seat and decision in a new match; later ones are refused with
    /// 409 `too_many_changes` (see `colosseum_host::MatchConfig::changes`).
    pub changes: u32,
    /// Webhook posts waiting per webhook URL; a post beyond it is dropped (counted, logged).
    pub webhook_queue: usize,
    /// Attempts per webhook post before it is dropped (counted, logged).
    pub webhook_attempts: u32,
    /// The first retry's wait in ms; each later one doubles it (a 429's `retry_after` wins).
    pub webhook_backoff_ms: u64,
    /// How long one webhook request may take before it counts as failed.
    pub webhook_timeout_ms: u64,
    /// The least time in ms between two posts to one Slack webhook (Slack allows about one a
    /// second); Discord webhooks are paced by their answers' rate-limit headers.
    pub webhook_slack_pace_ms: u64,
    /// The iteration budget of the search in the analysis after the game
    /// (`POST /api/matches/{id}/analysis`), capped by `bot_max_iters`.
    pub analysis_iters: u64,
    /// Reverse proxies trusted to name their client in `X-Forwarded-For` (`--trusted-proxy`):
    /// a request from one of them counts, for the per-address limits, as from the client it
    /// names; their connections are not capped per address (the proxy should cap them).
    pub trusted_proxies: &'static [crate::forward::Cidr],
    /// How often a node on PostgreSQL looks for matches and tournaments nobody serves (their
    /// node died) and takes them over (`--takeover-secs`); a node that leaves on a signal says
    /// so, and the others look at once.
    pub takeover_every: Duration,
    /// How long an append to the match log that would commit alone waits for others to share
    /// its transaction (`--commit-window-us`; zero commits at once). Never acknowledged before
    /// its commit.
    pub commit_window: Duration,
    /// Webhook hosts allowed beside Discord's and Slack's (`--webhook-hosts`; `HOST` any port,
    /// `HOST:PORT` that port); `crate::webhooks::guard`.
    pub webhook_hosts: &'static [String],
    /// Webhooks may reach private, loopback and other non-public addresses, and use `http`
    /// (`--webhook-allow-private`). Off by default; dangerous on a public server: whoever may
    /// set a webhook can then reach the server's own network.
    pub webhook_allow_private: bool,
    /// The Discord application (`--discord-app-id` ...; `crate::discord`); `None` turns
    /// `POST /api/discord/interactions` off (404).
    pub discord: Option<&'static crate::discord::Config>,
    /// Where the webhooks' queued posts are kept across a restart
    /// (`crate::webhooks::Webhooks::keep_outbox`; `serve --webhook-outbox`); `None`: beside a
    /// SQLite database (`DB.outbox`), and nowhere with PostgreSQL or a database in memory.
    pub webhook_outbox: Option<&'static std::path::Path>,
}

/// One day in ms: the longest decision time and bank a time control may ask for by default.
pub const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// The lobby's page size when `?limit=` is not given.
pub const LOBBY_PAGE: usize = 50;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 64 * 1024,
            ws_message_bytes: 16 * 1024,
            http_per_second: 20.0,
            http_burst: 60.0,
            ws_per_second: 10.0,
            ws_burst: 30.0,
            min_decision_ms: 1_000,
            max_decision_ms: DAY_MS,
            max_bank_ms: DAY_MS,
            bot_max_ms: 5_000,
            bot_max_iters: 50_000,
            bot_searches: std::thread::available_parallelism().map_or(1, |n| n.get()),
            waiting_expiry_ms: DAY_MS,
            lobby_waiting_ms: 10 * 60 * 1000,
            chat_per_minute: 20.0,
            chat_burst: 5.0,
            chat_max_lines: 1000,
            lobby_page_max: 200,
            connections_per_ip: 256,
            creates_per_minute: 10.0,
            creates_burst: 20.0,
            header_timeout: Duration::from_secs(15),
            request_timeout: Duration::from_secs(30),
            ws_ping_interval: Duration::from_secs(20),
            ws_idle_timeout: Duration::from_secs(60),
            logged_refusals: colosseum_host::DEFAULT_LOGGED_REFUSALS,
            changes: colosseum_host::DEFAULT_CHANGES,
            webhook_queue: 64,
            webhook_attempts: 5,
            webhook_backoff_ms: 1_000,
            webhook_timeout_ms: 10_000,
            analysis_iters: crate::analysis::ANALYSIS_ITERS,
            trusted_proxies: &[],
            takeover_every: crate::TAKEOVER_EVERY,
            webhook_slack_pace_ms: 1_000,
            commit_window: crate::COMMIT_WINDOW,
            webhook_hosts: &[],
            webhook_allow_private: false,
            discord: None,
            webhook_outbox: None,
        }
    }
}

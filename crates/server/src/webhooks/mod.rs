//! Announcements to chat webhooks (Discord or Slack): a tournament's pairings, results and
//! standings, and each match's start, reveals and result with the board as a PNG (in a build
//! with the `board-pictures` feature; without it the same posts carry no picture).
//!
//! Everything posted is built from what a spectator may see: a match's words come from its
//! spectator move log ([`colosseum_host::Match::move_log`]) and its board from the game's SVG
//! hook ([`colosseum_games::GameEntry::board_svg`]) over the spectator's view, so a hidden card
//! or a move before its reveal is never posted.
//!
//! Delivery never blocks play: [`Webhooks::post`] puts the post on the webhook's bounded queue
//! and returns; one background task per webhook URL sends its posts in order, retrying a
//! failure with exponential backoff (a 429's `retry_after` wins) and dropping a post after
//! [`crate::Limits::webhook_attempts`] attempts, or at once when the queue is full; drops are
//! counted and logged. The board is rendered on the blocking pool by that task. A webhook URL
//! is a secret: it is never shown to seats or spectators and never logged (only its host).
//!
//! Where a webhook may post is checked by [`guard`]: `https` to Discord's and Slack's webhook
//! hosts (others only by the operator's `--webhook-hosts`), every address the name resolves to
//! public, the connection made to the checked address, no redirects.

pub mod announce;
pub mod guard;
mod outbox;
#[cfg(feature = "board-pictures")]
pub mod png;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Request, StatusCode, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::Notify;

use crate::error::ApiError;
use crate::limits::Limits;

/// The longest webhook URL accepted.
pub const MAX_URL: usize = 2_000;
/// The longest text of one post (Discord's `content` limit); longer text is cut.
pub const MAX_TEXT: usize = 2_000;
/// The longest wait a 429's `retry_after` may ask for.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(300);

/// Which webhook dialect a URL speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WebhookFormat {
    /// Discord's `execute webhook`: JSON `{content, embeds, attachments, allowed_mentions}`,
    /// as `multipart/form-data` (`payload_json` and `files[0]`, the board PNG) when a board
    /// is attached.
    #[default]
    Discord,
    /// Slack's incoming webhook: JSON `{text}` (mrkdwn). Incoming webhooks take no files, so
    /// no board is attached.
    Slack,
    /// A channel of this server's Discord application ([`crate::discord`]): the webhook's `url`
    /// is the channel's id, and posts go to `POST {api_base}/channels/{id}/messages` with the
    /// bot token, as Discord's "Create Message" takes them (the same JSON and multipart as
    /// `discord`, with `components`: a reveal after which the match goes on carries the "Make
    /// your move" button). Only the Discord module makes one
    /// (`crate::discord::post::channel_hook`); [`Webhooks::check`] refuses it from an API
    /// client. The API base is the operator's setting, so the [`guard`] does not apply.
    #[serde(rename = "discord_channel")]
    DiscordChannel,
}

/// Set on a [`WebhookConfig`] made by this server's Discord application
/// (`crate::discord::post::channel_hook`), never read from JSON: only such a Discord channel
/// target passes [`Webhooks::check`]. It does not take part in comparisons (a target read back
/// from the store equals the one made).
#[derive(Clone, Copy, Debug, Default)]
pub struct Issued(pub(crate) bool);

impl PartialEq for Issued {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Issued {}

impl std::hash::Hash for Issued {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// A webhook: where to post, and in which dialect (or a Discord channel of this server's
/// application: [`WebhookFormat::DiscordChannel`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookConfig {
    /// The webhook's URL (`https://`, on an allowed host: [`guard`]): a secret.
    pub url: String,
    /// `discord` (the default) or `slack`.
    #[serde(default)]
    pub format: WebhookFormat,
    /// `all` (the default: every reveal) or `results` (results, standings and host actions
    /// only).
    #[serde(default, skip_serializing_if = "Verbosity::is_all")]
    pub verbosity: Verbosity,
    /// What the match's posts are titled with before the game and players: a tournament's
    /// board is `Cup, round 2, board 1` ([`WebhookConfig::for_board`]); at most
    /// [`MAX_LABEL`] characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Made by this server's Discord application (never read from JSON).
    #[serde(skip)]
    pub issued: Issued,
}

/// The longest [`WebhookConfig::label`].
pub const MAX_LABEL: usize = 200;

/// What a webhook is sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verbosity {
    /// Every post: a match's start and each reveal too.
    #[default]
    All,
    /// The posts of the highest priority only ([`TOP`]): results, standings, host actions.
    Results,
}

impl Verbosity {
    fn is_all(&self) -> bool {
        *self == Verbosity::All
    }

    /// Whether a webhook of this verbosity is sent `post`.
    #[must_use]
    pub fn wants(self, post: &Post) -> bool {
        self == Verbosity::All || post.priority() == TOP
    }
}

impl WebhookConfig {
    /// The webhook, checked against `limits`' webhook policy ([`guard::Policy`]): an `https`
    /// URL (`http` too with `webhook_allow_private`) on an allowed host and port, no user
    /// information, a host written as an address public, at most [`MAX_URL`] bytes, no spaces.
    /// The addresses a name resolves to are checked by [`Webhooks::check`] and at every
    /// connection.
    ///
    /// # Errors
    /// 400 `bad_request` saying what is wrong and what is allowed.
    pub fn checked(self, limits: &Limits) -> Result<Self, ApiError> {
        self.checked_by(&guard::Policy::of(limits))
    }

    /// The webhook for one board of a tournament: its posts name the tournament, the round and
    /// the board (1-based).
    #[must_use]
    pub fn for_board(&self, tournament: &str, round: usize, board: usize) -> Self {
        WebhookConfig {
            label: Some(format!("{tournament}, round {round}, board {board}")),
            ..self.clone()
        }
    }

    /// `title` after the label, if there is one: `Cup, round 2, board 1 — Goofspiel: A v B`.
    #[must_use]
    pub fn titled(&self, title: &str) -> String {
        match &self.label {
            Some(label) => format!("{label} — {title}"),
            None => title.to_string(),
        }
    }

    fn checked_by(mut self, policy: &guard::Policy) -> Result<Self, ApiError> {
        self.url = self.url.trim().to_string();
        if self.format == WebhookFormat::DiscordChannel {
            // A channel id, posted to through the operator's own API base: no URL to guard.
            if self.url.is_empty()
                || self.url.len() > 20
                || !self.url.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(ApiError::bad_request(format!(
                    "a Discord channel target's id is its digits, not {:?}",
                    self.url
                )));
            }
        }
        self.label = self
            .label
            .map(|l| {
                l.chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect::<String>()
                    .trim()
                    .chars()
                    .take(MAX_LABEL)
                    .collect::<String>()
            })
            .filter(|l| !l.is_empty());
        let refuse =
            |why: &str| ApiError::bad_request(format!("`webhook.url` {why}: {}", policy.allowed()));
        if self.url.is_empty() {
            return Err(refuse("is empty"));
        }
        if self.url.len() > MAX_URL {
            return Err(refuse("is too long"));
        }
        if self
            .url
            .chars()
            .any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(refuse("has spaces or control characters"));
        }
        if self.format == WebhookFormat::DiscordChannel {
            return Ok(self);
        }
        let uri: Uri = self.url.parse().map_err(|_| refuse("is not a URL"))?;
        policy.check_url(&uri).map_err(|why| refuse(&why))?;
        Ok(self)
    }

    /// The key of the webhook's queue: its URL, or its channel.
    fn key(&self) -> String {
        match self.format {
            WebhookFormat::DiscordChannel => format!("discord-channel:{}", self.url),
            _ => self.url.clone(),
        }
    }

    /// The URL's host, for logs (the URL itself is a secret).
    #[must_use]
    pub fn host(&self) -> String {
        if self.format == WebhookFormat::DiscordChannel {
            return format!("discord channel {}", self.url);
        }
        self.url
            .parse::<Uri>()
            .ok()
            .and_then(|u| u.host().map(str::to_string))
            .unwrap_or_default()
    }
}

/// One announcement.
#[derive(Clone, Debug, PartialEq)]
pub struct Post {
    /// What it announces: `pairings`, `start`, `reveal`, `clock` (a turn's time is up),
    /// `result`, `standings`, `webhook`.
    pub kind: &'static str,
    /// Its first line (bold).
    pub title: String,
    /// The lines after it.
    pub lines: Vec<String>,
    /// The board to draw and attach.
    pub board: Option<Board>,
}

/// A board picture to draw ([`png::board_png`]): the game, the spectator's view, and the
/// players' names it is labelled with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// The game's registry id.
    pub game: String,
    /// The spectator's view of the game.
    pub view: Value,
    /// `p1`'s and `p2`'s names as posted ([`announce::names`]).
    pub names: [String; 2],
}

impl Post {
    /// How much the post matters when its queue is full: 0 is shed first (a reveal, a chance
    /// draw), 1 next (a match's start, a round's pairings, a turn's time up), [`TOP`] never (a result,
    /// standings, a host's action, the webhook's first post).
    #[must_use]
    pub fn priority(&self) -> u8 {
        match self.kind {
            "reveal" | "drawn" => 0,
            "start" | "pairings" | "clock" => 1,
            _ => TOP,
        }
    }

    /// The post's text: the title in bold, then the lines (cut at [`MAX_TEXT`]).
    #[must_use]
    pub fn text(&self, format: WebhookFormat) -> String {
        let title = match format {
            WebhookFormat::Slack => format!("*{}*", slack_escape(&self.title)),
            _ => format!("**{}**", self.title),
        };
        let mut out = title;
        for line in &self.lines {
            out.push('\n');
            match format {
                WebhookFormat::Slack => out.push_str(&slack_escape(line)),
                _ => out.push_str(line),
            }
        }
        if out.chars().count() > MAX_TEXT {
            out = out.chars().take(MAX_TEXT - 1).collect::<String>() + "…";
        }
        out
    }
}

fn slack_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// What one request carries: its content type and body.
#[derive(Clone, Debug)]
pub struct Payload {
    /// The `Content-Type` header.
    pub content_type: String,
    /// The body.
    pub body: Bytes,
}

/// The multipart boundary (never inside a PNG's bytes by chance: the PNG is a part's whole
/// body and the boundary is long and checked against it).
const BOUNDARY: &str = "colosseum-board-2f0c8e6a41d94b7fb0e5";

/// The request for `post` in `format`, with the board's PNG when there is one (Discord only).
#[must_use]
pub fn payload(post: &Post, format: WebhookFormat, png: Option<&[u8]>) -> Payload {
    payload_with(post, format, png, None)
}

/// [`payload`] with message `components` (a Discord channel target only: a webhook that is not
/// owned by an application may not send them).
#[must_use]
pub fn payload_with(
    post: &Post,
    format: WebhookFormat,
    png: Option<&[u8]>,
    components: Option<Value>,
) -> Payload {
    let text = post.text(format);
    match format {
        WebhookFormat::Slack => Payload {
            content_type: "application/json".into(),
            body: Bytes::from(json!({ "text": text }).to_string()),
        },
        WebhookFormat::Discord | WebhookFormat::DiscordChannel => {
            let mut payload = json!({
                "content": text,
                // Player names are not allowed to ping anyone.
                "allowed_mentions": {"parse": []},
            });
            if let Some(components) = components {
                payload["components"] = components;
            }
            let Some(png) = png.filter(|p| !contains(p, BOUNDARY.as_bytes())) else {
                return Payload {
                    content_type: "application/json".into(),
                    body: Bytes::from(payload.to_string()),
                };
            };
            payload["embeds"] = json!([{"image": {"url": "attachment://board.png"}}]);
            payload["attachments"] = json!([{"id": 0, "filename": "board.png"}]);
            let mut body = Vec::with_capacity(png.len() + 1024);
            body.extend_from_slice(
                format!(
                    "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\
                     Content-Type: application/json\r\n\r\n{payload}\r\n--{BOUNDARY}\r\n\
                     Content-Disposition: form-data; name=\"files[0]\"; filename=\"board.png\"\r\n\
                     Content-Type: image/png\r\n\r\n"
                )
                .as_bytes(),
            );
            body.extend_from_slice(png);
            body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
            Payload {
                content_type: format!("multipart/form-data; boundary={BOUNDARY}"),
                body: Bytes::from(body),
            }
        }
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// One webhook's delivery counts (and, summed over every webhook, the node's: `GET /metrics`).
#[derive(Debug, Default)]
pub struct Stats {
    /// Posts delivered (a 2xx answer).
    pub sent: AtomicU64,
    /// Retries after a failed attempt (a 429 included).
    pub retried: AtomicU64,
    /// 429 answers (each waited out and the same post sent again; never a reason to drop).
    pub rate_limited: AtomicU64,
    /// Posts of lower priority (reveals first) shed because the queue was full.
    pub shed: AtomicU64,
    /// Posts of the highest priority (results, standings, host actions) dropped because the
    /// queue held [`HARD_CAP`] times its size of them: never in practice.
    pub dropped_full: AtomicU64,
    /// Posts dropped after the last attempt failed (429s are not counted as attempts).
    pub dropped_failed: AtomicU64,
    /// Posts dropped at once because the webhook's name resolved to a refused address
    /// ([`guard::refused_address`]).
    pub dropped_refused: AtomicU64,
}

impl Stats {
    /// The counts as JSON.
    #[must_use]
    pub fn json(&self) -> Value {
        let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
        json!({
            "sent": n(&self.sent),
            "retried": n(&self.retried),
            "rate_limited": n(&self.rate_limited),
            "shed": n(&self.shed),
            "dropped_queue_full": n(&self.dropped_full),
            "dropped_after_retries": n(&self.dropped_failed),
            "dropped_refused_address": n(&self.dropped_refused),
        })
    }

    /// The counts by name, for `GET /metrics` (`colosseum_webhook_posts_total{outcome}`).
    #[must_use]
    pub fn outcomes(&self) -> Vec<(&'static str, u64)> {
        let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
        vec![
            ("sent", n(&self.sent)),
            ("retried", n(&self.retried)),
            ("rate_limited", n(&self.rate_limited)),
            ("shed", n(&self.shed)),
            ("dropped_queue_full", n(&self.dropped_full)),
            ("dropped_after_retries", n(&self.dropped_failed)),
            ("dropped_refused_address", n(&self.dropped_refused)),
        ]
    }
}

/// A webhook's counts and the node's totals, counted together.
#[derive(Clone)]
struct Counts {
    hook: Arc<Stats>,
    all: Arc<Stats>,
}

impl Counts {
    fn add(&self, which: fn(&Stats) -> &AtomicU64) {
        which(&self.hook).fetch_add(1, Ordering::Relaxed);
        which(&self.all).fetch_add(1, Ordering::Relaxed);
    }
}

/// How many times the queue's size of highest-priority posts a queue holds before it drops one.
pub const HARD_CAP: usize = 16;

type HttpsClient = Client<hyper_rustls::HttpsConnector<guard::GuardedConnector>, Full<Bytes>>;

/// The delivery settings, from [`Limits`].
#[derive(Clone, Copy, Debug)]
struct Settings {
    queue: usize,
    attempts: u32,
    backoff: Duration,
    timeout: Duration,
    slack_pace: Duration,
}

/// A post waiting in a queue: its outbox id (0: none), the post, and whether its match goes on
/// after it ([`Webhooks::post_inviting`]).
struct Queued {
    id: u64,
    post: Post,
    live: bool,
}

impl Queued {
    fn priority(&self) -> u8 {
        self.post.priority()
    }
}

/// One webhook URL's queue of posts, by priority ([`Post::priority`]), in order.
struct Queue {
    posts: Mutex<VecDeque<Queued>>,
    wake: Notify,
    counts: Counts,
    /// Set when the delivery task stops (the runtime shut down).
    closed: std::sync::atomic::AtomicBool,
}

impl Queue {
    /// Puts `post` at the end. When `size` posts are waiting, the oldest post of the lowest
    /// priority among them and `post` is shed (`post` itself when it is of that priority and no
    /// older one is); a post of the highest priority is never shed, and only dropped past
    /// [`HARD_CAP`] times `size`. The order of the posts kept is the order they came in.
    /// What was dropped, if anything.
    fn push(&self, post: Queued, size: usize) -> Option<Queued> {
        let mut posts = self
            .posts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if posts.len() < size {
            posts.push_back(post);
            return None;
        }
        let lowest = posts.iter().map(Queued::priority).min().unwrap_or(TOP);
        if lowest < TOP && lowest <= post.priority() {
            let i = posts
                .iter()
                .position(|p| p.priority() == lowest)
                .expect("a post of the lowest priority");
            let shed = posts.remove(i);
            posts.push_back(post);
            self.counts.add(|s| &s.shed);
            return shed;
        }
        if post.priority() < TOP {
            self.counts.add(|s| &s.shed);
            return Some(post);
        }
        if posts.len() >= size.saturating_mul(HARD_CAP) {
            self.counts.add(|s| &s.dropped_full);
            return Some(post);
        }
        posts.push_back(post);
        None
    }

    fn pop(&self) -> Option<Queued> {
        self.posts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop_front()
    }
}

/// The highest priority: never shed.
pub const TOP: u8 = 2;

/// The server's webhooks: a queue and a delivery task per webhook URL.
pub struct Webhooks {
    settings: Settings,
    policy: guard::Policy,
    resolver: guard::ResolverCell,
    client: OnceLock<HttpsClient>,
    queues: Mutex<HashMap<String, Arc<Queue>>>,
    totals: Arc<Stats>,
    /// The Discord application whose channels [`WebhookFormat::DiscordChannel`] posts to.
    discord: Option<&'static crate::discord::Config>,
    /// Where queued posts are kept across a restart ([`Webhooks::keep_outbox`]).
    outbox: Arc<OnceLock<outbox::Outbox>>,
}

impl Webhooks {
    /// No webhooks yet, delivering under `limits`.
    #[must_use]
    pub fn new(limits: &Limits) -> Self {
        Webhooks {
            settings: Settings {
                queue: limits.webhook_queue.max(1),
                attempts: limits.webhook_attempts.max(1),
                backoff: Duration::from_millis(limits.webhook_backoff_ms),
                timeout: Duration::from_millis(limits.webhook_timeout_ms.max(1)),
                slack_pace: Duration::from_millis(limits.webhook_slack_pace_ms),
            },
            policy: guard::Policy::of(limits),
            resolver: Arc::new(RwLock::new(Arc::new(guard::SystemResolver))),
            client: OnceLock::new(),
            queues: Mutex::new(HashMap::new()),
            totals: Arc::new(Stats::default()),
            discord: limits.discord,
            outbox: Arc::new(OnceLock::new()),
        }
    }

    /// Keeps every post queued from now on in the outbox file at `path` until it is sent or
    /// dropped ([`outbox`]), and queues again, in their order and before anything new, the
    /// posts it holds that were not (those queued when the process last stopped). Called once,
    /// at start, before the matches are resumed (`serve` keeps `DB.outbox` beside a SQLite
    /// database `DB`); a second call changes nothing. Inside the Tokio runtime. The number of
    /// posts queued again.
    ///
    /// # Errors
    /// The file cannot be read or written.
    pub fn keep_outbox(&self, path: &std::path::Path) -> std::io::Result<usize> {
        if self.outbox.get().is_some() {
            return Ok(0);
        }
        let (outbox, waiting) = outbox::Outbox::open(path)?;
        if self.outbox.set(outbox).is_err() {
            return Ok(0);
        }
        let n = waiting.len();
        for (id, hook, post, live) in waiting {
            self.enqueue(&hook, Queued { id, post, live });
        }
        if n > 0 {
            tracing::info!(posts = n, "webhook posts queued again from the outbox");
        }
        Ok(n)
    }

    /// The node's counts over every webhook, by outcome (`GET /metrics`).
    #[must_use]
    pub fn totals(&self) -> Vec<(&'static str, u64)> {
        self.totals.outcomes()
    }

    /// Resolves webhook names through `resolver` from now on (the system's by default; tests
    /// point their own).
    pub fn set_resolver(&self, resolver: Arc<dyn guard::Resolve>) {
        *self
            .resolver
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = resolver;
    }

    /// `hook` checked as [`WebhookConfig::checked`] does, and then the addresses its name
    /// resolves to now: one refused address refuses it (the connection checks them again, so
    /// a name that changes its answers later still reaches no refused address). A name that
    /// does not resolve now is taken (its posts are dropped while it does not).
    ///
    /// # Errors
    /// 400 `bad_request` saying what is wrong and what is allowed.
    /// A Discord channel target ([`WebhookFormat::DiscordChannel`]) passes only when this
    /// server's Discord application made it: one sent by an API client is refused (it would
    /// make the bot post in any channel).
    pub async fn check(&self, hook: WebhookConfig) -> Result<WebhookConfig, ApiError> {
        if hook.format == WebhookFormat::DiscordChannel {
            if !hook.issued.0 {
                return Err(ApiError::bad_request(
                    "`webhook.format` `discord_channel` is set only by this server's Discord \
                     application (a match or tournament started with /colosseum in a channel); \
                     give a webhook `url` with `format` `discord` or `slack`",
                ));
            }
            return hook.checked_by(&self.policy);
        }
        let hook = hook.checked_by(&self.policy)?;
        if self.policy.allow_private {
            return Ok(hook);
        }
        let Ok(uri) = hook.url.parse::<Uri>() else {
            return Ok(hook);
        };
        let host = uri.host().unwrap_or_default().to_string();
        let port = uri.port_u16().unwrap_or(443);
        let resolver = self
            .resolver
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let resolved = tokio::time::timeout(
            self.settings.timeout,
            guard::checked_addresses(&*resolver, false, &host, port),
        )
        .await;
        match resolved {
            Ok(Err(e)) => {
                if let Some(why) = guard::refusal(&e) {
                    return Err(ApiError::bad_request(format!(
                        "`webhook.url`: {why}; {}",
                        self.policy.allowed()
                    )));
                }
                tracing::warn!(host = %host, "a webhook's host does not resolve now: {e}");
            }
            Err(_) => tracing::warn!(host = %host, "a webhook's host did not resolve in time"),
            Ok(Ok(_)) => {}
        }
        Ok(hook)
    }

    fn client(&self) -> HttpsClient {
        self.client
            .get_or_init(|| {
                let connector = guard::GuardedConnector {
                    resolver: self.resolver.clone(),
                    allow_private: self.policy.allow_private,
                };
                // `http` reaches the connector, which refuses it unless private addresses are
                // allowed (a refusal, not a failure to retry).
                let https = hyper_rustls::HttpsConnectorBuilder::new()
                    .with_webpki_roots()
                    .https_or_http()
                    .enable_http1()
                    .wrap_connector(connector);
                Client::builder(TokioExecutor::new()).build(https)
            })
            .clone()
    }

    /// The delivery counts of `hook`'s URL (zeros for a webhook never posted to).
    #[must_use]
    pub fn stats(&self, hook: &WebhookConfig) -> Value {
        let queues = self
            .queues
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        queues
            .get(&hook.key())
            .map_or_else(|| Stats::default().json(), |q| q.counts.hook.json())
    }

    /// Queues `post` for `hook` and returns at once: posts to one URL share one queue and are
    /// sent in order. When the queue is full a post of lower priority is shed
    /// ([`Queue::push`]: counted and logged); results, standings and host actions are kept.
    /// A post `hook`'s verbosity leaves out ([`Verbosity::Results`]) is not queued. With an
    /// outbox ([`Webhooks::keep_outbox`]) the post is written there before this returns. Must
    /// be called inside the Tokio runtime (the first post to a URL starts its delivery task).
    pub fn post(&self, hook: &WebhookConfig, post: Post) {
        self.post_live(hook, post, false);
    }

    /// [`Webhooks::post`] for a reveal after which the match goes on: on a Discord channel
    /// target it carries the "Make your move" button (the players' way to their next private
    /// prompt); elsewhere it is an ordinary post.
    pub fn post_inviting(&self, hook: &WebhookConfig, post: Post) {
        self.post_live(hook, post, true);
    }

    fn post_live(&self, hook: &WebhookConfig, post: Post, live: bool) {
        if !hook.verbosity.wants(&post) {
            return;
        }
        let id = self
            .outbox
            .get()
            .map_or(0, |outbox| outbox.add(hook, &post, live));
        self.enqueue(hook, Queued { id, post, live });
    }

    /// Puts `item` on `hook`'s queue, starting its delivery task if none runs.
    fn enqueue(&self, hook: &WebhookConfig, item: Queued) {
        let key = hook.key();
        let mut queues = self
            .queues
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut queue = queues.get(&key).cloned();
        if queue
            .as_ref()
            .is_some_and(|q| q.closed.load(Ordering::Relaxed))
        {
            queue = None;
        }
        let queue = match queue {
            Some(q) => q,
            None => {
                // A stopped task's counts are carried on.
                let counts = queues.get(&key).map_or_else(
                    || Counts {
                        hook: Arc::new(Stats::default()),
                        all: self.totals.clone(),
                    },
                    |old| old.counts.clone(),
                );
                let q = Arc::new(Queue {
                    posts: Mutex::new(VecDeque::new()),
                    wake: Notify::new(),
                    counts,
                    closed: std::sync::atomic::AtomicBool::new(false),
                });
                queues.insert(key, q.clone());
                let sender = match hook.format {
                    WebhookFormat::DiscordChannel => Sender::Discord(self.discord),
                    _ => Sender::Guarded(self.client()),
                };
                tokio::spawn(deliver(
                    q.clone(),
                    hook.clone(),
                    sender,
                    (self.settings, self.policy),
                    self.outbox.clone(),
                ));
                q
            }
        };
        drop(queues);
        let kind = item.post.kind;
        if let Some(dropped) = queue.push(item, self.settings.queue) {
            if let Some(outbox) = self.outbox.get() {
                outbox.done(dropped.id);
            }
            tracing::warn!(
                host = %hook.host(),
                kind = dropped.post.kind,
                "webhook post shed: its queue is full (queuing a {kind} post)"
            );
        }
        queue.wake.notify_one();
    }
}

/// How one attempt went.
enum Attempt {
    /// Delivered; wait this long before the next post (the rate limit's bucket is empty).
    Sent(Option<Duration>),
    /// The address checks refused the webhook's host: dropped at once, never retried.
    Refused(String),
    /// Rate limited (429): wait this long (`retry_after`, `Retry-After` or the bucket's reset)
    /// and send the same post again.
    Limited(Option<Duration>),
    /// Failed; wait the backoff.
    Failed(String),
}

/// Marks the queue closed when its delivery task ends (the runtime shutting down).
struct CloseOnDrop(Arc<Queue>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.closed.store(true, Ordering::Relaxed);
    }
}

/// How a queue's posts are sent: through the guarded client (a webhook URL), or as this
/// server's Discord application (a channel target, through the operator's API base).
enum Sender {
    Guarded(HttpsClient),
    Discord(Option<&'static crate::discord::Config>),
}

impl Sender {
    async fn send(&self, hook: &WebhookConfig, payload: &Payload) -> Attempt {
        match self {
            Sender::Guarded(client) => send(client, &hook.url, &[], payload).await,
            Sender::Discord(None) => Attempt::Refused(
                "this server has no Discord application now (serve --discord-*)".into(),
            ),
            Sender::Discord(Some(config)) => {
                // The token is read here, at each post: it is never stored with a match, in the
                // outbox, or logged.
                let url = format!("{}/channels/{}/messages", config.api_base, hook.url);
                let auth = format!("Bot {}", config.bot_token);
                let headers = [
                    ("authorization", auth.as_str()),
                    (
                        "user-agent",
                        concat!(
                            "DiscordBot (https://github.com/colosseum, ",
                            env!("CARGO_PKG_VERSION"),
                            ")"
                        ),
                    ),
                ];
                send(&crate::discord::client(), &url, &headers, payload).await
            }
        }
    }
}

/// The delivery task of one webhook URL: posts in order, paced, each retried with backoff;
/// each post marked done in the outbox once sent or dropped.
async fn deliver(
    queue: Arc<Queue>,
    hook: WebhookConfig,
    sender: Sender,
    (settings, policy): (Settings, guard::Policy),
    outbox: Arc<OnceLock<outbox::Outbox>>,
) {
    let done = |id: u64| {
        if let Some(outbox) = outbox.get() {
            outbox.done(id);
        }
    };
    let _closing = CloseOnDrop(queue.clone());
    let counts = queue.counts.clone();
    let host = hook.host();
    // The earliest the next request may go (the platform's pace).
    let mut next_at = tokio::time::Instant::now();
    loop {
        let Some(Queued { id, post, live }) = queue.pop() else {
            queue.wake.notified().await;
            continue;
        };
        // A webhook stored before the policy changed (or set under another one) is checked
        // again: nothing is sent where it is not allowed now.
        if let Err(e) = hook.clone().checked_by(&policy) {
            counts.add(|s| &s.dropped_refused);
            tracing::warn!(host = %host, kind = post.kind, "webhook post dropped: {}", e.message);
            done(id);
            continue;
        }
        // The board is drawn only by a build with the `board-pictures` feature: without it a
        // Discord post is its text alone, as a Slack post is.
        let png: Option<Vec<u8>> = match (&post.board, hook.format) {
            #[cfg(feature = "board-pictures")]
            (Some(board), WebhookFormat::Discord | WebhookFormat::DiscordChannel) => {
                let board = board.clone();
                match tokio::task::spawn_blocking(move || {
                    png::board_png(&board.game, &board.view, &board.names)
                })
                .await
                {
                    Ok(Ok(png)) => Some(png),
                    Ok(Err(e)) => {
                        tracing::warn!(host = %host, "webhook board not drawn: {e}");
                        None
                    }
                    Err(e) => {
                        tracing::warn!(host = %host, "webhook board not drawn: {e}");
                        None
                    }
                }
            }
            _ => None,
        };
        // Only an application's own message may carry components: a channel target's reveal
        // after which the match goes on carries the "Make your move" button.
        let components = (hook.format == WebhookFormat::DiscordChannel).then(|| {
            if live && post.kind == "reveal" {
                crate::discord::post::move_button()
            } else {
                json!([])
            }
        });
        let payload = payload_with(&post, hook.format, png.as_deref(), components);
        let mut backoff = settings.backoff;
        let mut attempt = 1;
        loop {
            tokio::time::sleep_until(next_at).await;
            if hook.format == WebhookFormat::Slack {
                next_at = tokio::time::Instant::now() + settings.slack_pace;
            }
            let outcome =
                match tokio::time::timeout(settings.timeout, sender.send(&hook, &payload)).await {
                    Ok(outcome) => outcome,
                    Err(_) => Attempt::Failed(format!(
                        "no answer within {} ms",
                        settings.timeout.as_millis()
                    )),
                };
            match outcome {
                Attempt::Sent(wait) => {
                    counts.add(|s| &s.sent);
                    if let Some(wait) = wait {
                        next_at = next_at.max(tokio::time::Instant::now() + wait);
                    }
                    break;
                }
                Attempt::Refused(why) => {
                    counts.add(|s| &s.dropped_refused);
                    tracing::warn!(
                        host = %host,
                        kind = post.kind,
                        "webhook post dropped: {why}"
                    );
                    break;
                }
                Attempt::Limited(wait) => {
                    // Not an attempt: the platform said when to come back, and a post is
                    // never dropped for it.
                    counts.add(|s| &s.rate_limited);
                    counts.add(|s| &s.retried);
                    let wait = wait.unwrap_or(backoff).min(MAX_RETRY_AFTER);
                    tracing::debug!(host = %host, "webhook rate limited; retrying in {wait:?}");
                    next_at = next_at.max(tokio::time::Instant::now() + wait);
                    if wait == backoff {
                        backoff = backoff.saturating_mul(2).min(MAX_RETRY_AFTER);
                    }
                }
                Attempt::Failed(why) => {
                    if attempt >= settings.attempts {
                        counts.add(|s| &s.dropped_failed);
                        tracing::warn!(
                            host = %host,
                            kind = post.kind,
                            "webhook post dropped after {attempt} attempts: {why}"
                        );
                        break;
                    }
                    counts.add(|s| &s.retried);
                    let wait = backoff.min(MAX_RETRY_AFTER);
                    tracing::debug!(host = %host, "webhook attempt {attempt} failed ({why}); retrying in {wait:?}");
                    next_at = next_at.max(tokio::time::Instant::now() + wait);
                    backoff = backoff.saturating_mul(2);
                    attempt += 1;
                }
            }
        }
        // Sent or dropped: out of the outbox (a process stopped before this line sends it
        // again at its next start).
        done(id);
    }
}

/// Seconds in a header, if it holds a finite, non-negative number.
fn header_secs(headers: &hyper::HeaderMap, name: &str) -> Option<Duration> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s).min(MAX_RETRY_AFTER))
}

/// Discord's bucket after a post it took: when `X-RateLimit-Remaining` says none are left, how
/// long until `X-RateLimit-Reset-After` refills it (the next post waits that long). Used by the
/// webhooks and by the Discord application's channel posts.
pub(crate) fn bucket_wait(headers: &hyper::HeaderMap) -> Option<Duration> {
    let empty = headers
        .get("x-ratelimit-remaining")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        == Some(0);
    header_secs(headers, "x-ratelimit-reset-after").filter(|_| empty)
}

/// How long a 429 asks to wait: Discord says it in the body (`retry_after`, seconds), Slack in
/// `Retry-After`, else the bucket's `X-RateLimit-Reset-After`; at most [`MAX_RETRY_AFTER`];
/// `None` when the answer says nothing usable.
pub(crate) async fn retry_after(
    response: hyper::Response<hyper::body::Incoming>,
) -> Option<Duration> {
    let header_wait = header_secs(response.headers(), "retry-after");
    let reset_after = header_secs(response.headers(), "x-ratelimit-reset-after");
    let body = http_body_util::Limited::new(response.into_body(), 64 * 1024)
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let body_wait = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v["retry_after"].as_f64())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s).min(MAX_RETRY_AFTER));
    body_wait.or(header_wait).or(reset_after)
}

/// One attempt at posting `payload` to `url` (with `headers` beside the content type; the
/// user agent is `colosseum-webhooks` unless one is given).
async fn send<C>(
    client: &Client<C, Full<Bytes>>,
    url: &str,
    headers: &[(&str, &str)],
    payload: &Payload,
) -> Attempt
where
    C: hyper_util::client::legacy::connect::Connect + Clone + Send + Sync + 'static,
{
    let mut request = Request::post(url).header(hyper::header::CONTENT_TYPE, &payload.content_type);
    if !headers.iter().any(|(name, _)| *name == "user-agent") {
        request = request.header(hyper::header::USER_AGENT, "colosseum-webhooks");
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = match request.body(Full::new(payload.body.clone())) {
        Ok(r) => r,
        Err(e) => return Attempt::Failed(format!("bad request: {e}")),
    };
    let response = match client.request(request).await {
        Ok(r) => r,
        Err(e) => {
            if let Some(why) = guard::refusal(&e) {
                return Attempt::Refused(why);
            }
            return Attempt::Failed(format!("no connection: {e}"));
        }
    };
    let status = response.status();
    let headers = response.headers();
    // Discord's bucket: `X-RateLimit-Remaining` requests left until `X-RateLimit-Reset-After`
    // seconds have passed.
    if status.is_success() {
        return Attempt::Sent(bucket_wait(headers));
    }
    if status == StatusCode::TOO_MANY_REQUESTS {
        return Attempt::Limited(retry_after(response).await);
    }
    Attempt::Failed(format!("answered {status}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hook_under(url: &str, limits: &Limits) -> Result<WebhookConfig, ApiError> {
        WebhookConfig {
            url: url.into(),
            format: WebhookFormat::Discord,
            verbosity: Verbosity::All,
            label: None,
            issued: Issued::default(),
        }
        .checked(limits)
    }

    fn hook(url: &str) -> Result<WebhookConfig, ApiError> {
        hook_under(url, &Limits::default())
    }

    #[test]
    fn only_https_urls_to_the_chat_platforms_hosts_are_taken_by_default() {
        for good in [
            "https://discord.com/api/webhooks/1/abc",
            " https://discordapp.com/api/webhooks/1/abc ",
            "https://ptb.discord.com/api/webhooks/1/abc",
            "https://canary.discord.com:443/api/webhooks/1/abc",
            "https://hooks.slack.com/services/T/B/x",
            "https://Discord.com/api/webhooks/1/abc",
        ] {
            assert!(hook(good).is_ok(), "{good}: {:?}", hook(good));
        }
        for (bad, says) in [
            ("ftp://x/y", "scheme other than https"),
            ("file:///etc/passwd", "URL"),
            ("discord.com/api", "URL"),
            ("", "is empty"),
            ("https://", "not a URL"),
            ("http://a b/", "spaces"),
            ("http://127.0.0.1:9/hook", "https:// only"),
            ("http://discord.com/api/webhooks/1/a", "https:// only"),
            ("https://127.0.0.1:9/hook", "host `127.0.0.1`"),
            ("https://localhost/hook", "host `localhost`"),
            ("https://discord.com.evil.org/api", "not allowed"),
            ("https://discord.com:22/api", "(port 22)"),
            ("https://x@discord.com/api", "user name or password"),
        ] {
            let e = hook(bad).expect_err(bad);
            assert!(e.message.contains(says), "{bad}: {}", e.message);
            assert!(
                e.message.contains("https://")
                    && e.message.contains("hooks.slack.com")
                    && e.message.contains("--webhook-hosts"),
                "{bad}: {}",
                e.message
            );
        }
        assert!(hook(&format!("https://discord.com/{}", "a".repeat(MAX_URL))).is_err());
    }

    #[test]
    fn operator_hosts_are_taken_but_never_an_inward_address_unless_private_is_allowed() {
        let hosts: &'static [String] = Box::leak(
            vec![
                "hooks.example.org".to_string(),
                "127.0.0.1".to_string(),
                "2130706433".to_string(),
                "[::1]:9000".to_string(),
            ]
            .into_boxed_slice(),
        );
        let operator = Limits {
            webhook_hosts: hosts,
            ..Limits::default()
        };
        assert!(hook_under("https://hooks.example.org:8443/x", &operator).is_ok());
        for bad in [
            "https://127.0.0.1/x",
            "https://2130706433/x",
            "https://[::1]:9000/x",
        ] {
            let e = hook_under(bad, &operator).expect_err(bad);
            assert!(e.message.contains("loopback"), "{bad}: {}", e.message);
        }
        assert!(hook_under("http://hooks.example.org/x", &operator).is_err());
        let lan = Limits {
            webhook_allow_private: true,
            ..operator
        };
        assert!(hook_under(" http://127.0.0.1:9/hook ", &lan).is_ok());
        assert!(hook_under("https://[::1]:9000/x", &lan).is_ok());
        // Allowing private addresses does not allow every host.
        assert!(hook_under("http://10.0.0.1/x", &lan).is_err());
    }

    #[test]
    fn a_full_queue_sheds_the_oldest_of_the_lowest_priority_and_keeps_results_in_order() {
        let queue = Queue {
            posts: Mutex::new(VecDeque::new()),
            wake: Notify::new(),
            counts: Counts {
                hook: Arc::new(Stats::default()),
                all: Arc::new(Stats::default()),
            },
            closed: std::sync::atomic::AtomicBool::new(false),
        };
        let post = |kind: &'static str, title: &str| Queued {
            id: 0,
            post: Post {
                kind,
                title: title.into(),
                lines: Vec::new(),
                board: None,
            },
            live: false,
        };
        let titles = || -> Vec<String> {
            queue
                .posts
                .lock()
                .unwrap()
                .iter()
                .map(|p| p.post.title.clone())
                .collect()
        };
        for (kind, title) in [("reveal", "r1"), ("start", "s1"), ("reveal", "r2")] {
            assert!(queue.push(post(kind, title), 3).is_none());
        }
        let shed = |kind, title| queue.push(post(kind, title), 3).map(|p| p.post.title);
        assert_eq!(shed("result", "R1").as_deref(), Some("r1"));
        assert_eq!(titles(), ["s1", "r2", "R1"]);
        assert_eq!(shed("reveal", "r3").as_deref(), Some("r2"));
        assert_eq!(shed("standings", "R2").as_deref(), Some("r3"));
        assert_eq!(titles(), ["s1", "R1", "R2"]);
        // A reveal below everything queued is shed itself.
        assert_eq!(shed("reveal", "r4").as_deref(), Some("r4"));
        assert_eq!(shed("host", "R3").as_deref(), Some("s1"));
        // Results are never shed: kept past the size, in order.
        assert_eq!(shed("result", "R4"), None);
        assert_eq!(shed("reveal", "r5").as_deref(), Some("r5"));
        assert_eq!(titles(), ["R1", "R2", "R3", "R4"]);
        assert_eq!(queue.counts.hook.shed.load(Ordering::Relaxed), 6);
        assert_eq!(queue.counts.all.shed.load(Ordering::Relaxed), 6);
        assert_eq!(queue.counts.hook.dropped_full.load(Ordering::Relaxed), 0);
        // Only past HARD_CAP times the size is one dropped.
        for i in 4..3 * HARD_CAP {
            assert!(queue.push(post("result", &format!("R{i}")), 3).is_none());
        }
        assert!(queue.push(post("result", "over"), 3).is_some());
        assert_eq!(queue.counts.hook.dropped_full.load(Ordering::Relaxed), 1);
        assert_eq!(queue.pop().map(|p| p.post.title).as_deref(), Some("R1"));
    }

    #[test]
    fn results_verbosity_keeps_results_standings_and_host_actions_only() {
        let post = |kind: &'static str| Post {
            kind,
            title: String::new(),
            lines: Vec::new(),
            board: None,
        };
        for kind in ["result", "standings", "host", "webhook"] {
            assert!(Verbosity::Results.wants(&post(kind)), "{kind}");
        }
        for kind in ["reveal", "drawn", "start", "pairings"] {
            assert!(!Verbosity::Results.wants(&post(kind)), "{kind}");
            assert!(Verbosity::All.wants(&post(kind)), "{kind}");
        }
        let hook: WebhookConfig = serde_json::from_value(
            json!({"url": "https://discord.com/api/webhooks/1/a", "verbosity": "results"}),
        )
        .unwrap();
        assert_eq!(hook.verbosity, Verbosity::Results);
        assert!(serde_json::from_value::<WebhookConfig>(
            json!({"url": "https://discord.com/api/webhooks/1/a", "verbosity": "loud"})
        )
        .is_err());
        let board = hook.for_board("Cup", 2, 1);
        assert_eq!(
            board.titled("Goofspiel: A v B"),
            "Cup, round 2, board 1 — Goofspiel: A v B"
        );
        assert_eq!(board.verbosity, Verbosity::Results);
    }

    #[test]
    fn discord_posts_attach_the_board_as_multipart_and_slack_posts_are_json_text() {
        let post = Post {
            kind: "reveal",
            title: "Goofspiel: A v B".into(),
            lines: vec!["A (p1) played 3 <b>".into()],
            board: None,
        };
        let png = [0x89, b'P', b'N', b'G', 1, 2, 3];
        let d = payload(&post, WebhookFormat::Discord, Some(&png));
        assert!(d.content_type.starts_with("multipart/form-data; boundary="));
        let body = String::from_utf8_lossy(&d.body);
        assert!(body.contains("name=\"payload_json\""), "{body}");
        assert!(body.contains("attachment://board.png"), "{body}");
        assert!(
            body.contains("name=\"files[0]\"; filename=\"board.png\""),
            "{body}"
        );
        let plain = payload(&post, WebhookFormat::Discord, None);
        let v: Value = serde_json::from_slice(&plain.body).unwrap();
        assert_eq!(v["content"], "**Goofspiel: A v B**\nA (p1) played 3 <b>");
        assert_eq!(v["allowed_mentions"]["parse"], json!([]));
        let s = payload(&post, WebhookFormat::Slack, Some(&png));
        let v: Value = serde_json::from_slice(&s.body).unwrap();
        assert_eq!(
            v,
            json!({"text": "*Goofspiel: A v B*\nA (p1) played 3 &lt;b&gt;"})
        );
    }
}

//! The Discord application (issue 38): Colosseum serves Discord's HTTP interactions endpoint
//! (`POST /api/discord/interactions`, no gateway connection) and registers its `/colosseum`
//! commands per guild. See `docs/discord.md`.
//!
//! * [`Config`]: the application's id, public key, bot token and API base URL (`colosseum
//!   serve --discord-*` or `COLOSSEUM_DISCORD_*`); absent, the endpoint answers 404.
//! * [`verify`]: every request's Ed25519 signature (`X-Signature-Ed25519` over
//!   `X-Signature-Timestamp` followed by the body) against the public key, and its age.
//! * [`commands`] and [`register`]: the command definitions (the games' names come from the
//!   registry) and their bulk overwrite in one guild.
//!
//! Nothing depends on this module but the router, and the webhooks' delivery, which posts in
//! the application's channels ([`post::channel_hook`]).

mod host;
mod play;
pub mod post;
mod tournament;

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::api::AppState;
use crate::store::Store;

/// The interactions endpoint's path.
pub const ENDPOINT: &str = "/api/discord/interactions";

/// Discord's API base URL when none is given.
pub const DEFAULT_API_BASE: &str = "https://discord.com/api/v10";

/// The oldest (and furthest in the future) an interaction's `X-Signature-Timestamp` may be, in
/// seconds: a request replayed later than this is refused.
pub const MAX_AGE_SECS: u64 = 5 * 60;

/// The header carrying the signature (hex).
pub const SIGNATURE: &str = "x-signature-ed25519";

/// The header carrying the signed timestamp (Unix seconds).
pub const TIMESTAMP: &str = "x-signature-timestamp";

/// Interaction types (Discord's `type` of an interaction).
const PING: u64 = 1;
const APPLICATION_COMMAND: u64 = 2;
const MESSAGE_COMPONENT: u64 = 3;
const MODAL_SUBMIT: u64 = 5;

/// Response types (Discord's `type` of an interaction response).
const PONG: u64 = 1;
const CHANNEL_MESSAGE: u64 = 4;

/// Message flag: only the member who acted sees the message.
pub const EPHEMERAL: u64 = 64;

/// The application's settings, and the matches it runs (in memory).
pub struct Config {
    /// The application id (a snowflake, digits).
    pub app_id: String,
    /// The application's Ed25519 public key.
    pub public_key: [u8; 32],
    /// The bot's token (sent as `Authorization: Bot TOKEN`).
    pub bot_token: String,
    /// The API base URL, without a trailing slash (Discord's, or a stand-in's in tests).
    pub api_base: String,
    /// This server's public address (`https://colosseum.example`), which the web table links
    /// given to players start with; `None`: the links are paths.
    pub public_url: Option<String>,
    /// The matches bound to channels and members.
    bindings: play::Bindings,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is a secret: never in a log.
        f.debug_struct("Config")
            .field("app_id", &self.app_id)
            .field("api_base", &self.api_base)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// Settings from their text forms: `public_key` is 64 hex digits, `app_id` digits, the
    /// token not empty and `api_base` an `http(s)://` URL (`None`: [`DEFAULT_API_BASE`]).
    pub fn new(
        app_id: &str,
        public_key: &str,
        bot_token: &str,
        api_base: Option<&str>,
    ) -> Result<Config, String> {
        let app_id = app_id.trim();
        if app_id.is_empty() || !app_id.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "the Discord application id must be its digits (the Developer Portal's \
                 \"Application ID\"), not {app_id:?}"
            ));
        }
        let key = hex(public_key.trim())
            .and_then(|k| <[u8; 32]>::try_from(k).ok())
            .ok_or_else(|| {
                "the Discord public key must be 64 hex digits (the Developer Portal's \
                 \"Public Key\")"
                    .to_string()
            })?;
        let bot_token = bot_token.trim();
        if bot_token.is_empty() {
            return Err("the Discord bot token is empty".to_string());
        }
        let api_base = api_base.unwrap_or(DEFAULT_API_BASE).trim_end_matches('/');
        if !(api_base.starts_with("https://") || api_base.starts_with("http://")) {
            return Err(format!(
                "the Discord API base must be an http(s) URL, not {api_base:?}"
            ));
        }
        Ok(Config {
            app_id: app_id.to_string(),
            public_key: key,
            bot_token: bot_token.to_string(),
            api_base: api_base.to_string(),
            public_url: None,
            bindings: play::Bindings::default(),
        })
    }

    /// The same settings with the web table links starting with `url` (`http(s)://HOST`).
    pub fn with_public_url(mut self, url: &str) -> Result<Config, String> {
        let url = url.trim().trim_end_matches('/');
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(format!(
                "the public URL must be an http(s) URL, not {url:?}"
            ));
        }
        self.public_url = Some(url.to_string());
        Ok(self)
    }

    /// The same settings with their match bindings kept in `file` (read now if it exists), so a
    /// restart keeps them.
    pub fn with_state_file(mut self, file: std::path::PathBuf) -> Result<Config, String> {
        self.bindings = play::Bindings::from_file(file)?;
        Ok(self)
    }

    /// The settings for the life of the process (`Limits::discord` holds a reference).
    #[must_use]
    pub fn leak(self) -> &'static Config {
        Box::leak(Box::new(self))
    }
}

/// Bytes from hex digits (either case), or `None`.
fn hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Why an interaction is refused (each answered 401).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No signature or timestamp header.
    Missing,
    /// The signature does not verify.
    BadSignature,
    /// The timestamp is not a number, or more than [`MAX_AGE_SECS`] from now.
    Stale,
}

impl Refusal {
    fn words(self) -> &'static str {
        match self {
            Refusal::Missing => "missing X-Signature-Ed25519 or X-Signature-Timestamp",
            Refusal::BadSignature => "invalid request signature",
            Refusal::Stale => "the request's timestamp is too old or in the future",
        }
    }
}

/// Checks an interaction: `signature_hex` must be `public_key`'s Ed25519 signature of
/// `timestamp` followed by `body`, and `timestamp` (Unix seconds) within [`MAX_AGE_SECS`] of
/// `now_secs`. The signature is checked first: an unsigned request learns nothing of the clock.
pub fn verify(
    public_key: &[u8; 32],
    signature_hex: &str,
    timestamp: &str,
    body: &[u8],
    now_secs: u64,
) -> Result<(), Refusal> {
    let signature = hex(signature_hex.trim()).ok_or(Refusal::BadSignature)?;
    let mut signed = Vec::with_capacity(timestamp.len() + body.len());
    signed.extend_from_slice(timestamp.as_bytes());
    signed.extend_from_slice(body);
    ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, public_key)
        .verify(&signed, &signature)
        .map_err(|_| Refusal::BadSignature)?;
    let at: u64 = timestamp.trim().parse().map_err(|_| Refusal::Stale)?;
    if at.abs_diff(now_secs) > MAX_AGE_SECS {
        return Err(Refusal::Stale);
    }
    Ok(())
}

/// `POST /api/discord/interactions`: 404 when no application is configured; 401 for a missing,
/// bad or stale signature; PING answered PONG; commands and components answered.
///
/// Every interaction reaches the server from Discord's few addresses, so the API's per-address
/// limit (`--http-rate`) is taken here instead: per member for a verified interaction (an
/// ephemeral "too fast" answer, so Discord shows why), per address for a refused one (429).
pub async fn interactions<S: Store>(
    State(state): State<std::sync::Arc<AppState<S>>>,
    client: Option<axum::Extension<crate::api::ClientKey>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(config) = state.limits.discord else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"error": "not_found", "message": "this server has no Discord application (colosseum serve --discord-app-id ...; docs/discord.md)"})),
        )
            .into_response();
    };
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let checked = match (header(SIGNATURE), header(TIMESTAMP)) {
        (Some(sig), Some(ts)) => verify(&config.public_key, sig, ts, &body, state.hub.now() / 1000),
        _ => Err(Refusal::Missing),
    };
    if let Err(why) = checked {
        if let Some(axum::Extension(crate::api::ClientKey(key))) = &client {
            if !state.allow(key) {
                return crate::error::ApiError::new(
                    crate::error::ErrorCode::RateLimited,
                    format!(
                        "too many refused interactions: at most {} a second from one address",
                        state.limits.http_per_second
                    ),
                )
                .into_response();
            }
        }
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"error": "unauthorized", "message": why.words()})),
        )
            .into_response();
    }
    let Ok(interaction) = serde_json::from_slice::<Value>(&body) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": "bad_request", "message": "the body is not JSON"})),
        )
            .into_response();
    };
    if client.is_some() {
        let m = &interaction["member"]["user"]["id"];
        let who = m.as_str().or(interaction["user"]["id"].as_str());
        if let Some(who) = who {
            if !state.allow(&format!("discord-member:{who}")) {
                return Json(ephemeral(&format!(
                    "You are acting too fast: at most {} interactions a second; wait a moment \
                     and try again.",
                    state.limits.http_per_second
                )))
                .into_response();
            }
        }
    }
    Json(answer(&state, config, &interaction).await).into_response()
}

/// The response to a verified interaction.
async fn answer<S: Store>(
    state: &std::sync::Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
) -> Value {
    if let Some(channel) = interaction["channel_id"].as_str() {
        play::resume(&state.hub, config, channel).await;
    }
    match interaction["type"].as_u64() {
        Some(PING) => json!({"type": PONG}),
        Some(APPLICATION_COMMAND) => {
            let sub = &interaction["data"]["options"][0];
            if let Some(answer) = tournament::command(state, config, interaction, sub).await {
                return answer;
            }
            match sub["name"].as_str() {
                Some("rules") | None => command(&interaction["data"]),
                Some("host" | "pause" | "resume" | "extra-time" | "adjudicate" | "replace") => {
                    host::command(state, config, interaction, sub).await
                }
                Some(_) => play::command(state, config, interaction, sub).await,
            }
        }
        Some(MESSAGE_COMPONENT | MODAL_SUBMIT) => play::component(state, config, interaction).await,
        _ => ephemeral("Colosseum does not know this kind of interaction."),
    }
}

pub(crate) type Client = hyper_util::client::legacy::Client<
    hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>,
    http_body_util::Full<Bytes>,
>;

/// The HTTP(S) client the application's calls to Discord go through.
pub(crate) fn client() -> Client {
    static CLIENT: std::sync::OnceLock<Client> = std::sync::OnceLock::new();
    CLIENT
        .get_or_init(|| {
            let https = hyper_rustls::HttpsConnectorBuilder::new()
                .with_webpki_roots()
                .https_or_http()
                .enable_http1()
                .build();
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .build(https)
        })
        .clone()
}

/// A message only the member who acted sees.
fn ephemeral(text: &str) -> Value {
    // Names and typed text never ping anyone.
    json!({"type": CHANNEL_MESSAGE, "data": {"content": text, "flags": EPHEMERAL,
           "allowed_mentions": {"parse": []}}})
}

/// The answer to `/colosseum SUBCOMMAND`.
fn command(data: &Value) -> Value {
    let sub = &data["options"][0];
    let option = |name: &str| {
        sub["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == name))
            .and_then(|o| o["value"].as_str())
    };
    match sub["name"].as_str() {
        Some("rules") => {
            let Some(game) = option("game").and_then(|id| colosseum_games::find(id).ok()) else {
                return ephemeral("No such game: choose one from the list.");
            };
            ephemeral(&format!(
                "**{}**: {}\nThe whole rules page: `colosseum rules {}`, or the server's \
                 /games/{} page.",
                game.name, game.summary, game.id, game.id
            ))
        }
        Some(name) => ephemeral(&format!(
            "`/colosseum {name}` is not played from Discord on this server yet: play on the \
             web table (docs/discord.md says what works)."
        )),
        None => ephemeral("Choose a /colosseum subcommand."),
    }
}

/// The `/colosseum` command as Discord's bulk overwrite takes it (an array of one
/// `CHAT_INPUT` command with its subcommands; the game choices are the registry's games).
#[must_use]
pub fn commands() -> Value {
    let games: Vec<Value> = colosseum_games::registry()
        .iter()
        .take(25)
        .map(|g| json!({"name": g.name, "value": g.id}))
        .collect();
    let game = |description: &str| {
        json!({"type": 3, "name": "game", "description": description, "required": true,
               "choices": games})
    };
    let sub = |name: &str, description: &str, options: Vec<Value>| json!({"type": 1, "name": name, "description": description, "options": options});
    let clock = || {
        json!({"type": 3, "name": "clock",
               "description": "60s a decision, 90s+5m with a bank, or untimed (default: the game's)",
               "required": false, "max_length": 20})
    };
    let sealed = || {
        json!({"type": 5, "name": "sealed",
               "description": "Sealed: moves are committed first, opened once both are in",
               "required": false})
    };
    let match_id = || {
        json!({"type": 3, "name": "match",
               "description": "The match id, when the channel holds several",
               "required": false, "max_length": 40})
    };
    let mut all = json!([{
        "type": 1,
        "name": "colosseum",
        "description": "Play a Colosseum match in this channel",
        "dm_permission": false,
        "options": [
            sub("new", "Start a match in this channel between you and another member", vec![
                game("The game to play"),
                json!({"type": 6, "name": "opponent", "description": "The member you play",
                       "required": true}),
                json!({"type": 3, "name": "seed",
                       "description": "Your share of the chance: 16-64 letters, digits, _ . - of your choosing",
                       "required": true, "min_length": 16, "max_length": 64}),
                json!({"type": 3, "name": "options",
                       "description": "Game options as name=value, separated by spaces",
                       "required": false, "max_length": 200}),
                clock(),
                sealed(),
            ]),
            sub("join", "Join the match you were challenged to or are hosted in, in this channel", vec![
                json!({"type": 3, "name": "seed",
                       "description": "Your share of the chance: 16-64 letters, digits, _ . - of your choosing",
                       "required": true, "min_length": 16, "max_length": 64}),
            ]),
            sub("move", "Make your move, privately", vec![match_id()]),
            sub("hand", "Show your hand and the board, privately", vec![match_id()]),
            sub("resign", "Resign your match in this channel", vec![match_id()]),
            sub("rules", "A game's rules, privately", vec![game("The game")]),
            sub("host", "Host a match in this channel between two members", vec![
                game("The game to play"),
                json!({"type": 6, "name": "first", "description": "The first seat's player",
                       "required": true}),
                json!({"type": 6, "name": "second", "description": "The second seat's player",
                       "required": true}),
                json!({"type": 3, "name": "options",
                       "description": "Game options as name=value, separated by spaces",
                       "required": false, "max_length": 200}),
                clock(),
                sealed(),
            ]),
            sub("pause", "Pause a match in this channel (its host)", vec![match_id()]),
            sub("resume", "Resume a paused match in this channel (its host)", vec![match_id()]),
            sub("extra-time", "Give a player more time (the match's host)", vec![
                json!({"type": 6, "name": "member", "description": "The player",
                       "required": true}),
                json!({"type": 4, "name": "seconds", "description": "How many seconds more",
                       "required": true, "min_value": 1, "max_value": host::MAX_EXTRA_SECS}),
                match_id(),
            ]),
            sub("adjudicate", "End a match with a result (its host)", vec![
                json!({"type": 3, "name": "reason", "description": "Why, as the channel is told",
                       "required": true, "max_length": 200}),
                json!({"type": 6, "name": "winner", "description": "The winner (or draw: True)",
                       "required": false}),
                json!({"type": 5, "name": "draw", "description": "A draw instead of a winner",
                       "required": false}),
                match_id(),
            ]),
            sub("replace", "Pass a player's seat to another member from now on (the host)", vec![
                json!({"type": 6, "name": "member", "description": "The player replaced",
                       "required": true}),
                json!({"type": 6, "name": "with", "description": "The member who takes the seat",
                       "required": true}),
                match_id(),
            ]),
        ],
    }]);
    if let Some(options) = all[0]["options"].as_array_mut() {
        options.extend(tournament::subcommands(&games));
    }
    all
}

/// Registers (bulk-overwrites) the `/colosseum` command in `guild`:
/// `PUT {api_base}/applications/{app_id}/guilds/{guild}/commands` with the bot token. Returns
/// Discord's answer (the registered commands).
pub async fn register(config: &Config, guild: &str) -> anyhow::Result<Value> {
    use http_body_util::BodyExt;
    if guild.is_empty() || !guild.bytes().all(|b| b.is_ascii_digit()) {
        anyhow::bail!("a guild id is its digits (Server Settings > Widget, or Copy Server ID)");
    }
    let url = format!(
        "{}/applications/{}/guilds/{guild}/commands",
        config.api_base, config.app_id
    );
    let body = serde_json::to_vec(&commands())?;
    let request = hyper::Request::put(&url)
        .header("authorization", format!("Bot {}", config.bot_token))
        .header("content-type", "application/json")
        .header(
            "user-agent",
            concat!(
                "DiscordBot (https://github.com/colosseum, ",
                env!("CARGO_PKG_VERSION"),
                ")"
            ),
        )
        .body(http_body_util::Full::new(Bytes::from(body)))?;
    let response = tokio::time::timeout(Duration::from_secs(30), client().request(request))
        .await
        .map_err(|_| anyhow::anyhow!("{url} did not answer in 30 s"))??;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    if !status.is_success() {
        anyhow::bail!(
            "Discord answered {status} to PUT {url}: {}",
            String::from_utf8_lossy(&bytes)
        );
    }
    Ok(serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

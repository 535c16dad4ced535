//! The public game room: a match's (or a tournament's) posts in a channel of this server's
//! Discord application go through the webhooks' delivery ([`crate::webhooks`]) with a Discord
//! channel as the target ([`channel_hook`]): one queue per channel, paced by Discord's
//! rate-limit answers and 429s, reveals shed first and results, standings and host actions
//! never, kept in the outbox across a restart, each post built by the same announcer webhooks
//! use (the start, each reveal with the board picture, timeouts, host actions, the result) from
//! the spectator's state with the players' names. Posts go to
//! `POST {api_base}/channels/{channel}/messages` with `Authorization: Bot TOKEN`; the token is
//! read from [`Config`] at each post, never stored with the match.

use std::sync::Arc;

use serde_json::Value;

use super::play::Bound;
use super::Config;
use crate::hub::{Hub, Table};
use crate::store::Store;
use crate::webhooks::{Issued, Verbosity, WebhookConfig, WebhookFormat};

/// The webhook target that posts in `channel` (its id, digits) as this server's Discord
/// application: every reveal (`verbosity` `all`; set `results` for results, standings and host
/// actions only), titled by the match (a tournament's board is labelled with
/// [`WebhookConfig::for_board`]). Give it to a match ([`Hub::set_webhook`]) or a tournament
/// (its `webhook`): [`crate::webhooks::Webhooks::check`] lets it through because it was made
/// here, while the same JSON from an API client is refused. `config` is not kept in it (the
/// bot token is read at each post); it is the application the channel belongs to.
#[must_use]
pub fn channel_hook(config: &Config, channel: &str) -> WebhookConfig {
    let _ = config;
    WebhookConfig {
        url: channel.trim().to_string(),
        format: WebhookFormat::DiscordChannel,
        verbosity: Verbosity::All,
        label: None,
        issued: Issued(true),
    }
}

/// The "Make your move" button a channel post carries after a reveal while the match goes on
/// (the players' way to their next private prompt).
#[must_use]
pub fn move_button() -> Value {
    super::play::move_button()
}

/// Announces the match at `table` in `bound`'s channel from now on: the match's webhook target
/// becomes the channel ([`channel_hook`], through [`Hub::set_webhook_from_start`], stored with
/// the match), and its announcer posts each reveal from the first and the result there. The
/// start is not posted again (the answer to `/colosseum join` said it). Once per match and process; after a restart the
/// match's announcer is started again with the match and goes on after the last step it had
/// seen, and the outbox sends what was queued and not sent: nothing is posted twice.
pub fn watch<S: Store>(hub: Arc<Hub<S>>, config: &'static Config, bound: Bound, table: Arc<Table>) {
    if !config.bindings.watch(&bound.id) {
        return;
    }
    let hook = channel_hook(config, &bound.channel);
    tokio::spawn(async move {
        if let Err(e) = hub.set_webhook_from_start(&table, hook).await {
            tracing::warn!(match_id = %bound.id, "the channel's posts were not set: {}", e.message);
        }
    });
}

/// Whether `hook` is a match's own channel, whose start the bot said in answer to
/// `/colosseum join` (no start post; a tournament's board, labelled, has one).
#[must_use]
pub fn says_its_own_start(hook: &WebhookConfig) -> bool {
    hook.format == WebhookFormat::DiscordChannel && hook.label.is_none()
}

//! The public game room: after each reveal and at the end, a post in the match's channel
//! (`POST {api}/channels/{channel}/messages` with the bot token), built from the spectator's
//! state with the players' names.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use colosseum_engine::Viewer;
use serde_json::{json, Value};

use super::play::Bound;
use super::Config;
use crate::hub::{Hub, Table};
use crate::store::Store;

/// Attempts per channel post (a 429 or a failure); then the post is dropped and logged.
const ATTEMPTS: u32 = 5;

/// The longest a channel post waits for Discord's rate limit (a bad header never stalls a
/// match's posts for long).
const MAX_WAIT: Duration = Duration::from_secs(60);

/// Posts `content` in `channel`, paced by Discord's answers: a 429 waits its `retry_after`
/// (seconds) and tries again; a bucket left empty (`X-RateLimit-Remaining: 0`) waits
/// `X-RateLimit-Reset-After` before the next post; a failure is retried after 1, 2, 4, ... s.
/// After [`ATTEMPTS`] the post is dropped and logged (the match goes on).
pub async fn send(config: &Config, channel: &str, content: &str, components: Value) {
    let url = format!("{}/channels/{channel}/messages", config.api_base);
    let body = Bytes::from(
        json!({"content": content, "allowed_mentions": {"parse": []}, "components": components})
            .to_string(),
    );
    let mut backoff = Duration::from_secs(1);
    for _ in 0..ATTEMPTS {
        let Ok(request) = hyper::Request::post(&url)
            .header("authorization", format!("Bot {}", config.bot_token))
            .header("content-type", "application/json")
            .body(http_body_util::Full::new(body.clone()))
        else {
            return;
        };
        let answer =
            tokio::time::timeout(Duration::from_secs(30), super::client().request(request)).await;
        let wait = match answer {
            Ok(Ok(r)) if r.status().is_success() => {
                if let Some(wait) = crate::webhooks::bucket_wait(r.headers()) {
                    tokio::time::sleep(wait.min(MAX_WAIT)).await;
                }
                return;
            }
            Ok(Ok(r)) if r.status() == hyper::StatusCode::TOO_MANY_REQUESTS => {
                crate::webhooks::retry_after(r)
                    .await
                    .unwrap_or(Duration::from_secs(1))
                    .min(MAX_WAIT)
            }
            Ok(Ok(r)) if r.status().is_client_error() => {
                tracing::warn!(status = %r.status(), "a Discord channel post was refused");
                return;
            }
            Ok(Ok(r)) => {
                tracing::warn!(status = %r.status(), "a Discord channel post failed");
                backoff
            }
            Ok(Err(e)) => {
                tracing::warn!("a Discord channel post failed: {e}");
                backoff
            }
            Err(_) => {
                tracing::warn!("a Discord channel post timed out");
                backoff
            }
        };
        tokio::time::sleep(wait).await;
        backoff = backoff.saturating_mul(2);
    }
    tracing::error!("a Discord channel post was dropped after {ATTEMPTS} attempts");
}

fn line(step: &Value, names: &[String; 2]) -> Option<String> {
    let mut parts = Vec::new();
    for (i, seat) in ["p1", "p2"].into_iter().enumerate() {
        if let Some(m) = step[seat].as_str() {
            let timed_out = step["by_default"]
                .as_array()
                .is_some_and(|d| d.iter().any(|s| s == seat));
            if timed_out {
                parts.push(format!(
                    "{} ran out of time, and the host played {m} for them",
                    names[i]
                ));
            } else {
                parts.push(format!("{} played {m}", names[i]));
            }
        }
    }
    if parts.is_empty() {
        return None;
    }
    let kind = step["kind"].as_str().unwrap_or("move");
    Some(format!(
        "Game {}, {kind}: {}.",
        step["game"].as_u64().unwrap_or(1),
        parts.join(", ")
    ))
}

/// The result with names.
fn result(st: &Value, names: &[String; 2]) -> String {
    let r = &st["match"]["result"];
    let reason = colosseum_games::text::with_names(
        r["reason"].as_str().unwrap_or_default(),
        [&names[0], &names[1]],
    );
    match r["winner"].as_str() {
        Some("p1") => format!("{} wins: {reason}", names[0]),
        Some("p2") => format!("{} wins: {reason}", names[1]),
        _ => format!("A draw: {reason}"),
    }
}

/// Watches `table` and posts each new revealed step and the result in `bound`'s channel, in
/// order, until the match is over.
pub fn watch<S: Store>(hub: Arc<Hub<S>>, config: &'static Config, bound: Bound, table: Arc<Table>) {
    if !config.bindings.watch(&bound.id) {
        return;
    }
    tokio::spawn(async move {
        let mut version = Hub::<S>::subscribe(&table);
        let mut posted = bound.posted;
        loop {
            let st = hub.state(&table, Viewer::Spectator).await;
            let moves = st["match"]["moves"].as_array().cloned().unwrap_or_default();
            let shown = moves
                .iter()
                .skip(posted)
                .take_while(|step| step["hidden"] != true)
                .count();
            // The last reveal of the batch carries the "Make your move" button while the
            // match goes on: the players' way to their next private prompt.
            let last_line = moves
                .iter()
                .skip(posted)
                .take(shown)
                .rposition(|step| line(step, &bound.names).is_some());
            for (i, step) in moves.iter().skip(posted).take(shown).enumerate() {
                if let Some(text) = line(step, &bound.names) {
                    let button = if st["status"] == "live" && Some(i) == last_line {
                        super::play::move_button()
                    } else {
                        json!([])
                    };
                    send(config, &bound.channel, &text, button).await;
                }
                posted += 1;
                config
                    .bindings
                    .update(&bound.channel, &bound.id, |b| b.posted = posted);
            }
            if st["status"] == "finished" {
                if posted != usize::MAX {
                    send(
                        config,
                        &bound.channel,
                        &result(&st, &bound.names),
                        json!([]),
                    )
                    .await;
                    config
                        .bindings
                        .update(&bound.channel, &bound.id, |b| b.posted = usize::MAX);
                }
                return;
            }
            if version.changed().await.is_err() {
                return;
            }
        }
    });
}

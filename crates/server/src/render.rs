//! The state message a connection is sent, rendered once per viewer kind and change.
//!
//! A change to a match bumps its table's version; every connection of the match then wants the
//! state of its role (`p1`, `p2` or a spectator). [`StateMessage`] is that state's own members
//! as a typed value, serialized straight to text (no `serde_json::Value` tree in between); its
//! `match` is [`colosseum_host::Match::view_text`], written last, so the text ends with the
//! match's `"now":N}}`. [`RenderCache`] keeps, per viewer kind, the last text rendered with the
//! version it was rendered at, and the kind's move log lines ([`MoveLogText`]: a state renders
//! only the log's last line and new ones): the first connection of a kind to ask after a change
//! renders it, the others (and the HTTP state) share the text. A change the kind cannot see
//! (its text equal to the last one up to the match's `now`) keeps the last content number, so
//! connections that sent it send nothing.
//!
//! `server_now` (the server's clock when the message leaves) is the one field that is not
//! cached: [`with_server_now`] puts it in front of the shared text for each connection.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use colosseum_engine::fair::ClientSeeds;
use colosseum_engine::{Seat, SeatPair, Viewer};
use colosseum_host::MoveLogText;
use serde::Serialize;

/// The state of a match as one role sees it, without `server_now` and `match`
/// (`docs/server-api.md`, "The state"): the match's public metadata and the role's legal moves.
/// [`RenderCache::get`] appends `match`, the match's view for the role.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StateMessage {
    /// Always `state`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The match id.
    pub id: String,
    /// `waiting`, `live` or `finished`.
    pub status: &'static str,
    /// The seat the message is for, `null` for a spectator.
    pub you: Option<Seat>,
    /// Whether each seat has joined.
    pub joined: SeatPair<bool>,
    /// Each seat's display name.
    pub names: SeatPair<Option<String>>,
    /// When the match was created.
    pub created_at: u64,
    /// When it started.
    pub started_at: Option<u64>,
    /// The seat's legal moves when it must act (at most `MAX_LEGAL_SENT`), else `null`.
    pub legal_moves: Option<Vec<String>>,
    /// Steps of the current game's record.
    pub steps: usize,
    /// The pending decision's number.
    pub decision: u64,
    /// A practice match.
    pub practice: bool,
    /// Provably fair chance, `null` in a practice match.
    pub fairness: Option<FairnessView>,
    /// The tournament the match belongs to.
    pub tournament: Option<String>,
    /// Whether a host paused the match.
    pub paused: bool,
    /// The rematch offered after the match, with the viewer's own seat link (`null` until a
    /// seat offers one).
    pub rematch: serde_json::Value,
}

/// The state's `fairness`: the commitment, the client seeds, the server seed once the match is
/// over, and where to check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FairnessView {
    /// The SHA-256 of the server seed.
    pub commitment: String,
    /// Each seat's client seed.
    pub client_seeds: ClientSeeds,
    /// The server seed, `null` until the match is over.
    pub server_seed: Option<String>,
    /// The path that checks the match.
    pub verify: String,
}

/// A rendered state: its content number (equal numbers, equal content) and its text without
/// `server_now` (a JSON object).
#[derive(Clone, Debug)]
pub struct Rendered {
    /// Changes exactly when the content (the times aside) does.
    pub content: u64,
    /// The message's JSON text, `server_now` left out.
    pub text: Arc<str>,
}

/// Numbers every content rendered by this process: two renders share a number only if one was
/// kept for the other.
static CONTENT: AtomicU64 = AtomicU64::new(1);

struct Slot {
    version: u64,
    rendered: Rendered,
    /// Where the match's `now` begins in the text: what comes before is what is compared.
    now_at: usize,
}

/// The last state rendered for each viewer kind of one table, and each kind's move log lines.
#[derive(Default)]
pub struct RenderCache {
    slots: [Option<Slot>; 3],
    logs: [MoveLogText; 3],
}

fn slot(role: Viewer) -> usize {
    match role {
        Viewer::Seat(Seat::P1) => 0,
        Viewer::Seat(Seat::P2) => 1,
        Viewer::Spectator => 2,
    }
}

impl RenderCache {
    /// The state for `role` at table version `version`: the cached one if it was rendered at
    /// this version, else rendered from `build`, which gives the message's own members and the
    /// match's view text for the role (`Match::view_text` with the kind's kept move log). If
    /// only the times moved since the last render, the last content number is kept.
    pub fn get(
        &mut self,
        role: Viewer,
        version: u64,
        build: impl FnOnce(&mut MoveLogText) -> (StateMessage, String),
    ) -> Rendered {
        let i = slot(role);
        if let Some(s) = self.slots[i].as_ref().filter(|s| s.version == version) {
            return s.rendered.clone();
        }
        let (message, view) = build(&mut self.logs[i]);
        let head = serde_json::to_string(&message).expect("a state message serializes");
        let mut text = String::with_capacity(head.len() + view.len() + 16);
        text.push_str(head.strip_suffix('}').unwrap_or(&head));
        text.push_str(",\"match\":");
        text.push_str(&view);
        text.push('}');
        // `match` is the last member and its `now` the match's last: the last `"now":` is it.
        let now_at = text.rfind("\"now\":").unwrap_or(text.len());
        let content = match self.slots[i].as_ref() {
            Some(s) if s.rendered.text.get(..s.now_at) == text.get(..now_at) => s.rendered.content,
            _ => CONTENT.fetch_add(1, Ordering::Relaxed),
        };
        let rendered = Rendered {
            content,
            text: text.into(),
        };
        self.slots[i] = Some(Slot {
            version,
            rendered: rendered.clone(),
            now_at,
        });
        rendered
    }

    /// Forgets every rendered state and move log (the next ask renders again).
    pub fn clear(&mut self) {
        *self = RenderCache::default();
    }
}

/// The message as sent: `text` with `"server_now": now` as its first member.
#[must_use]
pub fn with_server_now(text: &str, now: u64) -> String {
    let rest = text.strip_prefix('{').unwrap_or(text);
    let mut out = String::with_capacity(text.len() + 32);
    out.push_str("{\"server_now\":");
    out.push_str(&now.to_string());
    if rest != "}" {
        out.push(',');
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_now_goes_first_and_the_text_stays_json() {
        let sent = with_server_now(r#"{"type":"state","id":"x"}"#, 42);
        assert_eq!(sent, r#"{"server_now":42,"type":"state","id":"x"}"#);
        let v: serde_json::Value = serde_json::from_str(&sent).unwrap();
        assert_eq!(v["server_now"], 42);
        assert_eq!(with_server_now("{}", 7), r#"{"server_now":7}"#);
    }
}

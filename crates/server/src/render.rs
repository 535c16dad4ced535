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

/// The state's `fairness`: the commitment and the setup it binds, the client seeds' commitments
/// and the seeds once revealed, the server seed once the match is over, and where to check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FairnessView {
    /// 2 (setup and client seeds committed) or 1 (a match created before).
    pub version: u32,
    /// Version 2: the SHA-256 of `setup_text`; version 1: of the server seed.
    pub commitment: String,
    /// Version 2: the public setup the commitment binds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<colosseum_engine::fair::Setup>,
    /// Version 2: the exact text whose SHA-256 is the commitment (the setup's lines and the
    /// server seed's hash).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup_text: Option<String>,
    /// Version 2: the SHA-256 of the server seed's bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_seed_hash: Option<String>,
    /// Version 2: each human seat's commitment to its client seed, once it joined.
    pub client_seed_hashes: ClientSeeds,
    /// Whether the seats must reveal their client seeds now (both committed, not all revealed).
    pub reveal_due: bool,
    /// Each seat's client seed, once revealed.
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

/// The members of the JSON object `text` as (the name as written, quotes included; the value
/// as written), in order, or `None` if `text` is not an object as this module writes them (no
/// whitespace between tokens).
fn members(text: &str) -> Option<Vec<(&str, &str)>> {
    let b = text.as_bytes();
    if b.first() != Some(&b'{') || b.last() != Some(&b'}') {
        return None;
    }
    let mut out = Vec::with_capacity(24);
    let mut i = 1;
    if b.get(i) == Some(&b'}') {
        return (i + 1 == b.len()).then_some(out);
    }
    loop {
        let name_end = string_end(b, i)?;
        let name = &text[i..name_end];
        if b.get(name_end) != Some(&b':') {
            return None;
        }
        let start = name_end + 1;
        let end = value_end(b, start)?;
        out.push((name, &text[start..end]));
        match b.get(end) {
            Some(b',') => i = end + 1,
            Some(b'}') if end + 1 == b.len() => return Some(out),
            _ => return None,
        }
    }
}

/// The elements of the JSON array `text` as written, or `None` if it is not an array.
fn elements(text: &str) -> Option<Vec<&str>> {
    let b = text.as_bytes();
    if b.first() != Some(&b'[') || b.last() != Some(&b']') {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 1;
    if b.get(i) == Some(&b']') {
        return (i + 1 == b.len()).then_some(out);
    }
    loop {
        let end = value_end(b, i)?;
        out.push(&text[i..end]);
        match b.get(end) {
            Some(b',') => i = end + 1,
            Some(b']') if end + 1 == b.len() => return Some(out),
            _ => return None,
        }
    }
}

/// Where the string starting at `b[i]` (a `"`) ends: one past its closing quote.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// Where the value starting at `b[i]` ends: the index of the `,`, `}` or `]` that follows it
/// at its own depth.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = i;
    while j < b.len() {
        match b[j] {
            b'"' => {
                j = string_end(b, j)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return (j > i).then_some(j),
            b'}' | b']' => depth -= 1,
            b',' if depth == 0 => return (j > i).then_some(j),
            _ => {}
        }
        j += 1;
    }
    None
}

/// The `delta` message (`docs/server-api.md`, "Delta states") that turns the state `old` into
/// `new` (both rendered texts of the same role, without `server_now`), with `server_now` in
/// front; `None` when it cannot be said as a delta (a member added, removed or moved), and the
/// full state is sent instead. `state` holds the top-level members whose text changed, `match`
/// the match's members whose text changed but for `moves`, and `moves` the log's change as
/// `{"from": K, "lines": [...]}`: keep the first `K` lines, then append `lines`.
#[must_use]
pub fn delta(old: &str, new: &str, now: u64) -> Option<String> {
    let (old_top, new_top) = (members(old)?, members(new)?);
    if old_top.len() != new_top.len() {
        return None;
    }
    let mut out = String::with_capacity(256);
    out.push_str("{\"type\":\"delta\",\"server_now\":");
    out.push_str(&now.to_string());
    let mut state = String::new();
    let mut matched = String::new();
    let mut moves = String::new();
    for (&(on, ov), &(nn, nv)) in old_top.iter().zip(&new_top) {
        if on != nn {
            return None;
        }
        if ov == nv {
            continue;
        }
        if nn == "\"match\"" {
            let (om, nm) = (members(ov)?, members(nv)?);
            if om.len() != nm.len() {
                return None;
            }
            for (&(mon, mov), &(mnn, mnv)) in om.iter().zip(&nm) {
                if mon != mnn {
                    return None;
                }
                if mov == mnv {
                    continue;
                }
                if mnn == "\"moves\"" {
                    let (ol, nl) = (elements(mov)?, elements(mnv)?);
                    let from = ol.iter().zip(&nl).take_while(|(a, b)| a == b).count();
                    moves.push_str("{\"from\":");
                    moves.push_str(&from.to_string());
                    moves.push_str(",\"lines\":[");
                    moves.push_str(&nl[from..].join(","));
                    moves.push_str("]}");
                    continue;
                }
                push_member(&mut matched, mnn, mnv);
            }
            continue;
        }
        push_member(&mut state, nn, nv);
    }
    for (name, body) in [("state", state), ("match", matched)] {
        if !body.is_empty() {
            out.push_str(",\"");
            out.push_str(name);
            out.push_str("\":{");
            out.push_str(&body);
            out.push('}');
        }
    }
    if !moves.is_empty() {
        out.push_str(",\"moves\":");
        out.push_str(&moves);
    }
    out.push('}');
    Some(out)
}

fn push_member(out: &mut String, name: &str, value: &str) {
    if !out.is_empty() {
        out.push(',');
    }
    out.push_str(name);
    out.push(':');
    out.push_str(value);
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

    /// Applies a delta as a client does (`docs/server-api.md`).
    fn apply(state: &mut serde_json::Value, delta: &serde_json::Value) {
        assert_eq!(delta["type"], "delta");
        state["server_now"] = delta["server_now"].clone();
        if let Some(m) = delta["state"].as_object() {
            for (k, v) in m {
                state[k] = v.clone();
            }
        }
        if let Some(m) = delta["match"].as_object() {
            for (k, v) in m {
                state["match"][k] = v.clone();
            }
        }
        if let Some(moves) = delta.get("moves") {
            let from = moves["from"].as_u64().unwrap() as usize;
            let log = state["match"]["moves"].as_array_mut().unwrap();
            log.truncate(from);
            log.extend(moves["lines"].as_array().unwrap().iter().cloned());
        }
    }

    #[test]
    fn a_delta_applied_gives_the_new_state() {
        let old = r#"{"type":"state","id":"a","names":{"p1":"A\"}","p2":null},"legal_moves":["1","2"],"match":{"view":{"x":[1,2]},"seats":{"p1":{"submitted":false}},"moves":[{"step":0},{"step":1,"p1":"]"}],"chat":[],"now":5}}"#;
        let new = r#"{"type":"state","id":"a","names":{"p1":"A\"}","p2":"B,{"},"legal_moves":null,"match":{"view":{"x":[1,2]},"seats":{"p1":{"submitted":true}},"moves":[{"step":0},{"step":1,"p1":"3"},{"step":2}],"chat":[],"now":9}}"#;
        let d = delta(old, new, 77).unwrap();
        let dv: serde_json::Value = serde_json::from_str(&d).unwrap();
        // Only what changed is sent: not the unchanged view, id or chat.
        assert!(dv["match"].get("view").is_none(), "{d}");
        assert!(dv["state"].get("id").is_none(), "{d}");
        assert_eq!(dv["moves"]["from"], 1, "{d}");
        let mut state: serde_json::Value = serde_json::from_str(&with_server_now(old, 1)).unwrap();
        apply(&mut state, &dv);
        let want: serde_json::Value = serde_json::from_str(&with_server_now(new, 77)).unwrap();
        assert_eq!(state, want);
        // A log that got shorter, and one unchanged.
        let shorter = new
            .replace(r#",{"step":2}"#, "")
            .replace(r#""p1":"3""#, r#""p1":"4""#);
        let d = delta(new, &shorter, 78).unwrap();
        let dv: serde_json::Value = serde_json::from_str(&d).unwrap();
        apply(&mut state, &dv);
        let want: serde_json::Value = serde_json::from_str(&with_server_now(&shorter, 78)).unwrap();
        assert_eq!(state, want);
        assert_eq!(
            delta(&shorter, &shorter, 79).unwrap(),
            r#"{"type":"delta","server_now":79}"#
        );
    }

    #[test]
    fn members_that_differ_in_name_or_number_are_no_delta() {
        assert!(delta(r#"{"a":1,"b":2}"#, r#"{"a":1,"c":2}"#, 0).is_none());
        assert!(delta(r#"{"a":1}"#, r#"{"a":1,"b":2}"#, 0).is_none());
        assert!(delta(r#"{"a":1}"#, r#"{"a":1"#, 0).is_none());
        assert!(delta(r#"{"a":1}"#, "[1]", 0).is_none());
        assert_eq!(
            members(r#"{"a":"x\\","b":{"c":[1,"]"]}}"#).unwrap(),
            vec![("\"a\"", "\"x\\\\\""), ("\"b\"", r#"{"c":[1,"]"]}"#)]
        );
    }
}

//! The host's commands on Discord: `/colosseum host` (a match in this channel between two
//! members, who each join with `/colosseum join seed:`), and the host's powers over a match
//! in this channel: `pause`, `resume`, `extra-time`, `adjudicate`, `replace`. Who may: the
//! member who created the match, and members with the guild's Administrator or Manage Server
//! permission. Every power but `replace` goes through [`Hub::host_power`] (logged in the
//! match's log, announced on the match's posts, which are its channel's); the host is answered
//! privately. A replacement changes the binding only and is announced by the answer.

use std::sync::Arc;

use colosseum_engine::{Seat, Viewer};
use colosseum_host::{Clocks, TimeControl};
use serde_json::Value;

use super::play::{self, Bound};
use super::{ephemeral, Config};
use crate::api::{AppState, Limits};
use crate::hub::{HostPower, Hub};
use crate::store::Store;

/// What `clock:` accepts, for the refusal.
pub const CLOCK_FORMS: &str = "`60s` (each decision 60 seconds), `90s+5m` (90 seconds a \
     decision, then a bank of 5 minutes), `2m`, `1h`, `untimed`, or nothing for the game's \
     own clock";

/// A duration as `90s`, `5m`, `1h` (or bare seconds), in ms.
fn duration_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, "s"),
    };
    let n: u64 = digits.parse().ok()?;
    let unit_ms = match unit.trim() {
        "s" | "sec" | "secs" => 1_000,
        "m" | "min" | "mins" => 60_000,
        "h" => 3_600_000,
        _ => return None,
    };
    n.checked_mul(unit_ms)
}

/// The time control `clock:` names for `game` (`None`: the game's default), checked against
/// the server's limits; a refusal names what is allowed.
pub(super) fn clock(
    text: Option<&str>,
    game: &str,
    limits: &Limits,
) -> Result<Option<TimeControl>, Value> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let refuse = |why: &str| ephemeral(&format!("`clock: {text}`: {why}. Allowed: {CLOCK_FORMS}."));
    if text.eq_ignore_ascii_case("untimed") {
        return Ok(Some(TimeControl::Untimed));
    }
    let (each, bank) = match text.split_once('+') {
        Some((e, b)) => (e, Some(b)),
        None => (text, None),
    };
    let Some(each) = duration_ms(each) else {
        return Err(refuse("not a clock"));
    };
    let bank = match bank.map(duration_ms) {
        None => 0,
        Some(Some(b)) => b,
        Some(None) => return Err(refuse("not a clock")),
    };
    let mut clocks = match TimeControl::for_game(game) {
        TimeControl::Timed(c) => Clocks {
            per_kind_ms: Default::default(),
            ..c
        },
        TimeControl::Untimed => Clocks::per_decision(60),
    };
    clocks.per_decision_ms = each;
    clocks.bank_ms = bank;
    clocks.bank_step_ms = 0;
    let time = TimeControl::Timed(clocks);
    crate::hub::check_time_control(&time, limits).map_err(|e| refuse(&e.message))?;
    Ok(Some(time))
}

/// Discord's permission bits that make a member a host of every match in the guild:
/// ADMINISTRATOR and MANAGE_GUILD.
const ADMINISTRATOR: u128 = 0x8;
const MANAGE_GUILD: u128 = 0x20;

/// Whether the member who sent `interaction` may use the host's powers on `bound`: its
/// creator unless they play in it (a player never adjudicates or times their own match), or a
/// member whose `member.permissions` (a decimal bitfield) has Administrator or Manage Server.
fn may_host(interaction: &Value, bound: &Bound, who: &str) -> bool {
    let permissions: u128 = interaction["member"]["permissions"]
        .as_str()
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or(0);
    let creator = bound.host.as_deref() == Some(who) && !bound.members.iter().any(|m| m == who);
    creator || permissions & (ADMINISTRATOR | MANAGE_GUILD) != 0
}

/// A subcommand option's value as text (strings, member ids).
fn option<'a>(sub: &'a Value, name: &str) -> Option<&'a str> {
    sub["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == name))
        .and_then(|o| o["value"].as_str())
}

/// A subcommand option's value as an integer.
fn integer(sub: &Value, name: &str) -> Option<i64> {
    sub["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == name))
        .and_then(|o| o["value"].as_i64())
}

/// The longest `extra-time` gives at once, in seconds (a day).
pub const MAX_EXTRA_SECS: i64 = 24 * 60 * 60;

/// `/colosseum host|pause|resume|extra-time|adjudicate|replace`.
pub async fn command<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
    sub: &Value,
) -> Value {
    let channel = interaction["channel_id"].as_str().unwrap_or_default();
    let (who, name) = play::member(interaction);
    let name_of =
        |id: &str| play::resolved_name(interaction, id).unwrap_or_else(|| "a member".into());
    let what = sub["name"].as_str().unwrap_or_default();
    if what == "host" {
        return host(state, config, interaction, sub, channel, &who, &name).await;
    }
    let hub = &state.hub;
    // The member a power names (extra time, replace) narrows down which match it is for.
    let named = option(sub, "member");
    let bound = match which(hub, config, channel, option(sub, "match"), named, &who).await {
        Ok(b) => b,
        Err(why) => return why,
    };
    if !may_host(interaction, &bound, &who) {
        return ephemeral(&format!(
            "Only the host of match `{}` (the member who created it, when they do not play \
             in it) or a member with the Administrator or Manage Server permission may \
             `/colosseum {what}` it.",
            bound.id
        ));
    }
    let Ok(table) = hub.table(&bound.id).await else {
        return ephemeral("The match is gone.");
    };
    let seat_of = |member: &str| {
        Seat::BOTH
            .into_iter()
            .find(|s| !member.is_empty() && bound.members[s.index()] == member)
    };
    let players = format!("{} v {}", bound.names[0], bound.names[1]);
    let power = match what {
        "pause" => HostPower::Pause,
        "resume" => HostPower::Resume,
        "extra-time" => {
            let Some(seat) = named.and_then(seat_of) else {
                return ephemeral(&format!(
                    "`member:` is one of the two players of match `{}` ({players}).",
                    bound.id
                ));
            };
            let seconds = integer(sub, "seconds").unwrap_or(0);
            if !(1..=MAX_EXTRA_SECS).contains(&seconds) {
                return ephemeral(&format!(
                    "`seconds:` is 1 to {MAX_EXTRA_SECS} (a day), not {seconds}."
                ));
            }
            HostPower::GiveTime {
                seat,
                ms: seconds.unsigned_abs() * 1000,
            }
        }
        "adjudicate" => {
            let reason = option(sub, "reason").map(str::trim).unwrap_or_default();
            if reason.is_empty() || reason.chars().count() > 200 {
                return ephemeral("`reason:` says why, in 1 to 200 characters.");
            }
            let draw = play::flag(sub, "draw");
            let winner =
                match (option(sub, "winner"), draw) {
                    (Some(w), false) => match seat_of(w) {
                        Some(s) => Some(s),
                        None => {
                            return ephemeral(&format!(
                                "`winner:` is one of the two players of match `{}` ({players}), \
                             or give `draw: True` instead.",
                                bound.id
                            ))
                        }
                    },
                    (None, true) => None,
                    _ => return ephemeral(
                        "Give either `winner:` (a player) or `draw: True`, not both nor neither.",
                    ),
                };
            HostPower::Adjudicate {
                winner,
                reason: reason.to_string(),
            }
        }
        "replace" => return replace(hub, config, &bound, sub, named, &name_of).await,
        other => return ephemeral(&format!("Unknown /colosseum subcommand `{other}`.")),
    };
    let words = match &power {
        HostPower::Pause => format!("The host pauses match `{}` ({players}).", bound.id),
        HostPower::Resume => format!("The host resumes match `{}` ({players}).", bound.id),
        HostPower::GiveTime { seat, ms } => format!(
            "The host gives {} {} more in match `{}`.",
            bound.names[seat.index()],
            colosseum_games::text::plural(ms / 1000, "second"),
            bound.id
        ),
        HostPower::Adjudicate { winner, reason } => match winner {
            Some(s) => format!(
                "The host ends match `{}` ({players}): {} wins. {reason}",
                bound.id,
                bound.names[s.index()]
            ),
            None => format!(
                "The host ends match `{}` ({players}) in a draw. {reason}",
                bound.id
            ),
        },
    };
    // The hub logs the power and announces it on the match's posts (its channel here): the
    // host is answered privately, so the channel reads it once.
    match hub.host_power(&table, power).await {
        Ok(()) => ephemeral(&format!("Done. {words} The channel is told.")),
        Err(e) => ephemeral(&e.message),
    }
}

/// The match a host's power is for: `id` if given (bound in this channel); else the one
/// match here not finished (where `member` holds a seat, when a member is named); several are
/// narrowed to those `who` created; still several: the host names one.
async fn which<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &Config,
    channel: &str,
    id: Option<&str>,
    member: Option<&str>,
    who: &str,
) -> Result<Bound, Value> {
    let all = config.bindings.in_channel(channel);
    if let Some(id) = id.map(str::trim) {
        return all.into_iter().find(|b| b.id == id).ok_or_else(|| {
            ephemeral(&format!(
                "No match `{id}` is played in this channel: `match:` is the id its \
                 announcement gave."
            ))
        });
    }
    let mut open = Vec::new();
    for b in all {
        if member.is_some_and(|m| !b.members.contains(&m.to_string())) {
            continue;
        }
        let Ok(table) = hub.table(&b.id).await else {
            continue;
        };
        if hub.state(&table, Viewer::Spectator).await["status"] != "finished" {
            open.push(b);
        }
    }
    if open.len() > 1 {
        let own: Vec<Bound> = open
            .iter()
            .filter(|b| b.host.as_deref() == Some(who))
            .cloned()
            .collect();
        if !own.is_empty() {
            open = own;
        }
    }
    match open.len() {
        0 => Err(ephemeral(
            "No match in this channel is going on (for that member): nothing to do.",
        )),
        1 => Ok(open.remove(0)),
        _ => Err(ephemeral(&format!(
            "This channel holds several matches going on: name one with `match:` ({}).",
            open.iter()
                .map(|b| format!("`{}` {} v {}", b.id, b.names[0], b.names[1]))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// `/colosseum replace member: with:`: the seat `member` plays passes to `with` from now on.
/// The match's record keeps the seat's name (what was played stays as it was played); the
/// channel is told.
async fn replace<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &Config,
    bound: &Bound,
    sub: &Value,
    member: Option<&str>,
    name_of: &(dyn Fn(&str) -> String + Sync),
) -> Value {
    let Some(seat) = member.and_then(|m| {
        Seat::BOTH
            .into_iter()
            .find(|s| !m.is_empty() && bound.members[s.index()] == m)
    }) else {
        return ephemeral(&format!(
            "`member:` is one of the two players of match `{}` ({} v {}).",
            bound.id, bound.names[0], bound.names[1]
        ));
    };
    let Some(with) = option(sub, "with") else {
        return ephemeral("`with:` is the member who takes the seat.");
    };
    if bound.members.iter().any(|m| m == with) {
        return ephemeral(&format!(
            "{} plays in match `{}` already: `with:` is another member.",
            name_of(with),
            bound.id
        ));
    }
    match hub.table(&bound.id).await {
        Ok(t) if hub.state(&t, Viewer::Spectator).await["status"] != "finished" => {}
        _ => return ephemeral("The match is over: nobody's seat passes on."),
    }
    config.bindings.update(&bound.channel, &bound.id, |b| {
        b.members[seat.index()] = with.to_string();
    });
    play::public(
        &format!(
            "The host replaces {old} with {new} in match `{id}`: from now on {new} plays the seat \
             {seat_name} held; the match's record keeps the seat's name, {seat_name}.",
            old = name_of(member.unwrap_or_default()),
            new = name_of(with),
            id = bound.id,
            seat_name = bound.names[seat.index()],
        ),
        serde_json::json!([]),
    )
}

/// `/colosseum host game: first: second: [options:] [clock:] [sealed:]`: a match in this
/// channel between two members; the host need not play. Each player joins with `/colosseum
/// join seed:`.
async fn host<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
    sub: &Value,
    channel: &str,
    who: &str,
    name: &str,
) -> Value {
    let Some(game) = option(sub, "game").and_then(|g| colosseum_games::find(g).ok()) else {
        return ephemeral("No such game: choose one from the list.");
    };
    let (Some(first), Some(second)) = (option(sub, "first"), option(sub, "second")) else {
        return ephemeral("Name both players: `first:` and `second:`.");
    };
    if first == second {
        return ephemeral("`first:` and `second:` are two different members.");
    }
    let time = match clock(option(sub, "clock"), game.id, &state.limits) {
        Ok(t) => t,
        Err(why) => return why,
    };
    let names = [first, second]
        .map(|m| play::resolved_name(interaction, m).unwrap_or_else(|| "a player".to_string()));
    let sealed = play::flag(sub, "sealed");
    let setup = play::Setup {
        game,
        options: option(sub, "options"),
        time,
        sealed,
        members: [first.to_string(), second.to_string()],
        names: names.clone(),
        host: Some(who.to_string()),
    };
    let bound = match play::open_match(&state.hub, config, channel, setup).await {
        Ok(b) => b,
        Err(why) => return why,
    };
    play::public(
        &format!(
            "{name} hosts {} (match `{}`{}): {} v {}. {} and {}: join with `/colosseum join \
             seed:` and 16 to 64 letters or digits of your own choosing; the match begins when \
             both have.",
            game.name,
            bound.id,
            if sealed { ", sealed" } else { "" },
            names[0],
            names[1],
            names[0],
            names[1]
        ),
        serde_json::json!([]),
    )
}

//! Galespiel's view in words (`GalespielView`): each player's materials and cost to join, the
//! prize up now and the prizes left, the lattice as a grid (dots, bridges, free spots' costs),
//! both hands (public), items, the prize order as far as the view's seat knows it, and the last
//! round.

use colosseum_engine::Seat;
use serde_json::Value;

use super::{
    count, escaped, finish, grid_block, len, now_line, viewer, viewer_acts, viewer_first, whose,
};
use crate::svg::{shown, Names};

/// A spot's name (`b2`) as 1-based (column, row).
fn spot(name: &str) -> Option<(usize, usize)> {
    let mut chars = name.chars();
    let col = chars.next()?;
    let row: usize = chars.as_str().parse().ok()?;
    col.is_ascii_lowercase()
        .then(|| ((col as u8 - b'a') as usize + 1, row))
}

/// A player's cost to join their edges, in words.
fn need(p: &Value) -> String {
    match p["cheapest_connection"].as_i64() {
        None => "cut off".to_string(),
        Some(0) => "joined".to_string(),
        Some(n) => format!("{n} M to join"),
    }
}

/// A card as a hand shows it: its number (`8+` upgraded) and its name when it has one
/// (`1 Scavenge`).
fn card(c: &Value) -> String {
    let number = format!(
        "{}{}",
        shown(&c["card"]),
        if c["upgraded"] == true { "+" } else { "" }
    );
    match c["name"].as_str() {
        Some(name) if name.chars().any(char::is_alphabetic) => format!("{number} {name}"),
        _ => number,
    }
}

/// An item's id (`crystal-ball`) in words.
fn item(v: &Value) -> String {
    match v.as_str().unwrap_or_default() {
        "crystal-ball" => "Crystal Ball".to_string(),
        "rush-order" => "Rush Order".to_string(),
        "specialists-aid" => "Specialist's Aid".to_string(),
        "emergency-delivery" => "Emergency Delivery".to_string(),
        other => other.replace('-', " "),
    }
}

/// The view in words ([`crate::GameEntry::describe`]).
#[must_use]
pub fn describe(view: &Value, names: &Names) -> String {
    let names = escaped(names);
    let players = &view["players"];
    let mut lines = Vec::new();
    for seat in Seat::BOTH {
        let p = &players[seat.as_str()];
        let edges = if seat == Seat::P1 {
            "left to right"
        } else {
            "top to bottom"
        };
        lines.push(format!(
            "{} ({}, joins {edges}): **{} M**, {}, {}",
            names.of(seat),
            shown(&p["colour"]),
            shown(&p["materials"]),
            need(p),
            count(len(&p["bridges"]), "bridge")
        ));
    }
    let mut table = Vec::new();
    if !view["prize"].is_null() {
        table.push(format!("Prize up now: **{} M**", shown(&view["prize"])));
    }
    if len(&view["prizes_left"]) > 0 {
        table.push(format!(
            "prizes left this cycle: {}",
            super::spaced(&view["prizes_left"])
        ));
    }
    if !table.is_empty() {
        let line = table.join("; ");
        let mut chars = line.chars();
        let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
        lines.push(format!("{}{}.", first.unwrap_or_default(), chars.as_str()));
    }
    let known: Vec<String> = view["upcoming"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| {
            if v.is_null() {
                "?".to_string()
            } else {
                shown(v)
            }
        })
        .collect();
    if viewer(view).is_some() && known.iter().any(|k| k != "?") {
        lines.push(format!(
            "The prizes to come, as you know them: {}",
            known.join(", ")
        ));
    }
    let spots = view["spots"].as_array().cloned().unwrap_or_default();
    let side = match spots.len() {
        5 => 5usize,
        25 => 9,
        _ => 13,
    };
    if !spots.is_empty() {
        let mut cells = vec![vec![' '; side]; side];
        for r in 1..=side {
            for c in 1..=side {
                if c % 2 == 1 && r % 2 == 0 {
                    cells[r - 1][c - 1] = 'X';
                } else if c % 2 == 0 && r % 2 == 1 {
                    cells[r - 1][c - 1] = 'O';
                }
            }
        }
        for s in &spots {
            let Some((c, r)) = s["spot"].as_str().and_then(spot) else {
                continue;
            };
            if c == 0 || r == 0 || c > side || r > side {
                continue;
            }
            cells[r - 1][c - 1] = match s["bridge"].as_str() {
                Some("p1") if c % 2 == 0 => '-',
                Some("p1") => '|',
                Some(_) if c % 2 == 1 => '=',
                Some(_) => 'H',
                None => shown(&s["cost"])
                    .chars()
                    .next()
                    .filter(|_| shown(&s["cost"]).len() == 1)
                    .unwrap_or('*'),
            };
        }
        lines.push(grid_block(side, side, 2, |r, c| {
            format!("{} ", cells[r][c])
        }));
        lines.push(format!(
            "X: {}'s dots, bridges - and |; O: {}'s dots, bridges = and H; digits: free spots \
             and their cost in M.",
            names.of(Seat::P1),
            names.of(Seat::P2)
        ));
    }
    for seat in viewer_first(view) {
        let p = &players[seat.as_str()];
        let hand: Vec<String> = p["cards"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["in_hand"] == true)
            .map(card)
            .collect();
        let items: Vec<String> = p["items_held"]
            .as_array()
            .into_iter()
            .flatten()
            .map(item)
            .collect();
        lines.push(format!(
            "{} ({}): {}{}",
            whose(view, &names, seat, "cards in hand"),
            hand.len(),
            if hand.is_empty() {
                "none".to_string()
            } else {
                hand.join(", ")
            },
            if items.is_empty() {
                String::new()
            } else {
                format!("; items: {}", items.join(", "))
            }
        ));
    }
    if let Some(lr) = view["last_round"].as_object() {
        let bid = |s: Seat| {
            let b = &lr.get("bids").unwrap_or(&Value::Null)[s.as_str()];
            if b.is_null() {
                "?".to_string()
            } else {
                format!(
                    "{}{}",
                    shown(&b["value"]),
                    if b["aid"] == true { " with aid" } else { "" }
                )
            }
        };
        let winner = lr.get("winner").and_then(super::seat);
        let built = lr.get("built").filter(|b| len(b) > 0);
        let end = match (winner, built) {
            (Some(w), Some(b)) => format!(
                "{} wins and builds {} for {} M",
                names.of(w),
                super::spaced(b),
                lr.get("paid").map(shown).unwrap_or_default()
            ),
            (Some(w), None) => format!("{} wins", names.of(w)),
            (None, _) => "nobody wins".to_string(),
        };
        lines.push(format!(
            "Last round, {} (prize {} M): {} bid {}, {} bid {}; {end}.",
            lr.get("round").map(shown).unwrap_or_default(),
            lr.get("prize").map(shown).unwrap_or_default(),
            names.of(Seat::P1),
            bid(Seat::P1),
            names.of(Seat::P2),
            bid(Seat::P2),
        ));
    }
    lines.push(now_line(view, &names, prompt(view, &names)));
    finish(lines)
}

/// The pending decision in words for the view's seat ([`crate::GameEntry::prompt`]): a bid, a
/// build, an upgrade or an item window, read from what the view says the game waits for.
#[must_use]
pub fn prompt(view: &Value, _names: &Names) -> Option<String> {
    let you = viewer_acts(view)?;
    let me = &view["players"][you.as_str()];
    let m = shown(&me["materials"]);
    let waiting = view["waiting_for"].as_str().unwrap_or_default();
    if waiting.contains("build") {
        let costs: Vec<i64> = view["spots"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|s| s["bridge"].is_null())
            .filter_map(|s| s["cost"].as_i64())
            .collect();
        let range = match (costs.iter().min(), costs.iter().max()) {
            (Some(lo), Some(hi)) => format!(" (each costs its number, {lo} to {hi} M)"),
            _ => String::new(),
        };
        let join = match me["cheapest_connection"].as_i64() {
            Some(n) if n > 0 => format!(", {n} M to join"),
            _ => String::new(),
        };
        return Some(format!(
            "Build: you have {m} M{join}; name free spots{range}, or done for none."
        ));
    }
    if waiting.contains("upgrade") {
        let n: u64 = waiting
            .split("choice of ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or(1);
        return Some(format!(
            "Your bridges surrounded {}: choose {} to upgrade (2+ wins ties, 4+ gains 3 M, 6+ \
             makes your first bridge free, 8+ is worth 10).",
            if n == 1 { "a dot" } else { "dots" },
            count(n, "even card")
        ));
    }
    if waiting.contains("Crystal Ball") {
        return Some(
            "Crystal Ball: use it to see this cycle's whole prize order, or skip to keep it."
                .to_string(),
        );
    }
    if waiting.contains("Rush Order") {
        let prize = if view["prize"].is_null() {
            "this prize".to_string()
        } else {
            format!("the {} M prize", shown(&view["prize"]))
        };
        return Some(format!(
            "Rush Order: send {prize} to the end of the cycle and reveal the next, or skip to \
             keep the item."
        ));
    }
    let cards = me["cards"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["in_hand"] == true)
        .count();
    Some(format!(
        "Bid for the {} M prize: pick one of your {} (you have {m} M).",
        shown(&view["prize"]),
        count(cards, "card")
    ))
}

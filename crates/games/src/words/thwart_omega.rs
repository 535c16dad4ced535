//! Thwart Omega's view in words (`ThwartOmegaView`): each colour's groups and score, the board as
//! a grid and the last round.

use colosseum_engine::Seat;
use serde_json::Value;

use super::{count, escaped, finish, grid_block, now_line, viewer_acts};
use crate::svg::{num, shown, Names};

/// The colour whose groups score for `seat`, from the view (black is `p1`'s unless it says
/// otherwise).
fn colour_of(view: &Value, seat: Seat) -> &'static str {
    ["black", "white"]
        .into_iter()
        .find(|c| view[*c]["seat"] == seat.as_str())
        .unwrap_or(if seat == Seat::P1 { "black" } else { "white" })
}

/// The view in words ([`crate::GameEntry::describe`]).
#[must_use]
pub fn describe(view: &Value, names: &Names) -> String {
    let names = escaped(names);
    let mut lines = Vec::new();
    for seat in Seat::BOTH {
        let colour = colour_of(view, seat);
        let groups: Vec<String> = view[colour]["groups"]
            .as_array()
            .into_iter()
            .flatten()
            .map(shown)
            .collect();
        let groups = if groups.is_empty() {
            "no stones".to_string()
        } else {
            format!("groups {}", groups.join(" × "))
        };
        lines.push(format!(
            "{} ({colour}): score **{}** ({groups})",
            names.of(seat),
            num(&view[colour]["product"])
        ));
    }
    let rows: Vec<Vec<char>> = view["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r.as_str().unwrap_or_default().chars().collect())
        .collect();
    if !rows.is_empty() {
        let n = rows.len();
        lines.push(grid_block(n, n, 2, |r, c| {
            format!("{} ", rows[r].get(c).copied().unwrap_or('.'))
        }));
        lines.push(
            "b: black, w: white, B and W: double stones (weight 2), #: burned, .: empty."
                .to_string(),
        );
    }
    lines.push(format!(
        "{} played, {} empty.",
        count(num(&view["rounds"]), "round"),
        count(num(&view["empty"]), "cell")
    ));
    if let Some(last) = view["last_round"].as_object() {
        lines.push(format!(
            "Last round: {} played {}, {} played {}.",
            names.of(Seat::P1),
            last.get("p1").map(shown).unwrap_or_default(),
            names.of(Seat::P2),
            last.get("p2").map(shown).unwrap_or_default(),
        ));
    }
    lines.push(now_line(view, &names, prompt(view, &names)));
    finish(lines)
}

/// The pending round in words for the view's seat ([`crate::GameEntry::prompt`]).
#[must_use]
pub fn prompt(view: &Value, _names: &Names) -> Option<String> {
    let you = viewer_acts(view)?;
    let empty = if view["empty"].is_number() {
        num(&view["empty"])
    } else {
        view["rows"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| r.as_str().unwrap_or_default().matches('.').count() as i64)
            .sum()
    };
    Some(format!(
        "Round {}, {} empty: place a black stone and a white stone, as `B d4 W e5` (your score is \
         {}'s groups multiplied).",
        num(&view["rounds"]) + 1,
        count(empty, "cell"),
        colour_of(view, you)
    ))
}

//! All-In Goofspiel's view in words (`AllInGoofspielView`): the points, the round in progress
//! (who starts, how many cards lie face down, and to the starter alone which ones), both hands
//! (public: every play is revealed) and the last round.

use colosseum_engine::Seat;
use serde_json::Value;

use super::{
    count, escaped, finish, hand_line, len, name_or_you, now_line, scores, spaced, viewer,
    viewer_acts, viewer_first,
};
use crate::svg::{shown, Names};

/// The view in words ([`crate::GameEntry::describe`]).
#[must_use]
pub fn describe(view: &Value, names: &Names) -> String {
    let names = escaped(names);
    let points = |s: Seat| count(shown(&view["points"][s.as_str()]), "point");
    let mut lines = vec![format!("Points: {}", scores(&names, points))];
    let cur = &view["current"];
    if let Some(starter) = super::seat(&cur["starter"]) {
        let who = |s: Seat| {
            let n = name_or_you(view, &names, s);
            let mut c = n.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or(n)
        };
        lines.push(format!(
            "Round {}, worth **{}**: {} {}, {} {}.",
            shown(&cur["round"]),
            count(shown(&cur["worth"]), "point"),
            who(starter),
            if viewer(view) == Some(starter) {
                "start"
            } else {
                "starts"
            },
            name_or_you(view, &names, starter.other()),
            if viewer(view) == Some(starter.other()) {
                "respond"
            } else {
                "responds"
            },
        ));
        if let Some(n) = cur["face_down_count"].as_u64() {
            lines.push(format!(
                "{} put down {}.",
                who(starter),
                if n == 0 {
                    "no cards".to_string()
                } else {
                    format!("{} face down", count(n, "card"))
                }
            ));
        }
        if let Some(cards) = cur["face_down_cards"].as_array().filter(|c| !c.is_empty()) {
            let cards: Vec<String> = cards.iter().map(shown).collect();
            lines.push(format!(
                "Your cards face down, in order: {}",
                cards.join(", ")
            ));
        }
    }
    for seat in viewer_first(view) {
        lines.push(hand_line(
            view,
            &names,
            seat,
            "",
            &view["hands"][seat.as_str()],
        ));
    }
    if let Some(r) = view["rounds"].as_array().and_then(|r| r.last()) {
        let play = |s: Seat| {
            let cards = &r["cards"][s.as_str()];
            if len(cards) == 0 {
                "nothing (0)".to_string()
            } else {
                format!("{} = {}", spaced(cards), shown(&r["numbers"][s.as_str()]))
            }
        };
        let took = match super::seat(&r["winner"]) {
            Some(w) => format!("{} takes it", names.of(w)),
            None => "equal numbers: the points are split".to_string(),
        };
        lines.push(format!(
            "Last round, {} (worth {}): {} put down {}, {} put down {}; {took}.",
            shown(&r["round"]),
            shown(&r["worth"]),
            names.of(Seat::P1),
            play(Seat::P1),
            names.of(Seat::P2),
            play(Seat::P2),
        ));
    }
    lines.push(now_line(view, &names, prompt(view, &names)));
    finish(lines)
}

/// The pending play in words for the view's seat ([`crate::GameEntry::prompt`]).
#[must_use]
pub fn prompt(view: &Value, names: &Names) -> Option<String> {
    let you = viewer_acts(view)?;
    let cur = &view["current"];
    let starter = super::seat(&cur["starter"])?;
    let hand = &view["hands"][you.as_str()];
    let cards = match hand.as_array().map(Vec::as_slice) {
        Some([]) | None => "you have no cards left: pass".to_string(),
        Some([last]) => format!("put down your last card, {}, or pass", shown(last)),
        Some(all) => format!(
            "put down cards from your {} in the order you want them side by side, or pass",
            count(all.len(), "card")
        ),
    };
    let worth = format!(
        "Round {}, worth {}",
        shown(&cur["round"]),
        count(shown(&cur["worth"]), "point")
    );
    if starter == you {
        return Some(format!("{worth}: you start, face down; {cards}."));
    }
    let down = cur["face_down_count"].as_u64().unwrap_or(0);
    let put = if down == 0 {
        "no cards".to_string()
    } else {
        format!("{} face down", count(down, "card"))
    };
    Some(format!(
        "{worth}: {} put down {put}; answer: {cards}.",
        names.of(starter)
    ))
}

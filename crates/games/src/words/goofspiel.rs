//! Goofspiel's view in words (`GoofspielView`): the points, the prize up now, the prizes to come,
//! both hands (every card played is revealed, so both are public) and the last prize.

use colosseum_engine::Seat;
use serde_json::Value;

use super::{
    count, escaped, finish, hand_line, len, now_line, scores, spaced, viewer_acts, viewer_first,
};
use crate::svg::{num, shown, Names};

/// The view in words ([`crate::GameEntry::describe`]).
#[must_use]
pub fn describe(view: &Value, names: &Names) -> String {
    let names = escaped(names);
    let points = |s: Seat| count(num(&view["points"][s.as_str()]), "point");
    let mut lines = vec![format!("Points: {}", scores(&names, points))];
    let left = &view["prizes_left"];
    if !view["prize"].is_null() {
        lines.push(format!("Prize up now: **{}**", shown(&view["prize"])));
    } else if len(left) > 0 {
        lines.push("The next prize is being drawn.".to_string());
    }
    if len(left) > 0 {
        lines.push(format!(
            "Prizes still to come ({}): {}",
            len(left),
            spaced(left)
        ));
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
    if let Some(t) = view["turns"].as_array().and_then(|t| t.last()) {
        let took = match super::seat(&t["winner"]) {
            Some(w) => format!("{} takes it", names.of(w)),
            None => "a tie: nobody takes it".to_string(),
        };
        lines.push(format!(
            "Last prize, {}: {} played {}, {} played {}; {took}.",
            shown(&t["prize"]),
            names.of(Seat::P1),
            shown(&t["p1"]),
            names.of(Seat::P2),
            shown(&t["p2"]),
        ));
    }
    if view["pending"] == "over" {
        let [a, b] = Seat::BOTH.map(|s| num(&view["points"][s.as_str()]));
        let end = match a.cmp(&b) {
            std::cmp::Ordering::Equal => format!("both took {}", count(a, "point")),
            std::cmp::Ordering::Greater => {
                format!("{} took more points, {a} to {b}", names.of(Seat::P1))
            }
            std::cmp::Ordering::Less => {
                format!("{} took more points, {b} to {a}", names.of(Seat::P2))
            }
        };
        lines.push(format!("**The game is over**: {end}."));
    } else {
        lines.push(now_line(view, &names, prompt(view, &names)));
    }
    finish(lines)
}

/// The pending bid in words for the view's seat ([`crate::GameEntry::prompt`]).
#[must_use]
pub fn prompt(view: &Value, _names: &Names) -> Option<String> {
    let you = viewer_acts(view)?;
    let prize = shown(&view["prize"]);
    if view["prize"].is_null() {
        return None;
    }
    let hand = &view["hands"][you.as_str()];
    Some(match hand.as_array().map(Vec::as_slice) {
        Some([last]) => format!(
            "Bid your last card, {}, for the {prize}-point prize.",
            shown(last)
        ),
        _ => format!(
            "Bid for the {prize}-point prize: pick one of your {}.",
            count(len(hand), "card")
        ),
    })
}

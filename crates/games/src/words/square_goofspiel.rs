//! Square Goofspiel's view in words (`SquareGoofspielView`): the line points, the board as a
//! grid (owners, this phase's auctions to come, the cell up now), both hands (public: every bid is
//! revealed) and the last auction.

use colosseum_engine::Seat;
use serde_json::Value;

use super::{
    count, escaped, finish, grid_block, hand_line, len, now_line, scores, viewer_acts, viewer_first,
};
use crate::svg::{num, shown, Names};

/// The view in words ([`crate::GameEntry::describe`]).
#[must_use]
pub fn describe(view: &Value, names: &Names) -> String {
    let names = escaped(names);
    let points = |s: Seat| count(num(&view["line_points"][s.as_str()]), "line point");
    let mut lines = vec![format!("Line points: {}", scores(&names, points))];
    let board: Vec<&Vec<Value>> = view["board"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_array)
        .collect();
    let side = board.len();
    let label = |cell: &str| {
        view["phase_cells"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["cell"] == cell && p["state"] == "open")
    };
    if side > 0 {
        let up = view["up_now"].as_str().unwrap_or_default();
        lines.push(grid_block(side, side, 3, |r, c| {
            let id = format!("{}{}", char::from(b'a' + c as u8), r + 1);
            let at = board[r].get(c).and_then(Value::as_str).unwrap_or("open");
            let mark = match at {
                "p1" => "X".to_string(),
                "p2" => "O".to_string(),
                "nobody" => "-".to_string(),
                _ => label(&id).map_or(".".to_string(), |p| shown(&p["label"])),
            };
            if id == up {
                format!("[{mark}]")
            } else {
                format!(" {mark} ")
            }
        }));
        lines.push(format!(
            "X: {}'s, O: {}'s, -: nobody's (tied bids), letters: this phase's auctions to come, \
             [ ]: up now.",
            names.of(Seat::P1),
            names.of(Seat::P2)
        ));
    }
    if let Some(up) = view["up_now"].as_str() {
        lines.push(format!(
            "Phase {} of {side}; up now: cell **{up}**.",
            shown(&view["phase"])
        ));
    }
    for seat in viewer_first(view) {
        let hand = &view["hands"][seat.as_str()];
        let strength = format!(", strength {}", shown(&hand["strength"]));
        lines.push(hand_line(view, &names, seat, &strength, &hand["cards"]));
    }
    if let Some(a) = view["auctions"].as_array().and_then(|a| a.last()) {
        let won = match super::seat(&a["winner"]) {
            Some(w) => format!("{} wins it", names.of(w)),
            None => "nobody wins it".to_string(),
        };
        let bid = |s: Seat| match shown(&a[s.as_str()]).as_str() {
            "pass" => format!("{} passed", names.of(s)),
            b => format!("{} bid {b}", names.of(s)),
        };
        lines.push(format!(
            "Last auction, cell {} ({}): {}, {}; {won}.",
            shown(&a["cell"]),
            shown(&a["label"]),
            bid(Seat::P1),
            bid(Seat::P2),
        ));
    }
    lines.push(now_line(view, &names, prompt(view, &names)));
    finish(lines)
}

/// The pending bid in words for the view's seat ([`crate::GameEntry::prompt`]).
#[must_use]
pub fn prompt(view: &Value, _names: &Names) -> Option<String> {
    let you = viewer_acts(view)?;
    let up = view["up_now"].as_str()?;
    let side = len(&view["board"]);
    let label = view["phase_cells"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["cell"] == up)
        .map(|p| {
            format!(
                " (auction {} of phase {} of {side})",
                shown(&p["label"]),
                shown(&view["phase"])
            )
        })
        .unwrap_or_default();
    let cards = &view["hands"][you.as_str()]["cards"];
    let what = match cards.as_array().map(Vec::as_slice) {
        Some([]) | None => "you have no cards left: pass".to_string(),
        Some([last]) => format!("bid your last card, {}, or pass", shown(last)),
        Some(all) => format!("bid one of your {} or pass", count(all.len(), "card")),
    };
    Some(format!("Bid for cell {up}{label}: {what}."))
}

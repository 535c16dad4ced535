//! Goofspiel's board as an SVG ([`crate::GameEntry::board_svg`]): the prize up now, the last
//! turn's bids, both hands and the prizes to come, drawn from the spectator's view.

use colosseum_engine::Seat;
use serde_json::Value;

use crate::svg::{header, list, num, of, seat_colour, shown, Anchor, Svg, INK, MUTED};

/// The spectator's view (`GoofspielView` as JSON) drawn as an SVG document.
#[must_use]
pub fn board_svg(view: &Value) -> String {
    let width = 640.0;
    let mut svg = Svg::new(640, 330);
    let points = Seat::BOTH.map(|s| format!("{} points", shown(of(&view["points"], s))));
    let y = header(&mut svg, width, "Goofspiel", points);
    svg.text(16.0, y + 20.0, 14.0, MUTED, Anchor::Start, "Prize now");
    match view["prize"].as_u64() {
        Some(p) => svg.card(16.0, y + 28.0, 56.0, 80.0, INK, &p.to_string()),
        None => svg.text(16.0, y + 70.0, 16.0, MUTED, Anchor::Start, "-"),
    }
    let turns = view["turns"].as_array().cloned().unwrap_or_default();
    svg.text(110.0, y + 20.0, 14.0, MUTED, Anchor::Start, "Last turn");
    if let Some(last) = turns.last() {
        svg.card(110.0, y + 28.0, 56.0, 80.0, INK, &shown(&last["prize"]));
        for (i, seat) in Seat::BOTH.into_iter().enumerate() {
            let x = 190.0 + 70.0 * i as f64;
            svg.card(
                x,
                y + 28.0,
                56.0,
                80.0,
                seat_colour(seat),
                &shown(of(last, seat)),
            );
            svg.text(
                x + 28.0,
                y + 124.0,
                13.0,
                seat_colour(seat),
                Anchor::Middle,
                seat.as_str(),
            );
        }
        let taken = match last["winner"].as_str() {
            Some(w) => format!("{w} takes {}", shown(&last["prize"])),
            None => "tied: discarded".to_string(),
        };
        svg.text(340.0, y + 74.0, 16.0, INK, Anchor::Start, &taken);
    } else {
        svg.text(110.0, y + 70.0, 16.0, MUTED, Anchor::Start, "-");
    }
    let mut line = y + 160.0;
    for seat in Seat::BOTH {
        svg.text(
            16.0,
            line,
            15.0,
            seat_colour(seat),
            Anchor::Start,
            &format!(
                "{} hand: {}",
                seat.as_str(),
                list(of(&view["hands"], seat), " ")
            ),
        );
        line += 26.0;
    }
    svg.text(
        16.0,
        line,
        15.0,
        INK,
        Anchor::Start,
        &format!(
            "Prizes to come: {}   (turn {})",
            list(&view["prizes_left"], " "),
            num(&serde_json::json!(turns.len())) + 1
        ),
    );
    svg.finish()
}

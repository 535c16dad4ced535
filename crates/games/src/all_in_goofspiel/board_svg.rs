//! All-In Goofspiel's board as an SVG ([`crate::GameEntry::board_svg`]): the round in progress
//! (face-down cards only counted), the last finished round's cards and numbers, both hands and
//! the points, drawn from the spectator's view.

use colosseum_engine::Seat;
use serde_json::Value;

use crate::svg::{header, list, of, seat_colour, shown, Anchor, Svg, INK, MUTED};

/// The spectator's view (`AllInGoofspielView` as JSON) drawn as an SVG document.
#[must_use]
pub fn board_svg(view: &Value) -> String {
    let width = 720.0;
    let mut svg = Svg::new(720, 330);
    let points = Seat::BOTH.map(|s| format!("{} points", shown(of(&view["points"], s))));
    let y = header(&mut svg, width, "All-In Goofspiel", points);
    let mut ty = y + 22.0;
    match view["current"].as_object() {
        Some(c) => {
            let starter = c.get("starter").and_then(Value::as_str).unwrap_or("?");
            let down = match c.get("face_down_count").and_then(Value::as_u64) {
                Some(n) => format!("{starter} has put down {n} cards face down"),
                None => format!("{starter} puts down cards first"),
            };
            svg.text(
                16.0,
                ty,
                16.0,
                INK,
                Anchor::Start,
                &format!(
                    "Round {} (worth {}): {down}",
                    c.get("round").map(shown).unwrap_or_default(),
                    c.get("worth").map(shown).unwrap_or_default()
                ),
            );
        }
        None => svg.text(16.0, ty, 16.0, INK, Anchor::Start, "The game is over"),
    }
    ty += 34.0;
    if let Some(last) = view["rounds"].as_array().and_then(|r| r.last()) {
        let won = last["winner"]
            .as_str()
            .map_or("tied: split".to_string(), |w| format!("won by {w}"));
        svg.text(
            16.0,
            ty,
            15.0,
            MUTED,
            Anchor::Start,
            &format!(
                "Last round {} (worth {}), {won}",
                shown(&last["round"]),
                shown(&last["worth"])
            ),
        );
        ty += 10.0;
        for seat in Seat::BOTH {
            let cards = of(&last["cards"], seat)
                .as_array()
                .cloned()
                .unwrap_or_default();
            let mut x = 16.0;
            ty += 8.0;
            svg.text(
                x,
                ty + 26.0,
                14.0,
                seat_colour(seat),
                Anchor::Start,
                seat.as_str(),
            );
            x += 28.0;
            for card in cards.iter().take(16) {
                svg.card(x, ty, 30.0, 40.0, seat_colour(seat), &shown(card));
                x += 34.0;
            }
            if cards.is_empty() {
                svg.text(x, ty + 26.0, 14.0, MUTED, Anchor::Start, "no cards");
            }
            svg.text(
                width - 16.0,
                ty + 26.0,
                14.0,
                seat_colour(seat),
                Anchor::End,
                &format!("= {}", shown(of(&last["numbers"], seat))),
            );
            ty += 44.0;
        }
    }
    ty += 24.0;
    for seat in Seat::BOTH {
        svg.text(
            16.0,
            ty,
            14.0,
            seat_colour(seat),
            Anchor::Start,
            &format!(
                "{} hand: {}",
                seat.as_str(),
                list(of(&view["hands"], seat), " ")
            ),
        );
        ty += 22.0;
    }
    svg.finish()
}

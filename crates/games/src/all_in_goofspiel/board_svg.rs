//! All-In Goofspiel's board as an SVG ([`crate::GameEntry::board_svg`]): the round in progress
//! (face-down cards only counted), the last finished round's cards and numbers, both hands and
//! the points, drawn from the spectator's view.

use colosseum_engine::Seat;
use serde_json::Value;

use crate::svg::{
    hand, header, of, seat_colour, shown, Anchor, Names, Svg, HEADER_EXTRA, INK, MUTED,
};
use crate::text::plural;

/// The spectator's view (`AllInGoofspielView` as JSON) drawn as an SVG document, labelled with
/// `names`.
#[must_use]
pub fn board_svg(view: &Value, names: &Names) -> String {
    let width = 720.0;
    let mut svg = Svg::new(720, 362 + HEADER_EXTRA);
    let points = Seat::BOTH.map(|s| plural(shown(of(&view["points"], s)), "point"));
    let y = header(&mut svg, width, "All-In Goofspiel", names, points);
    let mut ty = y + 22.0;
    match view["current"].as_object() {
        Some(c) => {
            let starter = names.seat_word(c.get("starter").and_then(Value::as_str).unwrap_or("?"));
            let down = match c.get("face_down_count").and_then(Value::as_u64) {
                Some(n) => format!("{starter} has put down {} face down", plural(n, "card")),
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
            .map_or("tied: split".to_string(), |w| {
                format!("won by {}", names.seat_word(w))
            });
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
            // The player's name over their row of cards.
            let mut x = 16.0;
            ty += 24.0;
            svg.text(
                x,
                ty,
                14.0,
                seat_colour(seat),
                Anchor::Start,
                names.of(seat),
            );
            ty += 6.0;
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
                "Hand of {}: {}",
                names.of(seat),
                hand(of(&view["hands"], seat))
            ),
        );
        ty += 22.0;
    }
    svg.finish()
}

//! Goofspiel's board as an SVG ([`crate::GameEntry::board_svg`]): the prize up now, the last
//! turn's bids, both hands and the prizes to come, drawn from the spectator's view.

use colosseum_engine::Seat;
use serde_json::Value;

use crate::svg::{
    hand, header, list, num, of, seat_colour, shown, Anchor, Names, Svg, HEADER_EXTRA, INK, MUTED,
};
use crate::text::plural;

/// The spectator's view (`GoofspielView` as JSON) drawn as an SVG document, labelled with
/// `names`.
#[must_use]
pub fn board_svg(view: &Value, names: &Names) -> String {
    let width = 640.0;
    let mut svg = Svg::new(640, 330 + HEADER_EXTRA);
    let points = Seat::BOTH.map(|s| plural(shown(of(&view["points"], s)), "point"));
    let y = header(&mut svg, width, "Goofspiel", names, points);
    svg.text(16.0, y + 20.0, 14.0, MUTED, Anchor::Start, "Prize now");
    match view["prize"].as_u64() {
        Some(p) => svg.card(16.0, y + 28.0, 56.0, 80.0, INK, &p.to_string()),
        None => svg.text(16.0, y + 70.0, 16.0, MUTED, Anchor::Start, "-"),
    }
    let turns = view["turns"].as_array().cloned().unwrap_or_default();
    svg.text(110.0, y + 20.0, 14.0, MUTED, Anchor::Start, "Last turn");
    if let Some(last) = turns.last() {
        svg.card(110.0, y + 28.0, 56.0, 80.0, INK, &shown(&last["prize"]));
        // Each bid in its player's colour, named beside it.
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
                340.0,
                y + 50.0 + 24.0 * i as f64,
                15.0,
                seat_colour(seat),
                Anchor::Start,
                &format!("{} bid {}", names.of(seat), shown(of(last, seat))),
            );
        }
        let taken = match last["winner"].as_str() {
            Some(w) => format!("{} takes {}", names.seat_word(w), shown(&last["prize"])),
            None => "tied: discarded".to_string(),
        };
        svg.text(340.0, y + 100.0, 16.0, INK, Anchor::Start, &taken);
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
                "Hand of {}: {}",
                names.of(seat),
                hand(of(&view["hands"], seat))
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

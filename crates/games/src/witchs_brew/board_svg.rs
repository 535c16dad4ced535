//! The Witch's Brew's board as an SVG ([`crate::GameEntry::board_svg`]): the 7x6 grid with each
//! seat's and the neutral stones (frozen ones marked), the Cauldron's round and prizes, and each
//! seat's points and the victory conditions the spectator may see, drawn from the spectator's
//! view.

use colosseum_engine::Seat;
use serde_json::Value;

use crate::svg::{
    grid, header, list, of, seat_colour, shown, Anchor, Names, Svg, HEADER_EXTRA, INK, MUTED,
};
use crate::text::plural;

/// The spectator's view (`WitchsBrewView` as JSON) drawn as an SVG document, labelled with
/// `names`.
#[must_use]
pub fn board_svg(view: &Value, names: &Names) -> String {
    let width = 720.0;
    let mut svg = Svg::new(720, 440 + HEADER_EXTRA);
    let players = &view["players"];
    let points = Seat::BOTH.map(|s| plural(shown(&of(players, s)["points"]), "point"));
    let y = header(&mut svg, width, "The Witch's Brew", names, points);
    let rows: Vec<Vec<char>> = view["grid"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            row.as_array()
                .into_iter()
                .flatten()
                .map(|cell| {
                    let frozen = cell["frozen"].as_bool() == Some(true);
                    match (cell["stone"].as_str(), frozen) {
                        (Some("p1"), false) => '1',
                        (Some("p1"), true) => 'A',
                        (Some("p2"), false) => '2',
                        (Some("p2"), true) => 'B',
                        (Some(_), false) => 'g',
                        (Some(_), true) => 'G',
                        (None, true) => '#',
                        (None, false) => '.',
                    }
                })
                .collect()
        })
        .collect();
    let size = 46.0;
    grid(&mut svg, 40.0, y + 26.0, size, &rows, |svg, x, y, s, ch| {
        let (cx, cy, r) = (x + s / 2.0, y + s / 2.0, s * 0.36);
        let fill = match ch {
            '1' | 'A' => seat_colour(Seat::P1),
            '2' | 'B' => seat_colour(Seat::P2),
            'g' | 'G' => "#9a9a9a",
            _ => "",
        };
        if !fill.is_empty() {
            svg.circle(cx, cy, r, fill, None);
        }
        if matches!(ch, 'A' | 'B' | 'G' | '#') {
            svg.rect(x + 3.0, y + 3.0, s - 6.0, s - 6.0, "none", Some("#5fb3d9"));
        }
    });
    let tx = 40.0 + size * 7.0 + 30.0;
    let mut ty = y + 30.0;
    svg.text(
        tx,
        ty,
        15.0,
        INK,
        Anchor::Start,
        &format!("Cauldron: {}", shown(&view["cauldron"])),
    );
    ty += 20.0;
    if view["prize_pair"].is_array() {
        svg.text(
            tx,
            ty,
            14.0,
            INK,
            Anchor::Start,
            &format!("prizes {}", list(&view["prize_pair"], " and ")),
        );
        ty += 20.0;
    }
    if let Some(w) = view["waiting_for"].as_str() {
        svg.text(
            tx,
            ty,
            13.0,
            MUTED,
            Anchor::Start,
            &format!("waiting for {}", names.sentence(w)),
        );
        ty += 20.0;
    }
    ty += 10.0;
    for seat in Seat::BOTH {
        let p = of(players, seat);
        svg.bold(
            tx,
            ty,
            15.0,
            seat_colour(seat),
            Anchor::Start,
            &format!(
                "{}: {}",
                names.of(seat),
                plural(shown(&p["points"]), "point")
            ),
        );
        ty += 20.0;
        if p["hand"].is_array() {
            svg.text(
                tx + 10.0,
                ty,
                13.0,
                seat_colour(seat),
                Anchor::Start,
                &format!("hand {}", list(&p["hand"], " ")),
            );
            ty += 18.0;
        }
        for c in p["conditions"].as_array().into_iter().flatten().take(5) {
            let mark = if c["scored"].as_bool() == Some(true) {
                "scored "
            } else {
                ""
            };
            svg.text(
                tx + 10.0,
                ty,
                12.0,
                seat_colour(seat),
                Anchor::Start,
                &format!(
                    "{mark}{} ({} pt)",
                    shown(&c["condition"]),
                    shown(&c["points"])
                ),
            );
            ty += 16.0;
        }
        ty += 12.0;
    }
    svg.finish()
}

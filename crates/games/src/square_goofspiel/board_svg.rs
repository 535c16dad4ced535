//! Square Goofspiel's board as an SVG ([`crate::GameEntry::board_svg`]): the 6x6 board with
//! each cell's owner, the cell up for auction, the line points, the last auction's bids and both
//! (public) hands, drawn from the spectator's view.

use colosseum_engine::Seat;
use serde_json::Value;

use crate::svg::{
    grid, header, list, of, seat_colour, shown, Anchor, Names, Svg, HEADER_EXTRA, INK, MUTED,
};
use crate::text::plural;

/// The spectator's view (`SquareGoofspielView` as JSON) drawn as an SVG document, labelled with
/// `names`.
#[must_use]
pub fn board_svg(view: &Value, names: &Names) -> String {
    let width = 640.0;
    let mut svg = Svg::new(640, 420 + HEADER_EXTRA);
    let points = Seat::BOTH.map(|s| plural(shown(of(&view["line_points"], s)), "line point"));
    let y = header(&mut svg, width, "Square Goofspiel", names, points);
    let up = view["up_now"].as_str().unwrap_or("");
    let rows: Vec<Vec<char>> = view["board"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(r, row)| {
            row.as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(c, cell)| {
                    let name = format!("{}{}", (b'a' + c as u8) as char, r + 1);
                    match cell.as_str() {
                        Some("p1") => '1',
                        Some("p2") => '2',
                        Some("nobody") => 'x',
                        _ if name == up => '*',
                        _ => '.',
                    }
                })
                .collect()
        })
        .collect();
    let size = 48.0;
    grid(
        &mut svg,
        40.0,
        y + 24.0,
        size,
        &rows,
        |svg, x, y, s, ch| match ch {
            '1' => svg.rect(
                x + 4.0,
                y + 4.0,
                s - 8.0,
                s - 8.0,
                seat_colour(Seat::P1),
                None,
            ),
            '2' => svg.rect(
                x + 4.0,
                y + 4.0,
                s - 8.0,
                s - 8.0,
                seat_colour(Seat::P2),
                None,
            ),
            'x' => svg.text(
                x + s / 2.0,
                y + s * 0.65,
                s * 0.4,
                MUTED,
                Anchor::Middle,
                "x",
            ),
            '*' => svg.rect(x + 3.0, y + 3.0, s - 6.0, s - 6.0, "#f4d35e", Some(INK)),
            _ => {}
        },
    );
    let tx = 360.0;
    let mut ty = y + 30.0;
    let phase = shown(&view["phase"]);
    svg.text(tx, ty, 15.0, INK, Anchor::Start, &format!("Phase {phase}"));
    ty += 24.0;
    if !up.is_empty() {
        svg.text(
            tx,
            ty,
            15.0,
            INK,
            Anchor::Start,
            &format!("Up for auction: {up}"),
        );
        ty += 24.0;
    }
    if let Some(last) = view["auctions"].as_array().and_then(|a| a.last()) {
        svg.text(
            tx,
            ty,
            14.0,
            MUTED,
            Anchor::Start,
            &format!("Last auction: {}", shown(&last["cell"])),
        );
        ty += 22.0;
        for seat in Seat::BOTH {
            svg.text(
                tx + 12.0,
                ty,
                14.0,
                seat_colour(seat),
                Anchor::Start,
                &format!("{} bid {}", names.of(seat), shown(of(last, seat))),
            );
            ty += 20.0;
        }
        let won = last["winner"]
            .as_str()
            .map_or("nobody", |w| names.seat_word(w));
        svg.text(
            tx + 12.0,
            ty,
            14.0,
            INK,
            Anchor::Start,
            &format!("won by {won}"),
        );
        ty += 28.0;
    }
    for seat in Seat::BOTH {
        svg.text(
            tx,
            ty,
            14.0,
            seat_colour(seat),
            Anchor::Start,
            &format!("Hand of {}:", names.of(seat)),
        );
        ty += 18.0;
        svg.text(
            tx + 12.0,
            ty,
            13.0,
            seat_colour(seat),
            Anchor::Start,
            &list(&of(&view["hands"], seat)["cards"], " "),
        );
        ty += 24.0;
    }
    svg.finish()
}

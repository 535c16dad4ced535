//! Thwart Omega's board as an SVG ([`crate::GameEntry::board_svg`]): the board with its single
//! and double stones and burned cells, each colour's groups and product, and the last round's
//! placements, drawn from the spectator's view.

use colosseum_engine::Seat;
use serde_json::Value;

use crate::svg::{grid, header, list, shown, Anchor, Names, Svg, HEADER_EXTRA, INK, MUTED};

/// The spectator's view (`ThwartOmegaView` as JSON) drawn as an SVG document, labelled with
/// `names`.
#[must_use]
pub fn board_svg(view: &Value, names: &Names) -> String {
    let rows: Vec<Vec<char>> = view["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r.as_str().unwrap_or("").chars().collect())
        .collect();
    let n = rows.len().max(1) as f64;
    let size = (360.0 / n).min(52.0);
    let board = size * n;
    let width = 420.0 + board;
    let height = (board + 120.0).max(300.0) + f64::from(HEADER_EXTRA);
    let mut svg = Svg::new(width as u32, height as u32);
    let scores = ["black", "white"].map(|c| format!("{c} {}", shown(&view[c]["product"])));
    let y = header(&mut svg, width, "Thwart Omega", names, scores);
    grid(&mut svg, 40.0, y + 24.0, size, &rows, |svg, x, y, s, ch| {
        let (cx, cy, r) = (x + s / 2.0, y + s / 2.0, s * 0.36);
        match ch {
            'b' | 'B' => svg.circle(cx, cy, r, "#1b1b1b", None),
            'w' | 'W' => svg.circle(cx, cy, r, "#ffffff", Some("#1b1b1b")),
            '#' => svg.rect(x + 2.0, y + 2.0, s - 4.0, s - 4.0, "#5b4636", None),
            _ => {}
        }
        match ch {
            'B' => svg.circle(cx, cy, r * 0.4, "#ffffff", None),
            'W' => svg.circle(cx, cy, r * 0.4, "#1b1b1b", None),
            _ => {}
        }
    });
    let tx = 60.0 + board;
    let mut ty = y + 34.0;
    for (colour, seat) in [("black", Seat::P1), ("white", Seat::P2)] {
        svg.text(
            tx,
            ty,
            15.0,
            INK,
            Anchor::Start,
            &format!(
                "{colour} ({}): {}",
                names.of(seat),
                shown(&view[colour]["product"])
            ),
        );
        ty += 20.0;
        svg.text(
            tx + 12.0,
            ty,
            13.0,
            MUTED,
            Anchor::Start,
            &format!("groups {}", list(&view[colour]["groups"], " x ")),
        );
        ty += 28.0;
    }
    svg.text(
        tx,
        ty,
        14.0,
        INK,
        Anchor::Start,
        &format!(
            "Rounds played: {}   empty cells: {}",
            shown(&view["rounds"]),
            shown(&view["empty"])
        ),
    );
    ty += 28.0;
    if let Some(last) = view["last_round"].as_object() {
        svg.text(tx, ty, 14.0, MUTED, Anchor::Start, "Last round:");
        ty += 20.0;
        for seat in Seat::BOTH {
            let played = last.get(seat.as_str()).map(shown).unwrap_or_default();
            svg.text(
                tx + 12.0,
                ty,
                14.0,
                INK,
                Anchor::Start,
                &format!("{} {played}", names.of(seat)),
            );
            ty += 20.0;
        }
    }
    svg.finish()
}

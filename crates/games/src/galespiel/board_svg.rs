//! Galespiel's board as an SVG ([`crate::GameEntry::board_svg`]): the 13x13 lattice with each
//! colour's dots, the bridges built and the cost of each open spot, then each player's
//! materials and cheapest crossing and the last round's bids, drawn from the spectator's view.

use colosseum_engine::Seat;
use serde_json::Value;

use crate::svg::{header_in, of, shown, Anchor, Names, Svg, HEADER_EXTRA, INK, MUTED};
use crate::text::plural;

/// Brown, `p1`'s colour in Galespiel.
const BROWN: &str = "#8b5a2b";
/// Blue, `p2`'s.
const BLUE: &str = "#2161a8";

fn colour(seat: Seat) -> &'static str {
    match seat {
        Seat::P1 => BROWN,
        Seat::P2 => BLUE,
    }
}

/// A spot's name (`b2`) as 1-based (column, row).
fn spot(name: &str) -> Option<(usize, usize)> {
    let mut chars = name.chars();
    let col = chars.next()?;
    let row: usize = chars.as_str().parse().ok()?;
    col.is_ascii_lowercase()
        .then(|| ((col as u8 - b'a') as usize + 1, row))
}

/// The spectator's view (`GalespielView` as JSON) drawn as an SVG document, labelled with
/// `names`.
#[must_use]
pub fn board_svg(view: &Value, names: &Names) -> String {
    let width = 760.0;
    let mut svg = Svg::new(760, 520 + HEADER_EXTRA);
    let players = &view["players"];
    let scores = Seat::BOTH.map(|s| {
        format!(
            "{} M, {}",
            shown(&of(players, s)["materials"]),
            plural(
                of(players, s)["bridges"].as_array().map_or(0, Vec::len),
                "bridge"
            )
        )
    });
    let y = header_in(&mut svg, width, "Galespiel", names, scores, [BROWN, BLUE]);
    // The lattice's side from its spots: 61 on the seed's 13, 25 and 5 on the small variant's 9
    // and 5.
    let side = match view["spots"].as_array().map_or(0, Vec::len) {
        5 => 5usize,
        25 => 9,
        _ => 13,
    };
    let step = 32.0;
    let (x0, y0) = (40.0, y + 30.0);
    let at = |c: usize, r: usize| (x0 + step * (c - 1) as f64, y0 + step * (r - 1) as f64);
    // Dots: brown where the column is odd and the row even (1-based), blue the other way.
    for r in 1..=side {
        for c in 1..=side {
            let (x, yy) = at(c, r);
            if c % 2 == 1 && r % 2 == 0 {
                svg.circle(x, yy, 5.0, BROWN, None);
            } else if c % 2 == 0 && r % 2 == 1 {
                svg.circle(x, yy, 5.0, BLUE, None);
            }
        }
    }
    for s in view["spots"].as_array().into_iter().flatten() {
        let Some((c, r)) = s["spot"].as_str().and_then(spot) else {
            continue;
        };
        let (x, yy) = at(c, r);
        match s["bridge"].as_str() {
            Some(owner) => {
                let seat = if owner == "p2" { Seat::P2 } else { Seat::P1 };
                // Brown runs across at an even/even spot (1-based), down at an odd/odd one.
                let across = (c % 2 == 0) == (seat == Seat::P1);
                let (dx, dy) = if across { (step, 0.0) } else { (0.0, step) };
                svg.line(x - dx, yy - dy, x + dx, yy + dy, colour(seat), 6.0);
            }
            None => svg.text(x, yy + 4.0, 10.0, MUTED, Anchor::Middle, &shown(&s["cost"])),
        }
    }
    let tx = x0 + step * 12.0 + 40.0;
    let mut ty = y + 30.0;
    svg.text(
        tx,
        ty,
        15.0,
        INK,
        Anchor::Start,
        &format!("Round {}", shown(&view["rounds"])),
    );
    ty += 22.0;
    svg.text(
        tx,
        ty,
        15.0,
        INK,
        Anchor::Start,
        &format!("Prize now: {}", shown(&view["prize"])),
    );
    ty += 30.0;
    for seat in Seat::BOTH {
        let p = of(players, seat);
        svg.bold(
            tx,
            ty,
            15.0,
            colour(seat),
            Anchor::Start,
            &format!("{} ({})", names.of(seat), shown(&p["colour"])),
        );
        ty += 20.0;
        svg.text(
            tx + 10.0,
            ty,
            13.0,
            colour(seat),
            Anchor::Start,
            &format!("materials {}", shown(&p["materials"])),
        );
        ty += 18.0;
        svg.text(
            tx + 10.0,
            ty,
            13.0,
            colour(seat),
            Anchor::Start,
            &format!("cheapest crossing {}", shown(&p["cheapest_connection"])),
        );
        ty += 18.0;
        let hand: Vec<String> = p["cards"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["in_hand"].as_bool() == Some(true))
            .map(|c| shown(&c["value"]))
            .collect();
        svg.text(
            tx + 10.0,
            ty,
            13.0,
            colour(seat),
            Anchor::Start,
            &format!("hand {}", hand.join(" ")),
        );
        ty += 28.0;
    }
    if let Some(last) = view["last_round"].as_object() {
        svg.text(
            tx,
            ty,
            14.0,
            MUTED,
            Anchor::Start,
            &format!(
                "Last round ({}):",
                last.get("round").map(shown).unwrap_or_default()
            ),
        );
        ty += 20.0;
        for seat in Seat::BOTH {
            let bid = last
                .get("bids")
                .map(|b| shown(&of(b, seat)["value"]))
                .unwrap_or_default();
            svg.text(
                tx + 10.0,
                ty,
                13.0,
                colour(seat),
                Anchor::Start,
                &format!("{} bid {bid}", names.of(seat)),
            );
            ty += 18.0;
        }
        let won = names.seat_word(
            last.get("winner")
                .and_then(Value::as_str)
                .unwrap_or("nobody"),
        );
        svg.text(
            tx + 10.0,
            ty,
            13.0,
            INK,
            Anchor::Start,
            &format!(
                "prize {} to {won}",
                last.get("prize").map(shown).unwrap_or_default()
            ),
        );
    }
    svg.finish()
}

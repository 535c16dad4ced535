//! Each game's board hook ([`colosseum_games::GameEntry::board_svg`]) draws its spectator view
//! as an SVG that renders to a PNG of a sane size with visible text, at the start, in the middle
//! and at the end of a random game, labelled with the players' names (escaped), never `p1`/`p2`.

use colosseum_engine::{Seat, TextStep, Viewer};
use colosseum_games::svg::Names;
use colosseum_server::webhooks::png::{board_png, svg_to_png};
use resvg::tiny_skia::Pixmap;

/// Plays `steps` random steps (chance included) of `game` from `seed`; the spectator's view.
fn view_after(game: &str, steps: usize, seed: u64) -> serde_json::Value {
    let entry = colosseum_games::find(game).unwrap();
    let mut g = (entry.create)(&Default::default()).unwrap();
    let mut rng = colosseum_engine::seeded_rng(seed);
    for _ in 0..steps {
        if g.outcome().is_some() {
            break;
        }
        if g.apply_random_chance(&mut rng).is_some() {
            continue;
        }
        let mut step = TextStep::default();
        for seat in Seat::BOTH {
            if g.pending().includes(seat) {
                let m = g.random_move(seat, &mut rng).unwrap();
                match seat {
                    Seat::P1 => step.p1 = Some(m),
                    Seat::P2 => step.p2 = Some(m),
                }
            }
        }
        g.apply(&step).unwrap();
    }
    g.view_json(Viewer::Spectator)
}

/// The text of every `<text>` element of `svg`, as written (escaped).
fn texts(svg: &str) -> Vec<&str> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(&body[..body.find("</text>")?])
        })
        .collect()
}

/// Whether `text` holds `p1` or `p2` as a word of its own.
fn has_seat_id(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| w == "p1" || w == "p2")
}

fn check(game: &str) {
    let entry = colosseum_games::find(game).unwrap();
    let names = ["Ann".to_string(), "<Bea>".to_string()];
    for steps in [0, 12, 10_000] {
        let view = view_after(game, steps, 7 + steps as u64);
        let svg = (entry.board_svg)(&view, &Names::new(&names[0], &names[1]));
        // The game's own drawing, titled with its name (not the plain fallback).
        assert!(
            svg.contains(&colosseum_games::svg::escape(entry.name)),
            "{game}: {svg}"
        );
        // Labelled with the players' names, escaped for XML, and never with a seat id.
        let texts = texts(&svg);
        assert!(texts.contains(&"Ann"), "{game} after {steps}: {texts:?}");
        assert!(
            texts.contains(&"&lt;Bea&gt;"),
            "{game} after {steps}: {texts:?}"
        );
        assert!(!svg.contains("<Bea>"), "{game}: an unescaped name");
        let seat_ids: Vec<&&str> = texts.iter().filter(|t| has_seat_id(t)).collect();
        assert!(seat_ids.is_empty(), "{game} after {steps}: {seat_ids:?}");
        // The names carry each player's headline score in the header (the line below the
        // name), written as a count: never "1 points".
        assert!(
            !texts
                .iter()
                .any(|t| t.starts_with("1 ") && t.contains(" points")),
            "{game} after {steps}: {texts:?}"
        );
        let png = board_png(game, &view, &names).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        if let Some(dir) = std::env::var_os("COLOSSEUM_BOARD_DIR") {
            std::fs::write(
                std::path::Path::new(&dir).join(format!("{game}-{steps}.png")),
                &png,
            )
            .unwrap();
        }
        let pixmap = Pixmap::decode_png(&png).unwrap();
        let (w, h) = (pixmap.width(), pixmap.height());
        assert!(
            (300..=1200).contains(&w) && (250..=1000).contains(&h),
            "{game}: {w}x{h}"
        );
        // Ink: dark pixels from the text (the font is embedded, none is installed).
        let dark = pixmap
            .pixels()
            .iter()
            .filter(|p| u32::from(p.red()) + u32::from(p.green()) + u32::from(p.blue()) < 200)
            .count();
        assert!(dark > 300, "{game} after {steps} steps: {dark} dark pixels");
    }
}

macro_rules! per_game {
    ($($name:ident => $id:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            check($id);
        }
    )*
        #[test]
        fn every_game_in_the_registry_is_tested_here() {
            let tested = [$($id),*];
            for entry in colosseum_games::registry() {
                assert!(tested.contains(&entry.id), "{} has no board test", entry.id);
            }
        }
    };
}

per_game! {
    goofspiel_board_renders => "goofspiel",
    square_goofspiel_board_renders => "square-goofspiel",
    thwart_omega_board_renders => "thwart-omega",
    all_in_goofspiel_board_renders => "all-in-goofspiel",
    galespiel_board_renders => "galespiel",
    witchs_brew_board_renders => "witchs-brew",
}

#[test]
fn a_long_name_is_cut_and_a_blank_one_is_a_players_number() {
    let names = Names::new(&"Bartholomew".repeat(4), " ");
    assert_eq!(names.of(Seat::P1), "BartholomewBartholome...");
    assert_eq!(
        names.of(Seat::P1).chars().count(),
        colosseum_games::svg::MAX_NAME
    );
    assert_eq!(names.of(Seat::P2), "Player 2");
}

#[test]
fn text_renders_without_system_fonts_and_bad_svg_is_an_error() {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300" fill="white"/><text x="10" y="150" font-family="sans-serif" font-size="60" fill="black">Goofspiel</text></svg>"#;
    let png = svg_to_png(svg).unwrap();
    let pixmap = Pixmap::decode_png(&png).unwrap();
    let ink = pixmap.pixels().iter().filter(|p| p.red() < 100).count();
    assert!(ink > 1000, "the text drew {ink} pixels");
    assert!(svg_to_png("<svg").is_err());
}

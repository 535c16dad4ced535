//! The small variant for research (`variant.rs`): the seed's lattice unchanged, the small
//! lattices built from their side, the options and their errors, and games on the variant.

use colosseum_engine::{parse_pairs, AnyGame, Erased, TextStep};

use super::*;

fn variant(pairs: &[&str]) -> Result<Galespiel, OptionsError> {
    Galespiel::from_raw(&parse_pairs(pairs.iter().copied()).unwrap())
}

fn refusal(pairs: &[&str]) -> String {
    variant(pairs).map(|_| ()).unwrap_err().to_string()
}
/// A fingerprint (FNV-1a) of the 13×13 lattice's tables, read through the public functions:
/// each spot's point, both colours' bridge ends and grid edges, what stands at each point, each
/// dot's point, the edges, and connection, surrounding and the cheapest crossing on a fixed
/// sequence of bridge sets.
fn seed_geometry_fingerprint() -> u64 {
    use super::geometry::{self as geo, Dot, Point, Spot, DOTS, SIDE, SPOTS};
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u64| {
        for b in x.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for i in 0..SPOTS {
        let s = Spot::from_index(i);
        eat(u64::from(s.point().col) << 8 | u64::from(s.point().row));
        for seat in Seat::BOTH {
            let (a, b) = s.ends(seat);
            eat(u64::from(a.0) << 8 | u64::from(b.0));
            let (eh, ev) = geo::edges(seat, s.bit());
            eat(eh);
            eat(ev);
            eat(u64::from(s.is_horizontal_for(seat)));
        }
    }
    for row in 0..SIDE as u8 {
        for col in 0..SIDE as u8 {
            let p = Point { col, row };
            eat(p.spot().map_or(999, |s| s.index() as u64));
            eat(p.describe().len() as u64);
        }
    }
    for seat in Seat::BOTH {
        for d in 0..DOTS as u8 {
            let p = Dot(d).point(seat);
            eat(u64::from(p.col) << 8 | u64::from(p.row));
        }
        eat(geo::start_edge(seat));
        eat(geo::end_edge(seat));
    }
    let costs = *Board::default_board().costs();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..500 {
        let a = next() & next() & ((1u64 << SPOTS) - 1);
        let b = next() & next() & ((1u64 << SPOTS) - 1) & !a;
        for seat in Seat::BOTH {
            eat(u64::from(geo::connects(seat, a)));
            eat(geo::surrounded(seat, a));
            eat(geo::reach(seat, geo::start_edge(seat), a));
            eat(geo::cheapest_crossing(seat, a, b, &costs).map_or(999, u64::from));
        }
    }
    h
}

/// The seed's 13×13 tables are the ones the game used before the lattice became a value built
/// from its side: the fingerprint was computed by the same function on the code before that
/// change (commit 608fab1), and the default game plays on that lattice.
#[test]
fn the_seed_lattice_is_unchanged() {
    assert_eq!(seed_geometry_fingerprint(), 0x2971_fadd_5d48_8fe0);
    let g = Galespiel::new(GalespielOptions::default());
    assert!(std::ptr::eq(g.geometry(), geometry::seed()));
    assert!(std::ptr::eq(
        geometry::of_side(13).unwrap(),
        geometry::seed()
    ));
    let seed = geometry::seed();
    assert_eq!((seed.side(), seed.spots()), (13, 61));
    assert_eq!(seed.all_spots(), geometry::ALL_SPOTS);
    assert_eq!(seed.all_dots(), geometry::ALL_DOTS);
    assert_eq!(g.cycle(), 7);
    assert_eq!(g.options().rounds, MAX_ROUNDS);
    // The seed game's options read from nothing are the defaults, and the new options are
    // absent from its view.
    let raw = variant(&[]).unwrap();
    assert_eq!(raw.options().prizes, PRIZES);
    assert!(!raw.options().fixed_draw);
    let view = serde_json::to_string(&raw.view(Viewer::Spectator)).unwrap();
    for word in ["size", "draw", "\"hand\"", "\"prizes\""] {
        assert!(!view.contains(word), "{word} in {view}");
    }
}

/// The 5×5 lattice: 5 spots (`b2 d2 c3 b4 d4`), 6 dots of each colour, brown joining columns `a`
/// and `e`, blue rows 1 and 5; costs from the centre of the default board (`f6 h6 g7 f8 h8`).
#[test]
fn the_small_lattice_is_built_from_its_side() {
    let g = variant(&["size=5"]).unwrap();
    let geo = g.geometry();
    assert_eq!((geo.side(), geo.spots()), (5, 5));
    assert_eq!(geo.names(geo.all_spots()), ["b2", "d2", "c3", "b4", "d4"]);
    assert_eq!(geo.all_dots().count_ones(), 6);
    let costs = &g.options().board.costs()[..5];
    assert_eq!(costs, [3, 3, 6, 3, 3]);
    let s = |t: &str| geo.parse_spot(t).unwrap().bit();
    assert!(geo.connects(Seat::P1, s("b2") | s("d2")));
    assert!(geo.connects(Seat::P1, s("b2") | s("c3") | s("d4")));
    assert!(!geo.connects(Seat::P1, s("b2") | s("b4")));
    assert!(geo.connects(Seat::P2, s("b2") | s("b4")));
    assert!(geo.connects(Seat::P2, s("d2") | s("c3") | s("b4")));
    assert!(!geo.connects(Seat::P2, s("b2") | s("d2")));
    // Blue's dot b3 is walled in by brown's b2, c3 and b4.
    let b3 = geo
        .dot_at(Seat::P2, geo.parse_point("b3").unwrap())
        .unwrap();
    assert_eq!(
        geo.surrounded(Seat::P2, s("b2") | s("c3") | s("b4")),
        1 << b3.0
    );
    let costs = g.options().board.costs();
    assert_eq!(geo.cheapest_crossing(Seat::P1, 0, 0, costs), Some(6));
    assert_eq!(
        geo.cheapest_crossing(Seat::P2, 0, s("b2") | s("d2"), costs),
        None
    );
    assert!(geo.parse_point("f1").is_none() && geo.parse_point("a6").is_none());
    // The 9×9 lattice: 16 + 9 spots.
    let nine = geometry::of_side(9).unwrap();
    assert_eq!(nine.spots(), 25);
    // The searches agree with the slow ones on the small lattices.
    let mut rng = colosseum_engine::seeded_rng(5);
    for geo in [geo, nine] {
        for _ in 0..300 {
            let a: u64 = rng.random::<u64>() & geo.all_spots();
            let b: u64 = rng.random::<u64>() & geo.all_spots() & !a;
            for seat in Seat::BOTH {
                let src = geo.start_edge(seat);
                assert_eq!(geo.reach(seat, src, a), geo.reach_by_search(seat, src, a));
                assert_eq!(
                    geo.cheapest_crossing(seat, a, b, costs),
                    geo.cheapest_crossing_by_scan(seat, a, b, costs)
                );
            }
        }
    }
}

#[test]
fn bad_variant_options_are_refused_with_what_is_allowed() {
    let e = refusal(&["size=7"]);
    assert!(
        e.contains("5, 9 or 13") && e.contains("7 would swap them"),
        "{e}"
    );
    let e = refusal(&["size=15"]);
    assert!(e.contains("5, 9 or 13"), "{e}");
    let e = refusal(&["prizes=3 9"]);
    assert!(
        e.contains("each a whole number from 1 to 8 (`9` is not)"),
        "{e}"
    );
    let e = refusal(&["prizes=1 2 3 4 5 6 7 8"]);
    assert!(
        e.contains("1 to 7 prizes") && e.contains("not 8 prizes"),
        "{e}"
    );
    let e = refusal(&["prizes=3 4 5", "hand=2"]);
    assert!(
        e.contains("from 3 (one card for each of the cycle's 3 prizes) to 9"),
        "{e}"
    );
    let e = refusal(&["hand=10"]);
    assert!(e.contains("from 7") && e.contains("to 9"), "{e}");
    let e = refusal(&["rounds=0"]);
    assert!(e.contains("from 1 to 70"), "{e}");
    let e = refusal(&["draw=sorted"]);
    assert!(e.contains("random or fixed"), "{e}");
}

/// With `draw` fixed there is no chance: the bids come first, every cycle in the listed order,
/// and the game is a stalemate at the end of round `rounds`.
#[test]
fn the_fixed_draw_has_no_chance_and_repeats_the_listed_order() {
    let mut g =
        Erased(variant(&["size=5", "prizes=4 2", "draw=fixed", "hand=2", "rounds=3"]).unwrap());
    assert_eq!(g.0.pending(), Pending::Both);
    assert_eq!(g.0.prize(), Some(4));
    let apply = |g: &mut Erased<Galespiel>, step: TextStep| {
        g.apply(&step).unwrap_or_else(|e| panic!("{e}"));
    };
    // p1's 2 beats p2's 1: p1 takes 4 M and builds b2 for 3.
    apply(&mut g, TextStep::both("2", "1"));
    let err = g.0.parse_move(Seat::P1, "f2").unwrap_err().to_string();
    assert!(err.contains("columns a..e, rows 1..5"), "{err}");
    apply(&mut g, TextStep::one(Seat::P1, "b2"));
    assert_eq!(g.0.prize(), Some(2));
    apply(&mut g, TextStep::both("1", "2"));
    apply(&mut g, TextStep::one(Seat::P2, "done"));
    // The second cycle: the hands come back and the 4 is up again, with no chance step.
    assert_eq!(g.0.pending(), Pending::Both);
    assert_eq!(g.0.prize(), Some(4));
    assert_eq!(g.0.hand(Seat::P1), 0b11);
    apply(&mut g, TextStep::both("1", "1"));
    let o = g.0.outcome().expect("round 3 ends the game");
    assert!(
        o.reason.contains("stalemate: round 3 reached"),
        "{}",
        o.reason
    );
    let text = g.0.render(Viewer::Spectator);
    assert!(text.contains("   2  X-----X  3  X"), "{text}");
}

/// The random draw deals the variant's own prizes: the 3 distinct orders of `2 2 5`.
#[test]
fn the_random_draw_shuffles_the_variant_prizes() {
    let g = variant(&["size=5", "prizes=2 5 2", "hand=3"]).unwrap();
    assert_eq!(g.pending(), Pending::Chance);
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    let orders: Vec<String> = out.iter().map(|(o, _)| g.format_chance(o)).collect();
    assert_eq!(orders, ["2 2 5", "2 5 2", "5 2 2"]);
    assert!(g.check_chance(&g.parse_chance("2 2 2").unwrap()).is_err());
    assert!(g.check_chance(&g.parse_chance("5 2 2").unwrap()).is_ok());
    let err = g.parse_chance("2 5").map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("the cycle's 3 prizes"), "{err}");
    let err = g.parse_chance("2 5 4").map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("prizes are 2 5"), "{err}");
}

#[test]
fn random_variant_games_end_within_their_rounds() {
    let mut rng = colosseum_engine::seeded_rng(3);
    for pairs in [
        &["size=5", "prizes=3 4", "draw=fixed", "hand=3", "rounds=4"][..],
        &[
            "size=5",
            "prizes=2 3 4",
            "hand=3",
            "rounds=9",
            "items=elder-tree",
        ][..],
        &["size=9", "prizes=4 5 6", "hand=4", "rounds=12"][..],
    ] {
        for _ in 0..100 {
            let mut g = variant(pairs).unwrap();
            let rounds = g.options().rounds;
            while !g.is_over() {
                let step = match g.pending() {
                    Pending::Chance => Step::Chance(g.sample_chance(&mut rng).unwrap()),
                    Pending::One(seat) => {
                        let mv = g.random_move(seat, &mut rng).unwrap();
                        assert!(g.check_move(seat, &mv).is_ok());
                        Step::One { seat, mv }
                    }
                    Pending::Both => Step::Both {
                        p1: g.random_move(Seat::P1, &mut rng).unwrap(),
                        p2: g.random_move(Seat::P2, &mut rng).unwrap(),
                    },
                    Pending::Over => unreachable!(),
                };
                g.apply(step).unwrap();
            }
            assert!(g.rounds() <= rounds);
            let view = g.view(Viewer::Seat(Seat::P1));
            assert_eq!(view.spots.len(), g.geometry().spots());
        }
    }
}

/// The board picture draws the variant's lattice: 12 dots on size 5 where the seed has 84.
#[test]
fn the_board_picture_draws_the_variants_lattice() {
    let picture = |g: &Galespiel| {
        let view = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
        super::board_svg::board_svg(&view, &crate::svg::Names::default())
            .matches("<circle")
            .count()
    };
    let seed = picture(&Galespiel::new(GalespielOptions::default()));
    let small = picture(&variant(&["size=5"]).unwrap());
    assert_eq!(seed - small, 84 - 12);
}

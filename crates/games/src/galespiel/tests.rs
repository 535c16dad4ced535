use colosseum_engine::{parse_pairs, AnyGame, Erased, TextStep};

use super::geometry::{cheapest_crossing, connects, surrounded, Dot};
use super::*;

fn new_game(pairs: &[&str]) -> Erased<Galespiel> {
    Erased(Galespiel::from_raw(&parse_pairs(pairs.iter().copied()).unwrap()).unwrap())
}

fn spots(text: &str) -> u64 {
    text.split_whitespace()
        .map(|t| {
            Spot::parse(t)
                .unwrap_or_else(|| panic!("{t} is not a spot"))
                .bit()
        })
        .fold(0, |a, b| a | b)
}

fn spot(text: &str) -> Spot {
    Spot::parse(text).unwrap()
}

fn dot(seat: Seat, text: &str) -> u64 {
    1u64 << Dot::at(seat, Point::parse(text).unwrap()).unwrap().0
}

fn both(g: &mut Erased<Galespiel>, p1: &str, p2: &str) {
    g.apply(&TextStep::both(p1, p2))
        .unwrap_or_else(|e| panic!("{p1} / {p2}: {e}"));
}

fn one(g: &mut Erased<Galespiel>, seat: Seat, mv: &str) {
    g.apply(&TextStep::one(seat, mv))
        .unwrap_or_else(|e| panic!("{seat} {mv}: {e}"));
}

fn chance(g: &mut Erased<Galespiel>, order: &str) {
    g.apply(&TextStep::chance(order)).unwrap();
}

fn refused(g: &Erased<Galespiel>, seat: Seat, mv: &str) -> String {
    g.check_move(seat, mv).unwrap_err().to_string()
}

// ---- geometry ----

#[test]
fn the_lattice_has_61_spots_and_each_carries_a_bridge_of_each_colour_crosswise() {
    let odd = (0..SPOTS)
        .filter(|&i| Spot::from_index(i).point().col % 2 == 1)
        .count();
    assert_eq!((odd, SPOTS - odd), (36, 25));
    // b2: odd/odd, brown horizontal a2-c2, blue vertical b1-b3.
    let b2 = spot("b2");
    let (a, b) = b2.ends(Seat::P1);
    assert_eq!(
        (a.point(Seat::P1).to_string(), b.point(Seat::P1).to_string()),
        ("a2".into(), "c2".into())
    );
    let (a, b) = b2.ends(Seat::P2);
    assert_eq!(
        (a.point(Seat::P2).to_string(), b.point(Seat::P2).to_string()),
        ("b1".into(), "b3".into())
    );
    assert!(b2.is_horizontal_for(Seat::P1) && !b2.is_horizontal_for(Seat::P2));
    // c3: even/even, brown vertical c2-c4, blue horizontal b3-d3.
    let c3 = spot("c3");
    let (a, b) = c3.ends(Seat::P1);
    assert_eq!(
        (a.point(Seat::P1).to_string(), b.point(Seat::P1).to_string()),
        ("c2".into(), "c4".into())
    );
    let (a, b) = c3.ends(Seat::P2);
    assert_eq!(
        (a.point(Seat::P2).to_string(), b.point(Seat::P2).to_string()),
        ("b3".into(), "d3".into())
    );
    // Every spot: each colour's bridge joins two dots of that colour two points apart, on either
    // side of the spot, and the two bridges are perpendicular (so they cross: one excludes the
    // other).
    for i in 0..SPOTS {
        let s = Spot::from_index(i);
        let p = s.point();
        for seat in Seat::BOTH {
            let (a, b) = s.ends(seat);
            let (pa, pb) = (a.point(seat), b.point(seat));
            assert_eq!(
                (
                    i32::from(pa.col) + i32::from(pb.col),
                    i32::from(pa.row) + i32::from(pb.row)
                ),
                (2 * i32::from(p.col), 2 * i32::from(p.row)),
                "{s}"
            );
            assert_eq!(pa.col.abs_diff(pb.col) + pa.row.abs_diff(pb.row), 2);
        }
        assert_ne!(s.is_horizontal_for(Seat::P1), s.is_horizontal_for(Seat::P2));
    }
    // Corners and dots are not spots, and say what they are.
    for (t, what) in [
        ("a1", "corner"),
        ("a2", "brown"),
        ("b1", "blue"),
        ("c1", "blue"),
    ] {
        let p = Point::parse(t).unwrap();
        assert!(p.spot().is_none(), "{t}");
        assert!(p.describe().contains(what) || what == "blue", "{t}");
    }
    assert!(Point::parse("n1").is_none() && Point::parse("a14").is_none());
}

#[test]
fn the_default_board_is_symmetric_and_its_cheapest_straight_crossing_is_15_to_25() {
    let board = Board::default_board();
    let costs = board.costs();
    let cost = |col: u8, row: u8| costs[Point { col, row }.spot().unwrap().index()];
    for (i, c) in costs.iter().enumerate() {
        let p = Spot::from_index(i).point();
        assert!((1..=6).contains(c), "{p} costs {c}");
        assert_eq!(cost(p.col, p.row), cost(p.row, p.col), "{p}");
    }
    // Brown's straight crossings run along its dot rows (odd/odd spots of one row); blue's down
    // its dot columns.
    let rows: Vec<u32> = (1..SIDE as u8)
        .step_by(2)
        .map(|r| {
            (1..SIDE as u8)
                .step_by(2)
                .map(|c| u32::from(cost(c, r)))
                .sum()
        })
        .collect();
    let cols: Vec<u32> = (1..SIDE as u8)
        .step_by(2)
        .map(|c| {
            (1..SIDE as u8)
                .step_by(2)
                .map(|r| u32::from(cost(c, r)))
                .sum()
        })
        .collect();
    assert_eq!(rows, cols, "swapping rows and columns swaps the players");
    let cheapest_straight = *rows.iter().min().unwrap();
    assert!(
        (15..=25).contains(&cheapest_straight),
        "{cheapest_straight}"
    );
    // No winding path beats the straight one by much, and both players start equal.
    let p1 = cheapest_crossing(Seat::P1, 0, 0, costs).unwrap();
    let p2 = cheapest_crossing(Seat::P2, 0, 0, costs).unwrap();
    assert_eq!(p1, p2);
    assert!(p1 <= cheapest_straight);
}

#[test]
fn connection_follows_a_winding_path_and_one_opposing_bridge_blocks_it() {
    // Brown: along row 2, down through e3, along row 4, up through i3, along row 2 again.
    let path = spots("b2 d2 e3 f4 h4 i3 j2 l2");
    assert!(connects(Seat::P1, path));
    assert!(!connects(Seat::P1, path & !spot("e3").bit()));
    assert!(
        !connects(Seat::P2, path),
        "brown bridges do not connect blue"
    );
    // The mirror image (rows and columns swapped) connects blue top to bottom.
    let mirrored = spots("b2 b4 c5 d6 d8 c9 b10 b12");
    assert!(connects(Seat::P2, mirrored));
    assert!(!connects(Seat::P1, mirrored));
    // One blue bridge on e3 blocks that path: the cheapest crossing now goes round it.
    let costs = Board::default_board();
    let costs = costs.costs();
    let own = path & !spot("e3").bit();
    assert_eq!(cheapest_crossing(Seat::P1, path, 0, costs), Some(0));
    let around = cheapest_crossing(Seat::P1, own, spot("e3").bit(), costs).unwrap();
    assert!(around > 0);
    // A full blue wall from top to bottom cuts brown off.
    assert_eq!(cheapest_crossing(Seat::P1, own, mirrored, costs), None);
}

#[test]
fn surrounding_one_dot_several_dots_and_a_pocket_against_the_own_edge() {
    // One blue dot, d5, boxed in by four brown bridges.
    let ring = spots("c5 e5 d4 d6");
    assert_eq!(surrounded(Seat::P2, ring), dot(Seat::P2, "d5"));
    assert_eq!(surrounded(Seat::P2, ring & !spot("e5").bit()), 0);
    // Two blue dots, d5 and f5, in one rectangle (the spot e5 between them is left open).
    let rect = spots("c5 d4 d6 f4 f6 g5");
    assert_eq!(
        surrounded(Seat::P2, rect),
        dot(Seat::P2, "d5") | dot(Seat::P2, "f5")
    );
    // Blue dot b5 in a pocket against brown's own left edge: three bridges suffice.
    let pocket = spots("b4 b6 c5");
    assert_eq!(surrounded(Seat::P2, pocket), dot(Seat::P2, "b5"));
    // Blue's own edge dots are never surrounded; the symmetric pocket for blue works too.
    assert_eq!(surrounded(Seat::P2, spots("b2 c3")), 0);
    assert_eq!(surrounded(Seat::P1, spots("d2 f2 e3")), dot(Seat::P1, "e2"));
}

// ---- rounds, cards, items ----

/// A game after the cycle's order `order` is drawn (no items: the bids come at once).
fn started(order: &str) -> Erased<Galespiel> {
    let mut g = new_game(&[]);
    chance(&mut g, order);
    g
}

#[test]
fn the_higher_card_takes_the_prize_and_builds_then_materials_decay() {
    let mut g = started("8 3 4 4 5 5 6");
    assert_eq!(g.0.prize(), Some(8));
    assert_eq!(g.pending(), Pending::Both, "no items: no windows");
    both(&mut g, "6", "2");
    assert_eq!(g.pending(), Pending::One(Seat::P1));
    assert_eq!(g.0.materials(Seat::P1), 8);
    one(&mut g, Seat::P1, "b2 c3"); // 4 + 2
    assert_eq!(g.0.bridges(Seat::P1), spots("b2 c3"));
    assert_eq!(g.0.materials(Seat::P1), 2);
    assert_eq!(g.0.last_round().unwrap().paid, 6);
    assert_eq!(g.0.prize(), Some(3));
    // Decay: 16 -> 14.
    g.0.materials = [16, 5];
    both(&mut g, "1", "1");
    // A tie: nobody wins, but Scavenge gives both 2 first: 18 -> 15, 7 -> 6.
    assert_eq!(g.0.last_round().unwrap().winner, None);
    assert_eq!([g.0.materials(Seat::P1), g.0.materials(Seat::P2)], [15, 6]);
    g.0.materials = [16, 0];
    both(&mut g, "4", "4");
    assert_eq!(g.0.materials(Seat::P1), 14, "16 loses floor(16/6) = 2");
}

#[test]
fn card_effects_fire_on_play_even_on_a_tie() {
    let mut g = started("3 4 4 5 5 6 8");
    g.0.materials = [5, 5];
    // 7 Tax against 9 Heavy: p1 taxes 2 from p2; p2 loses 3 for Heavy and wins 3.
    both(&mut g, "7", "9");
    // p2: 5 - 3 - 2 = 0, then +3 prize.
    assert_eq!([g.0.materials(Seat::P1), g.0.materials(Seat::P2)], [5, 3]);
    one(&mut g, Seat::P2, "done");
    // Survey: p1 sees the next prize (the second 4) privately, while it builds.
    assert_eq!(g.0.prize(), Some(4));
    both(&mut g, "3", "1");
    assert_eq!(g.pending(), Pending::One(Seat::P1));
    let v1 = g.0.view(Viewer::Seat(Seat::P1));
    let v2 = g.0.view(Viewer::Seat(Seat::P2));
    let spectator = g.0.view(Viewer::Spectator);
    assert_eq!(v1.upcoming, vec![Some(4), None, None, None, None]);
    assert_eq!(v2.upcoming, vec![None; 5]);
    assert_eq!(spectator.upcoming, vec![None; 5]);
    assert_eq!(
        v1.prizes_left,
        vec![4, 5, 5, 6, 8],
        "which prizes are left is public"
    );
    // A tie still fires both Scavenges.
    one(&mut g, Seat::P1, "done");
    let before = [g.0.materials(Seat::P1), g.0.materials(Seat::P2)];
    both(&mut g, "1", "2");
    assert_eq!(g.0.materials(Seat::P1), before[0] + 2);
}

#[test]
fn discount_and_upgraded_cards() {
    let mut g = started("8 3 4 4 5 5 6");
    // 5 Discount: each bridge costs 1 less, at least 1.
    both(&mut g, "5", "4");
    // b2 (4 -> 3), e3 (1 -> 1), c3 (2 -> 1): 5 M for 8 M of list price.
    g.0.materials[0] = 5;
    one(&mut g, Seat::P1, "b2 e3 c3");
    assert_eq!(g.0.materials(Seat::P1), 0);
    // Upgraded cards: 2+ wins ties, 8+ bids 10, 6+ makes the dearest bridge free.
    g.0.upgraded = [0b1010_1010, 0];
    let v = g.0.view(Viewer::Spectator);
    let c8 = &v.players.p1.cards[7];
    assert_eq!(
        (c8.card, c8.value, c8.upgraded, c8.name.as_str()),
        (8, 10, true, "8+")
    );
    both(&mut g, "2", "2");
    assert_eq!(
        g.0.last_round().unwrap().winner,
        Some(Seat::P1),
        "2+ wins ties"
    );
    one(&mut g, Seat::P1, "done");
    both(&mut g, "6", "5");
    g.0.materials[0] = 3;
    assert!(refused(&g, Seat::P1, "l2 k3 j2").contains("cost 5 M"));
    one(&mut g, Seat::P1, "l2 k3"); // the 4 is free, the 2 paid
    assert_eq!(g.0.materials(Seat::P1), 1);
    both(&mut g, "8", "9");
    assert_eq!(g.0.last_round().unwrap().bids[0].value, 10);
    assert_eq!(g.0.last_round().unwrap().winner, Some(Seat::P1));
}

#[test]
fn surrounding_grants_upgrades_chosen_by_the_builder() {
    let mut g = started("8 3 4 4 5 5 6");
    g.0.bridges[0] = spots("c5 e5 d4");
    both(&mut g, "9", "1");
    g.0.materials[0] = 10;
    one(&mut g, Seat::P1, "d6");
    assert_eq!(g.pending(), Pending::One(Seat::P1));
    assert_eq!(g.legal_moves(Seat::P1).len(), 4, "one of 2 4 6 8");
    assert!(refused(&g, Seat::P1, "upgrade 3").contains("card 3 has no upgraded version"));
    assert!(refused(&g, Seat::P1, "upgrade 4 8").contains("exactly 1"));
    one(&mut g, Seat::P1, "upgrade 8");
    assert_eq!(g.0.upgraded(Seat::P1), 1 << 7);
    assert_eq!(g.0.view(Viewer::Spectator).players.p1.dots_surrounded, 1);
    // Surrounding the same dot again grants nothing; two new dots at once grant two.
    assert_eq!(g.pending(), Pending::Both);
    g.0.bridges[0] |= spots("g5 f4");
    both(&mut g, "8", "2");
    g.0.materials[0] = 10;
    one(&mut g, Seat::P1, "f6");
    // f5 is boxed in by e5, f4, f6 and g5; d5 was counted before.
    assert_eq!(g.pending(), Pending::One(Seat::P1));
    one(&mut g, Seat::P1, "upgrade 2");
    assert_eq!(g.0.upgraded(Seat::P1), (1 << 7) | (1 << 1));
    assert_eq!(g.0.view(Viewer::Spectator).players.p1.dots_surrounded, 2);
}

#[test]
fn connecting_wins_at_once() {
    let mut g = started("8 3 4 4 5 5 6");
    g.0.bridges[0] = spots("b2 d2 e3 f4 h4 i3 j2");
    both(&mut g, "9", "1");
    one(&mut g, Seat::P1, "l2");
    assert!(g.0.is_over());
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P1));
    assert!(o.reason.contains("p1 connected"), "{}", o.reason);
    let score = g.score();
    assert_eq!(score.p1, json!(0));
    assert_eq!(score.p2, Value::Null, "p1's bridges cut blue off");
    assert_eq!(score.details["materials"]["p1"], json!(4));
    assert_eq!(score.details["bridges"]["p1"].as_array().unwrap().len(), 8);
}

#[test]
fn a_cycle_ends_with_full_hands_and_a_new_shuffle() {
    let mut g = started("3 4 4 5 5 6 8");
    for (a, b) in [
        ("1", "2"),
        ("2", "3"),
        ("3", "4"),
        ("4", "5"),
        ("5", "6"),
        ("6", "7"),
    ] {
        both(&mut g, a, b);
        one(&mut g, Seat::P2, "done");
    }
    assert_eq!(g.0.hand(Seat::P1).count_ones(), 3);
    assert!(refused(&g, Seat::P1, "1").contains("your 1 is already used this cycle"));
    both(&mut g, "9", "9");
    assert_eq!(g.pending(), Pending::Chance);
    assert_eq!(g.0.hand(Seat::P1), 0x1FF);
    assert_eq!(g.0.hand(Seat::P2), 0x1FF);
    assert!(g.0.view(Viewer::Spectator).prize.is_none());
    let e = g
        .apply(&TextStep::chance("3 4 4 5 5 6 6"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("each prize card once"), "{e}");
    assert!(g.apply(&TextStep::chance("3 4 4 5 5 6")).is_err());
    chance(&mut g, "6 5 4 3 8 5 4");
    assert_eq!(g.0.prize(), Some(6));
}

#[test]
fn stalemate_goes_to_the_smaller_need_and_a_tie_to_the_advantage() {
    // 14 rounds without a bridge: equal needs, p1 holds the advantage.
    let mut g = started("3 4 4 5 5 6 8");
    for round in 0..14 {
        if g.pending() == Pending::Chance {
            chance(&mut g, "3 4 4 5 5 6 8");
        }
        let card = (round % 7 + 1).to_string();
        both(&mut g, &card, &card);
    }
    assert!(g.0.is_over());
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P1), "{}", o.reason);
    assert!(
        o.reason.contains("14 rounds without a bridge"),
        "{}",
        o.reason
    );
    assert!(o.reason.contains("advantage"), "{}", o.reason);
    // The same with advantage none is a draw, with p2 it goes to p2.
    for (adv, winner) in [("none", None), ("p2", Some(Seat::P2))] {
        let mut g = new_game(&[&format!("advantage={adv}")]);
        g.0.phase = Phase::Bid;
        g.0.revealed = 1;
        g.0.since_bridge = 13;
        both(&mut g, "1", "1");
        assert_eq!(g.outcome().unwrap().winner, winner);
    }
    // Unequal needs: p2 has a bridge and materials, so p2 needs less.
    let mut g = started("3 4 4 5 5 6 8");
    g.0.since_bridge = 13;
    g.0.bridges[1] = spots("b2 b4 c5");
    g.0.materials = [0, 5];
    both(&mut g, "1", "1");
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P2), "{}", o.reason);
    // Round 70 ends the game too.
    let mut g = started("3 4 4 5 5 6 8");
    g.0.rounds = 69;
    both(&mut g, "1", "2");
    one(&mut g, Seat::P2, "e3");
    assert!(g.0.is_over());
    assert!(g.outcome().unwrap().reason.contains("round 70"));
}

#[test]
fn items_open_windows_only_for_holders() {
    let mut g = new_game(&["items=crystal-ball,rush-order"]);
    chance(&mut g, "3 4 4 5 5 6 8");
    assert_eq!(g.pending(), Pending::Both, "both hold a Crystal Ball");
    both(&mut g, "use", "skip");
    assert!(g.0.holds(Seat::P2, Item::CrystalBall), "skipping keeps it");
    let v1 = g.0.view(Viewer::Seat(Seat::P1));
    assert_eq!(
        v1.upcoming,
        vec![Some(4), Some(4), Some(5), Some(5), Some(6), Some(8)]
    );
    assert!(g
        .0
        .view(Viewer::Seat(Seat::P2))
        .upcoming
        .iter()
        .all(Option::is_none));
    // Rush Order windows: p1 then p2.
    assert_eq!(g.pending(), Pending::One(Seat::P1));
    assert_eq!(g.0.prize(), Some(3));
    one(&mut g, Seat::P1, "use");
    assert_eq!(g.0.prize(), Some(4));
    // The 3 went to the end, in everyone's view.
    let spectator = g.0.view(Viewer::Spectator);
    assert_eq!(spectator.upcoming.last(), Some(&Some(3)));
    assert_eq!(
        g.0.view(Viewer::Seat(Seat::P1)).upcoming,
        vec![Some(4), Some(5), Some(5), Some(6), Some(8), Some(3)]
    );
    assert_eq!(g.pending(), Pending::One(Seat::P2));
    one(&mut g, Seat::P2, "skip");
    assert_eq!(g.pending(), Pending::Both);
    assert!(refused(&g, Seat::P1, "5 aid").contains("Specialist's Aid"));
    both(&mut g, "5", "5");
    // Next round: only p2 still holds Rush Order.
    assert_eq!(g.pending(), Pending::One(Seat::P2));
    // Specialist's Aid and Emergency Delivery.
    let mut g = new_game(&["items=specialists-aid,emergency-delivery"]);
    chance(&mut g, "3 4 4 5 5 6 8");
    assert_eq!(g.pending(), Pending::Both);
    both(&mut g, "4 aid", "5");
    assert_eq!(
        g.0.last_round().unwrap().winner,
        Some(Seat::P1),
        "4 + 2 beats 5"
    );
    assert!(!g.0.holds(Seat::P1, Item::SpecialistsAid));
    // 3 M from the prize, +4 from Emergency Delivery: b2 (4) and e3 (1) is 5 <= 7.
    assert!(refused(&g, Seat::P1, "b2 e3").contains("not enough materials"));
    one(&mut g, Seat::P1, "emergency b2 e3");
    assert_eq!(g.0.materials(Seat::P1), 2);
    assert!(!g.0.holds(Seat::P1, Item::EmergencyDelivery));
    let v = g.0.view(Viewer::Spectator);
    assert_eq!(
        v.players.p1.items_used,
        vec![Item::SpecialistsAid, Item::EmergencyDelivery]
    );
    assert_eq!(v.players.p2.items_held.len(), 2);
}

#[test]
fn illegal_input_is_refused_with_the_reason() {
    let mut g = started("8 3 4 4 5 5 6");
    assert!(refused(&g, Seat::P1, "c3").contains("only the winner of a round builds"));
    assert!(refused(&g, Seat::P1, "use").contains("not a move for the bids"));
    assert!(refused(&g, Seat::P1, "5 aid").contains("do not hold Specialist's Aid"));
    assert!(refused(&g, Seat::P1, "10").contains("there is no card 10"));
    both(&mut g, "9", "1");
    g.0.bridges[1] = spots("d2");
    let e = refused(&g, Seat::P1, "d2");
    assert!(e.contains("spot d2 is taken"), "{e}");
    assert!(refused(&g, Seat::P1, "a1").contains("not a spot on the board"));
    assert!(refused(&g, Seat::P1, "z9").contains("not a spot on the board"));
    assert!(refused(&g, Seat::P1, "b2 d4 f4 h4")
        .contains("not enough materials: these bridges cost 13 M and you have 8 M"));
    assert!(refused(&g, Seat::P1, "emergency").contains("do not hold Emergency Delivery"));
    assert!(refused(&g, Seat::P1, "b2 b2").contains("named twice"));
    // p2 lost the round: it cannot build.
    let e =
        g.0.check_move(
            Seat::P2,
            &Move::Build {
                spots: spot("b2").bit(),
                emergency: false,
            },
        )
        .unwrap_err();
    assert!(e.reason.contains("only p1, who won it, builds now"), "{e}");
    assert!(refused(&g, Seat::P2, "b2").contains("waits for p1 alone"));
    one(&mut g, Seat::P1, "b2");
    assert!(refused(&g, Seat::P1, "9")
        .contains("your 9 is already used this cycle; your hand is 1 2 3 4 5 6 7 8"));
    let before = format!("{:?}", g.0);
    assert!(g.apply(&TextStep::both("9", "1")).is_err());
    assert_eq!(
        format!("{:?}", g.0),
        before,
        "a refused step changes nothing"
    );
}

#[test]
fn notation_round_trips() {
    let g = started("8 3 4 4 5 5 6");
    for (text, canonical) in [
        ("7", "7"),
        ("7 AID", "7 aid"),
        ("aid 8", "8 aid"),
        ("build C3, b2", "b2 c3"),
        ("b2 emergency", "emergency b2"),
        ("ED", "emergency"),
        ("done", "done"),
        ("yes", "use"),
        ("no", "skip"),
        ("upgrade 8 4", "upgrade 4 8"),
    ] {
        let mv = g.0.parse_move(Seat::P1, text).unwrap();
        assert_eq!(g.0.format_move(&mv), canonical, "{text}");
        assert_eq!(g.0.parse_move(Seat::P1, canonical).unwrap(), mv);
    }
    for bad in [
        "",
        "seven",
        "7 8",
        "done b2",
        "upgrade",
        "upgrade 4 4",
        "b2 zz",
    ] {
        assert!(g.0.parse_move(Seat::P1, bad).is_err(), "{bad}");
    }
    assert_eq!(
        g.0.format_chance(&g.0.parse_chance("3,4 4 5 5 6 8").unwrap()),
        "3 4 4 5 5 6 8"
    );
    assert!(g.0.parse_chance("3 4 4 5 5 6 9").is_err());
    let mut outcomes = Vec::new();
    new_game(&[]).0.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 1260);
}

#[test]
fn a_refusal_names_the_input_the_decision_takes() {
    // Bidding: `SEVEN` is not a card (it used to be called "not a spot on the board").
    let mut g = started("8 3 4 4 5 5 6");
    let e = g.0.parse_move(Seat::P1, "SEVEN").unwrap_err().to_string();
    assert_eq!(
        e,
        "`SEVEN` is not a move: `seven` is not a card; a bid is the value of one of your cards \
         in digits (1 2 3 4 5 6 7 8 9; `8+` names an upgraded card), optionally with `aid`: `7` \
         or `7 aid`; a bid cannot be passed"
    );
    // A pass word at a bid: a pass, which a bid does not allow.
    let e = g.check_move(Seat::P1, "pass").unwrap_err().to_string();
    assert!(e.contains("the bids cannot be passed"), "{e}");
    let e = g.check_move(Seat::P1, "").unwrap_err().to_string();
    assert!(
        e.contains("an empty submission is not a move; a bid is"),
        "{e}"
    );
    // Building: a word that is not a spot is called so, and a pass word ends the build.
    both(&mut g, "6", "2");
    assert_eq!(g.0.decision_kind(), "build");
    let e = g.0.parse_move(Seat::P1, "seven").unwrap_err().to_string();
    assert!(e.contains("`seven` is not a spot on the board"), "{e}");
    assert_eq!(g.check_move(Seat::P1, "No Submission").unwrap(), "done");
}

#[test]
fn determinize_redraws_only_what_the_seat_has_not_seen() {
    let mut g = new_game(&["items=crystal-ball"]);
    chance(&mut g, "3 4 4 5 5 6 8");
    both(&mut g, "use", "skip");
    let mut rng = colosseum_engine::seeded_rng(3);
    // p1 saw everything: nothing changes for it.
    for _ in 0..20 {
        assert_eq!(g.0.determinize(Seat::P1, &mut rng).order, g.0.order);
    }
    // p2 saw nothing beyond the revealed 3: the rest is redrawn, the multiset kept.
    let mut differs = false;
    for _ in 0..50 {
        let d = g.0.determinize(Seat::P2, &mut rng);
        assert_eq!(d.order[0], 3);
        let mut sorted = d.order;
        sorted.sort_unstable();
        assert_eq!(sorted, PRIZES);
        differs |= d.order != g.0.order;
        assert_eq!(
            serde_json::to_value(d.view(Viewer::Seat(Seat::P2))).unwrap(),
            serde_json::to_value(g.0.view(Viewer::Seat(Seat::P2))).unwrap()
        );
    }
    assert!(differs);
    // Two states with the same view for p2 give the same result from the same generator.
    let mut other = g.0.clone();
    other.order = [3, 8, 6, 5, 5, 4, 4];
    let a =
        g.0.determinize(Seat::P2, &mut colosseum_engine::seeded_rng(9));
    let b = other.determinize(Seat::P2, &mut colosseum_engine::seeded_rng(9));
    assert_eq!(a.order, b.order);
}

#[test]
fn board_and_card_files_are_validated_and_can_be_swapped_in() {
    let mut value: Value = serde_json::from_str(data::DEFAULT_BOARD_JSON).unwrap();
    value["costs"].as_object_mut().unwrap().remove("g7");
    let e = Board::from_json(&value.to_string())
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing: g7"), "{e}");
    value["costs"]["g7"] = json!(12);
    let e = Board::from_json(&value.to_string())
        .unwrap_err()
        .to_string();
    assert!(e.contains("spot `g7` costs 12"), "{e}");
    value["costs"]["g7"] = json!(1);
    value["costs"]["a1"] = json!(1);
    let e = Board::from_json(&value.to_string())
        .unwrap_err()
        .to_string();
    assert!(e.contains("`a1` is not a spot"), "{e}");
    let e = CardTable::from_json(r#"{"cards": [{"value": 1, "effects": ["teleport"]}]}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown effect \"teleport\""), "{e}");
    let e = CardTable::from_json(
        r#"{"cards": [{"value": 1}, {"value": 1}, {"value": 3}, {"value": 4}, {"value": 5},
            {"value": 6}, {"value": 7}]}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("given twice"), "{e}");
    let e = CardTable::from_json(r#"{"cards": [{"value": 1}]}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("7 to 16 cards"), "{e}");
    // A host's own board, as JSON text in the option (what -o "board=$(cat f.json)" passes).
    value["costs"].as_object_mut().unwrap().remove("a1");
    value["name"] = json!("flat");
    for c in value["costs"].as_object_mut().unwrap().values_mut() {
        *c = json!(2);
    }
    let raw = parse_pairs([format!("board={value}").as_str()]).unwrap();
    let g = Galespiel::from_raw(&raw).unwrap();
    assert_eq!(g.options().board.name(), "flat");
    assert_eq!(g.cheapest(Seat::P1), Some(12));
    // ...or as a JSON object in a record's options.
    let mut raw = RawOptions::new();
    let cards: Vec<Value> = (1..=7).map(|v| json!({"value": v * 2})).collect();
    raw.insert("cards".into(), json!({"name": "evens", "cards": cards}));
    let g = Galespiel::from_raw(&raw).unwrap();
    assert_eq!(g.hand(Seat::P1), 0b111_1111);
    assert_eq!(g.options().cards.basic(6).value, 14);
    let raw = parse_pairs(["board=flat.json"]).unwrap();
    let e = Galespiel::from_raw(&raw).unwrap_err().to_string();
    assert!(e.contains("write `default` or the file's JSON text"), "{e}");
    let raw = parse_pairs(["items=magic-wand"]).unwrap();
    assert!(Galespiel::from_raw(&raw).is_err());
    let raw = parse_pairs(["boards=default"]).unwrap();
    assert!(Galespiel::from_raw(&raw).is_err());
}

#[test]
fn random_games_end_and_every_random_move_is_legal() {
    let mut rng = colosseum_engine::seeded_rng(1);
    for items in ["none", "elder-tree"] {
        for _ in 0..200 {
            let mut g = new_game(&[&format!("items={items}")]).0;
            let mut n = 0;
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
                n += 1;
                assert!(n < 2000);
            }
            assert!(g.rounds() <= MAX_ROUNDS);
            let o = g.outcome().unwrap();
            assert!(o.reason.contains("connected") || o.reason.contains("stalemate"));
        }
    }
}

#[test]
fn the_picture_shows_dots_bridges_costs_and_crossing_costs() {
    let mut g = started("8 3 4 4 5 5 6");
    both(&mut g, "9", "1");
    one(&mut g, Seat::P1, "b2 c3");
    both(&mut g, "1", "9");
    one(&mut g, Seat::P2, "d2");
    let text = g.render(Viewer::Seat(Seat::P1));
    assert!(text.contains("   2  X-----X  H  X  2  X"), "{text}");
    assert!(text.contains("   3     O  | "), "{text}");
    assert!(text.contains("cheapest connection"), "{text}");
    assert!(text.contains("p1 (you)"), "{text}");
    assert!(text.contains("Round 2: prize 3; p1 bid 1 (value 1), p2 bid 9 (value 9); p2 takes 3 M and builds d2 for 3 M"), "{text}");
}

#[test]
fn the_worked_round_of_the_rules_page_replays() {
    let text = include_str!("../../tests/data/galespiel-worked-round.json");
    let record = colosseum_engine::Record::from_json(text).unwrap();
    let replayed = crate::replay_record(&record).unwrap().unwrap();
    let game = replayed.game;
    assert_eq!(game.pending(), Pending::One(Seat::P1));
    let score = game.score();
    assert_eq!((score.p1.clone(), score.p2.clone()), (json!(16), json!(13)));
    assert_eq!(score.details["materials"], json!({"p1": 0, "p2": 2}));
    assert_eq!(score.details["bridges"]["p2"], json!(["e3", "d4", "c5"]));
    let p1 = game.view_json(Viewer::Seat(Seat::P1));
    assert_eq!(p1["upcoming"], json!([4, 4, 6, 5, 5]));
    let p2 = game.view_json(Viewer::Seat(Seat::P2));
    assert_eq!(p2["upcoming"], json!([null, null, null, null, 5]));
    assert_eq!(p2["prize"], json!(8));
}

#[test]
fn the_bit_parallel_flood_matches_a_plain_search() {
    use rand::Rng as _;
    let mut rng = colosseum_engine::seeded_rng(5);
    for _ in 0..2000 {
        let passable: u64 = rng.random::<u64>() & rng.random::<u64>() & ALL_SPOTS;
        let sources: u64 =
            rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>() & geometry::ALL_DOTS;
        for seat in Seat::BOTH {
            assert_eq!(
                geometry::reach(seat, sources, passable),
                geometry::reach_by_search(seat, sources, passable)
            );
        }
    }
}

/// The bucket-queue Dijkstra gives the plain Dijkstra's distance (or `None`) on random bridges
/// of both colours and random costs, the default board's and extremes (all 1, all 9).
#[test]
fn the_bucket_dijkstra_matches_a_plain_one() {
    use rand::Rng as _;
    let mut rng = colosseum_engine::seeded_rng(6);
    let default = *super::data::Board::default_board().costs();
    let mut cut = 0;
    for round in 0..3000 {
        let costs: [u8; SPOTS] = match round % 4 {
            0 => default,
            1 => [1; SPOTS],
            2 => [9; SPOTS],
            _ => std::array::from_fn(|_| rng.random_range(1..=9)),
        };
        let a: u64 = rng.random::<u64>() & rng.random::<u64>() & ALL_SPOTS;
        let b: u64 = rng.random::<u64>() & rng.random::<u64>() & ALL_SPOTS & !a;
        // Every third round the opponent holds half the spots: often a cut.
        let theirs = if round % 3 == 0 {
            rng.random::<u64>() & ALL_SPOTS & !a
        } else {
            b
        };
        let own = a;
        for seat in Seat::BOTH {
            let fast = cheapest_crossing(seat, own, theirs, &costs);
            assert_eq!(
                fast,
                geometry::cheapest_crossing_by_scan(seat, own, theirs, &costs),
                "{seat:?} own {own:#x} theirs {theirs:#x}"
            );
            cut += usize::from(fast.is_none());
        }
    }
    // Both answers occur: paths cut off and paths found.
    assert!(cut > 50 && cut < 5950, "{cut} of 6000 cut off");
}

/// `information_bytes` holds what the view holds: over random games with every item (Crystal
/// Ball, Rush Order, Survey's private looks), and the same states with the prizes a viewer has
/// not seen shuffled, two states give the same bytes for a viewer exactly when they give the
/// same JSON view.
#[test]
fn information_bytes_tell_apart_exactly_what_the_views_do() {
    use rand::seq::SliceRandom as _;
    use std::collections::HashMap;
    let mut rng = colosseum_engine::seeded_rng(8);
    let mut by_view: HashMap<String, Vec<u8>> = HashMap::new();
    let mut by_bytes: HashMap<Vec<u8>, String> = HashMap::new();
    let mut shuffled_hidden = 0;
    for options in [
        "items=elder-tree",
        "items=crystal-ball,rush-order",
        "items=none",
    ] {
        for _ in 0..6 {
            let mut g = new_game(&[options]);
            while g.0.pending() != Pending::Over {
                for viewer in [
                    Viewer::Seat(Seat::P1),
                    Viewer::Seat(Seat::P2),
                    Viewer::Spectator,
                ] {
                    let mut variants = vec![g.0.clone()];
                    // The same state with the prizes this viewer has not seen in another order.
                    let start = usize::from(g.0.revealed);
                    let visible = g.0.visible(viewer);
                    let hidden: Vec<usize> = (start..CYCLE)
                        .filter(|&k| visible & (1 << k) == 0)
                        .collect();
                    if hidden.len() > 1 && !matches!(g.0.phase, Phase::Chance | Phase::Over) {
                        let mut other = g.0.clone();
                        let mut values: Vec<u8> = hidden.iter().map(|&k| other.order[k]).collect();
                        values.shuffle(&mut rng);
                        for (&k, v) in hidden.iter().zip(values) {
                            other.order[k] = v;
                        }
                        shuffled_hidden += usize::from(other.order != g.0.order);
                        variants.push(other);
                    }
                    for state in variants {
                        let view = serde_json::to_string(&state.view(viewer)).unwrap();
                        let mut bytes = Vec::new();
                        state.information_bytes(viewer, &mut bytes);
                        let known = by_view.entry(view.clone()).or_insert_with(|| bytes.clone());
                        assert_eq!(*known, bytes, "one view, two encodings: {view}");
                        let known = by_bytes.entry(bytes).or_insert_with(|| view.clone());
                        assert_eq!(*known, view, "one encoding, two views");
                    }
                }
                let step = colosseum_engine::random_step(&g.0, &mut rng).unwrap();
                g.0.apply(step).unwrap();
            }
        }
    }
    assert!(
        shuffled_hidden > 100,
        "{shuffled_hidden} states with hidden prizes shuffled"
    );
    assert!(by_view.len() > 1000, "{} views", by_view.len());
}

#[test]
fn decision_kinds_name_bids_builds_upgrades_and_item_windows() {
    let mut g = new_game(&["items=crystal-ball"]);
    assert_eq!(g.decision_kind(), "chance");
    chance(&mut g, "8 3 4 4 5 5 6");
    assert_eq!(g.decision_kind(), "item");
    both(&mut g, "skip", "skip");
    assert_eq!(g.decision_kind(), "bid");
    g.0.bridges[0] = spots("c5 e5 d4");
    both(&mut g, "9", "1");
    assert_eq!(g.decision_kind(), "build");
    g.0.materials[0] = 10;
    one(&mut g, Seat::P1, "d6");
    assert_eq!(g.decision_kind(), "upgrade");
    // The upgrades cannot be passed (RULINGS.md lists a build and an item window only).
    for word in ["pass", "none", "No Submission"] {
        let e = g.check_move(Seat::P1, word).unwrap_err().to_string();
        assert!(
            e.contains("cannot be passed") && e.contains("`upgrade 4 8`"),
            "{e}"
        );
    }
}

#[test]
fn a_plus_names_only_a_card_that_is_upgraded() {
    let mut g = started("8 3 4 4 5 5 6");
    // p1's 2 is plain: `2+` would silently bid a plain 2.
    assert!(refused(&g, Seat::P1, "2+").contains("your 2 is not upgraded; bid it as `2`"));
    // The odd cards have no upgraded version at all.
    assert!(refused(&g, Seat::P1, "3+").contains("card 3 has no upgraded version"));
    assert!(refused(&g, Seat::P2, "9+ aid").contains("card 9 has no upgraded version"));
    assert!(refused(&g, Seat::P1, "8+").contains("your 8 is not upgraded"));
    // Once upgraded, `8+` is the same bid as `8`, and only for the seat that upgraded it.
    g.0.upgraded = [1 << 7, 0];
    assert_eq!(
        g.check_move(Seat::P1, "8+").unwrap(),
        g.check_move(Seat::P1, "8").unwrap()
    );
    assert!(refused(&g, Seat::P2, "8+").contains("your 8 is not upgraded"));
    both(&mut g, "8+", "7");
    assert_eq!(g.0.last_round().unwrap().bids[0].value, 10);
}

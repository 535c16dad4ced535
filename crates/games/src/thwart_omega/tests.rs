use super::*;
use colosseum_engine::{AnyGame, Erased, TextStep};

fn game(size: u8) -> ThwartOmega {
    ThwartOmega::new(ThwartOmegaOptions {
        size,
        advantage: Advantage::P1,
    })
}

fn mv(g: &ThwartOmega, text: &str) -> Placement {
    g.parse_move(Seat::P1, text).unwrap()
}

fn round(g: &mut ThwartOmega, p1: &str, p2: &str) {
    let step = Step::Both {
        p1: mv(g, p1),
        p2: mv(g, p2),
    };
    g.apply(step).unwrap();
}

/// A board drawn as rows of symbols (`.`, `b`, `B`, `w`, `W`, `#`), set directly. Three or
/// fewer `.` are burned by the end rule, as in play.
fn from_picture(rows: &[&str], advantage: Advantage) -> ThwartOmega {
    let size = rows.len() as u8;
    let mut g = ThwartOmega::new(ThwartOmegaOptions { size, advantage });
    g.burned = 0;
    for (r, line) in rows.iter().enumerate() {
        assert_eq!(line.len(), rows.len(), "square picture");
        for (c, symbol) in line.chars().enumerate() {
            let bit = g.geometry.bit(Cell::new(c as u8, r as u8));
            match symbol {
                '.' => {}
                'b' => g.black |= bit,
                'B' => {
                    g.black |= bit;
                    g.double |= bit;
                }
                'w' => g.white |= bit,
                'W' => {
                    g.white |= bit;
                    g.double |= bit;
                }
                '#' => g.burned |= bit,
                other => panic!("unknown symbol {other}"),
            }
        }
    }
    g.empty = g.geometry.full & !(g.black | g.white | g.burned);
    g.empty_count = g.empty.count_ones();
    g.burn_if_nearly_full();
    g
}

/// The seed's final board, found to have exactly the seed's groups: Black 6 4 4 4 4 1,
/// White 6 4 3 3 3 2 2. The two `.` are left empty by the last round and burn.
const SEED_EXAMPLE: [&str; 7] = [
    "wbbwwbb", //
    "wbbbwbb", //
    "wbwwbww", //
    "#wbbbww", //
    "bwwwwbb", //
    ".bbbwbb", //
    "wwwb.ww", //
];

/// Rounds that build a picture of single stones and `#` cells burned by a collision: each
/// `#` with one lone black and one lone white stone (p1 `B #`, p2 `W #`), then the other
/// stones four at a time.
fn rounds_for(rows: &[&str]) -> Vec<(String, String)> {
    let (mut blacks, mut whites, mut burns) = (Vec::new(), Vec::new(), Vec::new());
    for (r, line) in rows.iter().enumerate() {
        for (c, symbol) in line.chars().enumerate() {
            let cell = Cell::new(c as u8, r as u8).to_string();
            match symbol {
                'b' => blacks.push(cell),
                'w' => whites.push(cell),
                '#' => burns.push(cell),
                _ => {}
            }
        }
    }
    let mut rounds = Vec::new();
    for x in burns {
        let (b, w) = (blacks.pop().unwrap(), whites.pop().unwrap());
        rounds.push((format!("B {x} W {w}"), format!("B {b} W {x}")));
    }
    while !blacks.is_empty() {
        let (b1, b2) = (blacks.pop().unwrap(), blacks.pop().unwrap());
        let (w1, w2) = (whites.pop().unwrap(), whites.pop().unwrap());
        rounds.push((format!("B {b1} W {w1}"), format!("B {b2} W {w2}")));
    }
    assert!(whites.is_empty());
    rounds
}

#[test]
fn the_seed_example_played_out_gives_1536_to_2592() {
    let mut g = game(7);
    let rounds = rounds_for(&SEED_EXAMPLE);
    assert_eq!(rounds.len(), 12);
    for (i, (p1, p2)) in rounds.iter().enumerate() {
        assert_eq!(g.pending(), Pending::Both, "round {i}");
        round(&mut g, p1, p2);
    }
    assert_eq!(g.pending(), Pending::Over);
    let expected: Vec<String> = SEED_EXAMPLE.iter().map(|r| r.replace('.', "#")).collect();
    assert_eq!(g.rows(), expected);
    assert_eq!(g.groups(Colour::Black).weights(), [6, 4, 4, 4, 4, 1]);
    assert_eq!(g.groups(Colour::White).weights(), [6, 4, 3, 3, 3, 2, 2]);
    assert_eq!(g.product(Seat::P1), 1536);
    assert_eq!(g.product(Seat::P2), 2592);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P2));
    assert_eq!(
        o.reason,
        "White (p2) wins with the larger product, 2592 to 1536"
    );
    // The same board set directly agrees.
    let direct = from_picture(&SEED_EXAMPLE, Advantage::P1);
    assert_eq!(direct.rows(), g.rows());
    assert_eq!(direct.outcome(), g.outcome());
    let score = g.score();
    assert_eq!(score.p1, json!(1536));
    assert_eq!(score.p2, json!(2592));
    assert_eq!(score.details["groups"]["p1"], json!([6, 4, 4, 4, 4, 1]));
    assert_eq!(score.details["groups"]["p2"], json!([6, 4, 3, 3, 3, 2, 2]));
}

#[test]
fn the_rules_page_example_replays_as_it_says() {
    let start = RULES.find("```json").expect("the rules page has a record") + "```json".len();
    let end = start + RULES[start..].find("```").unwrap();
    let record = colosseum_engine::Record::from_json(&RULES[start..end]).unwrap();
    let replayed = crate::replay_record(&record).unwrap().unwrap();
    let game = replayed.game.as_ref();
    assert_eq!(game.outcome().unwrap().winner, Some(Seat::P2));
    let score = game.score();
    assert_eq!((score.p1, score.p2), (json!(1536), json!(2592)));
    let board = game.render(Viewer::Spectator);
    assert!(
        RULES.contains(&board),
        "the page shows the board as rendered:\n{board}"
    );
}

#[test]
fn collisions_follow_the_table() {
    // (p1, p2, the board after one round on a 3×3 board)
    let table = [
        // Same colour on the same cell from both seats: a double.
        ("B a1 W c3", "B a1 W a3", ["B..", "...", "w.w"]),
        ("B a1 W b1", "B c3 W b1", ["bW.", "...", "..b"]),
        // Black and white on the same cell: burned.
        ("B a1 W c3", "B c1 W a1", ["#.b", "...", "..w"]),
        ("B b2 W a1", "B c2 W b2", ["w..", ".#b", "..."]),
        // Both seats crossing their colours on the same two cells: both burned.
        ("B a1 W b1", "B b1 W a1", ["##.", "...", "..."]),
        // The same placement from both seats: two doubles.
        ("B a1 W b1", "B a1 W b1", ["BW.", "...", "..."]),
        // A double black beside two single whites (a double and a burn cannot meet in one
        // round: both seats' black stones are on the doubled cell).
        ("B a1 W b1", "B a1 W c1", ["Bww", "...", "..."]),
        // Four different cells: four single stones.
        ("B a1 W b1", "B c1 W a2", ["bwb", "w..", "..."]),
    ];
    for (p1, p2, expected) in table {
        let mut g = game(3);
        round(&mut g, p1, p2);
        assert_eq!(g.rows(), expected, "{p1} / {p2}");
        assert_eq!(g.pending(), Pending::Both, "{p1} / {p2}");
    }
    // p1's white and p2's black meet on b1; p1's black and p2's black make a double on a1.
    let mut g = game(3);
    round(&mut g, "B a1 W b1", "B b1 W c1");
    assert_eq!(g.rows(), ["b#w", "...", "..."]);
    let mut g = game(3);
    round(&mut g, "B a1 W b1", "B a1 W b2");
    assert_eq!(g.rows(), ["Bw.", ".w.", "..."]);
    assert_eq!(g.groups(Colour::Black).weights(), [2]);
    assert_eq!(g.groups(Colour::White).weights(), [2]);
}

#[test]
fn placements_that_touch_merge_groups() {
    let mut g = game(4);
    round(&mut g, "B a1 W d4", "B c1 W d2");
    assert_eq!(g.groups(Colour::Black).weights(), [1, 1]);
    assert_eq!(g.groups(Colour::White).weights(), [1, 1]);
    // A double on b1 joins a1 and c1: 1 + 2 + 1. A single on d3 joins d2 and d4.
    round(&mut g, "B b1 W d3", "B b1 W a4");
    assert_eq!(g.rows(), ["bBb.", "...w", "...w", "w..w"]);
    assert_eq!(g.groups(Colour::Black).weights(), [4]);
    assert_eq!(g.groups(Colour::White).weights(), [3, 1]);
    assert_eq!((g.product(Seat::P1), g.product(Seat::P2)), (4, 3));
    // Diagonal neighbours do not join, and groups do not wrap around the board's edge.
    let g = from_picture(&["b..b", "wb..", "...b", "bw.."], Advantage::P1);
    assert_eq!(g.groups(Colour::Black).weights(), [1, 1, 1, 1, 1]);
    assert_eq!(g.groups(Colour::White).weights(), [1, 1]);
    let g = from_picture(&["...b", "b...", "...W", "W..."], Advantage::P1);
    assert_eq!(g.groups(Colour::Black).weights(), [1, 1]);
    assert_eq!(g.groups(Colour::White).weights(), [2, 2]);
    let g = from_picture(&["BbB", "b.b", "BbB"], Advantage::P1);
    assert_eq!(g.groups(Colour::Black).weights(), [12]);
}

#[test]
fn equal_products_go_to_the_groups_then_the_advantage() {
    let cases: [(&[&str], Advantage, Option<Seat>, &str); 7] = [
        // Products 6 and 6; the largest group decides (6 against 3).
        (
            &["BBB#b", "#####", "www#W", "#####", "#####"],
            Advantage::P1,
            Some(Seat::P1),
            "products tie at 6; Black (p1) wins on the largest group, 6 to 3 (groups 6 1 \
             against 3 2)",
        ),
        // Products 24 and 24, largest groups 6 and 6; the second decides (4 against 2).
        (
            &["BBB#B", "###B#", "#####", "WWW#W", "####W"],
            Advantage::P1,
            Some(Seat::P2),
            "products tie at 24; White (p2) wins on the 2nd largest group, 4 to 2 (groups 6 \
             4 against 6 2 2)",
        ),
        // Products 4 and 4, largest 4 and 4; Black's 1 beats White's missing group.
        (
            &["BB#b#", "#####", "wwww#", "#####", "#####"],
            Advantage::P2,
            Some(Seat::P1),
            "products tie at 4; Black (p1) wins on the 2nd largest group, 1 to none (groups \
             4 1 against 4)",
        ),
        // A complete tie: the advantage holder, or a draw.
        (
            &["bbb#B", "#####", "www#W", "#####", "#####"],
            Advantage::P1,
            Some(Seat::P1),
            "complete tie (both products 6, both groups 3 2); Black (p1) holds the advantage",
        ),
        (
            &["bbb#B", "#####", "www#W", "#####", "#####"],
            Advantage::P2,
            Some(Seat::P2),
            "complete tie (both products 6, both groups 3 2); White (p2) holds the advantage",
        ),
        (
            &["bbb#B", "#####", "www#W", "#####", "#####"],
            Advantage::None,
            None,
            "draw: both products 6, both groups 3 2",
        ),
        // No stones at all: both score 0, a complete tie.
        (
            &["#####", "#####", "#####", "#####", "#####"],
            Advantage::None,
            None,
            "draw: both products 0, both groups none",
        ),
    ];
    for (rows, advantage, winner, reason) in cases {
        let g = from_picture(rows, advantage);
        let o = g.outcome().expect("the board is full");
        assert_eq!((o.winner, o.reason.as_str()), (winner, reason), "{rows:?}");
    }
    // One stone beats none: a colour without stones scores 0.
    let g = from_picture(&["b##", "###", "###"], Advantage::P2);
    assert_eq!((g.product(Seat::P1), g.product(Seat::P2)), (1, 0));
    assert_eq!(g.outcome().unwrap().winner, Some(Seat::P1));
    assert_eq!(ordinal_largest(2), "3rd largest");
    assert_eq!(ordinal_largest(10), "11th largest");
    assert_eq!(ordinal_largest(20), "21st largest");
}

#[test]
fn a_round_leaving_three_or_fewer_empty_cells_ends_the_game() {
    // On a 3×3 board with `empty` empty cells (the first ones in reading order), a round that
    // fills 2 (crossed), 3 (one burn) or 4 cells (all single) leaves `empty - filled`.
    for (empty, filled, left) in [
        (8, 4, 4),
        (6, 2, 4),
        (7, 4, 3),
        (5, 2, 3),
        (6, 3, 3),
        (4, 2, 2),
        (5, 3, 2),
        (5, 4, 1),
        (4, 3, 1),
        (4, 4, 0),
    ] {
        let cells: Vec<char> = (0..9).map(|i| if i < empty { '.' } else { '#' }).collect();
        let rows: Vec<String> = cells.chunks(3).map(|r| r.iter().collect()).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut g = from_picture(&rows, Advantage::P1);
        assert_eq!(g.pending(), Pending::Both);
        let name = |i: u32| Cell::from_index(i, 3).to_string();
        let (p1, p2) = match filled {
            2 => (
                format!("B {} W {}", name(0), name(1)),
                format!("B {} W {}", name(1), name(0)),
            ),
            3 => (
                format!("B {} W {}", name(0), name(1)),
                format!("B {} W {}", name(2), name(0)),
            ),
            _ => (
                format!("B {} W {}", name(0), name(1)),
                format!("B {} W {}", name(2), name(3)),
            ),
        };
        round(&mut g, &p1, &p2);
        if left <= 3 {
            assert_eq!(g.pending(), Pending::Over, "{empty} - {filled}");
            assert_eq!(g.empty_cells(), 0, "the last cells burn");
            let burned = g.rows().concat().matches('#').count();
            let collisions = match filled {
                2 => 2,
                3 => 1,
                _ => 0,
            };
            assert_eq!(burned, 9 - empty as usize + left + collisions);
            assert!(g.outcome().is_some());
        } else {
            assert_eq!(g.pending(), Pending::Both, "{empty} - {filled}");
            assert_eq!(g.empty_cells(), left as u32);
            assert!(g.outcome().is_none());
        }
    }
}

#[test]
fn a_board_with_three_or_fewer_cells_is_over_before_it_starts() {
    let g = game(1);
    assert_eq!(g.pending(), Pending::Over);
    assert_eq!(g.rows(), ["#"]);
    assert_eq!(g.rounds(), 0);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P1), "a complete tie at 0 goes to p1");
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    assert!(moves.is_empty());
    assert!(g
        .random_move(Seat::P1, &mut colosseum_engine::seeded_rng(1))
        .is_none());
    // A 2×2 board has exactly one round.
    let mut g = game(2);
    round(&mut g, "B a1 W b1", "B a2 W b2");
    assert_eq!(g.rows(), ["bw", "bw"]);
    assert_eq!(g.pending(), Pending::Over);
}

#[test]
fn bad_input_is_refused_with_the_reason() {
    let mut g = Erased(game(7));
    let e = |g: &Erased<ThwartOmega>, text: &str| g.check_move(Seat::P1, text).unwrap_err();
    assert_eq!(
        e(&g, "B d4 W d4").to_string(),
        "p1: not legal here: both stones are on d4; the black and the white stone go on \
         two different cells"
    );
    assert_eq!(
        e(&g, "B h1 W a1").to_string(),
        "p1: `B h1 W a1` is not a move: `h1` is off the board: columns run a to g, rows 1 \
         to 7"
    );
    assert_eq!(
        e(&g, "B a8 W a1").to_string(),
        "p1: `B a8 W a1` is not a move: `a8` is off the board: columns run a to g, rows 1 \
         to 7"
    );
    assert_eq!(
        e(&g, "B d4").to_string(),
        "p1: `B d4` is not a move: the white stone is missing; a move is one black and one \
         white stone, like `B d4 W e5`"
    );
    assert_eq!(
        e(&g, "W e5").to_string(),
        "p1: `W e5` is not a move: the black stone is missing; a move is one black and one \
         white stone, like `B d4 W e5`"
    );
    assert_eq!(
        e(&g, "d4 e5").to_string(),
        "p1: `d4 e5` is not a move: `d4` has no colour before it; a move is one black and \
         one white stone, like `B d4 W e5`"
    );
    assert_eq!(
        e(&g, "B d4 B e5").to_string(),
        "p1: `B d4 B e5` is not a move: it names two black stones; a move is one black and \
         one white stone, like `B d4 W e5`"
    );
    assert_eq!(
        e(&g, "B W e5").to_string(),
        "p1: `B W e5` is not a move: `b` has no cell after it; a move is one black and one \
         white stone, like `B d4 W e5`"
    );
    assert!(e(&g, "B d4 W")
        .to_string()
        .contains("`w` has no cell after it"));
    assert!(e(&g, "").to_string().contains("is not a move"));
    assert!(e(&g, "B 44 W e5")
        .to_string()
        .contains("`44` is not a cell: write a column letter a to g and a row number 1 to 7"));
    g.apply(&TextStep::both("B d4 W e5", "B d4 W c3")).unwrap();
    assert_eq!(
        e(&g, "B a1 W d4").to_string(),
        "p1: not legal here: d4 is taken: it holds a double black stone"
    );
    assert_eq!(
        e(&g, "B e5 W a1").to_string(),
        "p1: not legal here: e5 is taken: it holds a white stone"
    );
    g.apply(&TextStep::both("B a1 W b1", "B b1 W a1")).unwrap();
    assert_eq!(
        e(&g, "B a1 W g7").to_string(),
        "p1: not legal here: a1 is burned"
    );
    // A refused step leaves the state alone.
    let before = format!("{:?}", g.0);
    assert!(g.apply(&TextStep::both("B g7 W f7", "B a1 W f6")).is_err());
    assert_eq!(format!("{:?}", g.0), before);
    // A typed move off the board is refused too.
    let off = Placement {
        black: Cell::new(7, 0),
        white: Cell::new(0, 0),
    };
    assert_eq!(
        g.0.check_move(Seat::P2, &off).unwrap_err().reason,
        "h1 is off the 7×7 board"
    );
    assert!(g.0.parse_chance("x").is_err());
}

#[test]
fn notation_is_free_in_order_case_and_separators() {
    let g = game(11);
    let canonical = "B d4 W e5";
    for text in [
        "B d4 W e5",
        "W e5 B d4",
        "b:d4, w:e5",
        "w:E5,b:D4",
        "  black d4  white e5 ",
        "Bd4 We5",
        "b=d4 w=e5",
    ] {
        let m = g.parse_move(Seat::P2, text).unwrap();
        assert_eq!(g.format_move(&m), canonical, "{text}");
    }
    let m = g.parse_move(Seat::P1, "B k11 W b4").unwrap();
    assert_eq!(g.format_move(&m), "B k11 W b4");
    assert_eq!(m.black, Cell::new(10, 10));
    assert!(g.parse_move(Seat::P1, "B l1 W a1").is_err());
    assert!(g.parse_move(Seat::P1, "B a0 W a1").is_err());
    assert!(g.parse_move(Seat::P1, "B a12 W a1").is_err());
}

#[test]
fn legal_moves_are_every_ordered_pair_of_empty_cells() {
    let mut g = game(3);
    round(&mut g, "B a1 W b1", "B c1 W a2");
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    assert_eq!(moves.len(), 5 * 4);
    for m in &moves {
        g.check_move(Seat::P1, m).unwrap();
    }
    let mut texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), 20);
    // random_move draws each of them, about equally often.
    let mut rng = colosseum_engine::seeded_rng(5);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..20_000 {
        let m = g.random_move(Seat::P2, &mut rng).unwrap();
        g.check_move(Seat::P2, &m).unwrap();
        *counts.entry(m.to_string()).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 20);
    assert!(
        counts.values().all(|&c| (800..1200).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn nth_set_bit_finds_every_bit() {
    let bits: u128 = (1 << 3) | (1 << 40) | (1 << 63) | (1 << 64) | (1 << 100) | (1 << 120);
    let found: Vec<u32> = (0..6).map(|i| nth_set_bit(bits, i)).collect();
    assert_eq!(found, [3, 40, 63, 64, 100, 120]);
    let all = u128::MAX >> 7;
    for i in 0..121 {
        assert_eq!(nth_set_bit(all, i), i);
    }
}

/// The largest product of positive integers summing to `weight`, or `None` if it overflows.
fn largest_product(weight: u32) -> Option<u64> {
    let (threes, rest) = match weight % 3 {
        0 => (weight / 3, 1),
        1 if weight >= 4 => (weight / 3 - 1, 4),
        1 => (0, 1),
        _ => (weight / 3, 2),
    };
    (0..threes).try_fold(rest, |p: u64, _| p.checked_mul(3))
}

/// The most weight one colour can gather on a board of side `size`: two stones per round.
fn largest_weight(size: u32) -> u32 {
    let cells = size * size;
    let rounds = if cells <= 3 { 0 } else { (cells - 2) / 2 };
    2 * rounds
}

#[test]
fn no_product_overflows_on_any_allowed_board() {
    for size in 1..=u32::from(MAX_SIZE) {
        assert!(
            largest_product(largest_weight(size)).is_some(),
            "size {size} could overflow"
        );
    }
    assert_eq!(largest_weight(11), 118);
    assert_eq!(largest_product(118), Some(3u64.pow(38) * 4));
    assert!(
        largest_product(largest_weight(u32::from(MAX_SIZE) + 1)).is_none(),
        "the cap is where u64 stops being enough"
    );
    // The worst case also survives the game's own arithmetic.
    let mut worst = Groups {
        len: 0,
        weights: [0; MAX_GROUPS],
    };
    for _ in 0..38 {
        worst.push(3);
    }
    worst.push(4);
    assert_eq!(worst.product(), 3u64.pow(38) * 4);
    assert_eq!(worst.weights()[0], 4);
    // Random games never gather more than the bound, and never play more rounds.
    let mut rng = colosseum_engine::seeded_rng(9);
    for size in [2u8, 5, 11] {
        for _ in 0..20 {
            let mut g = game(size);
            colosseum_engine::random_playout(&mut g, &mut rng);
            let max = largest_weight(u32::from(size));
            assert!(g.rounds() * 2 <= max);
            for c in Colour::BOTH {
                let total: u32 = g.groups(c).weights().iter().map(|&w| u32::from(w)).sum();
                assert!(total <= 2 * g.rounds());
            }
        }
    }
}

#[test]
fn views_show_the_board_and_scores_to_everyone() {
    let mut g = game(4);
    round(&mut g, "B a1 W b1", "B a1 W d4");
    let v = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
    assert_eq!(v["rows"], json!(["Bw..", "....", "....", "...w"]));
    assert_eq!(
        v["black"],
        json!({"seat": "p1", "groups": [2], "product": 2})
    );
    assert_eq!(
        v["white"],
        json!({"seat": "p2", "groups": [1, 1], "product": 1})
    );
    assert_eq!(
        v["last_round"],
        json!({"p1": "B a1 W b1", "p2": "B a1 W d4"})
    );
    assert_eq!(v["options"], json!({"size": 4, "advantage": "p1"}));
    assert_eq!(v["empty"], 13);
    let mut p1 = serde_json::to_value(g.view(Viewer::Seat(Seat::P1))).unwrap();
    p1["viewer"] = v["viewer"].clone();
    assert_eq!(p1, v, "a seat sees what a spectator sees");
}

#[test]
fn render_marks_stones_doubles_and_burns() {
    let mut g = game(4);
    round(&mut g, "B a1 W b1", "B a1 W a2");
    round(&mut g, "B c3 W d4", "B d4 W c2");
    let text = g.render(Viewer::Seat(Seat::P2));
    assert!(
        text.contains("    a b c d\n 1  B w . .  1\n 2  w . w .  2\n"),
        "{text}"
    );
    assert!(text.contains(" 4  . . . #  4\n"), "{text}");
    assert!(
        text.contains("Black (p1): groups 2 1 = product 2"),
        "{text}"
    );
    assert!(
        text.contains("White (p2, you): groups 1 1 1 = product 1"),
        "{text}"
    );
    assert!(text.contains("Last round: p1 played B c3 W d4, p2 played B d4 W c2"));
}

#[test]
fn options_are_checked() {
    for bad in ["size=0", "size=12", "advantage=p3", "colour=red"] {
        let raw = colosseum_engine::parse_pairs([bad]).unwrap();
        assert!(ThwartOmega::from_raw(&raw).is_err(), "{bad}");
    }
    let raw = colosseum_engine::parse_pairs(["size=12"]).unwrap();
    assert_eq!(
        ThwartOmega::from_raw(&raw).unwrap_err().to_string(),
        "option `size` = 12 is not allowed: an integer from 1 to 11"
    );
    let raw = colosseum_engine::parse_pairs(["size=9", "advantage=None"]).unwrap();
    let g = ThwartOmega::from_raw(&raw).unwrap();
    assert_eq!(g.options().advantage, Advantage::None);
    assert_eq!(g.empty_cells(), 81);
    let g = ThwartOmega::from_raw(&RawOptions::new()).unwrap();
    assert_eq!(g.options(), ThwartOmegaOptions::default());
}

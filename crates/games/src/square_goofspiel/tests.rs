use super::*;
use colosseum_engine::{AnyGame, Erased, Record, TextStep};

/// The seed's example game (Ruby = p1, Turquoise = p2), played through real steps.
const SEED_EXAMPLE: &str = include_str!("../../tests/data/square-goofspiel-seed-example.json");

fn new_game() -> SquareGoofspiel {
    SquareGoofspiel::new(SquareGoofspielOptions::default())
}

/// Applies the first `n` steps of the seed example through the text interface.
fn seed_example(n: usize) -> Erased<SquareGoofspiel> {
    let record = Record::from_json(SEED_EXAMPLE).unwrap();
    let mut game = Erased(new_game());
    for (i, step) in record.steps.iter().take(n).enumerate() {
        game.apply(step)
            .unwrap_or_else(|e| panic!("step {i} ({step}): {e}"));
    }
    game
}

fn cell(text: &str) -> Cell {
    Cell::parse(text).unwrap()
}

fn draw(text: &str) -> PhaseDraw {
    new_game().parse_chance(text).unwrap()
}

fn bid(n: u8) -> Bid {
    Bid::card(n).unwrap()
}

#[test]
fn cells_values_and_worths_follow_the_rulings() {
    let f1 = cell("f1");
    assert_eq!((f1.value_in_row(), f1.value_in_column()), (6, 1));
    assert_eq!(cell("A6").to_string(), "a6");
    assert_eq!((cell("a6").column(), cell("a6").row()), (0, 5));
    assert_eq!(Line::Row(0).worth(), 6);
    assert_eq!(Line::Row(5).worth(), 1);
    assert_eq!(Line::Column(0).worth(), 6);
    assert_eq!(Line::Column(5).worth(), 1);
    assert_eq!(Line::Column(2).to_string(), "column c");
    for bad in ["g1", "a7", "a0", "a", "a10", "11", ""] {
        assert_eq!(Cell::parse(bad), None, "{bad}");
    }
    assert_eq!(Hand::START.len(), 21);
    assert_eq!(Hand::START.strength(), 56);
    assert_eq!(Hand::from_counts([2, 0, 1, 0, 0, 0]).to_string(), "1 1 3");
}

/// The seed's first example: the end of phase two.
#[test]
fn seed_example_end_of_phase_two() {
    // Phase one (7 steps), then phase two's chance step and its auctions A to D.
    let mut game = seed_example(12);
    let g = &game.0;
    assert_eq!(g.phase(), 2);
    assert_eq!(g.claimed_this_phase(), [1, 2], "Ruby 1 cell, Turquoise 2");
    let unclaimed = g.auctions().skip(6).filter(|a| a.winner.is_none()).count();
    assert_eq!(unclaimed, 1, "one cell of A-D went to nobody");
    let (label, e) = g.cell_up().unwrap();
    assert_eq!((label, e.to_string().as_str()), ('E', "b3"));
    let before = [g.hand(Seat::P1), g.hand(Seat::P2)];

    // Cell E: Ruby plays 2, Turquoise plays 4. Turquoise claims it.
    game.apply(&TextStep::both("2", "4")).unwrap();
    assert_eq!(game.0.board().owner(e), Some(Seat::P2));
    assert_eq!(game.0.claimed_this_phase(), [1, 3]);

    // Cell F: both pass; nobody claims it, and the phase ends.
    let (label, f) = game.0.cell_up().unwrap();
    assert_eq!(label, 'F');
    game.apply(&TextStep::both("pass", "0")).unwrap();
    let g = &game.0;
    assert_eq!(g.board().owner(f), None);
    assert_eq!(
        g.pending(),
        Pending::Chance,
        "phase three's cells come next"
    );
    assert_eq!(g.phase(), 3);

    // Ruby: played a 2, received a 1. Turquoise: played a 4, received a 3.
    let mut ruby = before[0];
    ruby.remove(2);
    ruby.add(1);
    let mut turquoise = before[1];
    turquoise.remove(4);
    turquoise.add(3);
    assert_eq!(g.hand(Seat::P1), ruby);
    assert_eq!(g.hand(Seat::P2), turquoise);
    let shown = g.render(Viewer::Spectator);
    assert!(
        shown.contains(
            "End of phase 2: p1 claimed 1 cell and gets a 1; p2 claimed 3 cells and gets a 3."
        ),
        "{shown}"
    );
    assert!(
        shown.contains("Last auction (phase 2 F, b2): p1 pass, p2 pass - nobody claims it"),
        "{shown}"
    );

    // The next phase begins with its cells A-F revealed; the next auction is cell A.
    game.apply(&TextStep::chance("f1 b4 c2 b5 d2 b6")).unwrap();
    assert_eq!(game.0.cell_up(), Some(('A', cell("f1"))));
    assert_eq!(game.0.claimed_this_phase(), [0, 0]);
}

/// The seed's second example: line points tied, the larger remaining hand wins.
#[test]
fn seed_example_scoring_goes_to_the_larger_remaining_hand() {
    let game = seed_example(usize::MAX);
    let g = &game.0;
    assert!(g.is_over());
    assert_eq!(g.line_points(), [21, 21]);
    assert_eq!(g.hand(Seat::P1).to_string(), "3", "Ruby's remaining card");
    assert_eq!(
        g.hand(Seat::P2).strength(),
        4,
        "Turquoise's remaining cards"
    );
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P2));
    assert_eq!(
        o.reason,
        "line points are tied at 21; p2 wins on remaining hand strength, 4 to 3"
    );
    let score = g.score();
    assert_eq!((score.p1.clone(), score.p2.clone()), (json!(21), json!(21)));
    assert_eq!(score.details["hand_strength"], json!({"p1": 3, "p2": 4}));
    assert_eq!(
        score.details["lines_won"]["p1"],
        json!(["row 1", "row 2", "row 3", "row 4", "column e", "column f"])
    );
    assert_eq!(score.details["cells"], json!({"p1": 15, "p2": 15}));
    assert_eq!(
        score.details["lines"][4],
        json!({"line": "row 5", "worth": 2, "p1": 6, "p2": 10, "winner": "p2"})
    );
}

#[test]
fn full_ties_go_to_the_advantage_holder_and_are_draws_without_one() {
    let mut g = seed_example(usize::MAX).0;
    g.hands = [Hand::from_counts([1, 1, 0, 0, 0, 0]); 2];
    // By default p1 holds the advantage (RULINGS).
    assert_eq!(
        SquareGoofspielOptions::from_raw(&RawOptions::new()).unwrap(),
        SquareGoofspielOptions::default()
    );
    g.options = SquareGoofspielOptions::default();
    assert_eq!(g.outcome().unwrap().winner, Some(Seat::P1));
    g.options.advantage = None;
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(
        o.reason,
        "line points are tied at 21 and remaining hand strength at 3: a draw"
    );
    for (option, seat) in [("advantage=p1", Seat::P1), ("advantage=P2", Seat::P2)] {
        let raw = colosseum_engine::parse_pairs([option]).unwrap();
        g.options = SquareGoofspielOptions::from_raw(&raw).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, Some(seat));
        assert!(o.reason.ends_with(&format!("; {seat} holds the advantage")));
    }
    // The advantage never overrides hand strength or line points.
    g.options.advantage = Some(Seat::P1);
    g.hands[0] = Hand::from_counts([1, 0, 0, 0, 0, 0]);
    assert_eq!(g.outcome().unwrap().winner, Some(Seat::P2));
    // e5 to p1 wins row 5 for p1 (6 + 5 against 10).
    g.board.set(cell("e5"), Some(Seat::P1));
    assert_eq!(g.line_points(), [23, 19]);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P1));
    assert_eq!(o.reason, "p1 wins on line points, 23 to 19");
}

/// A board from a picture: rows 1..6, `X` = p1, `O` = p2, anything else nobody's.
fn board(picture: [&str; SIDE]) -> Board {
    let mut b = Board::default();
    for (row, line) in picture.iter().enumerate() {
        for (column, ch) in line.chars().enumerate() {
            let owner = match ch {
                'X' => Some(Seat::P1),
                'O' => Some(Seat::P2),
                _ => None,
            };
            b.set(Cell::new(column, row).unwrap(), owner);
        }
    }
    b
}

/// A scoring position: the board, some lines' expected totals and winner (`X`, `O`, `=` for
/// nobody), and both seats' line points.
struct ScoringCase {
    name: &'static str,
    picture: [&'static str; SIDE],
    lines: &'static [(&'static str, u8, u8, char)],
    points: [u32; 2],
}

const SCORING: &[ScoringCase] = &[
    ScoringCase {
        name: "empty board: every line tied at 0",
        picture: ["......"; SIDE],
        lines: &[("row 1", 0, 0, '='), ("column f", 0, 0, '=')],
        points: [0, 0],
    },
    ScoringCase {
        name: "one cell of value 6 beats two cells of values 1 and 2",
        picture: ["OO...X", "......", "......", "......", "......", "......"],
        lines: &[
            ("row 1", 6, 3, 'X'),
            ("column a", 0, 1, 'O'),
            ("column b", 0, 1, 'O'),
            ("column f", 1, 0, 'X'),
            ("row 2", 0, 0, '='),
        ],
        points: [6 + 1, 6 + 5],
    },
    ScoringCase {
        name: "the same on a column: f6 (value 6) beats f1 and f2 (1 + 2)",
        picture: [".....O", ".....O", "......", "......", "......", ".....X"],
        lines: &[
            ("column f", 6, 3, 'X'),
            ("row 1", 0, 6, 'O'),
            ("row 2", 0, 6, 'O'),
            ("row 6", 6, 0, 'X'),
        ],
        points: [1 + 1, 6 + 5],
    },
    ScoringCase {
        name: "equal totals tie the line: c2 (3) against a2 and b2 (1 + 2)",
        picture: ["......", "OOX...", "......", "......", "......", "......"],
        lines: &[
            ("row 2", 3, 3, '='),
            ("column a", 0, 2, 'O'),
            ("column b", 0, 2, 'O'),
            ("column c", 2, 0, 'X'),
        ],
        points: [4, 6 + 5],
    },
    ScoringCase {
        name: "a full row, alternating: more cells do not help X",
        picture: ["......", "......", "XOXOXO", "......", "......", "......"],
        lines: &[
            ("row 3", 1 + 3 + 5, 2 + 4 + 6, 'O'),
            ("column a", 3, 0, 'X'),
            ("column f", 0, 3, 'O'),
        ],
        points: [6 + 4 + 2, 4 + 5 + 3 + 1],
    },
    ScoringCase {
        name: "nobody's cells (tied auctions) count for no one",
        picture: ["--X---", "--O---", "------", "------", "------", "------"],
        lines: &[
            ("column c", 1, 2, 'O'),
            ("row 1", 3, 0, 'X'),
            ("row 2", 0, 3, 'O'),
        ],
        points: [6, 4 + 5],
    },
    ScoringCase {
        name: "the seed example's final board: mirrored, 21 all",
        picture: ["-XXXXX", "O-XXXX", "OO-XXX", "OOO-XX", "OOOO-X", "OOOOO-"],
        lines: &[
            ("row 4", 11, 6, 'X'),
            ("row 5", 6, 10, 'O'),
            ("column d", 6, 11, 'O'),
            ("column e", 10, 6, 'X'),
        ],
        points: [21, 21],
    },
    ScoringCase {
        name: "one player owns everything",
        picture: ["XXXXXX"; SIDE],
        lines: &[("row 6", 21, 0, 'X'), ("column a", 21, 0, 'X')],
        points: [42, 0],
    },
];

#[test]
fn scoring_table() {
    for case in SCORING {
        let b = board(case.picture);
        let results = b.line_results();
        for &(name, p1, p2, winner) in case.lines {
            let r = results.iter().find(|r| r.line.to_string() == name).unwrap();
            let expected = match winner {
                'X' => Some(Seat::P1),
                'O' => Some(Seat::P2),
                _ => None,
            };
            assert_eq!(
                (r.totals, r.winner),
                ([p1, p2], expected),
                "{}: {name}",
                case.name
            );
        }
        assert_eq!(b.line_points(), case.points, "{}", case.name);
    }
}

#[test]
fn line_won_by_value_but_lost_by_cell_count_counts_cells_too() {
    let r = board(["OO...X", "", "", "", "", ""]).line_result(Line::Row(0));
    assert_eq!(r.cells, [1, 2]);
    assert_eq!(r.winner, Some(Seat::P1));
}

#[test]
fn bids_refused_with_the_reason_and_the_state_kept() {
    let mut g = new_game();
    g.apply(Step::Chance(draw("b3 a1 f6 c2 d5 e4"))).unwrap();
    g.apply(Step::Both {
        p1: bid(6),
        p2: Bid::PASS,
    })
    .unwrap();
    let before = format!("{g:?}");

    // A card not in hand.
    let e = g
        .apply(Step::Both {
            p1: bid(6),
            p2: bid(1),
        })
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "p1: not legal here: you have no 6 left; your hand is \
         1 1 1 1 1 1 2 2 2 2 2 3 3 3 3 4 4 4 5 5"
    );
    // A card value that does not exist: not even a move.
    for text in ["7", "-1", "256", "six", ""] {
        let e = g.parse_move(Seat::P1, text).unwrap_err();
        assert_eq!(e.kind, "move", "{text}");
    }
    assert_eq!(
        g.parse_move(Seat::P1, "7").unwrap_err().to_string(),
        "`7` is not a move: cards have strengths 1 to 6; pass (or 0) plays none"
    );
    // A bid for one seat alone, and a chance outcome while the seats bid.
    let e = g
        .apply(Step::One {
            seat: Seat::P1,
            mv: bid(1),
        })
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "this step gives a move for p1 alone, but the game waits for both seats (p1 and p2 at once)"
    );
    let e = g
        .apply(Step::Chance(draw("a2 a3 a4 a5 a6 b1")))
        .unwrap_err();
    assert!(matches!(e, StepError::WrongActors { .. }), "{e}");
    assert_eq!(format!("{g:?}"), before, "refused steps change nothing");

    // The same through the text interface, as a host or a record sees it.
    let mut erased = Erased(g);
    let e = erased.apply(&TextStep::one(Seat::P2, "3")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "this step gives a move for p2 alone, but the game waits for both seats (p1 and p2 at once)"
    );
    let e = erased.check_move(Seat::P2, "9").unwrap_err();
    assert_eq!(
        e.to_string(),
        "p2: `9` is not a move: cards have strengths 1 to 6; pass (or 0) plays none"
    );
    assert_eq!(erased.check_move(Seat::P2, " PASS ").unwrap(), "pass");
    assert_eq!(format!("{:?}", erased.0), before);
}

#[test]
fn an_empty_hand_can_only_pass() {
    let mut g = new_game();
    g.hands[0] = Hand::default();
    g.apply(Step::Chance(draw("a1 b1 c1 d1 e1 f1"))).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    assert_eq!(moves, [Bid::PASS]);
    let e = g.check_move(Seat::P1, &bid(1)).unwrap_err();
    assert_eq!(
        e.reason,
        "you have no 1 left; your hand is empty, so you can only pass"
    );
}

#[test]
fn chance_steps_refused_with_the_reason() {
    let mut g = new_game();
    let cases = [
        (
            "b3 a1 f6 c2 d5",
            "a phase draws exactly 6 cells, in auction order A to F; this gives 5",
        ),
        (
            "b3 a1 f6 c2 d5 e4 a2",
            "a phase draws exactly 6 cells, in auction order A to F; this gives 7",
        ),
        (
            "b3 a1 f6 c2 d5 B3",
            "b3 is drawn twice; a phase draws 6 different cells",
        ),
    ];
    for (text, reason) in cases {
        let e = g.apply(Step::Chance(draw(text))).unwrap_err();
        assert_eq!(
            e,
            StepError::IllegalChance(IllegalMove::new(reason)),
            "{text}"
        );
    }
    g.apply(Step::Chance(draw("b3, a1, f6, c2, d5, e4")))
        .unwrap();
    assert_eq!(g.auction_order(), draw("b3 a1 f6 c2 d5 e4").cells());
    for _ in 0..AUCTIONS_PER_PHASE {
        g.apply(Step::Both {
            p1: Bid::PASS,
            p2: Bid::PASS,
        })
        .unwrap();
    }
    let e = g.check_chance(&draw("a2 a3 a4 a5 a6 f6")).unwrap_err();
    assert_eq!(e.reason, "f6 was already auctioned in phase 1");

    // Malformed text is not a chance outcome at all.
    for text in [
        "",
        "  ",
        "b3 a1 zz c2 d5 e4",
        "b3a1f6c2d5e4",
        "g1 a1 b1 c1 d1 e1",
    ] {
        let e = g.parse_chance(text).unwrap_err();
        assert_eq!(e.kind, "chance outcome", "{text}");
    }
    assert_eq!(
        g.parse_chance("b3 a1 zz").unwrap_err().to_string(),
        "`b3 a1 zz` is not a chance outcome: `zz` is not a cell (a1 to f6); write the \
         phase's six cells in auction order A to F, such as `b3 a1 f6 c2 d5 e4`"
    );
    let many = vec!["a1"; CELLS + 1].join(" ");
    assert!(g.parse_chance(&many).is_err());
    assert_eq!(
        g.format_chance(&draw("B3,A1 f6  c2 d5 e4")),
        "b3 a1 f6 c2 d5 e4"
    );
}

#[test]
fn notation_round_trips_and_accepts_the_seeds_words_for_a_pass() {
    let g = new_game();
    for text in ["pass", "PASS", "0", "no submission", "None", " no card "] {
        assert_eq!(g.parse_move(Seat::P1, text).unwrap(), Bid::PASS, "{text}");
    }
    for n in 1..=6 {
        let b = g.parse_move(Seat::P2, &n.to_string()).unwrap();
        assert_eq!(g.format_move(&b), n.to_string());
    }
    assert_eq!(g.format_move(&Bid::PASS), "pass");
}

#[test]
fn a_random_game_has_six_chance_steps_and_36_auctions() {
    let mut rng = colosseum_engine::seeded_rng(5);
    let mut g = new_game();
    assert_eq!(colosseum_engine::random_playout(&mut g, &mut rng), 42);
    let mut order = g.auction_order().to_vec();
    order.sort();
    assert_eq!(order, Cell::all().collect::<Vec<_>>());
    assert!(g.sample_chance(&mut rng).is_none());
    assert!(g.random_move(Seat::P1, &mut rng).is_none());
    let mut outcomes = Vec::new();
    g.chance_outcomes(&mut outcomes);
    assert!(outcomes.is_empty());
}

#[test]
fn drawn_cells_are_uniform() {
    // Every cell is equally likely in every slot: 36 000 first-phase draws, about 1 000 per
    // cell for slot A and for slot F.
    let mut rng = colosseum_engine::seeded_rng(11);
    let g = new_game();
    let mut first = [0u32; CELLS];
    let mut last = [0u32; CELLS];
    for _ in 0..36_000 {
        let d = g.sample_chance(&mut rng).unwrap();
        assert!(g.check_chance(&d).is_ok());
        first[d.cells()[0].index()] += 1;
        last[d.cells()[5].index()] += 1;
    }
    for counts in [first, last] {
        for n in counts {
            assert!((850..1150).contains(&n), "{counts:?}");
        }
    }
}

#[test]
fn random_moves_are_uniform_over_pass_and_the_strengths_held() {
    let mut rng = colosseum_engine::seeded_rng(3);
    let mut g = new_game();
    g.hands[0] = Hand::from_counts([0, 3, 0, 0, 1, 0]);
    g.apply(Step::Chance(draw("a1 b1 c1 d1 e1 f1"))).unwrap();
    let mut counts = [0u32; 7];
    for _ in 0..3000 {
        counts[usize::from(g.random_move(Seat::P1, &mut rng).unwrap().value())] += 1;
    }
    assert_eq!((counts[1], counts[3], counts[4], counts[6]), (0, 0, 0, 0));
    for n in [counts[0], counts[2], counts[5]] {
        assert!((900..1100).contains(&n), "{counts:?}");
    }
}

#[test]
fn views_show_the_phase_the_board_and_both_hands_alike_to_everyone() {
    let game = seed_example(12);
    let json = |v: Viewer| {
        let mut j = game.view_json(v);
        j.as_object_mut().unwrap().remove("viewer");
        j
    };
    let spectator = json(Viewer::Spectator);
    assert_eq!(json(Viewer::Seat(Seat::P1)), spectator);
    assert_eq!(json(Viewer::Seat(Seat::P2)), spectator);
    assert_eq!(spectator["phase"], 2);
    assert_eq!(spectator["up_now"], "b3");
    assert_eq!(
        spectator["phase_cells"][4],
        json!({"label": "E", "cell": "b3", "up_now": true, "state": "open"})
    );
    assert_eq!(
        spectator["phase_cells"][0],
        json!({"label": "A", "cell": "a5", "up_now": false, "state": "p2"})
    );
    assert_eq!(spectator["claimed_this_phase"], json!({"p1": 1, "p2": 2}));
    assert_eq!(spectator["board"][0][0], "nobody", "a1 was tied");
    assert_eq!(spectator["board"][0][1], "p1");
    assert_eq!(spectator["board"][5][5], "open");
    assert_eq!(spectator["auctions"].as_array().unwrap().len(), 10);
    assert_eq!(
        spectator["auctions"][9],
        json!({"phase": 2, "label": "D", "cell": "a6", "p1": "pass", "p2": "1", "winner": "p2"})
    );
    assert!(spectator["hands"]["p1"]["cards"].is_array());
    let shown = game.render(Viewer::Seat(Seat::P2));
    assert!(shown.contains("Square Goofspiel - phase 2 of 6, auction E: b3 is up"));
    assert!(shown.contains("X = p1, O = p2 (you)"));
    assert!(shown.contains("  row 3   O   [E]"), "{shown}");
    assert!(shown.contains("This phase so far: p1 claimed 1, p2 claimed 2."));
}

#[test]
fn options_are_checked() {
    assert_eq!(
        SquareGoofspiel::from_raw(&RawOptions::new())
            .unwrap()
            .options(),
        SquareGoofspielOptions {
            advantage: Some(Seat::P1),
            size: 6,
            fixed_draw: false,
        }
    );
    let raw = colosseum_engine::parse_pairs(["advantage=p3"]).unwrap();
    assert_eq!(
        SquareGoofspiel::from_raw(&raw).unwrap_err().to_string(),
        "option `advantage` = \"p3\" is not allowed: p1, p2 or none"
    );
    let raw = colosseum_engine::parse_pairs(["cards=3"]).unwrap();
    assert!(SquareGoofspiel::from_raw(&raw).is_err());
}

#[test]
fn default_move_is_a_pass() {
    let mut rng = colosseum_engine::seeded_rng(0);
    let mut g = new_game();
    assert_eq!(g.default_move(Seat::P1, &mut rng), None);
    g.apply(Step::Chance(draw("a1 b1 c1 d1 e1 f1"))).unwrap();
    assert_eq!(g.default_move(Seat::P2, &mut rng), Some(Bid::PASS));
}

fn sized(size: u8) -> SquareGoofspiel {
    let raw = colosseum_engine::parse_pairs([format!("size={size}").as_str()]).unwrap();
    SquareGoofspiel::from_raw(&raw).unwrap()
}

#[test]
fn the_small_variant_is_checked_and_size_6_is_the_seed() {
    let seed = SquareGoofspiel::from_raw(&RawOptions::new()).unwrap();
    assert_eq!(seed.hand(Seat::P1), Hand::START);
    assert_eq!(Hand::start(6), Hand::START);
    assert_eq!(sized(6).options(), seed.options());
    // The seed's view leaves the size out: it reads as before.
    let view = serde_json::to_value(seed.view(Viewer::Spectator)).unwrap();
    assert_eq!(view["options"], serde_json::json!({"advantage": "p1"}));
    for bad in ["size=1", "size=7", "size=two"] {
        let raw = colosseum_engine::parse_pairs([bad]).unwrap();
        let e = SquareGoofspiel::from_raw(&raw).unwrap_err().to_string();
        assert!(
            e.contains("is not allowed: an integer from 2 to 6"),
            "{bad}: {e}"
        );
    }
    let small = sized(3);
    assert_eq!(small.hand(Seat::P2).counts(), [3, 2, 1, 0, 0, 0]);
    let view = serde_json::to_value(small.view(Viewer::Spectator)).unwrap();
    assert_eq!(view["board"].as_array().unwrap().len(), 3);
    assert_eq!(view["lines"].as_array().unwrap().len(), 6);
    assert_eq!(view["options"]["size"], 3);
    // Line worths scale: row 1 and column a are worth 3, down to 1.
    let worths: Vec<u8> = Board::default()
        .line_results_on(3)
        .iter()
        .map(|r| r.worth)
        .collect();
    assert_eq!(worths, [3, 2, 1, 3, 2, 1]);
}

#[test]
fn the_small_variant_draws_only_its_cells_in_phases_of_its_size() {
    let mut g = sized(2);
    let chance = |g: &SquareGoofspiel, text: &str| g.parse_chance(text).unwrap();
    for (text, why) in [
        (
            "a1 b1 a2",
            "a phase draws exactly 2 cells, in auction order A to B; this gives 3",
        ),
        (
            "a1 c1",
            "c1 is not on the board: with size 2 the cells are a1 to b2",
        ),
        (
            "a1 a1",
            "a1 is drawn twice; a phase draws 2 different cells",
        ),
    ] {
        let e = g.check_chance(&chance(&g, text)).unwrap_err();
        assert_eq!(e.to_string(), format!("not legal here: {why}"));
    }
    // Phase 1: b2 then a1. p1 takes b2 with a 2, p2 takes a1 with a 1: each gets a 1.
    g.apply(Step::Chance(chance(&g, "b2 a1"))).unwrap();
    g.apply(Step::Both {
        p1: Bid(2),
        p2: Bid(1),
    })
    .unwrap();
    g.apply(Step::Both {
        p1: Bid::PASS,
        p2: Bid(1),
    })
    .unwrap();
    assert_eq!(g.hand(Seat::P1).counts(), [3, 0, 0, 0, 0, 0]);
    assert_eq!(g.hand(Seat::P2).counts(), [1, 1, 0, 0, 0, 0]);
    // Phase 2: the two cells left, in either order; both pass on a2, p2 takes b1 with a 2.
    assert_eq!(g.pending(), Pending::Chance);
    let e = g.check_chance(&chance(&g, "b2 a2")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "not legal here: b2 was already auctioned in phase 1"
    );
    g.apply(Step::Chance(chance(&g, "a2 b1"))).unwrap();
    g.apply(Step::Both {
        p1: Bid::PASS,
        p2: Bid::PASS,
    })
    .unwrap();
    g.apply(Step::Both {
        p1: Bid(1),
        p2: Bid(2),
    })
    .unwrap();
    assert!(g.is_over());
    // Row 1 (worth 2): p2's a1 (1) against p2's b1 (2): p2. Row 2 (worth 1): p1's b2 only: p1.
    // Column a (worth 2): p2's a1 (1): p2. Column b (worth 1): p2's b1 (1) against p1's b2 (2): p1.
    assert_eq!(g.line_points(), [2, 4]);
    assert_eq!(g.outcome().unwrap().winner, Some(Seat::P2));
    let text = g.render(Viewer::Spectator);
    assert!(text.contains("          a    b\n"), "{text}");
}

#[test]
fn random_small_variant_games_auction_every_cell_once() {
    for size in 2..=5u8 {
        for seed in 0..20 {
            let mut g = sized(size);
            let mut rng = colosseum_engine::seeded_rng(seed);
            let mut auctions = 0;
            while !g.is_over() {
                match g.pending() {
                    Pending::Chance => {
                        let draw = g.sample_chance(&mut rng).unwrap();
                        assert!(draw.cells().iter().all(|&c| g.is_on_board(c)));
                        g.apply(Step::Chance(draw)).unwrap();
                    }
                    _ => {
                        let p1 = g.random_move(Seat::P1, &mut rng).unwrap();
                        let p2 = g.random_move(Seat::P2, &mut rng).unwrap();
                        g.apply(Step::Both { p1, p2 }).unwrap();
                        auctions += 1;
                    }
                }
            }
            assert_eq!(auctions, usize::from(size) * usize::from(size));
            assert_eq!(g.phase(), usize::from(size));
            let mut order = g.auction_order().to_vec();
            order.sort_by_key(|c| c.index());
            order.dedup();
            assert_eq!(order.len(), auctions);
        }
    }
}

#[test]
fn the_fixed_draw_auctions_in_reading_order_without_chance() {
    let raw = colosseum_engine::parse_pairs(["size=2", "draw=fixed"]).unwrap();
    let mut g = SquareGoofspiel::from_raw(&raw).unwrap();
    let raw = colosseum_engine::parse_pairs(["draw=sometimes"]).unwrap();
    let e = SquareGoofspiel::from_raw(&raw).unwrap_err().to_string();
    assert!(e.contains("is not allowed: random or fixed"), "{e}");
    let view = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
    assert_eq!(view["options"]["draw"], "fixed");
    let mut order = Vec::new();
    while !g.is_over() {
        assert_eq!(g.pending(), Pending::Both, "no chance step");
        order.push(g.cell_up().unwrap());
        // p1 bids a 1 whenever it holds one: it claims a1 and b1 (a 2 comes for phase 2).
        let p1 = if g.hand(Seat::P1).count(1) > 0 {
            Bid(1)
        } else {
            Bid::PASS
        };
        g.apply(Step::Both { p1, p2: Bid::PASS }).unwrap();
        if g.auctions_done() == 2 {
            assert_eq!(g.hand(Seat::P1).counts(), [0, 2, 0, 0, 0, 0]);
            assert_eq!(g.claimed_this_phase(), [2, 0]);
        }
    }
    let names: Vec<String> = order.iter().map(|(l, c)| format!("{l}{c}")).collect();
    assert_eq!(names, ["Aa1", "Bb1", "Aa2", "Bb2"]);
    // p1 holds row 1 (worth 2), column a and column b (2 + 1): 5 to 0.
    assert_eq!(g.line_points(), [5, 0]);
    let mut rng = colosseum_engine::seeded_rng(0);
    assert!(g.sample_chance(&mut rng).is_none());
}

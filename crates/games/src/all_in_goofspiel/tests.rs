use super::*;
use colosseum_engine::{seeded_rng, AnyGame, Erased, Record, TextStep};
use proptest::prelude::*;

/// The number rule written the slow, obvious way: the labels side by side as text, then read
/// as a chain of subtractions. Independent of [`number`], for cross-checking it.
fn reference_number(cards: &[i8]) -> i128 {
    let text: String = cards.iter().map(|c| c.to_string()).collect();
    let (first_sign, rest) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.as_str()),
    };
    rest.split('-')
        .enumerate()
        .map(|(i, term)| {
            let value: i128 = if term.is_empty() {
                0
            } else {
                term.parse().unwrap()
            };
            if i == 0 {
                first_sign * value
            } else {
                -value
            }
        })
        .sum()
}

fn new_game(first: Seat) -> AllInGoofspiel {
    AllInGoofspiel::new(AllInGoofspielOptions {
        first,
        ..Default::default()
    })
}

/// The seat to act makes the move `text`.
fn step(game: &mut AllInGoofspiel, text: &str) {
    let Pending::One(seat) = game.pending() else {
        panic!("nobody acts: {:?}", game.pending());
    };
    let mv = game.parse_move(seat, text).unwrap();
    game.apply(Step::One { seat, mv })
        .unwrap_or_else(|e| panic!("{seat} `{text}`: {e}"));
}

fn hand_of(cards: &[i8]) -> Hand {
    Hand(cards.iter().fold(0, |m, &c| m | Hand::bit(c)))
}

/// A game in the middle: `rounds_played` rounds done (their details do not matter here),
/// these points (in halves) and these hands.
fn position(rounds_played: u8, halves: [u16; 2], hands: [&[i8]; 2]) -> AllInGoofspiel {
    let mut game = new_game(Seat::P1);
    game.rounds_played = rounds_played;
    game.points = halves.map(Points::from_halves);
    game.hands = hands.map(hand_of);
    game
}

#[test]
fn the_number_rule_table() {
    let table: &[(&[i8], i128)] = &[
        // The seed's and the rulings' examples.
        (&[10, 9], 109),
        (&[3, 1, 2], 312),
        (&[10, -1, 9], -9),
        (&[-3, 5], -35),
        (&[5, -3], 2),
        (&[-1, -2], -3),
        (&[0, 7], 7),
        // The empty list.
        (&[], 0),
        // Single cards.
        (&[0], 0),
        (&[12], 12),
        (&[-3], -3),
        // Leading negatives.
        (&[-2, 12, 11], -21211),
        (&[-1, 0], -10),
        (&[-1, 0, 5], -105),
        // Several negatives.
        (&[-3, -2, -1], -6),
        (&[4, -3, -2, -1], -2),
        (&[12, -3, 4, -2, 10, -1], 12 - 34 - 210 - 1),
        (&[-3, 9, -2, 8, -1, 7], -39 - 28 - 17),
        // Zero first, and zeros inside.
        (&[0, -1], -1),
        (&[0, 12, 0], 120),
        (&[10, 0], 100),
        (&[1, 0, 10], 1010),
        // The longest possible lists: all sixteen cards.
        (
            &[-3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            -3 - 2 - 10_123_456_789_101_112,
        ),
        (
            &[12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3],
            1_211_109_876_543_210 - 6,
        ),
        (
            &[9, 8, 7, 6, 5, 4, 3, 2, 12, 11, 1, 10, 0, -3, -2, -1],
            LARGEST_NUMBER - 6,
        ),
        (
            &[-3, 9, 8, 7, 6, 5, 4, 3, 2, 12, 11, 1, 10, 0, -2, -1],
            SMALLEST_NUMBER,
        ),
        (&[9, 8, 7, 6, 5, 4, 3, 2, 12, 11, 1, 10, 0], LARGEST_NUMBER),
    ];
    for &(cards, expected) in table {
        assert_eq!(number(cards), expected, "{cards:?}");
        assert_eq!(reference_number(cards), expected, "reference: {cards:?}");
    }
}

#[test]
fn the_extremes_are_what_the_full_hand_can_make_and_fit_easily() {
    // The largest number: all non-negative cards, best order (also what `legal_moves`
    // offers); the smallest: -3 leading that same run, then the other negatives.
    assert_eq!(largest_number_play(Hand::FULL).number(), LARGEST_NUMBER);
    assert_eq!(LARGEST_NUMBER.to_string().len(), 16);
    assert_eq!(
        SMALLEST_NUMBER.to_string().len(),
        18,
        "17 digits and a sign"
    );
    assert!(i128::from(i64::MIN) < SMALLEST_NUMBER && LARGEST_NUMBER < i128::from(i64::MAX));
    // The function is total on anything a `Play` can hold, duplicates included: sixteen
    // 12s are 32 digits side by side.
    let twelves = [12i8; HAND_SIZE];
    assert_eq!(number(&twelves), "12".repeat(16).parse::<i128>().unwrap());
    let minus_threes = [-3i8; HAND_SIZE];
    assert_eq!(number(&minus_threes), -48);
}

proptest! {
    #[test]
    fn number_matches_the_text_reading(cards in proptest::collection::vec(-3i8..=12, 0..=16)) {
        prop_assert_eq!(number(&cards), reference_number(&cards));
    }

    #[test]
    fn legal_plays_lie_between_the_extremes(
        deck in Just((LOWEST_CARD..=HIGHEST_CARD).collect::<Vec<i8>>()).prop_shuffle(),
        len in 0usize..=16,
    ) {
        let n = number(&deck[..len]);
        prop_assert!((SMALLEST_NUMBER..=LARGEST_NUMBER).contains(&n), "{:?} = {}", &deck[..len], n);
    }
}

#[test]
fn notation_round_trips_and_reads_pass_and_commas() {
    let g = new_game(Seat::P1);
    for (text, canonical) in [
        ("10 -1 9", "10 -1 9"),
        ("  10,-1 , 9 ", "10 -1 9"),
        ("pass", "pass"),
        ("PASS", "pass"),
        ("none", "pass"),
        (" No  Submission ", "pass"),
        ("+5 007", "5 7"),
        (
            "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12",
            "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12",
        ),
    ] {
        let mv = g.parse_move(Seat::P1, text).unwrap();
        assert_eq!(g.format_move(&mv), canonical, "{text:?}");
        assert_eq!(g.parse_move(Seat::P1, canonical).unwrap(), mv);
    }
    // An empty text is not a pass (RULINGS.md: a pass is said on purpose).
    for empty in ["", "   ", " , "] {
        let e = g.parse_move(Seat::P1, empty).unwrap_err();
        assert!(
            e.to_string().contains("an empty submission is not a move")
                && e.to_string().contains("`pass`"),
            "{empty:?}: {e}"
        );
    }
    assert_eq!(
        g.parse_move(Seat::P1, "10 -1 9").unwrap(),
        Play::new(&[10, -1, 9]).unwrap()
    );
}

#[test]
fn text_that_is_not_a_move_says_why() {
    let g = new_game(Seat::P1);
    for (text, message) in [
        (
            "13",
            "`13` is not a move: there is no card 13: the cards run from -3 to 12",
        ),
        (
            "5 -4",
            "`5 -4` is not a move: there is no card -4: the cards run from -3 to 12",
        ),
        (
            "ten",
            "`ten` is not a move: `ten` is not a card; write the cards in order as numbers \
             from -3 to 12, e.g. `10 -1 9`, or `pass` for none",
        ),
        (
            "pass 5",
            "`pass 5` is not a move: a pass (`pass`, `none`, `no submission`) stands alone, \
             without cards",
        ),
        (
            "none 5",
            "`none 5` is not a move: a pass (`pass`, `none`, `no submission`) stands alone",
        ),
        (
            "99999999999999999999",
            "`99999999999999999999` is not a move: `99999999999999999999` is not a card",
        ),
    ] {
        let e = g.parse_move(Seat::P1, text).unwrap_err();
        assert!(e.to_string().starts_with(message), "{text}: {e}");
    }
    let seventeen = "1 ".repeat(17);
    let e = g.parse_move(Seat::P1, &seventeen).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("that is 17 cards, and a hand never holds more than 16"),
        "{e}"
    );
    assert!(g.parse_chance("1").is_err());
}

#[test]
fn illegal_moves_are_refused_with_the_reason_and_change_nothing() {
    let mut g = new_game(Seat::P1);
    step(&mut g, "10 9");
    step(&mut g, "3 1 2");
    // Round 2: p2 starts.
    let before = format!("{g:?}");
    let refuse = |g: &mut AllInGoofspiel, seat: Seat, text: &str| {
        let mv = g.parse_move(seat, text).unwrap();
        g.apply(Step::One { seat, mv }).unwrap_err().to_string()
    };
    assert_eq!(
        refuse(&mut g, Seat::P2, "12 3"),
        "p2: not legal here: you have no 3; your hand is -3 -2 -1 0 4 5 6 7 8 9 10 11 12"
    );
    assert_eq!(
        refuse(&mut g, Seat::P2, "5 4 5"),
        "p2: not legal here: you put down 5 twice"
    );
    // Out of turn: the typed step names the actors; check_move says whose turn it is.
    assert_eq!(
        refuse(&mut g, Seat::P1, "5"),
        "this step gives a move for p1 alone, but the game waits for p2 alone"
    );
    assert_eq!(
        g.check_move(Seat::P1, &Play::PASS).unwrap_err().reason,
        "it is not your turn: p2 puts down cards first in round 2"
    );
    assert!(g.apply(Step::Chance(())).is_err());
    assert_eq!(format!("{g:?}"), before, "a refused step changes nothing");
    step(&mut g, "12");
    assert_eq!(
        g.check_move(Seat::P2, &Play::PASS).unwrap_err().reason,
        "it is not your turn: p1 answers in round 2"
    );
    // The responder is checked against its own hand (p1 played 10 and 9 in round 1).
    assert_eq!(
        refuse(&mut g, Seat::P1, "9"),
        "p1: not legal here: you have no 9; your hand is -3 -2 -1 0 1 2 3 4 5 6 7 8 11 12"
    );
}

#[test]
fn out_of_turn_and_bad_text_through_the_dynamic_interface() {
    let mut g = Erased(new_game(Seat::P1));
    let e = g.check_move(Seat::P2, "5").unwrap_err();
    assert_eq!(
        e.to_string(),
        "this step gives a move for p2, but the game waits for p1 alone"
    );
    let e = g.apply(&TextStep::one(Seat::P2, "5")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "this step gives a move for p2 alone, but the game waits for p1 alone"
    );
    let e = g.check_move(Seat::P1, "13").unwrap_err();
    assert!(matches!(e, StepError::NotAMove { .. }), "{e}");
    let e = g.check_move(Seat::P1, "4 4").unwrap_err();
    assert!(matches!(e, StepError::Illegal { .. }), "{e}");
    assert_eq!(g.check_move(Seat::P1, "10,-1,9").unwrap(), "10 -1 9");
    g.apply(&TextStep::both("1", "2")).unwrap_err();
}

#[test]
fn rounds_alternate_and_points_split_exactly() {
    let mut g = new_game(Seat::P2);
    assert_eq!(g.pending(), Pending::One(Seat::P2));
    step(&mut g, "10 9"); // p2: 109
    assert_eq!(g.pending(), Pending::One(Seat::P1));
    step(&mut g, "3 1 2"); // p1: 312 takes round 1
    assert_eq!(g.points(), [Points::from_halves(2), Points::default()]);
    assert_eq!(g.pending(), Pending::One(Seat::P1), "p1 starts round 2");
    step(&mut g, "5 -3"); // p1: 2
    step(&mut g, "2"); // p2: 2, a tie: 1 each
    assert_eq!(g.points().map(Points::halves), [4, 2]);
    step(&mut g, "pass"); // round 3, p2 starts: 0
    step(&mut g, "none"); // p1: 0, a tie: 1.5 each
    assert_eq!(g.points().map(Points::halves), [7, 5]);
    let score = g.score();
    assert_eq!(score.p1.to_string(), "3.5");
    assert_eq!(score.p2.to_string(), "2.5");
    assert_eq!(g.round(), 4);
    let r = &g.rounds()[0];
    assert_eq!(
        (r.starter, r.numbers(), r.winner()),
        (Seat::P2, [312, 109], Some(Seat::P1))
    );
    assert_eq!(g.rounds()[1].winner(), None);
    assert_eq!(g.hand(Seat::P1).len(), 11);
    assert_eq!(
        g.hand(Seat::P2).to_vec(),
        [-3, -2, -1, 0, 1, 3, 4, 5, 6, 7, 8, 11, 12]
    );
}

#[test]
fn points_are_json_integers_when_whole_and_halves_otherwise() {
    assert_eq!(Points::from_halves(28).to_json().to_string(), "14");
    assert_eq!(Points::from_halves(29).to_json().to_string(), "14.5");
    assert_eq!(Points::from_halves(0).to_json().to_string(), "0");
    assert_eq!(Points::from_halves(1).to_string(), "0.5");
    assert_eq!(
        serde_json::to_string(&[Points::from_halves(29), Points::from_halves(56)]).unwrap(),
        "[14.5,28]"
    );
    assert!(Points::from_halves(56).at_least(28));
    assert!(!Points::from_halves(55).at_least(28));
}

/// Round 8 is worth 8 and p2 starts it (first = p1).
fn round_eight(halves: [u16; 2], hands: [&[i8]; 2], p2: &str, p1: &str) -> AllInGoofspiel {
    let mut g = position(7, halves, hands);
    assert_eq!((g.round(), g.starter()), (8, Seat::P2));
    step(&mut g, p2);
    step(&mut g, p1);
    g
}

fn result(g: &AllInGoofspiel) -> (Option<Seat>, String) {
    assert_eq!(g.pending(), Pending::Over);
    let o = g.outcome().unwrap();
    (o.winner, o.reason)
}

#[test]
fn reaching_28_with_an_empty_hand_wins() {
    let g = round_eight([40, 30], [&[5], &[-3, 0]], "pass", "5");
    assert_eq!(
        result(&g),
        (
            Some(Seat::P1),
            "p1 reached 28 points with an empty hand".to_string()
        )
    );
    // Also when the other hand is empty too: one player at 28 settles it.
    let g = round_eight([40, 30], [&[5], &[-3]], "-3", "5");
    assert_eq!(result(&g).0, Some(Seat::P1));
}

#[test]
fn reaching_28_with_cards_left_loses() {
    let g = round_eight([40, 30], [&[5, 6], &[-3, 0]], "pass", "5");
    assert_eq!(
        result(&g),
        (
            Some(Seat::P2),
            "p1 reached 28 points with 1 card left, so p2 wins".to_string()
        )
    );
    let g = round_eight([30, 47], [&[5, 6], &[-3, 0, 12]], "12", "5");
    assert_eq!(
        result(&g),
        (
            Some(Seat::P1),
            "p2 reached 31.5 points with 2 cards left, so p1 wins".to_string()
        )
    );
}

#[test]
fn both_reaching_28_on_a_split_each_combination() {
    // Both at 24; round 8 tied (p2 `2 -2` = 0, p1 `1 -1` = 0) gives 4 each: both at 28.
    type Case = ([&'static [i8]; 2], Option<Seat>, &'static str);
    let cases: [Case; 4] = [
        (
            [&[-1, 1], &[-2, 2]],
            None,
            "both reached 28 points or more with empty hands (p1 28, p2 28): a draw",
        ),
        (
            [&[-1, 1, 7], &[-2, 2, 7]],
            None,
            "both reached 28 points or more with cards left (p1 28, p2 28): a draw",
        ),
        (
            [&[-1, 1], &[-2, 2, 7]],
            Some(Seat::P1),
            "p1 reached 28 points with an empty hand; p2 reached 28 points with 1 card left",
        ),
        (
            [&[-1, 1, 6, 7], &[-2, 2]],
            Some(Seat::P2),
            "p2 reached 28 points with an empty hand; p1 reached 28 points with 2 cards left",
        ),
    ];
    for (hands, winner, reason) in cases {
        let g = round_eight([48, 48], hands, "2 -2", "1 -1");
        assert_eq!(g.rounds().last().unwrap().winner(), None, "a split");
        assert_eq!(result(&g), (winner, reason.to_string()), "{hands:?}");
    }
}

#[test]
fn both_hands_empty_before_anyone_reaches_28_is_a_draw() {
    let mut g = new_game(Seat::P1);
    step(&mut g, "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12");
    step(&mut g, "12 11 10 9 8 7 6 5 4 3 2 1 0 -1 -2 -3");
    assert_eq!(
        result(&g),
        (
            None,
            "both hands are empty and nobody reached 28 points (p1 0, p2 1): a draw".to_string()
        )
    );
    assert_eq!(g.score().details["cards_left"], json!({"p1": 0, "p2": 0}));
    assert!(g.view(Viewer::Spectator).current.is_none());
    assert!(g
        .render(Viewer::Spectator)
        .contains("Game over: both hands are empty"));
    // Later: one hand emptied first, the other passes its way down and empties later.
    let mut g = new_game(Seat::P1);
    step(&mut g, "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12");
    step(&mut g, "12");
    assert_eq!(g.pending(), Pending::One(Seat::P2));
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    assert!(moves.is_empty(), "p1 does not act now");
    step(&mut g, "pass");
    // p1 has no cards: its only move is a pass, and it is still asked.
    assert_eq!(g.pending(), Pending::One(Seat::P1));
    g.legal_moves(Seat::P1, &mut moves);
    assert_eq!(moves, [Play::PASS]);
    assert!(g
        .render(Viewer::Seat(Seat::P1))
        .contains("p1 has no cards left: its only move is `pass`."));
    assert_eq!(
        g.check_move(Seat::P1, &Play::new(&[5]).unwrap())
            .unwrap_err()
            .reason,
        "you have no 5; your hand is empty"
    );
    step(&mut g, "pass");
    assert_eq!(
        g.points().map(Points::halves),
        [2, 4],
        "round 1 to p2, round 2 split"
    );
    step(&mut g, "pass");
    step(&mut g, "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11");
    assert_eq!(result(&g).0, None);
    assert_eq!(g.rounds().len(), 3);
}

#[test]
fn the_rules_page_example_replays_to_its_stated_end() {
    let json = RULES
        .split("```json")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the rules page has a JSON record");
    let record = Record::from_json(json).unwrap();
    let replayed = crate::replay_record(&record).unwrap().unwrap();
    let game = replayed.game;
    assert_eq!(game.pending(), Pending::Over);
    assert_eq!(replayed.applied.len(), 20);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Seat::P2));
    assert_eq!(outcome.reason, "p2 reached 32.5 points with an empty hand");
    let score = serde_json::to_value(game.score()).unwrap();
    assert_eq!(
        score,
        json!({"p1": 22.5, "p2": 32.5, "cards_left": {"p1": 0, "p2": 0}, "rounds_played": 10})
    );
    let view = game.view_json(Viewer::Spectator);
    assert_eq!(view["rounds"][4]["numbers"], json!({"p1": 5, "p2": 5}));
    assert_eq!(view["rounds"][9]["numbers"], json!({"p1": 109, "p2": 4108}));
    assert_eq!(view["points"], json!({"p1": 22.5, "p2": 32.5}));
}

#[test]
fn the_face_down_cards_are_shown_to_the_starter_only() {
    let mut g = new_game(Seat::P1);
    step(&mut g, "10 9");
    let starter = g.view(Viewer::Seat(Seat::P1));
    let current = starter.current.unwrap();
    assert_eq!(current.face_down_count, Some(2));
    assert_eq!(current.face_down_cards, Some(vec![10, 9]));
    for viewer in [Viewer::Seat(Seat::P2), Viewer::Spectator] {
        let v = g.view(viewer);
        let current = v.current.clone().unwrap();
        assert_eq!(current.face_down_count, Some(2));
        assert_eq!(current.face_down_cards, None);
        assert_eq!(
            v.hands.p1.len(),
            16,
            "the hand shows no trace of the face-down cards"
        );
        let text = serde_json::to_string(&v).unwrap();
        assert!(!text.contains("109"), "{text}");
        let shown = g.render(viewer);
        assert!(shown.contains("p1: 0 points; hand -3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12 (16 cards); face down: 2 cards"), "{shown}");
        assert!(!shown.contains("109"), "{shown}");
    }
    let shown = g.render(Viewer::Seat(Seat::P1));
    assert!(shown.contains("p1 (you): 0 points; hand -3 -2 -1 0 1 2 3 4 5 6 7 8 11 12 (14 cards); face down: 10 9 = 109"), "{shown}");
    assert!(
        shown.contains("Now: p2 answers; p1 put down 2 cards face down."),
        "{shown}"
    );
    step(&mut g, "3 1 2");
    let shown = g.render(Viewer::Spectator);
    assert!(
        shown.contains(
            "round  1 (worth  1): p1 starts 10 9 = 109; p2 answers 3 1 2 = 312; p2 takes 1"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("p2: 1 point; hand -3 -2 -1 0 4 5 6 7 8 9 10 11 12 (13 cards)"),
        "{shown}"
    );
    assert!(
        shown.contains("All-In Goofspiel - round 2, worth 2 points"),
        "{shown}"
    );
}

/// Plays random rounds (any number of cards, uniformly) until the starter of a round is to
/// act, `rounds` times or until the game ends.
fn random_prefix(first: Seat, rounds: usize, seed: u64) -> AllInGoofspiel {
    let mut g = new_game(first);
    let mut rng = seeded_rng(seed);
    for _ in 0..2 * rounds {
        let Pending::One(seat) = g.pending() else {
            break;
        };
        let mv = g.random_move_any_count(seat, &mut rng).unwrap();
        g.apply(Step::One { seat, mv }).unwrap();
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn before_the_reveal_the_responder_and_spectators_see_only_the_count(
        seed in any::<u64>(),
        rounds in 0usize..8,
        first in prop_oneof![Just(Seat::P1), Just(Seat::P2)],
        count in 0usize..=16,
        choices in any::<(u64, u64)>(),
    ) {
        let g = random_prefix(first, rounds, seed);
        let Pending::One(starter) = g.pending() else { return Ok(()) };
        let hand = g.hand(starter);
        let count = count.min(hand.len());
        let plays = [choices.0, choices.1]
            .map(|s| random_ordered_list(hand, count, &mut seeded_rng(s)));
        let after = plays.map(|play| {
            let mut g = g.clone();
            g.apply(Step::One { seat: starter, mv: play }).unwrap();
            g
        });
        for viewer in [Viewer::Seat(starter.other()), Viewer::Spectator] {
            let views = after.each_ref().map(|g| serde_json::to_string(&g.view(viewer)).unwrap());
            prop_assert_eq!(&views[0], &views[1]);
            prop_assert_eq!(after[0].render(viewer), after[1].render(viewer));
            prop_assert_eq!(format!("{:?}", after[0].score()), format!("{:?}", after[1].score()));
        }
        for (g, play) in after.iter().zip(plays) {
            let own = g.view(Viewer::Seat(starter)).current.unwrap();
            prop_assert_eq!(own.face_down_cards, Some(play.cards().to_vec()));
        }
    }

    #[test]
    fn every_game_ends_by_round_11_with_the_rule_applied(
        seed in any::<u64>(),
        first in prop_oneof![Just(Seat::P1), Just(Seat::P2)],
        uniform in any::<bool>(),
    ) {
        let mut g = new_game(first);
        let mut rng = seeded_rng(seed);
        let mut decisions = 0;
        while let Pending::One(seat) = g.pending() {
            let mv = if uniform {
                g.random_move(seat, &mut rng).unwrap()
            } else {
                g.random_move_any_count(seat, &mut rng).unwrap()
            };
            g.apply(Step::One { seat, mv }).unwrap();
            decisions += 1;
            prop_assert!(decisions <= 2 * MAX_ROUNDS);
        }
        prop_assert_eq!(g.pending(), Pending::Over);
        prop_assert_eq!(decisions, 2 * g.rounds().len());
        // Points: every round's worth handed out in full.
        let worth: u16 = g.rounds().iter().map(|r| 2 * u16::from(r.worth())).sum();
        prop_assert_eq!(g.points()[0].halves() + g.points()[1].halves(), worth);
        // Hands: the full hand minus every card put down, each at most once.
        for seat in Seat::BOTH {
            let mut left = Hand::FULL.0;
            for r in g.rounds() {
                let mask = r.plays[seat.index()].mask();
                prop_assert_eq!(left & mask, mask);
                left &= !mask;
            }
            prop_assert_eq!(g.hand(seat), Hand(left));
        }
        // The outcome, recomputed from the rule as written.
        let reached = g.points().map(|p| p.at_least(28));
        let empty = [g.hand(Seat::P1).is_empty(), g.hand(Seat::P2).is_empty()];
        let expected = match reached {
            [false, false] => {
                prop_assert!(empty[0] && empty[1]);
                None
            }
            [true, false] => Some(if empty[0] { Seat::P1 } else { Seat::P2 }),
            [false, true] => Some(if empty[1] { Seat::P2 } else { Seat::P1 }),
            [true, true] => match empty {
                [true, false] => Some(Seat::P1),
                [false, true] => Some(Seat::P2),
                _ => None,
            },
        };
        prop_assert_eq!(g.outcome().unwrap().winner, expected);
        // Nobody had 28 before the last round (else the game would have ended then).
        prop_assert!(g.rounds().len() <= MAX_ROUNDS);
    }
}

#[test]
fn random_moves_are_uniform_over_all_ordered_lists() {
    // A hand of three cards has 1 + 3 + 6 + 6 = 16 moves.
    let g = position(2, [0, 0], [&[0, 5, 12], &[1]]);
    assert_eq!(ALL_ORDERED_LISTS[3], 16);
    let mut rng = seeded_rng(11);
    let mut counts = std::collections::HashMap::new();
    let draws = 64_000;
    for _ in 0..draws {
        let mv = g.random_move(Seat::P1, &mut rng).unwrap();
        g.check_move(Seat::P1, &mv).unwrap();
        *counts.entry(mv).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 16);
    for (mv, n) in counts {
        // Expected 4000, standard deviation about 61.
        assert!((3600..=4400).contains(&n), "{mv}: {n}");
    }
    // A full hand: lists of 15 or 16 cards are 2 * 16! of the 56,874,039,553,217 moves.
    assert_eq!(ALL_ORDERED_LISTS[HAND_SIZE], 56_874_039_553_217);
    let g = new_game(Seat::P1);
    let long = (0..20_000)
        .filter(|_| g.random_move(Seat::P1, &mut rng).unwrap().len() >= 15)
        .count();
    let expected = 2.0 * 20_922_789_888_000.0 / 56_874_039_553_217.0 * 20_000.0;
    assert!(
        (f64::from(long as u32) - expected).abs() < 400.0,
        "{long} vs {expected}"
    );
    assert_eq!(
        g.random_move(Seat::P2, &mut rng),
        None,
        "p2 does not act now"
    );
}

#[test]
fn legal_moves_are_a_representative_accepted_subset() {
    let g = position(2, [0, 0], [&[-2, 0, 1, 10, 12], &[1]]);
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    let texts: Vec<String> = moves.iter().map(|m| g.format_move(m)).collect();
    assert_eq!(
        texts,
        [
            "pass",
            "12",
            "10",
            "1",
            "0",
            "-2",
            "12 1 10 0",
            "12 1 10 0 -2"
        ]
    );
    for mv in &moves {
        g.check_move(Seat::P1, mv).unwrap();
    }
    assert_eq!(
        g.default_move(Seat::P1, &mut seeded_rng(0)),
        Some(Play::PASS)
    );
    assert_eq!(g.default_move(Seat::P2, &mut seeded_rng(0)), None);
    // One card: no duplicates in the list.
    let g = position(2, [0, 0], [&[7], &[1]]);
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    assert_eq!(moves, [Play::PASS, Play::new(&[7]).unwrap()]);
}

#[test]
fn cards_ordered_for_the_largest_number() {
    let mut cards = [-2, 10, 1, 9, -3, 12, 11, 0];
    order_for_largest(&mut cards);
    // 1 and 11 read "111" either way: they keep the order given.
    assert_eq!(cards, [9, 12, 1, 11, 10, 0, -2, -3]);
    assert_eq!(number(&cards), 912_111_100 - 2 - 3);
}

#[test]
fn another_face_down_play_must_look_the_same_to_the_responder() {
    let mut game = new_game(Seat::P1);
    // Nothing face down yet: nothing to replace.
    assert!(game.with_face_down(Play::new(&[12]).unwrap()).is_none());
    step(&mut game, "12 11");
    let responder_view =
        |g: &AllInGoofspiel| serde_json::to_value(g.view(Viewer::Seat(Seat::P2))).unwrap();
    // The same count from the starter's hand: the responder sees no difference.
    let other = game.with_face_down(Play::new(&[-3, 5]).unwrap()).unwrap();
    assert_eq!(other.face_down, Play::new(&[-3, 5]));
    assert_eq!(responder_view(&other), responder_view(&game));
    // Another count, or a card the starter does not hold, is refused.
    assert!(game.with_face_down(Play::new(&[5]).unwrap()).is_none());
    let mut short = game.clone();
    short.hands[0] = hand_of(&[1, 2, 3]);
    short.face_down = Play::new(&[1, 2]);
    assert!(short.with_face_down(Play::new(&[1, 7]).unwrap()).is_none());
    // Taking the cards back gives the starter its decision again, hand unchanged.
    let before = game.before_face_down();
    assert_eq!(before.pending(), Pending::One(Seat::P1));
    assert_eq!(before.hand(Seat::P1), game.hand(Seat::P1));
    let fresh = new_game(Seat::P1);
    for seat in Seat::BOTH {
        assert_eq!(
            serde_json::to_value(before.view(Viewer::Seat(seat))).unwrap(),
            serde_json::to_value(fresh.view(Viewer::Seat(seat))).unwrap()
        );
    }
}

#[test]
fn determinize_redraws_only_what_the_seat_cannot_see() {
    let mut a = new_game(Seat::P1);
    let mut b = new_game(Seat::P1);
    step(&mut a, "12 11 10");
    step(&mut b, "-3 5 7");
    let mut seen = std::collections::HashSet::new();
    for seed in 0..50 {
        let da = a.determinize(Seat::P2, &mut colosseum_engine::seeded_rng(seed));
        let db = b.determinize(Seat::P2, &mut colosseum_engine::seeded_rng(seed));
        // Same view for p2, same rng: the same state.
        assert_eq!(da.face_down, db.face_down);
        let p2_view =
            |g: &AllInGoofspiel| serde_json::to_value(g.view(Viewer::Seat(Seat::P2))).unwrap();
        assert_eq!(p2_view(&da), p2_view(&a));
        let play = da.face_down.unwrap();
        assert_eq!(play.len(), 3);
        assert!(play.cards().iter().all(|&c| a.hand(Seat::P1).contains(c)));
        seen.insert(play.cards().to_vec());
    }
    assert!(
        seen.len() > 40,
        "the face-down cards are redrawn: {}",
        seen.len()
    );
    // The starter sees its own cards: nothing changes.
    let own = a.determinize(Seat::P1, &mut colosseum_engine::seeded_rng(0));
    assert_eq!(own.face_down, a.face_down);
}

#[test]
fn options_are_checked() {
    let raw = colosseum_engine::parse_pairs(["first=p2"]).unwrap();
    let g = AllInGoofspiel::from_raw(&raw).unwrap();
    assert_eq!(g.pending(), Pending::One(Seat::P2));
    let raw = colosseum_engine::parse_pairs(["first=p3"]).unwrap();
    assert_eq!(
        AllInGoofspiel::from_raw(&raw).unwrap_err().to_string(),
        "option `first` = \"p3\" is not allowed: p1 or p2"
    );
    let raw = colosseum_engine::parse_pairs(["cards=8"]).unwrap();
    assert_eq!(
        AllInGoofspiel::from_raw(&raw).unwrap_err().to_string(),
        "unknown option `cards`; this game's options are: first, lowest, highest, target"
    );
}

#[test]
fn a_replay_lets_the_other_seat_start() {
    let flip = |first: Option<&str>| {
        let mut raw = RawOptions::new();
        if let Some(f) = first {
            raw.insert("first".into(), json!(f));
        }
        AllInGoofspielOptions::from_raw(&replay_options(&raw))
            .unwrap()
            .first
    };
    assert_eq!(flip(None), Seat::P2);
    assert_eq!(flip(Some("p1")), Seat::P2);
    assert_eq!(flip(Some("p2")), Seat::P1);
    let entry = crate::find("all-in-goofspiel").unwrap();
    assert!(entry.replay_draws);
    let replay = entry.replay.expect("All-In Goofspiel replays a draw");
    assert_eq!(replay(&RawOptions::new())["first"], json!("p2"));
}

fn variant(pairs: &[&str]) -> Result<AllInGoofspiel, OptionsError> {
    AllInGoofspiel::from_raw(&colosseum_engine::parse_pairs(pairs.iter().copied()).unwrap())
}

#[test]
fn the_small_variant_is_checked_and_the_defaults_are_the_seed() {
    let seed = variant(&[]).unwrap();
    assert_eq!(seed.hand(Seat::P1), Hand::FULL);
    assert_eq!(seed.options(), AllInGoofspielOptions::default());
    // The seed game's view reads as before: the variant's options are left out at their defaults.
    let view = serde_json::to_value(seed.view(Viewer::Spectator)).unwrap();
    assert_eq!(view["options"], json!({"first": "p1"}));
    for (pair, allowed) in [
        (
            "lowest=1",
            "`lowest` = 1 is not allowed: an integer from -3 to 0",
        ),
        (
            "lowest=-4",
            "`lowest` = -4 is not allowed: an integer from -3 to 0",
        ),
        (
            "highest=13",
            "`highest` = 13 is not allowed: an integer from 0 to 12",
        ),
        (
            "highest=-1",
            "`highest` = -1 is not allowed: an integer from 0 to 12",
        ),
        (
            "target=0",
            "`target` = 0 is not allowed: an integer from 1 to 28",
        ),
        (
            "target=29",
            "`target` = 29 is not allowed: an integer from 1 to 28",
        ),
    ] {
        let e = variant(&[pair]).unwrap_err().to_string();
        assert!(e.contains(allowed), "{pair}: {e}");
    }
    let small = variant(&["lowest=0", "highest=2", "target=3"]).unwrap();
    assert_eq!(small.hand(Seat::P2).to_vec(), vec![0, 1, 2]);
    let view = serde_json::to_value(small.view(Viewer::Spectator)).unwrap();
    assert_eq!(
        view["options"],
        json!({"first": "p1", "lowest": 0, "highest": 2, "target": 3})
    );
}

#[test]
fn the_small_variant_ends_at_its_target() {
    // Hands 0..2, target 3. Round 1: p1 puts down 2, p2 answers 1: p1 takes 1 point.
    let mut g = variant(&["lowest=0", "highest=2", "target=3"]).unwrap();
    let play = |g: &mut AllInGoofspiel, seat: Seat, text: &str| {
        let mv = g.parse_move(seat, text).unwrap();
        g.apply(Step::One { seat, mv }).unwrap();
    };
    // A card outside the variant's hands is refused as not held.
    let err = g
        .check_move(Seat::P1, &Play::new(&[5]).unwrap())
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("you have no 5; your hand is 0 1 2"),
        "{err}"
    );
    play(&mut g, Seat::P1, "2");
    play(&mut g, Seat::P2, "1");
    assert_eq!(g.points()[0].halves(), 2);
    // Round 2 (p2 starts): p2 puts down 2, p1 passes: p2 takes 2 points (2 < 3: not over).
    play(&mut g, Seat::P2, "2");
    play(&mut g, Seat::P1, "pass");
    assert!(g.outcome().is_none());
    // Round 3 (p1 starts, worth 3): p1 puts down its whole hand 1 0 = 10, p2 passes: p1 reaches
    // 4 >= 3 with an empty hand and wins (the seed's 28-point rule with 3 for 28).
    play(&mut g, Seat::P1, "1 0");
    play(&mut g, Seat::P2, "pass");
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P1), "{}", o.reason);
    assert!(
        o.reason.contains("reached 4 points with an empty hand"),
        "{}",
        o.reason
    );
    // The legal moves list the variant's cards only.
    let g = variant(&["lowest=-1", "highest=1"]).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(texts, ["pass", "1", "0", "-1", "1 0", "1 0 -1"]);
}

#[test]
fn random_small_variant_games_end_within_the_round_bound() {
    for seed in 0..200u64 {
        let mut g = variant(&["lowest=0", "highest=3", "target=5"]).unwrap();
        let mut rng = colosseum_engine::seeded_rng(seed);
        let mut steps = 0;
        while let Pending::One(seat) = g.pending() {
            let mut moves = Vec::new();
            g.legal_moves(seat, &mut moves);
            let mv = moves[rand::Rng::random_range(&mut rng, 0..moves.len())];
            g.apply(Step::One { seat, mv }).unwrap();
            steps += 1;
        }
        assert!(steps <= 2 * MAX_ROUNDS);
        let o = g.outcome().unwrap();
        let reached = g.points().iter().any(|p| p.at_least(5));
        let empty = Seat::BOTH.iter().all(|&s| g.hand(s).is_empty());
        assert!(reached || empty, "{}", o.reason);
    }
}

use super::*;
use colosseum_engine::seeded_rng;

fn grid(rows: [&str; 6]) -> Grid {
    Grid::from_picture(&rows).unwrap()
}

fn cond(name: &str) -> Condition {
    Condition::parse(name).unwrap()
}

fn meets(rows: [&str; 6], seat: Seat, name: &str) -> bool {
    grid(rows).meets(seat, cond(name))
}

const EMPTY: [&str; 6] = [
    ".......", ".......", ".......", ".......", ".......", ".......",
];

/// A game at Placement round `round` with the given hands (no conditions).
fn placement(p1: &[u8], p2: &[u8], rows: [&str; 6], round: u8) -> WitchsBrew {
    WitchsBrew::at_placement(
        WitchsBrewOptions::default(),
        [Hand::of(p1), Hand::of(p2)],
        [Assignment::default(); 2],
        grid(rows),
        round,
    )
}

fn parse(g: &WitchsBrew, seat: Seat, text: &str) -> Move {
    g.parse_move(seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn both(g: &mut WitchsBrew, p1: &str, p2: &str) {
    let step = Step::Both {
        p1: parse(g, Seat::P1, p1),
        p2: parse(g, Seat::P2, p2),
    };
    g.apply(step).unwrap_or_else(|e| panic!("{p1} / {p2}: {e}"));
}

fn one(g: &mut WitchsBrew, seat: Seat, text: &str) {
    let mv = parse(g, seat, text);
    g.apply(Step::One { seat, mv })
        .unwrap_or_else(|e| panic!("{seat} {text}: {e}"));
}

fn refused(g: &WitchsBrew, seat: Seat, text: &str) -> String {
    let mv = parse(g, seat, text);
    g.check_move(seat, &mv).unwrap_err().reason
}

fn chance(g: &mut WitchsBrew, text: &str) {
    let c = g.parse_chance(text).unwrap();
    g.apply(Step::Chance(c)).unwrap();
}

fn last(g: &WitchsBrew) -> PlacementRound {
    g.last_round().unwrap()
}

// --- victory conditions -------------------------------------------------------------------

#[test]
fn condition_1a_five_in_a_row_of_own_or_neutral() {
    let p1 = Seat::P1;
    assert!(meets(
        ["XX+XX..", ".......", ".......", ".......", ".......", "......."],
        p1,
        "1A"
    ));
    assert!(meets(
        ["X......", ".+.....", "..X....", "...X...", "....X..", "......."],
        p1,
        "1A"
    ));
    // An empty cell in the line.
    assert!(!meets(
        ["XX.XX+.", ".......", ".......", ".......", ".......", "......."],
        p1,
        "1A"
    ));
    // An opponent's stone in the line.
    assert!(!meets(
        ["XXOXX+.", ".......", ".......", ".......", ".......", "......."],
        p1,
        "1A"
    ));
    // Only four, at the edge.
    assert!(!meets(
        ["...XX++", ".......", ".......", ".......", ".......", "......."],
        p1,
        "1A"
    ));
}

#[test]
fn condition_1b_five_of_yours_in_a_3x3() {
    assert!(meets(
        ["XXX....", "X......", "X......", ".......", ".......", "......."],
        Seat::P1,
        "1B"
    ));
    assert!(meets(
        [".......", ".......", ".......", "....OOO", "....O.O", "......."],
        Seat::P2,
        "1B"
    ));
    // Four in the square, the fifth outside it.
    assert!(!meets(
        ["XXX....", "X......", ".......", "X......", ".......", "......."],
        Seat::P1,
        "1B"
    ));
    // Neutral stones do not count.
    assert!(!meets(
        ["XXX....", "X+.....", "+......", ".......", ".......", "......."],
        Seat::P1,
        "1B"
    ));
}

#[test]
fn condition_1c_six_on_row_3_or_4() {
    assert!(meets(
        [".......", ".......", "XXXXXX.", ".......", ".......", "......."],
        Seat::P1,
        "1C"
    ));
    assert!(meets(
        [".......", ".......", ".......", ".XXXXXX", ".......", "......."],
        Seat::P1,
        "1C"
    ));
    // Five on row 3 and one on row 4.
    assert!(!meets(
        [".......", ".......", "XXXXX.O", "X......", ".......", "......."],
        Seat::P1,
        "1C"
    ));
    // Six on row 2.
    assert!(!meets(
        [".......", "XXXXXX.", ".......", ".......", ".......", "......."],
        Seat::P1,
        "1C"
    ));
}

#[test]
fn condition_1d_opponent_diagonally_surrounded() {
    assert!(meets(
        [".......", ".X.+...", "..O....", ".X.X...", ".......", "......."],
        Seat::P1,
        "1D"
    ));
    // One diagonal empty.
    assert!(!meets(
        [".......", ".X.+...", "..O....", ".X.....", ".......", "......."],
        Seat::P1,
        "1D"
    ));
    // The opponent's stone borders an edge.
    assert!(!meets(
        ["O......", ".X.....", ".......", ".......", ".......", "......."],
        Seat::P1,
        "1D"
    ));
    // A diagonal holds the opponent's own stone.
    assert!(!meets(
        [".......", ".X.+...", "..O....", ".X.O...", ".......", "......."],
        Seat::P1,
        "1D"
    ));
}

#[test]
fn condition_1e_four_frozen_in_a_row() {
    assert!(meets(
        ["xo*x...", ".......", ".......", ".......", ".......", "......."],
        Seat::P2,
        "1E"
    ));
    assert!(meets(
        ["x......", "o......", "*......", "x......", ".......", "......."],
        Seat::P1,
        "1E"
    ));
    // The fourth stone is not frozen.
    assert!(!meets(
        ["xo*X...", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "1E"
    ));
}

#[test]
fn condition_1f_four_frozen_neutrals() {
    assert!(meets(
        ["**.....", ".......", ".......", ".......", "......*", "......*"],
        Seat::P1,
        "1F"
    ));
    // Three frozen neutrals and a plain one.
    assert!(!meets(
        ["***+...", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "1F"
    ));
    // Frozen stones of the wrong colour.
    assert!(!meets(
        ["***x...", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "1F"
    ));
}

#[test]
fn condition_2a_four_of_yours_in_a_row() {
    assert!(meets(
        ["...XXXX", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2A"
    ));
    assert!(meets(
        ["......O", ".....O.", "....O..", "...O...", ".......", "......."],
        Seat::P2,
        "2A"
    ));
    // A neutral stone in the line.
    assert!(!meets(
        ["XX+X...", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2A"
    ));
    // A line that would wrap around the edge is not a line.
    assert!(!meets(
        [".....XX", "XX.....", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2A"
    ));
}

#[test]
fn condition_2b_square_of_yours() {
    assert!(meets(
        [".......", ".......", ".......", ".......", ".....XX", ".....XX"],
        Seat::P1,
        "2B"
    ));
    assert!(!meets(
        ["XX.....", "X+.....", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2B"
    ));
    // Split across the grid's edge.
    assert!(!meets(
        ["......X", "X.....X", "X......", ".......", ".......", "......."],
        Seat::P1,
        "2B"
    ));
}

#[test]
fn condition_2c_opponent_orthogonally_surrounded() {
    assert!(meets(
        [".......", "..X....", ".+OX...", "..X....", ".......", "......."],
        Seat::P1,
        "2C"
    ));
    // One side empty.
    assert!(!meets(
        [".......", "..X....", ".+O....", "..X....", ".......", "......."],
        Seat::P1,
        "2C"
    ));
    // The opponent's stone is on an edge.
    assert!(!meets(
        ["X......", "OX.....", "X......", ".......", ".......", "......."],
        Seat::P1,
        "2C"
    ));
}

#[test]
fn condition_2d_more_corners() {
    assert!(meets(
        ["X.....O", ".......", ".......", ".......", ".......", "......X"],
        Seat::P1,
        "2D"
    ));
    assert!(!meets(
        ["X.....O", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2D"
    ));
    // Next to a corner is not a corner.
    assert!(!meets(
        [".X.....", "X......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2D"
    ));
}

#[test]
fn condition_2e_three_on_column_4() {
    assert!(meets(
        ["...X...", ".......", "...X...", ".......", ".......", "...X..."],
        Seat::P1,
        "2E"
    ));
    assert!(!meets(
        ["...X...", "...X...", "....X..", ".......", ".......", "......."],
        Seat::P1,
        "2E"
    ));
}

#[test]
fn condition_2f_more_opponent_frozen() {
    assert!(meets(
        ["oo.x...", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2F"
    ));
    assert!(!meets(
        ["o..x...", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2F"
    ));
    // Frozen neutrals do not count.
    assert!(!meets(
        ["**.....", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2F"
    ));
    // Unfrozen opponent stones do not count.
    assert!(!meets(
        ["OOo..x.", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "2F"
    ));
}

#[test]
fn condition_3a_own_stone_orthogonally_enclosed() {
    // b1 is on the edge (not a corner) with a1, c1 and b2 yours.
    assert!(meets(
        ["XXX....", ".X.....", ".......", ".......", ".......", "......."],
        Seat::P1,
        "3A"
    ));
    assert!(meets(
        [".......", "..X....", ".XXX...", "..X....", ".......", "......."],
        Seat::P1,
        "3A"
    ));
    // A corner stone does not count; b1 lacks c1 and a2 lacks a3.
    assert!(!meets(
        ["XX.....", "X......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "3A"
    ));
    // A neutral neighbour is not yours.
    assert!(!meets(
        [".......", "..X....", ".XX+...", "..X....", ".......", "......."],
        Seat::P1,
        "3A"
    ));
}

#[test]
fn condition_3b_own_stone_diagonally_enclosed() {
    assert!(meets(
        [".......", ".X.X...", "..X....", ".X.X...", ".......", "......."],
        Seat::P1,
        "3B"
    ));
    assert!(!meets(
        [".......", ".X.X...", "..X....", ".X.O...", ".......", "......."],
        Seat::P1,
        "3B"
    ));
    // On the edge.
    assert!(!meets(
        ["X......", ".X.....", "X......", ".......", ".......", "......."],
        Seat::P1,
        "3B"
    ));
}

#[test]
fn condition_3c_square_of_neutrals() {
    assert!(meets(
        [".......", ".......", ".......", ".......", "++.....", "+*....."],
        Seat::P2,
        "3C"
    ));
    assert!(!meets(
        [".......", ".......", ".......", ".......", "++.....", "+X....."],
        Seat::P2,
        "3C"
    ));
}

#[test]
fn condition_3d_column_of_own_or_neutral() {
    assert!(meets(
        ["X......", "+......", "X......", "x......", "*......", "X......"],
        Seat::P1,
        "3D"
    ));
    // An empty cell.
    assert!(!meets(
        ["X......", "+......", "X......", ".......", "+......", "X......"],
        Seat::P1,
        "3D"
    ));
    // An opponent's stone.
    assert!(!meets(
        ["X......", "+......", "X......", "O......", "+......", "X......"],
        Seat::P1,
        "3D"
    ));
}

#[test]
fn condition_3e_row_of_own_or_neutral() {
    assert!(meets(
        [".......", ".......", ".......", ".......", ".......", "O+OOoO*"],
        Seat::P2,
        "3E"
    ));
    assert!(!meets(
        [".......", ".......", ".......", ".......", ".......", "O+OO.O*"],
        Seat::P2,
        "3E"
    ));
}

#[test]
fn condition_3f_four_neutrals_in_a_row() {
    assert!(meets(
        ["++++...", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "3F"
    ));
    assert!(meets(
        [".......", ".......", "...+...", "..+....", ".*.....", "+......"],
        Seat::P1,
        "3F"
    ));
    assert!(!meets(
        ["+++X...", ".......", ".......", ".......", ".......", "......."],
        Seat::P1,
        "3F"
    ));
}

#[test]
fn conditions_parse_print_and_are_worth_their_digit() {
    for i in 0..CONDITION_COUNT {
        let c = Condition::from_index(i).unwrap();
        assert_eq!(Condition::parse(&c.to_string().to_lowercase()), Some(c));
        assert_eq!(c.points(), u32::from(c.to_string().as_bytes()[0] - b'0'));
    }
    assert_eq!(Condition::parse("4A"), None);
    assert_eq!(Condition::parse("1G"), None);
    // A first byte far above `3` once overflowed `tier * 6` (found by tests/no_panic.rs).
    assert_eq!(Condition::parse("~A"), None);
    assert_eq!(Condition::parse("\u{ff}A"), None);
    assert!(!Grid::default().meets(Seat::P1, cond("2D")));
}

// --- card effects --------------------------------------------------------------------------

const SOME: [&str; 6] = [
    ".......", ".......", "..XO...", "..+O...", ".......", ".......",
];

#[test]
fn snipe_beats_freeze_shift_and_diminish_but_not_others() {
    // (p2's card, the round's winner and why): Snipe (value 1) against each card.
    for (other, winner, reason) in [
        ("6 c3", Seat::P1, WinReason::Snipe),
        ("7", Seat::P1, WinReason::Snipe),
        ("8", Seat::P1, WinReason::Snipe),
        ("5", Seat::P2, WinReason::HigherValue),
        ("2 a", Seat::P2, WinReason::HigherValue),
        ("4", Seat::P2, WinReason::HigherValue),
    ] {
        let mut g = placement(&[1, 1], &[6, 7, 8, 5, 2, 4], SOME, 1);
        both(&mut g, "1", other);
        assert_eq!(
            (last(&g).winner, last(&g).reason),
            (winner, reason),
            "Snipe against {other}"
        );
    }
    // The Sniped Freeze still freezes.
    let mut g = placement(&[1], &[6], SOME, 1);
    both(&mut g, "1", "6 c3 d4");
    assert!(g.grid().is_frozen(Cell::parse("c3").unwrap()));
    assert!(g.grid().is_frozen(Cell::parse("d4").unwrap()));
    assert_eq!(last(&g).winner, Seat::P1);
}

#[test]
fn guess_right_wins_and_guess_wrong_does_not() {
    let mut g = placement(&[3], &[7], SOME, 1);
    both(&mut g, "3 7", "7");
    assert_eq!(
        (last(&g).winner, last(&g).reason),
        (Seat::P1, WinReason::Guess)
    );
    let mut g = placement(&[3], &[7], SOME, 1);
    both(&mut g, "3 6", "7");
    assert_eq!(
        (last(&g).winner, last(&g).reason),
        (Seat::P2, WinReason::HigherValue)
    );
}

#[test]
fn both_win_effects_cancel_and_the_tie_rule_decides() {
    let mut g = placement(&[3, 3], &[3, 3], SOME, 1);
    both(&mut g, "3 3", "3 3");
    let r = last(&g);
    assert_eq!(r.win_effects, [true, true]);
    // Equal values in round 1: the advantage holder, p1.
    assert_eq!((r.winner, r.reason), (Seat::P1, WinReason::TieAdvantage));
    // Snipe against a Guess naming the Snipe: only the Guess fires.
    let mut g = placement(&[1], &[3], SOME, 1);
    both(&mut g, "1", "3 1");
    assert_eq!(
        (last(&g).winner, last(&g).win_effects),
        (Seat::P2, [false, true])
    );
}

#[test]
fn ties_go_to_the_advantage_in_round_1_and_to_the_previous_loser_later() {
    let options = WitchsBrewOptions {
        advantage: Seat::P2,
        ..WitchsBrewOptions::default()
    };
    let mut g = WitchsBrew::at_placement(
        options,
        [Hand::of(&[5, 4]), Hand::of(&[5, 4])],
        [Assignment::default(); 2],
        Grid::default(),
        1,
    );
    both(&mut g, "5", "5");
    assert_eq!(
        (last(&g).winner, last(&g).reason),
        (Seat::P2, WinReason::TieAdvantage)
    );
    for (seat, text) in [
        (Seat::P2, "a1"),
        (Seat::P2, "pass"),
        (Seat::P1, "b1"),
        (Seat::P1, "pass"),
        (Seat::P2, "c1"),
    ] {
        one(&mut g, seat, text);
    }
    // Round 2: p1 lost round 1, so p1 wins the tie.
    both(&mut g, "4", "4");
    assert_eq!(
        (last(&g).winner, last(&g).reason),
        (Seat::P1, WinReason::TieLostPrevious)
    );
}

#[test]
fn copy_gains_the_card_and_copy_against_copy_gains_nothing() {
    let mut g = placement(&[4, 1], &[7, 1], SOME, 1);
    both(&mut g, "4", "7");
    assert_eq!(g.hand(Seat::P1), Hand::of(&[1, 7]));
    assert_eq!(last(&g).copied, [Some(7), None]);
    let mut g = placement(&[4, 1], &[4, 1], SOME, 1);
    both(&mut g, "4", "4");
    assert_eq!(g.hand(Seat::P1), Hand::of(&[1]));
    assert_eq!(g.hand(Seat::P2), Hand::of(&[1]));
    assert_eq!(last(&g).copied, [None, None]);
}

#[test]
fn lock_binds_the_opponents_stone_unless_the_column_is_full() {
    let mut g = placement(&[2], &[5], SOME, 1);
    both(&mut g, "2 d", "5");
    // p2 won (5 > 2) and must place in column d.
    assert_eq!(g.pending(), Pending::One(Seat::P2));
    assert!(refused(&g, Seat::P2, "a1").contains("Lock names column d"));
    assert!(refused(&g, Seat::P2, "d3").contains("d3 is taken"));
    one(&mut g, Seat::P2, "d1");
    // The Lock does not bind p1 itself, nor the gray stone.
    one(&mut g, Seat::P2, "pass");
    one(&mut g, Seat::P1, "a6");
    one(&mut g, Seat::P2, "g6");
    // A full column binds nothing.
    let full = [
        "...O...", "...X...", "...+...", "...O...", "...X...", "...+...",
    ];
    let mut g = placement(&[2], &[5], full, 1);
    both(&mut g, "2 d", "5");
    one(&mut g, Seat::P2, "a1");
    assert_eq!(g.grid().stone(Cell::parse("a1").unwrap()), Some(Stone::P2));
}

#[test]
fn leap_passes_over_stones_and_into_nothing_does_nothing() {
    let rows = [
        "...X...", ".......", "...X...", "...O...", "...X...", ".......",
    ];
    let mut g = placement(&[5], &[1], rows, 1);
    both(&mut g, "5", "1");
    one(&mut g, Seat::P1, "a6");
    // d5 up: over d4 (O) and d3 (X) to d2.
    one(&mut g, Seat::P1, "d5 up");
    let at = |g: &WitchsBrew, c: &str| g.grid().stone(Cell::parse(c).unwrap());
    assert_eq!(at(&g, "d2"), Some(Stone::P1));
    assert_eq!(at(&g, "d5"), None);
    // Into nothing: d1 up has no cell above.
    let mut g = placement(&[5], &[1], rows, 1);
    both(&mut g, "5", "1");
    one(&mut g, Seat::P1, "g6");
    let before = *g.grid();
    one(&mut g, Seat::P1, "d1 up");
    assert_eq!(*g.grid(), before);
    // A Leap of someone else's stone is refused.
    let mut g = placement(&[5], &[1], rows, 1);
    both(&mut g, "5", "1");
    one(&mut g, Seat::P1, "g6");
    assert!(refused(&g, Seat::P1, "d4 up").contains("not yours"));
    assert!(refused(&g, Seat::P1, "a1 up").contains("a1 is empty"));
}

#[test]
fn shift_moves_own_or_gray_stones_to_an_empty_neighbour() {
    let mut g = placement(&[7], &[1, 1], SOME, 1);
    // Shift against a Snipe loses: p2 wins and places first.
    both(&mut g, "7", "1");
    assert_eq!(last(&g).winner, Seat::P2);
    one(&mut g, Seat::P2, "g1");
    one(&mut g, Seat::P1, "a1");
    assert_eq!(g.pending(), Pending::One(Seat::P1));
    assert!(refused(&g, Seat::P1, "c4 c6").contains("not next to"));
    assert!(refused(&g, Seat::P1, "c4 c3").contains("c3 is taken"));
    assert!(refused(&g, Seat::P1, "d3 e3").contains("Shift moves one of your stones"));
    one(&mut g, Seat::P1, "c4 c5");
    assert_eq!(
        g.grid().stone(Cell::parse("c5").unwrap()),
        Some(Stone::Gray)
    );
    assert_eq!(g.pending(), Pending::One(Seat::P2));
}

#[test]
fn frozen_stones_refuse_to_move() {
    let rows = [
        ".......", ".......", "..xO...", "..*O...", ".......", ".......",
    ];
    let mut g = placement(&[5, 7], &[1, 1], rows, 1);
    both(&mut g, "5", "1");
    assert_eq!(last(&g).winner, Seat::P1);
    one(&mut g, Seat::P1, "a1");
    assert!(refused(&g, Seat::P1, "c3 up").contains("frozen"));
    one(&mut g, Seat::P1, "a1 right");
    assert_eq!(g.grid().stone(Cell::parse("b1").unwrap()), Some(Stone::P1));
    one(&mut g, Seat::P2, "g6");
    one(&mut g, Seat::P1, "g5");
    both(&mut g, "7", "1");
    one(&mut g, Seat::P2, "f6");
    one(&mut g, Seat::P1, "a6");
    assert!(refused(&g, Seat::P1, "c4 c5").contains("frozen"));
    assert!(refused(&g, Seat::P1, "c3 b3").contains("frozen"));
}

#[test]
fn diminish_lowers_the_next_card_and_chains() {
    let mut g = placement(&[8, 8, 8, 1], &[1, 1, 1, 1], EMPTY, 1);
    let play_round = |g: &mut WitchsBrew, p1: &str| {
        both(g, p1, "1");
        let winner = last(g).winner;
        for seat in [winner, winner.other()] {
            let t = g.random_move(seat, &mut seeded_rng(1)).unwrap();
            g.apply(Step::One { seat, mv: t }).unwrap();
        }
        let t = g.random_move(winner, &mut seeded_rng(2)).unwrap();
        g.apply(Step::One {
            seat: winner,
            mv: t,
        })
        .unwrap();
    };
    play_round(&mut g, "8");
    assert_eq!(last(&g).values, [8, 1]);
    assert_eq!(g.penalty(Seat::P1), 1);
    play_round(&mut g, "8");
    assert_eq!(last(&g).values, [7, 1]);
    play_round(&mut g, "8");
    assert_eq!(last(&g).values, [7, 1]);
    // All three were Sniped: the Snipe fires against Diminish.
    assert_eq!(last(&g).winner, Seat::P2);
    play_round(&mut g, "1");
    assert_eq!(last(&g).values, [0, 1]);
    assert_eq!(g.penalty(Seat::P1), 0);
}

#[test]
fn duplicard_acts_as_each_card_and_keeps_it_in_hand() {
    for card in 1..=8u8 {
        let text = match card {
            2 => "dup 2 a".to_string(),
            3 => "dup 3 6".to_string(),
            6 => "dup 6 c3".to_string(),
            c => format!("dup {c}"),
        };
        let mut g = placement(&[card], &[6, 6], SOME, 1);
        both(&mut g, &text, "6");
        let r = last(&g);
        assert!(!g.has_duplicard(Seat::P1));
        assert_eq!(g.hand(Seat::P1).count(card), 1, "dup {card}");
        assert_eq!(r.plays[0].card, card);
        match card {
            1 => assert_eq!(r.reason, WinReason::Snipe),
            3 => assert_eq!(r.reason, WinReason::Guess),
            4 => assert_eq!(r.copied[0], Some(6)),
            6 => assert!(g.grid().is_frozen(Cell::parse("c3").unwrap())),
            8 => assert_eq!(g.penalty(Seat::P1), 1),
            _ => {}
        }
        if card == 2 {
            // p2 won (6 > 2) and is locked to column a.
            assert!(refused(&g, Seat::P2, "b1").contains("column a"));
        }
        if card == 5 {
            // p1 lost; after p2's stone, p1 places and then Leaps.
            one(&mut g, Seat::P2, "g1");
            one(&mut g, Seat::P1, "a1");
            assert!(matches!(g.stage(), Stage::LoserMove));
        }
        if card == 7 {
            // p1 won (7 > 6); after its stone it Shifts.
            one(&mut g, Seat::P1, "a1");
            assert!(matches!(g.stage(), Stage::WinnerMove));
        }
    }
    // A Duplicard as 6 is seen as a 6 by Snipe and Copy.
    let mut g = placement(&[6], &[1], SOME, 1);
    both(&mut g, "dup 6", "1");
    assert_eq!(last(&g).winner, Seat::P2);
    let mut g = placement(&[6], &[4], SOME, 1);
    both(&mut g, "dup 6", "4");
    assert_eq!(g.hand(Seat::P2), Hand::of(&[6]));
}

// --- illegal input -------------------------------------------------------------------------

#[test]
fn illegal_input_is_refused_with_the_reason() {
    let g = placement(&[2, 6], &[5], SOME, 1);
    assert!(refused(&g, Seat::P1, "5").contains("you have no 5 (Leap); your hand is 2 6"));
    assert!(refused(&g, Seat::P1, "dup 5").contains("must copy a card you hold"));
    let e = g.parse_move(Seat::P1, "2 h").unwrap_err();
    assert!(e.to_string().contains("column h is off the grid"), "{e}");
    assert!(refused(&g, Seat::P1, "6 a1").contains("a1 is empty"));
    assert!(g.parse_move(Seat::P1, "6 a1 b1 c1 d1").is_err());
    assert!(g.parse_move(Seat::P1, "9").is_err());
    assert!(g.parse_move(Seat::P1, "1 a").is_err());
    // A stone on an occupied cell.
    let mut g = placement(&[5], &[1], SOME, 1);
    both(&mut g, "5", "1");
    assert!(refused(&g, Seat::P1, "c3").contains("c3 is taken"));
    // Not your turn.
    assert!(g
        .check_move(Seat::P2, &Move::Stone(Cell::parse("a1").unwrap()))
        .is_err());
}

#[test]
fn assignments_are_checked() {
    let mut g = WitchsBrew::new(WitchsBrewOptions {
        schedule: Schedule::parse("DM1 DM2 DM3 DM4").unwrap(),
        ..WitchsBrewOptions::default()
    });
    for (pair, pick) in [
        ("1A 1B", "1A"),
        ("2A 2B", "2A"),
        ("3A 3B", "3A"),
        ("1C 1D", "1C"),
    ] {
        chance(&mut g, pair);
        chance(&mut g, "p1");
        one(&mut g, Seat::P1, pick);
    }
    assert_eq!(g.stage(), Stage::Assign);
    assert_eq!(g.conditions(Seat::P1).to_string(), "1A 1C 2A 3A");
    assert!(refused(&g, Seat::P1, "1A 1C 2A 3A / - / -").contains("at most three per round"));
    assert!(refused(&g, Seat::P1, "1A 1C / 2A / -").contains("3A is missing"));
    assert!(refused(&g, Seat::P1, "1A 1C / 2A 1B / 3A").contains("you do not hold 1B"));
    assert!(g.parse_move(Seat::P1, "1A 1C 2A").is_err());
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    // 3^4 spreads minus the 3 with all four on one round.
    assert_eq!(moves.len(), 78);
    assert_eq!(
        g.default_move(Seat::P1, &mut seeded_rng(0))
            .unwrap()
            .to_string(),
        "1A 1C 2A / 3A / -"
    );
    both(
        &mut g,
        "3a / 1c 2A / 1a",
        "1B 1D 2B 3b / - / -"
            .replace("3b / - / -", "/ 3B / -")
            .as_str(),
    );
    assert_eq!(
        g.stage(),
        Stage::Over,
        "nobody holds cards: the game ends at once"
    );
}

// --- the Cauldron, scoring and the ends ---------------------------------------------------

#[test]
fn a_race_result_with_no_chance_is_refused_when_races_are_simulated() {
    let race = |options: WitchsBrewOptions| {
        let mut g = WitchsBrew::new(options);
        chance(&mut g, "8 3");
        assert_eq!(g.stage(), Stage::Race);
        g
    };
    // By default nobody-wins has chance 0: `none` cannot happen.
    let g = race(WitchsBrewOptions::default());
    let why = g.check_chance(&Chance::Race(None)).unwrap_err().reason;
    assert!(
        why.contains("nobody wins cannot happen here: its chance is 0"),
        "{why}"
    );
    assert!(g.check_chance(&Chance::Race(Some(Seat::P1))).is_ok());
    // A race p1 always wins cannot be won by p2.
    let g = race(WitchsBrewOptions {
        p1_chance: 1.0,
        ..WitchsBrewOptions::default()
    });
    assert!(g.check_chance(&Chance::Race(Some(Seat::P2))).is_err());
    // With a chance of a race nobody wins, `none` is a result.
    let g = race(WitchsBrewOptions {
        none_chance: 0.25,
        ..WitchsBrewOptions::default()
    });
    assert!(g.check_chance(&Chance::Race(None)).is_ok());
    // A live race ends as the race did: nobody may answer in time.
    let g = race(WitchsBrewOptions {
        cauldron: CauldronMode::Live,
        ..WitchsBrewOptions::default()
    });
    assert!(g.check_chance(&Chance::Race(None)).is_ok());
}

#[test]
fn cauldron_rounds_hand_out_prizes_and_discard_throws_a_pair_away() {
    let mut g = WitchsBrew::new(WitchsBrewOptions {
        schedule: Schedule::parse("MM1 DM1 DM2 FM1").unwrap(),
        discard: [false, true],
        none_chance: 0.1,
        ..WitchsBrewOptions::default()
    });
    chance(&mut g, "8 3");
    assert_eq!(g.format_chance(&Chance::Cards(3, 8)), "3 8");
    chance(&mut g, "p2");
    assert!(refused(&g, Seat::P2, "5").contains("not in the pair"));
    one(&mut g, Seat::P2, "8");
    assert_eq!(
        (g.hand(Seat::P1), g.hand(Seat::P2)),
        (Hand::of(&[3]), Hand::of(&[8]))
    );
    // DM1: p2 holds Discard and answers after the handing out.
    chance(&mut g, "2c 3F");
    chance(&mut g, "p1");
    one(&mut g, Seat::P1, "3F");
    assert_eq!(g.pending(), Pending::One(Seat::P2));
    one(&mut g, Seat::P2, "discard");
    assert!(g.conditions(Seat::P1).is_empty() && g.conditions(Seat::P2).is_empty());
    // DM2: the Discard is used up; a race nobody wins discards the pair.
    chance(&mut g, "1A 1B");
    assert!(g.check_chance(&Chance::Cards(1, 2)).is_err());
    chance(&mut g, "none");
    assert_eq!(g.pending(), Pending::Chance);
    assert!(g
        .check_chance(&Chance::Conditions(cond("1A"), cond("2A")))
        .is_err());
    chance(&mut g, "1 1");
    chance(&mut g, "p1");
    one(&mut g, Seat::P1, "1");
    assert_eq!(g.stage(), Stage::Assign);
    both(&mut g, "- / - / -", "- / - / -");
    assert_eq!(g.stage(), Stage::PlayCards);
    assert_eq!(g.round(), 1);
}

#[test]
fn a_player_without_cards_loses_and_neither_scores_everything_unchecked() {
    let a = |s: &str| Move::Assign(parse_assignment(s).unwrap());
    let Move::Assign(p1_assign) = a("2B / 3D / -") else {
        unreachable!()
    };
    let Move::Assign(p2_assign) = a("- / - / 1A") else {
        unreachable!()
    };
    let rows = [
        "XX.....", "XX.....", ".......", ".......", ".......", ".......",
    ];
    let g = WitchsBrew::at_placement(
        WitchsBrewOptions::default(),
        [Hand::default(), Hand::of(&[1])],
        [p1_assign, p2_assign],
        grid(rows),
        3,
    );
    assert_eq!(g.outcome().unwrap().winner, Some(Seat::P2));
    assert_eq!(g.points(), [0, 0]);
    let g = WitchsBrew::at_placement(
        WitchsBrewOptions::default(),
        [Hand::default(), Hand::default()],
        [p1_assign, p2_assign],
        grid(rows),
        3,
    );
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, g.points()),
        (Some(Seat::P1), [2, 0]),
        "{}",
        o.reason
    );
    assert!(o.reason.contains("every unchecked condition was scored"));
}

#[test]
fn conditions_are_scored_after_their_round_and_ties_use_the_tiebreaker() {
    let assign = |s: &str| parse_assignment(s).unwrap();
    let options = WitchsBrewOptions {
        tiebreaker: Some(Seat::P2),
        ..WitchsBrewOptions::default()
    };
    // p1's 2B is assigned to round 6 and met; p2's 2A to round 12.
    let rows = [
        "XX.....", "XX.....", ".......", ".......", ".......", "OOO....",
    ];
    let mut g = WitchsBrew::at_placement(
        options,
        [Hand::of(&[1; 7]), Hand::of(&[2; 7])],
        [assign("2B / - / -"), assign("- / - / 2A")],
        grid(rows),
        6,
    );
    let mut rng = seeded_rng(3);
    both(&mut g, "1", "2 g");
    one(&mut g, Seat::P2, "d6");
    one(&mut g, Seat::P1, "g1");
    one(&mut g, Seat::P2, "g2");
    assert_eq!(g.points(), [2, 0]);
    assert_eq!(g.met()[0].to_string(), "2B");
    while !g.is_over() {
        match g.pending() {
            Pending::Both => {
                let (a, b) = (
                    g.random_move(Seat::P1, &mut rng).unwrap(),
                    g.random_move(Seat::P2, &mut rng).unwrap(),
                );
                g.apply(Step::Both { p1: a, p2: b }).unwrap();
            }
            Pending::One(s) => {
                // Keep p2's four in a row on row 6 (d6 was added): never Leap or Shift.
                let mv = match g.stage() {
                    Stage::WinnerMove | Stage::LoserMove => g.default_move(s, &mut rng).unwrap(),
                    _ => g.random_move(s, &mut rng).unwrap(),
                };
                g.apply(Step::One { seat: s, mv }).unwrap();
            }
            _ => unreachable!(),
        }
    }
    assert_eq!(g.points(), [2, 2]);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P2), "{}", o.reason);
    assert!(o.reason.contains("Tiebreaker"));
    let score = g.score();
    assert_eq!(score.details["conditions_met"]["p2"], json!(["2A"]));
}

#[test]
fn the_rules_page_example_round_plays_as_described() {
    let before = [
        ".......", ".......", "...O...", "..XX+..", "...O...", "...+...",
    ];
    let mut g = placement(&[2, 1], &[5, 1], before, 3);
    both(&mut g, "2 d", "5");
    assert_eq!(last(&g).winner, Seat::P2);
    assert!(refused(&g, Seat::P2, "c2").contains("Lock names column d"));
    for (seat, text) in [
        (Seat::P2, "d2"),
        (Seat::P2, "d5 up"),
        (Seat::P1, "d5"),
        (Seat::P2, "b4"),
    ] {
        one(&mut g, seat, text);
    }
    let after = grid([
        "...O...", "...O...", "...O...", ".+XX+..", "...X...", "...+...",
    ]);
    assert_eq!(*g.grid(), after);
    assert!(g.grid().meets(Seat::P2, cond("2E")));
    assert_eq!(g.round(), 4);
    let at = |c: &str| Cell::parse(c);
    assert_eq!(last(&g).placed, [at("d2"), at("d5"), at("b4")]);
    assert_eq!(
        last(&g).moved,
        [Some((at("d5").unwrap(), at("d1").unwrap())), None]
    );
    let text = g.render(Viewer::Spectator);
    assert!(
        text.contains("Stones: p2 placed d2, moved d5 to d1; p1 placed d5; p2 placed gray b4."),
        "{text}"
    );
}

#[test]
fn notation_round_trips_and_views_show_the_grid() {
    let mut g = placement(&[2, 3, 6], &[5], SOME, 1);
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    for mv in &moves {
        assert_eq!(g.parse_move(Seat::P1, &mv.to_string()).unwrap(), *mv);
        g.check_move(Seat::P1, mv).unwrap();
    }
    assert_eq!(parse(&g, Seat::P1, "6 D4 c3").to_string(), "6 c3 d4");
    assert_eq!(parse(&g, Seat::P1, "DUP 2 D").to_string(), "dup 2 d");
    both(&mut g, "6 c3 d4 d3", "5");
    let view = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
    assert_eq!(view["grid"][2][2], json!({"stone": "p1", "frozen": true}));
    assert_eq!(view["players"]["p1"]["hand"], json!([2, 3]));
    let text = g.render(Viewer::Seat(Seat::P1));
    assert!(text.contains("[X][O]"), "{text}");
    assert!(text.contains("Placement round 1 of 12"), "{text}");
}

#[test]
fn random_games_end_and_simulated_races_follow_p1_chance() {
    let mut rng = seeded_rng(9);
    let mut p1_races = 0;
    for _ in 0..200 {
        let mut g = WitchsBrew::new(WitchsBrewOptions {
            p1_chance: 0.8,
            none_chance: 0.1,
            ..WitchsBrewOptions::default()
        });
        let n = colosseum_engine::random_playout(&mut g, &mut rng);
        assert!(g.is_over() && n > 0);
        p1_races += g
            .cauldron_log
            .iter()
            .flatten()
            .filter(|r| r.winner == Some(Seat::P1))
            .count();
    }
    // 200 games × 22 races × 0.9 × 0.8 ≈ 3168.
    assert!((2900..3450).contains(&p1_races), "{p1_races}");
}

/// A whole short game as a record: two Cauldron rounds, the Intermission, one Placement
/// round, then neither player holds cards and every condition is scored.
#[test]
fn a_record_replays_to_the_right_victory_points() {
    let text = r#"{"game": "witchs-brew",
        "options": {"schedule": "MM1 DM1", "cauldron": "live"},
        "steps": [
            {"chance": "8 6"}, {"chance": "p1"}, {"p1": "8"},
            {"chance": "3F 2D"}, {"chance": "p2"}, {"p2": "2d"},
            {"p1": "3F / - / -", "p2": "- / - / 2D"},
            {"p1": "8", "p2": "6"},
            {"p1": "d4"}, {"p2": "A1"}, {"p1": "e4"}
        ]}"#;
    let record = colosseum_engine::Record::from_json(text).unwrap();
    let replayed = crate::replay_record(&record).unwrap().unwrap();
    let game = replayed.game;
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Seat::P2), "{}", outcome.reason);
    let score = serde_json::to_value(game.score()).unwrap();
    assert_eq!(score["p1"], json!(0));
    assert_eq!(score["p2"], json!(2));
    assert_eq!(score["conditions_met"], json!({"p1": [], "p2": ["2D"]}));
    assert_eq!(
        score["conditions_checked"],
        json!({"p1": ["3F"], "p2": ["2D"]})
    );
}

#[test]
fn options_are_checked() {
    let raw = colosseum_engine::parse_pairs(["schedule=MM1 DM1 QQ2"]).unwrap();
    assert!(WitchsBrewOptions::from_raw(&raw).is_err());
    let raw = colosseum_engine::parse_pairs(["p1_chance=1.5"]).unwrap();
    assert!(WitchsBrewOptions::from_raw(&raw).is_err());
    let ten_dms = (1..=10)
        .map(|i| format!("DM{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(Schedule::parse(&ten_dms).unwrap_err().contains("9"));
    assert_eq!(Schedule::standard().to_string().split(' ').count(), 22);
    assert_eq!(
        Schedule::parse(&Schedule::standard().to_string()).unwrap(),
        Schedule::standard()
    );
    let raw = colosseum_engine::parse_pairs(["cauldron=live", "discard=both"]).unwrap();
    let o = WitchsBrewOptions::from_raw(&raw).unwrap();
    assert_eq!((o.cauldron, o.discard), (CauldronMode::Live, [true, true]));
}

// --- the endgame (a variant for research) ----------------------------------------------------

fn endgame() -> WitchsBrew {
    let raw = colosseum_engine::parse_pairs(["start=endgame"]).unwrap();
    WitchsBrew::from_raw(&raw).unwrap()
}

/// The endgame's position, as the rules page shows it (row 1 on top).
const ENDGAME: [&str; 6] = [
    "XO+XXX+", "OXO+OO+", "O+XO+X+", "XXX..O.", ".++.OO.", "++.XO..",
];

#[test]
fn the_endgame_is_round_12_of_a_seed_game_replayed_from_its_start() {
    let g = endgame();
    assert_eq!(g.options().start, Start::Endgame);
    assert_eq!(*g.grid(), grid(ENDGAME));
    assert_eq!((g.round(), g.stage()), (12, Stage::PlayCards));
    assert_eq!(g.pending(), Pending::Both);
    assert_eq!(
        (g.hand(Seat::P1), g.hand(Seat::P2)),
        (Hand::of(&[1, 8, 8]), Hand::of(&[4, 8, 8]))
    );
    assert!(!g.has_duplicard(Seat::P1) && !g.has_duplicard(Seat::P2));
    assert_eq!((g.penalty(Seat::P1), g.penalty(Seat::P2)), (0, 0));
    assert_eq!(g.points(), [3, 0]);
    assert_eq!(g.met()[0].to_string(), "1A 2C");
    // The whole seed game is behind it: 22 Cauldron rounds and 11 Placement rounds, round 11
    // won by p1 (so p2 wins a tie in round 12).
    assert_eq!(g.cauldron_log.iter().flatten().count(), 22);
    assert_eq!(g.placement_log.iter().flatten().count(), 11);
    let winners: Vec<String> = g
        .placement_log
        .iter()
        .flatten()
        .map(|r| r.winner.to_string())
        .collect();
    // As the rules page's table says.
    assert_eq!(winners.join(" "), "p1 p2 p2 p1 p1 p2 p1 p1 p2 p2 p1");
    assert_eq!(g.deck, [0; 8]);
    // The only choices left: two distinct cards each, then stones on the nine empty cells.
    let mut moves = Vec::new();
    g.legal_moves(Seat::P1, &mut moves);
    let p1: Vec<String> = moves.iter().map(ToString::to_string).collect();
    moves.clear();
    g.legal_moves(Seat::P2, &mut moves);
    let p2: Vec<String> = moves.iter().map(ToString::to_string).collect();
    assert_eq!(
        (p1, p2),
        (
            vec!["1".to_string(), "8".into()],
            vec!["4".to_string(), "8".into()]
        )
    );
    // The views show the game that led here, and the seed's options (the variant is left out of
    // the serialized options only when it is the seed's).
    let view = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
    assert_eq!(view["placement_round"], json!(12));
    assert_eq!(view["rounds"].as_array().unwrap().len(), 11);
    assert_eq!(
        serde_json::to_value(g.options()).unwrap()["start"],
        json!("endgame")
    );
    assert!(serde_json::to_value(WitchsBrewOptions::default())
        .unwrap()
        .get("start")
        .is_none());
}

#[test]
fn the_endgames_last_round_is_played_by_the_seed_rules() {
    // p1's Snipe beats p2's Diminish: p1 completes 2A at d4, p2 its 2B at e4, p1's gray completes
    // 3C at c6; round 12's conditions are checked and p1 wins 8 to 2.
    let mut g = endgame();
    both(&mut g, "1", "8");
    assert_eq!(last(&g).winner, Seat::P1);
    one(&mut g, Seat::P1, "d4");
    one(&mut g, Seat::P2, "e4");
    one(&mut g, Seat::P1, "c6");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, g.points()),
        (Some(Seat::P1), [8, 2]),
        "{}",
        o.reason
    );
    // Equal values go to p2, who lost round 11. p2 completes 2B at e4; p2's gray would complete
    // 3F at g4 (g1-g4) or at d4 (b6 c5 d4 e3): p1 completing 2A at d4 holds a draw (5 to 5),
    // blocking g4 instead loses (3 to 5).
    for (p1_stone, gray, points, winner) in [
        ("d4", "g4", [5, 5], None),
        ("g4", "d4", [3, 5], Some(Seat::P2)),
    ] {
        let mut g = endgame();
        both(&mut g, "8", "8");
        assert_eq!(last(&g).winner, Seat::P2);
        one(&mut g, Seat::P2, "e4");
        one(&mut g, Seat::P1, p1_stone);
        one(&mut g, Seat::P2, gray);
        let o = g.outcome().unwrap();
        assert_eq!((o.winner, g.points()), (winner, points), "{}", o.reason);
    }
}

#[test]
fn the_endgame_option_is_checked_and_replays_from_a_record() {
    let raw = colosseum_engine::parse_pairs(["start=middle"]).unwrap();
    let why = WitchsBrewOptions::from_raw(&raw).unwrap_err().to_string();
    assert!(
        why.contains("start") && why.contains("seed") && why.contains("endgame"),
        "{why}"
    );
    let raw = colosseum_engine::parse_pairs(["start=endgame", "schedule=MM1 DM1"]).unwrap();
    let why = WitchsBrewOptions::from_raw(&raw).unwrap_err().to_string();
    assert!(
        why.contains("discard at their defaults") && why.contains("schedule changed"),
        "{why}"
    );
    let raw =
        colosseum_engine::parse_pairs(["start=endgame", "discard=p1", "none_chance=0.1"]).unwrap();
    let why = WitchsBrewOptions::from_raw(&raw).unwrap_err().to_string();
    assert!(why.contains("none_chance, discard changed"), "{why}");
    // advantage and tiebreaker leave the position as it is; the Tiebreaker turns the 5 to 5
    // draw into a win for its holder.
    let raw =
        colosseum_engine::parse_pairs(["start=endgame", "advantage=p2", "tiebreaker=p1"]).unwrap();
    let mut g = WitchsBrew::from_raw(&raw).unwrap();
    assert_eq!((*g.grid(), g.points()), (grid(ENDGAME), [3, 0]));
    both(&mut g, "8", "8");
    for (seat, cell) in [(Seat::P2, "e4"), (Seat::P1, "d4"), (Seat::P2, "g4")] {
        one(&mut g, seat, cell);
    }
    assert_eq!(
        (g.outcome().unwrap().winner, g.points()),
        (Some(Seat::P1), [5, 5])
    );
    // Defaults written out are accepted (as OpenSpiel passes every parameter).
    let raw = colosseum_engine::parse_pairs([
        "start=endgame",
        "cauldron=simulated",
        "p1_chance=0.5",
        "tiebreaker=none",
    ])
    .unwrap();
    assert_eq!(
        WitchsBrewOptions::from_raw(&raw).unwrap().start,
        Start::Endgame
    );
    assert_eq!(
        WitchsBrewOptions::from_raw(&colosseum_engine::parse_pairs(["start=seed"]).unwrap())
            .unwrap(),
        WitchsBrewOptions::default()
    );
    let text = r#"{"game": "witchs-brew", "options": {"start": "endgame"},
        "steps": [{"p1": "8", "p2": "4"}, {"p1": "d4"}, {"p2": "g4"}, {"p1": "a5"}]}"#;
    let record = colosseum_engine::Record::from_json(text).unwrap();
    let game = crate::replay_record(&record).unwrap().unwrap().game;
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Seat::P1), "{}", outcome.reason);
}

/// The value for `p1` (win 1, draw 0, loss -1) of an endgame position, independently of the
/// OpenSpiel package: backward induction over the engine's moves, and at the round's card play
/// (the only simultaneous decision left) the 2x2 matrix game solved in closed form.
fn endgame_value(g: &WitchsBrew, nodes: &mut usize) -> f64 {
    *nodes += 1;
    if let Some(o) = g.outcome() {
        return match o.winner {
            Some(Seat::P1) => 1.0,
            Some(Seat::P2) => -1.0,
            None => 0.0,
        };
    }
    let mut moves = Vec::new();
    match g.pending() {
        Pending::One(seat) => {
            g.legal_moves(seat, &mut moves);
            let values = moves.iter().map(|&mv| {
                let mut child = g.clone();
                child.apply(Step::One { seat, mv }).unwrap();
                endgame_value(&child, nodes)
            });
            if seat == Seat::P1 {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
        Pending::Both => {
            g.legal_moves(Seat::P1, &mut moves);
            let mut theirs = Vec::new();
            g.legal_moves(Seat::P2, &mut theirs);
            assert_eq!((moves.len(), theirs.len()), (2, 2), "a 2x2 card play");
            let m: Vec<Vec<f64>> = moves
                .iter()
                .map(|&p1| {
                    theirs
                        .iter()
                        .map(|&p2| {
                            let mut child = g.clone();
                            child.apply(Step::Both { p1, p2 }).unwrap();
                            endgame_value(&child, nodes)
                        })
                        .collect()
                })
                .collect();
            let (a, b, c, d) = (m[0][0], m[0][1], m[1][0], m[1][1]);
            let maxmin = a.min(b).max(c.min(d));
            let minmax = a.max(c).min(b.max(d));
            if maxmin == minmax {
                maxmin
            } else {
                (a * d - b * c) / (a + d - b - c)
            }
        }
        other => panic!("no chance is left in the endgame: {other:?}"),
    }
}

#[test]
fn the_endgame_is_worth_one_half_to_p1() {
    // p1 wins the round with 1 against 8 and with 8 against 4, p2 with 4 against 1 and 8 against
    // 8: matching pennies. The round's winner moves first and places the gray stone: p1 winning
    // it wins the game, p2 winning it draws (p1 completes 2A against p2's 2B and 3F). So p1 plays
    // each card half the time and the game is worth +1/2 to p1.
    let mut nodes = 0;
    assert_eq!(endgame_value(&endgame(), &mut nodes), 0.5);
    // Every history of the engine's last round: the cards (4), then the stones (9 x 8 x 7).
    assert_eq!(nodes, 1 + 4 * (1 + 9 + 9 * 8 + 9 * 8 * 7));
}

//! A published multi-round Swiss paired by the Dutch system, reproduced round by round.
//!
//! Source: Mario Held's worked example of the FIDE (Dutch) System in the FIDE Arbiters' Manual
//! 2014 (FIDE Arbiters' Commission, "Swiss System", the example tournament of 14 players and 5
//! rounds: Alice, Bruno, Carla, ... Robert), as transcribed round by round (pairings, colours,
//! scores) in the tests of the `swissdutch` package (github.com/r-moeritz/swissdutch,
//! `tests/test_dutch.py` and `tests/test_swiss.py`). Given the same results, every round's
//! pairings and seats (white = `p1`) must be the published ones.
//!
//! The example has an absent player (Oskar, round 2) and a forfeit (Nancy does not come to
//! her round 3 game against Finn): here Oskar is left out of round 2's pairing and waits, and
//! the forfeit is Finn's point without a game (like a bye, so he cannot get the bye later) and
//! Nancy's round without a game, neither of which counts as a meeting or a seat.

use colosseum_tournament::{swiss, Bracket, Outcome, Pairing, Played, PlayedRound, PlayerId};

const NAMES: [&str; 14] = [
    "Alice", "Bruno", "Carla", "David", "Eloise", "Finn", "Giorgia", "Kevin", "Louise", "Mark",
    "Nancy", "Oskar", "Patricia", "Robert",
];

/// A game by the players' 1-based numbers, white first, and its result.
fn game(white: usize, black: usize, outcome: Outcome) -> Played {
    Played {
        pairing: Pairing {
            p1: white - 1,
            p2: black - 1,
            bracket: Bracket::Main,
        },
        outcome,
    }
}

fn name(p: PlayerId) -> &'static str {
    NAMES[p]
}

/// Checks that `swiss::pair_present` pairs round `number` as `published` (white, black; 1-based;
/// `unseated` pairs were not played, so their seats are not compared), with `bye`.
fn check(
    number: usize,
    past: &[PlayedRound],
    absent: &[usize],
    published: &[(usize, usize)],
    unseated: &[(usize, usize)],
    bye: Option<usize>,
) {
    let absent: Vec<PlayerId> = absent.iter().map(|p| p - 1).collect();
    let (round, relaxed) = swiss::pair_present(14, &absent, past);
    assert_eq!(relaxed, swiss::Relaxed::Nothing, "round {number}");
    let show = |pairs: &[(usize, usize)]| {
        let mut v: Vec<String> = pairs
            .iter()
            .map(|&(w, b)| format!("{}-{}", name(w - 1), name(b - 1)))
            .collect();
        v.sort();
        v.join(", ")
    };
    let ours: Vec<(usize, usize)> = round.games.iter().map(|g| (g.p1 + 1, g.p2 + 1)).collect();
    let mut want: Vec<(usize, usize)> = published.to_vec();
    // Unseated pairs: compare as sets.
    let norm = |pairs: &[(usize, usize)]| {
        let mut v: Vec<(usize, usize)> = pairs
            .iter()
            .map(|&(w, b)| {
                if unseated.contains(&(w, b)) || unseated.contains(&(b, w)) {
                    (w.min(b), w.max(b))
                } else {
                    (w, b)
                }
            })
            .collect();
        v.sort_unstable();
        v
    };
    want.extend(unseated);
    assert_eq!(
        norm(&ours),
        norm(&want),
        "round {number}:\n ours      {}\n published {}",
        show(&ours),
        show(&want)
    );
    assert_eq!(
        round.byes,
        bye.map(|b| b - 1).into_iter().collect::<Vec<_>>(),
        "round {number}'s bye"
    );
}

#[test]
fn held_example_tournament_of_the_arbiters_manual_is_reproduced_round_by_round() {
    use Outcome::{Draw, P1, P2};
    let mut past: Vec<PlayedRound> = Vec::new();

    // Round 1: 1-8 1-0, 9-2 0-1, 3-10 1-0, 11-4 ½, 5-12 1-0, 13-6 0-1, 7-14 1-0.
    check(
        1,
        &past,
        &[],
        &[(1, 8), (9, 2), (3, 10), (11, 4), (5, 12), (13, 6), (7, 14)],
        &[],
        None,
    );
    past.push(PlayedRound {
        games: vec![
            game(1, 8, P1),
            game(9, 2, P2),
            game(3, 10, P1),
            game(11, 4, Draw),
            game(5, 12, P1),
            game(13, 6, P2),
            game(7, 14, P1),
        ],
        byes: vec![],
        waiting: vec![],
    });

    // Round 2, Oskar (12) absent: 5-1 1-0, 2-7 1-0, 6-3 ½, 4-9 1-0, 8-11 0-1, 10-13 1-0,
    // Robert (14) the bye.
    check(
        2,
        &past,
        &[12],
        &[(5, 1), (2, 7), (6, 3), (4, 9), (8, 11), (10, 13)],
        &[],
        Some(14),
    );
    past.push(PlayedRound {
        games: vec![
            game(5, 1, P1),
            game(2, 7, P1),
            game(6, 3, Draw),
            game(4, 9, P1),
            game(8, 11, P2),
            game(10, 13, P1),
        ],
        byes: vec![13],
        waiting: vec![11],
    });

    // Round 3: 14-1 0-1, 2-5 ½, 3-4 ½, Finn-Nancy (6-11) +/- by forfeit, 7-10 1-0, 12-8 ½,
    // 9-13 1-0.
    check(
        3,
        &past,
        &[],
        &[(14, 1), (2, 5), (3, 4), (7, 10), (12, 8), (9, 13)],
        &[(6, 11)],
        None,
    );
    past.push(PlayedRound {
        games: vec![
            game(14, 1, P2),
            game(2, 5, Draw),
            game(3, 4, Draw),
            game(7, 10, P1),
            game(12, 8, Draw),
            game(9, 13, P1),
        ],
        byes: vec![5],
        waiting: vec![10],
    });

    // Round 4: 1-3 1-0, 6-2 0-1, 4-5 ½, 11-7 1-0, 8-9 ½, 10-14 ½, 13-12 1-0.
    check(
        4,
        &past,
        &[],
        &[(1, 3), (6, 2), (4, 5), (11, 7), (8, 9), (10, 14), (13, 12)],
        &[],
        None,
    );
    past.push(PlayedRound {
        games: vec![
            game(1, 3, P1),
            game(6, 2, P2),
            game(4, 5, Draw),
            game(11, 7, P1),
            game(8, 9, Draw),
            game(10, 14, Draw),
            game(13, 12, P1),
        ],
        byes: vec![],
        waiting: vec![],
    });

    // The scores before round 5 as published.
    let points = swiss::half_points(14, &past);
    assert_eq!(
        points,
        [6, 7, 4, 5, 6, 5, 4, 2, 3, 3, 5, 1, 2, 3],
        "the transcription of rounds 1 to 4"
    );

    // Round 5: 2-1, 3-7, 4-6, 5-11, 13-8, 9-10, 14-12.
    check(
        5,
        &past,
        &[],
        &[(2, 1), (3, 7), (4, 6), (5, 11), (13, 8), (9, 10), (14, 12)],
        &[],
        None,
    );
}

#[test]
fn the_rules_page_states_the_implemented_rules_word_for_word() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/tournaments.md");
    let text = std::fs::read_to_string(path).expect("docs/tournaments.md");
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let docs = flat(&text);
    for (i, rule) in swiss::RULES.iter().enumerate() {
        let numbered = format!("{}. {}", i + 1, flat(rule));
        assert!(
            docs.contains(&numbered),
            "docs/tournaments.md lacks rule {}: {numbered}",
            i + 1
        );
    }
}

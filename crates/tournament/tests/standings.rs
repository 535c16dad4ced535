//! Standings against hand-computed tables.

use colosseum_tournament::{standings, Bracket, Format, Outcome, Pairing, Played, PlayedRound};

fn game(p1: usize, p2: usize, outcome: Outcome) -> Played {
    Played {
        pairing: Pairing {
            p1,
            p2,
            bracket: Bracket::Main,
        },
        outcome,
    }
}

/// Four players: 0 beats 1, draws 2, loses to 3; 1 beats 2 and 3; 2 beats 3.
/// Points: 1 has 2, 0 and 2 have 1½, 3 has 1.
fn four() -> Vec<PlayedRound> {
    vec![
        PlayedRound {
            games: vec![game(0, 1, Outcome::P1), game(2, 3, Outcome::P1)],
            ..Default::default()
        },
        PlayedRound {
            games: vec![game(0, 2, Outcome::Draw), game(1, 3, Outcome::P1)],
            ..Default::default()
        },
        PlayedRound {
            games: vec![game(0, 3, Outcome::P2), game(2, 1, Outcome::P2)],
            ..Default::default()
        },
    ]
}

#[test]
fn round_robin_points_head_to_head_then_sonneborn_berger() {
    let table = standings(&Format::RoundRobin { double: false }, 4, &four());
    let order: Vec<usize> = table.iter().map(|s| s.player).collect();
    // 0 and 2 drew their game (head to head does not decide); Sonneborn-Berger: 0 beat 1 (2)
    // and drew 2 (1½ × ½) = 2.75; 2 drew 0 (0.75) and beat 3 (1) = 1.75.
    assert_eq!(order, [1, 0, 2, 3]);
    assert_eq!(table[1].sonneborn_berger, 2.75);
    assert_eq!(table[2].sonneborn_berger, 1.75);
    assert_eq!(table[0].points, 2.0);
    assert_eq!((table[0].wins, table[0].draws, table[0].losses), (2, 0, 1));
}

#[test]
fn swiss_buchholz_then_sonneborn_berger() {
    let table = standings(&Format::Swiss { rounds: 3 }, 4, &four());
    // Buchholz: 0 met 1, 2, 3: 2 + 1½ + 1 = 4½; 2 met 0, 3, 1: the same 4½.
    assert_eq!(table[1].buchholz, 4.5);
    assert_eq!(table[2].buchholz, 4.5);
    assert_eq!(
        table.iter().map(|s| s.player).collect::<Vec<_>>(),
        [1, 0, 2, 3]
    );
}

#[test]
fn head_to_head_decides_a_tie_that_the_others_leave() {
    // 1 beats 0; 2 and 3 draw; 0 beats 2; 3 beats 1.
    let rounds = vec![
        PlayedRound {
            games: vec![game(0, 1, Outcome::P2), game(2, 3, Outcome::Draw)],
            ..Default::default()
        },
        PlayedRound {
            games: vec![game(0, 2, Outcome::P1), game(1, 3, Outcome::P2)],
            ..Default::default()
        },
    ];
    // Points: 0: 1, 1: 1, 2: ½, 3: 1½.
    let swiss = standings(&Format::Swiss { rounds: 2 }, 4, &rounds);
    assert_eq!(swiss[0].player, 3);
    // 0 and 1 tie on points; in a round robin head to head comes next: 1 beat 0.
    let rr = standings(&Format::RoundRobin { double: false }, 4, &rounds);
    let pos = |p: usize| rr.iter().position(|s| s.player == p).unwrap();
    assert!(pos(1) < pos(0));
}

/// Three players in a cycle (0 beats 1, 1 beats 2, 2 beats 0): equal on points, head to head
/// and Sonneborn-Berger, so only the seed orders them, and they share first place.
#[test]
fn a_tie_left_to_the_seed_is_a_shared_rank() {
    let cycle = vec![
        PlayedRound {
            games: vec![game(0, 1, Outcome::P1)],
            byes: vec![2],
            ..Default::default()
        },
        PlayedRound {
            games: vec![game(1, 2, Outcome::P1)],
            byes: vec![0],
            ..Default::default()
        },
        PlayedRound {
            games: vec![game(2, 0, Outcome::P1)],
            byes: vec![1],
            ..Default::default()
        },
    ];
    for format in [
        Format::RoundRobin { double: false },
        Format::Swiss { rounds: 3 },
    ] {
        let table = standings(&format, 3, &cycle);
        let ranks: Vec<(usize, usize, bool)> =
            table.iter().map(|s| (s.player, s.rank, s.tied)).collect();
        assert_eq!(
            ranks,
            [(0, 1, true), (1, 1, true), (2, 1, true)],
            "{format:?}"
        );
        assert_eq!(colosseum_tournament::standings::rank_label(&table[0]), "=1");
    }
    // A tie that a tie-break settles is not shared: 1 has 2 points, 0 and 2 have 1½ but
    // different Sonneborn-Berger.
    let table = standings(&Format::RoundRobin { double: false }, 4, &four());
    assert!(table.iter().all(|s| !s.tied), "{table:?}");
    let ranks: Vec<usize> = table.iter().map(|s| s.rank).collect();
    assert_eq!(ranks, [1, 2, 3, 4]);
}

#[test]
fn each_format_names_only_its_own_tie_breaks() {
    use colosseum_tournament::standings::tie_breaks;
    assert_eq!(
        tie_breaks(&Format::RoundRobin { double: false }),
        ["sonneborn_berger"]
    );
    assert_eq!(
        tie_breaks(&Format::Swiss { rounds: 3 }),
        ["buchholz", "sonneborn_berger"]
    );
    assert!(tie_breaks(&Format::SingleElimination).is_empty());
}

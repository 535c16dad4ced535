//! Pairing: published tables and properties of whole simulated tournaments.

use std::collections::HashSet;

use colosseum_tournament::round_robin::schedule;
use colosseum_tournament::{
    elimination, standings, swiss, Bracket, Format, Outcome, PlayedRound, Round,
};
use proptest::prelude::*;

/// Plays a whole tournament with outcomes drawn from `seed` (a small LCG, so that the test
/// needs no generator crate); `draws` allows draws.
fn play(format: Format, players: usize, seed: u64, draws: bool) -> (Vec<Round>, Vec<PlayedRound>) {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % 3
    };
    let mut rounds = Vec::new();
    let mut past = Vec::new();
    while let Some(round) = format.next_round(players, &past) {
        assert!(past.len() < 200, "{format:?} with {players} never ends");
        let outcomes: Vec<Outcome> = round
            .games
            .iter()
            .map(|_| match next() {
                0 => Outcome::P1,
                1 => Outcome::P2,
                _ if draws => Outcome::Draw,
                _ => Outcome::P1,
            })
            .collect();
        past.push(PlayedRound::from_round(&round, &outcomes));
        rounds.push(round);
    }
    (rounds, past)
}

/// Everyone appears at most once in a round.
fn check_once_per_round(players: usize, round: &Round) {
    let mut seen = HashSet::new();
    for g in &round.games {
        assert_ne!(g.p1, g.p2);
        assert!(seen.insert(g.p1) && seen.insert(g.p2), "twice in {round:?}");
    }
    for p in round.byes.iter().chain(&round.waiting) {
        assert!(seen.insert(*p), "twice in {round:?}");
    }
    assert!(seen.iter().all(|&p| p < players));
}

#[test]
fn berger_table_for_six_is_the_published_one() {
    // FIDE Handbook C.05 Annex 1, six players (1-based, white first).
    let published = [
        vec![(1, 6), (2, 5), (3, 4)],
        vec![(6, 4), (5, 3), (1, 2)],
        vec![(2, 6), (3, 1), (4, 5)],
        vec![(6, 5), (1, 4), (2, 3)],
        vec![(3, 6), (4, 2), (5, 1)],
    ];
    let ours = schedule(6, false);
    assert_eq!(ours.len(), 5);
    for (round, want) in ours.iter().zip(published) {
        let mut got: Vec<(usize, usize)> =
            round.games.iter().map(|g| (g.p1 + 1, g.p2 + 1)).collect();
        let mut want = want;
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
        assert!(round.byes.is_empty());
    }
}

#[test]
fn round_robin_covers_every_pair_once_or_twice_with_seats_balanced() {
    for players in 2..=20 {
        for double in [false, true] {
            let table = schedule(players, double);
            let per = if players % 2 == 0 {
                players - 1
            } else {
                players
            };
            assert_eq!(table.len(), if double { 2 * per } else { per });
            let mut seen = std::collections::HashMap::new();
            let mut balance = vec![0i32; players];
            let mut byes = vec![0; players];
            for round in &table {
                check_once_per_round(players, round);
                assert_eq!(round.games.len() * 2 + round.byes.len(), players);
                for g in &round.games {
                    *seen.entry((g.p1.min(g.p2), g.p1.max(g.p2))).or_insert(0) += 1;
                    balance[g.p1] += 1;
                    balance[g.p2] -= 1;
                }
                for &b in &round.byes {
                    byes[b] += 1;
                }
            }
            assert_eq!(seen.len(), players * (players - 1) / 2, "{players}");
            assert!(seen.values().all(|&n| n == if double { 2 } else { 1 }));
            assert!(
                balance.iter().all(|b| b.abs() <= 1),
                "{players}: {balance:?}"
            );
            if double {
                assert!(balance.iter().all(|&b| b == 0));
                let half = table.len() / 2;
                for (a, b) in table[..half].iter().zip(&table[half..]) {
                    for (x, y) in a.games.iter().zip(&b.games) {
                        assert_eq!((x.p1, x.p2), (y.p2, y.p1));
                    }
                }
            }
            let expected_byes = if players % 2 == 1 {
                if double {
                    2
                } else {
                    1
                }
            } else {
                0
            };
            assert!(byes.iter().all(|&b| b == expected_byes));
        }
    }
}

#[test]
fn swiss_round_one_is_top_half_against_bottom_half_with_seats_alternating() {
    let round = swiss::pair(8, &[]);
    let got: Vec<(usize, usize)> = round.games.iter().map(|g| (g.p1 + 1, g.p2 + 1)).collect();
    // The Dutch system's first round: 1-5, 6-2, 3-7, 8-4.
    assert_eq!(got, [(1, 5), (6, 2), (3, 7), (8, 4)]);
    let round = swiss::pair(7, &[]);
    assert_eq!(round.byes, [6], "the lowest seed has the bye");
    let got: Vec<(usize, usize)> = round.games.iter().map(|g| (g.p1 + 1, g.p2 + 1)).collect();
    assert_eq!(got, [(1, 4), (5, 2), (3, 6)]);
}

#[test]
fn swiss_round_two_pairs_score_groups_and_floats_the_odd_one() {
    // Eight players, round 1 as above; the top seeds 1, 2, 3 win, 7 beats 4... no: 8 v 4 is a
    // draw. Winners {1, 6, 3} (6 beat 2), draw {8, 4}, losers {5, 2, 7}.
    let r1 = swiss::pair(8, &[]);
    let outcomes = [Outcome::P1, Outcome::P1, Outcome::P1, Outcome::Draw];
    let past = [PlayedRound::from_round(&r1, &outcomes)];
    let r2 = swiss::pair(8, &past);
    let opponent = |p: usize| {
        r2.games
            .iter()
            .find_map(|g| {
                (g.p1 == p - 1)
                    .then_some(g.p2 + 1)
                    .or((g.p2 == p - 1).then_some(g.p1 + 1))
            })
            .unwrap()
    };
    // The leaders 1, 6 and 3 all sat in p1, so none of them meets another (seats within one
    // outrank score groups): 1 meets the nearest score with the other seat due, 4 (½).
    assert_eq!(opponent(1), 4);
    for leader in [1, 3, 6] {
        assert!(![1, 3, 6].contains(&opponent(leader)), "{leader}");
    }
    // The score group 0 players {2, 5, 7} who sat in p2 meet 6, 3 and 8 who sat in p1.
    for p in [6, 3, 8] {
        assert!([2, 5, 7].contains(&opponent(p)), "{p}");
    }
    // Seats: who sat in p2 in round 1 takes p1 now.
    for g in &r2.games {
        let was_p1 = |p| r1.games.iter().any(|x| x.p1 == p);
        assert!(!was_p1(g.p1) || was_p1(g.p2), "{g:?}");
    }
}

#[test]
fn single_elimination_of_thirteen_gives_the_top_three_seeds_byes() {
    let round = elimination::single_next(13, &[]).unwrap();
    let mut byes = round.byes.clone();
    byes.sort_unstable();
    assert_eq!(byes, [0, 1, 2]);
    assert_eq!(round.games.len(), 5);
    assert_eq!(elimination::seeding(8), [0, 7, 3, 4, 1, 6, 2, 5]);
}

fn swiss_properties(players: usize, rounds: usize, seed: u64) {
    let format = Format::Swiss { rounds };
    let (played, past) = play(format, players, seed, true);
    assert_eq!(played.len(), rounds);
    let mut byes = vec![0; players];
    let mut balance = vec![0i32; players];
    let mut pairs = std::collections::HashMap::new();
    for round in &played {
        check_once_per_round(players, round);
        // Everyone plays every round, except one bye when the count is odd.
        assert_eq!(round.games.len() * 2 + round.byes.len(), players);
        assert_eq!(round.byes.len(), players % 2);
        for &b in &round.byes {
            byes[b] += 1;
        }
        for g in &round.games {
            *pairs.entry((g.p1.min(g.p2), g.p1.max(g.p2))).or_insert(0) += 1;
            balance[g.p1] += 1;
            balance[g.p2] -= 1;
        }
        assert!(
            balance.iter().all(|b| b.abs() <= 1),
            "seats out of balance: {balance:?}"
        );
    }
    assert!(byes.iter().all(|&b| b <= 1), "a second bye: {byes:?}");
    // Sixteen players in five rounds (and any Swiss of at most a third as many rounds as
    // players) never needs a repeat.
    if 3 * rounds <= players {
        assert!(
            pairs.values().all(|&n| n == 1),
            "a repeat pairing: {pairs:?}"
        );
    }
    let table = standings(&format, players, &past);
    assert_eq!(table.len(), players);
    let total: f64 = table.iter().map(|s| s.points).sum();
    assert!((total - (rounds * (players / 2) + rounds * (players % 2)) as f64).abs() < 1e-9);
}

fn elimination_properties(players: usize, double: bool, seed: u64) {
    let format = if double {
        Format::DoubleElimination
    } else {
        Format::SingleElimination
    };
    let (played, past) = play(format, players, seed, false);
    for round in &played {
        check_once_per_round(players, round);
    }
    let losses = elimination::losses(players, &past);
    let games: usize = played.iter().map(|r| r.games.len()).sum();
    let limit = if double { 2 } else { 1 };
    let champions: Vec<usize> = (0..players).filter(|&p| losses[p] < limit).collect();
    assert_eq!(champions.len(), 1, "{players}: {losses:?}");
    assert!((0..players).all(|p| p == champions[0] || losses[p] == limit));
    if double {
        assert!(
            games == 2 * players - 2 || games == 2 * players - 1,
            "{players}: {games}"
        );
        // Nobody plays in the losers' bracket without a loss, nor in the winners' with one.
        for (i, round) in played.iter().enumerate() {
            let before = elimination::losses(players, &past[..i]);
            for g in &round.games {
                match g.bracket {
                    Bracket::Winners => assert!(before[g.p1] == 0 && before[g.p2] == 0),
                    Bracket::Losers => assert!(before[g.p1] == 1 && before[g.p2] == 1),
                    Bracket::Final => assert!(before[g.p1] < 2 && before[g.p2] < 2),
                    Bracket::Main => panic!("a main game in a double elimination"),
                }
            }
        }
        let log = (players as f64).log2().ceil() as usize;
        assert!(
            played.len() <= 2 * log + 3,
            "{players}: {} rounds",
            played.len()
        );
    } else {
        assert_eq!(games, players - 1);
        assert_eq!(played.len(), elimination::bracket_rounds(players));
        // Byes only in the first round.
        assert!(played.iter().skip(1).all(|r| r.byes.is_empty()));
    }
    let table = standings(&format, players, &past);
    assert_eq!(table[0].player, champions[0]);
}

#[test]
fn every_bracket_from_two_to_sixty_four_ends_with_one_champion() {
    for players in 2..=64 {
        for seed in 0..3 {
            elimination_properties(players, false, seed);
            elimination_properties(players, true, seed);
        }
    }
}

#[test]
fn swiss_of_sixteen_in_five_and_thirteen_in_four() {
    for seed in 0..50 {
        swiss_properties(16, 5, seed);
        swiss_properties(13, 4, seed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn swiss_properties_hold(players in 2usize..=40, rounds in 1usize..=9, seed in any::<u64>()) {
        let rounds = rounds.min(players - 1);
        swiss_properties(players, rounds, seed);
    }

    #[test]
    fn elimination_properties_hold(players in 2usize..=64, double in any::<bool>(), seed in any::<u64>()) {
        elimination_properties(players, double, seed);
    }

    #[test]
    fn a_full_round_robin_never_repeats_and_ends(players in 2usize..=30, double in any::<bool>(), seed in any::<u64>()) {
        let format = Format::RoundRobin { double };
        let (played, _) = play(format, players, seed, true);
        prop_assert_eq!(Some(played.len()), format.rounds(players));
    }
}

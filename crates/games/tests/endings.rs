//! The registry's ending hook (`GameEntry::ending`): the kinds of ending a balance report
//! counts.

use colosseum_engine::{Outcome, Pending, Seat, TextStep};

/// Every game's endings fall into kinds without seats or numbers (`GameEntry::ending`, for
/// balance reports): random games of each give at least one kind, none naming a seat or
/// holding a digit, and the examples of the default read as documented.
#[test]
fn endings_are_kinds_without_seats_or_numbers() {
    for entry in colosseum_games::registry() {
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..20u64 {
            let mut game = (entry.create)(&colosseum_engine::RawOptions::new()).unwrap();
            let mut rng = colosseum_engine::seeded_rng(seed);
            loop {
                let step = match game.pending() {
                    Pending::Over => break,
                    Pending::Chance => {
                        game.apply_random_chance(&mut rng).unwrap();
                        continue;
                    }
                    Pending::One(s) => TextStep::one(s, game.random_move(s, &mut rng).unwrap()),
                    Pending::Both => TextStep::both(
                        game.random_move(Seat::P1, &mut rng).unwrap(),
                        game.random_move(Seat::P2, &mut rng).unwrap(),
                    ),
                };
                game.apply(&step).unwrap();
            }
            let kind = (entry.ending)(&game.outcome().unwrap());
            assert!(
                !kind.contains("p1")
                    && !kind.contains("p2")
                    && !kind.chars().any(|c| c.is_ascii_digit()),
                "{}: {kind}",
                entry.id
            );
            kinds.insert(kind);
        }
        assert!(!kinds.is_empty(), "{}", entry.id);
    }
    let kind = |reason: &str| {
        colosseum_games::ending_kind(&Outcome {
            winner: None,
            reason: reason.into(),
        })
    };
    assert_eq!(
        kind("p2 took more points, 7 to 3"),
        "a seat took more points"
    );
    assert_eq!(
        kind("line points are tied at 12; p1 wins on remaining hand strength, 9 to 7"),
        "line points are tied; a seat wins on remaining hand strength"
    );
}

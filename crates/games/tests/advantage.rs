//! The registry's advantage hook (`GameEntry::advantage`): a tournament gives the DM advantage to
//! the player with the most garnets through it, so every game the seeds give an advantage must
//! have one, and the options it makes must be accepted and must name the seat.

use colosseum_engine::{Pending, RawOptions, Seat};
use colosseum_games::registry;

#[test]
fn every_seed_game_has_an_advantage_hook_and_classic_goofspiel_has_none() {
    let with: Vec<&str> = registry()
        .iter()
        .filter(|e| e.advantage.is_some())
        .map(|e| e.id)
        .collect();
    assert_eq!(
        with,
        [
            "square-goofspiel",
            "thwart-omega",
            "all-in-goofspiel",
            "galespiel",
            "witchs-brew"
        ]
    );
}

#[test]
fn the_hook_sets_a_documented_option_to_the_seat_and_the_game_accepts_it() {
    for entry in registry() {
        let Some(advantage) = entry.advantage else {
            continue;
        };
        let base = RawOptions::new();
        let [a, b] = Seat::BOTH.map(|seat| advantage(&base, seat));
        assert_ne!(a, b, "{}: both seats get the same options", entry.id);
        for (seat, options) in Seat::BOTH.into_iter().zip([&a, &b]) {
            let (name, value) = options.iter().next().expect("one option set");
            assert_eq!(options.len(), 1, "{}", entry.id);
            assert!(
                entry.options.iter().any(|d| d.name == name),
                "{}: `{name}` is not one of its options",
                entry.id
            );
            assert_eq!(value.as_str(), Some(seat.as_str()), "{}", entry.id);
            (entry.create)(options).unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        }
    }
}

#[test]
fn all_in_goofspiels_advantage_holder_starts() {
    let entry = colosseum_games::find("all-in-goofspiel").unwrap();
    for seat in Seat::BOTH {
        let options = (entry.advantage.unwrap())(&RawOptions::new(), seat);
        let game = (entry.create)(&options).unwrap();
        assert_eq!(game.pending(), Pending::One(seat));
    }
}

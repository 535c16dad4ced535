//! The host draws chance from its own stream: a record's chance steps are exactly what
//! [`colosseum_engine::replay`] draws from the record's seed, whatever defaults the host made at
//! timeouts in between (what `colosseum verify` relies on).

use colosseum_engine::{Pending, Record, Seat};
use colosseum_games::{registry, replay_record};
use colosseum_host::{Match, MatchConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays `game` with the default time control: seats move at random, or let their time run out
/// (then the host picks from its generator). Returns the match when it is over.
fn play(game: &str, seed: u64) -> Match {
    let mut m = Match::new(MatchConfig {
        seed,
        ..MatchConfig::new(game)
    })
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut t = 0;
    for _ in 0..20_000 {
        if m.is_over() {
            return m;
        }
        t += 100;
        for seat in Seat::BOTH {
            if !m.game().pending().includes(seat) || m.submission(seat).is_some() {
                continue;
            }
            if rng.random_bool(0.7) {
                let mv = m.game().random_move(seat, &mut rng).unwrap();
                let _ = m.submit(seat, &mv, t);
            } else if let Some(deadline) = m.clock(seat).deadline {
                // Let the clock run out: the host moves for the seat.
                t = t.max(deadline);
                m.tick(t);
            }
        }
        if m.game().pending() == Pending::Over {
            m.tick(t);
        }
    }
    panic!("{game} did not end");
}

#[test]
fn chance_steps_are_the_seeds_draws_even_after_defaults() {
    let mut defaults = 0;
    for entry in registry() {
        for seed in 0..4 {
            let m = play(entry.id, seed);
            defaults += m.defaults().len();
            for record in m.records() {
                let stripped = Record {
                    steps: record
                        .steps
                        .iter()
                        .filter(|s| !s.is_chance())
                        .cloned()
                        .collect(),
                    ..record.clone()
                };
                let replayed = replay_record(&stripped).unwrap().unwrap();
                assert_eq!(
                    replayed.applied, record.steps,
                    "{} seed {seed}: the host's chance differs from the seed's",
                    entry.id
                );
            }
        }
    }
    assert!(
        defaults > 20,
        "the host made defaults in between ({defaults})"
    );
}

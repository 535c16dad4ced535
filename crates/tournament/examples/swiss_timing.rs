//! Times the Swiss pairing of large tournaments with random results (worst round and total).
use colosseum_tournament::{swiss, Outcome, PlayedRound};
use std::time::Instant;

fn main() {
    let mut worst = 0f64;
    let mut worst_at = (0, 0, 0);
    let mut state = 7u64;
    for players in [16usize, 33, 63, 64] {
        for seed in 0..20u64 {
            state ^= seed;
            let mut past: Vec<PlayedRound> = Vec::new();
            let rounds = if players == 16 { 15 } else { 13 };
            for r in 0..rounds {
                let t = Instant::now();
                let (round, _) = swiss::pair_present(players, &[], &past);
                let dt = t.elapsed().as_secs_f64();
                if dt > worst {
                    worst = dt;
                    worst_at = (players, seed as usize, r);
                }
                let outcomes: Vec<Outcome> = round
                    .games
                    .iter()
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        match (state >> 33) % 3 {
                            0 => Outcome::P1,
                            1 => Outcome::P2,
                            _ => Outcome::Draw,
                        }
                    })
                    .collect();
                past.push(PlayedRound::from_round(&round, &outcomes));
            }
        }
    }
    println!("worst pairing {:.3} s at {:?}", worst, worst_at);
}

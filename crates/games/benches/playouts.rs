//! Random playouts on the typed path: the time for one whole game, from a new game to the end,
//! with uniformly random moves and chance from a seeded ChaCha8 generator.
//!
//! `cargo bench -p colosseum-games --bench playouts`; docs/benchmarks.md records the numbers and
//! how they compare with OpenSpiel.

use std::hint::black_box;

use colosseum_engine::{random_playout, seeded_rng};
use colosseum_games::galespiel::{Galespiel, GalespielOptions};
use colosseum_games::goofspiel::{Goofspiel, GoofspielOptions, PrizeOrder};
use colosseum_games::square_goofspiel::{SquareGoofspiel, SquareGoofspielOptions};
use colosseum_games::thwart_omega::{ThwartOmega, ThwartOmegaOptions};
use colosseum_games::witchs_brew::{WitchsBrew, WitchsBrewOptions};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn goofspiel_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("goofspiel13");
    // One element per game, so criterion also reports games per second.
    group.throughput(Throughput::Elements(1));
    for (name, order) in [
        ("random_order", PrizeOrder::Random),
        ("descending_order", PrizeOrder::Descending),
    ] {
        let options = GoofspielOptions {
            order,
            ..GoofspielOptions::default()
        };
        assert_eq!(options.cards, 13);
        let mut rng = seeded_rng(0);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut game = Goofspiel::new(black_box(options));
                let steps = random_playout(&mut game, &mut rng);
                black_box((steps, game.points()))
            });
        });
    }
    group.finish();
}

fn thwart_omega_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("thwart_omega");
    group.throughput(Throughput::Elements(1));
    for size in [7u8, 11] {
        let options = ThwartOmegaOptions {
            size,
            ..ThwartOmegaOptions::default()
        };
        let mut rng = seeded_rng(0);
        group.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| {
                let mut game = ThwartOmega::new(black_box(options));
                black_box(random_playout(&mut game, &mut rng))
            });
        });
    }
    group.finish();
}

fn square_goofspiel_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("square_goofspiel");
    group.throughput(Throughput::Elements(1));
    // Six chance steps (the phases' cells) and 36 joint bids per game.
    let mut rng = seeded_rng(0);
    group.bench_function("default", |b| {
        b.iter(|| {
            let mut game = SquareGoofspiel::new(black_box(SquareGoofspielOptions::default()));
            let steps = random_playout(&mut game, &mut rng);
            black_box((steps, game.line_points()))
        });
    });
    group.finish();
}

fn witchs_brew_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("witchs_brew");
    group.throughput(Throughput::Elements(1));
    // The whole game: 22 simulated Cauldron rounds (draw, race, pick), the Intermission and
    // twelve Placement rounds (cards, stones, Leaps and Shifts).
    let mut rng = seeded_rng(0);
    group.bench_function("simulated_cauldron", |b| {
        b.iter(|| {
            let mut game = WitchsBrew::new(black_box(WitchsBrewOptions::default()));
            let steps = random_playout(&mut game, &mut rng);
            black_box((steps, game.points()))
        });
    });
    group.finish();
}

fn galespiel_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("galespiel");
    group.throughput(Throughput::Elements(1));
    // A cycle's chance step, item windows, joint bids, builds and upgrades until a connection or
    // a stalemate (about 60 decisions a game).
    for (name, items) in [("default", 0u8), ("elder_tree", 0b1111)] {
        let options = GalespielOptions {
            items,
            ..GalespielOptions::default()
        };
        let mut rng = seeded_rng(0);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut game = Galespiel::new(black_box(options.clone()));
                let steps = random_playout(&mut game, &mut rng);
                black_box((steps, game.rounds()))
            });
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    goofspiel_playouts,
    thwart_omega_playouts,
    square_goofspiel_playouts,
    witchs_brew_playouts,
    galespiel_playouts
);
criterion_main!(benches);

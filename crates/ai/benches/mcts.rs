//! MCTS iterations per second per game (from each game's start), and the exact solver's time
//! for classic Goofspiel N = 6, 7, 8.

use colosseum_ai::solver::GoofspielSolution;
use colosseum_ai::{Budget, Mcts, MctsConfig, Observation};
use colosseum_engine::{seeded_rng, Seat};
use colosseum_games::{
    all_in_goofspiel, galespiel, goofspiel, square_goofspiel, thwart_omega, witchs_brew,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const ITERATIONS: u32 = 2000;

fn search<G: colosseum_ai::BotGame>(c: &mut Criterion, name: &str, mut game: G) {
    // Most games start with chance (a prize, a cycle's order, a prize pair): settle it first.
    let mut rng = seeded_rng(0);
    while game.pending() == colosseum_engine::Pending::Chance {
        let outcome = game.sample_chance(&mut rng).unwrap();
        game.apply(colosseum_engine::Step::Chance(outcome)).unwrap();
    }
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    // Games with costly iterations run a share of the budget (`BotGame::SEARCH_SCALE`).
    let iterations = ((f64::from(ITERATIONS) * G::SEARCH_SCALE).round() as u64).max(1);
    group.throughput(Throughput::Elements(iterations));
    for (algo, config) in [
        ("uct", MctsConfig::uct(Budget::Iterations(ITERATIONS))),
        (
            "rm",
            MctsConfig::regret_matching(Budget::Iterations(ITERATIONS)),
        ),
        (
            // The levels' search: UCT with the opponent model.
            "level",
            MctsConfig {
                opponent_model: 0.5,
                ..MctsConfig::uct(Budget::Iterations(ITERATIONS))
            },
        ),
    ] {
        group.bench_function(BenchmarkId::new(name, algo), |b| {
            let mut rng = seeded_rng(1);
            b.iter(|| {
                let mut bot = Mcts::new(config);
                bot.strategy(&Observation::new(&game, Seat::P1, &[]), &mut rng)
            });
        });
    }
    group.finish();
}

fn mcts(c: &mut Criterion) {
    search(
        c,
        "goofspiel",
        goofspiel::Goofspiel::new(Default::default()),
    );
    search(
        c,
        "square-goofspiel",
        square_goofspiel::SquareGoofspiel::new(Default::default()),
    );
    search(
        c,
        "thwart-omega",
        thwart_omega::ThwartOmega::new(Default::default()),
    );
    search(
        c,
        "all-in-goofspiel",
        all_in_goofspiel::AllInGoofspiel::new(Default::default()),
    );
    search(
        c,
        "galespiel",
        galespiel::Galespiel::from_raw(&Default::default()).unwrap(),
    );
    search(
        c,
        "witchs-brew",
        witchs_brew::WitchsBrew::from_raw(&Default::default()).unwrap(),
    );
}

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    for n in [6, 7, 8] {
        group.bench_function(BenchmarkId::new("goofspiel", n), |b| {
            b.iter(|| GoofspielSolution::solve(n).unwrap().root_value());
        });
    }
    group.finish();
}

criterion_group!(benches, mcts, solver);
criterion_main!(benches);

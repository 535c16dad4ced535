//! The bots across every game: legal moves, determinism, honesty and strength smoke tests.

use colosseum_ai::arena::{self, ArenaConfig};
use colosseum_ai::registry::{self, BotSpec};
use colosseum_ai::{Bot, Budget, HeuristicBot, Mcts, MctsConfig, Observation, RandomBot};
use colosseum_engine::{seeded_rng, Game, RawOptions, Seat, Step};
use colosseum_games::all_in_goofspiel::{AllInGoofspiel, AllInGoofspielOptions, Play};

fn all_in_after_starter(cards: &[i8]) -> AllInGoofspiel {
    let mut game = AllInGoofspiel::new(AllInGoofspielOptions::default());
    game.apply(Step::One {
        seat: Seat::P1,
        mv: Play::new(cards).unwrap(),
    })
    .unwrap();
    game
}

/// Two states that p2 cannot tell apart (p1's face-down cards differ, their count does not):
/// every bot, from the same seed, behaves identically.
#[test]
fn bots_never_read_hidden_state() {
    let a = all_in_after_starter(&[12, 11, 10]);
    let b = all_in_after_starter(&[-3, 0, 5]);
    let view = |g: &AllInGoofspiel| {
        serde_json::to_value(g.view(colosseum_engine::Viewer::Seat(Seat::P2))).unwrap()
    };
    assert_eq!(view(&a), view(&b));
    type MakeBot = Box<dyn Fn() -> Box<dyn Bot<AllInGoofspiel>>>;
    let bots: Vec<MakeBot> = vec![
        Box::new(|| Box::new(RandomBot)),
        Box::new(|| Box::new(HeuristicBot)),
        Box::new(|| Box::new(Mcts::new(MctsConfig::uct(Budget::Iterations(300))))),
        Box::new(|| {
            Box::new(Mcts::new(MctsConfig::regret_matching(Budget::Iterations(
                300,
            ))))
        }),
    ];
    for make in &bots {
        for seed in 0..5 {
            let mut bot_a = make();
            let mut bot_b = make();
            let ma = bot_a.choose(&Observation::new(&a, Seat::P2, &[]), &mut seeded_rng(seed));
            let mb = bot_b.choose(&Observation::new(&b, Seat::P2, &[]), &mut seeded_rng(seed));
            assert_eq!(ma, mb, "{} differs with seed {seed}", bot_a.name());
        }
    }
    // The MCTS strategy itself is identical, not just the drawn move.
    let mut m1 = Mcts::new(MctsConfig::regret_matching(Budget::Iterations(500)));
    let mut m2 = m1.clone();
    let s1 = m1.strategy(&Observation::new(&a, Seat::P2, &[]), &mut seeded_rng(9));
    let s2 = m2.strategy(&Observation::new(&b, Seat::P2, &[]), &mut seeded_rng(9));
    assert_eq!(format!("{s1:?}"), format!("{s2:?}"));
}

/// Every bot of every game finishes games with legal moves (the arena checks each move and
/// would substitute a default; here nothing may be substituted), and iteration budgets make
/// matches reproducible.
#[test]
fn every_game_plays_out_with_every_bot_deterministically() {
    let specs = [
        "random",
        "heuristic",
        "mcts:iters=60,algo=uct",
        "mcts:iters=60",
    ];
    for bots in registry::bots() {
        for (i, a) in specs.iter().enumerate() {
            let b = specs[(i + 1) % specs.len()];
            let a: BotSpec = a.parse().unwrap();
            let b: BotSpec = b.parse().unwrap();
            let config = ArenaConfig {
                games: 2,
                threads: 2,
                seed: 5,
            };
            let (first, results) = bots
                .arena(&RawOptions::new(), &a, &b, config, &|_| {})
                .unwrap();
            let (second, _) = bots
                .arena(
                    &RawOptions::new(),
                    &a,
                    &b,
                    ArenaConfig {
                        threads: 1,
                        ..config
                    },
                    &|_| {},
                )
                .unwrap();
            assert_eq!(first.games, 2);
            assert_eq!(
                (first.wins, first.draws, first.losses),
                (second.wins, second.draws, second.losses),
                "{}: {a} vs {b} is not reproducible",
                bots.id()
            );
            for r in &results {
                let replayed = colosseum_games::replay_record(&r.record).unwrap().unwrap();
                assert!(replayed.game.outcome().is_some(), "{}", bots.id());
            }
        }
    }
}

#[test]
fn heuristic_beats_random_in_every_game_that_has_one() {
    // Games without a heuristic of their own (Galespiel, The Witch's Brew) fall back to a generic
    // lookahead that is not expected to beat random; `colosseum bots` lists them as such.
    for bots in registry::bots().iter().filter(|b| b.heuristic().is_some()) {
        let config = ArenaConfig {
            games: 40,
            threads: 2,
            seed: 1,
        };
        let (report, _) = bots
            .arena(
                &RawOptions::new(),
                &BotSpec::Heuristic,
                &BotSpec::Random,
                config,
                &|_| {},
            )
            .unwrap();
        assert!(
            report.decided_win_share.estimate >= 0.7,
            "{}: heuristic won {} of {} decided games",
            bots.id(),
            report.wins,
            report.wins + report.losses
        );
    }
}

#[test]
fn mcts_beats_random_at_goofspiel() {
    let bots = registry::find("goofspiel").unwrap();
    let (report, _) = bots
        .arena(
            &colosseum_engine::parse_pairs(["cards=6"]).unwrap(),
            &"mcts:iters=400".parse().unwrap(),
            &BotSpec::Random,
            ArenaConfig {
                games: 40,
                threads: 2,
                seed: 3,
            },
            &|_| {},
        )
        .unwrap();
    assert!(report.decided_win_share.estimate >= 0.75, "{report:?}");
    let _ = arena::wilson(1, 2);
}

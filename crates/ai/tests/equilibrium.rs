//! The levels seek equilibria: regret-matching search converges to the exact solution of small
//! Goofspiel, `hard` plays the solved strategy where the game is solved, and no level models its
//! opponent.

use colosseum_ai::registry::{self, BotSpec, LEVELS};
use colosseum_ai::solver::{goofspiel_win_loss, GoofspielWinLoss};
use colosseum_ai::{Budget, Mcts, MctsConfig, Observation, Selection};
use colosseum_engine::{seeded_rng, Game, RawOptions, Seat, Step};
use colosseum_games::goofspiel::{Goofspiel, GoofspielOptions, PrizeOrder, ReturnsType};

fn goofspiel(cards: u8) -> Goofspiel {
    Goofspiel::new(GoofspielOptions {
        cards,
        order: PrizeOrder::Descending,
        returns: ReturnsType::WinLoss,
    })
}

/// The worst value (for `p1`, win 1, draw ½, loss 0) that `p1`'s root strategy guarantees
/// against every pure reply of `p2`, with the exact values of the positions after the first
/// bids.
fn guaranteed(n: u32, strategy: &[(u8, f64)]) -> f64 {
    let mut exact = GoofspielWinLoss::solve(n, false).unwrap();
    let full = (1u32 << n) - 1;
    (1..=n)
        .map(|y| {
            strategy
                .iter()
                .map(|&(x, p)| {
                    let x = u32::from(x);
                    let diff = match x.cmp(&y) {
                        std::cmp::Ordering::Greater => n as i32,
                        std::cmp::Ordering::Less => -(n as i32),
                        std::cmp::Ordering::Equal => 0,
                    };
                    p * exact
                        .value(full & !(1 << (x - 1)), full & !(1 << (y - 1)), diff)
                        .unwrap()
                })
                .sum::<f64>()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Regret matching's root average strategy in Goofspiel(4) (descending prizes, played to win)
/// comes within a small margin of the game's value (½) against every reply, where the old
/// levels' decoupled UCT with the opponent model does not.
#[test]
fn regret_matching_converges_to_the_equilibrium_of_small_goofspiel() {
    let n = 4;
    let game = goofspiel(n as u8);
    let observation = Observation::new(&game, Seat::P1, &[]);
    let mut rm = Mcts::new(MctsConfig::regret_matching(Budget::Iterations(20_000)));
    let strategy = rm.strategy(&observation, &mut seeded_rng(3));
    let total: f64 = strategy.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9, "{strategy:?}");
    let value = guaranteed(n, &strategy);
    assert!(value > 0.5 - 0.04, "rm guarantees {value}: {strategy:?}");

    let mut old = Mcts::new(MctsConfig {
        opponent_model: 0.5,
        ..MctsConfig::uct(Budget::Iterations(20_000))
    });
    let strategy = old.strategy(&observation, &mut seeded_rng(3));
    let old_value = guaranteed(n, &strategy);
    assert!(
        old_value < value,
        "uct with a model guarantees {old_value}, rm {value}"
    );
}

/// Goofspiel(2) (prizes 2 then 1, played to win): bidding the 2 first weakly dominates, and the
/// root average strategy converges to the solver's equilibrium, which bids it.
#[test]
fn regret_matching_finds_the_equilibrium_of_goofspiel_two() {
    let game = goofspiel(2);
    let exact = goofspiel_win_loss(2, false).unwrap();
    let nash = exact.strategy(0b11, 0b11, 0, Seat::P1).unwrap();
    let mut rm = Mcts::new(MctsConfig::regret_matching(Budget::Iterations(5000)));
    let strategy = rm.strategy(&Observation::new(&game, Seat::P1, &[]), &mut seeded_rng(1));
    for (card, p) in nash {
        let q = strategy
            .iter()
            .find(|(c, _)| u32::from(*c) == card)
            .map_or(0.0, |(_, q)| *q);
        assert!((p - q).abs() < 0.1, "card {card}: exact {p}, search {q}");
    }
}

/// `hard` plays a card of the solved strategy's support at positions reached by random play in
/// Goofspiel with at most 6 cards and fixed prizes, for both seats.
#[test]
fn hard_plays_the_solved_strategy_in_small_goofspiel() {
    let spec: BotSpec = "mcts:hard".parse().unwrap();
    let mut rng = seeded_rng(11);
    for n in [3u8, 4] {
        let exact = goofspiel_win_loss(u32::from(n), false).unwrap();
        for seed in 0..6 {
            let mut game = goofspiel(n);
            let mut raw = RawOptions::new();
            raw.insert("cards".into(), serde_json::json!(n));
            raw.insert("order".into(), serde_json::json!("descending"));
            let mut bot =
                registry::make_bot::<Goofspiel>(&spec, "goofspiel", &raw).expect("a search bot");
            let mut game_rng = seeded_rng(seed);
            while !game.is_over() {
                let bits = |s: Seat| game.hand(s).iter().fold(0u32, |b, c| b | 1 << (c - 1));
                let [a, b] = game.points();
                let diff = a as i32 - b as i32;
                let mut moves = [0u8; 2];
                for seat in Seat::BOTH {
                    let mv = bot.choose(&Observation::new(&game, seat, &[]), &mut rng);
                    if let Some(strategy) =
                        exact.strategy(bits(Seat::P1), bits(Seat::P2), diff, seat)
                    {
                        let p = strategy
                            .iter()
                            .find(|(c, _)| *c == u32::from(mv))
                            .map_or(0.0, |(_, p)| *p);
                        assert!(p > 1e-9, "N = {n}, {seat}: {mv} is outside {strategy:?}");
                    }
                    moves[seat.index()] = game.random_move(seat, &mut game_rng).unwrap();
                }
                game.apply(Step::Both {
                    p1: moves[0],
                    p2: moves[1],
                })
                .unwrap();
            }
        }
    }
}

/// Every level is regret matching without an opponent model; only `hard` plays solved games
/// exactly; a model stays available by name.
#[test]
fn levels_seek_equilibria() {
    for (level, _) in LEVELS {
        let BotSpec::Mcts(config) = format!("mcts:{level}").parse().unwrap() else {
            panic!("{level} is not a search");
        };
        assert_eq!(config.opponent_model, 0.0, "{level}");
        assert!(
            matches!(config.selection, Selection::RegretMatching { .. }),
            "{level}"
        );
        assert_eq!(config.exact, *level == "hard");
        let Budget::Iterations(n) = config.budget else {
            panic!("{level} has a time budget");
        };
        assert!(
            n <= 50_000,
            "{level}: {n} iterations is above the server's cap"
        );
    }
    let BotSpec::Mcts(modelled) = "mcts:iters=5000,model=0.5,algo=uct".parse().unwrap() else {
        panic!("not a search");
    };
    assert_eq!(modelled.opponent_model, 0.5);
}

//! `hard` and the analysis in classic Goofspiel with descending prizes and point-difference
//! returns play and value from the solved table (`colosseum_ai::shared_table`): the bot's
//! reported strategy is the table's at sampled states, and the analysis of a recorded match
//! gives the exact values of a fresh, independent solve.

use colosseum_ai::analysis::{AnalysisConfig, Mark, Method, INACCURACY};
use colosseum_ai::registry::{self, BotSpec};
use colosseum_ai::table::GoofspielTable;
use colosseum_ai::{Bot, Budget, Mcts, MctsConfig, Observation};
use colosseum_engine::{parse_pairs, seeded_rng, Game, Pending, Record, Seat, Step, TextStep};
use colosseum_games::goofspiel::Goofspiel;
use rand::Rng;

fn bits(hand: impl IntoIterator<Item = u8>) -> u32 {
    hand.into_iter().fold(0, |b, c| b | 1 << (c - 1))
}

fn options(n: u32) -> colosseum_engine::RawOptions {
    parse_pairs(
        [
            format!("cards={n}"),
            "order=descending".to_string(),
            "returns=point_difference".to_string(),
        ]
        .iter()
        .map(String::as_str),
    )
    .unwrap()
}

fn hard() -> MctsConfig {
    match "mcts:hard".parse::<BotSpec>().unwrap() {
        BotSpec::Mcts(config) => config,
        other => panic!("hard is a search, not {other}"),
    }
}

/// A card drawn from `strategy`.
fn draw(strategy: &[(u32, f64)], rng: &mut impl Rng) -> u32 {
    let mut u: f64 = rng.random();
    for &(c, p) in strategy {
        if u < p {
            return c;
        }
        u -= p;
    }
    strategy.iter().rev().find(|(_, p)| *p > 0.0).unwrap().0
}

/// At every decision of 30 games of 8 cards (both seats drawing from the table, so the states
/// are the ones play reaches, and a share of random cards, so off the equilibrium's path too),
/// `hard`'s reported mixed strategy for each seat is the table's at that pair of hands, with no
/// search run.
#[test]
fn hard_reports_the_tables_strategy_at_sampled_states() {
    let n = 8u32;
    let fresh = GoofspielTable::solve(n, 1, &|_| {}).unwrap();
    let mut rng = seeded_rng(3);
    let mut compared = 0;
    for _ in 0..30 {
        let mut game = Goofspiel::from_raw(&options(n)).unwrap();
        while game.pending() == Pending::Both {
            let mut cards = [0u32; 2];
            for seat in [Seat::P1, Seat::P2] {
                let (mine, theirs) = (
                    bits(game.hand(seat).iter()),
                    bits(game.hand(seat.other()).iter()),
                );
                let expected = fresh.strategy(mine, theirs).unwrap();
                let observation = Observation::new(&game, seat, &[]);
                let mut bot = Mcts::new(hard());
                let reported = bot
                    .mixed_strategy(&observation, &mut seeded_rng(compared))
                    .expect("hard reports its strategy");
                assert_eq!(
                    bot.last_search().iterations,
                    0,
                    "the table is played, not searched"
                );
                let support: Vec<_> = expected.iter().filter(|(_, p)| *p > 0.0).collect();
                assert_eq!(
                    reported.len(),
                    support.len(),
                    "{seat} at {mine:#b}/{theirs:#b}"
                );
                for (card, p) in &reported {
                    let q = support
                        .iter()
                        .find(|(c, _)| *c == u32::from(*card))
                        .unwrap_or_else(|| panic!("{card} is outside the table's support"))
                        .1;
                    assert!(
                        (p - q).abs() < 1e-12,
                        "{seat} card {card}: bot {p}, table {q}"
                    );
                }
                compared += 1;
                cards[seat.index()] = if rng.random_bool(0.2) {
                    let hand: Vec<u8> = game.hand(seat).iter().collect();
                    u32::from(hand[rng.random_range(0..hand.len())])
                } else {
                    draw(&expected, &mut rng)
                };
            }
            game.apply(Step::Both {
                p1: cards[0] as u8,
                p2: cards[1] as u8,
            })
            .unwrap();
        }
    }
    assert!(compared >= 30 * 2 * n as u64);
}

/// The analysis of a recorded 10-card match (p1 plays the table's most likely card, p2 a random
/// card) gives at every decision, for both seats, the exact values of a fresh solve: the
/// expected points difference before the decision (the difference so far plus the position's
/// value), the played card's value against the other seat's equilibrium strategy, its cost, and
/// the marks by the thresholds on the range of N (N + 1) points.
#[test]
fn the_analysis_of_a_ten_card_match_gives_the_exact_values() {
    let n = 10u32;
    let range = f64::from(n * (n + 1));
    let fresh = GoofspielTable::solve(n, 1, &|_| {}).unwrap();
    let mut rng = seeded_rng(11);
    let (mut h1, mut h2): (u32, u32) = ((1 << n) - 1, (1 << n) - 1);
    let mut record = Record::new("goofspiel", options(n), 0);
    // Per decision: the points difference so far and both cards.
    let mut path = Vec::new();
    let mut diff = 0.0;
    for k in (1..=n).rev() {
        let s1 = fresh.strategy(h1, h2).unwrap();
        let x = s1
            .iter()
            .fold(
                (0, -1.0),
                |b, &(c, p)| if p > b.1 + 1e-9 { (c, p) } else { b },
            )
            .0;
        let hand2: Vec<u32> = (1..=n).filter(|c| h2 & 1 << (c - 1) != 0).collect();
        let y = hand2[rng.random_range(0..hand2.len())];
        record
            .steps
            .push(TextStep::both(x.to_string(), y.to_string()));
        path.push((diff, h1, h2, x, y));
        diff += f64::from(k) * f64::from(i32::from(x > y) - i32::from(x < y));
        h1 &= !(1 << (x - 1));
        h2 &= !(1 << (y - 1));
    }
    let config = AnalysisConfig {
        engine: MctsConfig::regret_matching(Budget::Iterations(10)),
        runs: 1,
        seed: 1,
    };
    let analysis = registry::find("goofspiel")
        .unwrap()
        .analyse(&record, &config, &|_, _| {})
        .unwrap();
    assert_eq!(analysis.points_range, Some(range));
    assert_eq!(analysis.decisions.len(), n as usize);
    // The value for the holder of `mine` of playing `card` against `theirs`' equilibrium.
    let card_value = |mine: u32, theirs: u32, card: u32| -> f64 {
        let k = f64::from(mine.count_ones());
        fresh
            .strategy(theirs, mine)
            .unwrap()
            .iter()
            .filter(|(_, q)| *q > 0.0)
            .map(|&(reply, q)| {
                let won = k * f64::from(i32::from(card > reply) - i32::from(card < reply));
                q * (won
                    + fresh
                        .value(mine & !(1 << (card - 1)), theirs & !(1 << (reply - 1)))
                        .unwrap())
            })
            .sum()
    };
    let mut largest: f64 = 0.0;
    for (decision, &(diff, h1, h2, x, y)) in analysis.decisions.iter().zip(&path) {
        for seat in &decision.seats {
            let (sign, mine, theirs, card) = match seat.seat {
                Seat::P1 => (1.0, h1, h2, x),
                Seat::P2 => (-1.0, h2, h1, y),
            };
            assert_eq!(seat.method, Method::Exact);
            let expected = sign * diff + fresh.value(mine, theirs).unwrap();
            let played = sign * diff + card_value(mine, theirs, card);
            let e = seat.expected_points.unwrap();
            assert!(
                (e - expected).abs() < 1e-9,
                "decision {}: {e} vs {expected}",
                decision.index
            );
            assert!((seat.expected - (0.5 + expected / range)).abs() < 1e-12);
            let p = seat.played_points.unwrap();
            assert!(
                (p - played).abs() < 1e-9,
                "decision {}: {p} vs {played}",
                decision.index
            );
            let cost = (expected - played).max(0.0);
            let c = seat.cost_points.unwrap();
            // Costs below 1e-7 of the range are reported as 0.
            assert!(
                (c - cost).abs() < 1e-9 || (c == 0.0 && cost < 1e-7 * range),
                "{c} vs {cost}"
            );
            assert_eq!(seat.mark, Mark::of(c / range));
            if seat.mark.is_some() {
                assert!(c / range >= INACCURACY);
            }
            largest = largest.max(c);
            let best = seat.recommended.first().unwrap();
            assert_eq!(best.mv, seat.best);
        }
        assert!((decision.p1_expected - decision.seats[0].expected).abs() < 1e-12);
    }
    // p2's random cards cost points somewhere: the costs compared are not all 0.
    assert!(largest > 1.0, "the largest cost is {largest} points");
}

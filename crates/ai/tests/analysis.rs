//! The analysis after the game (`colosseum analyse`): exact costs in solved classic Goofspiel,
//! and an analysis of a record of every game.

use colosseum_ai::analysis::{AnalysisConfig, Mark, Method, BLUNDER};
use colosseum_ai::arena::ArenaConfig;
use colosseum_ai::registry::{self, BotSpec};
use colosseum_ai::solver::GoofspielWinLoss;
use colosseum_ai::{Budget, MctsConfig};
use colosseum_engine::{parse_pairs, Record, Seat, TextStep};

fn bits(cards: &[u32]) -> u32 {
    cards.iter().fold(0, |b, c| b | 1 << (c - 1))
}

/// The card of `strategy` with the largest probability (the lowest such card).
fn top(strategy: &[(u32, f64)]) -> u32 {
    strategy
        .iter()
        .fold(
            (0, -1.0),
            |best, &(c, p)| if p > best.1 + 1e-9 { (c, p) } else { best },
        )
        .0
}

fn config(iterations: u32, runs: u32) -> AnalysisConfig {
    AnalysisConfig {
        engine: MctsConfig::regret_matching(Budget::Iterations(iterations)),
        runs,
        seed: 7,
    }
}

/// Classic Goofspiel, 5 cards, prizes descending, played to win: `p1` plays the exact
/// solution's most likely card throughout; `p2` too, except at one decision where it plays a
/// card that costs it at least a blunder's threshold against `p1`'s equilibrium. The analysis
/// marks exactly that move, with exactly the cost computed here from a solution of our own.
#[test]
fn a_known_blunder_is_marked_with_its_exact_cost() {
    let n = 5u32;
    let mut solution = GoofspielWinLoss::solve(n, false).unwrap();
    let mut found = None;
    // Look for a decision and a card that make a blunder, with both seats on the solution's
    // path before it.
    'search: for at in 0..n as usize {
        let (mut h1, mut h2): (Vec<u32>, Vec<u32>) = ((1..=n).collect(), (1..=n).collect());
        let mut diff = 0i32;
        let mut steps = Vec::new();
        for k in 0..n as usize {
            let prize = (n as usize - k) as i32;
            let (b1, b2) = (bits(&h1), bits(&h2));
            // Where the result is already certain (not solved), every card is as good.
            let uniform = |h: &[u32]| h.iter().map(|&c| (c, 1.0 / h.len() as f64)).collect();
            let s1: Vec<(u32, f64)> = solution
                .strategy(b1, b2, diff, Seat::P1)
                .unwrap_or_else(|| uniform(&h1));
            let s2: Vec<(u32, f64)> = solution
                .strategy(b1, b2, diff, Seat::P2)
                .unwrap_or_else(|| uniform(&h2));
            let x = top(&s1);
            let mut y = top(&s2);
            if k == at {
                let value = solution.value(b1, b2, diff).unwrap();
                // p2's cost of card c: its value (1 - v) minus its result against p1's strategy.
                let mut worst = None;
                for &c in &h2 {
                    let mut against = 0.0;
                    for &(card, p) in &s1 {
                        let d = diff + prize * (card.cmp(&c) as i32);
                        let child = solution
                            .value(b1 & !(1 << (card - 1)), b2 & !(1 << (c - 1)), d)
                            .unwrap();
                        against += p * child;
                    }
                    let cost = against - value;
                    if cost >= BLUNDER && worst.is_none_or(|(_, w)| cost > w) {
                        worst = Some((c, cost));
                    }
                }
                let Some((c, cost)) = worst else {
                    continue 'search;
                };
                y = c;
                found = Some((k, cost));
            }
            steps.push(TextStep::both(x.to_string(), y.to_string()));
            diff += prize * (x.cmp(&y) as i32);
            h1.retain(|&c| c != x);
            h2.retain(|&c| c != y);
        }
        if let Some((k, cost)) = found {
            let record = Record {
                steps,
                ..Record::new(
                    "goofspiel",
                    parse_pairs(["cards=5", "order=descending"]).unwrap(),
                    0,
                )
            };
            let analysis = registry::find("goofspiel")
                .unwrap()
                .analyse(&record, &config(50, 1), &|_, _| {})
                .unwrap();
            assert_eq!(analysis.decisions.len(), n as usize);
            let mut marked = Vec::new();
            for d in &analysis.decisions {
                assert_eq!(d.seats.len(), 2);
                for s in &d.seats {
                    assert_eq!(s.method, Method::Exact, "decision {}", d.index);
                    if s.mark.is_some() {
                        marked.push((d.index, s.seat, s.mark, s.cost));
                    }
                }
            }
            assert_eq!(marked.len(), 1, "{marked:?}");
            let (index, seat, mark, got) = marked[0];
            assert_eq!((index, seat, mark), (k, Seat::P2, Some(Mark::Blunder)));
            assert!((got - cost).abs() < 1e-9, "cost {got}, exactly {cost}");
            // The blunder is the largest swing of the evaluation.
            let turning = &analysis.turning_points[0];
            assert_eq!(turning.decision, k);
            assert!((turning.swing - cost).abs() < 1e-9, "{turning:?}");
            // p1's expected result before the first decision is the game's value, ½.
            assert!((analysis.decisions[0].p1_expected - 0.5).abs() < 1e-9);
            return;
        }
    }
    panic!("no blunder found in Goofspiel(5)");
}

/// A random game of every registered game, analysed with a small search budget: one decision
/// object per decision, each acting seat analysed from its own view with the move it played,
/// values between 0 and 1, costs never negative, and the JSON has every field.
#[test]
fn every_game_has_an_analysis() {
    for entry in colosseum_games::registry() {
        let bots = registry::find(entry.id).unwrap();
        let options = parse_pairs(std::iter::empty::<&str>()).unwrap();
        let (_, results) = bots
            .arena(
                &options,
                &BotSpec::Random,
                &BotSpec::Random,
                ArenaConfig {
                    games: 1,
                    threads: 1,
                    seed: 3,
                },
                &|_| {},
            )
            .unwrap();
        let record = &results[0].record;
        let analysis = bots.analyse(record, &config(20, 2), &|_, _| {}).unwrap();
        let decisions: Vec<_> = record
            .steps
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_chance())
            .collect();
        assert_eq!(analysis.decisions.len(), decisions.len(), "{}", entry.id);
        for (d, (step, text)) in analysis.decisions.iter().zip(&decisions) {
            assert_eq!(d.step, *step, "{}", entry.id);
            assert!((0.0..=1.0).contains(&d.p1_expected), "{}: {d:?}", entry.id);
            for s in &d.seats {
                assert_eq!(Some(s.played.as_str()), text.slot(s.seat), "{}", entry.id);
                assert!(
                    s.cost >= 0.0 && (0.0..=1.0).contains(&s.expected),
                    "{}: {s:?}",
                    entry.id
                );
                if s.method == Method::Search {
                    assert!(s.expected_error.is_some() && s.cost_error.is_some());
                }
            }
        }
        let json = serde_json::to_value(&analysis).unwrap();
        assert_eq!(json["game"], entry.id);
        assert_eq!(json["runs"], 2);
        let first = &json["decisions"][0];
        for key in ["index", "step", "seats", "p1_expected"] {
            assert!(!first[key].is_null(), "{}: no {key} in {first}", entry.id);
        }
        for key in [
            "seat",
            "method",
            "expected",
            "recommended",
            "best",
            "played",
            "cost",
        ] {
            assert!(
                !first["seats"][0][key].is_null(),
                "{}: no {key} in {first}",
                entry.id
            );
        }
        assert!(json["information"].as_str().unwrap().contains("view"));
    }
}

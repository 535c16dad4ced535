//! Analysis after the game: every decision of a match record valued by an engine.
//!
//! For each decision and each seat acting in it, the analysis gives the seat's expected result
//! before it (for the seat: a win 1, a draw ½, a loss 0, the scale every game's result is
//! counted on), the engine's recommended strategy (mixed where it mixes), the move played, what
//! it cost in expected result and a mark ([`Mark`]) by thresholds that are fractions of the
//! result range (0 to 1). A seat's decision is analysed from that seat's observation only
//! ([`Observation::from_record`]: the search plans on determinizations consistent with what the
//! seat saw, as the bots do).
//!
//! * **Exact** where the game from the position is solved ([`BotGame::exact_value`]: classic
//!   Goofspiel with fixed prizes and at most [`crate::solver::GOOFSPIEL_EXACT_MAX`] cards,
//!   Square Goofspiel's last phase): the expected result is the position's value, a move's value
//!   is its expected result against the other seat's equilibrium strategy, and its cost is the
//!   value of the best reply (the position's value) minus the move's.
//! * **Search** elsewhere: [`Mcts::root_estimate`] with the engine's budget, repeated
//!   [`AnalysisConfig::runs`] times from different seeds. The expected result is the root
//!   strategy's mean result, a move's value its mean result at the root, and the cost the
//!   expected result minus the played move's value (at least 0); each comes with its standard
//!   deviation over the runs, and a mark needs the cost minus that deviation to reach the
//!   threshold.

use colosseum_engine::{seeded_rng, Erased, Pending, Seat, TextStep};
use serde::Serialize;

use crate::{BotGame, Mcts, MctsConfig, Observation};

/// A cost of at least this share of the result range is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// A cost of at least this share of the result range is a mistake.
pub const MISTAKE: f64 = 0.10;
/// A cost of at least this share of the result range is a blunder.
pub const BLUNDER: f64 = 0.20;
/// How many times each searched decision is searched (the error band's runs).
pub const DEFAULT_RUNS: u32 = 3;
/// How many turning points are listed at most.
pub const TURNING_POINTS: usize = 3;

/// What the analysis says about where its information comes from.
pub const INFORMATION: &str = "each seat's decisions are analysed from that seat's view only: the search plans on states consistent with what the seat had seen, as the bots do";

/// The unit of results that are a win, a draw or a loss.
pub const WIN_UNIT: &str = "expected result for the seat: a win 1, a draw 1/2, a loss 0";

/// The unit of results that are a points difference ([`BotGame::points_range`]).
pub const POINTS_UNIT: &str = "expected points difference for the seat d, as 1/2 + d / points_range (a loss by every point 0, a draw 1/2, a win by every point 1); the same in points in expected_points, played_points and cost_points";

/// How to analyse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnalysisConfig {
    /// The search used where the position is not solved exactly.
    pub engine: MctsConfig,
    /// How many runs per searched decision (at least 1).
    pub runs: u32,
    /// The seed the searches are drawn from.
    pub seed: u64,
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// A cost of at least [`INACCURACY`].
    Inaccuracy,
    /// A cost of at least [`MISTAKE`].
    Mistake,
    /// A cost of at least [`BLUNDER`].
    Blunder,
}

impl Mark {
    /// The mark of a move that cost `cost` (`None`: below every threshold).
    #[must_use]
    pub fn of(cost: f64) -> Option<Mark> {
        if cost >= BLUNDER {
            Some(Mark::Blunder)
        } else if cost >= MISTAKE {
            Some(Mark::Mistake)
        } else if cost >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// How a seat's decision was valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// From the exact solution.
    Exact,
    /// From repeated searches.
    Search,
}

/// A move the engine recommends, with its probability and value for the seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its probability in the engine's strategy.
    pub probability: f64,
    /// Its expected result for the seat (`None`: not valued).
    pub value: Option<f64>,
}

/// One seat's part of a decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatDecision {
    /// The seat.
    pub seat: Seat,
    /// Exact or search.
    pub method: Method,
    /// The seat's expected result before the decision (for the seat, 0 to 1).
    pub expected: f64,
    /// The standard deviation of `expected` over the runs (search only).
    pub expected_error: Option<f64>,
    /// The engine's strategy: moves with probability at least 1%, most likely first.
    pub recommended: Vec<Choice>,
    /// The engine's choice: the most likely move of its strategy.
    pub best: String,
    /// The move played.
    pub played: String,
    /// The played move's expected result for the seat (`None`: not valued).
    pub played_value: Option<f64>,
    /// What the move cost in expected result (at least 0).
    pub cost: f64,
    /// The standard deviation of `cost` over the runs (search only).
    pub cost_error: Option<f64>,
    /// The mark, if any.
    pub mark: Option<Mark>,
    /// Where the result is a points difference ([`BotGame::points_range`]): `expected` in
    /// points, the seat's expected final difference (its points minus the other's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_points: Option<f64>,
    /// `played_value` in points, likewise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played_points: Option<f64>,
    /// `cost` in points, likewise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_points: Option<f64>,
}

/// One decision of the match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decision {
    /// The decision's number (0 for the first), chance steps not counted.
    pub index: usize,
    /// The step's index in the record's steps (every chance step counted).
    pub step: usize,
    /// Each acting seat's analysis.
    pub seats: Vec<SeatDecision>,
    /// `p1`'s expected result before the decision: `p1`'s own where it acts, else one minus
    /// `p2`'s (the evaluation graph).
    pub p1_expected: f64,
}

/// One of the largest swings of `p1`'s expected result between consecutive decisions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurningPoint {
    /// The decision after which the swing shows (its number).
    pub decision: usize,
    /// `p1`'s expected result before that decision.
    pub before: f64,
    /// `p1`'s expected result before the next one.
    pub after: f64,
    /// `after - before`.
    pub swing: f64,
}

/// The thresholds of the marks, as fractions of the result range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Thresholds {
    /// See [`INACCURACY`].
    pub inaccuracy: f64,
    /// See [`MISTAKE`].
    pub mistake: f64,
    /// See [`BLUNDER`].
    pub blunder: f64,
}

/// A whole match's analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The game's id.
    pub game: String,
    /// The engine (its canonical name) used where nothing is solved.
    pub engine: String,
    /// Searches per searched decision.
    pub runs: u32,
    /// The result's unit.
    pub unit: &'static str,
    /// Where the result is a points difference ([`BotGame::points_range`]): its range `R` in
    /// points; an expected result `e` is the difference `(e − ½) · R` for the seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points_range: Option<f64>,
    /// Where each seat's information comes from ([`INFORMATION`]).
    pub information: &'static str,
    /// The marks' thresholds.
    pub thresholds: Thresholds,
    /// Every decision, in order.
    pub decisions: Vec<Decision>,
    /// The largest swings, largest first.
    pub turning_points: Vec<TurningPoint>,
}

impl Analysis {
    /// An analysis of `decisions` with its turning points.
    #[must_use]
    pub fn new(
        game: &str,
        engine: String,
        runs: u32,
        points_range: Option<f64>,
        decisions: Vec<Decision>,
    ) -> Self {
        let turning_points = turning_points(&decisions);
        Analysis {
            game: game.to_string(),
            engine,
            runs,
            unit: if points_range.is_some() {
                POINTS_UNIT
            } else {
                WIN_UNIT
            },
            points_range,
            information: INFORMATION,
            thresholds: Thresholds {
                inaccuracy: INACCURACY,
                mistake: MISTAKE,
                blunder: BLUNDER,
            },
            decisions,
            turning_points,
        }
    }
}

/// The largest swings of `p1`'s expected result (at least an inaccuracy's), largest first.
#[must_use]
pub fn turning_points(decisions: &[Decision]) -> Vec<TurningPoint> {
    let mut points: Vec<TurningPoint> = decisions
        .windows(2)
        .map(|w| TurningPoint {
            decision: w[0].index,
            before: w[0].p1_expected,
            after: w[1].p1_expected,
            swing: w[1].p1_expected - w[0].p1_expected,
        })
        .filter(|t| t.swing.abs() >= INACCURACY)
        .collect();
    points.sort_by(|a, b| b.swing.abs().total_cmp(&a.swing.abs()));
    points.truncate(TURNING_POINTS);
    points
}

/// Why a record cannot be analysed.
#[derive(Debug, thiserror::Error)]
#[error("step {index} ({step}) does not fit the game: {why}")]
pub struct AnalysisError {
    /// The step's index.
    pub index: usize,
    /// The step.
    pub step: TextStep,
    /// Why.
    pub why: String,
}

/// Analyses every decision of `steps` (every chance step included, as a replay applies them)
/// played from `initial`; `progress(done, total)` is called after each decision.
pub fn analyse<G: BotGame>(
    initial: G,
    steps: &[TextStep],
    config: &AnalysisConfig,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<Decision>, AnalysisError> {
    let total = steps.iter().filter(|s| !s.is_chance()).count();
    let mut game = Erased(initial);
    let mut decisions = Vec::with_capacity(total);
    for (i, step) in steps.iter().enumerate() {
        let fail = |why: String| AnalysisError {
            index: i,
            step: step.clone(),
            why,
        };
        if !step.is_chance() {
            let state = &game.0;
            let pending = state.pending();
            let mut seats = Vec::new();
            for &seat in pending.seats() {
                let text = step
                    .slot(seat)
                    .ok_or_else(|| fail(format!("{seat} acts but the step has no move for it")))?;
                let played = state
                    .parse_move(seat, text)
                    .map_err(|e| fail(e.to_string()))?;
                let seed = crate::arena::game_seed(
                    config.seed,
                    (decisions.len() as u32) * 2 + seat.index() as u32,
                );
                let analysed = exact_seat(state, seat, &played).unwrap_or_else(|| {
                    let observation = Observation::from_record(state, seat, &steps[..i]);
                    search_seat(&observation, &played, config, seed)
                });
                seats.push(analysed);
            }
            let p1_expected = match seats.iter().find(|s| s.seat == Seat::P1) {
                Some(s) => s.expected,
                None => seats.first().map_or(0.5, |s| 1.0 - s.expected),
            };
            decisions.push(Decision {
                index: decisions.len(),
                step: i,
                seats,
                p1_expected,
            });
            progress(decisions.len(), total);
        }
        colosseum_engine::AnyGame::apply(&mut game, step).map_err(|e| fail(e.to_string()))?;
    }
    Ok(decisions)
}

/// `p1`'s value after the joint move, exactly, if known.
fn exact_child<G: BotGame>(state: &G, p1: &G::Move, p2: &G::Move) -> Option<f64> {
    let mut next = state.clone();
    next.apply(colosseum_engine::Step::Both {
        p1: p1.clone(),
        p2: p2.clone(),
    })
    .ok()?;
    match next.pending() {
        // A result in points is the points difference, not the win.
        Pending::Over if next.points_range().is_some() => next.exact_value(),
        Pending::Over => next.outcome().map(|o| crate::p1_value(&o)),
        _ => next.exact_value(),
    }
}

/// The exact analysis of `seat`'s move at a solved simultaneous position, or `None`.
fn exact_seat<G: BotGame>(state: &G, seat: Seat, played: &G::Move) -> Option<SeatDecision> {
    if G::HIDDEN_INFORMATION || state.pending() != Pending::Both {
        return None;
    }
    let value = state.exact_value()?;
    let strategy = |s: Seat| state.equilibrium(s).or_else(|| state.endgame(s));
    let mine = strategy(seat)?;
    let theirs = strategy(seat.other())?;
    let for_seat = |v: f64| if seat == Seat::P1 { v } else { 1.0 - v };
    // The expected result of `mv` for the seat against the other seat's equilibrium.
    let move_value = |mv: &G::Move| -> Option<f64> {
        let mut total = 0.0;
        for (reply, q) in theirs.iter().filter(|(_, q)| *q > 0.0) {
            let v = if seat == Seat::P1 {
                exact_child(state, mv, reply)?
            } else {
                exact_child(state, reply, mv)?
            };
            total += q * v;
        }
        Some(for_seat(total))
    };
    let expected = for_seat(value);
    let played_value = move_value(played)?;
    let mut recommended: Vec<Choice> = mine
        .iter()
        .filter(|(_, p)| *p >= 0.01)
        .map(|(m, p)| Choice {
            mv: state.format_move(m),
            probability: *p,
            value: move_value(m),
        })
        .collect();
    recommended.sort_by(|a, b| b.probability.total_cmp(&a.probability));
    let cost = (expected - played_value).max(0.0);
    // Below the LP's accuracy a cost is no cost.
    let cost = if cost < 1e-7 { 0.0 } else { cost };
    let range = state.points_range();
    let points = |v: f64| range.map(|r| (v - 0.5) * r);
    Some(SeatDecision {
        seat,
        method: Method::Exact,
        expected,
        expected_error: None,
        best: recommended
            .first()
            .map(|c| c.mv.clone())
            .unwrap_or_default(),
        recommended,
        played: state.format_move(played),
        played_value: Some(played_value),
        cost,
        cost_error: None,
        mark: Mark::of(cost),
        expected_points: points(expected),
        played_points: points(played_value),
        cost_points: range.map(|r| cost * r),
    })
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// The searched analysis of the observation's seat playing `played`.
fn search_seat<G: BotGame>(
    observation: &Observation<'_, G>,
    played: &G::Move,
    config: &AnalysisConfig,
    seed: u64,
) -> SeatDecision {
    let seat = observation.seat();
    let runs = config.runs.max(1);
    let mut expected = Vec::new();
    let mut costs = Vec::new();
    let mut played_values = Vec::new();
    // Per move: (move, summed probability, summed value × visits, visits).
    let mut moves: Vec<(G::Move, f64, f64, u32)> = Vec::new();
    for run in 0..runs {
        let mut rng = seeded_rng(seed.wrapping_add(u64::from(run)));
        let root = Mcts::new(config.engine).root_estimate(observation, &mut rng, Some(played));
        let visited: Vec<_> = root.iter().filter(|m| m.visits > 0).collect();
        let mass: f64 = visited.iter().map(|m| m.probability).sum();
        let v = if mass > 0.0 {
            visited.iter().map(|m| m.probability * m.value).sum::<f64>() / mass
        } else {
            let n: u32 = visited.iter().map(|m| m.visits).sum();
            visited
                .iter()
                .map(|m| m.value * f64::from(m.visits))
                .sum::<f64>()
                / f64::from(n.max(1))
        };
        expected.push(v);
        if let Some(m) = visited.iter().find(|m| m.mv == *played) {
            played_values.push(m.value);
            costs.push((v - m.value).max(0.0));
        }
        for m in root {
            match moves.iter_mut().find(|(mv, ..)| *mv == m.mv) {
                Some(entry) => {
                    entry.1 += m.probability;
                    if m.visits > 0 {
                        entry.2 += m.value * f64::from(m.visits);
                        entry.3 += m.visits;
                    }
                }
                None => moves.push((
                    m.mv.clone(),
                    m.probability,
                    if m.visits > 0 {
                        m.value * f64::from(m.visits)
                    } else {
                        0.0
                    },
                    m.visits,
                )),
            }
        }
    }
    let (expected, expected_error) = mean_sd(&expected);
    let (cost, cost_error) = if costs.is_empty() {
        (0.0, 0.0)
    } else {
        mean_sd(&costs)
    };
    let played_value = (!played_values.is_empty()).then(|| mean_sd(&played_values).0);
    let game = observation.determinize(&mut seeded_rng(seed));
    let mut recommended: Vec<Choice> = moves
        .into_iter()
        .map(|(mv, p, v, n)| Choice {
            mv: game.format_move(&mv),
            probability: p / f64::from(runs),
            value: (n > 0).then(|| v / f64::from(n)),
        })
        .filter(|c| c.probability >= 0.01)
        .collect();
    recommended.sort_by(|a, b| b.probability.total_cmp(&a.probability));
    SeatDecision {
        seat,
        method: Method::Search,
        expected,
        expected_error: Some(expected_error),
        best: recommended
            .first()
            .map(|c| c.mv.clone())
            .unwrap_or_default(),
        recommended,
        played: game.format_move(played),
        played_value,
        cost,
        cost_error: Some(cost_error),
        mark: Mark::of(cost - cost_error),
        expected_points: None,
        played_points: None,
        cost_points: None,
    }
}

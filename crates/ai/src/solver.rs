//! The exact solver for simultaneous-move games with perfect information: classic Goofspiel,
//! and endgames such as Square Goofspiel's last phase ([`solve_endgame`]).
//!
//! Backward induction: at every node the two seats play a zero-sum matrix game whose entries are
//! the immediate payoff plus the value of the node reached; [`solve_matrix_game`] solves it by
//! linear programming (`microlp`). For classic Goofspiel with point-difference returns and the
//! prizes in descending order, a node is the pair of hands (the prize is the largest left, as the
//! prizes left are the values 1..k where k is the hand size), so Goofspiel(N) has C(2N, N)
//! nodes: 924 for N = 6, 12,870 for N = 8.
//!
//! [`best_response_to_uniform`] and [`exploitability`] are independent checks: they never solve
//! an LP, they evaluate a fixed strategy against every pure reply.

use std::collections::HashMap;

use colosseum_engine::{Game, Pending, Seat, Step};
use colosseum_games::square_goofspiel::{Cell, SquareGoofspiel};
use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// A zero-sum matrix game's solution for the row player.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixSolution {
    /// The game's value for the row player.
    pub value: f64,
    /// The row player's optimal mixed strategy.
    pub row: Vec<f64>,
    /// The column player's optimal mixed strategy.
    pub column: Vec<f64>,
}

/// Why a matrix game could not be solved.
#[derive(Debug, thiserror::Error)]
#[error("the linear program failed: {0}")]
pub struct SolveError(String);

fn maximin(a: &[Vec<f64>]) -> Result<(f64, Vec<f64>), SolveError> {
    let rows = a.len();
    let cols = a.first().map_or(0, Vec::len);
    let mut problem = Problem::new(OptimizationDirection::Maximize);
    let v = problem.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
    let x: Vec<_> = (0..rows)
        .map(|_| problem.add_var(0.0, (0.0, 1.0)))
        .collect();
    for j in 0..cols {
        // sum_i x_i a_ij - v >= 0
        let mut terms: Vec<_> = x.iter().zip(a).map(|(&xi, row)| (xi, row[j])).collect();
        terms.push((v, -1.0));
        problem.add_constraint(terms.as_slice(), ComparisonOp::Ge, 0.0);
    }
    let ones: Vec<_> = x.iter().map(|&xi| (xi, 1.0)).collect();
    problem.add_constraint(ones.as_slice(), ComparisonOp::Eq, 1.0);
    let solution = problem
        .solve()
        .map_err(|e| SolveError(e.to_string()))?
        .into_solution()
        .map_err(|e| SolveError(format!("{:?}", e.termination_reason())))?;
    let strategy: Vec<f64> = x
        .iter()
        .map(|&xi| solution.var_value(xi).max(0.0))
        .collect();
    let total: f64 = strategy.iter().sum();
    Ok((
        solution.objective(),
        strategy.iter().map(|p| p / total).collect(),
    ))
}

/// Solves the zero-sum matrix game `a` (payoffs to the row player) by linear programming.
pub fn solve_matrix_game(a: &[Vec<f64>]) -> Result<MatrixSolution, SolveError> {
    let (value, row) = maximin(a)?;
    let cols = a.first().map_or(0, Vec::len);
    let transposed: Vec<Vec<f64>> = (0..cols)
        .map(|j| a.iter().map(|r| -r[j]).collect())
        .collect();
    let (_, column) = maximin(&transposed)?;
    Ok(MatrixSolution { value, row, column })
}

/// A hand of cards as bits: bit `c - 1` for card `c`.
pub type Cards = u32;

fn cards(hand: Cards) -> Vec<u32> {
    (1..=32).filter(|c| hand & (1 << (c - 1)) != 0).collect()
}

/// Classic Goofspiel with N cards, prizes in descending order, point-difference returns (`p1`'s
/// points minus `p2`'s), solved exactly.
#[derive(Clone, Debug)]
pub struct GoofspielSolution {
    /// N.
    pub n: u32,
    /// Every node: (p1's hand, p2's hand) → the matrix game's solution (value of the rest of the
    /// game for `p1`; strategies over the cards in ascending order).
    pub nodes: HashMap<(Cards, Cards), MatrixSolution>,
}

impl GoofspielSolution {
    /// Solves Goofspiel(n) (n ≤ 16 in practice; n ≤ 8 in well under a minute).
    pub fn solve(n: u32) -> Result<Self, SolveError> {
        let mut nodes = HashMap::new();
        let full: Cards = (1u32 << n) - 1;
        value(full, full, &mut nodes)?;
        Ok(GoofspielSolution { n, nodes })
    }

    /// The value of the whole game for `p1` (0 by symmetry).
    #[must_use]
    pub fn root_value(&self) -> f64 {
        let full: Cards = (1u32 << self.n) - 1;
        self.nodes.get(&(full, full)).map_or(0.0, |s| s.value)
    }
}

fn payoff(prize: u32, a: u32, b: u32) -> f64 {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => f64::from(prize),
        std::cmp::Ordering::Less => -f64::from(prize),
        std::cmp::Ordering::Equal => 0.0,
    }
}

fn value(
    h1: Cards,
    h2: Cards,
    nodes: &mut HashMap<(Cards, Cards), MatrixSolution>,
) -> Result<f64, SolveError> {
    if h1 == 0 {
        return Ok(0.0);
    }
    if let Some(s) = nodes.get(&(h1, h2)) {
        return Ok(s.value);
    }
    let prize = h1.count_ones();
    let (c1, c2) = (cards(h1), cards(h2));
    let mut a = vec![vec![0.0; c2.len()]; c1.len()];
    for (i, &x) in c1.iter().enumerate() {
        for (j, &y) in c2.iter().enumerate() {
            a[i][j] =
                payoff(prize, x, y) + value(h1 & !(1 << (x - 1)), h2 & !(1 << (y - 1)), nodes)?;
        }
    }
    let solution = solve_matrix_game(&a)?;
    let v = solution.value;
    nodes.insert((h1, h2), solution);
    Ok(v)
}

/// Classic Goofspiel played to win (win 1, draw ½, loss 0 for `p1`, the bots' scale) with N cards
/// and the prizes in a fixed order (descending or ascending), solved exactly: a node is both
/// hands and the points difference so far, and its matrix game is solved by linear programming.
/// Positions whose result is already certain (the difference exceeds the prizes left) are not
/// solved.
#[derive(Clone, Debug)]
pub struct GoofspielWinLoss {
    /// N.
    pub n: u32,
    /// Whether the prizes come in ascending order (else descending).
    pub ascending: bool,
    /// Every node: (p1's hand, p2's hand, p1's points minus p2's) → the matrix game's solution
    /// (the value for `p1`; strategies over the cards in ascending order).
    pub nodes: HashMap<(Cards, Cards, i32), MatrixSolution>,
}

impl GoofspielWinLoss {
    /// Solves Goofspiel(n) played to win, prizes descending or `ascending`.
    pub fn solve(n: u32, ascending: bool) -> Result<Self, SolveError> {
        let mut solution = GoofspielWinLoss {
            n,
            ascending,
            nodes: HashMap::new(),
        };
        let full: Cards = (1u32 << n) - 1;
        solution.value(full, full, 0)?;
        Ok(solution)
    }

    /// The prize up when each seat holds `left` cards.
    fn prize(&self, left: u32) -> u32 {
        if self.ascending {
            self.n + 1 - left
        } else {
            left
        }
    }

    /// The sum of the prizes still to come, the current one included, with `left` cards each.
    fn prizes_left(&self, left: u32) -> i32 {
        (1..=left).map(|k| self.prize(k) as i32).sum()
    }

    /// The value for `p1` of the position (both hands, p1's points minus p2's).
    pub fn value(&mut self, h1: Cards, h2: Cards, diff: i32) -> Result<f64, SolveError> {
        let left = h1.count_ones();
        let rest = self.prizes_left(left);
        if diff > rest {
            return Ok(1.0);
        }
        if diff < -rest {
            return Ok(0.0);
        }
        if left == 0 {
            return Ok(0.5);
        }
        if let Some(s) = self.nodes.get(&(h1, h2, diff)) {
            return Ok(s.value);
        }
        let prize = self.prize(left) as i32;
        let (c1, c2) = (cards(h1), cards(h2));
        let mut a = vec![vec![0.0; c2.len()]; c1.len()];
        for (i, &x) in c1.iter().enumerate() {
            for (j, &y) in c2.iter().enumerate() {
                let d = diff + prize * payoff(1, x, y) as i32;
                a[i][j] = self.value(h1 & !(1 << (x - 1)), h2 & !(1 << (y - 1)), d)?;
            }
        }
        let solution = solve_matrix_game(&a)?;
        let v = solution.value;
        self.nodes.insert((h1, h2, diff), solution);
        Ok(v)
    }

    /// `seat`'s equilibrium strategy at the position (cards in ascending order with their
    /// probabilities), or `None` when the position was not solved (its result is certain).
    #[must_use]
    pub fn strategy(&self, h1: Cards, h2: Cards, diff: i32, seat: Seat) -> Option<Vec<(u32, f64)>> {
        let node = self.nodes.get(&(h1, h2, diff))?;
        Some(match seat {
            Seat::P1 => cards(h1)
                .into_iter()
                .zip(node.row.iter().copied())
                .collect(),
            Seat::P2 => cards(h2)
                .into_iter()
                .zip(node.column.iter().copied())
                .collect(),
        })
    }
}

/// The largest N for which [`goofspiel_win_loss`] solves classic Goofspiel (measured: N = 6
/// takes well under a second in a release build, once per process).
pub const GOOFSPIEL_EXACT_MAX: u32 = 6;

/// The solution of Goofspiel(n) played to win with fixed prizes (descending, or `ascending`),
/// solved on first use and kept for the life of the process; `None` above
/// [`GOOFSPIEL_EXACT_MAX`] cards.
#[must_use]
pub fn goofspiel_win_loss(n: u32, ascending: bool) -> Option<&'static GoofspielWinLoss> {
    use std::sync::{Mutex, OnceLock};
    type Cache = Mutex<HashMap<(u32, bool), &'static GoofspielWinLoss>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    if n == 0 || n > GOOFSPIEL_EXACT_MAX {
        return None;
    }
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut solved = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&s) = solved.get(&(n, ascending)) {
        return Some(s);
    }
    let s: &'static GoofspielWinLoss =
        Box::leak(Box::new(GoofspielWinLoss::solve(n, ascending).ok()?));
    solved.insert((n, ascending), s);
    Some(s)
}

/// The best response's expected margin (its points minus the opponent's) against a uniformly
/// random opponent in Goofspiel(n), descending prizes; computed by dynamic programming, no LP.
#[must_use]
pub fn best_response_to_uniform(n: u32) -> f64 {
    fn br(h1: Cards, h2: Cards, memo: &mut HashMap<(Cards, Cards), f64>) -> f64 {
        if h1 == 0 {
            return 0.0;
        }
        if let Some(&v) = memo.get(&(h1, h2)) {
            return v;
        }
        let prize = h1.count_ones();
        let c2 = cards(h2);
        let best = cards(h1)
            .into_iter()
            .map(|x| {
                c2.iter()
                    .map(|&y| {
                        payoff(prize, x, y) + br(h1 & !(1 << (x - 1)), h2 & !(1 << (y - 1)), memo)
                    })
                    .sum::<f64>()
                    / c2.len() as f64
            })
            .fold(f64::NEG_INFINITY, f64::max);
        memo.insert((h1, h2), best);
        best
    }
    let full: Cards = (1u32 << n) - 1;
    br(full, full, &mut HashMap::new())
}

/// How much a best reply gains against the solved strategies: `(v - value of p2's best reply to
/// p1's strategy, value of p1's best reply to p2's strategy - v)`; both are 0 for an exact
/// solution. Computed by walking the tree with the stored strategies, no LP.
#[must_use]
pub fn exploitability(solution: &GoofspielSolution) -> (f64, f64) {
    fn reply(
        s: &GoofspielSolution,
        h1: Cards,
        h2: Cards,
        p1_fixed: bool,
        memo: &mut HashMap<(Cards, Cards), f64>,
    ) -> f64 {
        if h1 == 0 {
            return 0.0;
        }
        if let Some(&v) = memo.get(&(h1, h2)) {
            return v;
        }
        let node = &s.nodes[&(h1, h2)];
        let prize = h1.count_ones();
        let (c1, c2) = (cards(h1), cards(h2));
        let mut entry = |i: usize, j: usize| {
            let (x, y) = (c1[i], c2[j]);
            payoff(prize, x, y)
                + reply(
                    s,
                    h1 & !(1 << (x - 1)),
                    h2 & !(1 << (y - 1)),
                    p1_fixed,
                    memo,
                )
        };
        let v = if p1_fixed {
            // p2 picks the column that minimises p1's expected value.
            (0..c2.len())
                .map(|j| {
                    (0..c1.len())
                        .map(|i| node.row[i] * entry(i, j))
                        .sum::<f64>()
                })
                .fold(f64::INFINITY, f64::min)
        } else {
            (0..c1.len())
                .map(|i| {
                    (0..c2.len())
                        .map(|j| node.column[j] * entry(i, j))
                        .sum::<f64>()
                })
                .fold(f64::NEG_INFINITY, f64::max)
        };
        memo.insert((h1, h2), v);
        v
    }
    let full: Cards = (1u32 << solution.n) - 1;
    let v = solution.root_value();
    let against_p1 = reply(solution, full, full, true, &mut HashMap::new());
    let against_p2 = reply(solution, full, full, false, &mut HashMap::new());
    (v - against_p1, against_p2 - v)
}

/// The exact solution of a simultaneous-move endgame with perfect information and no chance left
/// (Square Goofspiel's last phase): the value for `p1` (win 1, draw ½, loss 0) and both seats'
/// optimal mixed strategies at the position.
#[derive(Clone, Debug)]
pub struct Endgame<M> {
    /// The value for `p1`.
    pub value: f64,
    /// `p1`'s moves and its optimal strategy over them.
    pub p1: Vec<(M, f64)>,
    /// `p2`'s moves and its optimal strategy over them.
    pub p2: Vec<(M, f64)>,
    /// Distinct positions solved (one LP each).
    pub nodes: usize,
}

/// Solves the game from `state` by backward induction with a matrix game (LP) at every node, if
/// everything ahead is simultaneous decisions with every legal move listed, no chance step comes
/// and no more than `max_nodes` distinct positions are met; `None` otherwise. `key` names a
/// position (two states with the same key must have the same future).
pub fn solve_endgame<G: Game, K: std::hash::Hash + Eq>(
    state: &G,
    key: &dyn Fn(&G) -> K,
    max_nodes: usize,
) -> Option<Endgame<G::Move>> {
    let mut memo: HashMap<K, f64> = HashMap::new();
    let (value, p1, p2) = endgame_node(state, key, max_nodes, &mut memo)?;
    Some(Endgame {
        value,
        p1,
        p2,
        nodes: memo.len(),
    })
}

type NodeSolution<M> = (f64, Vec<(M, f64)>, Vec<(M, f64)>);

fn endgame_node<G: Game, K: std::hash::Hash + Eq>(
    state: &G,
    key: &dyn Fn(&G) -> K,
    max_nodes: usize,
    memo: &mut HashMap<K, f64>,
) -> Option<NodeSolution<G::Move>> {
    match state.pending() {
        Pending::Over => {
            let value = crate::p1_value(&state.outcome()?);
            return Some((value, Vec::new(), Vec::new()));
        }
        Pending::Both => {}
        Pending::One(_) | Pending::Chance => return None,
    }
    let mut m1 = Vec::new();
    let mut m2 = Vec::new();
    state.legal_moves(Seat::P1, &mut m1);
    state.legal_moves(Seat::P2, &mut m2);
    if m1.is_empty() || m2.is_empty() {
        return None;
    }
    let mut a = vec![vec![0.0; m2.len()]; m1.len()];
    for (i, x) in m1.iter().enumerate() {
        for (j, y) in m2.iter().enumerate() {
            let mut next = state.clone();
            next.apply(Step::Both {
                p1: x.clone(),
                p2: y.clone(),
            })
            .ok()?;
            let k = key(&next);
            a[i][j] = match memo.get(&k) {
                Some(&v) => v,
                None => {
                    let (v, _, _) = endgame_node(&next, key, max_nodes, memo)?;
                    if memo.len() >= max_nodes {
                        return None;
                    }
                    memo.insert(k, v);
                    v
                }
            };
        }
    }
    let solution = solve_matrix_game(&a).ok()?;
    Some((
        solution.value,
        m1.into_iter().zip(solution.row).collect(),
        m2.into_iter().zip(solution.column).collect(),
    ))
}

/// A Square Goofspiel position's name for [`solve_endgame`]: the board, both hands and how many
/// auctions are done (with the phase's draw, this fixes everything ahead).
#[must_use]
pub fn square_goofspiel_key(state: &SquareGoofspiel) -> (Vec<u8>, [u8; 12], usize) {
    let board = Cell::all()
        .map(|c| match state.board().owner(c) {
            None => 0,
            Some(Seat::P1) => 1,
            Some(Seat::P2) => 2,
        })
        .collect();
    let mut hands = [0u8; 12];
    hands[..6].copy_from_slice(&state.hand(Seat::P1).counts());
    hands[6..].copy_from_slice(&state.hand(Seat::P2).counts());
    (board, hands, state.auctions_done())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_pennies_and_rock_paper_scissors() {
        let s = solve_matrix_game(&[vec![1.0, -1.0], vec![-1.0, 1.0]]).unwrap();
        assert!(s.value.abs() < 1e-9);
        assert!((s.row[0] - 0.5).abs() < 1e-9 && (s.column[0] - 0.5).abs() < 1e-9);
        let rps = [
            vec![0.0, -1.0, 1.0],
            vec![1.0, 0.0, -1.0],
            vec![-1.0, 1.0, 0.0],
        ];
        let s = solve_matrix_game(&rps).unwrap();
        assert!(s.value.abs() < 1e-9);
        for p in s.row.iter().chain(&s.column) {
            assert!((p - 1.0 / 3.0).abs() < 1e-7);
        }
    }

    #[test]
    fn goofspiel_root_value_is_zero_and_exploitability_is_zero_up_to_six() {
        for n in 1..=6 {
            let s = GoofspielSolution::solve(n).unwrap();
            assert!(s.root_value().abs() < 1e-6, "N = {n}: {}", s.root_value());
            let (e1, e2) = exploitability(&s);
            assert!(e1.abs() < 1e-6 && e2.abs() < 1e-6, "N = {n}: {e1} {e2}");
        }
    }

    #[test]
    fn best_response_to_random_gains_ross_margin() {
        for n in 1..=8u32 {
            let expected = f64::from(n * n - 1) / 6.0;
            let got = best_response_to_uniform(n);
            assert!(
                (got - expected).abs() < 1e-9,
                "N = {n}: {got} vs {expected}"
            );
        }
    }

    /// Played to win, Goofspiel is symmetric (value ½ in either fixed order), and every solved
    /// node's strategies are a certificate: p1's guarantees at least the value against every
    /// pure reply, p2's concedes at most it.
    #[test]
    fn goofspiel_win_loss_is_fair_and_certified() {
        for ascending in [false, true] {
            for n in 1..=5 {
                let mut s = GoofspielWinLoss::solve(n, ascending).unwrap();
                let full = (1u32 << n) - 1;
                let root = s.value(full, full, 0).unwrap();
                assert!((root - 0.5).abs() < 1e-6, "N = {n}: {root}");
                let nodes: Vec<_> = s.nodes.keys().copied().collect();
                for (h1, h2, diff) in nodes {
                    let node = s.nodes[&(h1, h2, diff)].clone();
                    let prize = s.prize(h1.count_ones()) as i32;
                    let (c1, c2) = (cards(h1), cards(h2));
                    let mut child = |x: u32, y: u32| {
                        let d = diff + prize * payoff(1, x, y) as i32;
                        s.value(h1 & !(1 << (x - 1)), h2 & !(1 << (y - 1)), d)
                            .unwrap()
                    };
                    for &y in &c2 {
                        let g: f64 = c1
                            .iter()
                            .zip(&node.row)
                            .map(|(&x, p)| p * child(x, y))
                            .sum();
                        assert!(g >= node.value - 1e-6);
                    }
                    for &x in &c1 {
                        let g: f64 = c2
                            .iter()
                            .zip(&node.column)
                            .map(|(&y, q)| q * child(x, y))
                            .sum();
                        assert!(g <= node.value + 1e-6);
                    }
                }
            }
        }
        assert!(goofspiel_win_loss(GOOFSPIEL_EXACT_MAX + 1, false).is_none());
    }

    /// A random Square Goofspiel game played until `left` auctions remain.
    fn square_position(seed: u64, left: usize) -> SquareGoofspiel {
        use colosseum_games::square_goofspiel::CELLS;
        let mut rng = colosseum_engine::seeded_rng(seed);
        let mut game = SquareGoofspiel::new(Default::default());
        while game.auctions_done() < CELLS - left || game.pending() == Pending::Chance {
            let step = match game.pending() {
                Pending::Chance => Step::Chance(game.sample_chance(&mut rng).unwrap()),
                Pending::Both => Step::Both {
                    p1: game.random_move(Seat::P1, &mut rng).unwrap(),
                    p2: game.random_move(Seat::P2, &mut rng).unwrap(),
                },
                _ => unreachable!("Square Goofspiel has only chance and both"),
            };
            game.apply(step).unwrap();
        }
        game
    }

    /// The exact value of a position whose every child value is known: checked by the minimax
    /// certificate (p1's strategy guarantees at least the value against every pure reply, p2's at
    /// most), which needs no LP.
    fn certify(
        state: &SquareGoofspiel,
        solution: &Endgame<colosseum_games::square_goofspiel::Bid>,
    ) {
        let child = |x, y| {
            let mut next = state.clone();
            next.apply(Step::Both { p1: x, p2: y }).unwrap();
            if next.pending() == Pending::Over {
                crate::p1_value(&next.outcome().unwrap())
            } else {
                solve_endgame(&next, &square_goofspiel_key, 100_000)
                    .unwrap()
                    .value
            }
        };
        for &(y, _) in &solution.p2 {
            let guaranteed: f64 = solution.p1.iter().map(|&(x, p)| p * child(x, y)).sum();
            assert!(
                guaranteed >= solution.value - 1e-6,
                "{guaranteed} < {}",
                solution.value
            );
        }
        for &(x, _) in &solution.p1 {
            let conceded: f64 = solution.p2.iter().map(|&(y, q)| q * child(x, y)).sum();
            assert!(
                conceded <= solution.value + 1e-6,
                "{conceded} > {}",
                solution.value
            );
        }
    }

    /// Square Goofspiel's last auctions are solved exactly: the value is certified on positions
    /// one and two auctions from the end, and a position with a pure saddle point gets exactly
    /// that saddle point's value.
    #[test]
    fn square_goofspiel_endgame_values_are_exact() {
        let mut saddles = 0;
        for seed in 0..12 {
            for left in [1, 2] {
                let state = square_position(seed, left);
                let solution = solve_endgame(&state, &square_goofspiel_key, 100_000)
                    .expect("two auctions are small enough");
                assert!((0.0..=1.0).contains(&solution.value));
                certify(&state, &solution);
                if left == 1 {
                    // Pure maximin and minimax from the outcome table alone.
                    let (mut m1, mut m2) = (Vec::new(), Vec::new());
                    state.legal_moves(Seat::P1, &mut m1);
                    state.legal_moves(Seat::P2, &mut m2);
                    let table: Vec<Vec<f64>> = m1
                        .iter()
                        .map(|&x| {
                            m2.iter()
                                .map(|&y| {
                                    let mut next = state.clone();
                                    next.apply(Step::Both { p1: x, p2: y }).unwrap();
                                    crate::p1_value(&next.outcome().unwrap())
                                })
                                .collect()
                        })
                        .collect();
                    let maximin = table
                        .iter()
                        .map(|r| r.iter().copied().fold(f64::INFINITY, f64::min))
                        .fold(f64::NEG_INFINITY, f64::max);
                    let minimax = (0..m2.len())
                        .map(|j| table.iter().map(|r| r[j]).fold(f64::NEG_INFINITY, f64::max))
                        .fold(f64::INFINITY, f64::min);
                    if maximin == minimax {
                        saddles += 1;
                        assert!((solution.value - maximin).abs() < 1e-9);
                    }
                }
            }
        }
        assert!(saddles > 0, "no position with a saddle point was tried");
        // The whole last phase is usually small enough for the bot's limit.
        let solved = (0..6)
            .filter(|&seed| {
                solve_endgame(&square_position(seed, 6), &square_goofspiel_key, 4000).is_some()
            })
            .count();
        assert!(solved > 0);
    }
}

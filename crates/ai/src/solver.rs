//! The exact solver for simultaneous-move games with perfect information, for classic Goofspiel.
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

/// Cards as bits: bit `c - 1` for card `c`.
type Cards = u32;

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
}

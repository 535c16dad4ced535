//! Square Goofspiel's bot hooks: value per card, the endgame solver, the playouts' heuristic share.

use colosseum_engine::{Game, Pending, Seat, SeededRng};
use colosseum_games::square_goofspiel::{Bid, SquareGoofspiel, CELLS, SIDE};
use rand::Rng;

use crate::{BotGame, Observation};

/// The most positions Square Goofspiel's endgame solver may meet before search takes over.
const SQUARE_ENDGAME_NODES: usize = 4000;

/// The share of Square Goofspiel's playout moves that are the heuristic's (the rest uniformly
/// random bids). Half, before: random bids throw away high cards on cheap cells, so playouts
/// misjudged what a card kept is worth. `hard` against the heuristic, the same 20 seeds: 13 wins
/// at 0.5, 16 at 0.9 (docs/strength.md, "Square Goofspiel").
const SQUARE_ROLLOUT_HEURISTIC: f64 = 0.9;

/// Square Goofspiel: value per card.
impl BotGame for SquareGoofspiel {
    const HAS_HEURISTIC: bool = true;
    /// Regret matching (the levels) runs twice the budget: `hard` 60,000 iterations. The
    /// playouts' heuristic lost its allocations (1.7 times the iterations a CPU second), so a
    /// decision costs about 1.2 times the 30,000 iterations' before; the old search named by
    /// its settings (`mcts:iters=5000,model=0.5,algo=uct`) keeps its 5000 (docs/strength.md,
    /// "Square Goofspiel").
    const REGRET_MATCHING_SCALE: f64 = 2.0;

    fn heuristic_description() -> &'static str {
        "values each cell by the lines it counts for (value on the line times the line's worth) and bids the card whose rank in its hand matches the cell's rank among the cells left; passes on the cheapest cells when it holds fewer cards than cells remain"
    }

    /// In the last phase (no chance left), when at most 4000 positions remain, the exact
    /// equilibrium strategy (backward induction with an LP per position).
    fn endgame(&self, seat: Seat) -> Option<Vec<(Bid, f64)>> {
        if self.auctions_done() < CELLS - colosseum_games::square_goofspiel::AUCTIONS_PER_PHASE {
            return None;
        }
        let solution = crate::solver::solve_endgame(
            self,
            &crate::solver::square_goofspiel_key,
            SQUARE_ENDGAME_NODES,
        )?;
        Some(match seat {
            Seat::P1 => solution.p1,
            Seat::P2 => solution.p2,
        })
    }

    /// The last phase's exact value ([`crate::solver::solve_endgame`]), as the endgame's bot
    /// plays it.
    fn exact_value(&self) -> Option<f64> {
        if self.auctions_done() < CELLS - colosseum_games::square_goofspiel::AUCTIONS_PER_PHASE {
            return None;
        }
        crate::solver::solve_endgame(
            self,
            &crate::solver::square_goofspiel_key,
            SQUARE_ENDGAME_NODES,
        )
        .map(|s| s.value)
    }

    /// Playouts follow the heuristic in [`SQUARE_ROLLOUT_HEURISTIC`] of the moves (as
    /// [`mixed_rollout`] does, with the same random draws, without an observation's copy).
    fn rollout_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<Bid> {
        if !self.pending().includes(seat) {
            return None;
        }
        if rng.random_bool(SQUARE_ROLLOUT_HEURISTIC) {
            if let Some(bid) = square_heuristic_bid(self, seat) {
                return Some(bid);
            }
        }
        self.random_move(seat, rng)
    }

    /// The result once the game is over (as [`SquareGoofspiel::winner`] says, without the
    /// outcome's text), else ½.
    fn evaluate(&self) -> f64 {
        if self.pending() != Pending::Over {
            return 0.5;
        }
        match self.winner() {
            Some(Seat::P1) => 1.0,
            Some(Seat::P2) => 0.0,
            None => 0.5,
        }
    }

    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> Bid {
        let state = observation.determinize(rng);
        match square_heuristic_bid(&state, observation.seat()) {
            Some(bid) => bid,
            None => observation.random_move(rng).expect("the seat acts"),
        }
    }
}

/// A Square Goofspiel cell's importance to the heuristic: its value on each of its lines times
/// that line's worth, summed.
fn square_importance(c: colosseum_games::square_goofspiel::Cell) -> u32 {
    let side = SIDE as u32;
    let (col, row) = (u32::from(c.value_in_row()), u32::from(c.value_in_column()));
    col * (side + 1 - row) + row * (side + 1 - col)
}

/// Square Goofspiel's heuristic bid for `seat` (`None` when no cell is up): matching, as in
/// Goofspiel: the cell's rank among the cells left picks the card of the same rank in the hand;
/// with fewer cards than cells, the cheapest cells get a pass. Allocation-free: it is most of a
/// playout's work ([`SQUARE_ROLLOUT_HEURISTIC`]).
fn square_heuristic_bid(state: &SquareGoofspiel, seat: Seat) -> Option<Bid> {
    let (_, cell) = state.cell_up()?;
    let hand = state.hand(seat);
    let mine = square_importance(cell);
    let (mut below, mut remaining) = (0usize, 0usize);
    for c in colosseum_games::square_goofspiel::Cell::all() {
        if c != cell && !state.is_auctioned(c) {
            remaining += 1;
            if square_importance(c) < mine {
                below += 1;
            }
        }
    }
    let cells = remaining + 1;
    let held = hand.len() as usize;
    if held == 0 {
        return Some(Bid::PASS);
    }
    let spare = cells.saturating_sub(held);
    if below < spare {
        return Some(Bid::PASS);
    }
    let rank = below - spare;
    let slots = (cells - spare).max(1);
    let i = (rank * held / slots).min(held - 1);
    // The i-th card of the hand, weakest first.
    let mut seen = 0usize;
    for strength in 1..=colosseum_games::square_goofspiel::MAX_STRENGTH {
        seen += usize::from(hand.count(strength));
        if i < seen {
            return Some(Bid::card(strength).unwrap_or(Bid::PASS));
        }
    }
    Some(Bid::PASS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use colosseum_engine::Step;

    /// Square Goofspiel's levels run twice their budget (`REGRET_MATCHING_SCALE`); the old
    /// search named by its settings runs what it names.
    #[test]
    fn square_levels_run_twice_the_budget_and_the_old_search_its_own() {
        let name = |spec: &str| {
            let crate::registry::BotSpec::Mcts(config) = spec.parse().unwrap() else {
                panic!("{spec} is not a search");
            };
            crate::Bot::<SquareGoofspiel>::name(&crate::mcts::Mcts::new(config))
        };
        assert!(
            name("mcts:hard").contains(" 60000 iterations"),
            "{}",
            name("mcts:hard")
        );
        assert!(name("mcts:medium").contains(" 12000 iterations"));
        let old = name("mcts:iters=5000,model=0.5,algo=uct");
        assert!(old.contains(" 5000 iterations"), "{old}");
        // A search really runs them (a decision of the first phase).
        let mut rng = colosseum_engine::seeded_rng(5);
        let mut square = SquareGoofspiel::new(Default::default());
        while !square.pending().includes(Seat::P1) {
            let step = colosseum_engine::random_step(&square, &mut rng).unwrap();
            square.apply(step).unwrap();
        }
        let crate::registry::BotSpec::Mcts(config) = "mcts:iters=300,algo=rm".parse().unwrap()
        else {
            panic!("a search");
        };
        let mut mcts = crate::mcts::Mcts::new(config);
        crate::Bot::<SquareGoofspiel>::choose(
            &mut mcts,
            &Observation::new(&square, Seat::P1, &[]),
            &mut rng,
        );
        assert_eq!(mcts.last_search().iterations, 600);
    }

    /// The allocation-free heuristic bids what the heuristic's rule says (the rule written out
    /// plainly here, with the cells' importance in floating point as the heuristic had it), at
    /// every decision of random games; the playouts' evaluation agrees with the game's outcome,
    /// with each advantage.
    #[test]
    fn square_heuristic_and_evaluation_agree_with_the_plain_rule_and_the_outcome() {
        use colosseum_games::square_goofspiel::Cell;
        let plain = |state: &SquareGoofspiel, seat: Seat| -> Bid {
            let (_, cell) = state.cell_up().unwrap();
            let importance = |c: Cell| -> f64 {
                let (col, row) = (f64::from(c.value_in_row()), f64::from(c.value_in_column()));
                col * (7.0 - row) + row * (7.0 - col)
            };
            let mine = importance(cell);
            let remaining: Vec<f64> = Cell::all()
                .filter(|&c| !state.is_auctioned(c) && c != cell)
                .map(importance)
                .collect();
            let below = remaining.iter().filter(|&&v| v < mine).count();
            let cells = remaining.len() + 1;
            let cards: Vec<u8> = state.hand(seat).cards().collect();
            if cards.is_empty() {
                return Bid::PASS;
            }
            let spare = cells.saturating_sub(cards.len());
            if below < spare {
                return Bid::PASS;
            }
            let i = ((below - spare) * cards.len() / (cells - spare).max(1)).min(cards.len() - 1);
            Bid::card(cards[i]).unwrap()
        };
        let mut rng = colosseum_engine::seeded_rng(11);
        let (mut bids, mut passes, mut results) = (0, 0, [0; 3]);
        for (g, advantage) in ["p1", "p2", "none"]
            .into_iter()
            .cycle()
            .take(60)
            .enumerate()
        {
            let pair = format!("advantage={advantage}");
            let options = colosseum_engine::parse_pairs([pair.as_str()]).unwrap();
            let mut state = SquareGoofspiel::from_raw(&options).unwrap();
            while state.pending() != Pending::Over {
                assert_eq!(state.evaluate(), 0.5);
                if state.pending() == Pending::Both {
                    for seat in Seat::BOTH {
                        let bid = square_heuristic_bid(&state, seat).unwrap();
                        assert_eq!(bid, plain(&state, seat), "game {g}: {state:?}");
                        bids += 1;
                        passes += usize::from(bid.is_pass());
                    }
                }
                // Random play half the games, the heuristic's the other half.
                let step = if g % 2 == 0 || state.pending() == Pending::Chance {
                    colosseum_engine::random_step(&state, &mut rng).unwrap()
                } else {
                    Step::Both {
                        p1: square_heuristic_bid(&state, Seat::P1).unwrap(),
                        p2: square_heuristic_bid(&state, Seat::P2).unwrap(),
                    }
                };
                state.apply(step).unwrap();
            }
            let value = state.evaluate();
            assert_eq!(
                value,
                crate::p1_value(&state.outcome().unwrap()),
                "game {g}"
            );
            results[(value * 2.0) as usize] += 1;
        }
        assert!(
            bids > 4000 && passes > 100 && passes < bids,
            "{bids} {passes}"
        );
        // Both seats win some.
        assert!(results[0] > 0 && results[2] > 0, "{results:?}");
    }
}

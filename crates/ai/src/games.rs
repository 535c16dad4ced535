//! Each game's hooks for the bots: its heuristic bot, its search moves and its playouts, one
//! file per game as in `crates/games`; here, what they share (the generic lookahead heuristic,
//! the playout helpers).

mod all_in_goofspiel;
mod galespiel;
mod goofspiel;
mod square_goofspiel;
mod thwart_omega;
mod witchs_brew;

use colosseum_engine::{Pending, Seat, SeededRng, Step};
use rand::Rng;

use crate::registry::{GameBots, Typed};
use crate::{BotGame, Observation};

/// The levels: what `mcts:easy`, `mcts:medium` and `mcts:hard` mean.
pub const LEVELS: &[(&str, &str)] = &[
    (
        "easy",
        "equilibrium-seeking search (regret matching, exploration 0.3, 0.3 × cards / 13 up to 13 cards in classic Goofspiel, the move drawn from the average strategy, no opponent model), 1000 iterations per decision (twice in Square Goofspiel, half in Thwart Omega and All-In Goofspiel, a fifteenth in Galespiel, three fifths in The Witch's Brew)",
    ),
    (
        "medium",
        "equilibrium-seeking search (regret matching, exploration 0.3, 0.3 × cards / 13 up to 13 cards in classic Goofspiel, the move drawn from the average strategy, no opponent model), 6000 iterations per decision (twice in Square Goofspiel, half in Thwart Omega and All-In Goofspiel, a fifteenth in Galespiel, three fifths in The Witch's Brew)",
    ),
    (
        "hard",
        "equilibrium-seeking search (regret matching, exploration 0.3, 0.3 × cards / 13 up to 13 cards in classic Goofspiel, no opponent model), 30000 iterations per decision (twice in Square Goofspiel, half in Thwart Omega and All-In Goofspiel, a fifteenth in Galespiel, three fifths in The Witch's Brew); where both seats move at once and nothing is hidden (except in The Witch's Brew), the move is drawn from the equilibrium of the matrix game the search estimated at the root, else from the average strategy; the exact equilibrium in Goofspiel with fixed prizes and at most 6 cards, and at any number of cards (to 14) with descending prizes and point-difference returns, from the solved table (docs/goofspiel-solution.md)",
    ),
];

/// Every game's bots, in the registry's order ([`crate::registry::bots`]). Adding a game: one
/// line here.
pub(crate) static BOTS: &[&dyn GameBots] = &[
    &Typed {
        id: "goofspiel",
        new: colosseum_games::goofspiel::Goofspiel::from_raw,
    },
    &Typed {
        id: "square-goofspiel",
        new: colosseum_games::square_goofspiel::SquareGoofspiel::from_raw,
    },
    &Typed {
        id: "thwart-omega",
        new: colosseum_games::thwart_omega::ThwartOmega::from_raw,
    },
    &Typed {
        id: "all-in-goofspiel",
        new: colosseum_games::all_in_goofspiel::AllInGoofspiel::from_raw,
    },
    &Typed {
        id: "galespiel",
        new: colosseum_games::galespiel::Galespiel::from_raw,
    },
    &Typed {
        id: "witchs-brew",
        new: colosseum_games::witchs_brew::WitchsBrew::from_raw,
    },
];

/// A game whose search budgets are the defaults ([`BotGame::SEARCH_SCALE`] and
/// [`BotGame::REGRET_MATCHING_SCALE`] 1): a bot spec's name apart from any game is its name in
/// this one ([`crate::registry::BotSpec`]'s `Display`).
pub(crate) type Unscaled = colosseum_games::goofspiel::Goofspiel;

/// The generic fallback heuristic: `candidates` moves (the enumerated ones first, then random
/// ones), each answered by the same sampled replies of the opponent, scored by
/// [`BotGame::evaluate`] after a playout with rollout moves; the best average wins.
pub(crate) fn lookahead_move<G: BotGame>(
    observation: &Observation<'_, G>,
    rng: &mut SeededRng,
    candidates: usize,
) -> G::Move {
    let seat = observation.seat();
    let mut moves = Vec::new();
    observation.legal_moves(&mut moves);
    moves.truncate(candidates);
    while moves.len() < candidates {
        match observation.random_move(rng) {
            Some(m) if !moves.contains(&m) => moves.push(m),
            Some(_) => {
                if rng.random_range(0..8) == 0 {
                    break;
                }
            }
            None => break,
        }
    }
    let samples: Vec<G> = (0..4).map(|_| observation.determinize(rng)).collect();
    let seeds: Vec<u64> = (0..samples.len()).map(|_| rng.random()).collect();
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    for mv in moves {
        let mut total = 0.0;
        for (sample, &seed) in samples.iter().zip(&seeds) {
            // Common random numbers: every candidate meets the same replies and playouts.
            let mut r = colosseum_engine::seeded_rng(seed);
            let value = play_after(sample.clone(), seat, mv.clone(), &mut r);
            total += if seat == Seat::P1 { value } else { 1.0 - value };
        }
        if total > best_value {
            best_value = total;
            best = Some(mv);
        }
    }
    best.or_else(|| observation.random_move(rng))
        .expect("a bot is asked only when its seat acts")
}

/// Plays `mv` for `seat` (with the opponent's rollout move if both act), then plays out.
fn play_after<G: BotGame>(mut state: G, seat: Seat, mv: G::Move, rng: &mut SeededRng) -> f64 {
    let step = match state.pending() {
        Pending::Both => match state.rollout_move(seat.other(), rng) {
            Some(reply) => match seat {
                Seat::P1 => Step::Both { p1: mv, p2: reply },
                Seat::P2 => Step::Both { p1: reply, p2: mv },
            },
            None => return state.evaluate(),
        },
        _ => Step::One { seat, mv },
    };
    if state.apply(step).is_err() {
        return state.evaluate();
    }
    crate::mcts::rollout(state, rng)
}

/// A playout move that is the heuristic's with probability `p`, else uniformly random: playouts
/// that play sensibly judge a position far better than random ones, and the random share keeps
/// them from being blind to what the heuristic never plays. (Playouts run on determinized states,
/// so the heuristic's observation is of a sample.)
fn mixed_rollout<G: BotGame>(
    state: &G,
    seat: Seat,
    rng: &mut SeededRng,
    p: f64,
) -> Option<G::Move> {
    if !state.pending().includes(seat) {
        return None;
    }
    if rng.random_bool(p) {
        Some(G::heuristic_move(&Observation::new(state, seat, &[]), rng))
    } else {
        state.random_move(seat, rng)
    }
}

/// `1 / (1 + e^-x)`.
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    /// Checks how the regret-matching search chose at a root: where one seat moves alone
    /// (`lone`), by UCT (the strategy is the visit shares and the most visited move is within
    /// 0.05 of the best value seen); otherwise by regret matching (the strategy is not the visit
    /// shares).
    pub(super) fn assert_root_searched_by<M: std::fmt::Debug>(
        root: &[crate::mcts::RootMove<M>],
        lone: bool,
    ) {
        let visits: u32 = root.iter().map(|r| r.visits).sum();
        let by_visits = root
            .iter()
            .all(|r| (r.probability - f64::from(r.visits) / f64::from(visits)).abs() < 1e-9);
        if lone {
            assert!(by_visits, "{root:?}");
            let most = root.iter().max_by_key(|r| r.visits).unwrap();
            let best = root
                .iter()
                .filter(|r| r.visits > 0)
                .map(|r| r.value)
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(most.value > best - 0.05, "{root:?}");
        } else {
            assert!(!by_visits, "{root:?}");
        }
    }
}

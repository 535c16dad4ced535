//! Thwart Omega's bot hooks.

use colosseum_engine::{Game, Seat, SeededRng, Step};
use colosseum_games::thwart_omega::{Colour, ThwartOmega};

use crate::{BotGame, Observation};

/// Thwart Omega: grow your colour, merge the opponent's, judged one round ahead.
impl BotGame for ThwartOmega {
    const HAS_HEURISTIC: bool = true;
    /// Half the budget (`mcts:hard` 15,000 iterations): its playouts are long.
    const SEARCH_SCALE: f64 = 0.5;

    fn heuristic_description() -> &'static str {
        "tries 48 placements against the same random replies and keeps the one that most raises its product relative to the opponent's (splitting its colour, merging the other)"
    }

    fn widening() -> Option<(f64, f64)> {
        Some((2.0, 0.5))
    }

    fn search_moves(&self, seat: Seat, rng: &mut SeededRng, out: &mut Vec<Self::Move>) {
        // The full list has n²(n²-1) placements: start from a few random ones and widen.
        for _ in 0..4 {
            if let Some(m) = self.random_move(seat, rng) {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
    }

    fn evaluate(&self) -> f64 {
        if let Some(o) = self.outcome() {
            return crate::p1_value(&o);
        }
        let score = |c: Colour| (self.groups(c).product() as f64).max(0.5);
        let (b, w) = (score(Colour::Black), score(Colour::White));
        b / (b + w)
    }

    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> Self::Move {
        let seat = observation.seat();
        let state = observation.determinize(rng);
        let mut candidates = Vec::new();
        // Bounded tries: near the end there are fewer than 48 placements.
        for _ in 0..200 {
            match observation.random_move(rng) {
                Some(m) if !candidates.contains(&m) => candidates.push(m),
                Some(_) => {}
                None => break,
            }
            if candidates.len() == 48 {
                break;
            }
        }
        let replies: Vec<_> = (0..6)
            .filter_map(|_| state.random_move(seat.other(), rng))
            .collect();
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for mv in candidates {
            let mut total = 0.0;
            for reply in &replies {
                let mut next = state;
                let step = match seat {
                    Seat::P1 => Step::Both { p1: mv, p2: *reply },
                    Seat::P2 => Step::Both { p1: *reply, p2: mv },
                };
                if next.apply(step).is_ok() {
                    let score = |c: Colour| (next.groups(c).product() as f64).max(0.5).ln();
                    let mine = Colour::of(seat);
                    let theirs = Colour::of(seat.other());
                    total += score(mine) - score(theirs);
                }
            }
            if total > best_value {
                best_value = total;
                best = Some(mv);
            }
        }
        best.or_else(|| observation.random_move(rng))
            .expect("the seat acts")
    }
}

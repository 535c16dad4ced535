//! Goofspiel in OpenSpiel ([`crate::spiel`]): card `c` is action `c - 1` and prize `p` is chance
//! outcome `p - 1` (OpenSpiel's own `goofspiel` numbering). Tensors, from the seat's view, own
//! seat first: the prize up now, the prizes left, both hands, both point totals, then every
//! turn played (its prize, the seat's bid, the other's bid), one-hot over the `n` cards. The
//! view keeps every turn, so the observation is already perfect recall: the information-state
//! tensor is the same.

use super::*;
use crate::spiel::{one_hot, Encoded, SpielInfo, Utility};

impl Goofspiel {
    fn tensor_len(&self) -> usize {
        let n = usize::from(self.options.cards);
        4 * n + 2 + 3 * n * n
    }
}

impl Encoded for Goofspiel {
    fn spiel_info(&self) -> SpielInfo {
        let o = self.options();
        let n = usize::from(o.cards);
        let total = (n * (n + 1) / 2) as f64;
        let (min, max, utility, sum) = match o.returns {
            ReturnsType::WinLoss => (-1.0, 1.0, Utility::ZeroSum, Some(0.0)),
            ReturnsType::PointDifference => {
                (-total / 2.0, total / 2.0, Utility::ZeroSum, Some(0.0))
            }
            ReturnsType::TotalPoints => (0.0, total, Utility::GeneralSum, None),
        };
        let random = o.order == PrizeOrder::Random;
        SpielInfo {
            num_distinct_actions: n.max(1),
            max_chance_outcomes: if random { n } else { 0 },
            min_utility: min,
            max_utility: max,
            utility,
            utility_sum: sum,
            max_game_length: n,
            max_chance_nodes: if random { n } else { 0 },
            stochastic: random,
            tensors: Some((self.tensor_len(), self.tensor_len())),
            ..crate::spiel::base(
                "card c is action c - 1; prize p is chance outcome p - 1; tensors: prize up, \
                 prizes left, both hands, both points, every turn (prize, own bid, other bid)",
            )
        }
    }

    fn action_id(&self, _seat: Seat, card: &u8) -> Option<i64> {
        Some(i64::from(*card) - 1)
    }

    fn action_name(&self, id: i64) -> String {
        format!("{}", id + 1)
    }

    fn chance_ids(&self, _partial: &[i64], out: &mut Vec<(i64, f64, Option<u8>)>) {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        out.extend(
            outcomes
                .into_iter()
                .map(|(c, p)| (i64::from(c) - 1, p, Some(c))),
        );
    }

    fn spiel_returns(&self) -> [f64; 2] {
        self.returns()
    }

    fn observation_tensor(&self, view: &GoofspielView, seat: Seat, out: &mut [f32]) {
        let n = usize::from(view.options.cards);
        let card = |c: u8| usize::from(c).saturating_sub(1);
        let (me, other) = (seat, seat.other());
        if let Some(p) = view.prize {
            one_hot(&mut out[..n], card(p));
        }
        for &p in &view.prizes_left {
            one_hot(&mut out[n..2 * n], card(p));
        }
        for &c in view.hands.get(me) {
            one_hot(&mut out[2 * n..3 * n], card(c));
        }
        for &c in view.hands.get(other) {
            one_hot(&mut out[3 * n..4 * n], card(c));
        }
        out[4 * n] = *view.points.get(me) as f32;
        out[4 * n + 1] = *view.points.get(other) as f32;
        let turns = &mut out[4 * n + 2..];
        for (t, turn) in view.turns.iter().enumerate().take(n) {
            let slot = &mut turns[3 * n * t..3 * n * (t + 1)];
            let (mine, theirs) = match seat {
                Seat::P1 => (turn.p1, turn.p2),
                Seat::P2 => (turn.p2, turn.p1),
            };
            one_hot(&mut slot[..n], card(turn.prize));
            one_hot(&mut slot[n..2 * n], card(mine));
            one_hot(&mut slot[2 * n..], card(theirs));
        }
    }

    fn update_information_tensor(&self, view: &GoofspielView, seat: Seat, out: &mut [f32]) {
        out.fill(0.0);
        self.observation_tensor(view, seat, out);
    }
}

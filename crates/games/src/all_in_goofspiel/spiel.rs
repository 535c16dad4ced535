//! All-In Goofspiel in OpenSpiel ([`crate::spiel`]), an abstraction: 0 is `pass`, `c + 4` plays
//! the single card `c` (-3..12), 17 the largest number the hand's non-negative cards make, 18
//! the whole hand ordered for the largest number (the game's own representative subset,
//! [`Game::legal_moves`]; the full space is every ordered list of distinct cards). No chance.
//!
//! Tensors, from the seat's view, own seat first, over the `k` cards of the hands
//! (`lowest..=highest`, 16 in the seed): both hands (one slot per card), both points, the
//! round (one-hot over the [`MAX_ROUNDS`]), whether the seat starts it, the starter's face-down
//! count (one-hot 0..=k, all zero before the starter acts) and the seat's own face-down cards in
//! order (only the starter's view has them: `k` positions, each one-hot over the cards). The
//! information-state tensor then has every finished round in order: whether the seat started
//! it, its own cards in order and the other's (`k` positions one-hot each).

use super::*;
use crate::spiel::{one_hot, Encoded, SpielInfo};

impl AllInGoofspiel {
    /// The number of distinct cards in the hands.
    fn cards_in_hand(&self) -> usize {
        (self.options.highest - self.options.lowest + 1) as usize
    }

    /// The observation tensor's length (the start of the information state's rounds).
    fn observation_len(&self) -> usize {
        let k = self.cards_in_hand();
        2 * k + 2 + MAX_ROUNDS + 1 + (k + 1) + k * k
    }

    /// One finished round's length in the information-state tensor.
    fn round_len(&self) -> usize {
        let k = self.cards_in_hand();
        1 + 2 * k * k
    }
}

/// Writes an ordered list of cards: position `i` one-hot over the `k` cards from `lowest`.
fn ordered(cards: &[i8], lowest: i8, k: usize, out: &mut [f32]) {
    for (i, &c) in cards.iter().enumerate().take(k) {
        one_hot(&mut out[i * k..(i + 1) * k], (c - lowest) as usize);
    }
}

impl Encoded for AllInGoofspiel {
    fn spiel_info(&self) -> SpielInfo {
        crate::spiel::win_loss(SpielInfo {
            num_distinct_actions: 19,
            max_game_length: 2 * MAX_ROUNDS,
            hidden: true,
            tensors: Some((
                self.observation_len(),
                self.observation_len() + MAX_ROUNDS * self.round_len(),
            )),
            ..crate::spiel::base(
                "0 pass, c + 4 the single card c (-3..12), 17 the largest number of the \
                 non-negative cards, 18 the whole hand ordered for the largest number; tensors: \
                 both hands, both points, the round, the face-down count and own face-down \
                 cards, every finished round's plays",
            )
        })
    }

    fn action_id(&self, _seat: Seat, play: &Play) -> Option<i64> {
        let cards = play.cards();
        Some(match cards {
            [] => 0,
            [c] => i64::from(*c) + 4,
            _ if cards.iter().any(|&c| c < 0) => 18,
            _ => 17,
        })
    }

    fn action_name(&self, id: i64) -> String {
        match id {
            0 => "pass".into(),
            1..=16 => (id - 4).to_string(),
            17 => "largest number of the non-negative cards".into(),
            18 => "whole hand".into(),
            _ => format!("action {id}"),
        }
    }

    fn observation_tensor(&self, view: &AllInGoofspielView, seat: Seat, out: &mut [f32]) {
        let k = self.cards_in_hand();
        let lowest = view.options.lowest;
        let (me, other) = (seat, seat.other());
        let mut at = 0;
        for s in [me, other] {
            for &c in view.hands.get(s) {
                one_hot(&mut out[at..at + k], (c - lowest) as usize);
            }
            at += k;
        }
        out[at] = view.points.get(me).as_f64() as f32;
        out[at + 1] = view.points.get(other).as_f64() as f32;
        at += 2;
        if let Some(current) = &view.current {
            one_hot(
                &mut out[at..at + MAX_ROUNDS],
                usize::from(current.round) - 1,
            );
            out[at + MAX_ROUNDS] = if current.starter == seat { 1.0 } else { 0.0 };
            if let Some(n) = current.face_down_count {
                one_hot(
                    &mut out[at + MAX_ROUNDS + 1..at + MAX_ROUNDS + 2 + k],
                    usize::from(n),
                );
            }
            if let Some(cards) = &current.face_down_cards {
                let start = at + MAX_ROUNDS + 2 + k;
                ordered(cards, lowest, k, &mut out[start..start + k * k]);
            }
        }
    }

    fn update_information_tensor(&self, view: &AllInGoofspielView, seat: Seat, out: &mut [f32]) {
        let obs = self.observation_len();
        out.fill(0.0);
        self.observation_tensor(view, seat, &mut out[..obs]);
        let k = self.cards_in_hand();
        let width = self.round_len();
        let lowest = view.options.lowest;
        for (i, r) in view.rounds.iter().enumerate().take(MAX_ROUNDS) {
            let slot = &mut out[obs + i * width..obs + (i + 1) * width];
            slot[0] = if r.starter == seat { 1.0 } else { 0.0 };
            ordered(r.cards.get(seat), lowest, k, &mut slot[1..1 + k * k]);
            ordered(r.cards.get(seat.other()), lowest, k, &mut slot[1 + k * k..]);
        }
    }
}

//! Thwart Omega in OpenSpiel ([`crate::spiel`]): `B x W y` is action `x * (n - 1) + y'` on a
//! board of `n` cells, with cells numbered row by row and `y'` the white cell's number among the
//! cells other than `x`. No chance.
//!
//! Tensors, from the seat's view: the board (five planes over the cells: black, double black,
//! white, double white, burned), whether the seat scores black, the rounds played; the
//! observation then has the last round's placements (the seat's black and white cells, the
//! other's), the information state every round's (one such slot per round, in order).

use super::*;
use crate::spiel::{one_hot, Encoded, SpielInfo};

impl ThwartOmega {
    fn cells(&self) -> usize {
        usize::from(self.size()) * usize::from(self.size())
    }

    /// The most rounds in a game.
    fn max_rounds(&self) -> usize {
        self.cells() / 2 + 1
    }
}

/// Writes the board, the colour and the rounds; returns where the placements start.
fn board(view: &ThwartOmegaView, seat: Seat, n: usize, out: &mut [f32]) -> usize {
    out[..5 * n + 2].fill(0.0);
    for (i, symbol) in view.rows.iter().flat_map(|r| r.chars()).enumerate().take(n) {
        let plane = match symbol {
            'b' => 0,
            'B' => 1,
            'w' => 2,
            'W' => 3,
            '#' => 4,
            _ => continue,
        };
        one_hot(out, plane * n + i);
    }
    out[5 * n] = if view.black.seat == seat { 1.0 } else { 0.0 };
    out[5 * n + 1] = view.rounds as f32;
    5 * n + 2
}

/// Writes one round's placements (the seat's, then the other's) into `slot` (4 `n`).
fn round(view: &ThwartOmegaView, seat: Seat, n: usize, slot: &mut [f32]) {
    let Some(last) = &view.last_round else {
        return;
    };
    let size = view.options.size;
    let (mine, theirs) = match seat {
        Seat::P1 => (&last.p1, &last.p2),
        Seat::P2 => (&last.p2, &last.p1),
    };
    let index =
        |c: crate::grid::Cell| usize::from(c.row) * usize::from(size) + usize::from(c.column);
    for (k, text) in [mine, theirs].into_iter().enumerate() {
        if let Ok(p) = super::notation::parse_placement(text, size) {
            one_hot(&mut slot[2 * k * n..(2 * k + 1) * n], index(p.black));
            one_hot(&mut slot[(2 * k + 1) * n..(2 * k + 2) * n], index(p.white));
        }
    }
}

impl Encoded for ThwartOmega {
    fn spiel_info(&self) -> SpielInfo {
        let n = self.cells();
        crate::spiel::win_loss(SpielInfo {
            num_distinct_actions: (n * n.saturating_sub(1)).max(1),
            max_game_length: self.max_rounds(),
            tensors: Some((9 * n + 2, 5 * n + 2 + 4 * n * self.max_rounds())),
            ..crate::spiel::base(
                "B x W y is x * (n - 1) + y' (cells numbered row by row, n cells, y' the white \
                 cell's number among the cells other than x); tensors: the board, the colour \
                 scored, the rounds, the placements of the last round (observation) or of every \
                 round (information state)",
            )
        })
    }

    fn action_id(&self, _seat: Seat, mv: &Placement) -> Option<i64> {
        let size = i64::from(self.size());
        let index = |c: crate::grid::Cell| i64::from(c.row) * size + i64::from(c.column);
        let (b, w) = (index(mv.black), index(mv.white));
        let w = if w > b { w - 1 } else { w };
        Some(b * (size * size - 1) + w)
    }

    fn observation_tensor(&self, view: &ThwartOmegaView, seat: Seat, out: &mut [f32]) {
        let n = self.cells();
        let at = board(view, seat, n, out);
        round(view, seat, n, &mut out[at..at + 4 * n]);
    }

    fn update_information_tensor(&self, view: &ThwartOmegaView, seat: Seat, out: &mut [f32]) {
        let n = self.cells();
        let at = board(view, seat, n, out);
        if let Some(r) = (view.rounds as usize).checked_sub(1) {
            if r < self.max_rounds() {
                let slot = at + 4 * n * r;
                round(view, seat, n, &mut out[slot..slot + 4 * n]);
            }
        }
    }
}

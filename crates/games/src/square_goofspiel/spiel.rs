//! Square Goofspiel in OpenSpiel ([`crate::spiel`]): `pass` is action 0, a card of strength `s`
//! is `s`. A phase's draw of six cells is six chance nodes in a row, each drawing one cell (its
//! index `row * 6 + column`) uniformly from those not drawn yet: the same distribution as the
//! game's ordered draw.
//!
//! Tensors, from the seat's view, own seat first: the phase (one-hot), the phase's cells in
//! draw order (six one-hot slots over the 36 cells), the cell up now, both hands (cards per
//! strength), both line points, then every auction played in order (its cell, the seat's bid,
//! the other's bid). The view keeps every auction, so the information-state tensor is the same.

use super::*;
use crate::spiel::{one_hot, Encoded, SpielInfo};

/// The length of both tensors.
const TENSOR: usize = PHASES
    + AUCTIONS_PER_PHASE * CELLS
    + CELLS
    + 2 * MAX_STRENGTH as usize
    + 2
    + CELLS * (CELLS + 2 * (MAX_STRENGTH as usize + 1));

impl Encoded for SquareGoofspiel {
    fn spiel_info(&self) -> SpielInfo {
        let random = !self.options().fixed_draw;
        crate::spiel::win_loss(SpielInfo {
            num_distinct_actions: 7,
            max_chance_outcomes: if random { CELLS } else { 0 },
            max_game_length: self.cells(),
            max_chance_nodes: if random { self.cells() } else { 0 },
            stochastic: random,
            tensors: Some((TENSOR, TENSOR)),
            ..crate::spiel::base(
                "pass is 0, a card of strength s is s; a phase's draw is six chance nodes, each \
                 drawing one cell (row * 6 + column) from those not drawn; tensors: phase, the \
                 phase's cells, the cell up, both hands, both line points, every auction",
            )
        })
    }

    fn action_id(&self, _seat: Seat, bid: &Bid) -> Option<i64> {
        Some(i64::from(bid.value()))
    }

    fn action_name(&self, id: i64) -> String {
        match id {
            0 => "pass".into(),
            _ => id.to_string(),
        }
    }

    fn chance_ids(&self, partial: &[i64], out: &mut Vec<(i64, f64, Option<PhaseDraw>)>) {
        let free: Vec<Cell> = Cell::all()
            .filter(|&c| {
                self.is_on_board(c)
                    && !self.is_auctioned(c)
                    && !partial.contains(&(c.index() as i64))
            })
            .collect();
        let p = 1.0 / free.len() as f64;
        let last = partial.len() + 1 == self.per_phase();
        for cell in free {
            let outcome = if last {
                let mut cells: Vec<Cell> = partial
                    .iter()
                    .filter_map(|&i| Cell::from_index(i as usize))
                    .collect();
                cells.push(cell);
                PhaseDraw::new(&cells)
            } else {
                None
            };
            out.push((cell.index() as i64, p, outcome));
        }
    }

    fn chance_name(&self, _partial: &[i64], id: i64, _outcome: Option<&PhaseDraw>) -> String {
        Cell::from_index(id as usize).map_or_else(|| format!("cell {id}"), |c| c.to_string())
    }

    fn observation_tensor(&self, view: &SquareGoofspielView, seat: Seat, out: &mut [f32]) {
        let (me, other) = (seat, seat.other());
        let strengths = usize::from(MAX_STRENGTH);
        let mut at = 0;
        one_hot(&mut out[..PHASES], view.phase.saturating_sub(1));
        at += PHASES;
        for (i, pc) in view.phase_cells.iter().enumerate().take(AUCTIONS_PER_PHASE) {
            one_hot(
                &mut out[at + i * CELLS..at + (i + 1) * CELLS],
                pc.cell.index(),
            );
        }
        at += AUCTIONS_PER_PHASE * CELLS;
        if let Some(c) = view.up_now {
            one_hot(&mut out[at..at + CELLS], c.index());
        }
        at += CELLS;
        for s in [me, other] {
            for &card in &view.hands.get(s).cards {
                if let Some(x) = out.get_mut(at + usize::from(card).saturating_sub(1)) {
                    *x += 1.0;
                }
            }
            at += strengths;
        }
        out[at] = *view.line_points.get(me) as f32;
        out[at + 1] = *view.line_points.get(other) as f32;
        at += 2;
        let bids = strengths + 1;
        let width = CELLS + 2 * bids;
        for (i, a) in view.auctions.iter().enumerate().take(CELLS) {
            let slot = &mut out[at + i * width..at + (i + 1) * width];
            let (mine, theirs) = match seat {
                Seat::P1 => (a.p1, a.p2),
                Seat::P2 => (a.p2, a.p1),
            };
            one_hot(&mut slot[..CELLS], a.cell.index());
            one_hot(&mut slot[CELLS..CELLS + bids], usize::from(mine.value()));
            one_hot(&mut slot[CELLS + bids..], usize::from(theirs.value()));
        }
    }

    fn update_information_tensor(&self, view: &SquareGoofspielView, seat: Seat, out: &mut [f32]) {
        out.fill(0.0);
        self.observation_tensor(view, seat, out);
    }
}

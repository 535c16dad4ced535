//! Galespiel in OpenSpiel ([`crate::spiel`]): 0 `skip`, 1 `use` (item windows); `2 + 2 * slot +
//! aid` a bid; 34 + `e` finishing the build (`done`, `e` for Emergency Delivery), `36 + 64 * e +
//! spot` building one bridge (the game's own representative subset: one bridge per build
//! decision); `164 + set` an upgrade of the card slots in `set`. Chance: the cycle's prize order
//! by its rank among the 1260 distinct orders.
//!
//! Tensors, from the seat's view, own seat first (`S` card slots, 61 spots, prizes one-hot over
//! 0..=8): the spots (own bridge, other's bridge, cost), each seat (materials, per slot in hand,
//! upgraded and value, items held and used, dots surrounded, cheapest crossing and whether cut
//! off), the rounds played and without a bridge, the prize up, the cycle's positions as far as
//! the seat knows them (Crystal Ball or Survey; unknown is all zero), the prizes left (counts),
//! who acts (the seat, the other, both, chance, nobody) and the last round (its prize, each bid's
//! slot, upgrade, aid and value, the winner, Emergency Delivery, the price). The
//! information-state tensor then has every round in order ([`MAX_ROUNDS`] slots): its prize,
//! each bid (slot, upgrade, aid), the winner and the spots built.

use super::*;
use crate::spiel::{acting_slot, one_hot, Encoded, SpielInfo, ACTING_SLOTS};

/// Prize values are one-hot over 0..=8.
const PRIZE_SLOTS: usize = 9;

impl Galespiel {
    fn slots(&self) -> usize {
        self.options().cards.len()
    }

    /// One seat's part of the observation.
    fn seat_len(&self) -> usize {
        1 + 3 * self.slots() + 2 * Item::ALL.len() + 3
    }

    /// One bid in the last round (slot one-hot, upgraded, aid, value).
    fn bid_len(&self) -> usize {
        self.slots() + 3
    }

    fn observation_len(&self) -> usize {
        3 * SPOTS
            + 2 * self.seat_len()
            + 2
            + PRIZE_SLOTS
            + CYCLE * PRIZE_SLOTS
            + PRIZE_SLOTS
            + 5
            + (1 + PRIZE_SLOTS + 2 * self.bid_len() + 2 + 2)
    }

    /// One round in the information state: prize, both bids (slot, upgraded, aid), winner, built.
    fn round_len(&self) -> usize {
        PRIZE_SLOTS + 2 * (self.slots() + 2) + 2 + SPOTS
    }

    /// Writes a bid: its slot one-hot, then upgraded and aid (and its value if `value`).
    fn write_bid(&self, bid: &PlayedBid, value: bool, out: &mut [f32]) {
        let s = self.slots();
        if let Some(slot) = self.options().cards.slot_of(bid.card) {
            one_hot(&mut out[..s], slot);
        }
        out[s] = f32::from(u8::from(bid.upgraded));
        out[s + 1] = f32::from(u8::from(bid.aid));
        if value {
            out[s + 2] = f32::from(bid.value);
        }
    }
}

/// The index of a spot's name among the spots (the views list them in that order).
fn spot_index(view: &GalespielView, name: &str) -> Option<usize> {
    view.spots.iter().position(|s| s.spot == name)
}

const BIDS: i64 = 2;
const DONE: i64 = 34;
const BUILD: i64 = 36;
const UPGRADE: i64 = 164;

impl Encoded for Galespiel {
    fn spiel_info(&self) -> SpielInfo {
        let slots = self.options().cards.len();
        let rounds = usize::from(self.options().rounds);
        let fixed = self.options().fixed_draw;
        let orders = if fixed {
            0
        } else if self.options().prizes == PRIZES {
            1260
        } else {
            let mut orders = Vec::new();
            distinct_orders(&self.options().prizes[..self.cycle()], &mut orders);
            orders.len()
        };
        SpielInfo {
            num_distinct_actions: UPGRADE as usize + (1 << slots),
            max_chance_outcomes: orders,
            max_game_length: rounds * 6,
            max_chance_nodes: if fixed { 0 } else { rounds / self.cycle() + 1 },
            stochastic: !fixed,
            // With the fixed draw nothing is hidden but the other seat's bid.
            hidden: !fixed,
            tensors: Some((
                self.observation_len(),
                self.observation_len() + rounds * self.round_len(),
            )),
            ..crate::spiel::base(
                "0 skip, 1 use (item windows); 2 + 2 * slot + aid a bid; 34 + e done, 36 + 64 * e \
                 + spot one bridge (e: Emergency Delivery); 164 + set an upgrade; the cycle's \
                 prize order by rank among the 1260 orders; tensors: spots, both seats, rounds, \
                 prizes as known, who acts, the last round, every round",
            )
        }
    }

    fn action_id(&self, _seat: Seat, mv: &Move) -> Option<i64> {
        Some(match *mv {
            Move::Item(used) => i64::from(used),
            Move::Bid { slot, aid } => BIDS + 2 * i64::from(slot) + i64::from(aid),
            Move::Build {
                spots: 0,
                emergency,
            } => DONE + i64::from(emergency),
            Move::Build { spots, emergency } if spots.count_ones() == 1 => {
                BUILD + 64 * i64::from(emergency) + i64::from(spots.trailing_zeros())
            }
            // Several bridges at once are not in the abstraction (legal_moves never lists them).
            Move::Build { .. } => return None,
            Move::Upgrade(set) => UPGRADE + i64::from(set),
        })
    }

    fn observation_tensor(&self, view: &GalespielView, seat: Seat, out: &mut [f32]) {
        let (me, other) = (seat, seat.other());
        let mut at = 0;
        for (i, spot) in view.spots.iter().enumerate().take(SPOTS) {
            match spot.bridge {
                Some(s) if s == me => out[i] = 1.0,
                Some(_) => out[SPOTS + i] = 1.0,
                None => {}
            }
            out[2 * SPOTS + i] = f32::from(spot.cost);
        }
        at += 3 * SPOTS;
        let s = self.slots();
        for who in [me, other] {
            let p = view.players.get(who);
            out[at] = f32::from(p.materials);
            for (slot, card) in p.cards.iter().enumerate().take(s) {
                out[at + 1 + slot] = f32::from(u8::from(card.in_hand));
                out[at + 1 + s + slot] = f32::from(u8::from(card.upgraded));
                out[at + 1 + 2 * s + slot] = f32::from(card.value);
            }
            let items = at + 1 + 3 * s;
            for (k, item) in Item::ALL.iter().enumerate() {
                out[items + k] = f32::from(u8::from(p.items_held.contains(item)));
                out[items + Item::ALL.len() + k] = f32::from(u8::from(p.items_used.contains(item)));
            }
            let rest = items + 2 * Item::ALL.len();
            out[rest] = p.dots_surrounded as f32;
            match p.cheapest_connection {
                Some(c) => out[rest + 1] = c as f32,
                None => out[rest + 2] = 1.0,
            }
            at += self.seat_len();
        }
        out[at] = f32::from(view.rounds);
        out[at + 1] = f32::from(view.rounds_without_bridge);
        at += 2;
        if let Some(p) = view.prize {
            one_hot(&mut out[at..at + PRIZE_SLOTS], usize::from(p));
        }
        at += PRIZE_SLOTS;
        let first = self.cycle().saturating_sub(view.upcoming.len());
        for (j, known) in view.upcoming.iter().enumerate() {
            if let Some(p) = known {
                let k = first + j;
                one_hot(
                    &mut out[at + k * PRIZE_SLOTS..at + (k + 1) * PRIZE_SLOTS],
                    usize::from(*p),
                );
            }
        }
        at += CYCLE * PRIZE_SLOTS;
        for &p in &view.prizes_left {
            if let Some(x) = out[at..at + PRIZE_SLOTS].get_mut(usize::from(p)) {
                *x += 1.0;
            }
        }
        at += PRIZE_SLOTS;
        out[at + acting_slot(view.pending, me)] = 1.0;
        at += ACTING_SLOTS;
        if let Some(r) = &view.last_round {
            out[at] = 1.0;
            one_hot(&mut out[at + 1..at + 1 + PRIZE_SLOTS], usize::from(r.prize));
            let bids = at + 1 + PRIZE_SLOTS;
            let b = self.bid_len();
            self.write_bid(r.bids.get(me), true, &mut out[bids..bids + b]);
            self.write_bid(r.bids.get(other), true, &mut out[bids + b..bids + 2 * b]);
            let end = bids + 2 * b;
            match r.winner {
                Some(w) if w == me => out[end] = 1.0,
                Some(_) => out[end + 1] = 1.0,
                None => {}
            }
            out[end + 2] = f32::from(u8::from(r.emergency));
            out[end + 3] = f32::from(r.paid);
        }
    }

    fn update_information_tensor(&self, view: &GalespielView, seat: Seat, out: &mut [f32]) {
        let obs = self.observation_len();
        out[..obs].fill(0.0);
        self.observation_tensor(view, seat, &mut out[..obs]);
        // The last round's slot, rewritten from the view after every step (its build follows
        // its bids): earlier rounds' slots stay as they were written.
        let Some(r) = &view.last_round else {
            return;
        };
        let Some(i) = usize::from(r.round)
            .checked_sub(1)
            .filter(|&i| i < usize::from(self.options().rounds))
        else {
            return;
        };
        let width = self.round_len();
        let slot = &mut out[obs + i * width..obs + (i + 1) * width];
        slot.fill(0.0);
        one_hot(&mut slot[..PRIZE_SLOTS], usize::from(r.prize));
        let b = self.slots() + 2;
        let (me, other) = (seat, seat.other());
        self.write_bid(
            r.bids.get(me),
            false,
            &mut slot[PRIZE_SLOTS..PRIZE_SLOTS + b],
        );
        self.write_bid(
            r.bids.get(other),
            false,
            &mut slot[PRIZE_SLOTS + b..PRIZE_SLOTS + 2 * b],
        );
        let end = PRIZE_SLOTS + 2 * b;
        match r.winner {
            Some(w) if w == me => slot[end] = 1.0,
            Some(_) => slot[end + 1] = 1.0,
            None => {}
        }
        for name in &r.built {
            if let Some(k) = spot_index(view, name) {
                slot[end + 2 + k] = 1.0;
            }
        }
    }
}

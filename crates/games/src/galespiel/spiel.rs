//! Galespiel in OpenSpiel ([`crate::spiel`]): 0 `skip`, 1 `use` (item windows); `2 + 2 * slot +
//! aid` a bid; 34 + `e` finishing the build (`done`, `e` for Emergency Delivery), `36 + 64 * e +
//! spot` building one bridge (the game's own representative subset: one bridge per build
//! decision); `164 + set` an upgrade of the card slots in `set`. Chance: the cycle's prize order
//! by its rank among the 1260 distinct orders.

use super::*;
use crate::spiel::{Encoded, SpielInfo};

const BIDS: i64 = 2;
const DONE: i64 = 34;
const BUILD: i64 = 36;
const UPGRADE: i64 = 164;

impl Encoded for Galespiel {
    fn spiel_info(&self) -> SpielInfo {
        let slots = self.options().cards.len();
        SpielInfo {
            num_distinct_actions: UPGRADE as usize + (1 << slots),
            max_chance_outcomes: 1260,
            max_game_length: usize::from(MAX_ROUNDS) * 6,
            max_chance_nodes: usize::from(MAX_ROUNDS) / CYCLE + 1,
            stochastic: true,
            hidden: true,
            ..crate::spiel::base(
                "0 skip, 1 use (item windows); 2 + 2 * slot + aid a bid; 34 + e done, 36 + 64 * e \
                 + spot one bridge (e: Emergency Delivery); 164 + set an upgrade; the cycle's \
                 prize order by rank among the 1260 orders",
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
}

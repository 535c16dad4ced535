//! A small variant of Galespiel, for research (tabular algorithms such as OpenSpiel's CFR), not
//! in the seed. Five options, each the seed's rule when absent:
//!
//! - `size` (5, 9 or 13): the lattice's side. The board is the central `size`×`size` window of the
//!   board file (default or custom), named from `a1` again; a window with an even offset keeps
//!   every dot's colour, so 5 and 9 are the sides below 13. [`geometry::of_side`] builds the
//!   tables from the side; 13 builds the seed's.
//! - `prizes`: a cycle's prize cards (1 to 7 prizes, each 1 to 8), the seed's `3 4 4 5 5 6 8`.
//! - `draw` (`random`, `fixed`): `fixed` plays every cycle's prizes in the order `prizes` lists
//!   them, with no chance (and so nothing hidden besides the bids).
//! - `hand`: each player's cards, the table's lowest `hand` cards (at least one per prize).
//! - `rounds`: the round at whose end the stalemate comes at the latest (70 in the seed).

use super::data::MAX_CARDS;
use super::*;

/// Option `size`.
pub(super) const SIZE: OptionDoc = OptionDoc {
    name: "size",
    default: "13",
    allowed: "5, 9 or 13",
    help: "a variant for research, not in the seed: the lattice's side; the board is the central \
           size x size window of the board file, its points named from a1",
};

/// Option `prizes`.
pub(super) const PRIZES_OPTION: OptionDoc = OptionDoc {
    name: "prizes",
    default: "3 4 4 5 5 6 8",
    allowed: "1 to 7 prizes, each a whole number from 1 to 8, separated by spaces",
    help: "a variant for research, not in the seed: the prize cards of a cycle (the cycle has \
           as many rounds)",
};

/// Option `draw`.
pub(super) const DRAW: OptionDoc = OptionDoc {
    name: "draw",
    default: "random",
    allowed: "random or fixed",
    help: "a variant for research, not in the seed: fixed plays every cycle's prizes in the \
           order the option prizes lists them, with no chance; random is the seed's shuffle",
};

/// Option `hand`.
pub(super) const HAND: OptionDoc = OptionDoc {
    name: "hand",
    default: "9",
    allowed: "an integer from the number of prizes to the card table's cards (9 in the default \
              table); absent: every card",
    help: "a variant for research, not in the seed: each player's bidding cards, the table's \
           lowest hand cards",
};

/// Option `rounds`.
pub(super) const ROUNDS: OptionDoc = OptionDoc {
    name: "rounds",
    default: "70",
    allowed: "an integer from 1 to 70",
    help: "a variant for research, not in the seed: the round at whose end the game is a \
           stalemate at the latest",
};

/// The variant's options as read.
pub(super) struct Variant {
    pub geometry: &'static Geometry,
    pub prizes: [u8; CYCLE],
    pub cycle: u8,
    pub fixed: bool,
    pub hand: Option<usize>,
    pub rounds: u8,
}

fn bad(doc: &OptionDoc, value: &Value, why: Option<String>) -> OptionsError {
    OptionsError::BadValue {
        name: doc.name.to_string(),
        value: value.to_string(),
        allowed: why.unwrap_or_else(|| doc.allowed.to_string()),
    }
}

/// Reads the variant's options (the seed's rules when absent).
pub(super) fn read(raw: &RawOptions, r: &OptionReader<'_>) -> Result<Variant, OptionsError> {
    let side = r.int("size", SIDE as i64, 5, SIDE as i64)?;
    let geometry = geometry::of_side(side as u8).ok_or_else(|| {
        bad(
            &SIZE,
            raw.get("size").unwrap_or(&Value::Null),
            Some(format!(
                "5, 9 or 13 (the central window of the 13 x 13 board keeps the dots' colours \
                 only for these; {side} would swap them)"
            )),
        )
    })?;
    let (prizes, cycle) = match raw.get("prizes") {
        None => (PRIZES, CYCLE as u8),
        Some(v) => {
            let Value::String(text) = v else {
                return Err(bad(&PRIZES_OPTION, v, None));
            };
            let parts: Vec<&str> = text
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .collect();
            if parts.is_empty() || parts.len() > CYCLE {
                return Err(bad(
                    &PRIZES_OPTION,
                    v,
                    Some(format!(
                        "1 to 7 prizes, each a whole number from 1 to 8 (not {} prizes)",
                        parts.len()
                    )),
                ));
            }
            let mut prizes = [0u8; CYCLE];
            for (k, t) in parts.iter().enumerate() {
                prizes[k] = t
                    .parse::<u8>()
                    .ok()
                    .filter(|p| (1..=8).contains(p))
                    .ok_or_else(|| {
                        bad(
                            &PRIZES_OPTION,
                            v,
                            Some(format!(
                                "1 to 7 prizes, each a whole number from 1 to 8 (`{t}` is not)"
                            )),
                        )
                    })?;
            }
            (prizes, parts.len() as u8)
        }
    };
    let fixed = r.choice("draw", 0, &["random", "fixed"])? == 1;
    let hand = match raw.get("hand") {
        None => None,
        Some(_) => Some(r.int("hand", 9, 1, MAX_CARDS as i64)? as usize),
    };
    let rounds = r.int("rounds", i64::from(MAX_ROUNDS), 1, i64::from(MAX_ROUNDS))? as u8;
    Ok(Variant {
        geometry,
        prizes,
        cycle,
        fixed,
        hand,
        rounds,
    })
}

/// Checks `hand` against the cycle and the table, once both are known.
pub(super) fn check_hand(
    raw: &RawOptions,
    hand: Option<usize>,
    cycle: u8,
    table: usize,
) -> Result<(), OptionsError> {
    let Some(n) = hand else {
        return Ok(());
    };
    if n < usize::from(cycle) || n > table {
        return Err(bad(
            &HAND,
            raw.get("hand").unwrap_or(&Value::Null),
            Some(format!(
                "an integer from {cycle} (one card for each of the cycle's {cycle} prizes) to \
                 {table} (the card table's cards)"
            )),
        ));
    }
    Ok(())
}

impl Board {
    /// The central `geometry.side()`×`geometry.side()` window of this (13×13) board, its spots
    /// numbered on the small lattice.
    #[must_use]
    pub fn window(&self, geometry: &Geometry) -> Board {
        let off = ((SIDE - geometry.side()) / 2) as u8;
        let seed = geometry::seed();
        let mut costs = [0u8; SPOTS];
        for (i, cost) in costs.iter_mut().enumerate().take(geometry.spots()) {
            let p = geometry.point(Spot::from_index(i));
            let big = seed
                .spot_at(Point {
                    col: p.col + off,
                    row: p.row + off,
                })
                .expect("an even offset maps spots to spots");
            *cost = self.costs()[big.index()];
        }
        self.with_costs(costs)
    }
}

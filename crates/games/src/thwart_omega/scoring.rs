//! Groups and their weights, and how a finished game compares the two colours (the product,
//! then the weights largest first), with the words that explain it.

use super::*;

/// The weights of one colour's groups, largest first. A fixed array: computing it never
/// allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Groups {
    pub(super) len: u8,
    pub(super) weights: [u8; MAX_GROUPS],
}

impl Groups {
    /// The group weights, largest first (a double cell weighs 2).
    #[must_use]
    pub fn weights(&self) -> &[u8] {
        &self.weights[..usize::from(self.len)]
    }

    /// The score: the product of the weights, or 0 for a colour with no stones.
    #[must_use]
    pub fn product(&self) -> u64 {
        if self.len == 0 {
            return 0;
        }
        self.weights().iter().fold(1u64, |p, &w| {
            p.checked_mul(u64::from(w))
                .expect("products fit u64 on boards up to MAX_SIZE (see the module docs)")
        })
    }

    pub(super) fn push(&mut self, weight: u8) {
        // Insertion keeps the weights sorted, largest first.
        let mut i = usize::from(self.len);
        while i > 0 && self.weights[i - 1] < weight {
            self.weights[i] = self.weights[i - 1];
            i -= 1;
        }
        self.weights[i] = weight;
        self.len += 1;
    }
}

/// How a finished game compares the two colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The larger product wins.
    Product(Colour),
    /// Equal products; the colour with the larger group at this position (0 = the largest) wins,
    /// a missing group counting 0.
    Groups(Colour, usize),
    /// Equal products and equal group weights.
    FullTie,
}

/// Compares the two colours' groups as the rules do: the product, then the weights largest first.
#[must_use]
pub fn compare(black: &Groups, white: &Groups) -> Verdict {
    let winner = |o: Ordering| {
        if o == Ordering::Greater {
            Colour::Black
        } else {
            Colour::White
        }
    };
    match black.product().cmp(&white.product()) {
        Ordering::Equal => {}
        o => return Verdict::Product(winner(o)),
    }
    let (b, w) = (black.weights(), white.weights());
    for i in 0..b.len().max(w.len()) {
        let x = b.get(i).copied().unwrap_or(0);
        let y = w.get(i).copied().unwrap_or(0);
        if x != y {
            return Verdict::Groups(winner(x.cmp(&y)), i);
        }
    }
    Verdict::FullTie
}

/// "largest", "2nd largest", ...
pub(super) fn ordinal_largest(i: usize) -> String {
    let n = i + 1;
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    if n == 1 {
        "largest".to_string()
    } else {
        format!("{n}{suffix} largest")
    }
}

/// Weights as text, `6 4 1`, or `none`.
pub(super) fn list(weights: &[u8]) -> String {
    if weights.is_empty() {
        return "none".to_string();
    }
    weights
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The winner's groups and the loser's, as text.
pub(super) fn winner_first(black: &Groups, white: &Groups, winner: Colour) -> (String, String) {
    let (b, w) = (list(black.weights()), list(white.weights()));
    if winner == Colour::Black {
        (b, w)
    } else {
        (w, b)
    }
}

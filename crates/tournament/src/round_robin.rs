//! Round robin by Berger tables (the FIDE Handbook's, C.05 Annex 1).
//!
//! With an even number `n` of players numbered 1..n (seed order), players `i` and `j` below `n`
//! meet in round `((i + j - 2) mod (n - 1)) + 1`, the smaller in `p1` when `i + j` is odd and
//! the larger when it is even; player `n` meets `i` in round `((2i - 2) mod (n - 1)) + 1`, in
//! `p1` in the even rounds. An odd number of players adds a phantom `n`: whoever meets it has
//! the bye. A double round robin plays the table twice, seats swapped in the second cycle.
//! Everyone ends with a seat balance of at most one in a single cycle and zero in a double.

use crate::{Bracket, Pairing, PlayerId, Round};

/// Every round of a round robin for `players` players.
#[must_use]
pub fn schedule(players: usize, double: bool) -> Vec<Round> {
    if players < 2 {
        return Vec::new();
    }
    let n = if players.is_multiple_of(2) {
        players
    } else {
        players + 1
    };
    let m = n - 1;
    let mut rounds = vec![Round::default(); m];
    // 1-based in the formulas, 0-based out; the phantom is `n` when `players` is odd.
    let mut put = |round: usize, white: usize, black: usize| {
        let r = &mut rounds[round - 1];
        if white > players {
            r.byes.push(black - 1);
        } else if black > players {
            r.byes.push(white - 1);
        } else {
            r.games.push(Pairing {
                p1: white - 1,
                p2: black - 1,
                bracket: Bracket::Main,
            });
        }
    };
    for i in 1..n {
        let r = (2 * i - 2) % m + 1;
        if r % 2 == 0 {
            put(r, n, i);
        } else {
            put(r, i, n);
        }
        for j in i + 1..n {
            let r = (i + j - 2) % m + 1;
            if (i + j) % 2 == 1 {
                put(r, i, j);
            } else {
                put(r, j, i);
            }
        }
    }
    for r in &mut rounds {
        r.games.sort_by_key(|g| g.p1.min(g.p2));
    }
    if double {
        let second: Vec<Round> = rounds
            .iter()
            .map(|r| Round {
                games: r
                    .games
                    .iter()
                    .map(|g| Pairing {
                        p1: g.p2,
                        p2: g.p1,
                        bracket: g.bracket,
                    })
                    .collect(),
                byes: r.byes.clone(),
                waiting: Vec::new(),
            })
            .collect();
        rounds.extend(second);
    }
    rounds
}

/// The round in which `a` and `b` meet (0-based, first cycle).
#[must_use]
pub fn round_of(players: usize, a: PlayerId, b: PlayerId) -> Option<usize> {
    schedule(players, false).iter().position(|r| {
        r.games
            .iter()
            .any(|g| (g.p1 == a && g.p2 == b) || (g.p1 == b && g.p2 == a))
    })
}

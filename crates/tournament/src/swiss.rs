//! Swiss pairing by the Dutch system's principles (FIDE Handbook C.04.3), simplified and stated
//! here so that the page can show them:
//!
//! 1. **Score groups.** Players are ranked by points, then seed. Each is paired inside their
//!    score group where possible, the top half against the bottom half (in an eight-player
//!    group, 1st v 5th, 2nd v 6th, ...); a player who cannot be paired there *floats* to the
//!    nearest score group below (or above).
//! 2. **No repeat pairing** while one can be avoided: two players meet twice only if no pairing
//!    of the whole round avoids it.
//! 3. **Seat balance within one.** Two players who have both sat in `p1` more often than in
//!    `p2` (or both the other way) are not paired while the round can be paired otherwise; the
//!    player with the lower balance (`p1` games minus `p2` games) takes `p1`; equal balances:
//!    the one who sat in `p2` last, then the higher ranked on odd boards of round 1 and the
//!    lower ranked on even boards.
//! 4. **One bye at most.** With an odd number of players the lowest-ranked player who has not
//!    had a bye sits out, scoring a point (a win), provided the others can then be paired.
//!
//! Principles 2 and 3 are hard constraints tried first; when no pairing meets both (late in a
//! Swiss of few players), 2 gives way first: seats stay within one of balance (stricter than
//! FIDE's two, and it can outrank the score groups: two players who both had `p1` more often
//! are not paired), and as few players as the search finds meet again. Within them, the pairing closest to 1 is chosen by a depth-first search in
//! the order of preference (the first complete pairing found wins).

use crate::{last_seat, seat, seat_balance, Bracket, Pairing, PlayedRound, PlayerId, Round};

/// How many steps the search takes at one level of constraints before it relaxes them (so an
/// impossible set of constraints among 64 players cannot take exponential time).
const SEARCH_BUDGET: usize = 200_000;

/// Each player's points after `past` (a win or a bye 1, a draw ½), in half points.
#[must_use]
pub fn half_points(players: usize, past: &[PlayedRound]) -> Vec<u32> {
    let mut pts = vec![0u32; players];
    for round in past {
        for g in &round.games {
            for p in [g.pairing.p1, g.pairing.p2] {
                pts[p] += (g.points(p).unwrap_or(0.0) * 2.0) as u32;
            }
        }
        for &b in &round.byes {
            pts[b] += 2;
        }
    }
    pts
}

/// Whether `a` and `b` have met.
fn met(past: &[PlayedRound], a: PlayerId, b: PlayerId) -> bool {
    past.iter()
        .flat_map(|r| &r.games)
        .any(|g| g.has(a) && g.opponent(a) == Some(b))
}

/// The next Swiss round for `players` players after `past`.
#[must_use]
pub fn pair(players: usize, past: &[PlayedRound]) -> Round {
    let points = half_points(players, past);
    let balance = seat_balance(players, past);
    let last = last_seat(players, past);
    let mut had_bye = vec![false; players];
    for r in past {
        for &b in &r.byes {
            had_bye[b] = true;
        }
    }
    let met_table: Vec<Vec<bool>> = (0..players)
        .map(|a| (0..players).map(|b| a != b && met(past, a, b)).collect())
        .collect();
    // Ranked: points, then seed.
    let mut ranked: Vec<PlayerId> = (0..players).collect();
    ranked.sort_by_key(|&p| (std::cmp::Reverse(points[p]), p));
    let ctx = Context {
        points: &points,
        balance: &balance,
        met: &met_table,
    };
    if players % 2 == 0 {
        for level in [Level::Strict, Level::SeatsOnly, Level::Anything] {
            if let Some(pairs) = ctx.pair_all(&ranked, level) {
                return finish(pairs, Vec::new(), &balance, &last, past.is_empty());
            }
        }
    }
    // The bye: the lowest ranked who has not had one (a second bye only when everyone has had
    // one), at the strictest level the others can then be paired at.
    let without: Vec<PlayerId> = ranked
        .iter()
        .rev()
        .copied()
        .filter(|&p| !had_bye[p])
        .collect();
    let candidates = if without.is_empty() {
        ranked.iter().rev().copied().collect()
    } else {
        without
    };
    for level in [Level::Strict, Level::SeatsOnly, Level::Anything] {
        for &bye in &candidates {
            let rest: Vec<PlayerId> = ranked.iter().copied().filter(|&p| p != bye).collect();
            if let Some(pairs) = ctx.pair_all(&rest, level) {
                return finish(pairs, vec![bye], &balance, &last, past.is_empty());
            }
        }
    }
    unreachable!("at the level `Anything` every even list pairs")
}

fn finish(
    pairs: Vec<(PlayerId, PlayerId)>,
    byes: Vec<PlayerId>,
    balance: &[i32],
    last: &[Option<bool>],
    first_round: bool,
) -> Round {
    let games = pairs
        .into_iter()
        .enumerate()
        .map(|(board, (a, b))| {
            let (p1, p2) = if first_round && board % 2 == 1 {
                (b, a)
            } else {
                seat(a, b, balance, last)
            };
            Pairing {
                p1,
                p2,
                bracket: Bracket::Main,
            }
        })
        .collect();
    Round {
        games,
        byes,
        waiting: Vec::new(),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// No repeat, no two players pushed past a seat balance of one.
    Strict,
    /// No two players pushed past a seat balance of one (a repeat if it cannot be avoided).
    SeatsOnly,
    /// Anything.
    Anything,
}

struct Context<'a> {
    points: &'a [u32],
    balance: &'a [i32],
    met: &'a [Vec<bool>],
}

impl Context<'_> {
    fn allowed(&self, a: PlayerId, b: PlayerId, level: Level) -> bool {
        match level {
            Level::Anything => true,
            Level::SeatsOnly => self.seats_fit(a, b),
            Level::Strict => !self.met[a][b] && self.seats_fit(a, b),
        }
    }

    /// Whether pairing `a` and `b` keeps both within a seat balance of one (one of them must
    /// take the seat they have had more often if both lean the same way).
    fn seats_fit(&self, a: PlayerId, b: PlayerId) -> bool {
        !matches!(
            (self.balance[a].signum(), self.balance[b].signum()),
            (1, 1) | (-1, -1)
        )
    }

    /// Pairs everyone in `ranked` (best first), or `None` within the search budget.
    fn pair_all(&self, ranked: &[PlayerId], level: Level) -> Option<Vec<(PlayerId, PlayerId)>> {
        let mut budget = SEARCH_BUDGET;
        let mut out = Vec::new();
        self.search(ranked.to_vec(), level, &mut out, &mut budget)
            .then_some(out)
    }

    fn search(
        &self,
        rest: Vec<PlayerId>,
        level: Level,
        out: &mut Vec<(PlayerId, PlayerId)>,
        budget: &mut usize,
    ) -> bool {
        let Some((&top, others)) = rest.split_first() else {
            return true;
        };
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        // Everyone left needs someone allowed, or this branch is dead.
        if rest
            .iter()
            .any(|&p| !rest.iter().any(|&q| q != p && self.allowed(p, q, level)))
        {
            return false;
        }
        for opponent in self.preference(top, others) {
            if !self.allowed(top, opponent, level) {
                continue;
            }
            let next: Vec<PlayerId> = others.iter().copied().filter(|&p| p != opponent).collect();
            out.push((top, opponent));
            if self.search(next, level, out, budget) {
                return true;
            }
            out.pop();
            if *budget == 0 {
                return false;
            }
        }
        false
    }

    /// `top`'s opponents in order of preference: their own score group first, from the top of
    /// its bottom half (the Dutch system's S1 v S2), then the nearest groups.
    fn preference(&self, top: PlayerId, others: &[PlayerId]) -> Vec<PlayerId> {
        let group: Vec<PlayerId> = others
            .iter()
            .copied()
            .filter(|&p| self.points[p] == self.points[top])
            .collect();
        // With `top`, the group has `group.len() + 1` players; S2 starts at half of that.
        let half = group.len().div_ceil(2);
        let mut order: Vec<(bool, u32, usize, usize, PlayerId)> = others
            .iter()
            .enumerate()
            .map(|(rank, &p)| {
                let gap = self.points[top].abs_diff(self.points[p]);
                let within = group.iter().position(|&q| q == p).map_or(0, |i| {
                    // Position in the group counting `top` as 0: i + 1. Prefer S2 from its
                    // top down, then S1 from its bottom up.
                    let pos = i + 1;
                    if pos >= half {
                        pos - half
                    } else {
                        group.len() + (half - pos)
                    }
                });
                (self.met[top][p], gap, within, rank, p)
            })
            .collect();
        order.sort();
        order.into_iter().map(|(_, _, _, _, p)| p).collect()
    }
}

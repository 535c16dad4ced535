//! Elimination brackets for any number of players.
//!
//! **Single elimination.** The bracket has the next power of two slots, seeded the usual way
//! (in an eight-slot bracket 1 v 8, 4 v 5, 2 v 7, 3 v 6, so that the top two seeds can meet only
//! in the final); the slots past the last player are byes, which fall to the top seeds in the
//! first round (13 players: seeds 1, 2 and 3 have a bye). Each round pairs the winners of
//! neighbouring games. A draw counts as a win for `p1` here: the server has already given a
//! drawn game to the player holding the advantage before recording it.
//!
//! **Double elimination.** A player is out after a second loss. The winners' bracket is the
//! single elimination bracket above; its losers enter the losers' bracket, which is paired each
//! round among everyone with one loss (top half of the seeds against the bottom half, no
//! rematch while one can be avoided, a bye to the lowest seed who has not had one in it when
//! the count is odd). When one player is left in each, they meet in the final; if the losers'
//! bracket's player wins it, both have lost once and the final is played again.

use crate::{
    last_seat, seat, seat_balance, Bracket, Outcome, Pairing, PlayedRound, PlayerId, Round,
};

/// The standard seeding order of a bracket of `size` (a power of two) slots.
#[must_use]
pub fn seeding(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, n - 1 - s]).collect();
    }
    order
}

/// The rounds of a single elimination bracket of `players` players.
#[must_use]
pub fn bracket_rounds(players: usize) -> usize {
    players.max(1).next_power_of_two().trailing_zeros() as usize
}

/// The winner of the game between `a` and `b` in `round` (a draw goes to `p1`).
fn winner_between(round: &PlayedRound, a: PlayerId, b: PlayerId) -> Option<PlayerId> {
    round
        .games
        .iter()
        .find(|g| g.has(a) && g.opponent(a) == Some(b))
        .map(|g| match g.outcome {
            Outcome::P2 => g.pairing.p2,
            Outcome::P1 | Outcome::Draw => g.pairing.p1,
        })
}

/// The winners' bracket after `rounds` rounds: each slot's player (`None` for a bye), or
/// `None` when a game of it is missing from `past`.
fn tree(players: usize, past: &[PlayedRound], rounds: usize) -> Option<Vec<Option<PlayerId>>> {
    let size = players.next_power_of_two();
    let mut slots: Vec<Option<PlayerId>> = seeding(size)
        .into_iter()
        .map(|s| (s < players).then_some(s))
        .collect();
    for round in past.iter().take(rounds) {
        if slots.len() == 1 {
            break;
        }
        let mut next = Vec::with_capacity(slots.len() / 2);
        for pair in slots.chunks(2) {
            next.push(match (pair[0], pair[1]) {
                (Some(a), Some(b)) => Some(winner_between(round, a, b)?),
                (Some(a), None) | (None, Some(a)) => Some(a),
                (None, None) => None,
            });
        }
        slots = next;
    }
    Some(slots)
}

/// The games (and byes) of the bracket's next round from `slots`.
fn tree_round(
    slots: &[Option<PlayerId>],
    bracket: Bracket,
    past: &[PlayedRound],
    players: usize,
) -> Round {
    let balance = seat_balance(players, past);
    let last = last_seat(players, past);
    let mut round = Round::default();
    for pair in slots.chunks(2) {
        match (pair[0], pair[1]) {
            (Some(a), Some(b)) => {
                let (p1, p2) = seat(a.min(b), a.max(b), &balance, &last);
                round.games.push(Pairing { p1, p2, bracket });
            }
            (Some(a), None) | (None, Some(a)) => round.byes.push(a),
            (None, None) => {}
        }
    }
    round
}

/// The next round of a single elimination bracket, or `None` when it is over.
#[must_use]
pub fn single_next(players: usize, past: &[PlayedRound]) -> Option<Round> {
    let slots = tree(players, past, past.len())?;
    (slots.len() > 1).then(|| tree_round(&slots, Bracket::Main, past, players))
}

/// Each player's losses after `past` (a draw is a loss for `p2`, as above).
#[must_use]
pub fn losses(players: usize, past: &[PlayedRound]) -> Vec<u32> {
    let mut losses = vec![0; players];
    for g in past.iter().flat_map(|r| &r.games) {
        let loser = match g.outcome {
            Outcome::P2 => g.pairing.p1,
            Outcome::P1 | Outcome::Draw => g.pairing.p2,
        };
        losses[loser] += 1;
    }
    losses
}

/// The next round of a double elimination bracket, or `None` when it is over.
#[must_use]
pub fn double_next(players: usize, past: &[PlayedRound]) -> Option<Round> {
    let lost = losses(players, past);
    let alive: Vec<PlayerId> = (0..players).filter(|&p| lost[p] < 2).collect();
    if alive.len() <= 1 {
        return None;
    }
    let balance = seat_balance(players, past);
    let last = last_seat(players, past);
    // The winners' bracket runs one round per tournament round until one player is left in it.
    let slots = tree(players, past, past.len())?;
    let mut round = if slots.len() > 1 {
        tree_round(&slots, Bracket::Winners, past, players)
    } else {
        Round::default()
    };
    let one_loss: Vec<PlayerId> = alive.iter().copied().filter(|&p| lost[p] == 1).collect();
    if slots.len() == 1 {
        let champion = slots[0].expect("a bracket's last slot holds a player");
        if lost[champion] == 1 {
            // The final was lost by the winners' bracket's player: it is played again.
            let (a, b) = (alive[0], alive[1]);
            let (p1, p2) = seat(a, b, &balance, &last);
            round.games.push(Pairing {
                p1,
                p2,
                bracket: Bracket::Final,
            });
            return Some(round);
        }
        if one_loss.len() == 1 {
            let (p1, p2) = seat(champion, one_loss[0], &balance, &last);
            round.games.push(Pairing {
                p1,
                p2,
                bracket: Bracket::Final,
            });
            return Some(round);
        }
        round.waiting.push(champion);
    }
    match one_loss.len() {
        0 => {}
        1 => round.waiting.push(one_loss[0]),
        _ => {
            let mut had_bye = vec![false; players];
            for (i, r) in past.iter().enumerate() {
                // Only byes in the losers' bracket count here (a first-round bye in the
                // winners' bracket was given before any loss).
                let before = losses(players, &past[..i]);
                for &b in &r.byes {
                    if before[b] == 1 {
                        had_bye[b] = true;
                    }
                }
            }
            let mut ranked = one_loss.clone();
            ranked.sort_unstable();
            let mut bye = None;
            if ranked.len() % 2 == 1 {
                let pick = ranked
                    .iter()
                    .rev()
                    .copied()
                    .find(|&p| !had_bye[p])
                    .unwrap_or(*ranked.last().expect("odd, so not empty"));
                bye = Some(pick);
                ranked.retain(|&p| p != pick);
            }
            for (a, b) in pair_avoiding_rematches(&ranked, past) {
                let (p1, p2) = seat(a, b, &balance, &last);
                round.games.push(Pairing {
                    p1,
                    p2,
                    bracket: Bracket::Losers,
                });
            }
            round.byes.extend(bye);
        }
    }
    Some(round)
}

/// Pairs `ranked` (an even list, best first) top half against bottom half, without a rematch
/// where one can be avoided (depth-first, preferring the Dutch order).
fn pair_avoiding_rematches(ranked: &[PlayerId], past: &[PlayedRound]) -> Vec<(PlayerId, PlayerId)> {
    let met = |a: PlayerId, b: PlayerId| {
        past.iter()
            .flat_map(|r| &r.games)
            .any(|g| g.has(a) && g.opponent(a) == Some(b))
    };
    fn go(
        rest: &[PlayerId],
        met: &dyn Fn(PlayerId, PlayerId) -> bool,
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
        let half = rest.len() / 2;
        let mut order: Vec<usize> = (0..others.len()).collect();
        order.sort_by_key(|&i| (i + 1).abs_diff(half));
        for i in order {
            let b = others[i];
            if met(top, b) {
                continue;
            }
            let next: Vec<PlayerId> = others.iter().copied().filter(|&p| p != b).collect();
            out.push((top, b));
            if go(&next, met, out, budget) {
                return true;
            }
            out.pop();
        }
        false
    }
    let mut out = Vec::new();
    let mut budget = 100_000;
    if go(ranked, &met, &mut out, &mut budget) {
        return out;
    }
    // Every pairing repeats a game: top half against bottom half as they stand.
    let half = ranked.len() / 2;
    (0..half).map(|i| (ranked[i], ranked[i + half])).collect()
}

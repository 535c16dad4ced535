//! Standings with the usual tie-breaks.
//!
//! * Round robin: points, then head to head (the games among the tied players, when each has
//!   met each), then Sonneborn-Berger, then seed.
//! * Swiss: points, then Buchholz, then Sonneborn-Berger, then head to head, then seed.
//! * Elimination: the champion, then the others by the round they went out in (later is
//!   better; the final's loser second), then points, then seed.
//!
//! A win or a bye scores 1, a draw ½, a loss or a wait 0. *Buchholz* is the sum of the points of
//! every opponent met; *Sonneborn-Berger* is the sum, over the games played, of the opponent's
//! points times the points scored against them (all of a beaten opponent's points, half of a
//! drawn one's). Byes count for neither.

use serde::{Deserialize, Serialize};

use crate::{elimination, Format, PlayedRound, PlayerId};

/// One player's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The player.
    pub player: PlayerId,
    /// 1 for the first; players tied on points and every tie-break of the format share a rank
    /// (listed by seed), and the next rank counts them all (1, 1, 1, 4).
    pub rank: usize,
    /// Whether the rank is shared (an unbroken tie, shown as `=1`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tied: bool,
    /// Points.
    pub points: f64,
    /// Buchholz.
    pub buchholz: f64,
    /// Sonneborn-Berger.
    pub sonneborn_berger: f64,
    /// Games won, drawn, lost; byes.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Byes.
    pub byes: u32,
    /// Elimination: the round (1-based) the player went out in; `None` while in (or not an
    /// elimination).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_in_round: Option<usize>,
}

/// The standings after `past`, best first.
#[must_use]
pub fn standings(format: &Format, players: usize, past: &[PlayedRound]) -> Vec<Standing> {
    let mut lines: Vec<Standing> = (0..players)
        .map(|player| Standing {
            player,
            rank: 0,
            tied: false,
            points: 0.0,
            buchholz: 0.0,
            sonneborn_berger: 0.0,
            wins: 0,
            draws: 0,
            losses: 0,
            byes: 0,
            out_in_round: None,
        })
        .collect();
    for round in past {
        for g in &round.games {
            for p in [g.pairing.p1, g.pairing.p2] {
                let pts = g.points(p).unwrap_or(0.0);
                let line = &mut lines[p];
                line.points += pts;
                match pts {
                    x if x > 0.75 => line.wins += 1,
                    x if x > 0.25 => line.draws += 1,
                    _ => line.losses += 1,
                }
            }
        }
        for &b in &round.byes {
            lines[b].points += 1.0;
            lines[b].byes += 1;
        }
    }
    let points: Vec<f64> = lines.iter().map(|l| l.points).collect();
    for g in past.iter().flat_map(|r| &r.games) {
        for p in [g.pairing.p1, g.pairing.p2] {
            let o = g.opponent(p).expect("in the game");
            lines[p].buchholz += points[o];
            lines[p].sonneborn_berger += points[o] * g.points(p).unwrap_or(0.0);
        }
    }
    if format.is_elimination() {
        let limit = if matches!(format, Format::SingleElimination) {
            1
        } else {
            2
        };
        let mut lost = vec![0u32; players];
        for (i, round) in past.iter().enumerate() {
            let after = elimination::losses(players, &past[..=i]);
            for p in 0..players {
                if lost[p] < limit && after[p] >= limit {
                    lines[p].out_in_round = Some(i + 1);
                }
            }
            lost = after;
            let _ = round;
        }
    }
    let mut order: Vec<PlayerId> = (0..players).collect();
    let key = |p: PlayerId| -> Vec<f64> {
        let l = &lines[p];
        match format {
            Format::RoundRobin { .. } => vec![l.points, l.sonneborn_berger],
            Format::Swiss { .. } => vec![l.points, l.buchholz, l.sonneborn_berger],
            Format::SingleElimination | Format::DoubleElimination => {
                vec![l.out_in_round.map_or(f64::INFINITY, |r| r as f64), l.points]
            }
        }
    };
    let cmp = |a: &PlayerId, b: &PlayerId| {
        let (ka, kb) = (key(*a), key(*b));
        kb.partial_cmp(&ka).unwrap_or(std::cmp::Ordering::Equal)
    };
    order.sort_by(|a, b| cmp(a, b).then(a.cmp(b)));
    // Head to head decides among players tied on every key before it, when each has met each.
    let h2h_at = match format {
        Format::RoundRobin { .. } => Some(1),
        Format::Swiss { .. } => Some(3),
        _ => None,
    };
    // Each player's head-to-head score within a tie group it decided, if any.
    let mut mini_of: Vec<Option<f64>> = vec![None; players];
    if let Some(at) = h2h_at {
        let mut i = 0;
        while i < order.len() {
            let prefix = |p: PlayerId| key(p)[..at].to_vec();
            let mut j = i + 1;
            while j < order.len() && prefix(order[j]) == prefix(order[i]) {
                j += 1;
            }
            if j - i >= 2 {
                let group: Vec<PlayerId> = order[i..j].to_vec();
                if let Some(mini) = head_to_head(&group, past) {
                    for (&p, &m) in &mini {
                        mini_of[p] = Some(m);
                    }
                    let mut sorted = group.clone();
                    sorted.sort_by(|a, b| {
                        mini[b]
                            .partial_cmp(&mini[a])
                            .unwrap_or(std::cmp::Ordering::Equal)
                            .then(cmp(a, b))
                            .then(a.cmp(b))
                    });
                    order[i..j].copy_from_slice(&sorted);
                }
            }
            i = j;
        }
    }
    // Players equal on every key and head to head share a rank: only the seed told them apart.
    let same = |a: PlayerId, b: PlayerId| key(a) == key(b) && mini_of[a] == mini_of[b];
    let mut out: Vec<Standing> = Vec::with_capacity(order.len());
    for (i, &p) in order.iter().enumerate() {
        let tied_above = i > 0 && same(order[i - 1], p);
        let tied_below = i + 1 < order.len() && same(order[i + 1], p);
        let rank = if tied_above { out[i - 1].rank } else { i + 1 };
        out.push(Standing {
            rank,
            tied: tied_above || tied_below,
            ..lines[p].clone()
        });
    }
    out
}

/// The tie-breaks a format ranks by, after points, by their field names in [`Standing`]
/// (head to head, which has no field, is left out): round robin `sonneborn_berger`; Swiss
/// `buchholz` and `sonneborn_berger`; elimination none (the round a player went out in).
#[must_use]
pub fn tie_breaks(format: &Format) -> &'static [&'static str] {
    match format {
        Format::RoundRobin { .. } => &["sonneborn_berger"],
        Format::Swiss { .. } => &["buchholz", "sonneborn_berger"],
        Format::SingleElimination | Format::DoubleElimination => &[],
    }
}

/// A rank as shown: `3`, or `=1` when it is shared.
#[must_use]
pub fn rank_label(s: &Standing) -> String {
    if s.tied {
        format!("={}", s.rank)
    } else {
        s.rank.to_string()
    }
}

/// The points each of `group` scored against the others, if each has met each.
fn head_to_head(
    group: &[PlayerId],
    past: &[PlayedRound],
) -> Option<std::collections::HashMap<PlayerId, f64>> {
    let mut mini: std::collections::HashMap<PlayerId, f64> =
        group.iter().map(|&p| (p, 0.0)).collect();
    let mut met = std::collections::HashSet::new();
    for g in past.iter().flat_map(|r| &r.games) {
        let (a, b) = (g.pairing.p1, g.pairing.p2);
        if mini.contains_key(&a) && mini.contains_key(&b) {
            met.insert((a.min(b), a.max(b)));
            *mini.get_mut(&a).expect("in the group") += g.points(a).unwrap_or(0.0);
            *mini.get_mut(&b).expect("in the group") += g.points(b).unwrap_or(0.0);
        }
    }
    let pairs = group.len() * (group.len() - 1) / 2;
    (met.len() == pairs).then_some(mini)
}

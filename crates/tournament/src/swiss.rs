//! Swiss pairing by the FIDE (Dutch) System (FIDE Handbook C.04.3, the 2017 text), with the
//! differences listed below. The rules as implemented are [`RULES`], which the tournament page
//! shows and `docs/tournaments.md` states word for word (a test checks it):
//!
//! 1. Players are ranked by points, then seed; score groups are paired from the top down, each
//!    as a *bracket* with the players who floated down to it (moved-down players, MDPs).
//! 2. The bye: the lowest-ranked player of the lowest score group without one, provided the
//!    others can be paired by the absolute criteria.
//! 3. Absolute criteria (C.1 to C.4): no repeat; no two players with the same absolute seat
//!    preference; the completion criterion (the players below a bracket, with its downfloaters,
//!    can be paired), checked with a maximum matching (Edmonds' blossom algorithm).
//! 4. Quality criteria in order: C.5 (pairs), C.6 (score differences, compared from the
//!    largest), C.10 and C.11 (seat preferences), C.12 to C.15 (repeated floats).
//! 5. The first candidate in the Dutch order (D.1, D.2) among those equal on 4: MDPs take
//!    residents from the top down, then S1 v S2 with S2's transpositions in order, then
//!    exchanges between S1 and S2, then (beyond the Dutch order) any pairing in rank order. The
//!    search is a depth-first search in that order with branch and bound: a branch that cannot
//!    beat the best candidate so far is cut.
//! 6. Seats by E.1 to E.5.
//!
//! Differences from C.04.3: no exception for topscorers in the last round (the seat criterion
//! holds in every round, so C.8 and C.9 never apply); C.7 (choosing downfloaters for the next
//! bracket's sake) and C.16 to C.19 (score differences of repeated floats) are not used; an MDP
//! meets residents only (two MDPs meet each other only when the last bracket, finding nothing
//! else, is paired by a maximum matching); exchanges of two players a side are tried only
//! where the players left after the MDPs are at most 24, of more than two only where they are
//! at most 12; the search of one bracket stops after [`SEARCH_BUDGET`] steps with the best
//! candidate found (a bracket with nothing found floats whole to the next, and the last is
//! paired by a maximum matching). When the round cannot be paired by the absolute criteria,
//! the seat criterion is given up first, then the no-repeat rule (see [`Relaxed`]); a second
//! bye is given only when no level pairs the round without one.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::{Bracket, Pairing, PlayedRound, PlayerId, Round};

/// How many steps the search of one bracket may take (so that 64 players pair in well under a
/// second whatever the past).
pub const SEARCH_BUDGET: usize = 50_000;

/// The pairing rules as implemented, in plain words: the tournament page shows them and
/// `docs/tournaments.md` states them word for word.
pub const RULES: [&str; 7] = [
    "Players are ranked by points, then seed. A score group is the players with the same points; \
     the groups are paired from the top down, each with the players who floated down to it from \
     the groups above.",
    "With an odd number of players, the lowest-ranked player of the lowest score group who has \
     not had a bye sits out and scores a point, provided the others can then be paired by rule \
     3. Nobody gets a second bye unless everyone has had one.",
    "Never, while the round can be paired otherwise: two players meeting twice; two players \
     meeting who must both have the same seat (a player must have the other seat after two \
     games in a row in one seat, or after two more games in one seat than in the other), so \
     nobody sits in one seat three games in a row or two games more often than in the other; \
     a score group paired so that the players below it cannot all be paired.",
    "Then, in this order: the most pairs in the score group; the smallest differences in points \
     within pairs and of those who float down (the highest of those who came down are paired \
     first); the fewest players who do not get the seat they prefer (the one they had less \
     often; with equal counts, the one they did not have last); the fewest who do not get it \
     having had the other seat once more; the fewest who float down, then up, as they did the \
     round before; the fewest who float down, then up, as they did two rounds before. A player \
     floats down when they meet someone with fewer points or have no game, up when they meet \
     someone with more points.",
    "Among pairings equal by rules 3 and 4, the first in this order wins: the players who came \
     down, highest first, meet the score group's players from the top down; the rest split \
     into a top half and a bottom half, the top half's first meeting the bottom half's first, \
     and so on (in a group of eight: 1st v 5th, 2nd v 6th, 3rd v 7th, 4th v 8th); then the \
     bottom half is taken in its other orders, then players are exchanged between the halves, \
     fewest first.",
    "Seats: both players get the seat they prefer if they can; otherwise the stronger \
     preference wins (strongest after two games in a row in the other seat or two more games in \
     it, then after one more game in it, weakest when only the last game was in it); otherwise \
     seats alternate from the last round in which the two sat in different seats; otherwise the \
     higher-ranked player gets the seat they prefer; otherwise the higher-ranked player sits in \
     p1 if their seed number is odd, in p2 if it is even (round 1: 1-5, 6-2, 3-7, 8-4).",
    "If the round cannot be paired by rule 3, the seat rule is given up first, then the rule \
     against meeting twice.",
];

/// Exchanges of more than two players per side are tried only in brackets of at most this many.
const FULL_EXCHANGES: usize = 12;

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

/// Which absolute criteria a round had to give up to be paired at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Relaxed {
    /// None: no repeat, no seat constraint broken.
    Nothing,
    /// Two players with the same absolute seat preference may meet (a third game in the same
    /// seat, or a seat difference of 3).
    Seats,
    /// Repeats too (a Swiss of nearly as many rounds as opponents can leave no other way).
    SeatsAndRepeats,
}

/// A seat preference's strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    Mild,
    Strong,
    Absolute,
}

/// A float in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Float {
    None,
    Down,
    Up,
}

/// What the pairing needs to know of one player.
#[derive(Clone, Debug)]
struct Info {
    points: u32,
    /// Seats in the rounds played, oldest first (`true`: `p1`), `None` when not playing.
    seats: Vec<Option<bool>>,
    /// Seat difference: `p1` games minus `p2` games.
    difference: i32,
    /// The preferred seat (`true`: `p1`) and how strongly.
    preference: Option<(bool, Strength)>,
    /// Floats in the past rounds, oldest first.
    floats: Vec<Float>,
    /// Had a bye (or a point without a game).
    had_bye: bool,
}

impl Info {
    fn float_back(&self, rounds: usize) -> Float {
        self.floats
            .len()
            .checked_sub(rounds)
            .map_or(Float::None, |i| self.floats[i])
    }
}

/// The next Swiss round for `players` players after `past`.
#[must_use]
pub fn pair(players: usize, past: &[PlayedRound]) -> Round {
    pair_present(players, &[], past).0
}

/// The next Swiss round after `past` with the players in `absent` left out of it (they score
/// nothing and, for the floats, count as having floated down), and which absolute criteria had
/// to be given up. The server never leaves a player out; the published examples do.
#[must_use]
pub fn pair_present(players: usize, absent: &[PlayerId], past: &[PlayedRound]) -> (Round, Relaxed) {
    let infos = infos(players, past);
    let mut met = vec![0u64; players];
    for g in past.iter().flat_map(|r| &r.games) {
        met[g.pairing.p1] |= 1 << g.pairing.p2;
        met[g.pairing.p2] |= 1 << g.pairing.p1;
    }
    let mut ranked: Vec<PlayerId> = (0..players).filter(|p| !absent.contains(p)).collect();
    ranked.sort_by_key(|&p| (std::cmp::Reverse(infos[p].points), p));
    let levels = [Relaxed::Nothing, Relaxed::Seats, Relaxed::SeatsAndRepeats];
    // A second bye only when no level pairs the round without one.
    for (second, relaxed) in [false, true]
        .into_iter()
        .flat_map(|s| levels.map(|l| (s, l)))
    {
        let ctx = Ctx::new(&infos, &met, relaxed);
        let Some(bye) = ctx.choose_bye(&ranked, second) else {
            continue;
        };
        let rest: Vec<PlayerId> = ranked.iter().copied().filter(|&p| Some(p) != bye).collect();
        let pairs = ctx.pair_brackets(&rest);
        let mut games: Vec<Pairing> = pairs
            .into_iter()
            .map(|(a, b)| {
                let (p1, p2) = ctx.seats(a, b);
                Pairing {
                    p1,
                    p2,
                    bracket: Bracket::Main,
                }
            })
            .collect();
        // Boards: the pair with the higher score first, then the higher-ranked player.
        let rank = |p: PlayerId| ranked.iter().position(|&q| q == p).unwrap_or(usize::MAX);
        games.sort_by_key(|g| {
            let (hi, lo) = if rank(g.p1) < rank(g.p2) {
                (g.p1, g.p2)
            } else {
                (g.p2, g.p1)
            };
            (
                std::cmp::Reverse(infos[hi].points),
                std::cmp::Reverse(infos[lo].points),
                rank(hi),
            )
        });
        let round = Round {
            games,
            byes: bye.into_iter().collect(),
            waiting: Vec::new(),
        };
        return (round, relaxed);
    }
    unreachable!("with repeats and seats relaxed every set of players pairs")
}

fn infos(players: usize, past: &[PlayedRound]) -> Vec<Info> {
    let mut infos = vec![
        Info {
            points: 0,
            seats: Vec::new(),
            difference: 0,
            preference: None,
            floats: Vec::new(),
            had_bye: false,
        };
        players
    ];
    for round in past {
        let before: Vec<u32> = infos.iter().map(|i| i.points).collect();
        for info in &mut infos {
            info.seats.push(None);
            info.floats.push(Float::Down);
        }
        for g in &round.games {
            let (a, b) = (g.pairing.p1, g.pairing.p2);
            *infos[a].seats.last_mut().expect("pushed") = Some(true);
            *infos[b].seats.last_mut().expect("pushed") = Some(false);
            let (fa, fb) = match before[a].cmp(&before[b]) {
                Ordering::Greater => (Float::Down, Float::Up),
                Ordering::Less => (Float::Up, Float::Down),
                Ordering::Equal => (Float::None, Float::None),
            };
            *infos[a].floats.last_mut().expect("pushed") = fa;
            *infos[b].floats.last_mut().expect("pushed") = fb;
            infos[a].difference += 1;
            infos[b].difference -= 1;
            for p in [a, b] {
                infos[p].points += (g.points(p).unwrap_or(0.0) * 2.0) as u32;
            }
        }
        for &b in &round.byes {
            infos[b].points += 2;
            infos[b].had_bye = true;
        }
    }
    for info in &mut infos {
        let played: Vec<bool> = info.seats.iter().rev().flatten().copied().collect();
        info.preference = if info.difference > 1 {
            Some((false, Strength::Absolute))
        } else if info.difference < -1 {
            Some((true, Strength::Absolute))
        } else if played.len() >= 2 && played[0] == played[1] {
            Some((!played[0], Strength::Absolute))
        } else if info.difference == 1 {
            Some((false, Strength::Strong))
        } else if info.difference == -1 {
            Some((true, Strength::Strong))
        } else {
            played.first().map(|&last| (!last, Strength::Mild))
        };
    }
    infos
}

/// The quality of a bracket's pairing, compared in order (smaller is better).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cost {
    /// Minus the pairs.
    pairs: i32,
    /// How many score differences of each size (in half points, index 0 unused), compared
    /// from the largest down.
    differences: Vec<u16>,
    /// Seat preferences not met, strong ones not met, repeated floats (down and up the
    /// previous round, down and up two rounds before).
    counts: [u16; 6],
}

impl Cost {
    fn compare(&self, other: &Cost) -> Ordering {
        self.pairs
            .cmp(&other.pairs)
            .then_with(|| {
                for (a, b) in self.differences.iter().zip(&other.differences).rev() {
                    match a.cmp(b) {
                        Ordering::Equal => {}
                        o => return o,
                    }
                }
                Ordering::Equal
            })
            .then_with(|| self.counts.cmp(&other.counts))
    }
}

struct Ctx<'a> {
    infos: &'a [Info],
    /// Who may meet whom, as bit masks.
    compatible: Vec<u64>,
}

impl<'a> Ctx<'a> {
    fn new(infos: &'a [Info], met: &[u64], relaxed: Relaxed) -> Ctx<'a> {
        let n = infos.len();
        let compatible = (0..n)
            .map(|a| {
                (0..n)
                    .filter(|&b| {
                        a != b
                            && (relaxed == Relaxed::SeatsAndRepeats || met[a] & (1 << b) == 0)
                            && (relaxed != Relaxed::Nothing
                                || !matches!(
                                    (infos[a].preference, infos[b].preference),
                                    (Some((x, Strength::Absolute)), Some((y, Strength::Absolute)))
                                        if x == y
                                ))
                    })
                    .fold(0u64, |m, b| m | 1 << b)
            })
            .collect();
        Ctx { infos, compatible }
    }

    fn fits(&self, a: PlayerId, b: PlayerId) -> bool {
        self.compatible[a] & (1 << b) != 0
    }

    /// Whether the players in `set` can all be paired.
    fn pairable(&self, set: u64) -> bool {
        let members: Vec<PlayerId> = (0..64).filter(|&p| set & (1 << p) != 0).collect();
        if members.len() % 2 == 1 {
            return false;
        }
        let mates = max_matching(&members, &self.compatible);
        mates.iter().all(Option::is_some)
    }

    /// The bye (`Some(None)` when the count is even), or `None` when the round cannot be paired
    /// at this level (with a player who had a bye sitting out again only when `second`).
    fn choose_bye(&self, ranked: &[PlayerId], second: bool) -> Option<Option<PlayerId>> {
        let all = ranked.iter().fold(0u64, |m, &p| m | 1 << p);
        if ranked.len().is_multiple_of(2) {
            return self.pairable(all).then_some(None);
        }
        ranked
            .iter()
            .rev()
            .copied()
            .filter(|&p| second || !self.infos[p].had_bye)
            .find(|&p| self.pairable(all & !(1 << p)))
            .map(Some)
    }

    /// Pairs `ranked` (an even number of players who can all be paired), bracket by bracket
    /// from the top.
    fn pair_brackets(&self, ranked: &[PlayerId]) -> Vec<(PlayerId, PlayerId)> {
        let mut groups: Vec<Vec<PlayerId>> = Vec::new();
        for &p in ranked {
            match groups.last_mut() {
                Some(g) if self.infos[g[0]].points == self.infos[p].points => g.push(p),
                _ => groups.push(vec![p]),
            }
        }
        let mut pairs = Vec::new();
        let mut moved: Vec<PlayerId> = Vec::new();
        for (i, residents) in groups.iter().enumerate() {
            let lower = groups[i + 1..]
                .iter()
                .flatten()
                .fold(0u64, |m, &p| m | 1 << p);
            let mut search = Search::new(self, &moved, residents, lower);
            search.run();
            match search.best.take() {
                Some((_, found, floaters)) => {
                    pairs.extend(found);
                    moved = floaters;
                }
                None if lower != 0 => {
                    // The whole bracket floats (it and those below can be paired).
                    moved.extend(residents);
                }
                None => {
                    // The last bracket: pair it whatever the quality.
                    let members: Vec<PlayerId> = moved.iter().chain(residents).copied().collect();
                    let mates = max_matching(&members, &self.compatible);
                    for (i, m) in mates.iter().enumerate() {
                        if let Some(j) = *m {
                            if i < j {
                                pairs.push((members[i], members[j]));
                            }
                        }
                    }
                    moved.clear();
                }
            }
        }
        debug_assert!(moved.is_empty(), "players left over: {moved:?}");
        pairs
    }

    /// Seats a pair (`a` ranked above `b`): C.04.3 E.1 to E.5.
    fn seats(&self, a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
        let (ia, ib) = (&self.infos[a], &self.infos[b]);
        let (a, b, ia, ib) =
            if (std::cmp::Reverse(ia.points), a) <= (std::cmp::Reverse(ib.points), b) {
                (a, b, ia, ib)
            } else {
                (b, a, ib, ia)
            };
        let give_a = |p1: bool| if p1 { (a, b) } else { (b, a) };
        match (ia.preference, ib.preference) {
            (Some((x, _)), Some((y, _))) if x != y => return give_a(x),
            (Some((x, _)), None) => return give_a(x),
            (None, Some((y, _))) => return give_a(!y),
            (Some((x, sx)), Some((_, sy))) if sx != sy => {
                return give_a(if sx > sy { x } else { !x });
            }
            _ => {}
        }
        // E.3: alternate from the last round in which they sat in different seats.
        for (sa, sb) in ia.seats.iter().zip(&ib.seats).rev() {
            if let (Some(sa), Some(sb)) = (sa, sb) {
                if sa != sb {
                    return give_a(!sa);
                }
            }
        }
        // E.4: the higher-ranked player's preference.
        if let Some((x, _)) = ia.preference {
            return give_a(x);
        }
        // E.5: an odd seed number takes `p1`.
        give_a(a % 2 == 0)
    }
}

/// A bracket's pairing: its cost, its pairs, its downfloaters.
type Candidate = (Cost, Vec<(PlayerId, PlayerId)>, Vec<PlayerId>);

/// The search of one bracket: candidates in the Dutch order, the best by [`Cost`] kept (the
/// first of equals), branches that cannot beat it cut.
struct Search<'c, 'a> {
    ctx: &'c Ctx<'a>,
    moved: Vec<PlayerId>,
    residents: Vec<PlayerId>,
    /// The players below this bracket.
    lower: u64,
    /// The residents' points: the score differences of downfloaters are taken from a point
    /// below it.
    floor: u32,
    budget: usize,
    best: Option<Candidate>,
    completion: HashMap<u64, bool>,
    /// The partial candidate.
    pairs: Vec<(PlayerId, PlayerId)>,
    floaters: Vec<PlayerId>,
    used: u64,
}

impl<'c, 'a> Search<'c, 'a> {
    fn new(
        ctx: &'c Ctx<'a>,
        moved: &[PlayerId],
        residents: &[PlayerId],
        lower: u64,
    ) -> Search<'c, 'a> {
        let mut moved = moved.to_vec();
        moved.sort_by_key(|&p| (std::cmp::Reverse(ctx.infos[p].points), p));
        Search {
            ctx,
            moved,
            residents: residents.to_vec(),
            lower,
            floor: ctx.infos[residents[0]].points,
            budget: SEARCH_BUDGET,
            best: None,
            completion: HashMap::new(),
            pairs: Vec::new(),
            floaters: Vec::new(),
            used: 0,
        }
    }

    fn run(&mut self) {
        self.moved_players(0);
    }

    fn is_moved(&self, p: PlayerId) -> bool {
        self.ctx.infos[p].points > self.floor
    }

    /// The MDPs, highest first, each meeting a resident from the top down or floating on.
    fn moved_players(&mut self, i: usize) {
        if !self.step() {
            return;
        }
        if i == self.moved.len() {
            let rest: Vec<PlayerId> = self
                .residents
                .iter()
                .copied()
                .filter(|&p| self.used & (1 << p) == 0)
                .collect();
            self.remainder(&rest);
            return;
        }
        let m = self.moved[i];
        for r in self.residents.clone() {
            if self.used & (1 << r) == 0 && self.ctx.fits(m, r) {
                self.pairs.push((m, r));
                self.used |= 1 << m | 1 << r;
                self.moved_players(i + 1);
                self.used &= !(1 << m | 1 << r);
                self.pairs.pop();
            }
        }
        self.floaters.push(m);
        self.used |= 1 << m;
        self.moved_players(i + 1);
        self.used &= !(1 << m);
        self.floaters.pop();
    }

    /// The rest of the bracket: S1 against S2 with transpositions, then exchanges, then any
    /// pairing in rank order.
    fn remainder(&mut self, rest: &[PlayerId]) {
        let n1 = rest.len() / 2;
        let (s1, s2) = rest.split_at(n1);
        self.transpositions(s1, s2, 0);
        if self.hopeless() {
            return;
        }
        let mut exchanges: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        let most = if rest.len() <= FULL_EXCHANGES {
            n1
        } else if rest.len() <= 2 * FULL_EXCHANGES {
            2
        } else {
            1
        };
        for k in 1..=most.min(s2.len()) {
            for a in subsets(n1, k) {
                for b in subsets(s2.len(), k) {
                    exchanges.push((a.clone(), b));
                }
            }
        }
        // Fewest exchanged, then the smallest difference of the ranks moved, then S1's lowest
        // moved, then S2's highest.
        exchanges.sort_by_key(|(a, b)| {
            let sa: usize = a.iter().sum();
            let sb: usize = b.iter().map(|j| j + n1).sum();
            let mut a_desc = a.clone();
            a_desc.reverse();
            (a.len(), sb - sa, std::cmp::Reverse(a_desc), b.clone())
        });
        for (a, b) in exchanges {
            if self.hopeless() {
                return;
            }
            let mut t1: Vec<PlayerId> = s1
                .iter()
                .enumerate()
                .filter(|(i, _)| !a.contains(i))
                .map(|(_, &p)| p)
                .chain(b.iter().map(|&j| s2[j]))
                .collect();
            let mut t2: Vec<PlayerId> = s2
                .iter()
                .enumerate()
                .filter(|(j, _)| !b.contains(j))
                .map(|(_, &p)| p)
                .chain(a.iter().map(|&i| s1[i]))
                .collect();
            let order = |p: &PlayerId| rest.iter().position(|q| q == p);
            t1.sort_by_key(order);
            t2.sort_by_key(order);
            self.transpositions(&t1, &t2, 0);
        }
        if !self.hopeless() {
            self.any_pairing(rest);
        }
    }

    /// Whether nothing below this point of the search can beat the best (or the budget is
    /// spent).
    fn hopeless(&self) -> bool {
        self.budget == 0 || !self.promising()
    }

    /// Whether the partial candidate, with every player not yet placed paired at no cost, would
    /// beat the best.
    fn promising(&self) -> bool {
        let Some((best, _, _)) = &self.best else {
            return true;
        };
        let total = self.moved.len() + self.residents.len();
        let placed = 2 * self.pairs.len() + self.floaters.len();
        let pairs_left = (total - placed) / 2;
        let mut bound = self.partial_cost();
        bound.pairs -= pairs_left as i32;
        if (total - placed) % 2 == 1 {
            // One of them floats, at the least a resident's difference.
            let least = self
                .moved
                .iter()
                .chain(&self.residents)
                .filter(|&&p| self.used & (1 << p) == 0)
                .map(|&p| self.ctx.infos[p].points + 2 - self.floor)
                .min()
                .unwrap_or(2);
            bound.differences[least as usize] += 1;
        }
        // Seat preferences: of the players not yet placed, those wanting `p1` can meet those
        // wanting `p2` or without a preference at no cost; the other pairs cost one each.
        let (mut white, mut black, mut free) = (0usize, 0usize, 0usize);
        for &p in self.moved.iter().chain(&self.residents) {
            if self.used & (1 << p) == 0 {
                match self.ctx.infos[p].preference {
                    Some((true, _)) => white += 1,
                    Some((false, _)) => black += 1,
                    None => free += 1,
                }
            }
        }
        let gap = white.abs_diff(black);
        let free_pairs = white.min(black) + free.min(gap) + free.saturating_sub(gap) / 2;
        bound.counts[0] += pairs_left.saturating_sub(free_pairs) as u16;
        bound.compare(best) == Ordering::Less
    }

    /// S1's players in order, each meeting an S2 player from the top down (or floating).
    fn transpositions(&mut self, s1: &[PlayerId], s2: &[PlayerId], i: usize) {
        if !self.step() {
            return;
        }
        if i == s1.len() {
            let left: Vec<PlayerId> = s2
                .iter()
                .copied()
                .filter(|&p| self.used & (1 << p) == 0)
                .collect();
            let at = self.floaters.len();
            self.floaters.extend(left);
            self.leaf();
            self.floaters.truncate(at);
            return;
        }
        let x = s1[i];
        for &y in s2 {
            if self.used & (1 << y) == 0 && self.ctx.fits(x, y) {
                self.pairs.push((x, y));
                self.used |= 1 << x | 1 << y;
                self.transpositions(s1, s2, i + 1);
                self.used &= !(1 << x | 1 << y);
                self.pairs.pop();
            }
        }
        self.floaters.push(x);
        self.used |= 1 << x;
        self.transpositions(s1, s2, i + 1);
        self.used &= !(1 << x);
        self.floaters.pop();
    }

    /// Any pairing of `rest`: the highest unpaired player meets the next ones in order.
    fn any_pairing(&mut self, rest: &[PlayerId]) {
        if !self.step() {
            return;
        }
        let Some(&x) = rest.iter().find(|&&p| self.used & (1 << p) == 0) else {
            self.leaf();
            return;
        };
        for &y in rest {
            if y != x && self.used & (1 << y) == 0 && self.ctx.fits(x, y) {
                self.pairs.push((x, y));
                self.used |= 1 << x | 1 << y;
                self.any_pairing(rest);
                self.used &= !(1 << x | 1 << y);
                self.pairs.pop();
            }
        }
        self.floaters.push(x);
        self.used |= 1 << x;
        self.any_pairing(rest);
        self.used &= !(1 << x);
        self.floaters.pop();
    }

    /// Takes a step of the budget; `false` when the budget is spent or this branch cannot beat
    /// the best.
    fn step(&mut self) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        self.promising()
    }

    fn partial_cost(&self) -> Cost {
        let infos = self.ctx.infos;
        let top = self
            .moved
            .first()
            .map_or(self.floor, |&p| infos[p].points)
            .max(self.floor);
        let mut cost = Cost {
            pairs: -(self.pairs.len() as i32),
            differences: vec![0; (top + 3 - self.floor) as usize],
            counts: [0; 6],
        };
        for &(a, b) in &self.pairs {
            let (ia, ib) = (&infos[a], &infos[b]);
            let d = ia.points.abs_diff(ib.points);
            if d > 0 {
                cost.differences[d as usize] += 1;
                // The one with fewer points floats up.
                let up = if ia.points < ib.points { ia } else { ib };
                cost.counts[3] += u16::from(up.float_back(1) == Float::Up);
                cost.counts[5] += u16::from(up.float_back(2) == Float::Up);
            }
            if let (Some((x, sx)), Some((y, sy))) = (ia.preference, ib.preference) {
                if x == y {
                    cost.counts[0] += 1;
                    cost.counts[1] += u16::from(sx.min(sy) >= Strength::Strong);
                }
            }
        }
        for &f in &self.floaters {
            let d = infos[f].points + 2 - self.floor;
            cost.differences[d as usize] += 1;
            if !self.is_moved(f) {
                cost.counts[2] += u16::from(infos[f].float_back(1) == Float::Down);
                cost.counts[4] += u16::from(infos[f].float_back(2) == Float::Down);
            }
        }
        cost
    }

    /// A complete candidate: kept if it meets the completion criterion and beats the best.
    fn leaf(&mut self) {
        let floaters = self.floaters.iter().fold(0u64, |m, &p| m | 1 << p);
        if self.lower == 0 && floaters != 0 {
            return;
        }
        let cost = self.partial_cost();
        if let Some((best, _, _)) = &self.best {
            if cost.compare(best) != Ordering::Less {
                return;
            }
        }
        let rest = floaters | self.lower;
        let ctx = self.ctx;
        let ok = *self
            .completion
            .entry(floaters)
            .or_insert_with(|| ctx.pairable(rest));
        if ok {
            self.best = Some((cost, self.pairs.clone(), self.floaters.clone()));
        }
    }
}

/// The `k`-element subsets of `0..n`, each sorted.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, &mut Vec::with_capacity(k), &mut out);
    out
}

/// A maximum matching among `members` (Edmonds' blossom algorithm), as each member's mate's
/// index in `members`.
fn max_matching(members: &[PlayerId], compatible: &[u64]) -> Vec<Option<usize>> {
    let n = members.len();
    let adj: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| compatible[members[i]] & (1 << members[j]) != 0)
                .collect()
        })
        .collect();
    let mut mate: Vec<Option<usize>> = vec![None; n];
    for root in 0..n {
        if mate[root].is_some() {
            continue;
        }
        // Try a free neighbour first (cheap and usual).
        if let Some(&j) = adj[root].iter().find(|&&j| mate[j].is_none()) {
            mate[root] = Some(j);
            mate[j] = Some(root);
            continue;
        }
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut base: Vec<usize> = (0..n).collect();
        let mut used = vec![false; n];
        used[root] = true;
        let mut queue = std::collections::VecDeque::from([root]);
        let mut end = None;
        'bfs: while let Some(v) = queue.pop_front() {
            for &to in &adj[v] {
                if base[v] == base[to] || mate[v] == Some(to) {
                    continue;
                }
                if to == root || mate[to].is_some_and(|m| parent[m].is_some()) {
                    let cur = lca(&mate, &base, &parent, v, to);
                    let mut blossom = vec![false; n];
                    mark_path(&mate, &base, &mut parent, &mut blossom, v, cur, to);
                    mark_path(&mate, &base, &mut parent, &mut blossom, to, cur, v);
                    for i in 0..n {
                        if blossom[base[i]] {
                            base[i] = cur;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to].is_none() {
                    parent[to] = Some(v);
                    match mate[to] {
                        None => {
                            end = Some(to);
                            break 'bfs;
                        }
                        Some(m) => {
                            used[m] = true;
                            queue.push_back(m);
                        }
                    }
                }
            }
        }
        let mut v = end;
        while let Some(x) = v {
            let pv = parent[x].expect("on the path");
            let next = mate[pv];
            mate[x] = Some(pv);
            mate[pv] = Some(x);
            v = next;
        }
    }
    mate
}

fn lca(
    mate: &[Option<usize>],
    base: &[usize],
    parent: &[Option<usize>],
    mut a: usize,
    mut b: usize,
) -> usize {
    let mut seen = vec![false; mate.len()];
    loop {
        a = base[a];
        seen[a] = true;
        match mate[a] {
            None => break,
            Some(m) => a = parent[m].expect("an outer vertex's mate has a parent"),
        }
    }
    loop {
        b = base[b];
        if seen[b] {
            return b;
        }
        b = parent[mate[b].expect("below the root")].expect("on the tree");
    }
}

fn mark_path(
    mate: &[Option<usize>],
    base: &[usize],
    parent: &mut [Option<usize>],
    blossom: &mut [bool],
    mut v: usize,
    b: usize,
    mut child: usize,
) {
    while base[v] != b {
        let m = mate[v].expect("inside a blossom");
        blossom[base[v]] = true;
        blossom[base[m]] = true;
        parent[v] = Some(child);
        child = m;
        v = parent[m].expect("on the tree");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(members: &[PlayerId], compatible: &[u64]) -> usize {
        fn go(rest: &[PlayerId], c: &[u64]) -> usize {
            let Some((&x, others)) = rest.split_first() else {
                return 0;
            };
            let mut best = go(others, c);
            for (i, &y) in others.iter().enumerate() {
                if c[x] & (1 << y) != 0 {
                    let next: Vec<PlayerId> = others
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, &p)| p)
                        .collect();
                    best = best.max(1 + go(&next, c));
                }
            }
            best
        }
        go(members, compatible)
    }

    #[test]
    fn blossom_matches_brute_force_on_random_graphs() {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        for _ in 0..400 {
            let n = (next() % 11 + 1) as usize;
            let density = next() % 100;
            let mut c = vec![0u64; n];
            for a in 0..n {
                for b in a + 1..n {
                    if next() % 100 < density {
                        c[a] |= 1 << b;
                        c[b] |= 1 << a;
                    }
                }
            }
            let members: Vec<PlayerId> = (0..n).collect();
            let mates = max_matching(&members, &c);
            let size = mates.iter().filter(|m| m.is_some()).count();
            assert_eq!(size % 2, 0);
            for (i, m) in mates.iter().enumerate() {
                if let Some(j) = *m {
                    assert_eq!(mates[j], Some(i));
                    assert!(c[i] & (1 << j) != 0);
                }
            }
            assert_eq!(size / 2, brute(&members, &c), "{c:?}");
        }
    }
}

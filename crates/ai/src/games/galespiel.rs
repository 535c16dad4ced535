//! Galespiel's bot hooks: its bids and builds, the cheapest crossing, the playouts.

use colosseum_engine::{AnyGame, Erased, Game, Pending, Seat, SeededRng, Step, TextStep, Viewer};
use colosseum_games::galespiel::{Galespiel, Move as GaleMove, PrizeOrder};
use rand::Rng;

use super::logistic;
use crate::{BotGame, Observation};

/// Galespiel. The cycle's prize order is hidden (Survey and Crystal Ball show parts of it to one
/// seat), so search keys nodes by what the next player sees, and a seat's history holds the
/// current cycle's order only as far as the seat has seen it ([`BotGame::mask_chance`]).
impl BotGame for Galespiel {
    const HIDDEN_INFORMATION: bool = true;
    const HAS_HEURISTIC: bool = true;
    /// An iteration lists the heuristic's build at each new node: a fifteenth of the budget
    /// (`mcts:hard` 2000 iterations, about 0.3-0.6 s per decision).
    const SEARCH_SCALE: f64 = 1.0 / 15.0;
    const PURIFY: f64 = 0.5;
    /// A round winner's build (and upgrade) is searched by UCT: by regret matching, a third of
    /// the builds below every bid were random (exploration 0.3 over the six candidates), which
    /// made winning a round look worth less than it is. Bids keep regret matching. `hard` with
    /// it against `hard` without it: 67.5% of decided games (80 games); against the old `hard`
    /// (`mcts:iters=30000,model=0.5,algo=uct`) 40.0% on 120 seeds where `hard` without it made
    /// 38.3%: see docs/strength.md, "Galespiel".
    const LONE_MOVES_BY_UCT: bool = true;
    /// At a bid `hard` plays the equilibrium of the root's matrix game (the joint bids'
    /// results, gathered over the determinizations of the hidden prize order; the bids are the
    /// same in all of them, hands being public) rather than the average strategy.
    const ROOT_SOLVE_HIDDEN: bool = true;

    fn heuristic_description() -> &'static str {
        "bids by need: its highest card when winning the round would let either player connect, otherwise the card whose rank in its hand matches the prize's rank among the prizes left; builds bridges one at a time on its cheapest crossing (preferring those that also lengthen the opponent's), upgrades its highest even cards, looks with Crystal Ball, never rushes"
    }

    /// The listed moves (bids, items, upgrades) plus the heuristic's. Builds are abstracted:
    /// instead of every single bridge, the heuristic's build, building nothing, the heuristic's
    /// first one or two bridges (saving materials), and the same greedy build leaning all on its
    /// own crossing or harder on blocking. Bids decided by the bids alone are pruned
    /// ([`galespiel_prune_bids`]): a bid that lets the opponent win the round and connect goes
    /// when another bid stops it, and only the bids that win the game outright stay when there
    /// are any (a regret-matching search at 2000 iterations, a third of its bids exploration,
    /// kept such bids in its tree and its mix: see docs/strength.md, "Galespiel").
    fn search_moves(&self, seat: Seat, rng: &mut SeededRng, out: &mut Vec<GaleMove>) {
        let mut legal = Vec::new();
        self.legal_moves(seat, &mut legal);
        if let Some(GaleMove::Build { .. }) = legal.first() {
            let mut push = |spots: u64| {
                let mv = GaleMove::Build {
                    spots,
                    emergency: false,
                };
                if !out.contains(&mv) {
                    out.push(mv);
                }
            };
            let all = |order: &[u64]| order.iter().fold(0, |all, spot| all | spot);
            let heuristic = galespiel_greedy_build(self, seat, &legal, 0.5);
            push(all(&heuristic));
            push(0);
            push(all(&heuristic[..heuristic.len().min(1)]));
            push(all(&heuristic[..heuristic.len().min(2)]));
            for defence in [0.0, 1.5] {
                push(all(&galespiel_greedy_build(self, seat, &legal, defence)));
            }
            out.retain(|m| self.check_move(seat, m).is_ok());
            if !out.is_empty() {
                return;
            }
        }
        out.extend(legal);
        if self.pending().includes(seat) {
            let mv = Self::heuristic_move(&Observation::new(self, seat, &[]), rng);
            if !out.contains(&mv) {
                out.push(mv);
            }
        }
        if self.pending() == Pending::Both {
            galespiel_prune_bids(self, seat, out);
        }
    }

    /// [`Galespiel::information_bytes`]: the same information as the view, without building it.
    fn information_bytes(&self, viewer: Viewer, out: &mut Vec<u8>) -> bool {
        Galespiel::information_bytes(self, viewer, out);
        true
    }

    /// Playouts play the race out cheaply ([`galespiel_playout_move`]): bids as the heuristic's
    /// (its highest card when the prize is decisive, else rank matching) with a share of random
    /// cards, builds along the seat's cheapest crossing.
    fn rollout_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<GaleMove> {
        galespiel_playout_move(self, seat, rng)
    }

    /// A finished game is 1, 0 or ½; before the end, a logistic of the difference in need (the
    /// materials each seat still lacks for its cheapest crossing; one that cannot connect any
    /// more needs 60), less [`GALESPIEL_HAND_WEIGHT`] times the materials each seat's cards
    /// should still win this cycle ([`galespiel_cycle_materials`]): 5 materials of difference is
    /// about 73%. Without the cards' part, a search that cuts off after a round or two sees a
    /// prize won with a 9 as pure gain and spends its best cards on small prizes. Playouts
    /// ([`galespiel_playout_move`]) end here at the next cycle's first bid, where the cards'
    /// part is even.
    fn evaluate(&self) -> f64 {
        if let Some(o) = self.outcome() {
            return crate::p1_value(&o);
        }
        let need = |s: Seat| f64::from(self.need(s).unwrap_or(60).min(60));
        let [a, b] = galespiel_cycle_materials(self);
        let margin = need(Seat::P2) - need(Seat::P1) + GALESPIEL_HAND_WEIGHT * (a - b);
        logistic(margin / 5.0)
    }

    /// Galespiel's heuristic, as a casual player would play it:
    ///
    /// * **Bid by need.** If winning this round would bring either seat's materials to its
    ///   cheapest crossing (it could then connect, or the opponent could), bid the highest card.
    ///   Otherwise bid as in Goofspiel: the card whose rank in the hand matches the prize's rank
    ///   among this cycle's prizes still to come.
    /// * **Cheapest-path bridges.** Build one bridge at a time, each time the affordable spot that
    ///   most lowers its own cheapest crossing plus half what it raises the opponent's (a spot on
    ///   the cheapest path lowers it by its cost); stop when no spot helps.
    /// * Upgrades go to the highest even cards (8+ bids 10); Crystal Ball is used, Rush Order,
    ///   Specialist's Aid and Emergency Delivery are not.
    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> GaleMove {
        galespiel_heuristic(observation, rng)
            .filter(|m| observation.check_move(m).is_ok())
            .or_else(|| observation.random_move(rng))
            .expect("the seat acts")
    }

    /// The chance steps of finished cycles are public (every prize of a finished cycle was
    /// revealed in its round, and Rush Order's moves are public). The current cycle's order is
    /// rewritten: the prizes at positions the seat has not seen are put in ascending order. A
    /// position counts as seen when exchanging its prize with another position's would change
    /// any view the seat had since the order was drawn, so the rewritten order gives the seat
    /// exactly the views it had, and depends only on them. If the steps cannot be replayed, the
    /// step is left out.
    fn mask_chance(&self, seat: Seat, steps: &mut [TextStep]) {
        let Some(c) = steps.iter().rposition(|s| s.chance.is_some()) else {
            return;
        };
        let masked = galespiel_masked_order(self, seat, steps, c);
        steps[c] = match masked {
            Some(order) => TextStep::chance(self.format_chance(&order)),
            None => TextStep::default(),
        };
    }
}

/// How much a material the cards should still win this cycle counts against a material of need
/// in Galespiel's evaluation (materials won later decay and are bid for, so less than 1). `hard`
/// against the heuristic, 20 games, seed 1: 35% of decided games without it (0), 50% at 0.5,
/// 35% at 1.
const GALESPIEL_HAND_WEIGHT: f64 = 0.5;

/// The materials each seat wins in the rest of this cycle if both bid by matching (the card
/// whose rank in the hand matches the prize's rank among the prizes left, as the heuristic does
/// when no prize is decisive): each prize goes to the higher card, a tie to nobody. A seat that
/// spent its high cards early wins less of what is left.
fn galespiel_cycle_materials(game: &Galespiel) -> [f64; 2] {
    let prizes = game.prizes_to_bid();
    let mut won = [0.0; 2];
    if prizes.is_empty() {
        return won;
    }
    let slots = game.options().cards.len();
    let hand = |seat: Seat| -> Vec<u8> {
        let mut cards: Vec<u8> = (0..slots)
            .filter(|&k| game.hand(seat) & (1 << k) != 0)
            .map(|k| game.card_value(seat, k))
            .collect();
        cards.sort_unstable();
        cards
    };
    let hands = [hand(Seat::P1), hand(Seat::P2)];
    if hands.iter().any(Vec::is_empty) {
        return won;
    }
    let k = prizes.len();
    let bid = |cards: &[u8], rank: usize| -> u8 {
        let i = if k <= 1 {
            cards.len() - 1
        } else {
            rank * (cards.len() - 1) / (k - 1)
        };
        cards[i.min(cards.len() - 1)]
    };
    for (rank, &prize) in prizes.iter().enumerate() {
        let (x, y) = (bid(&hands[0], rank), bid(&hands[1], rank));
        if x > y {
            won[0] += f64::from(prize);
        } else if y > x {
            won[1] += f64::from(prize);
        }
    }
    won
}

/// The share of a Galespiel playout's bids that are a random card in hand rather than the
/// heuristic's rule, so that playouts are not blind to bids the rule never makes.
const GALESPIEL_PLAYOUT_RANDOM: f64 = 0.2;

/// A playout move for `seat` in Galespiel, or `None` to stop and evaluate. A playout stops at
/// the first bid of the next cycle (both hands full again, after the first round), where the
/// evaluation's cards part is even and its need part is what the rest of the cycle left:
/// playing on to the end of the game was measured worse (hard against the heuristic, seed 5,
/// 40 games: 24-0-16 to the end, 34-0-6 to the cycle's end). Bids: with probability
/// [`GALESPIEL_PLAYOUT_RANDOM`] a random card in hand, else the heuristic's rule (its highest
/// card when winning the prize would let either seat connect, else the card whose rank in the
/// hand matches the prize's rank among the prizes left). Builds: the bridges of the seat's
/// cheapest crossing it can pay for, dearest first ([`galespiel_path_build`]). Items are
/// skipped; upgrades go to the highest cards.
fn galespiel_playout_move(game: &Galespiel, seat: Seat, rng: &mut SeededRng) -> Option<GaleMove> {
    let pending = game.pending();
    if !pending.includes(seat) {
        return None;
    }
    if game.check_move(seat, &GaleMove::Item(false)).is_ok() {
        return Some(GaleMove::Item(false));
    }
    let empty = GaleMove::Build {
        spots: 0,
        emergency: false,
    };
    if pending == Pending::One(seat) && game.check_move(seat, &empty).is_ok() {
        return Some(GaleMove::Build {
            spots: galespiel_path_build(game, seat),
            emergency: false,
        });
    }
    if pending != Pending::Both {
        // An upgrade: the highest cards.
        let mut legal = Vec::new();
        game.legal_moves(seat, &mut legal);
        return legal.into_iter().max_by_key(|m| match *m {
            GaleMove::Upgrade(set) => set,
            _ => 0,
        });
    }
    let prize = u32::from(game.prize()?);
    let full = game.hand(Seat::P1).count_ones() == game.options().cards.len() as u32
        && game.hand(Seat::P2).count_ones() == game.options().cards.len() as u32;
    if full && game.rounds() > 0 {
        return None;
    }
    let slots = game.options().cards.len();
    let mut hand: Vec<(u8, u8)> = (0..slots)
        .filter(|&k| game.hand(seat) & (1 << k) != 0)
        .map(|k| (game.card_value(seat, k), k as u8))
        .collect();
    if hand.is_empty() {
        return None;
    }
    hand.sort_unstable();
    let slot = if rng.random_bool(GALESPIEL_PLAYOUT_RANDOM) {
        hand[rng.random_range(0..hand.len())].1
    } else {
        let decisive = |s: Seat| game.need(s).is_some_and(|n| n <= prize);
        let decisive = decisive(seat) || decisive(seat.other());
        hand[galespiel_bid_index(hand.len(), &game.prizes_to_bid(), prize, decisive)].1
    };
    Some(GaleMove::Bid { slot, aid: false })
}

/// Whether `seat` can connect at its build now: the spots of its cheapest crossing (costs
/// without a discount) are a build the rules accept (a discount or a free first bridge makes
/// it cheaper; with or without Emergency Delivery). Not finding a cheaper crossing under a
/// discount, it may say no where the seat could connect; never yes where it cannot.
fn galespiel_connects_now(game: &Galespiel, seat: Seat) -> bool {
    if let Some(o) = game.outcome() {
        return crate::p1_value(&o) == if seat == Seat::P1 { 1.0 } else { 0.0 };
    }
    if game.pending() != Pending::One(seat) {
        return false;
    }
    let Some(path) = galespiel_cheapest_path(game, seat) else {
        return false;
    };
    let spots = path.iter().fold(0u64, |all, &s| all | 1 << s);
    [false, true].into_iter().any(|emergency| {
        game.check_move(seat, &GaleMove::Build { spots, emergency })
            .is_ok()
    })
}

/// At a bid, leaves out of `out` (the seat's candidate bids) those that are decided by the
/// bids alone: if some bid wins the game whatever the opponent bids (the seat wins the round
/// and can connect), only such bids stay; otherwise, if some bid lets the opponent win the
/// round and connect with one of its cards while another bid lets it do so with none, the
/// bids that let it are dropped. Hands, materials and bridges are public, so the list is the
/// same in every determinization of the seat's view.
fn galespiel_prune_bids(game: &Galespiel, seat: Seat, out: &mut Vec<GaleMove>) {
    let bids: Vec<GaleMove> = out
        .iter()
        .filter(|m| matches!(m, GaleMove::Bid { .. }))
        .cloned()
        .collect();
    if bids.len() < 2 {
        return;
    }
    let mut replies = Vec::new();
    game.legal_moves(seat.other(), &mut replies);
    let mut wins = Vec::new();
    let mut loses = Vec::new();
    for b in &bids {
        let mut always_win = true;
        let mut can_lose = false;
        for c in &replies {
            let step = match seat {
                Seat::P1 => Step::Both { p1: *b, p2: *c },
                Seat::P2 => Step::Both { p1: *c, p2: *b },
            };
            let mut after = game.clone();
            if after.apply(step).is_err() {
                always_win = false;
                continue;
            }
            if !galespiel_connects_now(&after, seat) {
                always_win = false;
            }
            if galespiel_connects_now(&after, seat.other()) {
                can_lose = true;
            }
        }
        if always_win {
            wins.push(*b);
        }
        if can_lose {
            loses.push(*b);
        }
    }
    if !wins.is_empty() {
        out.retain(|m| !matches!(m, GaleMove::Bid { .. }) || wins.contains(m));
    } else if !loses.is_empty() && loses.len() < bids.len() {
        out.retain(|m| !loses.contains(m));
    }
}

/// Per dot of one colour, its (spot, neighbour dot) pairs.
type GaleAdjacency = Vec<Vec<(u8, u8)>>;

/// Per colour and dot, its (spot, neighbour dot) pairs.
fn galespiel_adjacency() -> &'static [GaleAdjacency; 2] {
    use colosseum_games::galespiel::geometry::{Spot, DOTS, SPOTS};
    static ADJ: std::sync::OnceLock<[GaleAdjacency; 2]> = std::sync::OnceLock::new();
    ADJ.get_or_init(|| {
        Seat::BOTH.map(|seat| {
            let mut adj = vec![Vec::new(); DOTS];
            for i in 0..SPOTS {
                let (a, b) = Spot::from_index(i).ends(seat);
                adj[usize::from(a.0)].push((i as u8, b.0));
                adj[usize::from(b.0)].push((i as u8, a.0));
            }
            adj
        })
    })
}

/// The heuristic's bid in Galespiel, as an index into a non-empty hand sorted by value: its highest
/// card when the round is decisive (either seat connects with this prize), otherwise the card of
/// the same rank among the hand as the prize among `prizes` (sorted, the prize among them). The
/// heuristic bot and the search's playouts both bid this way.
fn galespiel_bid_index(hand_len: usize, prizes: &[u8], prize: u32, decisive: bool) -> usize {
    let top = hand_len - 1;
    if decisive || prizes.len() <= 1 {
        return top;
    }
    let rank = prizes
        .iter()
        .position(|&p| u32::from(p) == prize)
        .unwrap_or(0);
    (rank * top / (prizes.len() - 1)).min(top)
}

/// The spots of one of `seat`'s cheapest crossings that it does not own yet (the opponent's
/// spots closed), or `None` if it is cut off.
fn galespiel_cheapest_path(game: &Galespiel, seat: Seat) -> Option<Vec<u8>> {
    use colosseum_games::galespiel::geometry::{end_edge, start_edge, DOTS};
    let adj = &galespiel_adjacency()[seat.index()];
    let own = game.bridges(seat);
    let theirs = game.bridges(seat.other());
    let costs = game.options().board.costs();
    let mut dist = [u32::MAX; DOTS];
    let mut prev = [(u8::MAX, u8::MAX); DOTS];
    let mut done = [false; DOTS];
    let start = start_edge(seat);
    for (d, slot) in dist.iter_mut().enumerate() {
        if start & (1 << d) != 0 {
            *slot = 0;
        }
    }
    let end = end_edge(seat);
    loop {
        let mut best = None;
        for d in 0..DOTS {
            if !done[d] && dist[d] != u32::MAX && best.is_none_or(|b: usize| dist[d] < dist[b]) {
                best = Some(d);
            }
        }
        let u = best?;
        if end & (1 << u) != 0 {
            let mut path = Vec::new();
            let mut at = u;
            while prev[at].0 != u8::MAX {
                let (spot, from) = prev[at];
                if own & (1 << spot) == 0 {
                    path.push(spot);
                }
                at = usize::from(from);
            }
            return Some(path);
        }
        done[u] = true;
        for &(spot, v) in &adj[u] {
            let bit = 1u64 << spot;
            if theirs & bit != 0 || done[usize::from(v)] {
                continue;
            }
            let step = if own & bit != 0 {
                0
            } else {
                u32::from(costs[usize::from(spot)])
            };
            if dist[u] + step < dist[usize::from(v)] {
                dist[usize::from(v)] = dist[u] + step;
                prev[usize::from(v)] = (spot, u as u8);
            }
        }
    }
}

/// A playout's build: the spots of the seat's cheapest crossing it can pay for (without
/// counting a discount), dearest first.
fn galespiel_path_build(game: &Galespiel, seat: Seat) -> u64 {
    let Some(mut path) = galespiel_cheapest_path(game, seat) else {
        return 0;
    };
    let costs = game.options().board.costs();
    path.sort_unstable_by_key(|&s| std::cmp::Reverse(costs[usize::from(s)]));
    let mut left = u32::from(game.materials(seat));
    let mut spots = 0u64;
    for s in path {
        let c = u32::from(costs[usize::from(s)]);
        if c <= left {
            left -= c;
            spots |= 1 << s;
        }
    }
    spots
}

/// The current cycle's order as `seat` may know it (see `mask_chance` above), or `None` when
/// the steps do not replay.
fn galespiel_masked_order(
    game: &Galespiel,
    seat: Seat,
    steps: &[TextStep],
    c: usize,
) -> Option<PrizeOrder> {
    let mut before = Erased(Galespiel::new(game.options().clone()));
    for step in &steps[..c] {
        before.apply(step).ok()?;
    }
    let real = game.parse_chance(steps[c].chance.as_deref()?).ok()?;
    // What the seat saw after each step since the order was drawn (it remembers all of it).
    let views = |order: PrizeOrder, stop_at: Option<&[String]>| -> Option<Vec<String>> {
        let mut g = before.0.clone();
        g.apply(Step::Chance(order)).ok()?;
        let mut g = Erased(g);
        let mut seen = Vec::with_capacity(steps.len() - c);
        for (k, step) in std::iter::once(None)
            .chain(steps[c + 1..].iter().map(Some))
            .enumerate()
        {
            if let Some(step) = step {
                g.apply(step).ok()?;
            }
            let view = serde_json::to_string(&g.0.view(Viewer::Seat(seat))).ok()?;
            if stop_at.is_some_and(|target| target.get(k) != Some(&view)) {
                return None;
            }
            seen.push(view);
        }
        Some(seen)
    };
    // The real order must replay to the real view; otherwise the steps are not this game's.
    let target = views(real, None)?;
    if target.last() != Some(&serde_json::to_string(&game.view(Viewer::Seat(seat))).ok()?) {
        return None;
    }
    let n = real.0.len();
    let mut hidden = vec![false; n];
    for i in 0..n {
        for j in i + 1..n {
            if real.0[i] == real.0[j] || (hidden[i] && hidden[j]) {
                continue;
            }
            let mut swapped = real;
            swapped.0.swap(i, j);
            if views(swapped, Some(&target)).is_some() {
                hidden[i] = true;
                hidden[j] = true;
            }
        }
    }
    let mut values: Vec<u8> = (0..n).filter(|&k| hidden[k]).map(|k| real.0[k]).collect();
    values.sort_unstable();
    let mut masked = real;
    for (k, v) in (0..n).filter(|&k| hidden[k]).zip(values) {
        masked.0[k] = v;
    }
    Some(masked)
}

/// The heuristic's way to build (see [`Galespiel::heuristic_move`]): one bridge at a time, the
/// affordable spot that most raises the seat's score, until none helps; the spots in the order
/// chosen. The score is minus its own cheapest crossing plus `defence` times the opponent's.
fn galespiel_greedy_build(
    state: &Galespiel,
    seat: Seat,
    legal: &[GaleMove],
    defence: f64,
) -> Vec<u64> {
    let spots: Vec<u64> = legal
        .iter()
        .filter_map(|m| match *m {
            GaleMove::Build {
                spots,
                emergency: false,
            } if spots != 0 => Some(spots),
            _ => None,
        })
        .collect();
    let score = |g: &Galespiel| -> f64 {
        if let Some(o) = g.outcome() {
            return match o.winner {
                Some(w) if w == seat => 1e6,
                Some(_) => -1e6,
                None => 0.0,
            };
        }
        let mine = g.cheapest(seat).map_or(-1e4, |c| -f64::from(c));
        let theirs = g.cheapest(seat.other()).map_or(1e4, f64::from);
        mine + defence * theirs
    };
    let mut chosen = 0u64;
    let mut order = Vec::new();
    let mut current = score(state);
    loop {
        let mut best: Option<(f64, u64)> = None;
        for &spot in &spots {
            if chosen & spot != 0 {
                continue;
            }
            let mv = GaleMove::Build {
                spots: chosen | spot,
                emergency: false,
            };
            let mut next = state.clone();
            if next.apply(Step::One { seat, mv }).is_err() {
                continue;
            }
            let value = score(&next);
            if value > current + 1e-9 && best.is_none_or(|(b, _)| value > b) {
                best = Some((value, spot));
            }
        }
        match best {
            Some((value, spot)) => {
                chosen |= spot;
                order.push(spot);
                current = value;
            }
            None => break,
        }
    }
    order
}

/// Galespiel's heuristic move (see its `heuristic_move`), or `None` to fall back to a random one.
fn galespiel_heuristic(
    observation: &Observation<'_, Galespiel>,
    rng: &mut SeededRng,
) -> Option<GaleMove> {
    let seat = observation.seat();
    // Nothing the heuristic reads is hidden: materials, bridges, hands and the prizes left are
    // public (it never looks at the cycle's order beyond the view).
    let view = observation.view();
    let state = observation.determinize(rng);
    let mut legal = Vec::new();
    observation.legal_moves(&mut legal);
    let first = *legal.first()?;
    match first {
        GaleMove::Item(_) => {
            // A Crystal Ball window comes before the first prize of a cycle; Rush Order's during
            // a round, when a prize is up.
            Some(GaleMove::Item(view.prize.is_none()))
        }
        GaleMove::Bid { .. } => {
            let me = match seat {
                Seat::P1 => &view.players.p1,
                Seat::P2 => &view.players.p2,
            };
            let prize = u32::from(view.prize?);
            let mut hand: Vec<(u8, u8)> = me
                .cards
                .iter()
                .enumerate()
                .filter(|(_, c)| c.in_hand)
                .map(|(slot, c)| (c.value, slot as u8))
                .collect();
            hand.sort_unstable();
            let decisive = |s: Seat| state.need(s).is_some_and(|n| n <= prize);
            hand.last()?;
            let mut prizes: Vec<u8> = view.prizes_left.clone();
            prizes.push(view.prize?);
            prizes.sort_unstable();
            let decisive = decisive(seat) || decisive(seat.other());
            let (_, slot) = hand[galespiel_bid_index(hand.len(), &prizes, prize, decisive)];
            Some(GaleMove::Bid { slot, aid: false })
        }
        GaleMove::Build { .. } => Some(GaleMove::Build {
            spots: galespiel_greedy_build(&state, seat, &legal, 0.5)
                .iter()
                .fold(0, |all, spot| all | spot),
            emergency: false,
        }),
        GaleMove::Upgrade(_) => legal.iter().copied().max_by_key(|m| match *m {
            // Higher slots are higher cards: prefer them, most significant first.
            GaleMove::Upgrade(set) => set,
            _ => 0,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tests::assert_root_searched_by;

    /// Galespiel's root bids are solved (`ROOT_SOLVE_HIDDEN`) though the prize order is hidden:
    /// the same search (same seed) with `root_solve` reports other root probabilities than the
    /// average strategy it reports without, at the first bid and at a later one; with the
    /// constant off both are the average strategy.
    #[test]
    fn galespiel_root_bids_are_solved_though_the_prize_order_is_hidden() {
        let mut game = Galespiel::new(Default::default());
        let mut rng = colosseum_engine::seeded_rng(4);
        let mut checked = 0;
        while checked < 2 {
            while game.pending() != Pending::Both {
                let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
                game.apply(step).unwrap();
            }
            let root = |solve: bool| {
                let mut config =
                    crate::mcts::MctsConfig::regret_matching(crate::Budget::Iterations(30_000));
                config.root_solve = solve;
                crate::mcts::Mcts::new(config).root_estimate(
                    &Observation::new(&game, Seat::P1, &[]),
                    &mut colosseum_engine::seeded_rng(9),
                    None,
                )
            };
            let (solved, average) = (root(true), root(false));
            assert_eq!(solved.len(), average.len());
            let moved: f64 = solved
                .iter()
                .zip(&average)
                .map(|(s, a)| (s.probability - a.probability).abs())
                .sum();
            assert!(moved > 0.05, "{solved:?} {average:?}");
            let total: f64 = solved.iter().map(|r| r.probability).sum();
            assert!((total - 1.0).abs() < 1e-9);
            checked += 1;
            for _ in 0..3 {
                if game.pending() == Pending::Over {
                    break;
                }
                let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
                game.apply(step).unwrap();
            }
        }
    }

    /// Galespiel's evaluation counts the cards left this cycle: after p1 spent its 9 on the 3
    /// against p2's 1, p1 is 1 material ahead but p2's hand (2 to 9 against 1 to 8) wins every
    /// prize left by matching, so the position is p2's; at the start both hands are equal.
    #[test]
    fn galespiel_evaluation_counts_the_cards_left_this_cycle() {
        let mut game = Galespiel::new(Default::default());
        let order = game.parse_chance("3 4 4 5 5 6 8").unwrap();
        game.apply(Step::Chance(order)).unwrap();
        assert_eq!(galespiel_cycle_materials(&game), [0.0, 0.0]);
        assert!((game.evaluate() - 0.5).abs() < 1e-9);
        let bid = |g: &Galespiel, seat: Seat, text: &str| g.parse_move(seat, text).unwrap();
        let (p1, p2) = (bid(&game, Seat::P1, "9"), bid(&game, Seat::P2, "1"));
        game.apply(Step::Both { p1, p2 }).unwrap();
        assert_eq!(game.pending(), Pending::One(Seat::P1), "p1 builds");
        assert_eq!(game.prizes_to_bid(), vec![4, 4, 5, 5, 6, 8]);
        assert!(game.need(Seat::P1) < game.need(Seat::P2));
        assert_eq!(galespiel_cycle_materials(&game), [0.0, 32.0]);
        assert!(game.evaluate() < 0.2, "{}", game.evaluate());
    }

    /// Galespiel's playouts, along random games: every playout move is legal; a build takes
    /// only spots of a cheapest crossing, which costs what `cheapest` says, as many as the seat
    /// can pay for; a playout stops at the first bid of a later cycle and nowhere else.
    #[test]
    fn galespiel_playouts_build_on_the_cheapest_crossing_and_stop_at_the_next_cycle() {
        use colosseum_games::galespiel::geometry::Spot;
        let mut rng = colosseum_engine::seeded_rng(8);
        let (mut builds, mut built, mut stops) = (0, 0, 0);
        for _ in 0..4 {
            let mut game = Galespiel::new(Default::default());
            while game.pending() != Pending::Over {
                if game.pending() != Pending::Chance {
                    let costs = game.options().board.costs();
                    if let (Some(path), Some(cheapest)) = (
                        galespiel_cheapest_path(&game, Seat::P1),
                        game.cheapest(Seat::P1),
                    ) {
                        let sum: u32 = path.iter().map(|&s| u32::from(costs[usize::from(s)])).sum();
                        assert_eq!(sum, cheapest, "the path's spots cost the cheapest crossing");
                        assert!(path.iter().all(|&s| game.bridges(Seat::P1) & (1 << s) == 0));
                    }
                    for &seat in game.pending().seats() {
                        let new_cycle = game.hand(Seat::P1) == 0x1ff
                            && game.hand(Seat::P2) == 0x1ff
                            && game.rounds() > 0
                            && game.prize().is_some();
                        let mv = galespiel_playout_move(&game, seat, &mut rng);
                        if new_cycle {
                            assert_eq!(mv, None, "a playout stops at a later cycle's first bid");
                            stops += 1;
                            continue;
                        }
                        let mv = mv.expect("a playout moves within the cycle");
                        assert!(game.check_move(seat, &mv).is_ok(), "{mv:?}");
                        if let GaleMove::Build { spots, .. } = mv {
                            builds += 1;
                            let path = galespiel_cheapest_path(&game, seat).unwrap_or_default();
                            let on_path = path.iter().fold(0u64, |all, &s| all | 1 << s);
                            assert_eq!(spots & !on_path, 0, "only spots of the cheapest crossing");
                            let paid: u32 =
                                Spot::iter(spots).map(|s| u32::from(costs[s.index()])).sum();
                            let left = u32::from(game.materials(seat)) - paid;
                            // Nothing else on the path was affordable.
                            for &s in &path {
                                if spots & (1 << s) == 0 {
                                    assert!(u32::from(costs[usize::from(s)]) > left);
                                }
                            }
                            if spots != 0 {
                                built += 1;
                            }
                        }
                    }
                }
                let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
                game.apply(step).unwrap();
            }
        }
        assert!(
            builds > 10 && built > 5,
            "{builds} builds, {built} with bridges"
        );
        assert!(stops > 0, "no later cycle reached");
    }

    /// A playout bids as the heuristic in most draws: by matching ranks (the 1 on the smallest
    /// prize), and its highest card when the prize is decisive (here p2 needs 2 and the prize is
    /// 3).
    #[test]
    fn galespiel_playout_bids_follow_the_heuristics_rule() {
        let bid = |g: &Galespiel, seat: Seat, text: &str| g.parse_move(seat, text).unwrap();
        let mut game = Galespiel::new(Default::default());
        let order = game.parse_chance("3 8 4 4 5 5 6").unwrap();
        game.apply(Step::Chance(order)).unwrap();
        let mut rng = colosseum_engine::seeded_rng(3);
        let one = bid(&game, Seat::P1, "1");
        let picks = (0..200)
            .filter(|_| galespiel_playout_move(&game, Seat::P1, &mut rng) == Some(one))
            .count();
        assert!(picks > 140, "the 1 on the 3 in {picks} of 200");
        // p2 wins the 8 and the 6 and builds down column f: it needs 2 when the 3 comes up,
        // which rank matching would answer with the 3.
        let mut game = Galespiel::new(Default::default());
        let order = game.parse_chance("8 6 3 4 4 5 5").unwrap();
        game.apply(Step::Chance(order)).unwrap();
        for (mine, theirs, spots) in [("1", "9", "f4 f6"), ("2", "8", "f8 f10")] {
            let (p1, p2) = (bid(&game, Seat::P1, mine), bid(&game, Seat::P2, theirs));
            game.apply(Step::Both { p1, p2 }).unwrap();
            let mv = bid(&game, Seat::P2, spots);
            game.apply(Step::One { seat: Seat::P2, mv }).unwrap();
        }
        assert_eq!(game.prize(), Some(3));
        assert_eq!(game.need(Seat::P2), Some(2));
        let top = bid(&game, Seat::P1, "9");
        let picks = (0..200)
            .filter(|_| galespiel_playout_move(&game, Seat::P1, &mut rng) == Some(top))
            .count();
        assert!(picks > 140, "the 9 on a decisive prize in {picks} of 200");
    }

    /// At every build of random Galespiel games, the search's candidates are a handful of legal
    /// builds: the heuristic's (first), building nothing, and its first bridge alone.
    #[test]
    fn galespiel_build_candidates_are_few_and_hold_the_heuristic() {
        let mut rng = colosseum_engine::seeded_rng(4);
        let mut builds = 0;
        let mut multi = 0;
        for _ in 0..2 {
            let mut game = Galespiel::new(Default::default());
            while game.pending() != Pending::Over {
                for seat in game.pending().seats().iter().copied() {
                    let mut legal = Vec::new();
                    game.legal_moves(seat, &mut legal);
                    if !matches!(legal.first(), Some(GaleMove::Build { .. })) {
                        continue;
                    }
                    builds += 1;
                    let mut moves = Vec::new();
                    game.search_moves(seat, &mut colosseum_engine::seeded_rng(1), &mut moves);
                    let heuristic = Galespiel::heuristic_move(
                        &Observation::new(&game, seat, &[]),
                        &mut colosseum_engine::seeded_rng(1),
                    );
                    assert_eq!(moves.first(), Some(&heuristic));
                    assert!(moves.len() <= 6, "{moves:?}");
                    let nothing = GaleMove::Build {
                        spots: 0,
                        emergency: false,
                    };
                    assert_eq!(moves.contains(&nothing), legal.contains(&nothing));
                    for (i, m) in moves.iter().enumerate() {
                        assert!(game.check_move(seat, m).is_ok(), "{m:?}");
                        assert!(!moves[..i].contains(m), "{m:?} twice");
                    }
                    if let GaleMove::Build { spots, .. } = heuristic {
                        if spots.count_ones() > 1 {
                            multi += 1;
                            // Its first bridge alone is there too.
                            assert!(moves.iter().any(|m| matches!(m, GaleMove::Build { spots: s, .. } if s.count_ones() == 1 && s & spots == *s)));
                        }
                    }
                }
                let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
                game.apply(step).unwrap();
            }
        }
        assert!(builds > 10, "{builds} builds seen");
        assert!(multi > 0, "no build of several bridges seen");
    }

    /// At a Galespiel bid the search's candidates leave out a bid after which the opponent can
    /// win the round and connect, when another bid prevents it, and keep only the bids that win
    /// the game outright when there are any. Checked along random games by playing each bid
    /// against every reply and the round winner's cheapest crossing through the rules.
    #[test]
    fn galespiel_bids_that_let_the_opponent_connect_are_left_out() {
        // After the bids `mine` and `theirs`, whether `who` wins the round and building its
        // cheapest crossing then wins it the game.
        let connects =
            |game: &Galespiel, seat: Seat, mine: &GaleMove, theirs: &GaleMove, who: Seat| {
                let (p1, p2) = match seat {
                    Seat::P1 => (*mine, *theirs),
                    Seat::P2 => (*theirs, *mine),
                };
                let mut after = game.clone();
                after.apply(Step::Both { p1, p2 }).unwrap();
                if after.pending() != Pending::One(who) {
                    return false;
                }
                let Some(path) = galespiel_cheapest_path(&after, who) else {
                    return false;
                };
                let spots = path.iter().fold(0u64, |all, &s| all | 1 << s);
                let mv = GaleMove::Build {
                    spots,
                    emergency: false,
                };
                after.apply(Step::One { seat: who, mv }).is_ok()
                    && after.outcome().is_some_and(|o| {
                        crate::p1_value(&o) == if who == Seat::P1 { 1.0 } else { 0.0 }
                    })
            };
        let mut rng = colosseum_engine::seeded_rng(6);
        let (mut blocks, mut wins) = (0, 0);
        for _ in 0..40 {
            let mut game = Galespiel::new(Default::default());
            while game.pending() != Pending::Over {
                if game.pending() == Pending::Both {
                    for seat in Seat::BOTH {
                        let (mut bids, mut replies, mut moves) =
                            (Vec::new(), Vec::new(), Vec::new());
                        game.legal_moves(seat, &mut bids);
                        game.legal_moves(seat.other(), &mut replies);
                        game.search_moves(seat, &mut colosseum_engine::seeded_rng(1), &mut moves);
                        assert!(moves.iter().all(|m| bids.contains(m)), "{moves:?}");
                        let lets = |b: &GaleMove| {
                            replies
                                .iter()
                                .any(|c| connects(&game, seat, b, c, seat.other()))
                        };
                        let wins_outright = |b: &GaleMove| {
                            replies.iter().all(|c| connects(&game, seat, b, c, seat))
                        };
                        if bids.iter().any(wins_outright) {
                            assert!(moves.iter().all(wins_outright), "{moves:?}");
                            if moves.len() < bids.len() {
                                wins += 1;
                            }
                        } else if moves.len() < bids.len() {
                            // Every bid left out lets the opponent connect; none kept does.
                            for b in &bids {
                                assert_eq!(lets(b), !moves.contains(b), "{b:?} of {bids:?}");
                            }
                            blocks += 1;
                        }
                    }
                }
                let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
                game.apply(step).unwrap();
            }
        }
        assert!(
            blocks > 5 && wins > 5,
            "{blocks} blocks, {wins} outright wins seen"
        );
    }

    /// In Galespiel regret-matching search picks a build (the round's winner alone, its bridges
    /// seen by the opponent) by UCT (`LONE_MOVES_BY_UCT`, allowed with the hidden prize order
    /// since a build is not face down): the root's weights are its visits, gathered on the
    /// build valued best; at a bid (both seats at once) the root keeps its regret-matching
    /// average strategy.
    #[test]
    fn galespiel_builds_are_searched_by_uct_and_bids_by_regret_matching() {
        let mut rng = colosseum_engine::seeded_rng(3);
        let (mut builds, mut bids) = (0, 0);
        for _ in 0..4 {
            let mut game = Galespiel::new(Default::default());
            while game.pending() != Pending::Over && (builds < 2 || bids < 2) {
                let seats = game.pending().seats().to_vec();
                let mut legal = Vec::new();
                if let Some(&seat) = seats.first() {
                    game.legal_moves(seat, &mut legal);
                }
                let build = seats.len() == 1
                    && matches!(legal.first(), Some(GaleMove::Build { .. }))
                    && legal.len() > 2;
                let bid = seats.len() == 2 && legal.len() > 2;
                if (build && builds < 2) || (bid && bids < 2) {
                    let seat = seats[0];
                    let mut mcts = crate::mcts::Mcts::new(
                        crate::mcts::MctsConfig::regret_matching(crate::Budget::Iterations(15_000)),
                    );
                    let root = mcts.root_estimate(
                        &Observation::new(&game, seat, &[]),
                        &mut colosseum_engine::seeded_rng(9),
                        None,
                    );
                    assert_root_searched_by(&root, build);
                    if build {
                        builds += 1;
                    } else {
                        bids += 1;
                    }
                }
                let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
                game.apply(step).unwrap();
            }
        }
        assert_eq!((builds, bids), (2, 2));
    }
}

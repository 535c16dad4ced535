//! Each game's hooks for the bots: its heuristic bot, its search moves and its playouts.

use colosseum_engine::{AnyGame, Erased, Game, Pending, Seat, SeededRng, Step, TextStep, Viewer};
use colosseum_games::all_in_goofspiel::{self, AllInGoofspiel, Play};
use colosseum_games::galespiel::{Galespiel, Move as GaleMove, PrizeOrder};
use colosseum_games::goofspiel::{Goofspiel, PrizeOrder as GoofspielOrder, ReturnsType};
use colosseum_games::square_goofspiel::{Bid, SquareGoofspiel, CELLS, SIDE};

/// The most positions Square Goofspiel's endgame solver may meet before search takes over.
const SQUARE_ENDGAME_NODES: usize = 4000;

use colosseum_games::thwart_omega::{Colour, ThwartOmega};
use colosseum_games::witchs_brew::{
    self, Condition, ConditionSet, Prize, Sight, Stage, WitchsBrewView,
};
use colosseum_games::witchs_brew::{Move as BrewMove, WitchsBrew};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;

use crate::{BotGame, Observation};

/// The generic fallback heuristic: `candidates` moves (the enumerated ones first, then random
/// ones), each answered by the same sampled replies of the opponent, scored by
/// [`BotGame::evaluate`] after a playout with rollout moves; the best average wins.
pub(crate) fn lookahead_move<G: BotGame>(
    observation: &Observation<'_, G>,
    rng: &mut SeededRng,
    candidates: usize,
) -> G::Move {
    let seat = observation.seat();
    let mut moves = Vec::new();
    observation.legal_moves(&mut moves);
    moves.truncate(candidates);
    while moves.len() < candidates {
        match observation.random_move(rng) {
            Some(m) if !moves.contains(&m) => moves.push(m),
            Some(_) => {
                if rng.random_range(0..8) == 0 {
                    break;
                }
            }
            None => break,
        }
    }
    let samples: Vec<G> = (0..4).map(|_| observation.determinize(rng)).collect();
    let seeds: Vec<u64> = (0..samples.len()).map(|_| rng.random()).collect();
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    for mv in moves {
        let mut total = 0.0;
        for (sample, &seed) in samples.iter().zip(&seeds) {
            // Common random numbers: every candidate meets the same replies and playouts.
            let mut r = colosseum_engine::seeded_rng(seed);
            let value = play_after(sample.clone(), seat, mv.clone(), &mut r);
            total += if seat == Seat::P1 { value } else { 1.0 - value };
        }
        if total > best_value {
            best_value = total;
            best = Some(mv);
        }
    }
    best.or_else(|| observation.random_move(rng))
        .expect("a bot is asked only when its seat acts")
}

/// Plays `mv` for `seat` (with the opponent's rollout move if both act), then plays out.
fn play_after<G: BotGame>(mut state: G, seat: Seat, mv: G::Move, rng: &mut SeededRng) -> f64 {
    let step = match state.pending() {
        Pending::Both => match state.rollout_move(seat.other(), rng) {
            Some(reply) => match seat {
                Seat::P1 => Step::Both { p1: mv, p2: reply },
                Seat::P2 => Step::Both { p1: reply, p2: mv },
            },
            None => return state.evaluate(),
        },
        _ => Step::One { seat, mv },
    };
    if state.apply(step).is_err() {
        return state.evaluate();
    }
    crate::mcts::rollout(state, rng)
}

/// A playout move that is the heuristic's with probability `p`, else uniformly random: playouts
/// that play sensibly judge a position far better than random ones, and the random share keeps
/// them from being blind to what the heuristic never plays. (Playouts run on determinized states,
/// so the heuristic's observation is of a sample.)
fn mixed_rollout<G: BotGame>(
    state: &G,
    seat: Seat,
    rng: &mut SeededRng,
    p: f64,
) -> Option<G::Move> {
    if !state.pending().includes(seat) {
        return None;
    }
    if rng.random_bool(p) {
        Some(G::heuristic_move(&Observation::new(state, seat, &[]), rng))
    } else {
        state.random_move(seat, rng)
    }
}

/// Classic Goofspiel: Ross's matching strategy.
impl BotGame for Goofspiel {
    /// The same exploration per card up to 13 cards: 0.3 of 13 (0.023 a card), so 0.3 at 13 as
    /// measured there, 0.115 at 5; 0.3 above 13 (untested there, and a share must stay below
    /// 1). With 0.3 at five cards the exact judge found `mcts:medium` as exploitable as
    /// `mcts:easy` (0.177 against 0.167); docs/strength.md.
    fn level_gamma(&self) -> f64 {
        (0.3 * f64::from(self.options().cards) / 13.0).min(0.3)
    }

    const HAS_HEURISTIC: bool = true;

    fn heuristic_description() -> &'static str {
        "bids the card whose rank among its cards matches the prize's rank among the prizes left"
    }

    /// Playouts follow the matching strategy half the time.
    fn rollout_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<u8> {
        mixed_rollout(self, seat, rng, 0.5)
    }

    /// With the prizes in a fixed order and at most [`crate::solver::GOOFSPIEL_EXACT_MAX`] cards,
    /// the solved equilibrium (played to win) at this position: both hands and the points are
    /// public, so the position is what the seat sees. Where the result is already certain, every
    /// card is equally good (uniform).
    ///
    /// With descending prizes and point-difference returns, at any number of cards up to
    /// [`crate::table::MAX_CARDS`], the solved table's strategy at the pair of hands
    /// ([`crate::shared_table`]; the points won so far do not matter then).
    fn equilibrium(&self, seat: Seat) -> Option<Vec<(u8, f64)>> {
        if let Some(cards) = goofspiel_table_cards(self) {
            if self.pending() != Pending::Both {
                return None;
            }
            let table = goofspiel_table(cards)?;
            let strategy = table.strategy(hand_bits(self, seat), hand_bits(self, seat.other()))?;
            return Some(strategy.into_iter().map(|(c, p)| (c as u8, p)).collect());
        }
        let options = self.options();
        let ascending = match options.order {
            GoofspielOrder::Descending => false,
            GoofspielOrder::Ascending => true,
            GoofspielOrder::Random => return None,
        };
        if self.pending() != Pending::Both {
            return None;
        }
        let solution = crate::solver::goofspiel_win_loss(u32::from(options.cards), ascending)?;
        let bits = |seat: Seat| -> u32 { self.hand(seat).iter().fold(0, |b, c| b | 1 << (c - 1)) };
        let [a, b] = self.points();
        let diff = i64::from(a) - i64::from(b);
        let Some(strategy) = solution.strategy(
            bits(Seat::P1),
            bits(Seat::P2),
            i32::try_from(diff).ok()?,
            seat,
        ) else {
            // The result is already certain (not solved): every card is as good.
            let hand: Vec<u8> = self.hand(seat).iter().collect();
            let p = 1.0 / hand.len() as f64;
            return Some(hand.into_iter().map(|c| (c, p)).collect());
        };
        Some(strategy.into_iter().map(|(c, p)| (c as u8, p)).collect())
    }

    /// The solved value (played to win) where [`BotGame::equilibrium`] has a solution: the
    /// node's value, or the certain result where the difference exceeds the prizes left.
    ///
    /// With descending prizes and point-difference returns, the table's value plus the points
    /// difference so far, mapped onto 0 to 1 by [`BotGame::points_range`] (also once the game
    /// is over).
    fn exact_value(&self) -> Option<f64> {
        if let Some(cards) = goofspiel_table_cards(self) {
            let rest = match self.pending() {
                Pending::Over => 0.0,
                Pending::Both => goofspiel_table(cards)?
                    .value(hand_bits(self, Seat::P1), hand_bits(self, Seat::P2))?,
                _ => return None,
            };
            let [a, b] = self.points();
            let difference = f64::from(a) - f64::from(b) + rest;
            return Some(0.5 + difference / self.points_range()?);
        }
        let options = self.options();
        let ascending = match options.order {
            GoofspielOrder::Descending => false,
            GoofspielOrder::Ascending => true,
            GoofspielOrder::Random => return None,
        };
        if self.pending() != Pending::Both {
            return None;
        }
        let solution = crate::solver::goofspiel_win_loss(u32::from(options.cards), ascending)?;
        let bits = |seat: Seat| -> u32 { self.hand(seat).iter().fold(0, |b, c| b | 1 << (c - 1)) };
        let [a, b] = self.points();
        let diff = i32::try_from(i64::from(a) - i64::from(b)).ok()?;
        Some(
            match solution.nodes.get(&(bits(Seat::P1), bits(Seat::P2), diff)) {
                Some(node) => node.value,
                // Not solved: the result is certain (the difference exceeds the prizes left).
                None if diff > 0 => 1.0,
                None => 0.0,
            },
        )
    }

    /// With descending prizes and point-difference returns, the table for the number of cards
    /// (read from the file named, or solved here up to [`crate::shared_table::SOLVE_MAX`]
    /// cards); its error says what to do.
    fn prepare_exact(&self) -> Result<(), String> {
        match goofspiel_table_cards(self) {
            Some(cards) => crate::shared_table::table(cards).map(|_| ()),
            None => Ok(()),
        }
    }

    /// With point-difference returns: twice the points of all the prizes, N (N + 1).
    fn points_range(&self) -> Option<f64> {
        let options = self.options();
        (options.returns == ReturnsType::PointDifference).then(|| {
            let n = f64::from(options.cards);
            n * (n + 1.0)
        })
    }

    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> u8 {
        let view = observation.view();
        let seat = observation.seat();
        let hand = match seat {
            Seat::P1 => &view.hands.p1,
            Seat::P2 => &view.hands.p2,
        };
        let (Some(prize), false) = (view.prize, hand.is_empty()) else {
            return observation.random_move(rng).expect("the seat acts");
        };
        let mut prizes: Vec<u8> = view.prizes_left.clone();
        if !prizes.contains(&prize) {
            prizes.push(prize);
        }
        prizes.sort_unstable();
        let mut cards = hand.clone();
        cards.sort_unstable();
        let rank = prizes.iter().position(|&p| p == prize).unwrap_or(0);
        // Scale the prize's rank onto the hand (they have the same length in the standard game).
        let i = if prizes.len() <= 1 {
            cards.len() - 1
        } else {
            rank * (cards.len() - 1) / (prizes.len() - 1)
        };
        cards[i]
    }
}

/// The share of Square Goofspiel's playout moves that are the heuristic's (the rest uniformly
/// random bids). Half, before: random bids throw away high cards on cheap cells, so playouts
/// misjudged what a card kept is worth. `hard` against the heuristic, the same 20 seeds: 13 wins
/// at 0.5, 16 at 0.9 (docs/strength.md, seventh session).
const SQUARE_ROLLOUT_HEURISTIC: f64 = 0.9;

/// The number of cards when `game` is played from the solved table: descending prizes,
/// point-difference returns, at most [`crate::table::MAX_CARDS`] cards.
fn goofspiel_table_cards(game: &Goofspiel) -> Option<u32> {
    let options = game.options();
    (options.order == GoofspielOrder::Descending
        && options.returns == ReturnsType::PointDifference
        && u32::from(options.cards) <= crate::table::MAX_CARDS)
        .then_some(u32::from(options.cards))
}

/// The table of `cards` cards, or `None` after saying once on standard error why it is missing
/// (the command line and the server refuse a `hard` bot or an analysis before this, through
/// [`BotGame::prepare_exact`]; this is for the bot protocol's games, whose options come later).
fn goofspiel_table(cards: u32) -> Option<std::sync::Arc<crate::table::GoofspielTable>> {
    match crate::shared_table::table(cards) {
        Ok(table) => Some(table),
        Err(e) => {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| eprintln!("colosseum: {e}; searching instead"));
            None
        }
    }
}

/// A seat's hand as bits (bit c − 1 for card c), as the table takes it.
fn hand_bits(game: &Goofspiel, seat: Seat) -> crate::solver::Cards {
    game.hand(seat).iter().fold(0, |b, c| b | 1 << (c - 1))
}

/// Square Goofspiel: value per card.
impl BotGame for SquareGoofspiel {
    const HAS_HEURISTIC: bool = true;
    /// Regret matching (the levels) runs twice the budget: `hard` 60,000 iterations. The
    /// playouts' heuristic lost its allocations (1.7 times the iterations a CPU second), so a
    /// decision costs about 1.2 times the 30,000 iterations' before; the old search named by
    /// its settings (`mcts:iters=5000,model=0.5,algo=uct`) keeps its 5000 (docs/strength.md,
    /// tenth session).
    const REGRET_MATCHING_SCALE: f64 = 2.0;

    fn heuristic_description() -> &'static str {
        "values each cell by the lines it counts for (value on the line times the line's worth) and bids the card whose rank in its hand matches the cell's rank among the cells left; passes on the cheapest cells when it holds fewer cards than cells remain"
    }

    /// In the last phase (no chance left), when at most 4000 positions remain, the exact
    /// equilibrium strategy (backward induction with an LP per position).
    fn endgame(&self, seat: Seat) -> Option<Vec<(Bid, f64)>> {
        if self.auctions_done() < CELLS - colosseum_games::square_goofspiel::AUCTIONS_PER_PHASE {
            return None;
        }
        let solution = crate::solver::solve_endgame(
            self,
            &crate::solver::square_goofspiel_key,
            SQUARE_ENDGAME_NODES,
        )?;
        Some(match seat {
            Seat::P1 => solution.p1,
            Seat::P2 => solution.p2,
        })
    }

    /// The last phase's exact value ([`crate::solver::solve_endgame`]), as the endgame's bot
    /// plays it.
    fn exact_value(&self) -> Option<f64> {
        if self.auctions_done() < CELLS - colosseum_games::square_goofspiel::AUCTIONS_PER_PHASE {
            return None;
        }
        crate::solver::solve_endgame(
            self,
            &crate::solver::square_goofspiel_key,
            SQUARE_ENDGAME_NODES,
        )
        .map(|s| s.value)
    }

    /// Playouts follow the heuristic in [`SQUARE_ROLLOUT_HEURISTIC`] of the moves (as
    /// [`mixed_rollout`] does, with the same random draws, without an observation's copy).
    fn rollout_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<Bid> {
        if !self.pending().includes(seat) {
            return None;
        }
        if rng.random_bool(SQUARE_ROLLOUT_HEURISTIC) {
            if let Some(bid) = square_heuristic_bid(self, seat) {
                return Some(bid);
            }
        }
        self.random_move(seat, rng)
    }

    /// The result once the game is over (as [`SquareGoofspiel::winner`] says, without the
    /// outcome's text), else ½.
    fn evaluate(&self) -> f64 {
        if self.pending() != Pending::Over {
            return 0.5;
        }
        match self.winner() {
            Some(Seat::P1) => 1.0,
            Some(Seat::P2) => 0.0,
            None => 0.5,
        }
    }

    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> Bid {
        let state = observation.determinize(rng);
        match square_heuristic_bid(&state, observation.seat()) {
            Some(bid) => bid,
            None => observation.random_move(rng).expect("the seat acts"),
        }
    }
}

/// A Square Goofspiel cell's importance to the heuristic: its value on each of its lines times
/// that line's worth, summed.
fn square_importance(c: colosseum_games::square_goofspiel::Cell) -> u32 {
    let side = SIDE as u32;
    let (col, row) = (u32::from(c.value_in_row()), u32::from(c.value_in_column()));
    col * (side + 1 - row) + row * (side + 1 - col)
}

/// Square Goofspiel's heuristic bid for `seat` (`None` when no cell is up): matching, as in
/// Goofspiel: the cell's rank among the cells left picks the card of the same rank in the hand;
/// with fewer cards than cells, the cheapest cells get a pass. Allocation-free: it is most of a
/// playout's work ([`SQUARE_ROLLOUT_HEURISTIC`]).
fn square_heuristic_bid(state: &SquareGoofspiel, seat: Seat) -> Option<Bid> {
    let (_, cell) = state.cell_up()?;
    let hand = state.hand(seat);
    let mine = square_importance(cell);
    let (mut below, mut remaining) = (0usize, 0usize);
    for c in colosseum_games::square_goofspiel::Cell::all() {
        if c != cell && !state.is_auctioned(c) {
            remaining += 1;
            if square_importance(c) < mine {
                below += 1;
            }
        }
    }
    let cells = remaining + 1;
    let held = hand.len() as usize;
    if held == 0 {
        return Some(Bid::PASS);
    }
    let spare = cells.saturating_sub(held);
    if below < spare {
        return Some(Bid::PASS);
    }
    let rank = below - spare;
    let slots = (cells - spare).max(1);
    let i = (rank * held / slots).min(held - 1);
    // The i-th card of the hand, weakest first.
    let mut seen = 0usize;
    for strength in 1..=colosseum_games::square_goofspiel::MAX_STRENGTH {
        seen += usize::from(hand.count(strength));
        if i < seen {
            return Some(Bid::card(strength).unwrap_or(Bid::PASS));
        }
    }
    Some(Bid::PASS)
}

/// Thwart Omega: grow your colour, merge the opponent's, judged one round ahead.
impl BotGame for ThwartOmega {
    const HAS_HEURISTIC: bool = true;
    /// Half the budget (`mcts:hard` 15,000 iterations): its playouts are long.
    const SEARCH_SCALE: f64 = 0.5;

    fn heuristic_description() -> &'static str {
        "tries 48 placements against the same random replies and keeps the one that most raises its product relative to the opponent's (splitting its colour, merging the other)"
    }

    fn widening() -> Option<(f64, f64)> {
        Some((2.0, 0.5))
    }

    fn search_moves(&self, seat: Seat, rng: &mut SeededRng, out: &mut Vec<Self::Move>) {
        // The full list has n²(n²-1) placements: start from a few random ones and widen.
        for _ in 0..4 {
            if let Some(m) = self.random_move(seat, rng) {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
    }

    fn evaluate(&self) -> f64 {
        if let Some(o) = self.outcome() {
            return crate::p1_value(&o);
        }
        let score = |c: Colour| (self.groups(c).product() as f64).max(0.5);
        let (b, w) = (score(Colour::Black), score(Colour::White));
        b / (b + w)
    }

    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> Self::Move {
        let seat = observation.seat();
        let state = observation.determinize(rng);
        let mut candidates = Vec::new();
        // Bounded tries: near the end there are fewer than 48 placements.
        for _ in 0..200 {
            match observation.random_move(rng) {
                Some(m) if !candidates.contains(&m) => candidates.push(m),
                Some(_) => {}
                None => break,
            }
            if candidates.len() == 48 {
                break;
            }
        }
        let replies: Vec<_> = (0..6)
            .filter_map(|_| state.random_move(seat.other(), rng))
            .collect();
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for mv in candidates {
            let mut total = 0.0;
            for reply in &replies {
                let mut next = state;
                let step = match seat {
                    Seat::P1 => Step::Both { p1: mv, p2: *reply },
                    Seat::P2 => Step::Both { p1: *reply, p2: mv },
                };
                if next.apply(step).is_ok() {
                    let score = |c: Colour| (next.groups(c).product() as f64).max(0.5).ln();
                    let mine = Colour::of(seat);
                    let theirs = Colour::of(seat.other());
                    total += score(mine) - score(theirs);
                }
            }
            if total > best_value {
                best_value = total;
                best = Some(mv);
            }
        }
        best.or_else(|| observation.random_move(rng))
            .expect("the seat acts")
    }
}

/// All-In Goofspiel: win rounds cheaply, go all-in when it reaches 28.
impl BotGame for AllInGoofspiel {
    const HAS_HEURISTIC: bool = true;
    const HIDDEN_INFORMATION: bool = true;
    const PURIFY: f64 = 0.5;
    /// Half the budget (`mcts:hard` 15,000 iterations): candidates are listed by strength.
    const SEARCH_SCALE: f64 = 0.5;

    fn heuristic_description() -> &'static str {
        "goes all-in (whole hand, largest number) when winning the round reaches 28; otherwise as starter puts down a few high cards in valuable rounds, as responder answers a short play with one card more, lets a long one (4+ cards) go, and beats a play of no cards with its lowest card"
    }

    /// Plays that make sense, by count and strength ([`all_in_candidates`]), plus the
    /// heuristic's choice: no widening, since random card lists are nearly all nonsense.
    fn search_moves(&self, seat: Seat, rng: &mut SeededRng, out: &mut Vec<Play>) {
        all_in_candidates(self, seat, out);
        if self.pending() == Pending::One(seat) {
            let mv = Self::heuristic_move(&Observation::new(self, seat, &[]), rng);
            if !out.contains(&mv) {
                out.push(mv);
            }
        }
    }

    /// Playouts mix the heuristic ([`ALL_IN_ROLLOUT_HEURISTIC`] of the moves) with the
    /// candidate plays: random card lists almost never empty a hand at 28 points, so playouts of
    /// them nearly all end in a draw and carry no signal. (Playouts run on determinized states,
    /// so the heuristic's observation is of a sample.)
    fn rollout_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<Play> {
        if self.pending() != Pending::One(seat) {
            return None;
        }
        if rng.random_bool(ALL_IN_ROLLOUT_HEURISTIC) {
            Some(Self::heuristic_move(
                &Observation::new(self, seat, &[]),
                rng,
            ))
        } else {
            let mut candidates = Vec::new();
            all_in_candidates(self, seat, &mut candidates);
            candidates.choose(rng).copied()
        }
    }

    fn fill_withheld(
        &self,
        seat: Seat,
        view: &serde_json::Value,
        rng: &mut SeededRng,
    ) -> Option<Play> {
        let count = view["current"]["face_down_count"].as_u64()? as usize;
        let mut cards: Vec<i8> = self.hand(seat).iter().collect();
        if count > cards.len() {
            return None;
        }
        cards.shuffle(rng);
        Play::new(&cards[..count])
    }

    /// The starter's heuristic play, worked out from the position before it put its cards down,
    /// when it has as many cards as the ones face down.
    fn model_withheld(&self, seat: Seat, rng: &mut SeededRng) -> Option<Self> {
        let starter = self.starter();
        if starter == seat || self.face_down_count().is_none() {
            return None;
        }
        let before = self.before_face_down();
        let play = Self::heuristic_move(&Observation::new(&before, starter, &[]), rng);
        self.with_face_down(play)
    }

    /// The position before the starter's face-down cards, with the starter's candidates of
    /// the same count ([`all_in_candidates`] and its heuristic's play, as at every node) and
    /// [`ALL_IN_WITHHELD_RANDOM`] random lists of that count from its hand (hands are public,
    /// so the position is the same in every determinization).
    fn withheld_root(&self, seat: Seat, rng: &mut SeededRng, out: &mut Vec<Play>) -> Option<Self> {
        let starter = self.starter();
        if starter == seat {
            return None;
        }
        let count = self.face_down_count()?;
        let before = self.before_face_down();
        let mut candidates = Vec::new();
        before.search_moves(starter, rng, &mut candidates);
        for play in candidates {
            if play.len() == count && !out.contains(&play) {
                out.push(play);
            }
        }
        let mut cards: Vec<i8> = before.hand(starter).iter().collect();
        if count <= cards.len() {
            for _ in 0..ALL_IN_WITHHELD_RANDOM {
                cards.shuffle(rng);
                if let Some(play) = Play::new(&cards[..count]) {
                    if !out.contains(&play) {
                        out.push(play);
                    }
                }
            }
        }
        Some(before)
    }

    fn heuristic_move(observation: &Observation<'_, Self>, _: &mut SeededRng) -> Play {
        let seat = observation.seat();
        let view = observation.view();
        let Some(current) = view.current else {
            return Play::PASS;
        };
        let (hand, points) = match seat {
            Seat::P1 => (&view.hands.p1, view.points.p1.as_f64()),
            Seat::P2 => (&view.hands.p2, view.points.p2.as_f64()),
        };
        let worth = f64::from(current.worth);
        let mut high: Vec<i8> = hand.iter().copied().filter(|&c| c >= 0).collect();
        all_in_goofspiel::order_for_largest(&mut high);
        let negatives: Vec<i8> = hand.iter().copied().filter(|&c| c < 0).collect();
        let whole = || {
            let mut cards = high.clone();
            cards.extend(negatives.iter().copied());
            Play::new(&cards).unwrap_or(Play::PASS)
        };
        if points + worth >= f64::from(all_in_goofspiel::WINNING_POINTS) {
            // Winning this round ends the game: only an empty hand wins it.
            return whole();
        }
        let their_hand = match seat {
            Seat::P1 => &view.hands.p2,
            Seat::P2 => &view.hands.p1,
        };
        let their_count = if current.starter == seat {
            None
        } else {
            current.face_down_count.map(usize::from)
        };
        if their_hand.is_empty() || their_count == Some(0) {
            // They make 0: any positive number takes the round, so spend the lowest card.
            if let Some(&low) = high.iter().filter(|&&c| c > 0).min() {
                return Play::new(&[low]).unwrap_or(Play::PASS);
            }
        }
        if their_count.is_some_and(|k| k >= 4) {
            // Chasing a long number costs too many cards: let the round go.
            return Play::PASS;
        }
        let count = if current.starter == seat {
            // A few cards in valuable rounds, one otherwise; dump a negative card in round 1.
            if current.round == 1 && !negatives.is_empty() {
                return Play::new(&negatives[..1]).unwrap_or(Play::PASS);
            }
            (current.round as usize).div_ceil(3)
        } else {
            usize::from(current.face_down_count.unwrap_or(0)) + 1
        };
        // Spend the middling cards (keep the hand balanced): skip the largest one or two.
        let count = count.min(high.len());
        if count == 0 {
            return Play::PASS;
        }
        let skip = if high.len() > count + 2 { 1 } else { 0 };
        Play::new(&high[skip..skip + count]).unwrap_or(Play::PASS)
    }
}

/// The share of All-In Goofspiel's playout moves that are the heuristic's (the rest a random
/// candidate play, [`all_in_candidates`]). Half, before: most candidates put down many cards, so
/// playouts emptied both hands within a few rounds and taught the search that spending its best
/// cards early costs nothing: against the heuristic, `hard` spent 12, 11 and 10 together in
/// round 1 (worth 1 point) in 8 of 30 games, and 5 of its 9 losses were among them. At 0.9
/// `hard` won 20 of 20 against the heuristic (the same seeds: 13 wins, 1 draw at 0.5).
const ALL_IN_ROLLOUT_HEURISTIC: f64 = 0.9;

/// How many random lists of the face-down count join the starter's candidates where search
/// answers a face-down play ([`BotGame::withheld_root`]): the starter's regret matching weighs
/// them against the sensible plays, so the belief is not limited to what the candidates cover.
const ALL_IN_WITHHELD_RANDOM: usize = 6;

/// The strongest `k`-card number from `cards` (non-negative ones): two-digit cards first, then
/// the highest, arranged for the largest number.
fn all_in_strongest(nonnegative: &[i8], k: usize) -> Vec<i8> {
    let mut by_strength = nonnegative.to_vec();
    by_strength.sort_by_key(|&c| std::cmp::Reverse((c >= 10, c)));
    let mut chosen = by_strength[..k.min(by_strength.len())].to_vec();
    all_in_goofspiel::order_for_largest(&mut chosen);
    chosen
}

/// All-In Goofspiel's search candidates for `seat`: pass; every card alone; for every count,
/// the strongest number and the strongest with the negative cards dumped after it; the cheapest
/// one to four cards; the negatives alone; and, for a responder, the cheapest play of the fewest
/// cards that beats anything the starter can have made with its count (alone and with the
/// negatives after it).
pub(crate) fn all_in_candidates(state: &AllInGoofspiel, seat: Seat, out: &mut Vec<Play>) {
    if state.pending() != Pending::One(seat) {
        return;
    }
    let push = |out: &mut Vec<Play>, cards: &[i8]| {
        if let Some(play) = Play::new(cards) {
            if !out.contains(&play) {
                out.push(play);
            }
        }
    };
    let hand: Vec<i8> = state.hand(seat).iter().collect();
    let nonnegative: Vec<i8> = hand.iter().copied().filter(|&c| c >= 0).collect();
    let negatives: Vec<i8> = hand.iter().copied().filter(|&c| c < 0).collect();
    push(out, &[]);
    for &c in hand.iter().rev() {
        push(out, &[c]);
    }
    for k in 2..=nonnegative.len() {
        push(out, &all_in_strongest(&nonnegative, k));
    }
    if !negatives.is_empty() {
        push(out, &negatives);
        for k in 1..=nonnegative.len() {
            let mut cards = all_in_strongest(&nonnegative, k);
            cards.extend(negatives.iter().copied());
            push(out, &cards);
        }
    }
    let mut low = nonnegative.clone();
    low.sort_unstable();
    for k in 2..=low.len().min(4) {
        let mut cards = low[..k].to_vec();
        all_in_goofspiel::order_for_largest(&mut cards);
        push(out, &cards);
    }
    if state.starter() != seat {
        if let Some(count) = state.face_down_count() {
            let theirs: Vec<i8> = state
                .hand(seat.other())
                .iter()
                .filter(|&c| c >= 0)
                .collect();
            let best = all_in_goofspiel::number(&all_in_strongest(&theirs, count)).max(0);
            if let Some(k) = (1..=nonnegative.len())
                .find(|&k| all_in_goofspiel::number(&all_in_strongest(&nonnegative, k)) > best)
            {
                // Start from the strongest k cards and swap each for the lowest spare card that
                // still beats `best`.
                let mut chosen = all_in_strongest(&nonnegative, k);
                for i in 0..k {
                    for &spare in &low {
                        if chosen.contains(&spare) || spare >= chosen[i] {
                            continue;
                        }
                        let mut trial = chosen.clone();
                        trial[i] = spare;
                        all_in_goofspiel::order_for_largest(&mut trial);
                        if all_in_goofspiel::number(&trial) > best {
                            chosen = trial;
                            break;
                        }
                    }
                }
                all_in_goofspiel::order_for_largest(&mut chosen);
                push(out, &chosen);
                if !negatives.is_empty() {
                    let mut cards = chosen.clone();
                    cards.extend(negatives.iter().copied());
                    if all_in_goofspiel::number(&cards) > best {
                        push(out, &cards);
                    }
                }
            }
        }
    }
}

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
    /// 38.3%: see docs/strength.md, "Galespiel's `hard` (ninth session)".
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
    /// kept such bids in its tree and its mix: see docs/strength.md, "Galespiel's `hard`
    /// (tenth session)").
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

/// The Witch's Brew: place toward the victory conditions you can still meet. Nothing in it is
/// hidden.
impl BotGame for WitchsBrew {
    const HAS_HEURISTIC: bool = true;
    /// An iteration ranks the moves at each new node and runs the estimate at each leaf: a
    /// fifth of the budget (the old search `mcts:iters=10000,...,algo=uct` 2000 iterations; the
    /// levels' regret matching three times that, [`BotGame::REGRET_MATCHING_SCALE`]). With a fifteenth (2000) `hard` won 63.2% of decided
    /// games against the heuristic, with a fifth 77.8% (20 games each, seed 1).
    const SEARCH_SCALE: f64 = 0.2;
    const PURIFY: f64 = 0.5;
    /// Solving the root's estimated matrix game made `hard` worse here (seed 1: 44.4% of
    /// decided games against the heuristic in 20, 63.2% without; 12.5% against the old `hard`
    /// in 20, 33.3% without): 2000 iterations leave the joint estimates too noisy.
    const ROOT_SOLVE: bool = false;
    const LONE_MOVES_BY_UCT: bool = true;
    /// Regret matching (the levels) runs three times the budget: `hard` 18,000 iterations,
    /// about 0.45 s of CPU a decision, while the old search named by its settings
    /// (`mcts:iters=10000,model=0.5,algo=uct`) keeps its 2000 (docs/strength.md, ninth session).
    const REGRET_MATCHING_SCALE: f64 = 3.0;

    fn heuristic_description() -> &'static str {
        "takes the higher card and the victory condition worth more, assigns its best conditions to round 12 first, plays its highest card, and places stones (its own, gray, Leap and Shift) where random fillings of the rest of the grid most often meet its unchecked conditions and least often the opponent's"
    }

    /// Action abstraction: the heuristic's ranking ([`witchs_brew_ranked`]: every card it holds
    /// with its best secondary choice, the six best stones, Leaps or Shifts by its estimate),
    /// then random legal moves up to six where the ranking has fewer (the pick, the assignment).
    /// At the Intermission the assignment the evaluation's estimate values most
    /// ([`brew_best_assignment`]) comes first, before the heuristic's.
    fn search_moves(&self, seat: Seat, rng: &mut SeededRng, out: &mut Vec<BrewMove>) {
        if !self.pending().includes(seat) {
            return;
        }
        out.extend(witchs_brew_ranked(
            &Observation::new(self, seat, &[]),
            rng,
            6,
        ));
        if self.stage() == Stage::Assign {
            if let Some(m) = brew_best_assignment(self, seat) {
                if !out.contains(&m) {
                    out.insert(0, m);
                }
            }
        }
        let mut all = Vec::new();
        self.legal_moves(seat, &mut all);
        all.shuffle(rng);
        for m in all {
            if out.len() >= 6 {
                break;
            }
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }

    /// Search judges a position without playing it out: the leaf is scored by
    /// [`BotGame::evaluate`].
    fn rollout_move(&self, _: Seat, _: &mut SeededRng) -> Option<BrewMove> {
        None
    }

    /// A finished game is 1, 0 or ½; before the end, a logistic of the points each seat has
    /// scored plus the heuristic's estimate of its open conditions (8 fixed random fillings)
    /// plus [`BREW_HAND_WEIGHT`] times the difference in the cards left to play
    /// ([`brew_hand_strength`]; without it a search cut off a round later saw an 8 spent as
    /// free): two points of difference is about 73%.
    fn evaluate(&self) -> f64 {
        if let Some(o) = self.outcome() {
            return crate::p1_value(&o);
        }
        let view = self.view(colosseum_engine::Viewer::Spectator);
        let open = [
            brew_open_conditions(&view, Seat::P1),
            brew_open_conditions(&view, Seat::P2),
        ];
        let [a, b] = self.points();
        let margin = f64::from(a) - f64::from(b)
            + brew_estimate(self.grid(), Seat::P1, &open, brew_fixed_orders())
            + BREW_HAND_WEIGHT
                * (brew_hand_strength(self, Seat::P1) - brew_hand_strength(self, Seat::P2));
        logistic(margin / 2.0)
    }

    /// The Witch's Brew's heuristic, as a casual player would play it:
    ///
    /// * **Cauldron.** Pick the higher card, or the victory condition worth more points; never
    ///   discard.
    /// * **Intermission.** Conditions worth most go to round 12 (the fullest grid), then 9, then 6.
    /// * **Cards.** Play the highest card (the Duplicard is kept); Lock sends the opponent's stone
    ///   to the column where it has fewest stones, Guess names the opponent's highest card, Freeze
    ///   holds up to three of its own stones.
    /// * **Placement.** Every stone, gray stone, Leap and Shift is judged by the same estimate:
    ///   for each condition not checked yet, how often it holds once the stones still to come
    ///   before its check are dropped on random empty cells (16 fillings, shared by every
    ///   candidate); its own conditions count for it, the opponent's against, by their points.
    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> BrewMove {
        witchs_brew_ranked(observation, rng, 1)
            .into_iter()
            .next()
            .filter(|m| observation.check_move(m).is_ok())
            .or_else(|| observation.random_move(rng))
            .expect("the seat acts")
    }
}

/// Eight random orders of the cells, the same in every call, for [`BotGame::evaluate`] (which
/// has no random generator of its own).
fn brew_fixed_orders() -> &'static [Vec<u32>] {
    static ORDERS: std::sync::OnceLock<Vec<Vec<u32>>> = std::sync::OnceLock::new();
    ORDERS.get_or_init(|| {
        let mut rng = colosseum_engine::seeded_rng(0x5eed);
        (0..8)
            .map(|_| {
                let mut o: Vec<u32> = (0..witchs_brew::CELLS as u32).collect();
                o.shuffle(&mut rng);
                o
            })
            .collect()
    })
}

/// What a point of card value held (of the cards a seat can still play) is worth in the
/// evaluation's victory points: an 8 against a 3 kept for the rounds to come is a quarter point.
const BREW_HAND_WEIGHT: f64 = 0.05;

/// The values of the cards `seat` can still play in the rounds left: its highest cards, the
/// Duplicard as a copy of its highest, as many as rounds remain.
fn brew_hand_strength(state: &WitchsBrew, seat: Seat) -> f64 {
    let round = state.round();
    let left = match state.stage() {
        Stage::PlayCards => witchs_brew::PLACEMENT_ROUNDS + 1 - round,
        Stage::Over => 0,
        _ if round == 0 => witchs_brew::PLACEMENT_ROUNDS,
        _ => witchs_brew::PLACEMENT_ROUNDS - round,
    };
    let hand = state.hand(seat);
    let mut cards: Vec<u8> = hand.cards().collect();
    if state.has_duplicard(seat) {
        if let Some(&top) = cards.last() {
            cards.push(top);
        }
    }
    cards.sort_unstable_by(|a, b| b.cmp(a));
    cards
        .iter()
        .take(usize::from(left))
        .map(|&c| f64::from(c))
        .sum::<f64>()
        - f64::from(state.penalty(seat))
}

/// The assignment of `seat`'s conditions to rounds 6, 9 and 12 (at most three each) that
/// scores most by the placement estimate of the evaluation: each condition's chance to hold at
/// each check after the fixed random fillings of the grid ([`brew_fixed_orders`]), times its
/// points, summed; every assignment is tried (3^9 at most).
fn brew_best_assignment(state: &WitchsBrew, seat: Seat) -> Option<BrewMove> {
    let held: Vec<Condition> = state.conditions(seat).iter().collect();
    if held.len() > 3 * witchs_brew::PER_SCORING_ROUND as usize {
        return None;
    }
    // value[i][k]: condition i checked at witchs_brew::SCORING_ROUNDS[k], with the rounds of
    // stones to come counted as the evaluation counts them (`brew_open_conditions`).
    let now = state.round().max(1);
    let value: Vec<[f64; 3]> = held
        .iter()
        .map(|&c| {
            let mut v = [0.0; 3];
            for (k, &round) in witchs_brew::SCORING_ROUNDS.iter().enumerate() {
                let mut open = [Vec::new(), Vec::new()];
                open[seat.index()].push((c, f64::from(c.points()), round.saturating_sub(now)));
                v[k] = brew_estimate(state.grid(), seat, &open, brew_fixed_orders());
            }
            v
        })
        .collect();
    let n = held.len();
    let mut best: Option<(f64, Vec<usize>)> = None;
    let mut slots = vec![0usize; n];
    loop {
        let mut counts = [0u32; 3];
        for &k in &slots {
            counts[k] += 1;
        }
        if counts.iter().all(|&c| c <= witchs_brew::PER_SCORING_ROUND) {
            let total: f64 = slots.iter().enumerate().map(|(i, &k)| value[i][k]).sum();
            if best.as_ref().is_none_or(|(b, _)| total > *b + 1e-12) {
                best = Some((total, slots.clone()));
            }
        }
        // Next assignment, counting in base 3.
        let mut i = 0;
        while i < n && slots[i] == 2 {
            slots[i] = 0;
            i += 1;
        }
        if i == n {
            break;
        }
        slots[i] += 1;
    }
    let (_, slots) = best?;
    let mut sets = [Vec::new(), Vec::new(), Vec::new()];
    for (i, &k) in slots.iter().enumerate() {
        sets[k].push(held[i]);
    }
    Some(BrewMove::Assign(witchs_brew::Assignment(
        sets.map(ConditionSet::of),
    )))
}

/// `1 / (1 + e^-x)`.
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The conditions still to be checked, per seat: (condition, points, placement rounds left
/// before its check).
fn brew_open_conditions(view: &WitchsBrewView, seat: Seat) -> Vec<(Condition, f64, u8)> {
    let now = view.placement_round.max(1);
    let player = match seat {
        Seat::P1 => &view.players.p1,
        Seat::P2 => &view.players.p2,
    };
    player
        .conditions
        .iter()
        .filter(|c| !c.checked)
        .map(|c| {
            let round = c.round.unwrap_or(witchs_brew::PLACEMENT_ROUNDS);
            (c.condition, f64::from(c.points), round.saturating_sub(now))
        })
        .collect()
}

/// The placement estimate (see `heuristic_move`): for `seat`, the points of its open conditions
/// times how often they hold after random fillings, minus the opponent's.
///
/// Each filling drops stones in the order's empty cells, `p1`, gray, `p2` in turn, one round's
/// three stones per placement round still to come, so the filling for a condition checked later
/// extends the one for a condition checked sooner: each order is filled once, in steps, and the
/// conditions are checked as their round's stones are down (the same sums as
/// [`brew_estimate_by_condition`], which refills for every condition, several times faster).
fn brew_estimate(
    grid: &witchs_brew::Grid,
    seat: Seat,
    open: &[Vec<(Condition, f64, u8)>; 2],
    orders: &[Vec<u32>],
) -> f64 {
    let mut rounds: Vec<u8> = open.iter().flatten().map(|c| c.2).collect();
    rounds.sort_unstable();
    rounds.dedup();
    let base = [grid.stones(Seat::P1), grid.stones(Seat::P2)];
    let occupied = grid.occupied();
    let mut total = 0.0;
    for order in orders {
        let mut stones = base;
        let mut gray = grid.gray();
        let mut placed = 0u32;
        let mut cells = order.iter();
        for &r in &rounds {
            let wanted = 3 * u32::from(r);
            while placed < wanted {
                let Some(&i) = cells.next() else {
                    break;
                };
                let bit = 1u64 << i;
                if occupied & bit != 0 {
                    continue;
                }
                match placed % 3 {
                    0 => stones[0] |= bit,
                    1 => gray |= bit,
                    _ => stones[1] |= bit,
                }
                placed += 1;
            }
            for who in Seat::BOTH {
                let sign = if who == seat { 1.0 } else { -1.0 };
                let sight = Sight {
                    own: stones[who.index()],
                    opponent: stones[who.other().index()],
                    gray,
                    frozen: grid.frozen(),
                };
                for &(condition, points, _) in open[who.index()].iter().filter(|c| c.2 == r) {
                    if condition.holds(&sight) {
                        total += sign * points;
                    }
                }
            }
        }
    }
    total / orders.len().max(1) as f64
}

/// [`brew_estimate`] the plain way, every condition's filling made afresh: the cross-check of
/// the tests.
#[cfg(test)]
fn brew_estimate_by_condition(
    grid: &witchs_brew::Grid,
    seat: Seat,
    open: &[Vec<(Condition, f64, u8)>; 2],
    orders: &[Vec<u32>],
) -> f64 {
    let base = [grid.stones(Seat::P1), grid.stones(Seat::P2)];
    let occupied = grid.occupied();
    let mut total = 0.0;
    for order in orders {
        for who in Seat::BOTH {
            let sign = if who == seat { 1.0 } else { -1.0 };
            for &(condition, points, rounds) in &open[who.index()] {
                // Each round to come adds one stone of each colour and one gray.
                let mut stones = [base[0], base[1]];
                let mut gray = grid.gray();
                let mut left = 3 * u32::from(rounds);
                for &i in order {
                    if left == 0 {
                        break;
                    }
                    let bit = 1u64 << i;
                    if occupied & bit != 0 {
                        continue;
                    }
                    match left % 3 {
                        0 => stones[0] |= bit,
                        1 => stones[1] |= bit,
                        _ => gray |= bit,
                    }
                    left -= 1;
                }
                let sight = Sight {
                    own: stones[who.index()],
                    opponent: stones[who.other().index()],
                    gray,
                    frozen: grid.frozen(),
                };
                if condition.holds(&sight) {
                    total += sign * points;
                }
            }
        }
    }
    total / orders.len().max(1) as f64
}

/// The Witch's Brew's moves for the observation's seat, best first by the heuristic's judgement
/// (its move first): the pick, the Discard answer and the assignment alone; a card play for each
/// card held with its best secondary choice (and a Guess of every card the opponent holds, and
/// the Duplicard as the highest card); every stone, Leap or Shift ranked by the placement
/// estimate, the `keep` best. Empty when the heuristic has nothing to say.
fn witchs_brew_ranked(
    observation: &Observation<'_, WitchsBrew>,
    rng: &mut SeededRng,
    keep: usize,
) -> Vec<BrewMove> {
    let seat = observation.seat();
    let state = observation.determinize(rng);
    let view = observation.view();
    let mut legal = Vec::new();
    observation.legal_moves(&mut legal);
    match state.stage() {
        Stage::Pick(_) => {
            let Some(pair) = view.prize_pair else {
                return Vec::new();
            };
            let worth = |p: &Prize| match *p {
                Prize::Card(c) => u32::from(c),
                Prize::Condition(c) => c.points(),
            };
            let pick = if worth(&pair[1]) > worth(&pair[0]) {
                pair[1]
            } else {
                pair[0]
            };
            vec![BrewMove::Pick(pick)]
        }
        Stage::Discard(_) => vec![BrewMove::Discard(false)],
        Stage::Assign => {
            let mut held: Vec<Condition> = state.conditions(seat).iter().collect();
            held.sort_by_key(|c| std::cmp::Reverse(c.points()));
            let mut sets = [Vec::new(), Vec::new(), Vec::new()];
            for (k, c) in held.into_iter().enumerate() {
                // Rounds 12, 9, 6 in turn, three each.
                let Some(slot) = 2usize.checked_sub(k / witchs_brew::PER_SCORING_ROUND as usize)
                else {
                    return Vec::new();
                };
                sets[slot].push(c);
            }
            vec![BrewMove::Assign(witchs_brew::Assignment(
                sets.map(ConditionSet::of),
            ))]
        }
        Stage::PlayCards => {
            let them = seat.other();
            let grid = state.grid();
            let their_cards: Vec<u8> = state.hand(them).cards().collect();
            let their_high = their_cards.iter().copied().max().unwrap_or(8);
            let mine = grid.stones(seat);
            let secondary_score = |p: &witchs_brew::Play| match p.secondary {
                witchs_brew::Secondary::Column(c) => {
                    let col = witchs_brew::column_mask(usize::from(c));
                    let free = col & !grid.occupied() != 0;
                    i32::from(free) * 10 - (grid.stones(them) & col).count_ones() as i32
                }
                witchs_brew::Secondary::Guess(g) => i32::from(g == their_high),
                witchs_brew::Secondary::Freeze { cells, len } => cells[..usize::from(len)]
                    .iter()
                    .map(|c| if mine & c.bit() != 0 { 1 } else { -1 })
                    .sum(),
                witchs_brew::Secondary::None => 0,
            };
            // Reversed, so that of equal plays the last legal one comes first after the stable
            // sort (as the heuristic always chose).
            let mut plays: Vec<(witchs_brew::Play, BrewMove)> = legal
                .iter()
                .rev()
                .filter_map(|&m| match m {
                    BrewMove::Play(p) => Some((p, m)),
                    _ => None,
                })
                .collect();
            // Plain cards before the Duplicard, then the highest card, then the best secondary
            // (the key worked out once per play).
            plays.sort_by_cached_key(|(p, _)| {
                std::cmp::Reverse((!p.duplicard, p.card, secondary_score(p)))
            });
            // The first (best) play of each card, every Guess of a card the opponent holds, and
            // the Duplicard's best play, last.
            let mut ranked: Vec<BrewMove> = Vec::new();
            let mut cards_seen: Vec<u8> = Vec::new();
            let mut duplicard = false;
            for &(p, m) in &plays {
                let keep = if p.duplicard {
                    !std::mem::replace(&mut duplicard, true)
                } else if !cards_seen.contains(&p.card) {
                    cards_seen.push(p.card);
                    true
                } else {
                    matches!(p.secondary, witchs_brew::Secondary::Guess(g) if their_cards.contains(&g))
                };
                if keep {
                    ranked.push(m);
                }
            }
            ranked
        }
        Stage::WinnerStone
        | Stage::LoserStone
        | Stage::GrayStone
        | Stage::WinnerMove
        | Stage::LoserMove => {
            let open = [
                brew_open_conditions(&view, Seat::P1),
                brew_open_conditions(&view, Seat::P2),
            ];
            let orders: Vec<Vec<u32>> = (0..16)
                .map(|_| {
                    let mut o: Vec<u32> = (0..witchs_brew::CELLS as u32).collect();
                    o.shuffle(rng);
                    o
                })
                .collect();
            let mut scored: Vec<(f64, BrewMove)> = Vec::new();
            for &mv in &legal {
                let mut next = state.clone();
                if next.apply(Step::One { seat, mv }).is_err() {
                    continue;
                }
                scored.push((brew_estimate(next.grid(), seat, &open, &orders), mv));
            }
            // Best first; equal values keep the legal order (the first best, as before).
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            scored.truncate(keep.max(1));
            scored.into_iter().map(|(_, m)| m).collect()
        }
        _ => Vec::new(),
    }
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

    /// Checks how the regret-matching search chose at a root: where one seat moves alone
    /// (`lone`), by UCT (the strategy is the visit shares and the most visited move is within
    /// 0.05 of the best value seen); otherwise by regret matching (the strategy is not the visit
    /// shares).
    fn assert_root_searched_by<M: std::fmt::Debug>(root: &[crate::mcts::RootMove<M>], lone: bool) {
        let visits: u32 = root.iter().map(|r| r.visits).sum();
        let by_visits = root
            .iter()
            .all(|r| (r.probability - f64::from(r.visits) / f64::from(visits)).abs() < 1e-9);
        if lone {
            assert!(by_visits, "{root:?}");
            let most = root.iter().max_by_key(|r| r.visits).unwrap();
            let best = root
                .iter()
                .filter(|r| r.visits > 0)
                .map(|r| r.value)
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(most.value > best - 0.05, "{root:?}");
        } else {
            assert!(!by_visits, "{root:?}");
        }
    }

    /// Plays `texts` in turn from a new All-In Goofspiel game.
    fn all_in_after(texts: &[&str]) -> AllInGoofspiel {
        let mut game = AllInGoofspiel::new(Default::default());
        for text in texts {
            let Pending::One(seat) = game.pending() else {
                panic!("nobody acts");
            };
            let mv = game.parse_move(seat, text).unwrap();
            game.apply(Step::One { seat, mv }).unwrap();
        }
        game
    }

    #[test]
    fn all_in_candidates_cover_counts_and_the_cheapest_answer() {
        // p1 starts round 1 with two cards face down: the most two of its cards make is 1211.
        let game = all_in_after(&["12 11"]);
        let mut moves = Vec::new();
        all_in_candidates(&game, Seat::P2, &mut moves);
        let texts: Vec<String> = moves.iter().map(|m| game.format_move(m)).collect();
        for expected in [
            "pass",
            "-3",
            "12",
            "12 11",
            "12 11 10",
            "-3 -2 -1",
            "12 11 -3 -2 -1",
        ] {
            assert!(
                texts.contains(&expected.to_string()),
                "{expected} in {texts:?}"
            );
        }
        for (i, m) in moves.iter().enumerate() {
            assert!(game.check_move(Seat::P2, m).is_ok(), "{}", texts[i]);
            assert!(!moves[..i].contains(m), "{} twice", texts[i]);
        }
        // The fewest cards that beat anything p1 can have made, without its best cards.
        let cheapest = moves
            .iter()
            .filter(|m| m.len() == 3 && m.number() > 1211)
            .find(|m| m.cards().iter().all(|&c| c < 12))
            .unwrap_or_else(|| panic!("no cheap three-card answer in {texts:?}"));
        assert!(cheapest.cards().iter().filter(|&&c| c >= 10).count() <= 1);
        // The starter gets the same kinds of plays (every card alone, every count); a seat that
        // does not act gets nothing.
        let opening = all_in_after(&[]);
        let mut starter = Vec::new();
        all_in_candidates(&opening, Seat::P1, &mut starter);
        assert!((1..=13).all(|k| starter.iter().any(|m| m.len() == k)));
        assert!(starter
            .iter()
            .all(|m| opening.check_move(Seat::P1, m).is_ok()));
        let mut none = Vec::new();
        all_in_candidates(&game, Seat::P1, &mut none);
        assert!(none.is_empty());
    }

    /// The opponent model's guess at the starter's face-down cards comes from the position
    /// before it put them down, never from the cards themselves.
    #[test]
    fn the_modelled_face_down_play_ignores_the_real_one() {
        let mut rng = colosseum_engine::seeded_rng(5);
        // The heuristic opens round 1 with its lowest negative card, one card.
        let modelled = |first: &str, rng: &mut SeededRng| {
            all_in_after(&[first])
                .model_withheld(Seat::P2, rng)
                .map(|g| {
                    g.view(Viewer::Seat(Seat::P1))
                        .current
                        .unwrap()
                        .face_down_cards
                })
        };
        assert_eq!(modelled("12", &mut rng), Some(Some(vec![-3])));
        assert_eq!(modelled("-3", &mut rng), Some(Some(vec![-3])));
        assert_eq!(modelled("5", &mut rng), Some(Some(vec![-3])));
        // Two cards face down: the heuristic would not have put down two, so no model.
        assert_eq!(modelled("12 11", &mut rng), None);
        // The starter knows its own cards: nothing to model.
        assert!(all_in_after(&["12"])
            .model_withheld(Seat::P1, &mut rng)
            .is_none());
    }

    /// The responder's search starts before the face-down cards: the starter to act, with plays
    /// of the face-down count only, each from its hand and each leaving the responder's view as
    /// it is; nothing for the starter itself or before anything is face down.
    #[test]
    fn the_withheld_root_holds_only_plays_the_responder_cannot_tell_apart() {
        let mut rng = colosseum_engine::seeded_rng(8);
        for (history, count) in [
            (&["-3", "1", "12 11"][..], 2),
            (&["5"][..], 1),
            (&["-3", "1", "12 11 10 9 8"][..], 5),
        ] {
            let game = all_in_after(history);
            let responder = game.starter().other();
            let seen = serde_json::to_value(game.view(Viewer::Seat(responder))).unwrap();
            let mut plays = Vec::new();
            let before = game.withheld_root(responder, &mut rng, &mut plays).unwrap();
            assert_eq!(before.pending(), Pending::One(game.starter()));
            assert!(before.face_down_count().is_none());
            assert!(plays.len() > ALL_IN_WITHHELD_RANDOM / 2, "{plays:?}");
            for play in &plays {
                assert_eq!(play.len(), count, "{play:?}");
                let mut after = before.clone();
                after
                    .apply(Step::One {
                        seat: game.starter(),
                        mv: *play,
                    })
                    .unwrap();
                let view = serde_json::to_value(after.view(Viewer::Seat(responder))).unwrap();
                assert_eq!(view, seen, "{play:?}");
            }
            let mut none = Vec::new();
            assert!(game
                .withheld_root(game.starter(), &mut rng, &mut none)
                .is_none());
            assert!(before
                .withheld_root(responder, &mut rng, &mut none)
                .is_none());
            assert!(none.is_empty());
        }
    }

    /// At every card play of random games, the search's candidates hold every card the seat
    /// has, the heuristic's move first; at every stone the heuristic's move is first and the
    /// rest are legal and distinct.
    #[test]
    fn witchs_brew_candidates_cover_every_card_held() {
        let mut rng = colosseum_engine::seeded_rng(11);
        let mut card_plays = 0;
        for _ in 0..3 {
            let mut game = WitchsBrew::new(Default::default());
            while game.pending() != Pending::Over {
                let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
                for seat in game.pending().seats().iter().copied() {
                    let mut moves = Vec::new();
                    game.search_moves(seat, &mut colosseum_engine::seeded_rng(1), &mut moves);
                    let heuristic = WitchsBrew::heuristic_move(
                        &Observation::new(&game, seat, &[]),
                        &mut colosseum_engine::seeded_rng(1),
                    );
                    if game.stage() == Stage::Assign {
                        // The estimate's best assignment first, then the heuristic's.
                        assert_eq!(moves.first(), brew_best_assignment(&game, seat).as_ref());
                        assert!(moves.contains(&heuristic));
                    } else {
                        assert_eq!(moves.first(), Some(&heuristic), "{:?}", game.stage());
                    }
                    for (i, m) in moves.iter().enumerate() {
                        assert!(game.check_move(seat, m).is_ok(), "{m}");
                        assert!(!moves[..i].contains(m), "{m} twice");
                    }
                    if game.stage() == Stage::PlayCards {
                        card_plays += 1;
                        for card in game.hand(seat).cards() {
                            assert!(
                                moves.iter().any(|m| matches!(m, BrewMove::Play(p) if p.card == card && !p.duplicard)),
                                "card {card} missing from {moves:?}"
                            );
                        }
                    }
                }
                game.apply(step).unwrap();
            }
        }
        assert!(card_plays > 20, "{card_plays} card plays seen");
    }

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

    /// In The Witch's Brew regret-matching search picks a stone placed alone by UCT
    /// (`LONE_MOVES_BY_UCT`): the root has no average strategy, its weights are the visits, and
    /// the visits gather on the moves valued best; at a card play (both seats at once) the root
    /// keeps its regret-matching average strategy.
    #[test]
    fn brew_lone_stones_are_searched_by_uct_and_card_plays_by_regret_matching() {
        let mut rng = colosseum_engine::seeded_rng(5);
        let mut game = WitchsBrew::new(Default::default());
        let (mut stones, mut plays) = (0, 0);
        while game.pending() != Pending::Over && (stones < 2 || plays < 2) {
            let lone = matches!(game.stage(), Stage::WinnerStone | Stage::LoserStone);
            if (lone && stones < 2) || (game.stage() == Stage::PlayCards && plays < 2) {
                let seat = game.pending().seats()[0];
                let mut mcts = crate::mcts::Mcts::new(crate::mcts::MctsConfig::regret_matching(
                    crate::Budget::Iterations(3000),
                ));
                let root = mcts.root_estimate(
                    &Observation::new(&game, seat, &[]),
                    &mut colosseum_engine::seeded_rng(9),
                    None,
                );
                assert_root_searched_by(&root, lone);
                if lone {
                    stones += 1;
                } else {
                    plays += 1;
                }
            }
            let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
            game.apply(step).unwrap();
        }
        assert_eq!((stones, plays), (2, 2));
    }

    /// The levels' regret matching runs `REGRET_MATCHING_SCALE` times the budget in The Witch's
    /// Brew (`hard` 18,000 iterations a decision, the old search named by its settings still
    /// 2000); other games keep theirs.
    #[test]
    fn brew_levels_run_three_times_the_budget_and_the_old_search_its_own() {
        let run = |spec: &str, game: &WitchsBrew, seat: Seat| {
            let crate::registry::BotSpec::Mcts(config) = spec.parse().unwrap() else {
                panic!("{spec} is not a search");
            };
            let mut mcts = crate::mcts::Mcts::new(config);
            let bot: &mut dyn crate::Bot<WitchsBrew> = &mut mcts;
            let name = bot.name();
            bot.choose(
                &Observation::new(game, seat, &[]),
                &mut colosseum_engine::seeded_rng(3),
            );
            (mcts.last_search().iterations, name)
        };
        // A stone placed alone, as early as the game allows (a short search).
        let mut rng = colosseum_engine::seeded_rng(8);
        let mut game = WitchsBrew::new(Default::default());
        while !matches!(game.stage(), Stage::WinnerStone) {
            let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
            game.apply(step).unwrap();
        }
        let seat = game.pending().seats()[0];
        // The searches run what their names say (`hard`'s and the old search's named only:
        // they take long in a debug build).
        let (easy, name) = run("mcts:easy", &game, seat);
        assert_eq!(easy, 600, "{name}");
        assert!(name.contains("600 iterations"), "{name}");
        let (uct, name) = run("mcts:iters=1000,algo=uct", &game, seat);
        assert_eq!(uct, 200, "{name}");
        let name = |spec: &str| {
            let crate::registry::BotSpec::Mcts(config) = spec.parse().unwrap() else {
                panic!("{spec} is not a search");
            };
            crate::Bot::<WitchsBrew>::name(&crate::mcts::Mcts::new(config))
        };
        assert!(name("mcts:hard").contains("18000 iterations"));
        assert!(name("mcts:iters=10000,model=0.5,algo=uct").contains(" 2000 iterations"));
        // Other games: `hard`'s budget under their own `SEARCH_SCALE` only.
        let mut square = SquareGoofspiel::new(Default::default());
        while !square.pending().includes(Seat::P1) {
            let step = colosseum_engine::random_step(&square, &mut rng).unwrap();
            square.apply(step).unwrap();
        }
        let crate::registry::BotSpec::Mcts(config) = "mcts:easy".parse().unwrap() else {
            panic!("easy is a search");
        };
        let mut mcts = crate::mcts::Mcts::new(config);
        crate::Bot::<SquareGoofspiel>::choose(
            &mut mcts,
            &Observation::new(&square, Seat::P1, &[]),
            &mut colosseum_engine::seeded_rng(3),
        );
        assert_eq!(mcts.last_search().iterations, 2000);
    }

    /// Square Goofspiel's levels run twice their budget (`REGRET_MATCHING_SCALE`); the old
    /// search named by its settings runs what it names.
    #[test]
    fn square_levels_run_twice_the_budget_and_the_old_search_its_own() {
        let name = |spec: &str| {
            let crate::registry::BotSpec::Mcts(config) = spec.parse().unwrap() else {
                panic!("{spec} is not a search");
            };
            crate::Bot::<SquareGoofspiel>::name(&crate::mcts::Mcts::new(config))
        };
        assert!(
            name("mcts:hard").contains(" 60000 iterations"),
            "{}",
            name("mcts:hard")
        );
        assert!(name("mcts:medium").contains(" 12000 iterations"));
        let old = name("mcts:iters=5000,model=0.5,algo=uct");
        assert!(old.contains(" 5000 iterations"), "{old}");
        // A search really runs them (a decision of the first phase).
        let mut rng = colosseum_engine::seeded_rng(5);
        let mut square = SquareGoofspiel::new(Default::default());
        while !square.pending().includes(Seat::P1) {
            let step = colosseum_engine::random_step(&square, &mut rng).unwrap();
            square.apply(step).unwrap();
        }
        let crate::registry::BotSpec::Mcts(config) = "mcts:iters=300,algo=rm".parse().unwrap()
        else {
            panic!("a search");
        };
        let mut mcts = crate::mcts::Mcts::new(config);
        crate::Bot::<SquareGoofspiel>::choose(
            &mut mcts,
            &Observation::new(&square, Seat::P1, &[]),
            &mut rng,
        );
        assert_eq!(mcts.last_search().iterations, 600);
    }

    /// The allocation-free heuristic bids what the heuristic's rule says (the rule written out
    /// plainly here, with the cells' importance in floating point as the heuristic had it), at
    /// every decision of random games; the playouts' evaluation agrees with the game's outcome,
    /// with each advantage.
    #[test]
    fn square_heuristic_and_evaluation_agree_with_the_plain_rule_and_the_outcome() {
        use colosseum_games::square_goofspiel::Cell;
        let plain = |state: &SquareGoofspiel, seat: Seat| -> Bid {
            let (_, cell) = state.cell_up().unwrap();
            let importance = |c: Cell| -> f64 {
                let (col, row) = (f64::from(c.value_in_row()), f64::from(c.value_in_column()));
                col * (7.0 - row) + row * (7.0 - col)
            };
            let mine = importance(cell);
            let remaining: Vec<f64> = Cell::all()
                .filter(|&c| !state.is_auctioned(c) && c != cell)
                .map(importance)
                .collect();
            let below = remaining.iter().filter(|&&v| v < mine).count();
            let cells = remaining.len() + 1;
            let cards: Vec<u8> = state.hand(seat).cards().collect();
            if cards.is_empty() {
                return Bid::PASS;
            }
            let spare = cells.saturating_sub(cards.len());
            if below < spare {
                return Bid::PASS;
            }
            let i = ((below - spare) * cards.len() / (cells - spare).max(1)).min(cards.len() - 1);
            Bid::card(cards[i]).unwrap()
        };
        let mut rng = colosseum_engine::seeded_rng(11);
        let (mut bids, mut passes, mut results) = (0, 0, [0; 3]);
        for (g, advantage) in ["p1", "p2", "none"]
            .into_iter()
            .cycle()
            .take(60)
            .enumerate()
        {
            let pair = format!("advantage={advantage}");
            let options = colosseum_engine::parse_pairs([pair.as_str()]).unwrap();
            let mut state = SquareGoofspiel::from_raw(&options).unwrap();
            while state.pending() != Pending::Over {
                assert_eq!(state.evaluate(), 0.5);
                if state.pending() == Pending::Both {
                    for seat in Seat::BOTH {
                        let bid = square_heuristic_bid(&state, seat).unwrap();
                        assert_eq!(bid, plain(&state, seat), "game {g}: {state:?}");
                        bids += 1;
                        passes += usize::from(bid.is_pass());
                    }
                }
                // Random play half the games, the heuristic's the other half.
                let step = if g % 2 == 0 || state.pending() == Pending::Chance {
                    colosseum_engine::random_step(&state, &mut rng).unwrap()
                } else {
                    Step::Both {
                        p1: square_heuristic_bid(&state, Seat::P1).unwrap(),
                        p2: square_heuristic_bid(&state, Seat::P2).unwrap(),
                    }
                };
                state.apply(step).unwrap();
            }
            let value = state.evaluate();
            assert_eq!(
                value,
                crate::p1_value(&state.outcome().unwrap()),
                "game {g}"
            );
            results[(value * 2.0) as usize] += 1;
        }
        assert!(
            bids > 4000 && passes > 100 && passes < bids,
            "{bids} {passes}"
        );
        // Both seats win some.
        assert!(results[0] > 0 && results[2] > 0, "{results:?}");
    }

    /// The Witch's Brew's hand strength: the highest cards a seat can still play, as many as
    /// rounds are left, the Duplicard as its highest card; a Diminish penalty counts against.
    #[test]
    fn brew_hand_strength_counts_the_cards_left_to_play() {
        let conditions = witchs_brew::Assignment::default();
        let game = WitchsBrew::at_placement(
            Default::default(),
            [
                witchs_brew::Hand::of(&[8, 8, 1]),
                witchs_brew::Hand::of(&[2, 2, 2]),
            ],
            [conditions, conditions],
            Default::default(),
            11,
        );
        assert_eq!(game.stage(), Stage::PlayCards);
        // Rounds 11 and 12 to play: p1's 8 and 8 (the Duplicard another 8), p2's 2 and 2.
        assert_eq!(brew_hand_strength(&game, Seat::P1), 16.0);
        assert_eq!(brew_hand_strength(&game, Seat::P2), 4.0);
        let early = WitchsBrew::at_placement(
            Default::default(),
            [witchs_brew::Hand::of(&[8]), witchs_brew::Hand::of(&[1, 1])],
            [conditions, conditions],
            Default::default(),
            1,
        );
        // Twelve rounds left: every card counts, the Duplicard as the highest held.
        assert_eq!(brew_hand_strength(&early, Seat::P1), 16.0);
        assert_eq!(brew_hand_strength(&early, Seat::P2), 3.0);
    }

    /// The assignment that the placement estimate values most is a legal move at every
    /// Intermission of random games, worth at least the heuristic's (points to round 12 first)
    /// by the same estimate, and among the search's candidates.
    #[test]
    fn brew_best_assignment_is_legal_and_no_worse_than_the_heuristics() {
        let mut rng = colosseum_engine::seeded_rng(21);
        let mut seen = 0;
        for _ in 0..6 {
            let mut game = WitchsBrew::new(Default::default());
            while game.pending() != Pending::Over && game.stage() != Stage::Assign {
                let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
                game.apply(step).unwrap();
            }
            if game.stage() != Stage::Assign {
                continue;
            }
            for seat in Seat::BOTH {
                let best = brew_best_assignment(&game, seat).expect("an assignment");
                assert!(game.check_move(seat, &best).is_ok(), "{best}");
                let heuristic = WitchsBrew::heuristic_move(
                    &Observation::new(&game, seat, &[]),
                    &mut colosseum_engine::seeded_rng(1),
                );
                let worth = |m: &BrewMove| {
                    let BrewMove::Assign(a) = m else {
                        panic!("{m} is not an assignment")
                    };
                    let mut open = [Vec::new(), Vec::new()];
                    for (k, set) in a.0.iter().enumerate() {
                        for c in set.iter() {
                            open[seat.index()].push((
                                c,
                                f64::from(c.points()),
                                witchs_brew::SCORING_ROUNDS[k] - 1,
                            ));
                        }
                    }
                    brew_estimate(game.grid(), seat, &open, brew_fixed_orders())
                };
                assert!(
                    worth(&best) >= worth(&heuristic) - 1e-9,
                    "{best} against {heuristic}"
                );
                let mut moves = Vec::new();
                game.search_moves(seat, &mut colosseum_engine::seeded_rng(3), &mut moves);
                assert!(moves.contains(&best), "{best} not in {moves:?}");
                seen += 1;
            }
        }
        assert!(seen >= 6, "{seen} intermissions seen");
    }

    /// The Witch's Brew's placement estimate, filling each order once in steps, gives exactly the
    /// sums of filling it afresh for every condition, for both seats, at every position of
    /// random games (and the estimate is not always 0: conditions are met and missed).
    #[test]
    fn brew_estimate_in_steps_matches_a_filling_per_condition() {
        let mut rng = colosseum_engine::seeded_rng(12);
        let (mut checked, mut nonzero) = (0, 0);
        for _ in 0..4 {
            let mut game = WitchsBrew::new(Default::default());
            while game.pending() != Pending::Over {
                let view = game.view(Viewer::Spectator);
                let open = [
                    brew_open_conditions(&view, Seat::P1),
                    brew_open_conditions(&view, Seat::P2),
                ];
                for orders in [brew_fixed_orders(), &brew_fixed_orders()[..1]] {
                    for seat in Seat::BOTH {
                        let fast = brew_estimate(game.grid(), seat, &open, orders);
                        let plain = brew_estimate_by_condition(game.grid(), seat, &open, orders);
                        assert_eq!(fast, plain, "{:?}", game.stage());
                        checked += 1;
                        nonzero += usize::from(fast != 0.0);
                    }
                }
                let step = colosseum_engine::random_step(&game, &mut rng).unwrap();
                game.apply(step).unwrap();
            }
        }
        assert!(
            checked > 400 && nonzero > 100,
            "{checked} checked, {nonzero} not 0"
        );
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

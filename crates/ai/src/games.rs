//! Each game's hooks for the bots: its heuristic bot, its search moves and its playouts.

use colosseum_engine::{AnyGame, Erased, Game, Pending, Seat, SeededRng, Step, TextStep, Viewer};
use colosseum_games::all_in_goofspiel::{self, AllInGoofspiel, Play};
use colosseum_games::galespiel::{Galespiel, PrizeOrder};
use colosseum_games::goofspiel::Goofspiel;
use colosseum_games::square_goofspiel::{Bid, SquareGoofspiel, SIDE};
use colosseum_games::thwart_omega::{Colour, ThwartOmega};
use colosseum_games::witchs_brew::WitchsBrew;
use rand::seq::SliceRandom;
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

/// Classic Goofspiel: Ross's matching strategy.
impl BotGame for Goofspiel {
    const HAS_HEURISTIC: bool = true;

    fn heuristic_description() -> &'static str {
        "bids the card whose rank among its cards matches the prize's rank among the prizes left"
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

/// Square Goofspiel: value per card.
impl BotGame for SquareGoofspiel {
    const HAS_HEURISTIC: bool = true;

    fn heuristic_description() -> &'static str {
        "values each cell by the lines it counts for (value on the line times the line's worth) and bids the card whose rank in its hand matches the cell's rank among the cells left; passes on the cheapest cells when it holds fewer cards than cells remain"
    }

    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> Bid {
        let state = observation.determinize(rng);
        let seat = observation.seat();
        let hand = state.hand(seat);
        let Some((_, cell)) = state.cell_up() else {
            return observation.random_move(rng).expect("the seat acts");
        };
        let importance = |c: colosseum_games::square_goofspiel::Cell| -> f64 {
            let side = SIDE as f64;
            let (col, row) = (c.value_in_row() as f64, c.value_in_column() as f64);
            col * (side + 1.0 - row) + row * (side + 1.0 - col)
        };
        let mine = importance(cell);
        let remaining: Vec<f64> = colosseum_games::square_goofspiel::Cell::all()
            .filter(|&c| !state.is_auctioned(c) && c != cell)
            .map(importance)
            .collect();
        // Matching, as in Goofspiel: the cell's rank among the cells left picks the card of the
        // same rank in the hand; with fewer cards than cells, the cheapest cells get a pass.
        let below = remaining.iter().filter(|&&v| v < mine).count();
        let cells = remaining.len() + 1;
        let cards: Vec<u8> = hand.cards().collect();
        if cards.is_empty() {
            return Bid::PASS;
        }
        let spare = cells.saturating_sub(cards.len());
        if below < spare {
            return Bid::PASS;
        }
        let rank = below - spare;
        let slots = (cells - spare).max(1);
        let i = (rank * cards.len() / slots).min(cards.len() - 1);
        Bid::card(cards[i]).unwrap_or(Bid::PASS)
    }
}

/// Thwart Omega: grow your colour, merge the opponent's, judged one round ahead.
impl BotGame for ThwartOmega {
    const HAS_HEURISTIC: bool = true;

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
            return match o.winner {
                Some(Seat::P1) => 1.0,
                Some(Seat::P2) => 0.0,
                None => 0.5,
            };
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
    const FACE_DOWN_MOVES: bool = true;

    fn heuristic_description() -> &'static str {
        "goes all-in (whole hand, largest number) when winning the round reaches 28; otherwise as starter puts down a few high cards in valuable rounds, as responder answers a short play with one card more, lets a long one (4+ cards) go, and beats a play of no cards with its lowest card"
    }

    fn widening() -> Option<(f64, f64)> {
        Some((1.0, 0.5))
    }

    /// The representative legal moves plus the heuristic's choice.
    fn search_moves(&self, seat: Seat, rng: &mut SeededRng, out: &mut Vec<Play>) {
        self.legal_moves(seat, out);
        if self.pending() == Pending::One(seat) {
            let mv = Self::heuristic_move(&Observation::new(self, seat, &[]), rng);
            if !out.contains(&mv) {
                out.push(mv);
            }
        }
    }

    fn sample_search_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<Play> {
        self.random_move_any_count(seat, rng)
    }

    /// Playouts mix the heuristic with random plays of any length: random playouts alone almost
    /// never empty a hand at 28 points, so nearly all of them end in a draw and carry no signal.
    /// (Playouts run on determinized states, so the heuristic's observation is of a sample.)
    fn rollout_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<Play> {
        if self.pending() != Pending::One(seat) {
            return None;
        }
        if rng.random_bool(0.5) {
            Some(Self::heuristic_move(
                &Observation::new(self, seat, &[]),
                rng,
            ))
        } else {
            self.random_move_any_count(seat, rng)
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

    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> Play {
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
        high.sort_by(|&a, &b| {
            all_in_goofspiel::number(&[b, a]).cmp(&all_in_goofspiel::number(&[a, b]))
        });
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
        let _ = rng;
        Play::new(&high[skip..skip + count]).unwrap_or(Play::PASS)
    }
}

/// Galespiel. The cycle's prize order is hidden (Survey and Crystal Ball show parts of it to one
/// seat), so search keys nodes by what the next player sees, and a seat's history holds the
/// current cycle's order only as far as the seat has seen it ([`BotGame::mask_chance`]).
impl BotGame for Galespiel {
    const HIDDEN_INFORMATION: bool = true;

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

/// The Witch's Brew has no heuristic of its own yet: the generic lookahead and MCTS play it.
/// Nothing in it is hidden.
impl BotGame for WitchsBrew {}

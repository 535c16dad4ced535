//! Classic Goofspiel's bot hooks: Ross's matching strategy, the solved table's exact play.

use colosseum_engine::{Game, Pending, Seat, SeededRng};
use colosseum_games::goofspiel::{Goofspiel, PrizeOrder as GoofspielOrder, ReturnsType};

use super::mixed_rollout;
use crate::{BotGame, Observation};

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

//! Classic Goofspiel, the calibration game: the same rules, options and results as OpenSpiel's
//! `goofspiel` (two players, perfect information about past bids), so that Colosseum can be
//! checked against it game by game.
//!
//! Each seat holds the cards 1..N; each turn a prize card 1..N is revealed (by chance, or in
//! ascending/descending order), both bid a card at once, the higher bid takes the prize's points,
//! tied bids discard the prize. After N turns the player with more points wins.
//!
//! Unlike OpenSpiel, which plays the forced last turn itself, every turn here is a decision (the
//! last prize is a chance step with one outcome, the last bids are forced moves), as the match
//! record requires.

pub mod board_svg;
pub mod season;

use std::fmt::Write as _;

use colosseum_engine::{
    Game, IllegalMove, NotationError, OptionDoc, OptionReader, OptionsError, Outcome, Pending,
    RawOptions, Score, Seat, SeatPair, Step, StepError, Viewer,
};
use rand::Rng;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The largest number of cards: hands are kept as 64-bit sets.
pub const MAX_CARDS: u8 = 64;

/// The clocks at the table: 30 s a bid, no bank; the lowest card at the deadline.
pub const TIMING: crate::Timing = crate::Timing {
    decisions: &[crate::DecisionClock {
        kind: "*",
        what: "a bid",
        ms: 30_000,
        loses: false,
        default: "the seat's lowest card",
    }],
    bank_ms: 0,
    bank_step_ms: 0,
};

/// The options, as OpenSpiel names their meaning.
pub const OPTIONS: &[OptionDoc] = &[
    OptionDoc {
        name: "cards",
        default: "13",
        allowed: "an integer from 1 to 64",
        help: "each player holds the cards 1 to this number, and the prize cards have the same values",
    },
    OptionDoc {
        name: "order",
        default: "random",
        allowed: "random, descending or ascending",
        help: "the order of the prize cards: shuffled, or fixed from high to low or from low to high",
    },
    OptionDoc {
        name: "returns",
        default: "win_loss",
        allowed: "win_loss, point_difference or total_points",
        help: "how the match record scores the result: win or loss, the point difference, or the points; play is the same",
    },
];

/// The order in which prize cards come up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PrizeOrder {
    /// Shuffled: each turn's prize is a chance step.
    Random,
    /// N, N-1, ..., 1.
    Descending,
    /// 1, 2, ..., N.
    Ascending,
}

/// What the `returns` in the score report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnsType {
    /// +1 for the winner, -1 for the loser, 0 each for a draw.
    WinLoss,
    /// Each seat's points minus the mean of both.
    PointDifference,
    /// Each seat's points.
    TotalPoints,
}

/// The checked options of a Goofspiel game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GoofspielOptions {
    /// Cards per hand (and prizes).
    pub cards: u8,
    /// Prize order.
    pub order: PrizeOrder,
    /// Returns type.
    pub returns: ReturnsType,
}

impl Default for GoofspielOptions {
    fn default() -> Self {
        GoofspielOptions {
            cards: 13,
            order: PrizeOrder::Random,
            returns: ReturnsType::WinLoss,
        }
    }
}

impl GoofspielOptions {
    /// Reads the options from JSON, refusing unknown names and bad values.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        let r = OptionReader::new(raw, OPTIONS);
        let cards = r.int("cards", 13, 1, i64::from(MAX_CARDS))? as u8;
        let order = match r.choice("order", 0, &["random", "descending", "ascending"])? {
            0 => PrizeOrder::Random,
            1 => PrizeOrder::Descending,
            _ => PrizeOrder::Ascending,
        };
        let returns = match r.choice(
            "returns",
            0,
            &["win_loss", "point_difference", "total_points"],
        )? {
            0 => ReturnsType::WinLoss,
            1 => ReturnsType::PointDifference,
            _ => ReturnsType::TotalPoints,
        };
        r.finish()?;
        Ok(GoofspielOptions {
            cards,
            order,
            returns,
        })
    }
}

/// A set of cards 1..=64 as bits (bit `c - 1` for card `c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CardSet(u64);

impl CardSet {
    /// The cards 1..=n.
    #[must_use]
    pub fn full(n: u8) -> Self {
        if n >= 64 {
            CardSet(u64::MAX)
        } else {
            CardSet((1u64 << n) - 1)
        }
    }

    /// Whether `card` is in the set.
    #[must_use]
    pub fn contains(self, card: u8) -> bool {
        (1..=64).contains(&card) && self.0 & (1u64 << (card - 1)) != 0
    }

    fn remove(&mut self, card: u8) {
        self.0 &= !(1u64 << (card - 1));
    }

    /// How many cards.
    #[must_use]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards, lowest first.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let low = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(low + 1)
        })
    }

    /// The `i`-th lowest card.
    fn nth(self, i: u32) -> u8 {
        let mut bits = self.0;
        for _ in 0..i {
            bits &= bits - 1;
        }
        bits.trailing_zeros() as u8 + 1
    }

    fn to_vec(self) -> Vec<u8> {
        self.iter().collect()
    }
}

/// One finished turn: the prize and both bids, public once revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// The prize card.
    pub prize: u8,
    /// `p1`'s bid.
    pub p1: u8,
    /// `p2`'s bid.
    pub p2: u8,
    /// Who took the prize (`None`: tied bids, prize discarded).
    pub winner: Option<Seat>,
}

/// A game of Goofspiel.
#[derive(Clone, Debug)]
pub struct Goofspiel {
    options: GoofspielOptions,
    hands: [CardSet; 2],
    prizes_left: CardSet,
    prize: Option<u8>,
    points: [u32; 2],
    turns: Vec<Turn>,
}

/// What a viewer sees of a Goofspiel game. Everything in classic Goofspiel is public except the
/// bids of the turn in progress, which are not part of the state until both are revealed.
#[derive(Clone, Debug, Serialize)]
pub struct GoofspielView {
    /// Who looks.
    pub viewer: Viewer,
    /// The options in force.
    pub options: GoofspielOptions,
    /// The prize up for bidding now, if revealed.
    pub prize: Option<u8>,
    /// The prizes not yet revealed.
    pub prizes_left: Vec<u8>,
    /// Each seat's remaining cards (public: they follow from the revealed bids).
    pub hands: SeatPair<Vec<u8>>,
    /// Each seat's points.
    pub points: SeatPair<u32>,
    /// The finished turns.
    pub turns: Vec<Turn>,
    /// Who must act now.
    pub pending: Pending,
}

impl Goofspiel {
    /// A new game with `options`. Fixed prize orders reveal the first prize at once.
    #[must_use]
    pub fn new(options: GoofspielOptions) -> Self {
        let mut game = Goofspiel {
            options,
            hands: [CardSet::full(options.cards); 2],
            prizes_left: CardSet::full(options.cards),
            prize: None,
            points: [0, 0],
            turns: Vec::with_capacity(options.cards as usize),
        };
        game.reveal_fixed_prize();
        game
    }

    /// A new game from raw options.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        GoofspielOptions::from_raw(raw).map(Goofspiel::new)
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> GoofspielOptions {
        self.options
    }

    /// Each seat's points so far.
    #[must_use]
    pub fn points(&self) -> [u32; 2] {
        self.points
    }

    /// The finished turns.
    #[must_use]
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The prize up now, if revealed.
    #[must_use]
    pub fn prize(&self) -> Option<u8> {
        self.prize
    }

    /// A seat's remaining cards.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    /// OpenSpiel's returns for each seat under the game's `returns` option (0 for both until
    /// the game is over, as in OpenSpiel).
    #[must_use]
    pub fn returns(&self) -> [f64; 2] {
        if !self.is_over() {
            return [0.0, 0.0];
        }
        let [a, b] = self.points.map(f64::from);
        match self.options.returns {
            ReturnsType::WinLoss => match a.partial_cmp(&b) {
                Some(std::cmp::Ordering::Greater) => [1.0, -1.0],
                Some(std::cmp::Ordering::Less) => [-1.0, 1.0],
                _ => [0.0, 0.0],
            },
            ReturnsType::PointDifference => {
                let mean = (a + b) / 2.0;
                [a - mean, b - mean]
            }
            ReturnsType::TotalPoints => [a, b],
        }
    }

    fn reveal_fixed_prize(&mut self) {
        if self.prizes_left.is_empty() {
            return;
        }
        self.prize = match self.options.order {
            PrizeOrder::Random => None,
            PrizeOrder::Ascending => self.prizes_left.iter().next(),
            PrizeOrder::Descending => self.prizes_left.iter().last(),
        };
        if let Some(p) = self.prize {
            self.prizes_left.remove(p);
        }
    }

    fn check_card(&self, seat: Seat, card: u8) -> Result<(), IllegalMove> {
        if self.pending() != Pending::Both {
            return Err(IllegalMove::new("nobody bids now"));
        }
        if self.hands[seat.index()].contains(card) {
            Ok(())
        } else {
            Err(IllegalMove::new(format!(
                "you have no {card} left; your hand is {}",
                join(self.hands[seat.index()].iter())
            )))
        }
    }
}

fn join(cards: impl Iterator<Item = u8>) -> String {
    let v: Vec<String> = cards.map(|c| c.to_string()).collect();
    if v.is_empty() {
        "empty".to_string()
    } else {
        v.join(" ")
    }
}

fn parse_card(text: &str, max: u8, kind: &'static str) -> Result<u8, NotationError> {
    let make = |reason: String| NotationError {
        text: text.to_string(),
        kind,
        reason,
    };
    let t = text.trim();
    if t.is_empty() {
        return Err(make(format!("write a card number from 1 to {max}")));
    }
    let n: u64 = t
        .parse()
        .map_err(|_| make(format!("write a card number from 1 to {max}, digits only")))?;
    if n == 0 || n > u64::from(max) {
        return Err(make(format!("cards run from 1 to {max}")));
    }
    Ok(n as u8)
}

impl Game for Goofspiel {
    type Move = u8;
    type Chance = u8;
    type View = GoofspielView;

    fn id(&self) -> &'static str {
        "goofspiel"
    }

    fn pending(&self) -> Pending {
        if self.turns.len() == self.options.cards as usize {
            Pending::Over
        } else if self.prize.is_none() {
            Pending::Chance
        } else {
            Pending::Both
        }
    }

    fn legal_moves(&self, seat: Seat, out: &mut Vec<u8>) {
        if self.pending() == Pending::Both {
            out.extend(self.hands[seat.index()].iter());
        }
    }

    fn random_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<u8> {
        if self.pending() != Pending::Both {
            return None;
        }
        let hand = self.hands[seat.index()];
        Some(hand.nth(rng.random_range(0..hand.len())))
    }

    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        if self.pending() == Pending::Chance {
            let p = 1.0 / f64::from(self.prizes_left.len());
            out.extend(self.prizes_left.iter().map(|c| (c, p)));
        }
    }

    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<u8> {
        if self.pending() != Pending::Chance {
            return None;
        }
        let left = self.prizes_left;
        Some(left.nth(rng.random_range(0..left.len())))
    }

    fn check_move(&self, seat: Seat, mv: &u8) -> Result<(), IllegalMove> {
        self.check_card(seat, *mv)
    }

    fn check_chance(&self, prize: &u8) -> Result<(), IllegalMove> {
        if self.pending() != Pending::Chance {
            return Err(IllegalMove::new("no prize is drawn now"));
        }
        if self.prizes_left.contains(*prize) {
            Ok(())
        } else {
            Err(IllegalMove::new(format!(
                "prize {prize} is not in the deck; the prizes left are {}",
                join(self.prizes_left.iter())
            )))
        }
    }

    fn apply(&mut self, step: Step<u8, u8>) -> Result<(), StepError> {
        self.check_step(&step)?;
        match step {
            Step::Chance(prize) => {
                self.prizes_left.remove(prize);
                self.prize = Some(prize);
            }
            Step::Both { p1, p2 } => {
                let prize = self.prize.take().expect("checked: a prize is up");
                let winner = match p1.cmp(&p2) {
                    std::cmp::Ordering::Greater => Some(Seat::P1),
                    std::cmp::Ordering::Less => Some(Seat::P2),
                    std::cmp::Ordering::Equal => None,
                };
                if let Some(w) = winner {
                    self.points[w.index()] += u32::from(prize);
                }
                self.hands[0].remove(p1);
                self.hands[1].remove(p2);
                self.turns.push(Turn {
                    prize,
                    p1,
                    p2,
                    winner,
                });
                self.reveal_fixed_prize();
            }
            Step::One { .. } => unreachable!("check_step refuses single moves in Goofspiel"),
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let [a, b] = self.points;
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Seat::P1),
            std::cmp::Ordering::Less => Some(Seat::P2),
            std::cmp::Ordering::Equal => None,
        };
        let reason = match winner {
            Some(w) => format!(
                "{w} took more points, {} to {}",
                self.points[w.index()],
                self.points[w.other().index()]
            ),
            None => format!("both took {}", crate::text::plural(a, "point")),
        };
        Some(Outcome { winner, reason })
    }

    fn score(&self) -> Score {
        let returns = self.returns();
        let mut details = Map::new();
        details.insert(
            "returns".into(),
            json!({"p1": returns[0], "p2": returns[1]}),
        );
        details.insert("turns_played".into(), Value::from(self.turns.len()));
        Score {
            p1: Value::from(self.points[0]),
            p2: Value::from(self.points[1]),
            details,
        }
    }

    fn view(&self, viewer: Viewer) -> GoofspielView {
        GoofspielView {
            viewer,
            options: self.options,
            prize: self.prize,
            prizes_left: self.prizes_left.to_vec(),
            hands: SeatPair::from_array(self.hands.map(CardSet::to_vec)),
            points: SeatPair::from_array(self.points),
            turns: self.turns.clone(),
            pending: self.pending(),
        }
    }

    fn render(&self, viewer: Viewer) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Goofspiel ({} cards, {} prizes) - turn {} of {}",
            self.options.cards,
            match self.options.order {
                PrizeOrder::Random => "shuffled",
                PrizeOrder::Descending => "descending",
                PrizeOrder::Ascending => "ascending",
            },
            (self.turns.len() + 1).min(self.options.cards as usize),
            self.options.cards
        );
        for turn in &self.turns {
            let result = match turn.winner {
                Some(w) => format!("{w} takes {}", turn.prize),
                None => "tie, prize discarded".to_string(),
            };
            let _ = writeln!(
                s,
                "  prize {:>2}: p1 bid {:>2}, p2 bid {:>2} - {result}",
                turn.prize, turn.p1, turn.p2
            );
        }
        for seat in Seat::BOTH {
            let me = if viewer == Viewer::Seat(seat) {
                " (you)"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "{seat}{me}: {}; hand {}",
                crate::text::plural(self.points[seat.index()], "point"),
                join(self.hands[seat.index()].iter())
            );
        }
        let _ = writeln!(s, "Prizes still to come: {}", join(self.prizes_left.iter()));
        match (self.prize, self.outcome()) {
            (_, Some(o)) => {
                let _ = writeln!(s, "Game over: {}", o.reason);
            }
            (Some(p), None) => {
                let _ = writeln!(s, "Prize up now: {p}");
            }
            (None, None) => {
                let _ = writeln!(s, "The next prize is about to be revealed.");
            }
        }
        s
    }

    fn default_move<R: Rng + ?Sized>(&self, seat: Seat, _rng: &mut R) -> Option<u8> {
        // Goofspiel has no seed text; the lowest card is the closest thing to a pass.
        if self.pending() == Pending::Both {
            self.hands[seat.index()].iter().next()
        } else {
            None
        }
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<u8, NotationError> {
        parse_card(text, self.options.cards, "move")
    }

    fn format_move(&self, mv: &u8) -> String {
        mv.to_string()
    }

    fn parse_chance(&self, text: &str) -> Result<u8, NotationError> {
        parse_card(text, self.options.cards, "chance outcome")
    }

    fn format_chance(&self, prize: &u8) -> String {
        prize.to_string()
    }
}

/// The rules page, shown by `colosseum rules goofspiel`.
pub const RULES: &str = include_str!("../../../docs/rules/goofspiel.md");

/// The game in OpenSpiel's terms ([`crate::spiel`]).
mod spiel;

#[cfg(test)]
mod tests {
    use super::*;

    fn game(cards: u8, order: PrizeOrder) -> Goofspiel {
        Goofspiel::new(GoofspielOptions {
            cards,
            order,
            returns: ReturnsType::WinLoss,
        })
    }

    #[test]
    fn higher_bid_takes_the_prize_and_ties_discard_it() {
        let mut g = game(3, PrizeOrder::Random);
        assert_eq!(g.pending(), Pending::Chance);
        g.apply(Step::Chance(2)).unwrap();
        g.apply(Step::Both { p1: 3, p2: 1 }).unwrap();
        assert_eq!(g.points(), [2, 0]);
        g.apply(Step::Chance(3)).unwrap();
        g.apply(Step::Both { p1: 2, p2: 2 }).unwrap();
        assert_eq!(g.points(), [2, 0], "a tie discards the prize");
        g.apply(Step::Chance(1)).unwrap();
        g.apply(Step::Both { p1: 1, p2: 3 }).unwrap();
        assert_eq!(g.points(), [2, 1]);
        assert!(g.is_over());
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, Some(Seat::P1));
        assert_eq!(o.reason, "p1 took more points, 2 to 1");
    }

    #[test]
    fn a_tie_says_its_points_with_the_right_plural() {
        // Tied bids throughout: nobody takes a prize, both took 0 points.
        let mut g = game(2, PrizeOrder::Ascending);
        g.apply(Step::Both { p1: 1, p2: 1 }).unwrap();
        g.apply(Step::Both { p1: 2, p2: 2 }).unwrap();
        assert_eq!(g.outcome().unwrap().reason, "both took 0 points");
        // A tie at one point each (no real deal reaches it: the prizes differ) is "1 point".
        g.points = [1, 1];
        let o = g.outcome().unwrap();
        assert_eq!((o.winner, o.reason.as_str()), (None, "both took 1 point"));
        g.points = [5, 5];
        assert_eq!(g.outcome().unwrap().reason, "both took 5 points");
    }

    #[test]
    fn fixed_orders_reveal_prizes_without_chance() {
        let g = game(4, PrizeOrder::Descending);
        assert_eq!((g.pending(), g.prize()), (Pending::Both, Some(4)));
        let mut g = game(4, PrizeOrder::Ascending);
        assert_eq!((g.pending(), g.prize()), (Pending::Both, Some(1)));
        g.apply(Step::Both { p1: 1, p2: 2 }).unwrap();
        assert_eq!(g.prize(), Some(2));
    }

    #[test]
    fn refuses_cards_not_in_hand_and_leaves_state_alone() {
        let mut g = game(3, PrizeOrder::Ascending);
        g.apply(Step::Both { p1: 3, p2: 1 }).unwrap();
        let before = format!("{g:?}");
        let e = g.apply(Step::Both { p1: 3, p2: 2 }).unwrap_err();
        assert_eq!(
            e.to_string(),
            "p1: not legal here: you have no 3 left; your hand is 1 2"
        );
        assert_eq!(format!("{g:?}"), before);
        let e = g.apply(Step::Chance(2)).unwrap_err();
        assert!(matches!(e, StepError::WrongActors { .. }), "{e}");
    }

    #[test]
    fn notation_errors_say_what_a_bid_is() {
        let g = game(13, PrizeOrder::Random);
        let e = g.parse_move(Seat::P1, "14").unwrap_err();
        assert_eq!(e.to_string(), "`14` is not a move: cards run from 1 to 13");
        let e = g.parse_move(Seat::P1, "seven").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`seven` is not a move: write a card number from 1 to 13, digits only"
        );
        assert_eq!(g.parse_move(Seat::P1, " 7 ").unwrap(), 7);
    }

    #[test]
    fn returns_follow_openspiel() {
        let mut g = game(2, PrizeOrder::Ascending);
        g.apply(Step::Both { p1: 2, p2: 1 }).unwrap();
        g.apply(Step::Both { p1: 1, p2: 2 }).unwrap();
        assert_eq!(g.points(), [1, 2]);
        assert_eq!(g.returns(), [-1.0, 1.0]);
        g.options.returns = ReturnsType::PointDifference;
        assert_eq!(g.returns(), [-0.5, 0.5]);
        g.options.returns = ReturnsType::TotalPoints;
        assert_eq!(g.returns(), [1.0, 2.0]);
    }

    #[test]
    fn options_are_checked() {
        let raw = colosseum_engine::parse_pairs(["cards=0"]).unwrap();
        assert!(Goofspiel::from_raw(&raw).is_err());
        let raw = colosseum_engine::parse_pairs(["order=sideways"]).unwrap();
        let e = Goofspiel::from_raw(&raw).unwrap_err();
        assert_eq!(
            e.to_string(),
            "option `order` = \"sideways\" is not allowed: random, descending or ascending"
        );
        let raw = colosseum_engine::parse_pairs(["cards=64", "order=descending"]).unwrap();
        let g = Goofspiel::from_raw(&raw).unwrap();
        assert_eq!(g.prize(), Some(64));
    }
}

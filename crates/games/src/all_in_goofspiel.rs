//! All-In Goofspiel: each round one player puts down any number of cards face down, the other
//! sees only how many and answers with its own; the cards side by side make a number, and the
//! higher number takes the round's points. Reaching 28 points wins, but only with an empty hand.
//!
//! Both seats hold the cards -3..12. Round k is worth k points; a tie splits them, and halves are
//! kept exactly (as half-points). In this API a round is two successive decisions: the round's
//! *starter* (option `first` in round 1, alternating after) moves first, then the *responder*.
//! The starter's cards stay face down in the state between the two decisions; only the starter's
//! own view shows them, everyone else sees how many there are.
//!
//! After every round the 28-point rule of RULINGS.md decides whether the game is over; a game in
//! which both hands are empty and nobody has 28 points is a draw (our ruling, documented on the
//! rules page). Because the points handed out after round n add up to n(n+1)/2, somebody has 28
//! or more after round 11 at the latest, so a game never has more than [`MAX_ROUNDS`] rounds.
//!
//! The move space (every ordered list of distinct cards from the hand: about 5.7 * 10^13 lists
//! for a full hand) cannot be enumerated: [`Game::legal_moves`] lists a representative subset,
//! and [`Game::random_move`] draws uniformly from all of them.

use std::cmp::Ordering;
use std::fmt::{self, Write as _};
use std::str::FromStr;

use colosseum_engine::{
    Game, IllegalMove, NotationError, OptionDoc, OptionReader, OptionsError, Outcome, Pending,
    RawOptions, Score, Seat, Step, StepError, Viewer,
};
use rand::Rng;
use serde::{Serialize, Serializer};
use serde_json::{json, Map, Value};

use colosseum_engine::SeatPair;

/// The lowest card.
pub const LOWEST_CARD: i8 = -3;
/// The highest card.
pub const HIGHEST_CARD: i8 = 12;
/// Cards in a full hand (-3..12).
pub const HAND_SIZE: usize = 16;
/// Points at which the game ends (see [`AllInGoofspiel`] for who wins then).
pub const WINNING_POINTS: u16 = 28;
/// The most rounds a game can have: after round 11 the points handed out add up to 66, so one
/// player has at least 33 and the game is over.
pub const MAX_ROUNDS: usize = 11;

/// The clocks at the table (RULINGS.md: the seed gives none): 60 s for the starter's and the
/// responder's decision, no bank; no cards at the deadline.
pub const TIMING: crate::Timing = crate::Timing {
    decisions: &[crate::DecisionClock {
        kind: "*",
        what: "the starter's cards, or the responder's",
        ms: 60_000,
        loses: false,
        default: "no cards (the number 0)",
    }],
    bank_ms: 0,
    bank_step_ms: 0,
};

/// The options.
pub const OPTIONS: &[OptionDoc] = &[OptionDoc {
    name: "first",
    default: "p1",
    allowed: "p1 or p2",
    help: "who starts round 1 (puts down cards first); the starter alternates every round after \
           (the seed lets the player with the most garnets choose)",
}];

/// The rules page, shown by `colosseum rules all-in-goofspiel`.
pub const RULES: &str = include_str!("../../../docs/rules/all-in-goofspiel.md");

/// The checked options of an All-In Goofspiel game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AllInGoofspielOptions {
    /// Who starts round 1.
    pub first: Seat,
}

impl Default for AllInGoofspielOptions {
    fn default() -> Self {
        AllInGoofspielOptions { first: Seat::P1 }
    }
}

impl AllInGoofspielOptions {
    /// Reads the options from JSON, refusing unknown names and bad values.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        let r = OptionReader::new(raw, OPTIONS);
        let first = match r.choice("first", 0, &["p1", "p2"])? {
            0 => Seat::P1,
            _ => Seat::P2,
        };
        r.finish()?;
        Ok(AllInGoofspielOptions { first })
    }
}

/// The number that `cards` make when written side by side.
///
/// The card labels are written one after the other and read as integer arithmetic in which `-`
/// is a subtraction, or the sign of the first term when the list starts with a negative card:
/// `10 9` is 109, `3 1 2` is 312, `10 -1 9` is `10-19` = -9, `-3 5` is -35, `5 -3` is 2,
/// `-1 -2` is -3, `0 7` is 7, and no cards at all make 0.
///
/// So every negative card starts a new term that is subtracted, and every other card appends its
/// digits to the term in progress. The function is total for any list of at most
/// [`HAND_SIZE`] cards from -3..12, duplicates included: a term then has at most 32 digits and
/// there are at most 16 terms, which fits in an `i128` (about 1.7 * 10^38). A legal play (distinct
/// cards) has a term of at most 17 digits (`-3` and then all thirteen non-negative cards) and
/// always lies between [`SMALLEST_NUMBER`] and [`LARGEST_NUMBER`], which even fit in an `i64`.
#[must_use]
pub fn number(cards: &[i8]) -> i128 {
    let mut total: i128 = 0;
    let mut term: i128 = 0;
    let mut subtract = false;
    for &card in cards {
        if card < 0 {
            total += if subtract { -term } else { term };
            subtract = true;
            term = i128::from(card.unsigned_abs());
        } else {
            let shift = if card >= 10 { 100 } else { 10 };
            term = term * shift + i128::from(card);
        }
    }
    total + if subtract { -term } else { term }
}

/// The largest number a legal play can make: `9 8 7 6 5 4 3 2 12 11 1 10 0`.
pub const LARGEST_NUMBER: i128 = 9_876_543_212_111_100;
/// The smallest number a legal play can make: `-3 9 8 7 6 5 4 3 2 12 11 1 10 0 -2 -1`.
pub const SMALLEST_NUMBER: i128 = -39_876_543_212_111_103;

/// A hand: a set of cards -3..12, one bit each (bit `card + 3`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand(u16);

impl Hand {
    /// All sixteen cards.
    pub const FULL: Hand = Hand(u16::MAX);
    /// No cards.
    pub const EMPTY: Hand = Hand(0);

    fn bit(card: i8) -> u16 {
        debug_assert!((LOWEST_CARD..=HIGHEST_CARD).contains(&card));
        1 << (card - LOWEST_CARD)
    }

    /// Whether `card` is in the hand.
    #[must_use]
    pub fn contains(self, card: i8) -> bool {
        (LOWEST_CARD..=HIGHEST_CARD).contains(&card) && self.0 & Hand::bit(card) != 0
    }

    /// How many cards.
    #[must_use]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the hand is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards, lowest first.
    pub fn iter(self) -> impl Iterator<Item = i8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let low = bits.trailing_zeros() as i8;
            bits &= bits - 1;
            Some(low + LOWEST_CARD)
        })
    }

    /// The cards, lowest first, as a list.
    #[must_use]
    pub fn to_vec(self) -> Vec<i8> {
        self.iter().collect()
    }

    fn without(self, play: &Play) -> Hand {
        Hand(self.0 & !play.mask())
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::write_spaced(f, self.iter(), "empty")
    }
}

/// The cards one player puts down in one round, in order: a move.
///
/// A `Play` holds up to [`HAND_SIZE`] cards from -3..12, kept in a fixed array so that moves
/// never allocate. It may hold a card twice (the notation allows it); [`Game::check_move`]
/// refuses that, as it refuses cards not in the hand. The empty play is a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Play {
    /// The cards in order; the slots after `len` are always 0, so that equality is derived.
    cards: [i8; HAND_SIZE],
    len: u8,
}

impl Play {
    /// No cards: the number 0.
    pub const PASS: Play = Play {
        cards: [0; HAND_SIZE],
        len: 0,
    };

    /// The play of `cards` in order, or `None` if there are more than [`HAND_SIZE`] cards or
    /// one is outside -3..12.
    #[must_use]
    pub fn new(cards: &[i8]) -> Option<Play> {
        if cards.len() > HAND_SIZE
            || cards
                .iter()
                .any(|c| !(LOWEST_CARD..=HIGHEST_CARD).contains(c))
        {
            return None;
        }
        let mut play = Play::PASS;
        play.cards[..cards.len()].copy_from_slice(cards);
        play.len = cards.len() as u8;
        Some(play)
    }

    /// The cards, in order.
    #[must_use]
    pub fn cards(&self) -> &[i8] {
        &self.cards[..self.len as usize]
    }

    /// How many cards.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether this is a pass (no cards).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number the cards make (see [`number`]).
    #[must_use]
    pub fn number(&self) -> i128 {
        number(self.cards())
    }

    fn mask(&self) -> u16 {
        self.cards().iter().fold(0, |m, &c| m | Hand::bit(c))
    }
}

impl fmt::Debug for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Play({self})")
    }
}

/// The canonical notation: the cards separated by single spaces, or `pass`.
impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::write_spaced(f, self.cards(), "pass")
    }
}

/// Reads a move: cards in order separated by spaces or commas (`10 -1 9`, `10,-1,9`), or `pass`
/// (any case) or nothing at all for no cards. A card that does not exist (13, -4) is not a move;
/// a card given twice or not in the hand is a move that [`Game::check_move`] refuses.
impl FromStr for Play {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Play, NotationError> {
        let tokens = || {
            text.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
        };
        let mut play = Play::PASS;
        let count = tokens().count();
        if count == 1 && tokens().all(|t| t.eq_ignore_ascii_case("pass")) {
            return Ok(play);
        }
        if count > HAND_SIZE {
            return Err(NotationError::mv(
                text,
                format!("that is {count} cards, and a hand never holds more than {HAND_SIZE}"),
            ));
        }
        for token in tokens() {
            let card: i64 = token.parse().map_err(|_| {
                let why = if token.eq_ignore_ascii_case("pass") {
                    "`pass` stands alone, without cards".to_string()
                } else {
                    format!(
                        "`{token}` is not a card; write the cards in order as numbers from \
                         {LOWEST_CARD} to {HIGHEST_CARD}, e.g. `10 -1 9`, or `pass` for none"
                    )
                };
                NotationError::mv(text, why)
            })?;
            if !(i64::from(LOWEST_CARD)..=i64::from(HIGHEST_CARD)).contains(&card) {
                return Err(NotationError::mv(
                    text,
                    format!(
                        "there is no card {card}: the cards run from {LOWEST_CARD} to {HIGHEST_CARD}"
                    ),
                ));
            }
            play.cards[play.len as usize] = card as i8;
            play.len += 1;
        }
        Ok(play)
    }
}

/// Points, kept exactly as a number of half-points (a tie in an odd round gives halves).
///
/// Serialized as a JSON number: an integer when whole (`14`), otherwise with `.5` (`14.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Points {
    halves: u16,
}

impl Points {
    /// Points from a number of half-points.
    #[must_use]
    pub fn from_halves(halves: u16) -> Points {
        Points { halves }
    }

    /// The number of half-points.
    #[must_use]
    pub fn halves(self) -> u16 {
        self.halves
    }

    /// The points as a float (exact: halves are representable).
    #[must_use]
    pub fn as_f64(self) -> f64 {
        f64::from(self.halves) / 2.0
    }

    /// Whether these are at least `whole` points.
    #[must_use]
    pub fn at_least(self, whole: u16) -> bool {
        self.halves >= 2 * whole
    }

    /// The points as a JSON number: `14` or `14.5`.
    #[must_use]
    pub fn to_json(self) -> Value {
        if self.halves & 1 == 0 {
            Value::from(self.halves / 2)
        } else {
            Value::from(self.as_f64())
        }
    }

    /// "1 point", "2.5 points".
    fn with_unit(self) -> String {
        if self.halves == 2 {
            "1 point".to_string()
        } else {
            format!("{self} points")
        }
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.halves / 2)?;
        if self.halves & 1 == 1 {
            f.write_str(".5")?;
        }
        Ok(())
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.halves & 1 == 0 {
            serializer.serialize_u16(self.halves / 2)
        } else {
            serializer.serialize_f64(self.as_f64())
        }
    }
}

/// One finished round: both plays, revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// The round's number k (1-based); it is worth k points.
    pub round: u8,
    /// Who put down cards first.
    pub starter: Seat,
    /// Each seat's play, indexed by [`Seat::index`].
    pub plays: [Play; 2],
}

impl Default for Round {
    /// An empty slot of the history array (never shown: only played rounds are).
    fn default() -> Self {
        Round {
            round: 0,
            starter: Seat::P1,
            plays: [Play::PASS; 2],
        }
    }
}

impl Round {
    /// What the round is worth.
    #[must_use]
    pub fn worth(&self) -> u8 {
        self.round
    }

    /// Each seat's number, indexed by [`Seat::index`].
    #[must_use]
    pub fn numbers(&self) -> [i128; 2] {
        [self.plays[0].number(), self.plays[1].number()]
    }

    /// Who took the points (`None`: a tie, the points were split).
    #[must_use]
    pub fn winner(&self) -> Option<Seat> {
        let [a, b] = self.numbers();
        match a.cmp(&b) {
            Ordering::Greater => Some(Seat::P1),
            Ordering::Less => Some(Seat::P2),
            Ordering::Equal => None,
        }
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// One or both seats have 28 points or more (`reached`); `empty` says whose hand is empty.
    Reached {
        reached: [bool; 2],
        empty: [bool; 2],
    },
    /// Both hands are empty and nobody has 28 points.
    OutOfCards,
}

/// A game of All-In Goofspiel.
///
/// The state is small and fixed-size (hands as 16-bit sets, the history as an array of at most
/// [`MAX_ROUNDS`] rounds), so cloning it and applying a step never allocate.
#[derive(Clone, Debug)]
pub struct AllInGoofspiel {
    options: AllInGoofspielOptions,
    /// The cards not yet revealed. The starter's face-down cards stay in its hand until the
    /// reveal, so that the hands are exactly what everyone knows.
    hands: [Hand; 2],
    points: [Points; 2],
    history: [Round; MAX_ROUNDS],
    rounds_played: u8,
    /// The starter's cards of the round in progress, face down; `None` until the starter acts.
    face_down: Option<Play>,
    ending: Option<Ending>,
}

/// What a viewer sees of an All-In Goofspiel game.
///
/// Every revealed play is public, so both hands are known to everyone. The one secret is the
/// starter's face-down cards between its decision and the responder's: only the starter's own
/// view lists them (`current.face_down_cards`); everyone sees how many there are.
#[derive(Clone, Debug, Serialize)]
pub struct AllInGoofspielView {
    /// Who looks.
    pub viewer: Viewer,
    /// The options in force.
    pub options: AllInGoofspielOptions,
    /// Who must act now.
    pub pending: Pending,
    /// The round in progress (`None` once the game is over).
    pub current: Option<CurrentRound>,
    /// Each seat's cards not yet revealed (the starter's face-down cards are still among them).
    pub hands: SeatPair<Vec<i8>>,
    /// Each seat's points: a JSON number, with `.5` after a split odd round.
    pub points: SeatPair<Points>,
    /// The finished rounds, oldest first.
    pub rounds: Vec<RoundView>,
}

/// The round in progress, as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CurrentRound {
    /// The round's number k.
    pub round: u8,
    /// What it is worth (k points).
    pub worth: u8,
    /// Who puts down cards first.
    pub starter: Seat,
    /// Who answers.
    pub responder: Seat,
    /// How many cards the starter put down face down (`None`: the starter has not acted yet).
    pub face_down_count: Option<u8>,
    /// The starter's face-down cards in order: only in the starter's own view.
    pub face_down_cards: Option<Vec<i8>>,
}

/// A finished round, as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundView {
    /// The round's number k.
    pub round: u8,
    /// What it was worth (k points).
    pub worth: u8,
    /// Who put down cards first.
    pub starter: Seat,
    /// The cards each seat put down, in order.
    pub cards: SeatPair<Vec<i8>>,
    /// The number each seat made. Exact JSON integers; they can exceed 2^53, so JavaScript
    /// clients should read them as big integers.
    pub numbers: SeatPair<i128>,
    /// Who took the points (`null`: a tie, split).
    pub winner: Option<Seat>,
}

impl AllInGoofspiel {
    /// A new game: full hands, no points, round 1 waiting for the starter.
    #[must_use]
    pub fn new(options: AllInGoofspielOptions) -> Self {
        AllInGoofspiel {
            options,
            hands: [Hand::FULL; 2],
            points: [Points::default(); 2],
            history: [Round::default(); MAX_ROUNDS],
            rounds_played: 0,
            face_down: None,
            ending: None,
        }
    }

    /// A new game from raw options.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        AllInGoofspielOptions::from_raw(raw).map(AllInGoofspiel::new)
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> AllInGoofspielOptions {
        self.options
    }

    /// A seat's cards not yet revealed (during a round, the starter's face-down cards count as
    /// still in its hand).
    #[must_use]
    pub fn hand(&self, seat: Seat) -> Hand {
        self.hands[seat.index()]
    }

    /// Each seat's points.
    #[must_use]
    pub fn points(&self) -> [Points; 2] {
        self.points
    }

    /// The finished rounds, oldest first.
    #[must_use]
    pub fn rounds(&self) -> &[Round] {
        &self.history[..self.rounds_played as usize]
    }

    /// The number of the round in progress (or of the last round, once the game is over).
    #[must_use]
    pub fn round(&self) -> u8 {
        if self.ending.is_some() {
            self.rounds_played
        } else {
            self.rounds_played + 1
        }
    }

    /// Who starts the round in progress: `first` in odd rounds, the other seat in even rounds.
    #[must_use]
    pub fn starter(&self) -> Seat {
        if self.rounds_played & 1 == 0 {
            self.options.first
        } else {
            self.options.first.other()
        }
    }

    /// How many cards the starter has put down face down this round, if it has acted.
    #[must_use]
    pub fn face_down_count(&self) -> Option<usize> {
        self.face_down.map(|p| p.len())
    }

    /// The same position with the starter's face-down cards taken back: the starter to put down
    /// its cards (the state as it was before). Unchanged when nothing is face down.
    #[must_use]
    pub fn before_face_down(&self) -> Self {
        let mut before = self.clone();
        before.face_down = None;
        before
    }

    /// The same position with `play` as the starter's face-down cards instead of the ones put
    /// down: `None` unless cards are face down and `play` has as many, all from the starter's
    /// hand (so that the responder sees no difference). For bots, which plan on such states.
    #[must_use]
    pub fn with_face_down(&self, play: Play) -> Option<Self> {
        let count = self.face_down?.len();
        let hand = self.hands[self.starter().index()];
        if play.len() != count || !play.cards().iter().all(|&c| hand.contains(c)) {
            return None;
        }
        let mut other = self.clone();
        other.face_down = Some(play);
        Some(other)
    }

    /// A random move for playouts that should look more like real play: the number of cards is
    /// drawn uniformly from 0 to the hand's size, then a uniformly random ordered list of that
    /// many cards. This is deliberately *not* uniform over moves: [`Game::random_move`] is, and
    /// from a full hand it puts down 15 or 16 cards three times in four (see the rules page).
    /// `None` if `seat` does not act now.
    pub fn random_move_any_count<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Play> {
        if self.pending() != Pending::One(seat) {
            return None;
        }
        let hand = self.hands[seat.index()];
        let count = rng.random_range(0..=hand.len());
        Some(random_ordered_list(hand, count, rng))
    }

    fn actor(&self) -> Option<Seat> {
        match self.pending() {
            Pending::One(seat) => Some(seat),
            _ => None,
        }
    }

    /// Reveals both plays, scores the round and applies the end rule.
    fn reveal(&mut self, starter_play: Play, responder_play: Play) {
        let starter = self.starter();
        let mut plays = [Play::PASS; 2];
        plays[starter.index()] = starter_play;
        plays[starter.other().index()] = responder_play;
        let round = Round {
            round: self.rounds_played + 1,
            starter,
            plays,
        };
        let worth = u16::from(round.worth());
        match round.winner() {
            Some(w) => self.points[w.index()].halves += 2 * worth,
            None => {
                for p in &mut self.points {
                    p.halves += worth;
                }
            }
        }
        for seat in Seat::BOTH {
            let i = seat.index();
            self.hands[i] = self.hands[i].without(&plays[i]);
        }
        self.history[self.rounds_played as usize] = round;
        self.rounds_played += 1;
        self.face_down = None;
        self.ending = self.ending_now();
        debug_assert!(
            self.ending.is_some() || (self.rounds_played as usize) < MAX_ROUNDS,
            "the points after round 11 always end the game"
        );
    }

    /// The end rule of RULINGS.md, applied after a round.
    fn ending_now(&self) -> Option<Ending> {
        let reached = self.points.map(|p| p.at_least(WINNING_POINTS));
        let empty = self.hands.map(Hand::is_empty);
        if reached.iter().any(|&r| r) {
            Some(Ending::Reached { reached, empty })
        } else if empty.iter().all(|&e| e) {
            Some(Ending::OutOfCards)
        } else {
            None
        }
    }

    fn hand_words(&self, seat: Seat) -> String {
        match self.hands[seat.index()].len() {
            0 => "an empty hand".to_string(),
            1 => "1 card left".to_string(),
            n => format!("{n} cards left"),
        }
    }

    fn both_points(&self) -> String {
        format!("p1 {}, p2 {}", self.points[0], self.points[1])
    }
}

/// "no cards", "1 card", "3 cards".
fn cards_words(n: usize) -> String {
    match n {
        0 => "no cards".to_string(),
        1 => "1 card".to_string(),
        n => format!("{n} cards"),
    }
}

/// A revealed (or own) play with its number: "10 -1 9 = -9", "no cards = 0".
fn play_words(play: &Play) -> String {
    if play.is_empty() {
        "no cards = 0".to_string()
    } else {
        format!("{play} = {}", play.number())
    }
}

/// `ORDERED_LISTS[n][k]` = n!/(n-k)!: the ordered lists of k distinct cards from n cards.
const ORDERED_LISTS: [[u64; HAND_SIZE + 1]; HAND_SIZE + 1] = {
    let mut table = [[0u64; HAND_SIZE + 1]; HAND_SIZE + 1];
    let mut n = 0;
    while n <= HAND_SIZE {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n][k - 1] * (n - k + 1) as u64;
            k += 1;
        }
        n += 1;
    }
    table
};

/// `ALL_ORDERED_LISTS[n]`: the moves of a hand of n cards (every length, the pass included).
/// For a full hand this is 56,874,039,553,217, well within a `u64`.
const ALL_ORDERED_LISTS: [u64; HAND_SIZE + 1] = {
    let mut totals = [0u64; HAND_SIZE + 1];
    let mut n = 0;
    while n <= HAND_SIZE {
        let mut k = 0;
        while k <= n {
            totals[n] += ORDERED_LISTS[n][k];
            k += 1;
        }
        n += 1;
    }
    totals
};

/// A uniformly random ordered list of `count` distinct cards from `hand` (a partial
/// Fisher-Yates shuffle).
fn random_ordered_list<R: Rng + ?Sized>(hand: Hand, count: usize, rng: &mut R) -> Play {
    let mut cards = [0i8; HAND_SIZE];
    let n = hand.len();
    for (slot, card) in cards.iter_mut().zip(hand.iter()) {
        *slot = card;
    }
    for i in 0..count {
        let j = rng.random_range(i..n);
        cards.swap(i, j);
    }
    let mut play = Play::PASS;
    play.cards[..count].copy_from_slice(&cards[..count]);
    play.len = count as u8;
    play
}

/// A uniformly random move from `hand`: the length k is drawn with weight n!/(n-k)! (the number
/// of lists of that length), then a random list of that length, so every list is equally likely.
fn uniform_play<R: Rng + ?Sized>(hand: Hand, rng: &mut R) -> Play {
    let n = hand.len();
    let mut r = rng.random_range(0..ALL_ORDERED_LISTS[n]);
    // Longest first: the long lists are the most numerous, so the loop usually stops at once.
    let mut count = n;
    loop {
        let lists = ORDERED_LISTS[n][count];
        if r < lists || count == 0 {
            break;
        }
        r -= lists;
        count -= 1;
    }
    random_ordered_list(hand, count, rng)
}

/// Orders `cards` for the largest number they make: the non-negative cards first, ordered so
/// that for any two, the one whose digits read first give the larger number goes first (9
/// before 12, 12 before 11, 1 before 10); then the negative cards in the order given (each
/// subtracts its own value wherever it stands after them).
pub fn order_for_largest(cards: &mut [i8]) {
    let joined = |a: i8, b: i8| number(&[a, b]);
    cards.sort_by(|&a, &b| match (a < 0, b < 0) {
        (false, false) => joined(b, a).cmp(&joined(a, b)),
        (negative_a, negative_b) => negative_a.cmp(&negative_b),
    });
}

/// The largest number that can be made from `hand`'s non-negative cards, as a play.
fn largest_number_play(hand: Hand) -> Play {
    let mut cards: Vec<i8> = hand.iter().filter(|&c| c >= 0).collect();
    order_for_largest(&mut cards);
    Play::new(&cards).unwrap_or_default()
}

impl Game for AllInGoofspiel {
    type Move = Play;
    type Chance = ();
    type View = AllInGoofspielView;
    /// The starter's cards lie face down until the responder has answered.
    const FACE_DOWN_LONE_MOVES: bool = true;

    fn id(&self) -> &'static str {
        "all-in-goofspiel"
    }

    fn pending(&self) -> Pending {
        if self.ending.is_some() {
            Pending::Over
        } else if self.face_down.is_none() {
            Pending::One(self.starter())
        } else {
            Pending::One(self.starter().other())
        }
    }

    /// A representative subset, as the move space is too large to enumerate: `pass`, every card
    /// alone (highest first), the largest number the non-negative cards make, and the whole hand
    /// ordered for the largest number (non-negative cards first, then the negative ones, each
    /// subtracting only itself). A seat with no cards has exactly one move, `pass`.
    fn legal_moves(&self, seat: Seat, out: &mut Vec<Play>) {
        if self.actor() != Some(seat) {
            return;
        }
        let hand = self.hands[seat.index()];
        let start = out.len();
        out.push(Play::PASS);
        let mut singles: Vec<i8> = hand.iter().collect();
        singles.reverse();
        out.extend(singles.iter().filter_map(|&c| Play::new(&[c])));
        let largest = largest_number_play(hand);
        let mut whole: Vec<i8> = largest.cards().to_vec();
        whole.extend(singles.iter().copied().filter(|&c| c < 0));
        for play in [largest, Play::new(&whole).unwrap_or_default()] {
            if !out[start..].contains(&play) {
                out.push(play);
            }
        }
    }

    /// Uniform over every legal move (every ordered list of distinct cards from the hand, the
    /// pass included). Because long lists are by far the most numerous, a uniformly random move
    /// from a full hand puts down 15 or 16 cards three times in four; see
    /// [`AllInGoofspiel::random_move_any_count`] for playouts that look like real games.
    fn random_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Play> {
        if self.actor() != Some(seat) {
            return None;
        }
        Some(uniform_play(self.hands[seat.index()], rng))
    }

    /// The one secret is the starter's face-down cards while the responder decides. For the
    /// responder (or a seat that is not the starter) they are redrawn uniformly among the
    /// ordered lists of the same count from the starter's hand, which everyone sees; the starter
    /// sees its own cards, so for it (and whenever nothing is face down) this is a copy.
    fn determinize<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self {
        let mut sampled = self.clone();
        if let Some(play) = self.face_down {
            let starter = self.starter();
            if seat != starter {
                sampled.face_down = Some(random_ordered_list(
                    self.hands[starter.index()],
                    play.len(),
                    rng,
                ));
            }
        }
        sampled
    }

    fn chance_outcomes(&self, _out: &mut Vec<((), f64)>) {}

    fn sample_chance<R: Rng + ?Sized>(&self, _rng: &mut R) -> Option<()> {
        None
    }

    fn check_move(&self, seat: Seat, mv: &Play) -> Result<(), IllegalMove> {
        let Some(actor) = self.actor() else {
            return Err(IllegalMove::new("the game is over"));
        };
        if actor != seat {
            let what = if self.face_down.is_none() {
                "puts down cards first"
            } else {
                "answers"
            };
            return Err(IllegalMove::new(format!(
                "it is not your turn: {actor} {what} in round {}",
                self.round()
            )));
        }
        let hand = self.hands[seat.index()];
        let mut seen = 0u16;
        for &card in mv.cards() {
            let bit = Hand::bit(card);
            if seen & bit != 0 {
                return Err(IllegalMove::new(format!("you put down {card} twice")));
            }
            if !hand.contains(card) {
                return Err(IllegalMove::new(format!(
                    "you have no {card}; your hand is {hand}"
                )));
            }
            seen |= bit;
        }
        Ok(())
    }

    fn check_chance(&self, _outcome: &()) -> Result<(), IllegalMove> {
        Err(IllegalMove::new("All-In Goofspiel has no chance events"))
    }

    fn apply(&mut self, step: Step<Play, ()>) -> Result<(), StepError> {
        self.check_step(&step)?;
        let Step::One { mv, .. } = step else {
            unreachable!("check_step accepts only one seat's move in All-In Goofspiel")
        };
        match self.face_down {
            None => self.face_down = Some(mv),
            Some(starter_play) => self.reveal(starter_play, mv),
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        let ending = self.ending?;
        let (winner, reason) = match ending {
            Ending::OutOfCards => (
                None,
                format!(
                    "both hands are empty and nobody reached {WINNING_POINTS} points ({}): a draw",
                    self.both_points()
                ),
            ),
            Ending::Reached { reached, empty } => match (reached, empty) {
                ([true, true], [a, b]) if a == b => {
                    let hands = if a {
                        "with empty hands"
                    } else {
                        "with cards left"
                    };
                    (
                        None,
                        format!(
                            "both reached {WINNING_POINTS} points or more {hands} ({}): a draw",
                            self.both_points()
                        ),
                    )
                }
                ([true, true], [a, _]) => {
                    let w = if a { Seat::P1 } else { Seat::P2 };
                    let l = w.other();
                    (
                        Some(w),
                        format!(
                            "{w} reached {} with an empty hand; {l} reached {} with {}",
                            self.points[w.index()].with_unit(),
                            self.points[l.index()].with_unit(),
                            self.hand_words(l)
                        ),
                    )
                }
                ([p1, _], _) => {
                    let s = if p1 { Seat::P1 } else { Seat::P2 };
                    let pts = self.points[s.index()].with_unit();
                    if empty[s.index()] {
                        (Some(s), format!("{s} reached {pts} with an empty hand"))
                    } else {
                        let o = s.other();
                        (
                            Some(o),
                            format!("{s} reached {pts} with {}, so {o} wins", self.hand_words(s)),
                        )
                    }
                }
            },
        };
        Some(Outcome { winner, reason })
    }

    fn score(&self) -> Score {
        let mut details = Map::new();
        details.insert(
            "cards_left".into(),
            json!({"p1": self.hands[0].len(), "p2": self.hands[1].len()}),
        );
        details.insert("rounds_played".into(), Value::from(self.rounds_played));
        Score {
            p1: self.points[0].to_json(),
            p2: self.points[1].to_json(),
            details,
        }
    }

    fn view(&self, viewer: Viewer) -> AllInGoofspielView {
        let current = self.ending.is_none().then(|| {
            let starter = self.starter();
            CurrentRound {
                round: self.round(),
                worth: self.round(),
                starter,
                responder: starter.other(),
                face_down_count: self.face_down.map(|p| p.len() as u8),
                face_down_cards: self
                    .face_down
                    .filter(|_| viewer == Viewer::Seat(starter))
                    .map(|p| p.cards().to_vec()),
            }
        });
        AllInGoofspielView {
            viewer,
            options: self.options,
            pending: self.pending(),
            current,
            hands: SeatPair::from_array(self.hands.map(Hand::to_vec)),
            points: SeatPair::from_array(self.points),
            rounds: self
                .rounds()
                .iter()
                .map(|r| {
                    let [a, b] = r.numbers();
                    RoundView {
                        round: r.round,
                        worth: r.worth(),
                        starter: r.starter,
                        cards: SeatPair::from_array(r.plays.map(|p| p.cards().to_vec())),
                        numbers: SeatPair { p1: a, p2: b },
                        winner: r.winner(),
                    }
                })
                .collect(),
        }
    }

    fn render(&self, viewer: Viewer) -> String {
        let mut s = String::new();
        match self.ending {
            None => {
                let k = self.round();
                let _ = writeln!(
                    s,
                    "All-In Goofspiel - round {k}, worth {}",
                    Points::from_halves(2 * u16::from(k)).with_unit()
                );
            }
            Some(_) => {
                let _ = writeln!(
                    s,
                    "All-In Goofspiel - over after {} rounds",
                    self.rounds_played
                );
            }
        }
        for r in self.rounds() {
            let side = |seat: Seat| play_words(&r.plays[seat.index()]);
            let result = match r.winner() {
                Some(w) => format!("{w} takes {}", r.worth()),
                None => format!(
                    "tie, {} each",
                    Points::from_halves(u16::from(r.worth())).with_unit()
                ),
            };
            let _ = writeln!(
                s,
                "  round {:>2} (worth {:>2}): {} starts {}; {} answers {}; {result}",
                r.round,
                r.worth(),
                r.starter,
                side(r.starter),
                r.starter.other(),
                side(r.starter.other()),
            );
        }
        let starter = self.starter();
        for seat in Seat::BOTH {
            let me = if viewer == Viewer::Seat(seat) {
                " (you)"
            } else {
                ""
            };
            let hand = self.hands[seat.index()];
            let mut line = format!(
                "{seat}{me}: {}; hand ",
                self.points[seat.index()].with_unit()
            );
            match self.face_down.filter(|_| seat == starter) {
                Some(play) if viewer == Viewer::Seat(seat) => {
                    let rest = hand.without(&play);
                    let _ = write!(
                        line,
                        "{rest} ({}); face down: {}",
                        cards_words(rest.len()),
                        play_words(&play)
                    );
                }
                Some(play) => {
                    let _ = write!(
                        line,
                        "{hand} ({}); face down: {}",
                        cards_words(hand.len()),
                        cards_words(play.len())
                    );
                }
                None => {
                    let _ = write!(line, "{hand} ({})", cards_words(hand.len()));
                }
            }
            let _ = writeln!(s, "{line}");
        }
        match (self.outcome(), self.face_down) {
            (Some(o), _) => {
                let _ = writeln!(s, "Game over: {}", o.reason);
            }
            (None, None) => {
                let _ = writeln!(
                    s,
                    "Now: {starter} puts down cards first, face down (e.g. `10 -1 9`, or `pass`)."
                );
            }
            (None, Some(play)) => {
                let _ = writeln!(
                    s,
                    "Now: {} answers; {starter} put down {} face down.",
                    starter.other(),
                    cards_words(play.len())
                );
            }
        }
        if let Some(seat) = self.actor() {
            if self.hands[seat.index()].is_empty() {
                let _ = writeln!(s, "{seat} has no cards left: its only move is `pass`.");
            }
        }
        s
    }

    /// At a deadline: no cards (the number 0), as the rulings say.
    fn default_move<R: Rng + ?Sized>(&self, seat: Seat, _rng: &mut R) -> Option<Play> {
        (self.actor() == Some(seat)).then_some(Play::PASS)
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<Play, NotationError> {
        text.parse()
    }

    fn format_move(&self, mv: &Play) -> String {
        mv.to_string()
    }

    fn parse_chance(&self, text: &str) -> Result<(), NotationError> {
        Err(NotationError::chance(
            text,
            "All-In Goofspiel has no chance events",
        ))
    }

    fn format_chance(&self, _outcome: &()) -> String {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colosseum_engine::{seeded_rng, AnyGame, Erased, Record, TextStep};
    use proptest::prelude::*;

    /// The number rule written the slow, obvious way: the labels side by side as text, then read
    /// as a chain of subtractions. Independent of [`number`], for cross-checking it.
    fn reference_number(cards: &[i8]) -> i128 {
        let text: String = cards.iter().map(|c| c.to_string()).collect();
        let (first_sign, rest) = match text.strip_prefix('-') {
            Some(rest) => (-1, rest),
            None => (1, text.as_str()),
        };
        rest.split('-')
            .enumerate()
            .map(|(i, term)| {
                let value: i128 = if term.is_empty() {
                    0
                } else {
                    term.parse().unwrap()
                };
                if i == 0 {
                    first_sign * value
                } else {
                    -value
                }
            })
            .sum()
    }

    fn new_game(first: Seat) -> AllInGoofspiel {
        AllInGoofspiel::new(AllInGoofspielOptions { first })
    }

    /// The seat to act makes the move `text`.
    fn step(game: &mut AllInGoofspiel, text: &str) {
        let Pending::One(seat) = game.pending() else {
            panic!("nobody acts: {:?}", game.pending());
        };
        let mv = game.parse_move(seat, text).unwrap();
        game.apply(Step::One { seat, mv })
            .unwrap_or_else(|e| panic!("{seat} `{text}`: {e}"));
    }

    fn hand_of(cards: &[i8]) -> Hand {
        Hand(cards.iter().fold(0, |m, &c| m | Hand::bit(c)))
    }

    /// A game in the middle: `rounds_played` rounds done (their details do not matter here),
    /// these points (in halves) and these hands.
    fn position(rounds_played: u8, halves: [u16; 2], hands: [&[i8]; 2]) -> AllInGoofspiel {
        let mut game = new_game(Seat::P1);
        game.rounds_played = rounds_played;
        game.points = halves.map(Points::from_halves);
        game.hands = hands.map(hand_of);
        game
    }

    #[test]
    fn the_number_rule_table() {
        let table: &[(&[i8], i128)] = &[
            // The seed's and the rulings' examples.
            (&[10, 9], 109),
            (&[3, 1, 2], 312),
            (&[10, -1, 9], -9),
            (&[-3, 5], -35),
            (&[5, -3], 2),
            (&[-1, -2], -3),
            (&[0, 7], 7),
            // The empty list.
            (&[], 0),
            // Single cards.
            (&[0], 0),
            (&[12], 12),
            (&[-3], -3),
            // Leading negatives.
            (&[-2, 12, 11], -21211),
            (&[-1, 0], -10),
            (&[-1, 0, 5], -105),
            // Several negatives.
            (&[-3, -2, -1], -6),
            (&[4, -3, -2, -1], -2),
            (&[12, -3, 4, -2, 10, -1], 12 - 34 - 210 - 1),
            (&[-3, 9, -2, 8, -1, 7], -39 - 28 - 17),
            // Zero first, and zeros inside.
            (&[0, -1], -1),
            (&[0, 12, 0], 120),
            (&[10, 0], 100),
            (&[1, 0, 10], 1010),
            // The longest possible lists: all sixteen cards.
            (
                &[-3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
                -3 - 2 - 10_123_456_789_101_112,
            ),
            (
                &[12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3],
                1_211_109_876_543_210 - 6,
            ),
            (
                &[9, 8, 7, 6, 5, 4, 3, 2, 12, 11, 1, 10, 0, -3, -2, -1],
                LARGEST_NUMBER - 6,
            ),
            (
                &[-3, 9, 8, 7, 6, 5, 4, 3, 2, 12, 11, 1, 10, 0, -2, -1],
                SMALLEST_NUMBER,
            ),
            (&[9, 8, 7, 6, 5, 4, 3, 2, 12, 11, 1, 10, 0], LARGEST_NUMBER),
        ];
        for &(cards, expected) in table {
            assert_eq!(number(cards), expected, "{cards:?}");
            assert_eq!(reference_number(cards), expected, "reference: {cards:?}");
        }
    }

    #[test]
    fn the_extremes_are_what_the_full_hand_can_make_and_fit_easily() {
        // The largest number: all non-negative cards, best order (also what `legal_moves`
        // offers); the smallest: -3 leading that same run, then the other negatives.
        assert_eq!(largest_number_play(Hand::FULL).number(), LARGEST_NUMBER);
        assert_eq!(LARGEST_NUMBER.to_string().len(), 16);
        assert_eq!(
            SMALLEST_NUMBER.to_string().len(),
            18,
            "17 digits and a sign"
        );
        assert!(i128::from(i64::MIN) < SMALLEST_NUMBER && LARGEST_NUMBER < i128::from(i64::MAX));
        // The function is total on anything a `Play` can hold, duplicates included: sixteen
        // 12s are 32 digits side by side.
        let twelves = [12i8; HAND_SIZE];
        assert_eq!(number(&twelves), "12".repeat(16).parse::<i128>().unwrap());
        let minus_threes = [-3i8; HAND_SIZE];
        assert_eq!(number(&minus_threes), -48);
    }

    proptest! {
        #[test]
        fn number_matches_the_text_reading(cards in proptest::collection::vec(-3i8..=12, 0..=16)) {
            prop_assert_eq!(number(&cards), reference_number(&cards));
        }

        #[test]
        fn legal_plays_lie_between_the_extremes(
            deck in Just((LOWEST_CARD..=HIGHEST_CARD).collect::<Vec<i8>>()).prop_shuffle(),
            len in 0usize..=16,
        ) {
            let n = number(&deck[..len]);
            prop_assert!((SMALLEST_NUMBER..=LARGEST_NUMBER).contains(&n), "{:?} = {}", &deck[..len], n);
        }
    }

    #[test]
    fn notation_round_trips_and_reads_pass_and_commas() {
        let g = new_game(Seat::P1);
        for (text, canonical) in [
            ("10 -1 9", "10 -1 9"),
            ("  10,-1 , 9 ", "10 -1 9"),
            ("pass", "pass"),
            ("PASS", "pass"),
            ("", "pass"),
            ("   ", "pass"),
            ("+5 007", "5 7"),
            (
                "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12",
                "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12",
            ),
        ] {
            let mv = g.parse_move(Seat::P1, text).unwrap();
            assert_eq!(g.format_move(&mv), canonical, "{text:?}");
            assert_eq!(g.parse_move(Seat::P1, canonical).unwrap(), mv);
        }
        assert_eq!(g.parse_move(Seat::P1, "").unwrap(), Play::PASS);
        assert_eq!(
            g.parse_move(Seat::P1, "10 -1 9").unwrap(),
            Play::new(&[10, -1, 9]).unwrap()
        );
    }

    #[test]
    fn text_that_is_not_a_move_says_why() {
        let g = new_game(Seat::P1);
        for (text, message) in [
            (
                "13",
                "`13` is not a move: there is no card 13: the cards run from -3 to 12",
            ),
            (
                "5 -4",
                "`5 -4` is not a move: there is no card -4: the cards run from -3 to 12",
            ),
            (
                "ten",
                "`ten` is not a move: `ten` is not a card; write the cards in order as numbers \
                 from -3 to 12, e.g. `10 -1 9`, or `pass` for none",
            ),
            (
                "pass 5",
                "`pass 5` is not a move: `pass` stands alone, without cards",
            ),
            (
                "99999999999999999999",
                "`99999999999999999999` is not a move: `99999999999999999999` is not a card",
            ),
        ] {
            let e = g.parse_move(Seat::P1, text).unwrap_err();
            assert!(e.to_string().starts_with(message), "{text}: {e}");
        }
        let seventeen = "1 ".repeat(17);
        let e = g.parse_move(Seat::P1, &seventeen).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("that is 17 cards, and a hand never holds more than 16"),
            "{e}"
        );
        assert!(g.parse_chance("1").is_err());
    }

    #[test]
    fn illegal_moves_are_refused_with_the_reason_and_change_nothing() {
        let mut g = new_game(Seat::P1);
        step(&mut g, "10 9");
        step(&mut g, "3 1 2");
        // Round 2: p2 starts.
        let before = format!("{g:?}");
        let refuse = |g: &mut AllInGoofspiel, seat: Seat, text: &str| {
            let mv = g.parse_move(seat, text).unwrap();
            g.apply(Step::One { seat, mv }).unwrap_err().to_string()
        };
        assert_eq!(
            refuse(&mut g, Seat::P2, "12 3"),
            "p2: not legal here: you have no 3; your hand is -3 -2 -1 0 4 5 6 7 8 9 10 11 12"
        );
        assert_eq!(
            refuse(&mut g, Seat::P2, "5 4 5"),
            "p2: not legal here: you put down 5 twice"
        );
        // Out of turn: the typed step names the actors; check_move says whose turn it is.
        assert_eq!(
            refuse(&mut g, Seat::P1, "5"),
            "this step gives a move for p1 alone, but the game waits for p2 alone"
        );
        assert_eq!(
            g.check_move(Seat::P1, &Play::PASS).unwrap_err().reason,
            "it is not your turn: p2 puts down cards first in round 2"
        );
        assert!(g.apply(Step::Chance(())).is_err());
        assert_eq!(format!("{g:?}"), before, "a refused step changes nothing");
        step(&mut g, "12");
        assert_eq!(
            g.check_move(Seat::P2, &Play::PASS).unwrap_err().reason,
            "it is not your turn: p1 answers in round 2"
        );
        // The responder is checked against its own hand (p1 played 10 and 9 in round 1).
        assert_eq!(
            refuse(&mut g, Seat::P1, "9"),
            "p1: not legal here: you have no 9; your hand is -3 -2 -1 0 1 2 3 4 5 6 7 8 11 12"
        );
    }

    #[test]
    fn out_of_turn_and_bad_text_through_the_dynamic_interface() {
        let mut g = Erased(new_game(Seat::P1));
        let e = g.check_move(Seat::P2, "5").unwrap_err();
        assert_eq!(
            e.to_string(),
            "this step gives a move for p2, but the game waits for p1 alone"
        );
        let e = g.apply(&TextStep::one(Seat::P2, "5")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "this step gives a move for p2 alone, but the game waits for p1 alone"
        );
        let e = g.check_move(Seat::P1, "13").unwrap_err();
        assert!(matches!(e, StepError::NotAMove { .. }), "{e}");
        let e = g.check_move(Seat::P1, "4 4").unwrap_err();
        assert!(matches!(e, StepError::Illegal { .. }), "{e}");
        assert_eq!(g.check_move(Seat::P1, "10,-1,9").unwrap(), "10 -1 9");
        g.apply(&TextStep::both("1", "2")).unwrap_err();
    }

    #[test]
    fn rounds_alternate_and_points_split_exactly() {
        let mut g = new_game(Seat::P2);
        assert_eq!(g.pending(), Pending::One(Seat::P2));
        step(&mut g, "10 9"); // p2: 109
        assert_eq!(g.pending(), Pending::One(Seat::P1));
        step(&mut g, "3 1 2"); // p1: 312 takes round 1
        assert_eq!(g.points(), [Points::from_halves(2), Points::default()]);
        assert_eq!(g.pending(), Pending::One(Seat::P1), "p1 starts round 2");
        step(&mut g, "5 -3"); // p1: 2
        step(&mut g, "2"); // p2: 2, a tie: 1 each
        assert_eq!(g.points().map(Points::halves), [4, 2]);
        step(&mut g, "pass"); // round 3, p2 starts: 0
        step(&mut g, ""); // p1: 0, a tie: 1.5 each
        assert_eq!(g.points().map(Points::halves), [7, 5]);
        let score = g.score();
        assert_eq!(score.p1.to_string(), "3.5");
        assert_eq!(score.p2.to_string(), "2.5");
        assert_eq!(g.round(), 4);
        let r = &g.rounds()[0];
        assert_eq!(
            (r.starter, r.numbers(), r.winner()),
            (Seat::P2, [312, 109], Some(Seat::P1))
        );
        assert_eq!(g.rounds()[1].winner(), None);
        assert_eq!(g.hand(Seat::P1).len(), 11);
        assert_eq!(
            g.hand(Seat::P2).to_vec(),
            [-3, -2, -1, 0, 1, 3, 4, 5, 6, 7, 8, 11, 12]
        );
    }

    #[test]
    fn points_are_json_integers_when_whole_and_halves_otherwise() {
        assert_eq!(Points::from_halves(28).to_json().to_string(), "14");
        assert_eq!(Points::from_halves(29).to_json().to_string(), "14.5");
        assert_eq!(Points::from_halves(0).to_json().to_string(), "0");
        assert_eq!(Points::from_halves(1).to_string(), "0.5");
        assert_eq!(
            serde_json::to_string(&[Points::from_halves(29), Points::from_halves(56)]).unwrap(),
            "[14.5,28]"
        );
        assert!(Points::from_halves(56).at_least(28));
        assert!(!Points::from_halves(55).at_least(28));
    }

    /// Round 8 is worth 8 and p2 starts it (first = p1).
    fn round_eight(halves: [u16; 2], hands: [&[i8]; 2], p2: &str, p1: &str) -> AllInGoofspiel {
        let mut g = position(7, halves, hands);
        assert_eq!((g.round(), g.starter()), (8, Seat::P2));
        step(&mut g, p2);
        step(&mut g, p1);
        g
    }

    fn result(g: &AllInGoofspiel) -> (Option<Seat>, String) {
        assert_eq!(g.pending(), Pending::Over);
        let o = g.outcome().unwrap();
        (o.winner, o.reason)
    }

    #[test]
    fn reaching_28_with_an_empty_hand_wins() {
        let g = round_eight([40, 30], [&[5], &[-3, 0]], "pass", "5");
        assert_eq!(
            result(&g),
            (
                Some(Seat::P1),
                "p1 reached 28 points with an empty hand".to_string()
            )
        );
        // Also when the other hand is empty too: one player at 28 settles it.
        let g = round_eight([40, 30], [&[5], &[-3]], "-3", "5");
        assert_eq!(result(&g).0, Some(Seat::P1));
    }

    #[test]
    fn reaching_28_with_cards_left_loses() {
        let g = round_eight([40, 30], [&[5, 6], &[-3, 0]], "pass", "5");
        assert_eq!(
            result(&g),
            (
                Some(Seat::P2),
                "p1 reached 28 points with 1 card left, so p2 wins".to_string()
            )
        );
        let g = round_eight([30, 47], [&[5, 6], &[-3, 0, 12]], "12", "5");
        assert_eq!(
            result(&g),
            (
                Some(Seat::P1),
                "p2 reached 31.5 points with 2 cards left, so p1 wins".to_string()
            )
        );
    }

    #[test]
    fn both_reaching_28_on_a_split_each_combination() {
        // Both at 24; round 8 tied (p2 `2 -2` = 0, p1 `1 -1` = 0) gives 4 each: both at 28.
        type Case = ([&'static [i8]; 2], Option<Seat>, &'static str);
        let cases: [Case; 4] = [
            (
                [&[-1, 1], &[-2, 2]],
                None,
                "both reached 28 points or more with empty hands (p1 28, p2 28): a draw",
            ),
            (
                [&[-1, 1, 7], &[-2, 2, 7]],
                None,
                "both reached 28 points or more with cards left (p1 28, p2 28): a draw",
            ),
            (
                [&[-1, 1], &[-2, 2, 7]],
                Some(Seat::P1),
                "p1 reached 28 points with an empty hand; p2 reached 28 points with 1 card left",
            ),
            (
                [&[-1, 1, 6, 7], &[-2, 2]],
                Some(Seat::P2),
                "p2 reached 28 points with an empty hand; p1 reached 28 points with 2 cards left",
            ),
        ];
        for (hands, winner, reason) in cases {
            let g = round_eight([48, 48], hands, "2 -2", "1 -1");
            assert_eq!(g.rounds().last().unwrap().winner(), None, "a split");
            assert_eq!(result(&g), (winner, reason.to_string()), "{hands:?}");
        }
    }

    #[test]
    fn both_hands_empty_before_anyone_reaches_28_is_a_draw() {
        let mut g = new_game(Seat::P1);
        step(&mut g, "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12");
        step(&mut g, "12 11 10 9 8 7 6 5 4 3 2 1 0 -1 -2 -3");
        assert_eq!(
            result(&g),
            (
                None,
                "both hands are empty and nobody reached 28 points (p1 0, p2 1): a draw"
                    .to_string()
            )
        );
        assert_eq!(g.score().details["cards_left"], json!({"p1": 0, "p2": 0}));
        assert!(g.view(Viewer::Spectator).current.is_none());
        assert!(g
            .render(Viewer::Spectator)
            .contains("Game over: both hands are empty"));
        // Later: one hand emptied first, the other passes its way down and empties later.
        let mut g = new_game(Seat::P1);
        step(&mut g, "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12");
        step(&mut g, "12");
        assert_eq!(g.pending(), Pending::One(Seat::P2));
        let mut moves = Vec::new();
        g.legal_moves(Seat::P1, &mut moves);
        assert!(moves.is_empty(), "p1 does not act now");
        step(&mut g, "pass");
        // p1 has no cards: its only move is a pass, and it is still asked.
        assert_eq!(g.pending(), Pending::One(Seat::P1));
        g.legal_moves(Seat::P1, &mut moves);
        assert_eq!(moves, [Play::PASS]);
        assert!(g
            .render(Viewer::Seat(Seat::P1))
            .contains("p1 has no cards left: its only move is `pass`."));
        assert_eq!(
            g.check_move(Seat::P1, &Play::new(&[5]).unwrap())
                .unwrap_err()
                .reason,
            "you have no 5; your hand is empty"
        );
        step(&mut g, "pass");
        assert_eq!(
            g.points().map(Points::halves),
            [2, 4],
            "round 1 to p2, round 2 split"
        );
        step(&mut g, "pass");
        step(&mut g, "-3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11");
        assert_eq!(result(&g).0, None);
        assert_eq!(g.rounds().len(), 3);
    }

    #[test]
    fn the_rules_page_example_replays_to_its_stated_end() {
        let json = RULES
            .split("```json")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .expect("the rules page has a JSON record");
        let record = Record::from_json(json).unwrap();
        let replayed = crate::replay_record(&record).unwrap().unwrap();
        let game = replayed.game;
        assert_eq!(game.pending(), Pending::Over);
        assert_eq!(replayed.applied.len(), 20);
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.winner, Some(Seat::P2));
        assert_eq!(outcome.reason, "p2 reached 32.5 points with an empty hand");
        let score = serde_json::to_value(game.score()).unwrap();
        assert_eq!(
            score,
            json!({"p1": 22.5, "p2": 32.5, "cards_left": {"p1": 0, "p2": 0}, "rounds_played": 10})
        );
        let view = game.view_json(Viewer::Spectator);
        assert_eq!(view["rounds"][4]["numbers"], json!({"p1": 5, "p2": 5}));
        assert_eq!(view["rounds"][9]["numbers"], json!({"p1": 109, "p2": 4108}));
        assert_eq!(view["points"], json!({"p1": 22.5, "p2": 32.5}));
    }

    #[test]
    fn the_face_down_cards_are_shown_to_the_starter_only() {
        let mut g = new_game(Seat::P1);
        step(&mut g, "10 9");
        let starter = g.view(Viewer::Seat(Seat::P1));
        let current = starter.current.unwrap();
        assert_eq!(current.face_down_count, Some(2));
        assert_eq!(current.face_down_cards, Some(vec![10, 9]));
        for viewer in [Viewer::Seat(Seat::P2), Viewer::Spectator] {
            let v = g.view(viewer);
            let current = v.current.clone().unwrap();
            assert_eq!(current.face_down_count, Some(2));
            assert_eq!(current.face_down_cards, None);
            assert_eq!(
                v.hands.p1.len(),
                16,
                "the hand shows no trace of the face-down cards"
            );
            let text = serde_json::to_string(&v).unwrap();
            assert!(!text.contains("109"), "{text}");
            let shown = g.render(viewer);
            assert!(shown.contains("p1: 0 points; hand -3 -2 -1 0 1 2 3 4 5 6 7 8 9 10 11 12 (16 cards); face down: 2 cards"), "{shown}");
            assert!(!shown.contains("109"), "{shown}");
        }
        let shown = g.render(Viewer::Seat(Seat::P1));
        assert!(shown.contains("p1 (you): 0 points; hand -3 -2 -1 0 1 2 3 4 5 6 7 8 11 12 (14 cards); face down: 10 9 = 109"), "{shown}");
        assert!(
            shown.contains("Now: p2 answers; p1 put down 2 cards face down."),
            "{shown}"
        );
        step(&mut g, "3 1 2");
        let shown = g.render(Viewer::Spectator);
        assert!(
            shown.contains(
                "round  1 (worth  1): p1 starts 10 9 = 109; p2 answers 3 1 2 = 312; p2 takes 1"
            ),
            "{shown}"
        );
        assert!(
            shown.contains("p2: 1 point; hand -3 -2 -1 0 4 5 6 7 8 9 10 11 12 (13 cards)"),
            "{shown}"
        );
        assert!(
            shown.contains("All-In Goofspiel - round 2, worth 2 points"),
            "{shown}"
        );
    }

    /// Plays random rounds (any number of cards, uniformly) until the starter of a round is to
    /// act, `rounds` times or until the game ends.
    fn random_prefix(first: Seat, rounds: usize, seed: u64) -> AllInGoofspiel {
        let mut g = new_game(first);
        let mut rng = seeded_rng(seed);
        for _ in 0..2 * rounds {
            let Pending::One(seat) = g.pending() else {
                break;
            };
            let mv = g.random_move_any_count(seat, &mut rng).unwrap();
            g.apply(Step::One { seat, mv }).unwrap();
        }
        g
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn before_the_reveal_the_responder_and_spectators_see_only_the_count(
            seed in any::<u64>(),
            rounds in 0usize..8,
            first in prop_oneof![Just(Seat::P1), Just(Seat::P2)],
            count in 0usize..=16,
            choices in any::<(u64, u64)>(),
        ) {
            let g = random_prefix(first, rounds, seed);
            let Pending::One(starter) = g.pending() else { return Ok(()) };
            let hand = g.hand(starter);
            let count = count.min(hand.len());
            let plays = [choices.0, choices.1]
                .map(|s| random_ordered_list(hand, count, &mut seeded_rng(s)));
            let after = plays.map(|play| {
                let mut g = g.clone();
                g.apply(Step::One { seat: starter, mv: play }).unwrap();
                g
            });
            for viewer in [Viewer::Seat(starter.other()), Viewer::Spectator] {
                let views = after.each_ref().map(|g| serde_json::to_string(&g.view(viewer)).unwrap());
                prop_assert_eq!(&views[0], &views[1]);
                prop_assert_eq!(after[0].render(viewer), after[1].render(viewer));
                prop_assert_eq!(format!("{:?}", after[0].score()), format!("{:?}", after[1].score()));
            }
            for (g, play) in after.iter().zip(plays) {
                let own = g.view(Viewer::Seat(starter)).current.unwrap();
                prop_assert_eq!(own.face_down_cards, Some(play.cards().to_vec()));
            }
        }

        #[test]
        fn every_game_ends_by_round_11_with_the_rule_applied(
            seed in any::<u64>(),
            first in prop_oneof![Just(Seat::P1), Just(Seat::P2)],
            uniform in any::<bool>(),
        ) {
            let mut g = new_game(first);
            let mut rng = seeded_rng(seed);
            let mut decisions = 0;
            while let Pending::One(seat) = g.pending() {
                let mv = if uniform {
                    g.random_move(seat, &mut rng).unwrap()
                } else {
                    g.random_move_any_count(seat, &mut rng).unwrap()
                };
                g.apply(Step::One { seat, mv }).unwrap();
                decisions += 1;
                prop_assert!(decisions <= 2 * MAX_ROUNDS);
            }
            prop_assert_eq!(g.pending(), Pending::Over);
            prop_assert_eq!(decisions, 2 * g.rounds().len());
            // Points: every round's worth handed out in full.
            let worth: u16 = g.rounds().iter().map(|r| 2 * u16::from(r.worth())).sum();
            prop_assert_eq!(g.points()[0].halves() + g.points()[1].halves(), worth);
            // Hands: the full hand minus every card put down, each at most once.
            for seat in Seat::BOTH {
                let mut left = Hand::FULL.0;
                for r in g.rounds() {
                    let mask = r.plays[seat.index()].mask();
                    prop_assert_eq!(left & mask, mask);
                    left &= !mask;
                }
                prop_assert_eq!(g.hand(seat), Hand(left));
            }
            // The outcome, recomputed from the rule as written.
            let reached = g.points().map(|p| p.at_least(28));
            let empty = [g.hand(Seat::P1).is_empty(), g.hand(Seat::P2).is_empty()];
            let expected = match reached {
                [false, false] => {
                    prop_assert!(empty[0] && empty[1]);
                    None
                }
                [true, false] => Some(if empty[0] { Seat::P1 } else { Seat::P2 }),
                [false, true] => Some(if empty[1] { Seat::P2 } else { Seat::P1 }),
                [true, true] => match empty {
                    [true, false] => Some(Seat::P1),
                    [false, true] => Some(Seat::P2),
                    _ => None,
                },
            };
            prop_assert_eq!(g.outcome().unwrap().winner, expected);
            // Nobody had 28 before the last round (else the game would have ended then).
            prop_assert!(g.rounds().len() <= MAX_ROUNDS);
        }
    }

    #[test]
    fn random_moves_are_uniform_over_all_ordered_lists() {
        // A hand of three cards has 1 + 3 + 6 + 6 = 16 moves.
        let g = position(2, [0, 0], [&[0, 5, 12], &[1]]);
        assert_eq!(ALL_ORDERED_LISTS[3], 16);
        let mut rng = seeded_rng(11);
        let mut counts = std::collections::HashMap::new();
        let draws = 64_000;
        for _ in 0..draws {
            let mv = g.random_move(Seat::P1, &mut rng).unwrap();
            g.check_move(Seat::P1, &mv).unwrap();
            *counts.entry(mv).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 16);
        for (mv, n) in counts {
            // Expected 4000, standard deviation about 61.
            assert!((3600..=4400).contains(&n), "{mv}: {n}");
        }
        // A full hand: lists of 15 or 16 cards are 2 * 16! of the 56,874,039,553,217 moves.
        assert_eq!(ALL_ORDERED_LISTS[HAND_SIZE], 56_874_039_553_217);
        let g = new_game(Seat::P1);
        let long = (0..20_000)
            .filter(|_| g.random_move(Seat::P1, &mut rng).unwrap().len() >= 15)
            .count();
        let expected = 2.0 * 20_922_789_888_000.0 / 56_874_039_553_217.0 * 20_000.0;
        assert!(
            (f64::from(long as u32) - expected).abs() < 400.0,
            "{long} vs {expected}"
        );
        assert_eq!(
            g.random_move(Seat::P2, &mut rng),
            None,
            "p2 does not act now"
        );
    }

    #[test]
    fn legal_moves_are_a_representative_accepted_subset() {
        let g = position(2, [0, 0], [&[-2, 0, 1, 10, 12], &[1]]);
        let mut moves = Vec::new();
        g.legal_moves(Seat::P1, &mut moves);
        let texts: Vec<String> = moves.iter().map(|m| g.format_move(m)).collect();
        assert_eq!(
            texts,
            [
                "pass",
                "12",
                "10",
                "1",
                "0",
                "-2",
                "12 1 10 0",
                "12 1 10 0 -2"
            ]
        );
        for mv in &moves {
            g.check_move(Seat::P1, mv).unwrap();
        }
        assert_eq!(
            g.default_move(Seat::P1, &mut seeded_rng(0)),
            Some(Play::PASS)
        );
        assert_eq!(g.default_move(Seat::P2, &mut seeded_rng(0)), None);
        // One card: no duplicates in the list.
        let g = position(2, [0, 0], [&[7], &[1]]);
        let mut moves = Vec::new();
        g.legal_moves(Seat::P1, &mut moves);
        assert_eq!(moves, [Play::PASS, Play::new(&[7]).unwrap()]);
    }

    #[test]
    fn cards_ordered_for_the_largest_number() {
        let mut cards = [-2, 10, 1, 9, -3, 12, 11, 0];
        order_for_largest(&mut cards);
        // 1 and 11 read "111" either way: they keep the order given.
        assert_eq!(cards, [9, 12, 1, 11, 10, 0, -2, -3]);
        assert_eq!(number(&cards), 912_111_100 - 2 - 3);
    }

    #[test]
    fn another_face_down_play_must_look_the_same_to_the_responder() {
        let mut game = new_game(Seat::P1);
        // Nothing face down yet: nothing to replace.
        assert!(game.with_face_down(Play::new(&[12]).unwrap()).is_none());
        step(&mut game, "12 11");
        let responder_view =
            |g: &AllInGoofspiel| serde_json::to_value(g.view(Viewer::Seat(Seat::P2))).unwrap();
        // The same count from the starter's hand: the responder sees no difference.
        let other = game.with_face_down(Play::new(&[-3, 5]).unwrap()).unwrap();
        assert_eq!(other.face_down, Play::new(&[-3, 5]));
        assert_eq!(responder_view(&other), responder_view(&game));
        // Another count, or a card the starter does not hold, is refused.
        assert!(game.with_face_down(Play::new(&[5]).unwrap()).is_none());
        let mut short = game.clone();
        short.hands[0] = hand_of(&[1, 2, 3]);
        short.face_down = Play::new(&[1, 2]);
        assert!(short.with_face_down(Play::new(&[1, 7]).unwrap()).is_none());
        // Taking the cards back gives the starter its decision again, hand unchanged.
        let before = game.before_face_down();
        assert_eq!(before.pending(), Pending::One(Seat::P1));
        assert_eq!(before.hand(Seat::P1), game.hand(Seat::P1));
        let fresh = new_game(Seat::P1);
        for seat in Seat::BOTH {
            assert_eq!(
                serde_json::to_value(before.view(Viewer::Seat(seat))).unwrap(),
                serde_json::to_value(fresh.view(Viewer::Seat(seat))).unwrap()
            );
        }
    }

    #[test]
    fn determinize_redraws_only_what_the_seat_cannot_see() {
        let mut a = new_game(Seat::P1);
        let mut b = new_game(Seat::P1);
        step(&mut a, "12 11 10");
        step(&mut b, "-3 5 7");
        let mut seen = std::collections::HashSet::new();
        for seed in 0..50 {
            let da = a.determinize(Seat::P2, &mut colosseum_engine::seeded_rng(seed));
            let db = b.determinize(Seat::P2, &mut colosseum_engine::seeded_rng(seed));
            // Same view for p2, same rng: the same state.
            assert_eq!(da.face_down, db.face_down);
            let p2_view =
                |g: &AllInGoofspiel| serde_json::to_value(g.view(Viewer::Seat(Seat::P2))).unwrap();
            assert_eq!(p2_view(&da), p2_view(&a));
            let play = da.face_down.unwrap();
            assert_eq!(play.len(), 3);
            assert!(play.cards().iter().all(|&c| a.hand(Seat::P1).contains(c)));
            seen.insert(play.cards().to_vec());
        }
        assert!(
            seen.len() > 40,
            "the face-down cards are redrawn: {}",
            seen.len()
        );
        // The starter sees its own cards: nothing changes.
        let own = a.determinize(Seat::P1, &mut colosseum_engine::seeded_rng(0));
        assert_eq!(own.face_down, a.face_down);
    }

    #[test]
    fn options_are_checked() {
        let raw = colosseum_engine::parse_pairs(["first=p2"]).unwrap();
        let g = AllInGoofspiel::from_raw(&raw).unwrap();
        assert_eq!(g.pending(), Pending::One(Seat::P2));
        let raw = colosseum_engine::parse_pairs(["first=p3"]).unwrap();
        assert_eq!(
            AllInGoofspiel::from_raw(&raw).unwrap_err().to_string(),
            "option `first` = \"p3\" is not allowed: p1 or p2"
        );
        let raw = colosseum_engine::parse_pairs(["cards=8"]).unwrap();
        assert_eq!(
            AllInGoofspiel::from_raw(&raw).unwrap_err().to_string(),
            "unknown option `cards`; this game's options are: first"
        );
    }
}

//! Cards and the numbers they make: [`number`], hands as 16-bit sets, a play (an ordered list
//! of cards) with its notation, points in halves, and the random and largest plays.

use super::*;

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
pub struct Hand(pub(super) u16);

impl Hand {
    /// All sixteen cards.
    pub const FULL: Hand = Hand(u16::MAX);
    /// No cards.
    pub const EMPTY: Hand = Hand(0);

    pub(super) fn bit(card: i8) -> u16 {
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

    pub(super) fn without(self, play: &Play) -> Hand {
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
    pub(super) cards: [i8; HAND_SIZE],
    pub(super) len: u8,
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

    pub(super) fn mask(&self) -> u16 {
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

/// Reads a move: cards in order separated by spaces or commas (`10 -1 9`, `10,-1,9`), or a pass
/// word for no cards (`pass`, `none`, `no submission`, any case: [`crate::text::is_pass`]). An
/// empty text is not a move (a pass is said on purpose), nor is a card that does not exist
/// (13, -4); a card given twice or not in the hand is a move that [`Game::check_move`] refuses.
impl FromStr for Play {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Play, NotationError> {
        let tokens = || {
            text.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
        };
        let mut play = Play::PASS;
        if crate::text::is_pass(text) {
            return Ok(play);
        }
        let count = tokens().count();
        if count == 0 {
            return Err(NotationError::mv(
                text,
                crate::text::empty_submission(&format!(
                    "write the cards in order as numbers from {LOWEST_CARD} to {HIGHEST_CARD}, \
                     e.g. `10 -1 9`, or `pass` to put down none"
                )),
            ));
        }
        if count > HAND_SIZE {
            return Err(NotationError::mv(
                text,
                format!("that is {count} cards, and a hand never holds more than {HAND_SIZE}"),
            ));
        }
        for token in tokens() {
            let card: i64 = token.parse().map_err(|_| {
                let why = if crate::text::PASS_WORDS
                    .iter()
                    .any(|w| token.eq_ignore_ascii_case(w))
                    || token.eq_ignore_ascii_case("no")
                {
                    "a pass (`pass`, `none`, `no submission`) stands alone, without cards"
                        .to_string()
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
    pub(super) halves: u16,
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
    pub(super) fn with_unit(self) -> String {
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

/// `ORDERED_LISTS[n][k]` = n!/(n-k)!: the ordered lists of k distinct cards from n cards.
pub(super) const ORDERED_LISTS: [[u64; HAND_SIZE + 1]; HAND_SIZE + 1] = {
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
pub(super) const ALL_ORDERED_LISTS: [u64; HAND_SIZE + 1] = {
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
pub(super) fn random_ordered_list<R: Rng + ?Sized>(hand: Hand, count: usize, rng: &mut R) -> Play {
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
pub(super) fn uniform_play<R: Rng + ?Sized>(hand: Hand, rng: &mut R) -> Play {
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
pub(super) fn largest_number_play(hand: Hand) -> Play {
    let mut cards: Vec<i8> = hand.iter().filter(|&c| c >= 0).collect();
    order_for_largest(&mut cards);
    Play::new(&cards).unwrap_or_default()
}

//! The 18 victory conditions as functions of a [`Sight`], and [`Condition`] and
//! [`ConditionSet`], the names `1A`..`3F` and sets of them.
//!
//! "Empty spaces do not count": wherever a condition asks for cells to hold certain stones, each
//! such cell must hold one of them.

use super::*;

/// 1A: a horizontal, vertical or diagonal line of five, each stone yours or neutral.
#[must_use]
pub fn five_in_a_row_own_or_neutral(s: &Sight) -> bool {
    has_line(s.own | s.gray, 5)
}

/// 1B: a 3×3 square holding at least five stones of yours.
#[must_use]
pub fn five_of_yours_in_a_3x3(s: &Sight) -> bool {
    SQUARES_3X3.iter().any(|&sq| (s.own & sq).count_ones() >= 5)
}

/// 1C: at least six stones of yours on row 3 or on row 4.
#[must_use]
pub fn six_on_row_3_or_4(s: &Sight) -> bool {
    (s.own & row_mask(2)).count_ones() >= 6 || (s.own & row_mask(3)).count_ones() >= 6
}

/// 1D: an opponent's stone not bordering an edge with all four diagonal neighbours yours or
/// neutral.
#[must_use]
pub fn opponent_diagonally_surrounded(s: &Sight) -> bool {
    s.opponent & INTERIOR & diagonals_in(s.own | s.gray) != 0
}

/// 1E: a horizontal, vertical or diagonal line of four frozen stones (any colours).
#[must_use]
pub fn four_frozen_in_a_row(s: &Sight) -> bool {
    has_line(s.frozen, 4)
}

/// 1F: at least four frozen neutral stones.
#[must_use]
pub fn four_frozen_neutrals(s: &Sight) -> bool {
    (s.frozen & s.gray).count_ones() >= 4
}

/// 2A: a horizontal, vertical or diagonal line of four stones of yours.
#[must_use]
pub fn four_in_a_row_own(s: &Sight) -> bool {
    has_line(s.own, 4)
}

/// 2B: a 2×2 square of stones of yours.
#[must_use]
pub fn square_own(s: &Sight) -> bool {
    has_square(s.own)
}

/// 2C: an opponent's stone not bordering an edge with all four orthogonal neighbours yours or
/// neutral.
#[must_use]
pub fn opponent_orthogonally_surrounded(s: &Sight) -> bool {
    s.opponent & INTERIOR & orthogonals_in(s.own | s.gray) != 0
}

/// 2D: strictly more of your stones than the opponent's on the four corners.
#[must_use]
pub fn more_corners(s: &Sight) -> bool {
    (s.own & CORNERS).count_ones() > (s.opponent & CORNERS).count_ones()
}

/// 2E: at least three stones of yours on column 4 (`d`).
#[must_use]
pub fn three_on_column_4(s: &Sight) -> bool {
    (s.own & column_mask(3)).count_ones() >= 3
}

/// 2F: more frozen stones of the opponent's colour than of yours.
#[must_use]
pub fn more_opponent_frozen(s: &Sight) -> bool {
    (s.opponent & s.frozen).count_ones() > (s.own & s.frozen).count_ones()
}

/// 3A: a stone of yours, not in a corner, whose orthogonal neighbours (three on an edge, four
/// inside) are all yours.
#[must_use]
pub fn own_stone_orthogonally_enclosed(s: &Sight) -> bool {
    let o = s.own;
    // A neighbour is fine if it is yours or off the grid.
    let left_ok = east(o) | COLUMN_A;
    let right_ok = west(o) | COLUMN_G;
    let up_ok = south(o) | ROW_1;
    let down_ok = north(o) | ROW_6;
    o & !CORNERS & left_ok & right_ok & up_ok & down_ok != 0
}

/// 3B: a stone of yours not bordering an edge with all four diagonal neighbours yours.
#[must_use]
pub fn own_stone_diagonally_enclosed(s: &Sight) -> bool {
    s.own & INTERIOR & diagonals_in(s.own) != 0
}

/// 3C: a 2×2 square of neutral stones.
#[must_use]
pub fn square_neutral(s: &Sight) -> bool {
    has_square(s.gray)
}

/// 3D: a whole column (six cells) of stones that are yours or neutral.
#[must_use]
pub fn column_own_or_neutral(s: &Sight) -> bool {
    let m = s.own | s.gray;
    (0..COLUMNS).any(|c| m & column_mask(c) == column_mask(c))
}

/// 3E: a whole row (seven cells) of stones that are yours or neutral.
#[must_use]
pub fn row_own_or_neutral(s: &Sight) -> bool {
    let m = s.own | s.gray;
    (0..ROWS).any(|r| m & row_mask(r) == row_mask(r))
}

/// 3F: a horizontal, vertical or diagonal line of four neutral stones.
#[must_use]
pub fn four_in_a_row_neutral(s: &Sight) -> bool {
    has_line(s.gray, 4)
}

pub(super) type ConditionCheck = fn(&Sight) -> bool;

pub(super) const CONDITION_CHECKS: [ConditionCheck; CONDITION_COUNT as usize] = [
    conditions::five_in_a_row_own_or_neutral,
    conditions::five_of_yours_in_a_3x3,
    conditions::six_on_row_3_or_4,
    conditions::opponent_diagonally_surrounded,
    conditions::four_frozen_in_a_row,
    conditions::four_frozen_neutrals,
    conditions::four_in_a_row_own,
    conditions::square_own,
    conditions::opponent_orthogonally_surrounded,
    conditions::more_corners,
    conditions::three_on_column_4,
    conditions::more_opponent_frozen,
    conditions::own_stone_orthogonally_enclosed,
    conditions::own_stone_diagonally_enclosed,
    conditions::square_neutral,
    conditions::column_own_or_neutral,
    conditions::row_own_or_neutral,
    conditions::four_in_a_row_neutral,
];

pub(super) const CONDITION_TEXTS: [&str; CONDITION_COUNT as usize] = [
    "five in a row of your or neutral stones",
    "a 3x3 square with at least five of your stones",
    "at least six of your stones on row 3 or row 4",
    "an opponent's inner stone with all diagonal neighbours yours or neutral",
    "four frozen stones in a row",
    "at least four frozen neutral stones",
    "four of your stones in a row",
    "a 2x2 square of your stones",
    "an opponent's inner stone with all orthogonal neighbours yours or neutral",
    "more of your stones than the opponent's on the corners",
    "at least three of your stones on column 4 (d)",
    "more frozen opponent's stones than frozen stones of yours",
    "a non-corner stone of yours with all orthogonal neighbours yours",
    "an inner stone of yours with all diagonal neighbours yours",
    "a 2x2 square of neutral stones",
    "a column of your or neutral stones",
    "a row of your or neutral stones",
    "four neutral stones in a row",
];

/// A victory condition, `1A`..`3F`; its leading digit is its worth in victory points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Condition(pub(super) u8);

impl Condition {
    /// The condition with index 0 (`1A`) .. 17 (`3F`).
    #[must_use]
    pub fn from_index(i: u8) -> Option<Condition> {
        (i < CONDITION_COUNT).then_some(Condition(i))
    }

    /// 0 (`1A`) .. 17 (`3F`).
    #[must_use]
    pub fn index(self) -> u8 {
        self.0
    }

    /// Victory points for meeting it: the leading digit.
    #[must_use]
    pub fn points(self) -> u32 {
        u32::from(self.0 / 6 + 1)
    }

    /// Whether it holds for the seat that sees the grid as `sight` (bots check imagined grids
    /// this way).
    #[must_use]
    pub fn holds(self, sight: &Sight) -> bool {
        CONDITION_CHECKS[usize::from(self.0)](sight)
    }

    /// What it asks for, in a short phrase.
    #[must_use]
    pub fn text(self) -> &'static str {
        CONDITION_TEXTS[usize::from(self.0)]
    }

    pub(super) fn bit(self) -> u32 {
        1 << self.0
    }

    /// Parses `1a`..`3f`, case-insensitive.
    #[must_use]
    pub fn parse(text: &str) -> Option<Condition> {
        let b = text.trim().as_bytes();
        if b.len() != 2 {
            return None;
        }
        let tier = b[0].checked_sub(b'1')?;
        let letter = b[1].to_ascii_uppercase().checked_sub(b'A')?;
        (tier < 3 && letter < 6).then(|| Condition(tier * 6 + letter))
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0 / 6 + 1, char::from(b'A' + self.0 % 6))
    }
}

impl Serialize for Condition {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A set of victory conditions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConditionSet(pub(super) u32);

impl ConditionSet {
    /// All 18.
    pub const ALL: ConditionSet = ConditionSet((1 << CONDITION_COUNT) - 1);

    /// The set of `conditions`.
    pub fn of(conditions: impl IntoIterator<Item = Condition>) -> ConditionSet {
        ConditionSet(conditions.into_iter().fold(0, |m, c| m | c.bit()))
    }

    /// Whether `c` is in the set.
    #[must_use]
    pub fn contains(self, c: Condition) -> bool {
        self.0 & c.bit() != 0
    }

    /// The number of conditions.
    #[must_use]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The conditions, `1A` first.
    pub fn iter(self) -> impl Iterator<Item = Condition> {
        (0..CONDITION_COUNT)
            .filter(move |i| self.0 & (1 << i) != 0)
            .map(Condition)
    }

    /// The total victory points of the set.
    #[must_use]
    pub fn points(self) -> u32 {
        self.iter().map(Condition::points).sum()
    }

    pub(super) fn nth(self, n: u32) -> Condition {
        self.iter().nth(n as usize).expect("n < len")
    }
}

impl fmt::Display for ConditionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::write_spaced(f, self.iter(), "-")
    }
}

impl Serialize for ConditionSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

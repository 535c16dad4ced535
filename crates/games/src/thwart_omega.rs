//! Thwart Omega: both seats place one black and one white stone each round, at once, on a square
//! board; stones of the same colour on one cell stack into a double, stones of both colours burn
//! the cell. When three or fewer empty cells remain, they burn and the game ends. Black (`p1`)
//! scores the product of the weights of the black groups, White (`p2`) of the white groups.
//!
//! The board is kept as 128-bit sets (one bit per cell, row-major, row `1` first), so a round is a
//! handful of bit operations and never allocates; groups are found by a bit-parallel flood fill.
//!
//! Scores are exact `u64`s. The board is at most [`MAX_SIZE`] cells wide so that no product can
//! overflow: each seat places one black stone per round, so a colour's total weight is at most
//! twice the number of rounds, and a game of side `n` has at most `(n² - 2) / 2` rounds (each
//! round fills at least two cells, and a round is only played with four or more empty cells). On
//! an 11×11 board that is a weight of 118; the largest product of positive integers summing to
//! 118 is `3^38 · 4 ≈ 5.4 · 10^18 < 2^63`. A 12×12 board would allow `3^46 · 4 ≈ 3.5 · 10^22`,
//! which `u64` cannot hold (the tests check both).

use std::cmp::Ordering;
use std::fmt::{self, Write as _};

use colosseum_engine::{
    Game, IllegalMove, NotationError, OptionDoc, OptionReader, OptionsError, Outcome, Pending,
    RawOptions, Score, Seat, Step, StepError, Viewer,
};
use rand::Rng;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The widest board: products of group weights fit a `u64` up to here (see the module docs).
pub const MAX_SIZE: u8 = 11;

/// The board's side when the `size` option is left out (the seed's 7×7).
pub const DEFAULT_SIZE: u8 = 7;

/// The most groups one colour can have on the largest board (a checkerboard of 11×11).
const MAX_GROUPS: usize = 61;

/// The clocks at the table (the seed): 60 s a round, no bank; a random legal move at the
/// deadline.
pub const TIMING: crate::Timing = crate::Timing {
    decisions: &[crate::DecisionClock {
        kind: "*",
        what: "a round's two stones",
        ms: 60_000,
        loses: false,
        default: "a uniformly random legal placement",
    }],
    bank_ms: 0,
    bank_step_ms: 0,
};

/// The options, as the rules page documents them.
pub const OPTIONS: &[OptionDoc] = &[
    OptionDoc {
        name: "size",
        default: "7",
        allowed: "an integer from 1 to 11",
        help: "the board is size × size cells, columns a.., rows 1.. from the top; a board of 3 \
               or fewer cells (size 1) is over before the first round",
    },
    OptionDoc {
        name: "advantage",
        default: "p1",
        allowed: "p1, p2 or none",
        help: "who wins a complete tie (equal products and equal group weights); none makes it a \
               draw",
    },
];

/// Who wins a complete tie: the seat holding the Death Match advantage, or nobody (a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Advantage {
    /// Nobody: a complete tie is a draw.
    None,
    /// `p1` (Black) wins complete ties; the default, as the seed gives the tie to the Death
    /// Match opponent.
    P1,
    /// `p2` (White) wins complete ties.
    P2,
}

impl Advantage {
    /// The seat that wins a complete tie, if any.
    #[must_use]
    pub fn holder(self) -> Option<Seat> {
        match self {
            Advantage::None => None,
            Advantage::P1 => Some(Seat::P1),
            Advantage::P2 => Some(Seat::P2),
        }
    }
}

/// The checked options of a Thwart Omega game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ThwartOmegaOptions {
    /// The board's side, 1 to [`MAX_SIZE`].
    pub size: u8,
    /// Who wins a complete tie.
    pub advantage: Advantage,
}

impl Default for ThwartOmegaOptions {
    fn default() -> Self {
        ThwartOmegaOptions {
            size: DEFAULT_SIZE,
            advantage: Advantage::P1,
        }
    }
}

impl ThwartOmegaOptions {
    /// Reads the options from JSON, refusing unknown names and bad values.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        let r = OptionReader::new(raw, OPTIONS);
        let size = r.int("size", i64::from(DEFAULT_SIZE), 1, i64::from(MAX_SIZE))? as u8;
        let advantage = match r.choice("advantage", 0, &["p1", "p2", "none"])? {
            0 => Advantage::P1,
            1 => Advantage::P2,
            _ => Advantage::None,
        };
        r.finish()?;
        Ok(ThwartOmegaOptions { size, advantage })
    }
}

/// A stone colour. Black scores for `p1`, White for `p2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Black, `p1`'s colour.
    Black,
    /// White, `p2`'s colour.
    White,
}

impl Colour {
    /// Both colours, Black first.
    pub const BOTH: [Colour; 2] = [Colour::Black, Colour::White];

    /// The seat that scores this colour.
    #[must_use]
    pub fn seat(self) -> Seat {
        match self {
            Colour::Black => Seat::P1,
            Colour::White => Seat::P2,
        }
    }

    /// The colour that `seat` scores.
    #[must_use]
    pub fn of(seat: Seat) -> Colour {
        match seat {
            Seat::P1 => Colour::Black,
            Seat::P2 => Colour::White,
        }
    }

    /// The colour's name, capitalised.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "Black",
            Colour::White => "White",
        }
    }
}

/// A cell of the board: column `a`.. from the left, row `1`.. from the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// 0 for column `a`.
    pub column: u8,
    /// 0 for row `1` (the top row).
    pub row: u8,
}

impl Cell {
    /// The cell at `column` (0 = `a`) and `row` (0 = row `1`, the top).
    #[must_use]
    pub fn new(column: u8, row: u8) -> Self {
        Cell { column, row }
    }

    fn index(self, size: u8) -> u32 {
        u32::from(self.row) * u32::from(size) + u32::from(self.column)
    }

    fn from_index(index: u32, size: u8) -> Self {
        // A table instead of a division: random playouts turn indices into cells all the time.
        CELLS[usize::from(size)][index as usize]
    }

    fn on_board(self, size: u8) -> bool {
        self.column < size && self.row < size
    }
}

/// `CELLS[size][index]`: the cell at a bit index on a board of side `size`.
static CELLS: [[Cell; MAX_CELLS]; MAX_SIZE as usize + 1] = cell_table();

const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

const fn cell_table() -> [[Cell; MAX_CELLS]; MAX_SIZE as usize + 1] {
    let mut table = [[Cell { column: 0, row: 0 }; MAX_CELLS]; MAX_SIZE as usize + 1];
    let mut size = 1;
    while size <= MAX_SIZE as usize {
        let mut index = 0;
        while index < size * size {
            table[size][index] = Cell {
                column: (index % size) as u8,
                row: (index / size) as u8,
            };
            index += 1;
        }
        size += 1;
    }
    table
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::grid::write_cell(f, usize::from(self.column), usize::from(self.row))
    }
}

/// One seat's move: where its black stone and its white stone go. Written `B d4 W e5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The black stone's cell.
    pub black: Cell,
    /// The white stone's cell.
    pub white: Cell,
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "B {} W {}", self.black, self.white)
    }
}

/// Thwart Omega has no chance events; this type has no values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoChance {}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellContent {
    /// Nothing yet.
    Empty,
    /// One black stone (weight 1).
    Black,
    /// Two black stones, placed in the same round by both seats (weight 2).
    DoubleBlack,
    /// One white stone.
    White,
    /// Two white stones.
    DoubleWhite,
    /// Burned: both colours met here, or it was left empty at the end. Nobody's.
    Burned,
}

impl CellContent {
    /// The character of the board picture: `.` empty, `b`/`w` a single stone, `B`/`W` a double,
    /// `#` burned.
    #[must_use]
    pub fn symbol(self) -> char {
        match self {
            CellContent::Empty => '.',
            CellContent::Black => 'b',
            CellContent::DoubleBlack => 'B',
            CellContent::White => 'w',
            CellContent::DoubleWhite => 'W',
            CellContent::Burned => '#',
        }
    }

    fn describe(self) -> &'static str {
        match self {
            CellContent::Empty => "nothing",
            CellContent::Black => "a black stone",
            CellContent::DoubleBlack => "a double black stone",
            CellContent::White => "a white stone",
            CellContent::DoubleWhite => "a double white stone",
            CellContent::Burned => "a burned cell",
        }
    }
}

/// The weights of one colour's groups, largest first. A fixed array: computing it never
/// allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Groups {
    len: u8,
    weights: [u8; MAX_GROUPS],
}

impl Groups {
    /// The group weights, largest first (a double cell weighs 2).
    #[must_use]
    pub fn weights(&self) -> &[u8] {
        &self.weights[..usize::from(self.len)]
    }

    /// The score: the product of the weights, or 0 for a colour with no stones.
    #[must_use]
    pub fn product(&self) -> u64 {
        if self.len == 0 {
            return 0;
        }
        self.weights().iter().fold(1u64, |p, &w| {
            p.checked_mul(u64::from(w))
                .expect("products fit u64 on boards up to MAX_SIZE (see the module docs)")
        })
    }

    fn push(&mut self, weight: u8) {
        // Insertion keeps the weights sorted, largest first.
        let mut i = usize::from(self.len);
        while i > 0 && self.weights[i - 1] < weight {
            self.weights[i] = self.weights[i - 1];
            i -= 1;
        }
        self.weights[i] = weight;
        self.len += 1;
    }
}

/// How a finished game compares the two colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The larger product wins.
    Product(Colour),
    /// Equal products; the colour with the larger group at this position (0 = the largest) wins,
    /// a missing group counting 0.
    Groups(Colour, usize),
    /// Equal products and equal group weights.
    FullTie,
}

/// Compares the two colours' groups as the rules do: the product, then the weights largest first.
#[must_use]
pub fn compare(black: &Groups, white: &Groups) -> Verdict {
    let winner = |o: Ordering| {
        if o == Ordering::Greater {
            Colour::Black
        } else {
            Colour::White
        }
    };
    match black.product().cmp(&white.product()) {
        Ordering::Equal => {}
        o => return Verdict::Product(winner(o)),
    }
    let (b, w) = (black.weights(), white.weights());
    for i in 0..b.len().max(w.len()) {
        let x = b.get(i).copied().unwrap_or(0);
        let y = w.get(i).copied().unwrap_or(0);
        if x != y {
            return Verdict::Groups(winner(x.cmp(&y)), i);
        }
    }
    Verdict::FullTie
}

/// The board's shape as bit masks, fixed for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Geometry {
    size: u8,
    /// Every cell of the board.
    full: u128,
    /// Every cell but those of column `a`: where a step east may land.
    not_first_column: u128,
    /// Every cell but those of the last column: where a step west may land.
    not_last_column: u128,
}

impl Geometry {
    fn new(size: u8) -> Self {
        let cells = u32::from(size) * u32::from(size);
        let full = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let mut first_column = 0u128;
        for row in 0..u32::from(size) {
            first_column |= 1u128 << (row * u32::from(size));
        }
        let last_column = first_column << (size - 1);
        Geometry {
            size,
            full,
            not_first_column: full & !first_column,
            not_last_column: full & !last_column,
        }
    }

    /// The cells of `set` and their four neighbours.
    fn grow(&self, set: u128) -> u128 {
        let n = u32::from(self.size);
        set | ((set << 1) & self.not_first_column)
            | ((set >> 1) & self.not_last_column)
            | ((set << n) & self.full)
            | (set >> n)
    }

    fn bit(&self, cell: Cell) -> u128 {
        1u128 << cell.index(self.size)
    }
}

/// A game of Thwart Omega.
#[derive(Clone, Copy, Debug)]
pub struct ThwartOmega {
    options: ThwartOmegaOptions,
    geometry: Geometry,
    /// Cells with black stones (single or double).
    black: u128,
    /// Cells with white stones (single or double).
    white: u128,
    /// Cells with two stones (of the cell's one colour).
    double: u128,
    /// Burned cells.
    burned: u128,
    /// Empty cells, and how many: kept up to date rather than counted, because the hot path of
    /// a playout asks for them every step and a software popcount of 128 bits is not free.
    empty: u128,
    empty_count: u32,
    rounds: u32,
    last_round: Option<[Placement; 2]>,
}

impl ThwartOmega {
    /// A new game. A board with three or fewer cells is over at once (its cells burn).
    #[must_use]
    pub fn new(options: ThwartOmegaOptions) -> Self {
        assert!(
            (1..=MAX_SIZE).contains(&options.size),
            "board size {} is outside 1..={MAX_SIZE}",
            options.size
        );
        let geometry = Geometry::new(options.size);
        let mut game = ThwartOmega {
            options,
            geometry,
            black: 0,
            white: 0,
            double: 0,
            burned: 0,
            empty: geometry.full,
            empty_count: u32::from(options.size) * u32::from(options.size),
            rounds: 0,
            last_round: None,
        };
        game.burn_if_nearly_full();
        game
    }

    /// A new game from raw options.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        ThwartOmegaOptions::from_raw(raw).map(ThwartOmega::new)
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> ThwartOmegaOptions {
        self.options
    }

    /// The board's side.
    #[must_use]
    pub fn size(&self) -> u8 {
        self.options.size
    }

    /// How many rounds have been played.
    #[must_use]
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Both seats' placements of the last round, `p1`'s first (public once revealed).
    #[must_use]
    pub fn last_round(&self) -> Option<[Placement; 2]> {
        self.last_round
    }

    /// How many cells are empty.
    #[must_use]
    pub fn empty_cells(&self) -> u32 {
        self.empty_count
    }

    /// What `cell` holds. Cells off the board hold nothing.
    #[must_use]
    pub fn content(&self, cell: Cell) -> CellContent {
        if !cell.on_board(self.size()) {
            return CellContent::Empty;
        }
        let bit = self.geometry.bit(cell);
        let double = self.double & bit != 0;
        if self.black & bit != 0 {
            if double {
                CellContent::DoubleBlack
            } else {
                CellContent::Black
            }
        } else if self.white & bit != 0 {
            if double {
                CellContent::DoubleWhite
            } else {
                CellContent::White
            }
        } else if self.burned & bit != 0 {
            CellContent::Burned
        } else {
            CellContent::Empty
        }
    }

    /// The board as text, one string per row from row `1` (the top), one [`CellContent::symbol`]
    /// per cell.
    #[must_use]
    pub fn rows(&self) -> Vec<String> {
        (0..self.size())
            .map(|row| {
                (0..self.size())
                    .map(|column| self.content(Cell::new(column, row)).symbol())
                    .collect()
            })
            .collect()
    }

    /// The groups of `colour`: 4-connected cells of that colour, each weighing its stones.
    #[must_use]
    pub fn groups(&self, colour: Colour) -> Groups {
        let stones = match colour {
            Colour::Black => self.black,
            Colour::White => self.white,
        };
        let mut groups = Groups {
            len: 0,
            weights: [0; MAX_GROUPS],
        };
        let mut rest = stones;
        while rest != 0 {
            let mut group = rest & rest.wrapping_neg();
            loop {
                let grown = self.geometry.grow(group) & stones;
                if grown == group {
                    break;
                }
                group = grown;
            }
            rest &= !group;
            let weight = group.count_ones() + (group & self.double).count_ones();
            groups.push(weight as u8);
        }
        groups
    }

    /// The running score of `seat`: the product of its colour's group weights (0 with no stones).
    #[must_use]
    pub fn product(&self, seat: Seat) -> u64 {
        self.groups(Colour::of(seat)).product()
    }

    fn empty(&self) -> u128 {
        self.empty
    }

    /// The end rule: with three or fewer empty cells the game is over and they burn.
    fn burn_if_nearly_full(&mut self) {
        if self.empty_count <= 3 {
            self.burned |= self.empty;
            self.empty = 0;
            self.empty_count = 0;
        }
    }

    fn place(&mut self, p1: Placement, p2: Placement) {
        let g = &self.geometry;
        let (b1, w1, b2, w2) = (
            g.bit(p1.black),
            g.bit(p1.white),
            g.bit(p2.black),
            g.bit(p2.white),
        );
        let black = b1 | b2;
        let white = w1 | w2;
        let burn = black & white;
        self.black |= black & !burn;
        self.white |= white & !burn;
        // A seat's two stones are on different cells, so two stones of one colour on a cell are
        // one from each seat, and no stone of the other colour can be there too.
        self.double |= (b1 & b2) | (w1 & w2);
        self.burned |= burn;
        self.empty &= !(black | white);
        // The four stones cover four cells less one for each cell two of them share; only
        // stones of different seats can share one.
        let shared = u32::from(p1.black == p2.black)
            + u32::from(p1.white == p2.white)
            + u32::from(p1.black == p2.white)
            + u32::from(p1.white == p2.black);
        self.empty_count -= 4 - shared;
        self.rounds += 1;
        self.last_round = Some([p1, p2]);
        self.burn_if_nearly_full();
    }

    fn check_cell(&self, cell: Cell) -> Result<(), IllegalMove> {
        if !cell.on_board(self.size()) {
            return Err(IllegalMove::new(format!(
                "{cell} is off the {n}×{n} board",
                n = self.size()
            )));
        }
        match self.content(cell) {
            CellContent::Empty => Ok(()),
            CellContent::Burned => Err(IllegalMove::new(format!("{cell} is burned"))),
            other => Err(IllegalMove::new(format!(
                "{cell} is taken: it holds {}",
                other.describe()
            ))),
        }
    }

    /// Who won and why; `None` until the game is over.
    fn decide(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let black = self.groups(Colour::Black);
        let white = self.groups(Colour::White);
        let (pb, pw) = (black.product(), white.product());
        let (winner, reason) = match compare(&black, &white) {
            Verdict::Product(c) => {
                let (mine, theirs) = if c == Colour::Black {
                    (pb, pw)
                } else {
                    (pw, pb)
                };
                (
                    Some(c.seat()),
                    format!(
                        "{} ({}) wins with the larger product, {mine} to {theirs}",
                        c.name(),
                        c.seat()
                    ),
                )
            }
            Verdict::Groups(c, i) => {
                let weight = |g: &Groups| {
                    g.weights()
                        .get(i)
                        .map_or("none".to_string(), |w| w.to_string())
                };
                let (mine, theirs) = if c == Colour::Black {
                    (weight(&black), weight(&white))
                } else {
                    (weight(&white), weight(&black))
                };
                let (winner_groups, loser_groups) = winner_first(&black, &white, c);
                (
                    Some(c.seat()),
                    format!(
                        "products tie at {pb}; {} ({}) wins on the {} group, {mine} to {theirs} \
                         (groups {winner_groups} against {loser_groups})",
                        c.name(),
                        c.seat(),
                        ordinal_largest(i),
                    ),
                )
            }
            Verdict::FullTie => {
                let groups = list(black.weights());
                match self.options.advantage.holder() {
                    Some(seat) => (
                        Some(seat),
                        format!(
                            "complete tie (both products {pb}, both groups {groups}); {} ({seat}) \
                             holds the advantage",
                            Colour::of(seat).name()
                        ),
                    ),
                    None => (
                        None,
                        format!("draw: both products {pb}, both groups {groups}"),
                    ),
                }
            }
        };
        Some(Outcome { winner, reason })
    }
}

/// "largest", "2nd largest", ...
fn ordinal_largest(i: usize) -> String {
    let n = i + 1;
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    if n == 1 {
        "largest".to_string()
    } else {
        format!("{n}{suffix} largest")
    }
}

/// Weights as text, `6 4 1`, or `none`.
fn list(weights: &[u8]) -> String {
    if weights.is_empty() {
        return "none".to_string();
    }
    weights
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The winner's groups and the loser's, as text.
fn winner_first(black: &Groups, white: &Groups, winner: Colour) -> (String, String) {
    let (b, w) = (list(black.weights()), list(white.weights()));
    if winner == Colour::Black {
        (b, w)
    } else {
        (w, b)
    }
}

/// The `i`-th set bit of `bits` (0-based, lowest first; `i` below the number of set bits).
/// Steps over the lower bits one by one: [`ThwartOmega::random_move`] only calls it on sparse sets.
fn nth_set_bit(mut bits: u128, i: u32) -> u32 {
    for _ in 0..i {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// A uniformly random cell of `set` other than `except`, on a board of `cells` cells, by
/// rejection: [`ThwartOmega::random_move`] only calls it when at least an eighth of the board
/// qualifies, so it takes at most eight draws on average.
fn sample_dense<R: Rng + ?Sized>(rng: &mut R, set: u128, cells: u32, except: Option<u32>) -> u32 {
    loop {
        let i = rng.random_range(0..cells);
        if set & (1u128 << i) != 0 && Some(i) != except {
            return i;
        }
    }
}

/// One colour in a view: who scores it, its groups and product.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ColourScore {
    /// The seat that scores this colour.
    pub seat: Seat,
    /// The group weights, largest first.
    pub groups: Vec<u8>,
    /// The product of the weights (0 without stones).
    pub product: u64,
}

/// Both placements of the last round, in notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundPlayed {
    /// `p1`'s placement.
    pub p1: String,
    /// `p2`'s placement.
    pub p2: String,
}

/// What a viewer sees of a Thwart Omega game: everything, since the board and the scores are
/// public. A placement is not part of the game until both are revealed together, so no view can
/// hold the other seat's pending move.
#[derive(Clone, Debug, Serialize)]
pub struct ThwartOmegaView {
    /// Who looks.
    pub viewer: Viewer,
    /// The options in force.
    pub options: ThwartOmegaOptions,
    /// The board, row `1` (the top) first: `.` empty, `b`/`w` a single stone, `B`/`W` a double
    /// stone, `#` burned.
    pub rows: Vec<String>,
    /// Empty cells left.
    pub empty: u32,
    /// Rounds played.
    pub rounds: u32,
    /// Black's groups and product (`p1`'s score).
    pub black: ColourScore,
    /// White's groups and product (`p2`'s score).
    pub white: ColourScore,
    /// The last round's placements, once revealed.
    pub last_round: Option<RoundPlayed>,
    /// Who must act now.
    pub pending: Pending,
}

impl Game for ThwartOmega {
    type Move = Placement;
    type Chance = NoChance;
    type View = ThwartOmegaView;

    fn id(&self) -> &'static str {
        "thwart-omega"
    }

    fn pending(&self) -> Pending {
        if self.empty_count <= 3 {
            Pending::Over
        } else {
            Pending::Both
        }
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<Placement>) {
        if self.pending() != Pending::Both {
            return;
        }
        let size = self.size();
        let empty = self.empty();
        let n = self.empty_count as usize;
        out.reserve(n * (n - 1));
        let mut blacks = empty;
        while blacks != 0 {
            let b = blacks.trailing_zeros();
            blacks &= blacks - 1;
            let mut whites = empty & !(1u128 << b);
            while whites != 0 {
                let w = whites.trailing_zeros();
                whites &= whites - 1;
                out.push(Placement {
                    black: Cell::from_index(b, size),
                    white: Cell::from_index(w, size),
                });
            }
        }
    }

    fn random_move<R: Rng + ?Sized>(&self, _seat: Seat, rng: &mut R) -> Option<Placement> {
        if self.pending() != Pending::Both {
            return None;
        }
        // Two distinct empty cells, drawn directly: the black one uniformly, the white one
        // uniformly among the rest, so each ordered pair has the same chance. While the board is
        // at least an eighth empty, draw any cell until an empty one comes up; later, count
        // through the few empty cells left.
        let (empty, n) = (self.empty, self.empty_count);
        let size = self.size();
        let cells = u32::from(size) * u32::from(size);
        let (b, w) = if n * 8 >= cells {
            let b = sample_dense(rng, empty, cells, None);
            (b, sample_dense(rng, empty, cells, Some(b)))
        } else {
            let b = rng.random_range(0..n);
            let mut w = rng.random_range(0..n - 1);
            if w >= b {
                w += 1;
            }
            (nth_set_bit(empty, b), nth_set_bit(empty, w))
        };
        Some(Placement {
            black: Cell::from_index(b, size),
            white: Cell::from_index(w, size),
        })
    }

    fn chance_outcomes(&self, _out: &mut Vec<(NoChance, f64)>) {}

    fn check_move(&self, _seat: Seat, mv: &Placement) -> Result<(), IllegalMove> {
        if self.pending() != Pending::Both {
            return Err(IllegalMove::new(
                "the game is over; no more stones are placed",
            ));
        }
        if mv.black == mv.white {
            return Err(IllegalMove::new(format!(
                "both stones are on {}; the black and the white stone go on two different cells",
                mv.black
            )));
        }
        let size = self.size();
        if mv.black.on_board(size) && mv.white.on_board(size) {
            let stones = self.geometry.bit(mv.black) | self.geometry.bit(mv.white);
            if stones & self.empty() == stones {
                return Ok(());
            }
        }
        // Only a refused move needs the details.
        self.check_cell(mv.black)?;
        self.check_cell(mv.white)
    }

    fn check_chance(&self, outcome: &NoChance) -> Result<(), IllegalMove> {
        match *outcome {}
    }

    fn apply(&mut self, step: Step<Placement, NoChance>) -> Result<(), StepError> {
        self.check_step(&step)?;
        match step {
            Step::Both { p1, p2 } => self.place(p1, p2),
            Step::One { .. } => unreachable!("check_step refuses single moves in Thwart Omega"),
            Step::Chance(c) => match c {},
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.decide()
    }

    fn score(&self) -> Score {
        let black = self.groups(Colour::Black);
        let white = self.groups(Colour::White);
        let mut details = Map::new();
        details.insert(
            "groups".into(),
            json!({"p1": black.weights(), "p2": white.weights()}),
        );
        details.insert(
            "colours".into(),
            json!({"p1": Colour::Black, "p2": Colour::White}),
        );
        details.insert("rounds".into(), Value::from(self.rounds));
        Score {
            p1: Value::from(black.product()),
            p2: Value::from(white.product()),
            details,
        }
    }

    fn view(&self, viewer: Viewer) -> ThwartOmegaView {
        let colour = |c: Colour| {
            let g = self.groups(c);
            ColourScore {
                seat: c.seat(),
                groups: g.weights().to_vec(),
                product: g.product(),
            }
        };
        ThwartOmegaView {
            viewer,
            options: self.options,
            rows: self.rows(),
            empty: self.empty_cells(),
            rounds: self.rounds,
            black: colour(Colour::Black),
            white: colour(Colour::White),
            last_round: self.last_round.map(|[p1, p2]| RoundPlayed {
                p1: p1.to_string(),
                p2: p2.to_string(),
            }),
            pending: self.pending(),
        }
    }

    fn render(&self, viewer: Viewer) -> String {
        let n = self.size();
        let mut s = String::new();
        let plural =
            |count: u32, word: &str| format!("{count} {word}{}", if count == 1 { "" } else { "s" });
        let _ = writeln!(
            s,
            "Thwart Omega, {n}×{n}: {} played, {} empty",
            plural(self.rounds, "round"),
            plural(self.empty_cells(), "cell")
        );
        let letters: String = (0..n)
            .map(|c| format!(" {}", char::from(b'a' + c)))
            .collect();
        let _ = writeln!(s, "   {letters}");
        for (row, cells) in self.rows().iter().enumerate() {
            let spaced: String = cells.chars().map(|c| format!(" {c}")).collect();
            let _ = writeln!(s, "{:>2} {spaced}  {}", row + 1, row + 1);
        }
        let _ = writeln!(s, "   {letters}");
        let _ = writeln!(
            s,
            "   b/w one stone, B/W a double stone (weight 2), # burned, . empty"
        );
        for colour in Colour::BOTH {
            let seat = colour.seat();
            let you = if viewer == Viewer::Seat(seat) {
                ", you"
            } else {
                ""
            };
            let groups = self.groups(colour);
            let _ = writeln!(
                s,
                "{} ({seat}{you}): groups {} = product {}",
                colour.name(),
                list(groups.weights()),
                groups.product()
            );
        }
        if let Some([p1, p2]) = self.last_round {
            let _ = writeln!(s, "Last round: p1 played {p1}, p2 played {p2}");
        }
        match self.outcome() {
            Some(o) => {
                let _ = writeln!(s, "Game over: {}", o.reason);
            }
            None => {
                let _ = writeln!(
                    s,
                    "Place one black and one white stone on two different empty cells, like \
                     `B d4 W e5`."
                );
            }
        }
        s
    }

    fn default_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Placement> {
        // The seed: "if at deadline you haven't submitted a move or your move is illegal, your
        // move will be randomized".
        self.random_move(seat, rng)
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<Placement, NotationError> {
        parse_placement(text, self.size())
    }

    fn format_move(&self, mv: &Placement) -> String {
        mv.to_string()
    }

    fn parse_chance(&self, text: &str) -> Result<NoChance, NotationError> {
        Err(NotationError::chance(
            text,
            "Thwart Omega has no chance steps",
        ))
    }

    fn format_chance(&self, outcome: &NoChance) -> String {
        match *outcome {}
    }
}

/// What a move looks like, for error messages.
const MOVE_SHAPE: &str = "a move is one black and one white stone, like `B d4 W e5`";

/// Parses `B d4 W e5`: colours `B`/`black` and `W`/`white` in any order and case, each followed
/// by its cell (also glued, `Bd4`); `:`, `,`, `=` and spaces separate.
fn parse_placement(text: &str, size: u8) -> Result<Placement, NotationError> {
    let lower = text.to_ascii_lowercase();
    let tokens = lower
        .split(|c: char| c.is_whitespace() || matches!(c, ':' | ',' | '='))
        .filter(|t| !t.is_empty());
    let mut stones: [Option<Cell>; 2] = [None, None];
    let mut colour_waiting: Option<(Colour, &str)> = None;
    let colour_word = |t: &str| match t {
        "b" | "black" => Some(Colour::Black),
        "w" | "white" => Some(Colour::White),
        _ => None,
    };
    for token in tokens {
        if let Some(colour) = colour_word(token) {
            if let Some((_, word)) = colour_waiting {
                return Err(NotationError::mv(
                    text,
                    format!("`{word}` has no cell after it; {MOVE_SHAPE}"),
                ));
            }
            colour_waiting = Some((colour, token));
            continue;
        }
        let (colour, cell_text) = match colour_waiting.take() {
            Some((colour, _)) => (colour, token),
            None => {
                // A colour glued to its cell: `bd4`, `wa1`. A bare cell such as `b4` has a digit
                // second and is not read this way.
                let mut chars = token.chars();
                match (
                    chars.next().and_then(|c| colour_word(&c.to_string())),
                    chars.next(),
                ) {
                    (Some(colour), Some(c)) if c.is_ascii_alphabetic() => (colour, &token[1..]),
                    _ => {
                        return Err(NotationError::mv(
                            text,
                            format!("`{token}` has no colour before it; {MOVE_SHAPE}"),
                        ))
                    }
                }
            }
        };
        let cell = parse_cell(text, cell_text, size)?;
        let slot = &mut stones[usize::from(colour == Colour::White)];
        if slot.is_some() {
            return Err(NotationError::mv(
                text,
                format!("it names two {} stones; {MOVE_SHAPE}", colour_lower(colour)),
            ));
        }
        *slot = Some(cell);
    }
    if let Some((_, word)) = colour_waiting {
        return Err(NotationError::mv(
            text,
            format!("`{word}` has no cell after it; {MOVE_SHAPE}"),
        ));
    }
    match stones {
        [Some(black), Some(white)] => Ok(Placement { black, white }),
        [None, None] => Err(NotationError::mv(text, MOVE_SHAPE)),
        [None, Some(_)] => Err(NotationError::mv(
            text,
            format!("the black stone is missing; {MOVE_SHAPE}"),
        )),
        [Some(_), None] => Err(NotationError::mv(
            text,
            format!("the white stone is missing; {MOVE_SHAPE}"),
        )),
    }
}

fn colour_lower(colour: Colour) -> &'static str {
    match colour {
        Colour::Black => "black",
        Colour::White => "white",
    }
}

/// Parses a cell name such as `d4` on a board of side `size`.
fn parse_cell(text: &str, cell: &str, size: u8) -> Result<Cell, NotationError> {
    let last_column = char::from(b'a' + size - 1);
    let mut chars = cell.chars();
    let column = chars.next().filter(char::is_ascii_lowercase);
    let digits = chars.as_str();
    let row = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse::<u32>().ok()
    } else {
        None
    };
    let (Some(column), Some(row)) = (column, row) else {
        return Err(NotationError::mv(
            text,
            format!(
                "`{cell}` is not a cell: write a column letter a to {last_column} and a row \
                 number 1 to {size}, like d4"
            ),
        ));
    };
    let column = column as u32 - u32::from(b'a');
    if column >= u32::from(size) || row == 0 || row > u32::from(size) {
        return Err(NotationError::mv(
            text,
            format!("`{cell}` is off the board: columns run a to {last_column}, rows 1 to {size}"),
        ));
    }
    Ok(Cell::new(column as u8, (row - 1) as u8))
}

/// The rules page, shown by `colosseum rules thwart-omega`.
pub const RULES: &str = include_str!("../../../docs/rules/thwart-omega.md");

#[cfg(test)]
mod tests {
    use super::*;
    use colosseum_engine::{AnyGame, Erased, TextStep};

    fn game(size: u8) -> ThwartOmega {
        ThwartOmega::new(ThwartOmegaOptions {
            size,
            advantage: Advantage::P1,
        })
    }

    fn mv(g: &ThwartOmega, text: &str) -> Placement {
        g.parse_move(Seat::P1, text).unwrap()
    }

    fn round(g: &mut ThwartOmega, p1: &str, p2: &str) {
        let step = Step::Both {
            p1: mv(g, p1),
            p2: mv(g, p2),
        };
        g.apply(step).unwrap();
    }

    /// A board drawn as rows of symbols (`.`, `b`, `B`, `w`, `W`, `#`), set directly. Three or
    /// fewer `.` are burned by the end rule, as in play.
    fn from_picture(rows: &[&str], advantage: Advantage) -> ThwartOmega {
        let size = rows.len() as u8;
        let mut g = ThwartOmega::new(ThwartOmegaOptions { size, advantage });
        g.burned = 0;
        for (r, line) in rows.iter().enumerate() {
            assert_eq!(line.len(), rows.len(), "square picture");
            for (c, symbol) in line.chars().enumerate() {
                let bit = g.geometry.bit(Cell::new(c as u8, r as u8));
                match symbol {
                    '.' => {}
                    'b' => g.black |= bit,
                    'B' => {
                        g.black |= bit;
                        g.double |= bit;
                    }
                    'w' => g.white |= bit,
                    'W' => {
                        g.white |= bit;
                        g.double |= bit;
                    }
                    '#' => g.burned |= bit,
                    other => panic!("unknown symbol {other}"),
                }
            }
        }
        g.empty = g.geometry.full & !(g.black | g.white | g.burned);
        g.empty_count = g.empty.count_ones();
        g.burn_if_nearly_full();
        g
    }

    /// The seed's final board, found to have exactly the seed's groups: Black 6 4 4 4 4 1,
    /// White 6 4 3 3 3 2 2. The two `.` are left empty by the last round and burn.
    const SEED_EXAMPLE: [&str; 7] = [
        "wbbwwbb", //
        "wbbbwbb", //
        "wbwwbww", //
        "#wbbbww", //
        "bwwwwbb", //
        ".bbbwbb", //
        "wwwb.ww", //
    ];

    /// Rounds that build a picture of single stones and `#` cells burned by a collision: each
    /// `#` with one lone black and one lone white stone (p1 `B #`, p2 `W #`), then the other
    /// stones four at a time.
    fn rounds_for(rows: &[&str]) -> Vec<(String, String)> {
        let (mut blacks, mut whites, mut burns) = (Vec::new(), Vec::new(), Vec::new());
        for (r, line) in rows.iter().enumerate() {
            for (c, symbol) in line.chars().enumerate() {
                let cell = Cell::new(c as u8, r as u8).to_string();
                match symbol {
                    'b' => blacks.push(cell),
                    'w' => whites.push(cell),
                    '#' => burns.push(cell),
                    _ => {}
                }
            }
        }
        let mut rounds = Vec::new();
        for x in burns {
            let (b, w) = (blacks.pop().unwrap(), whites.pop().unwrap());
            rounds.push((format!("B {x} W {w}"), format!("B {b} W {x}")));
        }
        while !blacks.is_empty() {
            let (b1, b2) = (blacks.pop().unwrap(), blacks.pop().unwrap());
            let (w1, w2) = (whites.pop().unwrap(), whites.pop().unwrap());
            rounds.push((format!("B {b1} W {w1}"), format!("B {b2} W {w2}")));
        }
        assert!(whites.is_empty());
        rounds
    }

    #[test]
    fn the_seed_example_played_out_gives_1536_to_2592() {
        let mut g = game(7);
        let rounds = rounds_for(&SEED_EXAMPLE);
        assert_eq!(rounds.len(), 12);
        for (i, (p1, p2)) in rounds.iter().enumerate() {
            assert_eq!(g.pending(), Pending::Both, "round {i}");
            round(&mut g, p1, p2);
        }
        assert_eq!(g.pending(), Pending::Over);
        let expected: Vec<String> = SEED_EXAMPLE.iter().map(|r| r.replace('.', "#")).collect();
        assert_eq!(g.rows(), expected);
        assert_eq!(g.groups(Colour::Black).weights(), [6, 4, 4, 4, 4, 1]);
        assert_eq!(g.groups(Colour::White).weights(), [6, 4, 3, 3, 3, 2, 2]);
        assert_eq!(g.product(Seat::P1), 1536);
        assert_eq!(g.product(Seat::P2), 2592);
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, Some(Seat::P2));
        assert_eq!(
            o.reason,
            "White (p2) wins with the larger product, 2592 to 1536"
        );
        // The same board set directly agrees.
        let direct = from_picture(&SEED_EXAMPLE, Advantage::P1);
        assert_eq!(direct.rows(), g.rows());
        assert_eq!(direct.outcome(), g.outcome());
        let score = g.score();
        assert_eq!(score.p1, json!(1536));
        assert_eq!(score.p2, json!(2592));
        assert_eq!(score.details["groups"]["p1"], json!([6, 4, 4, 4, 4, 1]));
        assert_eq!(score.details["groups"]["p2"], json!([6, 4, 3, 3, 3, 2, 2]));
    }

    #[test]
    fn the_rules_page_example_replays_as_it_says() {
        let start = RULES.find("```json").expect("the rules page has a record") + "```json".len();
        let end = start + RULES[start..].find("```").unwrap();
        let record = colosseum_engine::Record::from_json(&RULES[start..end]).unwrap();
        let replayed = crate::replay_record(&record).unwrap().unwrap();
        let game = replayed.game.as_ref();
        assert_eq!(game.outcome().unwrap().winner, Some(Seat::P2));
        let score = game.score();
        assert_eq!((score.p1, score.p2), (json!(1536), json!(2592)));
        let board = game.render(Viewer::Spectator);
        assert!(
            RULES.contains(&board),
            "the page shows the board as rendered:\n{board}"
        );
    }

    #[test]
    fn collisions_follow_the_table() {
        // (p1, p2, the board after one round on a 3×3 board)
        let table = [
            // Same colour on the same cell from both seats: a double.
            ("B a1 W c3", "B a1 W a3", ["B..", "...", "w.w"]),
            ("B a1 W b1", "B c3 W b1", ["bW.", "...", "..b"]),
            // Black and white on the same cell: burned.
            ("B a1 W c3", "B c1 W a1", ["#.b", "...", "..w"]),
            ("B b2 W a1", "B c2 W b2", ["w..", ".#b", "..."]),
            // Both seats crossing their colours on the same two cells: both burned.
            ("B a1 W b1", "B b1 W a1", ["##.", "...", "..."]),
            // The same placement from both seats: two doubles.
            ("B a1 W b1", "B a1 W b1", ["BW.", "...", "..."]),
            // A double black beside two single whites (a double and a burn cannot meet in one
            // round: both seats' black stones are on the doubled cell).
            ("B a1 W b1", "B a1 W c1", ["Bww", "...", "..."]),
            // Four different cells: four single stones.
            ("B a1 W b1", "B c1 W a2", ["bwb", "w..", "..."]),
        ];
        for (p1, p2, expected) in table {
            let mut g = game(3);
            round(&mut g, p1, p2);
            assert_eq!(g.rows(), expected, "{p1} / {p2}");
            assert_eq!(g.pending(), Pending::Both, "{p1} / {p2}");
        }
        // p1's white and p2's black meet on b1; p1's black and p2's black make a double on a1.
        let mut g = game(3);
        round(&mut g, "B a1 W b1", "B b1 W c1");
        assert_eq!(g.rows(), ["b#w", "...", "..."]);
        let mut g = game(3);
        round(&mut g, "B a1 W b1", "B a1 W b2");
        assert_eq!(g.rows(), ["Bw.", ".w.", "..."]);
        assert_eq!(g.groups(Colour::Black).weights(), [2]);
        assert_eq!(g.groups(Colour::White).weights(), [2]);
    }

    #[test]
    fn placements_that_touch_merge_groups() {
        let mut g = game(4);
        round(&mut g, "B a1 W d4", "B c1 W d2");
        assert_eq!(g.groups(Colour::Black).weights(), [1, 1]);
        assert_eq!(g.groups(Colour::White).weights(), [1, 1]);
        // A double on b1 joins a1 and c1: 1 + 2 + 1. A single on d3 joins d2 and d4.
        round(&mut g, "B b1 W d3", "B b1 W a4");
        assert_eq!(g.rows(), ["bBb.", "...w", "...w", "w..w"]);
        assert_eq!(g.groups(Colour::Black).weights(), [4]);
        assert_eq!(g.groups(Colour::White).weights(), [3, 1]);
        assert_eq!((g.product(Seat::P1), g.product(Seat::P2)), (4, 3));
        // Diagonal neighbours do not join, and groups do not wrap around the board's edge.
        let g = from_picture(&["b..b", "wb..", "...b", "bw.."], Advantage::P1);
        assert_eq!(g.groups(Colour::Black).weights(), [1, 1, 1, 1, 1]);
        assert_eq!(g.groups(Colour::White).weights(), [1, 1]);
        let g = from_picture(&["...b", "b...", "...W", "W..."], Advantage::P1);
        assert_eq!(g.groups(Colour::Black).weights(), [1, 1]);
        assert_eq!(g.groups(Colour::White).weights(), [2, 2]);
        let g = from_picture(&["BbB", "b.b", "BbB"], Advantage::P1);
        assert_eq!(g.groups(Colour::Black).weights(), [12]);
    }

    #[test]
    fn equal_products_go_to_the_groups_then_the_advantage() {
        let cases: [(&[&str], Advantage, Option<Seat>, &str); 7] = [
            // Products 6 and 6; the largest group decides (6 against 3).
            (
                &["BBB#b", "#####", "www#W", "#####", "#####"],
                Advantage::P1,
                Some(Seat::P1),
                "products tie at 6; Black (p1) wins on the largest group, 6 to 3 (groups 6 1 \
                 against 3 2)",
            ),
            // Products 24 and 24, largest groups 6 and 6; the second decides (4 against 2).
            (
                &["BBB#B", "###B#", "#####", "WWW#W", "####W"],
                Advantage::P1,
                Some(Seat::P2),
                "products tie at 24; White (p2) wins on the 2nd largest group, 4 to 2 (groups 6 \
                 4 against 6 2 2)",
            ),
            // Products 4 and 4, largest 4 and 4; Black's 1 beats White's missing group.
            (
                &["BB#b#", "#####", "wwww#", "#####", "#####"],
                Advantage::P2,
                Some(Seat::P1),
                "products tie at 4; Black (p1) wins on the 2nd largest group, 1 to none (groups \
                 4 1 against 4)",
            ),
            // A complete tie: the advantage holder, or a draw.
            (
                &["bbb#B", "#####", "www#W", "#####", "#####"],
                Advantage::P1,
                Some(Seat::P1),
                "complete tie (both products 6, both groups 3 2); Black (p1) holds the advantage",
            ),
            (
                &["bbb#B", "#####", "www#W", "#####", "#####"],
                Advantage::P2,
                Some(Seat::P2),
                "complete tie (both products 6, both groups 3 2); White (p2) holds the advantage",
            ),
            (
                &["bbb#B", "#####", "www#W", "#####", "#####"],
                Advantage::None,
                None,
                "draw: both products 6, both groups 3 2",
            ),
            // No stones at all: both score 0, a complete tie.
            (
                &["#####", "#####", "#####", "#####", "#####"],
                Advantage::None,
                None,
                "draw: both products 0, both groups none",
            ),
        ];
        for (rows, advantage, winner, reason) in cases {
            let g = from_picture(rows, advantage);
            let o = g.outcome().expect("the board is full");
            assert_eq!((o.winner, o.reason.as_str()), (winner, reason), "{rows:?}");
        }
        // One stone beats none: a colour without stones scores 0.
        let g = from_picture(&["b##", "###", "###"], Advantage::P2);
        assert_eq!((g.product(Seat::P1), g.product(Seat::P2)), (1, 0));
        assert_eq!(g.outcome().unwrap().winner, Some(Seat::P1));
        assert_eq!(ordinal_largest(2), "3rd largest");
        assert_eq!(ordinal_largest(10), "11th largest");
        assert_eq!(ordinal_largest(20), "21st largest");
    }

    #[test]
    fn a_round_leaving_three_or_fewer_empty_cells_ends_the_game() {
        // On a 3×3 board with `empty` empty cells (the first ones in reading order), a round that
        // fills 2 (crossed), 3 (one burn) or 4 cells (all single) leaves `empty - filled`.
        for (empty, filled, left) in [
            (8, 4, 4),
            (6, 2, 4),
            (7, 4, 3),
            (5, 2, 3),
            (6, 3, 3),
            (4, 2, 2),
            (5, 3, 2),
            (5, 4, 1),
            (4, 3, 1),
            (4, 4, 0),
        ] {
            let cells: Vec<char> = (0..9).map(|i| if i < empty { '.' } else { '#' }).collect();
            let rows: Vec<String> = cells.chunks(3).map(|r| r.iter().collect()).collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let mut g = from_picture(&rows, Advantage::P1);
            assert_eq!(g.pending(), Pending::Both);
            let name = |i: u32| Cell::from_index(i, 3).to_string();
            let (p1, p2) = match filled {
                2 => (
                    format!("B {} W {}", name(0), name(1)),
                    format!("B {} W {}", name(1), name(0)),
                ),
                3 => (
                    format!("B {} W {}", name(0), name(1)),
                    format!("B {} W {}", name(2), name(0)),
                ),
                _ => (
                    format!("B {} W {}", name(0), name(1)),
                    format!("B {} W {}", name(2), name(3)),
                ),
            };
            round(&mut g, &p1, &p2);
            if left <= 3 {
                assert_eq!(g.pending(), Pending::Over, "{empty} - {filled}");
                assert_eq!(g.empty_cells(), 0, "the last cells burn");
                let burned = g.rows().concat().matches('#').count();
                let collisions = match filled {
                    2 => 2,
                    3 => 1,
                    _ => 0,
                };
                assert_eq!(burned, 9 - empty as usize + left + collisions);
                assert!(g.outcome().is_some());
            } else {
                assert_eq!(g.pending(), Pending::Both, "{empty} - {filled}");
                assert_eq!(g.empty_cells(), left as u32);
                assert!(g.outcome().is_none());
            }
        }
    }

    #[test]
    fn a_board_with_three_or_fewer_cells_is_over_before_it_starts() {
        let g = game(1);
        assert_eq!(g.pending(), Pending::Over);
        assert_eq!(g.rows(), ["#"]);
        assert_eq!(g.rounds(), 0);
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, Some(Seat::P1), "a complete tie at 0 goes to p1");
        let mut moves = Vec::new();
        g.legal_moves(Seat::P1, &mut moves);
        assert!(moves.is_empty());
        assert!(g
            .random_move(Seat::P1, &mut colosseum_engine::seeded_rng(1))
            .is_none());
        // A 2×2 board has exactly one round.
        let mut g = game(2);
        round(&mut g, "B a1 W b1", "B a2 W b2");
        assert_eq!(g.rows(), ["bw", "bw"]);
        assert_eq!(g.pending(), Pending::Over);
    }

    #[test]
    fn bad_input_is_refused_with_the_reason() {
        let mut g = Erased(game(7));
        let e = |g: &Erased<ThwartOmega>, text: &str| g.check_move(Seat::P1, text).unwrap_err();
        assert_eq!(
            e(&g, "B d4 W d4").to_string(),
            "p1: not legal here: both stones are on d4; the black and the white stone go on \
             two different cells"
        );
        assert_eq!(
            e(&g, "B h1 W a1").to_string(),
            "p1: `B h1 W a1` is not a move: `h1` is off the board: columns run a to g, rows 1 \
             to 7"
        );
        assert_eq!(
            e(&g, "B a8 W a1").to_string(),
            "p1: `B a8 W a1` is not a move: `a8` is off the board: columns run a to g, rows 1 \
             to 7"
        );
        assert_eq!(
            e(&g, "B d4").to_string(),
            "p1: `B d4` is not a move: the white stone is missing; a move is one black and one \
             white stone, like `B d4 W e5`"
        );
        assert_eq!(
            e(&g, "W e5").to_string(),
            "p1: `W e5` is not a move: the black stone is missing; a move is one black and one \
             white stone, like `B d4 W e5`"
        );
        assert_eq!(
            e(&g, "d4 e5").to_string(),
            "p1: `d4 e5` is not a move: `d4` has no colour before it; a move is one black and \
             one white stone, like `B d4 W e5`"
        );
        assert_eq!(
            e(&g, "B d4 B e5").to_string(),
            "p1: `B d4 B e5` is not a move: it names two black stones; a move is one black and \
             one white stone, like `B d4 W e5`"
        );
        assert_eq!(
            e(&g, "B W e5").to_string(),
            "p1: `B W e5` is not a move: `b` has no cell after it; a move is one black and one \
             white stone, like `B d4 W e5`"
        );
        assert!(e(&g, "B d4 W")
            .to_string()
            .contains("`w` has no cell after it"));
        assert!(e(&g, "").to_string().contains("is not a move"));
        assert!(e(&g, "B 44 W e5")
            .to_string()
            .contains("`44` is not a cell: write a column letter a to g and a row number 1 to 7"));
        g.apply(&TextStep::both("B d4 W e5", "B d4 W c3")).unwrap();
        assert_eq!(
            e(&g, "B a1 W d4").to_string(),
            "p1: not legal here: d4 is taken: it holds a double black stone"
        );
        assert_eq!(
            e(&g, "B e5 W a1").to_string(),
            "p1: not legal here: e5 is taken: it holds a white stone"
        );
        g.apply(&TextStep::both("B a1 W b1", "B b1 W a1")).unwrap();
        assert_eq!(
            e(&g, "B a1 W g7").to_string(),
            "p1: not legal here: a1 is burned"
        );
        // A refused step leaves the state alone.
        let before = format!("{:?}", g.0);
        assert!(g.apply(&TextStep::both("B g7 W f7", "B a1 W f6")).is_err());
        assert_eq!(format!("{:?}", g.0), before);
        // A typed move off the board is refused too.
        let off = Placement {
            black: Cell::new(7, 0),
            white: Cell::new(0, 0),
        };
        assert_eq!(
            g.0.check_move(Seat::P2, &off).unwrap_err().reason,
            "h1 is off the 7×7 board"
        );
        assert!(g.0.parse_chance("x").is_err());
    }

    #[test]
    fn notation_is_free_in_order_case_and_separators() {
        let g = game(11);
        let canonical = "B d4 W e5";
        for text in [
            "B d4 W e5",
            "W e5 B d4",
            "b:d4, w:e5",
            "w:E5,b:D4",
            "  black d4  white e5 ",
            "Bd4 We5",
            "b=d4 w=e5",
        ] {
            let m = g.parse_move(Seat::P2, text).unwrap();
            assert_eq!(g.format_move(&m), canonical, "{text}");
        }
        let m = g.parse_move(Seat::P1, "B k11 W b4").unwrap();
        assert_eq!(g.format_move(&m), "B k11 W b4");
        assert_eq!(m.black, Cell::new(10, 10));
        assert!(g.parse_move(Seat::P1, "B l1 W a1").is_err());
        assert!(g.parse_move(Seat::P1, "B a0 W a1").is_err());
        assert!(g.parse_move(Seat::P1, "B a12 W a1").is_err());
    }

    #[test]
    fn legal_moves_are_every_ordered_pair_of_empty_cells() {
        let mut g = game(3);
        round(&mut g, "B a1 W b1", "B c1 W a2");
        let mut moves = Vec::new();
        g.legal_moves(Seat::P1, &mut moves);
        assert_eq!(moves.len(), 5 * 4);
        for m in &moves {
            g.check_move(Seat::P1, m).unwrap();
        }
        let mut texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), 20);
        // random_move draws each of them, about equally often.
        let mut rng = colosseum_engine::seeded_rng(5);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..20_000 {
            let m = g.random_move(Seat::P2, &mut rng).unwrap();
            g.check_move(Seat::P2, &m).unwrap();
            *counts.entry(m.to_string()).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 20);
        assert!(
            counts.values().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn nth_set_bit_finds_every_bit() {
        let bits: u128 = (1 << 3) | (1 << 40) | (1 << 63) | (1 << 64) | (1 << 100) | (1 << 120);
        let found: Vec<u32> = (0..6).map(|i| nth_set_bit(bits, i)).collect();
        assert_eq!(found, [3, 40, 63, 64, 100, 120]);
        let all = u128::MAX >> 7;
        for i in 0..121 {
            assert_eq!(nth_set_bit(all, i), i);
        }
    }

    /// The largest product of positive integers summing to `weight`, or `None` if it overflows.
    fn largest_product(weight: u32) -> Option<u64> {
        let (threes, rest) = match weight % 3 {
            0 => (weight / 3, 1),
            1 if weight >= 4 => (weight / 3 - 1, 4),
            1 => (0, 1),
            _ => (weight / 3, 2),
        };
        (0..threes).try_fold(rest, |p: u64, _| p.checked_mul(3))
    }

    /// The most weight one colour can gather on a board of side `size`: two stones per round.
    fn largest_weight(size: u32) -> u32 {
        let cells = size * size;
        let rounds = if cells <= 3 { 0 } else { (cells - 2) / 2 };
        2 * rounds
    }

    #[test]
    fn no_product_overflows_on_any_allowed_board() {
        for size in 1..=u32::from(MAX_SIZE) {
            assert!(
                largest_product(largest_weight(size)).is_some(),
                "size {size} could overflow"
            );
        }
        assert_eq!(largest_weight(11), 118);
        assert_eq!(largest_product(118), Some(3u64.pow(38) * 4));
        assert!(
            largest_product(largest_weight(u32::from(MAX_SIZE) + 1)).is_none(),
            "the cap is where u64 stops being enough"
        );
        // The worst case also survives the game's own arithmetic.
        let mut worst = Groups {
            len: 0,
            weights: [0; MAX_GROUPS],
        };
        for _ in 0..38 {
            worst.push(3);
        }
        worst.push(4);
        assert_eq!(worst.product(), 3u64.pow(38) * 4);
        assert_eq!(worst.weights()[0], 4);
        // Random games never gather more than the bound, and never play more rounds.
        let mut rng = colosseum_engine::seeded_rng(9);
        for size in [2u8, 5, 11] {
            for _ in 0..20 {
                let mut g = game(size);
                colosseum_engine::random_playout(&mut g, &mut rng);
                let max = largest_weight(u32::from(size));
                assert!(g.rounds() * 2 <= max);
                for c in Colour::BOTH {
                    let total: u32 = g.groups(c).weights().iter().map(|&w| u32::from(w)).sum();
                    assert!(total <= 2 * g.rounds());
                }
            }
        }
    }

    #[test]
    fn views_show_the_board_and_scores_to_everyone() {
        let mut g = game(4);
        round(&mut g, "B a1 W b1", "B a1 W d4");
        let v = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
        assert_eq!(v["rows"], json!(["Bw..", "....", "....", "...w"]));
        assert_eq!(
            v["black"],
            json!({"seat": "p1", "groups": [2], "product": 2})
        );
        assert_eq!(
            v["white"],
            json!({"seat": "p2", "groups": [1, 1], "product": 1})
        );
        assert_eq!(
            v["last_round"],
            json!({"p1": "B a1 W b1", "p2": "B a1 W d4"})
        );
        assert_eq!(v["options"], json!({"size": 4, "advantage": "p1"}));
        assert_eq!(v["empty"], 13);
        let mut p1 = serde_json::to_value(g.view(Viewer::Seat(Seat::P1))).unwrap();
        p1["viewer"] = v["viewer"].clone();
        assert_eq!(p1, v, "a seat sees what a spectator sees");
    }

    #[test]
    fn render_marks_stones_doubles_and_burns() {
        let mut g = game(4);
        round(&mut g, "B a1 W b1", "B a1 W a2");
        round(&mut g, "B c3 W d4", "B d4 W c2");
        let text = g.render(Viewer::Seat(Seat::P2));
        assert!(
            text.contains("    a b c d\n 1  B w . .  1\n 2  w . w .  2\n"),
            "{text}"
        );
        assert!(text.contains(" 4  . . . #  4\n"), "{text}");
        assert!(
            text.contains("Black (p1): groups 2 1 = product 2"),
            "{text}"
        );
        assert!(
            text.contains("White (p2, you): groups 1 1 1 = product 1"),
            "{text}"
        );
        assert!(text.contains("Last round: p1 played B c3 W d4, p2 played B d4 W c2"));
    }

    #[test]
    fn options_are_checked() {
        for bad in ["size=0", "size=12", "advantage=p3", "colour=red"] {
            let raw = colosseum_engine::parse_pairs([bad]).unwrap();
            assert!(ThwartOmega::from_raw(&raw).is_err(), "{bad}");
        }
        let raw = colosseum_engine::parse_pairs(["size=12"]).unwrap();
        assert_eq!(
            ThwartOmega::from_raw(&raw).unwrap_err().to_string(),
            "option `size` = 12 is not allowed: an integer from 1 to 11"
        );
        let raw = colosseum_engine::parse_pairs(["size=9", "advantage=None"]).unwrap();
        let g = ThwartOmega::from_raw(&raw).unwrap();
        assert_eq!(g.options().advantage, Advantage::None);
        assert_eq!(g.empty_cells(), 81);
        let g = ThwartOmega::from_raw(&RawOptions::new()).unwrap();
        assert_eq!(g.options(), ThwartOmegaOptions::default());
    }
}

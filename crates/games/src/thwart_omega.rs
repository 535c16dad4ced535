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

mod board;
pub mod board_svg;
mod notation;
mod scoring;
pub mod season;
mod view;

pub use board::*;
use notation::*;
pub use scoring::*;
pub use view::*;

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

/// The rules page, shown by `colosseum rules thwart-omega`.
pub const RULES: &str = include_str!("../../../docs/rules/thwart-omega.md");

/// The game in OpenSpiel's terms ([`crate::spiel`]).
mod spiel;

#[cfg(test)]
mod tests;

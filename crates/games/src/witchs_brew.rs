//! The Witch's Brew (e_is_cool and pseudonam, Genius Game 4, Final Match 3): win trivia races
//! for cards and victory conditions, then spend the cards to place stones on a 7×6 grid.
//!
//! The game has three parts, each a sequence of decisions:
//!
//! * **Cauldron**: rounds in the order of option `schedule`. Each round a chance step draws the
//!   prize pair (two cards for MM/FM rounds, two victory conditions for DM rounds), a second
//!   chance step is the race's result (`p1`, `p2` or `none`), the winner picks one of the pair and
//!   the loser gets the other, and a holder of the Discard item may throw away a DM pair.
//! * **Intermission**: both seats at once assign their victory conditions to rounds 6, 9 and 12.
//! * **Placement**: twelve rounds; both seats play a card at once (with its secondary choice), the
//!   round winner places a stone, may Leap or Shift, the loser does the same, the winner places a
//!   gray stone; conditions are scored after rounds 6, 9 and 12.
//!
//! Nothing is hidden from a seat: the prize pairs are drawn as chance steps in the open, picks and
//! plays are public once made, and simultaneous submissions (cards, assignments) are applied
//! together, never stored before the reveal. So [`Game::determinize`] keeps its provided copy.
//!
//! The state is fixed-size: the grid is four 42-bit bitboards, hands are counts per card, victory
//! conditions are bit sets; `apply`, `random_move` and `sample_chance` never allocate.
//!
//! The move space of a card play is too large to list in full (Freeze names up to three stones):
//! [`Game::legal_moves`] lists every play except that a Freeze names at most one stone; every
//! listed move is legal, and [`Game::check_move`] accepts Freezes of two and three stones too.
//! [`Game::random_move`] draws the card (or Duplicard and card) uniformly and then its secondary
//! choice uniformly (for Freeze: a number of stones 0..=3, then the stones), so it is not uniform
//! over the whole space, but it reaches every legal move.

use std::fmt::{self, Write as _};

use colosseum_engine::{
    Game, IllegalMove, NotationError, OptionDoc, OptionReader, OptionsError, Outcome, Pending,
    RawOptions, Score, Seat, Step, StepError, Viewer,
};
use rand::Rng;
use serde::Serialize;
use serde_json::{json, Map, Value};

use colosseum_engine::SeatPair;

/// The clocks at the table (the seed): 60 s an action, five minutes for the Intermission's
/// assignment, ten minutes of reserve spent continuously; running out of reserve loses at once.
pub const TIMING: crate::Timing = crate::Timing {
    decisions: &[
        crate::DecisionClock {
            kind: "assign",
            what: "the Intermission's assignment",
            ms: 300_000,
            loses: true,
            default: "",
        },
        crate::DecisionClock {
            kind: "*",
            what: "every other action (a pick, a Discard, the cards, a stone, a Leap or Shift)",
            ms: 60_000,
            loses: true,
            default: "",
        },
    ],
    bank_ms: 600_000,
    bank_step_ms: 0,
};

/// The options.
pub const OPTIONS: &[OptionDoc] = &[
    OptionDoc {
        name: "schedule",
        default: "MM1 DM1 MM2 DM2 MM3 DM3 MM4 DM4 MM5 DM5 MM6 DM6 MM7 DM7 MM8 DM8 MM9 DM9 MM10 MM11 FM1 FM2",
        allowed: "1 to 22 rounds named MMn, DMn or FMn, separated by spaces; at most 13 card rounds (MM, FM) and 9 DM rounds",
        help: "the Cauldron rounds in order: MM and FM rounds hand out cards, DM rounds victory conditions",
    },
    OptionDoc {
        name: "cauldron",
        default: "simulated",
        allowed: "simulated or live",
        help: "simulated: races are decided at random (p1_chance, none_chance); live: the host supplies each race's result as a chance step (a record without it falls back to the same random draw)",
    },
    OptionDoc {
        name: "p1_chance",
        default: "0.5",
        allowed: "a number from 0 to 1",
        help: "in a race that someone wins, the chance that it is p1",
    },
    OptionDoc {
        name: "none_chance",
        default: "0",
        allowed: "a number from 0 to 1",
        help: "the chance that nobody wins a race (three minutes pass without a correct answer)",
    },
    OptionDoc {
        name: "advantage",
        default: "p1",
        allowed: "p1 or p2",
        help: "who wins a round 1 played with equal card values (a round always has a winner)",
    },
    OptionDoc {
        name: "discard",
        default: "none",
        allowed: "none, p1, p2 or both",
        help: "who holds the one-use Discard item",
    },
    OptionDoc {
        name: "tiebreaker",
        default: "none",
        allowed: "none, p1 or p2",
        help: "who holds the Tiebreaker item (wins on equal victory points); none: equal points draw",
    },
];

/// Columns of the grid, `a`..`g`.
pub const COLUMNS: usize = 7;
/// Rows of the grid, `1` (top) .. `6`.
pub const ROWS: usize = 6;
/// Cells of the grid.
pub const CELLS: usize = COLUMNS * ROWS;
/// Placement rounds.
pub const PLACEMENT_ROUNDS: u8 = 12;
/// The placement rounds after which assigned conditions are scored.
pub const SCORING_ROUNDS: [u8; 3] = [6, 9, 12];
/// At most this many conditions may be assigned to one scoring round.
pub const PER_SCORING_ROUND: u32 = 3;
/// The most Cauldron rounds a schedule may have.
pub const MAX_CAULDRON_ROUNDS: usize = 22;
/// The starting deck: cards 1..8, three of each plus a fourth 6 and a fourth 8.
pub const DECK: [u8; 8] = [3, 3, 3, 3, 3, 4, 3, 4];
/// The number of victory conditions.
pub const CONDITION_COUNT: u8 = 18;

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

/// The kind of a Cauldron round: which Match its question is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum RoundKind {
    /// A Main Match question: a pair of cards.
    #[serde(rename = "MM")]
    MainMatch,
    /// A Death Match question: a pair of victory conditions.
    #[serde(rename = "DM")]
    DeathMatch,
    /// A Final Match question: a pair of cards.
    #[serde(rename = "FM")]
    FinalMatch,
}

impl RoundKind {
    fn prefix(self) -> &'static str {
        match self {
            RoundKind::MainMatch => "MM",
            RoundKind::DeathMatch => "DM",
            RoundKind::FinalMatch => "FM",
        }
    }

    /// Whether the round hands out cards (MM, FM) rather than victory conditions (DM).
    #[must_use]
    pub fn gives_cards(self) -> bool {
        self != RoundKind::DeathMatch
    }
}

/// One Cauldron round of the schedule, such as `DM3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScheduledRound {
    /// MM, DM or FM.
    pub kind: RoundKind,
    /// The Match's number.
    pub number: u8,
}

impl fmt::Display for ScheduledRound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.prefix(), self.number)
    }
}

impl Serialize for ScheduledRound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The Cauldron's rounds in order (fixed-size, so options stay `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    rounds: [ScheduledRound; MAX_CAULDRON_ROUNDS],
    len: u8,
}

impl Schedule {
    /// The default: MM1 DM1 MM2 DM2 … MM9 DM9 MM10 MM11 FM1 FM2.
    #[must_use]
    pub fn standard() -> Schedule {
        let mut rounds = [ScheduledRound {
            kind: RoundKind::MainMatch,
            number: 1,
        }; MAX_CAULDRON_ROUNDS];
        let mut i = 0;
        for n in 1..=9u8 {
            rounds[i] = ScheduledRound {
                kind: RoundKind::MainMatch,
                number: n,
            };
            rounds[i + 1] = ScheduledRound {
                kind: RoundKind::DeathMatch,
                number: n,
            };
            i += 2;
        }
        for (kind, number) in [
            (RoundKind::MainMatch, 10),
            (RoundKind::MainMatch, 11),
            (RoundKind::FinalMatch, 1),
            (RoundKind::FinalMatch, 2),
        ] {
            rounds[i] = ScheduledRound { kind, number };
            i += 1;
        }
        Schedule {
            rounds,
            len: MAX_CAULDRON_ROUNDS as u8,
        }
    }

    /// Parses `MM1 DM1 ...`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Schedule, String> {
        let mut schedule = Schedule {
            rounds: Schedule::standard().rounds,
            len: 0,
        };
        let (mut cards, mut dms) = (0, 0);
        for token in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let upper = token.to_ascii_uppercase();
            let kind = match upper.get(..2) {
                Some("MM") => RoundKind::MainMatch,
                Some("DM") => RoundKind::DeathMatch,
                Some("FM") => RoundKind::FinalMatch,
                _ => return Err(format!("`{token}` is not MMn, DMn or FMn")),
            };
            let number: u8 = upper[2..]
                .parse()
                .map_err(|_| format!("`{token}` needs a Match number, such as MM3"))?;
            if usize::from(schedule.len) == MAX_CAULDRON_ROUNDS {
                return Err("more than 22 rounds".into());
            }
            if kind.gives_cards() {
                cards += 1;
            } else {
                dms += 1;
            }
            schedule.rounds[usize::from(schedule.len)] = ScheduledRound { kind, number };
            schedule.len += 1;
        }
        if schedule.len == 0 {
            return Err("no rounds".into());
        }
        if cards > 13 {
            return Err(format!(
                "{cards} card rounds, but the 26-card deck fills only 13"
            ));
        }
        if dms > 9 {
            return Err(format!(
                "{dms} DM rounds, but the 18 victory conditions fill only 9"
            ));
        }
        Ok(schedule)
    }

    /// The rounds in order.
    #[must_use]
    pub fn rounds(&self) -> &[ScheduledRound] {
        &self.rounds[..usize::from(self.len)]
    }
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule::standard()
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::write_spaced(f, self.rounds(), "")
    }
}

impl Serialize for Schedule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Whether races are simulated or supplied by the host's live quiz.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CauldronMode {
    /// Races are drawn at random with the configured chances.
    #[default]
    Simulated,
    /// The host supplies each race's result; without one, the same random draw is the fallback.
    Live,
}

/// The checked options of a Witch's Brew game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WitchsBrewOptions {
    /// The Cauldron rounds in order.
    pub schedule: Schedule,
    /// Simulated or live races.
    pub cauldron: CauldronMode,
    /// The chance that `p1` wins a race that someone wins.
    pub p1_chance: f64,
    /// The chance that nobody wins a race.
    pub none_chance: f64,
    /// Who wins a round 1 with equal values.
    pub advantage: Seat,
    /// Who holds the Discard item (index by seat).
    pub discard: [bool; 2],
    /// Who holds the Tiebreaker item.
    pub tiebreaker: Option<Seat>,
}

impl Default for WitchsBrewOptions {
    fn default() -> Self {
        WitchsBrewOptions {
            schedule: Schedule::standard(),
            cauldron: CauldronMode::Simulated,
            p1_chance: 0.5,
            none_chance: 0.0,
            advantage: Seat::P1,
            discard: [false; 2],
            tiebreaker: None,
        }
    }
}

impl WitchsBrewOptions {
    /// Reads the options from JSON, refusing unknown names and bad values.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        let r = OptionReader::new(raw, OPTIONS);
        let schedule = match raw.get("schedule") {
            None => Schedule::standard(),
            Some(Value::String(s)) => Schedule::parse(s).map_err(|why| OptionsError::BadValue {
                name: "schedule".into(),
                value: Value::String(s.clone()).to_string(),
                allowed: format!("{} ({why})", OPTIONS[0].allowed),
            })?,
            Some(other) => {
                return Err(OptionsError::BadValue {
                    name: "schedule".into(),
                    value: other.to_string(),
                    allowed: OPTIONS[0].allowed.into(),
                })
            }
        };
        let cauldron = match r.choice("cauldron", 0, &["simulated", "live"])? {
            0 => CauldronMode::Simulated,
            _ => CauldronMode::Live,
        };
        let p1_chance = r.float("p1_chance", 0.5, 0.0, 1.0)?;
        let none_chance = r.float("none_chance", 0.0, 0.0, 1.0)?;
        let advantage = match r.choice("advantage", 0, &["p1", "p2"])? {
            0 => Seat::P1,
            _ => Seat::P2,
        };
        let discard = match r.choice("discard", 0, &["none", "p1", "p2", "both"])? {
            0 => [false, false],
            1 => [true, false],
            2 => [false, true],
            _ => [true, true],
        };
        let tiebreaker = match r.choice("tiebreaker", 0, &["none", "p1", "p2"])? {
            0 => None,
            1 => Some(Seat::P1),
            _ => Some(Seat::P2),
        };
        r.finish()?;
        Ok(WitchsBrewOptions {
            schedule,
            cauldron,
            p1_chance,
            none_chance,
            advantage,
            discard,
            tiebreaker,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Cells, the grid and the victory conditions
// ---------------------------------------------------------------------------------------------

/// A cell of the grid, written column letter then row number: `a1` (top left) .. `g6`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell in `column` (0 = `a`) and `row` (0 = row 1, the top), if on the grid.
    #[must_use]
    pub fn new(column: usize, row: usize) -> Option<Cell> {
        (column < COLUMNS && row < ROWS).then(|| Cell((row * COLUMNS + column) as u8))
    }

    /// `row * 7 + column`, 0..42.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The column, 0 (`a`) .. 6 (`g`).
    #[must_use]
    pub fn column(self) -> usize {
        self.index() % COLUMNS
    }

    /// The row, 0 (row 1, the top) .. 5 (row 6).
    #[must_use]
    pub fn row(self) -> usize {
        self.index() / COLUMNS
    }

    /// The cell's bit in a [`Grid`] bitboard.
    #[must_use]
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    fn from_bit_index(i: u32) -> Cell {
        Cell(i as u8)
    }

    /// Parses `a1`..`g6`, case-insensitive.
    #[must_use]
    pub fn parse(text: &str) -> Option<Cell> {
        let (column, row) = crate::grid::parse_short_cell(text)?;
        Cell::new(column, row)
    }

    /// The neighbour one step in `direction`, if on the grid.
    #[must_use]
    pub fn step(self, direction: Direction) -> Option<Cell> {
        let (c, r) = (self.column() as i32, self.row() as i32);
        let (c, r) = match direction {
            Direction::Up => (c, r - 1),
            Direction::Down => (c, r + 1),
            Direction::Left => (c - 1, r),
            Direction::Right => (c + 1, r),
        };
        (c >= 0 && r >= 0)
            .then(|| Cell::new(c as usize, r as usize))
            .flatten()
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::grid::write_cell(f, self.column(), self.row())
    }
}

impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A direction on the grid (row 1 is at the top, so `up` goes towards row 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards row 1.
    Up,
    /// Towards row 6.
    Down,
    /// Towards column `a`.
    Left,
    /// Towards column `g`.
    Right,
}

impl Direction {
    /// All four, in notation order.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    fn parse(text: &str) -> Option<Direction> {
        match text.to_ascii_lowercase().as_str() {
            "up" | "u" => Some(Direction::Up),
            "down" | "d" => Some(Direction::Down),
            "left" | "l" => Some(Direction::Left),
            "right" | "r" => Some(Direction::Right),
            _ => None,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        })
    }
}

const FULL: u64 = (1u64 << CELLS) - 1;
const COLUMN_A: u64 = column_mask(0);
const COLUMN_G: u64 = column_mask(COLUMNS - 1);
const ROW_1: u64 = row_mask(0);
const ROW_6: u64 = row_mask(ROWS - 1);
const EDGE: u64 = COLUMN_A | COLUMN_G | ROW_1 | ROW_6;
/// Cells not bordering an edge of the grid: columns b..f, rows 2..5.
const INTERIOR: u64 = FULL & !EDGE;
const CORNERS: u64 = (COLUMN_A | COLUMN_G) & (ROW_1 | ROW_6);

/// The bits of column `c` (0 = `a`).
#[must_use]
pub const fn column_mask(c: usize) -> u64 {
    let mut m = 0;
    let mut r = 0;
    while r < ROWS {
        m |= 1 << (r * COLUMNS + c);
        r += 1;
    }
    m
}

/// The bits of row `r` (0 = row 1, the top).
#[must_use]
pub const fn row_mask(r: usize) -> u64 {
    ((1u64 << COLUMNS) - 1) << (r * COLUMNS)
}

/// Each bit moved one column right (towards `g`); bits leaving the grid vanish.
fn east(x: u64) -> u64 {
    (x << 1) & !COLUMN_A & FULL
}
/// Each bit moved one column left.
fn west(x: u64) -> u64 {
    (x >> 1) & !COLUMN_G
}
/// Each bit moved one row down (towards row 6).
fn south(x: u64) -> u64 {
    (x << COLUMNS) & FULL
}
/// Each bit moved one row up.
fn north(x: u64) -> u64 {
    x >> COLUMNS
}

/// Whether `m` holds `k` cells in a row horizontally, vertically or diagonally.
fn has_line(m: u64, k: u32) -> bool {
    let steps: [fn(u64) -> u64; 4] = [east, south, |x| south(east(x)), |x| south(west(x))];
    steps.iter().any(|step| {
        let mut run = m;
        for _ in 1..k {
            run = m & step(run);
        }
        run != 0
    })
}

/// Cells whose 2×2 square (with the cells left, above and above-left) lies in `m`.
fn has_square(m: u64) -> bool {
    m & east(m) & south(m) & south(east(m)) != 0
}

/// Cells all four of whose diagonal neighbours are in `m` (only interior cells have four).
fn diagonals_in(m: u64) -> u64 {
    south(east(m)) & south(west(m)) & north(east(m)) & north(west(m))
}

/// Cells all four of whose orthogonal neighbours are in `m` (only interior cells have four).
fn orthogonals_in(m: u64) -> u64 {
    east(m) & west(m) & south(m) & north(m)
}

/// The 3×3 squares of the grid, as masks.
const SQUARES_3X3: [u64; 20] = {
    let mut out = [0u64; 20];
    let mut i = 0;
    let mut top = 0;
    while top + 3 <= ROWS {
        let mut left = 0;
        while left + 3 <= COLUMNS {
            let mut m = 0u64;
            let mut dr = 0;
            while dr < 3 {
                let mut dc = 0;
                while dc < 3 {
                    m |= 1 << ((top + dr) * COLUMNS + left + dc);
                    dc += 1;
                }
                dr += 1;
            }
            out[i] = m;
            i += 1;
            left += 1;
        }
        top += 1;
    }
    out
};

/// The kind of stone on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stone {
    /// `p1`'s colour.
    P1,
    /// `p2`'s colour.
    P2,
    /// A neutral stone.
    Gray,
}

/// The 7×6 grid: one bitboard per colour, and the frozen stones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    colour: [u64; 2],
    gray: u64,
    frozen: u64,
}

impl Grid {
    /// Builds a grid from a picture: one line per row (row 1 first), one character per column:
    /// `X` `p1`, `O` `p2`, `+` gray, `.` empty; lower case `x`, `o` and `*` are the same stones
    /// frozen. Spaces are ignored. For tests and analysis.
    pub fn from_picture(rows: &[&str]) -> Result<Grid, String> {
        if rows.len() != ROWS {
            return Err(format!("{} rows, the grid has 6", rows.len()));
        }
        let mut grid = Grid::default();
        for (r, line) in rows.iter().enumerate() {
            let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            if chars.len() != COLUMNS {
                return Err(format!("row {} has {} cells, not 7", r + 1, chars.len()));
            }
            for (c, ch) in chars.into_iter().enumerate() {
                let bit = Cell::new(c, r).expect("on the grid").bit();
                match ch {
                    'X' | 'x' => grid.colour[0] |= bit,
                    'O' | 'o' => grid.colour[1] |= bit,
                    '+' | '*' => grid.gray |= bit,
                    '.' => {}
                    _ => return Err(format!("`{ch}` is not a cell")),
                }
                if matches!(ch, 'x' | 'o' | '*') {
                    grid.frozen |= bit;
                }
            }
        }
        Ok(grid)
    }

    /// The stone on `cell`, if any.
    #[must_use]
    pub fn stone(&self, cell: Cell) -> Option<Stone> {
        let b = cell.bit();
        if self.colour[0] & b != 0 {
            Some(Stone::P1)
        } else if self.colour[1] & b != 0 {
            Some(Stone::P2)
        } else if self.gray & b != 0 {
            Some(Stone::Gray)
        } else {
            None
        }
    }

    /// Whether the stone on `cell` is frozen.
    #[must_use]
    pub fn is_frozen(&self, cell: Cell) -> bool {
        self.frozen & cell.bit() != 0
    }

    /// The occupied cells.
    #[must_use]
    pub fn occupied(&self) -> u64 {
        self.colour[0] | self.colour[1] | self.gray
    }

    /// The stones of `seat`'s colour.
    #[must_use]
    pub fn stones(&self, seat: Seat) -> u64 {
        self.colour[seat.index()]
    }

    /// The gray stones.
    #[must_use]
    pub fn gray(&self) -> u64 {
        self.gray
    }

    /// The frozen stones.
    #[must_use]
    pub fn frozen(&self) -> u64 {
        self.frozen
    }

    fn place(&mut self, cell: Cell, stone: Stone) {
        match stone {
            Stone::P1 => self.colour[0] |= cell.bit(),
            Stone::P2 => self.colour[1] |= cell.bit(),
            Stone::Gray => self.gray |= cell.bit(),
        }
    }

    /// Moves the (unfrozen) stone on `from` to the empty `to`.
    fn relocate(&mut self, from: Cell, to: Cell) {
        let (f, t) = (from.bit(), to.bit());
        let [p1, p2] = &mut self.colour;
        for m in [p1, p2, &mut self.gray] {
            if *m & f != 0 {
                *m = (*m & !f) | t;
            }
        }
    }

    /// Where a Leap of the stone on `from` in `direction` lands: the nearest empty cell on that
    /// line, passing over stones; `None` if there is none.
    #[must_use]
    pub fn leap_target(&self, from: Cell, direction: Direction) -> Option<Cell> {
        let occupied = self.occupied();
        let mut cell = from.step(direction)?;
        loop {
            if occupied & cell.bit() == 0 {
                return Some(cell);
            }
            cell = cell.step(direction)?;
        }
    }

    /// Whether `condition` holds for `seat` on this grid.
    #[must_use]
    pub fn meets(&self, seat: Seat, condition: Condition) -> bool {
        let s = Sight {
            own: self.colour[seat.index()],
            opponent: self.colour[seat.other().index()],
            gray: self.gray,
            frozen: self.frozen,
        };
        condition.holds(&s)
    }

    /// The conditions of `set` that hold for `seat`.
    #[must_use]
    pub fn met(&self, seat: Seat, set: ConditionSet) -> ConditionSet {
        ConditionSet(
            set.iter()
                .filter(|&c| self.meets(seat, c))
                .fold(0, |m, c| m | c.bit()),
        )
    }
}

/// The grid as one seat sees it for its conditions: its own stones, the opponent's, gray, frozen.
#[derive(Clone, Copy, Debug)]
pub struct Sight {
    /// Stones of the seat's colour.
    pub own: u64,
    /// Stones of the opponent's colour.
    pub opponent: u64,
    /// Neutral stones.
    pub gray: u64,
    /// Frozen stones of any colour.
    pub frozen: u64,
}

/// The victory conditions as functions of a [`Sight`].
///
/// "Empty spaces do not count": wherever a condition asks for cells to hold certain stones, each
/// such cell must hold one of them.
pub mod conditions {
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
}

type ConditionCheck = fn(&Sight) -> bool;

const CONDITION_CHECKS: [ConditionCheck; CONDITION_COUNT as usize] = [
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

const CONDITION_TEXTS: [&str; CONDITION_COUNT as usize] = [
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
pub struct Condition(u8);

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

    fn bit(self) -> u32 {
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
pub struct ConditionSet(u32);

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

    fn nth(self, n: u32) -> Condition {
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

// ---------------------------------------------------------------------------------------------
// Cards and moves
// ---------------------------------------------------------------------------------------------

/// The effect of a card, by its number.
#[must_use]
pub fn card_name(card: u8) -> &'static str {
    match card {
        1 => "Snipe",
        2 => "Lock",
        3 => "Guess",
        4 => "Copy",
        5 => "Leap",
        6 => "Freeze",
        7 => "Shift",
        8 => "Diminish",
        _ => "?",
    }
}

const SNIPE: u8 = 1;
const LOCK: u8 = 2;
const GUESS: u8 = 3;
const COPY: u8 = 4;
const LEAP: u8 = 5;
const FREEZE: u8 = 6;
const SHIFT: u8 = 7;
const DIMINISH: u8 = 8;

/// A hand of cards, as counts per card 1..8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand([u8; 8]);

impl Hand {
    /// How many of `card` the hand holds.
    #[must_use]
    pub fn count(self, card: u8) -> u8 {
        match card {
            1..=8 => self.0[usize::from(card - 1)],
            _ => 0,
        }
    }

    /// The number of cards.
    #[must_use]
    pub fn len(self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether the hand is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == [0; 8]
    }

    /// The cards, lowest first.
    pub fn cards(self) -> impl Iterator<Item = u8> {
        (1..=8u8).flat_map(move |c| std::iter::repeat_n(c, usize::from(self.count(c))))
    }

    /// The distinct cards held, lowest first.
    pub fn distinct(self) -> impl Iterator<Item = u8> {
        (1..=8u8).filter(move |&c| self.count(c) > 0)
    }

    /// A hand of the given cards.
    #[must_use]
    pub fn of(cards: &[u8]) -> Hand {
        let mut h = Hand::default();
        for &c in cards {
            h.add(c);
        }
        h
    }

    fn add(&mut self, card: u8) {
        self.0[usize::from(card - 1)] += 1;
    }

    fn remove(&mut self, card: u8) {
        self.0[usize::from(card - 1)] -= 1;
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::write_spaced(f, self.cards(), "empty")
    }
}

/// A card's secondary choice, named with the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Secondary {
    /// The card has none.
    None,
    /// Lock: the column (0 = `a`) the opponent's stone must go in.
    Column(u8),
    /// Guess: the card guessed.
    Guess(u8),
    /// Freeze: up to three stones, as cells (the first `len`).
    Freeze {
        /// The cells, in grid order.
        cells: [Cell; 3],
        /// How many.
        len: u8,
    },
}

/// A card played in a Placement round: the card (or a Duplicard acting as it) and its secondary
/// choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    /// The card's identity, 1..8 (for a Duplicard: the card it acts as).
    pub card: u8,
    /// Whether the Duplicard is played as `card`.
    pub duplicard: bool,
    /// The secondary choice.
    pub secondary: Secondary,
}

impl Play {
    /// A plain card without a secondary choice (Snipe, Copy, Leap, Shift, Diminish, or a Freeze of
    /// nothing).
    #[must_use]
    pub fn card(card: u8) -> Play {
        Play {
            card,
            duplicard: false,
            secondary: if card == FREEZE {
                Secondary::Freeze {
                    cells: [Cell::default(); 3],
                    len: 0,
                }
            } else {
                Secondary::None
            },
        }
    }

    /// Lock naming `column` (0 = `a`).
    #[must_use]
    pub fn lock(column: u8) -> Play {
        Play {
            card: LOCK,
            duplicard: false,
            secondary: Secondary::Column(column),
        }
    }

    /// Guess naming `card`.
    #[must_use]
    pub fn guess(card: u8) -> Play {
        Play {
            card: GUESS,
            duplicard: false,
            secondary: Secondary::Guess(card),
        }
    }

    /// Freeze of `cells` (at most three; they are kept in grid order).
    #[must_use]
    pub fn freeze(cells: &[Cell]) -> Play {
        let mut c = [Cell::default(); 3];
        let len = cells.len().min(3);
        c[..len].copy_from_slice(&cells[..len]);
        c[..len].sort_unstable();
        Play {
            card: FREEZE,
            duplicard: false,
            secondary: Secondary::Freeze {
                cells: c,
                len: len as u8,
            },
        }
    }

    /// The same play made with the Duplicard.
    #[must_use]
    pub fn with_duplicard(self) -> Play {
        Play {
            duplicard: true,
            ..self
        }
    }

    fn frozen_cells(&self) -> &[Cell] {
        match &self.secondary {
            Secondary::Freeze { cells, len } => &cells[..usize::from(*len)],
            _ => &[],
        }
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.duplicard {
            f.write_str("dup ")?;
        }
        write!(f, "{}", self.card)?;
        match self.secondary {
            Secondary::None => {}
            Secondary::Column(c) => write!(f, " {}", char::from(b'a' + c))?,
            Secondary::Guess(g) => write!(f, " {g}")?,
            Secondary::Freeze { cells, len } => {
                for c in &cells[..usize::from(len)] {
                    write!(f, " {c}")?;
                }
            }
        }
        Ok(())
    }
}

impl Serialize for Play {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A prize of the Cauldron: a card or a victory condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Prize {
    /// A card 1..8.
    Card(u8),
    /// A victory condition.
    Condition(Condition),
}

impl fmt::Display for Prize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Prize::Card(c) => write!(f, "{c}"),
            Prize::Condition(c) => write!(f, "{c}"),
        }
    }
}

impl Serialize for Prize {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A conditions-to-rounds assignment: the sets for rounds 6, 9 and 12.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Assignment(pub [ConditionSet; 3]);

impl fmt::Display for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / {} / {}", self.0[0], self.0[1], self.0[2])
    }
}

impl Serialize for Assignment {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = serde_json::Map::new();
        for (i, set) in self.0.iter().enumerate() {
            m.insert(
                SCORING_ROUNDS[i].to_string(),
                serde_json::to_value(set).map_err(serde::ser::Error::custom)?,
            );
        }
        m.serialize(s)
    }
}

/// Any decision of a seat; which kinds are legal depends on the pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The race winner's pick from the prize pair.
    Pick(Prize),
    /// The Discard holder's answer after a DM pair is handed out: `true` discards it.
    Discard(bool),
    /// The Intermission assignment.
    Assign(Assignment),
    /// A card played in a Placement round.
    Play(Play),
    /// A stone placed (the player's colour, or gray for the round winner's last decision).
    Stone(Cell),
    /// After Leap: a stone of yours and a direction, or `None` to pass.
    Leap(Option<(Cell, Direction)>),
    /// After Shift: a stone of yours or a neutral stone and the empty neighbour it moves to, or
    /// `None` to pass.
    Shift(Option<(Cell, Cell)>),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pick(p) => write!(f, "{p}"),
            Move::Discard(true) => f.write_str("discard"),
            Move::Discard(false) => f.write_str("keep"),
            Move::Assign(a) => write!(f, "{a}"),
            Move::Play(p) => write!(f, "{p}"),
            Move::Stone(c) => write!(f, "{c}"),
            Move::Leap(None) | Move::Shift(None) => f.write_str("pass"),
            Move::Leap(Some((c, d))) => write!(f, "{c} {d}"),
            Move::Shift(Some((a, b))) => write!(f, "{a} {b}"),
        }
    }
}

/// A chance outcome: a prize pair drawn, or a race's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chance {
    /// Two cards drawn for an MM/FM round (lower first).
    Cards(u8, u8),
    /// Two victory conditions drawn for a DM round (lower first).
    Conditions(Condition, Condition),
    /// The race's winner, `None` if nobody answered in time.
    Race(Option<Seat>),
}

impl fmt::Display for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Chance::Cards(a, b) => write!(f, "{a} {b}"),
            Chance::Conditions(a, b) => write!(f, "{a} {b}"),
            Chance::Race(Some(s)) => write!(f, "{s}"),
            Chance::Race(None) => f.write_str("none"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The game
// ---------------------------------------------------------------------------------------------

/// Where the game stands: which decision is pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "stage", content = "seat")]
pub enum Stage {
    /// Chance draws the Cauldron round's prize pair.
    DrawPair,
    /// Chance (or the host) gives the race's result.
    Race,
    /// The race winner picks one of the pair.
    Pick(Seat),
    /// Discard holders decide whether to discard the DM pair just handed out (`None`: both).
    Discard(Option<Seat>),
    /// Both seats assign their conditions to rounds 6, 9 and 12.
    Assign,
    /// Both seats play a card.
    PlayCards,
    /// The round winner places a stone of their colour.
    WinnerStone,
    /// The round winner's Leap or Shift.
    WinnerMove,
    /// The round loser places a stone of their colour.
    LoserStone,
    /// The round loser's Leap or Shift.
    LoserMove,
    /// The round winner places a gray stone.
    GrayStone,
    /// The game is over.
    Over,
}

/// Why a Placement round went to its winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WinReason {
    /// The winner's Snipe hit a Freeze, Shift or Diminish.
    Snipe,
    /// The winner guessed the loser's card.
    Guess,
    /// The higher value (after any cancelled win-effects).
    HigherValue,
    /// Equal values: the loser of the previous round wins.
    TieLostPrevious,
    /// Equal values in round 1: the advantage holder wins.
    TieAdvantage,
}

/// A revealed Placement round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlacementRound {
    /// 1..12.
    pub round: u8,
    /// Both plays, `p1` first.
    pub plays: [Play; 2],
    /// Both values after Diminish.
    pub values: [i8; 2],
    /// Whose win-effect fired (both: they cancelled).
    pub win_effects: [bool; 2],
    /// The round winner.
    pub winner: Seat,
    /// Why.
    pub reason: WinReason,
    /// The card each seat gained by Copy, if any.
    pub copied: [Option<u8>; 2],
    /// The stones placed so far this round: the winner's, the loser's, the gray one.
    pub placed: [Option<Cell>; 3],
    /// The winner's and the loser's Leap or Shift, as the stone's cells before and after (a Leap
    /// that found no empty cell, or a pass, moves nothing).
    pub moved: [Option<(Cell, Cell)>; 2],
}

/// A finished Cauldron round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CauldronRound {
    /// MM3, DM1, ...
    pub round: ScheduledRound,
    /// The pair shown.
    pub pair: [Prize; 2],
    /// The race winner (`None`: nobody, the pair is discarded).
    pub winner: Option<Seat>,
    /// What each seat received (`None`: nothing).
    pub received: [Option<Prize>; 2],
    /// Whether a Discard threw the DM pair away.
    pub discarded: bool,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// All scoring done (after round 12, or early when neither seat holds cards).
    Points { early: bool },
    /// A seat held no cards at a round's start; the other wins.
    NoCards(Seat),
}

/// A game of The Witch's Brew.
#[derive(Clone, Debug)]
pub struct WitchsBrew {
    options: WitchsBrewOptions,
    stage: Stage,
    /// The Cauldron round in progress (index into the schedule).
    cauldron_round: u8,
    deck: [u8; 8],
    conditions_left: ConditionSet,
    pair: [Prize; 2],
    cauldron_log: [Option<CauldronRound>; MAX_CAULDRON_ROUNDS],
    hands: [Hand; 2],
    duplicard_used: [bool; 2],
    discard_used: [bool; 2],
    held: [ConditionSet; 2],
    assignment: Option<[Assignment; 2]>,
    /// Conditions scored so far (checked) and those met when checked.
    checked: [ConditionSet; 2],
    met: [ConditionSet; 2],
    grid: Grid,
    /// The Placement round in progress, 1..12 (0 before the Placement Phase).
    round: u8,
    /// Diminish penalties on each seat's next card.
    penalty: [u8; 2],
    placement_log: [Option<PlacementRound>; PLACEMENT_ROUNDS as usize],
    end: Option<End>,
}

impl WitchsBrew {
    /// A new game: the Cauldron's first prize pair is about to be drawn.
    #[must_use]
    pub fn new(options: WitchsBrewOptions) -> Self {
        WitchsBrew {
            options,
            stage: Stage::DrawPair,
            cauldron_round: 0,
            deck: DECK,
            conditions_left: ConditionSet::ALL,
            pair: [Prize::Card(0); 2],
            cauldron_log: [None; MAX_CAULDRON_ROUNDS],
            hands: [Hand::default(); 2],
            duplicard_used: [false; 2],
            discard_used: [false; 2],
            held: [ConditionSet::default(); 2],
            assignment: None,
            checked: [ConditionSet::default(); 2],
            met: [ConditionSet::default(); 2],
            grid: Grid::default(),
            round: 0,
            penalty: [0; 2],
            placement_log: [None; PLACEMENT_ROUNDS as usize],
            end: None,
        }
    }

    /// A new game from raw options.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        WitchsBrewOptions::from_raw(raw).map(WitchsBrew::new)
    }

    /// A game at the start of the Placement Phase (or at round `round` of it) with the given
    /// hands, conditions, assignments and grid: for tests, puzzles and analysis.
    #[must_use]
    pub fn at_placement(
        options: WitchsBrewOptions,
        hands: [Hand; 2],
        assignment: [Assignment; 2],
        grid: Grid,
        round: u8,
    ) -> Self {
        let mut game = WitchsBrew::new(options);
        game.cauldron_round = options.schedule.len;
        game.hands = hands;
        game.held = assignment.map(|a| ConditionSet(a.0.iter().fold(0, |m, s| m | s.0)));
        game.assignment = Some(assignment);
        game.grid = grid;
        game.round = round.clamp(1, PLACEMENT_ROUNDS);
        game.stage = Stage::PlayCards;
        game.start_round();
        game
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> WitchsBrewOptions {
        self.options
    }

    /// The stage (which decision is pending).
    #[must_use]
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The grid.
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// A seat's cards.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> Hand {
        self.hands[seat.index()]
    }

    /// A seat's victory conditions.
    #[must_use]
    pub fn conditions(&self, seat: Seat) -> ConditionSet {
        self.held[seat.index()]
    }

    /// Whether a seat may still play its Duplicard.
    #[must_use]
    pub fn has_duplicard(&self, seat: Seat) -> bool {
        !self.duplicard_used[seat.index()]
    }

    /// The Diminish penalty on a seat's next card.
    #[must_use]
    pub fn penalty(&self, seat: Seat) -> u8 {
        self.penalty[seat.index()]
    }

    /// Each seat's victory points so far.
    #[must_use]
    pub fn points(&self) -> [u32; 2] {
        self.met.map(ConditionSet::points)
    }

    /// The conditions each seat met when they were checked.
    #[must_use]
    pub fn met(&self) -> [ConditionSet; 2] {
        self.met
    }

    /// The Placement round in progress (0 before the Placement Phase).
    #[must_use]
    pub fn round(&self) -> u8 {
        self.round
    }

    /// The last revealed Placement round, if any.
    #[must_use]
    pub fn last_round(&self) -> Option<PlacementRound> {
        self.placement_log.iter().rev().find_map(|r| *r)
    }

    fn current_round(&self) -> Option<&PlacementRound> {
        self.round
            .checked_sub(1)
            .and_then(|i| self.placement_log.get(usize::from(i)))
            .and_then(Option::as_ref)
    }

    fn scheduled(&self) -> ScheduledRound {
        self.options.schedule.rounds[usize::from(self.cauldron_round)]
    }

    /// The seat that acts in the current stone or move stage.
    fn actor(&self) -> Option<Seat> {
        let r = self.current_round()?;
        match self.stage {
            Stage::WinnerStone | Stage::WinnerMove | Stage::GrayStone => Some(r.winner),
            Stage::LoserStone | Stage::LoserMove => Some(r.winner.other()),
            _ => None,
        }
    }

    /// Where `seat` may put its colour stone now: every empty cell, or the Locked column's empty
    /// cells if the opponent's Lock names a column with space.
    fn stone_targets(&self, seat: Seat) -> u64 {
        let empty = FULL & !self.grid.occupied();
        if let Some(r) = self.current_round() {
            if let Secondary::Column(c) = r.plays[seat.other().index()].secondary {
                let in_column = empty & column_mask(usize::from(c));
                if in_column != 0 {
                    return in_column;
                }
            }
        }
        empty
    }

    /// The stones `seat` may move now: its own (Leap) or its own and gray (Shift), unfrozen.
    fn movable(&self, seat: Seat, shift: bool) -> u64 {
        let mut m = self.grid.stones(seat);
        if shift {
            m |= self.grid.gray;
        }
        m & !self.grid.frozen
    }

    fn mover_card(&self) -> u8 {
        match (self.current_round(), self.actor()) {
            (Some(r), Some(s)) => r.plays[s.index()].card,
            _ => 0,
        }
    }

    // --- transitions ---------------------------------------------------------------------------

    fn next_cauldron_round(&mut self) {
        self.cauldron_round += 1;
        if self.cauldron_round == self.options.schedule.len {
            self.stage = Stage::Assign;
        } else {
            self.stage = Stage::DrawPair;
        }
    }

    fn hand_out(&mut self, winner: Seat, pick: Prize) {
        let other = if self.pair[0] == pick {
            self.pair[1]
        } else {
            self.pair[0]
        };
        let mut received = [None; 2];
        received[winner.index()] = Some(pick);
        received[winner.other().index()] = Some(other);
        for (seat, prize) in [(winner, pick), (winner.other(), other)] {
            match prize {
                Prize::Card(c) => self.hands[seat.index()].add(c),
                Prize::Condition(c) => self.held[seat.index()].0 |= c.bit(),
            }
        }
        self.cauldron_log[usize::from(self.cauldron_round)] = Some(CauldronRound {
            round: self.scheduled(),
            pair: self.pair,
            winner: Some(winner),
            received,
            discarded: false,
        });
        let holders = [0, 1].map(|i| self.options.discard[i] && !self.discard_used[i]);
        if !self.scheduled().kind.gives_cards() && (holders[0] || holders[1]) {
            self.stage = Stage::Discard(match holders {
                [true, true] => None,
                [true, false] => Some(Seat::P1),
                _ => Some(Seat::P2),
            });
        } else {
            self.next_cauldron_round();
        }
    }

    fn resolve_discard(&mut self, answers: [Option<bool>; 2]) {
        let discard = answers.contains(&Some(true));
        if discard {
            for (i, a) in answers.iter().enumerate() {
                if *a == Some(true) {
                    self.discard_used[i] = true;
                }
            }
            let log = self.cauldron_log[usize::from(self.cauldron_round)]
                .as_mut()
                .expect("the round was logged when handed out");
            log.discarded = true;
            for (i, prize) in log.received.iter().enumerate() {
                if let Some(Prize::Condition(c)) = prize {
                    self.held[i].0 &= !c.bit();
                }
            }
        }
        self.next_cauldron_round();
    }

    /// Begins the Placement round `self.round`, or ends the game if a seat holds no cards.
    fn start_round(&mut self) {
        let empty = self.hands.map(Hand::is_empty);
        match empty {
            [true, true] => self.finish_early(),
            [true, false] => self.end_game(End::NoCards(Seat::P2)),
            [false, true] => self.end_game(End::NoCards(Seat::P1)),
            [false, false] => self.stage = Stage::PlayCards,
        }
    }

    fn end_game(&mut self, end: End) {
        self.end = Some(end);
        self.stage = Stage::Over;
    }

    /// Neither seat holds cards: every condition not checked yet is checked now.
    fn finish_early(&mut self) {
        for seat in Seat::BOTH {
            let unchecked = ConditionSet(self.held[seat.index()].0 & !self.checked[seat.index()].0);
            self.score_set(seat, unchecked);
        }
        self.end_game(End::Points { early: true });
    }

    fn score_set(&mut self, seat: Seat, set: ConditionSet) {
        let i = seat.index();
        self.checked[i].0 |= set.0;
        self.met[i].0 |= self.grid.met(seat, set).0;
    }

    fn reveal(&mut self, plays: [Play; 2]) {
        let mut values = [0i8; 2];
        for (i, p) in plays.iter().enumerate() {
            values[i] = p.card as i8 - self.penalty[i] as i8;
            self.penalty[i] = u8::from(p.card == DIMINISH);
            if p.duplicard {
                self.duplicard_used[i] = true;
            } else {
                self.hands[i].remove(p.card);
            }
        }
        let fires = [0, 1].map(|i| {
            let (mine, theirs) = (plays[i], plays[1 - i]);
            match (mine.card, mine.secondary) {
                (SNIPE, _) => matches!(theirs.card, FREEZE | SHIFT | DIMINISH),
                (GUESS, Secondary::Guess(g)) => g == theirs.card,
                _ => false,
            }
        });
        let (winner, reason) = match fires {
            [true, false] => (Seat::P1, effect_reason(plays[0])),
            [false, true] => (Seat::P2, effect_reason(plays[1])),
            _ => match values[0].cmp(&values[1]) {
                std::cmp::Ordering::Greater => (Seat::P1, WinReason::HigherValue),
                std::cmp::Ordering::Less => (Seat::P2, WinReason::HigherValue),
                std::cmp::Ordering::Equal => match self.last_round() {
                    Some(prev) => (prev.winner.other(), WinReason::TieLostPrevious),
                    None => (self.options.advantage, WinReason::TieAdvantage),
                },
            },
        };
        let mut copied = [None; 2];
        for i in 0..2 {
            if plays[i].card == COPY && plays[1 - i].card != COPY {
                self.hands[i].add(plays[1 - i].card);
                copied[i] = Some(plays[1 - i].card);
            }
        }
        for p in &plays {
            for c in p.frozen_cells() {
                self.grid.frozen |= c.bit();
            }
        }
        self.placement_log[usize::from(self.round - 1)] = Some(PlacementRound {
            round: self.round,
            plays,
            values,
            win_effects: fires,
            winner,
            reason,
            copied,
            placed: [None; 3],
            moved: [None; 2],
        });
        self.stage = Stage::WinnerStone;
    }

    fn after_stone(&mut self, seat: Seat) {
        let card = self
            .current_round()
            .map_or(0, |r| r.plays[seat.index()].card);
        let moves = card == LEAP || card == SHIFT;
        self.stage = match (self.stage, moves) {
            (Stage::WinnerStone, true) => Stage::WinnerMove,
            (Stage::WinnerStone, false) | (Stage::WinnerMove, _) => Stage::LoserStone,
            (Stage::LoserStone, true) => Stage::LoserMove,
            _ => Stage::GrayStone,
        };
    }

    fn end_round(&mut self) {
        if let Some(k) = SCORING_ROUNDS.iter().position(|&r| r == self.round) {
            if let Some(a) = self.assignment {
                for seat in Seat::BOTH {
                    self.score_set(seat, a[seat.index()].0[k]);
                }
            }
        }
        if self.round == PLACEMENT_ROUNDS {
            self.end_game(End::Points { early: false });
        } else {
            self.round += 1;
            self.start_round();
        }
    }

    fn log_round(&mut self, f: impl FnOnce(&mut PlacementRound)) {
        if let Some(r) = self
            .round
            .checked_sub(1)
            .and_then(|i| self.placement_log.get_mut(usize::from(i)))
            .and_then(Option::as_mut)
        {
            f(r);
        }
    }

    fn log_move(&mut self, from: Cell, to: Cell) {
        let slot = usize::from(self.stage == Stage::LoserMove);
        self.log_round(|r| r.moved[slot] = Some((from, to)));
    }

    fn apply_move(&mut self, seat: Seat, mv: Move) {
        match mv {
            Move::Pick(p) => self.hand_out(seat, p),
            Move::Discard(d) => {
                let mut answers = [None; 2];
                answers[seat.index()] = Some(d);
                self.resolve_discard(answers);
            }
            Move::Stone(cell) => {
                let slot = match self.stage {
                    Stage::WinnerStone => 0,
                    Stage::LoserStone => 1,
                    _ => 2,
                };
                self.log_round(|r| r.placed[slot] = Some(cell));
                if self.stage == Stage::GrayStone {
                    self.grid.place(cell, Stone::Gray);
                    self.end_round();
                } else {
                    self.grid.place(
                        cell,
                        match seat {
                            Seat::P1 => Stone::P1,
                            Seat::P2 => Stone::P2,
                        },
                    );
                    self.after_stone(seat);
                }
            }
            Move::Leap(choice) => {
                if let Some((from, dir)) = choice {
                    if let Some(to) = self.grid.leap_target(from, dir) {
                        self.grid.relocate(from, to);
                        self.log_move(from, to);
                    }
                }
                self.after_stone(seat);
            }
            Move::Shift(choice) => {
                if let Some((from, to)) = choice {
                    self.grid.relocate(from, to);
                    self.log_move(from, to);
                }
                self.after_stone(seat);
            }
            Move::Assign(_) | Move::Play(_) => unreachable!("simultaneous moves come in pairs"),
        }
    }

    // --- checks ---------------------------------------------------------------------------------

    fn check_play(&self, seat: Seat, play: &Play) -> Result<(), IllegalMove> {
        let hand = self.hands[seat.index()];
        if !(1..=8).contains(&play.card) {
            return Err(IllegalMove::new("cards run from 1 to 8"));
        }
        if play.duplicard {
            if self.duplicard_used[seat.index()] {
                return Err(IllegalMove::new("you have already played your Duplicard"));
            }
            if hand.count(play.card) == 0 {
                return Err(IllegalMove::new(format!(
                    "the Duplicard must copy a card you hold; you have no {}; your hand is {hand}",
                    play.card
                )));
            }
        } else if hand.count(play.card) == 0 {
            return Err(IllegalMove::new(format!(
                "you have no {} ({}); your hand is {hand}",
                play.card,
                card_name(play.card)
            )));
        }
        match (play.card, play.secondary) {
            (LOCK, Secondary::Column(c)) if usize::from(c) < COLUMNS => Ok(()),
            (GUESS, Secondary::Guess(g)) if (1..=8).contains(&g) => Ok(()),
            (FREEZE, Secondary::Freeze { cells, len }) => {
                let cells = &cells[..usize::from(len)];
                let occupied = self.grid.occupied();
                let mut seen = 0u64;
                for c in cells {
                    if occupied & c.bit() == 0 {
                        return Err(IllegalMove::new(format!(
                            "Freeze names stones, and {c} is empty"
                        )));
                    }
                    if seen & c.bit() != 0 {
                        return Err(IllegalMove::new(format!("Freeze names {c} twice")));
                    }
                    seen |= c.bit();
                }
                Ok(())
            }
            (SNIPE | COPY | LEAP | SHIFT | DIMINISH, Secondary::None) => Ok(()),
            _ => Err(IllegalMove::new(format!(
                "{} ({}) takes {}",
                play.card,
                card_name(play.card),
                secondary_shape(play.card)
            ))),
        }
    }

    fn check_single(&self, seat: Seat, mv: &Move) -> Result<(), IllegalMove> {
        match (self.stage, mv) {
            (Stage::Pick(_), Move::Pick(p)) => {
                if self.pair.contains(p) {
                    Ok(())
                } else {
                    Err(IllegalMove::new(format!(
                        "{p} is not in the pair; pick {} or {}",
                        self.pair[0], self.pair[1]
                    )))
                }
            }
            (Stage::Discard(_), Move::Discard(_)) => Ok(()),
            (Stage::WinnerStone | Stage::LoserStone, Move::Stone(c)) => {
                if self.grid.occupied() & c.bit() != 0 {
                    return Err(IllegalMove::new(format!("{c} is taken")));
                }
                if self.stone_targets(seat) & c.bit() == 0 {
                    let col = self.current_round().and_then(|r| {
                        match r.plays[seat.other().index()].secondary {
                            Secondary::Column(col) => Some(char::from(b'a' + col)),
                            _ => None,
                        }
                    });
                    return Err(IllegalMove::new(format!(
                        "your opponent's Lock names column {}, which has space: your stone must go there",
                        col.unwrap_or('?')
                    )));
                }
                Ok(())
            }
            (Stage::GrayStone, Move::Stone(c)) => {
                if self.grid.occupied() & c.bit() != 0 {
                    Err(IllegalMove::new(format!("{c} is taken")))
                } else {
                    Ok(())
                }
            }
            (Stage::WinnerMove | Stage::LoserMove, Move::Leap(choice))
                if self.mover_card() == LEAP =>
            {
                let Some((from, _)) = choice else {
                    return Ok(());
                };
                self.check_movable(seat, *from, false)
            }
            (Stage::WinnerMove | Stage::LoserMove, Move::Shift(choice))
                if self.mover_card() == SHIFT =>
            {
                let Some((from, to)) = choice else {
                    return Ok(());
                };
                self.check_movable(seat, *from, true)?;
                if self.grid.occupied() & to.bit() != 0 {
                    return Err(IllegalMove::new(format!("{to} is taken")));
                }
                if !Direction::ALL.iter().any(|&d| from.step(d) == Some(*to)) {
                    return Err(IllegalMove::new(format!(
                        "Shift moves a stone to an orthogonally adjacent cell; {to} is not next to {from}"
                    )));
                }
                Ok(())
            }
            _ => Err(IllegalMove::new(format!(
                "this is not what the game waits for: {}",
                self.expected()
            ))),
        }
    }

    fn check_movable(&self, seat: Seat, from: Cell, shift: bool) -> Result<(), IllegalMove> {
        let stone = self.grid.stone(from);
        let whose_ok = match stone {
            None => return Err(IllegalMove::new(format!("{from} is empty"))),
            Some(Stone::Gray) => shift,
            Some(Stone::P1) => seat == Seat::P1,
            Some(Stone::P2) => seat == Seat::P2,
        };
        if !whose_ok {
            return Err(IllegalMove::new(if shift {
                format!("Shift moves one of your stones or a neutral stone; {from} is not")
            } else {
                format!("Leap moves one of your stones; {from} is not yours")
            }));
        }
        if self.grid.is_frozen(from) {
            return Err(IllegalMove::new(format!(
                "the stone on {from} is frozen and cannot move"
            )));
        }
        Ok(())
    }

    fn check_assignment(&self, seat: Seat, a: &Assignment) -> Result<(), IllegalMove> {
        let held = self.held[seat.index()];
        let mut union = 0u32;
        for (k, set) in a.0.iter().enumerate() {
            if set.len() > PER_SCORING_ROUND {
                return Err(IllegalMove::new(format!(
                    "round {} gets {} conditions; at most three per round",
                    SCORING_ROUNDS[k],
                    set.len()
                )));
            }
            for c in set.iter() {
                if !held.contains(c) {
                    return Err(IllegalMove::new(format!(
                        "you do not hold {c}; your conditions are {held}"
                    )));
                }
                if union & c.bit() != 0 {
                    return Err(IllegalMove::new(format!("{c} is assigned twice")));
                }
            }
            union |= set.0;
        }
        if union != held.0 {
            let missing = ConditionSet(held.0 & !union);
            return Err(IllegalMove::new(format!(
                "every condition you hold must be assigned; {missing} is missing"
            )));
        }
        Ok(())
    }

    /// What the game waits for, in words.
    fn expected(&self) -> String {
        match self.stage {
            Stage::DrawPair => "the prize pair to be drawn".into(),
            Stage::Race => "the race's result".into(),
            Stage::Pick(s) => format!("{s} to pick {} or {}", self.pair[0], self.pair[1]),
            Stage::Discard(_) => "`discard` or `keep` from the Discard holder".into(),
            Stage::Assign => {
                "both seats' assignments to rounds 6, 9 and 12, such as `1A 2B / 3C / -`".into()
            }
            Stage::PlayCards => {
                "both seats' cards, such as `5`, `2 d`, `3 7`, `6 c3`, `dup 1`".into()
            }
            Stage::WinnerStone | Stage::LoserStone => {
                let seat = self.actor().expect("a revealed round");
                let all = FULL & !self.grid.occupied();
                let targets = self.stone_targets(seat);
                let lock = if targets == all {
                    String::new()
                } else {
                    let column = bits(targets)
                        .next()
                        .map_or('?', |c| char::from(b'a' + c.column() as u8));
                    format!(" in column {column} ({}'s Lock)", seat.other())
                };
                format!("{seat}'s stone on an empty cell{lock}, such as `d4`")
            }
            Stage::GrayStone => format!(
                "{}'s gray stone on an empty cell",
                self.actor().expect("a revealed round")
            ),
            Stage::WinnerMove | Stage::LoserMove => {
                let seat = self.actor().expect("a revealed round");
                if self.mover_card() == LEAP {
                    format!("{seat}'s Leap: a stone of theirs and a direction (`c3 up`), or `pass`")
                } else {
                    format!("{seat}'s Shift: a stone (theirs or neutral) and an empty neighbour (`c3 c4`), or `pass`")
                }
            }
            Stage::Over => "nothing: the game is over".into(),
        }
    }

    fn outcome_now(&self) -> Option<Outcome> {
        let end = self.end?;
        let points = self.points();
        Some(match end {
            End::NoCards(winner) => Outcome {
                winner: Some(winner),
                reason: format!(
                    "{} holds no cards at the start of round {}; {winner} wins by default",
                    winner.other(),
                    self.round
                ),
            },
            End::Points { early } => {
                let when = if early {
                    format!(
                        "neither player holds cards at the start of round {}, so every unchecked condition was scored; ",
                        self.round
                    )
                } else {
                    String::new()
                };
                match points[0].cmp(&points[1]) {
                    std::cmp::Ordering::Greater => Outcome {
                        winner: Some(Seat::P1),
                        reason: format!(
                            "{when}p1 wins on victory points, {} to {}",
                            points[0], points[1]
                        ),
                    },
                    std::cmp::Ordering::Less => Outcome {
                        winner: Some(Seat::P2),
                        reason: format!(
                            "{when}p2 wins on victory points, {} to {}",
                            points[1], points[0]
                        ),
                    },
                    std::cmp::Ordering::Equal => match self.options.tiebreaker {
                        Some(w) => Outcome {
                            winner: Some(w),
                            reason: format!(
                                "{when}victory points are tied at {}; {w} holds the Tiebreaker",
                                points[0]
                            ),
                        },
                        None => Outcome {
                            winner: None,
                            reason: format!(
                                "{when}victory points are tied at {}: a draw",
                                points[0]
                            ),
                        },
                    },
                }
            }
        })
    }

    // --- move generation ------------------------------------------------------------------------

    fn play_choices(&self, seat: Seat) -> ([(u8, bool); 16], usize) {
        let hand = self.hands[seat.index()];
        let mut out = [(0u8, false); 16];
        let mut n = 0;
        for c in hand.distinct() {
            out[n] = (c, false);
            n += 1;
        }
        if !self.duplicard_used[seat.index()] {
            for c in hand.distinct() {
                out[n] = (c, true);
                n += 1;
            }
        }
        (out, n)
    }

    fn random_play<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Play {
        let (choices, n) = self.play_choices(seat);
        let (card, duplicard) = choices[rng.random_range(0..n)];
        let secondary = match card {
            LOCK => Secondary::Column(rng.random_range(0..COLUMNS as u8)),
            GUESS => Secondary::Guess(rng.random_range(1..=8)),
            FREEZE => {
                let occupied = self.grid.occupied();
                let k = rng.random_range(0..=3u32).min(occupied.count_ones());
                let mut cells = [Cell::default(); 3];
                let mut pool = occupied;
                for slot in cells.iter_mut().take(k as usize) {
                    let bit = nth_bit(pool, rng.random_range(0..pool.count_ones()));
                    pool &= !(1u64 << bit);
                    *slot = Cell::from_bit_index(bit);
                }
                cells[..k as usize].sort_unstable();
                Secondary::Freeze {
                    cells,
                    len: k as u8,
                }
            }
            _ => Secondary::None,
        };
        Play {
            card,
            duplicard,
            secondary,
        }
    }

    fn plays(&self, seat: Seat, out: &mut Vec<Move>) {
        let (choices, n) = self.play_choices(seat);
        for &(card, duplicard) in &choices[..n] {
            let base = Play {
                duplicard,
                ..Play::card(card)
            };
            match card {
                LOCK => out.extend((0..COLUMNS as u8).map(|c| {
                    Move::Play(Play {
                        secondary: Secondary::Column(c),
                        ..base
                    })
                })),
                GUESS => out.extend((1..=8).map(|g| {
                    Move::Play(Play {
                        secondary: Secondary::Guess(g),
                        ..base
                    })
                })),
                FREEZE => {
                    out.push(Move::Play(base));
                    out.extend(bits(self.grid.occupied()).map(|c| {
                        Move::Play(Play {
                            secondary: Secondary::Freeze {
                                cells: [c, Cell::default(), Cell::default()],
                                len: 1,
                            },
                            ..base
                        })
                    }));
                }
                _ => out.push(Move::Play(base)),
            }
        }
    }

    fn assignments(&self, seat: Seat, out: &mut Vec<Move>) {
        let held: Vec<Condition> = self.held[seat.index()].iter().collect();
        let n = held.len() as u32;
        for code in 0..3u32.pow(n) {
            let mut sets = [ConditionSet::default(); 3];
            let mut x = code;
            for c in &held {
                sets[(x % 3) as usize].0 |= c.bit();
                x /= 3;
            }
            if sets.iter().all(|s| s.len() <= PER_SCORING_ROUND) {
                out.push(Move::Assign(Assignment(sets)));
            }
        }
    }

    fn default_assignment(&self, seat: Seat) -> Assignment {
        let mut sets = [ConditionSet::default(); 3];
        for (i, c) in self.held[seat.index()].iter().enumerate() {
            sets[(i / 3).min(2)].0 |= c.bit();
        }
        Assignment(sets)
    }

    fn random_assignment<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Assignment {
        // Rejection sampling over the 3^n ways to spread the conditions: uniform over the legal
        // assignments (at least 1680 of 19683 for nine conditions are legal).
        let held = self.held[seat.index()];
        loop {
            let mut sets = [ConditionSet::default(); 3];
            for c in held.iter() {
                sets[rng.random_range(0..3usize)].0 |= c.bit();
            }
            if sets.iter().all(|s| s.len() <= PER_SCORING_ROUND) {
                return Assignment(sets);
            }
        }
    }

    fn singles(&self, seat: Seat, out: &mut Vec<Move>) {
        match self.stage {
            Stage::Pick(_) => {
                out.push(Move::Pick(self.pair[0]));
                if self.pair[1] != self.pair[0] {
                    out.push(Move::Pick(self.pair[1]));
                }
            }
            Stage::Discard(_) => {
                out.push(Move::Discard(false));
                out.push(Move::Discard(true));
            }
            Stage::WinnerStone | Stage::LoserStone => {
                out.extend(bits(self.stone_targets(seat)).map(Move::Stone));
            }
            Stage::GrayStone => {
                out.extend(bits(FULL & !self.grid.occupied()).map(Move::Stone));
            }
            Stage::WinnerMove | Stage::LoserMove => {
                if self.mover_card() == LEAP {
                    out.push(Move::Leap(None));
                    for c in bits(self.movable(seat, false)) {
                        out.extend(Direction::ALL.iter().map(|&d| Move::Leap(Some((c, d)))));
                    }
                } else {
                    out.push(Move::Shift(None));
                    let empty = FULL & !self.grid.occupied();
                    for c in bits(self.movable(seat, true)) {
                        for d in Direction::ALL {
                            if let Some(t) = c.step(d).filter(|t| empty & t.bit() != 0) {
                                out.push(Move::Shift(Some((c, t))));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn parse_in_stage(&self, text: &str) -> Result<Move, NotationError> {
        let tokens: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        let bad = |why: String| NotationError::mv(text, why);
        match self.stage {
            Stage::Pick(_) => {
                let [t] = tokens[..] else {
                    return Err(bad(
                        "pick one prize: a card (`5`) or a condition (`2C`)".into()
                    ));
                };
                parse_prize(t).map(Move::Pick).ok_or_else(|| {
                    bad(format!("`{t}` is neither a card 1-8 nor a condition 1A-3F"))
                })
            }
            Stage::Discard(_) => match text.trim().to_ascii_lowercase().as_str() {
                "discard" | "yes" | "y" => Ok(Move::Discard(true)),
                "keep" | "no" | "n" | "pass" => Ok(Move::Discard(false)),
                _ => Err(bad("write `discard` or `keep`".into())),
            },
            Stage::Assign => parse_assignment(text).map(Move::Assign),
            Stage::PlayCards => parse_play(text, &tokens).map(Move::Play),
            Stage::WinnerStone | Stage::LoserStone | Stage::GrayStone => {
                let [t] = tokens[..] else {
                    return Err(bad("write one cell, a1 to g6".into()));
                };
                Cell::parse(t)
                    .map(Move::Stone)
                    .ok_or_else(|| bad(format!("`{t}` is not a cell: columns a-g, rows 1-6")))
            }
            Stage::WinnerMove | Stage::LoserMove => {
                let leap = self.mover_card() == LEAP;
                if matches!(tokens[..], [t] if t.eq_ignore_ascii_case("pass")) || tokens.is_empty()
                {
                    return Ok(if leap {
                        Move::Leap(None)
                    } else {
                        Move::Shift(None)
                    });
                }
                let shape = if leap {
                    "a Leap is a stone and a direction, such as `c3 up`, or `pass`"
                } else {
                    "a Shift is a stone and the empty neighbour it moves to, such as `c3 c4`, or `pass`"
                };
                let [a, b] = tokens[..] else {
                    return Err(bad(shape.into()));
                };
                let from =
                    Cell::parse(a).ok_or_else(|| bad(format!("`{a}` is not a cell; {shape}")))?;
                if leap {
                    let d = Direction::parse(b).ok_or_else(|| {
                        bad(format!("`{b}` is not up, down, left or right; {shape}"))
                    })?;
                    Ok(Move::Leap(Some((from, d))))
                } else {
                    let to = Cell::parse(b)
                        .ok_or_else(|| bad(format!("`{b}` is not a cell; {shape}")))?;
                    Ok(Move::Shift(Some((from, to))))
                }
            }
            Stage::DrawPair | Stage::Race => Err(bad(
                "no seat moves now: chance acts (the prize pair or the race)".into(),
            )),
            Stage::Over => Err(bad("no move is expected: the game is over".into())),
        }
    }
}

fn effect_reason(play: Play) -> WinReason {
    if play.card == SNIPE {
        WinReason::Snipe
    } else {
        WinReason::Guess
    }
}

fn secondary_shape(card: u8) -> &'static str {
    match card {
        LOCK => "a column a-g: `2 d`",
        GUESS => "the card guessed, 1-8: `3 7`",
        FREEZE => "up to three stones: `6 c3 d4`",
        _ => "no secondary choice",
    }
}

/// The index of the `n`th set bit of `m` (0-based).
fn nth_bit(mut m: u64, n: u32) -> u32 {
    for _ in 0..n {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// The cells of a bitboard, in grid order.
fn bits(mut m: u64) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros();
            m &= m - 1;
            Cell::from_bit_index(i)
        })
    })
}

fn parse_prize(t: &str) -> Option<Prize> {
    if let Ok(n) = t.parse::<u8>() {
        return (1..=8).contains(&n).then_some(Prize::Card(n));
    }
    Condition::parse(t).map(Prize::Condition)
}

fn parse_assignment(text: &str) -> Result<Assignment, NotationError> {
    const SHAPE: &str = "write the conditions for rounds 6, 9 and 12 separated by `/`, `-` for none, such as `1A 2B / 3C / -`";
    let groups: Vec<&str> = text.split('/').collect();
    if groups.len() != 3 {
        return Err(NotationError::mv(text, SHAPE));
    }
    let mut sets = [ConditionSet::default(); 3];
    for (k, g) in groups.iter().enumerate() {
        for t in g
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty() && *t != "-")
        {
            let c = Condition::parse(t).ok_or_else(|| {
                NotationError::mv(text, format!("`{t}` is not a condition 1A-3F; {SHAPE}"))
            })?;
            if sets[k].contains(c) {
                return Err(NotationError::mv(text, format!("{c} is written twice")));
            }
            sets[k].0 |= c.bit();
        }
    }
    Ok(Assignment(sets))
}

fn parse_play(text: &str, tokens: &[&str]) -> Result<Play, NotationError> {
    const SHAPE: &str = "a card 1-8 with its choice: `1`, `2 d` (Lock column), `3 7` (Guess), `6 c3 d4` (Freeze up to three stones); `dup 2 d` plays the Duplicard as that card";
    let bad = |why: String| NotationError::mv(text, why);
    let mut rest = tokens;
    let duplicard = matches!(rest.first(), Some(t) if matches!(t.to_ascii_lowercase().as_str(), "dup" | "duplicard" | "d"));
    if duplicard {
        rest = &rest[1..];
    }
    let Some((first, rest)) = rest.split_first() else {
        return Err(bad(SHAPE.into()));
    };
    let card: u8 = first
        .parse()
        .ok()
        .filter(|c| (1..=8).contains(c))
        .ok_or_else(|| bad(format!("`{first}` is not a card 1-8; {SHAPE}")))?;
    let secondary = match card {
        LOCK => {
            let [t] = rest else {
                return Err(bad("Lock names one column: `2 d`".into()));
            };
            let b = t.as_bytes();
            if b.len() != 1 || !b[0].is_ascii_alphabetic() {
                return Err(bad(format!("`{t}` is not a column; columns run a to g")));
            }
            let c = b[0].to_ascii_lowercase() - b'a';
            if usize::from(c) >= COLUMNS {
                return Err(bad(format!(
                    "column {} is off the grid; columns run a to g",
                    char::from(b[0].to_ascii_lowercase())
                )));
            }
            Secondary::Column(c)
        }
        GUESS => {
            let [t] = rest else {
                return Err(bad("Guess names one card: `3 7`".into()));
            };
            let g: u8 = t
                .parse()
                .ok()
                .filter(|g| (1..=8).contains(g))
                .ok_or_else(|| bad(format!("`{t}` is not a card 1-8 to guess")))?;
            Secondary::Guess(g)
        }
        FREEZE => {
            if rest.len() > 3 {
                return Err(bad("Freeze names at most three stones".into()));
            }
            let mut cells = [Cell::default(); 3];
            for (slot, t) in cells.iter_mut().zip(rest) {
                *slot = Cell::parse(t)
                    .ok_or_else(|| bad(format!("`{t}` is not a cell: columns a-g, rows 1-6")))?;
            }
            cells[..rest.len()].sort_unstable();
            Secondary::Freeze {
                cells,
                len: rest.len() as u8,
            }
        }
        _ => {
            if !rest.is_empty() {
                return Err(bad(format!(
                    "{card} ({}) takes no secondary choice",
                    card_name(card)
                )));
            }
            Secondary::None
        }
    };
    Ok(Play {
        card,
        duplicard,
        secondary,
    })
}

fn parse_chance_text(text: &str) -> Result<Chance, NotationError> {
    const SHAPE: &str =
        "a card pair (`3 7`), a condition pair (`1A 2C`), or a race result (`p1`, `p2`, `none`)";
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    match tokens[..] {
        [t] => match t.to_ascii_lowercase().as_str() {
            "p1" => Ok(Chance::Race(Some(Seat::P1))),
            "p2" => Ok(Chance::Race(Some(Seat::P2))),
            "none" => Ok(Chance::Race(None)),
            _ => Err(NotationError::chance(text, SHAPE)),
        },
        [a, b] => match (parse_prize(a), parse_prize(b)) {
            (Some(Prize::Card(x)), Some(Prize::Card(y))) => Ok(Chance::Cards(x.min(y), x.max(y))),
            (Some(Prize::Condition(x)), Some(Prize::Condition(y))) if x != y => {
                Ok(Chance::Conditions(x.min(y), x.max(y)))
            }
            (Some(Prize::Condition(_)), Some(Prize::Condition(_))) => Err(NotationError::chance(
                text,
                "a pair of two different victory conditions",
            )),
            _ => Err(NotationError::chance(text, SHAPE)),
        },
        _ => Err(NotationError::chance(text, SHAPE)),
    }
}

impl Game for WitchsBrew {
    type Move = Move;
    type Chance = Chance;
    type View = WitchsBrewView;

    fn id(&self) -> &'static str {
        "witchs-brew"
    }

    /// `race` while a Cauldron race's result is due (a live host runs its trivia race then),
    /// `assign` at the Intermission (the seed gives five minutes for it), `move` otherwise.
    fn decision_kind(&self) -> &'static str {
        match self.stage {
            Stage::Race => "race",
            Stage::Assign => "assign",
            _ => "move",
        }
    }

    fn pending(&self) -> Pending {
        match self.stage {
            Stage::DrawPair | Stage::Race => Pending::Chance,
            Stage::Pick(s) | Stage::Discard(Some(s)) => Pending::One(s),
            Stage::Discard(None) | Stage::Assign | Stage::PlayCards => Pending::Both,
            Stage::WinnerStone
            | Stage::WinnerMove
            | Stage::LoserStone
            | Stage::LoserMove
            | Stage::GrayStone => Pending::One(self.actor().expect("a revealed round")),
            Stage::Over => Pending::Over,
        }
    }

    fn legal_moves(&self, seat: Seat, out: &mut Vec<Move>) {
        if !self.pending().includes(seat) {
            return;
        }
        match self.stage {
            Stage::Assign => self.assignments(seat, out),
            Stage::PlayCards => self.plays(seat, out),
            _ => self.singles(seat, out),
        }
    }

    fn random_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Move> {
        if !self.pending().includes(seat) {
            return None;
        }
        Some(match self.stage {
            Stage::PlayCards => Move::Play(self.random_play(seat, rng)),
            Stage::Assign => Move::Assign(self.random_assignment(seat, rng)),
            Stage::WinnerStone | Stage::LoserStone | Stage::GrayStone => {
                let targets = if self.stage == Stage::GrayStone {
                    FULL & !self.grid.occupied()
                } else {
                    self.stone_targets(seat)
                };
                let i = nth_bit(targets, rng.random_range(0..targets.count_ones()));
                Move::Stone(Cell::from_bit_index(i))
            }
            Stage::WinnerMove | Stage::LoserMove if self.mover_card() == LEAP => {
                let movable = self.movable(seat, false);
                let k = rng.random_range(0..=4 * movable.count_ones());
                if k == 0 {
                    Move::Leap(None)
                } else {
                    let stone = Cell::from_bit_index(nth_bit(movable, (k - 1) / 4));
                    Move::Leap(Some((stone, Direction::ALL[((k - 1) % 4) as usize])))
                }
            }
            Stage::WinnerMove | Stage::LoserMove => {
                // A Shift: count the choices, then walk to the one drawn (no allocation).
                let empty = FULL & !self.grid.occupied();
                let targets = |c: Cell| {
                    Direction::ALL
                        .into_iter()
                        .filter_map(move |d| c.step(d))
                        .filter(move |t| empty & t.bit() != 0)
                };
                let movable = self.movable(seat, true);
                let n: usize = bits(movable).map(|c| targets(c).count()).sum();
                let k = rng.random_range(0..=n);
                if k == 0 {
                    Move::Shift(None)
                } else {
                    bits(movable)
                        .flat_map(|c| targets(c).map(move |t| (c, t)))
                        .nth(k - 1)
                        .map_or(Move::Shift(None), |m| Move::Shift(Some(m)))
                }
            }
            Stage::Pick(_) => Move::Pick(self.pair[rng.random_range(0..2usize)]),
            _ => Move::Discard(rng.random()),
        })
    }

    fn chance_outcomes(&self, out: &mut Vec<(Chance, f64)>) {
        match self.stage {
            Stage::DrawPair if self.scheduled().kind.gives_cards() => {
                let n: f64 = self.deck.iter().map(|&c| f64::from(c)).sum();
                for a in 1..=8u8 {
                    for b in a..=8u8 {
                        let (ca, cb) = (
                            f64::from(self.deck[usize::from(a - 1)]),
                            f64::from(self.deck[usize::from(b - 1)]),
                        );
                        let p = if a == b {
                            ca * (ca - 1.0) / (n * (n - 1.0))
                        } else {
                            2.0 * ca * cb / (n * (n - 1.0))
                        };
                        if p > 0.0 {
                            out.push((Chance::Cards(a, b), p));
                        }
                    }
                }
            }
            Stage::DrawPair => {
                let left: Vec<Condition> = self.conditions_left.iter().collect();
                let pairs = (left.len() * (left.len() - 1) / 2) as f64;
                for (i, &a) in left.iter().enumerate() {
                    for &b in &left[i + 1..] {
                        out.push((Chance::Conditions(a, b), 1.0 / pairs));
                    }
                }
            }
            Stage::Race => {
                let o = self.options;
                for (seat, p) in [
                    (Some(Seat::P1), (1.0 - o.none_chance) * o.p1_chance),
                    (Some(Seat::P2), (1.0 - o.none_chance) * (1.0 - o.p1_chance)),
                    (None, o.none_chance),
                ] {
                    if p > 0.0 {
                        out.push((Chance::Race(seat), p));
                    }
                }
            }
            _ => {}
        }
    }

    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Chance> {
        match self.stage {
            Stage::DrawPair if self.scheduled().kind.gives_cards() => {
                let n: u32 = self.deck.iter().map(|&c| u32::from(c)).sum();
                let card_at = |mut k: u32, deck: &[u8; 8]| -> u8 {
                    for (i, &c) in deck.iter().enumerate() {
                        if k < u32::from(c) {
                            return i as u8 + 1;
                        }
                        k -= u32::from(c);
                    }
                    unreachable!("k < cards in the deck")
                };
                let a = card_at(rng.random_range(0..n), &self.deck);
                let mut deck = self.deck;
                deck[usize::from(a - 1)] -= 1;
                let b = card_at(rng.random_range(0..n - 1), &deck);
                Some(Chance::Cards(a.min(b), a.max(b)))
            }
            Stage::DrawPair => {
                let left = self.conditions_left;
                let a = left.nth(rng.random_range(0..left.len()));
                let rest = ConditionSet(left.0 & !a.bit());
                let b = rest.nth(rng.random_range(0..rest.len()));
                Some(Chance::Conditions(a.min(b), a.max(b)))
            }
            Stage::Race => {
                let o = self.options;
                let x: f64 = rng.random();
                Some(Chance::Race(if x < o.none_chance {
                    None
                } else if rng.random::<f64>() < o.p1_chance {
                    Some(Seat::P1)
                } else {
                    Some(Seat::P2)
                }))
            }
            _ => None,
        }
    }

    fn check_move(&self, seat: Seat, mv: &Move) -> Result<(), IllegalMove> {
        if self.stage == Stage::Over {
            return Err(IllegalMove::new("the game is over"));
        }
        if !self.pending().includes(seat) {
            return Err(IllegalMove::new(format!(
                "it is not {seat}'s turn; the game waits for {}",
                self.expected()
            )));
        }
        match (self.stage, mv) {
            (Stage::Assign, Move::Assign(a)) => self.check_assignment(seat, a),
            (Stage::PlayCards, Move::Play(p)) => self.check_play(seat, p),
            (Stage::Assign | Stage::PlayCards, _) => Err(IllegalMove::new(format!(
                "the game waits for {}",
                self.expected()
            ))),
            _ => self.check_single(seat, mv),
        }
    }

    fn check_chance(&self, outcome: &Chance) -> Result<(), IllegalMove> {
        match (self.stage, outcome) {
            (Stage::DrawPair, Chance::Cards(a, b)) => {
                if !self.scheduled().kind.gives_cards() {
                    return Err(IllegalMove::new(format!(
                        "{} hands out victory conditions, not cards",
                        self.scheduled()
                    )));
                }
                let mut deck = self.deck;
                for &c in &[*a, *b] {
                    let n = &mut deck[usize::from(c - 1)];
                    if *n == 0 {
                        return Err(IllegalMove::new(format!("no {c} is left in the deck")));
                    }
                    *n -= 1;
                }
                Ok(())
            }
            (Stage::DrawPair, Chance::Conditions(a, b)) => {
                if self.scheduled().kind.gives_cards() {
                    return Err(IllegalMove::new(format!(
                        "{} hands out cards, not victory conditions",
                        self.scheduled()
                    )));
                }
                for c in [a, b] {
                    if !self.conditions_left.contains(*c) {
                        return Err(IllegalMove::new(format!("{c} has already been drawn")));
                    }
                }
                Ok(())
            }
            (Stage::Race, Chance::Race(seat)) => {
                // A simulated race cannot end in a way its options give no chance of; a live
                // race's result is whatever the race gave (nobody may answer in time).
                let o = self.options;
                let p = match seat {
                    Some(Seat::P1) => (1.0 - o.none_chance) * o.p1_chance,
                    Some(Seat::P2) => (1.0 - o.none_chance) * (1.0 - o.p1_chance),
                    None => o.none_chance,
                };
                if o.cauldron == CauldronMode::Simulated && p <= 0.0 {
                    return Err(IllegalMove::new(format!(
                        "a race {} cannot happen here: its chance is 0 (none_chance = {}, p1_chance = {})",
                        match seat {
                            Some(s) => format!("won by {s}"),
                            None => "nobody wins".to_string(),
                        },
                        o.none_chance,
                        o.p1_chance
                    )));
                }
                Ok(())
            }
            (Stage::Over, _) => Err(IllegalMove::new("the game is over")),
            (Stage::DrawPair, _) => Err(IllegalMove::new(
                "the prize pair is drawn now, not a race result",
            )),
            (Stage::Race, _) => Err(IllegalMove::new(
                "the race's result is due now: p1, p2 or none",
            )),
            _ => Err(IllegalMove::new(format!(
                "chance does not act now; the game waits for {}",
                self.expected()
            ))),
        }
    }

    fn apply(&mut self, step: Step<Move, Chance>) -> Result<(), StepError> {
        self.check_step(&step)?;
        match step {
            Step::Chance(Chance::Cards(a, b)) => {
                self.deck[usize::from(a - 1)] -= 1;
                self.deck[usize::from(b - 1)] -= 1;
                self.pair = [Prize::Card(a), Prize::Card(b)];
                self.stage = Stage::Race;
            }
            Step::Chance(Chance::Conditions(a, b)) => {
                self.conditions_left.0 &= !(a.bit() | b.bit());
                self.pair = [Prize::Condition(a), Prize::Condition(b)];
                self.stage = Stage::Race;
            }
            Step::Chance(Chance::Race(Some(s))) => self.stage = Stage::Pick(s),
            Step::Chance(Chance::Race(None)) => {
                self.cauldron_log[usize::from(self.cauldron_round)] = Some(CauldronRound {
                    round: self.scheduled(),
                    pair: self.pair,
                    winner: None,
                    received: [None; 2],
                    discarded: false,
                });
                self.next_cauldron_round();
            }
            Step::One { seat, mv } => self.apply_move(seat, mv),
            Step::Both { p1, p2 } => match (p1, p2) {
                (Move::Assign(a), Move::Assign(b)) => {
                    self.assignment = Some([a, b]);
                    self.round = 1;
                    self.start_round();
                }
                (Move::Play(a), Move::Play(b)) => self.reveal([a, b]),
                (Move::Discard(a), Move::Discard(b)) => self.resolve_discard([Some(a), Some(b)]),
                _ => unreachable!("check_step matched the moves to the stage"),
            },
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    fn score(&self) -> Score {
        let points = self.points();
        let mut details = Map::new();
        let per_seat = |f: &dyn Fn(usize) -> Value| json!({"p1": f(0), "p2": f(1)});
        details.insert("conditions_met".into(), per_seat(&|i| json!(self.met[i])));
        details.insert(
            "conditions_checked".into(),
            per_seat(&|i| json!(self.checked[i])),
        );
        details.insert("conditions".into(), per_seat(&|i| json!(self.held[i])));
        details.insert("tiebreaker".into(), json!(self.options.tiebreaker));
        Score {
            p1: Value::from(points[0]),
            p2: Value::from(points[1]),
            details,
        }
    }

    fn view(&self, viewer: Viewer) -> WitchsBrewView {
        let pending = self.pending();
        let in_cauldron = usize::from(self.cauldron_round) < self.options.schedule.rounds().len();
        let grid = (0..ROWS)
            .map(|r| {
                (0..COLUMNS)
                    .map(|c| {
                        let cell = Cell::new(c, r).expect("on the grid");
                        CellView {
                            stone: self.grid.stone(cell),
                            frozen: self.grid.is_frozen(cell),
                        }
                    })
                    .collect()
            })
            .collect();
        let player = |seat: Seat| {
            let i = seat.index();
            PlayerView {
                hand: self.hands[i].cards().collect(),
                duplicard: !self.duplicard_used[i],
                discard: self.options.discard[i] && !self.discard_used[i],
                tiebreaker: self.options.tiebreaker == Some(seat),
                diminish_penalty: self.penalty[i],
                conditions: self.held[i]
                    .iter()
                    .map(|c| ConditionView {
                        condition: c,
                        points: c.points(),
                        text: c.text(),
                        round: self
                            .assignment
                            .and_then(|a| a[i].0.iter().position(|s| s.contains(c)))
                            .map(|k| SCORING_ROUNDS[k]),
                        met_now: self.grid.meets(seat, c),
                        checked: self.checked[i].contains(c),
                        scored: self.met[i].contains(c),
                    })
                    .collect(),
                points: self.met[i].points(),
            }
        };
        let lock = self.current_round().and_then(|r| {
            let actor = self.actor()?;
            match r.plays[actor.other().index()].secondary {
                Secondary::Column(c)
                    if matches!(self.stage, Stage::WinnerStone | Stage::LoserStone) =>
                {
                    Some(char::from(b'a' + c))
                }
                _ => None,
            }
        });
        WitchsBrewView {
            viewer,
            pending,
            stage: self.stage,
            waiting_for: self.expected(),
            cauldron: in_cauldron.then(|| self.scheduled()),
            cauldron_mode: self.options.cauldron,
            schedule: self.options.schedule,
            prize_pair: matches!(self.stage, Stage::Race | Stage::Pick(_)).then_some(self.pair),
            deck: self.deck,
            conditions_left: self.conditions_left,
            cauldron_rounds: self.cauldron_log.iter().filter_map(|r| *r).collect(),
            players: SeatPair::from_array([player(Seat::P1), player(Seat::P2)]),
            assignments_revealed: self.assignment.is_some(),
            placement_round: self.round,
            scoring_rounds_to_come: SCORING_ROUNDS
                .iter()
                .copied()
                .filter(|&r| self.round == 0 || (r >= self.round && self.stage != Stage::Over))
                .collect(),
            grid,
            lock_column: lock,
            rounds: self.placement_log.iter().filter_map(|r| *r).collect(),
            outcome: self.outcome(),
        }
    }

    fn render(&self, viewer: Viewer) -> String {
        render(self, viewer)
    }

    fn default_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Move> {
        if !self.pending().includes(seat) {
            return None;
        }
        Some(match self.stage {
            Stage::Pick(_) => Move::Pick(self.pair[0]),
            Stage::Discard(_) => Move::Discard(false),
            Stage::Assign => Move::Assign(self.default_assignment(seat)),
            Stage::PlayCards => {
                // The lowest card held, with a harmless secondary choice.
                let card = self.hands[seat.index()]
                    .distinct()
                    .next()
                    .expect("a seat that plays holds a card");
                Move::Play(match card {
                    LOCK => Play::lock(3),
                    GUESS => Play::guess(1),
                    c => Play::card(c),
                })
            }
            Stage::WinnerMove | Stage::LoserMove => {
                if self.mover_card() == LEAP {
                    Move::Leap(None)
                } else {
                    Move::Shift(None)
                }
            }
            _ => return self.random_move(seat, rng),
        })
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<Move, NotationError> {
        self.parse_in_stage(text)
    }

    fn format_move(&self, mv: &Move) -> String {
        mv.to_string()
    }

    fn parse_chance(&self, text: &str) -> Result<Chance, NotationError> {
        parse_chance_text(text)
    }

    fn format_chance(&self, outcome: &Chance) -> String {
        outcome.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Views and rendering
// ---------------------------------------------------------------------------------------------

/// One cell as a view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CellView {
    /// The stone, if any.
    pub stone: Option<Stone>,
    /// Whether it is frozen.
    pub frozen: bool,
}

/// One victory condition of a player as a view shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConditionView {
    /// `1A`..`3F`.
    pub condition: Condition,
    /// Its worth.
    pub points: u32,
    /// What it asks for.
    pub text: &'static str,
    /// The scoring round it is assigned to, once assignments are revealed.
    pub round: Option<u8>,
    /// Whether the grid meets it now.
    pub met_now: bool,
    /// Whether it has been scored.
    pub checked: bool,
    /// Whether it was met when scored.
    pub scored: bool,
}

/// A player's public inventory. Everything a player receives or plays is public in this game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// The cards, lowest first.
    pub hand: Vec<u8>,
    /// Whether the Duplicard is still unused.
    pub duplicard: bool,
    /// Whether an unused Discard is held.
    pub discard: bool,
    /// Whether the Tiebreaker is held.
    pub tiebreaker: bool,
    /// The Diminish penalty on the next card.
    pub diminish_penalty: u8,
    /// The victory conditions held.
    pub conditions: Vec<ConditionView>,
    /// Victory points scored so far.
    pub points: u32,
}

/// What a viewer sees of a Witch's Brew game. Seats and spectators see the same: every prize,
/// pick and play is public once made, and simultaneous submissions are not part of the state
/// until both are revealed together.
#[derive(Clone, Debug, Serialize)]
pub struct WitchsBrewView {
    /// Who looks.
    pub viewer: Viewer,
    /// Who must act now.
    pub pending: Pending,
    /// The stage.
    pub stage: Stage,
    /// What the game waits for, in words.
    pub waiting_for: String,
    /// The Cauldron round in progress.
    pub cauldron: Option<ScheduledRound>,
    /// Simulated or live races.
    pub cauldron_mode: CauldronMode,
    /// The Cauldron schedule.
    pub schedule: Schedule,
    /// The prize pair on offer (during the race and the pick).
    pub prize_pair: Option<[Prize; 2]>,
    /// Cards left in the deck, per card 1..8.
    pub deck: [u8; 8],
    /// Victory conditions not drawn yet.
    pub conditions_left: ConditionSet,
    /// The finished Cauldron rounds.
    pub cauldron_rounds: Vec<CauldronRound>,
    /// Both players' inventories.
    pub players: SeatPair<PlayerView>,
    /// Whether the Intermission assignments have been revealed.
    pub assignments_revealed: bool,
    /// The Placement round, 1..12 (0 before).
    pub placement_round: u8,
    /// The scoring rounds still to come.
    pub scoring_rounds_to_come: Vec<u8>,
    /// The grid, rows 1..6 top to bottom, columns a..g.
    pub grid: Vec<Vec<CellView>>,
    /// The column a Lock forces the stone being placed into, if any.
    pub lock_column: Option<char>,
    /// The revealed Placement rounds.
    pub rounds: Vec<PlacementRound>,
    /// The outcome, once the game is over.
    pub outcome: Option<Outcome>,
}

fn render(game: &WitchsBrew, viewer: Viewer) -> String {
    let mut s = String::new();
    let you = |seat: Seat| {
        if viewer == Viewer::Seat(seat) {
            " (you)"
        } else {
            ""
        }
    };
    let title = if game.stage == Stage::Over {
        "game over".to_string()
    } else if game.round == 0 {
        if usize::from(game.cauldron_round) < game.options.schedule.rounds().len() {
            format!(
                "Cauldron round {} of {} ({})",
                game.cauldron_round + 1,
                game.options.schedule.len,
                game.scheduled()
            )
        } else {
            "Intermission".to_string()
        }
    } else {
        format!("Placement round {} of 12", game.round)
    };
    let _ = writeln!(s, "The Witch's Brew - {title}");
    let _ = writeln!(
        s,
        "X = p1{}, O = p2{}, + = neutral, [ ] = frozen",
        you(Seat::P1),
        you(Seat::P2)
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "      a  b  c  d  e  f  g");
    for r in 0..ROWS {
        let _ = write!(s, "  {}  ", r + 1);
        for c in 0..COLUMNS {
            let cell = Cell::new(c, r).expect("on the grid");
            let ch = match game.grid.stone(cell) {
                Some(Stone::P1) => 'X',
                Some(Stone::P2) => 'O',
                Some(Stone::Gray) => '+',
                None => '.',
            };
            if game.grid.is_frozen(cell) {
                let _ = write!(s, "[{ch}]");
            } else {
                let _ = write!(s, " {ch} ");
            }
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s);
    let points = game.points();
    for seat in Seat::BOTH {
        let i = seat.index();
        let mut items = Vec::new();
        if !game.duplicard_used[i] {
            items.push("Duplicard");
        }
        if game.options.discard[i] && !game.discard_used[i] {
            items.push("Discard");
        }
        if game.options.tiebreaker == Some(seat) {
            items.push("Tiebreaker");
        }
        let penalty = if game.penalty[i] > 0 {
            format!(", next card -{}", game.penalty[i])
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "{seat}{}: {} VP; cards {}; items {}{penalty}",
            you(seat),
            points[i],
            game.hands[i],
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            }
        );
        for c in game.held[i].iter() {
            let round = game
                .assignment
                .and_then(|a| a[i].0.iter().position(|x| x.contains(c)))
                .map_or(String::new(), |k| format!(" [round {}]", SCORING_ROUNDS[k]));
            let status = if game.checked[i].contains(c) {
                if game.met[i].contains(c) {
                    "SCORED"
                } else {
                    "missed"
                }
            } else if game.grid.meets(seat, c) {
                "met now"
            } else {
                "not met"
            };
            let _ = writeln!(
                s,
                "  {status:>8}  {c} ({} VP) {}{round}",
                c.points(),
                c.text()
            );
        }
    }
    if game.round > 0 {
        let to_come: Vec<String> = SCORING_ROUNDS
            .iter()
            .filter(|&&r| r >= game.round && game.stage != Stage::Over)
            .map(u8::to_string)
            .collect();
        if !to_come.is_empty() {
            let _ = writeln!(s, "Scoring after rounds: {}", to_come.join(", "));
        }
    }
    // The Cauldron's last round, or the Placement's current round.
    if game.round == 0 {
        if let Some(last) = game.cauldron_log.iter().rev().find_map(|r| *r) {
            let what = match last.winner {
                None => "nobody won the race; the pair is discarded".to_string(),
                Some(w) => {
                    let mut t = format!(
                        "{w} won and took {}, {} got {}",
                        last.received[w.index()].expect("handed out"),
                        w.other(),
                        last.received[w.other().index()].expect("handed out")
                    );
                    if last.discarded {
                        t.push_str("; both were discarded");
                    }
                    t
                }
            };
            let _ = writeln!(
                s,
                "Last Cauldron round {} ({} / {}): {what}",
                last.round, last.pair[0], last.pair[1]
            );
        }
        if matches!(game.stage, Stage::Race | Stage::Pick(_)) {
            let _ = writeln!(
                s,
                "On offer in {}: {} and {}",
                game.scheduled(),
                describe_prize(game.pair[0]),
                describe_prize(game.pair[1])
            );
        }
        let left: Vec<String> = (1..=8u8)
            .filter(|&c| game.deck[usize::from(c - 1)] > 0)
            .map(|c| format!("{c}x{}", game.deck[usize::from(c - 1)]))
            .collect();
        if !left.is_empty() && game.stage != Stage::Assign {
            let _ = writeln!(s, "Deck left: {}", left.join(" "));
        }
    } else if let Some(r) = game.last_round() {
        let _ = writeln!(
            s,
            "Round {}: p1 played {} ({}, value {}), p2 played {} ({}, value {}) - {} wins ({})",
            r.round,
            r.plays[0],
            card_name(r.plays[0].card),
            r.values[0],
            r.plays[1],
            card_name(r.plays[1].card),
            r.values[1],
            r.winner,
            match r.reason {
                WinReason::Snipe => "Snipe",
                WinReason::Guess => "correct Guess",
                WinReason::HigherValue if r.win_effects == [true, true] =>
                    "win-effects cancel; higher value",
                WinReason::HigherValue => "higher value",
                WinReason::TieLostPrevious => "tie; lost the previous round",
                WinReason::TieAdvantage => "tie in round 1; advantage",
            }
        );
        for seat in Seat::BOTH {
            if let Some(c) = r.copied[seat.index()] {
                let _ = writeln!(s, "{seat} copied a {c}.");
            }
        }
        let (w, l) = (r.winner, r.winner.other());
        let mut events = Vec::new();
        let moved = |m: Option<(Cell, Cell)>| {
            m.map_or(String::new(), |(a, b)| format!(", moved {a} to {b}"))
        };
        if let Some(c) = r.placed[0] {
            events.push(format!("{w} placed {c}{}", moved(r.moved[0])));
        }
        if let Some(c) = r.placed[1] {
            events.push(format!("{l} placed {c}{}", moved(r.moved[1])));
        }
        if let Some(c) = r.placed[2] {
            events.push(format!("{w} placed gray {c}"));
        }
        if !events.is_empty() {
            let _ = writeln!(s, "Stones: {}.", events.join("; "));
        }
    }
    if game.stage != Stage::Over {
        let _ = writeln!(s, "Waiting for: {}", game.expected());
    }
    if let Some(o) = game.outcome() {
        let _ = writeln!(s, "Game over: {}.", o.reason);
    }
    s.lines()
        .fold(String::with_capacity(s.len()), |mut out, line| {
            out.push_str(line.trim_end());
            out.push('\n');
            out
        })
}

fn describe_prize(p: Prize) -> String {
    match p {
        Prize::Card(c) => format!("card {c} ({})", card_name(c)),
        Prize::Condition(c) => format!("{c} ({} VP: {})", c.points(), c.text()),
    }
}

/// The rules page, shown by `colosseum rules witchs-brew`.
pub const RULES: &str = include_str!("../../../docs/rules/witchs-brew.md");

/// The live Cauldron, as the host sees it (the registry's [`crate::LiveRaces`]): with
/// `cauldron = live` each race's chance step (`race`: `p1`, `p2` or `none`) is decided by a trivia
/// race between the seats; the race is for the prize pair on offer in the Cauldron round.
pub const LIVE_RACES: crate::LiveRaces = crate::LiveRaces {
    runs: |raw| WitchsBrewOptions::from_raw(raw).is_ok_and(|o| o.cauldron == CauldronMode::Live),
    kind: "race",
    stake: |game| {
        let view = game.view_json(Viewer::Spectator);
        crate::RaceStake {
            round: view["cauldron"].as_str().unwrap_or_default().to_string(),
            prizes: view["prize_pair"]
                .as_array()
                .map(|p| {
                    p.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
        }
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use colosseum_engine::seeded_rng;

    fn grid(rows: [&str; 6]) -> Grid {
        Grid::from_picture(&rows).unwrap()
    }

    fn cond(name: &str) -> Condition {
        Condition::parse(name).unwrap()
    }

    fn meets(rows: [&str; 6], seat: Seat, name: &str) -> bool {
        grid(rows).meets(seat, cond(name))
    }

    const EMPTY: [&str; 6] = [
        ".......", ".......", ".......", ".......", ".......", ".......",
    ];

    /// A game at Placement round `round` with the given hands (no conditions).
    fn placement(p1: &[u8], p2: &[u8], rows: [&str; 6], round: u8) -> WitchsBrew {
        WitchsBrew::at_placement(
            WitchsBrewOptions::default(),
            [Hand::of(p1), Hand::of(p2)],
            [Assignment::default(); 2],
            grid(rows),
            round,
        )
    }

    fn parse(g: &WitchsBrew, seat: Seat, text: &str) -> Move {
        g.parse_move(seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn both(g: &mut WitchsBrew, p1: &str, p2: &str) {
        let step = Step::Both {
            p1: parse(g, Seat::P1, p1),
            p2: parse(g, Seat::P2, p2),
        };
        g.apply(step).unwrap_or_else(|e| panic!("{p1} / {p2}: {e}"));
    }

    fn one(g: &mut WitchsBrew, seat: Seat, text: &str) {
        let mv = parse(g, seat, text);
        g.apply(Step::One { seat, mv })
            .unwrap_or_else(|e| panic!("{seat} {text}: {e}"));
    }

    fn refused(g: &WitchsBrew, seat: Seat, text: &str) -> String {
        let mv = parse(g, seat, text);
        g.check_move(seat, &mv).unwrap_err().reason
    }

    fn chance(g: &mut WitchsBrew, text: &str) {
        let c = g.parse_chance(text).unwrap();
        g.apply(Step::Chance(c)).unwrap();
    }

    fn last(g: &WitchsBrew) -> PlacementRound {
        g.last_round().unwrap()
    }

    // --- victory conditions -------------------------------------------------------------------

    #[test]
    fn condition_1a_five_in_a_row_of_own_or_neutral() {
        let p1 = Seat::P1;
        assert!(meets(
            ["XX+XX..", ".......", ".......", ".......", ".......", "......."],
            p1,
            "1A"
        ));
        assert!(meets(
            ["X......", ".+.....", "..X....", "...X...", "....X..", "......."],
            p1,
            "1A"
        ));
        // An empty cell in the line.
        assert!(!meets(
            ["XX.XX+.", ".......", ".......", ".......", ".......", "......."],
            p1,
            "1A"
        ));
        // An opponent's stone in the line.
        assert!(!meets(
            ["XXOXX+.", ".......", ".......", ".......", ".......", "......."],
            p1,
            "1A"
        ));
        // Only four, at the edge.
        assert!(!meets(
            ["...XX++", ".......", ".......", ".......", ".......", "......."],
            p1,
            "1A"
        ));
    }

    #[test]
    fn condition_1b_five_of_yours_in_a_3x3() {
        assert!(meets(
            ["XXX....", "X......", "X......", ".......", ".......", "......."],
            Seat::P1,
            "1B"
        ));
        assert!(meets(
            [".......", ".......", ".......", "....OOO", "....O.O", "......."],
            Seat::P2,
            "1B"
        ));
        // Four in the square, the fifth outside it.
        assert!(!meets(
            ["XXX....", "X......", ".......", "X......", ".......", "......."],
            Seat::P1,
            "1B"
        ));
        // Neutral stones do not count.
        assert!(!meets(
            ["XXX....", "X+.....", "+......", ".......", ".......", "......."],
            Seat::P1,
            "1B"
        ));
    }

    #[test]
    fn condition_1c_six_on_row_3_or_4() {
        assert!(meets(
            [".......", ".......", "XXXXXX.", ".......", ".......", "......."],
            Seat::P1,
            "1C"
        ));
        assert!(meets(
            [".......", ".......", ".......", ".XXXXXX", ".......", "......."],
            Seat::P1,
            "1C"
        ));
        // Five on row 3 and one on row 4.
        assert!(!meets(
            [".......", ".......", "XXXXX.O", "X......", ".......", "......."],
            Seat::P1,
            "1C"
        ));
        // Six on row 2.
        assert!(!meets(
            [".......", "XXXXXX.", ".......", ".......", ".......", "......."],
            Seat::P1,
            "1C"
        ));
    }

    #[test]
    fn condition_1d_opponent_diagonally_surrounded() {
        assert!(meets(
            [".......", ".X.+...", "..O....", ".X.X...", ".......", "......."],
            Seat::P1,
            "1D"
        ));
        // One diagonal empty.
        assert!(!meets(
            [".......", ".X.+...", "..O....", ".X.....", ".......", "......."],
            Seat::P1,
            "1D"
        ));
        // The opponent's stone borders an edge.
        assert!(!meets(
            ["O......", ".X.....", ".......", ".......", ".......", "......."],
            Seat::P1,
            "1D"
        ));
        // A diagonal holds the opponent's own stone.
        assert!(!meets(
            [".......", ".X.+...", "..O....", ".X.O...", ".......", "......."],
            Seat::P1,
            "1D"
        ));
    }

    #[test]
    fn condition_1e_four_frozen_in_a_row() {
        assert!(meets(
            ["xo*x...", ".......", ".......", ".......", ".......", "......."],
            Seat::P2,
            "1E"
        ));
        assert!(meets(
            ["x......", "o......", "*......", "x......", ".......", "......."],
            Seat::P1,
            "1E"
        ));
        // The fourth stone is not frozen.
        assert!(!meets(
            ["xo*X...", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "1E"
        ));
    }

    #[test]
    fn condition_1f_four_frozen_neutrals() {
        assert!(meets(
            ["**.....", ".......", ".......", ".......", "......*", "......*"],
            Seat::P1,
            "1F"
        ));
        // Three frozen neutrals and a plain one.
        assert!(!meets(
            ["***+...", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "1F"
        ));
        // Frozen stones of the wrong colour.
        assert!(!meets(
            ["***x...", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "1F"
        ));
    }

    #[test]
    fn condition_2a_four_of_yours_in_a_row() {
        assert!(meets(
            ["...XXXX", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2A"
        ));
        assert!(meets(
            ["......O", ".....O.", "....O..", "...O...", ".......", "......."],
            Seat::P2,
            "2A"
        ));
        // A neutral stone in the line.
        assert!(!meets(
            ["XX+X...", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2A"
        ));
        // A line that would wrap around the edge is not a line.
        assert!(!meets(
            [".....XX", "XX.....", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2A"
        ));
    }

    #[test]
    fn condition_2b_square_of_yours() {
        assert!(meets(
            [".......", ".......", ".......", ".......", ".....XX", ".....XX"],
            Seat::P1,
            "2B"
        ));
        assert!(!meets(
            ["XX.....", "X+.....", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2B"
        ));
        // Split across the grid's edge.
        assert!(!meets(
            ["......X", "X.....X", "X......", ".......", ".......", "......."],
            Seat::P1,
            "2B"
        ));
    }

    #[test]
    fn condition_2c_opponent_orthogonally_surrounded() {
        assert!(meets(
            [".......", "..X....", ".+OX...", "..X....", ".......", "......."],
            Seat::P1,
            "2C"
        ));
        // One side empty.
        assert!(!meets(
            [".......", "..X....", ".+O....", "..X....", ".......", "......."],
            Seat::P1,
            "2C"
        ));
        // The opponent's stone is on an edge.
        assert!(!meets(
            ["X......", "OX.....", "X......", ".......", ".......", "......."],
            Seat::P1,
            "2C"
        ));
    }

    #[test]
    fn condition_2d_more_corners() {
        assert!(meets(
            ["X.....O", ".......", ".......", ".......", ".......", "......X"],
            Seat::P1,
            "2D"
        ));
        assert!(!meets(
            ["X.....O", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2D"
        ));
        // Next to a corner is not a corner.
        assert!(!meets(
            [".X.....", "X......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2D"
        ));
    }

    #[test]
    fn condition_2e_three_on_column_4() {
        assert!(meets(
            ["...X...", ".......", "...X...", ".......", ".......", "...X..."],
            Seat::P1,
            "2E"
        ));
        assert!(!meets(
            ["...X...", "...X...", "....X..", ".......", ".......", "......."],
            Seat::P1,
            "2E"
        ));
    }

    #[test]
    fn condition_2f_more_opponent_frozen() {
        assert!(meets(
            ["oo.x...", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2F"
        ));
        assert!(!meets(
            ["o..x...", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2F"
        ));
        // Frozen neutrals do not count.
        assert!(!meets(
            ["**.....", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2F"
        ));
        // Unfrozen opponent stones do not count.
        assert!(!meets(
            ["OOo..x.", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "2F"
        ));
    }

    #[test]
    fn condition_3a_own_stone_orthogonally_enclosed() {
        // b1 is on the edge (not a corner) with a1, c1 and b2 yours.
        assert!(meets(
            ["XXX....", ".X.....", ".......", ".......", ".......", "......."],
            Seat::P1,
            "3A"
        ));
        assert!(meets(
            [".......", "..X....", ".XXX...", "..X....", ".......", "......."],
            Seat::P1,
            "3A"
        ));
        // A corner stone does not count; b1 lacks c1 and a2 lacks a3.
        assert!(!meets(
            ["XX.....", "X......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "3A"
        ));
        // A neutral neighbour is not yours.
        assert!(!meets(
            [".......", "..X....", ".XX+...", "..X....", ".......", "......."],
            Seat::P1,
            "3A"
        ));
    }

    #[test]
    fn condition_3b_own_stone_diagonally_enclosed() {
        assert!(meets(
            [".......", ".X.X...", "..X....", ".X.X...", ".......", "......."],
            Seat::P1,
            "3B"
        ));
        assert!(!meets(
            [".......", ".X.X...", "..X....", ".X.O...", ".......", "......."],
            Seat::P1,
            "3B"
        ));
        // On the edge.
        assert!(!meets(
            ["X......", ".X.....", "X......", ".......", ".......", "......."],
            Seat::P1,
            "3B"
        ));
    }

    #[test]
    fn condition_3c_square_of_neutrals() {
        assert!(meets(
            [".......", ".......", ".......", ".......", "++.....", "+*....."],
            Seat::P2,
            "3C"
        ));
        assert!(!meets(
            [".......", ".......", ".......", ".......", "++.....", "+X....."],
            Seat::P2,
            "3C"
        ));
    }

    #[test]
    fn condition_3d_column_of_own_or_neutral() {
        assert!(meets(
            ["X......", "+......", "X......", "x......", "*......", "X......"],
            Seat::P1,
            "3D"
        ));
        // An empty cell.
        assert!(!meets(
            ["X......", "+......", "X......", ".......", "+......", "X......"],
            Seat::P1,
            "3D"
        ));
        // An opponent's stone.
        assert!(!meets(
            ["X......", "+......", "X......", "O......", "+......", "X......"],
            Seat::P1,
            "3D"
        ));
    }

    #[test]
    fn condition_3e_row_of_own_or_neutral() {
        assert!(meets(
            [".......", ".......", ".......", ".......", ".......", "O+OOoO*"],
            Seat::P2,
            "3E"
        ));
        assert!(!meets(
            [".......", ".......", ".......", ".......", ".......", "O+OO.O*"],
            Seat::P2,
            "3E"
        ));
    }

    #[test]
    fn condition_3f_four_neutrals_in_a_row() {
        assert!(meets(
            ["++++...", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "3F"
        ));
        assert!(meets(
            [".......", ".......", "...+...", "..+....", ".*.....", "+......"],
            Seat::P1,
            "3F"
        ));
        assert!(!meets(
            ["+++X...", ".......", ".......", ".......", ".......", "......."],
            Seat::P1,
            "3F"
        ));
    }

    #[test]
    fn conditions_parse_print_and_are_worth_their_digit() {
        for i in 0..CONDITION_COUNT {
            let c = Condition::from_index(i).unwrap();
            assert_eq!(Condition::parse(&c.to_string().to_lowercase()), Some(c));
            assert_eq!(c.points(), u32::from(c.to_string().as_bytes()[0] - b'0'));
        }
        assert_eq!(Condition::parse("4A"), None);
        assert_eq!(Condition::parse("1G"), None);
        // A first byte far above `3` once overflowed `tier * 6` (found by tests/no_panic.rs).
        assert_eq!(Condition::parse("~A"), None);
        assert_eq!(Condition::parse("\u{ff}A"), None);
        assert!(!Grid::default().meets(Seat::P1, cond("2D")));
    }

    // --- card effects --------------------------------------------------------------------------

    const SOME: [&str; 6] = [
        ".......", ".......", "..XO...", "..+O...", ".......", ".......",
    ];

    #[test]
    fn snipe_beats_freeze_shift_and_diminish_but_not_others() {
        // (p2's card, the round's winner and why): Snipe (value 1) against each card.
        for (other, winner, reason) in [
            ("6 c3", Seat::P1, WinReason::Snipe),
            ("7", Seat::P1, WinReason::Snipe),
            ("8", Seat::P1, WinReason::Snipe),
            ("5", Seat::P2, WinReason::HigherValue),
            ("2 a", Seat::P2, WinReason::HigherValue),
            ("4", Seat::P2, WinReason::HigherValue),
        ] {
            let mut g = placement(&[1, 1], &[6, 7, 8, 5, 2, 4], SOME, 1);
            both(&mut g, "1", other);
            assert_eq!(
                (last(&g).winner, last(&g).reason),
                (winner, reason),
                "Snipe against {other}"
            );
        }
        // The Sniped Freeze still freezes.
        let mut g = placement(&[1], &[6], SOME, 1);
        both(&mut g, "1", "6 c3 d4");
        assert!(g.grid().is_frozen(Cell::parse("c3").unwrap()));
        assert!(g.grid().is_frozen(Cell::parse("d4").unwrap()));
        assert_eq!(last(&g).winner, Seat::P1);
    }

    #[test]
    fn guess_right_wins_and_guess_wrong_does_not() {
        let mut g = placement(&[3], &[7], SOME, 1);
        both(&mut g, "3 7", "7");
        assert_eq!(
            (last(&g).winner, last(&g).reason),
            (Seat::P1, WinReason::Guess)
        );
        let mut g = placement(&[3], &[7], SOME, 1);
        both(&mut g, "3 6", "7");
        assert_eq!(
            (last(&g).winner, last(&g).reason),
            (Seat::P2, WinReason::HigherValue)
        );
    }

    #[test]
    fn both_win_effects_cancel_and_the_tie_rule_decides() {
        let mut g = placement(&[3, 3], &[3, 3], SOME, 1);
        both(&mut g, "3 3", "3 3");
        let r = last(&g);
        assert_eq!(r.win_effects, [true, true]);
        // Equal values in round 1: the advantage holder, p1.
        assert_eq!((r.winner, r.reason), (Seat::P1, WinReason::TieAdvantage));
        // Snipe against a Guess naming the Snipe: only the Guess fires.
        let mut g = placement(&[1], &[3], SOME, 1);
        both(&mut g, "1", "3 1");
        assert_eq!(
            (last(&g).winner, last(&g).win_effects),
            (Seat::P2, [false, true])
        );
    }

    #[test]
    fn ties_go_to_the_advantage_in_round_1_and_to_the_previous_loser_later() {
        let options = WitchsBrewOptions {
            advantage: Seat::P2,
            ..WitchsBrewOptions::default()
        };
        let mut g = WitchsBrew::at_placement(
            options,
            [Hand::of(&[5, 4]), Hand::of(&[5, 4])],
            [Assignment::default(); 2],
            Grid::default(),
            1,
        );
        both(&mut g, "5", "5");
        assert_eq!(
            (last(&g).winner, last(&g).reason),
            (Seat::P2, WinReason::TieAdvantage)
        );
        for (seat, text) in [
            (Seat::P2, "a1"),
            (Seat::P2, "pass"),
            (Seat::P1, "b1"),
            (Seat::P1, "pass"),
            (Seat::P2, "c1"),
        ] {
            one(&mut g, seat, text);
        }
        // Round 2: p1 lost round 1, so p1 wins the tie.
        both(&mut g, "4", "4");
        assert_eq!(
            (last(&g).winner, last(&g).reason),
            (Seat::P1, WinReason::TieLostPrevious)
        );
    }

    #[test]
    fn copy_gains_the_card_and_copy_against_copy_gains_nothing() {
        let mut g = placement(&[4, 1], &[7, 1], SOME, 1);
        both(&mut g, "4", "7");
        assert_eq!(g.hand(Seat::P1), Hand::of(&[1, 7]));
        assert_eq!(last(&g).copied, [Some(7), None]);
        let mut g = placement(&[4, 1], &[4, 1], SOME, 1);
        both(&mut g, "4", "4");
        assert_eq!(g.hand(Seat::P1), Hand::of(&[1]));
        assert_eq!(g.hand(Seat::P2), Hand::of(&[1]));
        assert_eq!(last(&g).copied, [None, None]);
    }

    #[test]
    fn lock_binds_the_opponents_stone_unless_the_column_is_full() {
        let mut g = placement(&[2], &[5], SOME, 1);
        both(&mut g, "2 d", "5");
        // p2 won (5 > 2) and must place in column d.
        assert_eq!(g.pending(), Pending::One(Seat::P2));
        assert!(refused(&g, Seat::P2, "a1").contains("Lock names column d"));
        assert!(refused(&g, Seat::P2, "d3").contains("d3 is taken"));
        one(&mut g, Seat::P2, "d1");
        // The Lock does not bind p1 itself, nor the gray stone.
        one(&mut g, Seat::P2, "pass");
        one(&mut g, Seat::P1, "a6");
        one(&mut g, Seat::P2, "g6");
        // A full column binds nothing.
        let full = [
            "...O...", "...X...", "...+...", "...O...", "...X...", "...+...",
        ];
        let mut g = placement(&[2], &[5], full, 1);
        both(&mut g, "2 d", "5");
        one(&mut g, Seat::P2, "a1");
        assert_eq!(g.grid().stone(Cell::parse("a1").unwrap()), Some(Stone::P2));
    }

    #[test]
    fn leap_passes_over_stones_and_into_nothing_does_nothing() {
        let rows = [
            "...X...", ".......", "...X...", "...O...", "...X...", ".......",
        ];
        let mut g = placement(&[5], &[1], rows, 1);
        both(&mut g, "5", "1");
        one(&mut g, Seat::P1, "a6");
        // d5 up: over d4 (O) and d3 (X) to d2.
        one(&mut g, Seat::P1, "d5 up");
        let at = |g: &WitchsBrew, c: &str| g.grid().stone(Cell::parse(c).unwrap());
        assert_eq!(at(&g, "d2"), Some(Stone::P1));
        assert_eq!(at(&g, "d5"), None);
        // Into nothing: d1 up has no cell above.
        let mut g = placement(&[5], &[1], rows, 1);
        both(&mut g, "5", "1");
        one(&mut g, Seat::P1, "g6");
        let before = *g.grid();
        one(&mut g, Seat::P1, "d1 up");
        assert_eq!(*g.grid(), before);
        // A Leap of someone else's stone is refused.
        let mut g = placement(&[5], &[1], rows, 1);
        both(&mut g, "5", "1");
        one(&mut g, Seat::P1, "g6");
        assert!(refused(&g, Seat::P1, "d4 up").contains("not yours"));
        assert!(refused(&g, Seat::P1, "a1 up").contains("a1 is empty"));
    }

    #[test]
    fn shift_moves_own_or_gray_stones_to_an_empty_neighbour() {
        let mut g = placement(&[7], &[1, 1], SOME, 1);
        // Shift against a Snipe loses: p2 wins and places first.
        both(&mut g, "7", "1");
        assert_eq!(last(&g).winner, Seat::P2);
        one(&mut g, Seat::P2, "g1");
        one(&mut g, Seat::P1, "a1");
        assert_eq!(g.pending(), Pending::One(Seat::P1));
        assert!(refused(&g, Seat::P1, "c4 c6").contains("not next to"));
        assert!(refused(&g, Seat::P1, "c4 c3").contains("c3 is taken"));
        assert!(refused(&g, Seat::P1, "d3 e3").contains("Shift moves one of your stones"));
        one(&mut g, Seat::P1, "c4 c5");
        assert_eq!(
            g.grid().stone(Cell::parse("c5").unwrap()),
            Some(Stone::Gray)
        );
        assert_eq!(g.pending(), Pending::One(Seat::P2));
    }

    #[test]
    fn frozen_stones_refuse_to_move() {
        let rows = [
            ".......", ".......", "..xO...", "..*O...", ".......", ".......",
        ];
        let mut g = placement(&[5, 7], &[1, 1], rows, 1);
        both(&mut g, "5", "1");
        assert_eq!(last(&g).winner, Seat::P1);
        one(&mut g, Seat::P1, "a1");
        assert!(refused(&g, Seat::P1, "c3 up").contains("frozen"));
        one(&mut g, Seat::P1, "a1 right");
        assert_eq!(g.grid().stone(Cell::parse("b1").unwrap()), Some(Stone::P1));
        one(&mut g, Seat::P2, "g6");
        one(&mut g, Seat::P1, "g5");
        both(&mut g, "7", "1");
        one(&mut g, Seat::P2, "f6");
        one(&mut g, Seat::P1, "a6");
        assert!(refused(&g, Seat::P1, "c4 c5").contains("frozen"));
        assert!(refused(&g, Seat::P1, "c3 b3").contains("frozen"));
    }

    #[test]
    fn diminish_lowers_the_next_card_and_chains() {
        let mut g = placement(&[8, 8, 8, 1], &[1, 1, 1, 1], EMPTY, 1);
        let play_round = |g: &mut WitchsBrew, p1: &str| {
            both(g, p1, "1");
            let winner = last(g).winner;
            for seat in [winner, winner.other()] {
                let t = g.random_move(seat, &mut seeded_rng(1)).unwrap();
                g.apply(Step::One { seat, mv: t }).unwrap();
            }
            let t = g.random_move(winner, &mut seeded_rng(2)).unwrap();
            g.apply(Step::One {
                seat: winner,
                mv: t,
            })
            .unwrap();
        };
        play_round(&mut g, "8");
        assert_eq!(last(&g).values, [8, 1]);
        assert_eq!(g.penalty(Seat::P1), 1);
        play_round(&mut g, "8");
        assert_eq!(last(&g).values, [7, 1]);
        play_round(&mut g, "8");
        assert_eq!(last(&g).values, [7, 1]);
        // All three were Sniped: the Snipe fires against Diminish.
        assert_eq!(last(&g).winner, Seat::P2);
        play_round(&mut g, "1");
        assert_eq!(last(&g).values, [0, 1]);
        assert_eq!(g.penalty(Seat::P1), 0);
    }

    #[test]
    fn duplicard_acts_as_each_card_and_keeps_it_in_hand() {
        for card in 1..=8u8 {
            let text = match card {
                2 => "dup 2 a".to_string(),
                3 => "dup 3 6".to_string(),
                6 => "dup 6 c3".to_string(),
                c => format!("dup {c}"),
            };
            let mut g = placement(&[card], &[6, 6], SOME, 1);
            both(&mut g, &text, "6");
            let r = last(&g);
            assert!(!g.has_duplicard(Seat::P1));
            assert_eq!(g.hand(Seat::P1).count(card), 1, "dup {card}");
            assert_eq!(r.plays[0].card, card);
            match card {
                1 => assert_eq!(r.reason, WinReason::Snipe),
                3 => assert_eq!(r.reason, WinReason::Guess),
                4 => assert_eq!(r.copied[0], Some(6)),
                6 => assert!(g.grid().is_frozen(Cell::parse("c3").unwrap())),
                8 => assert_eq!(g.penalty(Seat::P1), 1),
                _ => {}
            }
            if card == 2 {
                // p2 won (6 > 2) and is locked to column a.
                assert!(refused(&g, Seat::P2, "b1").contains("column a"));
            }
            if card == 5 {
                // p1 lost; after p2's stone, p1 places and then Leaps.
                one(&mut g, Seat::P2, "g1");
                one(&mut g, Seat::P1, "a1");
                assert!(matches!(g.stage(), Stage::LoserMove));
            }
            if card == 7 {
                // p1 won (7 > 6); after its stone it Shifts.
                one(&mut g, Seat::P1, "a1");
                assert!(matches!(g.stage(), Stage::WinnerMove));
            }
        }
        // A Duplicard as 6 is seen as a 6 by Snipe and Copy.
        let mut g = placement(&[6], &[1], SOME, 1);
        both(&mut g, "dup 6", "1");
        assert_eq!(last(&g).winner, Seat::P2);
        let mut g = placement(&[6], &[4], SOME, 1);
        both(&mut g, "dup 6", "4");
        assert_eq!(g.hand(Seat::P2), Hand::of(&[6]));
    }

    // --- illegal input -------------------------------------------------------------------------

    #[test]
    fn illegal_input_is_refused_with_the_reason() {
        let g = placement(&[2, 6], &[5], SOME, 1);
        assert!(refused(&g, Seat::P1, "5").contains("you have no 5 (Leap); your hand is 2 6"));
        assert!(refused(&g, Seat::P1, "dup 5").contains("must copy a card you hold"));
        let e = g.parse_move(Seat::P1, "2 h").unwrap_err();
        assert!(e.to_string().contains("column h is off the grid"), "{e}");
        assert!(refused(&g, Seat::P1, "6 a1").contains("a1 is empty"));
        assert!(g.parse_move(Seat::P1, "6 a1 b1 c1 d1").is_err());
        assert!(g.parse_move(Seat::P1, "9").is_err());
        assert!(g.parse_move(Seat::P1, "1 a").is_err());
        // A stone on an occupied cell.
        let mut g = placement(&[5], &[1], SOME, 1);
        both(&mut g, "5", "1");
        assert!(refused(&g, Seat::P1, "c3").contains("c3 is taken"));
        // Not your turn.
        assert!(g
            .check_move(Seat::P2, &Move::Stone(Cell::parse("a1").unwrap()))
            .is_err());
    }

    #[test]
    fn assignments_are_checked() {
        let mut g = WitchsBrew::new(WitchsBrewOptions {
            schedule: Schedule::parse("DM1 DM2 DM3 DM4").unwrap(),
            ..WitchsBrewOptions::default()
        });
        for (pair, pick) in [
            ("1A 1B", "1A"),
            ("2A 2B", "2A"),
            ("3A 3B", "3A"),
            ("1C 1D", "1C"),
        ] {
            chance(&mut g, pair);
            chance(&mut g, "p1");
            one(&mut g, Seat::P1, pick);
        }
        assert_eq!(g.stage(), Stage::Assign);
        assert_eq!(g.conditions(Seat::P1).to_string(), "1A 1C 2A 3A");
        assert!(refused(&g, Seat::P1, "1A 1C 2A 3A / - / -").contains("at most three per round"));
        assert!(refused(&g, Seat::P1, "1A 1C / 2A / -").contains("3A is missing"));
        assert!(refused(&g, Seat::P1, "1A 1C / 2A 1B / 3A").contains("you do not hold 1B"));
        assert!(g.parse_move(Seat::P1, "1A 1C 2A").is_err());
        let mut moves = Vec::new();
        g.legal_moves(Seat::P1, &mut moves);
        // 3^4 spreads minus the 3 with all four on one round.
        assert_eq!(moves.len(), 78);
        assert_eq!(
            g.default_move(Seat::P1, &mut seeded_rng(0))
                .unwrap()
                .to_string(),
            "1A 1C 2A / 3A / -"
        );
        both(
            &mut g,
            "3a / 1c 2A / 1a",
            "1B 1D 2B 3b / - / -"
                .replace("3b / - / -", "/ 3B / -")
                .as_str(),
        );
        assert_eq!(
            g.stage(),
            Stage::Over,
            "nobody holds cards: the game ends at once"
        );
    }

    // --- the Cauldron, scoring and the ends ---------------------------------------------------

    #[test]
    fn a_race_result_with_no_chance_is_refused_when_races_are_simulated() {
        let race = |options: WitchsBrewOptions| {
            let mut g = WitchsBrew::new(options);
            chance(&mut g, "8 3");
            assert_eq!(g.stage(), Stage::Race);
            g
        };
        // By default nobody-wins has chance 0: `none` cannot happen.
        let g = race(WitchsBrewOptions::default());
        let why = g.check_chance(&Chance::Race(None)).unwrap_err().reason;
        assert!(
            why.contains("nobody wins cannot happen here: its chance is 0"),
            "{why}"
        );
        assert!(g.check_chance(&Chance::Race(Some(Seat::P1))).is_ok());
        // A race p1 always wins cannot be won by p2.
        let g = race(WitchsBrewOptions {
            p1_chance: 1.0,
            ..WitchsBrewOptions::default()
        });
        assert!(g.check_chance(&Chance::Race(Some(Seat::P2))).is_err());
        // With a chance of a race nobody wins, `none` is a result.
        let g = race(WitchsBrewOptions {
            none_chance: 0.25,
            ..WitchsBrewOptions::default()
        });
        assert!(g.check_chance(&Chance::Race(None)).is_ok());
        // A live race ends as the race did: nobody may answer in time.
        let g = race(WitchsBrewOptions {
            cauldron: CauldronMode::Live,
            ..WitchsBrewOptions::default()
        });
        assert!(g.check_chance(&Chance::Race(None)).is_ok());
    }

    #[test]
    fn cauldron_rounds_hand_out_prizes_and_discard_throws_a_pair_away() {
        let mut g = WitchsBrew::new(WitchsBrewOptions {
            schedule: Schedule::parse("MM1 DM1 DM2 FM1").unwrap(),
            discard: [false, true],
            none_chance: 0.1,
            ..WitchsBrewOptions::default()
        });
        chance(&mut g, "8 3");
        assert_eq!(g.format_chance(&Chance::Cards(3, 8)), "3 8");
        chance(&mut g, "p2");
        assert!(refused(&g, Seat::P2, "5").contains("not in the pair"));
        one(&mut g, Seat::P2, "8");
        assert_eq!(
            (g.hand(Seat::P1), g.hand(Seat::P2)),
            (Hand::of(&[3]), Hand::of(&[8]))
        );
        // DM1: p2 holds Discard and answers after the handing out.
        chance(&mut g, "2c 3F");
        chance(&mut g, "p1");
        one(&mut g, Seat::P1, "3F");
        assert_eq!(g.pending(), Pending::One(Seat::P2));
        one(&mut g, Seat::P2, "discard");
        assert!(g.conditions(Seat::P1).is_empty() && g.conditions(Seat::P2).is_empty());
        // DM2: the Discard is used up; a race nobody wins discards the pair.
        chance(&mut g, "1A 1B");
        assert!(g.check_chance(&Chance::Cards(1, 2)).is_err());
        chance(&mut g, "none");
        assert_eq!(g.pending(), Pending::Chance);
        assert!(g
            .check_chance(&Chance::Conditions(cond("1A"), cond("2A")))
            .is_err());
        chance(&mut g, "1 1");
        chance(&mut g, "p1");
        one(&mut g, Seat::P1, "1");
        assert_eq!(g.stage(), Stage::Assign);
        both(&mut g, "- / - / -", "- / - / -");
        assert_eq!(g.stage(), Stage::PlayCards);
        assert_eq!(g.round(), 1);
    }

    #[test]
    fn a_player_without_cards_loses_and_neither_scores_everything_unchecked() {
        let a = |s: &str| Move::Assign(parse_assignment(s).unwrap());
        let Move::Assign(p1_assign) = a("2B / 3D / -") else {
            unreachable!()
        };
        let Move::Assign(p2_assign) = a("- / - / 1A") else {
            unreachable!()
        };
        let rows = [
            "XX.....", "XX.....", ".......", ".......", ".......", ".......",
        ];
        let g = WitchsBrew::at_placement(
            WitchsBrewOptions::default(),
            [Hand::default(), Hand::of(&[1])],
            [p1_assign, p2_assign],
            grid(rows),
            3,
        );
        assert_eq!(g.outcome().unwrap().winner, Some(Seat::P2));
        assert_eq!(g.points(), [0, 0]);
        let g = WitchsBrew::at_placement(
            WitchsBrewOptions::default(),
            [Hand::default(), Hand::default()],
            [p1_assign, p2_assign],
            grid(rows),
            3,
        );
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.winner, g.points()),
            (Some(Seat::P1), [2, 0]),
            "{}",
            o.reason
        );
        assert!(o.reason.contains("every unchecked condition was scored"));
    }

    #[test]
    fn conditions_are_scored_after_their_round_and_ties_use_the_tiebreaker() {
        let assign = |s: &str| parse_assignment(s).unwrap();
        let options = WitchsBrewOptions {
            tiebreaker: Some(Seat::P2),
            ..WitchsBrewOptions::default()
        };
        // p1's 2B is assigned to round 6 and met; p2's 2A to round 12.
        let rows = [
            "XX.....", "XX.....", ".......", ".......", ".......", "OOO....",
        ];
        let mut g = WitchsBrew::at_placement(
            options,
            [Hand::of(&[1; 7]), Hand::of(&[2; 7])],
            [assign("2B / - / -"), assign("- / - / 2A")],
            grid(rows),
            6,
        );
        let mut rng = seeded_rng(3);
        both(&mut g, "1", "2 g");
        one(&mut g, Seat::P2, "d6");
        one(&mut g, Seat::P1, "g1");
        one(&mut g, Seat::P2, "g2");
        assert_eq!(g.points(), [2, 0]);
        assert_eq!(g.met()[0].to_string(), "2B");
        while !g.is_over() {
            match g.pending() {
                Pending::Both => {
                    let (a, b) = (
                        g.random_move(Seat::P1, &mut rng).unwrap(),
                        g.random_move(Seat::P2, &mut rng).unwrap(),
                    );
                    g.apply(Step::Both { p1: a, p2: b }).unwrap();
                }
                Pending::One(s) => {
                    // Keep p2's four in a row on row 6 (d6 was added): never Leap or Shift.
                    let mv = match g.stage() {
                        Stage::WinnerMove | Stage::LoserMove => {
                            g.default_move(s, &mut rng).unwrap()
                        }
                        _ => g.random_move(s, &mut rng).unwrap(),
                    };
                    g.apply(Step::One { seat: s, mv }).unwrap();
                }
                _ => unreachable!(),
            }
        }
        assert_eq!(g.points(), [2, 2]);
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, Some(Seat::P2), "{}", o.reason);
        assert!(o.reason.contains("Tiebreaker"));
        let score = g.score();
        assert_eq!(score.details["conditions_met"]["p2"], json!(["2A"]));
    }

    #[test]
    fn the_rules_page_example_round_plays_as_described() {
        let before = [
            ".......", ".......", "...O...", "..XX+..", "...O...", "...+...",
        ];
        let mut g = placement(&[2, 1], &[5, 1], before, 3);
        both(&mut g, "2 d", "5");
        assert_eq!(last(&g).winner, Seat::P2);
        assert!(refused(&g, Seat::P2, "c2").contains("Lock names column d"));
        for (seat, text) in [
            (Seat::P2, "d2"),
            (Seat::P2, "d5 up"),
            (Seat::P1, "d5"),
            (Seat::P2, "b4"),
        ] {
            one(&mut g, seat, text);
        }
        let after = grid([
            "...O...", "...O...", "...O...", ".+XX+..", "...X...", "...+...",
        ]);
        assert_eq!(*g.grid(), after);
        assert!(g.grid().meets(Seat::P2, cond("2E")));
        assert_eq!(g.round(), 4);
        let at = |c: &str| Cell::parse(c);
        assert_eq!(last(&g).placed, [at("d2"), at("d5"), at("b4")]);
        assert_eq!(
            last(&g).moved,
            [Some((at("d5").unwrap(), at("d1").unwrap())), None]
        );
        let text = g.render(Viewer::Spectator);
        assert!(
            text.contains("Stones: p2 placed d2, moved d5 to d1; p1 placed d5; p2 placed gray b4."),
            "{text}"
        );
    }

    #[test]
    fn notation_round_trips_and_views_show_the_grid() {
        let mut g = placement(&[2, 3, 6], &[5], SOME, 1);
        let mut moves = Vec::new();
        g.legal_moves(Seat::P1, &mut moves);
        for mv in &moves {
            assert_eq!(g.parse_move(Seat::P1, &mv.to_string()).unwrap(), *mv);
            g.check_move(Seat::P1, mv).unwrap();
        }
        assert_eq!(parse(&g, Seat::P1, "6 D4 c3").to_string(), "6 c3 d4");
        assert_eq!(parse(&g, Seat::P1, "DUP 2 D").to_string(), "dup 2 d");
        both(&mut g, "6 c3 d4 d3", "5");
        let view = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
        assert_eq!(view["grid"][2][2], json!({"stone": "p1", "frozen": true}));
        assert_eq!(view["players"]["p1"]["hand"], json!([2, 3]));
        let text = g.render(Viewer::Seat(Seat::P1));
        assert!(text.contains("[X][O]"), "{text}");
        assert!(text.contains("Placement round 1 of 12"), "{text}");
    }

    #[test]
    fn random_games_end_and_simulated_races_follow_p1_chance() {
        let mut rng = seeded_rng(9);
        let mut p1_races = 0;
        for _ in 0..200 {
            let mut g = WitchsBrew::new(WitchsBrewOptions {
                p1_chance: 0.8,
                none_chance: 0.1,
                ..WitchsBrewOptions::default()
            });
            let n = colosseum_engine::random_playout(&mut g, &mut rng);
            assert!(g.is_over() && n > 0);
            p1_races += g
                .cauldron_log
                .iter()
                .flatten()
                .filter(|r| r.winner == Some(Seat::P1))
                .count();
        }
        // 200 games × 22 races × 0.9 × 0.8 ≈ 3168.
        assert!((2900..3450).contains(&p1_races), "{p1_races}");
    }

    /// A whole short game as a record: two Cauldron rounds, the Intermission, one Placement
    /// round, then neither player holds cards and every condition is scored.
    #[test]
    fn a_record_replays_to_the_right_victory_points() {
        let text = r#"{"game": "witchs-brew",
            "options": {"schedule": "MM1 DM1", "cauldron": "live"},
            "steps": [
                {"chance": "8 6"}, {"chance": "p1"}, {"p1": "8"},
                {"chance": "3F 2D"}, {"chance": "p2"}, {"p2": "2d"},
                {"p1": "3F / - / -", "p2": "- / - / 2D"},
                {"p1": "8", "p2": "6"},
                {"p1": "d4"}, {"p2": "A1"}, {"p1": "e4"}
            ]}"#;
        let record = colosseum_engine::Record::from_json(text).unwrap();
        let replayed = crate::replay_record(&record).unwrap().unwrap();
        let game = replayed.game;
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.winner, Some(Seat::P2), "{}", outcome.reason);
        let score = serde_json::to_value(game.score()).unwrap();
        assert_eq!(score["p1"], json!(0));
        assert_eq!(score["p2"], json!(2));
        assert_eq!(score["conditions_met"], json!({"p1": [], "p2": ["2D"]}));
        assert_eq!(
            score["conditions_checked"],
            json!({"p1": ["3F"], "p2": ["2D"]})
        );
    }

    #[test]
    fn options_are_checked() {
        let raw = colosseum_engine::parse_pairs(["schedule=MM1 DM1 QQ2"]).unwrap();
        assert!(WitchsBrewOptions::from_raw(&raw).is_err());
        let raw = colosseum_engine::parse_pairs(["p1_chance=1.5"]).unwrap();
        assert!(WitchsBrewOptions::from_raw(&raw).is_err());
        let ten_dms = (1..=10)
            .map(|i| format!("DM{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(Schedule::parse(&ten_dms).unwrap_err().contains("9"));
        assert_eq!(Schedule::standard().to_string().split(' ').count(), 22);
        assert_eq!(
            Schedule::parse(&Schedule::standard().to_string()).unwrap(),
            Schedule::standard()
        );
        let raw = colosseum_engine::parse_pairs(["cauldron=live", "discard=both"]).unwrap();
        let o = WitchsBrewOptions::from_raw(&raw).unwrap();
        assert_eq!((o.cauldron, o.discard), (CauldronMode::Live, [true, true]));
    }
}

//! Square Goofspiel (chaotic_iak, DM Colosseum 2): 36 Goofspiel auctions for the cells of a 6×6
//! board, scored by the 12 rows and columns the cells make up.
//!
//! Each cell has two values: its column's value within its row line (`a` = 1 .. `f` = 6) and its
//! row's value within its column line (`1` = 1 .. `6` = 6; row 1 is the top row). Row line `r` is
//! worth `7 - r` points and column line with value `c` is worth `7 - c`. Six phases each draw six
//! cells not yet auctioned (a chance step, in auction order A..F); both seats bid a card or pass
//! for each in turn, the higher bid claims the cell, ties claim nothing, and every card played is
//! discarded. At each phase's end a seat that claimed `n > 0` cells in that phase receives a card
//! of strength `n`. After the sixth phase each line goes to the seat with the higher total value
//! on it; the higher total worth of lines won wins, then the larger remaining hand strength.
//!
//! The chance space (six ordered cells out of up to 36) is too large to enumerate:
//! [`Game::chance_outcomes`] appends nothing and [`Game::sample_chance`] draws uniformly.
//!
//! The state is fixed-size (hands as counts per strength; the board, the auction order and the
//! bids as arrays), so `apply`, `random_move`, `sample_chance` and `clone` never allocate.

use std::fmt::{self, Write as _};

use colosseum_engine::{
    Game, IllegalMove, NotationError, OptionDoc, OptionReader, OptionsError, Outcome, Pending,
    RawOptions, Score, Seat, Step, StepError, Viewer,
};
use rand::Rng;
use serde::Serialize;
use serde_json::{json, Map, Value};

use colosseum_engine::SeatPair;

/// The clocks at the table (the seed): 90 s a move, no bank; a pass at the deadline.
pub const TIMING: crate::Timing = crate::Timing {
    decisions: &[crate::DecisionClock {
        kind: "*",
        what: "a bid for the cell up for auction",
        ms: 90_000,
        loses: false,
        default: "a pass",
    }],
    bank_ms: 0,
    bank_step_ms: 0,
};

/// The options.
pub const OPTIONS: &[OptionDoc] = &[OptionDoc {
    name: "advantage",
    default: "p1",
    allowed: "p1, p2 or none",
    help:
        "who wins when both line points and remaining hand strength are tied (p1 by default); none makes it a draw",
}];

/// The board's side: 6 rows and 6 columns.
pub const SIDE: usize = 6;
/// The number of cells, and of auctions in a game.
pub const CELLS: usize = SIDE * SIDE;
/// The number of phases.
pub const PHASES: usize = 6;
/// The number of cells auctioned in one phase.
pub const AUCTIONS_PER_PHASE: usize = CELLS / PHASES;
/// The strongest card.
pub const MAX_STRENGTH: u8 = 6;
/// The auction labels within a phase, in order.
pub const LABELS: [char; AUCTIONS_PER_PHASE] = ['A', 'B', 'C', 'D', 'E', 'F'];

/// The checked options of a Square Goofspiel game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SquareGoofspielOptions {
    /// Who wins a game tied on line points and on remaining hand strength (`None`: a draw).
    pub advantage: Option<Seat>,
}

impl Default for SquareGoofspielOptions {
    /// The advantage with `p1`, as RULINGS.md gives the DM advantage.
    fn default() -> Self {
        SquareGoofspielOptions {
            advantage: Some(Seat::P1),
        }
    }
}

impl SquareGoofspielOptions {
    /// Reads the options from JSON, refusing unknown names and bad values.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        let r = OptionReader::new(raw, OPTIONS);
        let advantage = match r.choice("advantage", 1, &["none", "p1", "p2"])? {
            0 => None,
            1 => Some(Seat::P1),
            _ => Some(Seat::P2),
        };
        r.finish()?;
        Ok(SquareGoofspielOptions { advantage })
    }
}

/// A cell of the board, written column letter then row number: `a1` (top left) .. `f6`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell in `column` (0 = `a`) and `row` (0 = row 1, the top), if on the board.
    #[must_use]
    pub fn new(column: usize, row: usize) -> Option<Cell> {
        (column < SIDE && row < SIDE).then(|| Cell((row * SIDE + column) as u8))
    }

    /// The cell with index `i` (`row * 6 + column`), if on the board.
    #[must_use]
    pub fn from_index(i: usize) -> Option<Cell> {
        (i < CELLS).then_some(Cell(i as u8))
    }

    /// `row * 6 + column`, 0..36.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The column, 0 (`a`) to 5 (`f`).
    #[must_use]
    pub fn column(self) -> usize {
        self.index() % SIDE
    }

    /// The row, 0 (row 1, the top) to 5 (row 6).
    #[must_use]
    pub fn row(self) -> usize {
        self.index() / SIDE
    }

    /// The cell's value within its row line: its column's value, 1 (`a`) to 6 (`f`).
    #[must_use]
    pub fn value_in_row(self) -> u8 {
        self.column() as u8 + 1
    }

    /// The cell's value within its column line: its row's value, 1 (top) to 6 (bottom).
    #[must_use]
    pub fn value_in_column(self) -> u8 {
        self.row() as u8 + 1
    }

    /// Every cell, `a1`, `b1`, .. `f6`.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses `a1`..`f6`, case-insensitive; `None` if the text is not a cell.
    #[must_use]
    pub fn parse(text: &str) -> Option<Cell> {
        let (column, row) = crate::grid::parse_short_cell(text)?;
        Cell::new(column, row)
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

/// A bid for one cell: a card of strength 1..6, or a pass (which counts as 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bid(u8);

impl Bid {
    /// Playing no card; it counts as 0.
    pub const PASS: Bid = Bid(0);

    /// Playing a card of `strength` (1..6); `None` for any other strength.
    #[must_use]
    pub fn card(strength: u8) -> Option<Bid> {
        (1..=MAX_STRENGTH)
            .contains(&strength)
            .then_some(Bid(strength))
    }

    /// What the bid counts as: the card's strength, 0 for a pass.
    #[must_use]
    pub fn value(self) -> u8 {
        self.0
    }

    /// Whether no card is played.
    #[must_use]
    pub fn is_pass(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl Serialize for Bid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A hand of cards, as the number of cards of each strength 1..6.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand([u8; MAX_STRENGTH as usize]);

impl Hand {
    /// The starting hand: six 1s, five 2s, four 3s, three 4s, two 5s and one 6 (21 cards,
    /// strength 56).
    pub const START: Hand = Hand([6, 5, 4, 3, 2, 1]);

    /// A hand holding `counts[s - 1]` cards of strength `s`.
    #[must_use]
    pub fn from_counts(counts: [u8; MAX_STRENGTH as usize]) -> Hand {
        Hand(counts)
    }

    /// How many cards of `strength` the hand holds (0 for strengths outside 1..6).
    #[must_use]
    pub fn count(self, strength: u8) -> u8 {
        match strength {
            1..=MAX_STRENGTH => self.0[usize::from(strength - 1)],
            _ => 0,
        }
    }

    /// The number of cards of each strength, 1 first.
    #[must_use]
    pub fn counts(self) -> [u8; MAX_STRENGTH as usize] {
        self.0
    }

    /// The number of cards.
    #[must_use]
    pub fn len(self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether the hand holds no card.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == [0; MAX_STRENGTH as usize]
    }

    /// The sum of the strengths of the cards: the final tie-break.
    #[must_use]
    pub fn strength(self) -> u32 {
        (1..=MAX_STRENGTH)
            .map(|s| u32::from(s) * u32::from(self.count(s)))
            .sum()
    }

    /// The cards, weakest first.
    pub fn cards(self) -> impl Iterator<Item = u8> {
        (1..=MAX_STRENGTH).flat_map(move |s| std::iter::repeat_n(s, usize::from(self.count(s))))
    }

    /// The distinct strengths held, as bits (bit `s - 1` for strength `s`).
    fn held(self) -> u8 {
        let mut bits = 0u8;
        for (i, &n) in self.0.iter().enumerate() {
            if n > 0 {
                bits |= 1 << i;
            }
        }
        bits
    }

    fn remove(&mut self, strength: u8) {
        self.0[usize::from(strength - 1)] -= 1;
    }

    fn add(&mut self, strength: u8) {
        let n = &mut self.0[usize::from(strength - 1)];
        *n = n.saturating_add(1);
    }
}

impl fmt::Display for Hand {
    /// The cards weakest first, `1 1 2 5`, or `empty`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::write_spaced(f, self.cards(), "empty")
    }
}

/// The outcome of a phase's chance step: the cells to auction, in order A..F.
///
/// Any number of cells up to 36 can be written down, so that [`Game::check_chance`] can say
/// "a phase draws exactly six cells" instead of a parse error; only six distinct cells not yet
/// auctioned are legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseDraw {
    cells: [Cell; CELLS],
    len: u8,
}

impl PhaseDraw {
    /// The draw of `cells` in auction order; `None` if there are more than 36.
    #[must_use]
    pub fn new(cells: &[Cell]) -> Option<PhaseDraw> {
        if cells.len() > CELLS {
            return None;
        }
        let mut draw = PhaseDraw {
            cells: [Cell::default(); CELLS],
            len: cells.len() as u8,
        };
        draw.cells[..cells.len()].copy_from_slice(cells);
        Some(draw)
    }

    /// The cells in auction order.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells[..usize::from(self.len)]
    }
}

/// One of the 12 lines of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// A horizontal line, 0 = row 1 (the top).
    Row(u8),
    /// A vertical line, 0 = column `a`.
    Column(u8),
}

impl Line {
    /// Every line: rows 1..6, then columns a..f.
    pub const ALL: [Line; 2 * SIDE] = [
        Line::Row(0),
        Line::Row(1),
        Line::Row(2),
        Line::Row(3),
        Line::Row(4),
        Line::Row(5),
        Line::Column(0),
        Line::Column(1),
        Line::Column(2),
        Line::Column(3),
        Line::Column(4),
        Line::Column(5),
    ];

    /// The points for winning the line: 6 for row 1 and column `a`, down to 1 for row 6 and
    /// column `f`.
    #[must_use]
    pub fn worth(self) -> u8 {
        match self {
            Line::Row(i) | Line::Column(i) => SIDE as u8 - i,
        }
    }

    /// The line's cells with their values within the line.
    fn cells(self) -> impl Iterator<Item = (Cell, u8)> {
        (0..SIDE).map(move |k| {
            let cell = match self {
                Line::Row(r) => Cell::new(k, usize::from(r)),
                Line::Column(c) => Cell::new(usize::from(c), k),
            }
            .expect("lines lie on the board");
            (cell, k as u8 + 1)
        })
    }
}

impl fmt::Display for Line {
    /// `row 1` .. `row 6`, `column a` .. `column f`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Row(r) => write!(f, "row {}", r + 1),
            Line::Column(c) => write!(f, "column {}", char::from(b'a' + c)),
        }
    }
}

impl Serialize for Line {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Who holds one line now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineResult {
    /// The line.
    pub line: Line,
    /// Its worth in points.
    pub worth: u8,
    /// Each seat's total value of cells on the line.
    pub totals: [u8; 2],
    /// Each seat's number of cells on the line.
    pub cells: [u8; 2],
    /// The seat with the higher total, `None` if tied (including an empty line).
    pub winner: Option<Seat>,
}

/// The board: who claimed which cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board([Option<Seat>; CELLS]);

impl Default for Board {
    fn default() -> Self {
        Board([None; CELLS])
    }
}

impl Board {
    /// The seat that claimed `cell`, if any.
    #[must_use]
    pub fn owner(&self, cell: Cell) -> Option<Seat> {
        self.0[cell.index()]
    }

    /// Gives `cell` to `owner` (or to nobody). For building positions; a game only claims cells
    /// through auctions.
    pub fn set(&mut self, cell: Cell, owner: Option<Seat>) {
        self.0[cell.index()] = owner;
    }

    /// The result of one line: the higher total value of own cells wins; equal totals (an empty
    /// line too) win nothing. The number of cells does not matter, only their values.
    #[must_use]
    pub fn line_result(&self, line: Line) -> LineResult {
        let mut totals = [0u8; 2];
        let mut cells = [0u8; 2];
        for (cell, value) in line.cells() {
            if let Some(seat) = self.owner(cell) {
                totals[seat.index()] += value;
                cells[seat.index()] += 1;
            }
        }
        LineResult {
            line,
            worth: line.worth(),
            totals,
            cells,
            winner: leader(totals[0], totals[1]),
        }
    }

    /// All 12 lines' results: rows 1..6, then columns a..f.
    #[must_use]
    pub fn line_results(&self) -> [LineResult; 2 * SIDE] {
        Line::ALL.map(|line| self.line_result(line))
    }

    /// Each seat's total worth of lines won.
    #[must_use]
    pub fn line_points(&self) -> [u32; 2] {
        let mut points = [0u32; 2];
        for result in self.line_results() {
            if let Some(w) = result.winner {
                points[w.index()] += u32::from(result.worth);
            }
        }
        points
    }
}

/// The legal bids of a hand, for each set of strengths held (bit `s - 1` for strength `s`).
struct LegalBids {
    /// Pass, then the strengths held, weakest first.
    bids: [Bid; MAX_STRENGTH as usize + 1],
    /// How many strengths are held (the bids after the pass).
    len: u8,
}

/// [`LegalBids`] for all 64 sets of strengths, so that a random move is one table look-up and one
/// random number.
static MOVES_BY_HELD: [LegalBids; 1 << MAX_STRENGTH] = {
    let mut table = [const {
        LegalBids {
            bids: [Bid::PASS; MAX_STRENGTH as usize + 1],
            len: 0,
        }
    }; 1 << MAX_STRENGTH];
    let mut held = 0;
    while held < table.len() {
        let mut strength = 1;
        while strength <= MAX_STRENGTH {
            if held & (1 << (strength - 1)) != 0 {
                let entry = &mut table[held];
                entry.len += 1;
                entry.bids[entry.len as usize] = Bid(strength);
            }
            strength += 1;
        }
        held += 1;
    }
    table
};

/// Why `bid` cannot be played from `hand`. Out of line, so that the check of a legal bid (bots
/// make millions) stays small.
#[cold]
fn not_in_hand(hand: Hand, bid: Bid) -> IllegalMove {
    IllegalMove::new(if hand.is_empty() {
        format!(
            "you have no {} left; your hand is empty, so you can only pass",
            bid.value()
        )
    } else {
        format!("you have no {} left; your hand is {hand}", bid.value())
    })
}

fn leader<T: Ord>(p1: T, p2: T) -> Option<Seat> {
    match p1.cmp(&p2) {
        std::cmp::Ordering::Greater => Some(Seat::P1),
        std::cmp::Ordering::Less => Some(Seat::P2),
        std::cmp::Ordering::Equal => None,
    }
}

/// One finished auction, public once both bids are revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Auction {
    /// The phase, 1..6.
    pub phase: u8,
    /// The auction's label within the phase, `A`..`F`.
    pub label: char,
    /// The cell auctioned.
    pub cell: Cell,
    /// `p1`'s bid.
    pub p1: Bid,
    /// `p2`'s bid.
    pub p2: Bid,
    /// Who claimed the cell (`None`: equal bids, nobody).
    pub winner: Option<Seat>,
}

/// A game of Square Goofspiel.
///
/// The state holds only what has been revealed: the bids of the auction in progress are not part
/// of it until both are applied at once, so no view can contain them.
#[derive(Clone, Debug)]
pub struct SquareGoofspiel {
    options: SquareGoofspielOptions,
    board: Board,
    /// All 36 cells: the first `drawn` in auction order, the rest (the cells not drawn yet) in
    /// no particular order, so that a draw is a partial Fisher-Yates shuffle of the rest.
    order: [Cell; CELLS],
    drawn: u8,
    /// Where each cell stands in `order`.
    position: [u8; CELLS],
    /// The bids of the first `done` auctions (the cells `order[..done]`), `p1` first.
    bids: [[Bid; 2]; CELLS],
    done: u8,
    hands: [Hand; 2],
    /// Cells each seat claimed in the phase in progress (or the phase just ended).
    claimed_this_phase: [u8; 2],
}

impl SquareGoofspiel {
    /// A new game: both seats hold the starting hand; the first phase's cells are to be drawn.
    #[must_use]
    pub fn new(options: SquareGoofspielOptions) -> Self {
        SquareGoofspiel {
            options,
            board: Board::default(),
            order: std::array::from_fn(|i| Cell(i as u8)),
            drawn: 0,
            position: std::array::from_fn(|i| i as u8),
            bids: [[Bid::PASS; 2]; CELLS],
            done: 0,
            hands: [Hand::START; 2],
            claimed_this_phase: [0; 2],
        }
    }

    /// A new game from raw options.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        SquareGoofspielOptions::from_raw(raw).map(SquareGoofspiel::new)
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> SquareGoofspielOptions {
        self.options
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// A seat's hand.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> Hand {
        self.hands[seat.index()]
    }

    /// The cells drawn so far, in auction order (all 36 once the game is over).
    #[must_use]
    pub fn auction_order(&self) -> &[Cell] {
        &self.order[..usize::from(self.drawn)]
    }

    /// Whether `cell`'s auction is over.
    #[must_use]
    pub fn is_auctioned(&self, cell: Cell) -> bool {
        usize::from(self.position[cell.index()]) < self.auctions_done()
    }

    /// The number of auctions finished.
    #[must_use]
    pub fn auctions_done(&self) -> usize {
        usize::from(self.done)
    }

    /// The finished auctions, in order.
    pub fn auctions(&self) -> impl Iterator<Item = Auction> + '_ {
        (0..self.auctions_done()).map(|i| self.auction(i))
    }

    /// The phase in progress, 1..6 (6 once the game is over). Between phases it is the phase
    /// whose cells are about to be drawn.
    #[must_use]
    pub fn phase(&self) -> usize {
        (self.auctions_done() / AUCTIONS_PER_PHASE + 1).min(PHASES)
    }

    /// The cell up for auction now and its label, if the seats bid now.
    #[must_use]
    pub fn cell_up(&self) -> Option<(char, Cell)> {
        (self.pending() == Pending::Both).then(|| {
            let i = self.auctions_done();
            (LABELS[i % AUCTIONS_PER_PHASE], self.order[i])
        })
    }

    /// Cells each seat claimed in the phase in progress (after a phase's last auction: in that
    /// phase, until the next phase's cells are drawn).
    #[must_use]
    pub fn claimed_this_phase(&self) -> [u8; 2] {
        self.claimed_this_phase
    }

    /// Each seat's line points now (final once the game is over).
    #[must_use]
    pub fn line_points(&self) -> [u32; 2] {
        self.board.line_points()
    }

    fn auction(&self, i: usize) -> Auction {
        let [p1, p2] = self.bids[i];
        Auction {
            phase: (i / AUCTIONS_PER_PHASE + 1) as u8,
            label: LABELS[i % AUCTIONS_PER_PHASE],
            cell: self.order[i],
            p1,
            p2,
            winner: leader(p1, p2),
        }
    }

    fn check_bid(&self, seat: Seat, bid: Bid) -> Result<(), IllegalMove> {
        match self.pending() {
            Pending::Both => {}
            Pending::Over => return Err(IllegalMove::new("the game is over")),
            _ => {
                return Err(IllegalMove::new(
                    "nobody bids now: the next phase's cells are about to be drawn",
                ))
            }
        }
        if bid.is_pass() {
            return Ok(());
        }
        let hand = self.hands[seat.index()];
        if hand.count(bid.value()) > 0 {
            Ok(())
        } else {
            Err(not_in_hand(hand, bid))
        }
    }

    /// Applies a checked pair of bids: the higher claims the cell, both cards are discarded, and
    /// after a phase's sixth auction each seat that claimed cells receives its card.
    fn resolve(&mut self, p1: Bid, p2: Bid) {
        let i = self.auctions_done();
        let cell = self.order[i];
        for (seat, bid) in [(0, p1), (1, p2)] {
            if !bid.is_pass() {
                self.hands[seat].remove(bid.value());
            }
        }
        if let Some(winner) = leader(p1, p2) {
            self.board.set(cell, Some(winner));
            self.claimed_this_phase[winner.index()] += 1;
        }
        self.bids[i] = [p1, p2];
        self.done += 1;
        if self.done == self.drawn {
            // That was the phase's last auction. A phase has six cells, so the card a seat
            // receives always has a strength 1..6.
            for seat in 0..2 {
                let claimed = self.claimed_this_phase[seat];
                if claimed > 0 {
                    self.hands[seat].add(claimed);
                }
            }
        }
    }

    fn outcome_now(&self) -> (Option<Seat>, String) {
        let points = self.line_points();
        if let Some(w) = leader(points[0], points[1]) {
            let (a, b) = (points[w.index()], points[w.other().index()]);
            return (Some(w), format!("{w} wins on line points, {a} to {b}"));
        }
        let strength = self.hands.map(Hand::strength);
        if let Some(w) = leader(strength[0], strength[1]) {
            let (a, b) = (strength[w.index()], strength[w.other().index()]);
            return (
                Some(w),
                format!(
                    "line points are tied at {}; {w} wins on remaining hand strength, {a} to {b}",
                    points[0]
                ),
            );
        }
        let tied = format!(
            "line points are tied at {} and remaining hand strength at {}",
            points[0], strength[0]
        );
        match self.options.advantage {
            Some(w) => (Some(w), format!("{tied}; {w} holds the advantage")),
            None => (None, format!("{tied}: a draw")),
        }
    }
}

/// The state of one cell as a view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CellState {
    /// Not auctioned yet.
    Open,
    /// Auctioned with equal bids: nobody's, for good.
    Nobody,
    /// Claimed by `p1`.
    P1,
    /// Claimed by `p2`.
    P2,
}

/// One cell of the phase in progress, as a view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PhaseCell {
    /// `A`..`F`.
    pub label: char,
    /// The cell.
    pub cell: Cell,
    /// Whether this is the cell up for auction now.
    pub up_now: bool,
    /// Its state: open until auctioned, then claimed or nobody's.
    pub state: CellState,
}

/// A hand as a view shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandView {
    /// The cards, weakest first.
    pub cards: Vec<u8>,
    /// Their total strength (the final tie-break).
    pub strength: u32,
}

/// What a viewer sees of a Square Goofspiel game. Everything is public (the seed posts the board
/// and both hands after every move) except the bids for the cell up now, which are not part of
/// the state until both are revealed together; so seats and spectators see the same.
#[derive(Clone, Debug, Serialize)]
pub struct SquareGoofspielView {
    /// Who looks.
    pub viewer: Viewer,
    /// The options in force.
    pub options: SquareGoofspielOptions,
    /// Who must act now.
    pub pending: Pending,
    /// The phase, 1..6.
    pub phase: usize,
    /// The phase's cells in auction order (empty while they are being drawn).
    pub phase_cells: Vec<PhaseCell>,
    /// The cell up for auction now, if the seats bid now.
    pub up_now: Option<Cell>,
    /// The board, rows 1..6 top to bottom, each column `a`..`f`.
    pub board: Vec<Vec<CellState>>,
    /// Every line's totals and current winner: rows 1..6, then columns a..f.
    pub lines: Vec<LineResult>,
    /// Each seat's line points now.
    pub line_points: SeatPair<u32>,
    /// Both hands (public in this game).
    pub hands: SeatPair<HandView>,
    /// Cells each seat claimed in the phase in progress.
    pub claimed_this_phase: SeatPair<u8>,
    /// Every finished auction with both bids.
    pub auctions: Vec<Auction>,
    /// The outcome, once the game is over.
    pub outcome: Option<Outcome>,
}

fn cell_state(board: &Board, cell: Cell, auctioned: bool) -> CellState {
    match (board.owner(cell), auctioned) {
        (Some(Seat::P1), _) => CellState::P1,
        (Some(Seat::P2), _) => CellState::P2,
        (None, true) => CellState::Nobody,
        (None, false) => CellState::Open,
    }
}

fn parse_bid(text: &str) -> Result<Bid, NotationError> {
    let t = text.trim().to_ascii_lowercase();
    match t.as_str() {
        "pass" | "0" | "no submission" | "none" | "no card" => return Ok(Bid::PASS),
        "" => {
            return Err(NotationError::mv(
                text,
                "write a card strength from 1 to 6, or pass (also 0)",
            ))
        }
        _ => {}
    }
    let n: u64 = t.parse().map_err(|_| {
        NotationError::mv(
            text,
            "write a card strength from 1 to 6, or pass (also 0), digits only",
        )
    })?;
    u8::try_from(n).ok().and_then(Bid::card).ok_or_else(|| {
        NotationError::mv(text, "cards have strengths 1 to 6; pass (or 0) plays none")
    })
}

const CHANCE_SHAPE: &str =
    "write the phase's six cells in auction order A to F, such as `b3 a1 f6 c2 d5 e4`";

impl Game for SquareGoofspiel {
    type Move = Bid;
    type Chance = PhaseDraw;
    type View = SquareGoofspielView;

    fn id(&self) -> &'static str {
        "square-goofspiel"
    }

    fn pending(&self) -> Pending {
        if usize::from(self.done) == CELLS {
            Pending::Over
        } else if self.done == self.drawn {
            Pending::Chance
        } else {
            Pending::Both
        }
    }

    fn legal_moves(&self, seat: Seat, out: &mut Vec<Bid>) {
        if self.pending() == Pending::Both {
            out.push(Bid::PASS);
            let hand = self.hands[seat.index()];
            out.extend((1..=MAX_STRENGTH).filter(|&s| hand.count(s) > 0).map(Bid));
        }
    }

    fn random_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Bid> {
        if self.pending() != Pending::Both {
            return None;
        }
        // Uniform over the distinct legal moves: pass, then each strength held, weakest first.
        let moves = &MOVES_BY_HELD[usize::from(self.hands[seat.index()].held())];
        let k = rng.random_range(0..=moves.len);
        Some(moves.bids[usize::from(k)])
    }

    fn chance_outcomes(&self, _out: &mut Vec<(PhaseDraw, f64)>) {
        // Up to 36·35·34·33·32·31 ordered draws: too many to list; see `sample_chance`.
    }

    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<PhaseDraw> {
        if self.pending() != Pending::Chance {
            return None;
        }
        // A partial Fisher-Yates shuffle of the cells not drawn yet: each slot in turn takes a
        // uniformly random cell of those left, so every ordered draw is equally likely.
        let mut pool = self.order;
        let start = usize::from(self.drawn);
        for slot in start..start + AUCTIONS_PER_PHASE {
            let pick = rng.random_range(slot..CELLS);
            pool.swap(slot, pick);
        }
        PhaseDraw::new(&pool[start..start + AUCTIONS_PER_PHASE])
    }

    fn check_move(&self, seat: Seat, bid: &Bid) -> Result<(), IllegalMove> {
        self.check_bid(seat, *bid)
    }

    fn check_chance(&self, draw: &PhaseDraw) -> Result<(), IllegalMove> {
        match self.pending() {
            Pending::Chance => {}
            Pending::Over => return Err(IllegalMove::new("the game is over")),
            _ => {
                return Err(IllegalMove::new(
                    "no cells are drawn now: the phase's auctions are under way",
                ))
            }
        }
        let cells = draw.cells();
        if cells.len() != AUCTIONS_PER_PHASE {
            return Err(IllegalMove::new(format!(
                "a phase draws exactly 6 cells, in auction order A to F; this gives {}",
                cells.len()
            )));
        }
        let mut seen = 0u64;
        for &cell in cells {
            if seen & cell.bit() != 0 {
                return Err(IllegalMove::new(format!(
                    "{cell} is drawn twice; a phase draws 6 different cells"
                )));
            }
            seen |= cell.bit();
            let i = usize::from(self.position[cell.index()]);
            if i < usize::from(self.drawn) {
                return Err(IllegalMove::new(format!(
                    "{cell} was already auctioned in phase {}",
                    i / AUCTIONS_PER_PHASE + 1
                )));
            }
        }
        Ok(())
    }

    fn apply(&mut self, step: Step<Bid, PhaseDraw>) -> Result<(), StepError> {
        self.check_step(&step)?;
        match step {
            Step::Chance(draw) => {
                self.claimed_this_phase = [0; 2];
                for &cell in draw.cells() {
                    // Swap the cell into the next place of the auction order.
                    let to = usize::from(self.drawn);
                    let from = usize::from(self.position[cell.index()]);
                    let displaced = self.order[to];
                    self.order.swap(to, from);
                    self.position[displaced.index()] = from as u8;
                    self.position[cell.index()] = to as u8;
                    self.drawn += 1;
                }
            }
            Step::Both { p1, p2 } => self.resolve(p1, p2),
            Step::One { .. } => unreachable!("check_step refuses single moves in Square Goofspiel"),
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| {
            let (winner, reason) = self.outcome_now();
            Outcome { winner, reason }
        })
    }

    fn score(&self) -> Score {
        let points = self.line_points();
        let results = self.board.line_results();
        let won = |seat: Seat| -> Vec<String> {
            results
                .iter()
                .filter(|r| r.winner == Some(seat))
                .map(|r| r.line.to_string())
                .collect()
        };
        let cells = |seat: Seat| {
            Cell::all()
                .filter(|&c| self.board.owner(c) == Some(seat))
                .count()
        };
        let mut details = Map::new();
        details.insert(
            "hand_strength".into(),
            json!({"p1": self.hands[0].strength(), "p2": self.hands[1].strength()}),
        );
        details.insert(
            "lines_won".into(),
            json!({"p1": won(Seat::P1), "p2": won(Seat::P2)}),
        );
        details.insert(
            "cells".into(),
            json!({"p1": cells(Seat::P1), "p2": cells(Seat::P2)}),
        );
        details.insert(
            "lines".into(),
            Value::Array(
                results
                    .iter()
                    .map(|r| {
                        json!({"line": r.line.to_string(), "worth": r.worth,
                               "p1": r.totals[0], "p2": r.totals[1], "winner": r.winner})
                    })
                    .collect(),
            ),
        );
        Score {
            p1: Value::from(points[0]),
            p2: Value::from(points[1]),
            details,
        }
    }

    fn view(&self, viewer: Viewer) -> SquareGoofspielView {
        let done = self.auctions_done();
        let phase_start = if self.pending() == Pending::Chance || self.is_over() {
            // Between phases (or at the end) show the phase just finished, if any.
            done.saturating_sub(AUCTIONS_PER_PHASE)
        } else {
            (done / AUCTIONS_PER_PHASE) * AUCTIONS_PER_PHASE
        };
        let phase_end = (phase_start + AUCTIONS_PER_PHASE).min(usize::from(self.drawn));
        let phase_cells = (phase_start..phase_end)
            .map(|i| {
                let cell = self.order[i];
                PhaseCell {
                    label: LABELS[i % AUCTIONS_PER_PHASE],
                    cell,
                    up_now: i == done && self.pending() == Pending::Both,
                    state: cell_state(&self.board, cell, i < done),
                }
            })
            .collect();
        let board = (0..SIDE)
            .map(|row| {
                (0..SIDE)
                    .map(|column| {
                        let cell = Cell::new(column, row).expect("on the board");
                        cell_state(&self.board, cell, self.is_auctioned(cell))
                    })
                    .collect()
            })
            .collect();
        let hand = |h: Hand| HandView {
            cards: h.cards().collect(),
            strength: h.strength(),
        };
        SquareGoofspielView {
            viewer,
            options: self.options,
            pending: self.pending(),
            phase: self.phase(),
            phase_cells,
            up_now: self.cell_up().map(|(_, c)| c),
            board,
            lines: self.board.line_results().to_vec(),
            line_points: SeatPair::from_array(self.line_points()),
            hands: SeatPair::from_array(self.hands.map(hand)),
            claimed_this_phase: SeatPair::from_array(self.claimed_this_phase),
            auctions: self.auctions().collect(),
            outcome: self.outcome(),
        }
    }

    fn render(&self, viewer: Viewer) -> String {
        render(self, viewer)
    }

    fn default_move<R: Rng + ?Sized>(&self, _seat: Seat, _rng: &mut R) -> Option<Bid> {
        // The seed: "If you fail to submit in time, you are assumed to not play a card."
        (self.pending() == Pending::Both).then_some(Bid::PASS)
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<Bid, NotationError> {
        parse_bid(text)
    }

    fn format_move(&self, bid: &Bid) -> String {
        bid.to_string()
    }

    fn parse_chance(&self, text: &str) -> Result<PhaseDraw, NotationError> {
        let mut cells = Vec::with_capacity(AUCTIONS_PER_PHASE);
        for token in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let cell = Cell::parse(token).ok_or_else(|| {
                NotationError::chance(
                    text,
                    format!("`{token}` is not a cell (a1 to f6); {CHANCE_SHAPE}"),
                )
            })?;
            cells.push(cell);
        }
        if cells.is_empty() {
            return Err(NotationError::chance(text, CHANCE_SHAPE));
        }
        PhaseDraw::new(&cells).ok_or_else(|| {
            NotationError::chance(text, format!("the board has only 36 cells; {CHANCE_SHAPE}"))
        })
    }

    fn format_chance(&self, draw: &PhaseDraw) -> String {
        let texts: Vec<String> = draw.cells().iter().map(Cell::to_string).collect();
        texts.join(" ")
    }
}

/// The terminal picture: the board with column values above and row values at the left, line
/// worths and running results below and to the right, owners as `X` (`p1`) and `O` (`p2`),
/// this phase's cells to come as their letters, the cell up now in brackets.
fn render(game: &SquareGoofspiel, viewer: Viewer) -> String {
    let mut s = String::new();
    let done = game.auctions_done();
    let pending = game.pending();
    let up = game.cell_up();
    let title = match (pending, up) {
        (Pending::Over, _) => "game over".to_string(),
        (Pending::Chance, _) => format!("phase {} of 6: its cells are being drawn", game.phase()),
        (_, Some((label, cell))) => {
            format!("phase {} of 6, auction {label}: {cell} is up", game.phase())
        }
        _ => String::new(),
    };
    let _ = writeln!(s, "Square Goofspiel - {title}");
    let you = |seat: Seat| {
        if viewer == Viewer::Seat(seat) {
            " (you)"
        } else {
            ""
        }
    };
    let _ = writeln!(
        s,
        "X = p1{}, O = p2{}, - = nobody's (tied bids), A-F = this phase's cells to come, [ ] = up now",
        you(Seat::P1),
        you(Seat::P2)
    );
    // Labels of this phase's cells still to come.
    let mut to_come = [None; CELLS];
    if pending == Pending::Both {
        let start = (done / AUCTIONS_PER_PHASE) * AUCTIONS_PER_PHASE;
        for i in done..start + AUCTIONS_PER_PHASE {
            to_come[game.order[i].index()] = Some(LABELS[i % AUCTIONS_PER_PHASE]);
        }
    }
    let results = game.board.line_results();
    let mark = |seat: Option<Seat>| match seat {
        Some(Seat::P1) => "X",
        Some(Seat::P2) => "O",
        None => "",
    };
    // A line's result: its winner's mark, `=` for a tie with cells on it, blank while empty.
    let line_mark = |r: &LineResult| match (r.winner, r.totals) {
        (Some(w), _) => mark(Some(w)).to_string(),
        (None, [0, 0]) => String::new(),
        (None, _) => "=".to_string(),
    };
    // Each board column is five characters wide with its mark at offset 1, so that `[D]` fits.
    // Each board column is five characters wide with its mark at offset 1 (so that `[D]` fits);
    // numbers below the board end at that offset.
    let under = |text: String| format!("{text:>2}   ");
    let _ = writeln!(s);
    let _ = writeln!(s, "          a    b    c    d    e    f");
    let _ = writeln!(
        s,
        " value:   1    2    3    4    5    6   | worth   X   O   won"
    );
    for (row, r) in results[..SIDE].iter().enumerate() {
        let _ = write!(s, "  row {}  ", row + 1);
        for column in 0..SIDE {
            let cell = Cell::new(column, row).expect("on the board");
            let inner = match (game.board.owner(cell), to_come[cell.index()]) {
                (Some(Seat::P1), _) => 'X',
                (Some(Seat::P2), _) => 'O',
                (None, Some(label)) => label,
                (None, None) if game.is_auctioned(cell) => '-',
                (None, None) => '.',
            };
            if up.is_some_and(|(_, c)| c == cell) {
                let _ = write!(s, "[{inner}]  ");
            } else {
                let _ = write!(s, " {inner}   ");
            }
        }
        let _ = writeln!(
            s,
            "|   {}    {:>2}  {:>2}    {}",
            r.worth,
            r.totals[0],
            r.totals[1],
            line_mark(r)
        );
    }
    let _ = writeln!(s, "        {:-<31}+", "");
    let columns = &results[SIDE..];
    let footer = |name: &str, item: &dyn Fn(&LineResult) -> String| {
        let cells: String = columns.iter().map(|r| under(item(r))).collect();
        format!(" {name:>6}  {}", cells.trim_end())
    };
    let _ = writeln!(s, "{}", footer("worth:", &|r| r.worth.to_string()));
    let _ = writeln!(s, "{}", footer("X:", &|r| r.totals[0].to_string()));
    let _ = writeln!(s, "{}", footer("O:", &|r| r.totals[1].to_string()));
    let _ = writeln!(s, "{}", footer("won:", &|r| line_mark(r)));
    let _ = writeln!(
        s,
        "A cell counts its column's value (a=1 .. f=6) on its row, and its row's number on its column."
    );
    let _ = writeln!(s);
    let points = game.line_points();
    let so_far = if game.is_over() { "" } else { " so far" };
    let _ = writeln!(s, "Line points{so_far}: p1 {}, p2 {}", points[0], points[1]);
    for seat in Seat::BOTH {
        let hand = game.hands[seat.index()];
        let _ = writeln!(
            s,
            "{seat}{} hand: {hand} (strength {}, {} card{})",
            you(seat),
            hand.strength(),
            hand.len(),
            if hand.len() == 1 { "" } else { "s" }
        );
    }
    // The last auction, and the cards handed out if it ended a phase.
    if done > 0 {
        let a = game.auction(done - 1);
        let result = match a.winner {
            Some(w) => format!("{w} claims {}", a.cell),
            None => "nobody claims it".to_string(),
        };
        let _ = writeln!(
            s,
            "Last auction (phase {} {}, {}): p1 {}, p2 {} - {result}",
            a.phase, a.label, a.cell, a.p1, a.p2
        );
        if game.done == game.drawn {
            let mut parts = Vec::new();
            for seat in Seat::BOTH {
                let n = game.claimed_this_phase[seat.index()];
                parts.push(match n {
                    0 => format!("{seat} claimed no cell and gets no card"),
                    1 => format!("{seat} claimed 1 cell and gets a 1"),
                    n => format!("{seat} claimed {n} cells and gets a {n}"),
                });
            }
            let _ = writeln!(s, "End of phase {}: {}.", a.phase, parts.join("; "));
        } else {
            let [a1, a2] = game.claimed_this_phase;
            let _ = writeln!(s, "This phase so far: p1 claimed {a1}, p2 claimed {a2}.");
        }
    }
    if let Some((label, cell)) = up {
        let _ = writeln!(
            s,
            "Up now: {label} = {cell} (value {} in row {}, {} in column {}). Bid a card 1-6 or pass.",
            cell.value_in_row(),
            cell.row() + 1,
            cell.value_in_column(),
            char::from(b'a' + cell.column() as u8)
        );
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

/// The rules page, shown by `colosseum rules square-goofspiel`.
pub const RULES: &str = include_str!("../../../docs/rules/square-goofspiel.md");

#[cfg(test)]
mod tests {
    use super::*;
    use colosseum_engine::{AnyGame, Erased, Record, TextStep};

    /// The seed's example game (Ruby = p1, Turquoise = p2), played through real steps.
    const SEED_EXAMPLE: &str = include_str!("../tests/data/square-goofspiel-seed-example.json");

    fn new_game() -> SquareGoofspiel {
        SquareGoofspiel::new(SquareGoofspielOptions::default())
    }

    /// Applies the first `n` steps of the seed example through the text interface.
    fn seed_example(n: usize) -> Erased<SquareGoofspiel> {
        let record = Record::from_json(SEED_EXAMPLE).unwrap();
        let mut game = Erased(new_game());
        for (i, step) in record.steps.iter().take(n).enumerate() {
            game.apply(step)
                .unwrap_or_else(|e| panic!("step {i} ({step}): {e}"));
        }
        game
    }

    fn cell(text: &str) -> Cell {
        Cell::parse(text).unwrap()
    }

    fn draw(text: &str) -> PhaseDraw {
        new_game().parse_chance(text).unwrap()
    }

    fn bid(n: u8) -> Bid {
        Bid::card(n).unwrap()
    }

    #[test]
    fn cells_values_and_worths_follow_the_rulings() {
        let f1 = cell("f1");
        assert_eq!((f1.value_in_row(), f1.value_in_column()), (6, 1));
        assert_eq!(cell("A6").to_string(), "a6");
        assert_eq!((cell("a6").column(), cell("a6").row()), (0, 5));
        assert_eq!(Line::Row(0).worth(), 6);
        assert_eq!(Line::Row(5).worth(), 1);
        assert_eq!(Line::Column(0).worth(), 6);
        assert_eq!(Line::Column(5).worth(), 1);
        assert_eq!(Line::Column(2).to_string(), "column c");
        for bad in ["g1", "a7", "a0", "a", "a10", "11", ""] {
            assert_eq!(Cell::parse(bad), None, "{bad}");
        }
        assert_eq!(Hand::START.len(), 21);
        assert_eq!(Hand::START.strength(), 56);
        assert_eq!(Hand::from_counts([2, 0, 1, 0, 0, 0]).to_string(), "1 1 3");
    }

    /// The seed's first example: the end of phase two.
    #[test]
    fn seed_example_end_of_phase_two() {
        // Phase one (7 steps), then phase two's chance step and its auctions A to D.
        let mut game = seed_example(12);
        let g = &game.0;
        assert_eq!(g.phase(), 2);
        assert_eq!(g.claimed_this_phase(), [1, 2], "Ruby 1 cell, Turquoise 2");
        let unclaimed = g.auctions().skip(6).filter(|a| a.winner.is_none()).count();
        assert_eq!(unclaimed, 1, "one cell of A-D went to nobody");
        let (label, e) = g.cell_up().unwrap();
        assert_eq!((label, e.to_string().as_str()), ('E', "b3"));
        let before = [g.hand(Seat::P1), g.hand(Seat::P2)];

        // Cell E: Ruby plays 2, Turquoise plays 4. Turquoise claims it.
        game.apply(&TextStep::both("2", "4")).unwrap();
        assert_eq!(game.0.board().owner(e), Some(Seat::P2));
        assert_eq!(game.0.claimed_this_phase(), [1, 3]);

        // Cell F: both pass; nobody claims it, and the phase ends.
        let (label, f) = game.0.cell_up().unwrap();
        assert_eq!(label, 'F');
        game.apply(&TextStep::both("pass", "0")).unwrap();
        let g = &game.0;
        assert_eq!(g.board().owner(f), None);
        assert_eq!(
            g.pending(),
            Pending::Chance,
            "phase three's cells come next"
        );
        assert_eq!(g.phase(), 3);

        // Ruby: played a 2, received a 1. Turquoise: played a 4, received a 3.
        let mut ruby = before[0];
        ruby.remove(2);
        ruby.add(1);
        let mut turquoise = before[1];
        turquoise.remove(4);
        turquoise.add(3);
        assert_eq!(g.hand(Seat::P1), ruby);
        assert_eq!(g.hand(Seat::P2), turquoise);
        let shown = g.render(Viewer::Spectator);
        assert!(
            shown.contains(
                "End of phase 2: p1 claimed 1 cell and gets a 1; p2 claimed 3 cells and gets a 3."
            ),
            "{shown}"
        );
        assert!(
            shown.contains("Last auction (phase 2 F, b2): p1 pass, p2 pass - nobody claims it"),
            "{shown}"
        );

        // The next phase begins with its cells A-F revealed; the next auction is cell A.
        game.apply(&TextStep::chance("f1 b4 c2 b5 d2 b6")).unwrap();
        assert_eq!(game.0.cell_up(), Some(('A', cell("f1"))));
        assert_eq!(game.0.claimed_this_phase(), [0, 0]);
    }

    /// The seed's second example: line points tied, the larger remaining hand wins.
    #[test]
    fn seed_example_scoring_goes_to_the_larger_remaining_hand() {
        let game = seed_example(usize::MAX);
        let g = &game.0;
        assert!(g.is_over());
        assert_eq!(g.line_points(), [21, 21]);
        assert_eq!(g.hand(Seat::P1).to_string(), "3", "Ruby's remaining card");
        assert_eq!(
            g.hand(Seat::P2).strength(),
            4,
            "Turquoise's remaining cards"
        );
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, Some(Seat::P2));
        assert_eq!(
            o.reason,
            "line points are tied at 21; p2 wins on remaining hand strength, 4 to 3"
        );
        let score = g.score();
        assert_eq!((score.p1.clone(), score.p2.clone()), (json!(21), json!(21)));
        assert_eq!(score.details["hand_strength"], json!({"p1": 3, "p2": 4}));
        assert_eq!(
            score.details["lines_won"]["p1"],
            json!(["row 1", "row 2", "row 3", "row 4", "column e", "column f"])
        );
        assert_eq!(score.details["cells"], json!({"p1": 15, "p2": 15}));
        assert_eq!(
            score.details["lines"][4],
            json!({"line": "row 5", "worth": 2, "p1": 6, "p2": 10, "winner": "p2"})
        );
    }

    #[test]
    fn full_ties_go_to_the_advantage_holder_and_are_draws_without_one() {
        let mut g = seed_example(usize::MAX).0;
        g.hands = [Hand::from_counts([1, 1, 0, 0, 0, 0]); 2];
        // By default p1 holds the advantage (RULINGS).
        assert_eq!(
            SquareGoofspielOptions::from_raw(&RawOptions::new()).unwrap(),
            SquareGoofspielOptions::default()
        );
        g.options = SquareGoofspielOptions::default();
        assert_eq!(g.outcome().unwrap().winner, Some(Seat::P1));
        g.options.advantage = None;
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, None);
        assert_eq!(
            o.reason,
            "line points are tied at 21 and remaining hand strength at 3: a draw"
        );
        for (option, seat) in [("advantage=p1", Seat::P1), ("advantage=P2", Seat::P2)] {
            let raw = colosseum_engine::parse_pairs([option]).unwrap();
            g.options = SquareGoofspielOptions::from_raw(&raw).unwrap();
            let o = g.outcome().unwrap();
            assert_eq!(o.winner, Some(seat));
            assert!(o.reason.ends_with(&format!("; {seat} holds the advantage")));
        }
        // The advantage never overrides hand strength or line points.
        g.options.advantage = Some(Seat::P1);
        g.hands[0] = Hand::from_counts([1, 0, 0, 0, 0, 0]);
        assert_eq!(g.outcome().unwrap().winner, Some(Seat::P2));
        // e5 to p1 wins row 5 for p1 (6 + 5 against 10).
        g.board.set(cell("e5"), Some(Seat::P1));
        assert_eq!(g.line_points(), [23, 19]);
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, Some(Seat::P1));
        assert_eq!(o.reason, "p1 wins on line points, 23 to 19");
    }

    /// A board from a picture: rows 1..6, `X` = p1, `O` = p2, anything else nobody's.
    fn board(picture: [&str; SIDE]) -> Board {
        let mut b = Board::default();
        for (row, line) in picture.iter().enumerate() {
            for (column, ch) in line.chars().enumerate() {
                let owner = match ch {
                    'X' => Some(Seat::P1),
                    'O' => Some(Seat::P2),
                    _ => None,
                };
                b.set(Cell::new(column, row).unwrap(), owner);
            }
        }
        b
    }

    /// A scoring position: the board, some lines' expected totals and winner (`X`, `O`, `=` for
    /// nobody), and both seats' line points.
    struct ScoringCase {
        name: &'static str,
        picture: [&'static str; SIDE],
        lines: &'static [(&'static str, u8, u8, char)],
        points: [u32; 2],
    }

    const SCORING: &[ScoringCase] = &[
        ScoringCase {
            name: "empty board: every line tied at 0",
            picture: ["......"; SIDE],
            lines: &[("row 1", 0, 0, '='), ("column f", 0, 0, '=')],
            points: [0, 0],
        },
        ScoringCase {
            name: "one cell of value 6 beats two cells of values 1 and 2",
            picture: ["OO...X", "......", "......", "......", "......", "......"],
            lines: &[
                ("row 1", 6, 3, 'X'),
                ("column a", 0, 1, 'O'),
                ("column b", 0, 1, 'O'),
                ("column f", 1, 0, 'X'),
                ("row 2", 0, 0, '='),
            ],
            points: [6 + 1, 6 + 5],
        },
        ScoringCase {
            name: "the same on a column: f6 (value 6) beats f1 and f2 (1 + 2)",
            picture: [".....O", ".....O", "......", "......", "......", ".....X"],
            lines: &[
                ("column f", 6, 3, 'X'),
                ("row 1", 0, 6, 'O'),
                ("row 2", 0, 6, 'O'),
                ("row 6", 6, 0, 'X'),
            ],
            points: [1 + 1, 6 + 5],
        },
        ScoringCase {
            name: "equal totals tie the line: c2 (3) against a2 and b2 (1 + 2)",
            picture: ["......", "OOX...", "......", "......", "......", "......"],
            lines: &[
                ("row 2", 3, 3, '='),
                ("column a", 0, 2, 'O'),
                ("column b", 0, 2, 'O'),
                ("column c", 2, 0, 'X'),
            ],
            points: [4, 6 + 5],
        },
        ScoringCase {
            name: "a full row, alternating: more cells do not help X",
            picture: ["......", "......", "XOXOXO", "......", "......", "......"],
            lines: &[
                ("row 3", 1 + 3 + 5, 2 + 4 + 6, 'O'),
                ("column a", 3, 0, 'X'),
                ("column f", 0, 3, 'O'),
            ],
            points: [6 + 4 + 2, 4 + 5 + 3 + 1],
        },
        ScoringCase {
            name: "nobody's cells (tied auctions) count for no one",
            picture: ["--X---", "--O---", "------", "------", "------", "------"],
            lines: &[
                ("column c", 1, 2, 'O'),
                ("row 1", 3, 0, 'X'),
                ("row 2", 0, 3, 'O'),
            ],
            points: [6, 4 + 5],
        },
        ScoringCase {
            name: "the seed example's final board: mirrored, 21 all",
            picture: ["-XXXXX", "O-XXXX", "OO-XXX", "OOO-XX", "OOOO-X", "OOOOO-"],
            lines: &[
                ("row 4", 11, 6, 'X'),
                ("row 5", 6, 10, 'O'),
                ("column d", 6, 11, 'O'),
                ("column e", 10, 6, 'X'),
            ],
            points: [21, 21],
        },
        ScoringCase {
            name: "one player owns everything",
            picture: ["XXXXXX"; SIDE],
            lines: &[("row 6", 21, 0, 'X'), ("column a", 21, 0, 'X')],
            points: [42, 0],
        },
    ];

    #[test]
    fn scoring_table() {
        for case in SCORING {
            let b = board(case.picture);
            let results = b.line_results();
            for &(name, p1, p2, winner) in case.lines {
                let r = results.iter().find(|r| r.line.to_string() == name).unwrap();
                let expected = match winner {
                    'X' => Some(Seat::P1),
                    'O' => Some(Seat::P2),
                    _ => None,
                };
                assert_eq!(
                    (r.totals, r.winner),
                    ([p1, p2], expected),
                    "{}: {name}",
                    case.name
                );
            }
            assert_eq!(b.line_points(), case.points, "{}", case.name);
        }
    }

    #[test]
    fn line_won_by_value_but_lost_by_cell_count_counts_cells_too() {
        let r = board(["OO...X", "", "", "", "", ""]).line_result(Line::Row(0));
        assert_eq!(r.cells, [1, 2]);
        assert_eq!(r.winner, Some(Seat::P1));
    }

    #[test]
    fn bids_refused_with_the_reason_and_the_state_kept() {
        let mut g = new_game();
        g.apply(Step::Chance(draw("b3 a1 f6 c2 d5 e4"))).unwrap();
        g.apply(Step::Both {
            p1: bid(6),
            p2: Bid::PASS,
        })
        .unwrap();
        let before = format!("{g:?}");

        // A card not in hand.
        let e = g
            .apply(Step::Both {
                p1: bid(6),
                p2: bid(1),
            })
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "p1: not legal here: you have no 6 left; your hand is \
             1 1 1 1 1 1 2 2 2 2 2 3 3 3 3 4 4 4 5 5"
        );
        // A card value that does not exist: not even a move.
        for text in ["7", "-1", "256", "six", ""] {
            let e = g.parse_move(Seat::P1, text).unwrap_err();
            assert_eq!(e.kind, "move", "{text}");
        }
        assert_eq!(
            g.parse_move(Seat::P1, "7").unwrap_err().to_string(),
            "`7` is not a move: cards have strengths 1 to 6; pass (or 0) plays none"
        );
        // A bid for one seat alone, and a chance outcome while the seats bid.
        let e = g
            .apply(Step::One {
                seat: Seat::P1,
                mv: bid(1),
            })
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "this step gives a move for p1 alone, but the game waits for both seats (p1 and p2 at once)"
        );
        let e = g
            .apply(Step::Chance(draw("a2 a3 a4 a5 a6 b1")))
            .unwrap_err();
        assert!(matches!(e, StepError::WrongActors { .. }), "{e}");
        assert_eq!(format!("{g:?}"), before, "refused steps change nothing");

        // The same through the text interface, as a host or a record sees it.
        let mut erased = Erased(g);
        let e = erased.apply(&TextStep::one(Seat::P2, "3")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "this step gives a move for p2 alone, but the game waits for both seats (p1 and p2 at once)"
        );
        let e = erased.check_move(Seat::P2, "9").unwrap_err();
        assert_eq!(
            e.to_string(),
            "p2: `9` is not a move: cards have strengths 1 to 6; pass (or 0) plays none"
        );
        assert_eq!(erased.check_move(Seat::P2, " PASS ").unwrap(), "pass");
        assert_eq!(format!("{:?}", erased.0), before);
    }

    #[test]
    fn an_empty_hand_can_only_pass() {
        let mut g = new_game();
        g.hands[0] = Hand::default();
        g.apply(Step::Chance(draw("a1 b1 c1 d1 e1 f1"))).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(Seat::P1, &mut moves);
        assert_eq!(moves, [Bid::PASS]);
        let e = g.check_move(Seat::P1, &bid(1)).unwrap_err();
        assert_eq!(
            e.reason,
            "you have no 1 left; your hand is empty, so you can only pass"
        );
    }

    #[test]
    fn chance_steps_refused_with_the_reason() {
        let mut g = new_game();
        let cases = [
            (
                "b3 a1 f6 c2 d5",
                "a phase draws exactly 6 cells, in auction order A to F; this gives 5",
            ),
            (
                "b3 a1 f6 c2 d5 e4 a2",
                "a phase draws exactly 6 cells, in auction order A to F; this gives 7",
            ),
            (
                "b3 a1 f6 c2 d5 B3",
                "b3 is drawn twice; a phase draws 6 different cells",
            ),
        ];
        for (text, reason) in cases {
            let e = g.apply(Step::Chance(draw(text))).unwrap_err();
            assert_eq!(
                e,
                StepError::IllegalChance(IllegalMove::new(reason)),
                "{text}"
            );
        }
        g.apply(Step::Chance(draw("b3, a1, f6, c2, d5, e4")))
            .unwrap();
        assert_eq!(g.auction_order(), draw("b3 a1 f6 c2 d5 e4").cells());
        for _ in 0..AUCTIONS_PER_PHASE {
            g.apply(Step::Both {
                p1: Bid::PASS,
                p2: Bid::PASS,
            })
            .unwrap();
        }
        let e = g.check_chance(&draw("a2 a3 a4 a5 a6 f6")).unwrap_err();
        assert_eq!(e.reason, "f6 was already auctioned in phase 1");

        // Malformed text is not a chance outcome at all.
        for text in [
            "",
            "  ",
            "b3 a1 zz c2 d5 e4",
            "b3a1f6c2d5e4",
            "g1 a1 b1 c1 d1 e1",
        ] {
            let e = g.parse_chance(text).unwrap_err();
            assert_eq!(e.kind, "chance outcome", "{text}");
        }
        assert_eq!(
            g.parse_chance("b3 a1 zz").unwrap_err().to_string(),
            "`b3 a1 zz` is not a chance outcome: `zz` is not a cell (a1 to f6); write the \
             phase's six cells in auction order A to F, such as `b3 a1 f6 c2 d5 e4`"
        );
        let many = vec!["a1"; CELLS + 1].join(" ");
        assert!(g.parse_chance(&many).is_err());
        assert_eq!(
            g.format_chance(&draw("B3,A1 f6  c2 d5 e4")),
            "b3 a1 f6 c2 d5 e4"
        );
    }

    #[test]
    fn notation_round_trips_and_accepts_the_seeds_words_for_a_pass() {
        let g = new_game();
        for text in ["pass", "PASS", "0", "no submission", "None", " no card "] {
            assert_eq!(g.parse_move(Seat::P1, text).unwrap(), Bid::PASS, "{text}");
        }
        for n in 1..=6 {
            let b = g.parse_move(Seat::P2, &n.to_string()).unwrap();
            assert_eq!(g.format_move(&b), n.to_string());
        }
        assert_eq!(g.format_move(&Bid::PASS), "pass");
    }

    #[test]
    fn a_random_game_has_six_chance_steps_and_36_auctions() {
        let mut rng = colosseum_engine::seeded_rng(5);
        let mut g = new_game();
        assert_eq!(colosseum_engine::random_playout(&mut g, &mut rng), 42);
        let mut order = g.auction_order().to_vec();
        order.sort();
        assert_eq!(order, Cell::all().collect::<Vec<_>>());
        assert!(g.sample_chance(&mut rng).is_none());
        assert!(g.random_move(Seat::P1, &mut rng).is_none());
        let mut outcomes = Vec::new();
        g.chance_outcomes(&mut outcomes);
        assert!(outcomes.is_empty());
    }

    #[test]
    fn drawn_cells_are_uniform() {
        // Every cell is equally likely in every slot: 36 000 first-phase draws, about 1 000 per
        // cell for slot A and for slot F.
        let mut rng = colosseum_engine::seeded_rng(11);
        let g = new_game();
        let mut first = [0u32; CELLS];
        let mut last = [0u32; CELLS];
        for _ in 0..36_000 {
            let d = g.sample_chance(&mut rng).unwrap();
            assert!(g.check_chance(&d).is_ok());
            first[d.cells()[0].index()] += 1;
            last[d.cells()[5].index()] += 1;
        }
        for counts in [first, last] {
            for n in counts {
                assert!((850..1150).contains(&n), "{counts:?}");
            }
        }
    }

    #[test]
    fn random_moves_are_uniform_over_pass_and_the_strengths_held() {
        let mut rng = colosseum_engine::seeded_rng(3);
        let mut g = new_game();
        g.hands[0] = Hand::from_counts([0, 3, 0, 0, 1, 0]);
        g.apply(Step::Chance(draw("a1 b1 c1 d1 e1 f1"))).unwrap();
        let mut counts = [0u32; 7];
        for _ in 0..3000 {
            counts[usize::from(g.random_move(Seat::P1, &mut rng).unwrap().value())] += 1;
        }
        assert_eq!((counts[1], counts[3], counts[4], counts[6]), (0, 0, 0, 0));
        for n in [counts[0], counts[2], counts[5]] {
            assert!((900..1100).contains(&n), "{counts:?}");
        }
    }

    #[test]
    fn views_show_the_phase_the_board_and_both_hands_alike_to_everyone() {
        let game = seed_example(12);
        let json = |v: Viewer| {
            let mut j = game.view_json(v);
            j.as_object_mut().unwrap().remove("viewer");
            j
        };
        let spectator = json(Viewer::Spectator);
        assert_eq!(json(Viewer::Seat(Seat::P1)), spectator);
        assert_eq!(json(Viewer::Seat(Seat::P2)), spectator);
        assert_eq!(spectator["phase"], 2);
        assert_eq!(spectator["up_now"], "b3");
        assert_eq!(
            spectator["phase_cells"][4],
            json!({"label": "E", "cell": "b3", "up_now": true, "state": "open"})
        );
        assert_eq!(
            spectator["phase_cells"][0],
            json!({"label": "A", "cell": "a5", "up_now": false, "state": "p2"})
        );
        assert_eq!(spectator["claimed_this_phase"], json!({"p1": 1, "p2": 2}));
        assert_eq!(spectator["board"][0][0], "nobody", "a1 was tied");
        assert_eq!(spectator["board"][0][1], "p1");
        assert_eq!(spectator["board"][5][5], "open");
        assert_eq!(spectator["auctions"].as_array().unwrap().len(), 10);
        assert_eq!(
            spectator["auctions"][9],
            json!({"phase": 2, "label": "D", "cell": "a6", "p1": "pass", "p2": "1", "winner": "p2"})
        );
        assert!(spectator["hands"]["p1"]["cards"].is_array());
        let shown = game.render(Viewer::Seat(Seat::P2));
        assert!(shown.contains("Square Goofspiel - phase 2 of 6, auction E: b3 is up"));
        assert!(shown.contains("X = p1, O = p2 (you)"));
        assert!(shown.contains("  row 3   O   [E]"), "{shown}");
        assert!(shown.contains("This phase so far: p1 claimed 1, p2 claimed 2."));
    }

    #[test]
    fn options_are_checked() {
        assert_eq!(
            SquareGoofspiel::from_raw(&RawOptions::new())
                .unwrap()
                .options(),
            SquareGoofspielOptions {
                advantage: Some(Seat::P1)
            }
        );
        let raw = colosseum_engine::parse_pairs(["advantage=p3"]).unwrap();
        assert_eq!(
            SquareGoofspiel::from_raw(&raw).unwrap_err().to_string(),
            "option `advantage` = \"p3\" is not allowed: p1, p2 or none"
        );
        let raw = colosseum_engine::parse_pairs(["cards=3"]).unwrap();
        assert!(SquareGoofspiel::from_raw(&raw).is_err());
    }

    #[test]
    fn default_move_is_a_pass() {
        let mut rng = colosseum_engine::seeded_rng(0);
        let mut g = new_game();
        assert_eq!(g.default_move(Seat::P1, &mut rng), None);
        g.apply(Step::Chance(draw("a1 b1 c1 d1 e1 f1"))).unwrap();
        assert_eq!(g.default_move(Seat::P2, &mut rng), Some(Bid::PASS));
    }
}

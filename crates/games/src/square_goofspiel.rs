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

mod board;
pub mod board_svg;
mod cards;
pub mod season;
mod variant;
mod view;

pub use board::*;
pub use cards::*;
pub use view::*;

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
pub const OPTIONS: &[OptionDoc] = &[
    OptionDoc {
        name: "advantage",
        default: "p1",
        allowed: "p1, p2 or none",
        help:
            "who wins when both line points and remaining hand strength are tied (the first player by default); none makes it a draw",
    },
    variant::SIZE,
    variant::DRAW,
];

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
    /// The board's side: 6 in the seed; 2 to 5 in the small variant for research
    /// (`variant.rs`), which plays on the top-left `size`×`size` cells.
    #[serde(skip_serializing_if = "variant::is_seed_size")]
    pub size: u8,
    /// Whether the cells are auctioned in reading order with no chance (option `draw` =
    /// `fixed`, the small variant), instead of the seed's random draw.
    #[serde(rename = "draw", serialize_with = "variant::draw_name")]
    #[serde(skip_serializing_if = "variant::is_random_draw")]
    pub fixed_draw: bool,
}

impl Default for SquareGoofspielOptions {
    /// The advantage with `p1`, as RULINGS.md gives the DM advantage.
    fn default() -> Self {
        SquareGoofspielOptions {
            advantage: Some(Seat::P1),
            size: SIDE as u8,
            fixed_draw: false,
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
        let (size, fixed_draw) = variant::read(&r)?;
        r.finish()?;
        Ok(SquareGoofspielOptions {
            advantage,
            size,
            fixed_draw,
        })
    }
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
        // The board's cells first (all 36 in the seed; the top-left size×size in the small
        // variant), so that the draws take them from the front of the order.
        let mut order: [Cell; CELLS] = std::array::from_fn(|i| crate::grid::BoardCell(i as u8));
        order.sort_by_key(|&c| !variant::on_board(c, options.size));
        let mut position = [0u8; CELLS];
        for (i, c) in order.iter().enumerate() {
            position[c.index()] = i as u8;
        }
        SquareGoofspiel {
            options,
            board: Board::default(),
            order,
            // A fixed draw has drawn every cell, in reading order, from the start: no chance.
            drawn: if options.fixed_draw {
                options.size * options.size
            } else {
                0
            },
            position,
            bids: [[Bid::PASS; 2]; CELLS],
            done: 0,
            hands: [Hand::start(options.size); 2],
            claimed_this_phase: [0; 2],
        }
    }

    /// The board's side: 6, or the small variant's `size`.
    #[must_use]
    pub fn side(&self) -> usize {
        usize::from(self.options.size)
    }

    /// The number of cells on the board, and of auctions in a game: 36, or `size`².
    #[must_use]
    pub fn cells(&self) -> usize {
        self.side() * self.side()
    }

    /// The number of phases, and of auctions in one: 6, or the small variant's `size`.
    #[must_use]
    pub fn per_phase(&self) -> usize {
        self.side()
    }

    /// Whether `cell` is on the board (always in the seed; the top-left `size`×`size` cells in
    /// the small variant).
    #[must_use]
    pub fn is_on_board(&self, cell: Cell) -> bool {
        variant::on_board(cell, self.options.size)
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
        (self.auctions_done() / self.per_phase() + 1).min(self.per_phase())
    }

    /// The cell up for auction now and its label, if the seats bid now.
    #[must_use]
    pub fn cell_up(&self) -> Option<(char, Cell)> {
        (self.pending() == Pending::Both).then(|| {
            let i = self.auctions_done();
            (LABELS[i % self.per_phase()], self.order[i])
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
        self.board.line_points_on(self.options.size)
    }

    fn auction(&self, i: usize) -> Auction {
        let [p1, p2] = self.bids[i];
        Auction {
            phase: (i / self.per_phase() + 1) as u8,
            label: LABELS[i % self.per_phase()],
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
        if i.is_multiple_of(self.per_phase()) {
            // A phase's first auction (the draw has already reset the count, except with a fixed
            // draw, which has no chance step).
            self.claimed_this_phase = [0; 2];
        }
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
        if usize::from(self.done).is_multiple_of(self.per_phase()) {
            // That was the phase's last auction. A phase has six cells (size in the small
            // variant), so the card a seat receives always has a strength 1..6.
            for seat in 0..2 {
                let claimed = self.claimed_this_phase[seat];
                if claimed > 0 {
                    self.hands[seat].add(claimed);
                }
            }
        }
    }

    /// Who wins if the game ends now: more line points, then more hand strength, then the
    /// advantage holder (`None`: a draw). [`Game::outcome`] gives it with its reason once the
    /// game is over.
    #[must_use]
    pub fn winner(&self) -> Option<Seat> {
        let points = self.line_points();
        leader(points[0], points[1])
            .or_else(|| {
                let strength = self.hands.map(Hand::strength);
                leader(strength[0], strength[1])
            })
            .or(self.options.advantage)
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

/// A bid: a strength `1`..`6`, or a pass: the pass words every game shares
/// ([`crate::text::is_pass`]: `pass`, `none`, `no submission`) and this seed's own `0` and
/// `no card`. An empty text is refused: the seed asks a pass to be said on purpose.
fn parse_bid(text: &str) -> Result<Bid, NotationError> {
    if crate::text::is_pass(text) {
        return Ok(Bid::PASS);
    }
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let t = t.to_ascii_lowercase();
    match t.as_str() {
        "0" | "no card" => return Ok(Bid::PASS),
        "" => {
            return Err(NotationError::mv(
                text,
                crate::text::empty_submission(
                    "write a card strength from 1 to 6, or `pass` (also `0`) to pass on purpose",
                ),
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
        if usize::from(self.done) == self.cells() {
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
        for slot in start..start + self.per_phase() {
            let pick = rng.random_range(slot..self.cells());
            pool.swap(slot, pick);
        }
        PhaseDraw::new(&pool[start..start + self.per_phase()])
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
        let n = self.per_phase();
        if cells.len() != n {
            return Err(IllegalMove::new(format!(
                "a phase draws exactly {n} cells, in auction order A to {}; this gives {}",
                LABELS[n - 1],
                cells.len()
            )));
        }
        let mut seen = 0u64;
        for &cell in cells {
            if seen & cell.bit() != 0 {
                return Err(IllegalMove::new(format!(
                    "{cell} is drawn twice; a phase draws {n} different cells"
                )));
            }
            if !self.is_on_board(cell) {
                return Err(IllegalMove::new(format!(
                    "{cell} is not on the board: with size {n} the cells are a1 to {}",
                    Cell::new(n - 1, n - 1).expect("on the board")
                )));
            }
            seen |= cell.bit();
            let i = usize::from(self.position[cell.index()]);
            if i < usize::from(self.drawn) {
                return Err(IllegalMove::new(format!(
                    "{cell} was already auctioned in phase {}",
                    i / n + 1
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
        let results = self.board.line_results_on(self.options.size);
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
            done.saturating_sub(self.per_phase())
        } else {
            (done / self.per_phase()) * self.per_phase()
        };
        let phase_end = (phase_start + self.per_phase()).min(usize::from(self.drawn));
        let phase_cells = (phase_start..phase_end)
            .map(|i| {
                let cell = self.order[i];
                PhaseCell {
                    label: LABELS[i % self.per_phase()],
                    cell,
                    up_now: i == done && self.pending() == Pending::Both,
                    state: cell_state(&self.board, cell, i < done),
                }
            })
            .collect();
        let board = (0..self.side())
            .map(|row| {
                (0..self.side())
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
            lines: self.board.line_results_on(self.options.size),
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

/// The rules page, shown by `colosseum rules square-goofspiel`.
pub const RULES: &str = include_str!("../../../docs/rules/square-goofspiel.md");

/// The game in OpenSpiel's terms ([`crate::spiel`]).
mod spiel;

#[cfg(test)]
mod tests;

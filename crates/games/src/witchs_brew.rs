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

pub mod board_svg;
mod cards;
mod checks;
pub mod conditions;
mod endgame;
mod grid;
mod moves;
mod notation;
mod options;
pub mod season;
mod view;

pub use cards::*;
pub use conditions::{Condition, ConditionSet};
pub use grid::*;
use notation::*;
pub use options::*;
pub use view::*;

/// The clocks at the table (the seed and RULINGS.md): 60 s an action, five minutes for the
/// Intermission's assignment, ten minutes of reserve spent continuously. Running out of reserve
/// loses at once in the Placement Phase only (RULINGS.md); elsewhere the default is played: a
/// pick takes the first of the pair, a Discard keeps, an assignment fills the rounds in order.
pub const TIMING: crate::Timing = crate::Timing {
    decisions: &[
        crate::DecisionClock {
            kind: "pick",
            what: "a Cauldron pick",
            ms: 60_000,
            loses: false,
            default: "the first prize of the pair",
        },
        crate::DecisionClock {
            kind: "discard",
            what: "a Discard (after a DM pair)",
            ms: 60_000,
            loses: false,
            default: "`keep`",
        },
        crate::DecisionClock {
            kind: "assign",
            what: "the Intermission's assignment",
            ms: 300_000,
            loses: false,
            default: "the victory conditions filled into the rounds in order (`1A` first; three to round 6, three to 9, the rest to 12)",
        },
        crate::DecisionClock {
            kind: "move",
            what: "every Placement action (the cards, a stone, a Leap or Shift)",
            ms: 60_000,
            loses: true,
            default: "",
        },
        crate::DecisionClock {
            kind: "*",
            what: "",
            ms: 60_000,
            loses: false,
            default: "the game's default move",
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
        help: "in a race that someone wins, the chance that the first player wins it",
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
    OptionDoc {
        name: "start",
        default: "seed",
        allowed: "seed or endgame",
        help: "a variant for research, not in the seed: endgame starts before Placement round 12 of a fixed seed game (the rules page shows the position), leaving the last round's decisions; it needs schedule, cauldron, p1_chance, none_chance and discard at their defaults",
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
    /// A new game: the Cauldron's first prize pair is about to be drawn (with `start =
    /// endgame`, the endgame's position: [`WitchsBrew::endgame`]).
    #[must_use]
    pub fn new(options: WitchsBrewOptions) -> Self {
        if options.start == Start::Endgame {
            return WitchsBrew::endgame(options);
        }
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

impl Game for WitchsBrew {
    type Move = Move;
    type Chance = Chance;
    type View = WitchsBrewView;

    fn id(&self) -> &'static str {
        "witchs-brew"
    }

    /// `race` while a Cauldron race's result is due (a live host runs its trivia race then),
    /// `assign` at the Intermission (the seed gives five minutes for it), `move` otherwise.
    /// `pick` and `discard` (the Cauldron), `assign` (the Intermission), `move` (every Placement
    /// action), `race` and `move` for the chance steps: the clocks ([`TIMING`]) tell them apart,
    /// as an empty reserve loses in the Placement Phase only.
    fn decision_kind(&self) -> &'static str {
        match self.stage {
            Stage::Race => "race",
            Stage::Pick(_) => "pick",
            Stage::Discard(_) => "discard",
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

/// The game in OpenSpiel's terms ([`crate::spiel`]).
mod spiel;

#[cfg(test)]
mod tests;

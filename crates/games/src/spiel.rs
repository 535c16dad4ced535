//! Colosseum's games as OpenSpiel sees them: integer actions, integer chance outcomes with
//! probabilities, returns and per-seat strings, for the Python package (`crates/python`) that
//! registers every game with OpenSpiel. This is the one place that knows how each game's moves
//! become integers; the package names no game.
//!
//! Each game has an action space of `num_distinct_actions` ids fixed by its options
//! ([`SpielInfo`]), and a rule turning each move its seat may make now
//! ([`Game::legal_moves`]) into an id. Where [`Game::legal_moves`] already lists a bounded,
//! representative subset (All-In Goofspiel's plays, Galespiel's builds, The Witch's Brew's
//! Freezes), the OpenSpiel game plays exactly that subset: the abstraction is the game's own,
//! documented on its rules page and in docs/openspiel.md.
//!
//! * Goofspiel: card `c` is action `c - 1`, prize `p` is chance outcome `p - 1` (OpenSpiel's own
//!   `goofspiel` numbering).
//! * Square Goofspiel: `pass` is 0, a card of strength `s` is `s`. A phase's draw of six cells is
//!   six chance nodes in a row, each drawing one cell (its index `row * 6 + column`) uniformly
//!   from those not drawn yet: the same distribution as the game's ordered draw.
//! * Thwart Omega: `B x W y` is `x * (n - 1) + y'` on a board of `n` cells, with cells numbered
//!   row by row and `y'` the white cell's number among the cells other than `x`.
//! * All-In Goofspiel: 0 is `pass`, `c + 4` plays the single card `c` (-3..12), 17 is the largest
//!   number the hand's non-negative cards make, 18 the whole hand ordered for the largest number.
//! * Galespiel: 0 `skip`, 1 `use` (item windows); `2 + 2 * slot + aid` a bid; 34 + `e` finishing
//!   the build (`done`, `e` for Emergency Delivery), `36 + 64 * e + spot` building one bridge;
//!   `164 + set` an upgrade of the card slots in `set`. Chance: the cycle's prize order by its
//!   rank among the 1260 distinct orders.
//! * The Witch's Brew: the `k`-th move of [`Game::legal_moves`] (a ranked candidate list: the
//!   move space changes kind from decision to decision and a stable enumeration of assignments
//!   would be millions of ids); chance outcomes likewise by rank.

use std::sync::{Arc, OnceLock};

use colosseum_engine::{Game, OptionsError, Pending, RawOptions, Seat, Step, Viewer};

use crate::{
    all_in_goofspiel::AllInGoofspiel, galespiel, goofspiel::Goofspiel,
    square_goofspiel::SquareGoofspiel, thwart_omega::ThwartOmega, witchs_brew::WitchsBrew,
    Registered,
};

/// OpenSpiel's player id of simultaneous nodes.
pub const SIMULTANEOUS: i32 = -2;
/// OpenSpiel's player id of chance nodes.
pub const CHANCE: i32 = -1;
/// OpenSpiel's player id of terminal states.
pub const TERMINAL: i32 = -4;

/// How the returns add up, as OpenSpiel's `GameType.Utility`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utility {
    /// The returns add up to 0.
    ZeroSum,
    /// The returns add up to a constant.
    ConstantSum,
    /// Anything else.
    GeneralSum,
}

impl Utility {
    /// OpenSpiel's name of the kind (`ZERO_SUM`, ...).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Utility::ZeroSum => "ZERO_SUM",
            Utility::ConstantSum => "CONSTANT_SUM",
            Utility::GeneralSum => "GENERAL_SUM",
        }
    }
}

/// What OpenSpiel's `GameType` and `GameInfo` say of a game with given options.
#[derive(Clone, Debug, PartialEq)]
pub struct SpielInfo {
    /// Action ids run from 0 to this, excluded.
    pub num_distinct_actions: usize,
    /// Chance outcome ids run from 0 to this, excluded (0: no chance).
    pub max_chance_outcomes: usize,
    /// The lowest return.
    pub min_utility: f64,
    /// The highest return.
    pub max_utility: f64,
    /// How the returns add up.
    pub utility: Utility,
    /// The sum of the returns for zero- and constant-sum games.
    pub utility_sum: Option<f64>,
    /// The most player nodes (simultaneous or one seat) in a game.
    pub max_game_length: usize,
    /// The most chance nodes in a game.
    pub max_chance_nodes: usize,
    /// Whether the game has chance with known probabilities (EXPLICIT_STOCHASTIC).
    pub stochastic: bool,
    /// Whether anything is hidden from a seat besides the other seat's simultaneous submission
    /// (a face-down play, a secret chance outcome).
    pub hidden: bool,
    /// How the moves are encoded, in a sentence (docs/openspiel.md).
    pub encoding: &'static str,
}

/// A game with given options, driven through integers: OpenSpiel's state API.
pub trait SpielState: Send + Sync {
    /// The game's registry id.
    fn id(&self) -> &'static str;
    /// The game's info (same for every state of the game).
    fn info(&self) -> &SpielInfo;
    /// OpenSpiel's current player: 0 or 1, [`SIMULTANEOUS`], [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self) -> i32;
    /// The legal actions of `player` (0 or 1), ascending; empty if it does not act now.
    fn legal_actions(&self, player: usize) -> Vec<i64>;
    /// The chance outcomes now with their probabilities (empty unless at a chance node).
    fn chance_outcomes(&self) -> Vec<(i64, f64)>;
    /// Applies one seat's action (at a one-seat node) or a chance outcome.
    fn apply_action(&mut self, action: i64) -> Result<(), String>;
    /// Applies both seats' actions at a simultaneous node.
    fn apply_actions(&mut self, p1: i64, p2: i64) -> Result<(), String>;
    /// The action in Colosseum's notation (`player` [`CHANCE`] for a chance outcome).
    fn action_to_string(&self, player: i32, action: i64) -> String;
    /// Each seat's return (0 until the game is over, except for running totals the game reports).
    fn returns(&self) -> [f64; 2];
    /// Whether the game is over.
    fn is_terminal(&self) -> bool;
    /// What `seat` sees now: its view as JSON (no history beyond what the view keeps).
    fn observation_string(&self, seat: usize) -> String;
    /// What `seat` has seen and done since the start: for each decision, its own action and its
    /// view after it (perfect recall), built from the seat's views only.
    fn information_state_string(&self, seat: usize) -> String;
    /// The spectator's rendering, for `str(state)`.
    fn render(&self) -> String;
    /// The actions applied so far: `(player, action)`, with `player` [`CHANCE`] for a chance
    /// outcome; a simultaneous node gives one entry per seat, `p1`'s first.
    fn history(&self) -> &[(i32, i64)];
    /// A copy.
    fn boxed_clone(&self) -> Box<dyn SpielState>;
}

/// Why options cannot make an OpenSpiel game.
#[derive(Debug, thiserror::Error)]
pub enum SpielError {
    /// No such game.
    #[error(transparent)]
    UnknownGame(#[from] crate::UnknownGame),
    /// Bad options.
    #[error(transparent)]
    Options(#[from] OptionsError),
}

/// The initial state of game `id` with `options`, driven through integers.
pub fn new_state(id: &str, options: &RawOptions) -> Result<Box<dyn SpielState>, SpielError> {
    let entry = crate::find(id)?;
    Ok(match entry.id {
        "goofspiel" => make::<Goofspiel>(options)?,
        "square-goofspiel" => make::<SquareGoofspiel>(options)?,
        "thwart-omega" => make::<ThwartOmega>(options)?,
        "all-in-goofspiel" => make::<AllInGoofspiel>(options)?,
        "galespiel" => make::<galespiel::Galespiel>(options)?,
        "witchs-brew" => make::<WitchsBrew>(options)?,
        other => unreachable!("spiel::new_state knows every game of the registry, not {other}"),
    })
}

fn make<G: Encoded>(options: &RawOptions) -> Result<Box<dyn SpielState>, OptionsError> {
    let game = G::with_options(G::parse_options(options)?);
    let info = Arc::new(game.spiel_info());
    Ok(Box::new(State {
        init: game.clone(),
        game,
        info,
        partial: Vec::new(),
        history: Vec::new(),
        steps: Vec::new(),
        legal: Default::default(),
    }))
}

/// How one game's moves and chance outcomes become integers.
trait Encoded: Registered {
    /// The info, from the initial state.
    fn spiel_info(&self) -> SpielInfo;

    /// The id of `mv`, the `index`-th of `seat`'s [`Game::legal_moves`]; `None` to leave it out
    /// (a duplicate).
    fn action_id(&self, seat: Seat, mv: &Self::Move, index: usize) -> Option<i64>;

    /// A name for an action id that is not legal now.
    fn action_name(&self, id: i64) -> String {
        format!("action {id} (not legal now)")
    }

    /// The chance outcomes of the next chance node, given the sub-draws `partial` already made
    /// in this chance event. The provided version: the game's outcomes ranked, in one node.
    fn chance_ids(&self, partial: &[i64], out: &mut Vec<(i64, f64, Option<Self::Chance>)>) {
        debug_assert!(partial.is_empty());
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        out.extend(
            outcomes
                .into_iter()
                .enumerate()
                .map(|(i, (c, p))| (i as i64, p, Some(c))),
        );
    }

    /// The outcome made of the sub-draws `partial` once complete ([`Encoded::chance_ids`] gives
    /// `None` for the outcome of a sub-draw that does not complete it).
    fn chance_complete(&self, _partial: &[i64]) -> Option<Self::Chance> {
        None
    }

    /// The name of sub-draw `id` after `partial`.
    fn chance_name(&self, _partial: &[i64], id: i64, outcome: Option<&Self::Chance>) -> String {
        outcome.map_or_else(|| format!("chance {id}"), |c| self.format_chance(c))
    }

    /// The returns: from the outcome, +1/-1 (0 each for a draw, and until the end).
    fn spiel_returns(&self) -> [f64; 2] {
        match self.outcome() {
            Some(o) => match o.winner {
                Some(Seat::P1) => [1.0, -1.0],
                Some(Seat::P2) => [-1.0, 1.0],
                None => [0.0, 0.0],
            },
            None => [0.0, 0.0],
        }
    }
}

/// A seat's legal actions with their moves, ascending by id.
type Actions<G> = Vec<(i64, <G as Game>::Move)>;

#[derive(Clone)]
struct State<G: Encoded> {
    init: G,
    game: G,
    info: Arc<SpielInfo>,
    /// Sub-draws made in the chance event under way.
    partial: Vec<i64>,
    history: Vec<(i32, i64)>,
    /// The typed steps applied, with the seat that acted alone (for information states).
    steps: Vec<Step<G::Move, G::Chance>>,
    /// Each seat's legal actions with their moves, ascending, once asked for (cleared by
    /// every step): OpenSpiel asks for the name of every legal action in turn.
    legal: [OnceLock<Actions<G>>; 2],
}

impl<G: Encoded> State<G> {
    fn actions(&self, seat: Seat) -> &[(i64, G::Move)] {
        self.legal[seat.index()].get_or_init(|| self.list_actions(seat))
    }

    fn list_actions(&self, seat: Seat) -> Vec<(i64, G::Move)> {
        let mut moves = Vec::new();
        self.game.legal_moves(seat, &mut moves);
        let mut out: Vec<(i64, G::Move)> = Vec::with_capacity(moves.len());
        for (i, mv) in moves.into_iter().enumerate() {
            if let Some(id) = self.game.action_id(seat, &mv, i) {
                out.push((id, mv));
            }
        }
        // A stable sort keeps the first of the moves sharing an id (All-In Goofspiel's largest
        // number can be a single card), and dedup drops the others.
        out.sort_by_key(|(a, _)| *a);
        out.dedup_by_key(|(a, _)| *a);
        out
    }

    fn find(&self, seat: Seat, action: i64) -> Result<G::Move, String> {
        let actions = self.actions(seat);
        actions
            .binary_search_by_key(&action, |(a, _)| *a)
            .map(|i| actions[i].1.clone())
            .map_err(|_| {
                let legal: Vec<String> = self
                    .actions(seat)
                    .iter()
                    .map(|(a, _)| a.to_string())
                    .collect();
                format!(
                    "action {action} is not legal for {seat} now; the legal actions are {}",
                    legal.join(", ")
                )
            })
    }

    fn chance(&self) -> Vec<(i64, f64, Option<G::Chance>)> {
        let mut out = Vec::new();
        if self.game.pending() == Pending::Chance {
            self.game.chance_ids(&self.partial, &mut out);
        }
        out
    }

    fn apply_step(&mut self, step: Step<G::Move, G::Chance>) -> Result<(), String> {
        self.game
            .apply(step.clone())
            .map_err(|e| format!("the game refused the step: {e}"))?;
        self.steps.push(step);
        self.legal = Default::default();
        Ok(())
    }
}

impl<G: Encoded> SpielState for State<G> {
    fn id(&self) -> &'static str {
        self.game.id()
    }

    fn info(&self) -> &SpielInfo {
        &self.info
    }

    fn current_player(&self) -> i32 {
        match self.game.pending() {
            Pending::Both => SIMULTANEOUS,
            Pending::One(seat) => seat.index() as i32,
            Pending::Chance => CHANCE,
            Pending::Over => TERMINAL,
        }
    }

    fn legal_actions(&self, player: usize) -> Vec<i64> {
        match seat_of(player) {
            Some(seat) => self.actions(seat).iter().map(|(a, _)| *a).collect(),
            None => Vec::new(),
        }
    }

    fn chance_outcomes(&self) -> Vec<(i64, f64)> {
        self.chance().into_iter().map(|(a, p, _)| (a, p)).collect()
    }

    fn apply_action(&mut self, action: i64) -> Result<(), String> {
        match self.game.pending() {
            Pending::Chance => {
                let outcomes = self.chance();
                let Some((_, _, outcome)) = outcomes.into_iter().find(|(a, _, _)| *a == action)
                else {
                    return Err(format!(
                        "chance outcome {action} is not possible now; the outcomes are {:?}",
                        self.chance_outcomes()
                            .iter()
                            .map(|(a, _)| *a)
                            .collect::<Vec<_>>()
                    ));
                };
                self.partial.push(action);
                let outcome = outcome.or_else(|| self.game.chance_complete(&self.partial));
                if let Some(c) = outcome {
                    if let Err(e) = self.apply_step(Step::Chance(c)) {
                        self.partial.pop();
                        return Err(e);
                    }
                    self.partial.clear();
                }
                self.history.push((CHANCE, action));
                Ok(())
            }
            Pending::One(seat) => {
                let mv = self.find(seat, action)?;
                self.apply_step(Step::One { seat, mv })?;
                self.history.push((seat.index() as i32, action));
                Ok(())
            }
            Pending::Both => {
                Err("both seats act now: give both actions at once (apply_actions)".to_string())
            }
            Pending::Over => Err("the game is over; no action can be applied".to_string()),
        }
    }

    fn apply_actions(&mut self, p1: i64, p2: i64) -> Result<(), String> {
        if self.game.pending() != Pending::Both {
            return Err(format!(
                "apply_actions is for simultaneous nodes; the game waits for {}",
                self.game.pending()
            ));
        }
        let m1 = self.find(Seat::P1, p1)?;
        let m2 = self.find(Seat::P2, p2)?;
        self.apply_step(Step::Both { p1: m1, p2: m2 })?;
        self.history.push((0, p1));
        self.history.push((1, p2));
        Ok(())
    }

    fn action_to_string(&self, player: i32, action: i64) -> String {
        if player == CHANCE {
            return match self.chance().into_iter().find(|(a, _, _)| *a == action) {
                Some((_, _, outcome)) => {
                    self.game
                        .chance_name(&self.partial, action, outcome.as_ref())
                }
                None => format!("chance {action}"),
            };
        }
        let Some(seat) = seat_of(player as usize).filter(|_| player >= 0) else {
            return format!("action {action}");
        };
        let actions = self.actions(seat);
        match actions.binary_search_by_key(&action, |(a, _)| *a) {
            Ok(i) => self.game.format_move(&actions[i].1),
            Err(_) => self.game.action_name(action),
        }
    }

    fn returns(&self) -> [f64; 2] {
        self.game.spiel_returns()
    }

    fn is_terminal(&self) -> bool {
        self.game.is_over()
    }

    fn observation_string(&self, seat: usize) -> String {
        let viewer = seat_of(seat).map_or(Viewer::Spectator, Viewer::Seat);
        serde_json::to_string(&self.game.view(viewer)).unwrap_or_default()
    }

    fn information_state_string(&self, seat: usize) -> String {
        let Some(seat) = seat_of(seat) else {
            return String::new();
        };
        let viewer = Viewer::Seat(seat);
        let mut game = self.init.clone();
        let mut out = serde_json::to_string(&game.view(viewer)).unwrap_or_default();
        for step in &self.steps {
            let own = match step {
                Step::Both { p1, p2 } => Some(if seat == Seat::P1 { p1 } else { p2 }),
                Step::One { seat: s, mv } if *s == seat => Some(mv),
                _ => None,
            };
            out.push('\n');
            if let Some(mv) = own {
                out.push_str("you: ");
                out.push_str(&game.format_move(mv));
                out.push('\n');
            }
            game.apply(step.clone())
                .expect("a step applied once applies again");
            out.push_str(&serde_json::to_string(&game.view(viewer)).unwrap_or_default());
        }
        out
    }

    fn render(&self) -> String {
        let mut text = self.game.render(Viewer::Spectator);
        if !self.partial.is_empty() {
            text.push_str(&format!("\n(chance draws so far: {:?})", self.partial));
        }
        text
    }

    fn history(&self) -> &[(i32, i64)] {
        &self.history
    }

    fn boxed_clone(&self) -> Box<dyn SpielState> {
        Box::new(self.clone())
    }
}

fn seat_of(player: usize) -> Option<Seat> {
    match player {
        0 => Some(Seat::P1),
        1 => Some(Seat::P2),
        _ => None,
    }
}

fn win_loss(info: SpielInfo) -> SpielInfo {
    SpielInfo {
        min_utility: -1.0,
        max_utility: 1.0,
        utility: Utility::ZeroSum,
        utility_sum: Some(0.0),
        ..info
    }
}

fn base(encoding: &'static str) -> SpielInfo {
    SpielInfo {
        num_distinct_actions: 1,
        max_chance_outcomes: 0,
        min_utility: -1.0,
        max_utility: 1.0,
        utility: Utility::ZeroSum,
        utility_sum: Some(0.0),
        max_game_length: 1,
        max_chance_nodes: 0,
        stochastic: false,
        hidden: false,
        encoding,
    }
}

impl Encoded for Goofspiel {
    fn spiel_info(&self) -> SpielInfo {
        use crate::goofspiel::{PrizeOrder, ReturnsType};
        let o = self.options();
        let n = usize::from(o.cards);
        let total = (n * (n + 1) / 2) as f64;
        let (min, max, utility, sum) = match o.returns {
            ReturnsType::WinLoss => (-1.0, 1.0, Utility::ZeroSum, Some(0.0)),
            ReturnsType::PointDifference => {
                (-total / 2.0, total / 2.0, Utility::ZeroSum, Some(0.0))
            }
            ReturnsType::TotalPoints => (0.0, total, Utility::GeneralSum, None),
        };
        let random = o.order == PrizeOrder::Random;
        SpielInfo {
            num_distinct_actions: n.max(1),
            max_chance_outcomes: if random { n } else { 0 },
            min_utility: min,
            max_utility: max,
            utility,
            utility_sum: sum,
            max_game_length: n,
            max_chance_nodes: if random { n } else { 0 },
            stochastic: random,
            ..base("card c is action c - 1; prize p is chance outcome p - 1")
        }
    }

    fn action_id(&self, _seat: Seat, card: &u8, _index: usize) -> Option<i64> {
        Some(i64::from(*card) - 1)
    }

    fn action_name(&self, id: i64) -> String {
        format!("{}", id + 1)
    }

    fn chance_ids(&self, _partial: &[i64], out: &mut Vec<(i64, f64, Option<u8>)>) {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        out.extend(
            outcomes
                .into_iter()
                .map(|(c, p)| (i64::from(c) - 1, p, Some(c))),
        );
    }

    fn spiel_returns(&self) -> [f64; 2] {
        self.returns()
    }
}

impl Encoded for SquareGoofspiel {
    fn spiel_info(&self) -> SpielInfo {
        use crate::square_goofspiel::CELLS;
        win_loss(SpielInfo {
            num_distinct_actions: 7,
            max_chance_outcomes: CELLS,
            max_game_length: CELLS,
            max_chance_nodes: CELLS,
            stochastic: true,
            ..base(
                "pass is 0, a card of strength s is s; a phase's draw is six chance nodes, each \
                 drawing one cell (row * 6 + column) from those not drawn",
            )
        })
    }

    fn action_id(
        &self,
        _seat: Seat,
        bid: &crate::square_goofspiel::Bid,
        _index: usize,
    ) -> Option<i64> {
        Some(i64::from(bid.value()))
    }

    fn chance_ids(
        &self,
        partial: &[i64],
        out: &mut Vec<(i64, f64, Option<crate::square_goofspiel::PhaseDraw>)>,
    ) {
        use crate::square_goofspiel::{Cell, AUCTIONS_PER_PHASE};
        let free: Vec<Cell> = Cell::all()
            .filter(|&c| !self.is_auctioned(c) && !partial.contains(&(c.index() as i64)))
            .collect();
        let p = 1.0 / free.len() as f64;
        let last = partial.len() + 1 == AUCTIONS_PER_PHASE;
        for cell in free {
            let outcome = if last {
                let mut cells: Vec<Cell> = partial
                    .iter()
                    .filter_map(|&i| Cell::from_index(i as usize))
                    .collect();
                cells.push(cell);
                crate::square_goofspiel::PhaseDraw::new(&cells)
            } else {
                None
            };
            out.push((cell.index() as i64, p, outcome));
        }
    }

    fn chance_name(
        &self,
        _partial: &[i64],
        id: i64,
        _outcome: Option<&crate::square_goofspiel::PhaseDraw>,
    ) -> String {
        crate::square_goofspiel::Cell::from_index(id as usize)
            .map_or_else(|| format!("cell {id}"), |c| c.to_string())
    }
}

impl Encoded for ThwartOmega {
    fn spiel_info(&self) -> SpielInfo {
        let cells = usize::from(self.size()) * usize::from(self.size());
        win_loss(SpielInfo {
            num_distinct_actions: (cells * cells.saturating_sub(1)).max(1),
            max_game_length: cells / 2 + 1,
            ..base(
                "B x W y is x * (n - 1) + y' (cells numbered row by row, n cells, y' the white \
                 cell's number among the cells other than x)",
            )
        })
    }

    fn action_id(
        &self,
        _seat: Seat,
        mv: &crate::thwart_omega::Placement,
        _index: usize,
    ) -> Option<i64> {
        let size = i64::from(self.size());
        let index = |c: crate::grid::Cell| i64::from(c.row) * size + i64::from(c.column);
        let (b, w) = (index(mv.black), index(mv.white));
        let w = if w > b { w - 1 } else { w };
        Some(b * (size * size - 1) + w)
    }
}

impl Encoded for AllInGoofspiel {
    fn spiel_info(&self) -> SpielInfo {
        win_loss(SpielInfo {
            num_distinct_actions: 19,
            max_game_length: 2 * crate::all_in_goofspiel::MAX_ROUNDS,
            hidden: true,
            ..base(
                "0 pass, c + 4 the single card c (-3..12), 17 the largest number of the \
                 non-negative cards, 18 the whole hand ordered for the largest number",
            )
        })
    }

    fn action_id(
        &self,
        _seat: Seat,
        play: &crate::all_in_goofspiel::Play,
        _index: usize,
    ) -> Option<i64> {
        let cards = play.cards();
        Some(match cards {
            [] => 0,
            [c] => i64::from(*c) + 4,
            _ if cards.iter().any(|&c| c < 0) => 18,
            _ => 17,
        })
    }

    fn action_name(&self, id: i64) -> String {
        match id {
            0 => "pass".into(),
            1..=16 => (id - 4).to_string(),
            17 => "largest number of the non-negative cards".into(),
            18 => "whole hand".into(),
            _ => format!("action {id}"),
        }
    }
}

/// Galespiel's action ids: see the module's documentation.
const GALE_BIDS: i64 = 2;
const GALE_DONE: i64 = 34;
const GALE_BUILD: i64 = 36;
const GALE_UPGRADE: i64 = 164;

impl Encoded for galespiel::Galespiel {
    fn spiel_info(&self) -> SpielInfo {
        let slots = self.options().cards.len();
        SpielInfo {
            num_distinct_actions: GALE_UPGRADE as usize + (1 << slots),
            max_chance_outcomes: 1260,
            max_game_length: usize::from(galespiel::MAX_ROUNDS) * 6,
            max_chance_nodes: usize::from(galespiel::MAX_ROUNDS) / galespiel::CYCLE + 1,
            stochastic: true,
            hidden: true,
            ..base(
                "0 skip, 1 use (item windows); 2 + 2 * slot + aid a bid; 34 + e done, 36 + 64 * e \
                 + spot one bridge (e: Emergency Delivery); 164 + set an upgrade; the cycle's \
                 prize order by rank among the 1260 orders",
            )
        }
    }

    fn action_id(&self, _seat: Seat, mv: &galespiel::Move, _index: usize) -> Option<i64> {
        use galespiel::Move;
        Some(match *mv {
            Move::Item(used) => i64::from(used),
            Move::Bid { slot, aid } => GALE_BIDS + 2 * i64::from(slot) + i64::from(aid),
            Move::Build {
                spots: 0,
                emergency,
            } => GALE_DONE + i64::from(emergency),
            Move::Build { spots, emergency } if spots.count_ones() == 1 => {
                GALE_BUILD + 64 * i64::from(emergency) + i64::from(spots.trailing_zeros())
            }
            // Several bridges at once are not in the abstraction (legal_moves never lists them).
            Move::Build { .. } => return None,
            Move::Upgrade(set) => GALE_UPGRADE + i64::from(set),
        })
    }
}

impl Encoded for WitchsBrew {
    fn spiel_info(&self) -> SpielInfo {
        let conditions = crate::witchs_brew::ConditionSet::ALL.len() as usize;
        let pairs = conditions * (conditions - 1) / 2;
        SpielInfo {
            // 3^9 ways to assign nine conditions to rounds 6, 9 and 12 bound every list.
            num_distinct_actions: 19_683,
            max_chance_outcomes: pairs.max(36),
            max_game_length: 400,
            max_chance_nodes: 100,
            stochastic: true,
            ..base(
                "the k-th move of the seat's candidate list (legal_moves; Freeze with at most one \
                 stone); chance outcomes by rank",
            )
        }
    }

    fn action_id(&self, _seat: Seat, _mv: &crate::witchs_brew::Move, index: usize) -> Option<i64> {
        Some(index as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registry_game_has_an_encoding() {
        for entry in crate::registry() {
            let state = new_state(entry.id, &RawOptions::new()).unwrap();
            assert_eq!(state.id(), entry.id);
        }
    }
}

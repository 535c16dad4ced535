//! Colosseum's games as OpenSpiel sees them: integer actions, integer chance outcomes with
//! probabilities, returns, per-seat strings and (for some games) tensors, for the Python package
//! (`crates/python`) that registers every game with OpenSpiel. This module is the shared
//! machinery; each game's encoding lives in its own folder (`<game>/spiel.rs`, an
//! [`Encoded`] implementation) and reaches the registry through [`crate::GameEntry::spiel`].
//! The package names no game.
//!
//! Each game has an action space of `num_distinct_actions` ids fixed by its options
//! ([`SpielInfo`]); an id means the same move (or the same part of a move) in every state.
//! A decision may be made of several actions in a row ([`Encoded::sub_actions`]: The Witch's
//! Brew's assignment, one condition at a time); a simultaneous decision made of several actions
//! is played as one-seat nodes, `p1`'s actions first, then `p2`'s, neither seeing the other's
//! until both are complete (as OpenSpiel's own `convert_to_turn_based` does). A chance event
//! may likewise be drawn in several chance nodes ([`Encoded::chance_ids`]).
//!
//! Information states are built from the seat's views only, and cached: the first call replays
//! the history once, and from then on every action extends them (O(1) amortised per call).

use std::sync::{Arc, OnceLock};

use colosseum_engine::{Game, OptionsError, Pending, RawOptions, Seat, Step, Viewer};

use crate::Registered;

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
    /// The lengths of the observation and information-state tensors (flat, `f32`), or `None`
    /// for a game that provides strings only.
    pub tensors: Option<(usize, usize)>,
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
    /// What `seat` sees now: its view as JSON (no history beyond what the view keeps); the
    /// spectator's view for any other number.
    fn observation_string(&self, seat: usize) -> String;
    /// What `seat` has seen and done since the start: its view at the start, then each of its
    /// own actions (`you: ...`) and its view after every step (perfect recall), built from the
    /// seat's views only. Cached: the first call replays the history once.
    fn information_state_string(&mut self, seat: usize) -> String;
    /// The seat's observation tensor (empty for a game without tensors).
    fn observation_tensor(&self, seat: usize) -> Vec<f32>;
    /// The seat's information-state tensor (empty for a game without tensors). Cached like the
    /// string.
    fn information_state_tensor(&mut self, seat: usize) -> Vec<f32>;
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
    /// The game has no OpenSpiel encoding ([`crate::GameEntry::spiel`] is `None`).
    #[error("game `{0}` has no OpenSpiel encoding")]
    NoEncoding(&'static str),
}

/// How a registry entry makes its OpenSpiel state ([`crate::GameEntry::spiel`]).
pub type SpielHook = fn(&RawOptions) -> Result<Box<dyn SpielState>, OptionsError>;

/// The initial state of game `id` with `options`, driven through integers.
pub fn new_state(id: &str, options: &RawOptions) -> Result<Box<dyn SpielState>, SpielError> {
    let entry = crate::find(id)?;
    let hook = entry.spiel.ok_or(SpielError::NoEncoding(entry.id))?;
    Ok(hook(options)?)
}

/// The [`SpielHook`] of a game with an encoding.
pub(crate) fn make<G: Encoded>(options: &RawOptions) -> Result<Box<dyn SpielState>, OptionsError> {
    let game = G::with_options(G::parse_options(options)?);
    let info = Arc::new(game.spiel_info());
    let mut state = State {
        init: game.clone(),
        game,
        info,
        partial: Vec::new(),
        parts: Vec::new(),
        chosen: [None, None],
        split: false,
        history: Vec::new(),
        legal: Default::default(),
        tracked: None,
    };
    state.refresh();
    Ok(Box::new(state))
}

/// A seat's next actions: each id with the move it completes (`None`: a part of a move, more
/// actions follow).
pub(crate) type SubActions<M> = Vec<(i64, Option<M>)>;

/// How one game's moves and chance outcomes become integers: each game implements it in its own
/// folder (`<game>/spiel.rs`).
pub(crate) trait Encoded: Registered {
    /// The info, from the initial state.
    fn spiel_info(&self) -> SpielInfo;

    /// The id of `mv`, one of `seat`'s [`Game::legal_moves`]; `None` to leave it out (outside
    /// the abstraction, or a duplicate).
    fn action_id(&self, seat: Seat, mv: &Self::Move) -> Option<i64>;

    /// A name for an action id that is not legal now.
    fn action_name(&self, id: i64) -> String {
        format!("action {id} (not legal now)")
    }

    /// For a decision of `seat` made of several actions: the ids of its next action after the
    /// actions `partial` already taken in it, each with the move it completes (`None` while
    /// more follow), and `true`. `false` (the provided version) for a decision of one action,
    /// which is then one of [`Game::legal_moves`] through [`Encoded::action_id`].
    fn sub_actions(
        &self,
        _seat: Seat,
        _partial: &[i64],
        _out: &mut SubActions<Self::Move>,
    ) -> bool {
        false
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

    /// Writes `seat`'s observation tensor (length [`SpielInfo::tensors`]`.0`, zeroed) from its
    /// view; only called for a game with tensors.
    fn observation_tensor(&self, _view: &Self::View, _seat: Seat, _out: &mut [f32]) {}

    /// Brings `seat`'s information-state tensor (length [`SpielInfo::tensors`]`.1`; zeroed at
    /// the start, then as the last call left it) up to date with its view after a step (and
    /// with the view at the start); only called for a game with tensors.
    fn update_information_tensor(&self, _view: &Self::View, _seat: Seat, _out: &mut [f32]) {}

    /// Notes `seat`'s own action `id` in its information-state tensor, before it is applied:
    /// for the parts of a decision of several actions, which the views show only once the
    /// step is complete ([`Encoded::sub_actions`]). Only called for a game with tensors.
    fn note_own_tensor(&self, _seat: Seat, _id: i64, _out: &mut [f32]) {}
}

/// A seat's legal actions with the moves they complete, ascending by id.
type Actions<G> = SubActions<<G as Game>::Move>;

/// Each seat's information state, kept up to date once asked for.
#[derive(Clone)]
struct Tracked {
    strings: [String; 2],
    tensors: [Vec<f32>; 2],
}

#[derive(Clone)]
struct State<G: Encoded> {
    init: G,
    game: G,
    info: Arc<SpielInfo>,
    /// Sub-draws made in the chance event under way.
    partial: Vec<i64>,
    /// Actions taken in the decision under way of the seat to act (a decision of several).
    parts: Vec<i64>,
    /// At a simultaneous decision played seat by seat: the moves chosen so far.
    chosen: [Option<G::Move>; 2],
    /// Whether the simultaneous decision now is played seat by seat (a seat's decision is made
    /// of several actions).
    split: bool,
    history: Vec<(i32, i64)>,
    /// Each seat's legal actions with their moves, ascending, and whether they are actions of a
    /// decision of several, once asked for (cleared by every action): OpenSpiel asks for the
    /// name of every legal action in turn.
    legal: [OnceLock<(bool, Actions<G>)>; 2],
    /// The information states, once asked for (`None` until then: playouts pay nothing).
    tracked: Option<Box<Tracked>>,
}

impl<G: Encoded> State<G> {
    /// After every action: forget the cached lists, see whether the decision now is split.
    fn refresh(&mut self) {
        self.legal = Default::default();
        self.split = self.game.pending() == Pending::Both
            && Seat::BOTH
                .iter()
                .any(|&s| self.game.sub_actions(s, &[], &mut Vec::new()));
    }

    /// The seat that acts alone now (a one-seat decision, or a split simultaneous one).
    fn acting(&self) -> Option<Seat> {
        match self.game.pending() {
            Pending::One(seat) => Some(seat),
            Pending::Both if self.split => Some(if self.chosen[0].is_none() {
                Seat::P1
            } else {
                Seat::P2
            }),
            _ => None,
        }
    }

    fn actions(&self, seat: Seat) -> &[(i64, Option<G::Move>)] {
        &self.legal[seat.index()]
            .get_or_init(|| self.list_actions(seat))
            .1
    }

    /// Whether `seat`'s actions now are those of a decision of several.
    fn in_parts(&self, seat: Seat) -> bool {
        self.legal[seat.index()]
            .get_or_init(|| self.list_actions(seat))
            .0
    }

    fn list_actions(&self, seat: Seat) -> (bool, Actions<G>) {
        let acts = match self.game.pending() {
            Pending::Both if !self.split => true,
            _ => self.acting() == Some(seat),
        };
        if !acts {
            return (false, Vec::new());
        }
        let mut out = Vec::new();
        if self.game.sub_actions(seat, &self.parts, &mut out) {
            out.sort_by_key(|(a, _)| *a);
            return (true, out);
        }
        let mut moves = Vec::new();
        self.game.legal_moves(seat, &mut moves);
        out.reserve(moves.len());
        for mv in moves {
            if let Some(id) = self.game.action_id(seat, &mv) {
                out.push((id, Some(mv)));
            }
        }
        // A stable sort keeps the first of the moves sharing an id (All-In Goofspiel's largest
        // number can be a single card), and dedup drops the others.
        out.sort_by_key(|(a, _)| *a);
        out.dedup_by_key(|(a, _)| *a);
        (false, out)
    }

    fn find(&self, seat: Seat, action: i64) -> Result<Option<G::Move>, String> {
        let actions = self.actions(seat);
        actions
            .binary_search_by_key(&action, |(a, _)| *a)
            .map(|i| actions[i].1.clone())
            .map_err(|_| {
                let legal: Vec<String> = actions.iter().map(|(a, _)| a.to_string()).collect();
                if legal.is_empty() {
                    format!("{seat} does not act now; action {action} cannot be applied")
                } else {
                    format!(
                        "action {action} is not legal for {seat} now; the legal actions are {}",
                        legal.join(", ")
                    )
                }
            })
    }

    fn chance(&self) -> Vec<(i64, f64, Option<G::Chance>)> {
        let mut out = Vec::new();
        if self.game.pending() == Pending::Chance {
            self.game.chance_ids(&self.partial, &mut out);
        }
        out
    }

    /// Notes `seat`'s own action in its information state (before it is applied).
    fn note_own(&mut self, seat: Seat, action: i64) {
        if self.tracked.is_none() {
            return;
        }
        let text = self.action_to_string(seat.index() as i32, action);
        let with_tensors = self.info.tensors.is_some();
        if let Some(tracked) = self.tracked.as_mut() {
            let s = &mut tracked.strings[seat.index()];
            s.push_str("\nyou: ");
            s.push_str(&text);
            if with_tensors {
                self.game
                    .note_own_tensor(seat, action, &mut tracked.tensors[seat.index()]);
            }
        }
    }

    fn apply_step(&mut self, step: Step<G::Move, G::Chance>) -> Result<(), String> {
        self.game
            .apply(step)
            .map_err(|e| format!("the game refused the step: {e}"))?;
        if let Some(tracked) = self.tracked.as_mut() {
            for seat in Seat::BOTH {
                observe(&self.game, &self.info, seat, tracked);
            }
        }
        Ok(())
    }

    /// A seat's action at a one-seat node (or a split simultaneous one).
    fn apply_own(&mut self, seat: Seat, action: i64) -> Result<(), String> {
        let found = self.find(seat, action)?;
        self.note_own(seat, action);
        match found {
            None => self.parts.push(action),
            Some(mv) if self.split => {
                self.parts.clear();
                self.chosen[seat.index()] = Some(mv);
                if let [Some(p1), Some(p2)] = &self.chosen {
                    let step = Step::Both {
                        p1: p1.clone(),
                        p2: p2.clone(),
                    };
                    self.apply_step(step)?;
                    self.chosen = [None, None];
                }
            }
            Some(mv) => {
                self.parts.clear();
                self.apply_step(Step::One { seat, mv })?;
            }
        }
        self.history.push((seat.index() as i32, action));
        self.refresh();
        Ok(())
    }

    /// Starts tracking the information states: replays the history once.
    fn track(&mut self) {
        if self.tracked.is_some() {
            return;
        }
        let mut fresh = State {
            game: self.init.clone(),
            init: self.init.clone(),
            info: self.info.clone(),
            partial: Vec::new(),
            parts: Vec::new(),
            chosen: [None, None],
            split: false,
            history: Vec::new(),
            legal: Default::default(),
            tracked: None,
        };
        fresh.refresh();
        let mut tracked = Box::new(Tracked {
            strings: Default::default(),
            tensors: Default::default(),
        });
        for seat in Seat::BOTH {
            if let Some((_, len)) = self.info.tensors {
                tracked.tensors[seat.index()] = vec![0.0; len];
            }
            observe(&fresh.game, &self.info, seat, &mut tracked);
            // The start is the whole string so far (no newline before it).
            let s = &mut tracked.strings[seat.index()];
            *s = s.trim_start_matches('\n').to_string();
        }
        fresh.tracked = Some(tracked);
        replay(&mut fresh, &self.history).expect("a history applied once applies again");
        self.tracked = fresh.tracked;
    }
}

/// Appends `seat`'s view of `game` to its information state.
fn observe<G: Encoded>(game: &G, info: &SpielInfo, seat: Seat, tracked: &mut Tracked) {
    let view = game.view(Viewer::Seat(seat));
    let s = &mut tracked.strings[seat.index()];
    s.push('\n');
    s.push_str(&serde_json::to_string(&view).unwrap_or_default());
    if info.tensors.is_some() {
        game.update_information_tensor(&view, seat, &mut tracked.tensors[seat.index()]);
    }
}

/// Applies `history` (as [`SpielState::history`] gives it) to `state`.
pub fn replay(state: &mut dyn SpielState, history: &[(i32, i64)]) -> Result<(), String> {
    let mut i = 0;
    while i < history.len() {
        let (_, action) = history[i];
        if state.current_player() == SIMULTANEOUS {
            let Some(&(_, other)) = history.get(i + 1) else {
                return Err("the history ends in the middle of a simultaneous node".into());
            };
            state.apply_actions(action, other)?;
            i += 2;
        } else {
            state.apply_action(action)?;
            i += 1;
        }
    }
    Ok(())
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
            Pending::Both if !self.split => SIMULTANEOUS,
            Pending::Both | Pending::One(_) => {
                self.acting().map_or(SIMULTANEOUS, |s| s.index() as i32)
            }
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
                self.refresh();
                Ok(())
            }
            Pending::Both if !self.split => {
                Err("both seats act now: give both actions at once (apply_actions)".to_string())
            }
            Pending::One(_) | Pending::Both => {
                let seat = self.acting().expect("a seat acts alone");
                self.apply_own(seat, action)
            }
            Pending::Over => Err("the game is over; no action can be applied".to_string()),
        }
    }

    fn apply_actions(&mut self, p1: i64, p2: i64) -> Result<(), String> {
        if self.current_player() != SIMULTANEOUS {
            return Err(format!(
                "apply_actions is for simultaneous nodes; the game waits for {}",
                match self.acting() {
                    Some(seat) => seat.to_string(),
                    None => self.game.pending().to_string(),
                }
            ));
        }
        let complete = |m: Option<G::Move>| m.ok_or("a simultaneous move is one action");
        let m1 = complete(self.find(Seat::P1, p1)?)?;
        let m2 = complete(self.find(Seat::P2, p2)?)?;
        self.note_own(Seat::P1, p1);
        self.note_own(Seat::P2, p2);
        self.apply_step(Step::Both { p1: m1, p2: m2 })?;
        self.history.push((0, p1));
        self.history.push((1, p2));
        self.refresh();
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
        let Some(seat) = usize::try_from(player).ok().and_then(seat_of) else {
            return format!("action {action}");
        };
        let actions = self.actions(seat);
        match actions.binary_search_by_key(&action, |(a, _)| *a) {
            Ok(i) => match &actions[i].1 {
                Some(mv) if !self.in_parts(seat) => self.game.format_move(mv),
                _ => self.game.action_name(action),
            },
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

    fn information_state_string(&mut self, seat: usize) -> String {
        let Some(seat) = seat_of(seat) else {
            return String::new();
        };
        self.track();
        self.tracked.as_ref().expect("tracked").strings[seat.index()].clone()
    }

    fn observation_tensor(&self, seat: usize) -> Vec<f32> {
        let (Some(seat), Some((len, _))) = (seat_of(seat), self.info.tensors) else {
            return Vec::new();
        };
        let mut out = vec![0.0; len];
        let view = self.game.view(Viewer::Seat(seat));
        self.game.observation_tensor(&view, seat, &mut out);
        out
    }

    fn information_state_tensor(&mut self, seat: usize) -> Vec<f32> {
        let (Some(seat), Some(_)) = (seat_of(seat), self.info.tensors) else {
            return Vec::new();
        };
        self.track();
        self.tracked.as_ref().expect("tracked").tensors[seat.index()].clone()
    }

    fn render(&self) -> String {
        let mut text = self.game.render(Viewer::Spectator);
        if !self.partial.is_empty() {
            text.push_str(&format!("\n(chance draws so far: {:?})", self.partial));
        }
        if self.split || !self.parts.is_empty() {
            text.push_str(&format!(
                "\n(actions so far in this decision: {:?}; chosen: {})",
                self.parts,
                match (&self.chosen[0], &self.chosen[1]) {
                    (Some(_), _) => "p1",
                    _ => "nobody",
                }
            ));
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

/// `info` with +1/-1 returns, zero-sum.
pub(crate) fn win_loss(info: SpielInfo) -> SpielInfo {
    SpielInfo {
        min_utility: -1.0,
        max_utility: 1.0,
        utility: Utility::ZeroSum,
        utility_sum: Some(0.0),
        ..info
    }
}

/// An info to complete: one action, no chance, +1/-1 returns, strings only.
pub(crate) fn base(encoding: &'static str) -> SpielInfo {
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
        tensors: None,
    }
}

/// Sets `out[i]` to 1 (a one-hot slot), ignoring an index outside it.
pub(crate) fn one_hot(out: &mut [f32], i: usize) {
    if let Some(x) = out.get_mut(i) {
        *x = 1.0;
    }
}

/// The width of [`acting_slot`]'s one-hot block.
pub(crate) const ACTING_SLOTS: usize = 5;

/// Who acts, as `seat` sees it, for a tensor's one-hot block of [`ACTING_SLOTS`]: 0 `seat`
/// alone, 1 the other seat alone, 2 both, 3 chance, 4 nobody (over).
pub(crate) fn acting_slot(pending: Pending, seat: Seat) -> usize {
    match pending {
        Pending::One(s) if s == seat => 0,
        Pending::One(_) => 1,
        Pending::Both => 2,
        Pending::Chance => 3,
        Pending::Over => 4,
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

    /// A tiny generator (no dependency on the engine's RNG for a test of integers).
    fn next(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// Plays a random game through integers, checking at every node that every id is in the
    /// action space, and that the cached information states equal those of a state rebuilt
    /// from the history (its first call replays).
    fn walk(id: &str, options: &RawOptions, seed: u64, check_every: usize) -> usize {
        let mut state = new_state(id, options).unwrap();
        let info = state.info().clone();
        let mut x = seed | 1;
        let mut nodes = 0;
        // The first call starts the cache; later actions extend it.
        let _ = state.information_state_string(0);
        while !state.is_terminal() {
            nodes += 1;
            assert!(
                nodes <= info.max_game_length + info.max_chance_nodes,
                "{id}: too long"
            );
            if nodes % check_every == 0 {
                let mut fresh = new_state(id, options).unwrap();
                replay(fresh.as_mut(), state.history()).unwrap();
                for seat in 0..2 {
                    assert_eq!(
                        fresh.information_state_string(seat),
                        state.information_state_string(seat),
                        "{id}: cached and replayed information states differ"
                    );
                    assert_eq!(
                        fresh.information_state_tensor(seat),
                        state.information_state_tensor(seat)
                    );
                    if let Some((obs, inf)) = info.tensors {
                        assert_eq!(state.observation_tensor(seat).len(), obs);
                        assert_eq!(state.information_state_tensor(seat).len(), inf);
                    }
                }
            }
            let player = state.current_player();
            if player == CHANCE {
                let outcomes = state.chance_outcomes();
                let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-9, "{id}: chance sums to {total}");
                for &(a, _) in &outcomes {
                    assert!(
                        (0..info.max_chance_outcomes as i64).contains(&a),
                        "{id}: {a}"
                    );
                }
                let (a, _) = outcomes[next(&mut x) as usize % outcomes.len()];
                state.apply_action(a).unwrap();
                continue;
            }
            let mut pick = |seat: usize| {
                let legal = state.legal_actions(seat);
                assert!(!legal.is_empty(), "{id}: {seat} has no action");
                for &a in &legal {
                    assert!(
                        (0..info.num_distinct_actions as i64).contains(&a),
                        "{id}: {a}"
                    );
                }
                legal[next(&mut x) as usize % legal.len()]
            };
            if player == SIMULTANEOUS {
                let (a, b) = (pick(0), pick(1));
                state.apply_actions(a, b).unwrap();
            } else {
                let a = pick(player as usize);
                let other = 1 - player as usize;
                assert!(
                    state.legal_actions(other).is_empty(),
                    "{id}: both act at a one-seat node"
                );
                state.apply_action(a).unwrap();
            }
        }
        nodes
    }

    #[test]
    fn random_games_keep_ids_in_range_and_cached_information_states_true() {
        for entry in crate::registry() {
            for seed in 1..3 {
                walk(entry.id, &RawOptions::new(), seed * 7919, 37);
            }
        }
        let small: RawOptions = serde_json::from_str(r#"{"size": 3}"#).unwrap();
        walk("thwart-omega", &small, 5, 1);
        let cards: RawOptions = serde_json::from_str(r#"{"cards": 5}"#).unwrap();
        walk("goofspiel", &cards, 5, 1);
        // The small variants for research, checking at every node.
        for (id, options) in [
            (
                "all-in-goofspiel",
                r#"{"lowest": -1, "highest": 1, "target": 3}"#,
            ),
            (
                "all-in-goofspiel",
                r#"{"lowest": 0, "highest": 3, "target": 5}"#,
            ),
            ("square-goofspiel", r#"{"size": 2}"#),
            ("square-goofspiel", r#"{"size": 3}"#),
            ("square-goofspiel", r#"{"size": 3, "draw": "fixed"}"#),
            (
                "galespiel",
                r#"{"size": 5, "prizes": "3 4 5", "draw": "fixed", "hand": 3, "rounds": 3}"#,
            ),
            (
                "galespiel",
                r#"{"size": 9, "prizes": "4 5 6", "hand": 4, "rounds": 12, "items": "elder-tree"}"#,
            ),
            ("witchs-brew", r#"{"start": "endgame"}"#),
        ] {
            let options: RawOptions = serde_json::from_str(options).unwrap();
            for seed in 1..4 {
                walk(id, &options, seed * 31, 1);
            }
        }
    }

    #[test]
    fn the_witchs_brew_assignment_is_one_condition_at_a_time_p1_first() {
        // Play random games until an Intermission with conditions held; check its nodes.
        for seed in 1..200u64 {
            let mut state = new_state("witchs-brew", &RawOptions::new()).unwrap();
            let mut x = (seed * 104_729) | 1;
            while !state.is_terminal() {
                let player = state.current_player();
                let legal0 = if player >= 0 {
                    state.legal_actions(player as usize)
                } else {
                    vec![]
                };
                if player >= 0 && legal0.iter().all(|&a| (534..588).contains(&a)) {
                    // p1 first; p2 does not act and sees nothing of p1's choices.
                    assert_eq!(player, 0);
                    let before = state.information_state_string(1);
                    let before_tensor = state.information_state_tensor(1);
                    let own_tensor = state.information_state_tensor(0);
                    let mut seen = 0;
                    while state.current_player() == 0 {
                        let legal = state.legal_actions(0);
                        assert!(legal.iter().all(|&a| (534..588).contains(&a)));
                        let name = state.action_to_string(0, legal[0]);
                        assert!(name.contains(" to round "), "{name}");
                        state.apply_action(legal[0]).unwrap();
                        seen += 1;
                    }
                    assert!((1..=9).contains(&seen));
                    assert_eq!(state.information_state_string(1), before);
                    // The tensors likewise: p1's notes its own parts, p2's sees nothing of them.
                    assert_eq!(state.information_state_tensor(1), before_tensor);
                    assert_ne!(state.information_state_tensor(0), own_tensor);
                    assert!(state.information_state_string(0).contains("you: "));
                    assert_eq!(state.current_player(), 1);
                    return;
                }
                if player == CHANCE {
                    let o = state.chance_outcomes();
                    state
                        .apply_action(o[next(&mut x) as usize % o.len()].0)
                        .unwrap();
                } else if player == SIMULTANEOUS {
                    let a = state.legal_actions(0);
                    let b = state.legal_actions(1);
                    let (a, b) = (
                        a[next(&mut x) as usize % a.len()],
                        b[next(&mut x) as usize % b.len()],
                    );
                    state.apply_actions(a, b).unwrap();
                } else {
                    state
                        .apply_action(legal0[next(&mut x) as usize % legal0.len()])
                        .unwrap();
                }
            }
        }
        panic!("no Intermission with conditions held in 200 random games");
    }
}

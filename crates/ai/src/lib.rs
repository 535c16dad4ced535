//! Bots for Colosseum's games and the arena that measures them.
//!
//! * A bot ([`Bot`]) is given an [`Observation`]: one seat's view, that seat's legal moves and a
//!   way to draw a full state consistent with the view ([`Observation::determinize`]). It never
//!   holds the game itself, so it cannot read hidden information.
//! * [`RandomBot`] plays uniformly at random; [`HeuristicBot`] plays each game's documented rule
//!   of thumb ([`BotGame::heuristic_move`]); [`Mcts`] is a simultaneous-move Monte Carlo tree
//!   search generic over the games (decoupled UCT or regret matching, chance by sampling, hidden
//!   information by determinization, progressive widening for huge move spaces, the final move
//!   drawn from the mixed strategy).
//! * [`solver`] solves classic Goofspiel exactly (a matrix game solved by linear programming at
//!   every node).
//! * [`exploit`] judges a bot's exploitability in small classic Goofspiel: it reads the bot's
//!   policy through the bot protocol at every information state and computes an exact best
//!   response (`colosseum exploit`).
//! * [`exploiter`] is the approximate judge for the large games: a search bot that asks the bot
//!   it plays against for its strategy (`exploiter:...,target=BOT`); what it wins is a lower bound
//!   on that bot's exploitability.
//! * [`arena`] plays many seeded games between two bots with seats swapped and reports results
//!   with confidence intervals and the Elo difference.
//! * [`registry`] names the bots of every game in `colosseum_games::registry()` behind a text
//!   interface for the command line and the bot protocol.
//!
//! Adding a game to the bots is one step: implement [`BotGame`] for its type in its own file in
//! `src/games/` (every method has a default, so an empty `impl` works and the game is listed
//! without a heuristic of its own) and add one line to the bots' table (`BOTS` in
//! `src/games.rs`).

#![warn(missing_docs)]

pub mod analysis;
pub mod arena;
pub mod exact_judge;
pub mod exploit;
pub mod exploiter;
mod games;
mod mcts;
mod observation;
pub mod protocol;
pub mod registry;
pub mod shared_table;
pub mod solver;
pub mod table;

use std::time::Duration;

use colosseum_engine::{Game, Outcome, Seat, SeededRng, TextStep};

pub use mcts::{Mcts, MctsConfig, Oracle, RootMove, SearchStats, Selection, TargetModel};

/// What a finished game is worth to `p1`: 1 for a win, 0 for a loss, ½ for a draw (the scale of
/// [`BotGame::evaluate`] and of the solver's values).
#[must_use]
pub fn p1_value(outcome: &Outcome) -> f64 {
    match outcome.winner {
        Some(Seat::P1) => 1.0,
        Some(Seat::P2) => 0.0,
        None => 0.5,
    }
}
pub use observation::{public_history, seat_history, Observation};

/// How much a search bot may think per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations: deterministic for a given seed (tests use this).
    Iterations(u32),
    /// Wall-clock time per decision.
    Time(Duration),
}

/// A player of game `G`.
///
/// # Contract
///
/// `choose` is called only when the observation's seat must act, and returns a move that the seat
/// may make (`Observation::check_move` accepts it). Its behaviour depends only on the observation
/// (which holds only what the seat may know), the bot's own state and `rng`.
pub trait Bot<G: Game>: Send {
    /// A short name for reports, e.g. `mcts(rm, 2000 iterations)`.
    fn name(&self) -> String;

    /// The move for the observation's seat.
    fn choose(&mut self, observation: &Observation<'_, G>, rng: &mut SeededRng) -> G::Move;

    /// The mixed strategy the bot would draw its move from now, each move with its probability,
    /// for bots that know it (the bot protocol's optional `strategy` reply, which the
    /// exploitability judge reads instead of sampling moves). May run the same search as
    /// [`Bot::choose`]. Default: `None` (the bot does not say).
    fn mixed_strategy(
        &mut self,
        _observation: &Observation<'_, G>,
        _rng: &mut SeededRng,
    ) -> Option<Vec<(G::Move, f64)>> {
        None
    }

    /// How many of its moves since the last call the bot replaced itself because what it meant
    /// to play was refused (a program's reply that is not a legal move: [`protocol::ExternalBot`] plays a
    /// random move instead), and resets the count. The arena adds them to the moves it
    /// replaced. Default: 0.
    fn take_replaced(&mut self) -> u32 {
        0
    }
}

/// The levels' exploration where a game does not set its own ([`BotGame::level_gamma`]).
pub const DEFAULT_LEVEL_GAMMA: f64 = 0.3;

/// What the bots need from a game beyond [`Game`]; every method has a sensible default.
///
/// Methods taking `&self` are called by search on *determinized* states (never on the real
/// state), except [`BotGame::level_gamma`], which reads only the game's public options;
/// [`BotGame::heuristic_move`] is given an [`Observation`].
pub trait BotGame: Game {
    /// Whether the game has a heuristic bot of its own (otherwise [`BotGame::heuristic_move`]
    /// falls back to a one-move lookahead with random replies and [`BotGame::evaluate`]).
    const HAS_HEURISTIC: bool = false;

    /// Whether determinizations may differ in what is legal below the root (hidden information
    /// that changes a seat's hand once revealed); search then checks stored moves before using
    /// them.
    const HIDDEN_INFORMATION: bool = false;

    /// The share of an iteration budget ([`Budget::Iterations`]) that search runs in this game:
    /// below 1 where an iteration is costly (heuristic candidates and evaluations at every
    /// node), so that the levels take comparable time in every game. Default 1.
    const SEARCH_SCALE: f64 = 1.0;

    /// Where search draws its move from the root's mixed strategy, moves whose probability is
    /// below this share of the most likely move's are dropped first (visit counts of a few
    /// hundred iterations are noisy). Default 0.1; higher where noise costs more than
    /// predictability (All-In Goofspiel, whose candidate plays spend very different cards).
    const PURIFY: f64 = 0.1;

    /// The levels' exploration in this game (regret matching's `gamma` where the search was
    /// given none: [`mcts::Selection::RegretMatching`]). Default 0.3, above the paper's 0.1: it
    /// keeps the importance weights `1 / p` of rarely chosen moves small (measured in 13-card
    /// Goofspiel against the heuristic: 46% of decided games at 0.3, 33% at 0.1, 10,000
    /// iterations), and every seed game's head-to-head rows were measured with it
    /// (docs/strength.md). Classic Goofspiel scales it with the hand (below 13 cards the same
    /// 0.3 explores each card more, and keeps the levels' average strategies noisy). Called on
    /// the real state through [`Observation::level_gamma`]: it must read only what every seat
    /// sees (the game's options).
    fn level_gamma(&self) -> f64 {
        DEFAULT_LEVEL_GAMMA
    }

    /// Whether search that asks for it ([`MctsConfig::root_solve`], the `hard` level) may play
    /// the equilibrium of the root's estimated matrix game here. Default true; false where it
    /// was measured to play worse than the average strategy (The Witch's Brew).
    const ROOT_SOLVE: bool = true;

    /// Whether the root's matrix game ([`BotGame::ROOT_SOLVE`]) is solved even though the game
    /// hides information: sound where both seats' root moves are the same in every
    /// determinization of the searching seat's view, so that the joint results gathered over the
    /// determinizations are one matrix game (Galespiel's bids: hands are public, only the prize
    /// order is hidden). Default false.
    const ROOT_SOLVE_HIDDEN: bool = false;

    /// Whether regret-matching search ([`mcts::Selection::RegretMatching`]) chooses by UCT
    /// (exploration 0.7, the move played the most visited) at nodes where one seat moves alone
    /// in view of its opponent (not face down, [`BotGame::FACE_DOWN_MOVES`]; a hidden chance
    /// order, as Galespiel's prizes, is averaged over like any chance): there the equilibrium is
    /// that seat's best move, which UCT finds with far fewer iterations than importance-weighted
    /// regrets. Default false (every node by regret matching); true in The Witch's Brew, where
    /// most of the tree is stones placed alone, and in Galespiel (a round winner's build).
    const LONE_MOVES_BY_UCT: bool = false;

    /// A further share of an iteration budget ([`Budget::Iterations`], on top of
    /// [`BotGame::SEARCH_SCALE`]) that regret-matching search ([`mcts::Selection::RegretMatching`],
    /// the levels) runs; UCT search (`algo=uct`, the old levels) is not affected. Default 1; above
    /// 1 where the levels' budget was measured too small for regret matching and their decisions
    /// still take well under the 1 s target (The Witch's Brew).
    const REGRET_MATCHING_SCALE: f64 = 1.0;

    /// Whether a seat's single move stays face down until the other seat has answered it
    /// (All-In Goofspiel's starter): [`public_history`] then leaves it out of the other seat's
    /// history (`{}`), and [`BotGame::fill_withheld`] stands in for it on the engine side.
    /// Default: the game's own [`Game::FACE_DOWN_LONE_MOVES`], which a host's move log uses too.
    const FACE_DOWN_MOVES: bool = <Self as Game>::FACE_DOWN_LONE_MOVES;

    /// One line describing the heuristic bot, for `colosseum bots`.
    fn heuristic_description() -> &'static str {
        "no heuristic of its own: tries a few moves against random replies and keeps the best evaluation"
    }

    /// The moves search starts from at a node. Default: [`Game::legal_moves`].
    fn search_moves(&self, seat: Seat, _rng: &mut SeededRng, out: &mut Vec<Self::Move>) {
        self.legal_moves(seat, out);
    }

    /// Progressive widening: `Some((c, alpha))` lets a node with `n` visits consider up to
    /// `c * n^alpha` moves, new ones drawn by [`BotGame::sample_search_move`]. `None` (the
    /// default) searches exactly [`BotGame::search_moves`].
    fn widening() -> Option<(f64, f64)> {
        None
    }

    /// A new candidate move for progressive widening. Default: [`Game::random_move`].
    fn sample_search_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<Self::Move> {
        self.random_move(seat, rng)
    }

    /// The move played for `seat` in a playout. Default: [`Game::random_move`].
    fn rollout_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<Self::Move> {
        self.random_move(seat, rng)
    }

    /// How good the state is for `p1`, in `[0, 1]`. On a finished game the default gives 1 for
    /// a `p1` win, 0 for a loss and 0.5 for a draw; before the end it gives 0.5.
    fn evaluate(&self) -> f64 {
        self.outcome().map_or(0.5, |o| p1_value(&o))
    }

    /// Appends to `out` a compact encoding of what `viewer` sees and returns true, where the
    /// game has one: two states must give the same bytes exactly when their views for `viewer`
    /// are the same. Search keys its nodes by what the actors see where information is hidden
    /// ([`BotGame::HIDDEN_INFORMATION`]); without it (the default, false) it writes the views'
    /// JSON, which is slow where a view is large (Galespiel's).
    fn information_bytes(&self, viewer: colosseum_engine::Viewer, out: &mut Vec<u8>) -> bool {
        let _ = (viewer, out);
        false
    }

    /// Rewrites the chance steps of `steps` (the steps that led to `self`, the real state) so
    /// that they hold only what `seat` may know: an outcome that is partly secret (Galespiel draws
    /// a whole cycle's prize order at once) is replaced by one the seat cannot tell apart from it,
    /// chosen from what the seat sees alone, or left out (`{}`) when no such outcome is found.
    /// Default: unchanged, for games whose chance outcomes are public once drawn.
    fn mask_chance(&self, _seat: Seat, _steps: &mut [TextStep]) {}

    /// An exact strategy for `seat` from here to the end, when the rest of the game is small
    /// enough to solve (Square Goofspiel's last phase, by [`solver::solve_endgame`]): each move
    /// with its probability. Search bots play it instead of searching. Default: `None`.
    fn endgame(&self, _seat: Seat) -> Option<Vec<(Self::Move, f64)>> {
        None
    }

    /// The exact equilibrium strategy of `seat` at this position, where the whole game is
    /// solved (classic Goofspiel with fixed prizes and few cards, by
    /// [`solver::goofspiel_win_loss`]): each move with its probability. Unlike
    /// [`BotGame::endgame`], only searches that ask for it play it ([`MctsConfig::exact`], the
    /// `hard` level). Called on a determinization, so it must depend only on what `seat` sees.
    /// Default: `None`.
    fn equilibrium(&self, _seat: Seat) -> Option<Vec<(Self::Move, f64)>> {
        None
    }

    /// A determinization (of `self`, itself one) in which the other seat's withheld move is the
    /// one its heuristic would have made, when that move agrees with everything `seat` sees
    /// (All-In Goofspiel: the starter's face-down cards, when the heuristic puts down as many).
    /// Search with an opponent model ([`MctsConfig::opponent_model`]) plans on it in that share of
    /// its iterations, so that a face-down move already made is modelled as the moves still to
    /// come are. Called only in games with [`BotGame::FACE_DOWN_MOVES`]. Default: `None` (no
    /// withheld move, or none to model).
    fn model_withheld(&self, _seat: Seat, _rng: &mut SeededRng) -> Option<Self> {
        None
    }

    /// Where `seat` must answer the other seat's face-down move (All-In Goofspiel's responder):
    /// the position before that move, the other seat to act, with that seat's search candidates
    /// there that `seat` could not tell apart from the move made put in `out` (search with
    /// [`MctsConfig::search_withheld`] lets the other seat choose among them). The position must
    /// be the same for every determinization `seat` may be given. Called only in games with
    /// [`BotGame::FACE_DOWN_MOVES`]. Default: `None`.
    fn withheld_root(
        &self,
        _seat: Seat,
        _rng: &mut SeededRng,
        _out: &mut Vec<Self::Move>,
    ) -> Option<Self> {
        None
    }

    /// A move of `seat` consistent with `view` (the JSON view of the seat about to act) for a
    /// move the protocol withheld from it (see [`protocol`]). Default: `None`, for games without
    /// such moves.
    fn fill_withheld(
        &self,
        _seat: Seat,
        _view: &serde_json::Value,
        _rng: &mut SeededRng,
    ) -> Option<Self::Move> {
        None
    }

    /// The heuristic bot's move. The default samples a few moves, answers each with the
    /// opponent's rollout move, and keeps the best [`BotGame::evaluate`] after a playout.
    fn heuristic_move(observation: &Observation<'_, Self>, rng: &mut SeededRng) -> Self::Move {
        games::lookahead_move(observation, rng, 16)
    }

    /// The exact value of this position for `p1` (win 1, draw ½, loss 0) where the game from
    /// here is solved ([`BotGame::equilibrium`]'s solved classic Goofspiel, Square Goofspiel's
    /// last phase by [`solver::solve_endgame`]); the analysis ([`analysis`]) values moves with
    /// it instead of searching. Called on a determinization; a game that answers must have no
    /// hidden information. Default: `None`.
    fn exact_value(&self) -> Option<f64> {
        None
    }

    /// Makes ready what [`BotGame::equilibrium`] and [`BotGame::exact_value`] need for this
    /// game's options, where they are meant to answer for every position, and says why they
    /// cannot (classic Goofspiel with descending prizes and point-difference returns: the solved
    /// table, [`shared_table::table`], which is read or solved here). A `hard` bot and the
    /// analysis refuse to start on an error rather than fall back to search silently. Default:
    /// nothing to prepare.
    fn prepare_exact(&self) -> Result<(), String> {
        Ok(())
    }

    /// Where the game's result is a points difference rather than a win, a draw or a loss
    /// (classic Goofspiel with point-difference returns and its table): the range of the
    /// difference, `R`. Then [`BotGame::exact_value`] (also at the end of the game) is the
    /// expected final difference `d` for `p1` mapped onto the 0 to 1 scale as `½ + d / R`, so
    /// that a loss by every point is 0 and a win by every point 1, and the analysis reports
    /// points beside it. Default: `None` (the result is a win, a draw or a loss).
    fn points_range(&self) -> Option<f64> {
        None
    }
}

/// The uniformly random bot.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, observation: &Observation<'_, G>, rng: &mut SeededRng) -> G::Move {
        observation
            .random_move(rng)
            .expect("a bot is asked only when its seat acts")
    }

    /// Uniform over the listed legal moves (the bot protocol asks only where the list is
    /// complete).
    fn mixed_strategy(
        &mut self,
        observation: &Observation<'_, G>,
        _rng: &mut SeededRng,
    ) -> Option<Vec<(G::Move, f64)>> {
        let mut moves = Vec::new();
        observation.legal_moves(&mut moves);
        let p = 1.0 / moves.len().max(1) as f64;
        Some(moves.into_iter().map(|m| (m, p)).collect())
    }
}

/// The game's heuristic bot ([`BotGame::heuristic_move`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

impl<G: BotGame> Bot<G> for HeuristicBot {
    fn name(&self) -> String {
        "heuristic".to_string()
    }

    fn choose(&mut self, observation: &Observation<'_, G>, rng: &mut SeededRng) -> G::Move {
        G::heuristic_move(observation, rng)
    }
}

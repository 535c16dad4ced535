//! The typed rules-engine API that every game implements.

use std::fmt::Debug;

use rand::Rng;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{IllegalMove, NotationError, StepError};
use crate::seat::{Pending, Seat, Viewer};

/// One decision's worth of input, in typed form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step<M, C> {
    /// Both seats' moves, revealed together (the pending decision was [`Pending::Both`]).
    Both {
        /// `p1`'s move.
        p1: M,
        /// `p2`'s move.
        p2: M,
    },
    /// One seat's move (the pending decision was [`Pending::One`]).
    One {
        /// Who moves.
        seat: Seat,
        /// The move.
        mv: M,
    },
    /// The outcome of a chance event (the pending decision was [`Pending::Chance`]).
    Chance(C),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Seat>,
    /// Why, in a sentence a player understands ("p1 has 52 points to 39").
    pub reason: String,
}

/// The headline numbers of a game, for either seat, with per-game details.
///
/// `p1`/`p2` are JSON numbers so that a game can use an exact integer of any width (Thwart
/// Omega's products) or a half (All-In Goofspiel's split rounds).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// `p1`'s headline number.
    pub p1: Value,
    /// `p2`'s headline number.
    pub p2: Value,
    /// Further per-game keys (for example `returns`, `lines`, `groups`).
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

/// A game: a pure, deterministic state machine.
///
/// # Contract
///
/// * **Pure.** No clock, no I/O, no global state, no randomness of its own: every method that
///   needs randomness takes the RNG as an argument. The same initial state and the same steps give
///   the same state, always.
/// * **Decisions.** [`Game::pending`] names who acts now. [`Game::apply`] takes exactly that
///   decision and either applies it completely or returns an error and leaves the state as it
///   was. Forced decisions (a last card) are still decisions.
/// * **Legal moves.** [`Game::legal_moves`] enumerates a seat's moves when the space is small;
///   [`Game::random_move`] draws one uniformly at random and must be overridden where enumeration
///   is too big. Every enumerated move is accepted by [`Game::check_move`], and every move
///   accepted there is enumerated (for games that enumerate).
/// * **Views.** [`Game::view`] contains exactly what the viewer may know: never another seat's
///   secrets, never a submission that has not been revealed. Everything that leaves the process
///   is built from a view.
/// * **Notation.** [`Game::parse_move`] then [`Game::format_move`] gives the canonical text, and
///   parsing the canonical text gives the move back.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// A seat's move.
    type Move: Clone + Debug + PartialEq + Send + Sync + 'static;
    /// The outcome of a chance event.
    type Chance: Clone + Debug + PartialEq + Send + Sync + 'static;
    /// What one viewer may see.
    type View: Serialize + Debug + Clone;

    /// Whether a move made by one seat alone stays face down to everyone else until the next
    /// decision is made (All-In Goofspiel's starter plays face down, then the responder answers).
    /// A host's move log hides such a move from the other seat and spectators while the other
    /// seat is still to answer. Default: `false` (a move is public once applied).
    const FACE_DOWN_LONE_MOVES: bool = false;

    /// Whether chance outcomes stay secret once drawn (Galespiel's cycle order is revealed one
    /// prize at a time): a host's move log never shows them while the game runs. Default:
    /// `false` (a chance outcome is public once drawn).
    const SECRET_CHANCE: bool = false;

    /// The game's registry id, e.g. `goofspiel`.
    fn id(&self) -> &'static str;

    /// Who must act now.
    fn pending(&self) -> Pending;

    /// What kind of decision is pending, for a host whose time rules differ by kind (Galespiel:
    /// 60 s to `bid`, 30 s to `build`). A short lower-case word; the provided version says
    /// `"move"`. It has no effect on the rules.
    fn decision_kind(&self) -> &'static str {
        "move"
    }

    /// Appends every legal move of `seat` to `out` (nothing if `seat` does not act now).
    ///
    /// Games whose move space is too large to enumerate may append a representative subset and
    /// must say so in their docs; [`Game::random_move`] stays uniform over all moves.
    fn legal_moves(&self, seat: Seat, out: &mut Vec<Self::Move>);

    /// A uniformly random legal move of `seat`, or `None` if it does not act now.
    fn random_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(seat, &mut moves);
        if moves.is_empty() {
            None
        } else {
            let i = rng.random_range(0..moves.len());
            Some(moves.swap_remove(i))
        }
    }

    /// Appends every possible outcome of the pending chance event with its probability.
    ///
    /// A game whose chance space is too large to enumerate (six cells in order out of 36) appends
    /// nothing, overrides [`Game::sample_chance`], and says so in its docs.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Chance, f64)>);

    /// Draws the pending chance event's outcome with the right probabilities, or `None` if chance
    /// does not act now. The provided version picks from [`Game::chance_outcomes`].
    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Chance> {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
        if outcomes.is_empty() || total <= 0.0 {
            return None;
        }
        let mut x = rng.random::<f64>() * total;
        let last = outcomes.len() - 1;
        for (i, (c, p)) in outcomes.into_iter().enumerate() {
            if x < p || i == last {
                return Some(c);
            }
            x -= p;
        }
        None
    }

    /// Whether `seat` may make `mv` now; the error says why not.
    fn check_move(&self, seat: Seat, mv: &Self::Move) -> Result<(), IllegalMove>;

    /// Whether `outcome` can be the result of the pending chance event.
    fn check_chance(&self, outcome: &Self::Chance) -> Result<(), IllegalMove>;

    /// Applies one decision. On error the state is unchanged.
    fn apply(&mut self, step: Step<Self::Move, Self::Chance>) -> Result<(), StepError>;

    /// The outcome once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The headline numbers now (final once the game is over).
    fn score(&self) -> Score;

    /// What `viewer` may see.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// The text rendering of `viewer`'s view for a terminal.
    fn render(&self, viewer: Viewer) -> String;

    /// The move made for `seat` when its deadline passes without a valid submission (the seed's
    /// rule: a pass, a random move, ...). `None` if `seat` does not act now.
    fn default_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Self::Move>;

    /// A full state drawn at random among those `seat` cannot tell apart from this one.
    ///
    /// The result has the same view for `seat`; whatever `seat` cannot see (the other seat's
    /// face-down cards, a deck's hidden order) is redrawn from `rng`, consistently with everything
    /// `seat` knows. Search bots plan on such states (determinization) and never on the state
    /// itself. **Contract:** the result depends only on `self.view(Viewer::Seat(seat))` and `rng`,
    /// so two states with the same view for `seat` give the same result from the same `rng`.
    ///
    /// The provided version is a copy, which is right only for games where a seat sees the whole
    /// state (chance that has not happened yet is not hidden: it is a pending chance step). Games
    /// with hidden information must override it.
    fn determinize<R: Rng + ?Sized>(&self, _seat: Seat, _rng: &mut R) -> Self {
        self.clone()
    }

    /// Parses a move of `seat` from text. Only syntax and ranges are checked here; legality is
    /// [`Game::check_move`]'s job.
    fn parse_move(&self, seat: Seat, text: &str) -> Result<Self::Move, NotationError>;

    /// The canonical text of a move.
    fn format_move(&self, mv: &Self::Move) -> String;

    /// Parses a chance outcome from text.
    fn parse_chance(&self, text: &str) -> Result<Self::Chance, NotationError>;

    /// The canonical text of a chance outcome.
    fn format_chance(&self, outcome: &Self::Chance) -> String;

    /// Checks the actors of `step` against the pending decision and the legality of every part,
    /// without changing anything. Games call this first in [`Game::apply`].
    fn check_step(&self, step: &Step<Self::Move, Self::Chance>) -> Result<(), StepError> {
        let pending = self.pending();
        let wrong = |given: &str| StepError::WrongActors {
            expected: pending,
            given: given.to_string(),
        };
        match (pending, step) {
            (Pending::Both, Step::Both { p1, p2 }) => {
                for (seat, mv) in [(Seat::P1, p1), (Seat::P2, p2)] {
                    self.check_move(seat, mv)
                        .map_err(|error| StepError::Illegal { seat, error })?;
                }
                Ok(())
            }
            (Pending::One(s), Step::One { seat, mv }) if s == *seat => self
                .check_move(*seat, mv)
                .map_err(|error| StepError::Illegal { seat: *seat, error }),
            (Pending::Chance, Step::Chance(c)) => {
                self.check_chance(c).map_err(StepError::IllegalChance)
            }
            (_, Step::Both { .. }) => Err(wrong("moves for p1 and p2")),
            (_, Step::One { seat, .. }) => Err(wrong(&format!("a move for {seat} alone"))),
            (_, Step::Chance(_)) => Err(wrong("a chance outcome")),
        }
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.pending() == Pending::Over
    }
}

/// A random step for the pending decision: uniformly random moves for the seats that act, or a
/// chance outcome drawn from `rng`. `None` when the game is over.
pub fn random_step<G: Game, R: Rng + ?Sized>(
    game: &G,
    rng: &mut R,
) -> Option<Step<G::Move, G::Chance>> {
    Some(match game.pending() {
        Pending::Over => return None,
        Pending::Chance => Step::Chance(game.sample_chance(rng).expect("chance has outcomes")),
        Pending::One(seat) => Step::One {
            seat,
            mv: game
                .random_move(seat, rng)
                .expect("a seat to act has a move"),
        },
        Pending::Both => Step::Both {
            p1: game.random_move(Seat::P1, rng).expect("p1 has a move"),
            p2: game.random_move(Seat::P2, rng).expect("p2 has a move"),
        },
    })
}

/// Plays `game` to the end with uniformly random moves and chance drawn from `rng`; returns the
/// number of decisions applied. The benchmark and property tests use this.
pub fn random_playout<G: Game, R: Rng + ?Sized>(game: &mut G, rng: &mut R) -> usize {
    let mut steps = 0;
    while let Some(step) = random_step(game, rng) {
        game.apply(step)
            .expect("a random legal step is always accepted");
        steps += 1;
    }
    steps
}

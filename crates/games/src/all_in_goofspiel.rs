//! All-In Goofspiel: each round one player puts down any number of cards face down, the other
//! sees only how many and answers with its own; the cards side by side make a number, and the
//! higher number takes the round's points. Reaching 28 points wins, but only with an empty hand.
//!
//! Both seats hold the cards -3..12. Round k is worth k points; a tie splits them, and halves are
//! kept exactly (as half-points). In this API a round is two successive decisions: the round's
//! *starter* (option `first` in round 1, alternating after) moves first, then the *responder*.
//! The starter's cards stay face down in the state between the two decisions; only the starter's
//! own view shows them, everyone else sees how many there are.
//!
//! After every round the 28-point rule of RULINGS.md decides whether the game is over; a game in
//! which both hands are empty and nobody has 28 points is a draw (our ruling, documented on the
//! rules page). Because the points handed out after round n add up to n(n+1)/2, somebody has 28
//! or more after round 11 at the latest, so a game never has more than [`MAX_ROUNDS`] rounds.
//!
//! The move space (every ordered list of distinct cards from the hand: about 5.7 * 10^13 lists
//! for a full hand) cannot be enumerated: [`Game::legal_moves`] lists a representative subset,
//! and [`Game::random_move`] draws uniformly from all of them.

use std::cmp::Ordering;
use std::fmt::{self, Write as _};
use std::str::FromStr;

use colosseum_engine::{
    Game, IllegalMove, NotationError, OptionDoc, OptionReader, OptionsError, Outcome, Pending,
    RawOptions, Score, Seat, Step, StepError, Viewer,
};
use rand::Rng;
use serde::{Serialize, Serializer};
use serde_json::{json, Map, Value};

use colosseum_engine::SeatPair;

pub mod board_svg;
mod cards;
pub mod season;
mod variant;
mod view;

pub use cards::*;
pub use view::*;

/// The lowest card.
pub const LOWEST_CARD: i8 = -3;
/// The highest card.
pub const HIGHEST_CARD: i8 = 12;
/// Cards in a full hand (-3..12).
pub const HAND_SIZE: usize = 16;
/// Points at which the game ends (see [`AllInGoofspiel`] for who wins then).
pub const WINNING_POINTS: u16 = 28;
/// The most rounds a game can have: after round 11 the points handed out add up to 66, so one
/// player has at least 33 and the game is over.
pub const MAX_ROUNDS: usize = 11;

/// The clocks at the table (RULINGS.md: the seed gives none): 60 s for the starter's and the
/// responder's decision, no bank; no cards at the deadline.
pub const TIMING: crate::Timing = crate::Timing {
    decisions: &[crate::DecisionClock {
        kind: "*",
        what: "the starter's cards, or the responder's",
        ms: 60_000,
        loses: false,
        default: "no cards (the number 0)",
    }],
    bank_ms: 0,
    bank_step_ms: 0,
};

/// The options.
pub const OPTIONS: &[OptionDoc] = &[
    OptionDoc {
        name: "first",
        default: "p1",
        allowed: "p1 or p2",
        help: "who starts round 1 (puts down cards first); the starter alternates every round \
               after (the seed lets the player with the most garnets choose)",
    },
    variant::LOWEST,
    variant::HIGHEST,
    variant::TARGET,
];

/// The rules page, shown by `colosseum rules all-in-goofspiel`.
pub const RULES: &str = include_str!("../../../docs/rules/all-in-goofspiel.md");

/// The options of the game replayed after a draw (RULINGS.md): the same, with the other seat
/// starting (option `first` flipped). The host's replay of a drawn match
/// ([`crate::GameEntry::replay`]).
#[must_use]
pub fn replay_options(options: &RawOptions) -> RawOptions {
    let mut options = options.clone();
    let first = options
        .get("first")
        .and_then(|v| v.as_str())
        .and_then(|s| s.parse::<Seat>().ok())
        .unwrap_or(Seat::P1);
    options.insert("first".into(), json!(first.other().as_str()));
    options
}

/// The options under which `seat` holds the advantage (the seed: the player with the most
/// garnets decides who goes first; here they start): option `first` set to `seat`
/// ([`crate::GameEntry::advantage`]). The second draw of a replay goes to the same seat through
/// the match's own advantage.
#[must_use]
pub fn advantage_options(options: &RawOptions, seat: Seat) -> RawOptions {
    let mut options = options.clone();
    options.insert("first".into(), json!(seat.as_str()));
    options
}

/// The checked options of an All-In Goofspiel game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AllInGoofspielOptions {
    /// Who starts round 1.
    pub first: Seat,
    /// The lowest card of both hands: -3 in the seed; higher in the small variant for research
    /// (`variant.rs`).
    #[serde(skip_serializing_if = "variant::is_lowest")]
    pub lowest: i8,
    /// The highest card of both hands: 12 in the seed; lower in the small variant.
    #[serde(skip_serializing_if = "variant::is_highest")]
    pub highest: i8,
    /// The points that end the game: [`WINNING_POINTS`] in the seed; lower in the small variant.
    #[serde(skip_serializing_if = "variant::is_target")]
    pub target: u16,
}

impl Default for AllInGoofspielOptions {
    fn default() -> Self {
        AllInGoofspielOptions {
            first: Seat::P1,
            lowest: LOWEST_CARD,
            highest: HIGHEST_CARD,
            target: WINNING_POINTS,
        }
    }
}

impl AllInGoofspielOptions {
    /// Reads the options from JSON, refusing unknown names and bad values.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        let r = OptionReader::new(raw, OPTIONS);
        let first = match r.choice("first", 0, &["p1", "p2"])? {
            0 => Seat::P1,
            _ => Seat::P2,
        };
        let (lowest, highest, target) = variant::read(&r)?;
        r.finish()?;
        Ok(AllInGoofspielOptions {
            first,
            lowest,
            highest,
            target,
        })
    }
}

/// One finished round: both plays, revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// The round's number k (1-based); it is worth k points.
    pub round: u8,
    /// Who put down cards first.
    pub starter: Seat,
    /// Each seat's play, indexed by [`Seat::index`].
    pub plays: [Play; 2],
}

impl Default for Round {
    /// An empty slot of the history array (never shown: only played rounds are).
    fn default() -> Self {
        Round {
            round: 0,
            starter: Seat::P1,
            plays: [Play::PASS; 2],
        }
    }
}

impl Round {
    /// What the round is worth.
    #[must_use]
    pub fn worth(&self) -> u8 {
        self.round
    }

    /// Each seat's number, indexed by [`Seat::index`].
    #[must_use]
    pub fn numbers(&self) -> [i128; 2] {
        [self.plays[0].number(), self.plays[1].number()]
    }

    /// Who took the points (`None`: a tie, the points were split).
    #[must_use]
    pub fn winner(&self) -> Option<Seat> {
        let [a, b] = self.numbers();
        match a.cmp(&b) {
            Ordering::Greater => Some(Seat::P1),
            Ordering::Less => Some(Seat::P2),
            Ordering::Equal => None,
        }
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// One or both seats have 28 points or more (`reached`); `empty` says whose hand is empty.
    Reached {
        reached: [bool; 2],
        empty: [bool; 2],
    },
    /// Both hands are empty and nobody has 28 points.
    OutOfCards,
}

/// A game of All-In Goofspiel.
///
/// The state is small and fixed-size (hands as 16-bit sets, the history as an array of at most
/// [`MAX_ROUNDS`] rounds), so cloning it and applying a step never allocate.
#[derive(Clone, Debug)]
pub struct AllInGoofspiel {
    options: AllInGoofspielOptions,
    /// The cards not yet revealed. The starter's face-down cards stay in its hand until the
    /// reveal, so that the hands are exactly what everyone knows.
    hands: [Hand; 2],
    points: [Points; 2],
    history: [Round; MAX_ROUNDS],
    rounds_played: u8,
    /// The starter's cards of the round in progress, face down; `None` until the starter acts.
    face_down: Option<Play>,
    ending: Option<Ending>,
}

impl AllInGoofspiel {
    /// A new game: full hands, no points, round 1 waiting for the starter.
    #[must_use]
    pub fn new(options: AllInGoofspielOptions) -> Self {
        AllInGoofspiel {
            options,
            hands: [Hand::range(options.lowest, options.highest); 2],
            points: [Points::default(); 2],
            history: [Round::default(); MAX_ROUNDS],
            rounds_played: 0,
            face_down: None,
            ending: None,
        }
    }

    /// A new game from raw options.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        AllInGoofspielOptions::from_raw(raw).map(AllInGoofspiel::new)
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> AllInGoofspielOptions {
        self.options
    }

    /// A seat's cards not yet revealed (during a round, the starter's face-down cards count as
    /// still in its hand).
    #[must_use]
    pub fn hand(&self, seat: Seat) -> Hand {
        self.hands[seat.index()]
    }

    /// Each seat's points.
    #[must_use]
    pub fn points(&self) -> [Points; 2] {
        self.points
    }

    /// The finished rounds, oldest first.
    #[must_use]
    pub fn rounds(&self) -> &[Round] {
        &self.history[..self.rounds_played as usize]
    }

    /// The number of the round in progress (or of the last round, once the game is over).
    #[must_use]
    pub fn round(&self) -> u8 {
        if self.ending.is_some() {
            self.rounds_played
        } else {
            self.rounds_played + 1
        }
    }

    /// Who starts the round in progress: `first` in odd rounds, the other seat in even rounds.
    #[must_use]
    pub fn starter(&self) -> Seat {
        if self.rounds_played & 1 == 0 {
            self.options.first
        } else {
            self.options.first.other()
        }
    }

    /// How many cards the starter has put down face down this round, if it has acted.
    #[must_use]
    pub fn face_down_count(&self) -> Option<usize> {
        self.face_down.map(|p| p.len())
    }

    /// The same position with the starter's face-down cards taken back: the starter to put down
    /// its cards (the state as it was before). Unchanged when nothing is face down.
    #[must_use]
    pub fn before_face_down(&self) -> Self {
        let mut before = self.clone();
        before.face_down = None;
        before
    }

    /// The same position with `play` as the starter's face-down cards instead of the ones put
    /// down: `None` unless cards are face down and `play` has as many, all from the starter's
    /// hand (so that the responder sees no difference). For bots, which plan on such states.
    #[must_use]
    pub fn with_face_down(&self, play: Play) -> Option<Self> {
        let count = self.face_down?.len();
        let hand = self.hands[self.starter().index()];
        if play.len() != count || !play.cards().iter().all(|&c| hand.contains(c)) {
            return None;
        }
        let mut other = self.clone();
        other.face_down = Some(play);
        Some(other)
    }

    /// A random move for playouts that should look more like real play: the number of cards is
    /// drawn uniformly from 0 to the hand's size, then a uniformly random ordered list of that
    /// many cards. This is deliberately *not* uniform over moves: [`Game::random_move`] is, and
    /// from a full hand it puts down 15 or 16 cards three times in four (see the rules page).
    /// `None` if `seat` does not act now.
    pub fn random_move_any_count<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Play> {
        if self.pending() != Pending::One(seat) {
            return None;
        }
        let hand = self.hands[seat.index()];
        let count = rng.random_range(0..=hand.len());
        Some(random_ordered_list(hand, count, rng))
    }

    fn actor(&self) -> Option<Seat> {
        match self.pending() {
            Pending::One(seat) => Some(seat),
            _ => None,
        }
    }

    /// Reveals both plays, scores the round and applies the end rule.
    fn reveal(&mut self, starter_play: Play, responder_play: Play) {
        let starter = self.starter();
        let mut plays = [Play::PASS; 2];
        plays[starter.index()] = starter_play;
        plays[starter.other().index()] = responder_play;
        let round = Round {
            round: self.rounds_played + 1,
            starter,
            plays,
        };
        let worth = u16::from(round.worth());
        match round.winner() {
            Some(w) => self.points[w.index()].halves += 2 * worth,
            None => {
                for p in &mut self.points {
                    p.halves += worth;
                }
            }
        }
        for seat in Seat::BOTH {
            let i = seat.index();
            self.hands[i] = self.hands[i].without(&plays[i]);
        }
        self.history[self.rounds_played as usize] = round;
        self.rounds_played += 1;
        self.face_down = None;
        self.ending = self.ending_now();
        debug_assert!(
            self.ending.is_some() || (self.rounds_played as usize) < MAX_ROUNDS,
            "the points after round 11 always end the game"
        );
    }

    /// The end rule of RULINGS.md, applied after a round.
    fn ending_now(&self) -> Option<Ending> {
        let reached = self.points.map(|p| p.at_least(self.options.target));
        let empty = self.hands.map(Hand::is_empty);
        if reached.iter().any(|&r| r) {
            Some(Ending::Reached { reached, empty })
        } else if empty.iter().all(|&e| e) {
            Some(Ending::OutOfCards)
        } else {
            None
        }
    }

    fn hand_words(&self, seat: Seat) -> String {
        match self.hands[seat.index()].len() {
            0 => "an empty hand".to_string(),
            1 => "1 card left".to_string(),
            n => format!("{n} cards left"),
        }
    }

    fn both_points(&self) -> String {
        format!("p1 {}, p2 {}", self.points[0], self.points[1])
    }
}

/// "no cards", "1 card", "3 cards".
fn cards_words(n: usize) -> String {
    match n {
        0 => "no cards".to_string(),
        1 => "1 card".to_string(),
        n => format!("{n} cards"),
    }
}

/// A revealed (or own) play with its number: "10 -1 9 = -9", "no cards = 0".
fn play_words(play: &Play) -> String {
    if play.is_empty() {
        "no cards = 0".to_string()
    } else {
        format!("{play} = {}", play.number())
    }
}

impl Game for AllInGoofspiel {
    type Move = Play;
    type Chance = ();
    type View = AllInGoofspielView;
    /// The starter's cards lie face down until the responder has answered.
    const FACE_DOWN_LONE_MOVES: bool = true;

    fn id(&self) -> &'static str {
        "all-in-goofspiel"
    }

    fn pending(&self) -> Pending {
        if self.ending.is_some() {
            Pending::Over
        } else if self.face_down.is_none() {
            Pending::One(self.starter())
        } else {
            Pending::One(self.starter().other())
        }
    }

    /// A representative subset, as the move space is too large to enumerate: `pass`, every card
    /// alone (highest first), the largest number the non-negative cards make, and the whole hand
    /// ordered for the largest number (non-negative cards first, then the negative ones, each
    /// subtracting only itself). A seat with no cards has exactly one move, `pass`.
    fn legal_moves(&self, seat: Seat, out: &mut Vec<Play>) {
        if self.actor() != Some(seat) {
            return;
        }
        let hand = self.hands[seat.index()];
        let start = out.len();
        out.push(Play::PASS);
        let mut singles: Vec<i8> = hand.iter().collect();
        singles.reverse();
        out.extend(singles.iter().filter_map(|&c| Play::new(&[c])));
        let largest = largest_number_play(hand);
        let mut whole: Vec<i8> = largest.cards().to_vec();
        whole.extend(singles.iter().copied().filter(|&c| c < 0));
        for play in [largest, Play::new(&whole).unwrap_or_default()] {
            if !out[start..].contains(&play) {
                out.push(play);
            }
        }
    }

    /// Uniform over every legal move (every ordered list of distinct cards from the hand, the
    /// pass included). Because long lists are by far the most numerous, a uniformly random move
    /// from a full hand puts down 15 or 16 cards three times in four; see
    /// [`AllInGoofspiel::random_move_any_count`] for playouts that look like real games.
    fn random_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Play> {
        if self.actor() != Some(seat) {
            return None;
        }
        Some(uniform_play(self.hands[seat.index()], rng))
    }

    /// The one secret is the starter's face-down cards while the responder decides. For the
    /// responder (or a seat that is not the starter) they are redrawn uniformly among the
    /// ordered lists of the same count from the starter's hand, which everyone sees; the starter
    /// sees its own cards, so for it (and whenever nothing is face down) this is a copy.
    fn determinize<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self {
        let mut sampled = self.clone();
        if let Some(play) = self.face_down {
            let starter = self.starter();
            if seat != starter {
                sampled.face_down = Some(random_ordered_list(
                    self.hands[starter.index()],
                    play.len(),
                    rng,
                ));
            }
        }
        sampled
    }

    fn chance_outcomes(&self, _out: &mut Vec<((), f64)>) {}

    fn sample_chance<R: Rng + ?Sized>(&self, _rng: &mut R) -> Option<()> {
        None
    }

    fn check_move(&self, seat: Seat, mv: &Play) -> Result<(), IllegalMove> {
        let Some(actor) = self.actor() else {
            return Err(IllegalMove::new("the game is over"));
        };
        if actor != seat {
            let what = if self.face_down.is_none() {
                "puts down cards first"
            } else {
                "answers"
            };
            return Err(IllegalMove::new(format!(
                "it is not your turn: {actor} {what} in round {}",
                self.round()
            )));
        }
        let hand = self.hands[seat.index()];
        let mut seen = 0u16;
        for &card in mv.cards() {
            let bit = Hand::bit(card);
            if seen & bit != 0 {
                return Err(IllegalMove::new(format!("you put down {card} twice")));
            }
            if !hand.contains(card) {
                return Err(IllegalMove::new(format!(
                    "you have no {card}; your hand is {hand}"
                )));
            }
            seen |= bit;
        }
        Ok(())
    }

    fn check_chance(&self, _outcome: &()) -> Result<(), IllegalMove> {
        Err(IllegalMove::new("All-In Goofspiel has no chance events"))
    }

    fn apply(&mut self, step: Step<Play, ()>) -> Result<(), StepError> {
        self.check_step(&step)?;
        let Step::One { mv, .. } = step else {
            unreachable!("check_step accepts only one seat's move in All-In Goofspiel")
        };
        match self.face_down {
            None => self.face_down = Some(mv),
            Some(starter_play) => self.reveal(starter_play, mv),
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        let ending = self.ending?;
        let (winner, reason) = match ending {
            Ending::OutOfCards => (
                None,
                format!(
                    "both hands are empty and nobody reached {} points ({}): a draw",
                    self.options.target,
                    self.both_points()
                ),
            ),
            Ending::Reached { reached, empty } => match (reached, empty) {
                ([true, true], [a, b]) if a == b => {
                    let hands = if a {
                        "with empty hands"
                    } else {
                        "with cards left"
                    };
                    (
                        None,
                        format!(
                            "both reached {} points or more {hands} ({}): a draw",
                            self.options.target,
                            self.both_points()
                        ),
                    )
                }
                ([true, true], [a, _]) => {
                    let w = if a { Seat::P1 } else { Seat::P2 };
                    let l = w.other();
                    (
                        Some(w),
                        format!(
                            "{w} reached {} with an empty hand; {l} reached {} with {}",
                            self.points[w.index()].with_unit(),
                            self.points[l.index()].with_unit(),
                            self.hand_words(l)
                        ),
                    )
                }
                ([p1, _], _) => {
                    let s = if p1 { Seat::P1 } else { Seat::P2 };
                    let pts = self.points[s.index()].with_unit();
                    if empty[s.index()] {
                        (Some(s), format!("{s} reached {pts} with an empty hand"))
                    } else {
                        let o = s.other();
                        (
                            Some(o),
                            format!("{s} reached {pts} with {}, so {o} wins", self.hand_words(s)),
                        )
                    }
                }
            },
        };
        Some(Outcome { winner, reason })
    }

    fn score(&self) -> Score {
        let mut details = Map::new();
        details.insert(
            "cards_left".into(),
            json!({"p1": self.hands[0].len(), "p2": self.hands[1].len()}),
        );
        details.insert("rounds_played".into(), Value::from(self.rounds_played));
        Score {
            p1: self.points[0].to_json(),
            p2: self.points[1].to_json(),
            details,
        }
    }

    fn view(&self, viewer: Viewer) -> AllInGoofspielView {
        let current = self.ending.is_none().then(|| {
            let starter = self.starter();
            CurrentRound {
                round: self.round(),
                worth: self.round(),
                starter,
                responder: starter.other(),
                face_down_count: self.face_down.map(|p| p.len() as u8),
                face_down_cards: self
                    .face_down
                    .filter(|_| viewer == Viewer::Seat(starter))
                    .map(|p| p.cards().to_vec()),
            }
        });
        AllInGoofspielView {
            viewer,
            options: self.options,
            pending: self.pending(),
            current,
            hands: SeatPair::from_array(self.hands.map(Hand::to_vec)),
            points: SeatPair::from_array(self.points),
            rounds: self
                .rounds()
                .iter()
                .map(|r| {
                    let [a, b] = r.numbers();
                    RoundView {
                        round: r.round,
                        worth: r.worth(),
                        starter: r.starter,
                        cards: SeatPair::from_array(r.plays.map(|p| p.cards().to_vec())),
                        numbers: SeatPair { p1: a, p2: b },
                        winner: r.winner(),
                    }
                })
                .collect(),
        }
    }

    fn render(&self, viewer: Viewer) -> String {
        let mut s = String::new();
        match self.ending {
            None => {
                let k = self.round();
                let _ = writeln!(
                    s,
                    "All-In Goofspiel - round {k}, worth {}",
                    Points::from_halves(2 * u16::from(k)).with_unit()
                );
            }
            Some(_) => {
                let _ = writeln!(
                    s,
                    "All-In Goofspiel - over after {} rounds",
                    self.rounds_played
                );
            }
        }
        for r in self.rounds() {
            let side = |seat: Seat| play_words(&r.plays[seat.index()]);
            let result = match r.winner() {
                Some(w) => format!("{w} takes {}", r.worth()),
                None => format!(
                    "tie, {} each",
                    Points::from_halves(u16::from(r.worth())).with_unit()
                ),
            };
            let _ = writeln!(
                s,
                "  round {:>2} (worth {:>2}): {} starts {}; {} answers {}; {result}",
                r.round,
                r.worth(),
                r.starter,
                side(r.starter),
                r.starter.other(),
                side(r.starter.other()),
            );
        }
        let starter = self.starter();
        for seat in Seat::BOTH {
            let me = if viewer == Viewer::Seat(seat) {
                " (you)"
            } else {
                ""
            };
            let hand = self.hands[seat.index()];
            let mut line = format!(
                "{seat}{me}: {}; hand ",
                self.points[seat.index()].with_unit()
            );
            match self.face_down.filter(|_| seat == starter) {
                Some(play) if viewer == Viewer::Seat(seat) => {
                    let rest = hand.without(&play);
                    let _ = write!(
                        line,
                        "{rest} ({}); face down: {}",
                        cards_words(rest.len()),
                        play_words(&play)
                    );
                }
                Some(play) => {
                    let _ = write!(
                        line,
                        "{hand} ({}); face down: {}",
                        cards_words(hand.len()),
                        cards_words(play.len())
                    );
                }
                None => {
                    let _ = write!(line, "{hand} ({})", cards_words(hand.len()));
                }
            }
            let _ = writeln!(s, "{line}");
        }
        match (self.outcome(), self.face_down) {
            (Some(o), _) => {
                let _ = writeln!(s, "Game over: {}", o.reason);
            }
            (None, None) => {
                let _ = writeln!(
                    s,
                    "Now: {starter} puts down cards first, face down (e.g. `10 -1 9`, or `pass`)."
                );
            }
            (None, Some(play)) => {
                let _ = writeln!(
                    s,
                    "Now: {} answers; {starter} put down {} face down.",
                    starter.other(),
                    cards_words(play.len())
                );
            }
        }
        if let Some(seat) = self.actor() {
            if self.hands[seat.index()].is_empty() {
                let _ = writeln!(s, "{seat} has no cards left: its only move is `pass`.");
            }
        }
        s
    }

    /// At a deadline: no cards (the number 0), as the rulings say.
    fn default_move<R: Rng + ?Sized>(&self, seat: Seat, _rng: &mut R) -> Option<Play> {
        (self.actor() == Some(seat)).then_some(Play::PASS)
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<Play, NotationError> {
        text.parse()
    }

    fn format_move(&self, mv: &Play) -> String {
        mv.to_string()
    }

    fn parse_chance(&self, text: &str) -> Result<(), NotationError> {
        Err(NotationError::chance(
            text,
            "All-In Goofspiel has no chance events",
        ))
    }

    fn format_chance(&self, _outcome: &()) -> String {
        String::new()
    }
}

/// The game in OpenSpiel's terms ([`crate::spiel`]).
mod spiel;

#[cfg(test)]
mod tests;

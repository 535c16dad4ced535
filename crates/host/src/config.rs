//! What a match is set up with: the game, its options and seed, who sits where, the time control
//! and the match-level rules.

use std::collections::BTreeMap;

use colosseum_engine::{RawOptions, Seat};
use colosseum_games::GameEntry;
use colosseum_trivia::{Bank, BankError};
use serde::{Deserialize, Serialize};

/// Who plays a seat. The host only carries this; bots are run by whoever drives the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Player {
    /// A person.
    Human {
        /// A display name, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// A bot at a level (`random`, `mcts-1s`, ...), as the bot layer names them.
    Bot {
        /// The level, passed on unchanged.
        level: String,
    },
}

impl Default for Player {
    fn default() -> Self {
        Player::Human { name: None }
    }
}

/// What happens when a seat's deadline passes with its bank empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmptyBank {
    /// The game's default move is made for the seat.
    #[default]
    Default,
    /// The seat loses the match, whatever the decision.
    Loses,
    /// The seat loses in decisions of these kinds ([`colosseum_engine::Game::decision_kind`]);
    /// in others the default move is made.
    LosesIn(Vec<String>),
}

impl EmptyBank {
    /// Whether an empty bank in a decision of `kind` loses the match.
    #[must_use]
    pub fn loses(&self, kind: &str) -> bool {
        match self {
            EmptyBank::Default => false,
            EmptyBank::Loses => true,
            EmptyBank::LosesIn(kinds) => kinds.iter().any(|k| k == kind),
        }
    }
}

/// The clocks of a timed match. All times are milliseconds.
///
/// Each decision gives every seat that must act its own time (`per_decision_ms`, or the entry of
/// `per_kind_ms` for the decision's kind). A seat that has not submitted when that runs out
/// spends its bank: in steps of `bank_step_ms` (each step, spent whole at its start, moves the
/// seat's deadline on by the step), or, with `bank_step_ms = 0`, continuously (the time used
/// beyond the decision's own is taken from the bank when the seat submits). When the bank is
/// empty, `empty_bank` decides: the game's default move, or a loss.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clocks {
    /// Time for a decision of a kind not listed in `per_kind_ms`.
    pub per_decision_ms: u64,
    /// Time for a decision, by kind.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub per_kind_ms: BTreeMap<String, u64>,
    /// Each seat's bank (reserve) at the start of the match.
    #[serde(default)]
    pub bank_ms: u64,
    /// The bank is spent in steps of this size; 0 spends it continuously.
    #[serde(default)]
    pub bank_step_ms: u64,
    /// What an empty bank does at a deadline.
    #[serde(default)]
    pub empty_bank: EmptyBank,
}

impl Clocks {
    /// The same time for every decision, no bank: the default move at the deadline.
    #[must_use]
    pub fn per_decision(seconds: u64) -> Self {
        Clocks {
            per_decision_ms: seconds * 1000,
            per_kind_ms: BTreeMap::new(),
            bank_ms: 0,
            bank_step_ms: 0,
            empty_bank: EmptyBank::Default,
        }
    }

    /// The clocks a game's [`colosseum_games::Timing`] describes: the `*` entry's time for
    /// every decision not listed, an empty bank losing in the kinds marked so (everywhere when
    /// the `*` entry is).
    #[must_use]
    pub fn from_timing(timing: &colosseum_games::Timing) -> Self {
        let all = timing.decision("*");
        let per_kind_ms = timing
            .decisions
            .iter()
            .filter(|d| d.kind != "*")
            .map(|d| (d.kind.to_string(), d.ms))
            .collect();
        let empty_bank = if all.loses {
            EmptyBank::Loses
        } else {
            let kinds: Vec<String> = timing
                .decisions
                .iter()
                .filter(|d| d.loses)
                .map(|d| d.kind.to_string())
                .collect();
            if kinds.is_empty() {
                EmptyBank::Default
            } else {
                EmptyBank::LosesIn(kinds)
            }
        };
        Clocks {
            per_decision_ms: all.ms,
            per_kind_ms,
            bank_ms: timing.bank_ms,
            bank_step_ms: timing.bank_step_ms,
            empty_bank,
        }
    }

    /// The time a seat has for a decision of `kind` before its bank starts.
    #[must_use]
    pub fn decision_ms(&self, kind: &str) -> u64 {
        self.per_kind_ms
            .get(kind)
            .copied()
            .unwrap_or(self.per_decision_ms)
    }
}

/// A match's time control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TimeControl {
    /// No deadlines at all: casual or asynchronous play. Nobody ever times out.
    Untimed,
    /// Deadlines and banks.
    Timed(Clocks),
}

impl TimeControl {
    /// The default time control of a game: its registry entry's [`colosseum_games::Timing`]
    /// (from the seed and RULINGS.md; the game's rules page shows the same table). An unknown
    /// game gets 60 s a decision and the default move.
    #[must_use]
    pub fn for_game(game: &str) -> TimeControl {
        let Ok(entry) = colosseum_games::find(game) else {
            return TimeControl::Timed(Clocks::per_decision(60));
        };
        TimeControl::for_entry(entry)
    }

    /// The default time control of the game `entry` describes: its [`GameEntry::timing`].
    #[must_use]
    pub fn for_entry(entry: &GameEntry) -> TimeControl {
        TimeControl::Timed(Clocks::from_timing(&entry.timing))
    }

    /// The clocks, or `None` when untimed.
    #[must_use]
    pub fn clocks(&self) -> Option<&Clocks> {
        match self {
            TimeControl::Untimed => None,
            TimeControl::Timed(c) => Some(c),
        }
    }
}

/// Where a match's trivia questions come from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BankSource {
    /// The sample bank shipped with Colosseum (questions about the rules of its six games):
    /// `"sample"`.
    #[default]
    Sample,
    /// A bank in the TOML format of `docs/trivia.md`, inline: `{"toml": "[[question]] ..."}`.
    Toml(String),
}

impl BankSource {
    /// Loads the bank.
    pub fn load(&self) -> Result<Bank, BankError> {
        match self {
            BankSource::Sample => Ok(Bank::sample()),
            BankSource::Toml(text) => Bank::from_toml(text),
        }
    }
}

/// The live Cauldron's trivia: which bank the races ask from. Only for `witchs-brew` with option
/// `cauldron = live`. Questions are drawn from the bank by the host's seeded generator, without
/// repeating until every question has been asked; a question of the round's category (`MM`,
/// `DM`, `FM`) or `free` is preferred. Race bots are not configured here: the transport runs
/// them (see `colosseum_trivia::BotAnswerer`) and calls `Match::answer` for them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriviaSettings {
    /// The question bank.
    #[serde(default)]
    pub bank: BankSource,
}

fn default_advantage() -> Option<Seat> {
    Some(Seat::P1)
}

fn is_default_advantage(a: &Option<Seat>) -> bool {
    *a == default_advantage()
}

/// Everything a match is set up with. Serializable, so a server stores it next to the log:
/// `Match::rebuild(config, log)` gives the match back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchConfig {
    /// The game's registry id.
    pub game: String,
    /// The game's options (of the first game, for a match that replays a draw).
    #[serde(default)]
    pub options: RawOptions,
    /// The seed of the host's generator: chance outcomes and random defaults are drawn from it.
    #[serde(default)]
    pub seed: u64,
    /// Who plays `p1` and `p2`.
    #[serde(default)]
    pub seats: [Player; 2],
    /// The time control; absent means the game's default ([`TimeControl::for_game`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeControl>,
    /// Whether a drawn game is replayed once with the other player starting (the options the
    /// game's [`GameEntry::replay`] gives). Absent means the game's default
    /// ([`GameEntry::replay_draws`]: All-In Goofspiel's, from RULINGS.md). Only games with a
    /// `replay` can replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_on_draw: Option<bool>,
    /// Who wins when the replayed game is drawn again: `p1` (the default), `p2`, or `null` for a
    /// drawn match.
    #[serde(
        default = "default_advantage",
        skip_serializing_if = "is_default_advantage"
    )]
    pub advantage: Option<Seat>,
    /// The live Cauldron's trivia (only `witchs-brew` with `cauldron = live`). Absent in such a
    /// match means the sample bank; given for any other game or mode, the match is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trivia: Option<TriviaSettings>,
    /// How many refused submissions of one seat are logged in one decision; later ones are
    /// refused the same way but only counted, so a seat cannot grow the log without bound.
    /// Absent (matches stored before the cap existed) logs every refusal. Part of the
    /// configuration because the log depends on it: a match rebuilds with its own cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logged_refusals: Option<u32>,
    /// Sealed submissions (commit, then open): in a simultaneous decision each seat first sends
    /// the SHA-256 of its move and a nonce ([`crate::Match::commit`]), and only once both have
    /// committed sends the move and nonce ([`crate::Match::open`]), so the host holds no move
    /// before both are bound to theirs. Sequential decisions are ordinary submissions. Absent in
    /// stored configurations means `false`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sealed: bool,
    /// The match's id, which its sealed commitments are bound to: [`crate::commitment`] hashes
    /// it with the decision, the seat, the move and the nonce, so a commitment made for another
    /// match, decision or seat does not open here. Absent in configurations stored before
    /// commitments were bound: such a match keeps the old unbound commitments
    /// ([`crate::unbound_commitment`]) and its old checks, so it rebuilds as it was played.
    /// [`MatchConfig::new`] gives `Some("")` (bound, with an empty id); a server gives its id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<String>,
    /// How many changes of mind (a seat's accepted submission replacing its own earlier one) of
    /// one seat are taken in one decision; a change beyond it is refused
    /// ([`crate::MatchError::TooManyChanges`]) and not logged, so a seat cannot grow the log
    /// without bound, and every change that was taken is in the log (a rebuilt match stands
    /// on the last one). Absent (matches stored before the cap existed): no cap. Part of the
    /// configuration because the log depends on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<u32>,
    /// How many refused trivia answers (locked out, the race over, empty) of one seat are logged
    /// in one race; later ones are refused the same way but not logged. Absent (matches stored
    /// before the cap existed) logs every one. Part of the configuration because the log
    /// depends on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logged_answer_refusals: Option<u32>,
    /// Whether the host draws each default move at a timeout from a generator of its own,
    /// seeded from the match seed, the game, the step and the seat
    /// ([`colosseum_engine::fair::default_move_seed`]), so that a verifier re-derives every one
    /// from the record. Absent (`false`, configurations stored before): drawn in turn from the
    /// host's one generator, as such a match was played, so it rebuilds as it was.
    /// [`MatchConfig::new`] gives `true`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub step_defaults: bool,
}

/// The refusals logged per seat and decision in a new match ([`MatchConfig::logged_refusals`]).
pub const DEFAULT_LOGGED_REFUSALS: u32 = 10;

/// The changes of mind taken per seat and decision in a new match ([`MatchConfig::changes`]).
pub const DEFAULT_CHANGES: u32 = 20;

impl MatchConfig {
    /// A match of `game` with default options, seed 0, two humans and the game's time control.
    #[must_use]
    pub fn new(game: &str) -> Self {
        MatchConfig {
            game: game.to_string(),
            options: RawOptions::new(),
            seed: 0,
            seats: Default::default(),
            time: None,
            replay_on_draw: None,
            advantage: default_advantage(),
            trivia: None,
            logged_refusals: Some(DEFAULT_LOGGED_REFUSALS),
            sealed: false,
            match_id: Some(String::new()),
            changes: Some(DEFAULT_CHANGES),
            logged_answer_refusals: Some(DEFAULT_LOGGED_REFUSALS),
            step_defaults: true,
        }
    }

    /// The time control in force: the one given, or the game's default.
    #[must_use]
    pub fn time_control(&self) -> TimeControl {
        self.time
            .clone()
            .unwrap_or_else(|| TimeControl::for_game(&self.game))
    }

    /// The time control in force for a match of `entry`: the one given, or the entry's default.
    #[must_use]
    pub fn time_control_of(&self, entry: &GameEntry) -> TimeControl {
        self.time
            .clone()
            .unwrap_or_else(|| TimeControl::for_entry(entry))
    }

    /// Whether a drawn game is replayed: as given, or the game's default
    /// ([`GameEntry::replay_draws`]; off for an unknown game).
    #[must_use]
    pub fn replays_on_draw(&self) -> bool {
        colosseum_games::find(&self.game).map_or(self.replay_on_draw.unwrap_or(false), |entry| {
            self.replays_on_draw_of(entry)
        })
    }

    /// Whether a drawn game of `entry` is replayed: as given, or the entry's default.
    #[must_use]
    pub fn replays_on_draw_of(&self, entry: &GameEntry) -> bool {
        self.replay_on_draw.unwrap_or(entry.replay_draws)
    }

    /// The next match between the same two: seats swapped (so is the player who holds the
    /// advantage), the same game, options and time control, a new seed.
    #[must_use]
    pub fn rematch(&self, seed: u64) -> MatchConfig {
        let [a, b] = self.seats.clone();
        MatchConfig {
            seats: [b, a],
            seed,
            ..self.clone()
        }
    }

    /// The player in `seat`.
    #[must_use]
    pub fn player(&self, seat: Seat) -> &Player {
        &self.seats[seat.index()]
    }
}

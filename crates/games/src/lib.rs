//! The games of Colosseum and the registry that names them.
//!
//! Each game is a pure state machine implementing [`colosseum_engine::Game`]. The [`registry`]
//! is the one list of games: the command line, the server and the bot protocol find a game here
//! by id and drive it through [`colosseum_engine::AnyGame`]; adding a game means adding a module
//! and one [`GameEntry`].

#![warn(missing_docs)]

pub mod all_in_goofspiel;
pub mod galespiel;
pub mod goofspiel;
pub mod square_goofspiel;
pub mod thwart_omega;
pub mod witchs_brew;

use colosseum_engine::{
    random_playout, replay, AnyGame, Erased, Game, OptionDoc, OptionsError, RawOptions, Record,
    Replay, ReplayFailure,
};

/// One game in the registry.
#[derive(Clone, Copy)]
pub struct GameEntry {
    /// The id used in records, URLs and commands.
    pub id: &'static str,
    /// The name shown to people.
    pub name: &'static str,
    /// One line on what the game is.
    pub summary: &'static str,
    /// The rules page (Markdown): rules, rulings, notation, options, examples.
    pub rules: &'static str,
    /// The options the game takes.
    pub options: &'static [OptionDoc],
    /// Creates a game from options, behind the dynamic interface.
    pub create: fn(&RawOptions) -> Result<Box<dyn AnyGame>, OptionsError>,
    /// Plays `games` uniformly random games on the typed fast path from `seed`; returns the
    /// total number of decisions applied. For `colosseum bench`.
    pub random_playouts: fn(&RawOptions, u64, u64) -> Result<u64, OptionsError>,
}

impl std::fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEntry").field("id", &self.id).finish()
    }
}

/// Plays `games` random games of `G` from `seed` on the typed path; returns the decisions applied.
pub fn typed_playouts<G: Game>(new: impl Fn() -> G, games: u64, seed: u64) -> u64 {
    let mut rng = colosseum_engine::seeded_rng(seed);
    let mut decisions = 0u64;
    for _ in 0..games {
        let mut game = new();
        decisions += random_playout(&mut game, &mut rng) as u64;
    }
    decisions
}

static REGISTRY: &[GameEntry] = &[
    GameEntry {
        id: "goofspiel",
        name: "Goofspiel",
        summary: "classic Goofspiel, the calibration game checked against OpenSpiel",
        rules: goofspiel::RULES,
        options: goofspiel::OPTIONS,
        create: |raw| goofspiel::Goofspiel::from_raw(raw).map(Erased::boxed),
        random_playouts: |raw, games, seed| {
            let options = goofspiel::GoofspielOptions::from_raw(raw)?;
            Ok(typed_playouts(
                || goofspiel::Goofspiel::new(options),
                games,
                seed,
            ))
        },
    },
    GameEntry {
        id: "square-goofspiel",
        name: "Square Goofspiel",
        summary:
            "36 simultaneous auctions for the cells of a 6x6 board, scored by rows and columns",
        rules: square_goofspiel::RULES,
        options: square_goofspiel::OPTIONS,
        create: |raw| square_goofspiel::SquareGoofspiel::from_raw(raw).map(Erased::boxed),
        random_playouts: |raw, games, seed| {
            let options = square_goofspiel::SquareGoofspielOptions::from_raw(raw)?;
            Ok(typed_playouts(
                || square_goofspiel::SquareGoofspiel::new(options),
                games,
                seed,
            ))
        },
    },
    GameEntry {
        id: "thwart-omega",
        name: "Thwart Omega",
        summary: "a black and a white stone each round; score the product of your group sizes",
        rules: thwart_omega::RULES,
        options: thwart_omega::OPTIONS,
        create: |raw| thwart_omega::ThwartOmega::from_raw(raw).map(Erased::boxed),
        random_playouts: |raw, games, seed| {
            let options = thwart_omega::ThwartOmegaOptions::from_raw(raw)?;
            Ok(typed_playouts(
                || thwart_omega::ThwartOmega::new(options),
                games,
                seed,
            ))
        },
    },
    GameEntry {
        id: "all-in-goofspiel",
        name: "All-In Goofspiel",
        summary: "cards side by side make a number; 28 points wins, but only with an empty hand",
        rules: all_in_goofspiel::RULES,
        options: all_in_goofspiel::OPTIONS,
        create: |raw| all_in_goofspiel::AllInGoofspiel::from_raw(raw).map(Erased::boxed),
        random_playouts: |raw, games, seed| {
            let options = all_in_goofspiel::AllInGoofspielOptions::from_raw(raw)?;
            Ok(typed_playouts(
                || all_in_goofspiel::AllInGoofspiel::new(options),
                games,
                seed,
            ))
        },
    },
    GameEntry {
        id: "witchs-brew",
        name: "The Witch's Brew",
        summary:
            "win trivia races for cards and victory conditions, then place stones on a 7x6 grid",
        rules: witchs_brew::RULES,
        options: witchs_brew::OPTIONS,
        create: |raw| witchs_brew::WitchsBrew::from_raw(raw).map(Erased::boxed),
        random_playouts: |raw, games, seed| {
            let options = witchs_brew::WitchsBrewOptions::from_raw(raw)?;
            Ok(typed_playouts(
                || witchs_brew::WitchsBrew::new(options),
                games,
                seed,
            ))
        },
    },
    GameEntry {
        id: "galespiel",
        name: "Galespiel",
        summary: "win Goofspiel rounds for materials and build bridges to join your sides (Gale)",
        rules: galespiel::RULES,
        options: galespiel::OPTIONS,
        create: |raw| galespiel::Galespiel::from_raw(raw).map(Erased::boxed),
        random_playouts: |raw, games, seed| {
            let options = galespiel::GalespielOptions::from_raw(raw)?;
            Ok(typed_playouts(
                || galespiel::Galespiel::new(options.clone()),
                games,
                seed,
            ))
        },
    },
];

/// Every game, in the order `colosseum games` lists them.
#[must_use]
pub fn registry() -> &'static [GameEntry] {
    REGISTRY
}

/// The game is not in the registry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game `{given}`; the games are: {known}")]
pub struct UnknownGame {
    /// The id given.
    pub given: String,
    /// The ids known.
    pub known: String,
}

/// Finds a game by id (case-insensitive).
pub fn find(id: &str) -> Result<&'static GameEntry, UnknownGame> {
    let wanted = id.trim().to_ascii_lowercase();
    REGISTRY
        .iter()
        .find(|g| g.id == wanted)
        .ok_or_else(|| UnknownGame {
            given: id.to_string(),
            known: REGISTRY.iter().map(|g| g.id).collect::<Vec<_>>().join(", "),
        })
}

/// Why a record cannot be replayed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The record names no known game.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// The record's options are wrong for its game. (The message includes the options error,
    /// so it is not also given as the source: `{:#}` would print it twice.)
    #[error("the record's options: {0}")]
    Options(OptionsError),
}

impl From<OptionsError> for LoadError {
    fn from(e: OptionsError) -> Self {
        LoadError::Options(e)
    }
}

/// Creates the record's game and applies its steps.
///
/// `Err(LoadError)` when the game or options are wrong; `Ok(Err(..))` when a step does not fit,
/// with the state reached before it.
#[allow(clippy::type_complexity)]
pub fn replay_record(record: &Record) -> Result<Result<Replay, Box<ReplayFailure>>, LoadError> {
    let entry = find(&record.game)?;
    let game = (entry.create)(&record.options)?;
    Ok(replay(game, record))
}

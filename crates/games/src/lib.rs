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
pub mod grid;
pub mod season;
pub mod spiel;
pub mod square_goofspiel;
pub mod svg;
pub mod text;
pub mod thwart_omega;
pub mod witchs_brew;
pub mod words;

use colosseum_engine::{
    random_playout, replay, AnyGame, Erased, Game, OptionDoc, OptionsError, RawOptions, Record,
    Replay, ReplayFailure, Seat,
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
    /// The default clocks at the table and what a timeout does, from the seed and RULINGS.md:
    /// the host's default time control and the rules page's "Time at the table" come from here.
    pub timing: Timing,
    /// Whether the host replays a drawn game once, by default, with the options of
    /// [`GameEntry::replay`]: All-In Goofspiel (RULINGS.md). A match may say otherwise.
    pub replay_draws: bool,
    /// The options of the game replayed after a draw (the other seat starting), from the drawn
    /// game's; `None` for a game that is not replayed that way (a match asking for it is
    /// refused).
    pub replay: Option<fn(&RawOptions) -> RawOptions>,
    /// The options under which a seat holds the game's "DM advantage" (the seeds give it to the
    /// player with the most garnets): All-In Goofspiel's first player, the tie advantage of
    /// Square Goofspiel, Thwart Omega and The Witch's Brew, Galespiel's stalemate advantage.
    /// `None` for a game without one (classic Goofspiel). A tournament sets it from the
    /// garnets; the host, server and CLI never name the option.
    pub advantage: Option<fn(&RawOptions, Seat) -> RawOptions>,
    /// Creates a game from options, behind the dynamic interface.
    pub create: fn(&RawOptions) -> Result<Box<dyn AnyGame>, OptionsError>,
    /// Plays `games` uniformly random games on the typed fast path from `seed`; returns the
    /// total number of decisions applied. For `colosseum bench`.
    pub random_playouts: fn(&RawOptions, u64, u64) -> Result<u64, OptionsError>,
    /// Chance steps a host may decide by a live race between the seats (The Witch's Brew's
    /// live Cauldron), or `None`: the host asks here, and names no game.
    pub races: Option<LiveRaces>,
    /// The game's browser code (`crates/games/assets/ID.js` and `ID.css`), which the server
    /// serves at `/assets/games/ID.js` and `/assets/games/ID.css` for its pages; empty for a game
    /// without (the pages then show its view as it is).
    pub browser: BrowserCode,
    /// The board as an SVG document, drawn from the *spectator's* view (the game's
    /// `view_json(Viewer::Spectator)`) and labelled with the players' names ([`svg::Names`],
    /// never `p1`/`p2`): a grid with its stones or cells, or the prizes, scores and cards
    /// played, each player's headline score beside their name. Each game's own is in its
    /// folder (`board_svg.rs`); the server renders it to a PNG for chat webhooks and names no
    /// game. Drawing only from the spectator's view, it cannot show a hidden card or a move
    /// before its reveal.
    pub board_svg: fn(&serde_json::Value, &svg::Names) -> String,
    /// A view in words for a chat message (`/colosseum hand` on Discord), from a *seat's* or the
    /// spectator's view JSON and the players' names: the scores, what is on the table (prizes, the
    /// board as a small grid in a code block, the cards left), the view's seat's hand, and what is
    /// being decided now; Discord Markdown, at most [`words::MAX_CHARS`] characters. Each game's
    /// own is in `words/` (worded as its browser module); built only from the view, it cannot
    /// tell what the view hides. Default [`words::plain`].
    pub describe: fn(&serde_json::Value, &svg::Names) -> String,
    /// The pending decision in words for the view's seat ("Bid for the 8 M prize: pick one of
    /// your 4 cards."), or `None` when that seat does not act (or for the spectator's view):
    /// the line of a private prompt. Default [`words::no_prompt`].
    pub prompt: fn(&serde_json::Value, &svg::Names) -> Option<String>,
    /// The kind of ending an outcome is, for balance reports (`colosseum balance`): a short
    /// phrase shared by every game that ended the same way ("a seat connected", "both took
    /// points"). Default [`ending_kind`].
    pub ending: fn(&colosseum_engine::Outcome) -> String,
    /// The game in OpenSpiel's terms (integer actions, chance outcomes, information states;
    /// the encoding in the game's own `spiel.rs`), for the Python package; `None` for a game
    /// without one.
    pub spiel: Option<spiel::SpielHook>,
    /// The questions a finished game answers for a trivia season beyond "who won" (the winner's
    /// score in the game's own words, its rounds, what its score keys or view report), each game
    /// wording its own in its folder's `season.rs`; `colosseum_trivia::season` calls it and
    /// names no game. Default [`season::none`].
    pub season: season::SeasonQuestions,
}

/// A game's code for the browser pages: an ES module (its board renderer, its last reveal, its
/// words; `docs/browser.md`, "A game's browser code") and a stylesheet for its pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BrowserCode {
    /// The ES module's source; it imports nothing (the pages pass it their helpers).
    pub module: &'static str,
    /// The stylesheet's source.
    pub style: &'static str,
}

impl BrowserCode {
    /// No browser code.
    pub const NONE: BrowserCode = BrowserCode {
        module: "",
        style: "",
    };
}

/// The browser code of the game with this id, from `crates/games/assets`.
macro_rules! browser {
    ($id:literal) => {
        BrowserCode {
            module: include_str!(concat!("../assets/", $id, ".js")),
            style: include_str!(concat!("../assets/", $id, ".css")),
        }
    };
}

/// A game whose chance steps of one kind can be decided by a race between the seats that the
/// host runs (a trivia question: the first right answer wins).
#[derive(Clone, Copy)]
pub struct LiveRaces {
    /// Whether a match with these (raw) options runs live races; `false` for options that do
    /// not read.
    pub runs: fn(&RawOptions) -> bool,
    /// The decision kind ([`Game::decision_kind`]) of a chance step a race decides; its
    /// outcomes are `p1`, `p2` (the race's winner) and `none`.
    pub kind: &'static str,
    /// What the race about to open is for, read from the game as it stands (its chance step
    /// pending).
    pub stake: fn(&dyn AnyGame) -> RaceStake,
}

/// What a race is for: shown with its question.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RaceStake {
    /// The round's label (`MM1`, `DM3`), which also picks the question's category.
    pub round: String,
    /// The prizes on offer, in notation (`4`, `2A`): the winner picks one of them.
    pub prizes: Vec<String>,
}

impl GameEntry {
    /// Whether a match of this game with these options runs live races.
    #[must_use]
    pub fn runs_races(&self, options: &RawOptions) -> bool {
        self.races.is_some_and(|r| (r.runs)(options))
    }

    const fn with_races(mut self, races: LiveRaces) -> GameEntry {
        self.races = Some(races);
        self
    }

    const fn with_browser(mut self, browser: BrowserCode) -> GameEntry {
        self.browser = browser;
        self
    }

    /// The entry with its own board drawing ([`GameEntry::board_svg`]).
    #[must_use]
    pub const fn with_board(
        mut self,
        board_svg: fn(&serde_json::Value, &svg::Names) -> String,
    ) -> GameEntry {
        self.board_svg = board_svg;
        self
    }

    /// The entry with its own words ([`GameEntry::describe`], [`GameEntry::prompt`]).
    #[must_use]
    pub const fn with_words(
        mut self,
        describe: fn(&serde_json::Value, &svg::Names) -> String,
        prompt: fn(&serde_json::Value, &svg::Names) -> Option<String>,
    ) -> GameEntry {
        self.describe = describe;
        self.prompt = prompt;
        self
    }

    const fn with_spiel(mut self, spiel: spiel::SpielHook) -> GameEntry {
        self.spiel = Some(spiel);
        self
    }

    const fn with_season(mut self, season: season::SeasonQuestions) -> GameEntry {
        self.season = season;
        self
    }
}

impl std::fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEntry").field("id", &self.id).finish()
    }
}

/// How long one kind of decision lasts at the table, and what happens when it runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecisionClock {
    /// The decision kind ([`Game::decision_kind`]), or `*` for every kind not listed.
    pub kind: &'static str,
    /// The decision in words (`a bid`); empty for a `*` entry that no decision uses (not shown).
    pub what: &'static str,
    /// The decision's own time, in ms, before the bank is spent.
    pub ms: u64,
    /// Whether running out of time (and bank) loses the game; otherwise the default move is made.
    pub loses: bool,
    /// The default move in words (`the lowest card`), made when the time runs out and `loses` is
    /// false.
    pub default: &'static str,
}

/// A game's default clocks (from its seed and RULINGS.md). A match may set its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Each kind of decision; one entry has kind `*` (every kind not listed).
    pub decisions: &'static [DecisionClock],
    /// Each seat's bank (reserve) for the whole match, in ms; 0 for none.
    pub bank_ms: u64,
    /// The bank is spent in steps of this many ms; 0 spends it continuously.
    pub bank_step_ms: u64,
}

impl Timing {
    /// The entry for decisions of `kind` (the `*` entry when `kind` is not listed).
    #[must_use]
    pub fn decision(&self, kind: &str) -> &DecisionClock {
        self.decisions
            .iter()
            .find(|d| d.kind == kind)
            .or_else(|| self.decisions.iter().find(|d| d.kind == "*"))
            .expect("a timing has a `*` entry")
    }

    /// The "Time at the table" section of the rules page, in Markdown.
    #[must_use]
    pub fn markdown(&self) -> String {
        let secs = |ms: u64| {
            if ms >= 120_000 && ms.is_multiple_of(60_000) {
                format!("{} min", ms / 60_000)
            } else {
                format!("{} s", ms / 1000)
            }
        };
        let bank = if self.bank_ms == 0 {
            "none".to_string()
        } else if self.bank_step_ms > 0 {
            format!(
                "{} for the match, spent in {} steps",
                secs(self.bank_ms),
                secs(self.bank_step_ms)
            )
        } else {
            format!("{} for the match, spent continuously", secs(self.bank_ms))
        };
        let mut out = String::from(
            "\n## Time at the table\n\n\
             The host's default clocks (a match may set its own, or play untimed). Each seat that must \
             act has the decision's time; then its bank, if any, is spent. Until both seats have \
             submitted, a submission can be changed unless it was locked, and a refused one can be \
             corrected until the deadline.\n\n\
             | decision | time | bank | when time and bank have run out |\n\
             | --- | --- | --- | --- |\n",
        );
        // A `*` entry without words stands for no decision of its own (every kind is listed).
        for d in self.decisions.iter().filter(|d| !d.what.is_empty()) {
            let then = if d.loses {
                "the seat loses the game".to_string()
            } else {
                format!("the host plays {}", d.default)
            };
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                d.what,
                secs(d.ms),
                bank,
                then
            ));
        }
        out
    }
}

impl GameEntry {
    /// The entry of a typed game `G`: `create` and `random_playouts` from [`Registered`], no
    /// replay of draws (set [`GameEntry::replay`] and [`GameEntry::replay_draws`] for that). Each game in [`registry`] is
    /// made this way; a test may make one for a game of its own.
    #[must_use]
    pub const fn of<G: Registered>(
        id: &'static str,
        name: &'static str,
        summary: &'static str,
        rules: &'static str,
        options: &'static [OptionDoc],
        timing: Timing,
    ) -> GameEntry {
        entry::<G>(id, name, summary, rules, options, timing)
    }

    /// The whole rules page: the game's own text, then the clocks from [`GameEntry::timing`].
    #[must_use]
    pub fn rules_page(&self) -> String {
        format!("{}{}", self.rules, self.timing.markdown())
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

/// A typed game the registry can build: how its options are read and a game made from them.
/// Every game module provides these two functions under these names; [`registered!`] ties them
/// to the trait.
pub trait Registered: Game {
    /// The checked options.
    type Options: Clone + Send + Sync + 'static;
    /// Reads the options from JSON, refusing unknown names and bad values.
    fn parse_options(raw: &RawOptions) -> Result<Self::Options, OptionsError>;
    /// A new game with those options.
    fn with_options(options: Self::Options) -> Self;
}

macro_rules! registered {
    ($($game:ty => $options:ty),* $(,)?) => {$(
        impl Registered for $game {
            type Options = $options;
            fn parse_options(raw: &RawOptions) -> Result<$options, OptionsError> {
                <$options>::from_raw(raw)
            }
            fn with_options(options: $options) -> Self {
                <$game>::new(options)
            }
        }
    )*};
}

registered! {
    goofspiel::Goofspiel => goofspiel::GoofspielOptions,
    square_goofspiel::SquareGoofspiel => square_goofspiel::SquareGoofspielOptions,
    thwart_omega::ThwartOmega => thwart_omega::ThwartOmegaOptions,
    all_in_goofspiel::AllInGoofspiel => all_in_goofspiel::AllInGoofspielOptions,
    galespiel::Galespiel => galespiel::GalespielOptions,
    witchs_brew::WitchsBrew => witchs_brew::WitchsBrewOptions,
}

/// Creates `G` from raw options behind the dynamic interface.
fn create<G: Registered>(raw: &RawOptions) -> Result<Box<dyn AnyGame>, OptionsError> {
    G::parse_options(raw).map(|options| Erased::boxed(G::with_options(options)))
}

/// Random playouts of `G` on the typed path, for `colosseum bench`.
fn playouts<G: Registered>(raw: &RawOptions, games: u64, seed: u64) -> Result<u64, OptionsError> {
    let options = G::parse_options(raw)?;
    Ok(typed_playouts(
        || G::with_options(options.clone()),
        games,
        seed,
    ))
}

/// The registry entry of `G`.
const fn entry<G: Registered>(
    id: &'static str,
    name: &'static str,
    summary: &'static str,
    rules: &'static str,
    options: &'static [OptionDoc],
    timing: Timing,
) -> GameEntry {
    GameEntry {
        id,
        name,
        summary,
        rules,
        options,
        timing,
        replay_draws: false,
        replay: None,
        advantage: None,
        create: create::<G>,
        random_playouts: playouts::<G>,
        races: None,
        browser: BrowserCode::NONE,
        board_svg: plain_board_svg,
        describe: words::plain,
        prompt: words::no_prompt,
        ending: ending_kind,
        spiel: None,
        season: season::none,
    }
}

/// The board of a game without a drawing of its own ([`GameEntry::with_board`] sets one): its
/// players' names, then its spectator view's top-level numbers and words, one a line.
fn plain_board_svg(view: &serde_json::Value, names: &svg::Names) -> String {
    let fields: Vec<(String, String)> = view
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, v)| v.is_number() || v.is_string())
        .map(|(k, v)| (k.clone(), names.sentence(&svg::shown(v))))
        .take(16)
        .collect();
    let mut out = svg::Svg::new(480, 62 + 22 * fields.len() as u32);
    out.bold(
        16.0,
        30.0,
        15.0,
        svg::INK,
        svg::Anchor::Start,
        &format!("{} v {}", names.of(Seat::P1), names.of(Seat::P2)),
    );
    for (i, (k, v)) in fields.iter().enumerate() {
        let y = 52.0 + 22.0 * i as f64;
        out.text(
            16.0,
            y,
            15.0,
            svg::INK,
            svg::Anchor::Start,
            &format!("{k}: {v}"),
        );
    }
    out.finish()
}

/// The default [`GameEntry::ending`]: the outcome's reason with its details left out, so that
/// games that ended the same way share it: parenthesised text and what follows a `,` or `:` in
/// each `;`-separated part are dropped, `p1`/`p2` become "a seat", numbers and the words left
/// dangling after them go. "p2 took more points, 7 to 3" is "a seat took more points"; "line
/// points are tied at 12; p1 wins on remaining hand strength, 9 to 7" is "line points are tied;
/// a seat wins on remaining hand strength".
#[must_use]
pub fn ending_kind(outcome: &colosseum_engine::Outcome) -> String {
    let mut text = String::new();
    let mut depth = 0u32;
    for c in outcome.reason.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => text.push(c),
            _ => {}
        }
    }
    let parts: Vec<String> = text
        .split(';')
        .map(|part| {
            let head = part.split([',', ':']).next().unwrap_or_default();
            let mut words: Vec<&str> = head
                .split_whitespace()
                .filter(|w| !w.chars().any(|c| c.is_ascii_digit()) || matches!(*w, "p1" | "p2"))
                .map(|w| match w {
                    "p1" | "p2" => "a seat",
                    w => w,
                })
                .collect();
            while matches!(
                words.last(),
                Some(&("at" | "to" | "in" | "of" | "with" | "after" | "round" | "and"))
            ) {
                words.pop();
            }
            words.join(" ")
        })
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        "other".to_string()
    } else {
        parts.join("; ")
    }
}

/// Thwart Omega's [`GameEntry::ending`]: [`ending_kind`] with the colours as "a colour" (a
/// colour is a seat).
fn thwart_omega_ending(outcome: &colosseum_engine::Outcome) -> String {
    let kind = ending_kind(outcome);
    kind.split(' ')
        .map(|w| match w {
            "Black" | "White" => "a colour",
            w => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

static REGISTRY: &[GameEntry] = &[
    entry::<goofspiel::Goofspiel>(
        "goofspiel",
        "Goofspiel",
        "classic Goofspiel: bid one card for each prize card; the most prize points wins",
        goofspiel::RULES,
        goofspiel::OPTIONS,
        goofspiel::TIMING,
    )
    .with_browser(browser!("goofspiel"))
    .with_board(goofspiel::board_svg::board_svg)
    .with_words(words::goofspiel::describe, words::goofspiel::prompt)
    .with_spiel(spiel::make::<goofspiel::Goofspiel>)
    .with_season(goofspiel::season::questions),
    GameEntry {
        advantage: Some(advantage_option),
        ..entry::<square_goofspiel::SquareGoofspiel>(
            "square-goofspiel",
            "Square Goofspiel",
            "36 simultaneous auctions for the cells of a 6x6 board, scored by rows and columns",
            square_goofspiel::RULES,
            square_goofspiel::OPTIONS,
            square_goofspiel::TIMING,
        )
        .with_browser(browser!("square-goofspiel"))
        .with_spiel(spiel::make::<square_goofspiel::SquareGoofspiel>)
    }
    .with_board(square_goofspiel::board_svg::board_svg)
    .with_words(
        words::square_goofspiel::describe,
        words::square_goofspiel::prompt,
    )
    .with_season(square_goofspiel::season::questions),
    GameEntry {
        advantage: Some(advantage_option),
        ending: thwart_omega_ending,
        ..entry::<thwart_omega::ThwartOmega>(
            "thwart-omega",
            "Thwart Omega",
            "a black and a white stone each round; score the product of your group sizes",
            thwart_omega::RULES,
            thwart_omega::OPTIONS,
            thwart_omega::TIMING,
        )
        .with_browser(browser!("thwart-omega"))
        .with_spiel(spiel::make::<thwart_omega::ThwartOmega>)
    }
    .with_board(thwart_omega::board_svg::board_svg)
    .with_words(words::thwart_omega::describe, words::thwart_omega::prompt)
    .with_season(thwart_omega::season::questions),
    GameEntry {
        replay_draws: true,
        replay: Some(all_in_goofspiel::replay_options),
        advantage: Some(all_in_goofspiel::advantage_options),
        ..entry::<all_in_goofspiel::AllInGoofspiel>(
            "all-in-goofspiel",
            "All-In Goofspiel",
            "cards side by side make a number; 28 points wins, but only with an empty hand",
            all_in_goofspiel::RULES,
            all_in_goofspiel::OPTIONS,
            all_in_goofspiel::TIMING,
        )
        .with_browser(browser!("all-in-goofspiel"))
        .with_spiel(spiel::make::<all_in_goofspiel::AllInGoofspiel>)
    }
    .with_board(all_in_goofspiel::board_svg::board_svg)
    .with_words(
        words::all_in_goofspiel::describe,
        words::all_in_goofspiel::prompt,
    )
    .with_season(all_in_goofspiel::season::questions),
    GameEntry {
        advantage: Some(advantage_option),
        ..entry::<galespiel::Galespiel>(
            "galespiel",
            "Galespiel",
            "win Goofspiel rounds for materials and build bridges to join your sides (Gale)",
            galespiel::RULES,
            galespiel::OPTIONS,
            galespiel::TIMING,
        )
        .with_browser(browser!("galespiel"))
        .with_spiel(spiel::make::<galespiel::Galespiel>)
    }
    .with_board(galespiel::board_svg::board_svg)
    .with_words(words::galespiel::describe, words::galespiel::prompt)
    .with_season(galespiel::season::questions),
    GameEntry {
        advantage: Some(advantage_option),
        ..entry::<witchs_brew::WitchsBrew>(
            "witchs-brew",
            "The Witch's Brew",
            "win trivia races for cards and victory conditions, then place stones on a 7x6 grid",
            witchs_brew::RULES,
            witchs_brew::OPTIONS,
            witchs_brew::TIMING,
        )
        .with_spiel(spiel::make::<witchs_brew::WitchsBrew>)
        .with_races(witchs_brew::LIVE_RACES)
        .with_browser(browser!("witchs-brew"))
    }
    .with_board(witchs_brew::board_svg::board_svg)
    .with_words(words::witchs_brew::describe, words::witchs_brew::prompt)
    .with_season(witchs_brew::season::questions),
];

/// The options with `advantage` set to `seat`: the games whose option of that name says who
/// holds the DM advantage ([`GameEntry::advantage`]).
fn advantage_option(options: &RawOptions, seat: Seat) -> RawOptions {
    let mut options = options.clone();
    options.insert("advantage".into(), serde_json::json!(seat.as_str()));
    options
}

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

//! The bots of every game, by name, behind a text interface.
//!
//! A bot is named like `random`, `heuristic`, `mcts:hard`, `mcts:iters=5000,algo=uct`,
//! `mcts:ms=200` or `cmd:PROGRAM ARGS`; [`BotSpec`] parses the name once. [`find`] gives a game's
//! [`GameBots`], which runs an arena, makes a [`SeatPlayer`] for the terminal, or serves the bot
//! protocol, all on the typed fast path.
//!
//! Adding a game: `impl BotGame for TheGame {}` (with a heuristic when there is one) in its
//! file in `crates/ai/src/games/`, and one line in that module's `BOTS`.

use std::fmt;
use std::io::{BufRead, Write};
use std::str::FromStr;
use std::time::Duration;

use colosseum_engine::{
    seeded_rng, AnyGame, Erased, OptionsError, RawOptions, Record, Seat, TextStep,
};

use crate::analysis::{Analysis, AnalysisConfig};
use crate::arena::{self, ArenaConfig, ArenaReport, GameResult};
use crate::exploiter::{Exploiter, ExploiterConfig};
use crate::protocol::{self, ExternalBot};
use crate::{Bot, BotGame, Budget, HeuristicBot, Mcts, MctsConfig, RandomBot, Selection};

pub use crate::games::LEVELS;

/// A bot level as people read it, the words the lobby offers it by (`present.js`'s
/// `botLabel`): `mcts:easy` is "Computer: easy", `heuristic` "Computer: rule of thumb",
/// `random` "Computer: random moves"; any other level is "Computer: " and the level without
/// its `mcts:`. What a seat's name is when a bot plays it, wherever a person reads it (chat
/// webhook posts, board pictures).
#[must_use]
pub fn level_name(level: &str) -> String {
    let level = level.trim();
    match level {
        "mcts:easy" => "Computer: easy".into(),
        "mcts:medium" => "Computer: medium".into(),
        "mcts:hard" => "Computer: hard".into(),
        "heuristic" => "Computer: rule of thumb".into(),
        "random" => "Computer: random moves".into(),
        other => format!("Computer: {}", other.strip_prefix("mcts:").unwrap_or(other)),
    }
}

/// The search of a level: regret matching (SM-MCTS with the game's exploration,
/// [`crate::BotGame::level_gamma`], the move drawn from the root's average strategy) with
/// `iterations` and no opponent model, so that it seeks an
/// equilibrium instead of exploiting the heuristic; `hard` also plays a solved game's
/// equilibrium ([`MctsConfig::exact`]) and, at a simultaneous root, the equilibrium of the
/// root's estimated matrix game ([`MctsConfig::root_solve`]: against the approximate exploiter
/// it closed most of the gap in Goofspiel, Square Goofspiel and Thwart Omega, docs/strength.md;
/// at 1000 and 6000 iterations the estimates are too noisy for it to help).
fn level(iterations: u32, hard: bool) -> MctsConfig {
    MctsConfig {
        selection: Selection::RegretMatching {
            gamma: None,
            plus: false,
        },
        exact: hard,
        root_solve: hard,
        search_withheld: true,
        ..MctsConfig::regret_matching(Budget::Iterations(iterations))
    }
}

/// A bot, by name.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// `random`: uniformly random moves.
    Random,
    /// `heuristic`: the game's rule of thumb.
    Heuristic,
    /// `mcts:LEVEL` or `mcts:iters=N|ms=N[,algo=uct|rm]`.
    Mcts(MctsConfig),
    /// `cmd:PROGRAM ARGS`: a program speaking the bot protocol.
    Command(Vec<String>),
    /// `exploiter:[iters=N|ms=N,][algo=..,][depth=D,][views=K,][samples=S,]target=SPEC`: the
    /// approximate exploiter of the bot `SPEC` ([`crate::exploiter`]), a search (UCT and 5000
    /// iterations unless told) that asks the target for its strategy; `depth` defaults to every
    /// decision for `random` and `heuristic`, to 1 for a search target.
    Exploiter {
        /// The exploiter's search.
        search: MctsConfig,
        /// Its depth, views and samples.
        config: ExploiterConfig,
        /// The bot exploited (not a `cmd:` program: it is asked about determinized states it
        /// has no history for).
        target: Box<BotSpec>,
    },
}

/// A bot name that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not a bot: {why}; bots are random, heuristic, mcts:easy|medium|hard, mcts:iters=N|ms=N[,algo=uct|rm|rm+][,gamma=P|level][,model=P][,purify=P][,exact=B][,solve=B][,withheld=search|uniform], cmd:PROGRAM ARGS, exploiter:[iters=N,][depth=D,]target=BOT")]
pub struct BotSpecError {
    /// The text given.
    pub given: String,
    /// What is wrong.
    pub why: String,
}

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |why: &str| BotSpecError {
            given: text.to_string(),
            why: why.to_string(),
        };
        let t = text.trim();
        if let Some(cmd) = t.strip_prefix("cmd:") {
            let words: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
            if words.is_empty() {
                return Err(err("cmd: needs a program"));
            }
            return Ok(BotSpec::Command(words));
        }
        if let Some(rest) = t.strip_prefix("exploiter:") {
            return exploiter_spec(rest).map_err(|why| err(&why));
        }
        match t.to_ascii_lowercase().as_str() {
            "random" => return Ok(BotSpec::Random),
            "heuristic" => return Ok(BotSpec::Heuristic),
            _ => {}
        }
        let Some(rest) = t.strip_prefix("mcts:") else {
            return Err(err("unknown bot"));
        };
        let config = match rest {
            "easy" => level(1000, false),
            "medium" => level(6000, false),
            "hard" => level(30_000, true),
            _ => {
                let mut budget = None;
                let mut uct = false;
                let mut plus = false;
                let mut gamma = None;
                let mut model = 0.0;
                let mut purify = None;
                let mut exact = false;
                let mut solve = false;
                let mut withheld = false;
                for part in rest.split(',') {
                    let (key, value) = part
                        .split_once('=')
                        .ok_or_else(|| err("write mcts settings as key=value"))?;
                    match key.trim() {
                        "iters" => {
                            let n: u32 = value.parse().map_err(|_| err("iters takes a number"))?;
                            budget = Some(Budget::Iterations(n.max(1)));
                        }
                        "ms" => {
                            let n: u64 = value.parse().map_err(|_| err("ms takes a number"))?;
                            budget = Some(Budget::Time(Duration::from_millis(n.max(1))));
                        }
                        "model" => {
                            model = value
                                .parse::<f64>()
                                .ok()
                                .filter(|p| (0.0..=1.0).contains(p))
                                .ok_or_else(|| err("model takes a probability from 0 to 1"))?;
                        }
                        "purify" => {
                            purify = Some(
                                value
                                    .parse::<f64>()
                                    .ok()
                                    .filter(|p| (0.0..=1.0).contains(p))
                                    .ok_or_else(|| err("purify takes a share from 0 to 1"))?,
                            );
                        }
                        "algo" => match value.trim() {
                            "uct" => uct = true,
                            "rm" => uct = false,
                            "rm+" => plus = true,
                            _ => return Err(err("algo is uct, rm or rm+")),
                        },
                        "exact" => {
                            exact = match value.trim() {
                                "1" | "true" => true,
                                "0" | "false" => false,
                                _ => return Err(err("exact is true or false")),
                            };
                        }
                        "solve" => {
                            solve = match value.trim() {
                                "1" | "true" => true,
                                "0" | "false" => false,
                                _ => return Err(err("solve is true or false")),
                            };
                        }
                        "withheld" => {
                            withheld = match value.trim() {
                                "search" => true,
                                "uniform" => false,
                                _ => return Err(err("withheld is search or uniform")),
                            };
                        }
                        "gamma" if value.trim() == "level" => gamma = Some(None),
                        "gamma" => {
                            gamma = Some(Some(
                                value
                                    .parse::<f64>()
                                    .ok()
                                    .filter(|p| (0.0..=1.0).contains(p))
                                    .ok_or_else(|| {
                                        err("gamma takes a share from 0 to 1, or `level` (the game's exploration for the levels)")
                                    })?,
                            ));
                        }
                        _ => {
                            return Err(err(
                                "mcts settings are iters, ms, algo, gamma, model, purify, exact, solve and withheld",
                            ))
                        }
                    }
                }
                let budget = budget.ok_or_else(|| err("mcts needs a level, iters=N or ms=N"))?;
                let config = if uct {
                    MctsConfig::uct(budget)
                } else {
                    let mut config = MctsConfig::regret_matching(budget);
                    config.selection = Selection::RegretMatching {
                        gamma: gamma.unwrap_or(Some(0.1)),
                        plus,
                    };
                    config
                };
                MctsConfig {
                    opponent_model: model,
                    purify,
                    exact,
                    root_solve: solve,
                    search_withheld: withheld,
                    ..config
                }
            }
        };
        Ok(BotSpec::Mcts(config))
    }
}

impl BotSpec {
    /// This bot with `level_gamma` (a game's, [`crate::BotGame::level_gamma`]) as its search's
    /// exploration where it was left to the game (the levels), also in an exploiter's target.
    #[must_use]
    pub fn resolved(&self, level_gamma: f64) -> BotSpec {
        match self {
            BotSpec::Mcts(c) => BotSpec::Mcts(MctsConfig {
                selection: c.selection.resolved(level_gamma),
                ..*c
            }),
            BotSpec::Exploiter {
                search,
                config,
                target,
            } => BotSpec::Exploiter {
                search: MctsConfig {
                    selection: search.selection.resolved(level_gamma),
                    ..*search
                },
                config: *config,
                target: Box::new(target.resolved(level_gamma)),
            },
            other => other.clone(),
        }
    }

    /// The bot's name with every setting spelled out (`mcts:hard` is
    /// `mcts:iters=30000,algo=rm,gamma=level,model=0,exact=true,solve=true,withheld=search`,
    /// `gamma=level` being the game's exploration): it parses back to the same bot in any
    /// build. A record keeps [`GameBots::canonical`]'s, with the game's exploration written
    /// out, so that it can re-run a level whose meaning changed since.
    #[must_use]
    pub fn canonical(&self) -> String {
        match self {
            BotSpec::Mcts(c) => {
                let budget = match c.budget {
                    Budget::Iterations(n) => format!("iters={n}"),
                    Budget::Time(t) => format!("ms={}", t.as_millis()),
                };
                let algo = match c.selection {
                    Selection::Uct { .. } => "algo=uct".to_string(),
                    Selection::RegretMatching { gamma, plus } => format!(
                        "algo={},gamma={}",
                        if plus { "rm+" } else { "rm" },
                        gamma.map_or_else(|| "level".to_string(), |g| g.to_string())
                    ),
                };
                let purify = c.purify.map(|p| format!(",purify={p}")).unwrap_or_default();
                let withheld = if c.search_withheld {
                    ",withheld=search"
                } else {
                    ""
                };
                format!(
                    "mcts:{budget},{algo},model={}{purify},exact={},solve={}{withheld}",
                    c.opponent_model, c.exact, c.root_solve
                )
            }
            BotSpec::Exploiter {
                search,
                config,
                target,
            } => {
                let search = BotSpec::Mcts(*search).canonical();
                let settings = search.strip_prefix("mcts:").unwrap_or(&search);
                let settings: Vec<&str> = settings
                    .split(',')
                    .filter(|p| {
                        !p.starts_with("model=")
                            && !p.starts_with("exact=")
                            && !p.starts_with("solve=")
                    })
                    .collect();
                format!(
                    "exploiter:{},depth={},views={},samples={},target={}",
                    settings.join(","),
                    config.depth,
                    config.views,
                    config.samples,
                    target.canonical()
                )
            }
            other => other.to_string(),
        }
    }
}

/// Parses the settings of an `exploiter:` bot (after the prefix).
fn exploiter_spec(rest: &str) -> Result<BotSpec, String> {
    let Some((settings, target)) = rest
        .split_once("target=")
        .map(|(s, t)| (s.trim_end_matches([',', ' ']), t.trim()))
    else {
        return Err(
            "exploiter needs target=BOT, last (e.g. exploiter:iters=5000,target=mcts:hard)".into(),
        );
    };
    if target.is_empty() {
        return Err("target= needs a bot".into());
    }
    let target: BotSpec = target.parse().map_err(|e: BotSpecError| e.to_string())?;
    if matches!(target, BotSpec::Command(_)) {
        return Err(
            "the exploiter asks its target about imagined positions it has no history for; cmd: programs cannot be its target"
                .into(),
        );
    }
    // A cheap target plays every one of its decisions along the search's paths; a search target
    // only its next one (each modelled node is a search of its own).
    let mut config = ExploiterConfig {
        depth: match target {
            BotSpec::Random | BotSpec::Heuristic => u32::MAX,
            _ => 1,
        },
        ..ExploiterConfig::default()
    };
    let mut search = Vec::new();
    for part in settings.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or("write exploiter settings as key=value")?;
        let number = || {
            value
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or(format!("{} takes a whole number from 1", key.trim()))
        };
        match key.trim() {
            "depth" => config.depth = number()?,
            "views" => config.views = number()? as usize,
            "samples" => config.samples = number()?,
            "iters" | "ms" | "algo" | "gamma" | "purify" => search.push(part.to_string()),
            _ => {
                return Err(
                    "exploiter settings are iters, ms, algo, gamma, purify, depth, views, samples and target (last)"
                        .into(),
                )
            }
        }
    }
    if !search
        .iter()
        .any(|p| p.starts_with("iters") || p.starts_with("ms"))
    {
        search.push("iters=5000".into());
    }
    if !search.iter().any(|p| p.starts_with("algo")) {
        search.push("algo=uct".into());
    }
    let BotSpec::Mcts(search) = format!("mcts:{}", search.join(","))
        .parse()
        .map_err(|e: BotSpecError| e.why)?
    else {
        unreachable!("mcts: settings make an mcts bot");
    };
    Ok(BotSpec::Exploiter {
        search,
        config,
        target: Box::new(target),
    })
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Heuristic => f.write_str("heuristic"),
            BotSpec::Mcts(c) => {
                f.write_str(&<Mcts as Bot<crate::games::Unscaled>>::name(&Mcts::new(*c)))
            }
            BotSpec::Command(words) => write!(f, "cmd:{}", words.join(" ")),
            BotSpec::Exploiter {
                search,
                config,
                target,
            } => write!(
                f,
                "exploiter({}, {}) of {target}",
                <Mcts as Bot<crate::games::Unscaled>>::name(&Mcts::new(*search)),
                crate::exploiter::depth_text(config.depth)
            ),
        }
    }
}

/// Why a bot cannot be made or run.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The game's options are wrong.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// No bots for this game.
    #[error("no bots for `{0}`")]
    UnknownGame(String),
    /// The program of a `cmd:` bot did not start.
    #[error("starting `{command}`: {error}")]
    Spawn {
        /// The command.
        command: String,
        /// Why.
        error: std::io::Error,
    },
    /// A step the host gave the bot does not fit the game.
    #[error("the bot could not follow the game: {0}")]
    Step(String),
    /// The bot protocol failed.
    #[error(transparent)]
    Engine(#[from] protocol::EngineError),
    /// What an exact strategy needs is missing ([`BotGame::prepare_exact`]: classic Goofspiel's
    /// solved table).
    #[error("{0}")]
    Exact(String),
}

/// Whether `spec` plays a solved game's exact equilibrium ([`MctsConfig::exact`], the `hard`
/// level), itself or as an exploiter's target.
#[must_use]
pub fn wants_exact(spec: &BotSpec) -> bool {
    match spec {
        BotSpec::Mcts(config) => config.exact,
        BotSpec::Exploiter { search, target, .. } => search.exact || wants_exact(target),
        _ => false,
    }
}

/// Makes ready what `spec` needs in `game` ([`BotGame::prepare_exact`] where it plays exactly).
fn prepare<G: BotGame>(game: &G, spec: &BotSpec) -> Result<(), BotError> {
    if wants_exact(spec) {
        game.prepare_exact().map_err(BotError::Exact)?;
    }
    Ok(())
}

/// A bot that follows a game through its text steps and moves for a seat on request (the
/// terminal's opponent).
pub trait SeatPlayer: Send {
    /// The bot's name.
    fn name(&self) -> String;
    /// Follows a step that was applied to the game (the full step, as the host records it; the
    /// bot still only sees its seat's observation).
    fn observe(&mut self, step: &TextStep) -> Result<(), BotError>;
    /// The move of `seat` now, in notation.
    fn choose(&mut self, seat: Seat) -> String;
}

/// The bots of one game.
pub trait GameBots: Sync {
    /// The game's id.
    fn id(&self) -> &'static str;
    /// The heuristic bot's description, or `None` when the game falls back to the generic
    /// lookahead.
    fn heuristic(&self) -> Option<&'static str>;
    /// Runs an arena between `a` and `b`; `progress` is called after each game.
    fn arena(
        &self,
        options: &RawOptions,
        a: &BotSpec,
        b: &BotSpec,
        config: ArenaConfig,
        progress: &(dyn Fn(&GameResult) + Sync),
    ) -> Result<(ArenaReport, Vec<GameResult>), BotError>;
    /// The bot `spec` with every setting spelled out ([`BotSpec::canonical`]) as it plays this
    /// game with `options`: the levels' exploration is this game's number
    /// ([`crate::BotGame::level_gamma`]); what a match record keeps. Options this game refuses
    /// leave it to the game (`gamma=level`).
    fn canonical(&self, options: &RawOptions, spec: &BotSpec) -> String;
    /// Checks that the bot `spec` can play this game with `options` as it should, making ready
    /// what it needs (classic Goofspiel's table for `hard`: read or solved here, so it may take
    /// a moment the first time); the error says what is missing. The arena and the seat players
    /// check this themselves.
    fn check(&self, options: &RawOptions, spec: &BotSpec) -> Result<(), BotError>;
    /// A bot that plays this game for the terminal.
    fn seat_player(
        &self,
        options: &RawOptions,
        spec: &BotSpec,
        seed: u64,
    ) -> Result<Box<dyn SeatPlayer>, BotError>;
    /// Serves the bot protocol on `input`/`output` with the bot `spec`.
    fn serve(
        &self,
        spec: &BotSpec,
        seed: u64,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
    ) -> Result<u64, BotError>;
    /// Analyses every decision of `record` ([`crate::analysis`]); `progress(done, total)` after
    /// each decision.
    fn analyse(
        &self,
        record: &Record,
        config: &AnalysisConfig,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Analysis, BotError>;
    /// The whole game tree with `options`, for the exact judge ([`crate::exact_judge::build`]);
    /// refused with more than `max_nodes` nodes; `extra`: moves added to information sets.
    fn exact_tree(
        &self,
        options: &RawOptions,
        max_nodes: usize,
        extra: &std::collections::HashMap<String, Vec<String>>,
    ) -> Result<crate::exact_judge::Tree, String>;
}

/// The bots of a typed game: its id and constructor.
pub struct Typed<G> {
    /// The game's id.
    pub id: &'static str,
    /// Creates the game from options.
    pub new: fn(&RawOptions) -> Result<G, OptionsError>,
}

/// Makes the bot `spec` for `G`.
pub fn make_bot<G: BotGame>(
    spec: &BotSpec,
    id: &'static str,
    options: &RawOptions,
) -> Result<Box<dyn Bot<G>>, BotError> {
    Ok(match spec {
        BotSpec::Random => Box::new(RandomBot),
        BotSpec::Heuristic => Box::new(HeuristicBot),
        BotSpec::Mcts(config) => Box::new(Mcts::new(*config)),
        BotSpec::Exploiter {
            search,
            config,
            target,
        } => Box::new(Exploiter::new(
            *search,
            *config,
            make_bot::<G>(target, id, options)?,
        )),
        BotSpec::Command(words) => Box::new(ExternalBot::spawn(words, id, options).map_err(
            |error| BotError::Spawn {
                command: words.join(" "),
                error,
            },
        )?),
    })
}

impl<G: BotGame> GameBots for Typed<G> {
    fn id(&self) -> &'static str {
        self.id
    }

    fn canonical(&self, options: &RawOptions, spec: &BotSpec) -> String {
        match (self.new)(options) {
            Ok(game) => spec.resolved(game.level_gamma()).canonical(),
            Err(_) => spec.canonical(),
        }
    }

    fn heuristic(&self) -> Option<&'static str> {
        G::HAS_HEURISTIC.then(G::heuristic_description)
    }

    fn arena(
        &self,
        options: &RawOptions,
        a: &BotSpec,
        b: &BotSpec,
        config: ArenaConfig,
        progress: &(dyn Fn(&GameResult) + Sync),
    ) -> Result<(ArenaReport, Vec<GameResult>), BotError> {
        let first = (self.new)(options)?;
        prepare(&first, a)?;
        prepare(&first, b)?;
        // The levels' exploration as this game's number, so that the names say it.
        let (a, b) = (
            &a.resolved(first.level_gamma()),
            &b.resolved(first.level_gamma()),
        );
        let names = [
            make_bot::<G>(a, self.id, options)?.name(),
            make_bot::<G>(b, self.id, options)?.name(),
        ];
        // Bots are made once per worker; a program that fails to start is reported above.
        let make_a = || make_bot::<G>(a, self.id, options).expect("the bot started once");
        let make_b = || make_bot::<G>(b, self.id, options).expect("the bot started once");
        let start = std::time::Instant::now();
        let new_game = || first.clone();
        let results = arena::run(&new_game, options, [&make_a, &make_b], config, progress);
        let report = arena::report(self.id, names, &results, start.elapsed().as_secs_f64());
        Ok((report, results))
    }

    fn check(&self, options: &RawOptions, spec: &BotSpec) -> Result<(), BotError> {
        prepare(&(self.new)(options)?, spec)
    }

    fn seat_player(
        &self,
        options: &RawOptions,
        spec: &BotSpec,
        seed: u64,
    ) -> Result<Box<dyn SeatPlayer>, BotError> {
        let game = (self.new)(options)?;
        prepare(&game, spec)?;
        let spec = spec.resolved(game.level_gamma());
        Ok(Box::new(TypedSeatPlayer {
            game: Erased(game),
            bot: make_bot::<G>(&spec, self.id, options)?,
            steps: Vec::new(),
            rng: seeded_rng(seed),
        }))
    }

    fn exact_tree(
        &self,
        options: &RawOptions,
        max_nodes: usize,
        extra: &std::collections::HashMap<String, Vec<String>>,
    ) -> Result<crate::exact_judge::Tree, String> {
        let game = (self.new)(options).map_err(|e| e.to_string())?;
        crate::exact_judge::build(self.id, game, options, max_nodes, extra)
    }

    fn serve(
        &self,
        spec: &BotSpec,
        seed: u64,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
    ) -> Result<u64, BotError> {
        let mut bot = make_bot::<G>(spec, self.id, &RawOptions::new())?;
        let new = self.new;
        let new_game = move |raw: &RawOptions| new(raw).map_err(|e| e.to_string());
        let mut rng = seeded_rng(seed);
        Ok(protocol::serve(
            &new_game,
            bot.as_mut(),
            input,
            output,
            &mut rng,
        )?)
    }

    fn analyse(
        &self,
        record: &Record,
        config: &AnalysisConfig,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Analysis, BotError> {
        self.analyse_typed(record, config, progress)
    }
}

impl<G: BotGame> Typed<G> {
    fn analyse_typed(
        &self,
        record: &Record,
        config: &AnalysisConfig,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Analysis, BotError> {
        let initial = (self.new)(&record.options)?;
        initial.prepare_exact().map_err(BotError::Exact)?;
        let points_range = initial.points_range();
        let engine = BotSpec::Mcts(config.engine)
            .resolved(initial.level_gamma())
            .canonical();
        let replayed = colosseum_engine::replay(Box::new(Erased(initial.clone())), record)
            .map_err(|f| BotError::Step(f.error.to_string()))?;
        let decisions = crate::analysis::analyse(initial, &replayed.applied, config, progress)
            .map_err(|e| BotError::Step(e.to_string()))?;
        Ok(Analysis::new(
            self.id,
            engine,
            config.runs.max(1),
            points_range,
            decisions,
        ))
    }
}

struct TypedSeatPlayer<G: BotGame> {
    game: Erased<G>,
    bot: Box<dyn Bot<G>>,
    steps: Vec<TextStep>,
    rng: colosseum_engine::SeededRng,
}

impl<G: BotGame> SeatPlayer for TypedSeatPlayer<G> {
    fn name(&self) -> String {
        self.bot.name()
    }

    fn observe(&mut self, step: &TextStep) -> Result<(), BotError> {
        self.game
            .apply(step)
            .map_err(|e| BotError::Step(e.to_string()))?;
        self.steps.push(step.clone());
        Ok(())
    }

    fn choose(&mut self, seat: Seat) -> String {
        let observation = crate::Observation::from_record(&self.game.0, seat, &self.steps);
        let mv = self.bot.choose(&observation, &mut self.rng);
        self.game.0.format_move(&mv)
    }
}

/// Every game's bots, in the registry's order.
#[must_use]
pub fn bots() -> &'static [&'static dyn GameBots] {
    crate::games::BOTS
}

/// The bot `spec` with every setting spelled out as it plays game `id` with `options`
/// ([`GameBots::canonical`]: the levels' exploration written as that game's number); for a game
/// without bots, [`BotSpec::canonical`].
#[must_use]
pub fn canonical(id: &str, options: &RawOptions, spec: &BotSpec) -> String {
    find(id).map_or_else(|_| spec.canonical(), |b| b.canonical(options, spec))
}

/// The bots of game `id`.
pub fn find(id: &str) -> Result<&'static dyn GameBots, BotError> {
    crate::games::BOTS
        .iter()
        .copied()
        .find(|b| b.id() == id)
        .ok_or_else(|| BotError::UnknownGame(id.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_has_bots() {
        for entry in colosseum_games::registry() {
            let bots = find(entry.id).unwrap_or_else(|_| panic!("no bots for {}", entry.id));
            assert_eq!(bots.id(), entry.id);
        }
        assert_eq!(bots().len(), colosseum_games::registry().len());
    }

    #[test]
    fn levels_are_named_in_words_never_by_their_spec() {
        assert_eq!(level_name("heuristic"), "Computer: rule of thumb");
        assert_eq!(level_name("random"), "Computer: random moves");
        assert_eq!(level_name("mcts:easy"), "Computer: easy");
        assert_eq!(level_name("mcts:hard"), "Computer: hard");
        assert_eq!(level_name("mcts:ms=200"), "Computer: ms=200");
    }

    #[test]
    fn bot_names_parse() {
        assert_eq!("random".parse::<BotSpec>().unwrap(), BotSpec::Random);
        assert_eq!("heuristic".parse::<BotSpec>().unwrap(), BotSpec::Heuristic);
        assert_eq!(
            "mcts:iters=500,algo=uct".parse::<BotSpec>().unwrap(),
            BotSpec::Mcts(MctsConfig::uct(Budget::Iterations(500)))
        );
        assert_eq!(
            "mcts:ms=20".parse::<BotSpec>().unwrap(),
            BotSpec::Mcts(MctsConfig::regret_matching(Budget::Time(
                Duration::from_millis(20)
            )))
        );
        assert!(matches!(
            "mcts:hard".parse::<BotSpec>(),
            Ok(BotSpec::Mcts(_))
        ));
        assert_eq!(
            "cmd:python3 bot.py".parse::<BotSpec>().unwrap(),
            BotSpec::Command(vec!["python3".into(), "bot.py".into()])
        );
        assert_eq!(
            "mcts:iters=500,algo=uct,purify=0.5"
                .parse::<BotSpec>()
                .unwrap(),
            BotSpec::Mcts(MctsConfig {
                purify: Some(0.5),
                ..MctsConfig::uct(Budget::Iterations(500))
            })
        );
        let error = "mcts:iters=500,purify=2".parse::<BotSpec>().unwrap_err();
        assert!(
            error.why.contains("purify takes a share from 0 to 1"),
            "{error}"
        );
        assert!("mcts:fast".parse::<BotSpec>().is_err());
        assert!("chess-engine".parse::<BotSpec>().is_err());
    }

    /// Every bot's canonical name parses back to the same bot, with nothing left to a level.
    #[test]
    fn canonical_names_parse_back_to_the_same_bot() {
        for name in [
            "random",
            "heuristic",
            "mcts:easy",
            "mcts:medium",
            "mcts:hard",
            "mcts:iters=5000,model=0.5,algo=uct",
            "mcts:ms=200,algo=rm+,gamma=0.2,purify=0.3",
            "cmd:python3 bot.py",
            "exploiter:target=mcts:hard",
            "exploiter:iters=300,algo=rm,gamma=0.05,depth=3,views=2,samples=7,target=heuristic",
        ] {
            let spec: BotSpec = name.parse().unwrap();
            let canonical = spec.canonical();
            assert_eq!(
                canonical.parse::<BotSpec>().unwrap(),
                spec,
                "{name} -> {canonical}"
            );
            assert!(!canonical.contains("hard"), "{canonical}");
        }
        assert_eq!(
            "mcts:hard".parse::<BotSpec>().unwrap().canonical(),
            "mcts:iters=30000,algo=rm,gamma=level,model=0,exact=true,solve=true,withheld=search"
        );
    }

    /// A record keeps the levels' exploration as the game's number: 0.3 in the seed games,
    /// 0.3 × cards / 13 in classic Goofspiel (at most 0.3); an explicit `gamma` is kept as given, and a
    /// resolved name parses back to a bot that searches the same.
    #[test]
    fn records_spell_out_the_games_exploration() {
        let pairs = |p: &[&str]| colosseum_engine::parse_pairs(p.iter().copied()).unwrap();
        let easy: BotSpec = "mcts:easy".parse().unwrap();
        for (game, options, gamma) in [
            ("goofspiel", pairs(&[]), "0.3"),
            ("goofspiel", pairs(&["cards=5"]), "0.11538461538461539"),
            ("goofspiel", pairs(&["cards=64"]), "0.3"),
            ("square-goofspiel", pairs(&[]), "0.3"),
            ("witchs-brew", pairs(&[]), "0.3"),
        ] {
            let name = canonical(game, &options, &easy);
            assert_eq!(
                name,
                format!("mcts:iters=1000,algo=rm,gamma={gamma},model=0,exact=false,solve=false,withheld=search"),
                "{game} {options:?}"
            );
            let BotSpec::Mcts(c) = name.parse::<BotSpec>().unwrap() else {
                panic!("{name}");
            };
            assert_eq!(
                c.selection,
                Selection::RegretMatching {
                    gamma: Some(gamma.parse().unwrap()),
                    plus: false
                }
            );
        }
        let exploiter: BotSpec = "exploiter:target=mcts:medium".parse().unwrap();
        let name = canonical("goofspiel", &pairs(&["cards=4"]), &exploiter);
        assert!(
            name.ends_with("target=mcts:iters=6000,algo=rm,gamma=0.0923076923076923,model=0,exact=false,solve=false,withheld=search"),
            "{name}"
        );
        let fixed: BotSpec = "mcts:iters=500,algo=rm,gamma=0.2".parse().unwrap();
        assert!(canonical("goofspiel", &pairs(&["cards=5"]), &fixed).contains("gamma=0.2,"));
        assert_eq!(
            canonical("no-such-game", &pairs(&[]), &easy),
            easy.canonical()
        );
    }
}

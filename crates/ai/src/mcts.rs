//! Simultaneous-move Monte Carlo tree search, generic over the games.
//!
//! One tree is shared by every iteration; each iteration plans on a fresh determinization of the
//! bot's observation (for perfect-information games, a copy). At a decision node each acting seat
//! selects its own move independently (decoupled selection) by UCT or by regret matching, the
//! joint move leads to a child, chance outcomes are sampled and each new outcome gets a child of
//! its own. A new node is evaluated by a playout with the game's rollout moves; the result (in
//! `[0, 1]` for `p1`) is backed up along the path (a game may cut playouts short and score the
//! leaf with its evaluation). Where a seat has thousands of moves, progressive widening grows the
//! node's move list with visits, and games may restrict it to a few candidates (action
//! abstraction). With an opponent model, the other seat plays its heuristic's move in a share of
//! the iterations, so the search also learns the best answer to sensible play. At a simultaneous
//! decision the move played is drawn from the root's mixed strategy (visit counts for UCT, the
//! average strategy for regret matching), as a deterministic choice is exploitable there; where
//! the seat moves alone in view of its opponent, the most trusted move is played.

use std::collections::HashMap;
use std::time::Instant;

use colosseum_engine::{Game, Pending, Seat, SeededRng, Step, Viewer};
use rand::Rng;

use crate::{Bot, BotGame, Budget, Observation};

/// How each seat chooses its move at a node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// Decoupled UCT with exploration constant `c` (values in `[0, 1]`).
    Uct {
        /// The exploration constant.
        c: f64,
    },
    /// Regret matching with exploration `gamma` (Lanctot, Lisý & Winands 2013; Lisý, Kovařík,
    /// Lanctot & Bošanský 2013): each seat samples from its regret-matching strategy mixed with
    /// `gamma` of uniform exploration, the sampled move's value is importance-weighted (`u / p`,
    /// the others' 0) in the regret update, and the move played is drawn from the root's
    /// average strategy (exploration left out).
    RegretMatching {
        /// The share of uniform exploration mixed into the strategy; `None`: the game's own
        /// share for the levels ([`BotGame::level_gamma`], resolved when the search starts).
        gamma: Option<f64>,
        /// Regret matching+: cumulative regrets are floored at 0 after every update, and the
        /// average strategy weighs each visit by the node's visit count (later strategies,
        /// which are better, count more).
        plus: bool,
    },
}

impl Selection {
    /// This selection with `level_gamma` (the game's, [`BotGame::level_gamma`]) where regret
    /// matching was given no exploration of its own.
    #[must_use]
    pub fn resolved(self, level_gamma: f64) -> Self {
        match self {
            Selection::RegretMatching { gamma: None, plus } => Selection::RegretMatching {
                gamma: Some(level_gamma),
                plus,
            },
            other => other,
        }
    }
}

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Selection at decision nodes.
    pub selection: Selection,
    /// Thinking budget per decision.
    pub budget: Budget,
    /// At the root, moves whose probability is below this share of the most likely move's are
    /// dropped before drawing (noise from few visits), then the rest is renormalised. `None`:
    /// the game's own share ([`BotGame::PURIFY`]).
    pub purify: Option<f64>,
    /// The opponent model: at a node where the other seat acts, the probability that its move
    /// in this iteration is its heuristic's ([`BotGame::heuristic_move`], worked out once per
    /// node from what that seat sees) instead of its own selection. 0 searches for an
    /// equilibrium; above 0 the search also learns to answer a player who plays sensibly, which
    /// is what beats a fixed heuristic (and costs little against others, since the rest of the
    /// time the opponent still selects its best replies).
    pub opponent_model: f64,
    /// Play the game's exact equilibrium instead of searching where it has one
    /// ([`BotGame::equilibrium`]: classic Goofspiel with fixed prizes and few cards).
    pub exact: bool,
    /// At a simultaneous root (both seats act, nothing hidden, or hidden information that
    /// leaves the root's moves the same in every determinization:
    /// [`BotGame::ROOT_SOLVE_HIDDEN`]), play the equilibrium of the
    /// root's estimated matrix game instead of the average strategy: each joint move's mean
    /// result over the iterations that took it (shrunk towards an additive estimate where it
    /// was rarely taken), solved by linear programming. The average strategy of a few thousand
    /// regret-matching iterations is still far from an equilibrium of what the search has
    /// learned, and an opponent who knows it gains from the difference.
    pub root_solve: bool,
    /// Where this seat answers the other seat's face-down move (All-In Goofspiel's responder),
    /// plan from the position before that move: the other seat chooses it in the tree by its own
    /// regret matching, among the moves this seat cannot tell apart from the one made
    /// ([`BotGame::withheld_root`]), so the face-down move is believed to be drawn from that
    /// seat's searched strategy rather than uniformly among the moves of its count. Only without
    /// an opponent model (which has its own belief, [`BotGame::model_withheld`]).
    pub search_withheld: bool,
}

impl MctsConfig {
    /// Decoupled UCT with the given budget.
    #[must_use]
    pub fn uct(budget: Budget) -> Self {
        MctsConfig {
            selection: Selection::Uct { c: 0.7 },
            budget,
            purify: None,
            opponent_model: 0.0,
            exact: false,
            root_solve: false,
            search_withheld: false,
        }
    }

    /// Regret matching with the given budget.
    #[must_use]
    pub fn regret_matching(budget: Budget) -> Self {
        MctsConfig {
            selection: Selection::RegretMatching {
                gamma: Some(0.1),
                plus: false,
            },
            budget,
            purify: None,
            opponent_model: 0.0,
            exact: false,
            root_solve: false,
            search_withheld: false,
        }
    }
}

/// What the last search did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Iterations run.
    pub iterations: u32,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Seconds spent.
    pub seconds: f64,
}

/// A target's strategy for a seat in a state: each move with its probability (what
/// [`Bot::mixed_strategy`] reports, or frequencies of its choices).
pub type Oracle<'a, G> = dyn FnMut(&G, Seat, &mut SeededRng) -> Vec<(<G as Game>::Move, f64)> + 'a;

/// The other seat modelled as a fixed target in search ([`Mcts::strategy_with`]).
pub struct TargetModel<'a, G: Game> {
    /// Asked for the target's strategy at a modelled node (a costly call: a search bot searches).
    pub oracle: &'a mut Oracle<'a, G>,
    /// How many of the other seat's decisions along each path are the target's (1: only its
    /// next decision; beyond, it searches as usual).
    pub depth: u32,
    /// At most this many calls per node where information is hidden (each view of the other
    /// seat that a determinization gives is a call; past the cap a known answer is reused where
    /// its move is legal).
    pub views: usize,
}

/// The simultaneous-move MCTS bot.
#[derive(Clone, Debug)]
pub struct Mcts {
    config: MctsConfig,
    last: SearchStats,
}

impl Mcts {
    /// A search bot with `config`.
    #[must_use]
    pub fn new(config: MctsConfig) -> Self {
        Mcts {
            config,
            last: SearchStats::default(),
        }
    }

    /// What the last decision's search did.
    #[must_use]
    pub fn last_search(&self) -> SearchStats {
        self.last
    }

    /// Searches and returns the root's mixed strategy for the observation's seat: each candidate
    /// move with its probability (before purification).
    pub fn strategy<G: BotGame>(
        &mut self,
        observation: &Observation<'_, G>,
        rng: &mut SeededRng,
    ) -> Vec<(G::Move, f64)> {
        self.strategy_with(observation, rng, None)
    }

    /// [`Mcts::strategy`], with the other seat's first decisions below the root played from a
    /// target's strategy ([`TargetModel`]) instead of searched: the search then learns the best
    /// answer to that target (the approximate best response of [`crate::exploiter`]).
    pub fn strategy_with<G: BotGame>(
        &mut self,
        observation: &Observation<'_, G>,
        rng: &mut SeededRng,
        target: Option<TargetModel<'_, G>>,
    ) -> Vec<(G::Move, f64)> {
        let tree = self.search(observation, rng, target, None);
        let seat = observation.seat();
        let stats = &tree.nodes[tree.decision].seats[seat.index()];
        stats
            .moves
            .iter()
            .cloned()
            .zip(root_weights(&tree, seat, self.config.selection))
            .collect()
    }

    /// Searches like [`Mcts::strategy`] and returns what the root learned for the observation's
    /// seat: each root move with its probability in the root's strategy (the one
    /// [`Mcts::strategy`] returns), its visits and its mean result for the seat (in `[0, 1]`).
    /// `include` is put among the root's moves before the search starts (a move the analysis
    /// must value even where the game's candidate list would leave it out).
    pub fn root_estimate<G: BotGame>(
        &mut self,
        observation: &Observation<'_, G>,
        rng: &mut SeededRng,
        include: Option<&G::Move>,
    ) -> Vec<RootMove<G::Move>> {
        let tree = self.search(observation, rng, None, include);
        let seat = observation.seat();
        let stats = &tree.nodes[tree.decision].seats[seat.index()];
        let weights = root_weights(&tree, seat, self.config.selection);
        stats
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| RootMove {
                mv: m.clone(),
                probability: weights[i],
                visits: stats.visits[i],
                value: if stats.visits[i] > 0 {
                    stats.value[i] / f64::from(stats.visits[i])
                } else {
                    f64::NAN
                },
            })
            .collect()
    }

    fn search<G: BotGame>(
        &mut self,
        observation: &Observation<'_, G>,
        rng: &mut SeededRng,
        mut target: Option<TargetModel<'_, G>>,
        include: Option<&G::Move>,
    ) -> Tree<G> {
        let start = Instant::now();
        let seat = observation.seat();
        let mut tree: Tree<G> = Tree {
            nodes: vec![Node::default()],
            selection: self.config.selection.resolved(observation.level_gamma()),
            me: seat,
            model: self.config.opponent_model,
            allowed: Vec::new(),
            root_joint: HashMap::new(),
            root_solve: self.config.root_solve
                && G::ROOT_SOLVE
                && (!G::HIDDEN_INFORMATION || G::ROOT_SOLVE_HIDDEN)
                && observation.pending() == Pending::Both,
            decision: 0,
        };
        if let Budget::Iterations(n) = self.config.budget {
            // An iteration adds at most a decision node and the chance node above it: reserved
            // at once (up to a bound), the tree is not copied as it grows.
            tree.nodes
                .reserve((2 * self.iterations::<G>(n) as usize).min(MAX_RESERVED_NODES));
        }
        // Answering a face-down move: the tree starts before it, the other seat's node at the
        // root holding only the moves this seat cannot tell from the one made, and this seat's
        // decision is the node they all lead to (keyed by what it sees).
        let mut before = None;
        if self.config.search_withheld
            && G::FACE_DOWN_MOVES
            && self.config.opponent_model == 0.0
            && target.is_none()
        {
            let state = observation.determinize(rng);
            let mut moves = Vec::new();
            if let Some(earlier) = state.withheld_root(seat, rng, &mut moves) {
                if !moves.is_empty() {
                    let stats = &mut tree.nodes[0].seats[seat.other().index()];
                    for m in moves {
                        stats.push(m);
                    }
                    let child = tree.new_node();
                    tree.nodes[0]
                        .information
                        .insert(information_key(&state), child);
                    tree.decision = child;
                    before = Some(earlier);
                }
            }
        }
        if let Some(mv) = include {
            let state = observation.determinize(rng);
            let stats = &mut tree.nodes[tree.decision].seats[seat.index()];
            let mut moves = Vec::new();
            state.search_moves(seat, rng, &mut moves);
            for m in moves {
                stats.push(m);
            }
            stats.push(mv.clone());
        }
        let mut iterations = 0u32;
        loop {
            match self.config.budget {
                Budget::Iterations(n) if iterations >= self.iterations::<G>(n) => break,
                Budget::Time(t) if iterations > 0 && start.elapsed() >= t => break,
                _ => {}
            }
            let mut state = match &before {
                Some(earlier) => earlier.clone(),
                None => observation.determinize(rng),
            };
            if G::FACE_DOWN_MOVES
                && self.config.opponent_model > 0.0
                && rng.random_bool(self.config.opponent_model.min(1.0))
            {
                if let Some(modelled) = state.model_withheld(seat, rng) {
                    state = modelled;
                }
            }
            tree.iterate(state, rng, target.as_mut());
            iterations += 1;
        }
        self.last = SearchStats {
            iterations,
            nodes: tree.nodes.len(),
            seconds: start.elapsed().as_secs_f64(),
        };
        tree
    }
}

/// One root move of a search ([`Mcts::root_estimate`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Its probability in the root's strategy (before purification).
    pub probability: f64,
    /// Iterations that took it.
    pub visits: u32,
    /// Its mean result for the searching seat, in `[0, 1]` (`NaN` when never taken).
    pub value: f64,
}

/// The root's strategy for `seat` as weights summing to 1 over its moves: the root's solved
/// matrix game ([`MctsConfig::root_solve`]) where there is one, else visit counts (UCT) or the
/// average strategy (regret matching).
fn root_weights<G: BotGame>(tree: &Tree<G>, seat: Seat, selection: Selection) -> Vec<f64> {
    let stats = &tree.nodes[tree.decision].seats[seat.index()];
    let solved = if tree.root_solve {
        root_equilibrium(tree, seat)
    } else {
        None
    };
    let weights: Vec<f64> = match (solved, selection) {
        (Some(weights), _) => weights,
        (None, Selection::Uct { .. }) => stats.visits.iter().map(|&v| f64::from(v)).collect(),
        (None, Selection::RegretMatching { .. }) => {
            // A lone seat's node searched by UCT ([`BotGame::LONE_MOVES_BY_UCT`]) has no
            // average strategy: its visits stand in.
            if G::LONE_MOVES_BY_UCT && stats.average.iter().all(|&w| w == 0.0) {
                stats.visits.iter().map(|&v| f64::from(v)).collect()
            } else {
                stats.average.clone()
            }
        }
    };
    let total: f64 = weights.iter().sum();
    weights
        .into_iter()
        .map(|w| if total > 0.0 { w / total } else { 0.0 })
        .collect()
}

impl<G: BotGame> Bot<G> for Mcts {
    fn name(&self) -> String {
        let algo = match self.config.selection {
            Selection::Uct { .. } => "uct".to_string(),
            Selection::RegretMatching { gamma, plus } => {
                let name = if plus { "rm+" } else { "rm" };
                match gamma {
                    None => format!("{name}, the level's gamma"),
                    Some(gamma) if (gamma - 0.1).abs() > 1e-12 => format!("{name}, gamma {gamma}"),
                    Some(_) => name.to_string(),
                }
            }
        };
        let mut settings = String::new();
        if self.config.opponent_model > 0.0 {
            settings.push_str(&format!(", model {}", self.config.opponent_model));
        }
        if let Some(p) = self.config.purify {
            settings.push_str(&format!(", purify {p}"));
        }
        if self.config.exact {
            settings.push_str(", exact");
        }
        if self.config.root_solve {
            settings.push_str(", root solved");
        }
        match self.config.budget {
            Budget::Iterations(n) => {
                format!(
                    "mcts({algo}, {} iterations{settings})",
                    self.iterations::<G>(n)
                )
            }
            Budget::Time(t) => format!("mcts({algo}, {} ms{settings})", t.as_millis()),
        }
    }

    fn choose(&mut self, observation: &Observation<'_, G>, rng: &mut SeededRng) -> G::Move {
        let policy = self.policy(observation, rng);
        let mut x = rng.random::<f64>();
        for (m, p) in &policy {
            if x < *p {
                return m.clone();
            }
            x -= p;
        }
        match policy.last() {
            Some((m, _)) => m.clone(),
            None => observation
                .random_move(rng)
                .expect("a bot is asked only when its seat acts"),
        }
    }

    /// The distribution [`Bot::choose`] draws from, so a judge reads the policy the bot plays.
    fn mixed_strategy(
        &mut self,
        observation: &Observation<'_, G>,
        rng: &mut SeededRng,
    ) -> Option<Vec<(G::Move, f64)>> {
        Some(self.policy(observation, rng)).filter(|p| !p.is_empty())
    }
}

impl Mcts {
    /// The move distribution at this decision, legal moves only, summing to 1 (empty if the
    /// search found nothing legal): the solved equilibrium ([`MctsConfig::exact`]) or endgame
    /// where there is one; else the root's strategy: the most trusted move alone where the seat
    /// moves by itself in view of its opponent, otherwise the strategy after purification.
    fn policy<G: BotGame>(
        &mut self,
        observation: &Observation<'_, G>,
        rng: &mut SeededRng,
    ) -> Vec<(G::Move, f64)> {
        let start = Instant::now();
        let normalized = |moves: Vec<(G::Move, f64)>| {
            let kept: Vec<_> = moves
                .into_iter()
                .filter(|(m, p)| *p > 0.0 && observation.check_move(m).is_ok())
                .collect();
            let total: f64 = kept.iter().map(|(_, p)| p).sum();
            kept.into_iter()
                .map(|(m, p)| (m, p / total))
                .collect::<Vec<_>>()
        };
        let solved = if self.config.exact {
            observation.determinize(rng).equilibrium(observation.seat())
        } else {
            None
        };
        if let Some(exact) =
            solved.or_else(|| observation.determinize(rng).endgame(observation.seat()))
        {
            self.last = SearchStats {
                iterations: 0,
                nodes: 0,
                seconds: start.elapsed().as_secs_f64(),
            };
            let exact = normalized(exact);
            if !exact.is_empty() {
                return exact;
            }
        }
        let strategy = self.strategy(observation, rng);
        let best = strategy.iter().map(|(_, p)| *p).fold(0.0, f64::max);
        if observation.pending() == Pending::One(observation.seat()) && !G::FACE_DOWN_MOVES {
            // Alone to move and seen by the opponent before it answers, nothing is gained by
            // mixing: play the move the search trusts most.
            if let Some((m, _)) = strategy
                .iter()
                .find(|(m, p)| *p >= best && observation.check_move(m).is_ok())
            {
                return vec![(m.clone(), 1.0)];
            }
        }
        let purify = self.config.purify.unwrap_or(G::PURIFY);
        normalized(
            strategy
                .into_iter()
                .filter(|(_, p)| *p >= purify * best)
                .collect(),
        )
    }
}

/// An iteration budget of `n` in game `G` ([`BotGame::SEARCH_SCALE`]), at least 1.
fn scaled<G: BotGame>(n: u32) -> u32 {
    ((f64::from(n) * G::SEARCH_SCALE).round() as u32).max(1)
}

impl Mcts {
    /// The iterations this search runs for a budget of `n` in game `G`: [`scaled`], and for
    /// regret matching also [`BotGame::REGRET_MATCHING_SCALE`], at least 1.
    fn iterations<G: BotGame>(&self, n: u32) -> u32 {
        match self.config.selection {
            Selection::RegretMatching { .. } if G::REGRET_MATCHING_SCALE != 1.0 => {
                ((f64::from(n) * G::SEARCH_SCALE * G::REGRET_MATCHING_SCALE).round() as u32).max(1)
            }
            _ => scaled::<G>(n),
        }
    }
}

/// One seat's statistics at a decision node.
#[derive(Clone, Debug)]
struct SeatStats<M> {
    moves: Vec<M>,
    visits: Vec<u32>,
    /// Sum of the seat's own values (UCT).
    value: Vec<f64>,
    /// Cumulative regret (regret matching).
    regret: Vec<f64>,
    /// Cumulative strategy (regret matching).
    average: Vec<f64>,
}

impl<M> Default for SeatStats<M> {
    fn default() -> Self {
        SeatStats {
            moves: Vec::new(),
            visits: Vec::new(),
            value: Vec::new(),
            regret: Vec::new(),
            average: Vec::new(),
        }
    }
}

impl<M: PartialEq> SeatStats<M> {
    fn push(&mut self, mv: M) -> bool {
        if self.moves.contains(&mv) {
            return false;
        }
        self.moves.push(mv);
        self.visits.push(0);
        self.value.push(0.0);
        self.regret.push(0.0);
        self.average.push(0.0);
        true
    }
}

#[derive(Clone, Debug)]
struct Node<G: Game> {
    visits: u32,
    seats: [SeatStats<G::Move>; 2],
    joint: HashMap<(u32, u32), usize>,
    chance: Vec<(G::Chance, usize)>,
    /// In games with hidden information, children keyed by what the next actors see (see
    /// `Tree::information_key`), so that a seat's node never depends on what it cannot see.
    information: HashMap<Vec<u8>, usize>,
    /// The index of each seat's heuristic move in its list, once worked out (opponent model).
    heuristic: [Option<u32>; 2],
    /// The target's strategy at this node ([`TargetModel`]), per view of the modelled seat (one
    /// entry where information is public): indices into its move list with probabilities.
    target: Vec<(String, Vec<(u32, f64)>)>,
}

impl<G: Game> Default for Node<G> {
    fn default() -> Self {
        Node {
            visits: 0,
            seats: [SeatStats::default(), SeatStats::default()],
            joint: HashMap::new(),
            chance: Vec::new(),
            information: HashMap::new(),
            heuristic: [None, None],
            target: Vec::new(),
        }
    }
}

/// One step of the path: the node, each seat's choice (`u32::MAX` for a seat that does not act)
/// and the probability it was chosen with (regret matching). A move dictated by the opponent
/// model is played but not learned from (`learn` false).
struct Visit {
    node: usize,
    choice: [(u32, f64); 2],
    learn: [bool; 2],
    /// Regret matching where information is hidden: the moves the seat could choose among in
    /// this determinization (empty: all of them), the only ones whose regrets are updated.
    allowed: [Vec<u32>; 2],
}

struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    selection: Selection,
    /// The seat the search plays.
    me: Seat,
    /// The opponent model's probability (`MctsConfig::opponent_model`).
    model: f64,
    /// The moves the last regret-matching selection chose among, where information is hidden
    /// and some listed moves were not legal in the determinization (else empty).
    allowed: Vec<u32>,
    /// At the root, each joint move's (sum of `p1`'s results, count), when both seats act there
    /// ([`MctsConfig::root_solve`]).
    root_joint: HashMap<(u32, u32), (f64, u32)>,
    /// Whether `root_joint` is kept: only a search that will solve its root pays for it.
    root_solve: bool,
    /// The node of the searching seat's decision: the root, or below it where the search
    /// starts before the other seat's face-down move ([`MctsConfig::search_withheld`]).
    decision: usize,
}

const NONE: u32 = u32::MAX;

impl<G: BotGame> Tree<G> {
    fn iterate(
        &mut self,
        mut state: G,
        rng: &mut SeededRng,
        mut target: Option<&mut TargetModel<'_, G>>,
    ) {
        let mut path: Vec<Visit> = Vec::new();
        let mut node = 0usize;
        // The other seat's decisions met on this path (the target plays the first `depth`).
        let mut other_decisions = 0u32;
        let value = loop {
            match state.pending() {
                Pending::Over => break state.evaluate(),
                Pending::Chance => {
                    let Some(outcome) = state.sample_chance(rng) else {
                        break state.evaluate();
                    };
                    let child = match self.nodes[node].chance.iter().find(|(c, _)| *c == outcome) {
                        Some(&(_, child)) => child,
                        None => {
                            let child = self.new_node();
                            self.nodes[node].chance.push((outcome.clone(), child));
                            child
                        }
                    };
                    if state.apply(Step::Chance(outcome)).is_err() {
                        break state.evaluate();
                    }
                    node = child;
                }
                pending @ (Pending::Both | Pending::One(_)) => {
                    if node != 0 && self.nodes[node].visits == 0 {
                        self.nodes[node].visits = 1;
                        break rollout(state, rng);
                    }
                    let mut choice = [(NONE, 1.0); 2];
                    let mut learn = [true; 2];
                    let mut allowed: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
                    for &seat in pending.seats() {
                        let targeted = match target.as_deref_mut() {
                            Some(t) if seat != self.me && other_decisions < t.depth => {
                                self.target_choice(node, &state, seat, rng, t)
                            }
                            _ => None,
                        };
                        let modelled = targeted.is_none()
                            && seat != self.me
                            && self.model > 0.0
                            && rng.random_bool(self.model.min(1.0));
                        let heuristic = if modelled {
                            self.heuristic_choice(node, &state, seat, rng)
                        } else {
                            targeted
                        };
                        choice[seat.index()] = match heuristic {
                            Some(i) => {
                                learn[seat.index()] = false;
                                (i, 1.0)
                            }
                            None => {
                                let c = self.select(node, &state, seat, rng);
                                allowed[seat.index()] = std::mem::take(&mut self.allowed);
                                c
                            }
                        };
                    }
                    if choice
                        .iter()
                        .zip(Seat::BOTH)
                        .any(|(c, s)| pending.includes(s) && c.0 == NONE)
                    {
                        break rollout(state, rng);
                    }
                    let key = (choice[0].0, choice[1].0);
                    let mv = |s: Seat| {
                        self.nodes[node].seats[s.index()].moves[choice[s.index()].0 as usize]
                            .clone()
                    };
                    let step = match pending {
                        Pending::Both => Step::Both {
                            p1: mv(Seat::P1),
                            p2: mv(Seat::P2),
                        },
                        Pending::One(seat) => Step::One { seat, mv: mv(seat) },
                        _ => unreachable!(),
                    };
                    if pending.includes(self.me.other()) {
                        other_decisions += 1;
                    }
                    path.push(Visit {
                        node,
                        choice,
                        learn,
                        allowed,
                    });
                    if state.apply(step).is_err() {
                        break state.evaluate();
                    }
                    if G::HIDDEN_INFORMATION {
                        // The next actor's node is found by what it sees, not by the move made:
                        // a responder cannot tell apart the face-down plays of the same count.
                        let info = information_key(&state);
                        node = match self.nodes[node].information.get(&info) {
                            Some(&child) => child,
                            None => {
                                let child = self.new_node();
                                self.nodes[node].information.insert(info, child);
                                child
                            }
                        };
                        continue;
                    }
                    let child = match self.nodes[node].joint.get(&key) {
                        Some(&child) => child,
                        None => {
                            let child = self.new_node();
                            self.nodes[node].joint.insert(key, child);
                            child
                        }
                    };
                    node = child;
                }
            }
        };
        for visit in path {
            self.update(visit, value);
        }
    }

    fn new_node(&mut self) -> usize {
        self.nodes.push(Node::default());
        self.nodes.len() - 1
    }

    /// The index of `seat`'s heuristic move at `node` (added to its list if new), worked out on
    /// the first call from `state`: the node is the same for every state in which `seat` sees
    /// the same (nodes are keyed by what the actors see where information is hidden).
    fn heuristic_choice(
        &mut self,
        node: usize,
        state: &G,
        seat: Seat,
        rng: &mut SeededRng,
    ) -> Option<u32> {
        if let Some(i) = self.nodes[node].heuristic[seat.index()] {
            if !G::HIDDEN_INFORMATION
                || state
                    .check_move(
                        seat,
                        &self.nodes[node].seats[seat.index()].moves[i as usize],
                    )
                    .is_ok()
            {
                return Some(i);
            }
            return None;
        }
        let mv = G::heuristic_move(&Observation::new(state, seat, &[]), rng);
        if state.check_move(seat, &mv).is_err() {
            return None;
        }
        let stats = &mut self.nodes[node].seats[seat.index()];
        if stats.moves.is_empty() {
            // Let the seat's own list start as usual, then add the heuristic's move to it.
            let mut moves = Vec::new();
            state.search_moves(seat, rng, &mut moves);
            for m in moves {
                stats.push(m);
            }
        }
        stats.push(mv.clone());
        let i = stats.moves.iter().position(|m| *m == mv)? as u32;
        self.nodes[node].heuristic[seat.index()] = Some(i);
        Some(i)
    }

    /// `seat`'s move at `node` drawn from the target's strategy (asked once per node and view
    /// of `seat`, at most `views` times per node), as an index into its move list; `None` where
    /// the target has no legal move to offer in this determinization.
    fn target_choice(
        &mut self,
        node: usize,
        state: &G,
        seat: Seat,
        rng: &mut SeededRng,
        target: &mut TargetModel<'_, G>,
    ) -> Option<u32> {
        let key = if G::HIDDEN_INFORMATION {
            serde_json::to_string(&state.view(Viewer::Seat(seat))).unwrap_or_default()
        } else {
            String::new()
        };
        let known = self.nodes[node].target.iter().position(|(k, _)| *k == key);
        let entry = match known {
            Some(i) => i,
            None if self.nodes[node].target.len() < target.views.max(1) => {
                let strategy = (target.oracle)(state, seat, rng);
                let stats = &mut self.nodes[node].seats[seat.index()];
                if stats.moves.is_empty() {
                    let mut moves = Vec::new();
                    state.search_moves(seat, rng, &mut moves);
                    for m in moves {
                        stats.push(m);
                    }
                }
                let mut indexed = Vec::with_capacity(strategy.len());
                for (mv, p) in strategy {
                    if p <= 0.0 {
                        continue;
                    }
                    stats.push(mv.clone());
                    let i = stats.moves.iter().position(|m| *m == mv)? as u32;
                    indexed.push((i, p));
                }
                self.nodes[node].target.push((key, indexed));
                self.nodes[node].target.len() - 1
            }
            None => rng.random_range(0..self.nodes[node].target.len()),
        };
        let (_, strategy) = &self.nodes[node].target[entry];
        let total: f64 = strategy.iter().map(|(_, p)| p).sum();
        let mut x = rng.random::<f64>() * total;
        let mut pick = strategy.last()?.0;
        for &(i, p) in strategy {
            if x < p {
                pick = i;
                break;
            }
            x -= p;
        }
        let mv = &self.nodes[node].seats[seat.index()].moves[pick as usize];
        (!G::HIDDEN_INFORMATION || state.check_move(seat, mv).is_ok()).then_some(pick)
    }

    /// The seat's choice at `node`: the index of a move and its selection probability.
    fn select(&mut self, node: usize, state: &G, seat: Seat, rng: &mut SeededRng) -> (u32, f64) {
        let n = &mut self.nodes[node];
        let stats = &mut n.seats[seat.index()];
        if stats.moves.is_empty() {
            let mut moves = Vec::new();
            state.search_moves(seat, rng, &mut moves);
            for m in moves {
                stats.push(m);
            }
            if stats.moves.is_empty() {
                if let Some(m) = state.sample_search_move(seat, rng) {
                    stats.push(m);
                }
            }
        }
        if let Some((c, alpha)) = G::widening() {
            let limit = (c * f64::from(n.visits.max(1)).powf(alpha)).ceil() as usize;
            if stats.moves.len() < limit {
                // A few tries: a draw may repeat a move already listed.
                for _ in 0..4 {
                    match state.sample_search_move(seat, rng) {
                        Some(m) => {
                            if stats.push(m) {
                                break;
                            }
                        }
                        None => break,
                    }
                }
            }
        }
        let stats = &n.seats[seat.index()];
        let allowed: Vec<usize> = if G::HIDDEN_INFORMATION {
            (0..stats.moves.len())
                .filter(|&i| state.check_move(seat, &stats.moves[i]).is_ok())
                .collect()
        } else {
            (0..stats.moves.len()).collect()
        };
        if allowed.is_empty() {
            let stats = &mut n.seats[seat.index()];
            if let Some(m) = state.sample_search_move(seat, rng) {
                if stats.push(m.clone()) {
                    return ((stats.moves.len() - 1) as u32, 1.0);
                }
                if let Some(i) = stats.moves.iter().position(|x| *x == m) {
                    return (i as u32, 1.0);
                }
            }
            return (NONE, 1.0);
        }
        let selection =
            if G::LONE_MOVES_BY_UCT && !G::FACE_DOWN_MOVES && state.pending() == Pending::One(seat)
            {
                Selection::Uct { c: LONE_UCT_C }
            } else {
                self.selection
            };
        match selection {
            Selection::Uct { c } => {
                let untried: Vec<usize> = allowed
                    .iter()
                    .copied()
                    .filter(|&i| stats.visits[i] == 0)
                    .collect();
                if !untried.is_empty() {
                    let i = untried[rng.random_range(0..untried.len())];
                    return (i as u32, 1.0);
                }
                let ln = f64::from(n.visits.max(1)).ln();
                let mut best = allowed[0];
                let mut best_score = f64::NEG_INFINITY;
                for &i in &allowed {
                    let v = f64::from(stats.visits[i]);
                    let score = stats.value[i] / v + c * (ln / v).sqrt();
                    if score > best_score {
                        best_score = score;
                        best = i;
                    }
                }
                (best as u32, 1.0)
            }
            Selection::RegretMatching { gamma, plus } => {
                // Resolved when the tree was built ([`Selection::resolved`]).
                let gamma = gamma.unwrap_or(crate::DEFAULT_LEVEL_GAMMA);
                let sigma = regret_matching(&stats.regret, &allowed, gamma);
                let weight = if plus {
                    f64::from(n.visits.max(1))
                } else {
                    1.0
                };
                let mut x = rng.random::<f64>();
                let mut pick = allowed.len() - 1;
                for (k, &p) in sigma.iter().enumerate() {
                    if x < p {
                        pick = k;
                        break;
                    }
                    x -= p;
                }
                let i = allowed[pick];
                if G::HIDDEN_INFORMATION && allowed.len() < n.seats[seat.index()].moves.len() {
                    self.allowed = allowed.iter().map(|&j| j as u32).collect();
                }
                let stats = &mut n.seats[seat.index()];
                // The average strategy leaves the exploration out: it accumulates the regret-
                // matching strategy itself (the share `1 - gamma` of what is sampled).
                let k = allowed.len() as f64;
                for (q, &j) in allowed.iter().enumerate() {
                    stats.average[j] += weight * (sigma[q] - gamma / k).max(0.0);
                }
                (i as u32, sigma[pick])
            }
        }
    }

    fn update(&mut self, visit: Visit, value_p1: f64) {
        if self.root_solve && visit.node == 0 && visit.choice.iter().all(|c| c.0 != NONE) {
            let cell = self
                .root_joint
                .entry((visit.choice[0].0, visit.choice[1].0))
                .or_insert((0.0, 0));
            cell.0 += value_p1;
            cell.1 += 1;
        }
        let node = &mut self.nodes[visit.node];
        node.visits += 1;
        for seat in Seat::BOTH {
            let (i, p) = visit.choice[seat.index()];
            if i == NONE || !visit.learn[seat.index()] {
                continue;
            }
            let u = if seat == Seat::P1 {
                value_p1
            } else {
                1.0 - value_p1
            };
            let stats = &mut node.seats[seat.index()];
            let i = i as usize;
            stats.visits[i] += 1;
            stats.value[i] += u;
            if let Selection::RegretMatching { .. } = self.selection {
                // Sampled regret: the chosen move's estimated value is u / p, the others' 0;
                // every regret is measured against the value received.
                let allowed = &visit.allowed[seat.index()];
                if allowed.is_empty() {
                    for r in &mut stats.regret {
                        *r -= u;
                    }
                } else {
                    for &j in allowed {
                        stats.regret[j as usize] -= u;
                    }
                }
                stats.regret[i] += u / p.max(1e-9);
                if let Selection::RegretMatching { plus: true, .. } = self.selection {
                    for r in &mut stats.regret {
                        *r = r.max(0.0);
                    }
                }
            }
        }
    }
}

/// The most tree nodes a search reserves room for before it starts (a larger tree grows as
/// needed).
const MAX_RESERVED_NODES: usize = 1 << 17;

/// UCT's exploration at a lone seat's node under [`BotGame::LONE_MOVES_BY_UCT`] (the old
/// search's constant).
const LONE_UCT_C: f64 = 0.7;

/// Moves at most this many per seat enter the root's matrix game (the most visited).
const ROOT_SOLVE_MOVES: usize = 40;

/// How many pseudo-samples of the additive estimate a root cell's mean is shrunk with.
const ROOT_SOLVE_PRIOR: f64 = 4.0;

/// The root is solved only with at least this many results per joint move on average (Thwart
/// Omega's 15,000 iterations over 40 × 40 candidate moves give about 9, and solving still paid).
const ROOT_SOLVE_MIN_PER_CELL: f64 = 4.0;

/// `seat`'s equilibrium strategy in the root's estimated matrix game ([`MctsConfig::root_solve`]),
/// as weights over its root moves; `None` where there is no joint root to solve.
fn root_equilibrium<G: BotGame>(tree: &Tree<G>, seat: Seat) -> Option<Vec<f64>> {
    let root = &tree.nodes[0];
    let top = |s: Seat| {
        let visits = &root.seats[s.index()].visits;
        let mut order: Vec<usize> = (0..visits.len()).filter(|&i| visits[i] > 0).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(visits[i]));
        order.truncate(ROOT_SOLVE_MOVES);
        order
    };
    let rows = top(Seat::P1);
    let cols = top(Seat::P2);
    if rows.len() < 2 || cols.len() < 2 {
        return None;
    }
    // Additive estimate: a row's mean plus a column's mean minus the overall mean.
    let mut row_sum = vec![(0.0, 0u32); root.seats[0].moves.len()];
    let mut col_sum = vec![(0.0, 0u32); root.seats[1].moves.len()];
    let (mut total, mut count) = (0.0, 0u32);
    for (&(i, j), &(v, n)) in &tree.root_joint {
        let (i, j) = (i as usize, j as usize);
        if i < row_sum.len() && j < col_sum.len() {
            row_sum[i].0 += v;
            row_sum[i].1 += n;
            col_sum[j].0 += v;
            col_sum[j].1 += n;
            total += v;
            count += n;
        }
    }
    // Too few results per joint move (a costly game's small budget over many moves): the
    // matrix would be mostly guesses; the average strategy is the better estimate.
    if f64::from(count) < ROOT_SOLVE_MIN_PER_CELL * (rows.len() * cols.len()) as f64 {
        return None;
    }
    let overall = total / f64::from(count);
    let mean = |(v, n): (f64, u32)| {
        if n > 0 {
            v / f64::from(n)
        } else {
            overall
        }
    };
    let matrix: Vec<Vec<f64>> = rows
        .iter()
        .map(|&i| {
            cols.iter()
                .map(|&j| {
                    let prior = (mean(row_sum[i]) + mean(col_sum[j]) - overall).clamp(0.0, 1.0);
                    let (v, n) = tree
                        .root_joint
                        .get(&(i as u32, j as u32))
                        .copied()
                        .unwrap_or((0.0, 0));
                    (v + ROOT_SOLVE_PRIOR * prior) / (f64::from(n) + ROOT_SOLVE_PRIOR)
                })
                .collect()
        })
        .collect();
    let solution = crate::solver::solve_matrix_game(&matrix).ok()?;
    let (mine, strategy) = match seat {
        Seat::P1 => (&rows, &solution.row),
        Seat::P2 => (&cols, &solution.column),
    };
    let mut weights = vec![0.0; root.seats[seat.index()].moves.len()];
    for (&i, &p) in mine.iter().zip(strategy) {
        weights[i] = p;
    }
    Some(weights)
}

/// What the seats about to act see (the spectator's view before chance or at the end): the
/// game's compact encoding ([`BotGame::information_bytes`]) or else the views' JSON.
fn information_key<G: BotGame>(state: &G) -> Vec<u8> {
    let viewers: &[Viewer] = match state.pending() {
        Pending::One(Seat::P1) => &[Viewer::Seat(Seat::P1)],
        Pending::One(Seat::P2) => &[Viewer::Seat(Seat::P2)],
        Pending::Both => &[Viewer::Seat(Seat::P1), Viewer::Seat(Seat::P2)],
        Pending::Chance | Pending::Over => &[Viewer::Spectator],
    };
    let mut key = Vec::new();
    for &v in viewers {
        if !state.information_bytes(v, &mut key) {
            key.extend_from_slice(&serde_json::to_vec(&state.view(v)).unwrap_or_default());
        }
        key.push(b'|');
    }
    key
}

/// The regret-matching strategy over `allowed`, mixed with `gamma` of uniform exploration.
fn regret_matching(regret: &[f64], allowed: &[usize], gamma: f64) -> Vec<f64> {
    let k = allowed.len() as f64;
    let positive: Vec<f64> = allowed.iter().map(|&i| regret[i].max(0.0)).collect();
    let total: f64 = positive.iter().sum();
    positive
        .iter()
        .map(|&r| {
            let base = if total > 0.0 { r / total } else { 1.0 / k };
            (1.0 - gamma) * base + gamma / k
        })
        .collect()
}

/// Plays the game out with its rollout moves; returns the value for `p1`.
pub(crate) fn rollout<G: BotGame>(mut state: G, rng: &mut SeededRng) -> f64 {
    loop {
        let step = match state.pending() {
            Pending::Over => return state.evaluate(),
            Pending::Chance => match state.sample_chance(rng) {
                Some(c) => Step::Chance(c),
                None => return state.evaluate(),
            },
            Pending::One(seat) => match state.rollout_move(seat, rng) {
                Some(mv) => Step::One { seat, mv },
                None => return state.evaluate(),
            },
            Pending::Both => match (
                state.rollout_move(Seat::P1, rng),
                state.rollout_move(Seat::P2, rng),
            ) {
                (Some(p1), Some(p2)) => Step::Both { p1, p2 },
                _ => return state.evaluate(),
            },
        };
        if state.apply(step).is_err() {
            return state.evaluate();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colosseum_games::goofspiel::Goofspiel;

    /// A root where each seat has two moves and the joint results (for `p1`) are `values`,
    /// each cell seen `n` times.
    fn root(values: [[f64; 2]; 2], n: u32) -> Tree<Goofspiel> {
        let options = colosseum_engine::parse_pairs(["order=descending"]).unwrap();
        let game = Goofspiel::from_raw(&options).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(Seat::P1, &mut moves);
        let mut tree: Tree<Goofspiel> = Tree {
            nodes: vec![Node::default()],
            selection: Selection::RegretMatching {
                gamma: Some(0.3),
                plus: false,
            },
            me: Seat::P1,
            model: 0.0,
            allowed: Vec::new(),
            root_joint: HashMap::new(),
            root_solve: true,
            decision: 0,
        };
        for seat in 0..2 {
            for m in &moves[..2] {
                tree.nodes[0].seats[seat].push(*m);
            }
            tree.nodes[0].seats[seat].visits = vec![2 * n, 2 * n];
        }
        for (i, row) in values.iter().enumerate() {
            for (j, &v) in row.iter().enumerate() {
                tree.root_joint
                    .insert((i as u32, j as u32), (v * f64::from(n), n));
            }
        }
        tree
    }

    /// The root's matrix game is solved for the seat asked: matching pennies is ½-½ for both;
    /// `[[1, 0], [0, ½]]` gives `p1` ⅓-⅔ (1·p = ½·(1 - p)) and `p2` ⅓-⅔ too.
    #[test]
    fn the_roots_estimated_matrix_game_is_solved() {
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.01);
        let pennies = root([[1.0, 0.0], [0.0, 1.0]], 100_000);
        for seat in Seat::BOTH {
            let w = root_equilibrium(&pennies, seat).unwrap();
            assert!(close(&w, &[0.5, 0.5]), "{seat:?}: {w:?}");
        }
        let skewed = root([[1.0, 0.0], [0.0, 0.5]], 100_000);
        let p1 = root_equilibrium(&skewed, Seat::P1).unwrap();
        assert!(close(&p1, &[1.0 / 3.0, 2.0 / 3.0]), "{p1:?}");
        let p2 = root_equilibrium(&skewed, Seat::P2).unwrap();
        assert!(close(&p2, &[1.0 / 3.0, 2.0 / 3.0]), "{p2:?}");
        // Too few results per cell: not solved (the average strategy is used).
        assert!(root_equilibrium(&root([[1.0, 0.0], [0.0, 1.0]], 3), Seat::P1).is_none());
        // A cell never tried is estimated from its row and column: a dominated row stays
        // dominated, the dominating column still chosen.
        let mut gap = root([[0.8, 0.6], [0.5, 0.3]], 100_000);
        gap.root_joint.remove(&(1, 1));
        let p1 = root_equilibrium(&gap, Seat::P1).unwrap();
        assert!(close(&p1, &[1.0, 0.0]), "{p1:?}");
        let p2 = root_equilibrium(&gap, Seat::P2).unwrap();
        assert!(close(&p2, &[0.0, 1.0]), "{p2:?}");
    }
}

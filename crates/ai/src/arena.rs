//! The arena: many seeded games between two bots, seats swapped every other game, with results
//! given as confidence intervals and an Elo difference.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use colosseum_engine::{seeded_rng, Game, Pending, Record, Seat, SeededRng, Step, TextStep};
use rand::Rng;
use serde::Serialize;

use crate::{Bot, BotGame, Observation};

/// How to run a match of many games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaConfig {
    /// How many games.
    pub games: u32,
    /// Worker threads (each plays whole games with its own bots).
    pub threads: usize,
    /// The seed: game `i` is played from a seed derived from this and `i` alone, so results do
    /// not depend on the number of threads.
    pub seed: u64,
}

/// One finished game, from bot A's side.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The game's index (A plays `p1` in even games).
    pub index: u32,
    /// A's seat.
    pub a_seat: Seat,
    /// `Some(true)` if A won, `Some(false)` if B won, `None` for a draw (or an unfinished game).
    pub a_won: Option<bool>,
    /// Seconds each bot (A, B) spent choosing, and how many decisions it made.
    pub think: [(f64, u32); 2],
    /// How many of each bot's (A, B) moves were refused and replaced: by the arena with the
    /// game's default move, or by the bot itself (a program's illegal reply).
    pub substituted: [u32; 2],
    /// The match record.
    pub record: Record,
}

/// A match's results from bot A's side.
#[derive(Clone, Debug, Serialize)]
pub struct ArenaReport {
    /// The game's id.
    pub game: String,
    /// Bot A's name.
    pub bot_a: String,
    /// Bot B's name.
    pub bot_b: String,
    /// Games played.
    pub games: u32,
    /// A's wins, draws and losses.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// A's losses.
    pub losses: u32,
    /// 95% Wilson intervals of the shares of wins, draws and losses.
    pub win_interval: Interval,
    /// See `win_interval`.
    pub draw_interval: Interval,
    /// See `win_interval`.
    pub loss_interval: Interval,
    /// A's share of the decided games, with its 95% Wilson interval.
    pub decided_win_share: Interval,
    /// A's score (a win 1, a draw 1/2) per game.
    pub score: f64,
    /// The Elo difference A − B with its 95% interval (normal approximation on the score).
    pub elo: Interval,
    /// A's wins as `p1` and as `p2`.
    pub wins_by_seat: [u32; 2],
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
    /// Mean think time per decision of A and B, in milliseconds.
    pub mean_think_ms: [f64; 2],
    /// How many moves of A and B, over all games, were refused and replaced (by the arena with
    /// the game's default move, or by a program's bot with a random one); a correct bot has 0.
    pub substituted: [u32; 2],
}

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The point estimate.
    pub estimate: f64,
    /// The lower bound.
    pub low: f64,
    /// The upper bound.
    pub high: f64,
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
#[must_use]
pub fn wilson(k: u32, n: u32) -> Interval {
    if n == 0 {
        return Interval {
            estimate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let z = 1.96f64;
    let n = f64::from(n);
    let p = f64::from(k) / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    Interval {
        estimate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The Elo difference that gives an expected score `s` (clamped away from 0 and 1).
#[must_use]
pub fn elo_of_score(s: f64) -> f64 {
    let s = s.clamp(1e-4, 1.0 - 1e-4);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The Elo difference with its 95% interval from wins, draws and losses. The score's variance
/// is estimated with one win and one loss added (as Agresti and Coull add two successes and two
/// failures to a proportion): a match of 40 draws, or of 40 wins, is not an interval of width
/// zero. The estimate itself is the games' own (a zero reads `+0`, never `-0`).
#[must_use]
pub fn elo(wins: u32, draws: u32, losses: u32) -> Interval {
    let n = f64::from(wins + draws + losses);
    if n == 0.0 {
        return Interval {
            estimate: 0.0,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let s = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    let (w, d, l) = (
        f64::from(wins) + 1.0,
        f64::from(draws),
        f64::from(losses) + 1.0,
    );
    let m = w + d + l;
    let centre = (w + 0.5 * d) / m;
    let var = (w * (1.0 - centre).powi(2) + d * (0.5 - centre).powi(2) + l * centre.powi(2)) / m;
    let se = (var / m).sqrt();
    // `+ 0.0` turns -0.0 into 0.0.
    Interval {
        estimate: elo_of_score(s) + 0.0,
        low: elo_of_score(s - 1.96 * se).min(elo_of_score(s)) + 0.0,
        high: elo_of_score(s + 1.96 * se).max(elo_of_score(s)) + 0.0,
    }
}

/// Summarises results.
#[must_use]
pub fn report(game: &str, names: [String; 2], results: &[GameResult], seconds: f64) -> ArenaReport {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut wins_by_seat = [0; 2];
    let mut think = [(0.0, 0u32); 2];
    let mut substituted = [0u32; 2];
    for r in results {
        match r.a_won {
            Some(true) => {
                wins += 1;
                wins_by_seat[r.a_seat.index()] += 1;
            }
            Some(false) => losses += 1,
            None => draws += 1,
        }
        for (total, game) in think.iter_mut().zip(r.think) {
            total.0 += game.0;
            total.1 += game.1;
        }
        for (total, game) in substituted.iter_mut().zip(r.substituted) {
            *total += game;
        }
    }
    let games = results.len() as u32;
    let [bot_a, bot_b] = names;
    ArenaReport {
        game: game.to_string(),
        bot_a,
        bot_b,
        games,
        wins,
        draws,
        losses,
        win_interval: wilson(wins, games),
        draw_interval: wilson(draws, games),
        loss_interval: wilson(losses, games),
        decided_win_share: wilson(wins, wins + losses),
        score: if games == 0 {
            0.0
        } else {
            (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games)
        },
        elo: elo(wins, draws, losses),
        wins_by_seat,
        seconds,
        games_per_second: if seconds > 0.0 {
            f64::from(games) / seconds
        } else {
            0.0
        },
        mean_think_ms: think.map(|(s, n)| {
            if n == 0 {
                0.0
            } else {
                1000.0 * s / f64::from(n)
            }
        }),
        substituted,
    }
}

/// One game played by [`play_game`], seats in order (`p1`, `p2`).
#[derive(Clone, Debug)]
pub struct PlayedGame<G> {
    /// The final state.
    pub game: G,
    /// The steps, in text.
    pub steps: Vec<TextStep>,
    /// Each seat's seconds thinking and decisions.
    pub think: [(f64, u32); 2],
    /// How many of each seat's moves were refused and replaced (see [`GameResult::substituted`]).
    pub substituted: [u32; 2],
}

/// Plays one game between `bots` (`p1` first) from `seed`. A move the game refuses is replaced
/// by the game's default move, as a host does at a deadline, and counted, with the moves a bot
/// replaced itself ([`Bot::take_replaced`]).
pub fn play_game<G: BotGame>(mut game: G, bots: [&mut dyn Bot<G>; 2], seed: u64) -> PlayedGame<G> {
    let mut chance_rng = seeded_rng(seed);
    let mut bot_rngs: [SeededRng; 2] = [
        seeded_rng(chance_rng.random()),
        seeded_rng(chance_rng.random()),
    ];
    let mut steps: Vec<TextStep> = Vec::new();
    let mut think = [(0.0, 0u32); 2];
    let mut substituted = [0u32; 2];
    loop {
        let pending = game.pending();
        let step = match pending {
            Pending::Over => break,
            Pending::Chance => match game.sample_chance(&mut chance_rng) {
                Some(c) => Step::Chance(c),
                None => break,
            },
            Pending::One(_) | Pending::Both => {
                let mut moves: [Option<G::Move>; 2] = [None, None];
                for &seat in pending.seats() {
                    let i = seat.index();
                    let observation = Observation::from_record(&game, seat, &steps);
                    let start = Instant::now();
                    let mut mv = bots[i].choose(&observation, &mut bot_rngs[i]);
                    think[i].0 += start.elapsed().as_secs_f64();
                    think[i].1 += 1;
                    // A program's refused reply, replaced by the bot itself, counts too.
                    substituted[i] += bots[i].take_replaced();
                    if game.check_move(seat, &mv).is_err() {
                        // A bot's illegal move is replaced by the game's default move, as a
                        // host does at a deadline, and counted: the report shows it.
                        substituted[i] += 1;
                        mv = game
                            .default_move(seat, &mut chance_rng)
                            .expect("the seat acts");
                    }
                    moves[i] = Some(mv);
                }
                match pending {
                    Pending::Both => Step::Both {
                        p1: moves[0].take().expect("p1 chose"),
                        p2: moves[1].take().expect("p2 chose"),
                    },
                    Pending::One(seat) => Step::One {
                        seat,
                        mv: moves[seat.index()].take().expect("the seat chose"),
                    },
                    _ => unreachable!(),
                }
            }
        };
        steps.push(text_step(&game, &step));
        game.apply(step).expect("checked moves are accepted");
    }
    PlayedGame {
        game,
        steps,
        think,
        substituted,
    }
}

/// A typed step in text form.
pub fn text_step<G: Game>(game: &G, step: &Step<G::Move, G::Chance>) -> TextStep {
    match step {
        Step::Both { p1, p2 } => TextStep::both(game.format_move(p1), game.format_move(p2)),
        Step::One { seat, mv } => TextStep::one(*seat, game.format_move(mv)),
        Step::Chance(c) => TextStep::chance(game.format_chance(c)),
    }
}

/// A pair by seat (`p1`, `p2`) as a pair by bot (A, B), A sitting at `a_seat`.
fn by_bot<T>(a_seat: Seat, [p1, p2]: [T; 2]) -> [T; 2] {
    if a_seat == Seat::P1 {
        [p1, p2]
    } else {
        [p2, p1]
    }
}

/// The seed of game `index` of a match seeded with `seed`.
#[must_use]
pub fn game_seed(seed: u64, index: u32) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(index).wrapping_mul(0xBF58_476D_1CE4_E5B9))
}

/// Makes a fresh bot for one worker.
pub type BotFactory<'a, G> = &'a (dyn Fn() -> Box<dyn Bot<G>> + Sync);

/// Plays `config.games` games between bot A and bot B (A is `p1` in even games), on
/// `config.threads` threads; `progress` is called after each game. Results come back in game
/// order.
pub fn run<G: BotGame>(
    new_game: &(dyn Fn() -> G + Sync),
    options: &colosseum_engine::RawOptions,
    make: [BotFactory<'_, G>; 2],
    config: ArenaConfig,
    progress: &(dyn Fn(&GameResult) + Sync),
) -> Vec<GameResult> {
    let next = AtomicU32::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                let mut a = make[0]();
                let mut b = make[1]();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    let seed = game_seed(config.seed, index);
                    let a_seat = if index.is_multiple_of(2) {
                        Seat::P1
                    } else {
                        Seat::P2
                    };
                    let game = new_game();
                    let played = if a_seat == Seat::P1 {
                        play_game(game, [a.as_mut(), b.as_mut()], seed)
                    } else {
                        play_game(game, [b.as_mut(), a.as_mut()], seed)
                    };
                    let end = played.game;
                    let a_won = end.outcome().and_then(|o| o.winner).map(|w| w == a_seat);
                    let mut record = Record::new(end.id(), options.clone(), seed);
                    record.steps = played.steps;
                    let result = GameResult {
                        index,
                        a_seat,
                        a_won,
                        think: by_bot(a_seat, played.think),
                        substituted: by_bot(a_seat, played.substituted),
                        record,
                    };
                    progress(&result);
                    results.lock().expect("no worker panicked").push(result);
                }
            });
        }
    });
    let mut results = results.into_inner().expect("no worker panicked");
    results.sort_by_key(|r| r.index);
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_and_elo_are_sane() {
        let w = wilson(80, 100);
        assert!((w.estimate - 0.8).abs() < 1e-12);
        assert!(w.low > 0.70 && w.low < 0.72, "{w:?}");
        assert!(w.high > 0.86 && w.high < 0.88, "{w:?}");
        let e = elo(50, 0, 50);
        assert!(e.estimate.abs() < 1e-9);
        assert!(e.low < -60.0 && e.high > 60.0);
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.1);
    }

    #[test]
    fn forty_draws_are_an_even_match_with_an_interval_not_a_point() {
        let e = elo(0, 40, 0);
        assert_eq!(e.estimate.to_bits(), 0.0_f64.to_bits(), "+0, not -0");
        assert_eq!(format!("{:+.0}", e.estimate), "+0");
        assert!(e.low < -10.0 && e.high > 10.0, "{e:?}");
        assert!((e.low + e.high).abs() < 1e-9, "symmetric: {e:?}");
        // All wins: the estimate at the clamp, the interval below it and not empty.
        let w = elo(40, 0, 0);
        assert!(w.low < w.estimate && w.high >= w.estimate, "{w:?}");
        // A wide sample agrees with the plain estimate.
        let e = elo(500, 200, 300);
        let plain = elo_of_score(0.6);
        assert!((e.estimate - plain).abs() < 1e-9);
        assert!(e.low < plain - 15.0 && e.high > plain + 15.0, "{e:?}");
    }
}

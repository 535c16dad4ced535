//! The stdio bot protocol: one JSON object per line (see `docs/bot-protocol.md`).
//!
//! The host writes a [`Request`] when its seat must act; the engine answers with a [`Reply`]
//! holding the move in the game's notation. [`ExternalBot`] is the host's side (a program run as
//! a child process plays a seat); [`serve`] is the engine's side (a Colosseum bot answers
//! requests).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use colosseum_engine::{AnyGame, Erased, Pending, RawOptions, Seat, SeededRng, TextStep};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Bot, BotGame, Observation};

/// The protocol's version, sent in every request.
pub const VERSION: u32 = 1;

/// What the host asks: the move of `seat` now.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Request {
    /// The protocol version ([`VERSION`]).
    pub protocol: u32,
    /// Always `"move"` in version 1.
    #[serde(rename = "type")]
    pub kind: String,
    /// The game's id.
    pub game: String,
    /// The game's options.
    #[serde(default)]
    pub options: RawOptions,
    /// The seat that must move.
    pub seat: Seat,
    /// Who acts now.
    pub pending: Pending,
    /// The seat's view (the same JSON as the server sends to the seat).
    pub view: Value,
    /// The steps so far as the seat knows them: a step with neither move nor chance (`{}`) is the
    /// other seat's move, not revealed yet.
    pub steps: Vec<TextStep>,
    /// Legal moves in notation: every one if `legal_moves_complete`, else a representative few
    /// (any move in the notation is accepted).
    pub legal_moves: Vec<String>,
    /// Whether `legal_moves` lists every legal move.
    pub legal_moves_complete: bool,
    /// Optional (absent means `false`): the host also asks for the mixed strategy the move is
    /// drawn from (the exploitability judge, `colosseum exploit`). An engine may ignore it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub strategy: bool,
}

/// The engine's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reply {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Optional: the mixed strategy the move was drawn from, move (in notation) → probability,
    /// for a request with `"strategy": true`. A host that did not ask ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<BTreeMap<String, f64>>,
}

/// Builds the request for the observation's seat.
pub fn request<G: BotGame>(observation: &Observation<'_, G>, options: &RawOptions) -> Request {
    let mut moves = Vec::new();
    observation.legal_moves(&mut moves);
    Request {
        protocol: VERSION,
        kind: "move".to_string(),
        game: String::new(),
        options: options.clone(),
        seat: observation.seat(),
        pending: observation.pending(),
        view: serde_json::to_value(observation.view()).unwrap_or(Value::Null),
        steps: observation.history().to_vec(),
        legal_moves: moves.iter().map(|m| observation.format_move(m)).collect(),
        legal_moves_complete: G::widening().is_none() && !G::HIDDEN_INFORMATION,
        strategy: false,
    }
}

/// A program that plays a seat over the protocol, run as a child process.
pub struct ExternalBot {
    command: Vec<String>,
    game: &'static str,
    options: RawOptions,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// Replies refused (and replaced by a random move) since [`Bot::take_replaced`].
    replaced: u32,
}

impl ExternalBot {
    /// Starts `command` (program and arguments) for `game` with `options`.
    pub fn spawn(
        command: &[String],
        game: &'static str,
        options: &RawOptions,
    ) -> std::io::Result<Self> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| std::io::Error::other("an empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Ok(ExternalBot {
            command: command.to_vec(),
            game,
            options: options.clone(),
            child,
            stdin: Some(stdin),
            stdout,
            replaced: 0,
        })
    }

    /// Sends one request and reads the program's reply (not checked against the game).
    pub fn ask(&mut self, request: &Request) -> Result<Reply, String> {
        let line = serde_json::to_string(request).map_err(|e| e.to_string())?;
        let stdin = self.stdin.as_mut().ok_or("the program's input is closed")?;
        writeln!(stdin, "{line}").map_err(|e| format!("writing the request: {e}"))?;
        stdin
            .flush()
            .map_err(|e| format!("writing the request: {e}"))?;
        let mut answer = String::new();
        let n = self
            .stdout
            .read_line(&mut answer)
            .map_err(|e| format!("reading the reply: {e}"))?;
        if n == 0 {
            return Err("the program closed its output".to_string());
        }
        let reply: Reply = serde_json::from_str(answer.trim()).map_err(|e| {
            format!(
                "the reply `{}` is not {{\"move\": TEXT}}: {e}",
                answer.trim()
            )
        })?;
        Ok(reply)
    }
}

impl Drop for ExternalBot {
    fn drop(&mut self) {
        // Closing its input tells the program to stop; one that does not stop within a second
        // is ended (this child only, by its handle).
        drop(self.stdin.take());
        for _ in 0..100 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl<G: BotGame> Bot<G> for ExternalBot {
    fn name(&self) -> String {
        format!("cmd:{}", self.command.join(" "))
    }

    fn choose(&mut self, observation: &Observation<'_, G>, rng: &mut SeededRng) -> G::Move {
        let mut request = request(observation, &self.options);
        request.game = self.game.to_string();
        let result = self.ask(&request).and_then(|reply| {
            let text = reply.mv;
            let mv = observation.parse_move(&text).map_err(|e| e.to_string())?;
            observation
                .check_move(&mv)
                .map_err(|e| format!("`{text}` is illegal: {e}"))?;
            Ok(mv)
        });
        match result {
            Ok(mv) => mv,
            Err(e) => {
                eprintln!(
                    "colosseum: bot `{}`: {e}; a random move is played instead",
                    self.command.join(" ")
                );
                self.replaced += 1;
                observation.random_move(rng).expect("the seat acts")
            }
        }
    }

    fn take_replaced(&mut self) -> u32 {
        std::mem::take(&mut self.replaced)
    }
}

/// Why a request cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The line is not a request.
    #[error("line {line}: not a request: {message}")]
    BadRequest {
        /// The line's number (1-based).
        line: usize,
        /// Why.
        message: String,
    },
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Answers requests read from `input` with `bot`, one reply per line; returns how many were
/// answered. `new_game` builds the game from a request's options. A request that cannot be
/// answered gets `{"error": MESSAGE}` and the engine goes on.
pub fn serve<G: BotGame>(
    new_game: &dyn Fn(&RawOptions) -> Result<G, String>,
    bot: &mut dyn Bot<G>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    rng: &mut SeededRng,
) -> Result<u64, EngineError> {
    let mut answered = 0;
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = serde_json::from_str::<Request>(&line)
            .map_err(|e| e.to_string())
            .and_then(|request| answer(new_game, bot, &request, rng));
        match reply {
            Ok(reply) => {
                writeln!(
                    output,
                    "{}",
                    serde_json::to_string(&reply).map_err(std::io::Error::other)?
                )?;
                answered += 1;
            }
            Err(message) => {
                let message = format!("line {}: {message}", i + 1);
                writeln!(output, "{}", serde_json::json!({ "error": message }))?;
            }
        }
        output.flush()?;
    }
    Ok(answered)
}

/// Rebuilds the seat's situation from the request's steps and asks the bot.
fn answer<G: BotGame>(
    new_game: &dyn Fn(&RawOptions) -> Result<G, String>,
    bot: &mut dyn Bot<G>,
    request: &Request,
    rng: &mut SeededRng,
) -> Result<Reply, String> {
    let mut game = Erased(new_game(&request.options)?);
    for (i, step) in request.steps.iter().enumerate() {
        let withheld = step.p1.is_none() && step.p2.is_none() && step.chance.is_none();
        if withheld {
            let mover = match game.pending() {
                Pending::One(s) => s,
                other => {
                    return Err(format!(
                        "step {i}: a withheld move, but the game waits for {other}"
                    ))
                }
            };
            let mv = game
                .0
                .fill_withheld(mover, &request.view, rng)
                .ok_or_else(|| format!("step {i}: this game has no withheld moves"))?;
            game.0
                .apply(colosseum_engine::Step::One { seat: mover, mv })
                .map_err(|e| format!("step {i}: {e}"))?;
        } else {
            game.apply(step).map_err(|e| format!("step {i}: {e}"))?;
        }
    }
    if !game.pending().includes(request.seat) {
        return Err(format!(
            "after the steps the game waits for {}, not {}",
            game.pending(),
            request.seat
        ));
    }
    let observation = Observation::from_record(&game.0, request.seat, &request.steps);
    let own = serde_json::to_value(observation.view()).unwrap_or(Value::Null);
    if own != request.view && !request.view.is_null() {
        return Err("the steps do not lead to the view sent".to_string());
    }
    let complete = G::widening().is_none() && !G::HIDDEN_INFORMATION;
    if request.strategy && complete {
        if let Some(strategy) = bot
            .mixed_strategy(&observation, rng)
            .filter(|s| !s.is_empty())
        {
            let mv = draw(&strategy, rng);
            let mut map = BTreeMap::new();
            for (m, p) in &strategy {
                *map.entry(game.0.format_move(m)).or_insert(0.0) += p;
            }
            return Ok(Reply {
                mv: game.0.format_move(&mv),
                strategy: Some(map),
            });
        }
    }
    let mv = bot.choose(&observation, rng);
    Ok(Reply {
        mv: game.0.format_move(&mv),
        strategy: None,
    })
}

/// A move drawn from a (non-empty) mixed strategy.
fn draw<M: Clone>(strategy: &[(M, f64)], rng: &mut SeededRng) -> M {
    use rand::Rng;
    let total: f64 = strategy.iter().map(|(_, p)| p.max(0.0)).sum();
    let mut x = rng.random::<f64>() * total;
    for (m, p) in strategy {
        if x < p.max(0.0) {
            return m.clone();
        }
        x -= p.max(0.0);
    }
    strategy[strategy.len() - 1].0.clone()
}

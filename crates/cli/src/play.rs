//! `colosseum play`: a game in the terminal, against a bot or hot-seat.
//!
//! Each human seat sees only its own view; a bad input is refused with the reason and asked again.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use colosseum_ai::registry::{self, BotSpec};
use colosseum_engine::{seeded_rng, AnyGame, Pending, RawOptions, Record, Seat, TextStep, Viewer};
use colosseum_games::GameEntry;

/// Who sits opposite the human.
#[derive(Debug, Clone, PartialEq)]
pub enum Opponent {
    /// Two people at one keyboard.
    HotSeat,
    /// A bot (`random`, `heuristic`, `mcts:hard`, ...).
    Bot(BotSpec),
}

/// Everything `play` needs.
#[derive(Debug)]
pub struct Setup {
    /// The game.
    pub entry: &'static GameEntry,
    /// Its options.
    pub options: RawOptions,
    /// Seed for chance and the bot.
    pub seed: u64,
    /// The opponent.
    pub opponent: Opponent,
    /// The human's seat against a bot.
    pub human: Seat,
    /// Where to write the record.
    pub record_path: Option<PathBuf>,
}

enum Input {
    Move(String),
    Quit,
}

/// Plays one game, reading moves from `input` and writing to `out`.
pub fn play(setup: &Setup, input: &mut impl BufRead, out: &mut impl Write) -> Result<ExitCode> {
    let mut game = (setup.entry.create)(&setup.options)?;
    let mut rng = seeded_rng(setup.seed);
    let mut record = Record::new(setup.entry.id, setup.options.clone(), setup.seed);
    let hot_seat = setup.opponent == Opponent::HotSeat;
    let is_human = |seat: Seat| hot_seat || seat == setup.human;
    let mut bot = match &setup.opponent {
        Opponent::HotSeat => None,
        Opponent::Bot(spec) => {
            Some(registry::find(setup.entry.id)?.seat_player(&setup.options, spec, setup.seed)?)
        }
    };
    writeln!(
        out,
        "{}: type your move at the prompt; `help` lists your legal moves, `quit` stops.\n\
         The rules: colosseum rules {}",
        setup.entry.name, setup.entry.id
    )?;
    if let Some(bot) = &bot {
        writeln!(
            out,
            "You are {}; the bot {} plays the other seat.",
            setup.human,
            bot.name()
        )?;
    }
    let finished = loop {
        let pending = game.pending();
        match pending {
            Pending::Over => break true,
            Pending::Chance => {
                let Some(step) = game.apply_random_chance(&mut rng) else {
                    anyhow::bail!("the game waits for chance but has no outcome to draw");
                };
                // The outcome itself is not printed: it may be secret (Galespiel's prize order).
                // The next rendering shows each player what its view allows.
                if let Some(bot) = &mut bot {
                    bot.observe(&step)?;
                }
                record.steps.push(step);
            }
            Pending::Both | Pending::One(_) => {
                let mut step = TextStep::default();
                let mut quit = false;
                for &seat in pending.seats() {
                    let mv = if is_human(seat) {
                        // Both seats share the screen: each looks away while the other types,
                        // as a single seat's move may be secret too (face-down cards).
                        if hot_seat {
                            hide_screen(out, seat)?;
                        }
                        match ask(game.as_ref(), seat, input, out)? {
                            Input::Move(m) => m,
                            Input::Quit => {
                                quit = true;
                                break;
                            }
                        }
                    } else {
                        let bot = bot.as_mut().context("a bot seat without a bot")?;
                        let mv = bot.choose(seat);
                        game.check_move(seat, &mv)
                            .with_context(|| format!("the bot chose an illegal move `{mv}`"))?
                    };
                    match seat {
                        Seat::P1 => step.p1 = Some(mv),
                        Seat::P2 => step.p2 = Some(mv),
                    }
                }
                if quit {
                    break false;
                }
                game.apply(&step)
                    .context("a checked submission was refused at the reveal")?;
                if let Some(bot) = &mut bot {
                    bot.observe(&step)?;
                }
                if pending == Pending::Both {
                    writeln!(out, "Revealed: {step}")?;
                } else {
                    // A single seat's move is not necessarily public (All-In Goofspiel's starter
                    // puts its cards down face down): say only who moved, and let the next
                    // rendering of the viewer's view show what may be known.
                    for seat in pending.seats() {
                        writeln!(out, "{seat} has moved.")?;
                    }
                }
                record.steps.push(step);
            }
        }
    };
    let viewer = if hot_seat {
        Viewer::Spectator
    } else {
        Viewer::Seat(setup.human)
    };
    write!(out, "{}", game.render(viewer))?;
    if let Some(path) = &setup.record_path {
        std::fs::write(path, record.to_json())
            .with_context(|| format!("writing the record to {}", path.display()))?;
        writeln!(out, "Record written to {}", path.display())?;
    }
    if finished {
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(out, "Game abandoned before the end.")?;
        Ok(ExitCode::from(1))
    }
}

/// In hot-seat play, keeps the previous seat's input off the screen before the next seat types.
fn hide_screen(out: &mut impl Write, seat: Seat) -> Result<()> {
    if std::io::stdout().is_terminal() {
        write!(out, "\x1b[2J\x1b[H")?;
    }
    writeln!(out, "--- {seat}'s turn: the other seat looks away ---")?;
    Ok(())
}

/// Shows `seat` its view and asks until it gives a legal move (returned in canonical notation).
fn ask(
    game: &dyn AnyGame,
    seat: Seat,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<Input> {
    write!(out, "{}", game.render(Viewer::Seat(seat)))?;
    loop {
        write!(out, "{seat}> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            writeln!(out, "Input ended.")?;
            return Ok(Input::Quit);
        }
        let text = line.trim();
        match text.to_ascii_lowercase().as_str() {
            "quit" | "exit" => return Ok(Input::Quit),
            "help" | "?" => {
                let moves = game.legal_moves(seat);
                let shown: Vec<&str> = moves.iter().take(60).map(String::as_str).collect();
                let more = if moves.len() > shown.len() {
                    format!(" ... ({} in all)", moves.len())
                } else {
                    String::new()
                };
                writeln!(out, "Legal moves: {}{more}", shown.join(", "))?;
                continue;
            }
            _ => {}
        }
        match game.check_move(seat, text) {
            Ok(canonical) => return Ok(Input::Move(canonical)),
            Err(e) => writeln!(out, "Refused: {e}. Try again (`help` lists legal moves).")?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(opponent: Opponent, record_path: Option<PathBuf>) -> Setup {
        Setup {
            entry: colosseum_games::find("goofspiel").unwrap(),
            options: colosseum_engine::parse_pairs(["cards=3", "order=ascending"]).unwrap(),
            seed: 1,
            opponent,
            human: Seat::P1,
            record_path,
        }
    }

    #[test]
    fn refuses_bad_input_and_finishes_against_random() {
        let path = std::env::temp_dir().join(format!("colosseum-play-{}.json", std::process::id()));
        let mut input: &[u8] = b"seven\n9\nhelp\n3\n3\n2\n1\n";
        let mut out = Vec::new();
        let code = play(
            &setup(Opponent::Bot(BotSpec::Random), Some(path.clone())),
            &mut input,
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(code, ExitCode::SUCCESS, "{text}");
        assert!(
            text.contains("Refused: p1: `seven` is not a move"),
            "{text}"
        );
        assert!(
            text.contains("Refused: p1: `9` is not a move: cards run from 1 to 3"),
            "{text}"
        );
        assert!(text.contains("Legal moves: 1, 2, 3"), "{text}");
        assert!(
            text.contains("Refused: p1: not legal here: you have no 3 left"),
            "{text}"
        );
        assert!(text.contains("Game over"), "{text}");
        let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(record.steps.len(), 3);
        assert_eq!(record.steps[0].p1.as_deref(), Some("3"));
        let replayed = colosseum_games::replay_record(&record).unwrap().unwrap();
        assert_eq!(replayed.game.pending(), Pending::Over);
    }

    #[test]
    fn chance_outcomes_that_are_secret_never_reach_the_screen() {
        // Galespiel draws a whole cycle's prize order at once; players only see it prize by prize.
        let path =
            std::env::temp_dir().join(format!("colosseum-secret-{}.json", std::process::id()));
        let setup = Setup {
            entry: colosseum_games::find("galespiel").unwrap(),
            options: RawOptions::new(),
            seed: 5,
            opponent: Opponent::Bot(BotSpec::Random),
            human: Seat::P1,
            record_path: Some(path.clone()),
        };
        let mut input: &[u8] = b"quit\n";
        let mut out = Vec::new();
        play(&setup, &mut input, &mut out).unwrap();
        let shown = String::from_utf8(out).unwrap();
        let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        std::fs::remove_file(&path).unwrap();
        let order = record.steps[0]
            .chance
            .clone()
            .expect("the first step draws the cycle");
        assert_eq!(order.split_whitespace().count(), 7, "{order}");
        assert!(
            !shown.contains(&order),
            "the prize order {order} was shown:\n{shown}"
        );
    }

    #[test]
    fn hot_seat_asks_both_and_stops_at_end_of_input() {
        let mut input: &[u8] = b"1\n2\n";
        let mut out = Vec::new();
        let code = play(&setup(Opponent::HotSeat, None), &mut input, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(code, ExitCode::from(1));
        assert!(text.contains("Revealed: p1: 1, p2: 2"), "{text}");
        assert!(text.contains("Input ended."), "{text}");
        assert!(text.contains("Game abandoned"), "{text}");
    }

    #[test]
    fn a_bots_face_down_cards_stay_hidden_until_the_reveal() {
        let setup = Setup {
            entry: colosseum_games::find("all-in-goofspiel").unwrap(),
            options: RawOptions::new(),
            seed: 1,
            opponent: Opponent::Bot(BotSpec::Random),
            human: Seat::P2,
            record_path: None,
        };
        let mut input: &[u8] = b"pass\n";
        let mut out = Vec::new();
        play(&setup, &mut input, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // The bot (p1) starts round 1: p2 is told that it moved and how many cards, not which.
        let (before, after) = text.split_once("p2> ").unwrap();
        assert!(before.contains("p1 has moved."), "{text}");
        assert!(before.contains("p1 put down"), "{text}");
        assert!(!before.contains("round  1 (worth  1)"), "{text}");
        assert!(!text.contains("Revealed"), "{text}");
        assert!(after.contains("round  1 (worth  1): p1 starts "), "{text}");
    }
}

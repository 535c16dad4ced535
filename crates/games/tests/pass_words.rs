//! One pass vocabulary (RULINGS.md): wherever a decision can be passed, in every game, `pass`,
//! `none` and `no submission` (any case, any spacing) pass it; a game's own words pass besides;
//! a decision that cannot be passed refuses them; an empty submission is "not a move" everywhere.
//!
//! The table below is the whole rule: each row a game's decision, what its pass is written as in
//! records (`None`: it cannot be passed), and the game's own pass words. Random games reach every
//! row, and every pass word is tried at each.

use colosseum_engine::{AnyGame, Pending, RawOptions, Seat, StepError, TextStep};

/// The pass words every game shares, in several cases and spacings.
const WORDS: &[&str] = &[
    "pass",
    "PASS",
    " Pass ",
    "none",
    "None",
    "no submission",
    "No   Submission",
    "NO SUBMISSION",
];

/// (game, decision, the canonical pass, the game's own pass words).
const TABLE: &[(&str, &str, Option<&str>, &[&str])] = &[
    ("goofspiel", "bid", None, &[]),
    (
        "square-goofspiel",
        "auction",
        Some("pass"),
        &["0", "no card"],
    ),
    ("all-in-goofspiel", "turn", Some("pass"), &[]),
    ("thwart-omega", "round", None, &[]),
    ("galespiel", "bid", None, &[]),
    ("galespiel", "build", Some("done"), &["done", "-"]),
    ("galespiel", "item window", Some("skip"), &["skip", "no"]),
    ("witchs-brew", "pick", None, &[]),
    ("witchs-brew", "Discard", Some("keep"), &["keep", "no"]),
    ("witchs-brew", "assignment", None, &[]),
    ("witchs-brew", "card play", None, &[]),
    ("witchs-brew", "stone", None, &[]),
    ("witchs-brew", "Leap", Some("pass"), &[]),
    ("witchs-brew", "Shift", Some("pass"), &[]),
];

/// Options that make every row reachable (items, a Discard holder).
fn options(id: &str) -> RawOptions {
    let pairs: &[&str] = match id {
        "galespiel" => &["items=elder-tree"],
        "witchs-brew" => &["discard=both"],
        _ => &[],
    };
    colosseum_engine::parse_pairs(pairs.iter().copied()).unwrap()
}

/// The row of the decision `seat` faces now, or `None` when it cannot be told (a Leap or Shift
/// whose only legal move is the pass).
fn decision(id: &str, game: &dyn AnyGame, seat: Seat) -> Option<&'static str> {
    Some(match (id, game.decision_kind()) {
        ("goofspiel", _) => "bid",
        ("square-goofspiel", _) => "auction",
        ("all-in-goofspiel", _) => "turn",
        ("thwart-omega", _) => "round",
        ("galespiel", "bid") => "bid",
        ("galespiel", "build") => "build",
        ("galespiel", "item") => "item window",
        ("galespiel", _) => return None,
        ("witchs-brew", "pick") => "pick",
        ("witchs-brew", "discard") => "Discard",
        ("witchs-brew", "assign") => "assignment",
        ("witchs-brew", _) => {
            let legal = game.legal_moves(seat);
            if game.pending() == Pending::Both {
                "card play"
            } else if !legal.iter().any(|m| m == "pass") {
                "stone"
            } else if legal.len() == 1 {
                return None;
            } else if legal.iter().any(|m| {
                ["up", "down", "left", "right"]
                    .iter()
                    .any(|d| m.ends_with(d))
            }) {
                "Leap"
            } else {
                "Shift"
            }
        }
        _ => return None,
    })
}

/// Tries every pass word, the game's own words and the empty text at the decision `seat` faces.
fn check_row(id: &str, row: &str, game: &dyn AnyGame, seat: Seat) -> Vec<String> {
    let &(_, _, canonical, own) = TABLE
        .iter()
        .find(|r| r.0 == id && r.1 == row)
        .unwrap_or_else(|| panic!("{id}: no row `{row}` in the table"));
    let mut lines = Vec::new();
    for &word in WORDS.iter().chain(own) {
        let result = game.check_move(seat, word);
        match canonical {
            Some(pass) => assert_eq!(
                result.as_deref(),
                Ok(pass),
                "{id}, {row}: `{word}` should pass"
            ),
            None => {
                let e = result.expect_err(&format!("{id}, {row}: `{word}` should be refused"));
                if matches!(id, "galespiel" | "witchs-brew") {
                    assert!(
                        e.to_string().contains("cannot be passed"),
                        "{id}, {row}: `{word}`: {e}"
                    );
                }
            }
        }
        let verdict = if canonical.is_some() {
            "accepted"
        } else {
            "refused"
        };
        lines.push(format!("{id} | {row} | `{word}` | {verdict}"));
    }
    for empty in ["", "   "] {
        match game.check_move(seat, empty) {
            Err(StepError::NotAMove { error, .. }) => assert!(
                error.reason.contains("an empty submission is not a move")
                    || matches!(id, "goofspiel" | "thwart-omega"),
                "{id}, {row}: {error}"
            ),
            other => panic!("{id}, {row}: an empty submission gave {other:?}"),
        }
        lines.push(format!("{id} | {row} | `{empty}` | refused (not a move)"));
    }
    lines
}

#[test]
fn every_decision_that_can_be_passed_takes_the_same_pass_words_in_every_game() {
    let mut reached = std::collections::BTreeSet::new();
    let mut table = Vec::new();
    for entry in colosseum_games::registry() {
        for seed in 0..40u64 {
            let mut game = (entry.create)(&options(entry.id)).unwrap();
            let mut rng = colosseum_engine::seeded_rng(seed);
            loop {
                let seats: Vec<Seat> = match game.pending() {
                    Pending::Over => break,
                    Pending::Chance => {
                        game.apply_random_chance(&mut rng).unwrap();
                        continue;
                    }
                    p => p.seats().to_vec(),
                };
                for &seat in &seats {
                    if let Some(row) = decision(entry.id, game.as_ref(), seat) {
                        if reached.insert((entry.id, row)) {
                            table.extend(check_row(entry.id, row, game.as_ref(), seat));
                        }
                    }
                }
                let mut step = TextStep::default();
                for &seat in &seats {
                    let mv = game.random_move(seat, &mut rng).unwrap();
                    match seat {
                        Seat::P1 => step.p1 = Some(mv),
                        Seat::P2 => step.p2 = Some(mv),
                    }
                }
                game.apply(&step).unwrap();
            }
        }
    }
    for &(id, row, _, _) in TABLE {
        assert!(reached.contains(&(id, row)), "{id}: `{row}` never reached");
    }
    // The table, for a reader of the test's output (`--nocapture`).
    println!("game | decision | word | verdict\n{}", table.join("\n"));
}

/// The pass is a move like any other: a pass word applied passes (the canonical text is what a
/// record holds), and the game goes on.
#[test]
fn a_pass_word_applied_is_the_pass() {
    let entry = colosseum_games::find("all-in-goofspiel").unwrap();
    let mut game = (entry.create)(&RawOptions::new()).unwrap();
    game.apply(&TextStep::one(Seat::P1, "No Submission"))
        .unwrap();
    game.apply(&TextStep::one(Seat::P2, "none")).unwrap();
    assert_eq!(game.score().p1, game.score().p2, "0 against 0: a tie");
    let entry = colosseum_games::find("square-goofspiel").unwrap();
    let mut game = (entry.create)(&RawOptions::new()).unwrap();
    game.apply_random_chance(&mut colosseum_engine::seeded_rng(1))
        .unwrap();
    assert!(game.apply(&TextStep::both("none", "")).is_err());
    game.apply(&TextStep::both("none", "no  submission"))
        .unwrap();
}

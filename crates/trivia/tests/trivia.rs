//! The trivia crate: bank loading, matching tables, the race with an injected clock, bots and
//! season questions checked against the replayed matches.

use colosseum_engine::{seeded_rng, Pending, Record, Seat, Viewer};
use colosseum_games::{find, replay_record};
use colosseum_trivia::{
    matches, season_questions, AnswerOutcome, Bank, BankError, BotAnswerer, Category, Question,
    Race, RaceError, RaceEvent, RaceResult, Season, SeasonError, SeasonMatch, LOCKOUT_MS, RACE_MS,
};
use rand::Rng;

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

// ----- matching -----

#[test]
fn matching_accepts_forgiving_spellings() {
    let accepted = [
        ("21", "21"),
        ("twenty-one", "21"),
        ("Twenty One", "21"),
        ("twenty one", "twenty-one"),
        ("  21  ", "twenty-one"),
        ("0", "zero"),
        ("one hundred and five", "105"),
        ("one hundred five", "105"),
        ("nine hundred ninety-nine", "999"),
        ("one thousand", "1000"),
        ("1,000", "1000"),
        ("007", "7"),
        ("The Witch's Brew", "witchs brew"),
        ("WITCHS-BREW", "The Witch’s Brew"),
        ("witchsbrew", "witch's brew"),
        ("the column", "column"),
        ("a Duplicard", "duplicard"),
        ("an apple", "apple"),
        ("Galespiel!!!", "galespiel"),
        ("gale spiel", "Galespiel"),
        ("Pokémon", "pokemon"),
        ("ÉLAN", "elan"),
        ("straße", "strasse"),
        ("p1", "P1"),
        ("p 1", "p1"),
        ("Square-Goofspiel", "square goofspiel"),
        ("six cards", "6 cards"),
        ("2.5", "2.5"),
        ("three by three", "3 by 3"),
    ];
    for (given, answer) in accepted {
        assert!(matches(given, answer), "{given:?} should match {answer:?}");
    }
}

#[test]
fn matching_refuses_wrong_answers() {
    let refused = [
        ("22", "21"),
        ("twenty", "21"),
        ("twenty two", "21"),
        ("2 1", "21"),
        ("1 2", "12"),
        ("p2", "p1"),
        ("black", "white"),
        ("", "21"),
        ("   ", "anything"),
        ("!!!", "!!!"),
        ("the", "a"),
        ("witch", "witchs brew"),
        ("25", "2.5"),
        ("one hundred", "101"),
        ("a", "b"),
        ("burn", "burns"),
    ];
    for (given, answer) in refused {
        assert!(
            !matches(given, answer),
            "{given:?} should not match {answer:?}"
        );
    }
}

#[test]
fn a_lone_article_is_kept() {
    // "a" alone is a column letter, not an article to drop.
    assert!(matches("a", "A"));
    assert!(!matches("a", "an"));
}

// ----- bank -----

const GOOD: &str = r#"
[[question]]
id = "q1"
question = "How many rounds does the Placement Phase have?"
answers = ["12", "twelve rounds"]
category = "DM"
note = "Seed: twelve rounds."

[[question]]
id = "q2"
question = "Who wins a tie?"
answers = ["the tiebreaker holder"]
category = "free"
"#;

#[test]
fn a_good_bank_loads() {
    let bank = Bank::from_toml(GOOD).unwrap();
    assert_eq!(bank.len(), 2);
    let q = bank.get("q1").unwrap();
    assert_eq!(q.category, Category::DeathMatch);
    assert_eq!(q.note.as_deref(), Some("Seed: twelve rounds."));
    assert!(q.accepts("Twelve"));
    assert!(q.accepts("twelve rounds"));
    assert!(!q.accepts("eleven"));
    assert_eq!(bank.get("q2").unwrap().note, None);
}

fn bank_error(text: &str) -> String {
    Bank::from_toml(text).unwrap_err().to_string()
}

#[test]
fn bank_errors_name_the_question_the_field_and_what_is_allowed() {
    let dup = GOOD.replace("id = \"q2\"", "id = \"q1\"");
    assert_eq!(
        Bank::from_toml(&dup).unwrap_err(),
        BankError::DuplicateId {
            index: 2,
            id: "q1".into(),
            first: 1
        }
    );
    let cases = [
        (
            GOOD.replace("[\"the tiebreaker holder\"]", "[]"),
            vec!["question 2", "`q2`", "answers", "at least one"],
        ),
        (
            GOOD.replace("[\"the tiebreaker holder\"]", "[\"  ?! \"]"),
            vec!["question 2", "answers", "empty"],
        ),
        (
            GOOD.replace("[\"the tiebreaker holder\"]", "\"x\""),
            vec!["question 2", "answers", "list"],
        ),
        (
            GOOD.replace("[\"the tiebreaker holder\"]", "[\"x\", 3]"),
            vec!["question 2", "answer 2", "string"],
        ),
        (
            GOOD.replace("category = \"DM\"", "category = \"dm\""),
            vec!["question 1", "`q1`", "category", "MM, DM, FM, free"],
        ),
        (
            GOOD.replace("category = \"free\"", "category = \"QM\""),
            vec!["question 2", "category", "\"QM\"", "MM, DM, FM, free"],
        ),
        (
            GOOD.replace("note = ", "hint = "),
            vec![
                "question 1",
                "unknown field `hint`",
                "id, question, answers, category, note",
            ],
        ),
        (
            GOOD.replace("id = \"q2\"\n", ""),
            vec!["question 2", "field `id` is missing"],
        ),
        (
            GOOD.replace("id = \"q2\"", "id = 7"),
            vec!["question 2", "id", "non-empty string"],
        ),
        (
            GOOD.replace("question = \"Who wins a tie?\"\n", ""),
            vec!["question 2", "`q2`", "field `question` is missing"],
        ),
        (
            GOOD.replace("category = \"free\"\n", ""),
            vec!["question 2", "category", "missing", "MM, DM, FM, free"],
        ),
        (
            GOOD.replace("note = \"Seed: twelve rounds.\"", "note = 3"),
            vec!["question 1", "note", "string"],
        ),
        (
            format!("title = \"x\"\n{GOOD}"),
            vec!["unknown top-level key `title`"],
        ),
        ("".to_string(), vec!["at least one `[[question]]`"]),
        (
            "question = 3".to_string(),
            vec!["at least one `[[question]]`"],
        ),
        (
            "question = [3]".to_string(),
            vec!["question 1", "must be a table"],
        ),
        ("[[question]\nid=".to_string(), vec!["not valid TOML"]),
    ];
    for (text, wanted) in cases {
        let e = bank_error(&text);
        for w in wanted {
            assert!(e.contains(w), "error {e:?} should contain {w:?}");
        }
    }
}

#[test]
fn from_questions_checks_like_the_loader() {
    let q = |id: &str, answers: &[&str]| Question {
        id: id.into(),
        question: "Q?".into(),
        answers: answers.iter().map(|s| s.to_string()).collect(),
        category: Category::Free,
        note: None,
    };
    assert!(Bank::from_questions(vec![q("a", &["1"]), q("b", &["2"])]).is_ok());
    assert!(matches!(
        Bank::from_questions(vec![q("a", &["1"]), q("a", &["2"])]),
        Err(BankError::DuplicateId { .. })
    ));
    assert!(Bank::from_questions(vec![q("a", &[])]).is_err());
    assert!(Bank::from_questions(vec![]).is_err());
}

#[test]
fn the_sample_bank_has_at_least_60_questions_each_accepting_its_first_answer() {
    let bank = Bank::from_toml(Bank::sample_text()).unwrap();
    assert!(bank.len() >= 60, "only {} questions", bank.len());
    for q in bank.questions() {
        for a in &q.answers {
            assert!(q.accepts(a), "{}: {a:?} does not match itself", q.id);
        }
        assert!(q.accepts(&q.answers[0].to_uppercase()), "{}", q.id);
        assert!(!q.accepts("definitely not the answer"), "{}", q.id);
    }
    // An id never gives the answer away (views show ids, and a curious player could look).
    for q in bank.questions() {
        let id = colosseum_trivia::normalize(&q.id);
        let text = colosseum_trivia::normalize(&q.question);
        for a in &q.answers {
            let a = colosseum_trivia::normalize(a);
            assert!(
                !id.contains(&a) || text.contains(&a),
                "{}: the id gives away {a:?}",
                q.id
            );
        }
    }
    // The six games all appear.
    for game in [
        "goofspiel",
        "square-goofspiel",
        "all-in-goofspiel",
        "thwart-omega",
        "galespiel",
        "witchs-brew",
    ] {
        assert!(
            bank.questions()
                .iter()
                .any(|q| q.id.starts_with(&format!("{game}-"))),
            "no question about {game}"
        );
    }
}

// ----- race -----

fn question() -> Question {
    Question {
        id: "q".into(),
        question: "How many rounds does the Placement Phase have?".into(),
        answers: vec!["12".into()],
        category: Category::Free,
        note: None,
    }
}

#[test]
fn a_wrong_answer_locks_out_for_30_seconds() {
    let mut r = Race::open(question(), 1_000);
    assert_eq!(r.deadline(), 1_000 + RACE_MS);
    assert_eq!(
        r.answer(P1, "eleven", 5_000),
        Ok(AnswerOutcome::Wrong {
            locked_until: 5_000 + LOCKOUT_MS
        })
    );
    assert!(r.is_locked_out(P1, 34_999));
    assert_eq!(
        r.answer(P1, "12", 34_999),
        Err(RaceError::LockedOut {
            seat: P1,
            until: 35_000,
            left_ms: 1
        })
    );
    let reason = r.answer(P1, "12", 20_000).unwrap_err().to_string();
    assert!(
        reason.contains("locked out") && reason.contains("ms"),
        "{reason}"
    );
    // The other seat is not locked out.
    assert_eq!(
        r.answer(P2, "13", 34_999),
        Ok(AnswerOutcome::Wrong {
            locked_until: 64_999
        })
    );
    // At exactly the end of the lockout the seat may answer again.
    assert_eq!(r.answer(P1, "twelve", 35_000), Ok(AnswerOutcome::Correct));
    assert_eq!(
        r.result(),
        Some(RaceResult::Won {
            seat: P1,
            at: 35_000
        })
    );
    assert_eq!(r.result().unwrap().as_chance(), "p1");
    assert!(matches!(
        r.answer(P2, "12", 70_000),
        Err(RaceError::Over(_))
    ));
}

#[test]
fn an_empty_answer_is_refused_without_a_lockout() {
    let mut r = Race::open(question(), 0);
    assert_eq!(r.answer(P1, "  ?! ", 1_000), Err(RaceError::Empty));
    assert!(!r.is_locked_out(P1, 1_000));
    assert_eq!(r.answer(P1, "12", 1_001), Ok(AnswerOutcome::Correct));
}

#[test]
fn three_minutes_without_a_correct_answer_end_with_no_winner() {
    let mut r = Race::open(question(), 10_000);
    r.answer(P1, "1", 20_000).unwrap();
    assert_eq!(r.next_deadline(), Some(190_000));
    assert_eq!(r.tick(189_999), None);
    assert_eq!(r.tick(250_000), Some(RaceResult::TimedOut { at: 190_000 }));
    assert_eq!(r.next_deadline(), None);
    assert_eq!(r.log().last(), Some(&RaceEvent::TimedOut { at: 190_000 }));
    assert_eq!(r.result().unwrap().as_chance(), "none");

    // An answer exactly at the deadline is too late: the timeout fires first.
    let mut r = Race::open(question(), 0);
    assert!(matches!(
        r.answer(P2, "12", RACE_MS),
        Err(RaceError::Over(_))
    ));
    assert_eq!(r.result(), Some(RaceResult::TimedOut { at: RACE_MS }));
    // One just before counts.
    let mut r = Race::open(question(), 0);
    assert_eq!(r.answer(P2, "12", RACE_MS - 1), Ok(AnswerOutcome::Correct));
}

#[test]
fn at_the_same_instant_the_first_received_wins_and_the_log_says_so() {
    for first in [P1, P2] {
        let mut r = Race::open(question(), 0);
        assert_eq!(r.answer(first, "12", 7_000), Ok(AnswerOutcome::Correct));
        let e = r.answer(first.other(), "12", 7_000).unwrap_err();
        assert_eq!(
            e,
            RaceError::SameInstant {
                winner: first,
                at: 7_000
            }
        );
        assert!(e.to_string().contains("same instant"));
        assert!(e.to_string().contains("received first"));
        assert_eq!(r.result().unwrap().winner(), Some(first));
        assert!(
            matches!(r.log().last(), Some(RaceEvent::Refused { seat, reason: RaceError::SameInstant { .. }, .. }) if *seat == first.other())
        );
    }
}

#[test]
fn time_never_goes_back() {
    let mut r = Race::open(question(), 0);
    r.answer(P1, "3", 50_000).unwrap();
    // An event "at 10 s" after one at 50 s is taken at 50 s: still locked out.
    assert!(matches!(
        r.answer(P1, "12", 10_000),
        Err(RaceError::LockedOut {
            left_ms: 30_000,
            ..
        })
    ));
    let times: Vec<u64> = r.log().iter().map(RaceEvent::at).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
}

// ----- bot -----

#[test]
fn bots_are_deterministic_accurate_as_configured_and_timed_within_bounds() {
    let bank = Bank::sample();
    let bot = BotAnswerer::new(0.7, 8_000, 2_000, 20_000).unwrap();
    let run = |seed: u64| {
        let mut rng = BotAnswerer::rng(seed);
        bank.questions()
            .iter()
            .cycle()
            .take(2000)
            .map(|q| (q, bot.answer(q, bank.questions(), &mut rng)))
            .map(|(q, a)| {
                assert_eq!(a.correct, q.accepts(&a.text), "{}: {:?}", q.id, a.text);
                assert!((2_000..=20_000).contains(&a.delay_ms), "{}", a.delay_ms);
                assert!(!a.text.trim().is_empty());
                a
            })
            .collect::<Vec<_>>()
    };
    let a = run(1);
    assert_eq!(a, run(1));
    assert_ne!(a, run(2));
    let right = a.iter().filter(|x| x.correct).count() as f64 / a.len() as f64;
    assert!((0.65..0.75).contains(&right), "accuracy {right}");
    let mean = a.iter().map(|x| x.delay_ms as f64).sum::<f64>() / a.len() as f64;
    assert!((6_500.0..9_000.0).contains(&mean), "mean delay {mean}");

    let never = BotAnswerer::new(0.0, 1_000, 1_000, 1_000).unwrap();
    let always = BotAnswerer::new(1.0, 1_000, 1_000, 1_000).unwrap();
    let mut rng = BotAnswerer::rng(3);
    for q in bank.questions() {
        let w = never.answer(q, bank.questions(), &mut rng);
        assert!(
            !w.correct && !q.accepts(&w.text) && w.delay_ms == 1_000,
            "{}: {:?}",
            q.id,
            w.text
        );
        assert!(always.answer(q, &[], &mut rng).correct);
    }
    // A wrong number never overflows.
    let mut huge = question();
    huge.answers = vec![u64::MAX.to_string()];
    let w = never.answer(&huge, &[], &mut rng);
    assert!(!w.correct && !huge.accepts(&w.text));
    // A numeric question gets a nearby wrong number.
    let w = never.answer(&question(), &[], &mut rng);
    let n: i64 = w.text.parse().unwrap();
    assert!(n != 12 && (9..=15).contains(&n), "{}", w.text);
}

#[test]
fn bad_bot_settings_are_refused() {
    assert!(BotAnswerer::new(1.5, 10, 0, 20).is_err());
    assert!(BotAnswerer::new(f64::NAN, 10, 0, 20).is_err());
    assert!(BotAnswerer::new(0.5, 10, 20, 30).is_err());
    assert!(BotAnswerer::new(0.5, 40, 20, 30).is_err());
    assert!(BotAnswerer::new(0.5, 20, 20, 20).is_ok());
}

// ----- season -----

/// Plays `game` to the end with random moves from `seed`, and returns its record.
fn played(game: &str, options: serde_json::Value, seed: u64) -> Record {
    let entry = find(game).unwrap();
    let options = options.as_object().cloned().unwrap_or_default();
    let mut g = (entry.create)(&options).unwrap();
    let mut rng = seeded_rng(seed);
    let mut record = Record::new(game, options, seed);
    loop {
        match g.pending() {
            Pending::Over => break,
            Pending::Chance => record.steps.push(g.apply_random_chance(&mut rng).unwrap()),
            pending => {
                let mut step = colosseum_engine::TextStep::default();
                for &s in pending.seats() {
                    let m = g.random_move(s, &mut rng).unwrap();
                    match s {
                        Seat::P1 => step.p1 = Some(m),
                        Seat::P2 => step.p2 = Some(m),
                    }
                }
                g.apply(&step).unwrap();
                record.steps.push(step);
            }
        }
    }
    record
}

#[test]
fn season_questions_answer_what_the_replayed_matches_show() {
    let games = [
        ("goofspiel", serde_json::json!({})),
        ("square-goofspiel", serde_json::json!({})),
        ("thwart-omega", serde_json::json!({})),
        ("all-in-goofspiel", serde_json::json!({})),
        ("galespiel", serde_json::json!({})),
        (
            "witchs-brew",
            serde_json::json!({"schedule": "MM1 DM1 MM2 DM2 MM3 DM3"}),
        ),
        ("thwart-omega", serde_json::json!({"size": 4})),
        ("goofspiel", serde_json::json!({"cards": 5})),
    ];
    let mut rng = seeded_rng(11);
    let matches: Vec<SeasonMatch> = games
        .iter()
        .enumerate()
        .map(|(i, (g, o))| SeasonMatch {
            label: format!("day {}", i + 1),
            record: played(g, o.clone(), rng.random()),
            players: if i % 2 == 0 {
                [Some("Alice".into()), Some("Bob".into())]
            } else {
                [None, None]
            },
            ended: None,
        })
        .collect();
    let season = Season {
        name: "test".into(),
        matches: matches.clone(),
    };
    let qs = season_questions(&season).unwrap();
    for m in &matches {
        let replay = replay_record(&m.record).unwrap().unwrap();
        let game = replay.game;
        let outcome = game.outcome().unwrap();
        let score = game.score();
        let name = find(&m.record.game).unwrap().name;
        let mine: Vec<&Question> = qs
            .iter()
            .filter(|q| {
                q.id.starts_with(&format!("season:{}:", m.label.replace(' ', "-")))
            })
            .collect();
        let by = |kind: &str| {
            mine.iter()
                .find(|q| q.id.ends_with(&format!(":{kind}")))
                .copied()
        };
        let w = by("winner").expect("a winner question");
        assert_eq!(w.question, format!("Who won {} ({name})?", m.label));
        assert_eq!(w.category, Category::Free);
        match outcome.winner {
            Some(seat) => {
                let expected = m.players[seat.index()]
                    .clone()
                    .unwrap_or(seat.as_str().to_string());
                assert!(w.accepts(&expected), "{}: {expected}", w.id);
                assert!(!w.accepts(&m.player_name(seat.other())));
                let headline = match seat {
                    Seat::P1 => &score.p1,
                    Seat::P2 => &score.p2,
                };
                if m.record.game == "galespiel" {
                    assert!(by("winner-score").is_none());
                    let b = by("winner-bridges").expect("a bridges question");
                    let n = score.details["bridges"][seat.as_str()]
                        .as_array()
                        .unwrap()
                        .len();
                    assert!(b.accepts(&n.to_string()) && !b.accepts(&(n + 1).to_string()));
                } else {
                    let s = by("winner-score").expect("a score question");
                    let n = headline.as_f64().unwrap();
                    assert!(s.accepts(&n.to_string()), "{}: {n}", s.id);
                    assert!(!s.accepts(&(n + 1.0).to_string()));
                    assert!(by("winner-bridges").is_none());
                }
            }
            None => assert!(w.accepts("nobody") && w.accepts("draw")),
        }
        let n = ["rounds", "rounds_played", "turns_played"]
            .iter()
            .find_map(|k| score.details.get(*k).and_then(|v| v.as_u64()));
        match (n, by("rounds")) {
            (Some(n), Some(q)) => {
                assert!(q.accepts(&n.to_string()));
                assert!(!q.accepts(&(n + 1).to_string()));
            }
            (None, None) => {
                assert!(["square-goofspiel", "witchs-brew"].contains(&m.record.game.as_str()))
            }
            (n, q) => panic!("{}: rounds {n:?} but question {q:?}", m.label),
        }
        if let Some(seat) = outcome.winner {
            let cells = score
                .details
                .get("cells")
                .map(|c| c[seat.as_str()].as_u64().unwrap());
            match (cells, by("winner-cells")) {
                (Some(n), Some(q)) => {
                    assert!(q.accepts(&n.to_string()) && !q.accepts(&(n + 1).to_string()))
                }
                (None, None) => {}
                (n, q) => panic!("{}: cells {n:?} but question {q:?}", m.label),
            }
        }
        if m.record.game == "thwart-omega" {
            let burned = by("burned").expect("a burned question");
            let view = game.view_json(Viewer::Spectator);
            let count: usize = view["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().matches('#').count())
                .sum();
            assert!(burned.accepts(&count.to_string()), "{}", count);
        } else {
            assert!(by("burned").is_none());
        }
    }
    // Generated questions make a valid bank.
    assert!(Bank::from_questions(qs).is_ok());
}

#[test]
fn the_seed_thwart_omega_board_burned_three_cells_in_twelve_rounds() {
    let record = Record::from_json(
        r#"{"game": "thwart-omega", "steps": [
  {"p1": "B a4 W g7", "p2": "B d7 W a4"}, {"p1": "B g6 W f7", "p2": "B f6 W c7"},
  {"p1": "B d6 W b7", "p2": "B c6 W a7"}, {"p1": "B b6 W e6", "p2": "B g5 W e5"},
  {"p1": "B f5 W d5", "p2": "B a5 W c5"}, {"p1": "B e4 W b5", "p2": "B d4 W g4"},
  {"p1": "B c4 W f4", "p2": "B e3 W b4"}, {"p1": "B b3 W g3", "p2": "B g2 W f3"},
  {"p1": "B f2 W d3", "p2": "B d2 W c3"}, {"p1": "B c2 W a3", "p2": "B b2 W e2"},
  {"p1": "B g1 W a2", "p2": "B f1 W e1"}, {"p1": "B c1 W d1", "p2": "B b1 W a1"}]}"#,
    )
    .unwrap();
    let season = Season {
        name: "seed".into(),
        matches: vec![SeasonMatch {
            label: "DM9".into(),
            record,
            players: [Some("Black".into()), Some("White".into())],
            ended: None,
        }],
    };
    let qs = season_questions(&season).unwrap();
    let get = |kind: &str| {
        qs.iter()
            .find(|q| q.id == format!("season:dm9:{kind}"))
            .unwrap()
    };
    // The rules page: a4 burned in round 1, a6 and e7 at the end; White wins 2592 to 1536.
    assert!(get("burned").accepts("three"));
    assert!(get("rounds").accepts("12"));
    assert!(get("winner").accepts("white"));
    assert!(get("winner-score").accepts("2592"));
    assert!(qs.iter().all(|q| q.category == Category::DeathMatch));
}

#[test]
fn unfinished_or_broken_records_are_refused() {
    let mut record = played("goofspiel", serde_json::json!({}), 5);
    record.steps.truncate(3);
    let m = |record: Record, label: &str| SeasonMatch {
        label: label.into(),
        record,
        players: [None, None],
        ended: None,
    };
    let s = Season {
        name: "s".into(),
        matches: vec![m(record.clone(), "match 1")],
    };
    assert!(matches!(
        season_questions(&s),
        Err(SeasonError::NotFinished { .. })
    ));
    let mut bad = record.clone();
    bad.steps.push(colosseum_engine::TextStep::both("99", "99"));
    let s = Season {
        name: "s".into(),
        matches: vec![m(bad, "match 2")],
    };
    assert!(matches!(
        season_questions(&s),
        Err(SeasonError::Replay { .. })
    ));
    let mut unknown = record;
    unknown.game = "chess".into();
    let s = Season {
        name: "s".into(),
        matches: vec![m(unknown, "match 3")],
    };
    assert!(matches!(
        season_questions(&s),
        Err(SeasonError::Load { .. })
    ));
    let full = played("goofspiel", serde_json::json!({}), 6);
    let s = Season {
        name: "s".into(),
        matches: vec![m(full.clone(), "Day 1"), m(full, "day  1")],
    };
    assert!(matches!(
        season_questions(&s),
        Err(SeasonError::DuplicateLabel(_))
    ));
}

#[test]
fn sample_answers_agree_with_the_engine_where_it_states_them() {
    use colosseum_games::witchs_brew as wb;
    let bank = Bank::sample();
    let check = |id: &str, value: String| {
        let q = bank.get(id).unwrap_or_else(|| panic!("no question {id}"));
        assert!(
            q.accepts(&value),
            "{id}: the engine says {value}, the bank {:?}",
            q.answers
        );
    };
    let option = |game: &str, name: &str| {
        find(game)
            .unwrap()
            .options
            .iter()
            .find(|o| o.name == name)
            .unwrap()
    };
    check(
        "goofspiel-cards",
        option("goofspiel", "cards").default.to_string(),
    );
    check(
        "goofspiel-order",
        option("goofspiel", "order").default.to_string(),
    );
    check(
        "thwart-omega-max-size",
        colosseum_games::thwart_omega::MAX_SIZE.to_string(),
    );
    check(
        "thwart-omega-board",
        format!("{0}x{0}", option("thwart-omega", "size").default),
    );
    let schedule = option("witchs-brew", "schedule").default;
    check(
        "witchs-brew-cauldron-rounds",
        schedule.split_whitespace().count().to_string(),
    );
    check(
        "witchs-brew-deck",
        wb::DECK
            .iter()
            .map(|&c| u32::from(c))
            .sum::<u32>()
            .to_string(),
    );
    check("witchs-brew-conditions", wb::CONDITION_COUNT.to_string());
    check(
        "witchs-brew-placement-rounds",
        wb::PLACEMENT_ROUNDS.to_string(),
    );
    check("witchs-brew-columns", wb::COLUMNS.to_string());
    check("witchs-brew-rows", wb::ROWS.to_string());
    check("witchs-brew-per-round", wb::PER_SCORING_ROUND.to_string());
    check(
        "witchs-brew-scoring-rounds",
        wb::SCORING_ROUNDS[0].to_string(),
    );
    check("witchs-brew-lockout", (LOCKOUT_MS / 1000).to_string());
    check("witchs-brew-race-minutes", (RACE_MS / 60_000).to_string());
    check("witchs-brew-card-6", "freeze".into());
    // The rules pages say what the other answers rest on.
    let rules = |game: &str| find(game).unwrap().rules.to_lowercase();
    assert!(rules("galespiel").contains("61 **spots**") || rules("galespiel").contains("61 spots"));
    check("galespiel-spots", "61".into());
    assert!(rules("thwart-omega").contains("burn"));
    assert!(rules("all-in-goofspiel").contains("-3, -2, -1, 0, 1, 2, ..., 12"));
    check("all-in-goofspiel-hand", (-3..=12).count().to_string());
}

/// A match that ended by resignation (its record stops mid-game) is finished: it gives the
/// "who won" question, answered with the winner's name, and nothing about a score that stopped.
#[test]
fn a_resigned_match_gives_its_winner_question() {
    let mut record = played("goofspiel", serde_json::json!({}), 5);
    record.steps.truncate(3);
    let s = Season {
        name: "s".into(),
        matches: vec![SeasonMatch {
            label: "day 4".into(),
            record,
            players: [Some("Ann".into()), Some("Bo".into())],
            ended: Some(colosseum_trivia::MatchEnd {
                winner: Some(colosseum_engine::Seat::P2),
                reason: "p1 resigned".into(),
            }),
        }],
    };
    let qs = season_questions(&s).unwrap();
    assert_eq!(qs.len(), 1, "{qs:?}");
    assert_eq!(qs[0].id, "season:day-4:winner");
    assert!(qs[0].accepts("Bo"));
    assert!(!qs[0].accepts("Ann"));
    assert_eq!(qs[0].note.as_deref(), Some("p1 resigned"));
}

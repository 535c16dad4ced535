//! The live Cauldron in the host: trivia races with an injected clock.

use colosseum_engine::{Pending, Seat, TextStep, Viewer};
use colosseum_games::replay_record;
use colosseum_host::{
    AnswerOutcome, BankSource, ConfigError, LogEntry, Match, MatchConfig, MatchError, RaceError,
    TimeControl, TriviaSettings, RACE_PAUSE_MS,
};
use colosseum_trivia::{Bank, Category, LOCKOUT_MS, RACE_MS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

/// Distinctive answers, so a test can look for them in a view.
const BANK: &str = r#"
[[question]]
id = "mm-a"
question = "Main match question A?"
answers = ["zanzibar", "zanzi bar"]
category = "MM"

[[question]]
id = "mm-b"
question = "Main match question B?"
answers = ["quixotic"]
category = "MM"

[[question]]
id = "dm-a"
question = "Death match question A?"
answers = ["xylophone"]
category = "DM"

[[question]]
id = "dm-b"
question = "Death match question B?"
answers = ["marmalade"]
category = "DM"

[[question]]
id = "fm-a"
question = "Final match question A?"
answers = ["kumquat"]
category = "FM"

[[question]]
id = "free-a"
question = "Free question A?"
answers = ["gazpacho"]
category = "free"
"#;

fn config(schedule: &str, seed: u64) -> MatchConfig {
    MatchConfig {
        options: json!({"cauldron": "live", "schedule": schedule})
            .as_object()
            .cloned()
            .unwrap(),
        seed,
        trivia: Some(TriviaSettings {
            bank: BankSource::Toml(BANK.to_string()),
        }),
        ..MatchConfig::new("witchs-brew")
    }
}

fn live(schedule: &str) -> Match {
    Match::new(config(schedule, 1)).unwrap()
}

/// The first accepted answer of the open race's question.
fn right(m: &Match) -> String {
    m.race().unwrap().question().answers[0].clone()
}

fn count(m: &Match, pred: impl Fn(&LogEntry) -> bool) -> usize {
    m.log().iter().filter(|e| pred(e)).count()
}

#[test]
fn the_race_opens_instead_of_a_drawn_chance_step() {
    let m = live("MM1 DM1");
    assert_eq!(m.game().pending(), Pending::Chance);
    let race = m.race().expect("a race is open");
    assert_eq!(race.opened_at(), 0);
    assert_eq!(race.deadline(), RACE_MS);
    assert_eq!(m.next_deadline(), Some(RACE_MS));
    // Only the prize pair was drawn; the race's chance step is not in the record yet.
    assert_eq!(m.record().steps.len(), 1);
    assert!(matches!(
        m.log().last(),
        Some(LogEntry::RaceOpened { at: 0, round, deadline, .. }) if round == "MM1" && *deadline == RACE_MS
    ));
    // An MM round asks an MM or free question.
    assert!(matches!(
        race.question().category,
        Category::MainMatch | Category::Free
    ));
}

#[test]
fn a_wrong_answer_locks_the_seat_out_for_30_seconds() {
    let mut m = live("MM1 DM1");
    let answer = right(&m);
    assert_eq!(
        m.answer(P1, "wrong", 1_000),
        Ok(AnswerOutcome::Wrong {
            locked_until: 1_000 + LOCKOUT_MS
        })
    );
    let e = m.answer(P1, &answer, 30_999).unwrap_err();
    assert_eq!(
        e,
        MatchError::Answer(RaceError::LockedOut {
            seat: P1,
            until: 31_000,
            left_ms: 1
        })
    );
    assert!(matches!(
        m.log().last(),
        Some(LogEntry::AnswerRefused { at: 30_999, seat: P1, reason, .. }) if reason.contains("locked out") && reason.contains("1 ms")
    ));
    let race = m.view(Viewer::Seat(P2)).race.unwrap();
    assert_eq!(race.seats.p1.lockout_until, Some(31_000));
    assert!(race.seats.p1.locked_out);
    assert_eq!(race.seats.p2.lockout_until, None);
    // At the end of the lockout the seat may answer, and a correct answer wins.
    assert_eq!(
        m.answer(P1, &answer.to_uppercase(), 31_000),
        Ok(AnswerOutcome::Correct)
    );
    let n = m.log().len();
    assert_eq!(
        m.log()[n - 2..],
        [
            LogEntry::RaceWon {
                at: 31_000,
                seat: P1
            },
            LogEntry::ChanceDrawn {
                at: 31_000,
                step: TextStep::chance("p1")
            }
        ]
    );
    assert_eq!(m.record().steps.last(), Some(&TextStep::chance("p1")));
    // The winner picks now, and its clock starts at the race's end.
    assert_eq!(m.game().pending(), Pending::One(P1));
    assert_eq!(m.clock(P1).turn_deadline, Some(31_000 + 60_000));
    assert_eq!(m.view(Viewer::Spectator).race.unwrap().winner, Some(P1));
}

#[test]
fn refused_answers_are_logged_only_up_to_the_cap_per_seat_and_race() {
    let mut m = live("MM1 DM1 MM2");
    let cap = m.config().logged_answer_refusals.unwrap() as usize;
    let answer = right(&m);
    m.answer(P1, "wrong", 1_000).unwrap();
    let before = m.log().len();
    // Locked out for 30 s: p1 keeps answering, hundreds of times.
    for i in 0..500u64 {
        let e = m.answer(P1, &answer, 1_001 + i * 50).unwrap_err();
        assert!(
            matches!(e, MatchError::Answer(RaceError::LockedOut { seat: P1, .. })),
            "{e:?}"
        );
    }
    // And empty answers from p2.
    for i in 0..100u64 {
        let e = m.answer(P2, "  ", 2_000 + i).unwrap_err();
        assert_eq!(e, MatchError::Answer(RaceError::Empty));
    }
    let refused = |seat| {
        count(
            &m,
            |e| matches!(e, LogEntry::AnswerRefused { seat: s, .. } if *s == seat),
        )
    };
    assert_eq!((refused(P1), refused(P2)), (cap, cap));
    assert_eq!(m.log().len() - before, 2 * cap);
    // The unlogged refusals changed nothing: the match rebuilds from its log.
    assert!(Match::rebuild(m.config().clone(), m.log()).unwrap() == m);
    // The lockout ends and the right answer wins as usual.
    assert_eq!(m.answer(P1, &answer, 31_000), Ok(AnswerOutcome::Correct));
    // A match stored before the cap logs every refusal, as it did.
    let mut old = Match::new(MatchConfig {
        logged_answer_refusals: None,
        ..config("MM1 DM1", 1)
    })
    .unwrap();
    old.answer(P1, "wrong", 1_000).unwrap();
    for i in 0..30u64 {
        assert!(old.answer(P1, "x", 1_001 + i).is_err());
    }
    assert_eq!(
        count(&old, |e| matches!(e, LogEntry::AnswerRefused { .. })),
        30
    );
    assert!(Match::rebuild(old.config().clone(), old.log()).unwrap() == old);
}

#[test]
fn three_minutes_without_a_correct_answer_give_nobody_the_pair() {
    let mut m = live("MM1 DM1 MM2");
    let first = m.race().unwrap().question().id.clone();
    m.answer(P2, "nope", 10_000).unwrap();
    assert!(m.tick(RACE_MS - 1).is_empty());
    let fired = m.tick(RACE_MS + RACE_PAUSE_MS - 1).to_vec();
    assert_eq!(fired[0], LogEntry::RaceTimedOut { at: RACE_MS });
    assert_eq!(
        fired[1],
        LogEntry::ChanceDrawn {
            at: RACE_MS,
            step: TextStep::chance("none")
        }
    );
    // The pair is discarded and the next round's pair drawn; its race opens after a pause, with
    // another question. Meanwhile the finished race (nobody, its answers) is what everyone sees.
    assert!(matches!(&fired[2], LogEntry::ChanceDrawn { at, .. } if *at == RACE_MS));
    assert_eq!(fired.len(), 3, "{fired:?}");
    let shown = m.view(Viewer::Spectator).race.unwrap();
    assert!(shown.over && shown.winner.is_none() && shown.answers.is_some());
    assert_eq!(shown.next_opens_at, Some(RACE_MS + RACE_PAUSE_MS));
    // The state says how long a race lasts and a lockout holds: the pages word "nobody answered
    // in time" and the lockout from these, not from numbers of their own.
    assert_eq!((shown.lasts_ms, shown.lockout_ms), (RACE_MS, LOCKOUT_MS));
    assert_eq!(shown.deadline - shown.opened_at, shown.lasts_ms);
    let json = serde_json::to_value(&shown).unwrap();
    assert_eq!(json["lasts_ms"], 180_000);
    assert_eq!(json["lockout_ms"], 30_000);
    assert_eq!(m.next_deadline(), Some(RACE_MS + RACE_PAUSE_MS));
    let fired = m.tick(RACE_MS + RACE_PAUSE_MS).to_vec();
    assert!(
        matches!(&fired[..], [LogEntry::RaceOpened { at, round, question_id, .. }]
        if *at == RACE_MS + RACE_PAUSE_MS && round == "DM1" && *question_id != first)
    );
    assert_eq!(m.next_deadline(), Some(2 * RACE_MS + RACE_PAUSE_MS));
    // The game's own clocks did not run: no bank was spent.
    assert_eq!(m.clock(P1).bank_ms, 600_000);
    assert_eq!(m.clock(P2).bank_ms, 600_000);
    assert_eq!(
        count(&m, |e| matches!(
            e,
            LogEntry::BankSpent { .. } | LogEntry::TimedOut { .. }
        )),
        0
    );
    // The second race times out too, and the third opens after its pause.
    m.tick(2 * RACE_MS + 2 * RACE_PAUSE_MS);
    assert!(
        matches!(m.race(), Some(r) if r.opened_at() == 2 * RACE_MS + 2 * RACE_PAUSE_MS && !r.is_over())
    );
}

#[test]
fn answers_at_the_same_instant_go_to_the_first_received_and_the_log_says_so() {
    for first in [P1, P2] {
        let mut m = live("DM1 MM1");
        let answer = right(&m);
        assert_eq!(m.answer(first, &answer, 5_000), Ok(AnswerOutcome::Correct));
        let e = m.answer(first.other(), &answer, 5_000).unwrap_err();
        assert_eq!(
            e,
            MatchError::Answer(RaceError::SameInstant {
                winner: first,
                at: 5_000
            })
        );
        let refused = m
            .log()
            .iter()
            .find_map(|e| match e {
                LogEntry::AnswerRefused { seat, reason, .. } if *seat == first.other() => {
                    Some(reason.clone())
                }
                _ => None,
            })
            .unwrap();
        assert!(
            refused.contains("same instant") && refused.contains("received first"),
            "{refused}"
        );
        assert_eq!(
            m.record().steps.last(),
            Some(&TextStep::chance(first.as_str()))
        );
        assert_eq!(m.game().pending(), Pending::One(first));
    }
}

#[test]
fn submissions_are_refused_during_a_race_and_answers_without_one() {
    let mut m = live("MM1");
    assert!(matches!(
        m.submit(P1, "1", 1_000),
        Err(MatchError::Refused { .. })
    ));
    let mut g = Match::new(MatchConfig::new("goofspiel")).unwrap();
    assert_eq!(g.answer(P1, "1", 0), Err(MatchError::NoRace));
    assert!(
        g.log().is_empty()
            || !g
                .log()
                .iter()
                .any(|e| matches!(e, LogEntry::AnswerRefused { .. }))
    );
}

#[test]
fn trivia_needs_a_live_cauldron_and_a_good_bank() {
    let mut c = config("MM1", 0);
    c.options.insert("cauldron".into(), json!("simulated"));
    assert!(matches!(Match::new(c), Err(ConfigError::TriviaNotLive(..))));
    let c = MatchConfig {
        trivia: Some(TriviaSettings::default()),
        ..MatchConfig::new("goofspiel")
    };
    assert!(matches!(Match::new(c), Err(ConfigError::TriviaNotLive(..))));
    let mut c = config("MM1", 0);
    c.trivia = Some(TriviaSettings {
        bank: BankSource::Toml(
            "[[question]]\nid = \"x\"\nquestion = \"?\"\nanswers = []\ncategory = \"MM\"".into(),
        ),
    });
    let e = Match::new(c).unwrap_err();
    assert!(matches!(e, ConfigError::Bank(_)));
    assert!(e.to_string().contains("answers"), "{e}");
    // A live Cauldron without settings uses the sample bank.
    let mut c = config("MM1", 0);
    c.trivia = None;
    let m = Match::new(c).unwrap();
    let id = &m.race().unwrap().question().id;
    assert!(Bank::sample().get(id).is_some(), "{id}");
    // The settings travel as JSON.
    let c = config("MM1", 0);
    let text = serde_json::to_string(&c).unwrap();
    assert_eq!(serde_json::from_str::<MatchConfig>(&text).unwrap(), c);
    let sample: MatchConfig = serde_json::from_value(json!({
        "game": "witchs-brew", "options": {"cauldron": "live"}, "trivia": {"bank": "sample"}
    }))
    .unwrap();
    assert_eq!(
        sample.trivia,
        Some(TriviaSettings {
            bank: BankSource::Sample
        })
    );
    // A simulated Witch's Brew keeps drawing races at random.
    let m = Match::new(MatchConfig::new("witchs-brew")).unwrap();
    assert!(m.race().is_none());
    assert_ne!(m.game().pending(), Pending::Chance);
}

#[test]
fn questions_fit_the_round_and_are_not_repeated_until_the_bank_is_used_up() {
    let schedule = "MM1 DM1 MM2 DM2 FM1";
    let mut m = live(schedule);
    let mut t = 0;
    let mut asked = Vec::new();
    while m.race().is_some_and(|r| !r.is_over()) || m.game().pending() == Pending::Chance {
        let race = m.race().unwrap();
        if race.is_over() {
            break;
        }
        asked.push((race.question().id.clone(), race.question().category));
        t = race.deadline();
        m.tick(t + RACE_PAUSE_MS);
    }
    let rounds: Vec<&str> = schedule.split(' ').collect();
    assert_eq!(asked.len(), rounds.len(), "{asked:?}");
    for ((id, cat), round) in asked.iter().zip(&rounds) {
        let want = Category::of_label(round);
        assert!(*cat == want || *cat == Category::Free, "{round} got {id}");
    }
    let mut ids: Vec<&String> = asked.iter().map(|(id, _)| id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), asked.len(), "a question repeated: {asked:?}");
    assert!(t > 0);
    // The order comes from the seed.
    let order = |seed: u64| {
        (0..8)
            .map(|k| {
                let m = Match::new(config("MM1", seed * 100 + k)).unwrap();
                m.race().unwrap().question().id.clone()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(order(1), order(1));
    assert_ne!(order(1), order(2));
}

/// Plays a whole live match: scripted race answers (wrong answers, lockouts, refusals, same
/// instants, timeouts) and random moves for every other decision. Checks the views on the way.
fn play(seed: u64, time: Option<TimeControl>) -> Match {
    let mut cfg = config(
        "MM1 DM1 MM2 DM2 MM3 DM3 MM4 DM4 MM5 DM5 MM6 DM6 MM7 DM7 MM8 DM8 MM9 DM9 MM10 MM11 FM1 FM2",
        seed,
    );
    cfg.time = time;
    let mut m = Match::new(cfg).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut now = 0u64;
    let mut races = 0;
    let all_answers: Vec<String> = Bank::from_toml(BANK)
        .unwrap()
        .questions()
        .iter()
        .flat_map(|q| q.answers.clone())
        .collect();
    while !m.is_over() {
        if let Some(race) = m.race().filter(|r| !r.is_over()) {
            // While the race runs, no view holds its accepted answers (earlier races' answers
            // are public in `races`).
            for viewer in [Viewer::Spectator, Viewer::Seat(P1), Viewer::Seat(P2)] {
                let v = m.view(viewer);
                let shown = v.race.clone().unwrap();
                let text = serde_json::to_string(&shown).unwrap().to_lowercase();
                for a in &all_answers {
                    assert!(
                        !text.contains(a.as_str()),
                        "{a} in the race's view while it runs"
                    );
                }
                assert!(!shown.over);
                assert!(shown.answers.is_none());
                assert!(shown.question_id.is_none());
                assert!(v.races.iter().all(|f| f.opened_at != race.opened_at()));
                // What the race is for is shown with its question.
                assert_eq!(shown.prizes.len(), 2, "{shown:?}");
                assert!(!shown.round.is_empty());
            }
            let answer = race.question().answers[0].clone();
            let opened = race.opened_at();
            match races % 4 {
                0 => {
                    m.answer(P1, "wrong guess", opened + 2_000).unwrap();
                    assert!(m.answer(P1, &answer, opened + 3_000).is_err());
                    m.answer(P2, &answer, opened + 9_000).unwrap();
                }
                1 => {
                    m.answer(P2, &answer, opened + 4_000).unwrap();
                    assert!(m.answer(P1, &answer, opened + 4_000).is_err());
                }
                2 => {
                    m.answer(P1, "one", opened + 1_000).unwrap();
                    m.answer(P2, "two", opened + 1_000).unwrap();
                    m.tick(opened + RACE_MS + 1);
                }
                _ => {
                    m.answer(P2, "not it", opened + 50_000).unwrap();
                    m.answer(P1, &answer, opened + 79_999).unwrap();
                }
            }
            races += 1;
            // Once over, the race is in everyone's `races` with its winner (or nobody) and its
            // answers, also when the next race opened at the same instant (a timeout); `race`
            // shows it too until the next one opens.
            for viewer in [Viewer::Spectator, Viewer::Seat(P1), Viewer::Seat(P2)] {
                let v = m.view(viewer);
                let done = v.races.last().unwrap();
                assert_eq!(done.opened_at, opened);
                assert_eq!(done.answers[0], answer);
                assert_eq!(v.races.len(), races);
                // The finished race is the race everyone sees until the next opens: after a
                // race nobody won, for RACE_PAUSE_MS at least.
                let shown = v.race.unwrap();
                assert_eq!(shown.opened_at, opened);
                assert!(shown.over);
                assert_eq!(shown.answers.unwrap()[0], answer);
                if done.winner.is_none() {
                    assert_eq!(done.ended_at, opened + RACE_MS);
                    assert_eq!(shown.next_opens_at, Some(done.ended_at + RACE_PAUSE_MS));
                }
            }
            now = m.now();
            continue;
        }
        if m.game().pending() == Pending::Chance {
            // The pause after a race nobody won: the next race opens at its end, not before.
            let at = m
                .next_deadline()
                .expect("a pending race has its opening as a deadline");
            assert!(m.tick(at - 1).is_empty());
            m.tick(at);
            assert!(m
                .race()
                .is_some_and(|r| !r.is_over() && r.opened_at() == at));
            now = m.now();
            continue;
        }
        let pending = m.game().pending();
        now += 1_000;
        for &seat in pending.seats() {
            let mv = m.game().random_move(seat, &mut rng).unwrap();
            m.submit(seat, &mv, now).unwrap();
        }
    }
    assert_eq!(races, 22);
    m
}

#[test]
fn a_whole_live_match_plays_to_the_end_and_rebuilds_exactly() {
    for (seed, time) in [(3, None), (4, Some(TimeControl::Untimed))] {
        let m = play(seed, time);
        assert!(m.result().is_some());
        assert_eq!(count(&m, |e| matches!(e, LogEntry::RaceOpened { .. })), 22);
        let won = count(&m, |e| matches!(e, LogEntry::RaceWon { .. }));
        let timed_out = count(&m, |e| matches!(e, LogEntry::RaceTimedOut { .. }));
        assert_eq!((won, timed_out), (17, 5));
        // The record replays to the same game.
        let replay = replay_record(m.record()).unwrap().unwrap();
        assert_eq!(replay.game.outcome(), m.game().outcome());
        assert_eq!(
            replay.game.view_json(Viewer::Spectator),
            m.game().view_json(Viewer::Spectator)
        );
        let races: Vec<&str> = m
            .record()
            .steps
            .iter()
            .filter_map(|s| s.chance.as_deref())
            .filter(|c| ["p1", "p2", "none"].contains(c))
            .collect();
        assert_eq!(races.len(), 22);
        assert_eq!(races.iter().filter(|c| **c == "none").count(), 5);
        // The log rebuilds the match exactly.
        let rebuilt = Match::rebuild(m.config().clone(), m.log()).unwrap();
        assert!(rebuilt == m);
        // Times in the log never go back.
        let times: Vec<u64> = m.log().iter().map(LogEntry::at).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
    }
}

#[test]
fn an_answer_for_a_race_that_timed_out_is_not_judged_against_the_next_question() {
    let mut m = live("MM1 DM1");
    let first = m.race().unwrap().question().clone();
    // Sent during the pause after the first race timed out: that race is over.
    let e = m
        .answer_to(P1, 0, &first.answers[0], RACE_MS + 3)
        .unwrap_err();
    assert!(matches!(e, MatchError::Answer(RaceError::Over(_))), "{e:?}");
    // Sent once the next race is open: stale, not judged against the new question.
    let next = RACE_MS + RACE_PAUSE_MS;
    let e = m.answer_to(P1, 0, &first.answers[0], next + 3).unwrap_err();
    assert_eq!(
        e,
        MatchError::StaleRace {
            asked: 0,
            open: next
        }
    );
    assert!(!m.race().unwrap().is_locked_out(P1, next + 3));
    assert_eq!(
        count(&m, |e| matches!(
            e,
            LogEntry::Answered { .. } | LogEntry::AnswerRefused { .. }
        )),
        0
    );
    let answer = right(&m);
    assert_eq!(
        m.answer_to(P1, next, &answer, next + 4),
        Ok(AnswerOutcome::Correct)
    );
    assert!(Match::rebuild(m.config().clone(), m.log()).unwrap() == m);
}

#[test]
fn late_answers_are_not_logged_and_garbage_never_panics() {
    let mut m = live("MM1 DM1");
    let answer = right(&m);
    m.answer(P1, &answer, 2_000).unwrap();
    let n = m.log().len();
    assert!(matches!(
        m.answer(P2, &answer, 2_001),
        Err(MatchError::Answer(RaceError::Over(_)))
    ));
    assert_eq!(m.log().len(), n);

    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut m = live("MM1 DM1 FM1");
    let mut now = 0;
    let pieces = [
        "",
        " ",
        "é",
        "twenty",
        "-",
        "one hundred and",
        "0",
        "🧪",
        "\u{0}",
        "zanzibar",
        "a",
        "the",
    ];
    for _ in 0..400 {
        now += rng.random_range(0..20_000);
        let len = rng.random_range(0..5);
        let text: String = (0..len)
            .map(|_| pieces[rng.random_range(0..pieces.len())])
            .collect::<Vec<_>>()
            .join(if rng.random() { " " } else { "" });
        let seat = if rng.random() { P1 } else { P2 };
        let _ = m.answer(seat, &text, now);
        if rng.random_range(0..5) == 0 {
            for &s in m.game().pending().seats() {
                let mv = m.game().random_move(s, &mut rng).unwrap();
                let _ = m.submit(s, &mv, now);
            }
        }
    }
    let times: Vec<u64> = m.log().iter().map(LogEntry::at).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]));
    assert!(Match::rebuild(m.config().clone(), m.log()).unwrap() == m);
}

#[test]
fn ticking_more_often_changes_nothing() {
    let m = play(8, None);
    let mut again = Match::new(m.config().clone()).unwrap();
    let mut last = 0;
    for e in m.log().iter().filter(|e| e.is_input()) {
        let mut t = last;
        while t + 7_000 < e.at() {
            t += 7_000;
            again.tick(t);
        }
        last = e.at();
        let _ = match e {
            LogEntry::Submitted { at, seat, text }
            | LogEntry::Changed { at, seat, text }
            | LogEntry::Refused { at, seat, text, .. } => again.submit(*seat, text, *at),
            LogEntry::Answered { at, seat, text, .. }
            | LogEntry::AnswerRefused { at, seat, text, .. } => {
                again.answer(*seat, text, *at).map(|_| ())
            }
            LogEntry::Locked { at, seat } => again.lock(*seat, *at),
            LogEntry::Resigned { at, seat } => again.resign(*seat, *at),
            _ => Ok(()),
        };
    }
    again.tick(m.log().last().unwrap().at());
    assert!(again == m);
}

#[test]
fn rebuild_catches_a_changed_answer() {
    let mut m = live("MM1 DM1");
    let answer = right(&m);
    m.answer(P2, "no", 2_000).unwrap();
    m.answer(P1, &answer, 3_000).unwrap();
    let rebuilt = Match::rebuild(m.config().clone(), m.log()).unwrap();
    assert!(rebuilt == m);
    let mut log = m.log().to_vec();
    for e in &mut log {
        if let LogEntry::Answered { text, seat: P1, .. } = e {
            *text = "something else".into();
        }
    }
    assert!(Match::rebuild(m.config().clone(), &log).is_err());
}

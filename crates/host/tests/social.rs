//! The match as people follow it: the typed [`MatchView`] and its JSON, the move log each viewer
//! may read (face-down moves and secret chance left out), and the two chats kept apart.

use colosseum_engine::{ChatChannel, Pending, Seat, Viewer};
use colosseum_games::registry;
use colosseum_host::{LogEntry, Match, MatchConfig, MatchError, MoveLine, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;
const VIEWERS: [Viewer; 3] = [Viewer::Seat(P1), Viewer::Seat(P2), Viewer::Spectator];

fn untimed(game: &str) -> MatchConfig {
    MatchConfig {
        time: Some(colosseum_host::TimeControl::Untimed),
        ..MatchConfig::new(game)
    }
}

/// Plays random moves until the match is over (or `max` events).
fn play_out(m: &mut Match, seed: u64, max: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut now = m.now();
    for _ in 0..max {
        if m.is_over() {
            return;
        }
        now += 1_000;
        for &seat in m.game().pending().seats() {
            if m.submission(seat).is_none() {
                let mv = m.game().random_move(seat, &mut rng).unwrap();
                m.submit(seat, &mv, now).unwrap();
            }
        }
    }
}

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

/// The JSON the browser and `docs/server-api.md` rely on, field by field: the keys of the
/// match view, of a seat (the seat's own view adds `submission` and `by_default`; a sealed
/// match adds `committed`, `commitment`, `opened`), and of a race (`question_id` and `answers`
/// only once it is over).
#[test]
fn the_match_view_json_keeps_its_shape() {
    let mut m = Match::new(MatchConfig {
        seats: [
            Player::Human {
                name: Some("Ann".into()),
            },
            Player::Human { name: None },
        ],
        ..MatchConfig::new("goofspiel")
    })
    .unwrap();
    m.submit(P1, "7", 1_000).unwrap();
    let own = serde_json::to_value(m.view(Viewer::Seat(P1))).unwrap();
    assert_eq!(
        keys(&own),
        [
            "chat",
            "decision",
            "earlier_games",
            "game",
            "game_number",
            "moves",
            "now",
            "options",
            "pending",
            "race",
            "races",
            "result",
            "sealed",
            "seats",
            "time_control",
            "timed_out",
            "view"
        ]
    );
    assert_eq!(
        keys(&own["seats"]["p1"]),
        [
            "by_default",
            "clock",
            "locked",
            "player",
            "submission",
            "submitted",
            "to_act"
        ]
    );
    assert_eq!(own["seats"]["p1"]["submission"], "7");
    assert_eq!(
        own["seats"]["p1"]["player"],
        json!({"kind": "human", "name": "Ann"})
    );
    assert_eq!(
        keys(&own["seats"]["p1"]["clock"]),
        ["bank_ms", "deadline", "turn_deadline"]
    );
    assert_eq!(own["pending"], "both");
    assert_eq!(own["game"], "goofspiel");
    assert_eq!(own["sealed"], Value::Null);
    assert_eq!(own["race"], Value::Null);
    assert_eq!(own["result"], Value::Null);
    assert_eq!(own["timed_out"], json!([]));
    assert_eq!(own["earlier_games"], json!([]));
    // The first step (the prize card) is in the move log with its time and kind.
    assert_eq!(own["moves"][0]["step"], 0);
    assert_eq!(own["moves"][0]["game"], 1);
    assert!(own["moves"][0]["chance"].is_string());
    let other = serde_json::to_value(m.view(Viewer::Seat(P2))).unwrap();
    assert_eq!(
        keys(&other["seats"]["p1"]),
        ["clock", "locked", "player", "submitted", "to_act"]
    );

    let mut sealed = Match::new(MatchConfig {
        sealed: true,
        ..MatchConfig::new("goofspiel")
    })
    .unwrap();
    sealed
        .commit(
            P1,
            &colosseum_host::commitment("", 1, P1, "7", &"ab".repeat(16)),
            1_000,
        )
        .unwrap();
    let v = serde_json::to_value(sealed.view(Viewer::Spectator)).unwrap();
    assert_eq!(
        keys(&v["seats"]["p1"]),
        [
            "clock",
            "commitment",
            "committed",
            "locked",
            "opened",
            "player",
            "submitted",
            "to_act"
        ]
    );
    assert_eq!(v["seats"]["p2"]["commitment"], Value::Null);
    assert_eq!(keys(&v["sealed"]), ["last", "opening_from", "phase"]);
    assert_eq!(v["sealed"]["phase"], "commit");

    let mut live = Match::new(MatchConfig {
        options: colosseum_engine::parse_pairs(["cauldron=live"]).unwrap(),
        trivia: Some(colosseum_host::TriviaSettings::default()),
        ..MatchConfig::new("witchs-brew")
    })
    .unwrap();
    let race = serde_json::to_value(live.view(Viewer::Spectator)).unwrap()["race"].clone();
    assert_eq!(
        keys(&race),
        [
            "category",
            "deadline",
            "ended_at",
            "lasts_ms",
            "lockout_ms",
            "opened_at",
            "over",
            "prizes",
            "question",
            "round",
            "seats",
            "winner"
        ]
    );
    assert_eq!(keys(&race["seats"]["p1"]), ["locked_out", "lockout_until"]);
    live.tick(180_000);
    let v = serde_json::to_value(live.view(Viewer::Spectator)).unwrap();
    let done = &v["races"][0];
    assert_eq!(
        keys(done),
        [
            "answers",
            "category",
            "ended_at",
            "opened_at",
            "prizes",
            "question",
            "question_id",
            "round",
            "winner"
        ]
    );
    assert_eq!(done["winner"], Value::Null);
    assert_eq!(done["ended_at"], 180_000);
}

/// Every game's move log lists every step of the record, in order, with the moves of both
/// seats once the match is over; while it runs, each viewer's log is what that viewer may know.
#[test]
fn the_move_log_has_every_step_of_every_game() {
    for entry in registry() {
        let mut m = Match::new(untimed(entry.id)).unwrap();
        play_out(&mut m, 7, 2_000);
        assert!(m.is_over(), "{}", entry.id);
        let records = m.records();
        for viewer in VIEWERS {
            let log = m.view(viewer).moves;
            let steps: Vec<(usize, usize)> = log.iter().map(|l| (l.game, l.step)).collect();
            let expected: Vec<(usize, usize)> = records
                .iter()
                .enumerate()
                .flat_map(|(g, r)| (0..r.steps.len()).map(move |s| (g + 1, s)))
                .collect();
            assert_eq!(steps, expected, "{}", entry.id);
            for l in &log {
                let step = &records[l.game - 1].steps[l.step];
                assert_eq!(
                    (&l.p1, &l.p2, &l.chance),
                    (&step.p1, &step.p2, &step.chance),
                    "{} {viewer}: once over, every step is public",
                    entry.id
                );
                assert!(!l.hidden);
            }
            // Times never go back.
            assert!(log.windows(2).all(|w| w[0].at <= w[1].at), "{}", entry.id);
        }
    }
}

/// All-In Goofspiel's starter plays face down: the other seat and spectators see that a move
/// was made, not which, until the responder has answered; the starter sees its own.
#[test]
fn a_face_down_move_stays_out_of_the_others_logs_until_answered() {
    let mut m = Match::new(untimed("all-in-goofspiel")).unwrap();
    let Pending::One(starter) = m.game().pending() else {
        panic!("the starter acts alone");
    };
    m.submit(starter, "5 3", 1_000).unwrap();
    let line = |viewer: Viewer| -> MoveLine { m.view(viewer).moves.last().unwrap().clone() };
    let own = line(Viewer::Seat(starter));
    assert_eq!(own.slot(starter), Some("5 3"));
    assert!(!own.hidden);
    assert!(own.face_down.is_empty());
    for viewer in [Viewer::Seat(starter.other()), Viewer::Spectator] {
        let l = line(viewer);
        assert_eq!((l.p1.as_deref(), l.p2.as_deref()), (None, None), "{viewer}");
        assert!(l.hidden, "{viewer}");
        assert_eq!(l.face_down, vec![starter], "{viewer}");
        let text = serde_json::to_string(&m.view(viewer)).unwrap();
        assert!(!text.contains("5 3"), "{viewer}: {text}");
    }
    // The responder answers: the round is revealed, and so is the starter's move.
    let responder = starter.other();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let reply = m.game().random_move(responder, &mut rng).unwrap();
    m.submit(responder, &reply, 2_000).unwrap();
    for viewer in VIEWERS {
        let log = m.view(viewer).moves;
        let first = &log[log.len() - 2];
        assert_eq!(first.slot(starter), Some("5 3"), "{viewer}");
        assert!(log.iter().all(|l| !l.hidden), "{viewer}");
    }
}

/// Galespiel's cycle order is secret chance: no viewer's log shows it while the match runs,
/// and every viewer's shows it once the match is over.
#[test]
fn secret_chance_stays_out_of_every_log_until_the_end() {
    let mut m = Match::new(untimed("galespiel")).unwrap();
    let drawn = m.record().steps[0].chance.clone().unwrap();
    for viewer in VIEWERS {
        let first = &m.view(viewer).moves[0];
        assert_eq!(first.chance, None, "{viewer}");
        assert!(first.hidden);
        assert_eq!(first.kind, "chance", "{viewer}: {first:?}");
    }
    m.resign(P1, 5_000).unwrap();
    for viewer in VIEWERS {
        assert_eq!(
            m.view(viewer).moves[0].chance.as_deref(),
            Some(drawn.as_str())
        );
    }
}

/// A move the host made at a timeout says so in the log.
#[test]
fn the_log_names_moves_the_clock_made() {
    let mut m = Match::new(MatchConfig::new("goofspiel")).unwrap();
    m.submit(P2, "13", 1_000).unwrap();
    m.tick(30_000);
    let log = m.view(Viewer::Spectator).moves;
    let bid = log.iter().find(|l| l.p1.is_some()).unwrap();
    assert_eq!(bid.by_default, vec![P1]);
    assert_eq!(bid.at, 30_000);
    assert_eq!(bid.p1.as_deref(), Some("1"));
}

/// Seats read the players' chat only, spectators the spectators' only; both are inputs of the
/// log, so a rebuilt match has them; bad messages are refused with the reason.
#[test]
fn the_two_chats_are_kept_apart_and_rebuild() {
    let mut m = Match::new(MatchConfig::new("thwart-omega")).unwrap();
    m.chat(Viewer::Seat(P1), "Ann", "  good luck  ", 1_000)
        .unwrap();
    m.chat(Viewer::Spectator, "Zed", "p1 should play d4", 2_000)
        .unwrap();
    m.chat(Viewer::Seat(P2), "Bo", "thanks\nyou too", 3_000)
        .unwrap();
    for seat in Seat::BOTH {
        let chat = m.view(Viewer::Seat(seat)).chat;
        let texts: Vec<&str> = chat.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["good luck", "thanks\nyou too"]);
        assert!(chat.iter().all(|l| l.channel == ChatChannel::Players));
        let text = serde_json::to_string(&m.view(Viewer::Seat(seat))).unwrap();
        assert!(!text.contains("d4"), "a spectator's message reached {seat}");
    }
    let chat = m.view(Viewer::Spectator).chat;
    assert_eq!(chat.len(), 1);
    assert_eq!(
        (chat[0].name.as_str(), chat[0].seat, chat[0].at),
        ("Zed", None, 2_000)
    );
    let text = serde_json::to_string(&m.view(Viewer::Spectator)).unwrap();
    assert!(
        !text.contains("good luck"),
        "the players' chat reached a spectator"
    );

    for (text, why) in [
        ("   ", "1 to 500"),
        (&"x".repeat(501) as &str, "1 to 500"),
        ("bell\u{7}", "control"),
    ] {
        match m.chat(Viewer::Seat(P1), "Ann", text, 4_000) {
            Err(MatchError::BadChat(reason)) => assert!(reason.contains(why), "{reason}"),
            other => panic!("{other:?}"),
        }
    }
    let rebuilt = Match::rebuild(m.config().clone(), m.log()).unwrap();
    assert_eq!(rebuilt, m);
    assert_eq!(rebuilt.chat_lines().len(), 3);
    assert!(matches!(m.log()[m.log().len() - 1], LogEntry::Chat { .. }));
    m.resign(P2, 5_000).unwrap();
    // The chat stays open after the end, and a rebuild from the log replays it.
    m.chat(Viewer::Seat(P1), "Ann", "gg", 6_000).unwrap();
    assert_eq!(m.chat_lines().last().unwrap().1.text, "gg");
    assert_eq!(m.chat_lines().last().unwrap().1.at, 6_000);
    let rebuilt = Match::rebuild(m.config().clone(), m.log()).unwrap();
    assert_eq!(rebuilt, m);
}

/// `Match::view_text` (what a server sends) is `Match::view` as JSON, for every game and viewer
/// after every single move, timeout and chat line, with each viewer's move log kept from one
/// call to the next (only the last line and new ones rendered again): a face-down move, a
/// secret chance outcome and a move the clock made come out as in `view`, and so does the end,
/// which shows every step. The text ends with `"now":N}`. A kept log handed another match (a
/// new seed) starts over.
#[test]
fn the_view_text_is_the_view_as_json_with_the_log_kept() {
    use colosseum_host::MoveLogText;
    for entry in registry() {
        for timed in [false, true] {
            let config = if timed {
                MatchConfig::new(entry.id)
            } else {
                untimed(entry.id)
            };
            let mut m = Match::new(config.clone()).unwrap();
            let mut logs: Vec<MoveLogText> =
                VIEWERS.iter().map(|_| MoveLogText::default()).collect();
            let check = |m: &Match, logs: &mut Vec<MoveLogText>, when: &str| {
                for (viewer, log) in VIEWERS.iter().zip(logs.iter_mut()) {
                    let text = m.view_text(*viewer, log);
                    let parsed: Value = serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("{} {viewer} {when}: {e}: {text}", entry.id));
                    let expected = serde_json::to_value(m.view(*viewer)).unwrap();
                    assert_eq!(parsed, expected, "{} {viewer} {when}", entry.id);
                    let tail = format!("\"now\":{}}}", m.now());
                    assert!(text.ends_with(&tail), "{} {when}: {text}", entry.id);
                }
            };
            check(&m, &mut logs, "at the start");
            let mut rng = ChaCha8Rng::seed_from_u64(11);
            let mut now = m.now();
            for event in 0..600 {
                if m.is_over() {
                    break;
                }
                now += 1_000;
                if event % 7 == 3 {
                    m.chat(Viewer::Seat(P1), "Ann", "hello", now).unwrap();
                    m.chat(Viewer::Spectator, "Zed", "p1 wins", now).unwrap();
                    check(&m, &mut logs, "after chat");
                }
                if timed && event % 5 == 4 {
                    // Long enough for any clock: the host moves for the seats that must act.
                    now += 3_600_000;
                    m.tick(now);
                    check(&m, &mut logs, &format!("after a timeout at event {event}"));
                    continue;
                }
                // One seat at a time, so a lone (face-down) move is seen before its answer.
                let seats: Vec<Seat> = m.game().pending().seats().to_vec();
                for seat in seats {
                    if m.is_over() || m.submission(seat).is_some() {
                        continue;
                    }
                    if !m.game().pending().includes(seat) {
                        continue;
                    }
                    let mv = m.game().random_move(seat, &mut rng).unwrap();
                    m.submit(seat, &mv, now).unwrap();
                    check(
                        &m,
                        &mut logs,
                        &format!("after {seat} {mv} at event {event}"),
                    );
                }
            }
            assert!(m.is_over() || timed, "{} did not end", entry.id);
            check(&m, &mut logs, "at the end");
            // The logs kept for this match, handed another one (another seed).
            let other = Match::new(MatchConfig {
                seed: config.seed ^ 0x5eed,
                ..config.clone()
            })
            .unwrap();
            check(&other, &mut logs, "another match");
        }
    }
}

//! The host with an injected clock: every time is given, so these run instantly.

mod common;

use std::collections::BTreeMap;

use colosseum_engine::{Pending, Seat, TextStep, Viewer};
use colosseum_games::{registry, replay_record};
use colosseum_host::{
    Clocks, EmptyBank, EndKind, LogEntry, Match, MatchConfig, MatchError, Player, TimeControl,
};
use common::strings;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

fn new(game: &str) -> Match {
    Match::new(MatchConfig::new(game)).unwrap()
}

fn entries<'a>(m: &'a Match, pred: impl Fn(&LogEntry) -> bool + 'a) -> Vec<&'a LogEntry> {
    m.log().iter().filter(|e| pred(e)).collect()
}

fn defaults(m: &Match) -> Vec<(Seat, String)> {
    m.log()
        .iter()
        .filter_map(|e| match e {
            LogEntry::DefaultApplied { seat, text, .. } => Some((*seat, text.clone())),
            _ => None,
        })
        .collect()
}

// ----- submissions -----

#[test]
fn submit_change_lock_and_reveal_only_when_both_are_in() {
    let mut m = new("goofspiel");
    assert_eq!(m.game().pending(), Pending::Both);
    let steps = m.record().steps.len();
    m.submit(P1, "1", 1_000).unwrap();
    m.submit(P1, " 2 ", 2_000).unwrap();
    assert_eq!(m.record().steps.len(), steps, "no reveal with one seat in");
    assert_eq!(m.submission(P1).unwrap().text, "2");
    m.lock(P1, 3_000).unwrap();
    assert_eq!(m.submit(P1, "3", 4_000), Err(MatchError::Locked(P1)));
    assert_eq!(m.lock(P2, 4_000), Err(MatchError::NothingToLock(P2)));
    assert_eq!(m.submission(P1).unwrap().text, "2");
    m.submit(P2, "5", 5_000).unwrap();
    let step = &m.record().steps[steps];
    assert_eq!(step, &TextStep::both("2", "5"));
    assert!(m.submission(P1).is_none() && m.submission(P2).is_none());
    let kinds: Vec<String> = m.log()[1..]
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        &kinds[..5],
        &["submitted", "changed", "locked", "submitted", "revealed"]
    );
    // The next prize was drawn at the reveal and the new clocks start then.
    assert!(matches!(
        m.log()[6],
        LogEntry::ChanceDrawn { at: 5_000, .. }
    ));
    assert_eq!(m.clock(P1).deadline, Some(35_000));
}

#[test]
fn a_changed_submission_after_both_are_in_is_too_late() {
    let mut m = new("thwart-omega");
    m.submit(P1, "B a1 W a2", 10).unwrap();
    m.submit(P2, "b d4 w e5", 20).unwrap();
    assert_eq!(
        m.record().steps[0],
        TextStep::both("B a1 W a2", "B d4 W e5")
    );
    // p1 tries to change its move after the reveal: the round is settled, so the change is a
    // submission for the next round, and round 1 keeps p1's first move.
    m.submit(P1, "B b1 W b2", 30).unwrap();
    assert_eq!(
        m.record().steps[0],
        TextStep::both("B a1 W a2", "B d4 W e5")
    );
    assert_eq!(m.record().steps.len(), 1, "round 2 is not revealed yet");
    assert_eq!(m.submission(P1).unwrap().text, "B b1 W b2");
    assert!(m.submission(P2).is_none());
    // The transport tells the two apart by the decision number (409 stale_decision).
    assert_eq!(m.decision(), 1);
}

#[test]
fn a_refused_submission_gives_the_reason_and_the_seat_can_resubmit() {
    let mut m = new("goofspiel");
    let err = m.submit(P1, "99", 1_000).unwrap_err();
    let MatchError::Refused { reason, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(reason.contains("99"), "{reason}");
    assert!(matches!(
        m.log().last(),
        Some(LogEntry::Refused { seat: P1, text, .. }) if text == "99"
    ));
    assert!(m.submission(P1).is_none());
    m.submit(P1, "4", 2_000).unwrap();
    // A refusal keeps the earlier submission.
    assert!(m.submit(P1, "banana", 3_000).is_err());
    assert_eq!(m.submission(P1).unwrap().text, "4");
    // Not your turn is a refusal too (All-In: p2 answers after p1).
    let mut a = new("all-in-goofspiel");
    let err = a.submit(P2, "3", 0).unwrap_err();
    assert!(matches!(err, MatchError::Refused { .. }));
}

#[test]
fn only_the_first_refusals_of_a_decision_are_logged_and_the_match_still_rebuilds() {
    let mut m = new("goofspiel");
    let cap = m.config().logged_refusals.unwrap() as usize;
    let before = m.log().len();
    for i in 0..1_000u64 {
        assert!(matches!(
            m.submit(P1, "99", 1_000 + i),
            Err(MatchError::Refused { .. })
        ));
    }
    assert_eq!(m.refusals(P1), 1_000);
    assert_eq!(m.log().len() - before, cap);
    assert_eq!(
        Match::rebuild(m.config().clone(), m.log()).unwrap(),
        m,
        "the unlogged refusals change nothing"
    );
    // The next decision logs its own first refusals again.
    m.submit(P1, "1", 2_000).unwrap();
    m.submit(P2, "1", 2_000).unwrap();
    assert_eq!(m.refusals(P1), 0);
    let before = m.log().len();
    for i in 0..20 {
        assert!(m.submit(P2, "99", 3_000 + i).is_err());
    }
    assert_eq!(m.log().len() - before, cap);
    let rebuilt = Match::rebuild(m.config().clone(), m.log()).unwrap();
    assert_eq!(rebuilt, m);
    // A match stored before the cap (no `logged_refusals`) logs every refusal, as it did.
    let mut old = Match::new(MatchConfig {
        logged_refusals: None,
        ..MatchConfig::new("goofspiel")
    })
    .unwrap();
    let before = old.log().len();
    for i in 0..30 {
        assert!(old.submit(P1, "99", i).is_err());
    }
    assert_eq!(old.log().len() - before, 30);
    assert_eq!(
        Match::rebuild(old.config().clone(), old.log()).unwrap(),
        old
    );
}

#[test]
fn changes_of_mind_are_capped_and_a_rebuilt_match_stands_on_the_last_one_taken() {
    let mut m = new("goofspiel");
    let cap = m.config().changes.unwrap();
    assert_eq!(cap, colosseum_host::DEFAULT_CHANGES);
    let before = m.log().len();
    m.submit(P1, "1", 1_000).unwrap();
    let mut taken = "1".to_string();
    let mut refused = 0;
    for i in 0..1_000u64 {
        let mv = (i % 13 + 1).to_string();
        match m.submit(P1, &mv, 1_001 + i) {
            Ok(()) => taken = mv,
            Err(MatchError::TooManyChanges {
                seat: P1,
                cap: c,
                standing,
            }) => {
                assert_eq!((c, &standing), (cap, &taken));
                refused += 1;
            }
            Err(e) => panic!("{e:?}"),
        }
        // Every acknowledged change is in the log: the match rebuilt from it (after a crash)
        // stands on the last one taken.
        if i % 97 == 0 {
            let rebuilt = Match::rebuild(m.config().clone(), m.log()).unwrap();
            assert_eq!(rebuilt.submission(P1).unwrap().text, taken);
            assert!(rebuilt == m);
        }
    }
    assert_eq!(refused, 1_000 - cap);
    // One submission and `cap` changes: no more rows however many were sent.
    assert_eq!(m.log().len() - before, 1 + cap as usize);
    let err = m.submit(P1, "5", 5_000).unwrap_err();
    assert!(err.to_string().contains("stands"), "{err}");
    // Refusals are counted apart (their own cap), and locking still works.
    assert!(matches!(
        m.submit(P1, "99", 5_001),
        Err(MatchError::Refused { .. })
    ));
    m.lock(P1, 5_002).unwrap();
    let rebuilt = Match::rebuild(m.config().clone(), m.log()).unwrap();
    assert!(rebuilt == m);
    assert_eq!(rebuilt.submission(P1).unwrap().text, taken);
    // The next decision has its own changes.
    m.submit(P2, "2", 6_000).unwrap();
    assert_eq!(m.record().steps[1], TextStep::both(&taken, "2"));
    m.submit(P1, "3", 7_000).unwrap();
    m.submit(P1, "4", 7_001).unwrap();
    assert_eq!(m.submission(P1).unwrap().text, "4");
    // A match stored before the cap (no `changes`) takes every change, as it did.
    let mut old = Match::new(MatchConfig {
        changes: None,
        ..MatchConfig::new("goofspiel")
    })
    .unwrap();
    for i in 0..100u64 {
        old.submit(P1, &(i % 13 + 1).to_string(), i).unwrap();
    }
    assert!(Match::rebuild(old.config().clone(), old.log()).unwrap() == old);
}

#[test]
fn resignation_ends_the_match() {
    let mut m = new("square-goofspiel");
    m.submit(P1, "3", 100).unwrap();
    m.resign(P2, 200).unwrap();
    let r = m.result().unwrap();
    assert_eq!((r.winner, r.by), (Some(P1), EndKind::Resignation));
    assert_eq!(m.submit(P1, "4", 300), Err(MatchError::Over));
    assert_eq!(m.resign(P1, 300), Err(MatchError::Over));
    assert_eq!(m.next_deadline(), None);
    assert!(matches!(m.log().last(), Some(LogEntry::MatchEnded { .. })));
}

// ----- defaults at deadlines -----

#[test]
fn square_goofspiel_passes_at_ninety_seconds() {
    let mut m = new("square-goofspiel");
    m.submit(P1, "6", 10_000).unwrap();
    assert!(m.tick(89_999).is_empty());
    assert_eq!(m.next_deadline(), Some(90_000));
    m.tick(90_000);
    assert_eq!(defaults(&m), vec![(P2, "pass".to_string())]);
    assert_eq!(m.record().steps[1], TextStep::both("6", "pass"));
    // Nobody submits the next decision: both pass at 180 s.
    m.tick(180_000);
    assert_eq!(m.record().steps[2], TextStep::both("pass", "pass"));
}

#[test]
fn thwart_omega_defaults_to_a_random_legal_move() {
    let mut m = new("thwart-omega");
    let before = m.game().clone_box();
    m.tick(60_000);
    let d = defaults(&m);
    assert_eq!(d.len(), 2);
    for (seat, text) in &d {
        assert!(before.check_move(*seat, text).is_ok(), "{text}");
    }
    // Different seeds draw different defaults.
    let mut other = Match::new(MatchConfig {
        seed: 99,
        ..MatchConfig::new("thwart-omega")
    })
    .unwrap();
    other.tick(60_000);
    assert_ne!(defaults(&other), d);
}

#[test]
fn all_in_goofspiel_puts_down_no_cards_at_the_deadline() {
    let mut m = new("all-in-goofspiel");
    assert_eq!(m.game().pending(), Pending::One(P1));
    m.tick(60_000);
    assert_eq!(defaults(&m), vec![(P1, "pass".to_string())]);
    assert_eq!(m.game().pending(), Pending::One(P2));
    assert_eq!(m.clock(P2).deadline, Some(120_000));
    m.submit(P2, "12", 70_000).unwrap();
    assert_eq!(m.record().steps[1], TextStep::one(P2, "12"));
}

#[test]
fn goofspiel_bids_the_lowest_card_at_thirty_seconds() {
    let mut m = new("goofspiel");
    m.submit(P2, "13", 1).unwrap();
    assert!(m.view(Viewer::Spectator).timed_out.is_empty());
    m.tick(30_000);
    assert_eq!(defaults(&m), vec![(P1, "1".to_string())]);
    // Everyone is told whose move the clock made, until the next decision is decided.
    for viewer in [Viewer::Spectator, Viewer::Seat(P1), Viewer::Seat(P2)] {
        assert_eq!(m.view(viewer).timed_out, vec![P1]);
    }
    m.submit(P1, "2", 30_500).unwrap();
    m.submit(P2, "12", 31_000).unwrap();
    assert!(m.view(Viewer::Spectator).timed_out.is_empty());
}

#[test]
fn a_default_is_locked_and_a_late_submission_is_for_the_next_decision() {
    let mut m = new("goofspiel");
    m.tick(30_000);
    // Both defaulted and revealed at 30 s; a submission at 31 s is for round 2.
    m.submit(P1, "13", 31_000).unwrap();
    assert_eq!(m.record().steps.len(), 3);
    assert_eq!(m.submission(P1).unwrap().text, "13");
}

// ----- Galespiel's bank -----

/// Galespiel starts with both seats bidding.
fn assert_galespiel_bids(m: &Match) {
    assert_eq!(m.game().pending(), Pending::Both);
    assert_eq!(m.game().decision_kind(), "bid");
}

#[test]
fn galespiel_bank_is_spent_in_five_second_steps_and_empty_while_bidding_loses() {
    let mut m = new("galespiel");
    assert_galespiel_bids(&m);
    assert_eq!(m.clock(P1).bank_ms, 300_000);
    assert!(m.tick(59_999).is_empty());
    let fired = m.tick(60_000).to_vec();
    assert_eq!(
        fired,
        vec![
            LogEntry::TurnUp {
                at: 60_000,
                seat: P1,
                turn_ms: 60_000,
                bank_ms: 300_000
            },
            LogEntry::TurnUp {
                at: 60_000,
                seat: P2,
                turn_ms: 60_000,
                bank_ms: 300_000
            },
            LogEntry::BankSpent {
                at: 60_000,
                seat: P1,
                ms: 5_000,
                left_ms: 295_000
            },
            LogEntry::BankSpent {
                at: 60_000,
                seat: P2,
                ms: 5_000,
                left_ms: 295_000
            },
        ]
    );
    assert_eq!(m.clock(P1).deadline, Some(65_000));
    // p1 bids one second into its second step: that step is spent whole.
    m.submit(P1, "9", 66_000).unwrap();
    assert_eq!(m.clock(P1).bank_ms, 290_000);
    assert_eq!(m.clock(P1).deadline, None);
    // p2 never bids: 60 steps, then the loss at 360 s.
    m.tick(359_999);
    assert!(!m.is_over());
    m.tick(1_000_000);
    let spent: Vec<_> = entries(&m, |e| matches!(e, LogEntry::BankSpent { seat: P2, .. }));
    assert_eq!(spent.len(), 60);
    assert_eq!(m.clock(P2).bank_ms, 0);
    let r = m.result().unwrap();
    assert_eq!((r.winner, r.by), (Some(P1), EndKind::Time));
    assert!(matches!(
        m.log()[m.log().len() - 2],
        LogEntry::TimedOut {
            at: 360_000,
            seat: P2
        }
    ));
}

#[test]
fn galespiel_empty_bank_while_building_ends_the_building() {
    let TimeControl::Timed(mut clocks) = TimeControl::for_game("galespiel") else {
        unreachable!()
    };
    clocks.bank_ms = 5_000;
    let mut m = Match::new(MatchConfig {
        time: Some(TimeControl::Timed(clocks)),
        ..MatchConfig::new("galespiel")
    })
    .unwrap();
    assert_galespiel_bids(&m);
    m.submit(P1, "9", 1_000).unwrap();
    m.submit(P2, "1", 2_000).unwrap();
    assert_eq!(m.game().pending(), Pending::One(P1));
    assert_eq!(m.game().decision_kind(), "build");
    assert_eq!(m.clock(P1).deadline, Some(32_000), "30 s to build");
    m.tick(32_000);
    assert_eq!(m.clock(P1).deadline, Some(37_000));
    m.tick(37_000);
    assert!(!m.is_over());
    assert_eq!(defaults(&m), vec![(P1, "done".to_string())]);
    assert_eq!(m.record().steps.last().unwrap(), &TextStep::one(P1, "done"));
}

// ----- The Witch's Brew's reserve -----

#[test]
fn witchs_brew_reserve_is_spent_continuously_and_empty_loses() {
    let mut m = new("witchs-brew");
    let seat = match m.game().pending() {
        Pending::One(s) => s,
        p => panic!("a pick first, not {p:?}"),
    };
    assert_eq!(m.clock(seat).turn_deadline, Some(60_000));
    assert_eq!(m.clock(seat).deadline, Some(660_000));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mv = m.game().random_move(seat, &mut rng).unwrap();
    m.submit(seat, &mv, 100_000).unwrap();
    assert_eq!(m.clock(seat).bank_ms, 560_000);
    assert!(m.log().iter().any(|e| matches!(
        e,
        LogEntry::BankSpent {
            at: 100_000,
            ms: 40_000,
            left_ms: 560_000,
            ..
        }
    )));
    // Nobody acts again. The next seat to act runs out of its reserve at a Cauldron pick: the
    // pick is made for it (RULINGS.md: the reserve-time loss is the Placement Phase's only), and
    // so on through the Intermission; the first seat out of reserve in Placement loses.
    let next = m.game().pending().seats()[0];
    assert_eq!(m.game().decision_kind(), "pick");
    let bank = m.clock(next).bank_ms;
    m.tick(10_000_000);
    let r = m.result().unwrap();
    assert_eq!(r.by, EndKind::Time);
    let at = 100_000 + 60_000 + bank;
    let log = m.log();
    assert!(
        matches!(log.iter().find(|e| matches!(e, LogEntry::DefaultApplied { .. } | LogEntry::TimedOut { .. })),
            Some(LogEntry::DefaultApplied { at: first, seat, .. }) if *first == at && *seat == next),
        "the pick is made for {next} when its reserve runs out"
    );
    let assigned = log
        .iter()
        .rposition(|e| matches!(e, LogEntry::DefaultApplied { text, .. } if text.contains('/')))
        .expect("the Intermission's assignments are filled in");
    let lost = log
        .iter()
        .position(|e| matches!(e, LogEntry::TimedOut { .. }))
        .expect("a loss on time in Placement");
    assert!(assigned < lost, "no loss on time before Placement");
    assert_eq!(m.clock(next).bank_ms, 0);
}

#[test]
fn a_turns_time_running_out_is_noted_once_for_each_seat_still_deciding_with_a_bank() {
    // Galespiel (a stepped bank): p1 bids in time, p2 does not: only p2's turn is up, once,
    // although its bank is then spent step after step.
    let mut m = new("galespiel");
    m.submit(P1, "9", 30_000).unwrap();
    m.tick(75_000);
    let ups: Vec<_> = entries(&m, |e| matches!(e, LogEntry::TurnUp { .. }));
    assert_eq!(
        ups,
        vec![&LogEntry::TurnUp {
            at: 60_000,
            seat: P2,
            turn_ms: 60_000,
            bank_ms: 300_000
        }]
    );
    // The Witch's Brew (a continuous bank): the notice comes at the turn's end, before the
    // bank's own deadline, and the match goes on untouched.
    let mut m = new("witchs-brew");
    let seat = m.game().pending().seats()[0];
    let before = m.clock(seat);
    assert_eq!(m.tick(59_999), &[]);
    assert_eq!(
        m.tick(60_000),
        &[LogEntry::TurnUp {
            at: 60_000,
            seat,
            turn_ms: 60_000,
            bank_ms: 600_000
        }]
    );
    assert_eq!(m.clock(seat), before, "a notice changes no clock");
    assert!(!m.is_over());
    // A seat without a bank, or one that decided in time, gets no notice.
    let mut m = new("square-goofspiel");
    m.tick(1_000_000);
    assert!(entries(&m, |e| matches!(e, LogEntry::TurnUp { .. })).is_empty());
}

#[test]
fn a_log_stored_without_turn_notices_rebuilds_to_the_same_match() {
    let mut m = new("witchs-brew");
    let seat = m.game().pending().seats()[0];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mv = m.game().random_move(seat, &mut rng).unwrap();
    m.submit(seat, &mv, 100_000).unwrap();
    let log = m.log().to_vec();
    assert!(log.iter().any(|e| matches!(e, LogEntry::TurnUp { .. })));
    // As a server before the notices stored it: the same entries without them.
    let old: Vec<LogEntry> = log
        .iter()
        .filter(|e| !matches!(e, LogEntry::TurnUp { .. }))
        .cloned()
        .collect();
    let rebuilt = Match::rebuild(m.config().clone(), &old).unwrap();
    assert_eq!(rebuilt.log(), &old[..], "the stored log is kept as stored");
    assert_eq!(rebuilt.clock(seat), m.clock(seat));
    assert_eq!(rebuilt.record(), m.record());
    // And with them, exactly as written.
    let again = Match::rebuild(m.config().clone(), &log).unwrap();
    assert_eq!(again.log(), &log[..]);
}

// ----- untimed -----

#[test]
fn untimed_matches_never_time_out() {
    for entry in registry() {
        let mut m = Match::new(MatchConfig {
            time: Some(TimeControl::Untimed),
            ..MatchConfig::new(entry.id)
        })
        .unwrap();
        assert_eq!(m.next_deadline(), None);
        assert!(m.tick(u64::MAX / 2).is_empty(), "{}", entry.id);
        assert!(!m.is_over());
        assert_eq!(m.clock(P1).deadline, None);
    }
}

// ----- All-In Goofspiel's replay on a draw -----

fn pass_until_over_or_new_game(m: &mut Match, t: &mut u64) {
    let games = m.records().len();
    while !m.is_over() && m.records().len() == games {
        let seat = m.game().pending().seats()[0];
        *t += 1_000;
        m.submit(seat, "pass", *t).unwrap();
    }
}

#[test]
fn all_in_goofspiel_replays_a_draw_with_the_other_player_starting() {
    let mut m = new("all-in-goofspiel");
    let mut t = 0;
    pass_until_over_or_new_game(&mut m, &mut t);
    assert!(!m.is_over(), "the draw is replayed");
    assert!(matches!(
        m.log().last(),
        Some(LogEntry::GameReplayed { options, .. }) if options["first"] == json!("p2")
    ));
    assert_eq!(m.game().pending(), Pending::One(P2));
    assert_eq!(m.record().options["first"], json!("p2"));
    assert_eq!(m.view(Viewer::Spectator).game_number, 2);
    pass_until_over_or_new_game(&mut m, &mut t);
    let r = m.result().unwrap();
    assert_eq!((r.winner, r.by), (Some(P1), EndKind::SecondDraw));
    // Both records replay to a draw.
    let records = m.records();
    assert_eq!(records.len(), 2);
    for rec in &records {
        let done = replay_record(rec).unwrap().unwrap();
        assert_eq!(done.game.outcome().unwrap().winner, None);
        assert_eq!(rec.steps.len(), 22);
    }
    // No advantage holder: the match is a draw; replay off: the first draw stands.
    let mut m = Match::new(MatchConfig {
        advantage: None,
        ..MatchConfig::new("all-in-goofspiel")
    })
    .unwrap();
    t = 0;
    pass_until_over_or_new_game(&mut m, &mut t);
    pass_until_over_or_new_game(&mut m, &mut t);
    assert_eq!(m.result().unwrap().winner, None);
    let mut m = Match::new(MatchConfig {
        replay_on_draw: Some(false),
        ..MatchConfig::new("all-in-goofspiel")
    })
    .unwrap();
    t = 0;
    pass_until_over_or_new_game(&mut m, &mut t);
    assert_eq!(m.result().unwrap().by, EndKind::Game);
}

#[test]
fn replay_on_draw_needs_a_first_option() {
    let err = Match::new(MatchConfig {
        replay_on_draw: Some(true),
        ..MatchConfig::new("goofspiel")
    })
    .unwrap_err();
    assert!(err.to_string().contains("first"), "{err}");
}

// ----- configuration -----

#[test]
fn rematch_swaps_seats() {
    let config = MatchConfig {
        seats: [
            Player::Human {
                name: Some("ana".into()),
            },
            Player::Bot {
                level: "mcts".into(),
            },
        ],
        seed: 5,
        ..MatchConfig::new("thwart-omega")
    };
    let next = config.rematch(6);
    assert_eq!(next.seats[0], config.seats[1]);
    assert_eq!(next.seats[1], config.seats[0]);
    assert_eq!((next.seed, &next.game), (6, &config.game));
}

#[test]
fn configs_and_time_controls_are_json() {
    let config: MatchConfig = serde_json::from_value(json!({
        "game": "galespiel",
        "seats": [{"kind": "human", "name": "x"}, {"kind": "bot", "level": "random"}],
        "time": {"kind": "timed", "per_decision_ms": 1000, "bank_ms": 5000, "bank_step_ms": 1000,
                 "empty_bank": {"loses_in": ["bid"]}},
    }))
    .unwrap();
    let back: MatchConfig = serde_json::from_str(&serde_json::to_string(&config).unwrap()).unwrap();
    assert_eq!(back, config);
    assert_eq!(config.advantage, Some(P1));
    let untimed: TimeControl = serde_json::from_value(json!({"kind": "untimed"})).unwrap();
    assert_eq!(untimed, TimeControl::Untimed);
    assert!(serde_json::from_value::<MatchConfig>(json!({"game": "x", "bogus": 1})).is_err());
    assert!(Match::new(MatchConfig::new("nonesuch")).is_err());
    let bad_options = MatchConfig {
        options: serde_json::from_value(json!({"nope": 1})).unwrap(),
        ..MatchConfig::new("goofspiel")
    };
    assert!(Match::new(bad_options).is_err());
}

#[test]
fn default_time_controls_follow_the_seeds() {
    let ms = |g: &str, kind: &str| TimeControl::for_game(g).clocks().unwrap().decision_ms(kind);
    assert_eq!(ms("square-goofspiel", "move"), 90_000);
    assert_eq!(ms("thwart-omega", "move"), 60_000);
    assert_eq!(ms("galespiel", "bid"), 60_000);
    assert_eq!(ms("galespiel", "build"), 30_000);
    assert_eq!(ms("witchs-brew", "move"), 60_000);
    assert_eq!(ms("witchs-brew", "assign"), 300_000);
    assert_eq!(ms("all-in-goofspiel", "move"), 60_000);
    assert_eq!(ms("goofspiel", "move"), 30_000);
    let g = TimeControl::for_game("galespiel");
    let c = g.clocks().unwrap();
    assert_eq!((c.bank_ms, c.bank_step_ms), (300_000, 5_000));
    assert!(c.empty_bank.loses("bid") && !c.empty_bank.loses("build"));
    let w = TimeControl::for_game("witchs-brew");
    assert_eq!(w.clocks().unwrap().bank_ms, 600_000);
    assert!(w.clocks().unwrap().empty_bank.loses("move"));
    // RULINGS.md: the reserve-time loss is the Placement Phase's only.
    for kind in ["pick", "discard", "assign"] {
        assert!(!w.clocks().unwrap().empty_bank.loses(kind), "{kind}");
    }
}

#[test]
fn the_witchs_brew_intermission_gives_five_minutes() {
    let mut m = new("witchs-brew");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut t = 0;
    while m.game().decision_kind() != "assign" {
        assert!(!m.is_over(), "the game ended before the Intermission");
        t += 1_000;
        // One submission at a time, so that none is made once the Intermission has begun.
        let seat = Seat::BOTH
            .into_iter()
            .find(|&s| m.game().pending().includes(s) && m.submission(s).is_none())
            .unwrap();
        let mv = m.game().random_move(seat, &mut rng).unwrap();
        m.submit(seat, &mv, t).unwrap();
    }
    for seat in Seat::BOTH {
        let c = m.clock(seat);
        assert_eq!(c.turn_deadline, Some(t + 300_000), "{seat}: {c:?}");
    }
}

// ----- random matches: rebuild, record, views -----

fn random_time_control(rng: &mut ChaCha8Rng) -> Option<TimeControl> {
    match rng.random_range(0..4) {
        0 => None,
        1 => Some(TimeControl::Untimed),
        _ => {
            let step = [0, 500, 1_000][rng.random_range(0..3)];
            let empty_bank = match rng.random_range(0..3) {
                0 => EmptyBank::Default,
                1 => EmptyBank::LosesIn(vec!["bid".into()]),
                _ if rng.random_bool(0.2) => EmptyBank::Loses,
                _ => EmptyBank::Default,
            };
            Some(TimeControl::Timed(Clocks {
                per_decision_ms: rng.random_range(1_000..5_000),
                per_kind_ms: BTreeMap::from([("build".to_string(), 1_500)]),
                bank_ms: rng.random_range(0..8_000),
                bank_step_ms: step,
                empty_bank,
            }))
        }
    }
}

/// Plays a match with random events at random times; calls `each` after every event.
fn random_match(
    game: &str,
    seed: u64,
    events: usize,
    mut each: impl FnMut(&Match, &mut ChaCha8Rng),
) -> Match {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let config = MatchConfig {
        seed: rng.random(),
        time: random_time_control(&mut rng),
        ..MatchConfig::new(game)
    };
    let mut m = Match::new(config).unwrap();
    let mut now = 0u64;
    for _ in 0..events {
        if m.is_over() {
            break;
        }
        now += match rng.random_range(0..10) {
            0..=5 => rng.random_range(0..1_500),
            6..=7 => rng.random_range(0..6_000),
            8 => rng.random_range(0..20_000),
            _ => 0,
        };
        let seats = m.game().pending().seats().to_vec();
        let seat = if seats.is_empty() || rng.random_bool(0.05) {
            if rng.random_bool(0.5) {
                P1
            } else {
                P2
            }
        } else {
            seats[rng.random_range(0..seats.len())]
        };
        let _ = match rng.random_range(0..40) {
            0 => {
                m.tick(now);
                Ok(())
            }
            1 if rng.random_bool(0.1) => m.resign(seat, now),
            2..=3 => m.lock(seat, now),
            4..=5 => m.submit(seat, "zz top", now),
            _ => match m.game().random_move(seat, &mut rng) {
                Some(mv) => m.submit(seat, &mv, now),
                None => m.submit(seat, "pass", now),
            },
        };
        each(&m, &mut rng);
    }
    m
}

#[test]
fn rebuilding_from_the_log_gives_the_same_match_and_clocks() {
    for entry in registry() {
        for seed in 0..8 {
            let mut snapshots = Vec::new();
            let m = random_match(entry.id, seed, 400, |m, rng| {
                if rng.random_bool(0.05) {
                    snapshots.push((m.log().len(), m.clone()));
                }
            });
            // Through JSON, as a store would keep it.
            let json = serde_json::to_string(m.log()).unwrap();
            let log: Vec<LogEntry> = serde_json::from_str(&json).unwrap();
            let config: MatchConfig =
                serde_json::from_str(&serde_json::to_string(m.config()).unwrap()).unwrap();
            let rebuilt = Match::rebuild(config.clone(), &log).unwrap();
            assert!(rebuilt == m, "{} seed {seed}", entry.id);
            for (len, snap) in &snapshots {
                let r = Match::rebuild(config.clone(), &log[..*len]).unwrap();
                assert!(r == *snap, "{} seed {seed} at {len}", entry.id);
            }
            // The record replays to the same game.
            let done = replay_record(m.record()).unwrap().unwrap();
            for v in [Viewer::Spectator, Viewer::Seat(P1), Viewer::Seat(P2)] {
                assert_eq!(done.game.view_json(v), m.game().view_json(v));
            }
            // Entries are in time order.
            assert!(m.log().windows(2).all(|w| w[0].at() <= w[1].at()));
        }
    }
}

#[test]
fn a_tampered_log_does_not_rebuild() {
    let m = random_match("goofspiel", 3, 200, |_, _| {});
    let mut log = m.log().to_vec();
    let i = log
        .iter()
        .position(|e| matches!(e, LogEntry::Revealed { .. }))
        .unwrap();
    if let LogEntry::Revealed { step, .. } = &mut log[i] {
        step.p1 = Some("13".into());
        step.p2 = Some("13".into());
    }
    assert!(Match::rebuild(m.config().clone(), &log).is_err());
}

#[test]
fn views_never_show_another_seats_pending_submission() {
    for entry in registry() {
        let mut checked = 0;
        for seed in 100..106 {
            random_match(entry.id, seed, 300, |m, rng| {
                if m.is_over() {
                    return;
                }
                if let Pending::One(seat) = m.game().pending() {
                    // A starter's face-down cards (All-In Goofspiel): the same cards in another
                    // order must look the same to everyone else once put down.
                    let Some(x) = m.game().random_move(seat, rng) else {
                        return;
                    };
                    let mut cards: Vec<&str> = x.split(' ').collect();
                    cards.reverse();
                    let y = cards.join(" ");
                    if x == y || m.game().check_move(seat, &y).is_err() {
                        return;
                    }
                    let (mut a, mut b) = (m.clone(), m.clone());
                    if a.submit(seat, &x, m.now()).is_err() || b.submit(seat, &y, m.now()).is_err()
                    {
                        return;
                    }
                    // Still face down: the other seat is to answer in the same game (a move that
                    // ends a game, replayed after a draw, is public with that game's end).
                    if a.game().pending() != Pending::One(seat.other())
                        || a.game_number() != m.game_number()
                    {
                        return;
                    }
                    for viewer in [Viewer::Seat(seat.other()), Viewer::Spectator] {
                        assert_eq!(a.view(viewer), b.view(viewer), "{} {viewer}", entry.id);
                        checked += 1;
                    }
                    return;
                }
                if m.game().pending() != Pending::Both {
                    return;
                }
                for seat in Seat::BOTH {
                    let other = seat.other();
                    if m.submission(other).is_some() {
                        continue;
                    }
                    // Two matches that differ only in `seat`'s pending move.
                    let (mut a, mut b) = (m.clone(), m.clone());
                    let now = m.now();
                    let (Some(x), Some(y)) = (
                        m.game().random_move(seat, rng),
                        m.game().random_move(seat, rng),
                    ) else {
                        continue;
                    };
                    if a.submit(seat, &x, now).is_err() || b.submit(seat, &y, now).is_err() {
                        continue; // locked, or the deadline passed
                    }
                    if a.submission(seat).is_none() || b.submission(seat).is_none() {
                        continue;
                    }
                    for viewer in [Viewer::Seat(other), Viewer::Spectator] {
                        let va = a.view(viewer);
                        assert_eq!(va, b.view(viewer), "{} {viewer}", entry.id);
                        assert!(va.seats.get(seat).submitted);
                        assert!(va.seats.get(seat).submission.is_none());
                        let (mut all, mut before) = (Vec::new(), Vec::new());
                        strings(&serde_json::to_value(&va).unwrap(), &mut all);
                        strings(&serde_json::to_value(m.view(viewer)).unwrap(), &mut before);
                        // The text itself must not appear unless it was there already (a
                        // public "pass" shown for an earlier round).
                        if !before.contains(&x) {
                            assert!(!all.contains(&x), "{} leaks {x}", entry.id);
                        }
                        checked += 1;
                    }
                    let own = a.view(Viewer::Seat(seat));
                    assert_eq!(own.seats.get(seat).submission, Some(x));
                }
            });
        }
        assert!(checked >= 10, "{}: {checked} checks", entry.id);
        eprintln!("{}: {checked} views checked", entry.id);
    }
}

#[test]
fn the_view_shows_clocks_and_who_is_in() {
    let mut m = new("goofspiel");
    m.submit(P1, "7", 5_000).unwrap();
    let v = m.view(Viewer::Seat(P2));
    assert!(v.seats.p1.submitted);
    assert!(!v.seats.p2.submitted);
    assert!(v.seats.p2.to_act);
    assert_eq!(v.seats.p2.clock.deadline, Some(30_000));
    assert_eq!(v.seats.p1.clock.deadline, None);
    assert_eq!(v.decision, "move");
    assert_eq!(v.result, None);
    assert!(v.view.is_object());
}

#[test]
fn both_seats_out_of_time_at_once_is_a_drawn_match() {
    let mut m = Match::new(MatchConfig {
        time: Some(TimeControl::Timed(Clocks {
            empty_bank: EmptyBank::Loses,
            ..Clocks::per_decision(1)
        })),
        ..MatchConfig::new("goofspiel")
    })
    .unwrap();
    m.tick(5_000);
    let r = m.result().unwrap();
    assert_eq!((r.winner, r.by), (None, EndKind::Time));
    assert!(m.log().contains(&LogEntry::TimedOut {
        at: 1_000,
        seat: P1
    }));
    assert!(m.log().contains(&LogEntry::TimedOut {
        at: 1_000,
        seat: P2
    }));
}

#[test]
fn time_never_runs_backwards_and_a_deadline_comes_before_a_submission_at_the_same_time() {
    let mut m = new("goofspiel");
    m.submit(P1, "3", 5_000).unwrap();
    m.submit(P1, "4", 3_000).unwrap();
    assert_eq!(m.log().last().unwrap().at(), 5_000);
    // p2's deadline is 30 s: a submission at exactly 30 s is too late for this round.
    m.submit(P2, "13", 30_000).unwrap();
    assert_eq!(defaults(&m), vec![(P2, "1".to_string())]);
    assert_eq!(m.record().steps[1], TextStep::both("4", "1"));
    assert_eq!(m.submission(P2).unwrap().text, "13");
}

#[test]
fn a_finished_match_shows_its_result_to_everyone() {
    let mut m = new("thwart-omega");
    m.resign(P1, 10).unwrap();
    for viewer in [Viewer::Spectator, Viewer::Seat(P1), Viewer::Seat(P2)] {
        let v = m.view(viewer);
        let r = v.result.unwrap();
        assert_eq!((r.winner, r.by), (Some(P2), EndKind::Resignation));
        assert!(!v.seats.p1.to_act);
    }
}

#[test]
fn times_near_the_end_of_u64_do_not_overflow() {
    for entry in registry() {
        let mut m = new(entry.id);
        let seat = m.game().pending().seats()[0];
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let mv = m.game().random_move(seat, &mut rng).unwrap();
        // The first deadlines fire on the way; whatever is left happens near the end of time.
        // Nothing may panic (an overflow would in a debug build), the clocks stay in range and
        // the match still rebuilds from its log.
        let _ = m.submit(seat, &mv, u64::MAX - 1);
        m.tick(u64::MAX);
        // Every deadline up to the end of time has fired: defaults and losses on time have
        // finished the game long before.
        assert!(m.is_over(), "{}: {:?}", entry.id, m.log().last());
        let rebuilt = Match::rebuild(m.config().clone(), m.log()).unwrap();
        assert_eq!(rebuilt.log(), m.log(), "{}", entry.id);
    }
}

#[test]
fn a_match_can_be_shared_between_threads() {
    fn send_sync<T: Send + Sync + 'static>() {}
    send_sync::<Match>();
    send_sync::<LogEntry>();
    send_sync::<MatchConfig>();
}

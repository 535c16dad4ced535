//! A seat's clock held while a server's bot waits for a slot to search in
//! (`Match::hold_clock`, `Match::free_clock`): its deadline does not run meanwhile, it gets
//! what was left when it was held, and the match rebuilds exactly from its log.

use colosseum_engine::Seat;
use colosseum_host::{LogEntry, Match, MatchConfig};

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

/// Classic Goofspiel: 30 s a bid, the lowest card at the deadline.
fn goofspiel() -> Match {
    Match::new(MatchConfig::new("goofspiel")).unwrap()
}

fn rebuilds(m: &Match) {
    let again = Match::rebuild(m.config().clone(), m.log()).unwrap();
    assert!(again == *m, "the match rebuilds from its log");
}

fn defaults_for(m: &Match, seat: Seat) -> usize {
    m.log()
        .iter()
        .filter(|e| matches!(e, LogEntry::DefaultApplied { seat: s, .. } if *s == seat))
        .count()
}

#[test]
fn a_held_clock_does_not_run_and_gets_what_was_left_when_freed() {
    let mut m = goofspiel();
    assert_eq!(m.clock(P1).deadline, Some(30_000));
    m.hold_clock(P1, 10_000).unwrap();
    assert!(m.clock_held(P1));
    assert_eq!(m.clock(P1).deadline, None);
    // Holding again changes nothing and logs nothing.
    let logged = m.log().len();
    m.hold_clock(P1, 11_000).unwrap();
    assert_eq!(m.log().len(), logged);
    // p2's clock runs: its default is made at 30 s; p1's is not, however long it waits.
    m.tick(300_000);
    assert_eq!(defaults_for(&m, P2), 1);
    assert_eq!(defaults_for(&m, P1), 0, "a held clock never times out");
    // Freed at 300 s: the 20 s left when it was held.
    m.free_clock(P1, 300_000).unwrap();
    assert!(!m.clock_held(P1));
    assert_eq!(m.clock(P1).deadline, Some(320_000));
    assert!(m.log().contains(&LogEntry::ClockFreed {
        at: 300_000,
        seat: P1,
        held_ms: 290_000
    }));
    m.tick(319_999);
    assert_eq!(defaults_for(&m, P1), 0);
    rebuilds(&m);
    m.tick(320_000);
    assert_eq!(defaults_for(&m, P1), 1, "once freed, the clock runs again");
    rebuilds(&m);
}

#[test]
fn a_hold_ends_with_a_submission_and_is_nothing_in_an_untimed_match() {
    let mut m = goofspiel();
    m.hold_clock(P1, 1_000).unwrap();
    m.submit(P1, "13", 100_000).unwrap();
    assert!(!m.clock_held(P1));
    // Freeing a clock no longer held logs nothing.
    let logged = m.log().len();
    m.free_clock(P1, 100_000).unwrap();
    assert_eq!(m.log().len(), logged);
    rebuilds(&m);

    let mut config = MatchConfig::new("goofspiel");
    config.time = Some(colosseum_host::TimeControl::Untimed);
    let mut untimed = Match::new(config).unwrap();
    let logged = untimed.log().len();
    untimed.hold_clock(P1, 1_000).unwrap();
    assert!(!untimed.clock_held(P1));
    assert_eq!(untimed.log().len(), logged);
}

#[test]
fn a_pause_during_a_hold_is_not_counted_twice() {
    let mut m = goofspiel();
    m.hold_clock(P1, 10_000).unwrap();
    m.pause(20_000).unwrap();
    // Freed during the pause: the 20 s left run from the resume.
    m.free_clock(P1, 30_000).unwrap();
    m.resume(50_000).unwrap();
    assert_eq!(m.clock(P1).deadline, Some(70_000));
    rebuilds(&m);
}

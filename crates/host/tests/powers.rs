//! The host's powers a tournament's host uses: pause and resume, time given to a seat, a result
//! decided with a reason. Each is a logged input, so the match rebuilds exactly.

use colosseum_engine::Seat;
use colosseum_host::{EndKind, LogEntry, Match, MatchConfig, MatchError};

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

fn defaults(m: &Match) -> usize {
    m.log()
        .iter()
        .filter(|e| matches!(e, LogEntry::DefaultApplied { .. }))
        .count()
}

#[test]
fn a_pause_stops_the_clocks_and_the_moves_and_resuming_gives_the_time_back() {
    let mut m = goofspiel();
    assert_eq!(m.clock(P1).deadline, Some(30_000));
    m.pause(10_000).unwrap();
    assert!(m.paused());
    assert_eq!(m.next_deadline(), None);
    // Long past the deadline: nothing fires, no move is taken.
    m.tick(100_000);
    assert_eq!(defaults(&m), 0);
    assert_eq!(m.submit(P1, "13", 100_000), Err(MatchError::Paused));
    assert_eq!(m.lock(P1, 100_000), Err(MatchError::Paused));
    assert!(matches!(m.pause(100_000), Err(MatchError::PauseRefused(_))));
    // Resumed at 110 s after 100 s paused: the deadline is 30 + 100 s.
    m.resume(110_000).unwrap();
    assert!(!m.paused());
    assert_eq!(m.clock(P1).deadline, Some(130_000));
    assert!(matches!(
        m.resume(110_000),
        Err(MatchError::PauseRefused(_))
    ));
    m.tick(129_999);
    assert_eq!(defaults(&m), 0);
    m.submit(P1, "13", 120_000).unwrap();
    m.tick(130_000);
    assert_eq!(defaults(&m), 1, "p2's bid is made at the moved deadline");
    rebuilds(&m);
    let kinds: Vec<&LogEntry> = m.log().iter().filter(|e| e.is_host_power()).collect();
    assert_eq!(
        kinds,
        [
            &LogEntry::Paused { at: 10_000 },
            &LogEntry::Resumed { at: 110_000 }
        ]
    );
}

#[test]
fn time_given_moves_the_seats_deadline_on() {
    let mut m = goofspiel();
    m.give_time(P2, 45_000, 5_000).unwrap();
    assert_eq!(m.clock(P2).deadline, Some(75_000));
    assert_eq!(m.clock(P1).deadline, Some(30_000));
    m.submit(P2, "13", 6_000).unwrap();
    m.tick(30_000);
    assert_eq!(defaults(&m), 1, "p1 still times out at 30 s");
    rebuilds(&m);
    assert!(m.log().contains(&LogEntry::TimeGiven {
        at: 5_000,
        seat: P2,
        ms: 45_000
    }));
}

#[test]
fn an_adjudicated_match_ends_with_the_hosts_reason() {
    let mut m = goofspiel();
    m.submit(P1, "5", 1_000).unwrap();
    m.adjudicate(Some(P2), "p1 left the tournament", 2_000)
        .unwrap();
    let result = m.result().unwrap();
    assert_eq!(result.winner, Some(P2));
    assert_eq!(result.by, EndKind::Adjudicated);
    assert!(result.reason.contains("p1 left the tournament"));
    assert_eq!(m.submit(P2, "5", 3_000), Err(MatchError::Over));
    rebuilds(&m);
    // A draw can be decided too.
    let mut m = goofspiel();
    m.adjudicate(None, "both agreed", 1).unwrap();
    assert_eq!(m.result().unwrap().winner, None);
    rebuilds(&m);
}

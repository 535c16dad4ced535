//! A refused submission carries the game's own error, so a transport tells text that is not a
//! move at all from a move not legal now; what the seat is told says what is allowed, and the
//! log keeps the game's words.

use colosseum_engine::{Seat, StepError};
use colosseum_host::{commitment, LogEntry, Match, MatchConfig, MatchError};

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

fn new(game: &str) -> Match {
    Match::new(MatchConfig::new(game)).unwrap()
}

fn reason(err: &MatchError) -> &str {
    match err {
        MatchError::Refused { reason, .. } => reason,
        other => panic!("not a refusal: {other:?}"),
    }
}

#[test]
fn text_that_is_not_a_move_is_told_from_a_move_not_legal_now() {
    let mut m = new("goofspiel");
    let err = m.submit(P1, "banana", 1_000).unwrap_err();
    assert!(err.is_not_a_move(), "{err:?}");
    assert!(matches!(
        &err,
        MatchError::Refused {
            error: StepError::NotAMove { seat: P1, .. },
            ..
        }
    ));
    // The seat is told without its own seat name; the log keeps the game's full words.
    assert!(
        reason(&err).starts_with("`banana` is not a move: "),
        "{err}"
    );
    let Some(LogEntry::Refused { reason: logged, .. }) = m.log().last() else {
        panic!("logged")
    };
    assert!(logged.starts_with("p1: `banana` is not a move"), "{logged}");

    m.submit(P1, "4", 2_000).unwrap();
    m.submit(P2, "5", 2_000).unwrap();
    let err = m.submit(P1, "4", 3_000).unwrap_err();
    assert!(!err.is_not_a_move(), "{err:?}");
    assert!(matches!(
        &err,
        MatchError::Refused {
            error: StepError::Illegal { seat: P1, .. },
            ..
        }
    ));
    assert!(
        reason(&err).starts_with("not legal here: you have no 4 left"),
        "{err}"
    );
    // Twelve cards are left: that many legal moves are listed.
    assert!(
        reason(&err).ends_with("the legal moves now: 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13"),
        "{err}"
    );
}

#[test]
fn thirteen_legal_moves_are_not_listed_and_nine_are() {
    let mut m = new("goofspiel");
    let err = m.submit(P1, "banana", 0).unwrap_err();
    assert!(!reason(&err).contains("legal moves now"), "{err}");
    let mut g = new("galespiel");
    let err = g.submit(P1, "9 aid", 0).unwrap_err();
    assert!(!err.is_not_a_move(), "{err:?}");
    assert!(
        reason(&err).ends_with("; the legal moves now: 1, 2, 3, 4, 5, 6, 7, 8, 9"),
        "{err}"
    );
}

#[test]
fn a_move_out_of_turn_is_not_legal_now_and_says_so_without_seat_names() {
    let mut a = new("all-in-goofspiel");
    let err = a.submit(P2, "3", 0).unwrap_err();
    assert!(!err.is_not_a_move(), "{err:?}");
    assert!(matches!(
        &err,
        MatchError::Refused {
            error: StepError::WrongActors { .. },
            ..
        }
    ));
    assert_eq!(
        reason(&err),
        "it is not your turn: the game waits for your opponent's move"
    );
}

#[test]
fn an_opened_commitment_to_text_that_is_not_a_move_is_not_a_move_and_binding() {
    let mut m = Match::new(MatchConfig {
        sealed: true,
        ..MatchConfig::new("goofspiel")
    })
    .unwrap();
    let nonce = "9f2c4e7a1b3d5f60718293a4b5c6d7e8";
    let id = m.config().match_id.clone().expect("a bound match");
    let seal = |m: &Match, seat, text| commitment(&id, m.decision(), seat, text, nonce);
    let (h1, h2) = (seal(&m, P1, "banana"), seal(&m, P2, "6"));
    m.commit(P1, &h1, 100).unwrap();
    m.commit(P2, &h2, 200).unwrap();
    let err = m.open(P1, "banana", nonce, 300).unwrap_err();
    assert!(err.is_not_a_move(), "{err:?}");
    assert!(reason(&err).contains("binding"), "{err}");
}

//! Sealed submissions (issue 16): commit, then open, in simultaneous decisions.

mod common;

use colosseum_engine::{Pending, Seat, TextStep, Viewer};
use colosseum_games::{registry, replay_record};
use colosseum_host::{
    commitment, unbound_commitment, Clocks, EmptyBank, EndKind, LogEntry, Match, MatchConfig,
    MatchError, SealedPhase, TimeControl,
};
use common::strings;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

fn sealed(game: &str) -> Match {
    Match::new(MatchConfig {
        sealed: true,
        ..MatchConfig::new(game)
    })
    .unwrap()
}

fn nonce(rng: &mut impl Rng) -> String {
    (0..16)
        .map(|_| format!("{:02x}", rng.random::<u8>()))
        .collect()
}

const NONCE: &str = "9f2c4e7a1b3d5f60718293a4b5c6d7e8";

/// `seat`'s commitment to `text` with `nonce` in `m`'s pending decision.
fn seal(m: &Match, seat: Seat, text: &str, nonce: &str) -> String {
    let id = m.config().match_id.as_deref().expect("a bound match");
    commitment(id, m.decision(), seat, text, nonce)
}

#[test]
fn the_commitment_is_the_sha256_of_scheme_match_decision_seat_move_nonce() {
    // printf 'colosseum-seal-v1\n%s\n%s\n%s\n%s\n%s' 3f9c0a5e8d7b6a21 1 p1 7 NONCE | sha256sum
    assert_eq!(
        commitment("3f9c0a5e8d7b6a21", 1, P1, "7", NONCE),
        "7cfa546a070e3188d3053b4a316d9e9d5cc4f174ed9886f9d83ccfb23f4696b3"
    );
    // printf 'colosseum-seal-v1\n%s\n%s\n%s\n%s\n%s' '' 1 p2 'B d4 W e5' NONCE | sha256sum
    assert_eq!(
        commitment("", 1, P2, "B d4 W e5", NONCE),
        "2dadef110da4d323cfbd6446b76f91de180d683b079dc47f10df1448d17c8a82"
    );
    // The unbound form of matches stored before: printf '7\n%s' NONCE | sha256sum
    assert_eq!(
        unbound_commitment("7", NONCE),
        "110e5da52929a519a98a36c3ed92a3cda9479ab8abcead9a61fba4efc397d0b4"
    );
}

fn sealed_with_id(id: &str) -> Match {
    Match::new(MatchConfig {
        sealed: true,
        match_id: Some(id.into()),
        ..MatchConfig::new("goofspiel")
    })
    .unwrap()
}

#[test]
fn a_copy_of_the_other_seats_commitment_is_refused() {
    let mut m = sealed_with_id("3f9c0a5e8d7b6a21");
    let h = seal(&m, P1, "13", NONCE);
    m.commit(P1, &h, 100).unwrap();
    let len = m.log().len();
    // The hash is public (every view shows it): p2 sends it back as its own.
    let shown = m
        .view(Viewer::Seat(P2))
        .seats
        .p1
        .commitment
        .unwrap()
        .unwrap();
    assert_eq!(shown, h);
    let err = m.commit(P2, &shown, 200).unwrap_err();
    assert_eq!(
        err,
        MatchError::CommitmentReused {
            by: P1,
            decision: 1
        }
    );
    assert!(err.to_string().contains("already made"), "{err}");
    assert_eq!(m.log().len(), len, "a refused commitment leaves no trace");
    assert_eq!(m.commitment(P2), None);
    // p2 commits its own and the decision goes on.
    m.commit(P2, &seal(&m, P2, "1", NONCE), 300).unwrap();
    assert_eq!(m.sealed_phase(), Some(SealedPhase::Open));
}

#[test]
fn an_earlier_public_commitment_is_refused() {
    let mut m = sealed_with_id("3f9c0a5e8d7b6a21");
    let (h1, h2) = (seal(&m, P1, "13", NONCE), seal(&m, P2, "1", NONCE));
    m.commit(P1, &h1, 100).unwrap();
    m.commit(P2, &h2, 200).unwrap();
    m.open(P1, "13", NONCE, 300).unwrap();
    m.open(P2, "1", NONCE, 400).unwrap();
    // The next decision: the last one's commitments and openings are public.
    let last = m.view(Viewer::Spectator).sealed.unwrap().last.unwrap();
    assert_eq!(last.p1.unwrap().commitment, h1);
    let decision = m.decision();
    assert!(decision > 1);
    for (seat, old, by) in [(P2, &h1, P1), (P1, &h1, P1), (P1, &h2, P2)] {
        assert_eq!(
            m.commit(seat, old, 500),
            Err(MatchError::CommitmentReused { by, decision: 1 }),
            "{seat} replaying {by}'s"
        );
    }
    // Rebuilt from its log, the match still knows every commitment it has seen.
    let mut rebuilt = Match::rebuild(m.config().clone(), m.log()).unwrap();
    assert!(rebuilt == m);
    assert_eq!(
        rebuilt.commit(P2, &h1, 600),
        Err(MatchError::CommitmentReused {
            by: P1,
            decision: 1
        })
    );
}

#[test]
fn a_short_or_made_up_nonce_is_refused_with_what_is_allowed() {
    let mut m = sealed_with_id("3f9c0a5e8d7b6a21");
    let zeros = "0".repeat(64);
    let short = "9f2c4e7a1b3d5f60718293a4b5c6d7"; // 30 hex digits: 120 bits
    let abab = "ab".repeat(16);
    let upper = NONCE.to_uppercase();
    let b64 = "n8tOehs9X2BxgpOktcbX6A";
    m.commit(P1, &seal(&m, P1, "13", &zeros), 100).unwrap();
    m.commit(P2, &seal(&m, P2, "1", NONCE), 200).unwrap();
    let len = m.log().len();
    let err = m.open(P1, "13", &zeros, 300).unwrap_err();
    let MatchError::BadCommitment(why) = &err else {
        panic!("{err:?}")
    };
    assert!(
        why.contains("128") && why.contains("1 different digit"),
        "{why}"
    );
    for bad in [short, abab.as_str(), upper.as_str(), b64, ""] {
        let err = m.open(P1, "13", bad, 300).unwrap_err();
        let MatchError::BadCommitment(why) = &err else {
            panic!("{bad}: {err:?}")
        };
        assert!(why.contains("32 to 128 lowercase hex"), "{why}");
    }
    assert_eq!(m.log().len(), len, "refused openings change nothing");
    assert!(m.submission(P1).is_none());
    // A seat that committed with a guessable nonce cannot open: its opening deadline gives it
    // the timeout treatment.
    m.open(P2, "1", NONCE, 400).unwrap();
    m.tick(30_200);
    assert_eq!(m.record().steps[1], TextStep::both("1", "1"));
}

#[test]
fn a_commitment_made_for_another_seat_decision_or_match_does_not_open() {
    let id = "3f9c0a5e8d7b6a21";
    let mut m = sealed_with_id(id);
    let d = m.decision();
    for (label, hash) in [
        ("another seat", commitment(id, d, P2, "13", NONCE)),
        ("another decision", commitment(id, d + 1, P1, "13", NONCE)),
        (
            "another match",
            commitment("5d2e000000000000", d, P1, "13", NONCE),
        ),
        ("the unbound form", unbound_commitment("13", NONCE)),
    ] {
        let mut m = m.clone();
        m.commit(P1, &hash, 100).unwrap();
        m.commit(P2, &seal(&m, P2, "1", NONCE), 200).unwrap();
        let err = m.open(P1, "13", NONCE, 300).unwrap_err();
        assert!(
            matches!(err, MatchError::CommitmentMismatch { seat: P1, .. }),
            "{label}: {err:?}"
        );
        assert!(
            err.to_string().contains(&format!(
                "the match id `{id}`, the decision {d}, the seat `p1`"
            )),
            "{label}: {err}"
        );
    }
    // Made for this match, decision and seat, it opens.
    m.commit(P1, &commitment(id, d, P1, "13", NONCE), 100)
        .unwrap();
    m.commit(P2, &seal(&m, P2, "1", NONCE), 200).unwrap();
    m.open(P1, "13", NONCE, 300).unwrap();
}

#[test]
fn a_match_stored_before_the_binding_keeps_its_unbound_commitments() {
    // A configuration stored before `match_id` existed: the old hash, the old nonce rule, and a
    // copied commitment is taken as it was, so its stored log rebuilds.
    let old: MatchConfig =
        serde_json::from_str(r#"{"game": "goofspiel", "seed": 3, "sealed": true}"#).unwrap();
    assert_eq!(old.match_id, None);
    let mut m = Match::new(old.clone()).unwrap();
    let zeros = "0".repeat(32);
    m.commit(P1, &unbound_commitment("13", &zeros), 100)
        .unwrap();
    m.commit(P2, &unbound_commitment("13", &zeros), 200)
        .unwrap();
    m.open(P1, "13", &zeros, 300).unwrap();
    m.open(P2, "13", &zeros, 400).unwrap();
    assert_eq!(m.record().steps[1], TextStep::both("13", "13"));
    assert!(Match::rebuild(old, m.log()).unwrap() == m);
}

#[test]
fn stored_configs_without_sealed_still_load() {
    let old: MatchConfig = serde_json::from_str(r#"{"game": "goofspiel", "seed": 3}"#).unwrap();
    assert!(!old.sealed);
    assert!(!serde_json::to_string(&old).unwrap().contains("sealed"));
    let config = MatchConfig {
        sealed: true,
        ..MatchConfig::new("goofspiel")
    };
    let json = serde_json::to_string(&config).unwrap();
    assert!(json.contains(r#""sealed":true"#), "{json}");
    assert_eq!(serde_json::from_str::<MatchConfig>(&json).unwrap(), config);
}

#[test]
fn commit_then_open_reveals_only_when_both_have_opened() {
    let mut m = sealed("goofspiel");
    let steps = m.record().steps.len();
    assert_eq!(m.sealed_phase(), Some(SealedPhase::Commit));
    // A plain submission is refused, and leaves no trace.
    let len = m.log().len();
    assert_eq!(m.submit(P1, "7", 500), Err(MatchError::Sealed));
    assert!(MatchError::Sealed.to_string().contains("commit"));
    assert_eq!(m.log().len(), len);
    let h1 = seal(&m, P1, "7", NONCE);
    let n2 = "0123456789abcdef0123456789abcdef0123456789abcdef";
    let h2 = seal(&m, P2, "3", n2);
    m.commit(P1, &h1, 1_000).unwrap();
    assert_eq!(m.clock(P1).deadline, None, "the commitment stops the clock");
    // Opening early is refused and forgotten: the host holds no move before the openings.
    assert_eq!(
        m.open(P1, "7", NONCE, 1_500),
        Err(MatchError::NotAllCommitted)
    );
    assert!(m.submission(P1).is_none());
    assert!(!m.log().iter().any(|e| matches!(e, LogEntry::Opened { .. })));
    // Binding: no second commitment.
    assert_eq!(
        m.commit(P1, &seal(&m, P1, "8", NONCE), 1_600),
        Err(MatchError::AlreadyCommitted(P1))
    );
    m.commit(P2, &h2, 2_000).unwrap();
    assert_eq!(m.sealed_phase(), Some(SealedPhase::Open));
    // The openings get the decision's own time again (goofspiel: 30 s) from the last commitment.
    assert_eq!(m.clock(P1).deadline, Some(32_000));
    assert_eq!(m.clock(P2).deadline, Some(32_000));
    assert_eq!(m.next_deadline(), Some(32_000));
    m.open(P2, "3", n2, 3_000).unwrap();
    assert_eq!(
        m.record().steps.len(),
        steps,
        "nothing revealed before both open"
    );
    // P1's view: its own commitment; P2's opening is shown only as opened.
    let v1 = m.view(Viewer::Seat(P1));
    assert_eq!(v1.sealed.unwrap().phase, Some(SealedPhase::Open));
    assert_eq!(v1.seats.p2.opened, Some(true));
    assert_eq!(v1.seats.p1.commitment, Some(Some(h1.clone())));
    assert!(v1.seats.p2.submission.is_none());
    m.open(P1, "7", NONCE, 4_000).unwrap();
    assert_eq!(m.record().steps[steps], TextStep::both("7", "3"));
    let v = m.view(Viewer::Spectator);
    let sealed = v.sealed.unwrap();
    let last = sealed.last.unwrap();
    let p1 = last.p1.unwrap();
    assert_eq!(p1.commitment, h1);
    assert_eq!(p1.text.as_deref(), Some("7"));
    assert_eq!(p1.nonce.as_deref(), Some(NONCE));
    assert_eq!(last.p2.unwrap().nonce.as_deref(), Some(n2));
    assert_eq!(
        sealed.phase,
        Some(SealedPhase::Commit),
        "the next round starts sealed"
    );
    assert_eq!(v.seats.p1.committed, Some(false));
    let kinds: Vec<&str> = m
        .log()
        .iter()
        .filter(|e| e.is_input())
        .map(|e| match e {
            LogEntry::Committed { .. } => "committed",
            LogEntry::Opened { .. } => "opened",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["committed", "committed", "opened", "opened"]);
    assert!(Match::rebuild(m.config().clone(), m.log()).unwrap() == m);
}

#[test]
fn a_wrong_opening_is_refused_and_the_seat_may_open_again() {
    let mut m = sealed("goofspiel");
    m.commit(P1, &seal(&m, P1, "5", NONCE), 100).unwrap();
    m.commit(P2, &seal(&m, P2, "6", NONCE), 200).unwrap();
    let len = m.log().len();
    let err = m.open(P1, "4", NONCE, 300).unwrap_err();
    assert!(
        matches!(err, MatchError::CommitmentMismatch { seat: P1, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("not to p1's commitment"), "{err}");
    // A nonce of the wrong form is refused as such.
    assert!(matches!(
        m.open(P1, "5", "XYZ", 300),
        Err(MatchError::BadCommitment(_))
    ));
    assert!(matches!(
        m.open(P1, "5", &NONCE[..30], 300),
        Err(MatchError::BadCommitment(_))
    ));
    assert_eq!(m.log().len(), len, "refused openings change nothing");
    assert!(m.submission(P1).is_none());
    m.open(P1, "5", NONCE, 400).unwrap();
    assert_eq!(
        m.open(P1, "5", NONCE, 500),
        Err(MatchError::AlreadyOpened(P1))
    );
    m.open(P2, "6", NONCE, 600).unwrap();
    assert_eq!(m.record().steps[1], TextStep::both("5", "6"));
    // Bad commitments are refused.
    assert!(matches!(
        m.commit(P1, "ABC", 700),
        Err(MatchError::BadCommitment(_))
    ));
    assert!(matches!(
        m.commit(P1, &seal(&m, P1, "5", NONCE).to_uppercase(), 700),
        Err(MatchError::BadCommitment(_))
    ));
}

#[test]
fn an_illegal_opening_gets_the_timeout_treatment_at_once() {
    let mut m = sealed("goofspiel");
    m.commit(P1, &seal(&m, P1, "99", NONCE), 100).unwrap();
    m.commit(P2, &seal(&m, P2, "6", NONCE), 200).unwrap();
    let err = m.open(P1, "99", NONCE, 300).unwrap_err();
    let MatchError::Refused { reason, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(reason.contains("binding"), "{reason}");
    assert!(m.log().iter().any(|e| matches!(
        e,
        LogEntry::OpeningRefused { seat: P1, text, .. } if text == "99"
    )));
    assert!(matches!(
        m.log().last(),
        Some(LogEntry::DefaultApplied { at: 300, seat: P1, text }) if text == "1"
    ));
    assert_eq!(
        m.commit(P1, &seal(&m, P1, "2", NONCE), 350),
        Err(MatchError::AlreadyCommitted(P1))
    );
    m.open(P2, "6", NONCE, 400).unwrap();
    assert_eq!(m.record().steps[1], TextStep::both("1", "6"));
    assert!(Match::rebuild(m.config().clone(), m.log()).unwrap() == m);
}

#[test]
fn an_illegal_opening_loses_where_the_empty_bank_rule_says_so() {
    let mut m = Match::new(MatchConfig {
        sealed: true,
        time: Some(TimeControl::Timed(Clocks {
            empty_bank: EmptyBank::Loses,
            ..Clocks::per_decision(30)
        })),
        ..MatchConfig::new("goofspiel")
    })
    .unwrap();
    m.commit(P1, &seal(&m, P1, "banana", NONCE), 100).unwrap();
    m.commit(P2, &seal(&m, P2, "6", NONCE), 200).unwrap();
    assert!(matches!(
        m.open(P1, "banana", NONCE, 300),
        Err(MatchError::Refused { .. })
    ));
    let r = m.result().unwrap();
    assert_eq!((r.winner, r.by), (Some(P2), EndKind::Time));
    assert!(Match::rebuild(m.config().clone(), m.log()).unwrap() == m);
}

#[test]
fn committed_but_not_opened_gets_the_default_at_the_opening_deadline() {
    let mut m = sealed("goofspiel");
    m.commit(P1, &seal(&m, P1, "9", NONCE), 1_000).unwrap();
    m.commit(P2, &seal(&m, P2, "4", NONCE), 2_000).unwrap();
    m.open(P2, "4", NONCE, 3_000).unwrap();
    assert!(m.tick(31_999).is_empty());
    m.tick(32_000);
    assert!(m.log().iter().any(|e| matches!(
        e,
        LogEntry::DefaultApplied { at: 32_000, seat: P1, text } if text == "1"
    )));
    assert_eq!(m.record().steps[1], TextStep::both("1", "4"));
    // A late opening is for a decision that is gone.
    assert_eq!(
        m.open(P1, "9", NONCE, 33_000),
        Err(MatchError::NotCommitted(P1))
    );
    assert!(Match::rebuild(m.config().clone(), m.log()).unwrap() == m);
}

#[test]
fn committed_but_not_opened_loses_where_the_empty_bank_rule_says_so() {
    // Galespiel: an empty bank while bidding loses; the opening window has no bank.
    let mut m = sealed("galespiel");
    assert_eq!(m.game().decision_kind(), "bid");
    let text = m.game().legal_moves(P1)[0].clone();
    let other = m.game().legal_moves(P2)[0].clone();
    m.commit(P1, &seal(&m, P1, &text, NONCE), 1_000).unwrap();
    m.commit(P2, &seal(&m, P2, &other, NONCE), 1_000).unwrap();
    m.open(P2, &other, NONCE, 2_000).unwrap();
    assert_eq!(m.clock(P1).deadline, Some(61_000));
    m.tick(61_000);
    let r = m.result().unwrap();
    assert_eq!((r.winner, r.by), (Some(P2), EndKind::Time));
    assert_eq!(
        m.clock(P1).bank_ms,
        300_000,
        "the bank is not spent on an opening"
    );
    assert!(Match::rebuild(m.config().clone(), m.log()).unwrap() == m);
}

#[test]
fn a_seat_that_never_commits_gets_the_ordinary_timeout_then_the_other_opens() {
    let mut m = sealed("goofspiel");
    m.commit(P1, &seal(&m, P1, "9", NONCE), 1_000).unwrap();
    m.tick(30_000);
    assert!(m.log().iter().any(|e| matches!(
        e,
        LogEntry::DefaultApplied {
            at: 30_000,
            seat: P2,
            ..
        }
    )));
    assert_eq!(m.sealed_phase(), Some(SealedPhase::Open));
    assert_eq!(m.clock(P1).deadline, Some(60_000));
    // The defaulted seat cannot commit any more.
    assert_eq!(
        m.commit(P2, &seal(&m, P2, "9", NONCE), 30_500),
        Err(MatchError::AlreadyCommitted(P2))
    );
    m.open(P1, "9", NONCE, 31_000).unwrap();
    assert_eq!(m.record().steps[1], TextStep::both("9", "1"));
    let v = m.view(Viewer::Spectator);
    assert!(v.sealed.unwrap().last.unwrap().p2.is_none());
}

#[test]
fn untimed_sealed_matches_have_no_deadlines() {
    let mut m = Match::new(MatchConfig {
        sealed: true,
        time: Some(TimeControl::Untimed),
        ..MatchConfig::new("goofspiel")
    })
    .unwrap();
    m.commit(P1, &seal(&m, P1, "2", NONCE), 1_000).unwrap();
    m.commit(P2, &seal(&m, P2, "3", NONCE), 2_000).unwrap();
    assert_eq!(m.next_deadline(), None);
    assert!(m.tick(10_000_000).is_empty());
    m.open(P1, "2", NONCE, 10_000_001).unwrap();
    m.open(P2, "3", NONCE, 10_000_002).unwrap();
    assert_eq!(m.record().steps[1], TextStep::both("2", "3"));
}

#[test]
fn sequential_decisions_are_ordinary_submissions_even_when_sealed() {
    let mut m = sealed("all-in-goofspiel");
    assert_eq!(m.game().pending(), Pending::One(P1));
    assert_eq!(m.sealed_phase(), None);
    assert!(matches!(
        m.commit(P1, &seal(&m, P1, "1", NONCE), 10),
        Err(MatchError::NotSealed(_))
    ));
    let mv = m.game().legal_moves(P1)[0].clone();
    m.submit(P1, &mv, 20).unwrap();
    assert_eq!(m.record().steps.len(), 1);
    // And an unsealed match has nothing to commit.
    let mut plain = Match::new(MatchConfig::new("goofspiel")).unwrap();
    assert!(matches!(
        plain.commit(P1, &seal(&plain, P1, "1", NONCE), 10),
        Err(MatchError::NotSealed(_))
    ));
}

/// Plays a sealed match of `game` to the end with random legal moves: commit and open in
/// simultaneous decisions, submit in sequential ones, with a few wrong openings, late openings
/// and missed deadlines. Returns the match and how many sealed decisions were revealed.
fn play_sealed(game: &str, seed: u64, time: Option<TimeControl>) -> (Match, usize, Vec<Match>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut m = Match::new(MatchConfig {
        sealed: true,
        seed,
        time,
        ..MatchConfig::new(game)
    })
    .unwrap();
    let mut now = 0u64;
    let mut openings: [Option<(String, String)>; 2] = [None, None];
    let mut sealed_reveals = 0;
    let mut snapshots = Vec::new();
    for _ in 0..20_000 {
        if m.is_over() {
            break;
        }
        now += rng.random_range(0..400);
        if rng.random_bool(0.03) {
            snapshots.push(m.clone());
        }
        match m.sealed_phase() {
            Some(SealedPhase::Commit) => {
                let seat = if rng.random_bool(0.5) { P1 } else { P2 };
                if m.commitment(seat).is_some() || m.submission(seat).is_some() {
                    continue;
                }
                let mv = m.game().random_move(seat, &mut rng).unwrap();
                let n = nonce(&mut rng);
                m.commit(seat, &seal(&m, seat, &mv, &n), now).unwrap();
                openings[seat.index()] = Some((mv, n));
            }
            Some(SealedPhase::Open) => {
                let seat = if rng.random_bool(0.5) { P1 } else { P2 };
                if m.commitment(seat).is_none() || m.submission(seat).is_some() {
                    continue;
                }
                let (mv, n) = openings[seat.index()].clone().unwrap();
                // Before the opening, nobody else sees the move.
                for v in [Viewer::Spectator, Viewer::Seat(seat.other())] {
                    let mut out = Vec::new();
                    let shown = serde_json::to_value(m.view(v).seats.get(seat)).unwrap();
                    strings(&shown, &mut out);
                    assert!(!out.contains(&n), "{game}: the nonce leaked");
                }
                if rng.random_bool(0.1) {
                    let err = m.open(seat, &format!("{mv}x"), &n, now).unwrap_err();
                    assert!(
                        matches!(err, MatchError::CommitmentMismatch { .. }),
                        "{err:?}"
                    );
                    continue;
                }
                if rng.random_bool(0.02) {
                    // Too late sometimes: the deadline passes first.
                    now += 120_000;
                }
                let before = m.record().steps.len();
                if m.open(seat, &mv, &n, now).is_ok() && m.record().steps.len() > before {
                    sealed_reveals += 1;
                }
            }
            None => {
                let seats = m.game().pending().seats().to_vec();
                if seats.is_empty() {
                    m.tick(now);
                    continue;
                }
                let seat = seats[rng.random_range(0..seats.len())];
                if let Some(mv) = m.game().random_move(seat, &mut rng) {
                    if m.game().pending() == Pending::Both {
                        unreachable!("a simultaneous decision of a sealed match is sealed");
                    }
                    let _ = m.submit(seat, &mv, now);
                }
            }
        }
        // Let deadlines fire.
        m.tick(now);
    }
    (m, sealed_reveals, snapshots)
}

#[test]
fn every_game_plays_sealed_to_the_end_and_rebuilds_exactly() {
    for entry in registry() {
        for (seed, time) in [
            (1, None),
            (2, Some(TimeControl::Untimed)),
            (
                3,
                Some(TimeControl::Timed(Clocks {
                    bank_ms: 2_000,
                    bank_step_ms: 1_000,
                    ..Clocks::per_decision(5)
                })),
            ),
        ] {
            let (m, reveals, snapshots) = play_sealed(entry.id, seed, time);
            assert!(m.is_over(), "{} seed {seed} did not finish", entry.id);
            let simultaneous = m.log().iter().any(|e| {
                matches!(e, LogEntry::Revealed { step, .. } if step.p1.is_some() && step.p2.is_some())
            });
            if simultaneous {
                assert!(
                    m.log()
                        .iter()
                        .any(|e| matches!(e, LogEntry::Committed { .. })),
                    "{}",
                    entry.id
                );
            }
            // A seat's opening that added a step revealed a simultaneous decision.
            assert!(
                reveals == 0 || simultaneous,
                "{}: {reveals} openings revealed steps, but no simultaneous step is logged",
                entry.id
            );
            // Through JSON, as a store keeps it.
            let log: Vec<LogEntry> =
                serde_json::from_str(&serde_json::to_string(m.log()).unwrap()).unwrap();
            let rebuilt = Match::rebuild(m.config().clone(), &log).unwrap();
            assert!(rebuilt == m, "{} seed {seed}", entry.id);
            for snap in &snapshots {
                let r = Match::rebuild(m.config().clone(), snap.log()).unwrap();
                assert!(
                    r == *snap,
                    "{} seed {seed} at {}",
                    entry.id,
                    snap.log().len()
                );
            }
            // The record replays as any other.
            let done = replay_record(m.record()).unwrap().unwrap();
            assert_eq!(
                done.game.view_json(Viewer::Spectator),
                m.game().view_json(Viewer::Spectator)
            );
        }
    }
}

#[test]
fn games_with_simultaneous_decisions_reveal_sealed_decisions() {
    for entry in registry() {
        let (m, reveals, _) = play_sealed(entry.id, 7, Some(TimeControl::Untimed));
        assert!(m.is_over(), "{}", entry.id);
        let simultaneous = m
            .record()
            .steps
            .iter()
            .any(|s| s.p1.is_some() && s.p2.is_some());
        assert_eq!(
            simultaneous,
            reveals > 0,
            "{}: simultaneous steps are revealed through openings",
            entry.id
        );
        if entry.id != "all-in-goofspiel" {
            assert!(reveals > 0, "{}", entry.id);
        }
    }
}

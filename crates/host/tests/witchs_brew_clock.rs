//! The Witch's Brew's clocks at the Intermission (RULINGS.md): a seat whose five minutes and
//! reserve run out while assigning has its victory conditions filled into the rounds in order,
//! and plays on; only in the Placement Phase does an empty reserve lose. The match runs on the
//! game's default time control, with an injected clock (every time is given).

use colosseum_engine::Seat;
use colosseum_host::{EndKind, LogEntry, Match, MatchConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A victory condition's place in the order `1A` .. `3F`.
fn condition_order(c: &str) -> (u8, u8) {
    let b = c.as_bytes();
    (b[0], b[1].to_ascii_uppercase())
}

/// Plays random moves one at a time, each 1 s after the last, until the Intermission.
fn to_the_intermission(seed: u64) -> (Match, u64) {
    let mut m = Match::new(MatchConfig {
        seed,
        ..MatchConfig::new("witchs-brew")
    })
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut t = 0;
    while m.game().decision_kind() != "assign" {
        assert!(!m.is_over(), "the game ended before the Intermission");
        t += 1_000;
        let seat = Seat::BOTH
            .into_iter()
            .find(|&s| m.game().pending().includes(s) && m.submission(s).is_none())
            .unwrap();
        let mv = m.game().random_move(seat, &mut rng).unwrap();
        m.submit(seat, &mv, t).unwrap();
    }
    (m, t)
}

#[test]
fn a_timeout_at_the_intermission_fills_the_rounds_in_order_and_is_not_a_loss() {
    let mut checked = 0;
    for seed in 0..6u64 {
        let (mut m, t) = to_the_intermission(seed);
        // p1 assigns at once; p2 says nothing.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mv = m.game().random_move(Seat::P1, &mut rng).unwrap();
        m.submit(Seat::P1, &mv, t + 1_000).unwrap();
        let bank = m.clock(Seat::P2).bank_ms;
        assert_eq!(m.clock(Seat::P2).turn_deadline, Some(t + 300_000));
        // Five minutes, then the whole reserve, spent continuously.
        let out = t + 300_000 + bank;
        m.tick(out - 1);
        assert_eq!(m.game().decision_kind(), "assign", "not yet");
        m.tick(out);
        assert!(!m.is_over(), "seed {seed}: {:?}", m.result());
        assert!(
            !m.log()
                .iter()
                .any(|e| matches!(e, LogEntry::TimedOut { .. })),
            "seed {seed}: no loss on time at the Intermission"
        );
        let filled = m
            .log()
            .iter()
            .find_map(|e| match e {
                LogEntry::DefaultApplied { at, seat, text } if *at == out => {
                    assert_eq!(*seat, Seat::P2);
                    Some(text.clone())
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("seed {seed}: p2's assignment is filled in at {out}"));
        // In order: the conditions held, lowest first, three to round 6, three to 9, the rest
        // to 12.
        let groups: Vec<Vec<&str>> = filled
            .split('/')
            .map(|g| g.split_whitespace().filter(|c| *c != "-").collect())
            .collect();
        assert_eq!(groups.len(), 3, "{filled}");
        let all: Vec<&str> = groups.concat();
        let mut sorted = all.clone();
        sorted.sort_by_key(|c| condition_order(c));
        assert_eq!(all, sorted, "seed {seed}: `{filled}` is in order");
        let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
        let n = all.len();
        assert_eq!(
            sizes,
            vec![n.min(3), n.saturating_sub(3).min(3), n.saturating_sub(6)],
            "seed {seed}: `{filled}` fills round 6 first, then 9, then 12"
        );
        assert_eq!(m.clock(Seat::P2).bank_ms, 0);
        // The game went on into Placement, where an empty reserve does lose: p2 has none left,
        // so when nobody plays, p2's 60 s run out first and p2 loses.
        assert_eq!(m.game().decision_kind(), "move");
        m.tick(out + 60_000);
        let r = m
            .result()
            .unwrap_or_else(|| panic!("seed {seed}: p2 loses in Placement"));
        assert_eq!((r.winner, r.by), (Some(Seat::P1), EndKind::Time));
        assert!(m.log().contains(&LogEntry::TimedOut {
            at: out + 60_000,
            seat: Seat::P2
        }));
        checked += 1;
    }
    assert_eq!(checked, 6);
}

//! The exact Goofspiel table: the small simplex against the LP, the table against the LP solver
//! (`GoofspielSolution`) at every position, the independent check (and that it catches a wrong
//! strategy), the file format (round trip, the documented layout and checksum, refusals) and the
//! setting's refusals.

use colosseum_ai::solver::{solve_matrix_game, GoofspielSolution};
use colosseum_ai::table::{
    self, certificate, check, colex_rank, solve_small, GoofspielTable, Precision,
};
use rand::Rng;

fn quiet(_: u64) {}

fn table(n: u32) -> GoofspielTable {
    GoofspielTable::solve(n, 2, &quiet).unwrap()
}

/// Random dense games, many with ties (small integers) and so degenerate, up to 13 × 13: the
/// pivot method's value matches the LP's and its strategies certify it.
#[test]
fn small_simplex_matches_the_lp() {
    let mut rng = colosseum_engine::seeded_rng(7);
    let mut saddles = 0;
    for round in 0..600 {
        let rows = rng.random_range(1..=13usize);
        let cols = if round % 2 == 0 {
            rows
        } else {
            rng.random_range(1..=13usize)
        };
        let a: Vec<f64> = (0..rows * cols)
            .map(|_| {
                if round % 3 == 0 {
                    f64::from(rng.random_range(-3i32..=3))
                } else {
                    rng.random_range(-50.0..50.0)
                }
            })
            .collect();
        let (mut x, mut y) = (vec![0.0; rows], vec![0.0; cols]);
        let s = solve_small(&a, rows, cols, &mut x, &mut y).expect("solved");
        saddles += usize::from(s.saddle);
        let lp =
            solve_matrix_game(&a.chunks(cols).map(<[f64]>::to_vec).collect::<Vec<_>>()).unwrap();
        assert!(
            (s.value - lp.value).abs() < 1e-9,
            "{rows}x{cols}: simplex {} LP {}",
            s.value,
            lp.value
        );
        let (g, c) = certificate(&a, rows, cols, &x, &y);
        assert!(
            g >= s.value - 1e-9 && c <= s.value + 1e-9,
            "{g} {} {c}",
            s.value
        );
        assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(x.iter().chain(&y).all(|&p| p >= 0.0));
    }
    assert!(saddles > 0 && saddles < 600);
}

/// Matching pennies and rock-paper-scissors, by hand.
#[test]
fn small_simplex_known_games() {
    let (mut x, mut y) = (vec![0.0; 3], vec![0.0; 3]);
    let s = solve_small(&[1.0, -1.0, -1.0, 1.0], 2, 2, &mut x, &mut y).unwrap();
    assert!(s.value.abs() < 1e-15 && (x[0] - 0.5).abs() < 1e-15 && (y[1] - 0.5).abs() < 1e-15);
    let rps = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
    let s = solve_small(&rps, 3, 3, &mut x, &mut y).unwrap();
    assert!(s.value.abs() < 1e-15 && !s.saddle);
    for p in x.iter().chain(&y) {
        assert!((p - 1.0 / 3.0).abs() < 1e-15);
    }
}

/// Every position's value agrees with the LP solver's (a separate code path: recursion, a hash
/// map and `microlp`) to 1e-9, N = 1..=7; the root is worth 0 and its strategies are the same
/// for both seats.
#[test]
fn table_matches_the_lp_solver_at_every_position() {
    for n in 1..=7 {
        let t = table(n);
        let lp = GoofspielSolution::solve(n).unwrap();
        assert_eq!(lp.nodes.len() as u64 + 1, table::positions(n));
        for (&(h1, h2), node) in &lp.nodes {
            let v = t.value(h1, h2).unwrap();
            assert!(
                (v - node.value).abs() < 1e-9,
                "N = {n} {h1:#b}/{h2:#b}: {v} vs {}",
                node.value
            );
        }
        assert_eq!(t.root_value(), 0.0);
        let full = (1u32 << n) - 1;
        assert_eq!(t.strategy(full, full).unwrap(), t.root_strategy());
        let stats_games: u64 = t.stats.iter().map(|s| s.games).sum();
        assert_eq!(stats_games, table::games(n));
        assert!(t.stats.iter().all(|s| s.max_gap < 1e-9), "{:?}", t.stats);
        // The same solution in GoofspielSolution's form.
        let converted = t.to_solution();
        assert_eq!(converted.nodes.len(), lp.nodes.len());
        assert_eq!(converted.root_value(), 0.0);
    }
}

/// The independent check finds the table unexploitable (below 1e-9) at every position,
/// N = 1..=7, and agrees with the LP solver's own exploitability walk.
#[test]
fn check_finds_no_exploitability_up_to_seven() {
    for n in 1..=7 {
        let t = table(n);
        let c = check(&t, 2, &quiet);
        assert_eq!(c.positions, table::positions(n));
        assert!(c.against_p1.abs() < 1e-9, "N = {n}: {c:?}");
        assert!(c.against_p2.abs() < 1e-9, "N = {n}: {c:?}");
        assert!(c.worst_position < 1e-9, "N = {n}: {c:?}");
        assert!(c.antisymmetry == 0.0 && c.sum_error < 1e-12 && !c.negative);
        let (e1, e2) = colosseum_ai::solver::exploitability(&t.to_solution());
        assert!(e1.abs() < 1e-9 && e2.abs() < 1e-9, "N = {n}: {e1} {e2}");
    }
}

/// Offset of level `k`'s first byte and the pair count of each level, by the documented layout.
fn level_offset(n: u32, k: u32, bytes: u64) -> u64 {
    let mut offset = 24 + u64::from(n).div_ceil(8) * 8;
    for j in 1..k {
        let m = binomial(n, j);
        let pairs = m * (m + 1) / 2;
        offset += pairs * 8 + pairs * 2 * u64::from(j) * bytes;
    }
    offset
}

fn binomial(n: u32, k: u32) -> u64 {
    (0..u64::from(k)).fold(1, |r, i| r * (u64::from(n) - i) / (i + 1))
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn reseal(bytes: &mut [u8]) {
    let body = bytes.len() - 8;
    let sum = fnv(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
}

/// Round trips in both precisions; the bytes follow the documented layout (header, levels in
/// colex rank order, FNV-1a checksum); a moved probability is caught by the check; damaged
/// files are refused with what is wrong.
#[test]
fn file_format_round_trip_layout_and_refusals() {
    let dir = std::env::temp_dir().join(format!("colosseum-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let n = 6;
    let t = table(n);
    let f64_path = dir.join("g6.f64");
    let f32_path = dir.join("g6.f32");
    let saved = t.save(&f64_path, Precision::F64).unwrap();
    let written = saved.bytes;
    assert_eq!(written, std::fs::metadata(&f64_path).unwrap().len());
    assert_eq!(written, GoofspielTable::file_size(n, Precision::F64));
    t.save(&f32_path, Precision::F32).unwrap();
    assert_eq!(
        std::fs::metadata(&f32_path).unwrap().len(),
        GoofspielTable::file_size(n, Precision::F32)
    );
    let back = GoofspielTable::open(&f64_path).unwrap();
    let small = GoofspielTable::open(&f32_path).unwrap();
    assert_eq!(back.precision(), Precision::F64);
    assert_eq!(small.precision(), Precision::F32);
    for k in 0..=n {
        let hs: Vec<u32> = (0u32..1 << n).filter(|h| h.count_ones() == k).collect();
        for &h1 in &hs {
            for &h2 in &hs {
                assert_eq!(back.value(h1, h2), t.value(h1, h2));
                assert_eq!(small.value(h1, h2), t.value(h1, h2));
                assert_eq!(back.strategy(h1, h2), t.strategy(h1, h2));
                let (a, b) = (small.strategy(h1, h2).unwrap(), t.strategy(h1, h2).unwrap());
                for ((c1, p1), (c2, p2)) in a.iter().zip(&b) {
                    assert!(c1 == c2 && (p1 - p2).abs() <= 1e-7 * p2.max(1e-30));
                }
            }
        }
    }
    let c32 = check(&small, 2, &quiet);
    assert!(c32.exploitability() < 1e-5, "{c32:?}");
    assert!(check(&back, 2, &quiet).exploitability() < 1e-9);
    assert!(
        back.root_value().is_sign_positive(),
        "the root of a read table is +0"
    );
    assert_eq!(back.value(0b1, 0b11), None, "hands of different sizes");
    assert_eq!(back.value(1 << n, 1), None, "a card beyond N");

    // The documented layout: header, prize order padded to 8, then level by level.
    let bytes = std::fs::read(&f64_path).unwrap();
    assert_eq!(&bytes[..8], b"CLSMGOOF");
    let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    assert_eq!((word(8), word(12), word(16), word(20)), (1, n, 1, 8));
    assert_eq!(&bytes[24..32], &[6, 5, 4, 3, 2, 1, 0, 0]);
    let body = bytes.len() - 8;
    assert_eq!(fnv(&bytes[..body]).to_le_bytes(), bytes[body..]);
    assert_eq!(fnv(&bytes[..body]), saved.checksum);
    // Level 2, pair (rank 0 = {1,2}, rank 2 = {2,3}): its value.
    let m2 = binomial(n, 2);
    let at = level_offset(n, 2, 8) + 2 * 8;
    let v = f64::from_le_bytes(bytes[at as usize..at as usize + 8].try_into().unwrap());
    assert_eq!(Some(v), t.value(0b011, 0b110));
    assert_eq!((colex_rank(0b011), colex_rank(0b110)), (0, 2));
    // The root (level N, one pair): its value, then the row strategy, then the column one.
    let root = level_offset(n, n, 8) as usize;
    assert_eq!(root + 8 + 2 * n as usize * 8 + 8, bytes.len());
    let p = |i: usize| {
        f64::from_le_bytes(
            bytes[root + 8 + 8 * i..root + 16 + 8 * i]
                .try_into()
                .unwrap(),
        )
    };
    let strategy = t.root_strategy();
    for (i, &(card, prob)) in strategy.iter().enumerate() {
        assert_eq!(card, i as u32 + 1);
        assert_eq!(p(i), prob);
        assert_eq!(p(n as usize + i), prob, "the root is symmetric");
    }

    // Move the root's row probability from its likeliest card to the card above it: the file
    // still opens (resealed), and the check finds p1 exploitable at the root.
    let mut bad = bytes.clone();
    let (top, _) = strategy
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
        .unwrap();
    let other = if top + 1 < n as usize {
        top + 1
    } else {
        top - 1
    };
    let moved = p(top);
    let write = |bad: &mut Vec<u8>, i: usize, value: f64| {
        let at = root + 8 + 8 * i;
        bad[at..at + 8].copy_from_slice(&value.to_le_bytes());
    };
    write(&mut bad, top, 0.0);
    write(&mut bad, other, p(other) + moved);
    reseal(&mut bad);
    let wrong_path = dir.join("wrong");
    std::fs::write(&wrong_path, &bad).unwrap();
    let wrong = GoofspielTable::open(&wrong_path).unwrap();
    let c = check(&wrong, 1, &quiet);
    assert!(c.against_p1 > 1e-3, "{c:?}");
    // At equal hands both seats read the row strategy (the column one is the same).
    assert!((c.against_p2 - c.against_p1).abs() < 1e-9, "{c:?}");
    // A move at a position with different hands touches one seat only: p1 holding {1, 2}
    // against {2, 3} (level 2, the pair of ranks 0 and 2) plays card 1 or 2.
    let mut one = bytes.clone();
    let level2 = level_offset(n, 2, 8) as usize;
    let pairs2 = (m2 * (m2 + 1) / 2) as usize;
    let at = level2 + pairs2 * 8 + 2 * 2 * 2 * 8;
    let row = |b: &Vec<u8>, i: usize| {
        f64::from_le_bytes(b[at + 8 * i..at + 8 * i + 8].try_into().unwrap())
    };
    assert_eq!(
        t.strategy(0b011, 0b110).unwrap(),
        vec![(1, row(&bytes, 0)), (2, row(&bytes, 1))]
    );
    assert_eq!(
        t.strategy(0b110, 0b011).unwrap(),
        vec![(2, row(&bytes, 2)), (3, row(&bytes, 3))]
    );
    let flipped = [row(&bytes, 1), row(&bytes, 0)];
    one[at..at + 8].copy_from_slice(&flipped[0].to_le_bytes());
    one[at + 8..at + 16].copy_from_slice(&flipped[1].to_le_bytes());
    reseal(&mut one);
    std::fs::write(&wrong_path, &one).unwrap();
    let c = check(&GoofspielTable::open(&wrong_path).unwrap(), 1, &quiet);
    assert!(c.worst_position > 1e-3, "{c:?}");
    // The best replies steer into it: p2 holding {1, 2} against {2, 3} reads the same entry.
    assert!(c.against_p1 > 1e-3 && c.against_p2 > 1e-3, "{c:?}");

    // Refusals.
    let refuse = |bytes: &[u8], what: &str| {
        std::fs::write(&wrong_path, bytes).unwrap();
        let e = GoofspielTable::open(&wrong_path).unwrap_err().to_string();
        assert!(e.contains(what), "{e}");
    };
    let mut damaged = bytes.clone();
    damaged[root + 8] ^= 1;
    refuse(&damaged, "checksum mismatch");
    refuse(&bytes[..bytes.len() - 100], "the file ends inside level 6");
    refuse(&bytes[..bytes.len() - 4], "before its checksum");
    refuse(b"hello world, not a table at all", "not a Goofspiel table");
    let mut version = bytes.clone();
    version[8] = 9;
    refuse(&version, "format version 9");
    let mut order = bytes.clone();
    order[24] = 1;
    refuse(&order, "prize order");
    let mut longer = bytes.clone();
    longer.push(0);
    refuse(&longer, "more than a table");
    let missing = GoofspielTable::open(&dir.join("missing")).unwrap_err();
    assert!(missing.to_string().contains("missing"), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_setting_is_checked() {
    let raw = |pairs: &[&str]| colosseum_engine::parse_pairs(pairs.iter().copied()).unwrap();
    assert_eq!(table::setting("goofspiel", &raw(&["cards=13"])), Ok(13));
    assert_eq!(
        table::setting(
            "goofspiel",
            &raw(&["cards=5", "order=descending", "returns=point_difference"])
        ),
        Ok(5)
    );
    for (game, pairs, what) in [
        ("thwart-omega", vec![], "does not solve `thwart-omega`"),
        ("goofspiel", vec!["order=random"], "random or ascending"),
        (
            "goofspiel",
            vec!["returns=win_loss"],
            "point-difference returns only",
        ),
        ("goofspiel", vec!["cards=15"], "cards=15 is too large"),
        ("goofspiel", vec!["cards=0"], "cards"),
        ("goofspiel", vec!["colour=red"], "colour"),
    ] {
        let e = table::setting(game, &raw(&pairs)).unwrap_err();
        assert!(e.contains(what), "{e}");
        assert!(e.contains("supports") || game == "goofspiel", "{e}");
    }
    assert!(GoofspielTable::solve(0, 1, &quiet).is_err());
    assert!(GoofspielTable::solve(15, 1, &quiet).is_err());
}

/// The random prize order (the moonshot): every position after the first round agrees with a
/// separate solver (recursion over hands and prizes left with a hash map, `microlp` for each
/// matrix game), N = 1..=4; the root is worth 0.
#[test]
fn random_prize_order_matches_a_recursive_lp_solver() {
    use std::collections::HashMap;
    fn reference(h1: u32, h2: u32, prizes: u32, memo: &mut HashMap<(u32, u32, u32), f64>) -> f64 {
        if prizes == 0 {
            return 0.0;
        }
        if let Some(&v) = memo.get(&(h1, h2, prizes)) {
            return v;
        }
        let bits = |h: u32| {
            (0..32)
                .filter(move |p| h & (1 << p) != 0)
                .collect::<Vec<u32>>()
        };
        let (b1, b2, bp) = (bits(h1), bits(h2), bits(prizes));
        let mut total = 0.0;
        for &p in &bp {
            let a: Vec<Vec<f64>> = b1
                .iter()
                .map(|&x| {
                    b2.iter()
                        .map(|&y| {
                            let won =
                                f64::from(p + 1) * f64::from(i8::from(x > y) - i8::from(x < y));
                            won + reference(
                                h1 & !(1 << x),
                                h2 & !(1 << y),
                                prizes & !(1 << p),
                                memo,
                            )
                        })
                        .collect()
                })
                .collect();
            total += solve_matrix_game(&a).unwrap().value;
        }
        let v = total / bp.len() as f64;
        memo.insert((h1, h2, prizes), v);
        v
    }
    for n in 1..=4u32 {
        let solved = table::random_order(n, 2).unwrap();
        assert_eq!(solved.root_value, 0.0);
        let positions: u64 = (0..=n)
            .map(|k| {
                (0u32..1 << n)
                    .filter(|h| h.count_ones() == k)
                    .count()
                    .pow(3) as u64
            })
            .sum();
        assert_eq!(solved.positions, positions);
        let mut memo = HashMap::new();
        let hs: Vec<u32> = (0u32..1 << n).filter(|h| h.count_ones() == n - 1).collect();
        let mut nonzero = 0;
        for &p in &hs {
            for &h1 in &hs {
                for &h2 in &hs {
                    let want = reference(h1, h2, p, &mut memo);
                    let got = solved.value_after_first_round(h1, h2, p).unwrap();
                    assert!(
                        (got - want).abs() < 1e-9,
                        "N = {n}: {h1:#b} {h2:#b} {p:#b}: {got} vs {want}"
                    );
                    nonzero += usize::from(want.abs() > 1e-6);
                }
            }
        }
        assert!(n < 3 || nonzero > 0);
        assert_eq!(solved.value_after_first_round(1, 1, 0b11), None);
    }
}

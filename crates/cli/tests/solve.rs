//! `colosseum solve` as a user runs it: a table solved, written, checked and converted; a
//! damaged file failing its check; refusals naming what is supported.

use std::path::PathBuf;
use std::process::{Command, Output};

fn colosseum(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("colosseum-solve-{}-{name}", std::process::id()))
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn solve_writes_a_table_that_checks_and_converts() {
    let f64_path = temp("g6.f64");
    let f32_path = temp("g6.f32");
    let solved = json(&colosseum(&[
        "solve",
        "goofspiel",
        "-o",
        "cards=6",
        "--precision",
        "f64",
        "--out",
        f64_path.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(solved["cards"], 6);
    assert_eq!(solved["positions"], 924);
    assert_eq!(solved["games"], 1 + 21 + 120 + 210 + 120 + 21);
    assert_eq!(solved["root_value"], 0.0);
    assert_eq!(solved["levels"].as_array().unwrap().len(), 6);
    let check = &solved["check"];
    assert_eq!(check["passed"], true);
    assert!(check["exploitability"].as_f64().unwrap().abs() < 1e-9);
    assert_eq!(check["positions"], 924);
    let size = std::fs::metadata(&f64_path).unwrap().len();
    assert_eq!(solved["out"]["bytes"], size);
    let strategy = solved["root_strategy"].as_array().unwrap();
    assert_eq!(strategy.len(), 6);
    let total: f64 = strategy.iter().map(|p| p[1].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12);

    // Read back, checked, and written again in f32.
    let read = json(&colosseum(&[
        "solve",
        "--check",
        f64_path.to_str().unwrap(),
        "--out",
        f32_path.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(read["root_strategy"], solved["root_strategy"]);
    assert_eq!(read["check"]["passed"], true);
    assert!(std::fs::metadata(&f32_path).unwrap().len() < size);
    let small = json(&colosseum(&[
        "solve",
        "--check",
        f32_path.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(small["check"]["passed"], true);
    assert_eq!(small["check"]["tolerance"], 1e-4);

    // The human report.
    let out = colosseum(&["solve", "--check", f64_path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("root value 0.000000000000"), "{text}");
    assert!(
        text.contains("passed (tolerance 1e-9 for f64 strategies)"),
        "{text}"
    );

    // A damaged file is refused by its checksum, exit status 2.
    let mut bytes = std::fs::read(&f64_path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&f64_path, &bytes).unwrap();
    let out = colosseum(&["solve", "--check", f64_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("checksum mismatch"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_file(&f64_path).unwrap();
    std::fs::remove_file(&f32_path).unwrap();
}

#[test]
fn solve_refuses_what_it_cannot_solve() {
    for (args, says) in [
        (vec!["solve", "thwart-omega"], "supports goofspiel"),
        (
            vec!["solve", "goofspiel", "-o", "order=random"],
            "random or ascending",
        ),
        (
            vec!["solve", "goofspiel", "-o", "returns=win_loss"],
            "point-difference",
        ),
        (vec!["solve", "goofspiel", "-o", "cards=15"], "too large"),
        (vec!["solve", "goofspiel", "--threads", "0"], "at least 1"),
        (
            vec!["solve", "goofspiel", "--precision", "f16"],
            "f32 or f64",
        ),
        (vec!["solve"], "required"),
    ] {
        let out = colosseum(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let missing = temp("missing");
    let out = colosseum(&["solve", "--check", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing"));
}

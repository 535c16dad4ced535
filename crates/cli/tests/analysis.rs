//! `colosseum analyse` and `colosseum balance` as a user runs them.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn colosseum(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("colosseum-analysis-{}-{name}", std::process::id()))
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Classic Goofspiel with fixed prizes is symmetric: the first seat's score is ½ within its
/// interval, and the report's numbers are those of `colosseum arena` on the same games (same
/// seeds): its draws, and its first seat's wins counted from the arena's own records.
#[test]
fn balance_of_goofspiel_is_fair_and_agrees_with_the_arena() {
    let (games, seed, engine) = ("24", "5", "mcts:iters=60");
    let options = ["-o", "cards=5", "-o", "order=descending"];
    let dir = temp("balance");
    let records = temp("arena-records");
    let mut args = vec!["balance", "goofspiel", "--games", games, "--seed", seed];
    args.extend(["--engine", engine, "--threads", "2", "--json", "--out"]);
    args.push(dir.to_str().unwrap());
    args.extend(options);
    let report = json(&colosseum(&args));
    let point = &report["points"][0];
    assert_eq!(point["games"], 24);
    let score = &point["first_seat_score"];
    assert!(
        score["low"].as_f64().unwrap() <= 0.5 && 0.5 <= score["high"].as_f64().unwrap(),
        "{score}"
    );
    let decided = &point["first_seat_decided"];
    assert!(decided["low"].as_f64().unwrap() <= 0.5 && 0.5 <= decided["high"].as_f64().unwrap());
    let mut args = vec![
        "arena",
        "goofspiel",
        engine,
        engine,
        "--games",
        games,
        "--seed",
        seed,
    ];
    args.extend([
        "--threads",
        "1",
        "--json",
        "--records",
        records.to_str().unwrap(),
    ]);
    args.extend(options);
    let arena = json(&colosseum(&args));
    assert_eq!(point["draws"], arena["draws"]);
    assert_eq!(
        point["p1_wins"].as_u64().unwrap() + point["p2_wins"].as_u64().unwrap(),
        arena["wins"].as_u64().unwrap() + arena["losses"].as_u64().unwrap()
    );
    let mut p1_wins = 0;
    for entry in std::fs::read_dir(&records).unwrap() {
        let path = entry.unwrap().path();
        let replayed = json(&colosseum(&["replay", path.to_str().unwrap(), "--json"]));
        if replayed["outcome"]["winner"] == "p1" {
            p1_wins += 1;
        }
    }
    assert_eq!(point["p1_wins"], p1_wins);
    // The files: the numbers as JSON and three plots.
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("balance.json")).unwrap()).unwrap();
    assert_eq!(saved["points"][0]["p1_wins"], point["p1_wins"]);
    for plot in ["shares.svg", "endings.svg", "length.svg"] {
        let svg = std::fs::read_to_string(dir.join(plot)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<title>"), "{plot}");
    }
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(records);
}

/// A sweep gives one point per value, with the option set; bad sweeps are refused saying what
/// is allowed.
#[test]
fn balance_sweeps_one_option_and_refuses_bad_sweeps() {
    let out = colosseum(&[
        "balance",
        "thwart-omega",
        "--games",
        "4",
        "--engine",
        "random",
        "--sweep",
        "size=3,4",
        "--json",
    ]);
    let report = json(&out);
    let points = report["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    assert_eq!(points[1]["options"]["size"], 4);
    assert_eq!(points[1]["value"], "4");
    assert_eq!(points[0]["advantage_holder"], "p1");
    let out = colosseum(&["balance", "thwart-omega", "--sweep", "size"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("OPTION=v1,v2"),
        "{}",
        text(&out.stderr)
    );
    let out = colosseum(&[
        "balance",
        "thwart-omega",
        "--sweep",
        "size=3,99",
        "--games",
        "1",
    ]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("size"), "{}", text(&out.stderr));
}

/// `colosseum analyse` on an arena's record: the text names the method and marks, `--json` has
/// one object per decision, and an engine that cannot value moves is refused.
#[test]
fn analyse_prints_every_decision() {
    let records = temp("analyse-records");
    let out = colosseum(&[
        "arena",
        "goofspiel",
        "random",
        "random",
        "--games",
        "1",
        "-o",
        "cards=4",
        "-o",
        "order=ascending",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let file = records.join("goofspiel-00000.json");
    let out = colosseum(&["analyse", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(
        printed.contains("(exact)") && printed.contains("blunder >= 0.2"),
        "{printed}"
    );
    let analysis = json(&colosseum(&["analyse", file.to_str().unwrap(), "--json"]));
    assert_eq!(analysis["decisions"].as_array().unwrap().len(), 4);
    assert_eq!(analysis["decisions"][0]["seats"][0]["method"], "exact");
    let out = colosseum(&["analyse", file.to_str().unwrap(), "--engine", "heuristic"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("mcts:iters=N"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(records);
}

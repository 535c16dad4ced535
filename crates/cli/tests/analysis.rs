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

/// The solved table as a user names it: `colosseum solve` writes a 7-card table, `colosseum
/// analyse --goofspiel-table FILE` values a recorded point-difference match from it (every
/// decision exact, in points), as does COLOSSEUM_GOOFSPIEL_TABLE; a file that does not exist and
/// 12 cards without a file are refused, saying what to do (analyse, arena with hard, serve).
#[test]
fn the_goofspiel_table_is_named_by_flag_or_environment_and_its_absence_is_said() {
    let dir = temp("table");
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("goofspiel7.table");
    let table_arg = table.to_str().unwrap();
    let out = colosseum(&[
        "solve",
        "goofspiel",
        "-o",
        "cards=7",
        "--no-check",
        "--out",
        table_arg,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let records = dir.join("records");
    let options = [
        "-o",
        "cards=7",
        "-o",
        "order=descending",
        "-o",
        "returns=point_difference",
    ];
    let mut args = vec![
        "arena",
        "goofspiel",
        "mcts:hard",
        "heuristic",
        "--games",
        "1",
    ];
    args.extend(["--records", records.to_str().unwrap()]);
    args.extend(options);
    let out = colosseum(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let record = records.join("goofspiel-00000.json");
    let record = record.to_str().unwrap();
    let check = |out: &Output| {
        let v = json(out);
        assert_eq!(v["points_range"], 56.0, "{v}");
        let decisions = v["decisions"].as_array().unwrap();
        assert_eq!(decisions.len(), 7);
        for seat in decisions
            .iter()
            .flat_map(|d| d["seats"].as_array().unwrap())
        {
            assert_eq!(seat["method"], "exact", "{seat}");
            assert!(seat["expected_points"].is_number(), "{seat}");
        }
        v
    };
    let by_flag = check(&colosseum(&[
        "analyse",
        record,
        "--json",
        "--goofspiel-table",
        table_arg,
    ]));
    let by_env = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(["analyse", record, "--json"])
        .env("COLOSSEUM_GOOFSPIEL_TABLE", &table)
        .output()
        .unwrap();
    assert_eq!(check(&by_env), by_flag);
    let out = colosseum(&["analyse", record]);
    assert!(
        text(&out.stdout).contains(" points, cost "),
        "{}",
        text(&out.stdout)
    );

    // A file that is not there: the analysis (even at 7 cards, solvable here) says which.
    let missing = dir.join("missing.table");
    let out = colosseum(&[
        "--goofspiel-table",
        missing.to_str().unwrap(),
        "analyse",
        record,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("missing.table"),
        "{}",
        text(&out.stderr)
    );
    // 12 cards with no file: hard is refused with the command that makes the table.
    let out = colosseum(&[
        "arena",
        "goofspiel",
        "mcts:hard",
        "random",
        "--games",
        "1",
        "-o",
        "cards=12",
        "-o",
        "order=descending",
        "-o",
        "returns=point_difference",
    ]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("colosseum solve goofspiel -o cards=12") && err.contains("--goofspiel-table"),
        "{err}"
    );
    // serve stops at start on a file that does not read.
    let out = colosseum(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        dir.join("s.db").to_str().unwrap(),
        "--goofspiel-table",
        missing.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("missing.table"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

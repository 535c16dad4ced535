//! The `colosseum` binary as a user runs it: exit codes, output and error messages.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn colosseum(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("colosseum-cli-{}-{name}", std::process::id()))
}

#[test]
fn games_lists_every_game_and_rules_shows_its_page() {
    let out = colosseum(&["games"], "");
    assert!(out.status.success());
    let listed = text(&out.stdout);
    for entry in colosseum_games::registry() {
        assert!(
            listed.lines().any(|l| l.starts_with(entry.id)),
            "{} not listed",
            entry.id
        );
        let page = colosseum(&["rules", entry.id], "");
        assert!(
            text(&page.stdout).contains("## Notation"),
            "{} rules page has no notation",
            entry.id
        );
    }
    let out = colosseum(&["rules", "goofspiel"], "");
    let page = text(&out.stdout);
    assert!(out.status.success());
    for heading in ["## Rulings", "## Options", "## Notation", "## Example"] {
        assert!(page.contains(heading), "rules page lacks {heading}");
    }
    let out = colosseum(&["rules", "chess"], "");
    assert_eq!(out.status.code(), Some(2));
    let ids: Vec<&str> = colosseum_games::registry().iter().map(|g| g.id).collect();
    assert_eq!(
        text(&out.stderr).trim(),
        format!(
            "colosseum: unknown game `chess`; the games are: {}",
            ids.join(", ")
        )
    );
}

#[test]
fn replay_json_reports_the_outcome_and_score() {
    let record = r#"{"game":"goofspiel","options":{"cards":3},"seed":0,"steps":[
        {"chance":"2"},{"p1":"3","p2":"1"},{"chance":"3"},{"p1":"2","p2":"2"},
        {"chance":"1"},{"p1":"1","p2":"3"}]}"#;
    let out = colosseum(&["replay", "-", "--json"], record);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["game"], "goofspiel");
    assert_eq!(json["finished"], true);
    assert_eq!(json["outcome"]["winner"], "p1");
    assert_eq!(json["outcome"]["reason"], "p1 took more points, 2 to 1");
    assert_eq!(json["score"]["p1"], 2);
    assert_eq!(json["score"]["p2"], 1);
    assert_eq!(json["score"]["returns"]["p1"], 1.0);
    assert_eq!(json["steps"], 6);
}

#[test]
fn replay_of_a_bad_step_exits_non_zero_naming_the_step() {
    let path = temp("bad.json");
    std::fs::write(
        &path,
        r#"{"game":"goofspiel","options":{"order":"ascending"},"steps":[{"p1":"5","p2":"1"},{"p1":"5","p2":"2"}]}"#,
    )
    .unwrap();
    let out = colosseum(&["replay", path.to_str().unwrap(), "--json"], "");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("steps[1] (p1: 5, p2: 2): p1: not legal here: you have no 5 left"),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["finished"], false);
    assert_eq!(json["error"]["index"], 1);
    assert_eq!(json["steps"], 1, "the state reached before the bad step");
}

#[test]
fn replay_reads_seat_keys_in_any_case_and_names_the_step_of_an_unknown_key() {
    let record = r#"{"game":"goofspiel","options":{"cards":3},"seed":0,"steps":[
        {"CHANCE":"2"},{"P1":"3","P2":"1"},{"chance":"3"},{"p1":"2","P2":"2"},
        {"chance":"1"},{"P1":"1","p2":"3"}]}"#;
    let out = colosseum(&["replay", "-", "--json"], record);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["outcome"]["winner"], "p1");
    assert_eq!(json["steps"], 6);
    let out = colosseum(
        &["replay", "-"],
        r#"{"game":"goofspiel","steps":[{"chance":"2"},{"p1":"3","seat2":"1"}]}"#,
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("steps[1]: unknown key `seat2` in a step; a step's keys are `p1` and `p2`"),
        "{stderr}"
    );
}

#[test]
fn unreadable_records_are_clear_errors() {
    let out = colosseum(&["replay", "/nonexistent/record.json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("reading the record /nonexistent/record.json"));
    let out = colosseum(&["replay", "-"], "{\"game\": \"goofspiel\", \"steps\": [");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a match record: EOF while parsing"));
    let out = colosseum(
        &["replay", "-"],
        "{\"game\": \"goofspiel\", \"options\": {\"order\": 3}}",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "colosseum: -: the record's options: option `order` = 3 is not allowed: random, descending or ascending"
    );
}

#[test]
fn a_game_against_random_can_be_saved_and_replayed() {
    let path = temp("played.json");
    // Bad input first, then every card from 13 down: whatever the bot does, the game ends.
    let mut input = String::from("banana\n0\n");
    for card in (1..=13).rev() {
        input.push_str(&format!("{card}\n"));
    }
    let out = colosseum(
        &[
            "play",
            "goofspiel",
            "--vs",
            "random",
            "--seed",
            "3",
            "--record",
            path.to_str().unwrap(),
        ],
        &input,
    );
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{shown}\n{}", text(&out.stderr));
    assert!(
        shown.contains("Refused: p1: `banana` is not a move"),
        "{shown}"
    );
    assert!(
        shown.contains("Refused: p1: `0` is not a move: cards run from 1 to 13"),
        "{shown}"
    );
    assert!(shown.contains("Game over"), "{shown}");
    let out = colosseum(&["replay", path.to_str().unwrap(), "--json"], "");
    std::fs::remove_file(&path).unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["finished"], true);
    assert_eq!(json["steps"], 26, "13 prizes and 13 pairs of bids");
}

#[test]
fn play_refuses_unknown_bots_and_options() {
    let out = colosseum(&["play", "goofspiel", "--vs", "genius"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(
        "`genius` is not a bot: unknown bot; bots are random, heuristic, mcts:easy|medium|hard"
    ));
    let out = colosseum(&["play", "goofspiel", "-o", "cardz=3"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr)
        .contains("unknown option `cardz`; this game's options are: cards, order, returns"));
}

#[test]
fn bench_reports_games_per_second() {
    let out = colosseum(
        &["bench", "goofspiel", "--games", "50", "-o", "cards=5"],
        "",
    );
    assert!(out.status.success());
    let line = text(&out.stdout);
    assert!(
        line.starts_with("goofspiel: 50 random games, 500 decisions in "),
        "{line}"
    );
    assert!(line.contains("games/s"), "{line}");
}

#[test]
fn thwart_omega_replay_reports_products_and_groups() {
    let record = r#"{"game": "thwart-omega", "options": {"size": 4}, "steps": [
        {"p1": "B a3 W a4", "p2": "B a3 W c2"},
        {"p1": "b:a1, w:b4", "p2": "W b1 B d4"},
        {"p1": "B b3 W c3", "p2": "B d1 W b3"},
        {"p1": "B a2 W c4", "p2": "B a2 W c4"},
        {"p1": "B c1 W d2", "p2": "B d3 W d2"}]}"#;
    let out = colosseum(&["replay", "-", "--json"], record);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["finished"], true);
    assert_eq!(json["outcome"]["winner"], "p1");
    assert_eq!(
        json["outcome"]["reason"],
        "Black (p1) wins with the larger product, 20 to 8"
    );
    assert_eq!(json["score"]["p1"], 20);
    assert_eq!(json["score"]["p2"], 8);
    assert_eq!(json["score"]["groups"]["p1"], serde_json::json!([5, 2, 2]));
    assert_eq!(json["score"]["groups"]["p2"], serde_json::json!([8, 1]));
    let out = colosseum(&["replay", "-"], record);
    let shown = text(&out.stdout);
    for line in [
        "    a b c d\n",
        " 1  b w b b  1\n",
        " 2  B # w W  2\n",
        "Black (p1): groups 5 2 2 = product 20\n",
        "White (p2): groups 8 1 = product 8\n",
    ] {
        assert!(shown.contains(line), "{line:?} missing from\n{shown}");
    }
}

#[test]
fn square_goofspiel_replay_json_reports_line_points_hands_and_lines() {
    // The seed's scoring example: line points tied, Turquoise (p2) wins on hand strength 4 to 3.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../games/tests/data/square-goofspiel-seed-example.json");
    let out = colosseum(&["replay", path.to_str().unwrap(), "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["game"], "square-goofspiel");
    assert_eq!(json["finished"], true);
    assert_eq!(
        json["steps"], 42,
        "6 phases of 1 chance step and 6 auctions"
    );
    assert_eq!(json["outcome"]["winner"], "p2");
    assert_eq!(
        json["outcome"]["reason"],
        "line points are tied at 21; p2 wins on remaining hand strength, 4 to 3"
    );
    assert_eq!(
        (json["score"]["p1"].clone(), json["score"]["p2"].clone()),
        (21.into(), 21.into())
    );
    assert_eq!(
        json["score"]["hand_strength"],
        serde_json::json!({"p1": 3, "p2": 4})
    );
    assert_eq!(
        json["score"]["lines_won"]["p2"],
        serde_json::json!(["row 5", "row 6", "column a", "column b", "column c", "column d"])
    );
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // The reading end is closed before the binary writes: it must end quietly, not panic.
    let mut child = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(["rules", "thwart-omega"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn arena_reports_intervals_and_writes_records() {
    let dir = temp("arena-records");
    let out = colosseum(
        &[
            "arena",
            "goofspiel",
            "heuristic",
            "random",
            "--games",
            "20",
            "--threads",
            "2",
            "--seed",
            "4",
            "--json",
            "--records",
            dir.to_str().unwrap(),
            "-o",
            "cards=6",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["games"], 20);
    let (w, d, l) = (
        json["wins"].as_u64().unwrap(),
        json["draws"].as_u64().unwrap(),
        json["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 20);
    assert!(w > l, "{json}");
    assert!(json["elo"]["low"].as_f64().unwrap() <= json["elo"]["estimate"].as_f64().unwrap());
    assert_eq!(json["substituted"], serde_json::json!([0, 0]), "{json}");
    let records = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(records, 20);
    let first = dir.join("goofspiel-00000.json");
    let replay = colosseum(&["replay", first.to_str().unwrap(), "--json"], "");
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
    let table = colosseum(
        &[
            "arena",
            "goofspiel",
            "mcts:iters=50",
            "random",
            "--games",
            "4",
        ],
        "",
    );
    let table = text(&table.stdout);
    assert!(
        table.contains("A wins") && table.contains("Elo A - B"),
        "{table}"
    );
    assert!(
        table.contains("illegal moves replaced: A 0, B 0"),
        "{table}"
    );
}

#[test]
fn play_against_mcts_finishes_from_piped_input() {
    let out = colosseum(
        &[
            "play",
            "goofspiel",
            "--vs",
            "mcts:iters=200",
            "--seed",
            "3",
            "-o",
            "cards=4",
            "-o",
            "order=descending",
        ],
        "4\n3\n2\n1\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(
        t.contains("the bot mcts(rm, 200 iterations) plays the other seat"),
        "{t}"
    );
    assert!(t.contains("Game over"), "{t}");
}

fn python() -> Option<&'static str> {
    ["python3", "python"].into_iter().find(|p| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The protocol from both ends: a Python script plays a seat in the arena, and Colosseum's own
/// bot answers requests as an engine (`colosseum bot`), itself run as a `cmd:` bot.
#[test]
fn the_bot_protocol_plays_a_python_script_and_serves_colosseum_bots() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/random_bot.py");
    if let Some(py) = python() {
        for game in [
            "goofspiel",
            "all-in-goofspiel",
            "thwart-omega",
            "galespiel",
            "witchs-brew",
        ] {
            let spec = format!("cmd:{py} {script} 7");
            let out = colosseum(
                &[
                    "arena",
                    game,
                    &spec,
                    "random",
                    "--games",
                    "4",
                    "--threads",
                    "1",
                    "--json",
                ],
                "",
            );
            assert!(out.status.success(), "{game}: {}", text(&out.stderr));
            assert!(
                !text(&out.stderr).contains("instead"),
                "{game}: the script's moves were refused: {}",
                text(&out.stderr)
            );
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(json["games"], 4);
            assert_eq!(
                json["substituted"],
                serde_json::json!([0, 0]),
                "{game}: {json}"
            );
        }
        // A program whose every reply is refused: each of its moves is replaced, and counted.
        let dir = temp("refusing-bot");
        std::fs::create_dir_all(&dir).unwrap();
        let refusing = dir.join("refusing.py");
        std::fs::write(
            &refusing,
            "import sys\nfor line in sys.stdin:\n    print('{\"move\": \"zz\"}', flush=True)\n",
        )
        .unwrap();
        let spec = format!("cmd:{py} {}", refusing.display());
        let out = colosseum(
            &[
                "arena",
                "goofspiel",
                "random",
                &spec,
                "--games",
                "2",
                "--threads",
                "1",
                "--json",
                "-o",
                "cards=5",
                "-o",
                "order=descending",
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("instead"),
            "{}",
            text(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["substituted"], serde_json::json!([0, 10]), "{json}");
        std::fs::remove_dir_all(&dir).unwrap();
    } else {
        eprintln!("no python: the script half of this test is skipped");
    }
    let me = env!("CARGO_BIN_EXE_colosseum");
    for game in ["goofspiel", "all-in-goofspiel", "galespiel", "witchs-brew"] {
        let spec = format!("cmd:{me} bot {game} --engine heuristic");
        let out = colosseum(
            &[
                "arena",
                game,
                &spec,
                "random",
                "--games",
                "6",
                "--threads",
                "1",
                "--json",
            ],
            "",
        );
        assert!(out.status.success(), "{game}: {}", text(&out.stderr));
        assert!(
            !text(&out.stderr).contains("instead"),
            "{game}: the engine's moves were refused: {}",
            text(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(json["wins"].as_u64().unwrap() >= 4, "{game}: {json}");
    }
    // A request that does not fit gets an error line, and the engine goes on.
    let out = colosseum(&["bot", "goofspiel", "--engine", "random"], "not json\n");
    assert!(out.status.success());
    assert!(
        text(&out.stdout).starts_with("{\"error\":\"line 1:"),
        "{}",
        text(&out.stdout)
    );
}

/// `colosseum exploit`: the JSON report, the policy dump, a `cmd:` engine (Colosseum's own bot
/// served as a program), and a clear refusal of what is too large.
#[test]
fn exploit_judges_a_bot_through_the_protocol_and_refuses_large_games() {
    let dump = temp("exploit-policy.json");
    let out = colosseum(
        &[
            "exploit",
            "goofspiel",
            "--engine",
            "random",
            "-o",
            "cards=3",
            "--samples",
            "2",
            "--json",
            "--dump-policy",
            dump.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        (report["exploitability"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-9,
        "{report}"
    );
    assert_eq!(report["states"], serde_json::json!([10, 10]));
    assert!(report["noise_floor"].as_f64().is_some());
    let policy: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dump).unwrap()).unwrap();
    assert_eq!(policy["policy"]["p1"][""]["3"], 1.0 / 3.0);
    assert!(policy["policy"]["p2"]["3:1"].is_object());
    let _ = std::fs::remove_file(&dump);

    let program = format!(
        "cmd:{} bot goofspiel --engine heuristic",
        env!("CARGO_BIN_EXE_colosseum")
    );
    let out = colosseum(
        &[
            "exploit",
            "goofspiel",
            "--engine",
            &program,
            "-o",
            "cards=4",
            "--samples",
            "2",
            "--no-floor",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("exploitability   1.000000"), "{report}");

    let out = colosseum(&["exploit", "goofspiel", "-o", "cards=9"], "");
    assert_eq!(out.status.code(), Some(2));
    let error = text(&out.stderr);
    assert!(
        error.contains("more than 300000 nodes") && error.contains("--approximate"),
        "{error}"
    );
    let out = colosseum(&["exploit", "galespiel"], "");
    assert_eq!(out.status.code(), Some(2));
    let error = text(&out.stderr);
    assert!(
        error.contains("more than 300000 nodes") && error.contains("small variant"),
        "{error}"
    );
}

/// `colosseum exploit` on any game's small variant (the generic exact judge, issue 42): Thwart
/// Omega 2x2 with a `cmd:` engine (the heuristic served as a program: deterministic, beaten as
/// `p1` by a reply that wins, not as `p2`), and classic Goofspiel with the random prize order
/// (chance) with the random bot read once per state (a pure strategy, beaten); the dump lists
/// every state of each information set read, from the chance step on.
#[test]
fn exploit_judges_every_games_small_variant_exactly() {
    let program = format!(
        "cmd:{} bot thwart-omega --engine heuristic",
        env!("CARGO_BIN_EXE_colosseum")
    );
    let out = colosseum(
        &[
            "exploit",
            "thwart-omega",
            "-o",
            "size=2",
            "--engine",
            &program,
            "--samples",
            "2",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["method"], "exact");
    assert_eq!(report["nodes"], 145);
    assert_eq!(report["exploitability"], 0.5, "{report}");

    let dump = temp("exploit-generic-policy.json");
    let out = colosseum(
        &[
            "exploit",
            "goofspiel",
            "-o",
            "cards=3",
            "-o",
            "order=random",
            "--engine",
            "random",
            "--samples",
            "1",
            "--deterministic-after",
            "1",
            "--json",
            "--dump-policy",
            dump.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = report["exploitability"].as_f64().unwrap();
    assert!(e > 0.0 && e <= 1.0, "{report}");
    let policy: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dump).unwrap()).unwrap();
    let first = &policy["policy"]["p1"][0];
    assert!(first["histories"][0]
        .as_str()
        .unwrap()
        .starts_with("chance="));
    let _ = std::fs::remove_file(&dump);

    let out = colosseum(
        &[
            "exploit",
            "goofspiel",
            "-o",
            "order=random",
            "-o",
            "cards=3",
            "-o",
            "returns=point_difference",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("scores win/loss"));
}

/// `colosseum exploit --approximate`: the exploiter plays the bot in any game (here Thwart
/// Omega's heuristic, a few short games); the JSON's gap, interval and lower bound agree with its
/// counts; `--records` writes each game's record, named by the exploiter's seat (seats swapped:
/// p1 in even games), and each replays; a `cmd:` program is refused with the reason.
#[test]
fn exploit_approximately_judges_any_game() {
    let dir = temp("exploit-records");
    let out = colosseum(
        &[
            "exploit",
            "thwart-omega",
            "--approximate",
            "--engine",
            "heuristic",
            "--games",
            "6",
            "--exploiter",
            "iters=200",
            "--json",
            "--records",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: Vec<String> = (0..6)
        .map(|i| {
            let seat = if i % 2 == 0 { "p1" } else { "p2" };
            format!("thwart-omega-{i:05}-exploiter-{seat}.json")
        })
        .collect();
    assert_eq!(names, expected);
    for name in &names {
        let replay = colosseum(&["replay", dir.join(name).to_str().unwrap(), "--json"], "");
        assert!(replay.status.success(), "{}", text(&replay.stderr));
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let report: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(report["method"], "approximate");
    assert_eq!(report["games"], 6);
    let wins = report["exploiter_wins"].as_u64().unwrap();
    let losses = report["exploiter_losses"].as_u64().unwrap();
    let gap = report["gap"].as_f64().unwrap();
    assert!(
        (gap - (wins as f64 - losses as f64) / 6.0).abs() < 1e-9,
        "{report}"
    );
    assert!(
        report["exploiter"]
            .as_str()
            .unwrap()
            .contains("of heuristic"),
        "{report}"
    );
    let low = report["gap_interval"][0].as_f64().unwrap();
    assert!((report["lower_bound"].as_f64().unwrap() - low.max(0.0)).abs() < 1e-12);

    let out = colosseum(
        &[
            "exploit",
            "thwart-omega",
            "--approximate",
            "--engine",
            "cmd:python3 bot.py",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot judge a cmd: program"));
}

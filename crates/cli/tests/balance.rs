//! `colosseum balance` as a designer waits for it (issue 40): a budget that sizes the default
//! engine and stops the run near it, progress lines when stderr is not a terminal, files
//! rewritten as the games come (a killed run keeps them), verdicts in words with the
//! score-margin distribution and the fairest value, and plots whose legend stays clear of the
//! bars and whose tick labels are the values of their lines.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use colosseum_cli::balance::{
    binomial_p, parse_budget, size_iterations, start_chunk, two_proportion_p, PilotTiming, AIM,
    HARD_ITERATIONS, MIN_ITERATIONS,
};
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
    let dir = std::env::temp_dir().join(format!("colosseum-balance-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_budget_takes_times_with_their_units_and_refuses_the_rest() {
    for (given, secs) in [
        ("60s", 60),
        ("90s", 90),
        ("5m", 300),
        ("1m30s", 90),
        ("1h", 3600),
    ] {
        assert_eq!(
            parse_budget(given),
            Ok(Duration::from_secs(secs)),
            "{given}"
        );
    }
    for bad in ["60", "5 minutes", "", "0s", "-5s", "1.5m", "m", "5d"] {
        let err = parse_budget(bad).unwrap_err();
        assert!(err.contains("60s, 90s, 5m"), "{bad}: {err}");
    }
    let out = colosseum(&["balance", "goofspiel", "--budget", "60"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("`60` has no unit") && err.contains("60s, 90s, 5m"),
        "{err}"
    );
}

/// The sizing from fake timings: the chosen setting's predicted time fills the budget's aim
/// and never passes it; the hard level's count when it all fits; the fewest iterations, said
/// not to fit, when nothing does. The deadline starts a turn only while half of it fits.
#[test]
fn the_budget_sizes_the_engine_from_measured_games() {
    // Three values of 100 games; a game costs 5 ms plus 0.15 ms an iteration.
    let timing = |n: u32| PilotTiming {
        iterations: n,
        seconds_per_game: 0.005 + 0.000_15 * f64::from(n),
    };
    let values: Vec<(u32, Vec<PilotTiming>)> = (0..3)
        .map(|_| (100, vec![timing(100), timing(300)]))
        .collect();
    let s = size_iterations(60.0, &values);
    // 300 × (0.005 + 0.00015 n) = 54  →  n = 1166.
    assert_eq!(s.iterations, 1166);
    assert!(s.fits);
    assert!(
        s.seconds <= 60.0 * AIM + 1e-9 && s.seconds > 60.0 * AIM - 0.1,
        "{s:?}"
    );
    // A long budget: the hard level in full.
    let s = size_iterations(100_000.0, &values);
    assert_eq!(s.iterations, HARD_ITERATIONS);
    assert!(s.fits);
    // A budget too short for even the fewest iterations: those, and said not to fit.
    let s = size_iterations(2.0, &values);
    assert_eq!(s.iterations, MIN_ITERATIONS);
    assert!(!s.fits);
    // One timing only: proportional to the iterations.
    let one = vec![(
        10,
        vec![PilotTiming {
            iterations: 100,
            seconds_per_game: 0.1,
        }],
    )];
    assert_eq!(size_iterations(10.0, &one).iterations, 900);
    // The deadline: a turn of 4 s at 58 s of 60 starts (half of it fits), at 59 s not.
    let s = Duration::from_secs;
    assert!(start_chunk(s(58), s(60), s(4)));
    assert!(!start_chunk(s(59), s(60), s(4)));
}

#[test]
fn the_tests_named_in_the_verdicts_give_their_known_values() {
    // 2 of 10 fair tosses: P(X <= 2) = 56/1024, two-sided 0.109375.
    assert!((binomial_p(2, 10) - 0.109_375).abs() < 1e-12);
    assert!((binomial_p(5, 10) - 1.0).abs() < 1e-12);
    assert!((binomial_p(0, 10) - 2.0 / 1024.0).abs() < 1e-12);
    // 60/100 against 40/100: z = 2.828..., p = 0.00468.
    assert!((two_proportion_p(60, 100, 40, 100) - 0.004_68).abs() < 1e-4);
    assert!((two_proportion_p(50, 100, 50, 100) - 1.0).abs() < 1e-9);
}

/// Legend boxes (swatch and text, the text measured at 0.6 of its size a character) never
/// meet a bar nor leave the canvas.
fn assert_legend_clear(svg: &str, name: &str) {
    let (w, h) = view_box(svg);
    let bars: Vec<[f64; 4]> = tags(svg, "<rect class=\"bar\"")
        .iter()
        .map(|t| {
            let x = attr(t, "x");
            let y = attr(t, "y");
            [x, y, x + attr(t, "width"), y + attr(t, "height")]
        })
        .collect();
    assert!(!bars.is_empty(), "{name}: no bars");
    let mut boxes = Vec::new();
    for group in svg.split("<g class=\"legend\">").skip(1) {
        let group = &group[..group.find("</g>").unwrap()];
        let rect = &tags(group, "<rect")[0];
        let (x, y) = (attr(rect, "x"), attr(rect, "y"));
        boxes.push([x, y, x + attr(rect, "width"), y + attr(rect, "height")]);
        let text_tag = &tags(group, "<text")[0];
        let label = &group[group.find('>').unwrap() + 1..];
        let label = &label[label.find("<text").unwrap()..];
        let label = &label[label.find('>').unwrap() + 1..label.find("</text>").unwrap()];
        let (tx, ty) = (attr(text_tag, "x"), attr(text_tag, "y"));
        let size = attr(text_tag, "font-size");
        let width = 0.6 * size * label.chars().count() as f64;
        boxes.push([tx, ty - size, tx + width, ty + 0.25 * size]);
    }
    assert!(!boxes.is_empty(), "{name}: no legend");
    for b in &boxes {
        assert!(
            b[0] >= 0.0 && b[1] >= 0.0 && b[2] <= w && b[3] <= h,
            "{name}: legend box {b:?} leaves the canvas {w} x {h}"
        );
        for bar in &bars {
            let apart = b[2] <= bar[0] || bar[2] <= b[0] || b[3] <= bar[1] || bar[3] <= b[1];
            assert!(apart, "{name}: legend box {b:?} meets the bar {bar:?}");
        }
    }
}

/// The tick labels are the values of their lines: equally spaced values at equally spaced
/// heights, the bottom one 0, whole numbers for the length's axis.
fn assert_ticks_true(svg: &str, whole: bool) {
    let ticks: Vec<(f64, f64)> = svg
        .split("<text class=\"tick\"")
        .skip(1)
        .map(|t| {
            let tag = &t[..t.find('>').unwrap()];
            let label = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            let value: f64 = label.trim_end_matches('%').parse().unwrap();
            if whole {
                assert!(!label.contains('.'), "a fractional tick label {label}");
            }
            (attr(tag, "y"), value)
        })
        .collect();
    assert!(ticks.len() >= 2, "{svg}");
    let (y0, v0) = ticks[0];
    let (y1, v1) = *ticks.last().unwrap();
    assert_eq!(v0, 0.0);
    for &(y, v) in &ticks {
        // The value the line's height stands for, from the two extreme ticks.
        let at = v0 + (v1 - v0) * (y - y0) / (y1 - y0);
        // Within the rounding of the coordinates (0.1 px) on a plot some 260 px high.
        assert!(
            (at - v).abs() < 0.002 * v1,
            "the label {v} is on the line of {at}"
        );
    }
}

fn view_box(svg: &str) -> (f64, f64) {
    let vb = &svg[svg.find("viewBox=\"").unwrap() + 9..];
    let nums: Vec<f64> = vb[..vb.find('"').unwrap()]
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    (nums[2], nums[3])
}

fn tags(svg: &str, start: &str) -> Vec<String> {
    svg.match_indices(start)
        .map(|(i, _)| {
            let rest = &svg[i..];
            rest[..rest.find('>').unwrap()].to_string()
        })
        .collect()
}

fn attr(tag: &str, name: &str) -> f64 {
    let key = format!(" {name}=\"");
    let rest = &tag[tag.find(&key).unwrap_or_else(|| panic!("{name} in {tag}")) + key.len()..];
    rest[..rest.find('"').unwrap()].parse().unwrap()
}

/// A tiny sweep, stderr not a terminal: progress lines, a verdict in words for each value, the
/// margins, the fairest value, and the files (with the plots' defects gone).
#[test]
fn a_tiny_sweep_says_its_verdicts_and_writes_its_files() {
    let dir = temp("tiny");
    let out = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args([
            "balance",
            "goofspiel",
            "-o",
            "order=descending",
            "--games",
            "4",
            "--engine",
            "mcts:iters=50",
            "--sweep",
            // One card last: every game a draw, its bars reach the top right, where the legend
            // was drawn before.
            "cards=3,1",
            "--threads",
            "2",
            "--out",
        ])
        .arg(&dir)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    // Progress: a line at each tenth, the last at 8 of 8 games.
    assert!(
        stderr.contains("balance: 8/8 games (100%)") && stderr.contains("cards = 1: 4/4"),
        "{stderr}"
    );
    assert!(
        stderr.contains("engine: mcts:iters=50, as given"),
        "{stderr}"
    );
    // The verdicts, the margins and the fairest value.
    for value in ["cards = 3", "cards = 1"] {
        assert!(stdout.contains(&format!("verdict: {value}")), "{stdout}");
    }
    assert!(
        stdout.contains("no seat favoured at this sample size")
            || stdout.contains("no decided game")
            || stdout.contains("favours"),
        "{stdout}"
    );
    assert!(stdout.contains("score margin (the first seat's score minus the second's)"));
    assert!(stdout.contains("fairest: cards = "), "{stdout}");
    assert!(
        stdout.contains("verdict: cards = 1: no decided game (4 draws)"),
        "{stdout}"
    );
    assert!(stdout.contains("exact two-sided binomial test"), "{stdout}");
    // The files: the JSON complete, the text, the plots.
    let report = read_json(&dir.join("balance.json"));
    assert_eq!(report["complete"], true);
    assert!(report["fairest"].as_str().unwrap().starts_with("fairest: "));
    for p in report["points"].as_array().unwrap() {
        assert_eq!(p["games"], 4);
        assert_eq!(p["planned"], 4);
        assert!(p["verdict"].as_str().unwrap().starts_with("cards = "));
        let margins: u64 = p["margins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["games"].as_u64().unwrap())
            .sum();
        assert_eq!(margins, 4, "{p}");
    }
    assert!(std::fs::read_to_string(dir.join("balance.txt"))
        .unwrap()
        .contains("verdict: "));
    for plot in ["shares.svg", "endings.svg", "length.svg"] {
        let svg = std::fs::read_to_string(dir.join(plot)).unwrap();
        assert_legend_clear(&svg, plot);
        assert_ticks_true(&svg, plot == "length.svg");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A budget far too short for its games: the engine sized to the fewest iterations and said so,
/// every value's first games played, then the run stops near the budget with the games it has
/// and says why. (The wall-clock bound is only a guard, ten times the budget.)
#[test]
fn a_budget_run_says_its_setting_and_stops_with_the_games_it_has() {
    let dir = temp("budget");
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args([
            "balance",
            "thwart-omega",
            "-o",
            "size=5",
            "--games",
            "2000",
            "--budget",
            "4s",
            "--threads",
            "2",
            "--json",
            "--out",
        ])
        .arg(&dir)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let took = start.elapsed();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(took < Duration::from_secs(40), "took {took:?}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["budget_seconds"], 4.0);
    let setting = report["engine_setting"].as_str().unwrap();
    assert!(
        setting.contains(&format!("{MIN_ITERATIONS} iterations a decision"))
            && setting.contains("too short"),
        "{setting}"
    );
    assert!(
        report["engine"]
            .as_str()
            .unwrap()
            .starts_with(&format!("mcts:iters={MIN_ITERATIONS},")),
        "{report}"
    );
    assert!(text(&out.stderr).contains("balance: engine: the hard level's search"));
    assert_eq!(report["complete"], false);
    assert!(
        report["stopped"]
            .as_str()
            .unwrap()
            .contains("the 4s budget ran out"),
        "{report}"
    );
    let games = report["points"][0]["games"].as_u64().unwrap();
    assert!((2..2000).contains(&games), "{games}");
    assert_eq!(
        read_json(&dir.join("balance.json"))["points"][0]["games"],
        games
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A run killed partway keeps what it had written: the JSON (marked incomplete, each value with
/// some of its games) and the plots, whole.
#[test]
fn a_killed_run_keeps_its_partial_results() {
    let dir = temp("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args([
            "balance",
            "thwart-omega",
            "--games",
            "400",
            "--engine",
            "mcts:iters=200",
            "--sweep",
            "size=5,6",
            "--threads",
            "2",
            "--out",
        ])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let json = dir.join("balance.json");
    let end = Instant::now() + Duration::from_secs(300);
    while !json.exists() {
        assert!(Instant::now() < end, "no partial results written");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before writing partial results"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let report = read_json(&json);
    assert_eq!(report["complete"], false, "{report}");
    let points = report["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for p in points {
        let games = p["games"].as_u64().unwrap();
        assert!((1..400).contains(&games), "{p}");
        assert_eq!(p["planned"], 400);
        assert_eq!(
            p["p1_wins"].as_u64().unwrap()
                + p["p2_wins"].as_u64().unwrap()
                + p["draws"].as_u64().unwrap(),
            games
        );
    }
    for plot in ["shares.svg", "endings.svg", "length.svg"] {
        let svg = std::fs::read_to_string(dir.join(plot)).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.ends_with("</svg>\n"),
            "{plot}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

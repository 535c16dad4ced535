//! The games crate is the one place that knows a game: the sources of crates/host,
//! crates/server, crates/cli, crates/trivia, crates/tournament, crates/loadgen and the shared
//! parts of crates/ai name none. Comments (doc comments are also the command line's help text)
//! and the test module at the end of a file may name games; code may not, so that adding a game
//! touches only crates/games (and its bots, `crates/ai/src/games/`).
//!
//! Naming a game is writing its id, module, type or name, or part of one: a string literal
//! that is the start (4 letters or digits at least) of an id or name (`"witch"`, `"Goof"`), or a
//! `starts_with`, `ends_with`, `contains`, `strip_prefix`, `strip_suffix`, `find` or `matches`
//! of a literal that is any part of one (`.ends_with("brew")`).

use std::path::{Path, PathBuf};

/// The crates' source folders scanned, under `crates/`.
const SCANNED: &[&str] = &[
    "host/src",
    "server/src",
    "cli/src",
    "trivia/src",
    "tournament/src",
    "loadgen/src",
    "ai/src",
];

/// The per-game parts of crates/ai, left out: each game's bot hooks (`games.rs` ties them
/// together, one module per game), and the solvers of one game (the Goofspiel table and
/// its exact exploitability, the Goofspiel and Square Goofspiel solutions).
const PER_GAME: &[&str] = &[
    "ai/src/games.rs",
    "ai/src/games",
    "ai/src/exploit.rs",
    "ai/src/solver.rs",
    "ai/src/table.rs",
    "ai/src/shared_table.rs",
];

/// What names a game: its id, its module and type names, its name.
fn names() -> Vec<String> {
    let mut out = Vec::new();
    for entry in colosseum_games::registry() {
        let module = entry.id.replace('-', "_");
        let camel: String = entry
            .id
            .split('-')
            .map(|w| w[..1].to_ascii_uppercase() + &w[1..])
            .collect();
        out.extend([entry.id.to_string(), module, camel, entry.name.to_string()]);
    }
    out
}

fn sources(dir: &Path, skip: &[PathBuf], out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if skip.contains(&path) {
            continue;
        }
        if path.is_dir() {
            sources(&path, skip, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of a line of code, as written between the quotes (raw strings' too).
fn literals(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            // A character literal (`'"'`, `'\\'`), not a lifetime.
            '\'' if chars.get(i + 2) == Some(&'\'') => i += 3,
            '\'' if chars.get(i + 1) == Some(&'\\') && chars.get(i + 3) == Some(&'\'') => i += 4,
            '"' => {
                let mut text = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    if let Some(&c) = chars.get(i) {
                        text.push(c);
                    }
                    i += 1;
                }
                out.push(text);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The letters and digits of `s`.
fn alphanumerics(s: &str) -> usize {
    s.chars().filter(|c| c.is_alphanumeric()).count()
}

/// The part of a game's id or name that the line's code names, if any: the whole id or name
/// anywhere, a literal that starts one, or a literal searched for (`contains`, ...) that is in one.
fn named(code: &str, names: &[String]) -> Option<String> {
    let lower = code.to_ascii_lowercase();
    let lowered: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
    if let Some(name) = names
        .iter()
        .zip(&lowered)
        .filter(|(_, l)| lower.contains(l.as_str()))
        .max_by_key(|(n, _)| n.len())
    {
        return Some(name.0.clone());
    }
    for literal in literals(code) {
        let l = literal.to_ascii_lowercase();
        if alphanumerics(&l) >= 4 && lowered.iter().any(|n| n.starts_with(&l)) {
            return Some(format!("\"{literal}\" (the start of a game's id or name)"));
        }
    }
    const SEARCHES: &[&str] = &[
        ".starts_with(",
        ".ends_with(",
        ".contains(",
        ".strip_prefix(",
        ".strip_suffix(",
        ".find(",
        ".matches(",
    ];
    for search in SEARCHES {
        for (at, _) in lower.match_indices(search) {
            let rest = &code[at + search.len()..];
            let Some(arg) = rest.trim_start().strip_prefix('"') else {
                continue;
            };
            let Some(literal) = literals(&format!("\"{arg}")).into_iter().next() else {
                continue;
            };
            let l = literal.to_ascii_lowercase();
            if alphanumerics(&l) >= 4 && lowered.iter().any(|n| n.contains(&l)) {
                return Some(format!(
                    "{}\"{literal}\") (part of a game's id or name)",
                    &search[1..]
                ));
            }
        }
    }
    None
}

/// Each line of code in `text` (comments cut, the test module at the end left out) that names
/// a game, with its number.
fn naming_lines<'t>(text: &'t str, names: &[String]) -> Vec<(usize, &'t str, String)> {
    let mut found = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        // The test module (the project keeps it at the end of a file); a `#[cfg(test)]` on
        // anything else does not end the scan.
        if *line == "#[cfg(test)]" && lines.get(i + 1).is_some_and(|l| l.starts_with("mod ")) {
            break;
        }
        let code = line.split("// ").next().unwrap_or("").trim();
        if code.starts_with("//") {
            continue;
        }
        if let Some(name) = named(code, names) {
            found.push((i + 1, code, name));
        }
    }
    found
}

/// Every line naming a game in the sources under `root`'s `scanned` folders, `skip` left out,
/// as `path:line: names ...: code` (paths relative to `root`); and the files read.
fn scan(root: &Path, scanned: &[&str], skip: &[&str]) -> (Vec<String>, Vec<PathBuf>) {
    let names = names();
    let skip: Vec<PathBuf> = skip.iter().map(|s| root.join(s)).collect();
    let mut files = Vec::new();
    for dir in scanned {
        sources(&root.join(dir), &skip, &mut files);
    }
    files.sort();
    let mut bad = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(file).unwrap();
        for (line, code, name) in naming_lines(&text, &names) {
            bad.push(format!("{rel}:{line}: names {name}: {code}"));
        }
    }
    (bad, files)
}

fn crates_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn no_crate_but_games_and_the_bots_per_game_names_a_game() {
    let crates = crates_dir();
    let (bad, files) = scan(crates, SCANNED, PER_GAME);
    let read = |rel: &str| files.contains(&crates.join(rel));
    for rel in [
        "host/src/matches.rs",
        "server/src/hub/mod.rs",
        "server/src/routes/matches.rs",
        "cli/src/main.rs",
        "trivia/src/season.rs",
        "tournament/src/lib.rs",
        "loadgen/src/main.rs",
        "ai/src/registry.rs",
        "ai/src/mcts.rs",
    ] {
        assert!(read(rel), "{rel} is scanned: {files:?}");
    }
    assert!(!read("ai/src/games/witchs_brew.rs") && !read("ai/src/games.rs"));
    assert!(
        bad.is_empty(),
        "game knowledge belongs in the game's entry in crates/games (or its bots in \
         crates/ai/src/games/):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_check_sees_a_game_named_in_code_but_not_in_comments_or_tests() {
    let names = names();
    let text = "fn a() {\n    let g = \"thwart-omega\"; // Thwart Omega\n    // The Witch's Brew\n    \
                use colosseum_games::galespiel::Galespiel;\n}\n#[cfg(test)]\nfn b() { SquareGoofspiel }\n\
                #[cfg(test)]\nmod tests { \"goofspiel\" }\n";
    let found: Vec<_> = naming_lines(text, &names)
        .into_iter()
        .map(|(line, _, name)| (line, name))
        .collect();
    assert_eq!(
        found,
        [
            (2, "thwart-omega".to_string()),
            (4, "Galespiel".to_string()),
            (7, "SquareGoofspiel".to_string())
        ]
    );
}

#[test]
fn the_check_sees_the_start_or_a_part_of_a_game_in_a_literal() {
    let names = names();
    let lines = |text: &str| -> Vec<usize> {
        naming_lines(text, &names)
            .into_iter()
            .map(|(line, _, _)| line)
            .collect()
    };
    let text = "if id.starts_with(\"witch\") {}\n\
                let g = \"Goof\";\n\
                let b = kind.ends_with( \"brew\");\n\
                let t = if c == '\"' { \"thwa\" } else { \"\" };\n\
                let k = r#\"all-in\"#;\n\
                let s = id.contains(\"SPIEL\");\n";
    assert_eq!(lines(text), [1, 2, 3, 4, 5, 6]);
    // Not games: fewer than four letters or digits, words that start no id or name, a literal
    // that only contains a game's id (a format string), and a search for a word in no name.
    let fine = "let a = text.strip_prefix(\"the \");\n\
                let b = \"gal\";\n\
                let c = \"game\";\n\
                let d = format!(\"{} a\", \"round\");\n\
                let e = id.contains(\"match\");\n\
                let f = 'a';\n";
    assert_eq!(lines(fine), Vec::<usize>::new());
}

/// A copy of crates/trivia's sources with `id.starts_with("witch")` written into one: the full
/// names alone (the check before it looked at prefixes) do not see it; the scan does, once.
#[test]
fn the_scan_fails_on_a_copy_of_a_crate_that_tests_a_prefix_of_an_id() {
    let dir = std::env::temp_dir().join(format!("colosseum-no-game-ids-{}", std::process::id()));
    let src = dir.join("trivia/src");
    std::fs::create_dir_all(&src).unwrap();
    let real = crates_dir().join("trivia/src");
    for e in std::fs::read_dir(&real).unwrap() {
        let path = e.unwrap().path();
        std::fs::copy(&path, src.join(path.file_name().unwrap())).unwrap();
    }
    assert_eq!(scan(&dir, &["trivia/src"], &[]).0, Vec::<String>::new());

    let broken = "fn brewing(id: &str) -> bool {\n    id.starts_with(\"witch\")\n}\n";
    let season = std::fs::read_to_string(src.join("season.rs")).unwrap();
    std::fs::write(src.join("season.rs"), format!("{broken}{season}")).unwrap();
    let names = names();
    assert!(
        !names.iter().any(|n| broken
            .to_ascii_lowercase()
            .contains(&n.to_ascii_lowercase())),
        "no full id or name in the broken line"
    );
    let (bad, _) = scan(&dir, &["trivia/src"], &[]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        bad,
        [
            "trivia/src/season.rs:2: names \"witch\" (the start of a game's id or name): \
          id.starts_with(\"witch\")"
        ]
    );
}

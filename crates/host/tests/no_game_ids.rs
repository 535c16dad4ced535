//! The games crate is the one place that knows a game: the sources of crates/host,
//! crates/server and crates/cli name none. Comments (doc comments are also the command line's
//! help text) and the test module at the end of a file may name games; code may not, so that
//! adding a game touches only crates/games.

use std::path::{Path, PathBuf};

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

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
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
        let lower = code.to_ascii_lowercase();
        if let Some(name) = names
            .iter()
            .filter(|n| lower.contains(&n.to_ascii_lowercase()))
            .max_by_key(|n| n.len())
        {
            found.push((i + 1, code, name.clone()));
        }
    }
    found
}

#[test]
fn host_server_and_cli_name_no_game() {
    let names = names();
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    for krate in ["host", "server", "cli"] {
        sources(&crates.join(krate).join("src"), &mut files);
    }
    assert!(files.len() > 10, "the sources were found: {files:?}");
    let mut bad = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(crates)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(file).unwrap();
        for (line, code, name) in naming_lines(&text, &names) {
            bad.push(format!("{rel}:{line}: names `{name}`: {code}"));
        }
    }
    assert!(
        bad.is_empty(),
        "game knowledge belongs in the game's entry in crates/games:\n{}",
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

//! The games crate is the one place that knows a game, in the browser too: each game's browser
//! code is its module and stylesheet in `crates/games/assets` (served by the server from the
//! game's registry entry), and the shared pages in `crates/server/assets` name no game. Unlike
//! the Rust check (crates/host/tests/no_game_ids.rs), comments count: the assets are shipped to
//! every browser as they are.

use std::path::{Path, PathBuf};

use colosseum_games::{registry, GameEntry};

/// A game module's exports that every game may have: the pages call them by these names.
const INTERFACE: &[&str] = &[
    "render",
    "lastReveal",
    "placeholder",
    "moveLabel",
    "optionLabels",
    "kindWords",
    "races",
    "headline",
    "prompt",
    "glossary",
];

/// Words of one game's rules or pieces that only that game's browser code should use (its view's
/// fields, its pieces' classes, its terms), beside what [`terms`] derives from the registry.
fn vocabulary(id: &str) -> &'static [&'static str] {
    match id {
        "goofspiel" => &["prize-card", "small-card", "prizes_left"],
        "square-goofspiel" => &["phase_cells", "up_now", "up-now", "line_points", "on-dark"],
        "thwart-omega" => &[
            "stone-black",
            "stone-white",
            "double-black",
            "burn",
            "burned",
        ],
        "all-in-goofspiel" => &["face_down_count", "face_down_cards", "card-back", "allin"],
        "galespiel" => &[
            "bridge",
            "bridges",
            "spot-free",
            "spot-cost",
            "lattice",
            "materials",
        ],
        "witchs-brew" => &[
            "cauldron",
            "cauldron_rounds",
            "duplicard",
            "diminish",
            "intermission",
            "frozen",
            "victory condition",
            "locked-col",
            "wb-card",
            "p1_chance",
            "none_chance",
        ],
        _ => &[],
    }
}

/// What names `entry` or belongs to it alone: `(term, whole word only)`. Its id, module and type
/// names and its name (also without "The " and with either apostrophe) anywhere in a word; its
/// module's own exports and its vocabulary as whole words.
fn terms(entry: &GameEntry) -> Vec<(String, bool)> {
    let module = entry.id.replace('-', "_");
    let camel: String = entry
        .id
        .split('-')
        .map(|w| w[..1].to_ascii_uppercase() + &w[1..])
        .collect();
    let name = entry.name.trim_start_matches("The ");
    let mut out: Vec<(String, bool)> = [
        entry.id.to_string(),
        module,
        camel,
        entry.name.to_string(),
        name.to_string(),
        name.replace('\'', "\u{2019}"),
        name.replace('\'', "\\u2019"),
        name.replace('\'', ""),
    ]
    .into_iter()
    .map(|t| (t, false))
    .collect();
    out.extend(exports(entry.browser.module).map(|e| (e.to_string(), true)));
    out.extend(vocabulary(entry.id).iter().map(|t| (t.to_string(), true)));
    out.sort();
    out.dedup();
    out
}

/// The names a module exports (`export function NAME`, `export const NAME`) beyond the
/// interface every game shares.
fn exports(module: &str) -> impl Iterator<Item = &str> {
    module.lines().filter_map(|line| {
        let rest = line
            .strip_prefix("export function ")
            .or_else(|| line.strip_prefix("export const "))?;
        let name = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()?;
        (!name.is_empty() && !INTERFACE.contains(&name)).then_some(name)
    })
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Whether `text` holds `term` (ASCII case-insensitive), as a whole word when `whole`.
fn holds(text: &str, term: &str, whole: bool) -> bool {
    let (text, term) = (text.to_lowercase(), term.to_lowercase());
    text.match_indices(&term).any(|(at, _)| {
        !whole
            || (!text[..at].chars().next_back().is_some_and(word_char)
                && !text[at + term.len()..]
                    .chars()
                    .next()
                    .is_some_and(word_char))
    })
}

/// Each line of the files under `dir` that names a game or uses a game's own term:
/// `file:line: names `term` (game): text`.
fn naming_lines(dir: &Path) -> Vec<String> {
    let games: Vec<(&str, Vec<(String, bool)>)> =
        registry().iter().map(|g| (g.id, terms(g))).collect();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut found = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        // A file's name counts too (a `thwart.js` would name a game).
        for (id, terms) in &games {
            if let Some((term, _)) = terms.iter().find(|(t, w)| holds(&rel, t, *w)) {
                found.push(format!("{rel}: its name names `{term}` ({id})"));
            }
        }
        let Ok(text) = std::fs::read_to_string(file) else {
            continue; // not text (an image)
        };
        for (i, line) in text.lines().enumerate() {
            for (id, terms) in &games {
                if let Some((term, _)) = terms.iter().find(|(t, w)| holds(line, t, *w)) {
                    let shown: String = line.trim().chars().take(120).collect();
                    found.push(format!("{rel}:{}: names `{term}` ({id}): {shown}", i + 1));
                }
            }
        }
    }
    found
}

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn the_servers_assets_name_no_game() {
    let dir = crates_dir().join("server").join("assets");
    let count = std::fs::read_dir(&dir).unwrap().count();
    assert!(count > 10, "the assets were found in {}", dir.display());
    let bad = naming_lines(&dir);
    assert!(
        bad.is_empty(),
        "a game's browser code belongs in its module in crates/games/assets (served at \
         /assets/games/ID.js and ID.css), not in the shared pages:\n{}",
        bad.join("\n")
    );
}

/// The check finds a game named in code or in a comment, a game's own export and its vocabulary,
/// and a file named after a game; it leaves shared words alone.
#[test]
fn the_check_sees_a_game_in_a_broken_copy_of_the_assets() {
    let dir = std::env::temp_dir().join(format!("colosseum-assets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = crates_dir().join("server").join("assets");
    for e in std::fs::read_dir(&src).unwrap() {
        let path = e.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    assert!(naming_lines(&dir).is_empty(), "the copy is clean");
    let table = dir.join("table.js");
    let text = std::fs::read_to_string(&table).unwrap();
    std::fs::write(
        &table,
        format!(
            "{text}\nif (m.game === 'thwart-omega') draw();\n// The Witch\u{2019}s Brew's board\n\
             const n = allInNumber(cards);\nconst c = v.cauldron_rounds;\nconst b = 'bridge';\n\
             const fine = 'a bridged gap, the frozen-yogurt stand, a square board';\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("galespiel.js"), "export {};\n").unwrap();
    let found = naming_lines(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let lines = text.lines().count();
    let want = [
        "galespiel.js: its name names `Galespiel` (galespiel)".to_string(),
        format!(
            "table.js:{}: names `thwart-omega` (thwart-omega)",
            lines + 2
        ),
        format!("table.js:{}: names `Witch’s Brew` (witchs-brew)", lines + 3),
        format!(
            "table.js:{}: names `allInNumber` (all-in-goofspiel)",
            lines + 4
        ),
        format!(
            "table.js:{}: names `cauldron_rounds` (witchs-brew)",
            lines + 5
        ),
        format!("table.js:{}: names `bridge` (galespiel)", lines + 6),
    ];
    // Each finding up to its game, without the line's text.
    let got: Vec<&str> = found
        .iter()
        .map(|f| f.find("): ").map_or(f.as_str(), |i| &f[..=i]))
        .collect();
    assert_eq!(got, want, "{found:#?}");
}

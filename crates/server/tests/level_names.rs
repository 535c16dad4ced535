//! A bot level is named in the same words wherever people read it: the lobby and the table
//! (`crates/server/assets/present.js`, `botLabel`) and what the server writes itself (webhook
//! posts and board pictures, [`colosseum_ai::registry::level_name`]).

use colosseum_ai::registry::level_name;

#[test]
fn the_servers_bot_names_are_the_pages_words() {
    let present = include_str!("../assets/present.js");
    let start = present
        .find("export function botLabel")
        .expect("present.js has botLabel");
    let body = &present[start..start + present[start..].find("\n}\n").unwrap()];
    for level in [
        "mcts:easy",
        "mcts:medium",
        "mcts:hard",
        "heuristic",
        "random",
    ] {
        let name = level_name(level);
        assert!(
            name.starts_with("Computer: ")
                && !name.contains("mcts:")
                && !name.contains("heuristic"),
            "{level} is named by its spec: {name}"
        );
        let line = body
            .lines()
            .find(|l| {
                l.trim_start().starts_with(&format!("'{level}':"))
                    || l.trim_start().starts_with(&format!("{level}:"))
            })
            .unwrap_or_else(|| panic!("botLabel does not name {level}: {body}"));
        // The page's label may add a parenthesis ("(quick, predictable)"); the name is the same.
        assert!(
            line.contains(&format!("'{name}'")) || line.contains(&format!("'{name} (")),
            "{level}: the server says {name:?}, the page {line:?}"
        );
    }
}

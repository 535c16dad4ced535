//! Each game's view in words for a chat message ([`crate::GameEntry::describe`]) and its pending
//! decision as a prompt line ([`crate::GameEntry::prompt`]): what `/colosseum hand` answers on
//! Discord and what a private prompt says. Built from a view's JSON only (a seat's or the
//! spectator's), never from the state, so the words cannot tell what the view hides. Discord
//! Markdown: a code block for a grid, names escaped elsewhere, at most [`MAX_CHARS`] characters.
//! One file per game, worded as its browser module (`crates/games/assets/ID.js`) words it.

pub mod all_in_goofspiel;
pub mod galespiel;
pub mod goofspiel;
pub mod square_goofspiel;
pub mod thwart_omega;
pub mod witchs_brew;

use colosseum_engine::Seat;
use serde_json::Value;

use crate::svg::{shown, Names};
use crate::text::plural;

/// The most characters [`crate::GameEntry::describe`] returns (a Discord message holds 2,000;
/// the rest is left for the web table's link).
pub const MAX_CHARS: usize = 1500;

/// The names with Discord Markdown's special characters escaped, for text outside code blocks.
#[must_use]
pub fn escaped(names: &Names) -> Names {
    let esc = |name: &str| {
        let mut out = String::with_capacity(name.len());
        for c in name.chars() {
            if matches!(
                c,
                '*' | '_' | '~' | '`' | '|' | '>' | '#' | '[' | ']' | '\\'
            ) {
                out.push('\\');
            }
            out.push(c);
        }
        out
    };
    Names::new(&esc(names.of(Seat::P1)), &esc(names.of(Seat::P2)))
}

/// The seat whose view this is; `None` for the spectator's.
#[must_use]
pub fn viewer(view: &Value) -> Option<Seat> {
    seat(&view["viewer"]["seat"])
}

/// A view's seat field (`"p1"`, `"p2"`) as a seat.
#[must_use]
pub fn seat(v: &Value) -> Option<Seat> {
    match v.as_str() {
        Some("p1") => Some(Seat::P1),
        Some("p2") => Some(Seat::P2),
        _ => None,
    }
}

/// Whether `seat` is to act in the view (`pending` is `both`, or `{"one": seat}`).
#[must_use]
pub fn acts(view: &Value, seat: Seat) -> bool {
    let pending = &view["pending"];
    pending == "both" || pending["one"] == seat.as_str()
}

/// Whether the view's seat is to act now.
#[must_use]
pub fn viewer_acts(view: &Value) -> Option<Seat> {
    viewer(view).filter(|&s| acts(view, s))
}

/// A list of numbers or words, spaced (`1 2 5`), or `none`.
#[must_use]
pub fn spaced(v: &Value) -> String {
    let items: Vec<String> = v.as_array().into_iter().flatten().map(shown).collect();
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(" ")
    }
}

/// How many items a list holds.
#[must_use]
pub fn len(v: &Value) -> usize {
    v.as_array().map_or(0, Vec::len)
}

/// Both seats, the viewer's first.
#[must_use]
pub fn viewer_first(view: &Value) -> [Seat; 2] {
    match viewer(view) {
        Some(Seat::P2) => [Seat::P2, Seat::P1],
        _ => [Seat::P1, Seat::P2],
    }
}

/// "Your hand" for the viewer's seat, "Ann's hand" for another: `what` is the thing owned.
#[must_use]
pub fn whose(view: &Value, names: &Names, seat: Seat, what: &str) -> String {
    if viewer(view) == Some(seat) {
        format!("Your {what}")
    } else {
        format!("{}'s {what}", names.of(seat))
    }
}

/// A seat's name, or "you" for the viewer's.
#[must_use]
pub fn name_or_you(view: &Value, names: &Names, seat: Seat) -> String {
    if viewer(view) == Some(seat) {
        "you".to_string()
    } else {
        names.of(seat).to_string()
    }
}

/// `Ann 3 points · Bea 5 points`: each name and its score in words.
#[must_use]
pub fn scores(names: &Names, of: impl Fn(Seat) -> String) -> String {
    format!(
        "{} {} · {} {}",
        names.of(Seat::P1),
        of(Seat::P1),
        names.of(Seat::P2),
        of(Seat::P2)
    )
}

/// The line on who is deciding now, for a view whose seat does not act or whose game has no
/// prompt: the game's end with its reason when the view holds an outcome, who the game waits for
/// otherwise.
#[must_use]
pub fn status(view: &Value, names: &Names) -> String {
    if view["pending"] == "over" {
        let reason = view["outcome"]["reason"]
            .as_str()
            .map(|r| format!(": {}", names.sentence(r)))
            .unwrap_or_default();
        return if reason.is_empty() {
            "**The game is over.**".to_string()
        } else {
            format!("**The game is over**{reason}.")
        };
    }
    if view["pending"] == "chance" {
        return "Waiting for the next draw.".to_string();
    }
    let who: Vec<String> = Seat::BOTH
        .into_iter()
        .filter(|&s| acts(view, s))
        .map(|s| name_or_you(view, names, s))
        .collect();
    match who.as_slice() {
        [a, b] => format!("Now: {a} and {b} decide."),
        [a] if a == "you" => "Now: your move.".to_string(),
        [a] => format!("Now: waiting for {a}."),
        _ => String::new(),
    }
}

/// The last line of a description: the prompt when the view's seat is to act, else [`status`].
#[must_use]
pub fn now_line(view: &Value, names: &Names, prompt: Option<String>) -> String {
    match prompt {
        Some(p) => format!("**Your move:** {p}"),
        None => status(view, names),
    }
}

/// A grid in a code block: a header of column letters, then each row's number and its cells,
/// `cell(row, column)` giving each cell's text (all of one width).
#[must_use]
pub fn grid_block(
    rows: usize,
    cols: usize,
    width: usize,
    cell: impl Fn(usize, usize) -> String,
) -> String {
    let label = rows.to_string().len();
    let mut out = String::from("```\n");
    out.push_str(&" ".repeat(label + 1));
    for c in 0..cols {
        let letter = char::from(b'a' + c as u8).to_string();
        out.push_str(&format!("{letter:^width$}"));
    }
    let header = out.trim_end().len();
    out.truncate(header);
    out.push('\n');
    for r in 0..rows {
        out.push_str(&format!("{:>label$} ", r + 1));
        let line: String = (0..cols).map(|c| cell(r, c)).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("```");
    out
}

/// The lines joined, empty ones left out, within [`MAX_CHARS`]: the last line (what is being
/// decided now) is always kept; a line that does not fit before it is left out whole (a code
/// block is one line here, never cut) and `…` says so.
#[must_use]
pub fn finish(lines: Vec<String>) -> String {
    let mut lines: Vec<String> = lines.into_iter().filter(|l| !l.is_empty()).collect();
    let last = lines.pop().unwrap_or_default();
    let size = |l: &str| l.chars().count() + 1;
    let mut room = MAX_CHARS.saturating_sub(size(&last) + 2);
    let mut out = Vec::new();
    let mut cut = false;
    for line in lines {
        if size(&line) <= room {
            room -= size(&line);
            out.push(line);
        } else if !cut {
            cut = true;
            out.push("…".to_string());
        }
    }
    out.push(last);
    let text = out.join("\n");
    if text.chars().count() > MAX_CHARS {
        return text.chars().take(MAX_CHARS - 1).chain(['…']).collect();
    }
    text
}

/// The items with runs of equal ones as one (`2 Lock ×2`), joined by `, `; `none` for none.
#[must_use]
pub fn grouped(items: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let n = items[i..].iter().take_while(|x| **x == items[i]).count();
        out.push(if n > 1 {
            format!("{} ×{n}", items[i])
        } else {
            items[i].clone()
        });
        i += n;
    }
    if out.is_empty() {
        "none".to_string()
    } else {
        out.join(", ")
    }
}

/// A hand's line: "Your hand (3 cards): 1 4 7", "Bea's hand: no cards left".
#[must_use]
pub fn hand_line(view: &Value, names: &Names, seat: Seat, extra: &str, cards: &Value) -> String {
    let n = len(cards);
    if n == 0 {
        return format!("{}: no cards left", whose(view, names, seat, "hand"));
    }
    format!(
        "{} ({}{extra}): {}",
        whose(view, names, seat, "hand"),
        count(n, "card"),
        spaced(cards)
    )
}

/// `n` and `word` with its plural ([`plural`]).
#[must_use]
pub fn count(n: impl std::fmt::Display, word: &str) -> String {
    plural(n, word)
}

/// The default [`crate::GameEntry::describe`] for a game without words of its own: the names,
/// then the view's top-level numbers and words, one a line.
#[must_use]
pub fn plain(view: &Value, names: &Names) -> String {
    let names = escaped(names);
    let mut lines = vec![format!("{} v {}", names.of(Seat::P1), names.of(Seat::P2))];
    for (k, v) in view.as_object().into_iter().flatten() {
        if (v.is_number() || v.is_string()) && k != "pending" {
            lines.push(format!("{k}: {}", names.sentence(&shown(v))));
        }
    }
    lines.push(status(view, &names));
    finish(lines)
}

/// The default [`crate::GameEntry::prompt`]: none.
#[must_use]
pub fn no_prompt(_view: &Value, _names: &Names) -> Option<String> {
    None
}

//! The Witch's Brew's view in words (`WitchsBrewView`): the victory points, the stage, the grid,
//! both players' cards, items and victory conditions (public in this game; the rounds they are
//! assigned to only once revealed), the prize pair on offer and the last round.

use colosseum_engine::Seat;
use serde_json::Value;

use super::{
    count, escaped, finish, grid_block, now_line, scores, viewer, viewer_acts, viewer_first, whose,
};
use crate::svg::{num, shown, Names};

/// Each card's name (docs/rules/witchs-brew.md).
const CARDS: [&str; 8] = [
    "Snipe", "Lock", "Guess", "Copy", "Leap", "Freeze", "Shift", "Diminish",
];

/// A card as "2 Lock".
fn card(v: &Value) -> String {
    let n = num(v);
    match usize::try_from(n)
        .ok()
        .and_then(|i| CARDS.get(i.wrapping_sub(1)))
    {
        Some(name) => format!("{n} {name}"),
        None => shown(v),
    }
}

/// A prize of the Cauldron: a card ("2 Lock") or a victory condition ("1A").
fn prize(v: &Value) -> String {
    if v.is_number() || v.as_str().is_some_and(|s| s.len() == 1) {
        let n: i64 = v.as_i64().or_else(|| v.as_str()?.parse().ok()).unwrap_or(0);
        card(&Value::from(n))
    } else {
        shown(v)
    }
}

/// A Cauldron round's code in words: "MM1" is "Main Match 1".
fn cauldron_round(code: &str) -> String {
    let (kind, n) = code.split_at(
        code.find(|c: char| c.is_ascii_digit())
            .unwrap_or(code.len()),
    );
    match kind {
        "MM" => format!("Main Match {n}"),
        "DM" => format!("Death Match {n}"),
        "FM" => format!("Final Match {n}"),
        _ => code.to_string(),
    }
}

/// Why a Placement round went to its winner, in words (the view's `reason`).
fn reason(why: &str) -> String {
    match why {
        "snipe" => "a Snipe that hit".to_string(),
        "guess" => "a right Guess".to_string(),
        "higher_value" => "the higher value".to_string(),
        "tie_lost_previous" => "a tie: it goes to the loser of the previous round".to_string(),
        "tie_advantage" => "a tie in round 1: it goes to the advantage holder".to_string(),
        other => other.replace('_', " "),
    }
}

/// A card played, in words: `dup 4` is "4 Copy with the Duplicard", `3 2` "3 Guess 2".
fn play_words(play: &str) -> String {
    let (dup, rest) = match play.strip_prefix("dup ") {
        Some(rest) => (true, rest),
        None => (false, play),
    };
    let mut parts = rest.splitn(2, ' ');
    let first = parts.next().unwrap_or_default();
    let tail = parts.next().map(|t| format!(" {t}")).unwrap_or_default();
    let named = match first.parse::<i64>() {
        Ok(n) => card(&Value::from(n)),
        Err(_) => first.to_string(),
    };
    let with = if dup { " with the Duplicard" } else { "" };
    format!("{named}{tail}{with}")
}

/// The view's `waiting_for` (written for the terminal) in words: no notation examples or
/// backticks, names for seats.
fn waiting_words(view: &Value, names: &Names) -> String {
    let mut text = view["waiting_for"].as_str().unwrap_or_default().to_string();
    if let Some(at) = text.find(", such as `") {
        text.truncate(at);
    }
    while let (Some(a), Some(b)) = (text.find(" (`"), text.find("`)")) {
        if b < a {
            break;
        }
        text.replace_range(a..b + 2, "");
    }
    let text = match viewer(view) {
        Some(you) => text
            .replace(&format!("{}'s", you.as_str()), "your")
            .replace(you.as_str(), "you"),
        None => text,
    };
    names.sentence(&text)
}

/// The view in words ([`crate::GameEntry::describe`]).
#[must_use]
pub fn describe(view: &Value, names: &Names) -> String {
    let names = escaped(names);
    let players = &view["players"];
    let vp = |s: Seat| format!("{} VP", num(&players[s.as_str()]["points"]));
    let mut lines = vec![format!("Victory points: {}", scores(&names, vp))];
    let round = num(&view["placement_round"]);
    let stage = view["stage"]["stage"].as_str().unwrap_or_default();
    lines.push(if stage == "over" {
        "The game is over.".to_string()
    } else if let Some(c) = view["cauldron"].as_str() {
        let pair = view["prize_pair"]
            .as_array()
            .map(|p| {
                format!(
                    "; on offer: {}",
                    p.iter().map(prize).collect::<Vec<_>>().join(" or ")
                )
            })
            .unwrap_or_default();
        format!("The Cauldron, round {c} ({}){pair}.", cauldron_round(c))
    } else if round == 0 {
        "The Intermission: each player assigns their victory conditions to rounds 6, 9 and 12."
            .to_string()
    } else {
        format!("Placement round {round} of 12.")
    });
    let grid: Vec<&Vec<Value>> = view["grid"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_array)
        .collect();
    if !grid.is_empty() {
        let cols = grid[0].len();
        lines.push(grid_block(grid.len(), cols, 3, |r, c| {
            let cell = &grid[r][c];
            let mark = match cell["stone"].as_str() {
                Some("p1") => 'X',
                Some("p2") => 'O',
                Some(_) => '+',
                None => '.',
            };
            if cell["frozen"] == true {
                format!("[{mark}]")
            } else {
                format!(" {mark} ")
            }
        }));
        let lock = view["lock_column"]
            .as_str()
            .map(|c| format!(" This stone must go in column {c} (a Lock)."))
            .unwrap_or_default();
        lines.push(format!(
            "X: {}, O: {}, +: neutral, [ ]: frozen.{lock}",
            names.of(Seat::P1),
            names.of(Seat::P2)
        ));
    }
    for seat in viewer_first(view) {
        let p = &players[seat.as_str()];
        let hand: Vec<String> = p["hand"]
            .as_array()
            .into_iter()
            .flatten()
            .map(card)
            .collect();
        let n = hand.len();
        let hand = super::grouped(&hand);
        let mut items = Vec::new();
        if p["duplicard"] == true {
            items.push("the Duplicard");
        }
        if p["discard"] == true {
            items.push("a Discard");
        }
        if p["tiebreaker"] == true {
            items.push("the Tiebreaker");
        }
        let penalty = num(&p["diminish_penalty"]);
        lines.push(format!(
            "{} ({n}): {hand}{}{}",
            whose(view, &names, seat, "cards"),
            if items.is_empty() {
                String::new()
            } else {
                format!("; items: {}", items.join(", "))
            },
            if penalty > 0 {
                format!("; the next card is {penalty} lower (Diminish)")
            } else {
                String::new()
            }
        ));
        let mine = viewer(view) == Some(seat);
        let conditions: Vec<String> = p["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                let at = match c["round"].as_u64() {
                    Some(r) if c["checked"] == true => format!(
                        ", round {r}: {}",
                        if c["scored"] == true { "met" } else { "missed" }
                    ),
                    Some(r) => format!(", round {r}"),
                    None => String::new(),
                };
                let what = if mine && c["checked"] != true {
                    format!(" ({})", shown(&c["text"]))
                } else {
                    String::new()
                };
                format!("{}{at}{what}", shown(&c["condition"]))
            })
            .collect();
        if !conditions.is_empty() {
            lines.push(format!(
                "{}: {}",
                whose(view, &names, seat, "victory conditions"),
                conditions.join("; ")
            ));
        }
    }
    if let Some(r) = view["rounds"].as_array().and_then(|r| r.last()) {
        let play = |i: usize| {
            let p = &r["plays"][i];
            let value = r["values"][i]
                .as_i64()
                .map(|v| format!(" (value {v})"))
                .unwrap_or_default();
            format!(
                "{}{value}",
                if p.is_null() {
                    "?".to_string()
                } else {
                    play_words(&shown(p))
                }
            )
        };
        let won = match super::seat(&r["winner"]) {
            Some(w) => format!(
                "{} wins the round{}",
                names.of(w),
                r["reason"]
                    .as_str()
                    .map(|why| format!(" ({})", reason(why)))
                    .unwrap_or_default()
            ),
            None => "nobody wins the round".to_string(),
        };
        lines.push(format!(
            "Last placement round, {}: {} played {}, {} played {}; {won}.",
            shown(&r["round"]),
            names.of(Seat::P1),
            play(0),
            names.of(Seat::P2),
            play(1),
        ));
    } else if let Some(c) = view["cauldron_rounds"].as_array().and_then(|r| r.last()) {
        let got = match super::seat(&c["winner"]) {
            Some(w) => format!(
                "{} won the race for {}{}",
                names.of(w),
                c["pair"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(prize)
                    .collect::<Vec<_>>()
                    .join(" or "),
                if c["discarded"] == true {
                    " (discarded)"
                } else {
                    ""
                }
            ),
            None => "nobody won the race".to_string(),
        };
        lines.push(format!(
            "Last Cauldron round, {}: {got}.",
            shown(&c["round"])
        ));
    }
    if stage == "over" {
        lines.push(super::status(view, &names));
    } else {
        let now = now_line(view, &names, prompt(view, &names));
        let waiting = waiting_words(view, &names);
        lines.push(if now.starts_with("**Your move") || waiting.is_empty() {
            now
        } else {
            format!("Now: waiting for {waiting}.")
        });
    }
    finish(lines)
}

/// The pending decision in words for the view's seat ([`crate::GameEntry::prompt`]): the pick,
/// the Discard, the assignment, the card to play, the stone to place, the Leap or Shift.
#[must_use]
pub fn prompt(view: &Value, names: &Names) -> Option<String> {
    let you = viewer_acts(view)?;
    let me = &view["players"][you.as_str()];
    let round = num(&view["placement_round"]).max(1);
    let said = waiting_words(view, names);
    Some(match view["stage"]["stage"].as_str().unwrap_or_default() {
        "pick" => {
            let c = view["cauldron"].as_str().unwrap_or_default();
            let pair: Vec<String> = view["prize_pair"]
                .as_array()
                .into_iter()
                .flatten()
                .map(prize)
                .collect();
            format!(
                "You won the Cauldron race of {c} ({}): pick {}; {} gets the other.",
                cauldron_round(c),
                pair.join(" or "),
                names.of(you.other())
            )
        }
        "discard" => {
            "Your Discard: throw away both conditions just handed out, or keep them.".to_string()
        }
        "assign" => format!(
            "The Intermission: assign each of your {} to round 6, 9 or 12 (at most three a \
             round).",
            count(
                me["conditions"].as_array().map_or(0, Vec::len),
                "victory condition"
            )
        ),
        "play_cards" => {
            let hand = me["hand"].as_array().cloned().unwrap_or_default();
            let what = match hand.as_slice() {
                [last] => format!("your last card, {}", card(last)),
                all => format!("one of your {}", count(all.len(), "card")),
            };
            format!(
                "Placement round {round} of 12: play {what} (the higher value wins the round; \
                 every card's effect happens either way)."
            )
        }
        "winner_stone" => format!("You won placement round {round}: place {said}."),
        "loser_stone" => format!("You lost placement round {round}: place {said}."),
        "gray_stone" => "Place the gray (neutral) stone on an empty cell.".to_string(),
        "winner_move" | "loser_move" if said.contains("Leap") => {
            "Your Leap: choose one of your stones and a direction (it jumps to the nearest empty \
             cell that way), or pass."
                .to_string()
        }
        "winner_move" | "loser_move" => "Your Shift: move one of your stones or a gray one to an \
                                         empty neighbouring cell, or pass."
            .to_string(),
        _ if said.is_empty() => return None,
        _ => format!("Your move: {said}."),
    })
}

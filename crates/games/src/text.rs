//! Small text helpers shared by the games' notation and renderings, and by what the server
//! writes for people to read: [`plural`] (`1 point`, `2 points`), [`with_names`] (an
//! engine's sentence with the seats' names for `p1` and `p2`) and [`is_pass`] (the one pass
//! vocabulary of every game).

use std::fmt;

/// `n` and `word`, the word in the plural unless `n` reads as one: `plural(1, "point")` is
/// `1 point`, `plural(0, "point")` and `plural(2.5, "point")` are `0 points` and `2.5 points`.
/// The plural adds `s` (`es` after `s`, `x`, `ch`, `sh`; `ies` for a consonant and `y`).
#[must_use]
pub fn plural(n: impl fmt::Display, word: &str) -> String {
    let n = n.to_string();
    if matches!(n.as_str(), "1" | "-1") {
        return format!("{n} {word}");
    }
    let many = if word.ends_with(['s', 'x']) || word.ends_with("ch") || word.ends_with("sh") {
        format!("{word}es")
    } else if let Some(stem) = word.strip_suffix('y').filter(|stem| {
        stem.chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphabetic() && !"aeiou".contains(c))
    }) {
        format!("{stem}ies")
    } else {
        format!("{word}s")
    };
    format!("{n} {many}")
}

/// `text` (an engine's or host's sentence, such as a result's reason) with each whole-word
/// `p1` and `p2` replaced by `names[0]` and `names[1]`: "p2 took more points, 7 to 3" with
/// `["Ann", "Bea"]` is "Bea took more points, 7 to 3". A seat id inside a longer word or number
/// (`p10`, `xp1`, `p1x`, `p1_a`) is left alone; punctuation around it (`(p1)`, `p1's`) is kept.
#[must_use]
pub fn with_names(text: &str, names: [&str; 2]) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut before: Option<char> = None;
    while let Some(at) = rest.find('p') {
        let (head, tail) = rest.split_at(at);
        out.push_str(head);
        if let Some(c) = head.chars().last() {
            before = Some(c);
        }
        let seat = match tail.as_bytes().get(1) {
            Some(b'1') => Some(0),
            Some(b'2') => Some(1),
            _ => None,
        };
        let after = tail.get(2..).and_then(|t| t.chars().next());
        match seat {
            Some(i) if !before.is_some_and(word) && !after.is_some_and(word) => {
                out.push_str(names[i]);
                before = Some('1');
                rest = &tail[2..];
            }
            _ => {
                out.push('p');
                before = Some('p');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The words that pass wherever a decision can be passed, in every game (RULINGS.md, "One pass
/// vocabulary"): a Square Goofspiel auction, an All-In turn, a Galespiel build or item window, a
/// Witch's Brew Leap or Shift (and its Discard, whose pass is `keep`). Any case, any spacing.
/// A game may accept its own words besides (Square Goofspiel's `0`, Galespiel's `done`); an
/// empty submission passes nowhere: it is "not a move".
pub const PASS_WORDS: [&str; 3] = ["pass", "none", "no submission"];

/// Whether `text` is one of the [`PASS_WORDS`]: `pass`, `none` or `no submission`, in any case,
/// with any spaces around and between the words (`  No   Submission `, `nosubmission`).
#[must_use]
pub fn is_pass(text: &str) -> bool {
    let mut words = text.split_whitespace();
    let (Some(first), second, None) = (words.next(), words.next(), words.next()) else {
        return false;
    };
    match second {
        None => ["pass", "none", "nosubmission"]
            .iter()
            .any(|w| first.eq_ignore_ascii_case(w)),
        Some(second) => {
            first.eq_ignore_ascii_case("no") && second.eq_ignore_ascii_case("submission")
        }
    }
}

/// The refusal of a pass word at a decision that cannot be passed: `what` (`a bid`) cannot be
/// passed, and what to write instead (`shape`).
pub(crate) fn not_passable(what: &str, shape: &str) -> String {
    format!("{what} cannot be passed (`pass`, `none` and `no submission` pass only where a decision can be passed); {shape}")
}

/// The refusal of an empty submission: a pass must be said on purpose. `shape` says what to
/// write (and whether `pass` is allowed there).
pub(crate) fn empty_submission(shape: &str) -> String {
    format!("an empty submission is not a move; {shape}")
}

/// Writes `items` separated by single spaces, or `empty` when there are none (`1 1 2 5`,
/// `pass`, `-`). Every list-like notation of the games is written this way.
pub(crate) fn write_spaced<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: impl IntoIterator<Item = T>,
    empty: &str,
) -> fmt::Result {
    let mut items = items.into_iter();
    let Some(first) = items.next() else {
        return f.write_str(empty);
    };
    write!(f, "{first}")?;
    for item in items {
        write!(f, " {item}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct List(Vec<i8>, &'static str);

    impl fmt::Display for List {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_spaced(f, &self.0, self.1)
        }
    }

    #[test]
    fn a_count_of_one_is_singular_and_every_other_plural() {
        assert_eq!(plural(1, "point"), "1 point");
        assert_eq!(plural(-1, "point"), "-1 point");
        assert_eq!(plural(0, "point"), "0 points");
        assert_eq!(plural(2, "point"), "2 points");
        assert_eq!(plural(1.5, "point"), "1.5 points");
        assert_eq!(plural(11, "card"), "11 cards");
        assert_eq!(plural(3, "match"), "3 matches");
        assert_eq!(plural(1, "match"), "1 match");
        assert_eq!(plural(2, "bye"), "2 byes");
        assert_eq!(plural(2, "day"), "2 days");
        assert_eq!(plural(2, "victory"), "2 victories");
        assert_eq!(plural("1", "step"), "1 step");
    }

    #[test]
    fn seat_ids_become_names_as_whole_words_only() {
        let names = ["Ann", "Bea"];
        assert_eq!(
            with_names("p2 took more points, 7 to 3", names),
            "Bea took more points, 7 to 3"
        );
        assert_eq!(
            with_names("p1 reached 21 points with 2 cards left, so p2 wins", names),
            "Ann reached 21 points with 2 cards left, so Bea wins"
        );
        assert_eq!(
            with_names("complete tie; Black (p1) holds the advantage", names),
            "complete tie; Black (Ann) holds the advantage"
        );
        assert_eq!(with_names("p1's time ran out", names), "Ann's time ran out");
        assert_eq!(with_names("p1:p2", names), "Ann:Bea");
        // Not a seat: inside a longer word or number.
        for same in [
            "p10 and p21",
            "xp1 p1x p1_a ap2",
            "pp1",
            "help p",
            "p",
            "",
            "p3 q1",
        ] {
            assert_eq!(with_names(same, names), same);
        }
        // A name that itself holds a seat id is not replaced again.
        assert_eq!(with_names("p1 v p2", ["p2", "p1"]), "p2 v p1");
        assert_eq!(with_names("é p1 ü", names), "é Ann ü");
    }

    #[test]
    fn the_pass_words_in_any_case_and_spacing_and_nothing_else() {
        for yes in [
            "pass",
            "PASS",
            " Pass ",
            "none",
            "NONE",
            "no submission",
            "No   Submission",
            "\tno\nsubmission ",
            "nosubmission",
            "NoSubmission",
        ] {
            assert!(is_pass(yes), "{yes:?}");
        }
        for no in [
            "",
            "   ",
            "passs",
            "pass pass",
            "no",
            "submission",
            "no submission please",
            "no, submission",
            "pas s",
            "0",
            "skip",
            "done",
            "keep",
            "none!",
        ] {
            assert!(!is_pass(no), "{no:?}");
        }
        assert!(PASS_WORDS.iter().all(|w| is_pass(w)));
    }

    #[test]
    fn items_are_spaced_and_an_empty_list_has_its_placeholder() {
        assert_eq!(List(vec![10, -1, 9], "pass").to_string(), "10 -1 9");
        assert_eq!(List(vec![7], "pass").to_string(), "7");
        assert_eq!(List(vec![], "pass").to_string(), "pass");
        assert_eq!(List(vec![], "").to_string(), "");
    }
}

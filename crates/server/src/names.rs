//! Display names as people read them (issue 36, hole 10).
//!
//! A name is what a reader sees beside a board, so two checks look at it as a reader would:
//!
//! - [`refused_char`]: characters that show nothing, or change how the rest is shown, are
//!   refused: controls, format characters (Unicode general category `Cf`: zero-width space,
//!   joiners, word joiner, BOM, soft hyphen, every bidirectional control), the other
//!   default-ignorable code points (Hangul fillers, variation selectors, the Mongolian free
//!   variation selectors, tags), the Braille blank, line and paragraph separators, private-use
//!   and unassigned code points; and a name may not start with a combining mark (which would
//!   sit on whatever is shown before it; a name of marks only is refused so too).
//! - [`reading`]: the name's confusable skeleton (Unicode UTS #39, through the
//!   `unicode-security` crate, the tables rustc's confusable lints use), taken after NFKC and
//!   lower case and lowered again, with white space runs as one space: `Ann`, `ANN`, `Аnn`
//!   (Cyrillic А), `Ａnn` read alike. [`same_name`] compares two names by it (and by the
//!   case-sensitive skeleton, so `Ian` and `lan` are one name too), and [`looks_like_bot`]
//!   compares a name's reading with the bots' names (`rаndom` with a Cyrillic а, `ℬot
//!   mcts:hard`, `b0t` are bots' names).

use colosseum_ai::registry::BotSpec;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// Unicode's default-ignorable code points (DerivedCoreProperties.txt,
/// `Default_Ignorable_Code_Point`, Unicode 16-18): shown as nothing by a renderer that does not
/// support them. Most are `Cf` too; the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the
/// combining grapheme joiner, the Khmer inherent vowels and the variation selectors are not.
const DEFAULT_IGNORABLE: &[(char, char)] = &[
    ('\u{ad}', '\u{ad}'),
    ('\u{34f}', '\u{34f}'),
    ('\u{61c}', '\u{61c}'),
    ('\u{115f}', '\u{1160}'),
    ('\u{17b4}', '\u{17b5}'),
    ('\u{180b}', '\u{180f}'),
    ('\u{200b}', '\u{200f}'),
    ('\u{202a}', '\u{202e}'),
    ('\u{2060}', '\u{206f}'),
    ('\u{3164}', '\u{3164}'),
    ('\u{fe00}', '\u{fe0f}'),
    ('\u{feff}', '\u{feff}'),
    ('\u{ffa0}', '\u{ffa0}'),
    ('\u{fff0}', '\u{fff8}'),
    ('\u{1bca0}', '\u{1bca3}'),
    ('\u{1d173}', '\u{1d17a}'),
    ('\u{e0000}', '\u{e0fff}'),
];

/// Blank characters that are neither white space nor ignorable: the Braille pattern blank.
const BLANK: &[char] = &['\u{2800}'];

/// What a name may hold, for every refusal.
pub const ALLOWED: &str = "a name is 1 to 40 characters: letters, marks, numbers, punctuation, \
     symbols and spaces, not starting with a combining mark, without control, invisible or \
     format characters (zero-width spaces and joiners, bidirectional controls, fillers, \
     variation selectors, soft hyphens), and not a bot's name or one that looks like it (bot \
     ..., random, heuristic, mcts:..., cmd:..., exploiter:...)";

fn default_ignorable(c: char) -> bool {
    DEFAULT_IGNORABLE
        .iter()
        .any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// Why character `c` may not be in a name, or `None` if it may.
#[must_use]
pub fn refused_char(c: char) -> Option<&'static str> {
    if c.is_control() {
        return Some("a control character");
    }
    if default_ignorable(c) || BLANK.contains(&c) {
        return Some("an invisible character");
    }
    match c.general_category() {
        GeneralCategory::Format => Some("a format character"),
        GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => {
            Some("a line or paragraph separator")
        }
        GeneralCategory::PrivateUse => Some("a private-use character"),
        GeneralCategory::Unassigned | GeneralCategory::Surrogate => {
            Some("an unassigned code point")
        }
        _ => None,
    }
}

/// Why `name` (trimmed, not empty) may not be shown as a name, with the first offending
/// character's code point, or `None` if it may.
#[must_use]
pub fn refused(name: &str) -> Option<String> {
    for c in name.chars() {
        if let Some(why) = refused_char(c) {
            return Some(format!("the name has {why} (U+{:04X})", u32::from(c)));
        }
    }
    let first = name.chars().next()?;
    if first.general_category_group() == GeneralCategoryGroup::Mark {
        return Some(format!(
            "the name starts with a combining mark (U+{:04X})",
            u32::from(first)
        ));
    }
    None
}

/// White space runs as one ASCII space.
fn one_space(text: impl Iterator<Item = char>) -> String {
    let mut out = String::new();
    let mut space = false;
    for c in text {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    out
}

/// The UTS #39 skeleton of `name` after NFKC, white space runs as one space.
fn skeleton(name: &str) -> String {
    let compatible: String = name.nfkc().collect();
    one_space(unicode_security::skeleton(&compatible))
}

/// How `name` reads, case aside: two names with the same reading are one name to a reader.
#[must_use]
pub fn reading(name: &str) -> String {
    let compatible: String = name.nfkc().collect::<String>().to_lowercase();
    one_space(unicode_security::skeleton(&compatible)).to_lowercase()
}

/// Whether two display names are the same to a reader: the same [`reading`] (case, look-alike
/// letters of other scripts, compatibility forms and invisible characters aside), or the same
/// case-sensitive skeleton (`Ian` and `lan`).
#[must_use]
pub fn same_name(a: &str, b: &str) -> bool {
    reading(a) == reading(b) || skeleton(a) == skeleton(b)
}

/// Whether `name` is a bot's name or reads like one: `bot` alone or followed by a space,
/// `random`, `heuristic`, or starting with `mcts:`, `cmd:` or `exploiter:`, as written or
/// with look-alike characters (`rаndom` with a Cyrillic а, `ℬot mcts:hard`), or anything the
/// bot registry reads as a bot.
#[must_use]
pub fn looks_like_bot(name: &str) -> bool {
    let lower = name.trim().to_lowercase();
    if lower.parse::<BotSpec>().is_ok() {
        return true;
    }
    let read = reading(name);
    let bot = reading("bot");
    if read == bot || read.starts_with(&format!("{bot} ")) {
        return true;
    }
    ["random", "heuristic"].iter().any(|w| read == reading(w))
        || ["mcts:", "cmd:", "exploiter:"]
            .iter()
            .any(|p| read.starts_with(&reading(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_and_format_characters_are_refused() {
        for name in [
            "Ann\u{200b}x",
            "Ann\u{2060}x",
            "\u{202e}nnA",
            "A\u{feff}nn",
            "A\u{ad}nn",
            "A\u{200d}nn",
            "A\u{2066}nn",
            "\u{115f}Ann",
            "A\u{3164}nn",
            "A\u{ffa0}nn",
            "Ann\u{fe0f}x",
            "Ann\u{e0041}x",
            "A\u{2800}nn",
            "A\u{2028}nn",
            "A\u{e000}nn",
        ] {
            assert!(refused(name).is_some(), "{name:?} is refused");
        }
        assert!(refused("\u{301}\u{301}")
            .unwrap()
            .contains("combining mark"));
        for name in [
            "Ann",
            "Zoë",
            "李雷",
            "Ñandú",
            "José María",
            "Ōtani 大谷",
            "نور",
            "Ma\u{301}ria",
        ] {
            assert_eq!(refused(name), None, "{name:?} is a name");
        }
    }

    #[test]
    fn names_read_alike_through_their_skeleton() {
        assert!(same_name("Ann", "ann"));
        assert!(same_name("Ann", "\u{410}nn"), "Cyrillic A");
        assert!(same_name("Ann", "\u{ff21}nn"), "fullwidth A");
        assert!(same_name("Ian", "lan"));
        assert!(same_name("Ann Bo", "Ann\u{3000}Bo"));
        assert!(!same_name("Ann", "Anna"));
        assert!(!same_name("Zoë", "Zoe"), "a diacritic is read");
        assert!(!same_name("李雷", "李蕾"));
    }

    #[test]
    fn bot_look_alikes_are_bots_names() {
        for name in [
            "bot",
            "Bot mcts:hard",
            "\u{212c}ot mcts:hard",
            "r\u{430}ndom",
            "b0t",
            "HEURISTIC",
            "mcts:easy",
            "\u{ff4d}cts:hard",
            "cmd: ls",
            "exploiter:x",
        ] {
            assert!(looks_like_bot(name), "{name:?} reads like a bot");
        }
        for name in ["Botond", "Robot", "Randy", "Ann", "mcts fan"] {
            assert!(!looks_like_bot(name), "{name:?} is a person's name");
        }
    }
}

//! Forgiving answer matching.
//!
//! An answer is accepted when its *normal form* equals the normal form of one accepted answer.
//! The normal form ([`normalize`]):
//!
//! 1. lower case; accents and ligatures folded to plain letters (`é` → `e`, `ß` → `ss`,
//!    `æ` → `ae`) by a small table covering Latin-1 and Latin Extended-A;
//! 2. apostrophes removed (`witch's` = `witchs`); a comma between digits removed (`1,000` =
//!    `1000`) and a point between digits kept (`2.5`); every other character that is not a letter
//!    or a digit is a space;
//! 3. numbers written in words become digits: `twenty-one`, `twenty one` and `21` are the same,
//!    from `zero` to `nine hundred ninety-nine thousand nine hundred ninety-nine` (`and` is
//!    allowed after `hundred`: `one hundred and five`); leading zeros go (`007` = `7`);
//! 4. a leading `the`, `a` or `an` is dropped when something follows it;
//! 5. the words are joined without spaces, except that two numbers side by side keep one space
//!    between them (so `1 2` is not `12`).
//!
//! So `The  Witch’s Brew!`, `witchs brew` and `WITCHS-BREW` match, and `twenty-one` matches
//! `21`, but `22` does not match `21` and `p1` does not match `p2`. An answer whose normal form
//! is empty (only punctuation, or nothing) never matches.

/// Whether `given` matches `accepted` once both are normalized (and neither is empty).
#[must_use]
pub fn matches(given: &str, accepted: &str) -> bool {
    let g = normalize(given);
    !g.is_empty() && g == normalize(accepted)
}

/// The normal form of an answer (see the module docs).
#[must_use]
pub fn normalize(text: &str) -> String {
    let folded = fold(text);
    let chars: Vec<char> = folded.chars().collect();
    let mut cleaned = String::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        let between_digits = || {
            i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_some_and(char::is_ascii_digit)
        };
        match c {
            '\'' | '\u{2019}' | '\u{2018}' | '`' | '\u{b4}' => {}
            ',' if between_digits() => {}
            '.' if between_digits() => cleaned.push('.'),
            c if c.is_alphanumeric() => cleaned.push(c),
            _ => cleaned.push(' '),
        }
    }
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let mut tokens: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        if let Some((value, used)) = number_words(&words[i..]) {
            tokens.push(value.to_string());
            i += used;
            continue;
        }
        let w = words[i];
        if w.bytes().all(|b| b.is_ascii_digit()) {
            let trimmed = w.trim_start_matches('0');
            tokens.push(if trimmed.is_empty() { "0" } else { trimmed }.to_string());
        } else {
            tokens.push(w.to_string());
        }
        i += 1;
    }
    if tokens.len() > 1 && matches!(tokens[0].as_str(), "the" | "a" | "an") {
        tokens.remove(0);
    }
    let mut out = String::new();
    for t in &tokens {
        let digit_end = out.chars().last().is_some_and(|c| c.is_ascii_digit());
        let digit_start = t.chars().next().is_some_and(|c| c.is_ascii_digit());
        if digit_end && digit_start {
            out.push(' ');
        }
        out.push_str(t);
    }
    out
}

/// Lower case with accents and ligatures folded.
fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match fold_char(c) {
            Some(s) => out.push_str(s),
            None => out.push(c),
        }
    }
    out
}

fn fold_char(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'ĳ' => "ij",
        'ĵ' => "j",
        'ķ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        // Combining marks (text already decomposed) are dropped.
        '\u{300}'..='\u{36f}' => "",
        _ => return None,
    })
}

fn unit(word: &str) -> Option<u64> {
    Some(match word {
        "zero" => 0,
        "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        _ => return None,
    })
}

fn teen(word: &str) -> Option<u64> {
    Some(match word {
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        "thirteen" => 13,
        "fourteen" => 14,
        "fifteen" => 15,
        "sixteen" => 16,
        "seventeen" => 17,
        "eighteen" => 18,
        "nineteen" => 19,
        _ => return None,
    })
}

fn tens(word: &str) -> Option<u64> {
    Some(match word {
        "twenty" => 20,
        "thirty" => 30,
        "forty" => 40,
        "fifty" => 50,
        "sixty" => 60,
        "seventy" => 70,
        "eighty" => 80,
        "ninety" => 90,
        _ => return None,
    })
}

/// A number below 100 in words at the start of `w`: (value, words used). `zero` only alone.
fn below_hundred(w: &[&str]) -> Option<(u64, usize)> {
    let first = *w.first()?;
    if let Some(t) = tens(first) {
        if let Some(u) = w.get(1).and_then(|x| unit(x)).filter(|&u| u > 0) {
            return Some((t + u, 2));
        }
        return Some((t, 1));
    }
    teen(first).or_else(|| unit(first)).map(|v| (v, 1))
}

/// A number below 1000 in words: `[unit hundred [and]] [below_hundred]`.
fn below_thousand(w: &[&str]) -> Option<(u64, usize)> {
    if let Some(h) = w.first().and_then(|x| unit(x)).filter(|&h| h > 0) {
        if w.get(1) == Some(&"hundred") {
            let mut used = 2;
            let rest_at = if w.get(2) == Some(&"and") { 3 } else { 2 };
            if let Some((v, n)) = w.get(rest_at..).and_then(below_hundred).filter(|r| r.0 > 0) {
                used = rest_at + n;
                return Some((h * 100 + v, used));
            }
            return Some((h * 100, used));
        }
    }
    below_hundred(w)
}

/// A number in words at the start of `w` (0 to 999 999): (value, words used).
fn number_words(w: &[&str]) -> Option<(u64, usize)> {
    let (mut value, mut used) = below_thousand(w)?;
    if value > 0 && w.get(used) == Some(&"thousand") {
        value *= 1000;
        used += 1;
        let rest_at = if w.get(used) == Some(&"and") {
            used + 1
        } else {
            used
        };
        if let Some((v, n)) = w
            .get(rest_at..)
            .and_then(below_thousand)
            .filter(|r| r.0 > 0)
        {
            value += v;
            used = rest_at + n;
        }
    }
    Some((value, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_from_0_to_1000_in_words_matches_its_digits() {
        let units = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        ];
        let teens = [
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ];
        let tens = [
            "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
        ];
        let words = |n: usize| -> String {
            let small = |n: usize| -> String {
                match n {
                    0..=9 => units[n].to_string(),
                    10..=19 => teens[n - 10].to_string(),
                    _ if (n / 10) * 10 == n => tens[n / 10].to_string(),
                    _ => format!("{}-{}", tens[n / 10], units[n % 10]),
                }
            };
            match n {
                1000 => "one thousand".to_string(),
                0..=99 => small(n),
                _ if (n / 100) * 100 == n => format!("{} hundred", units[n / 100]),
                _ => format!("{} hundred and {}", units[n / 100], small(n % 100)),
            }
        };
        for n in 0..=1000 {
            let w = words(n);
            assert!(matches(&w, &n.to_string()), "{w} should match {n}");
            assert!(
                !matches(&w, &(n + 1).to_string()),
                "{w} should not match {}",
                n + 1
            );
        }
    }
}

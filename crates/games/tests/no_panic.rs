//! The fuzz targets' checks (`fuzz/src/lib.rs`), run by `cargo test` on the stable toolchain so
//! that CI covers them without cargo-fuzz:
//!
//! * every committed seed under `fuzz/seeds/` passes through its target;
//! * a few thousand generated texts, tried on every game of the registry as moves and chance
//!   outcomes, never panic, and an accepted text's canonical form is accepted as itself and
//!   means the same move; and as many near-valid texts, made of the games' notation tokens and
//!   by mutating the legal moves of the state at hand (a token replaced, dropped, repeated,
//!   swapped or added, the case mixed, a character inserted, the text cut, other separators);
//! * random mutations of valid match records, both of their JSON text and of their fields, never
//!   panic: a record that is wrong is an `Err`.
//!
//! A failing case here is a failing fuzz input: feed it to the fuzz target with
//! `cargo fuzz run <target> <file>` (see `fuzz/README.md`).

#[path = "../../../fuzz/src/lib.rs"]
mod harness;

use std::path::PathBuf;

use colosseum_engine::{seeded_rng, AnyGame, Pending, RawOptions, Record, Seat, TextStep};
use colosseum_games::{registry, replay_record};
use proptest::prelude::*;
use proptest::sample::Index;

/// The committed seeds of a fuzz target, by file name.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target);
    let mut seeds: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                data,
            )
        })
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    seeds
}

#[test]
fn record_seeds_pass_the_record_target() {
    let mut loaded = 0;
    for (name, data) in seeds("record") {
        eprintln!("seed record/{name}");
        harness::record(&data);
        let record = std::str::from_utf8(&data)
            .ok()
            .and_then(|text| Record::from_json(text).ok());
        if let Some(record) = record {
            if matches!(replay_record(&record), Ok(Ok(_))) {
                loaded += 1;
            }
        }
    }
    assert!(loaded >= 4, "only {loaded} record seeds replay to the end");
}

#[test]
fn notation_seeds_pass_the_notation_target() {
    for (name, data) in seeds("notation") {
        eprintln!("seed notation/{name}");
        assert!(
            data.len() >= harness::NOTATION_HEADER,
            "{name} is shorter than the selector"
        );
        harness::notation(&data);
        let header = &data[..harness::NOTATION_HEADER];
        let text = String::from_utf8_lossy(&data[harness::NOTATION_HEADER..]);
        let options_line = text.split_once('\n').map_or("", |(line, _)| line);
        for game in harness::notation_states(header, options_line) {
            harness::exercise(&*game);
        }
    }
}

/// Well-formed records of every game, made once: the seeds, and unfinished random games with
/// every chance step written out, and the same without their chance steps (whose chance the
/// replay then draws from the seed, so that a later move may no longer fit: a well-formed
/// record all the same, and one that replays to an error).
fn valid_records() -> &'static [Record] {
    static RECORDS: std::sync::OnceLock<Vec<Record>> = std::sync::OnceLock::new();
    RECORDS.get_or_init(make_valid_records)
}

fn make_valid_records() -> Vec<Record> {
    let mut records: Vec<Record> = seeds("record")
        .iter()
        .filter_map(|(_, data)| Record::from_json(std::str::from_utf8(data).ok()?).ok())
        .collect();
    for entry in registry() {
        for seed in 0..6u64 {
            let options = RawOptions::new();
            let mut game = (entry.create)(&options).expect("the default options are valid");
            let mut rng = seeded_rng(seed);
            let mut with_chance = Record::new(entry.id, options.clone(), seed);
            let mut without_chance = with_chance.clone();
            let stop = seed * 7 + 2;
            for _ in 0..stop {
                let step = match game.pending() {
                    Pending::Over => break,
                    Pending::Chance => {
                        let step = game.apply_random_chance(&mut rng).expect("chance draws");
                        with_chance.steps.push(step);
                        continue;
                    }
                    Pending::One(seat) => {
                        TextStep::one(seat, game.random_move(seat, &mut rng).expect("a move"))
                    }
                    Pending::Both => TextStep::both(
                        game.random_move(Seat::P1, &mut rng).expect("a move"),
                        game.random_move(Seat::P2, &mut rng).expect("a move"),
                    ),
                };
                game.apply(&step).expect("a random move is legal");
                with_chance.steps.push(step.clone());
                without_chance.steps.push(step);
            }
            harness::exercise(&*game);
            records.push(with_chance);
            records.push(without_chance);
        }
    }
    records
}

/// Pieces of JSON and of notation that mutations insert.
const TOKENS: &[&str] = &[
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    " ",
    "\\",
    "\\u0000",
    "null",
    "true",
    "-1",
    "0",
    "1",
    "1.5",
    "1e400",
    "-0",
    "18446744073709551616",
    "\"p1\"",
    "\"p2\"",
    "\"chance\"",
    "\"game\"",
    "\"options\"",
    "\"seed\"",
    "\"steps\"",
    "{}",
    "[]",
    "\"\"",
    "\"é\"",
    "\"cards\"",
    "64",
    "65",
    "\"13\"",
    "{\"p1\":\"1\",\"p2\":\"1\"}",
    "{\"chance\":\"1\"}",
    "\"goofspiel\"",
];

/// One edit of a record's JSON text.
#[derive(Debug, Clone)]
enum Edit {
    Delete(Index, u8),
    Insert(Index, Index),
    Duplicate(Index, u8),
    Truncate(Index),
    FlipBit(Index, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), 1u8..16).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<Index>(), any::<Index>()).prop_map(|(i, t)| Edit::Insert(i, t)),
        (any::<Index>(), 1u8..32).prop_map(|(i, n)| Edit::Duplicate(i, n)),
        any::<Index>().prop_map(Edit::Truncate),
        (any::<Index>(), 0u8..8).prop_map(|(i, b)| Edit::FlipBit(i, b)),
    ]
}

fn apply_edit(bytes: &mut Vec<u8>, edit: &Edit) {
    if bytes.is_empty() {
        bytes.extend_from_slice(b"{}");
    }
    let len = bytes.len();
    match edit {
        Edit::Delete(at, n) => {
            let start = at.index(len);
            let end = (start + usize::from(*n)).min(len);
            bytes.drain(start..end);
        }
        Edit::Insert(at, token) => {
            let at = at.index(len + 1);
            let token = TOKENS[token.index(TOKENS.len())].as_bytes();
            bytes.splice(at..at, token.iter().copied());
        }
        Edit::Duplicate(at, n) => {
            let start = at.index(len);
            let end = (start + usize::from(*n)).min(len);
            let copy = bytes[start..end].to_vec();
            bytes.splice(end..end, copy);
        }
        Edit::Truncate(at) => bytes.truncate(at.index(len + 1)),
        Edit::FlipBit(at, bit) => bytes[at.index(len)] ^= 1 << bit,
    }
}

/// One edit of a record's fields, keeping it valid JSON.
#[derive(Debug, Clone)]
enum FieldEdit {
    SetText(Index, u8, String),
    DropStep(Index),
    DuplicateStep(Index),
    SwapSteps(Index, Index),
    SetSeed(u64),
    SetOption(String, String),
    SetGame(String),
}

fn field_edit() -> impl Strategy<Value = FieldEdit> {
    prop_oneof![
        4 => (any::<Index>(), 0u8..3, move_text()).prop_map(|(i, s, t)| FieldEdit::SetText(i, s, t)),
        1 => any::<Index>().prop_map(FieldEdit::DropStep),
        1 => any::<Index>().prop_map(FieldEdit::DuplicateStep),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| FieldEdit::SwapSteps(a, b)),
        1 => any::<u64>().prop_map(FieldEdit::SetSeed),
        1 => (option_name(), option_value()).prop_map(|(n, v)| FieldEdit::SetOption(n, v)),
        1 => prop_oneof![
            proptest::sample::select(registry().iter().map(|g| g.id.to_string()).collect::<Vec<_>>()),
            "\\PC{0,10}",
        ]
        .prop_map(FieldEdit::SetGame),
    ]
}

fn apply_field_edit(record: &mut Record, edit: &FieldEdit) {
    let n = record.steps.len();
    match edit {
        FieldEdit::SetText(i, slot, text) if n > 0 => {
            let step = &mut record.steps[i.index(n)];
            let slot = match slot {
                0 => &mut step.p1,
                1 => &mut step.p2,
                _ => &mut step.chance,
            };
            *slot = Some(text.clone());
        }
        FieldEdit::DropStep(i) if n > 0 => {
            record.steps.remove(i.index(n));
        }
        FieldEdit::DuplicateStep(i) if n > 0 => {
            let step = record.steps[i.index(n)].clone();
            record.steps.insert(i.index(n), step);
        }
        FieldEdit::SwapSteps(a, b) if n > 0 => record.steps.swap(a.index(n), b.index(n)),
        FieldEdit::SetSeed(seed) => record.seed = *seed,
        FieldEdit::SetOption(name, value) => {
            let raw = colosseum_engine::parse_pairs([format!("{name}={value}").as_str()])
                .expect("name=value parses");
            record.options.extend(raw);
        }
        FieldEdit::SetGame(game) => record.game.clone_from(game),
        _ => {}
    }
}

/// Texts that look like moves or chance outcomes, and texts that do not.
fn move_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (0u32..80).prop_map(|n| n.to_string()),
        2 => "[ \t\n]{0,2}[+-]?0{0,3}[0-9]{1,3}[ \t\n]{0,2}",
        1 => "[0-9]{4,30}",
        1 => "[a-zA-Z0-9 ,;:/+._-]{0,12}",
        1 => "\\PC{0,10}",
        1 => any::<String>(),
        1 => Just(String::new()),
    ]
}

/// Option names of every game, and a few that no game has.
fn option_name() -> impl Strategy<Value = String> {
    let mut names: Vec<String> = registry()
        .iter()
        .flat_map(|g| g.options.iter().map(|d| d.name.to_string()))
        .collect();
    names.extend(["x".to_string(), "CARDS".to_string()]);
    proptest::sample::select(names)
}

/// Option values: numbers, the words of every game's allowed values, and noise.
fn option_value() -> impl Strategy<Value = String> {
    let mut words: Vec<String> = registry()
        .iter()
        .flat_map(|g| g.options.iter())
        .flat_map(|d| {
            d.allowed
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .chain([d.default.to_string()])
        })
        .collect();
    words.sort();
    words.dedup();
    prop_oneof![
        3 => proptest::sample::select(words),
        2 => (-2i64..100).prop_map(|n| n.to_string()),
        1 => "[a-z0-9_.]{0,8}",
        1 => "\\PC{0,6}",
    ]
}

/// An options line for the notation target: `name=value` pairs and bare values.
fn options_line() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        (option_name(), option_value()).prop_map(|(n, v)| format!("{n}={v}")),
        option_value(),
    ];
    proptest::collection::vec(token, 0..4).prop_map(|t| t.join(" "))
}

/// A selector for the notation target: flags (bit 0, an options line, is set by the caller),
/// decisions to advance, seed.
fn selector() -> impl Strategy<Value = [u8; harness::NOTATION_HEADER]> {
    (any::<u8>(), prop_oneof![0u8..32, any::<u8>()], any::<u64>()).prop_map(
        |(flags, decisions, seed)| {
            let mut header = [0u8; harness::NOTATION_HEADER];
            header[0] = flags;
            header[1] = decisions;
            header[2..].copy_from_slice(&seed.to_le_bytes());
            header
        },
    )
}

/// The notation target's whole input: a selector, an optional options line, a text.
fn notation_input() -> impl Strategy<Value = Vec<u8>> {
    (
        selector(),
        proptest::option::of(options_line()),
        move_text(),
    )
        .prop_map(|(mut header, options, text)| {
            header[0] = (header[0] & !1) | u8::from(options.is_some());
            let mut data = header.to_vec();
            if let Some(line) = options {
                data.extend_from_slice(line.replace('\n', " ").as_bytes());
                data.push(b'\n');
            }
            data.extend_from_slice(text.as_bytes());
            data
        })
}

proptest! {
    // 300 sets of states × 10 texts: 3,000 texts on every game, without paying for the states
    // 3,000 times (the harness compares whole views, slow in a debug build).
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn generated_texts_never_panic_and_canonical_texts_round_trip(
        mut header in selector(),
        options in proptest::option::of(options_line()),
        texts in proptest::collection::vec(move_text(), 10),
    ) {
        header[0] = (header[0] & !1) | u8::from(options.is_some());
        let states = harness::notation_states(&header, options.as_deref().unwrap_or(""));
        for text in &texts {
            for game in &states {
                harness::try_text(&**game, text);
            }
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn whole_notation_inputs_never_panic(data in notation_input()) {
        harness::notation(&data);
    }
}

/// The tokens of every game's notation (its rules page, *Notation*), and some at the edges of
/// what parsers read: cards and numbers around every range, cells of every board, victory
/// conditions, keywords in the case the pages write them, separators.
fn notation_tokens() -> Vec<String> {
    let mut tokens: Vec<String> = (-5..=20).map(|n: i32| n.to_string()).collect();
    tokens.extend(('a'..='m').flat_map(|c| [0, 1, 2, 6, 7, 11, 12, 13].map(|r| format!("{c}{r}"))));
    tokens.extend((1..=4).flat_map(|t| ('A'..='G').map(move |l| format!("{t}{l}"))));
    tokens.extend(
        [
            "pass",
            "none",
            "use",
            "yes",
            "no",
            "skip",
            "aid",
            "dup",
            "up",
            "down",
            "left",
            "right",
            "u",
            "d",
            "l",
            "r",
            "discard",
            "keep",
            "done",
            "build",
            "emergency",
            "upgrade",
            "p1",
            "p2",
            "-",
            "/",
            "+",
            "8+",
            "2+",
            "3+",
            "-0",
            "007",
            "+5",
            "64",
            "255",
            "256",
            "65536",
            "4294967296",
            "18446744073709551616",
            "1e3",
            "0x10",
            "½",
            "１",
            "é",
            "\u{0}",
            "\t",
        ]
        .map(String::from),
    );
    tokens
}

/// How a text is made from the notation's tokens or from a legal move of the state.
#[derive(Clone, Debug)]
enum Recipe {
    /// Tokens, each joined to the next by a separator.
    Tokens(Vec<(Index, Index)>),
    /// A legal move (or chance outcome) of the state, changed by `Mutation`.
    Mutate(Index, Mutation),
}

#[derive(Clone, Debug)]
enum Mutation {
    /// Unchanged, in a random mix of cases.
    Case(u64),
    /// One token replaced by a notation token.
    Replace(Index, Index),
    /// One token left out.
    Drop(Index),
    /// One token written twice.
    Repeat(Index),
    /// Two tokens swapped.
    Swap(Index, Index),
    /// A notation token added at a place.
    Insert(Index, Index),
    /// Cut at a byte (at a character boundary).
    Cut(Index),
    /// A character inserted at a byte.
    Char(Index, char),
    /// Tokens separated by another separator.
    Separator(Index),
    /// One token moved just past what is allowed, or further: its number (cards, rows) and its
    /// letters (columns) shifted by the amount (`d4` by 4 is `h8`, `2` by -3 is `-1`).
    Nudge(Index, i64),
}

/// `token` with its number part and its letters shifted by `by`.
fn nudge(token: &str, by: i64) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if !digits.is_empty() {
            let n: i128 = digits.parse().unwrap_or(0);
            out.push_str(&(n + i128::from(by)).to_string());
            digits.clear();
        }
    };
    for c in token.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        flush(&mut digits, &mut out);
        if c.is_ascii_alphabetic() {
            let base = if c.is_ascii_lowercase() { b'a' } else { b'A' };
            let shifted = (i64::from(c as u8 - base) + by).rem_euclid(26) as u8;
            out.push(char::from(base + shifted));
        } else {
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
}

const SEPARATORS: &[&str] = &[" ", ",", ", ", "  ", "\t", " / ", "/", ";", "", "\n"];

fn recipe() -> impl Strategy<Value = Recipe> {
    let mutation = prop_oneof![
        1 => any::<u64>().prop_map(Mutation::Case),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::Replace(a, b)),
        1 => any::<Index>().prop_map(Mutation::Drop),
        1 => any::<Index>().prop_map(Mutation::Repeat),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::Insert(a, b)),
        1 => any::<Index>().prop_map(Mutation::Cut),
        1 => (any::<Index>(), any::<char>()).prop_map(|(a, c)| Mutation::Char(a, c)),
        1 => any::<Index>().prop_map(Mutation::Separator),
        3 => (any::<Index>(), prop_oneof![-3i64..=3, Just(10), Just(-10), Just(1000), Just(i64::from(u32::MAX))])
            .prop_map(|(a, by)| Mutation::Nudge(a, by)),
    ];
    prop_oneof![
        1 => proptest::collection::vec((any::<Index>(), any::<Index>()), 1..5).prop_map(Recipe::Tokens),
        2 => (any::<Index>(), mutation).prop_map(|(i, m)| Recipe::Mutate(i, m)),
    ]
}

/// The text `recipe` makes on `game`: from the legal moves of the seats that act and the chance
/// outcomes (a spread of them where there are many).
fn recipe_text(game: &dyn AnyGame, recipe: &Recipe, tokens: &[String]) -> String {
    match recipe {
        Recipe::Tokens(parts) => {
            let mut text = String::new();
            for (i, (t, sep)) in parts.iter().enumerate() {
                if i > 0 {
                    text.push_str(SEPARATORS[sep.index(SEPARATORS.len())]);
                }
                text.push_str(&tokens[t.index(tokens.len())]);
            }
            text
        }
        Recipe::Mutate(pick, mutation) => {
            let mut known: Vec<String> = Seat::BOTH
                .iter()
                .flat_map(|&s| {
                    let moves = game.legal_moves(s);
                    harness::spread(&moves, 64)
                        .into_iter()
                        .cloned()
                        .collect::<Vec<_>>()
                })
                .collect();
            let outcomes = game.chance_outcomes();
            known.extend(harness::spread(&outcomes, 64).into_iter().cloned());
            let Some(text) = (!known.is_empty()).then(|| known[pick.index(known.len())].clone())
            else {
                return String::new();
            };
            let mut words: Vec<String> = text.split_whitespace().map(String::from).collect();
            let n = words.len().max(1);
            match mutation {
                Mutation::Case(bits) => {
                    return text
                        .chars()
                        .enumerate()
                        .map(|(i, c)| {
                            if bits >> (i % 64) & 1 == 1 {
                                c.to_ascii_uppercase()
                            } else {
                                c.to_ascii_lowercase()
                            }
                        })
                        .collect();
                }
                Mutation::Replace(at, t) => {
                    if let Some(w) = words.get_mut(at.index(n)) {
                        w.clone_from(&tokens[t.index(tokens.len())]);
                    }
                }
                Mutation::Drop(at) => {
                    if !words.is_empty() {
                        words.remove(at.index(n));
                    }
                }
                Mutation::Repeat(at) => {
                    if let Some(w) = words.get(at.index(n)).cloned() {
                        words.insert(at.index(n), w);
                    }
                }
                Mutation::Swap(a, b) => {
                    if !words.is_empty() {
                        words.swap(a.index(n), b.index(n));
                    }
                }
                Mutation::Insert(at, t) => {
                    words.insert(
                        at.index(n + 1).min(words.len()),
                        tokens[t.index(tokens.len())].clone(),
                    );
                }
                Mutation::Cut(at) => {
                    let mut cut = at.index(text.len() + 1);
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    return text[..cut].to_string();
                }
                Mutation::Char(at, c) => {
                    let mut at = at.index(text.len() + 1);
                    while !text.is_char_boundary(at) {
                        at -= 1;
                    }
                    let mut out = text.clone();
                    out.insert(at, *c);
                    return out;
                }
                Mutation::Nudge(at, by) => {
                    if let Some(w) = words.get_mut(at.index(n)) {
                        *w = nudge(w, *by);
                    }
                }
                Mutation::Separator(sep) => {
                    return words.join(SEPARATORS[sep.index(SEPARATORS.len())]);
                }
            }
            words.join(" ")
        }
    }
}

proptest! {
    // 250 sets of states × 12 texts made from each game's notation and from the legal moves of
    // the state at hand (every game, every state): 3,000 near-valid texts per game. Each is
    // tried as a move of both seats and as a chance outcome by the notation target's checks.
    #![proptest_config(ProptestConfig::with_cases(250))]

    #[test]
    fn near_valid_texts_never_panic_and_canonical_texts_round_trip(
        mut header in selector(),
        recipes in proptest::collection::vec(recipe(), 12),
    ) {
        header[0] &= !1;
        let tokens = notation_tokens();
        let states = harness::notation_states(&header, "");
        for game in &states {
            for r in &recipes {
                let text = recipe_text(&**game, r, &tokens);
                harness::try_text(&**game, &text);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_record_text_never_panics(
        pick in any::<Index>(),
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        let records = valid_records();
        let mut bytes = records[pick.index(records.len())].to_json().into_bytes();
        for e in &edits {
            apply_edit(&mut bytes, e);
        }
        // A record that does not load is an error value, never a panic.
        if let Ok(text) = std::str::from_utf8(&bytes) {
            if let Err(e) = Record::from_json(text) {
                prop_assert!(e.to_string().starts_with("not a match record"), "{e}");
            }
        }
        harness::record(&bytes);
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn mutated_record_fields_never_panic(
        pick in any::<Index>(),
        edits in proptest::collection::vec(field_edit(), 1..5),
    ) {
        let records = valid_records();
        let mut record = records[pick.index(records.len())].clone();
        for e in &edits {
            apply_field_edit(&mut record, e);
        }
        let text = record.to_json();
        match Record::from_json(&text) {
            Ok(back) => prop_assert_eq!(&back.steps, &record.steps),
            Err(e) => prop_assert!(false, "a written record does not load: {e}\n{text}"),
        }
        harness::record(text.as_bytes());
        // The compact form too.
        let compact = serde_json::to_string(&record).expect("a record serializes");
        harness::record(compact.as_bytes());
    }
}

#[test]
fn every_legal_text_of_every_state_of_a_game_round_trips() {
    // A systematic check beside the random ones: every state of one seeded game of each kind
    // against legal moves and chance outcomes (an even spread of them where there are many),
    // and a few near misses.
    for entry in registry() {
        let mut game: Box<dyn AnyGame> =
            (entry.create)(&RawOptions::new()).expect("the default options are valid");
        let mut rng = seeded_rng(1);
        loop {
            let outcomes = game.chance_outcomes();
            let legal: Vec<String> = Seat::BOTH
                .iter()
                .flat_map(|s| {
                    let moves = game.legal_moves(*s);
                    harness::spread(&moves, 6)
                        .into_iter()
                        .cloned()
                        .collect::<Vec<_>>()
                })
                .chain(harness::spread(&outcomes, 6).into_iter().cloned())
                .collect();
            let mut texts = legal.clone();
            if let Some(t) = legal.first() {
                texts.extend([format!(" {t} "), format!("0{t}"), format!("{t}x")]);
            }
            texts.extend(["", "0", "-1", "999999999999999999999"].map(String::from));
            harness::exercise(&*game);
            for text in &texts {
                harness::try_text(&*game, text);
            }
            match game.pending() {
                Pending::Over => break,
                Pending::Chance => {
                    game.apply_random_chance(&mut rng).expect("chance draws");
                }
                Pending::One(seat) => {
                    let mv = game.random_move(seat, &mut rng).expect("a move");
                    game.apply(&TextStep::one(seat, mv)).expect("a legal move");
                }
                Pending::Both => {
                    let p1 = game.random_move(Seat::P1, &mut rng).expect("a move");
                    let p2 = game.random_move(Seat::P2, &mut rng).expect("a move");
                    game.apply(&TextStep::both(p1, p2)).expect("legal moves");
                }
            }
        }
    }
}

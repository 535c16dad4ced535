//! The checks behind the fuzz targets, kept apart from libFuzzer so that an ordinary test can
//! run them too: `crates/games/tests/no_panic.rs` includes this file as a module and feeds it
//! the committed seeds and proptest-generated input on the stable toolchain.
//!
//! * [`record`]: bytes → UTF-8 → [`Record::from_json`] → [`replay_record`] → every read-only
//!   entry point of the game reached.
//! * [`notation`]: bytes → a [`NOTATION_HEADER`]-byte selector and a text → every game of the
//!   registry, advanced a few seeded random decisions, asked to check and apply the text in every
//!   slot of a [`TextStep`].
//!
//! Both must never panic. Besides, they assert the contracts that the engine's docs promise:
//! a failed `apply` leaves the state unchanged, the canonical text `check_move` returns is
//! itself accepted and means the same move, enumerated moves and chance outcomes are accepted,
//! and replaying a record's applied steps (every chance written out) reaches the same state.

use std::cell::OnceCell;
use std::sync::Once;

use colosseum_engine::{
    parse_pairs, seeded_rng, AnyGame, Outcome, Pending, RawOptions, Record, Score, Seat, SeededRng,
    StepError, TextStep, Viewer,
};
use colosseum_games::{registry, replay_record, GameEntry};
use serde_json::Value;

/// Everyone who can look at a game.
pub const VIEWERS: [Viewer; 3] = [
    Viewer::Seat(Seat::P1),
    Viewer::Seat(Seat::P2),
    Viewer::Spectator,
];

/// The length of the notation target's selector; the bytes after it are the text.
///
/// | byte | meaning |
/// | --- | --- |
/// | 0 | flags: bit 0 = the text's first line is an options line; bits 1-2 = how moves are picked while advancing (0 random, 1 the default move, 2 an enumerated move for the first decision and random ones after, 3 random) |
/// | 1 | how many decisions to advance before the text is tried (0-255; a game that ends stops) |
/// | 2..10 | the seed of the advancing generator, little-endian |
///
/// Shorter input is padded with zeros.
pub const NOTATION_HEADER: usize = 10;

/// How many chance outcomes at most are tried one by one on a state.
const MAX_OUTCOMES_TRIED: usize = 256;

/// How many enumerated moves of a seat at most are checked one by one on a state (Thwart
/// Omega enumerates thousands): an even spread including the first and the last.
pub const MAX_MOVES_CHECKED: usize = 48;

/// At most `max` items of `items`, spread evenly, the first and the last included.
#[must_use]
pub fn spread<T>(items: &[T], max: usize) -> Vec<&T> {
    if items.len() <= max || max < 2 {
        return items.iter().take(max).collect();
    }
    (0..max)
        .map(|i| &items[i * (items.len() - 1) / (max - 1)])
        .collect()
}

/// Everything anyone may see of a game: the views of every viewer, score, outcome and the
/// pending decision. Two states with equal snapshots look the same to everyone. (Renderings are
/// left out: they are made from the same state, and cost more than the rest together.)
#[derive(Debug, PartialEq)]
pub struct Snapshot {
    pending: Pending,
    score: Score,
    outcome: Option<Outcome>,
    views: [Value; 3],
}

/// The [`Snapshot`] of `game`.
#[must_use]
pub fn snapshot(game: &dyn AnyGame) -> Snapshot {
    Snapshot {
        pending: game.pending(),
        score: game.score(),
        outcome: game.outcome(),
        views: VIEWERS.map(|viewer| game.view_json(viewer)),
    }
}

/// Calls every read-only entry point of `game` and checks what they promise: [`look`], then the
/// enumerations: each listed move's notation is canonical and accepted, a seat that does not act
/// lists no move, and every listed outcome of a pending chance event applies (none is listed when
/// chance does not act).
///
/// Listing moves is the costly part (Thwart Omega lists thousands), so the notation target only
/// [`look`]s; the record target and the tests call this.
pub fn exercise(game: &dyn AnyGame) {
    look(game);
    let pending = game.pending();
    for seat in Seat::BOTH {
        let moves = game.legal_moves(seat);
        if !pending.includes(seat) {
            assert!(
                moves.is_empty(),
                "{}: {seat} does not act ({pending:?}) but has legal moves {moves:?}",
                game.id()
            );
            continue;
        }
        for mv in spread(&moves, MAX_MOVES_CHECKED) {
            assert_eq!(
                game.check_move(seat, mv).as_ref(),
                Ok(mv),
                "{}: the enumerated move {mv:?} of {seat} is not accepted as its own canonical text",
                game.id()
            );
        }
    }

    let outcomes = game.chance_outcomes();
    if pending == Pending::Chance {
        for c in spread(&outcomes, MAX_OUTCOMES_TRIED) {
            let mut after = game.clone_box();
            if let Err(e) = after.apply(&TextStep::chance(c.clone())) {
                panic!("{}: the chance outcome {c:?} is refused: {e}", game.id());
            }
        }
    } else {
        assert!(
            outcomes.is_empty(),
            "{}: chance does not act ({pending:?}) but has outcomes {outcomes:?}",
            game.id()
        );
    }
}

/// The cheap part of [`exercise`]: renders and views for every viewer (a view always
/// serializes), score, outcome (there exactly when the game is over); a seat that acts has a
/// random and a default move, both accepted, a seat that does not act has neither and is refused
/// as the wrong actor; chance that acts draws a chance step.
pub fn look(game: &dyn AnyGame) {
    let pending = game.pending();
    let _ = game.id();
    for viewer in VIEWERS {
        let _ = game.render(viewer);
        let view = game.view_json(viewer);
        if let Some(Value::String(e)) = view.get("error") {
            assert!(
                !e.starts_with("view could not be serialized"),
                "{}: the view of {viewer} does not serialize: {e}",
                game.id()
            );
        }
    }
    let score = game.score();
    let _ = serde_json::to_string(&score);
    let outcome = game.outcome();
    assert_eq!(
        outcome.is_some(),
        pending == Pending::Over,
        "{}: outcome {outcome:?} while pending is {pending:?}",
        game.id()
    );
    if let Some(o) = &outcome {
        let _ = serde_json::to_string(o);
    }

    let mut rng = seeded_rng(0);
    for seat in Seat::BOTH {
        if !pending.includes(seat) {
            assert!(game.random_move(seat, &mut rng).is_none());
            assert!(game.default_move(seat, &mut rng).is_none());
            assert!(matches!(
                game.check_move(seat, "1"),
                Err(StepError::WrongActors { .. })
            ));
            continue;
        }
        for mv in [
            game.random_move(seat, &mut rng),
            game.default_move(seat, &mut rng),
        ] {
            let mv = mv.unwrap_or_else(|| panic!("{}: {seat} acts but has no move", game.id()));
            assert!(
                game.check_move(seat, &mv).is_ok(),
                "{}: the random or default move {mv:?} of {seat} is refused",
                game.id()
            );
        }
    }

    if pending == Pending::Chance {
        // A game whose chance space is too large to list lists nothing, but always draws.
        let mut drawn = game.clone_box();
        let step = drawn
            .apply_random_chance(&mut rng)
            .unwrap_or_else(|| panic!("{}: chance acts but draws nothing", game.id()));
        assert!(step.is_chance(), "{}: the drawn step is {step}", game.id());
    }
}

/// The `record` fuzz target: `data` as a match record.
///
/// Never panics. Checks that a parsed record survives `to_json`, that a failed step is reported
/// with its index and text, and that replaying the steps applied (every chance outcome written
/// out, under another seed) reaches the same state.
pub fn record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let record = match Record::from_json(text) {
        Ok(r) => r,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };

    let written = record.to_json();
    let back = Record::from_json(&written)
        .unwrap_or_else(|e| panic!("to_json wrote a record that does not load: {e}\n{written}"));
    assert_eq!(back.game, record.game);
    assert_eq!(back.seed, record.seed);
    assert_eq!(back.steps, record.steps);
    assert!(
        same_json(
            &Value::Object(back.options.clone()),
            &Value::Object(record.options.clone())
        ),
        "to_json changed the options: {:?} became {:?}",
        record.options,
        back.options
    );

    let result = match replay_record(&record) {
        Ok(r) => r,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let (replay, failed) = match result {
        Ok(r) => (r, None),
        Err(failure) => (failure.reached, Some(failure.error)),
    };
    let _ = format!("{replay:?}");
    if let Some(e) = &failed {
        let _ = e.to_string();
        assert!(e.index < record.steps.len(), "{e}");
        assert_eq!(e.step, record.steps[e.index]);
        let moves = |steps: &[TextStep]| -> Vec<TextStep> {
            steps.iter().filter(|s| !s.is_chance()).cloned().collect()
        };
        assert_eq!(
            moves(&replay.applied),
            moves(&record.steps[..e.index]),
            "the moves applied before the failed step are not the record's"
        );
    }
    exercise(&*replay.game);

    let explicit = Record {
        seed: record.seed.wrapping_add(1),
        steps: replay.applied.clone(),
        ..record.clone()
    };
    let again = replay_record(&explicit)
        .expect("the same game and options load again")
        .unwrap_or_else(|failure| panic!("the applied steps do not replay: {failure}"));
    // After a failed step the state reached may wait for chance, which a replay that ends
    // there draws (from its seed): only chance steps may follow the applied ones then.
    let (same, drawn) = again
        .applied
        .split_at(replay.applied.len().min(again.applied.len()));
    assert_eq!(
        same,
        &replay.applied[..],
        "the applied steps replay differently"
    );
    assert!(
        drawn.iter().all(TextStep::is_chance) && (failed.is_some() || drawn.is_empty()),
        "replaying the applied steps applied more: {drawn:?}"
    );
    if drawn.is_empty() {
        assert_eq!(snapshot(&*again.game), snapshot(&*replay.game));
    }
}

/// JSON equality, except that two non-integer numbers within a relative 1e-12 are equal:
/// serde_json (without its `float_roundtrip` feature) may read back a written float one unit
/// in the last place off.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() && y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// The `notation` fuzz target: a [`NOTATION_HEADER`]-byte selector, then a text (lossily
/// UTF-8), tried with [`try_text`] on the states [`notation_states`] makes of every game.
///
/// When flag bit 0 is set, the text's first line is an options line, and the rest is the text.
pub fn notation(data: &[u8]) {
    let n = data.len().min(NOTATION_HEADER);
    let text = String::from_utf8_lossy(&data[n..]);
    let (options_line, text) = if data.first().is_some_and(|flags| flags & 1 != 0) {
        text.split_once('\n').unwrap_or((&text, ""))
    } else {
        ("", &*text)
    };
    for game in notation_states(&data[..n], options_line) {
        try_text(&*game, text);
    }
}

/// The states the notation target tries a text on, from its selector (`header`, padded with
/// zeros; see [`NOTATION_HEADER`]) and options line.
///
/// Every game of the registry is created with its default options and, when flag bit 0 is set,
/// with two option sets from `options_line`: its `name=value` tokens through [`parse_pairs`], and
/// its other tokens as values of the documented options in order. Each is advanced by the
/// selector's number of decisions (every picked move and drawn chance outcome must be accepted)
/// and looked at with [`look`]. The first call also runs [`check_registry`].
pub fn notation_states(header: &[u8], options_line: &str) -> Vec<Box<dyn AnyGame>> {
    static REGISTRY_CHECKED: Once = Once::new();
    REGISTRY_CHECKED.call_once(check_registry);

    let mut selector = [0u8; NOTATION_HEADER];
    let n = header.len().min(NOTATION_HEADER);
    selector[..n].copy_from_slice(&header[..n]);
    let flags = selector[0];
    let decisions = selector[1];
    let seed = u64::from_le_bytes(selector[2..10].try_into().expect("8 bytes"));
    let picker = Picker::from_bits(flags >> 1);

    let mut states = Vec::new();
    for entry in registry() {
        let mut games = vec![(entry.create)(&RawOptions::new())
            .unwrap_or_else(|e| panic!("{}: the default options are refused: {e}", entry.id))];
        if flags & 1 != 0 {
            for raw in options_from_line(entry, options_line) {
                match (entry.create)(&raw) {
                    Ok(game) => games.push(game),
                    Err(e) => {
                        let _ = e.to_string();
                    }
                }
            }
        }
        for mut game in games {
            advance(game.as_mut(), seed, decisions, picker);
            look(&*game);
            states.push(game);
        }
    }
    states
}

/// What holds for every game whatever the input: the default options are accepted, and the
/// documented defaults written out as `name=value` pairs give the same game.
pub fn check_registry() {
    for entry in registry() {
        let default = (entry.create)(&RawOptions::new())
            .unwrap_or_else(|e| panic!("{}: the default options are refused: {e}", entry.id));
        let documented = documented_defaults(entry);
        let with_documented = (entry.create)(&documented).unwrap_or_else(|e| {
            panic!(
                "{}: the documented defaults {documented:?} are refused: {e}",
                entry.id
            )
        });
        assert_eq!(
            snapshot(&*default),
            snapshot(&*with_documented),
            "{}: the documented defaults {documented:?} are not the defaults",
            entry.id
        );
    }
}

/// How moves are picked while advancing.
#[derive(Clone, Copy, Debug)]
enum Picker {
    Random,
    Default,
    Enumerated,
}

impl Picker {
    fn from_bits(bits: u8) -> Self {
        match bits & 3 {
            1 => Picker::Default,
            2 => Picker::Enumerated,
            _ => Picker::Random,
        }
    }

    /// A move of `seat` for the `k`-th decision; `mix` chooses among enumerated moves.
    fn pick(self, game: &dyn AnyGame, seat: Seat, rng: &mut SeededRng, k: u64, mix: u64) -> String {
        let mv = match self {
            Picker::Random => game.random_move(seat, rng),
            Picker::Default => game.default_move(seat, rng),
            // Listing moves is costly (Thwart Omega's thousands): an enumerated pick for the
            // first decision, random ones after.
            Picker::Enumerated if k > 0 => game.random_move(seat, rng),
            Picker::Enumerated => {
                // A game may list only a representative subset, even none.
                let moves = game.legal_moves(seat);
                let i = splitmix64(mix) % moves.len().max(1) as u64;
                moves
                    .get(i as usize)
                    .cloned()
                    .or_else(|| game.random_move(seat, rng))
            }
        };
        mv.unwrap_or_else(|| panic!("{}: {seat} must act but has no move", game.id()))
    }
}

/// A well-mixed number from `x` (SplitMix64's finalizer), for picking among enumerated moves
/// without a generator.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The game's documented defaults written out as `name=value` pairs, as the command line would.
fn documented_defaults(entry: &GameEntry) -> RawOptions {
    let pairs: Vec<String> = entry
        .options
        .iter()
        .map(|d| format!("{}={}", d.name, d.default))
        .collect();
    parse_pairs(pairs.iter().map(String::as_str))
        .unwrap_or_else(|e| panic!("{}: the documented defaults do not parse: {e}", entry.id))
}

/// Two option sets from a line of text: its `name=value` tokens, and its other tokens as the
/// values of the game's documented options in order. A set whose pairs do not parse is left out.
fn options_from_line(entry: &GameEntry, line: &str) -> Vec<RawOptions> {
    let (pairs, values): (Vec<&str>, Vec<&str>) =
        line.split_whitespace().partition(|t| t.contains('='));
    let mut sets = Vec::new();
    match parse_pairs(pairs) {
        Ok(raw) => sets.push(raw),
        Err(e) => {
            let _ = e.to_string();
        }
    }
    let named: Vec<String> = entry
        .options
        .iter()
        .zip(values)
        .map(|(d, v)| format!("{}={v}", d.name))
        .collect();
    if !named.is_empty() {
        match parse_pairs(named.iter().map(String::as_str)) {
            Ok(raw) => sets.push(raw),
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    sets
}

/// Advances `game` by up to `decisions` decisions, moves picked by `picker` from `seed`.
/// Every picked move and drawn chance outcome must be accepted, and the first two drawn
/// outcomes' texts must give the same state when applied again as text.
fn advance(game: &mut dyn AnyGame, seed: u64, decisions: u8, picker: Picker) {
    let mut rng = seeded_rng(seed);
    let mut draws_checked = 0;
    for k in 0..u64::from(decisions) {
        let step = match game.pending() {
            Pending::Over => return,
            Pending::Chance if draws_checked >= 2 => {
                game.apply_random_chance(&mut rng)
                    .unwrap_or_else(|| panic!("{}: chance acts but draws nothing", game.id()));
                continue;
            }
            Pending::Chance => {
                draws_checked += 1;
                let before = game.clone_box();
                let drawn = game
                    .apply_random_chance(&mut rng)
                    .unwrap_or_else(|| panic!("{}: chance acts but draws nothing", game.id()));
                let mut again = before;
                if let Err(e) = again.apply(&drawn) {
                    panic!(
                        "{}: the drawn chance step ({drawn}) is refused as text: {e}",
                        game.id()
                    );
                }
                assert_eq!(
                    snapshot(&*again),
                    snapshot(game),
                    "{}: the drawn chance step ({drawn}) means something else as text",
                    game.id()
                );
                continue;
            }
            Pending::One(seat) => {
                TextStep::one(seat, picker.pick(game, seat, &mut rng, k, seed ^ k))
            }
            Pending::Both => TextStep::both(
                picker.pick(game, Seat::P1, &mut rng, k, seed ^ k),
                picker.pick(game, Seat::P2, &mut rng, k, !(seed ^ k)),
            ),
        };
        if let Err(e) = game.apply(&step) {
            panic!("{}: the picked step ({step}) is refused: {e}", game.id());
        }
    }
}

/// Applies `step` to a copy of `game`, whose snapshot `before` gives: a refused step must leave
/// the state unchanged. Not checked for wrong actors and text that does not parse, which the
/// dynamic layer refuses before the typed game sees the step (a typed game never parses): most
/// refusals are those, and comparing states is most of the harness's time.
fn apply_copy(
    game: &dyn AnyGame,
    before: &OnceCell<Snapshot>,
    step: &TextStep,
) -> Result<Box<dyn AnyGame>, StepError> {
    let mut copy = game.clone_box();
    match copy.apply(step) {
        Ok(()) => Ok(copy),
        Err(e) => {
            let _ = e.to_string();
            if !matches!(
                e,
                StepError::WrongActors { .. }
                    | StepError::NotAMove { .. }
                    | StepError::NotAChance(_)
            ) {
                assert_eq!(
                    &snapshot(&*copy),
                    before.get_or_init(|| snapshot(game)),
                    "{}: the refused step ({step}) changed the state ({e})",
                    game.id()
                );
            }
            Err(e)
        }
    }
}

/// Tries `text` as a move of each seat and as a chance outcome, in every slot of a step.
///
/// Asserts: `check_move` accepts only for a seat that acts, and the canonical text it returns
/// is accepted again as itself and means the same move; a step is applied exactly when its
/// parts are accepted; a refused step leaves the state unchanged; an accepted chance text means
/// one of the enumerated outcomes.
pub fn try_text(game: &dyn AnyGame, text: &str) {
    let id = game.id();
    let pending = game.pending();
    let before = OnceCell::new();
    let mut canonical: [Option<String>; 2] = [None, None];
    for seat in Seat::BOTH {
        match game.check_move(seat, text) {
            Ok(canon) => {
                assert!(
                    pending.includes(seat),
                    "{id}: {seat} does not act ({pending:?}) but {text:?} is accepted"
                );
                assert_eq!(
                    game.check_move(seat, &canon).as_ref(),
                    Ok(&canon),
                    "{id}: {text:?} is accepted for {seat} as {canon:?}, which is not accepted as itself"
                );
                canonical[seat.index()] = Some(canon);
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }

    // A legal move for the other slot (the default move: listing Thwart Omega's thousands of
    // moves would cost more than the rest of the harness).
    let other_move = |seat: Seat| game.default_move(seat, &mut seeded_rng(0));
    let text = text.to_string();
    let mut steps = vec![
        TextStep::one(Seat::P1, text.clone()),
        TextStep::one(Seat::P2, text.clone()),
        TextStep::both(text.clone(), text.clone()),
        TextStep::chance(text.clone()),
        TextStep {
            p1: Some(text.clone()),
            p2: None,
            chance: Some(text.clone()),
        },
        TextStep {
            p1: Some(text.clone()),
            p2: Some(text.clone()),
            chance: Some(text.clone()),
        },
        TextStep::default(),
    ];
    if pending == Pending::Both {
        if let Some(p2) = other_move(Seat::P2) {
            steps.push(TextStep::both(text.clone(), p2));
        }
        if let Some(p1) = other_move(Seat::P1) {
            steps.push(TextStep::both(p1, text.clone()));
        }
    }

    let mut looked = false;
    for step in &steps {
        let result = apply_copy(game, &before, step);
        let accepted = |seat: Seat| match step.slot(seat) {
            None => true,
            Some(t) if t == text => canonical[seat.index()].is_some(),
            Some(t) => game.check_move(seat, t).is_ok(),
        };
        let expected = match (pending, &step.p1, &step.p2, &step.chance) {
            (Pending::Both, Some(_), Some(_), None) => accepted(Seat::P1) && accepted(Seat::P2),
            (Pending::One(Seat::P1), Some(_), None, None) => accepted(Seat::P1),
            (Pending::One(Seat::P2), None, Some(_), None) => accepted(Seat::P2),
            // AnyGame has no chance check to compare with; what an accepted chance text
            // means is checked below.
            (Pending::Chance, None, None, Some(_)) => result.is_ok(),
            _ => false,
        };
        assert_eq!(
            result.is_ok(),
            expected,
            "{id}: the step ({step}) was {} though its parts are {}",
            if result.is_ok() { "applied" } else { "refused" },
            if expected {
                "accepted"
            } else {
                "not all accepted"
            }
        );
        // The first state reached is looked at, and the first move step accepted is
        // checked against its canonical form (once is enough: comparing states is costly).
        let Ok(after) = result else { continue };
        if looked {
            continue;
        }
        looked = true;
        look(&*after);

        // The canonical texts mean the same moves: the step written canonically gives the same state.
        if !step.is_chance() {
            let canon = TextStep {
                p1: step.p1.as_ref().map(|t| canonical_of(game, Seat::P1, t)),
                p2: step.p2.as_ref().map(|t| canonical_of(game, Seat::P2, t)),
                chance: None,
            };
            let again = apply_copy(game, &before, &canon).unwrap_or_else(|e| {
                panic!("{id}: the canonical step ({canon}) of ({step}) is refused: {e}")
            });
            assert_eq!(
                snapshot(&*again),
                snapshot(&*after),
                "{id}: the canonical step ({canon}) means something else than ({step})"
            );
        } else {
            let outcomes = game.chance_outcomes();
            // A game whose chance space is too large lists none; nothing to compare with then.
            if (1..=MAX_OUTCOMES_TRIED).contains(&outcomes.len()) {
                let want = snapshot(&*after);
                let found = outcomes.iter().any(|c| {
                    let mut copy = game.clone_box();
                    copy.apply(&TextStep::chance(c.clone())).is_ok() && snapshot(&*copy) == want
                });
                assert!(
                    found,
                    "{id}: the chance text {text:?} is accepted but is none of the outcomes {outcomes:?}"
                );
            }
        }
    }

    // An enumerated chance outcome written exactly is accepted.
    if pending == Pending::Chance && game.chance_outcomes().contains(&text) {
        assert!(
            apply_copy(game, &before, &TextStep::chance(text.clone())).is_ok(),
            "{id}: the enumerated chance outcome {text:?} is refused"
        );
    }
}

fn canonical_of(game: &dyn AnyGame, seat: Seat, text: &str) -> String {
    game.check_move(seat, text).unwrap_or_else(|e| {
        panic!(
            "{}: {text:?} was applied for {seat} but is refused: {e}",
            game.id()
        )
    })
}

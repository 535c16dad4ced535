//! Properties every game in the registry must have, checked on random games:
//!
//! * random legal play always ends;
//! * every enumerated legal move's notation parses back to itself and is accepted, in any mix
//!   of upper and lower case;
//! * the default move at a deadline is legal;
//! * every listed chance outcome applies, and one with no chance now is refused;
//! * replaying the record of a finished game gives an identical final state, both with every
//!   chance step written out and with chance left to the seed.
//! * two states that differ only in what a seat cannot see (All-In Goofspiel's face-down cards,
//!   Galespiel's unseen prize order) give it and a spectator identical views, at random positions;
//! * every move text a game that enumerates its moves accepts is listed by `legal_moves`
//!   (perft-style, over candidate texts built from the notation's tokens).
//!
//! and, per game, properties of its own rules (Thwart Omega's groups against a plain flood fill).

use colosseum_engine::{
    random_playout, seeded_rng, AnyGame, Game, Pending, RawOptions, Record, Seat, Step, TextStep,
    Viewer,
};
use colosseum_games::goofspiel::{Goofspiel, GoofspielOptions, PrizeOrder, ReturnsType};
use colosseum_games::thwart_omega::{Advantage, Colour, ThwartOmega, ThwartOmegaOptions};
use colosseum_games::{registry, replay_record, GameEntry};
use proptest::prelude::*;
use rand::{Rng, RngCore};

/// An upper bound on decisions in any game, so that "always ends" fails instead of hanging.
const MAX_DECISIONS: usize = 100_000;

/// Everything anyone may see of a game: the views of both seats and a spectator, the score,
/// the outcome and the pending decision. Two states with equal fingerprints look the same to
/// everyone.
fn fingerprint(game: &dyn AnyGame) -> String {
    let views: Vec<String> = [
        Viewer::Seat(Seat::P1),
        Viewer::Seat(Seat::P2),
        Viewer::Spectator,
    ]
    .iter()
    .map(|v| game.view_json(*v).to_string())
    .collect();
    format!(
        "{views:?} {:?} {:?} {:?}",
        game.score(),
        game.outcome(),
        game.pending()
    )
}

/// Plays one random game through the dynamic interface. Chance comes from `ChaCha8(seed)` alone
/// (as `replay` draws it), moves from a second generator. Returns the record with every step
/// written out, the record without its chance steps, and the final game.
fn random_game(
    entry: &GameEntry,
    options: &RawOptions,
    seed: u64,
) -> (Record, Record, Box<dyn AnyGame>) {
    let mut game = (entry.create)(options).expect("options are valid");
    let mut chance_rng = seeded_rng(seed);
    let mut move_rng = seeded_rng(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut full = Record::new(entry.id, options.clone(), seed);
    let mut without_chance = full.clone();
    let mut seen_chance = std::collections::BTreeSet::new();
    for _ in 0..MAX_DECISIONS {
        let pending = game.pending();
        match pending {
            Pending::Over => return (full, without_chance, game),
            Pending::Chance => {
                check_chance_outcomes(game.as_ref(), &mut seen_chance);
                let step = game
                    .apply_random_chance(&mut chance_rng)
                    .expect("a chance decision has an outcome");
                if let Some(c) = &step.chance {
                    seen_chance.insert(c.clone());
                }
                full.steps.push(step);
            }
            Pending::Both | Pending::One(_) => {
                let mut step = TextStep::default();
                for &seat in pending.seats() {
                    check_notation_round_trip(game.as_ref(), seat);
                    let mv = game
                        .random_move(seat, &mut move_rng)
                        .expect("a seat that acts has a move");
                    let default = game
                        .default_move(seat, &mut move_rng)
                        .expect("a seat that acts has a default move");
                    assert!(
                        game.check_move(seat, &default).is_ok(),
                        "{}: default move `{default}` of {seat} is refused",
                        entry.id
                    );
                    match seat {
                        Seat::P1 => step.p1 = Some(mv),
                        Seat::P2 => step.p2 = Some(mv),
                    }
                }
                game.apply(&step).unwrap_or_else(|e| {
                    panic!("{}: random legal step {step} refused: {e}", entry.id)
                });
                full.steps.push(step.clone());
                without_chance.steps.push(step);
            }
        }
    }
    panic!(
        "{}: a random game did not end within {MAX_DECISIONS} decisions",
        entry.id
    );
}

/// Where a game lists the pending chance event's outcomes (those with a chance above 0), every
/// one applies, and every outcome seen earlier in the game that is not listed now (a prize
/// already drawn, a race result with no chance) is refused: a chance step with probability zero
/// never happens.
fn check_chance_outcomes(game: &dyn AnyGame, seen: &mut std::collections::BTreeSet<String>) {
    let listed = game.chance_outcomes();
    if listed.is_empty() {
        return;
    }
    for text in &listed {
        let mut g = game.clone_box();
        if let Err(e) = g.apply(&TextStep::chance(text.clone())) {
            panic!("{}: listed chance outcome `{text}` refused: {e}", game.id());
        }
    }
    for text in seen.iter().filter(|t| !listed.contains(t)) {
        let mut g = game.clone_box();
        assert!(
            g.apply(&TextStep::chance(text.clone())).is_err(),
            "{}: chance outcome `{text}` has no chance now (not listed) but is accepted",
            game.id()
        );
    }
}

/// Every enumerated move's canonical text is accepted and is its own canonical form.
fn check_notation_round_trip(game: &dyn AnyGame, seat: Seat) {
    let moves = game.legal_moves(seat);
    assert!(
        !moves.is_empty(),
        "{}: {seat} acts but has no legal move",
        game.id()
    );
    for (i, text) in moves.into_iter().enumerate() {
        let canonical = game
            .check_move(seat, &text)
            .unwrap_or_else(|e| panic!("{}: legal move `{text}` refused: {e}", game.id()));
        assert_eq!(
            canonical,
            text,
            "{}: notation does not round-trip",
            game.id()
        );
        // Input is case-insensitive everywhere: any mix of cases is the same move (checked on
        // the first dozen moves of each position, which keeps the suite quick).
        if i >= 12 {
            continue;
        }
        for cased in case_mixes(&text) {
            match game.check_move(seat, &cased) {
                Ok(c) => assert_eq!(c, text, "{}: `{cased}` is another move", game.id()),
                Err(e) => panic!("{}: `{cased}` (a legal `{text}`) refused: {e}", game.id()),
            }
        }
    }
}

/// Upper case, and two alternating mixes of upper and lower case, of `text`.
fn case_mixes(text: &str) -> [String; 3] {
    let alternate = |start_upper: bool| {
        text.chars()
            .enumerate()
            .map(|(i, c)| {
                if (i % 2 == 0) == start_upper {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    [text.to_ascii_uppercase(), alternate(true), alternate(false)]
}

fn replay_fingerprint(record: &Record) -> String {
    let replayed = replay_record(record)
        .expect("game and options are valid")
        .unwrap_or_else(|f| panic!("replay failed: {f}"));
    fingerprint(replayed.game.as_ref())
}

/// The option sets each game is tried with: its defaults, for Goofspiel every order, for Thwart
/// Omega the smallest boards (including one that is over before it starts) and every advantage,
/// for Square Goofspiel each advantage holder, for The Witch's Brew races nobody wins, lopsided
/// races, a short schedule, both Discard holders, Tiebreakers and the live-cauldron fallback.
/// Larger boards stay out because the round-trip check enumerates every legal move each round.
fn option_sets(entry: &GameEntry) -> Vec<RawOptions> {
    let mut sets = vec![RawOptions::new()];
    let extra: &[&[&str]] = match entry.id {
        "goofspiel" => &[
            &["cards=1"],
            &["cards=5", "order=descending"],
            &["cards=8", "order=ascending", "returns=point_difference"],
        ],
        "thwart-omega" => &[
            &["size=1"],
            &["size=2", "advantage=none"],
            &["size=3", "advantage=p2"],
            &["size=4", "advantage=none"],
        ],
        "square-goofspiel" => &[&["advantage=p1"], &["advantage=p2"]],
        "witchs-brew" => &[
            &["none_chance=0.3", "discard=both", "tiebreaker=p2"],
            &["p1_chance=1", "discard=p1", "advantage=p2"],
            &["schedule=MM1 DM1 FM1", "none_chance=0.5"],
            &["cauldron=live", "discard=p2", "tiebreaker=p1"],
        ],
        "galespiel" => &[
            &["items=elder-tree"],
            &["items=rush-order,crystal-ball", "advantage=none"],
        ],
        _ => &[],
    };
    for pairs in extra {
        sets.push(colosseum_engine::parse_pairs(pairs.iter().copied()).unwrap());
    }
    if entry.id == "all-in-goofspiel" {
        sets.push(colosseum_engine::parse_pairs(["first=p2"]).unwrap());
    }
    sets
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_game_ends_and_replays_identically(seed in any::<u64>()) {
        for entry in registry() {
            for options in option_sets(entry) {
                let (full, without_chance, game) = random_game(entry, &options, seed);
                prop_assert_eq!(game.pending(), Pending::Over);
                prop_assert!(game.outcome().is_some());
                let expected = fingerprint(game.as_ref());
                prop_assert_eq!(&replay_fingerprint(&full), &expected, "{} full record", entry.id);
                prop_assert_eq!(
                    &replay_fingerprint(&without_chance),
                    &expected,
                    "{} record with chance left to the seed",
                    entry.id
                );
                // The record survives its own JSON form.
                let reread = Record::from_json(&full.to_json()).unwrap();
                prop_assert_eq!(&reread, &full);
            }
        }
    }

    #[test]
    fn goofspiel_typed_replay_gives_the_same_state(
        cards in 1u8..=20,
        order in prop_oneof![Just(PrizeOrder::Random), Just(PrizeOrder::Descending), Just(PrizeOrder::Ascending)],
        seed in any::<u64>(),
    ) {
        let options = GoofspielOptions { cards, order, returns: ReturnsType::TotalPoints };
        let mut game = Goofspiel::new(options);
        let mut rng = seeded_rng(seed);
        let decisions = random_playout(&mut game, &mut rng);
        let expected_decisions = cards as usize * if order == PrizeOrder::Random { 2 } else { 1 };
        prop_assert_eq!(decisions, expected_decisions);
        // Points add up to the prizes not discarded by ties.
        let won: u32 = game.turns().iter().filter(|t| t.winner.is_some()).map(|t| u32::from(t.prize)).sum();
        prop_assert_eq!(game.points()[0] + game.points()[1], won);
        // Rebuild the record from the typed history and replay it.
        let mut record = Record::new("goofspiel", colosseum_engine::parse_pairs([
            format!("cards={cards}").as_str(),
            match order { PrizeOrder::Random => "order=random", PrizeOrder::Descending => "order=descending", PrizeOrder::Ascending => "order=ascending" },
            "returns=total_points",
        ]).unwrap(), 0);
        for t in game.turns() {
            if order == PrizeOrder::Random {
                record.steps.push(TextStep::chance(t.prize.to_string()));
            }
            record.steps.push(TextStep::both(t.p1.to_string(), t.p2.to_string()));
        }
        let replayed = replay_record(&record).unwrap().unwrap();
        let erased = colosseum_engine::Erased(game.clone());
        prop_assert_eq!(fingerprint(replayed.game.as_ref()), fingerprint(&erased));
    }
}

/// Thwart Omega's groups found the slow, obvious way: a flood fill over the board's picture.
fn reference_groups(rows: &[String], colour: Colour) -> Vec<u32> {
    let cells: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let n = cells.len();
    let (single, double) = match colour {
        Colour::Black => ('b', 'B'),
        Colour::White => ('w', 'W'),
    };
    let mut seen = vec![vec![false; n]; n];
    let mut weights = Vec::new();
    for r in 0..n {
        for c in 0..n {
            if seen[r][c] || (cells[r][c] != single && cells[r][c] != double) {
                continue;
            }
            seen[r][c] = true;
            let mut stack = vec![(r, c)];
            let mut weight = 0;
            while let Some((r, c)) = stack.pop() {
                weight += if cells[r][c] == double { 2 } else { 1 };
                let neighbours = [
                    (r.wrapping_sub(1), c),
                    (r + 1, c),
                    (r, c.wrapping_sub(1)),
                    (r, c + 1),
                ];
                for (rr, cc) in neighbours {
                    if rr < n
                        && cc < n
                        && !seen[rr][cc]
                        && (cells[rr][cc] == single || cells[rr][cc] == double)
                    {
                        seen[rr][cc] = true;
                        stack.push((rr, cc));
                    }
                }
            }
            weights.push(weight);
        }
    }
    weights.sort_unstable_by(|a, b| b.cmp(a));
    weights
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random Thwart Omega games on every board size: stones are conserved (each round's four
    /// stones either stay or burn in black-white pairs), every round fills two to four cells,
    /// the game ends exactly when three or fewer cells are empty, the bit-parallel groups match a
    /// plain flood fill, and the winner is the one the rules name.
    #[test]
    fn thwart_omega_random_games_keep_the_rules(size in 1u8..=11, seed in any::<u64>()) {
        let mut game = ThwartOmega::new(ThwartOmegaOptions { size, advantage: Advantage::None });
        let mut rng = seeded_rng(seed);
        let mut collisions = 0u32;
        while game.pending() == Pending::Both {
            let empty_before = game.empty_cells();
            prop_assert!(empty_before >= 4);
            let p1 = game.random_move(Seat::P1, &mut rng).unwrap();
            let p2 = game.random_move(Seat::P2, &mut rng).unwrap();
            prop_assert!(p1.black != p1.white && p2.black != p2.white);
            let blacks = [p1.black, p2.black];
            collisions += [p1.white, p2.white]
                .iter()
                .filter(|w| blacks.contains(w))
                .count() as u32;
            game.apply(Step::Both { p1, p2 }).unwrap();
            let rows = game.rows();
            let mut weight = 0;
            for colour in Colour::BOTH {
                let groups: Vec<u32> =
                    game.groups(colour).weights().iter().map(|&w| u32::from(w)).collect();
                prop_assert_eq!(&groups, &reference_groups(&rows, colour));
                weight += groups.iter().sum::<u32>();
                let product = if groups.is_empty() { 0 } else { groups.iter().map(|&w| u64::from(w)).product() };
                prop_assert_eq!(game.product(colour.seat()), product);
            }
            prop_assert_eq!(weight + 2 * collisions, 4 * game.rounds());
            let burned = rows.concat().matches('#').count() as u32;
            prop_assert_eq!(game.empty_cells() as usize, rows.concat().matches('.').count());
            if game.pending() == Pending::Over {
                prop_assert_eq!(game.empty_cells(), 0);
                let left = burned - collisions;
                prop_assert!(left <= 3);
                let filled = empty_before - left;
                prop_assert!((2..=4).contains(&filled));
            } else {
                prop_assert!(game.empty_cells() >= 4);
                prop_assert_eq!(burned, collisions);
                let filled = empty_before - game.empty_cells();
                prop_assert!((2..=4).contains(&filled));
            }
        }
        prop_assert_eq!(game.pending(), Pending::Over);
        let outcome = game.outcome().unwrap();
        let (pb, pw) = (game.product(Seat::P1), game.product(Seat::P2));
        let (b, w) = (game.groups(Colour::Black), game.groups(Colour::White));
        let expected = match pb.cmp(&pw).then_with(|| b.weights().cmp(w.weights())) {
            std::cmp::Ordering::Greater => Some(Seat::P1),
            std::cmp::Ordering::Less => Some(Seat::P2),
            std::cmp::Ordering::Equal => None,
        };
        prop_assert_eq!(outcome.winner, expected, "{}", outcome.reason);
    }
}

#[test]
fn chance_left_to_the_seed_is_the_same_every_time() {
    let record = Record::from_json(r#"{"game": "goofspiel", "seed": 42, "steps": []}"#).unwrap();
    let a = replay_record(&record).unwrap().unwrap();
    let b = replay_record(&record).unwrap().unwrap();
    assert_eq!(a.applied, b.applied);
    assert_eq!(
        a.applied.len(),
        1,
        "the first prize is drawn, then p1 and p2 must bid"
    );
    let other = Record { seed: 43, ..record };
    let drawn: Vec<_> = (0..20)
        .map(|s| {
            let r = Record {
                seed: s,
                ..other.clone()
            };
            replay_record(&r).unwrap().unwrap().applied[0].clone()
        })
        .collect();
    assert!(
        drawn.iter().any(|s| *s != drawn[0]),
        "different seeds draw different prizes"
    );
}

#[test]
fn steps_that_do_not_fit_name_their_index_and_keep_the_state_reached() {
    let cases = [
        (
            r#"[{"p1":"13","p2":"1"},{"p1":"13","p2":"2"}]"#,
            1,
            "p1: not legal here: you have no 13 left",
        ),
        (r#"[{"p1":"x","p2":"1"}]"#, 0, "p1: `x` is not a move"),
        (
            r#"[{"chance":"5"}]"#,
            0,
            "this step gives a chance outcome, but the game waits for both seats",
        ),
        (
            r#"[{"p1":"1"}]"#,
            0,
            "this step gives a move for p1 alone, but the game waits for both seats",
        ),
        (
            r#"[{"chance":"13"},{"p1":"1","p2":"2"},{"chance":"13"}]"#,
            2,
            "chance: not legal here: prize 13 is not in the deck",
        ),
        (
            r#"[{"chance":"0"}]"#,
            0,
            "chance: `0` is not a chance outcome: cards run from 1 to 13",
        ),
        (
            r#"[{"p1":"1","p2":"2","chance":"3"}]"#,
            0,
            "a chance outcome mixed with moves",
        ),
    ];
    for (steps, index, message) in cases {
        // Chance steps only exist with shuffled prizes.
        // (A chance step in a descending game is refused: there is no chance there.)
        let order = if steps.contains("chance\":\"5") || !steps.contains("chance") {
            "descending"
        } else {
            "random"
        };
        let text =
            format!(r#"{{"game":"goofspiel","options":{{"order":"{order}"}},"steps":{steps}}}"#);
        let record = Record::from_json(&text).unwrap();
        let failure = replay_record(&record).unwrap().unwrap_err();
        let (reached, error) = (failure.reached, failure.error);
        assert_eq!(error.index, index, "{steps}");
        assert!(error.to_string().contains(message), "{steps}: {error}");
        assert_eq!(reached.applied.len(), index, "{steps}");
    }
    let over = r#"{"game":"goofspiel","options":{"cards":1,"order":"descending"},"steps":[{"p1":"1","p2":"1"},{"p1":"1","p2":"1"}]}"#;
    let error = replay_record(&Record::from_json(over).unwrap())
        .unwrap()
        .unwrap_err()
        .error;
    assert_eq!(error.index, 1);
    assert!(error.to_string().contains("already over"), "{error}");
}

#[test]
fn bad_records_are_errors() {
    for text in [
        "",
        "[]",
        r#"{"steps": []}"#,
        r#"{"game": "goofspiel", "seed": -1}"#,
        r#"{"game": "goofspiel", "steps": [{"p3": "1"}]}"#,
        r#"{"game": "goofspiel", "steps": [{"p1": 7, "p2": "1"}]}"#,
        r#"{"game": "goofspiel", "options": [1]}"#,
    ] {
        assert!(Record::from_json(text).is_err(), "{text}");
    }
    let unknown = Record::from_json(r#"{"game": "chess"}"#).unwrap();
    let e = replay_record(&unknown).unwrap_err();
    let ids: Vec<&str> = registry().iter().map(|g| g.id).collect();
    assert_eq!(
        e.to_string(),
        format!("unknown game `chess`; the games are: {}", ids.join(", "))
    );
    let options = Record::from_json(r#"{"game": "goofspiel", "options": {"cards": 100}}"#).unwrap();
    let e = replay_record(&options).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the record's options: option `cards` = 100 is not allowed: an integer from 1 to 64"
    );
}

// ----- hidden information: the differential check -----

/// Plays `steps` from a new game with `options`; `None` if a step is refused.
fn replay_steps(
    entry: &GameEntry,
    options: &RawOptions,
    steps: &[TextStep],
) -> Option<Box<dyn AnyGame>> {
    let mut game = (entry.create)(options).expect("options are valid");
    for step in steps {
        game.apply(step).ok()?;
    }
    Some(game)
}

/// A random legal step (chance from the game's own draw).
fn random_step(game: &mut dyn AnyGame, rng: &mut dyn RngCore) -> TextStep {
    match game.pending() {
        Pending::Chance => game.apply_random_chance(rng).expect("a chance outcome"),
        pending => {
            let mut step = TextStep::default();
            for &seat in pending.seats() {
                let mv = game
                    .random_move(seat, rng)
                    .expect("a seat that acts has a move");
                match seat {
                    Seat::P1 => step.p1 = Some(mv),
                    Seat::P2 => step.p2 = Some(mv),
                }
            }
            game.apply(&step).expect("a random legal step is accepted");
            step
        }
    }
}

/// A second history for `history` (which led to `game`) that differs only in what `seat` cannot
/// know, by the rules of the game, or `None` where nothing is hidden from `seat` now:
///
/// * All-In Goofspiel: while the other seat waits to answer, the starter's cards lie face down
///   (their number is public): another set of as many cards from the starter's hand.
/// * Galespiel: the current cycle's prize order (one chance step) at the positions `seat` has not
///   seen: not revealed, and not shown to it by Survey or Crystal Ball (`null` in the `upcoming`
///   of its view; where the seat played no Survey and used no item this cycle, every upcoming
///   position must be unknown to it, which is checked). Those values are shuffled. Histories
///   with a Rush Order window in the current cycle are left out: a Rush moves a prize within
///   the order, so the chance step's positions no longer match the view's.
fn hidden_variant(
    entry: &GameEntry,
    before: &dyn AnyGame,
    game: &dyn AnyGame,
    history: &[TextStep],
    seat: Seat,
    rng: &mut impl Rng,
) -> Option<Vec<TextStep>> {
    use rand::seq::SliceRandom;
    match entry.id {
        "all-in-goofspiel" => {
            let last = history.last()?;
            let starter = seat.other();
            let face_down = last.slot(starter)?;
            if last.slot(seat).is_some() || !game.pending().includes(seat) || face_down == "pass" {
                return None;
            }
            let hand: Vec<i64> = before.view_json(Viewer::Seat(starter))["hands"][starter.as_str()]
                .as_array()?
                .iter()
                .filter_map(serde_json::Value::as_i64)
                .collect();
            let count = face_down.split_whitespace().count();
            let mut cards = hand.clone();
            cards.shuffle(rng);
            let other: Vec<String> = cards[..count].iter().map(i64::to_string).collect();
            let text = before.check_move(starter, &other.join(" ")).ok()?;
            if text == face_down {
                return None;
            }
            let mut variant = history.to_vec();
            *variant.last_mut().unwrap() = TextStep::one(starter, text);
            Some(variant)
        }
        "galespiel" => {
            let cycle = history.iter().rposition(TextStep::is_chance)?;
            let since = &history[cycle + 1..];
            let view = game.view_json(Viewer::Seat(seat));
            let upcoming = view["upcoming"].as_array()?.clone();
            let order: Vec<String> = history[cycle]
                .chance
                .as_deref()?
                .split_whitespace()
                .map(str::to_string)
                .collect();
            if upcoming.len() > order.len() {
                return None;
            }
            let first_upcoming = order.len() - upcoming.len();
            let used_rush = view["players"]["p1"]["items_used"]
                .to_string()
                .contains("rush")
                || view["players"]["p2"]["items_used"]
                    .to_string()
                    .contains("rush");
            if used_rush {
                return None;
            }
            // Without Survey (card 3) or an item used by `seat` this cycle, it knows nothing
            // beyond the revealed prizes.
            let informed = since.iter().any(|step| {
                step.slot(seat).is_some_and(|m| {
                    m == "use"
                        || m.split_whitespace()
                            .next()
                            .is_some_and(|t| t.trim_end_matches('+') == "3")
                })
            });
            if !informed {
                assert!(
                    upcoming.iter().all(serde_json::Value::is_null),
                    "galespiel: {seat} saw nothing of the cycle but its view shows {upcoming:?}"
                );
            }
            let hidden: Vec<usize> = (0..upcoming.len())
                .filter(|&j| upcoming[j].is_null())
                .map(|j| first_upcoming + j)
                .collect();
            let mut values: Vec<String> = hidden.iter().map(|&k| order[k].clone()).collect();
            values.shuffle(rng);
            let mut redrawn = order.clone();
            for (&k, v) in hidden.iter().zip(values) {
                redrawn[k] = v;
            }
            if redrawn == order {
                return None;
            }
            let mut variant = history.to_vec();
            variant[cycle] = TextStep::chance(redrawn.join(" "));
            Some(variant)
        }
        _ => None,
    }
}

/// The games with hidden information and the option sets they are tried with.
fn hidden_information_games() -> Vec<(&'static GameEntry, Vec<RawOptions>)> {
    registry()
        .iter()
        .filter_map(|entry| {
            let sets: &[&[&str]] = match entry.id {
                "all-in-goofspiel" => &[&[]],
                "galespiel" => &[
                    &[],
                    &["items=crystal-ball"],
                    &["items=elder-tree,crystal-ball"],
                ],
                _ => return None,
            };
            Some((
                entry,
                sets.iter()
                    .map(|pairs| colosseum_engine::parse_pairs(pairs.iter().copied()).unwrap())
                    .collect(),
            ))
        })
        .collect()
}

/// Two states that differ only in what a seat cannot see give that seat (and a spectator)
/// identical views, at random positions reached by random play, for every game with hidden
/// information; the states really differ (someone sees it, or the hidden step does), and each
/// game yields many such pairs.
#[test]
fn hidden_information_never_reaches_the_views_of_those_who_cannot_see_it() {
    let games = hidden_information_games();
    assert_eq!(
        games.len(),
        2,
        "a game with hidden information needs its variant in hidden_variant"
    );
    for (entry, option_sets) in games {
        let mut pairs = 0;
        let mut seen_by_someone = 0;
        for options in &option_sets {
            let seeds = if entry.id == "all-in-goofspiel" {
                200
            } else {
                24
            };
            for seed in 0..seeds {
                let mut rng = seeded_rng(seed);
                let mut game = (entry.create)(options).unwrap();
                let mut history = Vec::new();
                while game.pending() != Pending::Over && history.len() < 400 {
                    let before = game.clone_box();
                    history.push(random_step(game.as_mut(), &mut rng));
                    for seat in Seat::BOTH {
                        let Some(variant) = hidden_variant(
                            entry,
                            before.as_ref(),
                            game.as_ref(),
                            &history,
                            seat,
                            &mut rng,
                        ) else {
                            continue;
                        };
                        assert_ne!(variant, history);
                        let Some(other) = replay_steps(entry, options, &variant) else {
                            panic!("{}: the variant does not replay: {variant:?}", entry.id);
                        };
                        for viewer in [Viewer::Seat(seat), Viewer::Spectator] {
                            assert_eq!(
                                game.view_json(viewer),
                                other.view_json(viewer),
                                "{}: {viewer:?} tells apart states that differ only in what {seat} cannot see\n{history:?}\n{variant:?}",
                                entry.id
                            );
                        }
                        let knower = Viewer::Seat(seat.other());
                        if game.view_json(knower) != other.view_json(knower) {
                            seen_by_someone += 1;
                        }
                        pairs += 1;
                    }
                }
            }
        }
        assert!(pairs >= 100, "{}: only {pairs} pairs of states", entry.id);
        assert!(
            seen_by_someone > 0,
            "{}: the other seat never saw a difference: the variants hide nothing",
            entry.id
        );
    }
}

// ----- the Game contract's other direction: accepted => listed -----

/// Whether `canonical`, accepted in `game`, is a move the game's list may leave out, as its
/// rules page says: The Witch's Brew lists Freezes naming no stone or one; Galespiel's builds list `done` and single spots.
fn may_be_unlisted(game: &dyn AnyGame, canonical: &str) -> bool {
    let tokens: Vec<&str> = canonical.split_whitespace().collect();
    match game.id() {
        "witchs-brew" => {
            let card = tokens.iter().position(|t| *t != "dup");
            card.is_some_and(|i| tokens[i] == "6" && tokens.len() - i > 2)
        }
        "galespiel" => {
            game.decision_kind() == "build"
                && tokens.iter().filter(|t| **t != "emergency").count() > 1
        }
        _ => false,
    }
}

/// Candidate move texts near `legal`: every token alone, every ordered pair of tokens from
/// `vocabulary`, and each legal move with one token replaced, dropped or added.
fn candidates(legal: &[String], vocabulary: &[String], rng: &mut impl Rng) -> Vec<String> {
    let mut out: Vec<String> = vocabulary.to_vec();
    for a in vocabulary {
        for b in vocabulary {
            out.push(format!("{a} {b}"));
        }
    }
    for text in legal.iter().take(60) {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        for i in 0..tokens.len() {
            let mut dropped = tokens.clone();
            dropped.remove(i);
            out.push(dropped.join(" "));
            for _ in 0..6 {
                let mut replaced = tokens.clone();
                replaced[i] = &vocabulary[rng.random_range(0..vocabulary.len())];
                out.push(replaced.join(" "));
            }
        }
        for _ in 0..4 {
            let extra = &vocabulary[rng.random_range(0..vocabulary.len())];
            out.push(format!("{text} {extra}"));
            out.push(format!("{extra} {text}"));
        }
    }
    out
}

/// Perft-style: at random positions of every game that enumerates its moves, every candidate
/// text the game accepts has its canonical form in `legal_moves` (and every listed move is
/// accepted: `check_notation_round_trip`). All-In Goofspiel does not enumerate (its page: a
/// representative subset of its plays) and is left out. The vocabulary (70 tokens drawn at each
/// position checked) is every token any listed or played move has used so far in the game, and
/// the notation pages' tokens: numbers from -5 to 20, cells `a1` to `l12`, the victory
/// conditions and the keywords.
#[test]
fn every_accepted_move_is_listed() {
    let keywords = [
        "pass", "none", "use", "skip", "aid", "dup", "up", "down", "left", "right", "0", "-1", "9",
        "10", "14", "+", "/", "-",
    ];
    for entry in registry().iter().filter(|e| e.id != "all-in-goofspiel") {
        let mut accepted = 0usize;
        for options in option_sets(entry) {
            for seed in 0..3u64 {
                let mut rng = seeded_rng(seed);
                let mut game = (entry.create)(&options).unwrap();
                let mut vocabulary: std::collections::BTreeSet<String> =
                    keywords.iter().map(|t| t.to_string()).collect();
                vocabulary.extend((-5..=20).map(|n: i32| n.to_string()));
                vocabulary
                    .extend(('a'..='l').flat_map(|c| (1..=12).map(move |r| format!("{c}{r}"))));
                vocabulary
                    .extend((1..=3).flat_map(|t| ('A'..='F').map(move |l| format!("{t}{l}"))));
                let mut decisions = 0;
                while game.pending() != Pending::Over && decisions < 300 {
                    decisions += 1;
                    for &seat in game.pending().seats() {
                        let legal = game.legal_moves(seat);
                        if legal.len() > 400 {
                            continue;
                        }
                        for t in legal.iter().flat_map(|m| m.split_whitespace()) {
                            vocabulary.insert(t.to_string());
                        }
                        if !rng.random_bool(0.3) {
                            continue;
                        }
                        let vocabulary: Vec<String> = vocabulary.iter().cloned().collect();
                        let listed: std::collections::HashSet<&String> = legal.iter().collect();
                        let vocabulary = if vocabulary.len() > 70 {
                            let mut v = vocabulary.clone();
                            rand::seq::SliceRandom::shuffle(v.as_mut_slice(), &mut rng);
                            v.truncate(70);
                            v
                        } else {
                            vocabulary
                        };
                        for text in candidates(&legal, &vocabulary, &mut rng) {
                            if let Ok(canonical) = game.check_move(seat, &text) {
                                accepted += 1;
                                assert!(
                                    listed.contains(&canonical) || may_be_unlisted(game.as_ref(), &canonical),
                                    "{}: `{text}` is accepted as `{canonical}` ({} decision of {seat}) but legal_moves does not list it: {legal:?}",
                                    entry.id,
                                    game.decision_kind()
                                );
                            }
                        }
                    }
                    let step = random_step(game.as_mut(), &mut rng);
                    for t in Seat::BOTH
                        .iter()
                        .filter_map(|&s| step.slot(s))
                        .flat_map(str::split_whitespace)
                    {
                        vocabulary.insert(t.to_string());
                    }
                }
            }
        }
        assert!(
            accepted > 100,
            "{}: only {accepted} candidates accepted",
            entry.id
        );
    }
}

/// Every game's clocks are whole: a `*` entry, no kind twice, a `*` that loses only where every
/// kind loses (what the host's time control can say), and every kind listed is one the game
/// really asks for; the rules page shows each listed decision's time.
#[test]
fn every_games_timing_is_whole_and_on_its_rules_page() {
    for entry in registry() {
        let t = &entry.timing;
        assert!(t.decisions.iter().any(|d| d.kind == "*"), "{}", entry.id);
        let mut kinds: Vec<&str> = t.decisions.iter().map(|d| d.kind).collect();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds.len(), t.decisions.len(), "{}: a kind twice", entry.id);
        if t.decision("*").loses {
            assert!(t.decisions.iter().all(|d| d.loses), "{}", entry.id);
        }
        for d in t.decisions {
            assert!(
                d.loses || !d.default.is_empty(),
                "{}: {} has no default",
                entry.id,
                d.kind
            );
            assert!(d.ms >= 1000, "{}", entry.id);
        }
        // The kinds the game asks for, over a few random games.
        let mut seen = std::collections::BTreeSet::new();
        for (seed, options) in
            (0..6).flat_map(|seed| option_sets(entry).into_iter().map(move |o| (seed, o)))
        {
            let mut game = (entry.create)(&options).unwrap();
            let mut rng = seeded_rng(seed);
            while game.pending() != Pending::Over {
                seen.insert(game.decision_kind());
                let mut step = TextStep::default();
                match game.pending() {
                    Pending::Chance => {
                        game.apply_random_chance(&mut rng);
                        continue;
                    }
                    p => {
                        for &seat in p.seats() {
                            let mv = game.random_move(seat, &mut rng);
                            match seat {
                                Seat::P1 => step.p1 = mv,
                                Seat::P2 => step.p2 = mv,
                            }
                        }
                    }
                }
                game.apply(&step).unwrap();
            }
        }
        for d in t.decisions.iter().filter(|d| d.kind != "*") {
            assert!(
                seen.contains(d.kind),
                "{}: no `{}` decision in play",
                entry.id,
                d.kind
            );
        }
        let page = entry.rules_page();
        assert!(page.contains("## Time at the table"), "{}", entry.id);
        for d in t.decisions.iter().filter(|d| !d.what.is_empty()) {
            assert!(
                page.contains(&format!("| {} |", d.what)),
                "{}: {}",
                entry.id,
                d.what
            );
        }
    }
}

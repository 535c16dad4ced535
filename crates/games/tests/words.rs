//! Each game's view in words for chat ([`GameEntry::describe`], [`GameEntry::prompt`]):
//!
//! * a table per game of real positions (random play from a fixed seed) and the words that must
//!   be there, for a seat and for the spectator;
//! * over random play, the words from a seat's view never say what that view hides (All-In
//!   Goofspiel's face-down cards, Galespiel's prize order seen by the other seat), never name a
//!   seat `p1`/`p2`, never say "1 points", keep within the length limit with code blocks closed,
//!   and the prompt is there exactly when the view's seat acts.

use colosseum_engine::{seeded_rng, AnyGame, Pending, RawOptions, Seat, TextStep, Viewer};
use colosseum_games::svg::Names;
use colosseum_games::words::MAX_CHARS;
use colosseum_games::{find, registry};
use proptest::prelude::*;
use serde_json::Value;

/// The game `id` after `steps` random steps from `seed` (chance and moves from one generator).
fn play(id: &str, seed: u64, steps: usize) -> Box<dyn AnyGame> {
    let entry = find(id).unwrap();
    let mut game = (entry.create)(&RawOptions::new()).unwrap();
    let mut rng = seeded_rng(seed);
    for _ in 0..steps {
        step(&mut *game, &mut rng);
    }
    game
}

/// One random step; false once the game is over.
fn step(game: &mut dyn AnyGame, rng: &mut colosseum_engine::SeededRng) -> bool {
    let step = match game.pending() {
        Pending::Over => return false,
        Pending::Chance => {
            game.apply_random_chance(rng);
            return true;
        }
        Pending::Both => TextStep {
            p1: game.random_move(Seat::P1, rng),
            p2: game.random_move(Seat::P2, rng),
            chance: None,
        },
        Pending::One(Seat::P1) => TextStep {
            p1: game.random_move(Seat::P1, rng),
            p2: None,
            chance: None,
        },
        Pending::One(Seat::P2) => TextStep {
            p1: None,
            p2: game.random_move(Seat::P2, rng),
            chance: None,
        },
    };
    game.apply(&step).unwrap();
    true
}

fn names() -> Names {
    Names::new("Ann", "Bea")
}

const P1: Viewer = Viewer::Seat(Seat::P1);
const P2: Viewer = Viewer::Seat(Seat::P2);
const SPECTATOR: Viewer = Viewer::Spectator;

/// (game, steps from seed 7, viewer, what the words must say).
const TABLE: &[(&str, usize, Viewer, &[&str])] = &[
    (
        "goofspiel",
        3,
        P1,
        &[
            "Points: Ann 0 points · Bea 0 points",
            "Prize up now: **4**",
            "Prizes still to come (11): 1 3 5 6 7 8 9 10 11 12 13",
            "Your hand (12 cards): 1 2 4 5 6 7 8 9 10 11 12 13",
            "Bea's hand (12 cards): ",
            "Last prize, 2: Ann played 3, Bea played 3; a tie: nobody takes it.",
            "**Your move:** Bid for the 4-point prize: pick one of your 12 cards.",
        ],
    ),
    (
        "goofspiel",
        25,
        P2,
        &[
            "Your hand (1 card): 11",
            "Ann's hand (1 card): 2",
            "**Your move:** Bid your last card, 11, for the 13-point prize.",
        ],
    ),
    (
        "goofspiel",
        26,
        SPECTATOR,
        &[
            "Points: Ann 35 points · Bea 47 points",
            "Ann's hand: no cards left",
            "**The game is over**: Bea took more points, 47 to 35.",
        ],
    ),
    (
        "square-goofspiel",
        3,
        P1,
        &[
            "Line points: Ann 0 line points · Bea 18 line points",
            "```\n   a  b  c  d  e  f\n1  .  .  D  .  .  O\n2  O  . [C] .  .  .\n3  E  .  .  .  .  .\n",
            "X: Ann's, O: Bea's",
            "Phase 1 of 6; up now: cell **c2**.",
            "Your hand (21 cards, strength 56): 1 1 1 1 1 1 2",
            "Bea's hand (19 cards, strength 47)",
            "Last auction, cell a2 (B): Ann passed, Bea bid 4; Bea wins it.",
            "**Your move:** Bid for cell c2 (auction C of phase 1 of 6): bid one of your 21 cards or pass.",
        ],
    ),
    (
        "square-goofspiel",
        3,
        SPECTATOR,
        &["Now: Ann and Bea decide.", "Ann's hand (21 cards"],
    ),
    (
        "thwart-omega",
        3,
        P2,
        &[
            "Ann (black): score **1** (groups 1 × 1 × 1 × 1 × 1 × 1)",
            "Bea (white): score **1**",
            "```\n  a b c d e f g\n1 . w . w . . b\n2 w b . . w . w\n",
            "3 rounds played, 37 cells empty.",
            "Last round: Ann played B b5 W e6, Bea played B d3 W e2.",
            "**Your move:** Round 4, 37 cells empty: place a black stone and a white stone",
            "(your score is white's groups multiplied)",
        ],
    ),
    (
        "thwart-omega",
        0,
        SPECTATOR,
        &["Ann (black): score **0** (no stones)", "0 rounds played, 49 cells empty."],
    ),
    (
        "all-in-goofspiel",
        0,
        P1,
        &[
            "Points: Ann 0 points · Bea 0 points",
            "Round 1, worth **1 point**: You start, Bea responds.",
            "Your hand (16 cards): -3 -2 -1 0 1 2",
            "**Your move:** Round 1, worth 1 point: you start, face down; put down cards from your 16 cards",
        ],
    ),
    (
        "all-in-goofspiel",
        3,
        P2,
        &[
            "Points: Ann 0 points · Bea 1 point",
            "Round 2, worth **2 points**: You start, Ann responds.",
            "You put down 4 cards face down.",
            "Your cards face down, in order: 12, 2, -1, 3",
            "Ann's hand: no cards left",
            "Bea takes it.",
            "Now: waiting for Ann.",
        ],
    ),
    (
        "all-in-goofspiel",
        3,
        P1,
        &[
            "Round 2, worth **2 points**: Bea starts, you respond.",
            "Bea put down 4 cards face down.",
            "Bea's hand (4 cards): -1 2 3 12",
            "**Your move:** Round 2, worth 2 points: Bea put down 4 cards face down; answer: you have no cards left: pass.",
        ],
    ),
    (
        "galespiel",
        30,
        P1,
        &[
            "Ann (brown, joins left to right): **6 M**, 11 M to join, 11 bridges",
            "Bea (blue, joins top to bottom): **2 M**, 6 M to join, 15 bridges",
            "Prize up now: **6 M**; prizes left this cycle: 3 4 5 5 8.",
            "```\n   a b c d e f g h i j k l m\n 1   O   O   O   O   O   O\n 2 X H X 3 X 2 X 2 X H X 4 X\n",
            "Your cards in hand (7): 1 Scavenge, 2, 3 Survey, 4, 7 Tax, 8, 9 Heavy",
            "Last round, 16 (prize 6 M): Ann bid 6, Bea bid 1; Ann wins.",
            "**Your move:** Build: you have 6 M, 11 M to join; name free spots (each costs its number, 1 to 6 M), or done for none.",
        ],
    ),
    (
        "galespiel",
        39,
        P1,
        &[
            "Bea's cards in hand (3): 4+, 8, 9 Heavy",
            "Ann wins and builds l2 c5 for 5 M.",
            "**Your move:** Your bridges surrounded dots: choose 2 even cards to upgrade",
        ],
    ),
    (
        "galespiel",
        60,
        SPECTATOR,
        &["Now: Ann and Bea decide."],
    ),
    (
        "galespiel",
        60,
        P1,
        &["**Your move:** Bid for the 5 M prize: pick one of your 8 cards (you have 4 M)."],
    ),
    (
        "witchs-brew",
        5,
        P1,
        &[
            "Victory points: Ann 0 VP · Bea 0 VP",
            "The Cauldron, round DM1 (Death Match 1); on offer: 1B or 3B.",
            "Your cards (1): 2 Lock; items: the Duplicard",
            "Last Cauldron round, MM1: Bea won the race",
            "**Your move:** You won the Cauldron race of DM1 (Death Match 1): pick 1B or 3B; Bea gets the other.",
        ],
    ),
    (
        "witchs-brew",
        66,
        P1,
        &[
            "Your cards (13): 1 Snipe ×2, 2 Lock ×2, 3 Guess, 4 Copy, 5 Leap ×2, 6 Freeze ×2, 8 Diminish ×3",
            "Your victory conditions: 1A (five in a row of your or neutral stones); ",
            "Bea's victory conditions: 1E; 1F; 2A; 2F; 3A; 3B; 3D; 3E; 3F",
            "**Your move:** The Intermission: assign each of your 9 victory conditions to round 6, 9 or 12 (at most three a round).",
        ],
    ),
    (
        "witchs-brew",
        68,
        SPECTATOR,
        &[
            "Placement round 1 of 12.",
            "Last placement round, 1: Ann played 4 Copy with the Duplicard (value 4), Bea played 4 Copy with the Duplicard (value 4); Ann wins the round (a tie in round 1: it goes to the advantage holder).",
            "Bea's victory conditions: 1E, round 12; 1F, round 9;",
            "Now: waiting for Ann's stone on an empty cell.",
        ],
    ),
    (
        "witchs-brew",
        68,
        P1,
        &["**Your move:** You won placement round 1: place your stone on an empty cell."],
    ),
    (
        "witchs-brew",
        119,
        P2,
        &[
            "Victory points: Ann 3 VP · Bea 5 VP",
            "Ann's cards (2): 2 Lock, 5 Leap; the next card is 1 lower (Diminish)",
            "Your victory conditions: 1E, round 12: missed;",
            "2F, round 6: met",
            "**The game is over**: Bea wins on victory points, 5 to 3.",
        ],
    ),
];

#[test]
fn each_game_words_its_views() {
    for (id, steps, viewer, expected) in TABLE {
        let game = play(id, 7, *steps);
        let words = (find(id).unwrap().describe)(&game.view_json(*viewer), &names());
        for want in *expected {
            assert!(
                words.contains(want),
                "{id} after {steps} steps, {viewer:?}: missing {want:?} in\n{words}"
            );
        }
    }
}

#[test]
fn every_game_has_words_of_its_own() {
    for entry in registry() {
        let game = play(entry.id, 1, 3);
        let view = game.view_json(Viewer::Spectator);
        let words = (entry.describe)(&view, &names());
        assert!(
            !words.contains("pending:"),
            "{} words its view itself, not the default's fields:\n{words}",
            entry.id
        );
    }
}

#[test]
fn names_are_escaped_for_markdown_outside_code_blocks() {
    let game = play("goofspiel", 7, 3);
    let words =
        (find("goofspiel").unwrap().describe)(&game.view_json(P1), &Names::new("*Ann*", "Bea_x"));
    assert!(words.contains("\\*Ann\\* 0 points"), "{words}");
    assert!(words.contains("Bea\\_x's hand"), "{words}");
}

/// Nouns the words count: "1 point", never "1 points".
const NOUNS: &[&str] = &[
    "point",
    "line point",
    "card",
    "prize",
    "round",
    "cell",
    "bridge",
    "victory condition",
    "even card",
    "dot",
];

/// What must not be in `words`: a seat id as a word, "1 points", an unclosed code block, more
/// than the limit; and the spectator is never "you".
fn check_words(id: &str, viewer: Viewer, words: &str) -> Result<(), String> {
    let fail = |why: &str| Err(format!("{id}, {viewer:?}: {why}:\n{words}"));
    if words.chars().count() > MAX_CHARS {
        return fail("too long");
    }
    if words.matches("```").count() % 2 == 1 {
        return fail("a code block left open");
    }
    let word_chars = |c: char| c.is_alphanumeric() || c == '_';
    for token in words.split(|c: char| !word_chars(c)) {
        if token == "p1" || token == "p2" {
            return fail("a seat id instead of a name");
        }
    }
    for noun in NOUNS {
        let wrong = format!("1 {noun}s");
        for (at, _) in words.match_indices(&wrong) {
            let before = words[..at].chars().last();
            if !before.is_some_and(|c| c.is_ascii_digit() || c == '.' || c == '-') {
                return fail(&format!("\"{wrong}\""));
            }
        }
    }
    if viewer == Viewer::Spectator && (words.contains("Your ") || words.contains("you ")) {
        return fail("the spectator is called you");
    }
    Ok(())
}

/// The secrets a seat's view keeps from the other seat and the spectator, as that seat's own
/// words say them: All-In Goofspiel's face-down cards, Galespiel's prize order as far as the seat
/// knows it.
fn secret_line(words: &str) -> Option<String> {
    words
        .lines()
        .find(|l| {
            l.starts_with("Your cards face down, in order:")
                || l.starts_with("The prizes to come, as you know them:")
        })
        .map(|l| l.split_once(':').map_or(l, |(_, rest)| rest).to_string())
}

/// The games and options the property plays: every game as the seed has it, and the variants
/// that change what the words show (board sizes, items, a small deck).
const CASES: &[(&str, &[&str])] = &[
    ("goofspiel", &[]),
    ("goofspiel", &["cards=3"]),
    ("square-goofspiel", &[]),
    ("square-goofspiel", &["size=3"]),
    ("thwart-omega", &[]),
    ("thwart-omega", &["size=11"]),
    ("thwart-omega", &["size=1"]),
    ("all-in-goofspiel", &[]),
    ("galespiel", &[]),
    ("galespiel", &["items=elder-tree"]),
    ("galespiel", &["size=5", "items=crystal-ball,rush-order"]),
    ("galespiel", &["size=9"]),
    ("witchs-brew", &[]),
    ("witchs-brew", &["discard=both", "tiebreaker=p1"]),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn words_never_tell_what_the_view_hides(seed in any::<u64>(), which in 0usize..CASES.len()) {
        let (id, options) = CASES[which];
        let entry = find(id).unwrap();
        let options = colosseum_engine::parse_pairs(options.iter().copied()).unwrap();
        let mut game = (entry.create)(&options).unwrap();
        let mut rng = seeded_rng(seed);
        let names = names();
        for _ in 0..400 {
            let words: Vec<(Viewer, Value, String)> = [P1, P2, SPECTATOR]
                .into_iter()
                .map(|v| {
                    let view = game.view_json(v);
                    let words = (entry.describe)(&view, &names);
                    (v, view, words)
                })
                .collect();
            for (viewer, view, text) in &words {
                check_words(entry.id, *viewer, text).map_err(TestCaseError::fail)?;
                // The prompt is there exactly when the view's seat acts.
                let acts = match (viewer, game.pending()) {
                    (Viewer::Seat(_), Pending::Both) => true,
                    (Viewer::Seat(s), Pending::One(t)) => *s == t,
                    _ => false,
                };
                let prompt = (entry.prompt)(view, &names);
                prop_assert_eq!(prompt.is_some(), acts, "{} {:?}: {:?}", entry.id, viewer, prompt);
                if let Some(p) = prompt {
                    prop_assert!(text.contains(&p), "{} {:?}: the words hold the prompt", entry.id, viewer);
                }
            }
            // A seat's secret, as its own words say it, is in nobody else's words.
            for (owner, _, text) in &words {
                let Some(secret) = secret_line(text) else { continue };
                for (other, _, other_text) in &words {
                    if other == owner {
                        continue;
                    }
                    let theirs = secret_line(other_text);
                    if theirs.as_deref() == Some(secret.as_str()) {
                        // Both seats know the same (a public reveal, or both used an item).
                        continue;
                    }
                    // A lone number is in every hand, so what is looked for is the secret as a
                    // list of face-down cards or of prizes to come, however it is introduced.
                    let secret = secret.trim();
                    let told = [" in order: ", " as you know them: ", " face down: "]
                        .iter()
                        .any(|label| other_text.contains(&format!("{label}{secret}")));
                    prop_assert!(
                        !told,
                        "{}: {:?}'s secret {:?} is in {:?}'s words:\n{}",
                        entry.id, owner, secret, other, other_text
                    );
                }
            }
            if !step(&mut *game, &mut rng) {
                break;
            }
        }
    }
}

#[test]
fn the_face_down_cards_are_the_starters_alone() {
    // Bea has just put down four cards face down (after three steps from seed 7).
    let game = play("all-in-goofspiel", 7, 3);
    let describe = find("all-in-goofspiel").unwrap().describe;
    let bea = describe(&game.view_json(P2), &names());
    assert!(
        bea.contains("Your cards face down, in order: 12, 2, -1, 3"),
        "{bea}"
    );
    for viewer in [P1, SPECTATOR] {
        let words = describe(&game.view_json(viewer), &names());
        assert!(words.contains("Bea put down 4 cards face down."), "{words}");
        assert!(!words.contains("12, 2, -1, 3"), "{words}");
        assert!(!words.contains("face down, in order"), "{words}");
    }
}

//! The endgame, a variant for research (not in the seed): option `start = endgame` begins the
//! game before Placement round 12 of a fixed seed game, so that only the last round's decisions
//! are left (two cards each to choose from, then three stones on the nine empty cells) and the
//! tree is small enough for tabular CFR (docs/openspiel.md).
//!
//! The position is reached by construction: [`WitchsBrew::endgame`] plays the fixed record below
//! from the start of a game with the seed's options, through [`Game::apply`], every step checked
//! by the seed rules: the 22 Cauldron rounds (prize pairs, races, picks), the Intermission, and
//! Placement rounds 1 to 11. The rules page ("The endgame (for research)") shows the position.

use super::*;

/// The Cauldron's 13 card pairs in schedule order: `p1`'s card, then `p2`'s. The race is won by
/// `p1` in odd rounds and by `p2` in even ones; the winner picks its own card, so `p1` ends with
/// 1 1 2 2 3 3 4 5 6 6 7 8 8 and `p2` with 1 2 3 4 4 5 5 6 6 7 7 8 8 (the whole deck).
const CARD_PAIRS: [(u8, u8); 13] = [
    (1, 1),
    (1, 2),
    (2, 3),
    (2, 4),
    (3, 4),
    (3, 5),
    (4, 5),
    (5, 6),
    (6, 6),
    (6, 7),
    (7, 7),
    (8, 8),
    (8, 8),
];

/// The Cauldron's 9 condition pairs in schedule order: `p1`'s, then `p2`'s (all 18 handed out).
const CONDITION_PAIRS: [(&str, &str); 9] = [
    ("1A", "1B"),
    ("1C", "1D"),
    ("1E", "1F"),
    ("2A", "2B"),
    ("2C", "2D"),
    ("2E", "2F"),
    ("3A", "3B"),
    ("3C", "3D"),
    ("3E", "3F"),
];

/// The Intermission's assignments (rounds 6 / 9 / 12).
const ASSIGNMENTS: [&str; 2] = [
    "1A 1C 1E / 2C 2E 3A / 2A 3C 3E",
    "1B 1D 1F / 2D 2F 3B / 2B 3D 3F",
];

/// Placement rounds 1 to 11: `p1`'s play, `p2`'s play, then the cells of `p1`'s stone, `p2`'s
/// stone and the round's gray stone. The winner is the seed rules' (the engine places the stones
/// in the seed's order: winner, loser, gray); a Leap or Shift passes; a Lock names the column of
/// the opponent's stone; a Guess names 8 (no 8 is played before round 12).
pub const PLACEMENT: [(&str, &str, &str, &str, &str); 11] = [
    ("6", "5", "a1", "b1", "c1"),
    ("2 e", "dup 6", "d1", "e2", "g1"),
    ("5", "7", "b2", "a2", "d2"),
    ("dup 3 8", "1", "e1", "c2", "g2"),
    ("3 8", "2 f", "f1", "f2", "b3"),
    ("4", "4", "c3", "a3", "e3"),
    ("6", "3 8", "f3", "d3", "g3"),
    ("1", "6", "a4", "f4", "b5"),
    ("2 e", "7", "b4", "e5", "c5"),
    ("3 8", "5", "c4", "f5", "b6"),
    ("7", "6", "d6", "e6", "a6"),
];

impl WitchsBrew {
    /// The endgame position (option `start = endgame`): the fixed seed game above played up to
    /// the start of Placement round 12 with `options` (the seed's, but for `start`, and
    /// `advantage` and `tiebreaker`, which the record does not depend on).
    ///
    /// # Panics
    ///
    /// If a step of the fixed record is refused: the options differ from the seed's in a way
    /// that changes the record's play (the options check refuses those).
    #[must_use]
    pub fn endgame(options: WitchsBrewOptions) -> WitchsBrew {
        let mut game = WitchsBrew::new(WitchsBrewOptions {
            start: Start::Seed,
            ..options
        });
        let step = |game: &mut WitchsBrew, step: Step<Move, Chance>| {
            let what = format!("{step:?}");
            game.apply(step)
                .unwrap_or_else(|e| panic!("the endgame's record refused {what}: {e}"));
        };
        let (mut cards, mut conditions) = (0, 0);
        for (i, round) in options.schedule.rounds().iter().enumerate() {
            // The pair, and each seat's prize in it.
            let (pair, prizes) = if round.kind.gives_cards() {
                let (a, b) = CARD_PAIRS[cards];
                cards += 1;
                (
                    Chance::Cards(a.min(b), a.max(b)),
                    [Prize::Card(a), Prize::Card(b)],
                )
            } else {
                let (a, b) = CONDITION_PAIRS[conditions];
                conditions += 1;
                let (a, b) = (
                    Condition::parse(a).expect("a condition"),
                    Condition::parse(b).expect("a condition"),
                );
                (
                    Chance::Conditions(a.min(b), a.max(b)),
                    [Prize::Condition(a), Prize::Condition(b)],
                )
            };
            step(&mut game, Step::Chance(pair));
            let winner = if i % 2 == 0 { Seat::P1 } else { Seat::P2 };
            step(&mut game, Step::Chance(Chance::Race(Some(winner))));
            step(
                &mut game,
                Step::One {
                    seat: winner,
                    mv: Move::Pick(prizes[winner.index()]),
                },
            );
        }
        let assign = |text: &str| Move::Assign(parse_assignment(text).expect("an assignment"));
        step(
            &mut game,
            Step::Both {
                p1: assign(ASSIGNMENTS[0]),
                p2: assign(ASSIGNMENTS[1]),
            },
        );
        for (p1, p2, x, o, gray) in PLACEMENT {
            let play = |game: &WitchsBrew, seat: Seat, text: &str| {
                game.parse_move(seat, text)
                    .unwrap_or_else(|e| panic!("the endgame's record: {e}"))
            };
            let both = Step::Both {
                p1: play(&game, Seat::P1, p1),
                p2: play(&game, Seat::P2, p2),
            };
            step(&mut game, both);
            let winner = game.last_round().expect("a round in play").winner;
            let cell =
                |seat: Seat| Cell::parse(if seat == Seat::P1 { x } else { o }).expect("a cell");
            for seat in [winner, winner.other()] {
                step(
                    &mut game,
                    Step::One {
                        seat,
                        mv: Move::Stone(cell(seat)),
                    },
                );
                if matches!(game.stage, Stage::WinnerMove | Stage::LoserMove) {
                    let pass = if game.mover_card() == LEAP {
                        Move::Leap(None)
                    } else {
                        Move::Shift(None)
                    };
                    step(&mut game, Step::One { seat, mv: pass });
                }
            }
            step(
                &mut game,
                Step::One {
                    seat: winner,
                    mv: Move::Stone(Cell::parse(gray).expect("a cell")),
                },
            );
        }
        game.options.start = Start::Endgame;
        game
    }
}

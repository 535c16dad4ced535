//! Square Goofspiel's own properties, on random games through the typed and the text interfaces:
//!
//! * every game auctions each of the 36 cells exactly once, six per phase, and the board holds
//!   exactly the cells whose auction had a higher bid;
//! * cards enter and leave the hands only as the rules say: a bid card leaves its hand, and at a
//!   phase's end a seat that claimed `n > 0` cells receives one card of strength `n`;
//! * no view ever contains a bid before it is revealed: checking any submission changes no view,
//!   and seats and spectators see the same (all information in this game is public);
//! * the seed example's record replays to the seed's result.

use colosseum_engine::{
    random_playout, seeded_rng, AnyGame, Erased, Game, Pending, Record, Seat, Step, Viewer,
};
use colosseum_games::replay_record;
use colosseum_games::square_goofspiel::{
    Bid, Cell, Hand, SquareGoofspiel, SquareGoofspielOptions, AUCTIONS_PER_PHASE, CELLS, PHASES,
};
use proptest::prelude::*;

fn new_game() -> SquareGoofspiel {
    SquareGoofspiel::new(SquareGoofspielOptions::default())
}

fn counts(hand: Hand) -> [i32; 6] {
    hand.counts().map(i32::from)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_cell_is_auctioned_exactly_once(seed in any::<u64>()) {
        let mut game = new_game();
        let mut rng = seeded_rng(seed);
        let decisions = random_playout(&mut game, &mut rng);
        prop_assert_eq!(decisions, PHASES + CELLS);
        let mut order = game.auction_order().to_vec();
        prop_assert_eq!(order.len(), CELLS);
        order.sort();
        order.dedup();
        prop_assert_eq!(order, Cell::all().collect::<Vec<_>>());
        let auctions: Vec<_> = game.auctions().collect();
        prop_assert_eq!(auctions.len(), CELLS);
        for (i, a) in auctions.iter().enumerate() {
            prop_assert_eq!(usize::from(a.phase), i / AUCTIONS_PER_PHASE + 1);
            prop_assert_eq!(game.board().owner(a.cell), a.winner, "{:?}", a);
        }
    }

    #[test]
    fn cards_change_only_as_the_rules_say(seed in any::<u64>()) {
        let mut game = new_game();
        let mut rng = seeded_rng(seed);
        let mut claimed = [0u8; 2];
        prop_assert_eq!(game.hand(Seat::P1), Hand::START);
        prop_assert_eq!(game.hand(Seat::P2), Hand::START);
        loop {
            let before = [game.hand(Seat::P1), game.hand(Seat::P2)];
            match game.pending() {
                Pending::Over => break,
                Pending::Chance => {
                    let draw = game.sample_chance(&mut rng).unwrap();
                    game.apply(Step::Chance(draw)).unwrap();
                    prop_assert_eq!([game.hand(Seat::P1), game.hand(Seat::P2)], before);
                    claimed = [0, 0];
                }
                Pending::Both | Pending::One(_) => {
                    let bids = [
                        game.random_move(Seat::P1, &mut rng).unwrap(),
                        game.random_move(Seat::P2, &mut rng).unwrap(),
                    ];
                    game.apply(Step::Both { p1: bids[0], p2: bids[1] }).unwrap();
                    if bids[0] > bids[1] {
                        claimed[0] += 1;
                    } else if bids[1] > bids[0] {
                        claimed[1] += 1;
                    }
                    let phase_over = game.auctions_done() == game.auction_order().len();
                    for seat in Seat::BOTH {
                        let i = seat.index();
                        let mut expected = counts(before[i]);
                        if !bids[i].is_pass() {
                            expected[usize::from(bids[i].value() - 1)] -= 1;
                        }
                        if phase_over && claimed[i] > 0 {
                            expected[usize::from(claimed[i] - 1)] += 1;
                        }
                        prop_assert_eq!(counts(game.hand(seat)), expected, "{} after {:?}", seat, bids);
                        prop_assert!(expected.iter().all(|&n| n >= 0));
                    }
                    prop_assert_eq!(game.claimed_this_phase(), claimed);
                }
            }
        }
        // Cards in play: 21 each at the start, plus one per phase with a claim, minus cards bid.
        for seat in Seat::BOTH {
            let played = game
                .auctions()
                .filter(|a| !if seat == Seat::P1 { a.p1 } else { a.p2 }.is_pass())
                .count() as i64;
            let received = (0..PHASES)
                .filter(|&p| {
                    game.auctions()
                        .skip(p * AUCTIONS_PER_PHASE)
                        .take(AUCTIONS_PER_PHASE)
                        .any(|a| a.winner == Some(seat))
                })
                .count() as i64;
            prop_assert_eq!(i64::from(game.hand(seat).len()), 21 + received - played);
        }
    }

    #[test]
    fn views_never_contain_a_bid_before_its_reveal(seed in any::<u64>(), stop in 0usize..42) {
        let mut game = Erased(new_game());
        let mut rng = seeded_rng(seed);
        for _ in 0..stop {
            match game.pending() {
                Pending::Over => break,
                Pending::Chance => {
                    game.apply_random_chance(&mut rng);
                }
                _ => {
                    let p1 = game.0.random_move(Seat::P1, &mut rng).unwrap();
                    let p2 = game.0.random_move(Seat::P2, &mut rng).unwrap();
                    game.0.apply(Step::Both { p1, p2 }).unwrap();
                }
            }
        }
        let views = |g: &Erased<SquareGoofspiel>| {
            [Viewer::Seat(Seat::P1), Viewer::Seat(Seat::P2), Viewer::Spectator].map(|v| {
                let mut json = g.view_json(v);
                json.as_object_mut().unwrap().remove("viewer");
                (json.to_string(), g.render(v).replace(" (you)", ""))
            })
        };
        let before = views(&game);
        // Everything is public: all viewers see the same.
        prop_assert_eq!(&before[0], &before[2]);
        prop_assert_eq!(&before[1], &before[2]);
        // Checking every possible submission (as a host does when it arrives) changes nothing.
        for seat in game.pending().seats() {
            for text in ["pass", "1", "2", "3", "4", "5", "6"] {
                let _ = game.check_move(*seat, text);
            }
        }
        prop_assert_eq!(views(&game), before);
        // After a reveal, the bids are in the history and nowhere else.
        if game.pending() == Pending::Both {
            let p1 = game.0.random_move(Seat::P1, &mut rng).unwrap();
            let p2 = game.0.random_move(Seat::P2, &mut rng).unwrap();
            let done = game.0.auctions_done();
            game.0.apply(Step::Both { p1, p2 }).unwrap();
            let last = game.0.auctions().last().unwrap();
            prop_assert_eq!((last.p1, last.p2), (p1, p2));
            prop_assert_eq!(game.0.auctions_done(), done + 1);
        }
    }
}

#[test]
fn the_seed_example_record_replays_to_the_seeds_result() {
    let text = include_str!("data/square-goofspiel-seed-example.json");
    let record = Record::from_json(text).unwrap();
    let replayed = replay_record(&record).unwrap().unwrap();
    let game: &dyn AnyGame = replayed.game.as_ref();
    assert_eq!(game.pending(), Pending::Over);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Seat::P2));
    let score = game.score();
    assert_eq!((score.p1, score.p2), (21.into(), 21.into()));
    assert_eq!(
        score.details["hand_strength"],
        serde_json::json!({"p1": 3, "p2": 4})
    );
}

#[test]
fn a_bid_card_must_be_held() {
    // Spend p1's only 6, then try it again: refused with the hand shown, nothing changes.
    let mut game = new_game();
    let mut rng = seeded_rng(1);
    let draw = game.sample_chance(&mut rng).unwrap();
    game.apply(Step::Chance(draw)).unwrap();
    let six = Bid::card(6).unwrap();
    game.apply(Step::Both {
        p1: six,
        p2: Bid::PASS,
    })
    .unwrap();
    let e = game.check_move(Seat::P1, &six).unwrap_err();
    assert!(e
        .reason
        .starts_with("you have no 6 left; your hand is 1 1 1"));
    assert!(game.check_move(Seat::P2, &six).is_ok());
}

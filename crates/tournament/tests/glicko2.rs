//! Glicko-2 against the worked example of Glickman's paper ("Example of the Glicko-2 system",
//! the example calculation): a player rated 1500, RD 200, σ 0.06 beats a 1400 (RD 30) and loses
//! to a 1550 (RD 100) and a 1700 (RD 300) in one rating period, τ = 0.5. The paper's answer:
//! rating 1464.06, RD 151.52, σ 0.05999.

use colosseum_tournament::rating::{rate_game, rate_period, Rating, Score, TAU};
use colosseum_tournament::Outcome;

#[test]
fn glickmans_example_calculation() {
    assert!(
        (TAU - 0.5).abs() < f64::EPSILON,
        "the paper's example uses τ = 0.5"
    );
    let player = Rating::new(1500.0, 200.0, 0.06);
    let games = [
        (Rating::new(1400.0, 30.0, 0.06), Score::Win),
        (Rating::new(1550.0, 100.0, 0.06), Score::Loss),
        (Rating::new(1700.0, 300.0, 0.06), Score::Loss),
    ];
    let after = rate_period(player, &games);
    // The paper prints two decimals (σ five) and rounds its intermediate steps: unrounded, the
    // rating is 1464.0507 and σ 0.059996, within 0.01 and 0.00001 of the paper's numbers.
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.deviation - 151.52).abs() < 0.005, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
}

#[test]
fn a_game_is_one_period_for_each_player() {
    // The server's path: one game, each player rated against the other's rating before it.
    let a = Rating::new(1500.0, 200.0, 0.06);
    let b = Rating::new(1400.0, 30.0, 0.06);
    let [a2, b2] = rate_game([a, b], Outcome::P1);
    assert_eq!(a2, rate_period(a, &[(b, Score::Win)]));
    assert_eq!(b2, rate_period(b, &[(a, Score::Loss)]));
    // The favourite losing moves further than the favourite winning.
    let [b3, _] = rate_game([b, a], Outcome::P2);
    assert!(1400.0 - b3.rating > b2.rating - 1400.0 || b2.rating < 1400.0);
    // No games: nothing changes.
    assert_eq!(rate_period(a, &[]), a);
}

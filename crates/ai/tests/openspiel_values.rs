//! The exact values that `tests/openspiel/test_package.py` puts beside OpenSpiel's CFR on the
//! package's small variants: Colosseum's own solver on the same games. CFR's average policy must
//! earn within its NashConv of these values (docs/openspiel.md).

use colosseum_ai::solver::{solve_endgame, square_goofspiel_key, GoofspielWinLoss};
use colosseum_games::square_goofspiel::SquareGoofspiel;
use colosseum_games::thwart_omega::{Advantage, ThwartOmega, ThwartOmegaOptions};

/// Thwart Omega on a 2×2 board: exact value for `p1` on OpenSpiel's ±1 scale, as
/// test_package.py states it, with the default advantage (`p1`) and with `advantage = none`.
const THWART_OMEGA_2X2: [(Advantage, f64); 2] = [(Advantage::P1, 1.0), (Advantage::None, 0.0)];

#[test]
fn thwart_omega_2x2_exact_value() {
    for (advantage, expected) in THWART_OMEGA_2X2 {
        let game = ThwartOmega::new(ThwartOmegaOptions { size: 2, advantage });
        let solved = solve_endgame(&game, &|g: &ThwartOmega| g.rows(), 10_000).expect("solvable");
        let value = 2.0 * solved.value - 1.0;
        println!(
            "Thwart Omega 2x2, advantage {advantage:?}: value {value} for p1 (±1 scale), {} \
             positions",
            solved.nodes
        );
        assert!((value - expected).abs() < 1e-9, "{advantage:?}: {value}");
    }
}

#[test]
fn goofspiel_4_descending_win_loss_exact_value() {
    let mut solved = GoofspielWinLoss::solve(4, false).expect("solvable");
    let full = (1 << 4) - 1;
    let value = 2.0 * solved.value(full, full, 0).expect("solved") - 1.0;
    println!("Goofspiel 4 descending, win/loss: value {value} for p1 (±1 scale)");
    assert!(value.abs() < 1e-9, "{value}");
}

/// Square Goofspiel's small variant for research, `size = 2` with `draw = fixed` (no chance):
/// exact value for `p1` on OpenSpiel's ±1 scale, as test_package.py states it, with the default
/// advantage (`p1`) and with `advantage = none`.
const SQUARE_GOOFSPIEL_2_FIXED: [(&str, f64); 2] = [("p1", SQUARE_P1), ("none", SQUARE_NONE)];
const SQUARE_P1: f64 = 3.0 / 7.0;
const SQUARE_NONE: f64 = 0.0;

#[test]
fn square_goofspiel_size_2_fixed_draw_exact_value() {
    for (advantage, expected) in SQUARE_GOOFSPIEL_2_FIXED {
        let options = serde_json::json!({"size": 2, "draw": "fixed", "advantage": advantage});
        let game = SquareGoofspiel::from_raw(options.as_object().unwrap()).unwrap();
        let solved = solve_endgame(&game, &square_goofspiel_key, 100_000).expect("solvable");
        let value = 2.0 * solved.value - 1.0;
        println!(
            "Square Goofspiel size 2, fixed draw, advantage {advantage}: value {value} for p1 \
             (±1 scale), {} positions",
            solved.nodes
        );
        assert!((value - expected).abs() < 1e-9, "{advantage}: {value}");
    }
}

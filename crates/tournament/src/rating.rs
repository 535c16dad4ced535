//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"), computed by the maintained
//! `skillratings` crate; this module only fixes the system's constants and the rating period.
//!
//! **Rating periods.** Colosseum rates a game as soon as it ends: each rated game is one rating
//! period for each of its two players, rated against the other's rating from before the game
//! ([`rate_game`]). A tournament round is therefore one period too (every player plays at most
//! one game a round, against ratings from before the round's results came in, except that a
//! game that ends later in the round meets ratings that earlier games of the round changed).
//! No period passes without games: a deviation does not grow while a player is idle.
//! [`rate_period`] takes a whole period (several games), as the paper's example does.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::Outcome;

/// The system constant τ (the paper's example uses 0.5; Glickman suggests 0.3 to 1.2).
pub const TAU: f64 = 0.5;

/// A player's Glicko-2 rating, on the Glicko scale (1500 and 350 for a newcomer).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    /// The volatility σ.
    pub volatility: f64,
}

impl Default for Rating {
    /// A newcomer: 1500, RD 350, σ 0.06.
    fn default() -> Self {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

impl Rating {
    /// A rating from its three numbers.
    #[must_use]
    pub fn new(rating: f64, deviation: f64, volatility: f64) -> Self {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    fn to_lib(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_lib(r: Glicko2Rating) -> Self {
        Rating::new(r.rating, r.deviation, r.volatility)
    }
}

/// A player's score in one game: 1 a win, ½ a draw, 0 a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Score {
    fn to_lib(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }

    /// Seat `p1`'s and seat `p2`'s scores in a game with `outcome`.
    #[must_use]
    pub fn of(outcome: Outcome) -> [Score; 2] {
        match outcome {
            Outcome::P1 => [Score::Win, Score::Loss],
            Outcome::P2 => [Score::Loss, Score::Win],
            Outcome::Draw => [Score::Draw, Score::Draw],
        }
    }
}

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// `player`'s rating after one rating period of `games` (each opponent's rating at the start of
/// the period and `player`'s score). A period without games leaves the rating as it is (no
/// deviation growth: Colosseum has no idle periods).
#[must_use]
pub fn rate_period(player: Rating, games: &[(Rating, Score)]) -> Rating {
    if games.is_empty() {
        return player;
    }
    let results: Vec<(Glicko2Rating, Outcomes)> = games
        .iter()
        .map(|(r, s)| (r.to_lib(), s.to_lib()))
        .collect();
    Rating::from_lib(glicko2_rating_period(&player.to_lib(), &results, &config()))
}

/// Both players' ratings after one game between them (`ratings` by seat, `outcome` the game's):
/// one rating period each, against the other's rating from before the game.
#[must_use]
pub fn rate_game(ratings: [Rating; 2], outcome: Outcome) -> [Rating; 2] {
    let [s1, s2] = Score::of(outcome);
    [
        rate_period(ratings[0], &[(ratings[1], s1)]),
        rate_period(ratings[1], &[(ratings[0], s2)]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_game_moves_both_players_the_opposite_way() {
        let [a, b] = rate_game([Rating::default(), Rating::default()], Outcome::P1);
        assert!(a.rating > 1500.0 && b.rating < 1500.0, "{a:?} {b:?}");
        assert!((a.rating - 1500.0 + (b.rating - 1500.0)).abs() < 1e-9);
        assert!(a.deviation < 350.0 && b.deviation < 350.0);
        let [c, d] = rate_game([Rating::default(), Rating::default()], Outcome::Draw);
        assert!((c.rating - 1500.0).abs() < 1e-9 && (d.rating - 1500.0).abs() < 1e-9);
    }
}

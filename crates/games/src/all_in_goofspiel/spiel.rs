//! All-In Goofspiel in OpenSpiel ([`crate::spiel`]), an abstraction: 0 is `pass`, `c + 4` plays
//! the single card `c` (-3..12), 17 the largest number the hand's non-negative cards make, 18
//! the whole hand ordered for the largest number (the game's own representative subset,
//! [`Game::legal_moves`]; the full space is every ordered list of distinct cards). No chance.

use super::*;
use crate::spiel::{Encoded, SpielInfo};

impl Encoded for AllInGoofspiel {
    fn spiel_info(&self) -> SpielInfo {
        crate::spiel::win_loss(SpielInfo {
            num_distinct_actions: 19,
            max_game_length: 2 * MAX_ROUNDS,
            hidden: true,
            ..crate::spiel::base(
                "0 pass, c + 4 the single card c (-3..12), 17 the largest number of the \
                 non-negative cards, 18 the whole hand ordered for the largest number",
            )
        })
    }

    fn action_id(&self, _seat: Seat, play: &Play) -> Option<i64> {
        let cards = play.cards();
        Some(match cards {
            [] => 0,
            [c] => i64::from(*c) + 4,
            _ if cards.iter().any(|&c| c < 0) => 18,
            _ => 17,
        })
    }

    fn action_name(&self, id: i64) -> String {
        match id {
            0 => "pass".into(),
            1..=16 => (id - 4).to_string(),
            17 => "largest number of the non-negative cards".into(),
            18 => "whole hand".into(),
            _ => format!("action {id}"),
        }
    }
}

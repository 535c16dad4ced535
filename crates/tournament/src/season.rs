//! A season as pure data: a roster of players who keep their identity across tournaments and
//! rated casual matches, and their Glicko-2 rating in each game ([`crate::rating`]).
//!
//! A season is its [`SeasonConfig`] and an append-only log of [`SeasonEvent`]s; its state is
//! the events applied in order ([`Season::apply`], or [`Fold::fold`] from the stored texts). A
//! rating change is an event holding the ratings before and after, so a stored rating never
//! changes when the rating code does.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::fold::Fold;
use crate::rating::{rate_game, Rating};
use crate::same_secret;
use crate::Outcome;

/// A season's fixed settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeasonConfig {
    /// The id (public).
    pub id: String,
    /// The name.
    pub name: String,
    /// The host's token.
    pub admin_token: String,
    /// When it was created (ms since the Unix epoch).
    pub created_at: u64,
}

/// A player of the roster. Their id is their place in the roster (0, 1, ...), which never
/// changes; their token is their personal season link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeasonPlayer {
    /// The display name (unique in the season, ignoring case).
    pub name: String,
    /// The personal token.
    pub token: String,
}

/// A roster player's id.
pub type SeasonPlayerId = usize;

/// One thing that happened to a season. The log of these is the season.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SeasonEvent {
    /// A player joined the roster.
    PlayerAdded {
        /// When (ms since the Unix epoch).
        at: u64,
        /// Who.
        player: SeasonPlayer,
    },
    /// A tournament of the season was created.
    TournamentAdded {
        /// When.
        at: u64,
        /// The tournament's id.
        id: String,
        /// Its name.
        name: String,
    },
    /// A rated casual match was created.
    MatchCreated {
        /// When.
        at: u64,
        /// The match id.
        id: String,
        /// The game.
        game: String,
        /// The roster players in seats `p1` and `p2`.
        players: [SeasonPlayerId; 2],
        /// The seats' tokens.
        tokens: [Option<String>; 2],
    },
    /// A game was rated.
    Rated {
        /// When.
        at: u64,
        /// The game's key (`t:TOURNAMENT:ROUND:BOARD` or `m:MATCH`).
        key: String,
        /// The game's registry id.
        game: String,
        /// The roster players in seats `p1` and `p2`.
        players: [SeasonPlayerId; 2],
        /// The result.
        outcome: Outcome,
        /// Their ratings before.
        before: [Rating; 2],
        /// Their ratings after.
        after: [Rating; 2],
    },
    /// A rated casual match ended without a result (it expired with a seat empty).
    Unrated {
        /// When.
        at: u64,
        /// The game's key.
        key: String,
        /// Why.
        reason: String,
    },
}

/// A player's standing in one game of the season.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct RatingRow {
    /// The rating now.
    pub rating: Rating,
    /// Rated games.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// A rated casual match as the season follows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedMatch {
    /// The match id.
    pub id: String,
    /// The game.
    pub game: String,
    /// The roster players by seat.
    pub players: [SeasonPlayerId; 2],
    /// The seats' tokens.
    pub tokens: [Option<String>; 2],
    /// Its result once rated (`p1`, `p2`, `draw`) or why it was not.
    pub done: Option<String>,
}

/// A season's state: the configuration and the events applied.
#[derive(Clone, Debug)]
pub struct Season {
    /// The settings.
    pub config: SeasonConfig,
    /// The roster.
    pub players: Vec<SeasonPlayer>,
    /// Each game's ratings, by roster player (only players with a rated game in it).
    pub ratings: BTreeMap<String, BTreeMap<SeasonPlayerId, RatingRow>>,
    /// The tournaments, oldest first: id and name.
    pub tournaments: Vec<(String, String)>,
    /// The rated casual matches, oldest first.
    pub matches: Vec<RatedMatch>,
    /// The keys of the games rated (or set aside).
    pub rated: HashSet<String>,
    /// How many events are stored.
    pub stored: usize,
}

impl Season {
    /// A season with no events.
    #[must_use]
    pub fn new(config: SeasonConfig) -> Self {
        Season {
            config,
            players: Vec::new(),
            ratings: BTreeMap::new(),
            tournaments: Vec::new(),
            matches: Vec::new(),
            rated: HashSet::new(),
            stored: 0,
        }
    }

    /// Applies one event; a stored event that does not fit is an error.
    pub fn apply(&mut self, event: &SeasonEvent) -> Result<(), String> {
        match event {
            SeasonEvent::PlayerAdded { player, .. } => self.players.push(player.clone()),
            SeasonEvent::TournamentAdded { id, name, .. } => {
                self.tournaments.push((id.clone(), name.clone()));
            }
            SeasonEvent::MatchCreated {
                id,
                game,
                players,
                tokens,
                ..
            } => self.matches.push(RatedMatch {
                id: id.clone(),
                game: game.clone(),
                players: *players,
                tokens: tokens.clone(),
                done: None,
            }),
            SeasonEvent::Rated {
                key,
                game,
                players,
                outcome,
                after,
                ..
            } => {
                if players.iter().any(|&p| p >= self.players.len()) || players[0] == players[1] {
                    return Err(format!("rated game {key}: no such pair of players"));
                }
                let table = self.ratings.entry(game.clone()).or_default();
                for (i, p) in players.iter().enumerate() {
                    let row = table.entry(*p).or_default();
                    row.rating = after[i];
                    row.games += 1;
                    match (outcome, i) {
                        (Outcome::Draw, _) => row.draws += 1,
                        (Outcome::P1, 0) | (Outcome::P2, 1) => row.wins += 1,
                        _ => row.losses += 1,
                    }
                }
                self.rated.insert(key.clone());
                self.finish_match(key, outcome_str(*outcome));
            }
            SeasonEvent::Unrated { key, reason, .. } => {
                self.rated.insert(key.clone());
                self.finish_match(key, reason);
            }
        }
        self.stored += 1;
        Ok(())
    }

    fn finish_match(&mut self, key: &str, done: &str) {
        if let Some(id) = key.strip_prefix("m:") {
            if let Some(m) = self.matches.iter_mut().find(|m| m.id == id) {
                m.done = Some(done.to_string());
            }
        }
    }

    /// A roster player's rating in `game` (a newcomer's if they have no rated game in it).
    #[must_use]
    pub fn rating(&self, game: &str, player: SeasonPlayerId) -> Rating {
        self.ratings
            .get(game)
            .and_then(|t| t.get(&player))
            .map(|r| r.rating)
            .unwrap_or_default()
    }

    /// The roster player whose personal token is `token`.
    #[must_use]
    pub fn player_of(&self, token: &str) -> Option<SeasonPlayerId> {
        self.players
            .iter()
            .position(|p| same_secret(&p.token, token))
    }

    /// Whether `token` is the host's.
    #[must_use]
    pub fn is_admin(&self, token: &str) -> bool {
        same_secret(&self.config.admin_token, token)
    }

    /// The event rating game `key` (`None` if it is rated already).
    #[must_use]
    pub fn rate_event(
        &self,
        at: u64,
        key: &str,
        game: &str,
        players: [SeasonPlayerId; 2],
        outcome: Outcome,
    ) -> Option<SeasonEvent> {
        if self.rated.contains(key) {
            return None;
        }
        let before = players.map(|p| self.rating(game, p));
        Some(SeasonEvent::Rated {
            at,
            key: key.to_string(),
            game: game.to_string(),
            players,
            outcome,
            before,
            after: rate_game(before, outcome),
        })
    }
}

/// An outcome as the season's pages and records word it: `p1`, `p2` or `draw`.
#[must_use]
pub fn outcome_str(o: Outcome) -> &'static str {
    match o {
        Outcome::P1 => "p1",
        Outcome::P2 => "p2",
        Outcome::Draw => "draw",
    }
}

impl Fold for Season {
    type Config = SeasonConfig;
    type Event = SeasonEvent;

    fn start(config: SeasonConfig) -> Self {
        Season::new(config)
    }

    fn apply_event(&mut self, event: &SeasonEvent) -> Result<(), String> {
        self.apply(event)
    }
}

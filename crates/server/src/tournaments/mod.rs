//! Tournaments on the server: players, rounds of matches, standings and the host's powers.
//!
//! A tournament is stored like a match: its [`TournamentConfig`] (one row) and an append-only
//! log of [`Event`]s. Its state is the events applied in order ([`Tournament::apply`]; loaded
//! with `colosseum_tournament::fold::Fold::fold`), so a restart loses nothing that was stored,
//! and an event is stored before anyone is told. The state, its events and the driver's
//! decision ([`Tournament::next_step`]) are `colosseum_tournament::tournament`'s pure code;
//! this module is the service around them: `run` (loading and the driver task), `create`,
//! `host` (the host's powers), `discord`, `view` (pages and CSV), `posts` (webhooks).
//!
//! Each tournament that is not over has a *driver* task: it creates the matches of the round
//! (through [`Hub::create`], like any match, with the tournament's id recorded), records each
//! match's result when it ends, forfeits a seat that has not joined within the no-show time,
//! and pairs the next round when the last one is complete (or when the host says so). The
//! driver polls its matches (a few a second); a host action wakes it at once.
//!
//! The advantage: in each pairing the player with more garnets holds the game's DM advantage
//! through the game's registry hook ([`colosseum_games::GameEntry::advantage`]) and the match's
//! own `advantage` (a second drawn replay); this module names no game.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use colosseum_engine::{RawOptions, Seat};
use colosseum_host::{Player, TimeControl};
use colosseum_tournament::fold::Fold;
use colosseum_tournament::season::outcome_str;
pub use colosseum_tournament::tournament::{
    standings_csv, status, Board, DiscordRoom, Entrant, Former, GameChoice, GamePick, How,
    MatchSeen, RoundState, Step,
};
use colosseum_tournament::{same_secret, Bracket, Format, Outcome, PlayerId};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Notify;

use crate::error::{internal, ApiError, ErrorCode};
use crate::hub::{check_name, CreateMatch, HostPower, Hub, Table};
use crate::store::Store;
use crate::webhooks::{Post, WebhookConfig};

mod create;
mod discord;
mod host;
mod posts;
mod run;
mod view;

/// A tournament's fixed settings, with the server's chat webhook
/// ([`colosseum_tournament::tournament::TournamentConfig`]).
pub type TournamentConfig = colosseum_tournament::tournament::TournamentConfig<WebhookConfig>;
/// One thing that happened to a tournament ([`colosseum_tournament::tournament::Event`]).
pub type Event = colosseum_tournament::tournament::Event<WebhookConfig>;
/// A tournament's state ([`colosseum_tournament::tournament::Tournament`]).
pub type Tournament = colosseum_tournament::tournament::Tournament<WebhookConfig>;

/// The longest tournament name.
pub const MAX_TOURNAMENT_NAME: usize = 80;
/// The most games in a tournament's list.
pub const MAX_GAMES: usize = 12;
/// How often a driver looks at its matches.
const POLL: Duration = Duration::from_millis(200);

/// A tournament run in a Discord channel ([`Tournaments::in_discord_channel`]).
#[derive(Clone, Debug)]
pub struct DiscordRun {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The host's token (a secret).
    pub admin: String,
    /// Its channel and host member.
    pub room: DiscordRoom,
    /// Each place's Discord member now (`None`: a bot or a player from elsewhere).
    pub members: Vec<Option<String>>,
    /// When it was created.
    pub created_at: u64,
    /// Whether it is over.
    pub finished: bool,
}

/// A board of the current round with its match ([`Tournaments::current_boards`]).
#[derive(Clone, Debug)]
pub struct BoardSeats {
    /// The round (0-based).
    pub round: usize,
    /// The board (0-based).
    pub board: usize,
    /// Its match.
    pub match_id: String,
    /// Each seat's place (seed) in the tournament.
    pub places: [PlayerId; 2],
    /// Who plays it.
    pub names: [String; 2],
    /// Each human seat's token (a secret).
    pub tokens: [Option<String>; 2],
    /// No result yet.
    pub open: bool,
}

/// A tournament in memory: its state under a lock, and the driver's wake-up.
struct Live {
    state: tokio::sync::Mutex<Tournament>,
    wake: Notify,
}

/// The server's tournaments.
pub struct Tournaments<S: Store> {
    hub: Arc<Hub<S>>,
    live: Mutex<HashMap<String, Arc<Live>>>,
    /// The seasons, whose ratings the tournaments' games update.
    pub seasons: Arc<crate::seasons::Seasons<S>>,
}

/// A request to create a tournament (`POST /api/tournaments`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// The name.
    pub name: String,
    /// One game (or use `games`).
    #[serde(default)]
    pub game: Option<String>,
    /// Its options.
    #[serde(default)]
    pub options: RawOptions,
    /// A list of games instead (a "Colosseum").
    #[serde(default)]
    pub games: Option<Vec<GameChoice>>,
    /// How each round's game is chosen from the list.
    #[serde(default)]
    pub pick: GamePick,
    /// The format.
    pub format: Format,
    /// Each match's time control (absent: the game's default).
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// Players entered by the host.
    #[serde(default)]
    pub players: Vec<EntrantRequest>,
    /// Registration by link, up to `cap` players.
    #[serde(default)]
    pub registration: bool,
    /// The most players (default: the players entered, or 64 with registration).
    #[serde(default)]
    pub cap: Option<usize>,
    /// The no-show time in seconds (absent: no forfeits).
    #[serde(default)]
    pub no_show_s: Option<u64>,
    /// Start each round when the previous one ends (default true).
    #[serde(default)]
    pub auto_rounds: Option<bool>,
    /// Start at once (the players entered are all; default: with `registration` false).
    #[serde(default)]
    pub start: Option<bool>,
    /// A chat webhook that announces pairings, reveals, results and standings:
    /// `{"url": "https://...", "format": "discord"}` (`crate::webhooks`).
    #[serde(default)]
    pub webhook: Option<WebhookConfig>,
    /// The season it belongs to: created by the season's host (their token as the bearer),
    /// its human players from the season's roster (`season_player`).
    #[serde(default)]
    pub season: Option<String>,
    /// The Discord channel it is run in: set by the Discord application, never from a request.
    #[serde(skip)]
    pub discord: Option<DiscordRoom>,
}

/// A player entered by the host.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntrantRequest {
    /// The name (a roster player's is the roster's).
    #[serde(default)]
    pub name: String,
    /// A bot's level, for a player the server plays (for testing).
    #[serde(default)]
    pub bot: Option<String>,
    /// Garnets.
    #[serde(default)]
    pub garnets: i64,
    /// A player of the tournament's season, by roster id.
    #[serde(default)]
    pub season_player: Option<crate::seasons::SeasonPlayerId>,
    /// The Discord member who plays the place: set by the Discord application, never from a
    /// request.
    #[serde(skip)]
    pub discord: Option<String>,
}

/// A player's or host's secret token: 16 random bytes in hex.
fn random_token() -> String {
    crate::hub::random_hex(16)
}

//! Tournaments on the server: players, rounds of matches, standings and the host's powers.
//!
//! A tournament is stored like a match: its [`TournamentConfig`] (one row) and an append-only
//! log of [`Event`]s. Its state is the events applied in order ([`Tournament::apply`]), so a
//! restart loses nothing that was stored, and an event is stored before anyone is told.
//! Pairings and standings are `colosseum_tournament`'s pure functions of the rounds played.
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
pub use colosseum_tournament::tournament::{
    standings_csv, status, Board, DiscordRoom, Entrant, Former, GameChoice, GamePick, How,
    MatchSeen, RoundState, Step,
};
use colosseum_tournament::{Bracket, Format, Outcome, PlayerId};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Notify;

use crate::error::{ApiError, ErrorCode};
use crate::hub::{check_name, same_secret, CreateMatch, HostPower, Hub, Table};
use crate::store::Store;
use crate::webhooks::{Post, WebhookConfig};

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

use crate::error::internal;

impl<S: Store> Tournaments<S> {
    /// The tournaments of `hub`'s server.
    pub fn new(hub: Arc<Hub<S>>) -> Arc<Self> {
        Arc::new(Tournaments {
            seasons: crate::seasons::Seasons::new(hub.clone()),
            hub,
            live: Mutex::new(HashMap::new()),
        })
    }

    /// Loads every tournament that is not over and starts its driver. Returns how many.
    pub async fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        self.run_unfinished(false).await
    }

    /// Starts the driver of every unfinished tournament in the store that this process does not
    /// run and no other process claims (at start, or when its process died: `took_over`, which
    /// is logged). Returns how many were started.
    async fn run_unfinished(self: &Arc<Self>, took_over: bool) -> Result<usize, ApiError> {
        let ids = self
            .hub
            .store()
            .unfinished_tournaments()
            .await
            .map_err(internal("loading unfinished tournaments"))?;
        let mut n = 0;
        for id in ids {
            if self.live_map().contains_key(&id) {
                continue;
            }
            match self.live(&id).await {
                Ok(_) => {
                    n += 1;
                    if took_over {
                        tracing::warn!(tournament = %id, "took over a tournament whose server process stopped");
                    }
                }
                // Another process on the shared store runs it.
                Err(e) if e.code == "elsewhere" => {}
                Err(e) => tracing::error!(tournament = %id, "not started: {}", e.message),
            }
        }
        Ok(n)
    }

    /// The tournament `id`, from memory or rebuilt from the store (its driver started).
    async fn live(self: &Arc<Self>, id: &str) -> Result<Arc<Live>, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found("no such tournament"));
        }
        if let Some(l) = self.live_map().get(id) {
            return Ok(l.clone());
        }
        let t = self.rebuild(id).await?;
        // Several nodes on one store: the node that holds a running tournament's claim drives
        // it; the others forward its requests there (`crate::forward`).
        if !t.finished && !self.hub.claim_tournament(id).await? {
            return Err(ApiError::conflict(
                ErrorCode::Elsewhere,
                "this tournament is run by another server process; connect to that one",
            ));
        }
        Ok(self.install(t))
    }

    /// The tournament `id` as its stored events make it (not installed, no driver).
    async fn rebuild(&self, id: &str) -> Result<Tournament, ApiError> {
        let stored = self
            .hub
            .store()
            .load_tournament(id)
            .await
            .map_err(internal("loading a tournament"))?
            .ok_or_else(|| ApiError::not_found(format!("no tournament `{id}`")))?;
        Tournament::fold(&stored.config, &stored.events)
            .map_err(|e| ApiError::internal("rebuilding a tournament", e))
    }

    /// Runs every unfinished tournament that no process runs any more (its process died), as
    /// [`crate::Hub::take_over`] does for matches; returns how many. `serve` calls both.
    pub async fn take_over(self: &Arc<Self>) -> Result<usize, ApiError> {
        self.run_unfinished(true).await
    }

    fn live_map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Live>>> {
        self.live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn install(self: &Arc<Self>, t: Tournament) -> Arc<Live> {
        let id = t.config.id.clone();
        let finished = t.finished;
        let live = Arc::new(Live {
            state: tokio::sync::Mutex::new(t),
            wake: Notify::new(),
        });
        let mut map = self.live_map();
        if let Some(existing) = map.get(&id) {
            return existing.clone();
        }
        map.insert(id.clone(), live.clone());
        drop(map);
        if !finished {
            let me = self.clone();
            let l = live.clone();
            tokio::spawn(async move { me.drive(id, l).await });
        }
        live
    }

    /// Stores `events` after the ones stored, applies them, wakes the driver.
    async fn record(&self, t: &mut Tournament, events: Vec<Event>) -> Result<(), ApiError> {
        self.record_posting(t, events, None).await
    }

    /// [`Tournaments::record`], but the result of board `by_match` (round, board) is not posted:
    /// its match was adjudicated in its own log, and the match's webhook posts that (the host's
    /// action and the match's result, `Hub::host_power`); the standings still are.
    async fn record_posting(
        &self,
        t: &mut Tournament,
        events: Vec<Event>,
        by_match: Option<(usize, usize)>,
    ) -> Result<(), ApiError> {
        if events.is_empty() {
            return Ok(());
        }
        let texts: Vec<String> = events
            .iter()
            .map(|e| serde_json::to_string(e).expect("events serialize"))
            .collect();
        self.hub
            .store()
            .append_tournament(&t.config.id, t.log.len(), &texts)
            .await
            .map_err(internal("storing a tournament event"))?;
        let finishing = events.iter().any(|e| matches!(e, Event::Finished { .. }));
        let results = events.iter().any(|e| matches!(e, Event::Result { .. }));
        for e in events {
            let posts_of = e.clone();
            t.apply(e)
                .map_err(|e| ApiError::internal("applying a tournament event", e))?;
            let posted_by_match = match &posts_of {
                Event::Result { round, board, .. } => by_match == Some((*round, *board)),
                _ => false,
            };
            if let Some(hook) = &t.webhook {
                for post in announcements(t, &posts_of) {
                    if posted_by_match && post.kind == "result" {
                        continue;
                    }
                    self.hub.webhooks().post(hook, post);
                }
            }
        }
        if finishing {
            self.hub
                .store()
                .finish_tournament(&t.config.id)
                .await
                .map_err(internal("finishing a tournament"))?;
        }
        if results {
            self.rate_results(t).await;
        }
        Ok(())
    }

    /// Rates every result between two roster players of the tournament's season not rated yet
    /// (played to the end or adjudicated; not no-show forfeits). Called after each result and
    /// when the driver starts, so a result stored just before a crash is rated after it.
    async fn rate_results(&self, t: &Tournament) {
        let Some(season) = &t.config.season else {
            return;
        };
        for (r, round) in t.rounds.iter().enumerate() {
            for (b, (pairing, board)) in round.pairing.games.iter().zip(&round.boards).enumerate() {
                let outcome = match &board.result {
                    Some((_, How::Played { winner, .. })) => match winner {
                        Some(Seat::P1) => Outcome::P1,
                        Some(Seat::P2) => Outcome::P2,
                        None => Outcome::Draw,
                    },
                    Some((o, How::Adjudicated { .. })) => *o,
                    Some((_, How::NoShow { .. })) | None => continue,
                };
                let who = t.board_occupants(r, b);
                let (Some(p1), Some(p2)) = (
                    t.entrant_at(pairing.p1, who[0]).season_player,
                    t.entrant_at(pairing.p2, who[1]).season_player,
                ) else {
                    continue;
                };
                let key = format!("t:{}:{r}:{b}", t.config.id);
                if let Err(e) = self
                    .seasons
                    .rate(season, &key, &round.game, [p1, p2], outcome)
                    .await
                {
                    tracing::warn!(tournament = %t.config.id, key, "not rated: {}", e.message);
                }
            }
        }
    }

    /// The driver of one tournament: until it is over, do what is due, then sleep a little
    /// (or until a host action wakes it).
    async fn drive(self: Arc<Self>, id: String, live: Arc<Live>) {
        self.rate_results(&*live.state.lock().await).await;
        loop {
            match self.step(&live).await {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => tracing::warn!(tournament = %id, "driver: {}", e.message),
            }
            if live.state.lock().await.finished {
                tracing::info!(tournament = %id, "tournament finished");
                return;
            }
            tokio::select! {
                () = live.wake.notified() => {}
                () = tokio::time::sleep(POLL) => {}
            }
        }
    }

    /// One step of the driver; `true` if something happened (so look again at once).
    async fn step(&self, live: &Live) -> Result<bool, ApiError> {
        let mut t = live.state.lock().await;
        let mut seen = HashMap::new();
        if let Some(round) = t.rounds.last() {
            for board in round.boards.iter().filter(|b| b.result.is_none()) {
                let Some(id) = &board.match_id else {
                    continue;
                };
                match self.hub.table(id).await {
                    Ok(table) => {
                        let meta = self.hub.stored(&table).await;
                        seen.insert(
                            id.clone(),
                            MatchSeen {
                                // A seat that joined but never revealed its client seed when
                                // the reveals were due is absent too.
                                joined: Seat::BOTH.map(|s| meta.seated(s)),
                                result: meta.result.map(|r| (r.winner, r.reason)),
                            },
                        );
                    }
                    // Nobody joined it in time: both seats are absent (a no-show forfeit, if
                    // the tournament has one; else the host adjudicates).
                    Err(e) if e.code == ErrorCode::Expired => {
                        seen.insert(
                            id.clone(),
                            MatchSeen {
                                joined: [false, false],
                                result: None,
                            },
                        );
                    }
                    // Set aside or served elsewhere: the host adjudicates; the others go on.
                    Err(e) => tracing::debug!(match_id = %id, "not followed: {}", e.message),
                }
            }
        }
        let now = self.hub.now();
        match t.next_step(now, &seen) {
            Step::Wait => Ok(false),
            Step::Record(event) => {
                self.record(&mut t, vec![event]).await?;
                Ok(true)
            }
            Step::CreateMatch { round, board } => {
                let event = self.create_match(&t, round, board, now).await?;
                self.record(&mut t, vec![event]).await?;
                Ok(true)
            }
        }
    }

    /// Creates board `board` of round `round`'s match through the hub.
    async fn create_match(
        &self,
        t: &Tournament,
        round: usize,
        board: usize,
        now: u64,
    ) -> Result<Event, ApiError> {
        let r = &t.rounds[round];
        let pairing = r.pairing.games[board];
        let entry =
            colosseum_games::find(&r.game).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let advantage = t.advantage(pairing.p1, pairing.p2);
        let options = match (advantage, entry.advantage) {
            (Some(seat), Some(set)) => set(&r.options, seat),
            _ => r.options.clone(),
        };
        let seat = |p: PlayerId| {
            let e = &t.players[p];
            match &e.bot {
                Some(level) => Player::Bot {
                    level: level.clone(),
                },
                None => Player::Human {
                    name: Some(e.name.clone()),
                },
            }
        };
        let created = self
            .hub
            .create(CreateMatch {
                game: r.game.clone(),
                options,
                seed: None,
                seats: Some([seat(pairing.p1), seat(pairing.p2)]),
                time: t.config.time.clone(),
                replay_on_draw: None,
                trivia: None,
                race_bot: None,
                sealed: false,
                advantage,
                tournament: Some(t.config.id.clone()),
                // A bot player plays under its name in the tournament.
                bot_names: [pairing.p1, pairing.p2].map(|p| {
                    t.players[p]
                        .bot
                        .is_some()
                        .then(|| t.players[p].name.clone())
                }),
                // Its posts name the tournament, the round and the board.
                webhook: t
                    .webhook
                    .as_ref()
                    .map(|w| w.for_board(&t.config.name, round + 1, board + 1)),
            })
            .await?;
        Ok(Event::MatchCreated {
            at: now,
            round,
            board,
            id: created.id,
            tokens: created.tokens,
            advantage,
        })
    }

    /// Creates a tournament; answers its id and the links (the admin link holds the host's
    /// token, each player's link their personal token, in the URL fragment).
    ///
    /// A season's tournament (`req.season`) is created by the season's host (`token`, the
    /// season's admin token); its human players come from the roster (`season_player`) or
    /// register by its link (see [`Tournaments::register`]).
    pub async fn create(
        self: &Arc<Self>,
        req: CreateTournament,
        token: Option<&str>,
    ) -> Result<Value, ApiError> {
        let name = req.name.trim().to_string();
        if name.is_empty() || name.chars().count() > MAX_TOURNAMENT_NAME {
            return Err(ApiError::bad_request(format!(
                "a tournament's name has 1 to {MAX_TOURNAMENT_NAME} characters"
            )));
        }
        let games = match (req.game, req.games) {
            (Some(game), None) => vec![GameChoice {
                game,
                options: req.options,
            }],
            (None, Some(games)) if !games.is_empty() && games.len() <= MAX_GAMES => games,
            (None, Some(_)) => {
                return Err(ApiError::bad_request(format!(
                    "`games` lists 1 to {MAX_GAMES} games"
                )))
            }
            _ => {
                return Err(ApiError::bad_request(
                    "give `game` (one game, with `options`) or `games` (a list of {game, options}), not both",
                ))
            }
        };
        let mut games = games;
        for g in &mut games {
            let entry =
                colosseum_games::find(&g.game).map_err(|e| ApiError::bad_request(e.to_string()))?;
            g.game = entry.id.to_string();
            (entry.create)(&g.options)
                .map_err(|e| ApiError::bad_request(format!("{}: {e}", entry.id)))?;
        }
        if let Some(time) = &req.time {
            crate::hub::check_time_control(time, self.hub.limits())?;
        }
        let cap = req.cap.unwrap_or(if req.registration {
            colosseum_tournament::MAX_PLAYERS
        } else {
            req.players.len()
        });
        if !(colosseum_tournament::MIN_PLAYERS..=colosseum_tournament::MAX_PLAYERS).contains(&cap) {
            return Err(ApiError::bad_request(format!(
                "a tournament has {} to {} players (`cap`); {cap} asked for",
                colosseum_tournament::MIN_PLAYERS,
                colosseum_tournament::MAX_PLAYERS
            )));
        }
        if req.players.len() > cap {
            return Err(ApiError::bad_request(format!(
                "{} players entered, over the cap of {cap}",
                req.players.len()
            )));
        }
        let roster: Vec<crate::seasons::SeasonPlayerId> =
            req.players.iter().filter_map(|p| p.season_player).collect();
        let roster_names = match &req.season {
            Some(season) => {
                if let Some(p) = req
                    .players
                    .iter()
                    .find(|p| p.bot.is_none() && p.season_player.is_none())
                {
                    return Err(ApiError::bad_request(format!(
                        "`{}`: in a season's tournament each human player is a roster player \
                         (`season_player`: their id in the season); bots may be added",
                        p.name
                    )));
                }
                if roster
                    .iter()
                    .enumerate()
                    .any(|(i, p)| roster[..i].contains(p))
                {
                    return Err(ApiError::bad_request(
                        "a roster player is entered twice (`season_player`)",
                    ));
                }
                self.seasons
                    .roster_for_tournament(season, token, &roster)
                    .await?
            }
            None if !roster.is_empty() => {
                return Err(ApiError::bad_request(
                    "`season_player` needs the tournament's `season`",
                ))
            }
            None => Vec::new(),
        };
        let mut entrants: Vec<Entrant> = Vec::new();
        let mut names = roster_names.into_iter();
        for p in &req.players {
            let name = match (p.season_player, p.bot.as_deref()) {
                (Some(_), Some(_)) => {
                    return Err(ApiError::bad_request(
                        "a roster player (`season_player`) is not a bot",
                    ))
                }
                (Some(_), None) => names.next().expect("one name a roster player"),
                (None, _) => p.name.clone(),
            };
            let mut e = self.entrant(&games, &entrants, &name, p.bot.as_deref(), p.garnets)?;
            e.discord.clone_from(&p.discord);
            if let Some(level) = p.bot.as_deref() {
                // A level that needs a solved table (`hard` in Goofspiel) is refused now, with
                // what to do, rather than failing at its first move.
                for g in &games {
                    let spec = self.hub.check_bot(&g.game, level)?;
                    crate::hub::check_bot_ready(&g.game, &g.options, spec).await?;
                }
            }
            e.season_player = p.season_player;
            entrants.push(e);
        }
        let start = req.start.unwrap_or(!req.registration);
        if start {
            req.format
                .check(entrants.len())
                .map_err(|e| ApiError::bad_request(e.to_string()))?;
        } else if let Format::Swiss { rounds } = req.format {
            if rounds == 0 {
                return Err(ApiError::bad_request("a Swiss has at least 1 round"));
            }
        }
        let now = self.hub.now();
        let config = TournamentConfig {
            id: random_token()[..16].to_string(),
            name,
            games,
            pick: req.pick,
            format: req.format,
            time: req.time,
            cap,
            no_show_ms: req.no_show_s.map(|s| s.saturating_mul(1000)),
            auto_rounds: req.auto_rounds.unwrap_or(true),
            admin_token: random_token(),
            registration_token: req.registration.then(random_token),
            created_at: now,
            seed: u64::from_str_radix(&random_token()[..16], 16).unwrap_or(0),
            webhook: match req.webhook {
                Some(hook) => Some(self.hub.webhooks().check(hook).await?),
                None => None,
            },
            season: req.season.clone(),
            discord: req.discord.clone(),
        };
        // Claimed before it is stored: another process looking for tournaments nobody runs
        // must not find this one.
        self.hub.claim_tournament(&config.id).await?;
        self.hub
            .store()
            .create_tournament(
                &config.id,
                now,
                &serde_json::to_string(&config).expect("configs serialize"),
            )
            .await
            .map_err(internal("creating a tournament"))?;
        let mut t = Tournament::new(config.clone());
        let mut events: Vec<Event> = entrants
            .into_iter()
            .map(|player| Event::Entered { at: now, player })
            .collect();
        if start {
            events.push(Event::Started { at: now });
        }
        self.record(&mut t, events).await?;
        let links = self.links(&t);
        if let Some(season) = &config.season {
            self.seasons
                .add_tournament(season, &config.id, &config.name)
                .await?;
        }
        self.install(t);
        tracing::info!(tournament = %config.id, "tournament created");
        Ok(json!({
            "id": config.id,
            "admin_token": config.admin_token,
            "links": links,
        }))
    }

    fn links(&self, t: &Tournament) -> Value {
        let id = &t.config.id;
        json!({
            "page": format!("/t/{id}"),
            "admin": format!("/t/{id}#admin={}", t.config.admin_token),
            "register": t.config.registration_token.as_ref().map(|r| format!("/t/{id}#register={r}")),
            "players": t.players.iter().map(|p| json!({
                "name": p.name,
                "link": p.token.as_ref().map(|tok| format!("/t/{id}#player={tok}")),
            })).collect::<Vec<_>>(),
        })
    }

    /// Checks a new player against the tournament's games and the players so far.
    fn entrant(
        &self,
        games: &[GameChoice],
        so_far: &[Entrant],
        name: &str,
        bot: Option<&str>,
        garnets: i64,
    ) -> Result<Entrant, ApiError> {
        let name = check_name(name)?;
        if so_far.iter().any(|p| crate::hub::same_name(&p.name, &name)) {
            return Err(ApiError::bad_request(format!(
                "`{name}` is entered already: names differ within a tournament as people read them (case and look-alike letters aside)"
            )));
        }
        if let Some(level) = bot {
            for g in games {
                self.hub.check_bot(&g.game, level)?;
            }
        }
        Ok(Entrant {
            name,
            bot: bot.map(str::to_string),
            token: bot.is_none().then(random_token),
            garnets,
            season_player: None,
            discord: None,
        })
    }

    /// Registers a player by the registration link; answers their personal link.
    ///
    /// In a season's tournament a newcomer (`name`) joins the season's roster too and gets a
    /// season link; a roster player registers with their season link's token (`season_token`)
    /// instead of a name.
    pub async fn register(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        name: Option<&str>,
        season_token: Option<&str>,
    ) -> Result<Value, ApiError> {
        let live = self.live(id).await?;
        let mut t = live.state.lock().await;
        let ok = match (&t.config.registration_token, token) {
            (Some(r), Some(given)) => same_secret(r, given),
            _ => false,
        };
        if !ok {
            return Err(ApiError::forbidden(
                "registration needs the tournament's registration link (its token)",
            ));
        }
        if t.started {
            return Err(ApiError::conflict(
                ErrorCode::Over,
                "registration has closed: the tournament has started",
            ));
        }
        if t.players.len() >= t.config.cap {
            return Err(ApiError::conflict(
                ErrorCode::Over,
                format!("the tournament is full ({} players)", t.config.cap),
            ));
        }
        let games = t.config.games.clone();
        let mut season_link = None;
        let player = match (t.config.season.clone(), season_token, name) {
            (None, Some(_), _) => {
                return Err(ApiError::bad_request(
                    "`season_token` is for a season's tournament; this one has no season: \
                     register with `name`",
                ))
            }
            (None, None, Some(name)) => self.entrant(&games, &t.players, name, None, 0)?,
            (Some(season), Some(st), _) => {
                let (roster_id, roster_name) = self.seasons.roster_player(&season, st).await?;
                if t.players.iter().any(|p| p.season_player == Some(roster_id)) {
                    return Err(ApiError::bad_request(format!(
                        "{roster_name} is entered in this tournament already"
                    )));
                }
                let mut e = self.entrant(&games, &t.players, &roster_name, None, 0)?;
                e.season_player = Some(roster_id);
                e
            }
            (Some(season), None, Some(name)) => {
                // Checked against the tournament before the roster grows.
                let mut e = self.entrant(&games, &t.players, name, None, 0)?;
                let (roster_id, season_token) =
                    self.seasons.join_by_registration(&season, &e.name).await?;
                e.season_player = Some(roster_id);
                season_link = Some(json!({
                    "season_player": roster_id,
                    "link": format!("/s/{season}#player={season_token}"),
                }));
                e
            }
            (_, None, None) => {
                return Err(ApiError::bad_request(
                    "give `name` (your name as entered), or in a season's tournament \
                     `season_token` (the token of your season link) if you are on its roster",
                ))
            }
        };
        let token = player.token.clone().expect("a human");
        let at = self.hub.now();
        self.record(&mut t, vec![Event::Entered { at, player }])
            .await?;
        let mut answer = json!({
            "player": t.players.len() - 1,
            "token": token,
            "link": format!("/t/{id}#player={token}"),
        });
        if let Some(season) = season_link {
            answer["season"] = season;
        }
        Ok(answer)
    }

    /// Checks the host's token.
    async fn admin(self: &Arc<Self>, id: &str, token: Option<&str>) -> Result<Arc<Live>, ApiError> {
        let live = self.live(id).await?;
        let t = live.state.lock().await;
        if !token.is_some_and(|tok| t.is_admin(tok)) {
            return Err(ApiError::forbidden(
                "only the tournament's host can do this (the admin link's token)",
            ));
        }
        drop(t);
        Ok(live)
    }

    /// The current round's boards of place `player` with a match made for its present
    /// occupant that has not started (or expired unjoined), each with the match's table while
    /// it is served: the games a replacement takes over ([`Event::MatchRemade`]). A match that
    /// started stays its players' (the replacement plays from the next round).
    async fn unstarted_boards_of(
        &self,
        t: &Tournament,
        player: PlayerId,
    ) -> Vec<(usize, usize, Option<Arc<Table>>)> {
        let mut out = Vec::new();
        let Some(round) = t.rounds.last() else {
            return out;
        };
        let r = t.rounds.len() - 1;
        for (b, (g, board)) in round.pairing.games.iter().zip(&round.boards).enumerate() {
            let seat = if g.p1 == player {
                0
            } else if g.p2 == player {
                1
            } else {
                continue;
            };
            let Some(id) = &board.match_id else {
                continue;
            };
            if board.result.is_some() || t.board_occupants(r, b)[seat] != t.occupant[player] {
                continue;
            }
            match self.hub.table(id).await {
                Ok(table) if self.hub.stored(&table).await.started_at.is_none() => {
                    out.push((r, b, Some(table)));
                }
                Err(e) if e.code == ErrorCode::Expired => out.push((r, b, None)),
                _ => {}
            }
        }
        out
    }

    /// A host action: `action` is one of the documented names, `body` its fields.
    pub async fn host(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: &str,
        body: Value,
    ) -> Result<Value, ApiError> {
        self.host_as(id, token, action, body, None).await
    }

    /// [`Tournaments::host`]; a `replace` gives the place to Discord member `discord` (the
    /// Discord application's `replace`).
    pub async fn host_as(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: &str,
        body: Value,
        discord: Option<&str>,
    ) -> Result<Value, ApiError> {
        let live = self.admin(id, token).await?;
        let mut t = live.state.lock().await;
        if t.finished && action != "export" {
            return Err(ApiError::conflict(
                ErrorCode::Over,
                "the tournament is over",
            ));
        }
        let at = self.hub.now();
        let field = |name: &str| body.get(name).cloned().unwrap_or(Value::Null);
        let usize_field = |name: &str| -> Result<usize, ApiError> {
            field(name)
                .as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| ApiError::bad_request(format!("`{name}` is a whole number")))
        };
        let board_at = |t: &Tournament, round: usize, board: usize| -> Result<(), ApiError> {
            t.rounds
                .get(round)
                .and_then(|r| r.boards.get(board))
                .map(|_| ())
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "no board {board} in round {round} (rounds and boards count from 0; {} so far)",
                        colosseum_games::text::plural(t.rounds.len(), "round")
                    ))
                })
        };
        // Matches that leave the tournament: no more posts from them once this is recorded.
        let mut detach: Vec<Arc<Table>> = Vec::new();
        let events = match action {
            "start" => {
                let game = match field("game") {
                    Value::Null => None,
                    v => {
                        let g: GameChoice = serde_json::from_value(v)
                            .map_err(|e| ApiError::bad_request(format!("`game`: {e}")))?;
                        let found = t.config.games.iter().find(|c| c.game == g.game).cloned();
                        Some(found.ok_or_else(|| {
                            ApiError::bad_request(format!(
                                "`{}` is not one of the tournament's games: {}",
                                g.game,
                                t.config
                                    .games
                                    .iter()
                                    .map(|c| c.game.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ))
                        })?)
                    }
                };
                let mut events = Vec::new();
                if !t.started {
                    t.config
                        .format
                        .check(t.players.len())
                        .map_err(|e| ApiError::bad_request(e.to_string()))?;
                    events.push(Event::Started { at });
                    let mut next = t.clone();
                    next.apply(Event::Started { at })
                        .map_err(ApiError::bad_request)?;
                    if game.is_some() || !next.config.auto_rounds {
                        events.extend(next.pair_next(at, game));
                    }
                } else if let Some(r) = t.rounds.last().filter(|r| !r.complete()) {
                    let open = r.boards.iter().filter(|b| b.result.is_none()).count();
                    return Err(ApiError::conflict(
                        ErrorCode::NotFinished,
                        format!(
                            "round {} is still being played ({} unfinished)",
                            t.rounds.len(),
                            colosseum_games::text::plural(open, "game")
                        ),
                    ));
                } else {
                    events.extend(t.pair_next(at, game));
                }
                events
            }
            "garnets" => {
                let player = usize_field("player")?;
                let garnets = field("garnets")
                    .as_i64()
                    .ok_or_else(|| ApiError::bad_request("`garnets` is a whole number"))?;
                if player >= t.players.len() {
                    return Err(ApiError::bad_request(format!(
                        "no player {player}: players count from 0 to {}",
                        t.players.len().saturating_sub(1)
                    )));
                }
                vec![Event::Garnets {
                    at,
                    player,
                    garnets,
                }]
            }
            "adjudicate" => {
                let (round, board) = (usize_field("round")?, usize_field("board")?);
                board_at(&t, round, board)?;
                let reason = field("reason").as_str().unwrap_or("").trim().to_string();
                if reason.is_empty() || reason.len() > crate::hub::MAX_TEXT {
                    return Err(ApiError::bad_request(
                        "an adjudication needs a `reason` (1 to 2000 bytes)",
                    ));
                }
                let outcome = match field("result").as_str() {
                    Some("p1") => Outcome::P1,
                    Some("p2") => Outcome::P2,
                    Some("draw") if !t.config.format.is_elimination() => Outcome::Draw,
                    _ => {
                        return Err(ApiError::bad_request(if t.config.format.is_elimination() {
                            "`result` is p1 or p2 (a bracket needs a winner)"
                        } else {
                            "`result` is p1, p2 or draw"
                        }))
                    }
                };
                if round + 1 < t.rounds.len() {
                    return Err(ApiError::conflict(
                        ErrorCode::Over,
                        "a later round has been paired on this result; only the current round's games can be adjudicated",
                    ));
                }
                vec![Event::Result {
                    at,
                    round,
                    board,
                    outcome,
                    how: How::Adjudicated { reason },
                }]
            }
            "undo_forfeit" => {
                let (round, board) = (usize_field("round")?, usize_field("board")?);
                board_at(&t, round, board)?;
                match &t.rounds[round].boards[board].result {
                    Some((_, How::NoShow { .. })) => {}
                    _ => {
                        return Err(ApiError::bad_request(
                            "that game was not forfeited for a no-show",
                        ))
                    }
                }
                let mut events = Vec::new();
                if round + 2 < t.rounds.len() {
                    return Err(ApiError::conflict(
                        ErrorCode::Over,
                        "a later round has been played: adjudicate instead",
                    ));
                }
                if round + 1 < t.rounds.len() {
                    // The next round was paired on this result: it is withdrawn and paired
                    // again, unless one of its games has started.
                    let next = &t.rounds[round + 1];
                    let mut started = next.boards.iter().any(|b| b.result.is_some());
                    for b in &next.boards {
                        if let Some(id) = &b.match_id {
                            if let Ok(table) = self.hub.table(id).await {
                                started |= self.hub.stored(&table).await.started_at.is_some();
                            }
                        }
                    }
                    if started {
                        return Err(ApiError::conflict(
                            ErrorCode::Over,
                            "a game of the next round has started: adjudicate instead",
                        ));
                    }
                    events.push(Event::RoundWithdrawn {
                        at,
                        round: round + 1,
                    });
                }
                events.push(Event::ResultUndone { at, round, board });
                events
            }
            "replace" => {
                let player = usize_field("player")?;
                if player >= t.players.len() {
                    return Err(ApiError::bad_request(format!("no player {player}")));
                }
                let name = field("name").as_str().unwrap_or("").to_string();
                let bot = field("bot").as_str().map(str::to_string);
                let others: Vec<Entrant> = t
                    .players
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != player)
                    .map(|(_, p)| p.clone())
                    .collect();
                let games = t.config.games.clone();
                let mut by = self.entrant(&games, &others, &name, bot.as_deref(), 0)?;
                by.garnets = t.players[player].garnets;
                by.discord = discord.map(str::to_string);
                let mut events = vec![Event::Replaced {
                    at,
                    player,
                    was: t.players[player].name.clone(),
                    by,
                }];
                // From the next game: the current round's game of the place, if its match was
                // made for the player replaced and has not started, is made again for the new
                // one (the old match leaves the tournament and its announcements).
                for (round, board, old) in self.unstarted_boards_of(&t, player).await {
                    detach.extend(old);
                    events.push(Event::MatchRemade {
                        at,
                        round,
                        board,
                        player,
                    });
                }
                events
            }
            "pause" | "resume" | "give_time" => {
                let (round, board) = (usize_field("round")?, usize_field("board")?);
                board_at(&t, round, board)?;
                let b = &t.rounds[round].boards[board];
                if b.result.is_some() {
                    return Err(ApiError::conflict(
                        ErrorCode::Over,
                        "that game has its result already",
                    ));
                }
                let Some(match_id) = b.match_id.clone() else {
                    return Err(ApiError::conflict(
                        ErrorCode::NotStarted,
                        "that game's match is being created; try again in a moment",
                    ));
                };
                let power = match action {
                    "pause" => HostPower::Pause,
                    "resume" => HostPower::Resume,
                    _ => {
                        let seat = match field("seat").as_str() {
                            Some("p1") => Seat::P1,
                            Some("p2") => Seat::P2,
                            _ => return Err(ApiError::bad_request("`seat` is p1 or p2")),
                        };
                        let seconds = field("seconds")
                            .as_u64()
                            .filter(|s| (1..=86_400).contains(s));
                        let Some(seconds) = seconds else {
                            return Err(ApiError::bad_request(
                                "`seconds` is a whole number from 1 to 86400",
                            ));
                        };
                        HostPower::GiveTime {
                            seat,
                            ms: seconds * 1000,
                        }
                    }
                };
                let table = self.hub.table(&match_id).await?;
                self.hub.host_power(&table, power.clone()).await?;
                let event = Event::HostPower {
                    at,
                    round,
                    board,
                    power: match power {
                        HostPower::Pause => "pause".into(),
                        HostPower::Resume => "resume".into(),
                        HostPower::GiveTime { seat, ms } => format!("{} s to {seat}", ms / 1000),
                        HostPower::Adjudicate { .. } => unreachable!("not from this action"),
                    },
                };
                vec![event]
            }
            "webhook" => {
                let webhook = match field("webhook") {
                    Value::Null => None,
                    v => Some(
                        self.hub
                            .webhooks()
                            .check(serde_json::from_value::<WebhookConfig>(v).map_err(|e| {
                                ApiError::bad_request(format!(
                                    "`webhook` is {{\"url\": \"https://...\", \"format\": \"discord\" or \"slack\"}} or null: {e}"
                                ))
                            })?)
                            .await?,
                    ),
                };
                // The running games are announced there too, from their next event.
                if let Some(round) = t.rounds.last() {
                    let r = t.rounds.len();
                    for (b, board) in round.boards.iter().enumerate() {
                        if let (None, Some(id)) = (&board.result, &board.match_id) {
                            if let Ok(table) = self.hub.table(id).await {
                                let hook = webhook
                                    .as_ref()
                                    .map(|w| w.for_board(&t.config.name, r, b + 1));
                                self.hub.set_webhook(&table, hook).await?;
                            }
                        }
                    }
                }
                vec![Event::WebhookSet { at, webhook }]
            }
            other => {
                return Err(ApiError::not_found(format!(
                    "no host action `{other}`: start, garnets, adjudicate, undo_forfeit, replace, \
                     pause, resume, give_time, webhook"
                )))
            }
        };
        // An adjudicated game's match ends with the host's result and reason in its own log
        // (a match nobody joined has no log: it is left to expire).
        let mut by_match = None;
        if let Some(Event::Result {
            round,
            board,
            outcome,
            how: How::Adjudicated { reason },
            ..
        }) = events.last()
        {
            if let Some(id) = &t.rounds[*round].boards[*board].match_id {
                let table = self.hub.table(id).await?;
                let meta = self.hub.stored(&table).await;
                if meta.started_at.is_some() && !meta.finished() {
                    let winner = match outcome {
                        Outcome::P1 => Some(Seat::P1),
                        Outcome::P2 => Some(Seat::P2),
                        Outcome::Draw => None,
                    };
                    let power = HostPower::Adjudicate {
                        winner,
                        reason: reason.clone(),
                    };
                    self.hub.host_power(&table, power).await?;
                    by_match = Some((*round, *board));
                }
            }
        }
        let answer = match events.first() {
            Some(Event::Replaced { by, .. }) => json!({
                "ok": true,
                "link": by.token.as_ref().map(|tok| format!("/t/{id}#player={tok}")),
            }),
            _ => json!({"ok": true}),
        };
        self.record_posting(&mut t, events, by_match).await?;
        for table in detach {
            self.hub.set_webhook(&table, None).await?;
        }
        drop(t);
        live.wake.notify_one();
        Ok(answer)
    }

    /// The tournaments this process runs in Discord channel `channel`, oldest first: each id,
    /// admin token, room, each place's member now, and whether it is over.
    pub async fn in_discord_channel(&self, channel: &str) -> Vec<DiscordRun> {
        let lives: Vec<Arc<Live>> = self.live_map().values().cloned().collect();
        let mut out = Vec::new();
        for live in lives {
            let t = live.state.lock().await;
            let Some(room) = t.config.discord.clone().filter(|r| r.channel == channel) else {
                continue;
            };
            out.push(DiscordRun {
                id: t.config.id.clone(),
                name: t.config.name.clone(),
                admin: t.config.admin_token.clone(),
                room,
                members: t.players.iter().map(|p| p.discord.clone()).collect(),
                created_at: t.config.created_at,
                finished: t.finished,
            });
        }
        out.sort_by_key(|r| r.created_at);
        out
    }

    /// Tournament `id` as [`Tournaments::in_discord_channel`] gives it, if it is run in a
    /// Discord channel.
    pub async fn discord_run(self: &Arc<Self>, id: &str) -> Option<DiscordRun> {
        let live = self.live(id).await.ok()?;
        let t = live.state.lock().await;
        let room = t.config.discord.clone()?;
        Some(DiscordRun {
            id: t.config.id.clone(),
            name: t.config.name.clone(),
            admin: t.config.admin_token.clone(),
            room,
            members: t.players.iter().map(|p| p.discord.clone()).collect(),
            created_at: t.config.created_at,
            finished: t.finished,
        })
    }

    /// The current round's boards whose match is made (for the Discord application, which
    /// binds each to its members), and whether the tournament is over.
    pub async fn current_boards(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<(bool, Vec<BoardSeats>), ApiError> {
        let live = self.live(id).await?;
        let t = live.state.lock().await;
        let mut out = Vec::new();
        if let Some(round) = t.rounds.last() {
            let r = t.rounds.len() - 1;
            for (b, (g, board)) in round.pairing.games.iter().zip(&round.boards).enumerate() {
                let Some(m) = &board.match_id else { continue };
                out.push(BoardSeats {
                    round: r,
                    board: b,
                    match_id: m.clone(),
                    places: [g.p1, g.p2],
                    names: t.board_names(r, b),
                    tokens: board.tokens.clone(),
                    open: board.result.is_none(),
                });
            }
        }
        Ok((t.finished, out))
    }

    /// The tournament's name, its standings as posted ([`standings_lines`]), whether it is over
    /// and how many rounds have been paired.
    pub async fn standings_text(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<(String, Vec<String>, bool, usize), ApiError> {
        let live = self.live(id).await?;
        let t = live.state.lock().await;
        Ok((
            t.config.name.clone(),
            standings_lines(&t),
            t.finished,
            t.rounds.len(),
        ))
    }

    /// The tournament as `token` may see it: everyone sees the players, rounds, standings and
    /// bracket; a player's token adds their own page (`you`); the host's adds the log.
    pub async fn view(self: &Arc<Self>, id: &str, token: Option<&str>) -> Result<Value, ApiError> {
        let live = self.live(id).await?;
        let t = live.state.lock().await;
        let admin = token.is_some_and(|tok| t.is_admin(tok));
        let me = token.and_then(|tok| t.player_of(tok));
        if token.is_some_and(|tok| !tok.is_empty()) && !admin && me.is_none() {
            return Err(ApiError::forbidden(
                "this token is not this tournament's host or one of its players",
            ));
        }
        let mut out = render(&t, admin, me);
        if let (true, Some(hook)) = (admin, &t.webhook) {
            out["webhook"]["delivery"] = self.hub.webhooks().stats(hook);
        }
        // A season's tournament: the season, and each roster player's rating in each of the
        // tournament's games (left out, not an error, if the season cannot be read).
        let season = match &t.config.season {
            Some(id) => match self.seasons.ratings(id).await {
                Ok(r) => Some(r),
                Err(e) => {
                    tracing::warn!(tournament = %t.config.id, "season not shown: {}", e.message);
                    None
                }
            },
            None => None,
        };
        if let Some(ratings) = season {
            out["season"] = json!({
                "id": ratings.id,
                "name": ratings.name,
                "link": format!("/s/{}", ratings.id),
            });
            if let Some(players) = out["players"].as_array_mut() {
                for (v, p) in players.iter_mut().zip(&t.players) {
                    v["season_player"] = json!(p.season_player);
                    if let Some(sp) = p.season_player {
                        let by_game: serde_json::Map<String, Value> = t
                            .config
                            .games
                            .iter()
                            .map(|g| (g.game.clone(), ratings.json(&g.game, sp)))
                            .collect();
                        v["ratings"] = Value::Object(by_game);
                    }
                }
            }
        }
        Ok(out)
    }

    /// The standings as CSV.
    pub async fn csv(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let live = self.live(id).await?;
        let t = live.state.lock().await;
        Ok(standings_csv(&t))
    }

    /// Tournament `id`'s status, format and games (a season's page lists them): from this
    /// node, or as the store has it when another node runs it.
    pub async fn outline(self: &Arc<Self>, id: &str) -> Result<Value, ApiError> {
        let line = |t: &Tournament| json!({"status": status(t), "format": t.config.format, "games": t.config.games});
        match self.live(id).await {
            Ok(live) => Ok(line(&*live.state.lock().await)),
            Err(e) if e.code == "elsewhere" => Ok(line(&self.rebuild(id).await?)),
            Err(e) => Err(e),
        }
    }

    /// The ids and names of the newest tournaments.
    pub async fn recent(self: &Arc<Self>, limit: usize) -> Result<Value, ApiError> {
        let ids = self
            .hub
            .store()
            .recent_tournaments(limit)
            .await
            .map_err(internal("listing tournaments"))?;
        let mut out = Vec::new();
        let line = |id: &str, t: &Tournament| {
            json!({
                "id": id,
                "name": t.config.name,
                "format": t.config.format,
                "players": t.players.len(),
                "status": status(t),
                "link": format!("/t/{id}"),
            })
        };
        for id in ids {
            match self.live(&id).await {
                Ok(live) => out.push(line(&id, &*live.state.lock().await)),
                // Run by another node: as the store has it.
                Err(e) if e.code == "elsewhere" => {
                    if let Ok(t) = self.rebuild(&id).await {
                        out.push(line(&id, &t));
                    }
                }
                Err(_) => {}
            }
        }
        Ok(json!({ "tournaments": out }))
    }
}

fn outcome_str(o: Outcome) -> &'static str {
    match o {
        Outcome::P1 => "p1",
        Outcome::P2 => "p2",
        Outcome::Draw => "draw",
    }
}

/// The most standings lines a webhook post lists.
const POSTED_STANDINGS: usize = 20;

/// The standings as posted: a line a player (the first [`POSTED_STANDINGS`]), `=1. Ann: 2
/// points, 2-0-0 (SB 1)` with the format's own tie-breaks and shared ranks.
fn standings_lines(t: &Tournament) -> Vec<String> {
    let mut lines: Vec<String> = t
        .standings()
        .iter()
        .take(POSTED_STANDINGS)
        .map(|s| {
            let breaks: Vec<String> = colosseum_tournament::standings::tie_breaks(&t.config.format)
                .iter()
                .map(|k| match *k {
                    "buchholz" => format!("Buchholz {}", s.buchholz),
                    _ => format!("SB {}", s.sonneborn_berger),
                })
                .collect();
            let tie = if breaks.is_empty() {
                String::new()
            } else {
                format!(" ({})", breaks.join(", "))
            };
            format!(
                "{}. {}: {}, {}-{}-{}{tie}",
                colosseum_tournament::standings::rank_label(s),
                t.line_entrant(s.player).name,
                colosseum_games::text::plural(s.points, "point"),
                s.wins,
                s.draws,
                s.losses
            )
        })
        .collect();
    if t.players.len() > POSTED_STANDINGS {
        lines.push(format!(
            "... and {} more",
            t.players.len() - POSTED_STANDINGS
        ));
    }
    lines
}

/// What a webhook announces for `event`, just applied to `t`: a round's pairings, a result the
/// match's own announcer does not post (a no-show forfeit, an adjudication), a forfeit undone,
/// the standings when a round is complete, the final standings. Everything here is public
/// (the tournament page shows it to anyone).
fn announcements(t: &Tournament, event: &Event) -> Vec<Post> {
    let name = |p: PlayerId| t.players[p].name.clone();
    let line_name = |l: usize| t.line_entrant(l).name.clone();
    let tname = &t.config.name;
    let standings = |title: String| Post {
        kind: "standings",
        title,
        lines: standings_lines(t),
        board: None,
    };
    let board_name = |round: usize, board: usize| {
        let [p1, p2] = t.board_names(round, board);
        format!("{p1} v {p2}")
    };
    match event {
        Event::RoundPaired { game, round, .. } => {
            let r = t.rounds.len();
            let game = colosseum_games::find(game).map_or(game.as_str(), |e| e.name);
            let mut lines: Vec<String> = round
                .games
                .iter()
                .enumerate()
                .map(|(b, g)| format!("Board {}: {} v {}", b + 1, name(g.p1), name(g.p2)))
                .collect();
            lines.extend(round.byes.iter().map(|&p| format!("Bye: {}", name(p))));
            vec![Post {
                kind: "pairings",
                title: format!("{tname}: round {r} ({game})"),
                lines,
                board: None,
            }]
        }
        Event::Result {
            round,
            board,
            outcome,
            how,
            ..
        } => {
            let mut posts = Vec::new();
            let seats = t.board_names(*round, *board);
            let words = match how {
                How::Played { .. } => None,
                How::NoShow { absent } => Some(format!(
                    "no-show ({} absent)",
                    absent
                        .iter()
                        .map(|s| seats[s.index()].as_str())
                        .collect::<Vec<_>>()
                        .join(" and ")
                )),
                How::Adjudicated { reason } => Some(format!(
                    "adjudicated by the host: {}",
                    colosseum_games::text::with_names(reason, [&seats[0], &seats[1]])
                )),
            };
            if let Some(words) = words {
                let result = match outcome {
                    Outcome::P1 => format!("{} wins", seats[0]),
                    Outcome::P2 => format!("{} wins", seats[1]),
                    Outcome::Draw => "a draw".to_string(),
                };
                posts.push(Post {
                    kind: "result",
                    title: format!("{tname}: round {}, board {}", round + 1, board + 1),
                    lines: vec![format!("{}: {result}, {words}", board_name(*round, *board))],
                    board: None,
                });
            }
            if *round + 1 == t.rounds.len() && t.rounds[*round].complete() {
                posts.push(standings(format!(
                    "{tname}: standings after round {}",
                    round + 1
                )));
            }
            posts
        }
        Event::ResultUndone { round, board, .. } => vec![Post {
            kind: "result",
            title: format!("{tname}: round {}, board {}", round + 1, board + 1),
            lines: vec![format!(
                "{}: the no-show forfeit is taken back; the game goes on",
                board_name(*round, *board)
            )],
            board: None,
        }],
        Event::Finished { .. } => {
            // The final standings lead with the winner.
            let mut post = standings(format!("{tname} is over: final standings"));
            let first: Vec<String> = t
                .standings()
                .iter()
                .filter(|s| s.rank == 1)
                .map(|s| line_name(s.player))
                .collect();
            let head = match first.as_slice() {
                [] => None,
                [one] => Some(format!("{one} wins the tournament.")),
                [rest @ .., last] => {
                    Some(format!("{} and {last} share first place.", rest.join(", ")))
                }
            };
            post.lines.splice(0..0, head);
            vec![post]
        }
        Event::Replaced { player, by, was, .. } => vec![Post {
            kind: "host",
            title: format!("{tname}: {was} is replaced by {}", by.name),
            lines: vec![format!(
                "{} takes {was}'s place (seed {}) from the next game on; {was}'s games stay {was}'s.",
                by.name,
                player + 1
            )],
            board: None,
        }],
        Event::MatchRemade {
            round,
            board,
            player,
            ..
        } => {
            let was = t
                .formers
                .iter()
                .rev()
                .find(|f| f.place == *player)
                .map_or_else(String::new, |f| f.entrant.name.clone());
            vec![Post {
                kind: "host",
                title: format!("{tname}: round {}, board {}", round + 1, board + 1),
                lines: vec![format!(
                    "{}: a new table, as {} takes {was}'s place before the game began.",
                    board_name(*round, *board),
                    name(*player)
                )],
                board: None,
            }]
        }
        Event::RoundWithdrawn { round, .. } => vec![Post {
            kind: "host",
            title: format!("{tname}: round {} is withdrawn", round + 1),
            lines: vec![format!(
                "A forfeit of round {round} is taken back; round {} is paired again when round {round} is over.",
                round + 1
            )],
            board: None,
        }],
        Event::WebhookSet {
            webhook: Some(_), ..
        } => vec![Post {
            kind: "webhook",
            title: format!("{tname}: announcements start here"),
            lines: vec!["Pairings, reveals with the board, results and standings follow.".into()],
            board: None,
        }],
        Event::Garnets {
            player, garnets, ..
        } => vec![Post {
            kind: "host",
            title: format!("{tname}: garnets"),
            lines: vec![format!(
                "The host set {}'s garnets to {garnets}.",
                name(*player)
            )],
            board: None,
        }],
        _ => Vec::new(),
    }
}

/// The tournament's JSON for a viewer (tokens only to whom they belong).
fn render(t: &Tournament, admin: bool, me: Option<PlayerId>) -> Value {
    let id = &t.config.id;
    let name_of = |p: PlayerId| t.players[p].name.clone();
    let rounds: Vec<Value> = t
        .rounds
        .iter()
        .enumerate()
        .map(|(r, round)| {
            let boards: Vec<Value> = round
                .pairing
                .games
                .iter()
                .zip(&round.boards)
                .enumerate()
                .map(|(b, (p, board))| {
                    let finished = board.result.is_some();
                    // Who played it, even if their place has been given to someone since.
                    let [n1, n2] = t.board_names(r, b);
                    json!({
                        "board": b,
                        "bracket": p.bracket,
                        "p1": {"player": p.p1, "name": n1},
                        "p2": {"player": p.p2, "name": n2},
                        "match": board.match_id,
                        "link": board.match_id.as_ref().map(|m| if finished { format!("/replay/{m}") } else { format!("/m/{m}") }),
                        "advantage": board.advantage,
                        "result": board.result.as_ref().map(|(o, _)| outcome_str(*o)),
                        "how": board.result.as_ref().map(|(_, h)| h),
                    })
                })
                .collect();
            json!({
                "round": r,
                "game": round.game,
                "boards": boards,
                "byes": round.pairing.byes.iter().map(|&p| name_of(p)).collect::<Vec<_>>(),
                "waiting": round.pairing.waiting.iter().map(|&p| name_of(p)).collect::<Vec<_>>(),
                "complete": round.complete(),
            })
        })
        .collect();
    let table: Vec<Value> = t
        .standings()
        .iter()
        .map(|s| {
            // A replaced player's line: their old place, and who took it.
            let former = s.player.checked_sub(t.players.len()).map(|i| &t.formers[i]);
            let entrant = t.line_entrant(s.player);
            json!({
                "rank": s.rank,
                "rank_label": colosseum_tournament::standings::rank_label(s),
                "tied": s.tied,
                "player": former.map_or(s.player, |f| f.place),
                "name": entrant.name,
                "garnets": entrant.garnets,
                "replaced_by": former.map(|f| f.by.clone()),
                "points": s.points,
                "buchholz": s.buchholz,
                "sonneborn_berger": s.sonneborn_berger,
                "wins": s.wins, "draws": s.draws, "losses": s.losses, "byes": s.byes,
                "out_in_round": s.out_in_round,
            })
        })
        .collect();
    let bracket = t.config.format.is_elimination().then(|| {
        let mut by: Vec<(Bracket, Vec<Value>)> = Vec::new();
        for (r, round) in rounds.iter().enumerate() {
            for board in round["boards"].as_array().into_iter().flatten() {
                let bracket: Bracket =
                    serde_json::from_value(board["bracket"].clone()).unwrap_or(Bracket::Main);
                let mut b = board.clone();
                b["round"] = json!(r);
                match by.iter_mut().find(|(k, _)| *k == bracket) {
                    Some((_, v)) => v.push(b),
                    None => by.push((bracket, vec![b])),
                }
            }
        }
        by.into_iter()
            .map(|(k, games)| json!({"bracket": k, "games": games}))
            .collect::<Vec<_>>()
    });
    let players: Vec<Value> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "player": i,
                "name": p.name,
                "bot": p.bot,
                "garnets": p.garnets,
                // Who held the place before, oldest first.
                "replaced": t.formers.iter().filter(|f| f.place == i).map(|f| json!({
                    "name": f.entrant.name,
                    "at": f.at,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let you = me.map(|p| {
        let mut current = Value::Null;
        if let Some(round) = t.rounds.last() {
            let r = t.rounds.len() - 1;
            for (b, (g, board)) in round.pairing.games.iter().zip(&round.boards).enumerate() {
                let who = t.board_occupants(r, b);
                let seat = if g.p1 == p && who[0] == t.occupant[p] {
                    Seat::P1
                } else if g.p2 == p && who[1] == t.occupant[p] {
                    Seat::P2
                } else {
                    continue;
                };
                current = json!({
                    "round": t.rounds.len() - 1,
                    "seat": seat,
                    "opponent": t.board_names(r, b)[seat.other().index()],
                    "match": board.match_id,
                    "result": board.result.as_ref().map(|(o, _)| outcome_str(*o)),
                    "link": match (&board.match_id, &board.tokens[seat.index()]) {
                        (Some(m), Some(tok)) if board.result.is_none() => Some(format!("/m/{m}#seat={tok}")),
                        (Some(m), _) => Some(format!("/replay/{m}")),
                        _ => None,
                    },
                });
            }
            if round.pairing.byes.contains(&p) {
                current = json!({"round": t.rounds.len() - 1, "bye": true});
            }
        }
        // Every game of the player's so far, with its result and table or replay.
        let games: Vec<Value> = t
            .rounds
            .iter()
            .enumerate()
            .flat_map(|(r, round)| {
                round
                    .pairing
                    .games
                    .iter()
                    .zip(&round.boards)
                    .enumerate()
                    .filter(move |(b, (g, _))| {
                        let who = t.board_occupants(r, *b);
                        (g.p1 == p && who[0] == t.occupant[p])
                            || (g.p2 == p && who[1] == t.occupant[p])
                    })
                    .map(move |(b, (g, board))| {
                        let seat = if g.p1 == p && t.board_occupants(r, b)[0] == t.occupant[p] {
                            Seat::P1
                        } else {
                            Seat::P2
                        };
                        json!({
                            "round": r,
                            "seat": seat,
                            "opponent": t.board_names(r, b)[seat.other().index()],
                            "result": board.result.as_ref().map(|(o, _)| match (o, seat) {
                                (Outcome::Draw, _) => "draw",
                                (Outcome::P1, Seat::P1) | (Outcome::P2, Seat::P2) => "won",
                                _ => "lost",
                            }),
                            "match": board.match_id,
                        })
                    })
            })
            .collect();
        json!({"player": p, "name": name_of(p), "current": current, "games": games})
    });
    let mut out = json!({
        "id": id,
        "name": t.config.name,
        "format": t.config.format,
        "games": t.config.games,
        "pick": t.config.pick,
        "cap": t.config.cap,
        "no_show_s": t.config.no_show_ms.map(|ms| ms / 1000),
        "auto_rounds": t.config.auto_rounds,
        "status": status(t),
        "tie_breaks": colosseum_tournament::standings::tie_breaks(&t.config.format),
        "registration": t.config.registration_token.is_some() && !t.started,
        "rounds_planned": t.config.format.rounds(t.players.len()),
        "players": players,
        "rounds": rounds,
        "standings": table,
        "bracket": bracket,
        "you": you,
        "admin": admin,
    });
    if matches!(t.config.format, Format::Swiss { .. }) {
        // The pairing rules as the pairing code states them, for the page.
        out["pairing_rules"] = json!(colosseum_tournament::swiss::RULES);
    }
    if admin {
        out["webhook"] = json!(t
            .webhook
            .as_ref()
            .map(|w| json!({"url": w.url, "format": w.format})));
        out["links"] = json!({
            "admin": format!("/t/{id}#admin={}", t.config.admin_token),
            "register": t.config.registration_token.as_ref().map(|r| format!("/t/{id}#register={r}")),
            "players": t.players.iter().map(|p| json!({
                "name": p.name,
                "link": p.token.as_ref().map(|tok| format!("/t/{id}#player={tok}")),
            })).collect::<Vec<_>>(),
        });
        // The log without anyone's token.
        out["log"] = json!(t
            .log
            .iter()
            .map(|e| {
                let mut v = serde_json::to_value(e).expect("events serialize");
                for key in ["player", "by"] {
                    if let Some(obj) = v.get_mut(key).and_then(Value::as_object_mut) {
                        obj.remove("token");
                    }
                }
                if let Some(obj) = v.as_object_mut() {
                    obj.remove("tokens");
                    // A webhook's URL is a secret even in the host's log: its host only.
                    if let Some(Value::Object(hook)) = obj.get_mut("webhook") {
                        let host = hook
                            .get("url")
                            .and_then(Value::as_str)
                            .and_then(|u| u.parse::<axum::http::Uri>().ok())
                            .and_then(|u| u.host().map(str::to_string));
                        hook.remove("url");
                        hook.insert("host".into(), json!(host));
                    }
                }
                v
            })
            .collect::<Vec<_>>());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use colosseum_tournament::{Bracket, Pairing, Round};

    fn game(p1: PlayerId, p2: PlayerId) -> Pairing {
        Pairing {
            p1,
            p2,
            bracket: Bracket::Main,
        }
    }

    /// A round robin of three in a cycle (each beats one, loses to one, has a bye).
    fn cycle() -> Tournament {
        let mut t = Tournament::new(TournamentConfig {
            id: "t".into(),
            name: "Cycle".into(),
            games: vec![GameChoice {
                game: "goofspiel".into(),
                options: RawOptions::default(),
            }],
            pick: GamePick::Rotate,
            format: Format::RoundRobin { double: false },
            time: None,
            cap: 3,
            no_show_ms: None,
            auto_rounds: true,
            admin_token: "a".into(),
            registration_token: None,
            created_at: 0,
            seed: 0,
            webhook: None,
            season: None,
            discord: None,
        });
        for name in ["Ann", "Bo", "Cy"] {
            let player = Entrant {
                name: name.into(),
                bot: Some("random".into()),
                token: None,
                garnets: 0,
                season_player: None,
                discord: None,
            };
            t.apply(Event::Entered { at: 0, player }).unwrap();
        }
        t.apply(Event::Started { at: 0 }).unwrap();
        t
    }

    fn play(t: &mut Tournament, p1: PlayerId, p2: PlayerId, bye: PlayerId) -> Vec<Post> {
        let round = t.rounds.len();
        t.apply(Event::RoundPaired {
            at: 0,
            game: "goofspiel".into(),
            options: RawOptions::default(),
            round: Round {
                games: vec![game(p1, p2)],
                byes: vec![bye],
                waiting: Vec::new(),
            },
        })
        .unwrap();
        let result = Event::Result {
            at: 0,
            round,
            board: 0,
            outcome: Outcome::P1,
            how: How::Played {
                winner: Some(Seat::P1),
                reason: "more points".into(),
            },
        };
        t.apply(result.clone()).unwrap();
        announcements(t, &result)
    }

    fn standings_lines(posts: &[Post]) -> Vec<String> {
        posts
            .iter()
            .find(|p| p.kind == "standings")
            .map(|p| p.lines.clone())
            .unwrap_or_default()
    }

    #[test]
    fn posted_standings_show_ties_the_formats_own_tie_breaks_and_the_right_words() {
        let mut t = cycle();
        let after_one = standings_lines(&play(&mut t, 0, 1, 2));
        // Ann won, Cy had a bye: 1 point each, unbroken (they have not met).
        assert_eq!(
            after_one[0], "=1. Ann: 1 point, 1-0-0 (SB 0)",
            "{after_one:?}"
        );
        assert_eq!(
            after_one[1], "=1. Cy: 1 point, 0-0-0 (SB 0)",
            "{after_one:?}"
        );
        assert_eq!(
            after_one[2], "3. Bo: 0 points, 0-0-1 (SB 0)",
            "{after_one:?}"
        );
        play(&mut t, 1, 2, 0);
        let last = standings_lines(&play(&mut t, 2, 0, 1));
        assert_eq!(
            last,
            [
                "=1. Ann: 2 points, 1-0-1 (SB 2)",
                "=1. Bo: 2 points, 1-0-1 (SB 2)",
                "=1. Cy: 2 points, 1-0-1 (SB 2)",
            ]
        );
        assert!(!last.concat().contains("Buchholz"));
    }

    #[test]
    fn a_replacement_is_posted_and_earlier_boards_keep_their_players() {
        let mut t = cycle();
        play(&mut t, 0, 1, 2);
        let replaced = Event::Replaced {
            at: 5,
            player: 1,
            by: Entrant {
                name: "Zed".into(),
                bot: Some("random".into()),
                token: None,
                garnets: 0,
                season_player: None,
                discord: None,
            },
            was: "Bo".into(),
        };
        t.apply(replaced.clone()).unwrap();
        let posts = announcements(&t, &replaced);
        assert_eq!(posts.len(), 1);
        assert_eq!(posts[0].title, "Cycle: Bo is replaced by Zed");
        assert_eq!(t.board_names(0, 0), ["Ann".to_string(), "Bo".to_string()]);
        let result = play(&mut t, 1, 2, 0);
        assert_eq!(t.board_names(1, 0), ["Zed".to_string(), "Cy".to_string()]);
        let lines = standings_lines(&result);
        assert!(
            lines.iter().any(|l| l.contains("Bo: 0 points, 0-0-1")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("Zed: 1 point, 1-0-0")),
            "{lines:?}"
        );
        let table = t.standings();
        let line = |name: &str| {
            table
                .iter()
                .find(|s| t.line_entrant(s.player).name == name)
                .unwrap()
                .clone()
        };
        assert_eq!((line("Bo").losses, line("Bo").wins), (1, 0));
        assert_eq!((line("Zed").wins, line("Zed").losses), (1, 0));
        assert_eq!(table.len(), 4);
    }

    /// A current-round game made for Bo that had not started is made again for Zed: the board
    /// reads Zed, its match is to be made again (the driver's next step), its no-show time
    /// counts from the replacement, and the change is posted.
    #[test]
    fn an_unstarted_game_goes_to_the_replacement_with_a_new_table() {
        let mut t = cycle();
        t.config.no_show_ms = Some(60_000);
        t.apply(Event::RoundPaired {
            at: 0,
            game: "goofspiel".into(),
            options: RawOptions::default(),
            round: Round {
                games: vec![game(0, 1)],
                byes: vec![2],
                waiting: Vec::new(),
            },
        })
        .unwrap();
        t.apply(Event::MatchCreated {
            at: 0,
            round: 0,
            board: 0,
            id: "old".into(),
            tokens: [None, None],
            advantage: None,
        })
        .unwrap();
        t.apply(Event::Replaced {
            at: 50_000,
            player: 1,
            by: Entrant {
                name: "Zed".into(),
                bot: None,
                token: Some("z".into()),
                garnets: 0,
                season_player: None,
                discord: None,
            },
            was: "Bo".into(),
        })
        .unwrap();
        // Replaced alone: the match made for Bo stays Bo's.
        assert_eq!(t.board_names(0, 0), ["Ann".to_string(), "Bo".to_string()]);
        let remade = Event::MatchRemade {
            at: 50_000,
            round: 0,
            board: 0,
            player: 1,
        };
        t.apply(remade.clone()).unwrap();
        assert_eq!(t.board_names(0, 0), ["Ann".to_string(), "Zed".to_string()]);
        assert!(t.rounds[0].boards[0].match_id.is_none());
        assert!(matches!(
            t.next_step(60_000, &HashMap::new()),
            Step::CreateMatch { round: 0, board: 0 }
        ));
        let posts = announcements(&t, &remade);
        assert_eq!(posts[0].title, "Cycle: round 1, board 1");
        assert_eq!(
            posts[0].lines,
            ["Ann v Zed: a new table, as Zed takes Bo's place before the game began."]
        );
        // Zed's no-show time counts from the replacement, not from the round's pairing.
        t.apply(Event::MatchCreated {
            at: 50_000,
            round: 0,
            board: 0,
            id: "new".into(),
            tokens: [None, None],
            advantage: None,
        })
        .unwrap();
        let absent = HashMap::from([(
            "new".to_string(),
            MatchSeen {
                joined: [true, false],
                result: None,
            },
        )]);
        assert!(matches!(t.next_step(100_000, &absent), Step::Wait));
        assert!(matches!(
            t.next_step(110_000, &absent),
            Step::Record(Event::Result {
                outcome: Outcome::P1,
                ..
            })
        ));
        // A game with its result is not made again.
        assert!(t.clone().apply(remade).is_ok());
        let mut done = t.clone();
        done.apply(Event::Result {
            at: 0,
            round: 0,
            board: 0,
            outcome: Outcome::P1,
            how: How::Adjudicated { reason: "x".into() },
        })
        .unwrap();
        assert!(done
            .apply(Event::MatchRemade {
                at: 0,
                round: 0,
                board: 0,
                player: 1
            })
            .is_err());
    }
}

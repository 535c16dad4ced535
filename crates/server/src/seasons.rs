//! Seasons: a roster of players who keep their identity across tournaments and rated casual
//! matches, and their Glicko-2 rating in each game (`colosseum_tournament::rating`).
//!
//! A season is stored like a tournament: its [`SeasonConfig`] (one row) and an append-only log
//! of [`SeasonEvent`]s; its state is the events applied in order ([`Season::apply`], pure, in
//! `colosseum_tournament::season`; loaded with `colosseum_tournament::fold::Fold::fold`), so a
//! restart rebuilds the roster and every rating. A rating change is an event holding the
//! ratings before and after, so a stored rating never changes when the rating code does.
//!
//! **What is rated.** A game between two roster players: a season tournament's game that was
//! played to its end or adjudicated by the host (not a no-show forfeit, not a bye), and a rated
//! casual match (`POST /api/seasons/{id}/matches`) once it ends. A game is rated once, keyed by
//! `t:TOURNAMENT:ROUND:BOARD` or `m:MATCH`: a rated game is never rated again, so a result the
//! host changes later does not change the ratings. A drawn game rates as a draw, also in a
//! bracket (which gives the tournament's point to the advantage holder).
//!
//! **Rating periods.** Each rated game is one rating period for each of its players, rated
//! against the other's rating before the game (`colosseum_tournament::rating::rate_game`): the
//! table moves as soon as a game ends. Every player starts each game at 1500, RD 350, σ 0.06.
//!
//! The tournaments call [`Seasons::rate`] when a board gets its result (and again for every
//! result when their driver starts, so a crash between the two loses nothing); a rated casual
//! match has a watcher task that rates it when it ends (restarted by [`Seasons::resume`]).
//! Lock order: a tournament's lock, then a season's, never the other way.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use colosseum_engine::{RawOptions, Seat};
use colosseum_host::{Player, TimeControl};
use colosseum_tournament::fold::Fold;
pub use colosseum_tournament::season::{
    RatedMatch, RatingRow, Season, SeasonConfig, SeasonEvent, SeasonPlayer, SeasonPlayerId,
};
use colosseum_tournament::Outcome;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{ApiError, ErrorCode};
use crate::hub::{check_name, CreateMatch, Hub};
use crate::store::Store;

/// The longest season name.
pub const MAX_SEASON_NAME: usize = 80;
/// The most players in a season's roster.
pub const MAX_ROSTER: usize = 256;
/// How often a rated casual match's watcher looks at it.
const WATCH: Duration = Duration::from_millis(200);

/// A rating as the pages show it: rounded, with its games.
fn rating_json(row: &RatingRow) -> Value {
    json!({
        "rating": (row.rating.rating * 10.0).round() / 10.0,
        "deviation": (row.rating.deviation * 10.0).round() / 10.0,
        "volatility": (row.rating.volatility * 1e6).round() / 1e6,
        "games": row.games,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
    })
}

/// A season's ratings in a tournament's games, for the tournament's page.
#[derive(Clone, Debug)]
pub struct SeasonRatings {
    /// The season's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Each game's rows by roster player.
    pub ratings: BTreeMap<String, BTreeMap<SeasonPlayerId, RatingRow>>,
}

impl SeasonRatings {
    /// `player`'s rating in `game` as JSON (a newcomer's when unrated).
    #[must_use]
    pub fn json(&self, game: &str, player: SeasonPlayerId) -> Value {
        let row = self
            .ratings
            .get(game)
            .and_then(|t| t.get(&player))
            .copied()
            .unwrap_or_default();
        rating_json(&row)
    }
}

type LiveSeason = Arc<tokio::sync::Mutex<Season>>;

/// The server's seasons.
pub struct Seasons<S: Store> {
    hub: Arc<Hub<S>>,
    live: Mutex<HashMap<String, LiveSeason>>,
    watched: Mutex<HashSet<String>>,
}

/// A request to create a season (`POST /api/seasons`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateSeason {
    /// The name.
    pub name: String,
    /// The first players' names.
    #[serde(default)]
    pub players: Vec<String>,
}

/// A request for a rated casual match (`POST /api/seasons/{id}/matches`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatedMatchRequest {
    /// The game.
    pub game: String,
    /// Its options.
    #[serde(default)]
    pub options: RawOptions,
    /// The opponent's roster id.
    pub opponent: SeasonPlayerId,
    /// The caller's seat (default `p1`).
    #[serde(default)]
    pub seat: Option<Seat>,
    /// The time control (absent: the game's default).
    #[serde(default)]
    pub time: Option<TimeControl>,
}

/// A player's or host's secret token: 16 random bytes in hex.
fn random_token() -> String {
    crate::hub::random_hex(16)
}

use crate::error::internal;

impl<S: Store> Seasons<S> {
    /// The seasons of `hub`'s server.
    pub fn new(hub: Arc<Hub<S>>) -> Arc<Self> {
        Arc::new(Seasons {
            hub,
            live: Mutex::new(HashMap::new()),
            watched: Mutex::new(HashSet::new()),
        })
    }

    fn live_map(&self) -> std::sync::MutexGuard<'_, HashMap<String, LiveSeason>> {
        self.live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Loads every season and restarts the watchers of its rated casual matches not yet rated.
    /// Returns how many seasons.
    pub async fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self
            .hub
            .store()
            .unfinished_seasons()
            .await
            .map_err(internal("loading the seasons"))?;
        let mut n = 0;
        for id in ids {
            match self.live(&id).await {
                Ok(live) => {
                    n += 1;
                    let pending: Vec<String> = live
                        .lock()
                        .await
                        .matches
                        .iter()
                        .filter(|m| m.done.is_none())
                        .map(|m| m.id.clone())
                        .collect();
                    for m in pending {
                        self.watch(&id, &m);
                    }
                }
                Err(e) => tracing::error!(season = %id, "not resumed: {}", e.message),
            }
        }
        Ok(n)
    }

    /// The season `id`, from memory or rebuilt from the store.
    async fn live(self: &Arc<Self>, id: &str) -> Result<LiveSeason, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found("no such season"));
        }
        let kept = self.live_map().get(id).cloned();
        if let Some(l) = kept {
            // Other nodes on the store may have added to its log: read what they did first.
            if self.hub.shared() {
                self.catch_up(&mut *l.lock().await).await?;
            }
            return Ok(l);
        }
        let stored = self
            .hub
            .store()
            .load_season(id)
            .await
            .map_err(internal("loading a season"))?
            .ok_or_else(|| ApiError::not_found(format!("no season `{id}`")))?;
        let s = Season::fold(&stored.config, &stored.events)
            .map_err(|e| ApiError::internal("rebuilding a season", e))?;
        let live = Arc::new(tokio::sync::Mutex::new(s));
        Ok(self
            .live_map()
            .entry(id.to_string())
            .or_insert(live)
            .clone())
    }

    /// Applies the events other nodes stored after the ones `s` has (a store several nodes
    /// share).
    async fn catch_up(&self, s: &mut Season) -> Result<(), ApiError> {
        let Some(stored) = self
            .hub
            .store()
            .load_season(&s.config.id)
            .await
            .map_err(internal("loading a season"))?
        else {
            return Ok(());
        };
        let from = s.stored;
        s.fold_from(&stored.events, from)
            .map_err(|e| ApiError::internal("rebuilding a season", e))
    }

    /// Stores `events` after the ones stored, then applies them.
    async fn record(&self, s: &mut Season, events: Vec<SeasonEvent>) -> Result<(), ApiError> {
        if events.is_empty() {
            return Ok(());
        }
        let texts: Vec<String> = events
            .iter()
            .map(|e| serde_json::to_string(e).expect("events serialize"))
            .collect();
        self.hub
            .store()
            .append_season(&s.config.id, s.stored, &texts)
            .await
            .map_err(internal("storing a season event"))?;
        for e in &events {
            s.apply(e)
                .map_err(|e| ApiError::internal("applying a season event", e))?;
        }
        Ok(())
    }

    fn check_new_name(s: &Season, name: &str) -> Result<String, ApiError> {
        let name = check_name(name)?;
        if s.players
            .iter()
            .any(|p| crate::hub::same_name(&p.name, &name))
        {
            return Err(ApiError::bad_request(format!(
                "`{name}` is on the roster already: names differ within a season as people read them (case and look-alike letters aside)"
            )));
        }
        if s.players.len() >= MAX_ROSTER {
            return Err(ApiError::bad_request(format!(
                "a season's roster has at most {MAX_ROSTER} players"
            )));
        }
        Ok(name)
    }

    /// Creates a season; answers its id, the host's token and the links.
    pub async fn create(self: &Arc<Self>, req: CreateSeason) -> Result<Value, ApiError> {
        let name = req.name.trim().to_string();
        if name.is_empty() || name.chars().count() > MAX_SEASON_NAME {
            return Err(ApiError::bad_request(format!(
                "a season's name has 1 to {MAX_SEASON_NAME} characters"
            )));
        }
        let now = self.hub.now();
        let config = SeasonConfig {
            id: random_token()[..16].to_string(),
            name,
            admin_token: random_token(),
            created_at: now,
        };
        // Check the players before anything is stored.
        let mut s = Season::new(config.clone());
        let mut events = Vec::new();
        for p in &req.players {
            let name = Self::check_new_name(&s, p)?;
            let e = SeasonEvent::PlayerAdded {
                at: now,
                player: SeasonPlayer {
                    name,
                    token: random_token(),
                },
            };
            s.apply(&e).map_err(ApiError::bad_request)?;
            events.push(e);
        }
        let mut s = Season::new(config.clone());
        self.hub
            .store()
            .create_season(
                &config.id,
                now,
                &serde_json::to_string(&config).expect("configs serialize"),
            )
            .await
            .map_err(internal("creating a season"))?;
        self.record(&mut s, events).await?;
        let links = links(&s);
        self.live_map()
            .insert(config.id.clone(), Arc::new(tokio::sync::Mutex::new(s)));
        tracing::info!(season = %config.id, "season created");
        Ok(json!({
            "id": config.id,
            "admin_token": config.admin_token,
            "links": links,
        }))
    }

    /// Adds players to the roster (the host only); answers each one's id and link.
    pub async fn add_players(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        names: &[String],
    ) -> Result<Value, ApiError> {
        let live = self.live(id).await?;
        let mut s = live.lock().await;
        if !token.is_some_and(|t| s.is_admin(t)) {
            return Err(ApiError::forbidden(
                "only the season's host can add players (the admin link's token)",
            ));
        }
        if names.is_empty() {
            return Err(ApiError::bad_request(
                "give `name` (one player) or `names` (a list)",
            ));
        }
        let at = self.hub.now();
        let mut next = s.clone();
        let mut events = Vec::new();
        for n in names {
            let name = Self::check_new_name(&next, n)?;
            let e = SeasonEvent::PlayerAdded {
                at,
                player: SeasonPlayer {
                    name,
                    token: random_token(),
                },
            };
            next.apply(&e).map_err(ApiError::bad_request)?;
            events.push(e);
        }
        let first = s.players.len();
        self.record(&mut s, events).await?;
        let added: Vec<Value> = s.players[first..]
            .iter()
            .enumerate()
            .map(|(i, p)| {
                json!({
                    "player": first + i,
                    "name": p.name,
                    "link": format!("/s/{id}#player={}", p.token),
                })
            })
            .collect();
        Ok(json!({ "players": added }))
    }

    /// Adds a player who registers for one of season `id`'s tournaments by its registration
    /// link (the caller checked the link) to the roster; answers their id and season token.
    pub async fn join_by_registration(
        self: &Arc<Self>,
        id: &str,
        name: &str,
    ) -> Result<(SeasonPlayerId, String), ApiError> {
        let live = self.live(id).await?;
        let mut s = live.lock().await;
        let name = check_name(name)?;
        if s.players
            .iter()
            .any(|p| crate::hub::same_name(&p.name, &name))
        {
            return Err(ApiError::bad_request(format!(
                "`{name}` is on the season's roster already: a roster player registers with their \
                 season link (`season_token`: the token of /s/ID#player=TOKEN), or pick another name"
            )));
        }
        let name = Self::check_new_name(&s, &name)?;
        let token = random_token();
        let e = SeasonEvent::PlayerAdded {
            at: self.hub.now(),
            player: SeasonPlayer {
                name,
                token: token.clone(),
            },
        };
        self.record(&mut s, vec![e]).await?;
        Ok((s.players.len() - 1, token))
    }

    /// The roster player of season `id` whose season link's token is `token`: their id and name.
    pub async fn roster_player(
        self: &Arc<Self>,
        id: &str,
        token: &str,
    ) -> Result<(SeasonPlayerId, String), ApiError> {
        let live = self.live(id).await?;
        let s = live.lock().await;
        let player = s.player_of(token).ok_or_else(|| {
            ApiError::forbidden(
                "`season_token` is not a player's link of this tournament's season \
                 (/s/ID#player=TOKEN)",
            )
        })?;
        Ok((player, s.players[player].name.clone()))
    }

    /// The names of roster players `ids` for a tournament of season `id`, which only its host
    /// (`token`) may create.
    pub async fn roster_for_tournament(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        ids: &[SeasonPlayerId],
    ) -> Result<Vec<String>, ApiError> {
        let live = self.live(id).await?;
        let s = live.lock().await;
        if !token.is_some_and(|t| s.is_admin(t)) {
            return Err(ApiError::forbidden(
                "a season's tournament is created by the season's host: send the season's admin \
                 token (`Authorization: Bearer`)",
            ));
        }
        ids.iter()
            .map(|&p| {
                s.players.get(p).map(|p| p.name.clone()).ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "no player {p} in the season's roster (ids count from 0 to {})",
                        s.players.len().saturating_sub(1)
                    ))
                })
            })
            .collect()
    }

    /// Records that tournament `tournament` belongs to season `id`.
    pub async fn add_tournament(
        self: &Arc<Self>,
        id: &str,
        tournament: &str,
        name: &str,
    ) -> Result<(), ApiError> {
        let live = self.live(id).await?;
        let mut s = live.lock().await;
        let at = self.hub.now();
        self.record(
            &mut s,
            vec![SeasonEvent::TournamentAdded {
                at,
                id: tournament.to_string(),
                name: name.to_string(),
            }],
        )
        .await
    }

    /// Rates game `key` (once: a key rated already changes nothing).
    pub async fn rate(
        self: &Arc<Self>,
        id: &str,
        key: &str,
        game: &str,
        players: [SeasonPlayerId; 2],
        outcome: Outcome,
    ) -> Result<(), ApiError> {
        let live = self.live(id).await?;
        let mut s = live.lock().await;
        if players[0] == players[1] || players.iter().any(|&p| p >= s.players.len()) {
            return Err(ApiError::bad_request(format!(
                "game {key}: not two players of the roster"
            )));
        }
        let at = self.hub.now();
        let Some(event) = s.rate_event(at, key, game, players, outcome) else {
            return Ok(());
        };
        self.record(&mut s, vec![event]).await?;
        tracing::info!(season = %id, key, "rated");
        Ok(())
    }

    /// The season's name and ratings (for a tournament's page).
    pub async fn ratings(self: &Arc<Self>, id: &str) -> Result<SeasonRatings, ApiError> {
        let live = self.live(id).await?;
        let s = live.lock().await;
        Ok(SeasonRatings {
            id: s.config.id.clone(),
            name: s.config.name.clone(),
            ratings: s.ratings.clone(),
        })
    }

    /// Creates a rated casual match between the caller (a roster player, by their season token)
    /// and `req.opponent`; answers the caller's seat link. The opponent finds their seat on
    /// their season page.
    pub async fn create_match(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        req: RatedMatchRequest,
    ) -> Result<Value, ApiError> {
        let live = self.live(id).await?;
        let mut s = live.lock().await;
        let Some(me) = token.and_then(|t| s.player_of(t)) else {
            return Err(ApiError::forbidden(
                "a rated match is created by a player of the season: send your season link's \
                 token (`Authorization: Bearer`)",
            ));
        };
        let opponent = req.opponent;
        if opponent >= s.players.len() || opponent == me {
            return Err(ApiError::bad_request(format!(
                "`opponent` is another player of the roster: an id from 0 to {}, not yours ({me})",
                s.players.len().saturating_sub(1)
            )));
        }
        let seat = req.seat.unwrap_or(Seat::P1);
        let players = match seat {
            Seat::P1 => [me, opponent],
            Seat::P2 => [opponent, me],
        };
        let entry =
            colosseum_games::find(&req.game).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let game = entry.id.to_string();
        let created = self
            .hub
            .create(CreateMatch {
                game: game.clone(),
                options: req.options,
                seed: None,
                seats: Some(players.map(|p| Player::Human {
                    name: Some(s.players[p].name.clone()),
                })),
                time: req.time,
                replay_on_draw: None,
                trivia: None,
                race_bot: None,
                sealed: false,
                webhook: None,
                advantage: None,
                tournament: None,
                bot_names: [None, None],
            })
            .await?;
        let at = self.hub.now();
        self.record(
            &mut s,
            vec![SeasonEvent::MatchCreated {
                at,
                id: created.id.clone(),
                game,
                players,
                tokens: created.tokens.clone(),
            }],
        )
        .await?;
        drop(s);
        self.watch(id, &created.id);
        let mine = created.tokens[seat.index()].clone().unwrap_or_default();
        Ok(json!({
            "match": created.id,
            "seat": seat,
            "token": mine,
            "link": format!("/m/{}#seat={mine}", created.id),
            "spectate": format!("/m/{}", created.id),
        }))
    }

    /// Follows rated casual match `match_id` of season `id` until it is rated (a task).
    fn watch(self: &Arc<Self>, id: &str, match_id: &str) {
        let key = format!("{id}/{match_id}");
        {
            let mut w = self
                .watched
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if !w.insert(key.clone()) {
                return;
            }
        }
        let me = self.clone();
        let (id, match_id) = (id.to_string(), match_id.to_string());
        tokio::spawn(async move {
            loop {
                match me.check_match(&id, &match_id).await {
                    Ok(true) => break,
                    Ok(false) => {}
                    Err(e) => tracing::warn!(season = %id, match_id, "rated match: {}", e.message),
                }
                tokio::time::sleep(WATCH).await;
            }
            me.watched
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&key);
        });
    }

    /// Rates a rated casual match that has ended; `true` once it needs no more watching.
    async fn check_match(self: &Arc<Self>, id: &str, match_id: &str) -> Result<bool, ApiError> {
        let key = format!("m:{match_id}");
        let live = self.live(id).await?;
        let (game, players) = {
            let s = live.lock().await;
            if s.rated.contains(&key) {
                return Ok(true);
            }
            let Some(m) = s.matches.iter().find(|m| m.id == match_id) else {
                return Ok(true);
            };
            (m.game.clone(), m.players)
        };
        let at = self.hub.now();
        let event = match self.hub.table(match_id).await {
            Ok(table) => {
                let meta = self.hub.stored(&table).await;
                let Some(result) = meta.result else {
                    return Ok(false);
                };
                let outcome = match result.winner {
                    Some(Seat::P1) => Outcome::P1,
                    Some(Seat::P2) => Outcome::P2,
                    None => Outcome::Draw,
                };
                let s = live.lock().await;
                s.rate_event(at, &key, &game, players, outcome)
            }
            Err(e) if e.code == ErrorCode::Expired => Some(SeasonEvent::Unrated {
                at,
                key: key.clone(),
                reason: "expired: a seat was never taken".into(),
            }),
            // Set aside (quarantined) or gone: not rated, and not watched for ever.
            Err(e) if matches!(e.code, ErrorCode::Quarantined | ErrorCode::NotFound) => {
                Some(SeasonEvent::Unrated {
                    at,
                    key: key.clone(),
                    reason: format!("not rated: {}", e.message),
                })
            }
            Err(e) => return Err(e),
        };
        let mut s = live.lock().await;
        if let Some(event) = event.filter(|_| !s.rated.contains(&key)) {
            self.record(&mut s, vec![event]).await?;
        }
        Ok(true)
    }

    /// The season as `token` may see it: everyone sees the roster, the ratings, the tournaments
    /// and the rated matches (without tokens); a player's token adds their own page (`you`:
    /// their seats in rated matches); the host's adds every link.
    pub async fn view(self: &Arc<Self>, id: &str, token: Option<&str>) -> Result<Value, ApiError> {
        let live = self.live(id).await?;
        let s = live.lock().await;
        let admin = token.is_some_and(|t| s.is_admin(t));
        let me = token.and_then(|t| s.player_of(t));
        if token.is_some_and(|t| !t.is_empty()) && !admin && me.is_none() {
            return Err(ApiError::forbidden(
                "this token is not this season's host or one of its players",
            ));
        }
        Ok(render(&s, admin, me))
    }

    /// The ids and names of the newest seasons.
    pub async fn recent(self: &Arc<Self>, limit: usize) -> Result<Value, ApiError> {
        let ids = self
            .hub
            .store()
            .recent_seasons(limit)
            .await
            .map_err(internal("listing seasons"))?;
        let mut out = Vec::new();
        for id in ids {
            if let Ok(live) = self.live(&id).await {
                let s = live.lock().await;
                out.push(json!({
                    "id": id,
                    "name": s.config.name,
                    "players": s.players.len(),
                    "tournaments": s.tournaments.len(),
                    "link": format!("/s/{id}"),
                }));
            }
        }
        Ok(json!({ "seasons": out }))
    }
}

fn links(s: &Season) -> Value {
    let id = &s.config.id;
    json!({
        "page": format!("/s/{id}"),
        "admin": format!("/s/{id}#admin={}", s.config.admin_token),
        "players": s.players.iter().enumerate().map(|(i, p)| json!({
            "player": i,
            "name": p.name,
            "link": format!("/s/{id}#player={}", p.token),
        })).collect::<Vec<_>>(),
    })
}

fn render(s: &Season, admin: bool, me: Option<SeasonPlayerId>) -> Value {
    let id = &s.config.id;
    let players: Vec<Value> = s
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"player": i, "name": p.name}))
        .collect();
    // Each game's table, best rating first (then more games, then roster order).
    let ratings: serde_json::Map<String, Value> = s
        .ratings
        .iter()
        .map(|(game, rows)| {
            let mut rows: Vec<(&SeasonPlayerId, &RatingRow)> = rows.iter().collect();
            rows.sort_by(|a, b| {
                b.1.rating
                    .rating
                    .total_cmp(&a.1.rating.rating)
                    .then(b.1.games.cmp(&a.1.games))
                    .then(a.0.cmp(b.0))
            });
            let rows: Vec<Value> = rows
                .into_iter()
                .enumerate()
                .map(|(rank, (p, row))| {
                    let mut v = rating_json(row);
                    v["rank"] = json!(rank + 1);
                    v["player"] = json!(p);
                    v["name"] = json!(s.players[*p].name);
                    v
                })
                .collect();
            (game.clone(), Value::Array(rows))
        })
        .collect();
    let tournaments: Vec<Value> = s
        .tournaments
        .iter()
        .map(|(tid, name)| json!({"id": tid, "name": name, "link": format!("/t/{tid}")}))
        .collect();
    let matches: Vec<Value> = s
        .matches
        .iter()
        .map(|m| {
            json!({
                "match": m.id,
                "game": m.game,
                "p1": {"player": m.players[0], "name": s.players[m.players[0]].name},
                "p2": {"player": m.players[1], "name": s.players[m.players[1]].name},
                "result": m.done,
                "link": if m.done.is_some() { format!("/replay/{}", m.id) } else { format!("/m/{}", m.id) },
            })
        })
        .collect();
    let you = me.map(|p| {
        let mine: Vec<Value> = s
            .matches
            .iter()
            .filter_map(|m| {
                let seat = m.players.iter().position(|&q| q == p)?;
                let opponent = m.players[1 - seat];
                Some(json!({
                    "match": m.id,
                    "game": m.game,
                    "seat": if seat == 0 { "p1" } else { "p2" },
                    "opponent": s.players[opponent].name,
                    "result": m.done,
                    "link": match (&m.done, &m.tokens[seat]) {
                        (None, Some(tok)) => format!("/m/{}#seat={tok}", m.id),
                        _ => format!("/replay/{}", m.id),
                    },
                }))
            })
            .collect();
        json!({"player": p, "name": s.players[p].name, "matches": mine})
    });
    let mut out = json!({
        "id": id,
        "name": s.config.name,
        "players": players,
        "ratings": ratings,
        "tournaments": tournaments,
        "matches": matches,
        "you": you,
        "admin": admin,
    });
    if admin {
        out["links"] = links(s);
    }
    out
}

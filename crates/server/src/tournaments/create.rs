//! Creating a tournament and entering players (by the host or by the registration link).

use super::*;

impl<S: Store> Tournaments<S> {
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

    pub(super) fn links(&self, t: &Tournament) -> Value {
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
    pub(super) fn entrant(
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
}

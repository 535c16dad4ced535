//! Creating matches, and finding a match's table: in memory, or unfolded from the store (a
//! match another node left is adopted first, `crate::hub`'s cluster module).

use super::*;

impl<S: Store> Hub<S> {
    /// The table of light waiting match `id` (`crate::lobby`: listed, its rows in the store,
    /// no `Table` yet), made from the store now and served from here on; `None` if `id` is
    /// not a light match. An expired one is answered `expired`.
    pub(super) async fn unfold(self: &Arc<Self>, id: &str) -> Result<Option<Arc<Table>>, ApiError> {
        if !self.lobby.is_light(id) {
            return Ok(None);
        }
        // A leaving node (`Hub::leave`) loads nothing more: asked again, another node (or this
        // one restarted) serves it.
        let Ok(_not_leaving) = self.adopting.try_read() else {
            return Err(ApiError::new(
                ErrorCode::Busy,
                "this server is stopping: ask again in a moment",
            ));
        };
        let _one = AdoptingOne::lock(&self.adopting_ids, id).await;
        if let Some(table) = self.served(id) {
            return Ok(Some(table));
        }
        if !self.lobby.is_light(id) {
            return Ok(None);
        }
        let (meta, log) = match self.store.load(id).await {
            Ok(Some(loaded)) => loaded,
            Ok(None) => {
                self.lobby.remove(id);
                return Ok(None);
            }
            Err(e @ StoreError::Corrupt { .. }) => {
                let broken = Broken {
                    summary: "its stored rows do not read".into(),
                    reason: e.to_string(),
                };
                return Err(self.set_aside(id, broken).await);
            }
            Err(e) => return Err(ApiError::internal("loading a match", e)),
        };
        if self.expired(&meta) {
            self.lobby.remove(id);
            return Err(self.expired_error());
        }
        // Served from its own log (its joins and start are in `meta`): `commit` lists it as
        // a table.
        let table = self.install(meta, &log).await?;
        self.start_adopted(id, &table, &[]).await?;
        Ok(Some(table))
    }

    /// Creates a match (for no share of the bot pool: its own, or its tournament's).
    pub async fn create(self: &Arc<Self>, req: CreateMatch) -> Result<Created, ApiError> {
        self.create_for(req, None).await
    }

    /// Creates a match whose bot searches run in `share` of the bot pool (`crate::pool`: the
    /// creating address, hashed).
    pub async fn create_for(
        self: &Arc<Self>,
        req: CreateMatch,
        share: Option<String>,
    ) -> Result<Created, ApiError> {
        let mut seats = req.seats.unwrap_or_default();
        for player in &mut seats {
            match player {
                Player::Bot { level } => {
                    let spec = self.check_bot(&req.game, level)?;
                    check_bot_ready(&req.game, &req.options, spec).await?;
                }
                Player::Human { name: Some(n) } => *n = check_name(n)?,
                Player::Human { name: None } => {}
            }
        }
        if let [Player::Human { name: Some(a) }, Player::Human { name: Some(b) }] = &seats {
            if same_name(a, b) {
                return Err(ApiError::bad_request(format!(
                    "`{a}` and `{b}` read as the same name: names differ within a match as \
                     people read them (case and look-alike letters aside)"
                )));
            }
        }
        if let Some(time) = &req.time {
            check_time_control(time, &self.limits)?;
        }
        if let Some(bot) = &req.race_bot {
            bot.check()
                .map_err(|e| ApiError::bad_request(format!("race_bot: {e}")))?;
        }
        // Who may set a webhook is the router's business (`api::create`: the admin token) or
        // the tournament's (its host); here it is checked against the policy. A tournament's
        // webhook the policy refuses now (the operator narrowed it) is dropped, not its match.
        let webhook = match req.webhook.map(|h| h.checked(&self.limits)) {
            Some(Err(e)) if req.tournament.is_some() => {
                tracing::warn!("a tournament's webhook is not allowed now: {}", e.message);
                None
            }
            other => other.transpose()?,
        };
        let is_bot = |i: usize| matches!(seats[i], Player::Bot { .. });
        let practice = req.seed.is_some();
        // The id comes first: sealed commitments are bound to it.
        let id = random_hex(8);
        let mut config = MatchConfig {
            trivia: req.trivia,
            game: req.game.trim().to_string(),
            options: req.options,
            seed: req.seed.unwrap_or(0),
            seats: seats.clone(),
            time: req.time,
            replay_on_draw: req.replay_on_draw,
            logged_refusals: Some(self.limits.logged_refusals),
            changes: Some(self.limits.changes),
            logged_answer_refusals: Some(self.limits.logged_refusals),
            sealed: req.sealed,
            match_id: Some(id.clone()),
            ..MatchConfig::new(&req.game)
        };
        if let Some(seat) = req.advantage {
            config.advantage = Some(seat);
        }
        // Refuse bad games, options and time controls before anything is stored.
        let mut game =
            Match::new(config.clone()).map_err(|e| ApiError::bad_request(e.to_string()))?;
        // Chance: a practice seed from the creator, or a server seed committed to now, with the
        // public setup (fairness version 2), and mixed with the human seats' client seeds once
        // both have committed to theirs and revealed them. Until then the match runs on a
        // throwaway seed (nothing is played or stored before the start). Bot seats have no
        // client seed: the server makes none for anyone.
        let fairness = (!practice).then(|| {
            let server_seed = random_hex(32);
            colosseum_engine::Fairness::committed(public_setup(&config), &server_seed)
        });
        let seed = match (&req.seed, &fairness) {
            (Some(seed), _) => *seed,
            (None, Some(fair)) if is_bot(0) && is_bot(1) => fair.match_seed().unwrap_or(0),
            _ => rand::rngs::OsRng.try_next_u64().unwrap_or(0),
        };
        if seed != config.seed {
            config.seed = seed;
            game = Match::new(config.clone()).map_err(|e| ApiError::bad_request(e.to_string()))?;
        }
        let tokens = [0, 1].map(|i| (!is_bot(i)).then(|| random_hex(16)));
        let now = self.clock.now_ms();
        let joined = [is_bot(0), is_bot(1)];
        let meta = StoredMatch {
            id,
            config,
            tokens: tokens.clone(),
            joined,
            names: [0, 1].map(|i| match &seats[i] {
                Player::Human { name } => name.clone(),
                Player::Bot { level } => Some(
                    req.bot_names[i]
                        .clone()
                        .unwrap_or_else(|| format!("bot {level}")),
                ),
            }),
            created_at: now,
            started_at: (joined == [true, true]).then_some(now),
            result: None,
            race_bot: req.race_bot,
            practice,
            fairness,
            tournament: req.tournament,
            webhook,
            rematch: None,
            share,
        };
        // Claimed before it is stored: another process looking for matches nobody serves
        // must not find this one.
        self.store
            .claim(&meta.id)
            .await
            .map_err(|e| ApiError::internal("claiming a match", e))?;
        self.store
            .create(&meta)
            .await
            .map_err(|e| ApiError::internal("creating a match", e))?;
        let id = meta.id.clone();
        tracing::info!(match_id = %id, game = %meta.config.game, "match created");
        if meta.started_at.is_some() {
            tracing::info!(match_id = %id, game = %meta.config.game, "match started");
        }
        if light(&meta) {
            // Listed only: its table is made from the store at the first request for it.
            drop(game);
            self.list(&meta, true);
        } else {
            let table = self.install_match(meta, game, 0);
            {
                let mut st = table.state.lock().await;
                self.commit(&table, &mut st).await?;
            }
            self.start_timer(&table);
            self.announce(&table, None).await;
        }
        self.tell("created", &id).await;
        let links = json!({
            "p1": tokens[0].as_ref().map(|t| format!("/m/{id}#seat={t}")),
            "p2": tokens[1].as_ref().map(|t| format!("/m/{id}#seat={t}")),
            "spectator": format!("/m/{id}"),
        });
        Ok(Created { id, tokens, links })
    }

    /// The table `id`, from memory or the store.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found(format!(
                "no match `{}`",
                truncate(id, 64)
            )));
        }
        let known = match self.served(id) {
            Some(t) => Some(t),
            None => self.unfold(id).await?,
        };
        if let Some(t) = known {
            if self.expired(&t.state.lock().await.meta) {
                self.sweep_expired().await;
                return Err(self.expired_error());
            }
            return Ok(t);
        }
        if let Some((_, summary)) = self
            .quarantine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
        {
            return Err(quarantined_error(id, summary));
        }
        let gone = self
            .gone_seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
        if gone {
            // Its node is gone (just asked): most likely unfinished, so adopted at once. Any
            // other outcome (finished, expired, no such match, held elsewhere) is found out
            // below as for any match.
            self.adopt(id).await?;
            if let Some(table) = self.served(id) {
                return Ok(table);
            }
        }
        let (meta, log) = match self.store.load(id).await {
            Ok(Some(loaded)) => loaded,
            Ok(None) => return Err(ApiError::not_found(format!("no match `{id}`"))),
            Err(e @ StoreError::Corrupt { .. }) => {
                let broken = Broken {
                    summary: "its stored rows do not read".into(),
                    reason: e.to_string(),
                };
                return Err(self.set_aside(id, broken).await);
            }
            Err(e) => return Err(ApiError::internal("loading a match", e)),
        };
        if meta.finished() {
            return self.install(meta, &log).await;
        }
        if self.expired(&meta) {
            return Err(self.expired_error());
        }
        // An unfinished match this process does not serve yet (another process created it, or
        // served it and died): claim it, or say where it is.
        self.adopt(id).await?;
        if let Some(table) = self.served(id) {
            return Ok(table);
        }
        if let Some((_, summary)) = self
            .quarantine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
        {
            return Err(quarantined_error(id, summary));
        }
        Err(ApiError::conflict(
            ErrorCode::Elsewhere,
            "this match is served by another server process; connect to that one",
        ))
    }
}

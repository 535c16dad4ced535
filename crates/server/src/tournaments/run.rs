//! The driver: a tournament loaded (folded from its stored log), kept in memory, and run by its
//! task: each round's matches made through the hub, results recorded, events stored before
//! they are announced, a season's games rated.

use super::posts::announcements;
use super::*;

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
    pub(super) async fn run_unfinished(
        self: &Arc<Self>,
        took_over: bool,
    ) -> Result<usize, ApiError> {
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
    pub(super) async fn live(self: &Arc<Self>, id: &str) -> Result<Arc<Live>, ApiError> {
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
    pub(super) async fn rebuild(&self, id: &str) -> Result<Tournament, ApiError> {
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

    pub(super) fn live_map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Live>>> {
        self.live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn install(self: &Arc<Self>, t: Tournament) -> Arc<Live> {
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
    pub(super) async fn record(
        &self,
        t: &mut Tournament,
        events: Vec<Event>,
    ) -> Result<(), ApiError> {
        self.record_posting(t, events, None).await
    }

    /// [`Tournaments::record`], but the result of board `by_match` (round, board) is not posted:
    /// its match was adjudicated in its own log, and the match's webhook posts that (the host's
    /// action and the match's result, `Hub::host_power`); the standings still are.
    pub(super) async fn record_posting(
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
    pub(super) async fn rate_results(&self, t: &Tournament) {
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
    pub(super) async fn drive(self: Arc<Self>, id: String, live: Arc<Live>) {
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
    pub(super) async fn step(&self, live: &Live) -> Result<bool, ApiError> {
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
    pub(super) async fn create_match(
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tournament log the server wrote before the fold moved to `colosseum_tournament`
    /// (every kind of event, every optional setting, a webhook with a label): it folds with
    /// the server's own webhook type, and every text written back is the same bytes, so
    /// existing databases load and keep their rows.
    #[test]
    fn a_tournament_log_stored_before_the_move_folds_and_writes_back_the_same_bytes() {
        let log = include_str!("../../../tournament/tests/fixtures/tournament_log.jsonl");
        let mut lines = log.lines();
        let config = lines.next().unwrap();
        let events: Vec<&str> = lines.collect();
        let t = Tournament::fold(config, &events).unwrap();
        let hook = t.config.webhook.as_ref().unwrap();
        assert_eq!(hook.url, "https://discord.com/api/webhooks/1/x");
        assert_eq!(hook.label.as_deref(), Some("Cup"));
        assert_eq!(t.webhook, None);
        assert!(t.finished);
        assert_eq!(t.log.len(), events.len());
        assert_eq!(serde_json::to_string(&t.config).unwrap(), config);
        for (text, event) in events.iter().zip(&t.log) {
            assert_eq!(&serde_json::to_string(event).unwrap(), text);
        }
    }
}

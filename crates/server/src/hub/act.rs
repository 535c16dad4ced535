//! Acting on a match: who is asking, actions given to the match under the table's lock, the ticks
//! and each table's timer.

use super::*;

impl<S: Store> Hub<S> {
    /// A host's power over the match at `table` (`crate::tournaments` checks who may): logged
    /// in the match's log and stored before anyone is told, like a seat's action.
    pub async fn host_power(
        self: &Arc<Self>,
        table: &Arc<Table>,
        power: HostPower,
    ) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if st.meta.finished() {
            return Err(ApiError::conflict(ErrorCode::Over, "the match is over"));
        }
        let Some(start) = st.meta.started_at else {
            return Err(ApiError::conflict(
                ErrorCode::NotStarted,
                "the match has not started: both players must join first",
            ));
        };
        let now = self.clock.now_ms().saturating_sub(start);
        let result = match power.clone() {
            HostPower::Pause => st.game.pause(now),
            HostPower::Resume => {
                // A bot that was thinking when the match paused had its move refused: think
                // again for the pending decision.
                st.bot_busy = [None, None];
                st.game.resume(now)
            }
            HostPower::GiveTime { seat, ms } => st.game.give_time(seat, ms, now),
            HostPower::Adjudicate { winner, reason } => st.game.adjudicate(winner, &reason, now),
        };
        self.commit(table, &mut st).await?;
        // Announced on the match's webhook (`crate::webhooks::announce::host_action`).
        if let (Ok(_), Some((hook, post))) = (
            &result,
            crate::webhooks::announce::host_action(&st.meta, &power),
        ) {
            self.webhooks.post(&hook, post);
        }
        result.map_err(ApiError::from)
    }

    /// Who `token` is at `table`: no token is a spectator; a seat's token is that seat; any other
    /// token is refused (it never silently becomes a spectator).
    pub async fn role(&self, table: &Table, token: Option<&str>) -> Result<Role, ApiError> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return Ok(Viewer::Spectator);
        };
        let st = table.state.lock().await;
        for seat in Seat::BOTH {
            if st.meta.tokens[seat.index()]
                .as_deref()
                .is_some_and(|t| same_secret(t, token))
            {
                return Ok(Viewer::Seat(seat));
            }
        }
        Err(ApiError::forbidden(
            "this token is not a seat of this match (an expired or mistyped link?)",
        ))
    }

    /// `seat` does `action` at `table`, for whatever decision is pending when it is taken: for
    /// callers in this process that act on the state they hold (tests, benchmarks), never for
    /// a transport, whose clients must name the decision ([`Hub::act_on`]).
    pub async fn act(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        action: Action,
    ) -> Result<(), ApiError> {
        self.act_for(table, seat, action, ForDecision::Pending)
            .await
    }

    /// `seat` does `action` at `table`. `decision` is the pending decision the seat saw (the
    /// state's `decision`): if another is pending now, nothing happens and the answer is 409
    /// `stale_decision`, so a move is never applied to a decision it was not meant for. A move,
    /// lock, commitment or opening without it is refused with 409 `decision_required` (naming
    /// the pending decision), an answer without its `race` with 409 `race_required`; a join or
    /// resignation needs neither.
    pub async fn act_on(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        action: Action,
        decision: Option<u64>,
    ) -> Result<(), ApiError> {
        let decision = decision.map_or(ForDecision::Missing, ForDecision::Is);
        self.act_for(table, seat, action, decision).await
    }

    /// After a join or a reveal: starts the match if every seat is in (and every human seat has
    /// revealed its client seed), stores the match's row and tells the other nodes. `what`
    /// names the write in an error.
    pub(super) async fn start_if_ready(
        &self,
        table: &Table,
        st: &mut TableState,
        what: &'static str,
    ) -> Result<(), ApiError> {
        if st.meta.started_at.is_none() && self.ready_to_start(&st.meta) {
            st.meta.started_at = Some(self.clock.now_ms());
            self.start_with_fair_seed(st)?;
            tracing::info!(match_id = %table.id, game = %st.meta.config.game, "match started");
        }
        self.store
            .update(&st.meta)
            .await
            .map_err(|e| ApiError::internal(what, e))?;
        self.tell("joined", &table.id).await;
        Ok(())
    }

    pub(super) async fn act_for(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        action: Action,
        decision: ForDecision,
    ) -> Result<(), ApiError> {
        // A measurement for /metrics only (the reveal latency), never a match's time: that is
        // the injected clock's (`crate::clock`).
        let arrived = std::time::Instant::now();
        let mut st = table.state.lock().await;
        if st.meta.finished() {
            return Err(ApiError::conflict(ErrorCode::Over, "the match is over"));
        }
        if self.expired(&st.meta) {
            return Err(self.expired_error());
        }
        let action = match action {
            Action::Join(name) => Action::JoinSeeded {
                name,
                client_seed: None,
                client_seed_hash: None,
            },
            other => other,
        };
        let result = match action {
            Action::Join(_) => unreachable!("made a JoinSeeded above"),
            Action::Reveal(seed) => {
                self.reveal_client_seed(&mut st, seat, seed)?;
                self.start_if_ready(table, &mut st, "storing a reveal")
                    .await?;
                Ok(())
            }
            Action::JoinSeeded {
                name,
                client_seed,
                client_seed_hash,
            } => {
                let name = name.as_deref().map(check_name).transpose()?;
                if let (Some(n), Some(theirs)) = (&name, &st.meta.names[seat.other().index()]) {
                    if same_name(n, theirs) {
                        return Err(ApiError::bad_request(format!(
                            "`{n}` reads as `{theirs}`, the other seat's name: names differ \
                             within a match as people read them (case and look-alike letters \
                             aside)"
                        )));
                    }
                }
                self.take_client_seed(&mut st, seat, client_seed, client_seed_hash)?;
                st.meta.joined[seat.index()] = true;
                if name.is_some() {
                    st.meta.names[seat.index()] = name;
                }
                self.start_if_ready(table, &mut st, "storing a join")
                    .await?;
                Ok(())
            }
            other => {
                let Some(start) = st.meta.started_at else {
                    return Err(ApiError::conflict(
                        ErrorCode::NotStarted,
                        "the match starts when both players have joined",
                    ));
                };
                let now = self.clock.now_ms().saturating_sub(start);
                let pending = st.game.decision();
                let asked = match decision {
                    ForDecision::Pending => None,
                    ForDecision::Is(d) => Some(d),
                    ForDecision::Missing => match other {
                        Action::Submit(_)
                        | Action::Lock
                        | Action::Commit(_)
                        | Action::Open { .. } => {
                            return Err(ApiError::conflict(
                                ErrorCode::DecisionRequired,
                                format!(
                                    "a move, lock, commitment or opening names the decision it is for: send \
                                     `\"decision\": {pending}` (the state's `decision`) with it, so that one \
                                     arriving after that decision is settled is refused instead of being taken \
                                     for the next; nothing was changed"
                                ),
                            ));
                        }
                        Action::Answer { race: None, .. } if st.game.race().is_some() => {
                            return Err(ApiError::conflict(
                                ErrorCode::RaceRequired,
                                "an answer names the race it is for: send `\"race\"` (the state's \
                                 `race.opened_at`) with it, so that one arriving after that race is \
                                 over is refused instead of being judged against the next question; \
                                 nothing was changed",
                            ));
                        }
                        _ => None,
                    },
                };
                if let Some(asked) = asked {
                    if asked != pending {
                        return Err(ApiError::conflict(ErrorCode::StaleDecision,
                            format!(
                                "this was sent for decision {asked}, but the pending decision is {pending}: \
                                 decision {asked} is {}; nothing was changed, look at the new state and move again",
                                if asked < pending { "over" } else { "not reached yet" }
                            ),
                        ));
                    }
                }
                match other {
                    Action::Submit(text) => {
                        if text.len() > MAX_TEXT {
                            return Err(ApiError::bad_request(format!(
                                "a move has at most {MAX_TEXT} bytes"
                            )));
                        }
                        st.game.submit(seat, &text, now)
                    }
                    Action::Lock => st.game.lock(seat, now),
                    Action::Commit(hash) => {
                        if hash.len() > MAX_TEXT {
                            return Err(ApiError::bad_request(
                                "a commitment is 64 lowercase hex characters",
                            ));
                        }
                        st.game.commit(seat, &hash, now)
                    }
                    Action::Open { text, nonce } => {
                        if text.len() > MAX_TEXT || nonce.len() > MAX_TEXT {
                            return Err(ApiError::bad_request(format!(
                                "a move has at most {MAX_TEXT} bytes, a nonce 128 hex characters"
                            )));
                        }
                        st.game.open(seat, &text, &nonce, now)
                    }
                    Action::Answer { text, race } => {
                        if text.len() > MAX_TEXT {
                            return Err(ApiError::bad_request(format!(
                                "an answer has at most {MAX_TEXT} bytes"
                            )));
                        }
                        match race {
                            Some(r) => st.game.answer_to(seat, r, &text, now),
                            None => st.game.answer(seat, &text, now),
                        }
                        .map(|_| ())
                    }
                    Action::Resign => st.game.resign(seat, now),
                    Action::Join(_) | Action::JoinSeeded { .. } | Action::Reveal(_) => {
                        unreachable!("handled above")
                    }
                }
            }
        };
        // A refused move is logged too: store it before answering.
        let before = st.persisted;
        self.commit(table, &mut st).await?;
        if st.game.log()[before.min(st.game.log().len())..]
            .iter()
            .any(|e| matches!(e, LogEntry::Revealed { .. }))
        {
            crate::metrics::Metrics::observe(&self.metrics.reveal_latency, arrived.elapsed());
        }
        result.map_err(ApiError::from)
    }

    /// Fires every deadline up to now at every table (for tests with a manual clock; the timer
    /// tasks do this in a running server).
    pub async fn tick_all(self: &Arc<Self>) -> Result<(), ApiError> {
        let tables = self.tables_now();
        for table in tables {
            self.tick(&table).await?;
        }
        Ok(())
    }

    pub(super) async fn tick(self: &Arc<Self>, table: &Arc<Table>) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if st.meta.finished() {
            return Ok(());
        }
        if let Some(start) = st.meta.started_at {
            let now = self.clock.now_ms().saturating_sub(start);
            st.game.tick(now);
            self.commit(table, &mut st).await?;
        }
        Ok(())
    }

    pub(super) fn start_timer(self: &Arc<Self>, table: &Arc<Table>) {
        if !self.timers {
            return;
        }
        let hub = self.clone();
        let table = table.clone();
        tokio::spawn(async move {
            loop {
                let wait = {
                    let st = table.state.lock().await;
                    if st.meta.finished() || hub.expired(&st.meta) {
                        return;
                    }
                    match (st.meta.started_at, st.game.next_deadline()) {
                        // Saturating: a deadline near u64::MAX must mean "never", not wrap
                        // around to "now" and tick in a loop.
                        (Some(start), Some(d)) => {
                            Some(start.saturating_add(d).saturating_sub(hub.clock.now_ms()))
                        }
                        _ => None,
                    }
                };
                match wait {
                    Some(ms) => {
                        tokio::select! {
                            () = tokio::time::sleep(Duration::from_millis(ms)) => {
                                if let Err(e) = hub.tick(&table).await {
                                    tracing::error!("deadline in match {}: {e}", table.id);
                                    tokio::time::sleep(Duration::from_secs(1)).await;
                                }
                            }
                            () = table.wake.notified() => {}
                        }
                    }
                    None => table.wake.notified().await,
                }
            }
        });
    }

    /// A uniformly random legal move for `seat` now, or `None` if it has none. For tests only:
    /// it reads the full state, so it must never be sent to a client. Only with the `test-util`
    /// feature, which the crate's tests turn on.
    #[cfg(feature = "test-util")]
    pub async fn random_move_for_tests(
        &self,
        table: &Table,
        seat: Seat,
        seed: u64,
    ) -> Option<String> {
        let st = table.state.lock().await;
        let mut rng = colosseum_engine::seeded_rng(seed);
        st.game.game().random_move(seat, &mut rng)
    }
}

//! Acting on a match: who is asking, actions given to the match under the table's lock, a
//! host's powers, and the client seeds that start a match fairly (taken at join, revealed).

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

    /// Takes `seat`'s commitment to its client seed at its join (fairness version 2), or, in a
    /// match stored before (version 1), its client seed as then: checked, fixed once the match
    /// has started. The server never makes a seat's client seed.
    pub(super) fn take_client_seed(
        &self,
        st: &mut TableState,
        seat: Seat,
        client_seed: Option<String>,
        client_seed_hash: Option<String>,
    ) -> Result<(), ApiError> {
        let started = st.meta.started_at.is_some();
        // A practice match (the creator chose the seed) takes no client seeds: one sent
        // changes nothing, and the state says `practice`.
        let Some(fair) = st.meta.fairness.as_mut() else {
            return Ok(());
        };
        if fair.version < 2 {
            // A match created before client seeds were committed: as it was then.
            if let Some(given) = &client_seed {
                colosseum_engine::fair::check_client_seed(given)
                    .map_err(|e| ApiError::bad_request(e.to_string()))?;
            }
            return match (fair.client_seeds.get(seat), client_seed) {
                (Some(had), Some(given)) if started && had != given => Err(ApiError::conflict(
                    ErrorCode::SeedFixed,
                    "the match has started: your client seed is fixed (it is in the state's `fairness`)",
                )),
                (_, Some(given)) if !started => {
                    fair.client_seeds.set(seat, Some(given));
                    Ok(())
                }
                (None, _) => {
                    fair.client_seeds.set(seat, Some(random_hex(16)));
                    Ok(())
                }
                _ => Ok(()),
            };
        }
        if fair.is_bot(seat) {
            return Ok(());
        }
        if client_seed.is_some() {
            return Err(ApiError::new(
                ErrorCode::SeedHashRequired,
                "a client seed is not sent at the join, where the other seat (or the server) could \
                 choose theirs knowing it: send `client_seed_hash`, the SHA-256 (64 lowercase hex \
                 characters) of a random client seed of 16 to 64 characters of A-Z a-z 0-9 _ . -, \
                 and reveal the seed (`reveal`) once both seats have committed",
            ));
        }
        let had = fair.client_seed_hashes.get(seat).map(str::to_string);
        match (had, client_seed_hash) {
            (None, None) => Err(ApiError::new(
                ErrorCode::SeedHashRequired,
                "this match's chance is provably fair: join with `client_seed_hash`, the SHA-256 \
                 (64 lowercase hex characters) of a random client seed of 16 to 64 characters of \
                 A-Z a-z 0-9 _ . -, and reveal the seed (`reveal`) once both seats have committed",
            )),
            // Joining again (a reload) keeps the commitment.
            (Some(_), None) => Ok(()),
            (had, Some(hash)) => {
                if !colosseum_engine::fair::is_sha256_hex(&hash) {
                    return Err(ApiError::bad_request(format!(
                        "`client_seed_hash` is the SHA-256 of your client seed in 64 lowercase hex \
                         characters; got `{}`",
                        truncate(&hash, 80)
                    )));
                }
                let other = seat.other();
                let other_in = fair.is_bot(other) || fair.client_seed_hashes.get(other).is_some();
                match had {
                    Some(h) if h == hash => Ok(()),
                    // Once both are in, reveals may have begun: a commitment is binding.
                    Some(_) if other_in || started => Err(ApiError::conflict(
                        ErrorCode::SeedFixed,
                        "both seats have committed to their client seeds: yours is fixed (its hash \
                         is in the state's `fairness.client_seed_hashes`); reveal the seed it \
                         commits to",
                    )),
                    _ => {
                        fair.client_seed_hashes.set(seat, Some(hash));
                        Ok(())
                    }
                }
            }
        }
    }

    /// Takes `seat`'s revealed client seed (fairness version 2): only once both seats have
    /// joined and committed, and only the seed that hashes to its commitment.
    pub(super) fn reveal_client_seed(
        &self,
        st: &mut TableState,
        seat: Seat,
        seed: String,
    ) -> Result<(), ApiError> {
        let joined = st.meta.joined;
        let Some(fair) = st.meta.fairness.as_mut().filter(|f| f.version >= 2) else {
            return Err(ApiError::conflict(
                ErrorCode::RevealNotDue,
                "this match takes no client seed reveals (a practice match, or one created \
                 before client seeds were committed)",
            ));
        };
        if fair.is_bot(seat) {
            return Err(ApiError::bad_request("a bot seat has no client seed"));
        }
        let Some(committed) = fair.client_seed_hashes.get(seat).map(str::to_string) else {
            return Err(ApiError::conflict(
                ErrorCode::RevealNotDue,
                "join with `client_seed_hash` first: a reveal opens that commitment",
            ));
        };
        if let Some(had) = fair.client_seeds.get(seat) {
            return if had == seed {
                Ok(())
            } else {
                Err(ApiError::conflict(
                    ErrorCode::SeedFixed,
                    "your client seed is revealed already and fixed",
                ))
            };
        }
        let other = seat.other();
        let other_in = fair.is_bot(other)
            || (joined[other.index()] && fair.client_seed_hashes.get(other).is_some());
        if !other_in {
            return Err(ApiError::conflict(
                ErrorCode::RevealNotDue,
                "the other seat has not committed to its client seed yet: reveal yours once the \
                 state's `fairness.reveal_due` is true, so that nobody chooses a seed knowing it",
            ));
        }
        colosseum_engine::fair::check_revealed_seed(&seed).map_err(|_| {
            ApiError::bad_request(format!(
                "a client seed is {} to {} characters of A-Z, a-z, 0-9, `_`, `.` and `-`; got `{}`",
                colosseum_engine::fair::MIN_CLIENT_SEED,
                colosseum_engine::fair::MAX_CLIENT_SEED,
                truncate(&seed, 80)
            ))
        })?;
        let hash = colosseum_engine::fair::client_seed_hash(&seed);
        if hash != committed {
            return Err(ApiError::new(
                ErrorCode::SeedMismatch,
                format!(
                    "the SHA-256 of this client seed is {hash}, not your commitment {committed}: \
                     reveal the seed you committed to"
                ),
            ));
        }
        fair.client_seeds.set(seat, Some(seed));
        Ok(())
    }

    /// Whether a waiting match can start: both seats have joined and, in a version 2 match,
    /// every human seat has revealed its client seed.
    pub(super) fn ready_to_start(&self, meta: &StoredMatch) -> bool {
        meta.joined == [true, true] && meta.seeds_revealed()
    }

    /// At the start: the match seed from the committed server seed and both client seeds, and
    /// the match made again from it (nothing of the throwaway one was stored or shown).
    /// A practice match (and one stored before provably fair chance) keeps the match it was
    /// created with: its seed was known from the start.
    pub(super) fn start_with_fair_seed(&self, st: &mut TableState) -> Result<(), ApiError> {
        let Some(fair) = &st.meta.fairness else {
            return Ok(());
        };
        st.meta.config.seed = fair
            .match_seed()
            .map_err(|e| ApiError::internal("deriving the match seed", e))?;
        st.game = Match::new(st.meta.config.clone())
            .map_err(|e| ApiError::internal("starting the match", e))?;
        st.persisted = 0;
        // Another match: nothing rendered from the throwaway one is kept.
        st.rendered.clear();
        Ok(())
    }
}

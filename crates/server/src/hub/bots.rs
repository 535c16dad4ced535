//! Bot scheduling: each bot's clock, bots' moves (a bot's move is an action like a seat's,
//! `Hub::act_on`), their sealed commitments and openings, and race bots.

use super::*;

impl<S: Store> Hub<S> {
    /// Holds (`hold`) or frees a bot seat's clock for decision `key` while its search waits for
    /// a slot (`Match::hold_clock`), storing what that logs.
    pub(super) async fn bot_clock(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
        key: (usize, usize),
        hold: bool,
    ) {
        let mut st = table.state.lock().await;
        let Some(start) = st.meta.started_at else {
            return;
        };
        if st.meta.finished() || (st.game.game_number(), st.game.record().steps.len()) != key {
            return;
        }
        let now = self.clock.now_ms().saturating_sub(start);
        let before = st.game.log().len();
        let done = if hold {
            st.game.hold_clock(seat, now)
        } else {
            st.game.free_clock(seat, now)
        };
        if done.is_ok() && st.game.log().len() > before {
            if let Err(e) = self.commit(table, &mut st).await {
                tracing::warn!("holding a bot's clock in match {}: {e}", table.id);
            }
        }
    }

    pub(super) fn start_bots(self: &Arc<Self>, table: &Arc<Table>, st: &mut TableState) {
        // A paused match takes no move: its bots start again when it resumes.
        if st.meta.finished() || st.meta.started_at.is_none() || st.game.paused() {
            return;
        }
        self.start_race_bots(table, st);
        let pending = st.game.game().pending();
        let key = (st.game.game_number(), st.game.record().steps.len());
        self.commit_bot_moves(table, st, key);
        self.open_bot_commitments(table, st, key);
        for seat in Seat::BOTH {
            let Player::Bot { level } = st.meta.config.player(seat) else {
                continue;
            };
            if !pending.includes(seat)
                || st.game.submission(seat).is_some()
                || st.game.commitment(seat).is_some()
                || st.bot_busy[seat.index()] == Some(key)
            {
                continue;
            }
            st.bot_busy[seat.index()] = Some(key);
            let level = level.clone();
            let record = st.game.record().clone();
            let seed = crate::verify::bot_seed(st.meta.config.seed, key.0, key.1, seat);
            let decision = st.game.decision();
            let share = match_share(&st.meta);
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                // At most `Limits::bot_searches` searches run at once; the others queue here,
                // each in its share's turn (`crate::pool`), the bot's clock held meanwhile: it
                // is charged only the time it thinks.
                let permit = match hub.pool.try_acquire(&share, crate::pool::Kind::Search) {
                    Some(p) => p,
                    None => {
                        hub.bot_clock(&table, seat, key, true).await;
                        // A measurement for /metrics only (the wait for a search slot).
                        let waiting = std::time::Instant::now();
                        let Some(p) = hub.pool.acquire(&share, crate::pool::Kind::Search).await
                        else {
                            return;
                        };
                        crate::metrics::Metrics::observe(&hub.metrics.bot_wait, waiting.elapsed());
                        p
                    }
                };
                // Held now or before a restart: it runs again from here.
                hub.bot_clock(&table, seat, key, false).await;
                let still = {
                    let st = table.state.lock().await;
                    (st.game.game_number(), st.game.record().steps.len()) == key
                        && !st.meta.finished()
                };
                if !still {
                    return;
                }
                let game = record.game.clone();
                let (max_ms, max_iters) = (hub.limits.bot_max_ms, hub.limits.bot_max_iters);
                let search = tokio::task::spawn_blocking(move || {
                    // The slot is free once the search is done.
                    let _permit = permit;
                    let spec = check_bot_level_within(&game, &level, max_ms, max_iters)
                        .map_err(|e| e.message)?;
                    let bots = registry::find(&game).map_err(|e| e.to_string())?;
                    let mut player = bots
                        .seat_player(&record.options, &spec, seed)
                        .map_err(|e| e.to_string())?;
                    for step in &record.steps {
                        player.observe(step).map_err(|e| e.to_string())?;
                    }
                    Ok::<String, String>(player.choose(seat))
                });
                // The server stops: the move is not made (it is chosen again when the match is
                // resumed).
                let chosen = tokio::select! {
                    chosen = search => chosen,
                    () = hub.pool.closed() => return,
                };
                let mv = match chosen {
                    Ok(Ok(mv)) => mv,
                    Ok(Err(e)) => {
                        tracing::error!("bot in match {}: {e}", table.id);
                        return;
                    }
                    Err(e) => {
                        tracing::error!("bot in match {} panicked: {e}", table.id);
                        return;
                    }
                };
                let (still, sealed) = {
                    let mut st = table.state.lock().await;
                    let still = (st.game.game_number(), st.game.record().steps.len()) == key
                        && !st.meta.finished();
                    let sealed = still && st.game.sealed_phase() == Some(SealedPhase::Commit);
                    if sealed {
                        st.bot_sealed[seat.index()] = Some(BotOpening {
                            key,
                            text: mv.clone(),
                            nonce: random_hex(16),
                            committing: false,
                        });
                        hub.commit_bot_moves(&table, &mut st, key);
                    }
                    (still, sealed)
                };
                // A sealed move is committed by `commit_bot_moves`, now or once the other seat
                // is in.
                if still && !sealed {
                    if let Err(e) = hub
                        .act_on(&table, seat, Action::Submit(mv.clone()), Some(decision))
                        .await
                    {
                        tracing::warn!("bot move `{mv}` in match {}: {e}", table.id);
                    }
                }
            });
        }
    }

    /// Sealed matches: a bot seat that has chosen commits. In a timed match at once (its
    /// deadline runs); in an untimed one only once the other seat is in, so that its opening
    /// follows at once and a restart can hardly fall between the two (a bot's opening lives in
    /// memory only, and an untimed decision has no deadline to end it).
    pub(super) fn commit_bot_moves(
        self: &Arc<Self>,
        table: &Arc<Table>,
        st: &mut TableState,
        key: (usize, usize),
    ) {
        if st.game.sealed_phase() != Some(SealedPhase::Commit) {
            return;
        }
        let timed = st.game.time_control().clocks().is_some();
        for seat in Seat::BOTH {
            let other_in = st.game.commitment(seat.other()).is_some()
                || st.game.submission(seat.other()).is_some();
            if st.game.commitment(seat).is_some()
                || st.game.submission(seat).is_some()
                || !(timed || other_in)
            {
                continue;
            }
            let Some(kept) = st.bot_sealed[seat.index()]
                .as_mut()
                .filter(|k| k.key == key && !k.committing)
            else {
                continue;
            };
            kept.committing = true;
            let hash = st.game.seal(seat, &kept.text, &kept.nonce);
            let decision = st.game.decision();
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                let commit = Action::Commit(hash);
                if let Err(e) = hub.act_on(&table, seat, commit, Some(decision)).await {
                    tracing::warn!("bot commitment in match {}: {e}", table.id);
                }
            });
        }
    }

    /// Sealed matches: once the openings begin, each bot seat that committed opens with the
    /// move and nonce it kept.
    pub(super) fn open_bot_commitments(
        self: &Arc<Self>,
        table: &Arc<Table>,
        st: &mut TableState,
        key: (usize, usize),
    ) {
        if st.game.sealed_phase() != Some(SealedPhase::Open) {
            return;
        }
        for seat in Seat::BOTH {
            let i = seat.index();
            if st.game.commitment(seat).is_none() || st.game.submission(seat).is_some() {
                continue;
            }
            let Some(BotOpening {
                key: k,
                text,
                nonce,
                ..
            }) = st.bot_sealed[i].take()
            else {
                continue;
            };
            if k != key {
                continue;
            }
            let decision = st.game.decision();
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                let open = Action::Open { text, nonce };
                if let Err(e) = hub.act_on(&table, seat, open, Some(decision)).await {
                    tracing::warn!("bot opening in match {}: {e}", table.id);
                }
            });
        }
    }

    /// Bot seats answer an open trivia race: after their answer time (counted from the question,
    /// or from the end of their lockout) they answer, right with the configured accuracy.
    pub(super) fn start_race_bots(self: &Arc<Self>, table: &Arc<Table>, st: &mut TableState) {
        let Some(race) = st.game.race().filter(|r| !r.is_over()) else {
            return;
        };
        let Some(start) = st.meta.started_at else {
            return;
        };
        let question = race.question().clone();
        let opened = race.opened_at();
        let decoys: Vec<colosseum_trivia::Question> = st
            .game
            .bank()
            .map(|b| b.questions().to_vec())
            .unwrap_or_default();
        let settings = st.meta.race_bot.unwrap_or(DEFAULT_RACE_BOT);
        for seat in Seat::BOTH {
            if !matches!(st.meta.config.player(seat), Player::Bot { .. }) {
                continue;
            }
            let from = race.lockout_until(seat).unwrap_or(opened).max(opened);
            let key = (opened, from);
            if st.race_busy[seat.index()] == Some(key) {
                continue;
            }
            st.race_busy[seat.index()] = Some(key);
            let seed = st.meta.config.seed ^ from.rotate_left(17) ^ (seat.index() as u64);
            let mut rng = BotAnswerer::rng(seed);
            let answer = settings.answer(&question, &decoys, &mut rng);
            let at_wall = start + from + answer.delay_ms;
            let hub = self.clone();
            let table = table.clone();
            tokio::spawn(async move {
                let wait = at_wall.saturating_sub(hub.clock.now_ms());
                tokio::time::sleep(Duration::from_millis(wait)).await;
                let action = Action::Answer {
                    text: answer.text,
                    race: Some(opened),
                };
                // Refusals (the race is over, the bot was too late) are expected and harmless.
                if let Err(e) = hub.act(&table, seat, action).await {
                    tracing::debug!("race bot in match {}: {e}", table.id);
                }
            });
        }
    }
}

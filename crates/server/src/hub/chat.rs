//! A finished match's rematch, and the chat between seats.

use super::*;

impl<S: Store> Hub<S> {
    /// A rematch of the finished match at `table`, offered by `seat`: a new match with the
    /// same game, options, time control, question bank and players' kinds (a bot keeps its
    /// level), the seats swapped, chance fresh. The first offer is kept in the finished match
    /// (stored with it) and every later call, by either seat, gets the same new match: both
    /// players' tables show it (`rematch` in their states, each with its own seat link).
    /// Returns the new match's id and links (both seats', as creating a match does).
    pub async fn rematch(
        self: &Arc<Self>,
        table: &Arc<Table>,
        seat: Seat,
    ) -> Result<Created, ApiError> {
        let mut st = table.state.lock().await;
        if !st.meta.finished() {
            return Err(ApiError::conflict(
                ErrorCode::NotFinished,
                "a rematch is offered once the match is over",
            ));
        }
        if st.meta.rematch.is_none() && self.shared() {
            // A finished match is claimed by nobody: another process may have stored an offer
            // since this one read the match.
            if let Ok(Some((stored, _))) = self.store.load(&table.id).await {
                if stored.rematch.is_some() {
                    st.meta.rematch = stored.rematch;
                    table.version.send_modify(|v| *v += 1);
                }
            }
        }
        if st.meta.rematch.is_none() {
            let config = &st.meta.config;
            // A person keeps the name they played under; a bot its level.
            let fresh = |seat: Seat| match config.player(seat) {
                Player::Bot { level } => Player::Bot {
                    level: level.clone(),
                },
                Player::Human { .. } => Player::Human {
                    name: st.meta.names[seat.index()].clone(),
                },
            };
            let req = CreateMatch {
                game: config.game.clone(),
                options: config.options.clone(),
                seed: None,
                seats: Some([fresh(Seat::P2), fresh(Seat::P1)]),
                time: config.time.clone(),
                replay_on_draw: config.replay_on_draw,
                trivia: config.trivia.clone(),
                race_bot: st.meta.race_bot,
                sealed: config.sealed,
                advantage: None,
                tournament: None,
                bot_names: [None, None],
                webhook: None,
            };
            let created = self.create_for(req, st.meta.share.clone()).await?;
            let mut offered = st.meta.clone();
            offered.rematch = Some(crate::store::RematchOffer {
                id: created.id,
                by: seat,
                tokens: created.tokens,
            });
            let first = self
                .store
                .offer_rematch(&offered)
                .await
                .map_err(|e| ApiError::internal("storing the rematch", e))?;
            if first {
                st.meta = offered;
                tracing::info!(match_id = %table.id, by = %seat, "rematch offered");
            } else {
                // Another process stored its offer in between: that one stands (the match
                // created here is left waiting, and expires unjoined).
                let stored = self
                    .store
                    .load(&table.id)
                    .await
                    .map_err(|e| ApiError::internal("reading the rematch", e))?
                    .and_then(|(stored, _)| stored.rematch)
                    .ok_or_else(|| {
                        ApiError::internal("reading the rematch", "the stored offer is gone")
                    })?;
                tracing::warn!(match_id = %table.id, spare = %offered.rematch.as_ref().map_or("", |r| r.id.as_str()), "rematch offered by another process at the same moment: theirs stands");
                st.meta.rematch = Some(stored);
            }
            table.version.send_modify(|v| *v += 1);
        }
        let offer = st.meta.rematch.as_ref().expect("set above");
        let id = offer.id.clone();
        let link = |t: &Option<String>| t.as_ref().map(|t| format!("/m/{id}#seat={t}"));
        Ok(Created {
            links: json!({
                "p1": link(&offer.tokens[0]),
                "p2": link(&offer.tokens[1]),
                "spectator": format!("/m/{id}"),
            }),
            tokens: offer.tokens.clone(),
            id: id.clone(),
        })
    }

    /// `role` writes `text` in the match's chat: a seat in the players' chat (its name is the
    /// seat's, `name` is ignored), a spectator in the spectators' chat under `name` (checked as
    /// seats' names are, and not a seat's name). From the start on, and after the end too (a
    /// "gg"; 409 `not_started` before both have joined); at most `max_lines` messages a match
    /// (then 409 `chat_full`). Stored like every event before anyone is told; the record
    /// published at the end carries the lines written after it as well.
    pub async fn chat(
        self: &Arc<Self>,
        table: &Arc<Table>,
        role: Role,
        name: Option<String>,
        text: String,
        max_lines: usize,
    ) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if self.expired(&st.meta) {
            return Err(self.expired_error());
        }
        let Some(start) = st.meta.started_at else {
            return Err(ApiError::conflict(
                ErrorCode::NotStarted,
                "the chat opens when both players have joined",
            ));
        };
        if text.len() > MAX_TEXT {
            return Err(ApiError::bad_request(format!(
                "a chat message has at most {} characters",
                colosseum_host::MAX_CHAT_CHARS
            )));
        }
        if st.game.chat_lines().len() >= max_lines {
            return Err(ApiError::conflict(
                ErrorCode::ChatFull,
                format!("this match's chat is full ({max_lines} messages)"),
            ));
        }
        let name = match role {
            Viewer::Seat(seat) => st.meta.names[seat.index()]
                .clone()
                .unwrap_or_else(|| seat.to_string()),
            Viewer::Spectator => {
                let Some(name) = name else {
                    return Err(ApiError::bad_request(
                        "a spectator's chat message needs a `name` (1 to 40 characters)",
                    ));
                };
                let name = check_name(&name)?;
                if st.meta.names.iter().flatten().any(|n| same_name(n, &name)) {
                    return Err(ApiError::bad_request(format!(
                        "`{name}` is a player's name in this match: spectators chat under their own"
                    )));
                }
                name
            }
        };
        let now = self.clock.now_ms().saturating_sub(start);
        let result = st.game.chat(role, &name, &text, now);
        self.commit(table, &mut st).await?;
        result.map_err(ApiError::from)
    }
}

//! The host's powers: starting rounds, adjudicating, replacing players, pausing and giving
//! time in a board's match, the webhook.

use super::*;

impl<S: Store> Tournaments<S> {
    /// Checks the host's token.
    pub(super) async fn admin(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<Arc<Live>, ApiError> {
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
    pub(super) async fn unstarted_boards_of(
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
}

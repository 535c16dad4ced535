//! The tournament's pages as JSON (tokens only to whom they belong), its CSV and the list of
//! recent tournaments.

use super::*;

impl<S: Store> Tournaments<S> {
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

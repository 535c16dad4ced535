//! Records, replays, the stored row, the list of quarantined matches, and season questions.

use super::*;

impl<S: Store> Hub<S> {
    /// The matches set aside because they could not be rebuilt, oldest first (from the store,
    /// so with several processes every process lists them all).
    pub async fn quarantined(&self) -> Result<Vec<Quarantined>, ApiError> {
        self.store
            .quarantined()
            .await
            .map_err(|e| ApiError::internal("listing quarantined matches", e))
    }

    /// What the store holds about the match at `table` (configuration, seats, start, result):
    /// a copy, for the tournaments that follow their matches.
    pub async fn stored(&self, table: &Table) -> StoredMatch {
        table.state.lock().await.meta.clone()
    }

    /// The records of a finished match (every game, a replayed draw first), or a conflict while
    /// it runs: a record holds chance a seat may not see yet.
    pub async fn records(&self, table: &Table) -> Result<Vec<colosseum_engine::Record>, ApiError> {
        let st = table.state.lock().await;
        if !st.meta.finished() {
            return Err(ApiError::conflict(
                ErrorCode::NotFinished,
                "the record is published when the match is over",
            ));
        }
        let mut records = st.game.records();
        for (i, record) in records.iter_mut().enumerate() {
            record.practice = st.meta.practice;
            record.chat = st
                .game
                .chat_lines()
                .iter()
                .filter(|(game, _)| *game == i)
                .map(|(_, line)| line.clone())
                .collect();
            if let Some(fair) = &st.meta.fairness {
                let mut fair = fair.clone();
                fair.defaults = st
                    .game
                    .defaults()
                    .iter()
                    .filter(|d| d.0 == i)
                    .map(|&(_, step, seat)| colosseum_engine::fair::DefaultMove { step, seat })
                    .collect();
                record.fairness = Some(fair);
            }
        }
        Ok(records)
    }

    /// A finished match as replay frames: for each game, the spectator's view before the first
    /// step and after each step, with the step.
    pub async fn replay(&self, table: &Table) -> Result<Value, ApiError> {
        let records = self.records(table).await?;
        let st = table.state.lock().await;
        let result = st.meta.result.clone();
        let names = st.meta.names.clone();
        let moves = st.game.move_log(Viewer::Spectator);
        drop(st);
        let mut games = Vec::new();
        for (i, record) in records.iter().enumerate() {
            let entry =
                colosseum_games::find(&record.game).map_err(|e| ApiError::internal("replay", e))?;
            let mut game =
                (entry.create)(&record.options).map_err(|e| ApiError::internal("replay", e))?;
            let mut frames = vec![
                json!({"step": Value::Null, "view": game.view_json(Viewer::Spectator), "text": game.render(Viewer::Spectator)}),
            ];
            for step in &record.steps {
                game.apply(step)
                    .map_err(|e| ApiError::internal("replay", e))?;
                frames.push(json!({
                    "step": step,
                    "view": game.view_json(Viewer::Spectator),
                    "text": game.render(Viewer::Spectator),
                }));
            }
            games.push(json!({
                "record": record,
                "moves": moves.iter().filter(|m| m.game == i + 1).collect::<Vec<_>>(),
                "frames": frames,
                "outcome": game.outcome(),
                "score": game.score(),
            }));
        }
        Ok(
            json!({"id": table.id, "names": {"p1": names[0], "p2": names[1]}, "result": result, "games": games}),
        )
    }

    /// Trivia questions about a season of this server's finished matches ("Who won the Square
    /// Goofspiel match on day 3?"), with their answers and as a TOML bank for a live Cauldron.
    /// Each match's decisive game (the last, after a replayed draw) is asked about; players are
    /// named as they joined.
    pub async fn season_questions(self: &Arc<Self>, req: SeasonRequest) -> Result<Value, ApiError> {
        if req.matches.is_empty() || req.matches.len() > 200 {
            return Err(ApiError::bad_request("a season has 1 to 200 matches"));
        }
        let mut matches = Vec::new();
        for entry in &req.matches {
            let table = self.table(&entry.id).await?;
            let records = self.records(&table).await.map_err(|_| {
                ApiError::conflict(
                    ErrorCode::NotFinished,
                    format!("match {} ({}) is not over yet", entry.id, entry.label),
                )
            })?;
            let (names, result) = {
                let st = table.state.lock().await;
                (st.meta.names.clone(), st.meta.result.clone())
            };
            let record = records
                .last()
                .cloned()
                .ok_or_else(|| ApiError::internal("season", "a match without a record"))?;
            matches.push(colosseum_trivia::SeasonMatch {
                label: entry.label.clone(),
                record,
                players: names,
                // A resigned (or timed-out) match is finished though its record stops early.
                ended: result
                    .filter(|r| r.by != colosseum_host::EndKind::Game)
                    .map(|r| colosseum_trivia::MatchEnd {
                        winner: r.winner,
                        reason: r.reason,
                    }),
            });
        }
        let season = colosseum_trivia::Season {
            name: req.name,
            matches,
        };
        let questions = colosseum_trivia::season_questions(&season)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(json!({
            "season": season.name,
            "toml": colosseum_trivia::Bank::to_toml(&questions),
            "questions": questions,
        }))
    }
}

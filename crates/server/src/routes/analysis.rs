//! `GET` and `POST /api/matches/{id}/analysis`: the analysis after the game
//! (`crate::analysis` keeps the analyses and names the search).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use colosseum_ai::analysis::{AnalysisConfig, DEFAULT_RUNS};
use serde_json::{json, Value};

use crate::analysis::{engine, render, Entry};
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::Store;

/// The analysis of match `id` in memory, else in the store (then kept in memory too).
async fn known<S: Store>(state: &AppState<S>, id: &str) -> Result<Option<Entry>, ApiError> {
    if let Some(entry) = state.analyses.get(id) {
        return Ok(Some(entry));
    }
    let stored = state
        .hub
        .store()
        .load_analysis(id)
        .await
        .map_err(|e| ApiError::internal("reading a stored analysis", e))?;
    let Some(text) = stored else {
        return Ok(None);
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(value) => {
            let entry = Entry::Done(Arc::new(value));
            state.analyses.set(id, entry.clone());
            Ok(Some(entry))
        }
        Err(e) => {
            // Analysed again on request; the new analysis replaces the row.
            tracing::warn!("the stored analysis of match {id} does not read ({e}): left out");
            Ok(None)
        }
    }
}

/// `GET /api/matches/{id}/analysis`: `none` (never started), `running` with decisions done and
/// in all, `done` with each game's analysis, or `failed` with why.
pub(super) async fn get<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let table = state.hub.table(&id).await?;
    let (status, body) = render(known(&state, &table.id).await?);
    let status = if status == StatusCode::ACCEPTED {
        StatusCode::OK
    } else {
        status
    };
    Ok((status, Json(body)))
}

/// `POST /api/matches/{id}/analysis`: starts the analysis of a finished match (202 with its
/// progress), or gives it where it runs (202) or is done (200).
pub(super) async fn start<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let table = state.hub.table(&id).await?;
    // A running match has no public record yet: this answers 409 not_finished.
    let records = state.hub.records(&table).await?;
    let id = table.id.clone();
    if let Some(entry @ (Entry::Running { .. } | Entry::Done(_))) = known(&state, &id).await? {
        let (status, body) = render(Some(entry));
        return Ok((status, Json(body)));
    }
    let total = records
        .iter()
        .map(|r| r.steps.iter().filter(|s| !s.is_chance()).count())
        .sum();
    state.analyses.set(&id, Entry::Running { done: 0, total });
    let limits = state.hub.limits();
    let iters = limits.analysis_iters.min(limits.bot_max_iters);
    let config = AnalysisConfig {
        engine: engine(iters),
        runs: DEFAULT_RUNS,
        seed: 0,
    };
    let analyses = state.analyses.clone();
    let hub = state.hub.clone();
    tokio::spawn(async move {
        let progress_to = analyses.clone();
        let key = id.clone();
        let result = hub
            .in_bot_slot(move || {
                let mut games = Vec::new();
                let mut before = 0;
                for record in &records {
                    let bots =
                        colosseum_ai::registry::find(&record.game).map_err(|e| e.to_string())?;
                    let analysis = bots
                        .analyse(record, &config, &|done, _| {
                            progress_to.set(
                                &key,
                                Entry::Running {
                                    done: before + done,
                                    total,
                                },
                            );
                        })
                        .map_err(|e| e.to_string())?;
                    before += analysis.decisions.len();
                    games.push(analysis);
                }
                Ok::<_, String>(games)
            })
            .await;
        let entry = match result {
            Some(Ok(games)) => {
                let done = json!({
                    "status": "done",
                    "iterations": iters,
                    "runs": DEFAULT_RUNS,
                    "games": games,
                });
                // Stored before it is shown done: a link shared from now on survives a
                // restart. A store that fails leaves it in memory only (logged).
                if let Err(e) = hub
                    .store()
                    .save_analysis(&id, hub.now(), &done.to_string())
                    .await
                {
                    tracing::error!("storing the analysis of match {id}: {e}");
                }
                Entry::Done(Arc::new(done))
            }
            Some(Err(e)) => {
                tracing::error!("analysis of match {id}: {e}");
                Entry::Failed(e)
            }
            None => Entry::Failed("the analysis stopped unexpectedly".into()),
        };
        analyses.set(&id, entry);
    });
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({"status": "running", "done": 0, "total": total})),
    ))
}

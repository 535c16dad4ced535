//! The analysis after the game in the server: `POST /api/matches/{id}/analysis` starts it on a
//! finished match (202), `GET` gives its progress or its result. It runs
//! `colosseum_ai::analysis` over every game of the match in one of the bot searches' slots
//! (`Hub::in_bot_slot`, the queue the bots use), with a search of `Limits::analysis_iters`
//! iterations (at most `Limits::bot_max_iters`) repeated `DEFAULT_RUNS` times, keeps the result
//! in memory (the last [`KEPT`] matches analysed) and stores it (`AnalysisStore`, the table
//! `analyses`), so that an analysis done survives a restart and its link keeps working: a match
//! not in memory is looked up in the store before anything is started.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use colosseum_ai::analysis::{AnalysisConfig, DEFAULT_RUNS};
use colosseum_ai::{Budget, MctsConfig};
use serde_json::{json, Value};

use crate::api::AppState;
use crate::error::ApiError;
use crate::store::Store;

/// The default `Limits::analysis_iters`.
pub const ANALYSIS_ITERS: u64 = 3_000;

/// How many matches' analyses are kept (the oldest finished one makes room).
pub const KEPT: usize = 256;

#[derive(Clone, Debug)]
enum Entry {
    Running { done: usize, total: usize },
    Done(Arc<Value>),
    Failed(String),
}

/// Every analysis started since the server started, by match id.
#[derive(Debug, Default)]
pub struct Analyses {
    entries: Mutex<(HashMap<String, Entry>, Vec<String>)>,
}

impl Analyses {
    fn get(&self, id: &str) -> Option<Entry> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.0.get(id).cloned()
    }

    fn set(&self, id: &str, entry: Entry) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let (map, order) = &mut *entries;
        if !map.contains_key(id) {
            order.push(id.to_string());
            if order.len() > KEPT {
                if let Some(i) = order
                    .iter()
                    .position(|k| !matches!(map.get(k), Some(Entry::Running { .. })))
                {
                    let old = order.remove(i);
                    map.remove(&old);
                }
            }
        }
        map.insert(id.to_string(), entry);
    }
}

/// The engine of the server's analyses: the levels' regret matching (the game's exploration)
/// with `iters` iterations.
fn engine(iters: u64) -> MctsConfig {
    let mut config = MctsConfig::regret_matching(Budget::Iterations(
        u32::try_from(iters.max(1)).unwrap_or(u32::MAX),
    ));
    config.selection = colosseum_ai::Selection::RegretMatching {
        gamma: None,
        plus: false,
    };
    config
}

fn render(entry: Option<Entry>) -> (StatusCode, Value) {
    match entry {
        None => (StatusCode::OK, json!({"status": "none"})),
        Some(Entry::Running { done, total }) => (
            StatusCode::ACCEPTED,
            json!({"status": "running", "done": done, "total": total}),
        ),
        Some(Entry::Done(v)) => (StatusCode::OK, (*v).clone()),
        Some(Entry::Failed(e)) => (StatusCode::OK, json!({"status": "failed", "error": e})),
    }
}

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
pub async fn get<S: Store>(
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
pub async fn start<S: Store>(
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

//! The analysis after the game in the server: `POST /api/matches/{id}/analysis` starts it on a
//! finished match (202), `GET` gives its progress or its result. It runs
//! `colosseum_ai::analysis` over every game of the match in one of the bot searches' slots
//! (`Hub::in_bot_slot`, the queue the bots use), with a search of `Limits::analysis_iters`
//! iterations (at most `Limits::bot_max_iters`) repeated `DEFAULT_RUNS` times, keeps the result
//! in memory (the last [`KEPT`] matches analysed) and stores it (`AnalysisStore`, the table
//! `analyses`), so that an analysis done survives a restart and its link keeps working: a match
//! not in memory is looked up in the store before anything is started. The handlers are in
//! `crate::routes::analysis`; this module holds what they keep and how they search.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use colosseum_ai::{Budget, MctsConfig};
use serde_json::{json, Value};

/// The default `Limits::analysis_iters`.
pub const ANALYSIS_ITERS: u64 = 3_000;

/// How many matches' analyses are kept (the oldest finished one makes room).
pub const KEPT: usize = 256;

#[derive(Clone, Debug)]
pub(crate) enum Entry {
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
    pub(crate) fn get(&self, id: &str) -> Option<Entry> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.0.get(id).cloned()
    }

    pub(crate) fn set(&self, id: &str, entry: Entry) {
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
pub(crate) fn engine(iters: u64) -> MctsConfig {
    let mut config = MctsConfig::regret_matching(Budget::Iterations(
        u32::try_from(iters.max(1)).unwrap_or(u32::MAX),
    ));
    config.selection = colosseum_ai::Selection::RegretMatching {
        gamma: None,
        plus: false,
    };
    config
}

/// The answer of `GET` and `POST /api/matches/{id}/analysis` for `entry`.
pub(crate) fn render(entry: Option<Entry>) -> (StatusCode, Value) {
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

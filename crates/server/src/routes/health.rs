//! Health, metrics, liveness and readiness.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::state::AppState;
use crate::store::Store;

pub(super) async fn health<S: Store>(State(state): State<Arc<AppState<S>>>) -> Json<Value> {
    let pool = state.hub.pool().load();
    let m = state.hub.metrics();
    Json(json!({
        "ok": true,
        "bots": state.hub.bot_load(),
        "verify": {
            "queued": pool.verify.0,
            "running": pool.verify.1,
            "done": m.verify_done.get(),
            "cache_hits": m.verify_cache_hits.get(),
            "refused": m.verify_refused.get(),
            "kept": state.hub.verifier().kept_count(),
        },
    }))
}

/// Prometheus metrics in the text exposition format (docs/operations.md lists them).
pub(super) async fn metrics<S: Store>(State(state): State<Arc<AppState<S>>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.hub.render_metrics(),
    )
        .into_response()
}

/// Liveness: the process answers requests.
pub(super) async fn livez() -> &'static str {
    "ok\n"
}

/// Readiness: the store answers within 2 s (matches are resumed before the server listens).
pub(super) async fn readyz<S: Store>(State(state): State<Arc<AppState<S>>>) -> Response {
    match tokio::time::timeout(Duration::from_secs(2), state.hub.store().quarantined()).await {
        Ok(Ok(_)) => "ready\n".into_response(),
        Ok(Err(e)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: the store fails: {e}\n"),
        )
            .into_response(),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "not ready: the store did not answer within 2 s\n",
        )
            .into_response(),
    }
}

//! The admin endpoints, open to the bearer of the admin token.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Value};

use super::extract::bearer;
use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;
use crate::store::Store;

/// `GET /api/admin/quarantine`: the matches set aside at start because they could not be
/// rebuilt, for the bearer of the admin token.
pub(super) async fn admin_quarantine<S: Store>(
    State(state): State<Arc<AppState<S>>>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let Some(admin) = &state.admin_token else {
        return Err(ApiError::not_found(
            "the admin endpoints are off: start the server with --admin-token TOKEN (or \
             COLOSSEUM_ADMIN_TOKEN=TOKEN) and send `Authorization: Bearer TOKEN`",
        ));
    };
    match bearer(&headers) {
        None => {
            return Err(ApiError::new(
                ErrorCode::Unauthorized,
                "send the admin token as `Authorization: Bearer TOKEN`",
            ))
        }
        Some(t) if !crate::hub::same_secret(t, admin) => {
            return Err(ApiError::forbidden("this is not the admin token"))
        }
        Some(_) => {}
    }
    let list = state.hub.quarantined().await?;
    Ok(Json(json!({ "quarantined": list })))
}

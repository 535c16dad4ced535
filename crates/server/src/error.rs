//! The one error type of the web layer: a status, a stable machine-readable code and a sentence
//! for people. Internals (store failures, panics in bots) are logged and shown only as
//! `internal`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// An error answered to a client, as `{"error": {"code": ..., "message": ...}}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable code a client can branch on (`illegal_move`, `not_found`, ...).
    pub code: &'static str,
    /// What was wrong and what is allowed.
    pub message: String,
}

impl ApiError {
    /// An error with `status`, `code` and `message`.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 404: no such match (or game).
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 403: the caller may not do this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 409: not now (the match has not started, is over, the record is not published yet).
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    /// 500: something on our side; the details go to the server's log only.
    pub fn internal(context: &str, error: impl std::fmt::Display) -> Self {
        tracing::error!("{context}: {error}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the server failed; the match is kept as it was before this request",
        )
    }

    /// The JSON body.
    #[must_use]
    pub fn body(&self) -> serde_json::Value {
        json!({"error": {"code": self.code, "message": self.message}})
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}

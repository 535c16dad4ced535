//! What every handler reads from a request: a JSON body whose rejections are JSON errors, the
//! bearer token, and who the client is (for the per-address limits).

use std::net::SocketAddr;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, Request};
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json;

use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;
use crate::store::Store;

/// Who a request is from, for the per-address limits: the TCP peer's address; for a request
/// another node forwarded (`crate::forward`), the client's address it names; for one from a
/// trusted reverse proxy (`Limits::trusted_proxies`), the client `X-Forwarded-For` names.
/// `local` when the router is called without a peer (tests).
pub(crate) fn client_of<S: Store>(
    state: &AppState<S>,
    headers: &HeaderMap,
    extensions: &axum::http::Extensions,
) -> String {
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let Some(ip) = peer else {
        return "local".to_string();
    };
    if state.hub.is_peer(ip) {
        if let Some(client) = headers
            .get(crate::forward::FORWARDED_FOR)
            .and_then(|v| v.to_str().ok())
        {
            return client.to_string();
        }
    }
    let trusted = state.limits.trusted_proxies;
    if trusted.iter().any(|c| c.contains(ip)) {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok());
        if let Some(client) = crate::forward::client_behind_proxies(forwarded, trusted) {
            return client.to_string();
        }
    }
    ip.to_string()
}

pub(crate) fn client_key<S: Store>(state: &AppState<S>, req: &Request) -> String {
    client_of(state, req.headers(), req.extensions())
}

/// A JSON body whose rejections are JSON errors too.
pub(crate) struct Body<T>(pub(crate) T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(rejection) => Err(rejection_error(&rejection)),
        }
    }
}

/// Every rejection of a JSON body is 400 `bad_request` with serde's sentence (axum answers 422
/// for a body of the wrong types, 415 without `content-type: application/json`), except a body
/// over the limit: 413 `too_large`.
fn rejection_error(rejection: &JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::new(ErrorCode::TooLarge, rejection.body_text());
    }
    ApiError::bad_request(rejection.body_text())
}

/// The token of `Authorization: Bearer TOKEN` (the scheme in any case, as RFC 9110 says).
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(char::is_whitespace)?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

//! The one error type of the web layer: a stable machine-readable code (which gives the HTTP status)
//! and a sentence for people. Internals (store failures, panics in bots) are logged and shown only
//! as `internal`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// Every code an answer can carry, each with its one HTTP status (docs/server-api.md lists them;
/// a test checks the two agree).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// `bad_request` (bad request).
    BadRequest,
    /// `unauthorized` (unauthorized).
    Unauthorized,
    /// `forbidden` (forbidden).
    Forbidden,
    /// `not_found` (not found).
    NotFound,
    /// `timeout` (request timeout).
    Timeout,
    /// `not_started` (conflict).
    NotStarted,
    /// `over` (conflict).
    Over,
    /// `locked` (conflict).
    Locked,
    /// `nothing_to_lock` (conflict).
    NothingToLock,
    /// `not_finished` (conflict).
    NotFinished,
    /// `no_race` (conflict).
    NoRace,
    /// `answer_refused` (conflict).
    AnswerRefused,
    /// `stale_race` (conflict).
    StaleRace,
    /// `stale_decision` (conflict).
    StaleDecision,
    /// `decision_required` (conflict).
    DecisionRequired,
    /// `race_required` (conflict).
    RaceRequired,
    /// `too_many_changes` (conflict).
    TooManyChanges,
    /// `commitment_reused` (conflict).
    CommitmentReused,
    /// `chat_full` (conflict).
    ChatFull,
    /// `seed_fixed` (conflict).
    SeedFixed,
    /// `seed_hash_required` (unprocessable entity).
    SeedHashRequired,
    /// `reveal_not_due` (conflict).
    RevealNotDue,
    /// `seed_mismatch` (unprocessable entity).
    SeedMismatch,
    /// `elsewhere` (conflict).
    Elsewhere,
    /// `sealed` (conflict).
    Sealed,
    /// `not_sealed` (conflict).
    NotSealed,
    /// `already_committed` (conflict).
    AlreadyCommitted,
    /// `not_committed` (conflict).
    NotCommitted,
    /// `not_all_committed` (conflict).
    NotAllCommitted,
    /// `already_opened` (conflict).
    AlreadyOpened,
    /// `expired` (gone).
    Expired,
    /// `too_large` (payload too large).
    TooLarge,
    /// `not_a_move` (bad request): the text is not a move in the game's notation at all.
    NotAMove,
    /// `illegal_move` (unprocessable entity): a move, but not one the seat may make now.
    IllegalMove,
    /// `commitment_mismatch` (unprocessable entity).
    CommitmentMismatch,
    /// `rate_limited` (too many requests).
    RateLimited,
    /// `internal` (internal server error).
    Internal,
    /// `quarantined` (service unavailable).
    Quarantined,
    /// `paused` (conflict).
    Paused,
    /// 503: the server cannot take this work now (a full verify queue, a stopping server); the
    /// answer's `Retry-After` says when to ask again.
    Busy,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::BadRequest,
        ErrorCode::Unauthorized,
        ErrorCode::Forbidden,
        ErrorCode::NotFound,
        ErrorCode::Timeout,
        ErrorCode::NotStarted,
        ErrorCode::Over,
        ErrorCode::Locked,
        ErrorCode::NothingToLock,
        ErrorCode::NotFinished,
        ErrorCode::NoRace,
        ErrorCode::AnswerRefused,
        ErrorCode::StaleRace,
        ErrorCode::StaleDecision,
        ErrorCode::DecisionRequired,
        ErrorCode::RaceRequired,
        ErrorCode::TooManyChanges,
        ErrorCode::CommitmentReused,
        ErrorCode::ChatFull,
        ErrorCode::SeedFixed,
        ErrorCode::SeedHashRequired,
        ErrorCode::RevealNotDue,
        ErrorCode::SeedMismatch,
        ErrorCode::Elsewhere,
        ErrorCode::Sealed,
        ErrorCode::NotSealed,
        ErrorCode::AlreadyCommitted,
        ErrorCode::NotCommitted,
        ErrorCode::NotAllCommitted,
        ErrorCode::AlreadyOpened,
        ErrorCode::Expired,
        ErrorCode::TooLarge,
        ErrorCode::NotAMove,
        ErrorCode::IllegalMove,
        ErrorCode::CommitmentMismatch,
        ErrorCode::RateLimited,
        ErrorCode::Internal,
        ErrorCode::Quarantined,
        ErrorCode::Paused,
        ErrorCode::Busy,
    ];

    /// The code as clients see it (`illegal_move`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Timeout => "timeout",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::Over => "over",
            ErrorCode::Locked => "locked",
            ErrorCode::NothingToLock => "nothing_to_lock",
            ErrorCode::NotFinished => "not_finished",
            ErrorCode::NoRace => "no_race",
            ErrorCode::AnswerRefused => "answer_refused",
            ErrorCode::StaleRace => "stale_race",
            ErrorCode::StaleDecision => "stale_decision",
            ErrorCode::DecisionRequired => "decision_required",
            ErrorCode::RaceRequired => "race_required",
            ErrorCode::TooManyChanges => "too_many_changes",
            ErrorCode::CommitmentReused => "commitment_reused",
            ErrorCode::ChatFull => "chat_full",
            ErrorCode::SeedFixed => "seed_fixed",
            ErrorCode::SeedHashRequired => "seed_hash_required",
            ErrorCode::RevealNotDue => "reveal_not_due",
            ErrorCode::SeedMismatch => "seed_mismatch",
            ErrorCode::Elsewhere => "elsewhere",
            ErrorCode::Sealed => "sealed",
            ErrorCode::NotSealed => "not_sealed",
            ErrorCode::AlreadyCommitted => "already_committed",
            ErrorCode::NotCommitted => "not_committed",
            ErrorCode::NotAllCommitted => "not_all_committed",
            ErrorCode::AlreadyOpened => "already_opened",
            ErrorCode::Expired => "expired",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::NotAMove => "not_a_move",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::CommitmentMismatch => "commitment_mismatch",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::Internal => "internal",
            ErrorCode::Quarantined => "quarantined",
            ErrorCode::Paused => "paused",
            ErrorCode::Busy => "busy",
        }
    }

    /// The code's HTTP status.
    #[must_use]
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::BadRequest => StatusCode::BAD_REQUEST,
            ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorCode::Forbidden => StatusCode::FORBIDDEN,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::Timeout => StatusCode::REQUEST_TIMEOUT,
            ErrorCode::NotStarted => StatusCode::CONFLICT,
            ErrorCode::Over => StatusCode::CONFLICT,
            ErrorCode::Locked => StatusCode::CONFLICT,
            ErrorCode::NothingToLock => StatusCode::CONFLICT,
            ErrorCode::NotFinished => StatusCode::CONFLICT,
            ErrorCode::NoRace => StatusCode::CONFLICT,
            ErrorCode::AnswerRefused => StatusCode::CONFLICT,
            ErrorCode::StaleRace => StatusCode::CONFLICT,
            ErrorCode::StaleDecision => StatusCode::CONFLICT,
            ErrorCode::DecisionRequired => StatusCode::CONFLICT,
            ErrorCode::RaceRequired => StatusCode::CONFLICT,
            ErrorCode::TooManyChanges => StatusCode::CONFLICT,
            ErrorCode::CommitmentReused => StatusCode::CONFLICT,
            ErrorCode::ChatFull => StatusCode::CONFLICT,
            ErrorCode::SeedFixed => StatusCode::CONFLICT,
            ErrorCode::SeedHashRequired => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::RevealNotDue => StatusCode::CONFLICT,
            ErrorCode::SeedMismatch => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::Elsewhere => StatusCode::CONFLICT,
            ErrorCode::Sealed => StatusCode::CONFLICT,
            ErrorCode::NotSealed => StatusCode::CONFLICT,
            ErrorCode::AlreadyCommitted => StatusCode::CONFLICT,
            ErrorCode::NotCommitted => StatusCode::CONFLICT,
            ErrorCode::NotAllCommitted => StatusCode::CONFLICT,
            ErrorCode::AlreadyOpened => StatusCode::CONFLICT,
            ErrorCode::Expired => StatusCode::GONE,
            ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::NotAMove => StatusCode::BAD_REQUEST,
            ErrorCode::IllegalMove => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::CommitmentMismatch => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Quarantined => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::Paused => StatusCode::CONFLICT,
            ErrorCode::Busy => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// An error answered to a client, as `{"error": {"code": ..., "message": ...}}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// A stable code a client can branch on (`illegal_move`, `not_found`, ...).
    pub code: ErrorCode,
    /// What was wrong and what is allowed.
    pub message: String,
}

impl ApiError {
    /// An error with `code` (which gives the status) and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
        }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, message)
    }

    /// 404: no such match (or game).
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, message)
    }

    /// 403: the caller may not do this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Forbidden, message)
    }

    /// 409: not now (the match has not started, is over, the record is not published yet).
    pub fn conflict(code: ErrorCode, message: impl Into<String>) -> Self {
        debug_assert_eq!(code.status(), StatusCode::CONFLICT, "{code} is not a 409");
        Self::new(code, message)
    }

    /// 500: something on our side; the details go to the server's log only.
    pub fn internal(context: &str, error: impl std::fmt::Display) -> Self {
        tracing::error!("{context}: {error}");
        Self::new(
            ErrorCode::Internal,
            "the server failed; the match is kept as it was before this request",
        )
    }

    /// The HTTP status: the code's, and nothing else.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        self.code.status()
    }

    /// The JSON body.
    #[must_use]
    pub fn body(&self) -> serde_json::Value {
        json!({"error": {"code": self.code.as_str(), "message": self.message}})
    }
}

/// What the host refused, as the client is told: each [`MatchError`] has its code. A refused
/// move is `not_a_move` (400) when the text is not in the game's notation at all and
/// `illegal_move` (422) when it is a move the seat may not make now.
impl From<colosseum_host::MatchError> for ApiError {
    fn from(e: colosseum_host::MatchError) -> Self {
        use colosseum_host::MatchError as M;
        let code = match &e {
            M::Over => ErrorCode::Over,
            M::Refused { .. } if e.is_not_a_move() => ErrorCode::NotAMove,
            M::Refused { .. } => ErrorCode::IllegalMove,
            M::Locked(_) => ErrorCode::Locked,
            M::NothingToLock(_) => ErrorCode::NothingToLock,
            M::NoRace => ErrorCode::NoRace,
            M::Answer(_) => ErrorCode::AnswerRefused,
            M::StaleRace { .. } => ErrorCode::StaleRace,
            M::Sealed => ErrorCode::Sealed,
            M::NotSealed(_) => ErrorCode::NotSealed,
            M::BadCommitment(_) | M::BadChat(_) => ErrorCode::BadRequest,
            M::AlreadyCommitted(_) => ErrorCode::AlreadyCommitted,
            M::NotCommitted(_) => ErrorCode::NotCommitted,
            M::NotAllCommitted => ErrorCode::NotAllCommitted,
            M::AlreadyOpened(_) => ErrorCode::AlreadyOpened,
            M::CommitmentMismatch { .. } => ErrorCode::CommitmentMismatch,
            M::CommitmentReused { .. } => ErrorCode::CommitmentReused,
            M::TooManyChanges { .. } => ErrorCode::TooManyChanges,
            M::Paused | M::PauseRefused(_) => ErrorCode::Paused,
        };
        let message = match e {
            M::Over => "the match is over".to_string(),
            M::Refused { reason, .. } => reason,
            other => other.to_string(),
        };
        ApiError::new(code, message)
    }
}

/// What `Retry-After` says to a 503 `busy` (a queue is full, or the server stops);
/// `crate::verifying` re-exports it.
pub const RETRY_BUSY_SECS: u64 = 30;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), Json(self.body())).into_response();
        if self.code == ErrorCode::Busy {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(RETRY_BUSY_SECS),
            );
        }
        response
    }
}

/// Maps a store error (any error) to a 500 that names what was being done (`context`).
pub(crate) fn internal<E: std::fmt::Display>(context: &str) -> impl FnOnce(E) -> ApiError + '_ {
    move |e| ApiError::internal(context, e)
}

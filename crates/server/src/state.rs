//! [`AppState`]: what the router shares (the hub, the tournaments, the seasons, the limits and
//! their buckets); re-exported as `crate::api::AppState` and `colosseum_server::AppState`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use colosseum_engine::Viewer;

use crate::error::{ApiError, ErrorCode};
use crate::hub::{Hub, Table};
use crate::limits::Limits;
use crate::rate::{take_from, Bucket};
use crate::store::Store;

/// What the router shares.
pub struct AppState<S: Store> {
    /// The matches.
    pub hub: Arc<Hub<S>>,
    /// The tournaments (`crate::tournaments`).
    pub tournaments: Arc<crate::tournaments::Tournaments<S>>,
    /// The limits.
    pub limits: Limits,
    pub(crate) buckets: Mutex<HashMap<String, Bucket>>,
    /// The token of the admin endpoints (`/api/admin/...`); `None` turns them off.
    pub(crate) admin_token: Option<String>,
    /// Match creations per client address.
    pub(crate) creates: Mutex<HashMap<String, Bucket>>,
    /// Chat messages per match and author (a seat, or a spectator's address).
    pub(crate) chats: Mutex<HashMap<String, Bucket>>,
    /// The analyses after the game, run and cached (`crate::analysis`).
    pub analyses: Arc<crate::analysis::Analyses>,
    /// The seasons (`crate::seasons`): rosters and ratings.
    pub seasons: Arc<crate::seasons::Seasons<S>>,
}

impl<S: Store> AppState<S> {
    /// State over `hub` with `limits`.
    pub fn new(hub: Arc<Hub<S>>, limits: Limits) -> Arc<Self> {
        Self::with_admin(hub, limits, None)
    }

    /// State over `hub` with `limits`, and the admin endpoints open to `admin_token` (off when
    /// `None`).
    pub fn with_admin(hub: Arc<Hub<S>>, limits: Limits, admin_token: Option<String>) -> Arc<Self> {
        let tournaments = crate::tournaments::Tournaments::new(hub.clone());
        Arc::new(AppState {
            seasons: tournaments.seasons.clone(),
            tournaments,
            hub,
            limits,
            buckets: Mutex::new(HashMap::new()),
            admin_token: admin_token.filter(|t| !t.is_empty()),
            creates: Mutex::new(HashMap::new()),
            chats: Mutex::new(HashMap::new()),
            analyses: Arc::new(crate::analysis::Analyses::default()),
        })
    }

    /// Takes a chat token for `author` (`MATCH:p1`, `MATCH:spectator:ADDRESS`), or says why not.
    pub(crate) fn allow_chat(&self, author: &str) -> Result<(), ApiError> {
        if take_from(
            &self.chats,
            author,
            self.hub.now(),
            self.limits.chat_per_minute / 60.0,
            self.limits.chat_burst,
        ) {
            Ok(())
        } else {
            Err(ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "too many chat messages: at most {} a minute (burst {}) from one writer in a match",
                    self.limits.chat_per_minute, self.limits.chat_burst
                ),
            ))
        }
    }

    /// `role` writes `text` in the chat of `table`: rate-limited per writer, then
    /// [`Hub::chat`]. `address` tells spectators apart.
    pub(crate) async fn chat(
        &self,
        table: &Arc<Table>,
        role: Viewer,
        address: &str,
        name: Option<String>,
        text: String,
    ) -> Result<(), ApiError> {
        let author = match role {
            Viewer::Seat(seat) => format!("{}:{seat}", table.id),
            Viewer::Spectator => format!("{}:spectator:{address}", table.id),
        };
        self.allow_chat(&author)?;
        self.hub
            .chat(table, role, name, text, self.limits.chat_max_lines)
            .await
    }

    /// Takes a request from `key`'s bucket (`Limits::http_per_second`); `false`: over the rate.
    pub(crate) fn allow(&self, key: &str) -> bool {
        take_from(
            &self.buckets,
            key,
            self.hub.now(),
            self.limits.http_per_second,
            self.limits.http_burst,
        )
    }

    pub(crate) fn allow_create(&self, key: &str) -> bool {
        take_from(
            &self.creates,
            key,
            self.hub.now(),
            self.limits.creates_per_minute / 60.0,
            self.limits.creates_burst,
        )
    }
}

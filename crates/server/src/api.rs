//! The HTTP API's names where they have always been: the router ([`app`], `crate::routes`, one
//! module per family of handlers), the limits (`crate::limits`) and the state the router shares
//! (`crate::state`). See `docs/server-api.md` for the protocol.

pub use crate::limits::{Limits, DAY_MS, LOBBY_PAGE};
pub use crate::routes::{
    app, serve_socket, serve_socket_with, ClientKey, WS_PROTOCOL, WS_TOKEN_PROTOCOL,
};
pub use crate::state::AppState;

//! Several nodes behind one address: a request or WebSocket for a match that another process
//! serves is forwarded to that process (its address as it announced it on PostgreSQL), so a
//! client may reach any node, with no sticky sessions (docs/operations.md).
//!
//! A forwarded request carries [`FORWARDED_FOR`] with the client's address: the owner applies
//! its per-address limits to the client, not to the forwarding node, and never forwards it
//! again. The owner believes that header only from a node it knows ([`crate::Hub::is_peer`]).

use std::net::IpAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use tokio_tungstenite::tungstenite;

use crate::error::{ApiError, ErrorCode};

/// The header that marks a forwarded request and names its client's address.
pub const FORWARDED_FOR: &str = "x-colosseum-forwarded-for";

/// How long a node waits to reach another.
const CONNECT: Duration = Duration::from_secs(5);

/// `host:port` of an announced `http://host:port`.
fn authority(owner: &str) -> Option<&str> {
    owner
        .strip_prefix("http://")
        .map(|rest| rest.trim_end_matches('/'))
        .filter(|a| !a.is_empty() && !a.contains('/'))
}

/// The IP address of an announced `http://ip:port` (nodes announce addresses, not names).
pub fn peer_ip(owner: &str) -> Option<IpAddr> {
    let a = authority(owner)?;
    a.parse::<std::net::SocketAddr>().ok().map(|s| s.ip())
}

fn unreachable(owner: &str, e: impl std::fmt::Display) -> Response {
    tracing::warn!(owner, error = %e, "forwarding to the match's node failed");
    ApiError::new(
        ErrorCode::Elsewhere,
        "this match is served by another server process, which does not answer now; retry in a \
         few seconds (another process takes it over if that one stopped)",
    )
    .into_response()
}

/// Sends `req` (from `client`) to the node at `owner` and returns its answer.
pub async fn http(owner: &str, client: &str, mut req: Request) -> Response {
    let Some(authority) = authority(owner) else {
        return unreachable(owner, "not an http://host:port address");
    };
    let stream =
        match tokio::time::timeout(CONNECT, tokio::net::TcpStream::connect(authority)).await {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => return unreachable(owner, e),
            Err(_) => return unreachable(owner, "connecting timed out"),
        };
    let _ = stream.set_nodelay(true);
    let (mut sender, conn) =
        match hyper::client::conn::http1::handshake::<_, Body>(TokioIo::new(stream)).await {
            Ok(pair) => pair,
            Err(e) => return unreachable(owner, e),
        };
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            tracing::debug!("forwarded connection: {e}");
        }
    });
    let path = req
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    *req.uri_mut() = match path.parse() {
        Ok(uri) => uri,
        Err(e) => return unreachable(owner, e),
    };
    let headers = req.headers_mut();
    if let Ok(host) = HeaderValue::from_str(authority) {
        headers.insert(header::HOST, host);
    }
    if let Ok(c) = HeaderValue::from_str(client) {
        headers.insert(FORWARDED_FOR, c);
    }
    match sender.send_request(req).await {
        Ok(res) => res.map(Body::new),
        Err(e) => unreachable(owner, e),
    }
}

/// How a forwarded WebSocket behaves toward its client: the limits the owner would apply.
#[derive(Clone, Copy, Debug)]
pub struct SocketLimits {
    /// The largest message accepted from the client (larger closes the connection).
    pub message_bytes: usize,
    /// The client's silence (no message, no pong) after which the connection is closed.
    pub idle: Duration,
}

/// Accepts the client's WebSocket here (echoing the first of `echo` that it offered) and pipes
/// it, message by message, to the same WebSocket at the node `owner`, offering that node the
/// client's subprotocols (`offered`) and authorization. The owner's pings go on to the client
/// and its pongs back; a client silent for `limits.idle` is closed here (the owner hears this
/// node's own pongs, so it cannot tell). When the owner goes away without closing (it died),
/// the client is closed with 1012 (service restart): it reconnects, to any node, and the match
/// is served by whichever node took it over.
#[allow(clippy::too_many_arguments)] // each is one part of the client's request
pub fn websocket(
    owner: &str,
    client: &str,
    path: &str,
    upgrade: WebSocketUpgrade,
    echo: Vec<String>,
    protocols: Vec<String>,
    authorization: Option<HeaderValue>,
    limits: SocketLimits,
) -> Response {
    let Some(authority) = authority(owner).map(str::to_string) else {
        return unreachable(owner, "not an http://host:port address");
    };
    let url = format!("ws://{authority}{path}");
    let owner = owner.to_string();
    let client = client.to_string();
    // The browser fails unless one of the protocols it offered is echoed.
    let upgrade = if echo.is_empty() {
        upgrade
    } else {
        upgrade.protocols(echo)
    };
    upgrade
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_message_size(limits.message_bytes)
        .max_frame_size(limits.message_bytes)
        .on_upgrade(move |socket| async move {
            if let Err(e) = pipe(socket, &url, &client, &protocols, authorization, limits).await {
                tracing::info!(owner, error = %e, "forwarded WebSocket ended");
            }
        })
}

async fn pipe(
    mut socket: WebSocket,
    url: &str,
    client: &str,
    protocols: &[String],
    authorization: Option<HeaderValue>,
    limits: SocketLimits,
) -> Result<(), String> {
    use tungstenite::client::IntoClientRequest;
    use tungstenite::protocol::frame::coding::CloseCode;
    let mut request = url.into_client_request().map_err(|e| e.to_string())?;
    let headers = request.headers_mut();
    if !protocols.is_empty() {
        let offered = HeaderValue::from_str(&protocols.join(", ")).map_err(|e| e.to_string())?;
        headers.insert(header::SEC_WEBSOCKET_PROTOCOL, offered);
    }
    if let Some(a) = authorization {
        headers.insert(header::AUTHORIZATION, a);
    }
    if let Ok(c) = HeaderValue::from_str(client) {
        headers.insert(FORWARDED_FOR, c);
    }
    let connected = tokio::time::timeout(CONNECT, tokio_tungstenite::connect_async(request)).await;
    let upstream = match connected {
        Ok(Ok((upstream, _))) => upstream,
        failed => {
            // The owner does not answer (it died a moment ago, say): the client retries.
            let _ = socket
                .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                    code: u16::from(CloseCode::Restart),
                    reason: "the match's server does not answer; reconnect".into(),
                })))
                .await;
            return Err(match failed {
                Ok(Err(e)) => e.to_string(),
                _ => "connecting timed out".to_string(),
            });
        }
    };
    let (mut up_tx, mut up_rx) = upstream.split();
    let (mut down_tx, mut down_rx) = socket.split();
    let to_owner = async {
        loop {
            let m = match tokio::time::timeout(limits.idle, down_rx.next()).await {
                Ok(Some(Ok(m))) => m,
                // Silent too long, gone, or broken.
                _ => break,
            };
            let m = match m {
                Message::Text(t) => tungstenite::Message::text(t.as_str()),
                Message::Binary(b) => tungstenite::Message::binary(b.to_vec()),
                Message::Pong(p) => tungstenite::Message::Pong(p.to_vec().into()),
                Message::Close(_) => break,
                // Answered here (axum does).
                Message::Ping(_) => continue,
            };
            if up_tx.send(m).await.is_err() {
                break;
            }
        }
        let _ = up_tx.close().await;
    };
    let to_client = async {
        // How the owner's side ended: `None` if it went away without a close frame.
        let mut closed = None;
        while let Some(Ok(m)) = up_rx.next().await {
            let m = match m {
                tungstenite::Message::Text(t) => Message::Text(t.as_str().into()),
                tungstenite::Message::Binary(b) => Message::Binary(b.to_vec().into()),
                tungstenite::Message::Ping(p) => Message::Ping(p.to_vec().into()),
                tungstenite::Message::Close(frame) => {
                    closed = Some(frame.map(|f| axum::extract::ws::CloseFrame {
                        code: u16::from(f.code),
                        reason: f.reason.as_str().into(),
                    }));
                    break;
                }
                _ => continue,
            };
            if down_tx.send(m).await.is_err() {
                return;
            }
        }
        let frame = closed.unwrap_or_else(|| {
            Some(axum::extract::ws::CloseFrame {
                code: u16::from(CloseCode::Restart),
                reason: "the match's server went away; reconnect".into(),
            })
        });
        let _ = down_tx.send(Message::Close(frame)).await;
        let _ = down_tx.close().await;
    };
    // Either side closing ends both.
    tokio::select! {
        () = to_owner => {},
        () = to_client => {},
    }
    Ok(())
}

/// An address range, `IP/BITS` or one `IP`: a reverse proxy `serve` trusts to name its client in
/// `X-Forwarded-For` (`--trusted-proxy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    bits: u8,
}

impl std::str::FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            format!(
                "`{s}` is not an address range: give IP/BITS (10.0.0.0/8, fd00::/8) or one IP \
                 (127.0.0.1)"
            )
        };
        let (ip, bits) = match s.trim().split_once('/') {
            Some((ip, bits)) => (ip, Some(bits)),
            None => (s.trim(), None),
        };
        let net: IpAddr = ip.parse().map_err(|_| bad())?;
        let max = if net.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            Some(b) => b.parse::<u8>().ok().filter(|b| *b <= max).ok_or_else(|| {
                format!("`{s}`: the prefix length is 0 to {max} for this address")
            })?,
            None => max,
        };
        Ok(Cidr { net, bits })
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.net, self.bits)
    }
}

impl Cidr {
    /// Whether `ip` is in the range (an IPv4 address written as IPv6, `::ffff:a.b.c.d`, counts
    /// as the IPv4 one).
    #[must_use]
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.net, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.bits)).unwrap_or(0);
                u32::from(n) & mask == u32::from(a) & mask
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.bits))
                    .unwrap_or(0);
                u128::from(n) & mask == u128::from(a) & mask
            }
            _ => false,
        }
    }
}

/// The client behind trusted proxies: `X-Forwarded-For` (`forwarded`, every such header in
/// order) read from the right, each proxy adding the address it heard from, the first address
/// that is not itself a trusted proxy. `None` when the header is absent or names no such
/// address, or an entry does not read as an IP address (the TCP peer then counts).
#[must_use]
pub fn client_behind_proxies<'a>(
    forwarded: impl Iterator<Item = &'a str>,
    trusted: &[Cidr],
) -> Option<IpAddr> {
    let entries: Vec<&str> = forwarded.flat_map(|h| h.split(',')).collect();
    for entry in entries.iter().rev() {
        let ip: IpAddr = entry.trim().parse().ok()?;
        if !trusted.iter().any(|c| c.contains(ip)) {
            return Some(ip);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_and_hold_their_addresses() {
        let r: Cidr = "10.1.0.0/16".parse().unwrap();
        assert!(r.contains("10.1.200.3".parse().unwrap()));
        assert!(!r.contains("10.2.0.1".parse().unwrap()));
        assert!(r.contains("::ffff:10.1.0.9".parse().unwrap()));
        let one: Cidr = "127.0.0.1".parse().unwrap();
        assert!(one.contains("127.0.0.1".parse().unwrap()));
        assert!(!one.contains("127.0.0.2".parse().unwrap()));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains("8.8.8.8".parse().unwrap()));
        let v6: Cidr = "fd00::/8".parse().unwrap();
        assert!(v6.contains("fd12::1".parse().unwrap()));
        assert!(!v6.contains("fe80::1".parse().unwrap()));
        assert!("10.0.0.0/33"
            .parse::<Cidr>()
            .unwrap_err()
            .contains("0 to 32"));
        assert!("proxy.local"
            .parse::<Cidr>()
            .unwrap_err()
            .contains("IP/BITS"));
    }

    #[test]
    fn the_client_is_the_rightmost_address_that_is_no_trusted_proxy() {
        let trusted = ["10.0.0.0/8".parse().unwrap()];
        let read = |h: &[&str]| client_behind_proxies(h.iter().copied(), &trusted);
        // A client's own header is kept on the left; the proxies append.
        assert_eq!(
            read(&["6.6.6.6, 203.0.113.7, 10.0.0.2"]),
            Some("203.0.113.7".parse().unwrap())
        );
        assert_eq!(
            read(&["6.6.6.6", "203.0.113.7"]),
            Some("203.0.113.7".parse().unwrap())
        );
        assert_eq!(read(&["10.0.0.3"]), None);
        assert_eq!(read(&[]), None);
        assert_eq!(read(&["junk, 10.0.0.3"]), None);
    }
}

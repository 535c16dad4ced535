//! WebSocket clients: over loopback (`tokio_tungstenite`), or `serve_socket` driven over
//! channels without a network.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Message as AxumMessage;
use colosseum_engine::Viewer;
use colosseum_server::api::serve_socket;
use colosseum_server::hub::Table;
use colosseum_server::{AppState, SqliteStore};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A client's WebSocket over loopback.
pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A socket to match `id`, with `?token=` if given.
pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Socket {
    let url = match token {
        Some(t) => format!("ws://{addr}/api/matches/{id}/ws?token={t}"),
        None => format!("ws://{addr}/api/matches/{id}/ws"),
    };
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// The next JSON message, skipping pings.
pub async fn next(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// Reads until a message satisfies `pred`.
pub async fn until(ws: &mut Socket, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..20 {
        let v = next(ws).await;
        if pred(&v) {
            return v;
        }
    }
    panic!("no such message");
}

pub async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// Joins both seats over their sockets as the browser does: each joins (with its name) with
/// the hash of its client seed (`super::client_seed`), and reveals the seed when its state says
/// the reveals are due.
pub async fn join_both(seats: [&mut Socket; 2], names: [&str; 2]) {
    let [p1, p2] = seats;
    for (i, (ws, name)) in [&mut *p1, &mut *p2].into_iter().zip(names).enumerate() {
        let hash = super::seed_hash(&super::client_seed(i));
        send(
            ws,
            serde_json::json!({"type": "join", "name": name, "client_seed_hash": hash}),
        )
        .await;
    }
    for (i, ws) in [p1, p2].into_iter().enumerate() {
        until(ws, |v| {
            v["fairness"]["reveal_due"] == true || v["status"] == "live"
        })
        .await;
        let reveal = serde_json::json!({"type": "reveal", "client_seed": super::client_seed(i)});
        send(ws, reveal).await;
    }
}

/// Sends `msg`; the answer to it (`ok` or `error`), skipping pushed states.
pub async fn reply(ws: &mut Socket, msg: Value) -> Value {
    send(ws, msg).await;
    loop {
        let v = next(ws).await;
        if v["type"] == "ok" || v["type"] == "error" {
            return v;
        }
    }
}

/// A client of `serve_socket` over channels: what it sends, what it receives, the server's task.
pub type Client = (
    UnboundedSender<AxumMessage>,
    UnboundedReceiver<AxumMessage>,
    tokio::task::JoinHandle<()>,
);

/// `serve_socket` for `role` over channels.
pub fn socket(state: &Arc<AppState<SqliteStore>>, table: &Arc<Table>, role: Viewer) -> Client {
    let (to_client, from_server) = unbounded_channel::<AxumMessage>();
    let (to_server, from_client) = unbounded_channel::<AxumMessage>();
    let sink = Box::pin(futures_util::sink::unfold(
        to_client,
        |tx, msg: AxumMessage| async move {
            tx.send(msg).map_err(|_| "closed")?;
            Ok::<_, &str>(tx)
        },
    ));
    let stream = Box::pin(futures_util::stream::unfold(
        from_client,
        |mut rx| async move { rx.recv().await.map(|m| (Ok::<_, std::io::Error>(m), rx)) },
    ));
    let task = tokio::spawn(serve_socket(
        state.clone(),
        table.clone(),
        role,
        "test".to_string(),
        sink,
        stream,
    ));
    (to_server, from_server, task)
}

/// Every text message received so far.
pub fn drain(rx: &mut UnboundedReceiver<AxumMessage>) -> Vec<Value> {
    let mut out = Vec::new();
    while let Ok(m) = rx.try_recv() {
        if let AxumMessage::Text(t) = m {
            out.push(serde_json::from_str(&t).unwrap());
        }
    }
    out
}

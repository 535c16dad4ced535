//! Delta states (`?delta=1`) through the real server on loopback: both seats and a spectator
//! apply every `delta` they are sent, and after every move of whole matches each holds exactly
//! the state a full snapshot gives its role; a reconnection and a `snapshot` ask get the full
//! state.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use colosseum_server::Limits;
use common::ws::{next, send, Socket};
use common::{open_limits, server_with, Server};
use serde_json::{json, Value};

/// No rate limits, the WebSocket's included (a seat's socket plays a whole match here).
fn unlimited() -> Server {
    server_with(Limits {
        ws_per_second: 1e9,
        ws_burst: 1e9,
        ..open_limits()
    })
}

/// A delta connection: `token` as a subprotocol, `?delta=1`.
async fn connect_delta(addr: SocketAddr, id: &str, token: Option<&str>) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}/api/matches/{id}/ws?delta=1")
        .into_client_request()
        .unwrap();
    if let Some(t) = token {
        request.headers_mut().insert(
            "sec-websocket-protocol",
            format!("colosseum, colosseum.token.{t}").parse().unwrap(),
        );
    }
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// A client's view of one connection: the state it holds, patched by each delta.
struct Client {
    ws: Socket,
    token: Option<String>,
    state: Value,
    fulls: usize,
    deltas: usize,
}

impl Client {
    async fn open(addr: SocketAddr, id: &str, token: Option<&str>) -> Client {
        let mut ws = connect_delta(addr, id, token).await;
        let first = next(&mut ws).await;
        assert_eq!(
            first["type"], "state",
            "the first message is the full state: {first}"
        );
        Client {
            ws,
            token: token.map(str::to_string),
            state: first,
            fulls: 1,
            deltas: 0,
        }
    }

    /// Reads one message: a state replaces, a delta patches; others are returned.
    async fn read(&mut self) -> Value {
        let v = next(&mut self.ws).await;
        match v["type"].as_str() {
            Some("state") => {
                self.state = v.clone();
                self.fulls += 1;
            }
            Some("delta") => {
                apply(&mut self.state, &v);
                self.deltas += 1;
            }
            _ => {}
        }
        v
    }

    /// Reads until the answer to `to`, which must be `ok`.
    async fn answer(&mut self, to: &str) {
        loop {
            let v = self.read().await;
            if v["type"] == "ok" || v["type"] == "error" {
                assert_eq!(v, json!({"type": "ok", "to": to}));
                return;
            }
        }
    }

    /// Reads until the state held is the role's full snapshot as the server gives it now
    /// (`GET /api/matches/{id}`), `server_now` aside; `match.now` too when nothing was sent
    /// for the change (a change this role cannot see sends nothing).
    async fn settle(&mut self, server: &Server, id: &str, what: &str) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let want = server.state(id, self.token.as_deref()).await;
            if same(&self.state, &want, true) {
                return;
            }
            let read = tokio::time::timeout_at(deadline, self.read()).await;
            assert!(
                read.is_ok(),
                "after {what}: the state held is not the full snapshot\n held: {}\n full: {want}",
                self.state
            );
        }
    }
}

/// Equal but for `server_now` (and `match.now` if `any_now`).
fn same(a: &Value, b: &Value, any_now: bool) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        v.as_object_mut().unwrap().remove("server_now");
        if any_now {
            v["match"].as_object_mut().unwrap().remove("now");
        }
        v
    };
    strip(a) == strip(b)
}

/// Applies a delta as `docs/server-api.md` says a client does.
fn apply(state: &mut Value, d: &Value) {
    state["server_now"] = d["server_now"].clone();
    if let Some(m) = d["state"].as_object() {
        for (k, v) in m {
            state[k] = v.clone();
        }
    }
    if let Some(m) = d["match"].as_object() {
        for (k, v) in m {
            state["match"][k] = v.clone();
        }
    }
    if let Some(moves) = d.get("moves") {
        let from = moves["from"].as_u64().unwrap() as usize;
        let log = state["match"]["moves"].as_array_mut().unwrap();
        assert!(from <= log.len(), "{d}");
        log.truncate(from);
        log.extend(moves["lines"].as_array().unwrap().iter().cloned());
    }
}

/// Plays `game` to its end over delta connections: each seat moves on its own socket (a legal
/// move from the state it holds), and after every move both seats and a spectator hold their
/// role's full snapshot. Returns the three clients.
async fn play_whole_match(server: &Server, addr: SocketAddr, body: Value) -> (String, Vec<Client>) {
    let (id, tokens) = server.create(body).await;
    let [t1, t2] = tokens.map(Option::unwrap);
    let mut seats = [
        Client::open(addr, &id, Some(&t1)).await,
        Client::open(addr, &id, Some(&t2)).await,
    ];
    let mut watcher = Client::open(addr, &id, None).await;
    for (i, seat) in seats.iter_mut().enumerate() {
        let hash = common::seed_hash(&common::client_seed(i));
        send(
            &mut seat.ws,
            json!({"type": "join", "name": format!("Ann{i}"), "client_seed_hash": hash}),
        )
        .await;
    }
    // Both committed: each reveals its client seed when its state says so.
    for (i, seat) in seats.iter_mut().enumerate() {
        while seat.state["fairness"]["reveal_due"] != true {
            seat.read().await;
        }
        let reveal = json!({"type": "reveal", "client_seed": common::client_seed(i)});
        send(&mut seat.ws, reveal).await;
    }
    while watcher.state["status"] != "live" {
        watcher.read().await;
    }
    let mut moves = 0;
    let mut rng = 7u64;
    loop {
        for c in seats.iter_mut().chain([&mut watcher]) {
            c.settle(server, &id, &format!("move {moves}")).await;
        }
        if watcher.state["status"] == "finished" {
            break;
        }
        // The first seat that must act and has not submitted moves.
        let Some(i) = (0..2).find(|&i| {
            let me = ["p1", "p2"][i];
            let s = &seats[i].state;
            s["status"] == "live"
                && s["match"]["seats"][me]["to_act"] == true
                && s["match"]["seats"][me]["submitted"] != true
        }) else {
            panic!("nobody to move in {}", watcher.state);
        };
        let legal = seats[i].state["legal_moves"].as_array().unwrap().clone();
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal[(rng >> 33) as usize % legal.len()].clone();
        let decision = seats[i].state["decision"].clone();
        send(
            &mut seats[i].ws,
            json!({"type": "submit", "move": mv, "decision": decision}),
        )
        .await;
        seats[i].answer("submit").await;
        moves += 1;
        if moves == 3 {
            // A chat line changes only the chat member.
            send(&mut seats[i].ws, json!({"type": "chat", "text": "gl"})).await;
            seats[i].answer("chat").await;
        }
        assert!(moves < 500, "the match does not end");
    }
    let mut clients: Vec<Client> = seats.into_iter().collect();
    clients.push(watcher);
    for c in &clients {
        assert!(
            c.deltas >= moves / 2,
            "{} deltas in {moves} moves: {}",
            c.deltas,
            c.state
        );
    }
    (id, clients)
}

#[tokio::test]
async fn delta_clients_hold_the_full_snapshot_after_every_move_of_whole_matches() {
    let server = unlimited();
    let addr = server.listen().await;
    for body in [
        json!({"game": "goofspiel", "options": {"cards": "6"}}),
        // Face-down moves: a log line changes when it is answered.
        json!({"game": "all-in-goofspiel"}),
        json!({"game": "galespiel"}),
    ] {
        let (id, clients) = play_whole_match(&server, addr, body.clone()).await;
        for c in &clients {
            // Once a state was sent, every later change came as a delta: one full state each.
            assert_eq!(c.fulls, 1, "{body}");
        }
        // A reconnection starts with the full state, the same as the one held.
        for c in &clients {
            let again = Client::open(addr, &id, c.token.as_deref()).await;
            assert!(same(&again.state, &c.state, false), "{body}");
        }
    }
}

#[tokio::test]
async fn a_delta_client_asking_for_a_snapshot_gets_the_full_state() {
    let server = unlimited();
    let addr = server.listen().await;
    let (id, tokens) = server
        .create(json!({"game": "goofspiel", "options": {"cards": "4"}}))
        .await;
    let t1 = tokens[0].clone().unwrap();
    let mut p1 = Client::open(addr, &id, Some(&t1)).await;
    let hash = common::seed_hash(&common::client_seed(0));
    send(
        &mut p1.ws,
        json!({"type": "join", "client_seed_hash": hash}),
    )
    .await;
    p1.answer("join").await;
    p1.settle(&server, &id, "the join").await;
    send(&mut p1.ws, json!({"type": "snapshot"})).await;
    let v = loop {
        let v = p1.read().await;
        if v["type"] != "ok" && v["type"] != "delta" {
            break v;
        }
    };
    assert_eq!(v["type"], "state", "{v}");
    assert!(same(&v, &server.state(&id, Some(&t1)).await, false));
    // `delta=` other than 1/0 is refused before the upgrade.
    let bad =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/matches/{id}/ws?delta=yes"))
            .await;
    assert!(bad.is_err());
    // Without `?delta=1` every change is a full state (the default protocol).
    let mut full = common::ws::connect(addr, &id, None).await;
    assert_eq!(next(&mut full).await["type"], "state");
    let t2 = tokens[1].clone().unwrap();
    let mut p2 = common::ws::connect(addr, &id, Some(&t2)).await;
    next(&mut p2).await;
    let hash = common::seed_hash(&common::client_seed(1));
    let join = json!({"type": "join", "client_seed_hash": hash});
    let ok = common::ws::reply(&mut p2, join).await;
    assert_eq!(ok, json!({"type": "ok", "to": "join"}));
    server.reveal_all(&id, &tokens).await;
    let live = common::ws::until(&mut full, |v| v["status"] == "live").await;
    assert_eq!(live["type"], "state");
}

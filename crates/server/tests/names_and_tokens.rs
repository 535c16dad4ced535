//! Names (one check at creation and at join), the `Authorization` scheme in any case, JSON type
//! errors as 400, and the WebSocket's ways to carry a token without a URL.

mod common;

use std::net::SocketAddr;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::ws::{next, send};
use common::{request, server};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tower::ServiceExt;

fn goofspiel(seats: Value) -> Value {
    json!({"game": "goofspiel", "options": {"cards": "3"}, "seats": seats})
}

fn human(name: &str) -> Value {
    json!({"kind": "human", "name": name})
}

#[tokio::test]
async fn names_are_checked_the_same_at_creation_and_at_join() {
    let s = server();
    let bad = [
        "",
        "   ",
        "a\u{7}b",
        "line\nbreak",
        &"x".repeat(41),
        "bot",
        "Bot Ann",
        "BOT\tmcts:hard",
        "random",
        "Heuristic",
        "mcts:hard",
        "MCTS:ms=10",
        "cmd:ls",
    ];
    for name in bad {
        // At creation, in either seat.
        let (st, v) = s
            .call(
                "POST",
                "/api/matches",
                None,
                Some(goofspiel(json!([{"kind": "human"}, human(name)]))),
            )
            .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{name:?}: {v}");
        assert_eq!(v["error"]["code"], "bad_request");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("a name is 1 to 40 characters"),
            "{v}"
        );
        // At join, over HTTP.
        let (_, created) = s
            .call("POST", "/api/matches", None, Some(goofspiel(Value::Null)))
            .await;
        let id = created["id"].as_str().unwrap();
        let t = created["tokens"][0].as_str().unwrap();
        let (st, v) = s.post(id, "join", t, json!({"name": name})).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{name:?}: {v}");
        let (_, state) = s
            .call("GET", &format!("/api/matches/{id}"), None, None)
            .await;
        assert_eq!(state["joined"]["p1"], false, "a refused join takes no seat");
    }
    // Good names are trimmed; 40 characters (not bytes) are allowed; `robot` and `bottle` are
    // not bot names.
    let long = "é".repeat(40);
    let (st, created) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(goofspiel(json!([human("  Ann  "), human(&long)]))),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let (_, state) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    assert_eq!(state["names"]["p1"], "Ann");
    assert_eq!(state["names"]["p2"], long.as_str());

    // Unique within a match, ignoring case: at creation...
    let (st, v) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(goofspiel(json!([human("Ann"), human(" aNN")]))),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    // ... and at join: p2 may not take p1's name.
    let (_, created) = s
        .call("POST", "/api/matches", None, Some(goofspiel(Value::Null)))
        .await;
    let id = created["id"].as_str().unwrap();
    let [t1, t2] = [0, 1].map(|i| created["tokens"][i].as_str().unwrap().to_string());
    for (t, name, status) in [
        (&t1, "robot", StatusCode::OK),
        (&t2, "ROBOT", StatusCode::BAD_REQUEST),
        (&t2, "bottle", StatusCode::OK),
        // Joining again under one's own name is fine.
        (&t1, "Robot", StatusCode::OK),
    ] {
        let (st, v) = s.join_token(id, t, json!({"name": name})).await;
        assert_eq!(st, status, "{name}: {v}");
    }
    let (_, state) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    assert_eq!(state["names"], json!({"p1": "Robot", "p2": "bottle"}));
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let s = server();
    let (_, created) = s
        .call("POST", "/api/matches", None, Some(goofspiel(Value::Null)))
        .await;
    let id = created["id"].as_str().unwrap();
    let t = created["tokens"][1].as_str().unwrap();
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let (st, v) = request(
            &s.router,
            "GET",
            &format!("/api/matches/{id}"),
            Some(&format!("{scheme} {t}")),
            None,
        )
        .await;
        assert_eq!(st, StatusCode::OK, "{scheme}: {v}");
        assert_eq!(v["you"], "p2", "{scheme}: {v}");
    }
    // Another scheme is no token: a spectator for reading, refused for acting.
    let (st, v) = request(
        &s.router,
        "GET",
        &format!("/api/matches/{id}"),
        Some(&format!("Basic {t}")),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(v["you"], Value::Null);
}

#[tokio::test]
async fn json_type_errors_are_bad_requests_with_serdes_reason() {
    let s = server();
    let (st, v) = s
        .call("POST", "/api/matches", None, Some(json!({"game": 7})))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["error"]["code"], "bad_request");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("invalid type"),
        "{v}"
    );
    let (_, created) = s
        .call("POST", "/api/matches", None, Some(goofspiel(Value::Null)))
        .await;
    let id = created["id"].as_str().unwrap();
    let t = created["tokens"][0].as_str().unwrap();
    let (st, v) = s.act(id, "submit", t, json!({"move": 3})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    // Without a JSON content type: 400 too (axum says 415).
    let req = Request::builder()
        .method("POST")
        .uri("/api/matches")
        .body(Body::from(r#"{"game": "goofspiel"}"#))
        .unwrap();
    let res = s.router.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
}

// ----- the WebSocket -----

/// A server on loopback with one waiting match; the match as created.
async fn start() -> (SocketAddr, Value) {
    let s = server();
    let (_, created) = s
        .call("POST", "/api/matches", None, Some(goofspiel(Value::Null)))
        .await;
    (s.listen().await, created)
}

#[tokio::test]
async fn a_websocket_takes_its_token_from_a_subprotocol() {
    let (addr, created) = start().await;
    let id = created["id"].as_str().unwrap();
    let t = created["tokens"][0].as_str().unwrap();
    let url = format!("ws://{addr}/api/matches/{id}/ws");

    // As a browser does: `new WebSocket(url, ['colosseum', 'colosseum.token.' + token])`. The
    // server echoes `colosseum`, never the token.
    let mut req = url.as_str().into_client_request().unwrap();
    req.headers_mut().insert(
        "sec-websocket-protocol",
        format!("colosseum, colosseum.token.{t}").parse().unwrap(),
    );
    let (mut ws, res) = tokio_tungstenite::connect_async(req).await.unwrap();
    assert_eq!(res.headers()["sec-websocket-protocol"], "colosseum");
    assert_eq!(next(&mut ws).await["you"], "p1");

    // The token alone: echoed back, as a browser requires one of its offers.
    let mut req = url.as_str().into_client_request().unwrap();
    let proto = format!("colosseum.token.{t}");
    req.headers_mut()
        .insert("sec-websocket-protocol", proto.parse().unwrap());
    let (mut ws, res) = tokio_tungstenite::connect_async(req).await.unwrap();
    assert_eq!(res.headers()["sec-websocket-protocol"], proto.as_str());
    assert_eq!(next(&mut ws).await["you"], "p1");

    // A wrong token in the subprotocol is refused before the upgrade.
    let mut req = url.as_str().into_client_request().unwrap();
    req.headers_mut().insert(
        "sec-websocket-protocol",
        "colosseum, colosseum.token.0000".parse().unwrap(),
    );
    assert!(tokio_tungstenite::connect_async(req).await.is_err());

    // `?token=` still works (deprecated).
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("{url}?token={t}"))
        .await
        .unwrap();
    assert_eq!(next(&mut ws).await["you"], "p1");
}

#[tokio::test]
async fn a_websocket_can_authenticate_with_its_first_message() {
    let (addr, created) = start().await;
    let id = created["id"].as_str().unwrap();
    let [t1, t2] = [0, 1].map(|i| created["tokens"][i].as_str().unwrap().to_string());
    let url = format!("ws://{addr}/api/matches/{id}/ws");
    let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .unwrap();
    // A spectator until it authenticates.
    assert_eq!(next(&mut ws).await["you"], Value::Null);
    send(&mut ws, json!({"type": "join"})).await;
    assert_eq!(next(&mut ws).await["error"]["code"], "forbidden");
    // A wrong token is refused and the connection stays a spectator.
    send(&mut ws, json!({"type": "auth", "token": "0123"})).await;
    let v = next(&mut ws).await;
    assert_eq!(
        (v["type"].as_str(), v["to"].as_str()),
        (Some("error"), Some("auth")),
        "{v}"
    );
    assert_eq!(v["error"]["code"], "forbidden");
    send(&mut ws, json!({"type": "auth", "token": t2})).await;
    let v = next(&mut ws).await;
    assert_eq!(v, json!({"type": "ok", "to": "auth", "you": "p2"}));
    // p2's own view follows, and the seat can act.
    assert_eq!(next(&mut ws).await["you"], "p2");
    let hash = common::seed_hash(&common::token_seed(&t2));
    send(
        &mut ws,
        json!({"type": "join", "name": "Bo", "client_seed_hash": hash}),
    )
    .await;
    loop {
        let v = next(&mut ws).await;
        if v["type"] == "ok" {
            assert_eq!(v["to"], "join");
            break;
        }
    }
    // A seat cannot become the other seat.
    send(&mut ws, json!({"type": "auth", "token": t1})).await;
    loop {
        let v = next(&mut ws).await;
        if v["type"] == "error" {
            assert_eq!(v["to"], "auth");
            assert_eq!(v["error"]["code"], "forbidden");
            break;
        }
    }
}

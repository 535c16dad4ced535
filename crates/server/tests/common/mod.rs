//! The router without a network, for the test files that share it: requests go straight into
//! `app(state)` and the clock is moved by hand.

#![allow(dead_code)]

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use colosseum_engine::Seat;
use colosseum_server::{app, AppState, Hub, Limits, ManualClock, SqliteStore};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// A server over an in-memory store with a manual clock and no timer tasks.
pub struct Server {
    pub router: Router,
    pub hub: Arc<Hub<SqliteStore>>,
    pub clock: Arc<ManualClock>,
}

/// A server without rate limits.
pub fn server() -> Server {
    let clock = Arc::new(ManualClock::at(1_700_000_000_000));
    let hub = Hub::new(SqliteStore::in_memory().unwrap(), clock.clone(), false);
    Server {
        router: app(AppState::new(
            hub.clone(),
            Limits {
                http_per_second: 1e9,
                http_burst: 1e9,
                creates_per_minute: 1e9,
                creates_burst: 1e9,
                ..Limits::default()
            },
        )),
        hub,
        clock,
    }
}

impl Server {
    /// A request; the answer's status and JSON body.
    pub async fn call(
        &self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let req = match body {
            Some(b) => req
                .header("content-type", "application/json")
                .body(Body::from(b.to_string()))
                .unwrap(),
            None => req.body(Body::empty()).unwrap(),
        };
        let res = self.router.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("{uri}: not JSON: {}", String::from_utf8_lossy(&bytes)));
        (status, value)
    }

    /// Creates a match; the id and the human seats' tokens.
    pub async fn create(&self, body: Value) -> (String, [Option<String>; 2]) {
        let (status, created) = self.call("POST", "/api/matches", None, Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        (
            id,
            [0, 1].map(|i| created["tokens"][i].as_str().map(str::to_string)),
        )
    }

    /// The state as the token's seat (or a spectator) sees it.
    pub async fn state(&self, id: &str, token: Option<&str>) -> Value {
        let (status, v) = self
            .call("GET", &format!("/api/matches/{id}"), token, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    }

    /// Plays uniformly random legal moves for the human seats, each sent with the decision it
    /// is for, until the match is over (bots, if any, are waited for). Returns the final state.
    pub async fn play_out(&self, id: &str, tokens: &[Option<String>; 2], seed: u64) -> Value {
        let table = self.hub.table(id).await.unwrap();
        for turn in 0..5_000u64 {
            let v = self.state(id, None).await;
            if v["status"] == "finished" {
                return v;
            }
            let mut moved = false;
            for seat in Seat::BOTH {
                let Some(token) = &tokens[seat.index()] else {
                    continue;
                };
                let mine = &v["match"]["seats"][seat.as_str()];
                if mine["to_act"] != true || mine["submitted"] == true {
                    continue;
                }
                let Some(mv) = self
                    .hub
                    .random_move_for_tests(
                        &table,
                        seat,
                        seed ^ turn ^ ((seat.index() as u64) << 32),
                    )
                    .await
                else {
                    continue;
                };
                let body = serde_json::json!({"move": mv, "decision": v["decision"]});
                let (status, answer) = self
                    .call(
                        "POST",
                        &format!("/api/matches/{id}/submit"),
                        Some(token),
                        Some(body),
                    )
                    .await;
                assert_eq!(status, StatusCode::OK, "{mv}: {answer}");
                moved = true;
                break;
            }
            if !moved {
                // A bot is thinking on the blocking pool.
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
        panic!("match {id} did not end");
    }
}

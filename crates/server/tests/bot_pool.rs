//! The bot pool shared fairly (issue 36, holes 5 and 8): one address's flood of bot searches
//! does not make another's bot wait behind it, a bot's clock is held while its search waits
//! for a slot, the queue per share is shown in `/api/health` and `/metrics`, and verify reports
//! are computed once, in the pool, and kept.
//!
//! The pool's order is made deterministic by holding its one slot with a job of the test's own
//! (`Hub::in_slot`) until every search of the flood is queued.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use colosseum_engine::Seat;
use colosseum_server::hub::CreateMatch;
use colosseum_server::pool::{share_of, Kind};
use colosseum_server::verifying::Answer;
use colosseum_server::{Limits, Store};
use common::{open_limits, server_with, Server};
use serde_json::{json, Value};

/// Holds the pool's slot (a job that waits for the test) until the returned sender is used.
async fn hold_the_slot(s: &Server) -> std::sync::mpsc::Sender<()> {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let hub = s.hub.clone();
    tokio::spawn(async move {
        hub.in_slot("the test", Kind::Search, move || {
            let _ = rx.recv();
        })
        .await
    });
    until(s, "the test's job runs", |s| s.hub.bot_load().running == 1).await;
    tx
}

async fn until(s: &Server, what: &str, ok: impl Fn(&Server) -> bool) {
    for _ in 0..6_000 {
        if ok(s) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{what}: not within 60 s");
}

fn request(body: Value) -> CreateMatch {
    serde_json::from_value(body).unwrap()
}

async fn finished(s: &Server, id: &str) -> bool {
    let (_, state) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    state["status"] == "finished"
}

/// Share A (an address) floods the pool with six bot-against-bot matches (twelve searches
/// queued); then share B's bot must move. B's search starts at most one of A's searches after
/// the slot frees (the pool gives it to the share with the fewest running, ties in turn): it
/// does not wait for A's twelve. Meanwhile B's bot's clock is held: ten minutes past its
/// 30-second deadline, the host has not moved for it. Before the fair pool, B waited behind
/// all twelve (a FIFO semaphore) and its default move was made at the deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_from_one_address_does_not_make_another_bot_wait_or_time_out() {
    let s = server_with(Limits {
        bot_searches: 1,
        ..open_limits()
    });
    let release = hold_the_slot(&s).await;
    let flooder = share_of("203.0.113.7");
    let mut flood = Vec::new();
    for _ in 0..6 {
        let created = s
            .hub
            .create_for(
                request(json!({
                    "game": "goofspiel",
                    "seats": [{"kind": "bot", "level": "mcts:iters=20000"},
                              {"kind": "bot", "level": "mcts:iters=20000"}],
                    "time": {"kind": "untimed"},
                })),
                Some(flooder.clone()),
            )
            .await
            .unwrap();
        flood.push(created.id);
    }
    until(&s, "the flood is queued", |s| s.hub.bot_load().queued == 12).await;
    // The share is stored with the match (hashed): a restart or a takeover keeps it.
    let (stored, _) = s.hub.store().load(&flood[0]).await.unwrap().unwrap();
    assert_eq!(stored.share.as_deref(), Some(flooder.as_str()));

    // Share B: a human against a bot that answers at once, 30 s a decision.
    let (id, table) = common::begin(
        &s.hub,
        json!({"game": "goofspiel", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}),
    )
    .await;
    common::submit(&s.hub, &table, Seat::P1, "1").await;
    until(&s, "B's search is queued", |s| {
        s.hub.bot_load().queued == 13
    })
    .await;

    // The queue per share, without addresses.
    let (_, health) = s.call("GET", "/api/health", None, None).await;
    assert_eq!(health["bots"]["shares"], 3, "{health}");
    assert_eq!(health["bots"]["queued"], 13, "{health}");
    assert_eq!(health["bots"]["queues"][0]["queued"], 12, "{health}");
    assert_eq!(health["bots"]["queues"][1]["queued"], 1, "{health}");
    assert!(!health.to_string().contains("203.0.113"), "{health}");
    assert!(
        !health.to_string().contains(&flooder),
        "the stored share is not shown: {health}"
    );
    let metrics = s.hub.render_metrics();
    assert!(metrics.contains("colosseum_bot_shares 3"), "{metrics}");
    let label = health["bots"]["queues"][0]["share"].as_str().unwrap();
    assert!(
        metrics.contains(&format!(
            "colosseum_bot_share_queued{{share=\"{label}\"}} 12"
        )),
        "{metrics}"
    );

    // Long past B's bot's deadline: its clock is held, so the host does not move for it.
    let decision = s.state(&id, None).await["decision"].clone();
    s.clock.advance(600_000);
    s.hub.tick_all().await.unwrap();
    let state = s.state(&id, None).await;
    assert_eq!(
        state["decision"], decision,
        "the host moved for B's bot: {state}"
    );
    assert_eq!(state["match"]["seats"]["p2"]["submitted"], false, "{state}");
    assert_eq!(
        state["match"]["seats"]["p2"]["clock"]["deadline"],
        Value::Null,
        "held: {state}"
    );

    let before = s.hub.metrics().submissions.get();
    release.send(()).unwrap();
    let mut moved = false;
    for _ in 0..6_000 {
        if s.state(&id, None).await["decision"] != decision {
            moved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(moved, "B's bot did not move within 30 s");
    // A's moves made before B's: the bot's submission and the reveal count B's bot's.
    let flood_moves = s.hub.metrics().submissions.get() - before - 1;
    assert!(
        flood_moves <= 2,
        "{flood_moves} of the flood's searches ran before B's: B waited behind the flood"
    );
    let state = s.state(&id, None).await;
    assert_eq!(
        state["match"]["timed_out"],
        json!([]),
        "B's bot made its own move, not the host's default: {state}"
    );
    s.hub.stop_work();
}

/// Verify reports: computed once, in the pool, in the asking address's share; a request that
/// waits too long is told to come back (202), one that would queue over its address's share is
/// refused (503 `busy` with `Retry-After`); concurrent requests share one computation; a kept
/// report is answered at once; once the server stops, a verify is refused at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_reports_are_computed_once_in_the_pool_and_kept() {
    let s = server_with(Limits {
        bot_searches: 1,
        ..open_limits()
    });
    let mut ids = Vec::new();
    for _ in 0..4 {
        let created = s
            .hub
            .create(request(json!({
                "game": "goofspiel",
                "options": {"cards": "4"},
                "seats": [{"kind": "bot", "level": "mcts:iters=300"},
                          {"kind": "bot", "level": "mcts:iters=300"}],
                "time": {"kind": "untimed"},
            })))
            .await
            .unwrap();
        ids.push(created.id);
    }
    for id in &ids {
        for _ in 0..6_000 {
            if finished(&s, id).await {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(finished(&s, id).await, "match {id} did not finish");
    }
    let release = hold_the_slot(&s).await;
    // The router's requests come from `local` (no peer address in these tests).
    let local = share_of("local");
    let other = share_of("198.51.100.1");
    let short = Duration::from_millis(20);
    for id in &ids[..2] {
        let answer = s.hub.verify_report(id, &local, short).await.unwrap();
        assert!(matches!(answer, Answer::Computing(5)), "{answer:?}");
    }
    // A third computation from the same address is refused, with when to come back.
    let (status, retry, body) = raw_get(&s, &format!("/api/matches/{}/verify", ids[2])).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["error"]["code"], "busy");
    assert_eq!(retry.as_deref(), Some("30"));
    // Another address may; a request for a match being verified shares its computation.
    let answer = s.hub.verify_report(&ids[2], &other, short).await.unwrap();
    assert!(matches!(answer, Answer::Computing(_)), "{answer:?}");
    let answer = s.hub.verify_report(&ids[0], &other, short).await.unwrap();
    assert!(matches!(answer, Answer::Computing(_)), "{answer:?}");
    let (_, health) = s.call("GET", "/api/health", None, None).await;
    assert_eq!(health["verify"]["queued"], 3, "{health}");
    assert_eq!(health["bots"]["queued"], 3, "{health}");

    release.send(()).unwrap();
    let (status, report) = s
        .call(
            "GET",
            &format!("/api/matches/{}/verify", ids[0]),
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report["ok"], true, "{report}");
    for id in &ids[1..3] {
        let answer = s
            .hub
            .verify_report(id, &other, Duration::from_secs(60))
            .await
            .unwrap();
        assert!(
            matches!(answer, Answer::Report(ref r) if r["ok"] == true),
            "{answer:?}"
        );
    }
    let (_, health) = s.call("GET", "/api/health", None, None).await;
    assert_eq!(
        health["verify"]["done"], 3,
        "each match verified once: {health}"
    );
    assert_eq!(health["verify"]["kept"], 3, "{health}");
    assert_eq!(health["verify"]["refused"], 1, "{health}");
    let hits = health["verify"]["cache_hits"].as_u64().unwrap();
    let (status, again) = s
        .call(
            "GET",
            &format!("/api/matches/{}/verify", ids[0]),
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, report);
    let (_, health) = s.call("GET", "/api/health", None, None).await;
    assert_eq!(health["verify"]["cache_hits"], hits + 1, "{health}");
    assert_eq!(health["verify"]["done"], 3, "{health}");
    let metrics = s.hub.render_metrics();
    assert!(
        metrics.contains("colosseum_verify_jobs_done_total 3"),
        "{metrics}"
    );

    // The server stops: a verify not kept is refused at once.
    s.hub.stop_work();
    let (status, retry, body) = raw_get(&s, &format!("/api/matches/{}/verify", ids[3])).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["error"]["code"], "busy");
    assert!(retry.is_some());
}

/// A GET through the router: the status, the `Retry-After` header and the JSON body.
async fn raw_get(s: &Server, uri: &str) -> (StatusCode, Option<String>, Value) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let req = axum::http::Request::builder()
        .uri(uri)
        .body(axum::body::Body::empty())
        .unwrap();
    let res = s.router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let retry = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, retry, serde_json::from_slice(&bytes).unwrap())
}

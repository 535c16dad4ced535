//! What an operator watches (docs/operations.md): `/metrics` counts what happened, through the
//! real router; `/livez` and `/readyz` answer.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use colosseum_engine::Seat;
use common::{begin, server, submit};
use http_body_util::BodyExt;
use serde_json::json;
use tower::ServiceExt;

async fn text(router: &axum::Router, uri: &str) -> (StatusCode, String, String) {
    let res = router
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, kind, String::from_utf8(body.to_vec()).unwrap())
}

/// The value of the sample `name` (no labels) in an exposition.
fn sample(exposition: &str, name: &str) -> f64 {
    exposition
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no sample {name} in:\n{exposition}"))
        .trim()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn metrics_count_submissions_reveals_refusals_and_finished_matches() {
    let s = server();
    let (status, kind, before) = text(&s.router, "/metrics").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("application/openmetrics-text"), "{kind}");
    assert!(before.trim_end().ends_with("# EOF"), "{before}");
    assert_eq!(sample(&before, "colosseum_submissions_total"), 0.0);
    assert_eq!(sample(&before, "colosseum_matches_live"), 0.0);

    // A 3-card Goofspiel, played to the end, with one refused move.
    let (_, table) = begin(
        &s.hub,
        json!({"game": "goofspiel", "options": {"cards": "3"}, "seed": 1}),
    )
    .await;
    let (_, _, mid) = text(&s.router, "/metrics").await;
    assert_eq!(sample(&mid, "colosseum_matches_live"), 1.0);
    assert_eq!(sample(&mid, "colosseum_matches_owned"), 1.0);
    let refused = s
        .hub
        .act(
            &table,
            Seat::P1,
            colosseum_server::hub::Action::Submit("9".into()),
        )
        .await;
    assert!(refused.is_err());
    for card in ["1", "2", "3"] {
        submit(&s.hub, &table, Seat::P1, card).await;
        submit(&s.hub, &table, Seat::P2, card).await;
    }
    let (_, _, after) = text(&s.router, "/metrics").await;
    assert_eq!(sample(&after, "colosseum_submissions_total"), 6.0);
    assert_eq!(sample(&after, "colosseum_reveals_total"), 3.0);
    assert_eq!(sample(&after, "colosseum_refusals_total"), 1.0);
    assert_eq!(sample(&after, "colosseum_matches_finished_total"), 1.0);
    assert_eq!(sample(&after, "colosseum_matches_live"), 0.0);
    // Every reveal came from a request: three latencies; the store wrote at least once per step.
    assert_eq!(
        sample(&after, "colosseum_reveal_latency_seconds_count"),
        3.0
    );
    assert!(sample(&after, "colosseum_store_write_seconds_count") >= 6.0);
    // The group commits: every append written counted, in at least one transaction each
    // group (here the appends come one at a time, so the groups are no fewer than them).
    let appends = sample(&after, "colosseum_store_commit_appends_total");
    assert_eq!(
        appends,
        sample(&after, "colosseum_store_write_seconds_count")
    );
    assert!(sample(&after, "colosseum_store_commits_total") >= appends);
    assert_eq!(sample(&after, "colosseum_bot_searches_running"), 0.0);
    assert_eq!(sample(&after, "colosseum_websockets"), 0.0);
}

#[tokio::test]
async fn liveness_and_readiness_answer() {
    let s = server();
    let (status, _, body) = text(&s.router, "/livez").await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "ok\n"));
    let (status, _, body) = text(&s.router, "/readyz").await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "ready\n"));
}

#[tokio::test]
async fn open_websockets_are_counted_and_uncounted_when_they_close() {
    let s = server();
    let addr = s.listen().await;
    let (id, _) = begin(
        &s.hub,
        json!({"game": "goofspiel", "options": {"cards": "3"}}),
    )
    .await;
    let mut a = common::ws::connect(addr, &id, None).await;
    let mut b = common::ws::connect(addr, &id, None).await;
    common::ws::next(&mut a).await;
    common::ws::next(&mut b).await;
    let (_, _, two) = text(&s.router, "/metrics").await;
    assert_eq!(sample(&two, "colosseum_websockets"), 2.0);
    drop(a);
    drop(b);
    // The server sees the closes a moment later.
    for _ in 0..100 {
        let (_, _, now) = text(&s.router, "/metrics").await;
        if sample(&now, "colosseum_websockets") == 0.0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the closed sockets are still counted");
}

//! The analysis after the game through the router: `POST /api/matches/{id}/analysis` starts it
//! on a finished match, `GET` gives its progress and result; not before the match is over.

mod common;

use axum::http::StatusCode;
use colosseum_server::Limits;
use common::{open_limits, server_with_timers};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_is_analysed_in_the_bot_pool_and_cached() {
    let s = server_with_timers(
        Limits {
            analysis_iters: 40,
            bot_searches: 1,
            ..open_limits()
        },
        false,
    );
    let (id, tokens) = s
        .start(json!({"game": "goofspiel", "options": {"cards": 4, "order": "random"}, "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    let uri = format!("/api/matches/{id}/analysis");
    // Not before the end: the record is not public yet.
    let (status, v) = s.call("POST", &uri, None, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "not_finished", "{v}");
    let (status, v) = s.call("GET", &uri, None, None).await;
    assert_eq!((status, &v["status"]), (StatusCode::OK, &json!("none")));
    s.play_out(&id, &tokens, 11).await;
    let (status, v) = s.call("POST", &uri, None, None).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    assert_eq!(v["status"], "running");
    assert_eq!(v["total"], 4);
    let mut done = None;
    for _ in 0..600 {
        let (status, v) = s.call("GET", &uri, None, None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if v["status"] == "done" {
            done = Some(v);
            break;
        }
        assert_eq!(v["status"], "running", "{v}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let v = done.expect("the analysis finishes");
    assert_eq!(v["iterations"], 40);
    let game = &v["games"][0];
    assert_eq!(game["game"], "goofspiel");
    let decisions = game["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), 4);
    for d in decisions {
        let p1 = d["p1_expected"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p1), "{d}");
        assert_eq!(d["seats"].as_array().unwrap().len(), 2);
        assert_eq!(d["seats"][0]["method"], "search");
    }
    // Cached: asking again answers at once with the same result.
    let (status, again) = s.call("POST", &uri, None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, v);
    // The bot pool ran it and is free again.
    let load = s.hub.bot_load();
    assert_eq!((load.running, load.queued), (0, 0));
    assert!(load.peak >= 1);
    let (status, v) = s
        .call("GET", "/api/matches/nope/analysis", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
}

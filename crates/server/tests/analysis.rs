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

/// An analysis done is stored (the `analyses` table): after a restart on the same database the
/// link answers it at once, the same, without analysing again. Classic Goofspiel with
/// descending prizes and point-difference returns is analysed exactly from its solved table
/// (solved in the process at 6 cards), in points.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_survives_a_restart() {
    let (dir, path) = common::temp_db("analysis-restart", "a.db");
    let limits = Limits {
        analysis_iters: 40,
        bot_searches: 1,
        ..open_limits()
    };
    let s = common::server_on_store(
        colosseum_server::SqliteStore::open(&path).unwrap(),
        limits,
        false,
    );
    let options = json!({"cards": 6, "order": "descending", "returns": "point_difference"});
    let (id, tokens) = s
        .start(json!({"game": "goofspiel", "options": options, "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    s.play_out(&id, &tokens, 5).await;
    let uri = format!("/api/matches/{id}/analysis");
    let (status, v) = s.call("POST", &uri, None, None).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let mut done = None;
    for _ in 0..600 {
        let (_, v) = s.call("GET", &uri, None, None).await;
        if v["status"] == "done" {
            done = Some(v);
            break;
        }
        assert_eq!(v["status"], "running", "{v}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let v = done.expect("the analysis finishes");
    let game = &v["games"][0];
    assert_eq!(game["points_range"], 42.0, "{game}");
    for d in game["decisions"].as_array().unwrap() {
        for seat in d["seats"].as_array().unwrap() {
            assert_eq!(seat["method"], "exact", "{seat}");
            let e = seat["expected"].as_f64().unwrap();
            let points = seat["expected_points"].as_f64().unwrap();
            assert!((points - (e - 0.5) * 42.0).abs() < 1e-9, "{seat}");
        }
    }
    drop(s);

    // The same database, a new server: the analysis is there, the same, and nothing runs.
    let s = common::server_on_store(
        colosseum_server::SqliteStore::open(&path).unwrap(),
        limits,
        false,
    );
    let (status, again) = s.call("GET", &uri, None, None).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again, v);
    let (status, again) = s.call("POST", &uri, None, None).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again, v);
    assert_eq!(s.hub.bot_load().peak, 0, "nothing was analysed again");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `hard` at a number of cards the server cannot solve in the process, without a table file
/// named, is refused at creation with what to do; other levels are not.
#[tokio::test]
async fn hard_without_its_table_is_refused_with_what_to_do() {
    let s = common::server();
    let options = json!({"cards": 12, "order": "descending", "returns": "point_difference"});
    let (status, v) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(json!({"game": "goofspiel", "options": options, "seats": [{"kind": "human"}, {"kind": "bot", "level": "mcts:hard"}]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("colosseum solve") && message.contains("COLOSSEUM_GOOFSPIEL_TABLE"),
        "{message}"
    );
    let (status, v) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(json!({"game": "goofspiel", "options": options, "seats": [{"kind": "human"}, {"kind": "bot", "level": "mcts:medium"}]})),
        )
        .await;
    assert!(status.is_success(), "{v}");
}

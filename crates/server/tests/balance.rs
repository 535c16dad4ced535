//! Balance reports on the rules pages: `GET /api/games/{game}/balance` gives the game's latest
//! report under the balance directory (`colosseum serve --balance-dir`), `.../{plot}.svg` its
//! plots; none (200, `"report": null`) for a game without one; a clear 404 otherwise. One test:
//! the directory is the process's.

mod common;

use axum::http::StatusCode;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

fn report(dir: &std::path::Path, game: &str, engine: &str, plots: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    let body = json!({"game": game, "engine": engine, "seed": 0, "sweep": null, "points": []});
    std::fs::write(dir.join("balance.json"), body.to_string()).unwrap();
    for p in plots {
        std::fs::write(
            dir.join(format!("{p}.svg")),
            format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><title>{engine} {p}</title></svg>"),
        )
        .unwrap();
    }
}

#[tokio::test]
async fn each_games_latest_balance_report_and_its_plots_are_served() {
    let s = common::server();
    // No directory: 200 with no report (a rules page asks without logging a 404), and a note
    // that says how to start the server.
    colosseum_server::balance::use_dir(None);
    std::env::remove_var(colosseum_server::balance::ENV);
    let (status, v) = s
        .call("GET", "/api/games/goofspiel/balance", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["game"], &v["report"], &v["plots"]),
        (&json!("goofspiel"), &Value::Null, &json!({})),
        "{v}"
    );
    assert!(
        v["missing"].as_str().unwrap().contains("--balance-dir"),
        "{v}"
    );

    let (root, _) = common::temp_db("balance", "unused");
    report(
        &root.join("old"),
        "goofspiel",
        "old",
        &["shares", "endings", "length"],
    );
    std::thread::sleep(std::time::Duration::from_millis(50));
    report(
        &root.join("other-game"),
        "thwart-omega",
        "other",
        &["shares"],
    );
    std::thread::sleep(std::time::Duration::from_millis(50));
    report(&root.join("new"), "goofspiel", "new", &["shares", "length"]);
    std::fs::create_dir_all(root.join("empty")).unwrap();
    colosseum_server::balance::use_dir(Some(root.clone()));

    let (status, v) = s
        .call("GET", "/api/games/goofspiel/balance", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"], "goofspiel");
    assert_eq!(v["report"]["engine"], "new", "the latest report: {v}");
    assert!(v["produced_at"].as_u64().unwrap() > 1_600_000_000_000);
    assert_eq!(
        v["plots"],
        json!({"shares": "/api/games/goofspiel/balance/shares.svg", "length": "/api/games/goofspiel/balance/length.svg"})
    );
    let req = axum::http::Request::builder()
        .uri("/api/games/goofspiel/balance/shares.svg")
        .body(axum::body::Body::empty())
        .unwrap();
    let res = s.router.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "image/svg+xml");
    let body = res.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&body).contains("<title>new shares</title>"));
    let (status, v) = s
        .call("GET", "/api/games/thwart-omega/balance", None, None)
        .await;
    assert_eq!(
        (status, &v["report"]["engine"]),
        (StatusCode::OK, &json!("other"))
    );

    // A game without a report: 200, no report, the command that writes one.
    let (status, v) = s
        .call("GET", "/api/games/galespiel/balance", None, None)
        .await;
    assert_eq!(
        (status, &v["report"]),
        (StatusCode::OK, &Value::Null),
        "{v}"
    );
    assert!(
        v["missing"]
            .as_str()
            .unwrap()
            .contains("colosseum balance galespiel --out"),
        "{v}"
    );

    // A plot the latest report lacks, an unknown plot, a plot of a game without a report, an
    // unknown game: 404 saying which.
    for (uri, says) in [
        ("/api/games/goofspiel/balance/endings.svg", "no endings.svg"),
        (
            "/api/games/goofspiel/balance/secret.txt",
            "the plots are shares.svg, endings.svg, length.svg",
        ),
        (
            "/api/games/galespiel/balance/shares.svg",
            "colosseum balance galespiel --out",
        ),
        ("/api/games/chess/balance", "chess"),
    ] {
        let (status, v) = s.call("GET", uri, None, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}: {v}");
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{uri}: {message}");
    }
    colosseum_server::balance::use_dir(None);
    std::fs::remove_dir_all(&root).unwrap();
}

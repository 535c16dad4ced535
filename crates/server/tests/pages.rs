//! The browser pages without a network: each route answers the right kind of document, unknown
//! paths are a JSON error under `/api` and a plain page elsewhere, and the pages are not
//! counted against the API's rate limit.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use colosseum_server::Limits;
use common::server_with;
use http_body_util::BodyExt;
use tower::ServiceExt;

fn router(limits: Limits) -> Router {
    server_with(limits).router
}

async fn get(router: &Router, uri: &str) -> (StatusCode, String, String, String) {
    let res = router
        .clone()
        .oneshot(Request::builder().uri(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let header = |name: &str| {
        res.headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    };
    let (mime, csp) = (header("content-type"), header("content-security-policy"));
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        mime,
        csp,
        String::from_utf8_lossy(&body).into_owned(),
    )
}

#[tokio::test]
async fn every_page_is_a_shell_that_loads_its_module() {
    let r = router(Limits::default());
    for (uri, script) in [
        ("/", "lobby"),
        ("/m/0123abcd", "table"),
        ("/replay/0123abcd", "replay"),
        ("/rules/goofspiel", "rules"),
    ] {
        let (status, mime, csp, body) = get(&r, uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(mime.starts_with("text/html"), "{uri}: {mime}");
        assert!(csp.contains("default-src 'self'"), "{uri}: {csp}");
        assert!(
            body.contains(&format!(
                "/assets/v/{}/{script}.js",
                colosseum_server::pages::VERSION.as_str()
            )),
            "{uri}: {body}"
        );
        // The Rules link opens the first game's page (the registry's, not a name in the server).
        let first = colosseum_games::registry()[0].id;
        assert!(
            body.contains(&format!("<a href=\"/rules/{first}\">Rules</a>")),
            "{uri}: {body}"
        );
    }
}

#[tokio::test]
async fn assets_are_embedded_with_their_types() {
    let r = router(Limits::default());
    for (name, mime) in [
        ("table.js", "text/javascript"),
        ("boards.js", "text/javascript"),
        ("common.js", "text/javascript"),
        ("lobby.js", "text/javascript"),
        ("replay.js", "text/javascript"),
        ("rules.js", "text/javascript"),
        ("movelog.js", "text/javascript"),
        ("chat.js", "text/javascript"),
        ("race.js", "text/javascript"),
        ("style.css", "text/css"),
        ("favicon.svg", "image/svg+xml"),
    ] {
        let (status, got, _, body) = get(&r, &format!("/assets/{name}")).await;
        assert_eq!(status, StatusCode::OK, "{name}");
        assert!(got.starts_with(mime), "{name}: {got}");
        assert!(!body.is_empty(), "{name}");
    }
    let (status, _, _, _) = get(&r, "/assets/..%2Fsrc%2Flib.rs").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _, _) = get(&r, "/assets/nothing.js").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn unknown_paths_are_json_under_api_and_a_page_elsewhere() {
    let r = router(Limits::default());
    let (status, mime, _, body) = get(&r, "/api/no/such/thing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(mime.starts_with("application/json"), "{mime}");
    assert!(body.contains("\"not_found\""), "{body}");
    let (status, mime, _, body) = get(&r, "/no/such/page").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(mime.starts_with("text/html"), "{mime}");
    assert!(body.contains("Not found"), "{body}");
}

#[tokio::test]
async fn pages_are_outside_the_api_rate_limit() {
    let r = router(Limits {
        http_per_second: 0.001,
        http_burst: 1.0,
        ..Limits::default()
    });
    for _ in 0..20 {
        assert_eq!(get(&r, "/assets/table.js").await.0, StatusCode::OK);
        assert_eq!(get(&r, "/m/abc").await.0, StatusCode::OK);
    }
    assert_eq!(get(&r, "/api/games").await.0, StatusCode::OK);
    assert_eq!(get(&r, "/api/games").await.0, StatusCode::TOO_MANY_REQUESTS);
}

/// Each game's browser code is served from its registry entry at `/assets/games/ID.js` and
/// `ID.css`, with its type and the other assets' headers; anything else there is not found.
#[tokio::test]
async fn each_games_browser_code_is_served_from_its_entry() {
    let r = router(Limits::default());
    for g in colosseum_games::registry() {
        for (file, mime, want) in [
            (format!("{}.js", g.id), "text/javascript", g.browser.module),
            (format!("{}.css", g.id), "text/css", g.browser.style),
        ] {
            let uri = format!("/assets/games/{file}");
            let res = r
                .clone()
                .oneshot(Request::builder().uri(&uri).body(Body::empty()).unwrap())
                .await
                .unwrap();
            assert_eq!(res.status(), StatusCode::OK, "{uri}");
            let header = |name: &str| {
                res.headers()
                    .get(name)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .to_string()
            };
            assert!(header("content-type").starts_with(mime), "{uri}");
            assert_eq!(header("cache-control"), "no-cache", "{uri}");
            assert_eq!(header("x-content-type-options"), "nosniff", "{uri}");
            let body = res.into_body().collect().await.unwrap().to_bytes();
            assert_eq!(body, want.as_bytes(), "{uri} is the entry's code");
            assert!(
                !want.is_empty(),
                "{uri}: every registered game has browser code"
            );
        }
        // A game's module draws its board: the shared code calls its render.
        assert!(
            g.browser.module.contains("export function render("),
            "{}",
            g.id
        );
    }
    for uri in [
        "/assets/games/nothing.js",
        "/assets/games/style.css",
        "/assets/games/..%2Fstyle.css",
        "/assets/games/goofspiel.txt",
    ] {
        assert_eq!(get(&r, uri).await.0, StatusCode::NOT_FOUND, "{uri}");
    }
}

//! The browser table: HTML pages and their assets, served by `colosseum serve` itself.
//!
//! Every page is a small HTML shell that loads one ES module from `/assets/`; the modules talk
//! to the JSON API and the WebSocket like any other client, so a page shows nothing the caller's
//! view does not hold. The assets are compiled into the binary (`include_str!`): no build tool,
//! no files to deploy. For work on the pages, `COLOSSEUM_ASSETS=DIR` serves them from `DIR`
//! instead (read on every request), so an edit shows on reload without rebuilding.
//!
//! * `/`: the lobby (create a match, copy the links, list matches).
//! * `/m/{id}`: the table, as a seat when the link's fragment holds `#seat=TOKEN`, else as a
//!   spectator. The token stays in the fragment, so it never reaches a server log.
//! * `/replay/{id}`: a finished match, step by step.
//! * `/rules/{game}`: a game's rules page.
//! * `/assets/games/{id}.js` and `/assets/games/{id}.css`: a game's own browser code, from its
//!   registry entry ([`colosseum_games::GameEntry::browser`]); the shared assets load the
//!   match's game's module by `import()` and name no game. `COLOSSEUM_GAME_ASSETS=DIR` serves
//!   them from `DIR` while editing, as `COLOSSEUM_ASSETS` does the others.
//! * `/t` and `/t/{id}`: tournaments (`tournaments.js`): the list and the create form; a
//!   tournament's rounds, standings and bracket, with the host's controls for `#admin=TOKEN`, a
//!   player's own page for `#player=TOKEN` and registration for `#register=TOKEN`.
//! * `/s` and `/s/{id}`: seasons (`seasons.js`): the list and the create form; a season's
//!   roster, ratings per game, tournaments and rated matches, with the host's forms for
//!   `#admin=TOKEN` and a player's rated matches for `#player=TOKEN`.
//!
//! Caching: every page and asset carries a strong `ETag` (the SHA-256 of its bytes, computed
//! once) and `Cache-Control: no-cache`, so a browser keeps its copy and revalidates it on each
//! use: an unchanged file is answered `304 Not Modified` without its body, and a new server
//! version is seen at once (the URLs carry no version, so nothing is cached without asking).
//! These routes are outside the API's per-address request rate (`crate::api::app`), so a full
//! page load, or ten of them from one address, never meets a 429 from it.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::error::ApiError;

/// One embedded asset.
struct Asset {
    name: &'static str,
    mime: &'static str,
    body: &'static str,
}

macro_rules! asset {
    ($name:literal, $mime:literal) => {
        Asset {
            name: $name,
            mime: $mime,
            body: include_str!(concat!("../assets/", $name)),
        }
    };
}

/// Every asset the pages load.
const ASSETS: &[Asset] = &[
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("common.js", "text/javascript; charset=utf-8"),
    asset!("boards.js", "text/javascript; charset=utf-8"),
    asset!("present.js", "text/javascript; charset=utf-8"),
    asset!("lobby.js", "text/javascript; charset=utf-8"),
    asset!("table.js", "text/javascript; charset=utf-8"),
    asset!("replay.js", "text/javascript; charset=utf-8"),
    asset!("rules.js", "text/javascript; charset=utf-8"),
    asset!("movelog.js", "text/javascript; charset=utf-8"),
    asset!("chat.js", "text/javascript; charset=utf-8"),
    asset!("race.js", "text/javascript; charset=utf-8"),
    asset!("tournaments.js", "text/javascript; charset=utf-8"),
    asset!("analysis.js", "text/javascript; charset=utf-8"),
    asset!("seasons.js", "text/javascript; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
];

/// The pages' routes; [`crate::api::app`] merges them beside the API.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route(
            "/",
            get(|h: HeaderMap| async move { shell(&h, "Colosseum", "lobby") }),
        )
        .route(
            "/m/{id}",
            get(|h: HeaderMap| async move { shell(&h, "Table · Colosseum", "table") }),
        )
        .route(
            "/replay/{id}",
            get(|h: HeaderMap| async move { shell(&h, "Replay · Colosseum", "replay") }),
        )
        .route(
            "/rules/{game}",
            get(|h: HeaderMap| async move { shell(&h, "Rules · Colosseum", "rules") }),
        )
        .route(
            "/t",
            get(|h: HeaderMap| async move { shell(&h, "Tournaments · Colosseum", "tournaments") }),
        )
        .route(
            "/t/{id}",
            get(|h: HeaderMap| async move { shell(&h, "Tournament · Colosseum", "tournaments") }),
        )
        .route(
            "/s",
            get(|h: HeaderMap| async move { shell(&h, "Seasons · Colosseum", "seasons") }),
        )
        .route(
            "/s/{id}",
            get(|h: HeaderMap| async move { shell(&h, "Season · Colosseum", "seasons") }),
        )
        .route("/assets/{file}", get(asset))
        .route("/assets/games/{file}", get(game_asset))
        .route(
            "/assets/v/{version}/{file}",
            get(
                |Path((v, file)): Path<(String, String)>, h: HeaderMap| async move {
                    lasting(&v, asset(Path(file), h).await)
                },
            ),
        )
        .route(
            "/assets/v/{version}/games/{file}",
            get(
                |Path((v, file)): Path<(String, String)>, h: HeaderMap| async move {
                    lasting(&v, game_asset(Path(file), h).await)
                },
            ),
        )
}

/// The version of the embedded assets as a whole: part of the SHA-256 of every asset's entity
/// tag. The pages load their modules from `/assets/v/{VERSION}/` (a module's relative imports,
/// the games' modules included, stay under it), so a new build's assets have new URLs and
/// these can be kept for a year.
pub static VERSION: LazyLock<String> = LazyLock::new(|| {
    let mut tags: Vec<(&String, &String)> = ETAGS.iter().collect();
    tags.sort();
    let all: String = tags.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    colosseum_engine::fair::sha256_hex(all.as_bytes())[..16].to_string()
});

/// An asset answered under `/assets/v/{version}/`: kept for a year and never revalidated when
/// `version` is this build's (and the assets are the embedded ones, not read from a folder
/// while editing); otherwise as under `/assets/` (`no-cache`), so a page of an older build
/// still loads.
fn lasting(version: &str, mut res: Response) -> Response {
    let editing = std::env::var_os("COLOSSEUM_ASSETS").is_some()
        || std::env::var_os("COLOSSEUM_GAME_ASSETS").is_some();
    if version == VERSION.as_str() && !editing && res.status().is_success() {
        res.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
    }
    res
}

/// A strong entity tag for `body`: part of its SHA-256, quoted.
fn etag_of(body: &str) -> String {
    format!(
        "\"{}\"",
        &colosseum_engine::fair::sha256_hex(body.as_bytes())[..32]
    )
}

/// The entity tags of the embedded assets and of each game's module and stylesheet, computed
/// once (by name: `lobby.js`, `games/ID.js`, `games/ID.css`).
static ETAGS: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    let mut tags: HashMap<String, String> = ASSETS
        .iter()
        .map(|a| (a.name.to_string(), etag_of(a.body)))
        .collect();
    for g in colosseum_games::registry() {
        tags.insert(format!("games/{}.js", g.id), etag_of(g.browser.module));
        tags.insert(format!("games/{}.css", g.id), etag_of(g.browser.style));
    }
    tags
});

/// Whether `If-None-Match` in `headers` names `etag` (or is `*`); weak tags compare by their
/// value, as RFC 9110 says for this header.
fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == etag)
}

/// `body` as `mime` with its `etag`, or `304 Not Modified` when the client holds it already.
fn cached(headers: &HeaderMap, mime: &'static str, body: String, etag: &str) -> Response {
    let mut res = if not_modified(headers, etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, mime)], body).into_response()
    };
    secure_headers(&mut res);
    if let Ok(v) = HeaderValue::from_str(etag) {
        res.headers_mut().insert(header::ETAG, v);
    }
    res
}

/// Unknown paths: a JSON error under `/api`, a plain page elsewhere.
pub async fn fallback(uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return ApiError::not_found("no such page or endpoint; the API is under /api")
            .into_response();
    }
    let mut res = html(not_found_page());
    *res.status_mut() = StatusCode::NOT_FOUND;
    res
}

fn not_found_page() -> String {
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
     <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
     <title>Not found · Colosseum</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
     <body><header class=\"top\"><a class=\"brand\" href=\"/\">Colosseum</a></header>\
     <main><h1>Not found</h1><p class=\"notice error\" role=\"alert\">There is no page here. \
     Check the link, or go to <a href=\"/\">the lobby</a>.</p></main></body></html>"
        .to_string()
}

/// A page: the shell that loads `/assets/{script}.js` (with its entity tag, computed once per
/// page).
fn shell(headers: &HeaderMap, title: &'static str, script: &'static str) -> Response {
    static SHELLS: LazyLock<std::sync::Mutex<HashMap<&'static str, (String, String)>>> =
        LazyLock::new(Default::default);
    let (body, etag) = SHELLS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .entry(title)
        .or_insert_with(|| {
            let body = shell_html(title, script);
            let etag = etag_of(&body);
            (body, etag)
        })
        .clone();
    cached(headers, "text/html; charset=utf-8", body, &etag)
}

/// A page's HTML. Its Rules link opens the first game's page (each rules page links to the
/// others).
fn shell_html(title: &str, script: &str) -> String {
    let first = colosseum_games::registry()[0].id;
    let v = VERSION.as_str();
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title>\
         <link rel=\"icon\" href=\"/assets/v/{v}/favicon.svg\" type=\"image/svg+xml\">\
         <link rel=\"stylesheet\" href=\"/assets/v/{v}/style.css\">\
         <script type=\"module\" src=\"/assets/v/{v}/{script}.js\"></script></head>\
         <body data-page=\"{script}\"><header class=\"top\"><a class=\"brand\" href=\"/\">Colosseum</a>\
         <nav><a href=\"/\">Lobby</a> <a href=\"/t\">Tournaments</a> <a href=\"/rules/{first}\">Rules</a></nav></header>\
         <main id=\"app\"><p>Loading…</p>\
         <noscript><p class=\"notice error\">This page needs JavaScript.</p></noscript></main>\
         </body></html>\n"
    )
}

fn html(body: String) -> Response {
    let mut res = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response();
    secure_headers(&mut res);
    res
}

fn secure_headers(res: &mut Response) {
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; connect-src 'self'; \
             frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        ),
    );
    // Seat tokens live in the fragment, which is never sent; no referrer leaks the path either.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
}

async fn asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    let Some(a) = ASSETS.iter().find(|a| a.name == file) else {
        return fallback(Uri::from_static("/assets")).await;
    };
    match std::env::var_os("COLOSSEUM_ASSETS") {
        Some(dir) => {
            let body = std::fs::read_to_string(std::path::Path::new(&dir).join(a.name))
                .unwrap_or_else(|_| a.body.to_string());
            let etag = etag_of(&body);
            cached(&headers, a.mime, body, &etag)
        }
        None => cached(&headers, a.mime, a.body.to_string(), &ETAGS[a.name]),
    }
}

/// A game's browser module (`ID.js`) or stylesheet (`ID.css`), from the registry: every game in
/// it has both (empty for a game without browser code), any other file is not found.
async fn game_asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    let found = colosseum_games::registry().iter().find_map(|g| {
        if file.strip_suffix(".js") == Some(g.id) {
            Some(("text/javascript; charset=utf-8", g.browser.module))
        } else if file.strip_suffix(".css") == Some(g.id) {
            Some(("text/css; charset=utf-8", g.browser.style))
        } else {
            None
        }
    });
    let Some((mime, body)) = found else {
        return fallback(Uri::from_static("/assets/games")).await;
    };
    // While editing: `COLOSSEUM_GAME_ASSETS=crates/games/assets` reads the file on each request.
    match std::env::var_os("COLOSSEUM_GAME_ASSETS") {
        Some(dir) => {
            let body = std::fs::read_to_string(std::path::Path::new(&dir).join(&file))
                .unwrap_or_else(|_| body.to_string());
            let etag = etag_of(&body);
            cached(&headers, mime, body, &etag)
        }
        None => cached(
            &headers,
            mime,
            body.to_string(),
            &ETAGS[format!("games/{file}").as_str()],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{not_modified, ASSETS, ETAGS};
    use axum::http::{header, HeaderMap, HeaderValue};

    #[test]
    fn every_file_has_a_strong_tag_of_its_bytes_and_if_none_match_is_read_as_rfc_9110_says() {
        let tag = &ETAGS["lobby.js"];
        assert!(
            tag.starts_with('"') && tag.ends_with('"') && tag.len() == 34,
            "{tag}"
        );
        assert_ne!(ETAGS["lobby.js"], ETAGS["common.js"]);
        assert!(ETAGS
            .keys()
            .any(|k| k.starts_with("games/") && k.ends_with(".css")));
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(v).unwrap());
            h
        };
        assert!(not_modified(&with(tag), tag));
        assert!(not_modified(&with(&format!("\"x\", W/{tag}")), tag));
        assert!(not_modified(&with("*"), tag));
        assert!(!not_modified(&with("\"x\""), tag));
        assert!(!not_modified(&HeaderMap::new(), tag));
    }

    #[tokio::test]
    async fn the_pages_load_this_builds_assets_under_its_version_kept_for_a_year() {
        use axum::body::Body;
        use axum::http::Request;
        use tower::ServiceExt;
        let app = super::router::<()>();
        let get = |uri: String| {
            let app = app.clone();
            async move {
                app.oneshot(Request::get(uri).body(Body::empty()).unwrap())
                    .await
                    .unwrap()
            }
        };
        let page = get("/".to_string()).await;
        assert_eq!(page.headers()[header::CACHE_CONTROL], "no-cache");
        let html = String::from_utf8(
            axum::body::to_bytes(page.into_body(), 1 << 20)
                .await
                .unwrap()
                .to_vec(),
        )
        .unwrap();
        let v = super::VERSION.as_str();
        assert!(html.contains(&format!("/assets/v/{v}/lobby.js")), "{html}");
        assert!(html.contains(&format!("/assets/v/{v}/style.css")), "{html}");
        for path in ["lobby.js", "style.css", "games/goofspiel.js"] {
            let kept = get(format!("/assets/v/{v}/{path}")).await;
            assert_eq!(kept.status(), 200, "{path}");
            assert_eq!(
                kept.headers()[header::CACHE_CONTROL],
                "public, max-age=31536000, immutable",
                "{path}"
            );
            assert!(kept.headers().contains_key(header::ETAG), "{path}");
            // An older build's version: served, but revalidated.
            let old = get(format!("/assets/v/0000000000000000/{path}")).await;
            assert_eq!(old.status(), 200, "{path}");
            assert_eq!(old.headers()[header::CACHE_CONTROL], "no-cache", "{path}");
        }
        let missing = get(format!("/assets/v/{v}/nothing.js")).await;
        assert_eq!(missing.status(), 404);
        assert_ne!(
            missing
                .headers()
                .get(header::CACHE_CONTROL)
                .map(|h| h.to_str().unwrap()),
            Some("public, max-age=31536000, immutable")
        );
    }

    #[test]
    fn every_module_imported_is_served() {
        for a in ASSETS.iter().filter(|a| a.name.ends_with(".js")) {
            for line in a.body.lines().filter(|l| l.starts_with("import ")) {
                let Some(start) = line.find("'./") else {
                    continue;
                };
                let rest = &line[start + 3..];
                let name = &rest[..rest.find('\'').unwrap_or(rest.len())];
                assert!(
                    ASSETS.iter().any(|b| b.name == name),
                    "{} imports {name}, which is not embedded",
                    a.name
                );
            }
        }
    }
}

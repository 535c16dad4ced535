//! The browser pages' files are cached and kept apart from the API's limits: through the real
//! server (`serve_on`: the router, its rate limit and the per-address connection cap) on
//! loopback, ten visitors behind one address load the lobby at once, each as a browser does
//! (six connections, every file the page references, the lobby's own API requests), and none
//! meets a 429; loading again with the entity tags they got is answered 304 without a body;
//! and the API's per-address limit still applies to `/api/...`.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper::{Request, StatusCode};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;
use tokio::sync::Semaphore;

type Http = Client<HttpConnector, Empty<Bytes>>;

/// One visitor: a browser's six connections to the server.
struct Visitor {
    client: Http,
    connections: Arc<Semaphore>,
    base: String,
}

/// What one GET answered.
struct Got {
    status: StatusCode,
    etag: Option<String>,
    cache: Option<String>,
    body: String,
}

impl Visitor {
    fn new(base: &str) -> Self {
        Visitor {
            client: Client::builder(TokioExecutor::new())
                .pool_max_idle_per_host(6)
                .build_http(),
            connections: Arc::new(Semaphore::new(6)),
            base: base.to_string(),
        }
    }

    async fn get(&self, path: &str, etag: Option<&str>) -> Got {
        let _connection = self.connections.acquire().await.unwrap();
        let mut tries = 0;
        let res = loop {
            let mut req = Request::get(format!("{}{path}", self.base));
            if let Some(tag) = etag {
                req = req.header("if-none-match", tag);
            }
            match self.client.request(req.body(Empty::new()).unwrap()).await {
                Ok(res) => break res,
                // A kept-alive connection the server closed as the request went out: a browser
                // sends a GET again on another connection (RFC 9112, 9.3.1).
                Err(e) if format!("{e:?}").contains("IncompleteMessage") && tries < 3 => {
                    tries += 1;
                }
                // The old server answered a connection over its per-address cap with a 429
                // before reading any request, which a client reads as a message it did not
                // expect.
                Err(e) => {
                    return Got {
                        status: StatusCode::TOO_MANY_REQUESTS,
                        etag: None,
                        cache: None,
                        body: format!("{e:?}"),
                    }
                }
            }
        };
        let status = res.status();
        let header = |name: &str| {
            res.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let (etag, cache) = (header("etag"), header("cache-control"));
        let body = res.into_body().collect().await.unwrap().to_bytes();
        Got {
            status,
            etag,
            cache,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    }

    /// Loads the lobby as a browser does, `etags` sent back as `If-None-Match` where known:
    /// the page, the files it references (modules through their imports, each game's module
    /// and stylesheet), and the lobby's API requests. Every path with its answer's status
    /// and entity tag.
    async fn load_lobby(
        self: &Arc<Self>,
        etags: &HashMap<String, String>,
    ) -> Vec<(String, StatusCode, Option<String>)> {
        let mut seen = Vec::new();
        let page = self.get("/", etags.get("/").map(String::as_str)).await;
        seen.push(("/".to_string(), page.status, page.etag.clone()));
        // On a 304 the page is the one already held: its references are the same.
        let html = if page.status == StatusCode::OK {
            page.body
        } else {
            self.get("/", None).await.body
        };
        let mut wave: BTreeSet<String> = references(&html, "/");
        let mut done = BTreeSet::new();
        let mut games_listed = false;
        while !wave.is_empty() {
            let mut tasks = Vec::new();
            for path in std::mem::take(&mut wave) {
                if !done.insert(path.clone()) {
                    continue;
                }
                let me = self.clone();
                let tag = etags.get(&path).cloned();
                tasks.push(tokio::spawn(async move {
                    let got = me.get(&path, tag.as_deref()).await;
                    // A module's imports are read from its body (fetched anew on a 304).
                    let body = if got.status == StatusCode::NOT_MODIFIED && path.ends_with(".js") {
                        me.get(&path, None).await.body
                    } else {
                        got.body.clone()
                    };
                    (path, got, body)
                }));
            }
            if !games_listed {
                // The lobby asks for the games and the waiting matches, then loads each game's
                // browser code.
                games_listed = true;
                let me = self.clone();
                tasks.push(tokio::spawn(async move {
                    let got = me.get("/api/games", None).await;
                    let body = got.body.clone();
                    ("/api/games".to_string(), got, body)
                }));
                let me = self.clone();
                tasks.push(tokio::spawn(async move {
                    let got = me.get("/api/matches", None).await;
                    let body = got.body.clone();
                    ("/api/matches".to_string(), got, body)
                }));
            }
            for task in tasks {
                let (path, got, body) = task.await.unwrap();
                seen.push((path.clone(), got.status, got.etag.clone()));
                if path == "/api/games" && got.status == StatusCode::OK {
                    let games: Value = serde_json::from_str(&body).unwrap();
                    for g in games["games"].as_array().unwrap() {
                        let id = g["id"].as_str().unwrap();
                        wave.insert(format!("/assets/games/{id}.js"));
                        wave.insert(format!("/assets/games/{id}.css"));
                    }
                } else if path.ends_with(".js") {
                    wave.extend(references(&body, &path));
                }
                if !path.starts_with("/api/") && got.status == StatusCode::OK {
                    assert!(got.etag.is_some(), "{path} has no ETag");
                    // This build's versioned files are kept for a year; the page and the
                    // files under unversioned paths are revalidated.
                    let kept = path.starts_with(&format!(
                        "/assets/v/{}/",
                        colosseum_server::pages::VERSION.as_str()
                    ));
                    let want = if kept {
                        "public, max-age=31536000, immutable"
                    } else {
                        "no-cache"
                    };
                    assert_eq!(got.cache.as_deref(), Some(want), "{path}");
                }
            }
        }
        seen
    }
}

/// The files `text` (an HTML page or an ES module at `from`) references: `href`/`src`
/// attributes and static `import ... from './X'` lines.
fn references(text: &str, from: &str) -> BTreeSet<String> {
    let dir = &from[..=from.rfind('/').unwrap()];
    let mut out = BTreeSet::new();
    for attr in ["href=\"", "src=\""] {
        for piece in text.split(attr).skip(1) {
            let target = &piece[..piece.find('"').unwrap()];
            if target.starts_with("/assets/") {
                out.insert(target.to_string());
            }
        }
    }
    for line in text.lines().filter(|l| l.starts_with("import ")) {
        if let Some(start) = line.find("'./") {
            let rest = &line[start + 3..];
            out.insert(format!("{dir}{}", &rest[..rest.find('\'').unwrap()]));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_lobby_loads_from_one_address_meet_no_429_and_revalidate_with_304() {
    // The default limits (20 requests a second with a burst of 60, 32 connections per
    // address), but for the API's sustained rate: slow enough that the last check below does
    // not depend on how fast this machine is.
    let limits = colosseum_server::Limits {
        http_per_second: 1.0,
        ..colosseum_server::Limits::default()
    };
    let s = common::server_with(limits);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(colosseum_server::serve_on(
        listener,
        s.state.clone(),
        async {
            let _ = stopped.await;
        },
    ));

    // Ten visitors at once, all from 127.0.0.1.
    let visitors: Vec<Arc<Visitor>> = (0..10).map(|_| Arc::new(Visitor::new(&base))).collect();
    let loads = futures_util::future::join_all(visitors.iter().map(|v| {
        let v = v.clone();
        async move { v.load_lobby(&HashMap::new()).await }
    }))
    .await;
    let mut etags = HashMap::new();
    for load in &loads {
        let refused: Vec<_> = load
            .iter()
            .filter(|(_, s, _)| *s != StatusCode::OK)
            .collect();
        assert!(refused.is_empty(), "not all answered 200: {refused:?}");
        // The page, its style and icon, the lobby's modules, each game's two files.
        assert!(load.len() >= 12, "{load:?}");
        for (path, _, tag) in load {
            if let Some(tag) = tag {
                etags.insert(path.clone(), tag.clone());
            }
        }
    }
    assert!(etags.contains_key("/"));
    // The page loads this build's modules under its version (`/assets/v/VERSION/`).
    let lobby_js = format!(
        "/assets/v/{}/lobby.js",
        colosseum_server::pages::VERSION.as_str()
    );
    assert!(etags.contains_key(&lobby_js), "{etags:?}");

    // Again, all at once, with the tags: every page file is 304 (no body), nothing is 429.
    let again = futures_util::future::join_all(visitors.iter().map(|v| {
        let (v, etags) = (v.clone(), etags.clone());
        async move { v.load_lobby(&etags).await }
    }))
    .await;
    for load in &again {
        for (path, status, tag) in load {
            if path.starts_with("/api/") {
                assert_ne!(*status, StatusCode::TOO_MANY_REQUESTS, "{path}");
            } else {
                assert_eq!(*status, StatusCode::NOT_MODIFIED, "{path}");
                assert_eq!(tag.as_ref(), etags.get(path), "{path}: the same tag");
            }
        }
    }
    let v = &visitors[0];
    let changed = v.get("/assets/lobby.js", Some("\"an-old-version\"")).await;
    assert_eq!(changed.status, StatusCode::OK);
    assert!(changed.body.contains("import "));

    // The API's limit still holds for `/api/...` from that address (its burst is 60).
    let mut limited = 0;
    for _ in 0..80 {
        if v.get("/api/games", None).await.status == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
        }
    }
    assert!(limited > 0, "the API's per-address limit no longer applies");
    // And still not to the page files.
    for _ in 0..80 {
        assert_eq!(
            v.get("/assets/common.js", None).await.status,
            StatusCode::OK
        );
    }

    let _ = stop.send(());
    server.await.unwrap().unwrap();
}

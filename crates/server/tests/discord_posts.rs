//! The public game room through the webhooks' delivery (issue 38): a Discord channel of the
//! server's application as a webhook target (`colosseum_server::discord::post::channel_hook`),
//! against the local stand-in for Discord's API (`common::discord`) answering at Discord's pace
//! (`X-RateLimit-Remaining: 0` with `X-RateLimit-Reset-After`, some 429s with `retry_after`):
//! a tournament's results and standings all delivered, in order, naming tournament, round and
//! board; an overflowing queue shedding reveals only, counted in `/metrics`; the board picture
//! as multipart; posts queued while Discord refuses kept in the outbox across a restart; and
//! no API client may make a channel target.

mod common;

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{Method, StatusCode};
use colosseum_server::discord::post::channel_hook;
use colosseum_server::webhooks::{Post, WebhookConfig};
use colosseum_server::{AppState, Hub, Limits, ManualClock, SqliteStore};
use common::discord::*;
use common::{open_limits, Server};
use serde_json::{json, Value};

const ADMIN: &str = "discord-posts-admin-token";

/// Fast retries for tests; the Discord application at `base`.
fn limits(app: &App, base: &str, queue: usize) -> Limits {
    Limits {
        discord: Some(app.config(base)),
        webhook_queue: queue,
        webhook_backoff_ms: 20,
        webhook_attempts: 3,
        webhook_timeout_ms: 2_000,
        ..open_limits()
    }
}

/// A server over `store` with `limits` and the admin token [`ADMIN`], without timer tasks.
fn server_on(store: SqliteStore, limits: Limits) -> Server {
    let clock = Arc::new(ManualClock::at(common::T0));
    let hub = Hub::with_limits(store, clock.clone(), false, limits);
    let state = AppState::with_admin(hub.clone(), limits, Some(ADMIN.to_string()));
    Server {
        router: colosseum_server::app(state.clone()),
        state,
        hub,
        clock,
    }
}

/// Waits (real time) until `done` holds for the channel posts the stand-in took.
async fn wait_posts(calls: &Arc<Mutex<Vec<Call>>>, done: impl Fn(&[Call]) -> bool) -> Vec<Call> {
    for _ in 0..4_800 {
        let got = channel_posts(calls);
        if done(&got) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let texts: Vec<String> = channel_posts(calls)
        .iter()
        .map(|c| content(c).to_string())
        .collect();
    panic!("the posts did not arrive: {texts:#?}");
}

fn channel_posts(calls: &Arc<Mutex<Vec<Call>>>) -> Vec<Call> {
    calls
        .lock()
        .unwrap()
        .iter()
        .filter(|c| c.path.contains("/channels/"))
        .cloned()
        .collect()
}

fn is_result(text: &str) -> bool {
    text.lines()
        .nth(1)
        .is_some_and(|l| l.contains(" wins: ") || l.starts_with("A draw"))
}

/// Every channel post is Discord's "Create Message": POST to the channel with the bot token,
/// JSON (or multipart with `payload_json`) with `content`, no pings, and `components`.
fn check_shape(c: &Call, channel: &str) {
    assert_eq!(c.method, Method::POST);
    assert_eq!(c.path, format!("/api/v10/channels/{channel}/messages"));
    assert_eq!(c.authorization.as_deref(), Some("Bot bot-token-xyz"));
    let ct = c.content_type.as_deref().unwrap_or_default();
    assert!(
        ct == "application/json" || ct.starts_with("multipart/form-data; boundary="),
        "{ct}"
    );
    assert!(c.body["content"].is_string(), "{:?}", c.body);
    assert_eq!(c.body["allowed_mentions"]["parse"], json!([]));
    assert!(c.body["components"].is_array(), "{:?}", c.body);
}

/// A round robin of four bots announced in channel 7 at Discord's pace (each post empties the
/// bucket for 20 ms, every fifth is answered 429 with `retry_after`, a queue of 6): every
/// result and standings post arrives, once, in order, each naming the tournament, its round and
/// (a result) its board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_in_a_channel_at_discords_pace_delivers_every_result_and_standing() {
    let app = App::new();
    let pace = Arc::new(Pace {
        limit_every: 5,
        retry_after: 0.03,
        reset_after: Some(0.02),
        ..Pace::default()
    });
    let (base, calls) = stand_in_paced(pace.clone()).await;
    let config = app.config(&base);
    let s = server_on(
        SqliteStore::in_memory().unwrap(),
        Limits {
            discord: Some(config),
            ..limits(&app, &base, 6)
        },
    );
    let players: Vec<Value> = ["Ann", "Bob", "Cat", "Dan"]
        .iter()
        .map(|n| json!({"name": n, "bot": "random"}))
        .collect();
    let mut req: colosseum_server::tournaments::CreateTournament = serde_json::from_value(json!({
        "name": "Cup",
        "game": "goofspiel",
        "options": {"cards": "13"},
        "format": {"kind": "round_robin"},
        "players": players,
        "start": false,
    }))
    .unwrap();
    // As `/colosseum tournament` announces a tournament in its channel.
    req.webhook = Some(channel_hook(config, "7"));
    let created = s.state.tournaments.create(req, None).await.unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let (status, v) = s
        .call(
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&admin),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let posts = wait_posts(&calls, |p| {
        p.iter().any(|c| content(c).contains("final standings"))
    })
    .await;
    for c in &posts {
        check_shape(c, "7");
    }
    let texts: Vec<String> = posts.iter().map(|c| content(c).to_string()).collect();
    // Six games' results, each once, each naming the tournament, its round and board.
    let results: Vec<&String> = texts.iter().filter(|t| is_result(t)).collect();
    assert_eq!(results.len(), 6, "{texts:#?}");
    let mut boards: Vec<(usize, usize)> = Vec::new();
    for r in &results {
        let title = r.lines().next().unwrap();
        let rest = title
            .strip_prefix("**Cup, round ")
            .unwrap_or_else(|| panic!("{title}"));
        let round: usize = rest[..1].parse().unwrap();
        let board: usize = rest
            .split("board ")
            .nth(1)
            .and_then(|b| b.split(' ').next())
            .and_then(|b| b.parse().ok())
            .unwrap_or_else(|| panic!("{title}"));
        assert!(!boards.contains(&(round, board)), "twice: {texts:#?}");
        boards.push((round, board));
    }
    boards.sort_unstable();
    assert_eq!(boards, [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)]);
    // Each round's standings after that round's results, in order, each once.
    let mut last = 0;
    for r in 1..=3 {
        let at: Vec<usize> = texts
            .iter()
            .enumerate()
            .filter(|(_, t)| t.contains(&format!("Cup: standings after round {r}")))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(at.len(), 1, "round {r}: {texts:#?}");
        assert!(at[0] >= last, "in order: {texts:#?}");
        last = at[0];
        let results_before = texts[..at[0]].iter().filter(|t| is_result(t)).count();
        assert!(results_before >= 2 * r, "{texts:#?}");
    }
    assert!(texts.last().unwrap().contains("final standings"));
    // Discord's pace was asked for and waited out; nothing was dropped for it.
    assert!(pace.limited.load(Ordering::SeqCst) > 0);
    let stats = s.hub.webhooks().stats(&channel_hook(config, "7"));
    assert!(stats["rate_limited"].as_u64().unwrap() > 0, "{stats}");
    assert_eq!(stats["dropped_after_retries"], 0, "{stats}");
    assert_eq!(stats["dropped_queue_full"], 0, "{stats}");
    // Bots' boards invite nobody to move.
    assert!(
        posts.iter().all(|c| c.body["components"] == json!([])),
        "no button on a bot board"
    );
}

/// The overflow on a channel: 155 posts queued in about half a second (a round's
/// pairings, starts, 144 reveals with a host's pause among them, four results, standings), the
/// channel answering slowly: every result, standings and host-action post arrives, in order;
/// reveals are shed first and counted in `/metrics`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_overflowing_channel_sheds_reveals_and_delivers_every_result_in_order() {
    let app = App::new();
    let pace = Arc::new(Pace {
        limit_every: 10,
        retry_after: 0.05,
        reset_after: Some(0.02),
        ..Pace::default()
    });
    let (base, calls) = stand_in_paced(pace.clone()).await;
    let config = app.config(&base);
    let s = server_on(
        SqliteStore::in_memory().unwrap(),
        Limits {
            discord: Some(config),
            ..limits(&app, &base, 16)
        },
    );
    let hook = channel_hook(config, "7");
    let mut kinds: Vec<&'static str> = vec!["pairings"];
    kinds.extend(["start"; 4]);
    for i in 0..144 {
        kinds.push("reveal");
        if i == 70 {
            kinds.push("host");
        }
    }
    kinds.extend(["result"; 4]);
    kinds.push("standings");
    assert_eq!(kinds.len(), 155);
    for (i, kind) in kinds.iter().enumerate() {
        s.hub.webhooks().post(
            &hook,
            Post {
                kind,
                title: format!("post {i} ({kind})"),
                lines: vec![format!("Cup, round 1, board {}", i % 4 + 1)],
                board: None,
            },
        );
        if i % 31 == 30 {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let kept = |kind: &str| ["host", "result", "standings"].contains(&kind);
    let posts = wait_posts(&calls, |p| {
        p.iter().any(|c| content(c).contains("(standings)"))
    })
    .await;
    let numbers: Vec<(usize, &str)> = posts
        .iter()
        .map(|c| {
            check_shape(c, "7");
            let t = content(c);
            let n: usize = t
                .strip_prefix("**post ")
                .and_then(|x| x.split(' ').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or_else(|| panic!("{t}"));
            (n, kinds[n])
        })
        .collect();
    assert!(numbers.windows(2).all(|w| w[0].0 < w[1].0), "{numbers:?}");
    for (n, kind) in kinds.iter().enumerate() {
        if kept(kind) {
            assert!(
                numbers.iter().any(|(m, _)| *m == n),
                "post {n} ({kind}) missing: {numbers:?}"
            );
        }
    }
    let reveals = numbers.iter().filter(|(_, k)| *k == "reveal").count();
    assert!(reveals < 144, "{numbers:?}");
    let stats = s.hub.webhooks().stats(&hook);
    let shed = stats["shed"].as_u64().unwrap();
    assert!(shed > 0, "{stats}");
    assert_eq!(shed + posts.len() as u64, 155, "{stats}");
    assert_eq!(stats["sent"].as_u64().unwrap(), posts.len() as u64);
    assert_eq!(stats["dropped_queue_full"], 0, "{stats}");
    assert!(pace.limited.load(Ordering::SeqCst) > 0);
    let metrics = s.hub.render_metrics();
    assert!(
        metrics.contains(&format!(
            "colosseum_webhook_posts_total{{outcome=\"shed\"}} {shed}"
        )),
        "{metrics}"
    );
}

/// A reveal in a Discord match's channel goes as Discord's multipart: `payload_json` whose
/// embed shows `attachment://board.png` and whose `attachments` name it, and `files[0]` the
/// PNG; the match goes on, so it carries the "Make your move" button.
#[cfg(feature = "board-pictures")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reveal_carries_the_board_as_multipart_with_payload_json() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    started(&s, &app).await;
    play(&s, &app, ANN, 0, None).await;
    play(&s, &app, BOB, 0, None).await;
    let posts = wait_posts(&calls, |p| {
        p.iter().any(|c| content(c).contains("Ann played"))
    })
    .await;
    let reveal = posts
        .iter()
        .find(|c| content(c).contains("Ann played"))
        .unwrap();
    check_shape(reveal, "7");
    assert!(reveal
        .content_type
        .as_deref()
        .unwrap()
        .starts_with("multipart/form-data; boundary="));
    let names: Vec<&str> = reveal.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["payload_json", "files[0]"]);
    let json = &reveal.parts[0];
    assert_eq!(json.content_type.as_deref(), Some("application/json"));
    let payload: Value = serde_json::from_slice(&json.bytes).unwrap();
    assert_eq!(
        payload["embeds"][0]["image"]["url"], "attachment://board.png",
        "{payload}"
    );
    assert_eq!(
        payload["attachments"],
        json!([{"id": 0, "filename": "board.png"}])
    );
    assert_eq!(
        payload["components"][0]["components"][0]["custom_id"], "move",
        "{payload}"
    );
    let png = &reveal.parts[1];
    assert_eq!(png.filename.as_deref(), Some("board.png"));
    assert_eq!(png.content_type.as_deref(), Some("image/png"));
    assert_eq!(&png.bytes[..8], b"\x89PNG\r\n\x1a\n");
    // The raw body is that multipart, whole.
    assert!(reveal.raw.len() > png.bytes.len());
}

/// Runs `f` on a runtime of its own, then drops the runtime: its tasks end as a process's do.
fn in_process<T>(f: impl std::future::Future<Output = T>) -> T {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let out = rt.block_on(f);
    rt.shutdown_timeout(Duration::from_millis(100));
    out
}

fn numbered(i: usize, kind: &'static str) -> Post {
    Post {
        kind,
        title: format!("post {i} ({kind})"),
        lines: vec!["Cup, round 1, board 1".into()],
        board: None,
    }
}

/// Posts queued while Discord answers 503 are kept in the outbox: the process stops, a new one
/// starts on the same database and outbox, and they arrive, in the order queued, each once;
/// the posts sent before the stop are not sent again.
#[test]
fn posts_queued_while_the_channel_refuses_arrive_after_a_restart_in_order_once() {
    // The stand-in outlives both processes.
    let discord = tokio::runtime::Runtime::new().unwrap();
    let pace = Arc::new(Pace::default());
    let (base, calls) = discord.block_on(stand_in_paced(pace.clone()));
    let app = App::new();
    let (dir, db) = common::temp_db("discord-outbox", "m.db");
    let outbox = dir.join("m.db.outbox");
    let kinds = [
        "result",
        "reveal",
        "host",
        "standings",
        "reveal",
        "result",
        "pairings",
        "result",
    ];
    let slow = |app: &App| Limits {
        // Retries far apart: the process stops before a post runs out of attempts.
        webhook_backoff_ms: 60_000,
        webhook_attempts: 5,
        ..limits(app, &base, 64)
    };
    in_process(async {
        let s = server_on(SqliteStore::open(&db).unwrap(), slow(&app));
        assert_eq!(s.hub.webhooks().keep_outbox(&outbox).unwrap(), 0);
        let hook = channel_hook(app.config(&base), "7");
        // Two posts delivered before the trouble.
        for i in 0..2 {
            s.hub.webhooks().post(&hook, numbered(i, "result"));
        }
        wait_posts(&calls, |p| p.len() == 2).await;
        // Discord goes down: the rest wait.
        pace.refuse.store(true, Ordering::SeqCst);
        for (i, kind) in kinds.iter().enumerate() {
            s.hub.webhooks().post(&hook, numbered(i + 2, kind));
        }
        for _ in 0..12_000 {
            if pace.refused.load(Ordering::SeqCst) > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(pace.refused.load(Ordering::SeqCst) > 0, "tried and refused");
        let stats = s.hub.webhooks().stats(&hook);
        assert_eq!(stats["sent"], 2, "{stats}");
    });
    assert_eq!(channel_posts(&calls).len(), 2);
    // Discord is back; a new process on the same database and outbox.
    pace.refuse.store(false, Ordering::SeqCst);
    in_process(async {
        let s = server_on(SqliteStore::open(&db).unwrap(), slow(&app));
        assert_eq!(
            s.hub.webhooks().keep_outbox(&outbox).unwrap(),
            kinds.len(),
            "the waiting posts are read back"
        );
        let posts = wait_posts(&calls, |p| p.len() >= 2 + kinds.len()).await;
        // A moment more: nothing arrives twice.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let posts_after = channel_posts(&calls);
        assert_eq!(posts_after.len(), posts.len());
        let titles: Vec<String> = posts_after
            .iter()
            .map(|c| {
                check_shape(c, "7");
                content(c).lines().next().unwrap().to_string()
            })
            .collect();
        let mut wanted = vec![
            "**post 0 (result)**".to_string(),
            "**post 1 (result)**".to_string(),
        ];
        for (i, kind) in kinds.iter().enumerate() {
            wanted.push(format!("**post {} ({kind})**", i + 2));
        }
        assert_eq!(titles, wanted);
    });
    // Everything sent: the outbox is empty, and a third start sends nothing.
    in_process(async {
        let s = server_on(SqliteStore::open(&db).unwrap(), slow(&app));
        assert_eq!(s.hub.webhooks().keep_outbox(&outbox).unwrap(), 0);
    });
    assert_eq!(channel_posts(&calls).len(), 2 + kinds.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A client of the HTTP API cannot make a Discord channel target: the admin giving a match
/// one, a tournament created with one, a tournament's webhook changed to one: each refused 400
/// saying who sets it; the marker of one made by the application is no JSON field.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_api_client_cannot_make_a_channel_target() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server_on(SqliteStore::in_memory().unwrap(), limits(&app, &base, 8));
    let channel = json!({"url": "7", "format": "discord_channel"});
    let (status, body) = s
        .call(
            "POST",
            "/api/matches",
            Some(ADMIN),
            Some(json!({
                "game": "goofspiel",
                "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
                "webhook": channel,
            })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let says = |body: &Value| {
        let m = body["error"]["message"].as_str().unwrap_or_default();
        assert!(
            m.contains("set only by this server's Discord application")
                && m.contains("`discord` or `slack`"),
            "{body}"
        );
    };
    says(&body);
    let (status, body) = s
        .call(
            "POST",
            "/api/tournaments",
            None,
            Some(json!({
                "name": "Cup", "game": "goofspiel", "format": {"kind": "round_robin"},
                "players": [{"name": "Ann", "bot": "random"}, {"name": "Bob", "bot": "random"}],
                "start": false, "webhook": channel,
            })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    says(&body);
    // The marker is not a field a client can send.
    let forged = json!({"url": "7", "format": "discord_channel", "issued": true});
    assert!(serde_json::from_value::<WebhookConfig>(forged.clone()).is_err());
    let (status, created) = s
        .call(
            "POST",
            "/api/tournaments",
            None,
            Some(json!({
                "name": "Cup", "game": "goofspiel", "format": {"kind": "round_robin"},
                "players": [{"name": "Ann", "bot": "random"}, {"name": "Bob", "bot": "random"}],
                "start": false,
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let admin = created["admin_token"].as_str().unwrap();
    for webhook in [channel, forged] {
        let (status, body) = s
            .call(
                "POST",
                &format!("/api/tournaments/{id}/webhook"),
                Some(admin),
                Some(json!({"webhook": webhook})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }
    // Nothing reached Discord.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(channel_posts(&calls).is_empty());
}

//! The lobby's list kept as matches change (issue 36, hole 7): its contents and order as
//! matches are created, joined, finished and expire, its pages, and after a restart. (Its cost
//! is measured in `benches/lobby.rs`; the memory of a waiting match in `lobby_memory.rs`.)

mod common;

use axum::http::StatusCode;
use colosseum_server::{Limits, SqliteStore};
use common::{
    client_seed, open_limits, seed_hash, server, server_on_store, server_with, temp_db, Server,
};
use serde_json::{json, Value};

/// A join's body for seat `i` (0 for p1) with `name` and the commitment to its client seed.
fn join(i: usize, name: &str) -> Value {
    json!({"name": name, "client_seed_hash": seed_hash(&client_seed(i))})
}

fn goofspiel() -> Value {
    json!({"game": "goofspiel", "options": {"cards": "3"}, "time": {"kind": "untimed"}})
}

/// Every listed id, page after page of `limit`, following `next`; and the first page's total.
async fn listed(s: &Server, limit: usize) -> (Vec<String>, u64) {
    let mut ids = Vec::new();
    let mut next = Some(format!("/api/matches?limit={limit}"));
    let mut total = None;
    while let Some(uri) = next {
        let (status, page) = s.call("GET", &uri, None, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        total.get_or_insert(page["total"].as_u64().unwrap());
        for m in page["matches"].as_array().unwrap() {
            ids.push(m["id"].as_str().unwrap().to_string());
        }
        next = page["next"].as_str().map(str::to_string);
    }
    (ids, total.unwrap())
}

async fn status_in_lobby(s: &Server, id: &str) -> Option<String> {
    let (_, page) = s.call("GET", "/api/matches?limit=200", None, None).await;
    page["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == id)
        .map(|m| m["status"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn the_lobby_follows_matches_created_joined_finished_and_expired() {
    let s = server_with(Limits {
        lobby_page_max: 200,
        ..open_limits()
    });
    // Five waiting matches a second apart, two of them at the same instant (then by id).
    let mut waiting = Vec::new();
    for i in 0..5 {
        let (id, tokens) = s.create(goofspiel()).await;
        waiting.push((id, tokens));
        if i != 2 {
            s.clock.advance(1_000);
        }
    }
    let mut newest_first: Vec<String> = waiting.iter().rev().map(|(id, _)| id.clone()).collect();
    // The third and fourth were made at the same instant: by id.
    if newest_first[1] > newest_first[2] {
        newest_first.swap(1, 2);
    }
    assert_eq!(listed(&s, 2).await, (newest_first.clone(), 5));
    assert_eq!(listed(&s, 200).await.0, newest_first);
    // A page at every offset is the list's slice.
    for offset in 0..6 {
        let (_, page) = s
            .call(
                "GET",
                &format!("/api/matches?offset={offset}&limit=2"),
                None,
                None,
            )
            .await;
        let ids: Vec<&str> = page["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_str().unwrap())
            .collect();
        let want: Vec<&str> = newest_first
            .iter()
            .skip(offset)
            .take(2)
            .map(String::as_str)
            .collect();
        assert_eq!(ids, want, "offset {offset}");
        assert_eq!(page["total"], 5);
    }

    // One seat of the oldest joins: still waiting, shown joined; then the other: live, in its
    // place (by creation).
    let (oldest, tokens) = waiting[0].clone();
    let (st, v) = s
        .post(
            &oldest,
            "join",
            tokens[0].as_deref().unwrap(),
            join(0, "Ann"),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (_, page) = s.call("GET", "/api/matches?limit=200", None, None).await;
    let entry = page["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == oldest.as_str())
        .unwrap()
        .clone();
    assert_eq!(entry["seats"]["p1"]["joined"], true, "{entry}");
    assert_eq!(entry["seats"]["p1"]["name"], "Ann", "{entry}");
    assert_eq!(entry["status"], "waiting");
    s.join_all(&oldest, &tokens).await;
    assert_eq!(status_in_lobby(&s, &oldest).await.as_deref(), Some("live"));
    assert_eq!(listed(&s, 3).await.0, newest_first);

    // Eleven minutes on: the waiting ones leave the list, the live one stays.
    s.clock.advance(11 * 60 * 1000);
    assert_eq!(listed(&s, 2).await, (vec![oldest.clone()], 1));
    // A new one is listed first; one that was unlisted comes back when both seats join.
    let (fresh, _) = s.create(goofspiel()).await;
    let (late, late_tokens) = waiting[4].clone();
    s.join_all(&late, &late_tokens).await;
    assert_eq!(
        listed(&s, 2).await,
        (vec![fresh.clone(), late.clone(), oldest.clone()], 3)
    );

    // A finished match leaves the open list for the finished one.
    let finished = s.play_out(&oldest, &tokens, 7).await;
    assert_eq!(finished["status"], "finished");
    let (_, page) = s.call("GET", "/api/matches", None, None).await;
    assert_eq!(page["finished"][0]["id"], oldest.as_str(), "{page}");
    assert_eq!(listed(&s, 2).await.0, [fresh.clone(), late.clone()]);

    // A day on, the waiting ones have expired: gone from the list and from memory (410).
    s.clock.advance(24 * 3600 * 1000);
    assert_eq!(listed(&s, 2).await, (vec![late.clone()], 1));
    for (id, _) in &waiting[1..4] {
        let (st, v) = s
            .call("GET", &format!("/api/matches/{id}"), None, None)
            .await;
        assert_eq!(st, StatusCode::GONE, "{v}");
    }
    let (st, v) = s
        .call("GET", &format!("/api/matches/{fresh}"), None, None)
        .await;
    assert_eq!(st, StatusCode::GONE, "{v}");
}

#[tokio::test]
async fn a_waiting_match_is_served_at_its_first_request_and_the_lobby_shows_it_once() {
    let s = server();
    let (id, tokens) = s.create(goofspiel()).await;
    // Viewed (its table made), then joined: one entry all along.
    let state = s.state(&id, None).await;
    assert_eq!(state["status"], "waiting");
    assert_eq!(listed(&s, 10).await, (vec![id.clone()], 1));
    s.join_all(&id, &tokens).await;
    assert_eq!(s.state(&id, None).await["status"], "live");
    assert_eq!(listed(&s, 10).await, (vec![id.clone()], 1));
    assert_eq!(status_in_lobby(&s, &id).await.as_deref(), Some("live"));
}

#[tokio::test]
async fn the_lobby_is_the_same_after_a_restart() {
    let (dir, db) = temp_db("lobby", "restart.db");
    let s = server_on_store(SqliteStore::open(&db).unwrap(), open_limits(), false);
    let mut made = Vec::new();
    for _ in 0..4 {
        made.push(s.create(goofspiel()).await);
        s.clock.advance(1_000);
    }
    // One live, one with a seat joined, one viewed only.
    s.join_all(&made[1].0, &made[1].1).await;
    let (st, v) = s
        .post(
            &made[2].0,
            "join",
            made[2].1[0].as_deref().unwrap(),
            join(0, "Bo"),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    s.state(&made[3].0, None).await;
    let (_, before) = s.call("GET", "/api/matches", None, None).await;
    assert_eq!(before["total"], 4, "{before}");
    let elapsed = 4_000;
    drop(s);

    let s = server_on_store(SqliteStore::open(&db).unwrap(), open_limits(), false);
    s.clock.advance(elapsed);
    assert_eq!(s.hub.resume().await.unwrap(), 4);
    let (_, after) = s.call("GET", "/api/matches", None, None).await;
    assert_eq!(after["matches"], before["matches"]);
    assert_eq!(after["total"], 4);
    // The waiting ones are served from the store when asked for: joined and started.
    s.join_all(&made[0].0, &made[0].1).await;
    let (st, v) = s
        .post(
            &made[2].0,
            "join",
            made[2].1[1].as_deref().unwrap(),
            json!({"client_seed_hash": seed_hash(&client_seed(1))}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    s.reveal_all(&made[2].0, &made[2].1).await;
    for (id, _) in &made[..3] {
        assert_eq!(
            status_in_lobby(&s, id).await.as_deref(),
            Some("live"),
            "{id}"
        );
    }
    assert_eq!(
        status_in_lobby(&s, &made[3].0).await.as_deref(),
        Some("waiting")
    );
    assert_eq!(s.state(&made[2].0, None).await["names"]["p1"], "Bo");
    // And they expire after a restart as before.
    s.clock.advance(24 * 3600 * 1000);
    let (ids, total) = listed(&s, 50).await;
    assert_eq!(total, 3);
    assert!(!ids.contains(&made[3].0));
    let (st, _) = s
        .call("GET", &format!("/api/matches/{}", made[3].0), None, None)
        .await;
    assert_eq!(st, StatusCode::GONE);
    let _ = std::fs::remove_dir_all(&dir);
}

/// On a store several nodes share, the lobby is read from PostgreSQL a page at a time
/// (`Store::open_page`, through the indexes of migration 1502): the same contents, order,
/// totals and pages as the list of every open match.
#[cfg(feature = "postgres")]
#[tokio::test]
async fn on_postgresql_the_lobby_reads_a_page_at_a_time_in_the_same_order() {
    use colosseum_server::Clock;
    let config = match std::env::var("COLOSSEUM_TEST_POSTGRES") {
        Ok(config) => config,
        Err(_) => {
            assert!(
                std::env::var("COLOSSEUM_REQUIRE_POSTGRES").is_err(),
                "COLOSSEUM_REQUIRE_POSTGRES is set but COLOSSEUM_TEST_POSTGRES is not"
            );
            eprintln!("skipped: set COLOSSEUM_TEST_POSTGRES to test the PostgreSQL store");
            return;
        }
    };
    let store = colosseum_server::PostgresStore::connect(&config)
        .await
        .unwrap();
    store.clear().await.unwrap();
    let clock = std::sync::Arc::new(colosseum_server::ManualClock::at(common::T0));
    let hub = colosseum_server::Hub::with_limits(store, clock.clone(), false, open_limits());
    hub.announce_node("http://127.0.0.1:9").await.unwrap();
    let create = |body: Value| {
        let hub = hub.clone();
        async move {
            hub.create(serde_json::from_value(body).unwrap())
                .await
                .unwrap()
                .id
        }
    };
    // An old practice match, started (both seats in): live however old.
    let live = create(json!({"game": "goofspiel", "seed": 1, "time": {"kind": "untimed"}})).await;
    let table = hub.table(&live).await.unwrap();
    for seat in colosseum_engine::Seat::BOTH {
        hub.act(&table, seat, colosseum_server::hub::Action::Join(None))
            .await
            .unwrap();
    }
    clock.advance(5 * 60 * 1000);
    // Nine waiting ones, some at the same instant.
    let mut waiting = Vec::new();
    for i in 0..9 {
        waiting.push((clock.now_ms(), create(goofspiel()).await));
        if i % 3 != 0 {
            clock.advance(1_000);
        }
    }
    waiting.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut all: Vec<String> = waiting.iter().map(|(_, id)| id.clone()).collect();
    all.push(live.clone());
    let page_ids = |page: &Value| -> Vec<String> {
        page["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_str().unwrap().to_string())
            .collect()
    };
    for (offset, limit) in [(0, 50), (0, 3), (3, 3), (6, 3), (9, 3), (10, 3), (4, 200)] {
        let page = hub.lobby(offset, limit).await.unwrap();
        let want: Vec<String> = all.iter().skip(offset).take(limit).cloned().collect();
        assert_eq!(page_ids(&page), want, "offset {offset}, limit {limit}");
        assert_eq!(page["total"], 10);
    }
    let page = hub.lobby(0, 3).await.unwrap();
    assert_eq!(page["next"], "/api/matches?offset=3&limit=3");
    assert_eq!(page["matches"][0]["status"], "waiting");
    // Eleven minutes on, the waiting ones have left the list: only the live one stays.
    clock.advance(11 * 60 * 1000);
    let page = hub.lobby(0, 50).await.unwrap();
    assert_eq!(page_ids(&page), [live]);
    assert_eq!(page["total"], 1);
}

//! What a waiting match costs in memory (issue 36, hole 7): under 2 KB, counted by this test
//! binary's allocator (one test alone in its binary, so nothing else allocates meanwhile).
//! Before the lobby's index a waiting match was a whole table (a host `Match` with its game
//! state, a timer task): about 12.8 KB. And what a lobby page costs, counted in bytes allocated
//! to answer it (deterministic, unlike its time): the same whatever the number of waiting
//! matches (it used to summarise every match).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use colosseum_server::hub::CreateMatch;
use common::{open_limits, server_with_timers};
use serde_json::json;

/// The system allocator, counting the bytes held.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
/// Every byte ever allocated (a reallocation counts its new size).
static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is the system allocator's own; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            HELD.fetch_add(layout.size(), Ordering::Relaxed);
            ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
            HELD.fetch_add(new_size, Ordering::Relaxed);
            ALLOCATED.fetch_add(new_size, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[tokio::test]
async fn a_waiting_match_holds_under_2_kb_and_a_lobby_page_costs_the_same_at_any_count() {
    // With timer tasks, as a running server has them.
    let s = server_with_timers(open_limits(), true);
    let create = |game: &str| -> CreateMatch {
        serde_json::from_value(json!({"game": game, "options": {}})).unwrap()
    };
    // Whatever is made once (the store's statements, the index's first chunk) first.
    for _ in 0..50 {
        s.hub.create(create("goofspiel")).await.unwrap();
    }
    let before = HELD.load(Ordering::Relaxed);
    let n = 1_000;
    for i in 0..n {
        let game = if i % 2 == 0 {
            "goofspiel"
        } else {
            "square-goofspiel"
        };
        s.hub.create(create(game)).await.unwrap();
    }
    let per_match = HELD.load(Ordering::Relaxed).saturating_sub(before) / n;
    eprintln!("a waiting match holds {per_match} bytes");
    assert!(per_match < 2_048, "a waiting match holds {per_match} bytes");
    // They are all listed, and each is served when asked for.
    let (_, page) = s.call("GET", "/api/matches?limit=1", None, None).await;
    assert_eq!(page["total"], 1_050, "{page}");
    let id = page["matches"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(s.state(&id, None).await["status"], "waiting");

    // A page of 50 from offset 500, at 1,050 waiting matches and at 3,050: the bytes allocated
    // to answer it do not grow with the count.
    let page_bytes = || async {
        let before = ALLOCATED.load(Ordering::Relaxed);
        let (_, page) = s
            .call("GET", "/api/matches?offset=500&limit=50", None, None)
            .await;
        assert_eq!(page["matches"].as_array().unwrap().len(), 50);
        ALLOCATED.load(Ordering::Relaxed) - before
    };
    page_bytes().await;
    let fewer = page_bytes().await;
    for _ in 0..2_000 {
        s.hub.create(create("goofspiel")).await.unwrap();
    }
    let more = page_bytes().await;
    eprintln!("a lobby page: {fewer} bytes allocated at 1,050 waiting matches, {more} at 3,050");
    assert!(
        more < fewer + fewer / 4,
        "a lobby page allocated {fewer} bytes at 1,050 waiting matches, {more} at 3,050"
    );
}

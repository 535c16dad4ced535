//! The lobby's cost against the number of waiting matches (issue 36, hole 7): for 1,000,
//! 10,000 and 100,000 waiting matches (or the counts given as arguments), the heap each waiting
//! match holds and the time of `GET /api/matches` pages through the router (no network), p50
//! and p99, at offsets spread over the whole list.
//!
//! `cargo bench -p colosseum-server --bench lobby` (or `-- 1000 5000` for other counts). The
//! heap is counted by this binary's global allocator (SQLite's own cache, allocated in C, is
//! not in it; the resident set's growth is printed beside it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::http::Request;
use colosseum_server::hub::CreateMatch;
use colosseum_server::{app, AppState, Hub, Limits, SqliteStore, SystemClock};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// The system allocator, counting the bytes held.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            HELD.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
            HELD.fetch_add(new_size, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The resident set in bytes (Linux), 0 elsewhere.
fn resident() -> usize {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<usize>().ok())
        .map_or(0, |pages| pages * 4096)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn get(router: &axum::Router, uri: &str) -> Value {
    let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let res = router.clone().oneshot(req).await.unwrap();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

async fn measure(waiting: usize, dir: &std::path::Path) {
    let limits = Limits {
        http_per_second: 1e9,
        http_burst: 1e9,
        creates_per_minute: 1e9,
        creates_burst: 1e9,
        ..Limits::default()
    };
    let path = dir.join(format!("lobby-{waiting}.db"));
    let store = SqliteStore::open(&path).unwrap();
    let hub = Hub::with_limits(store, Arc::new(SystemClock), true, limits);
    let state = AppState::new(hub.clone(), limits);
    let router = app(state);
    // One lobby request first, so that whatever is made once is made before the count.
    get(&router, "/api/matches").await;
    let (held, rss) = (HELD.load(Ordering::Relaxed), resident());
    let started = Instant::now();
    for i in 0..waiting {
        let game = if i % 2 == 0 {
            "goofspiel"
        } else {
            "square-goofspiel"
        };
        let req: CreateMatch = serde_json::from_value(json!({"game": game})).unwrap();
        hub.create(req).await.unwrap();
    }
    let creating = started.elapsed();
    let per_match = (HELD.load(Ordering::Relaxed).saturating_sub(held)) as f64 / waiting as f64;
    let rss_per_match = resident().saturating_sub(rss) as f64 / waiting as f64;
    let first = get(&router, "/api/matches").await;
    assert_eq!(first["total"], waiting, "every waiting match is listed");
    // Pages at offsets spread over the whole list, the first page among them.
    let rounds = 400;
    let mut times = Vec::with_capacity(rounds);
    for r in 0..rounds {
        let offset = if r % 4 == 0 { 0 } else { (r * 7919) % waiting };
        let uri = format!("/api/matches?offset={offset}&limit=50");
        let t = Instant::now();
        let page = get(&router, &uri).await;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(
            page["matches"].as_array().unwrap().len(),
            50.min(waiting - offset)
        );
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{waiting:>7} waiting: lobby p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; heap {:.0} B a waiting \
         match (resident set {:.0} B); created in {:.1} s",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times.last().unwrap(),
        per_match,
        rss_per_match,
        creating.as_secs_f64(),
    );
}

fn main() {
    let counts: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let counts = if counts.is_empty() {
        vec![1_000, 10_000, 100_000]
    } else {
        counts
    };
    let dir = std::env::temp_dir().join(format!("colosseum-lobby-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    for n in counts {
        runtime.block_on(measure(n, &dir));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

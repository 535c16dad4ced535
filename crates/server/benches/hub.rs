//! The server's own cost per decision, without a network: a full Goofspiel(13) match between two
//! seats through `Hub::act` (with the store's appends), and one state message for a seat.

use std::sync::Arc;

use colosseum_engine::{Seat, Viewer};
use colosseum_server::hub::{Action, CreateMatch};
use colosseum_server::{Hub, ManualClock, SqliteStore};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;

fn hub(runtime: &tokio::runtime::Runtime, path: Option<&std::path::Path>) -> Arc<Hub<SqliteStore>> {
    let store = match path {
        Some(p) => SqliteStore::open(p).unwrap(),
        None => SqliteStore::in_memory().unwrap(),
    };
    let _guard = runtime.enter();
    Hub::new(store, Arc::new(ManualClock::at(1_000)), false)
}

async fn play(hub: &Arc<Hub<SqliteStore>>, seed: u64) {
    let req: CreateMatch = serde_json::from_value(json!({
        "game": "goofspiel", "options": {"cards": "13"}, "seed": seed, "time": {"kind": "untimed"}
    }))
    .unwrap();
    let created = hub.create(req).await.unwrap();
    let table = hub.table(&created.id).await.unwrap();
    for seat in Seat::BOTH {
        hub.act(&table, seat, Action::Join(None)).await.unwrap();
    }
    for bid in 1..=13 {
        for seat in Seat::BOTH {
            hub.act(&table, seat, Action::Submit(bid.to_string()))
                .await
                .unwrap();
        }
    }
}

fn benches(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("server");
    let memory = hub(&runtime, None);
    let mut seed = 0;
    group.bench_function("goofspiel13_match_in_memory_store", |b| {
        b.iter(|| {
            seed += 1;
            runtime.block_on(play(&memory, seed));
        });
    });
    let dir = std::env::temp_dir().join(format!("colosseum-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = hub(&runtime, Some(&dir.join("bench.db")));
    group.bench_function("goofspiel13_match_sqlite_file", |b| {
        b.iter(|| {
            seed += 1;
            runtime.block_on(play(&file, seed));
        });
    });
    // One state message for a seat in a live match.
    let table = runtime.block_on(async {
        let req: CreateMatch =
            serde_json::from_value(json!({"game": "goofspiel", "options": {"cards": "13"}}))
                .unwrap();
        let created = memory.create(req).await.unwrap();
        let table = memory.table(&created.id).await.unwrap();
        // Each seat commits to its client seed, then reveals it (provably fair chance).
        let seed = |seat: Seat| format!("bench-client-seed-{seat}");
        for seat in Seat::BOTH {
            let action = Action::JoinSeeded {
                name: None,
                client_seed: None,
                client_seed_hash: Some(colosseum_engine::fair::client_seed_hash(&seed(seat))),
            };
            memory.act(&table, seat, action).await.unwrap();
        }
        for seat in Seat::BOTH {
            memory
                .act(&table, seat, Action::Reveal(seed(seat)))
                .await
                .unwrap();
        }
        for seat in Seat::BOTH {
            memory
                .act(&table, seat, Action::Submit("5".into()))
                .await
                .unwrap();
        }
        table
    });
    group.bench_function("goofspiel13_state_message", |b| {
        b.iter(|| {
            runtime.block_on(async {
                memory
                    .state(&table, Viewer::Seat(Seat::P1))
                    .await
                    .to_string()
            })
        });
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(server, benches);
criterion_main!(server);

//! The Witch's Brew with a live Cauldron through the server: trivia races answered over HTTP and
//! WebSocket, lockouts, and bots that answer on their own.

mod common;

use std::sync::Arc;
use std::time::Duration;

use colosseum_engine::{Seat, Viewer};
use colosseum_server::hub::Action;
use colosseum_server::{Hub, ManualClock, SqliteStore};
use colosseum_trivia::Bank;
use common::begin;
use serde_json::json;

fn answer_for(question: &str) -> String {
    Bank::sample()
        .questions()
        .iter()
        .find(|q| q.question == question)
        .unwrap_or_else(|| panic!("not in the sample bank: {question}"))
        .answers[0]
        .clone()
}

#[tokio::test]
async fn two_humans_race_a_live_cauldron_to_the_end() {
    let clock = Arc::new(ManualClock::at(1_000_000));
    let hub = Hub::new(SqliteStore::in_memory().unwrap(), clock.clone(), false);
    let (_, table) = begin(
        &hub,
        json!({"game": "witchs-brew", "options": {"cauldron": "live"}, "seed": 2, "time": {"kind": "untimed"}, "trivia": {"bank": "sample"}}),
    )
    .await;
    let mut races = 0;
    let mut n = 0;
    loop {
        n += 1;
        assert!(n < 3_000);
        clock.advance(1_000);
        let v = hub.state(&table, Viewer::Spectator).await;
        if v["status"] == "finished" {
            break;
        }
        let race = &v["match"]["race"];
        if race.is_object() && race["over"] == false {
            races += 1;
            // While the race runs, nobody's view holds the answers.
            for viewer in [
                Viewer::Seat(Seat::P1),
                Viewer::Seat(Seat::P2),
                Viewer::Spectator,
            ] {
                let seen = hub.state(&table, viewer).await;
                assert!(seen["match"]["race"].get("answers").is_none(), "{seen}");
            }
            let question = race["question"].as_str().unwrap().to_string();
            let opened = race["opened_at"].as_u64().unwrap();
            // p1 answers wrong: locked out for 30 s, and refused while locked out.
            hub.act(
                &table,
                Seat::P1,
                Action::Answer {
                    text: "no idea at all".into(),
                    race: Some(opened),
                },
            )
            .await
            .unwrap();
            let seen = hub.state(&table, Viewer::Seat(Seat::P2)).await;
            let until = seen["match"]["race"]["seats"]["p1"]["lockout_until"]
                .as_u64()
                .unwrap();
            assert_eq!(until, seen["match"]["now"].as_u64().unwrap() + 30_000);
            let e = hub
                .act(
                    &table,
                    Seat::P1,
                    Action::Answer {
                        text: answer_for(&question),
                        race: Some(opened),
                    },
                )
                .await
                .unwrap_err();
            assert_eq!(e.code, "answer_refused", "{e:?}");
            // p2 answers right, in another spelling (case and spacing do not matter).
            let right = format!("  {}  ", answer_for(&question).to_uppercase());
            hub.act(
                &table,
                Seat::P2,
                Action::Answer {
                    text: right,
                    race: Some(opened),
                },
            )
            .await
            .unwrap();
            let seen = hub.state(&table, Viewer::Spectator).await;
            assert_eq!(seen["match"]["race"]["winner"], "p2", "{seen}");
            assert!(seen["match"]["race"]["answers"].is_array());
            // An answer meant for this race after the next one opened would be stale.
            continue;
        }
        let mut acted = false;
        for seat in Seat::BOTH {
            let mine = hub.state(&table, Viewer::Seat(seat)).await;
            let s = &mine["match"]["seats"][seat.to_string()];
            if s["to_act"] == true && s["submitted"] == false {
                let mv = hub.random_move_for_tests(&table, seat, n).await.unwrap();
                hub.act(&table, seat, Action::Submit(mv)).await.unwrap();
                acted = true;
            }
        }
        assert!(acted, "nobody acts: {v}");
    }
    assert!(races >= 10, "{races} races");
    let records = hub.records(&table).await.unwrap();
    let record = records.last().unwrap();
    // Every race is in the record as its chance step, all won by p2.
    let race_steps: Vec<&str> = record
        .steps
        .iter()
        .filter_map(|s| s.chance.as_deref())
        .filter(|c| ["p1", "p2", "none"].contains(c))
        .collect();
    assert_eq!(race_steps.len(), races, "{record:?}");
    assert!(race_steps.iter().all(|c| *c == "p2"));
    // The races were decided by the race, the prize pairs drawn from the seeds: it verifies.
    let report = colosseum_server::verify::verify(&records);
    assert!(report.ok, "{}", report.text());
    assert_eq!(report.games[0].races, races);
    assert!(report.games[0].chance_checked > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_answers_the_cauldron_with_its_accuracy_and_timing() {
    let clock = Arc::new(colosseum_server::SystemClock);
    let hub = Hub::new(SqliteStore::in_memory().unwrap(), clock, true);
    let (_, table) = begin(
        &hub,
        json!({
            "game": "witchs-brew", "options": {"cauldron": "live"}, "seed": 4, "time": {"kind": "untimed"},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
            "race_bot": {"accuracy": 1.0, "mean_ms": 20, "min_ms": 5, "max_ms": 40},
        }),
    )
    .await;
    let mut updates = Hub::<SqliteStore>::subscribe(&table);
    let mut n = 0;
    loop {
        n += 1;
        assert!(n < 5_000);
        let v = hub.state(&table, Viewer::Seat(Seat::P1)).await;
        if v["status"] == "finished" {
            break;
        }
        let me = &v["match"]["seats"]["p1"];
        if me["to_act"] == true && me["submitted"] == false {
            let mv = hub
                .random_move_for_tests(&table, Seat::P1, n)
                .await
                .unwrap();
            hub.act(&table, Seat::P1, Action::Submit(mv)).await.unwrap();
        } else {
            // A race (the bot answers within 40 ms) or the bot's move.
            tokio::time::timeout(Duration::from_secs(10), updates.changed())
                .await
                .expect("the bot acts")
                .unwrap();
        }
    }
    let record = hub.records(&table).await.unwrap().pop().unwrap();
    let races: Vec<&str> = record
        .steps
        .iter()
        .filter_map(|s| s.chance.as_deref())
        .filter(|c| ["p1", "p2", "none"].contains(c))
        .collect();
    assert!(!races.is_empty());
    // Always right, and p1 never answers: the bot wins every race.
    assert!(races.iter().all(|c| *c == "p2"), "{races:?}");
}

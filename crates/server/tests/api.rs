//! The router without a network (the shared harness in `common`): the clock is moved by hand
//! and deadlines fire when the test ticks.

mod common;

use axum::http::StatusCode;
use colosseum_engine::Seat;
use colosseum_server::{Hub, Limits, SqliteStore};
use common::{server, server_with};
use serde_json::{json, Value};

fn goofspiel(cards: u32) -> Value {
    json!({"game": "goofspiel", "options": {"cards": cards.to_string(), "order": "descending"}, "seed": 5})
}

#[tokio::test]
async fn two_humans_play_goofspiel_to_the_end_and_the_record_replays() {
    let s = server();
    let (id, tokens) = s.start(goofspiel(4)).await;
    let [t1, t2] = tokens.map(Option::unwrap);
    for round in 0..4 {
        // Descending prizes 4, 3, 2, 1; p1 bids the prize, p2 bids 5 - prize.
        let prize = 4 - round;
        let (st, v) = s
            .act(&id, "submit", &t1, json!({"move": prize.to_string()}))
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let (st, v) = s
            .act(&id, "submit", &t2, json!({"move": (5 - prize).to_string()}))
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
    }
    let (_, state) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    assert_eq!(state["status"], "finished", "{state}");
    // p1 wins prizes 4 and 3 (bids 4 v 1, 3 v 2), loses 2 and 1: 7 against 3.
    assert_eq!(state["match"]["result"]["winner"], "p1", "{state}");
    let (st, rec) = s
        .call("GET", &format!("/api/matches/{id}/record"), None, None)
        .await;
    assert_eq!(st, StatusCode::OK);
    let record: colosseum_engine::Record =
        serde_json::from_value(rec["records"][0].clone()).unwrap();
    let replayed = colosseum_games::replay_record(&record).unwrap().unwrap();
    let score = replayed.game.score();
    assert_eq!(
        (score.p1.to_string(), score.p2.to_string()),
        ("7".into(), "3".into())
    );
    let (st, replay) = s
        .call("GET", &format!("/api/matches/{id}/replay"), None, None)
        .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        replay["games"][0]["frames"].as_array().unwrap().len(),
        record.steps.len() + 1
    );
    // The finished match is in the lobby's finished list.
    let (_, lobby) = s.call("GET", "/api/matches", None, None).await;
    assert_eq!(lobby["finished"][0]["id"], id.as_str());
    assert!(lobby["matches"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn a_pending_move_shows_only_as_submitted_to_the_other_seat_and_spectators() {
    let s = server();
    let (id, tokens) = s.start(goofspiel(5)).await;
    let [t1, t2] = tokens.map(Option::unwrap);
    let (_, mine) = s.act(&id, "submit", &t1, json!({"move": "3"})).await;
    assert_eq!(mine["match"]["seats"]["p1"]["submission"], "3");
    for (who, token) in [("p2", Some(t2.as_str())), ("spectator", None)] {
        let (_, v) = s
            .call("GET", &format!("/api/matches/{id}"), token, None)
            .await;
        let p1 = v["match"]["seats"]["p1"].as_object().unwrap();
        assert_eq!(p1["submitted"], true, "{who}");
        assert!(
            !p1.contains_key("submission"),
            "{who} sees p1's pending move: {v}"
        );
    }
}

#[tokio::test]
async fn tokens_act_only_for_their_own_seat_and_match() {
    let s = server();
    let (a, ta) = s.start(goofspiel(3)).await;
    let (b, tb) = s.start(goofspiel(3)).await;
    let ta1 = ta[0].clone().unwrap();
    // A token of match a at match b: refused, not treated as a spectator.
    let (st, v) = s
        .call("GET", &format!("/api/matches/{b}"), Some(&ta1), None)
        .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    let (st, _) = s.act(&b, "submit", &ta1, json!({"move": "1"})).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    // No token: a spectator, who cannot act.
    let (st, v) = s
        .call(
            "POST",
            &format!("/api/matches/{a}/submit"),
            None,
            Some(json!({"move": "1"})),
        )
        .await;
    assert_eq!(st, StatusCode::UNAUTHORIZED, "{v}");
    assert_eq!(v["error"]["code"], "unauthorized");
    // p1's token submits for p1 only: p2 still has to act.
    s.act(&a, "submit", &ta1, json!({"move": "1"})).await;
    let (st, _) = s
        .call("GET", &format!("/api/matches/{a}"), tb[1].as_deref(), None)
        .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (_, v) = s
        .call("GET", &format!("/api/matches/{a}"), ta[1].as_deref(), None)
        .await;
    assert_eq!(v["you"], "p2");
    assert_eq!(v["match"]["seats"]["p1"]["submitted"], true);
    assert_eq!(v["match"]["seats"]["p2"]["submitted"], false);
}

#[tokio::test]
async fn bad_input_is_refused_with_a_json_reason() {
    let s = server_with(Limits {
        body_bytes: 1024,
        http_per_second: 1e9,
        http_burst: 1e9,
        ..Limits::default()
    });
    let cases: Vec<(&str, &str, Option<String>, StatusCode, &str)> = vec![
        ("POST", "/api/matches", Some("{".into()), StatusCode::BAD_REQUEST, "bad_request"),
        ("POST", "/api/matches", Some(json!({"game": "chess"}).to_string()), StatusCode::BAD_REQUEST, "bad_request"),
        ("POST", "/api/matches", Some(json!({"game": "goofspiel", "options": {"cards": "0"}}).to_string()), StatusCode::BAD_REQUEST, "bad_request"),
        ("POST", "/api/matches", Some(json!({"game": "goofspiel", "sead": 3}).to_string()), StatusCode::BAD_REQUEST, "bad_request"),
        ("POST", "/api/matches", Some(json!({"game": 5}).to_string()), StatusCode::BAD_REQUEST, "bad_request"),
        ("POST", "/api/matches", Some(json!({"game": "goofspiel", "seed": "five"}).to_string()), StatusCode::BAD_REQUEST, "bad_request"),
        ("POST", "/api/matches", Some(json!({"game": "goofspiel", "seats": [{"kind": "human"}, {"kind": "bot", "level": "cmd:rm -rf /"}]}).to_string()), StatusCode::BAD_REQUEST, "bad_request"),
        ("POST", "/api/matches", Some(json!({"game": "goofspiel", "seats": [{"kind": "human"}, {"kind": "bot", "level": "mcts:ms=999999"}]}).to_string()), StatusCode::BAD_REQUEST, "bad_request"),
        ("POST", "/api/matches", Some(format!("{{\"game\": \"{}\"}}", "x".repeat(5000))), StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
        ("GET", "/api/matches/nosuchmatch", None, StatusCode::NOT_FOUND, "not_found"),
        ("GET", "/api/matches/..%2F..%2Fetc", None, StatusCode::NOT_FOUND, "not_found"),
        ("GET", "/api/nothing/here", None, StatusCode::NOT_FOUND, "not_found"),
    ];
    for (method, uri, body, status, code) in cases {
        let (st, v) = s.call_raw(method, uri, None, body.clone()).await;
        assert_eq!(st, status, "{method} {uri} {body:?}: {v}");
        assert_eq!(v["error"]["code"], code, "{method} {uri}: {v}");
        assert!(v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()));
    }
    // Text that is not a card of this game: 400 `not_a_move` with the game's reason, and the
    // match goes on (a card not held, 422 `illegal_move`: tests/refusals.rs).
    let (id, tokens) = s.start(goofspiel(3)).await;
    let t1 = tokens[0].clone().unwrap();
    let (st, v) = s.act(&id, "submit", &t1, json!({"move": "9"})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["error"]["code"], "not_a_move");
    let (st, v) = s.act(&id, "submit", &t1, json!({"move": "three"})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["error"]["code"], "not_a_move");
    let (st, _) = s.act(&id, "submit", &t1, json!({"move": "2"})).await;
    assert_eq!(st, StatusCode::OK);
    // A move before both have joined.
    let (_, created) = s
        .call("POST", "/api/matches", None, Some(goofspiel(3)))
        .await;
    let (st, v) = s
        .call(
            "POST",
            &format!("/api/matches/{}/submit", created["id"].as_str().unwrap()),
            created["tokens"][0].as_str(),
            Some(json!({"move": "1"})),
        )
        .await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "not_started");
}

#[tokio::test]
async fn too_many_requests_from_one_address_are_refused() {
    let s = server_with(Limits {
        http_per_second: 0.001,
        http_burst: 5.0,
        ..Limits::default()
    });
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(s.call("GET", "/api/health", None, None).await.0);
    }
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 5);
    let (st, v) = s.call("GET", "/api/health", None, None).await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(v["error"]["code"], "rate_limited");
}

#[tokio::test]
async fn a_missed_deadline_makes_the_default_move_and_the_match_goes_on() {
    let s = server();
    let (id, tokens) = s.start(goofspiel(3)).await;
    let t1 = tokens[0].clone().unwrap();
    s.act(&id, "submit", &t1, json!({"move": "3"})).await;
    // Goofspiel: 30 s a move; p2 says nothing.
    s.clock.advance(30_001);
    s.hub.tick_all().await.unwrap();
    let (_, v) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    let turns = &v["match"]["view"]["turns"];
    assert_eq!(turns.as_array().unwrap().len(), 1, "{v}");
    // The default is the lowest card.
    assert_eq!(turns[0]["p2"], 1, "{v}");
    assert_eq!(turns[0]["p1"], 3, "{v}");
}

/// Every game, two humans making random legal moves through the API until the end: every state
/// sent to a seat or a spectator is checked for the other seat's pending move, and the finished
/// record replays to the same result.
#[tokio::test]
async fn every_game_is_hosted_to_the_end_without_leaking_pending_moves() {
    for entry in colosseum_games::registry() {
        let s = server();
        let (id, tokens) = s
            .start(json!({"game": entry.id, "seed": 11, "time": {"kind": "untimed"}}))
            .await;
        let tokens = tokens.map(Option::unwrap);
        let table = s.hub.table(&id).await.unwrap();
        let mut n = 0u64;
        loop {
            let (_, spectator) = s
                .call("GET", &format!("/api/matches/{id}"), None, None)
                .await;
            if spectator["status"] == "finished" {
                break;
            }
            n += 1;
            assert!(n < 5_000, "{}: no end", entry.id);
            let mut acted = false;
            for seat in Seat::BOTH {
                let token = &tokens[seat.index()];
                let (_, mine) = s
                    .call("GET", &format!("/api/matches/{id}"), Some(token), None)
                    .await;
                if mine["match"]["seats"][seat.to_string()]["to_act"] != true
                    || mine["match"]["seats"][seat.to_string()]["submitted"] == true
                {
                    continue;
                }
                let mv = s.hub.random_move_for_tests(&table, seat, n).await.unwrap();
                let (st, v) = s.act(&id, "submit", token, json!({"move": mv})).await;
                assert_eq!(st, StatusCode::OK, "{}: {mv}: {v}", entry.id);
                acted = true;
                // Whatever is pending now, the other seat and a spectator see only "submitted".
                for viewer in [Some(&tokens[seat.other().index()]), None] {
                    let (_, other) = s
                        .call(
                            "GET",
                            &format!("/api/matches/{id}"),
                            viewer.map(String::as_str),
                            None,
                        )
                        .await;
                    let fields = other["match"]["seats"][seat.to_string()]
                        .as_object()
                        .unwrap();
                    assert!(
                        !fields.contains_key("submission") && !fields.contains_key("by_default"),
                        "{}: {seat}'s pending move is shown: {other}",
                        entry.id
                    );
                }
            }
            assert!(acted, "{}: nobody could act: {spectator}", entry.id);
        }
        let (_, rec) = s
            .call("GET", &format!("/api/matches/{id}/record"), None, None)
            .await;
        let records: Vec<colosseum_engine::Record> =
            serde_json::from_value(rec["records"].clone()).unwrap();
        let last = records.last().unwrap();
        let replayed = colosseum_games::replay_record(last).unwrap().unwrap();
        let (_, v) = s
            .call("GET", &format!("/api/matches/{id}"), None, None)
            .await;
        let by = v["match"]["result"]["by"].clone();
        assert!(by == "game" || by == "second_draw", "{}: {v}", entry.id);
        if by == "second_draw" {
            // A drawn replay: the advantage decides (RULINGS.md), the game itself was a draw.
            assert_eq!(
                json!(replayed.game.outcome().map(|o| o.winner)),
                json!(null)
            );
            continue;
        }
        assert_eq!(
            json!(replayed.game.outcome().map(|o| o.winner)),
            json!(v["match"]["result"]["winner"]),
            "{}",
            entry.id
        );
    }
}

/// Every game against a bot: the human plays random moves, the bot answers on its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_can_be_played_against_a_bot() {
    for entry in colosseum_games::registry() {
        let s = server();
        let (id, tokens) = s
            .start(json!({
                "game": entry.id,
                "seed": 3,
                "time": {"kind": "untimed"},
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
            }))
            .await;
        let t1 = tokens[0].clone().unwrap();
        assert!(tokens[1].is_none());
        let table = s.hub.table(&id).await.unwrap();
        let mut updates = Hub::<SqliteStore>::subscribe(&table);
        let mut n = 0;
        loop {
            let (_, v) = s
                .call("GET", &format!("/api/matches/{id}"), Some(&t1), None)
                .await;
            if v["status"] == "finished" {
                assert!(v["match"]["result"].is_object());
                break;
            }
            n += 1;
            assert!(n < 5_000, "{}: no end", entry.id);
            let me = &v["match"]["seats"]["p1"];
            if me["to_act"] == true && me["submitted"] == false {
                let mv = s
                    .hub
                    .random_move_for_tests(&table, Seat::P1, n)
                    .await
                    .unwrap();
                let (st, v) = s.act(&id, "submit", &t1, json!({"move": mv})).await;
                assert_eq!(st, StatusCode::OK, "{}: {v}", entry.id);
            } else {
                // The bot is thinking: wait for the table to change.
                tokio::time::timeout(std::time::Duration::from_secs(30), updates.changed())
                    .await
                    .expect("the bot moves")
                    .unwrap();
            }
        }
    }
}

/// All-In Goofspiel's starter puts cards down face down: over the API, the responder and a
/// spectator learn how many, never which, until the responder has answered.
#[tokio::test]
async fn face_down_cards_never_cross_the_wire_before_the_reveal() {
    let s = server();
    let mut checked = 0;
    for seed in 1..=4 {
        let (id, tokens) = s
            .start(json!({"game": "all-in-goofspiel", "seed": seed, "time": {"kind": "untimed"}}))
            .await;
        let tokens = tokens.map(Option::unwrap);
        let table = s.hub.table(&id).await.unwrap();
        for n in 0..60u64 {
            let (_, spectator) = s
                .call("GET", &format!("/api/matches/{id}"), None, None)
                .await;
            if spectator["status"] == "finished" {
                break;
            }
            let current = &spectator["match"]["view"]["current"];
            let starter: Seat = serde_json::from_value(current["starter"].clone()).unwrap();
            let seat = if current["face_down_count"].is_null() {
                starter
            } else {
                starter.other()
            };
            // A starter's play of two or more cards, so that its number is telling.
            let mut mv = s.hub.random_move_for_tests(&table, seat, n).await.unwrap();
            if seat == starter {
                for k in 0..50 {
                    if mv.split_whitespace().count() >= 2 {
                        break;
                    }
                    mv = s
                        .hub
                        .random_move_for_tests(&table, seat, 1000 * n + k)
                        .await
                        .unwrap();
                }
            }
            let token = &tokens[seat.index()];
            let (st, v) = s.act(&id, "submit", token, json!({"move": mv})).await;
            assert_eq!(st, StatusCode::OK, "{v}");
            if seat != starter || mv.split_whitespace().count() < 2 {
                continue;
            }
            // The starter sees its own cards; the responder and a spectator do not.
            let cards: Vec<i64> = mv.split_whitespace().map(|c| c.parse().unwrap()).collect();
            assert_eq!(
                v["match"]["view"]["current"]["face_down_cards"],
                json!(cards),
                "{v}"
            );
            let number: String = mv.split_whitespace().collect();
            for viewer in [Some(tokens[starter.other().index()].as_str()), None] {
                let (_, other) = s
                    .call("GET", &format!("/api/matches/{id}"), viewer, None)
                    .await;
                let current = &other["match"]["view"]["current"];
                assert_eq!(current["face_down_count"], cards.len(), "{other}");
                assert!(current["face_down_cards"].is_null(), "{other}");
                let hand = &other["match"]["view"]["hands"][starter.to_string()];
                for c in &cards {
                    assert!(
                        hand.as_array().unwrap().contains(&json!(c)),
                        "the hand gives the card away: {other}"
                    );
                }
                assert!(
                    !other.to_string().contains(&format!("\"{number}\"")),
                    "{other}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} face-down plays checked");
}

/// A bot thinks on the blocking pool: on a single-threaded runtime, a whole other match is
/// played while a bot with a 3-second budget is still thinking.
#[tokio::test(flavor = "current_thread")]
async fn a_thinking_bot_does_not_stall_other_tables() {
    let s = server();
    let (slow, tokens) = s
        .start(json!({
            "game": "goofspiel", "options": {"cards": "13"}, "time": {"kind": "untimed"},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "mcts:ms=3000"}],
        }))
        .await;
    let t = tokens[0].clone().unwrap();
    let (st, _) = s.act(&slow, "submit", &t, json!({"move": "13"})).await;
    assert_eq!(st, StatusCode::OK);
    // Let the bot's task start thinking.
    tokio::task::yield_now().await;
    let (other, tokens) = s.start(goofspiel(5)).await;
    let [t1, t2] = tokens.map(Option::unwrap);
    for bid in 1..=5 {
        for t in [&t1, &t2] {
            let (st, v) = s
                .act(&other, "submit", t, json!({"move": bid.to_string()}))
                .await;
            assert_eq!(st, StatusCode::OK, "{v}");
        }
    }
    let (_, done) = s
        .call("GET", &format!("/api/matches/{other}"), None, None)
        .await;
    assert_eq!(done["status"], "finished");
    let (_, waiting) = s
        .call("GET", &format!("/api/matches/{slow}"), None, None)
        .await;
    assert_eq!(
        waiting["match"]["seats"]["p2"]["submitted"], false,
        "the bot should still be thinking"
    );
    // And it does answer.
    let table = s.hub.table(&slow).await.unwrap();
    let mut updates = Hub::<SqliteStore>::subscribe(&table);
    tokio::time::timeout(std::time::Duration::from_secs(30), async {
        loop {
            let v = s
                .hub
                .state(&table, colosseum_engine::Viewer::Spectator)
                .await;
            if v["match"]["view"]["turns"]
                .as_array()
                .is_some_and(|t| !t.is_empty())
            {
                break;
            }
            updates.changed().await.unwrap();
        }
    })
    .await
    .expect("the bot moves within 30 s");
}

/// Season questions from the server's own finished matches: each answer checked against the
/// match it was made from, and the TOML bank usable as a live Cauldron's questions.
#[tokio::test]
async fn season_questions_come_from_finished_matches_and_make_a_bank() {
    let s = server();
    let mut ids = Vec::new();
    for (day, (p1, p2)) in [("Ann", "Bo"), ("Cy", "Di")].iter().enumerate() {
        let (_, created) = s
            .call(
                "POST",
                "/api/matches",
                None,
                Some(
                    json!({"game": "goofspiel", "options": {"cards": "3", "order": "descending"}}),
                ),
            )
            .await;
        let id = created["id"].as_str().unwrap().to_string();
        let t = [0, 1].map(|i| created["tokens"][i].as_str().unwrap().to_string());
        for (i, (token, name)) in t.iter().zip([p1, p2]).enumerate() {
            let hash = common::seed_hash(&common::client_seed(i));
            s.post(
                &id,
                "join",
                token,
                json!({"name": name, "client_seed_hash": hash}),
            )
            .await;
        }
        s.reveal_all(&id, &t.clone().map(Some)).await;
        // Prizes 3, 2, 1: p1 bids 3 2 1 and p2 1 2 3 on day 1 (p1 wins 3 to 1), the other way
        // round on day 2 (p2 wins).
        let bids = if day == 0 {
            [(3, 1), (2, 2), (1, 3)]
        } else {
            [(1, 3), (2, 2), (3, 1)]
        };
        for (a, b) in bids {
            s.act(&id, "submit", &t[0], json!({"move": a.to_string()}))
                .await;
            s.act(&id, "submit", &t[1], json!({"move": b.to_string()}))
                .await;
        }
        ids.push(id);
    }
    // A live match cannot be asked about.
    let (_, live) = s
        .call("POST", "/api/matches", None, Some(goofspiel(3)))
        .await;
    let (st, v) = s
        .call(
            "POST",
            "/api/seasons/questions",
            None,
            Some(json!({"name": "S1", "matches": [{"id": live["id"], "label": "day 0"}]})),
        )
        .await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");

    let (st, v) = s
        .call(
            "POST",
            "/api/seasons/questions",
            None,
            Some(json!({"name": "S1", "matches": [{"id": ids[0], "label": "day 1"}, {"id": ids[1], "label": "day 2"}]})),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let questions = v["questions"].as_array().unwrap();
    let winner_of = |day: &str| {
        questions
            .iter()
            .find(|q| {
                let text = q["question"].as_str().unwrap();
                text.starts_with("Who won") && text.contains(day)
            })
            .unwrap_or_else(|| panic!("no winner question for {day}: {v}"))["answers"][0]
            .clone()
    };
    assert_eq!(winner_of("day 1"), "Ann");
    assert_eq!(winner_of("day 2"), "Di");
    // The bank reads back and serves a live Cauldron.
    let toml = v["toml"].as_str().unwrap();
    let bank = colosseum_trivia::Bank::from_toml(toml).unwrap();
    assert_eq!(bank.questions().len(), questions.len());
    let (st, created) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(json!({"game": "witchs-brew", "options": {"cauldron": "live"}, "trivia": {"bank": {"toml": toml}}})),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{created}");
}

//! Tournaments through the router: bad requests, registration by link up to the cap, tokens,
//! the garnet leader's advantage in the matches made, no-show forfeits (and their undoing),
//! adjudication, replacing a player, and a rebuild from the store.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use colosseum_engine::Seat;
use colosseum_server::SqliteStore;
use common::{open_limits, server, server_on_store, temp_db, Server};
use serde_json::{json, Value};

async fn create(s: &Server, body: Value) -> (StatusCode, Value) {
    s.call("POST", "/api/tournaments", None, Some(body)).await
}

/// Waits (real time: the driver polls) until the view satisfies `done`.
async fn wait_for(
    s: &Server,
    id: &str,
    token: Option<&str>,
    done: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..200 {
        let (status, view) = s
            .call("GET", &format!("/api/tournaments/{id}"), token, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        if done(&view) {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the tournament did not get there");
}

fn message(v: &Value) -> String {
    v["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn bad_requests_say_what_is_wrong_and_what_is_allowed() {
    let s = server();
    let two = json!([{"name": "Ann"}, {"name": "Bo"}]);
    let cases = [
        (
            json!({"name": "", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 1}, "players": two}),
            "1 to 80 characters",
        ),
        (
            json!({"name": "T", "format": {"kind": "swiss", "rounds": 1}, "players": two}),
            "give `game`",
        ),
        (
            json!({"name": "T", "game": "chess", "format": {"kind": "swiss", "rounds": 1}, "players": two}),
            "unknown game `chess`",
        ),
        (
            // `hard` plays 12-card Goofspiel from a solved table the server does not have.
            json!({"name": "T", "game": "goofspiel", "options": {"cards": 12, "order": "descending", "returns": "point_difference"}, "format": {"kind": "swiss", "rounds": 1}, "players": [{"name": "Ann"}, {"name": "Hal", "bot": "mcts:hard"}]}),
            "COLOSSEUM_GOOFSPIEL_TABLE",
        ),
        (
            json!({"name": "T", "game": "goofspiel", "options": {"cards": "99"}, "format": {"kind": "swiss", "rounds": 1}, "players": two}),
            "cards",
        ),
        (
            json!({"name": "T", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 2}, "players": two}),
            "1 to 1 rounds",
        ),
        (
            json!({"name": "T", "game": "goofspiel", "format": {"kind": "single_elimination"}, "players": [{"name": "Ann"}]}),
            "2 to 64 players",
        ),
        (
            json!({"name": "T", "game": "goofspiel", "format": {"kind": "single_elimination"}, "players": [{"name": "Ann"}, {"name": "ann"}]}),
            "names differ",
        ),
        (
            json!({"name": "T", "game": "goofspiel", "format": {"kind": "single_elimination"}, "players": [{"name": "Ann"}, {"name": "Bo", "bot": "wizard"}]}),
            "wizard",
        ),
        (
            json!({"name": "T", "game": "goofspiel", "format": {"kind": "knockout"}, "players": two}),
            "unknown variant",
        ),
    ];
    for (body, wanted) in cases {
        let (status, answer) = create(&s, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert!(message(&answer).contains(wanted), "{body}: {answer}");
    }
}

#[tokio::test]
async fn registration_by_link_up_to_the_cap_then_the_host_starts() {
    let s = server();
    let (status, created) = create(
        &s,
        json!({"name": "Open", "game": "goofspiel", "format": {"kind": "round_robin"},
               "registration": true, "cap": 3}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let admin = created["admin_token"].as_str().unwrap();
    let register = created["links"]["register"].as_str().unwrap();
    let reg_token = register.split("#register=").nth(1).unwrap();
    let path = format!("/api/tournaments/{id}/register");
    let (status, answer) = s
        .call("POST", &path, Some("nope"), Some(json!({"name": "Eve"})))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    let mut players = Vec::new();
    for name in ["Ann", "Bo", "Cy"] {
        let (status, answer) = s
            .call("POST", &path, Some(reg_token), Some(json!({"name": name})))
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        players.push(answer["token"].as_str().unwrap().to_string());
    }
    let (status, answer) = s
        .call("POST", &path, Some(reg_token), Some(json!({"name": "Dee"})))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(message(&answer).contains("full (3 players)"), "{answer}");
    // Only the host starts it.
    let start = format!("/api/tournaments/{id}/start");
    let (status, _) = s.call("POST", &start, Some(&players[0]), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, answer) = s.call("POST", &start, Some(admin), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // Round one: three players, one game and a bye (Berger, with a phantom).
    let view = wait_for(&s, id, None, |v| {
        v["rounds"][0]["boards"][0]["match"].is_string()
    })
    .await;
    assert_eq!(view["rounds"][0]["byes"].as_array().unwrap().len(), 1);
    assert_eq!(view["rounds_planned"], 3);
    // A spectator sees no token; each player sees their own seat's link.
    let text = view.to_string();
    for t in &players {
        assert!(!text.contains(t.as_str()));
    }
    assert!(!text.contains("#seat="));
    let mut seats = 0;
    for t in &players {
        let (status, mine) = s
            .call("GET", &format!("/api/tournaments/{id}"), Some(t), None)
            .await;
        assert_eq!(status, StatusCode::OK);
        let current = &mine["you"]["current"];
        if current["bye"] == true {
            continue;
        }
        let link = current["link"].as_str().unwrap();
        assert!(link.contains("#seat="), "{mine}");
        seats += 1;
        // The seat token in the link is the match's token for that seat.
        let m = current["match"].as_str().unwrap();
        let seat_token = link.split("#seat=").nth(1).unwrap();
        let (status, st) = s
            .call("GET", &format!("/api/matches/{m}"), Some(seat_token), None)
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(st["you"], current["seat"]);
        assert_eq!(st["tournament"], id);
    }
    assert_eq!(seats, 2);
    // A token of nobody here is refused, never downgraded to a spectator.
    let (status, _) = s
        .call("GET", &format!("/api/tournaments/{id}"), Some("0123"), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Registration is closed.
    let (status, _) = s
        .call(
            "POST",
            &path,
            Some(reg_token),
            Some(json!({"name": "Late"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn the_garnet_leader_holds_the_games_advantage() {
    let s = server();
    for (game, option) in [("thwart-omega", "advantage"), ("all-in-goofspiel", "first")] {
        // Seed 1 (Ann) has fewer garnets than seed 2 (Bo); a one-round Swiss seats Ann in p1.
        let (status, created) = create(
            &s,
            json!({"name": "Garnets", "game": game, "format": {"kind": "swiss", "rounds": 1},
                   "players": [{"name": "Ann", "garnets": 1}, {"name": "Bo", "garnets": 5}]}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let id = created["id"].as_str().unwrap();
        let view = wait_for(&s, id, None, |v| {
            v["rounds"][0]["boards"][0]["match"].is_string()
        })
        .await;
        let board = &view["rounds"][0]["boards"][0];
        let bo_seat = if board["p1"]["name"] == "Bo" {
            Seat::P1
        } else {
            Seat::P2
        };
        assert_eq!(board["advantage"], json!(bo_seat));
        let table = s.hub.table(board["match"].as_str().unwrap()).await.unwrap();
        let meta = s.hub.stored(&table).await;
        assert_eq!(
            meta.config.options[option],
            json!(bo_seat.as_str()),
            "{game}"
        );
        // The second draw of a replay goes to the same player.
        assert_eq!(meta.config.advantage, Some(bo_seat));
        assert_eq!(meta.tournament.as_deref(), Some(id));
    }
}

#[tokio::test]
async fn no_show_forfeits_undo_adjudication_and_replacement_are_logged() {
    let s = server();
    let (_, created) = create(
        &s,
        json!({"name": "Strict", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 2},
               "players": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}, {"name": "Dee"}],
               "no_show_s": 60}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let view = wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][0]["boards"]
            .as_array()
            .is_some_and(|b| b.iter().all(|b| b["match"].is_string()))
    })
    .await;
    // Board 0's p1 joins; nobody else does.
    let board = &view["rounds"][0]["boards"][0];
    let p1_name = board["p1"]["name"].as_str().unwrap();
    let p1_index = view["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p["name"] == p1_name)
        .unwrap();
    let p1_link = view["links"]["players"][p1_index]["link"].as_str().unwrap();
    let p1_token = p1_link.split("#player=").nth(1).unwrap();
    let (_, mine) = s
        .call(
            "GET",
            &format!("/api/tournaments/{id}"),
            Some(p1_token),
            None,
        )
        .await;
    let seat_link = mine["you"]["current"]["link"].as_str().unwrap();
    let seat_token = seat_link.split("#seat=").nth(1).unwrap();
    let m = board["match"].as_str().unwrap();
    let (status, answer) = s.join_token(m, seat_token, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // Sixty seconds later: board 0 to p1 (p2 absent), board 1 a draw (both absent).
    s.clock.advance(60_000);
    let view = wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][0]["complete"] == true
    })
    .await;
    let b0 = &view["rounds"][0]["boards"][0];
    assert_eq!(b0["result"], "p1");
    assert_eq!(b0["how"], json!({"kind": "no_show", "absent": ["p2"]}));
    assert_eq!(view["rounds"][0]["boards"][1]["result"], "draw");
    // Round 2 is paired at once (auto rounds); undoing a forfeit then is
    // `a_forfeit_is_undone_after_the_next_round_was_paired_until_a_game_of_it_starts`.
    wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"].as_array().unwrap().len() == 2
    })
    .await;
    let undo = format!("/api/tournaments/{id}/undo_forfeit");
    s.clock.advance(60_000);
    wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][1]["complete"] == true
    })
    .await;
    // The tournament is over once round 2 is complete: actions are refused.
    let view = wait_for(&s, &id, Some(&admin), |v| v["status"] == "finished").await;
    let (status, _) = s
        .call(
            "POST",
            &undo,
            Some(&admin),
            Some(json!({"round": 1, "board": 0})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let log = view["log"].as_array().unwrap();
    assert!(log
        .iter()
        .any(|e| e["type"] == "result" && e["how"]["kind"] == "no_show"));
    assert!(
        !view["log"].to_string().contains(seat_token),
        "the log shows no token"
    );
}

#[tokio::test]
async fn the_host_undoes_a_forfeit_adjudicates_and_replaces_a_player() {
    let s = server();
    let (_, created) = create(
        &s,
        json!({"name": "Host", "game": "goofspiel", "format": {"kind": "single_elimination"},
               "players": [{"name": "Ann"}, {"name": "Bo"}], "no_show_s": 30}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    wait_for(&s, &id, None, |v| {
        v["rounds"][0]["boards"][0]["match"].is_string()
    })
    .await;
    s.clock.advance(30_000);
    let view = wait_for(&s, &id, None, |v| v["rounds"][0]["complete"] == true).await;
    // Both absent in a bracket: the advantage holder (equal garnets: p1) goes through.
    assert_eq!(view["rounds"][0]["boards"][0]["result"], "p1");
    let action = |name: &str| format!("/api/tournaments/{id}/{name}");
    // The final is the only round, so the tournament ended; make a longer one for the powers.
    assert_eq!(view["status"], "finished");
    let (status, _) = s
        .call(
            "POST",
            &action("adjudicate"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0, "result": "p2", "reason": "late"})),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "a finished tournament takes no action"
    );

    let (_, created) = create(
        &s,
        json!({"name": "Host 2", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 1},
               "players": [{"name": "Ann"}, {"name": "Bo"}], "no_show_s": 30}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let action = |name: &str| format!("/api/tournaments/{id}/{name}");
    wait_for(&s, &id, None, |v| {
        v["rounds"][0]["boards"][0]["match"].is_string()
    })
    .await;
    // Garnets and a replacement before the forfeit.
    let (status, answer) = s
        .call(
            "POST",
            &action("garnets"),
            Some(&admin),
            Some(json!({"player": 1, "garnets": 7})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, answer) = s
        .call(
            "POST",
            &action("garnets"),
            Some(&admin),
            Some(json!({"player": 9, "garnets": 7})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        message(&answer).contains("players count from 0 to 1"),
        "{answer}"
    );
    let (status, answer) = s
        .call(
            "POST",
            &action("replace"),
            Some(&admin),
            Some(json!({"player": 0, "name": "Zed"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer["link"].as_str().unwrap().contains("#player="));
    let (_, view) = s
        .call("GET", &format!("/api/tournaments/{id}"), Some(&admin), None)
        .await;
    assert_eq!(view["players"][0]["name"], "Zed");
    assert_eq!(view["players"][1]["garnets"], 7);
    let replaced = view["log"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "replaced")
        .unwrap();
    assert_eq!(replaced["was"], "Ann");
    // A forfeit, undone: the match goes on and no-shows no longer end it.
    s.clock.advance(30_000);
    wait_for(&s, &id, None, |v| {
        v["rounds"][0]["complete"] == true && v["status"] == "finished"
    })
    .await;
    // (A one-round Swiss ends with its round; undo is refused once over.)
    let (status, _) = s
        .call(
            "POST",
            &action("undo_forfeit"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);

    // Manual rounds keep the tournament open between rounds: undo, then adjudicate.
    let (_, created) = create(
        &s,
        json!({"name": "Host 3", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 2},
               "players": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}, {"name": "Dee"}],
               "no_show_s": 30, "auto_rounds": false}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let action = |name: &str| format!("/api/tournaments/{id}/{name}");
    let (status, answer) = s.call("POST", &action("start"), Some(&admin), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    wait_for(&s, &id, None, |v| {
        v["rounds"][0]["boards"][1]["match"].is_string()
    })
    .await;
    let (status, answer) = s
        .call(
            "POST",
            &action("undo_forfeit"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0})),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "not forfeited yet: {answer}"
    );
    let (status, answer) = s.call("POST", &action("crown"), Some(&admin), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert!(message(&answer).contains("start, garnets, adjudicate, undo_forfeit, replace"));
    s.clock.advance(30_000);
    wait_for(&s, &id, None, |v| v["rounds"][0]["complete"] == true).await;
    let (status, answer) = s
        .call(
            "POST",
            &action("undo_forfeit"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // The match goes on: later no-shows do not end it again.
    s.clock.advance(60_000);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, view) = s
        .call("GET", &format!("/api/tournaments/{id}"), None, None)
        .await;
    assert!(view["rounds"][0]["boards"][0]["result"].is_null(), "{view}");
    // The next round waits for it.
    let (status, answer) = s.call("POST", &action("start"), Some(&admin), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert!(message(&answer).contains("1 game unfinished"), "{answer}");
    let (status, answer) = s
        .call(
            "POST",
            &action("adjudicate"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0, "result": "p2"})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&answer).contains("reason"), "{answer}");
    let (status, answer) = s
        .call(
            "POST",
            &action("adjudicate"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0, "result": "p2", "reason": "p1 left the server"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, answer) = s.call("POST", &action("start"), Some(&admin), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, view) = s
        .call("GET", &format!("/api/tournaments/{id}"), Some(&admin), None)
        .await;
    let board = &view["rounds"][0]["boards"][0];
    assert_eq!(board["result"], "p2");
    assert_eq!(
        board["how"],
        json!({"kind": "adjudicated", "reason": "p1 left the server"})
    );
    let kinds: Vec<&str> = view["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"result_undone"), "{kinds:?}");
    assert!(view["log"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["how"]["reason"] == "p1 left the server"));
    assert_eq!(view["rounds"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_tournament_is_rebuilt_from_the_store() {
    let (_dir, path) = temp_db("tournament-rebuild", "t.db");
    let id;
    let before;
    {
        let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
        let players: Vec<Value> = (0..6)
            .map(|i| json!({"name": format!("P{i}"), "bot": "random", "garnets": i}))
            .collect();
        let (status, created) = create(&s, json!({"name": "Again", "game": "goofspiel",
            "options": {"cards": "4"}, "time": {"kind": "untimed"},
            "format": {"kind": "round_robin", "double": true}, "players": players, "auto_rounds": false})).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        id = created["id"].as_str().unwrap().to_string();
        let admin = created["admin_token"].as_str().unwrap().to_string();
        // Manual rounds: the host starts round 1; it is played by the bots.
        let (status, answer) = s
            .call(
                "POST",
                &format!("/api/tournaments/{id}/start"),
                Some(&admin),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let (status, answer) = s
            .call(
                "POST",
                &format!("/api/tournaments/{id}/start"),
                Some(&admin),
                None,
            )
            .await;
        assert!(status == StatusCode::CONFLICT, "{answer}");
        before = wait_for(&s, &id, None, |v| v["rounds"][0]["complete"] == true).await;
        assert_eq!(
            before["rounds"].as_array().unwrap().len(),
            1,
            "manual: no round 2 yet"
        );
    }
    let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
    assert!(s.state.tournaments.resume().await.unwrap() >= 1);
    let (_, after) = s
        .call("GET", &format!("/api/tournaments/{id}"), None, None)
        .await;
    assert_eq!(after["rounds"], before["rounds"]);
    assert_eq!(after["standings"], before["standings"]);
    assert_eq!(after["rounds_planned"], 10);
}

#[tokio::test]
async fn the_host_pauses_gives_time_and_adjudicates_a_match_in_its_own_log() {
    let s = server();
    let (_, created) = create(
        &s,
        json!({"name": "Powers", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 1},
               "players": [{"name": "Ann"}, {"name": "Bo"}]}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let action = |name: &str| format!("/api/tournaments/{id}/{name}");
    let at = json!({"round": 0, "board": 0});
    wait_for(&s, &id, None, |v| {
        v["rounds"][0]["boards"][0]["match"].is_string()
    })
    .await;
    // Not before both have joined.
    let (status, answer) = s
        .call("POST", &action("pause"), Some(&admin), Some(at.clone()))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["error"]["code"], "not_started");
    let mut seats = Vec::new();
    for p in created["links"]["players"].as_array().unwrap() {
        let token = p["link"]
            .as_str()
            .unwrap()
            .split("#player=")
            .nth(1)
            .unwrap()
            .to_string();
        let (_, mine) = s
            .call("GET", &format!("/api/tournaments/{id}"), Some(&token), None)
            .await;
        let link = mine["you"]["current"]["link"].as_str().unwrap().to_string();
        let (m, seat_token) = link.trim_start_matches("/m/").split_once("#seat=").unwrap();
        let (status, answer) = s.join_token(m, seat_token, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        seats.push((m.to_string(), seat_token.to_string()));
    }
    for (m, seat_token) in &seats {
        s.reveal_token(m, seat_token).await;
    }
    let (m, t1) = seats[0].clone();
    let (status, answer) = s
        .call("POST", &action("pause"), Some(&admin), Some(at.clone()))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, st) = s
        .call("GET", &format!("/api/matches/{m}"), None, None)
        .await;
    assert_eq!(st["paused"], true);
    let (status, answer) = s
        .call(
            "POST",
            &format!("/api/matches/{m}/submit"),
            Some(&t1),
            Some(json!({"move": "1", "decision": st["decision"]})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(answer["error"]["code"], "paused", "{answer}");
    let (status, answer) = s
        .call("POST", &action("pause"), Some(&admin), Some(at.clone()))
        .await;
    assert_eq!(answer["error"]["code"], "paused", "{answer}");
    assert_eq!(status, StatusCode::CONFLICT);
    // A player's token is not the host's.
    let (status, _) = s
        .call("POST", &action("resume"), Some(&t1), Some(at.clone()))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    s.clock.advance(10_000);
    let (status, answer) = s
        .call("POST", &action("resume"), Some(&admin), Some(at.clone()))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let before = s
        .call("GET", &format!("/api/matches/{m}"), None, None)
        .await
        .1;
    let deadline = before["match"]["seats"]["p2"]["clock"]["deadline"]
        .as_u64()
        .unwrap();
    let (status, answer) = s
        .call(
            "POST",
            &action("give_time"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0, "seat": "p2", "seconds": 30})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let after = s
        .call("GET", &format!("/api/matches/{m}"), None, None)
        .await
        .1;
    assert_eq!(
        after["match"]["seats"]["p2"]["clock"]["deadline"]
            .as_u64()
            .unwrap(),
        deadline + 30_000
    );
    let (status, answer) = s
        .call(
            "POST",
            &action("give_time"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0, "seat": "p3", "seconds": 30})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    // Adjudicated: the match ends with the host's reason in its own result.
    let (status, answer) = s
        .call(
            "POST",
            &action("adjudicate"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0, "result": "p1", "reason": "p2 conceded in chat"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, st) = s
        .call("GET", &format!("/api/matches/{m}"), None, None)
        .await;
    assert_eq!(st["status"], "finished");
    assert_eq!(st["match"]["result"]["by"], "adjudicated");
    assert!(st["match"]["result"]["reason"]
        .as_str()
        .unwrap()
        .contains("p2 conceded in chat"));
    let view = wait_for(&s, &id, Some(&admin), |v| v["status"] == "finished").await;
    let powers: Vec<&str> = view["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "host_power")
        .map(|e| e["power"].as_str().unwrap())
        .collect();
    assert_eq!(powers, ["pause", "resume", "30 s to p2"]);
    assert_eq!(view["rounds"][0]["boards"][0]["how"]["kind"], "adjudicated");
}

#[tokio::test]
async fn a_swiss_states_the_pairing_rules_of_the_pairing_code() {
    let s = server();
    let (status, created) = create(
        &s,
        json!({"name": "Rules", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 2},
               "players": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}], "start": false}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let (status, view) = s
        .call("GET", &format!("/api/tournaments/{id}"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        view["pairing_rules"],
        json!(colosseum_tournament::swiss::RULES),
        "{view}"
    );
    let (_, created) = create(
        &s,
        json!({"name": "Cycle", "game": "goofspiel", "format": {"kind": "round_robin"},
               "players": [{"name": "Ann"}, {"name": "Bo"}], "start": false}),
    )
    .await;
    let (_, view) = s
        .call(
            "GET",
            &format!("/api/tournaments/{}", created["id"].as_str().unwrap()),
            None,
            None,
        )
        .await;
    assert!(view["pairing_rules"].is_null(), "{view}");
}

/// A seat that joined (committing to its client seed) but never revealed it when both seats had
/// committed keeps the match from starting: at the no-show time it is the absent one.
#[tokio::test]
async fn a_seat_that_never_reveals_its_client_seed_is_a_no_show() {
    let s = server();
    let (_, created) = create(
        &s,
        json!({"name": "Reveal", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 1},
               "players": [{"name": "Ann"}, {"name": "Bo"}], "no_show_s": 60}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][0]["boards"][0]["match"].is_string()
    })
    .await;
    // Each player finds their seat and joins with the hash of a client seed.
    let mut seats = Vec::new();
    for p in created["links"]["players"].as_array().unwrap() {
        let token = p["link"]
            .as_str()
            .unwrap()
            .split("#player=")
            .nth(1)
            .unwrap();
        let (_, mine) = s
            .call("GET", &format!("/api/tournaments/{id}"), Some(token), None)
            .await;
        let link = mine["you"]["current"]["link"].as_str().unwrap().to_string();
        let (m, seat_token) = link.trim_start_matches("/m/").split_once("#seat=").unwrap();
        let (status, answer) = s.join_token(m, seat_token, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        seats.push((m.to_string(), seat_token.to_string(), answer["you"].clone()));
    }
    // Only p1 reveals.
    let (m, p1_token, _) = seats.iter().find(|s| s.2 == "p1").unwrap().clone();
    s.reveal_token(&m, &p1_token).await;
    let state = s.state(&m, None).await;
    assert_eq!(state["status"], "waiting", "{state}");
    assert_eq!(state["fairness"]["reveal_due"], true);
    s.clock.advance(60_000);
    let view = wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][0]["complete"] == true
    })
    .await;
    let board = &view["rounds"][0]["boards"][0];
    assert_eq!(board["result"], "p1", "{board}");
    assert_eq!(board["how"], json!({"kind": "no_show", "absent": ["p2"]}));
}

/// The personal token of player `name` (from the host's view).
fn player_token(view: &Value, name: &str) -> String {
    view["links"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .and_then(|p| p["link"].as_str())
        .and_then(|l| l.split("#player=").nth(1))
        .unwrap_or_else(|| panic!("no link for {name}: {view}"))
        .to_string()
}

/// Round 1 is played by bots under their roster names; Cy is replaced by Zed: round 1's board
/// still reads Cy, Cy's result stays Cy's line in the standings and Zed starts fresh; the page
/// data and the log show the change; with host-started rounds the tournament finishes after
/// its last round without another start.
#[tokio::test]
async fn a_replacement_keeps_history_and_a_host_started_tournament_finishes() {
    let s = server();
    let bots = ["Ann", "Cy", "Mia", "Bo"].map(|n| json!({"name": n, "bot": "random"}));
    let (status, created) = create(
        &s,
        json!({"name": "History", "game": "goofspiel", "options": {"cards": "3"},
               "format": {"kind": "swiss", "rounds": 2}, "players": bots, "auto_rounds": false}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let action = |name: &str| format!("/api/tournaments/{id}/{name}");
    let view = wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][0]["complete"] == true
    })
    .await;
    let boards = view["rounds"][0]["boards"].as_array().unwrap().clone();
    let cy_board = boards
        .iter()
        .position(|b| b["p1"]["name"] == "Cy" || b["p2"]["name"] == "Cy")
        .expect("Cy plays round 1");
    let before = format!(
        "{} v {}",
        boards[cy_board]["p1"]["name"].as_str().unwrap(),
        boards[cy_board]["p2"]["name"].as_str().unwrap()
    );
    // The bots play under their names in the tournament (the match's own names).
    let m = boards[cy_board]["match"].as_str().unwrap();
    let (status, replay) = s
        .call("GET", &format!("/api/matches/{m}/replay"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    let names = [&replay["names"]["p1"], &replay["names"]["p2"]];
    assert!(names.contains(&&json!("Cy")), "{replay}");
    assert!(
        !replay["names"].to_string().contains("bot random"),
        "{replay}"
    );
    let cy_line = |v: &Value, name: &str| {
        v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no line for {name}: {}", v["standings"]))
    };
    let games = |l: &Value| {
        l["wins"].as_u64().unwrap() + l["draws"].as_u64().unwrap() + l["losses"].as_u64().unwrap()
    };
    let cy_points = cy_line(&view, "Cy")["points"].clone();
    let (status, answer) = s
        .call(
            "POST",
            &action("replace"),
            Some(&admin),
            Some(json!({"player": 1, "name": "Zed", "bot": "random"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, view) = s
        .call("GET", &format!("/api/tournaments/{id}"), Some(&admin), None)
        .await;
    let b = &view["rounds"][0]["boards"][cy_board];
    assert_eq!(
        format!(
            "{} v {}",
            b["p1"]["name"].as_str().unwrap(),
            b["p2"]["name"].as_str().unwrap()
        ),
        before,
        "round 1 keeps who played it"
    );
    assert_eq!(view["players"][1]["name"], "Zed");
    assert_eq!(view["players"][1]["replaced"][0]["name"], "Cy");
    let cy = cy_line(&view, "Cy");
    assert_eq!(cy["points"], cy_points);
    assert_eq!(games(&cy), 1);
    assert_eq!(cy["replaced_by"], "Zed");
    let zed = cy_line(&view, "Zed");
    assert_eq!((zed["points"].as_f64(), games(&zed)), (Some(0.0), 0));
    assert!(view["log"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["type"] == "replaced" && e["was"] == "Cy" && e["by"]["name"] == "Zed"));
    assert_eq!(view["tie_breaks"], json!(["buchholz", "sonneborn_berger"]));
    let (_, exported) = s
        .call(
            "GET",
            &format!("/api/tournaments/{id}/standings.json"),
            None,
            None,
        )
        .await;
    assert_eq!(exported["tie_breaks"], view["tie_breaks"]);
    assert_eq!(exported["standings"], view["standings"]);
    // The last round, started by the host: the tournament finishes on its own after it.
    let (status, answer) = s.call("POST", &action("start"), Some(&admin), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let view = wait_for(&s, &id, Some(&admin), |v| v["status"] == "finished").await;
    assert_eq!(view["rounds"].as_array().unwrap().len(), 2);
    assert!(view["log"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["type"] == "finished"));
    let (cy, zed) = (cy_line(&view, "Cy"), cy_line(&view, "Zed"));
    assert_eq!((games(&cy), games(&zed)), (1, 1), "{}", view["standings"]);
    assert_eq!(view["standings"].as_array().unwrap().len(), 5);
}

/// With automatic rounds the last forfeit of a round and the next round's pairing come
/// together; the host can still take the forfeit back while no game of the next round has
/// started: the next round is withdrawn and paired again. Once one of its games has started,
/// it is refused.
#[tokio::test]
async fn a_forfeit_is_undone_after_the_next_round_was_paired_until_a_game_of_it_starts() {
    let s = server();
    let (_, created) = create(
        &s,
        json!({"name": "Undo", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 3},
               "players": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}, {"name": "Dee"}],
               "no_show_s": 60}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let action = |name: &str| format!("/api/tournaments/{id}/{name}");
    wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][0]["boards"]
            .as_array()
            .is_some_and(|b| b.iter().all(|b| b["match"].is_string()))
    })
    .await;
    s.clock.advance(60_000);
    let view = wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"].as_array().unwrap().len() == 2
            && v["rounds"][1]["boards"]
                .as_array()
                .is_some_and(|b| b.iter().all(|b| b["match"].is_string()))
    })
    .await;
    assert_eq!(view["rounds"][0]["complete"], true);
    let (status, answer) = s
        .call(
            "POST",
            &action("undo_forfeit"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, view) = s
        .call("GET", &format!("/api/tournaments/{id}"), Some(&admin), None)
        .await;
    assert_eq!(view["rounds"].as_array().unwrap().len(), 1, "{view}");
    assert!(view["rounds"][0]["boards"][0]["result"].is_null());
    let kinds: Vec<&str> = view["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert!(
        kinds.ends_with(&["round_withdrawn", "result_undone"]),
        "{kinds:?}"
    );
    // The host settles the game: round 2 is paired again.
    let (status, answer) = s
        .call(
            "POST",
            &action("adjudicate"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0, "result": "p1", "reason": "p2 left"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let view = wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"].as_array().unwrap().len() == 2
            && v["rounds"][1]["boards"]
                .as_array()
                .is_some_and(|b| b.iter().all(|b| b["match"].is_string()))
    })
    .await;
    // Both players of round 2's first game join it: the game has started.
    let b = &view["rounds"][1]["boards"][0];
    let m = b["match"].as_str().unwrap();
    let mut seat_tokens = Vec::new();
    for seat in ["p1", "p2"] {
        let token = player_token(&view, b[seat]["name"].as_str().unwrap());
        let (_, mine) = s
            .call("GET", &format!("/api/tournaments/{id}"), Some(&token), None)
            .await;
        let link = mine["you"]["current"]["link"].as_str().unwrap();
        let seat_token = link.split("#seat=").nth(1).unwrap();
        let (status, answer) = s.join_token(m, seat_token, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        seat_tokens.push(seat_token.to_string());
    }
    for token in &seat_tokens {
        s.reveal_token(m, token).await;
    }
    let (status, answer) = s
        .call(
            "POST",
            &action("undo_forfeit"),
            Some(&admin),
            Some(json!({"round": 0, "board": 1})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert!(
        message(&answer).contains("a game of the next round has started"),
        "{answer}"
    );
}

/// With host-started rounds the tournament is over once its last round is complete: the host
/// need not press start again.
#[tokio::test]
async fn a_host_started_tournament_finishes_after_its_last_round() {
    let s = server();
    let bots = ["Ann", "Rex"].map(|n| json!({"name": n, "bot": "random"}));
    let (status, created) = create(
        &s,
        json!({"name": "Manual", "game": "goofspiel", "options": {"cards": "3"},
               "format": {"kind": "round_robin"}, "players": bots, "auto_rounds": false}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let view = wait_for(&s, &id, None, |v| {
        v["rounds"][0]["complete"] == true && v["status"] != "playing"
    })
    .await;
    assert_eq!(view["status"], "finished");
    assert_eq!(view["rounds"].as_array().unwrap().len(), 1);
}

/// The seat link (`/m/ID#seat=TOKEN`) of the player whose personal token is `token`, split.
async fn current_seat(s: &Server, id: &str, token: &str) -> Option<(String, String)> {
    let (_, mine) = s
        .call("GET", &format!("/api/tournaments/{id}"), Some(token), None)
        .await;
    let link = mine["you"]["current"]["link"].as_str()?;
    let (m, seat) = link.trim_start_matches("/m/").split_once("#seat=")?;
    Some((m.to_string(), seat.to_string()))
}

/// A replacement applies from the next game: Cy's game of the current round, made for Cy but
/// not started (only the opponent joined), gets a new table for Zed, with Zed's seat token and
/// name, its no-show time counted afresh; the opponent's link follows. A game already started
/// (Dee's) stays who started it: Eve plays from the next round. The log and the page data say
/// so. (Before: the game stayed Cy's and Zed had no current table.)
#[tokio::test]
async fn a_replacement_takes_over_the_current_rounds_game_that_has_not_started() {
    let s = server();
    let (status, created) = create(
        &s,
        json!({"name": "Next", "game": "goofspiel", "options": {"cards": "3"},
               "format": {"kind": "round_robin"},
               "players": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}, {"name": "Dee"}]}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let action = |name: &str| format!("/api/tournaments/{id}/{name}");
    let view = wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][0]["boards"]
            .as_array()
            .is_some_and(|b| b.iter().all(|b| b["match"].is_string()))
    })
    .await;
    let boards = view["rounds"][0]["boards"].as_array().unwrap().clone();
    let names = |b: &Value| [b["p1"]["name"].clone(), b["p2"]["name"].clone()];
    let cy_board = boards
        .iter()
        .position(|b| names(b).contains(&json!("Cy")))
        .unwrap();
    let dee_board = 1 - cy_board;
    let cy_opponent = names(&boards[cy_board])
        .into_iter()
        .find(|n| n != "Cy")
        .unwrap();
    let old_match = boards[cy_board]["match"].as_str().unwrap().to_string();
    // Cy's opponent sits down; Cy does not come.
    let opponent_token = player_token(&view, cy_opponent.as_str().unwrap());
    let (m, seat) = current_seat(&s, &id, &opponent_token).await.unwrap();
    assert_eq!(m, old_match);
    let (status, answer) = s.join_token(&m, &seat, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // Dee's game starts.
    let dee_match = boards[dee_board]["match"].as_str().unwrap().to_string();
    let mut seats = Vec::new();
    for n in names(&boards[dee_board]) {
        let token = player_token(&view, n.as_str().unwrap());
        let (m, seat) = current_seat(&s, &id, &token).await.unwrap();
        let (status, answer) = s.join_token(&m, &seat, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        seats.push(seat);
    }
    for seat in &seats {
        s.reveal_token(&dee_match, seat).await;
    }
    assert_eq!(s.state(&dee_match, None).await["status"], "live");
    s.clock.advance(50_000);
    let replace = |place: usize, name: &str| {
        let (s, path, admin) = (&s, action("replace"), admin.clone());
        let body = json!({"player": place, "name": name});
        async move { s.call("POST", &path, Some(&admin), Some(body)).await }
    };
    let (status, answer) = replace(2, "Zed").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let zed = answer["link"]
        .as_str()
        .unwrap()
        .split("#player=")
        .nth(1)
        .unwrap()
        .to_string();
    let view = wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][0]["boards"][cy_board]["match"]
            .as_str()
            .is_some_and(|m| m != old_match)
    })
    .await;
    let b = &view["rounds"][0]["boards"][cy_board];
    assert!(names(b).contains(&json!("Zed")), "{b}");
    assert!(names(b).contains(&cy_opponent), "{b}");
    assert!(view["log"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["type"] == "match_remade" && e["round"] == 0 && e["board"] == cy_board));
    // Zed's current game is the new table, with Zed's own seat token; the opponent's link
    // follows it.
    let new_match = b["match"].as_str().unwrap().to_string();
    let (m, zed_seat) = current_seat(&s, &id, &zed)
        .await
        .expect("Zed has a current table");
    assert_eq!(m, new_match);
    let (m, opponent_seat) = current_seat(&s, &id, &opponent_token).await.unwrap();
    assert_eq!(m, new_match);
    for seat in [&zed_seat, &opponent_seat] {
        let (status, answer) = s.join_token(&new_match, seat, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    for seat in [&zed_seat, &opponent_seat] {
        s.reveal_token(&new_match, seat).await;
    }
    let st = s.state(&new_match, None).await;
    assert_eq!(st["status"], "live", "{st}");
    assert!(st.to_string().contains("\"Zed\""), "{st}");
    // The no-show time (none here) aside, the new game is played to its end for Zed.
    // A started game stays its players': Eve replaces Dee from the next round.
    let (status, answer) = replace(3, "Eve").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let eve = answer["link"]
        .as_str()
        .unwrap()
        .split("#player=")
        .nth(1)
        .unwrap()
        .to_string();
    let (_, view) = s
        .call("GET", &format!("/api/tournaments/{id}"), Some(&admin), None)
        .await;
    let b = &view["rounds"][0]["boards"][dee_board];
    assert_eq!(b["match"], json!(dee_match));
    assert!(names(b).contains(&json!("Dee")), "{b}");
    assert_eq!(
        view["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "match_remade")
            .count(),
        1
    );
    assert!(current_seat(&s, &id, &eve).await.is_none());
}

/// A small receiver of webhook posts (Slack's JSON) on loopback: what it got, as text.
async fn post_receiver() -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use axum::routing::post;
    let got = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let into = got.clone();
    let app = axum::Router::new().route(
        "/hook",
        post(move |body: axum::body::Bytes| {
            let into = into.clone();
            async move {
                into.lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&body).into_owned());
                StatusCode::NO_CONTENT
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/hook"), got)
}

/// The host adjudicates a started game: the match's own webhook posts its result (and the
/// host's action); the tournament does not post the same result again, and still posts the
/// standings. (Before: the result was announced twice, by the match and by the tournament.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adjudicated_game_is_announced_once() {
    let hosts: &'static [String] = Box::leak(vec!["127.0.0.1".to_string()].into_boxed_slice());
    let s = common::server_with(colosseum_server::Limits {
        webhook_hosts: hosts,
        webhook_allow_private: true,
        webhook_slack_pace_ms: 10,
        ..open_limits()
    });
    let (url, got) = post_receiver().await;
    let (status, created) = create(
        &s,
        json!({"name": "Once", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 1},
               "players": [{"name": "Ann"}, {"name": "Bo"}],
               "webhook": {"url": url, "format": "slack"}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let view = wait_for(&s, &id, Some(&admin), |v| {
        v["rounds"][0]["boards"][0]["match"].is_string()
    })
    .await;
    let m = view["rounds"][0]["boards"][0]["match"]
        .as_str()
        .unwrap()
        .to_string();
    let mut seats = Vec::new();
    for name in ["Ann", "Bo"] {
        let (_, seat) = current_seat(&s, &id, &player_token(&view, name))
            .await
            .unwrap();
        let (status, answer) = s.join_token(&m, &seat, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        seats.push(seat);
    }
    for seat in &seats {
        s.reveal_token(&m, seat).await;
    }
    let (status, answer) = s
        .call(
            "POST",
            &format!("/api/tournaments/{id}/adjudicate"),
            Some(&admin),
            Some(json!({"round": 0, "board": 0, "result": "p1", "reason": "Bo conceded in chat"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let result = "adjudicated by the host: Bo conceded in chat";
    let mut texts = Vec::new();
    for _ in 0..300 {
        texts = got.lock().unwrap().clone();
        if texts.iter().any(|t| t.contains("final standings"))
            && texts.iter().any(|t| t.contains(result))
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        texts.iter().any(|t| t.contains("final standings")),
        "{texts:#?}"
    );
    // Anything else queued arrives meanwhile.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let texts = got.lock().unwrap().clone();
    assert_eq!(
        texts.iter().filter(|t| t.contains(result)).count(),
        1,
        "the result is posted once: {texts:#?}"
    );
}

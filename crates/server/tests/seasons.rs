//! Seasons through the router: a roster, two tournaments of the season whose games carry the
//! players' Glicko-2 ratings over from one to the next, a rated casual match between two roster
//! players, bad requests, tokens, and a rebuild from the SQLite file.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use colosseum_server::SqliteStore;
use colosseum_tournament::rating::{rate_game, Rating};
use colosseum_tournament::Outcome;
use common::{open_limits, server, server_on_store, temp_db, Server};
use serde_json::{json, Value};

fn message(v: &Value) -> String {
    v["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The season's view, as `token` sees it.
async fn season(s: &Server, id: &str, token: Option<&str>) -> Value {
    let (status, v) = s
        .call("GET", &format!("/api/seasons/{id}"), token, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// Waits (real time: drivers and watchers poll) until `done` holds of `uri`'s answer.
async fn wait_for(
    s: &Server,
    uri: &str,
    token: Option<&str>,
    done: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..200 {
        let (status, v) = s.call("GET", uri, token, None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if done(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{uri} did not get there");
}

/// A player's row in a game's ratings table, as a `Rating` (the view rounds to 0.1).
fn row<'a>(view: &'a Value, game: &str, name: &str) -> &'a Value {
    view["ratings"][game]
        .as_array()
        .unwrap_or_else(|| panic!("no {game} ratings: {view}"))
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("{name} not rated in {game}: {view}"))
}

fn close(row: &Value, r: Rating) {
    let got = row["rating"].as_f64().unwrap();
    let rd = row["deviation"].as_f64().unwrap();
    assert!((got - r.rating).abs() < 0.051, "{row} against {r:?}");
    assert!((rd - r.deviation).abs() < 0.051, "{row} against {r:?}");
}

/// The season's host adjudicates every board of a tournament's round (`results` in board
/// order), once its matches exist.
async fn adjudicate_round(s: &Server, id: &str, admin: &str, round: usize, results: &[&str]) {
    let uri = format!("/api/tournaments/{id}");
    wait_for(s, &uri, None, |v| {
        v["rounds"][round]["boards"]
            .as_array()
            .is_some_and(|b| b.iter().all(|b| b["match"].is_string()))
    })
    .await;
    for (board, result) in results.iter().enumerate() {
        let (status, v) = s
            .call(
                "POST",
                &format!("/api/tournaments/{id}/adjudicate"),
                Some(admin),
                Some(json!({"round": round, "board": board, "result": result, "reason": "agreed"})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
}

#[tokio::test]
async fn bad_requests_say_what_is_wrong() {
    let s = server();
    let (status, v) = s
        .call("POST", "/api/seasons", None, Some(json!({"name": ""})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&v).contains("1 to 80 characters"), "{v}");
    let (status, v) = s
        .call(
            "POST",
            "/api/seasons",
            None,
            Some(json!({"name": "S", "players": ["Ann", "ann"]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&v).contains("on the roster already"), "{v}");
    let (status, created) = s
        .call(
            "POST",
            "/api/seasons",
            None,
            Some(json!({"name": "S", "players": ["Ann", "Bo"]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let admin = created["admin_token"].as_str().unwrap();
    let ann = created["links"]["players"][0]["link"]
        .as_str()
        .unwrap()
        .split("#player=")
        .nth(1)
        .unwrap()
        .to_string();
    // Only the host adds players; a player's token is not enough.
    let players = format!("/api/seasons/{id}/players");
    let (status, _) = s
        .call("POST", &players, Some(&ann), Some(json!({"name": "Cy"})))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, v) = s.call("POST", &players, Some(admin), Some(json!({}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&v).contains("give `name`"), "{v}");
    // A season's tournament: the season's host creates it, from the roster (registration by
    // link: see the test below).
    let tournament = |extra: Value| {
        let mut body = json!({"name": "T", "game": "goofspiel", "format": {"kind": "swiss", "rounds": 1},
            "season": id, "players": [{"season_player": 0}, {"season_player": 1}]});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let cases = [
        (
            None,
            tournament(json!({})),
            StatusCode::FORBIDDEN,
            "season's host",
        ),
        (
            Some(admin),
            tournament(json!({"players": [{"season_player": 0}, {"name": "Zed"}]})),
            StatusCode::BAD_REQUEST,
            "roster player",
        ),
        (
            Some(admin),
            tournament(json!({"players": [{"season_player": 0}, {"season_player": 7}]})),
            StatusCode::BAD_REQUEST,
            "no player 7",
        ),
        (
            Some(admin),
            tournament(json!({"players": [{"season_player": 0}, {"season_player": 0}]})),
            StatusCode::BAD_REQUEST,
            "entered twice",
        ),
        (
            Some(admin),
            tournament(json!({"season": "nosuchseason"})),
            StatusCode::NOT_FOUND,
            "no season",
        ),
    ];
    for (token, body, want, text) in cases {
        let (status, v) = s
            .call("POST", "/api/tournaments", token, Some(body.clone()))
            .await;
        assert_eq!(status, want, "{body}: {v}");
        assert!(message(&v).contains(text), "{body}: {v}");
    }
    // A rated match: by a roster player, against another.
    let matches = format!("/api/seasons/{id}/matches");
    let (status, _) = s
        .call(
            "POST",
            &matches,
            Some(admin),
            Some(json!({"game": "goofspiel", "opponent": 1})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, v) = s
        .call(
            "POST",
            &matches,
            Some(&ann),
            Some(json!({"game": "goofspiel", "opponent": 0})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&v).contains("another player of the roster"), "{v}");
    let (status, v) = s
        .call(
            "POST",
            &matches,
            Some(&ann),
            Some(json!({"game": "chess", "opponent": 1})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(message(&v).contains("chess"), "{v}");
    // A wrong token is refused; a spectator sees no token.
    let (status, _) = s
        .call("GET", &format!("/api/seasons/{id}"), Some("nope"), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let public = season(&s, id, None).await;
    assert!(!public.to_string().contains(admin));
    assert!(!public.to_string().contains(&ann));
    assert!(public["links"].is_null());
}

#[tokio::test]
async fn ratings_carry_over_between_tournaments_and_rated_matches_and_survive_a_restart() {
    let (_dir, path) = temp_db("seasons", "s.db");
    let id;
    let before;
    {
        let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
        let (status, created) = s
            .call(
                "POST",
                "/api/seasons",
                None,
                Some(json!({"name": "Season 1", "players": ["Ann", "Bo", "Cy"]})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        id = created["id"].as_str().unwrap().to_string();
        let admin = created["admin_token"].as_str().unwrap().to_string();
        let (status, added) = s
            .call(
                "POST",
                &format!("/api/seasons/{id}/players"),
                Some(&admin),
                Some(json!({"name": "Dee"})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{added}");
        assert_eq!(added["players"][0]["player"], 3);
        let dee = added["players"][0]["link"]
            .as_str()
            .unwrap()
            .split("#player=")
            .nth(1)
            .unwrap()
            .to_string();
        let cy = created["links"]["players"][2]["link"]
            .as_str()
            .unwrap()
            .split("#player=")
            .nth(1)
            .unwrap()
            .to_string();

        // Tournament 1: a Swiss round; Ann beats Bo, Cy and Dee draw (the host's results).
        let (status, t1) = s
            .call(
                "POST",
                "/api/tournaments",
                Some(&admin),
                Some(json!({"name": "Week 1", "game": "goofspiel", "season": id,
                    "format": {"kind": "swiss", "rounds": 1},
                    "players": [{"season_player": 0}, {"season_player": 2}, {"season_player": 1}, {"season_player": 3}]})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{t1}");
        let t1_id = t1["id"].as_str().unwrap().to_string();
        let t1_admin = t1["admin_token"].as_str().unwrap().to_string();
        let view = wait_for(&s, &format!("/api/tournaments/{t1_id}"), None, |v| {
            v["rounds"][0]["boards"].is_array()
        })
        .await;
        assert_eq!(view["season"]["id"], id.as_str());
        assert_eq!(view["players"][1]["name"], "Cy");
        assert_eq!(view["players"][1]["ratings"]["goofspiel"]["rating"], 1500.0);
        // Swiss round 1 of four: seeds 1 v 3 and 2 v 4 (Ann v Bo, Cy v Dee).
        let round = &view["rounds"][0]["boards"];
        let names: Vec<(&str, &str)> = round
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["p1"]["name"].as_str().unwrap(),
                    b["p2"]["name"].as_str().unwrap(),
                )
            })
            .collect();
        let ann_p1 = names.iter().position(|n| *n == ("Ann", "Bo"));
        let ann_p2 = names.iter().position(|n| *n == ("Bo", "Ann"));
        assert!(ann_p1.is_some() || ann_p2.is_some(), "{names:?}");
        let results: Vec<&str> = names
            .iter()
            .map(|n| match *n {
                ("Ann", _) => "p1",
                (_, "Ann") => "p2",
                _ => "draw",
            })
            .collect();
        adjudicate_round(&s, &t1_id, &t1_admin, 0, &results).await;
        let fresh = Rating::default();
        let [ann1, bo1] = rate_game([fresh, fresh], Outcome::P1);
        let [cy1, dee1] = rate_game([fresh, fresh], Outcome::Draw);
        let v = wait_for(&s, &format!("/api/seasons/{id}"), None, |v| {
            v["ratings"]["goofspiel"]
                .as_array()
                .is_some_and(|r| r.len() == 4)
                && v["tournaments"][0]["status"] == "finished"
        })
        .await;
        close(row(&v, "goofspiel", "Ann"), ann1);
        close(row(&v, "goofspiel", "Bo"), bo1);
        close(row(&v, "goofspiel", "Cy"), cy1);
        close(row(&v, "goofspiel", "Dee"), dee1);
        assert_eq!(row(&v, "goofspiel", "Ann")["rank"], 1);
        assert_eq!(row(&v, "goofspiel", "Bo")["losses"], 1);
        assert_eq!(row(&v, "goofspiel", "Cy")["draws"], 1);
        assert_eq!(v["tournaments"][0]["id"], t1_id.as_str());
        assert_eq!(v["tournaments"][0]["status"], "finished");

        // Tournament 2: Bo and Ann again, played (Ann resigns); the ratings go on from
        // tournament 1's.
        let (status, t2) = s
            .call(
                "POST",
                "/api/tournaments",
                Some(&admin),
                Some(json!({"name": "Week 2", "game": "goofspiel", "season": id,
                    "format": {"kind": "single_elimination"},
                    "players": [{"season_player": 1}, {"season_player": 0}]})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{t2}");
        let t2_id = t2["id"].as_str().unwrap().to_string();
        let view = wait_for(&s, &format!("/api/tournaments/{t2_id}"), None, |v| {
            v["rounds"][0]["boards"][0]["match"].is_string()
        })
        .await;
        // The tournament's page shows each player's rating carried over.
        let ann_rating = view["players"][1]["ratings"]["goofspiel"]["rating"]
            .as_f64()
            .unwrap();
        assert!((ann_rating - ann1.rating).abs() < 0.051, "{view}");
        // Each player opens their seat from their tournament link and joins; Ann resigns.
        let mut seats = Vec::new();
        for p in t2["links"]["players"].as_array().unwrap() {
            let token = p["link"]
                .as_str()
                .unwrap()
                .split("#player=")
                .nth(1)
                .unwrap();
            let mine = s
                .call(
                    "GET",
                    &format!("/api/tournaments/{t2_id}"),
                    Some(token),
                    None,
                )
                .await
                .1;
            let link = mine["you"]["current"]["link"].as_str().unwrap().to_string();
            let (m, seat) = link.trim_start_matches("/m/").split_once("#seat=").unwrap();
            let (status, v) = s.join_token(m, seat, Value::Null).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            seats.push((m.to_string(), seat.to_string()));
        }
        for (m, seat) in &seats {
            s.reveal_token(m, seat).await;
        }
        let (m, ann_seat) = &seats[1];
        let (status, v) = s.post(m, "resign", ann_seat, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // Bo is p1 (first seed) and wins.
        let [bo2, ann2] = rate_game([bo1, ann1], Outcome::P1);
        let v = wait_for(&s, &format!("/api/seasons/{id}"), None, |v| {
            row(v, "goofspiel", "Bo")["games"] == 2
        })
        .await;
        close(row(&v, "goofspiel", "Ann"), ann2);
        close(row(&v, "goofspiel", "Bo"), bo2);
        assert_eq!(v["tournaments"].as_array().unwrap().len(), 2);

        // A rated casual match: Cy challenges Dee, who finds her seat on her season page;
        // Dee resigns.
        let (status, made) = s
            .call(
                "POST",
                &format!("/api/seasons/{id}/matches"),
                Some(&cy),
                Some(json!({"game": "goofspiel", "opponent": 3})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let m = made["match"].as_str().unwrap().to_string();
        let cy_seat = made["token"].as_str().unwrap().to_string();
        assert_eq!(made["link"], format!("/m/{m}#seat={cy_seat}"));
        let dees = season(&s, &id, Some(&dee)).await;
        let link = dees["you"]["matches"][0]["link"].as_str().unwrap();
        let dee_seat = link.split("#seat=").nth(1).unwrap().to_string();
        assert_eq!(dees["you"]["matches"][0]["opponent"], "Cy");
        assert_ne!(dee_seat, cy_seat);
        // Another player's page does not hold Dee's seat.
        assert!(!season(&s, &id, Some(&cy))
            .await
            .to_string()
            .contains(&dee_seat));
        for t in [&cy_seat, &dee_seat] {
            let (status, v) = s.join_token(&m, t, Value::Null).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        for t in [&cy_seat, &dee_seat] {
            s.reveal_token(&m, t).await;
        }
        let (status, v) = s.post(&m, "resign", &dee_seat, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let [cy2, dee2] = rate_game([cy1, dee1], Outcome::P1);
        let v = wait_for(&s, &format!("/api/seasons/{id}"), None, |v| {
            v["matches"][0]["result"] == "p1"
        })
        .await;
        close(row(&v, "goofspiel", "Cy"), cy2);
        close(row(&v, "goofspiel", "Dee"), dee2);
        assert_eq!(row(&v, "goofspiel", "Cy")["games"], 2);
        before = v;
    }
    // A restart: the season, its roster and every rating come back from the store.
    let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
    assert!(s.state.seasons.resume().await.unwrap() >= 1);
    let after = season(&s, &id, None).await;
    assert_eq!(after["ratings"], before["ratings"]);
    assert_eq!(after["players"], before["players"]);
    assert_eq!(after["matches"], before["matches"]);
    let listed = s.call("GET", "/api/seasons", None, None).await.1;
    assert!(
        listed["seasons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == id.as_str()),
        "{listed}"
    );
}

/// A crash after a tournament stored a result and before the season rated it: at restart the
/// tournament's driver rates it.
#[tokio::test]
async fn a_result_stored_but_not_rated_before_a_crash_is_rated_at_restart() {
    let (_dir, path) = temp_db("seasons-crash", "s.db");
    let id;
    {
        let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
        let (_, created) = s
            .call(
                "POST",
                "/api/seasons",
                None,
                Some(json!({"name": "Crash", "players": ["Ann", "Bo"]})),
            )
            .await;
        id = created["id"].as_str().unwrap().to_string();
        let admin = created["admin_token"].as_str().unwrap().to_string();
        // Manual rounds: the tournament is not over after its one round until the host says.
        let (status, t) = s
            .call(
                "POST",
                "/api/tournaments",
                Some(&admin),
                Some(
                    json!({"name": "T", "game": "goofspiel", "season": id, "auto_rounds": false,
                    "format": {"kind": "swiss", "rounds": 1},
                    "players": [{"season_player": 0}, {"season_player": 1}]}),
                ),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{t}");
        let tid = t["id"].as_str().unwrap().to_string();
        let t_admin = t["admin_token"].as_str().unwrap().to_string();
        let (status, v) = s
            .call(
                "POST",
                &format!("/api/tournaments/{tid}/start"),
                Some(&t_admin),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        adjudicate_round(&s, &tid, &t_admin, 0, &["p1"]).await;
        let v = wait_for(&s, &format!("/api/seasons/{id}"), None, |v| {
            v["ratings"]["goofspiel"]
                .as_array()
                .is_some_and(|r| r.len() == 2)
        })
        .await;
        assert_eq!(row(&v, "goofspiel", "Ann")["wins"], 1, "{v}");
    }
    // The crash: the rating event never made it to the store.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let removed = conn
        .execute(
            "DELETE FROM season_log WHERE season_id = ?1 AND entry LIKE '{\"type\":\"rated\"%'",
            [&id],
        )
        .unwrap();
    assert_eq!(removed, 1);
    drop(conn);
    let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
    s.state.seasons.resume().await.unwrap();
    assert!(season(&s, &id, None).await["ratings"]
        .as_object()
        .unwrap()
        .is_empty());
    s.state.tournaments.resume().await.unwrap();
    let fresh = Rating::default();
    let [ann, bo] = rate_game([fresh, fresh], Outcome::P1);
    let v = wait_for(&s, &format!("/api/seasons/{id}"), None, |v| {
        v["ratings"]["goofspiel"]
            .as_array()
            .is_some_and(|r| r.len() == 2)
    })
    .await;
    close(row(&v, "goofspiel", "Ann"), ann);
    close(row(&v, "goofspiel", "Bo"), bo);
    assert_eq!(row(&v, "goofspiel", "Ann")["games"], 1);
}

#[tokio::test]
async fn a_season_tournament_takes_registrations_by_its_link_and_grows_the_roster() {
    let s = server();
    let (status, created) = s
        .call(
            "POST",
            "/api/seasons",
            None,
            Some(json!({"name": "Open season", "players": ["Ann", "Bo"]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let admin = created["admin_token"].as_str().unwrap().to_string();
    let bo = created["links"]["players"][1]["link"]
        .as_str()
        .unwrap()
        .split("#player=")
        .nth(1)
        .unwrap()
        .to_string();
    // Ann entered by the host; the rest register, up to a cap of four.
    let (status, t) = s
        .call(
            "POST",
            "/api/tournaments",
            Some(&admin),
            Some(json!({"name": "Open", "game": "goofspiel", "season": id,
                "format": {"kind": "swiss", "rounds": 1}, "registration": true, "cap": 4,
                "players": [{"season_player": 0}]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let tid = t["id"].as_str().unwrap().to_string();
    let t_admin = t["admin_token"].as_str().unwrap().to_string();
    let reg = t["links"]["register"]
        .as_str()
        .unwrap()
        .split("#register=")
        .nth(1)
        .unwrap()
        .to_string();
    let path = format!("/api/tournaments/{tid}/register");
    // A newcomer joins the tournament and the roster, with a season link of their own.
    let (status, cy) = s
        .call("POST", &path, Some(&reg), Some(json!({"name": "Cy"})))
        .await;
    assert_eq!(status, StatusCode::OK, "{cy}");
    assert_eq!(cy["season"]["season_player"], 2);
    let cy_season = cy["season"]["link"].as_str().unwrap();
    assert!(cy_season.starts_with(&format!("/s/{id}#player=")), "{cy}");
    let cy_season_token = cy_season.split("#player=").nth(1).unwrap();
    let mine = season(&s, &id, Some(cy_season_token)).await;
    assert_eq!(mine["you"]["name"], "Cy", "{mine}");
    // A roster player's name is theirs: they register with their season link, once.
    let (status, v) = s
        .call("POST", &path, Some(&reg), Some(json!({"name": "bo"})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        message(&v).contains("on the season's roster already"),
        "{v}"
    );
    let (status, answer) = s
        .call("POST", &path, Some(&reg), Some(json!({"season_token": bo})))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer["season"].is_null(), "{answer}");
    let refused = [
        (
            json!({"season_token": bo}),
            StatusCode::BAD_REQUEST,
            "entered in this tournament already",
        ),
        (
            json!({"season_token": "nope"}),
            StatusCode::FORBIDDEN,
            "not a player's link of this tournament's season",
        ),
        (json!({}), StatusCode::BAD_REQUEST, "give `name`"),
    ];
    for (body, want, text) in refused {
        let (status, v) = s.call("POST", &path, Some(&reg), Some(body.clone())).await;
        assert_eq!(status, want, "{body}: {v}");
        assert!(message(&v).contains(text), "{body}: {v}");
    }
    let (status, answer) = s
        .call("POST", &path, Some(&reg), Some(json!({"name": "Dee"})))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["season"]["season_player"], 3);
    // The cap holds, and nobody joined the roster by the refused attempt.
    let (status, v) = s
        .call("POST", &path, Some(&reg), Some(json!({"name": "Eve"})))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(message(&v).contains("full (4 players)"), "{v}");
    let view = season(&s, &id, None).await;
    let roster: Vec<&str> = view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(roster, ["Ann", "Bo", "Cy", "Dee"], "{view}");
    // Played: every registered player is rated as a roster player.
    let (status, v) = s
        .call(
            "POST",
            &format!("/api/tournaments/{tid}/start"),
            Some(&t_admin),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    adjudicate_round(&s, &tid, &t_admin, 0, &["p1", "p2"]).await;
    let rated = wait_for(&s, &format!("/api/seasons/{id}"), None, |v| {
        v["ratings"]["goofspiel"]
            .as_array()
            .is_some_and(|r| r.len() == 4)
    })
    .await;
    for name in ["Ann", "Bo", "Cy", "Dee"] {
        assert_ne!(row(&rated, "goofspiel", name)["rating"], 1500.0, "{name}");
    }
    // A plain tournament takes no season link.
    let (status, plain) = s
        .call(
            "POST",
            "/api/tournaments",
            None,
            Some(json!({"name": "Plain", "game": "goofspiel",
                "format": {"kind": "round_robin"}, "registration": true, "cap": 2})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{plain}");
    let plain_reg = plain["links"]["register"]
        .as_str()
        .unwrap()
        .split("#register=")
        .nth(1)
        .unwrap()
        .to_string();
    let (status, v) = s
        .call(
            "POST",
            &format!(
                "/api/tournaments/{}/register",
                plain["id"].as_str().unwrap()
            ),
            Some(&plain_reg),
            Some(json!({"season_token": bo})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(message(&v).contains("has no season"), "{v}");
}

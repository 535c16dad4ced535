//! A rematch offered at the end of a match (`POST /api/matches/{id}/rematch`): a new match with
//! the seats swapped, made once, shown to the other player (with their own seat link), to the
//! one who offered it and to spectators, and kept across a restart.

mod common;

use axum::http::StatusCode;
use colosseum_server::SqliteStore;
use common::{open_limits, server, server_on_store, temp_db};
use serde_json::{json, Value};

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or_default()
}

/// The seat token in a `/m/ID#seat=TOKEN` link.
fn token_of(link: &str) -> &str {
    link.split_once("#seat=")
        .unwrap_or_else(|| panic!("no seat in {link}"))
        .1
}

#[tokio::test]
async fn the_other_player_is_offered_the_rematch_with_their_own_seat() {
    let s = server();
    let body = json!({"game": "goofspiel", "options": {"cards": "5"}, "time": {"kind": "untimed"},
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]});
    let (id, tokens) = s.start(body).await;
    let [ann, bob] = tokens.map(Option::unwrap);

    // Not before the end, and never by a spectator.
    let (status, v) = s.post(&id, "rematch", &ann, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(code(&v), "not_finished");
    assert!(s.state(&id, Some(&bob)).await["rematch"].is_null());
    let (status, v) = s
        .call("POST", &format!("/api/matches/{id}/rematch"), None, None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{v}");

    let (status, v) = s.post(&id, "resign", &bob, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(s.state(&id, Some(&bob)).await["rematch"].is_null());

    // Ann (p1) offers: she plays p2 of the new match.
    let (status, offer) = s.post(&id, "rematch", &ann, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{offer}");
    let new = offer["id"].as_str().unwrap().to_string();
    assert_ne!(new, id);
    assert_eq!(offer["seat"], "p2");
    let ann_link = offer["link"].as_str().unwrap().to_string();
    assert!(
        ann_link.starts_with(&format!("/m/{new}#seat=")),
        "{ann_link}"
    );

    // Bob's table is told, with his own seat (p1) of the new match.
    let bobs = s.state(&id, Some(&bob)).await["rematch"].clone();
    assert_eq!(bobs["id"], new.as_str());
    assert_eq!(bobs["by"], "p1");
    assert_eq!(bobs["seat"], "p1");
    let bob_link = bobs["link"].as_str().unwrap();
    assert_ne!(token_of(bob_link), token_of(&ann_link));
    let bob_new = s.state(&new, Some(token_of(bob_link))).await;
    assert_eq!(bob_new["you"], "p1");
    assert_eq!(bob_new["status"], "waiting");
    assert_eq!(bob_new["match"]["game"], "goofspiel");
    assert_eq!(bob_new["match"]["options"]["cards"], json!("5"));
    assert_eq!(s.state(&new, Some(token_of(&ann_link))).await["you"], "p2");

    // Ann's table shows her own link; a spectator's only the spectator link.
    let anns = s.state(&id, Some(&ann)).await["rematch"].clone();
    assert_eq!(anns["link"], ann_link.as_str());
    assert_eq!(anns["seat"], "p2");
    let spectator = s.state(&id, None).await["rematch"].clone();
    assert_eq!(spectator["id"], new.as_str());
    assert_eq!(spectator["link"], format!("/m/{new}"));
    assert!(spectator["seat"].is_null());

    // Bob's Rematch lands in the same new match, at his seat.
    let (status, again) = s.post(&id, "rematch", &bob, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
    assert_eq!(again["id"], new.as_str());
    assert_eq!(again["link"], bob_link);
}

#[tokio::test]
async fn a_bot_keeps_its_level_and_the_offer_survives_a_restart() {
    let (dir, path) = temp_db("rematch", "r.db");
    let id;
    let new;
    let ann;
    {
        let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
        let body = json!({"game": "thwart-omega", "time": {"kind": "untimed"},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]});
        let (i, tokens) = s.start(body).await;
        id = i;
        ann = tokens[0].clone().unwrap();
        let (status, v) = s.post(&id, "resign", &ann, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, offer) = s.post(&id, "rematch", &ann, json!({})).await;
        assert_eq!(status, StatusCode::CREATED, "{offer}");
        new = offer["id"].as_str().unwrap().to_string();
        assert!(
            offer["links"]["p1"].is_null(),
            "the bot's seat has no link: {offer}"
        );
        let state = s
            .state(&new, Some(token_of(offer["link"].as_str().unwrap())))
            .await;
        assert_eq!(state["you"], "p2");
        assert_eq!(state["match"]["seats"]["p1"]["player"]["kind"], "bot");
        assert_eq!(state["match"]["seats"]["p1"]["player"]["level"], "random");
    }
    let s = server_on_store(SqliteStore::open(&path).unwrap(), open_limits(), false);
    let offer = s.state(&id, Some(&ann)).await["rematch"].clone();
    assert_eq!(offer["id"], new.as_str(), "{offer}");
    assert_eq!(offer["by"], "p1");
    let _ = std::fs::remove_dir_all(dir);
}

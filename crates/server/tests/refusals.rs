//! A refused move says which kind it is (docs/server-api.md, "Errors"): `not_a_move` (400) for
//! text that is not a move in the game's notation at all, `illegal_move` (422) for a move the
//! seat may not make now; each message says what is allowed (the notation's form, the rule
//! broken, and the legal moves when there are few). Over HTTP and over the WebSocket, in three
//! games.

mod common;

use axum::extract::ws::Message;
use axum::http::StatusCode;
use colosseum_engine::{Seat, Viewer};
use common::ws::socket;
use common::{begin, server};
use serde_json::{json, Value};

/// Submits `mv` as `token` in match `id`: the status, the error's code and message ("" when
/// accepted).
async fn refusal(
    s: &common::Server,
    id: &str,
    token: &str,
    mv: &str,
) -> (StatusCode, String, String) {
    let (status, v) = s.act(id, "submit", token, json!({"move": mv})).await;
    let text = |k: &str| v["error"][k].as_str().unwrap_or_default().to_string();
    (status, text("code"), text("message"))
}

#[tokio::test]
async fn goofspiel_tells_text_that_is_not_a_move_from_a_card_already_played() {
    let s = server();
    let (id, tokens) = s
        .start(json!({"game": "goofspiel", "options": {"cards": "3"}, "seed": 5}))
        .await;
    let [t1, t2] = tokens.map(Option::unwrap);
    for text in ["banana", "three", "9"] {
        let (status, code, message) = refusal(&s, &id, &t1, text).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}: {message}");
        assert_eq!(code, "not_a_move", "{text}: {message}");
        assert!(message.contains("is not a move"), "{message}");
        assert!(message.contains("1 to 3"), "the notation's form: {message}");
        assert!(
            message.ends_with("the legal moves now: 1, 2, 3"),
            "{message}"
        );
    }
    assert_eq!(refusal(&s, &id, &t1, "1").await.0, StatusCode::OK);
    assert_eq!(refusal(&s, &id, &t2, "3").await.0, StatusCode::OK);
    // The 1 is played: a card, but not one p1 holds.
    let (status, code, message) = refusal(&s, &id, &t1, "1").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{message}");
    assert_eq!(code, "illegal_move");
    assert!(message.contains("you have no 1 left"), "{message}");
    assert!(message.ends_with("the legal moves now: 2, 3"), "{message}");
    assert!(
        !message.contains("p1"),
        "the seat is not named to itself: {message}"
    );
    // Neither refusal changed anything: the seat moves on.
    assert_eq!(refusal(&s, &id, &t1, "2").await.0, StatusCode::OK);
}

#[tokio::test]
async fn all_in_goofspiel_tells_text_that_is_not_a_move_from_a_card_put_down_twice_or_out_of_turn()
{
    let s = server();
    let (id, tokens) = s
        .start(json!({"game": "all-in-goofspiel", "seed": 5}))
        .await;
    let [t1, t2] = tokens.map(Option::unwrap);
    for text in ["banana", "13"] {
        let (status, code, message) = refusal(&s, &id, &t1, text).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}: {message}");
        assert_eq!(code, "not_a_move", "{text}: {message}");
        assert!(
            message.contains("-3 to 12"),
            "the notation's form: {message}"
        );
    }
    let (status, code, message) = refusal(&s, &id, &t1, "9 9").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{message}");
    assert_eq!(code, "illegal_move");
    assert!(message.contains("you put down 9 twice"), "{message}");
    // p1 starts: p2's move now is a move, but not p2's turn.
    let (status, code, message) = refusal(&s, &id, &t2, "3").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{message}");
    assert_eq!(code, "illegal_move");
    assert!(message.contains("not your turn"), "{message}");
    assert!(
        !message.contains("p1") && !message.contains("p2"),
        "{message}"
    );
    assert_eq!(refusal(&s, &id, &t1, "12 -3 0").await.0, StatusCode::OK);
}

#[tokio::test]
async fn galespiel_lists_the_legal_bids_with_either_refusal() {
    let s = server();
    let (id, tokens) = s.start(json!({"game": "galespiel", "seed": 5})).await;
    let t1 = tokens[0].clone().unwrap();
    let bids = "the legal moves now: 1, 2, 3, 4, 5, 6, 7, 8, 9";
    let (status, code, message) = refusal(&s, &id, &t1, "banana").await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::BAD_REQUEST, "not_a_move"),
        "{message}"
    );
    assert!(message.ends_with(bids), "{message}");
    let (status, code, message) = refusal(&s, &id, &t1, "9 aid").await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
        "{message}"
    );
    assert!(message.contains("Specialist's Aid"), "{message}");
    assert!(message.ends_with(bids), "{message}");
}

/// The error frame's code and message for the next reply on `rx` (pushed states skipped).
async fn next_error(
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<Message>,
) -> Option<(String, String)> {
    loop {
        let m = tokio::time::timeout(std::time::Duration::from_secs(30), rx.recv())
            .await
            .expect("a reply")
            .expect("open");
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(&t).unwrap();
        match v["type"].as_str() {
            Some("error") => {
                assert_eq!(v["to"], "submit", "{v}");
                let text = |k: &str| v["error"][k].as_str().unwrap_or_default().to_string();
                return Some((text("code"), text("message")));
            }
            Some("ok") => return None,
            _ => {}
        }
    }
}

#[tokio::test]
async fn over_the_websocket_the_error_frames_carry_the_two_codes() {
    let s = server();
    let (id, table) = begin(
        &s.hub,
        json!({"game": "goofspiel", "options": {"cards": "3"}, "seed": 5}),
    )
    .await;
    let (p1, mut p1_rx, _p1) = socket(&s.state, &table, Viewer::Seat(Seat::P1));
    let (p2, mut p2_rx, _p2) = socket(&s.state, &table, Viewer::Seat(Seat::P2));
    let submit = |tx: &tokio::sync::mpsc::UnboundedSender<Message>, mv: &str, decision: u64| {
        let m = json!({"type": "submit", "move": mv, "decision": decision});
        tx.send(Message::Text(m.to_string().into())).unwrap();
    };
    submit(&p1, "banana", 1);
    let (code, message) = next_error(&mut p1_rx).await.expect("refused");
    assert_eq!(code, "not_a_move", "{message}");
    assert!(message.contains("`banana` is not a move"), "{message}");
    assert!(message.contains("1 to 3"), "{message}");
    submit(&p1, "1", 1);
    assert_eq!(next_error(&mut p1_rx).await, None);
    submit(&p2, "2", 1);
    assert_eq!(next_error(&mut p2_rx).await, None);
    let decision = s.state(&id, None).await["decision"].as_u64().unwrap();
    assert!(decision > 1, "the first round is revealed");
    submit(&p1, "1", decision);
    let (code, message) = next_error(&mut p1_rx).await.expect("refused");
    assert_eq!(code, "illegal_move", "{message}");
    assert!(message.contains("you have no 1 left"), "{message}");
    assert!(message.ends_with("the legal moves now: 2, 3"), "{message}");
}

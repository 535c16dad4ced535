//! Names compared as people read them (issue 36, hole 10): invisible and format characters are
//! refused, names are compared by their confusable skeleton (UTS #39) within a match, a
//! tournament and a season, and a name that reads like a bot's is a bot's.

mod common;

use axum::http::StatusCode;
use common::{client_seed, seed_hash, server};
use serde_json::{json, Value};

fn goofspiel(seats: Value) -> Value {
    json!({"game": "goofspiel", "options": {"cards": "3"}, "seats": seats})
}

fn human(name: &str) -> Value {
    json!({"kind": "human", "name": name})
}

/// A join's body for seat `i` (0 for p1) with `name` and the commitment to its client seed.
fn join(i: usize, name: &str) -> Value {
    json!({"name": name, "client_seed_hash": seed_hash(&client_seed(i))})
}

fn message(v: &Value) -> &str {
    v["error"]["message"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn invisible_format_and_bot_looking_names_are_refused_at_creation_and_join() {
    let s = server();
    for name in [
        "Ann\u{200b}",
        "Ann\u{2060}",
        "\u{202e}nnA",
        "A\u{200d}nn",
        "A\u{ad}nn",
        "\u{feff}Ann",
        "\u{3164}",
        "A\u{115f}nn",
        "Ann\u{fe0f}",
        "\u{301}\u{301}",
        "bot\u{200b} mcts:hard",
        "\u{212c}ot mcts:hard",
        "r\u{430}ndom",
        "b0t",
    ] {
        let (st, v) = s
            .call(
                "POST",
                "/api/matches",
                None,
                Some(goofspiel(json!([{"kind": "human"}, human(name)]))),
            )
            .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{name:?}: {v}");
        assert!(
            message(&v).contains("without control, invisible or format characters"),
            "the refusal says what is allowed: {v}"
        );
        let (id, tokens) = s.create(goofspiel(Value::Null)).await;
        let (st, v) = s
            .post(&id, "join", tokens[0].as_deref().unwrap(), join(0, name))
            .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{name:?} at join: {v}");
    }
    // What the refusals name.
    let (_, v) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(goofspiel(json!([human("Ann\u{200b}"), {"kind": "human"}]))),
        )
        .await;
    assert!(message(&v).contains("invisible character (U+200B)"), "{v}");
    let (_, v) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(goofspiel(json!([human("r\u{430}ndom"), {"kind": "human"}]))),
        )
        .await;
    assert!(message(&v).contains("reads like a bot's name"), "{v}");
}

#[tokio::test]
async fn names_of_every_script_are_welcome() {
    let s = server();
    let (st, v) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(goofspiel(json!([human("Zoë"), human("李雷")]))),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap();
    let state = s.state(id, None).await;
    assert_eq!(state["names"], json!({"p1": "Zoë", "p2": "李雷"}));
    let (id, tokens) = s.create(goofspiel(Value::Null)).await;
    for (i, name) in ["Ñandú", "Ma\u{301}ria"].iter().enumerate() {
        let (st, v) = s
            .post(&id, "join", tokens[i].as_deref().unwrap(), join(i, name))
            .await;
        assert_eq!(st, StatusCode::OK, "{name}: {v}");
    }
    // `Zoe` is not `Zoë`, `Botond` and `Robot` are people.
    let (st, v) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(goofspiel(json!([human("Zoë"), human("Zoe")]))),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let (st, v) = s
        .call(
            "POST",
            "/api/matches",
            None,
            Some(goofspiel(json!([human("Botond"), human("Robot")]))),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn look_alike_names_are_one_name_in_a_match() {
    let s = server();
    // At creation: Latin `Ann` and `Аnn` with a Cyrillic А; fullwidth; `Ian` and `lan`.
    for (a, b) in [
        ("Ann", "\u{410}nn"),
        ("Ann", "\u{ff21}nn"),
        ("Ian", "lan"),
        ("Ann", "ANN"),
    ] {
        let (st, v) = s
            .call(
                "POST",
                "/api/matches",
                None,
                Some(goofspiel(json!([human(a), human(b)]))),
            )
            .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{a} / {b}: {v}");
        assert!(message(&v).contains("read as the same name"), "{v}");
    }
    // At join: p2 may not take a name that reads as p1's.
    let (id, tokens) = s.create(goofspiel(Value::Null)).await;
    let [t1, t2] = [0, 1].map(|i| tokens[i].clone().unwrap());
    let (st, v) = s.post(&id, "join", &t1, join(0, "Ann")).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = s.post(&id, "join", &t2, join(1, "\u{410}nn")).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(message(&v).contains("the other seat's name"), "{v}");
    let state = s.state(&id, None).await;
    assert_eq!(state["joined"]["p2"], false, "a refused join takes no seat");
}

#[tokio::test]
async fn look_alike_names_are_one_name_in_a_tournament_and_a_season() {
    let s = server();
    let (st, v) = s
        .call(
            "POST",
            "/api/tournaments",
            None,
            Some(
                json!({"name": "T", "game": "goofspiel", "format": {"kind": "single_elimination"},
                "players": [{"name": "Ann"}, {"name": "\u{410}nn"}]}),
            ),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(message(&v).contains("is entered already"), "{v}");
    let (st, v) = s
        .call(
            "POST",
            "/api/tournaments",
            None,
            Some(
                json!({"name": "T", "game": "goofspiel", "format": {"kind": "single_elimination"},
                "players": [{"name": "Ann"}, {"name": "\u{212c}ot mcts:hard"}]}),
            ),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(message(&v).contains("reads like a bot's name"), "{v}");
    let (st, v) = s
        .call(
            "POST",
            "/api/seasons",
            None,
            Some(json!({"name": "S", "players": ["Ann", "\u{410}nn"]})),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(message(&v).contains("on the roster already"), "{v}");
    let (st, v) = s
        .call(
            "POST",
            "/api/seasons",
            None,
            Some(json!({"name": "S", "players": ["Zoë", "李雷", "Ñandú"]})),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
}

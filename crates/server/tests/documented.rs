//! Behaviour docs/server-api.md documents, each through the router: `nothing_to_lock`, `no_race`,
//! `stale_race`, `race_required`, the 2,000-byte move, the 40-character name, `legal_moves` left out past 400,
//! and the rules page (with the game's clocks) in `GET /api/games/{game}`.

mod common;

use axum::http::StatusCode;
use common::server;
use serde_json::json;

#[tokio::test]
async fn lock_without_a_move_and_answers_without_a_race_are_409() {
    let s = server();
    let (id, tokens) = s.start(json!({"game": "goofspiel"})).await;
    let t1 = tokens[0].as_deref().unwrap();
    let (status, v) = s.act(&id, "lock", t1, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "nothing_to_lock");
    let (status, v) = s.post(&id, "answer", t1, json!({"text": "Ross"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "no_race");
}

#[tokio::test]
async fn an_answer_for_another_race_is_stale() {
    let s = server();
    let (id, tokens) = s
        .start(json!({"game": "witchs-brew", "options": {"cauldron": "live"}}))
        .await;
    let t1 = tokens[0].as_deref().unwrap();
    let state = s.state(&id, Some(t1)).await;
    let opened = state["match"]["race"]["opened_at"]
        .as_u64()
        .expect("a race is open");
    let (status, v) = s
        .post(&id, "answer", t1, json!({"text": "x", "race": opened + 1}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "stale_race");
    // Without its race an answer could be judged against a question the seat never saw.
    let (status, v) = s.post(&id, "answer", t1, json!({"text": "x"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "race_required");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("opened_at")),
        "{v}"
    );
}

#[tokio::test]
async fn moves_and_names_have_their_documented_lengths() {
    let s = server();
    let (id, tokens) = s.create(json!({"game": "goofspiel"})).await;
    let t1 = tokens[0].as_deref().unwrap();
    let (status, v) = s.join_token(&id, t1, json!({"name": "n".repeat(41)})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = s.join_token(&id, t1, json!({"name": "n".repeat(40)})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let t2 = tokens[1].as_deref().unwrap();
    s.join_token(&id, t2, json!({})).await;
    for t in [t1, t2] {
        s.reveal_token(&id, t).await;
    }
    let (status, v) = s
        .act(&id, "submit", t1, json!({"move": "1".repeat(2_001)}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("2000 bytes"),
        "{v}"
    );
}

#[tokio::test]
async fn legal_moves_are_left_out_past_400() {
    let s = server();
    // Thwart Omega on the default board: a black and a white stone, far more than 400 pairs.
    let (id, tokens) = s.start(json!({"game": "thwart-omega"})).await;
    let v = s.state(&id, tokens[0].as_deref()).await;
    assert_eq!(v["match"]["seats"]["p1"]["to_act"], true);
    assert!(v["legal_moves"].is_null(), "{}", v["legal_moves"]);
    // Goofspiel's 13 bids are all sent.
    let (id, tokens) = s.start(json!({"game": "goofspiel"})).await;
    let v = s.state(&id, tokens[0].as_deref()).await;
    assert_eq!(v["legal_moves"].as_array().unwrap().len(), 13);
}

#[tokio::test]
async fn the_games_rules_page_comes_with_its_clocks() {
    let s = server();
    for entry in colosseum_games::registry() {
        let (status, v) = s
            .call("GET", &format!("/api/games/{}", entry.id), None, None)
            .await;
        assert_eq!(status, StatusCode::OK);
        let rules = v["rules"].as_str().unwrap();
        assert!(rules.starts_with(entry.rules), "{}", entry.id);
        assert!(rules.contains("## Time at the table"), "{}", entry.id);
        assert_eq!(
            v["time_control"],
            json!(colosseum_host::TimeControl::for_game(entry.id))
        );
    }
}

/// The error table of docs/server-api.md lists every code the server can answer, once, with the
/// status the code carries, and nothing else.
#[test]
fn every_error_code_is_documented_with_its_status() {
    use colosseum_server::ErrorCode;
    let docs = include_str!("../../../docs/server-api.md");
    let mut documented = Vec::new();
    for line in docs.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Ok(status) = cells[1].parse::<u16>() else {
            continue;
        };
        for code in cells[2].split(", ") {
            documented.push((code.trim_matches('`').to_string(), status));
        }
    }
    let mut names: Vec<&str> = documented.iter().map(|(c, _)| c.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(
        before,
        names.len(),
        "a code is documented twice: {documented:?}"
    );
    for code in ErrorCode::ALL {
        let found = documented.iter().find(|(c, _)| c == code.as_str());
        assert_eq!(
            found.map(|(_, s)| *s),
            Some(code.status().as_u16()),
            "{code} is not documented with its status"
        );
    }
    assert_eq!(documented.len(), ErrorCode::ALL.len(), "{documented:?}");
}

//! The Discord application (`colosseum_server::discord`, docs/discord.md) against a local
//! stand-in for Discord: the test makes the application's Ed25519 key pair and signs each
//! interaction as Discord does (`X-Signature-Ed25519` over `X-Signature-Timestamp` + body); a
//! tiny HTTP server records the application's calls to Discord's API (path, Authorization,
//! JSON body).

mod common;

use axum::http::{Method, StatusCode};
use axum::Router;
use colosseum_server::discord::{self, Config};
use colosseum_server::Limits;
use common::discord::*;
use common::{open_limits, server_with};
use serde_json::{json, Value};

const PING: &str = r#"{"id":"1","application_id":"1234567890","type":1,"token":"t","version":1}"#;

#[tokio::test]
async fn a_signed_ping_is_answered_pong() {
    let app = App::new();
    let s = server(&app, "http://127.0.0.1:9");
    let ts = NOW.to_string();
    let (status, body) = post(&s, Some(&app.sign(&ts, PING)), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({"type": 1}));
}

#[tokio::test]
async fn a_bad_signature_is_refused_401() {
    let app = App::new();
    let s = server(&app, "http://127.0.0.1:9");
    let ts = NOW.to_string();
    // Signed by another key (anyone's, not the application's).
    let other = App::new();
    let (status, _) = post(&s, Some(&other.sign(&ts, PING)), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The right key, but the body changed after signing.
    let sig = app.sign(&ts, PING);
    let tampered = PING.replace("\"type\":1", "\"type\":2");
    let (status, _) = post(&s, Some(&sig), Some(&ts), &tampered).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The right signature sent with another timestamp than the one signed.
    let (status, _) = post(&s, Some(&sig), Some(&(NOW + 1).to_string()), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Not hex, and missing headers.
    let (status, _) = post(&s, Some("zz"), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post(&s, None, Some(&ts), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = post(&s, Some(&sig), None, PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    // And the same request properly signed passes.
    let (status, _) = post(&s, Some(&sig), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_stale_or_future_timestamp_is_refused_401() {
    let app = App::new();
    let s = server(&app, "http://127.0.0.1:9");
    for ts in [NOW - 301, NOW - 3600, NOW + 301] {
        let ts = ts.to_string();
        let (status, body) = post(&s, Some(&app.sign(&ts, PING)), Some(&ts), PING).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{ts}: {body}");
    }
    // Within five minutes either way: accepted.
    for ts in [NOW - 299, NOW + 299] {
        let ts = ts.to_string();
        let (status, _) = post(&s, Some(&app.sign(&ts, PING)), Some(&ts), PING).await;
        assert_eq!(status, StatusCode::OK, "{ts}");
    }
    // A signed timestamp that is not a number.
    let ts = "yesterday";
    let (status, _) = post(&s, Some(&app.sign(ts, PING)), Some(ts), PING).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn without_an_application_the_endpoint_is_404() {
    let app = App::new();
    let s = server_with(open_limits());
    let ts = NOW.to_string();
    let (status, _) = post(&s, Some(&app.sign(&ts, PING)), Some(&ts), PING).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn rules_answers_privately_with_the_games_name() {
    let app = App::new();
    let s = server(&app, "http://127.0.0.1:9");
    let game = &colosseum_games::registry()[0];
    let (status, body) = interact(
        &s,
        &app,
        &json!({"id": "2", "type": 2, "token": "t", "guild_id": "42", "channel_id": "7",
                "member": {"user": {"id": "100", "username": "ann"}},
                "data": {"name": "colosseum", "type": 1,
                         "options": [{"name": "rules", "type": 1,
                                      "options": [{"name": "game", "type": 3, "value": game.id}]}]}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["type"], 4);
    assert_eq!(body["data"]["flags"], 64, "only the member sees it: {body}");
    let text = body["data"]["content"].as_str().unwrap();
    assert!(text.contains(game.name), "{text}");
}

#[tokio::test]
async fn register_overwrites_the_guilds_commands_with_the_bot_token() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let config = app.config(&base);
    discord::register(config, "4242").await.unwrap();
    let calls = calls.lock().unwrap().clone();
    assert_eq!(calls.len(), 1, "{calls:?}");
    let call = &calls[0];
    assert_eq!(call.method, Method::PUT);
    assert_eq!(
        call.path,
        "/api/v10/applications/1234567890/guilds/4242/commands"
    );
    assert_eq!(call.authorization.as_deref(), Some("Bot bot-token-xyz"));
    // Discord's documented shape: an array of application commands; one CHAT_INPUT
    // `colosseum` with SUB_COMMAND options.
    let commands = call.body.as_array().expect("an array of commands");
    assert_eq!(commands.len(), 1);
    let colosseum = &commands[0];
    assert_eq!(colosseum["name"], "colosseum");
    assert_eq!(colosseum["type"], 1);
    let subs: Vec<&str> = colosseum["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            assert_eq!(o["type"], 1, "a SUB_COMMAND: {o}");
            o["name"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        subs[..12],
        [
            "new",
            "join",
            "move",
            "hand",
            "resign",
            "rules",
            "host",
            "pause",
            "resume",
            "extra-time",
            "adjudicate",
            "replace"
        ]
    );
    // Discord holds 25 subcommands a command; the tournament's follow the match's.
    assert!(subs.len() <= 25, "{subs:?}");
    // Required options come before optional ones (Discord refuses the command otherwise).
    for o in colosseum["options"].as_array().unwrap() {
        let required: Vec<bool> = o["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["required"] == true)
            .collect();
        assert!(
            required.windows(2).all(|w| w[0] || !w[1]),
            "required options first: {o}"
        );
    }
    let new = &colosseum["options"][0]["options"];
    assert_eq!(new[0]["name"], "game");
    assert_eq!(new[0]["type"], 3, "STRING");
    assert_eq!(new[1]["name"], "opponent");
    assert_eq!(new[1]["type"], 6, "USER");
    let choices = new[0]["choices"].as_array().unwrap();
    assert!(choices.len() <= 25);
    for g in colosseum_games::registry().iter().take(25) {
        assert!(
            choices
                .iter()
                .any(|c| c["value"] == g.id && c["name"] == g.name),
            "{} missing from {choices:?}",
            g.id
        );
    }
    // Discord's limits on names and descriptions.
    fn check(v: &Value) {
        if let Some(name) = v.get("name").and_then(Value::as_str) {
            assert!((1..=32).contains(&name.len()), "{name}");
        }
        if let Some(d) = v.get("description").and_then(Value::as_str) {
            assert!((1..=100).contains(&d.len()), "{d}");
        }
        for o in v["options"].as_array().into_iter().flatten() {
            check(o);
        }
    }
    check(colosseum);
}

#[tokio::test]
async fn register_reports_discords_refusal() {
    let app = App::new();
    async fn refuse() -> (StatusCode, &'static str) {
        (
            StatusCode::UNAUTHORIZED,
            r#"{"message": "401: Unauthorized", "code": 0}"#,
        )
    }
    let router = Router::new().fallback(refuse);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let err = discord::register(app.config(&format!("http://{addr}")), "4242")
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("401"), "{err}");
    let err = discord::register(app.config(&format!("http://{addr}")), "not-a-guild")
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("guild"), "{err}");
}

#[test]
fn the_settings_are_checked() {
    let key = "ab".repeat(32);
    assert!(Config::new("123", &key, "tok", None).is_ok());
    assert_eq!(
        Config::new("123", &key, "tok", None).unwrap().api_base,
        discord::DEFAULT_API_BASE
    );
    assert!(Config::new("abc", &key, "tok", None).is_err());
    assert!(Config::new("123", "abcd", "tok", None).is_err());
    assert!(Config::new("123", &key, " ", None).is_err());
    assert!(Config::new("123", &key, "tok", Some("ftp://x")).is_err());
    // The token never reaches a log through Debug.
    let shown = format!(
        "{:?}",
        Config::new("123", &key, "secret-tok", None).unwrap()
    );
    assert!(!shown.contains("secret-tok"), "{shown}");
}

#[tokio::test]
async fn a_whole_goofspiel_match_played_by_two_members_through_interactions() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    let resolved =
        json!({"users": {"200": {"id": "200", "username": "bob", "global_name": "Bob"}}});
    let (status, created) = interact(
        &s,
        &app,
        &slash(
            ANN,
            "new",
            json!([{"name": "game", "type": 3, "value": "goofspiel"},
                   {"name": "opponent", "type": 6, "value": "200"},
                   {"name": "seed", "type": 3, "value": "ann-own-words-1234"},
                   {"name": "options", "type": 3, "value": "cards=3"}]),
            resolved,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert_eq!(created["type"], 4);
    assert!(created["data"]["flags"].is_null(), "public: {created}");
    let text = created["data"]["content"].as_str().unwrap();
    assert!(text.contains("Ann challenges Bob"), "{text}");
    // Cy is not a player: refused privately, before and after the start.
    let (_, refused) = interact(
        &s,
        &app,
        &slash(
            CY,
            "join",
            json!([{"name": "seed", "type": 3, "value": "x"}]),
            json!({}),
        ),
    )
    .await;
    assert_eq!(refused["data"]["flags"], 64);
    assert!(refused["data"]["content"]
        .as_str()
        .unwrap()
        .contains("not a player"));
    let (_, started) = interact(
        &s,
        &app,
        &slash(
            BOB,
            "join",
            json!([{"name": "seed", "type": 3, "value": "bob.words.5678.xyz"}]),
            json!({}),
        ),
    )
    .await;
    assert_eq!(started["type"], 4, "{started}");
    assert!(started["data"]["flags"].is_null(), "public: {started}");
    assert_eq!(
        started["data"]["components"][0]["components"][0]["label"],
        "Make your move"
    );
    // The seats' client seeds are the members' own (the server made none).
    let id = text.split('`').nth(1).unwrap();
    let (_, st) = s
        .call("GET", &format!("/api/matches/{id}"), None, None)
        .await;
    assert_eq!(st["status"], "live", "{st}");
    assert_eq!(
        st["fairness"]["client_seeds"],
        json!({"p1": "ann-own-words-1234", "p2": "bob.words.5678.xyz"})
    );
    assert_eq!(st["names"], json!({"p1": "Ann", "p2": "Bob"}));
    let (_, refused) = interact(&s, &app, &press(CY, "move", None)).await;
    assert_eq!(refused["data"]["flags"], 64);
    assert!(refused["data"]["content"]
        .as_str()
        .unwrap()
        .contains("not a player"));

    // Round 1 from Discord: Ann changes her mind before confirming.
    play(&s, &app, ANN, 0, Some(2)).await;
    play(&s, &app, BOB, 1, None).await;
    // The reveal is posted in the channel with names, with the bot token.
    let posts = wait_for(&calls, |c| {
        c.iter().any(|c| content(c).contains("Ann played"))
    })
    .await;
    let reveal = posts
        .iter()
        .find(|c| content(c).contains("Ann played"))
        .unwrap();
    assert_eq!(reveal.method, Method::POST);
    assert_eq!(reveal.path, "/api/v10/channels/7/messages");
    assert_eq!(reveal.authorization.as_deref(), Some("Bot bot-token-xyz"));
    let text = content(reveal);
    assert!(
        text.contains("Bob played") && !text.contains("p1"),
        "{text}"
    );
    // The match goes on: the reveal carries the button to the next private prompt.
    assert_eq!(
        reveal.body["components"][0]["components"][0]["custom_id"], "move",
        "{:?}",
        reveal.body
    );

    // Round 2: Bob switches to the web table, with the link `/colosseum hand` gave him only.
    let (_, hand) = interact(&s, &app, &slash(BOB, "hand", json!([]), json!({}))).await;
    assert_eq!(hand["data"]["flags"], 64);
    let text = hand["data"]["content"].as_str().unwrap();
    assert!(text.contains("https://colosseum.example/m/"), "{text}");
    let token = text
        .split("#seat=")
        .nth(1)
        .expect("a seat link")
        .trim()
        .to_string();
    let id = text
        .split("/m/")
        .nth(1)
        .unwrap()
        .split('#')
        .next()
        .unwrap()
        .to_string();
    play(&s, &app, ANN, 0, None).await;
    let (status, st) = s
        .call("GET", &format!("/api/matches/{id}"), Some(&token), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    let decision = st["decision"].as_u64().unwrap();
    let mv = st["legal_moves"][0].as_str().unwrap().to_string();
    let (status, body) = s
        .call(
            "POST",
            &format!("/api/matches/{id}/submit"),
            Some(&token),
            Some(json!({"move": mv, "decision": decision})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Ann's move was locked from Discord: Bob's submission over HTTP reveals the round.
    assert_eq!(body["decision"].as_u64().unwrap(), decision + 2, "{body}");
    // Round 3 (the last card each): back on Discord, the prompt continues.
    play(&s, &app, ANN, 0, None).await;
    let (_, bob) = interact(&s, &app, &press(BOB, "move", None)).await;
    if bob["data"]["components"]
        .as_array()
        .is_some_and(|c| !c.is_empty())
    {
        play(&s, &app, BOB, 0, None).await;
    }
    let posts = wait_for(&calls, |c| {
        c.iter()
            .any(|c| content(c).contains("wins") || content(c).contains("A draw"))
    })
    .await;
    let reveals = posts
        .iter()
        .filter(|c| content(c).contains("Ann played"))
        .count();
    assert_eq!(reveals, 3, "every reveal posted: {posts:#?}");
    // The result carries no button.
    assert_eq!(posts.last().unwrap().body["components"], json!([]));
    let last = content(posts.last().unwrap());
    assert!(
        last.contains("wins") || last.contains("A draw"),
        "the result is last: {last}"
    );
    // Over: nothing left to decide.
    let (_, over) = interact(&s, &app, &press(ANN, "move", None)).await;
    assert_eq!(over["data"]["flags"], 64);
}

#[tokio::test]
async fn a_non_player_is_refused_everything_and_a_resignation_is_posted() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    started(&s, &app).await;
    // Cy tries every player's action, a forged Confirm included: refused privately, nothing
    // changes.
    for interaction in [
        slash(CY, "move", json!([]), json!({})),
        slash(CY, "hand", json!([]), json!({})),
        slash(CY, "resign", json!([]), json!({})),
        press(CY, "move", None),
        press(CY, "pick:1:0", Some("1")),
        press(CY, "confirm:1:1", None),
    ] {
        let (status, answer) = interact(&s, &app, &interaction).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(answer["data"]["flags"], 64, "{answer}");
        let text = answer["data"]["content"].as_str().unwrap();
        assert!(text.contains("not a player"), "{text}");
        assert!(!text.contains("#seat="), "no link to a non-player: {text}");
    }
    // Bob's prompt shows all three cards: Cy's forged Confirm took none.
    let (_, prompt) = interact(&s, &app, &press(BOB, "move", None)).await;
    assert_eq!(select(&prompt).1, ["1", "2", "3"]);
    // A refusal in a channel without a match.
    let mut elsewhere = press(ANN, "move", None);
    elsewhere["channel_id"] = json!("8");
    let (_, none) = interact(&s, &app, &elsewhere).await;
    assert!(
        none["data"]["content"]
            .as_str()
            .unwrap()
            .contains("no Colosseum match"),
        "{none}"
    );
    // Bob resigns: said in the channel, and the result posted with names.
    let (_, resigned) = interact(&s, &app, &slash(BOB, "resign", json!([]), json!({}))).await;
    assert!(resigned["data"]["flags"].is_null(), "public: {resigned}");
    assert_eq!(resigned["data"]["content"], "Bob resigns.");
    let posts = wait_for(&calls, |c| {
        c.iter().any(|c| content(c).contains("Ann wins"))
    })
    .await;
    assert!(
        posts.iter().all(|c| !content(c).contains("p2")),
        "{posts:#?}"
    );
}

#[tokio::test]
async fn a_timeout_is_announced_with_the_name_of_who_ran_out() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    started(&s, &app).await;
    play(&s, &app, ANN, 0, None).await;
    // Bob lets his time run out (the game's default clock): the host plays for him.
    s.clock.advance(25 * 60 * 60 * 1000);
    s.hub.tick_all().await.unwrap();
    let posts = wait_for(&calls, |c| c.iter().any(|c| content(c).contains("ran out"))).await;
    let text = content(
        posts
            .iter()
            .find(|c| content(c).contains("ran out"))
            .unwrap(),
    );
    assert!(text.contains("Ann played 1"), "{text}");
    assert!(
        text.contains("Bob ran out of time, and the host played"),
        "{text}"
    );
}

#[tokio::test]
async fn a_restart_keeps_the_channels_match_and_its_posts() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let (dir, db) = common::temp_db("discord-restart", "m.db");
    let state = dir.join("discord.json");
    let config = |app: &App| {
        Config::new(
            "1234567890",
            &app.public_hex(),
            "bot-token-xyz",
            Some(&base),
        )
        .unwrap()
        .with_state_file(state.clone())
        .unwrap()
        .leak()
    };
    let limits = Limits {
        discord: Some(config(&app)),
        ..open_limits()
    };
    let s = common::server_on_store(
        colosseum_server::SqliteStore::open(&db).unwrap(),
        limits,
        false,
    );
    started(&s, &app).await;
    play(&s, &app, ANN, 0, None).await;
    play(&s, &app, BOB, 0, None).await;
    wait_for(&calls, |c| {
        c.iter().any(|c| content(c).contains("Ann played"))
    })
    .await;
    drop(s);

    // A new process: the bindings come back from the state file, the match from the store.
    let limits = Limits {
        discord: Some(config(&app)),
        ..open_limits()
    };
    let s = common::server_on_store(
        colosseum_server::SqliteStore::open(&db).unwrap(),
        limits,
        false,
    );
    assert_eq!(s.hub.resume().await.unwrap(), 1);
    // Cy is still not a player; Ann and Bob still are.
    let (_, refused) = interact(&s, &app, &press(CY, "move", None)).await;
    assert!(refused["data"]["content"]
        .as_str()
        .unwrap()
        .contains("not a player"));
    play(&s, &app, ANN, 0, None).await;
    play(&s, &app, BOB, 0, None).await;
    wait_for(&calls, |c| {
        c.iter()
            .filter(|c| content(c).contains("Ann played"))
            .count()
            >= 2
    })
    .await;
    // Round 1's post is not posted again; round 2's is.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let posts = calls.lock().unwrap().clone();
    let reveals: Vec<&str> = posts
        .iter()
        .map(content)
        .filter(|c| c.contains("Ann played"))
        .collect();
    assert_eq!(reveals.len(), 2, "{reveals:#?}");
    assert_ne!(reveals[0], reveals[1]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn channel_posts_wait_out_discords_429_and_arrive_in_order() {
    let app = App::new();
    let (base, calls, given) = stand_in_limited(3).await;
    let s = server(&app, &base);
    started(&s, &app).await;
    for _ in 0..2 {
        play(&s, &app, ANN, 0, None).await;
        play(&s, &app, BOB, 0, None).await;
    }
    let (_, bob) = interact(&s, &app, &press(BOB, "move", None)).await;
    if bob["data"]["components"]
        .as_array()
        .is_some_and(|c| !c.is_empty())
    {
        play(&s, &app, ANN, 0, None).await;
        play(&s, &app, BOB, 0, None).await;
    }
    let posts = wait_for(&calls, |c| {
        c.iter()
            .any(|c| content(c).contains("A draw") || content(c).contains("wins"))
    })
    .await;
    assert!(
        given.load(std::sync::atomic::Ordering::SeqCst) >= 3,
        "the 429s were given"
    );
    let texts: Vec<&str> = posts.iter().map(content).collect();
    assert_eq!(
        texts.len(),
        4,
        "three reveals and the result, none lost: {texts:#?}"
    );
    for (i, card) in ["1", "2", "3"].into_iter().enumerate() {
        assert!(
            texts[i].contains(&format!("Ann played {card}")),
            "in order: {texts:#?}"
        );
    }
}

#[tokio::test]
async fn every_games_first_prompt_offers_exactly_the_seats_legal_moves_or_sends_to_the_web_table() {
    let app = App::new();
    let (base, _calls) = stand_in().await;
    let s = server(&app, &base);
    let resolved =
        json!({"users": {"200": {"id": "200", "username": "bob", "global_name": "Bob"}}});
    // Every game at its defaults, and Thwart Omega on a 4x4 board: 240 moves, listed in the
    // state (at most 400) but too many for four menus of 25.
    let cases = colosseum_games::registry()
        .iter()
        .map(|g| (g, ""))
        .chain([(colosseum_games::find("thwart-omega").unwrap(), "size=4")]);
    for (n, (game, options)) in cases.enumerate() {
        let channel = format!("{}", 1000 + n);
        let at = |mut v: Value| {
            v["channel_id"] = json!(channel);
            v
        };
        let (_, created) = interact(
            &s,
            &app,
            &at(slash(
                ANN,
                "new",
                json!([{"name": "game", "type": 3, "value": game.id},
                       {"name": "opponent", "type": 6, "value": "200"},
                       {"name": "seed", "type": 3, "value": "ann-own-words-1234"},
                       {"name": "options", "type": 3, "value": options}]),
                resolved.clone(),
            )),
        )
        .await;
        assert_eq!(created["type"], 4, "{}: {created}", game.id);
        interact(
            &s,
            &app,
            &at(slash(
                BOB,
                "join",
                json!([{"name": "seed", "type": 3, "value": "bob.words.5678.xyz"}]),
                json!({}),
            )),
        )
        .await;
        for who in [ANN, BOB] {
            let (_, hand) = interact(&s, &app, &at(slash(who, "hand", json!([]), json!({})))).await;
            let text = hand["data"]["content"].as_str().unwrap();
            let token = text.split("#seat=").nth(1).unwrap().trim().to_string();
            let id = text.split("/m/").nth(1).unwrap().split('#').next().unwrap();
            let (_, st) = s
                .call("GET", &format!("/api/matches/{id}"), Some(&token), None)
                .await;
            let seat = st["you"].as_str().unwrap();
            // The hand is the seat's view in the game's words, then the link.
            let names = colosseum_games::svg::Names::new("Ann", "Bob");
            let words = (game.describe)(&st["match"]["view"], &names);
            assert!(
                text.starts_with(&words) && words.contains("Your "),
                "{}: {text}",
                game.id
            );
            if st["match"]["seats"][seat]["to_act"] != true {
                continue;
            }
            let (_, prompt) = interact(&s, &app, &at(press(who, "move", None))).await;
            let offered: Vec<String> = prompt["data"]["components"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|row| row["components"].as_array().unwrap().iter())
                .filter(|c| c["type"] == 3)
                .flat_map(|menu| menu["options"].as_array().unwrap().iter())
                .map(|o| o["value"].as_str().unwrap().to_string())
                .collect();
            let legal: Vec<String> = st["legal_moves"]
                .as_array()
                .map(|m| m.iter().map(|v| v.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            if !options.is_empty() {
                assert!(legal.len() > 100 && legal.len() <= 400, "{}", legal.len());
            }
            assert!(
                prompt["data"]["components"].as_array().unwrap().len() <= 5,
                "{}: at most 5 rows",
                game.id
            );
            if !legal.is_empty() && legal.len() <= 100 && legal.iter().all(|m| m.len() <= 80) {
                assert_eq!(offered, legal, "{}: the seat's legal moves", game.id);
                // The decision in the game's words.
                let said = (game.prompt)(&st["match"]["view"], &names).unwrap();
                let text = prompt["data"]["content"].as_str().unwrap();
                assert!(text.ends_with(&said), "{}: {text}", game.id);
            } else {
                assert!(
                    offered.is_empty(),
                    "{}: {} moves offered",
                    game.id,
                    offered.len()
                );
                let text = prompt["data"]["content"].as_str().unwrap();
                assert!(text.contains("web table"), "{}: {text}", game.id);
            }
        }
    }
}

#[tokio::test]
async fn too_many_moves_for_menus_are_typed_in_a_form_and_confirmed() {
    let app = App::new();
    let (base, _calls) = stand_in().await;
    let s = server(&app, &base);
    let resolved =
        json!({"users": {"200": {"id": "200", "username": "bob", "global_name": "Bob"}}});
    let (_, created) = interact(
        &s,
        &app,
        &slash(
            ANN,
            "new",
            json!([{"name": "game", "type": 3, "value": "thwart-omega"},
                   {"name": "opponent", "type": 6, "value": "200"},
                   {"name": "seed", "type": 3, "value": "ann-own-words-1234"},
                   {"name": "options", "type": 3, "value": "size=4"}]),
            resolved,
        ),
    )
    .await;
    assert_eq!(created["type"], 4, "{created}");
    interact(
        &s,
        &app,
        &slash(
            BOB,
            "join",
            json!([{"name": "seed", "type": 3, "value": "bob.words.5678.xyz"}]),
            json!({}),
        ),
    )
    .await;
    let (_, prompt) = interact(&s, &app, &press(ANN, "move", None)).await;
    let button = &prompt["data"]["components"][0]["components"][0];
    assert_eq!(button["label"], "Type your move", "{prompt}");
    let type_id = button["custom_id"].as_str().unwrap().to_string();
    let decision: u64 = type_id.strip_prefix("type:").unwrap().parse().unwrap();
    let (_, modal) = interact(&s, &app, &press(ANN, &type_id, None)).await;
    assert_eq!(modal["type"], 9, "a form: {modal}");
    let typed_id = modal["data"]["custom_id"].as_str().unwrap().to_string();
    assert_eq!(modal["data"]["components"][0]["components"][0]["type"], 4);
    // A move that is not legal: previewed, then refused at Confirm; nothing is submitted.
    let (_, preview) = interact(&s, &app, &form(ANN, "7", &typed_id, "B z9 W y8")).await;
    let (_, refused) = interact(&s, &app, &press(ANN, &confirm_id(&preview), None)).await;
    assert_eq!(refused["data"]["flags"], 64, "{refused}");
    assert!(
        !refused["data"]["content"]
            .as_str()
            .unwrap()
            .contains("is in"),
        "{refused}"
    );
    // A legal move (the seat's own legal list over HTTP): previewed, confirmed, submitted.
    let (_, hand) = interact(&s, &app, &slash(ANN, "hand", json!([]), json!({}))).await;
    let text = hand["data"]["content"].as_str().unwrap();
    let token = text.split("#seat=").nth(1).unwrap().trim().to_string();
    let id = text
        .split("/m/")
        .nth(1)
        .unwrap()
        .split('#')
        .next()
        .unwrap()
        .to_string();
    let (_, st) = s
        .call("GET", &format!("/api/matches/{id}"), Some(&token), None)
        .await;
    let mv = st["legal_moves"][5].as_str().unwrap().to_string();
    let (_, preview) = interact(&s, &app, &form(ANN, "7", &typed_id, &mv)).await;
    assert_eq!(preview["type"], 7, "{preview}");
    assert!(preview["data"]["content"]
        .as_str()
        .unwrap()
        .contains(&format!("You chose {mv}")));
    let (_, done) = interact(&s, &app, &press(ANN, &confirm_id(&preview), None)).await;
    assert!(
        done["data"]["content"]
            .as_str()
            .unwrap()
            .contains(&format!("Your move {mv} is in")),
        "{done}"
    );
    let (_, st) = s
        .call("GET", &format!("/api/matches/{id}"), Some(&token), None)
        .await;
    assert_eq!(
        st["match"]["seats"]["p1"]["submission"],
        mv.as_str(),
        "{st}"
    );
    assert_eq!(st["decision"], decision);
}

#[tokio::test]
async fn interactions_are_limited_per_member_and_refused_ones_per_address() {
    // Every interaction comes from Discord's few addresses: one busy member must not stop the
    // others, and a flood of badly signed requests is still limited per address.
    let app = App::new();
    let s = common::server_with(Limits {
        discord: Some(app.config("http://127.0.0.1:9")),
        http_per_second: 1.0,
        http_burst: 3.0,
        ..open_limits()
    });
    let rules = |member: &str| {
        json!({"id": "2", "type": 2, "token": "t", "guild_id": "42", "channel_id": "7",
               "member": {"user": {"id": member, "username": "x"}},
               "data": {"name": "colosseum", "type": 1,
                        "options": [{"name": "rules", "type": 1,
                                     "options": [{"name": "game", "type": 3,
                                                  "value": "goofspiel"}]}]}})
    };
    let mut answers = Vec::new();
    for _ in 0..5 {
        let (status, body) = interact(&s, &app, &rules("100")).await;
        assert_eq!(status, StatusCode::OK, "Discord is always answered: {body}");
        answers.push(body["data"]["content"].as_str().unwrap().to_string());
    }
    assert!(
        answers[..3].iter().all(|a| a.contains("Goofspiel")),
        "{answers:?}"
    );
    assert!(
        answers[3..].iter().all(|a| a.contains("too fast")),
        "{answers:?}"
    );
    // Another member, from the same (Discord's) address, is answered.
    let (_, other) = interact(&s, &app, &rules("200")).await;
    assert!(
        other["data"]["content"]
            .as_str()
            .unwrap()
            .contains("Goofspiel"),
        "{other}"
    );
    // Refused requests count per address: 401 until the address's burst is spent, then 429.
    let mut statuses = Vec::new();
    for _ in 0..5 {
        let (status, _) = post(&s, Some(&"00".repeat(64)), Some("1700000000"), "{}").await;
        statuses.push(status.as_u16());
    }
    assert_eq!(statuses, [401, 401, 401, 429, 429]);
}

//! A tournament run in a Discord channel through interactions alone (the shared harness in
//! `common/discord.rs`: signed interactions, a stand-in for Discord's API): created by a host
//! with members and bots, each board joined and played by its members with `/colosseum join`
//! and the "Make your move" prompts, pairings, results and standings posted in the channel,
//! the winner announced; a replacement from Discord (the new member plays the game that had
//! not started, the old one is refused); the host's commands refused to a member who is not a
//! host, allowed to one with Manage Server.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use common::discord::{
    content, interact, press, select, server, slash, stand_in, wait_for, App, Call, ANN, BOB, CY,
};
use common::Server;
use serde_json::{json, Value};

const DEE: (&str, &str) = ("400", "Dee");
const EVE: (&str, &str) = ("500", "Eve");

/// The interaction's resolved users: each member's id and name.
fn resolved(members: &[(&str, &str)]) -> Value {
    let users: serde_json::Map<String, Value> = members
        .iter()
        .map(|(id, name)| {
            (
                id.to_string(),
                json!({"id": id, "username": name.to_lowercase(), "global_name": name}),
            )
        })
        .collect();
    json!({ "users": users })
}

fn string(name: &str, value: &str) -> Value {
    json!({"name": name, "type": 3, "value": value})
}

/// The text of an interaction's answer.
fn said(answer: &Value) -> String {
    answer["data"]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// `who` creates a tournament in channel 7; its id (from the page link in the answer).
async fn create(
    s: &Server,
    app: &App,
    who: (&str, &str),
    options: Value,
    members: &[(&str, &str)],
) -> String {
    let (status, answer) = interact(
        s,
        app,
        &slash(who, "tournament", options, resolved(members)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["type"], 4, "{answer}");
    assert!(answer["data"]["flags"].is_null(), "public: {answer}");
    let text = said(&answer);
    text.split("/t/")
        .nth(1)
        .unwrap_or_else(|| panic!("no page link: {text}"))
        .trim()
        .to_string()
}

/// The tournament's public view.
async fn view(s: &Server, id: &str) -> Value {
    let (status, v) = s
        .call("GET", &format!("/api/tournaments/{id}"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// Waits until the channel got `n` posts containing `needle`.
async fn posted(calls: &Arc<Mutex<Vec<Call>>>, needle: &str, n: usize) -> Vec<Call> {
    wait_for(calls, |c| {
        c.iter().filter(|c| content(c).contains(needle)).count() >= n
    })
    .await
}

/// `who` joins their board of the channel's tournament with their own seed.
async fn join(s: &Server, app: &App, who: (&str, &str)) -> Value {
    let seed = format!("{}-own-seed-{}", who.1.to_lowercase(), who.0);
    let (status, answer) = interact(
        s,
        app,
        &slash(who, "join", json!([string("seed", &seed)]), json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    answer
}

/// `who` makes one move if one is theirs to make (the first legal one, confirmed); whether
/// they did.
async fn move_once(s: &Server, app: &App, who: (&str, &str)) -> bool {
    let (_, prompt) = interact(s, app, &press(who, "move", None)).await;
    if prompt["data"]["components"][0]["components"][0]["type"] != 3 {
        return false;
    }
    assert_eq!(prompt["data"]["flags"], 64, "ephemeral: {prompt}");
    let (id, options) = select(&prompt);
    let (_, preview) = interact(s, app, &press(who, &id, Some(&options[0]))).await;
    let confirm = common::discord::confirm_id(&preview);
    let (_, done) = interact(s, app, &press(who, &confirm, None)).await;
    assert_eq!(done["type"], 7, "{done}");
    true
}

/// Two members and two bots play a round robin of Goofspiel (cards=3) from the channel: each
/// round's boards are announced ready, the members join theirs (against each other or a bot)
/// and play them through the prompts; results and standings are posted after each round, and
/// the winner at the end. `/colosseum standings` posts them for anyone; the host's commands
/// are refused to Bob.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_members_and_bots_is_played_from_the_channel() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    let id = create(
        &s,
        &app,
        ANN,
        json!([
            string("game", "goofspiel"),
            string("format", "round_robin"),
            string("players", "<@100> <@200> bot:random:Rex bot:random"),
            string("options", "cards=3"),
            string("name", "Channel Cup")
        ]),
        &[ANN, BOB],
    )
    .await;
    let v = view(&s, &id).await;
    let names: Vec<&str> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ann", "Bob", "Rex", "Ada"]);
    // Bob is not the host.
    let (_, refused) = interact(&s, &app, &slash(BOB, "next-round", json!([]), json!({}))).await;
    assert_eq!(refused["data"]["flags"], 64, "{refused}");
    assert!(
        said(&refused).contains("Only the tournament's host"),
        "{refused}"
    );
    for round in 1..=3 {
        // Each member's board is announced ready in the channel; they join it.
        posted(&calls, &format!("Channel Cup, round {round}, board"), 1).await;
        for who in [ANN, BOB] {
            let needle = format!("round {round}, board");
            wait_for(&calls, |c| {
                c.iter().any(|c| {
                    content(c).contains(&needle)
                        && content(c).contains("The table is ready")
                        && content(c).contains(who.1)
                })
            })
            .await;
        }
        for who in [ANN, BOB] {
            let answer = join(&s, &app, who).await;
            assert_eq!(answer["type"], 4, "{answer}");
            assert!(answer["data"]["flags"].is_null(), "{answer}");
        }
        // They play until the round is complete.
        for _ in 0..4_800 {
            if view(&s, &id).await["rounds"][round - 1]["complete"] == true {
                break;
            }
            let mut moved = false;
            for who in [ANN, BOB] {
                moved |= move_once(&s, &app, who).await;
            }
            if !moved {
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
        }
        let v = view(&s, &id).await;
        assert_eq!(v["rounds"][round - 1]["complete"], true, "{v}");
        posted(
            &calls,
            &format!("Channel Cup: standings after round {round}"),
            1,
        )
        .await;
    }
    let calls_now = posted(&calls, "Channel Cup is over: final standings", 1).await;
    let last = calls_now
        .iter()
        .map(content)
        .find(|c| c.contains("is over: final standings"))
        .unwrap();
    assert!(
        last.contains("wins the tournament.") || last.contains("share first place."),
        "{last}"
    );
    // Every post went to the channel as the bot.
    for c in &calls_now {
        assert_eq!(c.path, "/api/v10/channels/7/messages", "{c:?}");
        assert_eq!(c.authorization.as_deref(), Some("Bot bot-token-xyz"));
    }
    // Each round's pairings and each board's result were posted.
    for round in 1..=3 {
        assert!(
            calls_now
                .iter()
                .any(|c| content(c).contains(&format!("Channel Cup: round {round} (Goofspiel)"))),
            "round {round}'s pairings"
        );
    }
    let v = view(&s, &id).await;
    assert_eq!(v["status"], "finished");
    // Anyone may ask for the standings: posted publicly.
    let (_, standings) = interact(&s, &app, &slash(BOB, "standings", json!([]), json!({}))).await;
    assert!(standings["data"]["flags"].is_null(), "{standings}");
    let text = said(&standings);
    assert!(text.contains("Channel Cup**: final standings"), "{text}");
    for name in ["Ann", "Bob", "Rex", "Ada"] {
        assert!(text.contains(&format!(". {name}: ")), "{text}");
    }
}

/// The host replaces Cy by Eve from Discord before Cy's first game began: Eve gets the game
/// (a new table, announced), joins and plays it; Cy is refused. Bob (not a host) may not
/// replace; Dee, with Manage Server, may forfeit a game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replacement_from_discord_gives_the_new_member_the_game_not_started() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    let members = [ANN, BOB, CY, DEE];
    let id = create(
        &s,
        &app,
        ANN,
        json!([
            string("game", "goofspiel"),
            string("format", "swiss"),
            json!({"name": "rounds", "type": 4, "value": 1}),
            string("players", "<@100> <@200> <@300> <@400>"),
            string("options", "cards=3"),
            string("name", "Swap")
        ]),
        &members,
    )
    .await;
    posted(&calls, "The table is ready", 2).await;
    let replace = |who: (&'static str, &'static str)| {
        let mut i = slash(
            who,
            "replace",
            json!([{"name": "member", "type": 6, "value": "300"},
                   {"name": "with", "type": 6, "value": "500"}]),
            resolved(&[CY, EVE]),
        );
        i["member"]["permissions"] = json!("0");
        i
    };
    let (_, refused) = interact(&s, &app, &replace(BOB)).await;
    assert!(
        said(&refused).contains("Only the tournament's host"),
        "{refused}"
    );
    let (_, done) = interact(&s, &app, &replace(ANN)).await;
    assert!(said(&done).contains("Eve takes Cy's place"), "{done}");
    // The game made for Cy is made again for Eve and announced.
    let got = wait_for(&calls, |c| {
        c.iter()
            .any(|c| content(c).contains("The table is ready") && content(c).contains("Eve"))
    })
    .await;
    assert!(
        got.iter()
            .any(|c| content(c).contains("a new table, as Eve takes Cy's place")),
        "{:#?}",
        got.iter().map(content).collect::<Vec<_>>()
    );
    let v = view(&s, &id).await;
    let boards = v["rounds"][0]["boards"].as_array().unwrap();
    let eve_board = boards
        .iter()
        .position(|b| b["p1"]["name"] == "Eve" || b["p2"]["name"] == "Eve")
        .expect("Eve plays round 1");
    assert_eq!(v["players"][2]["name"], "Eve");
    assert_eq!(v["players"][2]["replaced"][0]["name"], "Cy");
    // Cy is refused; Eve and her opponent join and play.
    let cy = join(&s, &app, CY).await;
    assert_eq!(cy["data"]["flags"], 64, "{cy}");
    let b = &boards[eve_board];
    let other = if b["p1"]["name"] == "Eve" {
        &b["p2"]
    } else {
        &b["p1"]
    };
    let opponent = *members.iter().find(|m| other["name"] == m.1).unwrap();
    let first = join(&s, &app, EVE).await;
    assert!(said(&first).contains("Eve joins"), "{first}");
    let begun = join(&s, &app, opponent).await;
    assert!(said(&begun).contains("the match begins"), "{begun}");
    assert!(move_once(&s, &app, EVE).await);
    // Dee may not forfeit another player's game; with Manage Server she may.
    let forfeiting = if opponent.0 == BOB.0 { ANN } else { BOB };
    let mut forfeit = slash(
        DEE,
        "forfeit",
        json!([{"name": "member", "type": 6, "value": forfeiting.0}]),
        resolved(&[forfeiting]),
    );
    let (_, refused) = interact(&s, &app, &forfeit).await;
    assert!(
        said(&refused).contains("Only the tournament's host"),
        "{refused}"
    );
    forfeit["member"]["permissions"] = json!("32");
    let (_, done) = interact(&s, &app, &forfeit).await;
    assert!(
        said(&done).contains(&format!("{} forfeits round 1", forfeiting.1)),
        "{done}"
    );
}

/// The tournament's subcommands are registered with `/colosseum`, each in Discord's shape
/// (SUB_COMMAND, required options first, the member options of type USER).
#[test]
fn the_tournament_commands_are_registered() {
    let commands = colosseum_server::discord::commands();
    let subs = commands[0]["options"].as_array().unwrap();
    let find = |name: &str| {
        subs.iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("no {name}"))
    };
    let tournament = find("tournament");
    assert_eq!(tournament["type"], 1);
    let names: Vec<&str> = tournament["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "game",
            "format",
            "players",
            "rounds",
            "options",
            "clock",
            "verbosity",
            "manual",
            "name",
            "no-show"
        ]
    );
    assert_eq!(tournament["options"][3]["type"], 4, "rounds: INTEGER");
    assert_eq!(tournament["options"][7]["type"], 5, "manual: BOOLEAN");
    for name in ["next-round", "standings"] {
        assert_eq!(find(name)["type"], 1);
    }
    for name in ["forfeit", "undo-forfeit"] {
        assert_eq!(find(name)["options"][0]["type"], 6, "member: USER");
    }
}

/// After a restart (the store and `--discord-state` kept) the channel's tournament is found
/// again: its standings, its host's powers (Ann forfeits Bob's game) and its boards bound
/// before (Ann joins hers).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_finds_the_channels_tournament_again() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let (_dir, db) = common::temp_db("discord-tournament-restart", "t.db");
    let state_file = db.with_file_name("discord-state.json");
    let config = || {
        colosseum_server::discord::Config::new(
            "1234567890",
            &app.public_hex(),
            "bot-token-xyz",
            Some(&base),
        )
        .unwrap()
        .with_state_file(state_file.clone())
        .unwrap()
        .leak()
    };
    let serve = |config| {
        common::server_on_store(
            colosseum_server::SqliteStore::open(&db).unwrap(),
            colosseum_server::Limits {
                discord: Some(config),
                ..common::open_limits()
            },
            false,
        )
    };
    let id = {
        let s = serve(config());
        let id = create(
            &s,
            &app,
            ANN,
            json!([
                string("game", "goofspiel"),
                string("format", "round_robin"),
                string("players", "<@100> <@200> bot:random bot:random"),
                string("options", "cards=3"),
                string("name", "Again"),
                json!({"name": "manual", "type": 5, "value": true})
            ]),
            &[ANN, BOB],
        )
        .await;
        posted(&calls, "The table is ready", 2).await;
        id
    };
    let s = serve(config());
    assert!(s.state.tournaments.resume().await.unwrap() >= 1);
    let (_, standings) = interact(&s, &app, &slash(CY, "standings", json!([]), json!({}))).await;
    assert!(
        said(&standings).contains("**Again**: standings after 1 round paired"),
        "{standings}"
    );
    let forfeit = slash(
        ANN,
        "forfeit",
        json!([{"name": "member", "type": 6, "value": BOB.0}]),
        resolved(&[BOB]),
    );
    let (_, done) = interact(&s, &app, &forfeit).await;
    assert!(said(&done).contains("Bob forfeits round 1"), "{done}");
    let joined = join(&s, &app, ANN).await;
    assert!(said(&joined).contains("the match begins"), "{joined}");
    let v = view(&s, &id).await;
    assert_eq!(v["rounds"].as_array().unwrap().len(), 1);
}

/// With `no-show:` a member who does not join in time forfeits; the host takes the forfeit back
/// from Discord and the game goes on (the member then joins and plays); a member with no
/// forfeit is answered so. (Host-started rounds: the tournament is not over after round 1.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_no_show_forfeit_is_taken_back_from_discord() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    let id = create(
        &s,
        &app,
        ANN,
        json!([
            string("game", "goofspiel"),
            string("format", "round_robin"),
            string("players", "<@200> bot:random bot:random bot:random"),
            string("options", "cards=3"),
            string("name", "Late"),
            json!({"name": "no-show", "type": 4, "value": 5}),
            json!({"name": "manual", "type": 5, "value": true})
        ]),
        &[BOB],
    )
    .await;
    posted(&calls, "The table is ready", 1).await;
    s.clock.advance(5 * 60_000);
    posted(&calls, "no-show (Bob absent)", 1).await;
    let undo = |member: (&str, &str)| {
        slash(
            ANN,
            "undo-forfeit",
            json!([{"name": "member", "type": 6, "value": member.0}]),
            resolved(&[member]),
        )
    };
    let (_, none) = interact(&s, &app, &undo(CY)).await;
    assert_eq!(none["data"]["flags"], 64, "{none}");
    let (_, done) = interact(&s, &app, &undo(BOB)).await;
    assert!(
        said(&done).contains("Bob's no-show forfeit is taken back"),
        "{done}"
    );
    let v = view(&s, &id).await;
    let bob = v["rounds"][0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["p1"]["name"] == "Bob" || b["p2"]["name"] == "Bob")
        .unwrap()
        .clone();
    assert!(bob["result"].is_null(), "{v}");
    assert_ne!(v["status"], "finished");
    let joined = join(&s, &app, BOB).await;
    assert!(said(&joined).contains("the match begins"), "{joined}");
    assert!(move_once(&s, &app, BOB).await);
    // The host starts the next round once this one is over, not before.
    let next = slash(ANN, "next-round", json!([]), json!({}));
    let (_, early) = interact(&s, &app, &next).await;
    assert_eq!(early["data"]["flags"], 64, "{early}");
    assert!(said(&early).contains("still being played"), "{early}");
    for _ in 0..4_800 {
        if view(&s, &id).await["rounds"][0]["complete"] == true {
            break;
        }
        if !move_once(&s, &app, BOB).await {
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
    let (_, paired) = interact(&s, &app, &next).await;
    assert!(
        said(&paired).contains("The next round is paired"),
        "{paired}"
    );
    posted(&calls, "Late: round 2 (Goofspiel)", 1).await;
    posted(&calls, "Late, round 2, board", 1).await;
}

//! The host's and the players' commands on Discord (issue 38): `/colosseum host`, `join` in
//! either order, `clock:`, the host's powers (pause, resume, extra-time, adjudicate, replace)
//! and who may use them, several matches in one channel, sealed matches played from Discord,
//! and a timeout. Interactions are signed with the test's key pair and sent to the
//! interactions endpoint (tests/common/discord.rs); the matches are read back over HTTP.

mod common;

use axum::http::StatusCode;
use common::discord::*;
use common::Server;
use serde_json::{json, Value};

const DAN: (&str, &str) = ("400", "Dan");
const EVE: (&str, &str) = ("500", "Eve");

/// Discord's `resolved` data naming `members`.
fn users(members: &[(&str, &str)]) -> Value {
    let mut users = serde_json::Map::new();
    for (id, name) in members {
        users.insert(
            (*id).to_string(),
            json!({"id": id, "username": name.to_lowercase(), "global_name": name}),
        );
    }
    json!({ "users": users })
}

/// `interaction` with the member's `permissions` (Discord's decimal bitfield).
fn with_permissions(mut interaction: Value, permissions: &str) -> Value {
    interaction["member"]["permissions"] = json!(permissions);
    interaction
}

/// An option of a slash command.
fn opt(name: &str, kind: u64, value: Value) -> Value {
    json!({"name": name, "type": kind, "value": value})
}

/// `host` hosts Goofspiel (cards=3) between `first` and `second` in channel 7, with `extra`
/// options; the answer.
async fn host_match(
    s: &Server,
    app: &App,
    host: (&str, &str),
    first: (&str, &str),
    second: (&str, &str),
    extra: Vec<Value>,
) -> Value {
    let mut options = vec![
        opt("game", 3, json!("goofspiel")),
        opt("first", 6, json!(first.0)),
        opt("second", 6, json!(second.0)),
        opt("options", 3, json!("cards=3")),
    ];
    options.extend(extra);
    let (status, answer) = interact(
        s,
        app,
        &slash(host, "host", json!(options), users(&[first, second])),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    answer
}

/// The match id an announcement names (`match \`ID\``).
fn match_id(answer: &Value) -> String {
    let text = answer["data"]["content"].as_str().unwrap();
    text.split("match `")
        .nth(1)
        .and_then(|t| t.split('`').next())
        .unwrap_or_else(|| panic!("no match id: {text}"))
        .to_string()
}

/// `who` joins with their own seed; the answer's text.
async fn join(s: &Server, app: &App, who: (&str, &str)) -> String {
    let seed = format!("{}-own-seed-words-42", who.1.to_lowercase());
    let (_, answer) = interact(
        s,
        app,
        &slash(who, "join", json!([opt("seed", 3, json!(seed))]), json!({})),
    )
    .await;
    answer["data"]["content"].as_str().unwrap().to_string()
}

/// A host's power: `/colosseum SUB` by `who` with `options`, optionally with permissions.
async fn power(
    s: &Server,
    app: &App,
    who: (&str, &str),
    sub: &str,
    options: Vec<Value>,
    permissions: Option<&str>,
) -> Value {
    let mut i = slash(who, sub, json!(options), users(&[ANN, BOB, CY, DAN, EVE]));
    if let Some(p) = permissions {
        i = with_permissions(i, p);
    }
    interact(s, app, &i).await.1
}

fn text(answer: &Value) -> &str {
    answer["data"]["content"].as_str().unwrap_or_default()
}

fn is_ephemeral(answer: &Value) -> bool {
    answer["data"]["flags"] == 64
}

/// The spectator's state of match `id`.
async fn spectate(s: &Server, id: &str) -> Value {
    s.call("GET", &format!("/api/matches/{id}"), None, None)
        .await
        .1
}

/// `who`'s seat token, from the web table link `/colosseum hand` gives.
async fn token(s: &Server, app: &App, who: (&str, &str)) -> String {
    let (_, hand) = interact(s, app, &slash(who, "hand", json!([]), json!({}))).await;
    text(&hand)
        .split("#seat=")
        .nth(1)
        .unwrap_or_else(|| panic!("no link: {hand}"))
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// `who` opens their prompt (the `move` button), picks the first move and confirms; the
/// confirmation's text.
async fn first_move(s: &Server, app: &App, who: (&str, &str)) -> String {
    let (_, prompt) = interact(s, app, &press(who, "move", None)).await;
    assert!(is_ephemeral(&prompt), "{prompt}");
    let (id, options) = select(&prompt);
    let (_, preview) = interact(s, app, &press(who, &id, Some(&options[0]))).await;
    let (_, done) = interact(s, app, &press(who, &confirm_id(&preview), None)).await;
    text(&done).to_string()
}

/// Waits (real time: the server's openers are tasks) until match `id` satisfies `done`.
async fn until(s: &Server, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..4_800 {
        let st = spectate(s, id).await;
        if done(&st) {
            return st;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("never: {}", spectate(s, id).await);
}

/// Ann and Bob play Goofspiel (cards=3) to its end from Discord: three decisions.
async fn play_out(s: &Server, app: &App, id: &str) {
    for round in 0..3 {
        assert!(
            first_move(s, app, ANN).await.contains("is in"),
            "round {round}"
        );
        assert!(
            first_move(s, app, BOB).await.contains("is in"),
            "round {round}"
        );
    }
    let st = until(s, id, |st| st["status"] == "finished").await;
    assert!(st["match"]["result"].is_object(), "{st}");
}

#[tokio::test]
async fn a_hosted_match_is_joined_in_either_order_and_played_to_its_result() {
    let app = App::new();
    let (base, _) = stand_in().await;
    let s = server(&app, &base);
    // Cy hosts; Cy does not play.
    let hosted = host_match(&s, &app, CY, ANN, BOB, vec![]).await;
    assert!(!is_ephemeral(&hosted), "public: {hosted}");
    assert!(text(&hosted).contains("Cy hosts Goofspiel"), "{hosted}");
    assert!(text(&hosted).contains("Ann v Bob"), "{hosted}");
    let id = match_id(&hosted);
    // The second seat joins first: the match waits for Ann.
    let bob = join(&s, &app, BOB).await;
    assert!(bob.contains("Bob joins"), "{bob}");
    assert_eq!(spectate(&s, &id).await["status"], "waiting");
    assert!(join(&s, &app, BOB).await.contains("joined already"));
    // Cy, the host, holds no seat: refused.
    assert!(join(&s, &app, CY).await.contains("not a player"));
    let ann = join(&s, &app, ANN).await;
    assert!(ann.contains("begins"), "{ann}");
    let st = spectate(&s, &id).await;
    assert_eq!(st["status"], "live", "{st}");
    assert_eq!(st["names"]["p1"], "Ann");
    assert_eq!(st["names"]["p2"], "Bob");
    play_out(&s, &app, &id).await;

    // The other order, a second match in the same channel: Ann first.
    let hosted = host_match(&s, &app, CY, ANN, BOB, vec![]).await;
    let second = match_id(&hosted);
    assert_ne!(second, id);
    assert!(join(&s, &app, ANN).await.contains("Ann joins"));
    assert!(join(&s, &app, BOB).await.contains("begins"));
    assert_eq!(spectate(&s, &second).await["status"], "live");
    play_out(&s, &app, &second).await;
    // Both seeds were the members' own, committed then revealed: the match verifies.
    let (status, report) = s
        .call("GET", &format!("/api/matches/{second}/verify"), None, None)
        .await;
    assert!(
        status == StatusCode::OK || status == StatusCode::ACCEPTED,
        "{status} {report}"
    );
}

#[tokio::test]
async fn a_bad_clock_is_refused_with_what_is_allowed_and_a_good_one_is_the_matchs() {
    let app = App::new();
    let (base, _) = stand_in().await;
    let s = server(&app, &base);
    for bad in ["soon", "60x", "100h", "60s+"] {
        let answer = host_match(&s, &app, CY, ANN, BOB, vec![opt("clock", 3, json!(bad))]).await;
        assert!(is_ephemeral(&answer), "{answer}");
        let words = text(&answer);
        assert!(words.contains(&format!("`clock: {bad}`")), "{words}");
        assert!(
            words.contains("Allowed:") && words.contains("`90s+5m`") && words.contains("untimed"),
            "{words}"
        );
    }
    // Over the server's longest decision: the limit's own words too.
    let answer = host_match(&s, &app, CY, ANN, BOB, vec![opt("clock", 3, json!("100h"))]).await;
    assert!(text(&answer).contains("must be"), "{answer}");
    // `/colosseum new` takes `clock:` too, refused the same way.
    let (_, answer) = interact(
        &s,
        &app,
        &slash(
            ANN,
            "new",
            json!([
                opt("game", 3, json!("goofspiel")),
                opt("opponent", 6, json!("200")),
                opt("seed", 3, json!("ann-own-words-1234")),
                opt("clock", 3, json!("fast"))
            ]),
            users(&[BOB]),
        ),
    )
    .await;
    assert!(
        is_ephemeral(&answer) && text(&answer).contains("Allowed:"),
        "{answer}"
    );
    // A good clock is the match's: 90 s a decision and a bank of 5 minutes.
    let answer = host_match(
        &s,
        &app,
        CY,
        ANN,
        BOB,
        vec![opt("clock", 3, json!("90s+5m"))],
    )
    .await;
    let id = match_id(&answer);
    let st = spectate(&s, &id).await;
    let time = &st["match"]["time_control"];
    assert_eq!(time["kind"], "timed", "{st}");
    assert_eq!(time["per_decision_ms"], 90_000);
    assert_eq!(time["bank_ms"], 300_000);
    let answer = host_match(
        &s,
        &app,
        CY,
        ANN,
        BOB,
        vec![opt("clock", 3, json!("untimed"))],
    )
    .await;
    let st = spectate(&s, &match_id(&answer)).await;
    assert_eq!(st["match"]["time_control"]["kind"], "untimed", "{st}");
}

#[tokio::test]
async fn the_hosts_powers_are_the_hosts_and_managers_only() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    let id = match_id(&host_match(&s, &app, CY, ANN, BOB, vec![]).await);
    join(&s, &app, ANN).await;
    join(&s, &app, BOB).await;
    // A player who is not the host, and a bystander: refused privately, nothing changes.
    for who in [ANN, DAN] {
        let answer = power(&s, &app, who, "pause", vec![], None).await;
        assert!(is_ephemeral(&answer), "{answer}");
        assert!(text(&answer).contains("Only the host"), "{answer}");
        // A member with other permissions (Send Messages, 0x800) is not a host either.
        let answer = power(&s, &app, who, "pause", vec![], Some("2048")).await;
        assert!(text(&answer).contains("Only the host"), "{answer}");
    }
    assert_eq!(spectate(&s, &id).await["paused"], false);
    // The match's posts go to its channel (set by a task the join starts: set here too, the
    // same target, so that the powers below are not used before it is).
    let table = s.hub.table(&id).await.unwrap();
    let hook = colosseum_server::discord::post::channel_hook(app.config(&base), "7");
    s.hub.set_webhook_from_start(&table, hook).await.unwrap();
    // The host pauses and resumes.
    let answer = power(&s, &app, CY, "pause", vec![], None).await;
    assert!(text(&answer).contains("pauses"), "{answer}");
    assert_eq!(spectate(&s, &id).await["paused"], true);
    let (_, refused) = interact(&s, &app, &press(ANN, "confirm:1:1", None)).await;
    assert!(is_ephemeral(&refused), "{refused}");
    assert!(
        text(&refused).contains("paused"),
        "no move while paused: {refused}"
    );
    let answer = power(&s, &app, CY, "resume", vec![], None).await;
    assert!(text(&answer).contains("resumes"), "{answer}");
    assert_eq!(spectate(&s, &id).await["paused"], false);
    // Extra time: Ann's deadline moves on by 30 s.
    let before = spectate(&s, &id).await["match"]["seats"]["p1"]["clock"]["deadline"]
        .as_u64()
        .unwrap();
    let answer = power(
        &s,
        &app,
        CY,
        "extra-time",
        vec![opt("member", 6, json!(ANN.0)), opt("seconds", 4, json!(30))],
        None,
    )
    .await;
    assert!(
        text(&answer).contains("gives Ann 30 seconds more"),
        "{answer}"
    );
    let after = spectate(&s, &id).await["match"]["seats"]["p1"]["clock"]["deadline"]
        .as_u64()
        .unwrap();
    assert_eq!(after, before + 30_000);
    // Bad extra time: a non-player, or no seconds.
    let answer = power(
        &s,
        &app,
        CY,
        "extra-time",
        vec![opt("member", 6, json!(DAN.0)), opt("seconds", 4, json!(30))],
        None,
    )
    .await;
    assert!(is_ephemeral(&answer), "{answer}");
    let answer = power(
        &s,
        &app,
        CY,
        "extra-time",
        vec![opt("member", 6, json!(ANN.0)), opt("seconds", 4, json!(0))],
        None,
    )
    .await;
    assert!(text(&answer).contains("`seconds:` is 1 to"), "{answer}");
    // Adjudicate: refused for a player, allowed for Eve, who manages the server (0x20).
    let adjudicate = vec![
        opt("reason", 3, json!("Ann left the table")),
        opt("winner", 6, json!(BOB.0)),
    ];
    let answer = power(&s, &app, BOB, "adjudicate", adjudicate.clone(), None).await;
    assert!(text(&answer).contains("Only the host"), "{answer}");
    assert_eq!(spectate(&s, &id).await["status"], "live");
    let answer = power(&s, &app, EVE, "adjudicate", adjudicate, Some("32")).await;
    assert!(text(&answer).contains("Bob wins"), "{answer}");
    // Each power is announced once in the channel, by the match's posts (the answers were the
    // host's only).
    assert!(is_ephemeral(&answer), "{answer}");
    let posts = wait_for(&calls, |c| {
        c.iter()
            .any(|c| content(c).contains("The host adjudicated"))
    })
    .await;
    let told = |words: &str| posts.iter().filter(|c| content(c).contains(words)).count();
    assert_eq!(told("The host paused"), 1, "{posts:#?}");
    assert_eq!(told("The host resumed"), 1, "{posts:#?}");
    assert_eq!(told("The host gave Ann 30 seconds more"), 1, "{posts:#?}");
    assert_eq!(told("Bob wins: Ann left the table"), 1, "{posts:#?}");
    let st = spectate(&s, &id).await;
    assert_eq!(st["status"], "finished", "{st}");
    assert_eq!(st["match"]["result"]["winner"], "p2", "{st}");
    // A challenger created their match but plays in it: no host's powers over it.
    let (_, created) = interact(
        &s,
        &app,
        &slash(
            ANN,
            "new",
            json!([
                opt("game", 3, json!("goofspiel")),
                opt("opponent", 6, json!(BOB.0)),
                opt("seed", 3, json!("ann-own-words-1234"))
            ]),
            users(&[BOB]),
        ),
    )
    .await;
    let challenge = match_id(&created);
    join(&s, &app, BOB).await;
    assert_eq!(spectate(&s, &challenge).await["status"], "live");
    let answer = power(
        &s,
        &app,
        ANN,
        "adjudicate",
        vec![
            opt("reason", 3, json!("I say so")),
            opt("winner", 6, json!(ANN.0)),
        ],
        None,
    )
    .await;
    assert!(text(&answer).contains("Only the host"), "{answer}");
    assert_eq!(spectate(&s, &challenge).await["status"], "live");
    let answer = power(&s, &app, CY, "resign", vec![], None).await;
    assert!(text(&answer).contains("not a player"), "{answer}");
    // An Administrator (0x8) may host a match they did not create: a draw this time.
    let id = match_id(&host_match(&s, &app, CY, ANN, BOB, vec![]).await);
    join(&s, &app, ANN).await;
    join(&s, &app, BOB).await;
    let answer = power(
        &s,
        &app,
        DAN,
        "adjudicate",
        vec![
            opt("reason", 3, json!("agreed")),
            opt("draw", 5, json!(true)),
            opt("match", 3, json!(id)),
        ],
        Some("8"),
    )
    .await;
    assert!(text(&answer).contains("draw"), "{answer}");
    let st = spectate(&s, &id).await;
    assert_eq!(st["status"], "finished");
    assert!(st["match"]["result"]["winner"].is_null(), "{st}");
}

#[tokio::test]
async fn a_replaced_players_seat_passes_to_the_new_member() {
    let app = App::new();
    let (base, _) = stand_in().await;
    let s = server(&app, &base);
    let id = match_id(&host_match(&s, &app, CY, ANN, BOB, vec![]).await);
    join(&s, &app, ANN).await;
    join(&s, &app, BOB).await;
    // Not the host: refused.
    let replace = vec![opt("member", 6, json!(BOB.0)), opt("with", 6, json!(DAN.0))];
    let answer = power(&s, &app, ANN, "replace", replace.clone(), None).await;
    assert!(text(&answer).contains("Only the host"), "{answer}");
    let answer = power(&s, &app, CY, "replace", replace, None).await;
    assert!(!is_ephemeral(&answer), "announced: {answer}");
    let words = text(&answer);
    assert!(
        words.contains("replaces Bob with Dan") && words.contains(&id),
        "{words}"
    );
    // Bob is refused; Dan plays the seat.
    let (_, refused) = interact(&s, &app, &press(BOB, "move", None)).await;
    assert!(text(&refused).contains("not a player"), "{refused}");
    assert!(first_move(&s, &app, DAN).await.contains("is in"));
    let (_, st) = s
        .call(
            "GET",
            &format!("/api/matches/{id}"),
            Some(&token(&s, &app, DAN).await),
            None,
        )
        .await;
    assert_eq!(st["you"], "p2", "{st}");
    assert_eq!(st["match"]["seats"]["p2"]["submitted"], true, "{st}");
    // The record keeps the seat's name.
    assert_eq!(st["names"]["p2"], "Bob");
}

#[tokio::test]
async fn two_matches_in_one_channel_each_member_reaches_their_own() {
    let app = App::new();
    let (base, _) = stand_in().await;
    let s = server(&app, &base);
    let first = match_id(&host_match(&s, &app, CY, ANN, BOB, vec![]).await);
    join(&s, &app, ANN).await;
    join(&s, &app, BOB).await;
    let second = match_id(&host_match(&s, &app, CY, ANN, DAN, vec![]).await);
    // Ann joins the second (her seat in the first has begun); Dan too.
    assert!(join(&s, &app, ANN).await.contains("Ann joins"));
    assert!(join(&s, &app, DAN).await.contains("begins"));
    // Ann plays both: her buttons name the match.
    let (_, prompt) = interact(&s, &app, &press(ANN, "move", None)).await;
    let (menu, _) = select(&prompt);
    assert!(menu.contains('@'), "names its match: {menu}");
    let played = if menu.contains(&format!("@{first}:")) {
        first.clone()
    } else {
        assert!(menu.contains(&format!("@{second}:")), "{menu}");
        second.clone()
    };
    assert!(first_move(&s, &app, ANN).await.contains("is in"));
    // Her next `move` is the other match, whose decision waits for her.
    let (_, prompt) = interact(&s, &app, &press(ANN, "move", None)).await;
    let (menu, _) = select(&prompt);
    assert!(menu.contains('@') && !menu.contains(&played), "{menu}");
    assert!(first_move(&s, &app, ANN).await.contains("is in"));
    // Bob and Dan each reach their own (one live match each: no id needed).
    let (_, prompt) = interact(&s, &app, &press(BOB, "move", None)).await;
    assert!(!select(&prompt).0.contains('@'), "{prompt}");
    assert!(first_move(&s, &app, BOB).await.contains("is in"));
    assert!(first_move(&s, &app, DAN).await.contains("is in"));
    // Each match went on by one reveal, each seat by its own member.
    for id in [&first, &second] {
        let st = spectate(&s, id).await;
        let reveals = st["match"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["p1"].is_string() && m["p2"].is_string())
            .count();
        assert_eq!(reveals, 1, "{st}");
    }
    // Dan, in the second only, cannot press the first's button.
    let (_, refused) = interact(&s, &app, &press(DAN, &format!("move@{first}"), None)).await;
    assert!(text(&refused).contains("not a player"), "{refused}");
    // Cy, in neither: refused.
    let (_, refused) = interact(&s, &app, &press(CY, "move", None)).await;
    assert!(text(&refused).contains("not a player"), "{refused}");
    // Ann, in both, resigns only the match she names: without `match:` she is asked which.
    let (_, asked) = interact(&s, &app, &slash(ANN, "resign", json!([]), json!({}))).await;
    assert!(is_ephemeral(&asked), "{asked}");
    assert!(text(&asked).contains("`match:`"), "{asked}");
    for id in [&first, &second] {
        assert_eq!(spectate(&s, id).await["status"], "live");
    }
    let (_, resigned) = interact(
        &s,
        &app,
        &slash(
            ANN,
            "resign",
            json!([opt("match", 3, json!(second))]),
            json!({}),
        ),
    )
    .await;
    assert!(text(&resigned).contains("Ann resigns"), "{resigned}");
    assert_eq!(spectate(&s, &second).await["status"], "finished");
    assert_eq!(spectate(&s, &first).await["status"], "live");
    // Now one live match is hers here: `resign` needs no name (Bob's match goes on meanwhile).
    let (_, prompt) = interact(&s, &app, &press(ANN, "move", None)).await;
    assert!(!select(&prompt).0.contains('@'), "{prompt}");
}

#[tokio::test]
async fn a_sealed_match_is_played_from_discord() {
    let app = App::new();
    let (base, _) = stand_in().await;
    let s = server(&app, &base);
    let id =
        match_id(&host_match(&s, &app, CY, ANN, BOB, vec![opt("sealed", 5, json!(true))]).await);
    join(&s, &app, ANN).await;
    join(&s, &app, BOB).await;
    let st = spectate(&s, &id).await;
    assert_eq!(st["match"]["sealed"]["phase"], "commit", "{st}");
    let (ann, bob) = (token(&s, &app, ANN).await, token(&s, &app, BOB).await);
    for _ in 0..3 {
        let decision = spectate(&s, &id).await["decision"].as_u64().unwrap();
        let done = first_move(&s, &app, ANN).await;
        assert!(done.contains("sealed"), "{done}");
        // Ann has committed: her commitment is public, her move is not, not even to Bob.
        let (_, seen) = s
            .call("GET", &format!("/api/matches/{id}"), Some(&bob), None)
            .await;
        let p1 = &seen["match"]["seats"]["p1"];
        assert_eq!(p1["committed"], true, "{seen}");
        assert!(p1.get("submission").is_none(), "{seen}");
        assert_eq!(seen["decision"], decision, "{seen}");
        // Her prompt says her move is in; a second Confirm for the decision (a double press,
        // or another move) changes nothing: the move kept is the one opened.
        let (_, again) = interact(&s, &app, &press(ANN, "move", None)).await;
        assert!(text(&again).contains("is in"), "{again}");
        let (_, again) = interact(
            &s,
            &app,
            &press(ANN, &format!("confirm:{decision}:3"), None),
        )
        .await;
        assert!(text(&again).contains("is in, sealed"), "{again}");
        assert!(first_move(&s, &app, BOB).await.contains("sealed"));
        // Both committed: the server opens both, and the decision is revealed.
        until(&s, &id, |st| {
            st["decision"].as_u64() > Some(decision) || st["status"] == "finished"
        })
        .await;
    }
    let st = until(&s, &id, |st| st["status"] == "finished").await;
    // Every sealed decision was opened with the commitments made: the record shows them.
    let (_, mine) = s
        .call("GET", &format!("/api/matches/{id}"), Some(&ann), None)
        .await;
    assert_eq!(mine["status"], "finished", "{mine}");
    assert!(st["match"]["result"].is_object(), "{st}");
    // Three reveals, each seat's move opened from its commitment.
    let reveals = st["match"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["p1"].is_string() && m["p2"].is_string())
        .count();
    assert_eq!(reveals, 3, "{st}");
    assert_eq!(
        st["match"]["sealed"]["last"]["p1"]["nonce"]
            .as_str()
            .map(str::len),
        Some(32)
    );
}

#[tokio::test]
async fn a_timeout_in_a_hosted_match_is_noticed() {
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    let id =
        match_id(&host_match(&s, &app, CY, ANN, BOB, vec![opt("clock", 3, json!("60s"))]).await);
    join(&s, &app, ANN).await;
    join(&s, &app, BOB).await;
    assert!(first_move(&s, &app, ANN).await.contains("is in"));
    // Bob lets his 60 s run out: the host plays for him.
    s.clock.advance(61_000);
    s.hub.tick_all().await.unwrap();
    let st = until(&s, &id, |st| st["match"]["timed_out"][0] == "p2").await;
    let reveal = st["match"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["p2"].is_string())
        .cloned()
        .unwrap();
    assert_eq!(reveal["by_default"][0], "p2", "{st}");
    // The channel is told, with his name.
    let posts = wait_for(&calls, |c| c.iter().any(|c| content(c).contains("Bob"))).await;
    assert!(
        posts
            .iter()
            .any(|c| content(c).contains("Bob") && content(c).contains("time")),
        "{posts:#?}"
    );
    // His prompt now is the next decision.
    let (_, prompt) = interact(&s, &app, &press(BOB, "move", None)).await;
    let next = st["decision"].as_u64().unwrap();
    assert!(
        select(&prompt).0.starts_with(&format!("pick:{next}:")),
        "{prompt}"
    );
}

/// The answer the sample bank accepts for `question`.
fn answer_for(question: &str) -> String {
    colosseum_trivia::Bank::sample()
        .questions()
        .iter()
        .find(|q| q.question == question)
        .unwrap_or_else(|| panic!("not in the sample bank: {question}"))
        .answers[0]
        .clone()
}

#[tokio::test]
async fn a_live_race_is_answered_from_discord_in_a_form() {
    use colosseum_engine::Seat;
    use colosseum_server::hub::Action;
    let app = App::new();
    let (base, _) = stand_in().await;
    let s = server(&app, &base);
    let (_, hosted) = interact(
        &s,
        &app,
        &slash(
            CY,
            "host",
            json!([
                opt("game", 3, json!("witchs-brew")),
                opt("first", 6, json!(ANN.0)),
                opt("second", 6, json!(BOB.0)),
                opt("options", 3, json!("cauldron=live")),
                opt("clock", 3, json!("untimed"))
            ]),
            users(&[ANN, BOB]),
        ),
    )
    .await;
    let id = match_id(&hosted);
    join(&s, &app, ANN).await;
    join(&s, &app, BOB).await;
    let table = s.hub.table(&id).await.unwrap();
    for n in 0..500u64 {
        let st = spectate(&s, &id).await;
        assert_eq!(st["status"], "live", "no race before the end: {st}");
        let race = &st["match"]["race"];
        if race.is_object() && race["over"] == false {
            // Ann's prompt is the race: its question and an Answer button opening a form.
            let (_, prompt) = interact(&s, &app, &press(ANN, "move", None)).await;
            assert!(is_ephemeral(&prompt), "{prompt}");
            let question = race["question"].as_str().unwrap();
            assert!(text(&prompt).contains(question), "{prompt}");
            let button = &prompt["data"]["components"][0]["components"][0];
            assert_eq!(button["label"], "Answer", "{prompt}");
            let (_, modal) = interact(
                &s,
                &app,
                &press(ANN, button["custom_id"].as_str().unwrap(), None),
            )
            .await;
            assert_eq!(modal["type"], 9, "a form: {modal}");
            let form_id = modal["data"]["custom_id"].as_str().unwrap().to_string();
            assert_eq!(
                form_id,
                format!("answer:{}", race["opened_at"].as_u64().unwrap())
            );
            // A wrong answer: not accepted, Ann is locked out a moment.
            let (_, wrong) = interact(&s, &app, &form(ANN, "7", &form_id, "no idea at all")).await;
            assert!(text(&wrong).contains("locked out"), "{wrong}");
            // Bob's right answer (same form, his own press) wins the race.
            let (_, right) =
                interact(&s, &app, &form(BOB, "7", &form_id, &answer_for(question))).await;
            assert!(text(&right).contains("you win the race"), "{right}");
            let st = spectate(&s, &id).await;
            let won = st["match"]["races"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["winner"] == "p2")
                || st["match"]["race"]["winner"] == "p2";
            assert!(won, "{st}");
            // A form for a race that is over changes nothing.
            let (_, late) = interact(&s, &app, &form(ANN, "7", &form_id, "late")).await;
            assert!(!text(&late).contains("win"), "{late}");
            return;
        }
        // No race open: the seats move (from the hub: the race is what this test is for).
        for seat in Seat::BOTH {
            let mine = s
                .hub
                .state(&table, colosseum_engine::Viewer::Seat(seat))
                .await;
            let me = &mine["match"]["seats"][seat.to_string()];
            if me["to_act"] == true && me["submitted"] == false {
                let mv = s.hub.random_move_for_tests(&table, seat, n).await.unwrap();
                s.hub.act(&table, seat, Action::Submit(mv)).await.unwrap();
            }
        }
        s.clock.advance(1_000);
    }
    panic!("no race opened");
}

#[tokio::test]
async fn a_sealed_move_kept_across_a_restart_is_still_opened() {
    use colosseum_server::discord::Config;
    let app = App::new();
    let (base, _) = stand_in().await;
    let (dir, db) = common::temp_db("discord-sealed-restart", "m.db");
    let state = dir.join("discord.json");
    let process = |app: &App| {
        let config = Config::new(
            "1234567890",
            &app.public_hex(),
            "bot-token-xyz",
            Some(&base),
        )
        .unwrap()
        .with_state_file(state.clone())
        .unwrap()
        .leak();
        common::server_on_store(
            colosseum_server::SqliteStore::open(&db).unwrap(),
            colosseum_server::Limits {
                discord: Some(config),
                ..common::open_limits()
            },
            false,
        )
    };
    let s = process(&app);
    let id =
        match_id(&host_match(&s, &app, CY, ANN, BOB, vec![opt("sealed", 5, json!(true))]).await);
    join(&s, &app, ANN).await;
    join(&s, &app, BOB).await;
    let decision = spectate(&s, &id).await["decision"].as_u64().unwrap();
    assert!(first_move(&s, &app, ANN).await.contains("sealed"));
    drop(s);

    // A new process: Ann's move and nonce come back from the state file; when Bob commits,
    // the server opens both.
    let s = process(&app);
    s.hub.resume().await.unwrap();
    assert_eq!(
        spectate(&s, &id).await["match"]["seats"]["p1"]["committed"],
        true
    );
    assert!(first_move(&s, &app, BOB).await.contains("sealed"));
    let st = until(&s, &id, |st| st["decision"].as_u64() > Some(decision)).await;
    let first = st["match"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["p1"].is_string())
        .cloned()
        .unwrap();
    assert_eq!(first["p1"], "1", "Ann's kept move opened: {st}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_channel_is_told_when_a_players_own_time_is_up_and_the_bank_runs() {
    // As the seeds' host announces it: "the 60 seconds have expired", who has not decided, and
    // that their time bank counts down now.
    let app = App::new();
    let (base, calls) = stand_in().await;
    let s = server(&app, &base);
    host_match(
        &s,
        &app,
        CY,
        ANN,
        BOB,
        vec![opt("clock", 3, json!("60s+5m"))],
    )
    .await;
    join(&s, &app, ANN).await;
    join(&s, &app, BOB).await;
    assert!(first_move(&s, &app, ANN).await.contains("is in"));
    s.clock.advance(59_000);
    s.hub.tick_all().await.unwrap();
    s.clock.advance(1_000);
    s.hub.tick_all().await.unwrap();
    let posts = wait_for(&calls, |c| c.iter().any(|c| content(c).contains("are up"))).await;
    let notice: Vec<&str> = posts
        .iter()
        .map(content)
        .filter(|t| t.contains("are up"))
        .collect();
    assert_eq!(notice.len(), 1, "{notice:?}");
    assert!(
        notice[0].contains(
            "60 seconds are up: Bob has not decided, and Bob's time bank is running \
             (5 minutes left)."
        ),
        "{}",
        notice[0]
    );
    assert!(!notice[0].contains("Ann has not"), "{}", notice[0]);
}

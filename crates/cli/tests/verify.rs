//! `colosseum verify` on what a real `colosseum serve` publishes: a finished match's record
//! verifies, also against the commitment a player saw; the same record with a chance step, the
//! seed or the commitment altered does not, nor one checked against another commitment, nor a
//! human-against-bot record whose bot moves were swapped and then passed off as timeouts, as a
//! human's or as a time-budget bot's; the output names what does not fit.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{get, post, serve_command, start, temp_db};
use serde_json::json;

fn verify(file: &Path) -> (bool, String) {
    verify_with(file, &[])
}

fn verify_with(file: &Path, flags: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .arg("verify")
        .arg(file)
        .args(flags)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => (true, text),
        Some(1) => (false, text),
        other => panic!("verify exited with {other:?}: {text}"),
    }
}

#[test]
fn verify_accepts_a_served_match_and_names_what_was_altered() {
    let (dir, db) = temp_db("verify", "matches.db");
    let mut command = serve_command(&db, &[]);
    command.stderr(Stdio::null());
    let server = start(command);
    let base = &server.base;

    let created = post(
        base,
        "/api/matches",
        None,
        &json!({"game": "goofspiel", "options": {"cards": "5"}}),
    )
    .1;
    let id = created["id"].as_str().unwrap().to_string();
    let tokens = [0, 1].map(|i| created["tokens"][i].as_str().unwrap().to_string());
    common::join_fair(base, &id, &[(&tokens[0], None), (&tokens[1], None)]);
    let commitment = get(base, &format!("/api/matches/{id}"), None)["fairness"]["commitment"]
        .as_str()
        .unwrap()
        .to_string();
    // Each seat bids its lowest legal card, naming the decision.
    for _ in 0..40 {
        let v = get(base, &format!("/api/matches/{id}"), None);
        if v["status"] == "finished" {
            break;
        }
        for t in &tokens {
            let mine = get(base, &format!("/api/matches/{id}"), Some(t));
            if let Some(mv) = mine["legal_moves"].as_array().and_then(|l| l.first()) {
                let seat = mine["you"].as_str().unwrap();
                if mine["match"]["seats"][seat]["submitted"] == false {
                    post(
                        base,
                        &format!("/api/matches/{id}/submit"),
                        Some(t),
                        &json!({"move": mv, "decision": mine["decision"]}),
                    );
                }
            }
        }
    }
    let records = get(base, &format!("/api/matches/{id}/record"), None);
    assert!(
        records["records"][0]["fairness"]["server_seed"].is_string(),
        "{records}"
    );
    let file = dir.join("match.json");
    std::fs::write(&file, records.to_string()).unwrap();
    let (ok, out) = verify(&file);
    assert!(ok, "{out}");
    assert!(out.contains("verified: every checked step"), "{out}");
    // Against the commitment shown before the start: the same; against another: exit 1.
    let (ok, out) = verify_with(&file, &["--commitment", &commitment]);
    assert!(ok, "{out}");
    let other = "ab".repeat(32);
    let (ok, out) = verify_with(&file, &["--commitment", &other]);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!("not the commitment {other} you were shown")),
        "{out}"
    );

    // The first prize replaced by another card.
    let mut altered = records.clone();
    let first = altered["records"][0]["steps"][0]["chance"]
        .as_str()
        .unwrap()
        .to_string();
    let other = if first == "1" { "2" } else { "1" };
    altered["records"][0]["steps"][0]["chance"] = json!(other);
    std::fs::write(&file, altered.to_string()).unwrap();
    let (ok, out) = verify(&file);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!(
            "steps[0] is the chance step `{other}`, but the seeds give `{first}`"
        )),
        "{out}"
    );

    // Another commitment.
    let mut altered = records.clone();
    altered["records"][0]["fairness"]["commitment"] = json!("0".repeat(64));
    std::fs::write(&file, altered.to_string()).unwrap();
    let (ok, out) = verify(&file);
    assert!(
        !ok && out.contains("does not match the commitment"),
        "{out}"
    );

    // A record from `colosseum play` carries nothing to verify.
    let plain = json!({"game": "goofspiel", "seed": 3, "steps": []});
    std::fs::write(&file, plain.to_string()).unwrap();
    let (ok, out) = verify(&file);
    assert!(!ok && out.contains("no fairness data"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays a 5-card Goofspiel between a person (p1, who bids its lowest card) and
/// `mcts:iters=300` (p2) on `base`, with the game's default clocks; the records and the
/// commitment the person saw before joining.
fn played_against_mcts(base: &str) -> (serde_json::Value, String) {
    let created = post(
        base,
        "/api/matches",
        None,
        &json!({
            "game": "goofspiel",
            "options": {"cards": "5"},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "mcts:iters=300"}],
        }),
    )
    .1;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"][0].as_str().unwrap().to_string();
    let seen = get(base, &format!("/api/matches/{id}"), Some(&token));
    // The setup is shown before the join, bot and all.
    assert_eq!(
        seen["fairness"]["setup"]["p2"]["bot"], "mcts:iters=300",
        "{seen}"
    );
    let commitment = seen["fairness"]["commitment"].as_str().unwrap().to_string();
    common::join_fair(base, &id, &[(&token, None)]);
    for _ in 0..400 {
        let mine = get(base, &format!("/api/matches/{id}"), Some(&token));
        if mine["status"] == "finished" {
            break;
        }
        if mine["match"]["seats"]["p1"]["submitted"] == false {
            if let Some(mv) = mine["legal_moves"].as_array().and_then(|l| l.first()) {
                post(
                    base,
                    &format!("/api/matches/{id}/submit"),
                    Some(&token),
                    &json!({"move": mv, "decision": mine["decision"]}),
                );
                continue;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    let records = get(base, &format!("/api/matches/{id}/record"), None);
    assert!(
        records["records"][0]["fairness"]["server_seed"].is_string(),
        "{records}"
    );
    (records, commitment)
}

/// The three ways a record with two of the bot's moves swapped once passed (issue 36, hole 2)
/// each exit 1 and name what does not fit; the clean record exits 0.
#[test]
fn a_record_with_swapped_bot_moves_fails_however_its_exemptions_are_forged() {
    let (dir, db) = temp_db("verify-forged", "matches.db");
    let mut command = serve_command(&db, &[]);
    command.stderr(Stdio::null());
    let server = start(command);
    let (records, commitment) = played_against_mcts(&server.base);
    let file = dir.join("match.json");
    std::fs::write(&file, records.to_string()).unwrap();
    let (ok, out) = verify_with(&file, &["--commitment", &commitment]);
    assert!(ok, "{out}");
    assert!(out.contains("5 bot moves re-derived"), "{out}");

    // The bot's bids, step by step (a chance step, then the bids, each round).
    let steps = records["records"][0]["steps"].as_array().unwrap().clone();
    let bids: Vec<(usize, u32)> = steps
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((i, s["p2"].as_str()?.parse().ok()?)))
        .collect();
    assert_eq!(bids.len(), 5, "{steps:?}");
    // Swap the first bid with the highest later one: the first step then holds a card that
    // is not the lowest left, which is what a timeout there would have played.
    let (first, _) = bids[0];
    let (later, _) = *bids[1..].iter().max_by_key(|(_, card)| *card).unwrap();
    let mut swapped = records.clone();
    let (a, b) = (steps[first]["p2"].clone(), steps[later]["p2"].clone());
    swapped["records"][0]["steps"][first]["p2"] = b;
    swapped["records"][0]["steps"][later]["p2"] = a;
    std::fs::write(&file, swapped.to_string()).unwrap();
    let (ok, out) = verify(&file);
    assert!(!ok && out.contains("p2 is a bot"), "{out}");

    // 1. The two steps claimed as timeouts: the default moves are re-derived.
    let mut forged = swapped.clone();
    forged["records"][0]["fairness"]["defaults"] = json!([
        {"step": first, "seat": "p2"},
        {"step": later, "seat": "p2"},
    ]);
    std::fs::write(&file, forged.to_string()).unwrap();
    let (ok, out) = verify_with(&file, &["--commitment", &commitment]);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!(
            "steps[{first}]: fairness.defaults says the host moved for p2 when its time ran out, but the default move the seeds give there is"
        )),
        "{out}"
    );

    // 2. `bots` deleted: the seat would look human, but the setup says it is a bot.
    let mut forged = swapped.clone();
    let fairness = forged["records"][0]["fairness"].as_object_mut().unwrap();
    fairness.remove("bots");
    fairness.remove("bot_settings");
    std::fs::write(&file, forged.to_string()).unwrap();
    let (ok, out) = verify_with(&file, &["--commitment", &commitment]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("p2 is the bot `mcts:iters=300` in the committed setup, but the record's fairness.bots names no bot there"),
        "{out}"
    );

    // 3. The bot relabelled as one that thinks for a time (moves not repeatable).
    let mut forged = swapped.clone();
    forged["records"][0]["fairness"]["bots"]["p2"] = json!("mcts:ms=300");
    std::fs::write(&file, forged.to_string()).unwrap();
    let (ok, out) = verify_with(&file, &["--commitment", &commitment]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("the record's fairness.bots names p2 `mcts:ms=300`, but the committed setup has the bot `mcts:iters=300` there"),
        "{out}"
    );
    // ... and with the setup relabelled too, the commitment no longer fits.
    forged["records"][0]["fairness"]["setup"]["p2"]["bot"] = json!("mcts:ms=300");
    forged["records"][0]["fairness"]["setup"]["p2"]["time_budget"] = json!(true);
    std::fs::write(&file, forged.to_string()).unwrap();
    let (ok, out) = verify(&file);
    assert!(!ok, "{out}");
    assert!(
        out.contains("the setup does not match the commitment"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

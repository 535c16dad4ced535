//! `colosseum verify` on what a real `colosseum serve` publishes: a finished match's record
//! verifies; the same record with a chance step, the seed or the commitment altered does not,
//! and the output names what does not fit.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{get, post, serve_command, start, temp_db};
use serde_json::json;

fn verify(file: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .arg("verify")
        .arg(file)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr),
    )
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
    for (i, t) in tokens.iter().enumerate() {
        post(
            base,
            &format!("/api/matches/{id}/join"),
            Some(t),
            &json!({"client_seed": format!("seat-{i}")}),
        );
    }
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

//! `colosseum verify` on what a real `colosseum serve` publishes: a finished match's record
//! verifies; the same record with a chance step, the seed or the commitment altered does not,
//! and the output names what does not fit.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

struct Server(Child, String);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(db: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .strip_prefix("listening on http://")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_string();
    Server(child, format!("http://{addr}"))
}

fn call(base: &str, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> Value {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(20)))
        .build()
        .into();
    let url = format!("{base}{path}");
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut res = match (method, body) {
        ("GET", _) => {
            let mut req = agent.get(&url);
            if let Some(a) = &auth {
                req = req.header("authorization", a);
            }
            req.call().unwrap()
        }
        (_, body) => {
            let mut req = agent.post(&url);
            if let Some(a) = &auth {
                req = req.header("authorization", a);
            }
            req.send_json(body.unwrap_or(json!({}))).unwrap()
        }
    };
    res.body_mut().read_json().unwrap()
}

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
    let dir = std::env::temp_dir().join(format!("colosseum-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("matches.db");
    let _ = std::fs::remove_file(&db);
    let server = serve(&db);
    let base = &server.1;

    let created = call(
        base,
        "POST",
        "/api/matches",
        None,
        Some(json!({"game": "goofspiel", "options": {"cards": "5"}})),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let tokens = [0, 1].map(|i| created["tokens"][i].as_str().unwrap().to_string());
    for (i, t) in tokens.iter().enumerate() {
        call(
            base,
            "POST",
            &format!("/api/matches/{id}/join"),
            Some(t),
            Some(json!({"client_seed": format!("seat-{i}")})),
        );
    }
    // Each seat bids its lowest legal card, naming the decision.
    for _ in 0..40 {
        let v = call(base, "GET", &format!("/api/matches/{id}"), None, None);
        if v["status"] == "finished" {
            break;
        }
        for t in &tokens {
            let mine = call(base, "GET", &format!("/api/matches/{id}"), Some(t), None);
            if let Some(mv) = mine["legal_moves"].as_array().and_then(|l| l.first()) {
                let seat = mine["you"].as_str().unwrap();
                if mine["match"]["seats"][seat]["submitted"] == false {
                    call(
                        base,
                        "POST",
                        &format!("/api/matches/{id}/submit"),
                        Some(t),
                        Some(json!({"move": mv, "decision": mine["decision"]})),
                    );
                }
            }
        }
    }
    let records = call(
        base,
        "GET",
        &format!("/api/matches/{id}/record"),
        None,
        None,
    );
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

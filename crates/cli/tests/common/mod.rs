//! `colosseum serve` as a real process, for the test files that talk to it over HTTP.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// A running `colosseum serve`, killed when dropped.
pub struct Server {
    pub child: Child,
    /// `http://127.0.0.1:port`.
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `colosseum serve` on a free loopback port over the database `db`, with `flags` after it;
/// stdout piped (for the address), stderr inherited.
pub fn serve_command(db: &Path, flags: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_colosseum"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    command
}

/// Starts `command` (from [`serve_command`]) and waits for the address it listens on.
pub fn start(mut command: Command) -> Server {
    let mut child = command.spawn().expect("colosseum serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .strip_prefix("listening on http://")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_string();
    Server {
        child,
        base: format!("http://{addr}"),
    }
}

pub fn serve(db: &Path) -> Server {
    serve_with(db, &[])
}

pub fn serve_with(db: &Path, flags: &[&str]) -> Server {
    start(serve_command(db, flags))
}

/// An HTTP client that returns error statuses as answers.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(20)))
        .build()
        .into()
}

/// `POST {base}{path}` with a JSON body and an optional bearer token; the status and JSON body.
pub fn post(base: &str, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
    let mut req = agent().post(format!("{base}{path}"));
    if let Some(t) = token {
        req = req.header("authorization", &format!("Bearer {t}"));
    }
    let mut res = req.send_json(body).unwrap();
    (res.status().as_u16(), res.body_mut().read_json().unwrap())
}

/// `GET {base}{path}` with an optional bearer token; the JSON body.
pub fn get(base: &str, path: &str, token: Option<&str>) -> Value {
    let mut req = agent().get(format!("{base}{path}"));
    if let Some(t) = token {
        req = req.header("authorization", &format!("Bearer {t}"));
    }
    req.call().unwrap().body_mut().read_json().unwrap()
}

/// A fresh directory `colosseum-{name}-{pid}` in the system's temporary directory, and the
/// path of the database file `file` in it (not created).
pub fn temp_db(name: &str, file: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("colosseum-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join(file);
    (dir, db)
}

/// The client seed the tests give the seat of `token` (at least 16 characters).
pub fn token_seed(token: &str) -> String {
    format!("seed-of-{token}")
}

/// Joins match `id` on `base` as each seat of `tokens` does from the browser: with the hash of
/// its client seed ([`token_seed`]) and its name if given, then, once the state says the
/// reveals are due, each reveals its seed (a practice match takes none).
pub fn join_fair(base: &str, id: &str, seats: &[(&str, Option<&str>)]) {
    for (token, name) in seats {
        let mut body = serde_json::json!({
            "client_seed_hash": colosseum_engine::fair::client_seed_hash(&token_seed(token)),
        });
        if let Some(n) = name {
            body["name"] = Value::String((*n).to_string());
        }
        let (status, v) = post(base, &format!("/api/matches/{id}/join"), Some(token), &body);
        assert_eq!(status, 200, "{v}");
    }
    for (token, _) in seats {
        if get(base, &format!("/api/matches/{id}"), None)["fairness"]["reveal_due"] == true {
            let body = serde_json::json!({"client_seed": token_seed(token)});
            let (status, v) = post(
                base,
                &format!("/api/matches/{id}/reveal"),
                Some(token),
                &body,
            );
            assert_eq!(status, 200, "{v}");
        }
    }
}

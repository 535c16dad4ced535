//! What `colosseum serve` says first, as a newcomer sees it in a terminal (stdout and stderr on
//! one screen): the address to open, before any log line, even with matches to resume; and a
//! port in use names the flag that chooses another, before any database is touched.

mod common;

use std::fs::File;
use std::io::Read;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{post, serve, temp_db};
use serde_json::json;

/// Runs `colosseum serve` on a free loopback port over `db` with stdout and stderr written to
/// one file, as a terminal shows them, and returns the first line once it is complete.
fn first_line(dir: &Path, db: &Path) -> String {
    let screen = dir.join("screen.txt");
    let out = File::create(&screen).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .env_remove("RUST_LOG")
        .env_remove("COLOSSEUM_GOOFSPIEL_TABLE")
        .stdin(Stdio::null())
        .stdout(Stdio::from(out.try_clone().unwrap()))
        .stderr(Stdio::from(out))
        .spawn()
        .expect("colosseum serve starts");
    // Waits for the first complete line (a bound, not a measurement: a loaded machine is slow).
    let mut text = String::new();
    for _ in 0..1200 {
        text.clear();
        File::open(&screen)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        if text.contains('\n') {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("colosseum serve exited ({status}) having printed: {text}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    text.lines()
        .next()
        .unwrap_or_else(|| panic!("colosseum serve printed no line"))
        .to_string()
}

#[test]
fn serve_first_prints_the_address_to_open_before_any_log_line() {
    let (dir, db) = temp_db("first-words", "matches.db");
    // A match left unfinished, so the next start has one to resume.
    {
        let server = serve(&db);
        let (status, created) = post(
            &server.base,
            "/api/matches",
            None,
            &json!({"game": "goofspiel", "options": {"cards": "4"}}),
        );
        assert_eq!(status, 201, "{created}");
    }
    let line = first_line(&dir, &db);
    let _ = std::fs::remove_dir_all(&dir);
    let rest = line
        .strip_prefix("listening on http://127.0.0.1:")
        .unwrap_or_else(|| panic!("the first line does not give the address: {line}"));
    let port = rest.split_whitespace().next().unwrap();
    assert!(
        port.parse::<u16>().is_ok_and(|p| p != 0),
        "the real port: {line}"
    );
    assert!(
        line.contains("(1 unfinished match resumed)"),
        "says what was resumed, in the singular: {line}"
    );
    assert!(
        line.ends_with(": open it in a browser (Ctrl-C stops)"),
        "says what to do with it: {line}"
    );
}

#[test]
fn a_port_in_use_names_the_flag_and_touches_no_database() {
    let (dir, db) = temp_db("port-in-use", "matches.db");
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let output = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    drop(taken);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let db_made = db.exists();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!output.status.success(), "exits non-zero: {stderr}");
    assert!(
        output.stdout.is_empty(),
        "no address is announced: {}",
        String::from_utf8_lossy(&output.stdout)
    );
    let next = if port == u16::MAX { 8081 } else { port + 1 };
    assert!(
        stderr.contains(&format!("127.0.0.1:{port} is already in use")),
        "says which address is in use: {stderr}"
    );
    assert!(
        stderr.contains(&format!("--addr 127.0.0.1:{next}")),
        "names the flag with an address to try: {stderr}"
    );
    assert!(!db_made, "the database is not opened (nor created) first");
}

#[test]
fn an_address_not_of_this_machine_says_which_addresses_serve() {
    let (dir, db) = temp_db("foreign-address", "matches.db");
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): no machine has it.
    let output = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(["serve", "--addr", "192.0.2.1:8080", "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let db_made = db.exists();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!output.status.success(), "exits non-zero: {stderr}");
    assert!(
        stderr.contains("192.0.2.1 is not an address of this machine")
            && stderr.contains("--addr 127.0.0.1:8080")
            && stderr.contains("--addr 0.0.0.0:8080"),
        "names the flag and the addresses that serve: {stderr}"
    );
    assert!(!db_made, "the database is not opened (nor created) first");
}

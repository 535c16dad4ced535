//! What a build without an optional feature says when it is asked for one. The default build
//! (`cargo build --release -p colosseum-cli`) has neither `postgres` nor `board-pictures`;
//! `.ci/run` runs this file in that build (`cargo test -p colosseum-cli --test features`).

#[cfg(not(feature = "postgres"))]
#[test]
fn serve_on_postgresql_without_the_feature_says_how_to_build_it() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = std::env::temp_dir().join(format!("colosseum-features-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_colosseum"))
        .args(["serve", "--addr", "127.0.0.1:0", "--postgres"])
        .arg(format!("host={} dbname=colosseum", dir.display()))
        .current_dir(&dir)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("colosseum serve starts");
    // A bound, not a measurement: it refuses at once; a server that listens never exits.
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("colosseum serve --postgres did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stdout}{stderr}");
    assert!(
        stderr.contains("built without PostgreSQL"),
        "the error says what is missing: {stderr}"
    );
    assert!(
        stderr.contains("cargo build --release -p colosseum-cli --features postgres"),
        "the error says how to build it: {stderr}"
    );
    assert!(!stdout.contains("listening"), "nothing is served: {stdout}");
    // Nothing stored either: no SQLite file appears in its place.
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(files.is_empty(), "{files:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

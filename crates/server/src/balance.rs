//! Balance reports on the games' rules pages: `colosseum balance GAME --out DIR/NAME` writes a
//! report (`balance.json`, `shares.svg`, `endings.svg`, `length.svg`) into a directory under
//! the server's balance directory (`colosseum serve --balance-dir DIR`, or
//! `COLOSSEUM_BALANCE_DIR`), and the server shows each game's latest one:
//!
//! * `GET /api/games/{game}/balance`: the latest report for the game (the `balance.json`
//!   written last among `DIR` itself and its subdirectories whose report is of that game), as
//!   `{"game", "produced_at", "report", "plots"}`; 404 `not_found` when there is none or no
//!   directory is set.
//! * `GET /api/games/{game}/balance/{plot}.svg`: one of that report's plots (`shares`,
//!   `endings`, `length`), `image/svg+xml`.
//!
//! The files are read on every request (a report written while the server runs shows at once);
//! nothing is run by the server. The directory is trusted like the binary: only `colosseum
//! balance` should write there (the pages show its SVG through `<img>`, where no script runs).

use std::path::{Path as FsPath, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::UNIX_EPOCH;

use axum::extract::Path;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::error::ApiError;

/// The environment variable naming the balance directory when no flag does.
pub const ENV: &str = "COLOSSEUM_BALANCE_DIR";

/// The plots a report has.
pub const PLOTS: &[&str] = &["shares", "endings", "length"];

fn configured() -> &'static Mutex<Option<PathBuf>> {
    static DIR: OnceLock<Mutex<Option<PathBuf>>> = OnceLock::new();
    DIR.get_or_init(Mutex::default)
}

/// Sets the balance directory (`colosseum serve --balance-dir`); `None` goes back to the
/// environment's ([`ENV`]).
pub fn use_dir(dir: Option<PathBuf>) {
    *configured()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = dir;
}

/// The balance directory in use, if any.
#[must_use]
pub fn dir() -> Option<PathBuf> {
    let set = configured()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    set.or_else(|| {
        std::env::var_os(ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// The latest report of `game` under `root`: its directory, its JSON and when it was written
/// (ms since the Unix epoch).
fn latest(root: &FsPath, game: &str) -> Option<(PathBuf, Value, u64)> {
    let mut candidates = vec![root.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(root) {
        candidates.extend(
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir()),
        );
    }
    candidates
        .into_iter()
        .filter_map(|dir| {
            let file = dir.join("balance.json");
            let modified = std::fs::metadata(&file).ok()?.modified().ok()?;
            let report: Value = serde_json::from_str(&std::fs::read_to_string(&file).ok()?).ok()?;
            (report["game"] == game).then(|| {
                let ms = modified
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
                (dir, report, ms)
            })
        })
        .max_by_key(|(dir, _, ms)| (*ms, dir.clone()))
}

fn no_report(game: &str) -> ApiError {
    match dir() {
        Some(_) => ApiError::not_found(format!(
            "no balance report for `{game}` yet: `colosseum balance {game} --out DIR/NAME` writes one into the server's balance directory"
        )),
        None => ApiError::not_found(
            "this server shows no balance reports: start it with --balance-dir DIR (or COLOSSEUM_BALANCE_DIR)",
        ),
    }
}

async fn find(game: String) -> Result<(String, PathBuf, Value, u64), ApiError> {
    let entry = colosseum_games::find(&game).map_err(|e| ApiError::not_found(e.to_string()))?;
    let id = entry.id.to_string();
    let Some(root) = dir() else {
        return Err(no_report(&id));
    };
    let key = id.clone();
    let found = tokio::task::spawn_blocking(move || latest(&root, &key))
        .await
        .map_err(|e| ApiError::internal("reading the balance reports", e))?;
    match found {
        Some((dir, report, ms)) => Ok((id, dir, report, ms)),
        None => Err(no_report(&id)),
    }
}

/// `GET /api/games/{game}/balance`: the game's latest balance report and its plots' addresses.
/// A known game without one (or a server without a balance directory) is not an error: 200 with
/// `"report": null` and `"missing"` saying why, so that every rules page can ask without a 404.
pub async fn report(Path(game): Path<String>) -> Result<Json<Value>, ApiError> {
    // An unknown game is still a 404; past this, a 404 from `find` means "no report".
    let id = colosseum_games::find(&game)
        .map_err(|e| ApiError::not_found(e.to_string()))?
        .id;
    let (id, dir, report, ms) = match find(id.to_string()).await {
        Ok(found) => found,
        Err(e) if e.status() == axum::http::StatusCode::NOT_FOUND => {
            return Ok(Json(json!({
                "game": id,
                "produced_at": null,
                "report": null,
                "plots": {},
                "missing": e.message,
            })));
        }
        Err(e) => return Err(e),
    };
    let plots: serde_json::Map<String, Value> = PLOTS
        .iter()
        .filter(|p| dir.join(format!("{p}.svg")).is_file())
        .map(|p| {
            (
                (*p).to_string(),
                json!(format!("/api/games/{id}/balance/{p}.svg")),
            )
        })
        .collect();
    Ok(Json(json!({
        "game": id,
        "produced_at": ms,
        "report": report,
        "plots": plots,
    })))
}

/// `GET /api/games/{game}/balance/{plot}.svg`: a plot of the game's latest report.
pub async fn plot(Path((game, file)): Path<(String, String)>) -> Result<Response, ApiError> {
    let name = file.strip_suffix(".svg").unwrap_or("");
    if !PLOTS.contains(&name) {
        return Err(ApiError::not_found(format!(
            "no plot `{file}`: the plots are {}",
            PLOTS
                .iter()
                .map(|p| format!("{p}.svg"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let (_, dir, _, _) = find(game).await?;
    let path = dir.join(format!("{name}.svg"));
    let read = tokio::task::spawn_blocking(move || std::fs::read(path))
        .await
        .map_err(|e| ApiError::internal("reading a balance plot", e))?;
    let body =
        read.map_err(|_| ApiError::not_found(format!("the latest report has no {name}.svg")))?;
    let mut res = body.into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml"),
    );
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Ok(res)
}

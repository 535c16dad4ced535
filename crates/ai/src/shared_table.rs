//! Where the bots and the analysis find classic Goofspiel's solved table ([`GoofspielTable`]).
//!
//! Classic Goofspiel with descending prizes and point-difference returns is played by `hard`
//! ([`crate::MctsConfig::exact`]) and analysed ([`crate::analysis`]) from the exact table, at any
//! number of cards up to 13 (14). The table comes from, in order:
//!
//! 1. a table already in this process for that number of cards (solved or read before);
//! 2. the file named by [`use_file`] (the command line's `--goofspiel-table FILE`) or, without
//!    it, by the environment variable [`ENV`] (`COLOSSEUM_GOOFSPIEL_TABLE`): read once, on first
//!    use ([`GoofspielTable::open`]: streamed into memory, every field and the checksum checked),
//!    and used for the games of its number of cards;
//! 3. for at most [`SOLVE_MAX`] cards, solved in the process on first use (10 cards in under a
//!    second) and kept.
//!
//! Otherwise, or when the file named cannot be read, [`table`] says so with what to do: a bot or
//! an analysis that needs the table refuses to start rather than play or judge worse without it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use crate::table::GoofspielTable;

/// The environment variable naming the table file when no flag does.
pub const ENV: &str = "COLOSSEUM_GOOFSPIEL_TABLE";

/// The command line's flag naming the table file (without its dashes).
pub const FLAG: &str = "goofspiel-table";

/// The largest number of cards solved in the process when no file holds the table (N = 10
/// takes under a second and about 20 MB; N = 11 about 4 s, N = 12 a quarter of a minute).
pub const SOLVE_MAX: u32 = 10;

/// What the process knows about tables.
#[derive(Default)]
struct Tables {
    /// The file given by [`use_file`] (`None`: the environment's, if any).
    file: Option<PathBuf>,
    /// The file read, once: its table or why it could not be read.
    read: Option<(PathBuf, Result<Arc<GoofspielTable>, String>)>,
    /// Tables by number of cards.
    by_cards: HashMap<u32, Arc<GoofspielTable>>,
}

fn tables() -> &'static Mutex<Tables> {
    static TABLES: OnceLock<Mutex<Tables>> = OnceLock::new();
    TABLES.get_or_init(Mutex::default)
}

fn lock() -> std::sync::MutexGuard<'static, Tables> {
    tables()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Names the table file (the `--goofspiel-table` flag); `None` goes back to the environment
/// variable [`ENV`]. A table already read stays until another file is named.
pub fn use_file(path: Option<PathBuf>) {
    let mut t = lock();
    if t.file != path {
        t.file = path;
        t.read = None;
    }
}

/// The table file in use: the flag's, else the environment's (empty is none).
#[must_use]
pub fn file() -> Option<PathBuf> {
    let t = lock();
    file_of(&t)
}

fn file_of(t: &Tables) -> Option<PathBuf> {
    t.file.clone().or_else(|| {
        std::env::var_os(ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// Reads the table file in use now, if one is named and not read yet, and gives its number of
/// cards (`Ok(None)`: no file named). The command line and the server call it at start so that
/// a bad file is reported at once and the first game does not wait for the read.
pub fn load_file() -> Result<Option<u32>, String> {
    let mut t = lock();
    Ok(read_file(&mut t)?.map(|table| table.cards()))
}

fn read_file(t: &mut Tables) -> Result<Option<Arc<GoofspielTable>>, String> {
    let Some(path) = file_of(t) else {
        return Ok(None);
    };
    if t.read.as_ref().is_none_or(|(p, _)| *p != path) {
        let read = GoofspielTable::open(&path).map(Arc::new).map_err(|e| {
            format!("the Goofspiel table named by --{FLAG} or {ENV} cannot be used: {e}")
        });
        t.read = Some((path, read));
    }
    match &t.read {
        Some((_, Ok(table))) => Ok(Some(table.clone())),
        Some((_, Err(e))) => Err(e.clone()),
        None => Ok(None),
    }
}

/// The solved table of classic Goofspiel with `cards` cards (descending prizes, point-difference
/// returns): from this process, the file in use, or solved here when `cards` ≤ [`SOLVE_MAX`].
/// The error says why not and what to do.
pub fn table(cards: u32) -> Result<Arc<GoofspielTable>, String> {
    let mut t = lock();
    if let Some(table) = t.by_cards.get(&cards) {
        return Ok(table.clone());
    }
    let from_file = read_file(&mut t)?;
    if let Some(table) = from_file.as_ref().filter(|f| f.cards() == cards) {
        t.by_cards.insert(cards, table.clone());
        return Ok(table.clone());
    }
    if cards <= SOLVE_MAX {
        // Held under the lock: another thread asking for it waits instead of solving it too.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(2));
        let table =
            Arc::new(GoofspielTable::solve(cards, threads, &|_| {}).map_err(|e| e.to_string())?);
        t.by_cards.insert(cards, table.clone());
        return Ok(table);
    }
    let named = match (&from_file, file_of(&t)) {
        (Some(f), Some(path)) => format!(
            " (the table file {} is for cards={}, not cards={cards})",
            path.display(),
            f.cards()
        ),
        _ => " (no table file is named)".to_string(),
    };
    Err(format!(
        "classic Goofspiel with cards={cards}, descending prizes and point-difference returns is \
         played by `hard` and analysed from its exact table, which is not loaded{named}: solve it \
         once with `colosseum solve goofspiel -o cards={cards} --out FILE` and name the file with \
         --{FLAG} FILE or {ENV}=FILE (up to cards={SOLVE_MAX} it is solved in the process)"
    ))
}

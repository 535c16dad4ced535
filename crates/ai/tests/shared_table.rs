//! Where `hard` and the analysis find classic Goofspiel's table (`colosseum_ai::shared_table`):
//! a file named, solved in the process up to 10 cards, and clear refusals otherwise. One test:
//! the file in use is the process's.

use colosseum_ai::registry::{self, BotError, BotSpec};
use colosseum_ai::shared_table::{self, ENV, FLAG};
use colosseum_ai::table::{GoofspielTable, Precision};
use colosseum_engine::{parse_pairs, RawOptions};

fn options(n: u32, returns: &str) -> RawOptions {
    parse_pairs(
        [
            format!("cards={n}"),
            "order=descending".to_string(),
            format!("returns={returns}"),
        ]
        .iter()
        .map(String::as_str),
    )
    .unwrap()
}

#[test]
fn the_table_comes_from_the_file_named_or_a_solve_and_its_absence_is_said() {
    // The environment may name a table of its own.
    std::env::remove_var(ENV);
    let dir = std::env::temp_dir().join(format!("colosseum-shared-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hard: BotSpec = "mcts:hard".parse().unwrap();
    let goofspiel = registry::find("goofspiel").unwrap();

    // Nothing named: 12 cards are not solved in the process, and the bot and the analysis say
    // what to do.
    let err = shared_table::table(12).unwrap_err();
    for needed in ["cards=12", "colosseum solve", FLAG, ENV, "no table file"] {
        assert!(err.contains(needed), "`{needed}` in: {err}");
    }
    match goofspiel.check(&options(12, "point_difference"), &hard) {
        Err(BotError::Exact(e)) => assert_eq!(e, err),
        other => panic!("hard at 12 cards without the table: {other:?}"),
    }
    // Other returns do not use the table; other bots do not need it.
    goofspiel.check(&options(12, "win_loss"), &hard).unwrap();
    goofspiel
        .check(
            &options(12, "point_difference"),
            &"mcts:medium".parse().unwrap(),
        )
        .unwrap();
    let record = colosseum_engine::Record::new("goofspiel", options(12, "point_difference"), 0);
    let config = colosseum_ai::analysis::AnalysisConfig {
        engine: colosseum_ai::MctsConfig::regret_matching(colosseum_ai::Budget::Iterations(10)),
        runs: 1,
        seed: 0,
    };
    let refused = goofspiel.analyse(&record, &config, &|_, _| {}).unwrap_err();
    assert!(refused.to_string().contains("colosseum solve"), "{refused}");

    // Up to 10 cards it is solved here, in f64.
    let solved = shared_table::table(6).unwrap();
    assert_eq!((solved.cards(), solved.precision()), (6, Precision::F64));

    // A file named is read once and used for its number of cards (f32 here: read, not solved).
    let path = dir.join("goofspiel5.table");
    GoofspielTable::solve(5, 1, &|_| {})
        .unwrap()
        .save(&path, Precision::F32)
        .unwrap();
    shared_table::use_file(Some(path.clone()));
    assert_eq!(shared_table::file(), Some(path.clone()));
    assert_eq!(shared_table::load_file(), Ok(Some(5)));
    let read = shared_table::table(5).unwrap();
    assert_eq!((read.cards(), read.precision()), (5, Precision::F32));
    let err = shared_table::table(12).unwrap_err();
    assert!(err.contains("is for cards=5, not cards=12"), "{err}");
    goofspiel
        .check(&options(5, "point_difference"), &hard)
        .unwrap();

    // A file that is missing or damaged is an error naming it, also for a size solved here.
    let missing = dir.join("missing.table");
    shared_table::use_file(Some(missing.clone()));
    let err = shared_table::load_file().unwrap_err();
    assert!(err.contains("missing.table") && err.contains(FLAG), "{err}");
    assert_eq!(shared_table::table(7).unwrap_err(), err);
    let damaged = dir.join("damaged.table");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&damaged, bytes).unwrap();
    shared_table::use_file(Some(damaged));
    let err = shared_table::table(8).unwrap_err();
    assert!(err.contains("checksum"), "{err}");

    // The environment variable names a file when no flag does.
    shared_table::use_file(None);
    std::env::set_var(ENV, &path);
    assert_eq!(shared_table::file(), Some(path.clone()));
    assert_eq!(shared_table::load_file(), Ok(Some(5)));
    std::env::remove_var(ENV);
    std::fs::remove_dir_all(&dir).unwrap();
}

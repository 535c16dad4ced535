//! The `colosseum` command. All logic lives in the library; this maps its result to an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    match colosseum_cli::run(std::env::args_os()) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("colosseum: {error:#}");
            ExitCode::from(2)
        }
    }
}

//! The `colosseum` command. All logic lives in the library; this maps its result to an exit code.

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

// The server builds a JSON state for every connection at every change, and glibc's allocator
// was 30-40% of its CPU under load; mimalloc halves that cost.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = colosseum_cli::run(std::env::args_os(), &mut out).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        // A reader that stops early (`colosseum rules GAME | head`) is not an error.
        Err(error)
            if error
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("colosseum: {error:#}");
            ExitCode::from(2)
        }
    }
}

//! The `kpk` command line. All the work is in the library; see `src/cli/`.

use std::process::ExitCode;

fn main() -> ExitCode {
    match kpk_cli::run() {
        Ok(code) => code,
        Err(err) => {
            // One line, the whole cause chain, no backtrace.
            eprintln!("kpk: error: {err:#}");
            ExitCode::from(2)
        }
    }
}

#[path = "cli/mod.rs"]
mod kpk_cli;

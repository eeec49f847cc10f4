//! The `kpk` command line. All the work is in the library; see `src/cli/`.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`kpk bitbase | head`) as command-line tools do, instead of
    // panicking on the failed write.
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match kpk_cli::run() {
        Ok(code) => code,
        Err(err) => {
            // One line, the whole cause chain, no backtrace.
            eprintln!("kpk: error: {}", kpk::error::escape_controls(&format!("{err:#}")));
            ExitCode::from(2)
        }
    }
}

#[path = "cli/mod.rs"]
mod kpk_cli;

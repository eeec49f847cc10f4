//! The `kpk` command line. All the work is in the library; see `src/cli/`.

use std::process::ExitCode;

/// Exit code of a command whose standard output was closed by its reader (128 + SIGPIPE, what a
/// shell reports for a writer killed by the signal). SIGPIPE stays ignored, as Rust sets it, so a
/// closed pipe comes back as an error and the temporaries being written are removed on the way.
const CLOSED_PIPE: u8 = 141;

fn main() -> ExitCode {
    let result = kpk_cli::run();
    // From here no temporary can appear, and an interrupt that has begun ends the process with
    // its own status rather than this one (src/output/interrupt.rs).
    kpk::output::interrupt::hold_until_exit();
    match result {
        Ok(code) => code,
        Err(err) if kpk_cli::is_closed_pipe(&err) => ExitCode::from(CLOSED_PIPE),
        Err(err) => {
            // One line, the whole cause chain, no backtrace; dropped if standard error is gone.
            let line = format!("kpk: error: {}\n", kpk_probe::quote::escape_controls(&format!("{err:#}")));
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
            ExitCode::from(2)
        }
    }
}

#[path = "cli/mod.rs"]
mod kpk_cli;

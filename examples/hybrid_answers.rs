//! Every legal position's answer from a hybrid model file, one line each, for the C and Python
//! readers' tests (`.ci/run`): `white_king black_king pawn black_to_move outcome source`, squares
//! `a1 = 0 … h8 = 63` in the canonical orientation (the pawn White's on files a–d), outcome
//! `win`/`draw` from the pawn side's point of view, source `net`/`tree`/`exception`/`rule`. Positions come in
//! index order. Exits with an error if an answer disagrees with the bitbase.
//!
//! `cargo run --release --example hybrid_answers -- models/kpk.hybrid > answers.txt`

use kpk::hybrid::Hybrid;
use kpk::{Bitbase, KpkPosition};
use std::io::Write;
use std::process::ExitCode;

/// As `kpk` does: standard output closed by its reader (`| head`) ends the program quietly with
/// the code a shell reports for SIGPIPE; any other error is one line and exit 2.
fn main() -> ExitCode {
    match answers() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::from(141)
        }
        Err(e) => {
            eprintln!("hybrid_answers: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn answers() -> anyhow::Result<()> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "models/kpk.hybrid".into());
    let model = Hybrid::load(std::path::Path::new(&path))?;
    let bb = Bitbase::generate();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for p in KpkPosition::all() {
        let a = model.classify(&p);
        anyhow::ensure!(a.outcome == bb.outcome(&p), "{path} is wrong on {}", p.to_fen());
        let black = u8::from(p.side() == kpk::Color::Black);
        let (wk, bk, wp) = (p.wk().index(), p.bk().index(), p.wp().index());
        writeln!(out, "{wk} {bk} {wp} {black} {} {}", a.outcome, a.source)?;
    }
    out.flush()?;
    Ok(())
}

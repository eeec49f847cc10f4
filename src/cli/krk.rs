//! `kpk dataset --endgame krk`: the UCI repository's KRK set, or the whole KRK table.

use kpk::chess::dtm::Tables;
use kpk::dataset::krk::{UCI_CLASSES, uci_rows, write_table, write_uci};
use kpk::output::FileOut;
use std::path::PathBuf;
use std::process::ExitCode;

/// What to write: the UCI set (`uci`) or the whole table, and where.
pub struct KrkRequest {
    pub uci: bool,
    pub out: PathBuf,
}

pub fn run_krk_dataset(request: &KrkRequest) -> anyhow::Result<ExitCode> {
    let out = FileOut::check(&request.out)?;
    let tables = Tables::generate();
    let line = if request.uci {
        let rows = uci_rows(&tables)?;
        write_uci(&rows, &out)?;
        let mut counts = [0usize; UCI_CLASSES.len()];
        rows.iter().for_each(|r| counts[r.class] += 1);
        let by_class: Vec<String> = UCI_CLASSES.iter().zip(counts).map(|(c, n)| format!("{c} {n}")).collect();
        format!(
            "KRK uci (Black to move, one row per symmetry class): {} rows; {}; wrote {}",
            rows.len(),
            by_class.join(", "),
            out.display()
        )
    } else {
        let n = write_table(&tables, &out)?;
        format!("KRK: {n} legal positions (both sides to move) with DTM in plies; wrote {}", out.display())
    };
    // The report line goes to standard error when the data itself streams to standard output.
    if out.is_stream() {
        errln!("{line}");
    } else {
        outln!("{line}")?;
    }
    Ok(ExitCode::SUCCESS)
}

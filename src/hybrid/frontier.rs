//! The size/accuracy frontier of exact representations (`kpk compress --frontier`): nets of about
//! 100 to 3,500 weights, each trained from several seeds as `kpk compress` trains its candidates
//! and completed into an exact hybrid (net + the positions it gets wrong), and the same nets
//! answering by a one-ply search over the net, with the positions the search still gets wrong.
//!
//! The one-ply search is section 6's "White evaluating btm-positions" for both sides: a position
//! is classified by the best move in it, each move valued by the net's output on the position it
//! leads to, or by the rules where the move ends the game (a winning promotion, the pawn taken,
//! stalemate; [`Values::deepened`]). The model file has no flag for it, so its sizes are what the
//! file would hold with the same net and the search's errors as the exception table, coded as the
//! format codes exceptions: measured, not shipped.

use crate::chess::bitbase::Bitbase;
use crate::chess::index::KpkIndex;
use crate::chess::position::KpkPosition;
use crate::chess::search::Values;
use crate::error::{Error, Result};
use crate::hybrid::compress::{CompressConfig, Progress, train_all};
use crate::hybrid::{Hybrid, exceptions::ExceptionSet};
use crate::net::topology::Topology;
use kpk_probe::Outcome;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One net of the frontier: one row of `compression-frontier.csv`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrontierRow {
    pub topology: Topology,
    /// Weights and biases.
    pub weights: usize,
    pub seed: u64,
    /// Legal positions the float net misclassifies.
    pub float_errors: usize,
    /// The quantised net's share of the file: layer headers and Rice-coded weights.
    pub net_bytes: usize,
    /// Positions the integer net gets wrong (the exact hybrid's exceptions) and the file's parts.
    pub errors: usize,
    pub exception_bytes: usize,
    pub total_bytes: usize,
    /// The same with every position answered by a one-ply search over the integer net.
    pub search_errors: usize,
    pub search_exception_bytes: usize,
    pub search_total_bytes: usize,
}

/// Train and complete every net of `cfg`'s frontier, then search over each; rows in the config's
/// order (shapes, then seeds).
pub fn measure(cfg: &CompressConfig, bb: &Bitbase, progress: Progress) -> Result<Vec<FrontierRow>> {
    let spec = cfg.frontier.as_ref().ok_or_else(|| {
        Error::config("frontier", "the config has no [frontier] section: nothing to measure")
    })?;
    let nets = spec.nets();
    // The frontier measures plain rounding; quantisation-aware fine-tuning is measured on the
    // candidates (reports/COMPRESSION.md, "The levers").
    let plain = CompressConfig { qat: None, ..cfg.clone() };
    let trained = train_all(&plain, &nets, bb, progress)?;
    trained
        .iter()
        .map(|c| {
            let (search_errors, search) = searched(&c.hybrid, bb)?;
            progress(&format!(
                "{} (seed {}): {} B exact, {search_errors} errors with a one-ply search: {} B",
                c.topology, c.seed, c.sizes.total, search.total
            ));
            Ok(FrontierRow {
                topology: c.topology.clone(),
                weights: c.parameters,
                seed: c.seed,
                float_errors: c.float_errors,
                net_bytes: c.sizes.net,
                errors: c.hybrid.exceptions().len(),
                exception_bytes: c.sizes.exceptions,
                total_bytes: c.sizes.total,
                search_errors,
                search_exception_bytes: search.exceptions,
                search_total_bytes: search.total,
            })
        })
        .collect()
}

/// The errors of a one-ply search over `hybrid`'s integer net (win iff the searched value is
/// positive, as the net's own rule), and the sizes of a file holding that net with those errors
/// as its exception table.
pub fn searched(hybrid: &Hybrid, bb: &Bitbase) -> Result<(usize, crate::hybrid::sizes::Sizes)> {
    let values = Values::new("net", |p| f64::from(hybrid.net_output(p)))?.deepened();
    let wrong: Vec<u32> = KpkPosition::all()
        .filter(|p| (values.of(p) > 0.0) != (bb.outcome(p) == Outcome::Win))
        .map(|p| KpkIndex::of(&p).value() as u32)
        .collect();
    let n = wrong.len();
    let table = ExceptionSet::new(wrong).expect("indices of legal positions");
    let sizes = Hybrid::new(hybrid.input(), hybrid.net()?.clone(), table)?.sizes();
    Ok((n, sizes))
}

/// Write the rows as CSV (atomically, by the output policy).
pub fn write_csv(path: &Path, rows: &[FrontierRow]) -> Result<()> {
    crate::output::write_file_with(path, |w| {
        let mut w = csv::Writer::from_writer(w);
        for r in rows {
            w.serialize(r)?;
        }
        w.flush()
    })
}

/// Read rows written by [`write_csv`].
pub fn read_csv(path: &Path) -> Result<Vec<FrontierRow>> {
    let bytes = crate::io::read(path)?;
    let bad = |e: csv::Error| Error::Format { path: path.display().to_string(), message: e.to_string() };
    csv::Reader::from_reader(&bytes[..]).deserialize().map(|r| r.map_err(bad)).collect()
}

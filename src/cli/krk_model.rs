//! `kpk compress-krk`: fit the KRK model's frontier, write the smallest exact file and its size
//! figures; and `kpk query --dtm`: KRK's distance to mate from that file alone.

use super::paths::OutFile;
use anyhow::Context;
use clap::Args;
use kpk::chess::dtm::Tables;
use kpk::hybrid::krk::{DEFAULT_KRK_MODEL, DEFAULT_KRK_MODEL_BYTES, frontier};
use kpk::hybrid::krk_query::answer_fen;
use kpk::hybrid::krk_sizes::KrkModelResults;
use kpk::output::FileOut;
use kpk_probe::krk::{KRK_MAGIC, KrkModel, KrkSource};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// The correction costs (bits) the frontier sweeps; 0 keeps the tree to one leaf.
const COSTS: [f64; 13] = [0.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0, 32.0, 1e9];

#[derive(Args)]
pub struct CompressKrkArgs {
    /// Where to write the KRK model (`-`: standard output).
    #[arg(long, value_name = "FILE", default_value = DEFAULT_KRK_MODEL)]
    out: OutFile,
    /// Where to write its size figures (JSON: the file's parts, the packed table, xz -9e).
    #[arg(long, value_name = "FILE", default_value = "reports/krk_model.json")]
    results: OutFile,
}

pub fn run_compress_krk(args: CompressKrkArgs) -> anyhow::Result<ExitCode> {
    let out = FileOut::check(&args.out)?;
    let results_out = FileOut::check(&args.results)?;
    kpk::output::distinct(&[&out, &results_out])?;
    let tables = Tables::generate();
    let cands = frontier(&tables, &COSTS);
    let chosen = (0..cands.len())
        .filter(|&i| cands[i].wrong == 0)
        .min_by_key(|&i| (cands[i].bytes.len(), i))
        .context("no candidate is exact")?;
    let results = KrkModelResults::measure(DEFAULT_KRK_MODEL, &cands, chosen, &tables)?;
    out.write(&cands[chosen].bytes)?;
    results_out.write(results.to_json()?.as_bytes())?;
    let msg = format!(
        "wrote {} ({} bytes, {} corrections; every one of {} positions exact) and {}",
        out.display(),
        results.model_bytes,
        results.corrections,
        results.positions_checked,
        results_out.display()
    );
    if out.is_stream() || results_out.is_stream() {
        errln!("{msg}")
    } else {
        outln!("{msg}")?
    }
    Ok(ExitCode::SUCCESS)
}

/// The KRK model in `path`, or the committed one compiled into kpk.
pub fn load_krk_model(path: Option<&Path>) -> anyhow::Result<KrkModel> {
    let (bytes, shown) = super::model_bytes(path, (DEFAULT_KRK_MODEL, DEFAULT_KRK_MODEL_BYTES))?;
    KrkModel::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{shown}: {e}"))
}

/// Refuse a KRK model given without `--dtm`: it answers nothing else.
pub fn refuse_without_dtm(path: Option<&Path>) -> anyhow::Result<()> {
    let Some(path) = path else { return Ok(()) };
    let bytes = kpk::io::read(path)?;
    if bytes.starts_with(KRK_MAGIC) {
        anyhow::bail!("{} is a KRK model: it answers `kpk query --dtm`", path.display());
    }
    Ok(())
}

/// One line of `kpk query --dtm`: the FEN, `win` or `draw` from the rook side's point of view,
/// the part of the model that answered, and the DTM in plies signed from the side to move's point
/// of view (0 in a draw and in a checkmate).
pub fn answer_line(model: &KrkModel, fen: &str, out: &mut dyn Write) -> anyhow::Result<Result<(), String>> {
    let a = match answer_fen(model, fen) {
        Ok(a) => a,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let result = if a.wdl == 0 { "draw" } else { "win" };
    let source = match a.source {
        KrkSource::Tree => "tree",
        KrkSource::Correction => "exception",
        KrkSource::Rule => "rule",
    };
    writeln!(out, "{fen}\t{result}\t{source}\t{}", a.signed())?;
    Ok(Ok(()))
}

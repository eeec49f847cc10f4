//! `kpk compress-dtz`: fit the DTZ model's frontier, write the smallest exact file and
//! reports/DTZ.md.

use super::paths::{InFile, OutFile};
use anyhow::Context;
use clap::Args;
use kpk::Bitbase;
use kpk::chess::index::KpkIndex;
use kpk::hybrid::dtz::{DEFAULT_DTZ_MODEL, frontier};
use kpk::output::FileOut;
use kpk::report::dtz::DtzReport;
use kpk::{Color, KpkPosition};
use std::collections::BTreeMap;
use std::process::ExitCode;

/// The correction costs (bits) the frontier sweeps; 0 keeps the tree to one leaf.
const COSTS: [f64; 11] = [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 16.0, 24.0, 48.0, 1e9];

#[derive(Args)]
pub struct CompressDtzArgs {
    /// The exact win/draw model to embed (any hybrid model file).
    #[arg(long, value_name = "FILE", default_value = kpk::hybrid::DEFAULT_MODEL)]
    hybrid: InFile,
    /// Where to write the DTZ model (`-`: standard output).
    #[arg(long, value_name = "FILE", default_value = DEFAULT_DTZ_MODEL)]
    out: OutFile,
    /// Where to write the report.
    #[arg(long, value_name = "FILE", default_value = "reports/DTZ.md")]
    report: OutFile,
    /// The play model to compare with (reports/DTZ.md, "Depth from the play model").
    #[arg(long, value_name = "FILE", default_value = kpk::play::model::DEFAULT_PLAY_MODEL)]
    play: InFile,
    /// A CSV of python-chess's answers (`side,wk,bk,wp,wdl,dtz`, squares a1 = 0, canonical
    /// orientation) to compare on every position; the report states the result.
    #[arg(long, value_name = "CSV")]
    syzygy: Option<InFile>,
}

pub fn run_compress_dtz(args: CompressDtzArgs) -> anyhow::Result<ExitCode> {
    let out = FileOut::check(&args.out)?;
    let report_out = FileOut::check(&args.report)?;
    kpk::output::distinct(&[&out, &report_out])?;
    let embedded = kpk::io::read(&args.hybrid)?;
    let bb = Bitbase::generate();
    let cands = frontier(&embedded, &bb, &COSTS)
        .with_context(|| format!("{} is no exact win/draw model", args.hybrid.display()))?;
    let chosen = (0..cands.len())
        .filter(|&i| cands[i].wrong == 0)
        .min_by_key(|&i| (cands[i].bytes.len(), i))
        .context("no candidate is exact")?;
    let wdl = kpk_probe::Model::from_bytes(&embedded).map_err(|e| anyhow::anyhow!("{e}"))?;
    let hard = kpk_probe::dtz::hard_positions(&wdl).len();
    let mut report = DtzReport::new(&cands, chosen, embedded.len(), hard);
    let mut hist: BTreeMap<(char, i32), usize> = BTreeMap::new();
    for p in KpkPosition::all() {
        *hist.entry((p.side().fen_char(), i32::from(bb.dtz(&p)))).or_default() += 1;
    }
    report.histogram = hist.into_iter().map(|((s, d), n)| (s.to_string(), d, n)).collect();
    report.play = Some(play_beside(&args.play, &bb)?);
    if let Some(path) = &args.syzygy {
        report.syzygy_checked =
            Some(compare_syzygy(&kpk::io::read(path)?, &bb).with_context(|| path.display().to_string())?);
    }
    out.write(&cands[chosen].bytes)?;
    report_out.write(report.render()?.as_bytes())?;
    let msg = format!(
        "wrote {} ({} bytes, {} corrections) and {}",
        out.display(),
        cands[chosen].bytes.len(),
        cands[chosen].corrections,
        report_out.display()
    );
    if out.is_stream() || report_out.is_stream() {
        errln!("{msg}")
    } else {
        outln!("{msg}")?
    }
    Ok(ExitCode::SUCCESS)
}

/// The columns of a python-chess dump, in order.
const SYZYGY_HEADER: [&str; 6] = ["side", "wk", "bk", "wp", "wdl", "dtz"];

/// Compare a python-chess dump with the bitbase: `(positions compared, disagreements)`. The
/// header must be [`SYZYGY_HEADER`], every side `w` or `b`, every square 0 to 63, and the dump
/// must hold at least one position: anything else is refused, naming the row.
fn compare_syzygy(csv_bytes: &[u8], bb: &Bitbase) -> anyhow::Result<(usize, usize)> {
    let mut rd = csv::Reader::from_reader(csv_bytes);
    let header: Vec<String> = rd.headers()?.iter().map(str::to_string).collect();
    anyhow::ensure!(
        header == SYZYGY_HEADER,
        "the header is {:?}, expected {}",
        header.join(","),
        SYZYGY_HEADER.join(",")
    );
    let (mut n, mut wrong) = (0, 0);
    for (row, rec) in rd.records().enumerate() {
        let rec = rec?;
        let at = || format!("row {}", row + 2);
        let f = |i: usize| -> anyhow::Result<i64> {
            let s = rec.get(i).with_context(|| format!("{}: a short row", at()))?;
            s.parse::<i64>().with_context(|| format!("{}: {:?} is not a number", at(), s))
        };
        let side = match rec.get(0) {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            other => anyhow::bail!("{}: the side is {:?}, expected w or b", at(), other.unwrap_or_default()),
        };
        let sq = |v: i64| {
            u8::try_from(v)
                .ok()
                .and_then(kpk::Square::new)
                .with_context(|| format!("{}: square {v} is not 0 to 63", at()))
        };
        let p = KpkPosition::new(sq(f(1)?)?, sq(f(2)?)?, sq(f(3)?)?, side).with_context(at)?;
        let ours = i64::from(bb.dtz_at(KpkIndex::of(&p)));
        n += 1;
        wrong += usize::from(ours != f(5)?);
    }
    anyhow::ensure!(n > 0, "the dump holds no position");
    Ok((n, wrong))
}

/// `kpk bench --what dtz`: DTZ queries from the loaded model over every legal position as a
/// batch, single-threaded, and the model's load (decode, checks, every answer computed once).
pub fn bench_dtz(path: Option<&std::path::Path>, runs: usize) -> anyhow::Result<()> {
    let (bytes, shown) =
        super::model_bytes(path, (DEFAULT_DTZ_MODEL, kpk::hybrid::dtz::DEFAULT_DTZ_MODEL_BYTES))?;
    let model = kpk_probe::DtzModel::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    outln!(
        "DTZ model {shown}: {} bytes ({} embedded), {} corrections",
        bytes.len(),
        model.embedded().len(),
        model.corrections().len()
    )?;
    let positions: Vec<kpk_probe::Position> = kpk_probe::Position::all().collect();
    let n = positions.len();
    let (min, median, _) = super::timing::time_runs(runs, || {
        positions.iter().map(|p| i64::from(model.dtz(std::hint::black_box(p)))).sum::<i64>()
    });
    outln!(
        "DTZ query, all {n} legal positions as a batch: min {:.3} ms ({:.1} ns per position), median {:.3} ms ({:.1} ns per position)",
        min.as_secs_f64() * 1e3,
        min.as_secs_f64() * 1e9 / n as f64,
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e9 / n as f64
    )?;
    let (min_load, median_load, _) =
        super::timing::time_runs(runs.div_ceil(10), || kpk_probe::DtzModel::from_bytes(&bytes).is_ok());
    outln!(
        "DTZ model load (parse, checks, every answer computed): min {:.2} ms, median {:.2} ms",
        min_load.as_secs_f64() * 1e3,
        median_load.as_secs_f64() * 1e3
    )?;
    Ok(())
}

/// How often the play model's move is DTZ-optimal: a pawn move that keeps the win where DTZ is 1,
/// otherwise a move to a position of |DTZ| one less.
fn play_beside(path: &std::path::Path, bb: &Bitbase) -> anyhow::Result<kpk::report::dtz::PlayBeside> {
    use kpk::chess::position::After;
    let bytes = kpk::io::read(path)?;
    let play = kpk::play::model::PlayModel::from_bytes(&bytes, &path.display().to_string())?;
    let (mut won, mut dtz_optimal, mut dtz_is_dtc) = (0, 0, 0);
    for p in KpkPosition::all().filter(|p| p.side() == Color::White) {
        let Some(dtc) = bb.dtc(&p) else { continue };
        won += 1;
        let z = bb.dtz(&p);
        dtz_is_dtc += usize::from(z.unsigned_abs() == dtc.0);
        let Some(mv) = play.best_move(&p) else { continue };
        let optimal = match p.play(mv) {
            After::Promoted { outcome, .. } => z == 1 && outcome == kpk::Outcome::Win,
            After::Position(q) if mv.from == p.wp() => z == 1 && bb.dtc(&q).is_some(),
            After::Position(q) => bb.dtz(&q).unsigned_abs() + 1 == z.unsigned_abs() && bb.dtc(&q).is_some(),
            After::PawnCaptured => false,
        };
        dtz_optimal += usize::from(optimal);
    }
    let embedded = play.hybrid().to_bytes().len();
    Ok(kpk::report::dtz::PlayBeside {
        won,
        dtz_optimal,
        dtz_is_dtc,
        play_bytes: bytes.len(),
        play_moves_bytes: bytes.len() - embedded,
    })
}

//! `kpk query` (and the hybrid half of `kpk bench`): exact answers from the model file alone.

use anyhow::Context;
use clap::Args;
use kpk::KpkPosition;
use kpk::hybrid::Hybrid;
use kpk::position::Oriented;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where `kpk compress` writes the model and `kpk query` looks for it.
pub const DEFAULT_MODEL: &str = "models/kpk.hybrid";

#[derive(Args)]
#[command(after_help = "Output: one line per position, FEN<TAB>win|draw<TAB>net|exception, from the pawn \
side's point of view. A bad FEN gets an error on stderr naming it and the rest are still answered; \
the exit code is then 1.")]
pub struct QueryArgs {
    /// The model file written by `kpk compress`.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_MODEL)]
    model: PathBuf,
    /// Read one FEN per line from standard input (blank lines are skipped).
    #[arg(long, conflicts_with = "fens")]
    stdin: bool,
    /// Positions in FEN; the pawn may be of either colour and on any file.
    #[arg(value_name = "FEN", required_unless_present = "stdin")]
    fens: Vec<String>,
}

pub fn run_query(args: QueryArgs) -> anyhow::Result<ExitCode> {
    let model = load(&args.model)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    let mut answer = |what: &str, fen: &str, out: &mut dyn Write| -> anyhow::Result<()> {
        let fen = fen.trim();
        match Oriented::from_fen(fen) {
            Ok(o) => {
                let a = model.classify(&o.position);
                writeln!(out, "{fen}\t{}\t{}", a.outcome, a.source)?;
            }
            Err(e) => {
                out.flush()?; // keep stdout and stderr in order on a terminal
                eprintln!("kpk: {what}: {e}");
                failed = true;
            }
        }
        Ok(())
    };
    if args.stdin {
        for (n, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.with_context(|| format!("reading standard input at line {}", n + 1))?;
            if !line.trim().is_empty() {
                answer(&format!("line {}", n + 1), &line, &mut out)?;
            }
        }
    } else {
        for (n, fen) in args.fens.iter().enumerate() {
            answer(&format!("argument {}", n + 1), fen, &mut out)?;
        }
    }
    out.flush()?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn load(path: &Path) -> anyhow::Result<Hybrid> {
    Hybrid::load(path).with_context(|| "loading the hybrid model (write one with `kpk compress`)")
}

/// `kpk bench --model FILE`: the speed of exact answers from the hybrid, single-threaded.
pub fn bench_query(path: &Path, runs: usize) -> anyhow::Result<()> {
    let model = load(path)?;
    let legal: Vec<KpkPosition> = KpkPosition::all().collect();
    let n = legal.len();
    let (min, median, _) = super::bitbase::time_runs(runs, || {
        legal.iter().filter(|p| model.classify(p).outcome == kpk::Outcome::Win).count()
    });
    println!(
        "hybrid query, all {n} legal positions as a batch: min {:.3} ms, median {:.3} ms ({:.1} ns per position)",
        min.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e9 / n as f64
    );
    let fens: Vec<String> = legal.iter().step_by(16).map(|p| p.to_fen()).collect();
    let (_, median_fen, _) = super::bitbase::time_runs(runs.div_ceil(10), || {
        fens.iter()
            .filter_map(|f| Oriented::from_fen(f).ok())
            .filter(|o| model.classify(&o.position).outcome == kpk::Outcome::Win)
            .count()
    });
    println!(
        "hybrid query from FEN text (parse + answer), {} positions: {:.1} ns per position",
        fens.len(),
        median_fen.as_secs_f64() * 1e9 / fens.len() as f64
    );
    let bytes = std::fs::read(path).with_context(|| path.display().to_string())?;
    let (_, median_load, _) = super::bitbase::time_runs(runs, || Hybrid::from_bytes(&bytes, "bench").is_ok());
    println!("hybrid model load (parse + checks): {:.1} µs", median_load.as_secs_f64() * 1e6);
    Ok(())
}

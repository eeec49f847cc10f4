//! `kpk query` (and the hybrid half of `kpk bench`): exact answers from the model file alone.

use anyhow::Context;
use clap::Args;
use kpk::Bitbase;
use kpk::hybrid::Hybrid;
use kpk::hybrid::compress::{CompressConfig, compress};
use kpk::output::FileOut;
use kpk::report::compression;

use kpk::chess::position::Oriented;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
#[command(after_help = "Output: one line per position, FEN<TAB>win|draw<TAB>net|exception, from the pawn \
side's point of view, and with --best-move a last column with a move in UCI. A bad FEN gets an error on stderr naming it and the rest are still answered; \
the exit code is then 1.")]
pub struct QueryArgs {
    /// The model file written by `kpk compress`.
    #[arg(long, value_name = "FILE", default_value = kpk::hybrid::DEFAULT_MODEL)]
    model: PathBuf,
    /// Add a last column: a move in UCI notation in the FEN's own squares (`-` when there is
    /// none), perfect where the position's result says so. Needs a play model (`kpk compress-play`).
    #[arg(long)]
    best_move: bool,
    /// Read one FEN per line from standard input (blank lines are skipped).
    #[arg(long, conflicts_with = "fens")]
    stdin: bool,
    /// Positions in FEN; the pawn may be of either colour and on any file.
    #[arg(value_name = "FEN", required_unless_present = "stdin")]
    fens: Vec<String>,
}

pub fn run_query(args: QueryArgs) -> anyhow::Result<ExitCode> {
    let (model, play) = super::play::load_query_model(&args.model, args.best_move)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut batch = super::Batch::new();
    let answer =
        |which: &str, fen: &str, out: &mut dyn Write, batch: &mut super::Batch| -> anyhow::Result<()> {
            let fen = fen.trim();
            match Oriented::from_fen(fen) {
                Ok(o) => {
                    let a = model.classify(&o.position);
                    write!(out, "{fen}\t{}\t{}", a.outcome, a.source)?;
                    if let Some(play) = &play {
                        write!(out, "\t{}", super::play::best_move_column(play, &o))?;
                    }
                    writeln!(out)?;
                    batch.answered();
                }
                Err(e) => {
                    out.flush()?; // keep stdout and stderr in order on a terminal
                    batch.rejected(which, e);
                }
            }
            Ok(())
        };
    if args.stdin {
        // Lines are read as bytes: a line that is not UTF-8 is that line's error only.
        let mut input = std::io::stdin().lock();
        let mut line = Vec::new();
        for n in 1.. {
            line.clear();
            if input.read_until(b'\n', &mut line).context("reading standard input")? == 0 {
                break;
            }
            let which = format!("line {n}");
            match std::str::from_utf8(&line) {
                Ok(text) if text.trim().is_empty() => {}
                Ok(text) => answer(&which, text, &mut out, &mut batch)?,
                Err(_) => {
                    out.flush()?;
                    batch.rejected(&which, "not UTF-8 text");
                }
            }
        }
    } else {
        for (n, fen) in args.fens.iter().enumerate() {
            answer(&format!("argument {}", n + 1), fen, &mut out, &mut batch)?;
        }
    }
    out.flush()?;
    Ok(batch.exit_code())
}

#[derive(Args)]
pub struct CompressArgs {
    /// The compress config (TOML; see experiments/compress.toml).
    #[arg(value_name = "CONFIG", default_value = "experiments/compress.toml")]
    config: PathBuf,
    /// Where to write the smallest exact model (`-`: standard output).
    #[arg(long, value_name = "FILE", default_value = kpk::hybrid::DEFAULT_MODEL)]
    out: PathBuf,
    /// Where to write the generated report (its plot and candidate table go beside it).
    #[arg(long, value_name = "FILE", default_value = "reports/COMPRESSION.md")]
    report: PathBuf,
}

pub fn run_compress(args: CompressArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.config).with_context(|| args.config.display().to_string())?;
    let cfg: CompressConfig =
        toml::from_str(&text).with_context(|| format!("parsing {}", args.config.display()))?;
    cfg.validate()?;
    // Every destination is checked before minutes of training: the model, the report and its plot.
    let out = FileOut::check(&args.out)?;
    compression::check_destinations(&args.report)?;
    let bb = Bitbase::generate();
    let started = std::time::Instant::now();
    let progress = |line: &str| eprintln!("[{:>6.1} s] {line}", started.elapsed().as_secs_f64());
    let candidates = compress(&cfg, &bb, &progress)?;
    let best = &candidates[0];
    if !best.hybrid.disagreements(&bb).is_empty() {
        anyhow::bail!("the chosen model disagrees with the bitbase");
    }
    let bytes = best.hybrid.to_bytes();
    // The bytes, not the value in memory, are the product: decode them before writing.
    let reloaded = Hybrid::from_bytes(&bytes, &out.display())?;
    if reloaded != best.hybrid || !reloaded.disagreements(&bb).is_empty() {
        anyhow::bail!("{} does not read back as the model written", out.display());
    }
    out.write(&bytes)?;
    // With the model on standard output, the tables go to standard error.
    let mut tables: Box<dyn Write> =
        if out.is_stream() { Box::new(std::io::stderr()) } else { Box::new(std::io::stdout()) };
    writeln!(
        tables,
        "{:<14}{:>8}{:>8}{:>8}{:>10}{:>10}{:>8}  shifts",
        "topology", "params", "float", "exc", "net B", "exc B", "total"
    )?;
    for c in &candidates {
        writeln!(
            tables,
            "{:<14}{:>8}{:>8}{:>8}{:>10}{:>10}{:>8}  {:?}",
            c.topology,
            c.parameters,
            c.float_errors,
            c.hybrid.exceptions().len(),
            c.sizes.net,
            c.sizes.exceptions,
            c.sizes.total,
            c.shifts
        )?;
    }
    writeln!(
        tables,
        "wrote {} ({} bytes, {} exceptions)",
        out.display(),
        best.sizes.total,
        best.hybrid.exceptions().len()
    )?;
    let speed = super::bench::measure_query_speed(&reloaded, &bytes);
    eprintln!(
        "query speed on this machine: {:.0} ns per position, all legal positions {:.1} ms, from FEN {:.0} ns, load {:.1} µs",
        speed.per_query_ns, speed.batch_ms, speed.fen_ns, speed.load_us
    );
    compression::write(&args.report, &cfg, &args.config, &candidates, &reloaded)?;
    eprintln!("compress took {:.0} s on this machine", started.elapsed().as_secs_f64());
    writeln!(tables, "wrote {}", args.report.display())?;
    Ok(ExitCode::SUCCESS)
}

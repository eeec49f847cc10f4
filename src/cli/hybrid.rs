//! `kpk query` (and the hybrid half of `kpk bench`): exact answers from the model file alone.

use super::paths::{InFile, OutFile};
use anyhow::Context;
use clap::Args;
use kpk::Bitbase;
use kpk::analysis::Mode;
use kpk::analysis::compression::{self, Compress, CompressRun};
use kpk::hybrid::Hybrid;
use kpk::hybrid::complete::from_saved;
use kpk::hybrid::compress::{Candidate, CompressConfig};
use kpk::net::model::SavedNet;
use kpk::net::topology::Topology;
use kpk::output::FileOut;
use kpk::report::driver::drive;
use std::cell::RefCell;

use kpk::chess::position::Oriented;
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

#[derive(Args)]
#[command(
    after_help = "Output: one line per position, FEN<TAB>win|draw<TAB>net|tree|exception|rule, from the pawn \
side's point of view, and with --best-move a last column with a move in UCI. A bad FEN gets an error on stderr naming it and the rest are still answered; \
the exit code is then 1."
)]
pub struct QueryArgs {
    /// The model file (written by `kpk learners --ship` or `kpk compress`).
    /// [default: the committed models/kpk.hybrid, or models/kpk-dtz.hybrid with --dtz, both
    /// compiled into kpk]
    #[arg(long, value_name = "FILE")]
    model: Option<InFile>,
    /// Add a column: Syzygy's DTZ (plies to the next pawn move or capture, positive when the side
    /// to move wins, negative when it loses, 0 in a draw). Needs a DTZ model (`kpk compress-dtz`).
    #[arg(long)]
    dtz: bool,
    /// KRK's distance to mate from a KRK model [default: the committed models/krk.hybrid,
    /// compiled into kpk]: FEN, win|draw from the rook side's point of view, tree|exception|rule,
    /// then the DTM in plies, positive when the side to move mates, negative when it is mated, 0
    /// in a draw (`kpk compress-krk`).
    #[arg(long, conflicts_with_all = ["dtz", "best_move"])]
    dtm: bool,
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
    if args.dtm {
        let model = super::krk_model::load_krk_model(args.model.as_deref())?;
        return each_fen(args.stdin, &args.fens, |which, fen, out, batch| {
            match super::krk_model::answer_line(&model, fen, out)? {
                Ok(()) => batch.answered(),
                Err(e) => {
                    out.flush()?;
                    batch.rejected(which, e);
                }
            }
            Ok(())
        });
    }
    super::krk_model::refuse_without_dtm(args.model.as_deref())?;
    let (model, play, dtz) = super::play::load_query_model(args.model.as_deref(), args.best_move, args.dtz)?;
    // The move column is printed only when asked for, whichever model answers.
    let play = play.filter(|_| args.best_move);
    each_fen(args.stdin, &args.fens, |which, fen, out, batch| {
        match Oriented::from_fen(fen) {
            Ok(o) => {
                let a = model.classify(&o.position);
                write!(out, "{fen}\t{}\t{}", a.outcome, a.source)?;
                if let Some(dtz) = &dtz {
                    write!(out, "\t{}", dtz.dtz(&kpk::hybrid::inputs::probe_position(&o.position)))?;
                }
                if let Some(play) = &play {
                    write!(out, "\t{}", super::play::best_move_column(play, &o))?;
                }
                writeln!(out)?;
                batch.answered();
            }
            Err(e) if kpk::hybrid::krk_query::is_krk_fen(fen) => {
                out.flush()?;
                batch.rejected(which, format!("{e} (a KRK position: `kpk query --dtm` answers it)"));
            }
            Err(e) => {
                out.flush()?; // keep stdout and stderr in order on a terminal
                batch.rejected(which, e);
            }
        }
        Ok(())
    })
}

/// Answer each FEN of the command line, or each line of standard input, with `answer`, one line
/// of output each; a FEN is echoed with its fields joined by single spaces (a tab inside it would
/// otherwise split the tab-separated line into extra columns).
fn each_fen(
    stdin: bool,
    fens: &[String],
    mut answer: impl FnMut(&str, &str, &mut dyn Write, &mut super::Batch) -> anyhow::Result<()>,
) -> anyhow::Result<ExitCode> {
    let mut out = std::io::BufWriter::new(super::stdout());
    let mut batch = super::Batch::new();
    let mut answer = |which: &str, fen: &str, out: &mut dyn Write, batch: &mut super::Batch| {
        answer(which, &fen.split_whitespace().collect::<Vec<_>>().join(" "), out, batch)
    };
    if stdin {
        // Lines are read as bytes: a line that is not UTF-8 is that line's error only.
        let mut input = std::io::stdin().lock();
        let mut line = Vec::new();
        for n in 1.. {
            line.clear();
            let cap = kpk::io::MAX_LINE_BYTES;
            let read = (&mut input).take(cap + 1).read_until(b'\n', &mut line);
            if read.context("reading standard input")? == 0 {
                break;
            }
            let which = format!("line {n}");
            if line.len() as u64 > cap {
                // An endless line (`< /dev/zero`) is no list of FENs: stop, as after a read error.
                anyhow::bail!("standard input: {which} is longer than {}", kpk::io::size_text(cap));
            }
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
        for (n, fen) in fens.iter().enumerate() {
            answer(&format!("argument {}", n + 1), fen, &mut out, &mut batch)?;
        }
    }
    out.flush()?;
    Ok(batch.exit_code())
}

#[derive(Args)]
#[command(after_help = "With --from, the net of a weights.json (written by `kpk run` or `kpk export`) is \
quantised and completed instead of training the config's candidates; --out must then be given, and no report is written.")]
pub struct CompressArgs {
    /// The compress config (TOML; see experiments/compress.toml).
    #[arg(value_name = "CONFIG", default_value = "experiments/compress.toml", conflicts_with = "from")]
    config: InFile,
    /// Quantise and complete this saved net (natural or scaled input coding) instead of training.
    #[arg(long, value_name = "NET.json")]
    from: Option<InFile>,
    /// Where to write the smallest exact net hybrid (`-`: standard output) [default without
    /// --from: models/kpk-net.hybrid; the shipped models/kpk.hybrid is `kpk learners --ship`'s].
    #[arg(long, value_name = "FILE")]
    out: Option<OutFile>,
    /// Where to write the generated report (its plots and the frontier's data go beside it).
    #[arg(long, value_name = "FILE", default_value = "reports/COMPRESSION.md", conflicts_with = "from")]
    report: OutFile,
    /// Also measure the config's size/accuracy frontier (many nets: tens of minutes) and write its
    /// data beside the report; without it, the report reuses the data a previous run wrote.
    #[arg(long, conflicts_with = "from")]
    frontier: bool,
    /// The run's results (JSON): written by a run, read by --render-only [default:
    /// compression.json beside the report].
    #[arg(long, value_name = "FILE", conflicts_with = "from")]
    results: Option<OutFile>,
    /// Redraw the report and its figures from --results alone: no training, no model written.
    #[arg(long, conflicts_with_all = ["from", "frontier"])]
    render_only: bool,
}

/// One row of the candidate table.
struct Row<'a> {
    topology: &'a Topology,
    parameters: usize,
    float_errors: usize,
    hybrid: &'a Hybrid,
    sizes: &'a kpk::hybrid::sizes::Sizes,
    shifts: &'a [i8],
}

fn write_rows(tables: &mut dyn Write, rows: &[Row]) -> std::io::Result<()> {
    writeln!(
        tables,
        "{:<14}{:>8}{:>8}{:>8}{:>10}{:>10}{:>8}  shifts",
        "topology", "params", "float", "exc", "net B", "exc B", "total"
    )?;
    for r in rows {
        writeln!(
            tables,
            "{:<14}{:>8}{:>8}{:>8}{:>10}{:>10}{:>8}  {:?}",
            r.topology,
            r.parameters,
            r.float_errors,
            r.hybrid.exceptions().len(),
            r.sizes.net,
            r.sizes.exceptions,
            r.sizes.total,
            r.shifts
        )?;
    }
    Ok(())
}

/// Write `hybrid` to `out` after checking that its bytes decode to it and that it is exact.
fn write_model(out: &FileOut, hybrid: &Hybrid, bb: &Bitbase) -> kpk::Result<(Hybrid, Vec<u8>)> {
    if !hybrid.disagreements(bb).is_empty() {
        return Err(kpk::Error::Model("the chosen model disagrees with the bitbase".into()));
    }
    let bytes = hybrid.to_bytes();
    // The bytes, not the value in memory, are the product: decode them before writing.
    let reloaded = Hybrid::from_bytes(&bytes, &out.display())?;
    if reloaded != *hybrid || !reloaded.disagreements(bb).is_empty() {
        return Err(kpk::Error::Model(format!("{} does not read back as the model written", out.display())));
    }
    out.write(&bytes)?;
    Ok((reloaded, bytes))
}

pub fn run_compress(args: CompressArgs) -> anyhow::Result<ExitCode> {
    if let Some(from) = &args.from {
        let Some(out) = &args.out else {
            anyhow::bail!("--from needs --out: only the committed config writes {}", kpk::hybrid::NET_MODEL);
        };
        return run_compress_from(from, out);
    }
    let results =
        args.results.as_ref().map_or_else(|| compression::results_path(&args.report), |r| r.to_path_buf());
    if args.render_only {
        let report = Compress { report: args.report.to_path_buf(), results, run: None };
        drive(&report, Mode::RenderOnly)?;
        outln!("wrote {}", args.report.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    let cfg = CompressConfig::load(&args.config)?;
    // The model is checked with the report's destinations (the driver's) before minutes of training.
    let out = FileOut::check(args.out.as_deref().unwrap_or(kpk::hybrid::NET_MODEL.as_ref()))?;
    let started = std::time::Instant::now();
    let progress = |line: &str| errln!("[{:>6.1} s] {line}", started.elapsed().as_secs_f64());
    // With the model on standard output, the tables go to standard error.
    let tables: RefCell<Box<dyn Write>> =
        RefCell::new(if out.is_stream() { Box::new(std::io::stderr()) } else { Box::new(super::stdout()) });
    let chosen = |candidates: &[Candidate]| -> kpk::Result<Hybrid> {
        let bb = Bitbase::generate();
        let best = &candidates[0];
        let (reloaded, bytes) = write_model(&out, &best.hybrid, &bb)?;
        let rows: Vec<Row> = candidates
            .iter()
            .map(|c| Row {
                topology: &c.topology,
                parameters: c.parameters,
                float_errors: c.float_errors,
                hybrid: &c.hybrid,
                sizes: &c.sizes,
                shifts: &c.shifts,
            })
            .collect();
        let mut tables = tables.borrow_mut();
        let shown = |e: std::io::Error| kpk::Error::Io { path: "standard output".into(), cause: e };
        write_rows(&mut *tables, &rows).map_err(shown)?;
        writeln!(
            tables,
            "wrote {} ({} bytes, {} exceptions)",
            out.display(),
            best.sizes.total,
            best.hybrid.exceptions().len()
        )
        .map_err(shown)?;
        let speed = super::bench::measure_query_speed(&reloaded, &bytes);
        errln!(
            "query speed on this machine: {:.0} ns per position, all legal positions {:.1} ms, from FEN {:.0} ns, load {:.1} µs",
            speed.per_query_ns,
            speed.batch_ms,
            speed.fen_ns,
            speed.load_us
        );
        Ok(reloaded)
    };
    let run = CompressRun {
        config: args.config.display().to_string(),
        cfg,
        measure_frontier: args.frontier,
        model: args.out.as_ref().map_or_else(|| kpk::hybrid::NET_MODEL.into(), |o| o.to_path_buf()),
        progress: &progress,
        chosen: &chosen,
    };
    let report = Compress { report: args.report.to_path_buf(), results, run: Some(run) };
    drive(&report, Mode::Run)?;
    errln!("compress took {:.0} s on this machine", started.elapsed().as_secs_f64());
    writeln!(tables.borrow_mut(), "wrote {}", args.report.display())?;
    Ok(ExitCode::SUCCESS)
}

/// `kpk compress --from NET.json --out FILE`: quantise and complete a saved net.
fn run_compress_from(from: &std::path::Path, out: &std::path::Path) -> anyhow::Result<ExitCode> {
    let out = FileOut::check(out)?;
    kpk::output::check_all(&[&out], &[from])?;
    let saved = SavedNet::load(from)?;
    let bb = Bitbase::generate();
    let started = std::time::Instant::now();
    let done = from_saved(&saved, &bb).with_context(|| from.display().to_string())?;
    let c = &done.completed;
    write_model(&out, &c.hybrid, &bb)?;
    let mut tables: Box<dyn Write> =
        if out.is_stream() { Box::new(std::io::stderr()) } else { Box::new(super::stdout()) };
    let net = &done.prepared.net;
    let topology = Topology::new(net.topology().to_vec())?;
    let row = Row {
        topology: &topology,
        parameters: net.weight_count(),
        float_errors: done.float_errors,
        hybrid: &c.hybrid,
        sizes: &c.sizes,
        shifts: &c.shifts,
    };
    write_rows(&mut tables, &[row])?;
    writeln!(
        tables,
        "wrote {} ({} bytes, {} exceptions; inputs {})",
        out.display(),
        c.sizes.total,
        c.hybrid.exceptions().len(),
        done.prepared.input.xs().iter().map(|x| format!("x{x}")).collect::<Vec<_>>().join(" ")
    )?;
    errln!("compress --from took {:.0} s on this machine", started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

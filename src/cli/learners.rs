//! `kpk learners`: section 7's comparison of six learners on Table 4's characterisation; writes
//! reports/learners.json, reports/LEARNERS.md and reports/learners/.

use super::paths::{InDir, InFile, OutDir, OutFile};
use clap::Args;
use kpk::analysis::Mode;
use kpk::analysis::learners::{Destinations, Learners};
use kpk::analysis::learners_tuned::TunedLearners;
use kpk::chess::bitbase::Bitbase;
use kpk::learners::analyse::Settings;
use kpk::learners::design::Design;
use kpk::learners::power::{self, Pilot};
use kpk::report::driver::drive;
use std::cell::RefCell;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct LearnersArgs {
    /// Where learners.json, LEARNERS.md and learners/ are written.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    out: OutDir,
    /// The folder of Table 5's trial configs (the MLP's settings).
    #[arg(long, default_value = "experiments/table5", value_name = "DIR")]
    configs: InDir,
    /// The MLP hybrid (written by `kpk compress`), whose size the exact models are compared with.
    #[arg(long, default_value = kpk::hybrid::NET_MODEL, value_name = "FILE")]
    model: InFile,
    /// Replicates per learner on the whole side's rows (the committed report: 5); at least 2, so
    /// that every whole-side row the report shows has an interval.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(2..=50))]
    replicates: u16,
    /// The MLP's epoch cap on T3 (the committed report: 100).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    t3_epochs: u32,
    /// Leave out the frontier's variants on T3 (a reduced run).
    #[arg(long)]
    no_variants: bool,
    /// The compress config whose chosen net is the bytes primary's quantised hybrid.
    #[arg(long, default_value = "experiments/compress.toml", value_name = "FILE")]
    compress: InFile,
    /// Fit nothing: render LEARNERS.md, the CSVs and the figure from the committed learners.json.
    #[arg(long, conflicts_with_all = ["ship", "analyse_only"])]
    render_only: bool,
    /// Fit nothing: read the committed learners.json and learners/draws.csv, compute the curves,
    /// contrasts and verdicts from them again (--design, --pilot), rewrite learners.json and render.
    #[arg(long, conflicts_with = "ship")]
    analyse_only: bool,
    /// Read the learning curves' draws from the committed learners/draws.csv instead of fitting
    /// them again, and run the rest of the comparison (the sizes and the whole side).
    #[arg(long, conflicts_with_all = ["ship", "analyse_only", "render_only"])]
    from_draws: bool,
    /// Fit nothing: print the declared design's power from its pilot (each primary's minimal
    /// detectable difference) and check it against the declaration's limit.
    #[arg(long, conflicts_with_all = ["ship", "analyse_only", "render_only"])]
    power: bool,
    /// The declared design of the comparison (draws, primaries, margin, α, power).
    #[arg(long, default_value = "experiments/learners_powered.toml", value_name = "FILE")]
    design: InFile,
    /// The pilot the design's power is computed from.
    #[arg(long, default_value = "experiments/learners_pilot.csv", value_name = "FILE")]
    pilot: InFile,
    /// Section 7 under equal tuning budgets instead (--tuned-design): writes
    /// reports/learners_tuned.json, reports/LEARNERS_TUNED.md and reports/learners_tuned/.
    #[arg(long, conflicts_with_all = ["ship", "power", "from_draws"])]
    tuned: bool,
    /// The declared tuned design (grids, folds, draws, primaries, margin, α).
    #[arg(long, default_value = "experiments/learners_tuned.toml", value_name = "FILE")]
    tuned_design: InFile,
    /// Instead of the comparison, write the smallest exact decision-tree model (format version 3)
    /// to FILE [default: models/kpk.hybrid], after checking it on every legal position.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = kpk::hybrid::DEFAULT_MODEL)]
    ship: Option<OutFile>,
}

/// `kpk learners --ship`: the trees' exact models, smallest first, and the smallest written.
fn run_ship(path: &std::path::Path) -> anyhow::Result<ExitCode> {
    let out = kpk::output::FileOut::check(path)?;
    let started = Instant::now();
    let bb = Bitbase::generate();
    let (bytes, candidates) = kpk::learners::ship::ship(&bb)?;
    // With the model on standard output, the table goes to standard error.
    let mut table: Box<dyn std::io::Write> =
        if out.is_stream() { Box::new(std::io::stderr()) } else { Box::new(super::stdout()) };
    writeln!(table, "{:<48}{:>10}{:>12}{:>8}", "tree (T3, x1..x32)", "tree bits", "exceptions", "bytes")?;
    for c in &candidates {
        writeln!(
            table,
            "{:<48}{:>10}{:>12}{:>8}",
            c.setting,
            c.tree_bits,
            c.hybrid.exceptions().len(),
            c.bytes
        )?;
    }
    out.write(&bytes)?;
    let best = &candidates[0];
    writeln!(
        table,
        "wrote {} ({} bytes, format version 3: {}, {} exceptions; exact on all 165,676 legal positions)",
        out.display(),
        bytes.len(),
        best.setting,
        best.hybrid.exceptions().len()
    )?;
    table.flush()?;
    let speed = super::bench::measure_query_speed(&best.hybrid, &bytes);
    errln!(
        "query speed on this machine: {:.0} ns per position, from FEN {:.0} ns, load {:.1} µs; took {:.0} s",
        speed.per_query_ns,
        speed.fen_ns,
        speed.load_us,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// The commit checked out (`git rev-parse HEAD`), `+dirty` if the work tree differs from it.
fn run_from() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git").args(args).output().ok().filter(|o| o.status.success())
    };
    let Some(head) = git(&["rev-parse", "HEAD"]) else { return "uncommitted".to_string() };
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
        .is_none_or(|o| !o.stdout.trim_ascii().is_empty());
    format!("{}{}", String::from_utf8_lossy(head.stdout.trim_ascii()), if dirty { "+dirty" } else { "" })
}

/// `kpk learners --tuned`: section 7 under equal tuning budgets.
fn run_tuned(args: LearnersArgs, mode: Mode) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let progress = |what: &str| errln!("[{:>6.0} s] {what}", started.elapsed().as_secs_f64());
    let out: &std::path::Path = &args.out;
    let report = TunedLearners {
        json: out.join("learners_tuned.json"),
        markdown: out.join("LEARNERS_TUNED.md"),
        folder: out.join("learners_tuned"),
        declared_in: declared_in(&args.tuned_design),
        design: args.tuned_design.into(),
        table5: args.configs.into(),
        run_from: if mode == Mode::Run { run_from() } else { String::new() },
        progress: &progress,
    };
    drive(&report, mode)?;
    errln!("wrote {} in {:.0} s", report.markdown.display(), started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// The commit that last changed the declaration at `path` (git's answer), or why there is none.
pub(super) fn declared_in(path: &std::path::Path) -> String {
    let out = std::process::Command::new("git").args(["log", "-1", "--format=%H", "--"]).arg(path).output();
    match out {
        Ok(o) if o.status.success() && !o.stdout.trim_ascii().is_empty() => {
            String::from_utf8_lossy(o.stdout.trim_ascii()).into_owned()
        }
        _ => "uncommitted".to_string(),
    }
}

pub fn run_learners(args: LearnersArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.ship {
        return run_ship(path);
    }
    if args.power {
        let design = Design::load(&args.design)?;
        let power = power::of(&design, &Pilot::load(&args.pilot)?)?;
        outln!("{}", power::table(&design, &power).trim_end())?;
        power.check(&design)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mode = match (args.render_only, args.analyse_only) {
        (true, _) => Mode::RenderOnly,
        (_, true) => Mode::AnalyseOnly,
        _ => Mode::Run,
    };
    if args.tuned {
        return run_tuned(args, mode);
    }
    let settings = if mode == Mode::Run {
        // The command runs only the declared design, and only if its power is what it declares.
        let design = Design::load(&args.design)?;
        power::of(&design, &Pilot::load(&args.pilot)?)?.check(&design)?;
        Some(Settings {
            replicates: usize::from(args.replicates),
            t3_epochs: args.t3_epochs as usize,
            variants: !args.no_variants,
            table5: args.configs.into(),
            shipped_model: args.model.into(),
            declared_in: declared_in(&args.design),
            design,
            pilot: args.pilot.to_path_buf(),
            compress: args.compress.into(),
        })
    } else {
        None
    };
    let started = Instant::now();
    let progress = |what: &str| errln!("[{:>6.0} s] {what}", started.elapsed().as_secs_f64());
    let report = Learners {
        to: Destinations::under(&args.out),
        design: args.design.into(),
        pilot: args.pilot.into(),
        settings,
        from_draws: args.from_draws,
        progress: &progress,
        fitted: RefCell::new(Vec::new()),
    };
    // Every destination is checked before minutes of fitting, apart from every input.
    drive(&report, mode)?;
    let to = &report.to;
    match mode {
        Mode::RenderOnly => errln!("rendered {} from {}", to.markdown.display(), to.json.display()),
        Mode::AnalyseOnly => {
            errln!("analysed {} again and rendered {}", to.json.display(), to.markdown.display())
        }
        Mode::Run => {}
    }
    if mode != Mode::Run {
        return Ok(ExitCode::SUCCESS);
    }
    // Wall time is machine-dependent: printed here, never written to the report.
    outln!("learner        inputs    set  replicates  seconds per fit (mean)")?;
    for r in report.fitted.borrow().iter() {
        let mean = r.fits.iter().map(|f| f.seconds).sum::<f64>() / r.fits.len().max(1) as f64;
        let name =
            if r.variant.is_empty() { r.learner.clone() } else { format!("{} ({})", r.learner, r.variant) };
        outln!("{name:<28} {:<9} {:<4} {:>3}  {mean:>9.3}", r.inputs.name(), r.train_set, r.fits.len())?;
    }
    outln!(
        "wrote {}, {} and {}/ in {:.0} s",
        to.json.display(),
        to.markdown.display(),
        to.folder.display(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

//! `kpk learners`: section 7's comparison of six learners on Table 4's characterisation; writes
//! reports/learners.json, reports/LEARNERS.md and reports/learners/.

use clap::Args;
use kpk::chess::bitbase::Bitbase;
use kpk::learners::analyse::{self, Settings};
use kpk::learners::render::{self, Destinations};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct LearnersArgs {
    /// Where learners.json, LEARNERS.md and learners/ are written.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    out: PathBuf,
    /// The folder of Table 5's trial configs (the MLP's settings).
    #[arg(long, default_value = "experiments/table5", value_name = "DIR")]
    configs: PathBuf,
    /// The shipped hybrid model, whose size the exact models are compared with.
    #[arg(long, default_value = "models/kpk.hybrid", value_name = "FILE")]
    model: PathBuf,
    /// Replicates per learner and training set (the committed report: 5).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(1..=50))]
    replicates: u16,
    /// The MLP's epoch cap on T3 (the committed report: 100).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    t3_epochs: u32,
    /// Leave out the frontier's variants on T3 (a reduced run).
    #[arg(long)]
    no_variants: bool,
    /// Fit nothing: render LEARNERS.md, the CSVs and the figure from the committed learners.json.
    #[arg(long)]
    render_only: bool,
}

pub fn run_learners(args: LearnersArgs) -> anyhow::Result<ExitCode> {
    let to = Destinations::under(&args.out);
    if args.render_only {
        render::render_only(&to)?;
        errln!("rendered {} from {}", to.markdown.display(), to.json.display());
        return Ok(ExitCode::SUCCESS);
    }
    let settings = Settings {
        replicates: usize::from(args.replicates),
        t3_epochs: args.t3_epochs as usize,
        variants: !args.no_variants,
        table5: args.configs,
        shipped_model: args.model,
    };
    settings.check()?;
    let started = Instant::now();
    let bb = Bitbase::generate();
    let progress = |what: &str| errln!("[{:>6.0} s] {what}", started.elapsed().as_secs_f64());
    let report = analyse::analyse(&settings, &bb, &progress)?;
    render::write(&report, &to)?;
    // Wall time is machine-dependent: printed here, never written to the report.
    outln!("learner        inputs    set  replicates  seconds per fit (mean)")?;
    for r in report.rows.iter().chain(&report.variants) {
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

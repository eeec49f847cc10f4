//! `kpk findings`: reports/README.md, the project's main findings picked from the reports'
//! summaries (`report::index`). It reads the rendered reports and computes nothing.

use super::paths::{InFile, OutDir};
use clap::Args;
use kpk::hybrid::{Hybrid, Learner};
use std::process::ExitCode;

#[derive(Args)]
pub struct FindingsArgs {
    /// The folder of the rendered reports; README.md is written there.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    reports: OutDir,
    /// The shipped exact model (`kpk learners --ship`), whose size the findings give.
    #[arg(long, default_value = "models/kpk.hybrid", value_name = "FILE")]
    model: InFile,
}

pub fn run_findings(args: FindingsArgs) -> anyhow::Result<ExitCode> {
    let to = args.reports.join("README.md");
    let out = kpk::output::FileOut::check(&to)?;
    kpk::output::check_all(&[&out], &[&args.model])?;
    // The findings say what the model is: so it is read, not merely measured.
    let (model, bytes) = Hybrid::load_sized(&args.model)?;
    if !matches!(model.learner(), Learner::Tree(_)) {
        anyhow::bail!(
            "{}: holds a net, and the findings describe the shipped decision tree (`kpk learners --ship`)",
            args.model.display()
        );
    }
    if !model.disagreements(&kpk::Bitbase::generate()).is_empty() {
        anyhow::bail!("{}: is not exact: it disagrees with the bitbase", args.model.display());
    }
    let readme = kpk::report::index::render(&args.reports, &args.model.display().to_string(), bytes)?;
    out.write(readme.as_bytes())?;
    errln!("wrote {}", to.display());
    Ok(ExitCode::SUCCESS)
}

//! `kpk findings`: reports/README.md, the project's main findings picked from the reports'
//! summaries (`report::index`). It reads the rendered reports and computes nothing.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct FindingsArgs {
    /// The folder of the rendered reports; README.md is written there.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    reports: PathBuf,
    /// The shipped exact model, whose size the findings give.
    #[arg(long, default_value = "models/kpk.hybrid", value_name = "FILE")]
    model: PathBuf,
}

pub fn run_findings(args: FindingsArgs) -> anyhow::Result<ExitCode> {
    let model =
        std::fs::metadata(&args.model).map_err(|e| anyhow::anyhow!("{}: {e}", args.model.display()))?;
    let readme = kpk::report::index::render(&args.reports, model.len())?;
    let to = args.reports.join("README.md");
    kpk::output::write_file(&to, readme.as_bytes())?;
    errln!("wrote {}", to.display());
    Ok(ExitCode::SUCCESS)
}

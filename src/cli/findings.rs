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
}

pub fn run_findings(args: FindingsArgs) -> anyhow::Result<ExitCode> {
    let readme = kpk::report::index::render(&args.reports)?;
    let to = args.reports.join("README.md");
    kpk::output::write_file(&to, readme.as_bytes())?;
    errln!("wrote {}", to.display());
    Ok(ExitCode::SUCCESS)
}

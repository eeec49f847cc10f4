//! `kpk krk-learners`: section 7's learners on the UCI KRK set under the declared design; writes
//! reports/krk_learners.json, reports/KRK.md and reports/krk/.

use super::paths::{InFile, OutDir};
use clap::Args;
use kpk::analysis::Mode;
use kpk::analysis::krk_learners::{Destinations, Inputs, KrkLearners};
use kpk::report::driver::drive;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct KrkLearnersArgs {
    /// Where krk_learners.json, KRK.md and krk/ are written.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    out: OutDir,
    /// The declared design (sizes, draws, learners' settings, primaries, margin, α, power).
    #[arg(long, default_value = "experiments/krk_learners.toml", value_name = "FILE")]
    design: InFile,
    /// The published figures shown beside kpk's curves.
    #[arg(long, default_value = "data/published/krk.csv", value_name = "FILE")]
    published: InFile,
    /// The exact KRK model's size figures (`kpk compress-krk` writes them), shown in the report.
    #[arg(long, default_value = "reports/krk_model.json", value_name = "FILE")]
    model_results: InFile,
    /// Run the declaration's reduced design (fewer sizes and draws, a smaller budget for the
    /// nets): a test's run, whose numbers are no result.
    #[arg(long, conflicts_with = "render_only")]
    reduced: bool,
    /// Fit nothing: render KRK.md, curves.csv and the figure from the committed krk_learners.json.
    #[arg(long)]
    render_only: bool,
    /// Fit nothing: analyse the fits kept in krk_learners.json again, with the published figures
    /// read anew from `--published`, then write the JSON and render.
    #[arg(long, conflicts_with_all = ["render_only", "reduced"])]
    analyse_only: bool,
}

pub fn run_krk_learners(args: KrkLearnersArgs) -> anyhow::Result<ExitCode> {
    let mode = match (args.render_only, args.analyse_only) {
        (true, _) => Mode::RenderOnly,
        (_, true) => Mode::AnalyseOnly,
        _ => Mode::Run,
    };
    let inputs = (mode != Mode::RenderOnly).then(|| Inputs {
        declared_in: super::learners::declared_in(&args.design),
        design: args.design.to_path_buf(),
        published: args.published.to_path_buf(),
        reduced: args.reduced,
    });
    let started = Instant::now();
    let progress = |what: &str| errln!("[{:>6.0} s] {what}", started.elapsed().as_secs_f64());
    let report = KrkLearners {
        to: Destinations::under(&args.out),
        inputs,
        model_results: args.model_results.to_path_buf(),
        progress: &progress,
    };
    drive(&report, mode)?;
    let to = &report.to;
    outln!(
        "wrote {}, {} and {}/ in {:.0} s",
        to.json.display(),
        to.markdown.display(),
        to.folder.display(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

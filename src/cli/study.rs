//! `kpk study`: run study configs (section 6's questions) and write their reports.

use super::paths::{InDir, InFile, OutDir, OutFile};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kpk::analysis::Mode;
use kpk::analysis::studies::{Destinations, Studies, StudyProgress, folder, write_run};
use kpk::chess::bitbase::Bitbase;
use kpk::report::driver::drive;
use kpk::report::studies::{self, studies_md};
use kpk::study::{self, config::Study};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

#[derive(Args)]
pub struct StudyArgs {
    /// Study configs (TOML), e.g. experiments/studies/e1_vs_e2.toml.
    #[arg(value_name = "CONFIG", required_unless_present_any = ["all", "render_only"], conflicts_with = "all")]
    configs: Vec<InFile>,
    /// Run every study in --configs and write STUDIES.md.
    #[arg(long)]
    all: bool,
    /// The folder of study configs for --all.
    #[arg(long, default_value = "experiments/studies", value_name = "DIR")]
    studies: InDir,
    /// Where studies/<name>/ (and, with --all, STUDIES.md) are written.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    out: OutDir,
    /// Replicates per setting instead of the config's (a reduced run, e.g. for CI; committed
    /// reports use the config's count, at least 5).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=study::config::MAX_REPLICATES as i64))]
    replicates: Option<u16>,
    /// The studies' results (JSON): written by --all, read by --render-only [default:
    /// studies.json in --out].
    #[arg(long, value_name = "FILE")]
    results: Option<OutFile>,
    /// Redraw STUDIES.md and every study's figure from --results alone: no training.
    #[arg(long, conflicts_with_all = ["configs", "all"])]
    render_only: bool,
    /// Threads (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

/// Load and check every study (and its report section) before anything runs.
fn load(args: &StudyArgs) -> anyhow::Result<Vec<Study>> {
    let paths = if args.all {
        study::config::configs_in(&args.studies)?
    } else {
        args.configs.iter().map(|c| c.to_path_buf()).collect()
    };
    let studies = study::config::load_all(&paths, args.replicates.map(usize::from))?;
    for (s, path) in studies.iter().zip(&paths) {
        studies::check_name(&s.config.name).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    Ok(studies)
}

fn bar_for(study: &Study) -> ProgressBar {
    let bar =
        ProgressBar::with_draw_target(Some(study.trials.len() as u64), ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(
        ProgressStyle::with_template("{prefix:>20} [{bar:30}] {pos}/{len} trials  {elapsed} (eta {eta})")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix(study.config.name.clone());
    bar
}

fn results_path(args: &StudyArgs) -> PathBuf {
    args.results.as_ref().map_or_else(|| args.out.join("studies.json"), |r| r.to_path_buf())
}

pub fn run_study(args: StudyArgs) -> anyhow::Result<ExitCode> {
    if let Some(jobs) = args.jobs {
        // The first call sets the pool; a failure only means it was set already.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(usize::from(jobs)).build_global();
    }
    let studies = if args.render_only { Vec::new() } else { load(&args)? };
    let started = Instant::now();
    let bar: Mutex<Option<ProgressBar>> = Mutex::new(None);
    let lines: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let progress = |event: StudyProgress| match event {
        StudyProgress::Started(study) => *bar.lock().expect("bar lock") = Some(bar_for(study)),
        StudyProgress::Trial => {
            if let Some(b) = bar.lock().expect("bar lock").as_ref() {
                b.inc(1);
            }
        }
        StudyProgress::Finished(study, seconds) => {
            if let Some(b) = bar.lock().expect("bar lock").take() {
                b.finish_and_clear();
            }
            errln!(
                "{}: {} settings x {} replicates in {seconds:.0} s",
                study.config.name,
                study.config.settings.len(),
                study.replicates()
            );
            lines
                .lock()
                .expect("lines lock")
                .push(folder(&args.out, &study.config.name).display().to_string());
        }
    };
    let report = Studies {
        out: args.out.to_path_buf(),
        results: results_path(&args),
        studies,
        progress: &progress,
        order: studies::order,
    };
    if args.render_only || args.all {
        let mode = if args.render_only { Mode::RenderOnly } else { Mode::Run };
        drive(&report, mode)?;
    } else {
        run_each(&report)?;
    }
    let studies_run = report.studies.len();
    drop(report);
    for folder in lines.into_inner().expect("lines lock") {
        outln!("wrote {folder}")?;
    }
    if args.render_only || args.all {
        outln!("wrote {}", studies_md(&args.out).display())?;
    }
    if !args.render_only {
        errln!("{studies_run} studies in {:.0} s", started.elapsed().as_secs_f64());
    }
    Ok(ExitCode::SUCCESS)
}

/// Studies given one by one: each study's folder, without STUDIES.md (whose family is every
/// study's), every destination checked before the first trial.
fn run_each(report: &Studies) -> anyhow::Result<()> {
    let dests = report
        .studies
        .iter()
        .map(|s| Destinations::check(&report.out, &s.config.name))
        .collect::<kpk::Result<Vec<_>>>()?;
    let bb = Bitbase::generate();
    for (study, dest) in report.studies.iter().zip(&dests) {
        let t = Instant::now();
        (report.progress)(StudyProgress::Started(study));
        let run = study::run::run_study(study, &bb, &|_| (report.progress)(StudyProgress::Trial))?;
        let result = kpk::study::results::analyse(&run);
        write_run(&run, dest)?;
        studies::draw(&result, dest)?;
        (report.progress)(StudyProgress::Finished(study, t.elapsed().as_secs_f64()));
    }
    Ok(())
}

//! `kpk study`: run study configs (section 6's questions) and write their reports.

use anyhow::bail;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kpk::chess::bitbase::Bitbase;
use kpk::output::FileOut;
use kpk::report::studies::{self, Destinations};
use kpk::study::{self, Study, StudyConfig, StudyRun};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct StudyArgs {
    /// Study configs (TOML), e.g. experiments/studies/e1_vs_e2.toml.
    #[arg(value_name = "CONFIG", required_unless_present = "all", conflicts_with = "all")]
    configs: Vec<PathBuf>,
    /// Run every study in --configs and write STUDIES.md.
    #[arg(long)]
    all: bool,
    /// The folder of study configs for --all.
    #[arg(long, default_value = "experiments/studies", value_name = "DIR")]
    studies: PathBuf,
    /// Where studies/<name>/ (and, with --all, STUDIES.md) are written.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    out: PathBuf,
    /// Replicates per setting instead of the config's (a reduced run, e.g. for CI; committed
    /// reports use the config's count, at least 5).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=study::MAX_REPLICATES as i64))]
    replicates: Option<u16>,
    /// Threads (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

fn config_paths(args: &StudyArgs) -> anyhow::Result<Vec<PathBuf>> {
    if !args.all {
        return Ok(args.configs.clone());
    }
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&args.studies)
        .map_err(|e| anyhow::anyhow!("{}: cannot list the study configs: {e}", args.studies.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        bail!("{}: no *.toml study configs", args.studies.display());
    }
    Ok(paths)
}

/// Load and check every study (and its report section) before anything runs.
fn load(paths: &[PathBuf], replicates: Option<usize>) -> anyhow::Result<Vec<Study>> {
    let mut out: Vec<Study> = Vec::new();
    for path in paths {
        let s = StudyConfig::load(path, replicates)?;
        studies::prose(&s.config.name).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        if s.config.replicates < study::MIN_REPLICATES {
            bail!(
                "{}: key `replicates`: {} is below {}",
                path.display(),
                s.config.replicates,
                study::MIN_REPLICATES
            );
        }
        if out.iter().any(|o| o.config.name == s.config.name) {
            bail!("{}: key `name`: '{}' is used by another study", path.display(), s.config.name);
        }
        out.push(s);
    }
    Ok(out)
}

fn run_one(study: &Study, bb: &Bitbase) -> anyhow::Result<StudyRun> {
    let bar =
        ProgressBar::with_draw_target(Some(study.trials.len() as u64), ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(
        ProgressStyle::with_template("{prefix:>20} [{bar:30}] {pos}/{len} trials  {elapsed} (eta {eta})")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix(study.config.name.clone());
    let run = study::run_study(study, bb, &|_| bar.inc(1))?;
    bar.finish_and_clear();
    Ok(run)
}

pub fn run_study(args: StudyArgs) -> anyhow::Result<ExitCode> {
    let paths = config_paths(&args)?;
    let studies = load(&paths, args.replicates.map(usize::from))?;
    let dests = studies
        .iter()
        .map(|s| Destinations::check(&args.out, &s.config.name))
        .collect::<kpk::Result<Vec<_>>>()?;
    let report_path = args.out.join("STUDIES.md");
    let report = if args.all { Some(FileOut::check(&report_path)?) } else { None };
    if let Some(jobs) = args.jobs {
        // The first call sets the pool; a failure only means it was set already.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(usize::from(jobs)).build_global();
    }
    let bb = Bitbase::generate();
    let started = Instant::now();
    let mut runs = Vec::with_capacity(studies.len());
    for (study, dest) in studies.iter().zip(&dests) {
        let t = Instant::now();
        let run = run_one(study, &bb)?;
        studies::write_study(&run, dest)?;
        errln!(
            "{}: {} settings x {} replicates in {:.0} s",
            study.config.name,
            study.config.settings.len(),
            study.replicates(),
            t.elapsed().as_secs_f64()
        );
        outln!("wrote {}", studies::folder(&args.out, &study.config.name).display())?;
        runs.push(run);
    }
    if let Some(report) = report {
        report.write(studies::render(&runs)?.as_bytes())?;
        outln!("wrote {}", Path::new(&report.display()).display())?;
    }
    errln!("{} studies in {:.0} s", runs.len(), started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

//! `kpk study`: run study configs (section 6's questions) and write their reports.

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kpk::chess::bitbase::Bitbase;
use kpk::output::FileOut;
use kpk::report::studies::{self, Destinations};
use kpk::study::results::StudiesResults;
use kpk::study::{self, Study, StudyRun};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct StudyArgs {
    /// Study configs (TOML), e.g. experiments/studies/e1_vs_e2.toml.
    #[arg(value_name = "CONFIG", required_unless_present_any = ["all", "render_only"], conflicts_with = "all")]
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
    /// The studies' results (JSON): written by --all, read by --render-only [default:
    /// studies.json in --out].
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Redraw STUDIES.md and every study's figure from --results alone: no training.
    #[arg(long, conflicts_with_all = ["configs", "all"])]
    render_only: bool,
    /// Threads (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

/// Load and check every study (and its report section) before anything runs.
fn load(args: &StudyArgs) -> anyhow::Result<Vec<Study>> {
    let paths = if args.all { study::configs_in(&args.studies)? } else { args.configs.clone() };
    let studies = study::load_all(&paths, args.replicates.map(usize::from))?;
    for (s, path) in studies.iter().zip(&paths) {
        studies::check_name(&s.config.name).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    Ok(studies)
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

fn results_path(args: &StudyArgs) -> PathBuf {
    args.results.clone().unwrap_or_else(|| args.out.join("studies.json"))
}

/// `--render-only`: STUDIES.md and every study's figure from the committed results alone.
fn render_only(args: &StudyArgs) -> anyhow::Result<ExitCode> {
    let results: StudiesResults = kpk::template::read_results(&results_path(args))?;
    let dests = results
        .studies
        .iter()
        .map(|s| Destinations::check(&args.out, &s.name))
        .collect::<kpk::Result<Vec<_>>>()?;
    let report = FileOut::check(&args.out.join("STUDIES.md"))?;
    let text = studies::render(&results)?;
    for (s, dest) in results.studies.iter().zip(&dests) {
        studies::draw(s, dest)?;
        dest.contrasts.write(studies::contrasts_csv(s).as_bytes())?;
    }
    report.write(text.as_bytes())?;
    outln!("wrote {}", report.display())?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_study(args: StudyArgs) -> anyhow::Result<ExitCode> {
    if args.render_only {
        return render_only(&args);
    }
    let studies = load(&args)?;
    let dests = studies
        .iter()
        .map(|s| Destinations::check(&args.out, &s.config.name))
        .collect::<kpk::Result<Vec<_>>>()?;
    let outputs = if args.all {
        Some((FileOut::check(&args.out.join("STUDIES.md"))?, FileOut::check(&results_path(&args))?))
    } else {
        None
    };
    if let Some(jobs) = args.jobs {
        // The first call sets the pool; a failure only means it was set already.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(usize::from(jobs)).build_global();
    }
    let bb = Bitbase::generate();
    let started = Instant::now();
    let mut results = Vec::with_capacity(studies.len());
    for (study, dest) in studies.iter().zip(&dests) {
        let t = Instant::now();
        let run = run_one(study, &bb)?;
        let result = kpk::study::results::analyse(&run);
        studies::write_study(&run, &result, dest)?;
        errln!(
            "{}: {} settings x {} replicates in {:.0} s",
            study.config.name,
            study.config.settings.len(),
            study.replicates(),
            t.elapsed().as_secs_f64()
        );
        outln!("wrote {}", studies::folder(&args.out, &study.config.name).display())?;
        results.push(result);
    }
    if let Some((report, json)) = outputs {
        let results = studies::collect(results);
        // `collect` puts the studies in STUDIES.md's order: each finds its own folder.
        for s in &results.studies {
            Destinations::check(&args.out, &s.name)?.contrasts.write(studies::contrasts_csv(s).as_bytes())?;
        }
        json.write(kpk::template::results_json(&results)?.as_bytes())?;
        report.write(studies::render(&results)?.as_bytes())?;
        outln!("wrote {}", Path::new(&report.display()).display())?;
    }
    errln!("{} studies in {:.0} s", studies.len(), started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

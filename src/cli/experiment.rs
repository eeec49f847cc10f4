//! `kpk run`, `kpk reproduce`, `kpk export` and `kpk plot`.

use super::paths::{InDir, InFile, OutDir, OutFile, OwnDir};
use anyhow::bail;
use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use kpk::analysis::Mode;
use kpk::analysis::reproduction::pipeline::Reproduce;
use kpk::chess::bitbase::Bitbase;
use kpk::experiment::pipeline::{default_jobs, load_configs};
use kpk::experiment::replicate::Replicates;
use kpk::experiment::{self, config::Trial, run::TrialRun, schedule::Progress};
use kpk::figures::plot::ImageFormat;
use kpk::output::{FileOut, RunFolder};
use kpk::report::driver::drive;
use kpk::report::reproduction;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

fn jobs(asked: Option<u16>) -> usize {
    asked.map_or_else(default_jobs, usize::from)
}

#[derive(Args)]
pub struct RunArgs {
    /// Trial configs (TOML); see experiments/table5/ for the 41 trials of the paper's Table 5.
    #[arg(required = true, value_name = "CONFIG")]
    configs: Vec<InFile>,
    /// Where each trial's folder <name>/ is written.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    out: OutDir,
    /// Trials trained at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

#[derive(Args)]
pub struct ReproduceArgs {
    /// The folder of Table 5's trial configs.
    #[arg(long, default_value = "experiments/table5", value_name = "DIR")]
    configs: InDir,
    /// Where the trial folders, the figures and REPRODUCTION.md are written.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    out: OutDir,
    /// Trials trained at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Do not train: redraw the figures and REPRODUCTION.md from reproduction.json in --out.
    #[arg(long, conflicts_with = "analyse_only")]
    render_only: bool,
    /// Do not train: analyse the runs already in --out (the trial folders, table5.csv,
    /// section51.json, what `kpk readings` wrote), then write reproduction.json and the report.
    #[arg(long)]
    analyse_only: bool,
    /// Weight seeds per draw of the small sets (replicates for Table 5's intervals).
    #[arg(long, default_value_t = 10, value_name = "R", value_parser = super::count_parser())]
    seeds: usize,
    /// Draws of the small sets T1/S1 and T2/S2.
    #[arg(long, default_value_t = 5, value_name = "D", value_parser = super::count_parser())]
    draws: usize,
    /// Weight seeds of the whole-set trials 38-41 (each run costs as much as a thousand small-set
    /// runs; 10 still keeps the whole reproduction within 10 minutes on 2 cores).
    #[arg(long, default_value_t = 10, value_name = "R", value_parser = super::count_parser())]
    whole_set_seeds: usize,
}

#[derive(Args)]
pub struct ExportArgs {
    /// A trained net: a trial's weights.json, or its report folder.
    #[arg(value_name = "NET")]
    net: InFile,
    /// The folder to write weights.json, weights.safetensors and npy/layer{k}.{weight,bias}.npy into.
    #[arg(long, value_name = "DIR")]
    out: OwnDir,
}

#[derive(Args)]
pub struct PlotArgs {
    /// A trial's metrics.csv (one row per epoch).
    #[arg(value_name = "METRICS.csv")]
    metrics: InFile,
    /// The chart to write, PNG for `.png` and SVG for `.svg` (default: accuracy.png beside the CSV).
    #[arg(long, value_name = "FILE.png|FILE.svg")]
    out: Option<OutFile>,
    /// The chart's title (default: the folder's name).
    #[arg(long)]
    title: Option<String>,
}

fn one_line(run: &TrialRun) -> String {
    let s = &run.summary;
    let test = s.test_accuracy_pct.map_or_else(String::new, |t| format!(", test {t:.1}%"));
    format!(
        "{:<10} {} epochs (kept {}, {}), train {:.2}%{test}, {:.1} s",
        s.name, s.epochs, s.best_epoch, s.stop_reason, s.train_accuracy_pct, run.wall_seconds
    )
}

/// Train `trials` with one progress bar per running trial, writing their folders under `out`.
fn train_with_progress(
    trials: &[Trial],
    folders: &[RunFolder],
    jobs: usize,
) -> anyhow::Result<Vec<TrialRun>> {
    let bb = Bitbase::generate();
    let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr_with_hz(4));
    let style =
        ProgressStyle::with_template("{prefix:>8} [{bar:24}] {pos:>5}/{len} epochs  {msg}  {elapsed}")
            .expect("valid template")
            .progress_chars("=> ");
    let bars: Vec<Mutex<Option<ProgressBar>>> = trials.iter().map(|_| Mutex::new(None)).collect();
    let overall = multi.add(ProgressBar::new(trials.len() as u64));
    overall.set_style(
        ProgressStyle::with_template("{prefix:>8} {pos}/{len} trials done  {elapsed}").expect("valid"),
    );
    overall.set_prefix("all");
    let progress = |event: Progress| match event {
        Progress::Started(i) => {
            let bar = multi.insert_before(&overall, ProgressBar::new(trials[i].config.max_epochs as u64));
            bar.set_style(style.clone());
            bar.set_prefix(trials[i].name().to_string());
            *bars[i].lock().expect("bar lock") = Some(bar);
        }
        Progress::Epoch(i, m) => {
            if let Some(bar) = bars[i].lock().expect("bar lock").as_ref() {
                bar.set_position(m.epoch as u64);
                let test = m.test_accuracy_pct.map_or_else(String::new, |t| format!(" test {t:.1}%"));
                // For two outputs with a margin, the plain (m = 0) reading first, then the margin's.
                let train = match m.train_accuracy_m0_pct {
                    Some(a) if a != m.train_accuracy_pct => {
                        format!("{a:.2}% (margin {:.2}%)", m.train_accuracy_pct)
                    }
                    _ => format!("{:.2}%", m.train_accuracy_pct),
                };
                bar.set_message(format!("train {train}{test}  E1 {:.4} E2 {:.4}", m.e1, m.e2));
            }
        }
        Progress::Finished(i, run) => {
            if let Some(bar) = bars[i].lock().expect("bar lock").take() {
                bar.finish_and_clear();
                multi.remove(&bar);
            }
            overall.inc(1);
            if multi.is_hidden() {
                errln!("{}", one_line(run));
            } else {
                let _ = multi.println(one_line(run));
            }
        }
    };
    let runs = experiment::schedule::run_trials(trials, folders, &bb, jobs, &progress);
    overall.finish_and_clear();
    Ok(runs?)
}

pub fn run_run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let trials = load_configs(&args.configs.iter().map(|c| c.to_path_buf()).collect::<Vec<_>>())?;
    let folders = experiment::folder::check_destinations(&trials, &args.out)?;
    let jobs = jobs(args.jobs);
    let runs = train_with_progress(&trials, &folders, jobs)?;
    for run in &runs {
        outln!("wrote {}", args.out.join(run.trial.name()).display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Seconds between the progress lines printed where standard error is no terminal.
const HEARTBEAT_SECONDS: u64 = 30;

/// Where standard error is no terminal (a log, a pipe): a progress line every
/// [`HEARTBEAT_SECONDS`] until `finished`, so that long first runs do not leave the log silent.
fn heartbeat(finished: &AtomicBool, counts: &[AtomicUsize; 2], started: Instant) {
    let mut waited = 0;
    while !finished.load(Ordering::Relaxed) {
        std::thread::sleep(std::time::Duration::from_secs(1));
        waited += 1;
        if waited % HEARTBEAT_SECONDS == 0 && !finished.load(Ordering::Relaxed) {
            let (done, total) = (counts[0].load(Ordering::Relaxed), counts[1].load(Ordering::Relaxed));
            errln!("[{:>6.0} s] {done}/{total} runs", started.elapsed().as_secs_f64());
        }
    }
}

pub fn run_reproduce(args: ReproduceArgs) -> anyhow::Result<ExitCode> {
    let mode = match (args.render_only, args.analyse_only) {
        (true, _) => Mode::RenderOnly,
        (_, true) => Mode::AnalyseOnly,
        _ => Mode::Run,
    };
    let started = Instant::now();
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(
        ProgressStyle::with_template("{pos}/{len} runs [{bar:30}] {elapsed} (eta {eta})")
            .expect("valid template")
            .progress_chars("=> "),
    );
    // On a terminal a bar; elsewhere (a log, a pipe) one line per tenth of the runs.
    let terminal = std::io::stderr().is_terminal();
    let tenths = std::sync::atomic::AtomicUsize::new(0);
    let counts = [AtomicUsize::new(0), AtomicUsize::new(0)];
    let progress = |done: usize, total: usize| {
        counts[0].store(done, Ordering::Relaxed);
        counts[1].store(total, Ordering::Relaxed);
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        let tenth = done * 10 / total.max(1) + 1;
        if !terminal && tenths.fetch_max(tenth, std::sync::atomic::Ordering::Relaxed) < tenth {
            errln!("[{:>6.0} s] {done}/{total} runs", started.elapsed().as_secs_f64());
        }
    };
    let report = Reproduce {
        configs: args.configs.into(),
        out: args.out.into(),
        replicates: Replicates {
            seeds: args.seeds,
            draws: args.draws,
            whole_set_seeds: args.whole_set_seeds,
        },
        jobs: jobs(args.jobs),
        progress: &progress,
        ran: Default::default(),
    };
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if !terminal && mode == Mode::Run {
            scope.spawn(|| heartbeat(&finished, &counts, started));
        }
        let driven = drive(&report, mode);
        finished.store(true, Ordering::Relaxed);
        driven
    })?;
    bar.finish_and_clear();
    let written = report.out.join(reproduction::REPRODUCTION_MD);
    if mode != Mode::Run {
        outln!("wrote {}", written.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    let (trials, runs) = report.ran.get();
    let wall = started.elapsed().as_secs_f64();
    outln!(
        "{trials} trials, {runs} runs in {wall:.0} s on {} threads; wrote {}",
        report.jobs,
        written.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_export(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let path = if args.net.is_dir() {
        args.net.join(experiment::rows::WEIGHTS_JSON)
    } else {
        args.net.to_path_buf()
    };
    let written = experiment::folder::export_net(&path, &args.out)?;
    for p in written {
        outln!("wrote {}", p.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run_plot(args: PlotArgs) -> anyhow::Result<ExitCode> {
    let folder = args.metrics.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let path = args.out.map_or_else(|| folder.join(experiment::folder::ACCURACY_PNG), PathBuf::from);
    if path.as_os_str() == "-" {
        bail!("--out -: a chart is written to a .png or .svg file, not to standard output");
    }
    let format = ImageFormat::of(&path)?;
    let out = FileOut::check(&path)?;
    let (config_path, summary_path) =
        (folder.join(experiment::folder::CONFIG_TOML), folder.join(experiment::folder::SUMMARY_JSON));
    kpk::output::check_all(&[&out], &[&args.metrics, &config_path, &summary_path])?;
    let rows = experiment::rows::read_metrics(&args.metrics)?;
    experiment::rows::check_finite(&args.metrics, &rows)?;
    let title = args.title.unwrap_or_else(|| {
        let name = std::fs::canonicalize(folder)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
        name.unwrap_or_else(|| "training".into())
    });
    // A trial folder's config and summary, where present beside the metrics, add the margin, the
    // error target and the kept epoch to the chart.
    let config = experiment::config::TrialConfig::load(&config_path).ok();
    let summary: Option<experiment::rows::Summary> =
        kpk::io::read(&summary_path).ok().and_then(|b| serde_json::from_slice(&b).ok());
    let marks = config
        .map_or_else(Default::default, |t| experiment::chart::ChartMarks::of(&t.config, summary.as_ref()));
    experiment::chart::accuracy_chart(&title, &rows, &marks).save_to(&out, format, (900, 520))?;
    outln!("wrote {}", out.display())?;
    Ok(ExitCode::SUCCESS)
}

//! `kpk readings`: section 4.5's stopping rule and kept state under every reading examined,
//! replicated over all trials of Table 5, against the paper's epochs and accuracies.

use super::paths::{InDir, OutDir};
use clap::Args;
use kpk::experiment::config::Trial;
use kpk::experiment::pipeline::{self, default_jobs};
use kpk::experiment::readings::{self, ReadingDistance};
use kpk::experiment::replicate::Replicates;
use kpk::experiment::sweep;
use kpk::figures::plot::ImageFormat;
use kpk::output::FileOut;
use std::path::Path;
use std::process::ExitCode;

#[derive(Args)]
pub struct ReadingsArgs {
    /// The folder of Table 5's trial configs.
    #[arg(long, default_value = "experiments/table5", value_name = "DIR")]
    configs: InDir,
    /// Where distances.csv and trials.csv are written.
    #[arg(long, default_value = "reports/readings", value_name = "DIR")]
    out: OutDir,
    /// Weight seeds per draw of the small sets.
    #[arg(long, default_value_t = 10, value_parser = super::count_parser())]
    seeds: usize,
    /// Draws of the small sets T1/S1, T2/S2.
    #[arg(long, default_value_t = 5, value_parser = super::count_parser())]
    draws: usize,
    /// Weight seeds of the whole-set trials 38-41.
    #[arg(long, default_value_t = 10, value_parser = super::count_parser())]
    whole_set_seeds: usize,
    /// Runs trained at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=65535))]
    jobs: Option<usize>,
    /// Only these trials of Table 5, e.g. "1-37" or "38,41".
    #[arg(long, value_name = "LIST", value_parser = parse_trials)]
    trials: Option<TrialList>,
    /// A learning-rate sweep instead: train every trial at each of these rates and compare the
    /// configs' reading of the stopping rule with the paper (sweep.csv, sweep.png, sweep.svg).
    #[arg(long, value_name = "RATES", value_delimiter = ',')]
    learning_rates: Vec<f64>,
    /// Table 6 at matched accuracy instead: replicate the a-file trials and take each run at its
    /// first epoch with at most 51 errors (table6.json).
    #[arg(long)]
    table6: bool,
    /// Train nothing: redraw the sweep's figure (sweep.png, sweep.svg) from the sweep.csv in the
    /// output folder.
    #[arg(long)]
    render_only: bool,
}

/// Trial numbers of Table 5 given on the command line.
#[derive(Clone, Debug)]
pub struct TrialList(Vec<u8>);

/// Parse "1-37" or "38,41" or "1-13,21-28" into trial numbers (clap's value parser of
/// `--trials`, so that an error names the flag).
fn parse_trials(list: &str) -> Result<TrialList, String> {
    let mut out = Vec::new();
    for part in list.split(',') {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let range = a.trim().parse::<u8>().and_then(|a| Ok((a, b.trim().parse::<u8>()?)));
        match range {
            Ok((a, b)) if a >= 1 && a <= b && b <= 41 => out.extend(a..=b),
            _ => return Err(format!("'{part}' is not a trial or a range of trials within 1-41")),
        }
    }
    Ok(TrialList(out))
}

/// Check every file a mode will write, before any training (outputs never destroy what kpk did
/// not write, and a bad destination fails in a second, not after the runs).
fn check_outputs(out: &Path, files: &[&str]) -> anyhow::Result<Vec<FileOut>> {
    Ok(files
        .iter()
        .map(|f| FileOut::check_in_own_folder(&out.join(f)))
        .collect::<kpk::error::Result<Vec<_>>>()?)
}

fn write_csv<T: serde::Serialize>(out: &FileOut, rows: &[T]) -> anyhow::Result<()> {
    out.write_with(|w| {
        let mut csv = csv::Writer::from_writer(w);
        for row in rows {
            csv.serialize(row).map_err(std::io::Error::other)?;
        }
        csv.flush()
    })?;
    Ok(())
}

pub fn run_readings(args: ReadingsArgs) -> anyhow::Result<ExitCode> {
    let mut trials = pipeline::load_dir(&args.configs)?;
    if let Some(list) = &args.trials {
        trials.retain(|t| readings::trial_number(t.name()).is_some_and(|n| list.0.contains(&n)));
    }
    if args.render_only {
        return render_sweep(&args.out);
    }
    if !args.learning_rates.is_empty() {
        return run_sweep(&args, &trials);
    }
    if args.table6 {
        return run_table6(&args, &trials);
    }
    let outs = check_outputs(&args.out, &["trials.csv", "distances.csv", "replicates.csv"])?;
    let compared = pipeline::readings(&trials, replicates(&args), jobs(&args), &|done, total| {
        if done % 50 == 0 || done == total {
            errln!("{done}/{total} runs");
        }
    })?;
    write_csv(&outs[0], &compared.trials)?;
    write_csv(&outs[1], &compared.distances)?;
    write_csv(&outs[2], &compared.replicates)?;
    for d in &compared.distances {
        print_distance(d)?;
    }
    outln!("wrote {}", args.out.display())?;
    Ok(ExitCode::SUCCESS)
}

fn replicates(args: &ReadingsArgs) -> Replicates {
    Replicates { seeds: args.seeds, draws: args.draws, whole_set_seeds: args.whole_set_seeds }
}

fn jobs(args: &ReadingsArgs) -> usize {
    args.jobs.unwrap_or_else(default_jobs)
}

fn print_distance(d: &ReadingDistance) -> std::io::Result<()> {
    outln!(
        "{:<60} epochs {:.3}  kept {:.3}  train {:.2} pt  distance {:.3}  truncated {}",
        d.reading,
        d.epochs_log2,
        d.kept_log2,
        d.train_points,
        d.distance,
        d.truncated
    )
}

/// The learning-rate sweep: each rate applied to every trial, the configs' own reading of the
/// stopping rule and kept state, the distance to the paper as in the readings comparison, each
/// rate against the configs' by a paired bootstrap ([`kpk::experiment::sweep`]).
fn run_sweep(args: &ReadingsArgs, trials: &[Trial]) -> anyhow::Result<ExitCode> {
    let outs = check_outputs(&args.out, &["sweep.csv", "sweep.png", "sweep.svg"])?;
    let rows = pipeline::sweep(trials, &args.learning_rates, replicates(args), jobs(args), &|rate, runs| {
        errln!("rate {rate}: {runs} runs");
    })?;
    for r in &rows {
        errln!(
            "rate {}: distance {:.3} [{:.3}, {:.3}], minus the configs' {}: {:+.3} [{:+.3}, {:+.3}]",
            r.learning_rate,
            r.distance,
            r.distance_lo,
            r.distance_hi,
            r.configs_rate,
            r.vs_configs,
            r.vs_configs_lo,
            r.vs_configs_hi
        );
    }
    write_csv(&outs[0], &rows)?;
    sweep::save_chart(&rows, &outs[1], ImageFormat::Png)?;
    sweep::save_chart(&rows, &outs[2], ImageFormat::Svg)?;
    outln!("wrote {}", args.out.display())?;
    Ok(ExitCode::SUCCESS)
}

/// Redraw the sweep's figure from its committed rows (`sweep.csv` in `out`), training nothing.
fn render_sweep(out: &Path) -> anyhow::Result<ExitCode> {
    let [png, svg] = pipeline::render_sweep(out)?;
    outln!("redrew {} and {}", png.display(), svg.display())?;
    Ok(ExitCode::SUCCESS)
}

/// Table 6 at matched accuracy over the replicates of the a-file trials.
fn run_table6(args: &ReadingsArgs, trials: &[Trial]) -> anyhow::Result<ExitCode> {
    let outs = check_outputs(&args.out, &["table6.json"])?;
    let matched = pipeline::table6(trials, replicates(args), jobs(args))?;
    outs[0].write(kpk::template::results_json(&matched)?.as_bytes())?;
    outln!("wrote {}", outs[0].display())?;
    Ok(ExitCode::SUCCESS)
}

//! `kpk reproduce` as one library call: train Table 5's trials with their replicates, write the
//! trial folders and Table 5 over the replicates, analyse (section 5.1 from `kpk readings`' runs),
//! write `reproduction.json` and `section51.json`, and render the report from it.

use super::*;
use crate::chess::bitbase::Bitbase;
use crate::experiment::Trial;
use crate::experiment::pipeline::{self, RunProgress};
use crate::experiment::replicate::{self, ReplicateId, Replicates};
use crate::report::reproduction::table5;

/// What [`reproduce`] runs.
#[derive(Clone, Debug)]
pub struct ReproduceOptions {
    /// The folder of Table 5's trial configs (`experiments/table5`).
    pub configs: PathBuf,
    /// Where the trial folders, the figures and the report are written (`reports`).
    pub out: PathBuf,
    pub replicates: Replicates,
    /// Runs trained at once.
    pub jobs: usize,
}

/// What [`reproduce`] did.
#[derive(Clone, Debug)]
pub struct Reproduced {
    pub report: PathBuf,
    pub trials: usize,
    pub runs: usize,
}

/// Train, analyse and render (see the module's documentation). Every destination and every input
/// from other commands ([`OtherRuns`]) is checked before any training starts.
pub fn reproduce(o: &ReproduceOptions, progress: RunProgress) -> Result<Reproduced> {
    let trials = pipeline::load_dir(&o.configs)?;
    every_trial_of_table5(&o.configs, &trials)?;
    let folders = crate::experiment::check_destinations(&trials, &o.out)?;
    check_destinations(&o.out)?;
    let reps = pipeline::check_replicates(o.replicates)?;
    let others = OtherRuns::read(&o.out)?;
    let bb = Bitbase::generate();
    let runs = replicate::run_replicates(&trials, reps, &bb, o.jobs, progress)?;
    // Replicate (0, 0) of each trial is its config as written: its folder is the trial's report.
    for run in runs.iter().filter(|r| r.id == ReplicateId { seed_index: 0, draw_index: 0 }) {
        crate::experiment::write_trial(&folders[run.trial], &run.run)?;
    }
    table5::write_csv(&o.out.join(TABLE5_CSV), &table5::summarise(&trials, &runs, &tables::table5(), &bb)?)?;
    // The report reads the folders just written, as a later analysis of them would.
    let report = analyse_and_render(&o.configs, &o.out, &trials, others, &bb)?;
    Ok(Reproduced { report, trials: trials.len(), runs: runs.len() })
}

/// Analyse the runs already in `out` (the trial folders of the configs in `configs`, what
/// `kpk reproduce` and the other commands wrote) without training, write `reproduction.json` and
/// render the report (`kpk reproduce --analyse-only`).
pub fn reanalyse(configs: &Path, out: &Path) -> Result<PathBuf> {
    let trials = pipeline::load_dir(configs)?;
    every_trial_of_table5(configs, &trials)?;
    check_destinations(out)?;
    let others = OtherRuns::read(out)?;
    analyse_and_render(configs, out, &trials, others, &Bitbase::generate())
}

/// Analyse, write `reproduction.json` and `section51.json` (section 5.1 by the data draw, computed
/// from `kpk readings`' runs), and render the report.
fn analyse_and_render(
    configs: &Path,
    out: &Path,
    trials: &[Trial],
    others: OtherRuns,
    bb: &Bitbase,
) -> Result<PathBuf> {
    let mut inputs = Inputs::read(out, trials, others)?;
    // The gap studies' configs sit beside Table 5's (experiments/studies/ by experiments/table5/).
    let studies = configs.parent().unwrap_or(Path::new(".")).join("studies");
    let trial38 = trials.iter().find(|t| crate::experiment::readings::trial_number(t.name()) == Some(38));
    inputs.gap = super::gap::analyse(&studies, out, &tables::table5(), trial38, &inputs.others.replicates)?;
    let r = analyse(&inputs, bb)?;
    write_json(out, &r)?;
    crate::output::write_file(
        &out.join(SECTION51_JSON),
        crate::template::results_json(&r.section51)?.as_bytes(),
    )?;
    write_report(out, &r)
}

/// The reproduction compares every row of Table 5 (and Table 6 with the a-file trials): a folder
/// of configs that lacks some of its trials is the user's to complete, refused before any work.
fn every_trial_of_table5(configs: &Path, trials: &[Trial]) -> Result<()> {
    let have: Vec<u8> =
        trials.iter().filter_map(|t| crate::experiment::readings::trial_number(t.name())).collect();
    let missing: Vec<String> = tables::table5()
        .iter()
        .filter(|row| !have.contains(&row.trial))
        .map(|row| format!("trial{:02}", row.trial))
        .collect();
    match missing.as_slice() {
        [] => Ok(()),
        [first, .., last] if missing.len() > 2 => {
            Err(missing_trials(configs, missing.len(), &format!("{first} … {last}")))
        }
        _ => Err(missing_trials(configs, missing.len(), &missing.join(", "))),
    }
}

fn missing_trials(configs: &Path, count: usize, which: &str) -> Error {
    Error::Format {
        path: configs.display().to_string(),
        message: format!(
            "lacks {count} of Table 5's {} trial configs ({which}); the reproduction needs every one \
             (experiments/table5 holds them)",
            tables::table5().len()
        ),
    }
}

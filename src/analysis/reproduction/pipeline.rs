//! `kpk reproduce` as an [`Analysis`]: train Table 5's trials with their replicates, write the
//! trial folders and Table 5 over the replicates, and analyse (section 5.1 from `kpk readings`'
//! runs); the driver writes `reproduction.json` and [`crate::report::reproduction`] renders it.

use super::analyse::{Inputs, OtherRuns, analyse};
use super::data::Reproduction;
use super::{REPRODUCTION_JSON, TABLE5_CSV, table5};
use crate::analysis::{Analysis, Mode};
use crate::chess::bitbase::Bitbase;
use crate::error::{Error, Result};
use crate::experiment::config::Trial;
use crate::experiment::pipeline::{self, RunProgress};
use crate::experiment::replicate::{self, ReplicateId, Replicates};
use crate::output::FileOut;
use crate::paper::tables;
use std::cell::Cell;
use std::path::{Path, PathBuf};

/// `kpk reproduce`: what it runs, where it writes, and the runs it did.
pub struct Reproduce<'a> {
    /// The folder of Table 5's trial configs (`experiments/table5`).
    pub configs: PathBuf,
    /// Where the trial folders, the figures and the report are written (`reports`).
    pub out: PathBuf,
    pub replicates: Replicates,
    /// Runs trained at once.
    pub jobs: usize,
    pub progress: RunProgress<'a>,
    /// The trials and runs trained by [`Mode::Run`], once it is done.
    pub ran: Cell<(usize, usize)>,
}

impl Analysis for Reproduce<'_> {
    type Results = Reproduction;

    fn command(&self) -> &'static str {
        "reproduce"
    }

    /// The trial folders are kept: `--analyse-only` reads them again.
    fn reanalyses(&self) -> bool {
        true
    }

    fn results_path(&self) -> PathBuf {
        self.out.join(REPRODUCTION_JSON)
    }

    /// [`Mode::Run`] trains Table 5's trials with their replicates, writes the trial folders and
    /// Table 5 over the replicates, then analyses what it wrote as a later `--analyse-only`
    /// would. Every destination and every input from other commands ([`OtherRuns`]) is checked
    /// before any training starts.
    fn analyse(&self, mode: Mode) -> Result<Reproduction> {
        let trials = pipeline::load_dir(&self.configs)?;
        every_trial_of_table5(&self.configs, &trials)?;
        if mode != Mode::Run {
            let others = OtherRuns::read(&self.out)?;
            return analyse_runs(&self.configs, &self.out, &trials, others, &Bitbase::generate());
        }
        let folders = crate::experiment::folder::check_destinations(&trials, &self.out)?;
        FileOut::check(&self.out.join(TABLE5_CSV))?;
        let reps = pipeline::check_replicates(self.replicates)?;
        let others = OtherRuns::read(&self.out)?;
        let bb = Bitbase::generate();
        let runs = replicate::run_replicates(&trials, reps, &bb, self.jobs, self.progress)?;
        // Replicate (0, 0) of each trial is its config as written: its folder is the trial's report.
        for run in runs.iter().filter(|r| r.id == ReplicateId { seed_index: 0, draw_index: 0 }) {
            crate::experiment::folder::write_trial(&folders[run.trial], &run.run)?;
        }
        let stats = table5::summarise(&trials, &runs, &tables::table5(), &bb)?;
        table5::write_csv(&self.out.join(TABLE5_CSV), &stats)?;
        self.ran.set((trials.len(), runs.len()));
        // The report reads the folders just written, as a later analysis of them would.
        analyse_runs(&self.configs, &self.out, &trials, others, &bb)
    }
}

/// Analyse the runs in `out` (the trial folders of `trials`, what `kpk reproduce` and the other
/// commands wrote; section 5.1 by the data draw from `kpk readings`' runs).
fn analyse_runs(
    configs: &Path,
    out: &Path,
    trials: &[Trial],
    others: OtherRuns,
    bb: &Bitbase,
) -> Result<Reproduction> {
    let mut inputs = Inputs::read(out, trials, others)?;
    // The gap studies' configs sit beside Table 5's (experiments/studies/ by experiments/table5/).
    let studies = configs.parent().unwrap_or(Path::new(".")).join("studies");
    let trial38 = trials.iter().find(|t| crate::experiment::readings::trial_number(t.name()) == Some(38));
    inputs.gap = super::gap::analyse(&studies, out, &tables::table5(), trial38, &inputs.others.replicates)?;
    analyse(&inputs, bb)
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

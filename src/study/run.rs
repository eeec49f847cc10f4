//! Running a study: every trial of the grid on all cores (rayon), each one exactly as `kpk run`
//! would train it ([`run_trial`]), then the replicates of each setting summarised.

use super::config::Study;
use super::custom::run_custom;
use super::replicate::{Replicate, SettingResult};
use super::validation::run_validated;
use crate::chess::bitbase::Bitbase;
use crate::error::Result;
use crate::experiment::{config::Trial, run::run_trial};
use rayon::prelude::*;

/// A finished study: one result per setting, in the config's order.
#[derive(Clone, Debug)]
pub struct StudyRun {
    pub study: Study,
    pub settings: Vec<SettingResult>,
}

/// Run every trial of `study` on rayon's pool (its size decides the cores used), calling
/// `on_done` after each trial. Each trial is deterministic on its own, so the results do not
/// depend on the number of threads or the order they finish in.
pub fn run_study(study: &Study, bb: &Bitbase, on_done: &(dyn Fn(&Trial) + Sync)) -> Result<StudyRun> {
    // Longest first, so a long trial does not start last and leave a core idle at the end.
    let mut order: Vec<usize> = (0..study.trials.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(study.trials[i].budget()));
    let mut done: Vec<(usize, Replicate)> = order
        .par_iter()
        .map(|&i| {
            let trial = &study.trials[i];
            let keys = &study.keys[i / study.replicates()];
            let replicate = if keys.validation.is_some() {
                run_validated(trial, keys, bb)
            } else if keys.is_custom() {
                run_custom(trial, keys, bb)
            } else {
                run_trial(trial, bb, &mut |_| {}).map(|run| Replicate::new(&run, keys))
            };
            on_done(trial);
            Ok((i, replicate.map_err(|e| e.context(trial.name()))?))
        })
        .collect::<Result<_>>()?;
    done.sort_by_key(|(i, _)| *i);
    let per = study.replicates();
    let mut replicates = done.into_iter().map(|(_, r)| r);
    let settings = study
        .config
        .settings
        .iter()
        .map(|s| SettingResult {
            label: s.label.clone(),
            replicates: replicates.by_ref().take(per).collect(),
        })
        .collect();
    Ok(StudyRun { study: study.clone(), settings })
}

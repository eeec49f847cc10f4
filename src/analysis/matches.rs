//! `kpk match` as an [`Analysis`]: every player against perfect play
//! ([`crate::play::pipeline::run_match`]) into `reports/play.json`, which
//! [`crate::report::play`] renders.

use crate::analysis::{Analysis, Mode};
use crate::error::Result;
use crate::hybrid::compress::HybridRecipe;
use crate::play::model::PlayModel;
use crate::play::pipeline::{MatchSetup, run_match};
use crate::play::results::MatchResults;
use std::path::PathBuf;

/// The match: its players' files, its setup and its destinations.
pub struct Match<'a> {
    /// The play model of the `model` player.
    pub model: PathBuf,
    /// The trial config that trains the NN6 evaluator.
    pub nn6: PathBuf,
    /// The compress config whose first candidate trains the `hybrid` evaluators.
    pub hybrid: PathBuf,
    pub setup: MatchSetup,
    /// The report (`reports/PLAY.md`), its table (`reports/play/results.csv`), the counts per
    /// seed (`reports/play/seeds.csv`), the folder of its figures and its results
    /// (`reports/play.json`).
    pub report: PathBuf,
    pub csv: PathBuf,
    pub seeds_csv: PathBuf,
    pub figures: PathBuf,
    pub results: PathBuf,
    pub progress: &'a dyn Fn(&str),
}

impl Analysis for Match<'_> {
    type Results = MatchResults;

    fn command(&self) -> &'static str {
        "match"
    }

    fn results_path(&self) -> PathBuf {
        self.results.clone()
    }

    fn inputs(&self, mode: Mode) -> Vec<PathBuf> {
        match mode {
            Mode::Run => vec![self.model.clone(), self.nn6.clone(), self.hybrid.clone()],
            _ => Vec::new(),
        }
    }

    /// Trains every net and plays every game ([`Mode::Run`] only: the games are not kept, so
    /// there is nothing to analyse again).
    fn analyse(&self, _: Mode) -> Result<MatchResults> {
        let model = PlayModel::load(&self.model)?;
        let trial = crate::experiment::config::TrialConfig::load(&self.nn6)?;
        let hybrid = HybridRecipe::load(&self.hybrid)?;
        let bb = crate::chess::bitbase::Bitbase::generate();
        run_match(&model, &trial, &hybrid, &self.setup, &bb, self.progress)
    }
}

//! `kpk match` as a [`Report`] for the one driver: every player against perfect play
//! ([`crate::play::pipeline::run_match`]); the driver writes `reports/play.json` and renders
//! `reports/PLAY.md`, `reports/play/results.csv`, `reports/play/seeds.csv` and the figures
//! from it ([`super::play`]).

use crate::error::Result;
use crate::hybrid::compress::HybridRecipe;
use crate::play::PlayModel;
use crate::play::pipeline::{MatchSetup, run_match};
use crate::play::results::MatchResults;
use crate::report::driver::{Mode, Output, Report, chart};
use crate::report::play::{FIGURE_SIZE, FIGURES, figures, render, results_csv, seeds_csv};
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

impl Report for Match<'_> {
    type Results = MatchResults;

    fn command(&self) -> &'static str {
        "match"
    }

    fn results_path(&self) -> PathBuf {
        self.results.clone()
    }

    fn destinations(&self, _: Option<&MatchResults>) -> Result<Vec<PathBuf>> {
        let mut files = vec![self.report.clone(), self.csv.clone(), self.seeds_csv.clone()];
        for stem in FIGURES {
            files.extend(["png", "svg"].map(|ext| self.figures.join(format!("{stem}.{ext}"))));
        }
        Ok(files)
    }

    fn inputs(&self, mode: Mode) -> Vec<PathBuf> {
        match mode {
            Mode::Run => vec![self.model.clone(), self.nn6.clone(), self.hybrid.clone()],
            _ => Vec::new(),
        }
    }

    fn figures_folder(&self) -> Option<PathBuf> {
        Some(self.figures.clone())
    }

    /// Trains every net and plays every game ([`Mode::Run`] only: the games are not kept, so
    /// there is nothing to analyse again).
    fn analyse(&self, _: Mode) -> Result<MatchResults> {
        let model = PlayModel::load(&self.model)?;
        let trial = crate::experiment::TrialConfig::load(&self.nn6)?;
        let hybrid = HybridRecipe::load(&self.hybrid)?;
        let bb = crate::chess::bitbase::Bitbase::generate();
        run_match(&model, &trial, &hybrid, &self.setup, &bb, self.progress)
    }

    fn render<'a>(&self, results: &'a MatchResults) -> Result<Vec<Output<'a>>> {
        let mut files = vec![
            Output::bytes(&self.report, render(results)?),
            Output::bytes(&self.csv, results_csv(results)?),
            Output::bytes(&self.seeds_csv, seeds_csv(results)?),
        ];
        for (stem, figure) in FIGURES.iter().zip(figures(results)?) {
            files.extend(chart(self.figures.join(format!("{stem}.png")), figure, FIGURE_SIZE));
        }
        Ok(files)
    }
}

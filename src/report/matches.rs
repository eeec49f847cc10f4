//! `kpk match` as a [`Report`]: the match's results ([`Match`]) rendered as `reports/PLAY.md`,
//! `reports/play/results.csv`, `reports/play/seeds.csv` and the figures ([`super::play`]).

use crate::analysis::matches::Match;
use crate::error::Result;
use crate::play::results::MatchResults;
use crate::report::driver::{Output, Report, chart};
use crate::report::play::{FIGURE_SIZE, FIGURES, figures, render, results_csv, seeds_csv};
use std::path::PathBuf;

impl Report for Match<'_> {
    fn destinations(&self, _: Option<&MatchResults>) -> Result<Vec<PathBuf>> {
        let mut files = vec![self.report.clone(), self.csv.clone(), self.seeds_csv.clone()];
        for stem in FIGURES {
            files.extend(["png", "svg"].map(|ext| self.figures.join(format!("{stem}.{ext}"))));
        }
        Ok(files)
    }

    fn figures_folder(&self) -> Option<PathBuf> {
        Some(self.figures.clone())
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

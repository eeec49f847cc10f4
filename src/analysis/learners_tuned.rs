//! `kpk learners --tuned` as an [`Analysis`]: section 7 under equal tuning budgets
//! ([`crate::learners::tune`]) fitted, or read again from its committed draws, into
//! `reports/learners_tuned.json`, which [`crate::report::learners_tuned`] renders. The run writes
//! its data, `draws.csv` (one row per learner, side and draw), and `training_draws.csv` (each
//! draw's training positions as indices into the side's legal positions, for an outside check).

use crate::analysis::{Analysis, Mode};
use crate::chess::bitbase::Bitbase;
use crate::error::{Error, Result};
use crate::learners::design::paper_size;
use crate::learners::draws::training_draw;
use crate::learners::tune::{TunedDesign, TunedFit, run};
use crate::learners::tuned_read::{TunedReading, reading};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Everything `reports/learners_tuned.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedReport {
    /// The declaration as read, and the commit that declared it.
    pub design: TunedDesign,
    pub declared_in: String,
    /// The commit the draws were fitted from (`git rev-parse HEAD` at the run, `+dirty` if the
    /// work tree differed from it).
    pub run_from: String,
    pub reading: TunedReading,
}

/// `kpk learners --tuned`.
pub struct TunedLearners<'a> {
    pub json: PathBuf,
    pub markdown: PathBuf,
    pub folder: PathBuf,
    pub design: PathBuf,
    pub table5: PathBuf,
    pub declared_in: String,
    pub run_from: String,
    pub progress: &'a (dyn Fn(&str) + Sync),
}

impl TunedLearners<'_> {
    pub fn draws(&self) -> PathBuf {
        self.folder.join("draws.csv")
    }

    pub fn training_draws(&self) -> PathBuf {
        self.folder.join("training_draws.csv")
    }
}

/// The run's rows as CSV text.
fn draws_csv(rows: &[TunedFit]) -> Result<String> {
    crate::output::csv_text("draws.csv", |w| {
        // The header is the fields' names (TUNED_COLUMNS), written by the first row's serialize.
        for r in rows {
            w.serialize(r)?;
        }
        Ok(())
    })
}

/// Each draw's training positions: side, n, draw and the indices, ascending, space-separated.
fn training_draws_csv(design: &TunedDesign) -> Result<String> {
    crate::output::csv_text("training_draws.csv", |w| {
        w.write_record(["side", "n", "draw", "indices"])?;
        for &side in &design.sides {
            let n = paper_size(side);
            for d in 0..design.draws {
                let idx: Vec<String> =
                    training_draw(design.seed, side, n, d).iter().map(|i| i.to_string()).collect();
                w.write_record([side.to_string(), n.to_string(), d.to_string(), idx.join(" ")])?;
            }
        }
        Ok(())
    })
}

/// The tuned run's rows from its draws.csv.
pub fn read_draws(path: &Path) -> Result<Vec<TunedFit>> {
    let text = std::fs::read_to_string(path)
        .map_err(|cause| Error::Io { path: path.display().to_string(), cause })?;
    let bad = |e: csv::Error| Error::Format { path: path.display().to_string(), message: e.to_string() };
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<std::result::Result<_, _>>()
        .map_err(bad)
}

impl Analysis for TunedLearners<'_> {
    type Results = TunedReport;

    fn command(&self) -> &'static str {
        "learners --tuned"
    }

    fn reanalyses(&self) -> bool {
        true
    }

    fn results_path(&self) -> PathBuf {
        self.json.clone()
    }

    fn inputs(&self, mode: Mode) -> Vec<PathBuf> {
        match mode {
            Mode::RenderOnly => Vec::new(),
            Mode::AnalyseOnly => vec![self.design.clone(), self.draws()],
            Mode::Run => vec![self.design.clone()],
        }
    }

    fn run_outputs(&self, mode: Mode) -> Vec<PathBuf> {
        if mode == Mode::Run { vec![self.draws(), self.training_draws()] } else { Vec::new() }
    }

    fn analyse(&self, mode: Mode) -> Result<TunedReport> {
        let design = TunedDesign::load(&self.design)?;
        let (rows, run_from) = if mode == Mode::AnalyseOnly {
            let committed: TunedReport = crate::template::read_results(&self.json)?;
            (read_draws(&self.draws())?, committed.run_from)
        } else {
            let bb = Bitbase::generate();
            crate::output::FileOut::check(&self.training_draws())?
                .write(training_draws_csv(&design)?.as_bytes())?;
            let rows = run(&design, &self.table5, &bb, self.progress)?;
            // The draws are the run's data: written first, so that nothing measured is lost.
            crate::output::FileOut::check(&self.draws())?.write(draws_csv(&rows)?.as_bytes())?;
            (rows, self.run_from.clone())
        };
        let reading = reading(&design, &rows)?;
        Ok(TunedReport { design, declared_in: self.declared_in.clone(), run_from, reading })
    }
}

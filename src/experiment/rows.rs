//! The rows a trial folder holds: `summary.json`, `metrics.csv`, `misclassified.csv`.

use crate::dataset::{SetName, Side};
use crate::error::{Error, Result};
use crate::net::topology::Topology;
use crate::train::{EpochMetrics, StopReason};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The trial folder's file of the trained net ([`Summary::weights_file`] names it).
pub const WEIGHTS_JSON: &str = "weights.json";

/// `summary.json`: what a trial produced, for the report and for anyone scripting over runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub name: String,
    pub side: Side,
    pub training_set: String,
    pub testing_set: Option<String>,
    pub topology: Topology,
    /// Weights including biases (Table 5's "# wts.").
    pub weights: usize,
    /// Storage at 64 bits a weight, and the paper's compression factor 2^17 / bits (section 5).
    pub bits: usize,
    pub comp: f64,
    /// Epochs run before the stopping rule (or the budget) ended training.
    pub epochs: usize,
    /// The budget: the config's `max_epochs`.
    pub max_epochs: usize,
    /// The epoch whose end state was kept, by the config's `keep` rule (most positions right, or
    /// section 4.5's least error measure).
    pub best_epoch: usize,
    /// "error_target", "no_improvement" or "max_epochs".
    pub stop_reason: StopReason,
    pub train_positions: usize,
    /// The kept net's training accuracy under section 4.3's rule with m = 0 (for one output,
    /// y1 >= 0.5 is a win; for two, y1 >= 0.5 > y2 is a win and y1 < 0.5 <= y2 a draw).
    pub train_accuracy_pct: f64,
    /// Training positions the kept net gets wrong at m = 0 (listed in `misclassified.csv`).
    pub train_misclassified: usize,
    /// Two outputs with a margin only: training accuracy at the config's margin, where outputs
    /// within the margin of 0.5 count as not correct (the stopping condition's reading).
    pub train_accuracy_at_margin_pct: Option<f64>,
    pub test_positions: Option<usize>,
    /// The kept net's testing accuracy (m = 0); null without a testing set.
    pub test_accuracy_pct: Option<f64>,
    /// The kept net's error measures on the training set.
    pub e1: f64,
    pub e2: f64,
    pub seed: u64,
    /// The weights, relative to the trial's folder.
    pub weights_file: String,
}

impl Summary {
    /// The named set the trial trained on; `None` for a set of a study's own.
    pub fn trained_on(&self) -> Option<SetName> {
        self.training_set.parse().ok()
    }
}

/// One row of `misclassified.csv`, in the form of the paper's Table 6.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MisclassifiedRow {
    pub n: usize,
    pub wk: String,
    pub bk: String,
    pub wp: String,
    /// "w" or "b": the side to move in the trial's position.
    pub to_move: String,
    /// The true result ('w' win, 'd' draw) of the placement with White and with Black to move;
    /// empty where that side to move is illegal.
    pub result_wtm: String,
    pub result_btm: String,
    pub target_o1: f64,
    pub target_o2: Option<f64>,
    pub actual_o1: f64,
    pub actual_o2: Option<f64>,
    /// The set the position came from (training or testing).
    pub set: String,
}

impl MisclassifiedRow {
    /// The named set the position came from; `None` for a set of a study's own.
    pub fn from_set(&self) -> Option<SetName> {
        self.set.parse().ok()
    }
}

/// Write `misclassified.csv`.
pub fn write_misclassified(path: &Path, rows: &[MisclassifiedRow]) -> Result<()> {
    crate::output::write_file_with(path, |w| {
        let mut csv = csv::Writer::from_writer(w);
        if rows.is_empty() {
            // Keep the header even when the net is perfect, so readers see the columns.
            csv.write_record([
                "n",
                "wk",
                "bk",
                "wp",
                "to_move",
                "result_wtm",
                "result_btm",
                "target_o1",
                "target_o2",
                "actual_o1",
                "actual_o2",
                "set",
            ])?;
        }
        for row in rows {
            csv.serialize(row).map_err(std::io::Error::other)?;
        }
        csv.flush()
    })
}

/// Read a `misclassified.csv` written by [`write_misclassified`].
pub fn read_misclassified(path: &Path) -> Result<Vec<MisclassifiedRow>> {
    let bytes = crate::io::read(path)?;
    csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<std::result::Result<Vec<MisclassifiedRow>, _>>()
        .map_err(|e| Error::Format { path: path.display().to_string(), message: e.to_string() })
}

/// Write `metrics.csv`.
pub fn write_metrics(path: &Path, rows: &[EpochMetrics]) -> Result<()> {
    crate::output::write_file_with(path, |w| {
        let mut csv = csv::Writer::from_writer(w);
        for row in rows {
            csv.serialize(row).map_err(std::io::Error::other)?;
        }
        csv.flush()
    })
}

/// Refuse a `metrics.csv` with a value that is not a finite number (NaN, inf): a chart would draw
/// it as a line to nowhere. The error names the file and the epoch's row.
pub fn check_finite(path: &Path, rows: &[EpochMetrics]) -> Result<()> {
    for (n, r) in rows.iter().enumerate() {
        let values = [
            ("e1", Some(r.e1)),
            ("e2", Some(r.e2)),
            ("train_accuracy_pct", Some(r.train_accuracy_pct)),
            ("train_accuracy_m0_pct", r.train_accuracy_m0_pct),
            ("test_accuracy_pct", r.test_accuracy_pct),
        ];
        if let Some((column, v)) =
            values.iter().find_map(|(c, v)| v.filter(|v| !v.is_finite()).map(|v| (c, v)))
        {
            return Err(Error::Format {
                path: path.display().to_string(),
                message: format!("line {} (epoch {}): {column} is {v}, not a finite number", n + 2, r.epoch),
            });
        }
    }
    Ok(())
}

/// Read a `metrics.csv` written by [`write_metrics`].
pub fn read_metrics(path: &Path) -> Result<Vec<EpochMetrics>> {
    let bytes = crate::io::read(path)?;
    let rows = csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<std::result::Result<Vec<EpochMetrics>, _>>()
        .map_err(|e| Error::Format { path: path.display().to_string(), message: e.to_string() })?;
    if rows.is_empty() {
        return Err(Error::Format { path: path.display().to_string(), message: "no epochs".into() });
    }
    Ok(rows)
}

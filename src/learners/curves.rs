//! The learning curves of the declared design ([`super::design`]): every learner on every draw of
//! every cell (side × training size), with both input sets, tested on every position of the side
//! outside the draw. One row per (learner, inputs, side, n, draw) is `reports/learners/draws.csv`;
//! the verdicts ([`super::verdicts`]) and the curves' summaries are read from those rows alone.

use super::design::{Cell, Design, SIDES};
use super::draws::{SidePositions, Split};
use super::mlp::{ConvergedMlp, PaperMlp};
use super::{InputSet, Learner, six};
use crate::chess::bitbase::Bitbase;
use crate::dataset::Side;
use crate::error::{Error, Result};
use crate::experiment::config::{Trial, TrialConfig};
use crate::stats::Interval;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One learner on one draw: a row of draws.csv.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DrawFit {
    pub learner: String,
    pub inputs: InputSet,
    pub side: Side,
    pub n: usize,
    pub draw: usize,
    /// Accuracy in % on the draw's n positions ...
    pub train_pct: f64,
    /// ... and on every other position of the side, `test_n` of them.
    pub test_pct: f64,
    pub test_n: usize,
    /// Passes over the training set (epochs, rounds, steps; [`super::Model::passes`]).
    pub passes: u64,
}

/// The columns of draws.csv.
pub const DRAW_COLUMNS: &str = "learner,inputs,side,n,draw,train_pct,test_pct,test_n,passes";

/// The learners of a side: the six of `kpk learners` (the MLP under the side's Table 5 trial)
/// and the converged MLP.
pub fn learners(design: &Design, side: Side, table5: &Path) -> Result<Vec<Box<dyn Learner>>> {
    let trial = side_trial(design, side, table5)?;
    let mut all = six(PaperMlp::new(trial.clone(), None));
    all.push(Box::new(ConvergedMlp { mlp: PaperMlp::new(trial, None), budgets: design.mlp.clone() }));
    Ok(all)
}

/// The side's Table 5 trial (T1's for wtm, T2's for btm).
pub fn side_trial(design: &Design, side: Side, table5: &Path) -> Result<Trial> {
    let name = if side == Side::Btm { &design.mlp.btm_trial } else { &design.mlp.wtm_trial };
    TrialConfig::load(&table5.join(format!("{name}.toml")))
}

/// One draw of one cell: every learner with both input sets. A learner's seed is its side's
/// trial seed plus the draw's index (only the MLPs and the boosted trees draw at random).
fn fit_draw(
    design: &Design,
    cell: Cell,
    draw: usize,
    positions: &SidePositions,
    learners: &[Box<dyn Learner>],
    seed0: u64,
) -> Result<Vec<DrawFit>> {
    let split = positions.split(&design.training_draw(cell.side, cell.n, draw));
    let mut out = Vec::with_capacity(2 * learners.len());
    for inputs in InputSet::ALL {
        for learner in learners {
            out.push(fit_split(learner.as_ref(), &split, inputs, seed0 + draw as u64, (cell, draw))?);
        }
    }
    Ok(out)
}

/// One learner fitted on a split's training positions with one input set and seed, measured on
/// both halves: the row of draws.csv for `cell` and `draw`. Every row of the comparison comes from
/// here, and so does [`refit`]'s.
pub fn fit_split(
    learner: &dyn Learner,
    split: &Split,
    inputs: InputSet,
    seed: u64,
    (cell, draw): (Cell, usize),
) -> Result<DrawFit> {
    let model = learner.fit(&split.train, inputs, seed)?;
    Ok(DrawFit {
        learner: learner.name().to_string(),
        inputs,
        side: cell.side,
        n: cell.n,
        draw,
        train_pct: split.train.accuracy_pct(model.as_ref()),
        test_pct: split.test.accuracy_pct(model.as_ref()),
        test_n: split.test.len(),
        passes: model.passes(),
    })
}

/// The learners of the comparison whose fit draws nothing at random (its seed is unused): the
/// rule list, the tree, naive Bayes and the 1-level net. Their row of draws.csv depends on the
/// training positions alone.
pub const SEEDLESS: [&str; 4] = ["rule_list", "tree", "naive_bayes", "logistic"];

/// Fit the seedless learner `name` on the positions `train` of `side` (indices as
/// [`super::draws::training_draw`] gives them) and test it on every other position of the side, through the
/// comparison's own [`fit_split`]: on a draw of `kpk learners`, the row it wrote
/// for that draw (`n` is `train.len()`, `draw` 0).
pub fn refit(name: &str, side: Side, train: &[usize], inputs: InputSet, bb: &Bitbase) -> Result<DrawFit> {
    let unknown =
        || Error::UnknownName { what: "learner", given: name.to_string(), allowed: SEEDLESS.join(", ") };
    let learner: Box<dyn Learner> = match SEEDLESS.iter().position(|&l| l == name).ok_or_else(unknown)? {
        0 => Box::new(super::rules::RuleList::default()),
        1 => Box::new(super::tree::Cart::default()),
        2 => Box::new(super::bayes::NaiveBayes::default()),
        _ => Box::new(super::logistic::Logistic::default()),
    };
    let positions = SidePositions::new(side, bb);
    if let Some(&i) = train.iter().find(|&&i| i >= positions.all.len()) {
        return Err(Error::Argument(format!("train index {i}")));
    }
    let cell = Cell { side, n: train.len(), draws: 1 };
    fit_split(learner.as_ref(), &positions.split(train), inputs, 0, (cell, 0))
}

/// A side's positions, its learners and their base seed.
type SideRun = (SidePositions, Vec<Box<dyn Learner>>, u64);

/// Every draw of every cell of `design`, in the order side, n, draw, inputs, learner. The draws
/// run in parallel, the largest training sets first. `progress` hears each finished cell.
pub fn run(
    design: &Design,
    table5: &Path,
    bb: &Bitbase,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<DrawFit>> {
    let sides: Vec<SideRun> = SIDES
        .iter()
        .map(|&side| {
            let trial = side_trial(design, side, table5)?;
            Ok((SidePositions::new(side, bb), learners(design, side, table5)?, trial.config.seed))
        })
        .collect::<Result<_>>()?;
    let mut units: Vec<(usize, Cell, usize)> = Vec::new();
    for (s, &side) in SIDES.iter().enumerate() {
        for cell in design.cells(side) {
            units.extend((0..cell.draws).map(|d| (s, cell, d)));
        }
    }
    let order = |u: &(usize, Cell, usize)| (u.0, u.1.n, u.2);
    let mut by_cost = units.clone();
    by_cost.sort_by_key(|u| std::cmp::Reverse(u.1.n));
    let done = AtomicUsize::new(0);
    let total = by_cost.len();
    let mut fits: Vec<((usize, usize, usize), Vec<DrawFit>)> = by_cost
        .par_iter()
        .with_max_len(1)
        .map(|u| {
            let (positions, learners, seed0) = &sides[u.0];
            let rows = fit_draw(design, u.1, u.2, positions, learners, *seed0)
                .map_err(|e| e.context(format!("{} n = {} draw {}", u.1.side, u.1.n, u.2)))?;
            let k = done.fetch_add(1, Ordering::Relaxed) + 1;
            if k % 20 == 0 || k == total {
                progress(&format!("{k} of {total} draws fitted (last: {} n = {})", u.1.side, u.1.n));
            }
            Ok((order(u), rows))
        })
        .collect::<Result<_>>()?;
    fits.sort_by_key(|f| f.0);
    Ok(fits.into_iter().flat_map(|f| f.1).collect())
}

/// A cell's summary for one learner and input set: a row of curves.csv.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub learner: String,
    pub inputs: InputSet,
    pub side: Side,
    pub n: usize,
    pub draws: usize,
    pub train: Interval,
    /// Testing accuracy: mean and 95% t-interval over the draws.
    pub test: Interval,
    /// SD of the testing accuracy over the draws, points.
    pub test_sd: f64,
    /// Mean passes over the training set.
    pub passes: f64,
}

/// The columns of curves.csv.
pub const CURVE_COLUMNS: &str =
    "learner,inputs,side,n,draws,train_mean,train_lo,train_hi,test_mean,test_lo,test_hi,test_sd,passes";

/// The curves: one point per (learner, inputs, side, n), in the rows' order of first appearance.
pub fn curves(rows: &[DrawFit]) -> Result<Vec<CurvePoint>> {
    let mut keys: Vec<(String, InputSet, Side, usize)> = Vec::new();
    for r in rows {
        let k = (r.learner.clone(), r.inputs, r.side, r.n);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys.into_iter()
        .map(|(learner, inputs, side, n)| {
            let of = cell_rows(rows, &learner, inputs, side, n);
            let test: Vec<f64> = of.iter().map(|r| r.test_pct).collect();
            let train: Vec<f64> = of.iter().map(|r| r.train_pct).collect();
            let missing = || Error::Data(format!("no draws of {learner} on {side} n = {n}"));
            Ok(CurvePoint {
                draws: of.len(),
                train: Interval::of_mean_pct(&train).ok_or_else(missing)?,
                test: Interval::of_mean_pct(&test).ok_or_else(missing)?,
                test_sd: crate::stats::std_dev(&test),
                passes: crate::stats::mean(&of.iter().map(|r| r.passes as f64).collect::<Vec<_>>()),
                learner,
                inputs,
                side,
                n,
            })
        })
        .collect()
}

/// A cell's rows of one learner and input set, in draw order.
pub fn cell_rows<'a>(
    rows: &'a [DrawFit],
    learner: &str,
    inputs: InputSet,
    side: Side,
    n: usize,
) -> Vec<&'a DrawFit> {
    let mut v: Vec<&DrawFit> = rows
        .iter()
        .filter(|r| r.learner == learner && r.inputs == inputs && r.side == side && r.n == n)
        .collect();
    v.sort_by_key(|r| r.draw);
    v
}

/// draws.csv: one line per [`DrawFit`], [`DRAW_COLUMNS`] first (accuracies in Rust's shortest
/// round-trip form, so the file reads back to the same values).
pub fn draws_csv(rows: &[DrawFit]) -> Result<String> {
    crate::output::csv_text("draws.csv", |w| rows.iter().try_for_each(|r| w.serialize(r)))
}

/// Read draws.csv back.
/// Write the run's draws to `path` (draws.csv, [`draws_csv`]).
pub fn write_draws(draws: &[DrawFit], path: &Path) -> Result<()> {
    crate::output::FileOut::check(path)?.write(draws_csv(draws)?.as_bytes())
}

pub fn read_draws(path: &Path) -> Result<Vec<DrawFit>> {
    let text = std::fs::read_to_string(path)
        .map_err(|cause| Error::Io { path: path.display().to_string(), cause })?;
    let bad = |e: csv::Error| Error::Format { path: path.display().to_string(), message: e.to_string() };
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<std::result::Result<Vec<DrawFit>, _>>()
        .map_err(bad)
}

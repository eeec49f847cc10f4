//! The exploratory comparisons read from the draws: every learner against the paper's MLP on each
//! cell and input set, and what Table 4's characterisation buys each learner (x1..x32 against the
//! raw squares x1..x6), each paired by draw with its 95% t-interval, unadjusted, and no verdict
//! (the declared primaries of [`super::verdicts`] carry the verdicts).

use super::InputSet;
use super::curves::{DrawFit, cell_rows};
use crate::dataset::Side;
use crate::stats::Interval;
use crate::stats::family::Direction;
use serde::{Deserialize, Serialize};

/// One exploratory contrast a − b on a cell, paired by draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explored {
    pub a: String,
    pub a_inputs: InputSet,
    pub b: String,
    pub b_inputs: InputSet,
    pub side: Side,
    pub n: usize,
    /// Testing accuracy difference, points: mean and 95% t-interval over the draws.
    pub diff: Interval,
    pub draws: usize,
    /// Where the interval falls (above 0: a more accurate).
    pub direction: Direction,
}

/// a − b on one cell, if both have draws there.
fn contrast(
    rows: &[DrawFit],
    a: (&str, InputSet),
    b: (&str, InputSet),
    side: Side,
    n: usize,
) -> Option<Explored> {
    let (ra, rb) = (cell_rows(rows, a.0, a.1, side, n), cell_rows(rows, b.0, b.1, side, n));
    if ra.len() != rb.len() || ra.iter().zip(&rb).any(|(x, y)| x.draw != y.draw) {
        return None;
    }
    let d: Vec<f64> = ra.iter().zip(&rb).map(|(x, y)| x.test_pct - y.test_pct).collect();
    let diff = Interval::of_mean(&d)?;
    Some(Explored {
        a: a.0.to_string(),
        a_inputs: a.1,
        b: b.0.to_string(),
        b_inputs: b.1,
        side,
        n,
        direction: Direction::of(diff.lo, diff.hi),
        diff,
        draws: d.len(),
    })
}

/// Every cell's (side, n) in the rows' order, and the learners in theirs.
fn cells_and_learners(rows: &[DrawFit]) -> (Vec<(Side, usize)>, Vec<String>) {
    let (mut cells, mut learners) = (Vec::new(), Vec::<String>::new());
    for r in rows {
        if !cells.contains(&(r.side, r.n)) {
            cells.push((r.side, r.n));
        }
        if !learners.contains(&r.learner) {
            learners.push(r.learner.clone());
        }
    }
    (cells, learners)
}

/// Each learner but the paper's MLP against it, per cell and input set.
pub fn against_mlp(rows: &[DrawFit]) -> Vec<Explored> {
    let (cells, learners) = cells_and_learners(rows);
    let mut out = Vec::new();
    for &(side, n) in &cells {
        for inputs in InputSet::ALL {
            for l in learners.iter().filter(|l| *l != super::MLP) {
                out.extend(contrast(rows, (l, inputs), (super::MLP, inputs), side, n));
            }
        }
    }
    out
}

/// Each learner with x1..x32 against itself with x1..x6, per cell.
pub fn characterisation(rows: &[DrawFit]) -> Vec<Explored> {
    let (cells, learners) = cells_and_learners(rows);
    let mut out = Vec::new();
    for &(side, n) in &cells {
        for l in &learners {
            out.extend(contrast(rows, (l, InputSet::All), (l, InputSet::Coordinates), side, n));
        }
    }
    out
}

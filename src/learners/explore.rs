//! The exploratory comparisons read from the draws: every learner against the paper's MLP on each
//! cell and input set, and what Table 4's characterisation buys each learner (x1..x32 against the
//! raw squares x1..x6), each paired by draw with its 95% t-interval, unadjusted, and no verdict
//! (the declared primaries of [`super::verdicts`] carry the verdicts). A cell needs two draws.
//! The whole side's learner-minus-MLP contrasts ([`super::analyse::against_mlp_whole`]) are the
//! same record.

use super::InputSet;
use super::curves::{DrawFit, cell_rows};
use super::design::{Arm, LearnerContrast, Measure};
use crate::dataset::Side;
use crate::stats::contrast::Contrast;
use crate::stats::family::TContrast;

/// a − b on one cell, if both have two draws or more there and they pair.
fn contrast(
    rows: &[DrawFit],
    name: &str,
    a: (&str, InputSet),
    b: (&str, InputSet),
    side: Side,
    n: usize,
) -> Option<LearnerContrast> {
    let (ra, rb) = (cell_rows(rows, a.0, a.1, side, n), cell_rows(rows, b.0, b.1, side, n));
    if ra.len() != rb.len() || ra.iter().zip(&rb).any(|(x, y)| x.draw != y.draw) {
        return None;
    }
    let d: Vec<f64> = ra.iter().zip(&rb).map(|(x, y)| x.test_pct - y.test_pct).collect();
    let arm = |(learner, inputs): (&str, InputSet)| {
        let arm = Arm { learner: learner.to_string(), inputs: Some(inputs), side, n: Some(n) };
        (arm, learner.to_string())
    };
    Some(Contrast::exploratory(name, arm(a), arm(b), Measure::TestPct, TContrast::of_differences(&d)?))
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
pub fn against_mlp(rows: &[DrawFit]) -> Vec<LearnerContrast> {
    against(rows, super::MLP)
}

/// Each learner against `comparator` (an MLP), per cell and input set: against the paper's MLP
/// every other learner, against the converged MLP every learner but the two MLPs.
pub fn against(rows: &[DrawFit], comparator: &str) -> Vec<LearnerContrast> {
    let (cells, learners) = cells_and_learners(rows);
    let mut out = Vec::new();
    for &(side, n) in &cells {
        for inputs in InputSet::ALL {
            for l in
                learners.iter().filter(|l| *l != comparator && (comparator == super::MLP || *l != super::MLP))
            {
                let name = format!("{l}_vs_{comparator}_{side}_{n}_x{}", inputs.cols().len());
                out.extend(contrast(rows, &name, (l, inputs), (comparator, inputs), side, n));
            }
        }
    }
    out
}

/// Each learner with x1..x32 against itself with x1..x6, per cell.
pub fn characterisation(rows: &[DrawFit]) -> Vec<LearnerContrast> {
    let (cells, learners) = cells_and_learners(rows);
    let mut out = Vec::new();
    for &(side, n) in &cells {
        for l in &learners {
            let name = format!("{l}_x32_vs_x6_{side}_{n}");
            out.extend(contrast(rows, &name, (l, InputSet::All), (l, InputSet::Coordinates), side, n));
        }
    }
    out
}

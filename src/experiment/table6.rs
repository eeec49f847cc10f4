//! Table 6 at matched accuracy (the analysis stage of `kpk readings --table6`): each replicate of
//! the a-file trials (T4) taken at the first epoch with at most 51 misclassified positions (the
//! paper's residue), the positions it gets wrong, how often each position is wrong over the
//! replicates, and the overlap with the paper's 51 against what chance would give. The report
//! (`crate::report::reproduction::table6`) renders the result.
//!
//! Training is deterministic, so the state at epoch e is obtained by training the replicate's
//! config again for exactly e epochs: before e every state has more than 51 errors, so the
//! most-correct state of that run is the one at e.

use crate::chess::bitbase::Bitbase;
use crate::chess::position::KpkPosition;
use crate::dataset::{Dataset, SetName};
use crate::error::Result;
use crate::experiment::replicate::{ReplicateRun, Replicates, run_replicates};
use crate::experiment::{config::Trial, rows::MisclassifiedRow};
use crate::paper::tables::Table6Row;
use crate::stats;
use crate::train::config::StopRule;
use crate::train::keep::BestState;
use kpk_probe::Color;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The paper's residue of misclassified a-file positions (Table 6).
pub const PAPER_ERRORS: usize = 51;

/// One replicate at matched accuracy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchedRun {
    pub trial: String,
    pub seed: u64,
    /// The first epoch with at most 51 errors (m = 0); `None` if the run never got there.
    pub epoch: Option<usize>,
    pub errors: usize,
    /// Of them, on the paper's list of 51.
    pub on_paper_list: usize,
    /// Expected on the paper's list if the errors were drawn at random from the a-file positions.
    pub chance_expected: f64,
    /// P(at least `on_paper_list` by chance), the hypergeometric tail.
    pub chance_p: f64,
}

/// A position wrong in at least one replicate at matched accuracy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionCount {
    pub wk: String,
    pub bk: String,
    pub wp: String,
    pub result_wtm: String,
    pub result_btm: String,
    /// Replicates in which it is misclassified.
    pub runs: usize,
    /// Its row in the paper's Table 6, if listed there.
    pub paper_row: Option<u8>,
}

/// Table 6 at matched accuracy over the replicates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Matched {
    pub runs: Vec<MatchedRun>,
    /// Most frequent first.
    pub positions: Vec<PositionCount>,
    /// a-file wtm positions (T4).
    pub population: usize,
    /// % of all a-file wtm positions whose result changes with the side to move.
    pub critical_base_pct: f64,
}

/// Take every T4 replicate among `runs` at matched accuracy.
pub fn matched(
    trials: &[Trial],
    runs: &[ReplicateRun],
    paper6: &[Table6Row],
    bb: &Bitbase,
    jobs: usize,
) -> Result<Matched> {
    let mut at_epoch = Vec::new();
    let mut never = Vec::new();
    for r in runs.iter().filter(|r| trials[r.trial].config.training_set == SetName::T4) {
        let first = r.history().iter().find(|m| m.wrong_m0() <= PAPER_ERRORS).map(|m| m.epoch);
        match first {
            Some(e) => {
                at_epoch.push(r.run.trial.with(|c| {
                    c.max_epochs = e;
                    c.window = c.window.min(e);
                    c.stop = StopRule::ErrorTarget;
                    c.keep = BestState::MostCorrect;
                })?);
            }
            None => never.push(r.run.trial.clone()),
        }
    }
    let reruns = run_replicates(&at_epoch, Replicates::ONE, bb, jobs, &|_, _| {})?;
    let population = Dataset::named("T4", 0, bb)?.positions.len();
    let paper_key = |wk: &str, bk: &str, wp: &str| {
        paper6.iter().find(|p| p.wk == wk && p.bk == bk && p.wp == wp).map(|p| p.n)
    };
    let mut counts: BTreeMap<(String, String, String), PositionCount> = BTreeMap::new();
    let mut out = Vec::new();
    for r in &reruns {
        let wrong: Vec<&MisclassifiedRow> =
            r.run.misclassified.iter().filter(|m| m.from_set() == Some(SetName::T4)).collect();
        let on_list = wrong.iter().filter(|m| paper_key(&m.wk, &m.bk, &m.wp).is_some()).count();
        let (expected, p) = stats::chance_overlap(population, paper6.len(), wrong.len(), on_list);
        out.push(MatchedRun {
            trial: r.run.trial.name().to_string(),
            seed: r.run.trial.config.seed,
            epoch: Some(r.run.summary.epochs),
            errors: wrong.len(),
            on_paper_list: on_list,
            chance_expected: expected,
            chance_p: p,
        });
        for m in wrong {
            let entry =
                counts.entry((m.wk.clone(), m.bk.clone(), m.wp.clone())).or_insert_with(|| PositionCount {
                    wk: m.wk.clone(),
                    bk: m.bk.clone(),
                    wp: m.wp.clone(),
                    result_wtm: m.result_wtm.clone(),
                    result_btm: m.result_btm.clone(),
                    runs: 0,
                    paper_row: paper_key(&m.wk, &m.bk, &m.wp),
                });
            entry.runs += 1;
        }
    }
    for t in never {
        out.push(MatchedRun {
            trial: t.name().to_string(),
            seed: t.config.seed,
            epoch: None,
            errors: 0,
            on_paper_list: 0,
            chance_expected: 0.0,
            chance_p: 1.0,
        });
    }
    let mut positions: Vec<PositionCount> = counts.into_values().collect();
    positions.sort_by(|a, b| b.runs.cmp(&a.runs).then(a.paper_row.cmp(&b.paper_row)));
    let t4 = Dataset::named("T4", 0, bb)?;
    let changes = t4
        .positions
        .iter()
        .filter(|p| {
            let btm = KpkPosition::new(p.wk(), p.bk(), p.wp(), Color::Black);
            btm.map_or(true, |q| bb.outcome(&q) != bb.outcome(p))
        })
        .count();
    Ok(Matched {
        runs: out,
        positions,
        population,
        critical_base_pct: 100.0 * changes as f64 / population as f64,
    })
}

//! Section 5.1's remarks beside its claims: the untrained nets ("only half the positions would
//! initially be classified correctly"), the floor of 92%, the lowest trials (2 and 14), and the
//! sizes of T1 and T2 (the btm advantage "not thought to have been caused by the slightly larger
//! training set T2"). Each is measured here where the runs allow; the template says why the rest
//! cannot be.

use crate::chess::bitbase::Bitbase;
use crate::dataset::{Dataset, SetName};
use crate::error::Result;
use crate::experiment::config::Trial;
use crate::experiment::readings::{ReplicateOutcome, trial_number};
use crate::experiment::replicate::{self, ReplicateId, Replicates};
use crate::net::mlp::{Mlp, Workspace};
use crate::paper::tables::Scope;
use crate::stats::{self, compare::Difference};
use ndarray::Array2;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The remarks measured (each absent where its runs are).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Remarks {
    /// The untrained nets on their training sets: the small sets, then the whole sets.
    pub initial: Vec<Initial>,
    pub floor: Option<Floor>,
    pub lowest: Option<Lowest>,
    pub set_sizes: Option<SetSizes>,
}

/// The nets as initialised (weights from [-0.1, 0.1], section 4.5), before any training: their
/// accuracy on their training set at m = 0, one per replicate's weight seed and draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Initial {
    /// Small (trials 1-37) or whole sets (38-41), written "small" or "whole".
    pub sets: Scope,
    pub nets: usize,
    pub mean: f64,
    /// The mean's interval by the data draw (small sets only: the whole sets have one draw).
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub min: f64,
    pub max: f64,
    /// Nets that give every training position the same class (all wins or all draws).
    pub one_class: usize,
    /// Nets within 10 points of half (40-60 %).
    pub near_half: usize,
}

/// "All trials produced NNs with at least 92% accuracy on the training set", over our runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Floor {
    pub runs: usize,
    pub below: usize,
    /// The paper's floor, %.
    pub threshold: f64,
    pub lowest: f64,
    /// The 2.5 % quantile of the runs' training accuracy.
    pub q025: f64,
}

/// A trial's mean training accuracy over its runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrialMean {
    pub trial: u8,
    pub mean: f64,
}

/// "The lowest success rates in trials 2 and 14": the trials ranked by mean training accuracy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lowest {
    pub n: usize,
    /// Ranks of trials 2 and 14, 1 = lowest.
    pub rank2: usize,
    pub rank14: usize,
    /// The three lowest.
    pub lowest: Vec<TrialMean>,
    /// Trial 1, whose config is trial 2's but for the weight seed, against trial 2, by the draw.
    pub trial1_minus_trial2: f64,
    pub trial1_minus_trial2_lo: f64,
    pub trial1_minus_trial2_hi: f64,
}

/// The sizes of the small training sets (section 4.5: T1 125 wtm, T2 136 btm positions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetSizes {
    pub t1: usize,
    pub t2: usize,
}

/// The paper's floor of training accuracy over trials 1-37, %.
const FLOOR_PCT: f64 = 92.0;

/// A difference of means a − b with its interval by the data draw (section 5.1's mixed model).
pub type ByDraw<'a> = &'a dyn Fn(&[(u64, f64)], &[(u64, f64)]) -> Option<Difference>;

/// One small-set run: its trial, its draw and its training accuracy, %.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainRun {
    pub trial: u8,
    pub draw: usize,
    pub train: f64,
}

/// The remarks on Table 5's trials `configs`, every run under every reading `replicates`, and
/// the small-set runs under their configs' reading `runs`; intervals by `by_draw`.
pub fn analyse(
    configs: &[Trial],
    replicates: &[ReplicateOutcome],
    runs: &[TrainRun],
    by_draw: ByDraw<'_>,
    bb: &Bitbase,
) -> Result<Remarks> {
    let train: Vec<f64> = runs.iter().map(|r| r.train).collect();
    let floor = (!train.is_empty()).then(|| Floor {
        runs: train.len(),
        below: train.iter().filter(|&&t| t < FLOOR_PCT).count(),
        threshold: FLOOR_PCT,
        lowest: train.iter().copied().fold(f64::INFINITY, f64::min),
        q025: stats::quantile(&train, 0.025),
    });
    Ok(Remarks {
        initial: initial(configs, replicates, by_draw, bb)?,
        floor,
        lowest: lowest(runs, by_draw),
        set_sizes: Some(SetSizes {
            t1: Dataset::of(SetName::T1, 0, bb).len(),
            t2: Dataset::of(SetName::T2, 0, bb).len(),
        }),
    })
}

fn lowest(runs: &[TrainRun], by_draw: ByDraw<'_>) -> Option<Lowest> {
    let mut by_trial: BTreeMap<u8, Vec<f64>> = BTreeMap::new();
    for r in runs {
        by_trial.entry(r.trial).or_default().push(r.train);
    }
    let mut means: Vec<TrialMean> =
        by_trial.iter().map(|(&trial, xs)| TrialMean { trial, mean: stats::mean(xs) }).collect();
    means.sort_by(|a, b| a.mean.total_cmp(&b.mean));
    let rank = |t: u8| means.iter().position(|m| m.trial == t).map(|p| p + 1);
    let of = |t: u8| -> Vec<(u64, f64)> {
        runs.iter().filter(|r| r.trial == t).map(|r| (r.draw as u64, r.train)).collect()
    };
    let d = by_draw(&of(1), &of(2))?;
    Some(Lowest {
        n: means.len(),
        rank2: rank(2)?,
        rank14: rank(14)?,
        lowest: means.iter().take(3).cloned().collect(),
        trial1_minus_trial2: d.estimate,
        trial1_minus_trial2_lo: d.lo,
        trial1_minus_trial2_hi: d.hi,
    })
}

/// Every replicate's net as initialised, on its training set: the replicates are those of
/// `replicates` (any reading: each run's weight seed and draw), rebuilt from the configs as
/// [`replicate::variants`] builds them.
fn initial(
    configs: &[Trial],
    replicates: &[ReplicateOutcome],
    by_draw: ByDraw<'_>,
    bb: &Bitbase,
) -> Result<Vec<Initial>> {
    let mut ids: BTreeMap<u8, Vec<ReplicateId>> = BTreeMap::new();
    for r in replicates {
        ids.entry(r.trial)
            .or_default()
            .push(ReplicateId { seed_index: r.seed_index, draw_index: r.draw_index });
    }
    let most = |f: &dyn Fn(&ReplicateId) -> usize| ids.values().flatten().map(f).max().map_or(1, |m| m + 1);
    let (seeds, draws) = (most(&|i: &ReplicateId| i.seed_index), most(&|i: &ReplicateId| i.draw_index));
    let reps = Replicates { seeds, draws, whole_set_seeds: seeds };
    let mut sets: HashMap<(SetName, u64), (Array2<f64>, Vec<bool>)> = HashMap::new();
    let (mut small, mut whole) = (Vec::new(), Vec::new());
    for t in configs {
        let Some(mine) = trial_number(t.name()).and_then(|n| ids.get(&n)) else { continue };
        for (id, v) in replicate::variants(t, reps)?.into_iter().filter(|(id, _)| mine.contains(id)) {
            let c = &v.config;
            let (x, wins) = sets.entry((c.training_set, c.data_seed)).or_insert_with(|| {
                let d = Dataset::of(c.training_set, c.data_seed, bb);
                (d.inputs(c.input_coding), d.wins())
            });
            let net = Mlp::new(v.topology().widths(), c.slope, c.seed)?;
            let (correct, classes) = untrained(&net, &v, x, wins);
            let pct = 100.0 * correct as f64 / wins.len() as f64;
            let entry = (id.draw_index as u64, pct, classes == 1);
            if c.training_set.scope() == Scope::Small { small.push(entry) } else { whole.push(entry) }
        }
    }
    let mut out = Vec::new();
    for (scope, nets) in [(Scope::Small, small), (Scope::Whole, whole)] {
        if nets.is_empty() {
            continue;
        }
        let pcts: Vec<f64> = nets.iter().map(|n| n.1).collect();
        let by_draw_pct: Vec<(u64, f64)> = nets.iter().map(|n| (n.0, n.1)).collect();
        let zero: Vec<(u64, f64)> = by_draw_pct.iter().map(|&(d, _)| (d, 0.0)).collect();
        let interval = (scope == Scope::Small).then(|| by_draw(&by_draw_pct, &zero)).flatten();
        out.push(Initial {
            sets: scope,
            nets: nets.len(),
            mean: stats::mean(&pcts),
            lo: interval.map(|i| i.lo),
            hi: interval.map(|i| i.hi),
            min: pcts.iter().copied().fold(f64::INFINITY, f64::min),
            max: pcts.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            one_class: nets.iter().filter(|n| n.2).count(),
            near_half: pcts.iter().filter(|&&p| (40.0..=60.0).contains(&p)).count(),
        });
    }
    Ok(out)
}

/// The untrained net on a set: positions right at m = 0, and how many classes it gives (1 or 2).
fn untrained(net: &Mlp, trial: &Trial, x: &Array2<f64>, wins: &[bool]) -> (usize, usize) {
    let plain = trial.output().without_margin();
    let mut ws = Workspace::new(net);
    let (mut correct, mut said_win, mut said_other) = (0, false, false);
    for (row, &win) in x.rows().into_iter().zip(wins) {
        let c = plain.classify(net.forward_with(&mut ws, row.as_slice().expect("standard layout")));
        correct += usize::from(c.is_correct(win));
        let w = c.is_correct(true);
        (said_win, said_other) = (said_win || w, said_other || !w);
    }
    (correct, usize::from(said_win) + usize::from(said_other))
}

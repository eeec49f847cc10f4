//! `mlp`: the paper's MLP (section 3) trained by kpk's trainer (section 4.5) under a Table 5
//! trial's config: the same topology, output coding, error function and target, optimiser,
//! stopping rule and kept state. Only the input layer narrows to the input set (x1..x6: six
//! inputs), the seed is the replicate's, and the epoch budget may be capped (the analysis says
//! where).
//!
//! # Encoding
//!
//! Every weight and bias as an IEEE single (32 bits); the net's answers are measured from the
//! single-rounded weights (section 4.3's reading at m = 0: a win when the net classifies the
//! position a win; an undecided two-output answer counts as a draw).

use super::design::{CONVERGED, MlpBudgets};
use super::{InputSet, Learner, Model, Row, Samples};
use crate::error::Result;
use crate::experiment::config::Trial;
use crate::net::mlp::{Mlp, Workspace};
use crate::net::output::{Classification, OutputCoding};
use crate::train::{self, TrainData, config::StopRule, config::TrainConfig};
use ndarray::Array2;

/// The paper's MLP under a trial's config.
#[derive(Clone, Debug)]
pub struct PaperMlp {
    pub trial: Trial,
    /// The epoch budget, if capped below the trial's.
    pub max_epochs: Option<usize>,
}

impl PaperMlp {
    pub fn new(trial: Trial, max_epochs: Option<usize>) -> PaperMlp {
        PaperMlp { trial, max_epochs }
    }

    /// The trial's training config with the budget cap applied.
    pub fn train_config(&self) -> TrainConfig {
        let mut cfg = self.trial.train_config();
        if let Some(m) = self.max_epochs {
            cfg.max_epochs = cfg.max_epochs.min(m);
        }
        cfg
    }

    /// The trial's layer widths with the input layer narrowed to `inputs`.
    pub fn widths(&self, inputs: InputSet) -> Vec<usize> {
        let mut w = self.trial.topology().widths().to_vec();
        w[0] = inputs.cols().len();
        w
    }

    /// Train `net` (shaped for `inputs`) on `data`; the kept net and the epochs run.
    pub fn train_net(&self, net: Mlp, data: &Samples, inputs: InputSet) -> Result<(Mlp, usize, usize)> {
        train_net_with(net, data, inputs, &self.train_config())
    }

    /// A fitted model of `net` trained under `cfg`.
    fn fit_with(
        &self,
        data: &Samples,
        inputs: InputSet,
        seed: u64,
        cfg: &TrainConfig,
    ) -> Result<Box<dyn Model>> {
        let net = Mlp::new(&self.widths(inputs), self.trial.config.slope, seed)?;
        let (net, epochs, _) = train_net_with(net, data, inputs, cfg)?;
        Ok(Box::new(MlpModel {
            net: single_rounded(&net)?,
            output: self.trial.output().without_margin(),
            inputs,
            epochs,
        }))
    }
}

/// Train `net` (shaped for `inputs`) on `data` under `cfg`; the kept net, epochs run and kept.
fn train_net_with(
    net: Mlp,
    data: &Samples,
    inputs: InputSet,
    cfg: &TrainConfig,
) -> Result<(Mlp, usize, usize)> {
    let x = natural_inputs(data, inputs);
    let train_data = TrainData { inputs: x.view(), wins: &data.wins };
    let r = train::train(net, &train_data, None, cfg, &mut |_| {})?;
    Ok((r.net, r.epochs_run, r.best_epoch))
}

/// The paper's MLP given a budget to converge: the same trial's net, step and kept state, without
/// the error target; it stops after `patience` epochs without a gain in the training set's
/// correct count, or at the epoch cap [`MlpBudgets::converged_epochs`] for the training size.
#[derive(Clone, Debug)]
pub struct ConvergedMlp {
    pub mlp: PaperMlp,
    pub budgets: MlpBudgets,
}

impl ConvergedMlp {
    /// The training config on `n` positions.
    pub fn train_config(&self, n: usize) -> TrainConfig {
        let mut cfg = self.mlp.trial.train_config();
        cfg.stop = StopRule::NoImprovement;
        cfg.patience = Some(self.budgets.converged_patience);
        cfg.max_epochs = self.budgets.converged_epochs(n);
        cfg
    }
}

impl Learner for ConvergedMlp {
    fn name(&self) -> &'static str {
        CONVERGED
    }
    fn fit(&self, data: &Samples, inputs: InputSet, seed: u64) -> Result<Box<dyn Model>> {
        self.mlp.fit_with(data, inputs, seed, &self.train_config(data.len()))
    }
}

/// Natural inputs (Table 4's values), the input set's columns: one row per position.
pub fn natural_inputs(data: &Samples, inputs: InputSet) -> Array2<f64> {
    let cols = inputs.cols();
    let k = cols.len();
    let v: Vec<f64> = data.rows.iter().flat_map(|x| x[cols.clone()].iter().map(|&a| f64::from(a))).collect();
    Array2::from_shape_vec((data.len(), k), v).expect("rows × columns values")
}

/// The net with every weight rounded to an IEEE single.
pub fn single_rounded(net: &Mlp) -> Result<Mlp> {
    net.with_layers(net.layers().iter().map(|w| w.mapv(|v| f64::from(v as f32))).collect())
}

/// A trained MLP.
pub struct MlpModel {
    pub net: Mlp,
    pub output: OutputCoding,
    pub inputs: InputSet,
    pub epochs: usize,
}

impl Model for MlpModel {
    fn predict(&self, x: &Row) -> bool {
        let input: Vec<f64> = x[self.inputs.cols()].iter().map(|&a| f64::from(a)).collect();
        let mut ws = Workspace::new(&self.net);
        self.output.classify(self.net.forward_with(&mut ws, &input)) == Classification::Win
    }
    fn predict_all(&self, rows: &[Row]) -> Vec<bool> {
        let mut ws = Workspace::new(&self.net);
        let mut input = vec![0.0; self.inputs.cols().len()];
        rows.iter()
            .map(|x| {
                for (v, &a) in input.iter_mut().zip(&x[self.inputs.cols()]) {
                    *v = f64::from(a);
                }
                self.output.classify(self.net.forward_with(&mut ws, &input)) == Classification::Win
            })
            .collect()
    }
    fn model_bits(&self) -> u64 {
        32 * self.net.weight_count() as u64
    }
    /// The output unit's value, for one-output nets (NN1-NN5, section 4.3).
    fn win_probability(&self, x: &Row) -> Option<f64> {
        if self.output != OutputCoding::One {
            return None;
        }
        let input: Vec<f64> = x[self.inputs.cols()].iter().map(|&a| f64::from(a)).collect();
        let mut ws = Workspace::new(&self.net);
        Some(self.net.forward_with(&mut ws, &input)[0])
    }
    fn passes(&self) -> u64 {
        self.epochs as u64
    }
}

impl Learner for PaperMlp {
    fn name(&self) -> &'static str {
        super::MLP
    }
    fn variant(&self) -> String {
        String::new()
    }
    fn fit(&self, data: &Samples, inputs: InputSet, seed: u64) -> Result<Box<dyn Model>> {
        self.fit_with(data, inputs, seed, &self.train_config())
    }
}

//! Training a [`Mlp`] on classified positions (sections 4.3 and 4.5): online backpropagation as the
//! paper ran it, the variants its section 6 asks about (momentum, annealing), and minibatch Adam as
//! a modern baseline; the error functions E1 and E2; the stopping rule; best-epoch selection; and
//! per-epoch metrics through a callback. Nothing here prints.
//!
//! # What is minimised
//!
//! The paper names its procedure (Rich and Knight's backpropagation, section 3) but not its loss;
//! that procedure descends the squared error, so each position contributes L = ½·Σ_j (y_j − d_j)².
//! E1 and E2 are the paper's *measures* of progress, used by the stopping rule, not losses.
//!
//! # Error measures (section 4.5)
//!
//! With y_ij the output of neuron j for training position i and d_ij its target,
//! E1 = mean over i and j of |y_ij − d_ij| and E2 = max over i and j of |y_ij − d_ij|. For a two-output
//! net the mean and the maximum run over both outputs of every position (the paper's "y_ij, d_ij:
//! output neuron j to object i"). They are measured with the end-of-epoch weights (section 4.3:
//! "the classification can be noted either as soon as the training position is encountered or at
//! the end of an epoch of training. The experiments here did the latter.").
//!
//! # Stopping rule (section 4.5) — the reading implemented
//!
//! The paper's sentence ("Training was terminated if, for the last 20 epochs of training, the error
//! target had been exceeded or the NN had failed to improve the number of positions classified
//! correctly") reads literally as the opposite of a success test; its algorithm box states the
//! intent: "consider whether the error measure E1/2 has been consistently below the error target E,
//! and whether the NN's success rate on the training set positions has apparently peaked". We read
//! "exceeded" as "bettered" and implement, checked at the end of each epoch t (counting from 1), with
//! W = `window` (20 in the paper):
//!
//! 1. [`StopReason::ErrorTarget`]: the error measure was ≤ the target at the end of each of the last
//!    W epochs t−W+1..=t ("consistently below"; "within" includes equality).
//! 2. [`StopReason::NoImprovement`]: none of the last W epochs classified more training positions
//!    correctly than the best of all the epochs before them, i.e. the best count so far was first
//!    reached at epoch ≤ t − W ("apparently peaked").
//! 3. [`StopReason::MaxEpochs`]: t = `max_epochs`.
//!
//! If several hold at once the first in that list is reported.
//!
//! # Which end-of-epoch state is the result
//!
//! Section 4.5 says "choose the end-of-epoch NN-state with the minimal E1/2"
//! ([`BestState::LeastError`]). That choice is degenerate with E2: once a net is confident, the few
//! positions it still gets wrong have |y − d| near 1, so E2 *rises* as accuracy improves and the
//! least-E2 state is an early, unconfident one. The default is therefore
//! [`BestState::MostCorrect`]: the state classifying most training positions correctly at m = 0,
//! ties going to the lesser error measure, then to the earliest epoch.

use crate::error::{Error, Result};
use crate::net::batch::BatchWorkspace;
use crate::net::mlp::{Mlp, Workspace};
use crate::net::simd::prefetch;
use crate::net::sweep::Sweep;
use ndarray::{Array2, ArrayView2};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::Instant;

mod stopping;
pub use stopping::{Replay, StopRule, StoppingRule, replay};

/// The error measure the stopping rule and best-epoch choice use (section 4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorFunction {
    /// Mean |y − d| over training positions and outputs.
    E1,
    /// Max |y − d| over training positions and outputs.
    E2,
}

/// How targets are coded and outputs read (section 4.3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum OutputCoding {
    /// One output, target 1 for a win and 0 for a draw; y ≥ 0.5 reads as a win, else a draw.
    One,
    /// Two outputs, targets (1, 0) for a win and (0, 1) for a draw; y1 ≥ 0.5 + m and y2 < 0.5 − m
    /// reads as a win, y1 < 0.5 − m and y2 ≥ 0.5 + m as a draw, anything else as undecided. The
    /// paper uses m = 0 and m = 0.4 (trials 38–41 stop on m = 0.4).
    Two { margin: f64 },
}

impl OutputCoding {
    /// Section 4.3's plain reading of the same outputs (m = 0): what Tables 5 and 6 count.
    pub fn without_margin(self) -> OutputCoding {
        match self {
            OutputCoding::One => OutputCoding::One,
            OutputCoding::Two { .. } => OutputCoding::Two { margin: 0.0 },
        }
    }

    /// Number of output neurons.
    pub fn width(self) -> usize {
        match self {
            OutputCoding::One => 1,
            OutputCoding::Two { .. } => 2,
        }
    }

    /// Target outputs for a position: a win is (1) or (1, 0), a draw (0) or (0, 1).
    pub fn target(self, win: bool, out: &mut [f64]) {
        let w = if win { 1.0 } else { 0.0 };
        match self {
            OutputCoding::One => out[0] = w,
            OutputCoding::Two { .. } => {
                out[0] = w;
                out[1] = 1.0 - w;
            }
        }
    }

    /// Read outputs as a classification (section 4.3).
    pub fn classify(self, y: &[f64]) -> Classification {
        match self {
            OutputCoding::One => {
                if y[0] >= 0.5 {
                    Classification::Win
                } else {
                    Classification::Draw
                }
            }
            OutputCoding::Two { margin: m } => {
                if y[0] >= 0.5 + m && y[1] < 0.5 - m {
                    Classification::Win
                } else if y[0] < 0.5 - m && y[1] >= 0.5 + m {
                    Classification::Draw
                } else {
                    Classification::Undecided
                }
            }
        }
    }

    /// Section 4.3's margin m lies in [0, 0.5): at 0.5 nothing would read as a win or a draw.
    /// The one statement of the rule, checked where a coding enters kpk (a trial config, a saved
    /// net, a [`TrainConfig`]).
    pub fn validate(self) -> Result<()> {
        match self {
            OutputCoding::One => Ok(()),
            OutputCoding::Two { margin } if (0.0..0.5).contains(&margin) => Ok(()),
            OutputCoding::Two { margin } => {
                Err(Error::Invalid(format!("output margin must be in [0, 0.5), got {margin}")))
            }
        }
    }
}

/// A net's verdict on one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Classification {
    Win,
    Draw,
    /// Only with two outputs: neither reading holds (counted as not correct).
    Undecided,
}

impl Classification {
    /// Whether the verdict is right for a position whose true outcome is a win (`true`) or a draw.
    pub fn is_correct(self, win: bool) -> bool {
        matches!((self, win), (Classification::Win, true) | (Classification::Draw, false))
    }
}

/// Classify one input row (allocates a workspace; loops should use [`OutputCoding::classify`] on
/// [`Mlp::forward_with`]'s outputs).
pub fn classify(net: &Mlp, output: OutputCoding, input: &[f64]) -> Classification {
    let mut ws = Workspace::new(net);
    output.classify(net.forward_with(&mut ws, input))
}

/// Learning-rate annealing (section 6 asks whether it would have helped; the paper used none).
/// η_t is the rate used during epoch t (t from 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Anneal {
    /// η_t = η.
    #[default]
    None,
    /// η_t = η · factor^(t−1), 0 < factor ≤ 1.
    Exponential { factor: f64 },
    /// η_t = η / (1 + (t−1)/epochs): halves after `epochs` epochs, then decays like 1/t.
    Inverse { epochs: f64 },
}

impl Anneal {
    /// The learning rate for epoch `epoch` (from 1) given the base rate.
    pub fn rate(self, base: f64, epoch: usize) -> f64 {
        let t = (epoch.max(1) - 1) as f64;
        match self {
            Anneal::None => base,
            Anneal::Exponential { factor } => base * factor.powf(t),
            Anneal::Inverse { epochs } => base / (1.0 + t / epochs),
        }
    }
}

fn default_beta1() -> f64 {
    0.9
}
fn default_beta2() -> f64 {
    0.999
}
fn default_epsilon() -> f64 {
    1e-8
}

/// The weight-update procedure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Optimiser {
    /// Section 4.5: weights updated after every position, positions in one fixed order. `momentum`
    /// μ ∈ [0, 1) (0 = the paper); `reshuffle` draws a new order each epoch instead.
    Online {
        learning_rate: f64,
        #[serde(default)]
        momentum: f64,
        #[serde(default)]
        anneal: Anneal,
        #[serde(default)]
        reshuffle: bool,
    },
    /// Minibatch Adam (Kingma & Ba 2015) on the batch-mean squared error, the order reshuffled
    /// every epoch, the last batch possibly short.
    Adam {
        learning_rate: f64,
        batch_size: usize,
        #[serde(default = "default_beta1")]
        beta1: f64,
        #[serde(default = "default_beta2")]
        beta2: f64,
        #[serde(default = "default_epsilon")]
        epsilon: f64,
    },
}

/// Which end-of-epoch state [`train`] returns; a trial config's `keep` (written `most_correct`,
/// `least_error`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BestState {
    /// Section 4.5 read literally: the least error measure (the earliest epoch on a tie).
    LeastError,
    /// The most training positions classified correctly at m = 0 (section 4.3's plain reading,
    /// as Tables 5 and 6 count; the margin only enters the stopping rule), then the least error
    /// measure, then the earliest epoch. The default, and every Table 5 config's choice: with E2
    /// the least-error state is degenerate (see the module docs).
    #[default]
    MostCorrect,
}

impl BestState {
    /// The rank of an end-of-epoch state, given the training positions it gets wrong at m = 0
    /// and its error measure: the kept state has the least rank, the earliest on a tie.
    pub fn rank(self, wrong_m0: usize, measure: f64) -> (usize, f64) {
        match self {
            BestState::LeastError => (0, measure),
            BestState::MostCorrect => (wrong_m0, measure),
        }
    }
}

/// The paper's online learning rate as chosen for kpk (the paper does not state η): see
/// docs/TRAINER.md for the experiment behind it.
pub const DEFAULT_LEARNING_RATE: f64 = 0.1;

/// Everything that decides a training run besides the net and the data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    pub error_function: ErrorFunction,
    /// The error target E (the paper: 0.05, 0.10, 0.15).
    pub error_target: f64,
    pub output: OutputCoding,
    pub optimiser: Optimiser,
    pub max_epochs: usize,
    /// Epochs the stopping rule looks back over (section 4.5: 20).
    #[serde(default = "default_window")]
    pub window: usize,
    /// Seeds the presentation order (not the weights: those come from the net's own seed).
    pub seed: u64,
    /// Which end-of-epoch state is the result (see [`BestState`] for the default and why).
    #[serde(default)]
    pub best: BestState,
    /// Which of section 4.5's two stopping conditions end training (see [`StopRule`]).
    #[serde(default)]
    pub stop: StopRule,
    /// Epochs without a gain in the correct count before the no-improvement condition stops
    /// training; `None`: the same as `window` (the paper's one 20-epoch look-back).
    #[serde(default)]
    pub patience: Option<usize>,
}

fn default_window() -> usize {
    20
}

impl Default for TrainConfig {
    /// The paper's setting for its larger nets: E2 with target 0.10, one output, online
    /// backpropagation without momentum or annealing in a fixed order, window 20.
    fn default() -> TrainConfig {
        TrainConfig {
            error_function: ErrorFunction::E2,
            error_target: 0.10,
            output: OutputCoding::One,
            optimiser: Optimiser::Online {
                learning_rate: DEFAULT_LEARNING_RATE,
                momentum: 0.0,
                anneal: Anneal::None,
                reshuffle: false,
            },
            max_epochs: 2000,
            window: 20,
            seed: 0,
            best: BestState::default(),
            stop: StopRule::Either,
            patience: None,
        }
    }
}

impl TrainConfig {
    /// Check every value once, with a message naming the bad one.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Invalid(m));
        if !(self.error_target.is_finite() && self.error_target >= 0.0) {
            return bad(format!("error target must be finite and >= 0, got {}", self.error_target));
        }
        self.output.validate()?;
        if self.max_epochs == 0 {
            return bad("max_epochs must be at least 1".into());
        }
        if self.window == 0 {
            return bad("window must be at least 1".into());
        }
        if self.patience == Some(0) {
            return bad("patience must be at least 1".into());
        }
        let positive = |name: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                bad(format!("{name} must be finite and > 0, got {v}"))
            }
        };
        match self.optimiser {
            Optimiser::Online { learning_rate, momentum, anneal, .. } => {
                positive("learning rate", learning_rate)?;
                if !(0.0..1.0).contains(&momentum) {
                    return bad(format!("momentum must be in [0, 1), got {momentum}"));
                }
                match anneal {
                    Anneal::None => {}
                    Anneal::Exponential { factor } => {
                        if !(factor > 0.0 && factor <= 1.0) {
                            return bad(format!("annealing factor must be in (0, 1], got {factor}"));
                        }
                    }
                    Anneal::Inverse { epochs } => positive("annealing epochs", epochs)?,
                }
            }
            Optimiser::Adam { learning_rate, batch_size, beta1, beta2, epsilon } => {
                positive("learning rate", learning_rate)?;
                positive("Adam epsilon", epsilon)?;
                if batch_size == 0 {
                    return bad("batch size must be at least 1".into());
                }
                for (name, b) in [("beta1", beta1), ("beta2", beta2)] {
                    if !(0.0..1.0).contains(&b) {
                        return bad(format!("Adam {name} must be in [0, 1), got {b}"));
                    }
                }
            }
        }
        Ok(())
    }

    /// The configured error measure (E1 or E2) of one epoch.
    pub fn measure(&self, e1: f64, e2: f64) -> f64 {
        match self.error_function {
            ErrorFunction::E1 => e1,
            ErrorFunction::E2 => e2,
        }
    }
}

/// Positions to train or test on: one input row per position (the input coding already applied)
/// and whether each is a win.
#[derive(Clone, Copy, Debug)]
pub struct TrainData<'a> {
    pub inputs: ArrayView2<'a, f64>,
    pub wins: &'a [bool],
}

/// What one epoch achieved, measured with the end-of-epoch weights: one row of a trial's
/// `metrics.csv` (the columns in field order). Counts and accuracies are at the output coding's
/// margin (the stopping condition's reading, section 4.3) unless they say m = 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochMetrics {
    /// From 1.
    pub epoch: usize,
    pub e1: f64,
    pub e2: f64,
    /// Training positions classified correctly.
    pub correct: usize,
    /// Classified, but wrongly.
    pub misclassified: usize,
    /// Not classified (two outputs with a margin only).
    pub undecided: usize,
    /// Training positions.
    pub total: usize,
    pub train_accuracy_pct: f64,
    /// Training accuracy under section 4.3's plain reading (m = 0), as Tables 5 and 6 count;
    /// equals `train_accuracy_pct` unless the net has two outputs and a margin. Always measured by
    /// [`train`]; `None` only in a `metrics.csv` written before the column existed.
    pub train_accuracy_m0_pct: Option<f64>,
    pub test_accuracy_pct: Option<f64>,
    /// Seconds since training began, at the end of this epoch's measurements: for progress
    /// displays only, never written (machine-dependent figures stay out of report folders).
    #[serde(skip)]
    pub wall_seconds: f64,
}

impl EpochMetrics {
    /// Training accuracy at m = 0, the figure the report, Figure 3 and Table 6 use; the accuracy
    /// at the margin where m = 0 was not measured.
    pub fn accuracy_m0_pct(&self) -> f64 {
        self.train_accuracy_m0_pct.unwrap_or(self.train_accuracy_pct)
    }

    /// Training positions not classified correctly at m = 0 (the count behind
    /// [`EpochMetrics::accuracy_m0_pct`], recovered exactly from the percentage).
    pub fn wrong_m0(&self) -> usize {
        let correct = (self.accuracy_m0_pct() * self.total as f64 / 100.0).round() as usize;
        self.total - correct.min(self.total)
    }
}

/// Why training stopped (see the module docs for the reading of section 4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    ErrorTarget,
    NoImprovement,
    MaxEpochs,
}

/// The outcome of [`train`].
#[derive(Clone, Debug)]
pub struct TrainResult {
    /// The end-of-epoch state the config's kept-state rule (`best`) chose.
    pub net: Mlp,
    pub best_epoch: usize,
    pub epochs_run: usize,
    pub history: Vec<EpochMetrics>,
    pub stop_reason: StopReason,
}

/// The training set laid out for the hot loops: contiguous rows and precomputed targets.
struct Prepared<'a> {
    inputs: ndarray::CowArray<'a, f64, ndarray::Ix2>,
    targets: Vec<f64>,
    wins: &'a [bool],
}

impl<'a> Prepared<'a> {
    fn new(data: &TrainData<'a>, net: &Mlp, output: OutputCoding, what: &str) -> Result<Prepared<'a>> {
        let (n, width) = data.inputs.dim();
        if n == 0 {
            return Err(Error::Invalid(format!("the {what} set is empty")));
        }
        if width != net.n_inputs() {
            return Err(Error::Invalid(format!(
                "the {what} set has {width} inputs per position, the net takes {}",
                net.n_inputs()
            )));
        }
        if data.wins.len() != n {
            return Err(Error::Invalid(format!(
                "the {what} set has {n} input rows but {} outcomes",
                data.wins.len()
            )));
        }
        // The fast scan first; positions are only counted when a bad value is there to name.
        if !data.inputs.iter().all(|v| v.is_finite()) {
            let ((i, j), v) = data
                .inputs
                .indexed_iter()
                .find(|(_, v)| !v.is_finite())
                .expect("a non-finite input was seen");
            return Err(Error::Invalid(format!(
                "the {what} set has a non-finite input {v} at row {i}, column {j}"
            )));
        }
        let o = output.width();
        let mut targets = vec![0.0; n * o];
        for (t, &win) in targets.chunks_exact_mut(o).zip(data.wins) {
            output.target(win, t);
        }
        let view: ArrayView2<'a, f64> = data.inputs;
        let inputs = if view.is_standard_layout() {
            ndarray::CowArray::from(view)
        } else {
            ndarray::CowArray::from(view.as_standard_layout().into_owned())
        };
        Ok(Prepared { inputs, targets, wins: data.wins })
    }

    fn len(&self) -> usize {
        self.wins.len()
    }

    fn rows(&self) -> &[f64] {
        self.inputs.as_slice().expect("standard layout")
    }
}

/// End-of-epoch measurements over one set.
struct Evaluation {
    e1: f64,
    e2: f64,
    correct: usize,
    misclassified: usize,
    undecided: usize,
    correct_m0: usize,
}

/// The measurements of section 4.5 over every position of `data`, one block of positions at a time
/// ([`Mlp::forward_each`]); E1's sum runs over positions and outputs in order.
fn evaluate(net: &Mlp, sweep: &mut Sweep, data: &Prepared, output: OutputCoding) -> Evaluation {
    let o = output.width();
    let (mut sum, mut max) = (0.0f64, 0.0f64);
    let (mut correct, mut misclassified, mut undecided, mut correct_m0) = (0, 0, 0, 0);
    let plain = output.without_margin();
    net.forward_each(sweep, data.rows(), |i, y| {
        let (d, win) = (&data.targets[i * o..(i + 1) * o], data.wins[i]);
        for (y, d) in y.iter().zip(d) {
            let e = (y - d).abs();
            sum += e;
            max = max.max(e);
        }
        match output.classify(y) {
            Classification::Undecided => undecided += 1,
            c if c.is_correct(win) => correct += 1,
            _ => misclassified += 1,
        }
        correct_m0 += usize::from(plain.classify(y).is_correct(win));
    });
    Evaluation { e1: sum / (data.len() * o) as f64, e2: max, correct, misclassified, undecided, correct_m0 }
}

/// Train `net` on `train` (measuring `test` too, if given, after each epoch) under `cfg`, calling
/// `on_epoch` with each epoch's metrics. Returns the end-of-epoch state that `cfg.best` keeps (the
/// least error measure, or the most positions right); see the module docs for the stopping rule.
///
/// Errors on an invalid config, on data that does not fit the net or the output coding, and if the
/// weights stop being finite.
pub fn train(
    net: Mlp,
    train: &TrainData,
    test: Option<&TrainData>,
    cfg: &TrainConfig,
    on_epoch: &mut dyn FnMut(&EpochMetrics),
) -> Result<TrainResult> {
    cfg.validate()?;
    if net.n_outputs() != cfg.output.width() {
        return Err(Error::Invalid(format!(
            "the net has {} outputs but the output coding {:?} needs {}",
            net.n_outputs(),
            cfg.output,
            cfg.output.width()
        )));
    }
    let data = Prepared::new(train, &net, cfg.output, "training")?;
    let test = test.map(|t| Prepared::new(t, &net, cfg.output, "testing")).transpose()?;
    let started = Instant::now();
    let mut net = net;
    let mut ws = Workspace::new(&net);
    let mut sweep = Sweep::new();
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    // Section 4.5: "an arbitrary order which did not change from one training epoch to the next".
    // The data's own order may be systematic (datasets list positions by square), so the one fixed
    // order is a seeded random permutation, drawn once.
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    order.shuffle(&mut rng);
    let mut stepper = Stepper::new(&net, cfg.optimiser, data.len());

    let mut history = Vec::new();
    // (rank key, epoch, state): a lesser key is better.
    let mut best: Option<((usize, f64), usize, Mlp)> = None;
    let mut rule = StoppingRule::new(cfg);
    let mut epoch = 0;
    let stop_reason = loop {
        epoch += 1;
        stepper.epoch(&mut net, &mut ws, &data, &mut order, &mut rng, epoch);
        let ev = evaluate(&net, &mut sweep, &data, cfg.output);
        if !(ev.e1.is_finite() && net.layers().iter().all(|w| w.iter().all(|v| v.is_finite()))) {
            return Err(Error::Invalid(format!(
                "training diverged at epoch {epoch}: weights are no longer finite"
            )));
        }
        let test_accuracy_pct = test.as_ref().map(|t| {
            let e = evaluate(&net, &mut sweep, t, cfg.output);
            100.0 * e.correct as f64 / t.len() as f64
        });
        let metrics = EpochMetrics {
            epoch,
            e1: ev.e1,
            e2: ev.e2,
            correct: ev.correct,
            total: data.len(),
            misclassified: ev.misclassified,
            undecided: ev.undecided,
            train_accuracy_pct: 100.0 * ev.correct as f64 / data.len() as f64,
            train_accuracy_m0_pct: Some(100.0 * ev.correct_m0 as f64 / data.len() as f64),
            test_accuracy_pct,
            wall_seconds: started.elapsed().as_secs_f64(),
        };
        on_epoch(&metrics);
        history.push(metrics);

        let measure = cfg.measure(ev.e1, ev.e2);
        let key = cfg.best.rank(data.len() - ev.correct_m0, measure);
        match &mut best {
            Some((k, at, state)) if key < *k => {
                *k = key;
                *at = epoch;
                state.clone_from(&net);
            }
            Some(_) => {}
            None => best = Some((key, epoch, net.clone())),
        }
        if let Some(reason) = rule.observe(measure, ev.correct) {
            break reason;
        }
    };
    let (_, best_epoch, net) = best.expect("at least one epoch ran");
    Ok(TrainResult { net, best_epoch, epochs_run: epoch, history, stop_reason })
}

/// The optimiser's state across epochs.
enum Stepper {
    Online { learning_rate: f64, momentum: f64, anneal: Anneal, reshuffle: bool, velocity: Vec<Array2<f64>> },
    Adam(Box<AdamState>),
}

impl Stepper {
    /// `positions`: the training set size (a batch never holds more, so no buffer is larger).
    fn new(net: &Mlp, optimiser: Optimiser, positions: usize) -> Stepper {
        let zeros = || net.layers().iter().map(|w| Array2::zeros(w.dim())).collect::<Vec<_>>();
        match optimiser {
            Optimiser::Online { learning_rate, momentum, anneal, reshuffle } => {
                let velocity = if momentum > 0.0 { zeros() } else { Vec::new() };
                Stepper::Online { learning_rate, momentum, anneal, reshuffle, velocity }
            }
            Optimiser::Adam { learning_rate, batch_size, beta1, beta2, epsilon } => {
                let batch_size = batch_size.min(positions);
                Stepper::Adam(Box::new(AdamState::new(net, learning_rate, batch_size, beta1, beta2, epsilon)))
            }
        }
    }

    fn epoch(
        &mut self,
        net: &mut Mlp,
        ws: &mut Workspace,
        data: &Prepared,
        order: &mut [u32],
        rng: &mut ChaCha8Rng,
        epoch: usize,
    ) {
        let width = net.n_inputs();
        let o = net.n_outputs();
        let rows = data.rows();
        match self {
            Stepper::Online { learning_rate, momentum, anneal, reshuffle, velocity } => {
                if *reshuffle && epoch > 1 {
                    order.shuffle(rng);
                }
                let eta = anneal.rate(*learning_rate, epoch);
                // The hot loop: one forward and one fused backward/update per position, no allocation.
                for (n, &i) in order.iter().enumerate() {
                    if let Some(&next) = order.get(n + 1) {
                        prefetch(&rows[next as usize * width..(next as usize + 1) * width]);
                    }
                    let i = i as usize;
                    let x = &rows[i * width..(i + 1) * width];
                    let d = &data.targets[i * o..(i + 1) * o];
                    let m = if *momentum > 0.0 { Some((*momentum, velocity.as_mut_slice())) } else { None };
                    net.sgd_step(ws, x, d, eta, m);
                }
            }
            Stepper::Adam(state) => {
                order.shuffle(rng);
                for batch in order.chunks(state.batch_size) {
                    state.step(net, rows, &data.targets, batch);
                }
            }
        }
    }
}

/// Minibatch Adam: the batch gradient ([`Mlp::batch_gradient`]), then the Adam update of every
/// weight.
struct AdamState {
    learning_rate: f64,
    batch_size: usize,
    beta1: f64,
    beta2: f64,
    epsilon: f64,
    t: i32,
    m: Vec<Array2<f64>>,
    v: Vec<Array2<f64>>,
    grads: Vec<Array2<f64>>,
    batch: BatchWorkspace,
}

impl AdamState {
    fn new(
        net: &Mlp,
        learning_rate: f64,
        batch_size: usize,
        beta1: f64,
        beta2: f64,
        epsilon: f64,
    ) -> AdamState {
        let zeros = || net.layers().iter().map(|w| Array2::zeros(w.dim())).collect::<Vec<_>>();
        AdamState {
            learning_rate,
            batch_size,
            beta1,
            beta2,
            epsilon,
            t: 0,
            m: zeros(),
            v: zeros(),
            grads: zeros(),
            batch: BatchWorkspace::new(net, batch_size),
        }
    }

    fn step(&mut self, net: &mut Mlp, rows: &[f64], targets: &[f64], batch: &[u32]) {
        self.gradients(net, rows, targets, batch);
        self.update(net);
    }

    /// The gradient of the batch-mean loss into `self.grads`.
    fn gradients(&mut self, net: &Mlp, rows: &[f64], targets: &[f64], batch: &[u32]) {
        net.batch_gradient(&mut self.batch, rows, targets, batch, &mut self.grads);
    }

    /// Adam update with bias correction, from `self.grads`.
    fn update(&mut self, net: &mut Mlp) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t);
        let c2 = 1.0 - self.beta2.powi(self.t);
        let (b1, b2, eps, lr) = (self.beta1, self.beta2, self.epsilon, self.learning_rate);
        for (l, w) in net.layers_mut().iter_mut().enumerate() {
            ndarray::Zip::from(w).and(&mut self.m[l]).and(&mut self.v[l]).and(&self.grads[l]).for_each(
                |w, m, v, &g| {
                    *m = b1 * *m + (1.0 - b1) * g;
                    *v = b2 * *v + (1.0 - b2) * g * g;
                    *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_output_reading_follows_section_4_3() {
        let two = |m| OutputCoding::Two { margin: m };
        assert_eq!(two(0.0).classify(&[0.5, 0.49]), Classification::Win);
        assert_eq!(two(0.0).classify(&[0.49, 0.5]), Classification::Draw);
        assert_eq!(two(0.0).classify(&[0.6, 0.6]), Classification::Undecided);
        assert_eq!(two(0.0).classify(&[0.4, 0.4]), Classification::Undecided);
        assert_eq!(two(0.4).classify(&[0.9, 0.09]), Classification::Win);
        assert_eq!(two(0.4).classify(&[0.89, 0.05]), Classification::Undecided);
        assert_eq!(two(0.4).classify(&[0.95, 0.1]), Classification::Undecided);
        assert_eq!(two(0.4).classify(&[0.05, 0.95]), Classification::Draw);
        assert_eq!(OutputCoding::One.classify(&[0.5]), Classification::Win);
        assert_eq!(OutputCoding::One.classify(&[0.4999]), Classification::Draw);
        assert!(Classification::Win.is_correct(true) && !Classification::Win.is_correct(false));
        assert!(!Classification::Undecided.is_correct(true) && !Classification::Undecided.is_correct(false));
    }

    /// Feed a rule a sequence of (measure, correct) and report when and why it stops.
    fn run_rule(window: usize, max_epochs: usize, epochs: &[(f64, usize)]) -> Option<(usize, StopReason)> {
        let cfg = TrainConfig { error_target: 0.1, window, max_epochs, ..TrainConfig::default() };
        let mut rule = StoppingRule::new(&cfg);
        epochs.iter().enumerate().find_map(|(i, &(e, c))| rule.observe(e, c).map(|r| (i + 1, r)))
    }

    #[test]
    fn stopping_rule_reading() {
        // Within target (≤ 0.1, equality included) for 3 epochs in a row, while still improving.
        let seq = [(0.2, 1), (0.1, 2), (0.05, 3), (0.2, 4), (0.1, 5), (0.09, 6), (0.1, 7), (0.3, 8)];
        assert_eq!(run_rule(3, 100, &seq), Some((7, StopReason::ErrorTarget)));
        // The best count (7, first at epoch 2) is not beaten in epochs 3..=5, and equalling it is
        // not improving.
        let seq = [(0.5, 5), (0.5, 7), (0.5, 6), (0.5, 7), (0.5, 3), (0.5, 9)];
        assert_eq!(run_rule(3, 100, &seq), Some((5, StopReason::NoImprovement)));
        // No improvement at all after epoch 1: stop once W epochs have passed it.
        assert_eq!(run_rule(2, 100, &[(0.5, 4), (0.5, 4), (0.5, 4)]), Some((3, StopReason::NoImprovement)));
        // Steady improvement outside the target runs to the epoch limit.
        let seq: Vec<(f64, usize)> = (0..10).map(|i| (0.5, i)).collect();
        assert_eq!(run_rule(3, 10, &seq), Some((10, StopReason::MaxEpochs)));
        // Both rules at once: the error target is reported.
        assert_eq!(run_rule(2, 100, &[(0.1, 4), (0.1, 4), (0.1, 4)]), Some((2, StopReason::ErrorTarget)));
        // Nothing fires early.
        assert_eq!(run_rule(20, 100, &[(0.05, 1); 19]), None);
    }

    #[test]
    fn adams_batch_gradient_is_the_mean_of_the_per_position_gradients() {
        let topology = [5, 7, 3, 2];
        let mut net = Mlp::new(&topology, 1.3, 4).unwrap();
        // Weights larger than the initial ±0.1 so every layer matters.
        for w in net.layers_mut() {
            w.mapv_inplace(|v| v * 20.0);
        }
        let n = 11;
        let rows: Vec<f64> = (0..n * 5).map(|i| ((i * 37 % 17) as f64 - 8.0) / 3.0).collect();
        let targets: Vec<f64> =
            (0..n).flat_map(|i| if i % 3 == 0 { [1.0, 0.0] } else { [0.0, 1.0] }).collect();
        let batch: Vec<u32> = vec![3, 0, 7, 10, 5];
        let mut adam = AdamState::new(&net, 0.01, 8, 0.9, 0.999, 1e-8);
        adam.gradients(&net, &rows, &targets, &batch);
        let mut expected: Vec<Array2<f64>> = net.layers().iter().map(|w| Array2::zeros(w.dim())).collect();
        let mut ws = Workspace::new(&net);
        for &i in &batch {
            let i = i as usize;
            net.accumulate_gradient(
                &mut ws,
                &rows[i * 5..(i + 1) * 5],
                &targets[i * 2..(i + 1) * 2],
                &mut expected,
            );
        }
        for (g, e) in adam.grads.iter().zip(&expected) {
            for (g, e) in g.iter().zip(e) {
                let e = e / batch.len() as f64;
                assert!((g - e).abs() <= 1e-14 + 1e-12 * e.abs(), "batch {g} vs mean of positions {e}");
            }
        }
        // A batch shorter than the buffers (the last batch of an epoch) uses only its rows.
        adam.gradients(&net, &rows, &targets, &batch[..2]);
        let mut expected: Vec<Array2<f64>> = net.layers().iter().map(|w| Array2::zeros(w.dim())).collect();
        for &i in &batch[..2] {
            let i = i as usize;
            net.accumulate_gradient(
                &mut ws,
                &rows[i * 5..(i + 1) * 5],
                &targets[i * 2..(i + 1) * 2],
                &mut expected,
            );
        }
        for (g, e) in adam.grads.iter().zip(&expected) {
            for (g, e) in g.iter().zip(e) {
                assert!((g - e / 2.0).abs() <= 1e-14 + 1e-12 * e.abs());
            }
        }
    }

    #[test]
    fn annealing_schedules() {
        assert_eq!(Anneal::None.rate(0.2, 50), 0.2);
        assert_eq!(Anneal::Exponential { factor: 0.5 }.rate(0.2, 1), 0.2);
        assert_eq!(Anneal::Exponential { factor: 0.5 }.rate(0.2, 3), 0.05);
        assert_eq!(Anneal::Inverse { epochs: 10.0 }.rate(0.2, 11), 0.1);
    }

    #[test]
    fn configs_are_validated() {
        assert!(TrainConfig::default().validate().is_ok());
        let with = |f: &dyn Fn(&mut TrainConfig)| {
            let mut c = TrainConfig::default();
            f(&mut c);
            c.validate()
        };
        assert!(with(&|c| c.error_target = -0.1).is_err());
        assert!(with(&|c| c.max_epochs = 0).is_err());
        assert!(with(&|c| c.window = 0).is_err());
        assert!(with(&|c| c.output = OutputCoding::Two { margin: 0.5 }).is_err());
        assert!(
            with(&|c| c.optimiser = Optimiser::Online {
                learning_rate: 0.0,
                momentum: 0.0,
                anneal: Anneal::None,
                reshuffle: false
            })
            .is_err()
        );
        assert!(
            with(&|c| c.optimiser = Optimiser::Online {
                learning_rate: 0.1,
                momentum: 1.0,
                anneal: Anneal::None,
                reshuffle: false
            })
            .is_err()
        );
        assert!(
            with(&|c| c.optimiser = Optimiser::Adam {
                learning_rate: 1e-3,
                batch_size: 0,
                beta1: 0.9,
                beta2: 0.999,
                epsilon: 1e-8
            })
            .is_err()
        );
    }

    #[test]
    fn configs_read_from_toml_with_defaults() {
        let cfg: TrainConfig = toml::from_str(
            r#"
            error_function = "E2"
            error_target = 0.1
            output = { kind = "two", margin = 0.4 }
            optimiser = { kind = "online", learning_rate = 0.1, anneal = { kind = "exponential", factor = 0.99 } }
            max_epochs = 100
            seed = 3
            "#,
        )
        .unwrap();
        assert_eq!(cfg.window, 20);
        assert_eq!(cfg.output, OutputCoding::Two { margin: 0.4 });
        assert_eq!(
            cfg.optimiser,
            Optimiser::Online {
                learning_rate: 0.1,
                momentum: 0.0,
                anneal: Anneal::Exponential { factor: 0.99 },
                reshuffle: false
            }
        );
        let adam: Optimiser =
            toml::from_str("kind = \"adam\"\nlearning_rate = 0.001\nbatch_size = 256").unwrap();
        assert_eq!(
            adam,
            Optimiser::Adam {
                learning_rate: 0.001,
                batch_size: 256,
                beta1: 0.9,
                beta2: 0.999,
                epsilon: 1e-8
            }
        );
        assert!(
            toml::from_str::<Optimiser>("kind = \"online\"\nlearning_rate = 0.1\nmomemtum = 0.5").is_err()
        );
    }
}

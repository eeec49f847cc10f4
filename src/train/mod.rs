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
//! ([`BestState::LeastError`](keep::BestState::LeastError)). That choice is degenerate with E2: once a net is confident, the few
//! positions it still gets wrong have |y − d| near 1, so E2 *rises* as accuracy improves and the
//! least-E2 state is an early, unconfident one. The default is therefore
//! [`BestState::MostCorrect`](keep::BestState::MostCorrect): the state classifying most training positions correctly at m = 0,
//! ties going to the lesser error measure, then to the earliest epoch.

use crate::error::{Error, Result};
use crate::net::mlp::{Mlp, Workspace};
use crate::net::output::OutputCoding;
use ndarray::ArrayView2;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::Instant;

pub mod config;
pub mod keep;
pub mod lockstep;
mod measure;
pub(crate) mod step;
pub mod stopping;
pub mod values;

use config::TrainConfig;
use measure::Measure;
use step::Stepper;
use stopping::StoppingRule;

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

impl StopReason {
    /// The name in files (`summary.json`, `results.csv`): `error_target`, `no_improvement`,
    /// `max_epochs`.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::ErrorTarget => "error_target",
            StopReason::NoImprovement => "no_improvement",
            StopReason::MaxEpochs => "max_epochs",
        }
    }
}

/// In prose: `error target`, `no improvement`, `max epochs`.
impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(&self.name().replace('_', " "))
    }
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

/// A pool of `threads` worker threads, for training and for running trials side by side.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    pool.map_err(|e| Error::Unavailable(format!("cannot start {threads} threads: {e}")))
}

/// The training set laid out for the hot loops: contiguous rows and precomputed targets.
struct Prepared<'a> {
    inputs: ndarray::CowArray<'a, f64, ndarray::Ix2>,
    targets: Vec<f64>,
    wins: std::borrow::Cow<'a, [bool]>,
}

impl<'a> Prepared<'a> {
    fn new(data: &TrainData<'a>, net: &Mlp, output: OutputCoding, what: &str) -> Result<Prepared<'a>> {
        let (n, width) = data.inputs.dim();
        let set = format!("the {what} set");
        if n == 0 {
            return Err(Error::Shape(format!("{set} is empty")));
        }
        if width != net.n_inputs() {
            return Err(Error::InputWidth { net: net.n_inputs(), by: set, given: width });
        }
        if data.wins.len() != n {
            return Err(Error::Shape(format!("{set} has {n} input rows but {} outcomes", data.wins.len())));
        }
        // The fast scan first; positions are only counted when a bad value is there to name.
        if !data.inputs.iter().all(|v| v.is_finite())
            && let Some(((i, j), v)) = data.inputs.indexed_iter().find(|(_, v)| !v.is_finite())
        {
            return Err(Error::Shape(format!("{set} has a non-finite input {v} at row {i}, column {j}")));
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
        Ok(Prepared { inputs, targets, wins: data.wins.into() })
    }

    fn len(&self) -> usize {
        self.wins.len()
    }

    /// The same set in buffers of its own, for a trainer that outlives the caller's arrays.
    fn into_owned(self) -> Prepared<'static> {
        let inputs = ndarray::CowArray::from(self.inputs.into_owned());
        Prepared { inputs, targets: self.targets, wins: self.wins.into_owned().into() }
    }

    fn rows(&self) -> &[f64] {
        self.inputs.as_slice().expect("standard layout")
    }
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
    train_on(net, train, test, cfg, 1, on_epoch)
}

/// [`train`] on `threads` threads (a rayon pool of its own). With two or more, the end-of-epoch
/// measurement of epoch t is handed out as tasks that the other threads take up while the calling
/// thread already trains epoch t + 1 from the same end-of-epoch state; if the measurement of t
/// ends training, that epoch t + 1 is discarded. Adam's batch passes are split over the threads
/// too ([`Mlp::batch_gradient`]'s halves), a thread that finds no measurement left taking them up.
/// The stopping rule and the kept state see exactly the states and measurements of [`train`], and
/// every split leaves each sum in its order, so the result is the same, bit for bit, for every
/// `threads`.
pub fn train_on(
    net: Mlp,
    train: &TrainData,
    test: Option<&TrainData>,
    cfg: &TrainConfig,
    threads: usize,
    on_epoch: &mut dyn FnMut(&EpochMetrics),
) -> Result<TrainResult> {
    cfg.validate()?;
    cfg.output.check_width(net.n_outputs())?;
    let data = Prepared::new(train, &net, cfg.output, "training")?;
    let test = test.map(|t| Prepared::new(t, &net, cfg.output, "testing")).transpose()?;
    let pool = if threads > 1 { Some(thread_pool(threads)?) } else { None };
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    // Section 4.5: "an arbitrary order which did not change from one training epoch to the next".
    // The data's own order may be systematic (datasets list positions by square), so the one fixed
    // order is a seeded random permutation, drawn once.
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    order.shuffle(&mut rng);
    let stepper = Stepper::new(&net, cfg.optimiser, data.len(), pool.is_some());
    let mut trainer = Trainer { stepper, ws: Workspace::new(&net), net, order, rng };
    let started = Instant::now();
    within(pool.as_ref(), || trainer.epoch(&data, 1));
    run_epochs(trainer, started, &data, test.as_ref(), cfg, pool.as_ref(), on_epoch)
}

/// Run `f` on `pool`'s threads (so that the joins and tasks inside it use them), or here.
fn within<R: Send>(pool: Option<&rayon::ThreadPool>, f: impl FnOnce() -> R + Send) -> R {
    match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// The epoch loop of [`train_on`], from a trainer that has trained epoch 1 since `started`:
/// measure each end-of-epoch state, keep the best, and stop by the rule (section 4.5).
fn run_epochs(
    mut trainer: Trainer,
    started: Instant,
    data: &Prepared,
    test: Option<&Prepared>,
    cfg: &TrainConfig,
    pool: Option<&rayon::ThreadPool>,
    on_epoch: &mut dyn FnMut(&EpochMetrics),
) -> Result<TrainResult> {
    let mut measure = Measure::new();
    // The end-of-epoch state being measured; `trainer.net` may run one epoch ahead of it.
    let mut state = trainer.net.clone();
    let mut progress = Progress::new(cfg, started);
    let mut epoch = 1;
    let stop_reason = loop {
        state.clone_from(&trainer.net);
        let ahead = pool.is_some() && epoch < cfg.max_epochs;
        let measured = match pool {
            Some(pool) => pool.install(|| {
                rayon::scope(|scope| {
                    measure.spawn(scope, &state, data, test);
                    if ahead {
                        trainer.epoch(data, epoch + 1);
                    }
                });
                measure.tally(data, test, cfg.output)
            }),
            None => measure.here(&state, data, test, cfg.output),
        };
        if let Some(reason) = progress.record(epoch, &mut state, measured, data, cfg, on_epoch)? {
            break reason;
        }
        if !ahead {
            within(pool, || trainer.epoch(data, epoch + 1));
        }
        epoch += 1;
    };
    Ok(progress.finish(epoch, stop_reason))
}

/// The record of a run so far: every epoch's metrics, the kept end-of-epoch state and the
/// stopping rule's count (section 4.5).
struct Progress {
    started: Instant,
    history: Vec<EpochMetrics>,
    /// (rank key, epoch, state): a lesser key is better.
    best: Option<((usize, f64), usize, Mlp)>,
    rule: StoppingRule,
}

impl Progress {
    fn new(cfg: &TrainConfig, started: Instant) -> Progress {
        Progress { started, history: Vec::new(), best: None, rule: StoppingRule::new(cfg) }
    }

    /// Record epoch `epoch`'s measurements of its end-of-epoch `state` (which may be swapped with
    /// a buffer no longer kept), and say whether training stops after it. Errors if the weights or
    /// the error measure are not finite.
    fn record(
        &mut self,
        epoch: usize,
        state: &mut Mlp,
        (ev, test_accuracy_pct): measure::Measured,
        data: &Prepared,
        cfg: &TrainConfig,
        on_epoch: &mut dyn FnMut(&EpochMetrics),
    ) -> Result<Option<StopReason>> {
        if !(ev.e1.is_finite() && state.layers().iter().all(|w| w.iter().all(|v| v.is_finite()))) {
            return Err(Error::Diverged { epoch });
        }
        let metrics = EpochMetrics {
            epoch,
            e1: ev.e1,
            e2: ev.e2,
            correct: ev.correct,
            total: data.len(),
            misclassified: ev.misclassified,
            undecided: ev.undecided,
            train_accuracy_pct: ev.accuracy_pct(data),
            train_accuracy_m0_pct: Some(100.0 * ev.correct_m0 as f64 / data.len() as f64),
            test_accuracy_pct,
            wall_seconds: self.started.elapsed().as_secs_f64(),
        };
        on_epoch(&metrics);
        self.history.push(metrics);

        let measure = cfg.measure(ev.e1, ev.e2);
        let key = cfg.best.rank(data.len() - ev.correct_m0, measure);
        match &mut self.best {
            Some((k, at, kept)) if key < *k => {
                *k = key;
                *at = epoch;
                std::mem::swap(kept, state);
            }
            Some(_) => {}
            None => self.best = Some((key, epoch, state.clone())),
        }
        Ok(self.rule.observe(measure, ev.correct))
    }

    /// The result of a run that stopped after epoch `epochs_run` for `stop_reason`.
    fn finish(self, epochs_run: usize, stop_reason: StopReason) -> TrainResult {
        let (_, best_epoch, net) = self.best.expect("at least one epoch ran");
        TrainResult { net, best_epoch, epochs_run, history: self.history, stop_reason }
    }
}

/// The net being trained, with its optimiser's state, its workspace, the order of its positions
/// and the random source that reshuffles them.
struct Trainer {
    net: Mlp,
    stepper: Stepper,
    ws: Workspace,
    order: Vec<u32>,
    rng: ChaCha8Rng,
}

impl Trainer {
    /// Train epoch `epoch` (from 1) of online backpropagation or Adam.
    fn epoch(&mut self, data: &Prepared, epoch: usize) {
        self.stepper.epoch(&mut self.net, &mut self.ws, data, &mut self.order, &mut self.rng, epoch);
    }
}

#[cfg(test)]
mod tests;

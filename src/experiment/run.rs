//! Running trials: build the sets, train from the seed, assess the kept net; many trials at once.

use super::config::Trial;
use super::rows::{MisclassifiedRow, Summary, WEIGHTS_JSON};
use crate::chess::bitbase::Bitbase;
use crate::chess::position::KpkPosition;
use crate::dataset::{Dataset, SetName};
use crate::error::Result;
use crate::net::mlp::{Mlp, Workspace};
use crate::net::output::OutputCoding;
use crate::paper::tables;
use crate::train::{self, EpochMetrics, StopReason, TrainData};
use kpk_probe::{Color, Outcome};
use ndarray::Array2;
use std::time::Instant;

/// A finished trial: the kept net and everything its report folder shows.
#[derive(Clone, Debug)]
pub struct TrialRun {
    pub trial: Trial,
    pub net: Mlp,
    pub summary: Summary,
    pub metrics: Vec<EpochMetrics>,
    pub misclassified: Vec<MisclassifiedRow>,
    /// Wall time of the training and assessment, for the terminal only: machine-dependent
    /// figures stay out of the report folder, so a rerun reproduces it byte for byte.
    pub wall_seconds: f64,
}

/// A set's positions with their network inputs and true results.
struct Prepared {
    set: Dataset,
    inputs: Array2<f64>,
    wins: Vec<bool>,
}

impl Prepared {
    fn new(name: SetName, trial: &Trial, bb: &Bitbase) -> Prepared {
        let set = Dataset::of_draw(name, trial.config.data_seed, trial.config.borderline, bb);
        let inputs = set.inputs(trial.config.input_coding);
        let wins = set.wins();
        Prepared { set, inputs, wins }
    }

    fn data(&self) -> TrainData<'_> {
        TrainData { inputs: self.inputs.view(), wins: &self.wins }
    }
}

/// What training produced: the kept state and the epoch-by-epoch record.
struct Trained {
    net: Mlp,
    best_epoch: usize,
    epochs_run: usize,
    stop_reason: StopReason,
    metrics: Vec<EpochMetrics>,
}

/// Train the trial's net in one call of [`train::train_on`] on `threads` threads, recording every
/// epoch. The trainer measures each end-of-epoch state both at the config's margin (NN6's stopping
/// condition uses m = 0.4) and at m = 0 (what Tables 5 and 6 and Figure 3 count), and keeps the
/// state the config's `keep` asks for.
fn train_trial(
    trial: &Trial,
    net: Mlp,
    train_set: &Prepared,
    test_set: Option<&Prepared>,
    threads: usize,
    on_epoch: &mut dyn FnMut(&EpochMetrics),
) -> Result<Trained> {
    let test_data = test_set.map(Prepared::data);
    let cfg = trial.train_config();
    let r = train::train_on(net, &train_set.data(), test_data.as_ref(), &cfg, threads, on_epoch)?;
    Ok(Trained {
        net: r.net,
        best_epoch: r.best_epoch,
        epochs_run: r.epochs_run,
        stop_reason: r.stop_reason,
        metrics: r.history,
    })
}

/// How the kept net does on one set: correct at m = 0 and at the trial's margin, and the rows of
/// `misclassified.csv` (wrong at m = 0) appended to `wrong`.
fn assess(
    net: &Mlp,
    data: &Prepared,
    output: OutputCoding,
    bb: &Bitbase,
    wrong: &mut Vec<MisclassifiedRow>,
) -> (usize, usize) {
    // Section 4.3: m = 0 is the plain reading of the outputs; m = 0.4 entered only the stopping
    // condition. Table 6's 51 positions include outputs such as (0.149, 0.851) for a win, which
    // m = 0.4 would call undecided, so the paper's count of misclassified positions is at m = 0.
    let plain = output.without_margin();
    let mut ws = Workspace::new(net);
    let (mut correct, mut correct_at_margin) = (0, 0);
    let result = |p: &KpkPosition, side: Color| {
        KpkPosition::new(p.wk(), p.bk(), p.wp(), side).map_or_else(
            |_| String::new(),
            |q| if bb.outcome(&q) == Outcome::Win { "w".into() } else { "d".into() },
        )
    };
    for ((row, &win), p) in data.inputs.rows().into_iter().zip(&data.wins).zip(&data.set.positions) {
        let y = net.forward_with(&mut ws, row.as_slice().expect("standard layout"));
        correct_at_margin += usize::from(output.classify(y).is_correct(win));
        if plain.classify(y).is_correct(win) {
            correct += 1;
            continue;
        }
        let mut target = [0.0; 2];
        output.target(win, &mut target[..output.width()]);
        wrong.push(MisclassifiedRow {
            n: wrong.len() + 1,
            wk: p.wk().to_string(),
            bk: p.bk().to_string(),
            wp: p.wp().to_string(),
            to_move: if p.side() == Color::White { "w".into() } else { "b".into() },
            result_wtm: result(p, Color::White),
            result_btm: result(p, Color::Black),
            target_o1: target[0],
            target_o2: (output.width() == 2).then_some(target[1]),
            actual_o1: y[0],
            actual_o2: y.get(1).copied(),
            set: data.set.name.clone(),
        });
    }
    (correct, correct_at_margin)
}

/// Run one trial: build its sets, train from its seed, and assess the kept net. `on_epoch` sees
/// every epoch's metrics as training goes (for progress bars).
pub fn run_trial(trial: &Trial, bb: &Bitbase, on_epoch: &mut dyn FnMut(&EpochMetrics)) -> Result<TrialRun> {
    run_trial_on(trial, bb, 1, on_epoch)
}

/// [`run_trial`] training on `threads` threads ([`train::train_on`]: the same result for every
/// count).
pub fn run_trial_on(
    trial: &Trial,
    bb: &Bitbase,
    threads: usize,
    on_epoch: &mut dyn FnMut(&EpochMetrics),
) -> Result<TrialRun> {
    let started = Instant::now();
    let c = &trial.config;
    let train_set = Prepared::new(c.training_set, trial, bb);
    let test_set = c.testing_set.map(|t| Prepared::new(t, trial, bb));
    let net = Mlp::new(trial.topology().widths(), c.slope, c.seed)?;
    let result = train_trial(trial, net, &train_set, test_set.as_ref(), threads, on_epoch)?;
    let output = trial.output();
    let mut misclassified = Vec::new();
    let (train_correct, train_at_margin) = assess(&result.net, &train_set, output, bb, &mut misclassified);
    let train_misclassified = misclassified.len();
    let test_correct = test_set.as_ref().map(|t| assess(&result.net, t, output, bb, &mut misclassified).0);
    let kept = &result.metrics[result.best_epoch - 1];
    let n_train = train_set.wins.len();
    let weights = result.net.weight_count();
    let bits = weights * tables::BITS_PER_WEIGHT;
    let summary = Summary {
        name: c.name.clone(),
        side: c.side,
        training_set: c.training_set.to_string(),
        testing_set: c.testing_set.map(|t| t.to_string()),
        topology: c.topology.clone(),
        weights,
        bits,
        comp: tables::compression(weights),
        epochs: result.epochs_run,
        max_epochs: c.max_epochs,
        best_epoch: result.best_epoch,
        stop_reason: result.stop_reason,
        train_positions: n_train,
        train_accuracy_pct: 100.0 * train_correct as f64 / n_train as f64,
        train_misclassified,
        train_accuracy_at_margin_pct: matches!(output, OutputCoding::Two { margin } if margin > 0.0)
            .then(|| 100.0 * train_at_margin as f64 / n_train as f64),
        test_positions: test_set.as_ref().map(|t| t.wins.len()),
        test_accuracy_pct: test_set
            .as_ref()
            .zip(test_correct)
            .map(|(t, correct)| 100.0 * correct as f64 / t.wins.len() as f64),
        e1: kept.e1,
        e2: kept.e2,
        seed: c.seed,
        weights_file: WEIGHTS_JSON.into(),
    };
    let wall_seconds = started.elapsed().as_secs_f64();
    Ok(TrialRun {
        trial: trial.clone(),
        net: result.net,
        summary,
        metrics: result.metrics,
        misclassified,
        wall_seconds,
    })
}

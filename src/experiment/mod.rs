//! Experiments as data: a trial's TOML config, its validation into a checked [`Trial`], running
//! it, and writing its report folder `reports/<name>/`.
//!
//! Parsing happens in two steps (parse, then check once): serde reads the file into
//! [`TrialConfig`], rejecting unknown keys and wrong types; [`TrialConfig::check`] then validates
//! every value against the others (topology against the input and output codings, sets against
//! the side) and yields a [`Trial`] that cannot describe an impossible run.

use crate::chess::bitbase::Bitbase;
use crate::chess::board::Color;
use crate::chess::position::{KpkPosition, Outcome};
use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::net::export;
use crate::net::mlp::{Mlp, Workspace};
use crate::net::model::SavedNet;
use crate::output::{RunFolder, RunFolderKind};
use crate::paper::coding::InputCoding;
use crate::paper::tables;
use crate::report::plot::{LineChart, Series};
use crate::train::{
    self, Anneal, BestState, EpochMetrics, ErrorFunction, Optimiser, OutputCoding, StopReason, TrainConfig,
    TrainData,
};
use ndarray::Array2;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::time::Instant;

/// The sets a trial can train or test on (section 4.5; `wtm`, `btm` and `all` are every legal
/// position with White to move, Black to move, or either).
pub const SET_NAMES: [&str; 10] = ["T1", "S1", "T2", "S2", "T3", "T4", "T5", "wtm", "btm", "all"];

/// Which side is to move in a trial's positions. The paper treats wtm and btm as two separate
/// problems (section 4.5); `both` is for sets that mix them (`all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Wtm,
    Btm,
    Both,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Wtm => "wtm",
            Side::Btm => "btm",
            Side::Both => "both",
        })
    }
}

/// The side to move in a named set's positions.
pub fn set_side(set: &str) -> Option<Side> {
    match set {
        "T1" | "S1" | "T3" | "T4" | "T5" | "wtm" => Some(Side::Wtm),
        "T2" | "S2" | "btm" => Some(Side::Btm),
        "all" => Some(Side::Both),
        _ => None,
    }
}

/// Output coding as written in a config (section 4.3): one output neuron, or two with a margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputName {
    One,
    Two,
}

/// Error function as written in a config (section 4.5): E1 = mean |y - d|, E2 = max |y - d|.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorName {
    E1,
    E2,
}

/// Optimiser as written in a config: the paper's online gradient descent, or Adam.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimiserName {
    Online,
    Adam,
}

/// Which end-of-epoch state a trial keeps and reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// The most training positions classified correctly (m = 0), ties to the least error
    /// measure, then the earliest.
    MostCorrect,
    /// Section 4.5 read literally: the least error measure (E1 or E2), ties to the earliest.
    LeastError,
}

fn default_keep() -> Keep {
    Keep::MostCorrect
}

fn default_window() -> usize {
    20
}
fn default_slope() -> f64 {
    1.0
}
fn default_batch_size() -> usize {
    32
}

/// A trial exactly as its TOML file states it. Every key is listed here; any other is an error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrialConfig {
    /// The report folder's name: letters, digits, '-' and '_'.
    pub name: String,
    /// Side to move in the training (and testing) positions.
    pub side: Side,
    /// One of [`SET_NAMES`].
    pub training_set: String,
    /// One of [`SET_NAMES`]; absent when the trial is not tested (Table 5, trials 38-41).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub testing_set: Option<String>,
    /// Seed of the random draws that make the small sets T1/S1 and T2/S2.
    pub data_seed: u64,
    /// Layer widths, input first: "32-10-10-1".
    pub topology: String,
    pub input_coding: InputCoding,
    pub output_coding: OutputName,
    /// Section 4.3's m: outputs within m of 0.5 are 'undecided'. Only for two outputs.
    #[serde(default)]
    pub margin: f64,
    pub error_function: ErrorName,
    /// Training stops once the error function has stayed at or below this (section 4.5).
    pub error_target: f64,
    pub optimiser: OptimiserName,
    pub learning_rate: f64,
    /// Online optimiser only; the paper used none (section 4.5).
    #[serde(default)]
    pub momentum: f64,
    /// Adam only: positions per weight update.
    #[serde(default = "default_batch_size")]
    pub batch_size: usize,
    pub max_epochs: usize,
    /// Epochs the stopping rule looks back over (section 4.5: 20).
    #[serde(default = "default_window")]
    pub window: usize,
    /// Which end-of-epoch state to keep (see [`Keep`]).
    #[serde(default = "default_keep")]
    pub keep: Keep,
    /// The sigmoid's slope b (section 3: b = 1).
    #[serde(default = "default_slope")]
    pub slope: f64,
    /// Seed of the initial weights and of any other random choice in training.
    pub seed: u64,
}

/// A validated trial: every value is in range and consistent with the others.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The config as read, with defaults filled in: written back as the resolved config.
    pub config: TrialConfig,
    /// Parsed layer widths, input first.
    pub topology: Vec<usize>,
}

/// The largest epoch budget a config may ask for: far beyond the paper's longest run (6,285).
pub const MAX_EPOCHS_LIMIT: usize = 1_000_000;

fn bad(key: &str, message: impl fmt::Display) -> Error {
    Error::Invalid(format!("key `{key}`: {message}"))
}

/// Parse "32-10-10-1" into layer widths.
pub fn parse_topology(s: &str) -> Result<Vec<usize>> {
    let layers = s
        .split('-')
        .map(|w| w.trim().parse::<usize>().ok().filter(|&n| n > 0))
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| {
            bad("topology", format!("'{s}' is not positive layer widths joined by '-', e.g. \"32-10-10-1\""))
        })?;
    if layers.len() < 2 {
        return Err(bad("topology", format!("'{s}' needs at least an input and an output layer")));
    }
    // Weights and biases, counted without overflow before anything is allocated.
    let weights = layers.windows(2).try_fold(0usize, |sum, w| {
        w[0].checked_add(1).and_then(|fan_in| fan_in.checked_mul(w[1])).and_then(|n| sum.checked_add(n))
    });
    match weights {
        Some(n) if n <= MAX_WEIGHTS => Ok(layers),
        _ => Err(bad(
            "topology",
            format!(
                "'{s}' has more than {MAX_WEIGHTS} weights, the most kpk trains (a net of Table 5 has at most 4,521)"
            ),
        )),
    }
}

/// The most weights (with biases) a configured net may have: 10 million, 80 MB of f64 for the
/// weights, well above any net the paper or kpk's studies train, and far below what would exhaust
/// memory once the optimiser's buffers are added.
pub const MAX_WEIGHTS: usize = 10_000_000;

impl TrialConfig {
    /// Read and check a config file. Errors name the file, and the key where there is one.
    pub fn load(path: &Path) -> Result<Trial> {
        let bytes = crate::io::read(path)?;
        let text = String::from_utf8(bytes).map_err(|_| Error::Format {
            path: path.display().to_string(),
            message: "not UTF-8 text".into(),
        })?;
        let in_file = |e: Error| Error::Format { path: path.display().to_string(), message: e.to_string() };
        TrialConfig::parse(&text).map_err(in_file)?.check().map_err(in_file)
    }

    /// Parse TOML text. A syntax or type error becomes one line naming the line and key.
    pub fn parse(text: &str) -> Result<TrialConfig> {
        toml::from_str(text).map_err(|e| Error::Invalid(one_line_toml_error(text, &e)))
    }

    /// The config as TOML, every default made explicit.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a TrialConfig always serialises")
    }

    /// Validate every value; the error names the key and what it allows.
    pub fn check(self) -> Result<Trial> {
        let c = &self;
        if c.name.is_empty()
            || c.name.starts_with('.')
            || !c.name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_' || ch == '.')
        {
            return Err(bad(
                "name",
                format!("'{}' must be letters, digits, '-', '_' or '.' (it names a folder)", c.name),
            ));
        }
        let allowed = SET_NAMES.join(", ");
        let training_side = set_side(&c.training_set).ok_or_else(|| {
            bad("training_set", format!("unknown set '{}'; allowed: {allowed}", c.training_set))
        })?;
        if training_side != c.side {
            return Err(bad(
                "side",
                format!(
                    "'{}' does not match training set {}, whose positions are {}",
                    c.side, c.training_set, training_side
                ),
            ));
        }
        if let Some(test) = &c.testing_set {
            let side = set_side(test)
                .ok_or_else(|| bad("testing_set", format!("unknown set '{test}'; allowed: {allowed}")))?;
            if side != c.side {
                return Err(bad(
                    "testing_set",
                    format!("{test} holds {side} positions but the trial's side is {}", c.side),
                ));
            }
            if *test == c.training_set {
                return Err(bad(
                    "testing_set",
                    format!("{test} is also the training set; testing needs unseen positions"),
                ));
            }
        }
        let topology = parse_topology(&c.topology)?;
        let inputs = c.input_coding.width();
        if topology[0] != inputs {
            return Err(bad(
                "topology",
                format!(
                    "'{}' has {} inputs but input_coding '{}' gives {inputs}",
                    c.topology,
                    topology[0],
                    c.input_coding.name()
                ),
            ));
        }
        let outputs = match c.output_coding {
            OutputName::One => 1,
            OutputName::Two => 2,
        };
        let last = *topology.last().expect("at least two layers");
        if last != outputs {
            return Err(bad(
                "topology",
                format!(
                    "'{}' has {last} outputs but output_coding '{}' needs {outputs}",
                    c.topology,
                    output_name(c.output_coding)
                ),
            ));
        }
        match c.output_coding {
            // Section 4.3: a single output is read as win iff y1 >= 0.5; there is no margin.
            OutputName::One if c.margin != 0.0 => {
                return Err(bad(
                    "margin",
                    format!("{} is only allowed with output_coding = \"two\"", c.margin),
                ));
            }
            OutputName::Two if !(0.0..0.5).contains(&c.margin) => {
                return Err(bad("margin", format!("{} is outside [0, 0.5)", c.margin)));
            }
            _ => {}
        }
        if !(c.error_target > 0.0 && c.error_target <= 1.0) {
            return Err(bad("error_target", format!("{} is outside (0, 1]", c.error_target)));
        }
        if !(c.learning_rate.is_finite() && c.learning_rate > 0.0) {
            return Err(bad("learning_rate", format!("{} must be a positive number", c.learning_rate)));
        }
        if !(0.0..1.0).contains(&c.momentum) {
            return Err(bad("momentum", format!("{} is outside [0, 1)", c.momentum)));
        }
        if c.optimiser == OptimiserName::Adam && c.momentum != 0.0 {
            return Err(bad("momentum", "applies to optimiser = \"online\" only (Adam has its own moments)"));
        }
        if c.batch_size == 0 {
            return Err(bad("batch_size", "must be at least 1"));
        }
        if c.optimiser == OptimiserName::Online && c.batch_size != default_batch_size() {
            return Err(bad(
                "batch_size",
                "applies to optimiser = \"adam\" only (online updates after every position)",
            ));
        }
        if !(1..=MAX_EPOCHS_LIMIT).contains(&c.max_epochs) {
            return Err(bad("max_epochs", format!("{} is outside 1..={MAX_EPOCHS_LIMIT}", c.max_epochs)));
        }
        if c.window == 0 || c.window > c.max_epochs {
            return Err(bad("window", format!("{} is outside 1..=max_epochs ({})", c.window, c.max_epochs)));
        }
        if !(c.slope.is_finite() && c.slope > 0.0) {
            return Err(bad("slope", format!("{} must be a positive number", c.slope)));
        }
        Ok(Trial { config: self, topology })
    }
}

fn output_name(o: OutputName) -> &'static str {
    match o {
        OutputName::One => "one",
        OutputName::Two => "two",
    }
}

/// toml's errors span several lines (a source excerpt with a caret). Reduce one to a single
/// line: the line number, the key on that line if there is one, and the message.
fn one_line_toml_error(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim().replace('\n', "; ");
    let Some(span) = e.span() else { return message };
    // A missing key has no line of its own; a span over several lines points at no one key.
    if message.starts_with("missing field")
        || text.get(span.clone()).is_none_or(|s| s.trim_end().contains('\n'))
    {
        return message;
    }
    let line_no = text[..span.start.min(text.len())].matches('\n').count() + 1;
    let line = text.lines().nth(line_no - 1).unwrap_or("");
    match line.split_once('=') {
        Some((key, _)) if !key.trim().is_empty() && !line.trim_start().starts_with('#') => {
            format!("line {line_no}, key `{}`: {message}", key.trim())
        }
        _ => format!("line {line_no}: {message}"),
    }
}

/// Positions in a named set, for scheduling (section 4.5; the small sets' sizes are the paper's).
pub fn set_size(set: &str) -> usize {
    match set {
        "T1" | "S1" => 125,
        "T2" | "S2" => 136,
        "T3" | "wtm" => 81_664,
        "T4" => 20_643,
        "T5" => 20_346,
        "btm" => 84_012,
        _ => 165_676,
    }
}

/// The presentation order's seed is derived from the trial's seed, so that the initial weights
/// and the order come from unrelated random streams although one `seed` key sets both.
const ORDER_SEED_OFFSET: u64 = 0x9E37_79B9_7F4A_7C15;

impl Trial {
    /// The trial's name (its report folder).
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// How targets are coded and outputs read during training (section 4.3).
    pub fn output(&self) -> OutputCoding {
        match self.config.output_coding {
            OutputName::One => OutputCoding::One,
            OutputName::Two => OutputCoding::Two { margin: self.config.margin },
        }
    }

    /// The trainer's configuration.
    pub fn train_config(&self) -> TrainConfig {
        let c = &self.config;
        TrainConfig {
            error_function: match c.error_function {
                ErrorName::E1 => ErrorFunction::E1,
                ErrorName::E2 => ErrorFunction::E2,
            },
            error_target: c.error_target,
            output: self.output(),
            optimiser: match c.optimiser {
                // Section 4.5: a fixed presentation order, no annealing.
                OptimiserName::Online => Optimiser::Online {
                    learning_rate: c.learning_rate,
                    momentum: c.momentum,
                    anneal: Anneal::None,
                    reshuffle: false,
                },
                OptimiserName::Adam => Optimiser::Adam {
                    learning_rate: c.learning_rate,
                    batch_size: c.batch_size,
                    beta1: 0.9,
                    beta2: 0.999,
                    epsilon: 1e-8,
                },
            },
            max_epochs: c.max_epochs,
            window: c.window,
            seed: c.seed.wrapping_add(ORDER_SEED_OFFSET),
            // Both count positions at m = 0 and break ties by the least error measure.
            best: match c.keep {
                Keep::MostCorrect => BestState::MostCorrect,
                Keep::LeastError => BestState::LeastError,
            },
        }
    }

    /// The most work the trial can take, in position presentations: for running the longest
    /// trials first.
    pub fn budget(&self) -> usize {
        set_size(&self.config.training_set) * self.config.max_epochs
    }
}

/// A finished trial: the kept net and everything its report folder shows.
#[derive(Clone, Debug)]
pub struct TrialRun {
    pub trial: Trial,
    pub net: Mlp,
    pub summary: Summary,
    pub metrics: Vec<MetricsRow>,
    pub misclassified: Vec<MisclassifiedRow>,
    /// Wall time of the training and assessment, for the terminal only: machine-dependent
    /// figures stay out of the report folder, so a rerun reproduces it byte for byte.
    pub wall_seconds: f64,
}

impl MetricsRow {
    fn new(m: &EpochMetrics) -> MetricsRow {
        MetricsRow {
            epoch: m.epoch,
            e1: m.e1,
            e2: m.e2,
            correct: m.correct,
            misclassified: m.misclassified,
            undecided: m.undecided,
            total: m.total,
            train_accuracy_pct: m.train_accuracy_pct,
            train_accuracy_m0_pct: Some(100.0 * m.correct_m0 as f64 / m.total as f64),
            test_accuracy_pct: m.test_accuracy_pct,
        }
    }
}

/// A set's positions with their network inputs and true results.
struct Prepared {
    set: Dataset,
    inputs: Array2<f64>,
    wins: Vec<bool>,
}

impl Prepared {
    fn new(name: &str, trial: &Trial, bb: &Bitbase) -> Result<Prepared> {
        let set = Dataset::named(name, trial.config.data_seed, bb)?;
        let inputs = set.inputs(trial.config.input_coding);
        let wins = set.wins();
        Ok(Prepared { set, inputs, wins })
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
    metrics: Vec<MetricsRow>,
}

/// Train the trial's net in one call of [`train::train`], recording every epoch. The trainer
/// measures each end-of-epoch state both at the config's margin (NN6's stopping condition uses
/// m = 0.4) and at m = 0 (what Tables 5 and 6 and Figure 3 count), and keeps the state the
/// config's `keep` asks for.
fn train_trial(
    trial: &Trial,
    net: Mlp,
    train_set: &Prepared,
    test_set: Option<&Prepared>,
    on_epoch: &mut dyn FnMut(&MetricsRow),
) -> Result<Trained> {
    let test_data = test_set.map(Prepared::data);
    let mut report = |m: &EpochMetrics| on_epoch(&MetricsRow::new(m));
    let r = train::train(net, &train_set.data(), test_data.as_ref(), &trial.train_config(), &mut report)?;
    Ok(Trained {
        net: r.net,
        best_epoch: r.best_epoch,
        epochs_run: r.epochs_run,
        stop_reason: r.stop_reason,
        metrics: r.history.iter().map(MetricsRow::new).collect(),
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
pub fn run_trial(trial: &Trial, bb: &Bitbase, on_epoch: &mut dyn FnMut(&MetricsRow)) -> Result<TrialRun> {
    let started = Instant::now();
    let c = &trial.config;
    let train_set = Prepared::new(&c.training_set, trial, bb)?;
    let test_set = c.testing_set.as_deref().map(|t| Prepared::new(t, trial, bb)).transpose()?;
    let net = Mlp::new(&trial.topology, c.slope, c.seed)?;
    let result = train_trial(trial, net, &train_set, test_set.as_ref(), on_epoch)?;
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
        training_set: c.training_set.clone(),
        testing_set: c.testing_set.clone(),
        topology: c.topology.clone(),
        weights,
        bits,
        comp: tables::compression(weights),
        epochs: result.epochs_run,
        max_epochs: c.max_epochs,
        best_epoch: result.best_epoch,
        stop_reason: serde_json::to_value(result.stop_reason)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
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

/// What [`run_trials`] reports as it goes, with the trial's index in the slice it was given.
pub enum Progress<'a> {
    Started(usize),
    Epoch(usize, &'a MetricsRow),
    /// The trial's folder has been written.
    Finished(usize, &'a TrialRun),
}

/// Run `trials` on `jobs` threads, longest budget first (so the long NN6 trials start at once and
/// the short ones fill in around them), writing each one's folder under `out` as it finishes.
/// Every trial is deterministic on its own, so the thread count changes only the wall time.
/// Stops starting new trials after the first failure, and returns the first error.
pub fn run_trials(
    trials: &[Trial],
    folders: &[RunFolder],
    bb: &Bitbase,
    jobs: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<TrialRun>> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let mut order: Vec<usize> = (0..trials.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(trials[i].budget()));
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<TrialRun>>>> = Mutex::new((0..trials.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, trials.len().max(1)) {
            scope.spawn(|| {
                while !failed.load(Ordering::Relaxed) {
                    let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    progress(Progress::Started(i));
                    let run = run_trial(&trials[i], bb, &mut |m| progress(Progress::Epoch(i, m)))
                        .and_then(|run| write_trial(&folders[i], &run).map(|()| run));
                    match &run {
                        Ok(run) => progress(Progress::Finished(i, run)),
                        Err(_) => failed.store(true, Ordering::Relaxed),
                    }
                    results.lock().expect("no worker panics while holding the lock")[i] = Some(run);
                }
            });
        }
    });
    let results = results.into_inner().expect("workers have finished");
    let mut runs = Vec::with_capacity(trials.len());
    for (trial, result) in trials.iter().zip(results) {
        match result {
            Some(Ok(run)) => runs.push(run),
            Some(Err(e)) => return Err(Error::Invalid(format!("{}: {e}", trial.name()))),
            None => {}
        }
    }
    Ok(runs)
}

/// File names inside a trial's report folder.
pub const CONFIG_TOML: &str = "config.toml";
pub const METRICS_CSV: &str = "metrics.csv";
pub const SUMMARY_JSON: &str = "summary.json";
pub const WEIGHTS_JSON: &str = "weights.json";
pub const WEIGHTS_SAFETENSORS: &str = "weights.safetensors";
pub const WEIGHTS_NPY_DIR: &str = "npy";
pub const ACCURACY_PNG: &str = "accuracy.png";
pub const MISCLASSIFIED_CSV: &str = "misclassified.csv";

/// What makes a folder a kpk trial folder ([`crate::output::RunFolder`]): only the entries
/// [`write_trial`] writes, and a `summary.json` that names the folder.
pub const TRIAL_FOLDER: RunFolderKind = RunFolderKind {
    entries: &[
        CONFIG_TOML,
        METRICS_CSV,
        SUMMARY_JSON,
        WEIGHTS_JSON,
        WEIGHTS_SAFETENSORS,
        WEIGHTS_NPY_DIR,
        ACCURACY_PNG,
        MISCLASSIFIED_CSV,
    ],
    is_ours: summary_names_folder,
};

fn summary_names_folder(dir: &Path, name: &str) -> bool {
    let Ok(bytes) = std::fs::read(dir.join(SUMMARY_JSON)) else { return false };
    let json: Option<serde_json::Value> = serde_json::from_slice(&bytes).ok();
    json.is_some_and(|v| v.get("name").and_then(|n| n.as_str()) == Some(name))
}

/// Check every trial's folder under `out` before any training starts (the output policy of
/// [`crate::output`]): a foreign file or folder at `<out>/<name>` is an error and nothing is run.
pub fn check_destinations(trials: &[Trial], out: &Path) -> Result<Vec<RunFolder>> {
    trials.iter().map(|t| RunFolder::check(out, t.name(), &TRIAL_FOLDER)).collect()
}

/// Write a finished trial's report folder, all or nothing ([`RunFolder::write`]).
pub fn write_trial(folder: &RunFolder, run: &TrialRun) -> Result<()> {
    folder.write(&TRIAL_FOLDER, |tmp| {
        let c = &run.trial.config;
        let header = format!(
            "# Resolved config of {}, as run by kpk {} (defaults made explicit; seed = {}).\n",
            c.name,
            env!("CARGO_PKG_VERSION"),
            c.seed
        );
        crate::output::write_file(&tmp.join(CONFIG_TOML), (header + &c.to_toml()).as_bytes())?;
        write_metrics(&tmp.join(METRICS_CSV), &run.metrics)?;
        let summary =
            serde_json::to_string_pretty(&run.summary).map_err(|e| Error::Invalid(e.to_string()))?;
        crate::output::write_file(&tmp.join(SUMMARY_JSON), (summary + "\n").as_bytes())?;
        saved_net(run)?.save(&tmp.join(WEIGHTS_JSON))?;
        export::write_safetensors(&tmp.join(WEIGHTS_SAFETENSORS), &run.net, &export_metadata(run))?;
        let npy = tmp.join(WEIGHTS_NPY_DIR);
        std::fs::create_dir(&npy).map_err(io(&npy))?;
        export::write_npy(&npy, &run.net)?;
        let title = format!("{}: {} on {}, {}", c.name, c.topology, c.training_set, error_label(c));
        accuracy_chart(&title, &run.metrics).save(&tmp.join(ACCURACY_PNG), (900, 520))?;
        write_misclassified(&tmp.join(MISCLASSIFIED_CSV), &run.misclassified)
    })
}

fn error_label(c: &TrialConfig) -> String {
    let e = match c.error_function {
        ErrorName::E1 => "E1",
        ErrorName::E2 => "E2",
    };
    format!("{e} target {}", c.error_target)
}

/// The kept net as `weights.json` ([`SavedNet`]: topology, slope, codings, seed, weights).
fn saved_net(run: &TrialRun) -> Result<SavedNet> {
    let c = &run.trial.config;
    SavedNet::new(&run.net, c.input_coding, SavedNet::all_features(), run.trial.output(), c.seed)
}

/// `kpk export`: read a trained net's `weights.json` and write it into `out` as `weights.json`,
/// `weights.safetensors` and `npy/layer{k}.{weight,bias}.npy`. The net is read in full before
/// anything is written, and each file is written atomically. Returns the files written.
pub fn export_net(weights_json: &Path, out: &Path) -> Result<Vec<std::path::PathBuf>> {
    let saved = SavedNet::load(weights_json)?;
    let net = saved.net()?;
    let coding = saved.input_coding;
    let npy = out.join(WEIGHTS_NPY_DIR);
    std::fs::create_dir_all(&npy).map_err(io(&npy))?;
    let mut written = Vec::new();
    let json = out.join(WEIGHTS_JSON);
    if std::fs::canonicalize(&json).ok() != std::fs::canonicalize(weights_json).ok() {
        saved.save(&json)?;
        written.push(json);
    }
    let st = out.join(WEIGHTS_SAFETENSORS);
    export::write_safetensors(&st, &net, &[("input_coding", coding.name().to_string())])?;
    written.push(st);
    export::write_npy(&npy, &net)?;
    for k in 1..net.topology().len() {
        written.push(npy.join(export::npy_name(k, "weight")));
        written.push(npy.join(export::npy_name(k, "bias")));
    }
    Ok(written)
}

/// Read back a net exported by [`write_trial`] or [`export_net`] from `weights.json`.
pub fn load_net(weights_json: &Path) -> Result<Mlp> {
    SavedNet::load(weights_json)?.net()
}

fn export_metadata(run: &TrialRun) -> Vec<(&'static str, String)> {
    let c = &run.trial.config;
    vec![
        ("name", c.name.clone()),
        ("input_coding", c.input_coding.name().to_string()),
        ("output_coding", output_name(c.output_coding).to_string()),
        ("margin", c.margin.to_string()),
        ("seed", c.seed.to_string()),
    ]
}

/// `summary.json`: what a trial produced, for the report and for anyone scripting over runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub name: String,
    pub side: Side,
    pub training_set: String,
    pub testing_set: Option<String>,
    pub topology: String,
    /// Weights including biases (Table 5's "# wts.").
    pub weights: usize,
    /// Storage at 64 bits a weight, and the paper's compression factor 2^17 / bits (section 5).
    pub bits: usize,
    pub comp: f64,
    /// Epochs run before the stopping rule (or the budget) ended training.
    pub epochs: usize,
    /// The budget: the config's `max_epochs`.
    pub max_epochs: usize,
    /// The epoch whose end state was kept: the least error measure (section 4.5).
    pub best_epoch: usize,
    /// "error_target", "no_improvement" or "max_epochs".
    pub stop_reason: String,
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

/// One row of `metrics.csv`: what one epoch of training achieved, measured with the end-of-epoch
/// weights. Accuracies are at the config's margin (the stopping condition's reading, 4.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricsRow {
    pub epoch: usize,
    pub e1: f64,
    pub e2: f64,
    pub correct: usize,
    pub misclassified: usize,
    pub undecided: usize,
    pub total: usize,
    pub train_accuracy_pct: f64,
    /// Training accuracy under section 4.3's plain reading (m = 0); equals `train_accuracy_pct`
    /// unless the trial has two outputs and a margin. Always written by kpk; optional so that a
    /// `metrics.csv` without the column (written before it existed) still plots.
    pub train_accuracy_m0_pct: Option<f64>,
    pub test_accuracy_pct: Option<f64>,
}

impl MetricsRow {
    /// Training accuracy under section 4.3's plain reading (m = 0), the figure the report,
    /// Figure 3 and Table 6 use; the accuracy at the margin where m = 0 was not measured.
    pub fn accuracy_m0_pct(&self) -> f64 {
        self.train_accuracy_m0_pct.unwrap_or(self.train_accuracy_pct)
    }
}

/// Write `metrics.csv`.
pub fn write_metrics(path: &Path, rows: &[MetricsRow]) -> Result<()> {
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
pub fn check_finite(path: &Path, rows: &[MetricsRow]) -> Result<()> {
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
pub fn read_metrics(path: &Path) -> Result<Vec<MetricsRow>> {
    let bytes = crate::io::read(path)?;
    let rows = csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<std::result::Result<Vec<MetricsRow>, _>>()
        .map_err(|e| Error::Format { path: path.display().to_string(), message: e.to_string() })?;
    if rows.is_empty() {
        return Err(Error::Format { path: path.display().to_string(), message: "no epochs".into() });
    }
    Ok(rows)
}

/// The chart `accuracy.png`: training (and testing) accuracy on the left axis, E1 and E2 on the
/// right, by epoch.
pub fn accuracy_chart(title: &str, rows: &[MetricsRow]) -> LineChart {
    let points = |f: &dyn Fn(&MetricsRow) -> Option<f64>| -> Vec<(f64, f64)> {
        rows.iter().filter_map(|r| f(r).map(|v| (r.epoch as f64, v))).collect()
    };
    let differs = rows.iter().any(|r| r.train_accuracy_m0_pct.is_some_and(|a| a != r.train_accuracy_pct));
    let mut series = if differs {
        vec![
            Series::new("training accuracy, m = 0", points(&|r| r.train_accuracy_m0_pct), 0),
            Series::new("training accuracy at the margin", points(&|r| Some(r.train_accuracy_pct)), 4),
        ]
    } else {
        vec![Series::new("training accuracy", points(&|r| Some(r.train_accuracy_pct)), 0)]
    };
    let test = points(&|r| r.test_accuracy_pct);
    if !test.is_empty() {
        series.push(Series::new("testing accuracy", test, 2));
    }
    series.push(Series::new("E1", points(&|r| Some(r.e1)), 1).on_right_axis().dashed());
    series.push(Series::new("E2", points(&|r| Some(r.e2)), 3).on_right_axis().dashed());
    let low = rows
        .iter()
        .flat_map(|r| [Some(r.train_accuracy_pct), r.test_accuracy_pct])
        .flatten()
        .fold(100.0f64, f64::min);
    LineChart {
        title: title.to_string(),
        x_label: "epoch".into(),
        y_label: "accuracy, %".into(),
        // From the nearest 10% below the worst accuracy, so late progress stays visible.
        y_range: ((low / 10.0).floor() * 10.0, 100.0),
        y2: Some(("error (E1, E2)".into(), (0.0, 1.0))),
        log_x: false,
        legend_top: false,
        x_range: Some((1.0, rows.last().map_or(1, |r| r.epoch).max(2) as f64)),
        series,
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |cause| Error::Io { path: path.display().to_string(), cause }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
name = "t"
side = "wtm"
training_set = "T1"
testing_set = "S1"
data_seed = 1
topology = "32-10-10-1"
input_coding = "natural"
output_coding = "one"
error_function = "E1"
error_target = 0.1
optimiser = "online"
learning_rate = 0.5
max_epochs = 100
seed = 7
"#;

    fn with(key: &str, value: &str) -> String {
        let mut out: Vec<String> = GOOD
            .lines()
            .filter(|l| l.split_once('=').is_none_or(|(k, _)| k.trim() != key))
            .map(str::to_string)
            .collect();
        if !value.is_empty() {
            out.push(format!("{key} = {value}"));
        }
        out.join("\n")
    }

    fn error_of(text: &str) -> String {
        match TrialConfig::parse(text).and_then(TrialConfig::check) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn metrics_round_trip_through_csv() {
        let scratch = crate::scratch::Scratch::new("metrics");
        let dir = scratch.path();
        let rows: Vec<MetricsRow> = (1..=3)
            .map(|epoch| MetricsRow {
                epoch,
                e1: 0.1 / epoch as f64,
                e2: 0.9 / epoch as f64,
                correct: 100 + epoch,
                misclassified: 25 - epoch,
                undecided: 0,
                total: 125,
                train_accuracy_pct: 100.0 * (100 + epoch) as f64 / 125.0,
                train_accuracy_m0_pct: (epoch != 3).then_some(90.0),
                test_accuracy_pct: if epoch == 2 { None } else { Some(70.0 + epoch as f64) },
            })
            .collect();
        let path = dir.join("metrics.csv");
        write_metrics(&path, &rows).unwrap();
        assert_eq!(read_metrics(&path).unwrap(), rows);
        accuracy_chart("t", &rows).save(&dir.join("accuracy.png"), (400, 300)).unwrap();
        std::fs::write(&path, "epoch,e1\n1,x\n").unwrap();
        assert!(read_metrics(&path).unwrap_err().to_string().contains("metrics.csv"));
    }

    #[test]
    fn a_good_config_checks_and_round_trips_with_defaults_filled_in() {
        let trial = TrialConfig::parse(GOOD).unwrap().check().unwrap();
        assert_eq!(trial.topology, [32, 10, 10, 1]);
        assert_eq!(trial.config.window, 20);
        assert_eq!(trial.config.slope, 1.0);
        let resolved = trial.config.to_toml();
        assert!(resolved.contains("window = 20"), "{resolved}");
        assert_eq!(TrialConfig::parse(&resolved).unwrap(), trial.config);
    }

    #[test]
    fn unknown_keys_and_wrong_types_name_the_key_on_one_line() {
        let e = error_of(&with("learning_rat", "0.5"));
        assert!(e.contains("learning_rat") && !e.contains('\n'), "{e}");
        let e = error_of(&with("max_epochs", "\"lots\""));
        assert!(e.contains("key `max_epochs`") && !e.contains('\n'), "{e}");
        let e = error_of(&with("seed", ""));
        assert_eq!(e, "missing field `seed`");
        let e = error_of(&with("error_function", "\"E3\""));
        assert!(e.contains("error_function") && e.contains("E1") && e.contains("E2"), "{e}");
        let e = error_of(&with("input_coding", "\"gray\""));
        assert!(e.contains("input_coding") && e.contains("natural"), "{e}");
    }

    #[test]
    fn values_are_checked_against_each_other() {
        let cases = [
            (with("topology", "\"31-10-1\""), "key `topology`"),
            (with("topology", "\"32-10-2\""), "key `topology`"),
            (with("topology", "\"32\""), "key `topology`"),
            (with("topology", "\"32-0-1\""), "key `topology`"),
            (with("topology", "\"32-x-1\""), "key `topology`"),
            (with("training_set", "\"T9\""), "key `training_set`"),
            (with("testing_set", "\"S2\""), "key `testing_set`"),
            (with("testing_set", "\"T1\""), "key `testing_set`"),
            (with("side", "\"btm\""), "key `side`"),
            (with("margin", "0.4"), "key `margin`"),
            (with("error_target", "0"), "key `error_target`"),
            (with("learning_rate", "-1.0"), "key `learning_rate`"),
            (with("momentum", "1.0"), "key `momentum`"),
            (with("max_epochs", "0"), "key `max_epochs`"),
            (with("window", "101"), "key `window`"),
            (with("slope", "0.0"), "key `slope`"),
            (with("name", "\"../x\""), "key `name`"),
            (with("batch_size", "8"), "key `batch_size`"),
        ];
        for (text, expected) in cases {
            let e = error_of(&text);
            assert!(e.contains(expected) && !e.contains('\n'), "expected {expected}, got {e}");
        }
        // Two outputs need a two-output topology, and take a margin in [0, 0.5).
        let two = with("output_coding", "\"two\"").replace("32-10-10-1", "32-10-10-2");
        assert!(TrialConfig::parse(&two).unwrap().check().is_ok());
        let e = error_of(&format!("{two}\nmargin = 0.5"));
        assert!(e.contains("key `margin`"), "{e}");
        assert!(TrialConfig::parse(&format!("{two}\nmargin = 0.4")).unwrap().check().is_ok());
    }
}

//! A trial's TOML config and its validation into a checked [`Trial`] (parse, then check once).

use crate::dataset::{SetName, Side};
use crate::error::{Allowed, Error, Result};
use crate::net::output::OutputCoding;
use crate::net::topology::Topology;
use crate::paper::coding::InputCoding;
use crate::paper::tables::Scope;
use crate::train::{
    config::{Anneal, ErrorFunction, Optimiser, StopRule, TrainConfig, default_window},
    keep::BestState,
};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// Output coding as written in a config (section 4.3): one output neuron, or two with a margin.
/// A config is flat, one key per column of the paper's Table 5, so it names the kind here and gives
/// the margin in its own key; [`TrialConfig::output`] makes the trainer's [`OutputCoding`]. Both
/// keys are required: there is no default to disagree with the trainer's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputName {
    One,
    Two,
}

/// Optimiser as written in a config: the paper's online gradient descent, or Adam. The rate,
/// momentum, annealing and batch size are keys of their own; [`Trial::train_config`] makes the
/// trainer's [`Optimiser`] (Adam's β1, β2 and ε are the trainer's defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimiserName {
    Online,
    Adam,
}

/// The no-improvement condition's look-back a config gets unless it says otherwise: of the
/// readings of section 4.5 compared on all 41 trials (`kpk readings`, `reports/readings/`), the
/// error target held for 20 epochs or no gain in the correct count for 100 comes closest to the
/// paper's epochs and accuracies.
pub const DEFAULT_PATIENCE: usize = 100;

fn default_patience() -> usize {
    DEFAULT_PATIENCE
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

fn is_constant(a: &Anneal) -> bool {
    *a == Anneal::None
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
    pub training_set: SetName,
    /// Absent when the trial is not tested (Table 5, trials 38-41).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub testing_set: Option<SetName>,
    /// Seed of the random draws that make the small sets T1/S1 and T2/S2.
    pub data_seed: u64,
    /// Share of the drawn small sets' positions taken from section 5.1's critical ones: the
    /// "harder sets" reading of section 4.5's hand-prepared T1/S1, T2/S2
    /// ([`crate::dataset::borderline::draw_borderline`]). 0, the default, is a plain random draw.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub borderline: f64,
    /// Layer widths, input first: "32-10-10-1".
    pub topology: Topology,
    pub input_coding: InputCoding,
    pub output_coding: OutputName,
    /// Section 4.3's m: outputs within m of 0.5 are 'undecided'. Only for two outputs.
    #[serde(default)]
    pub margin: f64,
    pub error_function: ErrorFunction,
    /// Training stops once the error function has stayed at or below this (section 4.5).
    pub error_target: f64,
    pub optimiser: OptimiserName,
    pub learning_rate: f64,
    /// Online optimiser only; the paper used none (section 4.5).
    #[serde(default)]
    pub momentum: f64,
    /// Online optimiser only: the learning rate's schedule over epochs; the paper used none
    /// (section 4.5), section 6 asks whether annealing would have helped.
    #[serde(default, skip_serializing_if = "is_constant")]
    pub anneal: Anneal,
    /// Adam only: positions per weight update.
    #[serde(default = "default_batch_size")]
    pub batch_size: usize,
    pub max_epochs: usize,
    /// Epochs the stopping rule looks back over (section 4.5: 20).
    #[serde(default = "default_window")]
    pub window: usize,
    /// Which end-of-epoch state to keep (see [`BestState`]).
    #[serde(default)]
    pub keep: BestState,
    /// Which of section 4.5's stopping conditions end training (see [`StopRule`]).
    #[serde(default)]
    pub stop: StopRule,
    /// Epochs without a gain in the correct count before the no-improvement condition stops
    /// training (default [`DEFAULT_PATIENCE`]).
    #[serde(default = "default_patience")]
    pub patience: usize,
    /// The sigmoid's slope b (section 3: b = 1).
    #[serde(default = "default_slope")]
    pub slope: f64,
    /// Seed of the initial weights and of any other random choice in training.
    pub seed: u64,
}

/// A validated trial: every value is in range and consistent with the others. Once checked it
/// does not change: a variant (another seed, rate or budget) is made by [`Trial::with`], which
/// checks again.
#[derive(Debug, PartialEq)]
pub struct Trial {
    /// The config as read, with defaults filled in: written back as the resolved config.
    pub config: Checked,
}

/// A trial's config once checked: read through `Deref`, never written.
#[derive(Debug, PartialEq)]
pub struct Checked(TrialConfig);

impl std::ops::Deref for Checked {
    type Target = TrialConfig;

    fn deref(&self) -> &TrialConfig {
        &self.0
    }
}

impl Clone for Trial {
    fn clone(&self) -> Trial {
        Trial { config: Checked(self.config.0.clone()) }
    }
}

/// The largest epoch budget (and window and patience) a config may ask for: the trainer's
/// [`crate::train::config::MAX_EPOCHS`], far beyond the paper's longest run (6,285).
pub const MAX_EPOCHS_LIMIT: usize = crate::train::config::MAX_EPOCHS;

fn bad(key: &str, message: impl fmt::Display) -> Error {
    Error::config(key, message)
}

impl TrialConfig {
    /// Read and check a config file. Errors name the file, and the key where there is one.
    pub fn load(path: &Path) -> Result<Trial> {
        let text = crate::io::read_config(path)?;
        TrialConfig::parse(&text).and_then(TrialConfig::check).map_err(|e| e.in_file(path))
    }

    /// Parse TOML text. A syntax or type error becomes one line naming the line and key.
    pub fn parse(text: &str) -> Result<TrialConfig> {
        toml::from_str(text).map_err(|e| Error::Toml(one_line_toml_error(text, &e)))
    }

    /// The config as TOML, every default made explicit.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a TrialConfig always serialises")
    }

    /// The output coding the keys `output_coding` and `margin` state (section 4.3).
    pub fn output(&self) -> OutputCoding {
        match self.output_coding {
            OutputName::One => OutputCoding::One,
            OutputName::Two => OutputCoding::Two { margin: self.margin },
        }
    }

    /// Validate every value; the error names the key and what it allows.
    pub fn check(self) -> Result<Trial> {
        self.check_name()?;
        self.check_sets()?;
        self.check_topology()?;
        self.check_training()?;
        Ok(Trial { config: Checked(self) })
    }

    fn check_name(&self) -> Result<()> {
        let c = self;
        if c.name.is_empty()
            || c.name.starts_with('.')
            || !c.name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_' || ch == '.')
        {
            return Err(bad(
                "name",
                format!("'{}' must be letters, digits, '-', '_' or '.' (it names a folder)", c.name),
            ));
        }
        Ok(())
    }

    /// The training and testing sets hold the trial's side, and differ.
    fn check_sets(&self) -> Result<()> {
        let c = self;
        let training_side = c.training_set.side();
        if training_side != c.side {
            return Err(bad(
                "side",
                format!(
                    "'{}' does not match training set {}, whose positions are {}",
                    c.side, c.training_set, training_side
                ),
            ));
        }
        if !(0.0..=1.0).contains(&c.borderline) {
            return Err(bad("borderline", format!("{} is outside [0, 1], a share of the set", c.borderline)));
        }
        if c.borderline > 0.0 && !c.training_set.is_drawn() {
            let set = c.training_set;
            return Err(bad("borderline", format!("{set} is a whole set; only T1/S1 and T2/S2 are drawn")));
        }
        if let Some(test) = c.testing_set {
            let side = test.side();
            if side != c.side {
                return Err(bad(
                    "testing_set",
                    format!("{test} holds {side} positions but the trial's side is {}", c.side),
                ));
            }
            if test == c.training_set {
                return Err(bad(
                    "testing_set",
                    format!("{test} is also the training set; testing needs unseen positions"),
                ));
            }
        }
        Ok(())
    }

    /// The topology fits the input coding and the output coding (with its margin, section 4.3).
    fn check_topology(&self) -> Result<()> {
        let c = self;
        let inputs = c.input_coding.width();
        if c.topology.inputs() != inputs {
            let by = format!("input_coding '{}'", c.input_coding.name());
            return Err(bad("topology", Error::InputWidth { net: c.topology.inputs(), by, given: inputs }));
        }
        let outputs = match c.output_coding {
            OutputName::One => 1,
            OutputName::Two => 2,
        };
        let last = c.topology.outputs();
        if last != outputs {
            let by = format!("output_coding '{}'", output_name(c.output_coding));
            return Err(bad("topology", Error::OutputWidth { net: last, by, needs: outputs }));
        }
        match c.output_coding {
            // Section 4.3: a single output is read as win iff y1 >= 0.5; there is no margin.
            OutputName::One if c.margin != 0.0 => {
                return Err(bad(
                    "margin",
                    format!("{} is only allowed with output_coding = \"two\"", c.margin),
                ));
            }
            _ => {}
        }
        c.output().validate()
    }

    /// The trainer's values: error target, step size, momentum, batch, budget, window, slope.
    fn check_training(&self) -> Result<()> {
        let c = self;
        Allowed::FACTOR.check_key("error_target", c.error_target)?;
        Allowed::POSITIVE.check_key("learning_rate", c.learning_rate)?;
        Allowed::FRACTION.check_key("momentum", c.momentum)?;
        match c.anneal {
            Anneal::Exponential { factor } => _ = Allowed::FACTOR.check_key("anneal.factor", factor)?,
            Anneal::Inverse { epochs } => _ = Allowed::POSITIVE.check_key("anneal.epochs", epochs)?,
            Anneal::None => {}
        }
        if !(1..=crate::train::config::MAX_BATCH_SIZE).contains(&c.batch_size) {
            return Err(bad(
                "batch_size",
                format!("{} is outside 1..={}", c.batch_size, crate::train::config::MAX_BATCH_SIZE),
            ));
        }
        // Settings only one optimiser reads (Adam keeps its own moments and rate; online descent
        // updates after every position): (key, given, the optimiser that reads it).
        let only_for = [
            ("momentum", c.momentum != 0.0, OptimiserName::Online),
            ("anneal", c.anneal != Anneal::None, OptimiserName::Online),
            ("batch_size", c.batch_size != default_batch_size(), OptimiserName::Adam),
        ];
        if let Some((key, _, reads)) =
            only_for.into_iter().find(|&(_, given, reads)| given && reads != c.optimiser)
        {
            let name = if reads == OptimiserName::Online { "online" } else { "adam" };
            return Err(bad(key, format!("applies to optimiser = \"{name}\" only")));
        }
        if !(1..=MAX_EPOCHS_LIMIT).contains(&c.max_epochs) {
            return Err(bad("max_epochs", format!("{} is outside 1..={MAX_EPOCHS_LIMIT}", c.max_epochs)));
        }
        if c.window == 0 || c.window > c.max_epochs {
            return Err(bad("window", format!("{} is outside 1..=max_epochs ({})", c.window, c.max_epochs)));
        }
        if !(1..=MAX_EPOCHS_LIMIT).contains(&c.patience) {
            return Err(bad("patience", format!("{} is outside 1..={MAX_EPOCHS_LIMIT}", c.patience)));
        }
        Allowed::POSITIVE.check_key("slope", c.slope).map(|_| ())
    }
}

pub(super) fn output_name(o: OutputName) -> &'static str {
    match o {
        OutputName::One => "one",
        OutputName::Two => "two",
    }
}

/// Parse a config's TOML text into `T` (a trial, the compress config): a syntax or type error
/// becomes one line naming the line and the key.
pub fn parse_toml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T> {
    toml::from_str(text).map_err(|e| Error::Toml(one_line_toml_error(text, &e)))
}

/// toml's errors span several lines (a source excerpt with a caret). Reduce one to a single
/// line: the line number, the key on that line if there is one, and the message.
///
/// The line is where the error's span starts: a bad value or key, a table lacking a key (toml
/// spans its header or its inline `{ … }`), or the place a syntax error was found (an empty
/// span). The document itself has no line: toml gives an error of the top-level table (a
/// missing top-level key) an empty span at the start, where a syntax error can also be found,
/// so an empty span at the start counts as the document's only if the text is TOML. A span over
/// several lines points at no one key, and keeps the message alone too.
fn one_line_toml_error(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim().replace('\n', "; ");
    let Some(span) = e.span() else { return message };
    let of_document = span.end == 0 && toml::from_str::<toml::Table>(text).is_ok();
    if of_document || text.get(span.clone()).is_none_or(|s| s.trim_end().contains('\n')) {
        return message;
    }
    let line_no = text[..span.start.min(text.len())].matches('\n').count() + 1;
    let line = text.lines().nth(line_no - 1).unwrap_or("");
    // The key before the line's first '=', unless the line opens a value instead (an inline
    // table in a multi-line array).
    let key = line.split_once('=').map(|(key, _)| key.trim()).filter(|key| {
        !key.is_empty() && !key.contains(['{', '[', ',']) && !line.trim_start().starts_with('#')
    });
    match key {
        Some(key) => format!("line {line_no}, key `{key}`: {message}"),
        None => format!("line {line_no}: {message}"),
    }
}

/// The presentation order's seed is derived from the trial's seed, so that the initial weights
/// and the order come from unrelated random streams although one `seed` key sets both.
const ORDER_SEED_OFFSET: u64 = 0x9E37_79B9_7F4A_7C15;

impl Trial {
    /// This trial with `edit` made to its config, checked again.
    pub fn with(&self, edit: impl FnOnce(&mut TrialConfig)) -> Result<Trial> {
        let mut config = self.config.0.clone();
        edit(&mut config);
        config.check()
    }

    /// Small-set or whole-set trial, as its training set is (section 4.5).
    pub fn scope(&self) -> Scope {
        self.config.training_set.scope()
    }

    /// The trial's name (its report folder).
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The net's layer widths, inputs first.
    pub fn topology(&self) -> &Topology {
        &self.config.topology
    }

    /// How targets are coded and outputs read during training (section 4.3).
    pub fn output(&self) -> OutputCoding {
        self.config.output()
    }

    /// The trainer's configuration.
    pub fn train_config(&self) -> TrainConfig {
        let c = &self.config;
        TrainConfig {
            error_function: c.error_function,
            error_target: c.error_target,
            output: self.output(),
            optimiser: match c.optimiser {
                // Section 4.5: a fixed presentation order; annealing only where a config asks (section 6).
                OptimiserName::Online => Optimiser::Online {
                    learning_rate: c.learning_rate,
                    momentum: c.momentum,
                    anneal: c.anneal,
                    reshuffle: false,
                },
                OptimiserName::Adam => Optimiser::adam(c.learning_rate, c.batch_size),
            },
            max_epochs: c.max_epochs,
            window: c.window,
            seed: c.seed.wrapping_add(ORDER_SEED_OFFSET),
            best: c.keep,
            stop: c.stop,
            patience: Some(c.patience),
        }
    }

    /// The most work the trial can take, in position presentations: for running the longest
    /// trials first.
    pub fn budget(&self) -> usize {
        self.config.training_set.size() * self.config.max_epochs
    }
}

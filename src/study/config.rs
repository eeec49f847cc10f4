//! A study's TOML config and its expansion into checked trials: a base trial config, a grid of
//! settings (each a few keys overriding the base), and replicates of every setting.
//!
//! Every trial of a study goes through [`TrialConfig::check`], the same validation as a Table 5
//! trial, so a study cannot ask for a run that `kpk run` would refuse.

use crate::error::{Error, Result};
use crate::experiment::config::{Trial, TrialConfig};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How the replicates of a setting differ from one another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Vary {
    /// Replicate r adds r to `seed` (the initial weights and the presentation order).
    Seed,
    /// Replicate r adds r to `seed` and to `data_seed` (also a fresh draw of T1/S1, T2/S2).
    SeedAndData,
}

/// The measure a study's answer compares settings by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// The kept net's accuracy on the testing set at m = 0, %.
    #[serde(alias = "test_pct")]
    Test,
    /// The kept net's accuracy on the training set at m = 0, %.
    #[serde(alias = "train_pct")]
    Train,
    /// Epochs run until the stopping rule (or the budget) ended training.
    Epochs,
    /// The epoch of the state the setting reports (see [`State`]).
    #[serde(alias = "state_epoch")]
    Epoch,
}

/// Which end-of-epoch state of a run a setting reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// The state the trial's `keep` rule kept (what Table 5 reports).
    #[default]
    Kept,
    /// The epoch with the highest testing accuracy (the first such): what early stopping on the
    /// testing set would have kept.
    PeakTest,
    /// The last epoch run.
    Last,
    /// The epoch with the highest accuracy on the setting's validation set (the first such):
    /// early stopping as a practitioner without the testing set would do it.
    PeakValidation,
    /// A fixed epoch, declared before the run (or the last, if training ended before it).
    Epoch(usize),
}

/// How a study's figure is drawn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Figure {
    /// Each setting's mean and interval of every measure, settings along the x axis.
    #[default]
    Settings,
    /// The first measure against each setting's `x`, one line per `series`.
    Line {
        x_label: String,
        #[serde(default)]
        log_x: bool,
    },
    /// Training and testing accuracy per epoch, mean over replicates, one panel per setting
    /// whose state is the kept one.
    Epochs,
}

/// Keys a setting may give besides trial keys: what the study layer does around the trial.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingKeys {
    /// Which end-of-epoch state the replicate reports.
    #[serde(default)]
    pub state: State,
    /// The setting's place on a line figure's x axis.
    pub x: Option<f64>,
    /// The line a setting belongs to in a line figure.
    pub series: Option<String>,
    /// Draw the training positions from the side's positions on these pawn files only (a-d).
    pub pool_file: Option<String>,
    /// Test on this many positions of the pool, drawn with a fixed seed (the same in every
    /// replicate) and never trained on.
    pub held_out: Option<usize>,
    /// Train on this many positions drawn from the pool less the held-out set (default: all).
    pub train_size: Option<usize>,
    /// Test on every position of the side on these pawn files instead.
    pub test_files: Option<String>,
    /// Feed the net only the first k inputs of the coding (x1..x6: the pieces' files and ranks).
    pub inputs: Option<usize>,
    /// Skip-layer connections from the inputs to the output layer (`Mlp::with_skip`): section 6's
    /// other topologies.
    #[serde(default)]
    pub skip: bool,
    /// A validation set of this many positions of the side, drawn per replicate (from its data
    /// seed) outside the training and testing sets: what `state = "peak_validation"` reads.
    pub validation: Option<usize>,
    /// Section 2's curriculum: train on Cp ∪ draws for each p in turn, `stage_epochs` each.
    pub curriculum: Option<Vec<u8>>,
    pub stage_epochs: Option<usize>,
    /// After training, zero this fraction of the weights (biases kept), the least important first.
    pub prune: Option<f64>,
    #[serde(default)]
    pub prune_by: PruneBy,
    /// Epochs of retraining after pruning, the pruned weights held at 0.
    #[serde(default)]
    pub retrain: usize,
}

/// How pruning ranks the weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PruneBy {
    /// The smallest |w| first.
    #[default]
    Magnitude,
    /// Section 6's test: a twin net trained from −init beside the net from init; the weights
    /// with the smallest |w+ + w−| / 2 (those that kept their init's sign) first.
    Symmetry,
    /// A seeded random order: the baseline.
    Random,
}

impl SettingKeys {
    /// Whether the training and testing sets are drawn by the study rather than named.
    pub fn draws_data(&self) -> bool {
        self.pool_file.is_some()
            || self.held_out.is_some()
            || self.train_size.is_some()
            || self.test_files.is_some()
    }

    /// Whether the trial needs the study layer's own runner rather than `kpk run`'s.
    pub fn is_custom(&self) -> bool {
        self.draws_data()
            || self.inputs.is_some()
            || self.skip
            || self.curriculum.is_some()
            || self.prune.is_some()
            || self.validation.is_some()
    }
}

impl SettingKeys {
    /// Every count and fraction against its limit, for a setting of `trial`'s shape.
    fn check(&self, trial: &Trial) -> Result<()> {
        let width = trial.config.input_coding.width();
        if let Some(k) = self.inputs
            && !(1..=width).contains(&k)
        {
            return Err(Error::config("inputs", format!("{k} is outside 1..={width}, the coding's inputs")));
        }
        let epochs = crate::experiment::config::MAX_EPOCHS_LIMIT;
        for (key, n) in [("stage_epochs", self.stage_epochs.unwrap_or(1)), ("retrain", self.retrain)] {
            if n > epochs {
                return Err(Error::config(key, format!("{n} is more than {epochs} epochs")));
            }
        }
        if self.curriculum.as_ref().is_some_and(|c| c.is_empty() || c.len() > MAX_CURRICULUM) {
            return Err(Error::config("curriculum", format!("needs 1..={MAX_CURRICULUM} stages")));
        }
        if self.prune.is_some_and(|f| !(0.0..=1.0).contains(&f)) {
            return Err(Error::config("prune", "a fraction in [0, 1]"));
        }
        let validating = self.state == State::PeakValidation;
        if validating != self.validation.is_some() {
            return Err(Error::config(
                "validation",
                "a validation set goes with state = \"peak_validation\"",
            ));
        }
        if self.validation.is_some_and(|n| !(1..=MAX_VALIDATION).contains(&n)) {
            return Err(Error::config("validation", format!("needs 1..={MAX_VALIDATION} positions")));
        }
        if validating && (self.draws_data() || trial.config.testing_set.is_none()) {
            let reason = "a validation set needs the trial's own training and testing sets";
            return Err(Error::config("validation", reason));
        }
        if let State::Epoch(e) = self.state
            && !(1..=trial.config.max_epochs).contains(&e)
        {
            return Err(Error::config("state", format!("epoch {e} is outside 1..=max_epochs")));
        }
        Ok(())
    }
}

/// The names of [`SettingKeys`]' fields: taken out of a setting before its trial keys are read.
pub const SETTING_KEYS: &[&str] = &[
    "state",
    "x",
    "series",
    "pool_file",
    "held_out",
    "train_size",
    "test_files",
    "validation",
    "inputs",
    "skip",
    "curriculum",
    "stage_epochs",
    "prune",
    "prune_by",
    "retrain",
];

impl Measure {
    /// Column stem in `results.csv` and words for the answer.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Test => "test accuracy",
            Measure::Train => "training accuracy",
            Measure::Epochs => "epochs",
            Measure::Epoch => "epoch of the state",
        }
    }

    /// Its column in `replicates.csv` (what a contrast names as its measure).
    pub fn column(self) -> &'static str {
        match self {
            Measure::Test => "test_pct",
            Measure::Train => "train_pct",
            Measure::Epochs => "epochs",
            Measure::Epoch => "state_epoch",
        }
    }

    /// Whether more is better (accuracy) or less (epochs).
    pub fn higher_is_better(self) -> bool {
        !matches!(self, Measure::Epochs | Measure::Epoch)
    }

    /// The unit the answer writes after a value.
    pub fn unit(self) -> &'static str {
        match self {
            Measure::Epochs | Measure::Epoch => " epochs",
            _ => "%",
        }
    }

    /// A difference's unit.
    pub fn difference_unit(self) -> &'static str {
        match self {
            Measure::Epochs | Measure::Epoch => " epochs",
            _ => " points",
        }
    }
}

/// A contrast as a study config declares it: a − b between setting numbers from 1, as in
/// `results.csv`, on a column of `replicates.csv` (`test_pct`, `train_pct`, `epochs` or
/// `state_epoch`).
pub type ContrastSpec = crate::stats::family::ContrastSpec<usize, Measure>;

/// One point of the grid: a label and the trial keys it overrides.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Setting {
    /// How the setting is named in the table, the figure and the answer.
    pub label: String,
    /// Trial config keys (as in experiments/table5/*.toml) replacing the base's values.
    #[serde(flatten)]
    pub overrides: toml::Table,
}

/// A study exactly as its TOML file states it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyConfig {
    /// The study's name: its folder under reports/studies/ and its prose template.
    pub name: String,
    /// The section heading in STUDIES.md.
    pub title: String,
    /// The base trial config, relative to the study file.
    pub base: PathBuf,
    /// Replicates of every setting (at least 5 for a committed study).
    pub replicates: usize,
    pub vary: Vary,
    /// The measures the table and figure show, the first one answering the question.
    pub measures: Vec<Measure>,
    /// The contrasts declared before the run: the primary ones answer the paper's question (Holm
    /// over every study's primaries), the others are exploratory.
    #[serde(default, rename = "contrast")]
    pub contrasts: Vec<ContrastSpec>,
    /// How the figure is drawn (default: settings along the x axis).
    #[serde(default)]
    pub figure: Figure,
    #[serde(rename = "setting")]
    pub settings: Vec<Setting>,
}

/// A study ready to run: its config and every trial, settings outer, replicates inner.
#[derive(Clone, Debug)]
pub struct Study {
    pub config: StudyConfig,
    /// The base config's path from where the study file was read, `..` folded, for the report.
    pub base_shown: String,
    /// `trials[s * replicates + r]` is replicate r of setting s.
    pub trials: Vec<Trial>,
    /// Each setting's study-layer keys, in the config's order.
    pub keys: Vec<SettingKeys>,
}

/// The fewest replicates `kpk study` accepts for a study's own count; `--replicates` may lower it
/// for a quick look (never for a committed report).
pub const MIN_REPLICATES: usize = 5;

/// The most replicates per setting (the file's count or `--replicates`).
pub const MAX_REPLICATES: usize = 1000;
/// The most settings a study may compare.
pub const MAX_SETTINGS: usize = 100;
/// The most stages a curriculum may list.
pub const MAX_CURRICULUM: usize = 64;
/// The most positions a validation set may hold.
pub const MAX_VALIDATION: usize = 10_000;

fn invalid(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::Format { path: path.display().to_string(), message: message.to_string() }
}

/// A path with `..` folded into the folder before it, as a reader would write it:
/// `experiments/studies/../table5/trial21.toml` is `experiments/table5/trial21.toml`.
fn lexical(path: &Path) -> String {
    use std::path::Component;
    let mut parts: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(parts.last(), Some(Component::Normal(_))) => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    parts.iter().collect::<PathBuf>().display().to_string()
}

impl StudyConfig {
    /// Read a study file, its base trial config, and expand and check every trial. `replicates`
    /// replaces the file's count (for reduced runs).
    pub fn load(path: &Path, replicates: Option<usize>) -> Result<Study> {
        let text = crate::io::read_config(path)?;
        let config: StudyConfig = toml::from_str(&text).map_err(|e| invalid(path, e.message().trim()))?;
        let base_path = path.parent().unwrap_or(Path::new(".")).join(&config.base);
        let same = std::fs::canonicalize(&base_path).ok() == std::fs::canonicalize(path).ok();
        if same && base_path.exists() {
            let reason = "names this study file itself; a study's base is a trial config";
            return Err(Error::Config {
                path: path.display().to_string(),
                key: "base".into(),
                reason: reason.into(),
            });
        }
        let base_text = crate::io::read_config(&base_path)?;
        let base: toml::Table =
            toml::from_str(&base_text).map_err(|e| invalid(&base_path, e.message().trim()))?;
        if base.contains_key("setting") || base.contains_key("base") {
            let reason = format!("{} is a study, not a trial config", base_path.display());
            return Err(Error::Config { path: path.display().to_string(), key: "base".into(), reason });
        }
        let base_shown = lexical(&path.parent().unwrap_or(Path::new(".")).join(&config.base));
        let keys = config.setting_keys().map_err(|e| e.in_file(path))?;
        let trials = config.expand(&base, replicates).map_err(|e| e.in_file(path))?;
        let per_setting = trials.len() / config.settings.len();
        for ((setting, k), trial) in config.settings.iter().zip(&keys).zip(trials.iter().step_by(per_setting))
        {
            k.check(trial).map_err(|e| e.context(format!("setting '{}'", setting.label)).in_file(path))?;
        }
        Ok(Study { config, base_shown, trials, keys })
    }

    fn check(&self, replicates: usize) -> Result<()> {
        let bad = |key: &str, m: String| Err(Error::config(key, m));
        if self.name.is_empty() || !self.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return bad("name", format!("'{}' must be letters, digits and '_'", self.name));
        }
        if !(1..=MAX_REPLICATES).contains(&replicates) {
            return bad("replicates", format!("{replicates} is outside 1..={MAX_REPLICATES}"));
        }
        if self.settings.is_empty() {
            return bad("setting", "no [[setting]]: a study compares at least one setting".into());
        }
        if self.settings.len() > MAX_SETTINGS {
            return bad("setting", format!("{} settings, more than {MAX_SETTINGS}", self.settings.len()));
        }
        if self.measures.is_empty() {
            return bad("measures", "name at least one of test, train, epochs".into());
        }
        for (i, s) in self.settings.iter().enumerate() {
            if self.settings[..i].iter().any(|t| t.label == s.label) {
                return bad("setting", format!("setting '{}' appears twice", s.label));
            }
            for key in ["name", "seed", "data_seed"] {
                if s.overrides.contains_key(key) {
                    return bad(key, format!("setting '{}' sets it, but the study sets it", s.label));
                }
            }
        }
        for (i, c) in self.contrasts.iter().enumerate() {
            let settings = self.settings.len();
            c.check(|key, &n| {
                if (1..=settings).contains(&n) {
                    Ok(())
                } else {
                    Err(Error::config(key, format!("setting {n} is outside 1..={settings}")))
                }
            })
            .map_err(|e| e.context(format!("contrast {}", i + 1)))?;
            if self.contrasts[..i].iter().any(|d| d.name == c.name) {
                return bad("contrast", format!("'{}' appears twice", c.name));
            }
        }
        Ok(())
    }

    /// Each setting's study-layer keys, read from its table.
    fn setting_keys(&self) -> Result<Vec<SettingKeys>> {
        self.settings
            .iter()
            .map(|s| {
                let own: toml::Table = s
                    .overrides
                    .iter()
                    .filter(|(k, _)| SETTING_KEYS.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                toml::Value::Table(own).try_into().map_err(|e: toml::de::Error| {
                    Error::Toml(e.message().trim().to_string()).context(format!("setting '{}'", s.label))
                })
            })
            .collect()
    }

    /// Every trial: the base with the setting's keys, named `<study>-s<setting>-r<replicate>`, its
    /// seeds moved on by the replicate number as `vary` says.
    fn expand(&self, base: &toml::Table, replicates: Option<usize>) -> Result<Vec<Trial>> {
        let replicates = replicates.unwrap_or(self.replicates);
        self.check(replicates)?;
        let seed_of = |t: &toml::Table, key: &str| -> Result<u64> {
            t.get(key)
                .and_then(toml::Value::as_integer)
                .and_then(|v| u64::try_from(v).ok())
                .ok_or_else(|| Error::config(key, "must be a whole number").context("base config"))
        };
        let mut trials = Vec::with_capacity(self.settings.len() * replicates);
        for (s, setting) in self.settings.iter().enumerate() {
            let mut table = base.clone();
            for (k, v) in setting.overrides.iter().filter(|(k, _)| !SETTING_KEYS.contains(&k.as_str())) {
                table.insert(k.clone(), v.clone());
            }
            let (seed, data_seed) = (seed_of(&table, "seed")?, seed_of(&table, "data_seed")?);
            for r in 0..replicates as u64 {
                let mut t = table.clone();
                t.insert("name".into(), format!("{}-s{}-r{}", self.name, s + 1, r + 1).into());
                let moved = |v: u64| toml::Value::Integer(i64::try_from(v + r).unwrap_or(i64::MAX));
                t.insert("seed".into(), moved(seed));
                if self.vary == Vary::SeedAndData {
                    t.insert("data_seed".into(), moved(data_seed));
                }
                let config: TrialConfig =
                    toml::Value::Table(t).try_into().map_err(|e: toml::de::Error| {
                        Error::Toml(e.message().trim().to_string())
                            .context(format!("setting '{}'", setting.label))
                    })?;
                let trial = config.check().map_err(|e| e.context(format!("setting '{}'", setting.label)))?;
                trials.push(trial);
            }
        }
        Ok(trials)
    }
}

impl Study {
    /// Replicates per setting, as run.
    pub fn replicates(&self) -> usize {
        self.trials.len() / self.config.settings.len()
    }
}

/// The study configs (`*.toml`) in `dir`, sorted by name.
pub fn configs_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let listing =
        std::fs::read_dir(dir).map_err(|e| Error::Io { path: dir.display().to_string(), cause: e })?;
    let mut paths: Vec<PathBuf> = listing
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(invalid(dir, "no *.toml study configs"));
    }
    Ok(paths)
}

/// Load and check every study before anything runs: each has at least [`MIN_REPLICATES`]
/// replicates in its config, and no two share a name. `replicates` overrides every config's
/// count (a reduced run).
pub fn load_all(paths: &[PathBuf], replicates: Option<usize>) -> Result<Vec<Study>> {
    let mut out: Vec<Study> = Vec::new();
    for path in paths {
        let s = StudyConfig::load(path, replicates)?;
        let key = |key: &str, reason: String| Error::Config {
            path: path.display().to_string(),
            key: key.into(),
            reason,
        };
        if s.config.replicates < MIN_REPLICATES {
            return Err(key("replicates", format!("{} is below {MIN_REPLICATES}", s.config.replicates)));
        }
        if out.iter().any(|o| o.config.name == s.config.name) {
            return Err(key("name", format!("'{}' is used by another study", s.config.name)));
        }
        out.push(s);
    }
    Ok(out)
}

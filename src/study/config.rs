//! A study's TOML config and its expansion into checked trials: a base trial config, a grid of
//! settings (each a few keys overriding the base), and replicates of every setting.
//!
//! Every trial of a study goes through [`TrialConfig::check`], the same validation as a Table 5
//! trial, so a study cannot ask for a run that `kpk run` would refuse.

use crate::error::{Error, Result};
use crate::experiment::{Trial, TrialConfig};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// How the replicates of a setting differ from one another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Vary {
    /// Replicate r adds r to `seed` (the initial weights and the presentation order).
    Seed,
    /// Replicate r adds r to `seed` and to `data_seed` (also a fresh draw of T1/S1, T2/S2).
    SeedAndData,
}

/// The measure a study's answer compares settings by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// The kept net's accuracy on the testing set at m = 0, %.
    Test,
    /// The kept net's accuracy on the training set at m = 0, %.
    Train,
    /// Epochs run until the stopping rule (or the budget) ended training.
    Epochs,
}

impl Measure {
    /// Column stem in `results.csv` and words for the answer.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Test => "test accuracy",
            Measure::Train => "training accuracy",
            Measure::Epochs => "epochs",
        }
    }

    /// Whether more is better (accuracy) or less (epochs).
    pub fn higher_is_better(self) -> bool {
        !matches!(self, Measure::Epochs)
    }

    /// The unit the answer writes after a value.
    pub fn unit(self) -> &'static str {
        match self {
            Measure::Epochs => " epochs",
            _ => "%",
        }
    }

    /// A difference's unit.
    pub fn difference_unit(self) -> &'static str {
        match self {
            Measure::Epochs => " epochs",
            _ => " points",
        }
    }
}

/// A claim of the paper the study tests: setting `better` beats setting `than` on `measure`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub better: String,
    pub than: String,
    pub measure: Measure,
    /// Where the paper says so, e.g. "section 5.1".
    pub source: String,
}

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
    /// The paper's claim under test, if the study tests one.
    #[serde(default)]
    pub claim: Option<Claim>,
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
}

/// The fewest replicates `kpk study` accepts for a study's own count; `--replicates` may lower it
/// for a quick look (never for a committed report).
pub const MIN_REPLICATES: usize = 5;

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
        let text = String::from_utf8(crate::io::read(path)?).map_err(|_| invalid(path, "not UTF-8 text"))?;
        let config: StudyConfig = toml::from_str(&text).map_err(|e| invalid(path, e.message().trim()))?;
        let base_path = path.parent().unwrap_or(Path::new(".")).join(&config.base);
        let base_text = String::from_utf8(crate::io::read(&base_path)?)
            .map_err(|_| invalid(&base_path, "not UTF-8 text"))?;
        let base: toml::Table =
            toml::from_str(&base_text).map_err(|e| invalid(&base_path, e.message().trim()))?;
        let base_shown = lexical(&path.parent().unwrap_or(Path::new(".")).join(&config.base));
        config
            .expand(&base, replicates)
            .map(|trials| Study { config, base_shown, trials })
            .map_err(|e| e.in_file(path))
    }

    fn check(&self, replicates: usize) -> Result<()> {
        let bad = |key: &str, m: String| Err(Error::config(key, m));
        if self.name.is_empty() || !self.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return bad("name", format!("'{}' must be letters, digits and '_'", self.name));
        }
        if replicates == 0 {
            return bad("replicates", "at least 1".into());
        }
        if self.settings.is_empty() {
            return bad("setting", "no [[setting]]: a study compares at least one setting".into());
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
        if let Some(c) = &self.claim {
            for label in [&c.better, &c.than] {
                if !self.settings.iter().any(|s| &s.label == label) {
                    return bad(
                        "claim",
                        format!("claim names setting '{label}', which the study does not have"),
                    );
                }
            }
        }
        Ok(())
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
            for (k, v) in &setting.overrides {
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

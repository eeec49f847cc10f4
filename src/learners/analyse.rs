//! The comparison's pipeline: the declared learning curves ([`super::curves`]) and their
//! verdicts ([`super::verdicts`]), the bytes primary ([`super::size`]), and the whole-side
//! measures, and the typed result that `reports/learners.json` holds (rendered by
//! [`crate::report::learners`]).
//!
//! # The whole side
//!
//! Besides the learning curves, every learner is fitted to T3, every wtm position, where the
//! training accuracy is the accuracy on the whole set and each learner's exact model is counted
//! (with the frontier's variants). Replicate r's learner seed is trial 38's seed + r (only the MLP
//! and the boosted trees draw at random); the exploratory learner-minus-MLP contrasts there are
//! paired by replicate. Section 7's seeding comparison runs on T1/S1, replicate r on data seed
//! 1998 + r (replicate 0 is the committed draw of Table 5's trials).

use super::curves::{self, CurvePoint, DrawFit};
use super::design::{Arm, Design, LearnerContrast, Measure};
use super::exact::{Domain, ExactModel};
use super::explore;
use super::mlp::PaperMlp;
use super::power::{self, Pilot, Power};
use super::rules::RuleText;
use super::section7::{self, HiddenUnit, Seeding, StartResult};
use super::size::{self, Sizes};
use super::verdicts;
use super::{InputSet, Learner, Samples, boosted, rules, six, tree};
use crate::chess::bitbase::Bitbase;
use crate::dataset::{DEFAULT_SEED, Dataset, SetName, Side};
use crate::error::{Error, Result};
use crate::experiment::config::{Trial, TrialConfig};
use crate::net::topology::Topology;
use crate::stats::Interval;
use crate::stats::contrast::Contrast;
use crate::stats::family::TContrast;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The most replicates a run may ask for (each replicate trains every learner on every cell).
pub const MAX_REPLICATES: usize = 50;

/// What to run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Replicates per cell, 1..=[`MAX_REPLICATES`] (the committed report: 5).
    pub replicates: usize,
    /// The epoch cap of the MLP on T3 (trial 38's budget is 400 epochs of 81,664 positions).
    pub t3_epochs: usize,
    /// Also measure the variants on T3 (the frontier).
    pub variants: bool,
    /// The folder of Table 5's trial configs.
    pub table5: PathBuf,
    /// The MLP hybrid model (models/kpk-net.hybrid), for its size.
    pub shipped_model: PathBuf,
    /// The declared design (`experiments/learners_powered.toml`) and the commit that declared it.
    pub design: Design,
    pub declared_in: String,
    /// The pilot the design's power is computed from.
    pub pilot: PathBuf,
    /// The compress config whose chosen net is the bytes primary's hybrid.
    pub compress: PathBuf,
}

impl Settings {
    pub fn check(&self) -> Result<()> {
        // One replicate is allowed here (a reduced grid); the command asks for two, so that every
        // whole-side row it reports has an interval.
        if !(1..=MAX_REPLICATES).contains(&self.replicates) {
            return Err(Error::config(
                "replicates",
                format!("must be 1..={MAX_REPLICATES}, got {}", self.replicates),
            ));
        }
        if !(1..=crate::experiment::config::MAX_EPOCHS_LIMIT).contains(&self.t3_epochs) {
            return Err(Error::config("t3_epochs", format!("must be at least 1, got {}", self.t3_epochs)));
        }
        // The model compared with is read by its reader before any fit, not after minutes of them.
        crate::hybrid::Hybrid::load_sized(&self.shipped_model).map(|_| ())
    }
}

/// A training set, its testing set and the Table 5 trial whose MLP config it uses.
#[derive(Clone, Copy, Debug)]
struct Cell {
    train: SetName,
    test: Option<SetName>,
    trial: &'static str,
}

/// The whole side with the pawn to move.
const WHOLE: Cell = Cell { train: SetName::T3, test: None, trial: "trial38" };

/// Section 7's seeding comparison's cell.
const SEEDING: Cell = Cell { train: SetName::T1, test: Some(SetName::S1), trial: "trial01" };

/// One replicate of one learner on one cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    pub train_pct: f64,
    pub test_pct: Option<f64>,
    pub model_bits: u64,
    pub passes: u64,
    /// For learners trained on the pawn side to move (T1, T3): the exact model.
    pub exact: Option<ExactModel>,
    /// Wall seconds of the fit (machine-dependent: printed, never written).
    #[serde(skip)]
    pub seconds: f64,
}

/// One learner on one cell, over the replicates: a row of results.csv.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub learner: String,
    /// Empty for the main setting.
    pub variant: String,
    pub inputs: InputSet,
    pub train_set: String,
    pub test_set: Option<String>,
    pub fits: Vec<Fit>,
    pub train: Interval,
    pub test: Option<Interval>,
    pub model_bits: f64,
    pub passes: f64,
    /// Mean bytes of the exact model over the replicates, where there is one.
    pub exact_bytes: Option<f64>,
    pub exceptions: Option<f64>,
    /// Positions checked and wrong over every replicate's exact model (0 wrong: exact).
    pub exact_checked: usize,
    pub exact_wrong: usize,
}

/// A rule list as a theory of KPK, each rule checked against the bitbase on every wtm position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Theory {
    pub learned_on: String,
    pub inputs: InputSet,
    pub rules: Vec<CheckedRule>,
    pub positions: usize,
    pub correct: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckedRule {
    pub rule: RuleText,
    /// wtm positions this rule answers (the first that holds).
    pub covered: usize,
    /// ... of which the bitbase agrees.
    pub correct: usize,
}

/// A learner's smallest exact model over its rows and variants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Smallest {
    pub learner: String,
    pub variant: String,
    pub inputs: InputSet,
    pub train_set: String,
    pub exact_bytes: f64,
    pub exceptions: f64,
    pub model_bits: f64,
    /// The learner's accuracy on its training set (on T3: every wtm position).
    pub train_pct: f64,
    /// Smaller than the MLP hybrid.
    pub below_shipped: bool,
}

/// Each learner's smallest exact model, smallest first.
fn smallest(rows: &[Row], variants: &[Row], shipped: u64) -> Vec<Smallest> {
    let mut out: Vec<Smallest> = super::NAMES
        .iter()
        .filter_map(|name| {
            let best = rows
                .iter()
                .chain(variants)
                .filter(|r| r.learner == *name)
                .filter_map(|r| Some((r.exact_bytes?, r)))
                .min_by(|a, b| a.0.total_cmp(&b.0))?;
            let r = best.1;
            Some(Smallest {
                learner: r.learner.clone(),
                variant: r.variant.clone(),
                inputs: r.inputs,
                train_set: r.train_set.clone(),
                exact_bytes: best.0,
                exceptions: r.exceptions.unwrap_or(0.0),
                model_bits: r.model_bits,
                train_pct: r.train.mean,
                below_shipped: best.0 < shipped as f64,
            })
        })
        .collect();
    out.sort_by(|a, b| a.exact_bytes.total_cmp(&b.exact_bytes));
    out
}

/// Everything `reports/learners.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearnersReport {
    /// The declared design as read for the run, and the commit that declared it.
    pub design: Design,
    pub declared_in: String,
    /// The design's power from its pilot.
    pub power: Power,
    /// The declared primaries read from draws.csv (derived: recomputed by `--analyse-only`).
    pub primaries: Vec<LearnerContrast>,
    /// The learning curves: each cell's summary (derived from draws.csv).
    pub curves: Vec<CurvePoint>,
    /// Exploratory: each learner against the paper's MLP, and x1..x32 against x1..x6 (derived).
    pub against_mlp: Vec<LearnerContrast>,
    pub characterisation: Vec<LearnerContrast>,
    /// The bytes primary's two files.
    pub sizes: Sizes,
    pub replicates: usize,
    pub t3_epochs: usize,
    /// Every learner on T3 (the whole wtm side).
    pub rows: Vec<Row>,
    pub variants: Vec<Row>,
    /// Every learner against the MLP on T3, exploratory (derived from `rows`: recomputed, never
    /// read, by `kpk learners --analyse-only`).
    pub contrasts: Vec<LearnerContrast>,
    pub smallest: Vec<Smallest>,
    pub theories: Vec<Theory>,
    pub seeding: Seeding,
    pub hidden: Vec<HiddenUnit>,
    pub hidden_net: String,
    /// Size of the MLP hybrid (models/kpk-net.hybrid, written by `kpk compress`), bytes.
    pub shipped_bytes: u64,
    pub envelope_bytes: u64,
    /// The bytes primary's minimal detectable difference from the noncentral t
    /// ([`power::exact_mdd`]) at its pilot SD, units and Holm's most stringent level (derived).
    #[serde(default)]
    pub bytes_mdd_exact: Option<f64>,
    /// Each accuracy primary's size against the margin (derived, read after the run).
    #[serde(default)]
    pub against_margin: Vec<verdicts::AgainstMargin>,
    /// Exploratory: each learner against the converged MLP (derived).
    #[serde(default)]
    pub against_converged: Vec<LearnerContrast>,
}

fn load_trial(dir: &Path, name: &str) -> Result<Trial> {
    TrialConfig::load(&dir.join(format!("{name}.toml")))
}

/// The MLP learner of a cell.
fn cell_mlp(cell: &Cell, s: &Settings) -> Result<PaperMlp> {
    let trial = load_trial(&s.table5, cell.trial)?;
    Ok(PaperMlp::new(trial, (cell.train == SetName::T3).then_some(s.t3_epochs)))
}

/// The draws of a cell: (training, testing) per replicate.
fn draws(cell: &Cell, replicates: usize, bb: &Bitbase) -> Vec<(Samples, Option<Samples>)> {
    (0..replicates as u64)
        .map(|r| {
            let seed = DEFAULT_SEED + r;
            let train = Samples::of(&Dataset::of(cell.train, seed, bb));
            let test = cell.test.map(|t| Samples::of(&Dataset::of(t, seed, bb)));
            (train, test)
        })
        .collect()
}

/// Fit `learner` on every replicate of a cell (in parallel over replicates).
fn fit_all(
    learner: &dyn Learner,
    inputs: InputSet,
    data: &[(Samples, Option<Samples>)],
    seed0: u64,
    domain: Option<&Domain>,
) -> Result<Vec<Fit>> {
    data.par_iter()
        .enumerate()
        .map(|(r, (train, test))| {
            let started = Instant::now();
            let model = learner.fit(train, inputs, seed0 + r as u64)?;
            let seconds = started.elapsed().as_secs_f64();
            Ok(Fit {
                train_pct: train.accuracy_pct(model.as_ref()),
                test_pct: test.as_ref().map(|t| t.accuracy_pct(model.as_ref())),
                model_bits: model.model_bits(),
                passes: model.passes(),
                exact: domain.map(|d| ExactModel::of(model.as_ref(), d)).transpose()?,
                seconds,
            })
        })
        .collect()
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = xs.collect();
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// Summarise a learner's fits on a cell as a row.
fn row(learner: &dyn Learner, inputs: InputSet, cell: &Cell, fits: Vec<Fit>) -> Row {
    let train: Vec<f64> = fits.iter().map(|f| f.train_pct).collect();
    let test: Vec<f64> = fits.iter().filter_map(|f| f.test_pct).collect();
    let exact: Vec<&ExactModel> = fits.iter().filter_map(|f| f.exact.as_ref()).collect();
    Row {
        learner: learner.name().into(),
        variant: learner.variant(),
        inputs,
        train_set: cell.train.to_string(),
        test_set: cell.test.map(|t| t.to_string()),
        train: Interval::of_mean_pct(&train).expect("at least one replicate"),
        test: Interval::of_mean_pct(&test),
        model_bits: mean(fits.iter().map(|f| f.model_bits as f64)),
        passes: mean(fits.iter().map(|f| f.passes as f64)),
        exact_bytes: (!exact.is_empty()).then(|| mean(exact.iter().map(|e| e.bytes as f64))),
        exceptions: (!exact.is_empty()).then(|| mean(exact.iter().map(|e| e.exceptions as f64))),
        exact_checked: exact.iter().map(|e| e.checked).sum(),
        exact_wrong: exact.iter().map(|e| e.wrong).sum(),
        fits,
    }
}

/// Learner − MLP on the same cell and inputs, paired by replicate: accuracy (on the testing set
/// where the cell has one, else on the whole set trained on) and, where both have exact models
/// in two replicates or more, exact-model bytes.
fn against_mlp_on(a: &Row, mlp: &Row) -> Vec<LearnerContrast> {
    let set: Option<SetName> = a.train_set.parse().ok();
    let on_test = a.test.is_some();
    let arm = |r: &Row| {
        let side = set.map_or(Side::Wtm, SetName::side);
        let arm = Arm { learner: r.learner.clone(), inputs: Some(r.inputs), side, n: set.map(SetName::size) };
        (arm, r.learner.clone())
    };
    let accuracy = |f: &Fit| if on_test { f.test_pct.unwrap_or(f.train_pct) } else { f.train_pct };
    let diffs: Vec<f64> = a.fits.iter().zip(&mlp.fits).map(|(x, y)| accuracy(x) - accuracy(y)).collect();
    let bytes: Vec<f64> = a
        .fits
        .iter()
        .zip(&mlp.fits)
        .filter_map(|(x, y)| Some(x.exact?.bytes as f64 - y.exact?.bytes as f64))
        .collect();
    let name = format!("{}_vs_mlp_{}_x{}", a.learner, a.train_set, a.inputs.cols().len());
    let measure = if on_test { Measure::TestPct } else { Measure::TrainPct };
    let mut out: Vec<LearnerContrast> = TContrast::of_differences(&diffs)
        .map(|t| Contrast::exploratory(&name, arm(a), arm(mlp), measure, t))
        .into_iter()
        .collect();
    out.extend(
        TContrast::of_differences(&bytes).map(|t| {
            Contrast::exploratory(&format!("{name}_bytes"), arm(a), arm(mlp), Measure::ExactBytes, t)
        }),
    );
    out
}

/// Every learner against the MLP on the whole side (the rows of results.csv), paired by
/// replicate, in the rows' order: accuracy, then bytes.
pub fn against_mlp_whole(rows: &[Row]) -> Vec<LearnerContrast> {
    rows.iter()
        .filter(|r| r.learner != super::MLP)
        .filter_map(|r| {
            let mlp = rows
                .iter()
                .find(|m| m.learner == super::MLP && m.inputs == r.inputs && m.train_set == r.train_set)?;
            Some(against_mlp_on(r, mlp))
        })
        .flatten()
        .collect()
}

/// The six learners on the whole side with each input set.
fn main_rows(s: &Settings, bb: &Bitbase, domain: &Domain, progress: &dyn Fn(&str)) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for cell in [&WHOLE] {
        let mlp = cell_mlp(cell, s)?;
        let seed0 = mlp.trial.config.seed;
        let data = draws(cell, s.replicates, bb);
        let wtm = cell.train.side() == crate::dataset::Side::Wtm;
        let learners = six(mlp);
        for inputs in InputSet::ALL {
            let mut cell_rows = Vec::new();
            for learner in &learners {
                progress(&format!("{} on {} ({})", learner.name(), cell.train, inputs.name()));
                let fits = fit_all(learner.as_ref(), inputs, &data, seed0, wtm.then_some(domain))?;
                cell_rows.push(row(learner.as_ref(), inputs, cell, fits));
            }
            rows.extend(cell_rows);
        }
    }
    Ok(rows)
}

/// The frontier's variants, on T3 with all 32 characteristics, one replicate each.
fn variant_rows(s: &Settings, bb: &Bitbase, domain: &Domain, progress: &dyn Fn(&str)) -> Result<Vec<Row>> {
    let cell = &WHOLE;
    let data = draws(cell, 1, bb);
    let mut learners: Vec<Box<dyn Learner>> = Vec::new();
    for max_rules in [4, 8, 16, 64, 128] {
        learners.push(Box::new(rules::RuleList { max_rules, ..rules::RuleList::default() }));
    }
    for d in [2, 4, 6, 8, 10, 12, 14, 16] {
        let limits = tree::Limits { max_depth: Some(d), min_leaf: 1 };
        learners.push(Box::new(tree::Cart { limits, ..tree::Cart::default() }));
    }
    for entropy in [false, true] {
        learners.push(Box::new(tree::Cart { entropy, ..tree::Cart::default() }));
        for c in [4, 6, 8, 10, 12, 14, 16, 20] {
            learners.push(Box::new(tree::Cart { prune: Some(c), entropy, ..tree::Cart::default() }));
        }
    }
    for (rounds, depth) in [(10, 3), (30, 4), (100, 6), (200, 6)] {
        learners.push(Box::new(boosted::Boosted { rounds, depth, ..boosted::Boosted::default() }));
    }
    let seed0 = load_trial(&s.table5, cell.trial)?.config.seed;
    learners
        .iter()
        .map(|l| {
            progress(&format!("{} {} on T3", l.name(), l.variant()));
            let fits = fit_all(l.as_ref(), InputSet::All, &data, seed0, Some(domain))?;
            Ok(row(l.as_ref(), InputSet::All, cell, fits))
        })
        .collect()
}

/// The rule list learned on `train`, each rule's coverage on every wtm position.
fn theory(learned_on: &str, train: &Samples, inputs: InputSet, domain: &Domain) -> Result<Theory> {
    let model = rules::RuleList::default().fit(train, inputs, 0)?;
    let texts = model.rules();
    let mut checked: Vec<CheckedRule> =
        texts.into_iter().map(|rule| CheckedRule { rule, covered: 0, correct: 0 }).collect();
    for (x, &win) in domain.wtm.rows.iter().zip(&domain.wtm.wins) {
        let k = model.first_rule(x).expect("a rule list names its rule");
        checked[k].covered += 1;
        if checked[k].rule.win == win {
            checked[k].correct += 1;
        }
    }
    let correct = checked.iter().map(|r| r.correct).sum();
    Ok(Theory { learned_on: learned_on.into(), inputs, rules: checked, positions: domain.wtm.len(), correct })
}

/// Section 7's seeding comparison on T1/S1 with trial 1's config and a 32-10-1 net.
fn seeding(s: &Settings, bb: &Bitbase) -> Result<Seeding> {
    let mut config = (*load_trial(&s.table5, "trial01")?.config).clone();
    config.topology = "32-10-1".parse()?;
    let mlp = PaperMlp::new(config.check()?, None);
    let data = draws(&SEEDING, s.replicates, bb);
    let runs: Vec<([f64; 4], [f64; 4], f64)> = data
        .par_iter()
        .enumerate()
        .map(|(r, (train, test))| {
            let test = test.as_ref().expect("S1 is T1's testing set");
            section7::seeding_replicate(&mlp, train, test, mlp.trial.config.seed + r as u64)
        })
        .collect::<Result<_>>()?;
    let start = |k: usize| {
        let pick = |j: usize| runs.iter().map(|r| if k == 0 { r.0[j] } else { r.1[j] }).collect::<Vec<f64>>();
        StartResult { epochs: pick(0), best_epoch: pick(1), train_pct: pick(2), test_pct: pick(3) }
    };
    let diff = |j: usize| {
        let d: Vec<f64> = runs.iter().map(|r| r.1[j] - r.0[j]).collect();
        Interval::of_mean(&d).expect("at least one replicate")
    };
    let logistic: Vec<f64> = runs.iter().map(|r| r.2).collect();
    Ok(Seeding {
        topology: Topology::new(vec![32, 10, 1])?,
        train_set: "T1".into(),
        test_set: "S1".into(),
        random: start(0),
        seeded: start(1),
        epochs_diff: diff(0),
        best_epoch_diff: diff(1),
        train_diff: diff(2),
        test_diff: diff(3),
        logistic_test: Interval::of_mean_pct(&logistic).expect("at least one replicate"),
    })
}

/// The measures on the whole side: T3 rows, variants, theories, seeding, hidden units.
struct Whole {
    rows: Vec<Row>,
    variants: Vec<Row>,
    theories: Vec<Theory>,
    seeding: Seeding,
    hidden: Vec<HiddenUnit>,
    hidden_net: String,
}

fn whole_side(s: &Settings, bb: &Bitbase, progress: &(dyn Fn(&str) + Sync)) -> Result<Whole> {
    let domain = Domain::new(bb);
    let rows = main_rows(s, bb, &domain, progress)?;
    let variants = if s.variants { variant_rows(s, bb, &domain, progress)? } else { Vec::new() };
    progress("rule lists as theories");
    let t1 = Samples::of(&Dataset::of(SetName::T1, DEFAULT_SEED, bb));
    let theories =
        vec![theory("T1", &t1, InputSet::All, &domain)?, theory("T3", &domain.wtm, InputSet::All, &domain)?];
    progress("seeding a 2-level net from the 1-level net");
    let seeding = seeding(s, bb)?;
    progress("reading the hidden units");
    let mlp = cell_mlp(&WHOLE, s)?;
    let widths = mlp.widths(InputSet::All);
    let net = crate::net::mlp::Mlp::new(&widths, mlp.trial.config.slope, mlp.trial.config.seed)?;
    let (net, _, _) = mlp.train_net(net, &domain.wtm, InputSet::All)?;
    let hidden = section7::hidden_units(&net, &domain.wtm);
    let hidden_net =
        format!("{} (trial 38's config, T3, seed {})", mlp.trial.topology(), mlp.trial.config.seed);
    Ok(Whole { rows, variants, theories, seeding, hidden, hidden_net })
}

/// The rest of the comparison after the learning curves (`draws`, [`curves::run`]'s rows): the
/// bytes primary and the whole side's measures, and everything derived. `progress` hears what is
/// being fitted.
pub fn analyse(
    s: &Settings,
    draws: &[DrawFit],
    bb: &Bitbase,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<LearnersReport> {
    s.check()?;
    let pilot = Pilot::load(&s.pilot)?;
    // The size compared with is that of a model the reader accepts, not of whatever file is named.
    let shipped_bytes = crate::hybrid::Hybrid::load_sized(&s.shipped_model)?.1;
    progress("the shipped tree and the hybrid's seeds");
    let sizes = size::measure(&s.compress, s.design.hybrid_seeds, bb)?;
    let w = whole_side(s, bb, progress)?;
    let mut report = LearnersReport {
        design: s.design.clone(),
        declared_in: s.declared_in.clone(),
        power: power::of(&s.design, &pilot)?,
        primaries: Vec::new(),
        curves: Vec::new(),
        against_mlp: Vec::new(),
        characterisation: Vec::new(),
        sizes,
        replicates: s.replicates,
        t3_epochs: s.t3_epochs,
        smallest: smallest(&w.rows, &w.variants, shipped_bytes),
        contrasts: Vec::new(),
        rows: w.rows,
        variants: w.variants,
        theories: w.theories,
        seeding: w.seeding,
        hidden: w.hidden,
        hidden_net: w.hidden_net,
        shipped_bytes,
        envelope_bytes: super::exact::ENVELOPE_BYTES,
        bytes_mdd_exact: None,
        against_margin: Vec::new(),
        against_converged: Vec::new(),
    };
    derive(&mut report, draws)?;
    Ok(report)
}

/// What is derived from the draws and the T3 rows: the curves, the exploratory contrasts and the
/// primaries' verdicts.
pub fn derive(report: &mut LearnersReport, draws: &[DrawFit]) -> Result<()> {
    report.curves = curves::curves(draws)?;
    report.against_mlp = explore::against_mlp(draws);
    report.against_converged = explore::against(draws, super::design::CONVERGED);
    report.characterisation = explore::characterisation(draws);
    report.contrasts = against_mlp_whole(&report.rows);
    let sizes = &report.sizes;
    report.primaries =
        verdicts::primaries(&report.design, &report.power, draws, sizes.tree_bytes, &sizes.hybrid_bytes)?;
    report.against_margin = verdicts::against_margin(&report.design, &report.primaries);
    let (power, design) = (&report.power, &report.design);
    report.bytes_mdd_exact = power
        .primaries
        .iter()
        .find(|p| p.measure == super::design::Measure::ExactBytes)
        .map(|p| power::exact_mdd(p.pilot_sd, p.units, power.level, design.power));
    Ok(())
}

/// `kpk learners --analyse-only`: the committed `learners.json` and `draws.csv`, with everything
/// derived from them computed again, never read. The declaration must be the one the run read.
pub fn analyse_committed(
    json: &Path,
    draws_csv: &Path,
    design: &Design,
    pilot: &Pilot,
) -> Result<LearnersReport> {
    let mut value: serde_json::Value = crate::template::read_results(json)?;
    if let Some(fields) = value.as_object_mut() {
        for derived in ["contrasts", "primaries", "curves", "against_mlp", "characterisation"] {
            fields.insert(derived.to_string(), serde_json::Value::Array(Vec::new()));
        }
        fields.insert("power".into(), serde_json::json!({"family": 0, "level": 0.0, "primaries": []}));
    }
    let mut report: LearnersReport = serde_json::from_value(value)
        .map_err(|e| Error::Format { path: json.display().to_string(), message: e.to_string() })?;
    if &report.design != design {
        return Err(Error::Format {
            path: json.display().to_string(),
            message: "its declared design differs from the declaration file: rerun `kpk learners`".into(),
        });
    }
    report.power = power::of(design, pilot)?;
    derive(&mut report, &curves::read_draws(draws_csv)?)?;
    Ok(report)
}

//! `kpk compress`: train float nets on every legal position, quantise them, file their exceptions,
//! and keep the hybrid with the smallest file.
//!
//! 1. **Inputs.** The net sees the Table 4 characteristics named in the config plus, for a joint
//!    net covering both sides to move, x33 = side to move. They are computed by code from the
//!    position, so they cost nothing to store. For training each input is standardised (mean 0,
//!    standard deviation 1 over the legal positions, which suits Adam); the standardisation is
//!    affine, so [`super::quant::quantise`] folds it exactly into the first layer and the stored net takes
//!    the raw integer values.
//! 2. **Training.** The float sigmoid net ([`crate::net::mlp::Mlp`]) is trained on all 165,676 legal
//!    positions by the project's trainer ([`crate::train::train`], minibatch Adam, one output), in
//!    stages of falling learning rate; each stage starts from the end-of-epoch state of the one
//!    before that classified the most positions correctly.
//! 3. **Completion** ([`complete`]): quantisation with the shifts that make the smallest file,
//!    integer fine-tuning, and the exceptions that make the hybrid exact.
//!
//! Everything random is seeded from the config, so a run is reproducible bit for bit.

use super::complete::{self, Coding, Positions};
use super::inputs::InputFunction;
use super::qat::{self, QatSpec, Tuned};
use super::{Hybrid, refine};
use crate::chess::bitbase::Bitbase;
use crate::error::{Allowed, Error, Result, at_least_one, check_count};
use crate::experiment::replicate::SEED_STRIDE;
use crate::hybrid::sizes::Sizes;
use crate::net::mlp::Mlp;
use crate::net::output::OutputCoding;
use crate::net::topology::Topology;
use crate::train::{
    self, TrainData,
    config::{ErrorFunction, Optimiser, TrainConfig},
    keep::BestState,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Instant;

/// One stage of training: Adam at a fixed rate for a number of epochs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    pub learning_rate: f64,
    pub epochs: usize,
}

/// The `kpk compress` config (`experiments/compress.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompressConfig {
    /// Seeds every candidate's initial weights and presentation order (`seed + candidate number`)
    /// unless the candidate names its own.
    pub seed: u64,
    /// Named input sets: Table 4 numbers, 1..=32, and 33 for the side to move.
    pub inputs: BTreeMap<String, Vec<usize>>,
    /// The sigmoid slope b of section 3 (the paper: 1).
    pub slope: f64,
    /// Adam's minibatch size.
    pub batch_size: usize,
    /// Training stages, run in order.
    pub stages: Vec<Stage>,
    /// The nets to try.
    pub candidates: Vec<CandidateSpec>,
    /// Quantisation-aware fine-tuning of each candidate after training ([`qat`]), if any: the
    /// candidate keeps whichever of the plainly rounded and the fine-tuned net makes the smaller
    /// file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qat: Option<QatSpec>,
    /// The size/accuracy frontier (`kpk compress --frontier`), if measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frontier: Option<FrontierSpec>,
}

/// The nets of the size/accuracy frontier: each hidden shape trained from each seed as the
/// candidates are (same stages, batch and slope), on one input set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontierSpec {
    /// The name of the input set in [`CompressConfig::inputs`].
    pub inputs: String,
    pub seeds: Vec<u64>,
    /// Hidden-layer widths of each net (the output layer, one neuron, is implied).
    pub hidden: Vec<Vec<usize>>,
}

/// One net to try.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CandidateSpec {
    /// Hidden-layer widths (the output layer, one neuron, is implied).
    pub hidden: Vec<usize>,
    /// The name of its input set in [`CompressConfig::inputs`].
    pub inputs: String,
    /// Seeds its initial weights and presentation order; without it, the config's seed plus the
    /// candidate's number in the list (from 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Train and complete the net on the positions with the pawn side to move only, the lone
    /// king's positions answered by the one-ply rule (format version 2,
    /// [`Coverage::PawnSideToMove`](kpk_probe::Coverage::PawnSideToMove)); its input set then leaves
    /// out x33, the side to move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lone_king_by_rule: bool,
}

impl CandidateSpec {
    /// The net's layer widths on an input set of `inputs` columns: the inputs, the hidden layers
    /// and one output neuron.
    pub fn topology(&self, inputs: usize) -> Result<Topology> {
        Topology::new([&[inputs][..], &self.hidden, &[1]].concat())
    }
}

impl CompressConfig {
    /// Check every value once.
    /// Read and check a config file (`experiments/compress.toml`): a syntax or type error is one
    /// line naming the file, the line and the key; a bad value names the file and the key.
    pub fn load(path: &std::path::Path) -> Result<CompressConfig> {
        let text = crate::io::read_config(path)?;
        let cfg: CompressConfig =
            crate::experiment::config::parse_toml(&text).map_err(|e| e.in_file(path))?;
        cfg.validate().map_err(|e| e.in_file(path))?;
        Ok(cfg)
    }

    pub fn validate(&self) -> Result<BTreeMap<String, InputFunction>> {
        self.check_counts()?;
        let bad = |key: &str, m: String| Err(Error::config(key, m));
        if let Some(f) = &self.frontier {
            self.input_set("frontier", &f.inputs)?;
        }
        let widths = |c: &CandidateSpec| c.hidden.iter().all(|&w| (1..=super::quant::MAX_WIDTH).contains(&w));
        for c in self.candidates.iter().cloned().chain(self.frontier.iter().flat_map(|f| f.nets())) {
            if c.hidden.is_empty() || !widths(&c) {
                let max = super::quant::MAX_WIDTH;
                return bad(
                    "candidate",
                    format!("candidate {c:?} needs 1..={max} neurons in each hidden layer"),
                );
            }
            if c.hidden.len() + 1 > kpk_probe::net::MAX_LAYERS {
                return bad("candidate", format!("candidate {c:?} has too many layers"));
            }
            self.input_set("candidate", &c.inputs)?;
        }
        for s in &self.stages {
            at_least_one("stages.epochs", s.epochs)?;
            Allowed::POSITIVE.check_key("stages.learning_rate", s.learning_rate)?;
        }
        at_least_one("batch_size", self.batch_size)?;
        Allowed::POSITIVE.check_key("slope", self.slope)?;
        if let Some(q) = &self.qat {
            q.validate()?;
        }
        self.inputs.iter().map(|(name, xs)| Ok((name.clone(), InputFunction::features(xs)?))).collect()
    }

    /// The input set named `name` in `[inputs]`, or a config error on `key` naming those there are.
    fn input_set(&self, key: &str, name: &str) -> Result<&[usize]> {
        self.inputs.get(name).map(Vec::as_slice).ok_or_else(|| {
            let allowed = self.inputs.keys().cloned().collect::<Vec<_>>().join(", ");
            Error::config(key, Error::UnknownName { what: "input set", given: name.to_string(), allowed })
        })
    }
}

/// The most candidates, frontier nets and stages a compress config may list.
pub const MAX_NETS: usize = 1000;
pub const MAX_STAGES: usize = 100;

impl CompressConfig {
    /// Every count against its limit (docs/CLI.md), before anything is allocated or trained.
    fn check_counts(&self) -> Result<()> {
        check_count("candidates", self.candidates.len(), MAX_NETS)?;
        check_count("stages", self.stages.len(), MAX_STAGES)?;
        if let Some(f) = &self.frontier {
            check_count("frontier.seeds", f.seeds.len(), MAX_NETS)?;
            check_count("frontier.hidden", f.hidden.len(), MAX_NETS)?;
            check_count("frontier", f.seeds.len().saturating_mul(f.hidden.len()), MAX_NETS)?;
        }
        let epochs = self.stages.iter().map(|s| s.epochs).chain(self.qat.iter().map(|q| q.epochs));
        check_count("epochs", epochs.max().unwrap_or(0), train::config::MAX_EPOCHS)?;
        let batches = [Some(self.batch_size), self.qat.as_ref().map(|q| q.batch_size)];
        check_count(
            "batch_size",
            batches.into_iter().flatten().max().unwrap_or(0),
            train::config::MAX_BATCH_SIZE,
        )
        .map(|_| ())
    }
}

impl FrontierSpec {
    /// Every net of the frontier as a candidate: each shape from each seed, shapes in order.
    pub fn nets(&self) -> Vec<CandidateSpec> {
        let mut nets = Vec::with_capacity(self.hidden.len() * self.seeds.len());
        for hidden in &self.hidden {
            for &seed in &self.seeds {
                nets.push(CandidateSpec {
                    hidden: hidden.clone(),
                    inputs: self.inputs.clone(),
                    seed: Some(seed),
                    lone_king_by_rule: false,
                });
            }
        }
        nets
    }
}

/// One candidate's outcome.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Topology, inputs first, e.g. `33-16-4-1`.
    pub topology: Topology,
    /// The name of its input set.
    pub inputs: String,
    /// Whether the net covers the pawn side to move only (see [`CandidateSpec::lone_king_by_rule`]).
    pub lone_king_by_rule: bool,
    /// The seed of its initial weights and presentation order.
    pub seed: u64,
    /// Weights and biases.
    pub parameters: usize,
    /// Legal positions the float net misclassifies (win iff output ≥ 0.5).
    pub float_errors: usize,
    /// Training epochs run, over all stages.
    pub epochs: usize,
    pub train_seconds: f64,
    /// The chosen shift of each layer.
    pub shifts: Vec<i8>,
    /// The integer fine-tuning: errors of the rounded net before and after it.
    pub refined: refine::Refined,
    pub hybrid: Hybrid,
    pub sizes: Sizes,
    /// The quantisation-aware fine-tuning, where the config asks for it: its target shifts, what
    /// it did, the file the plainly rounded net would have made, and whether the tuned net's
    /// file is the one kept.
    pub qat: Option<QatOutcome>,
}

/// What quantisation-aware fine-tuning did for one candidate.
#[derive(Clone, Debug)]
pub struct QatOutcome {
    pub target: Vec<i8>,
    pub tuned: Tuned,
    /// The file of the plainly rounded net (quantised, fine-tuned in integers, completed).
    pub plain: Sizes,
    pub plain_shifts: Vec<i8>,
    pub kept: bool,
}

/// Progress reports for the command line.
pub type Progress<'a> = &'a (dyn Fn(&str) + Sync);

/// Train, quantise and build every candidate of `cfg` (in parallel), best first by file size.
pub fn compress(cfg: &CompressConfig, bb: &Bitbase, progress: Progress) -> Result<Vec<Candidate>> {
    let mut out = train_all(cfg, &cfg.candidates, bb, progress)?;
    out.sort_by_key(|c| (c.sizes.total, c.parameters));
    Ok(out)
}

/// Train, quantise and build each of `nets` (in parallel, each seeded as [`CandidateSpec::seed`]
/// says, the number being its place in `nets`) under `cfg`'s stages, in the order given.
pub fn train_all(
    cfg: &CompressConfig,
    nets: &[CandidateSpec],
    bb: &Bitbase,
    progress: Progress,
) -> Result<Vec<Candidate>> {
    let sets = cfg.validate()?;
    // Each (input set, coverage) the nets use, computed once.
    let mut data: BTreeMap<(&String, bool), (InputFunction, Positions)> = BTreeMap::new();
    for spec in nets {
        cfg.input_set("candidate", &spec.inputs)?;
        let Some((name, &input)) = sets.get_key_value(&spec.inputs) else { continue };
        if let std::collections::btree_map::Entry::Vacant(e) = data.entry((name, spec.lone_king_by_rule)) {
            let positions = if spec.lone_king_by_rule {
                Positions::pawn_side_to_move(input, bb, Coding::Standardised)
            } else {
                Positions::new(input, bb, Coding::Standardised)
            };
            e.insert((input, positions.map_err(|e| e.context(format!("input set {name}")))?));
        }
    }
    nets.par_iter()
        .enumerate()
        .map(|(c, spec)| {
            // Every net's (input set, coverage) was computed above.
            let (input, data) = &data[&(&spec.inputs, spec.lone_king_by_rule)];
            candidate(cfg, *input, data, bb, c, spec, progress)
        })
        .collect()
}

fn candidate(
    cfg: &CompressConfig,
    input: InputFunction,
    data: &Positions,
    bb: &Bitbase,
    c: usize,
    spec: &CandidateSpec,
    progress: Progress,
) -> Result<Candidate> {
    let started = Instant::now();
    let topology = spec.topology(input.width())?;
    let seed = spec.seed.unwrap_or(cfg.seed.wrapping_add(c as u64));
    let covers = if spec.lone_king_by_rule { ", pawn side to move" } else { "" };
    let name = format!("{topology} ({} inputs{covers}, seed {seed})", spec.inputs);
    let mut net = Mlp::new(topology.widths(), cfg.slope, seed)?;
    let train_data = TrainData { inputs: data.rows.view(), wins: &data.wins };
    let mut epochs = 0;
    for (s, stage) in cfg.stages.iter().enumerate() {
        let tc = TrainConfig {
            error_function: ErrorFunction::E1,
            error_target: 0.0, // never "reached": every stage runs its epochs
            output: OutputCoding::One,
            optimiser: Optimiser::adam(stage.learning_rate, cfg.batch_size),
            max_epochs: stage.epochs,
            window: stage.epochs, // the no-improvement rule cannot cut a stage short
            seed: seed.wrapping_mul(31).wrapping_add(s as u64),
            // The hybrid pays for every misclassified position, so keep the state with the most
            // positions right, not the least mean error.
            best: BestState::MostCorrect,
            ..TrainConfig::default()
        };
        let result = train::train(net, &train_data, None, &tc, &mut |_| {})?;
        epochs += result.epochs_run;
        let last = result.history.last().map_or(0, |m| m.misclassified + m.undecided);
        progress(&format!(
            "{name}: stage {} (rate {}) {} epochs, best at epoch {}, {last} misclassified at the end",
            s + 1,
            stage.learning_rate,
            result.epochs_run,
            result.best_epoch
        ));
        net = result.net;
    }
    let float_errors = complete::float_errors(&net, data);
    let train_seconds = started.elapsed().as_secs_f64();
    let mut done = complete::complete(&net, input, data, bb)?;
    let qat = match &cfg.qat {
        Some(spec) => {
            let target = spec.target(&done.shifts);
            // The fine-tuning's presentation order has a seed of its own: the candidate's plus 2^32,
            // beside the training stages' seed · 31 + stage.
            let (tuned_net, tuned) =
                qat::fine_tune(&net, input, data, &target, spec, seed.wrapping_add(1 << 32))?;
            let t = complete::complete(&tuned_net, input, data, bb)?;
            progress(&format!(
                "{name}: QAT at shifts {target:?}: {} rounded errors -> {} (epoch {}): {} B, plain rounding {} B",
                tuned.errors_before, tuned.errors_after, tuned.epoch, t.sizes.total, done.sizes.total
            ));
            let (plain, plain_shifts) = (done.sizes, done.shifts.clone());
            let kept = t.sizes.total < plain.total;
            if kept {
                done = t;
            }
            Some(QatOutcome { target, tuned, plain, plain_shifts, kept })
        }
        None => None,
    };
    let complete::Completed { shifts, hybrid, sizes, refined } = done;
    progress(&format!(
        "{name}: {float_errors} float errors; shifts {shifts:?}: {} errors, {} after {} integer moves: {} B net + {} B exceptions = {} B",
        refined.errors_before,
        hybrid.exceptions().len(),
        refined.moves,
        sizes.net,
        sizes.exceptions,
        sizes.total
    ));
    Ok(Candidate {
        topology,
        inputs: spec.inputs.clone(),
        lone_king_by_rule: spec.lone_king_by_rule,
        seed,
        parameters: net.weight_count(),
        float_errors,
        epochs,
        train_seconds,
        shifts,
        refined,
        hybrid,
        sizes,
        qat,
    })
}

/// How one candidate of a compress config is trained per replicate (the play match's hybrid of
/// each seed, and the bytes primary of `kpk learners`): trained, quantised, fine-tuned and
/// completed exactly as `kpk compress` does it ([`train_all`]), its seed replaced by the
/// replicate's.
#[derive(Clone, Debug)]
pub struct HybridRecipe {
    /// Where the config was read (for the report).
    pub path: String,
    pub config: CompressConfig,
    pub candidate: CandidateSpec,
}

impl HybridRecipe {
    /// `config`'s first candidate: `experiments/compress.toml` lists first the net `kpk compress`
    /// chooses (the smallest exact file, `models/kpk-net.hybrid`; tests/play_match.rs checks this
    /// against `reports/compression.json`). Training only that net per seed, not every candidate,
    /// costs a third of a full `kpk compress` run.
    pub fn first(path: &str, config: CompressConfig) -> Result<HybridRecipe> {
        config.validate()?;
        let candidate = config
            .candidates
            .first()
            .cloned()
            .ok_or_else(|| Error::config("candidates", "the hybrid's config lists no candidate"))?;
        Ok(HybridRecipe { path: path.to_string(), config, candidate })
    }

    /// [`HybridRecipe::first`] of the compress config at `path`.
    pub fn load(path: &std::path::Path) -> Result<HybridRecipe> {
        HybridRecipe::first(&path.display().to_string(), CompressConfig::load(path)?)
            .map_err(|e| e.in_file(path))
    }

    /// Replicate r's seed: the candidate's own (as `kpk compress` seeds it, the config's seed for
    /// the first candidate) plus r · [`SEED_STRIDE`], as Table 5's replicates; replicate 0 is the
    /// candidate `kpk compress` trains.
    pub fn seed(&self, r: usize) -> u64 {
        self.candidate.seed.unwrap_or(self.config.seed).wrapping_add(r as u64 * SEED_STRIDE)
    }

    /// The hybrids of replicates 0..`seeds`, trained at once, in replicate order.
    pub fn train(&self, seeds: usize, bb: &Bitbase) -> Result<Vec<Candidate>> {
        let specs: Vec<CandidateSpec> = (0..seeds)
            .map(|r| CandidateSpec { seed: Some(self.seed(r)), ..self.candidate.clone() })
            .collect();
        train_all(&self.config, &specs, bb, &|_| {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_validation_names_the_problem() {
        let ok = CompressConfig {
            seed: 1,
            inputs: BTreeMap::from([("a".to_string(), vec![1, 2, 33])]),
            slope: 1.0,
            batch_size: 64,
            stages: vec![Stage { learning_rate: 0.01, epochs: 1 }],
            candidates: vec![CandidateSpec {
                hidden: vec![4],
                inputs: "a".into(),
                seed: None,
                lone_king_by_rule: false,
            }],
            qat: None,
            frontier: None,
        };
        assert!(ok.validate().is_ok());
        let mut bad = ok.clone();
        bad.candidates[0].hidden = vec![0];
        assert!(bad.validate().is_err());
        let mut bad = ok.clone();
        bad.candidates[0].inputs = "b".into();
        assert!(bad.validate().is_err());
        let mut bad = ok.clone();
        bad.inputs.insert("a".into(), vec![34]);
        assert!(bad.validate().is_err());
        let mut bad = ok.clone();
        bad.stages[0].learning_rate = -1.0;
        assert!(bad.validate().is_err());
        let bb = Bitbase::generate();
        let mut constant = ok.clone();
        constant.inputs.insert("a".into(), vec![13]);
        assert!(compress(&constant, &bb, &|_| {}).is_err(), "x13 is constant on legal positions");
    }

    #[test]
    fn a_tiny_run_is_exact_and_reproducible() {
        let cfg = CompressConfig {
            seed: 3,
            inputs: BTreeMap::from([
                ("b".to_string(), vec![27, 28, 32, 33]),
                ("c".to_string(), vec![27, 28, 32]),
            ]),
            slope: 1.0,
            batch_size: 1024,
            stages: vec![Stage { learning_rate: 0.01, epochs: 1 }],
            candidates: vec![
                CandidateSpec { hidden: vec![2], inputs: "b".into(), seed: None, lone_king_by_rule: false },
                CandidateSpec { hidden: vec![2], inputs: "c".into(), seed: None, lone_king_by_rule: true },
            ],
            qat: Some(QatSpec { coarser: 1, epochs: 1, learning_rate: 1e-4, batch_size: 1024 }),
            frontier: None,
        };
        let bb = Bitbase::generate();
        let a = compress(&cfg, &bb, &|_| {}).unwrap();
        let b = compress(&cfg, &bb, &|_| {}).unwrap();
        assert_eq!(a.len(), 2);
        for (a, b) in a.iter().zip(&b) {
            assert_eq!(a.hybrid.to_bytes(), b.hybrid.to_bytes());
            assert!(a.hybrid.disagreements(&bb).is_empty());
            assert_eq!(a.sizes.total, a.hybrid.to_bytes().len());
            // A net covering the pawn side to move only is stored as format version 2, with
            // exceptions among those positions only, and loads back as the same model.
            let by_rule = a.hybrid.coverage() == kpk_probe::Coverage::PawnSideToMove;
            assert_eq!(by_rule, a.inputs == "c");
            assert_eq!(a.hybrid.to_bytes()[4], if by_rule { 2 } else { 1 });
            assert!(!by_rule || a.hybrid.exceptions().indices().iter().all(|&i| i < 98_304));
            assert_eq!(&Hybrid::from_bytes(&a.hybrid.to_bytes(), "round trip").unwrap(), &a.hybrid);
            let by_confidence = a.hybrid.to_bytes_in(crate::hybrid::format::ExceptionOrder::Confidence).0;
            assert_eq!(&Hybrid::from_bytes(&by_confidence, "confidence order").unwrap(), &a.hybrid);
        }
    }
}

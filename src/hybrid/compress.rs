//! `kpk compress`: train float nets on every legal position, quantise them, file their exceptions,
//! and keep the hybrid with the smallest file.
//!
//! 1. **Inputs.** The net sees the Table 4 characteristics named in the config plus, for a joint
//!    net covering both sides to move, x33 = side to move. They are computed by code from the
//!    position, so they cost nothing to store. For training each input is standardised (mean 0,
//!    standard deviation 1 over the legal positions, which suits Adam); the standardisation is
//!    affine, so [`quant::quantise`] folds it exactly into the first layer and the stored net takes
//!    the raw integer values.
//! 2. **Training.** The float sigmoid net ([`crate::net::mlp::Mlp`]) is trained on all 165,676 legal
//!    positions by the project's trainer ([`crate::train::train`], minibatch Adam, one output), in
//!    stages of falling learning rate; each stage starts from the end-of-epoch state of the one
//!    before that classified the most positions correctly.
//! 3. **Quantisation.** Each layer's weights are scaled by `16 · slope · 2^s` and rounded; the
//!    shifts `s` are chosen by coordinate descent to minimise the *file size*, trading the bits of
//!    the Rice-coded weights against the exceptions that coarser weights cause.
//! 4. **Integer fine-tuning.** A greedy search over the stored integers ([`refine`]) moves single
//!    weights and biases by ±1 where that shrinks the file (weight bits + exception bits).
//! 5. **Exceptions.** Every legal position the integer net gets wrong goes into the table, so the
//!    hybrid is exact by construction; [`Hybrid::disagreements`] re-checks it against the bitbase.
//!
//! Everything random is seeded from the config, so a run is reproducible bit for bit.

use super::inputs::InputFunction;
use super::quant;
use super::quant::QuantNet;
use super::{ExceptionSet, Hybrid, Sizes, refine};

/// Passes of the integer local search after quantisation.
const REFINE_PASSES: usize = 8;
use crate::chess::bitbase::Bitbase;
use crate::chess::index::KpkIndex;
use crate::chess::position::{KpkPosition, Outcome};
use crate::error::{Error, Result};
use crate::net::mlp::Mlp;
use crate::train::{self, BestState, ErrorFunction, Optimiser, OutputCoding, TrainConfig, TrainData};
use ndarray::Array2;
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
    /// Seeds every candidate's initial weights (`seed + candidate number`) and presentation order.
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
}

/// One net to try.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CandidateSpec {
    /// Hidden-layer widths (the output layer, one neuron, is implied).
    pub hidden: Vec<usize>,
    /// The name of its input set in [`CompressConfig::inputs`].
    pub inputs: String,
}

impl CompressConfig {
    /// Check every value once.
    pub fn validate(&self) -> Result<BTreeMap<String, InputFunction>> {
        let bad = |key: &str, m: String| Err(Error::config(key, m));
        if self.candidates.is_empty() || self.stages.is_empty() {
            return bad("candidate", "the config needs at least one candidate and one stage".into());
        }
        let widths = |c: &CandidateSpec| c.hidden.iter().all(|&w| (1..=super::quant::MAX_WIDTH).contains(&w));
        if let Some(c) = self.candidates.iter().find(|c| c.hidden.is_empty() || !widths(c)) {
            return bad(
                "candidate",
                format!("candidate {c:?} needs 1..={} neurons in each hidden layer", super::quant::MAX_WIDTH),
            );
        }
        if let Some(c) = self.candidates.iter().find(|c| c.hidden.len() + 1 > super::format::MAX_LAYERS) {
            return bad("candidate", format!("candidate {c:?} has too many layers"));
        }
        if let Some(c) = self.candidates.iter().find(|c| !self.inputs.contains_key(&c.inputs)) {
            return bad(
                "candidate",
                format!("candidate {c:?} names an input set the config does not define"),
            );
        }
        if let Some(s) = self
            .stages
            .iter()
            .find(|s| s.epochs == 0 || !(s.learning_rate.is_finite() && s.learning_rate > 0.0))
        {
            return bad("stage", format!("stage {s:?} needs epochs >= 1 and a positive learning rate"));
        }
        if self.batch_size == 0 || !(self.slope > 0.0 && self.slope.is_finite()) {
            return bad("batch_size", "batch size and slope must be positive".into());
        }
        self.inputs.iter().map(|(name, xs)| Ok((name.clone(), InputFunction::features(xs)?))).collect()
    }
}

/// One candidate's outcome.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Topology, inputs first, e.g. `33-16-4-1`.
    pub topology: String,
    /// The name of its input set.
    pub inputs: String,
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
}

/// Progress reports for the command line.
pub type Progress<'a> = &'a (dyn Fn(&str) + Sync);

/// Standardised inputs of every legal position (rows) and the affine map back to raw values.
struct Inputs {
    rows: Array2<f64>,
    wins: Vec<bool>,
    scale: Vec<f64>,
    offset: Vec<f64>,
    /// The raw integer inputs, row by row, and each row's position index.
    raw: Vec<i32>,
    index: Vec<u32>,
}

fn inputs(input: InputFunction, bb: &Bitbase) -> Result<Inputs> {
    let legal: Vec<KpkPosition> = KpkPosition::all().collect();
    let w = input.width();
    let mut raw = Array2::<f64>::zeros((legal.len(), w));
    let mut ints = vec![0i32; w * legal.len()];
    for ((mut row, x), p) in raw.rows_mut().into_iter().zip(ints.chunks_exact_mut(w)).zip(&legal) {
        input.write(p, x);
        row.iter_mut().zip(x.iter()).for_each(|(r, &v)| *r = f64::from(v));
    }
    let index = legal.iter().map(|p| KpkIndex::of(p).value() as u32).collect();
    let n = legal.len() as f64;
    let mut scale = Vec::with_capacity(w);
    let mut offset = Vec::with_capacity(w);
    for (j, mut col) in raw.columns_mut().into_iter().enumerate() {
        let mean = col.sum() / n;
        let sd = (col.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt();
        if sd == 0.0 {
            return Err(Error::config(
                "inputs",
                format!("input {} is constant on legal positions", input.name(j)),
            ));
        }
        col.mapv_inplace(|v| (v - mean) / sd);
        scale.push(1.0 / sd);
        offset.push(-mean / sd);
    }
    let wins = legal.iter().map(|p| bb.outcome(p) == Outcome::Win).collect();
    Ok(Inputs { rows: raw, wins, scale, offset, raw: ints, index })
}

/// Train, quantise and build every candidate of `cfg` (in parallel), best first by file size.
pub fn compress(cfg: &CompressConfig, bb: &Bitbase, progress: Progress) -> Result<Vec<Candidate>> {
    let sets = cfg.validate()?;
    let data: BTreeMap<&String, (InputFunction, Inputs)> = sets
        .iter()
        .filter(|(name, _)| cfg.candidates.iter().any(|c| &c.inputs == *name))
        .map(|(name, &input)| Ok((name, (input, inputs(input, bb)?))))
        .collect::<Result<_>>()?;
    let mut out: Vec<Candidate> = cfg
        .candidates
        .par_iter()
        .enumerate()
        .map(|(c, spec)| {
            let (input, data) = &data[&spec.inputs];
            candidate(cfg, *input, data, bb, c, spec, progress)
        })
        .collect::<Result<_>>()?;
    out.sort_by_key(|c| (c.sizes.total, c.parameters));
    Ok(out)
}

fn candidate(
    cfg: &CompressConfig,
    input: InputFunction,
    data: &Inputs,
    bb: &Bitbase,
    c: usize,
    spec: &CandidateSpec,
    progress: Progress,
) -> Result<Candidate> {
    let started = Instant::now();
    let mut topology = vec![input.width()];
    topology.extend_from_slice(&spec.hidden);
    topology.push(1);
    let net_name = topology.iter().map(|w| w.to_string()).collect::<Vec<_>>().join("-");
    let name = format!("{net_name} ({} inputs, seed {})", spec.inputs, cfg.seed.wrapping_add(c as u64));
    let seed = cfg.seed.wrapping_add(c as u64);
    let mut net = Mlp::new(&topology, cfg.slope, seed)?;
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
    let float_errors = float_errors(&net, data);
    let train_seconds = started.elapsed().as_secs_f64();
    let (shifts, hybrid, sizes, refined) = best_quantisation(&net, input, data, bb)?;
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
        topology: net_name,
        inputs: spec.inputs.clone(),
        parameters: net.weight_count(),
        float_errors,
        epochs,
        train_seconds,
        shifts,
        refined,
        hybrid,
        sizes,
    })
}

fn float_errors(net: &Mlp, data: &Inputs) -> usize {
    let rows = data.rows.as_slice().expect("standard layout");
    let w = net.n_inputs();
    rows.par_chunks(w)
        .zip(data.wins.par_iter())
        .filter(|(x, win)| {
            let says_win = train::classify(net, OutputCoding::One, x) == train::Classification::Win;
            says_win != **win
        })
        .count()
}

/// The hybrid of an integer net: its exceptions found by running it on the precomputed inputs
/// (the same answers as [`Hybrid::build`], without recomputing the characteristics every time).
fn assemble(input: InputFunction, q: QuantNet, data: &Inputs) -> Result<(Hybrid, Sizes)> {
    let w = input.width();
    let wrong: Vec<u32> = (data.raw.par_chunks_exact(w), &data.wins[..], &data.index[..])
        .into_par_iter()
        .filter(|(x, win, _)| (q.output(x) > 0) != **win)
        .map(|(_, _, &i)| i)
        .collect();
    let exceptions = ExceptionSet::new(wrong).expect("legal indices");
    let h = Hybrid::new(input, q, exceptions)?;
    let s = h.sizes();
    Ok((h, s))
}

/// The shifts that give the smallest file: coordinate descent over each layer's shift in
/// −4..=14, from a start where every layer has shift 6, until a full pass changes nothing.
fn best_quantisation(
    net: &Mlp,
    input: InputFunction,
    data: &Inputs,
    bb: &Bitbase,
) -> Result<(Vec<i8>, Hybrid, Sizes, refine::Refined)> {
    let build = |shifts: &[i8]| -> Result<Option<(Hybrid, Sizes)>> {
        match quant::quantise(net.layers(), net.slope(), &data.scale, &data.offset, shifts, input.bound()) {
            Ok(q) => Ok(Some(assemble(input, q, data)?)),
            // A shift so large that a weight or an accumulator would overflow is not a candidate.
            Err(_) => Ok(None),
        }
    };
    let mut shifts = vec![6i8; net.layers().len()];
    let mut best = build(&shifts)?.ok_or_else(|| Error::Quantise("the net cannot be quantised".into()))?;
    loop {
        let mut changed = false;
        for l in 0..shifts.len() {
            for s in -4..=14 {
                if s == shifts[l] {
                    continue;
                }
                let mut trial = shifts.clone();
                trial[l] = s;
                if let Some(b) = build(&trial)?
                    && b.1.total < best.1.total
                {
                    best = b;
                    shifts = trial;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let (mut hybrid, mut sizes) = best;
    // Integer fine-tuning (see `refine`), priced at the current cost of an exception.
    let n = hybrid.exceptions().len().max(1);
    let bits_per_exception = (8 * sizes.exceptions) as f64 / n as f64;
    let (refined, mut stats) = refine::refine(
        hybrid.net(),
        &data.raw,
        &data.wins,
        bits_per_exception,
        REFINE_PASSES,
        input.bound(),
    )?;
    let (h, s) = assemble(input, refined, data)?;
    if s.total < sizes.total {
        (hybrid, sizes) = (h, s);
    } else {
        stats = refine::Refined {
            errors_before: hybrid.exceptions().len(),
            errors_after: hybrid.exceptions().len(),
            ..stats
        };
        stats.moves = 0;
    }
    // The fast path above must agree with the product's own path.
    if !hybrid.disagreements(bb).is_empty() || hybrid.net_errors(bb) != hybrid.exceptions().indices() {
        return Err(Error::Internal("compress: the hybrid disagrees with the bitbase".into()));
    }
    Ok((shifts, hybrid, sizes, stats))
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
            candidates: vec![CandidateSpec { hidden: vec![4], inputs: "a".into() }],
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
            inputs: BTreeMap::from([("b".to_string(), vec![27, 28, 32, 33])]),
            slope: 1.0,
            batch_size: 1024,
            stages: vec![Stage { learning_rate: 0.01, epochs: 1 }],
            candidates: vec![CandidateSpec { hidden: vec![2], inputs: "b".into() }],
        };
        let bb = Bitbase::generate();
        let a = compress(&cfg, &bb, &|_| {}).unwrap();
        let b = compress(&cfg, &bb, &|_| {}).unwrap();
        assert_eq!(a[0].hybrid.to_bytes(), b[0].hybrid.to_bytes());
        assert!(a[0].hybrid.disagreements(&bb).is_empty());
        assert_eq!(a[0].sizes.total, a[0].hybrid.to_bytes().len());
    }
}

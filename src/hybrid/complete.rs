//! Completing a float net into an exact hybrid: quantise it with the shifts that make the
//! smallest file, fine-tune the integers, and file every position it still gets wrong.
//!
//! A float net reads each stored input `x_j` (Table 4's natural integer value, or the side to
//! move) through an affine coding `scale_j · x_j + offset_j`: the standardisation `kpk compress`
//! trains with, or the natural and scaled codings of a net saved by `kpk run` ([`from_saved`]).
//! [`quant::quantise`] folds that coding into the first layer, so the stored net takes the raw
//! integers.
//!
//! 1. **Quantisation.** Each layer's weights are scaled by `16 · slope · 2^s` and rounded; the
//!    shifts `s` are chosen by coordinate descent to minimise the *file size*, trading the bits
//!    of the Rice-coded weights against the exceptions that coarser weights cause.
//! 2. **Integer fine-tuning.** A greedy search over the stored integers ([`refine`]) moves single
//!    weights and biases by ±1 where that shrinks the file (weight bits + exception bits).
//! 3. **Exceptions.** Every legal position the integer net gets wrong goes into the table, so the
//!    hybrid is exact by construction; [`Hybrid::disagreements`] re-checks it against the bitbase.

use super::inputs::InputFunction;
use super::quant::{self, QuantNet};
use super::{Hybrid, refine};
use crate::chess::bitbase::Bitbase;
use crate::chess::index::KpkIndex;
use crate::chess::position::KpkPosition;
use crate::error::{Error, Result};
use crate::hybrid::{exceptions::ExceptionSet, sizes::Sizes};
use crate::net::mlp::Mlp;
use crate::net::model::SavedNet;
use crate::net::output::{Classification, OutputCoding, classify};
use crate::paper::coding::InputCoding;
use crate::paper::features::FEATURES;
use kpk_probe::{Coverage, Outcome};
use ndarray::Array2;
use rayon::prelude::*;

/// Passes of the integer local search after quantisation.
const REFINE_PASSES: usize = 8;

/// How the float net codes the stored integer inputs: `scale_j · x_j + offset_j`.
#[derive(Clone, Debug, PartialEq)]
pub enum Coding {
    /// Mean 0 and standard deviation 1 over the legal positions (what suits Adam).
    Standardised,
    /// Given per input.
    Affine { scale: Vec<f64>, offset: Vec<f64> },
}

/// Every legal position's inputs, coded for the float net and raw for the integer one.
pub struct Positions {
    /// The coded inputs, one row per legal position in index order.
    pub rows: Array2<f64>,
    /// Whether each position is a win for the pawn side.
    pub wins: Vec<bool>,
    /// The coding: `rows[r][j] = scale[j] · raw[r][j] + offset[j]`.
    pub scale: Vec<f64>,
    pub offset: Vec<f64>,
    /// The raw integer inputs, row by row, and each row's position index.
    pub raw: Vec<i32>,
    pub index: Vec<u32>,
    /// Which positions these are: every legal one, or those with the pawn side to move.
    pub coverage: Coverage,
}

impl Positions {
    /// The inputs of `input` on every legal position under `coding`. A standardised input that is
    /// constant on the positions is an error (it carries nothing and cannot be scaled).
    pub fn new(input: InputFunction, bb: &Bitbase, coding: Coding) -> Result<Positions> {
        Positions::of(input, bb, coding, |_| true, Coverage::All)
    }

    fn of(
        input: InputFunction,
        bb: &Bitbase,
        coding: Coding,
        keep: impl Fn(&KpkPosition) -> bool,
        coverage: Coverage,
    ) -> Result<Positions> {
        let legal: Vec<KpkPosition> = KpkPosition::all().filter(keep).collect();
        let w = input.width();
        let mut raw = vec![0i32; w * legal.len()];
        for (x, p) in raw.chunks_exact_mut(w).zip(&legal) {
            input.write(p, x);
        }
        let mut rows = Array2::from_shape_vec((legal.len(), w), raw.iter().map(|&v| f64::from(v)).collect())
            .expect("one row per position");
        // Each column as the float net reads it: `(x − mean) / sd` when standardised (computed in
        // that form, so training sees the same bits whatever the coding's folded form).
        let (scale, offset) = match coding {
            Coding::Standardised => {
                let (mean, sd) = standardisation(input, &rows)?;
                for (j, mut col) in rows.columns_mut().into_iter().enumerate() {
                    col.mapv_inplace(|v| (v - mean[j]) / sd[j]);
                }
                (sd.iter().map(|s| 1.0 / s).collect(), mean.iter().zip(&sd).map(|(m, s)| -m / s).collect())
            }
            Coding::Affine { scale, offset } if scale.len() == w && offset.len() == w => {
                for (j, mut col) in rows.columns_mut().into_iter().enumerate() {
                    col.mapv_inplace(|v| scale[j] * v + offset[j]);
                }
                (scale, offset)
            }
            Coding::Affine { .. } => {
                return Err(Error::Shape("an affine coding needs one scale and offset per input".into()));
            }
        };
        let index = legal.iter().map(|p| KpkIndex::of(p).value() as u32).collect();
        let wins = legal.iter().map(|p| bb.outcome(p) == Outcome::Win).collect();
        Ok(Positions { rows, wins, scale, offset, raw, index, coverage })
    }

    /// The legal positions with the pawn side to move under `coding` (standardised over them):
    /// what a net answers when the lone king's positions go by the one-ply rule
    /// ([`Coverage::PawnSideToMove`]).
    pub fn pawn_side_to_move(input: InputFunction, bb: &Bitbase, coding: Coding) -> Result<Positions> {
        let coverage = Coverage::PawnSideToMove;
        Positions::of(input, bb, coding, |p| super::covers(coverage, p), coverage)
    }
}

/// Each column's mean and standard deviation over the legal positions.
fn standardisation(input: InputFunction, raw: &Array2<f64>) -> Result<(Vec<f64>, Vec<f64>)> {
    let n = raw.nrows() as f64;
    let mut means = Vec::with_capacity(raw.ncols());
    let mut sds = Vec::with_capacity(raw.ncols());
    for (j, col) in raw.columns().into_iter().enumerate() {
        let mean = col.sum() / n;
        let sd = (col.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt();
        if sd == 0.0 {
            return Err(Error::config(
                "inputs",
                format!("input {} is constant on the positions trained on", input.name(j)),
            ));
        }
        means.push(mean);
        sds.push(sd);
    }
    Ok((means, sds))
}

/// Legal positions the float net misclassifies (win iff its output ≥ 0.5).
pub fn float_errors(net: &Mlp, data: &Positions) -> usize {
    let rows = crate::net::values(&data.rows);
    rows.par_chunks(net.n_inputs())
        .zip(data.wins.par_iter())
        .filter(|(x, win)| {
            let says_win = classify(net, OutputCoding::One, x) == Classification::Win;
            says_win != **win
        })
        .count()
}

/// The hybrid of an integer net: its exceptions found by running it on the precomputed inputs
/// (the same answers as [`Hybrid::build`], without recomputing the characteristics every time).
fn assemble(input: InputFunction, q: QuantNet, data: &Positions) -> Result<(Hybrid, Sizes)> {
    let exceptions = ExceptionSet::new(misclassified(&q, data)).expect("legal indices");
    let h = Hybrid::with_coverage(input, q, exceptions, data.coverage)?;
    let s = h.sizes();
    Ok((h, s))
}

/// The indices of the legal positions the integer net `q` gets wrong, in index order.
fn misclassified(q: &QuantNet, data: &Positions) -> Vec<u32> {
    (data.raw.par_chunks_exact(q.n_inputs()), &data.wins[..], &data.index[..])
        .into_par_iter()
        .filter(|(x, win, _)| (q.output(x) > 0) != **win)
        .map(|(_, _, &i)| i)
        .collect()
}

/// Legal positions `net` misclassifies once rounded at `shifts`; `None` where it cannot be
/// stored at those shifts.
pub fn rounded_errors(net: &Mlp, input: InputFunction, data: &Positions, shifts: &[i8]) -> Option<usize> {
    let q =
        quant::quantise(net.layers(), net.slope(), &data.scale, &data.offset, shifts, input.bound()).ok()?;
    Some(misclassified(&q, data).len())
}

/// A completed net: the exact hybrid and how it was reached.
#[derive(Clone, Debug)]
pub struct Completed {
    /// The chosen shift of each layer.
    pub shifts: Vec<i8>,
    pub hybrid: Hybrid,
    pub sizes: Sizes,
    /// The integer fine-tuning: errors of the rounded net before and after it.
    pub refined: refine::Refined,
}

/// Quantise `net` (one output; its inputs those of `input` coded as in `data`), fine-tune the
/// integers and file the exceptions: the smallest exact hybrid this net gives.
pub fn complete(net: &Mlp, input: InputFunction, data: &Positions, bb: &Bitbase) -> Result<Completed> {
    let (shifts, best) = best_shifts(net, input, data)?;
    let (mut hybrid, mut sizes) = best;
    // Integer fine-tuning (see `refine`), priced at the current cost of an exception.
    let n = hybrid.exceptions().len().max(1);
    let bits_per_exception = (8 * sizes.exceptions) as f64 / n as f64;
    let (tuned, mut refined) = refine::refine(
        hybrid.net()?,
        &data.raw,
        &data.wins,
        bits_per_exception,
        REFINE_PASSES,
        input.bound(),
    )?;
    let (h, s) = assemble(input, tuned, data)?;
    if s.total < sizes.total {
        (hybrid, sizes) = (h, s);
    } else {
        let errors = hybrid.exceptions().len();
        refined = refine::Refined { errors_before: errors, errors_after: errors, moves: 0, ..refined };
    }
    // The fast path above must agree with the product's own path.
    if !hybrid.disagreements(bb).is_empty() || hybrid.net_errors(bb) != hybrid.exceptions().indices() {
        return Err(Error::Internal("the hybrid disagrees with the bitbase".into()));
    }
    Ok(Completed { shifts, hybrid, sizes, refined })
}

/// The shifts that give the smallest file: coordinate descent over each layer's shift in
/// −4..=14, from a start where every layer has shift 6, until a full pass changes nothing.
fn best_shifts(net: &Mlp, input: InputFunction, data: &Positions) -> Result<(Vec<i8>, (Hybrid, Sizes))> {
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
            return Ok((shifts, best));
        }
    }
}

/// A saved net made ready for quantisation: one output, inputs in the stored net's order.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub input: InputFunction,
    /// The saved net with its inputs in increasing Table 4 order, x13 dropped, and a two-output
    /// net's last layer replaced by the difference of its rows.
    pub net: Mlp,
    /// The saved net's coding of each stored input: `scale · x + offset`.
    pub scale: Vec<f64>,
    pub offset: Vec<f64>,
}

/// A saved net completed: the float net the hybrid approximates and the result.
pub struct FromSaved {
    pub prepared: Prepared,
    /// Legal positions (both sides to move) that float net misclassifies.
    pub float_errors: usize,
    pub completed: Completed,
}

/// Make a net saved by `kpk run` ([`SavedNet`]) ready for quantisation.
///
/// The stored net reads the saved net's characteristics as natural integers; the natural and
/// scaled codings are affine in them and fold into the first layer (the binary and one-hot codings
/// do not, and are refused). x13 is 0 on every legal position and so is dropped. A two-output net
/// (win, draw) answers *win* iff its win output is the larger (σ is increasing, so iff the win
/// neuron's sum is the larger): its last layer becomes one row, the win row minus the draw row.
pub fn prepare(saved: &SavedNet) -> Result<Prepared> {
    saved.check()?;
    if !matches!(saved.input_coding, InputCoding::Natural | InputCoding::Scaled) {
        return Err(Error::Model(format!(
            "the {} input coding is not affine in the characteristics: only natural and scaled nets can be compressed",
            saved.input_coding.name()
        )));
    }
    // Characteristic numbers of the saved net's inputs, in its order.
    let xs: Vec<usize> =
        saved.features.iter().map(|f| f[1..].parse::<usize>().expect("checked feature names")).collect();
    let mut order: Vec<usize> = (0..xs.len()).filter(|&j| xs[j] != 13).collect();
    order.sort_by_key(|&j| xs[j]);
    let kept: Vec<usize> = order.iter().map(|&j| xs[j]).collect();
    if kept.is_empty() {
        return Err(Error::Model("the net reads no characteristic that varies on legal positions".into()));
    }
    let input = InputFunction::features(&kept)?;
    let mut layers = saved.net()?.layers().to_vec();
    // Bias column 0 stays; input column j + 1 moves to its place in increasing x.
    let mut columns = vec![0];
    columns.extend(order.iter().map(|&j| j + 1));
    layers[0] = layers[0].select(ndarray::Axis(1), &columns);
    let last = layers.len() - 1;
    if layers[last].nrows() == 2 {
        let diff = &layers[last].row(0) - &layers[last].row(1);
        layers[last] = diff.insert_axis(ndarray::Axis(0));
    }
    let net = Mlp::from_layers(layers, saved.slope)?;
    let (scale, offset) = kept
        .iter()
        .map(|&x| match saved.input_coding {
            InputCoding::Scaled => {
                let (lo, hi) = FEATURES[x - 1].range;
                let span = f64::from(hi - lo);
                (1.0 / span, -f64::from(lo) / span)
            }
            _ => (1.0, 0.0),
        })
        .unzip();
    Ok(Prepared { input, net, scale, offset })
}

/// Quantise and complete a net saved by `kpk run` (see [`prepare`]). The saved net sees no side
/// to move, so the hybrid's exceptions cover every position of either side it gets wrong.
pub fn from_saved(saved: &SavedNet, bb: &Bitbase) -> Result<FromSaved> {
    let prepared = prepare(saved)?;
    let coding = Coding::Affine { scale: prepared.scale.clone(), offset: prepared.offset.clone() };
    let data = Positions::new(prepared.input, bb, coding)?;
    let float_errors = float_errors(&prepared.net, &data);
    let completed = complete(&prepared.net, prepared.input, &data, bb)?;
    Ok(FromSaved { prepared, float_errors, completed })
}

//! The DTZ model (`models/kpk-dtz.hybrid`): an exact win/draw model, a value tree over Table 4's
//! characteristics for the hard positions and the corrections where the tree is wrong (the hybrid
//! idea of section 5.1 applied to a depth). The layout is specified in `format.md` ("The DTZ
//! model"); the reader is [`kpk_probe::dtz`], which owns the rules this file leaves to it.
//!
//! The tree is grown by information gain over the values `(DTZ − 3) / 2` of the hard positions,
//! then pruned by description length as the win/draw trees are ([`crate::learners::tree`]): a
//! subtree becomes a leaf of its most common value wherever the leaf's bits plus `c` bits for each
//! correction it needs cost no more than the subtree. Sweeping `c` gives the frontier of
//! tree bytes against corrections; every candidate is decoded and checked on every position.

use crate::chess::bitbase::Bitbase;
use crate::chess::index::KpkIndex;
use crate::hybrid::bits::{BitWriter, best_rice};
use crate::hybrid::exceptions::{gaps, write_sorted};
use kpk_probe::bits::zigzag;
use kpk_probe::dtz::{Correction, DTZ_MAGIC, DTZ_VERSION, DtzModel, ValueNode, ValueTree, hard_positions};
use kpk_probe::table4::{N_FEATURES, characteristics};
use kpk_probe::tree::{RANGES, X_BITS, threshold_bits};
use kpk_probe::{Model, Position};

/// Where `kpk compress-dtz` writes the model and `kpk query --dtz` reads it by default.
pub const DEFAULT_DTZ_MODEL: &str = "models/kpk-dtz.hybrid";
/// The committed [`DEFAULT_DTZ_MODEL`], compiled into kpk: the DTZ model read when no file is given.
pub const DEFAULT_DTZ_MODEL_BYTES: &[u8] = include_bytes!("../../models/kpk-dtz.hybrid");

/// One hard position: its characteristics and its value `(DTZ − 3) / 2`.
struct Row {
    x: [i8; N_FEATURES],
    v: u8,
}

/// A grown tree before flattening: every node keeps its most common value and its errors.
enum Fit {
    Leaf { v: u8, errors: u32 },
    Split { x: u8, t: u8, v: u8, errors: u32, left: Box<Fit>, right: Box<Fit> },
}

/// The hard positions of `wdl` as training rows, labelled from the bitbase. `None` if some hard
/// position does not have DTZ of at least 3 (the rule for DTZ 1 would then be wrong).
fn rows(wdl: &Model, bb: &Bitbase) -> Option<Vec<Row>> {
    hard_positions(wdl)
        .into_iter()
        .map(|i| {
            let z = bb.dtz_at(KpkIndex::new(i)?);
            let p = Position::from_index(i)?;
            (z >= 3).then(|| Row { x: characteristics(p.coordinates(), true), v: ((z - 3) / 2) as u8 })
        })
        .collect()
}

/// Class counts of `rows`: the most common value (ties to the smaller) and the others' number.
fn mode(rows: &[&Row]) -> (u8, u32) {
    let mut n = [0u32; 64];
    for r in rows {
        n[usize::from(r.v)] += 1;
    }
    let (v, most) = n.iter().enumerate().fold((0, 0), |b, (v, &c)| if c > b.1 { (v, c) } else { b });
    (v as u8, rows.len() as u32 - most)
}

/// `n · entropy` of a class histogram of `n` rows, in bits.
fn weighted_entropy(counts: &[u32]) -> f64 {
    let n: u32 = counts.iter().sum();
    let n = f64::from(n);
    counts.iter().filter(|&&c| c > 0).map(|&c| -f64::from(c) * (f64::from(c) / n).log2()).sum()
}

/// The split of largest information gain (ties to the lowest column and threshold), if any gains.
fn best_split(rows: &[&Row]) -> Option<(u8, u8)> {
    let before = {
        let mut c = [0u32; 64];
        rows.iter().for_each(|r| c[usize::from(r.v)] += 1);
        weighted_entropy(&c)
    };
    let mut best: Option<(f64, u8, u8)> = None;
    for (x, &(lo, hi)) in RANGES.iter().enumerate().filter(|(_, r)| r.0 < r.1) {
        let size = (hi - lo) as usize + 1;
        let mut hist = vec![[0u32; 64]; size];
        for r in rows {
            hist[(r.x[x] - lo) as usize][usize::from(r.v)] += 1;
        }
        let mut left = [0u32; 64];
        let total: [u32; 64] = std::array::from_fn(|c| hist.iter().map(|h| h[c]).sum());
        for (t, h) in hist.iter().enumerate().take(size - 1) {
            (0..64).for_each(|c| left[c] += h[c]);
            let right: [u32; 64] = std::array::from_fn(|c| total[c] - left[c]);
            if left.iter().sum::<u32>() == 0 || right.iter().sum::<u32>() == 0 {
                continue;
            }
            let after = weighted_entropy(&left) + weighted_entropy(&right);
            if before - after > 1e-9 && best.is_none_or(|b| after < b.0 - 1e-12) {
                best = Some((after, x as u8, t as u8));
            }
        }
    }
    best.map(|(_, x, t)| (x, t))
}

fn grow(rows: &[&Row], depth: usize) -> Fit {
    let (v, errors) = mode(rows);
    let split = if errors == 0 || depth >= kpk_probe::tree::MAX_DEPTH { None } else { best_split(rows) };
    let Some((x, t)) = split else { return Fit::Leaf { v, errors } };
    let goes_left =
        |r: &&&Row| i16::from(r.x[usize::from(x)]) - i16::from(RANGES[usize::from(x)].0) <= i16::from(t);
    let (l, r): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(goes_left);
    Fit::Split { x, t, v, errors, left: Box::new(grow(&l, depth + 1)), right: Box::new(grow(&r, depth + 1)) }
}

/// Prune by description length with `c` bits a correction and `leaf_bits` a leaf value; the
/// pruned tree and its cost in bits.
fn prune(f: Fit, c: f64, leaf_bits: u32) -> (Fit, f64) {
    match f {
        Fit::Leaf { v, errors } => {
            (Fit::Leaf { v, errors }, 1.0 + f64::from(leaf_bits) + c * f64::from(errors))
        }
        Fit::Split { x, t, v, errors, left, right } => {
            let (l, lc) = prune(*left, c, leaf_bits);
            let (r, rc) = prune(*right, c, leaf_bits);
            let split = f64::from(1 + X_BITS + threshold_bits(usize::from(x))) + lc + rc;
            let leaf = 1.0 + f64::from(leaf_bits) + c * f64::from(errors);
            if leaf <= split {
                (Fit::Leaf { v, errors }, leaf)
            } else {
                (Fit::Split { x, t, v, errors, left: Box::new(l), right: Box::new(r) }, split)
            }
        }
    }
}

fn flatten(f: &Fit, nodes: &mut Vec<ValueNode>) {
    match f {
        Fit::Leaf { v, .. } => nodes.push(ValueNode::Leaf(*v)),
        Fit::Split { x, t, left, right, .. } => {
            let at = nodes.len();
            nodes.push(ValueNode::Split { x: *x, t: *t, right: 0 });
            flatten(left, nodes);
            nodes[at] = ValueNode::Split { x: *x, t: *t, right: nodes.len() as u32 };
            flatten(right, nodes);
        }
    }
}

/// One candidate of the frontier: its correction cost `c`, the file and what it holds.
pub struct Candidate {
    pub c: f64,
    pub bytes: Vec<u8>,
    pub leaves: usize,
    pub tree_bits: u64,
    pub corrections: usize,
    pub correction_bits: u64,
    /// Positions (of 165,676) where the decoded file's DTZ differs from the bitbase's.
    pub wrong: usize,
}

/// Fit and encode the DTZ model over the exact win/draw model file `embedded` for each correction
/// cost in `costs`; every candidate decoded and checked on every legal position. `None` when
/// `embedded` is no exact model, or its hard positions break the DTZ-1 rule.
pub fn frontier(embedded: &[u8], bb: &Bitbase, costs: &[f64]) -> Option<Vec<Candidate>> {
    let wdl = Model::from_bytes(embedded).ok()?;
    let rows = rows(&wdl, bb)?;
    let refs: Vec<&Row> = rows.iter().collect();
    let leaf_bits = u32::BITS - u32::from(rows.iter().map(|r| r.v).max().unwrap_or(0)).leading_zeros();
    let mut out = Vec::new();
    for &c in costs {
        let (fit, _) = prune(grow(&refs, 0), c, leaf_bits);
        let mut nodes = Vec::new();
        flatten(&fit, &mut nodes);
        let tree = ValueTree { nodes, leaf_bits };
        let corrections: Vec<Correction> = (rows.iter().enumerate())
            .filter_map(|(place, r)| {
                let delta = i16::from(r.v) - i16::from(tree.value(&r.x));
                (delta != 0).then_some(Correction { place: place as u32, delta: delta as i8 })
            })
            .collect();
        let (bytes, tree_bits, correction_bits) = encode(embedded, &tree, &corrections);
        let wrong = DtzModel::from_bytes(&bytes).map_or(usize::MAX, |m| disagreements(&m, bb));
        let leaves = tree.nodes.iter().filter(|n| matches!(n, ValueNode::Leaf(_))).count();
        out.push(Candidate {
            c,
            bytes,
            leaves,
            tree_bits,
            corrections: corrections.len(),
            correction_bits,
            wrong,
        });
    }
    Some(out)
}

/// Legal positions where `m`'s DTZ is not the bitbase's.
pub fn disagreements(m: &DtzModel, bb: &Bitbase) -> usize {
    Position::all()
        .filter(|p| i32::from(m.dtz(p)) != i32::from(bb.dtz_at(KpkIndex::new(p.index()).expect("legal"))))
        .count()
}

/// The file's bytes (`format.md`, "The DTZ model"), the tree's bits and the corrections' bits.
pub fn encode(embedded: &[u8], tree: &ValueTree, corrections: &[Correction]) -> (Vec<u8>, u64, u64) {
    let places: Vec<u32> = corrections.iter().map(|c| c.place).collect();
    let deltas: Vec<u64> = corrections.iter().map(|c| zigzag(i64::from(c.delta)) - 1).collect();
    let (kg, _) = best_rice(gaps(&places));
    let (kd, _) = best_rice(deltas.iter().copied());
    let mut bytes = Vec::with_capacity(embedded.len() + 1024);
    bytes.extend_from_slice(DTZ_MAGIC);
    bytes.push(DTZ_VERSION);
    bytes.extend_from_slice(&[0; 4]); // the length, filled in below
    bytes.extend_from_slice(&(embedded.len() as u16).to_le_bytes());
    bytes.extend_from_slice(embedded);
    bytes.push(tree.leaf_bits as u8);
    bytes.extend_from_slice(&(corrections.len() as u32).to_le_bytes()[..3]);
    bytes.extend_from_slice(&[kg as u8, kd as u8]);
    let mut w = BitWriter::new();
    tree.write(|v, n| w.bits(v, n));
    let tree_bits = w.len() as u64;
    write_sorted(&places, &mut w, kg);
    deltas.iter().for_each(|&d| w.rice(d, kd));
    let correction_bits = w.len() as u64 - tree_bits;
    bytes.extend_from_slice(&w.into_bytes());
    let total = (bytes.len() + 4) as u32;
    bytes[5..9].copy_from_slice(&total.to_le_bytes());
    let crc = kpk_probe::bits::crc32(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    (bytes, tree_bits, correction_bits)
}

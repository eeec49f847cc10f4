//! The KRK model (`models/krk.hybrid`): KRK's distance to mate for every legal position from a
//! value tree over a few features and the corrections where the tree is wrong (section 5.1's
//! hybrid idea applied to a depth). The layout is specified in docs/MODEL_FORMATS.md ("The KRK
//! model"); the reader is [`kpk_probe::krk`], which owns the one-ply rule and the symmetry.
//!
//! The tree is grown by information gain over White's DTM in moves of the stored positions
//! (White to move, one per symmetry class), then pruned by description length: a subtree becomes
//! a leaf of its most common value wherever the leaf's bits plus `c` bits for each correction it
//! needs cost no more than the subtree. Sweeping `c` gives the frontier of tree bytes against
//! corrections; every candidate is decoded and checked on every legal position.

use crate::chess::dtm::{Dtm, Tables};
use crate::chess::pawnless::Piece;
use crate::dataset::krk::KrkPosition;
use crate::hybrid::bits::{BitWriter, best_rice};
use crate::hybrid::exceptions::{gaps, write_sorted};
use kpk_probe::Square;
use kpk_probe::bits::zigzag;
use kpk_probe::krk::{
    Correction, FEATURE_BITS, FEATURE_MAX, KRK_MAGIC, KRK_VERSION, KrkModel, N_FEATURES, Node, ValueTree,
    features, stored_positions, threshold_bits,
};
use rayon::prelude::*;

/// Where `kpk compress-krk` writes the model and `kpk query --dtm` reads it by default.
pub const DEFAULT_KRK_MODEL: &str = "models/krk.hybrid";
/// The committed [`DEFAULT_KRK_MODEL`], compiled into kpk: the KRK model read when no file is given.
pub const DEFAULT_KRK_MODEL_BYTES: &[u8] = include_bytes!("../../models/krk.hybrid");

/// The largest value a leaf holds: White's longest mate, 16 moves.
const MOST_MOVES: u8 = 16;

/// One stored position: its features and White's DTM in moves (0 a draw).
struct Row {
    x: [u8; N_FEATURES],
    v: u8,
}

/// A grown tree before flattening: every node keeps its most common value and its errors.
enum Fit {
    Leaf { v: u8, errors: u32 },
    Split { x: u8, t: u8, v: u8, errors: u32, left: Box<Fit>, right: Box<Fit> },
}

/// White's DTM in moves of a White-to-move position's table entry (0 a draw).
fn white_moves(d: Dtm) -> u8 {
    if d.wdl == 1 { d.plies.div_ceil(2) as u8 } else { 0 }
}

/// The stored positions as training rows, in the file's order, labelled from the table.
fn rows(tables: &Tables) -> Vec<Row> {
    let sq = |s: u8| Square::new(s).expect("a square");
    stored_positions()
        .into_iter()
        .map(|[wk, wr, bk]| {
            let d = tables.pawnless_dtm(Piece::Rook, true, [sq(wr), sq(wk), sq(bk)]);
            Row { x: features(wk, wr, bk), v: white_moves(d) }
        })
        .collect()
}

/// The most common value of `rows` (ties to the smaller) and the number of the others.
fn mode(rows: &[&Row]) -> (u8, u32) {
    let mut n = [0u32; 64];
    rows.iter().for_each(|r| n[usize::from(r.v)] += 1);
    let (v, most) = n.iter().enumerate().fold((0, 0), |b, (v, &c)| if c > b.1 { (v, c) } else { b });
    (v as u8, rows.len() as u32 - most)
}

/// `n · entropy` of a class histogram of `n` rows, in bits.
fn weighted_entropy(counts: &[u32]) -> f64 {
    let n = f64::from(counts.iter().sum::<u32>());
    counts.iter().filter(|&&c| c > 0).map(|&c| -f64::from(c) * (f64::from(c) / n).log2()).sum()
}

/// The split of largest information gain (ties to the lowest feature and threshold), if any gains.
fn best_split(rows: &[&Row]) -> Option<(u8, u8)> {
    let classes = usize::from(MOST_MOVES) + 1;
    let mut total = vec![0u32; classes];
    rows.iter().for_each(|r| total[usize::from(r.v)] += 1);
    let before = weighted_entropy(&total);
    let mut best: Option<(f64, u8, u8)> = None;
    for (x, &max) in FEATURE_MAX.iter().enumerate() {
        let mut hist = vec![vec![0u32; classes]; usize::from(max) + 1];
        rows.iter().for_each(|r| hist[usize::from(r.x[x])][usize::from(r.v)] += 1);
        let mut left = vec![0u32; classes];
        for (t, h) in hist.iter().enumerate().take(usize::from(max)) {
            (0..classes).for_each(|c| left[c] += h[c]);
            let right: Vec<u32> = (0..classes).map(|c| total[c] - left[c]).collect();
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
    let (l, r): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(|r| r.x[usize::from(x)] <= t);
    Fit::Split { x, t, v, errors, left: Box::new(grow(&l, depth + 1)), right: Box::new(grow(&r, depth + 1)) }
}

/// Prune by description length with `c` bits a correction and `leaf_bits` a leaf value; the
/// pruned tree and its cost in bits.
fn prune(f: &Fit, c: f64, leaf_bits: u32) -> (Fit, f64) {
    let leaf =
        |v: u8, errors: u32| (Fit::Leaf { v, errors }, 1.0 + f64::from(leaf_bits) + c * f64::from(errors));
    match *f {
        Fit::Leaf { v, errors } => leaf(v, errors),
        Fit::Split { x, t, v, errors, ref left, ref right } => {
            let (l, lc) = prune(left, c, leaf_bits);
            let (r, rc) = prune(right, c, leaf_bits);
            let split = f64::from(1 + FEATURE_BITS + threshold_bits(usize::from(x))) + lc + rc;
            let as_leaf = leaf(v, errors);
            if as_leaf.1 <= split {
                as_leaf
            } else {
                (Fit::Split { x, t, v, errors, left: Box::new(l), right: Box::new(r) }, split)
            }
        }
    }
}

fn flatten(f: &Fit, nodes: &mut Vec<Node>) {
    match f {
        Fit::Leaf { v, .. } => nodes.push(Node::Leaf(*v)),
        Fit::Split { x, t, left, right, .. } => {
            let at = nodes.len();
            nodes.push(Node::Split { x: *x, t: *t, right: 0 });
            flatten(left, nodes);
            nodes[at] = Node::Split { x: *x, t: *t, right: nodes.len() as u32 };
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
    /// Legal KRK positions (both sides to move, every orientation with White holding the rook)
    /// where the decoded file's DTM differs from the table's.
    pub wrong: usize,
}

/// Fit and encode the KRK model for each correction cost in `costs`; every candidate decoded
/// and checked on every legal position.
pub fn frontier(tables: &Tables, costs: &[f64]) -> Vec<Candidate> {
    let rows = rows(tables);
    let refs: Vec<&Row> = rows.iter().collect();
    let grown = grow(&refs, 0);
    let leaf_bits = u32::BITS - u32::from(rows.iter().map(|r| r.v).max().unwrap_or(0)).leading_zeros();
    costs
        .iter()
        .map(|&c| {
            let (fit, _) = prune(&grown, c, leaf_bits.max(1));
            let mut nodes = Vec::new();
            flatten(&fit, &mut nodes);
            let tree = ValueTree { nodes, leaf_bits: leaf_bits.max(1) };
            let corrections: Vec<Correction> = (rows.iter().enumerate())
                .filter_map(|(place, r)| {
                    let delta = i16::from(r.v) - i16::from(tree.value(&r.x));
                    (delta != 0).then_some(Correction { place: place as u32, delta: delta as i8 })
                })
                .collect();
            let (bytes, tree_bits, correction_bits) = encode(&tree, &corrections);
            let wrong = KrkModel::from_bytes(&bytes).map_or(usize::MAX, |m| disagreements(&m, tables));
            let leaves = tree.nodes.iter().filter(|n| matches!(n, Node::Leaf(_))).count();
            Candidate { c, bytes, leaves, tree_bits, corrections: corrections.len(), correction_bits, wrong }
        })
        .collect()
}

/// Legal KRK positions, both sides to move, where `m`'s DTM is not the table's.
pub fn disagreements(m: &KrkModel, tables: &Tables) -> usize {
    let all: Vec<KrkPosition> = KrkPosition::all().collect();
    all.par_iter()
        .filter(|p| {
            let [wk, wr, bk] = [p.wk, p.wr, p.bk].map(|s| s.number());
            let d = p.dtm(tables);
            m.dtm(wk, wr, bk, p.white_to_move).is_none_or(|a| (a.wdl, a.plies) != (d.wdl, d.plies))
        })
        .count()
}

/// The file's bytes (docs/MODEL_FORMATS.md, "The KRK model"), the tree's bits and the
/// corrections' bits.
pub fn encode(tree: &ValueTree, corrections: &[Correction]) -> (Vec<u8>, u64, u64) {
    let places: Vec<u32> = corrections.iter().map(|c| c.place).collect();
    let deltas: Vec<u64> = corrections.iter().map(|c| zigzag(i64::from(c.delta)) - 1).collect();
    let (kg, _) = best_rice(gaps(&places));
    let (kd, _) = best_rice(deltas.iter().copied());
    let mut bytes = Vec::new();
    bytes.extend_from_slice(KRK_MAGIC);
    bytes.push(KRK_VERSION);
    bytes.extend_from_slice(&[0; 4]); // the length, filled in below
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

//! The value tree's fit, shared by the DTZ model ([`crate::hybrid::dtz`]) and the KRK model
//! ([`crate::hybrid::krk`]); the trees are [`kpk_probe::value_tree`]'s, over each model's features.
//!
//! The tree is grown by information gain over the rows' values, then pruned by description
//! length as the win/draw trees are ([`crate::learners::tree`]): a subtree becomes a leaf of its
//! most common value wherever the leaf's bits plus `c` bits for each correction it needs cost no
//! more than the subtree. Sweeping `c` gives the frontier of tree bytes against corrections.

use crate::hybrid::bits::{BitWriter, best_rice};
use crate::hybrid::exceptions::{gaps, write_sorted};
use kpk_probe::bits::zigzag;
use kpk_probe::tree::MAX_DEPTH;
use kpk_probe::value_tree::{Correction, FeatureSet, Node, ValueTree};

/// One position to fit: its features and the value its leaf should hold.
pub struct Row<F: FeatureSet> {
    pub x: F::Values,
    pub v: u8,
}

/// A grown tree before pruning: every node keeps its most common value and its errors.
pub enum Fit {
    Leaf { v: u8, errors: u32 },
    Split { x: u8, t: u8, v: u8, errors: u32, left: Box<Fit>, right: Box<Fit> },
}

/// The most common value of `rows` (ties to the smaller) and the number of the others.
fn mode<F: FeatureSet>(rows: &[&Row<F>]) -> (u8, u32) {
    let mut n = [0u32; 256];
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
fn best_split<F: FeatureSet>(rows: &[&Row<F>]) -> Option<(u8, u8)> {
    let classes = rows.iter().map(|r| usize::from(r.v) + 1).max().unwrap_or(1);
    let mut total = vec![0u32; classes];
    rows.iter().for_each(|r| total[usize::from(r.v)] += 1);
    let before = weighted_entropy(&total);
    let mut best: Option<(f64, u8, u8)> = None;
    for x in 0..1usize << F::INDEX_BITS {
        let thresholds = F::thresholds(x) as usize;
        if thresholds == 0 {
            continue;
        }
        let mut hist = vec![vec![0u32; classes]; thresholds + 1];
        rows.iter().for_each(|r| hist[F::level(&r.x, x) as usize][usize::from(r.v)] += 1);
        let mut left = vec![0u32; classes];
        for (t, h) in hist.iter().enumerate().take(thresholds) {
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

/// Grow the tree over `rows` until each leaf is pure, no split gains or the depth is the
/// format's [`MAX_DEPTH`].
fn grow<F: FeatureSet>(rows: &[&Row<F>], depth: usize) -> Fit {
    let (v, errors) = mode(rows);
    let split = if errors == 0 || depth >= MAX_DEPTH { None } else { best_split(rows) };
    let Some((x, t)) = split else { return Fit::Leaf { v, errors } };
    let goes_left = |r: &&&Row<F>| F::level(&r.x, usize::from(x)) <= i16::from(t);
    let (l, r): (Vec<&Row<F>>, Vec<&Row<F>>) = rows.iter().partition(goes_left);
    Fit::Split { x, t, v, errors, left: Box::new(grow(&l, depth + 1)), right: Box::new(grow(&r, depth + 1)) }
}

/// Prune by description length with `c` bits a correction and `leaf_bits` a leaf value; the
/// pruned tree and its cost in bits.
fn prune<F: FeatureSet>(f: &Fit, c: f64, leaf_bits: u32) -> (Fit, f64) {
    let leaf =
        |v: u8, errors: u32| (Fit::Leaf { v, errors }, 1.0 + f64::from(leaf_bits) + c * f64::from(errors));
    match *f {
        Fit::Leaf { v, errors } => leaf(v, errors),
        Fit::Split { x, t, v, errors, ref left, ref right } => {
            let (l, lc) = prune::<F>(left, c, leaf_bits);
            let (r, rc) = prune::<F>(right, c, leaf_bits);
            let split = f64::from(1 + F::INDEX_BITS + F::threshold_bits(usize::from(x))) + lc + rc;
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
    /// Positions where the decoded file's answer differs from the exact one (the model's
    /// `disagreements` says which positions it counts); `usize::MAX` if the file does not decode.
    pub wrong: usize,
}

/// The frontier over `rows`: for each correction cost in `costs`, the tree grown once and pruned
/// with it (its leaves as wide as the largest value needs, at least `least_leaf_bits`), its
/// corrections, the file `encode` writes and the positions `wrong` finds it gets wrong.
pub fn frontier<F: FeatureSet>(
    rows: &[Row<F>],
    least_leaf_bits: u32,
    costs: &[f64],
    encode: impl Fn(&ValueTree<F>, &[Correction]) -> (Vec<u8>, u64, u64),
    wrong: impl Fn(&[u8]) -> usize,
) -> Vec<Candidate> {
    let refs: Vec<&Row<F>> = rows.iter().collect();
    let grown = grow(&refs, 0);
    let leaf_bits = u32::BITS - u32::from(rows.iter().map(|r| r.v).max().unwrap_or(0)).leading_zeros();
    let leaf_bits = leaf_bits.max(least_leaf_bits);
    costs
        .iter()
        .map(|&c| {
            let tree = pruned(&grown, c, leaf_bits);
            let corrections = corrections(&tree, rows);
            let (bytes, tree_bits, correction_bits) = encode(&tree, &corrections);
            let wrong = wrong(&bytes);
            let leaves = leaves(&tree);
            Candidate { c, bytes, leaves, tree_bits, corrections: corrections.len(), correction_bits, wrong }
        })
        .collect()
}

/// The grown tree `grown` pruned with `c` bits a correction, its leaves `leaf_bits` wide.
fn pruned<F: FeatureSet>(grown: &Fit, c: f64, leaf_bits: u32) -> ValueTree<F> {
    let (fit, _) = prune::<F>(grown, c, leaf_bits);
    let mut nodes = Vec::new();
    flatten(&fit, &mut nodes);
    ValueTree::new(nodes, leaf_bits)
}

/// The corrections `tree` needs on `rows`: each row's place (its index) and its value less its
/// leaf's, where they differ.
fn corrections<F: FeatureSet>(tree: &ValueTree<F>, rows: &[Row<F>]) -> Vec<Correction> {
    (rows.iter().enumerate())
        .filter_map(|(place, r)| {
            let delta = i16::from(r.v) - i16::from(tree.value(&r.x));
            (delta != 0).then_some(Correction { place: place as u32, delta: delta as i8 })
        })
        .collect()
}

/// A model file from its `header` (magic, version, four bytes for the length, then what the
/// model puts before its fields): the leaf width, the corrections' count (3 bytes) and two Rice
/// parameters, the bit stream (the tree, the corrections' places as sorted gaps, their deltas
/// as zig-zag codes less one), the length filled in and the checksum. Also the tree's bits and
/// the corrections' bits.
pub fn write_model<F: FeatureSet>(
    header: &[u8],
    tree: &ValueTree<F>,
    corrections: &[Correction],
) -> (Vec<u8>, u64, u64) {
    let places: Vec<u32> = corrections.iter().map(|c| c.place).collect();
    let deltas: Vec<u64> = corrections.iter().map(|c| zigzag(i64::from(c.delta)) - 1).collect();
    let (kg, _) = best_rice(gaps(&places));
    let (kd, _) = best_rice(deltas.iter().copied());
    let mut bytes = header.to_vec();
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

/// The number of leaves of `tree`.
fn leaves<F: FeatureSet>(tree: &ValueTree<F>) -> usize {
    tree.nodes.iter().filter(|n| matches!(n, Node::Leaf(_))).count()
}

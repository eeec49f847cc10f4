//! `tree`: a CART decision tree (rule induction, section 7's ID3 line), and the binary-tree
//! grower shared with the boosted trees ([`super::boosted`]).
//!
//! A split sends a position left when `x[col] ≤ lo + t` (the characteristic's legal range starts
//! at `lo`; `t` in `0..size − 1`). The grower is histogram-based: the characteristics take at most
//! 15 values, so the best split of a node is found from one pass over its positions. It picks the
//! split of largest gain, ties to the lowest column and threshold, so it is deterministic.
//! CART's impurity is Gini's: a node of `n` positions, `w` of them wins, scores
//! `(w² + (n − w)²) / n`, and a split's gain is its children's scores less the node's.
//!
//! # Encoding (bits counted by [`Tree::bits`])
//!
//! Preorder, each node one flag bit (1 = split, 0 = leaf); a split then holds its column in
//! [`InputSet::col_bits`] bits and its threshold `t` in ⌈log2(size − 1)⌉ bits (the column's legal
//! range); a leaf holds its value in the tree's leaf bits (1 for a class, 16 for a boosted
//! tree's quantised score). In a class tree, two leaves under one split never agree (the grower
//! and the pruner merge them), so the second of two sibling leaves stores no class bit.
//!
//! # Pruning by description length
//!
//! An exact model pays for a leaf's errors as exceptions, about `c` bits each (a Rice-coded gap:
//! ⌈log2(gap)⌉ + 2 bits or so). [`prune`] replaces a subtree by a leaf of its majority class
//! wherever `2 + c · errors` bits of leaf and exceptions cost no more than the subtree's bits and
//! its own errors' exceptions, bottom up: the tree that minimises learner + exceptions for that
//! `c` (Rissanen's minimum description length, as Quinlan and Rivest 1989 prune trees).

use super::{InputSet, Learner, Model, Row, Samples, bits_for, value_range};
use crate::error::Result;

/// A node of a binary tree over the characteristics.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A class (0 draw, 1 win) or a quantised score.
    Leaf(i32),
    Split {
        col: u8,
        t: u8,
        left: Box<Node>,
        right: Box<Node>,
    },
}

/// A grown tree and its leaf width in bits.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    pub root: Node,
    pub leaf_bits: u64,
    pub inputs: InputSet,
    /// The deepest level grown (the root is level 0).
    pub depth: usize,
}

impl Tree {
    /// The leaf value for `x`.
    pub fn value(&self, x: &Row) -> i32 {
        let mut node = &self.root;
        loop {
            match node {
                Node::Leaf(v) => return *v,
                Node::Split { col, t, left, right } => {
                    let c = usize::from(*col);
                    let go_left = i16::from(x[c]) - i16::from(value_range(c).0) <= i16::from(*t);
                    node = if go_left { left } else { right };
                }
            }
        }
    }

    /// Encoded bits (module documentation).
    pub fn bits(&self) -> u64 {
        fn walk(n: &Node, col_bits: u64, leaf_bits: u64) -> u64 {
            match n {
                Node::Leaf(_) => 1 + leaf_bits,
                Node::Split { col, left, right, .. } => {
                    let t_bits = bits_for(value_range(usize::from(*col)).1 - 1);
                    // Sibling class leaves differ: the second one's class is implied.
                    let implied = u64::from(
                        leaf_bits == 1 && matches!((&**left, &**right), (Node::Leaf(_), Node::Leaf(_))),
                    );
                    1 + col_bits + t_bits + walk(left, col_bits, leaf_bits) + walk(right, col_bits, leaf_bits)
                        - implied
                }
            }
        }
        walk(&self.root, self.inputs.col_bits(), self.leaf_bits)
    }

    /// Leaves of the tree.
    pub fn leaves(&self) -> usize {
        fn walk(n: &Node) -> usize {
            match n {
                Node::Leaf(_) => 1,
                Node::Split { left, right, .. } => walk(left) + walk(right),
            }
        }
        walk(&self.root)
    }
}

/// How far to grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `None`: until no split gains.
    pub max_depth: Option<usize>,
    /// Positions each child must keep.
    pub min_leaf: usize,
}

/// What a grower sums per position and how it scores and labels a node: per position a pair
/// `(a, b)` (a win and 1 for CART; gradient and Hessian for boosting).
pub struct Criterion<'a> {
    pub score: &'a dyn Fn(f64, f64) -> f64,
    pub leaf: &'a dyn Fn(f64, f64) -> i32,
    pub leaf_bits: u64,
}

/// Grow a tree over `rows[idx]` with per-position sums `stats`.
pub fn grow(
    rows: &[Row],
    idx: Vec<usize>,
    stats: &[(f64, f64)],
    inputs: InputSet,
    limits: Limits,
    crit: &Criterion,
) -> Tree {
    let mut depth = 0;
    let root = grow_node(rows, idx, stats, inputs, limits, crit, 0, &mut depth);
    Tree { root, leaf_bits: crit.leaf_bits, inputs, depth }
}

#[allow(clippy::too_many_arguments)]
fn grow_node(
    rows: &[Row],
    idx: Vec<usize>,
    stats: &[(f64, f64)],
    inputs: InputSet,
    limits: Limits,
    crit: &Criterion,
    level: usize,
    depth: &mut usize,
) -> Node {
    *depth = (*depth).max(level);
    let (a, b) = idx.iter().fold((0.0, 0.0), |(a, b), &i| (a + stats[i].0, b + stats[i].1));
    let leaf = Node::Leaf((crit.leaf)(a, b));
    if limits.max_depth.is_some_and(|d| level >= d) || idx.len() < 2 * limits.min_leaf.max(1) {
        return leaf;
    }
    let Some((col, t)) = best_split(rows, &idx, stats, inputs, limits.min_leaf, crit, (a, b)) else {
        return leaf;
    };
    let (lo, _) = value_range(col);
    let (l, r): (Vec<usize>, Vec<usize>) =
        idx.into_iter().partition(|&i| (i16::from(rows[i][col]) - i16::from(lo)) as usize <= t);
    let left = grow_node(rows, l, stats, inputs, limits, crit, level + 1, depth);
    let right = grow_node(rows, r, stats, inputs, limits, crit, level + 1, depth);
    if let (Node::Leaf(x), Node::Leaf(y)) = (&left, &right)
        && x == y
    {
        // Two equal leaves say what one leaf says: keep the smaller tree.
        return Node::Leaf(*x);
    }
    Node::Split { col: col as u8, t: t as u8, left: Box::new(left), right: Box::new(right) }
}

/// The split of largest gain (above 1e-9), ties to the lowest column and threshold.
fn best_split(
    rows: &[Row],
    idx: &[usize],
    stats: &[(f64, f64)],
    inputs: InputSet,
    min_leaf: usize,
    crit: &Criterion,
    (a, b): (f64, f64),
) -> Option<(usize, usize)> {
    let parent = (crit.score)(a, b);
    let mut best: Option<(usize, usize, f64)> = None;
    for col in inputs.cols() {
        let (lo, size) = value_range(col);
        if size < 2 {
            continue;
        }
        let mut hist = [(0.0f64, 0.0f64, 0usize); 16];
        for &i in idx {
            let h = &mut hist[(rows[i][col] - lo) as usize];
            h.0 += stats[i].0;
            h.1 += stats[i].1;
            h.2 += 1;
        }
        let (mut la, mut lb, mut ln) = (0.0, 0.0, 0usize);
        for (t, h) in hist.iter().enumerate().take(size - 1) {
            la += h.0;
            lb += h.1;
            ln += h.2;
            if ln < min_leaf.max(1) || idx.len() - ln < min_leaf.max(1) {
                continue;
            }
            let gain = (crit.score)(la, lb) + (crit.score)(a - la, b - lb) - parent;
            if gain > 1e-9 && best.is_none_or(|(_, _, g)| gain > g + 1e-12) {
                best = Some((col, t, gain));
            }
        }
    }
    best.map(|(c, t, _)| (c, t))
}

/// The information-gain node score (C4.5's criterion, Quinlan 1993): `n` times the negated
/// entropy, `w ln w + (n − w) ln(n − w) − n ln n` for `w` wins of `n`.
fn entropy_score(w: f64, n: f64) -> f64 {
    let xlnx = |x: f64| if x > 0.0 { x * x.ln() } else { 0.0 };
    xlnx(w) + xlnx(n - w) - xlnx(n)
}

/// Gini's node score: `(w² + (n − w)²) / n` for `w` wins of `n`.
fn gini_score(w: f64, n: f64) -> f64 {
    if n <= 0.0 { 0.0 } else { (w * w + (n - w) * (n - w)) / n }
}

/// Prune a class tree by description length with `c` bits an error (module documentation).
pub fn prune(tree: Tree, data: &Samples, c: f64) -> Tree {
    let col_bits = tree.inputs.col_bits();
    let (root, _) = prune_node(tree.root, data, (0..data.len()).collect(), col_bits, c);
    Tree { root, ..tree }
}

fn prune_node(node: Node, data: &Samples, idx: Vec<usize>, col_bits: u64, c: f64) -> (Node, f64) {
    let wins = idx.iter().filter(|&&i| data.wins[i]).count();
    let majority = i32::from(2 * wins > idx.len());
    let leaf_cost = 2.0 + c * wins.min(idx.len() - wins) as f64;
    match node {
        Node::Leaf(v) => {
            let errors = if v == 1 { idx.len() - wins } else { wins };
            (Node::Leaf(v), 2.0 + c * errors as f64)
        }
        Node::Split { col, t, left, right } => {
            let c0 = usize::from(col);
            let lo = value_range(c0).0;
            let (l, r): (Vec<usize>, Vec<usize>) = idx
                .into_iter()
                .partition(|&i| (i16::from(data.rows[i][c0]) - i16::from(lo)) as usize <= usize::from(t));
            let (left, cl) = prune_node(*left, data, l, col_bits, c);
            let (right, cr) = prune_node(*right, data, r, col_bits, c);
            let split_cost = 1.0 + (col_bits + bits_for(value_range(c0).1 - 1)) as f64 + cl + cr;
            let same = matches!((&left, &right), (Node::Leaf(a), Node::Leaf(b)) if a == b);
            if leaf_cost <= split_cost || same {
                (Node::Leaf(majority), leaf_cost)
            } else {
                (Node::Split { col, t, left: Box::new(left), right: Box::new(right) }, split_cost)
            }
        }
    }
}

/// CART: grown by Gini's impurity, leaves by majority (ties to draw). The main setting grows until
/// no split gains and does not prune, so it fits its training set exactly; variants limit the
/// depth or prune by description length (the accuracy-vs-bytes frontier).
#[derive(Clone, Copy, Debug)]
pub struct Cart {
    pub limits: Limits,
    /// Prune with this many bits an exception ([`prune`]); `None`: no pruning.
    pub prune: Option<u32>,
    /// Grow by information gain (C4.5) instead of Gini's impurity (CART).
    pub entropy: bool,
}

impl Default for Cart {
    fn default() -> Cart {
        Cart { limits: Limits { max_depth: None, min_leaf: 1 }, prune: None, entropy: false }
    }
}

/// A fitted CART tree.
pub struct CartModel(pub Tree);

impl Model for CartModel {
    fn predict(&self, x: &Row) -> bool {
        self.0.value(x) == 1
    }
    fn model_bits(&self) -> u64 {
        self.0.bits()
    }
    fn passes(&self) -> u64 {
        self.0.depth as u64 + 1
    }
}

impl Learner for Cart {
    fn name(&self) -> &'static str {
        "tree"
    }
    fn variant(&self) -> String {
        let depth = self.limits.max_depth.map(|d| format!("depth {d}"));
        let prune = self.prune.map(|c| format!("pruned at {c} bits an exception"));
        let entropy = self.entropy.then(|| "information gain".to_string());
        [entropy, depth, prune].into_iter().flatten().collect::<Vec<_>>().join(", ")
    }
    fn fit(&self, data: &Samples, inputs: InputSet, _seed: u64) -> Result<Box<dyn Model>> {
        Ok(Box::new(CartModel(self.fit_tree(data, inputs))))
    }
}

impl Cart {
    /// Grow (and prune, if asked) the class tree of `data`.
    pub fn fit_tree(&self, data: &Samples, inputs: InputSet) -> Tree {
        let stats: Vec<(f64, f64)> = data.wins.iter().map(|&w| (f64::from(u8::from(w)), 1.0)).collect();
        let score: &dyn Fn(f64, f64) -> f64 = if self.entropy { &entropy_score } else { &gini_score };
        let crit = Criterion { score, leaf: &|w, n| i32::from(2.0 * w > n), leaf_bits: 1 };
        let tree = grow(&data.rows, (0..data.len()).collect(), &stats, inputs, self.limits, &crit);
        match self.prune {
            Some(c) => prune(tree, data, f64::from(c)),
            None => tree,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(x1: i8, x2: i8) -> Row {
        let mut r = [0i8; 32];
        r[0] = x1;
        r[1] = x2;
        for (c, v) in r.iter_mut().enumerate().skip(2) {
            *v = value_range(c).0;
        }
        r
    }

    #[test]
    fn a_full_tree_fits_its_training_set_and_counts_its_bits() {
        // Win iff x1 ≥ 5 and x2 ≤ 3: two splits, three leaves.
        let rows: Vec<Row> = (1..=8).flat_map(|a| (1..=8).map(move |b| row(a, b))).collect();
        let wins: Vec<bool> = rows.iter().map(|r| r[0] >= 5 && r[1] <= 3).collect();
        let data = Samples { rows: rows.clone(), wins: wins.clone(), dtc: vec![None; 64] };
        let model = Cart::default().fit(&data, InputSet::Coordinates, 0).unwrap();
        assert!(rows.iter().zip(&wins).all(|(r, &w)| model.predict(r) == w));
        // Two splits of 1 + 3 (column of 6) + 3 (threshold in 0..7) bits, three leaves of 2 bits
        // less the implied class of the second sibling leaf.
        assert_eq!(model.model_bits(), 2 * 7 + 3 * 2 - 1);
        // Pruning at a high price of exceptions keeps the tree; at a low price it leaves one leaf.
        let tree = grow_for_test(&data);
        assert_eq!(prune(tree.clone(), &data, 100.0), tree);
        let pruned = prune(tree, &data, 0.1);
        assert_eq!(pruned.leaves(), 1);
    }

    fn grow_for_test(data: &Samples) -> Tree {
        let stats: Vec<(f64, f64)> = data.wins.iter().map(|&w| (f64::from(u8::from(w)), 1.0)).collect();
        let crit = Criterion { score: &gini_score, leaf: &|w, n| i32::from(2.0 * w > n), leaf_bits: 1 };
        let limits = Limits { max_depth: None, min_leaf: 1 };
        grow(&data.rows, (0..data.len()).collect(), &stats, InputSet::Coordinates, limits, &crit)
    }
}

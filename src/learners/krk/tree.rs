//! A multi-class CART tree (Breiman et al., 1984) on KRK rows: each split a threshold on one
//! column (`x ≤ t` to the left), chosen by the Gini impurity, grown until a node is pure or
//! cannot be split (fewer than `min_split` rows, or every row alike in the columns read). Ties
//! between splits go to the lower column and threshold; a leaf answers its majority class, ties
//! to the lower class.

use super::features::COLUMNS;
use super::{Inputs, KrkLearner, KrkModel, KrkRow, N_CLASSES, majority};

/// The learner.
pub struct Cart {
    pub min_split: usize,
}

/// A node: a leaf's class, or a split with its children's places.
#[derive(Clone, Copy, Debug)]
enum Node {
    Leaf(u8),
    Split { col: u8, threshold: i8, left: u32, right: u32 },
}

/// A fitted tree, the root first.
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    fn class(&self, x: &KrkRow) -> u8 {
        let mut at = 0;
        loop {
            match self.nodes[at] {
                Node::Leaf(c) => return c,
                Node::Split { col, threshold, left, right } => {
                    at = if x[usize::from(col)] <= threshold { left } else { right } as usize;
                }
            }
        }
    }

    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }
}

impl KrkModel for Tree {
    fn predict_all(&self, rows: &[KrkRow]) -> Vec<u8> {
        rows.iter().map(|x| self.class(x)).collect()
    }
}

/// Σ count² / n of one side of a split (larger is purer).
fn purity(counts: &[u32; N_CLASSES], n: u32) -> f64 {
    counts.iter().map(|&c| f64::from(c) * f64::from(c)).sum::<f64>() / f64::from(n)
}

/// The best split of the rows `idx`: (column, threshold), or none when no threshold divides them.
fn best_split(rows: &[KrkRow], classes: &[u8], idx: &[u32], inputs: Inputs) -> Option<(usize, i8)> {
    let mut best: Option<(f64, usize, i8)> = None;
    let total = idx.len() as u32;
    for col in inputs.cols() {
        let bins = COLUMNS[col].1 as usize + 1;
        let mut hist = vec![[0u32; N_CLASSES]; bins];
        for &i in idx {
            hist[rows[i as usize][col] as usize][usize::from(classes[i as usize])] += 1;
        }
        let mut all = [0u32; N_CLASSES];
        hist.iter().for_each(|h| all.iter_mut().zip(h).for_each(|(a, b)| *a += b));
        let mut left = [0u32; N_CLASSES];
        let mut n_left = 0;
        for (t, h) in hist.iter().enumerate().take(bins - 1) {
            left.iter_mut().zip(h).for_each(|(a, b)| *a += b);
            n_left += h.iter().sum::<u32>();
            if n_left == 0 || n_left == total {
                continue;
            }
            let mut right = all;
            right.iter_mut().zip(&left).for_each(|(r, l)| *r -= l);
            let score = purity(&left, n_left) + purity(&right, total - n_left);
            if best.is_none_or(|b| score > b.0 + 1e-9) {
                best = Some((score, col, t as i8));
            }
        }
    }
    best.map(|(_, col, t)| (col, t))
}

impl KrkLearner for Cart {
    fn name(&self) -> &'static str {
        "tree"
    }

    fn fit(&self, rows: &[KrkRow], classes: &[u8], inputs: Inputs, _seed: u64) -> Box<dyn KrkModel> {
        let mut nodes = vec![Node::Leaf(0)];
        let mut stack: Vec<(usize, Vec<u32>)> = vec![(0, (0..rows.len() as u32).collect())];
        while let Some((at, idx)) = stack.pop() {
            let mut counts = [0u32; N_CLASSES];
            idx.iter().for_each(|&i| counts[usize::from(classes[i as usize])] += 1);
            let pure = counts.iter().filter(|&&c| c > 0).count() <= 1;
            let split = if pure || idx.len() < self.min_split {
                None
            } else {
                best_split(rows, classes, &idx, inputs)
            };
            let Some((col, threshold)) = split else {
                nodes[at] = Node::Leaf(majority(&counts));
                continue;
            };
            let (l, r): (Vec<u32>, Vec<u32>) = idx.iter().partition(|&&i| rows[i as usize][col] <= threshold);
            let (left, right) = (nodes.len(), nodes.len() + 1);
            nodes.extend([Node::Leaf(0), Node::Leaf(0)]);
            nodes[at] = Node::Split { col: col as u8, threshold, left: left as u32, right: right as u32 };
            stack.push((right, r));
            stack.push((left, l));
        }
        Box::new(Tree { nodes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grown_tree_answers_every_training_row_that_no_other_row_contradicts() {
        let rows: Vec<KrkRow> = (0..64)
            .map(|i| {
                let mut r = [0i8; super::super::N_COLS];
                r[0] = (i % 8) as i8;
                r[1] = (i / 8) as i8;
                r
            })
            .collect();
        let classes: Vec<u8> = (0..64).map(|i| ((i % 8) * 3 + (i / 8)) as u8 % 18).collect();
        let tree = Cart { min_split: 2 }.fit(&rows, &classes, Inputs::Squares, 0);
        assert_eq!(tree.predict_all(&rows), classes);
    }
}

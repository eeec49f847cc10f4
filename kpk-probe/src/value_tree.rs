//! The value tree of the DTZ model ([`crate::dtz`]) and of the KRK model ([`crate::krk`]): a
//! binary tree whose splits read one feature of a position against a threshold and whose leaves
//! hold a small value (the hybrid idea of Haworth & Velliste's section 5.1 applied to a depth).
//!
//! Both files write it the same way, in preorder: a leaf is a 0 bit and its value in the file's
//! leaf width; a split is a 1 bit, the feature's number and the threshold, in a width fixed by the
//! feature's range, then its left and right subtrees. What a model's features are, how many
//! thresholds each allows and how the format words its refusals is the model's [`FeatureSet`].

use crate::bits::BitReader;
use crate::model::FormatError;
use crate::tree::MAX_DEPTH;
use alloc::vec::Vec;
use core::marker::PhantomData;

/// The features a model's value tree reads, and the format's rules for a split on them.
pub trait FeatureSet {
    /// One position's features.
    type Values;
    /// Bits of a split's feature number.
    const INDEX_BITS: u32;
    /// The format's refusal of a split on a feature number that allows no threshold.
    const NO_THRESHOLD: &'static str;
    /// The format's refusal of a threshold beyond the feature's range.
    const THRESHOLD_OUT_OF_RANGE: &'static str;

    /// The thresholds `t = 0..n` a split on feature `x` may take (one fewer than the feature's
    /// values); 0 when no split may read `x`.
    fn thresholds(x: usize) -> u64;

    /// Feature `x` of `values` less the feature's least value: a split goes left when it is at
    /// most the threshold.
    fn level(values: &Self::Values, x: usize) -> i16;

    /// Bits of a split's threshold on feature `x`: enough for its largest threshold (0 bits when
    /// there is one).
    #[must_use]
    fn threshold_bits(x: usize) -> u32 {
        u64::BITS - Self::thresholds(x).saturating_sub(1).leading_zeros()
    }
}

/// A node of the value tree in preorder; a split's right subtree starts at `right`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Leaf(u8),
    /// Left when feature `x`, less its least value, is at most `t`.
    Split {
        x: u8,
        t: u8,
        right: u32,
    },
}

/// A correction: the position at `place` (0-based, in the model's order of the positions its tree
/// answers) holds its leaf's value plus `delta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Correction {
    pub place: u32,
    pub delta: i8,
}

/// A value tree over the features `F`, its leaves `leaf_bits` wide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueTree<F> {
    pub nodes: Vec<Node>,
    pub leaf_bits: u32,
    features: PhantomData<F>,
}

impl<F: FeatureSet> ValueTree<F> {
    /// The tree of `nodes` (preorder, as [`Node`] says), its leaves `leaf_bits` wide.
    #[must_use]
    pub fn new(nodes: Vec<Node>, leaf_bits: u32) -> ValueTree<F> {
        ValueTree { nodes, leaf_bits, features: PhantomData }
    }

    /// The leaf value for features `f`.
    #[must_use]
    pub fn value(&self, f: &F::Values) -> u8 {
        let mut i = 0;
        loop {
            match self.nodes[i] {
                Node::Leaf(v) => return v,
                Node::Split { x, t, right } => {
                    let left = F::level(f, usize::from(x)) <= i16::from(t);
                    i = if left { i + 1 } else { right as usize };
                }
            }
        }
    }

    /// The tree's bits in file order as `(value, n)` pairs, least significant bit first.
    pub fn write(&self, mut put: impl FnMut(u64, u32)) {
        for n in &self.nodes {
            match *n {
                Node::Leaf(v) => {
                    put(0, 1);
                    put(u64::from(v), self.leaf_bits);
                }
                Node::Split { x, t, .. } => {
                    put(1, 1);
                    put(u64::from(x), F::INDEX_BITS);
                    put(u64::from(t), F::threshold_bits(usize::from(x)));
                }
            }
        }
    }

    /// Decode a tree in preorder; refuses what the format refuses.
    pub fn read(r: &mut BitReader, leaf_bits: u32) -> Result<ValueTree<F>, FormatError> {
        let mut nodes = Vec::new();
        read_node::<F>(r, leaf_bits, 0, &mut nodes)?;
        Ok(ValueTree::new(nodes, leaf_bits))
    }
}

fn read_node<F: FeatureSet>(
    r: &mut BitReader,
    leaf_bits: u32,
    depth: usize,
    nodes: &mut Vec<Node>,
) -> Result<(), FormatError> {
    if depth > MAX_DEPTH {
        return Err(FormatError::Invalid("the value tree is deeper than 64 levels"));
    }
    if !r.bit()? {
        nodes.push(Node::Leaf(r.bits(leaf_bits)? as u8));
        return Ok(());
    }
    let x = r.bits(F::INDEX_BITS)? as usize;
    let thresholds = F::thresholds(x);
    if thresholds == 0 {
        return Err(FormatError::Invalid(F::NO_THRESHOLD));
    }
    let t = r.bits(F::threshold_bits(x))?;
    if t >= thresholds {
        return Err(FormatError::Invalid(F::THRESHOLD_OUT_OF_RANGE));
    }
    let at = nodes.len();
    nodes.push(Node::Split { x: x as u8, t: t as u8, right: 0 });
    read_node::<F>(r, leaf_bits, depth + 1, nodes)?;
    let right = nodes.len() as u32;
    nodes[at] = Node::Split { x: x as u8, t: t as u8, right };
    read_node::<F>(r, leaf_bits, depth + 1, nodes)
}

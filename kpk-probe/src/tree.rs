//! The decision tree of a format-version-3 file: a binary tree over Table 4's characteristics
//! (rule induction, Haworth & Velliste section 7) that answers the positions with the pawn side
//! to move. The kpk crate's `src/hybrid/format.md` specifies the layout; this module reads it,
//! writes it (for the kpk crate's writer) and walks it.
//!
//! A split sends a position to its left subtree when `x ≤ lo + t`, to its right one otherwise,
//! where `lo` and `size` are the characteristic's legal range ([`RANGES`]) and `t` lies in
//! `0..size − 1`. A leaf is a class: win or draw. Two sibling leaves never agree (one leaf would
//! say the same), so the format stores the second one's class as implied.

use crate::bits::{BitError, BitReader};
use crate::table4::N_FEATURES;
use alloc::vec::Vec;

/// Why a tree's nodes or bits were refused; a model file reports it as its
/// [`FormatError`](crate::model::FormatError).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeError {
    /// The nodes break one of the rules of format version 3 (named).
    Invalid(&'static str),
    /// The bit stream ended early or held a value too large.
    Stream(BitError),
}

impl core::fmt::Display for TreeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            TreeError::Invalid(what) => f.write_str(what),
            TreeError::Stream(e) => write!(f, "bit stream: {e}"),
        }
    }
}

impl From<BitError> for TreeError {
    fn from(e: BitError) -> TreeError {
        TreeError::Stream(e)
    }
}

/// The deepest level a node may stand at (the root is level 0).
pub const MAX_DEPTH: usize = 64;

/// Bits naming a split's characteristic (`x − 1`, 0..32).
pub const X_BITS: u32 = 5;

/// Each characteristic's legal range `(lo, hi)` over the 165,676 legal positions (canonical
/// orientation, both sides to move): x1..x32 at indices 0..32. Part of format version 3: a split's
/// threshold is stored relative to `lo`, in [`threshold_bits`] bits. (kpk's `paper::features`
/// measures the same ranges; a kpk test checks the two agree.)
#[rustfmt::skip]
pub const RANGES: [(i8, i8); N_FEATURES] = [
    (1, 8), (1, 8), (1, 8), (1, 8), (1, 4), (2, 7),              // x1..x6
    (-7, 7), (-7, 7), (-3, 7), (-6, 6), (-3, 7), (-6, 6),        // x7..x12
    (0, 0), (1, 5),                                              // x13, x14
    (0, 7), (0, 7), (0, 1), (0, 7), (0, 6), (0, 1), (0, 7), (0, 6), (0, 1), // x15..x23
    (2, 7), (0, 1), (0, 1), (1, 7), (1, 7), (0, 7),              // x24..x29
    (-6, 6), (-5, 6), (0, 1),                                    // x30..x32
];

/// Bits of a split's threshold on column `x` (0-based): ⌈log2(size − 1)⌉ for the `size − 1`
/// thresholds `t = 0..size − 1` (0 bits when there is one threshold).
#[must_use]
pub fn threshold_bits(x: usize) -> u32 {
    let thresholds = (RANGES[x].1 - RANGES[x].0) as u32; // size − 1
    if thresholds <= 1 { 0 } else { u32::BITS - (thresholds - 1).leading_zeros() }
}

/// A node in preorder: a split's left subtree follows it at once, its right one starts at
/// `right`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// A class: `true` for a win.
    Leaf(bool),
    /// Left when `x[x] ≤ lo + t` (`x` 0-based: column `x` is Table 4's x(x+1)).
    Split { x: u8, t: u8, right: u32 },
}

/// A checked tree (see the module documentation), its nodes in preorder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    nodes: Vec<Node>,
    /// Bit `x` set when some split reads column `x`.
    reads: u64,
}

impl Tree {
    /// Check `nodes` (preorder, as [`Tree::nodes`] gives them): every split's characteristic
    /// among x1..x32 with more than one legal value and in `mask`, its threshold in range, its
    /// right subtree where its left one ends, no two sibling leaves alike, no node deeper than
    /// [`MAX_DEPTH`], and nothing after the root's subtree.
    pub fn new(nodes: Vec<Node>, mask: u64) -> Result<Tree, TreeError> {
        let mut reads = 0u64;
        let end = check_subtree(&nodes, 0, 0, mask, &mut reads)?;
        if end != nodes.len() {
            return Err(TreeError::Invalid("the tree's nodes do not form one tree"));
        }
        Ok(Tree { nodes, reads })
    }

    /// The nodes in preorder.
    #[must_use]
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Bit `x` set when some split reads column `x` (Table 4's x(x+1)).
    #[must_use]
    pub fn reads(&self) -> u64 {
        self.reads
    }

    /// The tree's class for characteristics `f` (x1..x32 at 0..32): `true` for a win.
    #[inline]
    #[must_use]
    pub fn answer(&self, f: &[i8; N_FEATURES]) -> bool {
        let mut i = 0;
        loop {
            match self.nodes[i] {
                Node::Leaf(win) => return win,
                Node::Split { x, t, right } => {
                    let x = usize::from(x);
                    let left = i16::from(f[x]) - i16::from(RANGES[x].0) <= i16::from(t);
                    i = if left { i + 1 } else { right as usize };
                }
            }
        }
    }

    /// Decode a tree from the bit stream (format version 3); its splits may read only the
    /// characteristics in `mask`.
    pub fn read(r: &mut BitReader, mask: u64) -> Result<Tree, TreeError> {
        let mut nodes = Vec::new();
        read_subtree(r, 0, None, &mut nodes)?;
        Tree::new(nodes, mask)
    }

    /// The tree's bits in file order, as `(value, n)` pairs: `n` bits of `value`, least
    /// significant first (format version 3's layout; [`Tree::read`] is its inverse).
    pub fn write(&self, mut put: impl FnMut(u64, u32)) {
        // Whether the node at each index is the second of two sibling leaves.
        let mut implied = alloc::vec![false; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            if let Node::Split { right, .. } = *n {
                let r = right as usize;
                implied[r] =
                    matches!(self.nodes[i + 1], Node::Leaf(_)) && matches!(self.nodes[r], Node::Leaf(_));
            }
        }
        for (i, n) in self.nodes.iter().enumerate() {
            match *n {
                Node::Leaf(win) if implied[i] => put(u64::from(win) << 1, 1),
                Node::Leaf(win) => put(u64::from(win) << 1, 2),
                Node::Split { x, t, .. } => {
                    put(1, 1);
                    put(u64::from(x), X_BITS);
                    put(u64::from(t), threshold_bits(usize::from(x)));
                }
            }
        }
    }

    /// Bits [`Tree::write`] writes.
    #[must_use]
    pub fn bits(&self) -> u64 {
        let mut n = 0;
        self.write(|_, b| n += u64::from(b));
        n
    }
}

/// Check the subtree at `at` of depth `depth`; the index after it.
fn check_subtree(
    nodes: &[Node],
    at: usize,
    depth: usize,
    mask: u64,
    reads: &mut u64,
) -> Result<usize, TreeError> {
    if depth > MAX_DEPTH {
        return Err(TreeError::Invalid("the tree is deeper than 64 levels"));
    }
    match *nodes.get(at).ok_or(TreeError::Invalid("the tree's nodes do not form one tree"))? {
        Node::Leaf(_) => Ok(at + 1),
        Node::Split { x, t, right } => {
            let x = usize::from(x);
            if x >= N_FEATURES || mask >> x & 1 == 0 {
                return Err(TreeError::Invalid("a split reads a characteristic outside the input mask"));
            }
            let thresholds = (RANGES[x].1 - RANGES[x].0) as usize;
            if usize::from(t) >= thresholds {
                return Err(TreeError::Invalid("a split's threshold is out of its characteristic's range"));
            }
            *reads |= 1 << x;
            let mid = check_subtree(nodes, at + 1, depth + 1, mask, reads)?;
            if right as usize != mid {
                return Err(TreeError::Invalid("the tree's nodes do not form one tree"));
            }
            if let (Some(Node::Leaf(a)), Some(Node::Leaf(b))) = (nodes.get(at + 1), nodes.get(mid))
                && a == b
            {
                return Err(TreeError::Invalid("two sibling leaves of the tree agree"));
            }
            check_subtree(nodes, mid, depth + 1, mask, reads)
        }
    }
}

/// Read one subtree in preorder into `nodes`; `sibling` is the class of its left sibling when
/// that is a leaf (then a leaf here stores no class). Returns the class when the subtree is a leaf.
fn read_subtree(
    r: &mut BitReader,
    depth: usize,
    sibling: Option<bool>,
    nodes: &mut Vec<Node>,
) -> Result<Option<bool>, TreeError> {
    if depth > MAX_DEPTH {
        return Err(TreeError::Invalid("the tree is deeper than 64 levels"));
    }
    if !r.bit()? {
        let win = match sibling {
            Some(other) => !other,
            None => r.bit()?,
        };
        nodes.push(Node::Leaf(win));
        return Ok(Some(win));
    }
    let x = r.bits(X_BITS)? as usize; // < 32 by its width
    let t = r.bits(threshold_bits(x))?;
    let t = u8::try_from(t).map_err(|_| TreeError::Stream(BitError::TooLarge))?;
    let at = nodes.len();
    nodes.push(Node::Split { x: x as u8, t, right: 0 });
    let left = read_subtree(r, depth + 1, None, nodes)?;
    let right = u32::try_from(nodes.len()).map_err(|_| TreeError::Invalid("the tree is too large"))?;
    nodes[at] = Node::Split { x: x as u8, t, right };
    read_subtree(r, depth + 1, left, nodes)?;
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::BitReader;

    /// Win iff x1 ≥ 5 and x2 ≤ 3: x1 ≤ 4 → draw; else x2 ≤ 3 → win, else draw.
    fn small() -> Tree {
        let nodes = alloc::vec![
            Node::Split { x: 0, t: 3, right: 2 },
            Node::Leaf(false),
            Node::Split { x: 1, t: 2, right: 4 },
            Node::Leaf(true),
            Node::Leaf(false),
        ];
        Tree::new(nodes, 0b11).unwrap()
    }

    fn bytes_of(tree: &Tree) -> Vec<u8> {
        let mut out = Vec::new();
        let mut n = 0usize;
        tree.write(|v, b| {
            for i in 0..b {
                if n % 8 == 0 {
                    out.push(0);
                }
                *out.last_mut().unwrap() |= ((v >> i & 1) as u8) << (n % 8);
                n += 1;
            }
        });
        out
    }

    #[test]
    fn a_tree_round_trips_through_its_bits() {
        let tree = small();
        // Two splits of 1 + 5 + 3 bits, a leaf of 2 bits, then two sibling leaves of 2 and 1.
        assert_eq!(tree.bits(), 2 * 9 + 2 + 2 + 1);
        let bytes = bytes_of(&tree);
        let mut r = BitReader::new(&bytes);
        assert_eq!(Tree::read(&mut r, 0b11).unwrap(), tree);
        assert!(r.at_padded_end());
        let mut f = [0i8; N_FEATURES];
        for (a, b) in [(1, 1), (5, 3), (5, 4), (8, 1)] {
            f[0] = a;
            f[1] = b;
            assert_eq!(tree.answer(&f), a >= 5 && b <= 3, "{a} {b}");
        }
    }

    #[test]
    fn malformed_trees_are_refused() {
        let split = |x, t, right| Node::Split { x, t, right };
        let bad: [(Vec<Node>, u64); 6] = [
            (alloc::vec![split(0, 3, 2), Node::Leaf(true), Node::Leaf(true)], 1), // siblings agree
            (alloc::vec![split(1, 3, 2), Node::Leaf(true), Node::Leaf(false)], 1), // x2 not in mask
            (alloc::vec![split(0, 7, 2), Node::Leaf(true), Node::Leaf(false)], 1), // t beyond size − 1
            (alloc::vec![split(12, 0, 2), Node::Leaf(true), Node::Leaf(false)], 1 << 12), // x13: one value
            (alloc::vec![split(0, 3, 3), Node::Leaf(true), Node::Leaf(false)], 1), // right is wrong
            (alloc::vec![Node::Leaf(true), Node::Leaf(false)], 1),                // two trees
        ];
        for (nodes, mask) in bad {
            assert!(Tree::new(nodes.clone(), mask).is_err(), "{nodes:?}");
        }
        // 65 levels of splits: too deep.
        let mut deep = Vec::new();
        for i in 0..65u32 {
            deep.push(split(0, 0, 2 * i + 2));
            deep.push(Node::Leaf(i % 2 == 0));
        }
        deep.pop();
        deep.push(Node::Leaf(true));
        deep.push(Node::Leaf(false));
        assert!(Tree::new(deep, 1).is_err());
    }

    #[test]
    fn every_cut_of_a_tree_is_an_error() {
        let bytes = bytes_of(&small());
        for cut in 0..bytes.len() {
            let mut r = BitReader::new(&bytes[..cut]);
            assert!(Tree::read(&mut r, 0b11).is_err(), "cut at {cut}");
        }
    }
}

//! The shipped model: the smallest exact model of the decision trees (rule induction, section 7),
//! written as a format-version-3 file (src/hybrid/format.md) by `kpk learners --ship`.
//!
//! The comparison ([`super::analyse`]) counts each learner's exact model; the trees pruned by
//! description length ([`tree::prune`]) give the smallest. Here those trees are grown on every
//! position with the pawn side to move (T3, all 32 characteristics) by Gini's impurity and by
//! information gain, pruned at each price of an exception in [`PRUNE_BITS`], and each is written
//! as a file with its exceptions; the smallest file wins, ties to the earlier setting. Every
//! step is deterministic, so the same commit writes the same bytes.

use super::exact::Domain;
use super::tree::{self, Cart, Node};
use super::{InputSet, Learner};
use crate::chess::bitbase::Bitbase;
use crate::error::{Error, Result};
use crate::hybrid::{Hybrid, exceptions::ExceptionSet};
use kpk_probe::tree::{Node as FileNode, Tree as FileTree};

/// The prices of an exception, in bits, at which the trees are pruned.
pub const PRUNE_BITS: std::ops::RangeInclusive<u32> = 4..=24;

/// One tree's exact model.
pub struct Candidate {
    /// The tree's setting, as the comparison names it (`information gain, pruned at 12 bits …`).
    pub setting: String,
    pub hybrid: Hybrid,
    /// The tree's bits in the file.
    pub tree_bits: u64,
    /// Bytes of the version-3 file.
    pub bytes: usize,
}

/// The tree of `model` in the file's preorder.
pub fn file_tree(model: &tree::Tree) -> Result<FileTree> {
    fn walk(n: &Node, out: &mut Vec<FileNode>) -> Result<()> {
        match n {
            Node::Leaf(v) => out.push(FileNode::Leaf(*v == 1)),
            Node::Split { col, t, left, right } => {
                let at = out.len();
                out.push(FileNode::Split { x: *col, t: *t, right: 0 });
                walk(left, out)?;
                let right_at =
                    u32::try_from(out.len()).map_err(|_| Error::Internal("a tree of 2^32 nodes".into()))?;
                out[at] = FileNode::Split { x: *col, t: *t, right: right_at };
                walk(right, out)?;
            }
        }
        Ok(())
    }
    let mut nodes = Vec::new();
    walk(&model.root, &mut nodes)?;
    FileTree::new(nodes, mask(model.inputs)).map_err(|e| Error::Model(e.to_string()))
}

/// The input mask of a tree fed `inputs`: bit `x − 1` for each characteristic it may read.
fn mask(inputs: InputSet) -> u64 {
    inputs.cols().fold(0, |m, c| m | 1 << c)
}

/// The exact model of a class tree: the tree, and as exceptions every position with the pawn
/// side to move it answers wrongly.
pub fn exact_tree(model: &tree::Tree, d: &Domain) -> Result<Hybrid> {
    let wrong: Vec<u32> = d
        .wtm
        .rows
        .iter()
        .zip(&d.wtm.wins)
        .zip(&d.wtm_index)
        .filter(|((x, win), _)| (model.value(x) == 1) != **win)
        .map(|(_, &i)| i)
        .collect();
    let exceptions = ExceptionSet::new(wrong)
        .ok_or_else(|| Error::Internal("an exception index is out of range".into()))?;
    Hybrid::tree(mask(model.inputs), file_tree(model)?, exceptions)
}

/// Every tree setting's exact model, smallest first (ties in setting order).
pub fn candidates(d: &Domain) -> Result<Vec<Candidate>> {
    let mut out = Vec::new();
    for entropy in [false, true] {
        for c in PRUNE_BITS {
            let learner = Cart { prune: Some(c), entropy, ..Cart::default() };
            let fitted = learner.fit_tree(&d.wtm, InputSet::All);
            let hybrid = exact_tree(&fitted, d)?;
            let bytes = hybrid.sizes().total;
            let tree_bits = file_tree(&fitted)?.bits();
            out.push(Candidate { setting: learner.variant(), hybrid, tree_bits, bytes });
        }
    }
    out.sort_by_key(|c| c.bytes); // stable: ties keep the setting order
    Ok(out)
}

/// The model to ship: the smallest candidate, checked on every legal position against `bb` after
/// a round trip through its bytes. Returns it, its bytes and every candidate (smallest first).
pub fn ship(bb: &Bitbase) -> Result<(Vec<u8>, Vec<Candidate>)> {
    let d = Domain::new(bb);
    let all = candidates(&d)?;
    let best = all.first().ok_or_else(|| Error::Internal("no tree setting".into()))?;
    let bytes = best.hybrid.to_bytes();
    let back = Hybrid::from_bytes(&bytes, "the shipped model")?;
    if back != best.hybrid || !back.disagreements(bb).is_empty() {
        return Err(Error::Internal("the smallest tree model does not read back exact".into()));
    }
    Ok((bytes, all))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_formats_ranges_are_table_4s_legal_ranges() {
        for (c, r) in kpk_probe::tree::RANGES.iter().enumerate() {
            assert_eq!(*r, crate::paper::features::FEATURES[c].range, "x{}", c + 1);
        }
    }

    #[test]
    fn a_pruned_tree_with_its_exceptions_is_exact_and_its_file_has_the_counted_size() {
        let bb = Bitbase::generate();
        let d = Domain::new(&bb);
        let learner = Cart { prune: Some(12), entropy: true, ..Cart::default() };
        let fitted = learner.fit_tree(&d.wtm, InputSet::All);
        let h = exact_tree(&fitted, &d).unwrap();
        assert!(h.disagreements(&bb).is_empty());
        // The file is the size the comparison counts: 23 fixed bytes, then the tree's and the
        // exceptions' bits in one stream.
        let (_, exception_bits) = h.exceptions().best_parameter();
        let counted = 23 + (fitted.bits() + exception_bits).div_ceil(8);
        assert_eq!(h.to_bytes().len() as u64, counted);
        assert_eq!(file_tree(&fitted).unwrap().bits(), fitted.bits());
    }
}

use super::*;
use crate::bits::crc32;
use crate::model::{Learner, Model};
use crate::tree::Node;
use alloc::vec::Vec;

const FILE: &[u8] = include_bytes!("../../../models/kpk.hybrid");

fn workspace(bytes: &[u8]) -> Vec<u32> {
    alloc::vec![0u32; workspace_words(bytes)]
}

/// Levels of splits of the subtree at `at`.
fn levels(nodes: &[Node], at: usize) -> usize {
    match nodes[at] {
        Node::Leaf(_) => 0,
        Node::Split { right, .. } => 1 + levels(nodes, at + 1).max(levels(nodes, right as usize)),
    }
}

#[test]
fn the_lazy_path_answers_every_index_as_the_expanded_one() {
    let model = Model::from_bytes(FILE).unwrap();
    let Learner::Tree(tree) = model.learner() else { panic!("the shipped model is a tree") };
    let mut work = workspace(FILE);
    let lazy = Lazy::load(FILE, &mut work).unwrap();
    assert_eq!(lazy.exceptions(), model.exceptions());
    assert!(levels(tree.nodes(), 0) > JUMP_LEVELS as usize, "the tree is deeper than the table: walks skip");
    for p in Position::all() {
        let f = characteristics(p.coordinates(), true);
        assert_eq!(lazy.walk(&f), tree.answer(&f), "index {}", p.index());
        assert_eq!(lazy.probe(&p), model.probe(&p), "index {}", p.index());
    }
}

#[test]
fn skipping_a_subtree_lands_where_its_right_sibling_starts() {
    // Every split's right subtree, found by skipping its left one, is the table's entry where
    // the table has one.
    let mut work = workspace(FILE);
    let lazy = Lazy::load(FILE, &mut work).unwrap();
    for (h, &jump) in lazy.work[..JUMPS].iter().enumerate().skip(1) {
        if jump == 0 {
            continue;
        }
        let mut at = 0;
        for level in (0..h.ilog2()).rev() {
            let left = lazy.split(at).2;
            at = if h >> level & 1 == 0 {
                left
            } else if lazy.peek(left, 1) == 0 {
                left + 2
            } else {
                lazy.skip(left)
            };
        }
        let left = lazy.split(at).2;
        let right = if lazy.peek(left, 1) == 0 { left + 2 } else { lazy.skip(left) };
        assert_eq!(right, jump as usize, "split {h}");
    }
}

#[test]
fn a_workspace_one_word_short_is_refused() {
    let words = workspace_words(FILE);
    assert!(words > 0);
    let mut short = alloc::vec![0u32; words - 1];
    assert_eq!(
        Lazy::load(FILE, &mut short),
        Err(FormatError::Invalid("the workspace is too small for the model"))
    );
    let mut exact = alloc::vec![0u32; words];
    assert!(Lazy::load(FILE, &mut exact).is_ok());
}

#[test]
fn every_cut_is_refused() {
    let mut work = workspace(FILE);
    for cut in 0..FILE.len() {
        assert!(Lazy::load(&FILE[..cut], &mut work).is_err(), "cut at {cut}");
    }
}

/// Every fifth bit of the file after its length (every bit position of a byte in turn) flipped and
/// the checksum made right again: the lazy reader accepts exactly the files the full reader
/// accepts, and answers as it does (on every 61st index).
#[test]
fn every_flipped_bit_is_refused_or_answered_as_the_full_reader_does() {
    let (mut bytes, body) = (FILE.to_vec(), FILE.len() - CRC_LEN);
    let mut work = alloc::vec![0u32; 1 << 16];
    let mut accepted = 0;
    for bit in (9 * 8..body * 8).step_by(5) {
        bytes[bit / 8] ^= 1 << (bit % 8);
        let crc = crc32(&bytes[..body]).to_le_bytes();
        bytes[body..].copy_from_slice(&crc);
        let (lazy, full) = (Lazy::load(&bytes, &mut work), Model::from_bytes(&bytes));
        assert_eq!(lazy.is_ok(), full.is_ok(), "bit {bit}: {lazy:?} {full:?}");
        if let (Ok(lazy), Ok(full)) = (lazy, full) {
            accepted += 1;
            for p in (0..MAX_INDEX as u32).step_by(61).filter_map(Position::from_index) {
                assert_eq!(lazy.probe(&p), full.probe(&p), "bit {bit}, index {}", p.index());
            }
        }
        bytes[bit / 8] ^= 1 << (bit % 8);
    }
    assert!(accepted > 0, "some flips leave a valid file (a threshold or a class changed)");
}

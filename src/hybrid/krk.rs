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
use crate::hybrid::value_tree::{self, Candidate, Row};
use kpk_probe::Square;
use kpk_probe::krk::{
    Correction, KRK_MAGIC, KRK_VERSION, KrkFeatures, KrkModel, ValueTree, features, stored_positions,
};
use rayon::prelude::*;

/// Where `kpk compress-krk` writes the model and `kpk query --dtm` reads it by default.
pub const DEFAULT_KRK_MODEL: &str = "models/krk.hybrid";
/// The committed [`DEFAULT_KRK_MODEL`], compiled into kpk: the KRK model read when no file is given.
pub const DEFAULT_KRK_MODEL_BYTES: &[u8] = include_bytes!("../../models/krk.hybrid");

/// White's DTM in moves of a White-to-move position's table entry (0 a draw).
fn white_moves(d: Dtm) -> u8 {
    if d.wdl == 1 { d.plies.div_ceil(2) as u8 } else { 0 }
}

/// The stored positions as training rows, in the file's order, labelled from the table.
fn rows(tables: &Tables) -> Vec<Row<KrkFeatures>> {
    let sq = |s: u8| Square::new(s).expect("a square");
    stored_positions()
        .into_iter()
        .map(|[wk, wr, bk]| {
            let d = tables.pawnless_dtm(Piece::Rook, true, [sq(wr), sq(wk), sq(bk)]);
            Row { x: features(wk, wr, bk), v: white_moves(d) }
        })
        .collect()
}

/// Fit and encode the KRK model for each correction cost in `costs`; every candidate decoded
/// and checked on every legal position.
pub fn frontier(tables: &Tables, costs: &[f64]) -> Vec<Candidate> {
    let rows = rows(tables);
    // The format refuses leaves 0 bits wide.
    value_tree::frontier(&rows, 1, costs, encode, |bytes| {
        KrkModel::from_bytes(bytes).map_or(usize::MAX, |m| disagreements(&m, tables))
    })
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
    let mut header = KRK_MAGIC.to_vec();
    header.push(KRK_VERSION);
    header.extend_from_slice(&[0; 4]); // the length, filled in by write_model
    value_tree::write_model(&header, tree, corrections)
}

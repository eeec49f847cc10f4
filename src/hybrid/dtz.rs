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
use crate::hybrid::value_tree::{self, Candidate, Row};
use kpk_probe::dtz::{
    Characteristics, Correction, DTZ_MAGIC, DTZ_VERSION, DtzModel, ValueTree, hard_positions,
};
use kpk_probe::table4::characteristics;
use kpk_probe::{Model, Position};

/// Where `kpk compress-dtz` writes the model and `kpk query --dtz` reads it by default.
pub const DEFAULT_DTZ_MODEL: &str = "models/kpk-dtz.hybrid";
/// The committed [`DEFAULT_DTZ_MODEL`], compiled into kpk: the DTZ model read when no file is given.
pub const DEFAULT_DTZ_MODEL_BYTES: &[u8] = include_bytes!("../../models/kpk-dtz.hybrid");

/// The hard positions of `wdl` as training rows, labelled from the bitbase. `None` if some hard
/// position does not have DTZ of at least 3 (the rule for DTZ 1 would then be wrong).
fn rows(wdl: &Model, bb: &Bitbase) -> Option<Vec<Row<Characteristics>>> {
    hard_positions(wdl)
        .into_iter()
        .map(|i| {
            let z = bb.dtz_at(KpkIndex::new(i)?);
            let p = Position::from_index(i)?;
            (z >= 3).then(|| Row { x: characteristics(p.coordinates(), true), v: ((z - 3) / 2) as u8 })
        })
        .collect()
}

/// Fit and encode the DTZ model over the exact win/draw model file `embedded` for each correction
/// cost in `costs`; every candidate decoded and checked on every legal position. `None` when
/// `embedded` is no exact model, or its hard positions break the DTZ-1 rule.
pub fn frontier(embedded: &[u8], bb: &Bitbase, costs: &[f64]) -> Option<Vec<Candidate>> {
    let wdl = Model::from_bytes(embedded).ok()?;
    let rows = rows(&wdl, bb)?;
    let encode = |tree: &ValueTree, corrections: &[Correction]| encode(embedded, tree, corrections);
    Some(value_tree::frontier(&rows, 0, costs, encode, |bytes| {
        DtzModel::from_bytes(bytes).map_or(usize::MAX, |m| disagreements(&m, bb))
    }))
}

/// Legal positions where `m`'s DTZ is not the bitbase's.
pub fn disagreements(m: &DtzModel, bb: &Bitbase) -> usize {
    Position::all()
        .filter(|p| i32::from(m.dtz(p)) != i32::from(bb.dtz_at(KpkIndex::new(p.index()).expect("legal"))))
        .count()
}

/// The file's bytes (`format.md`, "The DTZ model"), the tree's bits and the corrections' bits.
pub fn encode(embedded: &[u8], tree: &ValueTree, corrections: &[Correction]) -> (Vec<u8>, u64, u64) {
    let mut header = Vec::with_capacity(embedded.len() + 11);
    header.extend_from_slice(DTZ_MAGIC);
    header.push(DTZ_VERSION);
    header.extend_from_slice(&[0; 4]); // the length, filled in by write_model
    header.extend_from_slice(&(embedded.len() as u16).to_le_bytes());
    header.extend_from_slice(embedded);
    value_tree::write_model(&header, tree, corrections)
}

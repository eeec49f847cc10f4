//! The exact model a learner yields, and its size: the learner's answers for the positions with
//! the pawn side to move, the Rice-coded table of those it gets wrong (section 5.1's exceptions,
//! coded as [`crate::hybrid::exceptions`] codes them), and the one-ply rule of format version 2
//! for the lone king's moves (src/hybrid/format.md), which costs no bytes.
//!
//! The size is **counted, not written**: no model file is produced for a learner other than the
//! MLP hybrid. It is the bytes a file of the same envelope as `models/kpk.hybrid` would take,
//! [`ENVELOPE_BYTES`] of fixed fields (magic 4, version 1, length 4, learner kind 1, input mask
//! 5, exception count 3, exception Rice parameter 1, CRC-32 4) plus the learner's bits and the
//! exceptions' bits, padded to a whole byte. The learner's bits are what its module's
//! "Encoding" section lays out.
//!
//! [`ExactModel::of`] also checks the model: every legal position's answer (the learner
//! corrected by its exceptions for the pawn side to move, the one-ply rule over those answers for
//! the lone king to move, in kpk-probe's code) against the bitbase.

use super::{Model, Samples};
use crate::chess::bitbase::Bitbase;
use crate::chess::index::KpkIndex;
use crate::chess::position::KpkPosition;
use crate::dataset::{Dataset, SetName};
use crate::error::{Error, Result};
use crate::hybrid::exceptions::ExceptionSet;
use crate::hybrid::inputs::probe_position;
use kpk_probe::{MAX_INDEX, Outcome};
use serde::{Deserialize, Serialize};

/// The fixed fields of a model file around the learner and its exceptions (module docs).
pub const ENVELOPE_BYTES: u64 = 23;

/// Every legal position, as the exact model answers it.
pub struct Domain {
    /// The positions with the pawn side to move, in index order.
    pub wtm: Samples,
    pub wtm_index: Vec<u32>,
    /// The positions with the lone king to move and whether each is a win.
    pub btm: Vec<(KpkPosition, bool)>,
}

impl Domain {
    pub fn new(bb: &Bitbase) -> Domain {
        let wtm_set = Dataset::of(SetName::Wtm, 0, bb);
        let wtm_index = wtm_set.positions.iter().map(|p| KpkIndex::of(p).value() as u32).collect();
        let btm_set = Dataset::of(SetName::Btm, 0, bb);
        let btm =
            btm_set.positions.iter().zip(&btm_set.outcomes).map(|(p, &o)| (*p, o == Outcome::Win)).collect();
        Domain { wtm: Samples::of(&wtm_set), wtm_index, btm }
    }
}

/// An exact model's parts and size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExactModel {
    /// Positions with the pawn side to move that the learner answers wrongly.
    pub exceptions: usize,
    pub exception_bits: u64,
    pub model_bits: u64,
    /// [`ENVELOPE_BYTES`] + ⌈(model bits + exception bits) / 8⌉.
    pub bytes: u64,
    /// Legal positions whose answer was checked against the bitbase (all 165,676 in canonical
    /// orientation) ...
    pub checked: usize,
    /// ... and how many of them were wrong (0 for an exact model).
    pub wrong: usize,
}

impl ExactModel {
    /// The exact model of `model`: its exceptions, size, and the check on every legal position.
    pub fn of(model: &dyn Model, d: &Domain) -> Result<ExactModel> {
        let mut answer = vec![false; MAX_INDEX / 2];
        let mut flipped = Vec::new();
        for ((x, &win), &i) in d.wtm.rows.iter().zip(&d.wtm.wins).zip(&d.wtm_index) {
            let said = model.predict(x);
            if said != win {
                flipped.push(i);
            }
            answer[i as usize] = said;
        }
        let table = ExceptionSet::new(flipped.clone())
            .ok_or_else(|| Error::Internal("an exception index is out of range".into()))?;
        for &i in &flipped {
            answer[i as usize] = !answer[i as usize];
        }
        let mut wrong =
            d.wtm.wins.iter().zip(&d.wtm_index).filter(|(w, i)| answer[**i as usize] != **w).count();
        for (p, win) in &d.btm {
            let (mut replies, mut all_win) = (0, true);
            let takes = probe_position(p).lone_king_replies(|q| {
                replies += 1;
                all_win &= answer[q.index() as usize];
            });
            if (!takes && replies > 0 && all_win) != *win {
                wrong += 1;
            }
        }
        let (_, exception_bits) = table.best_parameter();
        let model_bits = model.model_bits();
        Ok(ExactModel {
            exceptions: table.len(),
            exception_bits,
            model_bits,
            bytes: ENVELOPE_BYTES + (model_bits + exception_bits).div_ceil(8),
            checked: d.wtm.len() + d.btm.len(),
            wrong,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learners::Row;

    /// Always draw: every won position with the pawn side to move is an exception.
    struct Draw;
    impl Model for Draw {
        fn predict(&self, _: &Row) -> bool {
            false
        }
        fn model_bits(&self) -> u64 {
            0
        }
        fn passes(&self) -> u64 {
            0
        }
    }

    #[test]
    fn a_constant_learner_plus_its_exceptions_is_exact_on_every_position() {
        let bb = Bitbase::generate();
        let d = Domain::new(&bb);
        let e = ExactModel::of(&Draw, &d).unwrap();
        assert_eq!(e.checked, 165_676);
        assert_eq!(e.wrong, 0);
        assert_eq!(e.exceptions, d.wtm.wins.iter().filter(|&&w| w).count());
        assert_eq!(e.bytes, ENVELOPE_BYTES + e.exception_bits.div_ceil(8));
    }
}

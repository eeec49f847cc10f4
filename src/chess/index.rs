//! Position ⇄ dense index, and the bitbase's word layout over it.
//!
//! The numbering is the chess core's ([`kpk_probe::position`]):
//!
//! ```text
//! MAX_INDEX = 2 × 24 × 64 × 64 = 196,608
//! index     = ((side × 24 + pawn) × 64 + wk) × 64 + bk
//!   bit 17      side   0 = White to move, 1 = Black to move
//!   bits 12–16  pawn   0..24 = (rank − 2) × 4 + file, rank 2..7, file a..d = 0..3
//!   bits 6–11   wk     square of the pawn side's king, a1 = 0 … h8 = 63
//!   bits 0–5    bk     square of the lone king
//! ```
//! Every (side, pawn, wk) triple owns one 64-bit word whose bit `bk` is the black king's square:
//! the bitbase works on those 3,072 words in parallel over the black king (as pfkpk does).
//! A pawn push is `pawn + 4`; the rank-7 slots are 20..24.

use crate::chess::position::KpkPosition;
use kpk_probe::position::{MAX_INDEX, index_of, pawn_square, squares_of};
use kpk_probe::{Color, Square};

/// Number of 64-bit words, one per (side, pawn, wk).
pub const WORDS: usize = MAX_INDEX / 64;
/// Words for one side to move.
pub const SIDE_WORDS: usize = WORDS / 2;

/// Dense index of a (possibly illegal) KPK placement in canonical orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KpkIndex(u32);

/// The word number of a (side, pawn slot, white king) triple.
pub const fn word(side: Color, slot: usize, wk: Square) -> usize {
    index_of(wk, Square::ALL[0], pawn_square(slot), side) as usize / 64
}

impl KpkIndex {
    pub fn new(index: u32) -> Option<KpkIndex> {
        ((index as usize) < MAX_INDEX).then_some(KpkIndex(index))
    }

    pub fn of(p: &KpkPosition) -> KpkIndex {
        KpkIndex(p.core().index())
    }

    pub fn value(self) -> usize {
        self.0 as usize
    }

    /// All 196,608 indices in order.
    pub fn all() -> impl Iterator<Item = KpkIndex> {
        (0..MAX_INDEX as u32).map(KpkIndex)
    }

    pub fn side(self) -> Color {
        squares_of(self.0).3
    }

    /// The squares (wk, bk, wp) this index names.
    pub fn squares(self) -> (Square, Square, Square) {
        let (wk, bk, wp, _) = squares_of(self.0);
        (wk, bk, wp)
    }

    /// The legal position at this index, or `None` where the placement is illegal.
    pub fn position(self) -> Option<KpkPosition> {
        kpk_probe::Position::from_index(self.0).map(KpkPosition::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpk_probe::position::pawn_slot;

    #[test]
    fn index_round_trips_on_every_legal_position() {
        let mut legal = 0;
        for i in KpkIndex::all() {
            if let Some(p) = i.position() {
                assert_eq!(KpkIndex::of(&p), i);
                assert_eq!(word(p.side(), pawn_slot(p.wp()), p.wk()), i.value() / 64);
                legal += 1;
            }
        }
        assert_eq!(legal, 81_664 + 84_012);
    }
}

//! Position ⇄ dense index.
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

use crate::chess::board::{Color, Square};
use crate::chess::position::KpkPosition;

/// Number of indices: 2 sides × 24 pawn squares × 64 × 64 king squares.
pub const MAX_INDEX: usize = 2 * 24 * 64 * 64;
/// Number of 64-bit words, one per (side, pawn, wk).
pub const WORDS: usize = MAX_INDEX / 64;
/// Words for one side to move.
pub const SIDE_WORDS: usize = WORDS / 2;

/// Dense index of a (possibly illegal) KPK placement in canonical orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KpkIndex(u32);

/// The pawn slot `0..24` of a pawn square on files a–d, ranks 2–7.
pub const fn pawn_slot(wp: Square) -> usize {
    (wp.rank() as usize - 1) * 4 + wp.file() as usize
}

/// The pawn square of slot `0..24`.
pub const fn pawn_square(slot: usize) -> Square {
    match Square::new(((slot / 4 + 1) * 8 + slot % 4) as u8) {
        Some(sq) => sq,
        None => panic!("pawn slot out of range"),
    }
}

/// The word number of a (side, pawn slot, white king) triple.
pub const fn word(side: Color, slot: usize, wk: Square) -> usize {
    let s = match side {
        Color::White => 0,
        Color::Black => 1,
    };
    (s * 24 + slot) * 64 + wk.index()
}

impl KpkIndex {
    pub fn new(index: u32) -> Option<KpkIndex> {
        ((index as usize) < MAX_INDEX).then_some(KpkIndex(index))
    }

    pub fn of(p: &KpkPosition) -> KpkIndex {
        KpkIndex((word(p.side(), pawn_slot(p.wp()), p.wk()) * 64 + p.bk().index()) as u32)
    }

    pub fn value(self) -> usize {
        self.0 as usize
    }

    /// All 196,608 indices in order.
    pub fn all() -> impl Iterator<Item = KpkIndex> {
        (0..MAX_INDEX as u32).map(KpkIndex)
    }

    pub fn side(self) -> Color {
        if self.0 as usize >= MAX_INDEX / 2 { Color::Black } else { Color::White }
    }

    /// The squares (wk, bk, wp) this index names.
    pub fn squares(self) -> (Square, Square, Square) {
        let i = self.0 as usize;
        let bk = Square::ALL[i % 64];
        let wk = Square::ALL[(i / 64) % 64];
        let wp = pawn_square((i / 4096) % 24);
        (wk, bk, wp)
    }

    /// The legal position at this index, or `None` where the placement is illegal.
    pub fn position(self) -> Option<KpkPosition> {
        let (wk, bk, wp) = self.squares();
        KpkPosition::new(wk, bk, wp, self.side()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips_on_every_legal_position() {
        let mut legal = 0;
        for i in KpkIndex::all() {
            if let Some(p) = i.position() {
                assert_eq!(KpkIndex::of(&p), i);
                legal += 1;
            }
        }
        assert_eq!(legal, 81_664 + 84_012);
    }

    #[test]
    fn pawn_slots_cover_files_a_to_d_ranks_2_to_7() {
        for slot in 0..24 {
            let sq = pawn_square(slot);
            assert!(sq.file() < 4 && (1..=6).contains(&sq.rank()));
            assert_eq!(pawn_slot(sq), slot);
        }
    }
}

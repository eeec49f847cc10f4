//! The pawnless endgames a KPK promotion reaches: king and queen, rook, bishop or knight against
//! a lone king (KQK, KRK, KBK, KNK), solved for the distance to mate (DTM).
//!
//! # The index
//!
//! The strong side is normalised to White. With no pawn there is no orientation to fix, and the
//! tables are small enough to keep whole (no board symmetry folded in):
//!
//! ```text
//! INDICES = 2 × 64 × 64 × 64 = 524,288
//! index   = ((side × 64 + piece) × 64 + wk) × 64 + bk      side 0 = White (strong) to move
//! ```
//!
//! so placement `piece × 64 + wk` owns one word per side to move, as the solver wants
//! ([`crate::chess::endgame`]). A placement with the piece on the white king is illegal.
//!
//! # Legality and moves
//!
//! The piece's attacks are taken with the white king as the only blocker: the lone king never
//! shields a square from a slider it stands in line with (it is in check there, and a square
//! behind it stays attacked when it steps back along the ray). With White to move the lone king
//! is not in check, so it never stands in the way of the piece's moves either.

use crate::chess::board::{KING_ATTACKS, slider_attacks, squares};
use crate::chess::endgame::{Endgame, Exits, Masks, Solution, solve};
use kpk_probe::Square;

/// Indices of one pawnless table.
pub const INDICES: usize = 2 * 64 * 64 * 64;
/// Placements (words per side to move).
pub const PLACEMENTS: usize = 64 * 64;

/// The strong side's piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl Piece {
    pub const ALL: [Piece; 4] = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight];

    /// The endgame's name, as in "KQK".
    pub fn endgame(self) -> &'static str {
        match self {
            Piece::Queen => "KQK",
            Piece::Rook => "KRK",
            Piece::Bishop => "KBK",
            Piece::Knight => "KNK",
        }
    }

    /// The squares the piece on `from` attacks, rays stopped by `blockers`.
    pub fn attacks(self, from: Square, blockers: u64) -> u64 {
        match self {
            Piece::Queen => slider_attacks(from, blockers, true, true),
            Piece::Rook => slider_attacks(from, blockers, true, false),
            Piece::Bishop => slider_attacks(from, blockers, false, true),
            Piece::Knight => knight_attacks(from),
        }
    }
}

fn knight_attacks(from: Square) -> u64 {
    const JUMPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    JUMPS.iter().filter_map(|&(df, dr)| from.offset(df, dr)).fold(0, |b, s| b | s.bit())
}

/// The index of a placement (legal or not); `strong_to_move` is White's move.
pub fn index(strong_to_move: bool, piece: Square, wk: Square, bk: Square) -> usize {
    let side = usize::from(!strong_to_move);
    ((side * 64 + piece.index()) * 64 + wk.index()) * 64 + bk.index()
}

/// One pawnless endgame, with each placement's successors inside it listed once.
pub struct Pawnless {
    piece: Piece,
    /// `successors[starts[w]..starts[w + 1]]`: the placements White's moves from `w` reach.
    starts: Vec<u32>,
    successors: Vec<u16>,
}

impl Pawnless {
    pub fn new(piece: Piece) -> Pawnless {
        let mut starts = Vec::with_capacity(PLACEMENTS + 1);
        let mut successors = Vec::new();
        for p in Square::ALL {
            for wk in Square::ALL {
                starts.push(successors.len() as u32);
                if p == wk {
                    continue;
                }
                for wk2 in squares(KING_ATTACKS[wk.index()] & !p.bit()) {
                    successors.push((p.index() * 64 + wk2.index()) as u16);
                }
                for p2 in squares(piece.attacks(p, wk.bit()) & !wk.bit()) {
                    successors.push((p2.index() * 64 + wk.index()) as u16);
                }
            }
        }
        starts.push(successors.len() as u32);
        Pawnless { piece, starts, successors }
    }

    /// The table with DTM: mates at depth 0, no exits.
    pub fn solve(&self) -> Solution {
        solve(self, &self.masks(), &Exits::default())
    }
}

impl Endgame for Pawnless {
    const SIDE_WORDS: usize = PLACEMENTS;

    fn masks(&self) -> Masks {
        let mut legal = vec![0u64; 2 * PLACEMENTS];
        let mut safe = vec![0u64; PLACEMENTS];
        let mut checked = vec![0u64; PLACEMENTS];
        for p in Square::ALL {
            for wk in Square::ALL {
                if p == wk {
                    continue;
                }
                let w = p.index() * 64 + wk.index();
                let attacks = self.piece.attacks(p, wk.bit());
                let near = KING_ATTACKS[wk.index()] | wk.bit();
                legal[w] = !(near | p.bit() | attacks);
                legal[PLACEMENTS + w] = !(near | p.bit());
                safe[w] = !(near | attacks);
                checked[w] = attacks;
            }
        }
        Masks { legal, safe, checked }
    }

    #[inline]
    fn reach(&self, w: usize, lost: &[u64]) -> u64 {
        let range = self.starts[w] as usize..self.starts[w + 1] as usize;
        self.successors[range].iter().fold(0, |r, &s| r | lost[s as usize])
    }
}

//! The KRK characterisation (declared in `experiments/krk_learners.toml`): the six squares'
//! coordinates as the UCI file gives them, then sixteen characteristics from the KRK literature,
//! each a small non-negative integer computed from the three squares with Black to move.
//!
//! The characteristics are those the textbooks' method of mating with the rook reads: how far
//! the pieces stand apart, how near the black king is to the edge and the corner it is driven to,
//! the rook's cut-off lines and the box they confine the black king to, opposition of the kings,
//! whether the rook is hanging, and how many moves the black king has.

use super::{KrkRow, N_COLS};
use crate::chess::board::KING_ATTACKS;
use crate::chess::pawnless::Piece;
use kpk_probe::Square;

/// Each column's name and the largest value it takes (every column starts at 0): the declared
/// range that scales a column to [0, 1] and sizes naive Bayes' value counts.
pub const COLUMNS: [(&str, i8); N_COLS] = [
    ("wk_file", 7),
    ("wk_rank", 7),
    ("wr_file", 7),
    ("wr_rank", 7),
    ("bk_file", 7),
    ("bk_rank", 7),
    ("kings_distance", 7),
    ("wk_wr_distance", 7),
    ("wr_bk_distance", 7),
    ("kings_file_distance", 7),
    ("kings_rank_distance", 7),
    ("bk_edge", 3),
    ("bk_corner", 6),
    ("wk_edge", 3),
    ("rook_file_distance", 7),
    ("rook_rank_distance", 7),
    ("box", 64),
    ("check", 1),
    ("rook_hanging", 1),
    ("opposition", 1),
    ("rook_between", 1),
    ("bk_moves", 8),
];

/// Chebyshev (king-move) distance.
fn chebyshev(a: Square, b: Square) -> i8 {
    let (df, dr) = gaps(a, b);
    df.max(dr)
}

/// File and rank distances.
fn gaps(a: Square, b: Square) -> (i8, i8) {
    ((a.file() as i8 - b.file() as i8).abs(), (a.rank() as i8 - b.rank() as i8).abs())
}

/// Distance of a coordinate 0..8 to the nearer edge of its line.
fn to_edge(v: u8) -> i8 {
    v.min(7 - v) as i8
}

/// Lines the black king may use on its side of one of the rook's lines: all 8 when it stands on
/// the line, else those between the line and the board's edge.
fn side_of(line: u8, bk: u8) -> i8 {
    match bk.cmp(&line) {
        std::cmp::Ordering::Less => line as i8,
        std::cmp::Ordering::Greater => 7 - line as i8,
        std::cmp::Ordering::Equal => 8,
    }
}

/// Whether `v` lies strictly between `a` and `b`.
fn between(v: u8, a: u8, b: u8) -> bool {
    a.min(b) < v && v < a.max(b)
}

/// The black king's legal moves with Black to move: to a square not next to the white king and
/// not on the rook's lines (the white king stops them), or onto the rook when the white king does
/// not guard it.
fn bk_moves(wk: Square, wr: Square, bk: Square) -> i8 {
    let rook_lines = Piece::Rook.attacks(wr, wk.bit());
    let guarded = KING_ATTACKS[wk.index()];
    let mut moves = 0;
    let mut targets = KING_ATTACKS[bk.index()] & !wk.bit();
    while targets != 0 {
        let to = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        let bit = 1u64 << to;
        let safe = if bit == wr.bit() { guarded & bit == 0 } else { (guarded | rook_lines) & bit == 0 };
        moves += i8::from(safe);
    }
    moves
}

/// A position's row: the squares, then the characteristics in [`COLUMNS`]' order.
pub fn row(wk: Square, wr: Square, bk: Square) -> KrkRow {
    let (kf, kr) = gaps(wk, bk);
    let (rf, rr) = gaps(wr, bk);
    let corner = |s: Square| to_edge(s.file()) + to_edge(s.rank());
    let check = Piece::Rook.attacks(wr, wk.bit()) & bk.bit() != 0;
    let hanging = KING_ATTACKS[bk.index()] & wr.bit() != 0 && KING_ATTACKS[wk.index()] & wr.bit() == 0;
    let opposition = (kf == 0 || kr == 0) && kf.max(kr) == 2;
    let rook_between = between(wr.file(), wk.file(), bk.file()) || between(wr.rank(), wk.rank(), bk.rank());
    let squares = [wk, wr, bk].map(|s| [s.file() as i8, s.rank() as i8]);
    [
        squares[0][0],
        squares[0][1],
        squares[1][0],
        squares[1][1],
        squares[2][0],
        squares[2][1],
        chebyshev(wk, bk),
        chebyshev(wk, wr),
        chebyshev(wr, bk),
        kf,
        kr,
        to_edge(bk.file()).min(to_edge(bk.rank())),
        corner(bk),
        to_edge(wk.file()).min(to_edge(wk.rank())),
        rf,
        rr,
        side_of(wr.file(), bk.file()) * side_of(wr.rank(), bk.rank()),
        i8::from(check),
        i8::from(hanging),
        i8::from(opposition),
        i8::from(rook_between),
        bk_moves(wk, wr, bk),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::from_coords((b[0] - b'a') as i8, (b[1] - b'1') as i8).unwrap()
    }

    #[test]
    fn a_back_rank_mate_has_no_moves_and_a_box_of_the_rank() {
        // White Kb3 and Rh1 against Ka1: the rook checks along the first rank, the king guards a2, b2.
        let r = row(sq("b3"), sq("h1"), sq("a1"));
        assert_eq!(r[17], 1, "check");
        assert_eq!(r[21], 0, "no moves");
        // The rook's rank holds the king (all 8 ranks), its file leaves the 7 files before h.
        assert_eq!(r[16], 8 * 7);
        assert_eq!(r[12], 0, "in the corner");
    }

    #[test]
    fn every_column_stays_within_its_declared_range() {
        for wk in Square::ALL {
            for wr in Square::ALL {
                for bk in Square::ALL {
                    if wk == wr || wk == bk || wr == bk || KING_ATTACKS[wk.index()] & bk.bit() != 0 {
                        continue;
                    }
                    let r = row(wk, wr, bk);
                    for (c, (name, max)) in COLUMNS.iter().enumerate() {
                        assert!((0..=*max).contains(&r[c]), "{name} {} {wk}{wr}{bk}", r[c]);
                    }
                }
            }
        }
    }
}

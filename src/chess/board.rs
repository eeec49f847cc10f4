//! Bitboards and the king and pawn attack tables, over the squares and colours of the chess core
//! ([`kpk_probe::square`], re-exported here).
//!
//! Nothing here is specific to KPK. Squares are numbered as the board is laid out for White:
//! a1 = 0, b1 = 1, …, h1 = 7, a2 = 8, …, h8 = 63, so `file = sq % 8`, `rank = sq / 8` (both 0-based).

use kpk_probe::square::Square;

/// The eight king steps as (file, rank) offsets.
pub const KING_STEPS: [(i8, i8); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// Bitboard of the squares a king on each square attacks, built at compile time.
pub const KING_ATTACKS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut k = 0;
        while k < 8 {
            let (nf, nr) = (f + KING_STEPS[k].0, r + KING_STEPS[k].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1u64 << (nr * 8 + nf);
            }
            k += 1;
        }
        sq += 1;
    }
    table
};

/// Bitboard of the squares a *white* pawn on each square attacks (diagonally forward).
pub const WHITE_PAWN_ATTACKS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 56 {
        let f = sq % 8;
        if f > 0 {
            table[sq] |= 1u64 << (sq + 7);
        }
        if f < 7 {
            table[sq] |= 1u64 << (sq + 9);
        }
        sq += 1;
    }
    table
};

/// The squares a queen (`diagonal` and `orthogonal`) or rook (`orthogonal` only) on `from`
/// attacks, with rays stopped by the pieces in `blockers` (a blocker's square is attacked).
pub fn slider_attacks(from: Square, blockers: u64, orthogonal: bool, diagonal: bool) -> u64 {
    const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut attacks = 0;
    let dirs = ORTHO.iter().filter(|_| orthogonal).chain(DIAG.iter().filter(|_| diagonal));
    for &(df, dr) in dirs {
        let mut sq = from;
        while let Some(next) = sq.offset(df, dr) {
            attacks |= next.bit();
            if blockers & next.bit() != 0 {
                break;
            }
            sq = next;
        }
    }
    attacks
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares next to some square of `set` (a king step away).
#[inline(always)]
pub fn neighbours(set: u64) -> u64 {
    let sideways = ((set << 1) & !FILE_A) | ((set >> 1) & !FILE_H);
    let row = set | sideways;
    sideways | (row << 8) | (row >> 8)
}

/// Iterate over the squares of a bitboard, lowest first.
pub fn squares(mut bb: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            None
        } else {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            Some(Square::ALL[sq])
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_attack_counts_by_square_kind() {
        let a1: Square = "a1".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        let a4: Square = "a4".parse().unwrap();
        assert_eq!(KING_ATTACKS[a1.index()].count_ones(), 3);
        assert_eq!(KING_ATTACKS[a4.index()].count_ones(), 5);
        assert_eq!(KING_ATTACKS[e4.index()].count_ones(), 8);
        let total: u32 = KING_ATTACKS.iter().map(|b| b.count_ones()).sum();
        assert_eq!(total, 420); // 4·3 + 24·5 + 36·8
    }

    #[test]
    fn pawn_attacks_are_diagonal_forward() {
        let b2: Square = "b2".parse().unwrap();
        let a2: Square = "a2".parse().unwrap();
        let want = "a3".parse::<Square>().unwrap().bit() | "c3".parse::<Square>().unwrap().bit();
        assert_eq!(WHITE_PAWN_ATTACKS[b2.index()], want);
        assert_eq!(WHITE_PAWN_ATTACKS[a2.index()], "b3".parse::<Square>().unwrap().bit());
    }

    #[test]
    fn queen_rays_stop_at_blockers() {
        let a8: Square = "a8".parse().unwrap();
        let c6: Square = "c6".parse().unwrap();
        let att = slider_attacks(a8, c6.bit(), true, true);
        assert!(att & c6.bit() != 0);
        assert!(att & "d5".parse::<Square>().unwrap().bit() == 0);
        assert_eq!(slider_attacks(a8, 0, true, false).count_ones(), 14);
    }
}

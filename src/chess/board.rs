//! Squares, colours, bitboards and the king and pawn attack tables.
//!
//! Nothing here is specific to KPK. Squares are numbered as the board is laid out for White:
//! a1 = 0, b1 = 1, …, h1 = 7, a2 = 8, …, h8 = 63, so `file = sq % 8`, `rank = sq / 8` (both 0-based).

use std::fmt;

/// A square of the board, `0..64`, a1 = 0 and h8 = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// All 64 squares in index order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index; `None` outside `0..64`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 { Some(Square(index)) } else { None }
    }

    /// The square on 0-based `file` (a = 0) and `rank` (rank 1 = 0); `None` off the board.
    pub const fn from_coords(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// 0-based file: a = 0 … h = 7.
    pub const fn file(self) -> u8 {
        self.0 % 8
    }
    /// 0-based rank: rank 1 = 0 … rank 8 = 7.
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
    /// The square reflected in the line between the d- and e-files (a1 ⇄ h1).
    pub const fn mirror_file(self) -> Square {
        Square(self.0 ^ 7)
    }
    /// The square reflected in the line between ranks 4 and 5 (a1 ⇄ a8).
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }
    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::from_coords(self.file() as i8 + df, self.rank() as i8 + dr)
    }
    /// Chebyshev (king-move) distance.
    pub fn distance(self, other: Square) -> u8 {
        let df = (self.file() as i8 - other.file() as i8).unsigned_abs();
        let dr = (self.rank() as i8 - other.rank() as i8).unsigned_abs();
        df.max(dr)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

/// A square name that is not `a1` … `h8`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a square (a1 to h8)")]
pub struct BadSquare(pub String);

impl std::str::FromStr for Square {
    type Err = BadSquare;
    /// Parses `a1` … `h8`.
    fn from_str(s: &str) -> Result<Square, BadSquare> {
        match s.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square((r - b'1') * 8 + (f - b'a'))),
            _ => Err(BadSquare(s.to_string())),
        }
    }
}

/// The side: White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// `w` or `b`, as in FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

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

/// Iterate over the squares of a bitboard, lowest first.
pub fn squares(mut bb: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            None
        } else {
            let sq = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            Some(Square(sq))
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
    fn square_names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
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

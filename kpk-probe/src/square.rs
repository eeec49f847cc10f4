//! Squares and colours: the board's vocabulary.
//!
//! Squares are numbered as the board is laid out for White: a1 = 0, b1 = 1, …, h1 = 7, a2 = 8,
//! …, h8 = 63, so `file = sq % 8`, `rank = sq / 8` (both 0-based).

use alloc::string::{String, ToString};
use core::fmt;

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

    /// The square with this number; `None` outside `0..64`.
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 { Some(Square(index)) } else { None }
    }

    /// The square on 0-based `file` (a = 0) and `rank` (rank 1 = 0); `None` off the board.
    #[must_use]
    pub const fn from_coords(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// The square's number, `0..64`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The square's number as a byte, `0..64`.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0
    }
    /// 0-based file: a = 0 … h = 7.
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }
    /// 0-based rank: rank 1 = 0 … rank 8 = 7.
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }
    /// The square as a one-bit bitboard.
    #[must_use]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
    /// The square reflected in the line between the d- and e-files (a1 ⇄ h1).
    #[must_use]
    pub const fn mirror_file(self) -> Square {
        Square(self.0 ^ 7)
    }
    /// The square reflected in the line between ranks 4 and 5 (a1 ⇄ a8).
    #[must_use]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }
    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[must_use]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::from_coords(self.file() as i8 + df, self.rank() as i8 + dr)
    }
    /// Chebyshev (king-move) distance.
    #[must_use]
    pub const fn distance(self, other: Square) -> u8 {
        let df = (self.file() as i8 - other.file() as i8).unsigned_abs();
        let dr = (self.rank() as i8 - other.rank() as i8).unsigned_abs();
        if df > dr { df } else { dr }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

/// A square name that is not `a1` … `h8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSquare(pub String);

impl fmt::Display for BadSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a square (a1 to h8)", self.0)
    }
}

impl core::error::Error for BadSquare {}

impl core::str::FromStr for Square {
    type Err = BadSquare;
    /// Parses `a1` … `h8`.
    fn from_str(s: &str) -> Result<Square, BadSquare> {
        match s.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square((r - b'1') * 8 + (f - b'a'))),
            _ => Err(BadSquare(s.to_string())),
        }
    }
}

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// The other side.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// `w` or `b`, as in FEN.
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        for bad in ["i1", "a9", "a0", "", "a", "a11", "A1"] {
            assert_eq!(bad.parse::<Square>(), Err(BadSquare(bad.to_string())));
        }
    }

    #[test]
    fn reflections_and_distance() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(sq("b3").mirror_file(), sq("g3"));
        assert_eq!(sq("b3").flip_rank(), sq("b6"));
        assert_eq!(sq("a1").distance(sq("h8")), 7);
        assert_eq!(sq("c3").distance(sq("d5")), 2);
        assert_eq!(sq("h8").offset(1, 0), None);
        assert_eq!(sq("a1").offset(1, 1), Some(sq("b2")));
    }
}

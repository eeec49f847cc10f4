//! Squares, positions in the canonical orientation, the dense index, and FEN.
//!
//! A square is a number `0..64`: `a1 = 0, b1 = 1, …, h1 = 7, a2 = 8, …, h8 = 63`
//! (`file + 8 × rank`, both 0-based).
//!
//! **Canonical orientation.** Every answer is computed with the pawn White's, moving up the board,
//! on files a–d. A position whose pawn is Black's is turned round first (ranks flipped, colours
//! and the side to move swapped); one whose pawn is then on files e–h is mirrored (files
//! a↔h, b↔g, …). Answers are from the pawn side's point of view, so they do not change.
//!
//! **Index** (the numbering the exception table uses):
//!
//! ```text
//! index = ((side × 24 + pawn) × 64 + wk) × 64 + bk            0 ≤ index < 196,608
//!   side  0 = the pawn side (White) to move, 1 = the lone king (Black) to move
//!   pawn  (rank − 2) × 4 + file, rank 2..7 (1-based), file a..d = 0..3
//!   wk    square of the pawn side's king, bk square of the lone king (canonical orientation)
//! ```

use core::fmt;

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    White,
    Black,
}

impl Color {
    #[must_use]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// Why a placement is not a legal KPK position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// A square number is 64 or more.
    NoSuchSquare,
    /// Two pieces on one square.
    SameSquare,
    /// The pawn on its first or last rank.
    PawnOnBackRank,
    /// The kings touch.
    AdjacentKings,
    /// The side not to move is in check (the pawn attacks the lone king with the pawn side to move).
    NotToMoveInCheck,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::NoSuchSquare => "a square number is not in 0..64",
            Illegal::SameSquare => "two pieces stand on one square",
            Illegal::PawnOnBackRank => "the pawn stands on its first or last rank",
            Illegal::AdjacentKings => "the kings stand next to each other",
            Illegal::NotToMoveInCheck => "the side not to move is in check",
        })
    }
}

/// A legal KPK position in the canonical orientation (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    wk: u8,
    bk: u8,
    wp: u8,
    white_to_move: bool,
}

const fn file(sq: u8) -> i8 {
    (sq % 8) as i8
}
const fn rank(sq: u8) -> i8 {
    (sq / 8) as i8
}
const fn mirror_file(sq: u8) -> u8 {
    sq ^ 7
}
const fn flip_rank(sq: u8) -> u8 {
    sq ^ 56
}

impl Position {
    /// The position with a white king, a black king and a pawn of `pawn_color` on the given
    /// squares (numbered as in the module documentation), `side_to_move` to play.
    pub fn new(
        white_king: u8,
        black_king: u8,
        pawn: u8,
        pawn_color: Color,
        side_to_move: Color,
    ) -> Result<Position, Illegal> {
        if white_king >= 64 || black_king >= 64 || pawn >= 64 {
            return Err(Illegal::NoSuchSquare);
        }
        let (mut wk, mut bk, mut wp, mut side) = (white_king, black_king, pawn, side_to_move);
        if pawn_color == Color::Black {
            (wk, bk, wp, side) =
                (flip_rank(black_king), flip_rank(white_king), flip_rank(pawn), side.other());
        }
        if file(wp) >= 4 {
            (wk, bk, wp) = (mirror_file(wk), mirror_file(bk), mirror_file(wp));
        }
        Position::canonical(wk, bk, wp, side == Color::White)
    }

    /// The position given in the canonical orientation already: the pawn White's on files a–d.
    pub fn canonical(wk: u8, bk: u8, wp: u8, white_to_move: bool) -> Result<Position, Illegal> {
        if wk >= 64 || bk >= 64 || wp >= 64 || file(wp) >= 4 {
            return Err(Illegal::NoSuchSquare);
        }
        if wk == bk || wk == wp || bk == wp {
            return Err(Illegal::SameSquare);
        }
        if rank(wp) == 0 || rank(wp) == 7 {
            return Err(Illegal::PawnOnBackRank);
        }
        if (file(wk) - file(bk)).abs() <= 1 && (rank(wk) - rank(bk)).abs() <= 1 {
            return Err(Illegal::AdjacentKings);
        }
        if white_to_move && rank(bk) == rank(wp) + 1 && (file(bk) - file(wp)).abs() == 1 {
            return Err(Illegal::NotToMoveInCheck);
        }
        Ok(Position { wk, bk, wp, white_to_move })
    }

    /// The legal position at `index`, or `None` (see the module documentation for the numbering).
    #[must_use]
    pub fn from_index(index: u32) -> Option<Position> {
        if index >= MAX_INDEX {
            return None;
        }
        let bk = (index % 64) as u8;
        let wk = (index / 64 % 64) as u8;
        let slot = (index / 4096 % 24) as u8;
        let wp = (slot / 4 + 1) * 8 + slot % 4;
        Position::canonical(wk, bk, wp, index < MAX_INDEX / 2).ok()
    }

    /// Every legal position, in index order.
    pub fn all() -> impl Iterator<Item = Position> {
        (0..MAX_INDEX).filter_map(Position::from_index)
    }

    /// This position's index.
    #[must_use]
    #[inline]
    pub fn index(&self) -> u32 {
        let slot = (rank(self.wp) as u32 - 1) * 4 + file(self.wp) as u32;
        ((u32::from(!self.white_to_move) * 24 + slot) * 64 + u32::from(self.wk)) * 64 + u32::from(self.bk)
    }

    /// With the lone king to move: calls `reply` with each position its king can step to (the
    /// pawn side then to move), and returns whether it can also take the pawn (the pawn stands
    /// next to it and the pawn side's king does not guard it). No reply and no capture is
    /// stalemate: KPK has no checkmate.
    pub fn lone_king_replies(&self, mut reply: impl FnMut(Position)) -> bool {
        let next_to = |a: u8, b: u8| (file(a) - file(b)).abs() <= 1 && (rank(a) - rank(b)).abs() <= 1;
        let mut takes = false;
        for (df, dr) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            let (f, r) = (file(self.bk) + df, rank(self.bk) + dr);
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                continue;
            }
            let to = (r * 8 + f) as u8;
            if next_to(to, self.wk) {
                continue;
            }
            if to == self.wp {
                takes = true;
            } else if let Ok(p) = Position::canonical(self.wk, to, self.wp, true) {
                // `canonical` refuses a square the pawn attacks: the king may not step there.
                reply(p);
            }
        }
        takes
    }

    /// The pawn side's king, the lone king and the pawn (canonical squares).
    #[must_use]
    pub fn squares(&self) -> (u8, u8, u8) {
        (self.wk, self.bk, self.wp)
    }

    /// Whether the pawn side is to move.
    #[must_use]
    pub fn white_to_move(&self) -> bool {
        self.white_to_move
    }

    /// Table 4's level-0 coordinates x1..x6: file and rank (1-based) of the pawn side's king,
    /// the lone king and the pawn.
    #[must_use]
    #[inline]
    pub fn coordinates(&self) -> [i8; 6] {
        let c = |sq: u8| [file(sq) + 1, rank(sq) + 1];
        let (w, b, p) = (c(self.wk), c(self.bk), c(self.wp));
        [w[0], w[1], b[0], b[1], p[0], p[1]]
    }

    /// Parse a FEN of king and pawn against king, the pawn of either colour on any file. Only the
    /// placement and the side to move are required; castling, if given, must be `-`; the en
    /// passant square, if given, must be `-` or a square on rank 3 or 6 (it is ignored: no pawn
    /// can take en passant); the counters, if given, must be unsigned integers.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Syntax)?;
        let side = match fields.next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            _ => return Err(FenError::Syntax),
        };
        match fields.next() {
            None | Some("-") => {}
            Some(_) => return Err(FenError::Syntax),
        }
        if let Some(ep) = fields.next()
            && ep != "-"
        {
            let b = ep.as_bytes();
            if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b[1] == b'3' || b[1] == b'6') {
                return Err(FenError::Syntax);
            }
        }
        let mut counters = 0;
        for counter in fields {
            counters += 1;
            if counters > 2 || counter.parse::<u32>().is_err() {
                return Err(FenError::Syntax);
            }
        }
        let (wk, bk, pawn, pawn_color) = parse_placement(placement)?;
        Position::new(wk, bk, pawn, pawn_color, side).map_err(FenError::Illegal)
    }
}

/// Squares of the white king, the black king and the pawn, and the pawn's colour.
fn parse_placement(placement: &str) -> Result<(u8, u8, u8, Color), FenError> {
    let (mut wk, mut bk, mut pawn) = (None, None, None);
    let mut rank = 8u8;
    for row in placement.split('/') {
        if rank == 0 {
            return Err(FenError::Syntax);
        }
        rank -= 1;
        let mut f = 0u8;
        for c in row.bytes() {
            if let b'1'..=b'8' = c {
                f += c - b'0';
                continue;
            }
            if f >= 8 {
                return Err(FenError::Syntax);
            }
            let sq = rank * 8 + f;
            let slot = match c {
                b'K' => &mut wk,
                b'k' => &mut bk,
                b'P' => {
                    if pawn.replace((sq, Color::White)).is_some() {
                        return Err(FenError::Material);
                    }
                    f += 1;
                    continue;
                }
                b'p' => {
                    if pawn.replace((sq, Color::Black)).is_some() {
                        return Err(FenError::Material);
                    }
                    f += 1;
                    continue;
                }
                b'Q' | b'q' | b'R' | b'r' | b'B' | b'b' | b'N' | b'n' => return Err(FenError::Material),
                _ => return Err(FenError::Syntax),
            };
            if slot.replace(sq).is_some() {
                return Err(FenError::Material);
            }
            f += 1;
        }
        if f != 8 {
            return Err(FenError::Syntax);
        }
    }
    if rank != 0 {
        return Err(FenError::Syntax);
    }
    match (wk, bk, pawn) {
        (Some(wk), Some(bk), Some((p, c))) => Ok((wk, bk, p, c)),
        _ => Err(FenError::Material),
    }
}

/// Why a FEN was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not a FEN: a field is missing or malformed.
    Syntax,
    /// Not king and pawn against king.
    Material,
    /// The placement is not a legal position.
    Illegal(Illegal),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax => f.write_str("not a FEN"),
            FenError::Material => f.write_str("not king and pawn against king"),
            FenError::Illegal(e) => write!(f, "illegal position: {e}"),
        }
    }
}

/// Number of indices: 2 sides × 24 pawn squares × 64 × 64 king squares.
pub const MAX_INDEX: u32 = 2 * 24 * 64 * 64;

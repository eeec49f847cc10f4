//! FEN of king and pawn against king: the one parser kpk, this crate and its C ABI share.
//!
//! The grammar (fields separated by runs of ASCII whitespace: space, tab, CR, LF, form feed):
//!
//! ```text
//! fen       = placement side [castling [en-passant [counter [counter]]]]
//! placement = 8 ranks separated by '/', from rank 8 down; each rank is the digits 1-8 (empty
//!             squares) and the letters KkPpQqRrBbNn, covering exactly 8 files
//! side      = "w" | "b"
//! castling  = "-"                      (KPK has no rooks)
//! en-passant= "-" | [a-h][36]          (a square the pawn just passed: see below)
//! counter   = one or more ASCII digits 0-9
//! ```
//!
//! The material must be one king of each colour and one pawn of either colour, and the position
//! legal ([`crate::position`]). An en passant square must be possible as python-chess's
//! `Board.is_valid()` requires ([`en_passant_possible`]): the square the pawn of the side not to
//! move has just passed in its double step, so on the sixth rank with White to move (the third
//! with Black to move), the pawn just in front of it, the square and the one behind it empty. No
//! pawn can take it in KPK; the square is checked, then ignored. Errors are checked in that order:
//! the field count, the placement rank by rank, the material, the side to move, castling, the en
//! passant field's form, the counters, legality, the en passant square's possibility.

use crate::position::{Illegal, Position, Transform};
use crate::quote::quote;
use crate::square::{Color, Square};
use alloc::string::{String, ToString};
use core::fmt;

/// Why a FEN is not a KPK position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// No field at all.
    Empty,
    /// Not 2 to 6 fields.
    FieldCount(usize),
    /// The placement does not have 8 ranks.
    RankCount(usize),
    /// A rank (1-based) whose digits and letters do not cover 8 files.
    RankWidth { rank: u8, files: usize },
    /// A character that is neither a digit 1-8 nor a piece letter.
    BadPlacementChar(char),
    /// The side to move is not `w` or `b`.
    BadSide(String),
    /// Castling rights other than `-`.
    BadCastling(String),
    /// An en passant field that is not `-` or a square on rank 3 or 6.
    BadEnPassant(String),
    /// An en passant square no double step of the pawn can have left ([`en_passant_possible`]).
    ImpossibleEnPassant(Square),
    /// A move counter that is not ASCII digits.
    BadCounter(String),
    /// Not king and pawn against king.
    Material(Material),
    /// The placement is KPK but not a legal position; squares as the FEN gives them.
    Illegal(Illegal),
}

/// How a placement's material differs from king and pawn against king.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Material {
    /// Pieces other than kings and pawns, by their letters in FEN order.
    OtherPieces(String),
    /// Not one king of each colour.
    Kings { white: usize, black: usize },
    /// Not exactly one pawn.
    Pawns(usize),
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Material::OtherPieces(list) => write!(f, "pieces other than kings and one pawn ({list})"),
            Material::Kings { white, black } => {
                write!(f, "expected one king of each colour, found {white} white and {black} black")
            }
            Material::Pawns(0) => f.write_str("no pawn, KPK has exactly one"),
            Material::Pawns(n) => write!(f, "{n} pawns, KPK has exactly one"),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::FieldCount(n) => write!(f, "expected 2 to 6 space-separated fields, found {n}"),
            FenError::RankCount(n) => write!(f, "piece placement has {n} ranks, expected 8"),
            FenError::RankWidth { rank, files } => {
                write!(f, "rank {rank} of the piece placement covers {files} files, expected 8")
            }
            FenError::BadPlacementChar(c) => {
                write!(f, "unexpected character '{}' in piece placement", c.escape_default())
            }
            FenError::BadSide(s) => write!(f, "side to move must be 'w' or 'b', found {}", quote(s)),
            FenError::BadCastling(s) => {
                write!(f, "castling field must be '-' in KPK (no rooks), found {}", quote(s))
            }
            FenError::BadEnPassant(s) => {
                write!(f, "en passant field must be '-' or a square on rank 3 or 6, found {}", quote(s))
            }
            FenError::ImpossibleEnPassant(ep) => write!(
                f,
                "en passant square {ep} is impossible: no pawn of the side not to move has just made \
                 its double step past it"
            ),
            FenError::BadCounter(s) => {
                write!(f, "move counter must be a non-negative integer, found {}", quote(s))
            }
            FenError::Material(m) => write!(f, "not KPK material: {m}"),
            FenError::Illegal(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl core::error::Error for FenError {}

/// The most fields a FEN has.
const MAX_FIELDS: usize = 6;

/// Parse a FEN (see the module documentation): the position in the canonical orientation and the
/// transform that maps its squares back to the FEN's.
pub fn parse(fen: &str) -> Result<(Position, Transform), FenError> {
    let mut fields = [""; MAX_FIELDS];
    let mut count = 0;
    for field in fen.split_ascii_whitespace() {
        if count < MAX_FIELDS {
            fields[count] = field;
        }
        count += 1;
    }
    if count == 0 {
        return Err(FenError::Empty);
    }
    if !(2..=MAX_FIELDS).contains(&count) {
        return Err(FenError::FieldCount(count));
    }
    let pieces = parse_placement(fields[0])?;
    let (white_king, black_king, pawn, pawn_color) = pieces.kpk(fields[0])?;
    let (side, ep) = parse_state(&fields[1..count])?;
    let oriented =
        Position::oriented(white_king, black_king, pawn, pawn_color, side).map_err(FenError::Illegal)?;
    match ep {
        Some(ep) if !en_passant_possible(ep, side, [white_king, black_king, pawn], pawn_color) => {
            Err(FenError::ImpossibleEnPassant(ep))
        }
        _ => Ok(oriented),
    }
}

/// Is `ep` an en passant square python-chess's `Board.is_valid()` accepts with `side` to move,
/// the kings and the pawn on `pieces` (white king, black king, pawn) and the pawn of
/// `pawn_color`: on the sixth rank with White to move (the third with Black to move), the pawn of
/// the side not to move just in front of it, the square and the one behind it empty (the pawn's
/// double step just played). Squares as the FEN gives them.
pub fn en_passant_possible(ep: Square, side: Color, pieces: [Square; 3], pawn_color: Color) -> bool {
    let (rank, ahead) = if side == Color::White { (5, 1) } else { (2, -1) };
    let empty = |s: Square| !pieces.contains(&s);
    ep.rank() == rank
        && pawn_color != side
        && ep.offset(0, -ahead) == Some(pieces[2])
        && empty(ep)
        && ep.offset(0, ahead).is_some_and(empty)
}

impl Position {
    /// Parse a FEN of king and pawn against king, the pawn of either colour on any file (see
    /// [`crate::fen`] for the grammar).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        parse(fen).map(|(p, _)| p)
    }
}

/// What a placement holds: how many of each KPK piece, where the first of each stands, and
/// whether it holds any other piece.
#[derive(Default)]
struct Pieces {
    white_kings: usize,
    black_kings: usize,
    pawns: usize,
    others: bool,
    white_king: Option<Square>,
    black_king: Option<Square>,
    pawn: Option<(Square, Color)>,
}

impl Pieces {
    /// The white king, the black king, the pawn and its colour, if the material is KPK.
    fn kpk(&self, placement: &str) -> Result<(Square, Square, Square, Color), FenError> {
        if self.others {
            let list = placement.chars().filter(|c| "QqRrBbNn".contains(*c)).collect();
            return Err(FenError::Material(Material::OtherPieces(list)));
        }
        if self.white_kings != 1 || self.black_kings != 1 {
            return Err(FenError::Material(Material::Kings {
                white: self.white_kings,
                black: self.black_kings,
            }));
        }
        match (self.white_king, self.black_king, self.pawn) {
            (Some(wk), Some(bk), Some((p, c))) if self.pawns == 1 => Ok((wk, bk, p, c)),
            _ => Err(FenError::Material(Material::Pawns(self.pawns))),
        }
    }
}

/// The pieces of a placement field, after checking its ranks' form.
fn parse_placement(placement: &str) -> Result<Pieces, FenError> {
    let ranks = placement.split('/').count();
    if ranks != 8 {
        return Err(FenError::RankCount(ranks));
    }
    let mut pieces = Pieces::default();
    for (rank, text) in (0..8u8).rev().zip(placement.split('/')) {
        let mut file: usize = 0;
        for c in text.chars() {
            if let '1'..='8' = c {
                file = file.saturating_add(c as usize - '0' as usize);
                continue;
            }
            let at = u8::try_from(file).ok().and_then(|f| Square::from_coords(f as i8, rank as i8));
            match c {
                'K' => place(&mut pieces.white_kings, &mut pieces.white_king, at),
                'k' => place(&mut pieces.black_kings, &mut pieces.black_king, at),
                'P' => place(&mut pieces.pawns, &mut pieces.pawn, at.map(|s| (s, Color::White))),
                'p' => place(&mut pieces.pawns, &mut pieces.pawn, at.map(|s| (s, Color::Black))),
                'Q' | 'q' | 'R' | 'r' | 'B' | 'b' | 'N' | 'n' => pieces.others = true,
                _ => return Err(FenError::BadPlacementChar(c)),
            }
            file = file.saturating_add(1);
        }
        if file != 8 {
            return Err(FenError::RankWidth { rank: rank + 1, files: file });
        }
    }
    Ok(pieces)
}

/// Count a piece and keep the square of the first one.
fn place<T>(count: &mut usize, first: &mut Option<T>, at: Option<T>) {
    *count += 1;
    if first.is_none() {
        *first = at;
    }
}

/// The side to move and the en passant square, after checking the fields that follow the side:
/// castling `-`, an en passant field of the right form, counters of ASCII digits.
fn parse_state(fields: &[&str]) -> Result<(Color, Option<Square>), FenError> {
    let side = match fields[0] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::BadSide(other.to_string())),
    };
    if let Some(&castling) = fields.get(1)
        && castling != "-"
    {
        return Err(FenError::BadCastling(castling.to_string()));
    }
    let ep = match fields.get(2) {
        None | Some(&"-") => None,
        Some(&ep) if matches!(ep.as_bytes(), [b'a'..=b'h', b'3' | b'6']) => ep.parse().ok(),
        Some(&ep) => return Err(FenError::BadEnPassant(ep.to_string())),
    };
    for &counter in fields.iter().skip(3) {
        if !counter.bytes().all(|b| b.is_ascii_digit()) {
            return Err(FenError::BadCounter(counter.to_string()));
        }
    }
    Ok((side, ep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    fn err(fen: &str) -> String {
        format!("{}", parse(fen).unwrap_err())
    }

    #[test]
    fn the_grammar_by_example() {
        assert!(parse("8/8/8/8/8/1K6/1P6/6k1 w").is_ok());
        assert!(parse(" 8/8/8/8/8/1K6/1P6/6k1\tb\r\n-  - 0 12 ").is_ok());
        assert!(err("8/8/8/8/8/1K6/1P6/6k1 w - - +1 1").contains("move counter"));
        assert!(err("8/8/8/8/8/1K6/1P6/6k1 w - - ² 1").contains("move counter"));
        assert!(err("8/8/8/8/8/1K6/1P6/6k1\u{a0}w").contains("found 1"));
        assert!(err("8/8/8/8/8/1K6/1P6/6k1 w - e4").contains("en passant"));
        let wide = format!("{}/8/8/8/8/1K6/1P6/6k1 w", "8".repeat(33));
        assert_eq!(err(&wide), "rank 8 of the piece placement covers 264 files, expected 8");
        assert!(err("8/8/8/8/8/1K6/1PQ5/6kq w").contains("(Qq)"));
        assert!(err("8/8/8/8/8/1K6/1P6/6K1 w").contains("found 2 white and 0 black"));
    }

    #[test]
    fn en_passant_squares_as_python_chess_checks_them() {
        // Black's pawn just played e7e5; White's just played e2e4.
        assert!(parse("8/8/8/4p3/8/8/8/K6k w - e6 0 1").is_ok());
        assert!(parse("K6k/8/8/8/4P3/8/8/8 b - e3 0 1").is_ok());
        let impossible = "en passant square e3 is impossible: no pawn of the side not to move has just \
                          made its double step past it";
        assert_eq!(err("8/8/8/8/8/8/4P3/K6k w - e3 0 1"), impossible);
        for bad in [
            "8/8/8/4p3/8/8/8/K6k w - d6 0 1",
            "8/8/8/4p3/8/8/8/K6k b - e6 0 1",
            "8/8/8/4p3/8/8/8/K6k w - e3 0 1",
            "8/4k3/8/4p3/8/8/8/K7 w - e6 0 1",
            "8/8/8/4P3/8/8/8/K6k w - e6 0 1",
            " 8/8/8/8/8/1K6/1P6/6k1\tb\r\n-  e6 0 12 ",
        ] {
            assert!(err(bad).starts_with("en passant square "), "{bad}");
        }
    }

    #[test]
    fn errors_name_the_fens_squares() {
        assert_eq!(
            err("8/8/8/8/8/1k6/P7/4K3 w"),
            "illegal position: the side not to move is in check: king on b3 attacked by the pawn on a2"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/5p2/6K1 b"),
            "illegal position: the side not to move is in check: king on g1 attacked by the pawn on f2"
        );
        assert_eq!(err("8/8/8/8/8/8/P3k3/4K3 w"), "illegal position: kings on adjacent squares e1 and e2");
        assert_eq!(
            err("4k3/8/8/8/8/8/8/p3K3 b"),
            "illegal position: pawn on a1: a pawn cannot stand on the first or last rank"
        );
    }
}

//! KPK positions: legality, the canonical orientation, FEN in and out, moves and their results.
//!
//! Inside kpk a position is always held in its **canonical orientation**: the pawn belongs to
//! White and stands on files a–d. A FEN with a black pawn is turned round (colours swapped, ranks
//! flipped, side to move swapped); a pawn on files e–h is mirrored to a–d. Both maps are
//! involutions and commute, so the [`Transform`] that canonicalises a FEN also maps canonical
//! squares back for display. Answers are always from the pawn side's point of view.

use crate::chess::board::{Color, KING_ATTACKS, Square, WHITE_PAWN_ATTACKS, slider_attacks};
use crate::error::{Error, FenError, IllegalPosition};
use std::fmt;

/// The result of a KPK position for the pawn side: it wins, or the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Draw,
    Win,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
        })
    }
}

/// A legal KPK position in canonical orientation (White pawn on files a–d).
///
/// Legal means (kpk's definition, as in Table 2's counts): three distinct squares, kings not adjacent,
/// pawn on ranks 2–7, and the side not to move not in check. With White's only attacker the
/// pawn, that last rule only bites with White to move: the black king must not stand on a square
/// the pawn attacks. Black to move *in* check is legal (Table 1, set 7b counts such positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KpkPosition {
    wk: Square,
    bk: Square,
    wp: Square,
    side: Color,
}

/// Why a legal placement could not be built.
fn check_legal(wk: Square, bk: Square, wp: Square, side: Color) -> Result<(), IllegalPosition> {
    if wk == bk || wk == wp || bk == wp {
        let sq = if wk == bk || wk == wp { wk } else { bk };
        return Err(IllegalPosition::SameSquare(sq.to_string()));
    }
    if wp.rank() == 0 || wp.rank() == 7 {
        return Err(IllegalPosition::PawnOnBackRank(wp.to_string()));
    }
    if KING_ATTACKS[wk.index()] & bk.bit() != 0 {
        return Err(IllegalPosition::AdjacentKings(wk.to_string(), bk.to_string()));
    }
    if side == Color::White && WHITE_PAWN_ATTACKS[wp.index()] & bk.bit() != 0 {
        return Err(IllegalPosition::NotToMoveInCheck { king: bk.to_string(), pawn: wp.to_string() });
    }
    Ok(())
}

impl KpkPosition {
    /// A legal position with the white pawn on files a–d; positions with the pawn on files e–h
    /// are mirrored first (use [`Transform`] to keep track of that).
    pub fn new(wk: Square, bk: Square, wp: Square, side: Color) -> Result<KpkPosition, IllegalPosition> {
        let (wk, bk, wp) = if wp.file() >= 4 {
            (wk.mirror_file(), bk.mirror_file(), wp.mirror_file())
        } else {
            (wk, bk, wp)
        };
        check_legal(wk, bk, wp, side)?;
        Ok(KpkPosition { wk, bk, wp, side })
    }

    /// The white (pawn side's) king.
    pub fn wk(&self) -> Square {
        self.wk
    }
    /// The black (lone) king.
    pub fn bk(&self) -> Square {
        self.bk
    }
    /// The white pawn, on files a–d and ranks 2–7.
    pub fn wp(&self) -> Square {
        self.wp
    }
    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// Every legal position in canonical orientation: 81,664 with White to move, then 84,012
    /// with Black to move, in [`crate::chess::index::KpkIndex`] order.
    pub fn all() -> impl Iterator<Item = KpkPosition> {
        crate::chess::index::KpkIndex::all().filter_map(|i| i.position())
    }

    /// Is the side to move in check? (Only Black can be: White's attacker is the pawn.)
    pub fn in_check(&self) -> bool {
        self.side == Color::Black && WHITE_PAWN_ATTACKS[self.wp.index()] & self.bk.bit() != 0
    }

    /// The legal moves of the side to move.
    pub fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(12);
        let occupied = self.wk.bit() | self.bk.bit() | self.wp.bit();
        match self.side {
            Color::White => {
                let targets = KING_ATTACKS[self.wk.index()] & !KING_ATTACKS[self.bk.index()] & !self.wp.bit();
                for to in crate::chess::board::squares(targets) {
                    moves.push(Move { from: self.wk, to, promotion: None });
                }
                let one = Square::new(self.wp.index() as u8 + 8).expect("pawn below rank 8");
                if occupied & one.bit() == 0 {
                    if one.rank() == 7 {
                        for piece in Promotion::ALL {
                            moves.push(Move { from: self.wp, to: one, promotion: Some(piece) });
                        }
                    } else {
                        moves.push(Move { from: self.wp, to: one, promotion: None });
                        if self.wp.rank() == 1 {
                            let two = Square::new(one.index() as u8 + 8).expect("rank 4");
                            if occupied & two.bit() == 0 {
                                moves.push(Move { from: self.wp, to: two, promotion: None });
                            }
                        }
                    }
                }
            }
            Color::Black => {
                // The black king may take the pawn only if the white king does not guard it,
                // which the first mask already ensures.
                let targets = KING_ATTACKS[self.bk.index()]
                    & !KING_ATTACKS[self.wk.index()]
                    & !WHITE_PAWN_ATTACKS[self.wp.index()];
                for to in crate::chess::board::squares(targets) {
                    moves.push(Move { from: self.bk, to, promotion: None });
                }
            }
        }
        moves
    }

    /// What a legal move of the side to move leads to.
    pub fn play(&self, mv: Move) -> After {
        let side = self.side.other();
        match (self.side, mv.promotion) {
            (Color::White, Some(piece)) => {
                let (outcome, reason) = promotion_outcome(self.wk, self.bk, mv.to, piece);
                After::Promoted { piece, outcome, reason }
            }
            (Color::White, None) if mv.from == self.wk => {
                After::Position(KpkPosition { wk: mv.to, side, ..*self })
            }
            (Color::White, None) => After::Position(KpkPosition { wp: mv.to, side, ..*self }),
            (Color::Black, _) if mv.to == self.wp => After::PawnCaptured,
            (Color::Black, _) => After::Position(KpkPosition { bk: mv.to, side, ..*self }),
        }
    }

    /// The result when the rules settle it at one ply, from the moves alone: the pawn side to
    /// move wins at once by a promotion that wins; the lone king to move draws when it can take
    /// the pawn, or when it has no move (stalemate: KPK has no checkmate). `None` otherwise.
    pub fn settled_at_one_ply(&self) -> Option<Outcome> {
        let moves = self.moves();
        match self.side {
            Color::White => moves
                .iter()
                .any(|&mv| matches!(self.play(mv), After::Promoted { outcome: Outcome::Win, .. }))
                .then_some(Outcome::Win),
            Color::Black => (moves.is_empty()
                || moves.iter().any(|&mv| self.play(mv) == After::PawnCaptured))
            .then_some(Outcome::Draw),
        }
    }

    /// FEN of the canonical orientation, e.g. `8/8/8/8/8/2P5/8/3K1k2 w - - 0 1`.
    pub fn to_fen(&self) -> String {
        self.to_fen_with(Transform::IDENTITY)
    }

    /// FEN of the position seen through `t` (the orientation the user gave).
    pub fn to_fen_with(&self, t: Transform) -> String {
        let mut board = [None::<char>; 64];
        let (wk, bk, wp) = (t.apply(self.wk), t.apply(self.bk), t.apply(self.wp));
        let (king, lone, pawn) = if t.flip_colours { ('k', 'K', 'p') } else { ('K', 'k', 'P') };
        board[wk.index()] = Some(king);
        board[bk.index()] = Some(lone);
        board[wp.index()] = Some(pawn);
        let mut fen = String::with_capacity(40);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = if t.flip_colours { self.side.other() } else { self.side };
        fen.push(' ');
        fen.push(side.fen_char());
        fen.push_str(" - - 0 1");
        fen
    }
}

/// The map from a user's orientation to the canonical one (and back: it is its own inverse).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Transform {
    /// The pawn was Black: colours were swapped and ranks flipped.
    pub flip_colours: bool,
    /// The pawn was on files e–h: files were mirrored.
    pub mirror_files: bool,
}

impl Transform {
    pub const IDENTITY: Transform = Transform { flip_colours: false, mirror_files: false };

    /// Map a square between the user's and the canonical orientation (either way).
    pub fn apply(self, sq: Square) -> Square {
        let sq = if self.flip_colours { sq.flip_rank() } else { sq };
        if self.mirror_files { sq.mirror_file() } else { sq }
    }
}

/// A FEN as the user wrote it: its canonical position and the transform back to the user's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oriented {
    pub position: KpkPosition,
    pub transform: Transform,
}

impl Oriented {
    /// Parse a FEN whose material is king and pawn versus king, the pawn of either colour on any
    /// file. The fields after the side to move are optional; castling must be `-`, en passant is
    /// checked for form and ignored (no pawn can capture it), counters must be integers.
    pub fn from_fen(fen: &str) -> Result<Oriented, Error> {
        parse_fen(fen).map_err(|e| match e {
            ParseError::Fen(kind) => Error::Fen { fen: fen.trim().to_string(), kind },
            ParseError::Illegal(kind) => Error::Illegal { fen: fen.trim().to_string(), kind },
        })
    }

    /// FEN in the user's orientation.
    pub fn to_fen(&self) -> String {
        self.position.to_fen_with(self.transform)
    }

    /// A move in the user's orientation, in short algebraic form (`Kc2`, `b4`, `b8=R`, `Kxb2`).
    pub fn move_name(&self, mv: Move) -> String {
        let to = self.transform.apply(mv.to);
        if mv.from == self.position.wp && self.position.side == Color::White {
            match mv.promotion {
                Some(p) => format!("{to}={}", p.letter()),
                None => to.to_string(),
            }
        } else if self.position.side == Color::Black && mv.to == self.position.wp {
            format!("Kx{to}")
        } else {
            format!("K{to}")
        }
    }
}

enum ParseError {
    Fen(FenError),
    Illegal(IllegalPosition),
}

impl From<FenError> for ParseError {
    fn from(e: FenError) -> Self {
        ParseError::Fen(e)
    }
}

fn parse_fen(fen: &str) -> Result<Oriented, ParseError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty.into());
    }
    if !(2..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()).into());
    }
    let pieces = parse_placement(fields[0])?;
    check_material(&pieces)?;
    let side = parse_state(&fields)?;
    canonicalise(&pieces, side)
}

/// The pieces of a FEN's placement field, as (letter, square).
fn parse_placement(placement: &str) -> Result<Vec<(char, Square)>, ParseError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()).into());
    }
    let mut pieces: Vec<(char, Square)> = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as i8;
        let mut file: usize = 0;
        for c in rank_text.chars() {
            match c {
                '1'..='8' => file += c as usize - '0' as usize,
                'K' | 'k' | 'P' | 'p' | 'Q' | 'q' | 'R' | 'r' | 'B' | 'b' | 'N' | 'n' => {
                    if let Some(sq) = Square::from_coords(file as i8, rank) {
                        pieces.push((c, sq));
                    }
                    file += 1;
                }
                _ => return Err(FenError::BadPlacementChar(c).into()),
            }
        }
        if file != 8 {
            return Err(FenError::RankWidth { rank: rank as u8 + 1, files: file }.into());
        }
    }
    Ok(pieces)
}

/// KPK material: one king of each colour and one pawn of either colour, nothing else.
fn check_material(pieces: &[(char, Square)]) -> Result<(), ParseError> {
    let count = |c: char| pieces.iter().filter(|p| p.0 == c).count();
    let others: Vec<char> = pieces.iter().map(|p| p.0).filter(|c| !"KkPp".contains(*c)).collect();
    if !others.is_empty() {
        let list: String = others.iter().collect();
        return Err(FenError::Material(format!("pieces other than kings and one pawn ({list})")).into());
    }
    if count('K') != 1 || count('k') != 1 {
        return Err(FenError::Material(format!(
            "expected one king of each colour, found {} white and {} black",
            count('K'),
            count('k')
        ))
        .into());
    }
    let pawns = count('P') + count('p');
    if pawns != 1 {
        let what = if pawns == 0 { "no pawn".to_string() } else { format!("{pawns} pawns") };
        return Err(FenError::Material(format!("{what}, KPK has exactly one")).into());
    }
    Ok(())
}

/// The side to move, after checking the fields that follow it: castling `-`, an en passant square
/// of the right form (otherwise ignored), counters that are numbers.
fn parse_state(fields: &[&str]) -> Result<Color, ParseError> {
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::BadSide(other.to_string()).into()),
    };
    if let Some(castling) = fields.get(2)
        && *castling != "-"
    {
        return Err(FenError::BadCastling(castling.to_string()).into());
    }
    if let Some(ep) = fields.get(3)
        && *ep != "-"
    {
        let ok = ep.parse::<Square>().is_ok_and(|sq| sq.rank() == 2 || sq.rank() == 5);
        if !ok {
            return Err(FenError::BadEnPassant(ep.to_string()).into());
        }
    }
    for counter in fields.iter().skip(4) {
        if counter.parse::<u32>().is_err() {
            return Err(FenError::BadCounter(counter.to_string()).into());
        }
    }
    Ok(side)
}

/// Put a checked placement into the canonical orientation (the pawn side White, the pawn on files
/// a-d) and check its legality there; messages name the user's squares.
fn canonicalise(pieces: &[(char, Square)], side: Color) -> Result<Oriented, ParseError> {
    let find = |c: char| pieces.iter().find(|p| p.0 == c).map(|p| p.1);
    let (white_king, black_king) = (find('K').expect("counted"), find('k').expect("counted"));
    let (pawn, pawn_colour) = match find('P') {
        Some(sq) => (sq, Color::White),
        None => (find('p').expect("counted"), Color::Black),
    };
    if pawn.rank() == 0 || pawn.rank() == 7 {
        return Err(ParseError::Illegal(IllegalPosition::PawnOnBackRank(pawn.to_string())));
    }
    // Canonicalise: the pawn side becomes White, then the pawn goes to files a-d.
    let flip_colours = pawn_colour == Color::Black;
    let (king, lone) = if flip_colours { (black_king, white_king) } else { (white_king, black_king) };
    let flipped = Transform { flip_colours, mirror_files: false };
    let mirror_files = flipped.apply(pawn).file() >= 4;
    let t = Transform { flip_colours, mirror_files };
    let side = if flip_colours { side.other() } else { side };
    let (wk, bk, wp) = (t.apply(king), t.apply(lone), t.apply(pawn));
    // Legality is checked in canonical squares; messages name the user's squares.
    check_legal(wk, bk, wp, side).map_err(|e| {
        let name = |s: &str| t.apply(s.parse::<Square>().expect("a square name")).to_string();
        ParseError::Illegal(match e {
            IllegalPosition::SameSquare(s) => IllegalPosition::SameSquare(name(&s)),
            IllegalPosition::AdjacentKings(a, b) => IllegalPosition::AdjacentKings(name(&a), name(&b)),
            IllegalPosition::PawnOnBackRank(s) => IllegalPosition::PawnOnBackRank(name(&s)),
            IllegalPosition::NotToMoveInCheck { king, pawn } => {
                IllegalPosition::NotToMoveInCheck { king: name(&king), pawn: name(&pawn) }
            }
        })
    })?;
    Ok(Oriented { position: KpkPosition { wk, bk, wp, side }, transform: t })
}

/// The piece a pawn promotes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Promotion {
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl Promotion {
    pub const ALL: [Promotion; 4] = [Promotion::Queen, Promotion::Rook, Promotion::Bishop, Promotion::Knight];
    pub fn letter(self) -> char {
        match self {
            Promotion::Queen => 'Q',
            Promotion::Rook => 'R',
            Promotion::Bishop => 'B',
            Promotion::Knight => 'N',
        }
    }
}

/// A move in canonical orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Promotion>,
}

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// Another KPK position.
    Position(KpkPosition),
    /// Black took the pawn: a draw.
    PawnCaptured,
    /// The pawn promoted (conversion): the game leaves KPK with this result.
    Promoted { piece: Promotion, outcome: Outcome, reason: &'static str },
}

/// The result of promoting on `q` with the white king on `wk` and the black king on `bk`, Black
/// then to move. A queen or rook promotion wins unless the new piece can be taken at once or Black
/// is stalemated (KQK and KRK are otherwise always won); a bishop or knight cannot win.
pub fn promotion_outcome(wk: Square, bk: Square, q: Square, piece: Promotion) -> (Outcome, &'static str) {
    let (orthogonal, diagonal) = match piece {
        Promotion::Queen => (true, true),
        Promotion::Rook => (true, false),
        Promotion::Bishop | Promotion::Knight => return (Outcome::Draw, "insufficient material"),
    };
    let guarded = KING_ATTACKS[wk.index()];
    if KING_ATTACKS[bk.index()] & q.bit() != 0 && guarded & q.bit() == 0 {
        return (Outcome::Draw, "the new piece is taken");
    }
    // Rays pass through the black king's square: it cannot step back along a checking line.
    let piece_attacks = slider_attacks(q, wk.bit(), orthogonal, diagonal);
    let in_check = piece_attacks & bk.bit() != 0;
    let escapes = KING_ATTACKS[bk.index()] & !(guarded | piece_attacks | wk.bit());
    if !in_check && escapes == 0 { (Outcome::Draw, "stalemate") } else { (Outcome::Win, "converted") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn parses_table1_set3() {
        let o = Oriented::from_fen("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1").unwrap();
        assert_eq!(o.transform, Transform::IDENTITY);
        assert_eq!((o.position.wk(), o.position.bk(), o.position.wp()), (sq("d1"), sq("f8"), sq("c3")));
        assert_eq!(o.to_fen(), "5k2/8/8/8/8/2P5/8/3K4 w - - 0 1");
    }

    #[test]
    fn black_pawn_on_g_file_is_flipped_and_mirrored() {
        // Black king d8, black pawn g6, white king f1, Black to move.
        let o = Oriented::from_fen("3k4/8/6p1/8/8/8/8/5K2 b - -").unwrap();
        assert_eq!(o.transform, Transform { flip_colours: true, mirror_files: true });
        let p = o.position;
        assert_eq!(p.side(), Color::White);
        assert_eq!(p.wp(), sq("b3"));
        assert_eq!(p.wk(), sq("e1")); // black king d8 -> d1 -> e1
        assert_eq!(p.bk(), sq("c8")); // white king f1 -> f8 -> c8
        assert_eq!(o.to_fen(), "3k4/8/6p1/8/8/8/8/5K2 b - - 0 1");
    }

    #[test]
    fn rook_promotion_wins_where_queen_stalemates() {
        // White king a4, Black king a6, pawn b7: b8=Q stalemates, b8=R wins.
        let (wk, bk, q) = (sq("a4"), sq("a6"), sq("b8"));
        assert_eq!(promotion_outcome(wk, bk, q, Promotion::Queen).0, Outcome::Draw);
        assert_eq!(promotion_outcome(wk, bk, q, Promotion::Rook).0, Outcome::Win);
    }
}

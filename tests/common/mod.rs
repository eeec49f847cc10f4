//! An independent, deliberately naive chess oracle for the exhaustive tests: a mailbox board,
//! moves found by walking directions square by square, legality by making the move and asking
//! whether the mover's king is attacked. It shares no code with `kpk::chess::position` or `kpk::chess::board`
//! (only the plain square numbering a1 = 0 … h8 = 63).
#![allow(dead_code)]

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Piece {
    WKing,
    WPawn,
    WQueen,
    WRook,
    WBishop,
    WKnight,
    BKing,
}

impl Piece {
    fn is_white(self) -> bool {
        self != Piece::BKing
    }
}

/// A move as (from, to, promotion letter).
pub type NaiveMove = (usize, usize, Option<char>);

#[derive(Clone, Copy)]
pub struct Board {
    pub cells: [Option<Piece>; 64],
    pub white_to_move: bool,
}

fn fr(sq: usize) -> (i32, i32) {
    ((sq % 8) as i32, (sq / 8) as i32)
}

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

const KING: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Board {
    pub fn kpk(wk: usize, bk: usize, wp: usize, white_to_move: bool) -> Board {
        let mut cells = [None; 64];
        cells[wk] = Some(Piece::WKing);
        cells[bk] = Some(Piece::BKing);
        cells[wp] = Some(Piece::WPawn);
        Board { cells, white_to_move }
    }

    fn find(&self, p: Piece) -> Option<usize> {
        self.cells.iter().position(|c| *c == Some(p))
    }

    /// Does a piece of the given colour attack `target`? Every piece is asked in turn.
    pub fn attacked_by(&self, white: bool, target: usize) -> bool {
        let (tf, tr) = fr(target);
        for (sq, cell) in self.cells.iter().enumerate() {
            let Some(p) = *cell else { continue };
            if p.is_white() != white || sq == target {
                continue;
            }
            let (f, r) = fr(sq);
            let hit = match p {
                Piece::WKing | Piece::BKing => (f - tf).abs() <= 1 && (r - tr).abs() <= 1,
                Piece::WPawn => tr == r + 1 && (tf - f).abs() == 1,
                Piece::WKnight => KNIGHT.iter().any(|&(df, dr)| f + df == tf && r + dr == tr),
                Piece::WQueen => {
                    self.ray_hits(sq, target, &ROOK_DIRS) || self.ray_hits(sq, target, &BISHOP_DIRS)
                }
                Piece::WRook => self.ray_hits(sq, target, &ROOK_DIRS),
                Piece::WBishop => self.ray_hits(sq, target, &BISHOP_DIRS),
            };
            if hit {
                return true;
            }
        }
        false
    }

    fn ray_hits(&self, from: usize, target: usize, dirs: &[(i32, i32)]) -> bool {
        let (f0, r0) = fr(from);
        for &(df, dr) in dirs {
            let (mut f, mut r) = (f0 + df, r0 + dr);
            while let Some(sq) = at(f, r) {
                if sq == target {
                    return true;
                }
                if self.cells[sq].is_some() {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        false
    }

    pub fn in_check(&self) -> bool {
        let king = if self.white_to_move { Piece::WKing } else { Piece::BKing };
        let sq = self.find(king).expect("a king");
        self.attacked_by(!self.white_to_move, sq)
    }

    /// Legal moves as (from, to, promotion letter) with the board after each.
    pub fn legal_moves(&self) -> Vec<(NaiveMove, Board)> {
        let mut out = Vec::new();
        for (from, cell) in self.cells.iter().enumerate() {
            let Some(p) = *cell else { continue };
            if p.is_white() != self.white_to_move {
                continue;
            }
            let (f, r) = fr(from);
            let mut targets: Vec<(usize, Option<char>)> = Vec::new();
            match p {
                Piece::WKing | Piece::BKing => {
                    for (df, dr) in KING {
                        if let Some(to) = at(f + df, r + dr)
                            && self.cells[to].is_none_or(|q| q.is_white() != p.is_white())
                        {
                            targets.push((to, None));
                        }
                    }
                }
                Piece::WPawn => {
                    if let Some(one) = at(f, r + 1)
                        && self.cells[one].is_none()
                    {
                        if r + 1 == 7 {
                            for c in ['Q', 'R', 'B', 'N'] {
                                targets.push((one, Some(c)));
                            }
                        } else {
                            targets.push((one, None));
                            if r == 1
                                && let Some(two) = at(f, r + 2)
                                && self.cells[two].is_none()
                            {
                                targets.push((two, None));
                            }
                        }
                    }
                    // No pawn captures: the only black piece is the king.
                }
                _ => {} // promoted pieces never move in these tests
            }
            for (to, promo) in targets {
                if self.cells[to] == Some(Piece::WKing) || self.cells[to] == Some(Piece::BKing) {
                    continue; // kings are never captured
                }
                let mut next = *self;
                next.cells[from] = None;
                next.cells[to] = Some(match promo {
                    Some('Q') => Piece::WQueen,
                    Some('R') => Piece::WRook,
                    Some('B') => Piece::WBishop,
                    Some('N') => Piece::WKnight,
                    _ => p,
                });
                next.white_to_move = !self.white_to_move;
                // Legal if the mover's own king is not left attacked.
                let mover_king = if self.white_to_move { Piece::WKing } else { Piece::BKing };
                let ksq = next.find(mover_king).expect("king");
                if !next.attacked_by(!self.white_to_move, ksq) {
                    out.push(((from, to, promo), next));
                }
            }
        }
        out
    }
}

/// Naive legality of a KPK placement (pawn white, any file): distinct squares, pawn on ranks 2–7,
/// kings not adjacent, side not to move not in check.
pub fn legal(wk: usize, bk: usize, wp: usize, white_to_move: bool) -> bool {
    if wk == bk || wk == wp || bk == wp || !(8..56).contains(&wp) {
        return false;
    }
    let (a, b) = (fr(wk), fr(bk));
    if (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1 {
        return false;
    }
    let board = Board::kpk(wk, bk, wp, white_to_move);
    let not_to_move_king = if white_to_move { bk } else { wk };
    !board.attacked_by(white_to_move, not_to_move_king)
}

/// What a naive move leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NaiveAfter {
    /// A KPK position (wk, bk, wp, white to move).
    Kpk(usize, usize, usize, bool),
    PawnTaken,
    /// A promotion: does it win at once (the new queen or rook cannot be taken and Black is not
    /// stalemated; a bishop or knight never wins)?
    Promoted(bool),
}

pub fn classify(board: &Board) -> NaiveAfter {
    let wk = board.find(Piece::WKing).expect("white king");
    let bk = board.find(Piece::BKing).expect("black king");
    if let Some(wp) = board.find(Piece::WPawn) {
        return NaiveAfter::Kpk(wk, bk, wp, board.white_to_move);
    }
    let promoted =
        board.cells.iter().position(|c| matches!(c, Some(p) if p.is_white() && *p != Piece::WKing));
    let Some(q) = promoted else { return NaiveAfter::PawnTaken };
    if matches!(board.cells[q], Some(Piece::WBishop | Piece::WKnight)) {
        return NaiveAfter::Promoted(false);
    }
    let replies = board.legal_moves();
    if replies.is_empty() {
        return NaiveAfter::Promoted(board.in_check()); // mate wins, stalemate draws
    }
    let takes = replies.iter().any(|((_, to, _), _)| *to == q);
    NaiveAfter::Promoted(!takes)
}

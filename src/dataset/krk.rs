//! KRK (king and rook against king) as data: the UCI Machine Learning Repository's "Chess
//! (King-Rook vs. King)" data set (Bain, 1994; the file `krkopt.data`) regenerated from kpk's
//! distance-to-mate table ([`crate::chess::dtm`]), and the whole table as CSV.
//!
//! # The UCI set's rule (found by matching the published file against the table)
//!
//! * **Black is to move** in every row. The set holds positions where Black is in check, and
//!   its class `zero` is exactly the 27 checkmates among them: a White-to-move reading would
//!   make those rows illegal.
//! * **Positions**: every legal placement with Black to move (three distinct squares, the kings
//!   not adjacent), Black in check or not, the rook attacked by the black king or not (taking it
//!   draws, so those rows are `draw`).
//! * **Symmetry**: one row per class of the eight board symmetries, the representative with the
//!   white king in the triangle a1-d1-d4 (file ≤ d, rank ≤ file); with the white king on the
//!   a1-d4 diagonal, the black king on or below the a1-h8 diagonal (rank ≤ file); with both
//!   kings on it, the rook on or below it as well. A position with all three men on the diagonal
//!   is its own mirror image and has one row like any other. This gives 28,056 rows.
//! * **Class**: `draw` (stalemate, the rook taken, or any other draw), else Black's distance to
//!   mate in moves: the table's plies (even, Black to move and lost) halved, `zero` for Black
//!   already checkmated up to `sixteen`, KRK's longest.
//! * **Order**: by class (`draw`, `zero`, …, `sixteen`), then by the row's text, which is the
//!   order of (white king file, rank, rook file, rank, black king file, rank).
//!
//! The rows are written as the published file is: `a,1,b,3,c,2,draw`, no header, `\n` after
//! each row.

use crate::chess::board::KING_ATTACKS;
use crate::chess::dtm::{Dtm, Tables};
use crate::chess::pawnless::Piece;
use crate::error::{Error, Result};
use crate::output::FileOut;
use kpk_probe::Square;

/// The UCI set's classes in its order: a draw, then Black's moves to mate.
pub const UCI_CLASSES: [&str; 18] = [
    "draw", "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
];

/// One KRK placement with the side to move; White has the rook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KrkPosition {
    pub wk: Square,
    pub wr: Square,
    pub bk: Square,
    pub white_to_move: bool,
}

impl KrkPosition {
    /// Legal: three distinct squares, the kings not adjacent, and with White to move the black
    /// king not in check (the rook's lines stopped by the white king only).
    pub fn is_legal(&self) -> bool {
        let distinct = self.wk != self.wr && self.wk != self.bk && self.wr != self.bk;
        let apart = KING_ATTACKS[self.wk.index()] & self.bk.bit() == 0;
        let checked = Piece::Rook.attacks(self.wr, self.wk.bit()) & self.bk.bit() != 0;
        distinct && apart && !(self.white_to_move && checked)
    }

    /// Every legal KRK position: White to move first, then by white king, rook, black king
    /// (squares a1, b1, …, h8).
    pub fn all() -> impl Iterator<Item = KrkPosition> {
        [true, false].into_iter().flat_map(|white_to_move| {
            Square::ALL.into_iter().flat_map(move |wk| {
                Square::ALL.into_iter().flat_map(move |wr| {
                    Square::ALL
                        .into_iter()
                        .map(move |bk| KrkPosition { wk, wr, bk, white_to_move })
                        .filter(KrkPosition::is_legal)
                })
            })
        })
    }

    /// The position in FEN (no castling, no en passant, move 1).
    pub fn fen(&self) -> String {
        let mut board = [None; 64];
        for (sq, c) in [(self.wk, 'K'), (self.wr, 'R'), (self.bk, 'k')] {
            board[sq.index()] = Some(c);
        }
        let mut fen = crate::chess::position::fen_placement(&board);
        fen.push_str(if self.white_to_move { " w - - 0 1" } else { " b - - 0 1" });
        fen
    }

    /// The position's DTM from the side to move's point of view.
    pub fn dtm(&self, tables: &Tables) -> Dtm {
        tables.pawnless_dtm(Piece::Rook, self.white_to_move, [self.wr, self.wk, self.bk])
    }
}

/// Whether a placement is the UCI set's representative of its symmetry class (module doc).
pub fn is_uci_canonical(wk: Square, wr: Square, bk: Square) -> bool {
    let below = |s: Square| s.rank() < s.file();
    let on = |s: Square| s.rank() == s.file();
    let not_above = |s: Square| s.rank() <= s.file();
    wk.file() <= 3 && (below(wk) || on(wk) && (below(bk) || on(bk) && not_above(wr)))
}

/// One row of the UCI set: a Black-to-move position and its class (an index of
/// [`UCI_CLASSES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciRow {
    pub position: KrkPosition,
    pub class: usize,
}

impl UciRow {
    /// The row's text as in the published file, without the line end.
    pub fn text(&self) -> String {
        let p = &self.position;
        let sq = |s: Square| format!("{},{}", char::from(b'a' + s.file()), s.rank() + 1);
        format!("{},{},{},{}", sq(p.wk), sq(p.wr), sq(p.bk), UCI_CLASSES[self.class])
    }
}

/// The UCI class of a Black-to-move DTM: 0 (`draw`), else 1 + Black's moves to mate.
pub fn uci_class(d: Dtm) -> Result<usize> {
    match d.wdl {
        0 => Ok(0),
        -1 if d.plies % 2 == 0 && (d.plies as usize) / 2 + 1 < UCI_CLASSES.len() => {
            Ok(d.plies as usize / 2 + 1)
        }
        _ => Err(Error::Internal(format!("no UCI class: {d:?}"))),
    }
}

/// The UCI set's 28,056 rows in the published order (module doc).
pub fn uci_rows(tables: &Tables) -> Result<Vec<UciRow>> {
    let mut rows = KrkPosition::all()
        .filter(|p| !p.white_to_move && is_uci_canonical(p.wk, p.wr, p.bk))
        .map(|position| Ok(UciRow { position, class: uci_class(position.dtm(tables))? }))
        .collect::<Result<Vec<UciRow>>>()?;
    let key = |r: &UciRow| {
        let p = r.position;
        (r.class, [p.wk, p.wr, p.bk].map(|s| (s.file(), s.rank())))
    };
    rows.sort_by_key(key);
    Ok(rows)
}

/// Write the UCI rows as the published file is written.
pub fn write_uci(rows: &[UciRow], out: &FileOut) -> Result<()> {
    out.write_with(|w| {
        for r in rows {
            writeln!(w, "{}", r.text())?;
        }
        Ok(())
    })
}

/// The whole table's CSV header: the position, its squares, then the result and DTM in plies
/// from the side to move's point of view.
pub const TABLE_HEADER: [&str; 7] = ["fen", "side", "wk", "wr", "bk", "wdl", "dtm"];

/// Write every legal KRK position ([`KrkPosition::all`] order) with its DTM; returns the count.
pub fn write_table(tables: &Tables, out: &FileOut) -> Result<usize> {
    let mut count = 0;
    out.write_with(|w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record(TABLE_HEADER)?;
        for p in KrkPosition::all() {
            let d = p.dtm(tables);
            let side = if p.white_to_move { "w" } else { "b" };
            let squares = [p.wk, p.wr, p.bk].map(|s| s.to_string());
            let [wk, wr, bk] = &squares;
            csv.write_record([&p.fen(), side, wk, wr, bk, &d.wdl.to_string(), &d.plies.to_string()])?;
            count += 1;
        }
        csv.flush()
    })?;
    Ok(count)
}

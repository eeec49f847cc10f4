//! A KRK position in FEN answered from the KRK model: either colour may hold the rook, any
//! orientation. The strong side is made White by turning the board round (ranks flipped,
//! colours and the side to move swapped), which changes no answer given from the side to move's
//! point of view; the model's reader then finds the symmetry class itself.

use cozy_chess::{Board, Color, Piece};
use kpk_probe::krk::{KrkAnswer, KrkModel};

/// Why a FEN gets no KRK answer.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KrkQueryError {
    #[error("illegal or unreadable FEN: {0}")]
    Fen(String),
    #[error("not KRK material: {0}")]
    Material(String),
}

/// The model's answer for a legal board; an error unless its material is king and rook against
/// king.
pub fn answer_board(model: &KrkModel, board: &Board) -> Result<KrkAnswer, KrkQueryError> {
    let material = || KrkQueryError::Material(board.to_string());
    let rooks = board.pieces(Piece::Rook);
    let rook = rooks
        .next_square()
        .filter(|_| rooks.len() == 1 && board.occupied().len() == 3)
        .ok_or_else(material)?;
    let strong = board.color_on(rook).ok_or_else(material)?;
    let turn = |sq: cozy_chess::Square| if strong == Color::White { sq as u8 } else { sq as u8 ^ 56 };
    let (wk, wr, bk) = (turn(board.king(strong)), turn(rook), turn(board.king(!strong)));
    model.dtm(wk, wr, bk, board.side_to_move() == strong).ok_or_else(material)
}

/// The model's answer for a FEN (all six fields, as cozy-chess reads them).
pub fn answer_fen(model: &KrkModel, fen: &str) -> Result<KrkAnswer, KrkQueryError> {
    let board: Board = fen.trim().parse().map_err(|_| KrkQueryError::Fen(fen.trim().to_string()))?;
    answer_board(model, &board)
}

/// Whether a FEN holds KRK material (so that a query without `--dtm` can say where it is answered).
pub fn is_krk_fen(fen: &str) -> bool {
    fen.trim().parse::<Board>().is_ok_and(|b| b.occupied().len() == 3 && b.pieces(Piece::Rook).len() == 1)
}

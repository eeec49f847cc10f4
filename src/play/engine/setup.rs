//! `position startpos|fen FEN [moves M...]`: the board it sets, its halfmove clock, and why a
//! malformed or illegal one sets none.
//!
//! Any legal FEN is taken: the halfmove clock may pass 100 (the 50-move rule lets a player claim
//! the draw, it does not end the game) and a fullmove number of 0 is read as 1. The board is kept
//! by cozy-chess, given the clocks `0 1` (it refuses the others); the halfmove clock is kept here.

use super::messages::text;
use cozy_chess::util::{display_uci_move, parse_uci_move};
use cozy_chess::{Board, Color, FenParseError, Move, Square};

/// Whether two squares touch (kings there would attack each other).
fn adjacent(a: Square, b: Square) -> bool {
    (a.file() as i32 - b.file() as i32).abs() <= 1 && (a.rank() as i32 - b.rank() as i32).abs() <= 1
}

/// A position set by `position`: the board and its halfmove clock.
#[derive(Clone, Debug)]
pub struct Setup {
    pub board: Board,
    pub halfmove: u32,
}

/// A move in UCI: standard castling notation, or king-takes-rook under `UCI_Chess960`.
pub fn move_name(board: &Board, mv: Move, chess960: bool) -> String {
    if chess960 { mv.to_string() } else { display_uci_move(board, mv).to_string() }
}

/// Every legal move of `board`, each with its UCI name, sorted by name.
pub fn legal_moves(board: &Board, chess960: bool) -> Vec<(Move, String)> {
    let mut moves = Vec::new();
    board.generate_moves(|list| {
        moves.extend(list.into_iter().map(|mv| (mv, move_name(board, mv, chess960))));
        false
    });
    moves.sort_by(|a, b| a.1.cmp(&b.1));
    moves
}

/// The setup a `position` command's arguments describe, or why they describe none.
pub fn setup_of(args: &[&str], chess960: bool) -> Result<Setup, String> {
    let at_moves = args.iter().position(|a| *a == "moves").unwrap_or(args.len());
    let (setup, moves) = (&args[..at_moves], args.get(at_moves + 1..).unwrap_or(&[]));
    let mut s = match setup {
        ["startpos"] => Setup { board: Board::default(), halfmove: 0 },
        ["fen", fields @ ..] if (2..=6).contains(&fields.len()) => from_fen(fields, chess960)?,
        _ => return Err(text("needs_position", &[])),
    };
    for (i, name) in moves.iter().enumerate() {
        let parsed = if chess960 { name.parse::<Move>().ok() } else { parse_uci_move(&s.board, name).ok() };
        let Some(mv) = parsed.filter(|mv| s.board.is_legal(*mv)) else {
            return Err(text("illegal_move", &[("n", &(i + 1)), ("text", name)]));
        };
        let zeroing = s.board.piece_on(mv.from) == Some(cozy_chess::Piece::Pawn)
            || s.board.colors(!s.board.side_to_move()).has(mv.to);
        s.halfmove = if zeroing { 0 } else { s.halfmove.saturating_add(1) };
        s.board.play_unchecked(mv);
    }
    Ok(s)
}

/// A FEN's fields (from 2 to 6; missing trailing ones take FEN's defaults `- - 0 1`, as kpk's own
/// reader allows) as a setup.
fn from_fen(fields: &[&str], chess960: bool) -> Result<Setup, String> {
    let defaults = ["-", "-", "0", "1"];
    let mut full: Vec<&str> = fields.to_vec();
    full.extend(&defaults[fields.len() - 2..]);
    let fen = full.join(" ");
    let quoted = kpk_probe::quote::quote(&fen);
    let bad = |why: String| text("bad_fen", &[("fen", &quoted), ("why", &why)]);
    let halfmove: u32 = full[4].parse().map_err(|_| bad(text("halfmove", &[])))?;
    full[5].parse::<u32>().map_err(|_| bad(text("fullmove", &[])))?;
    let board_fen = format!("{} {} {} {} 0 1", full[0], full[1], full[2], full[3]);
    // Chess960's Shredder castling rights (`HAha`), or the standard `KQkq` as X-FEN gives them.
    let board = Board::from_fen(&board_fen, chess960).or_else(|e| match chess960 {
        true => Board::from_fen(&board_fen, false),
        false => Err(e),
    });
    match board {
        // cozy-chess takes adjacent kings; the laws of chess do not.
        Ok(board) if adjacent(board.king(Color::White), board.king(Color::Black)) => {
            Err(bad(text("adjacent", &[])))
        }
        Ok(board) => Ok(Setup { board, halfmove }),
        Err(e) => Err(bad(why(&full, e, chess960))),
    }
}

/// Why cozy-chess refused a FEN, in words: for an impossible board, the rule it breaks.
fn why(full: &[&str], e: FenParseError, chess960: bool) -> String {
    match e {
        FenParseError::InvalidSideToMove => text("side", &[("side", &full[1])]),
        FenParseError::InvalidCastlingRights => text("castling", &[("rights", &full[2])]),
        FenParseError::InvalidEnPassant => text("en_passant", &[("square", &full[3])]),
        _ => illegal_board(full, chess960),
    }
}

/// The rule an impossible board breaks (its first, in this order).
fn illegal_board(full: &[&str], chess960: bool) -> String {
    let Some(squares) = placement(full[0]) else {
        return text("board", &[("board", &full[0])]);
    };
    let count = |c: char| squares.iter().filter(|&&(_, p)| p == c).count();
    for (c, side) in [('K', "White"), ('k', "Black")] {
        if count(c) != 1 {
            return text("kings", &[("side", &side), ("n", &count(c))]);
        }
    }
    if squares.iter().any(|&(sq, p)| p.eq_ignore_ascii_case(&'p') && (sq / 8 == 0 || sq / 8 == 7)) {
        return text("pawn_rank", &[]);
    }
    let king = |c: char| squares.iter().find(|&&(_, p)| p == c).map(|&(sq, _)| (sq % 8, sq / 8));
    if let (Some(a), Some(b)) = (king('K'), king('k')) {
        if a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1 {
            return text("adjacent", &[]);
        }
    }
    let other = if full[1] == "w" { "b" } else { "w" };
    let flipped = format!("{} {other} {} - 0 1", full[0], full[2]);
    match Board::from_fen(&flipped, chess960) {
        Ok(b) if !b.checkers().is_empty() => text("in_check", &[]),
        _ => text("impossible", &[]),
    }
}

/// The pieces of a FEN board field as (square index a1 = 0, letter), or `None` if malformed.
fn placement(board: &str) -> Option<Vec<(u8, char)>> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return None;
    }
    let mut squares = Vec::new();
    for (i, rank) in ranks.iter().enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            match c {
                '1'..='8' => file += c as u8 - b'0',
                'P' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'p' | 'n' | 'b' | 'r' | 'q' | 'k' if file < 8 => {
                    squares.push(((7 - i as u8) * 8 + file, c));
                    file += 1;
                }
                _ => return None,
            }
        }
        if file != 8 {
            return None;
        }
    }
    Some(squares)
}

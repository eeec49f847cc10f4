//! A won game played on past the promotion to checkmate, as `kpk play` shows it: section 7's fifth
//! objective for White, "mate the black King after the endgame conversion to KQK or KRK". Both
//! sides play DTM-optimal moves from the tables ([`Tables::best_move`]): the strong side mates
//! fastest, the lone king puts mate off longest, ties to the lowest UCI text.

use super::game::{End, Game, Player, play};
use crate::chess::bitbase::Bitbase;
use crate::chess::dtm::Tables;
use crate::chess::position::Oriented;
use cozy_chess::{Board, Color as CozyColor};

/// One ply past the promotion, in the FEN's own colours and squares.
#[derive(Clone, Debug, PartialEq)]
pub struct MatePly {
    /// The move in short algebraic form with `+` or `#` (`Qd7+`, `Kb1`, `Rh8#`).
    pub san: String,
    /// Did White (in the FEN's colours) move?
    pub white: bool,
    /// Plies to mate before and after the move (DTM, either side's view).
    pub dtm_before: u32,
    pub dtm_after: u32,
}

/// A game with its plies past the promotion, if it was converted.
#[derive(Clone, Debug)]
pub struct MatedGame {
    pub game: Game,
    pub mating: Vec<MatePly>,
    /// Did the game end in checkmate (on the promotion itself or past it)?
    pub mated: bool,
}

/// The user's board right after the game's last ply, when that ply was a winning promotion.
fn after_promotion(game: &Game) -> Option<Board> {
    if game.end != End::Converted {
        return None;
    }
    let last = game.plies.last()?;
    let o = Oriented { position: last.before, transform: game.start.transform };
    let mut board: Board = o.to_fen().parse().ok()?;
    let mv: cozy_chess::Move = super::uci(&o, last.mv).parse().ok()?;
    board.try_play(mv).ok()?;
    Some(board)
}

fn san(board: &Board, mv: cozy_chess::Move, after: &Board) -> String {
    let piece = board.piece_on(mv.from).map_or('K', |p| char::from(p).to_ascii_uppercase());
    let takes = if board.piece_on(mv.to).is_some() { "x" } else { "" };
    let mut any = false;
    after.generate_moves(|_| {
        any = true;
        true
    });
    let suffix = match (after.checkers().is_empty(), any) {
        (false, false) => "#",
        (false, true) => "+",
        _ => "",
    };
    format!("{piece}{takes}{}{suffix}", mv.to)
}

/// Is the side to move on `board` checkmated?
pub fn is_checkmate(board: &Board) -> bool {
    let mut any = false;
    board.generate_moves(|_| {
        any = true;
        true
    });
    !any && !board.checkers().is_empty()
}

/// Play on from `board` by DTM, both sides, until checkmate or `max_plies` plies: the plies
/// played and whether the last position is checkmate (so is a board already mated, with no ply).
pub fn mate_from(tables: &Tables, mut board: Board, max_plies: usize) -> (Vec<MatePly>, bool) {
    let mut mating = Vec::new();
    let mut mated = is_checkmate(&board);
    while !mated && mating.len() < max_plies {
        let Some((mv, dtm)) = tables.best_move(&board) else { break };
        let mut next = board.clone();
        next.play_unchecked(mv);
        let dtm_after = tables.probe(&next).map_or(0, |d| d.plies);
        let san = san(&board, mv, &next);
        mated = san.ends_with('#');
        let white = board.side_to_move() == CozyColor::White;
        mating.push(MatePly { san, white, dtm_before: dtm.plies, dtm_after });
        board = next;
    }
    (mating, mated)
}

/// Continue a converted game to checkmate by DTM, both sides, until mate or `max_plies` plies
/// in all. Any other game is returned as it ended.
pub fn mate(tables: &Tables, game: Game, max_plies: usize) -> MatedGame {
    let Some(board) = after_promotion(&game) else {
        return MatedGame { game, mating: Vec::new(), mated: false };
    };
    let (mating, mated) = mate_from(tables, board, max_plies.saturating_sub(game.plies.len()));
    MatedGame { game, mating, mated }
}

/// `kpk play`'s game: [`play`] to the end of KPK, then on to mate by DTM when it was converted.
pub fn play_to_mate<'a>(
    bb: &Bitbase,
    tables: &Tables,
    start: Oriented,
    pawn_side: &mut Player<'a>,
    lone_king: &mut Player<'a>,
    max_plies: usize,
) -> MatedGame {
    mate(tables, play(bb, start, pawn_side, lone_king, max_plies), max_plies)
}

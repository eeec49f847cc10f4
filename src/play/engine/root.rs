//! The root move list: every legal move of the position with what it leads to, best first. The
//! engine's `info` lines, `MultiPV`, `searchmoves` and `bestmove` all read this one list.
//!
//! In KPK each move's result comes from the player's tables (the bitbase, or the play model's DTZ
//! model) and the 50-move rule is applied as Syzygy-aware engines apply it: a win whose next
//! zeroing move (a pawn move or capture) comes after the halfmove clock has reached 100 is a
//! *cursed win*, scored as a draw, and the matching loss a *blessed loss*.

use crate::chess::bitbase::Bitbase;
use crate::chess::dtm::{Dtm, Tables};
use crate::chess::position::{After, KpkPosition, Move, Oriented};
use crate::play::model::PlayModel;
use crate::play::{after, uci};
use kpk_probe::{Color, DtzModel, Outcome};

/// The size of a win in `info score cp` (a loss is its negative); the DTC is taken off it where
/// known, so a quicker win scores higher.
pub const WIN_CP: i32 = 20_000;

/// The halfmove clock at which the 50-move rule lets either side claim a draw.
pub const FIFTY_MOVES: u32 = 100;

/// A move's result for the side to move at the root, the 50-move rule applied, best last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    /// A loss the 50-move rule turns into a draw.
    BlessedLoss,
    Draw,
    /// A win the 50-move rule turns into a draw.
    CursedWin,
    Win,
}

impl Wdl {
    /// The exact `wdl` triple of `UCI_ShowWDL`, per mille: win, draw, loss.
    pub fn per_mille(self) -> [u16; 3] {
        match self {
            Wdl::Win => [1000, 0, 0],
            Wdl::Loss => [0, 0, 1000],
            _ => [0, 1000, 0],
        }
    }
}

/// A UCI score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Moves to mate: positive when the side to move mates, 0 when it is mated.
    Mate(i32),
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// One legal move of the root position and what it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move in UCI, in the position's own squares.
    pub uci: String,
    /// The result, where the player knows it (in KPK).
    pub wdl: Option<Wdl>,
    pub score: Score,
    /// The plies to conversion through this move, where the player knows them (the bitbase).
    pub dtc: Option<u8>,
    /// The plies to the next zeroing move through this move (this one counted), for a win or a
    /// loss; `None` for a draw and outside KPK.
    pub dtz: Option<u32>,
    /// The reply the player expects, for `bestmove … ponder`.
    pub ponder: Option<String>,
    /// The distance to mate this move leaves the mover, where the DTM tables decide the move.
    pub dtm: Option<Dtm>,
}

/// Who chooses the moves of KPK positions.
pub enum Player {
    /// The play model file (the hybrid plus its move proposer): knows results and, with the
    /// committed DTZ model, depths to zeroing; not DTCs.
    Model(Box<PlayModel>),
    /// The bitbase: perfect moves, results, DTCs and DTZs.
    Perfect,
}

/// The tables a KPK root move list is read from.
pub struct Knowledge {
    pub player: Player,
    pub bb: Bitbase,
    /// The committed DTZ model: the play model's depths to zeroing.
    pub dtz: DtzModel,
    /// Distance to mate: the moves past promotion, and every move of the perfect player.
    pub tables: Tables,
}

impl Knowledge {
    /// The DTZ of a KPK position (Syzygy's sign: positive when the side to move wins).
    fn dtz_of(&self, p: &KpkPosition) -> i32 {
        match &self.player {
            Player::Perfect => i32::from(self.bb.dtz(p)),
            Player::Model(_) => i32::from(self.dtz.dtz(p.core())),
        }
    }

    /// The DTC through `mv` (plies to conversion), where the player knows it.
    fn dtc_through(&self, p: &KpkPosition, mv: Move) -> Option<u8> {
        match self.player {
            Player::Perfect => after(&self.bb, p, mv).1.map(|d| d + 1),
            Player::Model(_) => None,
        }
    }

    /// The player's own move in `p`, placed first among the moves of its result.
    fn preferred(&self, p: &KpkPosition) -> Option<Move> {
        match &self.player {
            Player::Model(model) => model.best_move(p),
            Player::Perfect => crate::play::perfect_move(&self.bb, p),
        }
    }

    /// Every legal move of the KPK position `o` with the halfmove clock `halfmove`, best first:
    /// by result (a win before a cursed win before a draw …), then the player's own move, then
    /// the quicker win (or the slower loss) by DTC where known, else by DTZ; ties keep the order
    /// of move generation.
    pub fn kpk_root_moves(&self, o: &Oriented, halfmove: u32) -> Vec<RootMove> {
        let p = o.position;
        let own = self.preferred(&p);
        let mut moves: Vec<(RootMove, bool)> =
            p.moves().into_iter().map(|mv| (self.kpk_root_move(o, mv, halfmove), Some(mv) == own)).collect();
        let order = |m: &RootMove, own: bool| {
            // Smaller is better: the quicker win, the slower loss.
            let depth = i64::from(m.dtc.map_or(m.dtz.unwrap_or(0), u32::from));
            let depth = if m.wdl <= Some(Wdl::BlessedLoss) { -depth } else { depth };
            (std::cmp::Reverse(m.wdl), !own, depth)
        };
        moves.sort_by_key(|(m, own)| order(m, *own));
        moves.into_iter().map(|(m, _)| m).collect()
    }

    /// What `mv` in `o` leads to, from the mover's point of view.
    fn kpk_root_move(&self, o: &Oriented, mv: Move, halfmove: u32) -> RootMove {
        let p = o.position;
        let zeroing = p.side() == Color::White && mv.from == p.wp();
        let (wdl, dtz, ponder) = match p.play(mv) {
            After::PawnCaptured => (Wdl::Draw, None, None),
            // Conversion: the queen or rook mates well inside the 50 moves the promotion starts.
            After::Promoted { outcome: Outcome::Win, .. } => (Wdl::Win, Some(1), None),
            After::Promoted { .. } => (Wdl::Draw, None, None),
            After::Position(next) => {
                let clock = if zeroing { 0 } else { halfmove.saturating_add(1) };
                let z = self.dtz_of(&next);
                let plies = z.unsigned_abs();
                let in_time = clock.saturating_add(plies) <= FIFTY_MOVES;
                let wdl = match (z.signum(), in_time) {
                    (0, _) => Wdl::Draw,
                    (-1, true) => Wdl::Win,
                    (-1, false) => Wdl::CursedWin,
                    (_, true) => Wdl::Loss,
                    (_, false) => Wdl::BlessedLoss,
                };
                let ponder =
                    self.preferred(&next).map(|reply| uci(&Oriented { position: next, ..*o }, reply));
                (wdl, (z != 0).then_some(if zeroing { 1 } else { plies + 1 }), ponder)
            }
        };
        let dtc = if matches!(wdl, Wdl::Win | Wdl::Loss) { self.dtc_through(&p, mv) } else { None };
        let win = WIN_CP - dtc.map_or(0, i32::from);
        let score = match wdl {
            Wdl::Win => Score::Cp(win),
            Wdl::Loss => Score::Cp(-win),
            _ => Score::Cp(0),
        };
        RootMove { uci: uci(o, mv), wdl: Some(wdl), score, dtc, dtz, ponder, dtm: None }
    }

    /// Every legal move of a position the DTM tables hold (KQK, KRK, KBK, KNK, KPK) with the
    /// distance to mate it leaves the mover, best first: the quickest mate, then a draw, then the
    /// longest resistance, ties in the byte order of the moves' UCI text. `None` outside the
    /// tables.
    pub fn dtm_root_moves(&self, board: &cozy_chess::Board) -> Option<Vec<RootMove>> {
        let mut moves = self.tables.moves(board)?;
        moves.sort_by_cached_key(|(mv, d)| (d.preference(), mv.to_string()));
        let wdl = |d: Dtm| match d.wdl {
            1 => Wdl::Win,
            0 => Wdl::Draw,
            _ => Wdl::Loss,
        };
        let root = |(mv, d): (cozy_chess::Move, Dtm)| RootMove {
            uci: mv.to_string(),
            wdl: Some(wdl(d)),
            score: d.uci_mate().map_or(Score::Cp(0), Score::Mate),
            dtc: None,
            dtz: None,
            ponder: self.dtm_reply(board, mv),
            dtm: Some(d),
        };
        Some(moves.into_iter().map(root).collect())
    }

    /// The reply the DTM tables choose after `mv` on `board` ([`Tables::best_move`]: the
    /// quickest mate, a draw kept, the longest resistance, ties to the lowest UCI text); `None`
    /// where the move mates or stalemates.
    fn dtm_reply(&self, board: &cozy_chess::Board, mv: cozy_chess::Move) -> Option<String> {
        let mut next = board.clone();
        next.play_unchecked(mv);
        self.tables.best_move(&next).map(|(reply, _)| reply.to_string())
    }

    /// The perfect player's KPK list ordered by distance to mate: a win or loss the 50-move rule
    /// keeps is scored `mate N` from the DTM tables, and the wins (then the draws, the losses)
    /// go quickest mate first, ties in UCI text order; each move's expected reply (`ponder`) is
    /// the tables' reply too. Cursed wins and blessed losses keep their place and score: the
    /// halfmove clock, read with the DTZ, decides which wins stand.
    pub fn by_dtm(&self, board: &cozy_chess::Board, mut moves: Vec<RootMove>) -> Vec<RootMove> {
        let Some(dtms) = self.tables.moves(board) else { return moves };
        for m in &mut moves {
            let found = dtms.iter().find(|(mv, _)| mv.to_string() == m.uci);
            m.ponder = found.and_then(|&(mv, _)| self.dtm_reply(board, mv));
            let d = found.map(|&(_, d)| d);
            if matches!(m.wdl, Some(Wdl::Win | Wdl::Loss)) {
                m.dtm = d;
                m.score = d.and_then(Dtm::uci_mate).map_or(m.score, Score::Mate);
            }
        }
        moves.sort_by_cached_key(|m| {
            (std::cmp::Reverse(m.wdl), m.dtm.map_or((1, 0), Dtm::preference), m.uci.clone())
        });
        moves
    }

    /// Whether the bitbase's perfect moves are played.
    pub fn is_perfect(&self) -> bool {
        matches!(self.player, Player::Perfect)
    }
}

/// The material of each piece, in centipawns: the static count that scores moves outside KPK.
fn material(piece: cozy_chess::Piece) -> i32 {
    use cozy_chess::Piece::*;
    match piece {
        Pawn => 100,
        Knight | Bishop => 300,
        Rook => 500,
        Queen => 900,
        King => 0,
    }
}

/// The material balance of `board` from `side`'s point of view, in centipawns.
pub fn balance(board: &cozy_chess::Board, side: cozy_chess::Color) -> i32 {
    cozy_chess::Piece::ALL
        .iter()
        .map(|&piece| {
            let count = |c| (board.pieces(piece) & board.colors(c)).len() as i32;
            material(piece) * (count(side) - count(!side))
        })
        .sum()
}

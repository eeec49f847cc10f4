//! One game of KPK between two players, from any legal position, as the match and `kpk play` use
//! it. A game ends at the pawn's promotion (a winning one converts; section 2's DTC counts to it),
//! when the lone king takes the pawn, at stalemate, when a position repeats, or after a ply limit.

use super::{after, perfect_move};
use crate::chess::bitbase::Bitbase;
use crate::chess::dtm::Tables;
use crate::chess::position::{After, KpkPosition, Move, Oriented};
use crate::chess::search::Values;
use crate::play::model::PlayModel;
use kpk_probe::{Color, Outcome};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Who chooses a side's moves.
pub enum Player<'a> {
    /// The bitbase: fastest win, longest defence, a draw kept ([`perfect_move`]).
    Perfect(&'a Bitbase),
    /// The play model file alone ([`PlayModel::best_move`]).
    Model(&'a PlayModel),
    /// A random move that keeps the side's result, seeded: what win/draw knowledge alone gives
    /// (the pawn side picks among winning moves, the lone king among drawing ones).
    Random { bb: &'a Bitbase, rng: Box<ChaCha8Rng> },
    /// Lookahead on an evaluator, with as many plies of search below the move as `values` were
    /// deepened ([`Values::best`]).
    Search(&'a Values),
    /// The DTM tables throughout: the quickest mate, the longest resistance, a draw kept, ties to
    /// the lowest UCI text ([`Tables::best_move`]).
    Dtm(&'a Tables),
}

impl<'a> Player<'a> {
    /// A random player seeded with `seed`.
    pub fn random(bb: &'a Bitbase, seed: u64) -> Player<'a> {
        Player::Random { bb, rng: Box::new(ChaCha8Rng::seed_from_u64(seed)) }
    }

    /// The player's name in PGN tags.
    pub fn name(&self) -> String {
        match self {
            Player::Perfect(_) => "kpk perfect (bitbase)".into(),
            Player::Model(_) => "kpk play model (models/kpk-play.hybrid)".into(),
            Player::Random { .. } => "kpk random result-keeping move".into(),
            Player::Search(v) => format!("kpk {} evaluator, {}-ply search", v.name(), v.depth()),
            Player::Dtm(_) => "kpk perfect by DTM (tables)".into(),
        }
    }

    /// The move to play in `p`, `None` when there is none.
    pub fn choose(&mut self, p: &KpkPosition) -> Option<Move> {
        self.choose_valued(p).map(|(mv, _)| mv)
    }

    /// The move to play in `p` and, for a player that evaluates, the value it gave the move.
    pub fn choose_valued(&mut self, p: &KpkPosition) -> Option<(Move, Option<f64>)> {
        if let Player::Search(v) = self {
            return v.best(p).map(|(mv, value)| (mv, Some(value)));
        }
        let mv = match self {
            Player::Perfect(bb) => perfect_move(bb, p),
            Player::Model(m) => m.best_move(p),
            Player::Random { bb, rng } => {
                let moves = p.moves();
                let keeps = |mv: &&Move| after(bb, p, **mv).0 == bb.outcome(p);
                let good: Vec<Move> = moves.iter().filter(keeps).copied().collect();
                let pool = if good.is_empty() { &moves } else { &good };
                pool.choose(rng.as_mut()).copied()
            }
            Player::Dtm(tables) => dtm_move(tables, p),
            Player::Search(_) => None,
        };
        mv.map(|mv| (mv, None))
    }
}

/// The DTM-optimal move of [`Tables::best_move`] in `p` (canonical orientation).
fn dtm_move(tables: &Tables, p: &KpkPosition) -> Option<Move> {
    let board: cozy_chess::Board = p.to_fen().parse().ok()?;
    let (best, _) = tables.best_move(&board)?;
    let o = Oriented { position: *p, transform: kpk_probe::Transform::IDENTITY };
    let best = best.to_string();
    p.moves().into_iter().find(|&mv| super::uci(&o, mv) == best)
}

/// One ply of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// The position before the move (canonical orientation).
    pub before: KpkPosition,
    pub mover: Color,
    pub mv: Move,
    /// DTC before and after the move (`None`: drawn; after a winning promotion, 0).
    pub dtc_before: Option<u8>,
    pub dtc_after: Option<u8>,
    /// Does the move give check?
    pub check: bool,
    /// Is the move checkmate (a promotion can mate)?
    pub mate: bool,
    /// The value the player's evaluator gave the move, for players that evaluate.
    pub value: Option<f64>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The pawn promoted and the new piece wins (KQK or KRK).
    Converted,
    /// The pawn promoted but the result is a draw (stalemate, the piece taken, a minor piece).
    PromotedToDraw,
    PawnTaken,
    Stalemate,
    Repetition,
    PlyLimit,
}

/// A whole game from its start position.
#[derive(Clone, Debug)]
pub struct Game {
    pub start: Oriented,
    pub plies: Vec<Ply>,
    pub end: End,
}

impl Game {
    /// The result from the pawn side's point of view: `Some(Win)`, `Some(Draw)`, or `None` when
    /// the ply limit stopped an unfinished game.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.end {
            End::Converted => Some(Outcome::Win),
            End::PlyLimit => None,
            _ => Some(Outcome::Draw),
        }
    }
}

/// Does the promoted piece on `q` mate the lone king? (It gives check, cannot be taken and the
/// king has no escape: section 2's conversion, seen by a PGN reader as `#`.)
fn promotion_check(p: &KpkPosition, mv: Move) -> (bool, bool) {
    use crate::chess::board::{KING_ATTACKS, slider_attacks};
    use crate::chess::position::Promotion;
    let (orthogonal, diagonal) = match mv.promotion {
        Some(Promotion::Queen) => (true, true),
        Some(Promotion::Rook) => (true, false),
        Some(Promotion::Bishop) => (false, true),
        _ => {
            // A knight on the eighth rank checks from two squares' jumps.
            let (f, r) = (mv.to.file() as i8, mv.to.rank() as i8);
            let (bf, br) = (p.bk().file() as i8, p.bk().rank() as i8);
            let check =
                ((f - bf).abs(), (r - br).abs()) == (1, 2) || ((f - bf).abs(), (r - br).abs()) == (2, 1);
            return (check, false);
        }
    };
    let attacks = slider_attacks(mv.to, p.wk().bit(), orthogonal, diagonal);
    let check = attacks & p.bk().bit() != 0;
    let guarded = KING_ATTACKS[p.wk().index()];
    let takes = KING_ATTACKS[p.bk().index()] & mv.to.bit() != 0 && guarded & mv.to.bit() == 0;
    let escapes = KING_ATTACKS[p.bk().index()] & !(guarded | attacks | p.wk().bit()) & !mv.to.bit();
    (check, check && !takes && escapes == 0)
}

/// Play from `start` until the game ends or `max_plies` plies are played. `pawn_side` plays the
/// side with the pawn, `lone_king` the other.
pub fn play<'a>(
    bb: &Bitbase,
    start: Oriented,
    pawn_side: &mut Player<'a>,
    lone_king: &mut Player<'a>,
    max_plies: usize,
) -> Game {
    let mut p = start.position;
    let mut seen = vec![p];
    let mut plies = Vec::new();
    loop {
        if plies.len() >= max_plies {
            return Game { start, plies, end: End::PlyLimit };
        }
        let player = if p.side() == Color::White { &mut *pawn_side } else { &mut *lone_king };
        let Some((mv, value)) = player.choose_valued(&p) else {
            return Game { start, plies, end: End::Stalemate };
        };
        let dtc_before = bb.dtc(&p).map(|d| d.0);
        let (_, dtc_after) = after(bb, &p, mv);
        let mut ply =
            Ply { before: p, mover: p.side(), mv, dtc_before, dtc_after, check: false, mate: false, value };
        match p.play(mv) {
            After::Position(next) => {
                ply.check = next.in_check();
                plies.push(ply);
                if seen.contains(&next) {
                    return Game { start, plies, end: End::Repetition };
                }
                seen.push(next);
                p = next;
            }
            After::PawnCaptured => {
                plies.push(ply);
                return Game { start, plies, end: End::PawnTaken };
            }
            After::Promoted { outcome, .. } => {
                (ply.check, ply.mate) = promotion_check(&p, mv);
                plies.push(ply);
                let end = if outcome == Outcome::Win { End::Converted } else { End::PromotedToDraw };
                return Game { start, plies, end };
            }
        }
    }
}

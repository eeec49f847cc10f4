//! Distance to mate at the command line: `kpk bitbase --endgame E --csv FILE` and `kpk probe` of
//! pawnless positions (KQK, KRK, KBK, KNK, either colour strong).

use anyhow::Context;
use clap::ValueEnum;
use cozy_chess::Board;
use kpk::chess::dtm::{Dtm, Tables};
use kpk::chess::endgame::Endgame;
use kpk::chess::pawnless::{PLACEMENTS, Pawnless, Piece};
use kpk::output::FileOut;
use kpk::{Color, KpkPosition, Square};

/// The endgames `kpk bitbase --endgame` writes.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EndgameName {
    Kpk,
    Kqk,
    Krk,
}

/// One row per legal position, White strong, both sides to move (KPK: the pawn on every file):
/// fen, wdl (side to move's view) and dtm (plies; 0 in a draw or a checkmate).
pub fn write_endgame_csv(which: EndgameName, tables: &Tables, out: &FileOut) -> anyhow::Result<()> {
    out.write_with(|w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record(["fen", "wdl", "dtm"])?;
        let mut row = |fen: String, d: Dtm| csv.write_record([fen, d.wdl.to_string(), d.plies.to_string()]);
        match which {
            EndgameName::Kpk => {
                for p in KpkPosition::all() {
                    let d = tables.kpk_dtm(&p);
                    let (wk, bk, wp) = (p.wk().index(), p.bk().index(), p.wp().index());
                    let wtm = p.side() == Color::White;
                    row(fen(&[('K', wk), ('k', bk), ('P', wp)], wtm), d)?;
                    row(fen(&[('K', wk ^ 7), ('k', bk ^ 7), ('P', wp ^ 7)], wtm), d)?;
                }
            }
            EndgameName::Kqk | EndgameName::Krk => {
                let (piece, letter) =
                    if matches!(which, EndgameName::Kqk) { (Piece::Queen, 'Q') } else { (Piece::Rook, 'R') };
                let legal = Pawnless::new(piece).masks().legal;
                for (w, &bits) in legal.iter().enumerate() {
                    let wtm = w < PLACEMENTS;
                    let (p, wk) = ((w % PLACEMENTS) / 64, w % 64);
                    for bk in kpk::chess::board::squares(bits) {
                        let sq = |i: usize| Square::new(i as u8).expect("a square");
                        let d = tables.pawnless_dtm(piece, wtm, [sq(p), sq(wk), bk]);
                        row(fen(&[('K', wk), ('k', bk.index()), (letter, p)], wtm), d)?;
                    }
                }
            }
        }
        csv.flush()
    })
    .with_context(|| format!("writing {}", out.display()))
}

/// A FEN of the given men (letter, square a1 = 0 … h8 = 63).
fn fen(men: &[(char, usize)], white_to_move: bool) -> String {
    let mut board = [None; 64];
    for &(c, sq) in men {
        board[sq] = Some(c);
    }
    let s = kpk::chess::position::fen_placement(&board);
    format!("{s} {} - - 0 1", if white_to_move { 'w' } else { 'b' })
}

/// A DTM in words: "win, DTM 19 plies", "loss, DTM 18 plies", "checkmated", "draw".
pub fn dtm_words(d: Dtm) -> String {
    match (d.wdl, d.plies) {
        (0, _) => "draw".into(),
        (-1, 0) => "checkmated".into(),
        (1, n) => format!("win, DTM {n} plies (mate in {})", n.div_ceil(2)),
        (_, n) => format!("loss, DTM {n} plies (mated in {})", n / 2),
    }
}

/// Probe a position of KQK, KRK, KBK or KNK: its DTM and every legal move's, best first (a
/// quicker mate, then a draw, then a longer resistance; ties in UCI text order). `None` when the
/// FEN is not one of those endgames.
pub fn print_pawnless_probe(tables: &Tables, fen: &str) -> Option<std::io::Result<()>> {
    let board: Board = fen.trim().parse().ok()?;
    if !board.pieces(cozy_chess::Piece::Pawn).is_empty() || board.occupied().len() != 3 {
        return None;
    }
    let d = tables.probe(&board)?;
    let mut moves = tables.moves(&board)?;
    moves.sort_by_key(|&(mv, d)| (order(d), mv.to_string()));
    let print = || -> std::io::Result<()> {
        outln!("{board}")?;
        outln!("  {}", dtm_words(d))?;
        if moves.is_empty() {
            return outln!("  no legal moves: {}", if d.wdl == 0 { "stalemate" } else { "checkmate" });
        }
        outln!("  {:<8}{:<8}{:>6}  note", "move", "result", "DTM")?;
        for (i, &(mv, after)) in moves.iter().enumerate() {
            let result = ["loss", "draw", "win"][(after.wdl + 1) as usize];
            let dtm = if after.wdl == 0 { "-".into() } else { (after.plies - 1).to_string() };
            let best = if i == 0 || order(after) == order(moves[0].1) { "best" } else { "" };
            outln!("  {:<8}{result:<8}{dtm:>6}  {best}", mv.to_string())?;
        }
        Ok(())
    };
    Some(print())
}

fn order(d: Dtm) -> (u8, i64) {
    match d.wdl {
        1 => (0, i64::from(d.plies)),
        0 => (1, 0),
        _ => (2, -i64::from(d.plies)),
    }
}

//! Every legal position's three answers, one line each, for the one-file C reader's test
//! (`tests/c/reader.c`, run by `.ci/run`): `white_king black_king pawn black_to_move wdl dtz from
//! to promotion`, squares `a1 = 0 … h8 = 63` in the canonical orientation (the pawn White's on files
//! a–d); `wdl` 1 when the pawn side wins, else 0; `dtz` Syzygy's, from the side to move's point of
//! view; then the play model's move (`promotion` 0 none, 1 queen, 2 rook, 3 bishop, 4 knight), or
//! `-1 -1 0` when the side to move has none. Positions come in index order.
//!
//! The win/draw and DTZ columns are the bitbase's; the move is the play model's, and the program
//! exits with an error where the DTZ model disagrees with the bitbase or the move of the side whose
//! moves matter (the pawn side winning, the lone king drawing) is not perfect play
//! (`kpk::play::is_perfect`).
//!
//! `cargo run --release --example reader_answers > answers.txt`

use kpk::play::model::PlayModel;
use kpk::{Bitbase, KpkPosition, Outcome};
use std::io::Write;
use std::path::Path;

fn main() -> anyhow::Result<()> {
    let play = PlayModel::load(Path::new("models/kpk-play.hybrid"))?;
    let bytes = std::fs::read("models/kpk-dtz.hybrid")?;
    let dtz =
        kpk_probe::DtzModel::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("models/kpk-dtz.hybrid: {e}"))?;
    let bb = Bitbase::generate();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for p in KpkPosition::all() {
        let win = bb.outcome(&p) == Outcome::Win;
        anyhow::ensure!(dtz.dtz(p.core()) == bb.dtz(&p), "the DTZ model is wrong on {}", p.to_fen());
        let mv = play.best_move(&p);
        // The side whose moves matter (the pawn side winning, the lone king drawing) plays perfectly.
        let matters = win == (p.side() == kpk::Color::White);
        anyhow::ensure!(
            !matters || mv.is_some_and(|mv| kpk::play::is_perfect(&bb, &p, mv)) || p.moves().is_empty(),
            "the play model's move is not perfect in {}",
            p.to_fen()
        );
        let (from, to, piece) = mv.map_or((-1, -1, 0), |mv| {
            let piece = mv.promotion.map_or(0, |x| {
                1 + kpk::chess::position::Promotion::ALL.iter().position(|&y| y == x).unwrap_or(0)
            });
            (mv.from.index() as i32, mv.to.index() as i32, piece)
        });
        let black = u8::from(p.side() == kpk::Color::Black);
        let (wk, bk, wp) = (p.wk().index(), p.bk().index(), p.wp().index());
        writeln!(out, "{wk} {bk} {wp} {black} {} {} {from} {to} {piece}", u8::from(win), bb.dtz(&p))?;
    }
    out.flush()?;
    Ok(())
}

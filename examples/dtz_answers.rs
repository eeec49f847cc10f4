//! Every legal position's DTZ from the bitbase, one line each, for the C and Python readers of
//! the DTZ model (`.ci/run`): `white_king black_king pawn black_to_move dtz`, squares `a1 = 0 …
//! h8 = 63` in the canonical orientation (the pawn White's on files a–d), DTZ from the side to
//! move's point of view. Positions come in index order. Exits with an error if the Rust reader of
//! the model file given disagrees anywhere.
//!
//! `cargo run --release --example dtz_answers -- models/kpk-dtz.hybrid > answers.txt`

use kpk::{Bitbase, KpkPosition};
use std::io::Write;

fn main() -> anyhow::Result<()> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "models/kpk-dtz.hybrid".into());
    let bytes = std::fs::read(&path)?;
    let model = kpk_probe::DtzModel::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    let bb = Bitbase::generate();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for p in KpkPosition::all() {
        let dtz = bb.dtz(&p);
        anyhow::ensure!(model.dtz(p.core()) == dtz, "{path} is wrong on {}", p.to_fen());
        let black = u8::from(p.side() == kpk::Color::Black);
        let (wk, bk, wp) = (p.wk().index(), p.bk().index(), p.wp().index());
        writeln!(out, "{wk} {bk} {wp} {black} {dtz}")?;
    }
    out.flush()?;
    Ok(())
}

//! `kpk play`'s games go on past a winning promotion to checkmate. With both sides choosing by the
//! DTM tables the game from every 500th won KPK position (either side to move, the pawn of either
//! colour, each given as FEN) mates in exactly the start's DTM, each ply past the promotion one
//! ply nearer mate; with the bitbase's DTC-optimal players it still ends in mate; a drawn start
//! stays a draw; and the PGN's last move carries `#`.

use kpk::chess::dtm::Tables;
use kpk::chess::position::{KpkPosition, Oriented};
use kpk::play::game::{End, Player};
use kpk::play::mating::{MatedGame, play_to_mate};
use kpk::play::pgn::to_pgn_mated;
use kpk::{Bitbase, Outcome};
use kpk_probe::Transform;
use std::process::Command;

/// Every 500th won start as FEN, in White's and in Black's colours.
fn won_starts(bb: &Bitbase) -> Vec<String> {
    let won: Vec<KpkPosition> = KpkPosition::all().filter(|p| bb.outcome(p) == Outcome::Win).collect();
    let mut out = Vec::new();
    for p in won.iter().step_by(500) {
        for flip_colours in [false, true] {
            out.push(p.to_fen_with(Transform { flip_colours, mirror_files: false }));
        }
    }
    out
}

fn game<'a>(
    bb: &Bitbase,
    tables: &Tables,
    fen: &str,
    pawn: &mut Player<'a>,
    lone: &mut Player<'a>,
) -> MatedGame {
    let start = Oriented::from_fen(fen).expect("a KPK FEN");
    play_to_mate(bb, tables, start, pawn, lone, 400)
}

#[test]
fn dtm_play_mates_every_sampled_won_start_in_exactly_its_dtm() {
    let (bb, tables) = (Bitbase::generate(), Tables::generate());
    let starts = won_starts(&bb);
    assert!(starts.len() > 400, "{}", starts.len());
    let (mut both_sides, mut colours) = ([false; 2], [false; 2]);
    for fen in &starts {
        let dtm = tables.probe_fen(fen).expect("KPK");
        assert!(dtm.wdl != 0 && dtm.plies > 0, "{fen}: {dtm:?}");
        let m = game(&bb, &tables, fen, &mut Player::Dtm(&tables), &mut Player::Dtm(&tables));
        assert_eq!(m.game.end, End::Converted, "{fen}");
        assert!(m.mated, "{fen}");
        let plies = m.game.plies.len() + m.mating.len();
        assert_eq!(plies as u32, dtm.plies, "{fen}");
        // Past the promotion every ply takes mate one ply nearer, down to 0.
        for (i, ply) in m.mating.iter().enumerate() {
            assert_eq!(ply.dtm_before, ply.dtm_after + 1, "{fen}: {ply:?}");
            assert_eq!(ply.dtm_after as usize, m.mating.len() - 1 - i, "{fen}");
        }
        let pgn = to_pgn_mated(&m, "w", "b");
        let flip = m.game.start.transform.flip_colours;
        let result = if flip { "0-1" } else { "1-0" };
        assert!(pgn.trim_end().ends_with(&format!("{{checkmate}} {result}")), "{pgn}");
        assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{pgn}");
        both_sides[usize::from(dtm.wdl == 1)] = true;
        colours[usize::from(flip)] = true;
    }
    assert_eq!((both_sides, colours), ([true; 2], [true; 2]));
}

#[test]
fn bitbase_players_mate_every_sampled_won_start() {
    let (bb, tables) = (Bitbase::generate(), Tables::generate());
    for fen in won_starts(&bb) {
        let m = game(&bb, &tables, &fen, &mut Player::Perfect(&bb), &mut Player::Perfect(&bb));
        assert!(m.mated, "{fen}");
        let last =
            m.mating.last().map_or(m.game.plies.last().is_some_and(|p| p.mate), |p| p.san.ends_with('#'));
        assert!(last, "{fen}");
    }
}

#[test]
fn a_drawn_start_stays_drawn_without_mating_plies() {
    let (bb, tables) = (Bitbase::generate(), Tables::generate());
    let fen = "8/8/8/8/8/1k6/1P6/1K6 w - - 0 1";
    let m = game(&bb, &tables, fen, &mut Player::Dtm(&tables), &mut Player::Dtm(&tables));
    assert_ne!(m.game.end, End::Converted);
    assert!(m.mating.is_empty() && !m.mated);
    assert!(to_pgn_mated(&m, "w", "b").trim_end().ends_with("1/2-1/2"));
}

#[test]
fn the_cli_pgn_of_a_won_start_ends_in_mate() {
    for (fen, result) in
        [("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1", "1-0"), ("3k4/8/8/8/8/8/2p5/4K3 b - - 0 1", "0-1")]
    {
        let out = Command::new(env!("CARGO_BIN_EXE_kpk"))
            .args(["play", fen, "--black", "model"])
            .output()
            .expect("run kpk");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let pgn = String::from_utf8(out.stdout).expect("UTF-8");
        // The movetext without its comments.
        let mut text = String::new();
        for part in pgn.split('{') {
            text.push_str(part.split_once('}').map_or(part, |(_, rest)| rest));
        }
        let moves: Vec<&str> = text.split_whitespace().filter(|t| !t.ends_with('.')).collect();
        let last_move = moves[moves.len() - 2];
        assert!(last_move.ends_with('#'), "{pgn}");
        assert_eq!(moves[moves.len() - 1], result, "{pgn}");
        assert!(pgn.contains("DTM 1 -> DTM 0"), "{pgn}");
    }
}

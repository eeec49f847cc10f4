//! The play model file alone plays perfectly: `kpk query --best-move` on every legal position, in
//! its canonical orientation, mirrored, colour-flipped and both, checked against the bitbase.
//!
//! Each answer is read back independently: the UCI move's squares are mapped from the FEN's own
//! orientation to the canonical one, the move must be legal there, and where the specification
//! asks for it the move must be optimal: the pawn side in a won position wins in exactly DTC − 1
//! (a winning promotion where DTC is 1), the lone king in a drawn position keeps the draw.

mod support;

use kpk::chess::position::{After, Move};
use kpk::play::model::PlayModel;
use kpk::play::propose::{N_FEATURES, N_REGIMES};
use kpk::{Bitbase, Color, KpkPosition, Oriented, Outcome};
use kpk_probe::Transform;
use std::path::Path;

const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk-play.hybrid");

fn transforms() -> [Transform; 4] {
    let t = |flip_colours, mirror_files| Transform { flip_colours, mirror_files };
    [t(false, false), t(false, true), t(true, false), t(true, true)]
}

/// The legal move of `p` that the UCI text names in `o`'s orientation, if any.
fn parse_uci(o: &Oriented, uci: &str) -> Option<Move> {
    let sq = |s: &str| s.parse().ok().map(|x| o.transform.apply(x));
    let (from, to) = (sq(uci.get(0..2)?)?, sq(uci.get(2..4)?)?);
    let letter = uci.get(4..).unwrap_or("");
    o.position.moves().into_iter().find(|mv| {
        mv.from == from
            && mv.to == to
            && mv.promotion.map_or(String::new(), |p| p.letter().to_ascii_lowercase().to_string()) == letter
    })
}

/// DTC after a move for the pawn side (0: winning promotion), `None` if the move does not win.
fn dtc_after(bb: &Bitbase, p: &KpkPosition, mv: Move) -> Option<u8> {
    match p.play(mv) {
        After::Position(s) => bb.dtc(&s).map(|d| d.0),
        After::PawnCaptured => None,
        After::Promoted { outcome, .. } => (outcome == Outcome::Win).then_some(0),
    }
}

#[test]
fn best_move_is_legal_everywhere_and_perfect_where_specified() {
    let bb = Bitbase::generate();
    let fens: Vec<String> = KpkPosition::all().flat_map(|p| transforms().map(|t| p.to_fen_with(t))).collect();
    let args = ["query", "--model", MODEL, "--best-move", "--stdin"];
    let out = support::kpk_with_input(Path::new(env!("CARGO_MANIFEST_DIR")), &args, fens.join("\n"));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), fens.len());
    let (mut won, mut drawn) = (0, 0);
    for (fen, line) in fens.iter().zip(lines) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "{line}");
        assert_eq!(cols[0], fen);
        let o = Oriented::from_fen(fen).unwrap();
        let p = o.position;
        assert_eq!(cols[1], bb.outcome(&p).to_string(), "{fen}");
        if cols[3] == "-" {
            assert!(p.moves().is_empty(), "{fen}: `-` but there are legal moves");
            continue;
        }
        let mv = parse_uci(&o, cols[3]).unwrap_or_else(|| panic!("{fen}: {} is not legal", cols[3]));
        match (p.side(), bb.dtc(&p)) {
            (Color::White, Some(d)) => {
                assert_eq!(dtc_after(&bb, &p, mv), Some(d.0 - 1), "{fen}: {} is not optimal", cols[3]);
                won += 1;
            }
            (Color::Black, None) => {
                let holds = match p.play(mv) {
                    After::Position(s) => bb.outcome(&s) == Outcome::Draw,
                    After::PawnCaptured => true,
                    After::Promoted { .. } => false,
                };
                assert!(holds, "{fen}: {} loses the draw", cols[3]);
                drawn += 1;
            }
            _ => {}
        }
    }
    // Every won position with the pawn side to move, every drawn one with the lone king to move
    // (less the stalemates), in four orientations.
    let stalemates = KpkPosition::all().filter(|p| p.side() == Color::Black && p.moves().is_empty()).count();
    assert_eq!(stalemates, 9);
    assert_eq!(won, 4 * 62_480);
    assert_eq!(drawn, 4 * (35_210 - stalemates));
}

#[test]
fn the_model_file_round_trips_and_rejects_corruption() {
    let bytes = std::fs::read(MODEL).unwrap();
    assert_eq!(bytes[4], kpk::play::model::PLAY_VERSION);
    let m = PlayModel::from_bytes(&bytes, "model").unwrap();
    assert_eq!(m.to_bytes(), bytes);
    assert!(bytes.len() < 2_658, "{} bytes: not smaller than the version-1 play model", bytes.len());
    let at = [0, 4, 7, 12, bytes.len() / 2, bytes.len() - 1];
    for (what, b) in kpk::scratch::corruptions(&bytes, &at, &[0x10]) {
        assert!(PlayModel::from_bytes(&b, "damaged").is_err(), "{what} accepted");
    }
}

/// `bytes` with the header's length and the CRC made to fit again.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.truncate(bytes.len() - 4);
    let total = (bytes.len() + 4) as u32;
    bytes[5..9].copy_from_slice(&total.to_le_bytes());
    let crc = kpk_probe::bits::crc32(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn a_well_sealed_file_with_a_bad_field_is_refused() {
    let bytes = std::fs::read(MODEL).unwrap();
    let w = 11 + usize::from(u16::from_le_bytes([bytes[9], bytes[10]])); // the weight count
    let e = w + 1 + N_REGIMES * N_FEATURES; // the exception count, then the two Rice parameters
    let edit = |at: usize, value: u8| {
        let mut b = bytes.clone();
        b[at] = value;
        resealed(b)
    };
    let one_more = (u32::from_le_bytes([bytes[e], bytes[e + 1], bytes[e + 2], 0]) + 1).to_le_bytes();
    let mut more = bytes.clone();
    more[e..e + 3].copy_from_slice(&one_more[..3]);
    let cases = [
        ("version 3", edit(4, 3)),
        ("version 0", edit(4, 0)),
        ("11 weights in a version-2 file", edit(w, 11)),
        ("15 weights in a version-2 file", edit(w, N_FEATURES as u8)),
        ("one exception more than the bits hold", resealed(more)),
        ("gap Rice parameter 25", edit(e + 3, 25)),
        ("ordinal Rice parameter 9", edit(e + 4, 9)),
        ("a byte after the exception table", resealed([&bytes[..], &[0]].concat())),
    ];
    assert_eq!(PlayModel::from_bytes(&resealed(bytes.clone()), "resealed").unwrap().to_bytes(), bytes);
    for (what, b) in cases {
        assert!(PlayModel::from_bytes(&b, "bad field").is_err(), "{what} accepted");
    }
}

/// A version-1 file (the 2,658 B play model over the net hybrid, 11 proposer weights, exceptions
/// by position index) still loads and plays perfectly where it claims to, and rewrites as
/// version 2 with the same moves.
#[test]
fn a_version_1_file_still_loads_and_plays_perfectly() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/kpk-play-v1.hybrid")).unwrap();
    assert_eq!((bytes.len(), bytes[4]), (2_658, 1));
    let m = PlayModel::from_bytes(&bytes, "v1").unwrap();
    assert_eq!(m.exception_count(), 1_905);
    let v2 = PlayModel::from_bytes(&m.to_bytes(), "v2").unwrap();
    assert_eq!(v2, m);
    let bb = Bitbase::generate();
    let wrong = KpkPosition::all()
        .filter(|p| match p.side() {
            Color::White => bb.dtc(p).is_some(),
            Color::Black => bb.dtc(p).is_none() && !p.moves().is_empty(),
        })
        .filter(|p| !m.best_move(p).is_some_and(|mv| kpk::play::is_perfect(&bb, p, mv)))
        .count();
    assert_eq!(wrong, 0);
}

#[test]
fn compress_play_rebuilds_the_committed_file_byte_for_byte() {
    let dir = support::Scratch::new("compress-play");
    let out = dir.join("play.hybrid");
    let hybrid = concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk.hybrid");
    let run =
        support::kpk_in(dir.path(), &["compress-play", "--hybrid", hybrid, "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(std::fs::read(out).unwrap(), std::fs::read(MODEL).unwrap());
}

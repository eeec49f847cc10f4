//! The KRK model (`models/krk.hybrid`) answers every legal KRK position exactly, both sides to
//! move, in every orientation (the eight symmetries of the board, and the colours swapped so
//! that Black holds the rook), checked against kpk's DTM table read through its own prober
//! (`Tables::probe`, which neither folds the symmetry nor applies the one-ply rule). Damaged files
//! are refused with one line.

use cozy_chess::{Board, BoardBuilder, Color, Piece, Square};
use kpk::chess::dtm::{Dtm, Tables};
use kpk::dataset::krk::KrkPosition;
use kpk::hybrid::krk::DEFAULT_KRK_MODEL_BYTES;
use kpk::hybrid::krk_query::answer_board;
use kpk_probe::krk::KrkModel;
use rayon::prelude::*;
use std::io::Write;
use std::process::{Command, Stdio};

const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/krk.hybrid");

/// Orientation `o` (0..16) of a square: bit 0 mirrors the files, bit 1 flips the ranks, bit 2
/// reflects in the a1-h8 diagonal; bit 3 (the colour swap) flips the ranks once more.
fn orient(o: usize, s: kpk_probe::Square) -> Square {
    let (mut f, mut r) = (s.file() as usize, s.rank() as usize);
    if o & 4 != 0 {
        std::mem::swap(&mut f, &mut r);
    }
    if o & 1 != 0 {
        f = 7 - f;
    }
    if o & 2 != 0 {
        r = 7 - r;
    }
    if o & 8 != 0 {
        r = 7 - r;
    }
    Square::index(r * 8 + f)
}

/// Position `p` in orientation `o`; with bit 3 set, Black holds the rook.
fn board(p: &KrkPosition, o: usize) -> Board {
    let (strong, weak) = if o & 8 == 0 { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
    let mut b = BoardBuilder::empty();
    b.board[orient(o, p.wk) as usize] = Some((Piece::King, strong));
    b.board[orient(o, p.wr) as usize] = Some((Piece::Rook, strong));
    b.board[orient(o, p.bk) as usize] = Some((Piece::King, weak));
    b.side_to_move = if p.white_to_move { strong } else { weak };
    b.build().expect("a legal position")
}

#[test]
fn every_legal_position_in_every_orientation_is_answered_exactly() {
    let tables = Tables::generate();
    let model = KrkModel::from_bytes(DEFAULT_KRK_MODEL_BYTES).unwrap();
    let all: Vec<KrkPosition> = KrkPosition::all().collect();
    assert_eq!(all.len(), 399_112);
    let wrong: Vec<String> = all
        .par_iter()
        .flat_map_iter(|p| (0..16).map(move |o| (p, o)))
        .filter_map(|(p, o)| {
            let b = board(p, o);
            let truth = tables.probe(&b).expect("KRK");
            let a = answer_board(&model, &b).ok()?;
            ((a.wdl, a.plies) != (truth.wdl, truth.plies)).then(|| format!("{b}: {a:?} vs {truth:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{} wrong, first {:?}", wrong.len(), wrong.first());
    let answered =
        all.par_iter().filter(|p| (0..16).all(|o| answer_board(&model, &board(p, o)).is_ok())).count();
    assert_eq!(answered, all.len());
}

/// The answer `kpk query --dtm` prints for a DTM: win or draw for the rook's side, and the signed
/// plies.
fn expected(d: Dtm) -> (&'static str, i32) {
    (if d.wdl == 0 { "draw" } else { "win" }, d.signed())
}

#[test]
fn kpk_query_dtm_answers_every_legal_position_from_the_model_file() {
    let tables = Tables::generate();
    let all: Vec<KrkPosition> = KrkPosition::all().collect();
    // Position i in orientation i mod 16: every orientation, each on a sixteenth of the positions.
    let boards: Vec<Board> = all.par_iter().enumerate().map(|(i, p)| board(p, i % 16)).collect();
    let input: String = boards.iter().map(|b| format!("{b}\n")).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .args(["query", "--dtm", "--model", MODEL, "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kpk");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), boards.len());
    for (line, b) in lines.iter().zip(&boards) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (result, plies) = expected(tables.probe(b).unwrap());
        assert_eq!(cols.len(), 4, "{line}");
        assert_eq!(cols[0], b.to_string());
        assert_eq!((cols[1], cols[3].parse::<i32>().unwrap()), (result, plies), "{line}");
        let white_to_move =
            b.side_to_move() == b.color_on(b.pieces(Piece::Rook).next_square().unwrap()).unwrap();
        assert_eq!(cols[2] == "rule", !white_to_move, "{line}");
    }
}

#[test]
fn damaged_files_are_refused() {
    let bytes = DEFAULT_KRK_MODEL_BYTES;
    // Every byte of the fixed fields and the first and last of the stream, and every 37th.
    let at: Vec<usize> = (0..bytes.len()).filter(|&i| i < 40 || i + 8 > bytes.len() || i % 37 == 0).collect();
    for (what, b) in kpk::scratch::corruptions(bytes, &at, &[0x01, 0x80, 0xFF]) {
        assert!(KrkModel::from_bytes(&b).is_err(), "{what} accepted");
    }
}

/// Run `kpk` with `args`: its exit code, standard output and standard error.
fn kpk(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kpk")).args(args).output().expect("run kpk");
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap(), text(out.stdout), text(out.stderr))
}

#[test]
fn a_damaged_model_file_is_one_error_line() {
    let dir = std::env::temp_dir().join(format!("kpk-krk-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fen = "8/8/8/8/8/2k5/8/R3K3 w - - 0 1";
    for (name, mangle) in [("flipped", 0usize), ("cut", 1), ("other kind", 2)] {
        let mut b = DEFAULT_KRK_MODEL_BYTES.to_vec();
        match mangle {
            0 => b[100] ^= 0x10,
            1 => b.truncate(b.len() / 2),
            _ => b = kpk::hybrid::DEFAULT_MODEL_BYTES.to_vec(),
        }
        let path = dir.join("krk.hybrid");
        std::fs::write(&path, &b).unwrap();
        let (code, out, err) = kpk(&["query", "--dtm", "--model", path.to_str().unwrap(), fen]);
        assert_eq!((code, out.as_str()), (2, ""), "{name}");
        assert!(err.starts_with("kpk: error: ") && err.lines().count() == 1, "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn other_material_and_illegal_positions_are_refused_one_line_each() {
    let krk = "8/8/8/8/8/2k5/8/R3K3 w - - 0 1";
    let kpk_fen = "8/8/8/8/8/2k5/6P1/4K3 w - - 0 1";
    let checked = "8/8/8/8/8/2k5/8/2R1K3 w - - 0 1"; // Black in check with White to move
    let (code, out, err) = kpk(&["query", "--dtm", krk, kpk_fen, "not a fen", checked]);
    assert_eq!(code, 1);
    let source = out.strip_prefix(&format!("{krk}\twin\t")).and_then(|r| r.strip_suffix("\t21\n"));
    assert!(matches!(source, Some("tree" | "exception")), "{out}");
    let errors: Vec<&str> = err.lines().collect();
    assert_eq!(errors.len(), 3, "{err}");
    assert!(errors[0].starts_with("kpk: error: argument 2: not KRK material"), "{err}");
    assert!(errors[1].starts_with("kpk: error: argument 3: "), "{err}");
    assert!(errors[2].starts_with("kpk: error: argument 4: illegal or unreadable FEN"), "{err}");
    // Without --dtm a KRK position is pointed to it; a KRK model answers only with --dtm.
    let (code, _, err) = kpk(&["query", krk]);
    assert_eq!(code, 2);
    assert!(err.contains("kpk query --dtm") && err.lines().count() == 1, "{err}");
    let (code, _, err) = kpk(&["query", "--model", MODEL, krk]);
    assert_eq!(code, 2);
    assert!(err.contains("--dtm") && err.lines().count() == 1, "{err}");
}

#[test]
fn the_worked_example_is_the_encoders_file_byte_for_byte() {
    use kpk_probe::krk::{Correction, ValueTree};
    use kpk_probe::value_tree::Node;
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/MODEL_FORMATS.md")).unwrap();
    let section = doc.split("## The KRK model").nth(1).unwrap();
    let dump = section.split("```text\n").nth(1).unwrap().split("```").next().unwrap();
    let printed: Vec<u8> = dump
        .lines()
        .flat_map(|l| {
            l.split("  ").next().unwrap().split_whitespace().map(|h| u8::from_str_radix(h, 16).unwrap())
        })
        .collect();
    let nodes = vec![Node::Split { x: 6, t: 0, right: 2 }, Node::Leaf(3), Node::Leaf(12)];
    let tree = ValueTree::new(nodes, 5);
    let (bytes, _, _) = kpk::hybrid::krk::encode(&tree, &[Correction { place: 0, delta: -2 }]);
    assert_eq!(printed, bytes);
    let m = KrkModel::from_bytes(&bytes).unwrap();
    let sq = |s: &str| s.parse::<kpk_probe::Square>().unwrap().number();
    assert_eq!(m.dtm(sq("a1"), sq("b1"), sq("c2"), true).unwrap().plies, 19);
    assert_eq!(m.dtm(sq("a1"), sq("b1"), sq("a3"), true).unwrap().plies, 5);
}

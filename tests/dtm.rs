//! DTM on every legal position of KQK, KRK, KBK, KNK and KPK against a computation written here:
//! cozy-chess's move generator (not kpk's), one graph of all five endgames (a promotion an edge
//! into the pawnless part, a capture an edge to a draw), and DTM by plain value iteration from
//! "draw everywhere" until nothing changes. Nothing of kpk's solver is used but its answers.

use cozy_chess::{Board, BoardBuilder, Color, Piece, Square};
use kpk::chess::dtm::{Dtm, Tables};
use kpk::chess::pawnless;
use kpk::chess::position::KpkPosition;
use std::collections::HashMap;
use std::sync::OnceLock;

/// (strong man, its square, white king, black king, white to move); White is the strong side.
type Key = (Piece, usize, usize, usize, bool);

fn board(k: Key) -> Option<Board> {
    let (man, sq, wk, bk, wtm) = k;
    let (s, w, b) = (Square::index(sq), Square::index(wk), Square::index(bk));
    if sq == wk
        || sq == bk
        || wk == bk
        || (w.file() as i32 - b.file() as i32).abs() <= 1 && (w.rank() as i32 - b.rank() as i32).abs() <= 1
    {
        return None;
    }
    let mut builder = BoardBuilder::empty();
    *builder.square_mut(s) = Some((man, Color::White));
    *builder.square_mut(w) = Some((Piece::King, Color::White));
    *builder.square_mut(b) = Some((Piece::King, Color::Black));
    builder.side_to_move = if wtm { Color::White } else { Color::Black };
    builder.build().ok()
}

/// The key of a board of the five endgames, or `None` for two bare kings (a draw).
fn key(b: &Board) -> Option<Key> {
    let man_bb = b.colors(Color::White) & !b.pieces(Piece::King);
    let sq = man_bb.next_square()?;
    let man = b.piece_on(sq).expect("a man");
    Some((
        man,
        sq as usize,
        b.king(Color::White) as usize,
        b.king(Color::Black) as usize,
        b.side_to_move() == Color::White,
    ))
}

struct Graph {
    keys: Vec<Key>,
    /// Each legal move's target: a position's number, or `None` for a draw (a capture).
    children: Vec<Vec<Option<usize>>>,
    in_check: Vec<bool>,
}

fn graph() -> Graph {
    let mut keys = Vec::new();
    let mut boards = Vec::new();
    for man in [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight, Piece::Pawn] {
        for sq in 0..64 {
            if man == Piece::Pawn && (!(8..56).contains(&sq) || sq % 8 >= 4) {
                continue;
            }
            for wk in 0..64 {
                for bk in 0..64 {
                    for wtm in [true, false] {
                        if let Some(b) = board((man, sq, wk, bk, wtm)) {
                            keys.push((man, sq, wk, bk, wtm));
                            boards.push(b);
                        }
                    }
                }
            }
        }
    }
    let id: HashMap<Key, usize> = keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    let mut children = Vec::with_capacity(boards.len());
    let mut in_check = Vec::with_capacity(boards.len());
    for b in &boards {
        let mut out = Vec::new();
        b.generate_moves(|ms| {
            for mv in ms {
                let mut after = b.clone();
                after.play_unchecked(mv);
                out.push(key(&after).map(|k| id[&k]));
            }
            false
        });
        children.push(out);
        in_check.push(!b.checkers().is_empty());
    }
    Graph { keys, children, in_check }
}

/// DTM by value iteration: each round, every position takes the best of its moves over the last
/// round's values (a win the quickest, a loss the longest); no move is mate or stalemate.
fn oracle(g: &Graph) -> Vec<Dtm> {
    let mut v = vec![Dtm::DRAW; g.keys.len()];
    loop {
        let next: Vec<Dtm> = (0..g.keys.len())
            .map(|i| {
                if g.children[i].is_empty() {
                    return if g.in_check[i] { Dtm { wdl: -1, plies: 0 } } else { Dtm::DRAW };
                }
                let after = g.children[i].iter().map(|c| c.map_or(Dtm::DRAW, |c| v[c]));
                let mut best: Option<Dtm> = None;
                for a in after {
                    let mine = match a.wdl {
                        0 => Dtm::DRAW,
                        w => Dtm { wdl: -w, plies: a.plies + 1 },
                    };
                    let rank = |d: Dtm| match d.wdl {
                        1 => (0, i64::from(d.plies)),
                        0 => (1, 0),
                        _ => (2, -i64::from(d.plies)),
                    };
                    if best.is_none_or(|b| rank(mine) < rank(b)) {
                        best = Some(mine);
                    }
                }
                best.expect("a move")
            })
            .collect();
        if next == v {
            return v;
        }
        v = next;
    }
}

fn tables_dtm(t: &Tables, k: Key) -> Dtm {
    let (man, sq, wk, bk, wtm) = k;
    let s = |i: usize| kpk_probe::Square::new(i as u8).unwrap();
    let piece = match man {
        Piece::Queen => pawnless::Piece::Queen,
        Piece::Rook => pawnless::Piece::Rook,
        Piece::Bishop => pawnless::Piece::Bishop,
        Piece::Knight => pawnless::Piece::Knight,
        _ => {
            let side = if wtm { kpk_probe::Color::White } else { kpk_probe::Color::Black };
            return t.kpk_dtm(&KpkPosition::new(s(wk), s(bk), s(sq), side).unwrap());
        }
    };
    t.pawnless_dtm(piece, wtm, [s(sq), s(wk), s(bk)])
}

/// The graph and its oracle values, computed once for the tests of this file.
fn solved() -> &'static (Graph, Vec<Dtm>) {
    static SOLVED: OnceLock<(Graph, Vec<Dtm>)> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let g = graph();
        let v = oracle(&g);
        (g, v)
    })
}

#[test]
fn dtm_of_every_position_of_the_five_endgames_matches_value_iteration() {
    let (g, want) = solved();
    let t = Tables::generate();
    let mut longest: HashMap<(Piece, bool), u32> = HashMap::new();
    for (i, &k) in g.keys.iter().enumerate() {
        let got = tables_dtm(&t, k);
        assert_eq!(got, want[i], "{k:?}");
        // The position read through a board and a FEN, as the user gives it.
        let b = board(k).unwrap();
        assert_eq!(t.probe(&b), Some(got), "{k:?}");
        // The same position with Black strong (colours swapped, board turned round) and, with
        // a pawn, mirrored to files e-h.
        let mut swapped = BoardBuilder::empty();
        for sq in Square::ALL {
            if let (Some(piece), Some(colour)) = (b.piece_on(sq), b.color_on(sq)) {
                let to = Square::index(sq as usize ^ 56 ^ if k.0 == Piece::Pawn { 7 } else { 0 });
                *swapped.square_mut(to) = Some((piece, !colour));
            }
        }
        swapped.side_to_move = !b.side_to_move();
        assert_eq!(t.probe(&swapped.build().unwrap()), Some(got), "{k:?} swapped");
        let e = longest.entry((k.0, k.4)).or_default();
        *e = (*e).max(got.plies);
    }
    // Legal positions per endgame and side to move, counted by cozy-chess and kpk alike.
    assert_eq!(g.keys.iter().filter(|k| k.0 == Piece::Pawn).count(), 81_664 + 84_012);
    // The textbook's longest mates: KQK 10 moves, KRK 16 moves (White to move, odd plies);
    // KBK and KNK are draws throughout.
    assert_eq!(longest[&(Piece::Queen, true)], 19);
    assert_eq!(longest[&(Piece::Rook, true)], 31);
    assert_eq!(longest[&(Piece::Bishop, true)], 0);
    assert_eq!(longest[&(Piece::Knight, true)], 0);
    println!("longest {longest:?}");
}

#[test]
fn kpk_wins_by_dtm_are_the_wins_by_dtc_and_no_quicker() {
    let bb = kpk::Bitbase::generate();
    let t = Tables::generate();
    for p in KpkPosition::all() {
        let dtm = t.kpk_dtm(&p);
        let dtc = bb.dtc(&p).map_or(0, |d| u32::from(d.0));
        assert_eq!(dtm.plies > 0, dtc > 0, "{}", p.to_fen());
        // Mate comes no earlier than the promotion (it may come with it: d8=Q#).
        assert!(dtm.plies >= dtc, "{}", p.to_fen());
    }
}

/// `kpk bitbase --endgame E --csv FILE`: every legal position once, White strong, both sides to
/// move (KPK with the pawn on every file), with the oracle's wdl and dtm on every row.
#[test]
fn endgame_csv_rows_match_the_oracle_on_every_position() {
    let (g, want) = solved();
    let id: HashMap<Key, usize> = g.keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    let dir = std::env::temp_dir().join(format!("kpk-dtm-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, man) in [("kpk", Piece::Pawn), ("kqk", Piece::Queen), ("krk", Piece::Rook)] {
        let path = dir.join(format!("{name}.csv"));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_kpk"))
            .args(["bitbase", "--endgame", name, "--csv"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("fen,wdl,dtm"));
        let mut seen = std::collections::HashSet::new();
        for line in lines {
            let mut fields = line.split(',');
            let (fen, wdl, dtm) = (fields.next().unwrap(), fields.next().unwrap(), fields.next().unwrap());
            assert!(seen.insert(fen.to_string()), "{fen} twice");
            let b: Board = fen.parse().unwrap();
            let mirror = man == Piece::Pawn && key(&b).unwrap().1 % 8 >= 4;
            let (m, sq, wk, bk, wtm) = key(&b).unwrap();
            let f = |s: usize| if mirror { s ^ 7 } else { s };
            let v = want[id[&(m, f(sq), f(wk), f(bk), wtm)]];
            assert_eq!(m, man, "{fen}");
            assert_eq!((wdl.parse::<i8>().unwrap(), dtm.parse::<u32>().unwrap()), (v.wdl, v.plies), "{fen}");
        }
        let per_file = g.keys.iter().filter(|k| k.0 == man).count();
        assert_eq!(seen.len(), if man == Piece::Pawn { 2 * per_file } else { per_file }, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `kpk probe` prints the oracle's DTM for KPK, KQK and KRK positions, either colour strong.
#[test]
fn probe_prints_the_dtm_of_kpk_kqk_and_krk_positions() {
    let (g, want) = solved();
    let id: HashMap<Key, usize> = g.keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    // (FEN, the same position White strong as a key)
    let cases = [
        ("2k5/8/8/8/8/8/8/KQ6 w - - 0 1", (Piece::Queen, 1, 0, 58, true)),
        ("kr6/8/8/8/8/8/8/6K1 b - - 0 1", (Piece::Rook, 1, 0, 62, true)),
        ("k7/8/1K6/3P4/8/8/8/8 w - - 0 1", (Piece::Pawn, 35, 41, 56, true)),
    ];
    for (fen, k) in cases {
        let out =
            std::process::Command::new(env!("CARGO_BIN_EXE_kpk")).args(["probe", fen]).output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let v = want[id[&k]];
        assert!(v.wdl == 1 && v.plies > 0);
        assert!(stdout.contains(&format!("DTM {} plies", v.plies)), "{fen}: {stdout}");
    }
}

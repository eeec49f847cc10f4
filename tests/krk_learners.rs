//! `kpk krk-learners`: section 7's learners on the UCI KRK set. The KRK characteristics checked
//! against an independent computation (coordinates by hand, check and the black king's moves by
//! cozy-chess) on every row of the set; the declaration's reduced design run end to end, its fits
//! paired and complete, and `--render-only` rewriting every rendered file byte for byte.

use cozy_chess::{BoardBuilder, Color, Piece, Square};
use kpk::chess::dtm::Tables;
use kpk::dataset::krk::uci_rows;
use kpk::learners::krk::design::Design;
use kpk::learners::krk::features::{COLUMNS, row};
use kpk::learners::krk::{N_COLS, NAMES};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

type Sq = (i32, i32);

/// The sixteen characteristics after the squares, from (file, rank) pairs alone.
fn by_hand(wk: Sq, wr: Sq, bk: Sq, check: bool, moves: usize) -> Vec<i32> {
    let gap = |a: Sq, b: Sq| ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    let cheb = |a: Sq, b: Sq| gap(a, b).0.max(gap(a, b).1);
    let edge = |v: i32| v.min(7 - v);
    let side = |line: i32, v: i32| {
        if v < line {
            line
        } else if v > line {
            7 - line
        } else {
            8
        }
    };
    let strictly = |v: i32, a: i32, b: i32| a.min(b) < v && v < a.max(b);
    let hanging = cheb(bk, wr) == 1 && cheb(wk, wr) > 1;
    let (kf, kr) = gap(wk, bk);
    vec![
        cheb(wk, bk),
        cheb(wk, wr),
        cheb(wr, bk),
        kf,
        kr,
        edge(bk.0).min(edge(bk.1)),
        edge(bk.0) + edge(bk.1),
        edge(wk.0).min(edge(wk.1)),
        gap(wr, bk).0,
        gap(wr, bk).1,
        side(wr.0, bk.0) * side(wr.1, bk.1),
        i32::from(check),
        i32::from(hanging),
        i32::from((kf == 0 || kr == 0) && kf.max(kr) == 2),
        i32::from(strictly(wr.0, wk.0, bk.0) || strictly(wr.1, wk.1, bk.1)),
        moves as i32,
    ]
}

#[test]
fn every_characteristic_of_every_uci_row_matches_an_independent_computation() {
    let rows = uci_rows(&Tables::generate()).unwrap();
    assert_eq!(rows.len(), 28_056);
    let mut seen_max = [0i32; N_COLS];
    for r in &rows {
        let p = r.position;
        let sq = |s: kpk_probe::Square| (i32::from(s.file()), i32::from(s.rank()));
        let (wk, wr, bk) = (sq(p.wk), sq(p.wr), sq(p.bk));
        let at = |(f, r): Sq| Square::index((r * 8 + f) as usize);
        let mut b = BoardBuilder::empty();
        *b.square_mut(at(wk)) = Some((Piece::King, Color::White));
        *b.square_mut(at(wr)) = Some((Piece::Rook, Color::White));
        *b.square_mut(at(bk)) = Some((Piece::King, Color::Black));
        b.side_to_move = Color::Black;
        let board = b.build().expect("a legal board");
        let mut moves = 0;
        board.generate_moves(|m| {
            moves += m.len();
            false
        });
        let got = row(p.wk, p.wr, p.bk);
        let want: Vec<i32> = [wk.0, wk.1, wr.0, wr.1, bk.0, bk.1]
            .into_iter()
            .chain(by_hand(wk, wr, bk, !board.checkers().is_empty(), moves))
            .collect();
        assert_eq!(got.map(i32::from).to_vec(), want, "{}", p.fen());
        for (m, v) in seen_max.iter_mut().zip(want) {
            *m = (*m).max(v);
        }
    }
    // No column leaves its declared range (the set's canonical white king keeps some below it).
    for ((name, max), seen) in COLUMNS.iter().zip(seen_max) {
        assert!(seen <= i32::from(*max) && seen > 0, "{name}: largest {seen}");
    }
}

fn kpk(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_kpk")).args(args).output().expect("run kpk");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_reduced_design_runs_paired_and_complete_and_renders_again_byte_for_byte() {
    let dir = std::env::temp_dir().join(format!("kpk-krk-learners-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.to_str().unwrap();
    kpk(&["krk-learners", "--reduced", "--out", out]);
    let json: serde_json::Value = serde_json::from_slice(&read(&dir.join("krk_learners.json"))).unwrap();
    let design = Design::load(Path::new("experiments/krk_learners.toml"), 28_056).unwrap();
    assert_eq!(json["reduced"], true);
    assert_eq!(json["rows"], 28_056);
    let fits = json["fits"].as_array().unwrap();
    let draws: usize = design.reduced.draws.iter().sum();
    assert_eq!(fits.len(), draws * NAMES.len() * 2, "every learner and input set on every draw");
    // Paired: each (n, draw) has every arm once, all tested on the rows not drawn.
    let mut cells: BTreeMap<(u64, u64), usize> = BTreeMap::new();
    for f in fits {
        let n = f["n"].as_u64().unwrap();
        assert_eq!(f["test_rows"].as_u64().unwrap(), 28_056 - n);
        let acc = f["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&acc) && f["mae"].as_f64().unwrap() >= 0.0);
        *cells.entry((n, f["draw"].as_u64().unwrap())).or_default() += 1;
    }
    assert!(cells.values().all(|&k| k == NAMES.len() * 2));
    let names: Vec<&str> =
        json["primaries"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, design.primaries.iter().map(|p| p.name.as_str()).collect::<Vec<_>>());
    // The draws: fixed by their arguments, distinct, and disjoint from nothing they should share.
    let d = design.training_draw(28_056, 250, 0);
    assert_eq!(d, design.training_draw(28_056, 250, 0));
    assert!(d.windows(2).all(|w| w[0] < w[1]) && d.len() == 250);
    assert_ne!(d, design.training_draw(28_056, 250, 1));
    // --render-only rewrites every rendered file byte for byte from the JSON alone.
    let files = ["KRK.md", "krk/curves.csv", "krk/curves.png", "krk/curves.svg"];
    let before: Vec<Vec<u8>> = files.iter().map(|f| read(&dir.join(f))).collect();
    for f in files {
        std::fs::remove_file(dir.join(f)).unwrap();
    }
    kpk(&["krk-learners", "--render-only", "--out", out]);
    for (f, b) in files.iter().zip(&before) {
        assert_eq!(&read(&dir.join(f)), b, "{f}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_committed_report_is_the_declared_design_run_in_full() {
    let json: serde_json::Value =
        serde_json::from_slice(&read(Path::new("reports/krk_learners.json"))).unwrap();
    let design = Design::load(Path::new("experiments/krk_learners.toml"), 28_056).unwrap();
    assert_eq!(json["reduced"], false);
    assert_eq!(serde_json::from_value::<Design>(json["design"].clone()).unwrap(), design);
    let draws: usize = design.draws.iter().sum();
    assert_eq!(json["fits"].as_array().unwrap().len(), draws * NAMES.len() * 2);
}

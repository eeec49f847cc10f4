//! Exhaustive checks of the 32 characteristics of Table 4 and their input codings.
//!
//! The oracle here is written afresh from Table 4, straight from the squares of each position;
//! it shares nothing with `src/paper/features.rs` but the position type. Every legal position of both
//! sides is checked.

use kpk::chess::bitbase::Bitbase;
use kpk::chess::position::After;
use kpk::paper::coding::InputCoding;
use kpk::paper::features::{FEATURES, features};
use kpk::{Color, KpkIndex, KpkPosition, Outcome};
use kpk_probe::table4::N_FEATURES;
use std::collections::HashMap;

/// Table 4 as printed: (x, code, level, printed min, printed max, printed |range|).
const TABLE4: [(usize, &str, u8, i8, i8, usize); N_FEATURES] = [
    (1, "c01", 0, 1, 8, 8),
    (2, "c02", 0, 1, 8, 8),
    (3, "c03", 0, 1, 8, 8),
    (4, "c04", 0, 1, 8, 8),
    (5, "c05", 0, 1, 4, 4),
    (6, "c06", 0, 2, 7, 6),
    (7, "c11", 1, -7, 7, 15),
    (8, "c12", 1, -7, 7, 15),
    (9, "c13", 1, -3, 7, 11),
    (10, "c14", 1, -6, 6, 13),
    (11, "c15", 1, -3, 7, 11),
    (12, "c16", 1, -6, 6, 13),
    (13, "c17", 1, -6, 6, 13),
    (14, "c18", 1, 1, 5, 5),
    (15, "c21", 2, 0, 7, 8),
    (16, "c22", 2, 0, 7, 8),
    (17, "c23", 2, 0, 1, 2),
    (18, "c24", 2, 0, 7, 8),
    (19, "c25", 2, 0, 6, 7),
    (20, "c26", 2, 0, 1, 2),
    (21, "c27", 2, 0, 7, 8),
    (22, "c28", 2, 0, 6, 7),
    (23, "c29", 2, 0, 1, 2),
    (24, "c31", 3, 2, 7, 6),
    (25, "c32", 3, 0, 1, 2),
    (26, "c33", 3, 0, 1, 2),
    (27, "c34", 3, 1, 7, 7),
    (28, "c35", 3, 1, 7, 7),
    (29, "c36", 3, 0, 7, 8),
    (30, "c41", 4, -6, 6, 13),
    (31, "c42", 4, -5, 6, 12),
    (32, "c51", 5, 0, 1, 2),
];

/// Table 4 computed from the squares: files a-h = 1-8, ranks 1-8, pawn on files a-d.
fn oracle(p: &KpkPosition) -> [i8; N_FEATURES] {
    let coords = |sq: kpk::Square| (sq.file() as i8 + 1, sq.rank() as i8 + 1);
    let ((fw, rw), (fb, rb), (fp, rp)) = (coords(p.wk()), coords(p.bk()), coords(p.wp()));
    let wtm = p.side() == Color::White;
    let flag = |b: bool| if b { 1 } else { 0 };
    let king_distance = |(f1, r1): (i8, i8), (f2, r2): (i8, i8)| (f1 - f2).abs().max((r1 - r2).abs());
    // Both differences even: the side not to move has the opposition.
    let parity = (fw - fb).rem_euclid(2) == 0 && (rw - rb).rem_euclid(2) == 0;
    let white_may_have_opposition = if wtm { !parity } else { parity };
    let pawn_moves = if rp == 2 { 5 } else { 8 - rp };
    let bk_to_queening_square = king_distance((fb, rb), (fp, 8));
    let square_margin = bk_to_queening_square - pawn_moves;
    let runs = fw != fp && square_margin > if wtm { 1 } else { 2 };
    [
        fw,
        rw,
        fb,
        rb,
        fp,
        rp,
        fw - fb,
        rw - rb,
        fw - fp,
        rw - rp,
        fb - fp,
        rb - rp,
        flag(rp == 8),
        pawn_moves,
        (fw - fb).abs(),
        (rw - rb).abs(),
        flag(parity),
        (fw - fp).abs(),
        (rw - rp).abs(),
        flag(rw < rp),
        (fb - fp).abs(),
        (rb - rp).abs(),
        flag(rb < rp),
        king_distance((fw, rw), (fb, rb)),
        flag(white_may_have_opposition),
        flag(!white_may_have_opposition),
        king_distance((fw, rw), (fp, rp)),
        king_distance((fb, rb), (fp, rp)),
        bk_to_queening_square,
        king_distance((fw, rw), (fp, rp)) - king_distance((fb, rb), (fp, rp)),
        square_margin,
        flag(runs),
    ]
}

fn all() -> Vec<KpkPosition> {
    KpkPosition::all().collect()
}

#[test]
fn every_feature_equals_its_table4_formula_on_every_legal_position() {
    let positions = all();
    assert_eq!(positions.len(), 165_676);
    for p in &positions {
        let (got, want) = (features(p), oracle(p));
        for i in 0..N_FEATURES {
            assert_eq!(got[i], want[i], "x{} of {}", i + 1, p.to_fen());
        }
    }
}

#[test]
fn table_matches_table4_as_printed() {
    for (f, &(x, code, level, lo, hi, size)) in FEATURES.iter().zip(&TABLE4) {
        assert_eq!((f.x, f.code, f.level), (x, code, level));
        assert_eq!(f.printed_range, (lo, hi), "x{x}");
        assert_eq!(f.printed_range_size(), size, "x{x}");
    }
}

#[test]
fn legal_ranges_are_measured_and_differ_from_the_printed_ones_only_at_x13() {
    let mut lo = [i8::MAX; N_FEATURES];
    let mut hi = [i8::MIN; N_FEATURES];
    for p in all() {
        for (i, v) in features(&p).into_iter().enumerate() {
            lo[i] = lo[i].min(v);
            hi[i] = hi[i].max(v);
        }
    }
    for (i, f) in FEATURES.iter().enumerate() {
        assert_eq!(f.range, (lo[i], hi[i]), "x{}'s legal range", f.x);
        if f.x == 13 {
            // r(wP) = 8? is constant 0: no legal pawn stands on rank 8.
            assert_eq!(f.range, (0, 0));
            assert_ne!(f.range, f.printed_range);
        } else {
            assert_eq!(f.range, f.printed_range, "x{}", f.x);
        }
    }
}

#[test]
fn levels_follow_the_lattice_rule_of_section_4_1() {
    // L(c) = 0 for the coordinates, else one more than the highest level it is computed from.
    for f in &FEATURES {
        assert!(f.inputs.iter().all(|&i| i < f.x), "x{} uses a later characteristic", f.x);
        let want = f.inputs.iter().map(|&i| FEATURES[i - 1].level + 1).max().unwrap_or(0);
        assert_eq!(f.level, want, "x{}", f.x);
    }
    let uses_side: Vec<usize> = FEATURES.iter().filter(|f| f.uses_side).map(|f| f.x).collect();
    assert_eq!(uses_side, [25, 26, 32]);
}

#[test]
fn each_feature_is_a_function_of_the_features_it_lists() {
    // Over every legal position, equal listed inputs (and side, where used) give equal values:
    // the lattice of Figure 2 is how the values really depend on each other.
    let rows: Vec<(Color, [i8; N_FEATURES])> = all().iter().map(|p| (p.side(), features(p))).collect();
    for f in FEATURES.iter().filter(|f| f.level > 0) {
        let mut seen: HashMap<(Option<Color>, Vec<i8>), i8> = HashMap::new();
        for (side, x) in &rows {
            let key = (f.uses_side.then_some(*side), f.inputs.iter().map(|&i| x[i - 1]).collect());
            let v = *seen.entry(key).or_insert(x[f.x - 1]);
            assert_eq!(v, x[f.x - 1], "x{} is not a function of {:?}", f.x, f.inputs);
        }
    }
}

#[test]
fn binary_coding_has_the_papers_92_inputs() {
    // Section 4.2: ceil(log2 |range|) bits per characteristic over the printed ranges.
    let bits = |n: usize| (usize::BITS - (n - 1).leading_zeros()) as usize;
    let total: usize = TABLE4.iter().map(|r| bits(r.5)).sum();
    let basic: usize = TABLE4[..6].iter().map(|r| bits(r.5)).sum();
    assert_eq!((total, basic), (92, 17));
    assert_eq!(InputCoding::Binary.width(), total);
    assert_eq!(InputCoding::Natural.width(), 32);
    assert_eq!(InputCoding::Scaled.width(), 32);
    let onehot: usize = FEATURES.iter().map(|f| f.range_size()).sum();
    assert_eq!(InputCoding::Onehot.width(), onehot);
}

#[test]
fn every_coding_round_trips_on_every_legal_position() {
    let mut buf = vec![0.0; InputCoding::Onehot.width()];
    let (mut scaled_lo, mut scaled_hi) = ([f64::MAX; N_FEATURES], [f64::MIN; N_FEATURES]);
    for p in all() {
        let x = features(&p);
        for c in InputCoding::ALL {
            let out = &mut buf[..c.width()];
            c.encode(&x, out);
            assert_eq!(c.decode(out).unwrap(), x, "{c} coding of {}", p.to_fen());
            match c {
                InputCoding::Natural => {
                    assert!(out.iter().zip(&x).all(|(&o, &v)| o == f64::from(v)));
                }
                InputCoding::Scaled => {
                    for (i, &o) in out.iter().enumerate() {
                        scaled_lo[i] = scaled_lo[i].min(o);
                        scaled_hi[i] = scaled_hi[i].max(o);
                    }
                }
                InputCoding::Binary => assert!(out.iter().all(|&o| o == 0.0 || o == 1.0)),
                InputCoding::Onehot => {
                    assert!(out.iter().all(|&o| o == 0.0 || o == 1.0));
                    assert_eq!(out.iter().filter(|&&o| o == 1.0).count(), N_FEATURES);
                }
            }
        }
    }
    // Scaled inputs span exactly [0, 1], but x13 which is constantly 0.
    for i in 0..N_FEATURES {
        let want = if i == 12 { (0.0, 0.0) } else { (0.0, 1.0) };
        assert_eq!((scaled_lo[i], scaled_hi[i]), want, "scaled x{}", i + 1);
    }
}

#[test]
fn binary_coding_writes_value_minus_printed_minimum_high_bit_first() {
    // x7 = -7 is 0 of 0..14 (section 4.2's example): 0000; x7 = 7 is 14: 1110.
    let p = KpkPosition::all().find(|p| features(p)[6] == 7).unwrap();
    let mut out = vec![0.0; 92];
    InputCoding::Binary.encode(&features(&p), &mut out);
    assert_eq!(&out[17..21], &[1.0, 1.0, 1.0, 0.0]);
    let names = InputCoding::Binary.input_names();
    assert_eq!(&names[17..21], ["x7.b3", "x7.b2", "x7.b1", "x7.b0"]);
}

/// Does White win by pushing the pawn every move, whatever Black does? (Shapiro and Niblett's
/// "running the pawn", quoted in section 2 and Table 2.) Memoised over the dense index.
fn pawn_runs(p: &KpkPosition, memo: &mut [u8]) -> bool {
    let i = KpkIndex::of(p).value();
    if memo[i] != 0 {
        return memo[i] == 2;
    }
    let runs = match p.side() {
        Color::White => p.moves().into_iter().filter(|m| m.from == p.wp()).any(|m| match p.play(m) {
            After::Promoted { outcome, .. } => outcome == Outcome::Win,
            After::Position(next) => pawn_runs(&next, memo),
            After::PawnCaptured => false,
        }),
        Color::Black => {
            let moves = p.moves();
            !moves.is_empty()
                && moves.into_iter().all(|m| match p.play(m) {
                    After::Position(next) => pawn_runs(&next, memo),
                    _ => false,
                })
        }
    };
    memo[i] = if runs { 2 } else { 1 };
    runs
}

#[test]
fn x32_marks_only_wins_and_the_alternative_readings_do_not() {
    // docs/FEATURES.md prints this table: `cargo test --release --test features x32 -- --nocapture`.
    let bb = Bitbase::generate();
    let mut memo = vec![0u8; kpk_probe::MAX_INDEX];
    let positions = all();
    // Readings of "x18 > 0 & x31 > 1 (btm, 2)": thresholds on x31 for (wtm, btm), with or
    // without the x18 > 0 condition (wK off the pawn's file).
    let readings: [(&str, bool, i8, i8); 5] = [
        ("chosen: x31 > 1 wtm, x31 > 2 btm", true, 1, 2),
        ("x31 > 1 for both sides", true, 1, 1),
        ("square rule: x31 > 0 wtm, x31 > 1 btm", true, 0, 1),
        ("chosen thresholds, no x18 check", false, 1, 2),
        ("x31 > 1 both, no x18 check", false, 1, 1),
    ];
    let mut draws_marked = Vec::new();
    for side in [Color::White, Color::Black] {
        let of_side: Vec<&KpkPosition> = positions.iter().filter(|p| p.side() == side).collect();
        let wins = of_side.iter().filter(|p| bb.outcome(p) == Outcome::Win).count();
        let runs = of_side.iter().filter(|p| pawn_runs(p, &mut memo)).count();
        println!(
            "{side:?} to move: {} positions, {wins} wins, {runs} won by running the pawn",
            of_side.len()
        );
        for &(name, x18, tw, tb) in &readings {
            let t = if side == Color::White { tw } else { tb };
            let (mut marked, mut draws, mut running) = (0, 0, 0);
            for p in &of_side {
                let x = features(p);
                if (!x18 || x[17] > 0) && x[30] > t {
                    marked += 1;
                    draws += usize::from(bb.outcome(p) == Outcome::Draw);
                    running += usize::from(pawn_runs(p, &mut memo));
                }
            }
            println!("  {name:<40} x32 = 1: {marked:>6}, draws {draws:>5}, pawn runs {running:>6}");
            draws_marked.push((name, side, draws));
        }
        // The implementation's x32 is the first reading.
        let x32 = of_side.iter().filter(|p| features(p)[31] == 1).count();
        let (_, x18, tw, tb) = readings[0];
        let t = if side == Color::White { tw } else { tb };
        assert_eq!(
            x32,
            of_side.iter().filter(|p| (!x18 || features(p)[17] > 0) && features(p)[30] > t).count()
        );
    }
    for (name, side, draws) in draws_marked {
        if name.starts_with("chosen") {
            assert_eq!(draws, 0, "{name} marks draws with {side:?} to move");
        }
        if name.starts_with("x31 > 1 for both") && side == Color::Black {
            assert!(draws > 0, "the literal reading would mark only wins with Black to move too");
        }
    }
}

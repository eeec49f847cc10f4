//! The play model's move proposers compared (docs/PLAY.md): for each linear proposer, the move
//! exceptions its top-ranked winning move leaves, and the bytes of the play model over the shipped
//! tree with those exceptions coded as in format version 1 (position indices, every ordinal) and
//! version 2 (places among the choice positions, no ordinal where two moves win).
//!
//! `cargo run --release --example play_proposers`
//!
//! The proposers: version 1's eleven features with its search (steps ±1..±3 from its start); the
//! same features with version 2's search (steps up to ±16 from version 1's fitted weights × 4);
//! version 2's fifteen features; those fifteen with seventeen more king-and-pawn terms (key
//! squares, opposition on a file or rank, kings' distance, …); and the fifteen in each of the six
//! regimes of `kpk::play::propose::regime` (a depth-two tree over the pawn, a linear score at each
//! leaf: the shipped proposer) and in the regimes of six other trees over the pawn's file and
//! rank, each regime fitted from the fifteen's weights.

use kpk::Bitbase;
use kpk::chess::index::KpkIndex;
use kpk::chess::position::KpkPosition;
use kpk::hybrid::Hybrid;
use kpk::hybrid::bits::best_rice;
use kpk::hybrid::exceptions::gaps;
use kpk::play::propose::{N_FEATURES, features, regime, winning_moves};
use kpk::template::thousands;
use kpk_probe::Square;
use rayon::prelude::*;

/// Every candidate feature: version 2's fifteen, then seventeen more.
const ALL: usize = 32;

/// The key squares of the pawn (the squares from which the pawn side's king wins whoever moves).
fn key_squares(wp: Square) -> Vec<Square> {
    let (f, r) = (wp.file() as i8, wp.rank() as i8);
    if f == 0 || f == 7 {
        let g = if f == 0 { 1 } else { 6 };
        return [6, 7].iter().filter_map(|&r| Square::from_coords(g, r)).collect();
    }
    let ranks: &[i8] = match r {
        0..=3 => &[r + 2],
        4 | 5 => &[r + 1, r + 2],
        _ => &[r, 7],
    };
    ranks.iter().flat_map(|&r| (-1..=1).filter_map(move |d| Square::from_coords(f + d, r))).collect()
}

fn all_features(s: &KpkPosition) -> [i32; ALL] {
    let (wk, bk, wp) = (s.wk(), s.bk(), s.wp());
    let mut x = [0; ALL];
    x[..N_FEATURES].copy_from_slice(&features(s));
    let front = Square::from_coords(wp.file() as i8, wp.rank() as i8 + 1).expect("below rank 8");
    let keys = key_squares(wp);
    let near = |k: Square| keys.iter().map(|&q| i32::from(k.distance(q))).min().expect("a key square");
    let (wkey, bkey) = (near(wk), near(bk));
    let [wf, wr, bf, br, pf, pr] =
        [wk.file(), wk.rank(), bk.file(), bk.rank(), wp.file(), wp.rank()].map(i32::from);
    let b = |c: bool| i32::from(c);
    let extra = [
        wkey,
        -bkey,
        b(wkey == 0),
        b(wf == bf && (br - wr).abs() % 2 == 0),
        b(wr == br && (bf - wf).abs() % 2 == 0),
        b(bf == pf && br > pr),
        b((wf - pf).abs() <= 1 && wr > pr),
        b(pf == 0 || pf == 7) * -i32::from(bk.distance(Square::from_coords(pf as i8, 7).expect("rank 8"))),
        (wkey - bkey).clamp(-3, 3),
        i32::from(bk.distance(front)) - i32::from(wk.distance(front)),
        b(wr == pr + 2 && (wf - pf).abs() <= 1),
        b(bk.distance(wp) <= 1),
        b(wk.distance(wp) <= 1),
        i32::from(wk.distance(bk)),
        (7 - pr) * i32::from(wk.distance(front)),
        b((pf == 0 || pf == 7) && bf == pf),
        br - wr,
    ];
    x[N_FEATURES..].copy_from_slice(&extra);
    x
}

/// A choice position: its index, each winning move's features and whether it is optimal, and the
/// pawn's file and rank.
type Choice = (u32, Vec<(bool, [i32; ALL])>, (u8, u8));

fn choices(bb: &Bitbase) -> Vec<Choice> {
    let mut found: Vec<Choice> = winning_moves(bb, all_features)
        .into_iter()
        .filter(|(_, v)| v.len() >= 2)
        .map(|(p, v)| {
            let pawn = (p.wp().file(), p.wp().rank());
            assert_eq!(TREES[1].1(pawn), regime(&p), "the shipped regime tree is kpk::play::propose::regime");
            (KpkIndex::of(&p).value() as u32, v, pawn)
        })
        .collect();
    found.sort_unstable_by_key(|c| c.0);
    found
}

/// The place of the first optimal move in `w`'s ranking of a choice position's winning moves.
fn ordinal(moves: &[(bool, [i32; ALL])], w: &[i8; ALL]) -> usize {
    let score = |f: &[i32; ALL]| f.iter().zip(w).map(|(&a, &b)| a * i32::from(b)).sum::<i32>();
    let mut ranked: Vec<(i32, usize, bool)> =
        moves.iter().enumerate().map(|(n, m)| (score(&m.1), n, m.0)).collect();
    ranked.sort_unstable();
    ranked.iter().position(|m| m.2).expect("a won position has an optimal move")
}

/// Coordinate descent over the first `n` weights with `steps`, first improvement kept.
fn fit(cases: &[Choice], n: usize, start: [i8; ALL], steps: &[i8]) -> ([i8; ALL], usize) {
    let misses = |w: &[i8; ALL]| cases.par_iter().filter(|c| ordinal(&c.1, w) > 0).count();
    let (mut w, mut best) = (start, misses(&start));
    let mut improved = true;
    while improved {
        improved = false;
        for j in 0..n {
            for &d in steps {
                let mut t = w;
                t[j] = t[j].saturating_add(d);
                let m = misses(&t);
                if m < best {
                    (best, w, improved) = (m, t, true);
                }
            }
        }
    }
    (w, best)
}

/// The exceptions, and their bits coded as version 1 and as version 2, of the proposer with weights
/// `w` per regime (one set: every regime).
fn coded_bits(cases: &[Choice], w: &[[i8; ALL]], tree: Regimes) -> (usize, u64, u64) {
    let (mut index, mut place, mut all, mut stored) = (vec![], vec![], vec![], vec![]);
    for (at, (i, moves, pawn)) in cases.iter().enumerate() {
        let o = ordinal(moves, &w[tree(*pawn)]) as u64;
        if o > 0 {
            index.push(*i);
            place.push(at as u32);
            all.push(o - 1);
            if moves.len() > 2 {
                stored.push(o - 1);
            }
        }
    }
    let bits = |v: &[u64]| best_rice(v.iter().copied()).1;
    (index.len(), best_rice(gaps(&index)).1 + bits(&all), best_rice(gaps(&place)).1 + bits(&stored))
}

/// A regime tree: the regime of a position from its pawn's file and rank.
type Regimes = fn((u8, u8)) -> usize;

/// The regime trees compared: none, the shipped one (`kpk::play::propose::regime`), and others.
const TREES: [(&str, Regimes); 8] = [
    ("one regime", |_| 0),
    ("6 regimes: rook's pawn, ranks 2–3/4–5/6–7 (shipped)", |(f, r)| {
        3 * usize::from(f == 0 || f == 7) + usize::from(r >= 3) + usize::from(r >= 5)
    }),
    ("2 regimes: rook's pawn", |(f, _)| usize::from(f == 0 || f == 7)),
    ("3 regimes: ranks 2–3/4–5/6–7", |(_, r)| usize::from(r >= 3) + usize::from(r >= 5)),
    ("6 regimes: each rank", |(_, r)| usize::from(r) - 1),
    ("12 regimes: rook's pawn, each rank", |(f, r)| 6 * usize::from(f == 0 || f == 7) + usize::from(r) - 1),
    ("12 regimes: each file (a–d), ranks 2–3/4–5/6–7", |(f, r)| {
        3 * usize::from(f.min(7 - f)) + usize::from(r >= 3) + usize::from(r >= 5)
    }),
    ("8 regimes: rook's pawn, ranks 2/3/4–5/6–7", |(f, r)| {
        4 * usize::from(f == 0 || f == 7) + usize::from(r >= 2) + usize::from(r >= 3) + usize::from(r >= 5)
    }),
];

fn main() -> anyhow::Result<()> {
    let bb = Bitbase::generate();
    let tree = Hybrid::load(std::path::Path::new(kpk::hybrid::DEFAULT_MODEL))?.to_bytes().len();
    let cases = choices(&bb);
    let times = |k: i8, w: [i8; 11]| {
        let mut s = [0i8; ALL];
        s.iter_mut().zip(w).for_each(|(a, b)| *a = b * k);
        s
    };
    let (v1_start, fine) = ([12, 1, 3, 0, 6, 3, 0, 0, 0, 0, 0], [-16, -8, -4, -3, -2, -1, 1, 2, 3, 4, 8, 16]);
    let (v1, _) = fit(&cases, 11, times(1, v1_start), &[-3, -2, -1, 1, 2, 3]);
    let mut v1_fitted = [0i8; 11];
    v1_fitted.copy_from_slice(&v1[..11]);
    let fifteen = fit(&cases, N_FEATURES, times(4, v1_fitted), &fine).0;
    let per_regime = |tree: Regimes| -> Vec<[i8; ALL]> {
        let n = cases.iter().map(|c| tree(c.2)).max().expect("choice positions") + 1;
        (0..n)
            .map(|r| {
                let own: Vec<Choice> = cases.iter().filter(|c| tree(c.2) == r).cloned().collect();
                fit(&own, N_FEATURES, fifteen, &fine).0
            })
            .collect()
    };
    let one = TREES[0].1;
    let mut proposers = vec![
        ("11 features, version 1's search".to_string(), 11, vec![v1], one),
        ("11 features, finer search".into(), 11, vec![fit(&cases, 11, times(4, v1_fitted), &fine).0], one),
        ("15 features".into(), N_FEATURES, vec![fifteen], one),
        ("32 features".into(), ALL, vec![fit(&cases, ALL, times(4, v1_fitted), &fine).0], one),
    ];
    for (name, tree) in &TREES[1..] {
        proposers.push((format!("15 features in {name}"), N_FEATURES, per_regime(*tree), *tree));
    }
    println!("{} choice positions; the embedded tree is {tree} B", cases.len());
    println!("| proposer | weights | move exceptions | bytes, version-1 coding | bytes, version-2 coding |");
    println!("|---|---:|---:|---:|---:|");
    for (name, n, w, regimes) in proposers {
        let (misses, b1, b2) = coded_bits(&cases, &w, regimes);
        let weights = n * w.len();
        // magic, version, length, hybrid length, tree, weight count, weights, E, kg, ko, bits, CRC
        let bytes = |bits: u64| 11 + tree + 1 + weights + 5 + bits.div_ceil(8) as usize + 4;
        let n = |v: usize| thousands(v as i64);
        println!("| {name} | {} | {} | {} | {} |", n(weights), n(misses), n(bytes(b1)), n(bytes(b2)));
    }
    Ok(())
}

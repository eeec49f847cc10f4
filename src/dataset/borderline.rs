//! Small sets enriched with borderline positions: the "harder sets" reading of section 4.5's
//! hand-prepared T1/S1 and T2/S2, an option of the draw ([`super::Dataset::of_draw`]).

use super::draw_with;
use crate::chess::bitbase::Bitbase;
use crate::chess::board::KING_STEPS;
use crate::chess::position::KpkPosition;
use kpk_probe::{Color, Square};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Section 5.1's *critical* position: "the result is affected by whose move it is". The same
/// three men with the other side to move form a legal position (a btm position whose bK the
/// pawn checks has no wtm twin, and is not critical) whose result differs. 42 of the 51
/// positions the paper's best net still misclassified are critical (section 5.1, Table 6).
pub fn is_critical(p: &KpkPosition, bb: &Bitbase) -> bool {
    let other = if p.side() == Color::White { Color::Black } else { Color::White };
    KpkPosition::new(p.wk(), p.bk(), p.wp(), other).is_ok_and(|twin| bb.outcome(&twin) != bb.outcome(p))
}

/// A position next to the win/draw boundary: [critical](is_critical), or its result changes when
/// one man moves one square (either king to a neighbouring square, the pawn one rank up or down)
/// to give a legal position with the same side to move. Section 5.1 names both kinds among the
/// positions its best net got wrong: 42 of the 51 are critical, and in #29-38 "the wP is sometimes
/// better on a2 than a3"; 50 of the 51 are borderline. Unlike the critical positions alone (with White to move, 13,811 wins
/// and 80 draws), these hold both results: 14,000 wins and 9,539 draws with White to move,
/// 15,644 wins and 14,384 draws with Black to move.
pub fn is_borderline(p: &KpkPosition, bb: &Bitbase) -> bool {
    let outcome = bb.outcome(p);
    let differs = |wk: Option<Square>, bk: Option<Square>, wp: Option<Square>| match (wk, bk, wp) {
        (Some(wk), Some(bk), Some(wp)) => {
            KpkPosition::new(wk, bk, wp, p.side()).is_ok_and(|q| bb.outcome(&q) != outcome)
        }
        _ => false,
    };
    let (wk, bk, wp) = (p.wk(), p.bk(), p.wp());
    is_critical(p, bb)
        || KING_STEPS.iter().any(|&(df, dr)| {
            differs(wk.offset(df, dr), Some(bk), Some(wp)) || differs(Some(wk), bk.offset(df, dr), Some(wp))
        })
        || [-1, 1].iter().any(|&dr| differs(Some(wk), Some(bk), wp.offset(0, dr)))
}

/// The "harder sets" reading of section 4.5's hand-prepared T1/S1 and T2/S2 ("interesting
/// 'borderline' ones from the texts or ... generated at random", then "randomly divided into two
/// sets"): of the 2n positions, round(`share` × 2n) are drawn from the side's
/// [borderline](is_borderline) positions and the rest at random from the side's other positions
/// (so the share is exact), all with one `ChaCha8Rng` seeded from `seed`. Each half (T, then S)
/// gets half the borderline ones (T the smaller half when their count is odd), so Ti stays
/// "characteristic of Si"; each half is then shuffled.
pub fn draw_borderline(
    pool: Vec<KpkPosition>,
    n: usize,
    share: f64,
    seed: u64,
    bb: &Bitbase,
) -> Vec<KpkPosition> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (borderline, other): (Vec<KpkPosition>, Vec<KpkPosition>) =
        pool.into_iter().partition(|p| is_borderline(p, bb));
    let k = ((share.clamp(0.0, 1.0) * (2 * n) as f64).round() as usize).min(borderline.len());
    let hard = draw_with(&mut rng, borderline, k);
    let random = draw_with(&mut rng, other, 2 * n - k);
    let (t_hard, t_random) = (k / 2, n - k / 2);
    let mut t: Vec<KpkPosition> = hard[..t_hard].iter().chain(&random[..t_random]).copied().collect();
    let mut s: Vec<KpkPosition> = hard[t_hard..].iter().chain(&random[t_random..]).copied().collect();
    t.shuffle(&mut rng);
    s.shuffle(&mut rng);
    t.extend(s);
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Dataset, SetName};
    use std::collections::HashSet;

    fn bb() -> Bitbase {
        Bitbase::generate()
    }

    #[test]
    fn critical_positions_are_the_papers_42_of_51() {
        // Section 5.1: "Of the 51 misclassified positions, 42 are critical".
        let bb = bb();
        let rows = crate::paper::tables::table6();
        let critical = rows.iter().filter(|r| is_critical(&r.position().unwrap(), &bb)).count();
        assert_eq!((rows.len(), critical), (51, 42));
        // A critical position's twin (the other side to move) is critical too.
        for p in KpkPosition::all().filter(|p| is_critical(p, &bb)) {
            let other = if p.side() == Color::White { Color::Black } else { Color::White };
            let twin = KpkPosition::new(p.wk(), p.bk(), p.wp(), other).unwrap();
            assert!(is_critical(&twin, &bb) && bb.outcome(&twin) != bb.outcome(&p));
        }
    }

    #[test]
    fn borderline_positions_by_side_and_result() {
        // Every legal position, counted against the figures is_borderline's comment states.
        let bb = bb();
        let mut counts = std::collections::BTreeMap::new();
        for p in KpkPosition::all().filter(|p| is_borderline(p, &bb)) {
            *counts.entry((p.side().fen_char(), bb.outcome(&p).to_string())).or_insert(0) += 1;
        }
        let want =
            [(('b', "draw"), 14_384), (('b', "win"), 15_644), (('w', "draw"), 9_539), (('w', "win"), 14_000)];
        assert_eq!(counts, want.map(|((s, o), n)| ((s, o.to_string()), n)).into_iter().collect());
        let wtm_critical = KpkPosition::all().filter(|p| p.side() == Color::White && is_critical(p, &bb));
        let wins = wtm_critical
            .map(|p| bb.outcome(&p).to_string())
            .fold((0, 0), |(w, d), o| if o == "win" { (w + 1, d) } else { (w, d + 1) });
        assert_eq!(wins, (13_811, 80));
        // Section 5.1's 51: all but #33 (a win with either side to move, and with the pawn on a3).
        let rows = crate::paper::tables::table6();
        let off: Vec<u8> =
            rows.iter().filter(|r| !is_borderline(&r.position().unwrap(), &bb)).map(|r| r.n).collect();
        assert_eq!(off, [33]);
    }

    #[test]
    fn borderline_draws_hold_their_share_of_borderline_positions() {
        let bb = bb();
        for (t, s, n) in [(SetName::T1, SetName::S1, 125), (SetName::T2, SetName::S2, 136)] {
            assert_eq!(
                Dataset::of_draw(t, 5, 0.0, &bb),
                Dataset::of(t, 5, &bb),
                "share 0 is the random draw"
            );
            for (share, seed) in [(0.5, 5), (1.0, 6), (0.1, 7)] {
                let train = Dataset::of_draw(t, seed, share, &bb);
                let test = Dataset::of_draw(s, seed, share, &bb);
                let k = (share * (2 * n) as f64).round() as usize;
                let count = |d: &Dataset| d.positions.iter().filter(|p| is_borderline(p, &bb)).count();
                assert_eq!((train.len(), test.len()), (n, n));
                assert_eq!((count(&train), count(&test)), (k / 2, k - k / 2), "{t} share {share}");
                let a: HashSet<_> = train.positions.iter().collect();
                assert_eq!(a.len(), n);
                assert!(test.positions.iter().all(|p| !a.contains(p)), "{t} and {s} overlap");
                assert_eq!(Dataset::of_draw(t, seed, share, &bb), train, "same seed, same set");
                assert_ne!(Dataset::of_draw(t, seed + 1, share, &bb).positions, train.positions);
            }
        }
    }
}

#[cfg(test)]
mod config_tests {
    use crate::experiment::config::TrialConfig;

    /// The config key: a share in [0, 1], and only where the sets are drawn.
    #[test]
    fn borderline_is_a_share_of_the_drawn_sets_only() {
        let small = include_str!("../../experiments/table5/trial21.toml");
        let whole = include_str!("../../experiments/table5/trial38.toml");
        let with =
            |text: &str, share: &str| TrialConfig::parse(&format!("{text}\nborderline = {share}\n"))?.check();
        assert_eq!(with(small, "0.5").unwrap().config.borderline, 0.5);
        let err = |text: &str, share: &str| with(text, share).unwrap_err().to_string();
        assert!(err(small, "1.5").contains("outside [0, 1]"), "{}", err(small, "1.5"));
        assert!(err(whole, "0.5").contains("T3 is a whole set"), "{}", err(whole, "0.5"));
        // The default writes nothing, so the trial folders' resolved configs keep their bytes.
        assert!(!TrialConfig::parse(small).unwrap().to_toml().contains("borderline"));
    }
}

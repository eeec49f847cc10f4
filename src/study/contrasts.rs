//! A study's contrasts: setting a against setting b on one measure, with the unit of analysis
//! the design gives (Demšar 2006; Bouthillier et al. 2021).
//!
//! - **Paired** where replicate r of both settings shares its seed and its data draw (the same
//!   side, and the same training positions or nested draws of one shuffle): the mean of the
//!   per-replicate differences a_r − b_r with Student's t over replicates.
//! - **Welch** where the settings draw their positions differently (another side, another pawn
//!   file, a named set against a drawn one): replicate r of one is independent of replicate r of
//!   the other, so the two groups are compared as independent samples.
//!
//! A study declares its contrasts before the run (`[[contrast]]` in its config). The primary ones
//! answer the paper's question; every study's primaries form one family, adjusted by Holm
//! ([`contrast::adjust_family`]), and only they carry a verdict. Every other comparison a report shows is
//! exploratory: its unadjusted 95% interval and no verdict.

use super::config::{Measure, Study};
use super::replicate::SettingResult;
use crate::stats::contrast::{self, Contrast};
use crate::stats::family::TContrast;
use std::cmp::Ordering;

/// A study's contrast: its arms are setting numbers from 1.
pub type ContrastResult = Contrast<usize, Measure>;

impl contrast::Measure for Measure {
    fn higher_is_better(self) -> bool {
        Measure::higher_is_better(self)
    }

    fn column(self) -> &'static str {
        Measure::column(self)
    }
}

/// Whether replicate r of settings `a` and `b` (from 0) trains on the same positions, or on
/// nested draws of one shuffle: the same side and the same named training set, or the same
/// pool, pawn file and held-out set for positions the study draws. Seeds are shared always (a
/// setting may not set them).
pub fn shares_draw(study: &Study, a: usize, b: usize) -> bool {
    let r = study.replicates();
    let (ta, tb) = (&study.trials[a * r].config, &study.trials[b * r].config);
    let (ka, kb) = (&study.keys[a], &study.keys[b]);
    if ta.side != tb.side || ta.data_seed != tb.data_seed || ka.draws_data() != kb.draws_data() {
        return false;
    }
    if ka.draws_data() {
        ka.pool_file == kb.pool_file && ka.held_out == kb.held_out
    } else {
        ta.training_set == tb.training_set
    }
}

/// a − b over the replicates, paired or Welch.
fn raw(a: &[f64], b: &[f64], paired: bool) -> Option<TContrast> {
    if paired { TContrast::paired(a, b) } else { TContrast::welch(a, b) }
}

/// Setting `a` against setting `b` (from 0) on `m`, exploratory until [`contrast::adjust_family`] reads
/// the primaries; `None` with fewer than two replicates a side.
pub fn contrast(
    study: &Study,
    settings: &[SettingResult],
    name: &str,
    (a, b): (usize, usize),
    m: Measure,
) -> Option<ContrastResult> {
    let (va, vb) = (settings[a].values(m), settings[b].values(m));
    let paired = shares_draw(study, a, b) && va.len() == vb.len();
    let arm = |i: usize| (i + 1, settings[i].label.clone());
    Some(Contrast::exploratory(name, arm(a), arm(b), m, raw(&va, &vb, paired)?))
}

/// The contrasts a study's config declares, in its order.
pub fn declared(study: &Study, settings: &[SettingResult]) -> Vec<ContrastResult> {
    study
        .config
        .contrasts
        .iter()
        .filter_map(|s| {
            let mut c = contrast(study, settings, &s.name, (s.a - 1, s.b - 1), s.measure)?;
            c.primary = s.primary;
            (c.claim, c.source, c.hypothesis, c.own_sets) =
                (s.claim.clone(), s.source.clone(), s.hypothesis, s.own_sets);
            Some(c)
        })
        .collect()
}

/// Ordering of settings on `m`, the preferred first.
pub fn preferred(m: Measure, x: f64, y: f64) -> Ordering {
    let o = x.total_cmp(&y);
    if m.higher_is_better() { o.reverse() } else { o }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::contrast::{ContrastVerdict, adjust_family};
    use crate::stats::{self, compare};

    fn result(values: &[(f64, f64)], paired: bool) -> ContrastResult {
        let (a, b): (Vec<f64>, Vec<f64>) = values.iter().copied().unzip();
        let t = raw(&a, &b, paired).unwrap();
        let mut c = Contrast::exploratory("c", (1, "a".into()), (2, "b".into()), Measure::Test, t);
        c.primary = true;
        (c.claim, c.source) = (Some("a beats b".into()), Some("section 5.1".into()));
        c
    }

    #[test]
    fn a_paired_interval_at_any_level_is_the_paired_contrast_of_compare() {
        let pairs = [(80.0, 78.0), (82.0, 81.0), (79.0, 76.0), (85.0, 83.0), (81.0, 80.0)];
        let (a, b): (Vec<f64>, Vec<f64>) = pairs.iter().copied().unzip();
        let mut c = result(&pairs, true);
        for level in [0.95, 0.99, 1.0 - 0.05 / 7.0] {
            c.set_level(level);
            let direct = compare::paired(&a, &b, level).unwrap();
            assert!((c.lo - direct.lo).abs() < 1e-9 && (c.hi - direct.hi).abs() < 1e-9, "{level}");
        }
        let w = stats::difference(&a, &b).unwrap();
        let welch = result(&pairs, false);
        // The same standard error and degrees of freedom as stats::difference, which reads t at
        // the degrees of freedom rounded down; here t is read at Welch's own.
        assert!((w.mean - welch.t.estimate).abs() < 1e-12);
        assert!((w.half_width() - stats::t975(welch.t.df) * welch.t.se).abs() < 1e-9, "{welch:?} {w:?}");
        let half = compare::t_quantile(0.975, welch.t.df) * welch.t.se;
        assert!((welch.hi - welch.lo - 2.0 * half).abs() < 1e-9);
    }

    #[test]
    fn holm_reads_each_primary_at_its_step_and_words_the_verdict_by_the_rule() {
        let strong = [(90.0, 80.0), (91.0, 80.5), (89.0, 79.0), (92.0, 81.0), (90.5, 80.0)];
        let weak = [(80.0, 79.0), (81.0, 81.5), (79.0, 78.0), (80.0, 80.5), (82.0, 80.0)];
        let worse = [(70.0, 80.0), (71.0, 80.5), (69.0, 79.0), (72.0, 81.0), (70.5, 80.0)];
        let (mut s, mut w, mut x) = (result(&strong, true), result(&weak, true), result(&worse, true));
        let mut own = result(&worse, true);
        own.own_sets = true;
        adjust_family(&mut [&mut s, &mut w, &mut x, &mut own]);
        assert_eq!(s.verdict, ContrastVerdict::Supported);
        assert_eq!(w.verdict, ContrastVerdict::NotShown);
        assert_eq!(x.verdict, ContrastVerdict::Contradicted);
        assert_eq!(own.verdict, ContrastVerdict::NotReplicatedOnRandomSets);
        assert!(s.level > 0.95 && w.level == 0.95, "{} {}", s.level, w.level);
        assert!(w.lo < 0.0 && w.hi > 0.0 && w.p_adjusted.unwrap() > 0.05);
        // Fewer epochs is better: a negative difference supports "a beats b".
        let mut e = result(&worse, true);
        e.measure = Measure::Epochs;
        adjust_family(&mut [&mut e]);
        assert_eq!(e.verdict, ContrastVerdict::Supported);
    }
}

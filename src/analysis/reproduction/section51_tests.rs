use super::*;
use crate::stats::contrast::ContrastVerdict as Verdict;

fn run(trial: u8, draw: usize, train: f64, test: f64) -> Run {
    Run { trial, draw, train, test: Some(test), train_wins: 75.0, test_wins: 70.0 }
}

/// Runs of `a` and `b` on 5 draws, 10 each, with a difference `gap` that moves with the draw by
/// `swing` (a draw effect shared by every run of the draw) and per-run noise.
fn runs(a: u8, b: u8, gap: f64, swing: f64) -> Vec<Run> {
    let mut out = Vec::new();
    for d in 0..5 {
        let draw_effect = swing * (d as f64 - 2.0);
        for k in 0..10 {
            let noise = 0.01 * (k as f64 - 4.5);
            out.push(run(a, d, 90.0 + gap + draw_effect + noise, 80.0));
            out.push(run(b, d, 90.0 - draw_effect + noise, 80.0));
        }
    }
    out
}

/// Hundreds of runs on 5 draws: a draw effect that the runs share widens the interval to what the
/// draws allow, where an interval over runs would call the gap certain.
/// A claim that trial `a` trains more accurately than trial `b`.
fn greater(a: &'static [u8], b: &'static [u8]) -> Spec {
    Spec {
        claim: "c",
        row: "r",
        a: (a, Measure::Train),
        b: (b, Measure::Train),
        expect: Expect::Greater,
        scope: Scope::Method,
    }
}

/// A claim about the paper's own sets that the draws do not support is not replicated on
/// random sets, whichever side its interval lies on; one they support is supported.
#[test]
fn a_claim_about_the_papers_sets_is_not_replicated_where_the_draws_do_not_support_it() {
    let own = |a: &'static [u8], b: &'static [u8]| Spec { scope: Scope::PapersSets, ..greater(a, b) };
    let verdict = |gap: f64, spec: Spec| claims(&runs(1, 2, gap, 0.0), &[spec]).remove(0).contrast.verdict;
    assert_eq!(verdict(0.5, own(&[1], &[2])), Verdict::Supported);
    assert_eq!(verdict(0.5, own(&[2], &[1])), Verdict::NotReplicatedOnRandomSets);
    assert_eq!(verdict(0.5, greater(&[2], &[1])), Verdict::Contradicted);
    assert_eq!(verdict(0.0, own(&[1], &[2])), Verdict::NotReplicatedOnRandomSets);
}

#[test]
fn the_interval_is_by_the_draw_not_by_the_run() {
    let one = |runs: &[Run]| claims(runs, &[greater(&[1], &[2])]).remove(0);
    let steady = one(&runs(1, 2, 0.5, 0.0)).contrast;
    assert_eq!((steady.a.runs, steady.a.draws, steady.t.units), (50, 5, 5));
    assert!((steady.t.estimate - 0.5).abs() < 1e-9);
    assert_eq!(steady.verdict, Verdict::Supported);
    assert_eq!(steady.t.method, Method::MixedModel);
    assert_eq!(one(&runs(1, 2, 0.5, 0.0)).bootstrap.map(|b| b.method), Some(Method::ClusterBootstrap));
    // The same mean gap, with draws that swing it by ±2 points: not shown by 5 draws.
    let swinging = one(&runs(1, 2, 0.5, 1.0)).contrast;
    let interval = swinging.unadjusted.unwrap();
    assert!((swinging.t.estimate - 0.5).abs() < 1e-9);
    assert!(interval.lo < 0.0 && interval.hi > 1.0, "{interval:?}");
    assert_eq!(swinging.verdict, Verdict::NotShown);
    let welch = crate::stats::difference(
        &values(&runs(1, 2, 0.5, 1.0), &[1], Measure::Train).iter().map(|v| v.1).collect::<Vec<_>>(),
        &values(&runs(1, 2, 0.5, 1.0), &[2], Measure::Train).iter().map(|v| v.1).collect::<Vec<_>>(),
    )
    .unwrap();
    assert!(welch.hi - welch.lo < interval.hi - interval.lo);
}

#[test]
fn measures_over_wins_subtract_the_draws_share() {
    let r = run(1, 0, 98.0, 90.0);
    assert_eq!(Measure::TrainOverWins.of(&r), Some(23.0));
    assert_eq!(Measure::TestOverWins.of(&r), Some(20.0));
    assert_eq!(Measure::Test.of(&Run { test: None, ..r }), None);
    assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7-8");
}

/// Two rows that each alone would be supported (p below 0.05, the 95% interval above 0) are not
/// shown as a family of two: Holm tests the smaller p at 0.025 and stops there.
#[test]
fn holm_reads_each_row_at_its_step_and_a_row_it_does_not_reach_is_not_shown() {
    let mut rs = runs(1, 2, 1.0, 0.25);
    rs.extend(runs(3, 4, 1.0, 0.24));
    let family = claims(&rs, &[greater(&[1], &[2]), greater(&[3], &[4])]);
    for c in family.iter().map(|c| &c.contrast) {
        assert!(c.t.p < 0.05 && c.unadjusted.unwrap().lo > 0.0, "{c:?}");
        assert!(c.p_adjusted.unwrap() >= 0.05, "{c:?}");
        assert_eq!(c.verdict, Verdict::NotShown);
    }
    let (second, first) = (&family[0].contrast, &family[1].contrast);
    assert!(first.t.p < second.t.p);
    assert_eq!((first.level, second.level), (1.0 - 0.05 / 2.0, 0.95));
    assert_eq!(first.p_adjusted, Some(2.0 * first.t.p));
    assert_eq!(second.p_adjusted, first.p_adjusted, "Holm's adjusted p never falls");
    assert!(first.lo < 0.0, "the interval at Holm's 97.5 % holds 0: {first:?}");
    // Alone, each row is read at 95 % and supported.
    assert_eq!(claims(&rs, &[greater(&[3], &[4])])[0].contrast.verdict, Verdict::Supported);
}

/// A "not conspicuously greater" claim tests A − B = the conspicuous gain.
#[test]
fn a_not_conspicuously_greater_claim_tests_the_conspicuous_gain() {
    let flat = Spec { expect: Expect::NotConspicuouslyGreater(1.0), ..greater(&[1], &[2]) };
    let c = claims(&runs(1, 2, 0.2, 0.1), &[flat]).remove(0).contrast;
    let hi = c.unadjusted.unwrap().hi;
    let t = (1.0 - c.t.estimate) / ((hi - c.t.estimate) / compare::t_quantile(0.975, 4.0));
    let p = 2.0 * (1.0 - compare::student_t_cdf(t, 4.0));
    let margin = c.not_better_by.unwrap();
    assert!((c.t.p - p).abs() < 1e-9, "{c:?}");
    assert!(c.p_adjusted.unwrap() >= c.t.p);
    assert_eq!(c.verdict, Verdict::Supported);
    assert_eq!(margin.margin, 1.0);
}

/// The section renders every claim's row with its unit and verdict, and records its method.
#[test]
fn the_section_renders_and_heads_the_summary() {
    let mut rs = runs(21, 1, 2.0, 0.0);
    rs.iter_mut().filter(|r| r.trial == 1).for_each(|r| r.test = Some(79.0));
    let claims = claims(&rs, &SPECS);
    assert_eq!(claims.len(), 2, "two claims: e2, test_lower");
    let s = Section51 {
        method: Some(Method::MixedModel),
        secondary_method: Some(Method::ClusterBootstrap),
        draws: 5,
        family: claims.len(),
        alpha: ALPHA,
        claims,
        ..Default::default()
    };
    let e = crate::report::reproduction::templates::engine().unwrap();
    let md = crate::report::reproduction::templates::render(
        &e,
        "section51",
        &crate::report::reproduction::findings::section51_context(&s),
    )
    .unwrap();
    assert!(
        md.contains(
            "| +2.0 [+2.0, +2.0] (5) | [+2.0, +2.0] (5) | [+2.0, +2.0] (97.50 %) | < 0.001 | supported |"
        ),
        "{md}"
    );
    assert!(md.contains("their family: the 2 rows of the table below"), "{md}");
    assert!(md.contains("family-wise α = 0.05"), "{md}");
    assert!(md.contains("\"method\": \"mixed_model\""));
    assert!(md.contains("t with 4 degrees of freedom"), "{md}");
}

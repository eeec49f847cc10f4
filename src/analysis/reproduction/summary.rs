//! The findings that open `REPRODUCTION.md`, computed from the reproduction's own numbers; the
//! templates that word them and their sections are named in `summary.toml` beside this file. Section 5.1's comparisons and the
//! gap to the paper's Table 5 add theirs the same way ([`Finding`]).

use super::data::Reproduction;
use super::{NN6_TRIALS, key};
use crate::analysis::finding::Finding;
use crate::paper::table2::{Figure, RowKey};
use crate::stats::Interval;
use kpk_probe::Color;
use serde::Deserialize;
use std::collections::HashSet;
use std::sync::LazyLock;

/// The template that words a finding (its path under `src/report/templates/`) and the heading of
/// the section that shows it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Text {
    template: String,
    section: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Texts {
    domain: Text,
    small: Text,
    whole: Text,
    table6: Text,
    matched: Text,
    e2: Text,
    test_lower: Text,
    gap: Text,
    continued: Text,
}

static TEXTS: LazyLock<Texts> =
    LazyLock::new(|| toml::from_str(include_str!("summary.toml")).expect("summary.toml parses"));

fn finding(t: &Text) -> Finding {
    Finding::new(&t.template, &t.section)
}

/// The reproduction's main findings, most important first; a finding whose runs are missing is
/// left out.
pub fn findings(r: &Reproduction) -> Vec<Finding> {
    let mut out = Vec::new();
    let positions = |side| r.domain.ours(RowKey::new(side, Figure::Positions));
    if let (Some(w), Some(b)) = (positions(Color::White), positions(Color::Black)) {
        out.push(finding(&TEXTS.domain).value("wtm", w).value("btm", b));
    }
    out.extend(small_sets(r));
    out.extend(whole_sets(r));
    if let Some(best) = r.best() {
        let paper: HashSet<_> = r.paper_table6.iter().map(|p| key(&p.wk, &p.bk, &p.wp)).collect();
        let common =
            r.best_misclassified.iter().filter(|m| paper.contains(&key(&m.wk, &m.bk, &m.wp))).count();
        out.push(
            finding(&TEXTS.table6)
                .value("trial", r.best)
                .value("ours", best.train_misclassified as f64)
                .value("common", common as f64),
        );
    }
    out.extend(matched(r));
    out.extend(section51(r));
    out.extend(gap(r));
    if let Some(errors) = r.continued.as_ref().and_then(|c| c.errors_at_6285) {
        out.push(finding(&TEXTS.continued).value("errors", errors));
    }
    out
}

/// The small-set trials over the replicates: mean accuracies against the paper's, and the mean
/// gap in testing accuracy with its interval by the data draw, which every trial shares (the
/// draw is the unit, not the trial).
fn small_sets(r: &Reproduction) -> Option<Finding> {
    let small: Vec<_> =
        r.replicated.iter().filter(|s| s.paper_test.is_some() && s.test_mean.is_some()).collect();
    let runs = small.first()?.replicates;
    let mean = |v: Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    let gap = r.section51.gap_to_paper?;
    let over = format!(
        "95% t-interval over the {} data draws that the {} trials share, {} degrees of freedom",
        gap.units,
        small.len(),
        gap.units.saturating_sub(1)
    );
    Some(
        finding(&TEXTS.small)
            .value("runs", runs as f64)
            .value("train", mean(small.iter().map(|s| s.train_mean).collect()))
            .value("paper_train", mean(small.iter().map(|s| s.paper_train).collect()))
            .value("test", mean(small.iter().filter_map(|s| s.test_mean).collect()))
            .value("paper_test", mean(small.iter().filter_map(|s| s.paper_test).collect()))
            .value("gap", gap.estimate)
            .interval(gap.lo, gap.hi, over),
    )
}

/// The whole-set trials over the replicates: how many lie above the paper, and trial 40's.
fn whole_sets(r: &Reproduction) -> Option<Finding> {
    let whole: Vec<_> = r.replicated.iter().filter(|s| NN6_TRIALS.contains(&s.trial)).collect();
    let t40 = whole.iter().find(|s| s.trial == 40)?;
    Some(
        finding(&TEXTS.whole)
            .value("above", whole.iter().filter(|s| s.train_lo > s.paper_train).count() as f64)
            .value("n", whole.len() as f64)
            .value("mean", t40.train_mean)
            .value("paper", t40.paper_train)
            .value("epochs", t40.epochs_median)
            .value("paper_epochs", t40.paper_epochs as f64)
            .interval(t40.train_lo, t40.train_hi, format!("95% CI over {} runs", t40.replicates)),
    )
}

/// The errors a run at matched accuracy shares with the paper's 51, over the runs that reached it.
fn matched(r: &Reproduction) -> Option<Finding> {
    let runs: Vec<_> = r.matched.as_ref()?.runs.iter().filter(|m| m.epoch.is_some()).collect();
    let shared: Vec<f64> = runs.iter().map(|m| m.on_paper_list as f64).collect();
    let i = Interval::of_mean(&shared)?;
    let chance = runs.iter().map(|m| m.chance_expected).sum::<f64>() / runs.len() as f64;
    Some(finding(&TEXTS.matched).value("mean", i.mean).value("chance", chance).interval(
        i.lo,
        i.hi,
        format!("95% CI over {} runs", runs.len()),
    ))
}

/// Section 5.1's two headline comparisons, by the data draw: E2 against E1 in training accuracy
/// (wtm), and testing against training accuracy on the small sets; each with the interval its
/// verdict reads, Holm's over the section's rows.
fn section51(r: &Reproduction) -> Vec<Finding> {
    let s = &r.section51;
    let find = |claim: &str, row: &str| s.claims.iter().find(|c| c.claim == claim && c.row == row);
    let mut out = Vec::new();
    for (claim, row, text) in [("e2", "wtm", &TEXTS.e2), ("test_lower", "all", &TEXTS.test_lower)] {
        if let Some(c) = find(claim, row) {
            let a = &c.contrast;
            let Some(p_adjusted) = a.p_adjusted else { continue };
            let level = format!("{:.2}", 100.0 * a.level);
            let over = format!(
                "Holm-adjusted over section 5.1's {} rows: the {}% mixed-model t-interval over {} data draws",
                s.family,
                level.trim_end_matches('0').trim_end_matches('.'),
                a.t.units
            );
            out.push(
                finding(text)
                    .value("estimate", a.t.estimate)
                    .value("p_adjusted", p_adjusted)
                    .word("verdict", a.verdict.words())
                    .interval(a.lo, a.hi, over),
            );
        }
    }
    out
}

/// Of the readings measured on the small sets, the one that closes most of the gap in testing
/// accuracy over trials 1-37 (each study's first effect), with its paired interval.
fn gap(r: &Reproduction) -> Option<Finding> {
    let (study, e) = r
        .gap
        .studies
        .iter()
        .filter_map(|s| Some((s, s.effects.first()?)))
        .max_by(|a, b| a.1.closed_pct.total_cmp(&b.1.closed_pct))?;
    Some(
        finding(&TEXTS.gap)
            .value("difference", e.difference)
            .value("before", e.configs - e.paper)
            .value("after", e.alternative - e.paper)
            .value("closed", e.closed_pct)
            .word("alternative", study.alternative.as_str())
            .word("study", study.name.as_str())
            .interval(e.lo, e.hi, format!("95% t-interval over {} paired replicates", e.units)),
    )
}

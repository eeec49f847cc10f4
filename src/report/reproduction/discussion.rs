//! The report's discussion: where our figures differ from the paper's, and why. The prose is the
//! template `discussion.md` beside this file; the numbers come from the runs.

use super::{NN6_TRIALS, Reproduction, paper_pct, pct, pct2, trial_number};
use crate::experiment::Summary;
use crate::paper::tables::Table5Row;
use crate::report::template;

const TEMPLATE: &str = include_str!("discussion.md");

/// "lo-hi" (or the one value) of some numbers, with `decimals` decimals.
fn span(values: impl Iterator<Item = f64>, decimals: usize) -> String {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if !lo.is_finite() {
        "—".to_string()
    } else if lo == hi {
        format!("{lo:.decimals$}")
    } else {
        format!("{lo:.decimals$}-{hi:.decimals$}")
    }
}

/// For the NN6 trials: the epoch the literal least-E2 rule would keep, and its accuracy.
fn least_e2_note(r: &Reproduction) -> String {
    let notes: Vec<String> = r
        .trials
        .iter()
        .zip(r.metrics)
        .filter(|(s, _)| trial_number(s).is_some_and(|t| NN6_TRIALS.contains(&t)))
        .filter_map(|(s, rows)| {
            let least = rows.iter().min_by(|a, b| a.e2.total_cmp(&b.e2))?;
            let acc = least.train_accuracy_m0_pct.unwrap_or(least.train_accuracy_pct);
            Some(format!(
                "trial {}: epoch {}, {} % instead of {} %",
                trial_number(s)?,
                least.epoch,
                pct(acc),
                pct2(s.train_accuracy_pct)
            ))
        })
        .collect();
    if notes.is_empty() { String::new() } else { format!(" (measured here: {})", notes.join("; ")) }
}

/// Each row of Table 5 with our trial of the same number.
fn pairs<'a>(r: &Reproduction<'a>) -> Vec<(&'a Table5Row, &'a Summary)> {
    r.paper
        .iter()
        .filter_map(|p| r.trials.iter().find(|s| trial_number(s) == Some(p.trial)).map(|s| (p, s)))
        .collect()
}

/// The sentence naming the small-set trials that end more than half a point below the paper.
fn below_sentence(pairs: &[(&Table5Row, &Summary)]) -> String {
    let below: Vec<String> = pairs
        .iter()
        .filter(|(p, s)| p.trial <= 37 && s.train_accuracy_pct + 0.5 < p.train_acc_pct)
        .map(|(p, s)| {
            format!(
                "{} ({} % vs {} %; stopped on {} after {} epochs, the paper ran {})",
                p.trial,
                pct(s.train_accuracy_pct),
                paper_pct(p.train_acc_pct),
                s.stop_reason,
                s.epochs,
                p.epochs
            )
        })
        .collect();
    if below.is_empty() {
        "No small-set trial ends more than half a point below the paper's training accuracy.".to_string()
    } else {
        format!(
            "The small-set trials whose training accuracy ends more than half a point below the paper's are {}.",
            below.join("; ")
        )
    }
}

/// The discussion section as Markdown.
/// Our small-set testing and training accuracy over the replicates against the paper's, counted.
fn test_compare(r: &Reproduction) -> String {
    let small: Vec<_> = r.replicated.iter().filter(|s| s.paper_test.is_some()).collect();
    if small.is_empty() {
        return "the small-set trials were not replicated".into();
    }
    let above = small.iter().filter(|s| s.test_lo.zip(s.paper_test).is_some_and(|(lo, p)| lo > p)).count();
    let inside = small.iter().filter(|s| s.paper_test_inside == Some(true)).count();
    let train_inside = small.iter().filter(|s| s.paper_train_inside).count();
    format!(
        "the 95% CI of our mean testing accuracy lies wholly above the paper's figure in {above} of \
         {n} small-set trials, and the paper's figure falls within the range of 95% of our runs in \
         {inside}; its training accuracy falls within that range in {train_inside} of {n}",
        n = small.len()
    )
}

pub(super) fn markdown(r: &Reproduction) -> String {
    let pairs = pairs(r);
    let nn6: Vec<&(&Table5Row, &Summary)> =
        pairs.iter().filter(|(p, _)| NN6_TRIALS.contains(&p.trial)).collect();
    let nn6_below: Vec<String> = nn6
        .iter()
        .filter(|(p, s)| (s.train_accuracy_pct * 10.0).round() / 10.0 < p.train_acc_pct)
        .map(|(p, _)| p.trial.to_string())
        .collect();
    let small_e2 = || pairs.iter().filter(|(p, _)| (21..=37).contains(&p.trial));
    let t38 = pairs.iter().find(|(p, _)| p.trial == 38);
    template::fill(
        TEMPLATE,
        &[
            ("small_epochs", span(small_e2().map(|(_, s)| s.epochs as f64), 0)),
            ("paper_small_epochs", span(small_e2().map(|(p, _)| p.epochs as f64), 0)),
            ("nn6_epochs", span(nn6.iter().map(|(_, s)| s.epochs as f64), 0)),
            ("paper_nn6_epochs", span(nn6.iter().map(|(p, _)| p.epochs as f64), 0)),
            ("budget38", t38.map_or(0, |(_, s)| s.max_epochs).to_string()),
            ("stop38", t38.map_or_else(|| "—".to_string(), |(_, s)| s.stop_reason.to_string())),
            ("below", below_sentence(&pairs)),
            ("test_compare", test_compare(r)),
            ("least_e2", least_e2_note(r)),
            (
                "nn6_below",
                if nn6_below.is_empty() {
                    let sooner = nn6.iter().filter(|(p, s)| s.epochs < p.epochs).count();
                    format!(
                        "All four whole-set trials reach at least the paper's training accuracy, {sooner} of \
                         them in fewer epochs than the paper ran."
                    )
                } else {
                    format!("Trials {} stay below the paper's training accuracy.", nn6_below.join(", "))
                },
            ),
            ("nn6_accuracy", span(nn6.iter().map(|(_, s)| s.train_accuracy_pct), 2)),
            ("paper_nn6_accuracy", span(nn6.iter().map(|(p, _)| p.train_acc_pct), 1)),
            (
                "a_file_errors",
                r.best_misclassified.iter().filter(|m| m.set == r.best.training_set).count().to_string(),
            ),
        ],
    )
}

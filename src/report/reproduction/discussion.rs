//! The report's discussion: where our figures differ from the paper's, and why, then what the gap
//! studies measured of it. The prose is the templates `templates/reproduction/discussion.md.j2`
//! and `gap.md.j2`; the numbers come from the runs.

use super::standing::{self, Place};
use super::templates;
use crate::analysis::reproduction::NN6_TRIALS;
use crate::analysis::reproduction::data::Reproduction;
use crate::analysis::reproduction::gap::Gap;
use crate::error::Result;
use crate::experiment::rows::Summary;
use crate::paper::tables::{Scope, Table5Row};
use crate::template::Engine;
use serde_json::json;

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

/// For the NN6 trials: the epoch the literal least-E2 rule would keep, its accuracy, and ours.
fn least_e2(r: &Reproduction) -> Vec<serde_json::Value> {
    NN6_TRIALS
        .iter()
        .filter_map(|&t| {
            let (epoch, accuracy) = r.curve(t)?.least_e2?;
            let ours = r.trial(t)?.train_accuracy_pct;
            Some(json!({ "trial": t, "epoch": epoch, "accuracy": accuracy, "ours": ours }))
        })
        .collect()
}

/// Each row of Table 5 with our trial of the same number.
fn pairs(r: &Reproduction) -> Vec<(&Table5Row, &Summary)> {
    r.paper
        .iter()
        .filter_map(|p| r.trials.iter().find(|s| s.trial_number() == Some(p.trial)).map(|s| (p, s)))
        .collect()
}

/// The small-set trials that end more than half a point below the paper.
fn below(pairs: &[(&Table5Row, &Summary)]) -> Vec<serde_json::Value> {
    pairs
        .iter()
        .filter(|(p, s)| p.scope() == Scope::Small && s.train_accuracy_pct + 0.5 < p.train_acc_pct)
        .map(|(p, s)| {
            json!({
                "trial": p.trial, "ours": s.train_accuracy_pct, "paper": p.train_acc_pct,
                "stop": s.stop_reason.to_string(), "epochs": s.epochs, "paper_epochs": p.epochs,
            })
        })
        .collect()
}

/// Our small-set testing and training accuracy over the replicates against the paper's, counted;
/// `None` where the small-set trials were not replicated.
fn test_compare(r: &Reproduction) -> Option<serde_json::Value> {
    let small: Vec<_> = r.replicated.iter().filter(|s| s.paper_test.is_some()).collect();
    (!small.is_empty()).then(|| {
        json!({
            "n": small.len(),
            "above": small.iter().filter(|s| s.test_lo.zip(s.paper_test).is_some_and(|(lo, p)| lo > p)).count(),
            "inside": small.iter().filter(|s| s.paper_test_inside == Some(true)).count(),
            "train_inside": small.iter().filter(|s| s.paper_train_inside).count(),
        })
    })
}

/// The whole-set trials against the paper: over the replicates (Table 5 over replicates, the
/// same figures as "Where our figures stand"), or the single runs where none were made.
fn whole_sets(r: &Reproduction, nn6: &[&(&Table5Row, &Summary)]) -> serde_json::Value {
    let reps: Vec<_> = r.replicated.iter().filter(|s| NN6_TRIALS.contains(&s.trial)).collect();
    // (trial, our accuracy is below the paper's, our epochs are fewer than the paper's)
    let (rows, accuracy, epochs): (Vec<(u8, bool, bool)>, String, String) = if reps.is_empty() {
        (
            nn6.iter()
                .map(|(p, s)| {
                    let below = (s.train_accuracy_pct * 10.0).round() / 10.0 < p.train_acc_pct;
                    (p.trial, below, s.epochs < p.epochs)
                })
                .collect(),
            span(nn6.iter().map(|(_, s)| s.train_accuracy_pct), 2),
            span(nn6.iter().map(|(_, s)| s.epochs as f64), 0),
        )
    } else {
        (
            reps.iter()
                .map(|s| {
                    let below = standing::place(s.train_lo, s.train_hi, s.paper_train) == Place::Below;
                    (s.trial, below, s.epochs_median < s.paper_epochs as f64)
                })
                .collect(),
            span(reps.iter().map(|s| s.train_mean), 2),
            span(reps.iter().map(|s| s.epochs_median), 0),
        )
    };
    json!({
        "replicated": !reps.is_empty(),
        "n": rows.len(),
        "below": rows.iter().filter(|r| r.1).map(|r| r.0).collect::<Vec<u8>>(),
        "sooner": rows.iter().filter(|r| r.2).count(),
        "accuracy": accuracy,
        "epochs": epochs,
        "paper": span(nn6.iter().map(|(p, _)| p.train_acc_pct), 1),
        "paper_epochs": span(nn6.iter().map(|(p, _)| p.epochs as f64), 0),
    })
}

/// The discussion section as Markdown (the template `discussion.md.j2`).
pub(super) fn markdown(e: &Engine, r: &Reproduction) -> Result<String> {
    let pairs = pairs(r);
    let nn6: Vec<&(&Table5Row, &Summary)> =
        pairs.iter().filter(|(p, _)| NN6_TRIALS.contains(&p.trial)).collect();
    let small_e2 = || pairs.iter().filter(|(p, _)| (21..=37).contains(&p.trial));
    let t38 = pairs.iter().find(|(p, _)| p.trial == 38);
    let context = json!({
        "small_epochs": span(small_e2().map(|(_, s)| s.epochs as f64), 0),
        "paper_small_epochs": span(small_e2().map(|(p, _)| p.epochs as f64), 0),
        "nn6_epochs": span(nn6.iter().map(|(_, s)| s.epochs as f64), 0),
        "paper_nn6_epochs": span(nn6.iter().map(|(p, _)| p.epochs as f64), 0),
        "budget38": t38.map_or(0, |(_, s)| s.max_epochs),
        "stop38": t38.map(|(_, s)| s.stop_reason.to_string()),
        "below": below(&pairs),
        "test_compare": test_compare(r),
        "least_e2": least_e2(r),
        "whole": whole_sets(r, &nn6),
        "a_file_errors": r.best_misclassified.len(),
    });
    templates::render(e, "discussion", &context)
}

/// The report's section "What explains the gap", or nothing where nothing was measured.
pub(super) fn gap(e: &Engine, gap: &Gap, paper: &[Table5Row]) -> Result<String> {
    if gap.studies.is_empty() && gap.trial38.is_none() {
        return Ok(String::new());
    }
    let p38 = paper.iter().find(|p| p.trial == 38);
    let context = json!({
        "studies": gap.studies,
        "trial38": gap.trial38,
        "paper38": p38.map(|p| json!({"epochs": p.epochs, "train": p.train_acc_pct})),
    });
    Ok(templates::render(e, "gap", &context)?.trim_end().to_string() + "\n")
}

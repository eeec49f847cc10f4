//! The report's discussion: where our figures differ from the paper's, and why. The prose is the
//! template `discussion.md` beside this file; the numbers come from the runs.

use super::standing::{self, Place};
use super::{NN6_TRIALS, Reproduction, paper_pct, pct, pct2, trial_number};
use crate::experiment::Summary;
use crate::paper::tables::{Scope, Table5Row};
use crate::template;

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
    let notes: Vec<String> = NN6_TRIALS
        .iter()
        .filter_map(|&t| {
            let (epoch, acc) = r.curve(t)?.least_e2?;
            let s = r.trial(t)?;
            Some(format!(
                "trial {t}: epoch {epoch}, {} % instead of {} %",
                pct(acc),
                pct2(s.train_accuracy_pct)
            ))
        })
        .collect();
    if notes.is_empty() { String::new() } else { format!(" (measured here: {})", notes.join("; ")) }
}

/// Each row of Table 5 with our trial of the same number.
fn pairs(r: &Reproduction) -> Vec<(&Table5Row, &Summary)> {
    r.paper
        .iter()
        .filter_map(|p| r.trials.iter().find(|s| trial_number(s) == Some(p.trial)).map(|s| (p, s)))
        .collect()
}

/// The sentence naming the small-set trials that end more than half a point below the paper.
fn below_sentence(pairs: &[(&Table5Row, &Summary)]) -> String {
    let below: Vec<String> = pairs
        .iter()
        .filter(|(p, s)| p.scope() == Scope::Small && s.train_accuracy_pct + 0.5 < p.train_acc_pct)
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

/// The whole-set trials against the paper: over the replicates (Table 5 over replicates, the
/// same figures as "Where our figures stand"), or the single runs where none were made.
fn whole_sets(r: &Reproduction, nn6: &[&(&Table5Row, &Summary)]) -> String {
    let reps: Vec<_> = r.replicated.iter().filter(|s| NN6_TRIALS.contains(&s.trial)).collect();
    let paper = span(nn6.iter().map(|(p, _)| p.train_acc_pct), 1);
    let paper_epochs = span(nn6.iter().map(|(p, _)| p.epochs as f64), 0);
    // (trial, our accuracy is below the paper's, our epochs are fewer than the paper's)
    let (rows, accuracy, epochs, what): (Vec<(u8, bool, bool)>, String, String, &str) = if reps.is_empty() {
        (
            nn6.iter()
                .map(|(p, s)| {
                    let below = (s.train_accuracy_pct * 10.0).round() / 10.0 < p.train_acc_pct;
                    (p.trial, below, s.epochs < p.epochs)
                })
                .collect(),
            span(nn6.iter().map(|(_, s)| s.train_accuracy_pct), 2),
            span(nn6.iter().map(|(_, s)| s.epochs as f64), 0),
            "In the runs above, our NN6 nets on T3-T5 reach {accuracy} % in {epochs} epochs",
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
            "Over the replicates, our NN6 nets on T3-T5 reach mean training accuracies of {accuracy} % \
             in median epoch counts of {epochs}",
        )
    };
    let below: Vec<String> = rows.iter().filter(|r| r.1).map(|r| r.0.to_string()).collect();
    let first = if below.is_empty() {
        let sooner = rows.iter().filter(|r| r.2).count();
        format!(
            "No whole-set trial's training accuracy lies below the paper's; {sooner} of the {} \
             {} fewer epochs than the paper ran.",
            rows.len(),
            if reps.is_empty() { "end in" } else { "have a median of" }
        )
    } else {
        format!("Trials {} stay below the paper's training accuracy.", below.join(", "))
    };
    let ours = what.replace("{accuracy}", &accuracy).replace("{epochs}", &epochs);
    format!("{first} {ours}, where the paper's reached {paper} % in {paper_epochs}.")
}

/// The discussion section as Markdown.
pub(super) fn markdown(r: &Reproduction) -> String {
    let pairs = pairs(r);
    let nn6: Vec<&(&Table5Row, &Summary)> =
        pairs.iter().filter(|(p, _)| NN6_TRIALS.contains(&p.trial)).collect();
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
            ("whole_sets", whole_sets(r, &nn6)),
            ("a_file_errors", r.best_misclassified.len().to_string()),
        ],
    )
}

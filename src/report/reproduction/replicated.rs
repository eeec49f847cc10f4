//! Table 5 over the replicates as a Markdown table in `REPRODUCTION.md`: each trial's means with
//! their 95% intervals and spreads beside the paper's single run
//! ([`crate::analysis::reproduction::table5`]), a trial cut at its budget marked.

use crate::analysis::reproduction::table5::Table5Stat;
use crate::experiment::rows::Summary;
use crate::paper::tables::{Scope, Table5Row};
use std::fmt::Write;

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "**no**" }
}

/// The mark of a trial whose budget (`max_epochs`) lies below the paper's epoch count, and of
/// one whose runs reached a budget equal to the paper's count: the footnote under the table
/// (templates/reproduction/replicated.md.j2) explains both.
pub const BELOW_THE_PAPERS: &str = "‡";
pub const AT_THE_PAPERS: &str = "†";

/// The mark of trial `r` (see [`BELOW_THE_PAPERS`]), from its config's budget in `trials`.
pub fn cap_mark(r: &Table5Stat, trials: &[Summary]) -> &'static str {
    let budget = trials.iter().find(|s| s.trial_number() == Some(r.trial)).map(|s| s.max_epochs);
    match budget {
        Some(b) if b < r.paper_epochs => BELOW_THE_PAPERS,
        _ if r.capped > 0 => AT_THE_PAPERS,
        _ => "",
    }
}

/// The replicated Table 5 as a Markdown table, capped trials marked ([`cap_mark`]).
pub fn markdown(rows: &[Table5Stat], paper: &[Table5Row], trials: &[Summary]) -> String {
    let mut w = String::new();
    let _ = writeln!(
        w,
        "| trial | set | E | target | runs | epochs: paper | ours, median (95% of runs) | kept epoch, median | \
         train %: paper | ours, mean [95% CI] (95% of runs) | paper within? | test %: paper | ours, mean [95% CI] \
         (95% of runs) | paper within? | all wins: train / test % |"
    );
    let _ = writeln!(w, "|---:|---|---|---:|---:|---:|---|---:|---:|---|---|---:|---|---|---|");
    for r in rows {
        let Some(p) = paper.iter().find(|p| p.trial == r.trial) else { continue };
        let d = if p.scope() == Scope::Whole { 2 } else { 1 };
        let test = match (r.test_mean, r.test_lo, r.test_hi, r.test_spread_lo, r.test_spread_hi) {
            (Some(m), Some(lo), Some(hi), Some(a), Some(b)) => {
                format!("{m:.1} [{lo:.1}, {hi:.1}] ({a:.1}–{b:.1})")
            }
            _ => "—".into(),
        };
        let _ = writeln!(
            w,
            "| {}{} | {}{} | {} | {:.2} | {} | {} | {:.0} ({:.0}–{:.0}){} | {:.0} | {} | {:.d$} [{:.d$}, {:.d$}] ({:.d$}–{:.d$}) | {} | {} | {} | {} | {:.1} / {} |",
            r.trial,
            cap_mark(r, trials),
            p.train_set,
            p.train_set.testing_set().map_or_else(String::new, |s| format!("/{s}")),
            p.error_fn,
            p.target,
            r.replicates,
            r.paper_epochs,
            r.epochs_median,
            r.epochs_spread_lo,
            r.epochs_spread_hi,
            if r.capped > 0 { format!("; {} at the cap", r.capped) } else { String::new() },
            r.kept_epoch_median,
            r.paper_train,
            r.train_mean,
            r.train_lo,
            r.train_hi,
            r.train_spread_lo,
            r.train_spread_hi,
            yes(r.paper_train_inside),
            r.paper_test.map_or_else(|| "—".into(), |v| format!("{v:.0}")),
            test,
            r.paper_test_inside.map_or("—", yes),
            r.majority_train,
            r.majority_test.map_or_else(|| "—".into(), |v| format!("{v:.1}")),
        );
    }
    w
}

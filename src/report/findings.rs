//! The parts of `REPRODUCTION.md` that rest on replicates and on extra runs: Table 5 with
//! intervals, the readings of the stopping rule compared, trial 40 as trial 39 continued, and
//! section 5.1's comments checked.

use super::reproduction::{Continued, Overlap, Readings, Reproduction};
use crate::experiment::Summary;
use crate::experiment::readings::ReadingDistance;
use crate::experiment::sweep::{self, SweepRow};
use crate::report::readings_robustness;
use crate::report::section51;
use crate::report::table5::{self, Table5Stat};
use std::fmt::Write;

pub fn write_replicated(w: &mut String, r: &Reproduction) {
    if r.replicated.is_empty() {
        return;
    }
    let small = r.replicated.iter().find(|s| s.trial <= 37);
    let whole = r.replicated.iter().find(|s| s.trial >= 38);
    let _ = writeln!(w, "### Table 5 over replicates: means and 95% intervals\n");
    let _ = writeln!(
        w,
        "Each trial run again under other weight seeds and other draws of the small sets: {} on the \
         small sets ({} weight seeds × {} draws of T1/S1 or T2/S2), {} weight seeds on the whole sets \
         (one draw: they are every position). Replicate (0, 0) is the run in the table above. *95% CI* \
         is the Student-t interval of our mean; *95% of runs* is the range from the 2.5% to the 97.5% \
         quantile of single runs, where one more run would fall; the paper's figure is one run, so \
         *paper within?* asks whether it lies in that range (our bounds rounded as the paper prints). \
         *All wins* is the accuracy of calling every position a win, the majority class of every set \
         (section 5.1), mean over the draws. Written as `table5.csv`.\n",
        small.map_or(0, |s| s.replicates),
        small.map_or(0, |s| s.seeds),
        small.map_or(0, |s| s.draws),
        whole.map_or(0, |s| s.replicates),
    );
    let _ = writeln!(w, "{}", table5::markdown(&r.replicated, &r.paper));
    let n = r.replicated.len();
    let train_in = r.replicated.iter().filter(|s| s.paper_train_inside).count();
    let tested: Vec<_> = r.replicated.iter().filter_map(|s| s.paper_test_inside).collect();
    let test_in = tested.iter().filter(|&&b| b).count();
    let epochs_in = r.replicated.iter().filter(|s| s.paper_epochs_inside).count();
    let _ = writeln!(
        w,
        "The paper's training accuracy lies within the range of 95% of our runs in {train_in} of {n} trials, \
         its testing accuracy in {test_in} of {}, its epoch count in {epochs_in} of {n}{}.\n",
        tested.len(),
        capped_note(&r.replicated)
    );
}

/// Which trials' runs reached their budget, and where the paper's count is not compared for it.
fn capped_note(rows: &[Table5Stat]) -> String {
    let capped: Vec<String> = rows.iter().filter(|s| s.capped > 0).map(|s| s.trial.to_string()).collect();
    if capped.is_empty() {
        return String::new();
    }
    format!(
        " (*at the cap*: runs ended by the budget `max_epochs`, not by the stopping rule, in trials {}; \
         where the budget is at or below the paper's count, the paper's count is not counted as within \
         our range)",
        capped.join(", ")
    )
}

pub fn write_section51(w: &mut String, r: &Reproduction) {
    if r.claims.is_empty() {
        return;
    }
    let _ = writeln!(w, "## Section 5.1 revisited: the paper's comments against our replicates\n");
    let _ = writeln!(
        w,
        "Each row compares two groups of our replicated runs (every weight seed and draw of the trials \
         named). *Confirmed* means the 95% interval of the difference lies on the paper's side of 0, \
         *contradicted* that it lies on the other, *not shown* that it holds 0. Runs of one trial share \
         their draws, so the groups are not fully independent; the intervals are indicative.{}\n",
        conspicuous_rule(&r.claims)
    );
    let _ = writeln!(w, "{}", section51::markdown(&r.claims));
    let small: Vec<&Table5Stat> = r.replicated.iter().filter(|s| s.trial <= 37).collect();
    if !small.is_empty() {
        let mut by_train: Vec<&Table5Stat> = small.clone();
        by_train.sort_by(|a, b| a.train_mean.total_cmp(&b.train_mean));
        let rank = |t: u8| by_train.iter().position(|s| s.trial == t).map_or(0, |p| p + 1);
        let lowest: Vec<String> =
            by_train.iter().take(3).map(|s| format!("{} ({:.1} %)", s.trial, s.train_mean)).collect();
        let floor = small.iter().map(|s| s.train_spread_lo).fold(f64::INFINITY, f64::min);
        let _ = writeln!(
            w,
            "- *\"All trials produced NNs with at least 92% accuracy on the training set\"*: the lowest 2.5% \
             quantile of our runs' training accuracy over trials 1-37 is {floor:.1} %.\n- *\"The lowest success rates in trials 2 and 14\"*: by mean training accuracy over the replicates, \
             trial 2 ranks {} and trial 14 ranks {} of {} (1 = lowest); our three lowest are {}.\n",
            rank(2),
            rank(14),
            small.len(),
            lowest.join(", ")
        );
    }
}

/// How a claim of no conspicuous gain is judged, where the claims hold one (section 5.1 on
/// compression: "did not prove conspicuously more effective").
fn conspicuous_rule(claims: &[section51::Claim]) -> String {
    let Some(t) = claims.iter().find_map(|c| c.conspicuous) else {
        return String::new();
    };
    format!(
        " The paper's \"not conspicuously more effective\" is judged against a gain of {t} point, the \
         precision of Table 5's small-set accuracies (whole %): *confirmed* when the interval of the gain \
         lies below it, *contradicted* when it lies at or above it, *not shown* when it spans it. Those \
         rows compare within side to move, as wtm and btm test differently (the row above) and the \
         groups hold unequal shares of each."
    )
}

/// The readings of section 4.5 compared (`kpk readings`, `reports/readings/distances.csv`).
pub fn write_readings(w: &mut String, readings: &Readings) {
    let Some(first) = readings.distances.first() else {
        return;
    };
    let _ = writeln!(w, "## The stopping rule and the kept state, examined\n");
    let _ = writeln!(
        w,
        "Section 4.5: \"Training was terminated if, for the last 20 epochs of training, the error target \
         had been exceeded or the NN had failed to improve the number of positions classified correctly\", \
         then \"choose the end-of-epoch NN-state with the minimal E1/2\". The sentence does not say \
         whether either condition alone stops training, nor whether the 20 epochs also bound the wait for \
         an improvement; the last clause keeps the least E1/E2, which with E2 is an early, unconfident \
         state. `kpk readings` trains every trial's replicates once ({} runs of each small-set trial, {} of \
         each whole-set trial, under the latest-stopping reading) and reads each reading's stop and kept \
         epoch off the same runs. The distance to the paper over the 41 trials: *epochs* = mean \
         |log2(our median epochs run / the paper's epochs)| (1 = a factor of two); *kept* the same with \
         our kept epoch; *train* = mean |our mean training accuracy − the paper's| in points; **distance \
         = epochs + train / 2**. *Truncated* counts runs whose budget ended before the reading's own \
         condition stopped them (1,000 epochs on the small sets; the config's `max_epochs` on the whole \
         sets, so every run of trial 38, capped at 400 of the paper's 1,000, counts under a reading that \
         would have gone on): their epochs and accuracy are those at the budget.\n",
        first.small_set_replicates, first.whole_set_replicates
    );
    let ranking = &readings.ranking;
    let interval = |label: &str| ranking.as_ref().and_then(|r| r.order.iter().find(|o| o.reading == label));
    let _ = writeln!(
        w,
        "| reading (window / patience in epochs) | epochs | kept | train, points | distance | distance [95%] | minus the closest [95%] | truncated |"
    );
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---|---|---:|");
    let mut sorted: Vec<&ReadingDistance> = readings.distances.iter().collect();
    sorted.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    for (i, d) in sorted.iter().enumerate() {
        let label = if i == 0 { format!("**{}**", d.reading) } else { d.reading.clone() };
        let (ci, vs) = interval(&d.reading).map_or_else(
            || ("—".to_string(), "—".to_string()),
            |o| {
                (
                    format!("[{:.3}, {:.3}]", o.lo, o.hi),
                    format!("{:+.3} [{:+.3}, {:+.3}]", o.vs_closest, o.vs_closest_lo, o.vs_closest_hi),
                )
            },
        );
        let _ = writeln!(
            w,
            "| {label} | {:.3} | {:.3} | {:.2} | {:.3} | {ci} | {vs} | {} |",
            d.epochs_log2, d.kept_log2, d.train_points, d.distance, d.truncated
        );
    }
    let best = sorted[0];
    let _ = writeln!(
        w,
        "\nThe closest reading, **{}**, is the configs' default (`stop = \"{}\"`, `window = {}`, \
         `patience = {}`, `keep = \"{}\"`); every other reading stays available as config values.{}\n",
        best.reading,
        best.stop,
        best.window,
        best.patience,
        best.keep,
        least_error_verdict(readings)
    );
    if let Some(r) = ranking {
        readings_robustness::write(w, r, readings);
    }
}

/// What keeping the least error measure (the paper's algorithm box) does, from the runs: how its
/// training accuracy compares with keeping the most correct state, and which epoch it keeps on the
/// whole sets.
fn least_error_verdict(readings: &Readings) -> String {
    let points = |keep: &str| -> Vec<f64> {
        readings.distances.iter().filter(|d| d.keep == keep).map(|d| d.train_points).collect()
    };
    let (least, most) = (points("least_error"), points("most_correct"));
    let mut out = String::new();
    let least = least.into_iter().fold(f64::INFINITY, f64::min);
    let most = most.into_iter().fold(f64::NEG_INFINITY, f64::max);
    if least.is_finite() && most.is_finite() && least > most {
        let _ = write!(
            out,
            " Keeping the least error measure, as the paper's algorithm box says, is further from the \
             paper's training accuracies under every stopping condition ({least:.2} points or more) than \
             keeping the most correct state under any ({most:.2} points or fewer)."
        );
    }
    if let Some((lo, hi)) = readings.least_error_kept {
        let epochs = if lo == hi { format!("epoch {lo}") } else { format!("epochs {lo}-{hi}") };
        let _ = write!(
            out,
            " With E2 it keeps {epochs} (median over the runs) of the whole-set trials 38-41: an early \
             state with E2 below the untrained net's, before any position is learnt with confidence."
        );
    }
    out
}

/// The learning-rate sweep of the small-set trials (`kpk readings --learning-rates`,
/// `reports/readings/sweep.csv`), each rate against the configs' by a paired bootstrap.
pub fn write_sweep(w: &mut String, rows: &[SweepRow]) {
    let Some(first) = rows.first() else {
        return;
    };
    let configs = first.configs_rate;
    let _ = writeln!(w, "### The learning rate of the small-set trials: one sweep\n");
    let _ = writeln!(
        w,
        "The paper gives no step size. The configs' η = {configs} for NN1-NN5 was chosen before this \
         sweep and is its reference. The sweep (trials 1-37; `kpk readings --trials 1-37 --seeds 10 \
         --draws 2 --learning-rates …`) trains \
         every small-set trial's replicates at each rate under the configs' stopping rule and kept state \
         and scores them by the distance above. The intervals are a paired bootstrap over the replicates \
         ({} resamples of the same weight seeds and draws for every trial and rate, seed {}): \
         *minus η = {configs}* is a rate's distance minus the configs' rate's; a rate is measurably \
         closer to the paper only when that interval lies below 0. The NN6 trials 38-41 keep η = 0.03 \
         from a separate sweep on T4 (`docs/TRAINER.md`, \"Choosing η\").\n",
        sweep::BOOTSTRAP_RESAMPLES,
        sweep::BOOTSTRAP_SEED
    );
    let _ = writeln!(
        w,
        "| η | runs | epochs: mean \\|log2 ratio\\| | training: mean \\|gap\\|, points | distance [95%] | minus η = {configs} [95%] | training accuracy %, mean [95% CI] |"
    );
    let _ = writeln!(w, "|---:|---:|---|---|---|---|---|");
    for r in rows {
        let eta = if r.learning_rate == configs {
            format!("**{}**", r.learning_rate)
        } else {
            r.learning_rate.to_string()
        };
        let _ = writeln!(
            w,
            "| {eta} | {} | {:.2} [{:.2}, {:.2}] | {:.2} [{:.2}, {:.2}] | {:.2} [{:.2}, {:.2}] | {:+.3} [{:+.3}, {:+.3}] | {:.1} [{:.1}, {:.1}] |",
            r.runs,
            r.epochs_log2,
            r.epochs_log2_lo,
            r.epochs_log2_hi,
            r.train_points,
            r.train_points_lo,
            r.train_points_hi,
            r.distance,
            r.distance_lo,
            r.distance_hi,
            r.vs_configs,
            r.vs_configs_lo,
            r.vs_configs_hi,
            r.train_mean,
            r.train_lo,
            r.train_hi
        );
    }
    let closer: Vec<String> =
        rows.iter().filter(|r| r.vs_configs_hi < 0.0).map(|r| format!("η = {}", r.learning_rate)).collect();
    let tied: Vec<String> = rows
        .iter()
        .filter(|r| r.learning_rate != configs && r.vs_configs_lo <= 0.0 && r.vs_configs_hi >= 0.0)
        .map(|r| format!("η = {}", r.learning_rate))
        .collect();
    let verdict = if closer.is_empty() {
        format!("No rate of the sweep is measurably closer to the paper than the configs' η = {configs}")
    } else {
        format!("Measurably closer to the paper than the configs' η = {configs}: {}", closer.join(", "))
    };
    let tied = if tied.is_empty() {
        String::new()
    } else {
        format!("; {} cannot be told apart from it on these replicates", tied.join(", "))
    };
    let kept = if closer.is_empty() {
        String::new()
    } else {
        format!(
            " The configs keep η = {configs}: the section 6 studies build on trial 21's config, so a \
             change of rate reruns them as well as trials 1-37; moving the configs to the closer rate is \
             left open."
        )
    };
    let _ = writeln!(
        w,
        "\n{verdict}{tied}.{kept}\n\n![Learning-rate sweep: distance to the paper's Table 5 against η, with 95% bootstrap intervals](readings/sweep.png)\n"
    );
}

/// A run's misclassified positions against the paper's list, in words.
fn overlap(o: &Overlap) -> String {
    let Overlap { common, wrong, expected, p } = *o;
    format!(
        "{common} of its {wrong} on the paper's list (chance alone: {expected:.2e} expected, P(≥ {common}) = {p:.2e})"
    )
}

/// Trial 40 as the paper may have run it: trial 39 continued to 6,285 epochs, beside the
/// independent trial 40.
pub fn write_continued(w: &mut String, continued: &Continued, t40: Option<&Summary>) {
    let _ = writeln!(w, "## Trial 40 as trial 39 continued\n");
    let _ = writeln!(
        w,
        "*Hypothesis:* Table 5 prints trial 40 with its set and target cells blank under trial 39's, and \
         section 5.1 attributes both Figure 3 and Table 6's 51 positions to trial 39, so trial 40 may be \
         trial 39's net trained on to 6,285 epochs rather than an independent run. Training is \
         deterministic, so trial 39's config run for 6,285 epochs without early stopping \
         (`experiments/trial40/trial39_continued.toml`, folder `reports/trial39_continued/`) is trial 39 \
         continued; its first 1,610 epochs are trial 39 as the paper ran it.\n"
    );
    let fmt = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |e| format!("{e:.0}"));
    let _ = writeln!(w, "| run | epochs | a-file positions misclassified (m = 0) | paper |");
    let _ = writeln!(w, "|---|---:|---:|---:|");
    let _ = writeln!(
        w,
        "| trial 39 continued, at epoch 1,610 | 1610 | {} | 0.4 % ≈ 83 (trial 39) |",
        fmt(continued.errors_at_1610)
    );
    let _ = writeln!(
        w,
        "| trial 39 continued, at epoch 6,285 | 6285 | {} | 51 (trial 40, Table 6) |",
        fmt(continued.errors_at_6285)
    );
    let _ = writeln!(
        w,
        "| trial 39 continued, kept state (most correct) | {} | {} | 51 |",
        continued.summary.best_epoch, continued.summary.train_misclassified
    );
    if let Some(s) = t40 {
        let _ = writeln!(
            w,
            "| trial 40, independent run (seed 40), kept state | {} (kept {}) | {} | 51 |",
            s.epochs, s.best_epoch, s.train_misclassified
        );
    }
    let _ = writeln!(
        w,
        "\nThe continued run first has at most 51 errors at epoch {}. Its kept state has {}; the \
         independent trial 40 has {}. Neither run matches the paper: both fall far below its residue \
         of 51 long before 1,610 epochs, so at our step size neither reading of trial 40 reproduces \
         Figure 3's slow descent or Table 6's 51, and these runs cannot tell which of the two the \
         paper ran.\n",
        continued.first_51.map_or_else(|| "— (never)".to_string(), |e| e.to_string()),
        overlap(&continued.overlap),
        overlap(&continued.t40_overlap),
    );
}

//! The reproduction's figures: Figure 3 (trials 39 and 40), the NN6 accuracy curves and Table 5 at
//! a glance.

use super::*;

/// Figure 3: the % of a-file wtm positions misclassified (m = 0), by epoch, for trials 39 and 40,
/// with the kept states and the paper's final figures marked.
pub(super) fn figure3(
    paper: &[Table5Row],
    t39: &Option<(&Summary, &Vec<EpochMetrics>)>,
    t40: &Option<(&Summary, &Vec<EpochMetrics>)>,
) -> LineChart {
    let mut series = Vec::new();
    let mut top: f64 = 1.0;
    let mut right: f64 = 2.0;
    for (k, (t, run)) in [(39u8, t39), (40u8, t40)].into_iter().enumerate() {
        let colour = 2 * k;
        if let Some((s, rows)) = run {
            let points: Vec<(f64, f64)> =
                rows.iter().map(|r| (r.epoch as f64, 100.0 - r.accuracy_m0_pct())).collect();
            top = points.iter().map(|p| p.1).fold(top, f64::max);
            right = right.max(rows.len() as f64);
            series.push(Series::new(format!("trial {t}, ours"), points, colour));
            series.push(
                Series::new(
                    format!("trial {t}, ours, kept state"),
                    vec![(s.best_epoch as f64, 100.0 - s.train_accuracy_pct)],
                    colour,
                )
                .with_markers(),
            );
        }
        if let Some(p) = paper.iter().find(|p| p.trial == t) {
            right = right.max(p.epochs as f64);
            series.push(
                Series::new(
                    format!("trial {t}, paper"),
                    vec![(p.epochs as f64, p.train_err_pct)],
                    colour + 1,
                )
                .with_markers(),
            );
        }
    }
    LineChart {
        title: "Residual inaccuracy on a-file wtm positions (T4), trials 39-40".into(),
        x_label: "epoch (log scale)".into(),
        y_label: "positions misclassified (m = 0), %".into(),
        y_range: (0.0, top.min(10.0)),
        y2: None,
        log_x: true,
        legend_top: true,
        x_range: Some((1.0, right)),
        series,
    }
}

pub(super) fn nn6_chart(summaries: &[Summary], metrics: &[Vec<EpochMetrics>]) -> LineChart {
    let mut series = Vec::new();
    let mut right: f64 = 2.0;
    let mut low: f64 = 100.0;
    for (k, t) in NN6_TRIALS.into_iter().enumerate() {
        if let Some((s, rows)) = summaries.iter().zip(metrics).find(|(s, _)| trial_number(s) == Some(t)) {
            let points: Vec<(f64, f64)> =
                rows.iter().map(|r| (r.epoch as f64, r.accuracy_m0_pct())).collect();
            low = points.iter().skip(5).map(|p| p.1).fold(low, f64::min);
            right = right.max(rows.len() as f64);
            series.push(Series::new(format!("trial {t} ({})", s.training_set), points, k));
        }
    }
    LineChart {
        title: "NN6 (32-32-5-2): training accuracy (m = 0) by epoch".into(),
        x_label: "epoch (log scale)".into(),
        y_label: "training accuracy, %".into(),
        y_range: ((low / 5.0).floor() * 5.0, 100.0),
        y2: None,
        log_x: true,
        legend_top: false,
        x_range: Some((1.0, right)),
        series,
    }
}

pub(super) fn table5_chart(paper: &[Table5Row], summaries: &[Summary]) -> LineChart {
    let ours = |f: &dyn Fn(&Summary) -> Option<f64>| -> Vec<(f64, f64)> {
        summaries.iter().filter_map(|s| Some((f64::from(trial_number(s)?), f(s)?))).collect()
    };
    let theirs = |f: &dyn Fn(&Table5Row) -> Option<f64>| -> Vec<(f64, f64)> {
        paper.iter().filter_map(|p| Some((f64::from(p.trial), f(p)?))).collect()
    };
    let series = vec![
        Series::new("training, paper", theirs(&|p| Some(p.train_acc_pct)), 0).with_markers().dashed(),
        Series::new("training, ours", ours(&|s| Some(s.train_accuracy_pct)), 0).with_markers(),
        Series::new("testing, paper", theirs(&|p| p.test_acc_pct), 1).with_markers().dashed(),
        Series::new("testing, ours", ours(&|s| s.test_accuracy_pct), 1).with_markers(),
    ];
    let low = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(100.0f64, f64::min);
    LineChart {
        title: "Table 5: accuracy per trial, the paper's (dashed) and ours".into(),
        x_label: "trial".into(),
        y_label: "accuracy, %".into(),
        y_range: ((low / 10.0).floor() * 10.0, 100.0),
        y2: None,
        log_x: false,
        legend_top: false,
        x_range: Some((0.5, 41.5)),
        series,
    }
}

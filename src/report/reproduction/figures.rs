//! The reproduction's figures: Figure 3 (trials 39 and 40, and trial 39 continued), the NN6
//! accuracy curves and Table 5 at a glance with the replicates' intervals.

use super::*;
use crate::report::plot::{Legend, LineChart, Series};

/// The a-file wtm positions (the set T4): the set of Figure 3 and Table 6.
const A_FILE_POSITIONS: f64 = 20_643.0;

/// Table 6's count: the positions the paper's best net still misclassified.
const PAPER_RESIDUE: f64 = 51.0;

/// A run's misclassified positions (m = 0) by epoch.
fn wrong_by_epoch(rows: &[EpochMetrics]) -> Vec<(f64, f64)> {
    rows.iter().map(|r| (r.epoch as f64, r.wrong_m0() as f64)).collect()
}

/// Figure 3: the a-file wtm positions misclassified (m = 0) by epoch, both axes logarithmic, for
/// trials 39 and 40 and for trial 39 trained on to the paper's 6,285 epochs; the kept states; the
/// paper's end points (Table 5's % of 20,643) and its 51 (Table 6) as a reference line.
pub(super) fn figure3(
    paper: &[Table5Row],
    t39: &Option<(&Summary, &Vec<EpochMetrics>)>,
    t40: &Option<(&Summary, &Vec<EpochMetrics>)>,
    continued: Option<&ExtraRun>,
) -> LineChart {
    let mut series = Vec::new();
    let mut top: f64 = 100.0;
    let mut right: f64 = 10.0;
    // Trial 39 trained on shares trial 39's first epochs: drawn first, so trial 39 shows on top.
    if let Some(c) = continued {
        right = right.max(c.metrics.len() as f64);
        series.push(Series::new("trial 39 trained on to 6,285 epochs, ours", wrong_by_epoch(&c.metrics), 4));
    }
    for (k, (t, run)) in [(39u8, t39), (40u8, t40)].into_iter().enumerate() {
        let colour = 2 * k;
        if let Some((s, rows)) = run {
            let points = wrong_by_epoch(rows);
            top = points.iter().map(|p| p.1).fold(top, f64::max);
            right = right.max(rows.len() as f64);
            series.push(Series::new(format!("trial {t}, ours"), points, colour));
            series.push(
                Series::new(
                    format!("trial {t}, ours: kept epoch"),
                    vec![(s.best_epoch as f64, s.train_misclassified as f64)],
                    colour,
                )
                .points_only(),
            );
        }
        if let Some(p) = paper.iter().find(|p| p.trial == t) {
            right = right.max(p.epochs as f64);
            let wrong = (p.train_err_pct / 100.0 * A_FILE_POSITIONS).round();
            series.push(
                Series::new(
                    format!("trial {t}, paper (Table 5)"),
                    vec![(p.epochs as f64, wrong)],
                    colour + 1,
                )
                .points_only(),
            );
        }
    }
    let frame = (1.0, (right * 1.6).max(10.0));
    series.push(Series::reference("the paper's 51 (Table 6)", PAPER_RESIDUE, frame, 7));
    LineChart {
        title: "Figure 3 (ours): misclassified a-file wtm positions (T4) by epoch".into(),
        x_label: "epoch (log scale)".into(),
        y_label: "positions misclassified at m = 0 (log scale)".into(),
        y_range: (1.0, 10f64.powf(top.log10().ceil())),
        y2: None,
        x_range: Some(frame),
        log_x: true,
        log_y: true,
        legend: Legend::UpperRight,
        integer_x: false,
        series,
    }
}

/// Training accuracy (m = 0) by epoch of the NN6 trials 38-41, every epoch inside the frame.
pub(super) fn nn6_chart(summaries: &[Summary], metrics: &[Vec<EpochMetrics>]) -> LineChart {
    let mut series = Vec::new();
    let mut right: f64 = 2.0;
    let mut low: f64 = 100.0;
    for (k, t) in NN6_TRIALS.into_iter().enumerate() {
        if let Some((s, rows)) = summaries.iter().zip(metrics).find(|(s, _)| trial_number(s) == Some(t)) {
            let points: Vec<(f64, f64)> =
                rows.iter().map(|r| (r.epoch as f64, r.accuracy_m0_pct())).collect();
            low = points.iter().map(|p| p.1).fold(low, f64::min);
            right = right.max(rows.len() as f64);
            series.push(Series::new(
                format!("trial {t} ({}, {} positions)", s.training_set, s.train_positions),
                points,
                k,
            ));
        }
    }
    LineChart {
        title: "NN6 (32-32-5-2): training accuracy (m = 0) by epoch, whole sets".into(),
        x_label: "epoch (log scale)".into(),
        y_label: "training accuracy, %".into(),
        // Room above 100 % so that a line at 100 % is not drawn on the frame.
        y_range: (low.floor(), 100.5),
        y2: None,
        x_range: Some((1.0, right)),
        log_x: true,
        log_y: false,
        legend: Legend::LowerRight,
        integer_x: false,
        series,
    }
}

/// A mean and its interval's bounds, read from one row of Table 5 over the replicates.
type Interval3 = dyn Fn(&Table5Stat) -> Option<(f64, f64, f64)>;

/// Table 5 at a glance: per trial, the paper's accuracy and our mean over the replicates with its
/// 95% interval (points only: the trials are not a sequence).
pub(super) fn table5_chart(paper: &[Table5Row], replicated: &[Table5Stat]) -> LineChart {
    let at = |t: u8, shift: f64| f64::from(t) + shift;
    let theirs = |f: &dyn Fn(&Table5Row) -> Option<f64>| -> Vec<(f64, f64)> {
        paper.iter().filter_map(|p| Some((at(p.trial, -0.2), f(p)?))).collect()
    };
    let ours = |f: &Interval3| {
        let rows: Vec<(f64, (f64, f64, f64))> =
            replicated.iter().filter_map(|r| Some((at(r.trial, 0.2), f(r)?))).collect();
        let points = rows.iter().map(|&(x, (m, _, _))| (x, m)).collect();
        let bars = rows.iter().map(|&(x, (_, lo, hi))| (x, lo, hi)).collect();
        (points, bars)
    };
    let (train, train_bars) = ours(&|r| Some((r.train_mean, r.train_lo, r.train_hi)));
    let (test, test_bars) = ours(&|r| Some((r.test_mean?, r.test_lo?, r.test_hi?)));
    let series = vec![
        Series::new("training, paper", theirs(&|p| Some(p.train_acc_pct)), 1).points_only(),
        Series::new("training, ours: mean and 95% interval", train, 0)
            .points_only()
            .with_error_bars(train_bars),
        Series::new("testing, paper", theirs(&|p| p.test_acc_pct), 3).points_only(),
        Series::new("testing, ours: mean and 95% interval", test, 2).points_only().with_error_bars(test_bars),
    ];
    let low = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1).chain(s.error_bars.iter().map(|b| b.1)))
        .fold(100.0f64, f64::min);
    LineChart {
        title: "Table 5: accuracy per trial, the paper's and ours over the replicates".into(),
        x_label: "trial (Table 5 row)".into(),
        y_label: "accuracy, %".into(),
        y_range: ((low / 5.0).floor() * 5.0, 100.5),
        y2: None,
        x_range: Some((0.0, 42.0)),
        log_x: false,
        log_y: false,
        legend: Legend::LowerRight,
        integer_x: false,
        series,
    }
}

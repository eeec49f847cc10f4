//! A trial's chart `accuracy.png`.

use crate::report::plot::{LineChart, Series};
use crate::train::EpochMetrics;

/// The chart `accuracy.png`: training (and testing) accuracy on the left axis, E1 and E2 on the
/// right, by epoch.
pub fn accuracy_chart(title: &str, rows: &[EpochMetrics]) -> LineChart {
    let points = |f: &dyn Fn(&EpochMetrics) -> Option<f64>| -> Vec<(f64, f64)> {
        rows.iter().filter_map(|r| f(r).map(|v| (r.epoch as f64, v))).collect()
    };
    let differs = rows.iter().any(|r| r.train_accuracy_m0_pct.is_some_and(|a| a != r.train_accuracy_pct));
    let mut series = if differs {
        vec![
            Series::new("training accuracy, m = 0", points(&|r| r.train_accuracy_m0_pct), 0),
            Series::new("training accuracy at the margin", points(&|r| Some(r.train_accuracy_pct)), 4),
        ]
    } else {
        vec![Series::new("training accuracy", points(&|r| Some(r.train_accuracy_pct)), 0)]
    };
    let test = points(&|r| r.test_accuracy_pct);
    if !test.is_empty() {
        series.push(Series::new("testing accuracy", test, 2));
    }
    series.push(Series::new("E1", points(&|r| Some(r.e1)), 1).on_right_axis().dashed());
    series.push(Series::new("E2", points(&|r| Some(r.e2)), 3).on_right_axis().dashed());
    let low = rows
        .iter()
        .flat_map(|r| [Some(r.train_accuracy_pct), r.test_accuracy_pct])
        .flatten()
        .fold(100.0f64, f64::min);
    LineChart {
        title: title.to_string(),
        x_label: "epoch".into(),
        y_label: "accuracy, %".into(),
        // From the nearest 10% below the worst accuracy, so late progress stays visible.
        y_range: ((low / 10.0).floor() * 10.0, 100.0),
        y2: Some(("error (E1, E2)".into(), (0.0, 1.0))),
        log_x: false,
        log_y: false,
        legend_top: false,
        x_range: Some((1.0, rows.last().map_or(1, |r| r.epoch).max(2) as f64)),
        series,
    }
}

//! A trial's chart `accuracy.png` (and `accuracy.svg`).

use super::config::TrialConfig;
use super::rows::Summary;
use crate::figures::colours::Measure;
use crate::figures::plot::{Legend, LineChart, Series};
use crate::train::EpochMetrics;
use serde::Deserialize;
use std::sync::LazyLock;

/// The words of the experiment stage's charts, from `charts.toml`.
#[derive(Deserialize)]
pub(super) struct ChartText {
    accuracy: AccuracyText,
    pub(super) sweep: SweepText,
}

#[derive(Deserialize)]
struct AccuracyText {
    at_margin: String,
    y2_label: String,
}

/// The learning-rate sweep's title, axes and series ([`super::sweep::save_chart`]).
#[derive(Deserialize)]
pub(super) struct SweepText {
    pub(super) title: String,
    pub(super) x_label: String,
    pub(super) y_label: String,
    pub(super) distance: String,
    pub(super) epochs: String,
    pub(super) train: String,
}

pub(super) static TEXT: LazyLock<ChartText> =
    LazyLock::new(|| toml::from_str(include_str!("charts.toml")).expect("charts.toml parses"));

/// What a trial's chart marks beside its curves, where known: the margin m of section 4.3, the
/// error target of section 4.5 and the kept epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChartMarks {
    pub margin: Option<f64>,
    pub error_target: Option<f64>,
    pub kept_epoch: Option<usize>,
}

impl ChartMarks {
    /// The marks of a trial run from its config and its summary.
    pub fn of(config: &TrialConfig, summary: Option<&Summary>) -> ChartMarks {
        ChartMarks {
            margin: (config.output().width() == 2).then_some(config.margin),
            error_target: Some(config.error_target),
            kept_epoch: summary.map(|s| s.best_epoch),
        }
    }
}

/// The chart `accuracy.png`: training (and testing) accuracy on the left axis, E1 and E2 on the
/// right, by epoch; the error target as a line on the right axis and the kept epoch as a point.
pub fn accuracy_chart(title: &str, rows: &[EpochMetrics], marks: &ChartMarks) -> LineChart {
    let points = |f: &dyn Fn(&EpochMetrics) -> Option<f64>| -> Vec<(f64, f64)> {
        rows.iter().filter_map(|r| f(r).map(|v| (r.epoch as f64, v))).collect()
    };
    let differs = rows.iter().any(|r| r.train_accuracy_m0_pct.is_some_and(|a| a != r.train_accuracy_pct));
    let at_margin = &TEXT.accuracy.at_margin;
    let at_margin = match marks.margin {
        Some(m) => format!("{at_margin} m = {m}"),
        None => at_margin.clone(),
    };
    let mut series = if differs {
        vec![
            Series::new(
                "training accuracy, m = 0",
                points(&|r| r.train_accuracy_m0_pct),
                Measure::Training.colour(),
            ),
            Series::new(at_margin, points(&|r| Some(r.train_accuracy_pct)), Measure::Margin.colour()),
        ]
    } else {
        vec![Series::new(
            "training accuracy",
            points(&|r| Some(r.train_accuracy_pct)),
            Measure::Training.colour(),
        )]
    };
    let test = points(&|r| r.test_accuracy_pct);
    if !test.is_empty() {
        series.push(Series::new("testing accuracy", test, Measure::Testing.colour()));
    }
    series.push(Series::new("E1", points(&|r| Some(r.e1)), Measure::E1.colour()).on_right_axis().dashed());
    series.push(Series::new("E2", points(&|r| Some(r.e2)), Measure::E2.colour()).on_right_axis().dashed());
    let last = rows.last().map_or(1, |r| r.epoch).max(2) as f64;
    if let Some(target) = marks.error_target {
        series.push(
            Series::reference(
                format!("error target {target}"),
                target,
                (1.0, last),
                Measure::Target.colour(),
            )
            .on_right_axis(),
        );
    }
    if let Some(kept) = marks.kept_epoch.and_then(|e| rows.iter().find(|r| r.epoch == e)) {
        series.push(
            Series::new(
                format!("kept epoch {}", kept.epoch),
                vec![(kept.epoch as f64, kept.accuracy_m0_pct())],
                Measure::Epochs.colour(),
            )
            .points_only(),
        );
    }
    let low = rows
        .iter()
        .flat_map(|r| [Some(r.train_accuracy_pct), r.train_accuracy_m0_pct, r.test_accuracy_pct])
        .flatten()
        .fold(100.0f64, f64::min);
    LineChart {
        title: title.to_string(),
        x_label: "epoch".into(),
        y_label: "accuracy, %".into(),
        // From the nearest 10% below the worst accuracy, so late progress stays visible; room
        // above 100 % so that a curve at 100 % is not drawn on the frame.
        y_range: ((low / 10.0).floor() * 10.0, 100.5),
        y2: Some((TEXT.accuracy.y2_label.clone(), (0.0, 1.0))),
        log_x: false,
        log_y: false,
        // Beside the frame: the curves fill its corners (accuracy near 100 %, errors near 0).
        legend: Legend::Right,
        integer_x: false,
        x_range: Some((1.0, last)),
        series,
    }
}

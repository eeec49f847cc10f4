//! A study's line figures: the first measure against each setting's `x`, one line per `series`
//! ([`Figure::Line`]), or training and testing accuracy per epoch ([`Figure::Epochs`]). Each mean
//! line comes with its 95% t-interval over replicates as a dashed outline of the same colour
//! (the lower bound left to right, then the upper bound back), which the x axis' label explains
//! instead of a legend entry. The legend has a band of its own below the data.

use crate::figures::plot::{Legend, LineChart, Series};
use crate::stats::Interval;
use crate::study::config::Figure;
use crate::study::results::StudyResult;

/// The figure's size in pixels.
pub const SIZE: (u32, u32) = (900, 520);

/// A mean line and its interval outline, from (x, interval) points in x order.
fn with_interval(label: &str, points: &[(f64, Interval)], colour: usize, out: &mut Vec<Series>) {
    let mean: Vec<(f64, f64)> = points.iter().map(|&(x, i)| (x, i.mean)).collect();
    let mut outline: Vec<(f64, f64)> = points.iter().map(|&(x, i)| (x, i.lo)).collect();
    outline.extend(points.iter().rev().map(|&(x, i)| (x, i.hi)));
    // Markers where the points are few (one per setting), none on per-epoch curves.
    let line = Series::new(label, mean, colour);
    out.push(if points.len() <= 30 { line.with_markers() } else { line });
    out.push(Series::new("", outline, colour).dashed());
}

/// What the x axis' label adds about the dashed outlines.
const OUTLINES: &str = "; dashed: 95% t-interval over replicates";

/// The y range spanning every series, padded, with a band below the data for the legend (about
/// 17 pixels an entry of the plot's 400), starting at 0 or above.
fn y_range(series: &[Series]) -> (f64, f64) {
    let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| (a.min(y), b.max(y)));
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(0.5);
    let entries = series.iter().filter(|s| !s.label.is_empty()).count() as f64;
    let band = ((entries * 17.0 + 24.0) / 400.0).min(0.6);
    let span = hi + pad - (lo - pad);
    ((lo - pad - span * band / (1.0 - band)).max(0.0).min(lo), hi + pad)
}

fn line(run: &StudyResult, x_label: &str, log_x: bool) -> LineChart {
    let m = run.measures[0];
    let mut names: Vec<String> = Vec::new();
    for k in &run.settings {
        let name = k.series.clone().unwrap_or_default();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let mut series = Vec::new();
    for (c, name) in names.iter().enumerate() {
        let mut points: Vec<(f64, Interval)> = run
            .settings
            .iter()
            .filter(|k| k.series.clone().unwrap_or_default() == *name)
            .filter_map(|s| Some((s.x?, s.interval(m)?)))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let label = if name.is_empty() { m.name().to_string() } else { format!("{name}: {}", m.name()) };
        with_interval(&label, &points, c, &mut series);
    }
    LineChart {
        title: run.title.clone(),
        x_label: format!("{x_label}{OUTLINES}"),
        y_label: format!("{}, mean over {} replicates{}", m.name(), run.replicates, unit(m.unit())),
        y_range: y_range(&series),
        y2: None,
        x_range: None,
        log_x,
        log_y: false,
        legend: Legend::LowerRight,
        integer_x: false,
        series,
    }
}

fn unit(u: &str) -> String {
    match u.trim() {
        "%" => " (%)".into(),
        other => format!(" ({other})"),
    }
}

fn epochs(run: &StudyResult) -> LineChart {
    let mut series = Vec::new();
    for (c, s) in run.curves.iter().enumerate() {
        with_interval(&format!("{}: training", s.label), &s.training, 2 * c, &mut series);
        with_interval(&format!("{}: testing", s.label), &s.testing, 2 * c + 1, &mut series);
    }
    LineChart {
        title: run.title.clone(),
        x_label: format!("epoch{OUTLINES}"),
        y_label: format!("accuracy at m = 0, mean over {} replicates (%)", run.replicates),
        y_range: y_range(&series),
        y2: None,
        x_range: None,
        log_x: true,
        log_y: false,
        legend: Legend::LowerRight,
        integer_x: false,
        series,
    }
}

/// The chart of a line or epochs figure (the settings figure is drawn by `figure`).
pub fn chart(run: &StudyResult) -> LineChart {
    match &run.figure {
        Figure::Line { x_label, log_x } => line(run, x_label, *log_x),
        Figure::Epochs | Figure::Settings => epochs(run),
    }
}

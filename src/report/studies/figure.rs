//! A study's figure: each setting's mean with its 95% interval as a whisker, one colour per
//! measure, settings along the x axis. Accuracies (%) and epochs get a panel each. Labels too long
//! for their place on the axis are replaced by the settings' numbers, with a key below the panels;
//! the legend sits in a band at the foot of each panel that no data reach.

use crate::error::{Error, Result};
use crate::figures::plot::{FAMILY, ImageFormat, ensure_font};
use crate::output::FileOut;
use crate::stats::Interval;
use crate::study::config::Measure;
use crate::study::results::StudyResult;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// Each measure in its colour of every figure ([`crate::figures::colours`]).
fn colour(m: Measure) -> RGBColor {
    use crate::figures::colours::Measure as Colour;
    match m {
        Measure::Train => Colour::Training.rgb(),
        Measure::Test => Colour::Testing.rgb(),
        Measure::Epochs => Colour::Epochs.rgb(),
        Measure::Epoch => Colour::KeptEpoch.rgb(),
    }
}

/// One panel: a y axis and the measures drawn on it.
struct Panel {
    y_label: &'static str,
    measures: Vec<Measure>,
}

fn panels(run: &StudyResult) -> Vec<Panel> {
    let ms = &run.measures;
    let accuracy: Vec<Measure> = ms.iter().copied().filter(|m| m.higher_is_better()).collect();
    let epochs: Vec<Measure> = ms.iter().copied().filter(|m| !m.higher_is_better()).collect();
    let mut out = Vec::new();
    if !accuracy.is_empty() {
        out.push(Panel { y_label: "accuracy at m = 0, % of positions", measures: accuracy });
    }
    if !epochs.is_empty() {
        out.push(Panel { y_label: "epochs run", measures: epochs });
    }
    // The panel of the answering measure comes first.
    if ms.first().is_some_and(|m| !m.higher_is_better()) {
        out.reverse();
    }
    out
}

/// Pixels on the x axis per setting.
const SLOT: u32 = 140;
/// Height of one line of the key.
const KEY_LINE: u32 = 20;

/// Whether some label is too long for its slot on the x axis (about 7 pixels a character at the
/// axis' 13-pixel font), so that the axis shows numbers and a key gives the labels.
fn numbered(run: &StudyResult) -> bool {
    run.settings.iter().any(|s| 7 * s.label.chars().count() as u32 > SLOT - 12)
}

/// Lines of the key: the settings in two columns.
fn key_lines(run: &StudyResult) -> u32 {
    if numbered(run) { (run.settings.len() as u32).div_ceil(2) } else { 0 }
}

/// The figure's size in pixels: wide enough for the settings, tall enough for its panels and key.
pub fn size(run: &StudyResult) -> (u32, u32) {
    let k = run.settings.len() as u32;
    let key = if numbered(run) { KEY_LINE * key_lines(run) + 24 } else { 0 };
    (760.max(SLOT * k + 160), 420 * panels(run).len() as u32 + key)
}

fn draw_err(path: &str, e: impl std::fmt::Display) -> Error {
    Error::Format { path: path.to_string(), message: format!("drawing failed: {e}") }
}

/// Draw the study's figure into `out` as `format`.
pub fn save(run: &StudyResult, out: &FileOut, format: ImageFormat) -> Result<()> {
    ensure_font()?;
    let shown = out.display();
    let size = size(run);
    let ext = match format {
        ImageFormat::Png => ".png",
        ImageFormat::Svg => ".svg",
    };
    out.write_rendered(ext, |tmp: &Path| match format {
        ImageFormat::Png => {
            let root = BitMapBackend::new(tmp, size).into_drawing_area();
            draw(run, &root).map_err(|e| draw_err(&shown, e))?;
            root.present().map_err(|e| draw_err(&shown, e))
        }
        ImageFormat::Svg => {
            let root = SVGBackend::new(tmp, size).into_drawing_area();
            draw(run, &root).map_err(|e| draw_err(&shown, e))?;
            root.present().map_err(|e| draw_err(&shown, e))
        }
    })
}

fn draw<DB: DrawingBackend>(
    run: &StudyResult,
    root: &DrawingArea<DB, Shift>,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let panels = panels(run);
    let (plot, key) = root.split_vertically(420 * panels.len() as u32);
    if numbered(run) {
        draw_key(run, &key)?;
    }
    let areas = plot.split_evenly((panels.len(), 1));
    for (i, (panel, area)) in panels.iter().zip(&areas).enumerate() {
        let title = if i == 0 { run.title.as_str() } else { "" };
        draw_panel(run, panel, title, area)?;
    }
    Ok(())
}

/// The key under the panels: each setting's number and label, in two columns.
fn draw_key<DB: DrawingBackend>(
    run: &StudyResult,
    area: &DrawingArea<DB, Shift>,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let rows = key_lines(run) as usize;
    let half = area.dim_in_pixel().0 as i32 / 2;
    for (i, s) in run.settings.iter().enumerate() {
        let (col, row) = (i / rows, i % rows);
        let at = (80 + col as i32 * half, 4 + row as i32 * KEY_LINE as i32);
        area.draw(&Text::new(format!("{}  {}", i + 1, s.label), at, (FAMILY, 14).into_font()))?;
    }
    Ok(())
}

/// The y range: every interval inside, with a margin above and a wider one below (the legend's
/// band), accuracies clamped at 0.
fn y_range(run: &StudyResult, panel: &Panel) -> (f64, f64) {
    let all: Vec<Interval> =
        panel.measures.iter().flat_map(|&m| run.settings.iter().filter_map(move |s| s.interval(m))).collect();
    let lo = all.iter().map(|i| i.lo).fold(f64::INFINITY, f64::min);
    let hi = all.iter().map(|i| i.hi).fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.15).max(0.5);
    // Nothing is clipped: the range spans every whisker (a t-interval of accuracies near 100%
    // may reach past 100). The band below the data, a quarter of the panel, holds the legend.
    ((lo - 3.0 * pad).max(0.0).min(lo), hi + pad)
}

fn draw_panel<DB: DrawingBackend>(
    run: &StudyResult,
    panel: &Panel,
    title: &str,
    area: &DrawingArea<DB, Shift>,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let k = run.settings.len();
    let (y0, y1) = y_range(run, panel);
    let mut builder = ChartBuilder::on(area);
    builder.margin(14).x_label_area_size(48).y_label_area_size(64);
    if !title.is_empty() {
        builder.caption(title, (FAMILY, 19));
    }
    let mut chart = builder.build_cartesian_2d(-0.5..(k as f64 - 0.5), y0..y1)?;
    let numbers = numbered(run);
    let labels: Vec<String> = run
        .settings
        .iter()
        .enumerate()
        .map(|(i, s)| if numbers { (i + 1).to_string() } else { s.label.clone() })
        .collect();
    let label_of = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            labels.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(2 * k + 1)
        .x_label_formatter(&label_of)
        .x_desc(format!(
            "setting{} ({} replicates each; whiskers: 95% t-interval of the mean)",
            if numbers { ", numbered as in the key below and results.csv" } else { "" },
            run.replicates
        ))
        .y_desc(panel.y_label)
        .label_style((FAMILY, 13))
        .axis_desc_style((FAMILY, 14))
        .light_line_style(RGBColor(240, 240, 240))
        .draw()?;
    let n = panel.measures.len();
    for (j, &measure) in panel.measures.iter().enumerate() {
        let colour = colour(measure);
        let offset = (j as f64 - (n as f64 - 1.0) / 2.0) * 0.12;
        let points: Vec<(f64, Interval)> = run
            .settings
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.interval(measure).map(|iv| (i as f64 + offset, iv)))
            .collect();
        chart
            .draw_series(points.iter().map(|&(x, iv)| {
                // A whisker from lo to hi with caps 0.08 settings wide.
                PathElement::new(
                    vec![
                        (x - 0.04, iv.lo),
                        (x + 0.04, iv.lo),
                        (x, iv.lo),
                        (x, iv.hi),
                        (x - 0.04, iv.hi),
                        (x + 0.04, iv.hi),
                    ],
                    colour.stroke_width(2),
                )
            }))?
            .label(format!("{} (mean, 95% interval)", measure.name()))
            .legend(move |(x, y)| {
                EmptyElement::at((x, y))
                    + PathElement::new(vec![(0, 0), (16, 0)], colour.stroke_width(2))
                    + Circle::new((8, 0), 3, colour.filled())
            });
        chart.draw_series(points.iter().map(|&(x, iv)| Circle::new((x, iv.mean), 4, colour.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font((FAMILY, 13))
        .draw()?;
    Ok(())
}

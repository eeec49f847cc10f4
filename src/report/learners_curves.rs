//! The learning-curve figure (`learners/curves.png`, `.svg`): testing accuracy against the
//! training size n on a log axis, one line per learner with its 95% band over the draws, one
//! panel per side (rows) and input set (columns); the key sits in a band below the panels, where
//! it covers no data.

use crate::error::{Error, Result};
use crate::figures::colours::{PALETTE, category};
use crate::figures::plot::{FAMILY, ImageFormat, ensure_font};
use crate::learners::InputSet;
use crate::learners::curves::CurvePoint;
use crate::learners::design::SIDES;
use crate::output::FileOut;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;

/// The figure's words (`learners_figures.toml`'s `[curves]`); a panel's title is the template
/// `templates/learners/curves/panel.txt.j2`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveLabels {
    pub title: String,
    pub x: String,
    pub y: String,
    pub band: String,
}

/// The template of a panel's title, filled with its side and input set.
const PANEL_TITLE: [(&str, &str); 1] =
    [("learners/curves/panel.txt.j2", include_str!("templates/learners/curves/panel.txt.j2"))];

/// The figure's size in pixels.
pub const SIZE: (u32, u32) = (1200, 940);
/// Height of the key's band below the panels.
const KEY: u32 = 70;

/// Draw the curves into `out` as `format`; `names` gives each learner's key, in the lines' order.
pub fn save(
    points: &[CurvePoint],
    names: &[(String, String)],
    labels: &CurveLabels,
    out: &FileOut,
    format: ImageFormat,
) -> Result<()> {
    ensure_font()?;
    let titles = panel_titles()?;
    let shown = out.display();
    let err = |e: &dyn std::fmt::Display| Error::Format {
        path: shown.clone(),
        message: format!("drawing failed: {e}"),
    };
    let ext = if format == ImageFormat::Png { ".png" } else { ".svg" };
    out.write_rendered(ext, |tmp: &Path| match format {
        ImageFormat::Png => {
            let root = BitMapBackend::new(tmp, SIZE).into_drawing_area();
            draw(points, names, labels, &titles, &root).map_err(|e| err(&e))?;
            root.present().map_err(|e| err(&e))
        }
        ImageFormat::Svg => {
            let root = SVGBackend::new(tmp, SIZE).into_drawing_area();
            draw(points, names, labels, &titles, &root).map_err(|e| err(&e))?;
            root.present().map_err(|e| err(&e))
        }
    })
}

/// The x axis's ticks: the training sizes of the points given (one side's: wtm's 125 or btm's 136
/// at the paper's size), less one that would crowd the one before it.
fn size_ticks(points: &[CurvePoint]) -> Vec<f64> {
    let mut sizes: Vec<usize> = points.iter().map(|p| p.n).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut ticks: Vec<f64> = Vec::new();
    for n in sizes.into_iter().map(|n| n as f64) {
        if ticks.last().is_none_or(|&t| n >= t * 1.5) {
            ticks.push(n);
        }
    }
    ticks
}

/// The y range shared by the panels: every band and single-draw spread inside, rounded out to 5
/// points, at most 100.5.
fn y_range(points: &[CurvePoint]) -> (f64, f64) {
    let lo = points.iter().map(|p| p.test.lo.min(p.test.mean - 1.96 * p.test_sd)).fold(100.0, f64::min);
    let hi = points.iter().map(|p| p.test.hi.max(p.test.mean + 1.96 * p.test_sd)).fold(0.0, f64::max);
    ((lo / 5.0).floor() * 5.0, ((hi / 5.0).ceil() * 5.0).min(100.0) + 0.5)
}

/// The four panels' titles, filled with each panel's side and input set, in the panels' order.
fn panel_titles() -> Result<Vec<String>> {
    (0..4)
        .map(|k| {
            let (side, inputs) = (SIDES[k / 2], InputSet::ALL[k % 2]);
            crate::template::line(
                &PANEL_TITLE,
                PANEL_TITLE[0].0,
                &json!({"side": side.to_string(), "inputs": inputs.name()}),
            )
        })
        .collect()
}

fn draw<DB: DrawingBackend>(
    points: &[CurvePoint],
    names: &[(String, String)],
    labels: &CurveLabels,
    titles: &[String],
    root: &DrawingArea<DB, Shift>,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (titled, key) = root.split_vertically(SIZE.1 - KEY);
    let body = titled.titled(&labels.title, (FAMILY, 22))?;
    let areas = body.split_evenly((2, 2));
    let ys = y_range(points);
    let (n0, n1) =
        points.iter().fold((f64::INFINITY, 0.0f64), |(a, b), p| (a.min(p.n as f64), b.max(p.n as f64)));
    let xs = (n0 / 1.2, n1 * 1.2);
    for (k, area) in areas.iter().enumerate() {
        let (side, inputs) = (SIDES[k / 2], InputSet::ALL[k % 2]);
        let side_points: Vec<CurvePoint> = points.iter().filter(|p| p.side == side).cloned().collect();
        let ticks = size_ticks(&side_points);
        let mut chart = ChartBuilder::on(area)
            .caption(&titles[k], (FAMILY, 17))
            .margin(12)
            .x_label_area_size(46)
            .y_label_area_size(58)
            .build_cartesian_2d((xs.0..xs.1).log_scale().with_key_points(ticks.clone()), ys.0..ys.1)?;
        chart
            .configure_mesh()
            .x_desc(&labels.x)
            .y_desc(&labels.y)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .label_style((FAMILY, 13))
            .axis_desc_style((FAMILY, 13))
            .light_line_style(RGBColor(240, 240, 240))
            .draw()?;
        for (i, (learner, _)) in names.iter().enumerate() {
            let mut line: Vec<&CurvePoint> = points
                .iter()
                .filter(|p| &p.learner == learner && p.side == side && p.inputs == inputs)
                .collect();
            line.sort_by_key(|p| p.n);
            let colour = PALETTE[category(i) % PALETTE.len()];
            let mut band: Vec<(f64, f64)> = line.iter().map(|p| (p.n as f64, p.test.hi.min(ys.1))).collect();
            band.extend(line.iter().rev().map(|p| (p.n as f64, p.test.lo.max(ys.0))));
            chart.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.18).filled())))?;
            // Where single draws fall: mean ± 1.96 SD of one draw, beside the mean's interval.
            for sign in [-1.0, 1.0] {
                let edge = line
                    .iter()
                    .map(|p| (p.n as f64, (p.test.mean + sign * 1.96 * p.test_sd).clamp(ys.0, ys.1)));
                chart.draw_series(LineSeries::new(edge, colour.mix(0.6).stroke_width(1)))?;
            }
            let mean: Vec<(f64, f64)> = line.iter().map(|p| (p.n as f64, p.test.mean)).collect();
            chart.draw_series(LineSeries::new(mean.clone(), colour.stroke_width(2)))?;
            chart.draw_series(mean.into_iter().map(|p| Circle::new(p, 3, colour.filled())))?;
        }
    }
    draw_key(names, labels, &key)
}

/// The key: each learner's colour and name in one row, and what the bands are.
fn draw_key<DB: DrawingBackend>(
    names: &[(String, String)],
    labels: &CurveLabels,
    area: &DrawingArea<DB, Shift>,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let width = area.dim_in_pixel().0 as i32;
    let slot = (width - 40) / names.len().max(1) as i32;
    for (i, (_, name)) in names.iter().enumerate() {
        let colour = PALETTE[category(i) % PALETTE.len()];
        let x = 20 + slot * i as i32;
        area.draw(&PathElement::new(vec![(x, 16), (x + 26, 16)], colour.stroke_width(3)))?;
        area.draw(&Text::new(name.clone(), (x + 32, 8), (FAMILY, 14).into_font()))?;
    }
    area.draw(&Text::new(labels.band.clone(), (20, 40), (FAMILY, 13).into_font()))
}

/// The learners' keys in the lines' order (first appearance in `points`), from `keys`.
pub fn names(points: &[CurvePoint], keys: &BTreeMap<String, String>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for p in points {
        if !out.iter().any(|(l, _)| l == &p.learner) {
            out.push((p.learner.clone(), keys.get(&p.learner).cloned().unwrap_or_else(|| p.learner.clone())));
        }
    }
    out
}

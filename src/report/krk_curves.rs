//! The KRK learning curves (`krk/curves.png`, `.svg`): testing accuracy (top) and mean absolute
//! depth error (bottom) against the training size on a log axis, one line per learner with the
//! 95% band of its mean over the draws and whiskers spanning the middle 95% of single draws; the
//! features on the left, the raw squares on the right, with the published figures (which read the
//! raw squares) as crosses at their training sizes. Ticks at the sizes the design ran.

use crate::error::{Error, Result};
use crate::figures::colours::{PALETTE, category};
use crate::figures::plot::{FAMILY, ImageFormat, ensure_font};
use crate::learners::krk::Inputs;
use crate::learners::krk::analyse::{CurvePoint, Spread};
use crate::learners::krk::published::Published;
use crate::output::FileOut;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The figure's words (`krk_figures.toml`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Labels {
    pub title: String,
    pub x: String,
    pub accuracy: String,
    pub mae: String,
    pub band: String,
    pub published: String,
    pub panels: [String; 4],
    pub names: BTreeMap<String, String>,
}

/// The figure's size in pixels, and the key's band below the panels.
pub const SIZE: (u32, u32) = (1200, 960);
const KEY: u32 = 76;

/// What the figure draws.
pub struct Figure<'a> {
    pub points: &'a [CurvePoint],
    pub published: &'a [Published],
    pub labels: &'a Labels,
}

impl Figure<'_> {
    /// Draw into `out` as `format`.
    pub fn save(&self, out: &FileOut, format: ImageFormat) -> Result<()> {
        ensure_font()?;
        let shown = out.display();
        let err = |e: &dyn std::fmt::Display| Error::Format { path: shown.clone(), message: format!("{e}") };
        let ext = if format == ImageFormat::Png { ".png" } else { ".svg" };
        out.write_rendered(ext, |tmp: &Path| match format {
            ImageFormat::Png => {
                let root = BitMapBackend::new(tmp, SIZE).into_drawing_area();
                self.draw(&root).map_err(|e| err(&e))?;
                root.present().map_err(|e| err(&e))
            }
            ImageFormat::Svg => {
                let root = SVGBackend::new(tmp, SIZE).into_drawing_area();
                self.draw(&root).map_err(|e| err(&e))?;
                root.present().map_err(|e| err(&e))
            }
        })
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let (titled, key) = root.split_vertically(SIZE.1 - KEY);
        let body = titled.titled(&self.labels.title, (FAMILY, 20))?;
        let areas = body.split_evenly((2, 2));
        let mut ticks: Vec<f64> = self.points.iter().map(|p| p.n as f64).collect();
        ticks.sort_by(f64::total_cmp);
        ticks.dedup();
        let xs = (ticks.first().copied().unwrap_or(1.0) / 1.3, ticks.last().copied().unwrap_or(10.0) * 1.3);
        for (k, area) in areas.iter().enumerate() {
            let (mae, inputs) = (k >= 2, Inputs::ALL[k % 2]);
            let measure = |p: &CurvePoint| if mae { p.mae.clone() } else { p.accuracy.clone() };
            let anchors = self.published.iter().filter(|_| !mae).map(|p| Spread {
                mean: p.accuracy,
                lo: p.accuracy,
                hi: p.accuracy,
                draw_lo: p.accuracy,
                draw_hi: p.accuracy,
            });
            let ys = y_range(self.points.iter().map(measure).chain(anchors), mae);
            let mut chart = ChartBuilder::on(area)
                .caption(&self.labels.panels[k], (FAMILY, 16))
                .margin(12)
                .x_label_area_size(44)
                .y_label_area_size(56)
                .build_cartesian_2d((xs.0..xs.1).log_scale().with_key_points(ticks.clone()), ys.0..ys.1)?;
            chart
                .configure_mesh()
                .x_desc(&self.labels.x)
                .y_desc(if mae { &self.labels.mae } else { &self.labels.accuracy })
                .x_label_formatter(&|v| format!("{v:.0}"))
                .label_style((FAMILY, 12))
                .axis_desc_style((FAMILY, 13))
                .light_line_style(RGBColor(240, 240, 240))
                .draw()?;
            for (i, learner) in self.learners().iter().enumerate() {
                let line: Vec<(f64, Spread)> = self
                    .points
                    .iter()
                    .filter(|p| &p.learner == learner && p.inputs == inputs)
                    .map(|p| (p.n as f64, measure(p)))
                    .collect();
                let colour = PALETTE[category(i) % PALETTE.len()];
                let mut band: Vec<(f64, f64)> = line.iter().map(|(n, s)| (*n, s.hi)).collect();
                band.extend(line.iter().rev().map(|(n, s)| (*n, s.lo)));
                chart.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.2).filled())))?;
                // Whiskers, nudged apart by learner so that they do not hide each other.
                let nudge = 1.0 + 0.025 * (i as f64 - 2.0);
                chart.draw_series(line.iter().map(|(n, s)| {
                    PathElement::new(vec![(n * nudge, s.draw_lo), (n * nudge, s.draw_hi)], colour.mix(0.7))
                }))?;
                let mean: Vec<(f64, f64)> = line.iter().map(|(n, s)| (*n, s.mean)).collect();
                chart.draw_series(LineSeries::new(mean.clone(), colour.stroke_width(2)))?;
                chart.draw_series(mean.into_iter().map(|p| Circle::new(p, 3, colour.filled())))?;
            }
            if !mae && inputs == Inputs::Squares {
                let anchors = self.published.iter().filter_map(|p| Some((p.train_rows? as f64, p.accuracy)));
                chart.draw_series(anchors.map(|p| Cross::new(p, 6, BLACK.stroke_width(2))))?;
            }
        }
        self.draw_key(&key)
    }

    /// The learners in the key's order, each once.
    fn learners(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for p in self.points {
            if !out.contains(&p.learner) {
                out.push(p.learner.clone());
            }
        }
        out
    }

    fn draw_key<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let learners = self.learners();
        let slot = (area.dim_in_pixel().0 as i32 - 40) / (learners.len() + 1) as i32;
        for (i, learner) in learners.iter().enumerate() {
            let colour = PALETTE[category(i) % PALETTE.len()];
            let x = 20 + slot * i as i32;
            let name = self.labels.names.get(learner).cloned().unwrap_or_else(|| learner.clone());
            area.draw(&PathElement::new(vec![(x, 16), (x + 24, 16)], colour.stroke_width(3)))?;
            area.draw(&Text::new(name, (x + 30, 8), (FAMILY, 13).into_font()))?;
        }
        let x = 20 + slot * learners.len() as i32;
        area.draw(&Cross::new((x + 10, 16), 6, BLACK.stroke_width(2)))?;
        area.draw(&Text::new(self.labels.published.clone(), (x + 24, 8), (FAMILY, 13).into_font()))?;
        area.draw(&Text::new(self.labels.band.clone(), (20, 44), (FAMILY, 13).into_font()))
    }
}

/// A panel's y range: every whisker inside, rounded out (accuracy to 5 points within 0..100,
/// the MAE to half a move from 0).
fn y_range(spreads: impl Iterator<Item = Spread>, mae: bool) -> (f64, f64) {
    let (lo, hi) = spreads.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), s| {
        (a.min(s.draw_lo.min(s.lo)), b.max(s.draw_hi.max(s.hi)))
    });
    if mae {
        (0.0, (hi * 2.0).ceil() / 2.0 + 0.25)
    } else {
        (((lo / 5.0).floor() * 5.0).max(0.0), ((hi / 5.0).ceil() * 5.0).min(100.0) + 0.5)
    }
}

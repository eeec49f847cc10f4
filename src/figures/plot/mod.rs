//! Line charts as PNG or SVG: accuracy and error by epoch, Figure 3's residual inaccuracy, Table 5 at a
//! glance. Built on plotters without system libraries; the text uses the bundled DejaVu Sans
//! (`assets/DejaVuSans.ttf`, licence beside it).

use super::colours::PALETTE;
use crate::error::{Error, Result};
use crate::output::FileOut;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::element::IntoDynElement;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

mod printable;
use std::sync::OnceLock;

/// The bundled DejaVu Sans, shared with the SVG rasteriser ([`crate::figures::raster`]).
pub(crate) static FONT: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");
/// The font family every chart asks for; [`ensure_font`] registers the bundled DejaVu Sans under it.
pub const FAMILY: &str = "sans-serif";

/// Register the bundled font under [`FAMILY`], once per process. Every chart drawn with plotters
/// in kpk calls this (plotters is built without system fonts).
pub fn ensure_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok =
        *REGISTERED.get_or_init(|| plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok { Ok(()) } else { Err(Error::Unavailable("the bundled DejaVu Sans font failed to load".into())) }
}

/// One line of a chart.
#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    /// Index into the palette (taken modulo its length).
    pub colour: usize,
    /// Plot against the right-hand axis rather than the left.
    pub secondary: bool,
    /// Mark each point (for sparse data such as one value per trial).
    pub markers: bool,
    pub dashed: bool,
    /// Join the points by a line; off for values of unrelated things (one point per trial).
    pub line: bool,
    /// Vertical error bars (x, low, high), e.g. 95% intervals over replicates.
    pub error_bars: Vec<(f64, f64, f64)>,
    /// Points as open rings, larger than a dot, so that a dot at the same place shows inside:
    /// the paper's figure beside ours ([`crate::figures::colours`]).
    pub ring: bool,
}

impl Series {
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>, colour: usize) -> Series {
        Series {
            label: label.into(),
            points,
            colour,
            secondary: false,
            markers: false,
            dashed: false,
            line: true,
            error_bars: Vec::new(),
            ring: false,
        }
    }
    /// Points only, each an open ring (see [`Series::ring`]).
    pub fn rings(mut self) -> Series {
        self.ring = true;
        self.points_only()
    }
    /// Points only: markers, no line between them.
    pub fn points_only(mut self) -> Series {
        self.markers = true;
        self.line = false;
        self
    }
    /// Draw these (x, low, high) bars in the series' colour.
    pub fn with_error_bars(mut self, bars: Vec<(f64, f64, f64)>) -> Series {
        self.error_bars = bars;
        self
    }
    /// A horizontal reference line at `y` across `x0..x1`, dashed.
    pub fn reference(label: impl Into<String>, y: f64, (x0, x1): (f64, f64), colour: usize) -> Series {
        Series::new(label, vec![(x0, y), (x1, y)], colour).dashed()
    }
    pub fn on_right_axis(mut self) -> Series {
        self.secondary = true;
        self
    }
    pub fn with_markers(mut self) -> Series {
        self.markers = true;
        self
    }
    pub fn dashed(mut self) -> Series {
        self.dashed = true;
        self
    }
}

/// Where a chart's legend goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legend {
    /// In the frame's lower right corner (for rising curves).
    LowerRight,
    /// In the frame's upper right corner (for falling curves).
    UpperRight,
    /// Beside the frame, to the right of it (and of a right-hand axis), the frame narrowed to make
    /// room and the title centred over both: it never covers a line, wherever the data lie.
    Right,
}

/// A legend's inner margin and the width of its samples, as plotters draws a legend in the frame.
const LEGEND_MARGIN: i32 = 10;
const SAMPLE_WIDTH: i32 = 30;
/// Pixels between the frame's right-hand margin (or axis) and a legend beside it.
const LEGEND_GAP: i32 = 10;
/// The margin around the title and the frame.
const MARGIN: i32 = 12;

/// The legend's sample of a series, its left end at `at`: a dot for points (`line` false), a
/// dashed stroke (middle third left out) for a dashed line, a full stroke otherwise. Both are the
/// same four shapes, so that they have one type.
fn sample<'a, DB: DrawingBackend + 'a>(
    colour: RGBColor,
    (line, dashed, ring): (bool, bool, bool),
    at: (i32, i32),
) -> impl IntoDynElement<'a, DB, (i32, i32)> {
    let gap = if dashed { colour.mix(0.0) } else { colour.mix(1.0) };
    if line {
        EmptyElement::at(at)
            + PathElement::new(vec![(0, 0), (7, 0)], colour.stroke_width(2))
            + PathElement::new(vec![(7, 0), (13, 0)], gap.stroke_width(2))
            + PathElement::new(vec![(13, 0), (20, 0)], colour.stroke_width(2))
            + Circle::new((10, 0), 0, colour.filled())
    } else {
        EmptyElement::at(at)
            + PathElement::new(vec![(10, 0), (10, 0)], colour.stroke_width(1))
            + PathElement::new(vec![(10, 0), (10, 0)], colour.stroke_width(1))
            + PathElement::new(vec![(10, 0), (10, 0)], colour.stroke_width(1))
            + if ring {
                Circle::new((10, 0), 5, colour.stroke_width(2))
            } else {
                Circle::new((10, 0), 4, colour.filled())
            }
    }
}

/// A point of a points-only series: a filled dot, or an open ring ([`Series::ring`]).
fn dot(p: (f64, f64), colour: RGBColor, ring: bool) -> Circle<(f64, f64), i32> {
    if ring { Circle::new(p, 6, colour.stroke_width(2)) } else { Circle::new(p, 4, colour.filled()) }
}

/// A line chart with an optional second y axis on the right.
#[derive(Clone, Debug)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub y_range: (f64, f64),
    /// Label and range of the right-hand axis, if any series uses it.
    pub y2: Option<(String, (f64, f64))>,
    /// The x range; `None` spans the data.
    pub x_range: Option<(f64, f64)>,
    /// A logarithmic x axis (for epochs spanning 1 to thousands); needs a positive range.
    pub log_x: bool,
    /// A logarithmic left y axis (for counts spanning decades); needs a positive range. Points at
    /// or below zero are not drawn on it.
    pub log_y: bool,
    pub legend: Legend,
    /// The x values are whole numbers (plies of search): ticks only at integers.
    pub integer_x: bool,
    pub series: Vec<Series>,
}

/// A tick label without trailing zeros: 100, 0.5, 0.25.
fn tick(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The image formats a chart is drawn in, chosen by the output path's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Svg,
}

impl ImageFormat {
    /// The format a path asks for: `.png` or `.svg` (any case); anything else is an error.
    pub fn of(path: &Path) -> Result<ImageFormat> {
        let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("png") => Ok(ImageFormat::Png),
            Some("svg") => Ok(ImageFormat::Svg),
            _ => Err(Error::Output {
                path: path.display().to_string(),
                reason: "a chart is written as .png or .svg; name the file with one of those extensions"
                    .into(),
            }),
        }
    }

    fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => ".png",
            ImageFormat::Svg => ".svg",
        }
    }
}

/// Drawing errors carry the output path.
pub(crate) fn draw_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Format { path: path.display().to_string(), message: format!("drawing failed: {e}") }
}

impl LineChart {
    fn x_span(&self) -> (f64, f64) {
        if let Some(r) = self.x_range {
            return r;
        }
        let xs = self.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
        let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
        if lo.is_finite() && hi > lo { (lo, hi) } else { (0.0, 1.0) }
    }

    /// The width in pixels of a legend box: its longest label in the legend's font, the sample
    /// before it and the margins on both sides.
    fn legend_width<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> std::result::Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
        let font: TextStyle = (FAMILY, 13).into_font().into();
        let mut widest = 0;
        for s in self.series.iter().filter(|s| !s.label.is_empty()) {
            widest = widest.max(area.estimate_text_size(&s.label, &font)?.0);
        }
        Ok(widest as i32 + SAMPLE_WIDTH + 2 * LEGEND_MARGIN)
    }

    /// The legend in `area` beside the frame, its box level with the frame's top (the area's) after
    /// a gap: one row a labelled series, drawn as plotters draws a legend in the frame.
    fn draw_legend_beside<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let labelled: Vec<&Series> = self.series.iter().filter(|s| !s.label.is_empty()).collect();
        if labelled.is_empty() {
            return Ok(());
        }
        let font: TextStyle = (FAMILY, 13).into_font().into();
        let row = area.estimate_text_size("Ag", &font)?.1 as i32 + 4;
        let (w, h) = (self.legend_width(area)?, row * labelled.len() as i32 + 2 * LEGEND_MARGIN);
        let corners = [(LEGEND_GAP, 0), (LEGEND_GAP + w, h)];
        area.draw(&Rectangle::new(corners, WHITE.mix(0.85).filled()))?;
        area.draw(&Rectangle::new(corners, BLACK.mix(0.4)))?;
        let text = font.pos(Pos::new(HPos::Left, VPos::Center));
        for (i, s) in labelled.iter().enumerate() {
            let (x, y) = (LEGEND_GAP + LEGEND_MARGIN, LEGEND_MARGIN + row * i as i32 + row / 2);
            let colour = PALETTE[s.colour % PALETTE.len()];
            area.draw(&sample::<DB>(colour, (s.line, s.dashed, s.ring), (x, y)).into_dyn())?;
            area.draw_text(&s.label, &text, (x + SAMPLE_WIDTH, y))?;
        }
        Ok(())
    }

    /// Draw the chart at `path`, as PNG for a `.png` path and SVG for `.svg`, `size` pixels (the
    /// SVG's view box), by the output policy of [`crate::output`]. Any other extension is an error
    /// before anything is drawn.
    pub fn save(&self, path: &Path, size: (u32, u32)) -> Result<()> {
        let format = ImageFormat::of(path)?;
        let out = FileOut::check(path)?;
        self.save_to(&out, format, size)
    }

    /// Draw the chart into a destination already checked, in `format`.
    pub fn save_to(&self, out: &FileOut, format: ImageFormat, size: (u32, u32)) -> Result<()> {
        self.render(out, format, size, None)
    }

    /// As [`LineChart::save_to`], a log x axis labelled at `x_ticks` and nowhere else: every value
    /// a sweep took, which a log axis's own ticks (1 to 9 times a power of ten) may skip. Ticks
    /// outside the x range are left out; a linear x axis keeps its own ticks.
    pub fn save_to_with_x_ticks(
        &self,
        out: &FileOut,
        format: ImageFormat,
        size: (u32, u32),
        x_ticks: &[f64],
    ) -> Result<()> {
        self.render(out, format, size, Some(x_ticks))
    }

    fn render(
        &self,
        out: &FileOut,
        format: ImageFormat,
        size: (u32, u32),
        ticks: Option<&[f64]>,
    ) -> Result<()> {
        ensure_font()?;
        let shown = Path::new(&out.display()).to_path_buf();
        let chart = self.printable();
        out.write_rendered(format.extension(), |tmp| match format {
            ImageFormat::Png => {
                let root = BitMapBackend::new(tmp, size).into_drawing_area();
                chart.draw_on(&root, ticks).map_err(|e| printable::png_err(&shown, e))?;
                root.present().map_err(|e| printable::png_err(&shown, e))
            }
            ImageFormat::Svg => {
                let root = SVGBackend::new(tmp, size).into_drawing_area();
                chart.draw_on(&root, ticks).map_err(|e| printable::svg_err(&shown, e))?;
                root.present().map_err(|e| printable::svg_err(&shown, e))
            }
        })
    }

    fn draw_on<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        ticks: Option<&[f64]>,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (x0, x1) = self.x_span();
        let (y0, y1) = self.y_range;
        let (log_x, log_y) = (self.log_x && x0 > 0.0, self.log_y && y0 > 0.0);
        if let Some(ticks) = ticks {
            let inside: Vec<f64> = ticks.iter().copied().filter(|t| (x0..=x1).contains(t)).collect();
            let keyed = || inside.clone();
            return match (log_x, log_y) {
                (true, true) => {
                    self.draw_in(root, || (x0..x1).log_scale().with_key_points(keyed()), (y0..y1).log_scale())
                }
                (true, false) => self.draw_in(root, || (x0..x1).log_scale().with_key_points(keyed()), y0..y1),
                // A linear axis's own ticks are evenly spaced and already label any value.
                (false, true) => self.draw_in(root, || x0..x1, (y0..y1).log_scale()),
                (false, false) => self.draw_in(root, || x0..x1, y0..y1),
            };
        }
        match (log_x, log_y) {
            (true, true) => self.draw_in(root, || (x0..x1).log_scale(), (y0..y1).log_scale()),
            (true, false) => self.draw_in(root, || (x0..x1).log_scale(), y0..y1),
            (false, true) => self.draw_in(root, || x0..x1, (y0..y1).log_scale()),
            (false, false) => self.draw_in(root, || x0..x1, y0..y1),
        }
    }

    /// Draw in `root` with the x coordinate `x()` (made twice: for the left and the right axis)
    /// and the left y coordinate `y`.
    fn draw_in<DB, X, Y>(
        &self,
        root: &DrawingArea<DB, Shift>,
        x: impl Fn() -> X,
        y: Y,
    ) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>>
    where
        DB: DrawingBackend,
        X: AsRangedCoord<Value = f64>,
        X::CoordDescType: ValueFormatter<f64>,
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        root.fill(&WHITE)?;
        let (frame, beside) = match self.legend {
            // As plotters lays out a chart with its caption (margin, title, frame), the frame
            // narrowed by the legend's room.
            Legend::Right => {
                let body = root.margin(MARGIN, MARGIN, MARGIN, MARGIN).titled(&self.title, (FAMILY, 20))?;
                let room = LEGEND_GAP + self.legend_width(root)?;
                let (frame, beside) = body.split_horizontally(body.dim_in_pixel().0 as i32 - room);
                (frame, Some(beside))
            }
            Legend::LowerRight | Legend::UpperRight => (root.clone(), None),
        };
        let mut builder = ChartBuilder::on(&frame);
        if beside.is_none() {
            builder.caption(&self.title, (FAMILY, 20));
        }
        builder
            .margin(if beside.is_none() { MARGIN } else { 0 })
            .x_label_area_size(40)
            .y_label_area_size(60)
            .right_y_label_area_size(if self.y2.is_some() { 60 } else { 10 });
        let chart = builder.build_cartesian_2d(x(), y)?;
        let (y2_label, (z0, z1)) = self.y2.clone().unwrap_or_else(|| (String::new(), (0.0, 1.0)));
        let mut chart = chart.set_secondary_coord(x(), z0..z1);
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style((FAMILY, 13))
            .axis_desc_style((FAMILY, 15))
            .light_line_style(RGBColor(245, 245, 245))
            .x_label_formatter(&|x| tick(*x))
            .y_label_formatter(&|y| tick(*y));
        if self.integer_x {
            // Asked for at most as many ticks as there are integers in the range (and at most 10),
            // plotters' steps of 1, 2 or 5 times a power of ten are whole: a step below 1 would
            // need more ticks than that.
            let (x0, x1) = self.x_span();
            let integers = (x1.floor() - x0.ceil() + 1.0).max(1.0) as usize;
            mesh.x_labels(integers.min(10));
        }
        mesh.draw()?;
        if self.y2.is_some() {
            chart
                .configure_secondary_axes()
                .y_desc(&y2_label)
                .label_style((FAMILY, 13))
                .axis_desc_style((FAMILY, 15))
                .y_label_formatter(&|y| tick(*y))
                .draw()?;
        }
        let (y0, y1) = self.y_range;
        for s in &self.series {
            let colour = PALETTE[s.colour % PALETTE.len()];
            // A thick stroke is drawn as a polygon whose mitred corners overshoot at sharp turns:
            // a dense curve (one point per epoch) gets a thin stroke, so it never leaves its values.
            let style = colour.stroke_width(if s.points.len() > 60 { 1 } else { 2 });
            // On a log axis a value at or below zero has no place; inside the frame, every other
            // value is drawn (clamped to the frame so a line never leaves it).
            let keep = |p: &(f64, f64)| !(self.log_y && !s.secondary && p.1 <= 0.0);
            let clamp = |(x, v): (f64, f64)| if s.secondary { (x, v) } else { (x, v.clamp(y0, y1)) };
            let points: Vec<(f64, f64)> = s.points.iter().copied().filter(keep).map(clamp).collect();
            let anno = if !s.line {
                let dots = points.iter().map(|&p| dot(p, colour, s.ring));
                if s.secondary { chart.draw_secondary_series(dots)? } else { chart.draw_series(dots)? }
            } else if s.dashed {
                let line = DashedLineSeries::new(points.iter().copied(), 6, 4, style);
                if s.secondary { chart.draw_secondary_series(line)? } else { chart.draw_series(line)? }
            } else {
                let line =
                    LineSeries::new(points.iter().copied(), style).point_size(if s.markers { 3 } else { 0 });
                if s.secondary { chart.draw_secondary_series(line)? } else { chart.draw_series(line)? }
            };
            // A series without a label (an interval's outline beside its mean) has no entry.
            let kind = (s.line, s.dashed, s.ring);
            if !s.label.is_empty() {
                anno.label(s.label.clone()).legend(move |at| sample(colour, kind, at));
            }
            if s.line && s.dashed && s.markers {
                let dots = points.iter().map(|&p| Circle::new(p, 3, colour.filled()));
                if s.secondary {
                    chart.draw_secondary_series(dots)?
                } else {
                    chart.draw_series(dots)?
                };
            }
            if !s.error_bars.is_empty() {
                let bars = s.error_bars.iter().map(|&(x, lo, hi)| {
                    let (lo, hi) = (lo.clamp(y0, y1), hi.clamp(y0, y1));
                    PathElement::new(vec![(x, lo), (x, hi)], colour.stroke_width(2))
                });
                chart.draw_series(bars)?;
            }
        }
        if let Some(area) = beside {
            return self.draw_legend_beside(&area);
        }
        chart
            .configure_series_labels()
            .position(if self.legend == Legend::UpperRight {
                SeriesLabelPosition::UpperRight
            } else {
                SeriesLabelPosition::LowerRight
            })
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font((FAMILY, 13))
            .draw()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_is_written_as_a_png_with_no_temporary_left() {
        let scratch = crate::scratch::Scratch::new("plot");
        let path = scratch.join("chart.png");
        let chart = LineChart {
            title: "test".into(),
            x_label: "epoch".into(),
            y_label: "accuracy, %".into(),
            y_range: (0.0, 100.0),
            y2: Some(("error".into(), (0.0, 1.0))),
            x_range: None,
            log_x: false,
            log_y: false,
            legend: Legend::LowerRight,
            integer_x: false,
            series: vec![
                Series::new("train", vec![(1.0, 50.0), (2.0, 80.0), (3.0, 95.0)], 0),
                Series::new("E2", vec![(1.0, 0.9), (2.0, 0.5), (3.0, 0.2)], 1).on_right_axis().dashed(),
                Series::new("paper", vec![(1.0, 60.0), (3.0, 90.0)], 2).with_markers(),
            ],
        };
        chart.save(&path, (640, 400)).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        chart.save(&scratch.join("chart.svg"), (640, 400)).unwrap();
        let svg = std::fs::read_to_string(scratch.join("chart.svg")).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        assert_eq!(scratch.names(), ["chart.png", "chart.svg"]);
        let e = chart.save(&scratch.join("chart.jpg"), (640, 400)).unwrap_err().to_string();
        assert!(e.contains(".png or .svg"), "{e}");
        assert_eq!(scratch.names(), ["chart.png", "chart.svg"]);
    }

    #[test]
    fn log_axes_points_and_error_bars_are_drawn() {
        let scratch = crate::scratch::Scratch::new("plot-log");
        let chart = LineChart {
            title: "log".into(),
            x_label: "epoch (log scale)".into(),
            y_label: "positions (log scale)".into(),
            y_range: (1.0, 1000.0),
            y2: None,
            x_range: Some((1.0, 10_000.0)),
            log_x: true,
            log_y: true,
            legend: Legend::UpperRight,
            integer_x: false,
            series: vec![
                // The zero has no place on a log axis and is left out, not drawn at the frame.
                Series::new("run", vec![(1.0, 500.0), (10.0, 40.0), (100.0, 0.0), (6285.0, 2.0)], 0),
                Series::new("kept", vec![(10.0, 40.0)], 1)
                    .points_only()
                    .with_error_bars(vec![(10.0, 30.0, 50.0)]),
                Series::reference("51", 51.0, (1.0, 10_000.0), 2),
            ],
        };
        for name in ["log.png", "log.svg"] {
            chart.save(&scratch.join(name), (640, 400)).unwrap();
        }
        assert_eq!(scratch.names(), ["log.png", "log.svg"]);
    }

    #[test]
    fn a_log_axis_is_labelled_at_every_tick_given() {
        let scratch = crate::scratch::Scratch::new("plot-ticks");
        let chart = LineChart {
            title: "sweep".into(),
            x_label: "rate (log scale)".into(),
            y_label: "distance".into(),
            y_range: (0.0, 5.0),
            y2: None,
            x_range: Some((0.02, 1.5)),
            log_x: true,
            log_y: false,
            legend: Legend::UpperRight,
            integer_x: false,
            series: vec![Series::new("d", vec![(0.03, 4.0), (0.1, 2.0), (0.3, 1.5), (1.0, 1.4)], 0)],
        };
        let out = FileOut::check(&scratch.join("ticks.svg")).unwrap();
        // 50 lies outside the range and is left out.
        chart.save_to_with_x_ticks(&out, ImageFormat::Svg, (640, 400), &[0.03, 0.1, 0.3, 1.0, 50.0]).unwrap();
        let svg = std::fs::read_to_string(scratch.join("ticks.svg")).unwrap();
        let texts: Vec<&str> =
            svg.split("</text>").filter_map(|t| t.rsplit_once('>').map(|(_, text)| text.trim())).collect();
        for label in ["0.03", "0.1", "0.3", "1"] {
            assert!(texts.contains(&label), "{label} missing from {texts:?}");
        }
        assert!(!texts.contains(&"50") && !texts.contains(&"0.2"), "a tick not asked for in {texts:?}");
    }

    #[test]
    fn a_legend_beside_the_frame_and_whole_x_ticks() {
        let scratch = crate::scratch::Scratch::new("plot-beside");
        let chart = LineChart {
            title: "q".into(),
            x_label: "plies".into(),
            y_label: "p".into(),
            y_range: (0.0, 9.0),
            y2: None,
            x_range: Some((-0.3, 3.3)),
            log_x: false,
            log_y: false,
            legend: Legend::Right,
            integer_x: true,
            series: vec![
                Series::new("a long label for the legend", vec![(0.0, 2.0), (3.0, 8.0)], 0),
                Series::new("dashed", vec![(0.0, 1.0), (3.0, 1.0)], 1).dashed(),
                Series::new("points", vec![(1.0, 4.0)], 2).points_only(),
            ],
        };
        chart.save(&scratch.join("beside.svg"), (640, 400)).unwrap();
        chart.save(&scratch.join("beside.png"), (640, 400)).unwrap();
        let svg = std::fs::read_to_string(scratch.join("beside.svg")).unwrap();
        let texts: Vec<&str> =
            svg.split("</text>").filter_map(|t| t.rsplit_once('>').map(|(_, text)| text.trim())).collect();
        for label in ["0", "1", "2", "3", "a long label for the legend", "dashed", "points"] {
            assert!(texts.contains(&label), "{label} missing from {texts:?}");
        }
        assert!(!texts.iter().any(|t| t.contains(".5")), "a tick between integers in {texts:?}");
    }
}

//! Text drawn into a figure is shown printable: a control character or a noncharacter is written
//! as its escape (`\u{1b}`, `\u{fffe}`), as kpk's messages quote user input. XML allows no control character but tab, line
//! feed and carriage return, so an SVG with a user's title stays well-formed; a PNG shows the
//! same text.

use super::LineChart;
use crate::error::Error;
use plotters::prelude::{BitMapBackend, DrawingAreaErrorKind, DrawingBackend};
use plotters_backend::DrawingErrorKind;
use std::path::Path;

impl LineChart {
    /// The chart with its title, axis labels and series labels shown printable.
    pub(crate) fn printable(&self) -> LineChart {
        let mut chart = self.clone();
        let texts = [&mut chart.title, &mut chart.x_label, &mut chart.y_label]
            .into_iter()
            .chain(chart.y2.as_mut().map(|(label, _)| label))
            .chain(chart.series.iter_mut().map(|s| &mut s.label));
        for text in texts {
            *text = kpk_probe::quote::escape_controls(text);
        }
        chart
    }
}

type PngError = <BitMapBackend<'static> as DrawingBackend>::ErrorType;

/// A PNG that could not be drawn or written, as one line: a failed write (a full disk) is an I/O
/// error of the destination, not the backend's own debugging text.
pub(crate) fn png_err(path: &Path, e: DrawingAreaErrorKind<PngError>) -> Error {
    if let DrawingAreaErrorKind::BackendError(DrawingErrorKind::DrawingError(b)) = &e {
        let io = match b {
            PngError::IOError(io) => Some(io),
            PngError::ImageError(image::ImageError::IoError(io)) => Some(io),
            _ => None,
        };
        if let Some(io) = io {
            return Error::Io {
                path: path.display().to_string(),
                cause: std::io::Error::new(io.kind(), io.to_string()),
            };
        }
    }
    super::draw_err(path, e)
}

/// An SVG that could not be written, as an I/O error of the destination.
pub(crate) fn svg_err(path: &Path, e: DrawingAreaErrorKind<std::io::Error>) -> Error {
    match e {
        DrawingAreaErrorKind::BackendError(DrawingErrorKind::DrawingError(cause)) => {
            Error::Io { path: path.display().to_string(), cause }
        }
        other => super::draw_err(path, other),
    }
}

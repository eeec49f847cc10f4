//! Figures, a tool below every stage that draws: line and bar charts with plotters (`plot`), one
//! colour per measure across every figure (`colours`), and SVG rendered to PNG with the bundled
//! font only (`raster`). The font (DejaVu Sans, with its
//! licence in `assets/`) is compiled in, so a figure draws the same on every machine.

pub mod colours;
pub mod plot;
pub mod raster;

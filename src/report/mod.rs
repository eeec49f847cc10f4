//! Reports generated from runs: the reproduction of Table 5 (`reports/REPRODUCTION.md`), the exact
//! hybrid (`reports/COMPRESSION.md`), the figures every report draws, and Markdown templates.

pub mod compression;
pub mod diagram;
pub mod frontier;
pub mod index;
pub mod levers;
pub mod play;
pub mod reproduction;
pub mod summary;
// The parts of REPRODUCTION.md, by their old paths.
pub use reproduction::{
    domain, domain_notes, findings, readings_robustness, section51, table5, table6, table6_groups,
};
pub mod studies;

// The figure and statistics tools sit below every stage; their old paths stay while reports move.
pub use crate::figures::{plot, raster};
pub use crate::stats;
pub use crate::template;

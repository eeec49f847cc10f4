//! Reports generated from runs: the reproduction of Table 5 (`reports/REPRODUCTION.md`), the exact
//! hybrid (`reports/COMPRESSION.md`), the figures every report draws, and Markdown templates.

pub mod compression;
pub mod diagram;
pub mod domain;
pub mod domain_notes;
pub mod findings;
pub mod frontier;
pub mod levers;
pub mod play;
pub mod readings_robustness;
pub mod reproduction;
pub mod section51;
pub mod studies;
pub mod table5;
pub mod table6;
pub mod table6_groups;

// The figure and statistics tools sit below every stage; their old paths stay while reports move.
pub use crate::figures::{plot, raster};
pub use crate::stats;
pub use crate::template;

//! Reports generated from runs: the reproduction of Table 5 (`reports/REPRODUCTION.md`), the exact
//! hybrid (`reports/COMPRESSION.md`), the figures every report draws, and Markdown templates.

pub mod compression;
pub mod diagram;
pub mod driver;
pub mod dtz;
pub mod frontier;
pub mod index;
pub mod krk;
pub mod krk_curves;
pub mod learners;
pub mod learners_curves;
pub mod learners_tuned;
pub mod levers;
pub mod matches;
pub mod play;
pub mod reproduction;
pub mod studies;
pub mod summary;

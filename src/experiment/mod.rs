//! Experiments as data: a trial's TOML config, its validation into a checked [`Trial`], running
//! it, and writing its report folder `reports/<name>/`.
//!
//! Parsing happens in two steps (parse, then check once): serde reads the file into
//! [`TrialConfig`], rejecting unknown keys and wrong types; [`TrialConfig::check`] then validates
//! every value against the others (topology against the input and output codings, sets against
//! the side) and yields a [`Trial`] that cannot describe an impossible run.

mod chart;
mod config;
mod folder;
pub mod pipeline;
pub mod readings;
pub mod readings_intervals;
pub mod replicate;
mod rows;
mod run;
mod schedule;
pub mod sweep;
pub mod table6;

pub use chart::*;
pub use config::*;
pub use folder::*;
pub use rows::*;
pub use run::*;
pub use schedule::*;

#[cfg(test)]
mod tests;

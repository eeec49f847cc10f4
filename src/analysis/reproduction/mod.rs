//! The reproduction's analysis: `reports/reproduction.json`, from which
//! [`crate::report::reproduction`] renders `reports/REPRODUCTION.md`.
//!
//! [`analyse::analyse`] reads the runs ([`analyse::Inputs`]: the trial folders, Table 5 over the
//! replicates, section 5.1's claims, what `kpk readings` wrote, trial 39 continued) and computes
//! every number into a [`data::Reproduction`]. The whole run is [`pipeline::Reproduce`], an
//! [`crate::analysis::Analysis`]: it trains Table 5's trials (`kpk reproduce`) or reads the runs
//! already on disk (`--analyse-only`).

pub mod analyse;
pub mod data;
pub mod domain;
pub mod gap;
pub mod pipeline;
pub mod readings_robustness;
pub mod section51;
pub mod section51_remarks;
pub mod summary;
pub mod table5;
pub mod table6_groups;

/// Table 5's NN6 trials on the whole sets T3-T5, where our set-up is closest to the paper's: the
/// report compares their training accuracy with the paper's own figure for each.
pub const NN6_TRIALS: [u8; 4] = [38, 39, 40, 41];

/// The square triple of a row, for matching our list with the paper's.
pub fn key(wk: &str, bk: &str, wp: &str) -> (String, String, String) {
    (wk.to_string(), bk.to_string(), wp.to_string())
}

/// The analysis's result, what the report is rendered from (relative to the reports' folder).
pub const REPRODUCTION_JSON: &str = "reproduction.json";
/// Table 5 over the replicates: means, 95% intervals, the paper's values, the baselines.
pub const TABLE5_CSV: &str = "table5.csv";
/// Table 6 at matched accuracy over the replicates, written by `kpk readings --table6`.
pub const TABLE6_JSON: &str = "readings/table6.json";
/// The readings of the stopping rule compared, written by `kpk readings`.
pub const READINGS_CSV: &str = "readings/distances.csv";
/// Each trial under each reading, written with [`READINGS_CSV`].
pub const READINGS_TRIALS_CSV: &str = "readings/trials.csv";
/// Each run under each reading, written with [`READINGS_CSV`].
pub const READINGS_REPLICATES_CSV: &str = "readings/replicates.csv";
/// The learning-rate sweep, written by `kpk readings --learning-rates`.
pub const SWEEP_CSV: &str = "readings/sweep.csv";
/// Trial 39's config trained on to 6,285 epochs (`experiments/trial40/trial39_continued.toml`).
pub const CONTINUED: &str = "trial39_continued";

//! `reports/REPRODUCTION.md`: the paper's Table 5, Figure 3 and Table 6 beside ours.
//!
//! Analyse, then render: [`analyse`](fn@analyse) reads the runs ([`Inputs`]: the trial folders,
//! Table 5 over the replicates, section 5.1's claims, what `kpk readings` wrote, trial 39
//! continued) and computes every number into a [`Reproduction`], committed as `reports/reproduction.json`;
//! [`outputs`] draws the figures and writes the Markdown from that alone, so the report is
//! redrawn without training, bitbase or run folder (`kpk reproduce --render-only`). The whole run
//! is [`pipeline::Reproduce`], a [`crate::report::driver::Report`].

use crate::error::{Error, Result};

use crate::experiment::rows::Summary;
use crate::paper::tables;
use crate::report::driver::{Output, chart};
use std::path::{Path, PathBuf};

mod analyse;
mod data;
mod discussion;
pub mod domain;
pub mod domain_notes;
mod figures;
pub mod findings;
pub mod gap;
pub mod pipeline;
pub mod readings_robustness;
mod render;
pub mod section51;
pub mod section51_remarks;
mod standing;
mod summary;
pub mod table5;
pub mod table6;
pub mod table6_groups;
pub(crate) mod templates;
#[cfg(test)]
mod tests;

pub use analyse::{Inputs, OtherRuns, TrialResult, analyse};
pub use data::*;
pub use render::render;

/// Table 5's NN6 trials on the whole sets T3-T5, where our set-up is closest to the paper's: the
/// report compares their training accuracy with the paper's own figure for each.
pub const NN6_TRIALS: [u8; 4] = [38, 39, 40, 41];

/// The square triple of a row, for matching our list with the paper's.
fn key(wk: &str, bk: &str, wp: &str) -> (String, String, String) {
    (wk.to_string(), bk.to_string(), wp.to_string())
}

/// File names of the reproduction, relative to its folder.
pub const REPRODUCTION_MD: &str = "REPRODUCTION.md";
/// The analysis's result, what the report is rendered from.
pub const REPRODUCTION_JSON: &str = "reproduction.json";
pub const FIGURE3_PNG: &str = "figures/figure3.png";
pub const NN6_PNG: &str = "figures/accuracy_nn6.png";
pub const TABLE5_PNG: &str = "figures/table5_accuracy.png";
/// Board diagrams of the paper's Table 6 and of our best net's misclassified a-file positions.
pub const TABLE6_PAPER_SVG: &str = "figures/table6_paper.svg";
pub const TABLE6_OURS_SVG: &str = "figures/table6_ours.svg";
/// Board diagrams of the positions wrong in at least half the runs at matched accuracy.
pub const TABLE6_MATCHED_SVG: &str = "figures/table6_matched.svg";
/// The board-diagram figures; each is also written as PNG beside its SVG.
pub const TABLE6_SVGS: [&str; 3] = [TABLE6_PAPER_SVG, TABLE6_OURS_SVG, TABLE6_MATCHED_SVG];
/// Table 5 over the replicates: means, 95% intervals, the paper's values, the baselines.
pub const TABLE5_CSV: &str = "table5.csv";
/// Section 5.1's claims checked on the replicates by the data draw, written by the analysis.
pub const SECTION51_JSON: &str = "section51.json";
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

/// Every file the report renders in `out` (the driver checks each before any training starts,
/// by the output policy of [`crate::output`]): `REPRODUCTION.md`, `section51.json` and the
/// figures, each PNG with its SVG.
pub fn destinations(out: &Path) -> Vec<PathBuf> {
    let mut files = vec![out.join(REPRODUCTION_MD), out.join(SECTION51_JSON)];
    for png in [FIGURE3_PNG, NN6_PNG, TABLE5_PNG] {
        files.push(out.join(png));
        files.push(out.join(Path::new(png).with_extension("svg")));
    }
    for svg in TABLE6_SVGS {
        files.push(out.join(svg));
        files.push(out.join(Path::new(svg).with_extension("png")));
    }
    files
}

/// The figures, `section51.json` and `REPRODUCTION.md` in `out`, from `r` alone.
pub fn outputs<'a>(out: &Path, r: &'a Reproduction) -> Result<Vec<Output<'a>>> {
    let mut grids = vec![
        (TABLE6_PAPER_SVG, table6::paper_diagrams(&r.paper_table6)?),
        (TABLE6_OURS_SVG, table6::our_diagrams(&r.best_misclassified, &r.paper_table6)?),
    ];
    if let Some(m) = &r.matched {
        grids.push((TABLE6_MATCHED_SVG, table6::matched_diagrams(m)?));
    }
    let mut files = Vec::new();
    // Each board figure as SVG and as PNG beside it (rendered from the same SVG).
    for (file, diagrams) in grids {
        files.extend(Output::svg_and_png(out.join(file), crate::report::diagram::grid_svg(&diagrams, 6)?)?);
    }
    // Each figure as PNG (shown in the report) and SVG (for print), beside each other.
    let with_curve = |t: u8| Some((r.trial(t)?, r.curve(t)?));
    let figure3 = figures::figure3(&r.paper, with_curve(39), with_curve(40), r.continued.as_ref())?;
    files.extend(chart(out.join(FIGURE3_PNG), figure3, FIGURE_SIZE));
    files.extend(chart(out.join(NN6_PNG), figures::nn6_chart(r)?, FIGURE_SIZE));
    files.extend(chart(out.join(TABLE5_PNG), figures::table5_chart(&r.paper, &r.replicated), FIGURE_SIZE));
    files.push(Output::bytes(out.join(SECTION51_JSON), crate::template::results_json(&r.section51)?));
    files.push(Output::bytes(out.join(REPRODUCTION_MD), render(r)?));
    Ok(files)
}

/// The size of the line charts in pixels.
const FIGURE_SIZE: (u32, u32) = (900, 540);

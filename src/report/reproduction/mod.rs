//! `reports/REPRODUCTION.md`: the paper's Table 5, Figure 3 and Table 6 beside ours.
//!
//! Analyse, then render: [`analyse`](fn@analyse) reads the runs ([`Inputs`]: the trial folders,
//! Table 5 over the replicates, section 5.1's claims, what `kpk readings` wrote, trial 39
//! continued) and computes every number into a [`Reproduction`], committed as `reports/reproduction.json`;
//! [`write_report`] draws the figures and writes the Markdown from that alone, so the report is
//! redrawn without training, bitbase or run folder (`kpk reproduce --render-only`). The whole run
//! is [`reproduce`](fn@reproduce).

use crate::error::{Error, Result};

use crate::experiment::Summary;
use crate::figures::plot::{ImageFormat, LineChart};
use crate::output::FileOut;
use crate::paper::tables;
use std::path::{Path, PathBuf};

mod analyse;
mod data;
mod discussion;
pub mod domain;
pub mod domain_notes;
mod figures;
pub mod findings;
pub mod gap;
mod pipeline;
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
pub use pipeline::{ReproduceOptions, Reproduced, reanalyse, reproduce};
pub use render::render;

/// Table 5's NN6 trials on the whole sets T3-T5, where our set-up is closest to the paper's: the
/// report compares their training accuracy with the paper's own figure for each.
pub const NN6_TRIALS: [u8; 4] = [38, 39, 40, 41];

/// Trial number of a summary named "trialNN".
pub fn trial_number(s: &Summary) -> Option<u8> {
    s.name.strip_prefix("trial").and_then(|n| n.parse().ok())
}

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

/// Check every file the report writes in `out` before any training starts: the trial-independent
/// outputs, `reproduction.json`, `REPRODUCTION.md` and the figures (the output policy of
/// [`crate::output`]).
pub fn check_destinations(out: &Path) -> Result<()> {
    for file in
        [REPRODUCTION_JSON, REPRODUCTION_MD, FIGURE3_PNG, NN6_PNG, TABLE5_PNG, TABLE5_CSV, SECTION51_JSON]
    {
        FileOut::check_in_own_folder(&out.join(file))?;
    }
    for png in [FIGURE3_PNG, NN6_PNG, TABLE5_PNG] {
        FileOut::check_in_own_folder(&out.join(Path::new(png).with_extension("svg")))?;
    }
    for svg in TABLE6_SVGS {
        FileOut::check_in_own_folder(&out.join(svg))?;
        FileOut::check_in_own_folder(&out.join(Path::new(svg).with_extension("png")))?;
    }
    Ok(())
}

/// Write the analysis's result as `reproduction.json` in `out`.
pub fn write_json(out: &Path, r: &Reproduction) -> Result<PathBuf> {
    let path = out.join(REPRODUCTION_JSON);
    crate::output::write_file(&path, crate::template::results_json(r)?.as_bytes())?;
    Ok(path)
}

/// Read `reproduction.json` from `out`.
pub fn read_json(out: &Path) -> Result<Reproduction> {
    crate::template::read_results(&out.join(REPRODUCTION_JSON))
}

/// Draw the figures and write `REPRODUCTION.md` in `out` from `r` alone. Returns the report's
/// path.
pub fn write_report(out: &Path, r: &Reproduction) -> Result<PathBuf> {
    let mut grids = vec![
        (TABLE6_PAPER_SVG, table6::paper_diagrams(&r.paper_table6)?),
        (TABLE6_OURS_SVG, table6::our_diagrams(&r.best_misclassified, &r.paper_table6)?),
    ];
    if let Some(m) = &r.matched {
        grids.push((TABLE6_MATCHED_SVG, table6::matched_diagrams(m)?));
    }
    // Each board figure as SVG and as PNG beside it (rendered from the same SVG).
    for (file, diagrams) in grids {
        crate::report::diagram::write_diagrams(&out.join(file), &diagrams, 6)?;
    }
    // Each figure as PNG (shown in the report) and SVG (for print), beside each other.
    let save = |chart: LineChart, png: &str| -> Result<()> {
        chart.save_to(&FileOut::check_in_own_folder(&out.join(png))?, ImageFormat::Png, (900, 540))?;
        let svg = Path::new(png).with_extension("svg");
        chart.save_to(&FileOut::check_in_own_folder(&out.join(svg))?, ImageFormat::Svg, (900, 540))
    };
    let with_curve = |t: u8| Some((r.trial(t)?, r.curve(t)?));
    save(figures::figure3(&r.paper, with_curve(39), with_curve(40), r.continued.as_ref())?, FIGURE3_PNG)?;
    save(figures::nn6_chart(r)?, NN6_PNG)?;
    save(figures::table5_chart(&r.paper, &r.replicated), TABLE5_PNG)?;
    let path = out.join(REPRODUCTION_MD);
    crate::output::write_file(&path, render(r)?.as_bytes())?;
    Ok(path)
}

/// `kpk reproduce --render-only`: redraw the report in `out` from its `reproduction.json`.
pub fn render_only(out: &Path) -> Result<PathBuf> {
    write_report(out, &read_json(out)?)
}

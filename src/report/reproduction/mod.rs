//! `reports/REPRODUCTION.md`: the paper's Table 5, Figure 3 and Table 6 beside ours.
//!
//! Rendering only: [`crate::analysis::reproduction`] computes every number into a
//! [`Reproduction`], committed as `reports/reproduction.json`; [`outputs`] draws the figures and
//! writes the Markdown from that alone, so the report is redrawn without training, bitbase or run
//! folder (`kpk reproduce --render-only`). The whole run is
//! [`crate::analysis::reproduction::pipeline::Reproduce`], a [`Report`] here.

use crate::analysis::reproduction::data::Reproduction;
use crate::analysis::reproduction::pipeline::Reproduce;
use crate::error::Result;
use crate::report::driver::{Output, Report, chart};
use std::path::{Path, PathBuf};

mod discussion;
pub mod domain_notes;
mod figures;
pub mod findings;
pub mod groups;
mod render;
pub mod replicated;
pub mod robustness;
mod standing;
pub mod table6;
pub(crate) mod templates;
#[cfg(test)]
mod tests;

impl Report for Reproduce<'_> {
    fn destinations(&self, _: Option<&Reproduction>) -> Result<Vec<PathBuf>> {
        Ok(destinations(&self.out))
    }

    fn render<'a>(&self, r: &'a Reproduction) -> Result<Vec<Output<'a>>> {
        outputs(&self.out, r)
    }
}

/// File names of the reproduction, relative to its folder.
pub const REPRODUCTION_MD: &str = "REPRODUCTION.md";
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
/// Section 5.1's claims checked on the replicates by the data draw, written by the analysis.
pub const SECTION51_JSON: &str = "section51.json";

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
    files.push(Output::bytes(out.join(REPRODUCTION_MD), render::render(r)?));
    Ok(files)
}

/// The size of the line charts in pixels.
const FIGURE_SIZE: (u32, u32) = (900, 540);

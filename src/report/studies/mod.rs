//! The studies' reports: in `reports/studies/<name>/` the figure as PNG and SVG and
//! `contrasts.csv` (beside the run's `results.csv` and `replicates.csv`,
//! [`crate::analysis::studies`]), and `reports/STUDIES.md`. The numbers come from
//! [`crate::study::results`] (all studies' committed as `reports/studies.json`); the prose is the
//! minijinja templates in
//! `report/templates/studies/`: `studies.md.j2`, `section.md.j2` (the setup, the answer worded
//! from its verdicts, the table) and each study's question.

mod figure;
mod lines;

use crate::analysis::studies::{CONTRASTS_CSV, Destinations, Studies, folder};
use crate::error::{Error, Result};
use crate::figures::plot::ImageFormat;
use crate::report::driver::{Output, Report};
use crate::report::summary::anchor;
use crate::stats::contrast::CONTRAST_COLUMNS;
use crate::study::config::{Figure, Measure};
use crate::study::results::{StudiesResults, StudyResult};
use crate::template::{Engine, Typed};
use std::path::{Path, PathBuf};

const REPORT: &str = include_str!("../templates/studies/studies.md.j2");
const SECTION: &str = include_str!("../templates/studies/section.md.j2");

/// Each study's question and the reading of it: the prose its section opens with (a template named
/// as the study), in the order STUDIES.md lists them (section 6's order, then section 2's).
const PROSE: &[(&str, &str)] = &[
    ("layers", include_str!("../templates/studies/layers.md.j2")),
    ("layers_whole", include_str!("../templates/studies/layers_whole.md.j2")),
    ("codings", include_str!("../templates/studies/codings.md.j2")),
    ("overtraining", include_str!("../templates/studies/overtraining.md.j2")),
    ("set_size", include_str!("../templates/studies/set_size.md.j2")),
    ("pruning", include_str!("../templates/studies/pruning.md.j2")),
    ("init_symmetry", include_str!("../templates/studies/init_symmetry.md.j2")),
    ("momentum_annealing", include_str!("../templates/studies/momentum_annealing.md.j2")),
    ("side_to_move", include_str!("../templates/studies/side_to_move.md.j2")),
    ("e1_vs_e2", include_str!("../templates/studies/e1_vs_e2.md.j2")),
    ("characterisation", include_str!("../templates/studies/characterisation.md.j2")),
    ("transfer", include_str!("../templates/studies/transfer.md.j2")),
    ("curriculum", include_str!("../templates/studies/curriculum.md.j2")),
    ("gap_eta", include_str!("../templates/studies/gap_eta.md.j2")),
    ("gap_patience", include_str!("../templates/studies/gap_patience.md.j2")),
    ("gap_borderline", include_str!("../templates/studies/gap_borderline.md.j2")),
];

/// Check that a study has a report section (its question's prose), or name the ones that do.
pub fn check_name(name: &str) -> Result<()> {
    PROSE.iter().find(|(n, _)| *n == name).map(|_| ()).ok_or_else(|| {
        let known: Vec<&str> = PROSE.iter().map(|(n, _)| *n).collect();
        Error::config("name", format!("no study '{name}' has a report section; known: {}", known.join(", ")))
    })
}

/// Where STUDIES.md lists a study.
pub fn order(name: &str) -> usize {
    PROSE.iter().position(|(n, _)| *n == name).unwrap_or(PROSE.len())
}

/// STUDIES.md in `out`.
pub fn studies_md(out: &Path) -> PathBuf {
    out.join("STUDIES.md")
}

impl Report for Studies<'_> {
    /// STUDIES.md, and each study's figure (PNG and SVG) and `contrasts.csv`.
    fn destinations(&self, results: Option<&StudiesResults>) -> Result<Vec<PathBuf>> {
        let names: Vec<&str> = match results {
            Some(r) => r.studies.iter().map(|s| s.name.as_str()).collect(),
            None => self.studies.iter().map(|s| s.config.name.as_str()).collect(),
        };
        let mut files = vec![studies_md(&self.out)];
        for name in names {
            let d = folder(&self.out, name);
            files.extend([CONTRASTS_CSV, &format!("{name}.png"), &format!("{name}.svg")].map(|f| d.join(f)));
        }
        Ok(files)
    }

    fn render<'a>(&self, results: &'a StudiesResults) -> Result<Vec<Output<'a>>> {
        let mut files = vec![Output::bytes(studies_md(&self.out), render(results)?)];
        for s in &results.studies {
            let d = folder(&self.out, &s.name);
            files.push(Output::bytes(d.join(CONTRASTS_CSV), contrasts_csv(s)));
            for (format, ext) in [(ImageFormat::Png, "png"), (ImageFormat::Svg, "svg")] {
                let path = d.join(format!("{}.{ext}", s.name));
                files.push(match &s.figure {
                    Figure::Settings => Output::drawn(path, move |out| figure::save(s, out, format)),
                    _ => Output::drawn(path, move |out| lines::chart(s).save_to(out, format, lines::SIZE)),
                });
            }
        }
        Ok(files)
    }
}

/// `contrasts.csv`: every contrast the study's section shows, a − b on a column of
/// `replicates.csv`, with its interval (Holm's level for a primary, 95% otherwise), its method,
/// its adjusted p-value (primaries only) and its verdict.
pub fn contrasts_csv(result: &StudyResult) -> String {
    let mut s = format!("{CONTRAST_COLUMNS}\n");
    for c in result.contrasts() {
        s.push_str(&c.csv_line());
    }
    s
}

/// Draw a study's figure as PNG and SVG.
pub fn draw(result: &StudyResult, dest: &Destinations) -> Result<()> {
    match &result.figure {
        Figure::Settings => {
            figure::save(result, &dest.png, ImageFormat::Png)?;
            figure::save(result, &dest.svg, ImageFormat::Svg)
        }
        _ => {
            let chart = lines::chart(result);
            chart.save_to(&dest.png, ImageFormat::Png, lines::SIZE)?;
            chart.save_to(&dest.svg, ImageFormat::Svg, lines::SIZE)
        }
    }
}

fn engine() -> std::result::Result<Engine, crate::template::TemplateError> {
    let measure = |f: fn(Measure) -> &'static str| move |m: Typed<Measure>| f(m.0).to_string();
    let mut e = Engine::new()
        .filter("measure", measure(Measure::name))
        .filter("unit", measure(Measure::unit))
        .filter("difference_unit", measure(Measure::difference_unit))
        .filter("anchor", |t: String| anchor(&t))
        .template("studies.md", REPORT)?
        .template("section.md", SECTION)?;
    for (name, prose) in PROSE {
        e = e.template(name, prose)?;
    }
    Ok(e)
}

/// `STUDIES.md` from the studies' results.
pub fn render(results: &StudiesResults) -> Result<String> {
    engine().and_then(|e| e.render("studies.md", results)).map_err(Error::from)
}

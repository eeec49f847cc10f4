//! The studies' reports: `reports/studies/<name>/` (`results.csv`, one row per setting with the
//! replicates' mean and 95% interval; `replicates.csv`, one row per trial; the figure as PNG and
//! SVG) and `reports/STUDIES.md`. The numbers come from [`crate::study::results`] (all studies'
//! committed as `reports/studies.json`); the prose is the minijinja templates in
//! `report/templates/studies/`: `studies.md.j2`, `section.md.j2` (the setup, the answer worded
//! from its verdicts, the table) and each study's question.

mod figure;
mod lines;
pub mod pipeline;

use crate::error::{Error, Result};
use crate::figures::plot::ImageFormat;
use crate::output::FileOut;
use crate::report::summary::anchor;
use crate::stats::Interval;
use crate::stats::contrast::CONTRAST_COLUMNS;
use crate::study::results::{StudiesResults, StudyResult};
use crate::study::{Figure, Measure, StudyRun};
use crate::template::{Engine, Typed};
use std::fmt::Write as _;
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

/// The files a study's folder holds.
pub const RESULTS_CSV: &str = "results.csv";
pub const REPLICATES_CSV: &str = "replicates.csv";
pub const CONTRASTS_CSV: &str = "contrasts.csv";

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

/// The folder `reports/studies/<name>/` under `out`, and its files, checked before any training.
pub struct Destinations {
    pub results: FileOut,
    pub replicates: FileOut,
    /// Written with the family (`kpk study --all`, `--render-only`): its adjusted intervals
    /// depend on every study's primaries.
    pub contrasts: FileOut,
    pub png: FileOut,
    pub svg: FileOut,
}

impl Destinations {
    pub fn check(out: &Path, name: &str) -> Result<Destinations> {
        let folder = folder(out, name);
        Ok(Destinations {
            results: FileOut::check_in_own_folder(&folder.join(RESULTS_CSV))?,
            replicates: FileOut::check_in_own_folder(&folder.join(REPLICATES_CSV))?,
            contrasts: FileOut::check_in_own_folder(&folder.join(CONTRASTS_CSV))?,
            png: FileOut::check_in_own_folder(&folder.join(format!("{name}.png")))?,
            svg: FileOut::check_in_own_folder(&folder.join(format!("{name}.svg")))?,
        })
    }
}

/// `<out>/studies/<name>`.
pub fn folder(out: &Path, name: &str) -> PathBuf {
    out.join("studies").join(name)
}

fn cell(i: Option<Interval>) -> [String; 3] {
    i.map_or_else(
        || [String::new(), String::new(), String::new()],
        |i| [format!("{:.4}", i.mean), format!("{:.4}", i.lo), format!("{:.4}", i.hi)],
    )
}

/// `results.csv`: per setting, each measure's mean and 95% t-interval over replicates.
pub fn results_csv(run: &StudyRun) -> String {
    let mut s = String::from(
        "setting,label,replicates,train_pct_mean,train_pct_lo,train_pct_hi,test_pct_mean,test_pct_lo,test_pct_hi,\
         epochs_mean,epochs_lo,epochs_hi,state_epoch_mean,state_epoch_lo,state_epoch_hi,reached_target\n",
    );
    for (i, r) in run.settings.iter().enumerate() {
        let cells: Vec<String> = [Measure::Train, Measure::Test, Measure::Epochs, Measure::Epoch]
            .into_iter()
            .flat_map(|m| cell(r.interval(m)))
            .collect();
        let label = r.label.replace('"', "'");
        let _ = writeln!(
            s,
            "{},\"{label}\",{},{},{}",
            i + 1,
            r.replicates.len(),
            cells.join(","),
            r.reached_target()
        );
    }
    s
}

/// `replicates.csv`: one row per trial, the values the intervals summarise.
pub fn replicates_csv(run: &StudyRun) -> String {
    let mut s =
        String::from("setting,replicate,train_pct,test_pct,epochs,kept_epoch,state_epoch,stop_reason\n");
    for (i, r) in run.settings.iter().enumerate() {
        for (j, rep) in r.replicates.iter().enumerate() {
            let test = rep.test_accuracy_pct.map_or_else(String::new, |t| format!("{t:.4}"));
            let _ = writeln!(
                s,
                "{},{},{:.4},{test},{},{},{},{}",
                i + 1,
                j + 1,
                rep.train_accuracy_pct,
                rep.epochs,
                rep.kept_epoch,
                rep.state_epoch,
                rep.stop_reason.name()
            );
        }
    }
    s
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

/// Write a study's folder: the two CSV files from the run, and the figure from its analysis.
pub fn write_study(run: &StudyRun, result: &StudyResult, dest: &Destinations) -> Result<()> {
    dest.results.write(results_csv(run).as_bytes())?;
    dest.replicates.write(replicates_csv(run).as_bytes())?;
    draw(result, dest)
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

/// Every study's results in STUDIES.md's order (section 6's, then by name), their primary
/// contrasts adjusted as one family ([`crate::study::results::family`]).
pub fn collect(mut studies: Vec<StudyResult>) -> StudiesResults {
    studies.sort_by_key(|r| (order(&r.name), r.name.clone()));
    crate::study::results::family(studies)
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

//! The studies' reports: `reports/studies/<name>/` (`results.csv`, one row per setting with the
//! replicates' mean and 95% interval; `replicates.csv`, one row per trial; the figure as PNG and
//! SVG) and `reports/STUDIES.md`. Every number comes from the run; the prose is the Markdown
//! templates beside this file, and the answer sentences are computed from the results.

mod answer;
mod figure;
mod lines;

pub use answer::answer;

use crate::error::{Error, Result};
use crate::output::FileOut;
use crate::report::plot::ImageFormat;
use crate::report::stats::Interval;
use crate::report::template;
use crate::study::{Figure, Measure, State, StudyRun, Vary};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const REPORT: &str = include_str!("studies.md");
const SECTION: &str = include_str!("section.md");

/// Each study's question and the reading of it: the prose its section opens with, in the order
/// STUDIES.md lists them (section 6's order, then section 2's).
const PROSE: &[(&str, &str)] = &[
    ("layers", include_str!("layers.md")),
    ("layers_whole", include_str!("layers_whole.md")),
    ("codings", include_str!("codings.md")),
    ("overtraining", include_str!("overtraining.md")),
    ("set_size", include_str!("set_size.md")),
    ("pruning", include_str!("pruning.md")),
    ("init_symmetry", include_str!("init_symmetry.md")),
    ("momentum_annealing", include_str!("momentum_annealing.md")),
    ("side_to_move", include_str!("side_to_move.md")),
    ("e1_vs_e2", include_str!("e1_vs_e2.md")),
    ("characterisation", include_str!("characterisation.md")),
    ("transfer", include_str!("transfer.md")),
    ("curriculum", include_str!("curriculum.md")),
];

/// The files a study's folder holds.
pub const RESULTS_CSV: &str = "results.csv";
pub const REPLICATES_CSV: &str = "replicates.csv";

/// A study's question prose, or an error naming the study when it has none.
pub fn prose(name: &str) -> Result<&'static str> {
    PROSE.iter().find(|(n, _)| *n == name).map(|(_, p)| *p).ok_or_else(|| {
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
    pub png: FileOut,
    pub svg: FileOut,
}

impl Destinations {
    pub fn check(out: &Path, name: &str) -> Result<Destinations> {
        let folder = folder(out, name);
        Ok(Destinations {
            results: FileOut::check_in_own_folder(&folder.join(RESULTS_CSV))?,
            replicates: FileOut::check_in_own_folder(&folder.join(REPLICATES_CSV))?,
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

/// Write a study's folder: the two CSV files and the figure as PNG and SVG.
pub fn write_study(run: &StudyRun, dest: &Destinations) -> Result<()> {
    dest.results.write(results_csv(run).as_bytes())?;
    dest.replicates.write(replicates_csv(run).as_bytes())?;
    match &run.study.config.figure {
        Figure::Settings => {
            figure::save(run, &dest.png, ImageFormat::Png)?;
            figure::save(run, &dest.svg, ImageFormat::Svg)
        }
        other => {
            let chart = lines::chart(run, other);
            chart.save_to(&dest.png, ImageFormat::Png, lines::SIZE)?;
            chart.save_to(&dest.svg, ImageFormat::Svg, lines::SIZE)
        }
    }
}

fn show(i: Option<Interval>, digits: usize) -> String {
    i.map_or_else(|| "–".into(), |i| i.show(digits))
}

/// The setup line: base config, settings, replicates and how they differ.
fn setup(run: &StudyRun) -> String {
    let c = &run.study.config;
    let vary = match c.vary {
        Vary::Seed => "replicate r adds r to `seed` (initial weights and presentation order)",
        Vary::SeedAndData => {
            "replicate r adds r to `seed` (initial weights and presentation order) and to `data_seed` (a fresh draw of T1/S1 and T2/S2)"
        }
    };
    let settings: Vec<String> = c
        .settings
        .iter()
        .map(|s| {
            let keys: Vec<String> = s.overrides.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            if keys.is_empty() {
                format!("*{}* (the base)", s.label)
            } else {
                format!("*{}* ({})", s.label, keys.join(", "))
            }
        })
        .collect();
    format!(
        "Every trial is the base config `{}` with a setting's keys replaced; settings: {}. {} replicates per setting; {vary}. Config: `experiments/studies/{}.toml`.",
        run.study.base_shown,
        settings.join("; "),
        run.study.replicates(),
        c.name
    )
}

/// The table of STUDIES.md: one row per setting.
fn table(run: &StudyRun) -> String {
    let state = run.study.keys.iter().any(|k| k.state != State::Kept);
    let mut s = String::from("| # | setting | training accuracy, % | test accuracy, % | epochs run |");
    s.push_str(if state { " epoch of the state |" } else { "" });
    s.push_str(" stopped on the error target |\n|---:|---|---|---|---|---|");
    s.push_str(if state { "---|\n" } else { "\n" });
    for (i, r) in run.settings.iter().enumerate() {
        let epoch = if state { format!(" {} |", show(r.interval(Measure::Epoch), 0)) } else { String::new() };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |{epoch} {} of {} |",
            i + 1,
            r.label,
            show(r.interval(Measure::Train), 2),
            show(r.interval(Measure::Test), 2),
            show(r.interval(Measure::Epochs), 0),
            r.reached_target(),
            r.replicates.len()
        );
    }
    s
}

/// One study's section of STUDIES.md.
pub fn section(run: &StudyRun) -> Result<String> {
    let name = &run.study.config.name;
    Ok(template::fill(
        SECTION,
        &[
            ("title", run.study.config.title.clone()),
            ("prose", prose(name)?.trim_end().to_string()),
            ("setup", setup(run)),
            ("answer", answer(run)),
            ("table", table(run)),
            ("name", name.clone()),
        ],
    ))
}

/// `STUDIES.md` for the studies that ran, in section 6's order.
pub fn render(runs: &[StudyRun]) -> Result<String> {
    let mut sorted: Vec<&StudyRun> = runs.iter().collect();
    sorted.sort_by_key(|r| (order(&r.study.config.name), r.study.config.name.clone()));
    let sections = sorted.iter().map(|r| section(r)).collect::<Result<Vec<_>>>()?;
    let list: Vec<String> = sorted
        .iter()
        .map(|r| format!("[{}](#{})", r.study.config.title, anchor(&r.study.config.title)))
        .collect();
    Ok(template::fill(REPORT, &[("list", list.join(", ")), ("sections", sections.join("\n"))]))
}

/// GitHub's heading anchor: lower case, spaces to '-', other punctuation dropped.
fn anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

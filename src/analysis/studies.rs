//! `kpk study` as an [`Analysis`]: run every study (each study's folder gets its two CSV files as
//! it finishes: `results.csv`, one row per setting with the replicates' mean and 95% interval, and
//! `replicates.csv`, one row per trial), analyse each run ([`crate::study::results`]), adjust the
//! primaries as one family; the driver writes `studies.json` and [`crate::report::studies`]
//! renders STUDIES.md, every study's figure and its `contrasts.csv` from it.

use crate::analysis::{Analysis, Mode};
use crate::chess::bitbase::Bitbase;
use crate::error::Result;
use crate::output::FileOut;
use crate::stats::Interval;
use crate::study::config::{Measure, Study};
use crate::study::results::{StudiesResults, StudyResult, analyse};
use crate::study::run::{StudyRun, run_study};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What the studies' run reports as it goes.
pub enum StudyProgress<'s> {
    Started(&'s Study),
    /// One trial of the study started last is done.
    Trial,
    /// The study is done, in so many seconds.
    Finished(&'s Study, f64),
}

/// The studies' report: STUDIES.md over every study in `studies`.
pub struct Studies<'a> {
    /// Where `studies/<name>/` and STUDIES.md are written.
    pub out: PathBuf,
    /// The results' JSON (`studies.json` in `out` unless given).
    pub results: PathBuf,
    /// The studies to run, loaded and checked ([`Mode::Run`]; none for `--render-only`).
    pub studies: Vec<Study>,
    pub progress: &'a (dyn Fn(StudyProgress<'_>) + Sync),
    /// Where STUDIES.md lists a study ([`crate::report::studies::order`]): the results keep
    /// that order.
    pub order: fn(&str) -> usize,
}

impl Analysis for Studies<'_> {
    type Results = StudiesResults;

    fn command(&self) -> &'static str {
        "study"
    }

    fn results_path(&self) -> PathBuf {
        self.results.clone()
    }

    /// Runs every study ([`Mode::Run`] only: a study's analysis needs its run in memory), writing
    /// each one's `results.csv` and `replicates.csv` as it finishes.
    fn analyse(&self, _: Mode) -> Result<StudiesResults> {
        let dests = self
            .studies
            .iter()
            .map(|s| Destinations::check(&self.out, &s.config.name))
            .collect::<Result<Vec<_>>>()?;
        let bb = Bitbase::generate();
        let mut results = Vec::with_capacity(self.studies.len());
        for (study, dest) in self.studies.iter().zip(&dests) {
            let started = std::time::Instant::now();
            (self.progress)(StudyProgress::Started(study));
            let run = run_study(study, &bb, &|_| (self.progress)(StudyProgress::Trial))?;
            write_run(&run, dest)?;
            results.push(analyse(&run));
            (self.progress)(StudyProgress::Finished(study, started.elapsed().as_secs_f64()));
        }
        Ok(collect(results, self.order))
    }
}

/// The files a study's folder holds.
pub const RESULTS_CSV: &str = "results.csv";
pub const REPLICATES_CSV: &str = "replicates.csv";
pub const CONTRASTS_CSV: &str = "contrasts.csv";

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

/// Write a study's two CSV files from its run.
pub fn write_run(run: &StudyRun, dest: &Destinations) -> Result<()> {
    dest.results.write(results_csv(run).as_bytes())?;
    dest.replicates.write(replicates_csv(run).as_bytes())
}

/// Every study's results in STUDIES.md's order (`order`: section 6's, then by name), their primary
/// contrasts adjusted as one family ([`crate::study::results::family`]).
pub fn collect(mut studies: Vec<StudyResult>, order: fn(&str) -> usize) -> StudiesResults {
    studies.sort_by_key(|r| (order(&r.name), r.name.clone()));
    crate::study::results::family(studies)
}

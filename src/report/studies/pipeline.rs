//! `kpk study --all` as a [`Report`] for the one driver: run every study (each study's folder
//! gets its two CSV files as it finishes), analyse each run, adjust the primaries as one family;
//! the driver writes `studies.json` and renders STUDIES.md, every study's figure and its
//! `contrasts.csv` from it.

use super::{
    Destinations, collect, contrasts_csv, figure, folder, lines, render, replicates_csv, results_csv,
};
use crate::analysis::{Analysis, Mode};
use crate::chess::bitbase::Bitbase;
use crate::error::Result;
use crate::figures::plot::ImageFormat;
use crate::report::driver::{Output, Report};
use crate::study::results::{StudiesResults, analyse};
use crate::study::{
    config::{Figure, Study},
    run::run_study,
};
use std::path::PathBuf;

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
}

/// STUDIES.md in `out`.
pub fn studies_md(out: &std::path::Path) -> PathBuf {
    out.join("STUDIES.md")
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
            dest.results.write(results_csv(&run).as_bytes())?;
            dest.replicates.write(replicates_csv(&run).as_bytes())?;
            results.push(analyse(&run));
            (self.progress)(StudyProgress::Finished(study, started.elapsed().as_secs_f64()));
        }
        Ok(collect(results))
    }
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
            files.extend(
                [super::CONTRASTS_CSV, &format!("{name}.png"), &format!("{name}.svg")].map(|f| d.join(f)),
            );
        }
        Ok(files)
    }

    fn render<'a>(&self, results: &'a StudiesResults) -> Result<Vec<Output<'a>>> {
        let mut files = vec![Output::bytes(studies_md(&self.out), render(results)?)];
        for s in &results.studies {
            let d = folder(&self.out, &s.name);
            files.push(Output::bytes(d.join(super::CONTRASTS_CSV), contrasts_csv(s)));
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

//! Analysis: from the runs of the stages before it (trials, studies, matches, hybrids, learners)
//! to a report's typed results, which the report stage ([`crate::report`]) renders and commits.
//!
//! An analysis is a type implementing [`Analysis`]: where its results are kept, which files it
//! reads and writes, and how it runs and analyses. [`crate::report::driver::drive`] runs it in a
//! [`Mode`] and renders its results.

pub mod compression;
pub mod finding;
pub mod krk_learners;
pub mod learners;
pub mod learners_tuned;
pub mod matches;
pub mod reproduction;
pub mod studies;

use crate::error::Result;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::PathBuf;

/// What a command asks of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Run (train, play), analyse, write the results and render.
    Run,
    /// Analyse the runs already on disk, write the results and render (`--analyse-only`).
    AnalyseOnly,
    /// Render from the committed results alone (`--render-only`).
    RenderOnly,
}

/// An analysis: from its runs to typed results.
pub trait Analysis {
    /// Everything the report shows, committed as JSON ([`Analysis::results_path`]).
    type Results: Serialize + DeserializeOwned;

    /// The command that writes the report (`match`), for messages.
    fn command(&self) -> &'static str;

    /// Whether the report can be analysed again from the runs on disk ([`Mode::AnalyseOnly`]):
    /// only where its runs are kept. The others analyse as they run.
    fn reanalyses(&self) -> bool {
        false
    }

    /// Where the results' JSON is kept.
    fn results_path(&self) -> PathBuf;

    /// The files the command reads in `mode` (configs, models, earlier data): no destination may
    /// be one of them. The driver adds the results' JSON where `mode` reads it.
    fn inputs(&self, _mode: Mode) -> Vec<PathBuf> {
        Vec::new()
    }

    /// The files a run in `mode` writes besides the rendered ones (a model, measured data),
    /// checked with the destinations before any work starts.
    fn run_outputs(&self, _mode: Mode) -> Vec<PathBuf> {
        Vec::new()
    }

    /// Run (for [`Mode::Run`]) and analyse into the results. The files a run writes besides the
    /// report (trial folders, a model) are the run's: it checks them before it starts.
    fn analyse(&self, mode: Mode) -> Result<Self::Results>;
}

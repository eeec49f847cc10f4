//! `kpk compress` as an [`Analysis`]: train the config's candidates (and the frontier's nets),
//! write the smallest exact model and analyse, into `reports/compression.json`, which
//! [`crate::report::compression`] renders.

use crate::analysis::{Analysis, Mode};
use crate::error::{Error, Result};
use crate::hybrid::compress::{Candidate, CompressConfig};
use crate::hybrid::frontier::FrontierRow;
use crate::hybrid::results::{CompressionResults, Frontier};
use crate::net::topology::Topology;
use std::path::Path;

/// The frontier's data, written beside the report.
pub const FRONTIER_DATA: &str = "compression-frontier.csv";

/// The results' file name, beside the report (`reports/compression.json`).
pub const RESULTS_NAME: &str = "compression.json";

/// Where the results are kept, beside the report.
pub fn results_path(report: &Path) -> std::path::PathBuf {
    beside(report, RESULTS_NAME)
}

/// Where the frontier's data is kept, beside the report.
pub fn frontier_data_path(report: &Path) -> std::path::PathBuf {
    beside(report, FRONTIER_DATA)
}

/// The frontier rows an earlier `kpk compress --frontier` wrote at `path`, if the config has a
/// frontier and the file exists; an error if they are not the config's nets and seeds.
pub fn earlier_frontier(cfg: &CompressConfig, path: &Path) -> Result<Option<Vec<FrontierRow>>> {
    let Some(spec) = &cfg.frontier else { return Ok(None) };
    if !path.exists() {
        return Ok(None);
    }
    let rows = crate::hybrid::frontier::read_csv(path)?;
    let width = cfg.inputs.get(&spec.inputs).map_or(0, Vec::len);
    let wanted: Vec<(Option<Topology>, u64)> =
        spec.nets().iter().map(|n| (n.topology(width).ok(), n.seed.unwrap_or_default())).collect();
    let found: Vec<(Option<Topology>, u64)> =
        rows.iter().map(|r| (Some(r.topology.clone()), r.seed)).collect();
    if found != wanted {
        return Err(Error::Format {
            path: path.display().to_string(),
            message: "holds other nets or seeds than the config's [frontier]: run `kpk compress --frontier`"
                .into(),
        });
    }
    Ok(Some(rows))
}

/// `report`'s folder joined with `name` (`.` for a report without a folder).
pub fn beside(report: &Path, name: &str) -> std::path::PathBuf {
    report.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).join(name)
}

/// `kpk compress` as an [`Analysis`]: the report and its results, and what a run trains.
pub struct Compress<'a> {
    /// The report; its figures and the frontier's data go beside it.
    pub report: std::path::PathBuf,
    pub results: std::path::PathBuf,
    /// What [`Mode::Run`] trains (none for `--render-only`).
    pub run: Option<CompressRun<'a>>,
}

/// A compress run: train the config's candidates (and, with `measure_frontier`, the frontier's
/// nets), hand them to `chosen` (which writes the smallest exact model and returns it as read
/// back), and analyse.
pub struct CompressRun<'a> {
    /// The config's path as the report names it, and the config.
    pub config: String,
    pub cfg: CompressConfig,
    /// Measure the frontier now; without it, the report reuses an earlier run's data.
    pub measure_frontier: bool,
    /// Where the chosen model is written (by `chosen`).
    pub model: std::path::PathBuf,
    pub progress: crate::hybrid::compress::Progress<'a>,
    pub chosen: &'a dyn Fn(&[Candidate]) -> Result<crate::hybrid::Hybrid>,
}

impl Analysis for Compress<'_> {
    type Results = CompressionResults;

    fn command(&self) -> &'static str {
        "compress"
    }

    fn results_path(&self) -> std::path::PathBuf {
        self.results.clone()
    }

    /// The config, and the frontier's data where it is read rather than measured.
    fn inputs(&self, _: Mode) -> Vec<std::path::PathBuf> {
        let Some(run) = &self.run else { return Vec::new() };
        let mut files = vec![std::path::PathBuf::from(&run.config)];
        files.extend((!run.measure_frontier).then(|| frontier_data_path(&self.report)));
        files
    }

    /// The model, and the frontier's data where it is measured.
    fn run_outputs(&self, _: Mode) -> Vec<std::path::PathBuf> {
        let Some(run) = &self.run else { return Vec::new() };
        let mut files = vec![run.model.clone()];
        files.extend(run.measure_frontier.then(|| frontier_data_path(&self.report)));
        files
    }

    fn analyse(&self, mode: Mode) -> Result<CompressionResults> {
        let Some(run) = &self.run else { return Err(Error::Internal(format!("{mode:?} without a run"))) };
        let frontier_csv = frontier_data_path(&self.report);
        let frontier = match run.measure_frontier {
            true => Frontier::Measure,
            false => earlier_frontier(&run.cfg, &frontier_csv)?.map_or(Frontier::None, Frontier::Earlier),
        };
        let bb = crate::chess::bitbase::Bitbase::generate();
        let (candidates, frontier) = crate::hybrid::results::run(&run.cfg, frontier, &bb, run.progress)?;
        if let (true, Some(rows)) = (run.measure_frontier, &frontier) {
            crate::hybrid::frontier::write_csv(&frontier_csv, rows)?;
        }
        let model = (run.chosen)(&candidates)?;
        crate::hybrid::results::analyse(&run.config, &run.cfg, &candidates, frontier.as_deref(), &model)
    }
}

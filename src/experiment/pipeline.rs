//! The experiment pipelines behind `kpk readings`, callable without the binary: the readings of
//! the stopping rule compared over every trial's replicates, the learning-rate sweep, and Table 6
//! at matched accuracy. Also what every pipeline shares: loading a folder of trial configs and the
//! default number of jobs.

use super::readings::{self, Compared};
use super::replicate::{self, Replicates};
use super::sweep::{self, SweepRow};
use super::table6::{self, Matched};
use crate::chess::bitbase::Bitbase;
use crate::dataset::SetName;
use crate::error::{Allowed, Error, Result};
use crate::experiment::config::{Trial, TrialConfig};
use crate::paper::tables;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Runs trained at once when not asked otherwise: the number of cores.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Progress of a pipeline's runs: (runs done, runs in all).
pub type RunProgress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Load and check every config before anything runs, so a bad one writes nothing; two configs
/// may not share a name (they would share a folder).
pub fn load_configs(paths: &[PathBuf]) -> Result<Vec<Trial>> {
    let mut trials = Vec::with_capacity(paths.len());
    let mut names = HashSet::new();
    for path in paths {
        let trial = TrialConfig::load(path)?;
        if !names.insert(trial.name().to_string()) {
            return Err(Error::Config {
                path: path.display().to_string(),
                key: "name".into(),
                reason: format!("'{}' is used by another config on the command line", trial.name()),
            });
        }
        trials.push(trial);
    }
    Ok(trials)
}

/// Every `*.toml` trial config in `dir`, in the order of their file names, loaded and checked.
pub fn load_dir(dir: &Path) -> Result<Vec<Trial>> {
    let listed =
        std::fs::read_dir(dir).map_err(|cause| Error::Io { path: dir.display().to_string(), cause })?;
    let mut paths: Vec<PathBuf> = listed
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(Error::Format {
            path: dir.display().to_string(),
            message: "no *.toml trial configs".into(),
        });
    }
    load_configs(&paths)
}

/// Replicates with at least one of each kind.
pub fn check_replicates(reps: Replicates) -> Result<Replicates> {
    if reps.seeds == 0 || reps.draws == 0 || reps.whole_set_seeds == 0 {
        return Err(Error::Argument("--seeds, --draws and --whole-set-seeds must be at least 1".into()));
    }
    Ok(reps)
}

/// `kpk readings`: every trial's replicates trained once under [`readings::horizon`], each
/// reading of section 4.5 read off the same runs and compared with the paper's Table 5. The rows
/// come sorted as `trials.csv`, `distances.csv` (closest first) and `replicates.csv` hold them.
pub fn readings(trials: &[Trial], reps: Replicates, jobs: usize, progress: RunProgress) -> Result<Compared> {
    let horizon: Vec<Trial> = trials.iter().map(readings::horizon).collect::<Result<_>>()?;
    let bb = Bitbase::generate();
    let runs = replicate::run_replicates(&horizon, check_replicates(reps)?, &bb, jobs, progress)?;
    let mut compared = readings::compare(trials, &runs, &tables::table5(), &readings::examined());
    compared.distances.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    compared.replicates.sort_by_key(|r| (r.trial, r.draw_index, r.seed_index));
    Ok(compared)
}

/// `kpk readings --learning-rates`: every trial's replicates at each rate, under the configs'
/// reading, scored against the paper ([`sweep::score`]). `done(rate, runs)` reports each rate.
pub fn sweep(
    trials: &[Trial],
    rates: &[f64],
    reps: Replicates,
    jobs: usize,
    done: &dyn Fn(f64, usize),
) -> Result<Vec<SweepRow>> {
    for &rate in rates {
        Allowed::POSITIVE.check(rate).map_err(|e| Error::Argument(format!("--learning-rates: {e}")))?;
    }
    let reps = check_replicates(reps)?;
    let bb = Bitbase::generate();
    let mut by_rate = Vec::new();
    for &rate in rates {
        let at_rate: Vec<Trial> =
            trials.iter().map(|t| t.with(|c| c.learning_rate = rate)).collect::<Result<_>>()?;
        let runs = replicate::run_replicates(&at_rate, reps, &bb, jobs, &|_, _| {})?;
        done(rate, runs.len());
        by_rate.push((rate, runs));
    }
    Ok(sweep::score(trials, &by_rate, &tables::table5()))
}

/// `kpk readings --table6`: the a-file trials' replicates, each taken at matched accuracy
/// ([`table6::matched`]).
pub fn table6(trials: &[Trial], reps: Replicates, jobs: usize) -> Result<Matched> {
    let a_file: Vec<Trial> =
        trials.iter().filter(|t| t.config.training_set == SetName::T4).cloned().collect();
    if a_file.is_empty() {
        return Err(Error::Argument("no trial trains on T4, the a-file set of Table 6".into()));
    }
    let bb = Bitbase::generate();
    let runs = replicate::run_replicates(&a_file, check_replicates(reps)?, &bb, jobs, &|_, _| {})?;
    table6::matched(&a_file, &runs, &tables::table6(), &bb, jobs)
}

/// `kpk readings --render-only`: redraw the sweep's figure (`sweep.png`, `sweep.svg`) from its
/// committed rows (`sweep.csv` in `out`), training nothing. Returns the two figures' paths.
pub fn render_sweep(out: &Path) -> Result<[PathBuf; 2]> {
    use crate::figures::plot::ImageFormat;
    use crate::output::FileOut;
    let csv_path = out.join("sweep.csv");
    let bytes = crate::io::read(&csv_path)?;
    let rows: Vec<SweepRow> = csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| Error::Format {
            path: csv_path.display().to_string(),
            message: format!("not a sweep table: {e}"),
        })?;
    let png = FileOut::check_in_own_folder(&out.join("sweep.png"))?;
    let svg = FileOut::check_in_own_folder(&out.join("sweep.svg"))?;
    sweep::save_chart(&rows, &png, ImageFormat::Png)?;
    sweep::save_chart(&rows, &svg, ImageFormat::Svg)?;
    Ok([out.join("sweep.png"), out.join("sweep.svg")])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_without_configs_and_zero_replicates_are_refused() {
        let empty = std::env::temp_dir().join(format!("kpk-no-configs-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        let err = load_dir(&empty).unwrap_err().to_string();
        assert!(err.ends_with("no *.toml trial configs"), "{err}");
        std::fs::remove_dir_all(&empty).unwrap();
        let zero = Replicates { seeds: 0, draws: 1, whole_set_seeds: 1 };
        assert!(check_replicates(zero).is_err());
        assert!(check_replicates(Replicates::ONE).is_ok());
        let trials = load_dir(Path::new("experiments/table5")).unwrap();
        assert_eq!(trials.len(), 41);
        let err = sweep(&trials, &[0.0], Replicates::ONE, 1, &|_, _| {}).unwrap_err().to_string();
        assert!(err.ends_with("--learning-rates: 0 is outside (0, ∞)"), "{err}");
        let none: Vec<Trial> = trials.into_iter().filter(|t| t.config.training_set != SetName::T4).collect();
        assert!(table6(&none, Replicates::ONE, 1).is_err());
    }
}

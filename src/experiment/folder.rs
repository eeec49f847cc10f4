//! A trial's report folder `reports/<name>/`: its files, written all or nothing, and the export of its net.

use super::chart::{ChartMarks, accuracy_chart};
use super::config::{Trial, TrialConfig, output_name};
use super::rows::{WEIGHTS_JSON, write_metrics, write_misclassified};
use super::run::TrialRun;
use crate::error::{Error, Result};
use crate::net::export;
use crate::net::mlp::Mlp;
use crate::net::model::SavedNet;
use crate::output::{RunFolder, RunFolderKind};
use crate::train::config::ErrorFunction;
use std::path::Path;

/// File names inside a trial's report folder.
pub const CONFIG_TOML: &str = "config.toml";
pub const METRICS_CSV: &str = "metrics.csv";
pub const SUMMARY_JSON: &str = "summary.json";
pub const WEIGHTS_SAFETENSORS: &str = "weights.safetensors";
pub const WEIGHTS_NPY_DIR: &str = "npy";
pub const ACCURACY_PNG: &str = "accuracy.png";
pub const ACCURACY_SVG: &str = "accuracy.svg";
pub const MISCLASSIFIED_CSV: &str = "misclassified.csv";

/// What makes a folder a kpk trial folder ([`crate::output::RunFolder`]): only the entries
/// [`write_trial`] writes, and a `summary.json` that names the folder.
pub const TRIAL_FOLDER: RunFolderKind = RunFolderKind {
    entries: &[
        CONFIG_TOML,
        METRICS_CSV,
        SUMMARY_JSON,
        WEIGHTS_JSON,
        WEIGHTS_SAFETENSORS,
        WEIGHTS_NPY_DIR,
        ACCURACY_PNG,
        ACCURACY_SVG,
        MISCLASSIFIED_CSV,
    ],
    is_ours: summary_names_folder,
};

fn summary_names_folder(dir: &Path, name: &str) -> bool {
    let Ok(bytes) = std::fs::read(dir.join(SUMMARY_JSON)) else { return false };
    let json: Option<serde_json::Value> = serde_json::from_slice(&bytes).ok();
    json.is_some_and(|v| v.get("name").and_then(|n| n.as_str()) == Some(name))
}

/// Check every trial's folder under `out` before any training starts (the output policy of
/// [`crate::output`]): a foreign file or folder at `<out>/<name>` is an error and nothing is run.
pub fn check_destinations(trials: &[Trial], out: &Path) -> Result<Vec<RunFolder>> {
    trials.iter().map(|t| RunFolder::check(out, t.name(), &TRIAL_FOLDER)).collect()
}

/// Write a finished trial's report folder, all or nothing ([`RunFolder::write`]).
pub fn write_trial(folder: &RunFolder, run: &TrialRun) -> Result<()> {
    folder.write(&TRIAL_FOLDER, |tmp| {
        let c = &run.trial.config;
        let header = format!(
            "# Resolved config of {}, as run by kpk {} (defaults made explicit; seed = {}).\n",
            c.name,
            env!("CARGO_PKG_VERSION"),
            c.seed
        );
        crate::output::write_file(&tmp.join(CONFIG_TOML), (header + &c.to_toml()).as_bytes())?;
        write_metrics(&tmp.join(METRICS_CSV), &run.metrics)?;
        let summary = crate::template::results_json(&run.summary)?;
        crate::output::write_file(&tmp.join(SUMMARY_JSON), summary.as_bytes())?;
        saved_net(run)?.save(&tmp.join(WEIGHTS_JSON))?;
        export::write_safetensors(&tmp.join(WEIGHTS_SAFETENSORS), &run.net, &export_metadata(run))?;
        let npy = tmp.join(WEIGHTS_NPY_DIR);
        crate::output::create_folder(&npy)?;
        export::write_npy(&npy, &run.net)?;
        let title = format!("{}: {} on {}, {}", c.name, c.topology, c.training_set, error_label(c));
        let chart = accuracy_chart(&title, &run.metrics, &ChartMarks::of(c, Some(&run.summary)));
        for file in [ACCURACY_PNG, ACCURACY_SVG] {
            chart.save(&tmp.join(file), (900, 520))?;
        }
        write_misclassified(&tmp.join(MISCLASSIFIED_CSV), &run.misclassified)
    })
}

fn error_label(c: &TrialConfig) -> String {
    let e = match c.error_function {
        ErrorFunction::E1 => "E1",
        ErrorFunction::E2 => "E2",
    };
    format!("{e} target {}", c.error_target)
}

/// The kept net as `weights.json` ([`SavedNet`]: topology, slope, codings, seed, weights).
fn saved_net(run: &TrialRun) -> Result<SavedNet> {
    let c = &run.trial.config;
    SavedNet::new(&run.net, c.input_coding, SavedNet::all_features(), run.trial.output(), c.seed)
}

/// `kpk export`: read a trained net's `weights.json` and write it into `out` as `weights.json`,
/// `weights.safetensors` and `npy/layer{k}.{weight,bias}.npy`. The net is read in full before
/// anything is written, and each file is written atomically. Returns the files written.
pub fn export_net(weights_json: &Path, out: &Path) -> Result<Vec<std::path::PathBuf>> {
    let saved = SavedNet::load(weights_json)?;
    let net = saved.net()?;
    let coding = saved.input_coding;
    let folder = export_folder(weights_json, out)?;
    folder.write(&EXPORT_FOLDER, |tmp| {
        saved.save(&tmp.join(WEIGHTS_JSON))?;
        export::write_safetensors(
            &tmp.join(WEIGHTS_SAFETENSORS),
            &net,
            &[("input_coding", coding.name().to_string())],
        )?;
        let npy = tmp.join(WEIGHTS_NPY_DIR);
        crate::output::create_folder(&npy)?;
        export::write_npy(&npy, &net)
    })?;
    let npy = out.join(WEIGHTS_NPY_DIR);
    let mut written = vec![out.join(WEIGHTS_JSON), out.join(WEIGHTS_SAFETENSORS)];
    for k in 1..net.topology().len() {
        written.push(npy.join(export::npy_name(k, "weight")));
        written.push(npy.join(export::npy_name(k, "bias")));
    }
    Ok(written)
}

/// What makes a folder a kpk export folder ([`export_net`]): only the entries it writes, and a
/// `weights.json` that reads as a saved net.
pub const EXPORT_FOLDER: RunFolderKind = RunFolderKind {
    entries: &[WEIGHTS_JSON, WEIGHTS_SAFETENSORS, WEIGHTS_NPY_DIR],
    is_ours: |dir, _| SavedNet::load(&dir.join(WEIGHTS_JSON)).is_ok(),
};

/// The export's folder `out`, checked as a run folder is: nothing there, an empty folder, or an
/// earlier export; never the folder the net is read from, nor standard output.
fn export_folder(weights_json: &Path, out: &Path) -> Result<RunFolder> {
    let refuse = |reason: &str| Err(Error::Output { path: out.display().to_string(), reason: reason.into() });
    if out.as_os_str() == "-" {
        return refuse("export writes a folder of files, which standard output cannot hold; give a folder");
    }
    let source = weights_json.parent().and_then(|p| std::fs::canonicalize(p).ok());
    if source.is_some() && std::fs::canonicalize(out).ok() == source {
        return refuse("is the folder the net is read from; give another --out");
    }
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned());
    let Some(name) = name.filter(|n| n != "..") else {
        return refuse("names no folder of its own ('.', '..' or '/'); give a folder path");
    };
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    RunFolder::check(parent, &name, &EXPORT_FOLDER)
}

/// Read back a net exported by [`write_trial`] or [`export_net`] from `weights.json`.
pub fn load_net(weights_json: &Path) -> Result<Mlp> {
    SavedNet::load(weights_json)?.net()
}

fn export_metadata(run: &TrialRun) -> Vec<(&'static str, String)> {
    let c = &run.trial.config;
    vec![
        ("name", c.name.clone()),
        ("input_coding", c.input_coding.name().to_string()),
        ("output_coding", output_name(c.output_coding).to_string()),
        ("margin", c.margin.to_string()),
        ("seed", c.seed.to_string()),
    ]
}

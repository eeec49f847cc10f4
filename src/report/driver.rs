//! Every report the same way: analysis writes typed results, rendering fills templates and draws
//! figures from them alone, and one driver ([`drive`]) does the rest for every report.
//!
//! ```text
//! runs ──analyse──► Results ──JSON──► reports/<report>.json ──render──► Markdown + figures
//! ```
//!
//! A report is a type implementing [`Report`]: where its results are kept, which files it
//! writes, how it analyses and how it renders. [`drive`] then does, for each [`Mode`]:
//! 1. check every destination (every file rendering writes, then the results' JSON) by the output
//!    policy of [`crate::output`], before any work starts;
//! 2. `Run` and `AnalyseOnly`: analyse (training first for `Run`), then write the results' JSON;
//!    `RenderOnly`: read the results back from that JSON instead;
//! 3. render, and write each rendered file through its checked destination. A rendered file
//!    that was not declared as a destination is a bug of the report, and nothing is written.
//!
//! Rendering is pure: the same results give the same bytes, so `--render-only` on a committed
//! JSON rewrites every committed file of the report byte for byte.

use crate::analysis::{Analysis, Mode};
use crate::error::{Error, Result};
use crate::figures::plot::{ImageFormat, LineChart};
use crate::output::FileOut;
use std::path::{Path, PathBuf};

/// How a rendered file is written into its checked destination.
type Write<'a> = Box<dyn FnOnce(&FileOut) -> Result<()> + 'a>;

/// One file a report renders: its path and how to write it into its checked destination.
pub struct Output<'a> {
    pub path: PathBuf,
    write: Write<'a>,
}

impl<'a> Output<'a> {
    /// A file written by `write` (a chart drawn by plotters, say) into its checked destination.
    pub fn drawn(path: impl Into<PathBuf>, write: impl FnOnce(&FileOut) -> Result<()> + 'a) -> Output<'a> {
        Output { path: path.into(), write: Box::new(write) }
    }

    /// A file of the bytes `bytes` (Markdown, CSV, an SVG document).
    pub fn bytes(path: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) -> Output<'a> {
        let bytes = bytes.into();
        Output::drawn(path, move |out| out.write(&bytes))
    }

    /// An SVG document at `path` and its PNG rendering beside it (the rule for every figure: both
    /// formats), the PNG rendered now so that a failure writes neither.
    pub fn svg_and_png(path: impl Into<PathBuf>, svg: String) -> Result<[Output<'a>; 2]> {
        let path = path.into();
        let png = path.with_extension("png");
        let bytes = crate::figures::raster::svg_to_png(&svg, &png)?;
        Ok([Output::bytes(png, bytes), Output::bytes(path, svg)])
    }
}

/// A chart drawn as PNG at `png` and as SVG beside it, `size` pixels (the SVG's view box).
pub fn chart<'a>(png: impl Into<PathBuf>, chart: LineChart, size: (u32, u32)) -> [Output<'a>; 2] {
    let png = png.into();
    let svg = png.with_extension("svg");
    let chart = std::rc::Rc::new(chart);
    let again = chart.clone();
    [
        Output::drawn(png, move |out| chart.save_to(out, ImageFormat::Png, size)),
        Output::drawn(svg, move |out| again.save_to(out, ImageFormat::Svg, size)),
    ]
}

/// A report: an [`Analysis`] whose results render to files.
pub trait Report: Analysis {
    /// Every file [`Report::render`] writes. Without results (`Run`, `AnalyseOnly`) the report
    /// names them from its configs; with them (`RenderOnly`) it may read them from the results.
    fn destinations(&self, results: Option<&Self::Results>) -> Result<Vec<PathBuf>>;

    /// The folder of figures the report writes, if it has one of its own: no destination but its
    /// figures ([`Report::folder_holds`]) may lie inside it.
    fn figures_folder(&self) -> Option<PathBuf> {
        None
    }

    /// Whether `path`, a destination inside the figures' `folder`, belongs there: by default the
    /// figures alone (the PNG and SVG files directly in it); a report whose folder also keeps its
    /// tables says so here.
    fn folder_holds(&self, folder: &Path, path: &Path) -> bool {
        path.parent() == Some(folder) && path.extension().is_some_and(|e| e == "png" || e == "svg")
    }

    /// The report's files, rendered from `results` alone: the Markdown, the figures, the tables.
    fn render<'a>(&self, results: &'a Self::Results) -> Result<Vec<Output<'a>>>;
}

/// Run `report` in `mode` (see the module's documentation). Returns the paths written, the
/// results' JSON first unless it was only read.
pub fn drive<R: Report>(report: &R, mode: Mode) -> Result<Vec<PathBuf>> {
    // Only a command that keeps its runs offers `--analyse-only`.
    if mode == Mode::AnalyseOnly && !report.reanalyses() {
        return Err(Error::Internal(format!("kpk {}: {mode:?}", report.command())));
    }
    let json_path = report.results_path();
    let (results, mut written) = if mode == Mode::RenderOnly {
        (crate::template::read_results(&json_path)?, Vec::new())
    } else {
        let mut checked = check(&report.destinations(None)?)?;
        checked.extend(check(&report.run_outputs(mode))?);
        let json = FileOut::check(&json_path)?;
        policy(report, mode, &checked, Some(&json))?;
        let results = report.analyse(mode)?;
        json.write(crate::template::results_json(&results)?.as_bytes())?;
        (results, vec![json_path])
    };
    let checked = check(&report.destinations(Some(&results))?)?;
    policy(report, mode, &checked, None)?;
    let outputs = report.render(&results)?;
    let mut placed = Vec::with_capacity(outputs.len());
    for output in outputs {
        let at = checked.iter().position(|(p, _)| *p == output.path).ok_or_else(|| {
            Error::Internal(format!("{}: rendered but not declared", output.path.display()))
        })?;
        placed.push((at, output));
    }
    for (at, output) in placed {
        (output.write)(&checked[at].1)?;
        written.push(output.path);
    }
    Ok(written)
}

/// The output policy across a report's destinations ([`crate::output`]): no two name the same
/// file, none is an input of the command, and none but what the figures' folder holds lies in it.
fn policy<R: Report>(
    report: &R,
    mode: Mode,
    checked: &[(PathBuf, FileOut)],
    json: Option<&FileOut>,
) -> Result<()> {
    let mut inputs = report.inputs(mode);
    if mode == Mode::RenderOnly {
        inputs.push(report.results_path());
    }
    let outs: Vec<&FileOut> = checked.iter().map(|(_, f)| f).chain(json).collect();
    crate::output::check_all(&outs, &inputs.iter().map(PathBuf::as_path).collect::<Vec<_>>())?;
    let Some(folder) = report.figures_folder() else { return Ok(()) };
    let others: Vec<&FileOut> = checked
        .iter()
        .filter(|(p, _)| !report.folder_holds(&folder, p))
        .map(|(_, f)| f)
        .chain(json)
        .collect();
    crate::output::outside_folder(&others, &folder)
}

/// Each path checked by the output policy, before anything is written.
fn check(paths: &[PathBuf]) -> Result<Vec<(PathBuf, FileOut)>> {
    paths.iter().map(|p| Ok((p.clone(), FileOut::check(p)?))).collect()
}

/// `dir/name` for each of `names`.
pub fn under(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    names.iter().map(|n| dir.join(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    /// A report of a list of numbers: `n.md` lists them; `stray` renders a file it never declared.
    struct Numbers {
        dir: PathBuf,
        stray: bool,
    }

    impl Analysis for Numbers {
        type Results = Vec<u32>;
        fn command(&self) -> &'static str {
            "numbers"
        }
        fn results_path(&self) -> PathBuf {
            self.dir.join("n.json")
        }
        fn analyse(&self, _: Mode) -> Result<Vec<u32>> {
            Ok(vec![3, 1, 4])
        }
    }

    impl Report for Numbers {
        fn destinations(&self, _: Option<&Vec<u32>>) -> Result<Vec<PathBuf>> {
            Ok(vec![self.dir.join("n.md")])
        }
        fn render<'a>(&self, r: &'a Vec<u32>) -> Result<Vec<Output<'a>>> {
            let text: String = r.iter().map(|n| format!("- {n}\n")).collect();
            let mut files = vec![Output::bytes(self.dir.join("n.md"), text)];
            if self.stray {
                files.push(Output::bytes(self.dir.join("stray.md"), "x"));
            }
            Ok(files)
        }
    }

    #[test]
    fn a_run_writes_the_json_and_render_only_rewrites_the_same_bytes_from_it() {
        let s = Scratch::new("driver");
        let report = Numbers { dir: s.path().to_path_buf(), stray: false };
        assert_eq!(drive(&report, Mode::Run).unwrap(), [s.join("n.json"), s.join("n.md")]);
        let md = std::fs::read(s.join("n.md")).unwrap();
        assert_eq!(md, b"- 3\n- 1\n- 4\n");
        std::fs::write(s.join("n.json"), "[2, 7]\n").unwrap();
        assert_eq!(drive(&report, Mode::RenderOnly).unwrap(), [s.join("n.md")]);
        assert_eq!(std::fs::read(s.join("n.md")).unwrap(), b"- 2\n- 7\n");
    }

    #[test]
    fn a_rendered_file_not_declared_is_an_error_and_nothing_is_written() {
        let s = Scratch::new("driver");
        std::fs::write(s.join("n.json"), "[5]\n").unwrap();
        let e = drive(&Numbers { dir: s.path().to_path_buf(), stray: true }, Mode::RenderOnly).unwrap_err();
        let e = e.to_string();
        assert!(e.ends_with(&format!("{}: rendered but not declared", s.join("stray.md").display())), "{e}");
        assert_eq!(s.names(), ["n.json"]);
    }

    #[test]
    fn a_refused_destination_stops_the_run_before_analysis() {
        let s = Scratch::new("driver");
        std::fs::create_dir(s.join("n.md")).unwrap();
        let e = drive(&Numbers { dir: s.path().to_path_buf(), stray: false }, Mode::Run).unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        assert_eq!(s.names(), ["n.md"], "no results written");
    }
}

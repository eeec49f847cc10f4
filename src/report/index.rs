//! `reports/README.md`: the project's main findings, one line each, the most important first.
//! Each line is a finding of one report's `## Summary`, picked and ordered in
//! `index.toml`; it keeps the number and interval that report's analysis computed from its runs,
//! and its link is pointed into that report. Nothing here computes a number.

use crate::error::{Error, Result};
use crate::template::Engine;
use serde::Deserialize;
use serde_json::json;
use std::path::Path;

/// One pick of index.toml: the report, and a phrase found in exactly one line of its summary.
#[derive(Debug, Deserialize)]
struct Pick {
    report: String,
    phrase: String,
}

#[derive(Debug, Deserialize)]
struct Index {
    finding: Vec<Pick>,
}

/// The summary lines (`- ...`) of a report's `## Summary` section.
fn summary_lines(markdown: &str) -> Vec<&str> {
    markdown
        .lines()
        .skip_while(|l| l.trim() != "## Summary")
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .filter_map(|l| l.strip_prefix("- "))
        .collect()
}

/// The one summary line of `report` holding `phrase`, its section links pointed into `report`.
fn pick(report: &str, markdown: &str, phrase: &str) -> Result<String> {
    let found: Vec<&str> = summary_lines(markdown).into_iter().filter(|l| l.contains(phrase)).collect();
    match found.as_slice() {
        // A line without a section link links to its report.
        [line] if line.contains("](#") => Ok(line.replace("](#", &format!("]({report}#"))),
        [line] => Ok(format!("{line} ([{report}]({report}))")),
        _ => Err(Error::Format {
            path: report.into(),
            message: format!("{} summary lines hold {phrase:?}, not one", found.len()),
        }),
    }
}

/// reports/README.md from the reports in `dir` (their rendered `## Summary` sections) and the
/// shipped model: the path it is named by (`model`, e.g. `models/kpk.hybrid`) and its size in bytes.
pub fn render(dir: &Path, model: &str, model_bytes: u64) -> Result<String> {
    let index: Index = toml::from_str(include_str!("index.toml"))
        .map_err(|e| Error::Format { path: "index.toml".into(), message: e.to_string() })?;
    let mut lines = Vec::new();
    for p in &index.finding {
        let path = dir.join(&p.report);
        let text = String::from_utf8(crate::io::read(&path)?)
            .map_err(|_| Error::Format { path: path.display().to_string(), message: "not UTF-8".into() })?;
        lines.push(json!({ "line": pick(&p.report, &text, &p.phrase)?, "report": p.report }));
    }
    Engine::new()
        .template("index", include_str!("templates/index.md.j2"))
        .and_then(|e| {
            e.render("index", &json!({ "findings": lines, "model": model, "model_bytes": model_bytes }))
        })
        .map_err(Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "# R\n\n## Summary\n\n- One: 1 % [0, 2]. ([A](#a))\n- Two: 2 %. ([B](#b))\n\nText.\n\n## A\n- not summary\n";

    #[test]
    fn a_pick_takes_one_summary_line_and_points_its_link_into_the_report() {
        assert_eq!(pick("R.md", REPORT, "One").unwrap(), "One: 1 % [0, 2]. ([A](R.md#a))");
        assert_eq!(pick("R.md", "## Summary\n\n- Three.\n", "Three").unwrap(), "Three. ([R.md](R.md))");
        assert!(pick("R.md", REPORT, "not summary").is_err());
        assert!(pick("R.md", REPORT, ": ").is_err());
    }

    #[test]
    fn the_committed_index_names_at_least_five_findings_each_found_once() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
        let index: Index = toml::from_str(include_str!("index.toml")).unwrap();
        assert!(index.finding.len() >= 5);
        let model = std::fs::metadata(dir.join("../models/kpk.hybrid")).unwrap().len();
        let readme = render(&dir, "models/kpk.hybrid", model).unwrap();
        assert_eq!(readme, String::from_utf8(std::fs::read(dir.join("README.md")).unwrap()).unwrap());
    }
}

//! The `## Summary` that opens a report: its main findings, one line each, with their
//! numbers, their interval and what the interval is over, and a link to the section that shows
//! them. A report's analysis computes its findings ([`Finding`]: the sentence as a template, the
//! numbers it gives) and keeps them with its results, so that a finding added later (another
//! analysis, another branch) is one more entry; rendering fills the sentences in
//! (`summary.md.j2`).

use crate::analysis::finding::Finding;
use crate::error::{Error, Result};
use crate::template::Engine;
use serde_json::json;

/// GitHub's anchor of a Markdown heading: lower case, spaces as hyphens, punctuation other than
/// hyphens and underscores dropped.
pub fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The summary section as Markdown; empty where there are no findings.
pub fn markdown(findings: &[Finding]) -> Result<String> {
    if findings.is_empty() {
        return Ok(String::new());
    }
    let lines = findings
        .iter()
        .map(|f| Ok(json!({ "sentence": f.sentence()?, "section": f.section, "anchor": anchor(&f.section) })))
        .collect::<Result<Vec<_>>>()?;
    Engine::new()
        .template("summary", include_str!("templates/summary.md.j2"))
        .and_then(|e| e.render("summary", &json!({ "findings": lines })))
        .map_err(Error::from)
}

/// Check that every finding's section is a heading of `markdown`, the report it opens, so that
/// no summary link points nowhere.
pub fn check_sections(findings: &[Finding], markdown: &str) -> Result<()> {
    let headings: Vec<&str> = markdown
        .lines()
        .filter(|l| l.starts_with('#'))
        .filter_map(|l| l.trim_start_matches('#').strip_prefix(' '))
        .collect();
    match findings.iter().find(|f| !headings.contains(&f.section.as_str())) {
        Some(f) => Err(Error::Internal(format!("summary: no section headed {:?}", f.section))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_follow_githubs_rule() {
        assert_eq!(anchor("Tables 2 and 3: kpk's count"), "tables-2-and-3-kpks-count");
        assert_eq!(anchor("Table 5, 95% intervals – ours"), "table-5-95-intervals--ours");
    }

    #[test]
    fn a_finding_gives_its_numbers_and_interval_and_links_its_section() {
        let f = Finding::new("{{ m }} [{{ lo }}, {{ hi }}] {{ over }}", "A b").value("m", 2.25).interval(
            1.0,
            3.5,
            "runs".into(),
        );
        assert_eq!(markdown(&[f]).unwrap(), "## Summary\n\n- 2.25 [1.0, 3.5] runs ([A b](#a-b))\n\n");
        assert!(markdown(&[]).unwrap().is_empty());
    }
}

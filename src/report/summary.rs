//! The `## Summary` that opens a report: its main findings, one line each, with their
//! numbers, their interval and what the interval is over, and a link to the section that shows
//! them. A report's analysis computes its findings ([`Finding`]: the name of the template that
//! words it, the numbers it gives) and keeps them with its results, so that a finding added later
//! (another analysis, another branch) is one more entry; rendering fills each finding's template
//! ([`FINDINGS`]) and lists the sentences (`summary.md.j2`).

use crate::analysis::finding::Finding;
use crate::error::{Error, Result};
use crate::template::Engine;
use serde_json::json;

/// (name, source) of the template of every finding of every report: its path under `templates/`,
/// the name a [`Finding`] gives.
pub const FINDINGS: [(&str, &str); 12] = [
    ("reproduction/findings/domain.md.j2", include_str!("templates/reproduction/findings/domain.md.j2")),
    ("reproduction/findings/small.md.j2", include_str!("templates/reproduction/findings/small.md.j2")),
    ("reproduction/findings/whole.md.j2", include_str!("templates/reproduction/findings/whole.md.j2")),
    ("reproduction/findings/table6.md.j2", include_str!("templates/reproduction/findings/table6.md.j2")),
    ("reproduction/findings/matched.md.j2", include_str!("templates/reproduction/findings/matched.md.j2")),
    (
        "reproduction/findings/continued.md.j2",
        include_str!("templates/reproduction/findings/continued.md.j2"),
    ),
    ("reproduction/findings/e2.md.j2", include_str!("templates/reproduction/findings/e2.md.j2")),
    (
        "reproduction/findings/test_lower.md.j2",
        include_str!("templates/reproduction/findings/test_lower.md.j2"),
    ),
    ("reproduction/findings/gap.md.j2", include_str!("templates/reproduction/findings/gap.md.j2")),
    ("compression/findings/model.md.j2", include_str!("templates/compression/findings/model.md.j2")),
    ("compression/findings/anchors.md.j2", include_str!("templates/compression/findings/anchors.md.j2")),
    ("compression/findings/frontier.md.j2", include_str!("templates/compression/findings/frontier.md.j2")),
];

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
    let engine =
        Engine::new().templates(&FINDINGS)?.template("summary", include_str!("templates/summary.md.j2"))?;
    let lines = findings
        .iter()
        .map(|f| {
            let sentence = engine.line(&f.template, &f.context())?;
            Ok(json!({ "sentence": sentence, "section": f.section, "anchor": anchor(&f.section) }))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(engine.render("summary", &json!({ "findings": lines }))?)
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
        let f = Finding::new("reproduction/findings/matched.md.j2", "A b")
            .value("mean", 2.5)
            .value("chance", 0.25)
            .interval(1.0, 3.5, "runs".into());
        let md = markdown(&[f]).unwrap();
        assert!(md.starts_with("## Summary\n\n- At matched accuracy"), "{md}");
        assert!(md.contains("), 2.5 [1.0, 3.5] (runs) of"), "{md}");
        assert!(md.ends_with("put 0.25. ([A b](#a-b))\n\n"), "{md}");
        assert!(markdown(&[]).unwrap().is_empty());
    }

    #[test]
    fn a_finding_names_a_template_the_summary_holds() {
        let f = Finding::new("reproduction/findings/nowhere.md.j2", "A b");
        assert!(markdown(&[f]).unwrap_err().to_string().contains("nowhere.md.j2"));
    }

    #[test]
    fn every_finding_template_under_templates_is_registered() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report/templates");
        for report in ["reproduction", "compression"] {
            for entry in std::fs::read_dir(dir.join(report).join("findings")).unwrap() {
                let name = format!("{report}/findings/{}", entry.unwrap().file_name().to_string_lossy());
                assert!(FINDINGS.iter().any(|(n, _)| *n == name), "{name} unregistered");
            }
        }
    }
}

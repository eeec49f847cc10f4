//! The `## Summary` that opens a report: its main findings, one line each, with their
//! numbers, their interval and what the interval is over, and a link to the section that shows
//! them. A report's analysis computes its findings ([`Finding`]: the sentence as a template, the
//! numbers it gives) and keeps them with its results, so that a finding added later (another
//! analysis, another branch) is one more entry; rendering fills the sentences in
//! (`summary.md.j2`).

use crate::error::{Error, Result};
use crate::template::{Engine, label};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;

/// One finding of a report's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The sentence: a minijinja template over `values` and, where the finding has an interval,
    /// `lo`, `hi` and `over` (with the shared filters of [`crate::template`]).
    pub text: String,
    /// The numbers the sentence gives, by name.
    pub values: BTreeMap<String, f64>,
    /// The words the sentence gives, by name (a verdict).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub words: BTreeMap<String, String>,
    /// The 95% interval of the finding's main number, where it has one.
    pub interval: Option<Bounds>,
    /// The heading of the section that shows the finding; the summary links to its anchor.
    pub section: String,
}

/// An interval's bounds and what it is over, e.g. "95% CI over 10 runs".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    pub lo: f64,
    pub hi: f64,
    pub over: String,
}

impl Finding {
    /// A finding worded by `text`, shown in the section headed `section`.
    pub fn new(text: &str, section: &str) -> Finding {
        Finding {
            text: text.into(),
            values: BTreeMap::new(),
            words: BTreeMap::new(),
            interval: None,
            section: section.into(),
        }
    }

    /// The number `name` of the sentence.
    pub fn value(mut self, name: &str, v: impl Into<f64>) -> Finding {
        self.values.insert(name.into(), v.into());
        self
    }

    /// The word `name` of the sentence.
    pub fn word(mut self, name: &str, w: impl Into<String>) -> Finding {
        self.words.insert(name.into(), w.into());
        self
    }

    /// The 95% interval of the main number, over what it is computed.
    pub fn interval(mut self, lo: f64, hi: f64, over: String) -> Finding {
        self.interval = Some(Bounds { lo, hi, over });
        self
    }

    /// The sentence with its numbers filled in.
    pub fn sentence(&self) -> Result<String> {
        let mut context = json!(self.values);
        for (name, w) in &self.words {
            context[name] = json!(w);
        }
        if let Some(b) = &self.interval {
            context["lo"] = json!(b.lo);
            context["hi"] = json!(b.hi);
            context["over"] = json!(b.over);
        }
        label(&self.text, &context)
    }
}

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

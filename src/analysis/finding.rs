//! A finding of a report's summary, as its analysis computes it: the template that words it, the
//! numbers and words it gives, its interval and the section that shows it. The analysis keeps its
//! findings with its results; [`crate::report::summary`] renders them as the `## Summary` that
//! opens the report.

use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;

/// One finding of a report's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The template that words the sentence, by its path under `src/report/templates/`
    /// (`reproduction/findings/domain.md.j2`): filled from [`Finding::context`] with the shared
    /// filters of [`crate::template`].
    pub template: String,
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
    /// A finding worded by the template `template`, shown in the section headed `section`.
    pub fn new(template: &str, section: &str) -> Finding {
        Finding {
            template: template.into(),
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

    /// What the sentence's template is filled from: `values` and `words` by name and, where the
    /// finding has an interval, `lo`, `hi` and `over`.
    pub fn context(&self) -> serde_json::Value {
        let mut context = json!(self.values);
        for (name, w) in &self.words {
            context[name] = json!(w);
        }
        if let Some(b) = &self.interval {
            context["lo"] = json!(b.lo);
            context["hi"] = json!(b.hi);
            context["over"] = json!(b.over);
        }
        context
    }
}

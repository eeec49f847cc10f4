//! Report prose lives in templates: a report's Markdown is a minijinja template (Jinja2 syntax:
//! loops over rows, conditionals, filters) filled from the report's typed, serde-serialisable
//! result. The Rust side computes numbers and derived facts (counts, verdict enums); the template
//! words them. Rendering is pure: same template and data, same bytes.
//! [`results_json`] and [`read_results`] are the one writer and reader of every report's committed
//! results JSON, the data a template is filled from.
//!
//! Templates run with strict undefined values (a misspelt field is an error, not an empty
//! string), trailing newlines kept, and Jinja's `trim_blocks`/`lstrip_blocks` so that `{% for %}`
//! lines leave no blank lines in tables.
//!
//! Filters shared by every report (a report adds its own with [`Engine::filter`]):
//! - `thousands`: an integer with comma thousands separators, `62480` -> `62,480`
//! - `count`: a number rounded to a whole one, with thousands separators, `81664.0` -> `81,664`
//! - `fixed(n)`: a number with `n` decimals, `fixed(1)` of `0.25` -> `0.2` (Rust's rounding)
//! - `signed(n)`: as `fixed(n)` with a sign always shown, `+0.3`, `-1.0`

use minijinja::{Environment, UndefinedBehavior, Value, value::ViaDeserialize};
use serde::Serialize;

/// A set of templates with kpk's filters. Add templates and report-specific filters, then
/// render by name.
pub struct Engine {
    env: Environment<'static>,
}

/// An error of a template: a bug in the report's template or its data, reported with the
/// template's name and line.
#[derive(Clone, Debug, thiserror::Error)]
#[error("template {name}: {message}")]
pub struct TemplateError {
    pub name: String,
    pub message: String,
}

impl From<TemplateError> for crate::error::Error {
    fn from(e: TemplateError) -> Self {
        crate::error::Error::Template { name: e.name, message: e.message }
    }
}

fn template_error(name: &str, e: &minijinja::Error) -> TemplateError {
    let mut message = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message.push_str(&format!(": {s}"));
        source = s.source();
    }
    TemplateError { name: name.to_string(), message }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with the shared filters and no templates.
    pub fn new() -> Engine {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_keep_trailing_newline(true);
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.add_filter("thousands", |v: i64| thousands(v));
        env.add_filter("count", |v: f64| thousands(v.round() as i64));
        env.add_filter("fixed", |v: f64, n: usize| format!("{v:.n$}"));
        env.add_filter("signed", |v: f64, n: usize| format!("{v:+.n$}"));
        Engine { env }
    }

    /// Add a template under `name` (its source is `'static`, from `include_str!`).
    pub fn template(mut self, name: &'static str, source: &'static str) -> Result<Engine, TemplateError> {
        self.env.add_template(name, source).map_err(|e| template_error(name, &e))?;
        Ok(self)
    }

    /// Add every template of `list`, (name, source) pairs.
    pub fn templates(mut self, list: &[(&'static str, &'static str)]) -> Result<Engine, TemplateError> {
        for (name, source) in list {
            self = self.template(name, source)?;
        }
        Ok(self)
    }

    /// Add a filter of one report, e.g. a percentage written as that report writes it.
    pub fn filter<F, Rv, Args>(mut self, name: &'static str, f: F) -> Engine
    where
        F: minijinja::functions::Function<Rv, Args>,
        Rv: minijinja::value::FunctionResult,
        Args: for<'a> minijinja::value::FunctionArgs<'a>,
    {
        self.env.add_filter(name, f);
        self
    }

    /// Add a test of one report (`is name` in a template, or `selectattr(.., "name")`).
    pub fn test<F, Rv, Args>(mut self, name: &'static str, f: F) -> Engine
    where
        F: minijinja::functions::Function<Rv, Args>,
        Rv: minijinja::value::FunctionResult,
        Args: for<'a> minijinja::value::FunctionArgs<'a>,
    {
        self.env.add_test(name, f);
        self
    }

    /// Render the template `name` from `context`.
    pub fn render(&self, name: &str, context: &impl Serialize) -> Result<String, TemplateError> {
        let template = self.env.get_template(name).map_err(|e| template_error(name, &e))?;
        template.render(Value::from_serialize(context)).map_err(|e| template_error(name, &e))
    }

    /// Render the one-line template `name` (a finding's sentence, a figure's label or caption)
    /// from `context`: the line without the newline that ends its file.
    pub fn line(&self, name: &str, context: &impl Serialize) -> Result<String, TemplateError> {
        let text = self.render(name, context)?;
        Ok(text.strip_suffix('\n').map(str::to_string).unwrap_or(text))
    }
}

/// Render one template source from `context` with the shared filters: for a report with a
/// single template and no filters of its own.
pub fn render_one(
    name: &'static str,
    source: &'static str,
    context: &impl Serialize,
) -> Result<String, TemplateError> {
    Engine::new().template(name, source)?.render(name, context)
}

/// Render the one-line template `name` of `list`, (name, source) pairs, from `context` with the
/// shared filters: for a report's few figure labels ([`Engine::line`]).
pub fn line(
    list: &[(&'static str, &'static str)],
    name: &str,
    context: &impl Serialize,
) -> crate::error::Result<String> {
    Ok(Engine::new().templates(list)?.line(name, context)?)
}

/// Take a filter argument back as a typed value (a row struct, say) for filters written in Rust.
pub type Typed<T> = ViaDeserialize<T>;

/// `62480` -> `62,480`; negative numbers keep their sign before the digits.
pub fn thousands(v: i64) -> String {
    let digits = v.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if v < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A report's results as committed JSON (`reports/<report>.json`): pretty-printed, fields in
/// declaration order, floats written so that they read back to the same bits, a final newline.
pub fn results_json(results: &impl Serialize) -> crate::error::Result<String> {
    let text = serde_json::to_string_pretty(results)
        .map_err(|e| crate::error::Error::Model(format!("results not writable as JSON: {e}")))?;
    Ok(text + "\n")
}

/// A report's results read back from its committed JSON, for `--render-only`.
pub fn read_results<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> crate::error::Result<T> {
    let bytes = crate::io::read(path)?;
    serde_json::from_slice(&bytes)
        .map_err(|e| crate::error::Error::Format { path: path.display().to_string(), message: e.to_string() })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shared_filters_write_numbers_as_reports_do() {
        #[derive(serde::Serialize)]
        struct Row {
            n: i64,
            x: f64,
        }
        let rows = [Row { n: 62480, x: 0.25 }, Row { n: -1234567, x: -1.0 }];
        let text = super::render_one(
            "t",
            "{% for r in rows %}\n{{ r.n | thousands }} {{ r.x | fixed(1) }} {{ r.x | signed(2) }}\n{% endfor %}\n",
            &serde_json::json!({ "rows": rows }),
        )
        .unwrap();
        assert_eq!(text, "62,480 0.2 +0.25\n-1,234,567 -1.0 -1.00\n");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(1000), "1,000");
    }

    #[test]
    fn a_line_is_its_file_without_the_final_newline() {
        let engine = super::Engine::new().templates(&[("a", "{{ n | thousands }} B\n"), ("b", "x")]).unwrap();
        assert_eq!(engine.line("a", &serde_json::json!({ "n": 1234 })).unwrap(), "1,234 B");
        assert_eq!(engine.line("b", &serde_json::json!({})).unwrap(), "x");
        assert!(engine.line("c", &serde_json::json!({})).is_err());
    }

    #[test]
    fn a_misspelt_field_is_an_error_not_an_empty_string() {
        let e = super::render_one("t", "{{ missing }}", &serde_json::json!({})).unwrap_err();
        assert!(e.to_string().starts_with("template t:"), "{e}");
    }
}

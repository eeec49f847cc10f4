//! Markdown templates: a report's prose lives in a `.md` file beside its code (`include_str!`),
//! with `{{name}}` where a computed value goes.

/// Fill `template`'s `{{name}}` placeholders from `values`. Every placeholder must have a value
/// and every value a placeholder; a mismatch is a bug in the report's code, caught by its tests.
pub fn fill(template: &str, values: &[(&str, String)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        let key = format!("{{{{{name}}}}}");
        assert!(out.contains(&key), "the template has no {key}");
        out = out.replace(&key, value);
    }
    assert!(!out.contains("{{"), "a placeholder of the template has no value");
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_are_filled() {
        assert_eq!(
            super::fill("a {{x}} b {{y}} {{x}}", &[("x", "1".into()), ("y", "2".into())]),
            "a 1 b 2 1"
        );
    }

    #[test]
    #[should_panic(expected = "has no value")]
    fn a_missing_value_is_caught() {
        super::fill("{{x}} {{y}}", &[("x", "1".into())]);
    }
}

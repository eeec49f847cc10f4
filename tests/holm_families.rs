//! Every Holm family in the committed reports is consistent: wherever a contrast record carries an
//! adjusted p-value, it is at least the raw p it adjusts (Holm multiplies a p by the number of
//! hypotheses left and takes running maxima, so it can only raise a p), and likewise for an
//! adjusted TOST p. A contrast whose stored `p` is not the p its verdict reads would break this.

use serde_json::Value;
use std::path::Path;

/// (where, raw p, adjusted p) for every object in `value` holding both a numeric `p` and a
/// numeric `p_adjusted`, and likewise `p_tost`, `p_beyond` (the minimal-effect test) and `p_zero`
/// with their adjusted values.
fn adjusted_pairs(value: &Value, path: &str, out: &mut Vec<(String, f64, f64)>) {
    match value {
        Value::Object(map) => {
            for (raw, adjusted) in [
                ("p", "p_adjusted"),
                ("p_tost", "p_tost_adjusted"),
                ("p_beyond", "p_beyond_adjusted"),
                ("p_zero", "p_zero_adjusted"),
            ] {
                if let (Some(p), Some(q)) =
                    (map.get(raw).and_then(Value::as_f64), map.get(adjusted).and_then(Value::as_f64))
                {
                    out.push((format!("{path} ({raw})"), p, q));
                }
            }
            for (k, v) in map {
                adjusted_pairs(v, &format!("{path}.{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                adjusted_pairs(v, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_adjusted_p_in_the_reports_is_at_least_its_raw_p() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    // The reports whose primaries are Holm families, with how many adjusted readings each holds
    // at least (so that a renamed field cannot make the check vacuous).
    for (file, at_least) in [
        ("section51.json", 10),
        ("reproduction.json", 10),
        ("studies.json", 40),
        ("learners.json", 31),
        ("learners_tuned.json", 96),
    ] {
        let path = reports.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut pairs = Vec::new();
        adjusted_pairs(&json, "", &mut pairs);
        assert!(pairs.len() >= at_least, "{file}: {} adjusted p-values, expected {at_least}", pairs.len());
        for (place, p, adjusted) in pairs {
            assert!(adjusted >= p, "{file}{place}: adjusted p {adjusted} below its raw p {p}");
        }
    }
}

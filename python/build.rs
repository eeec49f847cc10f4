//! Copies the committed per-draw rows of section 7's comparison (`reports/learners/draws.csv`)
//! into the build, or an empty file where the comparison has not written them; and the commit
//! that declared its design (`declared_in` of `reports/learners.json`), or an empty file.

fn main() {
    let source = std::path::Path::new("../reports/learners/draws.csv");
    println!("cargo::rerun-if-changed={}", source.display());
    let out =
        std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("draws.csv");
    let rows = std::fs::read(source).unwrap_or_default();
    std::fs::write(out, rows).expect("OUT_DIR is writable");
    let results = std::path::Path::new("../reports/learners.json");
    println!("cargo::rerun-if-changed={}", results.display());
    let json = std::fs::read_to_string(results).unwrap_or_default();
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("declared_in.txt");
    std::fs::write(out, declared_in(&json)).expect("OUT_DIR is writable");
}

/// The value of the top-level key `"declared_in"` (a commit's 40 hex digits), or "" where the
/// file holds none.
fn declared_in(json: &str) -> String {
    let key = "\"declared_in\"";
    let Some(at) = json.find(key) else { return String::new() };
    let rest = json[at + key.len()..].trim_start().trim_start_matches(':').trim_start();
    let value: String = rest.strip_prefix('"').unwrap_or("").chars().take_while(|c| *c != '"').collect();
    if value.len() == 40 && value.chars().all(|c| c.is_ascii_hexdigit()) { value } else { String::new() }
}

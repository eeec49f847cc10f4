//! Copies the committed per-draw rows of section 7's comparison (`reports/learners/draws.csv`)
//! into the build, or an empty file where the comparison has not written them.

fn main() {
    let source = std::path::Path::new("../reports/learners/draws.csv");
    println!("cargo::rerun-if-changed={}", source.display());
    let out =
        std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("draws.csv");
    let rows = std::fs::read(source).unwrap_or_default();
    std::fs::write(out, rows).expect("OUT_DIR is writable");
}

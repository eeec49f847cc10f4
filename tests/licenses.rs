//! The licence kpk declares is the licence it ships: every crate's Cargo.toml and the Python
//! package's pyproject.toml say "MIT OR Apache-2.0", and the root holds both texts.

use std::path::Path;

const DECLARED: &str = "MIT OR Apache-2.0";

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_manifest_declares_mit_or_apache_and_the_root_holds_both_texts() {
    for manifest in [
        "Cargo.toml",
        "kpk-probe/Cargo.toml",
        "kpk-probe-c/Cargo.toml",
        "kpk-probe-footprint/Cargo.toml",
        "python/Cargo.toml",
    ] {
        assert!(read(manifest).contains(&format!("license = \"{DECLARED}\"")), "{manifest}");
    }
    assert!(read("python/pyproject.toml").contains(&format!("license = {{ text = \"{DECLARED}\" }}")));
    let mit = read("LICENSE-MIT");
    assert!(mit.starts_with("MIT License\n") && mit.contains("Permission is hereby granted, free of charge"));
    let apache = read("LICENSE-APACHE");
    assert!(apache.contains("Apache License") && apache.contains("Version 2.0, January 2004"));
    assert!(apache.contains("END OF TERMS AND CONDITIONS"));
    let citation = read("CITATION.cff");
    assert!(citation.contains("- MIT\n") && citation.contains("- Apache-2.0\n"));
}

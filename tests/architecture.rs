//! docs/ARCHITECTURE.md names every stage: each top-level module of src/lib.rs appears on the page
//! as `name`, so a stage added to the crate without its place on the map fails here.

use std::path::Path;

#[test]
fn every_stage_of_the_crate_is_on_the_architecture_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let page = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let stages: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .filter_map(|l| l.strip_suffix(';'))
        .collect();
    assert!(stages.len() >= 15, "read {} stages from src/lib.rs: {stages:?}", stages.len());
    let missing: Vec<&&str> = stages.iter().filter(|s| !page.contains(&format!("`{s}`"))).collect();
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md does not name these modules of src/lib.rs: {missing:?}"
    );
    // The binary's stage too.
    assert!(page.contains("`cli`"), "docs/ARCHITECTURE.md does not name the binary's stage `cli`");
}

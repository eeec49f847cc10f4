//! docs/ARCHITECTURE.md names every stage: each top-level module of src/lib.rs appears on the page
//! as `name`, so a stage added to the crate without its place on the map fails here. And every
//! template is a file under src/report/templates, as the page's "new report" paragraph says.

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

/// Every file under `dir`, recursively.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Every template is a file under src/report/templates, named after what it renders (`.md.j2`,
/// `.svg.j2`, `.txt.j2`) and included by the code that registers it; no TOML file of src/ holds
/// a template (a `{{ }}` or `{% %}`).
#[test]
fn every_template_is_a_named_file_under_report_templates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("src/report/templates");
    let sources: Vec<(std::path::PathBuf, String)> = files(&root.join("src"))
        .into_iter()
        .map(|p| (p.clone(), std::fs::read_to_string(p).unwrap()))
        .collect();
    let code: String =
        sources.iter().filter(|(p, _)| p.extension() == Some("rs".as_ref())).map(|s| s.1.as_str()).collect();
    let templates = files(&dir);
    assert!(templates.len() >= 60, "{} templates", templates.len());
    for t in templates {
        let name = t.strip_prefix(&dir).unwrap().to_string_lossy().into_owned();
        assert!([".md.j2", ".svg.j2", ".txt.j2"].iter().any(|e| name.ends_with(e)), "{name}: misnamed");
        assert!(code.contains(&format!("templates/{name}\")")), "{name} unregistered");
    }
    for (path, text) in sources.iter().filter(|(p, _)| p.extension() == Some("toml".as_ref())) {
        assert!(!text.contains("{{") && !text.contains("{%"), "{}: templated", path.display());
    }
}

//! The size/accuracy frontier's data: the committed rows are the committed config's nets, and
//! rows for other nets are refused rather than reported.

use kpk::analysis::compression::earlier_frontier;
use kpk::hybrid::compress::CompressConfig;
use kpk::hybrid::frontier::{read_csv, write_csv};
use std::path::Path;

fn committed_config() -> CompressConfig {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    toml::from_str(&std::fs::read_to_string(root.join("experiments/compress.toml")).unwrap()).unwrap()
}

#[test]
fn the_committed_frontier_data_is_the_committed_configs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cfg = committed_config();
    let rows = earlier_frontier(&cfg, &root.join("reports/compression-frontier.csv")).unwrap().unwrap();
    let spec = cfg.frontier.as_ref().unwrap();
    assert_eq!(rows.len(), spec.seeds.len() * spec.hidden.len());
    for r in &rows {
        // The exact hybrid's parts add up, and its exceptions are the integer net's errors.
        assert!(
            r.net_bytes + r.exception_bytes < r.total_bytes
                && r.total_bytes < r.net_bytes + r.exception_bytes + 40
        );
        // Same net and header: the totals differ by the exception tables (the net's last bits and
        // the table's first share a byte, so by up to one byte more).
        let (plain, searched) =
            (r.total_bytes - r.exception_bytes, r.search_total_bytes - r.search_exception_bytes);
        assert!(plain.abs_diff(searched) <= 1, "{r:?}");
    }
}

#[test]
fn rows_for_other_nets_are_refused() {
    let dir = std::env::temp_dir().join(format!("kpk-frontier-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut rows = read_csv(&root.join("reports/compression-frontier.csv")).unwrap();
    let path = dir.join("compression-frontier.csv");
    write_csv(&path, &rows).unwrap();
    assert_eq!(read_csv(&path).unwrap(), rows, "rows read back as written");
    rows[0].seed += 100;
    std::fs::remove_file(&path).unwrap();
    write_csv(&path, &rows).unwrap();
    let e = earlier_frontier(&committed_config(), &path).unwrap_err().to_string();
    assert!(e.contains("kpk compress --frontier"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

//! Test support shared by the unit tests and `tests/`: a scratch folder removed, with everything
//! in it, on drop. Not part of kpk's API.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A fresh, empty folder under the system's temporary folder, unique to this process and call.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("kpk-scratch-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }

    /// The names in the folder, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .expect("a readable scratch folder")
            .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Damaged copies of a file's bytes, each named by what was done to it, for the tests that a
/// loader refuses every one: for each offset in `at`, the byte there xor-ed with each of `masks`
/// and the file cut to that length; and the file with one byte appended.
pub fn corruptions(bytes: &[u8], at: &[usize], masks: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for &i in at.iter().filter(|&&i| i < bytes.len()) {
        for &mask in masks {
            let mut b = bytes.to_vec();
            b[i] ^= mask;
            out.push((format!("byte {i} xor {mask:#04x}"), b));
        }
        out.push((format!("cut to {i} bytes"), bytes[..i].to_vec()));
    }
    let mut longer = bytes.to_vec();
    longer.push(0);
    out.push(("one byte appended".into(), longer));
    out
}

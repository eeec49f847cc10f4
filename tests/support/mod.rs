//! Support shared by the integration tests: scratch folders removed on drop, and running the
//! `kpk` binary.
#![allow(dead_code)] // each test file uses its own part

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub use kpk::scratch::Scratch;

/// Every entry below `dir` (relative paths, sorted, folders marked with a trailing `/`) with the
/// bytes of each file: a listing to compare before and after a command.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let path = e.path();
            let rel = path.strip_prefix(root).expect("below root").display().to_string();
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).expect("a link");
                out.push((format!("{rel} -> {}", target.display()), Vec::new()));
            } else if meta.is_dir() {
                out.push((format!("{rel}/"), Vec::new()));
                walk(root, &path, out);
            } else {
                out.push((rel, std::fs::read(&path).unwrap_or_default()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Run `kpk` with `args` in the folder `cwd`.
pub fn kpk_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kpk")).current_dir(cwd).args(args).output().expect("run kpk")
}

/// Run `kpk` with `args` in the folder `cwd`, `input` on its standard input (written from a
/// thread, so that a long input never waits on a full output pipe); standard error is inherited.
pub fn kpk_with_input(cwd: &Path, args: &[&str], input: String) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .current_dir(cwd)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run kpk");
    let mut stdin = child.stdin.take().expect("a pipe to kpk");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("kpk ran");
    writer.join().expect("the writer thread").expect("kpk read its standard input");
    out
}

//! `kpk features` and `kpk dataset` from the outside: the documented output, and bad input gets
//! one clear line and a non-zero exit.

use std::process::Command;

fn kpk(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kpk")).args(args).output().expect("run kpk");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn one_error_line(stderr: &str, want: &str) {
    assert_eq!(stderr.lines().count(), 1, "one line, got {stderr:?}");
    assert!(stderr.starts_with("kpk: error: ") && stderr.contains(want), "want {want:?} in {stderr:?}");
}

#[test]
fn features_prints_the_32_rows_of_table_4() {
    // Table 1, set 3, given with a black pawn on the f-file: it is canonicalised first.
    let (code, stdout, stderr) = kpk(&["features", "4k3/8/5p2/8/8/8/8/2K5 b - - 0 1"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("canonical (White pawn on files a-d): 5k2/8/8/8/8/2P5/8/3K4 w - - 0 1"));
    let rows: Vec<&str> = stdout.lines().filter(|l| l.trim_start().starts_with('x')).skip(1).collect();
    assert_eq!(rows.len(), 32, "{stdout}");
    // x31 = d(bK, c8) - m(P) = 3 - 5.
    let x31: Vec<&str> = rows[30].split_whitespace().collect();
    assert_eq!((x31[0], x31[1], x31[2], x31[4]), ("x31", "c42", "4", "-2"));
}

#[test]
fn features_with_a_coding_prints_its_inputs() {
    let (code, stdout, _) = kpk(&["features", "5k2/8/8/8/8/2P5/8/3K4 w", "--coding", "binary"]);
    assert_eq!(code, 0);
    let line = stdout.lines().find(|l| l.contains("binary inputs (92):")).expect("the inputs line");
    assert_eq!(line.split(':').nth(1).unwrap().split_whitespace().count(), 92);
}

#[test]
fn a_bad_fen_gets_one_line_and_does_not_stop_the_others() {
    let (code, stdout, stderr) = kpk(&["features", "8/8/8/8/8/8/P3k3/4K3 w", "5k2/8/8/8/8/2P5/8/3K4 w"]);
    // The README's contract: 1 when some inputs of a batch were rejected and the rest answered.
    assert_eq!(code, 1);
    one_error_line(&stderr, "kings on adjacent squares e1 and e2");
    assert!(stdout.contains("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1"));
}

#[test]
fn dataset_writes_the_documented_csv() {
    let dir = std::env::temp_dir().join(format!("kpk-cli-dataset-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c9.csv");
    let out = path.to_str().unwrap();
    let (code, stdout, stderr) =
        kpk(&["dataset", "--set", "wtm", "--file", "a", "--max-dtc", "9", "--out", out]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("wtm[file=a,dtc<=9]: "), "{stdout}");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header.len(), 38);
    assert_eq!((header[0], header[4], header[35], header[37]), ("side", "x1", "x32", "dtc"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!((r[0], r[8], r[36]), ("w", "1", "win"), "{r:?}"); // x5 = 1: the a-file
        assert!(r[3].starts_with('a'));
        assert!(r[37].parse::<u8>().unwrap() <= 9);
    }
    assert!(stdout.contains(&format!("{} positions", rows.len())));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dataset_errors_are_one_clear_line() {
    let (code, _, stderr) = kpk(&["dataset", "--set", "T9", "--out", "/tmp/never-written.csv"]);
    assert_eq!(code, 2);
    one_error_line(&stderr, "unknown set 'T9'; allowed: T1, S1, T2, S2, T3, T4, T5, wtm, btm, all");
    // Missing folders are created, but not below a file.
    let (code, _, stderr) = kpk(&["dataset", "--set", "T1", "--out", "/dev/null/t1.csv"]);
    assert_eq!(code, 2);
    one_error_line(&stderr, "/dev/null/t1.csv: cannot be written: /dev/null is not a folder");
    // Usage errors are clap's: non-zero, and they say what is wrong.
    let (code, _, stderr) = kpk(&["dataset", "--set", "all", "--file", "g", "--out", "x.csv"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("file g mirrors to file b"), "{stderr}");
}

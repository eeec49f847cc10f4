use super::*;
use crate::scratch::Scratch;

const KIND: RunFolderKind = RunFolderKind { entries: &["a.txt", "b.txt", "mark"], is_ours: has_mark };

fn has_mark(dir: &Path, name: &str) -> bool {
    std::fs::read_to_string(dir.join("mark")).is_ok_and(|m| m == name)
}

fn fill_run(text: &'static [u8]) -> impl FnOnce(&Path) -> Result<()> {
    move |d| {
        write_file(&d.join("mark"), b"run")?;
        write_file(&d.join("a.txt"), text)
    }
}

#[test]
fn a_regular_file_is_replaced_atomically_and_no_temporary_stays() {
    let s = Scratch::new("file");
    let path = s.join("out.bin");
    write_file(&path, b"hello").unwrap();
    write_file(&path, b"again").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"again");
    assert_eq!(s.names(), ["out.bin"]);
    // A failing writer leaves the old file and no temporary behind.
    assert!(write_file_with(&path, |_| Err(std::io::Error::other("boom"))).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), b"again");
    assert_eq!(s.names(), ["out.bin"]);
}

#[test]
fn missing_folders_are_created_but_a_file_on_the_way_is_an_error() {
    let s = Scratch::new("parents");
    let path = s.join("a/b/out.txt");
    let out = FileOut::check(&path).unwrap();
    assert!(s.names().is_empty(), "the check creates nothing");
    out.write(b"x").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"x");
    std::fs::write(s.join("plain"), b"p").unwrap();
    let e = FileOut::check(&s.join("plain/c/out.txt")).unwrap_err().to_string();
    let folder = s.join("plain").display().to_string();
    assert!(e.ends_with(&format!("cannot be written: {folder} is not a folder")), "{e}");
}

#[test]
fn a_replaced_file_keeps_its_mode_and_a_hard_linked_one_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("mode");
    let path = s.join("secret.txt");
    std::fs::write(&path, b"old").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    write_file(&path, b"new").unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    std::fs::hard_link(&path, s.join("twin.txt")).unwrap();
    let e = write_file(&path, b"newer").unwrap_err().to_string();
    assert!(e.contains("has 2 hard links"), "{e}");
    assert_eq!(std::fs::read(s.join("twin.txt")).unwrap(), b"new");
}

#[test]
fn two_outputs_naming_one_file_are_refused() {
    let s = Scratch::new("distinct");
    std::fs::write(s.join("t.bin"), b"t").unwrap();
    std::os::unix::fs::symlink("t.bin", s.join("l.bin")).unwrap();
    let [a, b, c] = ["t.bin", "l.bin", "u.bin"].map(|n| FileOut::check(&s.join(n)).unwrap());
    assert!(distinct(&[&a, &b]).unwrap_err().to_string().contains("named by two outputs"));
    assert!(distinct(&[&a, &a]).is_err());
    distinct(&[&a, &c]).unwrap();
    distinct(&[&FileOut::Stdout, &c]).unwrap();
    assert!(distinct(&[&FileOut::Stdout, &FileOut::Stdout]).is_err());
}

#[test]
fn a_symlink_is_written_through_and_stays_a_symlink() {
    let s = Scratch::new("link");
    let target = s.join("target.txt");
    std::fs::write(&target, b"old").unwrap();
    let link = s.join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    write_file(&link, b"new").unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"new");
    assert_eq!(s.names(), ["link.txt", "target.txt"]);
}

#[test]
fn a_dangling_symlink_and_a_folder_are_refused() {
    let s = Scratch::new("refused");
    let link = s.join("dangling");
    std::os::unix::fs::symlink(s.join("nowhere"), &link).unwrap();
    let e = FileOut::check(&link).unwrap_err().to_string();
    assert!(e.contains("symlink to nothing"), "{e}");
    let dir = s.join("dir");
    std::fs::create_dir(&dir).unwrap();
    let e = write_file(&dir, b"x").unwrap_err().to_string();
    assert!(e.contains("is a folder"), "{e}");
    assert_eq!(s.names(), ["dangling", "dir"]);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn a_fifo_is_written_to_directly() {
    let s = Scratch::new("fifo");
    let fifo = s.join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path and a mode.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(&fifo).unwrap())
    };
    let out = FileOut::check(&fifo).unwrap();
    assert!(matches!(out, FileOut::Stream { .. }));
    out.write(b"through the pipe").unwrap();
    assert_eq!(reader.join().unwrap(), b"through the pipe");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_dash_means_standard_output() {
    assert_eq!(FileOut::check(Path::new("-")).unwrap(), FileOut::Stdout);
}

#[test]
fn a_run_folder_is_replaced_all_or_nothing() {
    let s = Scratch::new("run");
    let folder = RunFolder::check(s.path(), "run", &KIND).unwrap();
    folder.write(&KIND, fill_run(b"first")).unwrap();
    assert_eq!(std::fs::read(s.join("run/a.txt")).unwrap(), b"first");
    // A failing run leaves the previous folder untouched and nothing else behind.
    let failed = folder.write(&KIND, |d| {
        fill_run(b"second")(d)?;
        Err(Error::Internal("boom".into()))
    });
    assert!(failed.is_err());
    assert_eq!(std::fs::read(s.join("run/a.txt")).unwrap(), b"first");
    assert_eq!(s.names(), ["run"]);
    // A successful run replaces it wholly: no file of the old run survives.
    folder
        .write(&KIND, |d| {
            write_file(&d.join("mark"), b"run")?;
            write_file(&d.join("b.txt"), b"third")
        })
        .unwrap();
    assert!(!s.join("run/a.txt").exists());
    assert_eq!(s.names(), ["run"]);
}

#[test]
fn anything_but_a_kpk_run_folder_of_the_name_is_refused_untouched() {
    let s = Scratch::new("foreign");
    // A foreign file, a folder with a foreign entry, a folder of another run, a symlink.
    std::fs::write(s.join("file"), b"mine").unwrap();
    std::fs::create_dir(s.join("src")).unwrap();
    std::fs::write(s.join("src/main.rs"), b"fn main() {}").unwrap();
    std::fs::create_dir(s.join("other")).unwrap();
    std::fs::write(s.join("other/mark"), b"someone else").unwrap();
    std::os::unix::fs::symlink(s.join("src"), s.join("link")).unwrap();
    for (name, says) in [
        ("file", "not a folder"),
        ("src", "holds 'main.rs', which this command does not write"),
        ("other", "is not a kpk run folder named 'other'"),
        ("link", "is a symlink"),
    ] {
        let e = RunFolder::check(s.path(), name, &KIND).unwrap_err().to_string();
        assert!(e.contains(says), "{name}: {e}");
        assert!(e.contains(&s.join(name).display().to_string()), "{name}: {e}");
    }
    assert_eq!(std::fs::read(s.join("src/main.rs")).unwrap(), b"fn main() {}");
    assert_eq!(std::fs::read(s.join("file")).unwrap(), b"mine");
    assert_eq!(s.names(), ["file", "link", "other", "src"]);
    // An empty folder holds nothing to lose.
    std::fs::create_dir(s.join("empty")).unwrap();
    RunFolder::check(s.path(), "empty", &KIND).unwrap().write(&KIND, fill_run(b"x")).unwrap();
}

#[test]
fn stale_temporaries_of_dead_processes_are_swept_and_live_ones_removed_on_request() {
    let s = Scratch::new("sweep");
    // No process has pid 2^22 (above Linux's pid_max limit).
    let stale = s.join(format!(".out.txt{TMP_MARK}4194305-0"));
    std::fs::create_dir(&stale).unwrap();
    let mine = s.join(format!(".x{TMP_MARK}{}-77", std::process::id()));
    std::fs::write(&mine, b"").unwrap();
    write_file(&s.join("out.txt"), b"x").unwrap();
    assert!(!stale.exists());
    assert!(mine.exists(), "a live process's temporary is not swept");
    std::fs::remove_file(&mine).unwrap();
    let (live, mut file) = Temporary::file(&s.join("y"), "").unwrap();
    file.write_all(b"partial").unwrap();
    remove_live(s.path());
    assert!(!live.0.exists());
    assert_eq!(s.names(), ["out.txt"]);
}

#[test]
fn an_unwritable_place_fails_the_check_before_any_work() {
    let s = Scratch::new("unwritable");
    std::fs::write(s.join("plain"), b"x").unwrap();
    let e = FileOut::check(&s.join("plain/out.csv")).unwrap_err().to_string();
    assert!(e.contains("is not a folder"), "{e}");
    let e = FileOut::check_in_own_folder(&s.join("plain/below/out.csv")).unwrap_err().to_string();
    assert!(e.contains("is not a folder"), "{e}");
    assert_eq!(s.names(), ["plain"]);
}

#[test]
fn a_csv_text_writer_error_is_an_io_error_of_its_file() {
    let text = csv_text("t.csv", |w| w.write_record(["a", "b"])).unwrap();
    assert_eq!(text, "a,b\n");
    // Rows of unequal length: the writer refuses the second.
    let e =
        csv_text("t.csv", |w| w.write_record(["a"]).and_then(|()| w.write_record(["a", "b"]))).unwrap_err();
    assert!(matches!(&e, Error::Io { path, .. } if path == "t.csv"), "{e:?}");
}

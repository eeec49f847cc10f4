//! Where kpk writes, and what it may replace: the one output policy of every command.
//!
//! | what is at the path          | what kpk does                                                  |
//! |------------------------------|----------------------------------------------------------------|
//! | nothing                      | creates the file, and the folders on its path that are missing |
//! | a regular file               | replaces it atomically: temporary file beside it, then rename; |
//! |                              | the new file keeps the old one's permission bits               |
//! | a file with other hard links | error: replacing it would split the links; nothing is touched  |
//! | a symlink                    | writes through to its target by the rules of this table; the   |
//! |                              | link itself is never replaced (a dangling link is an error)    |
//! | a FIFO or character device   | writes to it directly (`/dev/stdout`, a named pipe)            |
//! | `-` (single-file outputs)    | writes to standard output                                      |
//! | a folder, block device, …    | error: nothing is touched                                      |
//!
//! A *run folder* (one trial's `reports/<name>/`, an export's folder) is replaced only when it
//! is recognisably a kpk run folder of the same kind ([`RunFolder::check`]); anything else at its
//! path is an error. Two outputs of one command may not name the same file ([`distinct`]), an output
//! may not be one of the command's inputs ([`apart_from_inputs`]), nor lie inside a folder of figures
//! the command writes ([`outside_folder`]); [`check_all`] applies the first two.
//!
//! Every destination is checked before the long work starts ([`FileOut::check`],
//! [`RunFolder::check`]): the check finds the folder the file will land in and creates and removes
//! a probe file there, so an unwritable destination fails in milliseconds, not after training.
//!
//! Temporary entries are named `.<name>.kpk-tmp-<pid>-<n>` beside their destination. They are
//! registered while they exist, and SIGINT or SIGTERM removes them all ([`interrupt`]: every step
//! that makes an entry appear on disk, and the signal's removal, hold one lock, so an interrupt
//! leaves each destination as it was or whole, and no temporary). Entries left by a process that
//! no longer runs (killed by SIGKILL, or by a power cut) are removed by the next write into the
//! same folder ([`sweep_stale`]). Error messages always name the destination, never a temporary
//! name.

use crate::error::{Error, Result};
use std::fs::Metadata;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The marker in every temporary name.
const TMP_MARK: &str = ".kpk-tmp-";

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn out_err(path: &Path, reason: impl Into<String>) -> Error {
    Error::Output { path: path.display().to_string(), reason: reason.into() }
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |cause| Error::Io { path: path.display().to_string(), cause }
}

/// A temporary entry beside `dest` (same folder, so a rename is atomic), created and registered
/// in one step ([`interrupt::create`]) and removed when dropped.
struct Temporary(PathBuf);

impl Temporary {
    /// A fresh temporary name beside `dest`, not yet on disk.
    fn name_beside(dest: &Path, suffix: &str) -> PathBuf {
        let dir = parent_of(dest);
        let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        dir.join(format!(".{name}{TMP_MARK}{}-{n}{suffix}", std::process::id()))
    }

    /// A new empty file beside `dest`, open for writing.
    fn file(dest: &Path, suffix: &str) -> std::io::Result<(Temporary, std::fs::File)> {
        let path = Temporary::name_beside(dest, suffix);
        let file = interrupt::create(&path, |p| std::fs::File::create_new(p))?;
        Ok((Temporary(path), file))
    }

    /// A new empty folder beside `dest`.
    fn folder(dest: &Path) -> std::io::Result<Temporary> {
        let path = Temporary::name_beside(dest, "");
        interrupt::create(&path, |p| std::fs::create_dir(p))?;
        Ok(Temporary(path))
    }

    /// Rename the temporary to `dest`, under the lock of [`interrupt`].
    fn rename_to(&self, dest: &Path) -> std::io::Result<()> {
        interrupt::locked(|| std::fs::rename(&self.0, dest))
    }
}

impl Drop for Temporary {
    /// Whatever is still at the temporary path was not renamed into place: remove it.
    fn drop(&mut self) {
        interrupt::remove(&self.0);
    }
}

/// Create the folder `dir` (and the missing folders above it) under the lock of [`interrupt`]: a
/// folder of an output a command writes itself, such as a run folder's `npy/`.
pub fn create_folder(dir: &Path) -> Result<()> {
    interrupt::locked(|| std::fs::create_dir_all(dir)).map_err(io_err(dir))
}

/// Delete the temporary entries this process has open below `dir` (a test's own, so that tests
/// writing at the same time in other folders keep theirs).
#[cfg(test)]
fn remove_live(below: &Path) {
    interrupt::remove_live(Some(below));
}

/// Remove the temporary entries in `dir` left by kpk processes that no longer run.
pub fn sweep_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((_, rest)) = name.split_once(TMP_MARK) else { continue };
        let pid: Option<i32> = rest.split('-').next().and_then(|p| p.parse().ok());
        if pid.is_some_and(|pid| !process_alive(pid)) {
            interrupt::remove_entry(&entry.path());
        }
    }
}

fn process_alive(pid: i32) -> bool {
    // SAFETY: kill with signal 0 only checks whether the process exists; it sends nothing.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Check that files can be created in the folder `dir` will land in: the nearest existing
/// ancestor must be a folder in which a probe file can be created (and is removed at once).
fn check_creatable(dir: &Path) -> Result<()> {
    let mut probe_dir = dir;
    loop {
        match std::fs::metadata(probe_dir) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => return Err(out_err(probe_dir, "is not a folder")),
            Err(_) => match probe_dir.parent() {
                Some(p) if !p.as_os_str().is_empty() => probe_dir = p,
                _ => {
                    probe_dir = Path::new(".");
                    break;
                }
            },
        }
    }
    Temporary::file(&probe_dir.join("probe"), "")
        .map(drop)
        .map_err(|cause| Error::Io { path: dir.display().to_string(), cause })
}

/// Where a single-file output goes, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileOut {
    /// `-`: standard output.
    Stdout,
    /// A regular file (or none yet) at `target`, replaced atomically; `shown` is the path the
    /// user gave (a symlink's own path when `target` is where it points).
    Replace { shown: PathBuf, target: PathBuf },
    /// A FIFO or character device, written to directly.
    Stream { shown: PathBuf },
}

impl FileOut {
    /// The same as [`FileOut::check`], which now creates missing folders for every output.
    pub fn check_in_own_folder(path: &Path) -> Result<FileOut> {
        FileOut::check(path)
    }

    /// Apply the table of the module docs to `path` now, before any work is done.
    pub fn check(path: &Path) -> Result<FileOut> {
        if path.as_os_str() == "-" {
            return Ok(FileOut::Stdout);
        }
        let shown = path.to_path_buf();
        match std::fs::symlink_metadata(path) {
            Err(_) => {
                // Missing folders on the way are created when the file is written.
                check_creatable(parent_of(path)).map_err(|e| match e {
                    Error::Output { path: folder, reason } => {
                        out_err(path, format!("cannot be written: {folder} {reason}"))
                    }
                    other => other,
                })?;
                Ok(FileOut::Replace { shown: shown.clone(), target: shown })
            }
            Ok(m) if m.file_type().is_symlink() => {
                let target_meta = std::fs::metadata(path).map_err(|_| {
                    out_err(path, "is a symlink to nothing; kpk writes through links, not over them")
                })?;
                if target_meta.is_file() {
                    let target = std::fs::canonicalize(path).map_err(io_err(path))?;
                    Self::existing(shown, target, &target_meta)
                } else {
                    // A FIFO or device is opened through the link (e.g. /dev/stdout to a pipe).
                    Self::existing(shown.clone(), shown, &target_meta)
                }
            }
            Ok(m) => Self::existing(shown.clone(), shown, &m),
        }
    }

    fn existing(shown: PathBuf, target: PathBuf, m: &Metadata) -> Result<FileOut> {
        let t = m.file_type();
        if t.is_file() && m.nlink() > 1 {
            Err(out_err(
                &shown,
                format!(
                    "has {} hard links, and kpk replaces a file by renaming a new one into place, which would \
                     split them; remove the other links or choose another path",
                    m.nlink()
                ),
            ))
        } else if t.is_file() {
            check_creatable(parent_of(&target))?;
            Ok(FileOut::Replace { shown, target })
        } else if t.is_fifo() || t.is_char_device() {
            Ok(FileOut::Stream { shown })
        } else if t.is_dir() {
            Err(out_err(&shown, "is a folder; give a file path for this output"))
        } else {
            Err(out_err(
                &shown,
                "is neither a regular file, a FIFO nor a character device; kpk will not write there",
            ))
        }
    }

    /// The path to name in messages (`-` for standard output).
    pub fn display(&self) -> String {
        match self {
            FileOut::Stdout => "-".into(),
            FileOut::Replace { shown, .. } | FileOut::Stream { shown } => shown.display().to_string(),
        }
    }

    /// Whether the output is a stream (standard output, a FIFO, a device): a command then prints
    /// its own report lines on standard error so that they do not mix with the data.
    pub fn is_stream(&self) -> bool {
        matches!(self, FileOut::Stdout | FileOut::Stream { .. })
    }

    /// Write `bytes`.
    pub fn write(&self, bytes: &[u8]) -> Result<()> {
        self.write_with(|w| w.write_all(bytes))
    }

    /// Write what `fill` produces into a buffered writer.
    pub fn write_with(&self, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
        // A failed write to `-` names standard output, as the command line's own lines do.
        let shown =
            PathBuf::from(if *self == FileOut::Stdout { "standard output".into() } else { self.display() });
        let sink: Box<dyn Write> = match self {
            FileOut::Stdout => Box::new(std::io::stdout().lock()),
            FileOut::Stream { shown } => {
                Box::new(std::fs::OpenOptions::new().write(true).open(shown).map_err(io_err(shown))?)
            }
            FileOut::Replace { shown, target } => {
                return replace_file(shown, target, |file| {
                    let mut w = std::io::BufWriter::new(file);
                    fill(&mut w)?;
                    w.flush()?;
                    w.into_inner().map_err(|e| e.into_error())?.sync_all()
                });
            }
        };
        let mut w = std::io::BufWriter::new(sink);
        fill(&mut w).and_then(|()| w.flush()).map_err(io_err(&shown))
    }

    /// Write a file that a library renders to a path of its own (plotters picks the image format
    /// from the extension `ext`, e.g. `.png`): rendered into a file in a temporary folder (the
    /// library creates that file itself, so the folder is what is registered), then moved or
    /// copied to the destination by the rules above.
    pub fn write_rendered(&self, ext: &str, render: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
        let into = |dest: &Path| -> Result<(Temporary, PathBuf)> {
            let folder = Temporary::folder(dest).map_err(io_err(dest))?;
            let file = folder.0.join(format!("render{ext}"));
            render(&file)?;
            Ok((folder, file))
        };
        match self {
            FileOut::Replace { shown, target } => {
                prepare_folder(target)?;
                let (_folder, file) = into(target)?;
                keep_permissions(target, &file)
                    .and_then(|()| interrupt::locked(|| std::fs::rename(&file, target)))
                    .map_err(io_err(shown))
            }
            FileOut::Stdout | FileOut::Stream { .. } => {
                let (_folder, file) = into(&std::env::temp_dir().join("kpk-render"))?;
                let bytes = std::fs::read(&file).map_err(io_err(&file))?;
                self.write(&bytes)
            }
        }
    }
}

/// Create the folder `target` lands in, and sweep it of stale temporaries.
fn prepare_folder(target: &Path) -> Result<()> {
    let dir = parent_of(target);
    create_folder(dir)?;
    sweep_stale(dir);
    Ok(())
}

fn replace_file(
    shown: &Path,
    target: &Path,
    fill: impl FnOnce(std::fs::File) -> std::io::Result<()>,
) -> Result<()> {
    prepare_folder(target)?;
    let (tmp, file) = Temporary::file(target, "").map_err(io_err(shown))?;
    fill(file)
        .and_then(|()| keep_permissions(target, &tmp.0))
        .and_then(|()| tmp.rename_to(target))
        .map_err(io_err(shown))
}

/// Give the new file at `tmp` the permission bits of the file at `target` it replaces, if any
/// (a mode-600 file stays 600); a new file gets the default the umask leaves.
fn keep_permissions(target: &Path, tmp: &Path) -> std::io::Result<()> {
    match std::fs::metadata(target) {
        Ok(old) if old.is_file() => std::fs::set_permissions(tmp, old.permissions()),
        _ => Ok(()),
    }
}

/// Where a path lands: its canonical path (the longest existing ancestor canonicalised, the rest
/// appended), and the device and inode of the file when one exists there.
#[derive(Debug)]
struct Place {
    path: PathBuf,
    inode: Option<(u64, u64)>,
}

impl Place {
    fn of(path: &Path) -> Place {
        let inode = std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()));
        Place { path: canonical(path), inode }
    }

    /// Two places are one file when both exist with one inode, or when their paths agree.
    fn same(&self, other: &Place) -> bool {
        match (self.inode, other.inode) {
            (Some(a), Some(b)) => a == b,
            _ => self.path == other.path,
        }
    }
}

/// `path` with its longest existing ancestor canonicalised (symlinks and `..` resolved) and the
/// missing rest appended as given.
fn canonical(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut rest = Vec::new();
    let mut head = absolute.as_path();
    loop {
        if let Ok(found) = std::fs::canonicalize(head) {
            return rest.iter().rev().fold(found, |p: PathBuf, part| p.join(part));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return absolute,
        }
    }
}

/// Where an output lands; `None` for a FIFO or device, which loses nothing when named twice.
fn place(o: &FileOut) -> Option<Place> {
    match o {
        FileOut::Stdout => Some(Place { path: PathBuf::from("-"), inode: None }),
        FileOut::Replace { target, .. } => Some(Place::of(target)),
        FileOut::Stream { .. } => None,
    }
}

/// Refuse two outputs of one command that name the same file (`bitbase --out X --csv X`, a link
/// and its target): the second would replace the first. Standard output may be named once.
pub fn distinct(outputs: &[&FileOut]) -> Result<()> {
    for (i, a) in outputs.iter().enumerate() {
        let Some(pa) = place(a) else { continue };
        for b in &outputs[..i] {
            if place(b).is_some_and(|pb| pa.same(&pb)) {
                let same =
                    if a.display() == b.display() { String::new() } else { format!(" as {}", b.display()) };
                return Err(out_err(
                    Path::new(&a.display()),
                    format!("is named by two outputs of this command{same}; give each its own path"),
                ));
            }
        }
    }
    Ok(())
}

/// Refuse an output that is one of the command's inputs (`compress --from w.json --out w.json`,
/// or a link to it): writing it would destroy what is being read.
pub fn apart_from_inputs(outputs: &[&FileOut], inputs: &[&Path]) -> Result<()> {
    for input in inputs {
        let pi = Place::of(input);
        if let Some(o) = outputs.iter().find(|o| place(o).is_some_and(|po| po.same(&pi))) {
            return Err(out_err(
                Path::new(&o.display()),
                format!(
                    "is also an input of this command ({}); writing it would destroy it: give the \
                     output another path",
                    input.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Refuse an output that lies inside `folder`, a folder of figures the command writes itself
/// (`match --csv FIGS/x.png --figures FIGS`).
pub fn outside_folder(outputs: &[&FileOut], folder: &Path) -> Result<()> {
    let inside = canonical(folder);
    match outputs.iter().find(|o| place(o).is_some_and(|p| p.path.starts_with(&inside))) {
        Some(o) => Err(out_err(
            Path::new(&o.display()),
            format!(
                "lies inside {}, the folder of figures this command writes; give it a path outside",
                folder.display()
            ),
        )),
        None => Ok(()),
    }
}

/// The whole policy for one command, before any work: its outputs distinct from each other and
/// apart from every input.
pub fn check_all(outputs: &[&FileOut], inputs: &[&Path]) -> Result<()> {
    distinct(outputs)?;
    apart_from_inputs(outputs, inputs)
}

/// Write `bytes` to `path` by the policy of this module (check, then write).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    FileOut::check(path)?.write(bytes)
}

/// Like [`write_file`], with the content produced by `fill` into a buffered writer.
pub fn write_file_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    FileOut::check(path)?.write_with(fill)
}

/// A CSV file's text, its rows written by `fill` in memory (a report's table, which the report's
/// driver writes with the rest): the writer's error is an I/O error of `file`, as it would be
/// writing to disk.
pub fn csv_text(
    file: &str,
    fill: impl FnOnce(&mut csv::Writer<Vec<u8>>) -> csv::Result<()>,
) -> Result<String> {
    let io = |cause: std::io::Error| Error::Io { path: file.to_string(), cause };
    let mut w = csv::Writer::from_writer(Vec::new());
    fill(&mut w).map_err(|e| io(e.into()))?;
    let bytes = w.into_inner().map_err(|e| io(e.into_error()))?;
    String::from_utf8(bytes).map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

/// What makes a folder recognisably a kpk run folder: the names kpk writes into it, and a test
/// that its own record (e.g. `summary.json`) names the folder.
pub struct RunFolderKind {
    pub entries: &'static [&'static str],
    pub is_ours: fn(dir: &Path, name: &str) -> bool,
}

/// A run folder `<parent>/<name>/`, checked, to be written all or nothing.
#[derive(Clone, Debug)]
pub struct RunFolder {
    pub path: PathBuf,
}

impl RunFolder {
    /// Check that `<parent>/<name>` can be written: nothing is there, an empty folder is there,
    /// or a kpk run folder of that name that holds only the entries kpk writes.
    pub fn check(parent: &Path, name: &str, kind: &RunFolderKind) -> Result<RunFolder> {
        let path = parent.join(name);
        let how = "choose another --out, or remove it yourself if it can go";
        match std::fs::symlink_metadata(&path) {
            Err(_) => check_creatable(parent)?,
            Ok(m) if m.is_dir() => {
                let entries: Vec<String> = std::fs::read_dir(&path)
                    .map_err(io_err(&path))?
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect();
                if let Some(foreign) = entries.iter().find(|e| !kind.entries.contains(&e.as_str())) {
                    let quoted = kpk_probe::quote::quote(foreign);
                    return Err(out_err(
                        &path,
                        format!("holds {quoted}, which this command does not write; {how}"),
                    ));
                }
                if !entries.is_empty() && !(kind.is_ours)(&path, name) {
                    return Err(out_err(&path, format!("is not a kpk run folder named '{name}'; {how}")));
                }
                check_creatable(parent)?;
            }
            Ok(m) => {
                let what = if m.file_type().is_symlink() { "a symlink" } else { "not a folder" };
                return Err(out_err(&path, format!("is {what}, not a kpk run folder; {how}")));
            }
        }
        Ok(RunFolder { path })
    }

    /// Write the folder: `fill` writes into a temporary folder beside it, which then replaces the
    /// previous run folder (checked again just before). A failed or interrupted `fill` leaves the
    /// previous folder as it was. rename cannot replace a non-empty folder, so the previous one is
    /// moved aside (a temporary, removed after) and the new one moved in, both in one step under
    /// the lock of [`interrupt`]: an interrupt finds the previous folder in place or the new one.
    pub fn write(&self, kind: &RunFolderKind, fill: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
        let parent = parent_of(&self.path);
        prepare_folder(&self.path)?;
        let tmp = Temporary::folder(&self.path).map_err(io_err(&self.path))?;
        fill(&tmp.0)?;
        let name = self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        RunFolder::check(parent, &name, kind)?;
        if !self.path.exists() {
            return tmp.rename_to(&self.path).map_err(io_err(&self.path));
        }
        let old = Temporary::name_beside(&self.path, ".old");
        interrupt::create(&old, |old| {
            std::fs::rename(&self.path, old)?;
            std::fs::rename(&tmp.0, &self.path).inspect_err(|_| drop(std::fs::rename(old, &self.path)))
        })
        .map_err(io_err(&self.path))?;
        drop(Temporary(old));
        Ok(())
    }
}

pub mod guard;
pub mod interrupt;

#[cfg(test)]
mod tests;

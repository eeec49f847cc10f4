//! The guard every command passes before any work: the paths it names, each declared as what the
//! command does with it, checked against each other.
//!
//! | declared as     | what the command does with the path                                   |
//! |-----------------|-----------------------------------------------------------------------|
//! | input file      | reads it                                                              |
//! | input folder    | reads the files in it                                                 |
//! | output file     | replaces it (atomically, by the table of [`crate::output`])           |
//! | output folder   | writes named entries into it (`reports/`), leaving the rest           |
//! | owned folder    | writes it whole: a run folder it replaces, a folder of its figures    |
//!
//! Refused, each before any work: two outputs that are one file or folder; an output that is an
//! input (one device and inode, through symlinks and hard links, or one canonical path when
//! either does not exist yet); an output file inside an input folder (it may be one of the files
//! read); an input inside an owned folder (replacing the folder would destroy it); and any other
//! output inside an owned folder (the two would write the same entries).

use super::Place;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// What a command does with one path it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    InputFile,
    InputFolder,
    OutputFile,
    OutputFolder,
    OwnedFolder,
}

impl Role {
    pub fn is_output(self) -> bool {
        matches!(self, Role::OutputFile | Role::OutputFolder | Role::OwnedFolder)
    }
}

/// One path a command names: the argument that names it (for messages), its role, the path.
#[derive(Clone, Debug)]
pub struct Named {
    pub arg: String,
    pub role: Role,
    pub path: PathBuf,
}

/// Where a named path lands, or `None` when it is a FIFO or character device (`/dev/stdout`, a
/// named pipe), which loses nothing when named twice.
fn landing(path: &Path) -> Option<Place> {
    if path.as_os_str() == "-" {
        return Some(Place { path: PathBuf::from("-"), inode: None });
    }
    match std::fs::metadata(path) {
        Ok(m) if m.file_type().is_fifo() || m.file_type().is_char_device() => None,
        _ => Some(Place::of(path)),
    }
}

/// Whether `inner` lies strictly inside the folder `outer` (canonical paths, so that `..` and
/// symlinked folders are seen through).
fn inside(inner: &Place, outer: &Place) -> bool {
    inner.path != outer.path && inner.path.starts_with(&outer.path) && outer.path != Path::new("-")
}

/// How an output collides with another path of the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clash {
    /// The two are one file or folder.
    Same,
    /// The other lies inside the output, a folder the command writes whole.
    InsideOwned,
    /// The output lies inside the other, a folder whose files the command reads.
    InsideInputFolder,
}

/// The first collision found: the output, the other path, and how they collide.
#[derive(Clone, Debug)]
pub struct Collision {
    pub output: Named,
    pub other: Named,
    pub clash: Clash,
}

/// Check every pair of `named` by the rules of the module docs: the first collision, if any.
pub fn check(named: &[Named]) -> Option<Collision> {
    let places: Vec<(&Named, Place)> =
        named.iter().filter_map(|n| landing(&n.path).map(|p| (n, p))).collect();
    for (i, (a, pa)) in places.iter().enumerate() {
        for (b, pb) in places.iter().skip(i + 1) {
            let found =
                clash(a, pa, b, pb).map(|c| (a, b, c)).or_else(|| clash(b, pb, a, pa).map(|c| (b, a, c)));
            if let Some((output, other, clash)) = found {
                return Some(Collision { output: (*output).clone(), other: (*other).clone(), clash });
            }
        }
    }
    None
}

/// How output `a` collides with `b`, if it does (`None` too when `a` is an input).
fn clash(a: &Named, pa: &Place, b: &Named, pb: &Place) -> Option<Clash> {
    if !a.role.is_output() {
        None
    } else if pa.same(pb) {
        Some(Clash::Same)
    } else if a.role == Role::OwnedFolder && inside(pb, pa) {
        Some(Clash::InsideOwned)
    } else if a.role == Role::OutputFile && b.role == Role::InputFolder && inside(pa, pb) {
        Some(Clash::InsideInputFolder)
    } else {
        None
    }
}

//! What SIGINT and SIGTERM leave: the previous outputs as they were, or the new ones whole, and
//! no temporary entry.
//!
//! The rule, by construction: one lock (`LIVE`) covers every step that makes an entry appear on
//! disk (creating a temporary file or folder and registering it, creating a destination's folder,
//! renaming a temporary into place, removing a temporary and unregistering it). The signal is
//! caught by a handler that only writes its number into a pipe; a thread of its own reads it,
//! takes the lock, marks the process interrupted, removes every registered temporary and ends the
//! process with 128 + the signal's number *while holding the lock*. So no step of a writer can
//! fall between the removal and the end: it either finished before (its temporary is registered,
//! or renamed into place whole) or never starts. The one writer that creates a file without the
//! lock, a plotting library rendering into a temporary folder, finds that folder gone; the removal
//! is repeated until the folder is gone, whatever it created meanwhile. The command line's exit
//! takes the same lock ([`hold_until_exit`]), so an interrupted command ends with the signal's
//! status, never with an error of a write whose temporary was removed under it.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The temporary entries that exist right now, and whether an interrupt has begun.
struct Live {
    interrupted: bool,
    entries: Vec<PathBuf>,
}

static LIVE: Mutex<Live> = Mutex::new(Live { interrupted: false, entries: Vec::new() });

fn live() -> MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

fn interrupted() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted")
}

/// Make an entry appear on disk (`step`), under the lock, unless an interrupt has begun.
pub(super) fn locked<T>(step: impl FnOnce() -> std::io::Result<T>) -> std::io::Result<T> {
    let live = live();
    if live.interrupted {
        return Err(interrupted());
    }
    step()
}

/// Create the temporary entry `path` (`create` makes it) and register it, in one step under the
/// lock: a registered temporary always exists, and an existing one is always registered.
pub(super) fn create<T>(path: &Path, create: impl FnOnce(&Path) -> std::io::Result<T>) -> std::io::Result<T> {
    let mut live = live();
    if live.interrupted {
        return Err(interrupted());
    }
    let made = create(path)?;
    live.entries.push(path.to_path_buf());
    Ok(made)
}

/// Remove the temporary entry `path` (whatever is still there was not renamed into place) and
/// unregister it, under the lock.
pub(super) fn remove(path: &Path) {
    let mut live = live();
    remove_entry(path);
    live.entries.retain(|p| p != path);
}

/// Remove a file, or a folder and everything in it. A folder is removed again while it is still
/// there: a library writing into it without the lock may add a file between listing and removal.
pub(super) fn remove_entry(path: &Path) {
    for _ in 0..1000 {
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() => drop(std::fs::remove_dir_all(path)),
            Ok(_) => drop(std::fs::remove_file(path)),
            Err(_) => return,
        }
    }
}

/// Delete the temporary entries this process has open (below `below` only, when given: a
/// test's own, so that tests writing at the same time in other folders keep theirs).
#[cfg(test)]
pub(super) fn remove_live(below: Option<&Path>) {
    let live = live();
    for path in live.entries.iter().filter(|p| below.is_none_or(|dir| p.starts_with(dir))) {
        remove_entry(path);
    }
}

/// Take the lock for good: from now on no temporary can appear, and a signal that arrives finds
/// the lock taken and lets the process end as it was going to. For the command line, just
/// before the process exits.
pub fn hold_until_exit() {
    std::mem::forget(live());
}

/// The write end of the pipe from the signal handler to the thread that acts on it.
static PIPE: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);

/// The signal handler: only `write`, which is async-signal-safe, of the signal's number.
extern "C" fn on_signal(signal: libc::c_int) {
    let byte = signal as u8;
    // SAFETY: write(2) of one byte from a local into the pipe's non-blocking write end.
    unsafe { libc::write(PIPE.load(std::sync::atomic::Ordering::Relaxed), (&raw const byte).cast(), 1) };
}

/// Act on a signal: under the lock, mark the process interrupted, remove every temporary entry,
/// and end the process with 128 + `signal` without releasing the lock.
fn end_on(signal: i32) -> ! {
    let mut live = live();
    live.interrupted = true;
    for path in &live.entries {
        remove_entry(path);
    }
    // SAFETY: _exit ends the process at once; the lock is held to the end on purpose.
    unsafe { libc::_exit(128 + signal) }
}

fn os_result(r: libc::c_int) -> std::io::Result<()> {
    if r == -1 { Err(std::io::Error::last_os_error()) } else { Ok(()) }
}

/// On SIGINT or SIGTERM, remove the temporary entries of the outputs being written (the previous
/// outputs stay as they were) and exit with 130 or 143, as shells report a command ended by
/// those signals.
pub fn remove_temporaries_on_signal() -> std::io::Result<()> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe(2) fills the two descriptors; fcntl(2) sets flags on descriptors we own.
    unsafe {
        os_result(libc::pipe(fds.as_mut_ptr()))?;
        for fd in fds {
            os_result(libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC))?;
        }
        os_result(libc::fcntl(fds[1], libc::F_SETFL, libc::O_NONBLOCK))?;
    }
    PIPE.store(fds[1], std::sync::atomic::Ordering::Relaxed);
    let reader = fds[0];
    std::thread::Builder::new().name("kpk-interrupt".into()).spawn(move || {
        loop {
            let mut byte = 0u8;
            // SAFETY: read(2) of one byte into a local from the pipe's read end.
            let n = unsafe { libc::read(reader, (&raw mut byte).cast(), 1) };
            if n == 1 {
                end_on(i32::from(byte));
            }
            if n == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                return;
            }
        }
    })?;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction with our handler, an empty mask and SA_RESTART, so that the
        // program's own system calls are resumed after the handler ran.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            os_result(libc::sigaction(signal, &action, std::ptr::null_mut()))?;
        }
    }
    Ok(())
}

//! The library's typed errors. Each message names the offending value and fits on one line.

use thiserror::Error;

/// Why a FEN string is not a KPK position we accept, and why a placement is not legal (typed,
/// with squares): the chess core's ([`kpk_probe::fen`], [`kpk_probe::position`]).
pub use kpk_probe::fen::{FenError, Material};
pub use kpk_probe::position::Illegal as IllegalPosition;
/// How error messages quote user input: the chess core's, so a FEN's messages quote alike.
pub use kpk_probe::quote::{QUOTE_MAX, escape_controls, quote};

/// Every error the kpk library reports.
#[derive(Debug, Error)]
pub enum Error {
    #[error("bad FEN {}: {kind}", quote(.fen))]
    Fen { fen: String, kind: FenError },
    #[error("illegal position {}: {kind}", quote(.fen))]
    Illegal { fen: String, kind: IllegalPosition },
    /// A destination that kpk's output policy refuses (`crate::output`); nothing was written.
    #[error("{path}: {reason}")]
    Output { path: String, reason: String },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
    /// The cause is part of the message (not a `source`), so a printed chain says it once.
    #[error("{path}: {cause}")]
    Io { path: String, cause: std::io::Error },
    /// A config value out of range or inconsistent with another: the file (empty when the config
    /// came as text), the key, and why.
    #[error("{}key `{key}`: {reason}", in_file(.path))]
    Config { path: String, key: String, reason: String },
    /// A config that is not TOML of its schema: the line, the key and why, on one line.
    #[error("{0}")]
    Toml(String),
    /// A name that is none of the allowed ones (a set, an input coding).
    #[error("unknown {what} {}; allowed: {allowed}", quote(.given))]
    UnknownName { what: &'static str, given: String, allowed: String },
    /// A net's layer widths that kpk does not train (`32-10-10-1` is one it does).
    #[error("{} {reason}", quote(.text))]
    Topology { text: String, reason: String },
    /// Data, nets and codings whose shapes do not fit together (inputs per position, layer
    /// sizes, outputs), or values a net cannot take (non-finite inputs and weights).
    #[error("{0}")]
    Shape(String),
    /// A saved net or hybrid model whose contents do not fit together (checked on load and before
    /// saving); read from a file, it becomes that file's [`Error::Format`].
    #[error("{0}")]
    Model(String),
    /// A value given to a command or function outside what it accepts (a filter's pawn file).
    #[error("{0}")]
    Argument(String),
    /// Training drove a weight to infinity or NaN.
    #[error("training diverged at epoch {epoch}: weights are no longer finite")]
    Diverged { epoch: usize },
    /// A float net that the hybrid's fixed-point format cannot hold.
    #[error("quantise: {0}")]
    Quantise(String),
    /// An error with what kpk was doing when it happened (a trial's name, a study's setting).
    #[error("{context}: {inner}")]
    Context { context: String, inner: Box<Error> },
    /// A resource kpk needs and could not get (threads, a listening socket, the bundled font).
    #[error("{0}")]
    Unavailable(String),
    /// A broken invariant of kpk itself: a bug to report.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// A config error not yet tied to a file ([`Error::in_file`] adds it).
    pub fn config(key: &str, reason: impl std::fmt::Display) -> Error {
        Error::Config { path: String::new(), key: key.to_string(), reason: reason.to_string() }
    }

    /// This error as read from the file at `path`: a config error names the file, any other
    /// becomes a format error of that file.
    pub fn in_file(self, path: &std::path::Path) -> Error {
        let path = path.display().to_string();
        match self {
            Error::Config { key, reason, .. } => Error::Config { path, key, reason },
            Error::Format { .. } | Error::Io { .. } => self,
            other => Error::Format { path, message: other.to_string() },
        }
    }

    /// This error with what kpk was doing, e.g. the trial it was training.
    pub fn context(self, context: impl Into<String>) -> Error {
        Error::Context { context: context.into(), inner: Box::new(self) }
    }

    /// The error under any [`Error::Context`] wrappers.
    pub fn root(&self) -> &Error {
        match self {
            Error::Context { inner, .. } => inner.root(),
            other => other,
        }
    }
}

fn in_file(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!("{path}: ") }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

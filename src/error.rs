//! The library's typed errors. Each message names the offending value and fits on one line.

use thiserror::Error;

// Why a FEN string is not a KPK position we accept, and why a placement is not legal (typed,
// with squares): the chess core's ([`kpk_probe::fen`], [`kpk_probe::position`]).
use kpk_probe::fen::FenError;
use kpk_probe::position::Illegal;
// How error messages quote user input: the chess core's, so a FEN's messages quote alike.
use kpk_probe::quote::quote;

/// Every error the kpk library reports.
#[derive(Debug, Error)]
pub enum Error {
    #[error("bad FEN {}: {kind}", quote(.fen))]
    Fen { fen: String, kind: FenError },
    #[error("illegal position {}: {kind}", quote(.fen))]
    Illegal { fen: String, kind: Illegal },
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
    /// A net and what feeds it (data, an input coding) disagree on its input width.
    #[error("the net takes {net} inputs; {by} gives {given}")]
    InputWidth { net: usize, by: String, given: usize },
    /// A net and its output coding disagree on its output width.
    #[error("the net has {net} outputs; {by} needs {needs}")]
    OutputWidth { net: usize, by: String, needs: usize },
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
    /// Data read back (a run's draws, a pilot, a config folder's trials) that lacks what the
    /// declared design asks of it.
    #[error("{0}")]
    Data(String),
    /// A report's template (built into kpk) that does not compile or render with the data it is
    /// given: the template's name (a label's text, for a label) and minijinja's reason with its
    /// line.
    #[error("template {name}: {message}")]
    Template { name: String, message: String },
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

/// The values a numeric setting allows: an interval of finite numbers, written in the usual
/// notation, so every config, saved net and argument refuses a value in the same words:
/// "`{value}` is outside `{interval}`".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Allowed {
    lo: f64,
    lo_closed: bool,
    hi: f64,
    hi_closed: bool,
}

impl Allowed {
    /// (0, ∞): learning rates, sigmoid slopes, Adam's epsilon, annealing epochs.
    pub const POSITIVE: Allowed = Allowed::new(0.0, false, f64::INFINITY, false);
    /// [0, ∞): a trainer's error target (0 trains to the epoch budget).
    pub const NON_NEGATIVE: Allowed = Allowed::new(0.0, true, f64::INFINITY, false);
    /// [0, 1): momentum and Adam's betas.
    pub const FRACTION: Allowed = Allowed::new(0.0, true, 1.0, false);
    /// (0, 1]: an annealing factor, a trial's error target.
    pub const FACTOR: Allowed = Allowed::new(0.0, false, 1.0, true);

    /// The interval from `lo` to `hi`, each end closed or open.
    pub const fn new(lo: f64, lo_closed: bool, hi: f64, hi_closed: bool) -> Allowed {
        Allowed { lo, lo_closed, hi, hi_closed }
    }

    /// Is `v` a finite number inside the interval?
    pub fn contains(self, v: f64) -> bool {
        let above = if self.lo_closed { v >= self.lo } else { v > self.lo };
        let below = if self.hi_closed { v <= self.hi } else { v < self.hi };
        v.is_finite() && above && below
    }

    /// `v`, or why the interval refuses it.
    pub fn check(self, v: f64) -> std::result::Result<f64, String> {
        if self.contains(v) { Ok(v) } else { Err(format!("{v} is outside {self}")) }
    }

    /// `v`, or a config error on `key` saying why the interval refuses it.
    pub fn check_key(self, key: &str, v: f64) -> Result<f64> {
        self.check(v).map_err(|reason| Error::config(key, reason))
    }
}

/// `n`, or a config error on `key`: a count (of epochs, nets, stages, replicates) lies in
/// `1..=max`, the most kpk allocates for.
pub fn check_count(key: &str, n: usize, max: usize) -> Result<usize> {
    if (1..=max).contains(&n) { Ok(n) } else { Err(Error::config(key, format!("{n} is outside 1..={max}"))) }
}

/// `n`, or a config error on `key`: a count without a limit of its own is at least 1.
pub fn at_least_one(key: &str, n: usize) -> Result<usize> {
    if n >= 1 { Ok(n) } else { Err(Error::config(key, "must be at least 1")) }
}

impl std::fmt::Display for Allowed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let end = |v: f64| if v.is_infinite() { "∞".to_string() } else { v.to_string() };
        let (open, close) = (if self.lo_closed { '[' } else { '(' }, if self.hi_closed { ']' } else { ')' });
        write!(f, "{open}{}, {}{close}", end(self.lo), end(self.hi))
    }
}

fn in_file(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!("{path}: ") }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::Allowed;

    #[test]
    fn allowed_values_are_finite_numbers_between_the_ends() {
        assert_eq!(Allowed::POSITIVE.to_string(), "(0, ∞)");
        assert_eq!(Allowed::FACTOR.to_string(), "(0, 1]");
        assert_eq!(Allowed::new(0.0, true, 0.5, false).to_string(), "[0, 0.5)");
        assert!(Allowed::FRACTION.contains(0.0) && !Allowed::FRACTION.contains(1.0));
        assert!(Allowed::FACTOR.contains(1.0) && !Allowed::FACTOR.contains(0.0));
        assert!(!Allowed::POSITIVE.contains(f64::INFINITY) && !Allowed::NON_NEGATIVE.contains(f64::NAN));
        assert_eq!(Allowed::POSITIVE.check(-1.0).unwrap_err(), "-1 is outside (0, ∞)");
    }
}

//! The library's typed errors. Each message names the offending value and fits on one line.

use thiserror::Error;

/// Why a FEN string is not a KPK position we accept.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("expected 2 to 6 space-separated fields, found {0}")]
    FieldCount(usize),
    #[error("piece placement has {0} ranks, expected 8")]
    RankCount(usize),
    #[error("rank {rank} of the piece placement covers {files} files, expected 8")]
    RankWidth { rank: u8, files: usize },
    #[error("unexpected character '{}' in piece placement", .0.escape_default())]
    BadPlacementChar(char),
    #[error("side to move must be 'w' or 'b', found {}", quote(.0))]
    BadSide(String),
    #[error("castling field must be '-' in KPK (no rooks), found {}", quote(.0))]
    BadCastling(String),
    #[error("en passant field must be '-' or a square on rank 3 or 6, found {}", quote(.0))]
    BadEnPassant(String),
    #[error("move counter must be a non-negative integer, found {}", quote(.0))]
    BadCounter(String),
    #[error("not KPK material: {0}")]
    Material(String),
}

/// Why a KPK placement is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalPosition {
    #[error("two pieces on {0}")]
    SameSquare(String),
    #[error("kings on adjacent squares {0} and {1}")]
    AdjacentKings(String, String),
    #[error("pawn on {0}: a pawn cannot stand on the first or last rank")]
    PawnOnBackRank(String),
    #[error("the side not to move is in check: king on {king} attacked by the pawn on {pawn}")]
    NotToMoveInCheck { king: String, pawn: String },
}

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
    #[error("{0}")]
    Invalid(String),
}

/// The longest piece of user input an error message quotes, in characters.
pub const QUOTE_MAX: usize = 80;

/// User input as an error message quotes it: in single quotes, control characters escaped
/// (`\n`, `\u{1b}`), cut to [`QUOTE_MAX`] characters with `…` and the full length after a cut.
pub fn quote(input: &str) -> String {
    let total = input.chars().count();
    let head: String = input.chars().take(QUOTE_MAX).collect();
    let mut out = format!("'{}'", escape_controls(&head));
    if total > QUOTE_MAX {
        out.push_str(&format!("… ({total} characters)"));
    }
    out
}

/// `text` with its control characters escaped (`\n`, `\u{1b}`), so that no input reaches the
/// terminal raw through an error message.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

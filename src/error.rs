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
    #[error("unexpected character '{0}' in piece placement")]
    BadPlacementChar(char),
    #[error("side to move must be 'w' or 'b', found '{0}'")]
    BadSide(String),
    #[error("castling field must be '-' in KPK (no rooks), found '{0}'")]
    BadCastling(String),
    #[error("en passant field must be '-' or a square on rank 3 or 6, found '{0}'")]
    BadEnPassant(String),
    #[error("move counter must be a non-negative integer, found '{0}'")]
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
    #[error("bad FEN '{fen}': {kind}")]
    Fen { fen: String, kind: FenError },
    #[error("illegal position '{fen}': {kind}")]
    Illegal { fen: String, kind: IllegalPosition },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
    /// The cause is part of the message (not a `source`), so a printed chain says it once.
    #[error("{path}: {cause}")]
    Io { path: String, cause: std::io::Error },
    #[error("{0}")]
    Invalid(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

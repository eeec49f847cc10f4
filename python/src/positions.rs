//! Positions from Python: FEN strings, python-chess boards read from their bitboards, and any other
//! object with a `fen()` method; one at a time or as a batch, a batch's bad items raising or
//! masked (`errors="raise"` or `"mask"`).
//!
//! A board is read from python-chess's integer attributes (`kings`, `pawns`, `occupied_co`,
//! `turn`, `ep_square`), not through `Board.fen()`, which builds a string per board. A board that
//! is not KPK falls back to its FEN, so its error is the message the FEN would give.
//!
//! En passant is checked as python-chess's `Board.is_valid()` checks it, by the chess core's rule
//! ([`kpk_probe::fen::en_passant_possible`]): in a FEN by the core's grammar, on a board from its
//! `ep_square`.

use crate::value_error;
use kpk::chess::position::Oriented;
use kpk::{Color, KpkPosition};
use kpk_probe::Square;
use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyString;
use rayon::prelude::*;

/// What a batch call does with an item that is not a KPK position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Errors {
    /// Raise `ValueError` (`TypeError` for a value that is no position) naming its place.
    Raise,
    /// Answer the others; the call returns masked arrays, masked where the item was bad.
    Mask,
}

impl Errors {
    pub(crate) fn parse(errors: &str) -> PyResult<Errors> {
        match errors {
            "raise" => Ok(Errors::Raise),
            "mask" => Ok(Errors::Mask),
            other => Err(value_error(format!("errors must be 'raise' or 'mask', got {other:?}"))),
        }
    }
}

/// A position as the user gave it: a FEN's text, or a board already read.
enum Given {
    Text(String),
    Read(Oriented),
}

/// The square a python-chess board attribute names, if it is one.
fn square(bits: u64) -> Option<Square> {
    (bits.count_ones() == 1).then(|| Square::new(bits.trailing_zeros() as u8)).flatten()
}

/// Is `ep` an en passant square python-chess accepts in `o` (the chess core's rule,
/// [`kpk_probe::fen::en_passant_possible`], on the squares as the user gave them)?
pub(crate) fn en_passant_valid(o: &Oriented, ep: Square) -> bool {
    let t = o.transform;
    let p = o.position;
    let side = if t.flip_colours { p.side().other() } else { p.side() };
    let pawn_color = if t.flip_colours { Color::Black } else { Color::White };
    kpk_probe::fen::en_passant_possible(
        ep,
        side,
        [t.apply(p.wk()), t.apply(p.bk()), t.apply(p.wp())],
        pawn_color,
    )
}

/// Parse a FEN's text by the chess core's grammar, which checks en passant as python-chess does.
pub(crate) fn parse_fen(fen: &str) -> Result<Oriented, String> {
    Oriented::from_fen(fen).map_err(|e| e.to_string())
}

/// Why a board is refused before its pieces are read: a variant's rules or castling rights, which
/// no KPK position has (`chess.syzygy` refuses both with `KeyError`).
pub(crate) enum Refusal {
    /// A board of a chess variant (`uci_variant` other than `"chess"`): its results differ.
    Variant(String),
    /// A board holding castling rights: a KPK position has no rook to castle with.
    Castling(u64),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Variant(v) => {
                write!(f, "a board of the variant {v:?}: kpk answers standard chess only")
            }
            Refusal::Castling(bits) => write!(
                f,
                "a board with castling rights (bitmask {bits:#x}): a KPK position has no rook to \
                 castle with"
            ),
        }
    }
}

/// The refusal of `obj` if it is a board of a variant or with castling rights.
pub(crate) fn refusal(obj: &Bound<'_, PyAny>) -> PyResult<Option<Refusal>> {
    let py = obj.py();
    if let Ok(v) = obj.getattr(intern!(py, "uci_variant")) {
        let v: String = v.extract().unwrap_or_else(|_| "?".to_string());
        if v != "chess" {
            return Ok(Some(Refusal::Variant(v)));
        }
    }
    if let Ok(c) = obj.getattr(intern!(py, "castling_rights")) {
        let bits: u64 = c.extract().unwrap_or(u64::MAX);
        if bits != 0 {
            return Ok(Some(Refusal::Castling(bits)));
        }
    }
    Ok(None)
}

/// The bitboard attributes of a python-chess board, read as integers.
fn bitboard(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    obj.getattr(name)?.extract().map_err(|_| {
        value_error(format!("the board's bitboard {name} is not an integer from 0 to 2**64 - 1"))
    })
}

/// The board's bitboards agree: the piece kinds are disjoint, the colours are disjoint, and both
/// cover the same squares as `occupied`. Else the error says which disagree.
fn agreeing(obj: &Bound<'_, PyAny>, white: u64, black: u64) -> PyResult<u64> {
    let mut kinds = 0u64;
    for name in ["pawns", "knights", "bishops", "rooks", "queens", "kings"] {
        let bits = bitboard(obj, name)?;
        if kinds & bits != 0 {
            return Err(value_error(format!(
                "the board's bitboards disagree: {name} shares a square with another kind of piece"
            )));
        }
        kinds |= bits;
    }
    let occupied = bitboard(obj, "occupied")?;
    if white & black != 0 || white | black != kinds || kinds != occupied {
        return Err(value_error(
            "the board's bitboards disagree: occupied_co, occupied and the piece bitboards name \
             different squares",
        ));
    }
    Ok(kinds)
}

/// A python-chess board read from its bitboards; `None` where `obj` has no such attributes, or
/// is not a KPK position (its FEN then tells why). A board whose bitboards disagree, a
/// `chess.BaseBoard` (no side to move) and an impossible en passant square are errors.
fn read_board(obj: &Bound<'_, PyAny>) -> PyResult<Option<Oriented>> {
    let py = obj.py();
    let Ok(kings) = obj.getattr(intern!(py, "kings")) else { return Ok(None) };
    if !obj.hasattr(intern!(py, "turn"))? {
        return Err(PyTypeError::new_err(format!(
            "a {} has no side to move: pass a chess.Board (or a FEN)",
            obj.get_type().name()?
        )));
    }
    let kings: u64 =
        kings.extract().map_err(|_| value_error("the board's bitboard kings is not an integer"))?;
    let colours = obj.getattr(intern!(py, "occupied_co"))?;
    let (black, white): (u64, u64) = (colours.get_item(0)?.extract()?, colours.get_item(1)?.extract()?);
    agreeing(obj, white, black)?;
    let pawns = bitboard(obj, "pawns")?;
    let white_to_move: bool = obj.getattr(intern!(py, "turn"))?.extract()?;
    let ep: Option<u8> = obj.getattr(intern!(py, "ep_square"))?.extract()?;
    if (white | black) != (kings | pawns) {
        return Ok(None);
    }
    let (Some(wk), Some(bk), Some(pawn)) = (square(kings & white), square(kings & black), square(pawns))
    else {
        return Ok(None);
    };
    let pawn_color = if pawns & white != 0 { Color::White } else { Color::Black };
    let side = if white_to_move { Color::White } else { Color::Black };
    let Ok((p, transform)) = kpk_probe::Position::oriented(wk, bk, pawn, pawn_color, side) else {
        return Ok(None);
    };
    let o = Oriented { position: KpkPosition::from(p), transform };
    match ep {
        Some(e) if !Square::new(e).is_some_and(|s| en_passant_valid(&o, s)) => {
            let name = Square::new(e).map_or(e.to_string(), |s| s.to_string());
            Err(value_error(format!(
                "illegal board: en passant square {name} is impossible: no pawn of the side not to \
                 move has just made its double step past it"
            )))
        }
        _ => Ok(Some(o)),
    }
}

/// What `obj` is: a FEN, a board read from its bitboards, or the FEN of an object's `fen()`. A
/// board of a variant or with castling rights is refused (`ValueError`).
fn given(obj: &Bound<'_, PyAny>) -> PyResult<Given> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Given::Text(s.to_cow()?.into_owned()));
    }
    if let Some(r) = refusal(obj)? {
        return Err(value_error(r));
    }
    given_board(obj)
}

/// `given` for an object that is not a string, its variant and castling rights already checked.
fn given_board(obj: &Bound<'_, PyAny>) -> PyResult<Given> {
    if let Some(o) = read_board(obj)? {
        return Ok(Given::Read(o));
    }
    if obj.hasattr(intern!(obj.py(), "fen"))? {
        let fen: String = obj.call_method0(intern!(obj.py(), "fen"))?.extract()?;
        return Ok(Given::Text(fen));
    }
    Err(PyTypeError::new_err(format!(
        "expected a FEN string or a board (python-chess's chess.Board, or an object with a fen() \
         method), got {}",
        obj.get_type().name()?
    )))
}

/// One position as the user gave it.
pub(crate) fn oriented(obj: &Bound<'_, PyAny>) -> PyResult<Oriented> {
    match given(obj)? {
        Given::Read(o) => Ok(o),
        Given::Text(t) => parse_fen(&t).map_err(value_error),
    }
}

/// One position for a Syzygy-shaped probe: `None` where its material is not KPK (a board of any
/// other material, or a FEN of one); a `KeyError` for a board of a variant or with castling
/// rights, as `chess.syzygy` raises; a `ValueError` for a malformed FEN or an illegal KPK position.
pub(crate) fn read_kpk(obj: &Bound<'_, PyAny>) -> PyResult<Option<Oriented>> {
    let text = if let Ok(s) = obj.cast::<PyString>() {
        s.to_cow()?.into_owned()
    } else {
        if let Some(r) = refusal(obj)? {
            return Err(PyKeyError::new_err(r.to_string()));
        }
        match given_board(obj)? {
            Given::Read(o) => return Ok(Some(o)),
            Given::Text(t) => t,
        }
    };
    match Oriented::from_fen(&text) {
        Err(kpk::Error::Fen { kind: kpk_probe::FenError::Material(_), .. }) => Ok(None),
        _ => parse_fen(&text).map(Some).map_err(value_error),
    }
}

/// A batch of positions: one per item, `None` where the item was bad (`errors="mask"` only).
pub(crate) struct Batch {
    pub(crate) items: Vec<Option<Oriented>>,
    errors: Errors,
}

impl Batch {
    /// The positions, a legal stand-in where an item was bad (its answer is masked).
    pub(crate) fn positions(&self) -> Vec<KpkPosition> {
        let stand_in = KpkPosition::all().next().expect("KPK has legal positions");
        self.items.iter().map(|o| o.map_or(stand_in, |o| o.position)).collect()
    }

    /// Under `errors="mask"`, true where an item was bad (all false when none was); `None` under
    /// `errors="raise"`.
    pub(crate) fn mask(&self) -> Option<Vec<bool>> {
        (self.errors == Errors::Mask).then(|| self.items.iter().map(Option::is_none).collect())
    }
}

/// The positions of a sequence of FENs or boards (a single FEN or board counts as a sequence of
/// one). Under `Errors::Raise`, the first bad one raises naming its place: `fens[17]: bad FEN …`.
pub(crate) fn oriented_many(py: Python<'_>, fens: &Bound<'_, PyAny>, errors: Errors) -> PyResult<Batch> {
    let single = fens.is_instance_of::<PyString>()
        || fens.hasattr(intern!(py, "fen"))?
        || fens.hasattr(intern!(py, "kings"))?;
    let mut given_all: Vec<Option<Given>> =
        Vec::with_capacity(if single { 1 } else { fens.len().unwrap_or(0) });
    if single {
        given_all.push(Some(given(fens).map_err(|e| at(py, 0, e))?));
    } else {
        let iter = fens.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "fens must be a FEN, a board or an iterable of them, got {}",
                fens.get_type().name().map_or("?".to_string(), |n| n.to_string())
            ))
        })?;
        for (i, item) in iter.enumerate() {
            match given(&item?) {
                Ok(g) => given_all.push(Some(g)),
                Err(_) if errors == Errors::Mask => given_all.push(None),
                Err(e) => return Err(at(py, i, e)),
            }
        }
    }
    let parsed: Vec<Option<Result<Oriented, String>>> = py.detach(|| {
        given_all
            .into_par_iter()
            .map(|g| {
                g.map(|g| match g {
                    Given::Read(o) => Ok(o),
                    Given::Text(t) => parse_fen(&t),
                })
            })
            .collect()
    });
    let mut items = Vec::with_capacity(parsed.len());
    for (i, r) in parsed.into_iter().enumerate() {
        match r {
            Some(Ok(o)) => items.push(Some(o)),
            Some(Err(_)) | None if errors == Errors::Mask => items.push(None),
            Some(Err(e)) => return Err(value_error(format!("fens[{i}]: {e}"))),
            None => unreachable!("a bad item is kept only under errors='mask'"),
        }
    }
    Ok(Batch { items, errors })
}

/// `err` with the place of the item that caused it prefixed to its message.
fn at(py: Python<'_>, i: usize, err: PyErr) -> PyErr {
    let message = err.value(py).to_string();
    if err.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(format!("fens[{i}]: {message}"))
    } else {
        value_error(format!("fens[{i}]: {message}"))
    }
}

/// `array` as a NumPy masked array under `errors="mask"` (`mask` given: true where an item was
/// bad, a matrix's whole row), its masked items holding a fill value no answer takes
/// (`kpk._masked`); `array` itself under `errors="raise"`.
pub(crate) fn masked<'py>(
    py: Python<'py>,
    array: Bound<'py, PyAny>,
    mask: Option<&[bool]>,
) -> PyResult<Bound<'py, PyAny>> {
    let Some(mask) = mask else { return Ok(array) };
    let helper = py.import(intern!(py, "kpk._masked"))?.getattr(intern!(py, "masked"))?;
    helper.call1((array, mask.to_vec()))
}

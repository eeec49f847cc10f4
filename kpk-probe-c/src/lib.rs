//! The C ABI of `kpk-probe` (header: `include/kpk.h`). A model is an opaque pointer owned by the
//! caller: load it once, probe from any number of threads, free it once. There is no global state.
//! No function panics across the boundary: bad arguments give a negative result, and each body
//! runs under `guard`, so even a defect in the library ends as [`KPK_INTERNAL`] instead of
//! unwinding into C.

use kpk_probe::{Color, DtzModel, Model, Outcome, Position, Source, Square};
use std::ffi::{CStr, c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The position's result is a draw.
pub const KPK_DRAW: c_int = 0;
/// The pawn side wins.
pub const KPK_WIN: c_int = 1;
/// The squares or FEN do not make a legal KPK position.
pub const KPK_ILLEGAL: c_int = -1;
/// A null pointer or a square outside 0..64.
pub const KPK_BAD_ARGUMENT: c_int = -2;
/// A defect in the library (it panicked); never expected, reported rather than unwound into C.
pub const KPK_INTERNAL: c_int = -3;

/// Run `body`, turning a panic into `on_panic`: unwinding out of an `extern "C"` function aborts
/// the caller's process.
fn guard<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(on_panic)
}

/// Decode a model file from `len` bytes at `bytes`. Returns null if the bytes are not a valid
/// model (or `bytes` is null). Free the model with [`kpk_model_free`].
///
/// # Safety
/// `bytes` must point to `len` readable bytes (or be null).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kpk_model_load(bytes: *const u8, len: usize) -> *mut Model {
    if bytes.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the caller promises `len` readable bytes at `bytes`.
    let slice = unsafe { std::slice::from_raw_parts(bytes, len) };
    guard(std::ptr::null_mut(), || match Model::from_bytes(slice) {
        Ok(m) => Box::into_raw(Box::new(m)),
        Err(_) => std::ptr::null_mut(),
    })
}

/// Free a model from [`kpk_model_load`]; null is ignored.
///
/// # Safety
/// `model` must come from `kpk_model_load` and not be used or freed again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kpk_model_free(model: *mut Model) {
    if !model.is_null() {
        // SAFETY: the pointer came from Box::into_raw in kpk_model_load.
        drop(unsafe { Box::from_raw(model) });
    }
}

fn encode(outcome: Outcome, source: Source, from_exception: *mut c_int) -> c_int {
    if !from_exception.is_null() {
        // SAFETY: checked non-null; the caller promises it is writable.
        unsafe { *from_exception = c_int::from(source == Source::Exception) };
    }
    match outcome {
        Outcome::Win => KPK_WIN,
        Outcome::Draw => KPK_DRAW,
    }
}

/// Probe by squares (`a1 = 0, b1 = 1, …, h8 = 63`): `KPK_WIN`, `KPK_DRAW` (from the pawn side's
/// point of view), `KPK_ILLEGAL`, `KPK_BAD_ARGUMENT` (or `KPK_INTERNAL`). If `from_exception` is
/// not null it receives 1 when the answer came from the exception table, 0 otherwise (the net, the
/// tree or the one-ply rule).
///
/// # Safety
/// `model` must come from `kpk_model_load`; `from_exception` must be null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kpk_probe(
    model: *const Model,
    white_king: c_int,
    black_king: c_int,
    pawn: c_int,
    pawn_is_black: c_int,
    black_to_move: c_int,
    from_exception: *mut c_int,
) -> c_int {
    // SAFETY: the caller passes a model from kpk_model_load (or null, refused here).
    let Some(model) = (unsafe { model.as_ref() }) else { return KPK_BAD_ARGUMENT };
    let square = |s: c_int| u8::try_from(s).ok().and_then(Square::new);
    let (Some(wk), Some(bk), Some(p)) = (square(white_king), square(black_king), square(pawn)) else {
        return KPK_BAD_ARGUMENT;
    };
    let color = |black: c_int| if black != 0 { Color::Black } else { Color::White };
    guard(KPK_INTERNAL, || match model.probe_squares(wk, bk, p, color(pawn_is_black), color(black_to_move)) {
        Ok(a) => encode(a.outcome, a.source, from_exception),
        Err(_) => KPK_ILLEGAL,
    })
}

/// Probe a FEN (a NUL-terminated string): as [`kpk_probe`]; a FEN that is not KPK, not
/// well-formed or not UTF-8 gives `KPK_ILLEGAL`.
///
/// # Safety
/// `model` must come from `kpk_model_load`; `fen` must be a NUL-terminated string;
/// `from_exception` must be null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kpk_probe_fen(
    model: *const Model,
    fen: *const c_char,
    from_exception: *mut c_int,
) -> c_int {
    // SAFETY: as documented above.
    let Some(model) = (unsafe { model.as_ref() }) else { return KPK_BAD_ARGUMENT };
    if fen.is_null() {
        return KPK_BAD_ARGUMENT;
    }
    // SAFETY: the caller promises a NUL-terminated string.
    let Ok(text) = (unsafe { CStr::from_ptr(fen) }).to_str() else { return KPK_ILLEGAL };
    guard(KPK_INTERNAL, || match model.probe_fen(text) {
        Ok(a) => encode(a.outcome, a.source, from_exception),
        Err(_) => KPK_ILLEGAL,
    })
}

/// Decode a DTZ model file (`KPKZ`) from `len` bytes at `bytes`. Returns null if the bytes are not
/// a valid DTZ model (or `bytes` is null). Free it with [`kpk_dtz_model_free`].
///
/// # Safety
/// `bytes` must point to `len` readable bytes (or be null).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kpk_dtz_model_load(bytes: *const u8, len: usize) -> *mut DtzModel {
    if bytes.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the caller promises `len` readable bytes at `bytes`.
    let slice = unsafe { std::slice::from_raw_parts(bytes, len) };
    guard(std::ptr::null_mut(), || match DtzModel::from_bytes(slice) {
        Ok(m) => Box::into_raw(Box::new(m)),
        Err(_) => std::ptr::null_mut(),
    })
}

/// Free a DTZ model from [`kpk_dtz_model_load`]; null is ignored.
///
/// # Safety
/// `model` must come from `kpk_dtz_model_load` and not be used or freed again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kpk_dtz_model_free(model: *mut DtzModel) {
    if !model.is_null() {
        // SAFETY: the pointer came from Box::into_raw in kpk_dtz_model_load.
        drop(unsafe { Box::from_raw(model) });
    }
}

/// Syzygy's DTZ by squares: plies to the next pawn move or capture, positive when the side to
/// move wins, negative when it loses, 0 in a draw; written to `*dtz`. Returns 0, `KPK_ILLEGAL`,
/// `KPK_BAD_ARGUMENT` (a null pointer, a square outside 0..64) or `KPK_INTERNAL`.
///
/// # Safety
/// `model` must come from `kpk_dtz_model_load`; `dtz` must be null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kpk_probe_dtz(
    model: *const DtzModel,
    white_king: c_int,
    black_king: c_int,
    pawn: c_int,
    pawn_is_black: c_int,
    black_to_move: c_int,
    dtz: *mut c_int,
) -> c_int {
    // SAFETY: the caller passes a model from kpk_dtz_model_load (or null, refused here).
    let Some(model) = (unsafe { model.as_ref() }) else { return KPK_BAD_ARGUMENT };
    if dtz.is_null() {
        return KPK_BAD_ARGUMENT;
    }
    let square = |s: c_int| u8::try_from(s).ok().and_then(Square::new);
    let (Some(wk), Some(bk), Some(p)) = (square(white_king), square(black_king), square(pawn)) else {
        return KPK_BAD_ARGUMENT;
    };
    let color = |black: c_int| if black != 0 { Color::Black } else { Color::White };
    guard(KPK_INTERNAL, || match Position::oriented(wk, bk, p, color(pawn_is_black), color(black_to_move)) {
        Ok((pos, _)) => {
            // SAFETY: checked non-null; the caller promises it is writable.
            unsafe { *dtz = c_int::from(model.dtz(&pos)) };
            0
        }
        Err(_) => KPK_ILLEGAL,
    })
}

#[cfg(test)]
#[path = "../../tests/fen_corpus/mod.rs"]
mod fen_corpus;
#[cfg(test)]
mod tests;

//! The C ABI against the chess core it wraps: the same verdict on every string of the shared FEN
//! corpus (`tests/fen_corpus`), called as C calls it; tests/fen_verdicts.rs carries the core's
//! verdicts on to the Python reader and `kpk probe`.

use super::*;
use std::ffi::CString;

fn model() -> *mut Model {
    let bytes = include_bytes!("../../models/kpk.hybrid");
    // SAFETY: a slice's pointer and length.
    let m = unsafe { kpk_model_load(bytes.as_ptr(), bytes.len()) };
    assert!(!m.is_null());
    m
}

/// The core's verdict on bytes given as a C string: up to the first NUL, UTF-8, then the FEN.
fn core_verdict(model: &Model, bytes: &[u8]) -> (c_int, c_int) {
    let text = bytes.split(|&b| b == 0).next().unwrap_or_default();
    match std::str::from_utf8(text).map(|s| model.probe_fen(s)) {
        Ok(Ok(a)) => (
            if a.outcome == Outcome::Win { KPK_WIN } else { KPK_DRAW },
            c_int::from(a.source == Source::Exception),
        ),
        _ => (KPK_ILLEGAL, -1),
    }
}

#[test]
fn the_c_abi_and_the_core_agree_on_every_string_of_the_corpus() {
    let m = model();
    let corpus = fen_corpus::corpus();
    let (mut accepted, mut not_utf8) = (0, 0);
    for bytes in &corpus {
        let text = bytes.split(|&b| b == 0).next().unwrap_or_default();
        let c = CString::new(text).expect("no NUL before the first");
        let mut from_exception = -1;
        // SAFETY: a model from kpk_model_load, a NUL-terminated string, a writable int.
        let got = unsafe { kpk_probe_fen(m, c.as_ptr(), &mut from_exception) };
        // SAFETY: the model is live.
        let want = core_verdict(unsafe { &*m }, bytes);
        assert_eq!((got, from_exception), want, "{:?}", String::from_utf8_lossy(bytes));
        accepted += usize::from(got >= 0);
        not_utf8 += usize::from(std::str::from_utf8(text).is_err());
    }
    // The corpus reaches both verdicts and the UTF-8 check.
    assert!(accepted > corpus.len() / 10 && accepted < corpus.len() * 9 / 10, "{accepted} accepted");
    assert!(not_utf8 > 50, "{not_utf8} not UTF-8");
    // SAFETY: from kpk_model_load, freed once.
    unsafe { kpk_model_free(m) };
}

#[test]
fn a_first_rank_of_33_eights_is_refused() {
    let m = model();
    for eights in [31, 32, 33, 34, 64, 256, 257] {
        let fen = CString::new(format!("{}/8/8/8/8/1K6/1P6/6k1 w", "8".repeat(eights))).unwrap();
        // SAFETY: as above; a null from_exception is allowed.
        let got = unsafe { kpk_probe_fen(m, fen.as_ptr(), std::ptr::null_mut()) };
        assert_eq!(got, KPK_ILLEGAL, "{eights} eights");
    }
    // SAFETY: from kpk_model_load, freed once.
    unsafe { kpk_model_free(m) };
}

#[test]
fn bad_arguments_are_refused_not_dereferenced() {
    let m = model();
    let fen = CString::new("8/8/8/8/8/1K6/1P6/6k1 w").unwrap();
    // SAFETY: null pointers are documented as refused.
    unsafe {
        assert_eq!(kpk_probe_fen(std::ptr::null(), fen.as_ptr(), std::ptr::null_mut()), KPK_BAD_ARGUMENT);
        assert_eq!(kpk_probe_fen(m, std::ptr::null(), std::ptr::null_mut()), KPK_BAD_ARGUMENT);
        assert_eq!(kpk_probe(m, 64, 6, 9, 0, 0, std::ptr::null_mut()), KPK_BAD_ARGUMENT);
        assert_eq!(kpk_probe(m, 17, -1, 9, 0, 0, std::ptr::null_mut()), KPK_BAD_ARGUMENT);
        assert_eq!(kpk_probe(m, 17, 6, 9, 0, 0, std::ptr::null_mut()), KPK_WIN);
        assert_eq!(kpk_probe(m, 17, 6, 1, 0, 0, std::ptr::null_mut()), KPK_ILLEGAL);
        assert!(kpk_model_load(std::ptr::null(), 0).is_null());
        kpk_model_free(m);
    }
}

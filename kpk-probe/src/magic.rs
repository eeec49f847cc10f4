//! The magics of kpk's file formats, so that a file of another kind is named by its kind
//! ("not a kpk DTZ model: this is a kpk hybrid model") rather than called a bad file.

/// The kind of kpk file that starts with `magic`, by the formats' magics.
#[must_use]
pub fn kind_of(magic: &[u8]) -> Option<&'static str> {
    match magic.get(..4)? {
        b"KPKH" => Some("kpk hybrid model"),
        b"KPKZ" => Some("kpk DTZ model"),
        b"KPKP" => Some("kpk play model"),
        b"KPKB" => Some("kpk bitbase file"),
        b"KRKD" => Some("kpk KRK model"),
        _ => None,
    }
}

/// Why a file that starts with `found` is not one that starts with `expected`.
#[must_use]
pub fn not_a(expected: &[u8], found: &[u8]) -> alloc::string::String {
    let want = kind_of(expected).unwrap_or("kpk file");
    match kind_of(found) {
        Some(kind) => alloc::format!("not a {want}: this is a {kind}"),
        None => alloc::format!("not a {want} (bad magic)"),
    }
}

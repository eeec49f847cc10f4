//! The bitbase's exact bits: hashes of the outcome bit, the DTC byte and the DTZ of every one of
//! the 196,608 indices, recorded from the generator every committed report was written with. Any
//! change to the retrograde solver must leave them unchanged.

use kpk::chess::bitbase::Bitbase;
use kpk::chess::index::KpkIndex;

/// FNV-1a over bytes.
fn fnv(bytes: impl Iterator<Item = u8>) -> u64 {
    bytes.fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn hashes(bb: &Bitbase) -> [u64; 3] {
    let win = fnv(bb.win_bits().iter().flat_map(|w| w.to_le_bytes()));
    let dtc = fnv(KpkIndex::all().map(|i| bb.dtc_at(i).map_or(0, |d| d.0)));
    let dtz = fnv(KpkIndex::all().map(|i| bb.dtz_at(i) as u8));
    [win, dtc, dtz]
}

#[test]
fn outcome_dtc_and_dtz_of_every_index_are_unchanged() {
    let got = hashes(&Bitbase::generate());
    assert_eq!(got, GOLDEN);
}

#[test]
fn a_loaded_bitbase_has_the_same_bits() {
    let bb = Bitbase::generate();
    let loaded = Bitbase::from_bytes(&bb.to_bytes(), "golden").unwrap();
    assert_eq!(hashes(&loaded), GOLDEN);
}

const GOLDEN: [u64; 3] = [0x676c_4e48_208f_a285, 0x19ae_411b_a915_c29b, 0x8087_b05c_01d1_c2d7];

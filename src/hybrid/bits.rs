//! Bit-level writer for the model file's payload, and the Rice code; the reader is
//! [`kpk_probe::bits`]'s, which owns the layout.
//!
//! Bits are packed least-significant first within each byte. A Rice code with parameter `k`
//! writes `v >> k` in unary (that many 1-bits, then a 0-bit) followed by the low `k` bits of
//! `v`; signed values are zig-zag mapped first (0, −1, 1, −2, … → 0, 1, 2, 3, …).

use kpk_probe::bits::zigzag;

#[derive(Default)]
pub struct BitWriter {
    bytes: Vec<u8>,
    bits: usize,
}

impl BitWriter {
    pub fn new() -> BitWriter {
        BitWriter::default()
    }

    pub fn bit(&mut self, b: bool) {
        if self.bits % 8 == 0 {
            self.bytes.push(0);
        }
        if b {
            *self.bytes.last_mut().expect("pushed above") |= 1 << (self.bits % 8);
        }
        self.bits += 1;
    }

    /// The low `n` bits of `v`, least significant first.
    pub fn bits(&mut self, v: u64, n: u32) {
        for i in 0..n {
            self.bit(v >> i & 1 == 1);
        }
    }

    pub fn rice(&mut self, v: u64, k: u32) {
        for _ in 0..v >> k {
            self.bit(true);
        }
        self.bit(false);
        self.bits(v, k);
    }

    pub fn rice_signed(&mut self, v: i64, k: u32) {
        self.rice(zigzag(v), k);
    }

    /// Number of bits written so far.
    pub fn len(&self) -> usize {
        self.bits
    }

    pub fn is_empty(&self) -> bool {
        self.bits == 0
    }

    /// The bytes, the last one padded with 0-bits.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Length in bits of the Rice code of `v` with parameter `k`.
pub fn rice_len(v: u64, k: u32) -> u64 {
    (v >> k) + 1 + u64::from(k)
}

/// The Rice parameter (0..=24) that codes `values` in the fewest bits, and that number of bits.
pub fn best_rice(values: impl Iterator<Item = u64> + Clone) -> (u32, u64) {
    (0..=24u32)
        .map(|k| (k, values.clone().map(|v| rice_len(v, k)).sum::<u64>()))
        .min_by_key(|&(k, bits)| (bits, k))
        .expect("non-empty range")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpk_probe::bits::{BitError, BitReader, unzigzag};

    #[test]
    fn zigzag_round_trips() {
        for v in -1000..1000 {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        assert_eq!([0, -1, 1, -2, 2].map(zigzag), [0, 1, 2, 3, 4]);
        assert_eq!(unzigzag(zigzag(i64::MIN)), i64::MIN);
    }

    #[test]
    fn rice_round_trips_and_lengths_match() {
        let mut w = BitWriter::new();
        let values: Vec<(u64, u32)> = (0..300).map(|i| ((i * 37 % 101) as u64, (i % 6) as u32)).collect();
        let mut expected_len = 0;
        for &(v, k) in &values {
            w.rice(v, k);
            expected_len += rice_len(v, k);
        }
        w.rice_signed(-17, 3);
        assert_eq!(w.len() as u64, expected_len + rice_len(zigzag(-17), 3));
        let bytes = w.into_bytes();
        let mut r = BitReader::new(&bytes);
        for &(v, k) in &values {
            assert_eq!(r.rice(k).unwrap(), v);
        }
        assert_eq!(r.rice_signed(3).unwrap(), -17);
        assert!(r.at_padded_end());
        assert_eq!(BitReader::new(&[0xFF]).rice(0), Err(BitError::Truncated));
    }

    #[test]
    fn best_rice_is_the_minimum() {
        let v = [3u64, 9, 14, 2, 30, 7];
        let (k, bits) = best_rice(v.iter().copied());
        for kk in 0..=24 {
            assert!(v.iter().map(|&x| rice_len(x, kk)).sum::<u64>() >= bits);
        }
        assert_eq!(v.iter().map(|&x| rice_len(x, k)).sum::<u64>(), bits);
    }
}

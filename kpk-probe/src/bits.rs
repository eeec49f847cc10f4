//! The bit stream's reader and the checksum.
//!
//! Bits are read least significant first within each byte, bytes in file order. A Rice code with
//! parameter `k` is the quotient `q = v >> k` in unary — `q` 1-bits, then one 0-bit — followed by
//! the remainder `v mod 2^k` in `k` bits, least significant bit first. A signed value `v` is
//! zig-zag mapped to `u = 2v` for `v ≥ 0` and `u = −2v − 1` for `v < 0` (0, −1, 1, −2, … →
//! 0, 1, 2, 3, …) before coding.

/// Largest quotient a Rice code may carry: far beyond any honest file, small enough that a
/// corrupt run of 1-bits is refused before it can overflow.
pub const MAX_QUOTIENT: u64 = 1 << 24;

/// Why the bit stream could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitError {
    /// The stream ended inside a value.
    Truncated,
    /// A value exceeded what the format allows.
    TooLarge,
}

/// Reads bits least significant first.
pub struct BitReader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> BitReader<'a> {
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, pos: 0 }
    }

    pub fn bit(&mut self) -> Result<bool, BitError> {
        let byte = self.bytes.get(self.pos / 8).ok_or(BitError::Truncated)?;
        let b = byte >> (self.pos % 8) & 1 == 1;
        self.pos += 1;
        Ok(b)
    }

    /// `n` bits as a number, the first read the least significant.
    pub fn bits(&mut self, n: u32) -> Result<u64, BitError> {
        let mut v = 0;
        for i in 0..n {
            v |= u64::from(self.bit()?) << i;
        }
        Ok(v)
    }

    pub fn rice(&mut self, k: u32) -> Result<u64, BitError> {
        let mut q = 0u64;
        while self.bit()? {
            q += 1;
            if q > MAX_QUOTIENT {
                return Err(BitError::TooLarge);
            }
        }
        Ok(q << k | self.bits(k)?)
    }

    pub fn rice_signed(&mut self, k: u32) -> Result<i64, BitError> {
        Ok(unzigzag(self.rice(k)?))
    }

    /// Bits consumed so far.
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// True when only zero padding (fewer than 8 bits) is left.
    #[must_use]
    pub fn at_padded_end(&self) -> bool {
        let total = self.bytes.len() * 8;
        total >= self.pos
            && total - self.pos < 8
            && (self.pos..total).all(|i| self.bytes[i / 8] >> (i % 8) & 1 == 0)
    }
}

/// The zig-zag map: 0, −1, 1, −2, 2, … → 0, 1, 2, 3, 4, …
#[must_use]
pub fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The inverse of [`zigzag`].
#[must_use]
pub fn unzigzag(u: u64) -> i64 {
    (u >> 1) as i64 ^ -((u & 1) as i64)
}

/// CRC-32 (IEEE 802.3, as zlib and PNG use it: reflected, polynomial 0xEDB88320, initial and final
/// XOR 0xFFFFFFFF); `crc32(b"123456789") == 0xCBF43926`.
///
/// Bit by bit, without the usual 1 KB table: model files are a few hundred bytes, and the table
/// would be the largest constant of a small decoder.
#[must_use]
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

impl core::fmt::Display for BitError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            BitError::Truncated => "the payload ends inside a value",
            BitError::TooLarge => "a coded value is out of range",
        })
    }
}

//! Reading files with the path in the error, and the CRC-32 checksum of the file formats.
//! Writing is [`crate::output`]'s.

use crate::error::{Error, Result};
use std::path::Path;

/// Read a whole file, with the path in the error.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|cause| Error::Io { path: path.display().to_string(), cause })
}

/// CRC-32 (IEEE 802.3, as zlib and PNG use it); the probe crate owns it.
pub use kpk_probe::bits::crc32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }
}

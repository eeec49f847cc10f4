//! Reading files with the path in the error and a size cap checked as they are read. The file
//! formats' CRC-32 is the probe crate's (`kpk_probe::bits::crc32`); writing is [`crate::output`]'s.
//!
//! Every file kpk reads has a cap (docs/CLI.md lists them): a larger file, or an endless one
//! such as `/dev/zero`, is refused after reading at most one byte more than the cap, never read
//! whole into memory.

use crate::error::{Error, Result};
use std::io::Read;
use std::path::Path;

const MIB: u64 = 1 << 20;

/// The most kpk reads from one data file: a model, saved weights, a CSV, a JSON record, a
/// bitbase. What kpk writes and reads back is far smaller (`reports/readings/replicates.csv`,
/// 1.3 MiB, is the largest committed); a `weights.json` reaches the cap at about 2.5 million
/// weights, 500 times Table 5's largest net.
pub const MAX_FILE_BYTES: u64 = 64 * MIB;
/// The most kpk reads from a config (TOML): a trial, a study, the compress config.
pub const MAX_CONFIG_BYTES: u64 = MIB;
/// The longest line kpk reads from standard input (`kpk query --stdin`); a FEN is under 100 bytes.
pub const MAX_LINE_BYTES: u64 = MIB;

/// A size as docs/CLI.md states it: `64 MiB`, `1 MiB`.
pub fn size_text(bytes: u64) -> String {
    if bytes % MIB == 0 { format!("{} MiB", bytes / MIB) } else { format!("{bytes} bytes") }
}

/// Read a whole data file, at most [`MAX_FILE_BYTES`], with the path in the error.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    read_capped(path, MAX_FILE_BYTES)
}

/// Read a whole file of at most `cap` bytes, with the path in the error. A regular file's size is
/// checked before reading; anything else (a pipe, a device) is read up to `cap + 1` bytes.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>> {
    let io = |cause| Error::Io { path: path.display().to_string(), cause };
    let too_big = || Error::Format {
        path: path.display().to_string(),
        message: format!("larger than {}, the most kpk reads from such a file", size_text(cap)),
    };
    let file = std::fs::File::open(path).map_err(io)?;
    if file.metadata().is_ok_and(|m| m.is_file() && m.len() > cap) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Read a config file (at most [`MAX_CONFIG_BYTES`]) as UTF-8 text.
pub fn read_config(path: &Path) -> Result<String> {
    String::from_utf8(read_capped(path, MAX_CONFIG_BYTES)?)
        .map_err(|_| Error::Format { path: path.display().to_string(), message: "not UTF-8 text".into() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpk_probe::bits::crc32;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn an_endless_file_is_refused_at_the_cap() {
        let e = read_capped(Path::new("/dev/zero"), 1000).unwrap_err().to_string();
        assert_eq!(e, "/dev/zero: larger than 1000 bytes, the most kpk reads from such a file");
        let s = crate::scratch::Scratch::new("cap");
        let path = s.join("f");
        std::fs::write(&path, [7u8; 1001]).unwrap();
        assert!(read_capped(&path, 1000).is_err());
        assert_eq!(read_capped(&path, 1001).unwrap().len(), 1001);
    }
}

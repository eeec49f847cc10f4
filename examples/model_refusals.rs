//! Which damaged copies of the shipped win/draw and DTZ models kpk-probe refuses, and why, for the
//! one-file C reader's test (`tests/c/reader.c`): one line per copy, `file byte value verdict`,
//! where the copy has byte `byte` set to `value` and its checksum recomputed (so that the fields'
//! own checks are reached), and `verdict` is `ok` or the error's name (`bad-magic`, `truncated`,
//! `version`, `length`, `checksum`, `bit-stream`, `invalid`, `net`). Every byte of the win/draw
//! model before its checksum is set to four values (its bits 0 and 7 flipped, 0 and 255); of the
//! DTZ model, which takes longer to load, the bytes outside the embedded win/draw model that hold
//! its header, its fields, the first 16 bytes of its bit stream and the last 16, to two (bits 0
//! and 7 flipped).
//!
//! `cargo run --release --example model_refusals > refusals.txt`

use kpk_probe::model::FormatError;
use std::io::Write;

fn name(r: Result<(), FormatError>) -> &'static str {
    match r {
        Ok(()) => "ok",
        Err(FormatError::BadMagic { .. }) => "bad-magic",
        Err(FormatError::Truncated) => "truncated",
        Err(FormatError::Version(_)) => "version",
        Err(FormatError::Length { .. }) => "length",
        Err(FormatError::Checksum) => "checksum",
        Err(FormatError::Invalid(_)) => "invalid",
        Err(FormatError::Net(_)) => "net",
        Err(FormatError::Stream(_)) => "bit-stream",
    }
}

fn main() -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for file in ["kpk.hybrid", "kpk-dtz.hybrid"] {
        let bytes = std::fs::read(format!("models/{file}"))?;
        let body = bytes.len() - 4;
        let dtz = file != "kpk.hybrid";
        let fields = 11 + usize::from(u16::from_le_bytes([bytes[9], bytes[10]]));
        let tried = |at: usize| !dtz || at < 11 || (fields..fields + 22).contains(&at) || at + 16 >= body;
        for at in (0..body).filter(|&at| tried(at)) {
            let values = [bytes[at] ^ 1, bytes[at] ^ 0x80, 0, 255];
            for &value in &values[..if dtz { 2 } else { 4 }] {
                let mut copy = bytes.clone();
                copy[at] = value;
                let crc = kpk_probe::bits::crc32(&copy[..body]);
                copy[body..].copy_from_slice(&crc.to_le_bytes());
                let verdict = if dtz {
                    name(kpk_probe::DtzModel::from_bytes(&copy).map(|_| ()))
                } else {
                    name(kpk_probe::Model::from_bytes(&copy).map(|_| ()))
                };
                writeln!(out, "{file} {at} {value} {verdict}")?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

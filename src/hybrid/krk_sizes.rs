//! The KRK model's size figures (reports/krk_model.json): the file's parts, and the two
//! baselines it is measured against, the table packed at the data set's symmetry and `xz -9e`
//! of that packing.
//!
//! # The packings
//!
//! One entry per class of the eight board symmetries, the UCI set's representative
//! ([`crate::dataset::krk::is_uci_canonical`]), in the order white king, rook, black king
//! (squares a1 = 0 … h8 = 63), each entry `bits` wide, least significant bit first:
//!
//! * **White to move**: the model's stored positions, the value White's DTM in moves (0 a draw);
//! * **Black to move**: the UCI set's 28,056 positions, the value its class (0 `draw`, 1 `zero`,
//!   …, 17 `sixteen`).
//!
//! Each is also compressed whole by liblzma at preset 9 with the extreme flag (`xz -9e`: the
//! `.xz` container, CRC-64 check), in-process by the xz2 crate pinned in Cargo.toml with its
//! bundled liblzma, so that the figure is the same on every machine; and, since LZMA works on
//! bytes, the same values one byte an entry are compressed likewise.

use super::value_tree::Candidate;
use crate::chess::dtm::Tables;
use crate::dataset::krk::{KrkPosition, is_uci_canonical, uci_class};
use crate::error::{Error, Result};
use crate::hybrid::bits::BitWriter;
use serde::{Deserialize, Serialize};
use std::io::Write;

/// The liblzma preset of `xz -9e`: level 9, extreme.
const XZ_PRESET: u32 = 9 | 0x8000_0000;
/// The compressor, as the JSON names it.
pub const XZ_NAME: &str = "xz2 0.1.7, lzma-sys 0.1.20, -9e";

/// One packing of the table and its compressed sizes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Packing {
    pub entries: usize,
    pub bits_per_entry: u32,
    /// `⌈entries × bits_per_entry / 8⌉`.
    pub packed_bytes: usize,
    /// `xz -9e` of the packed bits.
    pub xz_packed_bytes: usize,
    /// `xz -9e` of the values one byte an entry.
    pub xz_byte_bytes: usize,
}

/// One candidate of the frontier, as the JSON keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrontierPoint {
    pub correction_cost_bits: f64,
    pub bytes: usize,
    pub leaves: usize,
    pub corrections: usize,
    pub exact: bool,
}

/// The figures `kpk compress-krk` writes: the model chosen (the smallest exact candidate), its
/// parts, the baselines and the frontier.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KrkModelResults {
    pub model: String,
    pub model_bytes: usize,
    /// The fixed fields: magic, version, length, leaf width, correction count, two Rice
    /// parameters, CRC-32.
    pub header_bytes: usize,
    pub tree_bits: u64,
    pub tree_leaves: usize,
    pub corrections: usize,
    pub correction_bits: u64,
    /// Tree and corrections share one bit stream; these are its padded bytes.
    pub stream_bytes: usize,
    pub stored_positions: usize,
    /// Legal KRK positions, both sides to move, on which the model was checked (every one exact).
    pub positions_checked: usize,
    pub white_to_move: Packing,
    pub black_to_move: Packing,
    pub compressor: String,
    pub frontier: Vec<FrontierPoint>,
}

/// `xz -9e` of `bytes`: the compressed length.
pub fn xz_len(bytes: &[u8]) -> Result<usize> {
    let stream = xz2::stream::Stream::new_easy_encoder(XZ_PRESET, xz2::stream::Check::Crc64)
        .map_err(|e| Error::Internal(format!("liblzma: {e}")))?;
    let mut enc = xz2::write::XzEncoder::new_stream(Vec::new(), stream);
    enc.write_all(bytes)
        .and_then(|()| enc.finish())
        .map(|v| v.len())
        .map_err(|e| Error::Internal(e.to_string()))
}

/// Pack `values` `bits` wide and measure both compressions.
fn packing(values: &[u8], bits: u32) -> Result<Packing> {
    let mut w = BitWriter::new();
    values.iter().for_each(|&v| w.bits(u64::from(v), bits));
    let packed = w.into_bytes();
    Ok(Packing {
        entries: values.len(),
        bits_per_entry: bits,
        packed_bytes: packed.len(),
        xz_packed_bytes: xz_len(&packed)?,
        xz_byte_bytes: xz_len(values)?,
    })
}

/// The two tables at the data set's symmetry (module documentation), as values.
fn table_values(tables: &Tables) -> Result<(Vec<u8>, Vec<u8>)> {
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for p in KrkPosition::all().filter(|p| is_uci_canonical(p.wk, p.wr, p.bk)) {
        let d = p.dtm(tables);
        if p.white_to_move {
            white.push(if d.wdl == 1 { d.plies.div_ceil(2) as u8 } else { 0 });
        } else {
            black.push(uci_class(d)? as u8);
        }
    }
    Ok((white, black))
}

/// Bits for values `0..=most`.
fn width(values: &[u8]) -> u32 {
    u32::BITS - u32::from(values.iter().copied().max().unwrap_or(0)).leading_zeros()
}

impl KrkModelResults {
    /// The figures of the chosen candidate `chosen` of `frontier`, written to `model`.
    pub fn measure(
        model: &str,
        frontier: &[Candidate],
        chosen: usize,
        tables: &Tables,
    ) -> Result<KrkModelResults> {
        let c = &frontier[chosen];
        let (white, black) = table_values(tables)?;
        let header_bytes = 19;
        Ok(KrkModelResults {
            model: model.to_string(),
            model_bytes: c.bytes.len(),
            header_bytes,
            tree_bits: c.tree_bits,
            tree_leaves: c.leaves,
            corrections: c.corrections,
            correction_bits: c.correction_bits,
            stream_bytes: c.bytes.len() - header_bytes,
            stored_positions: kpk_probe::krk::stored_positions().len(),
            positions_checked: KrkPosition::all().count(),
            white_to_move: packing(&white, width(&white))?,
            black_to_move: packing(&black, width(&black))?,
            compressor: XZ_NAME.to_string(),
            frontier: frontier
                .iter()
                .map(|c| FrontierPoint {
                    correction_cost_bits: c.c,
                    bytes: c.bytes.len(),
                    leaves: c.leaves,
                    corrections: c.corrections,
                    exact: c.wrong == 0,
                })
                .collect(),
        })
    }

    /// The figures as pretty JSON with a final line end.
    pub fn to_json(&self) -> Result<String> {
        Ok(serde_json::to_string_pretty(self).map_err(|e| Error::Internal(e.to_string()))? + "\n")
    }
}

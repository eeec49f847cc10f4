#![doc = include_str!("format.md")]

use super::Hybrid;
use super::bits::{BitReader, BitWriter, best_rice, zigzag};
use super::exceptions::{ExceptionSet, gaps, read_sorted, write_sorted};
use super::inputs::InputFunction;
use super::quant::{MAX_MAGNITUDE, MAX_WIDTH, QuantLayer, QuantNet};
use crate::chess::index::KpkIndex;
use crate::error::{Error, Result};
use std::path::Path;

/// The format's description (also printed in reports/COMPRESSION.md).
pub const FORMAT_DOC: &str = include_str!("format.md");

pub const MAGIC: &[u8; 4] = b"KPKH";
pub const VERSION: u8 = 1;
/// Most layers a file may hold.
pub const MAX_LAYERS: usize = 8;
const CRC_LEN: usize = 4;
/// Magic, version, length.
const PREAMBLE_LEN: usize = 4 + 1 + 4;
const LAYER_HEADER_LEN: usize = 4;
const EXCEPTION_HEADER_LEN: usize = 4;
/// Bit of the exception header's parameter byte set when exceptions are numbered by confidence.
const CONFIDENCE_ORDER: u8 = 0x80;

/// Where the bytes of a model file go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// The net: its layer headers and its coded weights and biases (bits rounded up).
    pub net: usize,
    /// The exception table: its count, parameter and coded gaps (bits rounded up).
    pub exceptions: usize,
    /// Magic, version, length, input function, layer count, padding and checksum.
    pub overhead: usize,
    /// The file length: `net + exceptions + overhead`.
    pub total: usize,
}

struct Encoded {
    bytes: Vec<u8>,
    sizes: Sizes,
}

/// How the exception table numbers its entries (see the exceptions module).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExceptionOrder {
    /// By position index.
    Index,
    /// By rank in the net's confidence order.
    Confidence,
}

fn encode(h: &Hybrid, order: ExceptionOrder) -> Encoded {
    let layers = h.net.layers();
    let mut header = Vec::new();
    let mut payload = BitWriter::new();
    for layer in layers {
        let (kw, _) = best_rice(layer.weights.iter().map(|&w| zigzag(w.into())));
        let (kb, _) = best_rice(layer.biases.iter().map(|&b| zigzag(b.into())));
        header.extend_from_slice(&[(layer.n_out - 1) as u8, layer.shift as u8, kw as u8, kb as u8]);
        for &w in &layer.weights {
            payload.rice_signed(w.into(), kw);
        }
        for &b in &layer.biases {
            payload.rice_signed(b.into(), kb);
        }
    }
    let net_bits = payload.len();
    let (values, flag) = match order {
        ExceptionOrder::Index => (h.exceptions.indices().to_vec(), 0),
        ExceptionOrder::Confidence => {
            let order = if h.exceptions.is_empty() { Vec::new() } else { h.confidence_order() };
            let ranks =
                (0..order.len() as u32).filter(|&r| h.exceptions.contains(order[r as usize])).collect();
            (ranks, CONFIDENCE_ORDER)
        }
    };
    let (ke, _) = best_rice(gaps(&values));
    let n = h.exceptions.len() as u32;
    header.extend_from_slice(&n.to_le_bytes()[..3]);
    header.push(ke as u8 | flag);
    write_sorted(&values, &mut payload, ke);
    let exception_bits = payload.len() - net_bits;
    let payload = payload.into_bytes();

    let total = PREAMBLE_LEN + h.input.to_bytes().len() + 1 + header.len() + payload.len() + CRC_LEN;
    let mut bytes = Vec::with_capacity(total);
    bytes.extend_from_slice(MAGIC);
    bytes.push(VERSION);
    bytes.extend_from_slice(&(total as u32).to_le_bytes());
    bytes.extend_from_slice(&h.input.to_bytes());
    bytes.push(layers.len() as u8);
    bytes.extend_from_slice(&header);
    bytes.extend_from_slice(&payload);
    let crc = crate::io::crc32(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(bytes.len(), total);

    let net = LAYER_HEADER_LEN * layers.len() + net_bits.div_ceil(8);
    let exceptions = EXCEPTION_HEADER_LEN + exception_bits.div_ceil(8);
    Encoded { sizes: Sizes { net, exceptions, overhead: total - net - exceptions, total }, bytes }
}

impl Hybrid {
    /// The model file's bytes, exceptions numbered by index. That is the default because the
    /// confidence numbering makes loading evaluate the net on every legal position (about
    /// 0.1 s), which costs more than the few bytes it saves on the nets we train.
    pub fn to_bytes(&self) -> Vec<u8> {
        encode(self, ExceptionOrder::Index).bytes
    }

    /// The model file with the exceptions numbered in `order`, and its sizes.
    pub fn to_bytes_in(&self, order: ExceptionOrder) -> (Vec<u8>, Sizes) {
        let e = encode(self, order);
        (e.bytes, e.sizes)
    }

    /// How the file's bytes divide between net, exceptions and overhead.
    pub fn sizes(&self) -> Sizes {
        encode(self, ExceptionOrder::Index).sizes
    }

    /// Write the model file atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::output::write_file(path, &self.to_bytes())
    }

    /// Load a model file.
    pub fn load(path: &Path) -> Result<Hybrid> {
        Hybrid::from_bytes(&crate::io::read(path)?, &path.display().to_string())
    }

    /// Parse a model file; `path` only names the file in errors.
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<Hybrid> {
        let bad = |message: String| Error::Format { path: path.to_string(), message };
        if bytes.len() < 4 || &bytes[..4] != MAGIC {
            return Err(bad("not a kpk hybrid model (bad magic)".into()));
        }
        if bytes.len() < PREAMBLE_LEN + 2 + CRC_LEN {
            return Err(bad(format!("file is {} bytes: truncated", bytes.len())));
        }
        if bytes[4] != VERSION {
            return Err(bad(format!("unsupported model format version {}, expected {VERSION}", bytes[4])));
        }
        let length = u32::from_le_bytes(bytes[5..9].try_into().expect("4 bytes")) as usize;
        if length != bytes.len() {
            return Err(bad(format!(
                "file is {} bytes but its header says {length}: truncated or padded",
                bytes.len()
            )));
        }
        let body = &bytes[..bytes.len() - CRC_LEN];
        let stored = u32::from_le_bytes(bytes[body.len()..].try_into().expect("4 bytes"));
        if crate::io::crc32(body) != stored {
            return Err(bad("checksum mismatch: the file is corrupt".into()));
        }
        // From here on the bytes are as written, unless written by something else: check anyway.
        let (input, used) = InputFunction::from_bytes(&body[PREAMBLE_LEN..]).map_err(bad)?;
        let layers_at = PREAMBLE_LEN + used + 1;
        let n_layers =
            *body.get(layers_at - 1).ok_or_else(|| bad("the layer count runs past the end".into()))? as usize;
        if !(1..=MAX_LAYERS).contains(&n_layers) {
            return Err(bad(format!("{n_layers} layers, expected 1..={MAX_LAYERS}")));
        }
        let headers_end = layers_at + LAYER_HEADER_LEN * n_layers + EXCEPTION_HEADER_LEN;
        if body.len() < headers_end {
            return Err(bad("headers run past the end of the file".into()));
        }
        let layer_headers: Vec<&[u8]> = body[layers_at..].chunks(LAYER_HEADER_LEN).take(n_layers).collect();
        let e = &body[headers_end - EXCEPTION_HEADER_LEN..headers_end];
        let n_exceptions = u32::from_le_bytes([e[0], e[1], e[2], 0]) as usize;
        let ke = u32::from(e[3] & !CONFIDENCE_ORDER);
        let by_confidence = e[3] & CONFIDENCE_ORDER != 0;

        let mut r = BitReader::new(&body[headers_end..]);
        let payload_err = |what: &str, e: super::bits::BitError| bad(format!("{what}: {e}"));
        let mut layers = Vec::with_capacity(n_layers);
        let mut n_in = input.width();
        for (l, h) in layer_headers.iter().enumerate() {
            let (n_out, shift, kw, kb) = (h[0] as usize + 1, h[1] as i8, u32::from(h[2]), u32::from(h[3]));
            if kw > 24 || kb > 24 || n_out > MAX_WIDTH {
                return Err(bad(format!("layer {l}: Rice parameter out of range")));
            }
            let mut read = |count: usize, k: u32, limit: i64| -> Result<Vec<i32>> {
                (0..count)
                    .map(|_| {
                        let v = r.rice_signed(k).map_err(|e| payload_err(&format!("layer {l}"), e))?;
                        if v.abs() > limit {
                            return Err(bad(format!("layer {l}: value {v} out of range")));
                        }
                        Ok(v as i32)
                    })
                    .collect()
            };
            let weights =
                read(n_out * n_in, kw, i64::from(i16::MAX))?.into_iter().map(|w| w as i16).collect();
            let biases = read(n_out, kb, MAX_MAGNITUDE)?;
            layers.push(QuantLayer { n_in, n_out, shift, weights, biases });
            n_in = n_out;
        }
        let net = QuantNet::new(layers, input.bound()).map_err(|e| bad(e.to_string()))?;
        if ke > 24 {
            return Err(bad("exception Rice parameter out of range".into()));
        }
        let exceptions = if by_confidence {
            // The net decides the order, so it is rebuilt first (it was checked above).
            let order = Hybrid::new(input, net.clone(), ExceptionSet::default())
                .map_err(|e| bad(e.to_string()))?
                .confidence_order();
            let ranks = read_sorted(&mut r, n_exceptions, ke, order.len())
                .map_err(|e| payload_err("exception table", e))?;
            ExceptionSet::new(ranks.iter().map(|&rank| order[rank as usize]).collect())
                .expect("legal indices")
        } else {
            ExceptionSet::read(&mut r, n_exceptions, ke).map_err(|e| payload_err("exception table", e))?
        };
        if !r.at_padded_end() {
            return Err(bad("the bit stream does not end where the file does".into()));
        }
        if let Some(&i) =
            exceptions.indices().iter().find(|&&i| KpkIndex::new(i).and_then(|i| i.position()).is_none())
        {
            return Err(bad(format!("exception {i} is not a legal position")));
        }
        Hybrid::new(input, net, exceptions).map_err(|e| bad(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hybrid::quant::QuantLayer;

    fn tiny() -> Hybrid {
        let l0 = QuantLayer {
            n_in: 7,
            n_out: 2,
            shift: 2,
            weights: (0..14).map(|i| i - 7).collect(),
            biases: vec![3, -40],
        };
        let l1 = QuantLayer { n_in: 2, n_out: 1, shift: 0, weights: vec![5, -9], biases: vec![17] };
        let net = QuantNet::new(vec![l0, l1], 8).unwrap();
        let legal: Vec<u32> = KpkIndex::all()
            .filter(|i| i.position().is_some())
            .map(|i| i.value() as u32)
            .step_by(997)
            .collect();
        Hybrid::new(InputFunction::Coordinates, net, ExceptionSet::new(legal).unwrap()).unwrap()
    }

    #[test]
    fn round_trips_and_sizes_add_up() {
        let h = tiny();
        let bytes = h.to_bytes();
        assert_eq!(Hybrid::from_bytes(&bytes, "t").unwrap(), h);
        let s = h.sizes();
        assert_eq!(s.total, bytes.len());
        assert_eq!(s.net + s.exceptions + s.overhead, s.total);
    }

    #[test]
    fn both_exception_orders_round_trip() {
        let h = tiny();
        let (by_index, si) = h.to_bytes_in(ExceptionOrder::Index);
        let (by_confidence, sc) = h.to_bytes_in(ExceptionOrder::Confidence);
        assert_ne!(by_index, by_confidence);
        assert_eq!(Hybrid::from_bytes(&by_index, "t").unwrap(), h);
        assert_eq!(Hybrid::from_bytes(&by_confidence, "t").unwrap(), h);
        assert_eq!(h.sizes(), si);
        assert_eq!(h.to_bytes(), by_index);
        assert_eq!((si.total, sc.total), (by_index.len(), by_confidence.len()));
    }

    #[test]
    fn every_flipped_byte_and_every_truncation_is_an_error() {
        for order in [ExceptionOrder::Index, ExceptionOrder::Confidence] {
            let bytes = tiny().to_bytes_in(order).0;
            for i in 0..bytes.len() {
                for mask in [0x01u8, 0x80, 0xFF] {
                    let mut b = bytes.clone();
                    b[i] ^= mask;
                    assert!(Hybrid::from_bytes(&b, "t").is_err(), "{order:?}: byte {i} ^ {mask:#x} accepted");
                }
            }
            for len in 0..bytes.len() {
                assert!(
                    Hybrid::from_bytes(&bytes[..len], "t").is_err(),
                    "{order:?}: truncated to {len} accepted"
                );
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(Hybrid::from_bytes(&longer, "t").is_err());
        }
    }

    #[test]
    fn a_well_checksummed_but_inconsistent_file_is_rejected() {
        // Re-seal a file after changing a field, so only the structural checks can catch it.
        let reseal = |mut b: Vec<u8>| {
            let n = b.len() - CRC_LEN;
            let crc = crate::io::crc32(&b[..n]);
            b[n..].copy_from_slice(&crc.to_le_bytes());
            b
        };
        let bytes = tiny().to_bytes_in(ExceptionOrder::Index).0;
        let mut wrong_input = bytes.clone();
        wrong_input[PREAMBLE_LEN] = 200;
        assert!(Hybrid::from_bytes(&reseal(wrong_input), "t").is_err());
        let mut no_layers = bytes.clone();
        no_layers[PREAMBLE_LEN + 1] = 0;
        assert!(Hybrid::from_bytes(&reseal(no_layers), "t").is_err());
        let mut wider = bytes.clone();
        wider[PREAMBLE_LEN + 2] += 1; // layer 0 one neuron wider: the stream no longer lines up
        assert!(Hybrid::from_bytes(&reseal(wider), "t").is_err());
        let mut more_exceptions = bytes.clone();
        more_exceptions[PREAMBLE_LEN + 2 + 2 * LAYER_HEADER_LEN] += 1;
        assert!(Hybrid::from_bytes(&reseal(more_exceptions), "t").is_err());
    }
}

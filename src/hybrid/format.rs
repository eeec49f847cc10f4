#![doc = include_str!("format.md")]

use super::bits::{BitWriter, best_rice};
use super::exceptions::{ExceptionSet, gaps, write_sorted};
use super::inputs::InputFunction;
use super::quant::QuantNet;
use super::sizes::Sizes;
use super::{Hybrid, Learner};
use crate::error::{Error, Result};
use kpk_probe::bits::zigzag;
use kpk_probe::model::MAGIC;
use kpk_probe::net::Layer;
use std::path::Path;

/// docs/MODEL_FORMATS.md, the formats' specification.
const MODEL_FORMATS: &str = include_str!("../../docs/MODEL_FORMATS.md");
const FORMAT_BEGIN: &str = "<!-- kpk:format-begin -->";
const FORMAT_END: &str = "<!-- kpk:format-end -->";

/// The description of the model file and of the DTZ model: the part of docs/MODEL_FORMATS.md
/// between its markers (also printed in reports/COMPRESSION.md); empty if a marker is missing,
/// which a test refuses.
pub fn format_doc() -> &'static str {
    MODEL_FORMATS
        .split_once(FORMAT_BEGIN)
        .and_then(|(_, rest)| rest.split_once(FORMAT_END))
        .map_or("", |p| p.0)
}

const CRC_LEN: usize = 4;
/// Magic, version, length.
const PREAMBLE_LEN: usize = 4 + 1 + 4;
const LAYER_HEADER_LEN: usize = 4;
const EXCEPTION_HEADER_LEN: usize = 4;
use kpk_probe::model::CONFIDENCE_ORDER;

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

/// The file of `h`: version 1 or 2 for a net, version 3 for a tree (whose exceptions are always
/// numbered by index).
fn encode(h: &Hybrid, order: ExceptionOrder) -> Encoded {
    match h.learner() {
        Learner::Net(net) => encode_net(h, net, order),
        Learner::Tree(tree) => {
            let (bytes, sizes) = super::tree_file::encode(h, tree);
            Encoded { bytes, sizes }
        }
    }
}

fn encode_net(h: &Hybrid, net: &QuantNet, order: ExceptionOrder) -> Encoded {
    let layers = net.layers();
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
            let order = match h.exceptions.is_empty() {
                true => Vec::new(),
                false => kpk_probe::model::confidence_order(h.input.probe(), net.evaluator(), h.coverage()),
            };
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
    bytes.push(h.coverage().version());
    bytes.extend_from_slice(&(total as u32).to_le_bytes());
    bytes.extend_from_slice(&h.input.to_bytes());
    bytes.push(layers.len() as u8);
    bytes.extend_from_slice(&header);
    bytes.extend_from_slice(&payload);
    let crc = kpk_probe::bits::crc32(&bytes);
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

    /// Load a model file and give its length in bytes: the size of a file the reader accepted.
    pub fn load_sized(path: &Path) -> Result<(Hybrid, u64)> {
        let bytes = crate::io::read(path)?;
        Ok((Hybrid::from_bytes(&bytes, &path.display().to_string())?, bytes.len() as u64))
    }

    /// Parse a model file; `path` only names the file in errors. The probe crate decodes it
    /// (one decoder for kpk and every program that embeds the probe).
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<Hybrid> {
        let bad = |message: String| Error::Format { path: path.to_string(), message };
        let model = kpk_probe::Model::from_bytes(bytes).map_err(|e| bad(e.to_string()))?;
        Hybrid::from_probe(&model).map_err(|e| bad(e.to_string()))
    }

    /// The hybrid of a model the probe crate decoded.
    pub fn from_probe(model: &kpk_probe::Model) -> Result<Hybrid> {
        let input = InputFunction::from_probe(model.input());
        let net = match model.learner() {
            kpk_probe::Learner::Net { net, .. } => net,
            kpk_probe::Learner::Tree(tree) => {
                let exceptions = ExceptionSet::new(model.exceptions().to_vec()).expect("legal indices");
                return Ok(Hybrid {
                    input,
                    learner: Learner::Tree(tree.clone()),
                    exceptions,
                    probe: model.clone(),
                });
            }
        };
        let layers = net
            .layers()
            .iter()
            .map(|l| Layer {
                n_in: l.n_in,
                n_out: l.n_out,
                shift: l.shift,
                weights: l.weights.clone(),
                biases: l.biases.clone(),
            })
            .collect();
        let net = QuantNet::new(layers, input.bound())?;
        let exceptions = ExceptionSet::new(model.exceptions().to_vec()).expect("legal indices");
        // The probe crate has checked the widths and the overflow bounds (and `QuantNet::new` the
        // shapes again); the decoded model is kept, so its tables are built once.
        Ok(Hybrid { input, learner: Learner::Net(net), exceptions, probe: model.clone() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::index::KpkIndex;

    fn tiny() -> Hybrid {
        let l0 = Layer {
            n_in: 7,
            n_out: 2,
            shift: 2,
            weights: (0..14).map(|i| i - 7).collect(),
            biases: vec![3, -40],
        };
        let l1 = Layer { n_in: 2, n_out: 1, shift: 0, weights: vec![5, -9], biases: vec![17] };
        let net = QuantNet::new(vec![l0, l1], 8).unwrap();
        let legal: Vec<u32> = KpkIndex::all()
            .filter(|i| i.position().is_some())
            .map(|i| i.value() as u32)
            .step_by(997)
            .collect();
        Hybrid::new(InputFunction::Coordinates, net, ExceptionSet::new(legal).unwrap()).unwrap()
    }

    #[test]
    fn the_format_is_the_marked_part_of_the_model_formats_document() {
        let doc = format_doc();
        assert!(doc.trim_start().starts_with("The model file (`models/kpk.hybrid`)"));
        assert!(doc.contains("## The DTZ model") && doc.trim_end().ends_with("lookup."));
    }

    #[test]
    fn the_sigmoid_table_printed_in_the_format_is_the_one_evaluated() {
        let printed: Vec<u8> = format_doc()
            .lines()
            .filter(|l| l.starts_with("u = "))
            .flat_map(|l| l.split(':').nth(1).unwrap().split_whitespace().map(|v| v.parse::<u8>().unwrap()))
            .collect();
        assert_eq!(printed, kpk_probe::net::SIGMOID);
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
            let at: Vec<usize> = (0..bytes.len()).collect();
            for (what, b) in crate::scratch::corruptions(&bytes, &at, &[0x01, 0x80, 0xFF]) {
                assert!(Hybrid::from_bytes(&b, "t").is_err(), "{order:?}: {what} accepted");
            }
        }
    }

    #[test]
    fn a_well_checksummed_but_inconsistent_file_is_rejected() {
        // Re-seal a file after changing a field, so only the structural checks can catch it.
        let reseal = |mut b: Vec<u8>| {
            let n = b.len() - CRC_LEN;
            let crc = kpk_probe::bits::crc32(&b[..n]);
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

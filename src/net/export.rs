//! Trained weights in formats other tools read: safetensors (PyTorch, NumPy via the
//! `safetensors` package) and one `.npy` file per tensor (plain NumPy).
//!
//! Both use PyTorch's `nn.Linear` convention: layer `k` (from 1, the paper's first hidden layer)
//! is `layer{k}.weight` of shape (outputs, inputs) and `layer{k}.bias` of shape (outputs,). A
//! kpk [`Mlp`] keeps the bias as column 0 of one (outputs, inputs + 1) matrix (the paper's
//! constant-1 neuron N0x, section 3); export splits it off and import joins it back, exactly, so a
//! net read back computes bit-identical outputs. Every layer is followed by the sigmoid
//! 1 / (1 + e^(-b z)), b = the net's slope (section 3).

use crate::error::{Error, Result};
use crate::net::mlp::Mlp;
use ndarray::{Array1, Array2, Axis, concatenate, s};
use ndarray_npy::{ReadNpyExt, WriteNpyExt};
use safetensors::{Dtype, SafeTensors, tensor::TensorView};
use std::collections::BTreeMap;
use std::path::Path;

/// The file name of a tensor in the `.npy` export.
pub fn npy_name(layer: usize, part: &str) -> String {
    format!("layer{layer}.{part}.npy")
}

fn split(net: &Mlp) -> Vec<(Array2<f64>, Array1<f64>)> {
    net.layers().iter().map(|w| (w.slice(s![.., 1..]).to_owned(), w.column(0).to_owned())).collect()
}

fn join(parts: Vec<(Array2<f64>, Array1<f64>)>, slope: f64) -> Result<Mlp> {
    let mut layers = Vec::with_capacity(parts.len());
    for (k, (w, b)) in parts.into_iter().enumerate() {
        if b.len() != w.nrows() {
            return Err(Error::Shape(format!(
                "layer{}: bias has {} values for {} neurons",
                k + 1,
                b.len(),
                w.nrows()
            )));
        }
        let bias = b.insert_axis(Axis(1));
        let layer =
            concatenate(Axis(1), &[bias.view(), w.view()]).map_err(|e| Error::Shape(e.to_string()))?;
        layers.push(layer);
    }
    Mlp::from_layers(layers, slope)
}

fn le_bytes(values: impl Iterator<Item = f64>) -> Vec<u8> {
    values.flat_map(f64::to_le_bytes).collect()
}

/// The net as safetensors bytes (F64, little-endian), with `metadata` (plus `topology` and
/// `slope`) in the header's `__metadata__`.
pub fn to_safetensors(net: &Mlp, metadata: &[(&str, String)]) -> Result<Vec<u8>> {
    let mut buffers: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
    for (k, (w, b)) in split(net).into_iter().enumerate() {
        buffers.push((format!("layer{}.weight", k + 1), w.shape().to_vec(), le_bytes(w.iter().copied())));
        buffers.push((format!("layer{}.bias", k + 1), b.shape().to_vec(), le_bytes(b.iter().copied())));
    }
    let views = buffers
        .iter()
        .map(|(name, shape, bytes)| {
            TensorView::new(Dtype::F64, shape.clone(), bytes)
                .map(|v| (name.clone(), v))
                .map_err(|e| Error::Model(format!("{name}: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut info: BTreeMap<String, String> =
        metadata.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    let topology = net.topology().iter().map(usize::to_string).collect::<Vec<_>>().join("-");
    info.insert("topology".into(), topology);
    info.insert("slope".into(), net.slope().to_string());
    let plain = safetensors::serialize(views, None).map_err(|e| Error::Model(format!("safetensors: {e}")))?;
    with_metadata(&plain, &info)
}

/// `bytes` (a safetensors file without metadata) with `info` as the header's `__metadata__`, its
/// keys in sorted order: the `safetensors` crate writes metadata from a `HashMap`, whose order
/// changes from run to run, and the same net must give the same bytes.
fn with_metadata(bytes: &[u8], info: &BTreeMap<String, String>) -> Result<Vec<u8>> {
    // `bytes` are what the safetensors crate has just written: a header it cannot have written
    // is a bug.
    let internal = |m: &str| Error::Internal(format!("safetensors: {m}"));
    let len = bytes.get(..8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize);
    let (header, data) = match len {
        Some(n) if bytes.len() >= 8 + n => (&bytes[8..8 + n], &bytes[8 + n..]),
        _ => return Err(internal("header length")),
    };
    let mut header: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(header).map_err(|e| internal(&e.to_string()))?;
    let meta = info.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect();
    header.insert("__metadata__".into(), serde_json::Value::Object(meta));
    let mut text = serde_json::to_vec(&header).map_err(|e| internal(&e.to_string()))?;
    // The format pads the header with spaces to a multiple of 8 bytes, so that the data is aligned.
    text.resize(text.len().next_multiple_of(8), b' ');
    let mut out = Vec::with_capacity(8 + text.len() + data.len());
    out.extend_from_slice(&(text.len() as u64).to_le_bytes());
    out.extend_from_slice(&text);
    out.extend_from_slice(data);
    Ok(out)
}

/// Write the net as a safetensors file, atomically.
pub fn write_safetensors(path: &Path, net: &Mlp, metadata: &[(&str, String)]) -> Result<()> {
    crate::output::write_file(path, &to_safetensors(net, metadata)?)
}

/// Read a net written by [`write_safetensors`].
pub fn read_safetensors(path: &Path) -> Result<Mlp> {
    let bytes = crate::io::read(path)?;
    let bad = |message: String| Error::Format { path: path.display().to_string(), message };
    let (_, meta) = SafeTensors::read_metadata(&bytes).map_err(|e| bad(e.to_string()))?;
    let slope: f64 = meta
        .metadata()
        .as_ref()
        .and_then(|m| m.get("slope"))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("no sigmoid slope in the metadata".into()))?;
    let tensors = SafeTensors::deserialize(&bytes).map_err(|e| bad(e.to_string()))?;
    let read = |name: &str, dims: usize| -> Result<(Vec<usize>, Vec<f64>)> {
        let t = tensors.tensor(name).map_err(|e| bad(format!("{name}: {e}")))?;
        if t.dtype() != Dtype::F64 || t.shape().len() != dims {
            return Err(bad(format!(
                "{name}: expected a {dims}-d F64 tensor, found {:?} {:?}",
                t.dtype(),
                t.shape()
            )));
        }
        let values =
            t.data().chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
        Ok((t.shape().to_vec(), values))
    };
    let mut parts = Vec::new();
    for k in 1.. {
        let name = format!("layer{k}.weight");
        if tensors.tensor(&name).is_err() {
            break;
        }
        let (shape, w) = read(&name, 2)?;
        let (_, b) = read(&format!("layer{k}.bias"), 1)?;
        let w = Array2::from_shape_vec((shape[0], shape[1]), w).map_err(|e| bad(e.to_string()))?;
        parts.push((w, Array1::from(b)));
    }
    if parts.is_empty() {
        return Err(bad("no tensor layer1.weight".into()));
    }
    join(parts, slope).map_err(|e| bad(e.to_string()))
}

/// Write `layer{k}.weight.npy` and `layer{k}.bias.npy` for every layer into `dir`, atomically per
/// file. (The slope is not stored: it is in `weights.json` and the safetensors metadata.)
pub fn write_npy(dir: &Path, net: &Mlp) -> Result<()> {
    for (k, (w, b)) in split(net).into_iter().enumerate() {
        let npy = |e: ndarray_npy::WriteNpyError| std::io::Error::other(e.to_string());
        crate::output::write_file_with(&dir.join(npy_name(k + 1, "weight")), |out| {
            w.write_npy(out).map_err(npy)
        })?;
        crate::output::write_file_with(&dir.join(npy_name(k + 1, "bias")), |out| {
            b.write_npy(out).map_err(npy)
        })?;
    }
    Ok(())
}

/// Read a net written by [`write_npy`], given its sigmoid slope.
pub fn read_npy(dir: &Path, slope: f64) -> Result<Mlp> {
    let mut parts = Vec::new();
    for k in 1.. {
        let wp = dir.join(npy_name(k, "weight"));
        if !wp.exists() {
            break;
        }
        let bp = dir.join(npy_name(k, "bias"));
        let bad = |p: &Path, e: String| Error::Format { path: p.display().to_string(), message: e };
        let w =
            Array2::<f64>::read_npy(crate::io::read(&wp)?.as_slice()).map_err(|e| bad(&wp, e.to_string()))?;
        let b =
            Array1::<f64>::read_npy(crate::io::read(&bp)?.as_slice()).map_err(|e| bad(&bp, e.to_string()))?;
        parts.push((w, b));
    }
    if parts.is_empty() {
        return Err(Error::Format {
            path: dir.display().to_string(),
            message: format!("no {}", npy_name(1, "weight")),
        });
    }
    join(parts, slope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safetensors_and_npy_round_trip_exactly() {
        let net = Mlp::new(&[32, 32, 5, 2], 1.0, 11).unwrap();
        let scratch = crate::scratch::Scratch::new("export");
        let dir = scratch.path();
        let st = dir.join("w.safetensors");
        write_safetensors(&st, &net, &[("input_coding", "natural".into())]).unwrap();
        assert_eq!(read_safetensors(&st).unwrap(), net);
        write_npy(dir, &net).unwrap();
        assert_eq!(read_npy(dir, 1.0).unwrap(), net);
        // Six .npy files (weight and bias of three layers) and the safetensors file.
        assert_eq!(scratch.names().len(), 7);
    }

    #[test]
    fn the_same_net_gives_the_same_safetensors_bytes_with_sorted_metadata() {
        let net = Mlp::new(&[4, 3, 1], 1.0, 5).unwrap();
        let meta: Vec<(&str, String)> =
            ["name", "input_coding", "seed", "margin"].map(|k| (k, k.into())).into();
        let first = to_safetensors(&net, &meta).unwrap();
        // HashMap order differs between maps built in one process too: twenty tries catch it.
        for _ in 0..20 {
            assert_eq!(to_safetensors(&net, &meta).unwrap(), first);
        }
        let (_, header) = SafeTensors::read_metadata(&first).unwrap();
        assert_eq!(header.metadata().as_ref().unwrap().len(), 6);
        let text = String::from_utf8_lossy(&first[8..]);
        let keys = ["input_coding", "margin", "name", "seed", "slope", "topology"];
        let at: Vec<usize> = keys.iter().map(|k| text.find(&format!("\"{k}\"")).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    }
}

//! A trained net on disk: JSON holding everything needed to use it again — topology, sigmoid
//! slope, the input coding and feature list it reads, its output coding, the seed it was
//! initialised from, and the weights — under a format version. Loading checks that it all fits.
//!
//! ```json
//! { "format_version": 1, "topology": [32, 32, 5, 2], "slope": 1.0, "input_coding": "natural",
//!   "features": ["x1", …, "x32"], "output_coding": { "kind": "two", "margin": 0.4 }, "seed": 39,
//!   "layers": [ [[bias, w1, …, w32], …32 rows], [[…33 values], …5 rows], [[…6 values], …2 rows] ] }
//! ```
//!
//! `layers[l][j]` is row j of weight layer l as in [`crate::net::mlp`]: the bias first. Weights are
//! written in the shortest decimal form that reads back to the same `f64` bit for bit.

use crate::error::{Error, Result};
use crate::net::mlp::{Mlp, check_layer, check_layer_count, check_slope};
use crate::net::output::OutputCoding;
use crate::net::topology::Topology;
use crate::paper::coding::{BINARY_BITS, InputCoding};
use crate::paper::features::FEATURES;
use ndarray::Array2;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The current (and only) file format version.
pub const FORMAT_VERSION: u32 = 1;

/// A trained net with what it needs to be used again. Build one with [`SavedNet::new`] or
/// [`SavedNet::load`], both of which check it; [`SavedNet::net`] checks again, as the fields are
/// public.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedNet {
    pub format_version: u32,
    pub topology: Vec<usize>,
    pub slope: f64,
    pub input_coding: InputCoding,
    /// The characteristics the inputs are made from, in order: "x1" … "x32" (Table 4).
    pub features: Vec<String>,
    pub output_coding: OutputCoding,
    /// The seed the initial weights were drawn from.
    pub seed: u64,
    /// `layers[l][j][i]`: weight layer l, row j, column i (column 0 the bias).
    pub layers: Vec<Vec<Vec<f64>>>,
}

/// The characteristic number of a name "x1" … "x32".
fn feature_number(name: &str) -> Option<usize> {
    let n: usize = name.strip_prefix('x')?.parse().ok()?;
    ((1..=32).contains(&n) && name == format!("x{n}")).then_some(n)
}

impl SavedNet {
    /// Record `net` with its input and output description.
    pub fn new(
        net: &Mlp,
        input_coding: InputCoding,
        features: Vec<String>,
        output_coding: OutputCoding,
        seed: u64,
    ) -> Result<SavedNet> {
        let saved = SavedNet {
            format_version: FORMAT_VERSION,
            topology: net.topology().to_vec(),
            slope: net.slope(),
            input_coding,
            features,
            output_coding,
            seed,
            layers: net.layers().iter().map(|w| w.rows().into_iter().map(|r| r.to_vec()).collect()).collect(),
        };
        saved.check()?;
        Ok(saved)
    }

    /// The feature names "x1" … "x32", all 32 in order, for nets that read every characteristic.
    pub fn all_features() -> Vec<String> {
        (1..=32).map(|n| format!("x{n}")).collect()
    }

    /// The net itself. Errors if the record does not fit together (see [`SavedNet::load`]).
    pub fn net(&self) -> Result<Mlp> {
        self.check()?;
        let layers = self
            .layers
            .iter()
            .map(|rows| {
                let (r, c) = (rows.len(), rows.first().map_or(0, Vec::len));
                Array2::from_shape_vec((r, c), rows.concat()).map_err(|e| Error::Model(e.to_string()))
            })
            .collect::<Result<Vec<_>>>()?;
        Mlp::from_layers(layers, self.slope)
    }

    /// Write as pretty JSON, atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let bad = |message: String| Error::Format { path: path.display().to_string(), message };
        self.check().map_err(|e| bad(e.to_string()))?;
        let json = serde_json::to_vec_pretty(self).map_err(|e| bad(e.to_string()))?;
        crate::output::write_file(path, &json)
    }

    /// Read and check a saved net. Rejects, naming the problem: malformed JSON or unknown fields, a
    /// format version other than [`FORMAT_VERSION`], a topology of fewer than two layers or with an
    /// empty layer, weight layers whose shapes do not match the topology, non-finite weights or
    /// slope, unknown or repeated feature names, an input layer whose width is not what the input
    /// coding makes of the feature list, and an output layer that does not match the output coding.
    pub fn load(path: &Path) -> Result<SavedNet> {
        let format = |message: String| Error::Format { path: path.display().to_string(), message };
        let bytes = crate::io::read(path)?;
        let saved: SavedNet = serde_json::from_slice(&bytes).map_err(|e| format(e.to_string()))?;
        saved.check().map_err(|e| format(e.to_string()))?;
        Ok(saved)
    }

    /// Every consistency check of [`SavedNet::load`].
    pub fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Model(m));
        if self.format_version != FORMAT_VERSION {
            return bad(format!(
                "format version {} is not supported (this kpk reads version {FORMAT_VERSION})",
                self.format_version
            ));
        }
        let t = &self.topology;
        let model = |e: Error| Error::Model(e.to_string());
        Topology::new(t.clone()).map_err(|e| Error::Model(format!("topology {e}")))?;
        check_slope(self.slope).map_err(model)?;
        check_layer_count(self.layers.len(), t.len() - 1).map_err(model)?;
        for (l, rows) in self.layers.iter().enumerate() {
            let expected = (t[l + 1], t[l] + 1);
            let width = rows.iter().map(Vec::len).find(|&n| n != expected.1).unwrap_or(expected.1);
            check_layer(l, (rows.len(), width), expected, rows.iter().flatten()).map_err(model)?;
        }
        let mut seen = [false; 33];
        for name in &self.features {
            let Some(n) = feature_number(name) else {
                let (given, allowed) = (name.clone(), "x1 … x32".into());
                return Err(Error::UnknownName { what: "feature", given, allowed });
            };
            if std::mem::replace(&mut seen[n], true) {
                return bad(format!("feature '{name}' is listed twice"));
            }
        }
        if let Some(width) = input_width(self.input_coding, &self.features)
            && width != t[0]
        {
            let by = format!("the {:?} coding of {} features", self.input_coding, self.features.len());
            return Err(Error::InputWidth { net: t[0], by, given: width });
        }
        self.output_coding.check_width(t[t.len() - 1])?;
        self.output_coding.validate()
    }
}

/// Inputs the coding makes of the listed features: one per characteristic for the natural and
/// scaled codings, its bits for the binary coding, one per legal value for the one-hot coding
/// (see [`crate::paper::coding`]). The names must already have been checked.
fn input_width(coding: InputCoding, features: &[String]) -> Option<usize> {
    features
        .iter()
        .map(|name| {
            let i = feature_number(name)? - 1;
            Some(match coding {
                InputCoding::Natural | InputCoding::Scaled => 1,
                InputCoding::Binary => BINARY_BITS[i],
                InputCoding::Onehot => FEATURES[i].range_size(),
            })
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved(net: &Mlp) -> SavedNet {
        SavedNet::new(
            net,
            InputCoding::Natural,
            SavedNet::all_features(),
            OutputCoding::Two { margin: 0.4 },
            39,
        )
        .unwrap()
    }

    fn sample() -> (Mlp, SavedNet) {
        let net = Mlp::new(&[32, 32, 5, 2], 1.0, 39).unwrap();
        let saved = saved(&net);
        (net, saved)
    }

    #[test]
    fn save_and_load_round_trip_bit_for_bit() {
        let (mut net, _) = sample();
        // Weights with long decimal expansions, tiny and huge magnitudes.
        let mut k = 0.0f64;
        for w in net.layers_mut() {
            for v in w.iter_mut() {
                k += 1.0;
                *v = (k * 0.123_456_789).sin() * 10f64.powi((k as i32 % 40) - 20) / 3.0;
            }
        }
        let saved = saved(&net);
        let scratch = crate::scratch::Scratch::new("model");
        let path = scratch.join("round-trip.json");
        saved.save(&path).unwrap();
        let loaded = SavedNet::load(&path).unwrap();
        assert_eq!(loaded, saved);
        let back = loaded.net().unwrap();
        let bits =
            |n: &Mlp| n.layers().iter().flat_map(|w| w.iter().map(|v| v.to_bits())).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(&net));
        assert_eq!(back.topology(), net.topology());
        assert_eq!(back.slope(), net.slope());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn the_input_width_follows_the_coding_and_the_features() {
        let all = SavedNet::all_features();
        for coding in InputCoding::ALL {
            assert_eq!(input_width(coding, &all), Some(coding.width()), "{coding:?}");
            let net = Mlp::new(&[coding.width(), 3, 1], 1.0, 0).unwrap();
            assert!(SavedNet::new(&net, coding, all.clone(), OutputCoding::One, 0).is_ok());
        }
        // A subset: x1 (8 values, 3 bits) and x17 (a 0/1 flag, 1 bit).
        let two = vec!["x1".to_string(), "x17".to_string()];
        assert_eq!(input_width(InputCoding::Natural, &two), Some(2));
        assert_eq!(input_width(InputCoding::Binary, &two), Some(4));
        assert_eq!(input_width(InputCoding::Onehot, &two), Some(10));
        let net = Mlp::new(&[4, 3, 1], 1.0, 0).unwrap();
        assert!(SavedNet::new(&net, InputCoding::Binary, two.clone(), OutputCoding::One, 0).is_ok());
        assert!(SavedNet::new(&net, InputCoding::Onehot, two, OutputCoding::One, 0).is_err());
    }

    #[test]
    fn files_that_do_not_fit_are_rejected() {
        let (_, saved) = sample();
        let json = serde_json::to_value(&saved).unwrap();
        type Spoil = Box<dyn Fn(&mut serde_json::Value)>;
        let cases: Vec<(&str, Spoil)> = vec![
            ("version", Box::new(|v| v["format_version"] = 2.into())),
            ("topology", Box::new(|v| v["topology"] = serde_json::json!([32, 32, 6, 2]))),
            ("layers", Box::new(|v| v["layers"].as_array_mut().unwrap().pop().map(|_| ()).unwrap())),
            ("row", Box::new(|v| v["layers"][1][2].as_array_mut().unwrap().push(0.5.into()))),
            ("feature", Box::new(|v| v["features"][3] = "x33".into())),
            ("feature", Box::new(|v| v["features"][3] = "x03".into())),
            ("twice", Box::new(|v| v["features"][3] = "x1".into())),
            ("inputs", Box::new(|v| v["features"].as_array_mut().unwrap().truncate(31))),
            ("coding width", Box::new(|v| v["input_coding"] = "binary".into())),
            ("outputs", Box::new(|v| v["output_coding"] = serde_json::json!({"kind": "one"}))),
            ("margin", Box::new(|v| v["output_coding"]["margin"] = 0.5.into())),
            ("slope", Box::new(|v| v["slope"] = 0.0.into())),
            ("unknown field", Box::new(|v| v["colour"] = "white".into())),
            ("coding", Box::new(|v| v["input_coding"] = "gray".into())),
        ];
        let scratch = crate::scratch::Scratch::new("model");
        let path = scratch.join("bad.json");
        for (what, spoil) in cases {
            let mut v = json.clone();
            spoil(&mut v);
            std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
            let err = SavedNet::load(&path).expect_err(what);
            assert!(matches!(err, Error::Format { .. }), "{what}: {err}");
            assert!(!err.to_string().contains('\n'), "one-line message: {err}");
        }
        // A non-finite weight cannot be written as JSON; a huge literal reads as infinity.
        let text = serde_json::to_string(&json).unwrap();
        let first = json["layers"][0][0][0].as_f64().unwrap().to_string();
        std::fs::write(&path, text.replacen(&first, "1e999", 1)).unwrap();
        assert!(SavedNet::load(&path).is_err());
        std::fs::write(&path, "{ not json").unwrap();
        assert!(SavedNet::load(&path).is_err());
        assert!(matches!(
            SavedNet::load(&crate::scratch::Scratch::new("model").join("missing.json")),
            Err(Error::Io { .. })
        ));
        std::fs::remove_file(&path).unwrap();
    }
}

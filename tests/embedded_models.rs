//! The models compiled into kpk are the committed files in models/, byte for byte, and load.

use kpk::hybrid::dtz::{DEFAULT_DTZ_MODEL, DEFAULT_DTZ_MODEL_BYTES};
use kpk::hybrid::krk::{DEFAULT_KRK_MODEL, DEFAULT_KRK_MODEL_BYTES};
use kpk::hybrid::{DEFAULT_MODEL, DEFAULT_MODEL_BYTES, Hybrid, NET_MODEL, NET_MODEL_BYTES};
use kpk::play::model::{DEFAULT_PLAY_MODEL, DEFAULT_PLAY_MODEL_BYTES, PlayModel};
use std::path::Path;

fn committed(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).expect("the committed model")
}

#[test]
fn the_embedded_models_are_the_committed_files() {
    for (name, bytes) in [
        (DEFAULT_MODEL, DEFAULT_MODEL_BYTES),
        (NET_MODEL, NET_MODEL_BYTES),
        (DEFAULT_DTZ_MODEL, DEFAULT_DTZ_MODEL_BYTES),
        (DEFAULT_PLAY_MODEL, DEFAULT_PLAY_MODEL_BYTES),
        (DEFAULT_KRK_MODEL, DEFAULT_KRK_MODEL_BYTES),
    ] {
        assert_eq!(committed(name), bytes, "{name}");
    }
}

#[test]
fn the_embedded_models_load() {
    Hybrid::from_bytes(DEFAULT_MODEL_BYTES, DEFAULT_MODEL).unwrap();
    Hybrid::from_bytes(NET_MODEL_BYTES, NET_MODEL).unwrap().net().unwrap();
    PlayModel::from_bytes(DEFAULT_PLAY_MODEL_BYTES, DEFAULT_PLAY_MODEL).unwrap();
    kpk_probe::DtzModel::from_bytes(DEFAULT_DTZ_MODEL_BYTES).unwrap();
    kpk_probe::krk::KrkModel::from_bytes(DEFAULT_KRK_MODEL_BYTES).unwrap();
}

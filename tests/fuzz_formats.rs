//! Fuzzing on the stable toolchain, offline: property tests over mutated valid files of the four
//! formats (hybrid, DTZ, play, bitbase) and over FEN text. Every mutation (bytes flipped, set or
//! cut, with the CRC-32 recomputed half the time so that the fields behind it are reached) is
//! refused with an error or read as a file: never a panic, a hang or an abort. The number of cases
//! per target is `KPK_FUZZ_CASES` (CI: the default; a longer run: docs/FUZZING.md).

use proptest::prelude::*;
use std::sync::OnceLock;

fn cases() -> u32 {
    std::env::var("KPK_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
}

fn model(name: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models").join(name)).unwrap()
}

fn bitbase_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| kpk::Bitbase::generate().to_bytes())
}

/// A mutation of a valid file: `(offset, byte)` pairs written over it, an optional cut, and
/// whether the CRC-32 in the last four bytes is recomputed afterwards.
#[derive(Debug, Clone)]
struct Mutation {
    writes: Vec<(usize, u8)>,
    cut: Option<usize>,
    fix_crc: bool,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (
        prop::collection::vec((any::<usize>(), any::<u8>()), 1..8),
        prop::option::of(any::<usize>()),
        any::<bool>(),
    )
        .prop_map(|(writes, cut, fix_crc)| Mutation { writes, cut, fix_crc })
}

fn mutate(valid: &[u8], m: &Mutation) -> Vec<u8> {
    let mut b = valid.to_vec();
    for &(at, v) in &m.writes {
        let i = at % b.len();
        b[i] = v;
    }
    if let Some(cut) = m.cut {
        b.truncate(cut % (b.len() + 1));
    }
    if m.fix_crc && b.len() > 4 {
        let n = b.len() - 4;
        let crc = kpk_probe::bits::crc32(&b[..n]);
        b[n..].copy_from_slice(&crc.to_le_bytes());
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_mutated_hybrid_model_is_refused_or_read(m in mutation()) {
        for name in ["kpk.hybrid", "kpk-net.hybrid"] {
            let bytes = mutate(&model(name), &m);
            if let Ok(model) = kpk_probe::Model::from_bytes(&bytes) {
                for p in kpk_probe::Position::all().step_by(997) {
                    let _ = model.probe(&p);
                }
            }
        }
    }

    #[test]
    fn a_mutated_dtz_model_is_refused_or_read(m in mutation()) {
        let bytes = mutate(&model("kpk-dtz.hybrid"), &m);
        if let Ok(model) = kpk_probe::DtzModel::from_bytes(&bytes) {
            for p in kpk_probe::Position::all() {
                prop_assert!(i32::from(model.dtz(&p)).abs() <= 127);
            }
        }
    }

    #[test]
    fn a_mutated_play_model_is_refused_or_read(m in mutation()) {
        let bytes = mutate(&model("kpk-play.hybrid"), &m);
        if let Ok(play) = kpk::play::model::PlayModel::from_bytes(&bytes, "fuzz") {
            for p in kpk::KpkPosition::all().step_by(997) {
                let _ = play.best_move(&p);
            }
        }
    }

    #[test]
    fn a_mutated_bitbase_file_is_refused_or_read(m in mutation()) {
        let bytes = mutate(bitbase_bytes(), &m);
        let _ = kpk::Bitbase::from_bytes(&bytes, "fuzz");
    }

    #[test]
    fn any_text_as_a_fen_is_refused_or_read(text in "\\PC{0,80}", valid in 0usize..4) {
        let _ = kpk_probe::Position::from_fen(&text);
        // A valid FEN with one character replaced, so that the parser's later fields are reached.
        let fens = ["8/8/8/8/8/8/4P3/K1k5 w - - 0 1", "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1",
                    "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "8/8/8/8/8/1k6/1P6/1K6 w - -"];
        let fen = fens[valid];
        for (i, c) in text.chars().take(4).enumerate() {
            let at = (i * 7 + text.len()) % fen.len();
            let mut s: Vec<char> = fen.chars().collect();
            s[at] = c;
            let _ = kpk_probe::Position::from_fen(&s.into_iter().collect::<String>());
        }
    }
}

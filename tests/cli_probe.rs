//! `kpk probe` from the outside: bad input gets one clear line and a non-zero exit; no input
//! makes it panic.

use proptest::prelude::*;
use std::process::Command;

fn kpk(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kpk")).args(args).output().expect("run kpk");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Each bad FEN with the message fragment it must get.
const BAD: &[(&str, &str)] = &[
    ("", "empty FEN"),
    ("8/8/8/8/8/8/8/8", "expected 2 to 6"),
    ("8/8/8/8/8/8/8/8 w - - 0 1 extra", "expected 2 to 6"),
    ("8/8/8/8/8/8/8 w", "7 ranks"),
    ("4k3/8/8/8/8/8/P7/4K3x w", "unexpected character 'x'"),
    ("4k3/8/8/8/8/8/P7/4K2 w", "rank 1 of the piece placement covers 7 files"),
    ("4k3/8/8/8/8/8/P7/4K4 w", "rank 1 of the piece placement covers 9 files"),
    ("4k3/8/8/8/8/8/P7/4K3 x", "side to move must be 'w' or 'b'"),
    ("4k3/8/8/8/8/8/P7/4K3 w KQ", "castling field must be '-'"),
    ("4k3/8/8/8/8/8/P7/4K3 w - e5", "en passant"),
    // An en passant square of the right form that no double step of the pawn can have left, as
    // python-chess's `Board.is_valid()` refuses it (the Python package refuses it alike).
    ("8/8/8/8/8/8/4P3/K6k w - e3 0 1", "en passant square e3 is impossible: no pawn of the side not to move"),
    ("8/8/8/4p3/8/8/8/K6k w - d6 0 1", "en passant square d6 is impossible"),
    ("8/8/8/4p3/8/8/8/K6k b - e6 0 1", "en passant square e6 is impossible"),
    ("8/4k3/8/4p3/8/8/8/K7 w - e6 0 1", "en passant square e6 is impossible"),
    ("4k3/8/8/8/8/8/P7/4K3 w - - x 1", "move counter"),
    // The grammar's counters are ASCII digits, its separators ASCII whitespace (kpk-probe/src/fen.rs).
    ("4k3/8/8/8/8/8/P7/4K3 w - - \u{b2} 1", "move counter must be a non-negative integer, found '\u{b2}'"),
    ("4k3/8/8/8/8/8/P7/4K3 w - - +1 1", "move counter must be a non-negative integer, found '+1'"),
    ("4k3/8/8/8/8/8/P7/4K3\u{a0}w", "expected 2 to 6 space-separated fields, found 1"),
    (
        "888888888888888888888888888888888/8/8/8/8/1K6/1P6/6k1 w",
        "rank 8 of the piece placement covers 264 files, expected 8",
    ),
    ("4k3/8/8/8/8/8/8/4K3 w", "no pawn"),
    ("4k3/8/8/8/8/8/PP6/4K3 w", "2 pawns"),
    ("4k3/8/8/8/8/p7/P7/4K3 w", "2 pawns"),
    ("4k3/8/8/8/8/8/P7/4KQ2 w", "pieces other than kings and one pawn (Q)"),
    ("8/8/8/8/8/8/P7/4K3 w", "one king of each colour"),
    ("4k3/8/8/8/8/8/P7/3KK3 w", "one king of each colour"),
    ("4k3/8/8/8/8/8/8/P3K3 w", "pawn on a1"),
    ("P3k3/8/8/8/8/8/8/4K3 w", "pawn on a8"),
    ("4k3/8/8/8/8/8/8/p3K3 b", "pawn on a1"),
    ("8/8/8/8/8/8/P3k3/4K3 w", "kings on adjacent squares e1 and e2"),
    ("8/8/8/8/8/8/P7/4Kk2 b", "kings on adjacent squares"),
    ("8/8/8/8/8/1k6/P7/4K3 w", "side not to move is in check: king on b3 attacked by the pawn on a2"),
    ("4k3/8/8/8/8/8/5p2/6K1 b", "side not to move is in check: king on g1 attacked by the pawn on f2"),
];

#[test]
fn bad_fens_get_one_line_and_a_nonzero_exit() {
    for (fen, want) in BAD {
        let (code, stdout, stderr) = kpk(&["probe", fen]);
        assert_ne!(code, 0, "{fen:?} should fail");
        assert!(stdout.is_empty(), "{fen:?} printed {stdout:?}");
        assert_eq!(stderr.lines().count(), 1, "{fen:?}: one line, got {stderr:?}");
        assert!(stderr.starts_with("kpk: error: "), "{stderr}");
        assert!(stderr.contains(want), "{fen:?}: want {want:?} in {stderr:?}");
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn a_bad_fen_does_not_stop_the_others() {
    let (code, stdout, stderr) = kpk(&["probe", "nonsense w", "5k2/8/8/8/8/2P5/8/3K4 w - - 0 1"]);
    // The README's contract: 1 when some inputs of a batch were rejected and the rest answered.
    assert_eq!(code, 1);
    assert_eq!(stderr.lines().count(), 1);
    assert!(stdout.contains("Kc2"), "{stdout}");
}

#[test]
fn probe_explains_table1_set3() {
    let (code, stdout, _) = kpk(&["probe", "5k2/8/8/8/8/2P5/8/3K4 w - - 0 1"]);
    assert_eq!(code, 0);
    let line = |m: &str| stdout.lines().find(|l| l.trim_start().starts_with(m)).unwrap().to_string();
    assert!(line("Kc2 ").contains("win") && line("Kc2 ").contains("best"));
    assert!(line("Kd2 ").contains("draw"));
}

#[test]
fn probe_reports_from_the_pawn_sides_view_for_a_black_pawn() {
    // Colour-flipped Table 1 set 3: Black pawn c6, Black king d8, White king f1, Black to move.
    let (code, stdout, _) = kpk(&["probe", "3k4/8/2p5/8/8/8/8/5K2 b - - 0 1"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("win, DTC 27"), "{stdout}");
    assert!(stdout.contains("Black has the pawn"));
    let kc7 = stdout.lines().find(|l| l.trim_start().starts_with("Kc7 ")).unwrap();
    assert!(kc7.contains("best"), "{stdout}");
}

/// Strings that look like FENs: random placement characters, sides, and trailing fields.
fn fenish() -> impl Strategy<Value = String> {
    let placement = proptest::collection::vec(
        prop_oneof![
            Just('/'),
            Just('K'),
            Just('k'),
            Just('P'),
            Just('p'),
            Just('Q'),
            "[1-9]".prop_map(|s| s.chars().next().unwrap()),
            any::<char>(),
        ],
        0..40,
    )
    .prop_map(|v| v.into_iter().collect::<String>());
    let rest = proptest::collection::vec("[wb\\-KQa-h1-8 0-9]{0,4}", 0..6).prop_map(|v| v.join(" "));
    (placement, rest).prop_map(|(p, r)| format!("{p} {r}"))
}

/// Random legal-looking KPK placements: exercise the path past parsing too.
fn kpk_placement() -> impl Strategy<Value = String> {
    (0u8..64, 0u8..64, 0u8..64, any::<bool>(), any::<bool>()).prop_map(|(a, b, c, black_pawn, btm)| {
        let mut cells = ['.'; 64];
        cells[a as usize] = 'K';
        cells[b as usize] = 'k';
        cells[c as usize] = if black_pawn { 'p' } else { 'P' };
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|r| {
                let mut row = String::new();
                let mut empty = 0;
                for f in 0..8 {
                    let ch = cells[r * 8 + f];
                    if ch == '.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(ch);
                    }
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                row
            })
            .collect();
        format!("{} {}", rows.join("/"), if btm { 'b' } else { 'w' })
    })
}

fn bitbase() -> &'static kpk::Bitbase {
    static BB: std::sync::OnceLock<kpk::Bitbase> = std::sync::OnceLock::new();
    BB.get_or_init(kpk::Bitbase::generate)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The library path `kpk probe` takes never panics: parse, then probe every accepted FEN.
    #[test]
    fn probe_never_panics_on_any_string(s in prop_oneof![fenish(), kpk_placement(), any::<String>()]) {
        if let Ok(o) = kpk::Oriented::from_fen(&s) {
            let answer = kpk::chess::probe::probe(bitbase(), &o);
            prop_assert_eq!(kpk::Oriented::from_fen(&o.to_fen()).unwrap().position, o.position);
            prop_assert!(answer.moves.iter().all(|m| !m.name.is_empty()));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// And the binary itself: an exit code of 0 or 2, never a panic or a signal.
    #[test]
    fn the_binary_never_panics(s in prop_oneof![fenish(), kpk_placement()]) {
        // A command-line argument cannot carry a NUL byte at all; the library test above gets them.
        let s = s.replace('\0', "");
        let (code, _, stderr) = kpk(&["probe", &s]);
        prop_assert!(code == 0 || code == 2, "exit {} for {:?}", code, s);
        prop_assert!(!stderr.contains("panicked"), "{}", stderr);
    }
}

//! Tests of the named sets and their draws.

use super::*;
use std::collections::HashSet;

fn bb() -> Bitbase {
    Bitbase::generate()
}

#[test]
fn named_sets_have_the_papers_sizes() {
    let bb = bb();
    let size = |n: &str| Dataset::named(n, DEFAULT_SEED, &bb).unwrap().len();
    assert_eq!(size("T1"), 125);
    assert_eq!(size("S1"), 125);
    assert_eq!(size("T2"), 136);
    assert_eq!(size("s2"), 136);
    assert_eq!(size("T3"), 81_664);
    assert_eq!(size("T4"), 20_643);
    assert_eq!(size("T5"), 20_346);
    assert_eq!(size("wtm"), 81_664);
    assert_eq!(size("btm"), 84_012);
    assert_eq!(size("ALL"), 165_676);
    for set in SetName::ALL {
        let ds = Dataset::of(set, DEFAULT_SEED, &bb);
        assert_eq!(ds.len(), set.size(), "{set}");
        assert_eq!(set.name().parse::<SetName>().unwrap(), set);
        let sides = [Side::Wtm, Side::Btm].map(|s| {
            let color = if s == Side::Wtm { Color::White } else { Color::Black };
            ds.positions.iter().any(|p| p.side() == color)
        });
        let expected = match set.side() {
            Side::Wtm => [true, false],
            Side::Btm => [false, true],
            Side::Both => [true, true],
        };
        assert_eq!(sides, expected, "{set}");
    }
}

#[test]
fn small_sets_are_disjoint_seeded_and_of_one_side() {
    let bb = bb();
    for (t, s, side) in [("T1", "S1", Color::White), ("T2", "S2", Color::Black)] {
        let train = Dataset::named(t, 7, &bb).unwrap();
        let test = Dataset::named(s, 7, &bb).unwrap();
        let a: HashSet<_> = train.positions.iter().collect();
        let b: HashSet<_> = test.positions.iter().collect();
        assert_eq!(a.len(), train.len(), "{t} has no repeats");
        assert_eq!(b.len(), test.len(), "{s} has no repeats");
        assert!(a.is_disjoint(&b), "{t} and {s} overlap");
        assert!(train.positions.iter().chain(&test.positions).all(|p| p.side() == side));
        assert_eq!(Dataset::named(t, 7, &bb).unwrap(), train, "same seed, same set");
        assert_ne!(Dataset::named(t, 8, &bb).unwrap().positions, train.positions);
        assert_eq!(train.name, t);
    }
}

#[test]
fn unknown_names_list_the_valid_ones() {
    let err = Dataset::named("T9", 1, &bb()).unwrap_err().to_string();
    assert!(
        err.contains("unknown set 'T9'") && err.contains("T1, S1, T2, S2, T3, T4, T5, wtm, btm, all"),
        "{err}"
    );
}

#[test]
fn labels_come_from_the_bitbase() {
    let bb = bb();
    let all = Dataset::named("all", 0, &bb).unwrap();
    let c = bb.counts();
    let wins = all.wins().iter().filter(|&&w| w).count();
    assert_eq!(wins, c.wins(Color::White) + c.wins(Color::Black));
    for ((p, o), d) in all.positions.iter().zip(&all.outcomes).zip(&all.dtc) {
        assert_eq!(*o, bb.outcome(p));
        assert_eq!(d.is_some(), *o == Outcome::Win);
    }
}

#[test]
fn closed_sets_cp_match_the_dtc_histogram() {
    // Section 2: Cp = won wtm positions converted in <= p plies; Table 3's Np counts them.
    let bb = bb();
    let hist = bb.dtc_histogram();
    let wtm = Dataset::named("wtm", 0, &bb).unwrap();
    for p in [1u8, 9, 37] {
        let cp = wtm.filter(&Filter { max_dtc: Some(p), ..Filter::default() }).unwrap();
        let want: usize = hist[0][..=p as usize].iter().sum();
        assert_eq!(cp.len(), want, "C{p}");
        assert!(cp.outcomes.iter().all(|&o| o == Outcome::Win));
        assert_eq!(cp.name, format!("wtm[dtc<={p}]"));
    }
}

#[test]
fn filters_combine_and_reject_impossible_values() {
    let bb = bb();
    let f = Filter {
        side: Some(Color::Black),
        pawn_file: Some(2),
        pawn_rank: Some(5),
        outcome: Some(Outcome::Draw),
        max_dtc: None,
    };
    let ds = Dataset::select("x", &f, &bb).unwrap();
    assert!(!ds.is_empty());
    for (p, o) in ds.positions.iter().zip(&ds.outcomes) {
        assert_eq!((p.side(), p.wp().to_string(), *o), (Color::Black, "b5".to_string(), Outcome::Draw));
    }
    let all = Dataset::named("all", 0, &bb).unwrap();
    assert_eq!(all.filter(&f).unwrap().positions, ds.positions);
    assert!(Dataset::select("x", &Filter { pawn_file: Some(5), ..Filter::default() }, &bb).is_err());
    assert!(Dataset::select("x", &Filter { pawn_rank: Some(8), ..Filter::default() }, &bb).is_err());
}

#[test]
fn inputs_have_one_row_per_position() {
    let bb = bb();
    let t1 = Dataset::named("T1", DEFAULT_SEED, &bb).unwrap();
    for c in InputCoding::ALL {
        let a = t1.inputs(c);
        assert_eq!(a.dim(), (125, c.width()));
        for (row, p) in a.rows().into_iter().zip(&t1.positions) {
            assert_eq!(c.decode(row.as_slice().unwrap()).unwrap(), features(p));
        }
    }
}

#[test]
fn csv_has_the_documented_columns() {
    let bb = bb();
    let t2 = Dataset::named("T2", 3, &bb).unwrap();
    let scratch = crate::scratch::Scratch::new("dataset");
    let path = scratch.join("t2.csv");
    t2.to_csv(&path).unwrap();
    let mut r = csv::Reader::from_path(&path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header.len(), 4 + 32 + 2);
    assert_eq!(
        (&header[..4], header[4].as_str(), header[35].as_str()),
        (&["side", "wk", "bk", "wp"].map(String::from)[..], "x1", "x32")
    );
    assert_eq!(&header[36..], ["result", "dtc"]);
    let rows: Vec<csv::StringRecord> = r.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), t2.len());
    for (row, i) in rows.iter().zip(0..) {
        let p = t2.positions[i];
        assert_eq!(&row[0], "b");
        assert_eq!(&row[1], p.wk().to_string());
        let x: Vec<i8> = (4..36).map(|c| row[c].parse().unwrap()).collect();
        assert_eq!(x, features(&p));
        assert_eq!(&row[36], t2.outcomes[i].to_string());
        assert_eq!(&row[37], t2.dtc[i].map(|d| d.to_string()).unwrap_or_default());
    }
}

//! The explorer's API (`kpk serve`): `/api/probe` agrees with the bitbase on every legal position
//! in two orientations, `/api/map` on whole boards, errors have their status codes, and the real
//! server over loopback survives malformed requests.

use kpk::chess::position::After;
use kpk::chess::probe::probe;
use kpk::hybrid::Hybrid;
use kpk::paper::features::features;
use kpk::serve::api::Explorer;
use kpk::serve::server::Limits;
use kpk::serve::{MAX_URL, route};
use kpk::{Bitbase, KpkPosition, Oriented, Outcome};
use kpk_probe::Transform;
use rayon::prelude::*;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

fn explorer() -> &'static Explorer {
    static E: OnceLock<Explorer> = OnceLock::new();
    E.get_or_init(|| {
        let hybrid = Hybrid::load(std::path::Path::new(kpk::hybrid::DEFAULT_MODEL)).unwrap();
        Explorer::new(Bitbase::generate(), Some(hybrid), Vec::new())
    })
}

fn name(o: Outcome) -> &'static str {
    if o == Outcome::Win { "win" } else { "draw" }
}

/// Check one answer of `/api/probe` against the bitbase, the library's probe and features.
fn check_probe(e: &Explorer, p: &KpkPosition, t: Transform) {
    let bb = &e.bitbase;
    let o = Oriented { position: *p, transform: t };
    let fen = o.to_fen();
    let v = e.probe(&fen).unwrap_or_else(|err| panic!("{fen}: {err}"));
    assert_eq!(v["result"], name(bb.outcome(p)), "{fen}");
    assert_eq!(v["dtc"].as_u64(), bb.dtc(p).map(|d| u64::from(d.0)), "{fen}");
    assert_eq!(v["hybrid"]["result"], name(bb.outcome(p)), "{fen}");
    let x = features(p);
    for (i, xi) in x.iter().enumerate() {
        assert_eq!(v["features"][format!("x{}", i + 1)].as_i64(), Some(i64::from(*xi)), "{fen}");
    }
    let perfect = kpk::play::perfect_move(bb, p).map(|mv| kpk::play::uci(&o, mv));
    assert_eq!(v["perfect"].as_str(), perfect.as_deref(), "{fen}");
    let lib = probe(bb, &o);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), p.moves().len(), "{fen}: every legal move listed");
    assert_eq!(moves.len(), lib.moves.len());
    for (m, l) in moves.iter().zip(&lib.moves) {
        assert_eq!(m["san"], l.name.as_str(), "{fen}");
        assert_eq!(m["best"], l.best, "{fen} {}", l.name);
        assert_eq!(m["result"], name(l.outcome), "{fen} {}", l.name);
        assert_eq!(m["dtc"].as_u64(), l.dtc.map(u64::from), "{fen} {}", l.name);
        // The move's FEN is the position it leads to: the bitbase's answer there is the move's.
        match m["fen"].as_str() {
            Some(next) => {
                let n = Oriented::from_fen(next).unwrap().position;
                assert_eq!(name(bb.outcome(&n)), m["result"], "{fen} {}", l.name);
                assert_eq!(bb.dtc(&n).map(|d| u64::from(d.0)), m["dtc"].as_u64(), "{fen} {}", l.name);
                assert!(p.moves().iter().any(|&mv| p.play(mv) == After::Position(n)), "{fen} {next}");
            }
            None => assert!(!l.note.is_empty(), "{fen} {}: only moves that end the game have no FEN", l.name),
        }
        let uci = m["uci"].as_str().unwrap();
        assert!(uci.len() == 4 || uci.len() == 5, "{fen}: {uci}");
    }
}

#[test]
fn probe_agrees_with_the_bitbase_on_every_legal_position_in_two_orientations() {
    let e = explorer();
    let all: Vec<KpkPosition> = KpkPosition::all().collect();
    assert_eq!(all.len(), 165_676);
    let flipped = Transform { flip_colours: true, mirror_files: true };
    all.par_iter().for_each(|p| {
        check_probe(e, p, Transform::IDENTITY);
        check_probe(e, p, flipped);
    });
}

#[test]
fn the_pawn_side_view_and_the_users_squares() {
    // Table 1, set 3 with Black's pawn on the f-file, colours reversed: still a win in 27 plies,
    // the only winning move Kf7 (Kc2 in White's view), named in the user's orientation.
    let v = explorer().probe("4k3/8/5p2/8/8/8/8/2K5 b - - 0 1").unwrap();
    assert_eq!((v["result"].as_str(), v["dtc"].as_u64()), (Some("win"), Some(27)));
    assert_eq!((v["side"].as_str(), v["pawn_side"].as_str()), (Some("black"), Some("black")));
    let best: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["best"] == true)
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(best, ["e8f7"]);
}

#[test]
fn map_gives_every_square_of_both_kings() {
    let e = explorer();
    for fen in [
        "5k2/8/8/8/8/2P5/8/3K4 w - - 0 1",
        "8/8/8/8/8/2K5/5p2/5k2 b - - 0 1",
        "8/1k6/8/K7/P7/8/8/8 b - - 0 1",
    ] {
        let o = Oriented::from_fen(fen).unwrap();
        let p = o.position;
        let v = e.map(fen).unwrap();
        for (key, lone) in [("lone_king", true), ("pawn_king", false)] {
            let squares = v[key].as_array().unwrap();
            assert_eq!(squares.len(), 64);
            for (i, s) in squares.iter().enumerate() {
                let user = kpk::Square::new(i as u8).unwrap();
                assert_eq!(s["square"], user.to_string());
                let c = o.transform.apply(user);
                let q = if lone {
                    KpkPosition::new(p.wk(), c, p.wp(), p.side())
                } else {
                    KpkPosition::new(c, p.bk(), p.wp(), p.side())
                };
                match q {
                    Ok(q) => {
                        assert_eq!(s["result"], name(e.bitbase.outcome(&q)), "{fen} {key} {user}");
                        assert_eq!(s["hybrid"]["errs"], false);
                    }
                    Err(_) => assert_eq!(s["legal"], false, "{fen} {key} {user}"),
                }
            }
        }
    }
}

#[test]
fn errors_have_their_status_and_the_clis_message() {
    let e = explorer();
    let page = kpk::serve::page();
    let body = |r: &kpk::serve::Reply| serde_json::from_slice::<Value>(&r.body).unwrap();
    let bad = "8/8/8/8/8/1k6/P7/4K3 w";
    let r = route(e, &page, "GET", &format!("/api/probe?fen={}", bad.replace(' ', "+")));
    assert_eq!(r.status, 400);
    assert_eq!(body(&r)["error"], Oriented::from_fen(bad).unwrap_err().to_string());
    for (method, url, status) in [
        ("GET", "/api/probe", 400),
        ("GET", "/api/map?fen=%zz", 400),
        ("GET", "/api/map?fen=", 400),
        ("GET", "/nope", 404),
        ("GET", "/../etc/passwd", 404),
        ("POST", "/api/probe?fen=x", 405),
        ("DELETE", "/", 405),
    ] {
        let r = route(e, &page, method, url);
        assert_eq!(r.status, status, "{method} {url}");
        assert!(body(&r)["error"].is_string());
    }
    assert_eq!(route(e, &page, "GET", &format!("/api/probe?fen={}", "a".repeat(MAX_URL))).status, 414);
    let ok = route(e, &page, "GET", "/api/probe?fen=5k2/8/8/8/8/2P5/8/3K4+w+-+-+0+1");
    assert_eq!((ok.status, ok.content_type), (200, "application/json"));
    let html = route(e, &page, "GET", "/");
    assert!(String::from_utf8(html.body).unwrap().contains("id=\"piece-wK\""));
    for asset in ["/app.js", "/style.css", "/DejaVuSans.ttf"] {
        assert_eq!(route(e, &page, "GET", asset).status, 200, "{asset}");
    }
}

/// Send raw bytes to the server and read its answer until it closes the connection.
fn exchange(port: u16, request: &[u8]) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = s.write_all(request);
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn the_server_answers_over_loopback_and_survives_malformed_requests() {
    let server = kpk::serve::bind(0).unwrap();
    let port = server.address().port();
    assert!(server.address().ip().is_loopback());
    let stop = server.stopper();
    let explorer = Arc::new(Explorer::new(Bitbase::generate(), None, Vec::new()));
    let handle = std::thread::spawn(move || server.run(explorer, Limits::new(2)));
    let get = |target: &str| {
        exchange(port, format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
    };
    let ok = get("/api/probe?fen=5k2/8/8/8/8/2P5/8/3K4%20w%20-%20-%200%201");
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    assert!(ok.contains("\"dtc\":27") && ok.contains("\"san\":\"Kc2\""), "{ok}");
    assert!(get("/api/probe?fen=nonsense").starts_with("HTTP/1.1 400"));
    assert!(get("/missing").starts_with("HTTP/1.1 404"));
    assert!(get(&format!("/api/probe?fen={}", "x".repeat(5000))).starts_with("HTTP/1.1 414"));
    let post = exchange(
        port,
        b"POST /api/probe HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
    );
    assert!(post.starts_with("HTTP/1.1 405"), "{post}");
    let big =
        format!("GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\nConnection: close\r\n\r\n", "y".repeat(20_000));
    assert!(exchange(port, big.as_bytes()).starts_with("HTTP/1.1 431"));
    // Malformed requests: garbage, a bad request line, a bad header, binary bytes, a cut request.
    for junk in [
        &b"\r\n\r\n"[..],
        b"HELLO\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET / HTTP/1.1\r\nno colon here\r\n\r\n",
        b"\x00\xff\xfe\x01\r\n\r\n",
        b"GET /api/probe?fen=",
    ] {
        let _ = exchange(port, junk);
    }
    // Still answering.
    assert!(get("/").starts_with("HTTP/1.1 200"));
    stop.stop();
    handle.join().unwrap().unwrap();
}

/// docs/SERVE.md's `/api/probe` line names every `source` the hybrid's answer can carry, spelt as
/// the API writes it (`Source`'s Display); the match is exhaustive, so a new source fails to
/// compile until it is added here and to the document.
#[test]
fn serve_md_lists_every_source_of_the_hybrids_answer() {
    use kpk_probe::Source;
    let every = [Source::Net, Source::Tree, Source::Exception, Source::Rule];
    for s in every {
        match s {
            Source::Net | Source::Tree | Source::Exception | Source::Rule => {}
        }
    }
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/SERVE.md")).unwrap();
    let listed = every.map(|s| format!("\"{s}\"")).join("|");
    assert!(doc.contains(&format!("\"source\": {listed}}}|null")), "SERVE.md lacks \"source\": {listed}");
}

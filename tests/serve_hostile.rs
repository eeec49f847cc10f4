//! `kpk serve` against a request that declares a body it never sends, on 127.0.0.1 only and
//! bounded in time: the server refuses it with 413 without reading or holding the body, and
//! answers the next request.

use kpk::Bitbase;
use kpk::serve::api::Explorer;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

/// Send `request` and read the answer until its JSON body is in, the server closes, or 10 s pass;
/// the connection is then closed by dropping it.
fn answer_to(port: u16, request: &[u8]) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect to 127.0.0.1");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = s.read(&mut buf) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
        if String::from_utf8_lossy(&out).contains("\"}") {
            break;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn a_30_gb_content_length_gets_413_and_the_server_answers_the_next_request() {
    let server = Arc::new(kpk::serve::bind(0).unwrap());
    let port = kpk::serve::port(&server);
    assert!(server.server_addr().to_ip().unwrap().ip().is_loopback());
    let explorer = Arc::new(Explorer::new(Bitbase::generate(), None, Vec::new()));
    let handle = {
        let server = server.clone();
        std::thread::spawn(move || kpk::serve::run(server, explorer, 2))
    };
    for length in ["30000000000", "18446744073709551615"] {
        let huge = format!("GET /api/probe?fen=x HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n");
        let refused = answer_to(port, huge.as_bytes());
        assert!(refused.starts_with("HTTP/1.1 413"), "Content-Length {length}: {refused:?}");
    }
    // The process is alive and answers the next request.
    let next = answer_to(
        port,
        b"GET /api/probe?fen=5k2/8/8/8/8/2P5/8/3K4%20w%20-%20-%200%201 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(next.starts_with("HTTP/1.1 200") && next.contains("\"dtc\":27"), "{next}");
    // A short body is still read with its request (a POST is refused for its method).
    let post = answer_to(
        port,
        b"POST /api/probe HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
    );
    assert!(post.starts_with("HTTP/1.1 405"), "{post}");
    for _ in 0..2 {
        server.unblock();
    }
    handle.join().unwrap();
}

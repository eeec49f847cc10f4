//! `kpk serve` against clients that never finish, on 127.0.0.1 only and bounded in time: a body
//! declared and never sent gets 413 and the connection closed; connections held idle past the
//! bound on connections and past the process's descriptor limit (`ulimit -n`, set for a `kpk serve`
//! process of its own) do not stop another client from getting the page; a request line that is
//! not UTF-8 gets 400; idle, slow and stalled connections are closed after the timeout.

use kpk::Bitbase;
use kpk::serve::api::Explorer;
use kpk::serve::server::{Limits, Stop};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const PROBE_27: &[u8] =
    b"GET /api/probe?fen=5k2/8/8/8/8/2P5/8/3K4%20w%20-%20-%200%201 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

fn connect(port: u16) -> TcpStream {
    let s = TcpStream::connect(("127.0.0.1", port)).expect("connect to 127.0.0.1");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// Send `request` and read the answer until its JSON body is in, the server closes, or 10 s pass;
/// the connection is then closed by dropping it.
fn answer_to(port: u16, request: &[u8]) -> String {
    let mut s = connect(port);
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

/// Send raw bytes, then read the answer until the server closes the connection (or 10 s pass).
fn exchange(port: u16, request: &[u8]) -> String {
    let mut s = connect(port);
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The whole page, as a new client asks for it: a 200 whose body holds the board's pieces.
fn page_is_served(port: u16) -> Result<(), String> {
    let page = exchange(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    if page.starts_with("HTTP/1.1 200") && page.contains("id=\"piece-wK\"") && page.contains("</html>") {
        Ok(())
    } else {
        Err(format!("the page was not served: {:?}", &page[..page.len().min(200)]))
    }
}

/// A server in this process with `limits`, stopped by the returned [`Stop`].
fn in_process(limits: Limits) -> (u16, Stop, JoinHandle<kpk::Result<()>>) {
    let server = kpk::serve::bind(0).unwrap();
    assert!(server.address().ip().is_loopback());
    let (port, stop) = (server.address().port(), server.stopper());
    let explorer = Arc::new(Explorer::new(Bitbase::generate(), None, Vec::new()));
    (port, stop, std::thread::spawn(move || server.run(explorer, limits)))
}

/// A `kpk serve` process with its descriptor limit set by `ulimit -n`, killed when dropped.
struct ServeProcess {
    child: Child,
    port: u16,
}

impl ServeProcess {
    fn start(ulimit: u32) -> ServeProcess {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -n {ulimit} && exec \"$0\" serve --port 0 --threads 4"))
            .arg(env!("CARGO_BIN_EXE_kpk"))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start kpk serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        ServeProcess { child, port }
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Open `n` connections that send nothing and hold them; the fifth client (one of its own) then
/// gets the page, three times over two seconds, while they are held.
fn idle_connections_do_not_stop_another_client(ulimit: u32, n: usize) {
    let server = ServeProcess::start(ulimit);
    page_is_served(server.port).unwrap();
    let held: Vec<TcpStream> = (0..n).map(|_| connect(server.port)).collect();
    for round in 0..3 {
        std::thread::sleep(Duration::from_millis(700));
        if let Err(e) = page_is_served(server.port) {
            panic!("{n} idle connections under ulimit -n {ulimit}, round {round}: {e}");
        }
    }
    drop(held);
}

#[test]
fn six_hundred_idle_connections_under_ulimit_1024_do_not_stop_another_client() {
    idle_connections_do_not_stop_another_client(1024, 600);
}

#[test]
fn idle_connections_past_the_descriptor_limit_pause_accept_and_do_not_end_it() {
    // Far below the bound on connections held: every descriptor runs out (EMFILE) first.
    idle_connections_do_not_stop_another_client(64, 200);
}

#[test]
fn four_held_413_connections_are_closed_and_another_client_gets_the_page() {
    let server = ServeProcess::start(1024);
    let request = b"GET /api/probe?fen=x HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n";
    let held: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut s = connect(server.port);
            s.write_all(request).unwrap();
            s
        })
        .collect();
    // While the four wait on their answers, unread: another client gets the page.
    page_is_served(server.port).unwrap();
    for mut s in &held {
        // The 413, then the server's close: well before the 30 s timeout, with the body never sent.
        let started = Instant::now();
        let mut answer = Vec::new();
        s.read_to_end(&mut answer).expect("the server closes the connection after its 413");
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer:?}");
        assert!(answer.to_ascii_lowercase().contains("connection: close"), "{answer:?}");
        assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    }
    page_is_served(server.port).unwrap();
    let next = answer_to(server.port, PROBE_27);
    assert!(next.starts_with("HTTP/1.1 200") && next.contains("\"dtc\":27"), "{next}");
    drop(held);
}

#[test]
fn a_30_gb_content_length_gets_413_and_the_server_answers_the_next_request() {
    let (port, stop, handle) = in_process(Limits::new(2));
    // The largest length hyper represents is 2^64 - 3; a longer one is refused by its parser, with
    // 431 and no body. Either way the connection is closed, the body never read.
    for (length, status) in
        [("30000000000", 413), ("18446744073709551613", 413), ("18446744073709551615", 431)]
    {
        let huge = format!("GET /api/probe?fen=x HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n");
        let refused = exchange(port, huge.as_bytes());
        assert!(refused.starts_with(&format!("HTTP/1.1 {status}")), "Content-Length {length}: {refused:?}");
        assert!(refused.to_ascii_lowercase().contains("connection: close"), "{refused:?}");
    }
    // The process is alive and answers the next request.
    let next = answer_to(port, PROBE_27);
    assert!(next.starts_with("HTTP/1.1 200") && next.contains("\"dtc\":27"), "{next}");
    // A short body is still read with its request (a POST is refused for its method).
    let post = answer_to(
        port,
        b"POST /api/probe HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
    );
    assert!(post.starts_with("HTTP/1.1 405"), "{post}");
    stop.stop();
    handle.join().unwrap().unwrap();
}

#[test]
fn a_request_line_that_is_not_utf8_gets_400() {
    let (port, stop, handle) = in_process(Limits::new(2));
    for line in [
        &b"GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n"[..],
        b"GET /api/probe?fen=\xc3\x28 HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /\xe2\x80 HTTP/1.1\r\nHost: x\r\n\r\n",
        b"G\xc9T / HTTP/1.1\r\nHost: x\r\n\r\n",
        b"\x00\xff\xfe\x01\r\n\r\n",
    ] {
        let answer = exchange(port, line);
        assert!(answer.starts_with("HTTP/1.1 400"), "{:?}: {answer:?}", String::from_utf8_lossy(line));
    }
    // A target in UTF-8 is decoded and routed: no such path.
    let utf8 = exchange(port, "GET /\u{2026} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".as_bytes());
    assert!(utf8.starts_with("HTTP/1.1 404") && utf8.contains("no such path: '/\u{2026}'"), "{utf8:?}");
    assert!(answer_to(port, PROBE_27).starts_with("HTTP/1.1 200"));
    stop.stop();
    handle.join().unwrap().unwrap();
}

#[test]
fn idle_slow_and_stalled_connections_are_closed_after_the_timeout() {
    let timeout = Duration::from_secs(1);
    let (port, stop, handle) = in_process(Limits { timeout, ..Limits::new(2) });
    // Idle: closed, with nothing sent.
    let started = Instant::now();
    let mut idle = connect(port);
    let mut rest = Vec::new();
    assert_eq!(idle.read_to_end(&mut rest).unwrap(), 0);
    let waited = started.elapsed();
    assert!(waited >= timeout && waited < timeout * 4, "{waited:?}");
    // A head sent a header every 200 ms: closed once the whole head is not in within the timeout.
    let started = Instant::now();
    let mut slow = connect(port);
    slow.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    while slow.write_all(b"X-Slow: 1\r\n").is_ok() && started.elapsed() < timeout * 6 {
        std::thread::sleep(Duration::from_millis(200));
    }
    let waited = started.elapsed();
    assert!(waited >= timeout && waited < timeout * 5, "{waited:?}");
    // A client that asks for the 757 kB font 60 times over and reads nothing: once the socket
    // buffers are full no byte moves, and the connection is closed before all the answers go out.
    let mut stalled = connect(port);
    let request = b"GET /DejaVuSans.ttf HTTP/1.1\r\nHost: x\r\n\r\n".repeat(60);
    stalled.write_all(&request).unwrap();
    std::thread::sleep(timeout * 3);
    let mut received = Vec::new();
    let _ = stalled.read_to_end(&mut received);
    let whole = 60 * std::fs::metadata("assets/DejaVuSans.ttf").unwrap().len() as usize;
    assert!(received.len() < whole, "{} of {whole} bytes", received.len());
    // Still answering.
    assert!(answer_to(port, PROBE_27).starts_with("HTTP/1.1 200"));
    stop.stop();
    handle.join().unwrap().unwrap();
}

//! Load test of the explorer's server: starts `kpk serve`'s server in this process on a free
//! loopback port, then 50 client connections (keep-alive) send 200 `GET /api/probe` requests each
//! (10,000 in all, over varied legal positions). Every answer must be a 200 with a JSON body; the
//! run stops by itself (a 10 s timeout per read, 120 s for the whole run). Prints the error count,
//! throughput and latency percentiles.
//!
//! ```sh
//! cargo run --release --example serve_load
//! ```

use kpk::serve::api::Explorer;
use kpk::serve::server::Limits;
use kpk::{Bitbase, KpkPosition};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

const CONNECTIONS: usize = 50;
const PER_CONNECTION: usize = 200;
const SERVER_THREADS: usize = 4;
const DEADLINE: Duration = Duration::from_secs(120);

/// Send one request on a keep-alive connection; read the status line, headers and body.
fn request(stream: &mut BufReader<TcpStream>, target: &str) -> std::io::Result<(u16, Vec<u8>)> {
    let req = format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    stream.get_mut().write_all(req.as_bytes())?;
    let mut line = String::new();
    stream.read_line(&mut line)?;
    let status: u16 = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut length = 0usize;
    loop {
        line.clear();
        if stream.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body)?;
    Ok((status, body))
}

fn main() {
    let server = kpk::serve::bind(0).expect("bind 127.0.0.1");
    let port = server.address().port();
    let stop = server.stopper();
    let explorer = Arc::new(Explorer::new(Bitbase::generate(), None, Vec::new()));
    let serving = std::thread::spawn(move || server.run(explorer, Limits::new(SERVER_THREADS)));
    let fens: Arc<Vec<String>> =
        Arc::new(KpkPosition::all().step_by(97).map(|p| p.to_fen().replace(' ', "%20")).collect());
    let started = Instant::now();
    let clients: Vec<_> = (0..CONNECTIONS)
        .map(|c| {
            let fens = fens.clone();
            std::thread::spawn(move || {
                let mut latencies = Vec::with_capacity(PER_CONNECTION);
                let mut errors = 0usize;
                let Ok(stream) = TcpStream::connect(("127.0.0.1", port)) else {
                    return (latencies, PER_CONNECTION);
                };
                stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
                let mut stream = BufReader::new(stream);
                for i in 0..PER_CONNECTION {
                    if started.elapsed() > DEADLINE {
                        errors += PER_CONNECTION - i;
                        break;
                    }
                    let fen = &fens[(c * PER_CONNECTION + i) % fens.len()];
                    let t = Instant::now();
                    match request(&mut stream, &format!("/api/probe?fen={fen}")) {
                        Ok((200, body)) if body.first() == Some(&b'{') => latencies.push(t.elapsed()),
                        _ => errors += 1,
                    }
                }
                (latencies, errors)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    for c in clients {
        let (l, e) = c.join().expect("client thread");
        latencies.extend(l);
        errors += e;
    }
    let wall = started.elapsed();
    stop.stop();
    serving.join().expect("server").expect("server");
    latencies.sort_unstable();
    let pct = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q).ceil() as usize).saturating_sub(1))
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
    };
    println!(
        "{} requests over {CONNECTIONS} connections, {SERVER_THREADS} server threads: {} ok, {errors} errors, {:.2} s, {:.0} requests/s",
        CONNECTIONS * PER_CONNECTION,
        latencies.len(),
        wall.as_secs_f64(),
        latencies.len() as f64 / wall.as_secs_f64()
    );
    println!(
        "latency ms: p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    if errors > 0 {
        std::process::exit(1);
    }
}

//! `kpk serve`: the explorer, a local web page over the bitbase, the characteristics, the hybrid
//! and trained nets.
//!
//! The HTTP server is hyper's HTTP/1 server on tokio ([`server`]: no hand-written HTTP parsing
//! here, timeouts and a bound on connections against clients that never finish); it listens on
//! 127.0.0.1 only. Routing is the pure function [`route`], which the tests
//! call directly for every legal position. The page (HTML, CSS, JS, the DejaVu Sans font) is
//! compiled into the binary; nothing is read from or written to disk per request.

pub mod api;
pub mod server;

use crate::error::Result;
use crate::figures::plot::FONT;
use crate::paper::features::FEATURES;
use api::Explorer;
use serde_json::json;

/// The longest request target accepted (longer: 414). A FEN is under 100 characters.
pub const MAX_URL: usize = 2048;
/// The most header bytes accepted (more: 431).
pub const MAX_HEADER_BYTES: usize = 8192;
/// The longest request body a request may declare (more: 413, answered without reading the
/// body, and the connection closed). The explorer's requests carry none.
pub const MAX_BODY_BYTES: usize = 1024;

const INDEX_HTML: &str = include_str!("../../assets/web/index.html");
const APP_JS: &str = include_str!("../../assets/web/app.js");
const STYLE_CSS: &str = include_str!("../../assets/web/style.css");

/// An HTTP answer: status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    fn json(status: u16, value: &serde_json::Value) -> Reply {
        Reply { status, content_type: "application/json", body: value.to_string().into_bytes() }
    }
    fn error(status: u16, message: &str) -> Reply {
        Reply::json(status, &json!({ "error": message }))
    }
}

/// The page with the board's piece symbols and Table 4's rows filled in (built once at start).
pub fn page() -> String {
    let table: Vec<_> = FEATURES
        .iter()
        .map(|f| json!({"x": f.x, "code": f.code, "name": f.name, "level": f.level, "description": f.description}))
        .collect();
    INDEX_HTML
        .replace(
            "<!--PIECES-->",
            &format!(
                "<svg width=\"0\" height=\"0\" style=\"position:absolute\">{}</svg>",
                crate::report::diagram::piece_defs()
            ),
        )
        .replace("/*TABLE4*/null", &serde_json::Value::Array(table).to_string())
        .replace(
            "/*SQUARE_COLOURS*/null",
            &json!([crate::report::diagram::LIGHT, crate::report::diagram::DARK]).to_string(),
        )
}

/// Decode a query string component: `+` is a space, `%XY` a byte; the bytes must be UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    let mut out = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The value of `key` in a query string.
fn query_value(query: &str, key: &str) -> Option<Option<String>> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == key).then(|| percent_decode(v))
    })
}

/// Answer one request: `GET /` (the page), `/app.js`, `/style.css`, `/DejaVuSans.ttf`,
/// `/api/probe?fen=`, `/api/map?fen=`. A bad FEN is 400 with the CLI's message, an unknown path
/// 404, a method other than GET 405, a request target over [`MAX_URL`] bytes 414.
pub fn route(explorer: &Explorer, page: &str, method: &str, url: &str) -> Reply {
    if url.len() > MAX_URL {
        return Reply::error(414, &format!("request target over {MAX_URL} bytes"));
    }
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let known = matches!(
        path,
        "/" | "/index.html" | "/app.js" | "/style.css" | "/DejaVuSans.ttf" | "/api/probe" | "/api/map"
    );
    if !known {
        return Reply::error(404, &format!("no such path: {}", kpk_probe::quote::quote(path)));
    }
    if method != "GET" {
        return Reply::error(
            405,
            &format!("method {} not allowed: only GET", kpk_probe::quote::quote(method)),
        );
    }
    let asset = |content_type, body: &[u8]| Reply { status: 200, content_type, body: body.to_vec() };
    match path {
        "/" | "/index.html" => asset("text/html; charset=utf-8", page.as_bytes()),
        "/app.js" => asset("text/javascript; charset=utf-8", APP_JS.as_bytes()),
        "/style.css" => asset("text/css; charset=utf-8", STYLE_CSS.as_bytes()),
        "/DejaVuSans.ttf" => asset("font/ttf", FONT),
        _ => {
            let fen = match query_value(query, "fen") {
                Some(Some(fen)) => fen,
                Some(None) => {
                    return Reply::error(400, "the fen parameter is not valid percent-encoded UTF-8");
                }
                None => return Reply::error(400, "missing query parameter fen=FEN"),
            };
            let answer = if path == "/api/probe" { explorer.probe(&fen) } else { explorer.map(&fen) };
            match answer {
                Ok(v) => Reply::json(200, &v),
                Err(e) => Reply::error(400, &e.to_string()),
            }
        }
    }
}

/// Listen on 127.0.0.1:`port` (0: a free port); [`server::Server::run`] then serves.
pub fn bind(port: u16) -> Result<server::Server> {
    server::Server::bind(port)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("5k2%2F8+w").as_deref(), Some("5k2/8 w"));
        assert_eq!(percent_decode("%e2%80%a6").as_deref(), Some("…"));
        assert_eq!(percent_decode("%zz"), None);
        assert_eq!(percent_decode("%2"), None);
        assert_eq!(percent_decode("%ff"), None, "not UTF-8");
        assert_eq!(query_value("a=1&fen=x+y", "fen"), Some(Some("x y".into())));
        assert_eq!(query_value("a=1", "fen"), None);
    }
}

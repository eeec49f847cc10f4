//! The explorer's HTTP server: hyper's HTTP/1 server on a tokio runtime, listening on 127.0.0.1,
//! answering each request with [`super::route`] and holding up against clients that never finish.
//!
//! The rules that keep it serving whatever the clients do:
//! - **Timeouts.** A connection waiting for a request is closed unless the request's head (its
//!   request line and headers) is in within [`Limits::timeout`]: an idle keep-alive connection and
//!   a client sending its head a byte at a time alike. Any connection on which no byte moves
//!   either way for that long, while the server waits to read or to write, is closed too (a client
//!   that stops reading its answer, or a body that never comes).
//! - **A bound on connections held.** At most [`Limits::max_connections`]; a connection accepted
//!   over the bound closes the one on which a byte last moved longest ago (the most idle).
//! - **Descriptors running out.** When `accept` fails for want of a file descriptor or memory
//!   (EMFILE, ENFILE, ENOBUFS, ENOMEM), the accept loop closes the most idle connection, pauses
//!   for [`PAUSE`] and tries again, as nginx does; after any other error it pauses and tries
//!   again too: no error of `accept` ends the loop.
//! - **Bodies are never read.** A request declaring a body over [`super::MAX_BODY_BYTES`] gets 413
//!   and the connection is closed after it; a request head over [`MAX_HEAD_BYTES`] gets hyper's
//!   431, an unparsable one (a request line that is not UTF-8, say) hyper's 400, both without a
//!   body and followed by the connection's close.

use super::api::Explorer;
use super::{MAX_BODY_BYTES, MAX_HEADER_BYTES, Reply};
use crate::error::{Error, Result};
use http_body_util::Full;
use hyper::body::{Body, Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::time::Sleep;

/// The most bytes of a request's head (request line and headers) read before it is refused with
/// 431: the size of hyper's read buffer.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// How long the accept loop pauses after `accept` failed (out of descriptors, say).
pub const PAUSE: Duration = Duration::from_millis(20);

/// What one server may hold and for how long.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Worker threads answering requests.
    pub threads: usize,
    /// The longest a request's head may take to arrive, and the longest no byte may move.
    pub timeout: Duration,
    /// The most connections held at once.
    pub max_connections: usize,
}

impl Limits {
    /// `threads` workers, a 30 s timeout and at most 512 connections.
    pub fn new(threads: usize) -> Limits {
        Limits { threads: threads.max(1), timeout: Duration::from_secs(30), max_connections: 512 }
    }
}

/// A server bound to a loopback port, not yet serving.
pub struct Server {
    listener: std::net::TcpListener,
    stop: Arc<Notify>,
}

/// Stops a running [`Server`] (from another thread): its accept loop ends and every connection is
/// closed.
#[derive(Clone)]
pub struct Stop(Arc<Notify>);

impl Stop {
    pub fn stop(&self) {
        self.0.notify_one();
    }
}

impl Server {
    /// Listen on 127.0.0.1:`port` (0: a free port). Only the loopback interface is ever bound.
    pub fn bind(port: u16) -> Result<Server> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", port))
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .map_err(|e| Error::Unavailable(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
        Ok(Server { listener, stop: Arc::new(Notify::new()) })
    }

    /// The address listened on.
    pub fn address(&self) -> std::net::SocketAddr {
        self.listener.local_addr().unwrap_or_else(|_| ([127, 0, 0, 1], 0).into())
    }

    pub fn stopper(&self) -> Stop {
        Stop(self.stop.clone())
    }

    /// Serve until stopped ([`Stop::stop`]); each request is answered by [`super::route`].
    pub fn run(self, explorer: Arc<Explorer>, limits: Limits) -> Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(limits.threads.max(1))
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| Error::Unavailable(format!("tokio runtime: {e}")))?;
        let page: Arc<str> = super::page().into();
        runtime.block_on(async move {
            let listener = TcpListener::from_std(self.listener)
                .map_err(|e| Error::Unavailable(format!("cannot listen: {e}")))?;
            accept_loop(listener, &self.stop, explorer, page, limits).await;
            Ok(())
        })
    }
}

/// The connections held: each one's handle to close it and when a byte last moved on it.
struct Held {
    next: u64,
    open: HashMap<u64, (tokio::task::AbortHandle, Arc<AtomicU64>)>,
}

type Registry = Arc<Mutex<Held>>;

fn lock(registry: &Registry) -> std::sync::MutexGuard<'_, Held> {
    registry.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Close the connection on which a byte last moved longest ago; false when none is held.
fn close_most_idle(registry: &Registry) -> bool {
    let mut held = lock(registry);
    let oldest =
        held.open.iter().min_by_key(|(_, (_, last))| last.load(Ordering::Relaxed)).map(|(&id, _)| id);
    match oldest.and_then(|id| held.open.remove(&id)) {
        Some((abort, _)) => {
            abort.abort();
            true
        }
        None => false,
    }
}

/// Removes its connection from the registry when the connection's task ends or is aborted.
struct Release(Registry, u64);

impl Drop for Release {
    fn drop(&mut self) {
        lock(&self.0).open.remove(&self.1);
    }
}

/// Whether an `accept` error means the process (or the system) is out of descriptors or memory.
fn out_of_resources(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM))
}

async fn accept_loop(
    listener: TcpListener,
    stop: &Notify,
    explorer: Arc<Explorer>,
    page: Arc<str>,
    limits: Limits,
) {
    let registry: Registry = Arc::new(Mutex::new(Held { next: 0, open: HashMap::new() }));
    let epoch = Instant::now();
    let mut stopped = pin!(stop.notified());
    loop {
        let accepted = std::future::poll_fn(|cx| {
            if stopped.as_mut().poll(cx).is_ready() {
                return Poll::Ready(None);
            }
            listener.poll_accept(cx).map(Some)
        })
        .await;
        let stream = match accepted {
            None => return,
            Some(Ok((stream, _))) => stream,
            Some(Err(e)) => {
                // Out of descriptors: free one. Any error: pause, so that one that persists does
                // not spin the loop, then accept again.
                if out_of_resources(&e) {
                    close_most_idle(&registry);
                }
                tokio::time::sleep(PAUSE).await;
                continue;
            }
        };
        if lock(&registry).open.len() >= limits.max_connections {
            close_most_idle(&registry);
        }
        let last = Arc::new(AtomicU64::new(millis_since(epoch)));
        let io = Watched::new(stream, last.clone(), epoch, limits.timeout);
        let (explorer, page) = (explorer.clone(), page.clone());
        // Registered under the lock, so that the task's `Release` (which takes the lock) cannot
        // run before its entry exists. `spawn` never runs the task in place while the runtime
        // runs this loop.
        let mut held = lock(&registry);
        let id = held.next;
        held.next += 1;
        let release = Release(registry.clone(), id);
        let task = tokio::spawn(async move {
            let _release = release;
            serve_connection(io, explorer, page, limits.timeout).await;
        });
        held.open.insert(id, (task.abort_handle(), last));
    }
}

fn millis_since(epoch: Instant) -> u64 {
    u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
}

async fn serve_connection(io: Watched, explorer: Arc<Explorer>, page: Arc<str>, timeout: Duration) {
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let response = answer(&explorer, &page, &request);
        async move { Ok::<_, Infallible>(response) }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .half_close(true);
    // An error here is the client's (it left, timed out, or sent what is not HTTP): the
    // connection is closed either way.
    let _ = builder.serve_connection(TokioIo::new(io), service).await;
}

/// Answer one request; a refused body closes the connection after the answer.
fn answer(explorer: &Explorer, page: &str, request: &Request<Incoming>) -> Response<Full<Bytes>> {
    let header_bytes: usize = request.headers().iter().map(|(k, v)| k.as_str().len() + v.len() + 4).sum();
    let body_too_long = request.body().size_hint().lower() > MAX_BODY_BYTES as u64;
    let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
    let reply = if header_bytes > MAX_HEADER_BYTES {
        Reply::error(431, &format!("request headers over {MAX_HEADER_BYTES} bytes"))
    } else if body_too_long {
        Reply::error(413, &format!("request body over {MAX_BODY_BYTES} bytes"))
    } else {
        super::route(explorer, page, request.method().as_str(), target)
    };
    let mut response = Response::builder()
        .status(reply.status)
        .header("Content-Type", reply.content_type)
        .header("Cache-Control", "no-store")
        .header("X-Content-Type-Options", "nosniff");
    if reply.status == 405 {
        response = response.header("Allow", "GET");
    }
    if body_too_long {
        response = response.header("Connection", "close");
    }
    response.body(Full::new(Bytes::from(reply.body))).unwrap_or_else(|_| {
        let mut fallback = Response::new(Full::new(Bytes::new()));
        *fallback.status_mut() = hyper::StatusCode::INTERNAL_SERVER_ERROR;
        fallback
    })
}

/// A connection's stream that fails with `TimedOut` once no byte has moved on it for `timeout`
/// while a read or a write waits, and records when a byte last moved (for [`close_most_idle`]).
struct Watched {
    stream: TcpStream,
    last: Arc<AtomicU64>,
    epoch: Instant,
    timeout: Duration,
    moved: tokio::time::Instant,
    read_stall: Pin<Box<Sleep>>,
    write_stall: Pin<Box<Sleep>>,
}

impl Watched {
    fn new(stream: TcpStream, last: Arc<AtomicU64>, epoch: Instant, timeout: Duration) -> Watched {
        let now = tokio::time::Instant::now();
        Watched {
            stream,
            last,
            epoch,
            timeout,
            moved: now,
            read_stall: Box::pin(tokio::time::sleep_until(now + timeout)),
            write_stall: Box::pin(tokio::time::sleep_until(now + timeout)),
        }
    }

    fn progress(&mut self) {
        self.moved = tokio::time::Instant::now();
        self.last.store(millis_since(self.epoch), Ordering::Relaxed);
    }

    /// A read or write is pending: wait for it, or fail once the connection has stalled.
    fn stalled<T>(
        deadline: tokio::time::Instant,
        stall: &mut Pin<Box<Sleep>>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<T>> {
        if stall.deadline() != deadline {
            stall.as_mut().reset(deadline);
        }
        match stall.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::ErrorKind::TimedOut.into())),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Pass on one I/O poll: a byte moved is progress, pending waits against the deadline.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        write: bool,
        poll: Poll<io::Result<T>>,
        moved: impl Fn(&T) -> bool,
    ) -> Poll<io::Result<T>> {
        match poll {
            Poll::Ready(Ok(v)) => {
                if moved(&v) {
                    self.progress();
                }
                Poll::Ready(Ok(v))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                let deadline = self.moved + self.timeout;
                let stall = if write { &mut self.write_stall } else { &mut self.read_stall };
                Watched::stalled(deadline, stall, cx)
            }
        }
    }
}

impl AsyncRead for Watched {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = Pin::new(&mut this.stream).poll_read(cx, buf);
        let after = buf.filled().len();
        this.watch(cx, false, poll, |()| after > before)
    }
}

impl AsyncWrite for Watched {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.watch(cx, true, poll, |&n| n > 0)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.watch(cx, true, poll, |&n| n > 0)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_flush(cx);
        this.watch(cx, true, poll, |()| false)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_shutdown(cx);
        this.watch(cx, true, poll, |()| false)
    }
}

//! `tabia serve`: lichess's opening explorer API over a tabia index, and an explorer page.
//!
//! [`serve`] opens an index ([`tabia_index::Index`]) and answers, on a small HTTP/1.1 server of
//! the standard library's sockets and threads:
//!
//! - `GET /masters`, `GET /lichess`: lichess's explorer answer for a position (`fen`, `play`,
//!   `variant`, `speeds`, `ratings`, `since`, `until`, `moves`, `topGames`, `recentGames`);
//! - `GET /player?player=NAME&color=white`: the personal explorer, one NDJSON line;
//! - `GET /master/pgn/{id}`, `/masters/pgn/{id}`, `/game/{id}.pgn`: a game's PGN;
//! - `GET /`: the explorer page, with `/tabia/position` (the board and legal moves of a
//!   position) and `/tabia/game/{id}` (a game's moves) for it; `/tabia/info`: the index.
//!
//! A bad parameter is a 400 with `{"error": "…"}`, the index's own message. Connections are
//! read by a thread each (at most 512; a request head within 10 s, its target within 8 KiB,
//! bodies refused past 4 KiB), requests answered by [`ServeOptions::threads`] workers, each
//! request in `catch_unwind` (a panic is a 500). One [`Index`] serves every thread: each
//! request reads in a transaction of its own, so the answers follow what `tabia index add`
//! commits meanwhile. `docs/commands/serve.md` documents the routes.
//!
//! ```
//! use std::io::{Read, Write};
//!
//! use tabia_index::{Index, IndexOptions};
//! use tabia_serve::{ServeOptions, serve};
//!
//! let dir = tempfile::tempdir()?;
//! let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn/ok/sample.pgn");
//! Index::build(dir.path(), &[file.into()], IndexOptions::default(), 1)?;
//! let options = ServeOptions { addr: "127.0.0.1:0".parse()?, threads: 2 };
//! let handle = serve(dir.path(), options)?;
//!
//! let mut stream = std::net::TcpStream::connect(handle.addr())?;
//! stream.write_all(b"GET /lichess?play=e2e4 HTTP/1.1\r\nConnection: close\r\n\r\n")?;
//! let mut answer = String::new();
//! stream.read_to_string(&mut answer)?;
//! assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"));
//! assert!(answer.contains("\"name\":\"King's Pawn Game\""));
//! handle.stop();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod cache;
mod http;
mod page;
mod query;
mod routes;
mod server;

use std::{
    fmt,
    net::{SocketAddr, TcpListener},
    path::Path,
    sync::Arc,
};

pub use server::Handle;
use tabia_index::{Index, IndexError};

/// The port `tabia serve` listens on unless told (lichess's explorer runs on 9002 too).
pub const DEFAULT_PORT: u16 = 9002;

/// Where to listen and how many workers answer.
///
/// ```
/// let options = tabia_serve::ServeOptions::default();
/// assert_eq!(options.addr.to_string(), "127.0.0.1:9002");
/// assert!(options.threads >= 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeOptions {
    /// The address to bind (port 0: any free port, see [`Handle::addr`]); loopback by default.
    pub addr: SocketAddr,
    /// Worker threads answering requests (0: as many as cores, at least 2).
    pub threads: usize,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
            threads: default_threads(),
        }
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().max(2))
}

/// Why the server did not start.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The index could not be opened.
    Index(IndexError),
    /// The address could not be bound (in use, not ours), or a thread not started.
    Bind(SocketAddr, std::io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Index(err) => err.fmt(f),
            ServeError::Bind(addr, err) => write!(f, "cannot listen on {addr}: {err}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Index(err) => Some(err),
            ServeError::Bind(_, err) => Some(err),
        }
    }
}

impl From<IndexError> for ServeError {
    fn from(err: IndexError) -> ServeError {
        ServeError::Index(err)
    }
}

/// Opens the index in `index_dir` and serves it on `options.addr`, on threads of its own: the
/// [`Handle`] tells the address and stops the server.
///
/// # Errors
///
/// The index does not open ([`ServeError::Index`]) or the address is not ours
/// ([`ServeError::Bind`]).
pub fn serve(index_dir: &Path, options: ServeOptions) -> Result<Handle, ServeError> {
    serve_index(Arc::new(Index::open(index_dir)?), options)
}

/// [`serve`] for an index already opened (shared with the caller).
///
/// # Errors
///
/// The address is not ours ([`ServeError::Bind`]).
pub fn serve_index(index: Arc<Index>, options: ServeOptions) -> Result<Handle, ServeError> {
    let listener =
        TcpListener::bind(options.addr).map_err(|err| ServeError::Bind(options.addr, err))?;
    let threads = match options.threads {
        0 => default_threads(),
        n => n,
    };
    let answers = cache::Answers::default();
    let handler: Arc<server::Handler> =
        Arc::new(move |request: &http::Request| routes::respond(&index, &answers, request));
    server::start(listener, threads, handler).map_err(|err| ServeError::Bind(options.addr, err))
}

//! The part of HTTP/1.1 an explorer needs: a request head read within limits (its length, its
//! time), bodies refused past a few bytes, keep-alive, and a response written in one piece.
//!
//! ```text
//! request      = request-line *( header-field CRLF ) CRLF [ body ]
//! request-line = method SP request-target SP HTTP-version CRLF
//! ```

use std::{
    io::{self, BufRead, Read, Write},
    net::TcpStream,
    time::{Duration, Instant},
};

/// The longest request target (path and query) read: longer is answered 414.
pub(crate) const MAX_TARGET: usize = 8 * 1024;
/// The longest head (request line and headers) read: longer is answered 431.
const MAX_HEAD: usize = 16 * 1024;
/// The most header fields read.
const MAX_HEADERS: usize = 64;
/// The largest body read (and thrown away): larger is answered 413.
pub(crate) const MAX_BODY: usize = 4 * 1024;

/// A request method: the ones the server answers, and the others (405).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Head,
    Options,
    Other,
}

/// A request as the router sees it.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) method: Method,
    /// The request target: path and query, as sent.
    pub(crate) target: String,
}

/// What reading a request gave.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A request; `keep_alive` when the connection stays open after it.
    Request(Request, bool),
    /// The client closed the connection (or stayed silent) between requests.
    Closed,
    /// A request that is refused before it is routed: answer this and close.
    Refuse(Reply),
}

/// A response: status, content type, body, and the `Allow` header of a 405.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) content_type: &'static str,
    pub(crate) body: Vec<u8>,
    pub(crate) allow: bool,
}

pub(crate) const JSON: &str = "application/json";
pub(crate) const TEXT: &str = "text/plain; charset=utf-8";

impl Reply {
    /// A 200 answer.
    pub(crate) fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.into(),
            allow: false,
        }
    }

    /// An error answer, `{"error": message}`.
    pub(crate) fn error(status: u16, message: &str) -> Reply {
        let body = serde_json::to_vec(&serde_json::json!({ "error": message }))
            .unwrap_or_else(|_| b"{}".to_vec());
        Reply {
            status,
            content_type: JSON,
            body,
            allow: false,
        }
    }

    /// Writes the response; no body for a `HEAD` request.
    pub(crate) fn write_to(
        &self,
        out: &mut impl Write,
        head_only: bool,
        keep_alive: bool,
    ) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(256 + self.body.len());
        // Writing to a Vec cannot fail.
        let _ = write!(
            bytes,
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Access-Control-Allow-Origin: *\r\nX-Content-Type-Options: nosniff\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        if self.allow {
            bytes.extend_from_slice(b"Allow: GET, HEAD, OPTIONS\r\n");
        }
        if !keep_alive {
            bytes.extend_from_slice(b"Connection: close\r\n");
        }
        bytes.extend_from_slice(b"\r\n");
        if !head_only {
            bytes.extend_from_slice(&self.body);
        }
        out.write_all(&bytes)?;
        out.flush()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// The socket, read with a deadline: each read waits at most until then.
#[derive(Debug)]
pub(crate) struct Deadline {
    stream: TcpStream,
    until: Instant,
}

impl Deadline {
    pub(crate) fn new(stream: TcpStream) -> Deadline {
        Deadline {
            stream,
            until: Instant::now(),
        }
    }

    /// Gives the next reads `time` from now.
    pub(crate) fn set(&mut self, time: Duration) {
        self.until = Instant::now() + time;
    }
}

impl Read for Deadline {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// Reads one line (up to `limit` bytes with its end), without its CRLF; `None` when the line
/// is longer.
fn line(input: &mut impl BufRead, limit: usize, buf: &mut Vec<u8>) -> io::Result<Option<()>> {
    buf.clear();
    input.take(limit as u64).read_until(b'\n', buf)?;
    if buf.last() != Some(&b'\n') {
        if buf.len() >= limit {
            return Ok(None);
        }
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    buf.pop();
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(()))
}

/// Reads the next request of a connection. A connection that fails (closed, timed out while
/// the head or body was read) is closed without an answer.
pub(crate) fn read_request(input: &mut impl BufRead) -> Incoming {
    read_head(input).unwrap_or(Incoming::Closed)
}

fn refuse(status: u16, message: &str) -> Incoming {
    Incoming::Refuse(Reply::error(status, message))
}

fn read_head(input: &mut impl BufRead) -> io::Result<Incoming> {
    let mut buf = Vec::new();
    // Empty lines before a request are allowed (RFC 9112, 2.2).
    let mut request_line = Vec::new();
    for _ in 0..4 {
        match line(input, MAX_TARGET + 64, &mut buf) {
            Ok(Some(())) if buf.is_empty() => continue,
            Ok(Some(())) => {
                request_line = std::mem::take(&mut buf);
                break;
            }
            Ok(None) => return Ok(refuse(414, "the request target is longer than 8 KiB")),
            Err(err) if err.kind() == io::ErrorKind::UnexpectedEof => return Ok(Incoming::Closed),
            Err(err) => return Err(err),
        }
    }
    // request-line = method SP request-target SP HTTP-version
    let text = String::from_utf8_lossy(&request_line);
    let mut parts = text.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Ok(refuse(400, "malformed request line"));
    };
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        v if v.starts_with("HTTP/") => {
            return Ok(refuse(505, "only HTTP/1.0 and HTTP/1.1 are served"));
        }
        _ => return Ok(refuse(400, "malformed request line")),
    };
    if target.len() > MAX_TARGET {
        return Ok(refuse(414, "the request target is longer than 8 KiB"));
    }
    if !target.starts_with('/') {
        return Ok(refuse(400, "the request target must be a path"));
    }
    let method = match method {
        "GET" => Method::Get,
        "HEAD" => Method::Head,
        "OPTIONS" => Method::Options,
        _ => Method::Other,
    };
    // header-field = field-name ":" OWS field-value OWS
    let mut keep_alive = !http10;
    let mut length = 0usize;
    let mut head = request_line.len();
    let mut fields = 0;
    loop {
        match line(input, MAX_HEAD.saturating_sub(head).max(2), &mut buf)? {
            None => return Ok(refuse(431, "the request head is longer than 16 KiB")),
            Some(()) if buf.is_empty() => break,
            Some(()) => {}
        }
        head += buf.len() + 2;
        fields += 1;
        if head > MAX_HEAD || fields > MAX_HEADERS {
            return Ok(refuse(431, "the request head is too large"));
        }
        let Some(colon) = buf.iter().position(|&b| b == b':') else {
            return Ok(refuse(400, "malformed header field"));
        };
        let name = &buf[..colon];
        let value = String::from_utf8_lossy(&buf[colon + 1..]);
        let value = value.trim();
        if name.eq_ignore_ascii_case(b"content-length") {
            match value.parse::<usize>() {
                Ok(n) if n <= MAX_BODY => length = n,
                Ok(_) => return Ok(refuse(413, "request bodies are not accepted")),
                Err(_) => return Ok(refuse(400, "malformed Content-Length")),
            }
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            return Ok(refuse(413, "request bodies are not accepted"));
        } else if name.eq_ignore_ascii_case(b"connection") {
            let value = value.to_ascii_lowercase();
            if value.contains("close") {
                keep_alive = false;
            } else if value.contains("keep-alive") {
                keep_alive = true;
            }
        }
    }
    // A small body is read and thrown away, so that the next request starts after it.
    if length > 0 {
        let mut body = vec![0; length];
        input.read_exact(&mut body)?;
    }
    Ok(Incoming::Request(
        Request {
            method,
            target: target.to_owned(),
        },
        keep_alive,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Incoming {
        read_request(&mut io::BufReader::new(bytes))
    }

    #[test]
    fn heads_are_read_within_limits() {
        let Incoming::Request(request, keep) =
            read(b"GET /masters?play=e2e4 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        else {
            panic!("a request");
        };
        assert_eq!(
            (request.method, request.target.as_str(), keep),
            (Method::Get, "/masters?play=e2e4", true)
        );
        let Incoming::Request(_, keep) = read(b"GET / HTTP/1.0\r\n\r\n") else {
            panic!("a request");
        };
        assert!(!keep);
        let status = |bytes: &[u8]| match read(bytes) {
            Incoming::Refuse(reply) => reply.status,
            Incoming::Request(..) => 200,
            Incoming::Closed => 0,
        };
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_TARGET));
        assert_eq!(status(long.as_bytes()), 414);
        let endless = vec![b'a'; 100_000];
        assert_eq!(status(&endless), 414);
        let headers = format!("GET / HTTP/1.1\r\n{}\r\n", "X-A: b\r\n".repeat(100));
        assert_eq!(status(headers.as_bytes()), 431);
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nContent-Length: 99999999999999999\r\n\r\n"),
            413
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            413
        );
        assert_eq!(status(b"GET / HTTP/2.0\r\n\r\n"), 505);
        assert_eq!(status(b"GET /\r\n\r\n"), 400);
        assert_eq!(status(b"GET http://x/ HTTP/1.1\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/1.1\r\nbad\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost"), 0);
        assert_eq!(status(b""), 0);
    }
}

//! Records from the workers to an ordered stage: for subcommands whose decision about a game
//! depends on the games before it (`dedup` keeps the first copy, `split` numbers its files),
//! workers do the heavy part in parallel (parse, replay, format) and write one frame per game
//! to `sink.out`; the session's output is a [`Frames`] that receives the frames in input
//! order and hands each to the command's decision, on the writer's thread.
//!
//! A frame is `header length (u32 LE) | body length (u64 LE) | header | body`.

use std::io::{self, Write};

/// Appends a frame to `out`.
pub(crate) fn push(out: &mut Vec<u8>, header: &[u8], body: &[u8]) {
    let header_len = u32::try_from(header.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&header_len.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&header[..header_len as usize]);
    out.extend_from_slice(body);
}

/// The session's output for framed records: decodes the frames written to it, in order, and
/// calls `f(header, body)` for each.
pub(crate) struct Frames<F> {
    buf: Vec<u8>,
    f: F,
}

impl<F: FnMut(&[u8], &[u8]) -> io::Result<()>> Frames<F> {
    /// A decoder calling `f` for each frame.
    pub(crate) fn new(f: F) -> Frames<F> {
        Frames { buf: Vec::new(), f }
    }

    /// Calls `f` for each complete frame in the buffer and drops them.
    fn drain(&mut self) -> io::Result<()> {
        let mut at = 0;
        loop {
            let rest = &self.buf[at..];
            if rest.len() < 12 {
                break;
            }
            let header_len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
            let mut body_len = [0; 8];
            body_len.copy_from_slice(&rest[4..12]);
            let body_len = usize::try_from(u64::from_le_bytes(body_len)).unwrap_or(usize::MAX);
            let Some(end) = (12 + header_len).checked_add(body_len) else {
                return Err(io::Error::other("frame too large"));
            };
            if rest.len() < end {
                break;
            }
            (self.f)(&rest[12..12 + header_len], &rest[12 + header_len..end])?;
            at += end;
        }
        self.buf.drain(..at);
        Ok(())
    }
}

impl<F: FnMut(&[u8], &[u8]) -> io::Result<()>> Write for Frames<F> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        self.drain()?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_arrive_whole_however_the_bytes_are_cut() {
        let mut bytes = Vec::new();
        push(&mut bytes, b"h1", b"body one");
        push(&mut bytes, b"", b"");
        push(&mut bytes, b"header three", &[7; 1000]);
        for chunk in [1, 5, 13, 4096] {
            let mut seen = Vec::new();
            {
                let mut frames = Frames::new(|h: &[u8], b: &[u8]| {
                    seen.push((h.to_vec(), b.len()));
                    Ok(())
                });
                for piece in bytes.chunks(chunk) {
                    frames.write_all(piece).unwrap();
                }
                frames.flush().unwrap();
            }
            assert_eq!(
                seen,
                [
                    (b"h1".to_vec(), 8),
                    (Vec::new(), 0),
                    (b"header three".to_vec(), 1000)
                ]
            );
        }
    }
}

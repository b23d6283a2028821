//! Decompressing a zstd input of several frames on several cores.
//!
//! `pzstd` (and `zstd` with `--rsyncable` or appended files) writes a zstd input as many
//! independent frames. Their boundaries are found from the frame and block headers alone
//! (RFC 8878: a frame header, then blocks of 3-byte headers that give each block's size, then
//! an optional checksum; skippable frames give their size), without decompressing. The frames
//! are then decompressed by the [`Pipeline`]'s workers and handed back in order through a
//! bounded channel, read as one [`BufRead`], which hands each buffer back to be filled again.
//!
//! Memory stays bounded: a frame is taken whole only when it is at most [`MAX_FRAME`]
//! compressed and at most [`MAX_OUTPUT`] decompressed (each block's header bounds what it
//! decompresses to); at the first frame that is larger, the rest of the input is decompressed
//! as a stream on one thread, as usual.

use std::{
    io::{self, BufRead, BufReader, Read},
    mem,
    sync::mpsc::{Receiver, SyncSender, sync_channel},
    sync::{Arc, Mutex, PoisonError},
    thread,
};

use crate::pipeline::{Pipeline, Weigh};

/// The largest frame (compressed) decompressed in parallel.
pub(crate) const MAX_FRAME: usize = 32 << 20;
/// The most bytes a frame decompressed in parallel may give.
pub(crate) const MAX_OUTPUT: usize = 64 << 20;
/// The most a block decompresses to (`Block_Maximum_Size`).
const MAX_BLOCK: usize = 128 << 10;
/// Decompressed frames waiting to be read.
const CHANNEL: usize = 2;
/// The size of a piece of a frame decompressed as a stream.
const PIECE: usize = 1 << 20;
/// The largest buffer handed back to be filled again.
const MAX_REUSED: usize = 16 << 20;
const MAGIC: u32 = 0xFD2F_B528;

/// The largest frame taken whole, compressed and decompressed.
#[derive(Debug, Clone, Copy)]
struct Limits {
    frame: usize,
    output: usize,
}

const LIMITS: Limits = Limits {
    frame: MAX_FRAME,
    output: MAX_OUTPUT,
};

/// One zstd frame, whole, and the most it decompresses to.
struct Frame {
    bytes: Vec<u8>,
    bound: usize,
}

impl Weigh for Frame {
    fn weight(&self) -> usize {
        self.bytes.len() + self.bound
    }
}

/// What the frame scanner found next.
enum Next {
    Frame(Frame),
    /// A frame too large to take whole: these bytes of it were read, the rest is in the reader.
    TooLarge(Vec<u8>),
    End,
}

/// Reads the next frame of `reader` whole, skipping skippable frames.
fn next_frame(reader: &mut impl BufRead, limits: Limits) -> io::Result<Next> {
    loop {
        if reader.fill_buf()?.is_empty() {
            return Ok(Next::End);
        }
        let mut bytes = vec![0; 4];
        reader.read_exact(&mut bytes)?;
        let magic = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            let mut size = [0; 4];
            reader.read_exact(&mut size)?;
            let size = u64::from(u32::from_le_bytes(size));
            let skipped = io::copy(&mut reader.take(size), &mut io::sink())?;
            if skipped < size {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            continue;
        }
        if magic != MAGIC {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "not a zstd frame where one should start",
            ));
        }
        return frame_after_magic(reader, bytes, limits);
    }
}

/// The rest of a frame whose magic number is in `bytes`.
fn frame_after_magic(
    reader: &mut impl BufRead,
    mut bytes: Vec<u8>,
    limits: Limits,
) -> io::Result<Next> {
    let descriptor = read_more(reader, &mut bytes, 1)?[0];
    let single_segment = descriptor & 0x20 != 0;
    let checksum = descriptor & 0x04 != 0;
    let dictionary = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let content_size = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let header = usize::from(!single_segment) + dictionary + content_size;
    let fields = read_more(reader, &mut bytes, header)?;
    // A frame that says it decompresses to more than the limit (`zstd` says so of a file it
    // compressed) is a stream from its header on: no need to walk its blocks to know.
    let declared = fields[header - content_size..]
        .iter()
        .rev()
        .fold(0u64, |size, &byte| size << 8 | u64::from(byte))
        + if content_size == 2 { 256 } else { 0 };
    if content_size > 0 && declared > limits.output as u64 {
        return Ok(Next::TooLarge(bytes));
    }
    let mut bound = 0;
    loop {
        let block = read_more(reader, &mut bytes, 3)?;
        let header = u32::from(block[0]) | u32::from(block[1]) << 8 | u32::from(block[2]) << 16;
        let last = header & 1 != 0;
        let size = (header >> 3) as usize;
        let (content, output) = match (header >> 1) & 3 {
            0 => (size, size),      // raw
            1 => (1, size),         // RLE: one byte, repeated
            2 => (size, MAX_BLOCK), // compressed
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "reserved zstd block type",
                ));
            }
        };
        bound += output;
        if bytes.len() + content > limits.frame || bound > limits.output {
            return Ok(Next::TooLarge(bytes));
        }
        read_more(reader, &mut bytes, content)?;
        if last {
            break;
        }
    }
    if checksum {
        read_more(reader, &mut bytes, 4)?;
    }
    Ok(Next::Frame(Frame { bytes, bound }))
}

/// Appends `n` bytes of `reader` to `bytes`; gives them.
fn read_more<'a>(reader: &mut impl Read, bytes: &'a mut Vec<u8>, n: usize) -> io::Result<&'a [u8]> {
    let start = bytes.len();
    bytes.resize(start + n, 0);
    reader.read_exact(&mut bytes[start..])?;
    Ok(&bytes[start..])
}

/// Decompresses one frame into `into` (emptied first; it grows to the frame's bound if it
/// must).
fn decompress_frame(frame: &Frame, mut into: Vec<u8>) -> io::Result<Vec<u8>> {
    into.clear();
    into.reserve(frame.bound);
    zstd::bulk::Decompressor::new()?.decompress_to_buffer(&frame.bytes, &mut into)?;
    Ok(into)
}

/// The frames of a reader, for the pipeline; at a frame too large to take whole, the frames end
/// and the rest of the input is left in `rest`.
struct Frames<R> {
    reader: Option<R>,
    limits: Limits,
    rest: Arc<Mutex<Option<Rest<R>>>>,
}

/// What is left of the input after the last frame taken whole.
struct Rest<R> {
    read: Vec<u8>,
    reader: R,
}

impl<R: BufRead> Iterator for Frames<R> {
    type Item = io::Result<Frame>;

    fn next(&mut self) -> Option<io::Result<Frame>> {
        let reader = self.reader.as_mut()?;
        match next_frame(reader, self.limits) {
            Ok(Next::Frame(frame)) => Some(Ok(frame)),
            Ok(Next::End) => None,
            Ok(Next::TooLarge(read)) => {
                let reader = self.reader.take()?;
                *self.rest.lock().unwrap_or_else(PoisonError::into_inner) =
                    Some(Rest { read, reader });
                None
            }
            Err(err) => {
                self.reader = None;
                Some(Err(err))
            }
        }
    }
}

/// Decompresses the zstd input `raw` (already buffered, starting at a frame) with `jobs`
/// workers when it has several frames; gives the decompressed bytes.
pub(crate) fn decoder<R>(raw: R, jobs: usize) -> Box<dyn BufRead + Send>
where
    R: BufRead + Send + 'static,
{
    decoder_with(raw, jobs, LIMITS)
}

fn decoder_with<R>(raw: R, jobs: usize, limits: Limits) -> Box<dyn BufRead + Send>
where
    R: BufRead + Send + 'static,
{
    let (sender, receiver) = sync_channel(CHANNEL);
    // Room for as many buffers as wait to be read; one more is freed instead.
    let (used, reuse) = sync_channel(CHANNEL);
    thread::spawn(move || decode(raw, jobs, limits, &sender, &Mutex::new(reuse)));
    Box::new(ChannelReader {
        receiver,
        used,
        chunk: Vec::new(),
        pos: 0,
        done: false,
    })
}

/// The decoding thread: frames in parallel, then the rest (if any) as a stream, into the
/// buffers the reader has emptied when there are any (`reuse`: memory already mapped and in
/// the caches, where a fresh buffer costs a page fault a page, 25,000 for 100 MB).
fn decode<R: BufRead + Send>(
    raw: R,
    jobs: usize,
    limits: Limits,
    sender: &SyncSender<io::Result<Vec<u8>>>,
    reuse: &Mutex<Receiver<Vec<u8>>>,
) {
    let rest = Arc::new(Mutex::new(None));
    let frames = Frames {
        reader: Some(raw),
        limits,
        rest: Arc::clone(&rest),
    };
    let run = Pipeline::new().with_jobs(jobs).with_batch_bytes(1).map(
        frames,
        |_, frame| decompress_frame(frame, reused(reuse)),
        |_, output| {
            let failed = output.is_err();
            // A closed receiver: nobody reads any more.
            sender.send(output).map_err(|_| ())?;
            if failed { Err(()) } else { Ok(()) }
        },
    );
    let Ok(outcome) = run else { return };
    if let Some(err) = outcome.input_error {
        let _ = sender.send(Err(err));
        return;
    }
    let Some(Rest { read, reader }) = rest.lock().unwrap_or_else(PoisonError::into_inner).take()
    else {
        return;
    };
    let stream = BufReader::new(io::Cursor::new(read).chain(reader));
    let mut decoder = match zstd::Decoder::with_buffer(stream) {
        Ok(decoder) => decoder,
        Err(err) => {
            let _ = sender.send(Err(err));
            return;
        }
    };
    loop {
        let mut chunk = reused(reuse);
        // Only a buffer never used, or a short one, has anything to zero.
        chunk.resize(PIECE, 0);
        match read_full(&mut decoder, &mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                chunk.truncate(n);
                if sender.send(Ok(chunk)).is_err() {
                    return;
                }
            }
            Err(err) => {
                let _ = sender.send(Err(err));
                return;
            }
        }
    }
}

/// A buffer the reader has handed back, or a new one (empty) when none waits.
fn reused(reuse: &Mutex<Receiver<Vec<u8>>>) -> Vec<u8> {
    reuse
        .lock()
        .ok()
        .and_then(|reuse| reuse.try_recv().ok())
        .unwrap_or_default()
}

/// Reads until `buf` is full or the input ends.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(n)
}

/// The reading end: decompressed chunks, in order; each chunk read is handed back to the
/// decoding thread to fill again.
struct ChannelReader {
    receiver: Receiver<io::Result<Vec<u8>>>,
    used: SyncSender<Vec<u8>>,
    chunk: Vec<u8>,
    pos: usize,
    done: bool,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos == self.chunk.len() && !self.done {
            match self.receiver.recv() {
                Ok(Ok(chunk)) => {
                    let used = mem::replace(&mut self.chunk, chunk);
                    // When the decoding thread is gone, or has buffers enough, it is freed
                    // here; so is the output of a large frame (the memory that waits is at
                    // most `CHANNEL` × `MAX_REUSED`).
                    if (1..=MAX_REUSED).contains(&used.capacity()) {
                        let _ = self.used.try_send(used);
                    }
                    self.pos = 0;
                }
                Ok(Err(err)) => {
                    self.done = true;
                    return Err(err);
                }
                // The decoding thread is done.
                Err(_) => self.done = true,
            }
        }
        Ok(&self.chunk[self.pos..])
    }

    fn consume(&mut self, amount: usize) {
        self.pos = (self.pos + amount).min(self.chunk.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 {i} *\n\n").into_bytes())
            .collect()
    }

    /// `parts` frames, as pzstd writes them: each after a skippable frame with its size.
    fn frames(text: &[u8], parts: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for chunk in text.chunks(text.len().div_ceil(parts)) {
            let frame = zstd::encode_all(chunk, 3).unwrap();
            out.extend(0x184D_2A50u32.to_le_bytes());
            out.extend(4u32.to_le_bytes());
            out.extend(u32::try_from(frame.len()).unwrap().to_le_bytes());
            out.extend(frame);
        }
        out
    }

    fn decode_all(bytes: Vec<u8>, jobs: usize) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decoder(io::Cursor::new(bytes), jobs).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn frames_are_found_from_their_headers() {
        let text = text(2000);
        let bytes = frames(&text, 7);
        let mut reader = io::Cursor::new(&bytes[..]);
        let mut n = 0;
        let mut total = 0;
        while let Next::Frame(frame) = next_frame(&mut reader, LIMITS).unwrap() {
            n += 1;
            let out = decompress_frame(&frame, Vec::new()).unwrap();
            assert!(out.len() <= frame.bound);
            total += out.len();
        }
        assert_eq!((n, total), (7, text.len()));
    }

    #[test]
    fn many_frames_decompress_in_order_whatever_the_jobs() {
        let text = text(3000);
        for parts in [1, 2, 13] {
            for jobs in [1, 2, 4] {
                let got = decode_all(frames(&text, parts), jobs).unwrap();
                assert!(got == text, "{parts} frames, {jobs} jobs");
            }
        }
    }

    #[test]
    fn from_the_first_frame_too_large_on_the_rest_is_a_stream() {
        let text = text(3000);
        let mut bytes = frames(&text[..1000], 3);
        bytes.extend(zstd::encode_all(&text[1000..], 3).unwrap()); // one large frame
        bytes.extend(frames(b"the end", 1));
        let small = Limits {
            frame: 4 << 10,
            output: 1 << 20,
        };
        for limits in [small, LIMITS] {
            let mut out = Vec::new();
            decoder_with(io::Cursor::new(bytes.clone()), 2, limits)
                .read_to_end(&mut out)
                .unwrap();
            assert!(out == [&text[..], b"the end"].concat(), "{limits:?}");
        }
    }

    #[test]
    fn a_frame_that_declares_a_large_size_is_a_stream_from_its_header() {
        let text = text(1000);
        // The bulk API knows the size, and writes it in the frame header (as `zstd FILE` does).
        let bytes = zstd::bulk::compress(&text, 3).unwrap();
        let limits = Limits {
            frame: 1 << 20,
            output: text.len() - 1,
        };
        let Next::TooLarge(read) = next_frame(&mut io::Cursor::new(&bytes[..]), limits).unwrap()
        else {
            panic!("taken whole");
        };
        // The magic number, the descriptor (one segment: no window byte) and the 2-byte size
        // (less 256): no block was read.
        assert_eq!(read, bytes[..7]);
        assert_eq!(
            u16::from_le_bytes([read[5], read[6]]) as usize + 256,
            text.len()
        );
        let mut out = Vec::new();
        decoder_with(io::Cursor::new(bytes.clone()), 2, limits)
            .read_to_end(&mut out)
            .unwrap();
        assert!(out == text);
    }

    #[test]
    fn a_stream_of_many_pieces_comes_out_whole_in_reused_buffers() {
        // Some 7 MiB: pieces are decompressed into the buffers the reader gave back.
        let text = text(150_000);
        assert!(text.len() > 6 * PIECE);
        let bytes = zstd::encode_all(&text[..], 1).unwrap();
        let limits = Limits {
            frame: 1 << 10,
            output: 1 << 10,
        };
        let mut out = Vec::new();
        decoder_with(io::Cursor::new(bytes), 2, limits)
            .read_to_end(&mut out)
            .unwrap();
        assert!(out == text);
    }

    #[test]
    fn a_checksum_and_raw_blocks_are_walked_over() {
        // Incompressible bytes make raw blocks; the checksum flag adds 4 bytes at the end.
        let noise: Vec<u8> = (0..300_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut encoder = zstd::Encoder::new(Vec::new(), 1).unwrap();
        encoder.include_checksum(true).unwrap();
        io::Write::write_all(&mut encoder, &noise).unwrap();
        let mut bytes = encoder.finish().unwrap();
        bytes.extend(zstd::encode_all(&b"tail"[..], 1).unwrap());
        let got = decode_all(bytes, 2).unwrap();
        assert!(got.len() == noise.len() + 4 && got.ends_with(b"tail") && got[..10] == noise[..10]);
    }

    #[test]
    fn cut_or_corrupt_input_is_a_read_error_after_what_was_good() {
        let text = text(1000);
        let mut bytes = frames(&text, 4);
        bytes.truncate(bytes.len() - 10);
        let mut reader = decoder(io::Cursor::new(bytes), 2);
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert!(out.len() >= text.len() / 2 && text.starts_with(&out));

        let mut bytes = frames(&text, 2);
        bytes.extend(b"garbage!");
        let err = decode_all(bytes, 2).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn a_reader_that_stops_early_stops_the_decoding() {
        let text = text(20_000);
        let mut reader = decoder(io::Cursor::new(frames(&text, 50)), 2);
        let mut head = vec![0; 100];
        reader.read_exact(&mut head).unwrap();
        assert_eq!(head, text[..100]);
        drop(reader); // the decoding thread sees the closed channel and ends
    }
}

//! Decompression by magic bytes: [`Compression`] and [`decompress`]. Below both the inputs
//! (`input`) and the zip archives (`archive`), which read their entries through it.

use std::io::{self, BufRead, BufReader, Read};

use crate::{pipeline::Pipeline, zstd_frames};

/// Size of the read buffers, before and after decompression.
pub(crate) const BUFFER: usize = 1 << 16;

/// How many bytes may be read before the reader is made: the magic bytes, and enough of an
/// uncompressed input to tell text from binary data (a file gives them in one read).
const HEAD_LEN: usize = 1024;

/// The longest magic number: reading goes on until it is read (or the input ends).
const MAGIC_LEN: usize = 6;

/// The first bytes of a zip archive: a local file header, or the end of the directory of an
/// empty archive.
pub(crate) fn is_zip(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06")
}

/// A compression format, as recognised by its magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compression {
    /// Not compressed.
    None,
    /// Zstandard: `28 B5 2F FD`, or a skippable frame first (`5x 2A 4D 18`, as `pzstd` writes).
    Zstd,
    /// gzip: `1F 8B 08`.
    Gzip,
    /// bzip2: `BZh` and a block size digit `1`–`9`.
    Bzip2,
    /// xz: `FD 37 7A 58 5A 00`.
    Xz,
    /// A zip archive (`PK 03 04`), read from a file: its entries are the inputs (see
    /// [`Source::from_args`](crate::Source::from_args)); on standard input it is an error.
    Zip,
}

impl Compression {
    /// The format that `head`, the first bytes of an input, announces.
    ///
    /// ```
    /// use tabia_stream::Compression;
    ///
    /// assert_eq!(Compression::sniff(b"\x28\xB5\x2F\xFD\x04"), Compression::Zstd);
    /// assert_eq!(Compression::sniff(b"\x50\x2A\x4D\x18\x04"), Compression::Zstd); // pzstd
    /// assert_eq!(Compression::sniff(b"BZh9"), Compression::Bzip2);
    /// assert_eq!(Compression::sniff(b"BZhx"), Compression::None);
    /// assert_eq!(Compression::sniff(b"[Event"), Compression::None);
    /// ```
    pub fn sniff(head: &[u8]) -> Compression {
        match head {
            // A zstd frame, or a skippable frame (`pzstd` starts with one).
            [0x28, 0xB5, 0x2F, 0xFD, ..] | [0x50..=0x5F, 0x2A, 0x4D, 0x18, ..] => Compression::Zstd,
            [0x1F, 0x8B, 0x08, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Compression::Bzip2,
            [0xFD, b'7', b'z', b'X', b'Z', 0x00, ..] => Compression::Xz,
            head if is_zip(head) => Compression::Zip,
            _ => Compression::None,
        }
    }
}

/// Peeks at the first bytes of `raw` and wraps it in the matching decoder; gives the format
/// found and the decompressed bytes.
///
/// ```
/// use std::io::Read;
///
/// let bytes = zstd::encode_all(&b"1. e4 *\n"[..], 3)?;
/// let (format, mut reader) = tabia_stream::decompress(std::io::Cursor::new(bytes))?;
/// assert_eq!(format, tabia_stream::Compression::Zstd);
/// let mut text = String::new();
/// reader.read_to_string(&mut text)?;
/// assert_eq!(text, "1. e4 *\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn decompress<R: Read + Send + 'static>(
    raw: R,
) -> io::Result<(Compression, Box<dyn BufRead + Send>)> {
    decompress_with(raw, 1)
}

/// Like [`decompress`], with `decoders` threads (0: one per core) for a zstd input of several
/// frames (see [`Input::open_with`](crate::Input::open_with)).
pub fn decompress_with<R: Read + Send + 'static>(
    mut raw: R,
    decoders: usize,
) -> io::Result<(Compression, Box<dyn BufRead + Send>)> {
    // Read the magic bytes in a loop: a pipe may deliver them one at a time. Into room for
    // more, so that what a file gives at once is enough to tell text from binary data
    // (`Input`'s check); a pipe is not waited on for more than its magic bytes, so that a
    // slow stream's first games are read as they come.
    let mut head = [0; HEAD_LEN];
    let mut len = 0;
    while len < MAGIC_LEN {
        match raw.read(&mut head[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    let head = head.get(..len).unwrap_or_default().to_vec();
    let compression = Compression::sniff(&head);
    let buffered = BufReader::with_capacity(BUFFER, io::Cursor::new(head).chain(raw));
    let reader: Box<dyn BufRead + Send> = match compression {
        Compression::None => Box::new(buffered),
        Compression::Zstd => {
            let decoders = Pipeline::new().with_jobs(decoders).jobs();
            if decoders > 1 {
                zstd_frames::decoder(buffered, decoders)
            } else {
                Box::new(BufReader::with_capacity(
                    BUFFER,
                    zstd::Decoder::with_buffer(buffered)?,
                ))
            }
        }
        Compression::Gzip => Box::new(BufReader::with_capacity(
            BUFFER,
            flate2::bufread::MultiGzDecoder::new(buffered),
        )),
        Compression::Bzip2 => Box::new(BufReader::with_capacity(
            BUFFER,
            bzip2::bufread::MultiBzDecoder::new(buffered),
        )),
        Compression::Xz => Box::new(BufReader::with_capacity(
            BUFFER,
            liblzma::bufread::XzDecoder::new_multi_decoder(buffered),
        )),
        Compression::Zip => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a zip archive is read from a file, not a stream (its directory is at its end): \
                 name the file",
            ));
        }
    };
    Ok((compression, reader))
}

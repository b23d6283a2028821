//! Opening inputs: files or standard input (`-`), decompressed by magic bytes.
//!
//! [`Source::open`] gives an [`Input`]: a buffered reader of the decompressed bytes (zstd, gzip,
//! bzip2 and xz are recognised by their magic bytes whatever the file is called, also on standard
//! input; concatenated frames/members are read to the end), the size of the file when it is
//! known, and a counter of the bytes read from the file itself (compressed bytes), which the
//! progress meter compares with the size. Nothing is loaded whole: everything is streamed.
//!
//! [`Lines`] splits such an input into lines, for the line-oriented formats (FEN, EPD).

use std::{
    fmt,
    fs::File,
    io::{self, BufRead, BufReader, Read},
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use anyhow::Context;
use tabia_notation::pgn::{GameError, RawGame, Reader};

/// Size of the read buffers, before and after decompression.
const BUFFER: usize = 1 << 16;

/// One input of a run: a file, or standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// Standard input (no file, or `-`).
    Stdin,
    /// A file.
    File(PathBuf),
}

impl Source {
    /// The sources named on the command line: none or `-` is standard input.
    pub(crate) fn from_args(files: &[PathBuf]) -> Vec<Source> {
        if files.is_empty() {
            return vec![Source::Stdin];
        }
        files
            .iter()
            .map(|f| {
                if f.as_os_str() == "-" {
                    Source::Stdin
                } else {
                    Source::File(f.clone())
                }
            })
            .collect()
    }

    /// The name used in diagnostics (`<stdin>` for standard input).
    pub(crate) fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(path) => path.display().to_string(),
        }
    }

    /// Opens the source for reading, decompressing it if its first bytes say it is compressed.
    pub(crate) fn open(&self) -> anyhow::Result<Input> {
        let counter = Arc::new(AtomicU64::new(0));
        let (raw, size): (Box<dyn Read + Send>, _) = match self {
            Source::Stdin => (Box::new(io::stdin()), None),
            Source::File(path) => {
                let (file, size) = open_file(path)?;
                (Box::new(file), size)
            }
        };
        let counted = Counting {
            inner: raw,
            counter: Arc::clone(&counter),
        };
        let (compression, reader) =
            decompress(counted).with_context(|| format!("cannot read {}", self.name()))?;
        Ok(Input {
            name: self.name(),
            reader,
            compression,
            size,
            counter,
        })
    }
}

fn open_file(path: &Path) -> anyhow::Result<(File, Option<u64>)> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot open {}", path.display()))?;
    anyhow::ensure!(
        !meta.is_dir(),
        "cannot read {}: is a directory",
        path.display()
    );
    // A pipe or a device has no meaningful size.
    let size = meta.is_file().then_some(meta.len());
    Ok((file, size))
}

/// An opened input: decompressed bytes plus what the progress meter needs.
pub(crate) struct Input {
    /// The name used in diagnostics.
    pub(crate) name: String,
    /// The decompressed bytes.
    pub(crate) reader: Box<dyn BufRead + Send>,
    /// How the bytes were compressed.
    pub(crate) compression: Compression,
    /// The size of the file in bytes (compressed), when known.
    pub(crate) size: Option<u64>,
    /// How many bytes have been read from the file so far (compressed).
    pub(crate) counter: Arc<AtomicU64>,
}

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("name", &self.name)
            .field("compression", &self.compression)
            .field("size", &self.size)
            .field("read", &self.counter.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// A compression format, as recognised by its magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compression {
    /// Not compressed.
    None,
    /// Zstandard: `28 B5 2F FD`.
    Zstd,
    /// gzip: `1F 8B 08`.
    Gzip,
    /// bzip2: `BZh` and a block size digit `1`–`9`.
    Bzip2,
    /// xz: `FD 37 7A 58 5A 00`.
    Xz,
}

impl Compression {
    /// The longest magic number.
    const MAGIC_LEN: usize = 6;

    /// The format that `head`, the first bytes of an input, announces.
    pub(crate) fn sniff(head: &[u8]) -> Compression {
        match head {
            [0x28, 0xB5, 0x2F, 0xFD, ..] => Compression::Zstd,
            [0x1F, 0x8B, 0x08, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Compression::Bzip2,
            [0xFD, b'7', b'z', b'X', b'Z', 0x00, ..] => Compression::Xz,
            _ => Compression::None,
        }
    }
}

/// Peeks at the first bytes of `raw` and wraps it in the matching decoder.
pub(crate) fn decompress<R: Read + Send + 'static>(
    mut raw: R,
) -> io::Result<(Compression, Box<dyn BufRead + Send>)> {
    // Read the magic bytes in a loop: a pipe may deliver them one at a time.
    let mut head = [0; Compression::MAGIC_LEN];
    let mut len = 0;
    while len < head.len() {
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
        Compression::Zstd => Box::new(BufReader::with_capacity(
            BUFFER,
            zstd::Decoder::with_buffer(buffered)?,
        )),
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
    };
    Ok((compression, reader))
}

/// A reader that counts the bytes read through it into a shared counter.
struct Counting<R> {
    inner: R,
    counter: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// One line of a line-oriented input, without its line end (`\n` or `\r\n`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    /// The bytes of the line.
    pub(crate) bytes: Vec<u8>,
    /// Its 1-based line number.
    pub(crate) number: u64,
    /// The byte offset of its start in the (decompressed) input.
    pub(crate) offset: u64,
}

/// The lines of a reader, as an iterator of [`Line`]s; memory holds one line at a time.
pub(crate) struct Lines<R> {
    reader: R,
    number: u64,
    offset: u64,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`.
    pub(crate) fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            number: 0,
            offset: 0,
        }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = anyhow::Result<Line>;

    fn next(&mut self) -> Option<anyhow::Result<Line>> {
        let mut bytes = Vec::new();
        match self.reader.read_until(b'\n', &mut bytes) {
            Ok(0) => None,
            Ok(n) => {
                let offset = self.offset;
                self.offset += n as u64;
                self.number += 1;
                if bytes.last() == Some(&b'\n') {
                    bytes.pop();
                    if bytes.last() == Some(&b'\r') {
                        bytes.pop();
                    }
                }
                Some(Ok(Line {
                    bytes,
                    number: self.number,
                    offset,
                }))
            }
            Err(err) => {
                Some(Err(anyhow::Error::new(err)
                    .context(format!("read error after line {}", self.number))))
            }
        }
    }
}

/// The games of a PGN input as raw bytes (split on the reader thread, parsed by the workers),
/// with a read error as `read error: <cause>`.
pub(crate) fn raw_games(
    reader: Box<dyn BufRead + Send>,
) -> impl Iterator<Item = anyhow::Result<RawGame>> + Send {
    Reader::new(reader).raw_games().map(|game| {
        game.map_err(|err| match err {
            GameError::Io(io) => anyhow::Error::new(io).context("read error"),
            other => anyhow::Error::new(other),
        })
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const TEXT: &[u8] = b"[Event \"x\"]\n\n1. e4 e5 *\n";

    fn read_all(reader: &mut dyn BufRead) -> Vec<u8> {
        let mut out = Vec::new();
        reader.read_to_end(&mut out).unwrap();
        out
    }

    fn twice<F: Fn(&[u8]) -> Vec<u8>>(encode: F) -> Vec<u8> {
        // Two frames/members back to back: both must be read.
        let mut bytes = encode(TEXT);
        bytes.extend(encode(TEXT));
        bytes
    }

    fn roundtrip(bytes: Vec<u8>, expected: Compression) {
        let (compression, mut reader) = decompress(io::Cursor::new(bytes)).unwrap();
        assert_eq!(compression, expected);
        assert_eq!(read_all(&mut reader), [TEXT, TEXT].concat());
    }

    #[test]
    fn plain_text_passes_through() {
        roundtrip([TEXT, TEXT].concat(), Compression::None);
    }

    #[test]
    fn zstd_frames() {
        roundtrip(
            twice(|t| zstd::encode_all(t, 3).unwrap()),
            Compression::Zstd,
        );
    }

    #[test]
    fn gzip_members() {
        roundtrip(
            twice(|t| {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                e.write_all(t).unwrap();
                e.finish().unwrap()
            }),
            Compression::Gzip,
        );
    }

    #[test]
    fn bzip2_streams() {
        roundtrip(
            twice(|t| {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
                e.write_all(t).unwrap();
                e.finish().unwrap()
            }),
            Compression::Bzip2,
        );
    }

    #[test]
    fn xz_streams() {
        roundtrip(
            twice(|t| {
                let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
                e.write_all(t).unwrap();
                e.finish().unwrap()
            }),
            Compression::Xz,
        );
    }

    /// A reader that hands out one byte per call, like a slow pipe.
    struct Trickle(io::Cursor<Vec<u8>>);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let one = buf.len().min(1);
            self.0.read(&mut buf[..one])
        }
    }

    #[test]
    fn magic_split_over_reads_is_recognised() {
        let bytes = zstd::encode_all(TEXT, 1).unwrap();
        let (compression, mut reader) = decompress(Trickle(io::Cursor::new(bytes))).unwrap();
        assert_eq!(compression, Compression::Zstd);
        assert_eq!(read_all(&mut reader), TEXT);
    }

    #[test]
    fn short_and_empty_inputs() {
        for text in [&b""[..], b"B", b"BZh", b"\x28\xB5"] {
            let (compression, mut reader) = decompress(io::Cursor::new(text.to_vec())).unwrap();
            assert_eq!(compression, Compression::None);
            assert_eq!(read_all(&mut reader), text);
        }
    }

    #[test]
    fn text_that_looks_almost_compressed_is_text() {
        assert_eq!(Compression::sniff(b"BZhx"), Compression::None);
        assert_eq!(Compression::sniff(b"\x1f\x8b\x07"), Compression::None);
    }

    #[test]
    fn corrupt_data_is_a_read_error() {
        let mut bytes = zstd::encode_all(TEXT, 1).unwrap();
        let n = bytes.len();
        bytes.truncate(n - 4);
        bytes.extend_from_slice(b"\0\0\0\0garbage");
        let (_, mut reader) = decompress(io::Cursor::new(bytes)).unwrap();
        let mut out = Vec::new();
        assert!(reader.read_to_end(&mut out).is_err());
    }

    #[test]
    fn file_open_counts_compressed_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.txt"); // the name says nothing
        let bytes = zstd::encode_all(TEXT, 1).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        let mut input = Source::File(path).open().unwrap();
        assert_eq!(input.compression, Compression::Zstd);
        assert_eq!(input.size, Some(bytes.len() as u64));
        assert_eq!(read_all(&mut input.reader), TEXT);
        assert_eq!(input.counter.load(Ordering::Relaxed), bytes.len() as u64);
    }

    #[test]
    fn missing_file_and_directory_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let missing = Source::File(dir.path().join("nope.pgn"))
            .open()
            .unwrap_err();
        assert!(format!("{missing:#}").starts_with("cannot open "));
        let is_dir = Source::File(dir.path().to_path_buf()).open().unwrap_err();
        assert!(format!("{is_dir:#}").ends_with("is a directory"));
    }

    #[test]
    fn from_args_maps_dash_and_nothing_to_stdin() {
        assert_eq!(Source::from_args(&[]), vec![Source::Stdin]);
        let files = [PathBuf::from("a.pgn"), PathBuf::from("-")];
        assert_eq!(
            Source::from_args(&files),
            vec![Source::File("a.pgn".into()), Source::Stdin]
        );
        assert_eq!(Source::Stdin.name(), "<stdin>");
    }

    #[test]
    fn raw_games_split_and_name_read_errors() {
        let bytes = zstd::encode_all(&b"1. e4 *\n\n1. d4 *\n"[..], 1).unwrap();
        let (_, reader) = decompress(io::Cursor::new(bytes.clone())).unwrap();
        let games: Vec<RawGame> = raw_games(reader).collect::<anyhow::Result<_>>().unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].start.line, 3);

        let (_, reader) = decompress(io::Cursor::new(bytes[..bytes.len() - 2].to_vec())).unwrap();
        let err = raw_games(reader).find_map(Result::err).unwrap();
        let text = format!("{err:#}");
        assert!(text.starts_with("read error: "), "{text}");
        assert_eq!(text.matches("read error").count(), 1, "{text}");
    }

    #[test]
    fn lines_strip_line_ends_and_count() {
        let text = b"one\r\ntwo\n\nlast";
        let lines: Vec<Line> = Lines::new(&text[..])
            .collect::<anyhow::Result<_>>()
            .unwrap();
        let got: Vec<(&[u8], u64, u64)> = lines
            .iter()
            .map(|l| (&l.bytes[..], l.number, l.offset))
            .collect();
        assert_eq!(
            got,
            vec![
                (&b"one"[..], 1, 0),
                (&b"two"[..], 2, 5),
                (&b""[..], 3, 9),
                (&b"last"[..], 4, 10)
            ]
        );
    }
}

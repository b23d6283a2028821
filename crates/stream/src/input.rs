//! Opening inputs: files, standard input or any reader, decompressed by magic bytes.

use std::{
    fmt,
    fs::File,
    io::{self, BufRead, Read},
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use crate::{
    archive::{self, ZipEntry},
    compression::{Compression, decompress_with},
    error::{InputError, InputErrorKind},
    split::{SplitGames, TextLines},
};

/// A file this small (compressed) gets no decoding threads.
const SMALL_INPUT: u64 = 1 << 20;

/// Where an input comes from: a file, or standard input.
///
/// The conventions of command-line tools: no file at all, or `-`, is standard input.
///
/// ```
/// use std::path::PathBuf;
///
/// use tabia_stream::Source;
///
/// let files = [PathBuf::from("a.pgn"), PathBuf::from("-")];
/// assert_eq!(
///     Source::from_args(&files),
///     [Source::File("a.pgn".into()), Source::Stdin]
/// );
/// assert_eq!(Source::from_args(&[]), [Source::Stdin]);
/// assert_eq!(Source::Stdin.name(), "<stdin>");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
    /// An entry of a zip archive (see [`Source::from_args`]).
    Zip(ZipEntry),
    /// Bytes in memory (PGN, compressed or not) and the name they go by in diagnostics:
    /// text a program already holds, a file object of a Python user.
    Memory {
        /// The name in diagnostics (`<string>`, a file object's name).
        name: String,
        /// The bytes, shared with the caller.
        bytes: Arc<[u8]>,
    },
}

impl Source {
    /// The sources named on a command line: none, or `-`, is standard input. A zip archive
    /// (by its first bytes, whatever its name) gives one source for each of its PGN entries
    /// (named `.pgn`, or `.pgn` and a compression suffix, in any case; every file when there is
    /// none), in the archive's order, each named `ARCHIVE/ENTRY`; an archive whose directory
    /// cannot be read stays a file, whose opening says why.
    ///
    /// ```
    /// use std::io::{Read, Write};
    ///
    /// use tabia_stream::Source;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("twic.zip");
    /// let mut zip = zip::ZipWriter::new(std::fs::File::create(&path)?);
    /// zip.start_file("readme.txt", zip::write::SimpleFileOptions::default())?;
    /// zip.write_all(b"SplitGames of the week")?;
    /// zip.start_file("twic1599.pgn", zip::write::SimpleFileOptions::default())?;
    /// zip.write_all(b"1. e4 e5 1-0\n")?;
    /// zip.finish()?;
    ///
    /// let sources = Source::from_args(&[path.clone()]);
    /// assert_eq!(sources.len(), 1);
    /// assert_eq!(sources[0].name(), format!("{}/twic1599.pgn", path.display()));
    /// let mut text = String::new();
    /// sources[0].open()?.read_to_string(&mut text)?;
    /// assert_eq!(text, "1. e4 e5 1-0\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_args(files: &[PathBuf]) -> Vec<Source> {
        if files.is_empty() {
            return vec![Source::Stdin];
        }
        let mut sources = Vec::new();
        for file in files {
            match Source::from(file.as_path()) {
                Source::File(path) if archive::looks_like_zip(&path) => {
                    match archive::entries(&path) {
                        Ok(entries) => sources.extend(entries.into_iter().map(Source::Zip)),
                        Err(_) => sources.push(Source::File(path)),
                    }
                }
                source => sources.push(source),
            }
        }
        sources
    }

    /// The name used in diagnostics (`<stdin>` for standard input, `ARCHIVE/ENTRY` for an
    /// entry of a zip archive).
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(path) => path.display().to_string(),
            Source::Zip(entry) => format!("{}/{}", entry.archive().display(), entry.name()),
            Source::Memory { name, .. } => name.clone(),
        }
    }

    /// Opens the source, decompressing it if its first bytes say it is compressed.
    pub fn open(&self) -> Result<Input, InputError> {
        self.open_with(0)
    }

    /// Opens the source like [`Source::open`], with `decoders` threads for a zstd input of
    /// several frames (see [`Input::open_with`]).
    pub fn open_with(&self, decoders: usize) -> Result<Input, InputError> {
        match self {
            Source::Stdin => Input::from_reader_with("<stdin>", io::stdin(), decoders),
            Source::File(path) => Input::open_with(path, decoders),
            Source::Zip(entry) => {
                let name = self.name();
                let entry = archive::open_entry(entry).map_err(|io| {
                    InputError::new(InputErrorKind::Read, Some(io)).named(Some(&name))
                })?;
                let mut input = Input::with_size(name, entry.reader, Some(entry.size), decoders)?;
                if entry.compressed && input.compression == Compression::None {
                    input.compression = Compression::Zip;
                }
                Ok(input)
            }
            Source::Memory { name, bytes } => {
                let size = bytes.len() as u64;
                let reader = io::Cursor::new(SharedBytes(bytes.clone()));
                Input::with_size(name.clone(), reader, Some(size), decoders)
            }
        }
    }
}

/// An `Arc<[u8]>` as a `Cursor` reads it.
struct SharedBytes(Arc<[u8]>);

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// `files` with each folder replaced by the files in it and in the folders within it that are
/// named as PGN (`.pgn`, or `.pgn` and `.gz`, `.zst`, `.bz2` or `.xz`, in any case) or as zip
/// archives (`.zip`), in the order of their paths. A link to a folder is not followed (it
/// could lead back up). A folder with no such file, or that cannot be read, stays as it was
/// named, so that opening it says why nothing was read.
///
/// A program that writes files should list the folders before it creates any: a file it
/// writes into a folder it reads is then no input of that run (`tabia` does so).
///
/// ```
/// use std::path::PathBuf;
///
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir_all(dir.path().join("2024"))?;
/// for name in ["b.pgn", "2024/a.PGN.zst", "2024/notes.txt", "c.zip"] {
///     std::fs::write(dir.path().join(name), "")?;
/// }
/// let files = tabia_stream::expand_folders(&[dir.path().to_path_buf(), PathBuf::from("-")]);
/// let names: Vec<_> = files.iter().map(|f| f.strip_prefix(&dir).unwrap_or(f)).collect();
/// assert_eq!(names, ["2024/a.PGN.zst", "b.pgn", "c.zip", "-"].map(std::path::Path::new));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn expand_folders(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut expanded = Vec::with_capacity(files.len());
    for file in files {
        match folder_files(file) {
            Ok(found) if !found.is_empty() => expanded.extend(found),
            Ok(_) | Err(_) => expanded.push(file.clone()),
        }
    }
    expanded
}

/// The files of folder `dir`, as [`expand_folders`] takes them (none when `dir` is no folder).
fn folder_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    if dir.as_os_str() == "-" || !dir.is_dir() {
        return Ok(files);
    }
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                folders.push(path);
            } else if path.is_file() && is_pgn_or_zip_name(&entry.file_name().to_string_lossy()) {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// `games.pgn`, `GAMES.PGN.ZST`, `twic1599g.zip`.
fn is_pgn_or_zip_name(name: &str) -> bool {
    archive::is_pgn_name(name) || name.to_ascii_lowercase().ends_with(".zip")
}

impl From<&Path> for Source {
    /// `-` is standard input, anything else a file.
    fn from(path: &Path) -> Source {
        if path.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::File(path.to_path_buf())
        }
    }
}

/// An opened input: its decompressed bytes, and what a progress meter needs (the size of the
/// file, and how many of its bytes have been read so far).
///
/// zstd, gzip, bzip2 and xz are recognised by their magic bytes whatever the input is called,
/// also on standard input; concatenated frames, members and streams are all read. Nothing is
/// loaded whole. An `Input` is a [`BufRead`] of the decompressed bytes; split it into games with
/// [`Input::games`] or into lines with [`Input::lines`].
///
/// ```
/// use std::io::Read;
///
/// use tabia_stream::{Compression, Input};
///
/// // Any reader will do; here, gzip bytes made on the spot.
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
/// std::io::Write::write_all(&mut gz, b"1. e4 e5 1-0\n\n1. d4 d5 0-1\n")?;
/// let bytes = gz.finish()?;
///
/// let input = Input::from_reader("games.pgn.gz", std::io::Cursor::new(bytes))?;
/// assert_eq!(input.compression(), Compression::Gzip);
/// let games: Vec<_> = input.games().collect::<Result<_, _>>()?;
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].start.line, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Input {
    name: String,
    reader: Box<dyn BufRead + Send>,
    compression: Compression,
    size: Option<u64>,
    read: BytesRead,
}

impl Input {
    /// Opens the file at `path` (`-` is not special here: see [`Source`]).
    ///
    /// A zstd input of several frames (as `pzstd` writes) is decompressed frames-in-parallel on
    /// one thread per core; see [`Input::open_with`].
    pub fn open(path: impl AsRef<Path>) -> Result<Input, InputError> {
        Input::open_with(path, 0)
    }

    /// Opens the file at `path` with `decoders` threads (0: one per core) to decompress a zstd
    /// input of several frames. The frames are found from their headers, decompressed in
    /// parallel and read in order; memory stays bounded (a frame larger than 32 MiB compressed
    /// or 64 MiB decompressed, and everything after it, is decompressed as a stream). With 1,
    /// for a file of at most 1 MiB, or for other formats, the input is decompressed as a
    /// stream on the reading thread.
    ///
    /// ```
    /// use std::io::Read;
    ///
    /// // Two frames, as `pzstd` or `cat a.zst b.zst` make.
    /// let dir = std::env::temp_dir().join(format!("tabia-stream-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("two-frames.pgn.zst");
    /// let mut bytes = zstd::encode_all(&b"1. e4 *\n\n"[..], 3)?;
    /// bytes.extend(zstd::encode_all(&b"1. d4 *\n"[..], 3)?);
    /// std::fs::write(&path, bytes)?;
    ///
    /// let mut text = String::new();
    /// tabia_stream::Input::open_with(&path, 2)?.read_to_string(&mut text)?;
    /// assert_eq!(text, "1. e4 *\n\n1. d4 *\n");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_with(path: impl AsRef<Path>, decoders: usize) -> Result<Input, InputError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let named = |err: InputError| err.named(Some(&name));
        let file = File::open(path)
            .map_err(|io| named(InputError::new(InputErrorKind::Open, Some(io))))?;
        let meta = file
            .metadata()
            .map_err(|io| named(InputError::new(InputErrorKind::Open, Some(io))))?;
        if meta.is_dir() {
            return Err(named(InputError::new(InputErrorKind::IsADirectory, None)));
        }
        if meta.is_file() && archive::looks_like_zip(path) {
            // Its PGN entries one after the other ([`Source::from_args`] makes each an input).
            let (entries, size) = archive::open_all(path)
                .map_err(|io| named(InputError::new(InputErrorKind::Read, Some(io))))?;
            let mut input = Input::with_size(name, entries, Some(size), decoders)?;
            input.compression = Compression::Zip;
            return Ok(input);
        }
        // A pipe or a device has no meaningful size.
        let size = meta.is_file().then_some(meta.len());
        Input::with_size(name, file, size, decoders)
    }

    /// Opens standard input, named `<stdin>`.
    pub fn stdin() -> Result<Input, InputError> {
        Input::from_reader("<stdin>", io::stdin())
    }

    /// Wraps any reader; `name` is used in diagnostics.
    pub fn from_reader(
        name: impl Into<String>,
        reader: impl Read + Send + 'static,
    ) -> Result<Input, InputError> {
        Input::from_reader_with(name, reader, 0)
    }

    /// Wraps any reader like [`Input::from_reader`], with `decoders` threads for a zstd input
    /// of several frames (see [`Input::open_with`]).
    pub fn from_reader_with(
        name: impl Into<String>,
        reader: impl Read + Send + 'static,
        decoders: usize,
    ) -> Result<Input, InputError> {
        Input::with_size(name.into(), reader, None, decoders)
    }

    fn with_size(
        name: String,
        raw: impl Read + Send + 'static,
        size: Option<u64>,
        decoders: usize,
    ) -> Result<Input, InputError> {
        // A small file is decompressed on the thread that reads it: a decoding thread would
        // cost more than it saves.
        let decoders = match size {
            Some(size) if size <= SMALL_INPUT => 1,
            _ => decoders,
        };
        let read = BytesRead::default();
        let counted = Counting {
            inner: raw,
            read: read.clone(),
        };
        let (compression, mut reader) = decompress_with(counted, decoders).map_err(|io| {
            InputError::new(InputErrorKind::Read, Some(io))
                .named(Some(&name))
                .after_line(0)
        })?;
        // Said once here rather than as an error on every "game" of an image or a program.
        let head = reader.fill_buf().map_err(|io| {
            InputError::new(InputErrorKind::Read, Some(io))
                .named(Some(&name))
                .after_line(0)
        })?;
        if let Some(err) = not_text(head) {
            return Err(err.named(Some(&name)));
        }
        Ok(Input {
            name,
            reader,
            compression,
            size,
            read,
        })
    }

    /// An input of uncompressed bytes.
    pub(crate) fn from_parts(
        name: String,
        reader: Box<dyn BufRead + Send>,
        size: Option<u64>,
    ) -> Input {
        Input {
            name,
            reader,
            compression: Compression::None,
            size,
            read: BytesRead::default(),
        }
    }

    /// The name used in diagnostics: the path as given, `<stdin>`, or the reader's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How the bytes were compressed.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The size of the file in bytes (compressed), when known.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// A handle on the count of bytes read from the file itself (compressed bytes), which a
    /// progress meter on another thread compares with [`Input::size`].
    pub fn bytes_read(&self) -> BytesRead {
        self.read.clone()
    }

    /// The decompressed bytes, as a buffered reader.
    pub fn into_reader(self) -> Box<dyn BufRead + Send> {
        self.reader
    }

    /// The PGN games of the input, as raw bytes with their byte offset and line (see
    /// [`SplitGames`]).
    pub fn games(self) -> SplitGames<Box<dyn BufRead + Send>> {
        let name = self.name;
        SplitGames::new(self.reader).named(name)
    }

    /// The lines of the input (see [`TextLines`]).
    pub fn lines(self) -> TextLines<Box<dyn BufRead + Send>> {
        let name = self.name;
        TextLines::new(self.reader).named(name)
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.reader.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.reader.consume(amount);
    }
}

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("name", &self.name)
            .field("compression", &self.compression)
            .field("size", &self.size)
            .field("read", &self.read.get())
            .finish_non_exhaustive()
    }
}

/// How many bytes of an input have been read from its file so far (compressed bytes), shared
/// with the thread that reads it.
#[derive(Debug, Clone, Default)]
pub struct BytesRead(Arc<AtomicU64>);

impl BytesRead {
    /// The bytes read so far.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn add(&self, n: usize) {
        self.0.fetch_add(n as u64, Ordering::Relaxed);
    }
}

/// Why the first bytes of an input (decompressed) say it is not text: a UTF-16 byte order
/// mark, or control bytes that text does not hold (a zero byte, `\x01`, …: not tab, line
/// ends, form feeds or DOS's end-of-file `^Z`) making more than 2% of them, at least two: an
/// image, a program or random bytes hold some 12%, a text with a stray zero byte one (which is
/// then a bad game, not a bad input). The error names the first such byte.
fn not_text(head: &[u8]) -> Option<InputError> {
    if head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff]) {
        return Some(InputError::new(InputErrorKind::Utf16, None));
    }
    let binary = |b: &u8| matches!(b, 0..=8 | 0x0e..=0x19 | 0x1b..=0x1f | 0x7f);
    let count = head.iter().filter(|b| binary(b)).count();
    if count >= 2 && count * 50 > head.len() {
        let at = head.iter().position(binary).unwrap_or(0);
        return Some(InputError::binary(at as u64));
    }
    None
}

/// A reader that counts the bytes read through it.
struct Counting<R> {
    inner: R,
    read: BytesRead,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.add(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::compression::decompress;

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
    fn binary_data_is_not_read_as_text() {
        let open = |bytes: &[u8]| Input::from_reader("x", io::Cursor::new(bytes.to_vec()));
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        let err = open(png).unwrap_err();
        assert_eq!((err.kind(), err.byte()), (InputErrorKind::Binary, Some(8)));
        let err = open(b"\xff\xfe1\0.\0").unwrap_err();
        assert_eq!(err.kind(), InputErrorKind::Utf16);
        // Text, with a DOS end of file, or one stray zero byte (a bad game, not a bad input).
        let mut text = b"[Event \"x\"]\r\n\r\n1. e4 \x0c e5 *\r\n".repeat(40);
        text.push(0x1a);
        assert!(open(&text).is_ok());
        text[200] = 0;
        assert!(open(&text).is_ok());
        assert!(open(b"").is_ok());
        // Compressed: the decompressed bytes are what is looked at.
        let zst = zstd::encode_all(&[0u8, 1, 2, 3, 4, 5, 6, 7][..], 1).unwrap();
        assert_eq!(open(&zst).unwrap_err().byte(), Some(0));
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
        assert_eq!(input.compression(), Compression::Zstd);
        assert_eq!(input.size(), Some(bytes.len() as u64));
        let read = input.bytes_read();
        assert_eq!(read_all(&mut input), TEXT);
        assert_eq!(read.get(), bytes.len() as u64);
    }

    #[test]
    fn missing_file_and_directory_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope.pgn");
        let missing = Source::File(path.clone()).open().unwrap_err();
        assert_eq!(missing.kind(), InputErrorKind::Open);
        assert_eq!(
            missing.to_string(),
            format!("cannot open {}", path.display())
        );
        let is_dir = Source::File(dir.path().to_path_buf()).open().unwrap_err();
        assert_eq!(is_dir.kind(), InputErrorKind::IsADirectory);
        assert!(
            is_dir
                .to_string()
                .ends_with(": a folder with no PGN files (.pgn, compressed or not, or .zip)")
        );
    }
}

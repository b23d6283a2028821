//! Zip archives, as TWIC and most PGN sites ship their games: each PGN entry is an input of its
//! own, named `ARCHIVE/ENTRY`.
//!
//! A zip archive's directory is at its end, so it is read from a file, not from a stream. The
//! directory is read by the `zip` crate; an entry's bytes are then read from the file where
//! they lie: stored ones as they are, deflated ones through flate2, and an entry compressed
//! with zstd, bzip2 or xz (methods 93, 12 and 95) is recognised by its magic bytes like any
//! input. Every entry's CRC-32 is checked as its last byte is read.

use std::{
    collections::VecDeque,
    fs::File,
    io::{self, BufReader, Read, Seek, SeekFrom},
    path::{Path, PathBuf},
};

use zip::{CompressionMethod, ZipArchive};

use crate::compression::{decompress_with, is_zip};

/// Whether `path` is a regular file that starts as a zip archive does (`false` when it cannot
/// be read: opening it will say why). Only a regular file is looked at: a pipe
/// (`<(zcat games.pgn.gz)`, `/dev/stdin`) would give its first bytes to the look.
pub(crate) fn looks_like_zip(path: &Path) -> bool {
    let Ok(mut file) = File::open(path) else {
        return false;
    };
    let mut head = [0; 4];
    file.metadata().is_ok_and(|meta| meta.is_file())
        && file.read_exact(&mut head).is_ok()
        && is_zip(&head)
}

/// An entry of a zip archive (a [`Source::Zip`](crate::Source::Zip)): its name, and where and
/// how its bytes lie in the archive's file, all read from the directory once for the whole
/// archive (an archive of a game per entry may have 100,000 of them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipEntry {
    archive: PathBuf,
    name: String,
    /// Where its bytes start in the file, and how many there are.
    start: u64,
    stored: u64,
    /// Its size and CRC-32 once decompressed.
    size: u64,
    crc: u32,
    method: CompressionMethod,
    encrypted: bool,
}

impl ZipEntry {
    /// The archive's file.
    pub fn archive(&self) -> &Path {
        &self.archive
    }

    /// The entry's name in the archive.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The entries of the archive at `path` that are read: those named as PGN (`.pgn`, or `.pgn`
/// and a compression suffix, in any case), or every file when none is.
pub(crate) fn entries(path: &Path) -> io::Result<Vec<ZipEntry>> {
    let mut archive = ZipArchive::new(File::open(path)?).map_err(invalid)?;
    let mut files = Vec::new();
    for index in 0..archive.len() {
        let entry = archive.by_index_raw(index).map_err(invalid)?;
        if !entry.is_file() {
            continue;
        }
        files.push(ZipEntry {
            archive: path.to_path_buf(),
            name: entry.name().map_err(invalid)?.into_owned(),
            start: entry
                .data_start()
                .ok_or_else(|| invalid("an entry's data was not found"))?,
            stored: entry.compressed_size(),
            size: entry.size(),
            crc: entry.crc32(),
            method: entry.compression(),
            encrypted: entry.encrypted(),
        });
    }
    if files.iter().any(|entry| is_pgn_name(&entry.name)) {
        files.retain(|entry| is_pgn_name(&entry.name));
    }
    Ok(files)
}

/// `games.pgn`, `GAMES.PGN`, `games.pgn.zst`: a name for PGN.
pub(crate) fn is_pgn_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [".pgn", ".pgn.zst", ".pgn.gz", ".pgn.bz2", ".pgn.xz"]
        .iter()
        .any(|suffix| name.ends_with(suffix))
}

/// An entry opened for reading: its bytes as stored decompressed by its method (not by the
/// magic bytes of what it holds), and their size.
pub(crate) struct Entry {
    pub(crate) reader: Box<dyn Read + Send>,
    pub(crate) size: u64,
    /// Whether the zip method compressed it (deflate, or another method).
    pub(crate) compressed: bool,
}

/// The entries of the archive at `path` that [`entries`] reads, one after the other with a
/// blank line between them, as one reader (an archive opened as one input), and the size of
/// them all. Each entry's file is opened when the one before it ends.
pub(crate) fn open_all(path: &Path) -> io::Result<(Box<dyn Read + Send>, u64)> {
    let pending: VecDeque<ZipEntry> = entries(path)?.into();
    let size = pending.iter().map(|entry| entry.size).sum();
    let all = AllEntries {
        pending,
        current: None,
        gap: b"",
    };
    Ok((Box::new(all), size))
}

/// The entries of an archive read one after the other.
struct AllEntries {
    pending: VecDeque<ZipEntry>,
    current: Option<Box<dyn Read + Send>>,
    /// What is left to give of the blank line between two entries.
    gap: &'static [u8],
}

impl Read for AllEntries {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(current) = &mut self.current {
                let n = current.read(buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                self.current = None;
                if !self.pending.is_empty() {
                    self.gap = b"\n\n";
                }
            }
            if !self.gap.is_empty() {
                let n = buf.len().min(self.gap.len());
                buf[..n].copy_from_slice(&self.gap[..n]);
                self.gap = &self.gap[n..];
                return Ok(n);
            }
            let Some(entry) = self.pending.pop_front() else {
                return Ok(0);
            };
            // Each entry by its own magic bytes (a `.pgn.gz` in the archive, or a zstd entry).
            let (_, reader) = decompress_with(open_entry(&entry)?.reader, 1)?;
            self.current = Some(Box::new(reader));
        }
    }
}

/// Opens `entry` for reading.
pub(crate) fn open_entry(entry: &ZipEntry) -> io::Result<Entry> {
    if entry.encrypted {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "the entry is encrypted",
        ));
    }
    let (method, stored, size, crc) = (entry.method, entry.stored, entry.size, entry.crc);
    let mut file = File::open(&entry.archive)?;
    file.seek(SeekFrom::Start(entry.start))?;
    let raw = BufReader::with_capacity(1 << 16, file).take(stored);
    let reader: Box<dyn Read + Send> = if method == CompressionMethod::STORE {
        Box::new(raw)
    } else if method == CompressionMethod::DEFLATE {
        Box::new(flate2::bufread::DeflateDecoder::new(raw))
    } else if [
        CompressionMethod::ZSTD,
        CompressionMethod::BZIP2,
        CompressionMethod::XZ,
    ]
    .contains(&method)
    {
        // A stream in its own format, which its magic bytes give away (and check); what is
        // read of the file is then the stored bytes.
        return Ok(Entry {
            reader: Box::new(raw),
            size: stored,
            compressed: true,
        });
    } else {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("the entry's compression method ({method}) is not supported"),
        ));
    };
    Ok(Entry {
        reader: Box::new(Checked {
            inner: reader,
            hasher: crc32fast::Hasher::new(),
            crc,
            size,
            read: 0,
        }),
        size,
        compressed: method != CompressionMethod::STORE,
    })
}

/// An entry's bytes, checked against its size and CRC-32 when they end.
struct Checked {
    inner: Box<dyn Read + Send>,
    hasher: crc32fast::Hasher,
    crc: u32,
    size: u64,
    read: u64,
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.read += n as u64;
        if self.read > self.size {
            return Err(invalid(format!(
                "the entry gives more than its {} bytes: the archive is damaged",
                self.size
            )));
        }
        if n == 0 && !buf.is_empty() {
            if self.read != self.size {
                return Err(invalid(format!(
                    "the entry ends after {} of its {} bytes: the archive is damaged",
                    self.read, self.size
                )));
            }
            let crc = self.hasher.clone().finalize();
            if crc != self.crc {
                return Err(invalid(format!(
                    "the entry's CRC-32 is {crc:08x}, not {:08x}: the archive is damaged",
                    self.crc
                )));
            }
        }
        Ok(n)
    }
}

fn invalid(err: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, err)
}

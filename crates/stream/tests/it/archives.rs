//! Zip archives: one input per PGN entry, in the archive's order, named `ARCHIVE/ENTRY`; stored,
//! deflated and inner-compressed entries; damaged entries and archives; an archive on standard
//! input.

use std::{
    fs,
    io::{Read, Write},
    path::{Path, PathBuf},
};

use tabia_stream::{Compression, Input, Source};
use zip::{CompressionMethod, ZipWriter, write::SimpleFileOptions};

use super::{compress, games, round};

/// Writes a zip archive of `entries` (name, method, bytes; a name ending in `/` is a folder).
fn archive(path: &Path, entries: &[(&str, CompressionMethod, Vec<u8>)]) {
    let mut zip = ZipWriter::new(fs::File::create(path).unwrap());
    for (name, method, bytes) in entries {
        let options = SimpleFileOptions::default().compression_method(*method);
        if name.ends_with('/') {
            zip.add_directory(*name, options).unwrap();
        } else {
            zip.start_file(*name, options).unwrap();
            zip.write_all(bytes).unwrap();
        }
    }
    zip.finish().unwrap();
}

/// The rounds of the games of `input`, read on `jobs` workers.
fn rounds(input: Input, jobs: usize) -> Vec<u64> {
    let mut rounds = Vec::new();
    let outcome = tabia_stream::Pipeline::new()
        .with_jobs(jobs)
        .map(
            input.games(),
            |_, raw| round(raw),
            |_, n| {
                rounds.push(n);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
    assert!(outcome.input_error.is_none(), "{:?}", outcome.input_error);
    rounds
}

fn twic(dir: &Path) -> PathBuf {
    let path = dir.join("twic1599g.zip");
    archive(
        &path,
        &[
            (
                "readme.txt",
                CompressionMethod::Deflated,
                b"The week's games".to_vec(),
            ),
            ("twic1599.pgn", CompressionMethod::Deflated, games(300)),
            ("old/", CompressionMethod::Stored, Vec::new()),
            ("old/TWIC1598.PGN", CompressionMethod::Stored, games(7)),
            (
                "more.pgn.gz",
                CompressionMethod::Stored,
                compress(&games(20), Compression::Gzip, 1),
            ),
        ],
    );
    path
}

#[test]
fn a_zip_archive_is_one_input_per_pgn_entry_in_its_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = twic(dir.path());
    let sources = Source::from_args(std::slice::from_ref(&path));
    let names: Vec<String> = sources.iter().map(Source::name).collect();
    let archive = path.display();
    assert_eq!(
        names,
        [
            format!("{archive}/twic1599.pgn"),
            format!("{archive}/old/TWIC1598.PGN"),
            format!("{archive}/more.pgn.gz"),
        ]
    );
    let expected = [
        (300, Compression::Zip),
        (7, Compression::None),
        (20, Compression::Gzip),
    ];
    for jobs in [1, 2, 3] {
        for (source, (n, compression)) in sources.iter().zip(expected) {
            let input = source.open_with(jobs).unwrap();
            assert_eq!(input.compression(), compression, "{}", source.name());
            assert_eq!(input.name(), source.name());
            assert_eq!(rounds(input, jobs), (1..=n).collect::<Vec<_>>());
        }
    }
}

#[test]
fn a_zip_archive_opened_as_one_input_is_its_entries_one_after_another() {
    let dir = tempfile::tempdir().unwrap();
    let path = twic(dir.path());
    let input = Input::open(&path).unwrap();
    assert_eq!(input.compression(), Compression::Zip);
    let expected: Vec<u64> = (1..=300).chain(1..=7).chain(1..=20).collect();
    assert_eq!(rounds(input, 2), expected);
}

#[test]
fn an_archive_with_no_pgn_entry_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.zip");
    archive(
        &path,
        &[("games.txt", CompressionMethod::Deflated, games(4))],
    );
    let sources = Source::from_args(std::slice::from_ref(&path));
    assert_eq!(sources.len(), 1);
    assert_eq!(rounds(sources[0].open().unwrap(), 1), [1, 2, 3, 4]);
}

/// Reads the one entry of the damaged archive at `path` to its error: what came before it,
/// and the error.
fn read_damaged(path: &Path) -> (Vec<u8>, std::io::Error) {
    let sources = Source::from_args(&[path.to_path_buf()]);
    let mut read = Vec::new();
    let err = sources[0]
        .open()
        .unwrap()
        .read_to_end(&mut read)
        .unwrap_err();
    (read, err)
}

#[test]
fn a_damaged_entry_is_an_error_that_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged.zip");
    let text = games(50);
    archive(&path, &[("a.pgn", CompressionMethod::Stored, text.clone())]);
    // One byte of the stored text changed: the CRC-32 no longer matches.
    let mut bytes = fs::read(&path).unwrap();
    let at = bytes.windows(8).position(|w| w == b"Round \"7").unwrap();
    bytes[at + 7] = b'9';
    fs::write(&path, &bytes).unwrap();
    let (read, err) = read_damaged(&path);
    assert_eq!(read.len(), text.len());
    assert_ne!(read, text);
    assert_eq!(
        err.to_string(),
        format!(
            "the entry's CRC-32 is {:08x}, not {:08x}: the archive is damaged",
            crc(&read),
            crc(&text)
        )
    );
}

#[test]
fn an_entry_longer_or_shorter_than_its_directory_says_is_an_error_that_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sizes.zip");
    let text = games(50);
    archive(&path, &[("a.pgn", CompressionMethod::Stored, text.clone())]);
    let bytes = fs::read(&path).unwrap();
    // The central directory's record of the entry: its uncompressed size at offset 24.
    let record = bytes.windows(4).rposition(|w| w == b"PK\x01\x02").unwrap();
    let size = |n: u32| {
        let mut bytes = bytes.clone();
        bytes[record + 24..record + 28].copy_from_slice(&n.to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        let (read, err) = read_damaged(&path);
        (read.len(), err.to_string())
    };
    let n = u32::try_from(text.len()).unwrap();
    let (read, message) = size(n - 100);
    assert!(read <= text.len());
    assert_eq!(
        message,
        format!(
            "the entry gives more than its {} bytes: the archive is damaged",
            n - 100
        )
    );
    // Stored bytes are read as far as the directory's compressed size says (the same as the
    // text here), so an entry said to be longer ends short.
    let (read, message) = size(n + 7);
    assert_eq!(read, text.len());
    assert_eq!(
        message,
        format!(
            "the entry ends after {n} of its {} bytes: the archive is damaged",
            n + 7
        )
    );
}

fn crc(bytes: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(bytes);
    hasher.finalize()
}

#[test]
fn an_archive_whose_directory_is_gone_stays_a_file_that_cannot_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.zip");
    archive(&path, &[("a.pgn", CompressionMethod::Deflated, games(50))]);
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let sources = Source::from_args(std::slice::from_ref(&path));
    assert_eq!(sources, [Source::File(path.clone())]);
    let err = sources[0].open().unwrap_err();
    assert_eq!(err.to_string(), format!("{}: read error", path.display()));
    assert!(
        err.io()
            .is_some_and(|io| io.to_string().contains("Could not find EOCD")),
        "{:?}",
        err.io()
    );
}

#[test]
fn a_zip_archive_on_standard_input_is_an_error_that_says_to_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = twic(dir.path());
    let bytes = fs::read(&path).unwrap();
    let err = Input::from_reader("<stdin>", std::io::Cursor::new(bytes)).unwrap_err();
    assert_eq!(
        format!("{err}: {}", err.io().unwrap()),
        "<stdin>: read error before its first line: a zip archive is read from a file, not a stream \
         (its directory is at its end): name the file"
    );
}

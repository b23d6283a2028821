//! Helpers shared by the CLI tests: the binary, fixtures, compressed inputs, generated games.

use std::{fmt::Write as _, io::Write, path::PathBuf};

pub(crate) use super::tabia;

/// A file of the repository's `fixtures/` folder.
pub(crate) fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(path)
}

/// Runs tabia with `args`: its exit status, standard output and standard error.
pub(crate) fn run(args: &[&str]) -> (i32, String, String) {
    let out = tabia().args(args).output().expect("tabia runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The compressions `tabia` recognises by their magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Codec {
    Zstd,
    Gzip,
    Bzip2,
    Xz,
}

pub(crate) const CODECS: [Codec; 4] = [Codec::Zstd, Codec::Gzip, Codec::Bzip2, Codec::Xz];

/// `bytes` compressed with `codec`, in two frames/members/streams (split in the middle), as
/// parallel compressors and `cat a.gz b.gz` make them.
pub(crate) fn compress(codec: Codec, bytes: &[u8]) -> Vec<u8> {
    let (a, b) = bytes.split_at(bytes.len() / 2);
    let mut out = one_frame(codec, a);
    out.extend(one_frame(codec, b));
    out
}

fn one_frame(codec: Codec, bytes: &[u8]) -> Vec<u8> {
    match codec {
        Codec::Zstd => zstd::encode_all(bytes, 3).expect("zstd encodes"),
        Codec::Gzip => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(bytes).expect("encoder takes bytes");
            e.finish().expect("encoder finishes")
        }
        Codec::Bzip2 => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            e.write_all(bytes).expect("encoder takes bytes");
            e.finish().expect("encoder finishes")
        }
        Codec::Xz => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
            e.write_all(bytes).expect("encoder takes bytes");
            e.finish().expect("encoder finishes")
        }
    }
}

/// `n` small games whose `Event` tags number them, some of them bad (every 10th has an invalid
/// move), with longer and shorter games mixed so that batches take different times.
pub(crate) fn numbered_games(n: usize) -> String {
    let mut pgn = String::new();
    for i in 1..=n {
        let _ = write!(pgn, "[Event \"{i}\"]\n\n");
        let moves = if i % 10 == 0 {
            "1. e4 Zz9 *"
        } else if i % 3 == 0 {
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 {a comment [with a bracket]} 1-0"
        } else {
            "1. d4 d5 *"
        };
        let _ = write!(pgn, "{moves}\n\n");
    }
    pgn
}

/// The files of the index tests: a collection with duplicates, a bad game, a game from a
/// `FEN`, unknown results.
pub(crate) fn index_inputs() -> Vec<std::path::PathBuf> {
    let mut files = vec![fixture("book/games.pgn")];
    let mut ok: Vec<_> = std::fs::read_dir(fixture("pgn/ok"))
        .expect("fixtures/pgn/ok")
        .map(|e| e.expect("a fixture").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    ok.sort();
    files.extend(ok);
    files
}

/// The games of `files`, one copy of each as `tabia dedup` keeps them, in `dir/dedup.pgn`,
/// and an index of them in `dir/index`. (An index of `files` themselves would hold the same
/// games, but the export form `dedup` writes fills a missing `Result` tag from the movetext,
/// which the index and the tree, reading the tag, count as unknown.)
pub(crate) fn dedup_and_index(
    dir: &std::path::Path,
    files: &[std::path::PathBuf],
) -> (String, String) {
    let dedup = dir.join("dedup.pgn");
    let mut args = vec![
        "dedup".to_owned(),
        "-o".to_owned(),
        dedup.display().to_string(),
    ];
    args.extend(files.iter().map(|f| f.display().to_string()));
    tabia().args(&args).assert().code(1);
    let index = dir.join("index");
    let summary = tabia_index::Index::build(
        &index,
        std::slice::from_ref(&dedup),
        tabia_index::IndexOptions::default(),
        1,
    )
    .expect("index built");
    assert_eq!((summary.duplicates, summary.bad), (0, 0), "{summary:?}");
    (index.display().to_string(), dedup.display().to_string())
}

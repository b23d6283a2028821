//! The integration tests of tabia-notation: one binary, one module per notation.
//!
//! Fixture files live in `fixtures/<format>/{ok,err}/` at the root of the repository, with the
//! expected output next to each input (`foo.fen` + `foo.out` or `foo.err`). Run with
//! `TABIA_BLESS=1` to (re)write the expected files from what the code produces, then review
//! the diff.

mod command;
mod epd;
mod fen;
mod hostile;
mod pgn;
mod san;

use std::{
    fs,
    path::{Path, PathBuf},
};

/// The inputs with extension `ext` in `fixtures/<format>/<kind>/`, sorted.
pub(crate) fn fixtures(format: &str, kind: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(format)
        .join(kind);
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable fixture folder").path())
        .filter(|path| path.extension().is_some_and(|x| x == ext))
        .collect();
    paths.sort();
    assert!(
        !paths.is_empty(),
        "no *.{ext} fixtures in {}",
        dir.display()
    );
    paths
}

/// Compares `actual` with the file next to `input` with extension `ext` (`out` or `err`); with
/// `TABIA_BLESS=1` writes it instead.
pub(crate) fn expect_file(input: &Path, ext: &str, actual: &str) {
    tabia_testkit::expect_file(&input.with_extension(ext), actual);
}

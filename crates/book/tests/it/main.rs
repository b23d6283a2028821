//! Integration tests of tabia-book: trees against a brute-force count, properties, books.

mod polyglot;
mod tree;

use std::path::PathBuf;

/// A file of the repository's `fixtures/book` folder.
fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/book")
        .join(name)
}

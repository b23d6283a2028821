//! [`Splitter`]: the games of a split written to their files, in input order.

use std::{io, num::NonZeroU64};

use crate::split::{Files, UNKNOWN_STEM, file_stem};

/// The stem of the file of games in error.
const ERRORS: &str = "errors";

/// Writes the games of a split into [`Files`], in the order it is given them: N games a file
/// (`part-00001`, `part-00002`, …; the number grows past five digits when needed) or one file
/// per key (made safe by [`file_stem`]; [`UNKNOWN_STEM`] for games without one), and games in
/// error into `errors` (unless they are dropped).
///
/// ```
/// use std::num::NonZeroU64;
///
/// use tabia_collect::{Existing, FileCompression, Files, Splitter};
///
/// let dir = std::env::temp_dir().join(format!("tabia-splitter-doc-{}", std::process::id()));
/// let files = Files::new(&dir, FileCompression::None, Existing::Refuse, 8)?;
/// let mut splitter = Splitter::new(files, NonZeroU64::new(2));
/// for text in ["1. e4 *\n\n", "1. d4 *\n\n", "1. c4 *\n\n"] {
///     splitter.write_game(None, text.as_bytes())?;
/// }
/// splitter.write_error(b"1. e5 *")?;
/// assert_eq!((splitter.games(), splitter.files().count()), (3, 3));
/// splitter.finish()?;
/// assert_eq!(std::fs::read_to_string(dir.join("part-00002.pgn"))?, "1. c4 *\n\n");
/// assert_eq!(std::fs::read_to_string(dir.join("errors.pgn"))?, "1. e5 *\n\n");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Splitter {
    files: Files,
    per_file: Option<u64>,
    drop_errors: bool,
    /// The games written (over all inputs: the parts are numbered across them).
    games: u64,
}

impl Splitter {
    /// A split into `files`: `per_file` games a file, or (`None`) one file per key.
    pub fn new(files: Files, per_file: Option<NonZeroU64>) -> Splitter {
        Splitter {
            files,
            per_file: per_file.map(NonZeroU64::get),
            drop_errors: false,
            games: 0,
        }
    }

    /// Games in error are not written ([`Splitter::write_error`] does nothing).
    #[must_use]
    pub fn drop_errors(mut self, drop: bool) -> Splitter {
        self.drop_errors = drop;
        self
    }

    /// Writes a good game's `text` (in its final form, separator included) to its file: the
    /// part it falls in with N games a file, else the file of its `key` (`None`: it has
    /// none).
    ///
    /// # Errors
    ///
    /// The file cannot be opened or written.
    pub fn write_game(&mut self, key: Option<&str>, text: &[u8]) -> io::Result<()> {
        let stem = match (self.per_file, key) {
            (Some(n), _) => format!("part-{:05}", self.games / n + 1),
            (None, None) => UNKNOWN_STEM.to_owned(),
            (None, Some(key)) => file_stem(key),
        };
        self.games += 1;
        self.files.write(&stem, text)
    }

    /// Writes a game in error to `errors`: as it was read, followed by a blank line, in PGN
    /// files; as it is given (a line) in NDJSON files.
    ///
    /// # Errors
    ///
    /// The file cannot be opened or written.
    pub fn write_error(&mut self, text: &[u8]) -> io::Result<()> {
        if self.drop_errors {
            return Ok(());
        }
        self.files.write(ERRORS, text)?;
        if !self.files.is_ndjson() {
            if !text.ends_with(b"\n") {
                self.files.write(ERRORS, b"\n")?;
            }
            self.files.write(ERRORS, b"\n")?;
        }
        Ok(())
    }

    /// How many good games were written.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The files.
    pub fn files(&self) -> &Files {
        &self.files
    }

    /// Closes every file (ending compressed streams).
    ///
    /// # Errors
    ///
    /// A file cannot be written.
    pub fn finish(self) -> io::Result<()> {
        self.files.finish()
    }
}

#[cfg(test)]
mod tests {
    use std::{fs, path::Path};

    use super::*;
    use crate::{Existing, FileCompression};

    fn dir(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tabia-splitter-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn read(dir: &Path, name: &str) -> String {
        fs::read_to_string(dir.join(name)).unwrap_or_default()
    }

    #[test]
    fn keys_name_files_and_errors_can_be_dropped() {
        let dir = dir("keys");
        let files = Files::new(&dir, FileCompression::None, Existing::Refuse, 1).unwrap();
        let mut splitter = Splitter::new(files, None).drop_errors(true);
        splitter.write_game(Some("B90"), b"a\n\n").unwrap();
        splitter.write_game(None, b"b\n\n").unwrap();
        splitter.write_game(Some("errors"), b"c\n\n").unwrap();
        splitter.write_game(Some("B90"), b"d\n\n").unwrap();
        splitter.write_error(b"bad").unwrap();
        assert_eq!(splitter.files().count(), 3);
        splitter.finish().unwrap();
        assert_eq!(read(&dir, "B90.pgn"), "a\n\nd\n\n");
        assert_eq!(read(&dir, "_unknown.pgn"), "b\n\n");
        assert_eq!(read(&dir, "_65rrors.pgn"), "c\n\n");
        assert!(!dir.join("errors.pgn").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn parts_of_n_and_ndjson_errors_are_lines() {
        let dir = dir("parts");
        let files = Files::ndjson(&dir, FileCompression::None, Existing::Refuse, 4).unwrap();
        let mut splitter = Splitter::new(files, NonZeroU64::new(2));
        for text in ["1\n", "2\n", "3\n", "4\n"] {
            splitter.write_game(None, text.as_bytes()).unwrap();
        }
        splitter.write_error(b"{\"error\":{}}\n").unwrap();
        assert_eq!(splitter.games(), 4);
        splitter.finish().unwrap();
        assert_eq!(read(&dir, "part-00001.ndjson"), "1\n2\n");
        assert_eq!(read(&dir, "part-00002.ndjson"), "3\n4\n");
        assert_eq!(read(&dir, "errors.ndjson"), "{\"error\":{}}\n");
        fs::remove_dir_all(&dir).unwrap();
    }
}

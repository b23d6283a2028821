//! The error of opening or reading an input.

use std::{error, fmt, io};

/// What went wrong with an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// The file could not be opened (missing, no permission, ...).
    Open,
    /// The path names a folder (one with no PGN files, as [`crate::expand_folders`] left it).
    IsADirectory,
    /// Reading failed: the file, the pipe, or the decompressor (corrupt or cut-off data).
    Read,
    /// The input is not text: its first bytes hold a zero byte, as images, programs and
    /// random bytes do and no PGN or EPD file does (the offset is [`InputError::byte`]).
    Binary,
    /// The input is text in UTF-16 (it starts with a byte order mark), not in UTF-8.
    Utf16,
    /// A byte range of the file was asked for, and the file cannot be read in ranges (it is
    /// compressed: see [`crate::Span::locate`]).
    Range,
}

/// An input that could not be opened or read to the end: its kind, the input's name when it is
/// known, the line after which reading failed when it is known, and the I/O error behind it.
///
/// Displayed as `cannot open games.pgn`, `cannot read games: a folder with no PGN files (…)`, or
/// `games.pgn.zst: read error after line 1200`; the I/O error is its [`source`](error::Error::source),
/// so that `anyhow`'s `{:#}` prints `cannot open x.pgn: No such file or directory (os error 2)`.
///
/// ```
/// let err = tabia_stream::Input::open("no/such/file.pgn").unwrap_err();
/// assert_eq!(err.kind(), tabia_stream::InputErrorKind::Open);
/// assert_eq!(err.to_string(), "cannot open no/such/file.pgn");
/// assert_eq!(err.io().map(|io| io.kind()), Some(std::io::ErrorKind::NotFound));
/// ```
#[derive(Debug)]
pub struct InputError {
    kind: InputErrorKind,
    name: Option<String>,
    line: Option<u64>,
    byte: Option<u64>,
    source: Option<io::Error>,
}

impl InputError {
    pub(crate) fn new(kind: InputErrorKind, source: Option<io::Error>) -> InputError {
        InputError {
            kind,
            name: None,
            line: None,
            byte: None,
            source,
        }
    }

    /// An input that is not text: a zero byte at offset `byte` of its (decompressed) bytes.
    pub(crate) fn binary(byte: u64) -> InputError {
        InputError {
            byte: Some(byte),
            ..InputError::new(InputErrorKind::Binary, None)
        }
    }

    /// A read error (mid-stream).
    pub(crate) fn read(source: io::Error) -> InputError {
        InputError::new(InputErrorKind::Read, Some(source))
    }

    /// Sets the name of the input.
    #[must_use]
    pub(crate) fn named(mut self, name: Option<&str>) -> InputError {
        self.name = name.map(str::to_owned);
        self
    }

    /// Sets the line after which reading failed.
    #[must_use]
    pub(crate) fn after_line(mut self, line: u64) -> InputError {
        self.line = Some(line);
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> InputErrorKind {
        self.kind
    }

    /// The input's name, when the error knows it.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The last line read completely before the error, when known.
    pub fn line(&self) -> Option<u64> {
        self.line
    }

    /// For [`InputErrorKind::Binary`], the offset of the first zero byte in the decompressed input.
    pub fn byte(&self) -> Option<u64> {
        self.byte
    }

    /// The I/O error behind this one.
    pub fn io(&self) -> Option<&io::Error> {
        self.source.as_ref()
    }

    /// The I/O error behind this one, by value (an `io::Error` of kind `Other` carrying this
    /// error's text when there is none).
    pub fn into_io(self) -> io::Error {
        match self.source {
            Some(io) => io,
            None => io::Error::other(self.to_string()),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name.as_deref().unwrap_or("input");
        match self.kind {
            InputErrorKind::Open => write!(f, "cannot open {name}"),
            InputErrorKind::IsADirectory => write!(
                f,
                "cannot read {name}: a folder with no PGN files (.pgn, compressed or not, or .zip)"
            ),
            InputErrorKind::Range => write!(f, "cannot read {name} by byte ranges"),
            InputErrorKind::Binary => write!(
                f,
                "{name} is not PGN or EPD text: binary data at byte {} (an image, a program, \
                 an archive tabia does not read?)",
                self.byte.unwrap_or(0)
            ),
            InputErrorKind::Utf16 => write!(
                f,
                "{name} is UTF-16 text: tabia reads UTF-8 (iconv -f UTF-16 -t UTF-8 converts it)"
            ),
            InputErrorKind::Read => {
                if let Some(name) = &self.name {
                    write!(f, "{name}: ")?;
                }
                f.write_str("read error")?;
                match self.line {
                    Some(0) => f.write_str(" before its first line")?,
                    Some(line) => write!(f, " after line {line}")?,
                    None => {}
                }
                Ok(())
            }
        }
    }
}

impl error::Error for InputError {
    fn source(&self) -> Option<&(dyn error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|io| io as &(dyn error::Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_input_and_the_line() {
        let eof = || io::Error::from(io::ErrorKind::UnexpectedEof);
        assert_eq!(
            InputError::read(eof())
                .named(Some("g.zst"))
                .after_line(7)
                .to_string(),
            "g.zst: read error after line 7"
        );
        assert_eq!(InputError::read(eof()).to_string(), "read error");
        assert_eq!(
            InputError::read(eof())
                .named(Some("g.zip"))
                .after_line(0)
                .to_string(),
            "g.zip: read error before its first line"
        );
        assert_eq!(
            InputError::new(InputErrorKind::IsADirectory, None)
                .named(Some("d"))
                .to_string(),
            "cannot read d: a folder with no PGN files (.pgn, compressed or not, or .zip)"
        );
        assert_eq!(
            InputError::binary(8).named(Some("board.png")).to_string(),
            "board.png is not PGN or EPD text: binary data at byte 8 (an image, a program, an \
             archive tabia does not read?)"
        );
        let err = InputError::new(InputErrorKind::Open, Some(eof())).named(Some("x"));
        assert_eq!(err.to_string(), "cannot open x");
        assert!(error::Error::source(&err).is_some());
        assert_eq!(err.into_io().kind(), io::ErrorKind::UnexpectedEof);
    }
}

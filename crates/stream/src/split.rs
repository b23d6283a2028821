//! Splitting an input into items for the pipeline: PGN games as raw bytes, or lines.

use std::io::{BufRead, Read};

use tabia_notation::pgn::{Origin, PgnReader, RawGame, RawGames, ReadError};

use crate::error::InputError;

/// The games of a PGN input as raw bytes, each with where it starts (byte offset, line and
/// column in the decompressed input): [`RawGame`]s from `tabia-notation`'s splitter.
///
/// Splitting is cheap (no tags or moves are parsed, a game ends exactly where the full reader
/// would end it), so one thread can split for many workers that each call [`RawGame::parse`]
/// or run a visitor over [`RawGame::bytes`]; errors inside a game are theirs to find. The
/// iterator gives an [`InputError`] only when reading fails (an I/O error, or corrupt compressed
/// data), and then ends.
///
/// ```
/// use tabia_stream::SplitGames;
///
/// let pgn = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
/// let games: Vec<_> = SplitGames::new(&pgn[..]).collect::<Result<_, _>>()?;
/// assert_eq!(games.len(), 2);
/// assert_eq!((games[1].start.offset, games[1].start.line), (22, 5));
/// assert!(games[1].bytes.starts_with(b"[Event \"b\"]"));
/// # Ok::<(), tabia_stream::InputError>(())
/// ```
pub struct SplitGames<R> {
    games: RawGames<R>,
    name: Option<String>,
    ended: bool,
}

impl<R: Read> SplitGames<R> {
    /// The games of `reader`.
    pub fn new(reader: R) -> SplitGames<R> {
        SplitGames {
            games: PgnReader::new(reader).raw_games(),
            name: None,
            ended: false,
        }
    }

    /// The games of `reader`, whose first byte is at `start` of a larger input (a
    /// [`Span`](crate::Span) of a file): their places are those in the larger input.
    pub(crate) fn at(reader: R, start: Origin) -> SplitGames<R> {
        SplitGames {
            games: PgnReader::new(reader).with_origin(start).raw_games(),
            name: None,
            ended: false,
        }
    }

    /// Names the input in errors.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> SplitGames<R> {
        self.name = Some(name.into());
        self
    }
}

impl<R: Read> Iterator for SplitGames<R> {
    type Item = Result<RawGame, InputError>;

    fn next(&mut self) -> Option<Result<RawGame, InputError>> {
        if self.ended {
            return None;
        }
        match self.games.next()? {
            Ok(game) => Some(Ok(game)),
            Err(err) => {
                self.ended = true;
                let io = match err {
                    ReadError::Io(io) => io,
                    // The splitter leaves syntax errors to the parser; should one come, it is
                    // still an input that cannot be read on.
                    other => std::io::Error::other(other.to_string()),
                };
                Some(Err(InputError::read(io).named(self.name.as_deref())))
            }
        }
    }
}

/// One line of a line-oriented input (FEN, EPD), without its line end (`\n` or `\r\n`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextLine {
    /// The bytes of the line.
    pub bytes: Vec<u8>,
    /// Its 1-based line number.
    pub number: u64,
    /// The byte offset of its start in the (decompressed) input.
    pub offset: u64,
}

/// The lines of a reader, as an iterator of [`TextLine`]s; memory holds one line at a time. A read
/// error ends the lines.
///
/// ```
/// use tabia_stream::TextLines;
///
/// let lines: Vec<_> = TextLines::new(&b"one\r\ntwo\n\nlast"[..]).collect::<Result<_, _>>()?;
/// assert_eq!(lines.len(), 4);
/// assert_eq!((&lines[1].bytes[..], lines[1].number, lines[1].offset), (&b"two"[..], 2, 5));
/// # Ok::<(), tabia_stream::InputError>(())
/// ```
pub struct TextLines<R> {
    reader: R,
    name: Option<String>,
    number: u64,
    offset: u64,
    ended: bool,
}

impl<R: BufRead> TextLines<R> {
    /// The lines of `reader`.
    pub fn new(reader: R) -> TextLines<R> {
        TextLines {
            reader,
            name: None,
            number: 0,
            offset: 0,
            ended: false,
        }
    }

    /// Names the input in errors.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> TextLines<R> {
        self.name = Some(name.into());
        self
    }
}

impl<R: BufRead> Iterator for TextLines<R> {
    type Item = Result<TextLine, InputError>;

    fn next(&mut self) -> Option<Result<TextLine, InputError>> {
        if self.ended {
            return None;
        }
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
                Some(Ok(TextLine {
                    bytes,
                    number: self.number,
                    offset,
                }))
            }
            Err(err) => {
                self.ended = true;
                Some(Err(InputError::read(err)
                    .named(self.name.as_deref())
                    .after_line(self.number)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::{InputErrorKind, decompress};

    #[test]
    fn games_split_and_name_read_errors() {
        let bytes = zstd::encode_all(&b"1. e4 *\n\n1. d4 *\n"[..], 1).unwrap();
        let (_, reader) = decompress(io::Cursor::new(bytes.clone())).unwrap();
        let games: Vec<RawGame> = SplitGames::new(reader).collect::<Result<_, _>>().unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].start.line, 3);

        let (_, reader) = decompress(io::Cursor::new(bytes[..bytes.len() - 2].to_vec())).unwrap();
        let mut games = SplitGames::new(reader).named("g.zst");
        let err = games.find_map(Result::err).unwrap();
        assert_eq!(err.kind(), InputErrorKind::Read);
        assert!(err.to_string().starts_with("g.zst: read error"), "{err}");
        assert!(games.next().is_none(), "a read error ends the games");
    }

    #[test]
    fn lines_strip_line_ends_and_count() {
        let text = b"one\r\ntwo\n\nlast";
        let lines: Vec<TextLine> = TextLines::new(&text[..]).collect::<Result<_, _>>().unwrap();
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

    /// Fails after handing out `good` bytes.
    struct Failing {
        good: io::Cursor<Vec<u8>>,
    }

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.good.read(buf)? {
                0 => Err(io::Error::other("disk on fire")),
                n => Ok(n),
            }
        }
    }

    #[test]
    fn lines_read_error_says_after_which_line_and_ends() {
        let reader = io::BufReader::new(Failing {
            good: io::Cursor::new(b"a\nb\nc".to_vec()),
        });
        let mut lines = TextLines::new(reader).named("p.epd");
        assert_eq!(lines.next().unwrap().unwrap().bytes, b"a");
        assert_eq!(lines.next().unwrap().unwrap().bytes, b"b");
        let err = lines.next().unwrap().unwrap_err();
        assert_eq!(err.to_string(), "p.epd: read error after line 2");
        assert_eq!(err.io().unwrap().to_string(), "disk on fire");
        assert!(lines.next().is_none());
    }
}

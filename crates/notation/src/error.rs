//! The one error type of every grammar in this crate.
//!
//! An [`Error`] is a typed [`ErrorKind`], the byte span of the offending input, optionally what
//! was expected there, and, once the caller attached the source text with
//! [`Error::with_source`] (or the PGN reader did), the line, column and the source line so that
//! `Display` can draw a caret snippet:
//!
//! ```text
//! error: invalid castling field at line 1, column 45
//!   | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1
//!   |                                             ^^^^
//! ```

use std::{error::Error as StdError, fmt, ops::Range};

/// What kind of syntax error was found.
///
/// The kinds are shared by all grammars of the crate; each names the field or construct that is
/// wrong, so that a message can be read without the grammar at hand.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    // --- FEN and the four position fields shared with EPD ---
    /// The piece placement field (ranks, pieces, digits, `/`) is malformed.
    InvalidPlacement,
    /// A rank of the piece placement does not describe exactly eight squares.
    InvalidRankLength,
    /// The placement does not have exactly eight ranks.
    InvalidRankCount,
    /// The active colour field is neither `w` nor `b`.
    InvalidColor,
    /// The castling availability field is malformed.
    InvalidCastling,
    /// The en-passant target square field is malformed.
    InvalidEnPassant,
    /// The halfmove clock is not a non-negative integer.
    InvalidHalfmoveClock,
    /// The fullmove number is not a positive integer.
    InvalidFullmoveNumber,
    /// A Crazyhouse pocket (`[QPpp]` or a ninth rank) is malformed.
    InvalidPocket,
    /// Three-check counters (`3+3` or `+0+0`) are malformed.
    InvalidChecks,
    /// A required field is missing.
    MissingField,
    /// Two fields are not separated by white space.
    MissingSeparator,
    /// Input remains after a complete value.
    TrailingInput,

    // --- EPD operations ---
    /// An opcode is malformed (must start with a letter, then letters, digits or `_`).
    InvalidOpcode,
    /// An operand is malformed.
    InvalidOperand,
    /// An operation is not terminated by `;`.
    MissingSemicolon,
    /// A quoted string is not closed.
    UnterminatedString,
    /// An operand has the wrong type for its opcode (typed access only).
    InvalidOperandType,

    // --- SAN and UCI ---
    /// A move in standard algebraic notation is malformed.
    InvalidSan,
    /// A move in UCI (long algebraic) notation is malformed.
    InvalidUci,
    /// A move in long algebraic notation (`Ng1-f3`) is malformed.
    InvalidLan,
    /// A square name is malformed.
    InvalidSquare,
    /// A set of piece letters is malformed (six distinct letters are needed).
    InvalidPieces,

    // --- PGN ---
    /// A tag pair is malformed.
    InvalidTag,
    /// A tag pair is not closed by `]`.
    UnterminatedTag,
    /// A `{` comment is not closed by `}`.
    UnterminatedComment,
    /// A `)` closes no variation.
    UnmatchedCloseParen,
    /// A `(` variation is not closed before the game ends.
    UnclosedVariation,
    /// A variation opens before any move it could be an alternative to.
    VariationWithoutMove,
    /// A NAG (`$n`) is malformed or out of range.
    InvalidNag,
    /// A move number indication is malformed.
    InvalidMoveNumber,
    /// A token in movetext is not a move, move number, NAG, comment, variation or result.
    UnexpectedToken,
    /// A `}` appears outside a comment.
    UnexpectedCloseBrace,
    /// The game has no result token (the game is still read up to where it stops).
    MissingResult,
    /// The input ends in the middle of a construct.
    UnexpectedEof,
    /// Reading the input failed.
    Io,
}

impl ErrorKind {
    /// A short description, as used in messages (`invalid castling field`).
    pub fn description(self) -> &'static str {
        use ErrorKind::*;
        match self {
            InvalidPlacement => "invalid piece placement",
            InvalidRankLength => "rank does not have exactly 8 squares",
            InvalidRankCount => "piece placement does not have exactly 8 ranks",
            InvalidColor => "invalid active colour",
            InvalidCastling => "invalid castling field",
            InvalidEnPassant => "invalid en-passant field",
            InvalidHalfmoveClock => "invalid halfmove clock",
            InvalidFullmoveNumber => "invalid fullmove number",
            InvalidPocket => "invalid pocket",
            InvalidChecks => "invalid check counters",
            MissingField => "missing field",
            MissingSeparator => "missing space between fields",
            TrailingInput => "unexpected input after the end",
            InvalidOpcode => "invalid opcode",
            InvalidOperand => "invalid operand",
            MissingSemicolon => "operation not terminated by `;`",
            UnterminatedString => "unterminated string",
            InvalidOperandType => "operand of the wrong type for its opcode",
            InvalidSan => "invalid SAN move",
            InvalidUci => "invalid UCI move",
            InvalidLan => "invalid long algebraic move",
            InvalidSquare => "invalid square",
            InvalidPieces => "invalid piece letters",
            InvalidTag => "invalid tag pair",
            UnterminatedTag => "tag pair not closed by `]`",
            UnterminatedComment => "comment not closed by `}`",
            UnmatchedCloseParen => "`)` closes no variation",
            UnclosedVariation => "variation not closed by `)`",
            VariationWithoutMove => "variation before any move",
            InvalidNag => "invalid NAG",
            InvalidMoveNumber => "invalid move number",
            UnexpectedToken => "unexpected token in movetext",
            UnexpectedCloseBrace => "`}` outside a comment",
            MissingResult => "game has no result",
            UnexpectedEof => "unexpected end of input",
            Io => "read error",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// Where an error is, for humans: 1-based line and column (in characters) and the text of
/// that line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// 1-based line number.
    pub line: u64,
    /// 1-based column, counted in characters of the line (bytes that are not UTF-8 count as one
    /// Latin-1 character each).
    pub column: u64,
    /// The whole line the error is on, decoded (UTF-8, else Latin-1), without its line end.
    pub text: String,
    /// How many characters of `text` the caret underlines (at least 1).
    pub width: usize,
}

impl Location {
    /// The most characters [`Location::found`] gives before it stops with `…`.
    pub const FOUND_CHARS: usize = 24;

    /// The text the caret underlines (at most [`Location::FOUND_CHARS`] characters, then
    /// `…`): what was found where something else was expected. Empty when the caret is past
    /// the end of the line (an input that stops too soon).
    ///
    /// ```
    /// use tabia_notation::{Error, ErrorKind};
    ///
    /// let src = "1. e4 e5 2. Qxx9 *";
    /// let err = Error::new(ErrorKind::InvalidSan, 12..16).with_source(src.as_bytes());
    /// assert_eq!(err.location().unwrap().found(), "Qxx9");
    /// let long = format!("1. {} *", "N".repeat(100));
    /// let err = Error::new(ErrorKind::InvalidSan, 3..103).with_source(long.as_bytes());
    /// assert_eq!(err.location().unwrap().found(), format!("{}…", "N".repeat(24)));
    /// ```
    pub fn found(&self) -> String {
        let start = usize::try_from(self.column.saturating_sub(1)).unwrap_or(usize::MAX);
        let mut chars = self.text.chars().skip(start);
        let mut found: String = chars
            .by_ref()
            .take(self.width.min(Location::FOUND_CHARS))
            .collect();
        if self.width > Location::FOUND_CHARS && chars.next().is_some() {
            found.push('…');
        }
        found
    }
}

/// A syntax error: a typed kind, a byte span and, optionally, what was expected and where it is
/// in the source text.
///
/// ```
/// use tabia_notation::{Error, ErrorKind};
///
/// let src = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1";
/// let err = Error::new(ErrorKind::InvalidCastling, 44..48).with_source(src.as_bytes());
/// assert_eq!(err.kind(), ErrorKind::InvalidCastling);
/// assert_eq!((err.line(), err.column()), (Some(1), Some(45)));
/// assert_eq!(
///     err.to_string(),
///     "invalid castling field at line 1, column 45\n  \
///        | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1\n  \
///        |                                             ^^^^"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    span: Range<usize>,
    expected: Option<&'static str>,
    location: Option<Box<Location>>,
}

impl Error {
    /// An error of `kind` at the byte range `span` of the parsed input.
    pub fn new(kind: ErrorKind, span: Range<usize>) -> Error {
        Error {
            kind,
            span,
            expected: None,
            location: None,
        }
    }

    /// Says what was expected where the error is (`"a square such as e3, or -"`).
    #[must_use]
    pub fn with_expected(mut self, expected: &'static str) -> Error {
        self.expected = Some(expected);
        self
    }

    /// Moves the span by `base` bytes: for an error found in a slice that starts at `base` in a
    /// larger input.
    #[must_use]
    pub fn offset(mut self, base: usize) -> Error {
        self.span = self.span.start + base..self.span.end + base;
        self
    }

    /// Attaches the location of the span in `source`, the whole input the span refers to, so
    /// that `Display` shows line, column and a caret snippet.
    #[must_use]
    pub fn with_source(self, source: &[u8]) -> Error {
        self.with_source_at(source, 0, 1)
    }

    /// Like [`Error::with_source`], for a `source` that is a slice of a larger input: the slice
    /// starts at byte `base` of that input (spans are relative to the larger input) and on line
    /// `first_line` (1-based).
    #[must_use]
    pub fn with_source_at(mut self, source: &[u8], base: usize, first_line: u64) -> Error {
        let start = self.span.start.saturating_sub(base).min(source.len());
        let end = self
            .span
            .end
            .saturating_sub(base)
            .clamp(start, source.len());
        let before = &source[..start];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |i| i + 1);
        let line = first_line + count_line_ends(before);
        let line_end = source[start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(source.len(), |i| start + i);
        let column = decode(&source[line_start..start]).chars().count() as u64 + 1;
        let text = decode(&source[line_start..line_end]).into_owned();
        let width = decode(&source[start..end.min(line_end)])
            .chars()
            .count()
            .max(1);
        self.location = Some(Box::new(Location {
            line,
            column,
            text,
            width,
        }));
        self
    }

    /// Attaches a location computed elsewhere.
    #[must_use]
    pub fn with_location(mut self, location: Location) -> Error {
        self.location = Some(Box::new(location));
        self
    }

    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte range of the offending input.
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// What was expected, if the grammar knows.
    pub fn expected(&self) -> Option<&'static str> {
        self.expected
    }

    /// The location, if a source was attached.
    pub fn location(&self) -> Option<&Location> {
        self.location.as_deref()
    }

    /// 1-based line, if a source was attached.
    pub fn line(&self) -> Option<u64> {
        self.location.as_ref().map(|l| l.line)
    }

    /// 1-based column in characters, if a source was attached.
    pub fn column(&self) -> Option<u64> {
        self.location.as_ref().map(|l| l.column)
    }

    /// The message without location or snippet: the kind and what was expected.
    pub fn message(&self) -> String {
        match self.expected {
            Some(expected) => format!("{} (expected {expected})", self.kind),
            None => self.kind.to_string(),
        }
    }

    /// The message for a line that shows no snippet (a diagnostic `FILE:LINE:COL: ...`, a
    /// table cell): [`Error::message`] with the text found at the caret after the kind (see
    /// [`Location::found`]), unless the kind names it already or there is none.
    ///
    /// ```
    /// use tabia_notation::{Error, ErrorKind};
    ///
    /// let src = "1. e4 nc3 *";
    /// let err = Error::new(ErrorKind::InvalidSan, 6..9).with_source(src.as_bytes());
    /// assert_eq!(err.brief(), "invalid SAN move `nc3`");
    /// let err = Error::new(ErrorKind::UnmatchedCloseParen, 6..7).with_source(b"1. e4 ) *");
    /// assert_eq!(err.brief(), "`)` closes no variation");
    /// let err = Error::new(ErrorKind::InvalidSan, 6..9).with_expected("a move");
    /// assert_eq!(err.brief(), "invalid SAN move (expected a move)");
    /// ```
    pub fn brief(&self) -> String {
        let found = self.location().map(Location::found).filter(|found| {
            !found.is_empty() && !self.kind.description().contains(&format!("`{found}`"))
        });
        match (found, self.expected) {
            (Some(found), Some(expected)) => {
                format!("{} `{found}` (expected {expected})", self.kind)
            }
            (Some(found), None) => format!("{} `{found}`", self.kind),
            (None, _) => self.message(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())?;
        match &self.location {
            Some(loc) => {
                write!(f, " at line {}, column {}", loc.line, loc.column)?;
                write!(f, "\n  | {}\n  | ", loc.text)?;
                let pad = usize::try_from(loc.column).unwrap_or(usize::MAX) - 1;
                let pad = pad.min(loc.text.chars().count());
                for _ in 0..pad {
                    f.write_str(" ")?;
                }
                for _ in 0..loc.width {
                    f.write_str("^")?;
                }
                Ok(())
            }
            None => write!(f, " at byte {}", self.span.start),
        }
    }
}

impl StdError for Error {}

/// Counts line ends, treating `\r\n`, `\n` and a lone `\r` each as one.
pub(crate) fn count_line_ends(bytes: &[u8]) -> u64 {
    let mut n = 0;
    let mut prev_cr = false;
    for &b in bytes {
        match b {
            b'\n' if prev_cr => {}
            b'\n' | b'\r' => n += 1,
            _ => {}
        }
        prev_cr = b == b'\r';
    }
    n
}

/// Decodes bytes as UTF-8 if they are, else as Latin-1 (every byte one character): PGN files in
/// the wild are often Latin-1, and nothing a user gave us is dropped.
pub fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => std::borrow::Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_on_later_line_with_crlf() {
        let src = b"[Event \"x\"]\r\n\r\n1. e4 e5 2. Qxx *\r\n";
        let at = src.windows(3).position(|w| w == b"Qxx").unwrap();
        let err = Error::new(ErrorKind::InvalidSan, at..at + 3).with_source(src);
        assert_eq!(err.line(), Some(3));
        assert_eq!(err.column(), Some(13));
        assert_eq!(
            err.to_string(),
            "invalid SAN move at line 3, column 13\n  | 1. e4 e5 2. Qxx *\n  |             ^^^"
        );
    }

    #[test]
    fn latin1_counts_one_column_per_byte() {
        let src = b"[White \"J\xf6rg\"] ]";
        let err = Error::new(ErrorKind::InvalidTag, 16..17).with_source(src);
        assert_eq!(err.column(), Some(17));
        assert!(err.to_string().contains("J\u{f6}rg"));
    }

    #[test]
    fn without_source_names_the_byte() {
        let err = Error::new(ErrorKind::InvalidColor, 9..10).with_expected("`w` or `b`");
        assert_eq!(
            err.to_string(),
            "invalid active colour (expected `w` or `b`) at byte 9"
        );
    }

    #[test]
    fn offset_and_slice_location() {
        let whole = b"line one\nline two has an error\n";
        let slice = &whole[9..];
        let err = Error::new(ErrorKind::UnexpectedToken, 22..24).with_source_at(slice, 9, 2);
        assert_eq!((err.line(), err.column()), (Some(2), Some(14)));
        assert_eq!(Error::new(ErrorKind::Io, 0..1).offset(5).span(), 5..6);
    }

    #[test]
    fn line_ends_counted_once() {
        assert_eq!(count_line_ends(b"a\r\nb\nc\rd"), 3);
    }
}

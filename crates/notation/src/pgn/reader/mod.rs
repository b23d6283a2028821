//! The streaming reader: one buffer over any `io::Read`, games one at a time.

use std::{
    fmt,
    io::{self, Read},
};

use super::{
    Game, Outcome, RawComment, RawTag, SanPlus, Visitor, Warning, WarningKind,
    comment::{brace_body, rest_of_line, split_point},
    game::GameBuilder,
    movetext::{move_number, nag, result, suffix},
    rule::{RuleError, block_hits, is_token_end, swar_find, token_len},
    tag::{plain_tag_pair, tag_pair},
};
use crate::{Error, ErrorKind, Location, Nag, error::count_line_ends};

mod buffer;
mod games;
mod movetext;
mod raw;
mod scan;
mod skip;
mod tags;

pub use raw::{Cut, RawGame};
use scan::*;

/// The longest token (SAN, NAG, move number, result) the reader reads in one piece; the buffer
/// always holds at least this much ahead of the cursor unless the input ends. The error span of
/// a longer token is cut to this length, so that it does not depend on what is buffered.
const LOOKAHEAD: usize = 256;

/// The size of the reader's buffer unless told otherwise.
pub const DEFAULT_CAPACITY: usize = 1 << 17;

const MIN_CAPACITY: usize = 1 << 12;

/// The longest line a tag pair is looked for in before its line end (or half the buffer a
/// reader is made with, when that is more): a tag pair on a longer line is read when it lies
/// in these bytes, else it is an error. The buffer grows to hold such a line, then keeps its
/// size.
const TAG_LINE_LIMIT: usize = 1 << 20;

const BOM: &[u8] = b"\xef\xbb\xbf";

/// A place in the input: byte offset (0-based), line (1-based, `\n`, `\r\n` and a lone `\r`
/// each end a line) and column (1-based, in bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Origin {
    /// Byte offset from the start of the input.
    pub offset: u64,
    /// 1-based line.
    pub line: u64,
    /// 1-based column, counted in bytes.
    pub column: u64,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Why a game could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The game starting at `start` has a syntax error; the reader went on to the next game.
    Syntax {
        /// The error, with its line, column and snippet.
        error: Error,
        /// Where the bad game starts.
        start: Origin,
    },
    /// Reading the input failed; the reader stops (it yields no more games).
    Io(io::Error),
}

impl ReadError {
    /// The syntax error, if this is one.
    pub fn syntax(&self) -> Option<&Error> {
        match self {
            ReadError::Syntax { error, .. } => Some(error),
            ReadError::Io(_) => None,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Syntax { error, .. } => error.fmt(f),
            ReadError::Io(err) => write!(f, "read error: {err}"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Syntax { error, .. } => Some(error),
            ReadError::Io(err) => Some(err),
        }
    }
}

/// What [`PgnReader::read_game_keeping`] gives for a game: the visitor's output, and the raw
/// bytes of the game when they were kept.
type Keeping<T> = (T, Option<RawGame>);

/// What stops reading a game.
enum Stop {
    Io(io::Error),
    Syntax(Error, Origin),
}

impl From<io::Error> for Stop {
    fn from(err: io::Error) -> Stop {
        Stop::Io(err)
    }
}

/// Reads PGN games one at a time from any [`io::Read`], in memory bounded by its buffer.
///
/// ```
/// use tabia_notation::pgn::PgnReader;
///
/// let pgn = b"[White \"A\"]\n\n1. e4 e5 {open} 2. Nf3 (2. f4) 1-0\n\n1. d4 *\n";
/// let games: Vec<_> = PgnReader::new(&pgn[..]).games().collect::<Result<_, _>>()?;
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].mainline.moves.len(), 3);
/// assert_eq!(games[1].start.line, 5);
/// # Ok::<_, tabia_notation::pgn::ReadError>(())
/// ```
///
/// The reader buffers the input itself: wrapping it in a `BufReader` brings nothing.
pub struct PgnReader<R> {
    inner: R,
    /// The buffer: its whole length is usable (`end` says how much holds input).
    buf: Vec<u8>,
    /// Cursor in `buf`.
    pos: usize,
    /// End of the valid data in `buf`.
    end: usize,
    /// Past this cursor position, fewer than [`LOOKAHEAD`] bytes are buffered and the input
    /// goes on: time to refill (`usize::MAX` once the input ended).
    refill_at: usize,
    /// The longest line a tag pair is looked for in ([`TAG_LINE_LIMIT`], or half the buffer
    /// the reader was made with).
    tag_line_limit: usize,
    eof: bool,
    /// A read error that ended the input after whole games the buffer still holds: given
    /// once they are read, in the place of the game it cut.
    deferred: Option<io::Error>,
    failed: bool,
    bom_checked: bool,
    /// Absolute offset of `buf[0]`.
    base: u64,
    /// Line of the cursor.
    line: u64,
    /// Absolute offset of the start of the cursor's line.
    line_start: u64,
    /// Bytes of the raw game being captured that left the buffer.
    capture: Option<Vec<u8>>,
    /// Where the capture continues in `buf`.
    capture_from: usize,
    /// The end of the last non-blank byte that left the buffer at a refill, with its line and
    /// the start of that line (if known): where a missing result is shown when nothing
    /// non-blank before the cursor is buffered any more.
    dropped_end: Option<(u64, u64, u64)>,
    /// Where the line that `buf[0]` is on starts (absolute; before `base` when the line began
    /// in bytes that left the buffer): a place's column is known whatever was dropped.
    base_line_start: u64,
    /// The search for the end of a long comment, set up once.
    comment_end: BraceOrLineEnd,
    /// What the game being skipped was in the middle of when the input ended (see
    /// [`PgnReader::cut`]).
    cut: Option<Cut>,
    /// The `{` (offset, line, start of its line) of a comment the input ended in while
    /// skipping, for the error a reading of the movetext would have given.
    unclosed: Option<(u64, u64, u64)>,
}

impl PgnReader<io::Empty> {
    /// Moves the bytes of the input that are already in memory into the reader as its buffer:
    /// no copy, and no reading after them. [`PgnReader::into_bytes`] gives them back.
    ///
    /// ```
    /// use tabia_notation::pgn::PgnReader;
    ///
    /// let mut reader = PgnReader::from_bytes(b"1. e4 *\n\n1. d4 *\n".to_vec());
    /// assert_eq!(reader.skip_game()?.map(|start| start.line), Some(1));
    /// assert_eq!(reader.skip_game()?.map(|start| start.line), Some(3));
    /// assert_eq!(reader.skip_game()?, None);
    /// assert_eq!(reader.into_bytes().len(), 17);
    /// # Ok::<(), tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn from_bytes(bytes: Vec<u8>) -> PgnReader<io::Empty> {
        let mut reader = PgnReader::with_buffer(Vec::new(), io::empty());
        reader.end = bytes.len();
        reader.buf = bytes;
        reader.eof = true;
        reader.refill_at = usize::MAX;
        reader
    }

    /// Gives back the bytes [`PgnReader::from_bytes`] took.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

impl<R: Read> PgnReader<R> {
    /// A reader over `inner` with a buffer of [`DEFAULT_CAPACITY`] bytes.
    pub fn new(inner: R) -> PgnReader<R> {
        PgnReader::with_capacity(DEFAULT_CAPACITY, inner)
    }

    /// A reader with a buffer of `capacity` bytes (at least 4096). A tag pair must fit in half
    /// of it; longer comments are handed to the visitor in pieces.
    pub fn with_capacity(capacity: usize, inner: R) -> PgnReader<R> {
        PgnReader::with_buffer(vec![0; capacity.max(MIN_CAPACITY)], inner)
    }

    /// A reader over `inner` with `buf` as its buffer.
    fn with_buffer(buf: Vec<u8>, inner: R) -> PgnReader<R> {
        PgnReader {
            inner,
            tag_line_limit: TAG_LINE_LIMIT.max(buf.len() / 2),
            buf,
            pos: 0,
            end: 0,
            refill_at: 0,
            eof: false,
            deferred: None,
            failed: false,
            bom_checked: false,
            base: 0,
            line: 1,
            line_start: 0,
            capture: None,
            capture_from: 0,
            dropped_end: None,
            base_line_start: 0,
            comment_end: BraceOrLineEnd::new(),
            cut: None,
            unclosed: None,
        }
    }

    /// Says that the input starts at `origin` of a larger input (as a [`RawGame`] does), so
    /// that offsets, lines and columns are those of the larger input.
    #[must_use]
    pub fn with_origin(mut self, origin: Origin) -> PgnReader<R> {
        self.base = origin.offset;
        self.line = origin.line;
        self.line_start = origin
            .offset
            .saturating_sub(origin.column.saturating_sub(1));
        self.bom_checked = origin.offset > 0;
        self.base_line_start = self.line_start;
        self
    }

    /// The absolute offset of the next byte the reader will look at.
    pub fn offset(&self) -> u64 {
        self.abs(self.pos)
    }

    /// Reads the next game into `visitor` and returns what its `end_game` returned, or `None`
    /// at the end of the input.
    ///
    /// A game with a syntax error is reported as [`ReadError::Syntax`] and skipped: the next
    /// call reads the game after it. After an I/O error the reader yields no more games.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Result<Option<V::Output>, ReadError> {
        if self.failed {
            return Ok(None);
        }
        match self.game(visitor) {
            Ok(out) => Ok(out),
            Err(Stop::Syntax(error, start)) => Err(ReadError::Syntax { error, start }),
            Err(Stop::Io(err)) => {
                self.failed = true;
                Err(ReadError::Io(err))
            }
        }
    }

    /// Moves to the start of the next game (past white space and `%` lines) and gives where it
    /// is, or `None` at the end of the input: the start [`PgnReader::read_game`] then gives the
    /// visitor's `begin_game`, for a caller that needs it besides what the visitor makes.
    ///
    /// ```
    /// use tabia_notation::pgn::{Game, PgnReader};
    ///
    /// let mut reader = PgnReader::new(&b"\n\n1. e4 *\n"[..]);
    /// let start = reader.next_game()?.expect("a game");
    /// assert_eq!((start.offset, start.line), (2, 3));
    /// let game: Game = reader.games().next().expect("a game")?;
    /// assert_eq!(game.start, start);
    /// # Ok::<(), tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn next_game(&mut self) -> Result<Option<Origin>, ReadError> {
        if self.failed {
            return Ok(None);
        }
        self.begin().map_err(|err| {
            self.failed = true;
            ReadError::Io(err)
        })
    }

    /// Skips the next game without parsing it; returns where it started, or `None` at the end
    /// of the input.
    pub fn skip_game(&mut self) -> Result<Option<Origin>, ReadError> {
        if self.failed {
            return Ok(None);
        }
        let skipped = (|| {
            let Some(start) = self.begin()? else {
                return Ok(None);
            };
            self.cut = None;
            self.skip_tags()?;
            if self.peek().is_none() {
                self.cut = Some(Cut::Tags);
            }
            self.skip_movetext(false)?;
            Ok(Some(start))
        })();
        skipped.map_err(|err| {
            self.failed = true;
            ReadError::Io(err)
        })
    }

    /// Whether the last game [`PgnReader::skip_game`] (or [`PgnReader::skip_rest`]) skipped was cut
    /// off by the end of the input in a place where more input starting with `[` at the start
    /// of a line would go on with the same game: in its tag section, or in a `{` comment.
    /// `None` when such input would start a new game, so that the game ends where it ended.
    ///
    /// This is what reading a large input in pieces on several threads needs: cut the input
    /// where a line starts with `[`, skip the games of each piece on its own, and the games
    /// are those of the whole input unless a piece's last game says it was cut; that game
    /// then goes on in the next piece ([`PgnReader::skip_rest`]).
    ///
    /// ```
    /// use tabia_notation::pgn::{Cut, PgnReader};
    ///
    /// let piece = b"[Event \"a\"]\n\n1. e4 {see\n";
    /// let mut reader = PgnReader::new(&piece[..]);
    /// reader.skip_game()?;
    /// assert_eq!(reader.cut(), Some(Cut::Comment));
    ///
    /// let mut reader = PgnReader::new(&b"1. e4 e5\n"[..]);
    /// reader.skip_game()?;
    /// assert_eq!(reader.cut(), None); // a `[` here starts the next game
    /// # Ok::<(), tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn cut(&self) -> Option<Cut> {
        self.cut
    }

    /// Skips the rest of a game that was cut off as `cut` at the end of the previous piece of
    /// the input (see [`PgnReader::cut`]) and goes on at the start of this one: the game now
    /// ends at [`PgnReader::offset`], unless [`PgnReader::cut`] says it was cut off again.
    ///
    /// ```
    /// use tabia_notation::pgn::{Cut, PgnReader};
    ///
    /// // The first piece ended inside `{see`: the comment ends here, and so does the game.
    /// let mut reader = PgnReader::new(&b"[Event \"x\"]} e5 1-0\n\n[Event \"b\"]\n*\n"[..]);
    /// reader.skip_rest(Cut::Comment)?;
    /// assert_eq!((reader.offset(), reader.cut()), (19, None));
    /// assert_eq!(reader.skip_game()?.map(|start| start.line), Some(3));
    /// # Ok::<(), tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn skip_rest(&mut self, cut: Cut) -> Result<(), ReadError> {
        if self.failed {
            return Ok(());
        }
        let skipped = (|| {
            self.fill()?;
            self.cut = None;
            match cut {
                Cut::Tags => {
                    self.skip_tags()?;
                    if self.peek().is_none() {
                        self.cut = Some(Cut::Tags);
                    }
                    self.skip_movetext(false)?;
                }
                Cut::Comment => {
                    self.skip_comment_body()?;
                    if self.cut.is_none() {
                        self.skip_movetext(false)?;
                    }
                }
                Cut::TrailingComment => {
                    self.skip_comment_body()?;
                    if self.cut.is_some() {
                        self.cut = Some(Cut::TrailingComment);
                    } else {
                        self.skip_trailing_comments()?;
                    }
                }
            }
            Ok(())
        })();
        skipped.map_err(|err| {
            self.failed = true;
            ReadError::Io(err)
        })
    }

    /// Where the cursor is: past the last game read or skipped (and the white space after
    /// it, once the next call found no more games).
    pub fn position(&self) -> Origin {
        self.origin()
    }

    /// Reads the raw bytes of the next game, or `None` at the end of the input. The game ends
    /// exactly where [`PgnReader::read_game`] ends it (a `[` inside `{...}` does not end a game; a
    /// bad game goes on to where the reader resynchronises), so parsing the raw games one by one
    /// gives what reading the input does. Syntax errors are left for [`RawGame::parse`]. Each
    /// [`RawGame`] can be parsed later, on any thread, with [`RawGame::parse`].
    pub fn read_raw_game(&mut self) -> Result<Option<RawGame>, ReadError> {
        if self.failed {
            return Ok(None);
        }
        let raw = (|| {
            let Some(start) = self.begin()? else {
                return Ok(None);
            };
            self.capture = Some(Vec::new());
            self.capture_from = self.pos;
            // The game ends where the reader's skip path ends it, which is where reading it
            // ends it (the reader's tests hold the two together on every fixture and on
            // hostile input); the skip looks at the movetext at `memchr` speed.
            self.skip_tags()?;
            self.skip_movetext(false)?;
            let mut bytes = self.capture.take().unwrap_or_default();
            bytes.extend_from_slice(&self.buf[self.capture_from..self.pos]);
            Ok(Some(RawGame { bytes, start }))
        })();
        raw.map_err(|err| {
            self.failed = true;
            self.capture = None;
            ReadError::Io(err)
        })
    }

    /// Reads the next game into `visitor` as [`PgnReader::read_game`] does, and also gives its
    /// raw bytes when `keep` says so of what `end_game` returned: one pass over the input for a
    /// caller that decides on each game as it is read and keeps some of them as they were
    /// (`None` at the end of the input). The bytes are those [`PgnReader::read_raw_game`] would
    /// give when the visitor reads the whole game, or skips what it skips the way the reader's
    /// skip path does.
    ///
    /// ```
    /// use tabia_notation::pgn::{PgnReader, RawTag, Skip, Visitor};
    ///
    /// /// Whether White is "B", from the tags alone.
    /// struct WhiteIsB(bool);
    /// impl Visitor for WhiteIsB {
    ///     type Output = bool;
    ///     fn begin_game(&mut self, _: tabia_notation::pgn::Origin) -> Skip {
    ///         self.0 = false;
    ///         Skip(false)
    ///     }
    ///     fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
    ///         self.0 |= name == b"White" && value.as_bytes() == b"B";
    ///     }
    ///     fn begin_movetext(&mut self) -> Skip {
    ///         Skip(true)
    ///     }
    ///     fn end_game(&mut self) -> bool {
    ///         self.0
    ///     }
    /// }
    ///
    /// let pgn = b"[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 {x} 1-0\n";
    /// let mut reader = PgnReader::new(&pgn[..]);
    /// let (first, raw) = reader.read_game_keeping(&mut WhiteIsB(false), |&b| b)?.expect("a game");
    /// assert!(!first && raw.is_none());
    /// let (second, raw) = reader.read_game_keeping(&mut WhiteIsB(false), |&b| b)?.expect("a game");
    /// assert!(second);
    /// assert_eq!(raw.expect("kept").bytes, b"[White \"B\"]\n\n1. d4 {x} 1-0");
    /// # Ok::<_, tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn read_game_keeping<V: Visitor>(
        &mut self,
        visitor: &mut V,
        keep: impl FnOnce(&V::Output) -> bool,
    ) -> Result<Option<Keeping<V::Output>>, ReadError> {
        if self.failed {
            return Ok(None);
        }
        let read = (|| {
            let Some(start) = self.begin()? else {
                return Ok(None);
            };
            // No allocation unless the game leaves the buffer before it ends.
            self.capture = Some(Vec::new());
            self.capture_from = self.pos;
            let out = self.game_at(start, visitor);
            let captured = self.capture.take();
            let out = out?;
            let raw = keep(&out).then(|| {
                let mut bytes = captured.unwrap_or_default();
                bytes.extend_from_slice(&self.buf[self.capture_from..self.pos]);
                RawGame { bytes, start }
            });
            Ok(Some((out, raw)))
        })();
        match read {
            Ok(read) => Ok(read),
            Err(Stop::Syntax(error, start)) => Err(ReadError::Syntax { error, start }),
            Err(Stop::Io(err)) => {
                self.failed = true;
                Err(ReadError::Io(err))
            }
        }
    }

    /// The games as owned [`Game`] trees.
    pub fn games(self) -> Games<R> {
        Games {
            reader: self,
            builder: GameBuilder::default(),
        }
    }

    /// The games as raw bytes (see [`PgnReader::read_raw_game`]).
    pub fn raw_games(self) -> RawGames<R> {
        RawGames { reader: self }
    }
}

/// The games of a [`PgnReader`] as owned [`Game`] trees; see [`PgnReader::games`].
pub struct Games<R> {
    reader: PgnReader<R>,
    builder: GameBuilder,
}

impl<R: Read> Iterator for Games<R> {
    type Item = Result<Game, ReadError>;

    fn next(&mut self) -> Option<Result<Game, ReadError>> {
        self.reader.read_game(&mut self.builder).transpose()
    }
}

/// The games of a [`PgnReader`] as raw bytes; see [`PgnReader::raw_games`].
pub struct RawGames<R> {
    reader: PgnReader<R>,
}

impl<R: Read> Iterator for RawGames<R> {
    type Item = Result<RawGame, ReadError>;

    fn next(&mut self) -> Option<Result<RawGame, ReadError>> {
        self.reader.read_raw_game().transpose()
    }
}

impl<R> fmt::Debug for PgnReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PgnReader")
            .field("offset", &(self.base + self.pos as u64))
            .field("line", &self.line)
            .field("capacity", &self.buf.len())
            .finish_non_exhaustive()
    }
}

/// Whether [`PgnReader::tags`] reads the common shape of tag pair without the rule: always, but
/// in the tests that compare the two.
#[cfg(not(test))]
#[inline(always)]
fn plain_tags_on() -> bool {
    true
}

#[cfg(test)]
fn plain_tags_on() -> bool {
    tests::PLAIN_TAGS.with(std::cell::Cell::get)
}

#[cfg(test)]
mod tests;

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

/// How a game was cut off by the end of an input that is a piece of a larger one (see
/// [`PgnReader::cut`]): what it was in the middle of, so that reading the next piece can go on
/// with it ([`PgnReader::skip_rest`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cut {
    /// The tag section: a next piece starting with `[` goes on with more tag pairs.
    Tags,
    /// A `{` comment in the movetext.
    Comment,
    /// A `{` comment after the result (the game ends with the comment).
    TrailingComment,
}

/// The raw bytes of one game, from its first byte to the end of its termination marker, as
/// the splitter [`PgnReader::read_raw_game`] finds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawGame {
    /// The bytes of the game.
    pub bytes: Vec<u8>,
    /// Where they start in the input.
    pub start: Origin,
}

impl RawGame {
    /// Parses the game, with errors located in the whole input it came from.
    pub fn parse(&self) -> Result<Game, ReadError> {
        self.visit(&mut GameBuilder::default())
    }

    /// [`RawGame::parse`], building the game out of the memory of `spare`, a game no longer
    /// needed (its strings, its tag and move lists): a loop that parses, uses and drops game
    /// after game gives each one back for the next and saves most of the allocations. The game
    /// is the one [`RawGame::parse`] gives.
    ///
    /// ```
    /// use tabia_notation::pgn::{Origin, RawGame};
    ///
    /// let raw = |text: &str| RawGame { bytes: text.as_bytes().to_vec(), start: Origin::default() };
    /// let games = [
    ///     raw("[White \"a\"]\n\n1. e4 {a comment} e5 2. Nf3 $1 *"),
    ///     raw("[Black \"b\"]\n\n1. d4 (1. c4) d5 1-0"),
    /// ];
    /// let mut spare = None;
    /// for game in &games {
    ///     let parsed = match spare.take() {
    ///         Some(spare) => game.parse_reusing(spare)?,
    ///         None => game.parse()?,
    ///     };
    ///     assert_eq!(parsed, game.parse()?);
    ///     spare = Some(parsed);
    /// }
    /// # Ok::<_, tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn parse_reusing(&self, spare: Game) -> Result<Game, ReadError> {
        self.visit(&mut GameBuilder::recycling(spare))
    }

    /// Reads the game into `visitor` (on any thread), with errors located in the whole input
    /// it came from; gives what the visitor's `end_game` returned.
    ///
    /// ```
    /// use tabia_notation::pgn::{Origin, PgnReader, SanPlus, Skip, Visitor};
    ///
    /// /// Counts the mainline moves.
    /// #[derive(Default)]
    /// struct Plies(usize);
    /// impl Visitor for Plies {
    ///     type Output = usize;
    ///     fn san(&mut self, _: SanPlus, _: Origin) {
    ///         self.0 += 1;
    ///     }
    ///     fn begin_variation(&mut self) -> Skip {
    ///         Skip(true)
    ///     }
    ///     fn end_game(&mut self) -> usize {
    ///         std::mem::take(&mut self.0)
    ///     }
    /// }
    ///
    /// let mut games = PgnReader::new(&b"1. e4 e5 2. Nf3 *\n\n1. d4 (1. c4) *\n"[..]).raw_games();
    /// let first = games.next().unwrap()?;
    /// let second = games.next().unwrap()?;
    /// assert_eq!(second.visit(&mut Plies::default())?, 1);
    /// assert_eq!(first.visit(&mut Plies::default())?, 3);
    /// # Ok::<(), tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn visit<V: Visitor>(&self, visitor: &mut V) -> Result<V::Output, ReadError> {
        self.visit_in(visitor, &mut Vec::new())
    }

    /// [`RawGame::visit`], reading the game in `buffer` (what it held is replaced): a loop
    /// that visits game after game with the same buffer allocates once, not once a game.
    ///
    /// ```
    /// use tabia_notation::pgn::{Origin, PgnReader, SanPlus, Visitor};
    ///
    /// /// Counts the moves, variations included.
    /// #[derive(Default)]
    /// struct Moves(usize);
    /// impl Visitor for Moves {
    ///     type Output = usize;
    ///     fn san(&mut self, _: SanPlus, _: Origin) {
    ///         self.0 += 1;
    ///     }
    ///     fn end_game(&mut self) -> usize {
    ///         std::mem::take(&mut self.0)
    ///     }
    /// }
    ///
    /// let pgn = b"1. e4 e5 2. Nf3 *\n\n1. d4 (1. c4) *\n";
    /// let mut buffer = Vec::new();
    /// let mut counts = Vec::new();
    /// for raw in PgnReader::new(&pgn[..]).raw_games() {
    ///     let raw = raw?;
    ///     let n = raw.visit_in(&mut Moves::default(), &mut buffer)?;
    ///     assert_eq!(n, raw.visit(&mut Moves::default())?);
    ///     counts.push(n);
    /// }
    /// assert_eq!(counts, [3, 2]);
    /// # Ok::<(), tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn visit_in<V: Visitor>(
        &self,
        visitor: &mut V,
        buffer: &mut Vec<u8>,
    ) -> Result<V::Output, ReadError> {
        // A copy of the game as the reader's whole buffer: the end of the input is known from
        // the start, so nothing is read or refilled (a reader over the bytes refilled near the
        // game's end, and looked back over its last line there), and nothing is cleared.
        buffer.clear();
        buffer.extend_from_slice(&self.bytes);
        let mut reader = PgnReader::from_bytes(std::mem::take(buffer)).with_origin(self.start);
        let read = reader.read_game(visitor);
        *buffer = reader.into_bytes();
        match read? {
            Some(out) => Ok(out),
            None => Err(ReadError::Syntax {
                error: Error::new(ErrorKind::UnexpectedEof, 0..0),
                start: self.start,
            }),
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

    // --- the buffer ---

    #[inline]
    fn abs(&self, rel: usize) -> u64 {
        self.base + rel as u64
    }

    /// Makes sure [`LOOKAHEAD`] bytes are buffered ahead of the cursor, unless the input ends.
    #[inline(always)]
    fn fill(&mut self) -> io::Result<()> {
        if self.pos >= self.refill_at {
            self.refill()?;
        }
        Ok(())
    }

    /// Moves what is still needed to the front of the buffer (the cursor's line, when it is
    /// short) and reads at least once more.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> io::Result<()> {
        let cap = self.buf.len();
        let mut keep = self.pos;
        if let Some(ls) = self.line_start.checked_sub(self.base) {
            let ls = usize::try_from(ls).unwrap_or(usize::MAX);
            if ls <= self.pos && self.pos - ls <= cap / 4 {
                keep = ls;
            }
        }
        if let Some(captured) = &mut self.capture {
            if self.capture_from < keep {
                captured.extend_from_slice(&self.buf[self.capture_from..keep]);
                self.capture_from = keep;
            }
            self.capture_from -= keep;
        }
        if keep > 0 {
            self.note_dropped(keep);
            if let Some(j) = self.buf[..keep]
                .iter()
                .rposition(|&b| b == b'\n' || b == b'\r')
            {
                self.base_line_start = self.abs(j + 1);
            }
        }
        self.buf.copy_within(keep..self.end, 0);
        self.base += keep as u64;
        self.pos -= keep;
        self.end -= keep;
        while self.end < cap && !self.eof {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.end += n;
                    if self.end - self.pos >= LOOKAHEAD {
                        break;
                    }
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    self.refill_at = self.end.saturating_sub(LOOKAHEAD - 1);
                    return Err(err);
                }
            }
        }
        self.refill_at = if self.eof {
            usize::MAX
        } else {
            self.end.saturating_sub(LOOKAHEAD - 1)
        };
        Ok(())
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.buf[self.pos..self.end].first().copied()
    }

    #[inline]
    fn at_line_start(&self) -> bool {
        self.abs(self.pos) == self.line_start
    }

    /// Where the cursor is.
    #[inline]
    fn origin(&self) -> Origin {
        let offset = self.abs(self.pos);
        Origin {
            offset,
            line: self.line,
            column: offset - self.line_start + 1,
        }
    }

    /// Consumes the line end at the cursor (`\r\n` as one).
    #[inline]
    fn eat_line_end(&mut self) {
        let b = self.buf[self.pos];
        self.pos += 1;
        if b == b'\r' && self.pos < self.end && self.buf[self.pos] == b'\n' {
            self.pos += 1;
        }
        self.line += 1;
        self.line_start = self.abs(self.pos);
    }

    /// Counts the line ends in `buf[from..to]`, which the cursor passes in one step.
    #[inline]
    fn count_lines(&mut self, from: usize, to: usize) {
        let span = &self.buf[from..to];
        // Most spans the skip passes in one step are short and end no line (a move between
        // two comments, a comment's body): a check without branches, which the compiler does
        // eight or more bytes at a time, is cheaper than setting up a search.
        if span.len() <= 64
            && !span
                .iter()
                .fold(false, |seen, &b| seen | (b'\n'..=b'\r').contains(&b))
        {
            return;
        }
        for i in memchr::memchr2_iter(b'\n', b'\r', span) {
            let at = from + i;
            if !(self.buf[at] == b'\n' && at > 0 && self.buf[at - 1] == b'\r') {
                self.line += 1;
            }
            self.line_start = self.abs(at + 1);
        }
    }

    /// How far the cursor may pass over buffered bytes in one step without splitting `\r\n`.
    fn chunk_end(&self) -> usize {
        if !self.eof && self.end > self.pos + 1 && self.buf[self.end - 1] == b'\r' {
            self.end - 1
        } else {
            self.end
        }
    }

    // --- errors ---

    /// An error at `buf[start..start + len]`, on the cursor's line.
    #[cold]
    fn error_here(&self, kind: ErrorKind, start: usize, len: usize) -> Error {
        let from = usize::try_from(self.abs(start)).unwrap_or(usize::MAX);
        self.locate(
            Error::new(kind, from..from.saturating_add(len.max(1))),
            self.line,
            self.line_start,
        )
    }

    /// An error of a grammar rule that was given `buf[at..]`.
    #[cold]
    fn rule_error(&self, err: RuleError, at: usize, input_len: usize) -> Error {
        let start = at + input_len.saturating_sub(err.rest);
        let error = self.error_here(err.kind, start, err.len.min(LOOKAHEAD));
        match err.expected {
            Some(expected) => error.with_expected(expected),
            None => error,
        }
    }

    /// Attaches line, column and snippet to `err`, which is on `line` starting at `line_start`.
    #[cold]
    fn locate(&self, err: Error, line: u64, line_start: u64) -> Error {
        match line_start.checked_sub(self.base) {
            Some(ls) if ls <= self.end as u64 => {
                let ls = ls as usize;
                let base = usize::try_from(line_start).unwrap_or(usize::MAX);
                err.with_source_at(&self.buf[ls..self.end], base, line)
            }
            _ => {
                let column = (err.span().start as u64).saturating_sub(line_start) + 1;
                err.with_location(Location {
                    line,
                    column,
                    text: String::new(),
                    width: 1,
                })
            }
        }
    }

    /// Remembers where the last non-blank byte of `buf[..keep]`, about to leave the buffer,
    /// ends (see `dropped_end`).
    #[cold]
    fn note_dropped(&mut self, keep: usize) {
        let Some(i) = self.buf[..keep]
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
        else {
            return;
        };
        let token_end = i + 1;
        let lines = count_line_ends(&self.buf[token_end..self.pos]);
        let line_start = match self.buf[..token_end]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
        {
            Some(j) => Some(self.abs(j + 1)),
            None if lines == 0 => Some(self.line_start),
            None => Some(self.base_line_start),
        };
        self.dropped_end = match line_start {
            Some(line_start) if lines < self.line => {
                Some((self.abs(token_end), self.line - lines, line_start))
            }
            _ => None,
        };
    }

    /// The movetext ends without a result: a warning, the game read as ending with `*`; an
    /// open variation is still an error.
    #[cold]
    fn no_result<V: Visitor>(&self, depth: u64, visitor: &mut V) -> Result<(), Error> {
        let err = self.missing_result(depth);
        if depth > 0 {
            return Err(err);
        }
        let at = Origin {
            offset: err.span().start as u64,
            line: err.line().unwrap_or(self.line),
            column: err.column().unwrap_or(1),
        };
        visitor.warning(Warning {
            kind: WarningKind::MissingResult,
            at,
        });
        visitor.outcome(Outcome::Unknown);
        Ok(())
    }

    /// "The game has no result" (or an open variation), shown just after its last token.
    #[cold]
    fn missing_result(&self, depth: u64) -> Error {
        let kind = if depth > 0 {
            ErrorKind::UnclosedVariation
        } else {
            ErrorKind::MissingResult
        };
        let data = &self.buf[..self.pos];
        let token_end = data
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map(|i| i + 1);
        if let Some(token_end) = token_end {
            let between = &data[token_end..];
            let lines = count_line_ends(between);
            let line_start = match data[..token_end]
                .iter()
                .rposition(|&b| b == b'\n' || b == b'\r')
            {
                Some(i) => Some(self.abs(i + 1)),
                None if lines == 0 => Some(self.line_start),
                None => Some(self.base_line_start),
            };
            if let Some(line_start) = line_start
                && lines < self.line
            {
                let at = usize::try_from(self.abs(token_end)).unwrap_or(usize::MAX);
                return self.locate(
                    Error::new(kind, at..at.saturating_add(1)),
                    self.line - lines,
                    line_start,
                );
            }
        } else if let Some((end, line, line_start)) = self.dropped_end {
            // Everything before the cursor that is still buffered is blank: the last token
            // left the buffer, so that the place does not depend on how the input arrived.
            let at = usize::try_from(end).unwrap_or(usize::MAX);
            return self.locate(Error::new(kind, at..at.saturating_add(1)), line, line_start);
        }
        self.error_here(kind, self.pos, 1)
    }

    // --- games ---

    /// Skips what lies between games; returns where the next game starts.
    fn begin(&mut self) -> io::Result<Option<Origin>> {
        self.fill()?;
        if !self.bom_checked {
            self.bom_checked = true;
            if self.base == 0 && self.pos == 0 && self.buf[..self.end].starts_with(BOM) {
                self.pos = BOM.len();
                self.line_start = BOM.len() as u64;
                self.base_line_start = self.line_start;
            }
        }
        self.skip_space()?;
        Ok(self.peek().map(|_| self.origin()))
    }

    fn game<V: Visitor>(&mut self, visitor: &mut V) -> Result<Option<V::Output>, Stop> {
        let Some(start) = self.begin()? else {
            return Ok(None);
        };
        self.game_at(start, visitor).map(Some)
    }

    /// Reads the game that starts at the cursor, `start`.
    #[inline(always)]
    fn game_at<V: Visitor>(&mut self, start: Origin, visitor: &mut V) -> Result<V::Output, Stop> {
        if visitor.begin_game(start).0 {
            self.skip_tags()?;
            self.skip_movetext(false)?;
            return Ok(visitor.end_game());
        }
        if let Err(err) = self.tags(visitor)? {
            self.skip_tags()?;
            self.skip_movetext(false)?;
            return Err(Stop::Syntax(err, start));
        }
        if visitor.begin_movetext().0 {
            if let Err(err) = self.skip_chosen_movetext()? {
                return Err(Stop::Syntax(err, start));
            }
            return Ok(visitor.end_game());
        }
        if let Err(err) = self.movetext(visitor)? {
            self.skip_movetext(false)?;
            return Err(Stop::Syntax(err, start));
        }
        Ok(visitor.end_game())
    }

    // white-space = *(SP / HTAB / line-end / escape-line)
    // escape-line = "%" rest-of-line     ("%" first on its line)
    fn skip_space(&mut self) -> io::Result<()> {
        loop {
            self.fill()?;
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'\n' | b'\r') => self.eat_line_end(),
                Some(b'%') if self.at_line_start() => self.skip_line()?,
                _ => return Ok(()),
            }
        }
    }

    /// Skips to the end of the line (leaving the line end).
    fn skip_line(&mut self) -> io::Result<()> {
        loop {
            if let Some(n) = rest_of_line(&self.buf[self.pos..self.end]) {
                self.pos += n;
                return Ok(());
            }
            self.pos = self.end;
            if self.eof {
                return Ok(());
            }
            self.refill()?;
        }
    }

    // tag-section = *(tag-pair white-space)
    fn tags<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Result<(), Error>> {
        // Whether the game was warned that its tags go on after a blank line.
        let mut warned = false;
        loop {
            self.fill()?;
            if self.peek() != Some(b'[') {
                return Ok(Ok(()));
            }
            // The common shape, `[Name "value"]`, at once; the rule takes the rest.
            if let Some((pair, n)) = plain_tag_pair(&self.buf[self.pos..self.end])
                .filter(|&(_, n)| n <= self.tag_line_limit && plain_tags_on())
            {
                visitor.tag(pair.name, RawTag(pair.value));
                self.pos += n;
            } else if let Err(err) = self.tag_pair_by_rule(visitor)? {
                return Ok(Err(err));
            }
            // The common case, `]\n[`, without the general white-space loop.
            if self.buf[self.pos..self.end].starts_with(b"\n[") {
                self.pos += 1;
                self.line += 1;
                self.line_start = self.abs(self.pos);
                continue;
            }
            let (line, from) = (self.line, self.abs(self.pos));
            self.skip_space()?;
            if self.line >= line + 2
                && self.peek() == Some(b'[')
                && !warned
                && self.blank_line_since(from)
            {
                warned = true;
                visitor.warning(Warning {
                    kind: WarningKind::TagsAfterBlankLine,
                    at: self.origin(),
                });
            }
        }
    }

    /// Whether the white space from offset `from` to the cursor ends with a blank line (see
    /// [`trailing_line_ends`]); when it is no longer buffered, whether it ended two lines.
    #[cold]
    fn blank_line_since(&self, from: u64) -> bool {
        match from.checked_sub(self.base) {
            Some(start) => {
                let start = usize::try_from(start).unwrap_or(usize::MAX).min(self.pos);
                trailing_line_ends(&self.buf[start..self.pos], 0) >= 2
            }
            None => true,
        }
    }

    /// Reads the tag pair at the cursor with the rule, out of line so that the common path
    /// through [`PgnReader::tags`] stays small.
    #[cold]
    #[inline(never)]
    fn tag_pair_by_rule<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Result<(), Error>> {
        // A tag pair never spans lines: the rule runs once the line end (or the end of the
        // input) is buffered, so that what it says does not depend on how the bytes arrive.
        // Until then the buffer grows as needed, up to a line of `TAG_LINE_LIMIT` bytes.
        let max = self.tag_line_limit;
        // A pair buffered whole is read at once (its line end need not be buffered yet).
        let data = &self.buf[self.pos..self.end];
        if let Ok((rest, pair)) = tag_pair(&data[..data.len().min(max)]) {
            self.warn_unescaped(&pair, visitor);
            visitor.tag(pair.name, RawTag(pair.value));
            self.pos += data.len().min(max) - rest.len();
            return Ok(Ok(()));
        }
        let mut scanned = 0;
        loop {
            let data = &self.buf[self.pos..self.end];
            let limit = data.len().min(max);
            let line_end = rest_of_line(&data[scanned.min(limit)..limit]).map(|n| scanned + n);
            scanned = limit;
            if line_end.is_none() && data.len() >= max {
                return Ok(self.long_tag_line(visitor, max));
            }
            if line_end.is_some() || self.eof {
                // The line and its line end, however much is buffered after it.
                let data = line_end.map_or(data, |n| &data[..=n]);
                return Ok(match tag_pair(data) {
                    Ok((rest, pair)) => {
                        self.warn_unescaped(&pair, visitor);
                        visitor.tag(pair.name, RawTag(pair.value));
                        self.pos += data.len() - rest.len();
                        Ok(())
                    }
                    Err(nom::Err::Error(err) | nom::Err::Failure(err)) => {
                        Err(self.rule_error(err, self.pos, data.len()))
                    }
                    Err(nom::Err::Incomplete(_)) => {
                        Err(self.error_here(ErrorKind::UnterminatedTag, self.pos, 1))
                    }
                });
            }
            if data.len() >= self.buf.len() / 2 {
                // Room for the rest of the line (the cursor's bytes are kept by a refill).
                let grown = (self.buf.len() * 2).min(2 * max + LOOKAHEAD);
                self.buf.resize(grown, 0);
            }
            self.refill()?;
        }
    }

    /// The warning of a tag value read with quotes inside it, at the cursor (its `[`).
    fn warn_unescaped<V: Visitor>(&self, pair: &super::tag::TagPair<'_>, visitor: &mut V) {
        if pair.unescaped_quotes {
            visitor.warning(Warning {
                kind: WarningKind::UnescapedQuote,
                at: self.origin(),
            });
        }
    }

    /// A tag pair at the cursor on a line with no line end in its first `max` bytes: the pair
    /// if it lies in them, else an error that it is too long (the rule's error on bytes cut
    /// short would blame the cut).
    #[cold]
    fn long_tag_line<V: Visitor>(&mut self, visitor: &mut V, max: usize) -> Result<(), Error> {
        let window = &self.buf[self.pos..self.pos + max];
        if let Ok((rest, pair)) = tag_pair(window) {
            self.warn_unescaped(&pair, visitor);
            visitor.tag(pair.name, RawTag(pair.value));
            self.pos += max - rest.len();
            return Ok(());
        }
        Err(self
            .error_here(ErrorKind::InvalidTag, self.pos, 1)
            .with_expected("a tag pair on a shorter line (1 MiB, or half the reader's buffer)"))
    }

    // movetext = *(white-space / move-number / "." / san / nag / suffix / comment / "(" / ")")
    //            result
    fn movetext<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Result<(), Error>> {
        let mut depth: u64 = 0;
        let mut has_move = false;
        loop {
            self.fill()?;
            let data = &self.buf[self.pos..self.end];
            let Some(&b) = data.first() else {
                return Ok(self.no_result(depth, visitor));
            };
            match b {
                // Dots standing alone belong to a move number (`3. ... a6`).
                b' ' | b'\t' | b'.' => self.pos += 1,
                b'\n' | b'\r' => self.eat_line_end(),
                // A move; `@` starts a pawn drop (Crazyhouse: `@e4`).
                b'a'..=b'z' | b'A'..=b'Z' | b'-' | b'@'
                    if b != b'@' || data.get(1).is_some_and(|b| matches!(b, b'a'..=b'h')) =>
                {
                    if let Err(err) = self.san(visitor) {
                        return Ok(Err(err));
                    }
                    has_move = true;
                    if depth == 0 && visitor.skip_rest().0 {
                        return self.skip_chosen_movetext();
                    }
                    // A comment after a move, as in `{ [%clk 0:03:00] }`, read at once.
                    self.one_line_comment(visitor);
                }
                b'0'..=b'9' | b'*' => {
                    // The common case first: a move number such as `12.` or `12...`.
                    let digits = data
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .unwrap_or(data.len());
                    if digits > 0 && data.get(digits) == Some(&b'.') {
                        let dots = data[digits..]
                            .iter()
                            .position(|&b| b != b'.')
                            .unwrap_or(data.len() - digits);
                        let n = digits + dots;
                        self.pos += n + usize::from(data.get(n) == Some(&b' '));
                        // A move nearly always follows its number: read it at once rather than
                        // through the dispatch above.
                        self.fill()?;
                        if self.peek().is_some_and(|b| {
                            matches!(b, b'a'..=b'h' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'O')
                        }) {
                            if let Err(err) = self.san(visitor) {
                                return Ok(Err(err));
                            }
                            has_move = true;
                            if depth == 0 && visitor.skip_rest().0 {
                                return self.skip_chosen_movetext();
                            }
                            self.one_line_comment(visitor);
                        }
                        continue;
                    }
                    if let Ok((rest, outcome)) = result(data) {
                        if depth > 0 {
                            let n = data.len() - rest.len();
                            let err = self.error_here(ErrorKind::UnclosedVariation, self.pos, n);
                            return Ok(Err(err.with_expected("`)` before the result")));
                        }
                        self.pos += data.len() - rest.len();
                        if let Err(err) = self.trailing_comments(visitor)? {
                            return Ok(Err(err));
                        }
                        visitor.outcome(outcome);
                        return Ok(Ok(()));
                    }
                    if b == b'*' {
                        let len = token_len(data).clamp(1, LOOKAHEAD);
                        let err = self.error_here(ErrorKind::UnexpectedToken, self.pos, len);
                        return Ok(Err(err));
                    }
                    if b == b'0' && data.get(1) == Some(&b'-') {
                        if let Err(err) = self.san(visitor) {
                            return Ok(Err(err));
                        }
                        has_move = true;
                        if depth == 0 && visitor.skip_rest().0 {
                            return self.skip_chosen_movetext();
                        }
                        continue;
                    }
                    if let Some(n) = typographic_result(data) {
                        self.typographic_result(visitor, n);
                        continue;
                    }
                    match move_number(data) {
                        Ok((rest, ())) => {
                            self.pos +=
                                data.len() - rest.len() + usize::from(rest.first() == Some(&b' '));
                        }
                        Err(nom::Err::Error(err) | nom::Err::Failure(err)) => {
                            return Ok(Err(self.rule_error(err, self.pos, data.len())));
                        }
                        Err(nom::Err::Incomplete(_)) => {
                            return Ok(Err(self.error_here(
                                ErrorKind::InvalidMoveNumber,
                                self.pos,
                                1,
                            )));
                        }
                    }
                }
                b'{' => {
                    if self.one_line_comment(visitor) {
                        continue;
                    }
                    // Over several lines, or longer than what is buffered.
                    match brace_body(&self.buf[self.pos + 1..self.end]) {
                        Some(n) => {
                            let (from, to) = (self.pos + 1, self.pos + 1 + n);
                            visitor.comment(RawComment(&self.buf[from..to]));
                            if let Some(k) = tag_pair_after_blank_line(&self.buf[from..to], 0) {
                                let opened = self.origin();
                                self.warn_tag_pair_in_comment(visitor, opened, from, from + k);
                            }
                            self.count_lines(from, to);
                            self.pos = to + 1;
                        }
                        None => {
                            if let Err(err) = self.long_comment(visitor, true)? {
                                return Ok(Err(err));
                            }
                        }
                    }
                }
                b';' => match rest_of_line(&data[1..]) {
                    Some(n) => {
                        visitor.comment(RawComment(&self.buf[self.pos + 1..self.pos + 1 + n]));
                        self.pos += 1 + n;
                    }
                    None => {
                        if let Err(err) = self.long_comment(visitor, false)? {
                            return Ok(Err(err));
                        }
                    }
                },
                b'(' => {
                    if !has_move {
                        return Ok(Err(self.error_here(
                            ErrorKind::VariationWithoutMove,
                            self.pos,
                            1,
                        )));
                    }
                    self.pos += 1;
                    depth += 1;
                    if visitor.begin_variation().0 {
                        if self.skip_movetext(true)? {
                            depth -= 1;
                        }
                    } else {
                        has_move = false;
                    }
                }
                b')' => {
                    if depth == 0 {
                        return Ok(Err(self.error_here(
                            ErrorKind::UnmatchedCloseParen,
                            self.pos,
                            1,
                        )));
                    }
                    depth -= 1;
                    has_move = true;
                    self.pos += 1;
                    visitor.end_variation();
                }
                b'$' | b'!' | b'?' => {
                    let parsed = if b == b'$' { nag(data) } else { suffix(data) };
                    match parsed {
                        Ok((rest, nag)) if !has_move => {
                            // A game's (or a variation's) annotation, as python-chess reads
                            // it: no move to hang it on, so it is dropped, and said.
                            visitor.warning(Warning {
                                kind: WarningKind::NagBeforeMove { nag },
                                at: self.origin(),
                            });
                            self.pos += data.len() - rest.len();
                        }
                        Ok((rest, nag)) => {
                            self.pos += data.len() - rest.len();
                            visitor.nag(nag);
                        }
                        Err(nom::Err::Error(err) | nom::Err::Failure(err)) => {
                            return Ok(Err(self.rule_error(err, self.pos, data.len())));
                        }
                        Err(nom::Err::Incomplete(_)) => {
                            return Ok(Err(self.error_here(ErrorKind::InvalidNag, self.pos, 1)));
                        }
                    }
                }
                b'%' if self.at_line_start() => self.skip_line()?,
                b'[' => return Ok(self.no_result(depth, visitor)),
                b'}' => {
                    return Ok(Err(self.error_here(
                        ErrorKind::UnexpectedCloseBrace,
                        self.pos,
                        1,
                    )));
                }
                // A move in figurine notation (`♘f3`), as web pages write them.
                0xE2 if data.starts_with(&[0xE2, 0x99]) => {
                    if let Err(err) = self.figurine_san(visitor) {
                        return Ok(Err(err));
                    }
                    has_move = true;
                    if depth == 0 && visitor.skip_rest().0 {
                        return self.skip_chosen_movetext();
                    }
                }
                _ => {
                    // `½-½`, a result PGN does not have.
                    if let Some(n) = typographic_result(data) {
                        self.typographic_result(visitor, n);
                        continue;
                    }
                    // `+/-`, `=`, `±`: an evaluation symbol written as text, after a move.
                    if has_move && let Some((nag, n)) = text_glyph(data) {
                        self.text_glyph(visitor, nag, n);
                        continue;
                    }
                    let len = token_len(data).clamp(1, LOOKAHEAD);
                    return Ok(Err(self.error_here(
                        ErrorKind::UnexpectedToken,
                        self.pos,
                        len,
                    )));
                }
            }
        }
    }

    /// Passes a result written with `½` or a typographic dash (`n` bytes), with a warning: it
    /// does not end the game (a reader that skips movetext could not tell it from text), whose
    /// result then comes from its `Result` tag.
    #[cold]
    #[inline(never)]
    fn typographic_result<V: Visitor>(&mut self, visitor: &mut V, n: usize) {
        visitor.warning(Warning {
            kind: WarningKind::TypographicResult,
            at: self.origin(),
        });
        self.pos += n;
    }

    /// An evaluation symbol written as text at the cursor, `n` bytes (see [`text_glyph`]):
    /// read as its NAG, with a warning.
    #[cold]
    #[inline(never)]
    fn text_glyph<V: Visitor>(&mut self, visitor: &mut V, nag: Nag, n: usize) {
        visitor.nag(nag);
        visitor.warning(Warning {
            kind: WarningKind::TextGlyph { nag },
            at: self.origin(),
        });
        self.pos += n;
    }

    /// A move whose pieces are figurines (`♘f3`, `e8=♕`, `♙e4`): read as the move in letters,
    /// with a warning; anything else there is an unexpected token.
    #[cold]
    #[inline(never)]
    fn figurine_san<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        let data = &self.buf[self.pos..self.end];
        // What is always buffered of it: a longer token is no move anyway.
        let token = &data[..token_len(data).min(LOOKAHEAD)];
        // The move in letters, and for each of its bytes where it ends in the text.
        let (mut letters, mut ends) = (Vec::with_capacity(token.len()), Vec::new());
        let mut i = 0;
        while i < token.len() {
            match figurine(&token[i..]) {
                Some(letter) => {
                    i += 3;
                    letters.extend(letter);
                    ends.extend(letter.map(|_| i));
                }
                None => {
                    i += 1;
                    letters.push(token[i - 1]);
                    ends.push(i);
                }
            }
        }
        let read = san_token(&letters).filter(|&(_, n)| move_ends(&letters, n));
        let Some((san, n)) = read.filter(|&(_, n)| n > 0) else {
            let len = token.len().clamp(1, LOOKAHEAD);
            return Err(self.error_here(ErrorKind::UnexpectedToken, self.pos, len));
        };
        let at = self.origin();
        visitor.san(san, at);
        visitor.warning(Warning {
            kind: WarningKind::FigurineMove,
            at,
        });
        self.pos += ends[n - 1];
        Ok(())
    }

    // san-token = san [suffix] token-end      (the suffix is read as its own token)
    #[inline(always)]
    fn san<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        let data = &self.buf[self.pos..self.end];
        if let Some((san, n)) = san_token(data)
            && move_ends(data, n)
        {
            let at = self.origin();
            // The space after the move, if any, saves a turn of the movetext loop.
            self.pos += n + usize::from(data.get(n) == Some(&b' '));
            visitor.san(san, at);
            return Ok(());
        }
        self.long_san(visitor)
    }

    /// A move that is not SAN: given by its squares (UCI `e2e4`, long algebraic `Ng1-f3`),
    /// read as [`San::Long`](crate::san::San::Long); anything else is an invalid SAN move.
    #[cold]
    #[inline(never)]
    fn long_san<V: Visitor>(&mut self, visitor: &mut V) -> Result<(), Error> {
        let data = &self.buf[self.pos..self.end];
        if let Ok((rest, san)) = crate::san::long_plus(data) {
            let n = data.len() - rest.len();
            if move_ends(data, n) {
                let at = self.origin();
                self.pos += n;
                visitor.san(san, at);
                return Ok(());
            }
        }
        // `-+`, `N`: an evaluation symbol (or a novelty) written as text.
        if let Some((nag, n)) = text_glyph(data) {
            self.text_glyph(visitor, nag, n);
            return Ok(());
        }
        // `O-O+/-`, `Nf3±`: an evaluation symbol glued to its move.
        if let Some((san, k, nag, n)) = glued_glyph(&data[..token_len(data).min(LOOKAHEAD)]) {
            let at = self.origin();
            self.pos += k;
            visitor.san(san, at);
            self.text_glyph(visitor, nag, n);
            return Ok(());
        }
        // `Pe4`: a pawn move with its letter.
        if let [b'P', rest @ ..] = data
            && let Some((san, n)) = san_token(rest)
            && matches!(
                san.san,
                crate::san::San::Normal {
                    role: crate::Role::Pawn,
                    ..
                }
            )
            && move_ends(rest, n)
        {
            let at = self.origin();
            self.pos += 1 + n;
            visitor.san(san, at);
            visitor.warning(Warning {
                kind: WarningKind::PawnLetter,
                at,
            });
            return Ok(());
        }
        // `nf3`, `bc4`, `o-o`: a piece letter in lowercase.
        if let Some((san, n)) = lowercase_san(data) {
            let at = self.origin();
            self.pos += n;
            visitor.san(san, at);
            visitor.warning(Warning {
                kind: WarningKind::LowercasePiece,
                at,
            });
            return Ok(());
        }
        // `bxa8=♕`: a figurine after the first byte (in the bytes that are always buffered).
        if data[..token_len(data).min(LOOKAHEAD)]
            .windows(2)
            .any(|w| w == [0xE2, 0x99])
        {
            return self.figurine_san(visitor);
        }
        // `exd6 e.p.` or `exd6e.p.`: an en-passant mark, which SAN does not have.
        let (san, n) = match san_token(data) {
            Some((san, n)) => (Some(san), n),
            None => (None, 0),
        };
        if let Some(mark) = en_passant_mark(&data[n..])
            && data.get(n + mark).is_none_or(|&b| is_token_end(b))
        {
            let at = self.origin();
            if let Some(san) = san {
                visitor.san(san, at);
            }
            let mark_at = Origin {
                offset: at.offset + n as u64,
                column: at.column + n as u64,
                ..at
            };
            visitor.warning(Warning {
                kind: WarningKind::EnPassantMark,
                at: mark_at,
            });
            self.pos += n + mark;
            return Ok(());
        }
        let len = token_len(data).clamp(1, LOOKAHEAD);
        Err(self.error_here(ErrorKind::InvalidSan, self.pos, len))
    }

    /// Comments that follow the result before a blank line (`0-1 ; {Game Nr. 1 …}`, as engine
    /// GUIs write them, on the result's line or the next ones) belong to the game, not to a
    /// next one: they go to the visitor before the outcome.
    fn trailing_comments<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Result<(), Error>> {
        while let Some(b) = self.next_trailing_comment()? {
            if let Err(err) = self.long_comment(visitor, b == b'{')? {
                return Ok(Err(err));
            }
        }
        Ok(Ok(()))
    }

    /// If a comment opener (`{` or `;`) follows after spaces and at most one line end, moves
    /// to it and gives it; otherwise moves nowhere. Looks no further than the lookahead, so
    /// that the answer does not depend on how the input arrives.
    fn next_trailing_comment(&mut self) -> io::Result<Option<u8>> {
        self.fill()?;
        let data = &self.buf[self.pos..self.end];
        let blanks = |from: usize| {
            from + data
                .get(from..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count()
        };
        let at_end = blanks(0);
        let line_end = match data.get(at_end..) {
            Some([b'\r', b'\n', ..]) => 2,
            Some([b'\n' | b'\r', ..]) => 1,
            _ => 0,
        };
        let next = if line_end > 0 {
            blanks(at_end + line_end)
        } else {
            at_end
        };
        let opener = match data.get(next) {
            Some(&b @ (b'{' | b';')) if next < LOOKAHEAD => b,
            _ => return Ok(None),
        };
        self.pos += at_end;
        if line_end > 0 {
            self.eat_line_end();
            self.pos += next - at_end - line_end;
        }
        Ok(Some(opener))
    }

    /// Skips the rest of a game's movetext that the visitor chose not to read, as
    /// [`PgnReader::skip_movetext`] does; but a `{` comment that the input ends in is the error
    /// reading it would have given (it took every game after it in), so that what a visitor
    /// skips never changes which games are in error.
    fn skip_chosen_movetext(&mut self) -> io::Result<Result<(), Error>> {
        self.unclosed = None;
        self.skip_movetext(false)?;
        match self.unclosed.take() {
            None => Ok(Ok(())),
            Some((at, line, line_start)) => {
                let at = usize::try_from(at).unwrap_or(usize::MAX);
                let err = Error::new(ErrorKind::UnterminatedComment, at..at.saturating_add(1));
                Ok(Err(self.locate(err, line, line_start)))
            }
        }
    }

    /// Skips the comments that follow a result, as [`PgnReader::trailing_comments`] reads them.
    fn skip_trailing_comments(&mut self) -> io::Result<()> {
        while let Some(b) = self.next_trailing_comment()? {
            if b == b';' {
                self.skip_line()?;
                continue;
            }
            self.skip_brace_comment()?;
            if self.cut == Some(Cut::Comment) {
                self.cut = Some(Cut::TrailingComment);
            }
        }
        Ok(())
    }

    /// Skips the `{` comment at the cursor, past its `}` (or to the end of the input, where the
    /// caller finds nothing more), refilling the buffer as needed.
    fn skip_brace_comment(&mut self) -> io::Result<()> {
        self.pos += 1;
        self.skip_comment_body()
    }

    /// Skips the inside of a `{` comment and its `}`; notes [`Cut::Comment`] when the input
    /// ends first.
    fn skip_comment_body(&mut self) -> io::Result<()> {
        // The common comment first: short, on one line, and buffered (`{ [%clk 0:03:00] }`),
        // found a word at a time without a search to set up, and no line to count.
        let to = self.chunk_end();
        if let Some(n) = find_brace_or_line_end(&self.buf[self.pos..to], &self.comment_end)
            && self.buf[self.pos + n] == b'}'
        {
            self.pos += n + 1;
            return Ok(());
        }
        // Where the comment's `{` is (the byte before the cursor), for `unclosed`.
        let opened = (
            self.abs(self.pos).saturating_sub(1),
            self.line,
            self.line_start,
        );
        loop {
            let to = self.chunk_end();
            if let Some(n) = brace_body(&self.buf[self.pos..to]) {
                self.count_lines(self.pos, self.pos + n);
                self.pos += n + 1;
                return Ok(());
            }
            self.count_lines(self.pos, to);
            self.pos = to;
            if self.eof {
                self.cut = Some(Cut::Comment);
                self.unclosed = Some(opened);
                return Ok(());
            }
            self.refill()?;
        }
    }

    /// Reads the common comment, `{...}` on one line and buffered, if the cursor is at one.
    #[inline(always)]
    fn one_line_comment<V: Visitor>(&mut self, visitor: &mut V) -> bool {
        let data = &self.buf[self.pos..self.end];
        if data.first() != Some(&b'{') {
            return false;
        }
        match find_brace_or_line_end(&data[1..], &self.comment_end) {
            Some(n) if data[1 + n] == b'}' => {
                visitor.comment(RawComment(&data[1..1 + n]));
                // What follows saves a turn of the movetext loop: a space, or the `\n` of an
                // engine comment that ends its line.
                let after = data.get(n + 2).copied();
                self.pos += n + 2;
                if after == Some(b' ') {
                    self.pos += 1;
                } else if after == Some(b'\n') {
                    self.pos += 1;
                    self.line += 1;
                    self.line_start = self.abs(self.pos);
                }
                true
            }
            _ => false,
        }
    }

    /// Warns that the comment opened at `opened` runs into a tag pair at `buf[at]`, whose line
    /// is that of `buf[from]` (the cursor's) plus the line ends in between.
    #[cold]
    fn warn_tag_pair_in_comment<V: Visitor>(
        &self,
        visitor: &mut V,
        opened: Origin,
        from: usize,
        at: usize,
    ) {
        let line = self.line + count_line_ends(&self.buf[from..at]);
        visitor.warning(Warning {
            kind: WarningKind::TagPairInComment { line },
            at: opened,
        });
    }

    /// A comment whose end is not buffered: hands it to the visitor in pieces.
    #[cold]
    fn long_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        braces: bool,
    ) -> io::Result<Result<(), Error>> {
        let (start, line, line_start) = (self.abs(self.pos), self.line, self.line_start);
        let opened = self.origin();
        // Line ends just before the piece at hand, and whether the comment was warned about.
        let (mut ended, mut warned) = (0, !braces);
        self.pos += 1;
        loop {
            let data = &self.buf[self.pos..self.end];
            let found = if braces {
                brace_body(data)
            } else {
                rest_of_line(data)
            };
            let piece = &data[..found.unwrap_or_else(|| split_point(data))];
            if !warned && let Some(k) = tag_pair_after_blank_line(piece, ended) {
                warned = true;
                self.warn_tag_pair_in_comment(visitor, opened, self.pos, self.pos + k);
            }
            ended = trailing_line_ends(&self.buf[self.pos..self.pos + piece.len()], ended);
            let data = &self.buf[self.pos..self.end];
            if let Some(n) = found {
                visitor.comment(RawComment(&data[..n]));
                self.count_lines(self.pos, self.pos + n);
                self.pos += n + usize::from(braces);
                return Ok(Ok(()));
            }
            if self.eof {
                if !braces {
                    visitor.comment(RawComment(data));
                    self.pos = self.end;
                    return Ok(Ok(()));
                }
                self.count_lines(self.pos, self.end);
                self.pos = self.end;
                let at = usize::try_from(start).unwrap_or(usize::MAX);
                let err = Error::new(ErrorKind::UnterminatedComment, at..at.saturating_add(1));
                return Ok(Err(self.locate(err, line, line_start)));
            }
            let n = split_point(data);
            visitor.partial_comment(RawComment(&data[..n]));
            self.count_lines(self.pos, self.pos + n);
            self.pos += n;
            self.refill()?;
        }
    }

    // --- skipping: finding the end of a game without parsing it ---

    /// Skips tag pairs: each to its `]` outside the quoted value, or to the end of its line.
    fn skip_tags(&mut self) -> io::Result<()> {
        loop {
            self.skip_space()?;
            if self.peek() != Some(b'[') {
                return Ok(());
            }
            self.pos += 1;
            let mut quoted = false;
            'pair: loop {
                let data = &self.buf[self.pos..self.end];
                let mut i = 0;
                while let Some(&b) = data.get(i) {
                    match b {
                        b'\n' | b'\r' => {
                            self.pos += i;
                            break 'pair;
                        }
                        b'"' => quoted = !quoted,
                        b'\\' if quoted => match data.get(i + 1) {
                            Some(b'"' | b'\\') => i += 1,
                            Some(_) => {}
                            None if self.eof => {}
                            None => break,
                        },
                        b']' if !quoted => {
                            self.pos += i + 1;
                            break 'pair;
                        }
                        _ => {}
                    }
                    i += 1;
                }
                self.pos += i;
                if self.eof {
                    break;
                }
                self.refill()?;
            }
        }
    }

    /// Skips movetext up to the end of the game (its result, consumed; the `[` of the next
    /// game; or the end of the input) and returns `false`; or, when `variation`, up to the `)`
    /// that closes the variation just opened (consumed; returns `true`), stopping without it
    /// at a result, a `[` or the end of the input.
    fn skip_movetext(&mut self, variation: bool) -> io::Result<bool> {
        if !variation {
            self.skip_to_game_end()?;
            return Ok(false);
        }
        self.skip_tokens(variation)
    }

    /// [`PgnReader::skip_movetext`] to the end of the game, at `memchr` speed: the movetext is not
    /// cut into tokens, only searched for the bytes that can change where the game ends (`{`,
    /// `;`, `%`, `[`, and the `-` or `*` that a result has). The cursor always rests on a token
    /// boundary, so that a result is recognised exactly as the token-by-token skip
    /// ([`PgnReader::skip_tokens`]) recognises it; parentheses do not matter here.
    fn skip_to_game_end(&mut self) -> io::Result<()> {
        loop {
            self.fill()?;
            let to = self.chunk_end();
            let data = &self.buf[self.pos..to];
            if data.is_empty() {
                // The input ended, or only the `\r` of a `\r\n` cut by the buffer is left.
                if self.eof && self.pos >= self.end {
                    return Ok(());
                }
                self.refill()?;
                continue;
            }
            // Comments and tokens that are no result, passed in one sweep with their lines
            // counted at once; what is left to decide (a result, a `[`, a `;` or `%`, something
            // cut by the end of the buffer) is decided below.
            let passed = pass_plain_movetext(data);
            if passed > 0 {
                self.count_lines(self.pos, self.pos + passed);
                self.pos += passed;
                continue;
            }
            let Some(i) = find_movetext_stop(data) else {
                // Nothing here: move on to the last token boundary, keeping a token cut by
                // the end of the buffer for after the refill.
                let keep = data
                    .iter()
                    .rposition(|&b| is_token_end(b))
                    .map_or(0, |k| k + 1);
                if keep == 0 && !self.eof {
                    // A token as long as everything buffered: no result (as in
                    // `skip_tokens`); skip all of it.
                    return self.skip_tokens(false).map(|_| ());
                }
                let at = if self.eof { to } else { self.pos + keep };
                self.count_lines(self.pos, at);
                self.pos = at;
                if self.eof && self.pos >= self.end {
                    return Ok(());
                }
                self.refill()?;
                continue;
            };
            let at = self.pos + i;
            match self.buf[at] {
                b'{' => {
                    self.count_lines(self.pos, at);
                    self.pos = at;
                    self.skip_brace_comment()?;
                }
                b';' => {
                    self.count_lines(self.pos, at);
                    self.pos = at;
                    self.skip_line()?;
                }
                b'%' => {
                    self.count_lines(self.pos, at);
                    self.pos = at;
                    if self.at_line_start() {
                        self.skip_line()?;
                    } else {
                        self.pos = at + 1;
                        self.pass_token()?;
                    }
                }
                b'[' => {
                    self.count_lines(self.pos, at);
                    self.pos = at;
                    return Ok(());
                }
                _ => {
                    // `-` or `*`: the token around it may be a result.
                    let start = self.buf[self.pos..at]
                        .iter()
                        .rposition(|&b| is_token_end(b))
                        .map_or(self.pos, |k| self.pos + k + 1);
                    self.count_lines(self.pos, start);
                    self.pos = start;
                    let data = &self.buf[start..self.end];
                    let n = token_len(data);
                    if n < data.len() || self.eof {
                        if is_result_token(&data[..n]) {
                            self.pos += n;
                            self.skip_trailing_comments()?;
                            return Ok(());
                        }
                        self.pos += n;
                    } else {
                        // Cut by the end of the buffer: read on and look at it again.
                        self.refill()?;
                        let data = &self.buf[self.pos..self.end];
                        let n = token_len(data);
                        if n >= data.len() && !self.eof {
                            // As long as what is buffered: not a result (`skip_tokens`).
                            return self.skip_tokens(false).map(|_| ());
                        }
                    }
                }
            }
        }
    }

    /// Moves the cursor past the rest of the token it is in (no line ends in a token).
    fn pass_token(&mut self) -> io::Result<()> {
        loop {
            let data = &self.buf[self.pos..self.end];
            let n = token_len(data);
            self.pos += n;
            if n < data.len() || self.eof {
                return Ok(());
            }
            self.refill()?;
        }
    }

    /// Skips movetext token by token (see [`PgnReader::skip_movetext`]); the general form, which
    /// also keeps count of parentheses, for skipping a variation.
    fn skip_tokens(&mut self, variation: bool) -> io::Result<bool> {
        let mut depth: u64 = 0;
        loop {
            self.fill()?;
            let data = &self.buf[self.pos..self.end];
            let Some(&b) = data.first() else {
                return Ok(false);
            };
            match b {
                b' ' | b'\t' => self.pos += 1,
                b'\n' | b'\r' => self.eat_line_end(),
                b'{' => self.skip_brace_comment()?,
                b';' => self.skip_line()?,
                b'%' if self.at_line_start() => self.skip_line()?,
                b'[' => return Ok(false),
                b'(' => {
                    depth += 1;
                    self.pos += 1;
                }
                b')' => {
                    self.pos += 1;
                    match depth.checked_sub(1) {
                        Some(d) => depth = d,
                        None if variation => return Ok(true),
                        None => {}
                    }
                }
                _ => {
                    // A `}` out of place is a token of its own.
                    let n = token_len(data).max(1);
                    if n < data.len() || self.eof {
                        if is_result_token(&data[..n]) {
                            if !variation {
                                self.pos += n;
                                self.skip_trailing_comments()?;
                            }
                            return Ok(false);
                        }
                        self.pos += n;
                    } else {
                        // A token longer than the lookahead: no result; skip all of it.
                        self.pos = self.end;
                        loop {
                            self.refill()?;
                            let data = &self.buf[self.pos..self.end];
                            let n = token_len(data);
                            self.pos += n;
                            if n < data.len() || self.eof {
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Where the first `}` or control byte below 14 (among them `\n` and `\r`) of `bytes` is, or
/// else the first `}`, `\n` or `\r`: eight bytes at a time for the first 32 (most comments,
/// such as lichess's `{ [%clk 0:03:00] }`, are shorter), then `memchr` (engine comments of a
/// few hundred bytes, where each word more costs more than it saves). The caller checks which
/// byte it found.
#[inline(always)]
fn find_brace_or_line_end(bytes: &[u8], rest: &BraceOrLineEnd) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while i + 8 <= bytes.len().min(32) {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[i..i + 8]);
        let x = u64::from_le_bytes(word);
        // Bytes below 14, and bytes equal to `}`: the lowest set bit is exact.
        let y = x ^ (LO * u64::from(b'}'));
        let hits = (x.wrapping_sub(LO * 14) & !x & HI) | (y.wrapping_sub(LO) & !y & HI);
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    rest.find(&bytes[i..]).map(|n| i + n)
}

/// The search for the first `}`, `\n` or `\r`, set up once per reader: an engine comment of a
/// few hundred bytes after every move (TCEC) then pays for the search alone, not for the
/// dispatch and set-up of [`memchr::memchr3`] each time.
#[derive(Clone, Copy, Debug)]
struct BraceOrLineEnd {
    /// The AVX2 searcher, when the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::Three>,
}

impl BraceOrLineEnd {
    /// The searcher for this CPU.
    fn new() -> BraceOrLineEnd {
        BraceOrLineEnd {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::Three::new(b'}', b'\n', b'\r'),
        }
    }

    /// Where the first `}`, `\n` or `\r` of `bytes` is.
    #[inline(always)]
    fn find(&self, bytes: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(three) = &self.avx2 {
            return three.find(bytes);
        }
        memchr::memchr3(b'}', b'\n', b'\r', bytes)
    }
}

/// Where the first byte that can change where a game ends is in `bytes`, movetext seen from a
/// token boundary: `{`, `;`, `%`, `[`, or a `-` or `*` (every result has one). Two `memchr3`
/// passes, the second only over what comes before the first's hit.
#[inline]
fn find_movetext_stop(bytes: &[u8]) -> Option<usize> {
    // Between the comments of comment-dense movetext (`2. Nf3 {`) the stop is a few bytes
    // away: a look at the first sixteen bytes at once costs less than setting up two searches.
    const NEAR: usize = 16;
    let Some(block) = bytes.first_chunk::<NEAR>() else {
        return bytes.iter().position(|b| MOVETEXT_STOPS.contains(b));
    };
    let hits = movetext_stops(block);
    if hits != 0 {
        return Some(hits.trailing_zeros() as usize);
    }
    let bytes = &bytes[NEAR..];
    let first = memchr::memchr3(b'{', b'[', b'-', bytes);
    let before = first.unwrap_or(bytes.len());
    memchr::memchr3(b';', b'%', b'*', &bytes[..before])
        .or(first)
        .map(|i| i + NEAR)
}

/// A bit for each byte of `block` that is a movetext stop (see [`find_movetext_stop`]), the
/// first byte's the lowest.
#[inline(always)]
fn movetext_stops(block: &[u8; 16]) -> u32 {
    block_hits(block, MOVETEXT_STOPS)
}

/// How far the fast skip may pass over `bytes` (movetext from a token boundary, the buffered
/// part) without looking closer: whole `{` comments and whole tokens that have a `-` or `*` but
/// are no result, up to the first stop that needs the reader (a result token, `[`, `;`, `%`, a
/// comment or token cut by the end of `bytes`). Gives a token boundary.
#[inline]
fn pass_plain_movetext(bytes: &[u8]) -> usize {
    let mut i = 0;
    while let Some(k) = find_movetext_stop(&bytes[i..]) {
        let at = i + k;
        match bytes[at] {
            b'{' => {
                let body = &bytes[at + 1..];
                // Most comments are short (`{ [%clk 0:03:00] }`): a word at a time first.
                let end = match swar_find(body, [b'}'], 32) {
                    Ok(n) => Some(n),
                    Err(scanned) => brace_body(&body[scanned..]).map(|n| scanned + n),
                };
                match end {
                    Some(n) => i = at + 1 + n + 1,
                    None => return i,
                }
            }
            b'-' | b'*' => {
                let start = bytes[i..at]
                    .iter()
                    .rposition(|&b| is_token_end(b))
                    .map_or(i, |k| i + k + 1);
                let n = token_len(&bytes[start..]);
                if start + n >= bytes.len() || is_result_token(&bytes[start..start + n]) {
                    return start;
                }
                i = start + n;
            }
            _ => return i,
        }
    }
    i
}

/// Where, in the body of a comment, a line that starts a tag pair (`[Name "`) follows a blank
/// line: the sign of a comment whose `}` is missing, running into the next game. `before` is
/// how many line ends came just before `body` (it is a piece of a long comment).
fn tag_pair_after_blank_line(body: &[u8], before: u8) -> Option<usize> {
    memchr::memchr_iter(b'[', body).find(|&i| {
        let after = &body[i + 1..];
        let name = after
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        after.first().is_some_and(u8::is_ascii_alphabetic)
            && after.get(name..name + 2) == Some(b" \"")
            && trailing_line_ends(&body[..i], before) >= 2
    })
}

/// How many line ends (`\r\n` as one) `bytes` ends with, spaces and tabs between them
/// aside, `before` more if that is all it holds (at most 2: enough to tell a blank line).
fn trailing_line_ends(bytes: &[u8], before: u8) -> u8 {
    let mut n = 0;
    let mut rest = bytes;
    while n < 2 {
        rest = match rest {
            [head @ .., b'\r', b'\n'] | [head @ .., b'\n' | b'\r'] => {
                n += 1;
                head
            }
            [head @ .., b' ' | b'\t'] => head,
            [] => return (n + before).min(2),
            _ => return n,
        };
    }
    n
}

/// The length of a result written with `½` or a typographic dash at the start of `bytes`
/// (`½-½`, `1–0`, `0—1`, …), followed by the end of the token.
fn typographic_result(bytes: &[u8]) -> Option<usize> {
    const HALF: &[u8] = "½".as_bytes();
    let side = |b: &[u8]| match b {
        [b'1' | b'0', ..] => Some(1),
        _ if b.starts_with(HALF) => Some(HALF.len()),
        _ => None,
    };
    let first = side(bytes)?;
    let dash = ["-", "–", "—"]
        .into_iter()
        .find(|d| bytes[first..].starts_with(d.as_bytes()))?
        .len();
    let second = side(&bytes[first + dash..])?;
    let n = first + dash + second;
    let (a, b) = (&bytes[..first], &bytes[first + dash..n]);
    let result = matches!((a, b), (b"1", b"0") | (b"0", b"1")) || (a == HALF && b == HALF);
    // `1-0` is PGN's own: only a `½` or a dash other than `-` makes it typographic.
    let typographic = a == HALF || dash > 1;
    (result && typographic && bytes.get(n).is_none_or(|&b| is_token_end(b))).then_some(n)
}

/// An evaluation symbol written as text, standing alone at the start of `bytes`, as books and
/// web pages write them: its NAG and length. `=` equal, `+=` `+/=` `⩲` slightly better for
/// white, `=+` `=/+` `⩱` for black, `+/-` `±` clearly better for white, `-/+` `∓` for black,
/// `+-` winning for white, `-+` for black, `∞` unclear, `=/∞` compensation, `N` a novelty.
fn text_glyph(bytes: &[u8]) -> Option<(Nag, usize)> {
    const GLYPHS: [(&str, u8); 16] = [
        ("+/-", 16),
        ("-/+", 17),
        ("+/=", 14),
        ("=/+", 15),
        ("=/∞", 44),
        ("+=", 14),
        ("=+", 15),
        ("+-", 18),
        ("-+", 19),
        ("±", 16),
        ("∓", 17),
        ("⩲", 14),
        ("⩱", 15),
        ("∞", 13),
        ("=", 10),
        ("N", 146),
    ];
    GLYPHS.iter().find_map(|&(text, nag)| {
        let n = text.len();
        (bytes.starts_with(text.as_bytes()) && bytes.get(n).is_none_or(|&b| is_token_end(b)))
            .then_some((Nag(nag), n))
    })
}

/// A move with an evaluation symbol glued to it, the whole of `token` (`O-O+/-`, `Nf3±`,
/// `e4=`): the move, its length, the symbol's NAG and length. The longest move that leaves a
/// symbol is taken (`O-O+/-` is `O-O` and `+/-`, not `O-O+` and `/-`).
fn glued_glyph(token: &[u8]) -> Option<(SanPlus, usize, Nag, usize)> {
    (1..token.len()).rev().find_map(|k| {
        let (nag, n) = text_glyph(&token[k..]).filter(|&(_, n)| k + n == token.len())?;
        let (san, used) = san_token(&token[..k]).filter(|&(_, used)| used == k)?;
        Some((san, used, nag, n))
    })
}

/// The letter of the chess figurine (`♔` to `♟`, U+2654 to U+265F) at the start of `bytes`:
/// `K`, `Q`, `R`, `B`, `N`, or none for a pawn.
fn figurine(bytes: &[u8]) -> Option<Option<u8>> {
    match bytes {
        [0xE2, 0x99, b @ 0x94..=0x9F, ..] => Some(match (b - 0x94) % 6 {
            0 => Some(b'K'),
            1 => Some(b'Q'),
            2 => Some(b'R'),
            3 => Some(b'B'),
            4 => Some(b'N'),
            _ => None,
        }),
        _ => None,
    }
}

/// The length of an en-passant mark at the start of `bytes` (`e.p.`, `e.p`, `ep`), which
/// some old files write after an en-passant capture.
fn en_passant_mark(bytes: &[u8]) -> Option<usize> {
    [&b"e.p."[..], b"e.p", b"ep"]
        .into_iter()
        .find(|mark| bytes.starts_with(mark))
        .map(<[u8]>::len)
}

/// The bytes [`find_movetext_stop`] stops at.
const MOVETEXT_STOPS: [u8; 6] = *b"{[-;%*";

/// Whether a whole movetext token is a result, maybe after move numbers and dots (`12.1-0`),
/// as the reader would see it.
fn is_result_token(mut token: &[u8]) -> bool {
    loop {
        let digits = token
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(token.len());
        let dots = token[digits..]
            .iter()
            .position(|&b| b != b'.')
            .unwrap_or(token.len() - digits);
        if dots == 0 {
            break;
        }
        token = &token[digits + dots..];
    }
    matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// The one place the reader parses a SAN token: the move and how many bytes it took. (The
/// grammar rule itself, inlined here, rather than `SanPlus::prefix`, which builds an `Error`.)
#[inline(always)]
/// A move whose piece letter is lowercase (`nf3`, `qxd8+`, `bc4`) or castling written with
/// `o` (`o-o`, `o-o-o`), read with capitals, and the length of the token; `None` for anything
/// else (a token that reads as written is never asked about: `b4` and `bxc3` are pawn moves).
fn lowercase_san(data: &[u8]) -> Option<(SanPlus, usize)> {
    let first = *data.first()?;
    if !matches!(first, b'n' | b'b' | b'r' | b'q' | b'k' | b'o') {
        return None;
    }
    // A move is a short token: `o-o-o+!` is the longest worth reading.
    let mut token = [0u8; 12];
    let len = token_len(&data[..data.len().min(token.len())]);
    token[..len].copy_from_slice(&data[..len]);
    if first == b'o' {
        for b in &mut token[..len] {
            if *b == b'o' {
                *b = b'O';
            }
        }
    } else {
        token[0] = first.to_ascii_uppercase();
    }
    let (san, n) = san_token(&token[..len])?;
    (n > 0 && move_ends(data, n)).then_some((san, n))
}

/// Whether a move read from `bytes[..n]` ends there: at a token end, or at an annotation
/// (`!`, `?`, `$`) glued to it.
#[inline(always)]
fn move_ends(bytes: &[u8], n: usize) -> bool {
    bytes
        .get(n)
        .is_none_or(|&b| is_token_end(b) || matches!(b, b'!' | b'?' | b'$'))
}

fn san_token(bytes: &[u8]) -> Option<(SanPlus, usize)> {
    match crate::san::san_plus(bytes) {
        Ok((rest, san)) => Some((san, bytes.len() - rest.len())),
        Err(_) => None,
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
mod tests {
    use std::cell::Cell;

    use proptest::prelude::*;

    use super::*;
    use crate::pgn::{Skip, tag::tests::tag_line};

    thread_local! {
        /// See [`plain_tags_on`].
        pub(super) static PLAIN_TAGS: Cell<bool> = const { Cell::new(true) };
    }

    /// Every event of every game of `input`, each game's error (its message and span) and
    /// where the reader stands after each game, read with or without the fast path for tags.
    fn events(input: &[u8], capacity: usize, plain_tags: bool) -> Vec<String> {
        #[derive(Default)]
        struct Record(Vec<String>);
        impl Visitor for Record {
            type Output = ();
            fn begin_game(&mut self, start: Origin) -> Skip {
                self.0.push(format!("game at {start:?}"));
                Skip(false)
            }
            fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
                let (name, value) = (name.escape_ascii(), value.as_bytes().escape_ascii());
                self.0.push(format!("tag {name} {value}"));
            }
            fn san(&mut self, san: SanPlus, at: Origin) {
                self.0.push(format!("san {san} at {at:?}"));
            }
            fn comment(&mut self, comment: RawComment<'_>) {
                self.0.push(format!("comment {comment:?}"));
            }
            fn outcome(&mut self, outcome: Outcome) {
                self.0.push(format!("outcome {outcome:?}"));
            }
            fn end_game(&mut self) {}
        }
        PLAIN_TAGS.with(|on| on.set(plain_tags));
        let mut reader = PgnReader::with_capacity(capacity, input);
        let mut record = Record::default();
        loop {
            let read = reader.read_game(&mut record);
            let at = reader.origin();
            match read {
                Ok(None) => break,
                Ok(Some(())) => record.0.push(format!("end at {at:?}")),
                Err(err) => record.0.push(format!("error {err}\n{err:?}\nat {at:?}")),
            }
        }
        PLAIN_TAGS.with(|on| on.set(true));
        record.0
    }

    /// Where each game of `input` starts and where the reader stands after it (offset, line,
    /// column), skipping movetext the fast way or token by token.
    fn skipped(input: &[u8], capacity: usize, fast: bool) -> Vec<(Origin, Origin)> {
        let mut reader = PgnReader::with_capacity(capacity, input);
        let mut out = Vec::new();
        while let Some(start) = reader.begin().unwrap() {
            reader.skip_tags().unwrap();
            if fast {
                reader.skip_to_game_end().unwrap();
            } else {
                reader.skip_tokens(false).unwrap();
            }
            out.push((start, reader.origin()));
        }
        out
    }

    /// Movetext-like pieces, among them every byte the fast skip looks for.
    const PIECES: &[&[u8]] = &[
        b"1-0",
        b"0-1",
        b"1/2-1/2",
        b"*",
        b"12.",
        b"3...",
        b"e4",
        b"O-O",
        b"O-O-O",
        b"0-0",
        b"{",
        b"}",
        b"[",
        b"]",
        b";",
        b"%",
        b"(",
        b")",
        b" ",
        b" ",
        b"\n",
        b"\r",
        b"\r\n",
        b"\n\n",
        b"-",
        b"x",
        b"Nf3",
        b"$1",
        b"!?",
        b"\"",
        b"[Event \"a\"]",
        b"12.1-0",
        b"1-0x",
        b"e4*",
        b"a-b",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The fast skip ends games exactly where the token-by-token skip does, with the same
        /// lines and columns, whatever the buffer size.
        #[test]
        fn fast_skip_agrees_with_the_token_skip(
            picks in proptest::collection::vec(0..PIECES.len(), 0..400),
            filler in 0usize..6000,
            at in 0usize..400,
        ) {
            let mut input = Vec::new();
            for (k, &i) in picks.iter().enumerate() {
                if k == at {
                    // A long stretch of plain moves, to make the buffer refill mid-game.
                    input.extend(b"e4 e5 Nf3 ".iter().cycle().take(filler));
                }
                input.extend_from_slice(PIECES[i]);
                if i % 3 == 0 {
                    input.push(b' ');
                }
            }
            for capacity in [MIN_CAPACITY, 5000, DEFAULT_CAPACITY] {
                prop_assert_eq!(
                    skipped(&input, capacity, true),
                    skipped(&input, capacity, false),
                    "capacity {}", capacity
                );
            }
        }
    }

    /// Where each game of `input` starts and where it ends (offset), skipped whole.
    fn games_whole(input: &[u8]) -> Vec<(Origin, u64)> {
        let mut reader = PgnReader::with_capacity(MIN_CAPACITY, input);
        let mut out = Vec::new();
        while let Some(start) = reader.skip_game().unwrap() {
            out.push((start, reader.offset()));
        }
        out
    }

    /// The same, reading `input` in pieces cut before the `[`s at `cuts` (each at the start of
    /// a line), one reader a piece, a game cut off by the end of its piece going on in the next.
    fn games_in_pieces(input: &[u8], cuts: &[usize]) -> Vec<(Origin, u64)> {
        let mut out = Vec::new();
        let mut open: Option<(Origin, Cut)> = None;
        let mut lines = 0;
        let mut from = 0;
        for (k, &to) in cuts.iter().chain([&input.len()]).enumerate() {
            let last = k == cuts.len();
            let piece = &input[from..to];
            let origin = Origin {
                offset: from as u64,
                line: lines + 1,
                column: 1,
            };
            let mut reader = PgnReader::with_capacity(MIN_CAPACITY, piece).with_origin(origin);
            if let Some((start, cut)) = open.take() {
                reader.skip_rest(cut).unwrap();
                match reader.cut() {
                    Some(cut) if !last => open = Some((start, cut)),
                    _ => out.push((start, reader.offset())),
                }
            }
            if open.is_none() {
                while let Some(start) = reader.skip_game().unwrap() {
                    out.push((start, reader.offset()));
                }
                if let (Some(cut), false) = (reader.cut(), last) {
                    let (start, _) = out.pop().unwrap();
                    open = Some((start, cut));
                }
            }
            lines = reader.position().line - 1;
            from = to;
        }
        out
    }

    /// Every byte at every place of a block: the stops the block search finds are the bytes
    /// of [`MOVETEXT_STOPS`], and [`find_movetext_stop`] finds the first of them, in a block
    /// or after it.
    #[test]
    fn the_block_search_finds_exactly_the_movetext_stops() {
        for at in 0..16 {
            for b in 0..=255u8 {
                let mut block = [b'a'; 16];
                block[at] = b;
                let want = MOVETEXT_STOPS.contains(&b);
                assert_eq!(
                    movetext_stops(&block),
                    u32::from(want) << at,
                    "{b:#04x} at {at}"
                );
                let mut bytes = vec![b'a'; 40];
                bytes[at] = b;
                bytes[at + 20] = b'*';
                let first = if want { at } else { at + 20 };
                assert_eq!(find_movetext_stop(&bytes), Some(first), "{b:#04x} at {at}");
                assert_eq!(find_movetext_stop(&bytes[..at + 1]), want.then_some(at));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Reading an input in pieces cut where a line starts with `[`, going on with a game
        /// that [`PgnReader::cut`] says was cut off, finds the games of the whole input: the same
        /// starts (offset, line, column) and the same ends.
        #[test]
        fn pieces_cut_at_a_line_starting_with_a_bracket_give_the_same_games(
            picks in proptest::collection::vec(0..PIECES.len(), 0..300),
            mask in proptest::collection::vec(any::<bool>(), 64),
            long in 0usize..300,
        ) {
            let mut input = Vec::new();
            for (k, &i) in picks.iter().enumerate() {
                if k == long {
                    // A comment longer than the buffer, with tag-like lines in it.
                    input.extend_from_slice(b"{ ");
                    for _ in 0..300 {
                        input.extend_from_slice(b"\n[Event \"c\"] a comment line\n\n");
                    }
                    input.extend_from_slice(b"}\n");
                }
                input.extend_from_slice(PIECES[i]);
                if i % 3 == 0 {
                    input.push(b' ');
                }
            }
            let candidates: Vec<usize> = (1..input.len())
                .filter(|&i| input[i] == b'[' && matches!(input[i - 1], b'\n' | b'\r'))
                .collect();
            let cuts: Vec<usize> = candidates
                .iter()
                .enumerate()
                .filter(|&(k, _)| mask[k % mask.len()] || k % 7 == 0)
                .map(|(_, &i)| i)
                .collect();
            prop_assert_eq!(games_in_pieces(&input, &cuts), games_whole(&input));
        }
    }

    #[test]
    fn pieces_go_on_with_tags_and_comments_they_cut() {
        let input = b"[Event \"a\"]\n[Site \"s\"]\n\n1. e4 {x\n[y]\n} 1-0 {z\n[w]\n}\n\n[Event \"b\"]\n\n*\n";
        let cuts: Vec<usize> = (1..input.len())
            .filter(|&i| input[i] == b'[' && input[i - 1] == b'\n')
            .collect();
        assert_eq!(cuts.len(), 4);
        let whole = games_whole(input);
        assert_eq!(whole.len(), 2);
        assert_eq!(whole[1].0.line, 10);
        assert_eq!(games_in_pieces(input, &cuts), whole);
        let mut reader = PgnReader::new(&input[..cuts[0]]);
        reader.skip_game().unwrap();
        assert_eq!(reader.cut(), Some(Cut::Tags));
        for (cut, want) in [Some(Cut::Comment), Some(Cut::TrailingComment), None]
            .into_iter()
            .enumerate()
        {
            let mut reader = PgnReader::new(&input[..cuts[cut + 1]]);
            reader.skip_game().unwrap();
            assert_eq!(reader.cut(), want, "cut {}", cut + 1);
        }
    }

    /// A [`tag_line`], now and then with a value longer than the reader's look-ahead, so that
    /// the buffer can end inside it.
    fn long_or_short_tag_line() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            6 => tag_line(),
            1 => (tag_line(), LOOKAHEAD..3000).prop_map(|(line, n)| {
                let at = line.iter().position(|&b| b == b'"').map_or(0, |i| i + 1);
                [&line[..at], &b"x ".repeat(n / 2), &line[at..]].concat()
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Reading tags with the fast path for the common shape gives the same tags, errors
        /// (messages and places) and positions as the rule alone, also where the buffer ends
        /// in the middle of a tag pair.
        #[test]
        fn plain_tags_read_as_the_rule_reads_them(
            games in proptest::collection::vec(
                (
                    proptest::collection::vec(long_or_short_tag_line(), 0..8),
                    proptest::sample::select(&["\n1. e4 e5 1-0\n\n", "\n*\n", "", "\n{ x } 0-1"][..]),
                ),
                1..6,
            ),
            filler in 0usize..9000,
        ) {
            // A first game with a long comment, so that the buffer ends anywhere in the next.
            let mut input = format!("[Event \"pad\"]\n\n{{{}}} *\n\n", "x".repeat(filler)).into_bytes();
            for (lines, movetext) in &games {
                input.extend(lines.concat());
                input.extend(movetext.as_bytes());
            }
            for capacity in [MIN_CAPACITY, 5000, DEFAULT_CAPACITY] {
                prop_assert_eq!(
                    events(&input, capacity, true),
                    events(&input, capacity, false),
                    "capacity {}", capacity
                );
            }
        }
    }

    /// A token longer than [`LOOKAHEAD`] is judged on its first `LOOKAHEAD` bytes: a figurine's
    /// bytes further on (the fuzzer's `K` and 255 bytes, then `E2 99`) made it an unexpected
    /// token where the whole input was buffered and an invalid move where the buffer ended
    /// before them.
    #[test]
    fn a_long_token_is_the_same_error_wherever_the_buffer_ends() {
        let mut token = b"K".to_vec();
        token.extend([0u8; 300]);
        token.extend("♕".as_bytes());
        for filler in (0..5000).step_by(97) {
            let mut input = format!("{{{}}} 1. e4 ", "x".repeat(filler)).into_bytes();
            input.extend(&token);
            input.extend(b" *\n");
            let errors = |capacity| -> Vec<_> {
                PgnReader::with_capacity(capacity, &input[..])
                    .games()
                    .filter_map(Result::err)
                    .map(|err| match err {
                        ReadError::Syntax { error, start } => (error.kind(), error.span(), start),
                        other => panic!("{other}"),
                    })
                    .collect()
            };
            let whole = errors(DEFAULT_CAPACITY);
            assert_eq!(errors(MIN_CAPACITY), whole, "filler {filler}");
            let start = filler + 9;
            assert_eq!(
                whole
                    .iter()
                    .map(|(kind, span, _)| (*kind, span.clone()))
                    .collect::<Vec<_>>(),
                [(ErrorKind::InvalidSan, start..start + LOOKAHEAD)]
            );
        }
    }

    #[test]
    fn fast_skip_finds_results_in_long_games() {
        let mut pgn = b"[Event \"a\"]\n\n".to_vec();
        for i in 1..2000 {
            pgn.extend(format!("{i}. e4 {{a - b * c [x] ; %}} e5 O-O ").as_bytes());
        }
        pgn.extend(b"1-0\n\n[Event \"b\"]\n\n1. d4 *\n");
        let fast = skipped(&pgn, MIN_CAPACITY, true);
        assert_eq!(fast, skipped(&pgn, MIN_CAPACITY, false));
        assert_eq!(fast.len(), 2);
        assert_eq!(fast[1].0.line, 5);
    }

    #[test]
    fn brace_or_line_end() {
        for (s, want) in [
            (&b"abc}"[..], Some(3)),
            (b" [%clk 0:03:00] } 2. e4", Some(16)),
            (b"0123456789abcdef\n}", Some(16)),
            (b"01234567\r", Some(8)),
            (b"0123\t567}", Some(4)),
            (b"no end", None),
            (&[b'x'; 100][..], None),
        ] {
            assert_eq!(
                find_brace_or_line_end(s, &BraceOrLineEnd::new()),
                want,
                "{s:?}"
            );
        }
        let mut long = vec![b'x'; 100];
        long.push(b'}');
        assert_eq!(
            find_brace_or_line_end(&long, &BraceOrLineEnd::new()),
            Some(100)
        );
        for at in [40, 70, 99] {
            let mut long = vec![b'x'; 100];
            long[at] = b'\r';
            assert_eq!(
                find_brace_or_line_end(&long, &BraceOrLineEnd::new()),
                Some(at)
            );
        }
        // A byte just above a match must not hide it (borrows run upwards only).
        assert_eq!(
            find_brace_or_line_end(b"\x7e}", &BraceOrLineEnd::new()),
            Some(1)
        );
        assert_eq!(
            find_brace_or_line_end(b"\x0b\x0a", &BraceOrLineEnd::new()),
            Some(1)
        );
    }

    #[test]
    fn moves_after_a_comment_that_ends_its_line_are_located() {
        /// Where each move of the first game is.
        #[derive(Default)]
        struct At(Vec<(u64, u64, u64)>);
        impl Visitor for At {
            type Output = Vec<(u64, u64, u64)>;
            fn san(&mut self, _: SanPlus, at: Origin) {
                self.0.push((at.offset, at.line, at.column));
            }
            fn end_game(&mut self) -> Self::Output {
                std::mem::take(&mut self.0)
            }
        }
        let pgn = b"1. e4 {a}\nc5 {b}\r\n2. Nf3 {c}\n\n{d}\nd6 {e}\n%x\n3. d4 *\n";
        let moves = PgnReader::new(&pgn[..])
            .read_game(&mut At::default())
            .expect("read")
            .expect("a game");
        assert_eq!(
            moves,
            [(3, 1, 4), (10, 2, 1), (21, 3, 4), (34, 6, 1), (47, 8, 4)]
        );
    }

    /// The reader's warnings of a game.
    #[derive(Default)]
    struct Warned(Vec<Warning>);

    impl Visitor for Warned {
        type Output = Vec<Warning>;
        fn warning(&mut self, warning: Warning) {
            self.0.push(warning);
        }
        fn end_game(&mut self) -> Vec<Warning> {
            std::mem::take(&mut self.0)
        }
    }

    /// The mainline of a game, in SAN.
    fn mainline_sans(game: &crate::pgn::Game) -> Vec<String> {
        game.mainline
            .moves
            .iter()
            .map(|m| m.san.to_string())
            .collect()
    }

    /// The NAG numbers of each mainline move.
    fn mainline_nags(game: &crate::pgn::Game) -> Vec<Vec<u8>> {
        game.mainline
            .moves
            .iter()
            .map(|m| m.nags.iter().map(|n| n.0).collect())
            .collect()
    }

    /// `pgn` read, every warning of it of the kind `is_kind` accepts: the game, and the
    /// columns of its warnings.
    fn read_warned(pgn: &str, is_kind: fn(&WarningKind) -> bool) -> (crate::pgn::Game, Vec<u64>) {
        let game: crate::pgn::Game = pgn.parse().expect("read");
        assert!(
            game.warnings.iter().all(|w| is_kind(&w.kind)),
            "{:?}",
            game.warnings
        );
        let columns = game.warnings.iter().map(|w| w.at.column).collect();
        (game, columns)
    }

    #[test]
    fn a_comment_the_input_ends_in_is_an_error_whether_read_or_skipped() {
        /// Reads every move, or skips the movetext at its start, or after the first move.
        struct Reading(u8);
        impl Visitor for Reading {
            type Output = ();
            fn begin_movetext(&mut self) -> Skip {
                Skip(self.0 == 1)
            }
            fn skip_rest(&mut self) -> Skip {
                Skip(self.0 == 2)
            }
            fn end_game(&mut self) {}
        }
        for pgn in [
            &b"[White \"a\"]\n\n1. e4 {c} e5 {never closed\n\n[White \"b\"]\n\n1. d4 *\n"[..],
            b"1. e4 e5 1-0 {after the result\n",
            b"1. e4 (1. d4 {in a variation\n",
        ] {
            let messages: Vec<String> = (0..3)
                .map(|how| {
                    let mut reader = PgnReader::new(pgn);
                    let err = reader
                        .read_game(&mut Reading(how))
                        .expect_err("the comment is not closed");
                    assert!(matches!(reader.read_game(&mut Reading(how)), Ok(None)));
                    err.to_string()
                })
                .collect();
            assert!(
                messages[0].starts_with("comment not closed by `}` at line "),
                "{messages:?}"
            );
            assert_eq!(messages[1], messages[0]);
            assert_eq!(messages[2], messages[0]);
        }
    }

    #[test]
    fn a_comment_that_runs_into_a_tag_pair_is_warned_about() {
        let warned = |pgn: &[u8], capacity: usize| {
            PgnReader::with_capacity(capacity, pgn)
                .read_game(&mut Warned::default())
                .expect("read")
                .expect("a game")
        };
        // Buffered, over lines; and in pieces, the blank line anywhere around a cut.
        for filler in [
            0, 3000, 4090, 4093, 4094, 4095, 4096, 4097, 4100, 8190, 8192,
        ] {
            for line_end in ["\n", "\r\n"] {
                let pgn = format!(
                    "[Event \"a\"]{e}{e}1. e4 {{never closed {}{e}{e}[Event \"b\"]{e}{e}1. d4 {{x}} 1-0{e}",
                    "y".repeat(filler),
                    e = line_end,
                );
                let warnings = warned(pgn.as_bytes(), 4096);
                let want = Warning {
                    kind: WarningKind::TagPairInComment { line: 5 },
                    at: Origin {
                        offset: (11 + 2 * line_end.len() + 6) as u64,
                        line: 3,
                        column: 7,
                    },
                };
                assert_eq!(warnings, [want], "filler {filler}, {line_end:?}");
            }
        }
        assert_eq!(
            warned(b"1. e4 {a\n\n[White \"x\"]} *", 4096)[0].to_string(),
            "comment runs past a blank line into a tag pair on line 3: a `}` is probably \
             missing (what comes up to the next `}` is read as the comment)"
        );
        // Commands on lines of their own, a bracket that starts no tag pair, a tag pair
        // without a blank line before it: no warning.
        for body in [
            "{\n\n[%evp 1,2]\n}",
            "{a\n\n[not a tag]}",
            "{a\n[White \"x\"]}",
            "{a\n\n[\"x\"]}",
        ] {
            let pgn = format!("1. e4 {body} *");
            assert_eq!(warned(pgn.as_bytes(), 4096), [], "{body:?}");
        }
    }

    #[test]
    fn tags_that_go_on_after_a_blank_line_are_warned_about() {
        let warned = |pgn: &str| {
            PgnReader::new(pgn.as_bytes())
                .read_game(&mut Warned::default())
                .expect("read")
                .expect("a game")
        };
        for (pgn, at) in [
            ("[Event \"a\"]\n\n[Event \"b\"]\n\n1. e4 *", (13, 3)),
            ("[Event \"a\"]\r\n\r\n[Event \"b\"]\r\n\r\n1. e4 *", (15, 3)),
            (
                "[Event \"a\"]\n \t\n[Event \"b\"]\n[White \"c\"]\n\n[Site \"d\"]\n\n*",
                (15, 3),
            ),
        ] {
            let warnings = warned(pgn);
            let want = Warning {
                kind: WarningKind::TagsAfterBlankLine,
                at: Origin {
                    offset: at.0,
                    line: at.1,
                    column: 1,
                },
            };
            assert_eq!(warnings, [want], "{pgn:?}");
        }
        assert_eq!(
            warned("[Event \"a\"]\n\n[Event \"b\"]\n\n*")[0].to_string(),
            "tag pairs go on after a blank line: the game before them may have no movetext \
             (read as one game with the tags of both)"
        );
        // Tag pairs on lines of their own, CRLF, an escape line between them: no warning.
        for pgn in [
            "[Event \"a\"]\n[White \"x\"]\n\n1. e4 *",
            "[Event \"a\"]\r\n[White \"x\"]\r\n\r\n1. e4 *",
            "[Event \"a\"]\n%escaped\n[White \"x\"]\n\n1. e4 *",
            "[Event \"a\"]\r\n%escaped\r\n[White \"x\"]\r\n\r\n1. e4 *",
            "[Event \"a\"] [White \"x\"]\n\n1. e4 *",
        ] {
            assert_eq!(warned(pgn), [], "{pgn:?}");
        }
    }

    #[test]
    fn a_nag_before_the_first_move_is_dropped_with_a_warning() {
        use crate::Nag;
        for (pgn, nag, column, sans) in [
            ("$10 1. e4 e5 *", 10, 1, &["e4", "e5"][..]),
            ("{a drawish line} $10 1. e4 *", 10, 18, &["e4"]),
            ("1. e4 ($14 1. d4) e5 *", 14, 8, &["e4", "e5"]),
            ("!? 1. e4 *", 5, 1, &["e4"]),
        ] {
            let game: crate::pgn::Game = pgn.parse().expect("read");
            assert_eq!(mainline_sans(&game), sans, "{pgn}");
            assert_eq!(game.warnings.len(), 1, "{pgn}");
            let warning = game.warnings[0];
            assert_eq!(warning.kind, WarningKind::NagBeforeMove { nag: Nag(nag) });
            assert_eq!(warning.at.column, column, "{pgn}");
            assert_eq!(
                warning.to_string(),
                format!("NAG ${nag} before the first move annotates no move, dropped")
            );
            assert_eq!(warning.kind.level(), crate::pgn::Level::Warning);
        }
    }

    #[test]
    fn en_passant_marks_are_dropped_with_a_warning() {
        for (pgn, column) in [
            ("1. e4 d5 2. e5 f5 3. exf6 e.p. Nxf6 *", 27),
            ("1. e4 d5 2. e5 f5 3. exf6e.p. Nxf6 *", 26),
            ("1. e4 d5 2. e5 f5 3. exf6 ep Nxf6 *", 27),
            ("1. e4 d5 2. e5 f5 3. exf6 e.p Nxf6 *", 27),
        ] {
            let game: crate::pgn::Game = pgn.parse().expect("read");
            assert_eq!(
                mainline_sans(&game),
                ["e4", "d5", "e5", "f5", "exf6", "Nxf6"],
                "{pgn}"
            );
            assert_eq!(game.warnings.len(), 1, "{pgn}");
            assert_eq!(game.warnings[0].kind, WarningKind::EnPassantMark);
            assert_eq!(game.warnings[0].at.column, column, "{pgn}");
            assert_eq!(
                game.warnings[0].to_string(),
                "`e.p.` after a move is not SAN, dropped"
            );
        }
        // Not a mark: `epx` and `e.q.` are still bad moves.
        for pgn in ["1. e4 epx *", "1. e4 e.q. *"] {
            assert!(pgn.parse::<crate::pgn::Game>().is_err(), "{pgn}");
        }
    }

    #[test]
    fn evaluation_symbols_as_text_are_read_as_nags_with_a_warning() {
        let glyph = |kind: &WarningKind| matches!(kind, WarningKind::TextGlyph { .. });
        let pgn = "1. e4 = e5 += 2. Nf3 +/- Nc6 -+ 3. Bb5 N a6 ± 4. Ba4 ∞ Nf6 =/∞ *";
        let (game, columns) = read_warned(pgn, glyph);
        assert_eq!(
            mainline_nags(&game),
            [
                vec![10],
                vec![14],
                vec![16],
                vec![19],
                vec![146],
                vec![16],
                vec![13],
                vec![44]
            ]
        );
        assert_eq!(columns, [7, 12, 22, 30, 40, 45, 55, 63]);
        assert_eq!(
            game.warnings[2].to_string(),
            "evaluation symbol written as text, read as the NAG $16"
        );
        // Glued to its move: the longest move that leaves a symbol.
        let (game, columns) = read_warned("1. e4± e5 2. O-O+/- Nf3+- *", glyph);
        assert_eq!(mainline_sans(&game), ["e4", "e5", "O-O", "Nf3"]);
        assert_eq!(mainline_nags(&game), [vec![16], vec![], vec![16], vec![18]]);
        // (Columns count bytes: `±` takes two.)
        assert_eq!(columns, [6, 18, 25]);
        // Not after a move, or not standing alone: still errors.
        for pgn in ["+- 1. e4 *", "1. e4 +/-x *", "1. e4 =Q *", "1. e4 e4+/-x *"] {
            assert!(pgn.parse::<crate::pgn::Game>().is_err(), "{pgn}");
        }
    }

    #[test]
    fn a_pawn_letter_is_dropped_with_a_warning() {
        let (game, columns) = read_warned("1. Pe4 d5 2. Pexd5 *", |kind| {
            *kind == WarningKind::PawnLetter
        });
        assert_eq!(mainline_sans(&game), ["e4", "d5", "exd5"]);
        assert_eq!(columns, [4, 14]);
        assert_eq!(
            game.warnings[0].to_string(),
            "pawn move written with `P`, read without it"
        );
        // `P` before anything but a pawn move is no move.
        assert!("1. PNf3 *".parse::<crate::pgn::Game>().is_err());
    }

    #[test]
    fn lowercase_piece_letters_are_read_in_capitals_with_a_warning() {
        let pgn = "1. e4 e5 2. nf3 nc6 3. bc4 bc5 4. o-o qe7+! 5. re1 b5 6. bxc5 o-o-o *";
        let (game, columns) = read_warned(pgn, |kind| *kind == WarningKind::LowercasePiece);
        assert_eq!(
            mainline_sans(&game),
            [
                "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Qe7+", "Re1", "b5", "bxc5", "O-O-O"
            ]
        );
        // One warning a lowercase move, at its first byte; `b5` and `bxc5` are pawn moves.
        assert_eq!(columns, [13, 17, 24, 28, 35, 39, 48, 63]);
        assert_eq!(
            game.warnings[0].to_string(),
            "piece letter or castling written in lowercase, read in capitals"
        );
        // Words are no moves: the error names the whole token, as before.
        for (pgn, token) in [
            ("1. e4 resign *", "resign"),
            ("1. e4 nf3nf3 *", "nf3nf3"),
            ("1. e4 ob *", "ob"),
            ("1. e4 kx *", "kx"),
        ] {
            let err = pgn.parse::<crate::pgn::Game>().expect_err(pgn);
            assert_eq!(err.kind(), ErrorKind::InvalidSan, "{pgn}");
            assert_eq!(err.span(), 6..6 + token.len(), "{pgn}");
        }
    }

    #[test]
    fn moves_in_figurines_are_read_in_letters_with_a_warning() {
        let (game, columns) = read_warned(
            "1. e4 e5 2. ♘f3 ♞c6 3. ♗b5 a6 4. ♗xc6 dxc6 5. O-O ♕f6! 6. ♙d4 ♔e7 *",
            |kind| *kind == WarningKind::FigurineMove,
        );
        assert_eq!(
            mainline_sans(&game),
            [
                "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "Qf6", "d4", "Ke7"
            ]
        );
        assert_eq!(
            game.mainline.moves[9].nags.len(),
            1,
            "the `!` after a figurine move"
        );
        assert_eq!(columns, [13, 19, 28, 40, 59, 69, 75]);
        assert_eq!(
            game.warnings[0].to_string(),
            "move written with figurines, read with letters"
        );
        let promoted: crate::pgn::Game = "1. e4 d5 2. exd5 c6 3. dxc6 e5 4. cxb7 e4 5. bxa8=♕ *"
            .parse()
            .expect("read");
        assert_eq!(promoted.mainline.moves[8].san.to_string(), "bxa8=Q");
        // A figurine that makes no move is still an error.
        for pgn in ["1. e4 ♘ *", "1. e4 ♘x *", "1. e4 ♘f *"] {
            assert!(pgn.parse::<crate::pgn::Game>().is_err(), "{pgn}");
        }
    }

    #[test]
    fn typographic_results_are_passed_with_a_warning() {
        for (text, n) in [
            ("½-½ ", Some(5)),
            ("½–½\n", Some(7)),
            ("1–0", Some(5)),
            ("0—1)", Some(5)),
            ("1-0", None),
            ("½-0", None),
            ("1–1", None),
            ("½–½x", None),
            ("½", None),
        ] {
            assert_eq!(typographic_result(text.as_bytes()), n, "{text:?}");
        }
        let game: crate::pgn::Game = "[Result \"1/2-1/2\"]\n\n1. e4 e5 ½-½\n"
            .parse()
            .expect("read");
        assert_eq!(game.mainline.moves.len(), 2);
        let kinds: Vec<WarningKind> = game.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            [WarningKind::TypographicResult, WarningKind::MissingResult]
        );
        assert_eq!(
            (game.warnings[0].at.line, game.warnings[0].at.column),
            (3, 10)
        );
        // A skipping reader ends the game where the reading one does.
        let pgn = "1. e4 e5 1–0 2. Nf3 *\n1. d4 ½-½ 1... d5 *\n\n1. c4 *\n".as_bytes();
        let mut skipping = PgnReader::new(pgn);
        let mut skipped = Vec::new();
        while let Some(start) = skipping.skip_game().expect("skip") {
            skipped.push(start.offset);
        }
        let read: Vec<u64> = PgnReader::new(pgn)
            .games()
            .map(|game| game.expect("read").start.offset)
            .collect();
        assert_eq!(read, [0, 24, 47]);
        assert_eq!(skipped, read);
    }

    #[test]
    fn result_tokens() {
        assert!(is_result_token(b"1-0"));
        assert!(is_result_token(b"12.1/2-1/2"));
        assert!(is_result_token(b"3...*"));
        assert!(is_result_token(b".*"));
        assert!(is_result_token(b"1.2.0-1"));
        assert!(!is_result_token(b"1-0x"));
        assert!(!is_result_token(b"121-0"));
    }
}

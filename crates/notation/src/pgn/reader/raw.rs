//! [`RawGame`]: a game's bytes, kept to be parsed or visited later, and [`Cut`]: where a piece of an input cut a game.

use super::*;

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

//! Adding PGN games to a [`Tree`]: a visitor that replays each mainline as the reader reads it,
//! up to the indexed depth, and takes the result, ratings and year from the tags.

use std::{fmt, io::Read};

use tabia_notation::pgn::{Origin, PgnReader, RawTag, ReadError, SanPlus, Skip, Visitor};
use tabia_position::{
    MainlineReplayer, Position, PositionKey, ReplayError, Replayed, shakmaty::Move,
};

use crate::{encode::encode_move, stats::GameInfo, tree::Tree};

/// Why a game could not be added to a tree.
#[derive(Debug)]
#[non_exhaustive]
pub enum AddGameError {
    /// The game is not valid PGN (or the input could not be read).
    Syntax(ReadError),
    /// A move is illegal, or the `FEN` tag is bad.
    Replay(ReplayError),
}

impl tabia_notation::Located for AddGameError {
    fn message(&self) -> String {
        match self {
            AddGameError::Syntax(err) => err.message(),
            AddGameError::Replay(err) => err.message(),
        }
    }

    fn origin(&self) -> Option<tabia_notation::pgn::Origin> {
        match self {
            AddGameError::Syntax(err) => err.origin(),
            AddGameError::Replay(err) => tabia_notation::Located::origin(err),
        }
    }
}

impl fmt::Display for AddGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddGameError::Syntax(err) => err.fmt(f),
            AddGameError::Replay(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for AddGameError {}

/// The PGN visitor: the replayer of `tabia-position`, stopped after `max_ply` plies, and the
/// tags a tree needs.
struct TreeVisitor<F> {
    replayer: MainlineReplayer<F>,
    info: GameInfo,
    plies: u32,
    max_ply: u32,
}

impl<F: FnMut(&Position, Option<Move>, u32)> Visitor for TreeVisitor<F> {
    type Output = Result<Replayed, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.info = GameInfo::default();
        self.plies = 0;
        self.replayer.begin_game(start)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        self.info.tag(name, value.as_bytes());
        self.replayer.tag(name, value);
    }

    fn begin_movetext(&mut self) -> Skip {
        self.replayer.begin_movetext()
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        self.plies += 1;
        self.replayer.san(san, at);
    }

    fn skip_rest(&mut self) -> Skip {
        Skip(self.plies >= self.max_ply)
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) -> Self::Output {
        self.replayer.end_game()
    }
}

/// What a tree takes of one game: its start position's key, whether it ended within the
/// plies read, and its tags' figures; the plies themselves are pushed onto a list of the
/// caller's.
pub(crate) struct Line {
    pub(crate) start: PositionKey,
    pub(crate) ended: bool,
    pub(crate) info: GameInfo,
}

/// Reads the one game in `pgn` for a tree of `max_ply` plies: its plies (move code, key of
/// the position after it) are pushed onto `plies`, the rest is returned; `None` when `pgn`
/// holds no game. On an error `plies` may hold the game's first plies: the caller drops them.
pub(crate) fn read_line(
    pgn: &[u8],
    origin: Origin,
    max_ply: u32,
    plies: &mut Vec<(u16, PositionKey)>,
) -> Result<Option<Line>, AddGameError> {
    let mut null = false;
    let mut visitor = TreeVisitor {
        replayer: MainlineReplayer::new(|pos: &Position, m: Option<Move>, _| match m {
            Some(m) if !null => plies.push((encode_move(m), pos.key())),
            _ => null = true,
        }),
        info: GameInfo::default(),
        plies: 0,
        max_ply,
    };
    let capacity = pgn.len().saturating_add(4096);
    let mut reader = PgnReader::with_capacity(capacity, pgn).with_origin(origin);
    let read = reader.read_game(&mut visitor);
    let (info, seen) = (visitor.info, visitor.plies);
    drop(visitor);
    let replayed = match read {
        Ok(Some(Ok(replayed))) => replayed,
        Ok(Some(Err(err))) => return Err(AddGameError::Replay(err)),
        Ok(None) => return Ok(None),
        Err(err) => return Err(AddGameError::Syntax(err)),
    };
    Ok(Some(Line {
        start: replayed.start.key(),
        ended: !null && seen < max_ply,
        info,
    }))
}

impl Tree {
    /// Adds the one game in `pgn` (the bytes of a game, as split by the reader; `origin`
    /// locates them in their input, for errors). Only the first `max_ply` plies are read:
    /// the rest of the movetext is skipped unchecked, so an error past them is not seen.
    /// A null move (`--`) ends what is indexed of the game. Gives `false` when `pgn` holds no
    /// game.
    ///
    /// # Errors
    ///
    /// A syntax error, an illegal move or a bad `FEN` tag; nothing is added then.
    pub fn add_pgn_game(&mut self, pgn: &[u8], origin: Origin) -> Result<bool, AddGameError> {
        let mut plies: Vec<(u16, PositionKey)> =
            Vec::with_capacity(self.options().max_ply as usize);
        match read_line(pgn, origin, self.options().max_ply, &mut plies)? {
            Some(line) => {
                self.add_line(line.start, &plies, line.ended, &line.info);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Adds every game of a PGN input; gives the errors of the games that could not be added
    /// (the others are added).
    ///
    /// ```
    /// use tabia_book::{Tree, TreeOptions};
    /// use tabia_position::Position;
    ///
    /// let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n1. e4 c5 *\n\n1. e4 Ke7?? *\n";
    /// let mut tree = Tree::new(TreeOptions::default());
    /// let errors = tree.add_pgn(&pgn[..])?;
    /// assert_eq!(errors.len(), 1);
    /// assert_eq!(errors[0].to_string(), "illegal move 1... Ke7 (ply 2): no black king can go to e7");
    /// let root = tree.node(&Position::new());
    /// assert_eq!((root.games(), root.moves[0].stats.white), (2, 1));
    /// # Ok::<_, std::io::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An error reading the input; the games before it are added.
    pub fn add_pgn<R: Read>(&mut self, input: R) -> std::io::Result<Vec<AddGameError>> {
        let mut errors = Vec::new();
        for raw in PgnReader::new(input).raw_games() {
            match raw {
                Ok(raw) => {
                    if let Err(err) = self.add_pgn_game(&raw.bytes, raw.start) {
                        errors.push(err);
                    }
                }
                Err(ReadError::Io(err)) => return Err(err),
                Err(err) => errors.push(AddGameError::Syntax(err)),
            }
        }
        Ok(errors)
    }
}

//! Classifying PGN games: [`GameVisitor`] for the streaming reader, [`Table::classify_game`] for
//! a parsed [`Game`].

use std::fmt;

use tabia_notation::pgn::{Game, Origin, RawTag, SanPlus, Skip, Visitor};
use tabia_position::{MoveError, Position, StartTags, shakmaty::CastlingMode, variant_mode};

use crate::{Classification, Classifier, Table, TagChanges};

/// Why a game could not be classified.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassifyError {
    /// A mainline move before the classifier stopped is not legal.
    IllegalMove {
        /// 1-based ply of the move.
        ply: usize,
        /// Where the move is in the input.
        at: Origin,
        /// Why it is not legal.
        error: MoveError,
    },
}

impl ClassifyError {
    /// Where the problem is in the input, when known.
    pub fn origin(&self) -> Option<Origin> {
        match self {
            ClassifyError::IllegalMove { at, .. } if at.line > 0 => Some(*at),
            _ => None,
        }
    }
}

impl tabia_notation::Located for ClassifyError {
    fn message(&self) -> String {
        self.to_string()
    }

    fn origin(&self) -> Option<Origin> {
        ClassifyError::origin(self)
    }
}

impl fmt::Display for ClassifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassifyError::IllegalMove { ply, error, .. } => write!(f, "ply {ply}: {error}"),
        }
    }
}

impl std::error::Error for ClassifyError {}

/// How a game starts, from its tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    Standard,
    NonStandard,
    Chess960,
}

/// Decides from the `Variant` and `FEN` tags whether a game can be classified: Chess960 is
/// not; a game whose `FEN` is anything but the standard starting position is not (an illegal
/// `FEN`, like an odds game that keeps a castling right without its rook, included: other
/// commands report it, classification has no use for it).
fn start(variant: Option<&str>, fen: Option<&str>) -> Start {
    match variant.map(variant_mode) {
        Some(Some(CastlingMode::Chess960)) => return Start::Chess960,
        // A variant we do not know (Crazyhouse, Atomic, …) has other rules: its openings are
        // not the table's.
        Some(None) => return Start::NonStandard,
        Some(Some(CastlingMode::Standard)) | None => {}
    }
    match fen.map(Position::from_arg) {
        None => Start::Standard,
        Some(Ok(pos)) if pos.key() == Position::new().key() => Start::Standard,
        Some(_) => Start::NonStandard,
    }
}

/// A PGN [`Visitor`] that classifies each game the reader reads: the mainline is replayed only
/// until the [`Classifier`] stops, then the reader skips the rest of the movetext (unchecked);
/// variations are skipped unread.
///
/// ```
/// use tabia_eco::{GameVisitor, Table};
/// use tabia_eco::position::notation::pgn::PgnReader;
///
/// let pgn = b"[Event \"a\"]\n\n1. e4 e6 2. d4 d5 3. Nc3 Bb4 *\n\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 *\n";
/// let mut reader = PgnReader::new(&pgn[..]);
/// let mut visitor = GameVisitor::new(Table::embedded());
/// let first = reader.read_game(&mut visitor)?.expect("a game")?;
/// let m = first.matched().expect("named");
/// assert_eq!((m.opening.eco(), m.ply), ("C15", 6));
/// let second = reader.read_game(&mut visitor)?.expect("a game")?;
/// assert_eq!(second.reason(), Some("unclassified: Chess960"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct GameVisitor<'t> {
    table: &'t Table,
    classifier: Classifier<'t>,
    tags: StartTags,
    start: Result<Start, ClassifyError>,
}

impl<'t> GameVisitor<'t> {
    /// A visitor classifying with `table`.
    pub fn new(table: &'t Table) -> GameVisitor<'t> {
        GameVisitor {
            table,
            classifier: Classifier::new(table),
            tags: StartTags::default(),
            start: Ok(Start::Standard),
        }
    }

    /// Whether the classifier has stopped (the rest of the movetext is not needed).
    pub fn is_done(&self) -> bool {
        self.classifier.is_done() || !matches!(self.start, Ok(Start::Standard))
    }
}

impl<'t> Visitor for GameVisitor<'t> {
    type Output = Result<Classification<'t>, ClassifyError>;

    fn begin_game(&mut self, _start: Origin) -> Skip {
        self.classifier = Classifier::new(self.table);
        self.tags.clear();
        self.start = Ok(Start::Standard);
        Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        self.tags.tag(name, value);
    }

    fn begin_movetext(&mut self) -> Skip {
        self.start = Ok(start(
            self.tags.variant.as_deref(),
            self.tags.fen.as_deref(),
        ));
        Skip(!matches!(self.start, Ok(Start::Standard)))
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        if self.is_done() {
            return;
        }
        let ply = self.classifier.ply() + 1;
        if let Err(error) = self.classifier.play_san(san) {
            self.start = Err(ClassifyError::IllegalMove { ply, at, error });
        }
    }

    fn skip_rest(&mut self) -> Skip {
        Skip(self.is_done())
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) -> Self::Output {
        match std::mem::replace(&mut self.start, Ok(Start::Standard)) {
            Err(err) => Err(err),
            Ok(Start::Chess960) => Ok(Classification::Chess960),
            Ok(Start::NonStandard) => Ok(Classification::NonStandardStart),
            Ok(Start::Standard) => Ok(match self.classifier.found() {
                Some(m) => Classification::Named(m),
                None => Classification::Unnamed,
            }),
        }
    }
}

impl Table {
    /// Classifies a parsed game ([`Table::classify_game`]) and sets its opening tags from
    /// the opening found ([`Opening::set_tags`](crate::Opening::set_tags)): what
    /// `tabia eco --tag` does to each game. A game the table does not name keeps its tags.
    ///
    /// ```
    /// use tabia_eco::{Table, TagChanges, position::notation::pgn::Game};
    ///
    /// let mut game: Game = "[ECO \"A00\"]\n\n1. e4 e6 2. d4 d5 *".parse()?;
    /// let changes = Table::embedded().set_opening_tags(&mut game)?;
    /// assert_eq!(game.tag("ECO"), Some("C00"));
    /// assert_eq!(changes, TagChanges { added: 1, changed: 1, removed: 0 });
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A move before the classifier stops is illegal (the tags are left as they are).
    pub fn set_opening_tags(&self, game: &mut Game) -> Result<TagChanges, ClassifyError> {
        let class = self.classify_game(game)?;
        Ok(class
            .matched()
            .map(|m| m.opening.set_tags(game))
            .unwrap_or_default())
    }

    /// Classifies a parsed game: Chess960 and set-up positions are not classified; otherwise
    /// the mainline is replayed by a [`Classifier`] (variations are not looked at).
    ///
    /// ```
    /// use tabia_eco::{Table, position::notation::pgn::Game};
    ///
    /// let game: Game = "1. d4 Nf6 2. c4 e6 3. Nf3 b6 4. g3 Ba6 1-0".parse()?;
    /// let m = Table::embedded().classify_game(&game)?.matched().expect("named");
    /// assert_eq!(m.opening.eco(), "E15");
    /// assert_eq!(m.opening.family(), "Queen's Indian Defense");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A move before the classifier stops is illegal.
    pub fn classify_game(&self, game: &Game) -> Result<Classification<'_>, ClassifyError> {
        match start(game.tag("Variant"), game.tag("FEN")) {
            Start::Chess960 => return Ok(Classification::Chess960),
            Start::NonStandard => return Ok(Classification::NonStandardStart),
            Start::Standard => {}
        }
        let mut classifier = self.classifier();
        for (i, node) in game.mainline.moves.iter().enumerate() {
            match classifier.play_san(node.san) {
                Ok(true) => {}
                Ok(false) => break,
                Err(error) => {
                    return Err(ClassifyError::IllegalMove {
                        ply: i + 1,
                        at: node.at,
                        error,
                    });
                }
            }
        }
        Ok(match classifier.found() {
            Some(m) => Classification::Named(m),
            None => Classification::Unnamed,
        })
    }
}

//! What the reader repaired in a game it read all the same.

use std::fmt;

use super::Origin;

/// What the reader repaired. A warning never stops a game from being read; the rules of chess
/// (`tabia-position`) add warnings of their own.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// The movetext ends (at the end of the input, or at the `[` of the next game) without a
    /// result: the game is read as if it ended with `*`.
    MissingResult,
    /// A `{` comment runs past a blank line into a line that starts a tag pair (`[Event "…`),
    /// on `line`: its `}` is probably missing, and what lies up to the next `}` (the start of
    /// the next game, maybe whole games) was read as part of the comment, as every PGN reader
    /// reads it. The warning is at the `{`, where the fix goes.
    TagPairInComment {
        /// The line of the tag pair.
        line: u64,
    },
    /// Tag pairs go on after a blank line, at the warning's place: most likely the game before
    /// them has no movetext (a game cut short, or tags written twice). Every PGN reader reads
    /// one game with the tags of both (python-chess and pgn-extract keep the last value of a
    /// tag given twice; tabia keeps every pair, in the order read).
    TagsAfterBlankLine,
    /// An en-passant mark after a move (`exd6 e.p.`), which SAN does not have: dropped.
    EnPassantMark,
    /// A move whose pieces are figurines (`♘f3`), as web pages write them: read in letters.
    FigurineMove,
    /// An evaluation symbol written as text (`+/-`, `=`, `-+`, `±`, `∞`, `N` for a novelty),
    /// as books and web pages write them: read as its NAG.
    TextGlyph {
        /// The NAG it is read as.
        nag: crate::Nag,
    },
    /// A pawn move written with the letter `P` (`Pe4`, `Pxd5`): read without it.
    PawnLetter,
    /// A move whose piece letter (or castling `o-o`) is lowercase (`nf3`, `bc4`, `o-o`), as
    /// some programs write them: read in capitals, as pgn-extract reads them. A lowercase `b`
    /// that makes a pawn move (`bxc3`) is a pawn move.
    LowercasePiece,
    /// A result written with `½` or a typographic dash (`½-½`, `1–0`): passed, as it is no
    /// PGN result (a reader that skips movetext could not tell it from text); the game's result
    /// then comes from its `Result` tag.
    TypographicResult,
    /// A tag value with quotes inside it not escaped (`[White ""Socrates Expert""]`, as some
    /// puzzle collections write them): read as everything between the first quote and the
    /// last one before the `]` that ends the line, as python-chess reads it.
    UnescapedQuote,
    /// A NAG before the first move of the game or of a variation (`$10 1. e4`, a game's
    /// annotation as some databases write it): there is no move to annotate, so it is
    /// dropped (python-chess keeps it on the game and writes it nowhere either).
    NagBeforeMove {
        /// The NAG.
        nag: crate::Nag,
    },
}

/// How much a warning matters to whoever reads the game: a *note* changes nothing of it (a
/// mark or a letter written another way), a *warning* says that the reader had to guess
/// (a repaired move, a dropped castling right, a missing or contradicted result).
///
/// Tools list warnings and count notes; both are kept wherever everything is (JSON).
///
/// ```
/// use tabia_notation::pgn::{Level, WarningKind};
///
/// assert_eq!(WarningKind::LowercasePiece.level(), Level::Note);
/// assert_eq!(WarningKind::MissingResult.level(), Level::Warning);
/// assert!(Level::Note < Level::Warning);
/// assert_eq!(Level::Note.to_string(), "note");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Changes nothing of the game: written another way, read as meant.
    Note,
    /// The reader had to guess, or the game contradicts itself.
    Warning,
}

impl Level {
    /// `"note"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Note => "note",
            Level::Warning => "warning",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl WarningKind {
    /// Whether this is a note (a figurine, a lowercase letter, a `P`, `e.p.`, an evaluation
    /// symbol as text, a typographic result: the game is what was meant) or a warning (the
    /// rest: what was read is a guess).
    pub fn level(self) -> Level {
        match self {
            WarningKind::EnPassantMark
            | WarningKind::FigurineMove
            | WarningKind::TextGlyph { .. }
            | WarningKind::PawnLetter
            | WarningKind::LowercasePiece
            | WarningKind::TypographicResult => Level::Note,
            WarningKind::MissingResult
            | WarningKind::TagPairInComment { .. }
            | WarningKind::TagsAfterBlankLine
            | WarningKind::UnescapedQuote
            | WarningKind::NagBeforeMove { .. } => Level::Warning,
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::MissingResult => f.write_str("game has no result, read as `*`"),
            WarningKind::TagPairInComment { line } => write!(
                f,
                "comment runs past a blank line into a tag pair on line {line}: a `}}` is \
                 probably missing (what comes up to the next `}}` is read as the comment)"
            ),
            WarningKind::EnPassantMark => f.write_str("`e.p.` after a move is not SAN, dropped"),
            WarningKind::TypographicResult => f.write_str(
                "result written with `½` or a typographic dash, passed (the Result tag gives the \
                 result)",
            ),
            WarningKind::FigurineMove => {
                f.write_str("move written with figurines, read with letters")
            }
            WarningKind::TextGlyph { nag } => write!(
                f,
                "evaluation symbol written as text, read as the NAG ${}",
                nag.0
            ),
            WarningKind::PawnLetter => f.write_str("pawn move written with `P`, read without it"),
            WarningKind::LowercasePiece => {
                f.write_str("piece letter or castling written in lowercase, read in capitals")
            }
            WarningKind::UnescapedQuote => f.write_str(
                "tag value has quotes inside it that are not escaped (`\\\"`), read up to the \
                 last quote of the line",
            ),
            WarningKind::NagBeforeMove { nag } => write!(
                f,
                "NAG ${} before the first move annotates no move, dropped",
                nag.0
            ),
            WarningKind::TagsAfterBlankLine => f.write_str(
                "tag pairs go on after a blank line: the game before them may have no movetext \
                 (read as one game with the tags of both)",
            ),
        }
    }
}

/// A warning of the reader: what it repaired, and where (just after the last token of the
/// game, for a missing result).
///
/// ```
/// use tabia_notation::pgn::{Game, Outcome, WarningKind};
///
/// let game: Game = "1. e4 e5".parse()?;
/// assert_eq!(game.result, Outcome::Unknown);
/// assert_eq!(game.warnings[0].kind, WarningKind::MissingResult);
/// assert_eq!(game.warnings[0].to_string(), "game has no result, read as `*`");
/// assert_eq!((game.warnings[0].at.line, game.warnings[0].at.column), (1, 9));
/// # Ok::<_, tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Warning {
    /// What was repaired.
    pub kind: WarningKind,
    /// Where in the input.
    pub at: Origin,
}

impl fmt::Display for Warning {
    /// The message, without the location.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

//! Warnings: a game that was read all the same, with something repaired or suspicious.

use std::fmt;

use tabia_notation::{
    pgn::{Level, Origin, WarningKind as ReaderWarningKind},
    san::Suffix,
};

use crate::outcome::Termination;

/// What was repaired, or looks wrong, in a game that was read all the same.
///
/// An error means the game cannot be read; a warning never drops the game. Each kind says
/// what tabia read instead, which is what [`repair_game`](crate::repair_game) writes into the
/// game (and so what `tabia pgn` exports).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayWarningKind {
    /// The game ends in a mate or stalemate that its result contradicts; the result is kept.
    ResultMismatch {
        /// The result the game gives.
        result: String,
        /// How the game actually ended on the board.
        termination: Termination,
    },
    /// The movetext ends without a result: read as the `Result` tag says, else as `*`.
    MissingResult {
        /// The result read: the `Result` tag's, or `*`.
        read_as: String,
    },
    /// The `Result` tag disagrees with the result that ends the movetext; the movetext wins.
    ResultTagMismatch {
        /// The `Result` tag.
        tag: String,
        /// The result at the end of the movetext.
        marker: String,
    },
    /// A clock of the `FEN` tag is not a count (negative, too large, not a number): read as
    /// 0 (halfmove clock) or 1 (fullmove number).
    FenClock {
        /// `"halfmove clock"` or `"fullmove number"`.
        field: &'static str,
        /// The field as written.
        given: String,
        /// What it was read as.
        read_as: u32,
    },
    /// The `FEN` tag's fullmove number is 0: read as 1.
    FenFullmoveZero,
    /// The `FEN` tag stops before its sixth field: the rest is read as `w - - 0 1` would give.
    FenFieldsMissing {
        /// The FEN read.
        read_as: String,
    },
    /// The `FEN` tag gives castling rights that the board cannot have: they are dropped.
    FenCastlingDropped {
        /// Why (the problems of the position).
        reason: String,
        /// The castling field read.
        read_as: String,
    },
    /// The `FEN` tag gives an en-passant square that no double push can have made: dropped.
    FenEpDropped {
        /// Why.
        reason: String,
    },
    /// The `FEN` tag gives a position that no game can reach (a check no move can give, more
    /// material than promotions can make), but that can be played from: read as given.
    FenUnreachable {
        /// Why.
        reason: String,
    },
    /// A move given by its squares, in UCI (`e2e4`) or long algebraic notation (`Ng1-f3`).
    MoveNotation {
        /// The move as numbered and written, e.g. `2. Ng1-f3`.
        numbered: String,
        /// Whether it was UCI (else long algebraic).
        uci: bool,
        /// Its SAN, as read.
        san: String,
    },
    /// A move written as a capture that takes nothing, or a capture written without `x`.
    CaptureMark {
        /// The move as numbered and written, e.g. `3. Nxf3`.
        numbered: String,
        /// Whether the text says `x`.
        written_as_capture: bool,
        /// Its SAN, as read.
        san: String,
    },
    /// A pawn capture from the b-file that no pawn can make but a bishop can (`bxc6`, a
    /// bishop's lowercase `b`): read as the bishop's move, as pgn-extract reads it.
    LowercaseBishop {
        /// The move as numbered and written, e.g. `4. bxc6`.
        numbered: String,
        /// Its SAN, as read.
        san: String,
    },
    /// A move whose check mark (`+`, `#`, or none) is not what the move gives.
    CheckMark {
        /// The move as numbered and written, e.g. `1. e4+`.
        numbered: String,
        /// The check mark written.
        written: Option<Suffix>,
        /// What the move gives: `+`, `#` or nothing.
        gives: Option<Suffix>,
        /// Its SAN, as read.
        san: String,
    },
    /// Something else the PGN reader repaired.
    Reader(ReaderWarningKind),
}

impl ReplayWarningKind {
    /// A note when the game is what was meant, only written another way (a check or capture
    /// mark, a move in UCI or long algebraic notation, and the reader's notes); a warning when
    /// what was read is a guess (a lowercase `b` read as a bishop's, a repaired `FEN` tag, a
    /// missing or contradicted result).
    ///
    /// ```
    /// use tabia_position::{Level, ReplayWarningKind};
    ///
    /// let kind = ReplayWarningKind::FenFullmoveZero;
    /// assert_eq!(kind.level(), Level::Warning);
    /// ```
    pub fn level(&self) -> Level {
        match self {
            ReplayWarningKind::MoveNotation { .. }
            | ReplayWarningKind::CaptureMark { .. }
            | ReplayWarningKind::CheckMark { .. } => Level::Note,
            ReplayWarningKind::ResultMismatch { .. }
            | ReplayWarningKind::MissingResult { .. }
            | ReplayWarningKind::ResultTagMismatch { .. }
            | ReplayWarningKind::FenClock { .. }
            | ReplayWarningKind::FenFullmoveZero
            | ReplayWarningKind::FenFieldsMissing { .. }
            | ReplayWarningKind::FenCastlingDropped { .. }
            | ReplayWarningKind::FenEpDropped { .. }
            | ReplayWarningKind::FenUnreachable { .. }
            | ReplayWarningKind::LowercaseBishop { .. } => Level::Warning,
            ReplayWarningKind::Reader(kind) => kind.level(),
        }
    }
}

impl fmt::Display for ReplayWarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayWarningKind::ResultMismatch {
                result,
                termination,
            } => write!(
                f,
                "result {result} but the game ends in {termination} ({})",
                termination.result()
            ),
            ReplayWarningKind::MissingResult { read_as } if read_as == "*" => {
                f.write_str("game has no result, read as `*`")
            }
            ReplayWarningKind::MissingResult { read_as } => {
                write!(
                    f,
                    "game has no result, read as `{read_as}` from its Result tag"
                )
            }
            ReplayWarningKind::ResultTagMismatch { tag, marker } => write!(
                f,
                "Result tag says `{tag}` but the movetext ends with `{marker}`, read as `{marker}`"
            ),
            ReplayWarningKind::FenClock {
                field,
                given,
                read_as,
            } => write!(f, "FEN tag has {field} `{given}`, read as {read_as}"),
            ReplayWarningKind::FenFullmoveZero => {
                f.write_str("FEN tag has fullmove number 0, read as 1")
            }
            ReplayWarningKind::FenFieldsMissing { read_as } => {
                write!(f, "FEN tag has missing fields, read as `{read_as}`")
            }
            ReplayWarningKind::FenCastlingDropped { reason, read_as } => write!(
                f,
                "FEN tag gives castling rights the board cannot have ({reason}), read as `{read_as}`"
            ),
            ReplayWarningKind::FenEpDropped { reason } => {
                write!(
                    f,
                    "FEN tag gives an impossible en-passant square ({reason}), dropped"
                )
            }
            ReplayWarningKind::FenUnreachable { reason } => write!(
                f,
                "FEN tag gives a position no game can reach ({reason}), read as given"
            ),
            ReplayWarningKind::MoveNotation { numbered, uci, san } => {
                let notation = if *uci {
                    "UCI notation"
                } else {
                    "long algebraic notation"
                };
                write!(f, "move {numbered} is in {notation}, read as {san}")
            }
            ReplayWarningKind::CaptureMark {
                numbered,
                written_as_capture: true,
                san,
            } => write!(
                f,
                "move {numbered} is written as a capture but takes nothing, read as {san}"
            ),
            ReplayWarningKind::CaptureMark { numbered, san, .. } => write!(
                f,
                "move {numbered} takes a piece but is not written as a capture, read as {san}"
            ),
            ReplayWarningKind::LowercaseBishop { numbered, san } => write!(
                f,
                "move {numbered} is no pawn's move but a bishop's with a lowercase `b`, read as \
                 {san}"
            ),
            ReplayWarningKind::CheckMark {
                numbered,
                written,
                gives,
                san,
            } => {
                let what = match (gives, written) {
                    (None, _) => "gives no check",
                    (Some(Suffix::Check), Some(Suffix::Checkmate)) => {
                        "gives check but does not mate"
                    }
                    (Some(Suffix::Check), _) => "gives check",
                    (Some(Suffix::Checkmate), _) => "mates",
                };
                write!(f, "move {numbered} {what}, read as {san}")
            }
            ReplayWarningKind::Reader(kind) => kind.fmt(f),
        }
    }
}

/// A warning about a game: what it is and where (line and column in the input, when the game
/// was read from text).
///
/// ```
/// use tabia_position::{ReplayWarningKind, check_game};
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0".parse()?;
/// let checked = check_game(&game)?;
/// let warning = &checked.warnings[0];
/// assert!(matches!(warning.kind(), ReplayWarningKind::ResultMismatch { .. }));
/// assert_eq!(warning.to_string(), "result 1-0 but the game ends in black mates (0-1)");
/// assert_eq!(warning.origin().map(|at| (at.line, at.column)), Some((3, 16)));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayWarning {
    kind: Box<ReplayWarningKind>,
    at: Option<Origin>,
}

impl ReplayWarning {
    /// A warning of `kind`, at `at` when known.
    pub fn new(kind: ReplayWarningKind, at: Option<Origin>) -> ReplayWarning {
        ReplayWarning {
            kind: Box::new(kind),
            at,
        }
    }

    /// What it is.
    pub fn kind(&self) -> &ReplayWarningKind {
        &self.kind
    }

    /// Where in the input (the move, the tag or the start of the game), if known.
    pub fn origin(&self) -> Option<Origin> {
        self.at
    }

    /// A note or a warning ([`ReplayWarningKind::level`]).
    pub fn level(&self) -> Level {
        self.kind.level()
    }
}

impl tabia_notation::Located for ReplayWarning {
    fn message(&self) -> String {
        self.to_string()
    }

    fn origin(&self) -> Option<Origin> {
        self.at
    }
}

impl fmt::Display for ReplayWarning {
    /// The message, without the location (see [`ReplayWarning::origin`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

/// Puts the warnings of a game, gathered from the reader and from the moves (each list in
/// input order), in input order: by where they are, those at one place in the order given.
pub(crate) fn in_input_order(warnings: &mut [ReplayWarning]) {
    warnings.sort_by_key(|w| w.origin().map(|at| at.offset));
}

//! Warnings: a game that was read all the same, with something repaired or suspicious.

use std::fmt;

use tabia_notation::pgn::Origin;

use crate::outcome::Termination;

/// What was repaired, or looks wrong, in a game that was read all the same.
///
/// An error means the game cannot be read; a warning never drops the game. Each kind says
/// what tabia did about it, so that a user can tell what the export changed.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WarningKind {
    /// The game ends in a mate or stalemate that its result contradicts; the result is kept.
    ResultMismatch {
        /// The result the game gives.
        result: String,
        /// How the game actually ended on the board.
        termination: Termination,
    },
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::ResultMismatch {
                result,
                termination,
            } => write!(
                f,
                "result {result} but the game ends in {termination} ({})",
                termination.result()
            ),
        }
    }
}

/// A warning about a game: what it is and where (line and column in the input, when the game
/// was read from text).
///
/// ```
/// use tabia_position::{WarningKind, check_game};
/// use tabia_notation::pgn::Game;
///
/// let game: Game = "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0".parse()?;
/// let checked = check_game(&game)?;
/// let warning = &checked.warnings[0];
/// assert!(matches!(warning.kind(), WarningKind::ResultMismatch { .. }));
/// assert_eq!(warning.to_string(), "result 1-0 but the game ends in black mates (0-1)");
/// assert_eq!(warning.origin().map(|at| (at.line, at.column)), Some((3, 16)));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    kind: Box<WarningKind>,
    at: Option<Origin>,
}

impl Warning {
    /// A warning of `kind`, at `at` when known.
    pub fn new(kind: WarningKind, at: Option<Origin>) -> Warning {
        Warning {
            kind: Box::new(kind),
            at,
        }
    }

    /// What it is.
    pub fn kind(&self) -> &WarningKind {
        &self.kind
    }

    /// Where in the input (the move, the tag or the start of the game), if known.
    pub fn origin(&self) -> Option<Origin> {
        self.at
    }
}

impl fmt::Display for Warning {
    /// The message, without the location (see [`Warning::origin`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

//! [`LoadError`]: why a table could not be loaded.

use std::fmt;

use tabia_position::MoveError;

/// What is wrong with a table.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// The text of an entry is malformed (the error carries its own line, column and snippet).
    Syntax(tabia_notation::Error),
    /// A move of an entry is not legal where it is played.
    Move {
        /// 1-based ply of the move in its line.
        ply: usize,
        /// Why the move is not legal.
        error: MoveError,
    },
    /// An entry starts from a position other than the standard one (tables name positions
    /// reached from the starting position).
    NonStandardStart,
    /// A required field is missing or empty (for example the ECO code).
    MissingField(&'static str),
    /// The entry's position is named by an earlier entry (in a table that allows one name a
    /// position).
    NamedTwice {
        /// The 1-based line of the entry that names it.
        first: u64,
    },
    /// Reading the table failed.
    Io(String),
}

/// An entry of a table that could not be loaded: its 1-based line in the table's text and what
/// is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    line: u64,
    kind: LoadErrorKind,
}

impl LoadError {
    pub(crate) fn new(line: u64, kind: LoadErrorKind) -> LoadError {
        LoadError { line, kind }
    }

    /// A syntax error's place drawn from `source`, the whole table, which its span is in (an
    /// error read from a copy of part of it, a TSV cell, drew an empty line).
    pub(crate) fn with_source(self, source: &[u8]) -> LoadError {
        match self.kind {
            LoadErrorKind::Syntax(err) => LoadError {
                line: self.line,
                kind: LoadErrorKind::Syntax(err.with_source(source)),
            },
            kind => LoadError { kind, ..self },
        }
    }

    /// The 1-based line of the entry in the table's text (0 when the error is not on a line,
    /// like a read error).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// What is wrong.
    pub fn kind(&self) -> &LoadErrorKind {
        &self.kind
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            LoadErrorKind::Syntax(err) => err.fmt(f),
            LoadErrorKind::Move { ply, error } => {
                write!(f, "line {}: ply {ply}: {error}", self.line)
            }
            LoadErrorKind::NonStandardStart => write!(
                f,
                "line {}: the entry does not start from the standard position",
                self.line
            ),
            LoadErrorKind::MissingField(field) => {
                write!(f, "line {}: missing {field}", self.line)
            }
            LoadErrorKind::NamedTwice { first } => write!(
                f,
                "line {}: the position is named already, by line {first}",
                self.line
            ),
            LoadErrorKind::Io(err) => write!(f, "read error: {err}"),
        }
    }
}

/// The message already holds the inner error's text, so there is no `source` to print again.
impl std::error::Error for LoadError {}

//! [`ReplayError`]: why a game could not be replayed, and where.

use std::fmt;

use tabia_notation::pgn::Origin;

use crate::{moves::MoveError, variant::UnknownVariant};

/// Why a game could not be replayed, or does not agree with its result.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayErrorKind {
    /// The `FEN` tag is not a legal position (the message says why).
    StartPosition(String),
    /// The `Variant` tag names rules tabia does not play (see [`crate::parse_variant`]).
    UnsupportedVariant(String),
    /// A move is not legal.
    IllegalMove {
        /// The move as numbered in the game, e.g. `4. Nxe5` or `4... Nf6`.
        numbered: String,
        /// The ply of the move, counted from the start position (1 is the first move).
        ply: u32,
        /// Whether the move is in a variation rather than the mainline.
        in_variation: bool,
        /// Why it is illegal.
        error: MoveError,
    },
}

/// A game that could not be replayed: what went wrong and where (the move's line and column
/// in the input, when the game was read from text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    kind: Box<ReplayErrorKind>,
    at: Option<Origin>,
}

impl ReplayError {
    /// An error of kind `kind` at `at` (for replayers outside this crate, such as game filters).
    pub fn new(kind: ReplayErrorKind, at: Option<Origin>) -> ReplayError {
        ReplayError {
            kind: Box::new(kind),
            at,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ReplayErrorKind {
        &self.kind
    }

    /// Where in the input (the offending move, or the start of the game), if known.
    pub fn origin(&self) -> Option<Origin> {
        self.at
    }
}

impl tabia_notation::Located for ReplayError {
    fn message(&self) -> String {
        self.to_string()
    }

    fn origin(&self) -> Option<Origin> {
        self.at
    }
}

impl fmt::Display for ReplayErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayErrorKind::StartPosition(message) => write!(f, "bad FEN tag: {message}"),
            ReplayErrorKind::UnsupportedVariant(variant) => {
                write!(f, "{}", UnknownVariant::named(variant))
            }
            ReplayErrorKind::IllegalMove {
                numbered,
                ply,
                in_variation,
                error,
            } => {
                write!(f, "illegal move {numbered} (ply {ply}")?;
                if *in_variation {
                    f.write_str(", in a variation")?;
                }
                write!(f, "): {}", error.reason())
            }
        }
    }
}

impl fmt::Display for ReplayError {
    /// The message, without the location (see [`ReplayError::origin`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for ReplayError {}

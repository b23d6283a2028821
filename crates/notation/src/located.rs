//! [`Located`]: what every error and warning about a game's text says the same way.

use crate::{Error, pgn::Origin};

/// A problem with a place in the input: the one shape of every error and warning the toolkit
/// gives about a game (syntax errors, illegal moves, repairs, opening and output problems), so
/// that a program reports them all alike, `FILE:LINE:COL: game N: message`, in one place.
///
/// ```
/// use tabia_notation::{Located, pgn::Game};
///
/// let err = "1. e4 e5 2. Nf3 (".parse::<Game>().unwrap_err();
/// let at = err.origin().expect("placed");
/// assert_eq!((at.line, at.column), (1, 18));
/// assert_eq!(err.message(), "variation not closed by `)`");
/// ```
pub trait Located {
    /// What is wrong, without the place or a snippet of the input.
    fn message(&self) -> String;

    /// Where it is in the input (byte offset, 1-based line and column), when known.
    fn origin(&self) -> Option<Origin>;
}

impl Located for Error {
    fn message(&self) -> String {
        self.brief()
    }

    fn origin(&self) -> Option<Origin> {
        Some(Origin {
            offset: self.span().start as u64,
            line: self.line()?,
            column: self.column()?,
        })
    }
}

impl Located for crate::pgn::ReadError {
    fn message(&self) -> String {
        match self.syntax() {
            Some(error) => error.brief(),
            None => self.to_string(),
        }
    }

    fn origin(&self) -> Option<Origin> {
        self.syntax().and_then(Located::origin)
    }
}

//! Positions and moves from text.

use std::{fmt, str::FromStr};

use shakmaty::{Move, san::San, uci::UciMove};
use tabia_notation::{Error, ErrorKind};

use crate::{
    moves::{MoveError, MoveErrorKind},
    position::{Position, SetupError},
};

/// Why a position argument could not be read: bad syntax, or an illegal position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParsePositionError {
    /// The text is not a FEN, partial FEN, EPD or `startpos`.
    Syntax(Error),
    /// The text is well formed but the position is not legal.
    Illegal(SetupError),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::Syntax(err) => err.fmt(f),
            ParsePositionError::Illegal(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl Position {
    /// Reads a position argument: `startpos`, a full FEN, a partial FEN (missing fields take
    /// `w - - 0 1`) or an EPD (operations are ignored). Standard chess or Chess960 as the
    /// castling letters say.
    ///
    /// # Errors
    ///
    /// [`ParsePositionError`]: the syntax error with its position, or every problem of an
    /// illegal position.
    pub fn from_arg(text: &str) -> Result<Position, ParsePositionError> {
        let text = text.trim();
        if text == "startpos" {
            return Ok(Position::new());
        }
        let setup = match text.parse::<shakmaty::fen::Fen>() {
            Ok(fen) => fen.into_setup(),
            Err(_) => match text.parse::<shakmaty::fen::Epd>() {
                Ok(epd) => epd.into_setup(),
                Err(_) => {
                    return Err(ParsePositionError::Syntax(
                        Error::new(ErrorKind::InvalidPlacement, 0..text.len())
                            .with_source(text.as_bytes()),
                    ));
                }
            },
        };
        Position::from_setup(setup).map_err(ParsePositionError::Illegal)
    }

    /// Reads a move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`), UCI (`g1f3`, `e7e8q`) and returns
    /// the legal move it names.
    ///
    /// # Errors
    ///
    /// [`MoveError`] saying why: bad syntax, illegal, ambiguous (naming the candidates), no
    /// piece can go there, wrong side to move.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let bytes = text.as_bytes();
        let looks_uci = matches!(
            bytes,
            [b'a'..=b'h', b'1'..=b'8', b'a'..=b'h', b'1'..=b'8', ..] if bytes.len() <= 5
        );
        if looks_uci && let Ok(uci) = UciMove::from_ascii(bytes) {
            return self
                .resolve_uci(uci)
                .map_err(|e| MoveError::new(text, e.kind().clone()));
        }
        if let Ok(san) = San::from_ascii(bytes) {
            return self
                .resolve_san(san)
                .map_err(|e| MoveError::new(text, e.kind().clone()));
        }
        Err(MoveError::new(
            text,
            MoveErrorKind::Syntax(Error::new(ErrorKind::InvalidSan, 0..text.len())),
        ))
    }

    /// The position after the move `text` (SAN or UCI).
    ///
    /// # Errors
    ///
    /// [`MoveError`] as for [`Position::parse_move`].
    pub fn after(mut self, text: &str) -> Result<Position, MoveError> {
        let m = self.parse_move(text)?;
        self.play_unchecked(m);
        Ok(self)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        Position::from_arg(s)
    }
}

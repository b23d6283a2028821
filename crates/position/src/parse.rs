//! Positions and moves from text, through the grammars of `tabia-notation`.

use std::{fmt, str::FromStr};

use shakmaty::{Bitboard, Move, uci::UciMove};
use tabia_notation::{
    Error,
    epd::Epd,
    fen::Fen,
    san::{LanPlus, SanPlus, Uci},
};

use crate::{
    convert,
    edit::Editor,
    moves::{MoveError, MoveErrorKind},
    position::{Position, SetupError},
    variant::GameVariant,
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

impl Editor {
    /// Reads a position argument, legal or not: `startpos`, a full FEN, a partial FEN (missing
    /// fields take `w - - 0 1`) or an EPD (its operations are not part of the position).
    ///
    /// ```
    /// use tabia_position::Editor;
    ///
    /// let ed = Editor::from_arg("7k/8/8/8/8/8/8/K1r5 b")?;
    /// assert_eq!(ed.problems()[0].to_string(), "white is in check but it is black's move");
    /// # Ok::<_, tabia_position::notation::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The syntax error, with the text as its source (line, column, caret).
    pub fn from_arg(text: &str) -> Result<Editor, Error> {
        let trimmed = text.trim();
        if trimmed == "startpos" {
            return Ok(Editor::new());
        }
        let bytes = text.as_bytes();
        let fen_err = match Fen::from_ascii_lenient(bytes) {
            Ok(fen) => return Ok(Editor::from_fen(&fen)),
            Err(err) => err,
        };
        // An EPD: the four position fields, then operations (`hmvc` and `fmvn` give clocks);
        // or as perft suites write them, a FEN and operations led by `;`.
        match Epd::from_ascii_lenient(bytes).and_then(|(epd, _)| epd.to_fen()) {
            Ok(fen) => Ok(Editor::from_fen(&fen)),
            // Report the diagnosis that got further into the text.
            Err(epd_err) if epd_err.span().start > fen_err.span().start => Err(epd_err),
            Err(_) => Err(fen_err),
        }
    }

    /// Reads a position argument as [`Editor::from_arg`] does, where `startpos` is the start of
    /// `variant` (Horde's pawns, Racing Kings' pieces on the first two ranks, no castling in
    /// Antichess) when one is given.
    ///
    /// ```
    /// use tabia_position::{Editor, parse_variant};
    ///
    /// let horde = parse_variant("horde")?;
    /// let ed = Editor::from_arg_variant("startpos", Some(horde))?;
    /// assert!(ed.problems_variant(horde).is_empty());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Editor::from_arg`].
    pub fn from_arg_variant(text: &str, variant: Option<GameVariant>) -> Result<Editor, Error> {
        match variant {
            Some(variant) if text.trim() == "startpos" => Ok(Editor::from_position(
                &Position::new_variant(variant.variant),
                crate::EpRule::Legal,
            )),
            _ => Editor::from_arg(text),
        }
    }
}

impl Position {
    /// Reads a position argument: `startpos`, a full FEN, a partial FEN (missing fields take
    /// `w - - 0 1`) or an EPD (operations are ignored). Standard chess or Chess960 as the
    /// castling letters say.
    ///
    /// ```
    /// use tabia_position::{EpRule, Position};
    ///
    /// let pos = Position::from_arg("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"1.e4\";")?;
    /// assert_eq!(pos.fen(EpRule::Always), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    /// let err = Position::from_arg("4k3/8/8/8/8/8/8/4K3 w KQ").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "illegal position: white may castle queenside but there is no white rook on a1; \
    ///      white may castle kingside but there is no white rook on h1"
    /// );
    /// # Ok::<_, tabia_position::ParsePositionError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ParsePositionError`]: the syntax error with its position, or every problem of an
    /// illegal position.
    pub fn from_arg(text: &str) -> Result<Position, ParsePositionError> {
        Position::from_arg_variant(text, None)
    }

    /// Reads a position argument under the rules of `variant`; with `None`, the rules the
    /// position's own fields imply (Crazyhouse when it has pockets, Three-check when it has
    /// check counters, else standard chess or Chess960 as the castling letters say).
    /// `startpos` is the variant's starting position.
    ///
    /// ```
    /// use tabia_position::{EpRule, Position, parse_variant};
    ///
    /// let horde = parse_variant("Horde")?;
    /// let pos = Position::from_arg_variant("startpos", Some(horde))?;
    /// assert_eq!(pos.epd(EpRule::Legal), "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq -");
    /// let pos = Position::from_arg("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +1+0")?;
    /// assert_eq!(pos.epd(EpRule::Legal), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Position::from_arg`].
    pub fn from_arg_variant(
        text: &str,
        variant: Option<GameVariant>,
    ) -> Result<Position, ParsePositionError> {
        if text.trim() == "startpos"
            && let Some(variant) = variant
        {
            return Ok(Position::new_variant(variant.variant));
        }
        let editor = Editor::from_arg_variant(text, variant).map_err(ParsePositionError::Syntax)?;
        let variant = variant.unwrap_or_else(|| editor.implied_variant().into());
        editor
            .position_variant(variant)
            .map_err(ParsePositionError::Illegal)
    }

    /// The position of a parsed FEN, if legal.
    ///
    /// # Errors
    ///
    /// [`SetupError`] with every problem.
    pub fn from_fen(fen: &Fen) -> Result<Position, SetupError> {
        Editor::from_fen(fen).position()
    }

    /// Reads a move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`), UCI (`g1f3`, `e7e8q`, `e1g1`) or
    /// long algebraic notation (`Ng1-f3`, `e4xd5`) and returns the legal move it names.
    ///
    /// # Errors
    ///
    /// [`MoveError`] saying why: bad syntax, illegal, ambiguous (naming the candidates), no
    /// piece can go there, wrong side to move.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move_ascii(text.as_bytes())
    }

    /// Like [`Position::parse_move`], on bytes.
    ///
    /// # Errors
    ///
    /// As [`Position::parse_move`].
    pub fn parse_move_ascii(&self, bytes: &[u8]) -> Result<Move, MoveError> {
        let text = || String::from_utf8_lossy(bytes).into_owned();
        let looks_uci = matches!(
            bytes,
            [b'a'..=b'h', b'1'..=b'8', b'a'..=b'h', b'1'..=b'8', ..] if bytes.len() <= 5
        );
        if looks_uci && let Ok(uci) = Uci::from_ascii(bytes) {
            return self
                .resolve_uci_kind(convert::uci(uci), None, None)
                .map_err(|kind| MoveError::new(text(), kind));
        }
        let san_err = match tabia_notation::san::annotated_prefix(bytes) {
            Ok((san, _, used)) if used == bytes.len() => {
                return self
                    .resolve_san_kind(convert::san(san.san))
                    .map_err(|kind| MoveError::new(text(), kind));
            }
            Ok(_) => SanPlus::from_ascii(bytes).err().unwrap_or_else(|| {
                Error::new(tabia_notation::ErrorKind::TrailingInput, 0..bytes.len())
            }),
            Err(err) => err,
        };
        if let Ok(lan) = LanPlus::from_ascii(bytes) {
            return self
                .resolve_lan(lan)
                .map_err(|kind| MoveError::new(text(), kind));
        }
        Err(MoveError::new(text(), MoveErrorKind::Syntax(san_err)))
    }

    /// Resolves a parsed notation SAN to the legal move it names.
    ///
    /// # Errors
    ///
    /// [`MoveError`] as for [`Position::parse_move`].
    pub fn resolve(&self, san: tabia_notation::san::San) -> Result<Move, MoveError> {
        self.resolve_kind(san)
            .map_err(|kind| MoveError::new(san.to_string(), kind))
    }

    /// [`Position::resolve`], reading what lenient reading repairs as the move it stands for:
    /// a wrong capture mark (`Nxf3` on an empty square), a move given by its squares, a
    /// bishop's lowercase `b` (`bxc6` that no pawn can make). The repair is not reported here:
    /// that is the checker's ([`check_reader`](crate::check_reader)), which also says what the
    /// move was read as. For a reader that only follows the moves, as the opening classifier.
    ///
    /// ```
    /// use tabia_position::Position;
    ///
    /// let mut pos = Position::new();
    /// for san in ["e4", "e5", "Nxf3", "Nc6", "Bb5", "a6", "bxc6"] {
    ///     let m = pos.resolve_lenient(san.parse()?).expect("read leniently");
    ///     pos.play_unchecked(m);
    /// }
    /// assert!(Position::new().resolve("Nxf3".parse()?).is_err());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`MoveError`]: the move is illegal even when read leniently.
    pub fn resolve_lenient(&self, san: tabia_notation::san::San) -> Result<Move, MoveError> {
        crate::lenient::resolve(self, SanPlus { san, suffix: None }, None)
            .map(|(m, _)| m)
            .map_err(|kind| MoveError::new(san.to_string(), kind))
    }

    /// [`Position::resolve`] for a replay loop that keeps the pieces giving check from move to
    /// move ([`Position::checkers`] after each move played): they are not looked up again, and
    /// an error is its reason only, so that the loop makes no text for a move until it reports
    /// it (then `MoveError::new(san.to_string(), kind)`).
    ///
    /// ```
    /// use tabia_position::{MoveErrorKind, Position};
    ///
    /// let mut pos = Position::new();
    /// let mut checkers = pos.checkers();
    /// for san in ["e4", "f6", "d4", "g5", "Qh5"] {
    ///     let m = pos.resolve_with_checkers(san.parse()?, checkers).expect("legal");
    ///     pos.play_unchecked(m);
    ///     checkers = pos.checkers();
    /// }
    /// assert!(checkers.any());
    /// // Mate: the knight move that does not answer the check is refused.
    /// assert!(matches!(
    ///     pos.resolve_with_checkers("Nh6".parse()?, checkers),
    ///     Err(MoveErrorKind::SelfCheck { in_check: true })
    /// ));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn resolve_with_checkers(
        &self,
        san: tabia_notation::san::San,
        checkers: Bitboard,
    ) -> Result<Move, MoveErrorKind> {
        self.resolve_kind_with(san, Some(checkers))
    }

    /// Like [`Position::resolve`], with the reason only. A move given by its squares
    /// ([`San::Long`](tabia_notation::san::San::Long): UCI, long algebraic) is found by its
    /// squares, checking the piece and the capture mark when they are written.
    pub(crate) fn resolve_kind(
        &self,
        san: tabia_notation::san::San,
    ) -> Result<Move, MoveErrorKind> {
        self.resolve_kind_with(san, None)
    }

    /// [`Position::resolve_kind`], with the pieces giving check when the caller knows them.
    #[inline]
    pub(crate) fn resolve_kind_with(
        &self,
        san: tabia_notation::san::San,
        checkers: Option<Bitboard>,
    ) -> Result<Move, MoveErrorKind> {
        match san {
            tabia_notation::san::San::Long {
                role,
                from,
                capture,
                to,
                promotion,
            } => self.resolve_uci_kind(
                UciMove::Normal {
                    from: convert::square(from),
                    to: convert::square(to),
                    promotion: promotion.map(convert::role),
                },
                role.map(convert::role),
                role.map(|_| capture),
            ),
            san => self.resolve_san_kind_with(convert::san(san), checkers),
        }
    }

    fn resolve_lan(&self, lan: LanPlus) -> Result<Move, MoveErrorKind> {
        use tabia_notation::san::Lan;
        match lan.lan {
            Lan::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => self.resolve_uci_kind(
                UciMove::Normal {
                    from: convert::square(from),
                    to: convert::square(to),
                    promotion: promotion.map(convert::role),
                },
                Some(convert::role(role)),
                Some(capture),
            ),
            Lan::Castle(side) => {
                self.resolve_san_kind(shakmaty::san::San::Castle(convert::castling_side(side)))
            }
            Lan::Put { role, to } => self.resolve_uci_kind(
                UciMove::Put {
                    role: convert::role(role),
                    to: convert::square(to),
                },
                None,
                None,
            ),
            Lan::Null => Err(MoveErrorKind::NotAChessMove),
        }
    }

    /// The position after the move `text` (SAN, UCI or long algebraic).
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

impl FromStr for crate::PositionKey {
    type Err = ParsePositionError;

    /// The key of a position argument (see [`Position::from_arg`]).
    fn from_str(s: &str) -> Result<crate::PositionKey, ParsePositionError> {
        Position::from_arg(s).map(|pos| pos.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EpRule;

    #[test]
    fn position_arguments() {
        let fen = |s: &str| Position::from_arg(s).map(|p| p.fen(EpRule::Always));
        assert_eq!(
            fen("startpos").as_deref(),
            Ok("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        );
        assert_eq!(
            fen("  4k3/8/8/8/8/8/8/4K3  ").as_deref(),
            Ok("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
        );
        assert_eq!(
            fen("4k3/8/8/8/8/8/8/4K3 b - - bm Kd7; id \"x\";").as_deref(),
            Ok("4k3/8/8/8/8/8/8/4K3 b - - 0 1")
        );
        // A perft suite's line: a FEN, then operations led by `;`.
        assert_eq!(
            fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 9 ;D1 26 ;D2 568").as_deref(),
            Ok("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 9")
        );
        let err = Position::from_arg("4k3/8/8/8/8/8/8/4K3 w KQxq - 0 1").unwrap_err();
        assert!(matches!(err, ParsePositionError::Syntax(_)), "{err}");
        assert!(
            err.to_string().starts_with("invalid castling field"),
            "{err}"
        );
        let key: crate::PositionKey = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
            .parse()
            .expect("key");
        assert_eq!(
            key.to_string(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
        );
    }

    #[test]
    fn startpos_is_the_start_of_the_variant() {
        for name in [
            "horde",
            "racingkings",
            "antichess",
            "atomic",
            "crazyhouse",
            "chess960",
        ] {
            let variant = crate::parse_variant(name).expect("a variant");
            let editor = Editor::from_arg_variant("startpos", Some(variant)).expect("startpos");
            let problems = editor.problems_variant(variant);
            assert!(problems.is_empty(), "{name}: {problems:?}");
        }
        let horde = crate::parse_variant("horde").expect("horde");
        let explicit = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1";
        let editor = Editor::from_arg_variant(explicit, Some(horde)).expect("a FEN");
        assert_eq!(editor.problems_variant(horde), Vec::new());
    }

    #[test]
    fn moves_in_every_notation() {
        let pos = Position::new();
        for text in ["Nf3", "g1f3", "Ng1-f3", "Ng1f3", "Nf3!?"] {
            let m = pos.parse_move(text);
            assert_eq!(
                m.map(|m| pos.san(m).to_string()).as_deref(),
                Ok("Nf3"),
                "{text}"
            );
        }
        let err = pos.parse_move("Nf9").unwrap_err();
        assert!(err.to_string().starts_with("illegal move `Nf9`: "), "{err}");
        let err = pos.parse_move("Nxf3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "illegal move `Nxf3`: written as a capture, but there is nothing to take on f3"
        );
        let err = pos.parse_move("--").unwrap_err();
        assert_eq!(
            err.to_string(),
            "illegal move `--`: null moves and piece drops are not moves of chess"
        );
    }
}

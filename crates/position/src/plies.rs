//! [`EpdLines`]: the EPD (or FEN) of every ply of a game's mainline, one a line.

use tabia_notation::pgn::{Game, Move as Node, PgnReader, RawGame};

use crate::{
    check::CheckError,
    position::{EpRule, Position},
    replay::{ReplayError, Replayed, replay_mainline, start_position_with_warnings},
    stream::MainlineReplayer,
};

/// The positions of a game's mainline as text, one a line (Chess::PGN::EPD's `epdlist`, what
/// `tabia epd` writes): the EPD or the FEN after every ply, with the en-passant square the
/// caller's [`EpRule`] says, and the start position first when asked.
///
/// [`EpdLines::write_game`] replays a game as the reader reads it (no game tree; variations
/// are skipped unread); [`EpdLines::replay`] replays a parsed game, from another start if
/// need be, and hands each position to the caller.
///
/// ```
/// use tabia_notation::pgn::{Origin, RawGame};
/// use tabia_position::{EpRule, EpdLines};
///
/// let raw = RawGame { bytes: b"1. e4 (1. d4) e5 *".to_vec(), start: Origin::default() };
/// let lines = EpdLines { start: true, ..EpdLines::default() };
/// let mut out = Vec::new();
/// let replayed = lines.write_game(&raw, &mut out)?.expect("a game");
/// assert_eq!(replayed.plies, 2);
/// assert_eq!(
///     String::from_utf8(out)?,
///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
///      rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3\n\
///      rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6\n\n"
/// );
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EpdLines {
    /// Full FEN (with the clocks) instead of EPD.
    pub fen: bool,
    /// Which en-passant square to write.
    pub ep: EpRule,
    /// Also the start position, before the first ply.
    pub start: bool,
}

impl EpdLines {
    /// Writes `pos` as EPD or FEN, without a line end.
    ///
    /// ```
    /// use tabia_position::{EpRule, EpdLines, Position};
    ///
    /// let mut out = Vec::new();
    /// EpdLines { fen: true, ..EpdLines::default() }.write(&mut out, &Position::new());
    /// assert_eq!(out, b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /// ```
    #[inline]
    pub fn write(&self, out: &mut Vec<u8>, pos: &Position) {
        if self.fen {
            pos.write_fen(out, self.ep);
        } else {
            pos.write_epd(out, self.ep);
        }
    }

    /// Reads the game in `raw` (as the PGN splitter gives it: its origin makes the lines and
    /// columns of errors and warnings the input's) and replays its mainline as it is read,
    /// then writes its lines to `out`, followed by a blank line. Gives the game replayed (its
    /// warnings: what was read leniently), or `None` when `raw` holds no game; a bad game
    /// writes nothing.
    ///
    /// # Errors
    ///
    /// [`CheckError::Syntax`]: the game cannot be read; [`CheckError::Rules`]: an illegal
    /// move, or a bad start position.
    pub fn write_game(
        &self,
        raw: &RawGame,
        out: &mut Vec<u8>,
    ) -> Result<Option<Replayed>, CheckError> {
        let mut plies = Vec::new();
        let mut replayer = MainlineReplayer::new(|pos: &Position, _, _| {
            self.write(&mut plies, pos);
            plies.push(b'\n');
        });
        let capacity = raw.bytes.len().saturating_add(4096);
        let mut reader = PgnReader::with_capacity(capacity, &raw.bytes[..]).with_origin(raw.start);
        let replayed = reader.read_game(&mut replayer);
        drop(replayer);
        let replayed = match replayed {
            Ok(Some(Ok(replayed))) => replayed,
            Ok(Some(Err(err))) => return Err(CheckError::Rules(err)),
            Ok(None) => return Ok(None),
            Err(err) => return Err(CheckError::Syntax(err)),
        };
        if self.start {
            self.write(out, &replayed.start);
            out.push(b'\n');
        }
        out.extend_from_slice(&plies);
        out.push(b'\n');
        Ok(Some(replayed))
    }

    /// Replays the mainline of `game` from `from` (else from the position its tags give),
    /// calling `f(position, ply, move)` for the start position (ply 0, no move) when
    /// [`EpdLines::start`] says so, then after every ply with the move that led there. The
    /// warnings of the result are those of the start position, then those of the moves.
    ///
    /// ```
    /// use tabia_position::{EpdLines, Position};
    ///
    /// let game = "1. e4 e5 *".parse()?;
    /// let lines = EpdLines { start: true, ..EpdLines::default() };
    /// let mut seen = Vec::new();
    /// let replayed = lines.replay(&game, None, |pos, ply, mv| {
    ///     let mut epd = Vec::new();
    ///     lines.write(&mut epd, pos);
    ///     seen.push((ply, mv.map(|m| m.san.to_string()), String::from_utf8(epd).unwrap()));
    /// })?;
    /// assert_eq!(replayed.plies, 2);
    /// assert_eq!(seen[0], (0, None, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -".into()));
    /// assert_eq!(seen[2].1.as_deref(), Some("e5"));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first illegal move, or a bad start position ([`ReplayError`]).
    pub fn replay(
        &self,
        game: &Game,
        from: Option<&Position>,
        mut f: impl FnMut(&Position, u32, Option<&Node>),
    ) -> Result<Replayed, ReplayError> {
        let mut warnings = Vec::new();
        let start = if self.start || from.is_some() {
            let start = match from {
                Some(from) => from.clone(),
                None => {
                    let (start, found) = start_position_with_warnings(game)?;
                    warnings = found;
                    start
                }
            };
            if self.start {
                f(&start, 0, None);
            }
            Some(start)
        } else {
            None
        };
        let mut replayed =
            replay_mainline(game, start, |ply| f(ply.position, ply.ply, Some(ply.node)))?;
        if !warnings.is_empty() {
            warnings.append(&mut replayed.warnings);
            replayed.warnings = warnings;
        }
        Ok(replayed)
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::Origin;

    use super::*;

    fn raw(text: &str) -> RawGame {
        RawGame {
            bytes: text.as_bytes().to_vec(),
            start: Origin::default(),
        }
    }

    #[test]
    fn fen_lines_have_the_clocks() {
        let lines = EpdLines {
            fen: true,
            ..EpdLines::default()
        };
        let mut out = Vec::new();
        lines.write_game(&raw("1. Nf3 *"), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\n\n"
        );
    }

    #[test]
    fn a_bad_game_writes_nothing() {
        let mut out = b"before\n".to_vec();
        let err = EpdLines::default()
            .write_game(&raw("1. e4 e5 2. Ke3 *"), &mut out)
            .unwrap_err();
        assert!(matches!(err, CheckError::Rules(_)), "{err:?}");
        assert_eq!(
            err.to_string(),
            "illegal move 2. Ke3 (ply 3): no white king can go to e3"
        );
        let err = EpdLines::default()
            .write_game(&raw("1. e4 {"), &mut out)
            .unwrap_err();
        assert!(matches!(err, CheckError::Syntax(_)), "{err:?}");
        assert_eq!(out, b"before\n");
        assert!(
            EpdLines::default()
                .write_game(&raw(""), &mut out)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn the_tree_gives_the_lines_the_reader_gives() {
        let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 2. Ke2 *";
        let lines = EpdLines {
            start: true,
            ..EpdLines::default()
        };
        let mut streamed = Vec::new();
        lines.write_game(&raw(text), &mut streamed).unwrap();
        let mut replayed = Vec::new();
        let game = text.parse().unwrap();
        lines
            .replay(&game, None, |pos, _, _| {
                lines.write(&mut replayed, pos);
                replayed.push(b'\n');
            })
            .unwrap();
        replayed.push(b'\n');
        assert_eq!(streamed, replayed);
    }

    #[test]
    fn replay_from_another_start() {
        let game = "1. e4 *".parse().unwrap();
        let from = Position::from_arg("4k3/8/8/8/8/8/4P3/4K3 w - -").unwrap();
        let mut plies = Vec::new();
        let replayed = EpdLines::default()
            .replay(&game, Some(&from), |pos, ply, _| {
                plies.push((ply, pos.epd(EpRule::Legal)));
            })
            .unwrap();
        assert_eq!(replayed.start, from);
        assert_eq!(plies, [(1, "4k3/8/8/8/4P3/8/8/4K3 b - -".to_owned())]);
    }
}

//! [`MainlineReplayer`]: replay while the PGN reader reads, without building a game tree.

use shakmaty::{Bitboard, Move};
use tabia_notation::pgn::{
    Origin, Outcome, RawTag, SanPlus, Skip, Visitor, Warning as ReaderWarning,
};

use crate::{
    lenient,
    outcome::History,
    position::Position,
    replay::{ReplayError, ReplayErrorKind, Replayed, ResultWatch, StartTags},
    warning::ReplayWarning,
};

/// A PGN [`Visitor`] that replays the mainline of each game as it is read (variations are
/// skipped), honouring the `FEN` and `Variant` tags, and calls `f(position, move, ply)` after
/// every ply (the move is `None` for a null move, `--`). Each game gives a [`Replayed`] (with
/// the warnings of what was read leniently, as [`check_game`](crate::check_game) gives them
/// for the mainline) or the first [`ReplayError`]. On this fast path [`Replayed::termination`]
/// is only computed when asked for ([`MainlineReplayer::with_outcome`]; repetitions are not
/// tracked).
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_position::{EpRule, MainlineReplayer};
///
/// let pgn = b"1. e4 e5 (1... c5) 2. Nf3 *\n\n1. e4 e5 2. Ke3 *\n";
/// let mut epds = Vec::new();
/// let mut replayer = MainlineReplayer::new(|pos: &tabia_position::Position, _, _| epds.push(pos.epd(EpRule::Legal)));
/// let mut reader = PgnReader::new(&pgn[..]);
/// let first = reader.read_game(&mut replayer)?.expect("a game");
/// assert_eq!(first.map(|done| done.plies), Ok(3));
/// let second = reader.read_game(&mut replayer)?.expect("a game");
/// assert_eq!(second.unwrap_err().to_string(), "illegal move 2. Ke3 (ply 3): no white king can go to e3");
/// drop(replayer);
/// assert_eq!(epds.len(), 5);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct MainlineReplayer<F> {
    f: F,
    tags: StartTags,
    end: ResultWatch,
    begin: Position,
    pos: Position,
    /// The pieces giving check in `pos`: found once per move, for its check mark and for the
    /// resolution of the next move.
    checkers: Bitboard,
    ply: u32,
    error: Option<ReplayError>,
    outcome: bool,
    warnings: Vec<ReplayWarning>,
}

impl<F: FnMut(&Position, Option<Move>, u32)> MainlineReplayer<F> {
    /// A replayer calling `f` after every ply.
    pub fn new(f: F) -> MainlineReplayer<F> {
        MainlineReplayer {
            f,
            tags: StartTags::default(),
            end: ResultWatch::default(),
            begin: Position::new(),
            pos: Position::new(),
            checkers: Bitboard::EMPTY,
            ply: 0,
            error: None,
            outcome: false,
            warnings: Vec::new(),
        }
    }

    /// Also computes how each game stands at its end (mate, stalemate, dead position, the 50-
    /// and 75-move rules), at the cost of a move generation per game.
    #[must_use]
    pub fn with_outcome(mut self) -> MainlineReplayer<F> {
        self.outcome = true;
        self
    }

    /// The position reached so far: the game's start once its movetext begins, then the
    /// position after each move played (what a caller needs of the position *before* a move,
    /// read before the move is given to the replayer).
    ///
    /// ```
    /// use tabia_notation::pgn::{Origin, Visitor};
    /// use tabia_position::{EpRule, MainlineReplayer, Position};
    ///
    /// let mut replayer = MainlineReplayer::new(|_: &Position, _, _| {});
    /// replayer.begin_game(Origin::default());
    /// replayer.tag(b"FEN", tabia_notation::pgn::RawTag(b"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
    /// replayer.begin_movetext();
    /// assert_eq!(replayer.position().epd(EpRule::Legal), "4k3/8/8/8/8/8/4P3/4K3 w - -");
    /// ```
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

impl<F: FnMut(&Position, Option<Move>, u32)> Visitor for MainlineReplayer<F> {
    type Output = Result<Replayed, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.tags.clear();
        self.end.begin(start);
        self.ply = 0;
        self.error = None;
        self.warnings.clear();
        Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        if name == b"Result" {
            self.end.result_tag(value);
        } else {
            self.tags.tag(name, value);
        }
    }

    fn begin_movetext(&mut self) -> Skip {
        if self.tags.is_default() {
            self.begin = Position::new();
        } else {
            match self.tags.start_with_warnings(self.end.start()) {
                Ok((pos, warnings)) => {
                    self.begin = pos;
                    self.warnings = warnings;
                }
                Err(err) => {
                    self.error = Some(err);
                    return Skip(true);
                }
            }
        }
        self.pos = self.begin.clone();
        self.checkers = self.pos.checkers();
        Skip(false)
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        if self.error.is_some() {
            return;
        }
        self.ply += 1;
        self.end.mainline_move(at);
        let resolved = match san.san {
            tabia_notation::san::San::Null => {
                if self.pos.play_null() {
                    self.checkers = self.pos.checkers();
                    (self.f)(&self.pos, None, self.ply);
                    return;
                }
                Err(crate::moves::MoveErrorKind::NullMoveInCheck)
            }
            _ => lenient::resolve(&self.pos, san, Some(self.checkers)),
        };
        match resolved {
            Ok((m, repair)) => {
                self.pos.play_unchecked(m);
                self.checkers = self.pos.checkers();
                let checks = self.checkers.any();
                if let Some(repair) = repair.or_else(|| lenient::check_mark(&self.pos, san, checks))
                {
                    self.repaired(repair, san, at);
                }
                (self.f)(&self.pos, Some(m), self.ply);
            }
            Err(kind) => {
                let error = crate::moves::MoveError::new(san.san.to_string(), kind);
                self.error = Some(ReplayError::new(
                    ReplayErrorKind::IllegalMove {
                        numbered: lenient::numbered_before(&self.pos, san),
                        ply: self.ply,
                        in_variation: false,
                        error,
                    },
                    Some(at),
                ));
            }
        }
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.end.outcome(outcome);
    }

    fn warning(&mut self, warning: ReaderWarning) {
        self.warnings.extend(self.end.reader_warning(warning));
    }

    fn end_game(&mut self) -> Result<Replayed, ReplayError> {
        if let Some(err) = self.error.take() {
            return Err(err);
        }
        // Mate and stalemate are looked for only when a result could contradict them.
        let termination = if self.outcome || self.end.needs_board() {
            self.pos.termination(&History::new())
        } else {
            None
        };
        let mut warnings = std::mem::take(&mut self.warnings);
        self.end.warnings(termination, &mut warnings);
        Ok(Replayed {
            start: self.begin.clone(),
            end: self.pos.clone(),
            plies: self.ply,
            termination: termination.filter(|_| self.outcome),
            warnings,
        })
    }
}

impl<F: FnMut(&Position, Option<Move>, u32)> MainlineReplayer<F> {
    /// Notes a repaired move.
    #[cold]
    fn repaired(&mut self, repair: lenient::Repair, written: SanPlus, at: Origin) {
        let numbered = lenient::numbered_after(&self.pos, written);
        self.warnings.push(repair.warning(numbered, written, at));
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::PgnReader;

    use super::*;
    use crate::Termination;

    /// The result against the board, as the checker and the tree path see it: the first
    /// `Result` tag counts, a missing result is read from it, a mate decides.
    #[test]
    fn result_warnings_as_the_checker_gives_them() {
        for text in [
            "[Result \"1-0\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
            "[Result \"0-1\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
            "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4#\n",
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n",
            "[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n\n1-0\n",
            "1. e4 e5 *\n",
        ] {
            let mut replayer = MainlineReplayer::new(|_: &Position, _, _| {});
            let ours = PgnReader::new(text.as_bytes())
                .read_game(&mut replayer)
                .expect("read")
                .expect("a game")
                .expect("legal")
                .warnings;
            let checked = crate::check_reader(text.as_bytes())
                .next()
                .expect("a game")
                .expect("read")
                .expect("legal")
                .warnings;
            assert_eq!(ours, checked, "{text}");
            let tree = crate::check_game(&text.parse().expect("a game"))
                .expect("legal")
                .warnings;
            assert_eq!(ours, tree, "{text}");
        }
    }

    #[test]
    fn outcome_only_when_asked() {
        let pgn = b"[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n1. Qf7 *\n";
        let mut plain = MainlineReplayer::new(|_: &Position, _, _| {});
        let done = PgnReader::new(&pgn[..])
            .read_game(&mut plain)
            .expect("read")
            .expect("a game")
            .expect("legal");
        assert_eq!((done.plies, done.termination), (1, None));
        let mut with = MainlineReplayer::new(|_: &Position, _, _| {}).with_outcome();
        let done = PgnReader::new(&pgn[..])
            .read_game(&mut with)
            .expect("read")
            .expect("a game")
            .expect("legal");
        assert_eq!(done.termination, Some(Termination::Stalemate));
        assert_eq!(
            done.start.fen(crate::EpRule::Always),
            "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"
        );
    }
}

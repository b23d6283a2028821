//! [`MainlineReplayer`]: replay while the PGN reader reads, without building a game tree.

use shakmaty::Move;
use tabia_notation::pgn::{
    Origin, Outcome, RawTag, SanPlus, Skip, Visitor, Warning as ReaderWarning,
    WarningKind as ReaderWarningKind,
};

use crate::{
    lenient,
    outcome::History,
    position::Position,
    replay::{GameEnd, ReplayError, ReplayErrorKind, Replayed, StartTags},
    warning::{Warning, WarningKind},
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
/// use tabia_notation::pgn::Reader;
/// use tabia_position::{EpRule, MainlineReplayer};
///
/// let pgn = b"1. e4 e5 (1... c5) 2. Nf3 *\n\n1. e4 e5 2. Ke3 *\n";
/// let mut epds = Vec::new();
/// let mut replayer = MainlineReplayer::new(|pos: &tabia_position::Position, _, _| epds.push(pos.epd(EpRule::Legal)));
/// let mut reader = Reader::new(&pgn[..]);
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
    start: Origin,
    begin: Position,
    pos: Position,
    ply: u32,
    error: Option<ReplayError>,
    outcome: bool,
    warnings: Vec<Warning>,
    result_tag: Option<String>,
    marker: Outcome,
    missing: Option<Origin>,
    last: Option<Origin>,
}

impl<F: FnMut(&Position, Option<Move>, u32)> MainlineReplayer<F> {
    /// A replayer calling `f` after every ply.
    pub fn new(f: F) -> MainlineReplayer<F> {
        MainlineReplayer {
            f,
            tags: StartTags::default(),
            start: Origin::default(),
            begin: Position::new(),
            pos: Position::new(),
            ply: 0,
            error: None,
            outcome: false,
            warnings: Vec::new(),
            result_tag: None,
            marker: Outcome::Unknown,
            missing: None,
            last: None,
        }
    }

    /// Also computes how each game stands at its end (mate, stalemate, dead position, the 50-
    /// and 75-move rules), at the cost of a move generation per game.
    #[must_use]
    pub fn with_outcome(mut self) -> MainlineReplayer<F> {
        self.outcome = true;
        self
    }
}

impl<F: FnMut(&Position, Option<Move>, u32)> Visitor for MainlineReplayer<F> {
    type Output = Result<Replayed, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.tags.clear();
        self.start = start;
        self.ply = 0;
        self.error = None;
        self.warnings.clear();
        self.result_tag = None;
        self.marker = Outcome::Unknown;
        self.missing = None;
        self.last = None;
        Skip(false)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        if name == b"Result" {
            self.result_tag = Some(value.decode().into_owned());
        } else {
            self.tags.tag(name, value);
        }
    }

    fn begin_movetext(&mut self) -> Skip {
        if self.tags.is_default() {
            self.begin = Position::new();
        } else {
            match self.tags.start_with_warnings(self.start) {
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
        Skip(false)
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        if self.error.is_some() {
            return;
        }
        self.ply += 1;
        self.last = Some(at);
        let resolved = match san.san {
            tabia_notation::san::San::Null => {
                if self.pos.play_null() {
                    (self.f)(&self.pos, None, self.ply);
                    return;
                }
                Err(crate::moves::MoveErrorKind::NullMoveInCheck)
            }
            _ => lenient::resolve(&self.pos, san),
        };
        match resolved {
            Ok((m, repair)) => {
                self.pos.play_unchecked(m);
                if let Some(repair) = repair.or_else(|| lenient::check_mark(&self.pos, san)) {
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
        self.marker = outcome;
    }

    fn warning(&mut self, warning: ReaderWarning) {
        match warning.kind {
            ReaderWarningKind::MissingResult => self.missing = Some(warning.at),
            kind => self
                .warnings
                .push(Warning::new(WarningKind::Reader(kind), Some(warning.at))),
        }
    }

    fn end_game(&mut self) -> Result<Replayed, ReplayError> {
        if let Some(err) = self.error.take() {
            return Err(err);
        }
        let end = GameEnd {
            tag: self.result_tag.as_deref(),
            marker: self.marker,
            missing: self.missing,
            start: self.start,
            last: self.last,
        };
        // Mate and stalemate are looked for only when a result could contradict them.
        let termination = if self.outcome || end.result() != Outcome::Unknown {
            self.pos.termination(&History::new())
        } else {
            None
        };
        let mut warnings = std::mem::take(&mut self.warnings);
        end.warnings(termination, &mut warnings);
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
    use tabia_notation::pgn::Reader;

    use super::*;
    use crate::Termination;

    #[test]
    fn outcome_only_when_asked() {
        let pgn = b"[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n1. Qf7 *\n";
        let mut plain = MainlineReplayer::new(|_: &Position, _, _| {});
        let done = Reader::new(&pgn[..])
            .read_game(&mut plain)
            .expect("read")
            .expect("a game")
            .expect("legal");
        assert_eq!((done.plies, done.termination), (1, None));
        let mut with = MainlineReplayer::new(|_: &Position, _, _| {}).with_outcome();
        let done = Reader::new(&pgn[..])
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

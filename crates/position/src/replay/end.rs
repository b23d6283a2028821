//! The end of a game: its result (tag, marker, a missing one) against the board.

use tabia_notation::pgn::{
    Game, Origin, Outcome, RawTag, Warning as PgnWarning, WarningKind as PgnWarningKind,
};

use crate::{
    outcome::Termination,
    warning::{ReplayWarning, ReplayWarningKind},
};

/// The warnings of a game's end, from what the reader saw (a missing result) and the board
/// (see [`GameEnd::warnings`]).
pub(crate) fn game_end_warnings(
    game: &Game,
    termination: Option<Termination>,
    last: Option<Origin>,
    warnings: &mut Vec<ReplayWarning>,
) {
    let mut missing = None;
    let moves = warnings.len();
    for warning in &game.warnings {
        match warning.kind {
            PgnWarningKind::MissingResult => missing = Some(warning.at),
            _ => warnings.push(ReplayWarning::new(
                ReplayWarningKind::Reader(warning.kind),
                Some(warning.at),
            )),
        }
    }
    if moves > 0 && warnings.len() > moves {
        crate::warning::in_input_order(warnings);
    }
    let end = GameEnd {
        tag: game.tag("Result"),
        marker: game.result,
        missing,
        start: game.start,
        last,
    };
    end.warnings(termination, warnings);
}

/// What is known of a game's result: its `Result` tag, the marker that ends its movetext
/// (`*` when missing, and then where it is missing), where the game starts and its last move.
pub(crate) struct GameEnd<'a> {
    pub(crate) tag: Option<&'a str>,
    pub(crate) marker: Outcome,
    pub(crate) missing: Option<Origin>,
    pub(crate) start: Origin,
    pub(crate) last: Option<Origin>,
}

impl GameEnd<'_> {
    /// The result read: the marker; when it is missing, the `Result` tag if it is a result.
    pub(crate) fn result(&self) -> Outcome {
        match (self.missing, self.tag.map(str::trim)) {
            (Some(_), Some("1-0")) => Outcome::WhiteWins,
            (Some(_), Some("0-1")) => Outcome::BlackWins,
            (Some(_), Some("1/2-1/2")) => Outcome::Draw,
            _ => self.marker,
        }
    }

    /// The warnings about the result: a missing one (read as the `Result` tag says, else `*`),
    /// a `Result` tag that disagrees with the marker (the marker wins), and a result that a
    /// mate, stalemate or variant ending on the board contradicts (kept). Only these decide a
    /// result beyond doubt: databases score time forfeits against a bare king, and games drawn
    /// by the 75-move rule or fivefold repetition, in ways a check would flag wrongly.
    pub(crate) fn warnings(
        &self,
        termination: Option<Termination>,
        warnings: &mut Vec<ReplayWarning>,
    ) {
        let result = self.result();
        if let Some(at) = self.missing {
            warnings.push(ReplayWarning::new(
                ReplayWarningKind::MissingResult {
                    read_as: result.as_str().to_owned(),
                },
                Some(at),
            ));
        } else if let Some(tag) = self.tag.map(str::trim)
            && tag != self.marker.as_str()
        {
            // Tag mismatches are about the tags: shown where the game starts, before the moves.
            let at = warnings
                .iter()
                .position(|w| w.origin().is_none_or(|o| o.offset > self.start.offset))
                .unwrap_or(warnings.len());
            warnings.insert(
                at,
                ReplayWarning::new(
                    ReplayWarningKind::ResultTagMismatch {
                        tag: tag.to_owned(),
                        marker: self.marker.as_str().to_owned(),
                    },
                    Some(self.start),
                ),
            );
        }
        let decided = |t: &Termination| {
            matches!(
                t,
                Termination::Checkmate { .. }
                    | Termination::Stalemate
                    | Termination::VariantEnd { .. }
            )
        };
        if let Some(termination) = termination.filter(decided)
            && result != Outcome::Unknown
            && result.as_str() != termination.result()
        {
            warnings.push(ReplayWarning::new(
                ReplayWarningKind::ResultMismatch {
                    result: result.as_str().to_owned(),
                    termination,
                },
                Some(self.last.unwrap_or(self.start)),
            ));
        }
    }
}

/// What a visitor that replays while the reader reads ([`Checker`](crate::Checker),
/// [`MainlineReplayer`](crate::MainlineReplayer)) gathers of a game's result, and the game's
/// end from it: the [`GameEnd`] of the tree path, without the tree.
#[derive(Debug, Clone, Default)]
pub(crate) struct ResultWatch {
    /// The first `Result` tag (as [`Game::tag`] gives it).
    tag: Option<String>,
    marker: Outcome,
    /// Where the reader found the result missing.
    missing: Option<Origin>,
    start: Origin,
    /// Where the last mainline move is.
    last: Option<Origin>,
}

impl ResultWatch {
    /// Forgets the last game; the next starts at `start`.
    pub(crate) fn begin(&mut self, start: Origin) {
        *self = ResultWatch {
            start,
            ..ResultWatch::default()
        };
    }

    /// Where the game starts.
    pub(crate) fn start(&self) -> Origin {
        self.start
    }

    /// Reads a `Result` tag (the first counts).
    pub(crate) fn result_tag(&mut self, value: RawTag<'_>) {
        if self.tag.is_none() {
            self.tag = Some(value.decode().into_owned());
        }
    }

    /// Notes a move of the mainline, at `at`.
    #[inline]
    pub(crate) fn mainline_move(&mut self, at: Origin) {
        self.last = Some(at);
    }

    /// Reads the termination marker.
    pub(crate) fn outcome(&mut self, marker: Outcome) {
        self.marker = marker;
    }

    /// Reads a warning of the reader: a missing result is kept for the end of the game; any
    /// other is given back as the game's warning.
    pub(crate) fn reader_warning(&mut self, warning: PgnWarning) -> Option<ReplayWarning> {
        match warning.kind {
            PgnWarningKind::MissingResult => {
                self.missing = Some(warning.at);
                None
            }
            kind => Some(ReplayWarning::new(
                ReplayWarningKind::Reader(kind),
                Some(warning.at),
            )),
        }
    }

    fn end(&self) -> GameEnd<'_> {
        GameEnd {
            tag: self.tag.as_deref(),
            marker: self.marker,
            missing: self.missing,
            start: self.start,
            last: self.last,
        }
    }

    /// Whether the board can contradict the result: only when there is one (`*` needs no
    /// move generation at the end of the game).
    pub(crate) fn needs_board(&self) -> bool {
        self.end().result() != Outcome::Unknown
    }

    /// The warnings of the game's end (see [`GameEnd::warnings`]), from `termination`, how
    /// the final position ends the game (looked for when [`ResultWatch::needs_board`]).
    pub(crate) fn warnings(
        &self,
        termination: Option<Termination>,
        warnings: &mut Vec<ReplayWarning>,
    ) {
        self.end().warnings(termination, warnings);
    }
}

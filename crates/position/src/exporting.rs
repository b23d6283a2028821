//! [`Exporting`]: an [`Exporter`] whose verdict on each game carries the game's text.

use tabia_notation::pgn::{
    Nag, Origin, Outcome, RawComment, RawTag, SanPlus, Skip, Visitor, Warning as ReaderWarning,
};

use crate::{check::Checked, export::Exporter, replay::ReplayError};

/// A PGN [`Visitor`] that exports each game as the [`Exporter`] does and hands its text over
/// with the verdict ([`ExportedGame`]), for a caller that writes the games once a whole piece
/// of the input is read (a worker of `tabia_stream::Pipeline::run_games`, as `tabia pgn`'s
/// workers are) rather than one at a time.
///
/// ```
/// use tabia_notation::pgn::PgnReader;
/// use tabia_position::Exporting;
///
/// let pgn = b"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0\n\n1. e4 (1. d4) $1 *\n\n1. Ke2 Ke7 2. Ke4 *\n";
/// let mut reader = PgnReader::new(&pgn[..]);
/// let mut exporting = Exporting::default();
/// let mut games = Vec::new();
/// while let Some(game) = reader.read_game(&mut exporting)? {
///     games.push(game);
/// }
/// let text = games[0].text.as_deref().expect("written as read");
/// assert!(text.ends_with(b"4. Qxf7# 1-0"));
/// assert_eq!(games[0].verdict.as_ref().map(|c| c.warnings.len()).ok(), Some(1));
/// // The NAG goes before the variation in the export: only the tree writes it.
/// assert!(games[1].verdict.is_ok() && games[1].text.is_none());
/// // An illegal move: no text.
/// assert!(games[2].verdict.is_err() && games[2].text.is_none());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Exporting(Exporter);

/// The [`Exporting`] visitor's output for a game: the checker's verdict, and the game's text
/// in export format when it was written as read (`None` for a bad game, or a game whose
/// export needs its tree: see [`Exporter::text`]).
#[derive(Debug)]
pub struct ExportedGame {
    /// The game's checks: its warnings, or the first broken rule.
    pub verdict: Result<Checked, ReplayError>,
    /// The game in export format (its tags, a blank line, its movetext; no line end).
    pub text: Option<Vec<u8>>,
}

impl Exporting {
    /// The exporter within.
    pub fn exporter(&self) -> &Exporter {
        &self.0
    }
}

// Inlined where the reader is instantiated, as the exporter's own methods are called: a
// call per move through this wrapper would cost `tabia pgn` some 0.4% of its instructions.
impl Visitor for Exporting {
    type Output = ExportedGame;

    #[inline]
    fn begin_game(&mut self, start: Origin) -> Skip {
        self.0.begin_game(start)
    }

    #[inline]
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        self.0.tag(name, value);
    }

    #[inline]
    fn begin_movetext(&mut self) -> Skip {
        self.0.begin_movetext()
    }

    #[inline]
    fn san(&mut self, san: SanPlus, at: Origin) {
        self.0.san(san, at);
    }

    #[inline]
    fn skip_rest(&mut self) -> Skip {
        self.0.skip_rest()
    }

    #[inline]
    fn nag(&mut self, nag: Nag) {
        self.0.nag(nag);
    }

    #[inline]
    fn partial_comment(&mut self, comment: RawComment<'_>) {
        self.0.partial_comment(comment);
    }

    #[inline]
    fn comment(&mut self, comment: RawComment<'_>) {
        self.0.comment(comment);
    }

    #[inline]
    fn begin_variation(&mut self) -> Skip {
        self.0.begin_variation()
    }

    #[inline]
    fn end_variation(&mut self) {
        self.0.end_variation();
    }

    #[inline]
    fn outcome(&mut self, outcome: Outcome) {
        self.0.outcome(outcome);
    }

    #[inline]
    fn warning(&mut self, warning: ReaderWarning) {
        self.0.warning(warning);
    }

    #[inline]
    fn end_game(&mut self) -> ExportedGame {
        let verdict = self.0.end_game();
        let text = verdict
            .as_ref()
            .ok()
            .and_then(|_| self.0.bytes())
            .map(<[u8]>::to_vec);
        ExportedGame { verdict, text }
    }
}

#[cfg(test)]
mod tests {
    use tabia_notation::pgn::PgnReader;

    use super::*;

    #[test]
    fn the_text_is_the_exporters() {
        let pgn = b"[White \"Tal\"]\n\n1. e4 e5 {a comment} 2. Nf3 *\n";
        let mut exporter = Exporter::new();
        PgnReader::new(&pgn[..]).read_game(&mut exporter).unwrap();
        let mut exporting = Exporting::default();
        let game = PgnReader::new(&pgn[..])
            .read_game(&mut exporting)
            .unwrap()
            .unwrap();
        assert_eq!(game.text.as_deref(), exporter.bytes());
        assert_eq!(exporting.exporter().bytes(), exporter.bytes());
    }
}

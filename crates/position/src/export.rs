//! [`Exporter`]: each game checked as a [`Checker`] checks it and written in PGN export format
//! while the reader reads it, with no game tree.

use tabia_notation::pgn::{
    MovetextWriter, Nag, Origin, Outcome, RawComment, RawTag, SanPlus, Skip, Visitor,
    Warning as ReaderWarning, WriteOptions, push_tag, write_export_tags,
};

use crate::{
    check::{Checked, Checker},
    position::EpRule,
    replay::{ReplayError, TagRepairs, set_tag},
};

/// What came after the last move of an open line: the tree puts a move's NAGs before its
/// comments and both before its variations, whatever their order in the text.
#[derive(Debug, Clone, Copy, Default)]
struct Line {
    /// The line has a move.
    moved: bool,
    /// A comment came after its last move.
    commented: bool,
    /// A variation of its last move was opened.
    varied: bool,
}

/// A PGN [`Visitor`] that checks each game as a [`Checker`] does and writes it as
/// [`repair_game`](crate::repair_game) then `Display` write it: the PGN export format, the
/// repairs of the warnings made (check marks, SAN for UCI, the `FEN` and `Result` tags), with
/// no game tree: the output of `tabia pgn` at the cost of a check.
///
/// Its output is the checker's verdict; the game's text is then [`Exporter::text`]. A game
/// whose export the tree would reorder (a NAG after a comment of the same move, a comment or
/// NAG after a variation, a variation before any move of its line) has no text: write it from
/// its tree instead. Every other game's text is byte for byte the tree's.
///
/// ```
/// use tabia_notation::pgn::{Game, PgnReader};
/// use tabia_position::{Exporter, repair_game};
///
/// let pgn = "[White \"Tal\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 1-0\n\n1. e4 (1. d4) $1 *\n";
/// let mut reader = PgnReader::new(pgn.as_bytes());
/// let mut exporter = Exporter::new();
/// let checked = reader.read_game(&mut exporter)?.expect("a game").expect("legal");
/// // The missing mate mark was repaired, and said.
/// assert_eq!(checked.warnings[0].to_string(), "move 4. Qxf7 mates, read as Qxf7#");
/// let text = exporter.text().expect("written");
/// assert!(text.ends_with("\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"));
/// let mut game: Game = pgn.split("\n\n1. e4 (").next().unwrap().parse()?;
/// repair_game(&mut game)?;
/// assert_eq!(game.to_string(), text);
/// // The tree writes the NAG before the variation: this game is written from its tree.
/// reader.read_game(&mut exporter)?.expect("a game").expect("legal");
/// assert_eq!(exporter.text(), None);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Exporter {
    checker: Checker,
    tags: Vec<(String, String)>,
    /// Tags of earlier games, their room kept for the next ones.
    spare: Vec<(String, String)>,
    movetext: MovetextWriter,
    result: Outcome,
    /// The open lines, the mainline first.
    lines: Vec<Line>,
    /// The pieces of a long comment read so far.
    partial: Vec<u8>,
    /// The game's export can only be written from its tree.
    tree_only: bool,
    /// The game written last: its tags, a blank line, its movetext (UTF-8).
    text: Vec<u8>,
    /// The length of its tag section (see [`Exporter::tags_len`]).
    tags_len: usize,
}

impl Default for Exporter {
    fn default() -> Exporter {
        Exporter {
            checker: Checker::new(),
            tags: Vec::new(),
            spare: Vec::new(),
            movetext: MovetextWriter::new(&WriteOptions::default()),
            result: Outcome::Unknown,
            lines: Vec::new(),
            partial: Vec::new(),
            tree_only: false,
            text: Vec::new(),
            tags_len: 0,
        }
    }
}

impl Exporter {
    /// An exporter, ready for the first game.
    pub fn new() -> Exporter {
        Exporter::default()
    }

    /// The export of the game read last when it passed the checks (tags, blank line,
    /// movetext, no line end after the result), or `None` when it did not, or when it is to be
    /// written from its tree (see [`Exporter`]).
    pub fn text(&self) -> Option<&str> {
        self.bytes()
            .map(|bytes| std::str::from_utf8(bytes).unwrap_or_default())
    }

    /// [`Exporter::text`] as bytes (always UTF-8), for a writer of bytes: not looked at again.
    ///
    /// ```
    /// use tabia_notation::pgn::PgnReader;
    /// use tabia_position::Exporter;
    ///
    /// let mut out = Vec::new();
    /// let mut reader = PgnReader::new(&b"1. e4 e5 *\n\n1. d4 1-0\n"[..]);
    /// let mut exporter = Exporter::new();
    /// while let Some(checked) = reader.read_game(&mut exporter)? {
    ///     checked.expect("legal");
    ///     out.extend_from_slice(exporter.bytes().expect("written"));
    ///     out.extend_from_slice(b"\n\n");
    /// }
    /// assert!(out.ends_with(b"[Result \"1-0\"]\n\n1. d4 1-0\n\n"));
    /// # Ok::<_, tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn bytes(&self) -> Option<&[u8]> {
        (!self.tree_only && !self.text.is_empty()).then_some(self.text.as_slice())
    }

    /// The length of the tag section of [`Exporter::bytes`] (its tags, each with its line
    /// end, before the blank line): where a tag added to the game's text goes.
    ///
    /// ```
    /// use tabia_notation::pgn::PgnReader;
    /// use tabia_position::Exporter;
    ///
    /// let mut reader = PgnReader::new(&b"[White \"Tal\"]\n\n1. e4 *\n"[..]);
    /// let mut exporter = Exporter::new();
    /// reader.read_game(&mut exporter)?.expect("a game").expect("legal");
    /// let text = exporter.text().expect("written");
    /// assert!(text[..exporter.tags_len()].ends_with("[Result \"*\"]\n"));
    /// assert_eq!(&text[exporter.tags_len()..], "\n1. e4 *");
    /// # Ok::<_, tabia_notation::pgn::ReadError>(())
    /// ```
    pub fn tags_len(&self) -> usize {
        self.tags_len
    }

    /// The checker inside: what it knows of the game being read ([`Checker::mainline`],
    /// [`Checker::mainline_moves`]).
    pub fn checker(&self) -> &Checker {
        &self.checker
    }

    /// The checker inside, to ask it for more ([`Checker::keep_mainline_moves`]).
    pub fn checker_mut(&mut self) -> &mut Checker {
        &mut self.checker
    }

    /// The line being read.
    fn line(&mut self) -> &mut Line {
        if self.lines.is_empty() {
            self.lines.push(Line::default());
        }
        let last = self.lines.len() - 1;
        &mut self.lines[last]
    }
}

impl Visitor for Exporter {
    type Output = Result<Checked, ReplayError>;

    fn begin_game(&mut self, start: Origin) -> Skip {
        self.spare.append(&mut self.tags);
        self.result = Outcome::Unknown;
        self.lines.clear();
        self.lines.push(Line::default());
        self.partial.clear();
        self.tree_only = false;
        self.text.clear();
        self.checker.begin_game(start)
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        push_tag(&mut self.tags, &mut self.spare, name, value);
        self.checker.tag(name, value);
    }

    fn begin_movetext(&mut self) -> Skip {
        let skip = self.checker.begin_movetext();
        if let Some((start, warnings)) = self.checker.start()
            && TagRepairs::of(warnings).fen
        {
            let fen = start.to_fen(EpRule::Always).to_string();
            set_tag(&mut self.tags, "FEN", fen);
        }
        let fen = self
            .tags
            .iter()
            .find(|(name, _)| name == "FEN")
            .map(|(_, value)| value.as_str());
        self.movetext.start(fen);
        skip
    }

    fn san(&mut self, san: SanPlus, at: Origin) {
        self.checker.san(san, at);
        let written = self.checker.take_fixed().unwrap_or(san);
        self.movetext.san(&written);
        *self.line() = Line {
            moved: true,
            ..Line::default()
        };
    }

    fn nag(&mut self, nag: Nag) {
        let line = *self.line();
        if !line.moved {
            // The tree has no move to hang it on, and drops it.
            return;
        }
        if line.commented || line.varied {
            self.tree_only = true;
            return;
        }
        self.movetext.nag(nag);
    }

    fn partial_comment(&mut self, comment: RawComment<'_>) {
        self.partial.extend_from_slice(comment.as_bytes());
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        let line = *self.line();
        if line.varied {
            self.tree_only = true;
        }
        if self.partial.is_empty() {
            self.movetext.comment_bytes(comment.as_bytes());
        } else {
            self.partial.extend_from_slice(comment.as_bytes());
            self.movetext.comment_bytes(&self.partial);
            self.partial.clear();
        }
        if line.moved {
            self.line().commented = true;
        }
    }

    fn begin_variation(&mut self) -> Skip {
        if !self.line().moved {
            // The tree has no move for it to be a variation of, and drops it.
            self.tree_only = true;
        }
        self.line().varied = true;
        self.lines.push(Line::default());
        self.movetext.begin_variation();
        self.checker.begin_variation()
    }

    fn end_variation(&mut self) {
        // As the tree: a `)` with no variation open is not written.
        if self.lines.len() > 1 {
            self.lines.pop();
            self.movetext.end_variation();
        }
        self.checker.end_variation();
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.result = outcome;
        self.checker.outcome(outcome);
    }

    fn warning(&mut self, warning: ReaderWarning) {
        self.checker.warning(warning);
    }

    fn end_game(&mut self) -> Result<Checked, ReplayError> {
        let checked = self.checker.end_game()?;
        if self.tree_only {
            return Ok(checked);
        }
        if let Some((marker, tag)) = TagRepairs::of(&checked.warnings).result {
            self.result = marker;
            set_tag(&mut self.tags, "Result", tag);
        }
        // The tags are written as text, into the game's (empty) buffer, its room kept.
        self.text.clear();
        let mut text = String::from_utf8(std::mem::take(&mut self.text)).unwrap_or_default();
        write_export_tags(&self.tags, self.result, &mut text);
        // Without the blank line.
        self.tags_len = text.len() - 1;
        self.text = text.into_bytes();
        self.text
            .extend_from_slice(self.movetext.end_bytes(self.result));
        Ok(checked)
    }
}

//! [`Form`]: the output form of commands that write games.

use std::fmt;

use tabia_eco::{ClassifyError, Table};
use tabia_notation::pgn::{Game, MoveText, Origin, SanText, Strip, WriteOptions};
use tabia_position::{MoveWriter, Notation, ReplayError, ReplayTags};

/// How games are written: what is stripped, what is added, how moves are spelled, how the
/// text is laid out, and whether variations become games of their own.
///
/// The steps, in order: [`Form::strip`] the tree; [`Form::split_variations`]; for each game,
/// add the tags ([`Form::replay_tags`], [`Form::eco`]); write it in [`Form::notation`] with
/// [`Form::options`] (and a FEN comment after every move with [`Form::fen_comments`]).
///
/// ```
/// use tabia_collect::Form;
/// use tabia_notation::pgn::Game;
/// use tabia_position::Notation;
///
/// let game: Game = "[White \"Tal\"]\n\n1. e4 {best} e5 (1... c5) 2. Nf3 1-0".parse()?;
/// let mut form = Form::default();
/// form.notation = Notation::Uci;
/// form.strip.comments = true;
/// form.strip.variations = true;
/// form.options.tags = false;
/// form.options.move_numbers = false;
/// let mut out = Vec::new();
/// assert_eq!(form.write(game, &mut out)?, 1);
/// assert_eq!(String::from_utf8(out)?, "e2e4 e7e5 g1f3 1-0\n\n");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Form {
    /// What to remove from each game first.
    pub strip: Strip,
    /// Write every variation also as a game of its own (down to this many levels when
    /// `Some(Some(n))`), as [`Game::split_variations`] does.
    pub split_variations: Option<Option<usize>>,
    /// `PlyCount`, `Zobrist`, `FinalFEN` tags from a replay of the mainline.
    pub replay_tags: ReplayTags,
    /// `ECO`, `Opening`, `Variation` tags from the embedded ECO table (by position).
    pub eco: bool,
    /// How moves are spelled.
    pub notation: Notation,
    /// A comment with the FEN after every move.
    pub fen_comments: bool,
    /// Layout: tags, move numbers, result, line length, piece letters.
    pub options: WriteOptions,
}

impl Form {
    /// Whether this is the plain export format (every game written as `Display` does).
    pub fn is_export(&self) -> bool {
        *self == Form::default()
    }

    /// What ends each game in the output: a blank line, or a line end when each game is on
    /// one line ([`WriteOptions::line_length`] `0`).
    pub fn separator(&self) -> &'static str {
        if self.options.line_length == 0 {
            "\n"
        } else {
            "\n\n"
        }
    }

    /// Writes `game` in this form to `out`, each game followed by [`Form::separator`];
    /// returns how many games were written (more than one with
    /// [`Form::split_variations`]).
    ///
    /// # Errors
    ///
    /// A tag to add needs a replay or a classification, and the game's moves are not legal
    /// (nothing is written then). Games checked with `tabia_position::check_game` first
    /// never fail.
    pub fn write(&self, game: Game, out: &mut Vec<u8>) -> Result<usize, FormError> {
        self.write_marked(game, out, &mut Vec::new())
    }

    /// Like [`Form::write`], and pushes to `marks`, for each game written, the offset in
    /// `out` where [`Form::tag_text`] inserts a tag (after the game's last tag).
    ///
    /// ```
    /// use tabia_collect::Form;
    ///
    /// let form = Form::default();
    /// let (mut out, mut marks) = (Vec::new(), Vec::new());
    /// form.write_marked("[White \"x\"] 1. e4 *".parse()?, &mut out, &mut marks)?;
    /// let text = String::from_utf8(out)?;
    /// let tagged = format!("{}{}{}", &text[..marks[0]], form.tag_text("Mark", "1"), &text[marks[0]..]);
    /// assert!(tagged.contains("[Result \"*\"]\n[Mark \"1\"]\n\n1. e4 *"));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Form::write`].
    pub fn write_marked(
        &self,
        game: Game,
        out: &mut Vec<u8>,
        marks: &mut Vec<usize>,
    ) -> Result<usize, FormError> {
        let games = self.prepare(game)?;
        let mut text = String::new();
        for game in &games {
            let start = text.len();
            self.write_text(game, &mut text)?;
            let mark = match text[start..].find("\n\n") {
                Some(i) if self.options.tags && self.options.line_length > 0 => start + i + 1,
                _ => start,
            };
            marks.push(out.len() + mark);
            text.push_str(self.separator());
        }
        out.extend_from_slice(text.as_bytes());
        Ok(games.len())
    }

    /// The games this form makes of `game`: stripped ([`Form::strip`]), split into one game
    /// per variation ([`Form::split_variations`]), each with its added tags
    /// ([`Form::replay_tags`], [`Form::eco`]). [`Form::write_text`], [`Form::moves`] and
    /// [`Form::fens`] then give each one's text, moves and positions.
    ///
    /// ```
    /// use tabia_collect::Form;
    /// use tabia_notation::pgn::Game;
    ///
    /// let mut form = Form::default();
    /// form.strip.comments = true;
    /// form.replay_tags.ply_count = true;
    /// form.split_variations = Some(None);
    /// let games = form.prepare("1. e4 {best} e5 (1... c5) *".parse::<Game>()?)?;
    /// assert_eq!(games.len(), 2);
    /// assert_eq!(games[1].tag("PlyCount"), Some("2"));
    /// assert!(games[0].mainline.moves[0].comments.is_empty());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Form::write`].
    pub fn prepare(&self, mut game: Game) -> Result<Vec<Game>, FormError> {
        game.strip(&self.strip);
        let mut games = match self.split_variations {
            Some(depth) => game.split_variations(depth),
            None => vec![game],
        };
        for game in &mut games {
            self.replay_tags.add(game)?;
            if self.eco
                && let Some(m) = Table::embedded().classify_game(game)?.matched()
            {
                m.opening.set_tags(game);
            }
        }
        Ok(games)
    }

    /// Appends the text of a game (prepared by [`Form::prepare`]) in this form to `out`,
    /// without the separator.
    ///
    /// # Errors
    ///
    /// The game's start position is not legal (never for a checked game).
    pub fn write_text(&self, game: &Game, out: &mut String) -> Result<(), FormError> {
        if self.notation == Notation::San && !self.fen_comments {
            game.write_into(&self.options, &mut SanText, out);
        } else {
            let mut moves =
                MoveWriter::new(game, self.notation)?.with_fen_comments(self.fen_comments);
            game.write_into(&self.options, &mut moves, out);
        }
        Ok(())
    }

    /// The mainline moves of `game` as this form spells them: in its [`Form::notation`], with
    /// the piece letters of its options (SAN as the game gives it, check marks included).
    ///
    /// ```
    /// use tabia_collect::Form;
    /// use tabia_notation::{pgn::Game, san::Pieces};
    /// use tabia_position::Notation;
    ///
    /// let game: Game = "1. e4 e5 2. Nf3 (2. Bc4) Nc6 3. Bc4 Bc5 4. O-O *".parse()?;
    /// let mut form = Form::default();
    /// form.options.pieces = Pieces::language("de").unwrap();
    /// assert_eq!(form.moves(&game)?, ["e4", "e5", "Sf3", "Sc6", "Lc4", "Lc5", "O-O"]);
    /// form.notation = Notation::Uci;
    /// assert_eq!(form.moves(&game)?[4..], ["f1c4", "f8c5", "e1g1"]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The game's start position is not legal (never for a checked game).
    pub fn moves(&self, game: &Game) -> Result<Vec<String>, FormError> {
        let pieces = &self.options.pieces;
        let mut writer: Box<dyn MoveText> = match self.notation {
            Notation::San => Box::new(SanText),
            notation => Box::new(MoveWriter::new(game, notation)?),
        };
        Ok(game
            .mainline
            .moves
            .iter()
            .map(|m| {
                let mut text = String::new();
                writer.write_move(m, pieces, &mut text);
                text
            })
            .collect())
    }

    /// The FEN after every mainline move of `game`, as `fen-comments` writes them; `None`
    /// when the form does not add them.
    ///
    /// # Errors
    ///
    /// The game's start position is not legal (never for a checked game).
    pub fn fens(&self, game: &Game) -> Result<Option<Vec<String>>, FormError> {
        if !self.fen_comments {
            return Ok(None);
        }
        let mut writer = MoveWriter::new(game, Notation::Uci)?.with_fen_comments(true);
        let mut scratch = String::new();
        let mut fens = Vec::with_capacity(game.mainline.moves.len());
        for m in &game.mainline.moves {
            writer.write_move(m, &self.options.pieces, &mut scratch);
            if let Some(fen) = writer.comment_after(m) {
                fens.push(fen);
            }
        }
        Ok(Some(fens))
    }
}

impl Form {
    /// The text that inserts the tag `name` with `value` at a mark of [`Form::write_marked`]:
    /// a tag line after the last tag, or before the game in a one-line layout or without
    /// tags.
    pub fn tag_text(&self, name: &str, value: &str) -> String {
        let mut tag = format!("[{name} \"");
        for c in value.chars() {
            if matches!(c, '"' | '\\') {
                tag.push('\\');
            }
            tag.push(c);
        }
        tag.push_str("\"]");
        if self.options.line_length == 0 {
            tag.push(' ');
        } else if self.options.tags {
            tag.push('\n');
        } else {
            tag.push_str("\n\n");
        }
        tag
    }
}

/// Why a game could not be written in a [`Form`]: its moves cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormError {
    /// Replaying the mainline (for added tags or moves in another notation) failed.
    Replay(ReplayError),
    /// Classifying the opening failed.
    Classify(ClassifyError),
}

impl FormError {
    /// Where the problem is in the input, when known.
    pub fn origin(&self) -> Option<Origin> {
        match self {
            FormError::Replay(err) => err.origin(),
            FormError::Classify(err) => err.origin(),
        }
    }
}

impl tabia_notation::Located for FormError {
    fn message(&self) -> String {
        self.to_string()
    }

    fn origin(&self) -> Option<Origin> {
        FormError::origin(self)
    }
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormError::Replay(err) => err.fmt(f),
            FormError::Classify(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for FormError {}

impl From<ReplayError> for FormError {
    fn from(err: ReplayError) -> FormError {
        FormError::Replay(err)
    }
}

impl From<ClassifyError> for FormError {
    fn from(err: ClassifyError) -> FormError {
        FormError::Classify(err)
    }
}

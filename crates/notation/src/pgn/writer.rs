//! The PGN export format: Seven Tag Roster first, movetext lines under 80 characters; and the
//! output forms around it ([`WriteOptions`], [`MoveText`]).

use std::fmt::{self, Write as _};

use super::{Game, Line, Move, tag::write_quoted};
use crate::san::Pieces;

/// The tags of the Seven Tag Roster, in their export order.
pub(crate) const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The longest movetext line the export makes (a lone comment longer than this is kept whole).
const MAX_LINE: usize = 79;

/// How [`Game::write`] lays a game out: the choices of an output form that need no chess
/// rules. The default is the PGN export format (what `Display` writes).
///
/// What is written of the tree (comments, NAGs, variations, which tags) is chosen by editing
/// the tree first ([`Game::strip`]); how each move is spelled, by a [`MoveText`].
///
/// ```
/// use tabia_notation::pgn::{Game, SanText, WriteOptions};
///
/// let game: Game = "[White \"Tal\"]\n\n1. e4 {best} e5 2. Nf3 1-0".parse()?;
/// let mut options = WriteOptions::default();
/// options.tags = false;
/// options.move_numbers = false;
/// assert_eq!(game.write(&options, &mut SanText), "e4 {best} e5 Nf3 1-0");
/// options.result = false;
/// options.pieces = "BSLTDK".parse()?;
/// assert_eq!(game.write(&options, &mut SanText), "e4 {best} e5 Sf3");
/// # Ok::<_, tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOptions {
    /// Write the tags ([`Game::roster_tags`]) and the blank line after them.
    pub tags: bool,
    /// Write move numbers (`1.`, `3...`).
    pub move_numbers: bool,
    /// Write the game termination marker at the end.
    pub result: bool,
    /// The longest line, in characters (a single longer token is kept whole); `0` writes the
    /// whole game on one line, tags included, separated by spaces (a comment containing `}`,
    /// written as a `;` comment, still ends its line).
    pub line_length: usize,
    /// The piece letters of moves written by [`SanText`] (and by other [`MoveText`]s that honour
    /// them).
    pub pieces: Pieces,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            tags: true,
            move_numbers: true,
            result: true,
            line_length: MAX_LINE,
            pieces: Pieces::ENGLISH,
        }
    }
}

/// How a writer spells each move: the game's SAN ([`SanText`]), or a form that needs the
/// position, such as UCI or long algebraic (tabia-position implements those).
///
/// The writer calls it for each move it writes, in text order: a move, then its variations
/// (each opened by [`MoveText::begin_variation`] and closed by [`MoveText::end_variation`]),
/// then the next move. An implementation that replays the game keeps a stack of positions.
pub trait MoveText {
    /// Appends the text of `mv` to `out`.
    fn write_move(&mut self, mv: &Move, pieces: &Pieces, out: &mut String);

    /// A comment written after the move and its own comments (a FEN, for example).
    fn comment_after(&mut self, _mv: &Move) -> Option<String> {
        None
    }

    /// A variation begins: it is an alternative to the move written last.
    fn begin_variation(&mut self) {}

    /// The innermost open variation ends.
    fn end_variation(&mut self) {}
}

/// The [`MoveText`] that writes each move's SAN as the tree holds it (in the letters of
/// [`WriteOptions::pieces`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct SanText;

impl MoveText for SanText {
    fn write_move(&mut self, mv: &Move, pieces: &Pieces, out: &mut String) {
        pieces.write_san(&mv.san, out);
    }
}

/// The value the export writes for a missing roster tag (§8.1.1); `None` for `Result`, which
/// comes from the movetext.
fn unknown_value(name: &str) -> Option<&'static str> {
    match name {
        "Date" => Some("????.??.??"),
        "Result" => None,
        _ => Some("?"),
    }
}

impl Game {
    /// The tags as the export writes them: the Seven Tag Roster first, in its order (Event,
    /// Site, Date, Round, White, Black, Result), then the other tags in input order.
    ///
    /// A roster tag the game lacks gets the standard's unknown value: `?` (`????.??.??` for
    /// `Date`), and for `Result` the game's termination marker. Tags the game has are kept as
    /// they are, even a `Result` that disagrees with the movetext, or a tag given twice.
    ///
    /// ```
    /// use tabia_notation::pgn::Game;
    ///
    /// let game: Game = "[ECO \"B20\"]\n[White \"Tal\"]\n\n1. e4 c5 1-0".parse()?;
    /// assert_eq!(
    ///     game.roster_tags(),
    ///     [
    ///         ("Event", "?"),
    ///         ("Site", "?"),
    ///         ("Date", "????.??.??"),
    ///         ("Round", "?"),
    ///         ("White", "Tal"),
    ///         ("Black", "?"),
    ///         ("Result", "1-0"),
    ///         ("ECO", "B20"),
    ///     ]
    /// );
    /// # Ok::<_, tabia_notation::Error>(())
    /// ```
    pub fn roster_tags(&self) -> Vec<(&str, &str)> {
        let mut tags = Vec::with_capacity(self.tags.len() + SEVEN_TAG_ROSTER.len());
        for name in SEVEN_TAG_ROSTER {
            let before = tags.len();
            tags.extend(
                self.tags
                    .iter()
                    .filter(|(n, _)| n == name)
                    .map(|(n, v)| (n.as_str(), v.as_str())),
            );
            if tags.len() == before {
                let value = unknown_value(name).unwrap_or(self.result.as_str());
                tags.push((name, value));
            }
        }
        tags.extend(
            self.tags
                .iter()
                .filter(|(n, _)| !SEVEN_TAG_ROSTER.contains(&n.as_str()))
                .map(|(n, v)| (n.as_str(), v.as_str())),
        );
        tags
    }

    /// The game with its tags as the export writes them ([`Game::roster_tags`]): the Seven
    /// Tag Roster complete and first. Reading an exported game gives back
    /// `game.with_roster()`.
    ///
    /// ```
    /// use tabia_notation::pgn::Game;
    ///
    /// let game: Game = "1. e4 *".parse()?;
    /// let again: Game = game.to_string().parse()?;
    /// assert_eq!(again, game.with_roster());
    /// assert_eq!(again.tag("Result"), Some("*"));
    /// # Ok::<_, tabia_notation::Error>(())
    /// ```
    pub fn with_roster(mut self) -> Game {
        self.tags = self
            .roster_tags()
            .into_iter()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect();
        self
    }
}

impl fmt::Display for Game {
    /// Writes the game in export format: the tags of [`Game::roster_tags`] (the complete Seven
    /// Tag Roster first, missing ones with the standard's unknown values, then the others in
    /// input order), a blank line, and the movetext wrapped under 80 characters, ending with
    /// the result (no line end after it).
    ///
    /// Comments are written as `{text}`; one that contains `}` as `;text` and a line end (and
    /// one containing both `}` and a line end, which no input produces, as one `;` comment per
    /// line). Tag values must not contain line ends.
    ///
    /// A game without tags gets the whole roster:
    ///
    /// ```
    /// use tabia_notation::pgn::Game;
    ///
    /// let game: Game = "1. e4 e5 *".parse()?;
    /// assert_eq!(
    ///     game.to_string(),
    ///     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
    ///      [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 *"
    /// );
    /// # Ok::<_, tabia_notation::Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(&WriteOptions::default(), &mut SanText))
    }
}

impl Game {
    /// Writes the game in the form `options` asks for, each move spelled by `moves`.
    ///
    /// With the default options and [`SanText`] this is the export format of `Display`.
    pub fn write(&self, options: &WriteOptions, moves: &mut dyn MoveText) -> String {
        let mut out = String::new();
        self.write_into(options, moves, &mut out);
        out
    }

    /// Like [`Game::write`], appending to `out` (no line end after the game).
    pub fn write_into(&self, options: &WriteOptions, moves: &mut dyn MoveText, out: &mut String) {
        let one_line = options.line_length == 0;
        let mut w = Wrap {
            out: std::mem::take(out),
            max: if one_line {
                usize::MAX
            } else {
                options.line_length
            },
            ..Wrap::default()
        };
        if options.tags {
            let mut tag = String::new();
            for (name, value) in self.roster_tags() {
                tag.clear();
                let _ = write!(tag, "[{name} ");
                let _ = write_quoted(&mut tag, value);
                tag.push(']');
                if one_line {
                    w.token(&tag);
                } else {
                    w.out.push_str(&tag);
                    w.out.push('\n');
                }
            }
            if !one_line {
                w.out.push('\n');
            }
        }
        write_movetext(&mut w, self, options, moves);
        if options.result {
            w.token(self.result.as_str());
        }
        *out = w.out;
    }
}

/// Where the first move is: fullmove number and whether White moves first, from a `FEN` tag.
fn first_move(game: &Game) -> (u64, bool) {
    let Some(fen) = game.tag("FEN") else {
        return (1, true);
    };
    let mut fields = fen.split_ascii_whitespace();
    let white = fields.nth(1) != Some("b");
    let number = fields
        .nth(3)
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    (number, white)
}

/// A line being walked: the next move `i`, and the next variation `v` of move `i` once the
/// move itself is written.
struct Frame<'a> {
    line: &'a Line,
    /// Ply of the line's first move (0 = White's move of fullmove 1).
    ply: u128,
    i: usize,
    v: usize,
    written: bool,
}

fn write_movetext(w: &mut Wrap, game: &Game, options: &WriteOptions, moves: &mut dyn MoveText) {
    let (number, white) = first_move(game);
    // In u128: no fullmove number a FEN tag can hold overflows it.
    let ply0 = u128::from(number - 1) * 2 + u128::from(!white);
    for comment in &game.mainline.comments {
        w.comment(comment);
    }
    let mut need_number = true;
    let mut stack = vec![Frame {
        line: &game.mainline,
        ply: ply0,
        i: 0,
        v: 0,
        written: false,
    }];
    let mut text = String::new();
    let mut digits = [0; 39];
    while let Some(top) = stack.last_mut() {
        let Some(m) = top.line.moves.get(top.i) else {
            stack.pop();
            if !stack.is_empty() {
                moves.end_variation();
                w.close();
                need_number = true;
            }
            continue;
        };
        let ply = top.ply + top.i as u128;
        if !top.written {
            top.written = true;
            text.clear();
            let number = ply / 2 + 1;
            if options.move_numbers {
                if ply.is_multiple_of(2) {
                    text.push_str(crate::decimal_digits(number, &mut digits));
                    text.push('.');
                    w.token(&text);
                } else if need_number {
                    text.push_str(crate::decimal_digits(number, &mut digits));
                    text.push_str("...");
                    w.token(&text);
                }
            }
            text.clear();
            moves.write_move(m, &options.pieces, &mut text);
            w.token(&text);
            for nag in &m.nags {
                text.clear();
                let _ = write!(text, "{nag}");
                w.token(&text);
            }
            need_number = !m.comments.is_empty();
            for comment in &m.comments {
                w.comment(comment);
            }
            if let Some(comment) = moves.comment_after(m) {
                w.comment(&comment);
                need_number = true;
            }
        }
        if let Some(variation) = m.variations.get(top.v) {
            top.v += 1;
            moves.begin_variation();
            w.open();
            for comment in &variation.comments {
                w.comment(comment);
            }
            need_number = true;
            stack.push(Frame {
                line: variation,
                ply,
                i: 0,
                v: 0,
                written: false,
            });
            continue;
        }
        top.i += 1;
        top.v = 0;
        top.written = false;
    }
}

/// Movetext being wrapped into lines of at most `max` characters.
#[derive(Default)]
struct Wrap {
    out: String,
    /// The longest line.
    max: usize,
    /// Characters on the current line.
    col: usize,
    /// `(` waiting to be glued to the next token.
    open: usize,
    /// The next token must start a new line (after a `;` comment).
    force_break: bool,
    /// Where a comment is put in braces (kept from comment to comment).
    scratch: String,
}

impl Wrap {
    fn token(&mut self, token: &str) {
        // Most tokens are moves and move numbers: short, ASCII, on one line.
        let (chars, last_line) = if token.len() <= 16 {
            let mut chars = 0;
            let mut last_line = None;
            for (i, &b) in token.as_bytes().iter().enumerate() {
                chars += usize::from(b & 0xC0 != 0x80);
                if b == b'\n' {
                    last_line = Some(i);
                }
            }
            (chars, last_line)
        } else {
            (token.chars().count(), token.rfind('\n'))
        };
        let len = self.open + chars;
        if self.force_break || (self.col > 0 && self.col + 1 + len > self.max) {
            self.out.push('\n');
            self.col = 0;
            self.force_break = false;
        } else if self.col > 0 {
            self.out.push(' ');
            self.col += 1;
        }
        for _ in 0..self.open {
            self.out.push('(');
        }
        self.open = 0;
        self.out.push_str(token);
        match last_line {
            Some(i) => self.col = token[i + 1..].chars().count(),
            None => self.col += len,
        }
    }

    fn comment(&mut self, text: &str) {
        if !text.contains('}') {
            let mut braced = std::mem::take(&mut self.scratch);
            braced.clear();
            braced.push('{');
            braced.push_str(text);
            braced.push('}');
            self.token(&braced);
            self.scratch = braced;
            return;
        }
        for line in text.split(['\n', '\r']) {
            self.token(&format!(";{line}"));
            self.force_break = true;
        }
    }

    fn open(&mut self) {
        self.open += 1;
    }

    fn close(&mut self) {
        if self.open > 0 {
            self.open -= 1;
            self.token("()");
        } else if self.force_break || self.col + 1 > self.max {
            self.out.push('\n');
            self.out.push(')');
            self.col = 1;
            self.force_break = false;
        } else {
            self.out.push(')');
            self.col += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export(pgn: &str) -> String {
        pgn.parse::<Game>().unwrap().to_string()
    }

    /// The export without its tags and the blank line after them.
    fn movetext(pgn: &str) -> String {
        let out = export(pgn);
        match out.split_once("]\n\n") {
            Some((_, movetext)) => movetext.to_owned(),
            None => panic!("no tags: {out}"),
        }
    }

    #[test]
    fn seven_tag_roster_first_and_complete() {
        assert_eq!(
            export("[ECO \"C60\"]\n[White \"b\"]\n[Event \"a\"]\n1-0"),
            "[Event \"a\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"b\"]\n\
             [Black \"?\"]\n[Result \"1-0\"]\n[ECO \"C60\"]\n\n1-0"
        );
    }

    #[test]
    fn given_roster_tags_are_kept_as_they_are() {
        // A Result tag that disagrees with the movetext, a tag given twice, an empty value.
        let out = export(
            "[Result \"0-1\"]\n[Date \"\"]\n[X \"y\"]\n[Site \"a\"]\n[Site \"b\"]\n1. e4 1-0",
        );
        assert_eq!(
            out,
            "[Event \"?\"]\n[Site \"a\"]\n[Site \"b\"]\n[Date \"\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"0-1\"]\n[X \"y\"]\n\n1. e4 1-0"
        );
        assert_eq!(export(&out), out);
    }

    #[test]
    fn numbers_after_comments_and_variations() {
        assert_eq!(
            movetext("1. e4 {x} e5 (c5 2. Nf3) (e6) 2. Nf3 $1 Nc6 *"),
            "1. e4 {x} 1... e5 (1... c5 2. Nf3) (1... e6) 2. Nf3 $1 Nc6 *"
        );
    }

    #[test]
    fn fen_sets_first_number() {
        assert_eq!(
            movetext("[FEN \"8/8/8/8/8/8/8/K6k b - - 0 40\"]\n\n40... Kg1 Kb1 *"),
            "40... Kg1 41. Kb1 *"
        );
    }

    #[test]
    fn huge_fullmove_number_does_not_overflow() {
        let out = export("[FEN \"8/8/8/8/8/8/8/K6k w - - 0 18446744073709551615\"]\n\nKb1 Kg1 *");
        assert!(
            out.ends_with("\n\n18446744073709551615. Kb1 Kg1 *"),
            "{out}"
        );
    }

    #[test]
    fn lines_stay_under_80() {
        let moves = "Nf3 Nf6 Ng1 Ng8 ".repeat(30);
        let out = export(&format!("{moves}*"));
        assert!(out.lines().all(|l| l.len() < 80));
        assert!(out.lines().any(|l| l.len() > 70));
        assert_eq!(out.parse::<Game>().unwrap().to_string(), out);
    }

    #[test]
    fn awkward_comments() {
        let mut game: Game = "1. e4 *".parse().unwrap();
        game.mainline.moves[0].comments.push("a}b".into());
        assert!(game.to_string().ends_with("]\n\n1. e4 ;a}b\n*"));
        assert_eq!(
            game.to_string().parse::<Game>().unwrap(),
            game.clone().with_roster()
        );
    }

    /// Counts variations and adds a comment after each move.
    struct Probe(Vec<String>);

    impl MoveText for Probe {
        fn write_move(&mut self, mv: &Move, pieces: &Pieces, out: &mut String) {
            pieces.write_san(&mv.san, out);
        }
        fn comment_after(&mut self, mv: &Move) -> Option<String> {
            Some(format!("after {}", mv.san))
        }
        fn begin_variation(&mut self) {
            self.0.push("(".into());
        }
        fn end_variation(&mut self) {
            self.0.push(")".into());
        }
    }

    #[test]
    fn options_and_move_text_hooks() {
        let game: Game = "[White \"a b\"]\n\n1. e4 e5 (1... c5 (1... e6)) 2. Nf3 1-0"
            .parse()
            .unwrap();
        let options = WriteOptions {
            tags: false,
            line_length: 0,
            ..WriteOptions::default()
        };
        let mut probe = Probe(Vec::new());
        assert_eq!(
            game.write(&options, &mut probe),
            "1. e4 {after e4} 1... e5 {after e5} (1... c5 {after c5} (1... e6 {after e6})) \
             2. Nf3 {after Nf3} 1-0"
        );
        assert_eq!(probe.0, ["(", "(", ")", ")"]);
        let one_line = WriteOptions {
            line_length: 0,
            ..WriteOptions::default()
        };
        let text = game.write(&one_line, &mut SanText);
        assert_eq!(
            text,
            "[Event \"?\"] [Site \"?\"] [Date \"????.??.??\"] [Round \"?\"] [White \"a b\"] \
             [Black \"?\"] [Result \"1-0\"] 1. e4 e5 (1... c5 (1... e6)) 2. Nf3 1-0"
        );
        assert_eq!(text.parse::<Game>().unwrap(), game.clone().with_roster());
        let bare = WriteOptions {
            tags: false,
            move_numbers: false,
            result: false,
            line_length: 10,
            pieces: Pieces::FIGURINE,
        };
        assert_eq!(
            game.write(&bare, &mut SanText),
            "e4 e5 (c5\n(e6)) \u{2658}f3"
        );
    }

    #[test]
    fn line_length_is_honoured() {
        let moves = "Nf3 Nf6 Ng1 Ng8 ".repeat(30);
        let game: Game = format!("{moves}*").parse().unwrap();
        for max in [20, 40, 100] {
            let options = WriteOptions {
                line_length: max,
                ..WriteOptions::default()
            };
            let out = game.write(&options, &mut SanText);
            assert!(out.lines().all(|l| l.chars().count() <= max), "{out}");
            assert!(out.lines().any(|l| l.chars().count() > max - 8), "{out}");
            assert_eq!(out.parse::<Game>().unwrap(), game.clone().with_roster());
        }
    }

    #[test]
    fn empty_variation_and_deep_nesting() {
        assert_eq!(movetext("1. e4 () *"), "1. e4 () *");
        let deep = format!("1. e4 {}{} *", "(1. d4 ".repeat(2000), ")".repeat(2000));
        let out = export(&deep);
        assert_eq!(out.parse::<Game>().unwrap().to_string(), out);
    }
}

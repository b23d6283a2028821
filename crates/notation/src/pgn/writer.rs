//! The PGN export format: Seven Tag Roster first, movetext lines under 80 characters; and the
//! output forms around it ([`WriteOptions`], [`MoveText`]).

use std::fmt;

use super::{Game, Line, Move, Outcome, tag::write_quoted};
use crate::{
    Nag,
    san::{Pieces, SanPlus},
};

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

/// The tags as the export writes them (see [`Game::roster_tags`]), from `tags` in input order
/// and the game's termination marker `result`.
fn roster_tags(tags: &[(String, String)], result: Outcome) -> Vec<(&str, &str)> {
    let mut roster = Vec::with_capacity(tags.len() + SEVEN_TAG_ROSTER.len());
    for name in SEVEN_TAG_ROSTER {
        let before = roster.len();
        roster.extend(
            tags.iter()
                .filter(|(n, _)| n == name)
                .map(|(n, v)| (n.as_str(), v.as_str())),
        );
        if roster.len() == before {
            let value = unknown_value(name).unwrap_or(result.as_str());
            roster.push((name, value));
        }
    }
    roster.extend(
        tags.iter()
            .filter(|(n, _)| !SEVEN_TAG_ROSTER.contains(&n.as_str()))
            .map(|(n, v)| (n.as_str(), v.as_str())),
    );
    roster
}

/// Appends the tag pairs of a game's export to `out`, as [`Game`]'s `Display` writes them:
/// the tags of [`Game::roster_tags`] for these `tags` (in input order) and the termination
/// marker `result`, one a line, then the blank line before the movetext.
///
/// ```
/// use tabia_notation::pgn::{Game, Outcome, write_export_tags};
///
/// let tags = vec![("ECO".to_owned(), "B20".to_owned()), ("White".to_owned(), "Tal".to_owned())];
/// let mut out = String::new();
/// write_export_tags(&tags, Outcome::WhiteWins, &mut out);
/// let game: Game = "[ECO \"B20\"]\n[White \"Tal\"]\n\n1-0".parse()?;
/// assert_eq!(format!("{out}1-0"), game.to_string());
/// # Ok::<_, tabia_notation::Error>(())
/// ```
pub fn write_export_tags(tags: &[(String, String)], result: Outcome, out: &mut String) {
    for (name, value) in roster_tags(tags, result) {
        write_tag(name, value, out);
        out.push('\n');
    }
    out.push('\n');
}

/// Appends `[name "value"]` to `out`, the value quoted and escaped.
fn write_tag(name: &str, value: &str, out: &mut String) {
    out.push('[');
    out.push_str(name);
    out.push(' ');
    // Writing to a String cannot fail.
    let _ = write_quoted(out, value);
    out.push(']');
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
        roster_tags(&self.tags, self.result)
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
        let mut w = MovetextWriter::new(options);
        w.wrap.out = std::mem::take(out).into_bytes();
        if options.tags {
            let mut tag = String::new();
            for (name, value) in self.roster_tags() {
                tag.clear();
                write_tag(name, value, &mut tag);
                if options.line_length == 0 {
                    w.wrap.token(&tag);
                } else {
                    w.wrap.out.extend_from_slice(tag.as_bytes());
                    w.wrap.out.push(b'\n');
                }
            }
            if options.line_length != 0 {
                w.wrap.out.push(b'\n');
            }
        }
        w.start(self.tag("FEN"));
        write_movetext(&mut w, self, &options.pieces, moves);
        w.end(self.result);
        *out = w.wrap.into_string();
    }
}

/// Where the first move is: fullmove number and whether White moves first, from the value of
/// a `FEN` tag.
fn first_move(fen: Option<&str>) -> (u64, bool) {
    let Some(fen) = fen else {
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

/// The movetext of a game written as it is read, event by event (no game tree): the writer
/// behind [`Game`]'s `Display` and [`Game::write`], for a reader that writes games in export
/// format while it reads them (tabia-position's exporter, which checks the moves as it goes).
///
/// It is told each move in text order: the move ([`MovetextWriter::san`]), its NAGs, its
/// comments, then each of its variations ([`MovetextWriter::begin_variation`], the
/// variation's comments and moves, [`MovetextWriter::end_variation`]), then the next move. It
/// numbers the moves (`1.`, and `1...` where Black's move follows a comment or a variation),
/// and wraps the lines as the export does.
///
/// ```
/// use tabia_notation::pgn::{Game, MovetextWriter, Outcome, WriteOptions};
/// use tabia_notation::san::SanPlus;
///
/// let mut w = MovetextWriter::new(&WriteOptions::default());
/// w.start(None);
/// w.san(&"e4".parse::<SanPlus>()?);
/// w.comment("best");
/// w.san(&"e5".parse::<SanPlus>()?);
/// w.begin_variation();
/// w.san(&"c5".parse::<SanPlus>()?);
/// w.end_variation();
/// assert_eq!(w.end(Outcome::Unknown), "1. e4 {best} 1... e5 (1... c5) *");
/// let game: Game = "1. e4 {best} e5 (c5) *".parse()?;
/// assert!(game.to_string().ends_with("\n\n1. e4 {best} 1... e5 (1... c5) *"));
/// # Ok::<_, tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct MovetextWriter {
    wrap: Wrap,
    move_numbers: bool,
    result: bool,
    pieces: Pieces,
    /// The ply of the next move of each open line, the mainline first (0 = White's move of
    /// fullmove 1; in u128: no fullmove number a FEN tag can hold overflows it).
    plies: Vec<u128>,
    /// The next move is written with its number even when Black's.
    need_number: bool,
    /// Room for a move's text in other letters than the standard's.
    text: String,
    /// Room for a move number of more than five digits.
    number: String,
}

impl MovetextWriter {
    /// A writer for the form `options` asks for (its tags aside: see [`write_export_tags`]).
    pub fn new(options: &WriteOptions) -> MovetextWriter {
        MovetextWriter {
            wrap: Wrap {
                max: if options.line_length == 0 {
                    usize::MAX
                } else {
                    options.line_length
                },
                ..Wrap::default()
            },
            move_numbers: options.move_numbers,
            result: options.result,
            pieces: options.pieces,
            plies: Vec::new(),
            need_number: true,
            text: String::new(),
            number: String::new(),
        }
    }

    /// Starts a game's movetext (what was written before is dropped, its room kept), from the
    /// position of its `FEN` tag when it has one (which says the first move's number and side).
    pub fn start(&mut self, fen: Option<&str>) {
        if !self.plies.is_empty() {
            self.wrap.out.clear();
            self.wrap.col = 0;
            self.wrap.open = 0;
            self.wrap.force_break = false;
        }
        let (number, white) = first_move(fen);
        self.plies.clear();
        self.plies
            .push(u128::from(number - 1) * 2 + u128::from(!white));
        self.need_number = true;
    }

    /// The next move of the line, in SAN.
    pub fn san(&mut self, san: &SanPlus) {
        // Most moves, in the PGN standard's letters: ASCII, spelled on the stack.
        if self.pieces.is_english()
            && let Some((bytes, len)) = san.ascii()
        {
            if self.number() {
                self.wrap.short_token(&bytes, len);
                self.need_number = false;
            }
            return;
        }
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        self.pieces.write_san(san, &mut text);
        self.move_text(&text);
        self.text = text;
    }

    /// The next move of the line, as `text` spells it.
    pub fn move_text(&mut self, text: &str) {
        if self.number() {
            self.wrap.token(text);
            self.need_number = false;
        }
    }

    /// Counts the ply of the next move and writes its number when it needs one; `false` when no
    /// line is open (before [`MovetextWriter::start`]).
    #[inline]
    fn number(&mut self) -> bool {
        let Some(ply) = self.plies.last_mut() else {
            return false;
        };
        let at = *ply;
        *ply += 1;
        let white = at.is_multiple_of(2);
        if self.move_numbers && (white || self.need_number) {
            let dots: (u64, usize) = if white {
                (u64::from(b'.'), 1)
            } else {
                (u64::from_le_bytes(*b"...\0\0\0\0\0"), 3)
            };
            match u16::try_from(at / 2 + 1) {
                Ok(number) => {
                    let (acc, len) = prepend_digits(dots, number);
                    self.wrap.short_token(&acc.to_le_bytes(), len);
                }
                Err(_) => {
                    let mut digits = [0; 39];
                    let mut number = std::mem::take(&mut self.number);
                    number.clear();
                    number.push_str(crate::decimal_digits(at / 2 + 1, &mut digits));
                    number.push_str(if white { "." } else { "..." });
                    self.wrap.ascii_token(number.as_bytes());
                    self.number = number;
                }
            }
        }
        true
    }

    /// A NAG of the move written last.
    pub fn nag(&mut self, nag: Nag) {
        let (digits, len) = prepend_digits((0, 0), u16::from(nag.0));
        let acc = (digits << 8) | u64::from(b'$');
        self.wrap.short_token(&acc.to_le_bytes(), len + 1);
    }

    /// A comment: after the move written last, or before the first move of the line.
    pub fn comment(&mut self, text: &str) {
        self.wrap.comment(text);
        self.need_number = true;
    }

    /// A comment as the reader gives it, in bytes (UTF-8, or else Latin-1): what
    /// [`MovetextWriter::comment`] writes of its text decoded ([`crate::decode`]), without
    /// decoding the plain ASCII comments most games have.
    ///
    /// ```
    /// use tabia_notation::pgn::{MovetextWriter, Outcome, WriteOptions};
    ///
    /// let mut w = MovetextWriter::new(&WriteOptions::default());
    /// w.start(None);
    /// w.comment_bytes(b"[%clk 0:03:00]");
    /// w.comment_bytes(b"caf\xe9");
    /// assert_eq!(w.end(Outcome::Unknown), "{[%clk 0:03:00]} {caf\u{e9}} *");
    /// ```
    pub fn comment_bytes(&mut self, bytes: &[u8]) {
        if !self.wrap.plain_comment(bytes) {
            self.wrap.comment(&crate::decode(bytes));
        }
        self.need_number = true;
    }

    /// A variation of the move written last begins: its moves are alternatives to it.
    pub fn begin_variation(&mut self) {
        let ply = self.plies.last().map_or(0, |ply| ply.saturating_sub(1));
        self.plies.push(ply);
        self.wrap.open();
        self.need_number = true;
    }

    /// The innermost open variation ends.
    pub fn end_variation(&mut self) {
        if self.plies.len() > 1 {
            self.plies.pop();
        }
        self.wrap.close();
        self.need_number = true;
    }

    /// Ends the movetext with the termination marker `result` (unless the options leave it
    /// out), and gives it (no line end after it).
    pub fn end(&mut self, result: Outcome) -> &str {
        self.end_marker(result);
        self.wrap.as_str()
    }

    /// [`MovetextWriter::end`] as bytes (always UTF-8), for a writer of bytes that need not
    /// look at them again.
    ///
    /// ```
    /// use tabia_notation::pgn::{MovetextWriter, Outcome, WriteOptions};
    ///
    /// let mut w = MovetextWriter::new(&WriteOptions::default());
    /// w.start(None);
    /// w.san(&"e4".parse()?);
    /// assert_eq!(w.end_bytes(Outcome::Draw), b"1. e4 1/2-1/2");
    /// # Ok::<(), tabia_notation::Error>(())
    /// ```
    pub fn end_bytes(&mut self, result: Outcome) -> &[u8] {
        self.end_marker(result);
        &self.wrap.out
    }

    fn end_marker(&mut self, result: Outcome) {
        if self.result {
            self.wrap.ascii_token(result.as_str().as_bytes());
        }
    }
}

/// The decimal digits of `n` put before the ASCII bytes `(acc, len)` (little-endian: the first
/// byte lowest), gathered in a register: bytes stored one at a time and then copied as a whole
/// would wait for each other. Five digits at most, so with up to three bytes after them (a
/// move number's dots) they fit.
#[inline]
fn prepend_digits((mut acc, mut len): (u64, usize), mut n: u16) -> (u64, usize) {
    loop {
        acc = (acc << 8) | u64::from(b'0' + (n % 10) as u8);
        len += 1;
        n /= 10;
        if n == 0 {
            return (acc, len);
        }
    }
}

/// A line being walked: the next move `i`, and the next variation `v` of move `i` once the
/// move itself is written.
struct Frame<'a> {
    line: &'a Line,
    i: usize,
    v: usize,
    written: bool,
}

/// Tells `w` the movetext of `game`, each move spelled by `moves`.
fn write_movetext(w: &mut MovetextWriter, game: &Game, pieces: &Pieces, moves: &mut dyn MoveText) {
    for comment in &game.mainline.comments {
        w.comment(comment);
    }
    let mut stack = vec![Frame {
        line: &game.mainline,
        i: 0,
        v: 0,
        written: false,
    }];
    let mut text = String::new();
    while let Some(top) = stack.last_mut() {
        let Some(m) = top.line.moves.get(top.i) else {
            stack.pop();
            if !stack.is_empty() {
                moves.end_variation();
                w.end_variation();
            }
            continue;
        };
        if !top.written {
            top.written = true;
            text.clear();
            moves.write_move(m, pieces, &mut text);
            w.move_text(&text);
            for &nag in &m.nags {
                w.nag(nag);
            }
            for comment in &m.comments {
                w.comment(comment);
            }
            if let Some(comment) = moves.comment_after(m) {
                w.comment(&comment);
            }
        }
        if let Some(variation) = m.variations.get(top.v) {
            top.v += 1;
            moves.begin_variation();
            w.begin_variation();
            for comment in &variation.comments {
                w.comment(comment);
            }
            stack.push(Frame {
                line: variation,
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
#[derive(Debug, Clone, Default)]
struct Wrap {
    /// The text: UTF-8, as every byte written comes from a `str` or is ASCII.
    out: Vec<u8>,
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
    /// The text written.
    fn as_str(&self) -> &str {
        // Always UTF-8 (see `out`); were it not, an empty text rather than a panic.
        std::str::from_utf8(&self.out).unwrap_or_default()
    }

    /// The text written, as a `String`.
    fn into_string(self) -> String {
        String::from_utf8(self.out)
            .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
    }

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
        } else if token.is_ascii() {
            // Most comments: a character a byte.
            (token.len(), memchr::memrchr(b'\n', token.as_bytes()))
        } else {
            (token.chars().count(), token.rfind('\n'))
        };
        let len = self.place(chars);
        self.out.extend_from_slice(token.as_bytes());
        match last_line {
            Some(i) => self.col = token[i + 1..].chars().count(),
            None => self.col += len,
        }
    }

    /// [`Wrap::token`] for a token known to be ASCII on one line (a move number, a NAG).
    #[inline]
    fn ascii_token(&mut self, token: &[u8]) {
        let len = self.place(token.len());
        self.out.extend_from_slice(token);
        self.col += len;
    }

    /// [`Wrap::ascii_token`] for the first `len` bytes of a short token on the stack: copied
    /// whole (a copy of a size known when compiling, with no call), the rest then cut off.
    #[inline]
    fn short_token<const N: usize>(&mut self, token: &[u8; N], len: usize) {
        let len = len.min(N);
        let placed = self.place(len);
        let end = self.out.len() + len;
        self.out.extend_from_slice(token);
        self.out.truncate(end);
        self.col += placed;
    }

    /// Writes the comment `bytes` as [`Wrap::comment`] writes it when it is plain (ASCII, on
    /// one line, without `}`), and says whether it was; writes nothing when it is not.
    #[inline]
    fn plain_comment(&mut self, bytes: &[u8]) -> bool {
        let odd = bytes.iter().fold(false, |odd, &b| {
            odd | (b >= 0x80) | (b == b'}') | (b == b'\n')
        });
        if odd || self.open + bytes.len() + 2 > self.max {
            return false;
        }
        let len = self.place(bytes.len() + 2);
        self.out.push(b'{');
        self.out.extend_from_slice(bytes);
        self.out.push(b'}');
        self.col += len;
        true
    }

    /// Starts a token of `chars` characters on one line: a line end or a space before it as
    /// the line has room, then the `(` waiting for it. Gives its length with them (the caller
    /// adds it to the column once the token is written).
    #[inline]
    fn place(&mut self, chars: usize) -> usize {
        let len = self.open + chars;
        if self.force_break || (self.col > 0 && self.col + 1 + len > self.max) {
            self.out.push(b'\n');
            self.col = 0;
            self.force_break = false;
        } else if self.col > 0 {
            self.out.push(b' ');
            self.col += 1;
        }
        for _ in 0..self.open {
            self.out.push(b'(');
        }
        self.open = 0;
        len
    }

    fn comment(&mut self, text: &str) {
        // Most comments (`[%clk 0:03:00]`) are ASCII on one line, without `}`: one look at
        // their bytes, and they are written as the token `{text}` would be.
        if self.plain_comment(text.as_bytes()) {
            return;
        }
        if !text.contains('}') {
            // Line ends in a comment are white space, as the export puts its own.
            let mut braced = std::mem::take(&mut self.scratch);
            braced.clear();
            braced.push('{');
            braced.extend(
                text.chars()
                    .map(|c| if c == '\n' || c == '\r' { ' ' } else { c }),
            );
            braced.push('}');
            if self.open + braced.chars().count() > self.max {
                self.long_comment(&braced[1..braced.len() - 1]);
            } else {
                self.token(&braced);
            }
            self.scratch = braced;
            return;
        }
        for line in text.split(['\n', '\r']) {
            self.token(&format!(";{line}"));
            self.force_break = true;
        }
    }

    /// A braced comment longer than a line (on one line: its line ends are spaces), filled
    /// word by word: a line break is put for a space (the text read back has a line break
    /// where it had that space), and only a single word longer than the line stands alone on
    /// a line longer than it. A space is not broken when spaces follow it (they stay with the
    /// word after), nor before a `[` or a `%` (a line that starts with one reads as a tag or an
    /// escape to other readers).
    fn long_comment(&mut self, text: &str) {
        let mut rest = text;
        let mut first = true;
        loop {
            // Room for the braces a word may carry, and the `(` glued to the first.
            let glued = if first { self.open } else { 0 };
            let (word, last) = match next_break(rest, self.max.saturating_sub(2 + glued)) {
                Some(at) => (&rest[..at], false),
                None => (rest, true),
            };
            let width = word.chars().count() + usize::from(first) + usize::from(last);
            if first {
                let len = self.place(width);
                self.out.push(b'{');
                self.col += len;
            } else if self.col > 0 && self.col + 1 + width > self.max {
                self.out.push(b'\n');
                self.col = width;
            } else {
                self.out.push(b' ');
                self.col += 1 + width;
            }
            self.out.extend_from_slice(word.as_bytes());
            if last {
                self.out.push(b'}');
                return;
            }
            rest = &rest[word.len() + 1..];
            first = false;
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
            self.out.push(b'\n');
            self.out.push(b')');
            self.col = 1;
            self.force_break = false;
        } else {
            self.out.push(b')');
            self.col += 1;
        }
    }
}

/// Where a long comment may be broken: the first space of `text` outside a command (`[%cal
/// Gg1f3,Rd1h5]` stays on one line) that a word follows (neither a space, nor `[` or `%`);
/// when that leaves a word longer than `max`, the first space that a word follows.
fn next_break(text: &str, max: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let plain = |at: usize| bytes.get(at + 1).is_some_and(|&b| b != b' ');
    let mut command = false;
    let mut first = None;
    for (at, &b) in bytes.iter().enumerate() {
        match b {
            b'[' if bytes.get(at + 1) == Some(&b'%') => command = true,
            b']' => command = false,
            b' ' if plain(at) => {
                first = first.or(Some(at));
                if !command && !matches!(bytes[at + 1], b'[' | b'%') {
                    return Some(at);
                }
            }
            _ => {}
        }
        if at >= max && first.is_some() {
            return first;
        }
    }
    first.filter(|_| bytes.len() > max)
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
    fn numbers_of_every_width() {
        // The numbers of five digits and less are spelled in a register, the longer ones
        // through `decimal_digits`: both sides of the boundary, for each side to move.
        for (fen, moves, expected) in [
            ("w - - 0 9", "Kb1 Kg1 Ka1", "9. Kb1 Kg1 10. Ka1 *"),
            ("b - - 0 99", "Kg1 Kb1 Kh1", "99... Kg1 100. Kb1 Kh1 *"),
            (
                "w - - 0 65535",
                "Kb1 Kg1 Ka1",
                "65535. Kb1 Kg1 65536. Ka1 *",
            ),
            (
                "b - - 0 65535",
                "Kg1 {x} Kb1 Kh1",
                "65535... Kg1 {x} 65536. Kb1 Kh1 *",
            ),
            (
                "b - - 0 65536",
                "Kg1 {x} Kb1",
                "65536... Kg1 {x} 65537. Kb1 *",
            ),
        ] {
            let out = export(&format!("[FEN \"8/8/8/8/8/8/8/K6k {fen}\"]\n\n{moves} *"));
            assert!(out.ends_with(&format!("\n\n{expected}")), "{out}");
        }
    }

    #[test]
    fn nags_of_every_width() {
        assert_eq!(
            movetext("1. e4 $0 $7 $10 $99 $100 $255 e5 *"),
            "1. e4 $0 $7 $10 $99 $100 $255 e5 *"
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
    fn long_comments_are_broken_at_spaces() {
        let long = "a comment of many words that goes on well past the end of any line; \
                    [%clk 0:01:00] [%eval 0.3] and https://example.org/a-single-word-longer-than-forty \
                    then café ends";
        let game: Game = format!("1. e4 {{ {long} }} e5 {{{long}}} *")
            .parse()
            .unwrap();
        for max in [40, 79] {
            let options = WriteOptions {
                line_length: max,
                ..WriteOptions::default()
            };
            let out = game.write(&options, &mut SanText);
            let (_, moves) = out.split_once("]\n\n").unwrap();
            for line in moves.lines() {
                let chars = line.chars().count();
                // Only the single word longer than the line stands alone.
                assert!(
                    chars <= max || !line.trim_end_matches('}').contains(' '),
                    "{max}: {line:?}\n{out}"
                );
                assert!(!line.starts_with(['[', '%']), "{line:?}");
            }
            let mut again: Game = out.parse().unwrap();
            assert_ne!(again.mainline, game.mainline, "{out}");
            again.edit_comments(|comments| {
                comments
                    .iter_mut()
                    .for_each(|c| *c = c.replace(['\n', '\r'], " "));
            });
            assert_eq!(again.mainline, game.mainline, "{out}");
            // The export of the export is the export.
            assert_eq!(again_export(&out, &options), out);
        }
        // A command is not broken.
        let out = movetext(&format!(
            "1. e4 {{{}[%cal Gg1f3,Rd1h5] x}} *",
            "x ".repeat(30)
        ));
        assert!(out.ends_with("\nx [%cal Gg1f3,Rd1h5] x} *"), "{out}");
        // Line ends in a comment are spaces.
        assert_eq!(movetext("1. e4 {a\r\nb\nc} *"), "1. e4 {a  b c} *");
        // A comment that fits on a line is not broken: it goes whole to the next line.
        let out = movetext(&format!("1. e4 {{{}}} e5 *", "x ".repeat(36)));
        assert_eq!(out, format!("1. e4\n{{{}}} 1...\ne5 *", "x ".repeat(36)));
    }

    fn again_export(text: &str, options: &WriteOptions) -> String {
        text.parse::<Game>().unwrap().write(options, &mut SanText)
    }

    #[test]
    fn empty_variation_and_deep_nesting() {
        assert_eq!(movetext("1. e4 () *"), "1. e4 () *");
        let deep = format!("1. e4 {}{} *", "(1. d4 ".repeat(2000), ")".repeat(2000));
        let out = export(&deep);
        assert_eq!(out.parse::<Game>().unwrap().to_string(), out);
    }
}

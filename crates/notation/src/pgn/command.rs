//! Commands embedded in comments, as lichess, chess.com, ChessBase and cutechess write them:
//! `[%clk 0:03:00]`, `[%emt 0:00:07]`, `[%eval 0.35]`, `[%eval #-3]`, `[%csl Ga4]`,
//! `[%cal Ge2e4]`, and any other `[%name args]`.
//!
//! [`Comment::parse`] splits the text of a comment into [`CommentPart`]s: plain text and commands.
//! It never fails: a command whose arguments do not read (`[%clk soon]`) is text. Writing the
//! pieces back gives the comment byte for byte ([`Comment`]'s `Display`), so a PGN written after
//! parsing keeps every command exactly as it was.

use std::{borrow::Cow, fmt, str::FromStr};

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while, take_while_m_n, take_while1},
    character::complete::{char, one_of, satisfy},
    combinator::{all_consuming, opt, recognize},
    multi::separated_list1,
    sequence::{delimited, preceded},
};

use crate::Square;

/// The result of a rule of the command grammar (no error value: a command that does not read is
/// text).
type Res<'a, T> = IResult<&'a str, T, ()>;

/// A comment split into its text and its commands.
///
/// ```
/// use tabia_notation::pgn::{Command, Comment, Eval, Score};
///
/// let comment = Comment::parse(" [%eval -1.2,23] [%clk 0:04:55.7] White resigns? ");
/// assert_eq!(comment.clock(), Some(295_700));
/// assert_eq!(comment.eval(), Some(Eval { score: Score::Cp(-120), depth: Some(23) }));
/// assert_eq!(comment.text(), "White resigns?");
/// assert_eq!(comment.commands().count(), 2);
/// // Written back byte for byte.
/// assert_eq!(comment.to_string(), " [%eval -1.2,23] [%clk 0:04:55.7] White resigns? ");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Comment<'a> {
    pieces: Vec<CommentPart<'a>>,
}

/// A piece of a comment: text, or a command with the text it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommentPart<'a> {
    /// Text (a malformed command included).
    Text(&'a str),
    /// A command.
    Command {
        /// The command as it stands in the comment, `[%` to `]`.
        raw: &'a str,
        /// What it says.
        command: Command<'a>,
    },
}

impl<'a> CommentPart<'a> {
    /// The text of a text piece, trimmed; `None` for a command or white space only (the
    /// stretches [`Comment::text`] joins).
    ///
    /// ```
    /// use tabia_notation::pgn::CommentPart;
    ///
    /// assert_eq!(CommentPart::Text("  Good move. ").trimmed_text(), Some("Good move."));
    /// assert_eq!(CommentPart::Text("  ").trimmed_text(), None);
    /// ```
    pub fn trimmed_text(&self) -> Option<&'a str> {
        match self {
            CommentPart::Text(text) => Some(text.trim()).filter(|t| !t.is_empty()),
            CommentPart::Command { .. } => None,
        }
    }

    /// The text of the piece as it stands in the comment.
    pub fn as_str(&self) -> &str {
        match self {
            CommentPart::Text(text) => text,
            CommentPart::Command { raw, .. } => raw,
        }
    }
}

/// The pieces of a comment's text one after the other, as [`Comment::parse`] splits it, for a
/// caller that looks at each piece once: nothing is collected.
///
/// ```
/// use tabia_notation::pgn::{Command, CommentPart, CommentParts};
///
/// let mut pieces = CommentParts::new(" [%clk 0:03:00] Nice. [%zz");
/// assert_eq!(pieces.next(), Some(CommentPart::Text(" ")));
/// assert!(matches!(pieces.next(), Some(CommentPart::Command { command: Command::Clock(180_000), .. })));
/// assert_eq!(pieces.next(), Some(CommentPart::Text(" Nice. [%zz")));
/// assert_eq!(pieces.next(), None);
/// ```
#[derive(Debug, Clone)]
pub struct CommentParts<'a> {
    text: &'a str,
    /// Where the text not yet given starts.
    start: usize,
    /// Where to look for the next command.
    from: usize,
    /// A command found after a stretch of text, given next.
    command: Option<CommentPart<'a>>,
}

impl<'a> CommentParts<'a> {
    /// The pieces of `text`.
    pub fn new(text: &'a str) -> CommentParts<'a> {
        CommentParts {
            text,
            start: 0,
            from: 0,
            command: None,
        }
    }
}

impl<'a> Iterator for CommentParts<'a> {
    type Item = CommentPart<'a>;

    fn next(&mut self) -> Option<CommentPart<'a>> {
        if let Some(command) = self.command.take() {
            return Some(command);
        }
        let text = self.text;
        while let Some(at) = find_command(text, self.from) {
            match read_command(&text[at..]) {
                Ok((rest, command)) => {
                    let end = text.len() - rest.len();
                    let piece = CommentPart::Command {
                        raw: &text[at..end],
                        command,
                    };
                    let start = std::mem::replace(&mut self.start, end);
                    self.from = end;
                    if start < at {
                        self.command = Some(piece);
                        return Some(CommentPart::Text(&text[start..at]));
                    }
                    return Some(piece);
                }
                Err(_) => self.from = at + 1,
            }
        }
        if self.start < text.len() {
            let start = std::mem::replace(&mut self.start, text.len());
            self.from = text.len();
            return Some(CommentPart::Text(&text[start..]));
        }
        None
    }
}

/// A command of a comment, with its typed value.
///
/// Its `Display` writes the canonical form (`[%clk 0:04:55.7]`, `[%eval -1.20,23]`); the raw
/// text of a parsed command, which may differ (`-1.2`), is kept in [`CommentPart::Command`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command<'a> {
    /// `[%clk H:MM:SS(.f)]`: the clock left after the move, in milliseconds.
    Clock(u64),
    /// `[%emt H:MM:SS(.f)]`: the time the move took, in milliseconds.
    Emt(u64),
    /// `[%eval 0.35]`, `[%eval #-3]`, `[%eval -1.2,23]`: an engine evaluation.
    Eval(Eval),
    /// `[%csl Ga4,Rb5]`: coloured squares.
    Squares(Vec<SquareMark>),
    /// `[%cal Ge2e4,Rd1h5]`: coloured arrows.
    Arrows(Vec<Arrow>),
    /// Any other `[%name args]`, kept raw (`args` without the white space around it).
    Other {
        /// The name after `%`.
        name: Cow<'a, str>,
        /// The arguments, as written.
        args: Cow<'a, str>,
    },
}

/// The kinds of [`Command`], to choose which to remove ([`strip_commands`]).
///
/// Parsed from (and displayed as) `clocks`, `emts`, `evals`, `squares`, `arrows`, `others`; the
/// command names `clk`, `emt`, `eval`, `csl`, `cal` and the singulars are accepted too.
///
/// ```
/// use tabia_notation::pgn::CommandKind;
///
/// assert_eq!("clk".parse(), Ok(CommandKind::Clock));
/// assert_eq!(CommandKind::Arrows.to_string(), "arrows");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommandKind {
    /// `[%clk]`.
    Clock,
    /// `[%emt]`.
    Emt,
    /// `[%eval]`.
    Eval,
    /// `[%csl]`.
    Squares,
    /// `[%cal]`.
    Arrows,
    /// Any other command.
    Other,
}

/// An engine evaluation: a score and, when given, the search depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score from White's point of view.
    pub score: Score,
    /// The depth of the search (`[%eval 0.35,23]`).
    pub depth: Option<u32>,
}

/// A score: centipawns, or mate in so many moves (positive: White mates).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (`0.35` is 35), White's advantage when positive.
    Cp(i32),
    /// Mate in so many moves (`#-3` is -3: Black mates in 3).
    Mate(i32),
}

/// The colour of a square mark or an arrow: `G`, `R`, `Y`, `B`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarkColor {
    /// `G`.
    Green,
    /// `R`.
    Red,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

/// A coloured square: `Ga4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquareMark {
    /// Its colour.
    pub color: MarkColor,
    /// The square.
    pub square: Square,
}

/// A coloured arrow: `Ge2e4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Its colour.
    pub color: MarkColor,
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
}

/// Where the first `[%` at or after `from` is: a search for `[` (most comments have none, the
/// rest few), cheaper than setting up a substring search for every comment.
fn find_command(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(i) = memchr::memchr(b'[', bytes.get(at..)?) {
        let open = at + i;
        if bytes.get(open + 1) == Some(&b'%') {
            return Some(open);
        }
        at = open + 1;
    }
    None
}

impl<'a> Comment<'a> {
    /// Splits the text of a comment into text and commands. Never fails: what does not read
    /// as a command is text.
    pub fn parse(text: &'a str) -> Comment<'a> {
        Comment {
            pieces: CommentParts::new(text).collect(),
        }
    }

    /// The pieces, in order; their texts put together are the comment.
    pub fn pieces(&self) -> &[CommentPart<'a>] {
        &self.pieces
    }

    /// The commands, in order.
    pub fn commands(&self) -> impl Iterator<Item = &Command<'a>> {
        self.pieces.iter().filter_map(|piece| match piece {
            CommentPart::Command { command, .. } => Some(command),
            CommentPart::Text(_) => None,
        })
    }

    /// The stretches of text between the commands, trimmed, the empty ones left out: what
    /// [`Comment::text`] joins (for a caller that writes them somewhere of its own).
    ///
    /// ```
    /// use tabia_notation::pgn::Comment;
    ///
    /// let comment = Comment::parse(" Good. [%clk 0:03:00]  [%eval 0.3] a trap  ");
    /// assert_eq!(comment.text_pieces().collect::<Vec<_>>(), ["Good.", "a trap"]);
    /// assert_eq!(comment.text(), "Good. a trap");
    /// ```
    pub fn text_pieces(&self) -> impl Iterator<Item = &str> + '_ {
        self.pieces.iter().filter_map(CommentPart::trimmed_text)
    }

    /// The text without the commands: each stretch of text between commands trimmed, the
    /// non-empty ones joined by one space.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for text in self.text_pieces() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(text);
        }
        out
    }

    /// The clock of a comment's bytes that are one `[%clk H:MM:SS]` and white space around it,
    /// what lichess writes after every move, read without decoding or splitting the comment:
    /// `None` for any other comment, which [`Comment::parse`] reads (and whose
    /// [`Comment::clock`] is then this clock, and its text empty).
    ///
    /// ```
    /// use tabia_notation::pgn::Comment;
    ///
    /// assert_eq!(Comment::lone_clock(b" [%clk 0:03:00] "), Some(180_000));
    /// assert_eq!(Comment::lone_clock(b" [%clk 0:03:00] Good"), None);
    /// assert_eq!(Comment::lone_clock(b" [%eval 0.2] [%clk 0:03:00] "), None);
    /// ```
    pub fn lone_clock(comment: &[u8]) -> Option<u64> {
        let command = comment.trim_ascii();
        match plain_clock_bytes(command)? {
            (len, ms) if len == command.len() => Some(ms),
            _ => None,
        }
    }

    /// The first `[%clk]`, in milliseconds.
    pub fn clock(&self) -> Option<u64> {
        self.commands().find_map(|c| match c {
            Command::Clock(ms) => Some(*ms),
            _ => None,
        })
    }

    /// The first `[%emt]`, in milliseconds.
    pub fn emt(&self) -> Option<u64> {
        self.commands().find_map(|c| match c {
            Command::Emt(ms) => Some(*ms),
            _ => None,
        })
    }

    /// The first `[%eval]`.
    pub fn eval(&self) -> Option<Eval> {
        self.commands().find_map(|c| match c {
            Command::Eval(eval) => Some(*eval),
            _ => None,
        })
    }

    /// The comment without the commands of the given kinds (each removed with the white space
    /// that follows it, or else the white space before it). A comment left with white space only
    /// becomes empty. The text around a removed command is kept as written, in one pass: text
    /// that spells a command only once joined (an `[%eval` that did not read around a clock)
    /// reads as that command afterwards.
    ///
    /// ```
    /// use tabia_notation::pgn::{Comment, CommandKind};
    ///
    /// let comment = Comment::parse(" [%eval 0.17] [%clk 0:00:30] ");
    /// assert_eq!(comment.without(&[CommandKind::Clock]), " [%eval 0.17] ");
    /// assert_eq!(comment.without(&[CommandKind::Clock, CommandKind::Eval]), "");
    ///
    /// let spelled = Comment::parse("[%eval [%clk 0:00:30] 0]");
    /// assert_eq!(spelled.eval(), None);
    /// let joined = spelled.without(&[CommandKind::Clock, CommandKind::Eval]);
    /// assert_eq!(joined, "[%eval 0]");
    /// assert!(Comment::parse(&joined).eval().is_some());
    /// ```
    pub fn without(&self, kinds: &[CommandKind]) -> String {
        let mut out = String::new();
        // Whether a command was just removed (its trailing white space is then eaten too).
        let mut removed = false;
        for piece in &self.pieces {
            match piece {
                CommentPart::Command { command, .. } if kinds.contains(&command.kind()) => {
                    removed = true;
                }
                CommentPart::Text(text) if removed => {
                    let after_word = out.ends_with(|c: char| !is_space(c));
                    let trimmed = text.trim_start_matches(is_space);
                    let text = if !after_word {
                        trimmed
                    } else if trimmed.len() == text.len() && !text.is_empty() {
                        // `a[%clk 0:00:01]b`: the words stay apart.
                        out.push(' ');
                        text
                    } else {
                        text
                    };
                    out.push_str(text);
                    removed = text.is_empty();
                }
                piece => {
                    out.push_str(piece.as_str());
                    removed = false;
                }
            }
        }
        if removed {
            // A removed command at the end: the white space before it goes, the comment keeps
            // the white space it ended with.
            out.truncate(out.trim_end_matches(is_space).len());
            if let Some(CommentPart::Text(last)) = self.pieces.last() {
                out.push_str(&last[last.trim_end_matches(is_space).len()..]);
            }
        }
        if out.trim_matches(is_space).is_empty() {
            out.clear();
        }
        out
    }
}

/// White space inside a comment.
fn is_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// `comment` without the commands of the given kinds ([`Comment::without`]): what
/// `tabia pgn --strip` does to each comment. An empty result means the comment is to be dropped.
///
/// ```
/// use tabia_notation::pgn::{CommandKind, strip_commands};
///
/// let kinds = [CommandKind::Clock, CommandKind::Arrows, CommandKind::Squares];
/// assert_eq!(strip_commands("Good. [%clk 0:01:00] [%cal Ge2e4]", &kinds), "Good.");
/// assert_eq!(strip_commands("[%clk 0:01:00] Good.", &kinds), "Good.");
/// assert_eq!(strip_commands("[%clk 0:01:00]", &kinds), "");
/// ```
pub fn strip_commands(comment: &str, kinds: &[CommandKind]) -> String {
    if !comment.contains("[%") {
        return comment.to_owned();
    }
    Comment::parse(comment).without(kinds)
}

impl fmt::Display for Comment<'_> {
    /// Writes the comment as it was parsed, byte for byte.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pieces
            .iter()
            .try_for_each(|piece| f.write_str(piece.as_str()))
    }
}

impl<'a> Command<'a> {
    /// Parses exactly one command, `[%` to `]`.
    ///
    /// ```
    /// use tabia_notation::pgn::{Command, Eval, Score};
    ///
    /// assert_eq!(Command::parse("[%clk 1:30:56]"), Some(Command::Clock(5_456_000)));
    /// assert_eq!(
    ///     Command::parse("[%eval #-3]"),
    ///     Some(Command::Eval(Eval { score: Score::Mate(-3), depth: None }))
    /// );
    /// assert_eq!(Command::parse("[%clk soon]"), None);
    /// ```
    pub fn parse(text: &'a str) -> Option<Command<'a>> {
        all_consuming(read_command).parse(text).ok().map(|(_, c)| c)
    }

    /// Its kind.
    pub fn kind(&self) -> CommandKind {
        match self {
            Command::Clock(_) => CommandKind::Clock,
            Command::Emt(_) => CommandKind::Emt,
            Command::Eval(_) => CommandKind::Eval,
            Command::Squares(_) => CommandKind::Squares,
            Command::Arrows(_) => CommandKind::Arrows,
            Command::Other { .. } => CommandKind::Other,
        }
    }
}

impl fmt::Display for Command<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Clock(ms) => write!(f, "[%clk {}]", Duration(*ms)),
            Command::Emt(ms) => write!(f, "[%emt {}]", Duration(*ms)),
            Command::Eval(eval) => write!(f, "[%eval {eval}]"),
            Command::Squares(marks) => {
                f.write_str("[%csl ")?;
                for (i, mark) in marks.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}{}", mark.color.char(), mark.square)?;
                }
                f.write_str("]")
            }
            Command::Arrows(arrows) => {
                f.write_str("[%cal ")?;
                for (i, arrow) in arrows.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}{}{}", arrow.color.char(), arrow.from, arrow.to)?;
                }
                f.write_str("]")
            }
            Command::Other { name, args } if args.is_empty() => write!(f, "[%{name}]"),
            Command::Other { name, args } => write!(f, "[%{name} {args}]"),
        }
    }
}

/// Milliseconds written as `H:MM:SS`, with as many decimals as they need (up to three).
struct Duration(u64);

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0;
        let secs = ms / 1000;
        write!(f, "{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)?;
        match ms % 1000 {
            0 => Ok(()),
            frac if frac % 100 == 0 => write!(f, ".{}", frac / 100),
            frac if frac % 10 == 0 => write!(f, ".{:02}", frac / 10),
            frac => write!(f, ".{frac:03}"),
        }
    }
}

impl fmt::Display for Eval {
    /// `0.35`, `-1.20,23`, `#-3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Score::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)?;
            }
            Score::Mate(n) => write!(f, "#{n}")?,
        }
        match self.depth {
            Some(depth) => write!(f, ",{depth}"),
            None => Ok(()),
        }
    }
}

impl MarkColor {
    /// `G`, `R`, `Y` or `B`.
    pub fn char(self) -> char {
        match self {
            MarkColor::Green => 'G',
            MarkColor::Red => 'R',
            MarkColor::Yellow => 'Y',
            MarkColor::Blue => 'B',
        }
    }

    /// The colour of a letter `G`, `R`, `Y` or `B`.
    pub fn from_char(c: char) -> Option<MarkColor> {
        Some(match c {
            'G' => MarkColor::Green,
            'R' => MarkColor::Red,
            'Y' => MarkColor::Yellow,
            'B' => MarkColor::Blue,
            _ => return None,
        })
    }
}

impl CommandKind {
    /// The name of the kind: `clocks`, `emts`, `evals`, `squares`, `arrows`, `others`.
    pub fn as_str(self) -> &'static str {
        match self {
            CommandKind::Clock => "clocks",
            CommandKind::Emt => "emts",
            CommandKind::Eval => "evals",
            CommandKind::Squares => "squares",
            CommandKind::Arrows => "arrows",
            CommandKind::Other => "others",
        }
    }
}

impl fmt::Display for CommandKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown command kind name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCommandKind(pub String);

impl fmt::Display for UnknownCommandKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown command kind `{}` (expected clocks, emts, evals, squares, arrows or others)",
            self.0
        )
    }
}

impl std::error::Error for UnknownCommandKind {}

impl FromStr for CommandKind {
    type Err = UnknownCommandKind;

    fn from_str(s: &str) -> Result<CommandKind, UnknownCommandKind> {
        Ok(match s {
            "clocks" | "clock" | "clk" => CommandKind::Clock,
            "emts" | "emt" => CommandKind::Emt,
            "evals" | "eval" => CommandKind::Eval,
            "squares" | "square" | "csl" => CommandKind::Squares,
            "arrows" | "arrow" | "cal" => CommandKind::Arrows,
            "others" | "other" => CommandKind::Other,
            _ => return Err(UnknownCommandKind(s.to_owned())),
        })
    }
}

/// [`command`], with the common clock read first without the grammar ([`plain_clock`]).
#[inline]
fn read_command(input: &str) -> Res<'_, Command<'_>> {
    match plain_clock(input) {
        Some(read) => Ok(read),
        None => command(input),
    }
}

// command = "[%" (clk / emt / eval / csl / cal / other) *space "]"
fn command(input: &str) -> Res<'_, Command<'_>> {
    delimited(
        tag("[%"),
        alt((clk, emt, eval, csl, cal, other)),
        (take_while(is_space), char(']')),
    )
    .parse(input)
}

/// The command lichess writes after every move, `[%clk H:MM:SS]` (one space, two-digit minutes
/// and seconds, no fraction), read without the grammar: what [`command`] reads it as, or `None`
/// for any other shape, which the rule then reads.
#[inline]
fn plain_clock(input: &str) -> Option<(&str, Command<'_>)> {
    let (len, ms) = plain_clock_bytes(input.as_bytes())?;
    Some((&input[len..], Command::Clock(ms)))
}

/// [`plain_clock`] on bytes: how many it takes, and the clock in milliseconds.
#[inline]
fn plain_clock_bytes(input: &[u8]) -> Option<(usize, u64)> {
    let rest = input.strip_prefix(b"[%clk ")?;
    let digit = |i: usize| {
        rest.get(i)
            .filter(|d| d.is_ascii_digit())
            .map(|d| u64::from(d - b'0'))
    };
    let hours_len = match (rest.get(1), rest.get(2)) {
        (Some(b':'), _) => 1,
        (_, Some(b':')) => 2,
        _ => return None,
    };
    let mut hours = 0;
    for i in 0..hours_len {
        hours = hours * 10 + digit(i)?;
    }
    let at = hours_len + 1;
    let minutes = digit(at)? * 10 + digit(at + 1)?;
    let seconds = digit(at + 3)? * 10 + digit(at + 4)?;
    if rest.get(at + 2) != Some(&b':')
        || rest.get(at + 5) != Some(&b']')
        || minutes >= 60
        || seconds >= 60
    {
        return None;
    }
    let len = b"[%clk ".len() + at + 6;
    Some((len, (hours * 3600 + minutes * 60 + seconds) * 1000))
}

// space = " " / HTAB / CR / LF
// spaces = 1*space
fn spaces(input: &str) -> Res<'_, &str> {
    take_while1(is_space).parse(input)
}

// clk = "clk" spaces duration
fn clk(input: &str) -> Res<'_, Command<'_>> {
    preceded((tag("clk"), spaces), duration)
        .map(Command::Clock)
        .parse(input)
}

// emt = "emt" spaces duration
fn emt(input: &str) -> Res<'_, Command<'_>> {
    preceded((tag("emt"), spaces), duration)
        .map(Command::Emt)
        .parse(input)
}

// duration = [1*DIGIT ":"] 1*2DIGIT ":" 1*2DIGIT ["." 1*DIGIT]     (hours, minutes, seconds)
fn duration(input: &str) -> Res<'_, u64> {
    let (rest, (first, second, third, frac)) = (
        number,
        preceded(char(':'), two_digits),
        opt(preceded(char(':'), two_digits)),
        opt(preceded(char('.'), digits)),
    )
        .parse(input)?;
    let (hours, minutes, seconds) = match third {
        Some(seconds) => (first, second, seconds),
        None => (0, first, second),
    };
    if minutes >= 60 && third.is_some() || seconds >= 60 {
        return Err(nom::Err::Error(()));
    }
    let ms = frac.map_or(0, |frac| fraction(frac, 3));
    // `[%clk 99999999999:00]`: the minutes alone may overflow.
    let total = hours
        .checked_mul(3600)
        .zip(minutes.checked_mul(60))
        .and_then(|(h, m)| h.checked_add(m)?.checked_add(seconds))
        .and_then(|s| s.checked_mul(1000))
        .and_then(|ms_total| ms_total.checked_add(ms));
    match total {
        Some(total) => Ok((rest, total)),
        None => Err(nom::Err::Error(())),
    }
}

/// The first `places` decimals of a fraction's digits, as an integer (`"7"`, 3 → 700).
fn fraction(digits: &str, places: usize) -> u64 {
    let mut value = 0;
    let mut bytes = digits.bytes();
    for _ in 0..places {
        value = value * 10 + bytes.next().map_or(0, |b| u64::from(b - b'0'));
    }
    value
}

// digits = 1*DIGIT
fn digits(input: &str) -> Res<'_, &str> {
    take_while1(|c: char| c.is_ascii_digit()).parse(input)
}

// number = 1*DIGIT     (that fits in 64 bits)
fn number(input: &str) -> Res<'_, u64> {
    digits.map_opt(|d: &str| d.parse::<u64>().ok()).parse(input)
}

// two-digits = 1*2DIGIT
fn two_digits(input: &str) -> Res<'_, u64> {
    take_while_m_n(1, 2, |c: char| c.is_ascii_digit())
        .map_opt(|d: &str| d.parse::<u64>().ok())
        .parse(input)
}

// eval = "eval" spaces (mate / pawns) ["," depth]
fn eval(input: &str) -> Res<'_, Command<'_>> {
    preceded(
        (tag("eval"), spaces),
        (alt((mate, pawns)), opt(preceded(char(','), depth))),
    )
    .map(|(score, depth)| Command::Eval(Eval { score, depth }))
    .parse(input)
}

// mate = "#" ["+" / "-"] 1*DIGIT
fn mate(input: &str) -> Res<'_, Score> {
    preceded(char('#'), (opt(one_of("+-")), digits))
        .map_opt(|(sign, n): (Option<char>, &str)| {
            let n = n.parse::<i32>().ok()?;
            Some(Score::Mate(if sign == Some('-') { -n } else { n }))
        })
        .parse(input)
}

// pawns = ["+" / "-"] 1*DIGIT ["." 1*DIGIT]     (rounded to the centipawn)
fn pawns(input: &str) -> Res<'_, Score> {
    (opt(one_of("+-")), digits, opt(preceded(char('.'), digits)))
        .map_opt(|(sign, whole, frac): (Option<char>, &str, Option<&str>)| {
            let whole = whole.parse::<i64>().ok()?;
            let milli = frac.map_or(0, |f| fraction(f, 3)) as i64;
            let cp = whole.checked_mul(100)?.checked_add((milli + 5) / 10)?;
            let cp = i32::try_from(cp).ok()?;
            Some(Score::Cp(if sign == Some('-') { -cp } else { cp }))
        })
        .parse(input)
}

// depth = 1*DIGIT
fn depth(input: &str) -> Res<'_, u32> {
    digits.map_opt(|d: &str| d.parse::<u32>().ok()).parse(input)
}

// csl = "csl" spaces square-mark *("," *space square-mark)
fn csl(input: &str) -> Res<'_, Command<'_>> {
    preceded(
        (tag("csl"), spaces),
        separated_list1((char(','), take_while(is_space)), square_mark),
    )
    .map(Command::Squares)
    .parse(input)
}

// cal = "cal" spaces arrow *("," *space arrow)
fn cal(input: &str) -> Res<'_, Command<'_>> {
    preceded(
        (tag("cal"), spaces),
        separated_list1((char(','), take_while(is_space)), arrow),
    )
    .map(Command::Arrows)
    .parse(input)
}

// square-mark = mark-color square
fn square_mark(input: &str) -> Res<'_, SquareMark> {
    (mark_color, square)
        .map(|(color, square)| SquareMark { color, square })
        .parse(input)
}

// arrow = mark-color square square
fn arrow(input: &str) -> Res<'_, Arrow> {
    (mark_color, square, square)
        .map(|(color, from, to)| Arrow { color, from, to })
        .parse(input)
}

// mark-color = "G" / "R" / "Y" / "B"
fn mark_color(input: &str) -> Res<'_, MarkColor> {
    satisfy(|c| MarkColor::from_char(c).is_some())
        .map_opt(MarkColor::from_char)
        .parse(input)
}

// square = "a"-"h" "1"-"8"
fn square(input: &str) -> Res<'_, Square> {
    (one_of("abcdefgh"), one_of("12345678"))
        .map_opt(|(file, rank)| Square::from_coords(file as u8 - b'a', rank as u8 - b'1'))
        .parse(input)
}

// other = name [spaces args]     (a name other than those above, or one of them whose
//                                  arguments do not read: then the whole command is text)
fn other(input: &str) -> Res<'_, Command<'_>> {
    let (rest, name) = name(input)?;
    if matches!(name, "clk" | "emt" | "eval" | "csl" | "cal") {
        return Err(nom::Err::Error(()));
    }
    let (rest, args) = opt(preceded(spaces, args)).parse(rest)?;
    let args = args.unwrap_or("").trim_end_matches(is_space);
    Ok((
        rest,
        Command::Other {
            name: Cow::Borrowed(name),
            args: Cow::Borrowed(args),
        },
    ))
}

// name = 1*(ALPHA / DIGIT / "_")
fn name(input: &str) -> Res<'_, &str> {
    recognize(take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_')).parse(input)
}

// args = *(any character but "[" / "]")
fn args(input: &str) -> Res<'_, &str> {
    take_while(|c| c != '[' && c != ']').parse(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Command<'_> {
        Command::parse(text).unwrap_or_else(|| panic!("{text:?} should read"))
    }

    fn cp(cp: i32, depth: Option<u32>) -> Command<'static> {
        Command::Eval(Eval {
            score: Score::Cp(cp),
            depth,
        })
    }

    #[test]
    fn clocks() {
        assert_eq!(one("[%clk 1:30:56]"), Command::Clock(5_456_000));
        assert_eq!(one("[%clk 0:04:55.7]"), Command::Clock(295_700));
        assert_eq!(one("[%clk 0:00:05.25]"), Command::Clock(5_250));
        assert_eq!(one("[%clk 0:00:05.123]"), Command::Clock(5_123));
        assert_eq!(one("[%clk 0:00:05.1239]"), Command::Clock(5_123));
        assert_eq!(one("[%clk 5:00]"), Command::Clock(300_000));
        assert_eq!(one("[%clk  0:03:00 ]"), Command::Clock(180_000));
        assert_eq!(one("[%clk 100:00:00]"), Command::Clock(360_000_000));
        assert_eq!(one("[%emt 0:00:07]"), Command::Emt(7_000));
        assert_eq!(one("[%emt 0:00:00.3]"), Command::Emt(300));
    }

    #[test]
    fn evals() {
        assert_eq!(one("[%eval 0.35]"), cp(35, None));
        assert_eq!(one("[%eval -1.2,23]"), cp(-120, Some(23)));
        assert_eq!(one("[%eval +2]"), cp(200, None));
        assert_eq!(one("[%eval -0.005]"), cp(-1, None));
        assert_eq!(one("[%eval 0.004]"), cp(0, None));
        assert_eq!(
            one("[%eval #-3]"),
            Command::Eval(Eval {
                score: Score::Mate(-3),
                depth: None
            })
        );
        assert_eq!(
            one("[%eval #4,30]"),
            Command::Eval(Eval {
                score: Score::Mate(4),
                depth: Some(30)
            })
        );
    }

    #[test]
    fn marks() {
        assert_eq!(
            one("[%csl Ga4,Rb5]"),
            Command::Squares(vec![
                SquareMark {
                    color: MarkColor::Green,
                    square: Square::A4
                },
                SquareMark {
                    color: MarkColor::Red,
                    square: Square::B5
                },
            ])
        );
        assert_eq!(
            one("[%cal Ge2e4,Rd1h5]"),
            Command::Arrows(vec![
                Arrow {
                    color: MarkColor::Green,
                    from: Square::E2,
                    to: Square::E4
                },
                Arrow {
                    color: MarkColor::Red,
                    from: Square::D1,
                    to: Square::H5
                },
            ])
        );
        assert_eq!(one("[%cal Ye2e4, Bd1h5]").kind(), CommandKind::Arrows);
    }

    #[test]
    fn others_are_raw() {
        assert_eq!(
            one("[%evp 0,12,-5]"),
            Command::Other {
                name: "evp".into(),
                args: "0,12,-5".into()
            }
        );
        assert_eq!(
            one("[%mdl]"),
            Command::Other {
                name: "mdl".into(),
                args: "".into()
            }
        );
        assert_eq!(one("[%tqu \"En\",\"\",\"\"]").kind(), CommandKind::Other);
    }

    #[test]
    fn malformed_commands_are_text() {
        for text in [
            "[%clk soon]",
            "[%clk 1:30:60]",
            "[%clk 1:60:00]",
            "[%clk 0:03:00",
            "[%clk99999999999999999999:00:00]",
            "[%clk 99999999999999999999:00:00]",
            // Minutes that overflow milliseconds (found by the `comment` fuzz target).
            "[%clk 999999999999999999:00]",
            "[%emt 0999999999999999999:59.5]",
            "[%eval]",
            "[%eval 1.2.3]",
            "[%eval #]",
            "[%eval 99999999999]",
            "[%csl Xa4]",
            "[%csl Ga9]",
            "[%cal Ge2]",
            "[%cal Ge2e4,]",
            "[% clk 0:03:00]",
            "[%]",
        ] {
            assert_eq!(Command::parse(text), None, "{text:?}");
            let comment = Comment::parse(text);
            assert_eq!(comment.commands().count(), 0, "{text:?}");
            assert_eq!(comment.to_string(), text);
        }
    }

    #[test]
    fn comment_pieces() {
        let comment = Comment::parse("Nice [%clk 0:01:00][%a [%eval 0.1] tail]");
        assert_eq!(
            comment.pieces(),
            [
                CommentPart::Text("Nice "),
                CommentPart::Command {
                    raw: "[%clk 0:01:00]",
                    command: Command::Clock(60_000)
                },
                CommentPart::Text("[%a "),
                CommentPart::Command {
                    raw: "[%eval 0.1]",
                    command: cp(10, None)
                },
                CommentPart::Text(" tail]"),
            ]
        );
        assert_eq!(comment.text(), "Nice [%a tail]");
        assert_eq!(
            comment.eval(),
            Some(Eval {
                score: Score::Cp(10),
                depth: None
            })
        );
        assert_eq!(comment.emt(), None);
        assert_eq!(Comment::parse("").pieces(), []);
        assert_eq!(Comment::parse("  ").text(), "");
    }

    #[test]
    fn canonical_display_round_trips() {
        for text in [
            "[%clk 1:30:56]",
            "[%clk 0:04:55.7]",
            "[%clk 0:00:05.25]",
            "[%clk 0:00:05.123]",
            "[%emt 0:00:07]",
            "[%eval 0.35]",
            "[%eval -1.20,23]",
            "[%eval #-3]",
            "[%eval 0.00]",
            "[%csl Ga4,Rb5]",
            "[%cal Ge2e4,Rd1h5]",
            "[%evp 0,12,-5]",
            "[%mdl]",
        ] {
            assert_eq!(one(text).to_string(), text);
        }
    }

    #[test]
    fn without() {
        let strip = |text: &str, kinds: &[CommandKind]| strip_commands(text, kinds);
        use CommandKind::*;
        assert_eq!(strip("a [%clk 0:00:01] b", &[Clock]), "a b");
        assert_eq!(strip("a [%clk 0:00:01]", &[Clock]), "a");
        assert_eq!(strip(" [%clk 0:00:01] b ", &[Clock]), " b ");
        assert_eq!(strip("[%clk 0:00:01][%eval 1]", &[Clock]), "[%eval 1]");
        assert_eq!(strip(" [%eval 1] [%clk 0:00:01] ", &[Clock]), " [%eval 1] ");
        assert_eq!(strip("a [%clk 0:00:01] ", &[Clock]), "a ");
        assert_eq!(strip("a [%clk 0:00:01]b", &[Clock]), "a b");
        assert_eq!(
            strip(" [%eval 1] [%clk 0:00:01] ", &[Eval]),
            " [%clk 0:00:01] "
        );
        assert_eq!(strip(" [%eval 1] [%clk 0:00:01] ", &[Eval, Clock]), "");
        assert_eq!(strip("a [%x y] b", &[Clock]), "a [%x y] b");
        assert_eq!(strip("a[%clk 0:00:01]b", &[Clock]), "a b");
        assert_eq!(strip("a [%x y] b", &[Other]), "a b");
        assert_eq!(strip("no commands ", &[Clock]), "no commands ");
        assert_eq!(strip("[%csl Ga4] [%cal Ge2e4] x", &[Squares, Arrows]), "x");
    }

    #[test]
    fn plain_clocks() {
        assert_eq!(
            plain_clock("[%clk 0:03:00] x"),
            Some((" x", Command::Clock(180_000)))
        );
        assert_eq!(
            plain_clock("[%clk 12:59:09]"),
            Some(("", Command::Clock(46_749_000)))
        );
        // Other shapes are left to the rule, which reads them the same or as text.
        for text in [
            "[%clk 0:3:00]",
            "[%clk 0:03:00.5]",
            "[%clk  0:03:00]",
            "[%clk 0:60:00]",
            "[%clk 0:03:60]",
            "[%clk 123:00:00]",
            "[%clk 03:00]",
            "[%clk 0:03:00 ]",
            "[%clk 0:03:0]",
            "[%clk 0:03:00",
        ] {
            assert_eq!(plain_clock(text), None, "{text}");
        }
        assert_eq!(one("[%clk 123:00:00]"), Command::Clock(442_800_000));
        assert_eq!(one("[%clk 0:03:00 ]"), Command::Clock(180_000));
    }

    #[test]
    fn a_lone_clock_is_what_parse_reads() {
        for text in [
            " [%clk 0:03:00] ",
            "[%clk 1:00:59]",
            "\n[%clk 0:00:01]\t",
            " [%clk 0:03:00] x",
            "x [%clk 0:03:00]",
            " [%clk 0:03:00][%clk 0:03:00] ",
            " [%clk 0:03:00.5] ",
            " [%clk 0:61:00] ",
            "",
        ] {
            let parsed = Comment::parse(text);
            let lone = parsed.commands().count() == 1 && parsed.text().is_empty();
            let expected = parsed.clock().filter(|_| lone && !text.contains('.'));
            assert_eq!(Comment::lone_clock(text.as_bytes()), expected, "{text:?}");
        }
    }

    #[test]
    fn pieces_as_parse() {
        for text in [
            "",
            " ",
            "[%clk 0:03:00]",
            " [%eval 0.17] [%clk 0:03:00] ",
            "a [%zz b [%clk 0:00:01]c[%eval #-3]",
            "[%bad",
        ] {
            let pieces: Vec<CommentPart<'_>> = CommentParts::new(text).collect();
            let joined: String = pieces.iter().map(CommentPart::as_str).collect();
            assert_eq!(joined, text);
            assert_eq!(Comment::parse(text).pieces(), &pieces[..]);
        }
    }

    proptest::proptest! {
        /// The clock read without the grammar is what the grammar reads, for every clock of
        /// the shape it takes and for near misses.
        #[test]
        fn plain_clock_is_the_rule(
            hours in 0u32..130,
            minutes in 0u32..70,
            seconds in 0u32..70,
            shape in 0usize..6,
            tail in r"[ \]a-z0-9.]{0,3}",
        ) {
            let text = match shape {
                0 => format!("[%clk {hours}:{minutes:02}:{seconds:02}]{tail}"),
                1 => format!("[%clk {hours}:{minutes}:{seconds}]{tail}"),
                2 => format!("[%clk {hours:02}:{minutes:02}:{seconds:02}{tail}"),
                3 => format!("[%clk {minutes:02}:{seconds:02}]{tail}"),
                4 => format!("[%clk {hours}:{minutes:02}:{seconds:02}.{tail}]"),
                _ => format!("[%clk  {hours}:{minutes:02}:{seconds:02}]{tail}"),
            };
            if let Some(fast) = plain_clock(&text) {
                proptest::prop_assert_eq!(Ok(fast), command(&text));
            }
            proptest::prop_assert_eq!(read_command(&text), command(&text));
        }
    }

    #[test]
    fn kinds() {
        use CommandKind::*;
        for kind in [Clock, Emt, Eval, Squares, Arrows, Other] {
            assert_eq!(kind.to_string().parse(), Ok(kind));
        }
        assert_eq!(
            "moves".parse::<CommandKind>().unwrap_err().to_string(),
            "unknown command kind `moves` (expected clocks, emts, evals, squares, arrows or others)"
        );
    }
}

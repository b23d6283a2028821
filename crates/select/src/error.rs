//! [`ParseError`]: why a criterion could not be read, with the bad part marked.

use std::{fmt, ops::Range};

/// What was wrong with a criterion's text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Nothing was given.
    Empty,
    /// A tag name must be letters, digits and `_`.
    TagName,
    /// No comparison operator after the tag name.
    Operator,
    /// An operator that is not one (`==`, `<>`, `=>`): an operator followed by a bare value
    /// that starts with an operator's character.
    UnknownOperator,
    /// A regular expression that does not compile (the `regex` crate's reason).
    Regex(String),
    /// Not a number.
    Number,
    /// Not a date (`YYYY`, `YYYY.MM`, `YYYY.MM.DD`, `??` for unknown parts).
    Date,
    /// Not a range (`MIN..MAX`, `MIN..`, `..MAX` or one value).
    Range,
    /// A range whose minimum is above its maximum.
    EmptyRange,
    /// A range written with a dash (`2500-2700`) instead of `..`.
    DashRange,
    /// Not a result.
    Result,
    /// Not an ECO code, prefix or range.
    Eco,
    /// Not a position (FEN, EPD, partial FEN or `startpos`); the position parser's reason.
    Position(String),
    /// Not 16 hexadecimal digits.
    Zobrist,
    /// A move that is not legal where it is played, or not a move (the reason).
    Move(String),
    /// A FEN pattern that is not well formed (the reason).
    Pattern(&'static str),
    /// A material description that is not well formed (the reason).
    Material(&'static str),
    /// Not a side to move (`w` or `b`).
    Side,
    /// Not a known variant name.
    Variant,
    /// Not the name of a criterion ([`Criterion::from_option`](crate::Criterion::from_option)).
    UnknownCriterion,
    /// A tag comparison written as a criterion (`White=Carlsen`, `Date>=2020`): the criterion
    /// to write instead (`--tag White=Carlsen`).
    BareTag(String),
    /// A criterion that takes a value given none, or one that takes none given one.
    Value {
        /// Whether the criterion takes a value.
        expected: bool,
    },
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Empty => f.write_str("nothing given"),
            ParseErrorKind::TagName => f.write_str("expected a tag name (letters, digits and `_`)"),
            ParseErrorKind::Operator => f.write_str("expected an operator: = != < <= > >= ~ !~"),
            ParseErrorKind::UnknownOperator => f.write_str(
                "not an operator: use one of = != < <= > >= ~ !~ (a value that starts with \
                 one of their characters goes in quotes: Event=\"=x\")",
            ),
            ParseErrorKind::Regex(reason) => write!(f, "bad regular expression: {reason}"),
            ParseErrorKind::Number => f.write_str("expected a number"),
            ParseErrorKind::Date => {
                f.write_str("expected a date: YYYY, YYYY.MM or YYYY.MM.DD (`??` for unknown parts)")
            }
            ParseErrorKind::Range => {
                f.write_str("expected a range: MIN..MAX, MIN.., ..MAX or one value")
            }
            ParseErrorKind::EmptyRange => f.write_str("the minimum is above the maximum"),
            ParseErrorKind::DashRange => {
                f.write_str("a range is written with `..`: MIN..MAX (2500..2700, not 2500-2700)")
            }
            ParseErrorKind::Result => {
                f.write_str("expected a result: 1-0, 0-1, 1/2-1/2, *, decisive or draw")
            }
            ParseErrorKind::Eco => {
                f.write_str("expected an ECO code, prefix or range: B90, B9, B, A00-B19")
            }
            ParseErrorKind::Position(reason) => write!(f, "bad position: {reason}"),
            ParseErrorKind::Zobrist => f.write_str("expected a 64-bit hash: 16 hexadecimal digits"),
            ParseErrorKind::Move(reason) => f.write_str(reason),
            ParseErrorKind::Pattern(reason) => f.write_str(reason),
            ParseErrorKind::Material(reason) => f.write_str(reason),
            ParseErrorKind::Side => f.write_str("expected a side to move: w or b"),
            ParseErrorKind::Variant => {
                f.write_str("expected a variant: standard, chess960, or a name as in Variant tags")
            }
            ParseErrorKind::UnknownCriterion => write!(
                f,
                "not a criterion: expected one of {}, {}",
                crate::criterion::VALUED.join(", "),
                crate::Feature::ALL.map(crate::Feature::as_str).join(", ")
            ),
            ParseErrorKind::BareTag(criterion) => write!(
                f,
                "not a criterion: a tag is compared with the tag criterion, `{criterion}`"
            ),
            ParseErrorKind::Value { expected: true } => f.write_str("this criterion needs a value"),
            ParseErrorKind::Value { expected: false } => {
                f.write_str("this criterion takes no value")
            }
        }
    }
}

/// A criterion that could not be read: its kind, the text and the byte span of the bad part.
/// `Display` names the criterion and draws a caret under the bad part:
///
/// ```
/// let err = "White Kasparov".parse::<tabia_select::TagCriterion>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid tag criterion: expected an operator: = != < <= > >= ~ !~ at column 7\n  | White Kasparov\n  |       ^"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    what: &'static str,
    kind: ParseErrorKind,
    input: String,
    span: Range<usize>,
}

impl ParseError {
    /// An error of kind `kind` in `input` at the bytes `span`, for a criterion named `what`.
    /// The span is widened to whole characters (a byte parser may point inside one).
    pub fn new(
        what: &'static str,
        kind: ParseErrorKind,
        input: &str,
        span: Range<usize>,
    ) -> ParseError {
        ParseError {
            what,
            kind,
            input: input.to_owned(),
            span: char_span(input, span),
        }
    }

    /// The same error inside a larger text, where the criterion's text starts at `offset` and
    /// `input` is the whole text.
    pub(crate) fn shift(mut self, what: &'static str, input: &str, offset: usize) -> ParseError {
        self.what = what;
        self.span = char_span(input, self.span.start + offset..self.span.end + offset);
        self.input = input.to_owned();
        self
    }

    /// What was wrong.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }

    /// The byte span of the bad part in [`ParseError::input`].
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// The criterion's text.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// Which criterion it was (`tag`, `position`, …).
    pub fn what(&self) -> &'static str {
        self.what
    }
}

/// `span` inside `input`, its ends moved out to the nearest character boundaries.
fn char_span(input: &str, span: Range<usize>) -> Range<usize> {
    let mut start = span.start.min(input.len());
    while !input.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.end.clamp(start, input.len());
    while !input.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {} criterion: {}", self.what, self.kind)?;
        if self.input.is_empty() || self.input.contains('\n') {
            return Ok(());
        }
        let column = self.input[..self.span.start].chars().count();
        let width = self.input[self.span.clone()].chars().count().max(1);
        write!(
            f,
            " at column {}\n  | {}\n  | {}{}",
            column + 1,
            self.input,
            " ".repeat(column),
            "^".repeat(width)
        )
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_inside_a_character_widen_to_it() {
        let err = ParseError::new("tag", ParseErrorKind::Empty, "é=x", 1..1);
        assert_eq!(err.span(), 0..2);
        let err = ParseError::new("tag", ParseErrorKind::Empty, "aé", 2..2);
        assert_eq!(err.span(), 1..3);
        assert_eq!(
            err.to_string(),
            "invalid tag criterion: nothing given at column 2\n  | aé\n  |  ^"
        );
    }

    /// Found by the `criteria` fuzz target: the FEN parser's span fell inside `摆`.
    #[test]
    fn a_position_error_inside_a_character_writes() {
        let err = "摆\u{1} (s-ec%"
            .parse::<crate::PositionTarget>()
            .expect_err("not a position");
        assert_eq!(err.span(), 0..3);
        assert_eq!(
            err.to_string(),
            "invalid position criterion: bad position: invalid piece placement (expected a \
             piece letter, a digit 1 to 8 or `/`) at column 1\n  | 摆\u{1} (s-ec%\n  | ^"
        );
    }
}

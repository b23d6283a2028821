//! Tag pairs: `[Name "value"]`, with `\"` and `\\` escapes in the value.

use std::{borrow::Cow, fmt};

use super::rule::{CLASS, NAME, Res, RuleError, VALUE_STOP, fail, swar_find};
use crate::{ErrorKind, decode};

/// The value of a tag pair as it stands between the quotes, escapes still in.
///
/// ```
/// use tabia_notation::pgn::RawTag;
///
/// let raw = RawTag(br#"Fischer, \"Bobby\""#);
/// assert_eq!(raw.decode(), r#"Fischer, "Bobby""#);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawTag<'a>(pub &'a [u8]);

impl<'a> RawTag<'a> {
    /// The bytes between the quotes, escapes still in.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The value with `\"` and `\\` unescaped (a backslash before any other character is kept),
    /// decoded as UTF-8 or, when the bytes are not UTF-8, as Latin-1.
    pub fn decode(&self) -> Cow<'a, str> {
        if !self.0.contains(&b'\\') {
            return decode(self.0);
        }
        decode(&unescape(self.0)).into_owned().into()
    }
}

/// Appends the tag pair `name`, `value` to `tags` as the game tree holds it ([`Game::tags`]:
/// decoded, the value unescaped), in strings taken from `spare` (the pairs of an earlier game,
/// their room kept) when it has some: a visitor that keeps every game's tags allocates for the
/// first games only.
///
/// ```
/// use tabia_notation::pgn::{RawTag, push_tag};
///
/// let mut spare = vec![("Old".to_owned(), "a longer value".to_owned())];
/// let mut tags = Vec::new();
/// push_tag(&mut tags, &mut spare, b"White", RawTag(br#"Fischer, \"Bobby\""#));
/// assert_eq!(tags, [("White".to_owned(), r#"Fischer, "Bobby""#.to_owned())]);
/// assert!(spare.is_empty());
/// ```
///
/// [`Game::tags`]: super::Game::tags
pub fn push_tag(
    tags: &mut Vec<(String, String)>,
    spare: &mut Vec<(String, String)>,
    name: &[u8],
    value: RawTag<'_>,
) {
    let (mut n, mut v) = spare.pop().unwrap_or_default();
    n.clear();
    n.push_str(&decode(name));
    v.clear();
    v.push_str(&value.decode());
    tags.push((n, v));
}

impl fmt::Debug for RawTag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawTag({:?})", decode(self.0))
    }
}

/// `\"` → `"`, `\\` → `\`; a backslash before anything else stays.
fn unescape(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut iter = bytes.iter().copied().peekable();
    while let Some(b) = iter.next() {
        if b == b'\\'
            && let Some(&next @ (b'"' | b'\\')) = iter.peek()
        {
            out.push(next);
            iter.next();
        } else {
            out.push(b);
        }
    }
    out
}

/// Writes `value` quoted, with `"` and `\` escaped.
pub(crate) fn write_quoted(f: &mut impl fmt::Write, value: &str) -> fmt::Result {
    f.write_char('"')?;
    for part in value.split_inclusive(['"', '\\']) {
        match part.as_bytes().last() {
            Some(&(q @ b'"' | q @ b'\\')) => {
                f.write_str(&part[..part.len() - 1])?;
                f.write_char('\\')?;
                f.write_char(char::from(q))?;
            }
            _ => f.write_str(part)?,
        }
    }
    f.write_char('"')
}

/// A byte of a tag name: the standard's letters, digits and `_`, and `+ - . : # = /` that some
/// files use.
#[inline(always)]
fn is_name_byte(b: u8) -> bool {
    CLASS[usize::from(b)] & NAME != 0
}

/// A tag pair found in a line: the name, the raw value, and where it ends.
pub(crate) struct TagPair<'a> {
    pub(crate) name: &'a [u8],
    pub(crate) value: &'a [u8],
    /// The value has quotes inside it that are not escaped, read leniently (a warning).
    pub(crate) unescaped_quotes: bool,
}

// tag-pair = "[" *space tag-name *space tag-value *space "]"
//
// `input` holds at least the rest of the line (a tag pair never spans lines).
pub(crate) fn tag_pair(input: &[u8]) -> Res<'_, TagPair<'_>> {
    let Some((&b'[', i)) = input.split_first() else {
        return fail(input, 1, ErrorKind::InvalidTag);
    };
    let i = spaces(i);
    let (i, name) = tag_name(i)?;
    let i = spaces(i);
    let after_name = i;
    let (i, value) = tag_value(i)?;
    let i = spaces(i);
    match i.split_first() {
        Some((&b']', rest)) => Ok((
            rest,
            TagPair {
                name,
                value,
                unescaped_quotes: false,
            },
        )),
        _ => match unescaped_value(after_name) {
            Some((rest, value)) => Ok((
                rest,
                TagPair {
                    name,
                    value,
                    unescaped_quotes: true,
                },
            )),
            None => Err(nom::Err::Error(
                RuleError::at(i, 1, ErrorKind::UnterminatedTag).expected("`]`"),
            )),
        },
    }
}

// lenient-tag-value = DQUOTE *(any byte but line ends) DQUOTE *space "]" *space line-end
//
// A value whose quote closes before a word that goes on (`""Socrates Expert""`): everything
// from the first quote to the last one of the line, when that quote is followed by the `]`
// that ends the line (as python-chess reads it). `None` without a line end in `input`, so
// that the reading does not depend on how much of the line is buffered.
fn unescaped_value(input: &[u8]) -> Option<(&[u8], &[u8])> {
    let body = input.strip_prefix(b"\"")?;
    let line_end = memchr::memchr2(b'\n', b'\r', body)?;
    let line = body[..line_end].trim_ascii_end();
    let line = line.strip_suffix(b"]")?.trim_ascii_end();
    let value = line.strip_suffix(b"\"")?;
    // The value must hold a quote: else the rule's own reading stands.
    memchr::memchr(b'"', value)?;
    let consumed = 1 + line.len();
    let rest = &input[consumed..];
    let rest = &rest[rest.iter().position(|&b| b == b']')? + 1..];
    Some((rest, value))
}

// plain-tag-pair = "[" tag-name SP DQUOTE *plain-char DQUOTE "]"
// plain-char = any byte but DQUOTE, "\" and line ends
//
// The shape nearly every tag pair has, read without the general rule: `Some` with the pair
// and the length it takes only where [`tag_pair`] reads the same pair of the same length;
// `None` for anything else (more spaces, tabs, escapes, a pair that `input` cuts, now and then
// a value that ends in the last eight bytes of `input`), which the caller hands to
// [`tag_pair`].
#[inline(always)]
pub(crate) fn plain_tag_pair(input: &[u8]) -> Option<(TagPair<'_>, usize)> {
    let rest = input.strip_prefix(b"[")?;
    let name_len = rest.iter().position(|&b| !is_name_byte(b))?;
    let (name, rest) = rest.split_at(name_len);
    let body = rest.strip_prefix(b" \"")?;
    // Values are short (ten bytes on average in lichess games): a word at a time beats
    // `memchr`'s set-up and a byte loop. A quote past the last whole word is left to the rule.
    let value_len = swar_find(body, [b'"', b'\\', b'\n', b'\r'], usize::MAX).ok()?;
    if name.is_empty() || body.get(value_len..value_len + 2) != Some(b"\"]") {
        return None;
    }
    let pair = TagPair {
        name,
        value: &body[..value_len],
        unescaped_quotes: false,
    };
    Some((pair, name_len + value_len + 5))
}

// space = " " / HTAB
fn spaces(input: &[u8]) -> &[u8] {
    let n = input
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(input.len());
    &input[n..]
}

// tag-name = 1*(ALPHA / DIGIT / "_" / "+" / "-" / "." / ":" / "#" / "=" / "/")
fn tag_name(input: &[u8]) -> Res<'_, &[u8]> {
    let n = input
        .iter()
        .position(|&b| !is_name_byte(b))
        .unwrap_or(input.len());
    if n == 0 {
        return Err(nom::Err::Error(
            RuleError::at(input, 1, ErrorKind::InvalidTag).expected("a tag name"),
        ));
    }
    Ok((&input[n..], &input[..n]))
}

// tag-value = DQUOTE *(value-char / "\" DQUOTE / "\\") DQUOTE
// value-char = any byte but DQUOTE, "\" and line ends ("\" before another byte is kept as is)
fn tag_value(input: &[u8]) -> Res<'_, &[u8]> {
    let Some((&b'"', body)) = input.split_first() else {
        return Err(nom::Err::Error(
            RuleError::at(input, 1, ErrorKind::InvalidTag).expected("a quoted tag value"),
        ));
    };
    let mut i = 0;
    while let Some(&b) = body.get(i) {
        if CLASS[usize::from(b)] & VALUE_STOP == 0 {
            // Eight bytes at a time to the next stop.
            i += match swar_find(&body[i..], [b'"', b'\\', b'\n', b'\r'], usize::MAX) {
                Ok(n) | Err(n) => n.max(1),
            };
            continue;
        }
        match b {
            b'"' => return Ok((&body[i + 1..], &body[..i])),
            b'\\' if matches!(body.get(i + 1), Some(b'"' | b'\\')) => i += 2,
            b'\\' => i += 1,
            _ => break,
        }
    }
    Err(nom::Err::Error(
        RuleError::at(input, 1, ErrorKind::UnterminatedString).expected("`\"` before the line end"),
    ))
}

#[cfg(test)]
pub(super) mod tests {
    use proptest::{prelude::*, sample::select};

    use super::*;

    #[test]
    fn unescaped_inner_quotes_are_read_to_the_last_quote() {
        let game: crate::pgn::Game = "[White \"\"Socrates Expert\"\"]\n[Black \"b\"]\n\n1. e4 *"
            .parse()
            .unwrap();
        assert_eq!(
            game.tags[..2],
            [
                ("White".to_owned(), "\"Socrates Expert\"".to_owned()),
                ("Black".to_owned(), "b".to_owned())
            ]
        );
        assert_eq!(game.warnings.len(), 1);
        assert_eq!(
            game.warnings[0].to_string(),
            "tag value has quotes inside it that are not escaped (`\\\"`), read up to the last \
             quote of the line"
        );
        assert_eq!(
            (game.warnings[0].at.line, game.warnings[0].at.column),
            (1, 1)
        );
        // Written back escaped, it reads as it was read.
        let again: crate::pgn::Game = game.to_string().parse().unwrap();
        assert_eq!(
            again.tags[4],
            ("White".to_owned(), "\"Socrates Expert\"".to_owned())
        );
        assert!(again.warnings.is_empty());
        // Two pairs on a line, and a value that goes on with no closing `]`, are not read so.
        let (_, pair) = tag_pair(b"[White \"a\"] [Black \"b\"]\n").unwrap();
        assert_eq!((pair.value, pair.unescaped_quotes), (&b"a"[..], false));
        assert!(
            "[White \"a\"b\n\n1. e4 *"
                .parse::<crate::pgn::Game>()
                .is_err()
        );
    }

    /// A line that looks more or less like a tag pair: each part mostly as the common shape
    /// has it, else with what the rule treats specially (spaces and tabs, odd name bytes,
    /// escapes, quotes and brackets in the value, line ends, missing parts).
    pub(in crate::pgn) fn tag_line() -> impl Strategy<Value = Vec<u8>> {
        const OPEN: &[&[u8]] = &[b"[", b"[", b"[", b"[ ", b"[\t", b"", b" ["];
        const ODD_NAME: &[u8] = b"Ez9_+-.:#=/ \t\"[]\\%'\xe9\x00";
        const SPACE: &[&[u8]] = &[b" ", b" ", b" ", b"", b"  ", b"\t", b" \t"];
        const OPEN_QUOTE: &[&[u8]] = &[b"\"", b"\"", b"\"", b"", b"'"];
        const VALUE: &[&[u8]] = &[
            b"a",
            b"Deep Blue",
            b" ",
            b"\t",
            b"\\\"",
            b"\\\\",
            b"\\",
            b"\\n",
            b"\"",
            b"]",
            b"[",
            b"\xc3\xa9",
            b"\xe9",
            b"\r",
            b"\n",
            b"\r\n",
            b";",
            b"{",
        ];
        const CLOSE_QUOTE: &[&[u8]] = &[b"\"", b"\"", b"\"", b"", b"\\\""];
        const PAD: &[&[u8]] = &[b"", b"", b"", b" ", b"\t"];
        const CLOSE: &[&[u8]] = &[b"]", b"]", b"]", b"", b"]]", b"] x", b"\"]"];
        const END: &[&[u8]] = &[b"\n", b"\n", b"\r\n", b"\r", b"", b" ", b"\n\n", b"\t\n"];
        let bytes = |s: String| s.into_bytes();
        let name = prop_oneof![
            3 => "[A-Za-z0-9_+.:#=/-]{1,12}".prop_map(bytes),
            1 => proptest::collection::vec(select(ODD_NAME), 0..6),
        ];
        let value = prop_oneof![
            3 => "[ -!#-\\[\\]-~]{0,40}".prop_map(bytes),
            1 => proptest::collection::vec(select(VALUE), 0..6).prop_map(|v| v.concat()),
        ];
        let parts = (select(OPEN), name, select(SPACE), select(OPEN_QUOTE), value);
        let ends = (select(CLOSE_QUOTE), select(PAD), select(CLOSE), select(END));
        (parts, ends).prop_map(|((open, name, space, q1, value), (q2, pad, close, end))| {
            [open, &name, space, q1, &value, q2, pad, close, end].concat()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Wherever the fast path reads a pair (in two lines or in any prefix of them, as a
        /// buffer may end anywhere), the rule reads the same name and value and takes as much;
        /// so wherever the rule fails, the fast path declines.
        #[test]
        fn the_fast_path_reads_as_the_rule_does(line in tag_line(), next in tag_line()) {
            let lines = [line, next].concat();
            for end in 0..=lines.len() {
                let input = &lines[..end];
                if let Some((pair, n)) = plain_tag_pair(input) {
                    let Ok((rest, rule_pair)) = tag_pair(input) else {
                        let input = input.escape_ascii();
                        return Err(TestCaseError::fail(format!("the rule fails on {input}")));
                    };
                    prop_assert_eq!(pair.name, rule_pair.name);
                    prop_assert_eq!(pair.value, rule_pair.value);
                    prop_assert_eq!(n, input.len() - rest.len());
                }
            }
        }

        /// The common shape takes the fast path.
        #[test]
        fn plain_pairs_take_the_fast_path(
            name in "[A-Za-z0-9_+.:#=/-]{1,20}",
            value in "[^\"\\\\\r\n]{0,60}",
            end in select(&["\n", "\r\n", "", " x"][..]),
        ) {
            // What follows a tag pair in a game (the fast path wants a word after the value).
            let line = format!("[{name} \"{value}\"]{end}\n1. e4 *\n");
            let (pair, n) = plain_tag_pair(line.as_bytes()).expect("the fast path");
            prop_assert_eq!(pair.name, name.as_bytes());
            prop_assert_eq!(pair.value, value.as_bytes());
            prop_assert_eq!(n, name.len() + value.len() + 5);
        }
    }

    #[test]
    fn the_fast_path_declines_what_it_does_not_know() {
        for line in [
            &br#"[Event  "a"]"#[..],
            br#"[ Event "a"]"#,
            br#"[Event	"a"]"#,
            br#"[Event"a"]"#,
            br#"[Event "a" ]"#,
            br#"[Event "a \"b\""]"#,
            br#"[Event "a\b"]"#,
            b"[Event \"a\nb\"]",
            b"[Event \"a\rb\"]",
            br#"[Event "a""#,
            br#"[Event "a"#,
            br#"[ "a"]"#,
            br#"["a"]"#,
            br#"[Ev%nt "a"]"#,
            br#"Event "a"]"#,
            br#"[Event "a"x"#,
            b"[Event",
            b"[",
            b"",
        ] {
            // Also with what may follow in a game, so that it is not the end of the input
            // that turns the pair down.
            for input in [line.to_vec(), [line, b"\n\n1. e4 e5 *\n"].concat()] {
                assert!(plain_tag_pair(&input).is_none(), "{}", input.escape_ascii());
            }
        }
        let (pair, n) = plain_tag_pair(b"[Site \"https://lichess.org/ENPo6ReH\"]\n[").unwrap();
        assert_eq!(
            (pair.name, pair.value, n),
            (&b"Site"[..], &b"https://lichess.org/ENPo6ReH"[..], 37)
        );
        let (pair, n) = plain_tag_pair(b"[X \"\"]\n\n1. e4 *").unwrap();
        assert_eq!((pair.name, pair.value, n), (&b"X"[..], &b""[..], 6));
    }

    fn pair(s: &[u8]) -> (String, String, usize) {
        let (rest, p) = tag_pair(s).unwrap();
        (
            String::from_utf8(p.name.to_vec()).unwrap(),
            RawTag(p.value).decode().into_owned(),
            rest.len(),
        )
    }

    fn err(s: &[u8]) -> (ErrorKind, usize) {
        match tag_pair(s) {
            Err(nom::Err::Error(e)) => (e.kind, e.offset_in(s)),
            _ => panic!("expected an error"),
        }
    }

    #[test]
    fn simple_pair() {
        assert_eq!(
            pair(b"[Event \"F/S Return\"]\n"),
            ("Event".into(), "F/S Return".into(), 1)
        );
    }

    #[test]
    fn spaces_and_escapes() {
        assert_eq!(
            pair(br#"[ White   "a \"b\" \\ c" ] x"#),
            ("White".into(), r#"a "b" \ c"#.into(), 2)
        );
        assert_eq!(pair(br#"[X "a]b"]"#).1, "a]b");
        assert_eq!(pair(br#"[X "a\nb"]"#).1, r"a\nb");
    }

    #[test]
    fn latin1_value() {
        assert_eq!(pair(b"[White \"J\xf6rg\"]").1, "J\u{f6}rg");
    }

    #[test]
    fn errors() {
        assert_eq!(err(b"[\"x\"]"), (ErrorKind::InvalidTag, 1));
        assert_eq!(err(b"[Event x]"), (ErrorKind::InvalidTag, 7));
        assert_eq!(err(b"[Event \"x\"\n"), (ErrorKind::UnterminatedTag, 10));
        assert_eq!(err(b"[Event \"x\n"), (ErrorKind::UnterminatedString, 7));
        assert_eq!(err(b"[Event \"x"), (ErrorKind::UnterminatedString, 7));
    }

    #[test]
    fn quoting_round_trips() {
        let mut s = String::new();
        write_quoted(&mut s, r#"a"b\c"#).unwrap();
        assert_eq!(s, r#""a\"b\\c""#);
        let inner = &s.as_bytes()[1..s.len() - 1];
        assert_eq!(RawTag(inner).decode(), r#"a"b\c"#);
    }
}

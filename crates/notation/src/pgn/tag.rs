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
    let (i, value) = tag_value(i)?;
    let i = spaces(i);
    match i.split_first() {
        Some((&b']', rest)) => Ok((rest, TagPair { name, value })),
        _ => Err(nom::Err::Error(
            RuleError::at(i, 1, ErrorKind::UnterminatedTag).expected("`]`"),
        )),
    }
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
mod tests {
    use super::*;

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

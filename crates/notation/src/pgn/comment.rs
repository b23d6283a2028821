//! Comments: `{ text }` (may span lines, no nesting) and `; text` (to the end of the line).

use std::{borrow::Cow, fmt};

use crate::decode;

/// The text of a comment as it stands in the input: between `{` and `}`, or after `;` up to
/// the line end, white space kept.
///
/// ```
/// use tabia_notation::pgn::RawComment;
///
/// assert_eq!(RawComment(b" [%clk 0:03:00] ").decode(), " [%clk 0:03:00] ");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawComment<'a>(pub &'a [u8]);

impl<'a> RawComment<'a> {
    /// The bytes of the comment.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The text decoded as UTF-8 or, when it is not UTF-8, as Latin-1.
    pub fn decode(&self) -> Cow<'a, str> {
        decode(self.0)
    }
}

impl fmt::Debug for RawComment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawComment({:?})", decode(self.0))
    }
}

/// How much of `bytes`, a piece of a longer comment, can be handed over without cutting a UTF-8
/// sequence or a `\r\n` pair in two (never less than half of it, so that progress is made).
pub(crate) fn split_point(bytes: &[u8]) -> usize {
    let n = bytes.len();
    let mut cut = n;
    // Back up over continuation bytes to the lead byte of the last sequence, if it is cut.
    let mut i = n;
    while i > 0 && n - i < 4 {
        i -= 1;
        let b = bytes[i];
        if b & 0xC0 == 0x80 {
            continue;
        }
        let want = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        if n - i < want {
            cut = i;
        }
        break;
    }
    if cut > 0 && bytes[cut - 1] == b'\r' {
        cut -= 1;
    }
    if cut < n / 2 { n } else { cut }
}

// comment-body = *(any byte but "}")   (after "{", up to the "}" that closes it)
/// The length of the body of a `{` comment at the start of `input` (after the `{`), if its
/// closing `}` is in `input`.
#[inline]
pub(crate) fn brace_body(input: &[u8]) -> Option<usize> {
    memchr::memchr(b'}', input)
}

// rest-of-line = *(any byte but a line end)   (after ";" or a "%" at the start of a line)
/// The length of the rest of the line at the start of `input`, if its line end is in `input`.
#[inline]
pub(crate) fn rest_of_line(input: &[u8]) -> Option<usize> {
    memchr::memchr2(b'\n', b'\r', input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies() {
        assert_eq!(brace_body(b" a } b"), Some(3));
        assert_eq!(brace_body(b" a "), None);
        assert_eq!(rest_of_line(b"abc\r\n"), Some(3));
        assert_eq!(rest_of_line(b"abc"), None);
    }

    #[test]
    fn split_keeps_sequences_whole() {
        assert_eq!(split_point(b"abcdef"), 6);
        assert_eq!(split_point("abcdé".as_bytes()), 6);
        let cut = "abcdé".as_bytes();
        assert_eq!(split_point(&cut[..5]), 4);
        assert_eq!(split_point(&[b'a', b'b', b'c', b'd', b'e', 0xC3]), 5);
        assert_eq!(split_point(b"abcdefg\r"), 7);
        assert_eq!(split_point("abcd\u{1F600}".as_bytes()), 8);
        assert_eq!(split_point(&"abcd\u{1F600}".as_bytes()[..7]), 4);
    }

    #[test]
    fn latin1_comment() {
        assert_eq!(RawComment(b"J\xf6rg").decode(), "J\u{f6}rg");
    }
}

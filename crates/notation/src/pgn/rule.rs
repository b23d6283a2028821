//! What the PGN grammar rules share: their error type, and the bytes that end a token.

use nom::error::ParseError;

use crate::ErrorKind;

/// The error of a grammar rule: what is wrong and where, as the length of the input that
/// remained at the error (so the caller turns it into an offset without knowing the rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RuleError {
    /// Bytes of input left at the error.
    pub(crate) rest: usize,
    /// Bytes the error covers from there (at least 1 when reported).
    pub(crate) len: usize,
    pub(crate) kind: ErrorKind,
    pub(crate) expected: Option<&'static str>,
}

impl RuleError {
    pub(crate) fn at(rest: &[u8], len: usize, kind: ErrorKind) -> RuleError {
        RuleError {
            rest: rest.len(),
            len,
            kind,
            expected: None,
        }
    }

    pub(crate) fn expected(mut self, expected: &'static str) -> RuleError {
        self.expected = Some(expected);
        self
    }

    /// Where the error starts in `input`, the slice the rule was given.
    #[cfg(test)]
    pub(crate) fn offset_in(&self, input: &[u8]) -> usize {
        input.len().saturating_sub(self.rest)
    }
}

impl ParseError<&[u8]> for RuleError {
    fn from_error_kind(input: &[u8], _kind: nom::error::ErrorKind) -> RuleError {
        RuleError::at(input, 1, ErrorKind::UnexpectedToken)
    }

    fn append(_input: &[u8], _kind: nom::error::ErrorKind, other: RuleError) -> RuleError {
        other
    }
}

/// A rule's result: nom's, with [`RuleError`].
pub(crate) type Res<'a, T> = nom::IResult<&'a [u8], T, RuleError>;

/// A failed rule.
pub(crate) fn fail<T>(rest: &[u8], len: usize, kind: ErrorKind) -> Res<'_, T> {
    Err(nom::Err::Error(RuleError::at(rest, len, kind)))
}

/// Whether `b` ends a movetext token: white space, or one of `( ) { } ; [`.
#[inline]
pub(crate) fn is_token_end(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\n' | b'\r' | b'(' | b')' | b'{' | b'}' | b';' | b'['
    )
}

/// The length of the token at the start of `bytes` (up to the first byte that ends a token).
#[inline]
pub(crate) fn token_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| is_token_end(b))
        .unwrap_or(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_end_at_space_and_brackets() {
        assert_eq!(token_len(b"e4 e5"), 2);
        assert_eq!(token_len(b"Nf3){x}"), 3);
        assert_eq!(token_len(b"1-0"), 3);
        assert_eq!(token_len(b"abc"), 3);
        assert!(is_token_end(b'['));
        assert!(!is_token_end(b'$'));
    }

    #[test]
    fn rule_error_offset() {
        let input = b"abcdef";
        let err = RuleError::at(&input[2..], 1, ErrorKind::InvalidNag);
        assert_eq!(err.offset_in(input), 2);
    }
}

//! Plumbing shared by the FEN, EPD and SAN grammars: the nom error type that carries an
//! [`ErrorKind`] and the remaining input at the failure, and its conversion into an [`Error`]
//! with a byte span once the whole input is known.

use nom::IResult;

use crate::{Error, ErrorKind};

/// A grammar failure: what is wrong, where (the input that remained there) and how many bytes
/// from there are underlined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fail<'a> {
    /// The input from the first offending byte on.
    pub(crate) rest: &'a [u8],
    /// How many bytes of `rest` are offending.
    pub(crate) len: usize,
    pub(crate) kind: ErrorKind,
    pub(crate) expected: Option<&'static str>,
}

/// The result of one grammar rule.
pub(crate) type PResult<'a, T> = IResult<&'a [u8], T, Fail<'a>>;

impl<'a> nom::error::ParseError<&'a [u8]> for Fail<'a> {
    fn from_error_kind(input: &'a [u8], _: nom::error::ErrorKind) -> Self {
        Fail {
            rest: input,
            len: 1,
            kind: ErrorKind::UnexpectedToken,
            expected: None,
        }
    }

    fn append(_: &'a [u8], _: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

/// Fails with `kind` at `rest`, underlining `len` bytes.
pub(crate) fn fail<'a, T>(
    rest: &'a [u8],
    len: usize,
    kind: ErrorKind,
    expected: &'static str,
) -> PResult<'a, T> {
    Err(nom::Err::Error(Fail {
        rest,
        len,
        kind,
        expected: Some(expected),
    }))
}

impl Fail<'_> {
    /// The error with its span measured in `src`, the input `rest` is a suffix of.
    pub(crate) fn into_error(self, src: &[u8]) -> Error {
        let start = src.len().saturating_sub(self.rest.len());
        let end = (start + self.len.min(self.rest.len())).min(src.len());
        let err = Error::new(self.kind, start..end);
        match self.expected {
            Some(expected) => err.with_expected(expected),
            None => err,
        }
    }
}

/// Runs a rule on `src` and returns its value with the number of bytes it consumed, or the
/// error with its span measured from the start of `src`.
pub(crate) fn run<'a, T>(
    src: &'a [u8],
    rule: impl FnOnce(&'a [u8]) -> PResult<'a, T>,
) -> Result<(T, usize), Error> {
    match rule(src) {
        Ok((rest, value)) => Ok((value, src.len() - rest.len())),
        Err(nom::Err::Error(f) | nom::Err::Failure(f)) => Err(f.into_error(src)),
        Err(nom::Err::Incomplete(_)) => {
            Err(Error::new(ErrorKind::UnexpectedEof, src.len()..src.len()))
        }
    }
}

/// Runs a rule that must consume all of `src` (bytes left over are
/// [`ErrorKind::TrailingInput`]); the error carries `src` as its source for display.
pub(crate) fn run_all<'a, T>(
    src: &'a [u8],
    rule: impl FnOnce(&'a [u8]) -> PResult<'a, T>,
) -> Result<T, Error> {
    let (value, used) = run(src, rule).map_err(|e| e.with_source(src))?;
    if used < src.len() {
        return Err(Error::new(ErrorKind::TrailingInput, used..src.len()).with_source(src));
    }
    Ok(value)
}

/// Like [`run_all`], ignoring ASCII white space around the value (spans stay measured in the
/// whole of `src`).
pub(crate) fn run_trimmed<'a, T>(
    src: &'a [u8],
    rule: impl FnOnce(&'a [u8]) -> PResult<'a, T>,
) -> Result<T, Error> {
    let start = src
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    let end = src
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |i| i + 1);
    let inner = src.get(start..end).unwrap_or_default();
    let (value, used) = run(inner, rule).map_err(|e| e.offset(start).with_source(src))?;
    if used < inner.len() {
        let extra = inner.get(used..).unwrap_or_default();
        let gap = extra.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let span = start + used + gap..end;
        return Err(Error::new(ErrorKind::TrailingInput, span).with_source(src));
    }
    Ok(value)
}

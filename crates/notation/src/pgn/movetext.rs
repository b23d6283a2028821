//! The small tokens of movetext: game results, NAGs (`$n` and the `! ? !! ?? !? ?!` suffixes)
//! and move number indications.

use std::{fmt, str::FromStr};

use super::{
    Nag,
    rule::{Res, RuleError, fail, is_token_end},
};
use crate::{Error, ErrorKind};

/// How a game ended, as its termination marker says: `1-0`, `0-1`, `1/2-1/2` or `*`.
///
/// ```
/// use tabia_notation::pgn::Outcome;
///
/// let outcome: Outcome = "1/2-1/2".parse()?;
/// assert_eq!(outcome, Outcome::Draw);
/// assert_eq!(Outcome::BlackWins.to_string(), "0-1");
/// assert_eq!(Outcome::prefix(b"1-0 {done}")?, (Outcome::WhiteWins, 3));
/// # Ok::<_, tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: game in progress, abandoned, or result unknown.
    #[default]
    Unknown,
}

impl Outcome {
    /// The termination marker.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// Parses a termination marker at the start of `bytes`, which must end the token; returns
    /// the outcome and how many bytes it took.
    pub fn prefix(bytes: &[u8]) -> Result<(Outcome, usize), Error> {
        match result(bytes) {
            Ok((rest, outcome)) => Ok((outcome, bytes.len() - rest.len())),
            Err(_) => Err(Error::new(
                ErrorKind::UnexpectedToken,
                0..super::rule::token_len(bytes).max(1),
            )
            .with_expected("`1-0`, `0-1`, `1/2-1/2` or `*`")),
        }
    }

    /// Parses exactly a termination marker.
    pub fn from_ascii(bytes: &[u8]) -> Result<Outcome, Error> {
        let (outcome, n) = Outcome::prefix(bytes)?;
        if n != bytes.len() {
            return Err(Error::new(ErrorKind::TrailingInput, n..bytes.len()));
        }
        Ok(outcome)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Outcome {
    type Err = Error;

    fn from_str(s: &str) -> Result<Outcome, Error> {
        Outcome::from_ascii(s.as_bytes())
    }
}

/// Whether the token ends at the start of `rest`.
#[inline]
fn ends(rest: &[u8]) -> bool {
    rest.first().is_none_or(|&b| is_token_end(b))
}

// result = ("1-0" / "0-1" / "1/2-1/2" / "*") token-end
#[inline]
pub(crate) fn result(input: &[u8]) -> Res<'_, Outcome> {
    let (outcome, n) = match input {
        [b'1', b'-', b'0', ..] => (Outcome::WhiteWins, 3),
        [b'0', b'-', b'1', ..] => (Outcome::BlackWins, 3),
        [b'1', b'/', b'2', b'-', b'1', b'/', b'2', ..] => (Outcome::Draw, 7),
        [b'*', ..] => (Outcome::Unknown, 1),
        _ => return fail(input, 1, ErrorKind::UnexpectedToken),
    };
    let rest = &input[n..];
    if !ends(rest) {
        return fail(input, 1, ErrorKind::UnexpectedToken);
    }
    Ok((rest, outcome))
}

// nag = "$" 1*3DIGIT        (0 to 255)
#[inline]
pub(crate) fn nag(input: &[u8]) -> Res<'_, Nag> {
    let Some((&b'$', digits)) = input.split_first() else {
        return fail(input, 1, ErrorKind::InvalidNag);
    };
    let n = digits
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(digits.len());
    let bad = || {
        let len = 1 + super::rule::token_len(digits);
        Err(nom::Err::Error(
            RuleError::at(input, len, ErrorKind::InvalidNag).expected("`$` and a number 0 to 255"),
        ))
    };
    if n == 0 || n > 3 {
        return bad();
    }
    let value = digits[..n]
        .iter()
        .fold(0u32, |acc, &d| acc * 10 + u32::from(d - b'0'));
    let rest = &digits[n..];
    match u8::try_from(value) {
        Ok(v) if ends(rest) || rest.first().is_some_and(|&b| b == b'$') => Ok((rest, Nag(v))),
        _ => bad(),
    }
}

// suffix = "!!" / "??" / "!?" / "?!" / "!" / "?"     (NAGs 3, 4, 5, 6, 1, 2)
#[inline]
pub(crate) fn suffix(input: &[u8]) -> Res<'_, Nag> {
    let (nag, n) = match input {
        [b'!', b'!', ..] => (3, 2),
        [b'?', b'?', ..] => (4, 2),
        [b'!', b'?', ..] => (5, 2),
        [b'?', b'!', ..] => (6, 2),
        [b'!', ..] => (1, 1),
        [b'?', ..] => (2, 1),
        _ => return fail(input, 1, ErrorKind::UnexpectedToken),
    };
    let rest = &input[n..];
    if !(ends(rest) || rest.first() == Some(&b'$')) {
        let len = n + super::rule::token_len(rest);
        return fail(input, len, ErrorKind::UnexpectedToken);
    }
    Ok((rest, Nag(nag)))
}

// move-number = 1*DIGIT *"."        (ends the token when there is no "."; may run into a
//                                    move otherwise, as in `12.e4`)
#[inline]
pub(crate) fn move_number(input: &[u8]) -> Res<'_, ()> {
    let digits = input
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(input.len());
    if digits == 0 {
        return fail(input, 1, ErrorKind::InvalidMoveNumber);
    }
    let dots = input[digits..]
        .iter()
        .position(|&b| b != b'.')
        .unwrap_or(input.len() - digits);
    let rest = &input[digits + dots..];
    if dots == 0 && !ends(rest) {
        return fail(
            input,
            super::rule::token_len(input),
            ErrorKind::InvalidMoveNumber,
        );
    }
    Ok((rest, ()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taken<T>(r: Res<'_, T>, input: &[u8]) -> Option<(T, usize)> {
        r.ok().map(|(rest, v)| (v, input.len() - rest.len()))
    }

    #[test]
    fn results() {
        for (s, o, n) in [
            (&b"1-0"[..], Outcome::WhiteWins, 3),
            (b"0-1\n", Outcome::BlackWins, 3),
            (b"1/2-1/2 ", Outcome::Draw, 7),
            (b"*)", Outcome::Unknown, 1),
        ] {
            assert_eq!(taken(result(s), s), Some((o, n)));
        }
        assert!(result(b"1-0x").is_err());
        assert!(result(b"1-1").is_err());
        assert!(result(b"1/2").is_err());
    }

    #[test]
    fn outcome_text() {
        for o in [
            Outcome::WhiteWins,
            Outcome::BlackWins,
            Outcome::Draw,
            Outcome::Unknown,
        ] {
            assert_eq!(o.to_string().parse::<Outcome>().unwrap(), o);
        }
        assert_eq!(
            "1-0 ".parse::<Outcome>().unwrap_err().kind(),
            ErrorKind::TrailingInput
        );
        assert_eq!(
            "2-0".parse::<Outcome>().unwrap_err().to_string(),
            "unexpected token in movetext (expected `1-0`, `0-1`, `1/2-1/2` or `*`) at byte 0"
        );
    }

    #[test]
    fn nags() {
        assert_eq!(taken(nag(b"$1 "), b"$1 "), Some((Nag(1), 2)));
        assert_eq!(taken(nag(b"$255"), b"$255"), Some((Nag(255), 4)));
        assert_eq!(taken(nag(b"$14$2"), b"$14$2"), Some((Nag(14), 3)));
        for bad in [&b"$"[..], b"$256", b"$1234", b"$x", b"$12a"] {
            match nag(bad) {
                Err(nom::Err::Error(e)) => assert_eq!(e.kind, ErrorKind::InvalidNag),
                _ => panic!("{bad:?} should fail"),
            }
        }
    }

    #[test]
    fn suffixes() {
        for (s, v) in [
            (&b"!"[..], 1),
            (b"?", 2),
            (b"!!", 3),
            (b"??", 4),
            (b"!?", 5),
            (b"?!", 6),
        ] {
            assert_eq!(taken(suffix(s), s), Some((Nag(v), s.len())));
        }
        assert!(suffix(b"!!!").is_err());
        assert!(suffix(b"!x").is_err());
    }

    #[test]
    fn move_numbers() {
        assert_eq!(taken(move_number(b"12."), b"12."), Some(((), 3)));
        assert_eq!(taken(move_number(b"12...e5"), b"12...e5"), Some(((), 5)));
        assert_eq!(taken(move_number(b"7 e4"), b"7 e4"), Some(((), 1)));
        assert!(move_number(b"7x").is_err());
        assert!(move_number(b"x").is_err());
    }
}

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

/// Byte classes, one table lookup each on the hot paths.
pub(crate) const TOKEN_END: u8 = 1;
/// A byte of a tag name.
pub(crate) const NAME: u8 = 2;
/// A byte that stops the scan of a tag value: `"`, `\` or a line end.
pub(crate) const VALUE_STOP: u8 = 4;

/// The class bits of each byte.
pub(crate) static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut bits = 0;
        if matches!(
            c,
            b' ' | b'\t' | b'\n' | b'\r' | b'(' | b')' | b'{' | b'}' | b';' | b'['
        ) {
            bits |= TOKEN_END;
        }
        if c.is_ascii_alphanumeric()
            || matches!(c, b'_' | b'+' | b'-' | b'.' | b':' | b'#' | b'=' | b'/')
        {
            bits |= NAME;
        }
        if matches!(c, b'"' | b'\\' | b'\n' | b'\r') {
            bits |= VALUE_STOP;
        }
        table[b] = bits;
        b += 1;
    }
    table
};

/// Whether `b` ends a movetext token: white space, or one of `( ) { } ; [`.
#[inline(always)]
pub(crate) fn is_token_end(b: u8) -> bool {
    CLASS[usize::from(b)] & TOKEN_END != 0
}

/// Looks for the first of `needles` in the first `limit` bytes of `bytes` (rounded down to
/// whole words of eight bytes), sixteen bytes at a time and then eight: `Ok(position)`, or
/// `Err(scanned)` when none is among the `scanned` bytes, so that the caller goes on from
/// there. For short scans, where `memchr`'s setup costs more than the scan.
#[inline(always)]
pub(crate) fn swar_find<const N: usize>(
    bytes: &[u8],
    needles: [u8; N],
    limit: usize,
) -> Result<usize, usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    let end = bytes.len().min(limit);
    while i + 16 <= end {
        let mut block = [0u8; 16];
        block.copy_from_slice(&bytes[i..i + 16]);
        let hits = block_hits(&block, needles);
        if hits != 0 {
            return Ok(i + hits.trailing_zeros() as usize);
        }
        i += 16;
    }
    if i + 8 <= end {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[i..i + 8]);
        let x = u64::from_le_bytes(word);
        let mut hits = 0;
        for needle in needles {
            // The lowest set bit marks the first zero byte (higher ones may be false).
            let y = x ^ (LO * u64::from(needle));
            hits |= y.wrapping_sub(LO) & !y & HI;
        }
        if hits != 0 {
            return Ok(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    Err(i)
}

/// A bit for each byte of `block` that is one of `needles`, the first byte's the lowest: one
/// comparison of all sixteen bytes for each needle.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn block_hits<const N: usize>(block: &[u8; 16], needles: [u8; N]) -> u32 {
    use safe_arch::{cmp_eq_mask_i8_m128i, m128i, move_mask_i8_m128i, set_splat_i8_m128i};
    let v = m128i::from(*block);
    let mut hits = m128i::default();
    for needle in needles {
        hits |= cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(needle as i8));
    }
    move_mask_i8_m128i(hits) as u32
}

/// A bit for each byte of `block` that is one of `needles`, the first byte's the lowest.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn block_hits<const N: usize>(block: &[u8; 16], needles: [u8; N]) -> u32 {
    let mut hits = 0;
    for (i, b) in block.iter().enumerate() {
        hits |= u32::from(needles.contains(b)) << i;
    }
    hits
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
    fn swar_finds_the_first_needle() {
        assert_eq!(swar_find(b"abcdefgh}", [b'}'], 64), Err(8));
        assert_eq!(swar_find(b"abc}efgh}", [b'}', b'\n'], 64), Ok(3));
        assert_eq!(swar_find(b"\x7e}xxxxxx", [b'}'], 64), Ok(1));
        assert_eq!(swar_find(b"\x0b\x0axxxxxx", [b'\n'], 64), Ok(1));
        assert_eq!(swar_find(&[b'x'; 100], [b'}'], 64), Err(64));
        assert_eq!(swar_find(b"short", [b's'], 64), Err(0));
        // Every needle at every place of two blocks and a word, each byte value beside it.
        for at in 0..40 {
            for b in 0..=255u8 {
                let mut bytes = [b'x'; 40];
                bytes[at] = b;
                let want = if [b'}', b'\n'].contains(&b) {
                    Ok(at)
                } else {
                    Err(40)
                };
                assert_eq!(
                    swar_find(&bytes, [b'}', b'\n'], 64),
                    want,
                    "{b:#04x} at {at}"
                );
                let want = if at < 24 && b == b'}' {
                    Ok(at)
                } else {
                    Err(24)
                };
                assert_eq!(swar_find(&bytes, [b'}'], 30), want, "{b:#04x} at {at}");
            }
        }
    }

    #[test]
    fn rule_error_offset() {
        let input = b"abcdef";
        let err = RuleError::at(&input[2..], 1, ErrorKind::InvalidNag);
        assert_eq!(err.offset_in(input), 2);
    }
}

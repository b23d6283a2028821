//! Byte scanners of the reader: where a brace, a line end or a movetext stop is, eight or sixteen bytes at a time, and the small token readers of its lenient paths.

use super::*;

/// Where the first `}` or control byte below 14 (among them `\n` and `\r`) of `bytes` is, or
/// else the first `}`, `\n` or `\r`: eight bytes at a time for the first 32 (most comments,
/// such as lichess's `{ [%clk 0:03:00] }`, are shorter), then `memchr` (engine comments of a
/// few hundred bytes, where each word more costs more than it saves). The caller checks which
/// byte it found.
#[inline(always)]
pub(super) fn find_brace_or_line_end(bytes: &[u8], rest: &BraceOrLineEnd) -> Option<usize> {
    pub(super) const LO: u64 = 0x0101_0101_0101_0101;
    pub(super) const HI: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while i + 8 <= bytes.len().min(32) {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[i..i + 8]);
        let x = u64::from_le_bytes(word);
        // Bytes below 14, and bytes equal to `}`: the lowest set bit is exact.
        let y = x ^ (LO * u64::from(b'}'));
        let hits = (x.wrapping_sub(LO * 14) & !x & HI) | (y.wrapping_sub(LO) & !y & HI);
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    rest.find(&bytes[i..]).map(|n| i + n)
}

/// The search for the first `}`, `\n` or `\r`, set up once per reader: an engine comment of a
/// few hundred bytes after every move (TCEC) then pays for the search alone, not for the
/// dispatch and set-up of [`memchr::memchr3`] each time.
#[derive(Clone, Copy, Debug)]
pub(super) struct BraceOrLineEnd {
    /// The AVX2 searcher, when the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::Three>,
}

impl BraceOrLineEnd {
    /// The searcher for this CPU.
    pub(super) fn new() -> BraceOrLineEnd {
        BraceOrLineEnd {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::Three::new(b'}', b'\n', b'\r'),
        }
    }

    /// Where the first `}`, `\n` or `\r` of `bytes` is.
    #[inline(always)]
    pub(super) fn find(&self, bytes: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(three) = &self.avx2 {
            return three.find(bytes);
        }
        memchr::memchr3(b'}', b'\n', b'\r', bytes)
    }
}

/// Where the first byte that can change where a game ends is in `bytes`, movetext seen from a
/// token boundary: `{`, `;`, `%`, `[`, or a `-` or `*` (every result has one). Two `memchr3`
/// passes, the second only over what comes before the first's hit.
#[inline]
pub(super) fn find_movetext_stop(bytes: &[u8]) -> Option<usize> {
    // Between the comments of comment-dense movetext (`2. Nf3 {`) the stop is a few bytes
    // away: a look at the first sixteen bytes at once costs less than setting up two searches.
    pub(super) const NEAR: usize = 16;
    let Some(block) = bytes.first_chunk::<NEAR>() else {
        return bytes.iter().position(|b| MOVETEXT_STOPS.contains(b));
    };
    let hits = movetext_stops(block);
    if hits != 0 {
        return Some(hits.trailing_zeros() as usize);
    }
    let bytes = &bytes[NEAR..];
    let first = memchr::memchr3(b'{', b'[', b'-', bytes);
    let before = first.unwrap_or(bytes.len());
    memchr::memchr3(b';', b'%', b'*', &bytes[..before])
        .or(first)
        .map(|i| i + NEAR)
}

/// A bit for each byte of `block` that is a movetext stop (see [`find_movetext_stop`]), the
/// first byte's the lowest.
#[inline(always)]
pub(super) fn movetext_stops(block: &[u8; 16]) -> u32 {
    block_hits(block, MOVETEXT_STOPS)
}

/// How far the fast skip may pass over `bytes` (movetext from a token boundary, the buffered
/// part) without looking closer: whole `{` comments and whole tokens that have a `-` or `*` but
/// are no result, up to the first stop that needs the reader (a result token, `[`, `;`, `%`, a
/// comment or token cut by the end of `bytes`). Gives a token boundary.
#[inline]
pub(super) fn pass_plain_movetext(bytes: &[u8]) -> usize {
    let mut i = 0;
    while let Some(k) = find_movetext_stop(&bytes[i..]) {
        let at = i + k;
        match bytes[at] {
            b'{' => {
                let body = &bytes[at + 1..];
                // Most comments are short (`{ [%clk 0:03:00] }`): a word at a time first.
                let end = match swar_find(body, [b'}'], 32) {
                    Ok(n) => Some(n),
                    Err(scanned) => brace_body(&body[scanned..]).map(|n| scanned + n),
                };
                match end {
                    Some(n) => i = at + 1 + n + 1,
                    None => return i,
                }
            }
            b'-' | b'*' => {
                let start = bytes[i..at]
                    .iter()
                    .rposition(|&b| is_token_end(b))
                    .map_or(i, |k| i + k + 1);
                let n = token_len(&bytes[start..]);
                if start + n >= bytes.len() || is_result_token(&bytes[start..start + n]) {
                    return start;
                }
                i = start + n;
            }
            _ => return i,
        }
    }
    i
}

/// Where, in the body of a comment, a line that starts a tag pair (`[Name "`) follows a blank
/// line: the sign of a comment whose `}` is missing, running into the next game. `before` is
/// how many line ends came just before `body` (it is a piece of a long comment).
pub(super) fn tag_pair_after_blank_line(body: &[u8], before: u8) -> Option<usize> {
    memchr::memchr_iter(b'[', body).find(|&i| {
        let after = &body[i + 1..];
        let name = after
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        after.first().is_some_and(u8::is_ascii_alphabetic)
            && after.get(name..name + 2) == Some(b" \"")
            && trailing_line_ends(&body[..i], before) >= 2
    })
}

/// How many line ends (`\r\n` as one) `bytes` ends with, spaces and tabs between them
/// aside, `before` more if that is all it holds (at most 2: enough to tell a blank line).
pub(super) fn trailing_line_ends(bytes: &[u8], before: u8) -> u8 {
    let mut n = 0;
    let mut rest = bytes;
    while n < 2 {
        rest = match rest {
            [head @ .., b'\r', b'\n'] | [head @ .., b'\n' | b'\r'] => {
                n += 1;
                head
            }
            [head @ .., b' ' | b'\t'] => head,
            [] => return (n + before).min(2),
            _ => return n,
        };
    }
    n
}

/// The length of a result written with `½` or a typographic dash at the start of `bytes`
/// (`½-½`, `1–0`, `0—1`, …), followed by the end of the token.
pub(super) fn typographic_result(bytes: &[u8]) -> Option<usize> {
    pub(super) const HALF: &[u8] = "½".as_bytes();
    let side = |b: &[u8]| match b {
        [b'1' | b'0', ..] => Some(1),
        _ if b.starts_with(HALF) => Some(HALF.len()),
        _ => None,
    };
    let first = side(bytes)?;
    let dash = ["-", "–", "—"]
        .into_iter()
        .find(|d| bytes[first..].starts_with(d.as_bytes()))?
        .len();
    let second = side(&bytes[first + dash..])?;
    let n = first + dash + second;
    let (a, b) = (&bytes[..first], &bytes[first + dash..n]);
    let result = matches!((a, b), (b"1", b"0") | (b"0", b"1")) || (a == HALF && b == HALF);
    // `1-0` is PGN's own: only a `½` or a dash other than `-` makes it typographic.
    let typographic = a == HALF || dash > 1;
    (result && typographic && bytes.get(n).is_none_or(|&b| is_token_end(b))).then_some(n)
}

/// An evaluation symbol written as text, standing alone at the start of `bytes`, as books and
/// web pages write them: its NAG and length. `=` equal, `+=` `+/=` `⩲` slightly better for
/// white, `=+` `=/+` `⩱` for black, `+/-` `±` clearly better for white, `-/+` `∓` for black,
/// `+-` winning for white, `-+` for black, `∞` unclear, `=/∞` compensation, `N` a novelty.
pub(super) fn text_glyph(bytes: &[u8]) -> Option<(Nag, usize)> {
    pub(super) const GLYPHS: [(&str, u8); 16] = [
        ("+/-", 16),
        ("-/+", 17),
        ("+/=", 14),
        ("=/+", 15),
        ("=/∞", 44),
        ("+=", 14),
        ("=+", 15),
        ("+-", 18),
        ("-+", 19),
        ("±", 16),
        ("∓", 17),
        ("⩲", 14),
        ("⩱", 15),
        ("∞", 13),
        ("=", 10),
        ("N", 146),
    ];
    GLYPHS.iter().find_map(|&(text, nag)| {
        let n = text.len();
        (bytes.starts_with(text.as_bytes()) && bytes.get(n).is_none_or(|&b| is_token_end(b)))
            .then_some((Nag(nag), n))
    })
}

/// A move with an evaluation symbol glued to it, the whole of `token` (`O-O+/-`, `Nf3±`,
/// `e4=`): the move, its length, the symbol's NAG and length. The longest move that leaves a
/// symbol is taken (`O-O+/-` is `O-O` and `+/-`, not `O-O+` and `/-`).
pub(super) fn glued_glyph(token: &[u8]) -> Option<(SanPlus, usize, Nag, usize)> {
    (1..token.len()).rev().find_map(|k| {
        let (nag, n) = text_glyph(&token[k..]).filter(|&(_, n)| k + n == token.len())?;
        let (san, used) = san_token(&token[..k]).filter(|&(_, used)| used == k)?;
        Some((san, used, nag, n))
    })
}

/// The letter of the chess figurine (`♔` to `♟`, U+2654 to U+265F) at the start of `bytes`:
/// `K`, `Q`, `R`, `B`, `N`, or none for a pawn.
pub(super) fn figurine(bytes: &[u8]) -> Option<Option<u8>> {
    match bytes {
        [0xE2, 0x99, b @ 0x94..=0x9F, ..] => Some(match (b - 0x94) % 6 {
            0 => Some(b'K'),
            1 => Some(b'Q'),
            2 => Some(b'R'),
            3 => Some(b'B'),
            4 => Some(b'N'),
            _ => None,
        }),
        _ => None,
    }
}

/// The length of an en-passant mark at the start of `bytes` (`e.p.`, `e.p`, `ep`), which
/// some old files write after an en-passant capture.
pub(super) fn en_passant_mark(bytes: &[u8]) -> Option<usize> {
    [&b"e.p."[..], b"e.p", b"ep"]
        .into_iter()
        .find(|mark| bytes.starts_with(mark))
        .map(<[u8]>::len)
}

/// The bytes [`find_movetext_stop`] stops at.
pub(super) const MOVETEXT_STOPS: [u8; 6] = *b"{[-;%*";

/// Whether a whole movetext token is a result, maybe after move numbers and dots (`12.1-0`),
/// as the reader would see it.
pub(super) fn is_result_token(mut token: &[u8]) -> bool {
    loop {
        let digits = token
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(token.len());
        let dots = token[digits..]
            .iter()
            .position(|&b| b != b'.')
            .unwrap_or(token.len() - digits);
        if dots == 0 {
            break;
        }
        token = &token[digits + dots..];
    }
    matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// The one place the reader parses a SAN token: the move and how many bytes it took. (The
/// grammar rule itself, inlined here, rather than `SanPlus::prefix`, which builds an `Error`.)
#[inline(always)]
/// A move whose piece letter is lowercase (`nf3`, `qxd8+`, `bc4`) or castling written with
/// `o` (`o-o`, `o-o-o`), read with capitals, and the length of the token; `None` for anything
/// else (a token that reads as written is never asked about: `b4` and `bxc3` are pawn moves).
pub(super) fn lowercase_san(data: &[u8]) -> Option<(SanPlus, usize)> {
    let first = *data.first()?;
    if !matches!(first, b'n' | b'b' | b'r' | b'q' | b'k' | b'o') {
        return None;
    }
    // A move is a short token: `o-o-o+!` is the longest worth reading.
    let mut token = [0u8; 12];
    let len = token_len(&data[..data.len().min(token.len())]);
    token[..len].copy_from_slice(&data[..len]);
    if first == b'o' {
        for b in &mut token[..len] {
            if *b == b'o' {
                *b = b'O';
            }
        }
    } else {
        token[0] = first.to_ascii_uppercase();
    }
    let (san, n) = san_token(&token[..len])?;
    (n > 0 && move_ends(data, n)).then_some((san, n))
}

/// Whether a move read from `bytes[..n]` ends there: at a token end, or at an annotation
/// (`!`, `?`, `$`) glued to it.
#[inline(always)]
pub(super) fn move_ends(bytes: &[u8], n: usize) -> bool {
    bytes
        .get(n)
        .is_none_or(|&b| is_token_end(b) || matches!(b, b'!' | b'?' | b'$'))
}

/// The one place the reader parses a SAN token: the move and how many bytes it took (the
/// grammar rule inlined, so that its error, never used here, is not built).
#[inline(always)]
pub(super) fn san_token(bytes: &[u8]) -> Option<(SanPlus, usize)> {
    match crate::san::san_plus(bytes) {
        Ok((rest, san)) => Some((san, bytes.len() - rest.len())),
        Err(_) => None,
    }
}

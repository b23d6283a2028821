//! What the embedded table's generator and the crate share: the lines of `data/openings.tsv`,
//! the layout of the index built from them, and the movetext of an opening. `build.rs`
//! includes this file (`#[path]`), so it needs nothing of the crate: only `std` and
//! `tabia-notation`, a build dependency too.

/// Marks a key that lies on a line of the table but names no opening.
pub(crate) const ON_LINE: u32 = u32::MAX;

/// The compiled index's header: four little-endian `u32` (slots, keys, the longest line's
/// plies, openings), then zeros up to a cache line.
pub(crate) const HEADER_BYTES: usize = 64;

/// An entry of the compiled index: the `u32` value, the 44 bytes of the key
/// (`PositionKey::to_bytes`), zeros: one cache line.
pub(crate) const ENTRY_BYTES: usize = 64;

/// The bytes of an opening's record in `openings.bin`: six little-endian `u32` (where its ECO
/// code, extended code, name and moves start in `openings.txt`, where they end, its plies).
pub(crate) const RECORD_BYTES: usize = 24;

/// The tag of a key with this `hash_of` in the compiled index: its top half, never 0 (an empty
/// slot's).
pub(crate) fn tag_of(hash: u64) -> u32 {
    ((hash >> 32) as u32).max(1)
}

/// The little-endian `u32` at `bytes[at..at + 4]`, if there.
pub(crate) fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let mut word = [0; 4];
    word.copy_from_slice(bytes.get(at..at + 4)?);
    Some(u32::from_le_bytes(word))
}

/// A line of `data/openings.tsv` (format in `src/embedded.rs`). `build.rs` reads every line;
/// the crate itself only in its tests (`embedded::parse`, held to what `build.rs` built).
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// How many plies of the line above this one continues.
    pub(crate) shared: usize,
    /// Its own moves, SAN separated by spaces.
    pub(crate) moves: &'a str,
    /// The ECO code; empty for a line that only leads to the lines after it.
    pub(crate) eco: &'a str,
    /// The Scid extended code (`-` or nothing: none).
    pub(crate) extended: Option<&'a str>,
    pub(crate) name: &'a str,
}

/// Reads a line of `data/openings.tsv` after one of `plies` plies: `None` for a comment or a
/// blank line, else the line or what is wrong with it (a missing field, or a shared ply count
/// that is no number or longer than the line above).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn line(text: &str, plies: usize) -> Option<Result<Line<'_>, &'static str>> {
    if text.is_empty() || text.starts_with('#') {
        return None;
    }
    let mut fields = text.split('\t');
    let (Some(shared), Some(moves), Some(eco), Some(extended), Some(name), None) = (
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
    ) else {
        return Some(Err("field"));
    };
    let Some(shared) = shared.parse::<usize>().ok().filter(|&n| n <= plies) else {
        return Some(Err("shared ply count"));
    };
    Some(Ok(Line {
        shared,
        moves,
        eco,
        extended: Some(extended).filter(|e| !e.is_empty() && *e != "-"),
        name,
    }))
}

/// Writes SAN moves as PGN movetext from the starting position into `out` (cleared first):
/// `1. e4 e5 2. Nf3`.
pub(crate) fn movetext<'a>(out: &mut String, sans: impl IntoIterator<Item = &'a str>) {
    out.clear();
    for (i, san) in sans.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if i % 2 == 0 {
            let mut digits = [0; 39];
            out.push_str(tabia_notation::decimal_digits(
                (i / 2 + 1) as u128,
                &mut digits,
            ));
            out.push_str(". ");
        }
        out.push_str(san);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_the_generator_and_the_crate_both_read_them() {
        assert_eq!(line("", 0), None);
        assert_eq!(line("# comment", 0), None);
        let read = line("2\tNf3 Nc6\tC44\t-\tKing's Knight", 2);
        assert_eq!(
            read,
            Some(Ok(Line {
                shared: 2,
                moves: "Nf3 Nc6",
                eco: "C44",
                extended: None,
                name: "King's Knight",
            }))
        );
        let extended = |field: &str| {
            line(&format!("0\te4\tB00\t{field}\tx"), 0)
                .and_then(Result::ok)
                .map(|l| l.extended.map(str::to_owned))
        };
        assert_eq!(extended("B00a"), Some(Some("B00a".to_owned())));
        assert_eq!(extended("-"), Some(None));
        assert_eq!(extended(""), Some(None));
        assert_eq!(line("0\te4\tB00\t-", 0), Some(Err("field")));
        assert_eq!(line("0\te4\tB00\t-\tx\ty", 0), Some(Err("field")));
        assert_eq!(line("3\te4\tB00\t-\tx", 2), Some(Err("shared ply count")));
        assert_eq!(line("a\te4\tB00\t-\tx", 2), Some(Err("shared ply count")));
    }

    #[test]
    fn tags_are_never_an_empty_slot() {
        assert_eq!(tag_of(0), 1);
        assert_eq!(tag_of(0xABCD_EF01_0000_0000), 0xABCD_EF01);
        assert_eq!(u32_at(&[1, 0, 0, 0, 2], 0), Some(1));
        assert_eq!(u32_at(&[1, 0, 0], 0), None);
    }
}

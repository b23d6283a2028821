//! The embedded tables' two committed files, as `cargo xtask eco-import` writes them and the
//! crate reads them: the text (`data/<table>.tsv`, one opening a line) and its compiled index
//! (`data/<table>.bin`), which [`compile`] writes from the text and `embedded::load` probes
//! where it lies in the program's read-only data.
//!
//! # The text
//!
//! A TSV that `TableFormat::Tsv` reads too: UTF-8, `#` starting a comment line, the header row
//! [`HEADER_ROW`], then one opening a line, four fields separated by tabs:
//!
//! 1. the ECO code;
//! 2. the Scid extended code, or `-`;
//! 3. the name;
//! 4. the moves from the starting position, as PGN movetext (`1. e4 c5 2. Nf3`).
//!
//! Every position is named by one line only (the generator settles which).
//!
//! # The index
//!
//! Little-endian `u32` words throughout:
//!
//! - a header of [`HEADER_BYTES`]: the magic `TECO`, the [`VERSION`], the number of slots (a
//!   power of two), of openings, the longest line's plies, the number of reach keys, then
//!   zeros;
//! - the slots, [`SLOT_BYTES`] each: the tag (the top half of the key's `hash_of`, never 0; 0
//!   for an empty slot) and the opening's number. A key is in the first free slot from
//!   `hash_of(key)` on, wrapping around; at most half the slots are used;
//! - the openings' keys, [`KEY_BYTES`] each (`PositionKey::to_bytes`), in the order of the
//!   text;
//! - the openings' records, [`RECORD_BYTES`] each: where the four fields of its line start in
//!   the text, where the line ends, its plies;
//! - the reach keys ([`reach_key`], a little-endian `u64` each): the minimal ones of the
//!   openings' positions.

use std::collections::HashMap;

use tabia_position::{
    Position, PositionKey, hash_of,
    shakmaty::{Bitboard, Board, Color, Piece, Rank, Role},
};

use crate::{LoadError, LoadErrorKind};

/// The first bytes of a compiled index.
pub(crate) const MAGIC: &[u8; 4] = b"TECO";

/// The layout's version: a change of layout changes it, and a committed index of another
/// version is not read (the test that holds the index to its text fails first).
pub(crate) const VERSION: u32 = 1;

/// The header's bytes.
pub(crate) const HEADER_BYTES: usize = 64;

/// A slot: tag and opening number.
pub(crate) const SLOT_BYTES: usize = 8;

/// A key: `PositionKey::to_bytes`.
pub(crate) const KEY_BYTES: usize = 44;

/// A record: six `u32`.
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

/// The bits of a [`reach_key`] that hold home pawns and castling rights.
const HOME_BITS: u64 = 0xf_ffff;

/// The guard bits of the four counts of a [`reach_key`] (each count is at most 16).
const GUARDS: u64 = 0x0080_8080_8000_0000;

/// What cannot come back in a game, packed in a `u64`: the pawns on their starting squares
/// (White's on bits 0–7, Black's on 8–15, by file), the castling rights (bits 16–19: White's
/// h-side, a-side, Black's h-side, a-side), then a byte each for White's pawns, Black's pawns,
/// White's men and Black's men (bytes 3 to 6). A position can only be reached from one that
/// has every home pawn and castling right it has (a pawn never goes back, a right never comes
/// back) and at least as many pawns and men of each side (a capture is not undone, and a
/// promotion turns a pawn into a man).
pub(crate) fn reach_key(board: &Board, castling: Bitboard) -> u64 {
    let pawns = |color| {
        board.by_piece(Piece {
            color,
            role: Role::Pawn,
        })
    };
    let (white, black) = (pawns(Color::White), pawns(Color::Black));
    let home_white = (white & Bitboard::from_rank(Rank::Second)).0 >> 8;
    let home_black = (black & Bitboard::from_rank(Rank::Seventh)).0 >> 48;
    let mut key = (home_white & 0xff) | ((home_black & 0xff) << 8);
    for (i, corner) in [7u32, 0, 63, 56].into_iter().enumerate() {
        if castling.0 & (1 << corner) != 0 {
            key |= 1 << (16 + i);
        }
    }
    let count = |bb: Bitboard| u64::from(bb.count() as u8);
    key | count(white) << 24
        | count(black) << 32
        | count(board.by_color(Color::White)) << 40
        | count(board.by_color(Color::Black)) << 48
}

/// Whether a position of reach key `to` may be reached from one of reach key `from`.
#[inline]
pub(crate) fn may_lead(from: u64, to: u64) -> bool {
    let counts = ((from & !HOME_BITS) | GUARDS).wrapping_sub(to & !HOME_BITS & !GUARDS);
    to & HOME_BITS & !from == 0 && counts & GUARDS == GUARDS
}

/// Keeps the keys no other key of `keys` may lead to (what [`reachable`] needs), the ones
/// that ask least first (fewest home pawns and castling rights, then fewest pawns and men), so
/// that a search for one a position may lead to ends early while the game is young.
pub(crate) fn minimal_keys(keys: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut all: Vec<u64> = keys.into_iter().collect();
    all.sort_unstable();
    all.dedup();
    let mut minimal: Vec<u64> = all
        .iter()
        .copied()
        .filter(|&k| !all.iter().any(|&o| o != k && may_lead(k, o)))
        .collect();
    let asks = |k: u64| {
        let counts = (24..56).step_by(8).map(|at| (k >> at) & 0xff).sum::<u64>();
        ((k & HOME_BITS).count_ones(), counts, k)
    };
    minimal.sort_unstable_by_key(|&k| asks(k));
    minimal
}

/// Whether a position of reach key `key` may still lead to a position of one of `keys`.
#[inline]
pub(crate) fn reachable(keys: &[u64], key: u64) -> bool {
    keys.iter().any(|&k| may_lead(key, k))
}

/// The header row of the text.
pub(crate) const HEADER_ROW: &str = "eco\textended\tname\tpgn";

/// A line of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// The ECO code.
    pub(crate) eco: &'a str,
    /// The Scid extended code (`-`: none).
    pub(crate) extended: Option<&'a str>,
    /// The name.
    pub(crate) name: &'a str,
    /// The movetext.
    pub(crate) moves: &'a str,
}

/// Reads a line of the text: `None` for a comment, the header row or a blank line, else the
/// line or the field that is missing.
pub(crate) fn line(text: &str) -> Option<Result<Line<'_>, &'static str>> {
    if text.is_empty() || text.starts_with('#') || text == HEADER_ROW {
        return None;
    }
    let mut fields = text.split('\t');
    let (Some(eco), Some(extended), Some(name), Some(moves), None) = (
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
    ) else {
        return Some(Err("field"));
    };
    Some(Ok(Line {
        eco,
        extended: Some(extended).filter(|e| !e.is_empty() && *e != "-"),
        name,
        moves,
    }))
}

/// The SAN moves of a movetext like `1. e4 e5 2. Nf3` (move numbers left out).
pub(crate) fn sans(movetext: &str) -> impl Iterator<Item = &str> {
    movetext
        .split_ascii_whitespace()
        .filter(|token| !token.ends_with('.'))
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

/// One opening of the text, as compiled.
struct Compiled {
    key: PositionKey,
    starts: [usize; 4],
    end: usize,
    ply: usize,
}

/// Compiles a table's text (the format above) into its index, the bytes `cargo xtask
/// eco-import` commits next to it.
///
/// # Errors
///
/// The first line that does not load: a missing field, an illegal move, or a position that
/// an earlier line names already.
pub fn compile(text: &str) -> Result<Vec<u8>, LoadError> {
    let start = Position::new();
    let mut openings: Vec<Compiled> = Vec::new();
    let mut index: HashMap<PositionKey, u64> = HashMap::new();
    let mut path: Vec<(String, Position)> = Vec::new();
    let mut offset = 0;
    for (i, text_line) in text.split_inclusive('\n').enumerate() {
        let line_no = i as u64 + 1;
        let line_start = offset;
        offset += text_line.len();
        let content = text_line.trim_end_matches('\n');
        let line = match line(content) {
            None => continue,
            Some(Ok(line)) => line,
            Some(Err(what)) => {
                return Err(LoadError::new(line_no, LoadErrorKind::MissingField(what)));
            }
        };
        if line.eco.is_empty() {
            return Err(LoadError::new(
                line_no,
                LoadErrorKind::MissingField("ECO code"),
            ));
        }
        let moves: Vec<&str> = sans(line.moves).collect();
        let shared = path
            .iter()
            .zip(&moves)
            .take_while(|((a, _), b)| a == *b)
            .count();
        path.truncate(shared);
        for (ply, &san) in moves.iter().enumerate().skip(shared) {
            let before = path.last().map_or(&start, |(_, p)| p);
            let after = crate::table::play_table_move(before, san, line_no, ply + 1)?;
            path.push((san.to_owned(), after));
        }
        let key = path.last().map_or(&start, |(_, p)| p).key();
        if let Some(first) = index.insert(key, line_no) {
            return Err(LoadError::new(line_no, LoadErrorKind::NamedTwice { first }));
        }
        // The fields of the line in `text`: each ends one byte (a tab) before the next starts.
        let eco = line_start;
        let extended = eco + line.eco.len() + 1;
        let name = extended + content[extended - line_start..].find('\t').unwrap_or(0) + 1;
        let moves_at = name + line.name.len() + 1;
        openings.push(Compiled {
            key,
            starts: [eco, extended, name, moves_at],
            end: line_start + content.len(),
            ply: moves.len(),
        });
    }

    let slots = (openings.len() * 2).next_power_of_two().max(2);
    let mut table = vec![0u8; slots * SLOT_BYTES];
    for (number, opening) in openings.iter().enumerate() {
        let hash = hash_of(&opening.key);
        let mut i = usize::try_from(hash).unwrap_or(usize::MAX) & (slots - 1);
        while u32_at(&table, i * SLOT_BYTES) != Some(0) {
            i = (i + 1) & (slots - 1);
        }
        let slot = &mut table[i * SLOT_BYTES..(i + 1) * SLOT_BYTES];
        slot[..4].copy_from_slice(&tag_of(hash).to_le_bytes());
        slot[4..].copy_from_slice(&(number as u32).to_le_bytes());
    }
    let masks = minimal_keys(
        openings
            .iter()
            .map(|o| reach_key(&o.key.board(), o.key.castling_rights())),
    );
    let max_ply = openings.iter().map(|o| o.ply).max().unwrap_or(0);

    let word = |n: usize| {
        u32::try_from(n)
            .expect("a table that fits in u32")
            .to_le_bytes()
    };
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    for n in [
        VERSION as usize,
        slots,
        openings.len(),
        max_ply,
        masks.len(),
    ] {
        out.extend_from_slice(&word(n));
    }
    out.resize(HEADER_BYTES, 0);
    out.extend_from_slice(&table);
    for o in &openings {
        out.extend_from_slice(&o.key.to_bytes());
    }
    for o in &openings {
        for n in o.starts.into_iter().chain([o.end, o.ply]) {
            out.extend_from_slice(&word(n));
        }
    }
    for k in masks {
        out.extend_from_slice(&k.to_le_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_by_their_four_fields() {
        assert_eq!(line(""), None);
        assert_eq!(line("# comment"), None);
        assert_eq!(line(HEADER_ROW), None);
        assert_eq!(
            line("C44\t-\tKing's Knight\t1. e4 e5 2. Nf3 Nc6"),
            Some(Ok(Line {
                eco: "C44",
                extended: None,
                name: "King's Knight",
                moves: "1. e4 e5 2. Nf3 Nc6",
            }))
        );
        let extended = |field: &str| {
            line(&format!("B00\t{field}\tx\t1. e4"))
                .and_then(Result::ok)
                .map(|l| l.extended.map(str::to_owned))
        };
        assert_eq!(extended("B00a"), Some(Some("B00a".to_owned())));
        assert_eq!(extended("-"), Some(None));
        assert_eq!(extended(""), Some(None));
        assert_eq!(line("B00\t-\tx"), Some(Err("field")));
        assert_eq!(line("B00\t-\tx\t1. e4\ty"), Some(Err("field")));
        let sans: Vec<_> = sans("1. e4 e5 2. Nf3 Nc6 3. Bb5").collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    }

    #[test]
    fn tags_are_never_an_empty_slot() {
        assert_eq!(tag_of(0), 1);
        assert_eq!(tag_of(0xABCD_EF01_0000_0000), 0xABCD_EF01);
        assert_eq!(u32_at(&[1, 0, 0, 0, 2], 0), Some(1));
        assert_eq!(u32_at(&[1, 0, 0], 0), None);
    }

    #[test]
    fn reach_keys_hold_what_cannot_come_back() {
        let key = |pos: &Position| reach_key(pos.board(), pos.key().castling_rights());
        let start = Position::new();
        let full = key(&start);
        assert_eq!(full, 0xf_ffff | 8 << 24 | 8 << 32 | 16 << 40 | 16 << 48);
        let sicilian = start.after("e4").unwrap().after("c5").unwrap();
        assert_eq!(key(&sicilian), full & !(1 << 4) & !(1 << (8 + 2)));
        let castled = Position::from_arg(
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4",
        )
        .unwrap();
        assert_eq!((key(&castled) >> 16) & 0xf, 0b1100);
        let exchanged = Position::from_arg("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").unwrap();
        assert_eq!(key(&exchanged) >> 40, 9 | 9 << 8);
        // The start leads to the Sicilian; not the other way round, nor the exchanged
        // position (fewer men) to the start.
        assert!(may_lead(full, key(&sicilian)));
        assert!(!may_lead(key(&sicilian), full));
        assert!(!may_lead(key(&exchanged), full));
        assert!(may_lead(full, key(&exchanged)));
        let minimal = minimal_keys([full, key(&sicilian), full & !(1 << 4)]);
        assert_eq!(minimal, [key(&sicilian)]);
        assert!(reachable(&minimal, full));
        assert!(!reachable(&minimal, full & !(1 << 3)));
        assert!(!reachable(&[], full));
    }

    #[test]
    fn compiling_reports_the_line_that_does_not_load() {
        let err = |text: &str| compile(text).unwrap_err().to_string();
        assert_eq!(err("# x\nC20\t-\tx\n"), "line 2: missing field");
        assert_eq!(
            err("C20\t-\tx\t1. e4 Ke3\n"),
            "line 1: ply 2: illegal move `Ke3`: no black king can go to e3"
        );
        assert_eq!(
            err("C20\t-\tx\t1. e4 e5\nC20\t-\ty\t1. e4 e5\n"),
            "line 2: the position is named already, by line 1"
        );
        assert_eq!(err("\t-\tx\t1. e4\n"), "line 1: missing ECO code");
    }
}

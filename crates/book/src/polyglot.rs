//! Polyglot `.bin` opening books: [`Book`] read (with errors that name the byte offset),
//! written, probed, merged, and built from a [`Tree`].
//!
//! The format (Polyglot's `book_format.html`): 16-byte entries, big-endian, sorted by key:
//! the 64-bit Zobrist key of the position (Polyglot's random numbers; en passant only when a
//! pawn of the side to move stands beside the pawn that just moved), the 16-bit move (see
//! [`encode_move`](crate::encode_move)), a 16-bit weight and a 32-bit learn field.

use std::fmt;

use serde::Serialize;
use tabia_position::{
    Position, PositionKey,
    shakmaty::{
        CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Position as _, Setup,
        variant::Variant, zobrist::Zobrist64,
    },
};

use crate::{
    encode::{code_text, decode_move, uci},
    tree::{END, Tree},
};

/// The size of an entry in bytes.
pub const ENTRY_BYTES: usize = 16;

/// One entry of a book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Entry {
    /// The position's Polyglot key.
    pub key: u64,
    /// The move, Polyglot-encoded.
    #[serde(rename = "move")]
    pub code: u16,
    /// How often the move should be chosen, relative to the other moves of the position.
    pub weight: u16,
    /// The learn field (kept as it is; tabia writes 0).
    pub learn: u32,
}

impl Entry {
    /// The entry's 16 bytes.
    pub fn to_bytes(&self) -> [u8; ENTRY_BYTES] {
        let mut out = [0u8; ENTRY_BYTES];
        out[..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.code.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..].copy_from_slice(&self.learn.to_be_bytes());
        out
    }

    /// The entry of 16 bytes.
    pub fn from_bytes(bytes: &[u8; ENTRY_BYTES]) -> Entry {
        let mut key = [0u8; 8];
        key.copy_from_slice(&bytes[..8]);
        let mut learn = [0u8; 4];
        learn.copy_from_slice(&bytes[12..]);
        Entry {
            key: u64::from_be_bytes(key),
            code: u16::from_be_bytes([bytes[8], bytes[9]]),
            weight: u16::from_be_bytes([bytes[10], bytes[11]]),
            learn: u32::from_be_bytes(learn),
        }
    }
}

/// What is wrong with a book's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BookErrorKind {
    /// The last entry is cut short: it has this many of its 16 bytes.
    Truncated(usize),
    /// The entry's key is smaller than the key of the entry before it.
    Unsorted {
        /// The key before.
        previous: u64,
        /// This entry's key.
        key: u64,
    },
    /// The move field is not a move: `from` and `to` are the same square, or the promotion
    /// piece is not 0–4, or bit 15 is set.
    BadMove(u16),
    /// The file starts with text (a PGN file, say): it is no Polyglot book, whose entries
    /// start with an 8-byte binary key.
    Text,
}

/// An error reading a book: what, and the byte offset of the entry where it is.
///
/// ```
/// let mut bytes = vec![0u8; 20];
/// bytes[9] = 0x1c; // a move so that the first entry is fine
/// bytes[8] = 0x03;
/// let err = tabia_book::Book::from_bytes(&bytes).unwrap_err();
/// assert_eq!(err.offset(), 16);
/// assert_eq!(err.to_string(), "truncated book: the entry at byte 16 has 4 of its 16 bytes");
/// let err = tabia_book::Book::from_bytes(b"[Event \"x\"]\n[Site \"?\"]\n\n1. e4 *\n").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "not a Polyglot book: it starts with text (a book is 16-byte binary entries)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookError {
    kind: BookErrorKind,
    offset: u64,
}

impl BookError {
    /// What is wrong.
    pub fn kind(&self) -> &BookErrorKind {
        &self.kind
    }

    /// The byte offset of the entry where it is.
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.offset;
        match &self.kind {
            BookErrorKind::Truncated(n) => write!(
                f,
                "truncated book: the entry at byte {at} has {n} of its {ENTRY_BYTES} bytes"
            ),
            BookErrorKind::Unsorted { previous, key } => write!(
                f,
                "book not sorted by key: the entry at byte {at} has key {key:016x}, smaller than \
                 {previous:016x} before it"
            ),
            BookErrorKind::Text => f.write_str(
                "not a Polyglot book: it starts with text (a book is 16-byte binary entries)",
            ),
            BookErrorKind::BadMove(code) => write!(
                f,
                "bad move {code:#06x} ({}) in the entry at byte {at}",
                code_text(*code)
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// How a book's weights are made from a tree's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Weight {
    /// The number of games that played the move.
    #[default]
    Games,
    /// Polyglot's score: 2 × wins + draws of the side that played it.
    Score,
    /// The games the side that played it won.
    Wins,
}

/// How [`Book::from_tree`] chooses and weighs moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookOptions {
    /// Moves played by fewer games are left out.
    pub min_games: u32,
    /// Only the moves of this side (`None`: both).
    pub only: Option<Color>,
    /// How weights are made.
    pub weight: Weight,
}

impl Default for BookOptions {
    /// Polyglot's default: moves of at least 3 games, both sides, weighted by games.
    fn default() -> BookOptions {
        BookOptions {
            min_games: 3,
            only: None,
            weight: Weight::Games,
        }
    }
}

/// A move of a book in a position ([`Book::probe`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BookMove {
    /// The move in SAN.
    pub san: String,
    /// The move in UCI (castling as the king's move in standard chess).
    pub uci: String,
    /// Its weight.
    pub weight: u16,
    /// Its share of the weights of the position's moves, in percent.
    pub percent: f64,
    /// The learn field.
    pub learn: u32,
    /// The legal move.
    #[serde(skip)]
    pub m: Move,
}

/// A Polyglot opening book: its entries, sorted by key (then by weight, heaviest first, then
/// by move).
///
/// ```
/// use tabia_book::{Book, BookOptions, Tree, TreeOptions};
/// use tabia_position::Position;
///
/// let mut tree = Tree::new(TreeOptions::default());
/// tree.add_pgn(&b"1. e4 e5 *\n\n1. e4 c5 *\n\n1. d4 *\n"[..])?;
/// let book = Book::from_tree(&tree, BookOptions { min_games: 1, ..BookOptions::default() });
/// let bytes = book.to_bytes();
/// assert_eq!(bytes.len(), 4 * 16);
/// let read = Book::from_bytes(&bytes).expect("a valid book");
/// let moves = read.probe(&Position::new());
/// assert_eq!((moves[0].san.as_str(), moves[0].weight, moves[0].percent), ("e4", 2, 66.7));
/// assert_eq!(moves[1].uci, "d2d4");
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// A book of these entries (sorted here).
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by(|a, b| {
            (a.key, std::cmp::Reverse(a.weight), a.code, a.learn).cmp(&(
                b.key,
                std::cmp::Reverse(b.weight),
                b.code,
                b.learn,
            ))
        });
        Book { entries }
    }

    /// Reads a book.
    ///
    /// # Errors
    ///
    /// A length that is not a multiple of 16, keys out of order, or a move field that is no
    /// move; the error names the byte offset of the entry.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        // A book's first bytes are a hash: 32 bytes of printable text are no book.
        let head = &bytes[..bytes.len().min(32)];
        if head.len() >= ENTRY_BYTES
            && head
                .iter()
                .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace())
        {
            return Err(BookError {
                kind: BookErrorKind::Text,
                offset: 0,
            });
        }
        let mut entries = Vec::with_capacity(bytes.len() / ENTRY_BYTES);
        let mut chunks = bytes.chunks_exact(ENTRY_BYTES);
        let mut previous: Option<u64> = None;
        for (i, chunk) in (&mut chunks).enumerate() {
            let offset = (i * ENTRY_BYTES) as u64;
            let mut raw = [0u8; ENTRY_BYTES];
            raw.copy_from_slice(chunk);
            let entry = Entry::from_bytes(&raw);
            if let Some(previous) = previous
                && entry.key < previous
            {
                return Err(BookError {
                    kind: BookErrorKind::Unsorted {
                        previous,
                        key: entry.key,
                    },
                    offset,
                });
            }
            if !valid_code(entry.code) {
                return Err(BookError {
                    kind: BookErrorKind::BadMove(entry.code),
                    offset,
                });
            }
            previous = Some(entry.key);
            entries.push(entry);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            return Err(BookError {
                kind: BookErrorKind::Truncated(rest.len()),
                offset: (bytes.len() - rest.len()) as u64,
            });
        }
        Ok(Book { entries })
    }

    /// The book's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        for entry in &self.entries {
            out.extend_from_slice(&entry.to_bytes());
        }
        out
    }

    /// The entries, sorted by key.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries of a key.
    pub fn entries_of(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = self.entries.partition_point(|e| e.key <= key);
        &self.entries[start..end]
    }

    /// The moves of the book in `pos` that are legal there, heaviest first (weight-0 entries
    /// too), each with its share of the weights in percent (one decimal); none in a position
    /// of another variant than standard chess.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let Some(key) = polyglot_key(pos) else {
            return Vec::new();
        };
        let entries: Vec<(Entry, Move)> = self
            .entries_of(key)
            .iter()
            .filter_map(|e| decode_move(pos, e.code).map(|m| (*e, m)))
            .collect();
        let total: u64 = entries.iter().map(|(e, _)| u64::from(e.weight)).sum();
        entries
            .into_iter()
            .map(|(e, m)| BookMove {
                san: pos.san(m).to_string(),
                uci: uci(pos, m),
                weight: e.weight,
                percent: if total == 0 {
                    0.0
                } else {
                    (1000.0 * f64::from(e.weight) / total as f64).round() / 10.0
                },
                learn: e.learn,
                m,
            })
            .collect()
    }

    /// The book of both: a move in both gets the sum of the weights (scaled down with every
    /// other weight if a sum passes 65535) and the learn field of `self`, as Polyglot's
    /// `merge-book` does.
    pub fn merge(&self, other: &Book) -> Book {
        let mut raw: Vec<(u64, u16, u64, u32)> = Vec::new();
        let mut all: Vec<(Entry, bool)> = Vec::with_capacity(self.len() + other.len());
        all.extend(self.entries.iter().map(|e| (*e, true)));
        all.extend(other.entries.iter().map(|e| (*e, false)));
        all.sort_by_key(|(e, first)| (e.key, e.code, !first));
        for (e, _) in all {
            match raw.last_mut() {
                Some(last) if last.0 == e.key && last.1 == e.code => last.2 += u64::from(e.weight),
                _ => raw.push((e.key, e.code, u64::from(e.weight), e.learn)),
            }
        }
        Book::from_entries(scale(raw))
    }

    /// The book of a tree: every move of standard chess or Chess960 (not the ended-game
    /// entries, not the positions of other variants, which Polyglot has no keys for) played by at least
    /// `options.min_games` games, of the side `options.only`, weighted by `options.weight`; a
    /// move whose weight is 0 (no win, with [`Weight::Wins`]) is left out. Weights above 65535
    /// scale every weight down by the same factor (a non-zero weight stays at least 1), so
    /// that their proportions hold across the book, as Polyglot's "globally scaled".
    ///
    /// The key is computed from the position key, which keeps an en-passant square only when
    /// the capture is legal; Polyglot hashes it whenever a pawn stands beside. The two differ
    /// only right after a double step next to a pawn that is pinned (or whose capture would
    /// expose its king): such a position gets the key without en passant here.
    pub fn from_tree(tree: &Tree, options: BookOptions) -> Book {
        let mut raw: Vec<(u64, u16, u64, u32)> = Vec::new();
        let mut keys: std::collections::HashMap<PositionKey, Option<u64>> =
            std::collections::HashMap::new();
        for (key, code, stats) in tree.edges() {
            if code == END || stats.games < options.min_games || key.variant() != Variant::Chess {
                continue;
            }
            let mover = key.turn();
            if options.only.is_some_and(|only| only != mover) {
                continue;
            }
            let wins = mover.fold_wb(stats.white, stats.black);
            let weight = match options.weight {
                Weight::Games => u64::from(stats.games),
                Weight::Score => 2 * u64::from(wins) + u64::from(stats.draws),
                Weight::Wins => u64::from(wins),
            };
            if weight == 0 {
                continue;
            }
            let hash = *keys.entry(key).or_insert_with(|| key_of(&key));
            if let Some(hash) = hash {
                raw.push((hash, code, weight, 0));
            }
        }
        Book::from_entries(scale(raw))
    }
}

/// Weights to 16 bits: all scaled by one factor when the largest passes 65535.
fn scale(raw: Vec<(u64, u16, u64, u32)>) -> Vec<Entry> {
    let max = raw.iter().map(|r| r.2).max().unwrap_or(0);
    raw.into_iter()
        .map(|(key, code, weight, learn)| {
            let weight = if max > u64::from(u16::MAX) {
                ((weight * u64::from(u16::MAX) + max / 2) / max).max(1)
            } else {
                weight
            };
            Entry {
                key,
                code,
                weight: u16::try_from(weight).unwrap_or(u16::MAX),
                learn,
            }
        })
        .collect()
}

/// Whether a move field can be a move: distinct squares, a promotion piece of 0–4, bit 15
/// clear.
fn valid_code(code: u16) -> bool {
    let from = (code >> 6) & 0x3f;
    let to = code & 0x3f;
    from != to && (code >> 12) <= 4
}

/// The Polyglot key of a position: en passant when a pawn of the side to move stands beside
/// the pawn that just moved two squares, whether or not the capture is legal. `None` for a
/// position of another variant than standard chess (Chess960 included): Polyglot books have
/// no keys for them.
///
/// ```
/// use tabia_position::Position;
///
/// assert_eq!(tabia_book::polyglot_key(&Position::new()), Some(0x463b96181691fc9c));
/// let pos = Position::from_arg("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")?;
/// assert_eq!(tabia_book::polyglot_key(&pos), Some(0x22a48b5a8e47ff78));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn polyglot_key(pos: &Position) -> Option<u64> {
    pos.as_chess().map(|chess| {
        chess
            .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
            .0
    })
}

/// The Polyglot key of a tree's position key (`None` if it is no legal position).
fn key_of(key: &PositionKey) -> Option<u64> {
    let mut setup = Setup::empty();
    setup.board = key.board();
    setup.turn = key.turn();
    setup.castling_rights = key.castling_rights();
    setup.ep_square = key.ep_square();
    let chess = Chess::from_setup(setup, CastlingMode::Chess960).ok()?;
    Some(chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0)
}

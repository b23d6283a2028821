//! Keeping chess game collections clean: the output forms people convert games to, duplicate
//! detection, and splitting collections into files.
//!
//! - [`Form`]: how games are written — stripped of comments, NAGs, variations or tags; with
//!   added tags (`PlyCount`, `Zobrist`, `FinalFEN`, ECO by position); moves in SAN, long
//!   algebraic or UCI, in other piece letters or figurines; with or without move numbers and
//!   results; any line length, one game per line; variations split into games.
//! - Deduplication: a [`Digester`] turns a game into a 16-byte [`Digest`] of what
//!   [`DedupBy`] compares (mainline moves, final position, position at a depth); [`Seen`]
//!   (24 bytes a game) says whether a digest is new or where its first game is; [`Best`]
//!   keeps the most annotated copy ([`annotations`]); [`Deduper`] decides, in input order,
//!   which copy is kept ([`Keep`]) and which are duplicates; [`DigestExporter`] checks,
//!   digests and writes a game while the reader reads it, with no game tree.
//! - Splitting: the key of a game ([`SplitBy`]), keys made safe and collision-free as file
//!   names ([`file_stem`]), and [`Files`]: a folder of (compressed) files with a bounded
//!   number open at once; [`Splitter`] writes each game to its file in input order (N
//!   games a file, or by key; games in error apart).
//!
//! It sits above `tabia-eco` (for ECO tags by position) and under the `tabia` binary, which
//! only parses arguments into these types.

#![deny(missing_docs)]

mod dedup;
mod exporter;
mod form;
mod keep;
mod split;
mod splitter;

pub use dedup::{Best, DedupBy, Digest, DigestHasher, Digester, Place, Seen, annotations};
pub use exporter::{DigestExporter, Digested};
pub use form::{Form, FormError};
pub use keep::{ChangedInput, Decided, Deduper, Duplicate, GameCopy, Keep};
pub use split::{Existing, FileCompression, Files, SplitBy, UNKNOWN_STEM, file_stem};
pub use splitter::Splitter;
pub use tabia_eco as eco;
pub use tabia_position as position;
pub use tabia_position::notation;

//! Chess notation grammars and writers: pure syntax, no chess rules.
//!
//! tabia-notation reads and writes the text formats of chess:
//!
//! - [`fen`]: Forsyth–Edwards Notation, strict and lenient (partial FEN filled with defaults),
//!   with standard, Shredder and X-FEN castling.
//! - [`epd`]: Extended Position Description, the four position fields and operations.
//! - [`san`]: moves in Standard Algebraic Notation, UCI notation and long algebraic notation,
//!   as syntax.
//! - [`pgn`]: Portable Game Notation: a streaming reader over any [`std::io::Read`] with a
//!   visitor and an owned [`pgn::Game`] tree, and a writer of the PGN export format.
//!
//! They share a small vocabulary of `Copy` types at the crate root: [`Color`], [`Role`],
//! [`Piece`], [`Square`], [`CastlingSide`] and [`Nag`].
//!
//! Every grammar is written with `nom` over bytes, one function per grammar rule. Every error is
//! an [`Error`]: a typed [`ErrorKind`], a byte span and, when the source is known, the line,
//! column and a caret snippet.
//!
//! The crate knows nothing of chess rules: whether a move is legal or a position possible is the
//! business of `tabia-position`.

#![deny(missing_docs)]

mod error;
mod located;
mod value;

pub use error::{Error, ErrorKind, Location, decode};
pub use located::Located;
pub use value::UnknownValue;

// --- fen, epd, san: modules and re-exports (owned by the FEN/EPD/SAN work) ---

mod syntax;
mod types;

pub mod epd;
pub mod fen;
pub mod san;

pub use types::{CastlingSide, Color, Nag, Piece, Role, Square, decimal_digits};

// --- pgn: module and re-exports (owned by the PGN work) ---
pub mod pgn;
